"""Inlined arguments bound to a constant or a local, written where they are read
(codegen/binds.py): the rewritten functions compute what the originals compute, the
bindings that must stay (a computed value, a name read elsewhere or rebound, a lambda that
reads the name later) stay."""

from __future__ import annotations

import ast as pyast
import itertools
import random
import re

from regola.codegen.binds import drop_plain_binds
from regola.loader import load_game
from rules_helpers import function_source, play_alike, write


def _rewrite(src: str):
    fn = pyast.parse(src).body[0]
    body = list(fn.body)
    changed = drop_plain_binds(fn, body)
    fn.body = body
    return changed, pyast.unparse(fn)


def _run(src: str, *args):
    ns: dict = {}
    exec(src, ns)
    try:
        return ("value", ns["f"](*args))
    except Exception as e:  # noqa: BLE001
        return ("error", type(e).__name__)


def _same(src: str, new: str, arity: int):
    for args in itertools.product(range(-2, 3), repeat=arity):
        assert _run(src, *args) == _run(new, *args), (args, new)


def test_constant_and_copy_bindings_are_written_where_read():
    src = "def f(a, b):\n    return ((_i1_x := 0), (_i2_y := a), (_i3_z := (a + b)), _i1_x + _i2_y * _i3_z + _i2_y)[3]\n"
    changed, new = _rewrite(src)
    assert changed
    assert "_i1_x" not in new and "_i2_y" not in new and "(_i3_z := (a + b))" in new.replace("(a + b)", "(a + b)")
    assert "0 + a * _i3_z + a" in new
    _same(src, new, 2)


def test_a_tuple_left_with_its_body_alone_is_the_body():
    src = "def f(a):\n    return 1 + ((_i1_x := a), (_i2_k := 3), _i1_x * _i2_k)[2]\n"
    changed, new = _rewrite(src)
    assert changed and new.endswith("return 1 + a * 3")
    _same(src, new, 1)


def test_nested_copies_follow_the_outer_binding():
    # the inner binding copies the outer's name; the outer one is computed and stays
    src = ("def f(a):\n"
           "    return ((_i1_r := (a * 2)), _i1_r + ((_i2_r := _i1_r), (_i3_c := 5), _i2_r - _i3_c)[2])[1]\n")
    changed, new = _rewrite(src)
    assert changed and "_i2_r" not in new and "_i3_c" not in new and "_i1_r - 5" in new
    _same(src, new, 1)


def test_bindings_that_must_stay():
    kept = [
        # a computed value
        "def f(a):\n    return ((_i1_x := (a + 1)), _i1_x * _i1_x)[1]\n",
        # the name is read outside its tuple
        "def f(a):\n    y = ((_i1_x := a), _i1_x)[1]\n    return y + _i1_x\n",
        # the copied local is rebound before the read
        "def f(a):\n    return ((_i1_x := a), (a := 7), _i1_x)[2]\n",
        # a lambda could read the name later
        "def f(a):\n    return ((_i1_x := 3), (lambda: _i1_x))[1]()\n",
        # not an inlined argument's name
        "def f(a):\n    return ((x := 3), x)[1]\n",
        # a local that may be unbound where it is copied (a read that raises stays a read)
        "def f(a):\n    if a > 0:\n        z = 1\n    return ((_i1_x := z), 5)[1]\n",
    ]
    for src in kept:
        changed, new = _rewrite(src)
        assert not changed, new
        _same(src, new, 1)


def test_random_binding_tuples_compute_what_the_originals_compute():
    rng = random.Random(7)
    for _ in range(400):
        names = []
        counter = itertools.count(1)

        def expr(depth):
            roll = rng.random()
            if depth > 2 or roll < 0.3:
                pool = ["a", "b", str(rng.randint(-3, 3))] + names
                return rng.choice(pool)
            if roll < 0.6:
                return f"({expr(depth + 1)} {rng.choice(['+', '-', '*'])} {expr(depth + 1)})"
            binds = []
            for _ in range(rng.randint(1, 3)):
                name = f"_i{next(counter)}_v"
                value = rng.choice([str(rng.randint(-2, 2)), "a", "b", expr(depth + 1)] + names[-1:])
                binds.append(f"({name} := {value})")
                names.append(name)
            body = expr(depth + 1)
            return f"({', '.join(binds)}, {body})[{len(binds)}]"

        src = f"def f(a, b):\n    return {expr(0)}\n"
        _, new = _rewrite(src)
        _same(src, new, 2)


def test_a_game_with_recursion_unfolded_plays_as_the_plain_compilation(tmp_path):
    game = """
        game g:
            players 2..2
        global:
            total: int
        def walk(n: int, step: int, k: int) -> int:
            if n <= 0 or k <= 0:
                return 0
            return 1 + walk(n - step, step, k - 1)
        def twice(n: int) -> int = n + n
        def far(n: int) -> int = walk(n, 2, 3)
        action pick(k in range(0, 6)):
            total += walk(k + 3, 1, 4) + walk(9, k + 1, 3) + twice(k) * twice(3) + far(k + total % 7)
        flow:
            loop:
                for p in players:
                    if total > 150:
                        end game
                    act p: pick
        score: total
        """
    path = str(write(tmp_path, game))
    fast, plain = load_game(path, players=2), load_game(path, players=2, optimise=False)
    far = function_source(fast, "D_far")
    # walk(n - 2, 2, 3 - 1) unfolded: k's 2 (then 1) written where read, its tests decided;
    # n bound once (the unfolded steps are statements: codegen/inline_steps.py)
    assert "_k := " not in far and "_k = " not in far and "_k <= 0" not in far, far
    assert re.search(r"\b_i\d+_n = l_n - 2\n", far), far
    play_alike(fast, plain, range(5))
