"""Rules names that look alike never share one generated Python name.

Generated names join fixed prefixes and rules names; joining `A` + `b_c` and `A_b` + `c`
with `_` once gave the same table, so a field read the other record's values. Each case
here is built to collide under such a joining.
"""

from __future__ import annotations

from rules_helpers import load


def test_record_fields_joined_like_another_record_are_apart(tmp_path):
    game = load(tmp_path, """
        game g:
            players 2..2
        record A:
            b_c: int
        record A_b:
            c: int
        components A:
            | name | b_c |
            | a1   | 1   |
        components A_b:
            | name | c  |
            | x1   | 10 |
        global:
            first: int
            second: int
        setup:
            first = sum(k.b_c for k in A)
            second = sum(k.c for k in A_b)
        flow:
            pass
        score: first * 100 + second
        """)
    s = game.new_initial_state()
    assert game.scores(s) == [110, 110]


def test_a_let_is_never_named_like_a_parameter(tmp_path):
    game = load(tmp_path, """
        game g:
            players 2..2
        global:
            got: int
            kept: int
        def f(a_1: int) -> int:
            let a = 7
            return a_1
        procedure keep(a_1: int, a_2: int, a_3: int, a_4: int):
            let a = 7
            for a in [8]:
                kept = a_1 * 1000 + a_2 * 100 + a_3 * 10 + a_4
        setup:
            got = f(3)
            keep(1, 2, 3, 4)
        flow:
            pass
        score: got * 10000 + kept
        """)
    s = game.new_initial_state()
    assert game.scores(s) == [31234, 31234]


def test_an_action_named_like_a_record_field_table(tmp_path):
    game = load(tmp_path, """
        game g:
            players 2..2
        record T:
            k: int
        components T:
            | name | k |
            | t1   | 5 |
        global:
            total: int
        action T_k(x in [1, 2]):
            total += x + sum(t.k for t in T)
        flow:
            act player(1): T_k
        score: total
        """)
    s = game.new_initial_state()
    game.apply(s, "T_k(2)")
    assert game.scores(s) == [7, 7]


def test_comprehension_variables_numbered_like_other_names(tmp_path):
    # x with temporary number 11 and x1 with number 1 were both `_c_x11`
    game = load(tmp_path, """
        game g:
            players 2..2
        global:
            got: int
        def deep(n: int) -> int =
            sum(x + x1 + x11 for x in [n] for x1 in [10 * n] for x11 in [100 * n])
        setup:
            got = count(y for y in [1, 2, 3]) + count(y1 for y1 in [1]) + [x * 2 for x in [1]][0]
                + sum(deep(x) for x in [1, 2])
        flow:
            pass
        score: got
        """)
    s = game.new_initial_state()
    assert game.scores(s) == [3 + 1 + 2 + 111 + 222] * 2
