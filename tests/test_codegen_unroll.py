"""Short constant loops unrolled and constants folded (interpreter/codegen/unroll.py): the
rewritten functions compute exactly what the original ones did."""

from __future__ import annotations

import itertools

import pytest

from regola.codegen.unroll import unroll_and_fold
from rules_helpers import rewrite_source

KNOWN = {"K_GOODS": [0, 1, 2, 3], "K_RES": [0, 1, 2], "A_dr": [0, 1, 1, 1], "A_dc": [1, 0, 1, -1],
         "K_BIG": list(range(20)), "A_names": ["a", "b", "c", "d"], "K_LISTS": [[1], [2]]}


def _rewrite(src: str) -> str:
    return rewrite_source(src, lambda lines: unroll_and_fold(lines, KNOWN))


def _fn(src, name="f"):
    from regola.runtime.helpers import _cell
    ns = dict(KNOWN, _cell=_cell)
    exec(src, ns)
    return ns[name]


def _same(src, args_list):
    new = _rewrite(src)
    f, g = _fn(src), _fn(new)
    for args in args_list:
        try:
            want = ("ok", f(*args))
        except Exception as e:  # noqa: BLE001
            want = ("raise", type(e))
        try:
            got = ("ok", g(*args))
        except Exception as e:  # noqa: BLE001
            got = ("raise", type(e))
        assert got == want, (args, new)
    return new


SEARCH = """
def f(v, e):
    q = True
    for g in K_GOODS:
        if not (v[g] - (1 if g in K_RES else 0) + (5 if g == e else 0) >= 0):
            q = False; break
    else:
        q = 'all'
    return q
"""


def test_a_search_becomes_an_if_chain_with_the_same_answers():
    cases = [([a, b, c, d], e) for a, b, c, d in itertools.product([0, 1], repeat=4) for e in (None, 0, 3)]
    new = _same(SEARCH, cases)
    assert "for g in" not in new and "elif" in new
    assert "in K_RES" not in new and "g ==" not in new          # folded per value


FILTER = """
def f(v):
    n = 0
    for k in range(0, 5):
        if not (v[k] > A_dr[k % 4]): continue
        n += k * 10 + A_dc[k % 4]
    return n
"""


def test_a_filter_is_unrolled_and_tables_read_by_constants_are_folded():
    new = _same(FILTER, [([a, b, c, d, e],) for a, b, c, d, e in itertools.product([0, 1, 2], repeat=5)])
    assert "A_dr" not in new and "A_dc" not in new and "range" not in new
    assert "not not" not in new and "if v[0] > 0:" in new      # the filter's own test, asked once


def test_a_filter_of_a_negation_keeps_one_not():
    src = """
def f(v):
    n = 0
    for k in range(0, 3):
        if not (not v[k]): continue
        n += k + 1
    return n
"""
    new = _same(src, [([a, b, c],) for a, b, c in itertools.product([0, 1, [], [0]], repeat=3)])
    assert "if not v[0]:" in new and "not not" not in new


def test_plain_body_and_an_error_is_still_raised_at_run_time():
    src = """
def f(v):
    out = []
    for g in K_RES:
        out.append(v[g] // (g - 1) if v[g] else A_names[g])
    return out
"""
    new = _same(src, [([0, 0, 0],), ([1, 0, 1],), ([0, 1, 0],)])   # 1 // 0 raises for g == 1
    assert "ZeroDivisionError" not in new


@pytest.mark.parametrize("src", [
    # the variable is read after the loop: Python leaves it bound, so the loop stays
    """
def f(v):
    for g in K_RES:
        if v[g]:
            break
    return g
""",
    # too many values
    """
def f(v):
    n = 0
    for g in K_BIG:
        n += v[g % 3]
    return n
""",
    # a continue in the middle
    """
def f(v):
    n = 0
    for g in K_RES:
        n += 1
        if v[g]:
            continue
        n += 10
    return n
""",
    # values that are not numbers or names
    """
def f(v):
    n = 0
    for g in K_LISTS:
        n += len(g)
    return n
""",
])
def test_loops_that_cannot_be_unrolled_stay(src):
    new = _same(src, [([0, 1, 0],), ([1, 1, 1],), ([0, 0, 0],)])
    assert "for g in" in new


def test_jumps_of_inner_loops_belong_to_them():
    src = """
def f(v):
    n = 0
    for g in K_RES:
        for x in v:
            if x == g:
                break
            n += 1
    return n
"""
    new = _same(src, [([0, 1, 2],), ([2, 2],), ([],)])
    assert "for g in" not in new and "for x in v" in new


def test_short_circuits_keep_unevaluated_parts_unevaluated():
    src = """
def f(v):
    r = []
    for g in K_RES:
        r.append(g == 1 and v[9] or (g > 1 or v[8]) and A_names[g])
    return r
"""
    # v[8] and v[9] raise IndexError only where the original would evaluate them
    _same(src, [([1, 2, 3],), (list(range(10)),)])


def test_functions_too_deep_or_too_large_for_the_passes_are_left_as_they_are():
    from regola.codegen.lines import MAX_REWRITE_NODES, parse_function
    deep = "(" * 300 + "1" + ")" * 300                 # beyond Python's parser: left alone
    assert parse_function([(0, "def f():", None), (1, "return " + deep, None)]) is None
    big = " + ".join(["x"] * (MAX_REWRITE_NODES // 2))
    assert parse_function([(0, "def f(x):", None), (1, "return " + big, None)]) is None
    src = "def f(x):\n    for g in K_RES:\n        x += " + " + ".join(["g"] * (MAX_REWRITE_NODES // 2)) + "\n    return x\n"
    assert "for g in K_RES" in _rewrite(src)


def test_a_cell_of_known_row_and_column_is_its_number_and_one_outside_the_grid_still_raises():
    src = """
def f(v):
    n = 0
    for k in range(0, 4):
        if v[_cell(k, 2 - k, 3, 3)] == 1: n += 1
    return n
"""
    new = _same(src, [([1] * 9,), ([0, 0, 1, 0, 1, 0, 1, 0, 0],), ([0] * 9,)])   # k = 3 is outside: raises
    assert "_cell(0, 2, 3, 3)" not in new and "v[2]" in new and "v[4]" in new
    assert "_cell(3, -1, 3, 3)" in new


def test_adding_zero_to_arithmetic_is_dropped_and_kept_where_it_makes_a_number():
    src = """
def f(V, me, c, b):
    return (c // 7 + 0, 0 + c % 7, c * 2 - 0, b + 0, b - 0, 0 + b, c + 0)
"""
    new = _rewrite(src)
    assert "(c // 7, c % 7, c * 2, b + 0, b - 0, 0 + b, c + 0)" in new
    out = _fn(new)(None, None, 23, True)
    assert out == (3, 2, 46, 1, 1, 1, 23) and type(out[3]) is int      # True + 0 is 1, still
    _same(src, [(None, None, c, b) for c in (-8, 0, 41) for b in (True, False, 5)])


def test_zero_added_inside_a_sum_a_product_or_an_ordering_is_dropped_whatever_it_adds_to():
    """Inside `+`, `-`, `*` and `<`..`>=` a truth value counts as its number, so `x - 0` there
    is x whatever x is; under `==` (True == 1 but none == 0 is not an error) and as a value of
    its own the zero stays."""
    src = """
def f(V, me, x, y):
    return (x - 0 + y, (0 + x) * y, y - (x + 0), x - 0 >= y, 0 + x < y - 0, x - 0 == y, x - 0, [0 + x])
"""
    new = _rewrite(src)
    assert "(x + y, x * y, y - x, x >= y, x < y, x - 0 == y, x - 0, [0 + x])" in new
    out = _fn(new)(None, None, True, 2)
    assert out == (3, 2, 1, False, True, False, 1, [1]) and type(out[6]) is int and type(out[7][0]) is int
    _same(src, [(None, None, x, y) for x in (True, False, -3, 0, 7, None) for y in (True, 0, 5)])


PLAYERS_GAME = """
game seats:
    players 2..4

per player:
    points: int

global:
    turns: int

def crowded() -> bool = count(players) >= 3

action score_one():
    me.points += 2 if crowded() else 1
    turns += 1

flow:
    loop:
        for p in players:
            if turns >= 2 * count(players):
                end game
            act p: score_one

score: me.points
"""


@pytest.mark.parametrize("players,points", [(2, 2), (3, 4), (4, 4)])
def test_the_number_of_players_is_a_constant_of_the_compiled_game(tmp_path, players, points):
    from rules_helpers import load
    game = load(tmp_path, PLAYERS_GAME, players=players)
    assert "len(PLAYERS)" not in game.source           # NP, or folded away
    s = game.new_initial_state(0)
    while s.pending is not None:
        game.apply(s, game.legal_moves(s)[0])
    assert game.scores(s) == [points] * players
