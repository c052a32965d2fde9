"""Random playouts of Can't Stop over 2-4 players, checking invariants at every decision.

The invariants are written in the rules language and compiled against the game, so they
read the same state the rules do (benchmarks/soak.py checks INVARIANTS too). Beside them,
each random game is followed by a small second reading of the rulebook written here in
Python from the rulebook's text alone (sections 5-9, READINGS R1-R8): the legal moves of
every roll, busts, where each use puts a neutral marker, and what a stop saves and claims.
The two must agree at every step.
"""

from __future__ import annotations

import random

import pytest

from regola.loader import load_game
from rules_helpers import SoakReader

GAMES = {2: 120, 3: 100, 4: 80}       # 300 games in all
COLUMNS = list(range(2, 13))


def height(c: int) -> int:
    """2.1: "height(c) = 13 - 2 x |c - 7|"."""
    return 13 - 2 * abs(c - 7)


# True at every decision and at the end of the game.
INVARIANTS = [
    ("no player's marker above its column's top",
     "all(p.marker[c] >= 0 and p.marker[c] <= c.height for p in players for c in Column)"),
    ("no neutral marker above its column's top",
     "all(neutral[c] >= 0 and neutral[c] <= c.height for c in Column)"),
    ("at most 3 neutral markers on the board",
     "count(c for c in Column where neutral[c] > 0) <= 3"),
    ("no neutral marker on a claimed column",
     "all(neutral[c] == 0 for c in Column where claimed[c] != none)"),
    ("a claimed column holds its claimer's marker on the top and no other player's marker",
     "all(p.marker[c] == (c.height if claimed[c] == p else 0)"
     " for c in Column where claimed[c] != none for p in players)"),
    ("a player's marker on a column's top means that player has claimed it",
     "all(claimed[c] == p for p in players for c in Column where p.marker[c] == c.height)"),
    # (one stop may claim several columns: a player on two claims may end on four)
    ("at most one player has claimed 3 columns or more",
     "count(p for p in players where count(c for c in Column where claimed[c] == p) >= 3) <= 1"),
    ("four dice showing 1 to 6",
     "count(dice) == 4 and all(d >= 1 and d <= 6 for d in dice)"),
]

# True at every decision while the game goes on.
PLAYING = [
    ("nobody has claimed 3 columns while the game goes on",
     "all(count(c for c in Column where claimed[c] == p) < 3 for p in players)"),
]

# True at every decision of the player in seat {k}.
ACTIVE = [
    ("neutral markers stand above the active player's markers",
     "all(neutral[c] > player({k}).marker[c] for c in Column where neutral[c] > 0)"),
]

# The state, read for the second reading of the rulebook (columns in order 2..12).
READ = {
    "neutral": "[neutral[c] for c in Column]",
    "claimed": "[ordinal(claimed[c]) if claimed[c] != none else -1 for c in Column]",
    "markers": "[[p.marker[c] for c in Column] for p in players]",
    "dice": "dice",
}


# ------------------------------------------------------------- the rulebook, read again

def _usable(s: int, neutral: dict, claimed: dict) -> bool:
    """6.1: not claimed, not topped, a neutral marker on it or one free."""
    free = 3 - sum(1 for v in neutral.values() if v)
    return claimed[s] < 0 and neutral[s] < height(s) and (neutral[s] > 0 or free > 0)


def _use(s: int, neutral: dict, marker: dict) -> dict:
    """6.2: up one space, or a new neutral marker just above the player's marker."""
    after = dict(neutral)
    after[s] = neutral[s] + 1 if neutral[s] else marker[s] + 1
    return after


def _pairings(d):
    return [(d[0] + d[1], d[2] + d[3]), (d[0] + d[2], d[1] + d[3]), (d[0] + d[3], d[1] + d[2])]


def rulebook_moves(dice, neutral: dict, claimed: dict, marker: dict) -> dict:
    """6.3-6.5 with R1-R3, R7, R8: each move (by its text) and the neutral markers after it.
    Both sums are used "one after the other", each checked against 6.1 before its use."""
    out = {}
    for x, y in _pairings(dice):
        both = None
        for p, q in ((x, y), (y, x)):
            if _usable(p, neutral, claimed):
                mid = _use(p, neutral, marker)
                if _usable(q, mid, claimed):
                    both = _use(q, mid, marker)
        if both is not None:                                  # a) must use both
            out[f"use_both({min(x, y)}, {max(x, y)})"] = both
        else:                                                 # b) and c): one sum
            for s in {x, y}:
                if _usable(s, neutral, claimed):
                    out[f"use({s})"] = _use(s, neutral, marker)
    return out


def rulebook_bust(dice, neutral: dict, claimed: dict) -> bool:
    """5.3: no pairing allows a use."""
    return not any(_usable(s, neutral, claimed) for pr in _pairings(dice) for s in pr)


# ------------------------------------------------------------- the playouts

class Reader(SoakReader):
    def __init__(self, game):
        super().__init__(game, READ, INVARIANTS, PLAYING, ACTIVE)

    def read(self, s):
        v = {k: fn(s) for k, fn in self.fns.items()}
        return {"neutral": dict(zip(COLUMNS, v["neutral"])), "claimed": dict(zip(COLUMNS, v["claimed"])),
                "markers": [dict(zip(COLUMNS, m)) for m in v["markers"]], "dice": list(v["dice"])}


def play(game, reader: Reader, seed: int):
    """One random game, checked at every step; returns its final state."""
    rng = random.Random(seed)
    s = game.new_initial_state(seed)
    n = game.num_players
    where = f"{n} players, seed {seed}"
    steps = chances = 0
    before_roll = None
    while not game.is_terminal(s):
        steps += 1
        assert steps < 20000, f"{where}: the game does not end"
        if game.is_chance(s):
            outcomes = game.chance_outcomes(s)
            assert sorted(outcomes) == [(f, 1 / 6) for f in range(1, 7)], f"{where}: a die is not 1-6, even"
            if chances % 4 == 0:
                before_roll = reader.read(s)             # a roll is four dice
            game.step_chance(s)
            chances += 1
            if chances % 4 == 0:
                after = reader.read(s)
                bust = rulebook_bust(after["dice"], before_roll["neutral"], before_roll["claimed"])
                if bust:                                 # 7.2: the next player rolls
                    assert game.is_chance(s), f"{where}, step {steps}: the roll {after['dice']} busts"
                    assert all(v == 0 for v in after["neutral"].values()), f"{where}: a bust kept neutral markers"
                    assert after["markers"] == before_roll["markers"], f"{where}: a bust moved a marker"
                else:
                    assert not game.is_chance(s), f"{where}, step {steps}: the roll {after['dice']} is no bust"
            continue
        k = game.decision(s)["player"]
        for name, fn in reader.always + reader.playing + reader.active[k]:
            assert fn(s), f"{where}, step {steps}: {name}"
        now = reader.read(s)
        moves = game.legal_moves(s)
        texts = [game.move_str(s, m) for m in moves]
        assert len(set(texts)) == len(texts), f"{where}: a move is listed twice (R7)"
        if "use" in game.decision(s)["actions"]:
            want = rulebook_moves(now["dice"], now["neutral"], now["claimed"], now["markers"][k])
            assert set(texts) == set(want), f"{where}, step {steps}: dice {now['dice']}: {texts} != {sorted(want)}"
        else:                                            # 5.4
            assert sorted(texts) == ["roll_again", "stop"], f"{where}: {texts} after a move"
            assert any(now["neutral"].values()), f"{where}: no neutral marker after a move"
        text = texts[rng.randrange(len(texts))]
        game.apply(s, text)
        after = reader.read(s) if not game.is_chance(s) or game.is_terminal(s) else None
        if text.startswith("use"):
            assert after is not None and after["neutral"] == want[text], f"{where}, step {steps}: {text} (6.2)"
            assert after["markers"] == now["markers"] and after["claimed"] == now["claimed"]
        elif text == "stop":
            _check_stop(game, s, reader, k, now, where)
    return s


def _check_stop(game, s, reader, k, now, where):
    """7.1, 8.1-8.2, 9.1: what a stop saves, claims and ends. The next roll has not been
    made yet (the game is over, or the next player's first die is pending)."""
    after = reader.read(s)
    mine = {c: now["neutral"][c] or now["markers"][k][c] for c in COLUMNS}
    new_claims = {c for c in COLUMNS if mine[c] == height(c) and now["claimed"][c] < 0}
    assert after["markers"][k] == mine, f"{where}: the stop saved {after['markers'][k]}, not {mine}"
    for q in range(game.num_players):
        if q != k:
            want = {c: 0 if c in new_claims else now["markers"][q][c] for c in COLUMNS}
            assert after["markers"][q] == want, f"{where}: a stop moved player {q + 1}'s markers"
    assert after["claimed"] == {c: k if c in new_claims else now["claimed"][c] for c in COLUMNS}
    assert not any(after["neutral"].values()), f"{where}: neutral markers left after a stop"
    claims = sum(1 for c in COLUMNS if after["claimed"][c] == k)
    assert game.is_terminal(s) == (claims >= 3), f"{where}: {claims} claims and over={game.is_terminal(s)}"


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_playouts_keep_the_rules(players):
    game = load_game("cant-stop", players=players)
    reader = Reader(game)
    for seed in range(GAMES[players]):
        s = play(game, reader, seed)
        for name, fn in reader.always:
            assert fn(s), f"seed {seed}, at the end: {name}"
        # 1.1, 9.1: exactly one player has three claims or more, scores them, and alone wins
        end = reader.read(s)
        claims = [sum(1 for c in COLUMNS if end["claimed"][c] == p) for p in range(players)]
        winners = [p for p in range(players) if claims[p] >= 3]
        assert len(winners) == 1, f"seed {seed}: claims {claims}"
        assert game.scores(s) == claims
        assert game.winners(s) == winners


def test_everything_is_public():
    """10.1: every player sees what a spectator sees (the board, the dice, the neutral
    markers); only the next roll is hidden, being a chance event not yet made."""
    game = load_game("cant-stop", players=3)
    rng = random.Random(5)
    s = game.new_initial_state(5)
    seen = 0
    while not game.is_terminal(s):
        if game.is_chance(s):
            game.step_chance(s)
            continue
        spectator = {k: v for k, v in game.observe(s, None).items() if k != "you"}
        for p in range(3):
            assert {k: v for k, v in game.observe(s, p).items() if k != "you"} == spectator
        assert spectator["state"]["dice"] and "neutral" in spectator["state"]
        seen += 1
        ms = game.legal_moves(s)
        game.apply(s, ms[rng.randrange(len(ms))])
    assert seen > 20
