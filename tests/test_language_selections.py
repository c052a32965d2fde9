"""Selections of several components in one move: `x in subsets(Z, lo, hi)` for an action's
parameter or a choice (docs/language.md, "Selections")."""

import json
from itertools import combinations_with_replacement

import pytest

from regola import types as T
from rules_helpers import errors, load

MARKET = """
game market:
    players 2
enum Kind: red, blue, green
record Card:
    kind: Kind
components Card:
    | name | kind  | count |
    | r    | red   | 3     |
    | b    | blue  | 3     |
    | g    | green | 3     |
global:
    supply: pile of Card
per player:
    hand: pile of Card, private
    sold: int = 0
    swapped: list of Kind
setup:
    fill supply with [r, r, r, b, b, b, g, g, g]
    move r from supply -> player(1).hand
    move r from supply -> player(1).hand
    move b from supply -> player(1).hand
    move g from supply -> player(2).hand
flow:
    act player(1): sell | keep
    choose two in subsets(values(Kind), 2, 2), by player(2):
        player(2).swapped = two
# "Sell any number of cards of one kind"
action sell(cs in subsets(me.hand, 1, 3) where all(c.kind == cs[0].kind for c in cs)):
    for c in cs:
        move c from me.hand -> supply
    me.sold += count(cs)
action keep():
    pass
score: me.sold
"""


@pytest.fixture
def game(tmp_path):
    return load(tmp_path, MARKET)


def test_one_move_per_distinct_selection_in_canonical_order(game):
    s = game.new_initial_state(0)
    assert [game.move_str(s, m) for m in game.legal_moves(s)] == ["sell([r])", "sell([b])", "sell([r, r])",
                                                                   "keep"]
    game.apply(s, "sell([r, r])")
    assert game.scores(s)[0] == 2
    assert game.observe(s, 0)["player_state"]["player(1)"]["hand"] == {"count": 1, "contents": {"b": 1}}


def test_a_selection_refused_says_why(game):
    from regola.runtime.game import IllegalMove
    s = game.new_initial_state(0)
    for text in ("sell([r, b])", "sell([r, r, r])", "sell([g])"):
        with pytest.raises(IllegalMove):
            game.apply(s, text)
    assert game.scores(s)[0] == 0


def test_ids_are_static_and_stable(game):
    """Ids: selections of fewer values first, then lexicographic; the action space counts
    every selection of 1 to 3 of 3 kinds (3 + 6 + 10)."""
    s = game.new_initial_state(0)
    ids = {game.move_str(s, m): game.move_id(s, m) for m in game.legal_moves(s)}
    assert ids["sell([r])"] == 1 and ids["sell([b])"] == 2 and ids["sell([r, r])"] == 4
    assert ids["keep"] == 1 + 19
    st = T.SelectionType(T.EnumType("K", ["a", "b", "c", "d"]), 0, 3)
    every = [c for k in range(0, 4) for c in combinations_with_replacement(range(4), k)]
    assert st.size() == len(every) and [st.rank(v) for v in every] == list(range(len(every)))


def test_a_choice_of_a_selection_and_a_save_in_between(game):
    s = game.new_initial_state(0)
    game.apply(s, "keep")
    # values(Kind) holds each value once: a value is selected at most as often as it is there
    assert [game.move_str(s, m) for m in game.legal_moves(s)] == [
        "two=[red, blue]", "two=[red, green]", "two=[blue, green]"]
    again = game.load(json.loads(json.dumps(game.dump(s))))
    game.apply(again, "two=[blue, green]")
    assert game.observe(again, None)["player_state"]["player(2)"]["swapped"] == ["blue", "green"]


def test_others_see_a_selection_from_a_private_hand_as_a_question_mark(game):
    s = game.new_initial_state(0)
    m = game.legal_moves(s)[2]
    assert game.move_str_seen_by(s, m, 0) == "sell([r, r])" and game.move_str_seen_by(s, m, 1) == "sell(?)"


@pytest.mark.parametrize("call,code", [
    ("subsets(supply, 3, 1)", "E114"),             # the smaller first
    ("subsets(supply, 0, 21)", "E114"),            # at most 20 values
    ("subsets(3, 1, 2)", "E130"),                  # not a zone
])
def test_misuse(tmp_path, call, code):
    errs = errors(tmp_path, MARKET.replace("subsets(me.hand, 1, 3)", call))
    assert code in [e.code for e in errs]
