"""Defs written in place of their calls (codegen/expr.py, `_inline`): an if/return chain as one
conditional expression, an argument used twice computed once (`:=`), never inside a
comprehension's iterable, recursion unfolded a few levels; the results are the def's."""

from __future__ import annotations

from rules_helpers import load

# the flow of the small games below: each player picks in turn until the total passes a limit
_FLOW = """
    flow:
        loop:
            for p in players:
                if total > {limit}:
                    end game
                act p: pick
    score: total
    """

GAME = """
    game g:
        players 2..2
    global:
        total: int
        hits: int
    def band(n: int) -> int:
        if n < 0:
            return -1
        elif n < 3:
            return n * 10
        else:
            return 99
    def twice(n: int) -> int = n + n
    def steps(n: int) -> int:
        if n <= 0:
            return 0
        return 1 + steps(n - 2)
    action pick(k in range(0, 6)):
        require band(k - 2) != 99 or twice(k + 1) == 12, "not that one"
        total += band(k - 2) + twice(k * 3) + steps(k + 5)
        hits += sum(x for x in [twice(k + 1), band(k - 1)])
    """ + _FLOW.format(limit=200)


def _band(n):
    return -1 if n < 0 else n * 10 if n < 3 else 99


def _steps(n):
    return 0 if n <= 0 else 1 + _steps(n - 2)


def test_inlined_defs_give_the_defs_values(tmp_path):
    game = load(tmp_path, GAME)
    assert "D_band(" not in game.source.split("def A_pick")[1].split("\ndef ")[0]   # inlined
    assert ":=" in game.source
    s = game.new_initial_state()
    legal = [m[1] for m in game.legal_moves(s)]
    assert legal == [k for k in range(6) if _band(k - 2) != 99 or 2 * (k + 1) == 12]
    total = hits = 0
    for k in [0, 1, 3, 5, 0, 1]:
        game.apply(s, f"pick({k})")
        total += _band(k - 2) + 2 * (k * 3) + _steps(k + 5)
        hits += 2 * (k + 1) + _band(k - 1)
        assert game.observe(s, None)["state"]["hits"] == hits
        assert game.observe(s, None)["state"]["total"] == total


def test_a_deep_recursion_still_ends_with_the_defs_value(tmp_path):
    game = load(tmp_path, GAME.replace("steps(k + 5)", "steps(k + 41)"))
    s = game.new_initial_state()
    game.apply(s, "pick(4)")
    assert game.observe(s, None)["state"]["total"] == _band(2) + 24 + _steps(45)


CHAIN = """
    game g:
        players 2..2
    global:
        total: int
    def leaf(n: int) -> int = n * 3 + 1
    def two(n: int) -> int = n + leaf(n)
    def four(n: int) -> int = leaf(n + 1) - two(n)
    def five(n: int) -> int = four(n) * 2
    def six(n: int) -> int = five(n) + 1
    def steps(n: int) -> int:
        if n <= 0:
            return 0
        return 1 + steps(n - 1)
    action pick(k in range(0, 4)):
        total += six(k) + steps(k + 3)
    """ + _FLOW.format(limit=300)


def test_a_def_that_asks_no_def_is_inlined_two_levels_deeper(tmp_path):
    """Three defs deep (six, five, four) a def that asks another stays a call, but `leaf`,
    which asks none, is written in place; a recursive def still unfolds three levels only."""
    game = load(tmp_path, CHAIN)
    action = game.source.split("def A_pick")[1].split("\ndef ")[0]
    assert "D_six(" not in action and "D_four(" not in action and "D_leaf(" not in action
    assert "D_two(" in action                     # (six > five > four: the depth is spent)
    assert action.count("D_steps(") == 1          # unfolded three steps, then called
    leaf = lambda n: n * 3 + 1                    # noqa: E731
    six = lambda n: (leaf(n + 1) - (n + leaf(n))) * 2 + 1   # noqa: E731
    s = game.new_initial_state()
    total = 0
    for k in [0, 3, 1, 2]:
        game.apply(s, f"pick({k})")
        total += six(k) + k + 3
        assert game.observe(s, None)["state"]["total"] == total
