"""`min` and `max` of two ints, and clamped stores, are written as comparisons rather than
builtin calls (codegen/expr.py `_min_max`, codegen/statements.py `_bounded_store`): the
values are those of the builtins, ties included, each argument computed once and in order."""

from __future__ import annotations

import itertools

from regola.loader import load_game
from rules_helpers import write

GAME = """
game min_max:
    players 2..2

global:
    low_first: int
    low_second: int
    high_first: int
    high_second: int
    low_both: int
    high_both: int
    nested: int
    kept: int, clamp -2..3
    floor: int, clamp 1..

flow:
    repeat 40:
        for p in players:
            act p: pick

def plus(x: int, k: int) -> int = x + k

action pick(a in range(-3, 4), b in range(-3, 4)):
    low_first = min(0, a)
    low_second = min(a, 1)
    high_first = max(-1, b)
    high_second = max(b, 2)
    low_both = min(plus(a, 1), b)
    high_both = max(a, plus(b, -1))
    nested = max(min(a, b), min(plus(a, b), 2))
    kept += a
    floor += b

score: 0
"""


def _expected(a: int, b: int) -> dict:
    return {"low_first": min(0, a), "low_second": min(a, 1), "high_first": max(-1, b),
            "high_second": max(b, 2), "low_both": min(a + 1, b), "high_both": max(a, b - 1),
            "nested": max(min(a, b), min(a + b, 2))}


def test_min_and_max_of_two_ints_are_comparisons_with_the_builtins_values(tmp_path):
    path = str(write(tmp_path, GAME))
    game = load_game(path, players=2)
    plain = load_game(path, players=2, optimise=False)
    body = game.source[game.source.index("def A_pick"):]
    body = body[:body.index("\ndef ", 1)]
    assert "min(" not in body and "max(" not in body
    assert "max(" in plain.source
    pairs = list(itertools.product(range(-3, 4), repeat=2))
    for g in (game, plain):
        s = g.new_initial_state(0)
        kept, floor = 0, 0
        for a, b in pairs:
            g.apply(s, g.parse_move(s, f"pick({a}, {b})"))
            state = g.observe(s, None)["state"]
            for name, value in _expected(a, b).items():
                assert state[name] == value, (name, a, b)
            kept = min(3, max(-2, kept + a))
            floor = max(1, floor + b)
            assert (state["kept"], state["floor"]) == (kept, floor)
