"""Random playouts of Lions of Lydia with every subset of expansions allowed together, over
2-4 players, checking invariants (written in the rules language) at every decision."""

from __future__ import annotations

import itertools
import random

import pytest

from regola.loader import load_game
from regola.snippets import SnippetCompiler
from rules_helpers import assert_save_and_load_continue_identically

MODULES = ["croesus", "pactolus", "craftsmen", "courtyards", "tomb", "builders", "chariot_race", "estates"]
ALLOWED = [list(c) for n in range(len(MODULES) + 1) for c in itertools.combinations(MODULES, n)
           if not ("tomb" in c and "estates" in c)]


def merchants_expr(mods) -> str:
    parts = ["count(supply)", "sum(count(gate[g]) for g in values(Colour))", "count(well)",
             "sum(count(on_gold[s]) for s in values(side))",
             "sum(count(p.bag) + count(p.hand) + count(p.track) for p in players)"]
    if "courtyards" in mods:
        parts.append("sum(count(p.courtyard) for p in players)")
    if "chariot_race" in mods:
        parts.append("count(race)")
    total = 44 + (4 if "courtyards" in mods else 0)
    return " + ".join(parts) + f" == {total}"


def invariants(mods):
    cards = ("count(box) + count(c for c in cells(city) where city[c] != none) + count(silver_stack)"
             " + count(gold_stack) + count(purple_stack) + sum(count(p.lands) for p in players)"
             + (" + count(well_stack)" if "pactolus" in mods else "") + " == 48")
    return [
        ("no resource above six", "all(p.resources[c] <= 6 for p in players for c in values(Colour))"),
        ("no resource below zero", "all(p.resources[c] >= 0 for p in players for c in values(Colour))"),
        ("coins at most 12", "all(p.coins <= 12 and p.coins >= 0 for p in players)"),
        ("merchants are conserved", merchants_expr(mods)),
        ("landholding cards are conserved", cards),
        ("no more landholdings than the maximum",
         "all(count(p.lands) <= LANDHOLDING_MAXIMUM[p.influence] for p in players)"),
        ("only owned cards are upgraded", "all(not p.upgraded[c] or c in p.lands for p in players for c in Card)"),
        ("the Well tile goes to the first to finish",
         "all(p.well_tile == (first_to_finish == p) for p in players)"),
    ]


# checked where a turn starts (the placement decision): four merchants per player
BAG_RULE = "all(count(p.bag) + count(p.hand) == 4 for p in players)"


def _play(game, seed, checks, bag_check, rng, max_steps=5000):
    s = game.new_initial_state(seed)
    steps = 0
    while not game.is_terminal(s):
        if game.is_chance(s):
            game.step_chance(s)
        else:
            d = game.decision(s)
            if d["kind"] == "act" and "to_gate" in d.get("actions", []):
                assert bag_check(s), f"seed {seed}: a bag does not hold four merchants at a turn's start"
            for name, fn in checks:
                assert fn(s), f"seed {seed}, step {steps}: {name}"
            moves = game.legal_moves(s)
            game.apply(s, moves[rng.randrange(len(moves))])
        steps += 1
        assert steps < max_steps, f"seed {seed}: the game does not end"
    for name, fn in checks:
        assert fn(s), f"seed {seed}, at the end: {name}"
    return s


def _checked_game(mods, players):
    game = load_game("lions-of-lydia", players=players, modules=mods)
    sc = SnippetCompiler(game)
    checks = [(name, sc.expression(text)) for name, text in invariants(mods)]
    return game, checks, sc.expression(BAG_RULE)


SEEDS_PER_CONFIG = 2


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_allowed_subset_of_expansions_plays_to_the_end(players):
    """All 192 subsets allowed together, at this player count, two seeds each."""
    assert len(ALLOWED) == 192
    for i, mods in enumerate(ALLOWED):
        game, checks, bag = _checked_game(mods, players)
        for k in range(SEEDS_PER_CONFIG):
            seed = 1000 * players + SEEDS_PER_CONFIG * i + k
            s = _play(game, seed, checks, bag, random.Random(seed))
            assert len(game.scores(s)) == players
            assert sum(1 for p in range(players) if s.v[game.compiled.slots[".well_tile"]][p]) == 1


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("mods", [[], [m for m in MODULES if m != "estates"], [m for m in MODULES if m != "tomb"]],
                         ids=["base", "all-but-estates", "all-but-tomb"])
def test_base_and_largest_subsets_over_several_seeds(mods, players):
    game, checks, bag = _checked_game(mods, players)
    for seed in range(4):
        _play(game, seed, checks, bag, random.Random(seed))


@pytest.mark.parametrize("mods", [[], ["croesus", "craftsmen", "courtyards", "tomb", "builders", "chariot_race"],
                                  ["pactolus", "estates", "chariot_race"]], ids=["base", "six", "three"])
def test_save_and_load_at_random_points_continue_identically(mods):
    game = load_game("lions-of-lydia", players=3, modules=mods)
    for seed in range(6):
        assert_save_and_load_continue_identically(game, seed, (10, 200))


def test_tomb_and_estates_are_refused_together():
    from regola.diagnostics import RulesError
    with pytest.raises(RulesError, match="cannot be used together"):
        load_game("lions-of-lydia", players=3, modules=["tomb", "estates"])
