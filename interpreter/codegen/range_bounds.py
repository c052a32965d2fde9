"""Loops over a range that test their variable against bounds first walk only those values.

A choice of how many workers to add, `choose v in range(0, 40) where v >= needed and
v <= p.workers`, lists its options by trying all forty values, asking both bounds of each,
every time it is asked; most of the values fail. In a function that never
changes the state (a choice's options, a legal-move generator, a def), a loop

    for v in range(0, 40):
        if not (v >= L['@needed_189']): continue
        if not (v <= _V17[me][3]): continue
        ...

walks the values that pass those tests, and nothing else:

    _rg1 = range(0, 40)
    if _rg1: _rg1 = range(max(_rg1.start, L['@needed_189']), _rg1.stop)
    if _rg1: _rg1 = range(_rg1.start, min(_rg1.stop, _V17[me][3] + 1))
    for v in _rg1:
        ...

Exactly the same values pass, in the same order. A bound is computed once instead of once
per value, which is the same when it reads nothing the loop changes (and the function changes
no state); it is computed exactly when the original computed it at least once (the range
still holds a value that passed the tests before it), so a bound that raises raises the same
error, on a line that keeps its test's rules span. The rules have no fractions (`/` divides
whole numbers), so a bound compared with a whole number is a whole number, a truth value or
something no comparison accepts, and `max`, `min` and `range` refuse the last with the
TypeError the comparison raised. Only tests at the top of the loop's body qualify (nothing
else runs before them), each a single comparison of the variable with an expression of
names, constants, subscripts and arithmetic, and only when the variable is not read after
the loop (its last value would differ).
"""

from __future__ import annotations

import ast as pyast

from .invariants import _bound, _mutated
from .lines import Lines, each_function, fresh_names, parse_function

_PREFIX = "_rg"
_PLAIN_NODES = (pyast.Name, pyast.Constant, pyast.Subscript, pyast.BinOp, pyast.UnaryOp, pyast.Load,
                pyast.operator, pyast.unaryop, pyast.Slice)
# the bound a test puts on the variable: (which end, what to add to the expression)
_LOWER, _UPPER = "start", "stop"
_BY_OP = {  # op with the variable on the left -> (end, offset)
    pyast.GtE: (_LOWER, 0), pyast.Gt: (_LOWER, 1), pyast.LtE: (_UPPER, 1), pyast.Lt: (_UPPER, 0)}
_FLIP = {pyast.GtE: pyast.LtE, pyast.Gt: pyast.Lt, pyast.LtE: pyast.GtE, pyast.Lt: pyast.Gt}


def narrow_range_loops(lines: Lines) -> Lines:
    """Every function of `lines` with its range loops walking only the values their leading
    bound tests accept."""
    return each_function(lines, _one)


def _one(func: list, out: Lines):
    fn = parse_function(func)
    plans = _plans(fn) if fn is not None else []
    if not plans:
        for item in func:
            out.add(*item)
        return
    names = {n.id for n in pyast.walk(fn) if isinstance(n, pyast.Name)}
    before: dict[int, list] = {}          # line of a loop -> lines written before it
    dropped: set[int] = set()             # lines of the tests now in the range
    header: dict[int, str] = {}           # line of a loop -> its new `for` line
    fresh = fresh_names(_PREFIX, names)
    for loop, tests in plans:
        var, rg = loop.target.id, next(fresh)
        ind = func[loop.lineno - 1][0]
        made = [(ind, f"{rg} = {pyast.unparse(loop.iter)}", func[loop.lineno - 1][2])]
        for test, end, offset, bound in tests:
            src = pyast.unparse(bound) + (f" + {offset}" if offset else "")
            if end == _LOWER:
                new = f"range(max({rg}.start, {src}), {rg}.stop)"
            else:
                new = f"range({rg}.start, min({rg}.stop, {src}))"
            made.append((ind, f"if {rg}: {rg} = {new}", func[test.lineno - 1][2]))
            dropped.update(range(test.lineno, test.end_lineno + 1))   # (`continue` may be a line of its own)
        before[loop.lineno] = made
        header[loop.lineno] = f"for {var} in {rg}:"
    for i, (ind, text, span) in enumerate(func):
        line = i + 1
        if line in dropped:
            continue
        for item in before.get(line, ()):
            out.add(*item)
        out.add(ind, header.get(line, text), span)


def _plans(fn) -> list:
    """[(loop, [(test, end, offset, bound)])] for the range loops that qualify."""
    mutated = _mutated(fn)
    uses: dict[str, list] = {}           # name -> its nodes (one walk of the function: a rules
    for n in pyast.walk(fn):             # file can make thousands of loops in one def)
        if isinstance(n, pyast.Name):
            uses.setdefault(n.id, []).append(n)
    plans = []
    for loop in pyast.walk(fn):
        if not (isinstance(loop, pyast.For) and isinstance(loop.target, pyast.Name)
                and _is_range(loop.iter) and loop.lineno == loop.body[0].lineno - 1):
            continue
        var = loop.target.id
        tests = []
        for st in loop.body[:-1]:              # (a body of tests alone is left as it is)
            found = _bound_test(st, var, mutated)
            if found is None:
                break
            tests.append((st, *found))
        if not tests or not all(t.test.end_lineno == t.lineno for t, *_ in tests) \
                or _read_outside(loop, var, uses[var]):
            continue
        changed = _bound(loop)               # (a bound reading what the loop binds: not fixed)
        if any(_reads_any(bound, changed) for _, _, _, bound in tests):
            tests = tests[:next(i for i, t in enumerate(tests) if _reads_any(t[3], changed))]
        if tests:
            plans.append((loop, tests))
    return plans


def _reads_any(node, names: set) -> bool:
    return any(isinstance(n, pyast.Name) and n.id in names for n in pyast.walk(node))


def _is_range(it) -> bool:
    return isinstance(it, pyast.Call) and isinstance(it.func, pyast.Name) and it.func.id == "range" \
        and 1 <= len(it.args) <= 2 and not it.keywords \
        and not any(isinstance(a, pyast.Starred) for a in it.args)


def _bound_test(st, var: str, changed: set):
    """(end, offset, bound) for `if not (var OP bound): continue` (either side), else None."""
    if not (isinstance(st, pyast.If) and not st.orelse and len(st.body) == 1
            and isinstance(st.body[0], pyast.Continue)
            and isinstance(st.test, pyast.UnaryOp) and isinstance(st.test.op, pyast.Not)):
        return None
    cmp = st.test.operand
    if not (isinstance(cmp, pyast.Compare) and len(cmp.ops) == 1 and type(cmp.ops[0]) in _BY_OP):
        return None
    left, op, right = cmp.left, type(cmp.ops[0]), cmp.comparators[0]
    if isinstance(right, pyast.Name) and right.id == var:
        left, right, op = right, left, _FLIP[op]
    if not (isinstance(left, pyast.Name) and left.id == var):
        return None
    for n in pyast.walk(right):
        if not isinstance(n, _PLAIN_NODES) or (isinstance(n, pyast.Name) and (n.id == var or n.id in changed)):
            return None
    end, offset = _BY_OP[op]
    return end, offset, right


def _read_outside(loop, var: str, nodes: list) -> bool:
    """Is `var` (named at `nodes` in the function) named anywhere but inside `loop`'s body and
    target?"""
    inside = {id(n) for st in loop.body for n in pyast.walk(st) if isinstance(n, pyast.Name) and n.id == var}
    inside.add(id(loop.target))
    return any(id(n) not in inside for n in nodes)
