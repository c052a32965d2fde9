"""Range loops that test their variable against bounds first walk only the values that pass
(interpreter/codegen/range_bounds.py): the same values in the same order, each bound computed
exactly when the original computed it, the same errors."""

from __future__ import annotations

import itertools

import pytest

from regola.codegen.range_bounds import narrow_range_loops
from regola.tools.crosscheck import crosscheck
from rules_helpers import call_outcome, load, moves, write

SITE = """
def f(L, V, me):
    out = []
    for v in range(0, 40):
        if not (v >= L['low']): continue
        if not (V[me][3] + 1 > v): continue
        if not (v % 3 != 1): continue
        out.append(v)
    return out
"""


def _rewrite(src: str) -> str:
    from rules_helpers import rewrite_source
    return rewrite_source(src, narrow_range_loops)


def test_the_leading_bound_tests_become_the_range():
    new = _rewrite(SITE)
    assert "for v in _rg1:" in new and "range(max(_rg1.start, L['low']), _rg1.stop)" in new
    assert "range(_rg1.start, min(_rg1.stop, V[me][3] + 1))" in new
    assert "v >= L" not in new and "V[me][3] + 1 > v" not in new
    assert "v % 3 != 1" in new                       # not a bound: asked of each value still


def test_a_test_whose_continue_is_a_line_of_its_own_is_a_bound_too():
    # (the form another pass writes when it prints a function back from its syntax tree)
    src = SITE.replace("if not (v >= L['low']): continue", "if not v >= L['low']:\n            continue")
    new = _rewrite(src)
    assert "range(max(_rg1.start, L['low']), _rg1.stop)" in new and "continue\n        if not (V" not in new
    for low in (0, 5, 50, None):
        for high in (0, 9):
            args = ({"low": low}, [[0, 0, 0, high]], 0)
            assert call_outcome(new, "f", {}, *args) == call_outcome(src, "f", {}, *args)


# bounds of every kind: numbers in and out of the range, truth values, none, text, a list,
# and a missing key (KeyError) -- the rewrite must give what the original gives, or raise
# the same error
BOUNDS = [-5, 0, 1, 7, 39, 40, 60, True, False, None, "x", [3]]


@pytest.mark.parametrize("low,high", list(itertools.product(BOUNDS + ["missing"], BOUNDS)))
def test_the_same_values_and_the_same_errors(low, high):
    new = _rewrite(SITE)
    L = {} if low == "missing" else {"low": low}
    V = [[0, 0, 0, high]]
    # (a list bound: `[3] + 1` raises TypeError in both)
    assert call_outcome(new, "f", {}, L, V, 0) == call_outcome(SITE, "f", {}, L, V, 0)


def test_every_comparison_and_side():
    for op, flipped in (("<", ">"), ("<=", ">="), (">", "<"), (">=", "<=")):
        for form in (f"v {op} k", f"k {flipped} v"):
            src = f"def f(k, n):\n    out = []\n    for v in range(n):\n        if not ({form}): continue\n" \
                  f"        out.append(v)\n    return out\n"
            new = _rewrite(src)
            assert "_rg1" in new, form
            for k in (-2, 0, 3, 5, 9, None):
                for n in (0, 1, 5):
                    assert call_outcome(new, "f", {}, k, n) == call_outcome(src, "f", {}, k, n), (form, k, n)


def test_a_bound_is_computed_only_where_the_original_computed_it():
    # no value passes the first test: the second bound, which would raise, is never asked
    src = ("def f(d):\n    out = []\n    for v in range(0, 5):\n        if not (v >= 10): continue\n"
           "        if not (v <= d['x']): continue\n        out.append(v)\n    return out\n")
    new = _rewrite(src)
    assert "_rg1" in new
    assert call_outcome(new, "f", {}, {}) == call_outcome(src, "f", {}, {}) == ("ok", [])
    # an empty range asks no bound at all
    empty = src.replace("range(0, 5)", "range(3, 3)").replace("v >= 10", "v >= d['y']")
    assert call_outcome(_rewrite(empty), "f", {}, {}) == ("ok", [])


@pytest.mark.parametrize("src", [
    # the variable is read after the loop (its last value would differ)
    "def f(k):\n    for v in range(9):\n        if not (v < k): continue\n        g(v)\n    return v\n",
    # the bound reads a name the loop changes
    "def f(k):\n    n = 0\n    for v in range(9):\n        if not (v < n): continue\n        n += 1\n    return n\n",
    # the bound calls something
    "def f(k):\n    out = []\n    for v in range(9):\n        if not (v < len(k)): continue\n        out.append(v)\n"
    "    return out\n",
    # a test that is not first in the body
    "def f(k):\n    out = []\n    for v in range(9):\n        out.append(0)\n        if not (v < k): continue\n"
    "        out.append(v)\n    return out\n",
    # a chained comparison, and a range with a step
    "def f(k):\n    out = []\n    for v in range(9):\n        if not (0 < v < k): continue\n        out.append(v)\n"
    "    return out\n",
    "def f(k):\n    out = []\n    for v in range(0, 9, 2):\n        if not (v < k): continue\n        out.append(v)\n"
    "    return out\n",
    # the bound reads a list the function changes
    "def f(k):\n    out = [3]\n    for v in range(9):\n        if not (v < out[0]): continue\n        out.append(v)\n"
    "    return out\n",
])
def test_loops_that_do_not_qualify_stay(src):
    assert "_rg" not in _rewrite(src)


GAME = """
game servants:
    players 2..2

per player:
    servants: int
    power: int

global:
    needed: int
    turns: int

action hire():
    me.servants += 3
    needed += 1
    turns += 1

action boost():
    turns += 1
    choose v in range(0, 40) where v >= needed and v <= me.servants and v != 5, by me, optional:
        me.servants -= v
        me.power += v

flow:
    loop:
        for p in players:
            if turns >= 10:
                end game
            act p: hire | boost

score: me.power
"""


def test_a_choice_of_a_number_lists_the_values_between_its_bounds(tmp_path):
    game = load(tmp_path, GAME)
    assert "_rg1" in game.source
    s = game.new_initial_state(0)
    for m in ("hire", "hire", "hire", "hire", "boost"):   # each player holds 6; 4 are needed
        game.apply(s, m)
    assert moves(game, s) == ["v=4", "v=6", "pass"]
    game.apply(s, "v=6")
    assert game.scores(s) == [6, 0]
    # the plain compilation (no rewrite) plays the same games
    rep = crosscheck(str(write(tmp_path, GAME, name="again")), players=2, games=30, seed=3)
    assert rep.agree and rep.decisions >= 150, rep


def test_many_loops_in_one_function_cost_work_linear_in_its_size(monkeypatch):
    # a rules file can make a def of hundreds of loops: the pass must not walk the whole
    # function once per loop (300 loops once took 4 s)
    import ast as pyast

    from regola.codegen import range_bounds
    visits = [0]
    real_walk = pyast.walk

    def counting_walk(node):
        for n in real_walk(node):
            visits[0] += 1
            yield n
    body = "".join(f"    for v{i} in range(0, 9):\n        if not (v{i} < k): continue\n        out.append(v{i})\n"
                   for i in range(300))
    src = "def f(k):\n    out = []\n" + body + "    return out\n"
    size = sum(1 for _ in real_walk(pyast.parse(src)))
    monkeypatch.setattr(range_bounds.pyast, "walk", counting_walk)
    new = _rewrite(src)
    assert new.count(" in _rg") == 300
    assert visits[0] < 20 * size, (visits[0], size)
