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
from dataclasses import dataclass, field
from pathlib import Path

from interpreter.resources import version

FORMAT = "regola-log/1"


class LogError(Exception):
    pass


def header(game, rules: str, seed: int, agents=None) -> dict:
    h = {"type": "header", "format": FORMAT, "rules": rules, "game": game.name, "modules": game.modules,
         "with": getattr(game, "requested_modules", []), "players": game.num_players, "seed": seed, "version": version(), "fingerprint": game.fingerprint}
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


def read(path) -> Log:
    p = Path(path)
    try:
        lines = p.read_text(encoding="utf-8").splitlines()
    except OSError as e:
        raise LogError(f"{path}: cannot read: {e.strerror}") from None
    if not lines:
        raise LogError(f"{path}: empty file, not a game log")
    recs = []
    for i, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            rec = json.loads(line)
        except json.JSONDecodeError as e:
            raise LogError(f"{path}:{i}: not valid JSON ({e.msg} at column {e.colno})") from None
        if not isinstance(rec, dict) or "type" not in rec:
            raise LogError(f"{path}:{i}: each line must be a JSON object with a 'type'")
        recs.append((i, rec))
    line1, h = recs[0]
    if h.get("type") != "header" or h.get("format") != FORMAT:
        raise LogError(f"{path}:{line1}: the first line must be a header of format {FORMAT}")
    for key in ("rules", "players", "seed"):
        if key not in h:
            raise LogError(f"{path}:{line1}: the header has no '{key}'")
    log = Log(h)
    for i, rec in recs[1:]:
        t = rec["type"]
        if t in ("move", "chance"):
            rec["_line"] = i
            log.entries.append(rec)
        elif t == "end":
            rec["_line"] = i
            log.end = rec
        else:
            raise LogError(f"{path}:{i}: unknown line type '{t}'")
    return log
