"""A def summing one column of a table over a walk of the state, asked for several columns
with the same other arguments in one function, walks once for all columns
(interpreter/codegen/fused_walks.py): the same answers, the same errors, no walk where the
rules make no call."""

from __future__ import annotations

import random
import re

import pytest

from regola.loader import load_game
from regola.runtime.helpers import RulesRuntimeError
from regola.tools.crosscheck import crosscheck
from rules_helpers import function_source, load, moves, write

SHOP = """
game shop:
    players 2..3

enum Good: wood, stone, gold

record Card:
    kind: int
    discount: map Good to int = {}
    price: map Good to int = {}
components Card:
    | name   | kind | discount            | price                      |
    | saw    | 0    | {wood: 1}           | {wood: 2}                  |
    | chisel | 0    | {stone: 1, wood: 1} | {stone: 3}                 |
    | mine   | 1    | {gold: 2}           | {wood: 1, gold: 2}         |
    | forge  | 1    | {}                  | {stone: 2, gold: 1}        |
    | hall   | 2    | {wood: 3, gold: 1}  | {wood: 3, stone: 3, gold: 3} |

per player:
    cards: pile of Card
    goods: map Good to int = {wood: 2, stone: 2, gold: 1}
    points: int

global:
    market: pile of Card

setup:
    fill market with [saw, chisel, mine, forge, hall]

flow:
    repeat 6:
        for p in players:
            act p: buy | earn

# the sum of one good's discount over the cards of p of c's kind: walked per good
def discount(p: Player, c: Card, g: Good) -> int =
    sum(k.discount[g] for k in p.cards where k.kind == c.kind)

def owed(p: Player, c: Card, g: Good) -> int = max(0, c.price[g] - discount(p, c, g))

# asks every good with the same p and c: one walk for the three
def can_buy(p: Player, c: Card) -> bool =
    p.goods[wood] >= owed(p, c, wood) and p.goods[stone] >= owed(p, c, stone)
        and p.goods[gold] >= owed(p, c, gold)

# a loop over the goods, another form of the same question
def short(p: Player, c: Card) -> int =
    sum(owed(p, c, g) - p.goods[g] for g in values(Good) where owed(p, c, g) > p.goods[g])

# the greatest of one good's discounts (at least 0), asked for every good: one walk too
def best(p: Player, c: Card, g: Good) -> int =
    max([0] + [k.discount[g] for k in p.cards where k.kind != c.kind])

def best_goods(p: Player, c: Card) -> list of Good = [g for g in values(Good) where best(p, c, g) > 0]

def spread(p: Player, c: Card) -> int = best(p, c, wood) * 4 + best(p, c, gold) - best(p, c, stone)

action buy(c in market where can_buy(me, c)):
    for g in values(Good):
        me.goods[g] -= owed(me, c, g)
    move c from market -> me.cards
    me.points += 1 + short(me, c) + spread(me, c) + count(best_goods(me, c))

action earn(g in values(Good)):
    me.goods[g] += 1 + discount(me, saw, g)

score: me.points
"""


def test_a_def_summing_a_column_gets_a_walk_for_every_column(tmp_path):
    game = load(tmp_path, SHOP)
    walk = function_source(game, "DV_discount")
    assert "def DV_discount(V, me, l_p, l_c):" in walk and "_vadd" in walk
    # the goods asked with the same player and card share one walk in each function
    for name in ("D_can_buy", "D_short"):
        caller = function_source(game, name)
        assert caller.startswith(f"def {name}(V, me, l_p, l_c):\n    _fw1 = ...\n"), caller
        assert caller.count("(_fw1 := DV_discount(V, me, l_p, l_c))") >= 3 and "D_discount(" not in caller


def test_the_greatest_of_a_column_is_walked_once_too(tmp_path):
    game = load(tmp_path, SHOP)
    walk = function_source(game, "DV_best")
    assert "_q_" in walk and "[*map(max, " in walk and re.search(r"= \(0, 0, 0,\)", walk)
    spread = function_source(game, "D_spread")
    assert spread.count("(_fw1 := DV_best(V, me, l_p, l_c))") == 3 and "D_best(" not in spread
    rng = random.Random(8)
    s = game.new_initial_state(4)
    D, DV = game.ns["D_best"], game.ns["DV_best"]
    while not game.is_terminal(s):
        for p in range(2):
            for c in range(5):
                assert list(DV(s.v, 0, p, c)) == [D(s.v, 0, p, c, g) for g in range(3)]
        ms = moves(game, s)
        game.apply(s, ms[rng.randrange(len(ms))])


def test_a_single_call_keeps_the_def(tmp_path):
    game = load(tmp_path, SHOP)
    # `earn` asks one good: the def itself, not a walk of all three
    assert "_v = _o[_i] + (1 + D_discount(V, me, me, 0, l_g))" in function_source(game, "A_earn")


def test_the_plain_compilation_has_no_walks(tmp_path):
    path = write(tmp_path, SHOP)
    plain = load_game(str(path), players=2, optimise=False)
    assert "DV_" not in plain.source and "_fw" not in plain.source


@pytest.mark.parametrize("players", [2, 3])
def test_fused_walks_play_as_the_plain_compilation(tmp_path, players):
    path = write(tmp_path, SHOP)
    rep = crosscheck(str(path), players=players, games=40)
    assert rep.agree and rep.decisions >= 200, rep


def test_every_column_agrees_with_the_def(tmp_path):
    game = load(tmp_path, SHOP)
    rng = random.Random(5)
    s = game.new_initial_state(3)
    D, DV = game.ns["D_discount"], game.ns["DV_discount"]
    checked = 0
    while not game.is_terminal(s):
        for p in range(2):
            for c in range(5):
                assert list(DV(s.v, 0, p, c)) == [D(s.v, 0, p, c, g) for g in range(3)]
                checked += 1
        ms = moves(game, s)
        game.apply(s, ms[rng.randrange(len(ms))])
    assert checked >= 100


WALKS = """
def f(V, me, l_p, l_g):
    _q_1 = 0
    for _k_2 in V[0][l_p]:
        if not (T_kind[_k_2] == 1): continue
        _q_1 += T_rows[_k_2][l_g]
    return _q_1
"""


def _fused(defs: str, callers: str, known: dict):
    from regola.codegen.fused_walks import FusedWalks
    from rules_helpers import rewrite_source
    fused = FusedWalks(known)
    found = []
    rewrite_source(defs, lambda lines: (fused.find(lines), lines)[1])
    for lines in fused.vector_defs():
        found.append("\n".join("    " * i + t for i, t, _ in lines.items))
    return fused, found, rewrite_source(callers, fused.rewrite)


KNOWN = {"T_kind": [1, 0, 1], "T_rows": [[1, 2, 3], [10, 20, 30], [100, 200, 300]], "K_GOODS": [0, 2],
         "K_FAR": [0, 5], "T_ragged": [[1, 2], [3]], "T_none": [[1, None], [2, 3]]}


def _run(src: str, name: str, *args):
    ns = {"_vadd": int.__add__, **KNOWN}
    exec(src, ns)
    try:
        return ("value", ns[name](*args))
    except Exception as e:          # noqa: BLE001 (the error is the outcome compared)
        return ("error", type(e).__name__)


@pytest.mark.parametrize("fold,first", [("max", 0), ("max", -3), ("min", 5), ("min", 0)])
def test_the_walk_keeps_the_greatest_or_least_of_rows_from_the_first_value(fold, first):
    body = ("def D_f(V, me, l_p, l_g):\n    _q_1 = []\n    for _k_2 in V[0][l_p]:\n"
            "        if not (T_kind[_k_2] == 1): continue\n        _q_1.append(T_rows[_k_2][l_g])\n"
            f"    return {fold}(([{first}] + _q_1))\n")
    fused, found, _ = _fused(body, "", KNOWN)
    assert fused.columns == {"D_f": 3}
    walk = found[0]
    assert f"_q_1 = [*map({fold}, _q_1, T_rows[_k_2])]" in walk and "return _q_1" in walk
    for cards in ([], [0], [0, 1, 2], [2, 2], [1]):
        assert list(_run(walk, "DV_f", [[cards]], 0, 0)[1]) == [_run(body, "D_f", [[cards]], 0, 0, g)[1]
                                                                for g in range(3)]


@pytest.mark.parametrize("ret", ["max(_q_1)", "max(([0.5] + _q_1))", "sum(([0] + _q_1))", "max(([0] + _q_1 + [1]))",
                                 "max(([0, 1] + _q_1))", "len(([0] + _q_1))"])
def test_other_ways_of_ending_a_list_walk_are_left_alone(ret):
    body = ("def D_f(V, me, l_p, l_g):\n    _q_1 = []\n    for _k_2 in V[0][l_p]:\n"
            f"        _q_1.append(T_rows[_k_2][l_g])\n    return {ret}\n")
    fused, found, _ = _fused(body, "", KNOWN)
    assert not fused.columns and not found


def test_the_walk_sums_rows_from_zeros():
    fused, found, _ = _fused("def D_f" + WALKS[6:], "", KNOWN)
    assert fused.columns == {"D_f": 3}
    assert "_q_1 = (0, 0, 0,)" in found[0] and "_q_1 = [*map(_vadd, _q_1, T_rows[_k_2])]" in found[0]
    walk = found[0]
    for cards in ([], [0], [0, 1, 2], [2, 2]):
        assert list(_run(walk, "DV_f", [[cards]], 0, 0)[1]) == [sum(KNOWN["T_rows"][k][g] for k in cards
                                                               if KNOWN["T_kind"][k] == 1) for g in range(3)]


@pytest.mark.parametrize("table", ["T_ragged", "T_none"])
def test_a_table_of_uneven_or_partial_rows_is_left_alone(table):
    fused, found, _ = _fused("def D_f" + WALKS[6:].replace("T_rows", table), "", KNOWN)
    assert not fused.columns and not found


@pytest.mark.parametrize("body", [
    "    _q_1 = 0\n    for _k_2 in V[0][l_p]:\n        _q_1 += T_rows[_k_2][l_g] + l_g\n    return _q_1\n",
    "    _q_1 = 0\n    for _k_2 in V[0][l_p]:\n        if l_g > 0: continue\n        _q_1 += T_rows[_k_2][l_g]\n"
    "    return _q_1\n",
    "    _q_1 = 1\n    for _k_2 in V[0][l_p]:\n        _q_1 += T_rows[_k_2][l_g]\n    return _q_1\n",
    "    _q_1 = 0\n    for _k_2 in V[0][l_p]:\n        _q_1 += T_rows[_k_2][l_g]\n        if _q_1 > 3: return 0\n"
    "    return _q_1\n",
    "    _q_1 = 0\n    for _k_2 in V[0][l_p]:\n        _q_1 += T_rows[_k_2][l_g]\n    return _q_1 * 2\n",
])
def test_a_def_that_reads_the_column_elsewhere_or_returns_otherwise_is_left_alone(body):
    fused, found, _ = _fused("def D_f(V, me, l_p, l_g):\n" + body, "", KNOWN)
    assert not fused.columns and not found


CALLERS = """
def D_g(V, me, l_p, l_x):
    a = D_f(V, me, l_p, 0) + D_f(V, me, l_p, 2)
    for l_i in K_GOODS:
        a += D_f(V, me, l_p, l_i)
    return a + D_f(V, me, l_x, 1)
"""


def test_calls_with_the_same_arguments_share_one_walk_made_at_the_first():
    fused, found, new = _fused("def D_f" + WALKS[6:], CALLERS, KNOWN)
    assert new.count("DV_f(V, me, l_p)") == 3 and "D_f(V, me, l_x, 1)" in new    # (alone: kept)
    defs = "def D_f" + WALKS[6:] + "\n" + found[0] + "\n" + new
    for cards in ([], [0], [0, 2], [1, 2, 2]):
        for x in (0, 1):
            V = [[cards, [2]]]
            assert _run(defs, "D_g", V, 0, 0, x) == _run("def D_f" + WALKS[6:] + CALLERS, "D_g", V, 0, 0, x)


@pytest.mark.parametrize("caller", [
    # a column past the rows' end: the def raises only when a card matches
    "def D_g(V, me, l_p):\n    return D_f(V, me, l_p, 0) + D_f(V, me, l_p, 3)\n",
    # a loop over columns some of which are past the end
    "def D_g(V, me, l_p):\n    a = D_f(V, me, l_p, 0)\n    for l_i in K_FAR:\n        a += D_f(V, me, l_p, l_i)\n"
    "    return a\n",
    # an argument bound again between the calls
    "def D_g(V, me, l_p):\n    a = D_f(V, me, l_p, 0)\n    l_p = 1\n    return a + D_f(V, me, l_p, 1)\n",
    # calls inside a comprehension (`:=` there would bind elsewhere)
    "def D_g(V, me, l_p):\n    return sum(D_f(V, me, l_p, i) for i in [0, 1])\n",
])
def test_calls_that_may_differ_from_one_walk_are_kept(caller):
    fused, _, new = _fused("def D_f" + WALKS[6:], caller, KNOWN)
    assert "DV_f" not in new


def test_a_failing_walk_fails_where_the_def_fails_and_no_walk_runs_where_no_call_would():
    defs = ("def D_f(V, me, l_p, l_g):\n    _q_1 = 0\n    for _k_2 in V[0][l_p]:\n"
            "        if not (T_kind[_k_2] // V[1] == 1): continue\n        _q_1 += T_rows[_k_2][l_g]\n"
            "    return _q_1\n")
    caller = ("def D_g(V, me, l_p, l_ask):\n    if not l_ask:\n        return -1\n"
              "    return D_f(V, me, l_p, 0) + D_f(V, me, l_p, 1)\n")
    fused, found, new = _fused(defs, caller, KNOWN)
    assert "DV_f(V, me, l_p)" in new
    fast = defs + "\n" + found[0] + "\n" + new
    for div in (1, 0, None):
        for ask in (True, False):
            V = [[[0, 2]], div]
            assert _run(fast, "D_g", V, 0, 0, ask) == _run(defs + caller, "D_g", V, 0, 0, ask)


def test_rules_errors_in_a_fused_walk_are_the_defs_own(tmp_path):
    src = SHOP.replace("sum(k.discount[g] for k in p.cards where k.kind == c.kind)",
                       "sum(k.discount[g] for k in p.cards where k.kind / (count(p.cards) - 1) == c.kind)")
    path = write(tmp_path, src)
    fast = load_game(str(path), players=2)
    plain = load_game(str(path), players=2, optimise=False)
    assert "DV_discount" in fast.source

    def first_error(game):
        s = game.new_initial_state(1)
        try:
            for _ in range(40):           # buy first: a first card in hand divides by zero
                ms = [m for m in moves(game, s) if m[0] == 0] or moves(game, s)
                game.apply(s, ms[0])
        except RulesRuntimeError as e:
            return str(e)
        return None

    err = first_error(fast)
    assert err is not None and "division by zero" in err and re.search(r"game\.regola:\d+:\d+", err)
    # the same rule's line (the plain compilation points at the comprehension, the
    # optimised one at its `where`, with or without the fused walk)
    at = re.compile(r"(game\.regola:\d+):\d+:")
    assert at.sub(r"\1:", err) == at.sub(r"\1:", first_error(plain))
