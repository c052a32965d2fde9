"""A loop over a pile's kinds in a function that never changes the state walks them in C
(interpreter/codegen/pile_walks.py): the same kinds in the same order, no list made; in the
flow, where the loop's body may move the pile's copies, the list is still made first."""

from __future__ import annotations

import random

from regola.codegen.pile_walks import _rewritten
from regola.runtime.helpers import HELPERS
from regola.loader import load_game
from rules_helpers import load, write


def test_only_a_loop_over_the_kinds_list_alone_is_rewritten():
    assert _rewritten("for l_t in _distinct_counts(V[11][me]):") == "for l_t in _compress(_KINDS, V[11][me]):"
    assert _rewritten("for _cx_2 in _distinct_counts(V[2][(l_p + 1) % 4]):") == \
        "for _cx_2 in _compress(_KINDS, V[2][(l_p + 1) % 4]):"
    for same in ("for l_t in _distinct_counts(a) + _distinct_counts(b):",     # not the call alone
                 "for l_t in sorted(_distinct_counts(V[1])):",
                 "for l_t in _distinct_counts(V[1]): out.append(l_t)",        # a body on the line
                 "for l_t in _it_counts(V[1]):",                              # every copy: a list
                 "_d = _distinct_counts(V[3])",
                 "if l_t not in _distinct_counts(V[11][me]): return 0",
                 "for l_t in _distinct_counts(V[1], 2):"):
        assert _rewritten(same) == same


def test_the_kinds_walked_in_c_are_those_the_helper_lists():
    rng = random.Random(5)
    compress, upto, listed = HELPERS["_compress"], HELPERS["_KINDS"], HELPERS["_distinct_counts"]
    for _ in range(300):
        counts = [rng.choice([0, 0, 1, 2, 7]) for _ in range(rng.randrange(0, 30))]
        kinds = [k for k, n in enumerate(counts) if n]
        assert list(compress(upto, counts)) == listed(counts) == kinds


GAME = """
    game g:
        players 2..2
    enum Metal: gold, silver
    record Gem:
        value: int
        setting: Metal
    per player:
        bag: pile of Gem
        kept: pile of Gem
    components Gem:
        | name  | value | setting | count |
        | ruby  | 5     | gold    | 3     |
        | pearl | 2     | silver  | 2     |
        | jade  | 9     | gold    | 1     |
        | opal  | 4     | silver  | 2     |
    global:
        pool: pile of Gem
    setup:
        fill pool with copies(Gem)
    def dearest(p: Player) -> int = max([0] + [g.value for g in p.bag where g.setting == gold])
    action take(g in pool where g.value > dearest(me) - 3):
        move g from pool -> me.bag
    action keep_all():
        require count(me.bag) > 0
        for g in me.bag:
            move g from me.bag -> me.kept
    flow:
        loop:
            for p in players:
                if count(pool) == 0:
                    end game
                act p: take | keep_all
    score: sum(g.value for g in me.kept)
"""


def test_defs_and_listings_walk_kinds_in_c_and_the_flow_keeps_its_list(tmp_path):
    game = load(tmp_path, GAME)
    src = game.source
    lister = src[src.index("def G_0_0("):src.index("\ndef ", src.index("def G_0_0("))]
    assert "_compress(_KINDS, " in lister
    keep = src[src.index("def A_keep_all("):src.index("\ndef ", src.index("def A_keep_all("))]
    assert "_compress(" not in keep          # its body moves the copies it walks
    plain = load_game(str(write(tmp_path, GAME, name="plain")), players=2, optimise=False)
    assert "_compress(" not in plain.source
    for seed in range(30):
        rng = random.Random(seed)
        a, b = game.new_initial_state(seed), plain.new_initial_state(seed)
        while not game.is_terminal(a):
            ms = game.legal_moves(a)
            assert ms == plain.legal_moves(b)
            m = ms[rng.randrange(len(ms))]
            game.apply(a, m)
            plain.apply(b, m)
        assert plain.is_terminal(b) and game.scores(a) == plain.scores(b)
