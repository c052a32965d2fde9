"""Loops over fixed values that skip those a fixed table rules out: walk the rest only.

A card usable once a round is listed by walking every card, the test of the table asked at
each pass:

    for l_c in VALS_Card:
        if not (_tb1[l_c] > 0 or ...): continue
        if not (A6_Card_once_per_round[l_c]): continue
        ...

The test reads nothing but the loop's variable and tables fixed when the rules are compiled,
so its answer for every value is known then: the loop walks a list of the values that pass
it (`for l_c in FLT0:`, FLT0 a table of the module), and the test is gone.

The rewrite is exact when the test is the first statement of the loop's body (nothing before
it ran for the values it rules out) in any function that never changes the state. In a
legal-move generator (`G_`, `GL_`) it may also follow other tests of the parameter: a
generator's tests run in an order of its own, its reference (`RG_`, codegen/moves.py) lists
again in the rules' order after an error, and a test ruled out by a table raises nothing
here. The test is computed at compile time for every value of the list (at most
`_MAX_VALUES`), from names, constants, subscripts, comparisons, `and`/`or`/`not` and
conditionals alone (no call, no arithmetic: nothing that could run long or build much); a
test that raises for some value leaves the loop as it is, and so does a loop whose variable
is read after it, or one the filter would not shorten. All the tests of a rules file get
TIME_BUDGET seconds together (a membership in a long constant list, asked for thousands of
values, takes time): past it, the loops left keep their tests.
"""

from __future__ import annotations

import ast as pyast
import time

from .lines import PLAIN, Lines, each_function, parse_function
from .range_bounds import _read_outside

_PREFIX = "FLT"
_MAX_VALUES = 4096
TIME_BUDGET = 0.25          # seconds for computing every filter of a rules file
_NODES = (pyast.Name, pyast.Constant, pyast.Subscript, pyast.Compare, pyast.BoolOp, pyast.UnaryOp,
          pyast.IfExp, pyast.Load, pyast.boolop, pyast.cmpop, pyast.Not, pyast.USub, pyast.Tuple, pyast.List)
_GENERATORS = ("G_", "GL_")


class StaticFilters:
    """The filtered lists made so far (shared by every function of a module): each is added
    to `tables` and `known` (the module's globals, and what later passes compute with)."""

    def __init__(self, tables: dict, known: dict):
        self.tables = tables
        self.known = known
        self.names: dict[tuple, str] = {}
        self.left = TIME_BUDGET           # seconds left for computing tests

    def rewrite(self, lines: Lines) -> Lines:
        return each_function(lines, self._one)

    def _one(self, func: list, out: Lines):
        fn = parse_function(func)
        plans = self._plans(fn) if fn is not None else []
        if not plans:
            for item in func:
                out.add(*item)
            return
        header: dict[int, str] = {}
        dropped: set[int] = set()
        for loop, test, name in plans:
            header[loop.lineno] = f"for {loop.target.id} in {name}:"
            dropped.update(range(test.lineno, test.end_lineno + 1))
        for i, (ind, text, span) in enumerate(func):
            line = i + 1
            if line in dropped:
                continue
            out.add(ind, header.get(line, text), span)

    def _plans(self, fn) -> list:
        generator = fn.name.startswith(_GENERATORS)
        uses: dict[str, list] = {}
        for n in pyast.walk(fn):
            if isinstance(n, pyast.Name):
                uses.setdefault(n.id, []).append(n)
        plans = []
        for loop in pyast.walk(fn):
            if not (isinstance(loop, pyast.For) and isinstance(loop.target, pyast.Name)
                    and isinstance(loop.iter, pyast.Name) and loop.lineno == loop.body[0].lineno - 1):
                continue
            values = self.known.get(loop.iter.id)
            var = loop.target.id
            if not isinstance(values, list) or not 0 < len(values) <= _MAX_VALUES \
                    or not all(type(x) in PLAIN for x in values) or _read_outside(loop, var, uses.get(var, [])):
                continue
            for k, st in enumerate(loop.body):
                if not _skip_test(st):
                    break
                if k > 0 and not generator:
                    break
                kept = self._kept(st.test, var, values)
                if kept is not None and len(kept) < len(values) and _own_lines(st, loop.body, k):
                    plans.append((loop, st, self._name(loop.iter.id, pyast.unparse(st.test), var, kept)))
                    break
        return plans

    def _kept(self, test, var: str, values: list):
        """The values for which `test` is false (the loop goes on with them), or None: the test
        reads something not fixed, is not of the simple kinds, or raises for some value."""
        for n in pyast.walk(test):
            if not isinstance(n, _NODES):
                return None
            if isinstance(n, pyast.Name) and n.id != var and n.id not in self.known:
                return None
        if self.left <= 0:
            return None
        start = time.perf_counter()
        try:
            code = compile(pyast.Expression(test), "<regola static filter>", "eval")
            ns = {"__builtins__": {}}
            ns.update({n.id: self.known[n.id] for n in pyast.walk(test)
                       if isinstance(n, pyast.Name) and n.id != var})
            kept = []
            for x in values:
                ns[var] = x
                if not eval(code, ns):      # (names, constants, subscripts and tests only)
                    kept.append(x)
                if time.perf_counter() - start > self.left:
                    kept = None             # (the budget is spent: this loop keeps its test)
                    break
        except Exception:       # noqa: BLE001 (a test that fails for a value: the loop stays)
            kept = None
        self.left -= time.perf_counter() - start
        return kept

    def _name(self, domain: str, test: str, var: str, kept: list) -> str:
        key = (domain, test, var)
        name = self.names.get(key)
        if name is None:
            name = f"{_PREFIX}{len(self.names)}"
            while name in self.known:
                name += "_"
            self.names[key] = name
            self.tables[name] = kept
            self.known[name] = kept
        return name


def _skip_test(st) -> bool:
    """`if <test>: continue` (the forms generated filters take)."""
    return isinstance(st, pyast.If) and not st.orelse and len(st.body) == 1 \
        and isinstance(st.body[0], pyast.Continue)


def _own_lines(st, body: list, k: int) -> bool:
    """Does the test have its lines to itself (so they can be dropped whole)?"""
    before = body[k - 1].end_lineno if k > 0 else None
    after = body[k + 1].lineno if k + 1 < len(body) else None
    return (before is None or before < st.lineno) and (after is None or after > st.end_lineno)
