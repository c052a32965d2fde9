"""The memory of a state, per game: its JSON size, its size in memory and the time to clone it.

    python benchmarks/state_size.py                    # every bundled configuration, 5 games each
    python benchmarks/state_size.py lungarno --games 2 # Lungarno's configurations only
    python benchmarks/state_size.py lorenzo-il-magnifico:5:leaders+houses_of_renaissance --json

A configuration is NAME (all the default configurations of that game) or
NAME:PLAYERS[:MODULE+MODULE...]. Each game is a seeded random playout (the seeds SEED,
SEED+1, ...; moves chosen uniformly by random.Random(seed), chance from the state's own seed).
It is played once to learn its length N (decisions: moves and chance events), then replayed,
and the state is measured at the start (the first decision), the middle (after N // 2
decisions) and the end (game over). Printed per configuration and point: the median over the
games of

  json   bytes of json.dumps(game.dump(s)) (what a save or a log entry of the state costs);
  memory bytes in memory of a whole state (a copy that shares nothing; see MEMORY below);
  clone  the time of game.clone(s) in µs (best of 5 timed batches);
  node   at the middle: bytes in memory of a clone after one random move (or chance step),
         not counting what it shares with the state it was cloned from: what a search tree
         pays for one more node (clones share lists in games whose state holds many:
         runtime/sharing.py).

Not a test: clone times depend on the machine; the sizes depend on the Python version.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import textwrap
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from regola.loader import load_game  # noqa: E402

CONFIGS = [
    ("lungarno", 2, ()), ("lungarno", 3, ()), ("lungarno", 4, ()), ("lungarno", 5, ()),
    ("lions-of-lydia", 4, ()),
    ("lions-of-lydia", 4, ("croesus", "pactolus", "craftsmen", "courtyards", "tomb", "builders",
                           "chariot_race")),
    ("lorenzo-il-magnifico", 4, ()),
    ("lorenzo-il-magnifico", 4, ("advanced", "leaders")),
    ("lorenzo-il-magnifico", 5, ("leaders", "houses_of_renaissance")),
]
OPTIONAL = [("connect-four", 2, ()), ("tic-tac-toe", 2, ())]     # only if rules/ has them
POINTS = ("start", "middle", "end")

MEMORY = ("memory: sys.getsizeof of the State object and of every list, dict and tuple reachable "
          "from s.v, s.stack (frames and their locals) and s.pending, plus every int that is not "
          "a small int; each object once (by id). Not counted: None, True, False, the small ints "
          "-5..256 and str (the generated code's constants), which every state shares, so a tree "
          "pays them once, not per state; s.cache (legal moves, derived, shared by a clone), "
          "s.rng and s.result.")


def available_configs():
    out = list(CONFIGS)
    out += [c for c in OPTIONAL if (ROOT / "rules" / c[0]).is_dir()]
    return out


def parse_configs(specs):
    if not specs:
        return available_configs()
    out = []
    for spec in specs:
        parts = spec.split(":")
        if len(parts) == 1:
            mine = [c for c in available_configs() if c[0] == spec]
            if not mine:
                raise SystemExit(f"state_size.py: no default configuration of '{spec}'; "
                                 f"give NAME:PLAYERS[:MODULE+MODULE...]")
            out += mine
        else:
            mods = tuple(m for m in parts[2].split("+") if m) if len(parts) > 2 else ()
            out.append((parts[0], int(parts[1]), mods))
    return out


def label(cfg) -> str:
    name, players, mods = cfg
    return f"{name} {players}p" + (f" {','.join(mods)}" if mods else "")


# ---------------------------------------------------------------------------- measures

def _shared(o) -> bool:
    """Objects every state shares: a search tree pays for them once, not per state."""
    if o is None or o is True or o is False or type(o) is str:
        return True
    return type(o) is int and -5 <= o <= 256


def _objects(s, skip=()):
    """Every list, dict, tuple and int of `s` a state pays for (each once), but those whose
    id is in `skip`."""
    seen = set(skip)
    todo = [s.v, s.stack, s.pending]
    while todo:
        o = todo.pop()
        if _shared(o) or id(o) in seen:
            continue
        seen.add(id(o))
        yield o
        if type(o) is dict:
            todo.extend(o.keys())
            todo.extend(o.values())
        elif type(o) in (list, tuple):
            todo.extend(o)


def node_bytes(game, s, seed: int) -> int:
    """The memory of a clone of `s` after one random step, less what it shares with `s`."""
    c = game.clone(s)
    if c.pending is not None:
        if c.pending[1] == -1:
            game.step_chance(c)
        else:
            ms = game.legal_moves(c)
            game.apply(c, ms[random.Random(seed).randrange(len(ms))])
    return memory_bytes(c, {id(o) for o in _objects(s)})


def memory_bytes(s, skip=()) -> int:
    return sys.getsizeof(s) + sum(sys.getsizeof(o) for o in _objects(s, skip))


def json_bytes(game, s) -> int:
    return len(json.dumps(game.dump(s)).encode())


def clone_us(game, s, seconds: float) -> float:
    clone = game.clone
    n = 1
    while True:                                  # a batch that takes about `seconds`
        t0 = time.perf_counter()
        for _ in range(n):
            clone(s)
        dt = time.perf_counter() - t0
        if dt >= seconds or n >= 1 << 20:
            break
        n *= 2 if dt <= 0 else max(2, min(10, int(seconds / dt) + 1))
    best = dt
    for _ in range(4):
        t0 = time.perf_counter()
        for _ in range(n):
            clone(s)
        best = min(best, time.perf_counter() - t0)
    return best / n * 1e6


# ---------------------------------------------------------------------------- games

def play(game, seed: int, stop: int | None = None):
    """The state after `stop` decisions of the seeded random game (or at its end), and the
    number of decisions played."""
    rng = random.Random(seed)
    s = game.new_initial_state(seed)
    n = 0
    while s.pending is not None and (stop is None or n < stop):
        if s.pending[1] == -1:
            game.step_chance(s)
        else:
            ms = game.legal_moves(s)
            game.apply(s, ms[int(rng.random() * len(ms))])
        n += 1
    return s, n


def measure(cfg, games: int, seed: int, clone_seconds: float) -> dict:
    name, players, mods = cfg
    t0 = time.perf_counter()
    game = load_game(name, modules=list(mods), players=players)
    load_s = time.perf_counter() - t0
    per = {p: {"json": [], "memory": [], "clone_us": []} for p in POINTS}
    per["middle"]["node"] = []
    lengths = []
    for i in range(games):
        end, n = play(game, seed + i)
        lengths.append(n)
        states = {"start": play(game, seed + i, 0)[0], "middle": play(game, seed + i, n // 2)[0], "end": end}
        for p, s in states.items():
            per[p]["json"].append(json_bytes(game, s))
            per[p]["memory"].append(memory_bytes(s))
            per[p]["clone_us"].append(clone_us(game, s, clone_seconds))
        per["middle"]["node"].append(node_bytes(game, states["middle"], seed + i))
    med = {p: {k: statistics.median(v) for k, v in d.items()} for p, d in per.items()}
    return {"game": name, "players": players, "modules": list(mods), "label": label(cfg),
            "games": games, "decisions": statistics.median(lengths), "load_s": load_s,
            "vars": len(game.vars), **med}


LABEL_WIDTH = 32           # a longer configuration name gets a line of its own


def table(rows) -> str:
    w = max([len(r["label"]) for r in rows if len(r["label"]) <= LABEL_WIDTH] + [len("configuration")])
    head = (f"{'configuration':<{w}}  {'decisions':>9}   {'json bytes start/middle/end':>27}   "
            f"{'memory bytes start/middle/end':>29}   {'clone µs start/middle/end':>25}   {'node bytes':>10}")
    lines = [head, "-" * len(head)]
    for r in rows:
        js = "/".join(f"{r[p]['json']:,.0f}" for p in POINTS)
        mem = "/".join(f"{r[p]['memory']:,.0f}" for p in POINTS)
        cl = "/".join(f"{r[p]['clone_us']:.1f}" for p in POINTS)
        name = r["label"]
        if len(name) > w:
            lines.append(name)
            name = ""
        lines.append(f"{name:<{w}}  {r['decisions']:>9,.0f}   {js:>27}   {mem:>29}   {cl:>25}   "
                     f"{r['middle']['node']:>10,.0f}")
    return "\n".join(lines)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("configs", nargs="*", help="NAME or NAME:PLAYERS[:MODULE+MODULE...] (default: all)")
    ap.add_argument("--games", type=int, default=5, help="seeded random games per configuration (median)")
    ap.add_argument("--seed", type=int, default=1000)
    ap.add_argument("--clone-seconds", type=float, default=0.02, help="length of one timed batch of clones")
    ap.add_argument("--json", action="store_true", help="machine-readable output")
    a = ap.parse_args(argv)
    rows = [measure(c, a.games, a.seed, a.clone_seconds) for c in parse_configs(a.configs)]
    if a.json:
        print(json.dumps({"games": a.games, "seed": a.seed, "python": sys.version.split()[0],
                          "points": list(POINTS), "memory_counts": MEMORY, "rows": rows}, indent=1))
        return
    print(f"median of {a.games} seeded random games (seeds {a.seed}..{a.seed + a.games - 1}) per configuration; "
          f"Python {sys.version.split()[0]}")
    print("start: the first decision; middle: after half the game's decisions; end: game over")
    print("json: bytes of json.dumps(game.dump(s)); clone: game.clone(s), best of 5 batches")
    print(textwrap.fill(MEMORY, 100, subsequent_indent="  "))
    print()
    print(table(rows))


if __name__ == "__main__":
    main()
