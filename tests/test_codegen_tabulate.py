"""A def of one component, value or player that reads no state is computed once per value when
the rules are compiled, and its calls read a table (codegen/tabulate.py); a def that reads
the state, or that fails for some value, stays a function."""

from __future__ import annotations

import re

import pytest

from regola.loader import load_game
from regola.runtime.helpers import RulesRuntimeError
from regola.tools.crosscheck import crosscheck
from rules_helpers import line_of, load, moves, write

CARDS = """
game tabled:
    players 2..2

record Card:
    price: int
    alt: int
    slot: int
components Card:
    | name  | price | alt | slot |
    | cheap | 1     | 0   | 0    |
    | dear  | 3     | 2   | 1    |
    | odd   | 2     | 1   | 4    |

per player:
    points: int

global:
    bonus: int
    rounds: int

flow:
    repeat 3:
        for p in players:
            act p: play | probe
        rounds += 1

# reads no state (its loop over a constant range is unrolled): a table of lists
def ways(c: Card) -> list of int = [1, 2] if count(i for i in range(0, 3) where c.alt > i) > 0 else [1]

# reads no state, a number per card
def weight(c: Card) -> int = sum(c.price * i for i in range(0, 4) where i != c.slot)

# reads the state: stays a function
def worth(c: Card) -> int = sum(c.price + bonus for i in range(0, 2) where i <= c.alt)

# has no value for `odd` (no slot 4): stays a function, failing where it is called
def slot_value(c: Card) -> int = sum([10, 20][c.slot] for i in range(0, 2) where i < 1)

action play(c in values(Card)):
    require count(ways(c)) + weight(c) < 30, "too heavy"
    me.points += count(ways(c)) + weight(c) + worth(c)
    bonus += 1

action probe(c in values(Card)):
    require rounds >= 2
    me.points += slot_value(c)

score: me.points
"""


def test_a_state_free_def_is_read_from_a_table(tmp_path):
    game = load(tmp_path, CARDS)
    src = game.source
    assert game.ns["TD_ways"] == [[1], [1, 2], [1, 2]]
    assert game.ns["TD_weight"] == [1 * 6, 3 * 5, 2 * 6]
    # every call reads the table; a list comes as a copy of its own
    assert re.search(r"TD_ways\[l_c\]\[:\]", src) and "TD_weight[l_c]" in src
    assert not re.search(r"(?<!def )D_(ways|weight)\(", src)
    # the state, and a value the def has none for, keep the calls
    assert "TD_worth" not in game.ns and "D_worth(V, me, " in src
    assert "TD_slot_value" not in game.ns and "D_slot_value(V, me, " in src


def test_the_plain_compilation_has_no_tables(tmp_path):
    path = write(tmp_path, CARDS)
    plain = load_game(str(path), players=2, optimise=False)
    assert "TD_" not in plain.source and not any(k.startswith("TD_") for k in plain.ns)


def test_tabulated_defs_play_as_the_plain_compilation(tmp_path):
    path = write(tmp_path, CARDS)
    rep = crosscheck(str(path), players=2, games=30)
    assert rep.agree and rep.decisions >= 150, rep


def test_a_list_from_a_table_is_the_callers_own(tmp_path):
    game = load(tmp_path, CARDS)
    got = eval("TD_ways[1][:]", game.ns)
    got.append(99)
    assert game.ns["TD_ways"][1] == [1, 2]


@pytest.mark.parametrize("optimise", [True, False])
def test_a_def_without_a_value_fails_at_its_line(tmp_path, optimise):
    path = write(tmp_path, CARDS)
    game = load_game(str(path), players=2, optimise=optimise)
    s = game.new_initial_state(0)
    for _ in range(4):
        game.apply(s, game.parse_move(s, "play(cheap)"))
    assert "probe(odd)" in moves(game, s)
    line = line_of(CARDS, "def slot_value")
    with pytest.raises(RulesRuntimeError, match=rf"game\.regola:{line}:\d+: "):
        game.apply(s, game.parse_move(s, "probe(odd)"))


def test_a_def_of_a_player_is_tabulated_per_seat(tmp_path):
    text = CARDS.replace("score: me.points", """def seat_bonus(p: Player) -> int =
    sum(i for i in range(0, 3) where p == player(1) or i > 1)

score: me.points + seat_bonus(me)""")
    game = load(tmp_path, text)
    # none (no player) has a value too: the table is a map
    assert game.ns["TD_seat_bonus"] == {0: 3, 1: 2, None: 2}
    s = game.new_initial_state(0)
    assert game.scores(s) == [3, 2]


def test_a_def_called_with_none_where_no_player_acts_gives_its_value(tmp_path):
    text = """
game nobody:
    players 2..2

global:
    total: int

def three(p: Player) -> int = sum(3 for i in range(0, 1) where i == 0)
def seat(p: Player) -> int = sum(i for i in range(0, 3) where i <= ordinal(p))

setup:
    total += three(me)

flow:
    loop:
        for p in players:
            act p: go | rest

action go():
    total += three(me) + seat(me)

action rest():
    total += 0

score: total
"""
    game = load(tmp_path, text)
    assert game.ns["TD_three"] == {0: 3, 1: 3, None: 3}
    assert game.ns["TD_seat"] == [0, 1]             # ordinal(none) fails: no value for none
    s = game.new_initial_state(0)
    assert game.scores(s) == [3, 3]                 # setup's `me` is none
    game.apply(s, game.legal_moves(s)[0])
    game.apply(s, game.legal_moves(s)[0])
    assert game.scores(s) == [3 + 3 + 0 + 3 + 1] * 2


def test_long_values_are_no_table(tmp_path):
    # a def of a million numbers per card would make a table of millions: it stays a call
    text = CARDS.replace("score: me.points", """def numbers(c: Card) -> list of int =
    range(0, 1000000) if count(i for i in range(0, 2) where c.alt > i) >= 0 else []

score: me.points + count(numbers(cheap)) / 1000000""")
    game = load(tmp_path, text)
    assert "TD_numbers" not in game.ns and "TD_ways" in game.ns
    assert game.scores(game.new_initial_state(0)) == [1, 1]


def test_a_def_too_slow_to_tabulate_stops_the_tables_and_stays_a_call(tmp_path, monkeypatch):
    from regola.codegen import tabulate
    from regola.runtime import watchdog
    monkeypatch.setattr(watchdog, "limit_seconds", 0.3)
    monkeypatch.setattr(tabulate, "TIME_BUDGET", 1000.0)       # only the watchdog can stop it
    stopped = []
    real = tabulate._compute

    def spy(*args):
        try:
            return real(*args)
        except watchdog.RulesTooSlow:
            stopped.append(args[0])
            raise
    monkeypatch.setattr(tabulate, "_compute", spy)
    # one value of this def takes seconds (sums of a million numbers, no loop of the rules')
    slow = " + ".join(["sum(range(0, 999999))"] * 90)
    text = CARDS.replace("score: me.points", f"""def slow(c: Card) -> int = {slow} + c.price

score: me.points""")
    game = load_game(str(write(tmp_path, text)), players=2)
    assert stopped == ["D_slow"] and "TD_slow" not in game.ns
    assert "D_slow(V, me, " not in game.source or "TD_slow" not in game.source



def test_a_def_walking_more_values_than_are_unrolled_is_tabulated(tmp_path):
    # a walk over 12 values stays a loop (unrolled up to 8): the def is still one value per card
    text = CARDS.replace("score: me.points", """def spread(c: Card) -> int =
    sum(c.price * i for i in range(0, 12) where i % 3 == c.slot % 3)

score: me.points + spread(cheap) + spread(dear) + spread(odd)""")
    game = load(tmp_path, text)
    expected = [sum(p * i for i in range(12) if i % 3 == slot % 3) for p, slot in ((1, 0), (3, 1), (2, 4))]
    assert game.ns["TD_spread"] == expected
    assert "for " in re.search(r"def D_spread\(.*?(?=\ndef )", game.source, re.S).group(0)
    assert "TD_spread[" in game.source and not re.search(r"(?<!def )D_spread\(", game.source)
    assert game.scores(game.new_initial_state(0)) == [sum(expected)] * 2
