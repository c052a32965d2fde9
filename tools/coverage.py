"""`regola coverage`: which rulebook headings the rules cite, and what of the rules ran.

    regola coverage lungarno --rulebook lungarno.txt --players 4 --games 200 [--html out.html]

Part 1 (coverage_headings.py) reads the rulebook's headings and matches the rules' `cite`
strings to them. Part 2 (coverage_trace.py) plays games with bots, reading the engine's
record of each game (runtime/record.py: actions taken, triggers fired) while a tracer records
which lines of the game's generated module ran, mapped back to the rules: actions never
played, requires never true or never false, triggers never fired, modifiers never applied,
if/elif/else arms never run. Reports: text (coverage_report.py), `--json`, and
`--html` (a page of the rules source coloured by coverage). docs/coverage.md explains the
approach and its limits.
"""

from __future__ import annotations

import json
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from .coverage_headings import HeadingReport, collect_cites, match_all, read_rulebook
from .coverage_sites import require_sites
from .coverage_trace import SpanIndex, Tracer, constructs


@dataclass
class Coverage:
    game: object
    source: object                 # the GameSource (files, texts)
    items: list                    # Construct
    games: int = 0
    moves: int = 0
    seconds: float = 0.0
    bots: list = field(default_factory=list)
    seed: int = 0
    headings: HeadingReport | None = None
    tracer: str = ""


def measure(game, source, games: int, seed: int = 0, bots=("random",), progress=None,
            max_moves: int = 100_000) -> Coverage:
    """Play `games` games of a loaded game with bots, tracing its generated module, and say
    what of the rules ran. `progress(done)` is called after each game."""
    from .match import GameDidNotEnd, agents_for
    items = constructs(game.prog, source.sources.line)
    index = SpanIndex(game._spans)
    for c in items:
        c.lines = index.lines_in(c.regions)
    sites = require_sites(game.source, game._spans, [c for c in items if c.kind == "require"])
    wanted = set().union(*(c.lines for c in items if c.kind not in ("require", "trigger")))
    tracer = Tracer(game._filename, wanted, sites)
    by_index = {meta.index: meta.name for meta in game.actions}
    acts = {c.label: c for c in items if c.kind == "action"}
    is_act = [si.kind == "act" for si in game.sites]
    fired = _triggers_by_index(game, items)
    cov = Coverage(game, source, items, bots=list(bots), seed=seed)
    t0 = time.perf_counter()
    tracer.start()
    try:
        for i in range(games):
            gseed = seed + i
            agents = agents_for(game, list(bots), gseed)
            s = game.new_initial_state(gseed, record=True)
            moves = 0
            while s.pending is not None:
                who = s.pending[1]
                if who == -1:
                    game.apply_chance(s, game.sample_chance(s))
                    continue
                legal = game.legal_moves(s)
                game.apply(s, agents[who].choose(game, s, legal))
                moves += 1
                if moves > max_moves:
                    raise GameDidNotEnd(f"seed {gseed}: no end after {max_moves} moves")
            for site, _, m, _ in s.record.taken:          # chosen, or taken without asking
                if m and is_act[site]:
                    acts[by_index[m[0]]].ran = True
            for trigger, _ in s.record.fired:
                fired[trigger].ran = True
            cov.games += 1
            cov.moves += moves
            if progress is not None:
                progress(cov.games)
    finally:
        tracer.stop()
    cov.seconds = time.perf_counter() - t0
    cov.tracer = "sys.monitoring" if hasattr(sys, "monitoring") else "sys.settrace"
    for c in items:
        if c.kind not in ("require", "trigger") and not c.ran:
            c.ran = bool(c.lines & tracer.seen)
    return cov


def _triggers_by_index(game, items) -> list:
    """The trigger constructs in the order of `game.triggers` (as the record names them):
    both list the event handlers, the `when` triggers and `on game end` in declaration order."""
    found = [c for c in items if c.kind == "trigger"]
    if len(found) != len(game.triggers) or any((c.file, c.line) != (t.span.file, t.span.line)
                                               for c, t in zip(found, game.triggers)):
        raise AssertionError("the triggers of the coverage report and of the compiled game differ")
    return found


def headings(rulebook_path, source) -> HeadingReport:
    """The rulebook's headings matched to every cite of every file of the game."""
    book = read_rulebook(rulebook_path)
    programs = [source.base] + [m.program for m in source.modules.values()]
    return match_all(book, collect_cites(programs))


# --------------------------------------------------------------------- command

def cmd_coverage(args) -> int:
    from regola.compose import read_game
    from regola.loader import load_game
    from regola.resources import find_rules
    from regola.textsafe import safe
    from .cli import _options, _split
    from .coverage_report import as_json, html_page, text_report
    from .simulate import Progress
    book = Path(args.rulebook)
    if not book.is_file():
        what = "is a directory, not a file" if book.is_dir() else "no such file"
        print(safe(f"regola coverage: --rulebook {args.rulebook}: {what}"), file=sys.stderr)
        return 1
    game = load_game(args.rules, modules=_split(args.with_), players=args.players, options=_options(args))
    source = read_game(find_rules(args.rules))
    try:
        heads = headings(book, source)
    except OSError as e:
        print(safe(f"regola coverage: --rulebook {args.rulebook}: {e.strerror}"), file=sys.stderr)
        return 1
    bar = Progress(args.games, sys.stderr.isatty() and not args.json)
    bots = _split(args.bots) or ["random"]
    try:
        cov = measure(game, source, args.games, seed=args.seed, bots=bots, progress=bar.update,
                      max_moves=args.max_moves)
    finally:
        bar.close()
    cov.headings = heads
    if args.html:
        try:
            Path(args.html).write_text(html_page(cov, args.rules), encoding="utf-8")
        except OSError as e:
            print(safe(f"regola coverage: --html {args.html}: {e.strerror}"), file=sys.stderr)
            return 1
    if args.json:
        print(json.dumps(as_json(cov, args.rules), indent=2))
    else:
        print(safe(text_report(cov, args.rules)))
        if args.html:
            print(safe(f"\nwrote {args.html}"))
    return 0


def register(sub) -> None:
    from .cli import add_game_arguments, positive_int, whole_number
    c = sub.add_parser("coverage", help="rulebook headings cited, and what of the rules ran in simulated games")
    add_game_arguments(c)
    c.add_argument("--rulebook", required=True, metavar="FILE", help="the rulebook as a text file")
    c.add_argument("--games", type=positive_int, default=100, help="games to play (default 100)")
    c.add_argument("--seed", type=whole_number, default=0)
    c.add_argument("--bots", action="append", help="bots, one for all or one per player (default random)")
    c.add_argument("--max-moves", type=positive_int, default=100_000, metavar="N",
                   help="stop with an error when a game has not ended after N moves")
    c.add_argument("--html", metavar="OUT.html", help="also write a page of the rules coloured by coverage")
    c.add_argument("--json", action="store_true", help="print the report as JSON")
    c.set_defaults(func=cmd_coverage)
