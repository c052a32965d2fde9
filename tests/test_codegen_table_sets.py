"""Memberships of a table's value in a fixed list, read from a table of the answers
(interpreter/codegen/table_sets.py): the same answers, and the same errors."""

from __future__ import annotations

import pytest

from regola.codegen.table_sets import MembershipTables
from regola.loader import load_game
from rules_helpers import call_outcome, function_source, play_alike, rewrite_source, write

AREA = [0, 1, 2, 3, 4, 5, 6, None, 8]
BONUS = {0: [0, 2, 0], 1: [1, 0, 0], None: [0, 0, 0]}       # a table with a row for none (a map)


def _rewrite(src: str, comparisons: bool = False):
    tables: dict = {}
    known = {"AREA": AREA, "NESTED": [[1], [2]], "COUNT": [3, 1, 4, 1, 5], "NP": 4, "BONUS": BONUS}
    sets = MembershipTables(tables, known)
    return rewrite_source(src, lambda lines: sets.rewrite(lines, comparisons=comparisons)), tables


def _run(src: str, tables: dict, *args):
    return call_outcome(src, "f", dict(tables, AREA=AREA, NESTED=[[1], [2]], COUNT=[3, 1, 4, 1, 5], NP=4,
                                       BONUS=BONUS), *args)


SRC = """
def f(x, y):
    a = AREA[x] in [0, 1, 2, 3] and not AREA[x] in (4, 5)
    b = AREA[x + y] not in {None, 8}
    return a, b, [AREA[i] in [6] for i in range(x)]
"""


def test_memberships_read_tables_of_answers_with_the_same_results_and_errors():
    new, tables = _rewrite(SRC)
    assert " in [" not in new and " in (" not in new and "not in" not in new
    answers = list(tables.values())
    assert [True, True, True, True, False, False, False, False, False] in answers           # in [0..3]
    assert [True, True, True, True, True, True, True, False, False] in answers              # not in {None, 8}
    for x in (-3, 0, 2, 4, 7, 8, 9, None, "a", True):
        for y in (0, 1, 5):
            assert _run(new, tables, x, y) == _run(SRC, tables, x, y), (x, y)


def test_the_same_membership_shares_one_table():
    new, tables = _rewrite("def f(x):\n    return AREA[x] in [1, 2], AREA[x + 1] in [1, 2]\n")
    assert list(tables) == ["_IN0"] and new.count("_IN0[") == 2


@pytest.mark.parametrize("src", [
    "def f(x):\n    return NESTED[x] in [[1]]\n",          # a table of lists; a list of lists
    "def f(x, AREA):\n    return AREA[x] in [1]\n",        # a local of the same name
    "def f(x, s):\n    return AREA[x] in s\n",             # not a fixed list
    "def f(x):\n    return AREA[x:] in [1]\n",             # a slice
    "def f(x):\n    return 0 < AREA[x] in [1]\n",          # a chain of comparisons
])
def test_what_is_not_a_membership_of_a_table_value_stays(src):
    new, tables = _rewrite(src)
    assert not tables and "_IN" not in new


GAME = """
game sets:
    players 2..2

enum Colour: red, blue, green, black

record Card:
    colour: Colour
    points: int
components Card:
    | name | colour | points |
    | a    | red    | 1      |
    | b    | blue   | 2      |
    | c    | green  | 3      |
    | d    | black  | 4      |

per player:
    hand: pile of Card
    score: int

global:
    deck: pile of Card

setup:
    fill deck with copies(Card)
    fill deck with copies(Card)

action take(c in deck):
    move c from deck -> me.hand
    if c.colour in [red, green]:
        me.score += c.points
    me.score += count(x for x in me.hand where x.colour not in [blue, black])

flow:
    repeat 4:                       # eight cards, one each a turn
        for p in players:
            act p: take
score: me.score
"""


def test_a_game_plays_alike_with_and_without_the_tables(tmp_path):
    path = str(write(tmp_path, GAME))
    fast, plain = load_game(path, players=2), load_game(path, players=2, optimise=False)
    assert "_IN" in fast.source and " in [" not in function_source(fast, "A_take")
    play_alike(fast, plain, range(8))


COMPARISONS = """
def f(x):
    return (AREA[x] == 6, AREA[x] != None, 4 == AREA[x], COUNT[x] >= NP, NP > COUNT[x], COUNT[x] < -1,
            COUNT[x] <= 3, 2 < COUNT[x])
"""


def test_comparisons_with_constants_read_tables_of_answers_with_the_same_results_and_errors():
    new, tables = _rewrite(COMPARISONS, comparisons=True)
    assert "==" not in new and ">=" not in new and "<" not in new and "NP" not in new
    assert [False, False, True, False, True] in tables.values()                           # COUNT[x] >= 4
    for x in (-6, -1, 0, 2, 4, 5, 8, 9, None, "a", True):
        assert _run(new, tables, x) == _run(COMPARISONS, tables, x), x
    # without comparisons (the first pass of the pure functions) they stay
    assert _rewrite(COMPARISONS)[0].count("_IN") == 0


@pytest.mark.parametrize("src", [
    "def f(x):\n    return AREA[x] < 3\n",           # none < 3 raises at that index: no table
    "def f(x, k):\n    return COUNT[x] < k\n",       # not a constant
    "def f(x):\n    return COUNT[x] < True\n",       # a truth value is not a number here
    "def f(x):\n    return NESTED[x] == 1\n",        # a table of lists
    "def f(x):\n    return 0 < COUNT[x] < 3\n",      # a chain
])
def test_comparisons_that_cannot_be_tabled_stay(src):
    new, tables = _rewrite(src, comparisons=True)
    assert not tables and "_IN" not in new


def test_a_row_read_at_constant_places_and_a_map_table_compare_through_tables_too():
    src = "def f(x):\n    return BONUS[x][1] == 0, BONUS[x][0] > 0, NESTED[x][0] >= 2, BONUS[x][5] == 0\n"
    new, tables = _rewrite(src, comparisons=True)
    assert "BONUS[x][1]" not in new and "BONUS[x][0]" not in new and "NESTED[x][0]" not in new
    assert "BONUS[x][5] == 0" in new                       # past the rows' end: left alone
    assert {None: True, 0: False, 1: True} in tables.values()
    for x in (0, 1, None, 2, -1, "a"):
        assert _run(new, tables, x) == _run(src, tables, x), x
