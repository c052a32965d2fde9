"""A grid cell's test dropped where the code has just tested its bounds
(interpreter/codegen/bounds.py, run by the unroll-and-fold pass): the rewritten functions
compute exactly what the original ones did, and raise where they raised."""

from __future__ import annotations

import itertools

import pytest

from regola.codegen.unroll import unroll_and_fold
from regola.runtime.helpers import RulesRuntimeError, _cell
from rules_helpers import load, rewrite_source

CELL = "(r * 3 + c if 0 <= r < 2 and 0 <= c < 3 else _cell(r, c, 2, 3))"
BOARD = [5, 6, 7, 8, 9, 10]
POINTS = list(itertools.product(range(-2, 4), range(-2, 5)))


def _rewrite(src: str) -> str:
    return rewrite_source(src, lambda lines: unroll_and_fold(lines, {}))


def _outcome(f, *args):
    try:
        return "ok", f(*args)
    except RulesRuntimeError as e:
        return "raise", str(e)


def _check(src: str, dropped: bool):
    src = src.replace("CELL", CELL)
    new = _rewrite(src)
    ns_old, ns_new = {"_cell": _cell, "B": BOARD}, {"_cell": _cell, "B": BOARD}
    exec(src, ns_old)
    exec(new, ns_new)
    for r, c in POINTS:
        assert _outcome(ns_new["f"], r, c) == _outcome(ns_old["f"], r, c), (r, c, new)
    assert ("_cell(" not in new) == dropped, new
    return new


@pytest.mark.parametrize("body", [
    # an `or` chain of the bounds, then the cell (Connect Four's `run`)
    "return 0 if r < 0 or r >= 2 or c < 0 or c >= 3 or B[CELL] != 7 else 1",
    # grouped differently, in an `if`
    "if ((r < 0 or r >= 2) or c < 0) or c >= 3 or B[CELL] == 9:\n        return 0\n    return 1",
    # an `and` chain of the bounds written the other way round
    "return 0 <= r and r < 2 and 0 <= c and c <= 2 and B[CELL]",
    # a conditional's branch, the test a chain of `and` (a true chain proves every link)
    "return B[CELL] if 0 <= r < 2 and c >= 0 and 3 > c else -1",
    # `not` of an `or`
    "return B[CELL] if not (r < 0 or r > 1 or c < 0 or c > 2) else -1",
    # `not` of a chain that was false: the chain was true, so every link holds
    "return 0 if not (0 <= r < 2) or not (0 <= c < 3) or B[CELL] != 7 else 1",
    # tighter bounds than the grid's
    "return B[CELL] if 1 <= r < 2 and 1 <= c < 2 else -1",
])
def test_a_cell_whose_bounds_were_just_tested_is_made_without_its_test(body):
    _check(f"def f(r, c):\n    {body}\n", dropped=True)


@pytest.mark.parametrize("body", [
    # a bound missing (the row's upper bound)
    "return 0 if r < 0 or c < 0 or c >= 3 or B[CELL] != 7 else 1",
    # a bound too weak (c < 4 on a grid 3 wide)
    "return 0 if r < 0 or r >= 2 or c < 0 or c >= 4 or B[CELL] != 7 else 1",
    # a false chain does not say which link failed (c may be above 100)
    "return 0 if r < 0 or r >= 2 or c < 0 or 3 <= c <= 100 or B[CELL] != 7 else 1",
    "return -1 if 0 <= r < 2 and 0 <= c < 3 else B[CELL]",
    # an `or` that was true proves nothing
    "return B[CELL] if r < 0 or r >= 2 or c < 0 or c >= 3 else -1",
    # the name is bound again between the test and the cell
    "return 0 if r < 0 or r >= 2 or c < 0 or c >= 3 or (r := r + 1) is None or B[CELL] != 7 else 1",
    # a comprehension starts with no facts
    "return 0 if r < 0 or r >= 2 or c < 0 or c >= 3 else sum(B[CELL] for r in [r, r + 5])",
    # a strict lower bound below zero does not prove 0 <= r
    "return 0 if r <= -1 or r >= 2 or c < 0 or c >= 3 or B[CELL] != 7 else 1",
])
def test_a_cell_test_the_context_does_not_prove_stays(body):
    _check(f"def f(r, c):\n    {body}\n", dropped=False)


def test_the_rewrite_reaches_unrolled_searches_and_inlined_calls():
    """Connect Four: `run` inlined into `connects`, whose loop over the directions is
    unrolled, tests the bounds before each cell; none of those cells keeps its test, and the
    games played are those of the rules as written (its scenarios and golden playthrough
    check the same)."""
    from regola.loader import load_game
    game = load_game("connect-four")
    src = game.source
    connects = src[src.index("def D_connects"):src.index("def P_check_end")]
    run = src[src.index("def D_run"):src.index("def D_connects")]
    assert "_cell(" not in connects and "_cell(" not in run


def test_a_cell_outside_the_grid_is_still_an_error_where_the_rules_do_not_test(tmp_path):
    game = load(tmp_path, """
    game g:
        players 2..2
    record Stone:
        v: int
    components Stone:
        | name  | v |
        | stone | 1 |
    grid board of Stone:
        size 2 by 3
    def empty_from(r: int, c: int) -> int =
        0 if r < 0 or r >= 2 or c < 0 or c >= 3 or board[cell(r, c)] != none else 1 + empty_from(r, c + 1)
    def off(r: int, c: int) -> bool = r < 0 or c < 0 or c >= 3 or board[cell(r, c)] == none
    global:
        n: int
        m: bool
    action count_row():
        n = empty_from(1, 0)
    action bad():
        m = off(2, 0)
    flow:
        act player(1): count_row | bad
    score: n
""")
    src = game.source
    assert "_cell(" not in src[src.index("def D_empty_from"):src.index("def D_off")]
    assert "_cell(" in src[src.index("def D_off"):src.index("def D_off") + 400]
    s = game.new_initial_state()
    game.apply(s, "count_row")
    assert game.scores(s)[0] == 3
    s = game.new_initial_state()
    with pytest.raises(RulesRuntimeError, match=r"cell\(2, 0\) is outside the grid \(2 x 3\)"):
        game.apply(s, "bad")
