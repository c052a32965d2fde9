"""The `regola` command: check, simulate, play, replay, test, info."""

from __future__ import annotations

import argparse
import importlib
import json
import os
import re
import sys
from pathlib import Path

from regola.compose import ModuleSelectionError
from regola.diagnostics import RulesError, render_all
from regola.textsafe import safe


def positive_int(text: str) -> int:
    """An argparse type: a whole number of at least 1 (argparse turns the error into a usage line)."""
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a whole number; give 1 or more") from None
    if n < 1:
        raise argparse.ArgumentTypeError(f"{n} is too few; give 1 or more")
    return n


def whole_number(text: str) -> int:
    """An argparse type: a whole number (said in plain words when it is not)."""
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a whole number") from None


def add_game_arguments(parser) -> None:
    """The arguments naming one configuration of a game: RULES, --players, --with, --option."""
    parser.add_argument("rules", help="a bundled game (e.g. lungarno) or a path")
    parser.add_argument("--players", type=whole_number, default=None)
    parser.add_argument("--with", dest="with_", action="append", help="optional modules, comma separated")
    parser.add_argument("--option", action="append", metavar="NAME=VALUE",
                        help="set a game option (or a constant)")


def _split(values) -> list[str]:
    out = []
    for v in values or []:
        out.extend(x.strip() for x in v.split(",") if x.strip())
    return out


# --------------------------------------------------------------------- check

def _options(args) -> dict:
    """--option NAME=VALUE, repeated: the game options given on the command line."""
    from regola.options import parse_assignments
    return parse_assignments(getattr(args, "option", None))


def cmd_check(args) -> int:
    from regola.resources import find_rules
    from .checking import check_game, target_of
    seen, diags_all, sources_all = set(), [], []
    errors = 0
    targets = []
    for spec in args.files:
        try:
            path = find_rules(spec)
        except FileNotFoundError as e:
            print(safe(f"regola check: {e}"), file=sys.stderr)
            errors += 1
            continue
        if path.is_file():
            try:
                head = path.read_text(encoding="utf-8", errors="replace").lstrip()
            except OSError as e:
                print(safe(f"regola check: {path}: {e.strerror}"), file=sys.stderr)
                errors += 1
                continue
            targets.append(target_of(path, head))
        else:
            targets.append((path, None))
    checked = 0
    for game_dir, only_module in dict.fromkeys(targets):
        res = check_game(game_dir, only_module, _split(args.with_), _options(args), seen=seen)
        for message in res.problems:
            print(safe(f"regola check: {message}"), file=sys.stderr)
        errors += len(res.problems)
        diags_all.extend(res.diagnostics)
        sources_all.append(res.sources)
        checked += res.configurations
    from regola.diagnostics import SourceMap
    sm = SourceMap()
    for s in sources_all:
        if s is not None:
            sm.files.update(s.files)
    if diags_all:
        print(render_all(diags_all, sm), flush=True)   # before the summary on stderr
    n_err = sum(d.is_error for d in diags_all) + errors
    n_warn = sum(not d.is_error for d in diags_all)
    if not args.quiet:
        what = (f"{checked} configuration{'s' if checked != 1 else ''} checked" if checked
                else "reading the rules failed")
        print(f"{what}: {n_err} error{'s' if n_err != 1 else ''}, {n_warn} warning{'s' if n_warn != 1 else ''}",
              file=sys.stderr)
    return 1 if n_err else 0


# --------------------------------------------------------------------- simulate

def cmd_simulate(args) -> int:
    """(--max-seconds holds for this command only: the limit is put back after it, so a
    program that calls main() goes on with its own.)"""
    from regola.runtime import watchdog
    before = watchdog.limit_seconds
    if args.max_seconds is not None:
        watchdog.limit_seconds = args.max_seconds
    try:
        return _simulate(args)
    finally:
        watchdog.limit_seconds = before


def _simulate(args) -> int:
    from .simulate import simulate
    from regola.loader import load_game
    import time
    modules = _split(args.with_)
    bots = _split(args.bots) or ["random"]
    t0 = time.perf_counter()
    options = _options(args)
    game = load_game(args.rules, modules=modules, players=args.players, options=options)
    t_load = time.perf_counter() - t0
    if args.log is not None:
        why = _log_dir_problem(args.log, args.seed, args.games)
        if why:
            print(safe(f"regola simulate: --log {args.log}: {why}"), file=sys.stderr)
            return 2
    stats = simulate(args.rules, args.players, args.games, seed=args.seed, modules=modules, bots=bots,
                     log_dir=args.log, jobs=args.jobs, progress=sys.stderr.isatty() and not args.json,
                     max_moves=args.max_moves, max_steps=args.max_steps, options=options,
                     executor=args.executor, ray_address=args.ray_address)
    stats.load_seconds += t_load
    d = stats.as_dict(args.rules, game.modules, bots, args.seed)
    if args.json:
        print(json.dumps(d, indent=2))
        return 0
    print(safe(f"{game.title}: {d['players']} players, {d['games']} games, seed {args.seed}, "
          f"bots {', '.join(bots)}" + (f", modules {', '.join(game.modules)}" if game.modules else "")
          + "".join(f", {k}={v}" for k, v in sorted(game.options.items()))))
    print(f"{'player':>8} {'mean score':>12} {'win rate':>10}")
    for p in range(d["players"]):
        print(f"{p + 1:>8} {d['mean_score'][p]:>12.2f} {d['win_rate'][p] * 100:>9.1f}%")
    print(f"mean game length: {d['mean_moves']:.1f} moves")
    print(f"speed: {d['games_per_second']:.1f} games/s, start-up included "
          f"({stats.load_seconds:.2f} s to load, {d['games_per_second_excluding_load']:.1f} games/s after)")
    if args.log:
        print(safe(f"logs: {args.log}/"))
    return 0


def _log_name(game_seed: int) -> str:
    """The file name simulate.py gives the log of the game played with this seed."""
    from .simulate import log_name
    return log_name(game_seed)


def _log_dir_problem(log_dir: str, seed: int, games: int) -> str | None:
    """Why the logs cannot go into log_dir, or None (the directory is made if needed). Logs
    already there are never overwritten: another run's logs are someone's results."""
    p = Path(log_dir)
    if p.exists() and not p.is_dir():
        return "exists and is not a directory; give a directory for the logs"
    try:
        p.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        return f"cannot make the directory: {e.strerror}"
    if not os.access(p, os.W_OK | os.X_OK):
        return "cannot write into this directory"
    try:
        present = set(os.listdir(p))
    except OSError as e:
        return f"cannot read the directory: {e.strerror}"
    taken = sorted(name for name in present
                   if (m := re.fullmatch(r"game-(-?\d+)\.jsonl", name)) and seed <= int(m[1]) < seed + games
                   and name == _log_name(int(m[1])))
    if taken:
        return (f"already holds log{'s' if len(taken) > 1 else ''} of {len(taken)} of these games "
                f"({', '.join(taken[:3])}{', ...' if len(taken) > 3 else ''}); they are not "
                f"overwritten: choose a new or empty directory, or remove them")
    return None


# --------------------------------------------------------------------- tournament

def cmd_tournament(args) -> int:
    from .tournament import format_report, report, run
    from regola.loader import load_game
    bots = _split(args.bots)
    options = _options(args)
    game = load_game(args.rules, modules=_split(args.with_), players=args.players, options=options)
    if not bots:
        print(safe(f"regola tournament: give --bots, one per seat ({game.num_players})"), file=sys.stderr)
        return 2
    records = run(args.rules, game.num_players, bots, args.games, seed=args.seed, modules=_split(args.with_),
                  options=options, jobs=args.jobs, progress=sys.stderr.isatty() and not args.json,
                  executor=args.executor, ray_address=args.ray_address, max_moves=args.max_moves)
    d = report(records, game.title, game.num_players, args.seed)
    if args.json:
        print(json.dumps(d, indent=2))
    else:
        print(safe(format_report(d)))
    return 0


# --------------------------------------------------------------------- play

def cmd_play(args) -> int:
    from .play import PlaySession, resume
    if args.resume:
        return resume(args.resume).run()
    if not args.rules:
        print("regola play: give RULES, or --resume FILE", file=sys.stderr)
        return 2
    from regola.loader import load_game
    game = load_game(args.rules, modules=_split(args.with_), players=args.players, options=_options(args))
    humans = []
    for h in _split(args.human):
        if not (h.isdigit() and 1 <= int(h) <= game.num_players):
            print(safe(f"regola play: --human {h}: give a seat from 1 to {game.num_players}"), file=sys.stderr)
            return 2
        humans.append(int(h) - 1)
    bots = _split(args.bots) or ["random"]
    session = PlaySession(game, args.rules, humans, bots, args.seed, save_path=args.save)
    return session.run()


# --------------------------------------------------------------------- replay

def cmd_replay(args) -> int:
    from .logs import LogError
    from .match import ReplayError, replay
    after_move = _narrator() if args.verbose else None
    try:
        game, s, log = replay(args.log, forced=args.forced, after_move=after_move)
    except (ReplayError, LogError) as e:
        print(safe(f"regola replay: {e}"), file=sys.stderr)
        return 1
    if args.html:
        from .pictures.replay_html import write_replay_html
        try:
            what = write_replay_html(args.log, args.html, forced=args.forced)
        except OSError as e:
            print(safe(f"regola replay: {args.html}: {e.strerror}"), file=sys.stderr)
            return 1
        print(safe(f"{args.html}: {what}"), file=sys.stderr if args.json else sys.stdout)
    moves = sum(1 for e in log.entries if e["type"] == "move")
    chance = sum(1 for e in log.entries if e["type"] == "chance")
    scores = game.scores(s)
    if args.json:
        print(json.dumps({"ok": True, "moves": moves, "chance": chance, "scores": scores,
                          "winners": [w + 1 for w in game.winners(s)] if game.is_terminal(s) else None}))
        return 0
    status = "finished" if game.is_terminal(s) else "not finished"
    print(safe(f"{args.log}: {moves} moves and {chance} chance outcomes verified; game {status}"))
    print("scores: " + ", ".join(f"player({p + 1}) {sc}" for p, sc in enumerate(scores)))
    if game.is_terminal(s):
        print("winner: " + ", ".join(f"player({w + 1})" for w in game.winners(s)))
    return 0


def _narrator():
    """For replay --verbose: each move and chance outcome, then what it changed (as a
    spectator sees it: a log holds every move, so only what is public is told)."""
    from .narrate import narrate
    from .view import internal_names
    seen = {}

    def after_move(entry, game, s):
        now = game.observe(s, None)
        if entry is None:
            seen["obs"] = now
            return
        what = (f"player({entry['player']}) plays {entry['move']}" if entry["type"] == "move"
                else f"chance: {entry['outcome']}")
        print(safe(f"{entry['_line']:>5}: {what}"))
        for line in narrate(seen["obs"], now, indent="       ", skip=internal_names(game)):
            print(line)
        seen["obs"] = now
    return after_move


# --------------------------------------------------------------------- test

def cmd_test(args) -> int:
    from .scenarios import ScenarioError, load_file, run_scenario, scenario_files
    paths = args.paths or ["tests/scenarios"]
    files = scenario_files(paths)
    if not files:
        print("regola test: no scenario files (*.yaml) found", file=sys.stderr)
        return 1
    failed = passed = 0
    for path in files:
        try:
            scenarios = load_file(path)
        except ScenarioError as e:   # a broken file fails alone; the others still run
            failed += 1
            print(safe(f"FAIL  {e}\n"))
            continue
        for sc in scenarios:
            res = run_scenario(sc)
            if res.ok:
                passed += 1
                if args.verbose:
                    print(safe(f"ok    {sc.where}: {sc.name}"))
            else:
                failed += 1
                print(safe(f"FAIL  {sc.where}: {sc.name}\n{res.message}\n"))
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


# --------------------------------------------------------------------- info

def cmd_info(args) -> int:
    from regola.compose import read_game
    from regola.resources import bundled_games, find_rules
    if not args.rules:
        for name in bundled_games():
            src = read_game(find_rules(name))
            print(safe(f"{name}: {src.title}, {src.min_players}-{src.max_players} players, "
                       f"modules: {', '.join(sorted(src.modules)) or 'none'}"))
        return 0
    src = read_game(find_rules(args.rules))
    print(safe(f"{src.title} ({src.name}): {src.min_players}-{src.max_players} players"))
    for name, m in sorted(src.modules.items()):
        how = "automatic" if m.automatic else f"--with {name}"
        if m.requires:
            how += f", requires {', '.join(m.requires)}"
        if m.players is not None:
            how += f", {m.players[0]}-{m.players[1]} players"
        print(safe(f"  module {name}: {m.title} ({how})"))
    for where, d in _option_decls(src):
        print(safe(f"  option {describe_option(d)}" + (f" (module {where})" if where else "")))
    consts = _const_texts(src)
    if consts:
        print(safe(f"  constants (a study may set one like an option, --option NAME=VALUE): {', '.join(consts)}"))
    return 0


def _const_texts(src) -> list:
    """`NAME = value` (the value when short) for every constant of the game's base file."""
    from regola import ast
    from regola.render import render_expr
    out = []
    for d in src.base.decls:
        if type(d) is ast.ConstDecl:
            value = render_expr(d.value)
            out.append(f"{d.name} = {value}" if len(value) <= 24 else d.name)
    return out


def _option_decls(src):
    """The game options a game's files declare: (module name or None, declaration)."""
    from regola import ast
    out = [(None, d) for d in src.base.decls if isinstance(d, ast.OptionDecl)]
    for name, m in sorted(src.modules.items()):
        out += [(name, d) for d in m.program.decls if isinstance(d, ast.OptionDecl)]
    return out


def describe_option(d) -> str:
    """`first_player: Player = player(1)  who plays first`: one line for `regola info`."""
    from regola import ast
    from regola.render import render_expr
    bound = (f" in {render_expr(d.bound.low)}..{render_expr(d.bound.high)}"
             if isinstance(d.bound, ast.BoundIn) else "")
    return (f"{d.name}: {_type_text(d.type)}{bound} = {render_expr(d.value)}"
            + (f"  ({d.doc}; --option {d.name}=VALUE)" if d.doc else f"  (--option {d.name}=VALUE)"))


def _type_text(te) -> str:
    from regola import ast
    return te.name if isinstance(te, ast.TypeName) else type(te).__name__


# --------------------------------------------------------------------- main

def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="regola", description="Regola: board game rules, checked and run.")
    sub = p.add_subparsers(dest="command", required=True)

    c = sub.add_parser("check", help="check rules files; exit 1 on any error")
    c.add_argument("files", nargs="+", help="rules files, game directories or bundled game names")
    c.add_argument("--with", dest="with_", action="append", help="check this combination of optional modules")
    c.add_argument("-q", "--quiet", action="store_true")
    c.add_argument("--option", action="append", metavar="NAME=VALUE", help="check with this game option (or constant) set")
    c.set_defaults(func=cmd_check)

    s = sub.add_parser("simulate", help="play many games with bots and report statistics")
    s.add_argument("rules", help="a bundled game (e.g. lungarno) or a path")
    s.add_argument("--players", type=whole_number, default=None)
    s.add_argument("--games", type=positive_int, default=100)
    s.add_argument("--seed", type=whole_number, default=0)
    s.add_argument("--with", dest="with_", action="append", help="optional modules, comma separated")
    s.add_argument("--bots", action="append", help="bots, one for all or one per player (random, first, greedy)")
    s.add_argument("--option", action="append", metavar="NAME=VALUE",
                   help="set a game option or a constant (regola info RULES lists them)")
    s.add_argument("--log", metavar="DIR", help="write one log per game into DIR")
    s.add_argument("--json", action="store_true", help="print the statistics as JSON")
    s.add_argument("--jobs", type=positive_int, default=1, help="worker processes (default 1)")
    s.add_argument("--executor", choices=["local", "ray"], default="local",
                   help="where the games run: local processes, or Ray tasks (regola[ray]), --jobs of them")
    s.add_argument("--ray-address", default=None, help="a Ray cluster to join (default: a local Ray)")
    s.add_argument("--max-moves", type=positive_int, default=100_000, metavar="N",
                   help="stop with an error when a game has not ended after N moves (default 100,000)")
    s.add_argument("--max-steps", type=positive_int, default=None, metavar="N",
                   help="steps of the rules allowed between two decisions (default 2,000,000)")
    s.add_argument("--max-seconds", type=positive_int, default=None, metavar="S",
                   help="seconds the rules may run between two decisions (default 30)")
    s.set_defaults(func=cmd_simulate)

    tn = sub.add_parser("tournament", help="bots against each other, seats rotated: win rates, scores, Elo")
    tn.add_argument("rules", help="a bundled game (e.g. lungarno) or a path")
    tn.add_argument("--players", type=whole_number, default=None)
    tn.add_argument("--bots", action="append", help="one bot per seat, comma separated (mcts:N, ismcts:N, greedy, random)")
    tn.add_argument("--games", type=positive_int, default=40, help="games (a multiple of the players rotates evenly)")
    tn.add_argument("--seed", type=whole_number, default=0)
    tn.add_argument("--with", dest="with_", action="append", help="optional modules, comma separated")
    tn.add_argument("--option", action="append", metavar="NAME=VALUE", help="set a game option (or a constant)")
    tn.add_argument("--jobs", type=positive_int, default=1, help="worker processes (default 1)")
    tn.add_argument("--executor", choices=["local", "ray"], default="local",
                    help="where the games run: local processes, or Ray (regola[ray])")
    tn.add_argument("--ray-address", default=None, help="a Ray cluster to join (default: a local Ray)")
    tn.add_argument("--max-moves", type=positive_int, default=100_000, metavar="N")
    tn.add_argument("--json", action="store_true")
    tn.set_defaults(func=cmd_tournament)

    pl = sub.add_parser("play", help="play in the terminal against bots")
    pl.add_argument("rules", nargs="?")
    pl.add_argument("--players", type=whole_number, default=None)
    pl.add_argument("--human", action="append", default=None, help="seat(s) played by a person (default 1)")
    pl.add_argument("--bots", action="append")
    pl.add_argument("--with", dest="with_", action="append")
    pl.add_argument("--option", action="append", metavar="NAME=VALUE", help="set a game option (or a constant)")
    pl.add_argument("--seed", type=whole_number, default=0)
    pl.add_argument("--save", metavar="FILE", help="where 'save' writes (default regola-save.json)")
    pl.add_argument("--resume", metavar="FILE", help="continue a saved game")
    pl.set_defaults(func=cmd_play)

    r = sub.add_parser("replay", help="re-run a game log, verifying every move and chance outcome")
    r.add_argument("log")
    r.add_argument("--forced", action="store_true", help="accept chance outcomes the seed would not draw")
    r.add_argument("--json", action="store_true")
    r.add_argument("-v", "--verbose", action="store_true", help="tell each move and what it changed")
    r.add_argument("--html", metavar="OUT", help="also write a self-contained HTML page to step through the game, "
                                                 "as each player, a spectator or omniscient")
    r.set_defaults(func=cmd_replay)

    t = sub.add_parser("test", help="run scenario files (YAML)")
    t.add_argument("paths", nargs="*")
    t.add_argument("-v", "--verbose", action="store_true")
    t.set_defaults(func=cmd_test)

    i = sub.add_parser("info", help="list bundled games, or a game's modules")
    i.add_argument("rules", nargs="?")
    i.set_defaults(func=cmd_info)
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(sub)
    return p


# Commands kept in modules of their own: each has `register(sub)`, which adds its parser to
# the subparsers and sets `func` (a function of the parsed args returning the exit status).
COMMAND_MODULES: list[str] = [
    "regola.tools.fmt",
    "regola.tools.doc",
    "regola.tools.coverage",
    "regola.tools.lsp",
    "regola.tools.pictures",
    "regola.tools.balance",
    "regola.tools.crosscheck",
]


def main(argv=None) -> int:
    args = build_parser().parse_args(argv)
    if getattr(args, "human", "unset") is None:
        args.human = ["1"]
    try:
        return args.func(args)
    except RulesError as e:
        print(render_all(e.diagnostics, e.sources), file=sys.stderr)
        return 1
    except (ModuleSelectionError, FileNotFoundError, ValueError) as e:
        print(safe(f"regola {args.command}: {e}"), file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        os._exit(0)
    except Exception as e:  # noqa: BLE001 - last resort: a clear message, not a traceback
        from regola.runtime.helpers import RulesRuntimeError
        from regola.runtime.game import StateError
        from .match import GameDidNotEnd
        if isinstance(e, GameDidNotEnd):
            print(safe(f"regola {args.command}: {e}; {e.hint}"), file=sys.stderr)
            return 1
        if isinstance(e, (RulesRuntimeError, StateError)):
            print(safe(f"regola {args.command}: {e}"), file=sys.stderr)
            return 1
        raise


if __name__ == "__main__":
    sys.exit(main())
