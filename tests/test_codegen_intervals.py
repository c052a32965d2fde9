"""Bound tests the evaluation has already decided, dropped (interpreter/codegen/intervals.py):
the rewritten expressions compute exactly what the original ones did."""

from __future__ import annotations

import ast
import random

import pytest

from regola.codegen.intervals import drop_decided_tests
from regola.loader import load_game
from rules_helpers import function_source, play_alike, write


def _rewrite(src: str) -> tuple[str, bool]:
    new, changed = drop_decided_tests(ast.parse(src, mode="eval").body)
    return ast.unparse(new), changed


def _outcome(src: str, env: dict):
    try:
        return "ok", eval(src, {}, dict(env))
    except Exception as e:  # noqa: BLE001
        return "raise", type(e).__name__


STEP = ("((_r := (c // 7)), (_c := (c % 7 + 1)), 0 if (((_r < 0 or _r >= 6) or _c < 0) or _c >= 7) "
        "or b[_r * 7 + _c] != d else 1 + ((_r2 := (_r + 0)), (_c2 := (_c + 1)), "
        "0 if (((_r2 < 0 or _r2 >= 6) or _c2 < 0) or _c2 >= 7) or b[_r2 * 7 + _c2] != d else 2)[2])[2]")


def test_a_walk_along_a_row_keeps_only_the_tests_that_can_fail():
    new, changed = _rewrite(STEP)
    assert changed
    # c % 7 + 1 is 1..7: never below 0; the second step's row passed 0 <= r < 6 already
    assert "_c < 0" not in new and "_c >= 7" in new and "_r < 0 or _r >= 6" in new
    assert "_r2 < 0" not in new and "_r2 >= 6" not in new and "_c2 < 0" not in new and "_c2 >= 7" in new
    rng = random.Random(3)
    for _ in range(300):
        board = [rng.choice([None, 0, 1]) for _ in range(42)]
        env = {"c": rng.randrange(-10, 50), "b": board, "d": rng.choice([None, 0, 1])}
        assert _outcome(new, env) == _outcome(STEP, env), env


@pytest.mark.parametrize("src, kept", [
    # a name bound where the evaluation may not reach proves nothing after it
    ("(a or (x := 5), x < 3)", "x < 3"),
    # a comprehension may bind it (:= binds outside the comprehension)
    ("([(x := 9) for _ in range(1)], (x := y % 3), [(x := 9) for _ in range(1)], x < 5)", "x < 5"),
    # two branches: what either leaves
    ("((x := y % 3) if a else (x := y % 9), x < 5)", "x < 5"),
    # a negative divisor: no bound known
    ("((x := y % -3), x < 0)", "x < 0"),
    # a chain of comparisons is left as it is
    ("((x := y % 3), 0 <= x < 3)", "0 <= x < 3"),
    # a comparison with a name never bound here
    ("((x := y % 3), x < z)", "x < z"),
])
def test_what_is_not_known_stays(src, kept):
    new, _ = _rewrite(src)
    assert kept in new


def test_a_name_bound_again_has_its_new_bounds():
    new, _ = _rewrite("((x := 1), x < 3, (x := 10), x < 3, 0 if x > 20 or a else 1)")
    assert new == "((x := 1), True, (x := 10), False, 0 if a else 1)"


def test_only_a_tests_truth_loses_its_decided_operands():
    # as a value, `False or a` is a's value and `True or a` True: the operands stay
    assert _rewrite("((x := y % 3), x > 5 or a)")[0] == "((x := (y % 3)), False or a)"
    assert _rewrite("((x := y % 3), 1 if x > 5 or a else 2)")[0] == "((x := (y % 3)), 1 if a else 2)"
    assert _rewrite("((x := y % 3), 1 if x < 5 or a else 2)")[0] == "((x := (y % 3)), 1)"
    assert _rewrite("((x := y % 3), 1 if not (x >= 3 and a) else 2)")[0] == "((x := (y % 3)), 1 if not False else 2)"


# random expressions over a few names: the rewritten one gives the same value or error
_NAMES = ["x", "y", "z"]


def _int_expr(rng, depth):
    k = rng.random()
    if depth <= 0 or k < 0.3:
        return rng.choice(_NAMES + [str(rng.randrange(-9, 10))])
    if k < 0.5:
        return f"({_int_expr(rng, depth - 1)} {rng.choice(['+', '-'])} {_int_expr(rng, depth - 1)})"
    if k < 0.6:
        return f"({_int_expr(rng, depth - 1)} * {rng.randrange(-3, 4)})"
    if k < 0.75:
        return f"({_int_expr(rng, depth - 1)} {rng.choice(['//', '%'])} {rng.choice([1, 2, 3, 7, -2])})"
    if k < 0.8:
        return f"({rng.choice(_NAMES)} := {_int_expr(rng, depth - 1)})"
    if k < 0.9:                     # a name bounded by a remainder: what the tests can decide
        return f"({rng.choice(_NAMES)} := ({_int_expr(rng, depth - 1)} % {rng.choice([2, 3, 7])} + {rng.randrange(-3, 4)}))"
    return f"({_int_expr(rng, depth - 1)} if {_test(rng, depth - 1)} else {_int_expr(rng, depth - 1)})"


def _test(rng, depth):
    k = rng.random()
    if depth <= 0 or k < 0.5:
        return f"{rng.choice(_NAMES)} {rng.choice(['<', '<=', '>', '>='])} {rng.randrange(-9, 10)}"
    if k < 0.8:
        return f"({_test(rng, depth - 1)} {rng.choice(['or', 'and'])} {_test(rng, depth - 1)})"
    if k < 0.9:
        return f"not ({_test(rng, depth - 1)})"
    return f"({_int_expr(rng, depth - 1)} > {rng.randrange(-9, 10)})"


def test_random_expressions_keep_their_values():
    rng = random.Random(11)
    rewritten = 0
    for case in range(4000):
        parts = [_int_expr(rng, 3) if rng.random() < 0.6 else _test(rng, 3) for _ in range(rng.randrange(2, 5))]
        src = "(" + ", ".join(parts) + ")"
        new, changed = _rewrite(src)
        rewritten += changed
        for _ in range(6):
            env = {n: rng.choice([rng.randrange(-12, 13), None]) if rng.random() < 0.1 else rng.randrange(-12, 13)
                   for n in _NAMES}
            assert _outcome(new, env) == _outcome(src, env), (src, new, env)
    assert rewritten > 200          # (about 270 of these 4,000 have a test decided)


def test_names_of_one_known_value_stand_as_that_value():
    # an unrolled step binds its direction to a constant: it is added as such, `+ 0` goes
    assert _rewrite("((d := 0), (k := -1), (r := (y // 7)), f(r + d, y + k, r - d))")[0] == \
        "((d := 0), (k := (-1)), (r := (y // 7)), f(r, y + -1, r))"
    assert _rewrite("((x := 2), (z := x + 1), z * 3)")[0] == "((x := 2), (z := 3), 9)"
    # a name narrowed to one value by the tests passed
    assert _rewrite("((x := y % 3), x if x >= 2 else 0)")[0] == "((x := (y % 3)), 2 if x >= 2 else 0)"
    # `+ 0` keeps a name of unknown type (True + 0 is 1), and a division by 0 raises at run time
    assert _rewrite("((x := 0), y + x)")[0] == "((x := 0), y + 0)"
    assert _rewrite("((x := 0), 5 // x)")[0] == "((x := 0), 5 // 0)"


def test_known_intervals_of_parameters_decide_their_tests():
    src = "((r := (c // 7)), 0 if (r < 0 or r >= 6) or c > 41 else r + (1 if c >= 0 else 2))[1]"
    new, changed = drop_decided_tests(ast.parse(src, mode="eval").body, {"c": (0, 41)})
    assert changed and ast.unparse(new) == "((r := (c // 7)), r + 1)[1]"
    # the same without what the parameter's type says: every test stays
    assert _rewrite(src) == (ast.unparse(ast.parse(src, mode="eval").body), False)
    for c in range(42):
        assert _outcome(ast.unparse(new), {"c": c}) == _outcome(src, {"c": c})


GRID_GAME = """
    game g:
        players 2..2
    enum Side: north, south
    record Stone:
        weight: int
    grid board of Stone:
        size 3 by 4
        cell side: Side or none
    global:
        total: int
    def inside(r: int, c: int) -> bool = r >= 0 and r < 3 and c >= 0 and c < 4
    def edge(x: Cell, s: Side) -> int =
        (1 if inside(x.row - 1, x.col) else 0) + (2 if inside(x.row, x.col + 1) else 0)
        + (4 if s == north else 0)
    def far(x: Cell or none) -> int = 0 if x == none else (8 if inside(x.row, x.col) else 0)
    action pick(r in range(0, 3), c in range(0, 4)):
        require side[cell(r, c)] == none, "taken"
        side[cell(r, c)] = north if total % 2 == 0 else south
        total += edge(cell(r, c), north if total % 3 == 0 else south) + far(cell(r, c))
    flow:
        loop:
            for p in players:
                if count(x for x in cells(board) where side[x] == none) == 0:
                    end game
                act p: pick
    score: total
    """


def test_a_defs_parameters_of_numbered_types_bound_its_tests(tmp_path):
    path = str(write(tmp_path, GRID_GAME))
    fast, plain = load_game(path, players=2), load_game(path, players=2, optimise=False)
    edge = function_source(fast, "D_edge")
    # a cell's row is within 0..2 and its column within 0..3: those tests are decided; the
    # row above and the column to the right may be off the grid: those stay
    assert edge.count("< 3") == 0 and edge.count("< 4") == 1 and edge.count(">= 0") == 1
    # a parameter that may be none has no interval: its row's tests stay (its column,
    # `x % 4`, lies in 0..3 whatever x is)
    far = function_source(fast, "D_far")
    assert far.count("< 3") == 1 and far.count(">= 0") == 1 and "< 4" not in far
    play_alike(fast, plain, range(6))
