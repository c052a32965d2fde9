"""Filtered loops over fixed lists walk the group of values that pass the filter
(interpreter/codegen/groups.py): the rewritten functions compute exactly what the original
ones did, and loops the rewrite cannot keep exact are left alone."""

from __future__ import annotations

import itertools

import pytest

from regola.codegen.groups import group_table, walk_groups
from regola.loader import load_game
from rules_helpers import rewrite_source, write

KNOWN = {"VALS_Space": list(range(8)), "A5_Space_area": [0, 0, 1, 1, 2, 2, 2, None],
         "A5_Space_big": [True, False, True, False, True, False, True, False],
         "A5_Space_one": [3] * 8, "A5_Space_rows": [[1]] * 8, "K_SHORT": [0, 1, 2],
         "A5_Space_name": ["a", "b", "a", "c", "b", "a", "c", "c"]}


def _rewrite(src: str) -> tuple[str, dict]:
    groups: dict = {}
    return rewrite_source(src, lambda lines: walk_groups(lines, KNOWN, groups)), groups


def _fn(src, groups, name="f"):
    ns = dict(KNOWN, **groups)
    ns["D_half"] = lambda V, me, x: x // 2
    exec(src, ns)
    return ns[name]


def _same(src, args_list):
    new, groups = _rewrite(src)
    f, g = _fn(src, {}), _fn(new, groups)
    for args in args_list:
        outcomes = []
        for fn in (f, g):
            try:
                outcomes.append(("ok", fn(*args)))
            except Exception as e:  # noqa: BLE001
                outcomes.append(("raise", type(e)))
        assert outcomes[1] == outcomes[0], (args, new)
    return new, groups


SEARCH = """
def f(v, a):
    q = False
    for s in VALS_Space:
        if not (A5_Space_area[s] == a): continue
        if v[s] > 0:
            q = True; break
    return q
"""

SUM = """
def f(v, a):
    n = 0
    for s in VALS_Space:
        if not (a == A5_Space_area[s]): continue
        n = n * 10 + v[s] + s
    else:
        n = -n
    return n
"""

NOT_EQUAL = """
def f(v, a):
    out = []
    for s in VALS_Space:
        if A5_Space_name[s] != a: continue
        out.append(s * 100 + v[s])
    return out
"""

BOOL_AND_CALL = """
def f(v, a):
    out = []
    for s in VALS_Space:
        if not (A5_Space_big[s] == (D_half(None, None, a) == 1)): continue
        out.append(s)
    return out
"""

BOARDS = [[a, b, 0, 1, c, 0, 2, d] for a, b, c, d in itertools.product([0, 1], repeat=4)]


@pytest.mark.parametrize("src, values", [
    (SEARCH, [0, 1, 2, 3, None, True, 1.0, "x"]),
    (SUM, [0, 1, 2, None, False]),
    (NOT_EQUAL, ["a", "b", "c", "d", 0]),
    (BOOL_AND_CALL, [0, 1, 2, 3, 4])])
def test_the_group_walked_gives_the_same_answers(src, values):
    new, groups = _same(src, [(v, a) for v in BOARDS for a in values])
    assert "in VALS_Space:" not in new and ".get(" in new
    assert len(groups) == 1


def test_two_lists_over_one_table_have_their_own_groups():
    src = """
def f(v, a):
    n = 0
    for s in VALS_Space:
        if not (A5_Space_area[s] == a): continue
        n = n * 10 + s + 1
    for t in K_SHORT:
        if not (A5_Space_area[t] == a): continue
        n = n * 10 + t + 1
    return n
"""
    new, groups = _same(src, [(None, a) for a in (0, 1, 2, None, 5)])
    assert sorted(groups) == ["GRP10_VALS_Space_A5_Space_area", "GRP7_K_SHORT_A5_Space_area"]


def test_the_groups_keep_the_lists_order_and_none():
    assert group_table(KNOWN, "VALS_Space", "A5_Space_area") == {0: (0, 1), 1: (2, 3), 2: (4, 5, 6), None: (7,)}
    assert group_table(KNOWN, "VALS_Space", "A5_Space_one") is None          # one group: nothing saved
    assert group_table(KNOWN, "VALS_Space", "A5_Space_rows") is None         # lists are no keys
    assert group_table(KNOWN, "K_SHORT", "A5_Space_area") == {0: (0, 1), 1: (2,)}
    assert group_table({"D": [0, 9], "T": [1, 2]}, "D", "T") is None           # 9 is outside the table


@pytest.mark.parametrize("src", [
    # the filter is not the first statement: something ran before it on every pass
    """
def f(v, a):
    n = 0
    for s in VALS_Space:
        n += 1
        if not (A5_Space_area[s] == a): continue
        n += v[s]
    return n
""",
    # what it compares with changes inside the loop
    """
def f(v, a):
    n = 0
    for s in VALS_Space:
        if not (A5_Space_area[s] == a): continue
        a = v[s]
        n += 1
    return n
""",
    # the loop variable is read after the loop
    """
def f(v, a):
    for s in VALS_Space:
        if not (A5_Space_area[s] == a): continue
        v[0] += 1
    return s
""",
    # the loop variable is read in the loop's else (the last value of the whole list)
    """
def f(v, a):
    for s in VALS_Space:
        if not (A5_Space_area[s] == a): continue
        if v[s]: break
    else:
        return s
    return -1
""",
    # the value compared is not pure (a method call)
    """
def f(v, a):
    n = 0
    for s in VALS_Space:
        if not (A5_Space_area[s] == v.pop()): continue
        n += 1
    return n
""",
    # the table is a local, not a compiled constant
    """
def f(v, A5_Space_area):
    n = 0
    for s in VALS_Space:
        if not (A5_Space_area[s] == 1): continue
        n += 1
    return n
""",
    # a test of more than the table
    """
def f(v, a):
    n = 0
    for s in VALS_Space:
        if not (A5_Space_area[s] == a and v[s]): continue
        n += 1
    return n
"""])
def test_loops_that_cannot_be_kept_exact_are_left_alone(src):
    new, groups = _rewrite(src)
    assert "VALS_Space" in new and not groups


GAME = """
game areas:
    title "Areas"
    players 2..2

enum Area: north, south, east

record Spot:
    area: Area
    points: int
components Spot:
    | name | area  | points |
    | a1   | north | 1      |
    | a2   | north | 2      |
    | b1   | south | 3      |
    | c1   | east  | 4      |
    | c2   | east  | 5      |
    | c3   | east  | 6      |

global:
    taken: map Spot to int

per player:
    points: int

def area_points(a: Area) -> int = sum(s.points for s in Spot where s.area == a and taken[s] == 0)
def area_open(a: Area) -> bool = any(taken[s] == 0 for s in Spot where s.area == a)

action take(s in values(Spot)):
    require taken[s] == 0, "taken"
    require area_open(s.area), "closed"
    me.points += area_points(s.area)
    taken[s] = 1

flow:
    loop:
        for p in players:
            if all(taken[s] == 1 for s in Spot):
                end game
            act p: take

score: me.points
"""


def test_a_game_walks_groups_and_plays_as_the_plain_compilation(tmp_path):
    from regola.tools.crosscheck import crosscheck
    path = write(tmp_path, GAME)
    game = load_game(str(path), players=2)
    assert "GRP9_VALS_Spot_A4_Spot_area.get(l_a, ())" in game.source
    report = crosscheck(str(path), players=2, games=20)
    assert report.agree and report.decisions >= 80, report
