"""Helpers of the generated code checked on their own."""

from __future__ import annotations

import random

import pytest

from regola.loader import load_game
from regola.runtime.helpers import RulesRuntimeError, _draw_single, _hall, _payments, _splits
from rules_helpers import write


def _random_costs(seed, cases, least_ways, groups):
    """(groups, values) of random payments: up to 5 counters, each group a few units with
    `least_ways`.. ways to pay them, between 1 and `groups` groups."""
    rng = random.Random(seed)
    for _ in range(cases):
        n = rng.randint(1, 5)
        values = [rng.randint(0, 4) for _ in range(n)]
        yield [(rng.randint(1, 4), rng.sample(range(n), rng.randint(least_ways, n)))
               for _ in range(rng.randint(1, groups))], values


def test_hall_condition_agrees_with_the_search_of_every_way_to_pay():
    for groups, values in _random_costs(1, 5000, 1, 4):
        ways = _payments(groups, values, False)
        assert _hall(groups, values) == bool(ways), (groups, values)
        assert _payments(groups, values, True) == bool(ways), (groups, values)


def _every_way(groups, values):
    """Every way to pay, unit by unit, with no shortcut: the reference for _payments."""
    found = set()

    def group(g, left, spend):
        if g == len(groups):
            found.add(tuple(spend))
            return
        q, sources = groups[g]

        def share(q, j, left, spend):
            if q == 0:
                group(g + 1, left, spend)
                return
            if j == len(sources):
                return
            c = sources[j]
            for a in range(min(q, left[c]) + 1):
                share(q - a, j + 1, left[:c] + [left[c] - a] + left[c + 1:],
                      spend[:c] + [spend[c] + a] + spend[c + 1:])
        share(q, 0, left, spend)
    group(0, list(values), [0] * len(values))
    return sorted(found, reverse=True)


def test_the_ways_to_pay_are_every_way_and_each_once():
    for groups, values in _random_costs(7, 3000, 0, 10):        # more than _HALL_GROUPS too
        ways = _every_way(groups, values)
        assert _payments(groups, values, False) == ways, (groups, values)
        assert _payments(groups, values, True) == bool(ways), (groups, values)
        # without the two quickest answers (a PAY_ function gives them itself): still exact
        assert _payments(groups, values, True, True) == bool(ways), (groups, values)


def test_splits_are_every_share_of_a_quantity_in_order():
    import itertools
    for n in range(0, 4):
        for caps in itertools.product(range(4), repeat=n):
            for q in range(0, 8):
                want = [t for t in itertools.product(*(range(c + 1) for c in caps)) if sum(t) == q]
                assert _splits(q, list(caps)) == want, (q, caps)


def test_hall_condition_on_a_case_the_quick_answers_miss():
    # 2 red from red or coins, 1 blue from coins only: 1 red, 2 coins is enough (red, coin,
    # coin); 0 red, 2 coins is not
    groups = [(2, [0, 1]), (1, [1])]
    assert _hall(groups, [1, 2])
    assert not _hall(groups, [0, 2])


def test_rules_that_never_reach_a_decision_are_stopped(tmp_path):
    d = write(tmp_path, """
        game g:
            players 2..2
        global:
            n: int
        action poke(x in [1, 2]):
            n += x
        flow:
            loop:
                n += 1
                if n < 0:
                    act player(1): poke
        score: n
        """)
    game = load_game(str(d), players=2)
    game.STEP_BUDGET = 5000
    with pytest.raises(RulesRuntimeError, match="without reaching a decision"):
        game.new_initial_state()


def test_a_drawn_kind_may_be_any_integer_like_value():
    class Index:                      # what numpy integers look like to Python
        def __init__(self, v):
            self.v = v

        def __index__(self):
            return self.v

    game = load_game("lungarno", players=2)
    s = game.new_initial_state(3)
    a, b = game.clone(s), game.clone(s)
    while not game.is_chance(a):
        m = game.legal_moves(a)[0]
        game.apply(a, m)
        game.apply(b, m)
    k = game.sample_chance(game.clone(a))
    game.apply_chance(a, k)
    game.apply_chance(b, Index(k))
    assert game.dump(a) == game.dump(b)


def test_draw_single_names_the_only_kind_left_or_none():
    assert _draw_single([0] * 70 + [3] + [0] * 25) == 70
    assert _draw_single([2]) == 0
    assert _draw_single([0, 1, 0, 1]) is None
    assert _draw_single([0] * 90 + [1, 1]) is None
    with pytest.raises(RulesRuntimeError, match="empty stack"):
        _draw_single([0, 0, 0])
