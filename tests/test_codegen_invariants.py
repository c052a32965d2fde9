"""The loop-invariant pass (interpreter/codegen/invariants.py): values computed once per loop,
at the place and under the conditions where the original code computed them."""

from regola.codegen.invariants import cache_loop_invariants, scalar_tables
from regola.runtime.helpers import HELPERS
from rules_helpers import rewrite_source


def _rewrite(src: str) -> str:
    return rewrite_source(src, cache_loop_invariants)


def _run(src: str, name: str, *args, calls=None, tables=None):
    ns = dict(HELPERS, **(tables or {}))
    log = [] if calls is None else calls

    def D_price(V, me, x):
        log.append(x)
        return V[0][x] * 2
    ns["D_price"] = D_price
    exec(src, ns)
    return ns[name](*args)


ORIGINAL = """
def G(V, me, out):
    for a in range(0, 3):
        for b in range(0, 4):
            if not (V[1][me] + D_price(V, me, 0) > a + b): continue
            if not (b == 0 or D_price(V, me, b) > V[1][me] * 10 + a): continue
            out.append((a, b))
"""


def test_invariant_call_is_computed_once_per_loop_and_results_are_unchanged():
    new = _rewrite(ORIGINAL)
    assert " is not ... else " in new
    V = [[1, 2, 3, 4], [2]]
    before_calls, after_calls = [], []
    out1, out2 = [], []
    _run(ORIGINAL, "G", V, 0, out1, calls=before_calls)
    _run(new, "G", V, 0, out2, calls=after_calls)
    assert out1 == out2
    # D_price(V, me, 0) reads nothing the loops change: once, not once per (a, b)
    assert before_calls.count(0) == 12
    assert after_calls.count(0) == 1
    # D_price(V, me, b) is of the inner variable alone: once per value of b
    assert sorted(x for x in after_calls if x) == [1, 2, 3]


def test_a_guarded_expression_is_never_evaluated_where_the_original_would_not_be():
    src = """
def G(V, me, out):
    for a in [0, 1, 2]:
        if V[0] is not None and V[0][me] + len(V[0]) + V[2] * 3 - 1 > a:
            out.append(a)
"""
    new = _rewrite(src)
    assert " is not ... else " in new
    out = []
    _run(new, "G", [None, 0, 5], 0, out)       # V[0] is None: the cached part must not run
    assert out == []
    out = []
    _run(new, "G", [[4], 0, 5], 0, out)
    assert out == [0, 1, 2]


def test_names_the_loop_binds_or_the_function_mutates_are_not_invariant():
    src = """
def G(V, me, out):
    seen = {}
    for a in [0, 1, 2]:
        x = D_price(V, me, a)
        seen[a] = x
        out.append(D_price(V, me, len(seen)) + x)
"""
    new = _rewrite(src)
    assert "..." not in new and "setdefault" not in new


def test_an_error_in_a_cached_expression_is_raised_where_it_was():
    src = """
def G(V, me, out):
    for a in [0, 1]:
        if a == 1:
            out.append(D_price(V, me, 9) + 1)
"""
    new = _rewrite(src)
    out = []
    try:
        _run(new, "G", [[1, 2]], 0, out)
    except IndexError:
        pass
    else:
        raise AssertionError("the IndexError of the original code was lost")


def test_values_of_an_inner_loop_over_anything_but_numbers_are_not_dict_keys():
    src = """
def G(V, me, out):
    for a in range(0, 2):
        for cells in V[2]:
            out.append(D_price(V, me, len(cells)))
"""
    new = _rewrite(src)
    assert "setdefault" not in new
    out = []
    _run(new, "G", [[5, 6, 7], 0, [[1], [1, 2]]], 0, out)
    assert out == [12, 14, 12, 14]


def test_nested_caches_and_line_count():
    new = _rewrite(ORIGINAL)
    # one line added before each loop that caches something, none elsewhere
    assert len(new.splitlines()) == len(ORIGINAL.strip().splitlines()) + 2
    compile(new, "<test>", "exec")


def test_a_test_the_generator_already_remembers_per_value_is_not_remembered_twice():
    src = """
def G(V, me, out):
    _seen1 = {}
    for a in range(0, 2):
        for b in range(0, 3):
            _r = _seen1.get(b)
            if _r is None:
                _r = _seen1[b] = bool(D_price(V, me, b) > 2)
            if not _r: continue
            out.append((a, b))
"""
    new = _rewrite(src)
    assert "setdefault" not in new
    out = []
    _run(new, "G", [[1, 2, 3], 0], 0, out)
    assert out == [(0, 1), (0, 2), (1, 1), (1, 2)]


TEMPORARY = """
def G(V, me, out):
    for a in range(0, 3):
        for b in range(0, 4):
            if not (a + ((_i1_t := D_price(V, me, b)), _i1_t * _i1_t + 1)[1] > V[1][me]): continue
            out.append((a, b))
"""


def test_an_expression_holding_an_inlined_temporary_read_only_inside_it_is_remembered():
    new = _rewrite(TEMPORARY)
    # remembered per value of b (0..3: in a list, codegen/key_bounds.py)
    assert "_k1 = [...] * 4" in new and "_memo_set(_k1, b, " in new and "_i1_t :=" in new
    V = [[1, 2, 3, 4], [20]]
    before_calls, after_calls, out1, out2 = [], [], [], []
    _run(TEMPORARY, "G", V, 0, out1, calls=before_calls)
    _run(new, "G", V, 0, out2, calls=after_calls)
    assert out1 == out2 and out1
    assert len(before_calls) == 12 and sorted(after_calls) == [0, 1, 2, 3]


def test_a_temporary_read_or_bound_elsewhere_keeps_its_expression_as_it_was():
    read_after = TEMPORARY.replace("            out.append((a, b))", "            out.append((a, b, _i1_t))")
    bound_twice = TEMPORARY.replace("            out.append((a, b))",
                                    "            out.append((a, ((_i1_t := b), _i1_t)[1]))")
    for src in (read_after, bound_twice):
        new = _rewrite(src)
        assert "_i1_t := D_price(V, me, b)), _i1_t * _i1_t + 1)[1]" in new and "_memo_set" not in new, new
        V = [[1, 2, 3, 4], [20]]
        out1, out2 = [], []
        _run(src, "G", V, 0, out1)
        _run(new, "G", V, 0, out2)
        assert out1 == out2


PROJECTED = """
def G(V, me, out):
    for a in range(0, 3):
        for s in range(0, 6):
            if not (D_price(V, me, AREA[s]) + D_price(V, me, KIND[V[2][s]]) + s > a * 4): continue
            out.append((a, s))
"""
TABLES = {"AREA": [0, 0, 1, 1, 1, 2], "KIND": [3, 3, 0], "COST": [[1], [2], [3]]}


def test_a_call_reading_the_inner_variable_through_a_table_is_remembered_per_table_value():
    new = rewrite_source(PROJECTED, lambda lines: cache_loop_invariants(lines, scalar_tables(TABLES)))
    assert "[AREA[s]] if AREA[s] in _k" in new and "[KIND[V[2][s]]] if KIND[V[2][s]] in _k" in new
    V = [[5, 6, 7, 8], [0], [0, 1, 2, 2, 1, 0]]
    before, after = [], []
    out1, out2 = [], []
    _run(PROJECTED, "G", V, 0, out1, calls=before, tables=TABLES)
    _run(new, "G", V, 0, out2, calls=after, tables=TABLES)
    assert out1 == out2 and out1
    # AREA has 3 values over the 6 spaces, KIND[V[2][s]] 2: one call each, not one per space
    assert sorted(after) == [0, 0, 1, 2, 3]
    assert len(before) == 3 * 6 * 2


def test_a_table_of_lists_is_no_key_and_the_variable_read_elsewhere_keeps_the_call():
    for src in (PROJECTED.replace("KIND[V[2][s]]", "COST[V[2][s]]"),           # lists: no dict key
                PROJECTED.replace("D_price(V, me, AREA[s])", "D_price(V, me, AREA[s] + s)")):
        new = rewrite_source(src, lambda lines: cache_loop_invariants(lines, scalar_tables(TABLES)))
        assert "COST[V[2][s]]] if" not in new and "AREA[s] + s]" not in new
    # without the tables (no known values) nothing is remembered per table value
    new = rewrite_source(PROJECTED, cache_loop_invariants)
    assert "[AREA[s]] if" not in new
