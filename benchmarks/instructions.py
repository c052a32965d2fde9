"""Instructions per game of two versions of Regola, counted by valgrind's callgrind.

    python benchmarks/instructions.py a5f82e8                    # a revision against the working tree
    python benchmarks/instructions.py HEAD~1 HEAD --games connect-four:2 --count 200
    python benchmarks/instructions.py ../old . --json
    python benchmarks/instructions.py HEAD~1 --clone     # per clone + apply of one move

Timings on a shared machine move by a third from one round to the next; the number of
instructions the processor runs for the same games does not. This counts them for the random
playouts of compare.py (the same driver, `compare_worker.py` run under `valgrind
--tool=callgrind`, without the engine's watchdog thread, which wakes on the clock): per
checkout and game, one run loads the game and plays COUNT + 1 games, one loads it and plays
the first of them (warming up as the other does), and the difference divided by COUNT is the
cost of a game. Where the Python build names itertools' `starmap_next` (pyenv's does; a
distribution's stripped build may not), callgrind counts only inside it, where the worker
plays each game, so the loading is not counted at all: counting the whole runs, the loads of
the larger games (billions of instructions, a small share of which varies) made one checkout
count 2% apart from itself for Lions of Lydia. Both versions must play the same games (a checksum
of the scores and lengths says so). BASE and NEW are directories or git revisions, as for
compare.py; `--games` takes the same NAME[:PLAYERS[:MODULE+MODULE...]] list. Needs valgrind
(`apt-get install valgrind`); a run is about 50 times slower than the game itself.

`--clone` counts instead what a tree search pays per node: the same COUNT games played twice,
once with every move also played on a clone first (`apply(clone(s), m)`), the difference
divided by the moves is the cost of one `clone` + `apply` (both runs first step one clone, so
the work of a first clone is left out).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from compare import (DEFAULT_GAMES, CompareError, Checkout, GameSpec, parse_games,  # noqa: E402
                     resolve_checkout, rules_candidates)

# games per run by default: enough for the per-game figure to settle, few enough to be quick
DEFAULT_COUNT = {"lungarno": 20, "lions-of-lydia": 10, "lorenzo-il-magnifico": 4,
                 "connect-four": 300, "tic-tac-toe": 500}
_COLLECTED = re.compile(r"Collected\s*:\s*(\d+)")
# compare_worker.play runs each game inside this C function of itertools: callgrind told to
# count only inside it counts the games and not the loading (which varies from run to run by
# more than a small change saves)
GAMES_ONLY = "--toggle-collect=starmap_next"
_games_only: list = []          # [bool] once probed


def games_only() -> bool:
    """Whether this Python's callgrind can count inside `starmap_next` alone (the function is
    static in CPython: only a build that keeps its symbols, such as pyenv's, names it)."""
    if not _games_only:
        with tempfile.TemporaryDirectory(prefix="regola-instr-") as tmp:
            log = Path(tmp) / "probe.log"
            subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
                            f"--log-file={log}", GAMES_ONLY, sys.executable, "-c",
                            "from itertools import starmap; list(starmap(pow, [(2, 3)] * 1000))"],
                           capture_output=True)
            m = _COLLECTED.search(log.read_text(errors="replace")) if log.exists() else None
            _games_only.append(m is not None and int(m.group(1)) > 0)
    return _games_only[0]


def callgrind_run(co: Checkout, other: Checkout, g: GameSpec, games: int, seed: int, clones: bool,
                  counted: bool = True, warm: bool = False) -> tuple[int, dict]:
    """(instructions, the play answer) of one worker run: load g, play `games` games from seed.
    Not `counted`: the same run without valgrind (instructions 0), to warm the caches up."""
    with tempfile.TemporaryDirectory(prefix="regola-instr-") as tmp:
        log = Path(tmp) / "callgrind.log"
        cmd = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", f"--log-file={log}",
               *([GAMES_ONLY] if games_only() else []),
               sys.executable, str(Path(__file__).resolve()), "--worker", str(co.root)]
        if not counted:
            cmd = cmd[cmd.index(sys.executable):]
        env = dict(os.environ, PYTHONHASHSEED="0")
        last_error = "?"
        for rules, _note in rules_candidates(g, co, other):
            reqs = [{"op": "load", "key": "g", "rules": rules, "modules": g.modules, "players": g.players},
                    {"op": "play", "key": "g", "seed": seed, "games": games, "clones": clones, "warm": warm},
                    {"op": "quit"}]
            r = subprocess.run(cmd, input="".join(json.dumps(q) + "\n" for q in reqs), capture_output=True,
                               text=True, env=env, cwd=co.root)
            answers = [json.loads(x) for x in r.stdout.splitlines() if x.strip().startswith("{")]
            if not answers or not answers[0].get("ok"):
                raise CompareError(f"{co.role}: the engine does not start: "
                                   f"{answers[0].get('error') if answers else r.stderr.strip()[-300:]}")
            if len(answers) < 2 or not answers[1].get("ok"):
                last_error = answers[1].get("error", "?") if len(answers) > 1 else r.stderr.strip()[-300:]
                continue
            if not counted:
                return 0, answers[2] if len(answers) > 2 else {}
            m = _COLLECTED.search(log.read_text(errors="replace")) if log.exists() else None
            if m is None:
                raise CompareError(f"{co.role}: callgrind printed no count (see: {' '.join(cmd)})")
            if len(answers) < 3 or not answers[2].get("ok"):
                raise CompareError(f"{g.text} in {co.role}: {answers[2].get('error') if len(answers) > 2 else '?'}")
            return int(m.group(1)), answers[2]
        raise CompareError(f"{g.text} does not load in {co.role}: {last_error}")


def measure(co: Checkout, other: Checkout, g: GameSpec, games: int, seed: int) -> dict:
    """Per game of the `games` games after the first: the run that plays only the first game
    (and so loads, warms up and collects garbage as the other does) is subtracted. A run
    without valgrind first writes what the two counted ones would otherwise both race to
    write (the checkout's `__pycache__`, the grammar's parser tables): in a fresh checkout
    that work, counted in one run and not the other, outweighed a game of Tic-tac-toe."""
    callgrind_run(co, other, g, 1, seed, False, counted=False)
    with ThreadPoolExecutor(2) as pool:            # valgrind runs one thread: use both cores
        full = pool.submit(callgrind_run, co, other, g, games + 1, seed, False)
        first = pool.submit(callgrind_run, co, other, g, 1, seed, False)
        (n_full, play), (n_first, play1) = full.result(), first.result()
    if n_full <= n_first:
        raise CompareError(f"{g.text} in {co.role}: {games + 1} games counted no more instructions than 1 "
                           f"({n_full:,} against {n_first:,}); too few games to measure: raise --count")
    per_game = (n_full - n_first) / games
    decisions = play["decisions"] - play1["decisions"]
    return {"instructions_per_game": per_game, "instructions_per_decision": per_game * games / max(1, decisions),
            "decisions": decisions, "checksum": play["checksum"]}


def measure_clones(co: Checkout, other: Checkout, g: GameSpec, games: int, seed: int) -> dict:
    """Per `clone` + `apply` of one move (what a tree search pays per node): the same games
    played twice, once with each move also played on a clone first; the difference divided
    by the moves (the loading and the playouts are the same in both runs, and both first
    step a clone: what an engine does at its first clone, such as reading which lists each
    block may change, is not a cost per move)."""
    callgrind_run(co, other, g, 1, seed, False, counted=False)
    with ThreadPoolExecutor(2) as pool:
        with_clones = pool.submit(callgrind_run, co, other, g, games, seed, True, warm=True)
        plain = pool.submit(callgrind_run, co, other, g, games, seed, False, warm=True)
        (n_clones, play), (n_plain, _) = with_clones.result(), plain.result()
    if n_clones <= n_plain or not play.get("moves"):
        raise CompareError(f"{g.text} in {co.role}: the clones counted nothing "
                           f"({n_clones:,} against {n_plain:,}): raise --count")
    per_move = (n_clones - n_plain) / play["moves"]
    return {"instructions_per_game": per_move, "instructions_per_decision": per_move,
            "decisions": play["moves"], "checksum": play["checksum"]}


def run_worker(root: str) -> int:
    """compare_worker.py for the checkout at root, without the engine's watchdog thread: it
    wakes on the wall clock (twice a second), so its instructions would grow with the time a
    run takes under valgrind rather than with the games."""
    import threading
    start = threading.Thread.start

    def start_unless_watchdog(self):
        if self.name != "regola-watchdog":
            start(self)
    threading.Thread.start = start_unless_watchdog
    import compare_worker
    return compare_worker.main([root])


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--worker"] and len(argv) == 2:
        return run_worker(argv[1])
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("base", help="BASE: a directory or a git revision")
    ap.add_argument("new", nargs="?", help="NEW (default: this working tree)")
    ap.add_argument("--games", help="NAME[:PLAYERS[:MODULE+...]],... (default: compare.py's)")
    ap.add_argument("--count", type=int, help="games played per run (default: per game, 4 to 500)")
    ap.add_argument("--seed", type=int, default=1, help="seed of the first game (default 1)")
    ap.add_argument("--clone", action="store_true",
                    help="count a clone + apply of one move at every decision instead of whole games")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = ap.parse_args(argv)
    if args.count is not None and args.count < 1:
        print("instructions.py: --count must be at least 1", file=sys.stderr)
        return 2
    base = new = None
    try:
        base = resolve_checkout("BASE", args.base)
        new = resolve_checkout("NEW", args.new)
        games = parse_games(args.games or ",".join(DEFAULT_GAMES))
        if shutil.which("valgrind") is None:
            raise CompareError("valgrind is not installed (apt-get install valgrind)")
        rows = []
        for i, g in enumerate(games, 1):
            count = args.count or DEFAULT_COUNT.get(Path(g.name).name, 10)
            print(f"[{i}/{len(games)}] {g.text}: {count} games under callgrind, BASE then NEW ...",
                  file=sys.stderr, flush=True)
            how = measure_clones if args.clone else measure
            a = how(base, new, g, count, args.seed)
            b = how(new, base, g, count, args.seed)
            rows.append({"game": g.text, "games": count, "base": a, "new": b,
                         "fewer": a["instructions_per_game"] / b["instructions_per_game"],
                         "same_games": a["checksum"] == b["checksum"] and a["decisions"] == b["decisions"]})
    except CompareError as e:
        print(f"instructions.py: {e}", file=sys.stderr)
        return 2
    finally:
        for co in (base, new):
            if co is not None:
                co.cleanup()
    if args.json:
        print(json.dumps({"base": base.label, "new": new.label, "clone": args.clone,
                          "games_only": games_only(), "rows": rows}, indent=2))
        return 0
    print(f"BASE: {base.label}\nNEW:  {new.label}")
    unit = "clone+apply" if args.clone else "game"
    how = ("only the games counted (callgrind " + GAMES_ONLY + ")" if games_only() else
           "whole runs counted, less a run of one game (this Python names no starmap_next)")
    print(f"instructions per {unit} (callgrind, loading excluded: {how}); BASE/NEW above 1: NEW runs fewer\n")
    print(f"{'game':44s} {'games':>5s} {'BASE/' + unit:>17s} {'NEW/' + unit:>16s} {'NEW/decision':>13s} "
          f"{'BASE/NEW':>9s}  same games")
    print("-" * 118)
    for r in rows:
        name = r["game"] if len(r["game"]) <= 44 else r["game"][:41] + "..."
        print(f"{name:44s} {r['games']:5d} {r['base']['instructions_per_game']:17,.0f} "
              f"{r['new']['instructions_per_game']:16,.0f} {r['new']['instructions_per_decision']:13,.0f} "
              f"{r['fewer']:8.2f}x  {'yes' if r['same_games'] else 'NO: the versions play different games'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
