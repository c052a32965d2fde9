"""Inlined calls written as statements (interpreter/codegen/inline_steps.py) and divisions of a
parameter computed once (interpreter/codegen/shared_divisions.py): the same answers and the
same errors, at the same rules lines, as the plain compilation; nothing computed that the
original would not compute, but for a division that cannot fail."""

from __future__ import annotations

import random
import re

import pytest

from regola.codegen.inline_steps import inline_steps_as_statements
from regola.codegen.shared_divisions import share_parameter_divisions
from regola.loader import load_game
from regola.runtime.helpers import RulesRuntimeError
from regola.tools.crosscheck import crosscheck
from rules_helpers import call_outcome, function_source, load, play_alike, rewrite_source, write

LINES = """
game lines:
    players 2..2

const ROWS = 4
const COLUMNS = 5

record Mark:
    owner: int
components Mark:
    | name  | owner | count |
    | cross | 0     | 10    |
    | ring  | 1     | 10    |

record Way:
    dr: int
    dc: int
components Way:
    | name  | dr | dc |
    | flat  | 0  | 1  |
    | down  | 1  | 0  |
    | slope | 1  | 1  |
    | back  | 1  | -1 |

grid board of Mark:
    size ROWS by COLUMNS

per player:
    marks: pile of Mark
    points: int

setup:
    fill player(1).marks with [cross for i in range(0, 10)]
    fill player(2).marks with [ring for i in range(0, 10)]

flow:
    repeat 10:
        for p in players:
            act p: put

def mark_of(p: Player) -> Mark = cross if p == player(1) else ring

# how many marks m in a row from (r, c) on by (dr, dc): a def that calls itself
def run(m: Mark, r: int, c: int, dr: int, dc: int) -> int:
    if r < 0 or r >= ROWS or c < 0 or c >= COLUMNS or board[cell(r, c)] != m:
        return 0
    return 1 + run(m, r + dr, c + dc, dr, dc)

# the longest line through c, both ways along each way
def longest(c: Cell) -> int =
    max([1 + run(board[c], c.row + w.dr, c.col + w.dc, w.dr, w.dc)
           + run(board[c], c.row - w.dr, c.col - w.dc, -w.dr, -w.dc) for w in Way])

def lines_of(c: Cell, n: int) -> bool =
    any(1 + run(board[c], c.row + w.dr, c.col + w.dc, w.dr, w.dc)
          + run(board[c], c.row - w.dr, c.col - w.dc, -w.dr, -w.dc) >= n for w in Way)

action put(c in cells(board) where board[c] == none):
    move mark_of(me) from me.marks -> board[c]
    if lines_of(c, 3):
        me.points += longest(c)

score: me.points
"""


def test_the_unfolded_steps_are_statements_and_the_row_and_column_divided_once(tmp_path):
    game = load(tmp_path, LINES)
    lines_of = function_source(game, "D_lines_of")
    assert ")[" not in lines_of.replace("V[0][", "")          # no tuple built per step
    assert "_st1 = " in lines_of and lines_of.count("_st") >= 8, lines_of
    assert "_dv1 = l_c // 5; _dv2 = l_c % 5" in lines_of and "l_c // 5" not in lines_of.split("\n", 2)[2]
    run = function_source(game, "D_run")
    # the steps' constants summed: the deepest step adds 3 to the call it makes
    assert "= 3 + D_run(" in run and "return 1 + _st1" in run, run


def test_the_plain_compilation_keeps_its_tuples(tmp_path):
    plain = load_game(str(write(tmp_path, LINES)), players=2, optimise=False)
    assert "_st1" not in plain.source and "_dv1" not in plain.source


def test_statements_play_as_the_plain_compilation(tmp_path):
    path = write(tmp_path, LINES)
    fast = load_game(str(path), players=2)
    plain = load_game(str(path), players=2, optimise=False)
    play_alike(fast, plain, range(30))
    rep = crosscheck(str(path), players=2, games=30)
    assert rep.agree and rep.decisions >= 500, rep


def test_the_defs_give_the_plain_answers_on_every_cell_of_random_boards(tmp_path):
    path = write(tmp_path, LINES)
    fast = load_game(str(path), players=2)
    plain = load_game(str(path), players=2, optimise=False)
    rng = random.Random(5)
    for _ in range(150):
        s = fast.new_initial_state(0)
        board = [rng.choice([None, 0, 1, 1, 0]) for _ in range(20)]
        s.v[0][:] = board
        for c in range(20):
            if board[c] is None:
                continue
            got = fast.ns["D_longest"](s.v, 0, c), [fast.ns["D_lines_of"](s.v, 0, c, n) for n in (2, 3, 4)]
            want = plain.ns["D_longest"](s.v, 0, c), [plain.ns["D_lines_of"](s.v, 0, c, n) for n in (2, 3, 4)]
            assert got == want


def test_a_rules_error_inside_a_step_is_reported_as_before(tmp_path, monkeypatch):
    # the bounds test dropped: a step off the grid makes a cell outside it (a rules error)
    src = LINES.replace("if r < 0 or r >= ROWS or c < 0 or c >= COLUMNS or board[cell(r, c)] != m:",
                        "if c < 0 or c >= COLUMNS or board[cell(r, c)] != m:")
    path = write(tmp_path, src)
    fast = load_game(str(path), players=2)
    assert "_st1" in function_source(fast, "D_lines_of")

    def first_error(game):
        s = game.new_initial_state(1)
        try:
            for _ in range(20):
                game.apply(s, game.legal_moves(s)[0])
        except RulesRuntimeError as e:
            return str(e)
        return None

    err = first_error(fast)
    assert err is not None and "outside the grid" in err and re.search(r"game\.regola:\d+:\d+", err), err
    # the same message at the same rules line as without the two passes (an inlined def's
    # error is located at its call, as the inliner places it)
    import regola.codegen.program as program
    monkeypatch.setattr(program, "inline_steps_as_statements", lambda lines: lines)
    monkeypatch.setattr(program, "share_parameter_divisions", lambda lines, params: lines)
    from regola import loader
    loader._load_cached.cache_clear()
    before = load_game(str(path), players=2)
    loader._load_cached.cache_clear()
    assert "_st1" not in before.source and "_dv1" not in before.source
    assert first_error(before) == err


# ---------------------------------------------------------------------- the pass alone

def _steps(src: str) -> str:
    return rewrite_source(src, inline_steps_as_statements)


def _same(old: str, new: str, name: str, cases, namespace=None):
    for args in cases:
        calls_old, calls_new = [], []
        ns_old = dict(namespace or {}, LOG=calls_old)
        ns_new = dict(namespace or {}, LOG=calls_new)
        assert call_outcome(old, name, ns_old, *args) == call_outcome(new, name, ns_new, *args), args
        assert calls_old == calls_new, args          # the same calls, in the same order


HELPERS = "def f(x):\n    LOG.append(x)\n    return 10 // x\n"

NESTED = """
def D_g(V, me, l_x):
    return 1 + ((_a := l_x + 1), 0 if _a > 3 else 1 + ((_b := f(_a)), 0 if _b < 2 else 2 + ((_c := _b - 1), _c * 2)[1])[1])[1]
"""


def test_nested_steps_become_ifs_and_give_the_same_values_and_errors():
    new = _steps(NESTED)
    assert ")[" not in new and "_st1 = " in new, new
    assert "= 3 + _c * 2" in new            # 1 + (2 + ...) summed
    _same(HELPERS + NESTED, HELPERS + new, "D_g", [(None, 0, x) for x in (-1, 0, 1, 2, 3, 4, 8, 20, None)])


ELIF = """
def D_g(V, me, l_x):
    if l_x > 5:
        return 0
    elif 1 + ((_a := f(l_x)), _a + 1)[1] + ((_b := f(l_x + 1)), _b)[1] >= 4:
        return 1
    elif ((_a := f(l_x + 2)), _a)[1] > 1:
        return 2
    return 3
"""


def test_an_elif_with_steps_runs_them_only_when_reached():
    new = _steps(ELIF)
    assert ")[" not in new and "else:" in new, new
    _same(HELPERS + ELIF, HELPERS + new, "D_g", [(None, 0, x) for x in (-2, -1, 0, 1, 2, 3, 6, 9)])


@pytest.mark.parametrize("src", [
    # the right side of `or`, a comparison's second pair: maybe never computed
    "def D_g(V, me, l_x):\n    return l_x > 0 or ((_a := f(l_x)), _a)[1] > 1\n",
    "def D_g(V, me, l_x):\n    return 0 < l_x < ((_a := f(l_x)), _a)[1]\n",
    # a conditional with a step in a branch, under an `and`
    "def D_g(V, me, l_x):\n    return l_x > 1 and (1 if l_x > 2 else ((_a := f(l_x)), _a)[1]) > 0\n",
    # a name bound before the step that it reads, or one it binds that the rest reads
    "def D_g(V, me, l_x):\n    return (_k := l_x + 1) + ((_a := f(_k)), _a)[1]\n",
    "def D_g(V, me, l_x):\n    _a = 1\n    return _a + ((_a := f(l_x)), _a)[1]\n",
    # a comprehension, a while's test
    "def D_g(V, me, l_x):\n    return sum(((_a := f(i)), _a)[1] for i in [1, 2])\n",
    "def D_g(V, me, l_x):\n    while ((_a := f(l_x)), _a)[1] > 100:\n        l_x += 1\n    return l_x\n",
])
def test_steps_that_may_not_run_or_depend_on_order_stay(src):
    new = _steps(src)
    assert "_st1" not in new
    _same(HELPERS + src, HELPERS + new, "D_g", [(None, 0, x) for x in (-1, 0, 1, 2, 5)])


CONDITIONAL = """
def D_g(V, me, l_x):
    return 2 * (0 if l_x < -1 else 1 + ((_a := f(l_x)), 0 if _a > 4 else 2 + ((_b := f(_a)), _b)[1])[1]) + f(l_x + 7)
"""


def test_a_conditional_with_steps_in_its_branches_becomes_an_if():
    # (a def inlined with nothing to bind: its body a conditional, the steps in its branches)
    new = _steps(CONDITIONAL)
    assert ")[" not in new and new.count("if ") == 2 and "_st1 = 0" in new, new
    assert new.index("_st1 = 0") < new.index("f(l_x + 7)")
    _same(HELPERS + CONDITIONAL, HELPERS + new, "D_g", [(None, 0, x) for x in (-3, -1, 0, 1, 2, 3, 5, 10, 20)])


def test_a_step_after_one_that_moved_moves_in_order():
    src = "def D_g(V, me, l_x):\n    _q = ((_a := f(l_x)), _a)[1] * ((_b := f(l_x + 1)), _b + 1)[1]\n    return _q\n"
    new = _steps(src)
    assert new.index("_a = f(l_x)") < new.index("_b = f(l_x + 1)") < new.index("_q = _st1 * _st2"), new
    _same(HELPERS + src, HELPERS + new, "D_g", [(None, 0, x) for x in (-2, -1, 0, 1, 3)])


# ---------------------------------------------------------------------- divisions

def _divisions(src: str, params=("l_c",)) -> str:
    return rewrite_source(src, lambda lines: share_parameter_divisions(lines, {p: (0, 19) for p in params}))


ROWCOL = """
def D_g(V, me, l_c, l_k):
    if l_k:
        return -1
    a = l_c // 5 + (l_c % 5) * 2
    return a + l_c // 5 - (l_c % 5 - 1) * 3 + (l_c + 1) // 5
"""


def test_a_parameters_repeated_divisions_are_computed_once():
    new = _divisions(ROWCOL)
    assert new.startswith("def D_g(V, me, l_c, l_k):\n    _dv1 = l_c // 5; _dv2 = l_c % 5\n"), new
    assert new.count("_dv1") == 3 and new.count("_dv2") == 3 and "(l_c + 1) // 5" in new
    _same(ROWCOL, new, "D_g", [(None, 0, c, k) for c in range(20) for k in (0, 1)])


@pytest.mark.parametrize("src, params", [
    # once only
    ("def D_g(V, me, l_c):\n    return l_c // 5 + l_c % 4\n", ("l_c",)),
    # a parameter that may be anything (not of a numbered type)
    ("def D_g(V, me, l_c):\n    return l_c // 5 + l_c // 5\n", ()),
    # bound again in the function
    ("def D_g(V, me, l_c):\n    a = l_c // 5\n    l_c = 3\n    return a + l_c // 5\n", ("l_c",)),
    # a divisor that is not a constant, or 0
    ("def D_g(V, me, l_c, l_k):\n    return l_c // l_k + l_c // l_k\n", ("l_c",)),
    ("def D_g(V, me, l_c):\n    return l_c // 0 + l_c // 0\n", ("l_c",)),
    # a dividend that reads something else
    ("def D_g(V, me, l_c):\n    return V[l_c] // 5 + V[l_c] // 5\n", ("l_c",)),
    # inside a comprehension
    ("def D_g(V, me, l_c):\n    return sum(l_c // 5 for i in [1, 2]) + sum(l_c // 5 for i in [1])\n", ("l_c",)),
])
def test_divisions_that_could_change_or_fail_are_left(src, params):
    assert "_dv" not in _divisions(src, params)
