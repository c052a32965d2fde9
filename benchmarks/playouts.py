"""Random-playout speed: games per second for a game (default Lungarno, 4 players).

    python benchmarks/playouts.py                      # lungarno, 4 players
    python benchmarks/playouts.py lions-of-lydia --players 3 --games 300 --with croesus

Prints load time, games/s excluding load, and decisions (moves + chance events) per second.
Not a test: timings vary with the machine. Run it before and after a change to the engine.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from regola.loader import load_game  # noqa: E402


def run(rules: str, players: int | None, games: int, seed: int, modules: list[str], repeat: int) -> dict:
    t0 = time.perf_counter()
    game = load_game(rules, modules=modules, players=players)
    load = time.perf_counter() - t0
    best = None
    steps = 0
    for _ in range(repeat):
        rng = random.Random(seed)
        steps = 0
        t1 = time.perf_counter()
        for i in range(games):
            s = game.new_initial_state(seed + i)
            legal, apply, step_chance = game.legal_moves, game.apply, game.step_chance
            while s.pending is not None:
                if s.pending[1] == -1:
                    step_chance(s)
                else:
                    ms = legal(s)
                    apply(s, ms[int(rng.random() * len(ms))])
                steps += 1
        dt = time.perf_counter() - t1
        best = dt if best is None else min(best, dt)
    return {"game": game.title, "players": game.num_players, "games": games, "load_s": load,
            "games_per_s": games / best, "steps_per_game": steps / games, "steps_per_s": steps / best}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("rules", nargs="?", default="lungarno")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--games", type=int, default=500)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--with", dest="modules", default="")
    ap.add_argument("--repeat", type=int, default=3, help="best of N runs")
    a = ap.parse_args(argv)
    mods = [m for m in a.modules.split(",") if m]
    r = run(a.rules, a.players, a.games, a.seed, mods, a.repeat)
    print(f"{r['game']}, {r['players']} players{', ' + ', '.join(mods) if mods else ''}")
    print(f"  load and compile:   {r['load_s'] * 1000:8.1f} ms")
    print(f"  random playouts:    {r['games_per_s']:8.1f} games/s (best of {a.repeat} x {a.games})")
    print(f"  decisions per game: {r['steps_per_game']:8.1f}")
    print(f"  decisions per s:    {r['steps_per_s']:8.0f}")


if __name__ == "__main__":
    main()
