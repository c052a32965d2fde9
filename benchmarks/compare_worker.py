"""Worker for benchmarks/compare.py: one persistent process per Regola checkout.

    python benchmarks/compare_worker.py CHECKOUT_ROOT

Started by compare.py, never by hand. It puts CHECKOUT_ROOT first on sys.path and imports
that checkout's engine (`regola`, else `interpreter.loader`), refusing a module found
anywhere else (an editable install of another checkout, say). It imports nothing from the
checkout it is stored in, so any old commit can be measured with today's driver.

Protocol: one JSON object per line. The worker first writes a hello line; then for each
request read from stdin it writes one reply, {"ok": true, ...} or {"ok": false, "error": ...}.

    {"op": "load",  "key": K, "rules": R, "modules": [...], "players": N}
    {"op": "play",  "key": K, "seed": S, "games": N}   random playouts of seeds S..S+N-1
                                      (with "clones": true, each move played on a clone first;
                                      "warm": true, one step on a clone before)
    {"op": "clone", "key": K, "seed": S, "games": N, "clock": "wall" | "cpu"}
                                                       the same games, timing clone+apply
    {"op": "quit"}

The driver uses the public API only and is the same for every checkout.
"""

from __future__ import annotations

import gc
import json
import os
import random
import sys
import time
import traceback
import zlib
from itertools import starmap
from pathlib import Path


def _import_engine(root: Path):
    """load_game from the checkout at root: `regola` first, then `interpreter.loader`."""
    tried = []
    for modname, attr in (("regola", "load_game"), ("interpreter.loader", "load_game")):
        top = modname.split(".")[0]
        try:
            mod = __import__(modname, fromlist=[attr])
            fn = getattr(mod, attr)
        except Exception as e:  # noqa: BLE001
            tried.append(f"{modname}: {type(e).__name__}: {e}")
            _forget(top)
            continue
        where = Path(getattr(mod, "__file__", "") or "").resolve()
        if not where.is_relative_to(root):
            tried.append(f"{modname}: found at {where}, outside {root}")
            _forget(top)
            continue
        return fn, modname, str(where)
    raise ImportError("cannot import Regola from " + str(root) + ": " + "; ".join(tried))


def _forget(top: str):
    for name in [n for n in sys.modules if n == top or n.startswith(top + ".")]:
        del sys.modules[name]


def _mix(crc: int, seed: int, decisions: int, scores) -> int:
    return zlib.crc32(f"{seed}:{decisions}:{list(scores)};".encode(), crc)


def play(game, seed: int, games: int, clones: bool = False, warm: bool = False) -> dict:
    """Random playouts: seeded random.Random per game, uniform over legal moves. With
    `clones`, each move is first played on a clone too (`c = clone(s); apply(c, m)`, untimed:
    instructions.py counts the difference); `warm`: first one step on a clone of the first
    game's start, so that what an engine does once, at its first clone, is done before."""
    legal, apply, step_chance, clone = game.legal_moves, game.apply, game.step_chance, game.clone
    is_terminal, is_chance, scores = game.is_terminal, game.is_chance, game.scores
    if warm:
        c = clone(game.new_initial_state(seed))
        if is_chance(c):
            step_chance(c)
        elif not is_terminal(c):
            apply(c, legal(c)[0])
    def one_game(g: int) -> tuple:
        rng = random.Random(g)
        s = game.new_initial_state(g)
        n = moves = 0
        while not is_terminal(s):
            if is_chance(s):
                step_chance(s)
            else:
                ms = legal(s)
                m = ms[int(rng.random() * len(ms))]
                if clones:
                    apply(clone(s), m)
                    moves += 1
                apply(s, m)
            n += 1
        return g, n, moves, scores(s)

    crc = 0
    decisions = moves = 0
    gc.collect()
    c0 = time.process_time()
    t0 = time.perf_counter()
    # each game is played inside itertools.starmap's C step (`starmap_next`), so that
    # instructions.py can have callgrind count only the games (--toggle-collect=starmap_next)
    for g, n, m, sc in starmap(one_game, zip(range(seed, seed + games))):
        decisions += n
        moves += m
        crc = _mix(crc, g, n, sc)
    elapsed = time.perf_counter() - t0
    cpu = time.process_time() - c0
    return {"elapsed": elapsed, "cpu": cpu, "games": games, "decisions": decisions, "moves": moves,
            "checksum": crc}


CLOCKS = {"wall": time.perf_counter, "cpu": time.process_time}


def _timer_overhead(pc) -> float:
    xs = []
    for _ in range(2000):
        t0 = pc()
        xs.append(pc() - t0)
    xs.sort()
    return xs[len(xs) // 2]


def clone_apply(game, seed: int, games: int, clock: str, overhead: float) -> dict:
    """The same games as play(); at every decision, time c = clone(s); apply(c, m).

    Timed with the wall clock or the process's CPU time (steadier on a busy machine)."""
    legal, apply, step_chance, clone = game.legal_moves, game.apply, game.step_chance, game.clone
    is_terminal, is_chance, scores = game.is_terminal, game.is_chance, game.scores
    pc = CLOCKS[clock]
    crc = 0
    count = 0
    timed = 0.0
    gc.collect()
    w0 = time.perf_counter()
    for g in range(seed, seed + games):
        rng = random.Random(g)
        s = game.new_initial_state(g)
        n = 0
        while not is_terminal(s):
            if is_chance(s):
                step_chance(s)
            else:
                ms = legal(s)
                m = ms[int(rng.random() * len(ms))]
                t0 = pc()
                c = clone(s)
                apply(c, m)
                timed += pc() - t0
                count += 1
                apply(s, m)
            n += 1
        crc = _mix(crc, g, n, scores(s))
    wall = time.perf_counter() - w0
    return {"elapsed": max(0.0, timed - count * overhead), "count": count, "wall": wall,
            "games": games, "checksum": crc}


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    root = Path(argv[0]).resolve()
    here = Path(__file__).resolve().parent
    # this checkout's benchmarks/ must not shadow anything of the measured checkout
    sys.path[:] = [str(root)] + [p for p in sys.path if p and Path(p).resolve() != here]
    # the protocol owns the real stdout; anything the engine prints goes to stderr
    proto = os.fdopen(os.dup(1), "w", buffering=1)
    os.dup2(2, 1)
    sys.stdout = sys.stderr

    def send(obj):
        proto.write(json.dumps(obj) + "\n")
        proto.flush()

    try:
        load_game, modname, where = _import_engine(root)
    except Exception as e:  # noqa: BLE001
        send({"ok": False, "error": str(e)})
        return 2
    send({"ok": True, "module": modname, "file": where, "python": sys.version.split()[0]})
    games = {}
    overhead = {k: _timer_overhead(f) for k, f in CLOCKS.items()}
    for line in sys.stdin:
        if not line.strip():
            continue
        req = json.loads(line)
        op = req.get("op")
        if op == "quit":
            break
        try:
            if op == "load":
                t0 = time.perf_counter()
                g = load_game(req["rules"], modules=list(req.get("modules") or []), players=req.get("players"))
                games[req["key"]] = g
                send({"ok": True, "load_s": time.perf_counter() - t0, "title": getattr(g, "title", "")})
            elif op == "play":
                send({"ok": True, **play(games[req["key"]], int(req["seed"]), int(req["games"]),
                                         bool(req.get("clones")), bool(req.get("warm")))})
            elif op == "clone":
                clock = req.get("clock", "wall")
                send({"ok": True, **clone_apply(games[req["key"]], int(req["seed"]), int(req["games"]), clock,
                                                overhead[clock])})
            else:
                send({"ok": False, "error": f"unknown request {op!r}"})
        except Exception as e:  # noqa: BLE001
            tb = traceback.extract_tb(e.__traceback__)
            at = f" (at {Path(tb[-1].filename).name}:{tb[-1].lineno})" if tb else ""
            send({"ok": False, "error": f"{type(e).__name__}: {e}{at}".strip()})
    return 0


if __name__ == "__main__":
    sys.exit(main())
