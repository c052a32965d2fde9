"""Random playouts of Lorenzo il Magnifico over 2-4 players, with and without the advanced
bonus tiles and the leaders, checking invariants (written in the rules language) at every
decision; and save/load at random points."""

from __future__ import annotations

import random

import pytest

from regola.loader import load_game
from regola.snippets import SnippetCompiler
from rules_helpers import assert_save_and_load_continue_identically

CONFIGS = [[], ["advanced"], ["leaders"], ["advanced", "leaders"]]

CARDS = ("count(card_box) + count(discarded) + sum(count(deck[t]) for t in values(CardType))"
         " + count(s for s in values(Space) where floor_card[s] != none)"
         " + sum(count(p.cards) for p in players) == 96")
_ALL_LEADERS = ("count(leader_deck) + count(leader_box) + sum(count(p.draft) + count(p.passing)"
                " + count(p.leader_hand) + count(p.leaders_played) for p in players)")
# (the advanced tiles are chosen in set-up before the leaders are dealt)
LEADERS = f"{_ALL_LEADERS} == 20 or (round == 0 and {_ALL_LEADERS} == 0)"


def invariants(mods):
    checks = [
        ("no negative resources", "all(p.res[g] >= 0 for p in players for g in RESOURCES)"),
        ("no negative military points", "all(p.military >= 0 for p in players)"),
        ("faith on the track", "all(p.faith >= 0 and p.faith <= 15 for p in players)"),
        ("development cards are conserved", CARDS),
        ("at most six cards of a type",
         "all(card_count(p, t) <= CARDS_OF_A_TYPE for p in players for t in values(CardType))"),
        ("family members on the board are the ones placed",
         "round == 0 or sum(members_on[s] for s in values(Space)) =="
         " sum(count(m for m in values(Member) where not p.available[m]) for p in players)"),
        ("turn order holds every player once",
         "count(turn_order) == count(players) and all(p in turn_order for p in players)"),
        ("no more than one excommunication per Vatican report",
         "all(count(p.excommunications) <= period for p in players)"),
        ("personal bonus tiles: one each", "round == 0 or all(count(p.bonus_tile) == 1 for p in players)"),
    ]
    if "leaders" not in mods:   # (Ludovico Ariosto may use occupied spaces)
        checks.append(("one member on an ordinary space", "all(members_on[s] <= 1 for s in values(Space) where not s.big)"))
    if "advanced" in mods:
        checks.append(("advanced tiles when playing the advanced rules",
                       "all(b.advanced for p in players for b in p.bonus_tile)"))
    if "leaders" in mods:
        checks.append(("leader cards are conserved", LEADERS))
        checks.append(("leaders played meet their requirements when played: never more than four each",
                       "all(count(p.leader_hand) + count(p.leaders_played) <= 4 for p in players)"))
    return checks


# where a round starts (the first placement of a round): every family member is back
ALL_BACK = "all(p.available[m] for p in players for m in values(Member)) and" \
           " sum(members_on[s] for s in values(Space)) == 0"


def _checked_game(mods, players):
    game = load_game("lorenzo-il-magnifico", players=players, modules=mods)
    sc = SnippetCompiler(game)
    checks = [(name, sc.expression(text)) for name, text in invariants(mods)]
    return game, checks, sc.expression(ALL_BACK), sc.expression("round"), sc.expression("sum(members_on[s] for s in values(Space))")


def _play(game, seed, checks, all_back, round_of, rng, max_steps=5000):
    s = game.new_initial_state(seed)
    steps = 0
    seen_round = 0
    rounds_started = []
    while not game.is_terminal(s):
        if game.is_chance(s):
            game.step_chance(s)
        else:
            d = game.decision(s)
            r = round_of(s)
            if d["kind"] == "act" and r != seen_round and r >= 1:
                # the first decision of a round: before anyone has placed
                assert all_back(s), f"seed {seed}: family members are not all back at the start of round {r}"
                rounds_started.append(r)
                seen_round = r
            for name, fn in checks:
                assert fn(s), f"seed {seed}, step {steps}: {name}"
            moves = game.legal_moves(s)
            game.apply(s, moves[rng.randrange(len(moves))])
        steps += 1
        assert steps < max_steps, f"seed {seed}: the game does not end"
    # at the end every family member has been retrieved (availability is reset by the next
    # round's set-up, which does not come)
    for name, fn in checks:
        if name != "family members on the board are the ones placed":
            assert fn(s), f"seed {seed}, at the end: {name}"
    assert rounds_started == [1, 2, 3, 4, 5, 6], f"seed {seed}: rounds played {rounds_started}"
    assert round_of(s) == 6
    return s


SEEDS = 8


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("mods", CONFIGS, ids=["base", "advanced", "leaders", "advanced+leaders"])
def test_random_games_keep_the_invariants_and_end_after_round_six(mods, players):
    game, checks, all_back, round_of, on_board = _checked_game(mods, players)
    for seed in range(SEEDS):
        s = _play(game, 100 * players + seed, checks, all_back, round_of, random.Random(seed))
        assert on_board(s) == 0, "family members left on the board at the end"
        assert len(game.scores(s)) == players
        assert game.winners(s)


# At the end of a round every family member has been placed, unless it could not reach any
# space's value (the neutral member, or a coloured one at 0, without servants enough).
ALL_PLACED = ("all(not p.available[m] or member_value(p, m) + servant_value(p, p.res[servant]) < 1"
              " for p in players for m in values(Member))")


@pytest.mark.parametrize("mods", [[], ["leaders"]], ids=["base", "leaders"])
def test_every_family_member_is_placed_each_round(mods):
    """Checked at the first chance event of the next round (the towers' cards are drawn before
    the dice are rolled and the members handed back) and at the end of the game."""
    game = load_game("lorenzo-il-magnifico", players=3, modules=mods)
    sc = SnippetCompiler(game)
    all_placed = sc.expression(ALL_PLACED)
    round_of = sc.expression("round")
    for seed in range(4):
        s = game.new_initial_state(seed)
        rng = random.Random(seed)
        checked = set()
        while not game.is_terminal(s):
            if game.is_chance(s):
                r = round_of(s)
                if r >= 2 and r not in checked:
                    assert all_placed(s), f"seed {seed}: a family member was not placed in round {r - 1}"
                    checked.add(r)
                game.step_chance(s)
                continue
            ms = game.legal_moves(s)
            game.apply(s, ms[rng.randrange(len(ms))])
        assert all_placed(s), f"seed {seed}: a family member was not placed in round 6"
        assert checked == {2, 3, 4, 5, 6}


@pytest.mark.parametrize("mods", [[], ["advanced", "leaders"]], ids=["base", "advanced+leaders"])
def test_save_and_load_at_random_points_continue_identically(mods):
    game = load_game("lorenzo-il-magnifico", players=3, modules=mods)
    for seed in range(5):
        assert_save_and_load_continue_identically(game, seed, (5, 400))
