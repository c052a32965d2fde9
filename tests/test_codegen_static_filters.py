"""Loops over fixed values whose test of a fixed table rules some out walk the rest only
(interpreter/codegen/static_filters.py): the same values in the same order, the test computed
when the rules are compiled."""

from __future__ import annotations

import pytest

from regola.codegen.static_filters import StaticFilters
from regola.loader import load_game
from regola.tools.crosscheck import crosscheck
from rules_helpers import call_outcome, function_source, load, rewrite_source, write

KNOWN = {"VALS": [0, 1, 2, 3, 4, 5], "T_once": [True, False, True, False, False, True],
         "T_kind": [0, 1, 1, 2, 0, 2], "K_WILD": [1, 4], "T_gaps": {0: 1, 2: 1}, "T_all": [1] * 6}


def _rewrite(src: str, known: dict | None = None):
    tables: dict = {}
    known = dict(KNOWN if known is None else known)
    filters = StaticFilters(tables, known)
    return rewrite_source(src, filters.rewrite), tables


def _run(src: str, tables: dict, *args):
    return call_outcome(src, "f" if "def f(" in src else "G_f", {**KNOWN, **tables}, *args)


DEF = """
def f(V, me, l_p):
    out = []
    for l_x in VALS:
        if not (T_once[l_x]): continue
        if not (V[l_p][l_x] > 0): continue
        out.append(l_x)
    return out
"""


def test_a_first_test_of_a_fixed_table_becomes_the_list():
    new, tables = _rewrite(DEF)
    assert "for l_x in FLT0:" in new and "T_once" not in new
    assert tables == {"FLT0": [0, 2, 5]}
    for V in ([[1] * 6], [[0, 3, 0, 1, 1, 9]], [[None] * 6], [[1, 1]]):
        assert _run(new, tables, V, 0, 0) == _run(DEF, {}, V, 0, 0)


GEN = DEF.replace("def f(", "def G_f(").replace(
    "        if not (T_once[l_x]): continue\n        if not (V[l_p][l_x] > 0): continue\n",
    "        if not (V[l_p][l_x] > 0): continue\n        if not (T_once[l_x]): continue\n")


def test_in_a_generator_it_may_follow_other_tests():
    new, tables = _rewrite(GEN)
    assert "for l_x in FLT0:" in new and "T_once" not in new
    for V in ([[1] * 6], [[0, 3, 0, 1, 1, 9]]):
        assert _run(new, tables, V, 0, 0) == _run(GEN, {}, V, 0, 0)


def test_elsewhere_only_a_first_test_is_taken():
    src = GEN.replace("def G_f(", "def f(")
    new, tables = _rewrite(src)
    assert "FLT" not in new and not tables


@pytest.mark.parametrize("test", [
    "l_x not in K_WILD", "T_kind[l_x] == 2 or T_once[l_x]", "(False if T_once[l_x] else True)",
    "not T_once[l_x] and T_kind[l_x] != 0",
])
def test_tests_of_every_simple_kind_are_computed(test):
    src = DEF.replace("if not (T_once[l_x]): continue", f"if not ({test}): continue")
    new, tables = _rewrite(src)
    assert "for l_x in FLT0:" in new
    assert tables["FLT0"] == [x for x in KNOWN["VALS"] if eval(test, {**KNOWN, "l_x": x})]
    assert _run(new, tables, [[1] * 6], 0, 0) == _run(src, {}, [[1] * 6], 0, 0)


@pytest.mark.parametrize("test", [
    "T_gaps[l_x] == 1",            # raises for some value: the loop stays as it is
    "T_kind[l_x] + 1 == 2",        # arithmetic: not computed
    "len(T_once) > l_x",           # a call
    "V[l_p][l_x] > 0",             # the state
    "T_all[l_x] == 1",             # rules nothing out
    "T_once[me]",                  # another name
])
def test_other_tests_leave_the_loop_alone(test):
    src = DEF.replace("if not (T_once[l_x]): continue", f"if not ({test}): continue")
    new, tables = _rewrite(src)
    assert "FLT" not in new and not tables


def test_tests_past_the_time_budget_are_left_alone(monkeypatch):
    import regola.codegen.static_filters as sf
    # a membership in a long list, for many values: a rules file cannot make loading slow
    known = dict(KNOWN, VALS=list(range(4000)), K_LONG=list(range(0, 20_000, 2)))
    src = DEF.replace("if not (T_once[l_x]): continue", "if not (l_x in K_LONG): continue")
    monkeypatch.setattr(sf, "TIME_BUDGET", 0.01)
    new, tables = _rewrite(src + DEF.replace("def f(", "def f2("), known)
    assert "l_x in K_LONG" in new and "T_once[l_x]" in new and not tables
    monkeypatch.setattr(sf, "TIME_BUDGET", 30.0)
    new, tables = _rewrite(src, known)
    assert "FLT0" in new and tables["FLT0"] == list(range(0, 4000, 2))


def test_a_loop_whose_variable_is_read_after_it_is_left_alone():
    src = DEF.replace("    return out\n", "    return out + [l_x]\n")
    new, tables = _rewrite(src)
    assert "FLT" not in new


def test_the_same_filter_is_one_table():
    src = DEF + DEF.replace("def f(", "def f2(")
    new, tables = _rewrite(src)
    assert new.count("for l_x in FLT0:") == 2 and list(tables) == ["FLT0"]


SHOP = """
game shop:
    players 2..3

record Card:
    once: bool
    kind: int
components Card:
    | name   | once  | kind |
    | saw    | true  | 0    |
    | chisel | false | 1    |
    | mine   | true  | 1    |
    | forge  | false | 2    |
    | hall   | true  | 2    |

per player:
    used: map Card to bool
    points: int

flow:
    repeat 5:
        for p in players:
            act p: use | rest
        for p in players:
            for c in values(Card):
                p.used[c] = false

# a card's test of the player first, then of the card alone: the generator walks the cards
# that pass the second
action use(c in values(Card) where not me.used[c] and c.once):
    me.used[c] = true
    me.points += c.kind + count(k for k in values(Card) where k.kind == 1 and not me.used[k])

action rest():
    me.points += 1

score: me.points
"""


def test_a_rules_generator_walks_the_filtered_cards(tmp_path):
    game = load(tmp_path, SHOP)
    gen = function_source(game, "G_0_0")
    assert "in FLT" in gen and "A3_Card_once" not in gen.replace("def ", "")
    assert sorted(v for k, v in game.ns.items() if k.startswith("FLT")) == [[0, 2, 4]] or \
        [0, 2, 4] in [v for k, v in game.ns.items() if k.startswith("FLT")]


def test_the_plain_compilation_has_no_filters(tmp_path):
    plain = load_game(str(write(tmp_path, SHOP)), players=2, optimise=False)
    assert "FLT" not in plain.source


@pytest.mark.parametrize("players", [2, 3])
def test_filtered_loops_play_as_the_plain_compilation(tmp_path, players):
    rep = crosscheck(str(write(tmp_path, SHOP)), players=players, games=30)
    assert rep.agree and rep.decisions >= 150, rep
