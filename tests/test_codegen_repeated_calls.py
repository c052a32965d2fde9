"""A def called again with the same arguments in a function that never changes the state is
computed once, at the first call that runs (interpreter/codegen/repeated_calls.py): the same
answers, the same errors, no call where the rules make none."""

from __future__ import annotations

import pytest

from regola.codegen.repeated_calls import share_repeated_calls
from regola.loader import load_game
from regola.tools.crosscheck import crosscheck
from rules_helpers import call_outcome, function_source, load, rewrite_source, write

MARKET = """
game market:
    players 2..3

record Card:
    kind: int
    price: int
components Card:
    | name   | kind | price |
    | saw    | 0    | 2     |
    | chisel | 0    | 3     |
    | mine   | 1    | 1     |
    | forge  | 1    | 4     |
    | hall   | 2    | 5     |

per player:
    cards: pile of Card
    coins: int
    points: int

global:
    market: pile of Card

setup:
    fill market with [saw, chisel, mine, forge, hall]
    for p in players:
        p.coins = 4

flow:
    repeat 6:
        for p in players:
            act p: buy | earn

# walks the player's cards: worth remembering within one function
def owned(p: Player, k: int) -> int = count(c for c in p.cards where c.kind == k)

# a list: each call makes its own
def kinds(p: Player) -> list of int = [c.kind for c in p.cards]

# the same walk asked twice and three times in one def
def discount(p: Player, c: Card) -> int =
    owned(p, c.kind) * 2 if owned(p, c.kind) < 2 else owned(p, c.kind) + 1

def price(p: Player, c: Card) -> int = max(0, c.price - discount(p, c))

action buy(c in market where me.coins >= price(me, c)):
    me.coins -= price(me, c)
    move c from market -> me.cards
    me.points += owned(me, 0) + owned(me, 0) + count(kinds(me)) + count(kinds(me))

action earn(k in range(0, 3)):
    me.coins += 1 + owned(me, k)

score: me.points
"""


def test_repeated_calls_of_a_walking_def_share_one_value(tmp_path):
    game = load(tmp_path, MARKET)
    discount = function_source(game, "D_discount")
    # (its argument a table read made once at the top: a name set once, before the calls)
    assert discount.startswith("def D_discount(V, me, l_p, l_c):\n    _rc1 = ..."), discount
    assert discount.count("(_rc1 if _rc1 is not ... else (_rc1 := D_owned(V, me, l_p, _tb1)))") == 3


def test_lists_and_calls_in_changing_code_are_left_alone(tmp_path):
    game = load(tmp_path, MARKET)
    buy = function_source(game, "A_buy")                 # an action changes the state
    assert "_rc" not in buy and buy.count("D_owned(V, me, me, 0)") == 2
    assert "_rc1 := D_kinds" not in game.source          # a list: each call its own


def test_the_plain_compilation_shares_nothing(tmp_path):
    plain = load_game(str(write(tmp_path, MARKET)), players=2, optimise=False)
    assert "_rc1" not in plain.source


@pytest.mark.parametrize("players", [2, 3])
def test_shared_calls_play_as_the_plain_compilation(tmp_path, players):
    rep = crosscheck(str(write(tmp_path, MARKET)), players=players, games=40)
    assert rep.agree and rep.decisions >= 200, rep


CALLER = """
def D_g(V, me, l_p, l_ask):
    if not l_ask:
        return -1
    a = D_f(V, me, l_p) + 1
    if a > 2 or D_f(V, me, l_p) < 0:
        return D_f(V, me, l_p) * 2
    return D_f(V, me, 0)
"""
WALK = """
def D_f(V, me, l_p):
    n = 0
    for x in V[l_p]:
        n += 10 // x
    V[-1].append(l_p)
    return n
"""


def test_a_name_set_once_at_the_top_before_the_calls_is_fixed():
    src = "def D_g(V, me, l_c):\n    b = T[l_c]\n    return D_f(V, me, b) + D_f(V, me, b)\n"
    new = rewrite_source(src, lambda lines: share_repeated_calls(lines, frozenset({"D_f"})))
    assert new.count("(_rc1 := D_f(V, me, b))") == 2


def test_the_first_call_that_runs_computes_it_and_errors_are_the_same():
    new = rewrite_source(CALLER, lambda lines: share_repeated_calls(lines, frozenset({"D_f"})))
    assert new.count("(_rc1 := D_f(V, me, l_p))") == 3 and "D_f(V, me, 0)" in new and "_rc2" not in new
    for V in ([[1, 2], [5], []], [[0], [1], []], [[], [2], []], [[1, 1, 1], [0], []]):
        for p in (0, 1):
            for ask in (True, False):
                old_v = [list(x) for x in V]
                new_v = [list(x) for x in V]
                assert call_outcome(WALK + CALLER, "D_g", {}, old_v, 0, p, ask)[0] == \
                    call_outcome(WALK + new, "D_g", {}, new_v, 0, p, ask)[0]
                got = call_outcome(WALK + new, "D_g", {}, [list(x) for x in V], 0, p, ask)
                assert got == call_outcome(WALK + CALLER, "D_g", {}, [list(x) for x in V], 0, p, ask)
                # the walk ran once per distinct call the original made, at most (the last
                # list counts the calls)
                assert len(new_v[-1]) <= len(old_v[-1]) and (len(new_v[-1]) > 0) == (len(old_v[-1]) > 0)


@pytest.mark.parametrize("caller", [
    # an argument bound again between the calls
    "def D_g(V, me, l_p):\n    a = D_f(V, me, l_p)\n    l_p = 0\n    return a + D_f(V, me, l_p)\n",
    # a loop variable
    "def D_g(V, me):\n    a = 0\n    for l_p in [0, 1]:\n        a += D_f(V, me, l_p) + D_f(V, me, l_p)\n    return a\n",
    # calls inside a comprehension
    "def D_g(V, me, l_p):\n    return sum(D_f(V, me, l_p) for i in [0, 1])\n",
    # one call only
    "def D_g(V, me, l_p):\n    return D_f(V, me, l_p) + D_f(V, me, 1)\n",
    # a name set at the top after the first call, or in a branch
    "def D_g(V, me, l_p):\n    a = D_f(V, me, b)\n    b = 1\n    return a + D_f(V, me, b)\n",
    "def D_g(V, me, l_p):\n    if l_p:\n        b = 1\n    return D_f(V, me, b) + D_f(V, me, b)\n",
    # an argument that is an expression
    "def D_g(V, me, l_p):\n    return D_f(V, me, l_p + 1) + D_f(V, me, l_p + 1)\n",
])
def test_calls_that_may_differ_or_run_once_are_kept(caller):
    new = rewrite_source(caller, lambda lines: share_repeated_calls(lines, frozenset({"D_f"})))
    assert "_rc" not in new
