"""`regola render STATE.json|LOG --player P [--svg OUT.svg] [--step K]`: the SVG picture of a
saved state (`game.dump`, or a `regola play` save) or of a game log replayed to step K.

--player is a seat from 1, `0` or `spectator` for what everyone sees, or `all` for
everything. `all` is refused for a log of a game with hidden information unless
`--omniscient` is given too: a log holds every card drawn, and a picture of it should not
show them by accident.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from regola.textsafe import safe

from ..cli import _options, _split, whole_number
from .picture import ALL, state_svg
from .steps import last_move_text, log_steps

MAX_STATE_BYTES = 64 * 1024 * 1024


class RenderError(Exception):
    pass


def add_parser(sub) -> None:
    r = sub.add_parser("render", help="an SVG picture of a saved state or of a log at some step, as one "
                                      "player sees it")
    r.add_argument("input", metavar="STATE.json|LOG", help="a saved state (game.dump or a regola play save) "
                                                         "or a game log")
    r.add_argument("--player", default=None,
                   help="whose view: a seat from 1, 0 or 'spectator' (public things only; the default), or "
                        "'all' (everything; for a log of hidden information only with --omniscient, which "
                        "alone means 'all')")
    r.add_argument("--omniscient", action="store_true", help="allow --player all on a log of a game with "
                                                             "hidden information (it shows every hidden card)")
    r.add_argument("--svg", metavar="OUT.svg", help="write the picture here (default: standard output)")
    r.add_argument("--step", type=whole_number, default=None, metavar="K",
                   help="for a log: the state after K moves (0: the first decision; default: the end)")
    r.add_argument("--forced", action="store_true", help="for a log: accept chance outcomes the seed would not draw")
    r.add_argument("--rules", help="for a state: its rules (default: the bundled game the state names)")
    r.add_argument("--with", dest="with_", action="append", help="for a state: its optional modules")
    r.add_argument("--option", action="append", metavar="NAME=VALUE", help="for a state: a game option it was "
                                                                           "played with")
    r.set_defaults(func=cmd_render)


def cmd_render(args) -> int:
    from ..logs import LogError
    from ..match import ReplayError
    from regola.runtime.game import StateError
    try:
        svg = render_file(args)
    except (RenderError, LogError, ReplayError, StateError) as e:
        print(safe(f"regola render: {e}"), file=sys.stderr)
        return 1
    try:
        Path(args.svg).write_text(svg, encoding="utf-8") if args.svg else sys.stdout.write(svg + "\n")
    except OSError as e:
        print(safe(f"regola render: {args.svg}: {e.strerror}"), file=sys.stderr)
        return 1
    return 0


def render_file(args) -> str:
    """The SVG `regola render` writes for these arguments."""
    if args.player is None:
        args.player = "all" if args.omniscient else "spectator"
    if _is_log(args.input):
        if args.rules or args.with_ or args.option:
            raise RenderError("--rules, --with and --option are for a saved state: a log names its rules")
        game, log, steps = log_steps(args.input, forced=args.forced)
        viewer = parse_viewer(args.player, game.num_players)
        if viewer == ALL and game.facts()["hidden_information"] and not args.omniscient:
            raise RenderError(f"{game.title} has hidden information, and a log holds all of it: --player all "
                              f"would draw every hidden card; add --omniscient to do so")
        k = len(steps) - 1 if args.step is None else args.step
        if not 0 <= k < len(steps):
            raise RenderError(f"--step {k}: this log has steps 0 to {len(steps) - 1} (one per move, and the end)")
        return state_svg(game, steps[k].state, viewer, last=last_move_text(game, steps, k, viewer))
    if args.step is not None:
        raise RenderError("--step is for a log; a saved state is one step")
    game, state = load_state(args)
    return state_svg(game, state, parse_viewer(args.player, game.num_players))


def parse_viewer(text: str, players: int):
    """A seat from 0, None (spectator) or ALL, from --player's text."""
    t = str(text).strip().lower()
    if t in ("all", "omniscient"):
        return ALL
    if t in ("spectator", "0", "none"):
        return None
    if t.isdigit() and 1 <= int(t) <= players:
        return int(t) - 1
    raise RenderError(f"--player {text}: give a seat from 1 to {players}, 0 or 'spectator', or 'all'")


def _is_log(path) -> bool:
    """A log's first line is its header, a JSON object of type 'header'."""
    try:
        with open(path, encoding="utf-8") as f:
            first = f.readline(1_000_000)
    except (OSError, UnicodeDecodeError):
        return False
    try:
        head = json.loads(first)
    except ValueError:
        return False
    return isinstance(head, dict) and head.get("type") == "header"


def load_state(args):
    """(game, state) of a saved state: `game.dump`'s data or a `regola play` save."""
    from regola.compose import read_game
    from regola.loader import load_game
    from regola.resources import find_rules
    data = _read_json(args.input)
    rules, modules, options = args.rules, _split(args.with_), _options(args)
    if data.get("format") == "regola-save/1":             # a regola play save: it names its rules
        rules = rules or data.get("rules")
        modules = modules or list(data.get("with") or [])
        header = data.get("header") if isinstance(data.get("header"), dict) else {}
        options = options or header.get("options") or {}
        data = data.get("state")
        if not isinstance(data, dict):
            raise RenderError(f"{args.input}: the save holds no state")
    if data.get("format") != "regola-state/1":
        raise RenderError(f"{args.input}: not a saved state (regola-state/1), a regola play save or a game log")
    players = data.get("players")
    if type(players) is not int or players < 1:
        raise RenderError(f"{args.input}: the state's 'players' must be a number of players")
    if not rules:
        rules = _bundled_name(data.get("game"))
    if not modules:                          # the state's own modules but those chosen automatically
        try:
            src = read_game(find_rules(rules))
        except FileNotFoundError as e:
            raise RenderError(str(e)) from None
        named = data.get("modules") if isinstance(data.get("modules"), list) else []
        modules = [m for m in named if isinstance(m, str) and m in src.modules and not src.modules[m].automatic]
    game = load_game(rules, modules=modules, players=players, options=options or None)
    return game, game.load(data)


def _bundled_name(name) -> str:
    from regola.resources import bundled_games
    if isinstance(name, str):
        for candidate in (name, name.replace("_", "-")):
            if candidate in bundled_games():
                return candidate
    raise RenderError(f"the state is of the game {name!r}, which is not bundled: give its rules with --rules")


def _read_json(path) -> dict:
    p = Path(path)
    try:
        if p.stat().st_size > MAX_STATE_BYTES:
            raise RenderError(f"{path}: too large for a saved state")
        data = json.loads(p.read_text(encoding="utf-8"))
    except OSError as e:
        raise RenderError(f"{path}: cannot read: {e.strerror}") from None
    except UnicodeDecodeError:
        raise RenderError(f"{path}: not a saved state (not UTF-8 text)") from None
    except (ValueError, RecursionError) as e:
        raise RenderError(f"{path}: not a saved state (not JSON: {e})") from None
    if not isinstance(data, dict):
        raise RenderError(f"{path}: not a saved state (not a JSON object)")
    return data
