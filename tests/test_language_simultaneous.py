"""Simultaneous choices: `simultaneously for p in players: choose ..., by p: BODY`: every
player chooses without seeing the others' choices, then all are revealed together: the
bodies run, in that order (docs/language.md, "Simultaneous choices")."""

import json

import pytest

from rules_helpers import errors, load

PICK = """
game pick:
    players 3
record Card:
    v: int
components Card:
    | name | v | count |
    | one  | 1 | 3     |
    | two  | 2 | 3     |
    | six  | 6 | 3     |
global:
    supply: pile of Card
    order: list of Player
per player:
    hand: pile of Card, private
    table: pile of Card
    bid: int = 0
setup:
    fill supply with [one, one, one, two, two, two, six, six, six]
    for p in players:
        move one from supply -> p.hand
        move two from supply -> p.hand
        move six from supply -> p.hand
flow:
    repeat 2:
        simultaneously for p in players:
            choose c in p.hand, by p:
                move c from p.hand -> p.table
                order = order + [p]
        simultaneously for p in players:
            choose n in range(0, 3), by p:
                p.bid += n
score: sum(c.v for c in me.table) + me.bid
"""


@pytest.fixture
def game(tmp_path):
    return load(tmp_path, PICK, players=3)


def test_each_chooses_without_seeing_the_others_then_all_is_revealed_together(game):
    s = game.new_initial_state(0)
    first = game.observe(s, 2)
    for seat, move in ((0, "c=six"), (1, "c=two")):
        assert game.current_player(s) == seat and game.decision(s)["simultaneous"]
        game.apply(s, move)
        # nothing of the choices made so far shows, to anyone
        assert game.observe(s, 2)["player_state"] == first["player_state"]
        assert game.observe(s, None)["state"]["order"] == []
    assert game.current_player(s) == 2
    game.apply(s, "c=one")
    tables = {p: v["table"]["contents"] for p, v in game.observe(s, None)["player_state"].items()}
    assert tables == {"player(1)": {"six": 1}, "player(2)": {"two": 1}, "player(3)": {"one": 1}}
    assert game.observe(s, None)["state"]["order"] == ["player(1)", "player(2)", "player(3)"]


def test_a_simultaneous_choice_is_a_question_mark_to_the_others_even_from_a_public_list(game):
    s = game.new_initial_state(0)
    for m in ("c=six", "c=six", "c=six"):
        game.apply(s, m)
    m = game.legal_moves(s)[2]                        # n=2: the values are public
    assert game.move_str_seen_by(s, m, 0) == "n=2" and game.move_str_seen_by(s, m, 1) == "n=?"


def test_a_save_in_the_middle_of_the_choices_goes_on_the_same(game):
    s = game.new_initial_state(0)
    game.apply(s, "c=six")
    game.apply(s, "c=one")
    again = game.load(json.loads(json.dumps(game.dump(s))))
    for st in (s, again):
        for m in ("c=two", "n=1", "n=2", "n=0", "c=one", "c=six", "c=one", "n=2", "n=2", "n=2"):
            game.apply(st, m)
        assert game.is_terminal(st)
    assert game.scores(s) == game.scores(again) == [6 + 1 + 3, 1 + 6 + 4, 2 + 1 + 2]


@pytest.mark.parametrize("body", [
    "        p.bid += 1\n",                                       # not a choice
    "        choose n in range(0, 3), by player(1):\n            p.bid += n\n",   # not by p
])
def test_misuse(tmp_path, body):
    text = PICK.replace("""        simultaneously for p in players:
            choose n in range(0, 3), by p:
                p.bid += n
""", "        simultaneously for p in players:\n    " + body.replace("\n        ", "\n            "))
    assert "E167" in [e.code for e in errors(tmp_path, text)]


def test_a_dump_in_the_middle_of_the_choices_equals_the_dump_of_its_reload(game):
    """The choices made so far are kept in the frame as they were made (a selection is a
    tuple there): a dump writes them as JSON holds them, so it equals its reload's dump."""
    s = game.new_initial_state(0)
    game.apply(s, "c=six")
    dumped = game.dump(s)
    again = game.load(json.loads(json.dumps(dumped)))
    assert game.dump(again) == dumped == json.loads(json.dumps(dumped))
