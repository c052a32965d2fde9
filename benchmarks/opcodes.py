"""Where a game's random playouts spend their work, counted in Python bytecodes: exact and the
same on every run, in seconds rather than callgrind's minutes.

    python benchmarks/opcodes.py                                   # Lungarno 4p, 20 games
    python benchmarks/opcodes.py lorenzo-il-magnifico:4:advanced+leaders --games 3 --top 15
    python benchmarks/opcodes.py lions-of-lydia:4:croesus --blocks   # what the runner enters
    python benchmarks/opcodes.py connect-four:2 --lines D_connects   # one function, line by line

Plays the driver of compare.py (uniformly random moves, chance from the seed) under a trace
function that counts every bytecode executed, per function: the generated module's
functions are named as in `game.source` (`G_1_1` a legal-move generator, `M3_0` block 0 of
unit 3, `D_name` a def; docs/engine.md), the runtime's by their own names. Printed: opcodes
per decision and the functions that run most of them. `--blocks` counts instead the blocks
the runner enters per decision, by unit, block and what the block returned (the next block,
-1 return, -2 wait for a decision, -3 call). `--lines FUNC` prints FUNC's opcodes per line.

An opcode is not a unit of time (a call or a dictionary costs more than an addition, and
tracing turns off the interpreter's specialisation), so use it to find where the work is and
to see that a change removed some: two versions played the same seeds count the same
decisions, and their opcodes per decision compare exactly. `instructions.py` and
`compare.py` measure what the processor does. Not a test.
"""

from __future__ import annotations

import argparse
import collections
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from compare import CompareError, parse_games  # noqa: E402
from regola.loader import load_game  # noqa: E402
from regola.runtime.helpers import RulesRuntimeError  # noqa: E402


def _play(game, games: int, seed: int, during=None) -> int:
    """Play `games` random games from `seed` (with `during` as the trace function); the
    number of decisions (moves and chance steps)."""
    rng = random.Random(seed)
    steps = 0
    shown = games > 1 and sys.stderr.isatty()      # a count of the games played, on a terminal
    if during is not None:
        sys.settrace(during)                        # (this frame itself is not traced)
    try:
        for i in range(games):
            if shown:
                sys.stderr.write(f"\r  game {i + 1}/{games} ")
            s = game.new_initial_state(seed + i)
            while s.pending is not None:
                if s.pending[1] == -1:
                    game.step_chance(s)
                else:
                    ms = game.legal_moves(s)
                    game.apply(s, ms[int(rng.random() * len(ms))])
                steps += 1
    finally:
        sys.settrace(None)
        if shown:
            sys.stderr.write("\r" + " " * 24 + "\r")
    return steps


def count_opcodes(game, games: int, seed: int, lines_of: str | None = None):
    """(decisions, Counter of opcodes per function name, or per line of `lines_of`)."""
    counts: collections.Counter = collections.Counter()

    def tracer(frame, event, arg):
        code = frame.f_code
        if lines_of is not None and code.co_name != lines_of:
            return None
        frame.f_trace_opcodes = True
        frame.f_trace_lines = False
        if event == "opcode":
            counts[code.co_name if lines_of is None else frame.f_lineno or 0] += 1
        return tracer

    _play(game, 1, seed)                    # (the first game's one-off work is not counted)
    return _play(game, games, seed, tracer), counts


def count_blocks(game, games: int, seed: int):
    """(decisions, Counter of (unit, block, returned) for every block the runner enters)."""
    counts: collections.Counter = collections.Counter()

    def counted(unit, block, fn):
        def run(s, F):
            r = fn(s, F)
            counts[(unit, block, r)] += 1
            return r
        return run

    plain = game._procs
    game._procs = [[counted(u, b, fn) for b, fn in enumerate(blocks)] for u, blocks in enumerate(plain)]
    game._owning = None
    try:
        return _play(game, games, seed), counts
    finally:
        game._procs = plain
        game._owning = None


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("game", nargs="?", default="lungarno:4", help="NAME[:PLAYERS[:MODULE+MODULE...]]")
    ap.add_argument("--games", type=int, default=20, help="games counted (default 20)")
    ap.add_argument("--seed", type=int, default=1000)
    ap.add_argument("--top", type=int, default=25, help="how many functions (or blocks) to list")
    mode = ap.add_mutually_exclusive_group()
    mode.add_argument("--blocks", action="store_true", help="the blocks the runner enters, not opcodes")
    mode.add_argument("--lines", metavar="FUNC", help="the opcodes of one function, line by line")
    a = ap.parse_args(argv)
    if a.games < 1 or a.top < 1:
        ap.error("--games and --top take a positive number")
    try:
        [spec] = parse_games(a.game) or [None]
    except (CompareError, ValueError) as e:
        ap.error(str(e) if isinstance(e, CompareError) else f"one game, not {a.game!r}")
    here = Path(__file__).resolve().parent.parent / "rules" / spec.name
    rules = str(here) if here.is_dir() else spec.name
    try:
        game = load_game(rules, players=spec.players, modules=spec.modules)
    except Exception as e:                  # a rules error or a name that is no game: its message
        print(f"opcodes.py: {spec.text}: {e}", file=sys.stderr)
        return 2
    title = f"{game.title}, {game.num_players} players" + (f", {', '.join(spec.modules)}" if spec.modules else "")
    played = f"{a.games} game{'s' if a.games > 1 else ''}"
    try:
        if a.blocks:
            steps, counts = count_blocks(game, a.games, a.seed)
            names = {uid: key for key, uid in game.compiled.unit_pid.items()}
            total = sum(counts.values())
            print(f"{title}: {played}, {steps:,} decisions, "
                  f"{total / steps:.2f} blocks entered by the runner per decision")
            print(f"{'unit':28s} {'block':>5s} {'returned':>8s} {'per decision':>13s}")
            for (u, b, r), n in counts.most_common(a.top):
                print(f"{names.get(u, '?')[:28]:28s} {b:5d} {r:8d} {n / steps:13.3f}")
            return 0
        steps, counts = count_opcodes(game, a.games, a.seed, a.lines)
    except RulesRuntimeError as e:
        print(f"opcodes.py: {spec.text}: {e}", file=sys.stderr)
        return 2
    total = sum(counts.values())
    if a.lines:
        if not total:
            print(f"opcodes.py: {a.lines} never ran (a name of game.source or of the runtime)", file=sys.stderr)
            return 2
        print(f"{title}: {a.lines}, {total / steps:.1f} opcodes per decision ({steps:,} decisions)")
        for line, n in sorted(counts.items()):
            print(f"  line {line:5d} {n / steps:10.1f}")
        return 0
    print(f"{title}: {played}, {steps:,} decisions, {total / steps:,.1f} opcodes per decision")
    print(f"{'function':32s} {'per decision':>13s} {'share':>7s}")
    for name, n in counts.most_common(a.top):
        print(f"{name[:32]:32s} {n / steps:13.1f} {100 * n / total:6.1f}%")
    return 0


if __name__ == "__main__":
    sys.exit(main())
