"""Pure functions (def, expression and block forms), procedures, and expressions."""

from __future__ import annotations

import textwrap

import pytest

from regola.snippets import SnippetCompiler
from rules_helpers import errors, load


FUNCS = """
game g:
    players 3..3
enum Colour: red, green, blue
per player:
    coins: int
    colour: Colour or none
global:
    trace: int
def price(s: int) -> int = s * 2 + 1
def richest() -> Player:
    let best = max(p.coins for p in players)
    return [p for p in players where p.coins == best][0]
def bracket(n: int) -> int:
    if n < 0:
        return -1
    elif n == 0:
        return 0
    elif n < 10:
        let small = 1
        return small
    else:
        return 2
def favourite(p: Player) -> Colour = red if p == player(1) else blue
procedure pay(p: Player, amount: int):
    p.coins += amount
    note(amount)
procedure note(n: int):
    trace = trace * 10 + n
setup:
    for p in players:
        pay(p, price(p.coins))
    pay(player(2), 3)
    player(3).colour = favourite(player(3))
flow:
    pass
score: me.coins
"""


@pytest.fixture(scope="module")
def funcs(tmp_path_factory):
    game = load(tmp_path_factory.mktemp("funcs"), FUNCS, players=3)
    s = game.new_initial_state()
    sc = SnippetCompiler(game)
    return game, s, lambda expr, me=None: sc.expression(expr)(s, me)


def test_procedures_with_parameters_change_the_game(funcs):
    game, s, ev = funcs
    assert game.scores(s) == [1, 4, 1]
    assert ev("trace") == 1113
    assert game.observe(s, 0)["player_state"]["player(3)"]["colour"] == "blue"


def test_def_expression_form(funcs):
    _, _, ev = funcs
    assert ev("price(4)") == 9
    assert ev("favourite(player(1)) == red") is True


def test_def_block_form_with_let_if_elif_else(funcs):
    _, _, ev = funcs
    assert [ev(f"bracket({n})") for n in (-5, 0, 7, 12)] == [-1, 0, 1, 2]
    assert ev("richest() == player(2)") is True


@pytest.mark.parametrize("expr, value", [
    ("7 / 2", 3), ("-7 / 2", -4), ("7 % 3", 1), ("2 + 3 * 4", 14), ("(2 + 3) * 4", 20), ("-(2 - 5)", 3),
    ("abs(-4)", 4), ("min(3, 1, 2)", 1), ("max([4, 9, 2])", 9), ("sum([1, 2, 3])", 6),
    ("count([1, 2, 3])", 3), ("count(x for x in range(0, 10) where x % 3 == 0)", 4),
    ("sum(x * x for x in [1, 2, 3])", 14), ("min(x for x in [5, 3, 8] where x > 3)", 5),
    ("any([false, true])", True), ("all(x > 0 for x in [1, 2])", True), ("all(x > 1 for x in [1, 2])", False),
    ("range(2, 5)", [2, 3, 4]), ("[x * 2 for x in [1, 2, 3] where x != 2]", [2, 6]),
    ("[x + y for x in [1, 2] for y in [10, 20]]", [11, 21, 12, 22]),
    ("2 in [1, 2]", True), ("5 not in [1, 2]", True), ("not true or true and false", False),
    ("3 if 1 < 2 else 4", 3), ("1 <= 1 and 2 >= 3", False), ("1 != 2", True),
    ("values(Colour)", [0, 1, 2]), ("count(players)", 3),
    ("player(2).coins", 4), ("next_player(player(3)) == player(1)", True),
    ("next_player(player(1)) == player(2)", True),
])
def test_expressions(funcs, expr, value):
    _, _, ev = funcs
    assert ev(expr) == value


def test_me_is_the_player_evaluating(funcs):
    _, _, ev = funcs
    assert ev("me.coins", me=1) == 4
    assert ev("me == player(3)", me=2) is True


def test_player_seat_out_of_range_is_a_rules_error(funcs):
    from regola.runtime.helpers import RulesRuntimeError
    _, _, ev = funcs
    with pytest.raises(RulesRuntimeError, match=r"player\(4\): seats are numbered 1 to 3"):
        ev("player(4).coins")


def test_long_expressions_continue_after_an_operator_or_inside_brackets(tmp_path):
    game = load(tmp_path, """
        game g:
            players 2..2
        const A = 1 +
            2
        const B = [1,
                   2, 3]
        const C = (A
                   * 10)
        flow:
            pass
        score: A + count(B) + C   # a comment after the code
    """)
    assert game.scores(game.new_initial_state()) == [36, 36]


@pytest.mark.parametrize("body, code", [
    ("def f(n: int) -> int:\n    let x = n\n", "E160"),                       # no return
    ("def f(n: int) -> int:\n    trace = n\n    return n\n", "E162"),         # a def changes the game
    ("def f(n: int) -> bool = n + 1", "E130"),                               # wrong result type
    ("def f(n: int) -> int = g(n)", "E170"),                                 # unknown function
    ("procedure p():\n    trace = 1\ndef f(n: int) -> int = p()", "E175"),  # a procedure has no value
])
def test_def_errors(tmp_path, body, code):
    errs = errors(tmp_path, """
        game g:
            players 2..2
        global:
            trace: int
        BODY
        flow:
            trace = f(1)
        score: trace
    """.replace("BODY", textwrap.indent(body, " " * 8).lstrip()))
    assert code in [e.code for e in errs], [str(e) for e in errs]


def test_calling_a_def_as_a_statement_and_a_procedure_with_wrong_arguments(tmp_path):
    errs = errors(tmp_path, """
        game g:
            players 2..2
        global:
            trace: int
        def f(n: int) -> int = n
        procedure p(n: int):
            trace = n
        flow:
            f(1)
            p(1, 2)
            p(true)
            q()
        score: trace
    """)
    assert [e.code for e in errs] == ["E166", "E171", "E130", "E170"]
