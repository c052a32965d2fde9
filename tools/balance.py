"""`regola balance`: is a game fair between its seats, what do winners do, and what changes
when a module or a game option changes.

    regola balance tic-tac-toe --bots random --games 400 --html report.html
    regola balance lungarno --players 3 --set first_player=2 --vs-set first_player=3 --games 200

Plays K games with bots (seed S + g for game g, as `regola simulate`), keeping the engine's
record of each (runtime/record.py), and reports win rate by seat against the fair share,
scores, margins, lengths, the actions chosen, triggers fired and components held by winners
and losers; with --vs-with / --vs-set a second configuration and the differences. Text on
stdout, and --json, --csv DIR, --svg DIR, --html OUT. docs/balance.md.
"""

from __future__ import annotations

import csv
import json
import os
import sys
import time

from regola.textsafe import safe

from . import balance_collect, balance_report
from .simulate import Progress


class _Progress(Progress):
    """simulate's progress bar over all configurations, with the time left."""

    def __init__(self, total: int, enabled: bool):
        super().__init__(total, enabled)
        self.offset = 0

    def update(self, done: int):
        done += self.offset
        if not self.enabled:
            return
        now = time.perf_counter()
        if now - self.last < 0.1 and done < self.total:
            return
        super().update(done)
        rate = done / (now - self.t0) if now > self.t0 else 0.0
        left = (self.total - done) / rate if rate > 0 else 0.0
        sys.stderr.write(f" about {left:,.0f} s left ")
        sys.stderr.flush()


def configurations(args) -> list:
    """One or two (modules, options) pairs: the first from --with/--set/--option, the second
    (when --vs-with or --vs-set is given) from those, the rest as in the first."""
    from regola.options import parse_assignments
    from .cli import _split
    first = (_split(args.with_), parse_assignments((args.option or []) + (args.set or [])))
    out = [first]
    if args.vs_with is not None or args.vs_set:
        modules = _split(args.vs_with) if args.vs_with is not None else first[0]
        out.append((modules, first[1] | parse_assignments(args.vs_set)))
    return out


def build(args, progress: bool) -> dict:
    from regola.loader import load_game
    from .cli import _split
    bots = _split(args.bots) or ["random"]
    confs = configurations(args)
    games = []
    for modules, options in confs:
        game = load_game(args.rules, modules=modules, players=args.players, options=options or None)
        balance_collect.agents_for(game, bots, 0)          # a wrong bot or count is refused first
        games.append(game)
    bar = _Progress(args.games * len(confs), progress)
    reports, records = [], []
    for (modules, options), game in zip(confs, games):
        recs = balance_collect.run(args.rules, game.num_players, bots, args.games, seed=args.seed,
                                   modules=modules, options=options or None, jobs=args.jobs, progress=bar,
                                   max_moves=args.max_moves, executor=args.executor,
                                   ray_address=args.ray_address)
        bar.offset += args.games
        config = {"rules": args.rules, "title": game.title, "players": game.num_players, "bots": bots,
                  "modules": list(game.modules), "options": {k: str(v) for k, v in options.items()},
                  "seed": args.seed}
        reports.append(balance_report.analyse(recs, game.num_players, config))
        records.append(recs)
    bar.close()
    out = {"configurations": reports}
    if len(records) == 2:
        if games[0].num_players != games[1].num_players:
            raise ValueError("the two configurations have different numbers of players")
        out["comparison"] = balance_report.compare(records[0], records[1], games[0].num_players)
    return out


def tables(report: dict) -> dict:
    """name -> (header, rows): every table of the report, for --csv."""
    out = {}
    for i, rep in enumerate(report["configurations"], 1):
        sa = rep["seat_advantage"]
        out[f"config{i}_seats"] = (["seat", "wins", "win_rate", "ci_low", "ci_high", "p", "p_holm"],
                                   [[r["seat"], r["wins"], r["win_rate"], *r["win_rate_95"], r["p"], r["p_holm"]]
                                    for r in sa["seats"]])
        out[f"config{i}_scores"] = (["seat", "lo", "hi", "count"],
                                    [[s["seat"], b["lo"], b["hi"], b["count"]] for s in rep["scores"]
                                     for b in s["histogram"]])
        for key in ("margin", "length_turns", "length_moves", "length_decisions"):
            out[f"config{i}_{key}"] = (["lo", "hi", "count"],
                                       [[b["lo"], b["hi"], b["count"]] for b in rep[key]["histogram"]])
        cols = ["by_winners", "by_losers", "share_winners", "share_losers", "used_winners", "used_losers",
                "difference", "ci_low", "ci_high", "p", "p_holm"]

        def assoc(r):
            return [r[c] for c in cols[:7]] + r["difference_95"] + [r["p"], r["p_holm"]]
        out[f"config{i}_actions"] = (["action"] + cols, [[r["action"]] + assoc(r) for r in rep["actions"]["actions"]])
        out[f"config{i}_values"] = (["action", "parameter", "value"] + cols,
                                    [[r["action"], r["parameter"], r["value"]] + assoc(r)
                                     for r in rep["actions"]["values"]])
        out[f"config{i}_triggers"] = (["trigger"] + cols, [[r["trigger"]] + assoc(r)
                                                           for r in rep["actions"]["triggers"]])
        out[f"config{i}_held"] = (["zone", "kind", "mean_winners", "mean_losers", "holding_winners",
                                    "holding_losers", "difference", "ci_low", "ci_high", "p", "p_holm"],
                                   [[r["zone"], r["kind"], r["mean_winners"], r["mean_losers"], r["holding_winners"],
                                     r["holding_losers"], r["difference"], *r["difference_95"], r["p"], r["p_holm"]]
                                    for r in rep["held"]["rows"]])
        out[f"config{i}_fired"] = (["trigger", "per_game", "games_fired"],
                                   [[r["trigger"], r["per_game"], r["games_fired"]] for r in rep["fired"]])
    if report.get("comparison"):
        out["comparison"] = (["what", "first", "second", "difference", "ci_low", "ci_high", "test", "p", "p_holm"],
                             [[r["what"], r["first"], r["second"], r["difference"], *r["difference_95"], r["test"],
                               r["p"], r["p_holm"]] for r in report["comparison"]["rows"]])
    return out


def write_csv(report: dict, directory: str) -> list:
    os.makedirs(directory, exist_ok=True)
    paths = []
    for name, (header, rows) in tables(report).items():
        path = os.path.join(directory, f"{name}.csv")
        with open(path, "w", newline="", encoding="utf-8") as f:
            w = csv.writer(f)
            w.writerow(header)
            w.writerows(rows)
        paths.append(path)
    return paths


def write_svgs(report: dict, directory: str) -> list:
    """Every chart of the report as an SVG file of its own (for docs and slides)."""
    from .balance_html import all_charts
    os.makedirs(directory, exist_ok=True)
    paths = []
    for name, svg in all_charts(report).items():
        path = os.path.join(directory, name)
        with open(path, "w", encoding="utf-8") as f:
            f.write(svg + "\n")
        paths.append(path)
    return paths


def cmd_balance(args) -> int:
    report = build(args, progress=sys.stderr.isatty())
    try:
        if args.csv:
            write_csv(report, args.csv)
        if args.svg:
            write_svgs(report, args.svg)
        if args.html:
            from .balance_html import render
            with open(args.html, "w", encoding="utf-8") as f:
                f.write(render(report))
    except OSError as e:
        print(safe(f"regola balance: {e.filename}: {e.strerror}"), file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        print(safe(balance_report.format_text(report)))
        for what, path in (("csv", args.csv), ("svg", args.svg), ("html", args.html)):
            if path:
                print(safe(f"{what}: {path}"))
    return 0


def register(sub) -> None:
    from .cli import positive_int, whole_number
    b = sub.add_parser("balance", help="seat advantage, scores, lengths and what winners did; "
                                       "two configurations compared")
    b.add_argument("rules", help="a bundled game (e.g. lungarno) or a path")
    b.add_argument("--players", type=whole_number, default=None)
    b.add_argument("--with", dest="with_", action="append", help="optional modules, comma separated")
    b.add_argument("--vs-with", action="append", default=None, metavar="M,...",
                   help="compare with these modules instead (give an empty value for none)")
    b.add_argument("--set", "--option", dest="option", action="append", metavar="NAME=VALUE",
                   help="set a game option, or any constant of the rules (regola info RULES lists both)")
    b.add_argument("--vs-set", action="append", default=[], metavar="NAME=VALUE",
                   help="compare with this game option (or constant) set otherwise")
    b.add_argument("--bots", action="append", help="bots, one for all or one per player (default random)")
    b.add_argument("--games", type=positive_int, default=200, help="games per configuration (default 200)")
    b.add_argument("--seed", type=whole_number, default=0)
    b.add_argument("--jobs", type=positive_int, default=1, help="worker processes (default 1)")
    b.add_argument("--executor", choices=["local", "ray"], default="local",
                   help="where the games run: local processes, or Ray tasks (regola[ray]), --jobs of them")
    b.add_argument("--ray-address", default=None, help="a Ray cluster to join (default: a local Ray)")
    b.add_argument("--max-moves", type=positive_int, default=100_000, metavar="N")
    b.add_argument("--html", metavar="OUT.html", help="write a self-contained page with charts")
    b.add_argument("--csv", metavar="DIR", help="write one CSV file per table into DIR")
    b.add_argument("--svg", metavar="DIR", help="write every chart as an SVG file of its own into DIR")
    b.add_argument("--json", action="store_true", help="print every number as JSON")
    b.set_defaults(func=cmd_balance, set=None)
