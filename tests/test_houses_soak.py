"""Random playouts of Lorenzo il Magnifico with the Houses of Renaissance (and the leaders it
requires), 2 to 5 players, with and without the advanced tiles, checking invariants written in
the rules language at every decision; and save/load at random points."""

from __future__ import annotations

import random

import pytest

from regola.loader import load_game
from regola.snippets import SnippetCompiler
from rules_helpers import assert_save_and_load_continue_identically

CONFIGS = [["leaders", "houses_of_renaissance"], ["advanced", "leaders", "houses_of_renaissance"]]

CARDS = ("count(card_box) + count(discarded) + sum(count(deck[t]) for t in values(CardType)) + count(special_deck)"
         " + count(special_next) + count(special_last) + count(special_pool) + count(special_box)"
         " + count(s for s in values(Space) where floor_card[s] != none)"
         " + sum(count(p.cards) for p in players) == 144")
LEADERS = ("count(leader_deck) + count(leader_box) + count(sforza_offer) + sum(count(p.draft) + count(p.passing)"
           " + count(p.leader_hand) + count(p.leaders_played) for p in players)")
TOKENS = ("count(token_stack) + count(token_discard) + count(shown_tokens) + sum(count(p.drawn_tokens) for p in players)"
          " + sum(count(p.tokens) for p in players)")

INVARIANTS = [
    ("no negative resources", "all(p.res[g] >= 0 for p in players for g in RESOURCES)"),
    ("no negative military points", "all(p.military >= 0 for p in players)"),
    ("faith on the track", "all(p.faith >= 0 and p.faith <= 15 for p in players)"),
    ("144 development cards are conserved", CARDS),
    ("40 leaders are conserved", f"{LEADERS} == 40 or (round == 0 and {LEADERS} == 0)"),
    ("20 special tokens are conserved", f"{TOKENS} == 20 or (round == 0 and {TOKENS} == 0)"),
    ("no more cards of a type than allowed",
     "all(card_count(p, t) <= max_cards(p, t) for p in players for t in values(CardType))"),
    ("only the Medici hold more than six characters",
     "all(card_count(p, character) <= 6 or p.family == medici for p in players)"),
    ("the special deck holds 8 cards of each period to come, under the current period's",
     "round == 0 or (count(special_next) == (8 if period < 2 else 0) and count(special_last) == (8 if period < 3 else 0)"
     " and count(special_pool) == 0 and all(c.period == 2 for c in special_next)"
     " and all(c.period == 3 for c in special_last) and all(c.period == period for c in special_deck))"),
    ("the adaptation tile stands on one of the four base towers", "adaptation_at in BASE_TOWERS"),
    ("after the auction each player has a family of their own",
     "round == 0 or (all(p.family != none for p in players)"
     " and all(p.family != q.family for p in players for q in players where p != q))"),
    ("a brown member only for the Colonna",
     "all(not has_member(p, brown) or p.family == colonna for p in players)"),
    ("family members on the board and on leaders are the ones placed",
     "round == 0 or sum(members_on[s] for s in values(Space))"
     " + sum(count(ls for ls in values(LeaderSpace) where p.on_leader[ls]) for p in players)"
     " == sum(count(m for m in values(Member) where has_member(p, m) and not p.available[m]) for p in players)"),
    ("excommunicated at most once per report", "all(count(p.excommunications) <= period for p in players)"),
    ("the Da Montefeltro crest holds goods only for that family",
     "all(p.family == da_montefeltro or p.crest_goods[wood] + p.crest_goods[stone] == 0 for p in players)"),
]


def _play(game, seed, checks, round_of, rng, max_steps=3000):
    s = game.new_initial_state(seed)
    steps = 0
    while not game.is_terminal(s):
        if game.is_chance(s):
            game.step_chance(s)
        else:
            for name, fn in checks:
                assert fn(s), f"seed {seed}, step {steps}: {name}"
            moves = game.legal_moves(s)
            game.apply(s, moves[rng.randrange(len(moves))])
        steps += 1
        assert steps < max_steps, f"seed {seed}: the game does not end"
    assert round_of(s) == 6
    return s


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("mods", CONFIGS, ids=["houses", "houses+advanced"])
def test_random_games_keep_the_invariants(mods, players):
    game = load_game("lorenzo-il-magnifico", players=players, modules=mods)
    sc = SnippetCompiler(game)
    checks = [(name, sc.expression(text)) for name, text in INVARIANTS]
    round_of = sc.expression("round")
    families = sc.expression("count(values(Family))")
    for seed in range(12):
        s = _play(game, 100 * players + seed, checks, round_of, random.Random(seed))
        assert len(game.scores(s)) == players
    assert families(s) == 10


def test_every_family_and_special_card_comes_up_over_many_games():
    """Over enough games every family tile is won and every special card is taken."""
    game = load_game("lorenzo-il-magnifico", players=5, modules=CONFIGS[0])
    sc = SnippetCompiler(game)
    families = sc.expression("[ordinal(p.family) for p in players]")
    taken = sc.expression("[c.number for p in players for c in p.cards where c.special]")
    seen_families, seen_cards = set(), set()
    for seed in range(40):
        s = game.new_initial_state(seed)
        rng = random.Random(seed)
        steps = 0
        while not game.is_terminal(s):
            if game.is_chance(s):
                game.step_chance(s)
            else:
                ms = game.legal_moves(s)
                game.apply(s, ms[rng.randrange(len(ms))])
            steps += 1
            assert steps < 3000, f"seed {seed}: the game does not end"
        seen_families.update(families(s))
        seen_cards.update(taken(s))
    assert seen_families == set(range(10))
    assert len(seen_cards) >= 40, sorted(set(range(97, 145)) - seen_cards)


@pytest.mark.parametrize("players", [3, 5])
def test_save_and_load_at_random_points_continue_identically(players):
    game = load_game("lorenzo-il-magnifico", players=players, modules=CONFIGS[1])
    for seed in range(4):
        assert_save_and_load_continue_identically(game, seed, (5, 500))


def test_special_tokens_are_hidden_from_the_other_players():
    """"Keep them hidden until you wish to play": the owner sees which tokens they hold, the
    others (and spectators) only how many; the pile and the tokens played are face down and
    face up as the rules declare."""
    game = load_game("lorenzo-il-magnifico", players=3, modules=CONFIGS[0])
    holders = SnippetCompiler(game).expression("[count(p.tokens) for p in players]")
    seen = 0
    for seed in range(10):
        s = game.new_initial_state(seed)
        rng = random.Random(seed)
        while not game.is_terminal(s):
            if game.is_chance(s):
                game.step_chance(s)
                continue
            for owner, n in enumerate(holders(s)):
                if n == 0:
                    continue
                seen += 1
                key = f"player({owner + 1})"
                mine = game.observe(s, owner)["player_state"][key]["tokens"]
                assert mine["count"] == n and sum(mine["contents"].values()) == n
                for other in [q for q in range(3) if q != owner] + [None]:
                    theirs = game.observe(s, other)["player_state"][key]["tokens"]
                    assert theirs == {"count": n}, theirs
                assert "contents" not in game.observe(s, None)["state"]["token_stack"]
            ms = game.legal_moves(s)
            game.apply(s, ms[rng.randrange(len(ms))])
    assert seen > 100
