"""Quantifiers over a pile walk its kinds once each where the number of copies cannot change
the answer (any, all, min, max: codegen/expr.py KIND_BLIND), and every copy where it does
(count, sum, lists)."""

from __future__ import annotations

from rules_helpers import load

GAME = """
    game g:
        players 2..2
    record Gem:
        value: int
    components Gem:
        | name  | value | count |
        | ruby  | 5     | 3     |
        | pearl | 2     | 2     |
        | jade  | 9     | 1     |
    per player:
        bag: pile of Gem
    global:
        out: list of int
    setup:
        fill player(1).bag with [ruby, ruby, ruby, pearl, pearl]
    def any_big(p: Player) -> bool = any(g.value > 4 for g in p.bag)
    def all_small(p: Player) -> bool = all(g.value < 4 for g in p.bag)
    def least(p: Player) -> int = min(g.value for g in p.bag)
    def most(p: Player) -> int = max(g.value * 10 + h.value for g in p.bag for h in p.bag)
    def how_many(p: Player) -> int = count(g for g in p.bag where g.value > 1)
    def total(p: Player) -> int = sum(g.value for g in p.bag)
    def worths(p: Player) -> list of int = [g.value for g in p.bag]
    action look():
        let p = player(1)
        out = [1 if any_big(p) else 0, 1 if all_small(p) else 0, least(p), most(p),
               how_many(p), total(p)] + worths(p)
    action wait():
        pass
    flow:
        act player(1): look | wait
    score: 0
"""


def test_answers_count_copies_only_where_copies_count(tmp_path):
    game = load(tmp_path, GAME)
    s = game.new_initial_state()
    game.apply(s, "look")
    # any > 4: yes; all < 4: no; min 2; max of pairs 5*10+5; 5 copies above 1; sum 3*5+2*2
    assert game.observe(s, None)["state"]["out"] == [1, 0, 2, 55, 5, 19, 5, 5, 5, 2, 2]


def test_the_generated_code_walks_kinds_for_any_all_min_max_and_copies_otherwise(tmp_path):
    src = load(tmp_path, GAME).source

    def body(name):
        start = src.index(f"def D_{name}(")
        return src[start:src.index("\ndef ", start + 1)]
    for name in ("any_big", "all_small", "least", "most"):
        # (in a def, the kinds are walked in C: codegen/pile_walks.py)
        assert "_compress(_KINDS, " in body(name) and "_it_counts(" not in body(name), body(name)
    for name in ("how_many", "total", "worths"):
        assert "_it_counts(" in body(name) and "_distinct_counts(" not in body(name), body(name)
