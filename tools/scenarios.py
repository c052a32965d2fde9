"""Scenario tests: YAML files that set up a position, play moves and check expectations
written in the rules language.

    rules: lungarno            # defaults for every scenario of the file
    players: 3
    scenarios:
      - name: buying the middle tile costs one florin
        seed: 4
        with: []
        options: {first_player: 2}     # game options (`option` declarations), by name
        position:                      # statements run after setup
          - player(1).florins = 10
        steps:
          - move: buy_tile(1)          # a canonical move string (or a list of them)
          - chance: shop               # force the next chance outcome
          - expect: player(1).florins == 9
          - illegal: buy_tile(7)
            because: "must be one of"  # part of the refusal message, rule name or position
          - to_move: 2                 # a seat, 'chance' or 'over'
          - legal_includes: [pass]
          - run: player(2).florins += 1
          - scores: [14, 12, 9]        # final scores, in seat order (the game must be over)
          - winners: [1]               # seats of the winners
          - observe: {player: 2, expect: ["count(player(1).hand) == 2"], unknown: ["player(1).hand"]}
          - forced: "shield=A"         # taken without asking since the last move (one option)
          - impossible: [office]       # chance outcomes that cannot come now
      - name: two modules that cannot be played together
        refused_modules: [tomb, estates]
        refusal: "cannot be used together"      # part of the message (optional)

A step that is not `chance:` first resolves any pending chance events from the seed.
A failing expectation prints the expression, the values of its two sides and the line.
`observe`, `forced` and `impossible` are described in scenario_checks.py.
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from pathlib import Path

from ruamel.yaml import YAML
from ruamel.yaml.error import YAMLError

from regola.compose import ModuleSelectionError
from regola.diagnostics import RulesError, render_all
from regola.loader import load_game
from regola.runtime.game import IllegalMove
from regola.runtime.helpers import RulesRuntimeError
from regola.runtime.record import Record
from regola.snippets import SnippetCompiler

from . import scenario_checks

STEP_KEYS = ("move", "chance", "expect", "illegal", "to_move", "legal", "legal_includes", "legal_excludes",
             "run", "scores", "winners", "observe", "forced", "impossible")


class ScenarioError(Exception):
    pass


@dataclass
class Scenario:
    name: str
    path: str
    line: int
    rules: str
    players: int | None
    seed: int
    modules: list[str]
    position: list                    # [(text, (file, line, col))]
    steps: list                       # [(kind, value, extra, (file, line, col))]
    text: str = ""
    options: dict = field(default_factory=dict)     # game options set by name (text values)
    refused_modules: list | None = None   # modules that must be refused together (no steps then)
    refusal: str = ""                     # part of that refusal's message
    to_move_first: int | None = None      # the seat the game starts with (the option first_player)

    @property
    def where(self) -> str:
        return f"{self.path}:{self.line}"


@dataclass
class Outcome:
    ok: bool
    message: str = ""
    checks: int = 0


def _pos(node, key_or_index, path):
    """(file, line, col) of a mapping value or sequence item, 1-based, inside quotes."""
    try:
        line, col = node.lc.value(key_or_index) if isinstance(key_or_index, str) else node.lc.item(key_or_index)
    except Exception:  # noqa: BLE001
        line, col = node.lc.line, node.lc.col
    return (path, line + 1, col + 1)


def _scalar_pos(parent, key, path, text_src: list[str]):
    f, line, col = _pos(parent, key, path)
    src = text_src[line - 1] if 0 < line <= len(text_src) else ""
    if col - 1 < len(src) and src[col - 1] in "\"'":
        col += 1
    elif col - 1 < len(src) and src[col - 1] in "|>" and line < len(text_src):
        nxt = text_src[line]                     # a block scalar starts on the next line
        line, col = line + 1, len(nxt) - len(nxt.lstrip()) + 1
    return (f, line, col)


FILE_KEYS = ("rules", "players", "seed", "with", "options", "scenarios")
SCENARIO_KEYS = ("name", "rules", "players", "seed", "with", "options", "position", "steps", "refused_modules",
                 "refusal", "to_move_first")


def _int(v) -> bool:
    """A whole number: not a bool, not a float (ruamel reads `0` as an int subclass)."""
    return isinstance(v, int) and not isinstance(v, bool)


def _shown(v) -> str:
    """A YAML value as the file wrote it."""
    if isinstance(v, bool):
        return f"{'true' if v else 'false'} (a yes/no value)"
    return repr(v) if isinstance(v, str) else str(v)


def _key_line(node, key, default: int) -> int:
    """1-based line of a mapping's key."""
    try:
        return node.lc.key(key)[0] + 1
    except Exception:  # noqa: BLE001
        return default


def _check_keys(node, allowed, path, line, what):
    """Unknown keys are refused (a misspelt 'steps' would leave a scenario that checks nothing);
    keys starting with 'x-' are free (YAML anchors to share steps, notes)."""
    unknown = [k for k in node if k not in allowed and not str(k).startswith("x-")]
    if unknown:
        k = unknown[0]
        from regola.suggest import did_you_mean
        raise ScenarioError(f"{path}:{_key_line(node, k, line)}: unknown key "
                            f"'{k}' in {what}{did_you_mean(str(k), list(allowed))} (the keys are "
                            f"{', '.join(allowed)}, and x-... for your own use)")


def load_file(path) -> list[Scenario]:
    """The scenarios of a file, each checked for shape; a ScenarioError names the file and
    line of the first problem."""
    path = str(path)
    yaml = YAML(typ="rt")
    try:
        text = Path(path).read_text(encoding="utf-8")
        data = yaml.load(io.StringIO(text))
    except OSError as e:
        raise ScenarioError(f"{path}: cannot read: {e.strerror}") from None
    except UnicodeDecodeError:
        raise ScenarioError(f"{path}: not a scenario file (not UTF-8 text)") from None
    except YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        problem = getattr(e, "problem", None)
        if mark is not None and problem:
            raise ScenarioError(f"{path}:{mark.line + 1}:{mark.column + 1}: not valid YAML: {problem}"
                                + (" (a colon followed by a space starts a mapping: quote the whole text)"
                                   if "mapping values" in problem else "")) from None
        raise ScenarioError(f"{path}: not valid YAML: {e}") from None
    except RecursionError:
        raise ScenarioError(f"{path}: not a scenario file (nested too deeply)") from None
    lines = text.splitlines()
    if not isinstance(data, dict):
        raise ScenarioError(f"{path}: a scenario file is a mapping (with 'steps', or 'scenarios')")
    items = data.get("scenarios")
    if items is None:
        _check_keys(data, FILE_KEYS[:-1] + SCENARIO_KEYS[:1] + SCENARIO_KEYS[5:], path, 1, "the file")
        nodes = [(data, 1)]
    else:
        _check_keys(data, FILE_KEYS, path, 1, "the file")
        line = _key_line(data, "scenarios", 1)
        if not isinstance(items, list):
            raise ScenarioError(f"{path}:{line}: 'scenarios' must be a list of scenarios "
                                f"(each starting with '- name: ...')")
        if not items:
            raise ScenarioError(f"{path}:{line}: 'scenarios' is empty: nothing to test")
        nodes = [(it, _pos(items, i, path)[1]) for i, it in enumerate(items)]
    out = []
    for sc, line in nodes:
        if not isinstance(sc, dict):
            raise ScenarioError(f"{path}:{line}: each scenario is a mapping (name, steps, ...)")
        if sc is not data:
            _check_keys(sc, SCENARIO_KEYS, path, line, "a scenario")
        out.append(_scenario(sc, data, line, path, lines))
    return out


def _resolve_rules(rules: str, scenario_path) -> str:
    """A scenario's `rules:` names a path relative to its own file first (so a game and its
    scenarios move together), then a bundled game, then a path from where regola runs."""
    here = Path(scenario_path).parent / rules
    if not Path(rules).is_absolute() and (here.suffix == ".regola" and here.is_file()
                                          or here.is_dir() and any(here.glob("*.regola"))):
        return str(here)
    return rules


def _scenario(sc, data, line, path, lines) -> Scenario:
    def get(k):
        node = sc if k in sc else data
        return node.get(k), f"{path}:{_key_line(node, k, line) if k in node else line}"

    rules, at = get("rules")
    if not rules:
        raise ScenarioError(f"{path}:{line}: no 'rules' given (a bundled game's name or a rules path)")
    if not isinstance(rules, str):
        raise ScenarioError(f"{at}: 'rules' must be a bundled game's name or a rules path, not {rules!r}")
    rules = _resolve_rules(rules, path)
    players, at = get("players")
    if players is not None and (not _int(players) or players < 1):
        raise ScenarioError(f"{at}: 'players' must be a whole number of players (such as 3), "
                            f"not {_shown(players)}")
    seed, at = get("seed")
    if seed is not None and not _int(seed):
        raise ScenarioError(f"{at}: 'seed' must be a whole number, not {_shown(seed)}")
    mods, at = get("with")
    mods = mods or []
    if isinstance(mods, str):
        mods = [m.strip() for m in mods.split(",") if m.strip()]
    if not (isinstance(mods, list) and all(isinstance(m, str) for m in mods)):
        raise ScenarioError(f"{at}: 'with' must be a list of module names, not {mods!r}")
    options, at = get("options")
    options = options or {}
    if not isinstance(options, dict) or not all(isinstance(k, str) and (isinstance(v, (str, int)))
                                                for k, v in options.items()):
        raise ScenarioError(f"{at}: 'options' maps game options to values (such as 'first_player: 2'), "
                            f"not {_shown(options) if not isinstance(options, dict) else options!r}")
    options = {str(k): ("true" if v is True else "false" if v is False else str(v)) for k, v in options.items()}
    pos = []
    position = sc.get("position") or []
    if isinstance(position, str):
        position = [position]
        pos.append((position[0], _scalar_pos(sc, "position", path, lines)))
    elif not isinstance(position, list):
        raise ScenarioError(f"{path}:{_key_line(sc, 'position', line)}: 'position' is a list of statements")
    else:
        for i, stmt in enumerate(position):
            where = _scalar_pos(position, i, path, lines)
            if not isinstance(stmt, (str, int)) or isinstance(stmt, bool):
                raise ScenarioError(f"{where[0]}:{where[1]}: a position statement is text, "
                                    f"such as 'player(1).coins = 3'; "
                                    + (f"YAML read {_shown(stmt)}: quote it" if isinstance(stmt, bool)
                                       else _yaml_read(stmt)))
            pos.append((str(stmt), where))
    steps = []
    raw = sc.get("steps")
    if raw is not None and not isinstance(raw, list):
        raise ScenarioError(f"{path}:{_key_line(sc, 'steps', line)}: 'steps' must be a list, each step "
                            f"on a line starting with '- ' (such as '- move: ...'), not "
                            f"{type(raw).__name__ if not isinstance(raw, str) else 'a string'}")
    for i, st in enumerate(raw or []):
        steps.extend(_step(st, raw, i, path, lines))
    refused, refusal = _refused(sc, path, line, steps or pos)
    first = sc.get("to_move_first")
    if first is not None:
        at = f"{path}:{_key_line(sc, 'to_move_first', line)}"
        if not _int(first) or first < 1:
            raise ScenarioError(f"{at}: 'to_move_first' is the seat that starts (such as 3), not {_shown(first)}")
        if "first_player" in options:
            raise ScenarioError(f"{at}: 'to_move_first' sets the option first_player, which 'options' sets too: "
                                f"give one of them")
        options = {**options, "first_player": str(first)}
    return Scenario(str(sc.get("name") or f"scenario at line {line}"), path, line, rules,
                    None if players is None else int(players), int(seed or 0), list(mods), pos, steps,
                    options=options, refused_modules=refused, refusal=refusal,
                    to_move_first=None if first is None else int(first))


def _refused(sc, path, line, plays):
    """`refused_modules: [a, b]` and `refusal: text`: modules the game must refuse together."""
    if "refused_modules" not in sc:
        if "refusal" in sc:
            raise ScenarioError(f"{path}:{_key_line(sc, 'refusal', line)}: 'refusal' goes with 'refused_modules'")
        return None, ""
    at = f"{path}:{_key_line(sc, 'refused_modules', line)}"
    mods = sc["refused_modules"]
    if isinstance(mods, str):
        mods = [m.strip() for m in mods.split(",") if m.strip()]
    if not (isinstance(mods, list) and mods and all(isinstance(m, str) for m in mods)):
        raise ScenarioError(f"{at}: 'refused_modules' is a list of module names, such as [tomb, estates]")
    if plays:
        raise ScenarioError(f"{at}: a scenario of refused modules has no position or steps: the game "
                            f"never starts")
    refusal = sc.get("refusal", "")
    if not isinstance(refusal, str):
        raise ScenarioError(f"{path}:{_key_line(sc, 'refusal', line)}: 'refusal' is part of the refusal "
                            f"message (text)")
    return list(mods), refusal


def _step(st, parent, i, path, lines) -> list:
    """One step of the file as (kind, value, because, origin) entries (a list of moves,
    expectations or statements gives one entry each)."""
    where = _pos(parent, i, path)
    at = f"{where[0]}:{where[1]}"
    if not isinstance(st, dict):
        raise ScenarioError(f"{at}: a step is a mapping such as 'move: ...' or 'expect: ...', "
                            f"not {_shown(st)}")
    kinds = [k for k in st if k in STEP_KEYS]
    unknown = [k for k in st if k not in STEP_KEYS and k != "because"]
    if unknown:
        from regola.suggest import did_you_mean
        k = str(unknown[0])
        raise ScenarioError(f"{at}: unknown step '{k}'{did_you_mean(k, list(STEP_KEYS))} "
                            f"(a step is one of {', '.join(STEP_KEYS)})")
    if len(kinds) != 1:
        raise ScenarioError(f"{at}: a step has exactly one of {', '.join(STEP_KEYS)}"
                            + (f" (this one has {', '.join(kinds)})" if kinds else ""))
    k = kinds[0]
    val = st[k]
    if "because" in st and k != "illegal":
        raise ScenarioError(f"{at}: 'because' goes with an 'illegal:' step only")
    if "because" in st and not isinstance(st["because"], str):
        raise ScenarioError(f"{at}: 'because' is part of the refusal message (text)")
    if k == "observe":
        return [(k, _observe_spec(val, st, where[1], path, lines), None, _scalar_pos(st, k, path, lines))]
    items = val if isinstance(val, list) else [val]
    if val is None or (isinstance(val, list) and not val and k not in ("legal", "legal_excludes")):
        raise ScenarioError(f"{at}: '{k}:' has no value")
    for v in items:
        if isinstance(v, (dict, list)) or v is None:
            raise ScenarioError(f"{at}: '{k}:' takes text or a list of texts; {_yaml_read(v)}")
    if k in ("scores", "winners") and not all(_int(v) for v in items):
        raise ScenarioError(f"{at}: '{k}:' is a list of whole numbers, not {_shown(val)}")
    if k in ("forced", "impossible"):
        return [(k, [_text(v) for v in items], None, _scalar_pos(st, k, path, lines))]
    if k in ("expect", "move", "run") and isinstance(val, list):
        return [(k, _text(v), None, _scalar_pos(val, j, path, lines)) for j, v in enumerate(val)]
    if k in ("expect", "run", "chance", "illegal"):
        val = _text(val)
    return [(k, val, st.get("because"), _scalar_pos(st, k, path, lines))]


def _yaml_read(v) -> str:
    """What YAML made of a value meant as text, and how to keep it text."""
    if isinstance(v, dict) and v:
        k, x = next(iter(v.items()))
        return (f"YAML read '{k}: {x}' as a mapping (a colon followed by a space makes one): quote the "
                f"whole text, \"{k}: {x}\"")
    if isinstance(v, list):
        return "YAML read a list here (brackets make one): quote the text"
    if v is None:
        return "YAML read nothing here (an empty value, or text starting with '#', which starts a comment)"
    return f"YAML read {type(v).__name__} here (quote a value holding ': ' or '#')"


def _observe_spec(val, st, step_line: int, path, lines) -> dict:
    """`observe: {player: 2, expect: [...], unknown: [...]}` checked for shape."""
    if not isinstance(val, dict):
        raise ScenarioError(f"{path}:{step_line}: 'observe:' takes a mapping such as {{player: 2, expect: [...]}}, "
                            f"not {_shown(val)}")
    line = _key_line(st, "observe", step_line)
    where = f"{path}:{line}"
    _check_keys(val, ("player", "expect", "unknown"), path, line, "'observe:'")
    seat = val.get("player")
    if not _int(seat):
        raise ScenarioError(f"{where}: 'observe:' needs 'player:', the seat that observes (such as 2), "
                            f"not {_shown(seat)}")
    spec = {"player": int(seat)}
    for kind in ("expect", "unknown"):
        raw = val.get(kind)
        if raw is None:
            continue
        items = raw if isinstance(raw, list) else [raw]
        out = []
        for j, v in enumerate(items):
            if isinstance(v, (dict, list)) or v is None:
                raise ScenarioError(f"{where}: 'observe: {kind}:' takes expressions; {_yaml_read(v)}")
            out.append((_text(v), _scalar_pos(raw, j, path, lines) if isinstance(raw, list)
                        else _scalar_pos(val, kind, path, lines)))
        spec[kind] = out
    if not spec.get("expect") and not spec.get("unknown"):
        raise ScenarioError(f"{where}: 'observe:' checks nothing: give 'expect:' or 'unknown:'")
    return spec


def _text(v) -> str:
    """A YAML scalar as rules text (YAML reads `true` as a boolean)."""
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


def scenario_files(paths) -> list[Path]:
    """The scenario files named by `paths` (files, or directories searched for *.yaml)."""
    files = []
    for p in paths:
        p = Path(p)
        if p.is_dir():
            # directories starting with '_' hold scenarios not yet passing (as in pytest)
            files.extend(f for f in sorted(p.rglob("*.yaml"))
                         if not any(part.startswith("_") for part in f.relative_to(p).parts))
        else:
            files.append(p)
    return files


def collect(paths) -> list[list[Scenario]]:
    return [load_file(f) for f in scenario_files(paths)]


def run_scenario(sc: Scenario) -> Outcome:
    if sc.refused_modules is not None:
        return _run_refused(sc)
    try:
        return _run(sc)
    except ScenarioError as e:
        return Outcome(False, str(e))
    except RulesRuntimeError as e:
        return Outcome(False, f"{sc.where}: the rules failed: {e}")
    except RulesError as e:
        return Outcome(False, render_all(e.diagnostics, _yaml_sources(e, sc)))
    except (ModuleSelectionError, FileNotFoundError) as e:    # the game named cannot be loaded
        return Outcome(False, f"{sc.where}: {e}")


def _run_refused(sc: Scenario) -> Outcome:
    mods = sc.refused_modules
    try:
        load_game(sc.rules, modules=mods, players=sc.players, options=sc.options)
    except (ModuleSelectionError, RulesError) as e:
        text = str(e) if isinstance(e, ModuleSelectionError) else "\n".join(d.message for d in e.diagnostics)
        if sc.refusal and sc.refusal.lower() not in text.lower():
            return Outcome(False, f"{sc.where}: {mods} were refused, but not for '{sc.refusal}':\n  {text}")
        return Outcome(True, checks=1)
    except FileNotFoundError as e:
        return Outcome(False, f"{sc.where}: {e}")
    return Outcome(False, f"{sc.where}: the modules {mods} were expected to be refused together, but the "
                          f"game loaded with them")


def _yaml_sources(e, sc):
    from regola.diagnostics import SourceMap
    sm = e.sources or SourceMap()
    try:
        sm.add(sc.path, Path(sc.path).read_text(encoding="utf-8"))
    except OSError:
        pass
    return sm


def _run(sc: Scenario) -> Outcome:
    from regola.options import OptionError
    try:
        game = load_game(sc.rules, modules=sc.modules, players=sc.players, options=sc.options)
    except OptionError as e:
        if sc.to_move_first is None or "first_player" not in str(e):
            raise
        return Outcome(False, f"{sc.where}: 'to_move_first' sets the game option first_player, and the game has "
                              f"none ({e}): a game that can start on any seat declares "
                              f"`option first_player: Player = player(1)` and starts its turn order there")
    snip = SnippetCompiler(game)
    s = game.new_initial_state(sc.seed)
    if not (sc.steps and _keeps_chance(*sc.steps[0][:2])):   # (else the first roll or draw is forced)
        _settle(game, s)
    for text, origin in sc.position:
        try:
            snip.statements([text], [origin])(s)
        except RulesRuntimeError as e:
            return Outcome(False, f"{origin[0]}:{origin[1]}: this position statement failed: {e}")
    checks = 0
    if sc.to_move_first is not None:
        _settle(game, s)
        if game.is_terminal(s) or game.current_player(s) != sc.to_move_first - 1:
            return Outcome(False, f"{sc.where}: to_move_first: {sc.to_move_first}, but {_who(game, s)}: the rules "
                                  f"do not start the turn order at the option first_player")
        checks += 1
    s.record = Record()   # its decisions taken without asking serve `forced:` steps
    for kind, val, because, origin in sc.steps:
        where = f"{origin[0]}:{origin[1]}"
        if kind in ("move", "chance"):
            s.record.taken.clear()
        if not _keeps_chance(kind, val):
            _settle(game, s)
        if kind in ("observe", "forced", "impossible"):
            if kind == "observe":
                ok, message, n = scenario_checks.observe(game, snip, s, val, origin, sc.seed)
            else:
                check = scenario_checks.forced if kind == "forced" else scenario_checks.impossible
                ok, message = check(game, s, val if isinstance(val, list) else [val], where)
                n = 1
            if not ok:
                return Outcome(False, message)
            checks += n
            if kind == "forced":
                s.record.taken.clear()
            continue
        if kind == "move":
            moves = val if isinstance(val, list) else [val]
            for mv in moves:
                _settle(game, s)
                try:
                    game.apply(s, str(mv))
                except IllegalMove as e:
                    return Outcome(False, f"{where}: move {mv!r} was refused: {e}")
                except RulesRuntimeError as e:
                    return Outcome(False, f"{where}: the rules failed while playing {mv!r}: {e}")
        elif kind == "chance":
            if not game.is_chance(s):
                return Outcome(False, f"{where}: 'chance: {val}' but no chance event is pending "
                                      f"({_who(game, s)})")
            try:
                game.sample_chance(s)              # keep the generator in step with an unforced game
                game.apply_chance(s, str(val))
            except IllegalMove as e:
                return Outcome(False, f"{where}: {e}")
        elif kind == "illegal":
            if not game.names_a_move(str(val)):
                return Outcome(False, f"{where}: {val!r} is no move of this game at all (a misspelled action, "
                                      f"a wrong number of values, a value of the wrong type?): a step that "
                                      f"checks it is refused would pass without testing anything"
                                      f"{_nearest_move(game, s, str(val))}")
            before = game.dump(s)
            try:
                game.apply(s, str(val))
            except IllegalMove as e:
                if because and str(because).lower() not in str(e).lower():
                    return Outcome(False, f"{where}: {val!r} was refused, but not for '{because}':\n  {e}")
                if game.dump(s) != before:
                    return Outcome(False, f"{where}: the refused move {val!r} changed the state")
                checks += 1
                continue
            return Outcome(False, f"{where}: move {val!r} was expected to be illegal, but it was played")
        elif kind == "expect":
            fn = snip.expression(str(val), origin)
            try:
                value = fn(s)
            except RulesRuntimeError as e:
                return Outcome(False, f"{where}: evaluating {val!r} failed: {e}")
            if value is not True:
                details = []
                for side, sfn in snip.subexpressions(fn):
                    from regola.render import render_expr
                    try:
                        details.append(f"    {render_expr(side)} = {_show(game, side, sfn(s), snip)}")
                    except Exception as ex:  # noqa: BLE001
                        details.append(f"    {render_expr(side)}: {ex}")
                return Outcome(False, f"{where}: expectation failed: {val}\n    value: {value!r}\n"
                               + "\n".join(details))
            checks += 1
        elif kind == "to_move":
            want = str(val)
            got = _who_short(game, s)
            if got != want:
                return Outcome(False, f"{where}: expected {want} to move, but {got} is ({_who(game, s)})")
            checks += 1
        elif kind in ("legal", "legal_includes", "legal_excludes"):
            names = [game.move_str(s, m) for m in game.legal_moves(s)] if not game.is_chance(s) else []
            want = [str(x) for x in (val if isinstance(val, list) else [val])]
            split = [w for w in want if w.count("(") != w.count(")")]
            if split:
                return Outcome(False, f"{where}: {split} are not whole moves: YAML splits an unquoted "
                                      f"[a(1, 2)] at its comma; quote each move")
            norm = lambda x: "".join(x.split())  # noqa: E731
            have = {norm(n) for n in names}
            if kind == "legal" and have != {norm(w) for w in want}:
                return Outcome(False, f"{where}: legal moves are {sorted(names)}, expected {sorted(want)}")
            if kind == "legal_includes":
                missing = [w for w in want if norm(w) not in have]
                if missing:
                    return Outcome(False, f"{where}: not legal: {missing} (legal: {names})")
            if kind == "legal_excludes":
                unknown = [w for w in want if not game.names_a_move(w)]
                if unknown:
                    return Outcome(False, f"{where}: {unknown} name no move of this game at all: excluding "
                                          f"them tests nothing")
                present = [w for w in want if norm(w) in have]
                if present:
                    return Outcome(False, f"{where}: these should not be legal: {present}")
            checks += 1
        elif kind == "run":
            try:
                snip.statements([str(val)], [origin])(s)
            except RulesRuntimeError as e:
                return Outcome(False, f"{where}: this statement failed: {e}")
            s.cache = None     # the pending decision's options are listed again from the new state
        elif kind in ("scores", "winners"):
            if not game.is_terminal(s):
                return Outcome(False, f"{where}: '{kind}' needs the game to be over ({_who(game, s)})")
            got = game.scores(s) if kind == "scores" else [w + 1 for w in game.winners(s)]
            want = list(val) if isinstance(val, list) else [val]
            if got != want:
                return Outcome(False, f"{where}: {kind} are {got}, expected {want}")
            checks += 1
    return Outcome(True, checks=checks)


def _keeps_chance(kind, val) -> bool:
    """Steps that do not first resolve pending chance events: `chance:` forces the next one,
    `to_move: chance` asks whether one is pending, `impossible:` looks at the pending one."""
    return kind in ("chance", "impossible") or (kind == "to_move" and str(val) == "chance")


def _settle(game, s):
    """Resolve pending chance events from the seed."""
    while game.is_chance(s):
        game.step_chance(s)


def _who_short(game, s) -> str:
    if game.is_terminal(s):
        return "over"
    if game.is_chance(s):
        return "chance"
    return str(game.current_player(s) + 1)


def _who(game, s) -> str:
    from .view import describe_decision
    return describe_decision(game, s)


def _show(game, node, value, snip):
    t = game.prog.types.get(id(node))
    from regola.runtime.game import format_value
    try:
        return format_value(t, value) if t is not None and not isinstance(value, (int, bool)) or \
            (t is not None and _indexed(t)) else repr(value)
    except Exception:  # noqa: BLE001
        return repr(value)


def _indexed(t):
    from regola import types as T
    return T.is_indexed(t)


def _nearest_move(game, s, text: str) -> str:
    """'; did you mean ...' from the legal moves now and the action names."""
    from regola.suggest import did_you_mean
    names = [a.name for a in game.actions]
    if s.pending is not None and s.pending[1] >= 0:
        names += [game.move_str(s, m) for m in game.legal_moves(s)]
    return did_you_mean(text.strip(), names)
