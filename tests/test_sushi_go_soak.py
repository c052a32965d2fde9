"""Random playouts of Sushi Go! over 2-5 players, checking invariants at every decision.

The invariants are written in the rules language and compiled against the game, so they
read the same state the rules do (benchmarks/soak.py checks INVARIANTS too). Beside them,
the playouts check across decisions what the rulebook says of the whole game: puddings
only grow (8.2), points only grow until the puddings are scored (8.1), hands shrink within a round
and are dealt full at its start (5.1, 8.3), and the winners are the highest totals, ties broken by
puddings (12.2). A last test plays games watching what each player observes while the
simultaneous choices are made: nobody sees another's pick before the common reveal (5.2,
13.1, R8).
"""

from __future__ import annotations

import random

import pytest

from regola.loader import load_game
from regola.snippets import SnippetCompiler

GAMES = {2: 150, 3: 130, 4: 120, 5: 100}   # 500 games in all
HAND = {2: 10, 3: 9, 4: 8, 5: 7}           # 4.2

# Where a card can be: the deck, a hand, a tableau (a nigiri on a wasabi included), the
# cards just revealed, a hand being passed, out of the game.
_WHERE = ("count(c for c in deck where c == k) + count(c for c in out_of_game where c == k)"
          " + sum(count(c for c in p.hand where c == k) + count(c for c in p.tableau where c == k)"
          " + count(c for c in p.on_wasabi where c == k) + count(c for c in p.revealed where c == k)"
          " + count(c for c in p.passed_in where c == k) for p in players)")

# True at every decision and at the end of the game.
INVARIANTS = [
    ("every card is somewhere, once: 108 cards, each kind its count (2.1)",
     f"all({_WHERE} == k.count for k in Card)"),
    ("the deck holds 108 cards less the deals made so far (4.4)",
     "count(deck) == 108 - round * hand_size() * count(players)"),
    ("every player has the same number of cards in hand and just revealed (5.1, 7.2)",
     "all(count(p.hand) + count(p.revealed) == count(player(1).hand) + count(player(1).revealed)"
     " for p in players)"),
    ("no hand holds more than the hand size (4.2)",
     "all(count(p.hand) <= hand_size() for p in players)"),
    ("a player reveals one card, or two with chopsticks (5.2 a, 7.3)",
     "all(count(p.revealed) <= 2 for p in players)"),
    ("each nigiri on a wasabi lies on its own wasabi (6.2)",
     "all(count(p.on_wasabi) <= count(c for c in p.tableau where c == wasabi) for p in players)"),
    ("only nigiri lie on a wasabi (6.1)",
     "all(c.nigiri > 0 for p in players for c in p.on_wasabi)"),
    ("nothing is being passed at a decision (5.2 c)",
     "all(count(p.passed_in) == 0 for p in players)"),
    ("three rounds (1.1)", "round >= 1 and round <= 3"),
]

# True at every choice of the cards of a turn (5.2 a): nothing is revealed yet, and the
# tableau holds as many cards of this round as turns were played (puddings of earlier
# rounds aside): each turn adds exactly one card in all (7.2 the chopsticks go back).
PICKING = [
    ("no card lies revealed while the cards are chosen",
     "all(count(p.revealed) == 0 for p in players)"),
    # (a nigiri lying alone was added when every wasabi taken before it held a nigiri, and
    # those nigiri are still on their wasabi)
    ("a nigiri lands on an empty wasabi when there is one (6.1, 6.3, R1)",
     "all(count(c for c in [x for x in p.tableau][:i] where c == wasabi) <= count(p.on_wasabi)"
     " for p in players for i in range(0, count(p.tableau))"
     " where [x for x in p.tableau][i].nigiri > 0)"),
]

READ = {
    "puddings": "[count(c for c in p.tableau where c == pudding) for p in players]",
    "points": "[p.points for p in players]",
    "hands": "[count(p.hand) for p in players]",
    "round": "round",
}


class Reader:
    def __init__(self, game):
        sc = SnippetCompiler(game)
        self.fns = {k: sc.expression(v) for k, v in READ.items()}
        self.always = [(n, sc.expression(t)) for n, t in INVARIANTS]
        self.picking = [(n, sc.expression(t)) for n, t in PICKING]

    def read(self, s):
        return {k: fn(s) for k, fn in self.fns.items()}


def play(game, reader: Reader, seed: int):
    rng = random.Random(seed)
    s = game.new_initial_state(seed)
    n = game.num_players
    where = f"{n} players, seed {seed}"
    before = None
    picks = 0
    steps = 0
    while not game.is_terminal(s):
        steps += 1
        assert steps < 5000, f"{where}: the game does not end"
        if game.is_chance(s):
            game.step_chance(s)
            continue
        now = reader.read(s)
        for name, fn in reader.always:
            assert fn(s), f"{where}, step {steps}: {name}"
        moves = game.legal_moves(s)
        texts = [game.move_str(s, m) for m in moves]
        assert game.decision(s)["simultaneous"], f"{where}: every choice is simultaneous (5.2)"
        picking = texts[0].startswith("cards=")
        if picking:
            picks += 1
            for name, fn in reader.picking:
                assert fn(s), f"{where}, step {steps}: {name}"
            # 7.1: two cards only with chopsticks; never more than two (7.3)
            assert all(1 <= t.count(",") + 1 <= 2 for t in texts)
        if before is not None:
            assert all(a <= b for a, b in zip(before["puddings"], now["puddings"])), f"{where}: a pudding was lost"
            assert all(a <= b for a, b in zip(before["points"], now["points"])), f"{where}: points went down"
            if now["round"] == before["round"]:
                assert now["hands"][0] <= before["hands"][0], f"{where}: a hand grew within a round"
            if now["round"] != before["round"]:
                assert now["hands"] == [HAND[n]] * n, f"{where}: round {now['round']} dealt {now['hands']}"
        if picking:
            before = now
        game.apply(s, moves[rng.randrange(len(moves))])
    for name, fn in reader.always:
        assert fn(s), f"{where}, at the end: {name}"
    return s


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_playouts_keep_the_rules(players):
    game = load_game("sushi-go", players=players)
    reader = Reader(game)
    sc = SnippetCompiler(game)
    puddings = sc.expression("[count(c for c in p.tableau where c == pudding) for p in players]")
    for seed in range(GAMES[players]):
        s = play(game, reader, seed)
        end = reader.read(s)
        assert end["round"] == 3 and end["hands"] == [0] * players
        # 12.2: the highest total wins; ties go to the most puddings; still tied, shared
        scores = game.scores(s)
        assert scores == end["points"]
        best = max(scores)
        tied = [p for p in range(players) if scores[p] == best]
        pud = puddings(s)
        most = max(pud[p] for p in tied)
        assert game.winners(s) == [p for p in tied if pud[p] == most], f"seed {seed}: {scores} {pud}"


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_nobody_sees_another_pick_before_the_reveal(players):
    """5.2 a)-b), 13.1, R8: while the cards of a turn are being chosen, no player's
    observation (nor a spectator's) changes when another player chooses, and the choice
    reads `?` to everyone but its chooser; hands stay private throughout."""
    game = load_game("sushi-go", players=players)
    # the cards as the state holds them: a choice made is kept out of the state until all
    # have chosen (docs/language.md), so an unchanged state means the turn's choices are
    # still being made, and then no observation may change
    cards = SnippetCompiler(game).expression(
        "[[count(c for c in p.hand where c == k) for k in Card] + [c.nigiri for c in p.tableau]"
        " + [count(p.tableau), count(p.revealed), count(p.on_wasabi)] for p in players]")
    for seed in range(6):
        rng = random.Random(seed)
        s = game.new_initial_state(seed)
        checked = 0
        while not game.is_terminal(s):
            if game.is_chance(s):
                game.step_chance(s)
                continue
            k = game.current_player(s)
            moves = game.legal_moves(s)
            m = moves[rng.randrange(len(moves))]
            others = [j for j in range(players) if j != k] + [None]
            seen = {j: game.observe(s, j) for j in others}
            state = cards(s)
            for j in others:
                # 13.1 a player sees only their current hand
                for q, ps in seen[j]["player_state"].items():
                    hand = ps["hand"]
                    assert ("contents" in hand) == (j is not None and q == f"player({j + 1})"), (j, q, hand)
                if j is not None:
                    assert "?" in game.move_str_seen_by(s, m, j)
            game.apply(s, m)
            if game.is_terminal(s) or game.is_chance(s) or cards(s) != state:
                continue            # the last choice of the turn: all is revealed
            for j in others:
                after = game.observe(s, j)
                assert after["player_state"] == seen[j]["player_state"], f"seed {seed}: player {k + 1}'s pick shows to {j}"
                assert after["state"] == seen[j]["state"]
                checked += 1
        assert checked > 40
