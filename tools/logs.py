"""Game logs: JSON lines that replay exactly.

    {"type": "header", "format": "regola-log/1", "rules": ..., "modules": [...], "players": N,
     "seed": S, "version": ..., "fingerprint": ...}
    {"type": "chance", "outcome": "palace_AB"}
    {"type": "move", "player": 1, "move": "buy_tile(2)", "id": 3}
    ...
    {"type": "end", "scores": [...], "winners": [...], "moves": M}

Players are numbered from 1. Every chance outcome is written out, so another engine can
replay the game without our random generator.
"""

from __future__ import annotations

import json
import stat
from dataclasses import dataclass, field
from pathlib import Path

from regola.resources import version

FORMAT = "regola-log/1"


class LogError(Exception):
    pass


def rules_reference(rules: str) -> str:
    """What a log or save calls its rules: a bundled game's name as it is, a path made
    absolute, so the file replays from any directory of this machine."""
    from regola.resources import bundled_games
    if rules in bundled_games():
        return rules
    p = Path(rules)
    return str(p.resolve()) if p.exists() else rules


def header(game, rules: str, seed: int, agents=None) -> dict:
    h = {"type": "header", "format": FORMAT, "rules": rules_reference(rules), "game": game.name, "modules": game.modules,
         "with": getattr(game, "requested_modules", []), "players": game.num_players, "seed": seed, "version": version(), "fingerprint": game.fingerprint}
    if getattr(game, "options", None):
        h["options"] = dict(game.options)       # the game options given (by name, as text)
    if agents:
        h["agents"] = list(agents)
    return h


@dataclass
class Log:
    header: dict
    entries: list = field(default_factory=list)
    end: dict | None = None


def write(path, log: Log):
    with open(path, "w", encoding="utf-8") as f:
        f.write(json.dumps(log.header) + "\n")
        for e in log.entries:
            f.write(json.dumps(e) + "\n")
        if log.end is not None:
            f.write(json.dumps(log.end) + "\n")


MAX_LOG_BYTES = 64 * 1024 * 1024     # a long game's log is some tens of kilobytes
MAX_LINE = 1_000_000                 # characters in one line
MAX_TEXT = 1_000                     # characters in a move, an outcome, a rules name


def read(path) -> Log:
    """Read and check a log: an empty, truncated or foreign file, or a field of the wrong
    type, is a LogError naming the line and the field (unknown fields are ignored)."""
    p = Path(path)
    try:
        info = p.stat()
        if not stat.S_ISREG(info.st_mode):
            raise LogError(f"{path}: not a file")
        if info.st_size > MAX_LOG_BYTES:
            raise LogError(f"{path}: {info.st_size:,} bytes is too large for a game log")
        lines = p.read_text(encoding="utf-8").splitlines()
    except OSError as e:
        raise LogError(f"{path}: cannot read: {e.strerror}") from None
    except UnicodeDecodeError:
        raise LogError(f"{path}: not a game log (not UTF-8 text)") from None
    if not lines:
        raise LogError(f"{path}: empty file, not a game log")
    recs = []
    for i, line in enumerate(lines, 1):
        if not line.strip():
            continue
        if len(line) > MAX_LINE:
            raise LogError(f"{path}:{i}: a line of {len(line):,} characters is too long for a game log")
        try:
            rec = json.loads(line)
        except json.JSONDecodeError as e:
            raise LogError(f"{path}:{i}: not valid JSON ({e.msg}: column {e.colno}; truncated?)") from None
        except RecursionError:
            raise LogError(f"{path}:{i}: not a log line (nested too deeply)") from None
        except ValueError:                # an integer of thousands of digits
            raise LogError(f"{path}:{i}: not a log line (a number with too many digits)") from None
        if not isinstance(rec, dict) or "type" not in rec:
            raise LogError(f"{path}:{i}: each line must be a JSON object with a 'type'")
        recs.append((i, rec))
    if not recs:
        raise LogError(f"{path}: only blank lines, not a game log")
    line1, h = recs[0]
    check_header(h, f"{path}:{line1}")
    log = Log(h)
    for i, rec in recs[1:]:
        where = f"{path}:{i}"
        if log.end is not None:
            raise LogError(f"{where}: a line after the end of the game")
        check_entry(rec, where, h["players"])
        rec["_line"] = i
        if rec["type"] == "end":
            log.end = rec
        else:
            log.entries.append(rec)
    return log


def check_header(h, where: str):
    """A log's header: its format and the types of the fields a replay uses."""
    if not isinstance(h, dict) or h.get("type") != "header" or h.get("format") != FORMAT:
        raise LogError(f"{where}: the first line must be a header of format {FORMAT}")
    for key in ("rules", "players", "seed"):
        if key not in h:
            raise LogError(f"{where}: the header has no '{key}'")
    _field(h, "rules", where, "a bundled game's name or a rules path", _is_name)
    _field(h, "players", where, "a number of players (1 or more)", lambda x: _is_int(x) and x >= 1)
    _field(h, "seed", where, "an integer", lambda x: type(x) is int)
    for key in ("modules", "with", "agents"):
        _field(h, key, where, "a list of names", lambda x: isinstance(x, list) and all(map(_is_name, x)))
    for key in ("fingerprint", "game", "version"):
        _field(h, key, where, "a string", _is_name)
    _field(h, "options", where, "a mapping of option names to values (text)",
           lambda x: isinstance(x, dict) and all(_is_name(k) and _is_name(v) for k, v in x.items()))


def check_entry(rec, where: str, players: int):
    """A move, a chance outcome or the end, with the types a replay needs."""
    kind = rec.get("type")
    if kind == "move":
        _field(rec, "player", where, f"a seat from 1 to {players}", lambda x: _is_int(x) and 1 <= x <= players,
               required=True)
        _field(rec, "move", where, "a move's text", _is_name, required=True)
        _field(rec, "id", where, "a move's integer id", _is_int)
    elif kind == "chance":
        _field(rec, "outcome", where, "an outcome's text", _is_name, required=True)
    elif kind == "end":
        ints = lambda x: isinstance(x, list) and all(map(_is_int, x))  # noqa: E731
        _field(rec, "scores", where, "a list of integers", ints)
        _field(rec, "winners", where, "a list of seats", ints)
        _field(rec, "moves", where, "an integer", _is_int)
    else:
        raise LogError(f"{where}: unknown line type {_show(kind)} (header, move, chance or end)")


def _field(rec, key, where, what, ok, required=False):
    if key not in rec:
        if required:
            raise LogError(f"{where}: the {rec.get('type')} has no '{key}'")
        return
    if not ok(rec[key]):
        raise LogError(f"{where}: the {rec.get('type')}'s '{key}' must be {what}, not {_show(rec[key])}")


def _is_int(x) -> bool:
    return type(x) is int and abs(x) < 2 ** 64


def _is_name(x) -> bool:
    return type(x) is str and 0 < len(x) <= MAX_TEXT


def _show(x) -> str:
    if isinstance(x, (dict, list)):
        return "an object" if isinstance(x, dict) else f"a list of {len(x)}"
    text = json.dumps(x)
    return text if len(text) <= 40 else text[:37] + "..."
