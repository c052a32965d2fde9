"""Table reads at a def's own arguments made once per call (interpreter/codegen/table_reads.py):
only reads that cannot fail move to the top of the function, and the function computes what
it did."""

from __future__ import annotations

import pytest

from regola.codegen.table_reads import hoist_table_reads
from regola.loader import load_game
from rules_helpers import call_outcome, function_source, play_alike, rewrite_source, write

KIND = [0, 1, 0, 2]                    # a table per component (4 of them)
COST = [[1, 2], [3, 4], [5, 6], [7, 8]]
RANGES = {"l_c": (0, 3), "l_g": (0, 1)}


def _rewrite(src: str, ranges=RANGES) -> str:
    return rewrite_source(src, lambda lines: hoist_table_reads(lines, {"KIND": KIND, "COST": COST}, ranges))


def _run(src: str, *args):
    return call_outcome(src, "D_f", {"KIND": KIND, "COST": COST}, *args)


LOOP = """
def D_f(V, me, l_c, l_g):
    n = 0
    for x in V[0]:
        if KIND[x] == KIND[l_c]:
            n += COST[l_c][l_g] + COST[x][l_g]
    return n
"""


def test_a_read_at_ranged_arguments_in_a_loop_is_made_once_before_it():
    new = _rewrite(LOOP)
    lines = new.splitlines()
    assert lines[2].strip() == "_tb1 = KIND[l_c]; _tb2 = COST[l_c][l_g]" and lines[3].startswith("    for x")
    assert "KIND[x] == _tb1" in new and "_tb2 + COST[x][l_g]" in new
    for hand in ([], [0, 1, 2, 3], [2, 2, 0], [3]):
        for c in range(4):
            for g in range(2):
                assert _run(new, [hand], 0, c, g) == _run(LOOP, [hand], 0, c, g)


@pytest.mark.parametrize("src", [
    # an index that may be none (no range)
    "def D_f(V, me, l_d, l_g):\n    return sum(KIND[l_d] for x in V[0])\n",
    # an argument bound again in the function
    "def D_f(V, me, l_c, l_g):\n    for l_c in V[0]:\n        V[1] += KIND[l_c]\n    return V[1]\n",
    # a table the function changes
    "def D_f(V, me, l_c, l_g):\n    for x in V[0]:\n        KIND.append(KIND[l_c])\n    return 0\n",
    # read once, not in a loop: nothing is saved
    "def D_f(V, me, l_c, l_g):\n    return KIND[l_c] if V[0] else 0\n",
])
def test_reads_that_may_fail_or_are_made_once_stay_where_they_are(src):
    assert "_tb" not in _rewrite(src)


def test_of_a_read_that_may_fail_only_the_part_that_cannot_moves():
    src = "def D_f(V, me, l_c, l_g):\n    return sum(COST[l_c][2] for x in V[0])\n"
    new = _rewrite(src)
    assert "_tb1 = COST[l_c]\n" in new and "sum(_tb1[2] for x in V[0])" in new
    assert _run(new, [[]], 0, 1, 0) == _run(src, [[]], 0, 1, 0) == ("ok", 0)
    assert _run(new, [[1]], 0, 1, 0) == _run(src, [[1]], 0, 1, 0) == ("raise", "IndexError")


def test_a_read_the_original_never_reaches_moves_only_when_it_cannot_fail():
    # with no cards the loop never reads COST[l_c][1]; hoisted, it is read and cannot fail
    src = "def D_f(V, me, l_c, l_g):\n    return [COST[l_c][1] for x in V[0]]\n"
    new = _rewrite(src)
    assert "_tb1 = COST[l_c][1]" in new
    assert _run(new, [[]], 0, 3, 0) == ("ok", [])
    # a range wider than the table: not total, left in the loop
    assert "_tb" not in _rewrite(src, {"l_c": (0, 4)})


def test_a_read_written_three_times_in_one_statement_is_made_once_before_it():
    # no loop: the read is repeated in the statement itself (Connect Four's unfolded lines)
    src = ("def D_f(V, me, l_c, l_g):\n"
           "    if KIND[l_c] == 0 or KIND[l_c] == 2 or V[0] == KIND[l_c]:\n"
           "        return KIND[l_c] + 1\n"
           "    return COST[l_c][l_g] + COST[l_c][l_g]\n")
    new = _rewrite(src)
    assert new.splitlines()[1].strip() == "_tb1 = KIND[l_c]" and "return _tb1 + 1" in new
    assert "COST[l_c][l_g] + COST[l_c][l_g]" in new           # twice only: left as it is
    for c in range(4):
        for v0 in (0, 1, 2):
            assert _run(new, [v0], 0, c, 1) == _run(src, [v0], 0, c, 1)
    # under the `if` alone (guarded), three reads stay where they are
    guarded = ("def D_f(V, me, l_c, l_g):\n"
               "    if V[0]:\n"
               "        return KIND[l_c] + KIND[l_c] + KIND[l_c]\n"
               "    return 0\n")
    assert "_tb" not in _rewrite(guarded)


STATE = """
def D_f(V, me, l_p, l_c):
    _V0 = V[0]; _V1 = V[1]
    n = 0
    for x in _V0[l_p]:
        n += _V1[l_p][l_c] + _V1[l_c][l_p] + _V0[l_p][0] + V[2][l_c]
    return n
"""


def test_state_lists_of_known_lengths_are_read_once_at_ranged_arguments():
    # slot 0: a pile per player (its length varies); slot 1: 3 counts per player; slot 2:
    # one value per player
    shapes = {0: (2, None), 1: (2, 3), 2: (2,)}
    new = rewrite_source(STATE, lambda lines: hoist_table_reads(lines, {}, {"l_p": (0, 1), "l_c": (0, 2)},
                                                                shapes))
    before_loop = new.splitlines()[3]
    assert before_loop == "    _tb1 = _V1[l_p][l_c]; _tb2 = _V0[l_p]"
    # a count read at a player that is a card (3 > 2 players) and an item of a pile stay
    assert "_V1[l_c][l_p]" in new and "_tb2[0]" in new and "V[2][l_c]" in new
    ns: dict = {}
    exec(new, ns)
    old: dict = {}
    exec(STATE, old)
    V = [[[0, 1], [2]], [[1, 2, 3], [4, 5, 6]], [7, 8]]
    for p in range(2):
        for c in range(2):          # (c == 2 would read V[2][2]: an error in both)
            assert ns["D_f"](V, 0, p, c) == old["D_f"](V, 0, p, c)


GAME = """
game cards:
    players 2..2

enum Kind: red, blue, green

record Card:
    kind: Kind
    cost: int
components Card:
    | name | kind  | cost |
    | a    | red   | 1    |
    | b    | blue  | 2    |
    | c    | green | 3    |
    | d    | red   | 4    |
    | e    | blue  | 5    |

per player:
    hand: pile of Card
    points: int

global:
    deck: pile of Card

def matching(p: Player, c: Card) -> int = sum(x.cost for x in p.hand where x.kind == c.kind)
def spare(p: Player, c: Card or none) -> int =
    0 if c == none else count(x for x in p.hand where x.kind == c.kind)

setup:
    fill deck with copies(Card)
    fill deck with copies(Card)

action take(c in deck):
    move c from deck -> me.hand
    me.points += matching(me, c) + spare(me, c)

flow:
    loop:
        for p in players:
            if count(deck) == 0:
                end game
            act p: take
score: me.points
"""


def test_a_game_plays_alike_with_and_without_the_rewrite(tmp_path):
    path = str(write(tmp_path, GAME))
    fast, plain = load_game(path, players=2), load_game(path, players=2, optimise=False)
    matching = function_source(fast, "D_matching").splitlines()
    # the card's kind, read once before the loop (the hand is read once anyway: the loop walks it)
    assert matching[2].strip() == "_tb1 = A4_Card_kind[l_c]" and matching[3].strip().startswith("for ")
    assert "_tb" not in function_source(fast, "D_spare")        # its card may be none
    play_alike(fast, plain, range(8))
