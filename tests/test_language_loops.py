"""Control flow: if / elif / else, for ... where, repeat, while, loop with break, let.

Each loop is exercised twice: in a block that never waits (compiled to plain Python) and in
one that waits for decisions in the middle (compiled to a resumable state machine).
"""

from __future__ import annotations



from rules_helpers import errors, load


def value(game, s, name):
    return game.observe(s, None)["state"][name]


PLAIN = """
game g:
    players 2..2
global:
    a: int
    b: int
    c: int
    d: int
    e: int
    f: int
    g: int
setup:
    for i in range(0, 10) where i % 2 == 1:
        a = a * 10 + i
    repeat 3:
        b += 2
    while c < 7:
        c += 3
    loop:
        d += 1
        if d == 4:
            break
    for i in [1, 2, 3]:
        for j in [1, 2, 3]:
            if j == 2:
                break
            e = e * 10 + j
        e = e * 10 + i
    for p in players:
        f += 1
    if a > 100000:
        g = 1
    elif a > 10000:
        g = 2
    elif a > 1000:
        g = 3
    else:
        g = 4
flow:
    pass
score: 0
"""


def test_loops_that_never_wait(tmp_path):
    game = load(tmp_path, PLAIN)
    s = game.new_initial_state()
    assert value(game, s, "a") == 13579           # for ... where
    assert value(game, s, "b") == 6               # repeat
    assert value(game, s, "c") == 9               # while
    assert value(game, s, "d") == 4               # loop ... break
    assert value(game, s, "e") == 111213          # break leaves the inner loop only
    assert value(game, s, "f") == 2               # for over players
    assert value(game, s, "g") == 2               # if / elif / else


WAITING = """
game g:
    players 2..2
global:
    a: int
    b: int
    c: int
    d: int
    e: int
flow:
    for i in [1, 2, 3, 4] where i != 2:
        choose x in [0, 1], by player(1):
            a = a * 10 + i * x
    repeat 2:
        choose x in [1, 2], by player(2):
            b = b * 10 + x
    while c < 5:
        choose x in [2, 3], by player(1):
            c += x
    loop:
        choose x in [1, 2, 3], by player(2):
            d = d * 10 + x
        if d > 100:
            break
    for i in [5, 6, 7]:
        let k = i * 2
        if i == 7:
            break
        choose y in [1, 2], by player(1):
            e = e * 100 + k + y
score: 0
"""


def test_loops_that_wait_for_decisions(tmp_path):
    game = load(tmp_path, WAITING)
    s = game.new_initial_state()
    script = ["x=1", "x=0", "x=1",      # for i in [1, 3, 4]
              "x=2", "x=1",             # repeat 2
              "x=3", "x=3",             # while c < 5: 3, 6
              "x=1", "x=2", "x=3",      # loop until d > 100
              "y=1", "y=2"]             # for i in [5, 6] (7 breaks)
    players = [0, 0, 0, 1, 1, 0, 0, 1, 1, 1, 0, 0]
    for m, p in zip(script, players):
        assert game.current_player(s) == p, m
        game.apply(s, m)
    assert game.is_terminal(s)
    assert value(game, s, "a") == 1 * 100 + 0 * 10 + 4
    assert value(game, s, "b") == 21
    assert value(game, s, "c") == 6
    assert value(game, s, "d") == 123
    assert value(game, s, "e") == 11 * 100 + 14


def test_break_outside_a_loop_is_an_error(tmp_path):
    errs = errors(tmp_path, """
        game g:
            players 2..2
        global:
            n: int
        flow:
            n = 1
            break
        score: n
    """)
    assert [e.code for e in errs] == ["E165"]


def test_break_inside_a_choice_inside_a_loop(tmp_path):
    game = load(tmp_path, """
        game g:
            players 2..2
        global:
            n: int
        flow:
            loop:
                n += 1
                choose x in [1, 2], by player(1):
                    if x == 2:
                        break
        score: n
    """)
    s = game.new_initial_state()
    game.apply(s, "x=1")
    game.apply(s, "x=2")
    assert game.is_terminal(s)
    assert value(game, s, "n") == 2


def test_let_names_a_value_in_its_block(tmp_path):
    errs = errors(tmp_path, """
        game g:
            players 2..2
        global:
            n: int
        flow:
            let x = 1
            let x = 2
            n = x
        score: n
    """)
    assert [e.code for e in errs] == ["E102"]
    game = load(tmp_path, """
        game g:
            players 2..2
        global:
            n: int
        flow:
            let x = 1
            if true:
                let x = 5
                n += x
            n += x
            x = 10
            n += x
        score: n
    """, name="ok")
    assert game.scores(game.new_initial_state()) == [16, 16]


def test_conditions_must_be_booleans(tmp_path):
    errs = errors(tmp_path, """
        game g:
            players 2..2
        global:
            n: int
        flow:
            if n:
                n = 1
            while 3:
                n = 2
            repeat true:
                n = 3
        score: n
    """)
    assert [e.code for e in errs] == ["E130", "E130", "E130"]
