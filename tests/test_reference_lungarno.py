"""The hand-written Lungarno of benchmarks/reference/lungarno.py plays Regola's Lungarno.

The reference is the speed baseline benchmarks/peers.py runs against Regola's compiled
rules/lungarno, so it must play the same game with the same moves. Random Regola games for
2 to 5 players are mirrored into it (each chance outcome with apply_chance, each move by
its text): at every decision the same player moves with the same moves, and each game ends
with the same scores. The seeds include games where the draw stack runs out, a hand is full,
an office replaces a tile of a closed district and a tower house's owner chooses a street.
Then: one seed plays the same random game in both (same generator, same move order), apply
refuses illegal moves without touching the state, clone is independent, and a few thousand
reference playouts end with tiles and merchants conserved (tests/test_benchmarks_smoke.py
runs benchmarks/peers.py on Lungarno).
"""

import importlib.util
import pickle
import random
from collections import Counter
from functools import lru_cache
from pathlib import Path

import pytest

from regola.loader import load_game
from rules_helpers import random_moves

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("reference_lungarno", ROOT / "benchmarks" / "reference" / "lungarno.py")
ref = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(ref)

# seeds 0-99 for every count (among them games where a hand is full), and more whose game
# (Regola's generator, moves picked by random.Random(seed)) empties the draw stack
SEEDS = {2: list(range(100)), 3: list(range(100)),
         4: list(range(100)) + [133, 207], 5: list(range(100)) + [148, 160]}


@lru_cache(maxsize=None)
def regola(n):
    return load_game(str(ROOT / "rules" / "lungarno"), players=n)


def snapshot(s):
    return pickle.dumps([getattr(s, k) for k in ref.State.__slots__])


def cross_check(n, seed, seen):
    """Play Regola's game from `seed`, mirrored into the reference; count what happened."""
    g, R = regola(n), ref.Lungarno(n)
    s, r = g.new_initial_state(seed), R.new_initial_state(seed)
    rng = random.Random(seed)
    while not g.is_terminal(s):
        where = f"{n} players, seed {seed}, pending {s.pending}"
        assert not R.is_terminal(r), where
        assert g.is_chance(s) == R.is_chance(r), where
        assert g.current_player(s) == R.current_player(r), where
        if g.is_chance(s):
            R.apply_chance(r, g.step_chance(s))
            continue
        ms, rms = g.legal_moves(s), R.legal_moves(r)
        texts = [g.move_str(s, m) for m in ms]
        rtexts = {R.move_str(r, m): m for m in rms}
        assert sorted(texts) == sorted(rtexts) and len(rtexts) == len(rms), where
        m = ms[int(rng.random() * len(ms))]
        t = g.move_str(s, m)
        seen["decisions"] += 1
        seen[t.split("(")[0].split("=")[0]] += 1
        if r.nstack == 0:
            seen["empty stack"] += 1
        if r.phase in (ref.ACT1, ref.ACT2) and r.hsize[r.player] >= ref.HAND_LIMIT:
            seen["full hand"] += 1
        if t.startswith("play_office") and r.closed[R.b.district[rtexts[t][1]]]:
            seen["office in a closed district"] += 1
        g.apply(s, m)
        R.apply(r, rtexts[t])
    assert R.is_terminal(r) and R.legal_moves(r) == []
    assert all(r.closed) and g.scores(s) == R.scores(r), f"{n} players, seed {seed}"
    seen["games"] += 1


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_reference_plays_regolas_games(n):
    seen = Counter()
    for seed in SEEDS[n]:
        cross_check(n, seed, seen)
    assert seen["games"] == len(SEEDS[n])
    for what in ["buy_tile", "play_tile", "play_office", "shield", "pass", "street_choice",
                 "office in a closed district", "full hand"]:
        assert seen[what] > 0, (n, what, seen)
    if n in (4, 5):
        assert seen["empty stack"] > 0, seen


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_one_seed_plays_the_same_random_game(n):
    """Regola's driver loop (benchmarks/peers.py) plays the same games on both: the same
    generator draws the same tiles, the moves come in the same order."""
    g, R = regola(n), ref.Lungarno(n)
    for seed in range(3):
        trace = []
        for game, is_ref in ((g, False), (R, True)):
            rng, s, out = random.Random(seed), game.new_initial_state(seed), []
            while not game.is_terminal(s):
                if game.is_chance(s):
                    out.append(game.step_chance(s))
                else:
                    ms = game.legal_moves(s)
                    m = ms[int(rng.random() * len(ms))]
                    out.append(game.move_str(s, m))
                    game.apply(s, m)
            trace.append((out, game.scores(s)))
        assert trace[0] == trace[1], (n, seed)


def _candidates(R, s, rng):
    """Moves to try at an action: every purchase and pass, some tiles and offices anywhere."""
    nc = R.b.ncells
    out = [(0, 0), (0, 1), (0, 2), (0, 3), (), (0,), (1, 0), (2,), (1, 0, nc), (2, -1), (1, 0, -1),
           "pass", None, 7, [0, 0], (3, 0)]
    out += [(1, rng.randrange(ref.NK), rng.randrange(nc)) for _ in range(12)]
    out += [(2, rng.randrange(nc)) for _ in range(6)]
    return out


def test_apply_accepts_exactly_the_legal_moves():
    for n in (2, 4, 5):
        R = ref.Lungarno(n)
        for seed in range(6):
            rng, s = random.Random(seed), R.new_initial_state(seed)
            while not R.is_terminal(s):
                if R.is_chance(s):
                    with pytest.raises(ValueError):
                        R.apply(s, (0, 0))
                    with pytest.raises(ValueError):
                        R.apply_chance(s, 99)
                    R.step_chance(s)
                    continue
                ms = R.legal_moves(s)
                with pytest.raises(ValueError):
                    R.apply_chance(s, 0)
                tries = _candidates(R, s, rng) if s.phase in (ref.ACT1, ref.ACT2) else \
                    [(0,), (1,), (2,), (3,), (4,), (), (0, 0), None]
                for m in tries:
                    legal = m in ms
                    before = snapshot(s)
                    c = R.clone(s)
                    try:
                        R.apply(c, m)
                        accepted = True
                    except ValueError:
                        accepted = False
                        assert snapshot(c) == before, (n, seed, m)      # refused: untouched
                    assert accepted == legal, (n, seed, s.phase, m, legal)
                    assert snapshot(s) == before
                R.apply(s, ms[rng.randrange(len(ms))])
            with pytest.raises(ValueError):
                R.apply(s, ())
            with pytest.raises(ValueError):
                R.step_chance(s)


def test_clone_is_independent():
    R = ref.Lungarno(4)
    s = R.new_initial_state(5)
    random_moves(R, s, random.Random(5), limit=120)       # into the game
    before = snapshot(s)
    c = R.clone(s)
    assert snapshot(c) == before

    def play_out(x, seed):
        random_moves(R, x, random.Random(seed))
        return R.scores(x)

    first = play_out(c, 1)
    assert snapshot(s) == before                     # the clone's game left the original alone
    assert play_out(R.clone(s), 1) == first          # and the same moves replay the same game
    play_out(s, 2)
    assert R.is_terminal(c) and R.scores(c) == first


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_random_reference_playouts_end(n):
    R = ref.Lungarno(n)
    for seed in range(500):
        s = R.new_initial_state(seed)
        random_moves(R, s, random.Random(seed), limit=5000)
        assert R.is_terminal(s), f"{n} players, seed {seed}: the game does not end"
        on_board = sum(k >= 0 for k in s.board)
        assert on_board == R.b.ncells and all(s.closed) and not any(s.filled[d] != 6 for d in range(len(s.filled)))
        assert on_board + sum(s.hsize) + sum(k >= 0 for k in s.row) + s.nstack == 65
        assert all(sum(h) == z for h, z in zip(s.hands, s.hsize)) and sum(s.stack) == s.nstack
        for p in range(n):
            assert s.merchants[p] + s.merch.count(p) == 5
        assert all(f >= 0 for f in R.scores(s))
