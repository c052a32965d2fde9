"""Memos kept in lists (interpreter/codegen/key_bounds.py): only where every key is a small
number known when compiled, with the same results and calls as the dict they replace."""

import ast as pyast
import textwrap
from pathlib import Path

from regola.codegen.invariants import cache_loop_invariants, scalar_tables
from regola.codegen.key_bounds import LIST_MEMO_MAX, LoopBounds, small_int_tables
from regola.loader import load_game
from rules_helpers import rewrite_source
from test_codegen_invariants import _run       # (runs a function with a D_price that logs its calls)

RULES = Path(__file__).resolve().parent.parent / "rules"


def _bounds(src: str, tables: dict):
    fn = pyast.parse(textwrap.dedent(src)).body[0]
    return fn, LoopBounds(fn, small_int_tables(tables, walked=True), small_int_tables(tables))


def _iter_of(fn, target: str):
    return next(n.iter for n in pyast.walk(fn) if isinstance(n, pyast.For) and n.target.id == target)


def test_small_int_tables_keep_only_tables_of_small_non_negative_ints():
    tables = {"AREA": [0, 0, 2, 1], "KINDS": {5: 3, 9: 0}, "HOLE": [0, None, 1], "NEG": [0, -1],
              "FLAGS": [True, False], "BIG": [0, LIST_MEMO_MAX], "ROWS": [[0], [1]], "TEXT": ["a"],
              "EMPTY": [], "N": 4}
    assert small_int_tables(tables) == {"AREA": 3, "KINDS": 4}
    # a loop over a dict walks its keys: 5 and 9 here (3 and 0 when read)
    assert small_int_tables(tables, walked=True) == {"AREA": 3, "KINDS": 10}
    assert small_int_tables({"BY_KIND": {0: 70, 1: 80}}, walked=True) == {"BY_KIND": 2}
    assert small_int_tables({"BY_KIND": {0: 70, 1: 80}}) == {}


SOURCES = """
def G(V, me, out):
    _dom0 = []
    for l_x in VALS_A:
        if V[0][l_x]: continue
        _dom0.append(l_x)
    for l_x in _dom0:
        for l_y in range(0, 5):
            for l_z in range(-1, 3):
                for l_w in range(0, V[1]):
                    for l_v in V[2]:
                        out.append((l_x, l_y, l_z, l_w, l_v))
"""


def test_the_bounds_of_tables_constant_ranges_and_domains_filtered_from_them():
    fn, b = _bounds(SOURCES, {"VALS_A": [0, 1, 2, 3, 4, 5, 6]})
    assert b.of(_iter_of(fn, "l_x")) == 7          # VALS_A (the first loop binding l_x)
    assert b.of(pyast.Name("_dom0")) == 7          # filled with VALS_A's values
    assert b.of(_iter_of(fn, "l_y")) == 5
    assert b.of(_iter_of(fn, "l_z")) is None       # a negative value would read another slot
    assert b.of(_iter_of(fn, "l_w")) is None       # a bound known only when run
    assert b.of(_iter_of(fn, "l_v")) is None       # a list of unknown values
    # a loop over a dict table walks its keys, whatever its values
    fn, b = _bounds(SOURCES, {"VALS_A": {100: 0, 101: 1}})
    assert b.of(_iter_of(fn, "l_x")) is None and b.of(pyast.Name("_dom0")) is None


def test_a_domain_with_anything_else_in_it_has_no_bound():
    changed = [
        SOURCES.replace("_dom0.append(l_x)", "_dom0.append(l_x + 1)"),        # not a loop's value
        SOURCES.replace("_dom0.append(l_x)", "_dom0.append(l_x); _dom0.extend(V[2])"),
        SOURCES.replace("_dom0.append(l_x)", "_dom0.append(l_x); _dom0[0] = 99"),
        SOURCES.replace("_dom0 = []", "_dom0 = list(V[2])"),
        SOURCES.replace("if V[0][l_x]: continue", "l_x = V[3]"),                 # bound again
        SOURCES.replace("def G(V, me, out):", "def G(V, me, out, l_x):"),        # an argument
        SOURCES.replace("_dom0.append(l_x)", "_dom0.append(l_x)\n        _dom0 += [V[4]]"),
    ]
    for src in changed:
        fn, b = _bounds(src, {"VALS_A": [0, 1, 2, 3, 4, 5, 6]})
        assert b.of(pyast.Name("_dom0")) is None, src


CYCLE = """
def G(V, me, out):
    _dom1 = []
    _dom2 = []
    for l_x in VALS_A:
        _dom1.append(l_x)
    for l_x in _dom2:
        _dom1.append(l_x)
    for l_y in _dom1:
        _dom2.append(l_y)
    for l_y in VALS_B:
        _dom2.append(l_y)
"""


def test_domains_filled_from_each_other_are_bounded_by_all_their_sources():
    tables = {"VALS_A": [0, 1, 2], "VALS_B": [0, 1, 2, 3, 4, 5, 6, 7, 8]}
    for first, second in (("_dom1", "_dom2"), ("_dom2", "_dom1")):
        fn, b = _bounds(CYCLE, tables)
        # each may hold any value of either table, whichever is asked first
        assert b.of(pyast.Name(first)) == 9 and b.of(pyast.Name(second)) == 9


PROJECTED = """
def G(V, me, out):
    for a in range(0, 3):
        for s in VALS_S:
            if not (D_price(V, me, AREA[s]) + D_price(V, me, KIND[V[2][s]]) + D_price(V, me, s + 3) > a * 4): continue
            out.append((a, s))
"""
TABLES = {"VALS_S": [0, 1, 2, 3, 4, 5], "AREA": [0, 0, 1, 1, 1, 2], "KIND": [3, 3, None]}


def test_memos_keyed_by_small_numbers_are_lists_and_give_what_the_dicts_gave():
    def rewrite(int_tables):
        return rewrite_source(PROJECTED, lambda lines: cache_loop_invariants(lines, scalar_tables(TABLES),
                                                                               int_tables))
    new = rewrite((small_int_tables(TABLES, walked=True), small_int_tables(TABLES)))
    old = rewrite(({}, {}))
    # per space (VALS_S: 6) and per area (AREA: 3) in lists; KIND holds none: a dict
    assert "= [...] * 6" in new and "= [...] * 3" in new and "_memo_set(" in new
    assert "[KIND[V[2][s]]] if KIND[V[2][s]] in _k" in new
    assert "_memo_set(" not in old and "[...] *" not in old
    V = [[5, 6, 7, 8, 9, 1, 2, 3, 4], [0], [0, 1, 0, 1, 1, 0]]
    results = []
    for src in (PROJECTED, old, new):
        out, calls = [], []
        _run(src, "G", V, 0, out, calls=calls, tables=TABLES)
        results.append((out, sorted(calls)))
    assert results[0][0] == results[1][0] == results[2][0] and results[0][0]
    assert results[1][1] == results[2][1]           # the same calls remembered, list or dict
    assert len(results[0][1]) == 3 * 6 * 3 > len(results[2][1])


def test_a_bundled_game_keeps_its_memos_of_spaces_and_areas_in_lists():
    """Lorenzo's placements remember a card's test per space (codegen/moves.py, a parameter of
    a record type: 25 spaces) and action values per space and per area (invariants.py); the
    optimised and plain compilations play alike (tests/test_crosscheck.py)."""
    g = load_game(str(RULES / "lorenzo-il-magnifico"), players=4, modules=["advanced", "leaders"])
    assert "_seen5 = [None] * 25" in g.source and "_r = _seen5[l_sp]" in g.source
    assert "_k6 = [...] * 25" in g.source and "_k7 = [...] * 8" in g.source
    assert "_memo_set(_k7, A5_Space_area[l_sp], " in g.source
