"""Loops over fixed values that keep only those with one value of a table: walk just those.

`any(members_on[s] > 0 for s in values(Space) where s.area == a)` is generated as

    for _cs_12 in VALS_Space:
        if not (A5_Space_area[_cs_12] == l_a): continue
        ...

which tries every action space to find the four of one area. Which values of the list have
each value of the table is known when the rules are compiled, so in functions that never
change the state such a loop walks a group instead:

    for _cs_12 in GRP10_VALS_Space_A5_Space_area.get(l_a, ()):
        ...

The same values in the same order reach the rest of the body. The rewrite is exact when:

- the list and the table are compiled constants, every value of the list indexes the table
  without error and every table value it reaches is a hashable scalar (int, bool, str, None):
  then `T[x] == e` holds exactly for the x grouped under e (Python's dict finds a key by
  hash and `==`);
- the loop's first statement is that filter (`if not (T[x] == e): continue`, either side,
  or `if T[x] != e: continue`), so `e` was computed on every pass, the first included (the
  list is never empty), and nothing before it in the pass had any effect;
- `e` reads no name the loop binds and nothing the function changes, and is made of pure
  parts: computing it once gives the value, and the error, it gave on the first pass;
- the loop variable is not read after the loop, nor in its `else` (its last value would
  differ).

A loop the list's groups would not shorten (the table has one value over the whole list) is
left alone.
"""

from __future__ import annotations

import ast as pyast

from .invariants import _ALLOWED, _PURE_CALLS, _bound, _mutated
from .lines import PLAIN, Lines, each_function, is_unset, parse_function

PREFIX = "GRP"


def walk_groups(lines: Lines, known: dict, groups: dict) -> Lines:
    """Every function of `lines` with its filtered loops over fixed lists walking groups;
    `known` maps global names to their fixed values, `groups` collects the group tables
    used (name -> {value: tuple of list values}), for the module to define."""
    return each_function(lines, lambda func, out: _one(func, out, known, groups))


def group_table(known: dict, domain: str, table: str):
    """{table value: the list's values with it, in the list's order}, or None when the
    rewrite would not be exact or not shorten anything."""
    values, tab = known.get(domain), known.get(table)
    if not isinstance(values, list) or not isinstance(tab, (list, tuple)) or len(values) < 2:
        return None
    out: dict = {}
    for x in values:
        if type(x) is not int or not 0 <= x < len(tab):
            return None
        key = tab[x]
        if type(key) not in PLAIN:
            return None
        out.setdefault(key, []).append(x)
    if len(out) < 2:
        return None
    return {k: tuple(v) for k, v in out.items()}


def _one(func: list, out: Lines, known: dict, groups: dict):
    fn = parse_function(func)
    edits = [] if fn is None else _Finder(fn, known, groups).edits
    if not edits:
        for item in func:
            out.add(*item)
        return
    dropped: set[int] = set()
    raw = [("    " * ind + text).encode() for ind, text, _ in func]
    for line, start, end, new, drop in edits:
        raw[line - 1] = raw[line - 1][:start] + new.encode() + raw[line - 1][end:]
        dropped.update(range(drop[0], drop[1] + 1))
    for i, (ind, _, span) in enumerate(func):
        if i + 1 not in dropped:
            out.add(ind, raw[i].decode()[4 * ind:], span)


class _Finder:
    def __init__(self, fn, known: dict, groups: dict):
        self.known = known
        self.groups = groups
        self.mutated = _mutated(fn)
        self.edits: list = []
        loads: dict[str, list] = {}
        for n in pyast.walk(fn):
            if isinstance(n, pyast.Name) and isinstance(n.ctx, pyast.Load):
                loads.setdefault(n.id, []).append(n)
        self.loads = loads
        local = {n.id for n in pyast.walk(fn) if isinstance(n, pyast.Name) and not isinstance(n.ctx, pyast.Load)}
        self.local = local | {a.arg for a in fn.args.args}
        for n in pyast.walk(fn):
            if isinstance(n, pyast.For):
                self._loop(n)

    def _loop(self, loop):
        if not (isinstance(loop.target, pyast.Name) and isinstance(loop.iter, pyast.Name) and loop.body):
            return
        x, domain = loop.target.id, loop.iter.id
        if domain in self.local or loop.iter.lineno != loop.lineno:
            return
        first = loop.body[0]
        if not (isinstance(first, pyast.If) and not first.orelse and len(first.body) == 1
                and isinstance(first.body[0], pyast.Continue) and len(loop.body) > 1):
            return
        split = _filter(first.test, x)
        if split is None:
            return
        table, e = split
        if table in self.local or not self._pure(e, _bound(loop) | self.mutated):
            return
        inside = {id(n) for st in loop.body for n in pyast.walk(st)}
        if any(id(n) not in inside for n in self.loads.get(x, ())):
            return                      # the loop variable is read after the loop (or in its else)
        grouped = group_table(self.known, domain, table)
        if grouped is None:
            return
        # the groups depend on the list too: its length first keeps the name one list's and
        # one table's only (as record field tables do, codegen/names.py)
        name = f"{PREFIX}{len(domain)}_{domain}_{table}"
        self.groups[name] = grouped
        text = f"{name}.get({pyast.unparse(e)}, ())"
        self.edits.append((loop.lineno, loop.iter.col_offset, loop.iter.end_col_offset, text,
                           (first.lineno, first.end_lineno)))

    def _pure(self, e, excluded: set) -> bool:
        for n in pyast.walk(e):
            if not isinstance(n, _ALLOWED) or isinstance(n, pyast.NamedExpr):
                return False
            if isinstance(n, pyast.Name) and n.id in excluded or is_unset(n):
                return False
            if isinstance(n, pyast.Call) and (
                    n.keywords or not isinstance(n.func, pyast.Name)
                    or not (n.func.id.startswith("D_") or n.func.id in _PURE_CALLS)
                    or any(isinstance(a, pyast.Starred) for a in n.args)):
                return False
        return True


def _filter(test, x: str):
    """(table, e) when test is `not (T[x] == e)`, `not (e == T[x])` or `T[x] != e` (either
    side), None otherwise."""
    if isinstance(test, pyast.UnaryOp) and isinstance(test.op, pyast.Not):
        cmp, op = test.operand, pyast.Eq
    else:
        cmp, op = test, pyast.NotEq
    if not (isinstance(cmp, pyast.Compare) and len(cmp.ops) == 1 and isinstance(cmp.ops[0], op)):
        return None
    for side, other in ((cmp.left, cmp.comparators[0]), (cmp.comparators[0], cmp.left)):
        if isinstance(side, pyast.Subscript) and isinstance(side.value, pyast.Name) \
                and isinstance(side.slice, pyast.Name) and side.slice.id == x \
                and not any(isinstance(n, pyast.Name) and n.id == x for n in pyast.walk(other)):
            return side.value.id, other
    return None
