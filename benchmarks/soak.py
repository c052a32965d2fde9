"""Soak at scale: random moves across every bundled game, module set and player count, with
the invariants the soak tests check, until a total number of moves is reached.

    python benchmarks/soak.py --moves 1000000 --jobs 2        # the issue's million moves
    python benchmarks/soak.py --moves 20000 --games lungarno  # one game, quickly

Not a test (it runs for many minutes); tests/test_*_soak.py run the same invariants on fewer
games in CI. Checked at every player decision: the game's own invariants (written in the
rules language, taken from the soak tests), a non-empty list of legal moves with distinct
ids inside the action space, and the chosen move's text parsing back to it; at every chance
event: the outcome probabilities summing to 1. Every 25 decisions: every player's and the
spectator's observation (JSON-ready), `clone` equal to the state, and a save through JSON
loading back equal. At the end: scores and winners. A failure prints the configuration, the
seed and the step, and the run exits 1.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from regola.compose import ModuleSelectionError, player_range, read_game, select_modules  # noqa: E402
from regola.loader import load_game  # noqa: E402
from regola.resources import bundled_games, find_rules  # noqa: E402
from regola.snippets import SnippetCompiler  # noqa: E402

# invariants the soak tests do not check once the game is over: Lorenzo's family members
# stay on the board after the last round (availability is reset by a next round that never comes)
NOT_AT_THE_END = ("family members on the board",)
MAX_DECISIONS = 20_000          # a random game longer than this is a failure (it should end)
DEEP_EVERY = 25                 # decisions between the costlier checks (observe, clone, save)


def _test_module(name: str):
    path = ROOT / "tests" / f"{name}.py"
    sys.path.insert(0, str(ROOT / "tests"))
    spec = importlib.util.spec_from_file_location(f"_soak_{name}", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def invariants(rules: str, modules: tuple) -> list[tuple[str, str]]:
    """The invariants of the soak tests for this game and module set (none for a game the
    soak tests do not cover: the generic checks still run)."""
    if rules == "lungarno":
        return list(_test_module("test_lungarno_soak").INVARIANTS)
    if rules == "lions-of-lydia":
        return list(_test_module("test_lions_soak").invariants(set(modules)))
    if rules == "lorenzo-il-magnifico":
        if "houses_of_renaissance" in modules:
            return list(_test_module("test_houses_soak").INVARIANTS)
        return list(_test_module("test_lorenzo_soak").invariants(set(modules)))
    if rules == "cant-stop":
        return list(_test_module("test_cant_stop_soak").INVARIANTS)
    if rules == "love-letter":
        return list(_test_module("test_love_letter_soak").INVARIANTS)
    if rules == "sushi-go":
        return list(_test_module("test_sushi_go_soak").INVARIANTS)
    if rules == "hanabi":
        return list(_test_module("test_hanabi_soak").INVARIANTS)
    return []


def configurations(only: list[str] | None = None) -> list[tuple[str, int, tuple]]:
    """Every bundled game at every player count: without modules, with each optional module
    and each pair of them (and what they require), and with the most optional modules that
    go together; combinations the game refuses (conflicts, player counts) are left out."""
    out = []
    for name in bundled_games():
        if only and name not in only:
            continue
        src = read_game(find_rules(name))
        optional = sorted(n for n, m in src.modules.items() if not m.automatic)
        sets = [()] + [tuple(dict.fromkeys([*src.modules[n].requires, n])) for n in optional]
        sets += [tuple(dict.fromkeys([*src.modules[a].requires, a, *src.modules[b].requires, b]))
                 for i, a in enumerate(optional) for b in optional[i + 1:]]
        most: list[str] = []
        for n in optional:                      # greedily, in name order, what fits together
            trial = list(dict.fromkeys([*most, *src.modules[n].requires, n]))
            try:
                select_modules(src, player_range(src, [src.modules[m] for m in trial])[1], trial)
                most = trial
            except (ModuleSelectionError, Exception):   # noqa: BLE001 - a conflict: leave it out
                continue
        if len(most) > 1:
            sets.append(tuple(most))
        for mods in dict.fromkeys(sets):
            lo, hi = player_range(src, [src.modules[m] for m in mods])
            for n in range(lo, hi + 1):
                try:
                    select_modules(src, n, list(mods))
                except Exception:   # noqa: BLE001 - a conflict, or not at this player count
                    continue
                out.append((name, n, mods))
    return out


class Failure(Exception):
    pass


def soak_one(rules, players, modules, seed, checks, game) -> tuple[int, int]:
    """One random game with every check; returns (moves, chance events)."""
    rng = random.Random(seed)
    s = game.new_initial_state(seed)
    moves = chances = decisions = 0
    where = f"{rules} {players}p {'+'.join(modules) or 'base'} seed {seed}"
    while not game.is_terminal(s):
        if game.is_chance(s):
            total = sum(p for _, p in game.chance_outcomes(s))
            if abs(total - 1.0) > 1e-9:
                raise Failure(f"{where}: chance outcomes sum to {total}")
            game.step_chance(s)
            chances += 1
            continue
        decisions += 1
        for name, fn in checks:
            if not fn(s):
                raise Failure(f"{where}, decision {decisions}: invariant broken: {name}")
        ms = game.legal_moves(s)
        if not ms:
            raise Failure(f"{where}, decision {decisions}: a player's decision with no legal move")
        if decisions % DEEP_EVERY == 0:
            _deep_checks(game, s, ms, where, decisions)
        m = ms[rng.randrange(len(ms))]
        if game.parse_move(s, game.move_str(s, m)) != m:
            raise Failure(f"{where}, decision {decisions}: {game.move_str(s, m)!r} does not parse back")
        game.apply(s, m)
        moves += 1
        if decisions > MAX_DECISIONS:
            raise Failure(f"{where}: no end after {MAX_DECISIONS} decisions")
    for name, fn in checks:
        if not name.startswith(NOT_AT_THE_END) and not fn(s):
            raise Failure(f"{where}, at the end: invariant broken: {name}")
    if len(game.scores(s)) != players or not game.winners(s):
        raise Failure(f"{where}: scores or winners missing at the end")
    return moves, chances


def _deep_checks(game, s, ms, where, decisions):
    ids = [game.move_id(s, m) for m in ms]
    if len(set(ids)) != len(ids) or not all(0 <= i < game.action_space for i in ids):
        raise Failure(f"{where}, decision {decisions}: move ids not distinct or outside the action space")
    for viewer in [None, *range(game.num_players)]:
        json.dumps(game.observe(s, viewer))
    c = game.clone(s)
    if game.dump(c) != game.dump(s):
        raise Failure(f"{where}, decision {decisions}: a clone differs from its state")
    loaded = game.load(json.loads(json.dumps(game.dump(s))))
    if game.dump(loaded) != game.dump(s):
        raise Failure(f"{where}, decision {decisions}: a save does not load back equal")


def run(configs, target_moves: int, seed: int, progress: bool, share=None):
    """Round-robin over the configurations, one game each, until target_moves moves."""
    loaded = {}
    moves = chances = games = 0
    t0 = time.perf_counter()
    i = 0
    while moves < target_moves:
        rules, players, mods = configs[i % len(configs)]
        key = (rules, players, mods)
        if key not in loaded:
            game = load_game(rules, modules=list(mods), players=players)
            sc = SnippetCompiler(game)
            loaded[key] = (game, [(name, sc.expression(text)) for name, text in invariants(rules, mods)])
        game, checks = loaded[key]
        m, c = soak_one(rules, players, mods, seed + i, checks, game)
        moves += m
        chances += c
        games += 1
        i += 1
        if progress:
            rate = moves / max(time.perf_counter() - t0, 1e-9)
            done = min(moves / target_moves, 1.0)
            bar = "#" * int(30 * done) + "." * (30 - int(30 * done))
            sys.stderr.write(f"\r[{bar}] {moves:,}/{target_moves:,} moves  {games:,} games  {rate:,.0f} moves/s ")
            sys.stderr.flush()
    if progress:
        sys.stderr.write("\n")
    return {"moves": moves, "chance": chances, "games": games, "seconds": time.perf_counter() - t0}


def _job(args):
    configs, target, seed = args
    return run(configs, target, seed, progress=False)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--moves", type=int, default=1_000_000, help="player moves in all (default 1,000,000)")
    ap.add_argument("--games", default="", help="bundled games to soak, comma separated (default: all)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--jobs", type=int, default=1, help="worker processes")
    a = ap.parse_args(argv)
    if a.moves < 1 or a.jobs < 1:
        ap.error("--moves and --jobs must be 1 or more")
    configs = configurations([g for g in a.games.split(",") if g] or None)
    if not configs:
        ap.error(f"no such bundled game: {a.games}")
    print(f"{len(configs)} configurations: " + "; ".join(f"{r} {n}p {'+'.join(m) or 'base'}" for r, n, m in configs))
    try:
        if a.jobs == 1:
            res = run(configs, a.moves, a.seed, progress=sys.stderr.isatty())
        else:
            from regola.tools.executors import process_map
            per = -(-a.moves // a.jobs)
            parts = process_map(_job, [(configs[j:] + configs[:j], per, a.seed + 1_000_000 * j)
                                       for j in range(a.jobs)])
            res = {k: sum(p[k] for p in parts) for k in ("moves", "chance", "games")}
            res["seconds"] = max(p["seconds"] for p in parts)
    except Failure as e:
        print(f"FAILED: {e}")
        return 1
    print(f"{res['moves']:,} moves and {res['chance']:,} chance events in {res['games']:,} games over "
          f"{len(configs)} configurations, {res['seconds']:.0f} s: every check held")
    return 0


if __name__ == "__main__":
    sys.exit(main())
