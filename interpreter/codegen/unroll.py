"""Short loops over constant lists unrolled, and constant expressions folded, in functions that
never change the state.

A rules author writes `all(left(p, g) >= 0 for g in GOODS)` or `any(... for d in
Direction)`: a loop over a handful of values fixed when the rules are compiled. Inlined defs
then test those values (`stock(p, g)` is `p.goods[g] if g in BASIC else p.gold if g == gold
...`), so each pass of the loop evaluates a chain of conditions whose answer is known in
advance. Here such a loop (at most _MAX_ITEMS values, of one of three shapes: a
search that stops at the first hit, a filter that skips with `continue`, or a plain body) is
written out once per value, the loop variable replaced by the value, and then every
expression whose parts are all known is computed now:

    for _cg_25 in K_GOODS:                         if not (V[18][l_p] - 0 >= ...):
        if not (<... _cg_25 == 4 ...>):      ->        _q_24 = False
            _q_24 = False; break                   elif not (...):
                                                       ...

Known values are literals, the loop's values, and the compiled tables and constants (never
changed at run time). Folding computes with Python itself, so the values are exactly those
the code would have computed; an expression that raises is left to raise at run time; `and`,
`or` and conditionals drop only the parts that would never have been evaluated.
"""

from __future__ import annotations

import ast as pyast
import copy
import operator

from .binds import drop_plain_binds
from .bounds import drop_proven_cell_tests
from .intervals import BINOPS, arithmetic, drop_decided_tests
from .lines import PLAIN, Lines, each_function, parse_function

_MAX_ITEMS = 8
_MAX_NODES = 4000          # the body's nodes times the values: no more code than this


def unroll_and_fold(lines: Lines, known: dict, ranges: dict | None = None) -> Lines:
    """Every function of `lines` with its short constant loops unrolled and constants folded;
    `known` maps global names to their fixed values, `ranges` parameters' names to the
    (lowest, highest) value their type allows (a def's parameters of a numbered type)."""
    return each_function(lines, lambda func, out: _one(func, out, known, ranges or {}))


def _one(func: list, out: Lines, known: dict, ranges: dict):
    fn = parse_function(func)
    if fn is None:
        for item in func:
            out.add(*item)
        return
    stored = {n.id for n in pyast.walk(fn) if isinstance(n, pyast.Name) and not isinstance(n.ctx, pyast.Load)}
    params = {a.arg for a in fn.args.args}
    local = stored | params
    rw = _Rewriter({k: v for k, v in known.items() if k not in local}, fn,
                   cells=any("_cell(" in text for _, text, _ in func),
                   ranges={k: v for k, v in ranges.items() if k in params and k not in stored})
    body = rw.block(fn.body)
    if drop_plain_binds(fn, body):      # then the constants they leave are folded too
        rw.changed = True
        body = rw.block(body)
    emit_function(func, body if rw.changed else None, out)


def emit_function(func: list, body, out: Lines):
    """`func` (a function's items) written again with the statements `body` (its syntax
    tree's, rewritten), each line with the rules span of the line it came from; `func` as
    it was when body is None (nothing changed)."""
    if body is None:
        for item in func:
            out.add(*item)
        return
    spans = [span for _, _, span in func]
    out.add(*func[0])
    emit_body(body, out, 1, spans)


def emit_statement(st, out: Lines, ind: int, spans: list):
    """A statement as lines, each with the rules span of the line it came from."""
    line = getattr(st, "lineno", None)
    span = spans[line - 1] if line and line <= len(spans) else None
    if isinstance(st, _Block):
        for s in st.body:
            emit_statement(s, out, ind, spans)
        return
    if isinstance(st, pyast.If):
        out.add(ind, f"if {pyast.unparse(st.test)}:", span)
        emit_body(st.body, out, ind + 1, spans)
        while len(st.orelse) == 1 and type(st.orelse[0]) is pyast.If:
            st = st.orelse[0]
            line = getattr(st, "lineno", None)
            out.add(ind, f"elif {pyast.unparse(st.test)}:", spans[line - 1] if line and line <= len(spans) else span)
            emit_body(st.body, out, ind + 1, spans)
        if st.orelse:
            out.add(ind, "else:", span)
            emit_body(st.orelse, out, ind + 1, spans)
    elif isinstance(st, (pyast.For, pyast.While)):
        head = f"for {pyast.unparse(st.target)} in {pyast.unparse(st.iter)}:" if isinstance(st, pyast.For) \
            else f"while {pyast.unparse(st.test)}:"
        out.add(ind, head, span)
        emit_body(st.body, out, ind + 1, spans)
        if st.orelse:
            out.add(ind, "else:", span)
            emit_body(st.orelse, out, ind + 1, spans)
    else:
        for text in pyast.unparse(st).splitlines():
            stripped = text.lstrip(" ")
            out.add(ind + (len(text) - len(stripped)) // 4, stripped, span)


def emit_body(stmts, out, ind, spans):
    """Statements as lines (emit_statement), or `pass` for none: a body Python accepts."""
    n = len(out)
    for s in stmts:
        emit_statement(s, out, ind, spans)
    if len(out) == n:
        out.add(ind, "pass")


_JUMPS = (pyast.Break, pyast.Continue)


def _jumps(stmts) -> bool:
    """Is there a break/continue of this loop (not of a loop inside it) among stmts?"""
    for st in stmts:
        if isinstance(st, _JUMPS):
            return True
        if isinstance(st, (pyast.For, pyast.While)):
            if _jumps(st.orelse):
                return True
            continue
        for field in ("body", "orelse", "handlers", "finalbody"):
            if _jumps(getattr(st, field, []) or []):
                return True
    return False


class _Rewriter:
    def __init__(self, consts: dict, fn, cells: bool, ranges: dict):
        self.consts = consts
        self.folder = _Folder(consts)
        self.fn = fn
        self.cells = cells            # does the function make grid cells? (else no cell test to drop)
        self.ranges = ranges          # the parameters' intervals (never rebound in fn)
        self.changed = False

    def block(self, stmts) -> list:
        out = []
        for st in stmts:
            out.append(self.statement(st))
        return out

    def fold(self, e):
        """(e, a copy, with its known parts computed, the cell tests it proves and the bound
        tests it decides dropped, whether a test was dropped)."""
        e = self.folder.visit(e)
        pruned = False
        if self.cells:              # (first: it reads the bound tests that the next drops)
            e, pruned = drop_proven_cell_tests(e)
        e, decided = drop_decided_tests(e, self.ranges)
        return e, pruned or decided

    def expr(self, e):
        if e is None:
            return None
        self.folder.changed = False
        new, pruned = self.fold(copy.deepcopy(e))
        if self.folder.changed or pruned:
            self.changed = True
            return new
        return e

    def statement(self, st):
        if isinstance(st, _Block):         # (a second pass, after drop_plain_binds)
            return _Block(self.block(st.body), st)
        if isinstance(st, pyast.For):
            items = self._items(st.iter)
            if items is not None and isinstance(st.target, pyast.Name):
                unrolled = self.unroll(st, items)
                if unrolled is not None:
                    self.changed = True
                    return unrolled
        st = copy.copy(st)
        for field in ("test", "iter", "value"):
            if isinstance(getattr(st, field, None), pyast.expr):
                setattr(st, field, self.expr(getattr(st, field)))
        for field in ("body", "orelse"):
            if isinstance(getattr(st, field, None), list):
                setattr(st, field, self.block(getattr(st, field)))
        return st

    def _items(self, it):
        if isinstance(it, pyast.Name) and it.id in self.consts:
            v = self.consts[it.id]
            if isinstance(v, (list, tuple)) and len(v) <= _MAX_ITEMS and all(type(x) in (int, bool, str) for x in v):
                return list(v)
        if isinstance(it, pyast.Call) and isinstance(it.func, pyast.Name) and it.func.id == "range" \
                and "range" not in self.consts and not it.keywords and 1 <= len(it.args) <= 2 \
                and all(isinstance(a, pyast.Constant) and type(a.value) is int for a in it.args):
            r = range(*[a.value for a in it.args])
            if len(r) <= _MAX_ITEMS:
                return list(r)
        return None

    def unroll(self, loop, items):
        var = loop.target.id
        body = loop.body
        nodes = sum(1 for st in body for _ in pyast.walk(st))
        inside = {id(n) for st in body for n in pyast.walk(st)}
        if nodes * len(items) > _MAX_NODES or any(
                isinstance(n, pyast.Name) and n.id == var and (not isinstance(n.ctx, pyast.Load) or id(n) not in inside)
                and n is not loop.target for n in pyast.walk(self.fn)):
            return None                 # the variable is bound in the body or read after the loop

        def body_for(stmts, value):
            return self.block([_Substitute(var, value).visit(copy.deepcopy(s)) for s in stmts])

        def known(test):
            return test.value if isinstance(test, pyast.Constant) and type(test.value) in (int, bool, str) \
                else _UNKNOWN

        first = body[0]
        # a search: `if test: ...; break` -> if / elif chain, the loop's else as the chain's else
        if len(body) == 1 and isinstance(first, pyast.If) and not first.orelse and first.body \
                and isinstance(first.body[-1], pyast.Break) and not _jumps(first.body[:-1]):
            chain = self.block(loop.orelse)
            for value in reversed(items):
                test = self.fold(_Substitute(var, value).visit(copy.deepcopy(first.test)))[0]
                then = body_for(first.body[:-1], value)
                k = known(test)
                if k is _UNKNOWN:
                    chain = [pyast.copy_location(pyast.If(test=test, body=then or [pyast.Pass()], orelse=chain),
                                                 first)]
                elif k:
                    chain = then
            return _Block(chain, loop)
        # a filter: `if not test: continue`, then a body without jumps
        if isinstance(first, pyast.If) and not first.orelse and len(first.body) == 1 \
                and isinstance(first.body[0], pyast.Continue) and not _jumps(body[1:]) and not loop.orelse:
            out = []
            for value in items:
                test = self.fold(pyast.UnaryOp(op=pyast.Not(), operand=_Substitute(var, value).visit(
                    copy.deepcopy(first.test))))[0]
                rest = body_for(body[1:], value)
                k = known(test)
                if k is _UNKNOWN:
                    test = _truth(test)
                    out.append(pyast.copy_location(pyast.If(test=test, body=rest or [pyast.Pass()], orelse=[]), first))
                elif k:
                    out += rest
            return _Block(out, loop)
        # a plain body
        if not _jumps(body):
            out = []
            for value in items:
                out += body_for(body, value)
            return _Block(out + self.block(loop.orelse), loop)
        return None


_UNKNOWN = object()


def _truth(test):
    """A test with its double negations dropped (`if not not x` asks what `if x` asks): the
    filter `if not (x): continue` unrolled reads `if not not (x)`."""
    while isinstance(test, pyast.UnaryOp) and isinstance(test.op, pyast.Not) \
            and isinstance(test.operand, pyast.UnaryOp) and isinstance(test.operand.op, pyast.Not):
        test = test.operand.operand
    return test


class _Block(pyast.If):
    """Several statements standing where one loop was (emitted one after another)."""

    def __init__(self, stmts, loop):
        super().__init__(test=pyast.Constant(True), body=stmts, orelse=[])
        pyast.copy_location(self, loop)


class _Substitute(pyast.NodeTransformer):
    def __init__(self, name, value):
        self.name, self.value = name, value

    def visit_Name(self, node):
        if node.id == self.name and isinstance(node.ctx, pyast.Load):
            return pyast.copy_location(pyast.Constant(self.value), node)
        return node


class _Folder(pyast.NodeTransformer):
    """Computes the expressions whose parts are all known (see the module's docstring)."""

    def __init__(self, consts: dict):
        self.consts = consts
        self.changed = False          # did a visit replace any node?

    def visit(self, node):
        new = super().visit(node)
        if new is not node:
            self.changed = True
        return new

    def _value(self, node):
        """(True, value) for a known node, else (False, None)."""
        if isinstance(node, pyast.Constant):
            return True, node.value
        if isinstance(node, pyast.Name) and node.id in self.consts:
            return True, self.consts[node.id]
        if isinstance(node, (pyast.List, pyast.Tuple)) and isinstance(node.ctx, pyast.Load):
            vals = [self._value(e) for e in node.elts]
            if all(ok and isinstance(v, PLAIN) for ok, v in vals):
                return True, [v for _, v in vals] if isinstance(node, pyast.List) else tuple(v for _, v in vals)
        return False, None

    def _const(self, value, like):
        if isinstance(value, PLAIN):
            return pyast.copy_location(pyast.Constant(value), like)
        return None

    def _computed(self, node, compute):
        """The constant compute() gives in place of node (node itself when it is not a plain
        value, or when computing raises: that is left to raise at run time)."""
        try:
            v = compute()
        except Exception:  # noqa: BLE001
            return node
        return self._const(v, node) or node

    def visit_Subscript(self, node):
        self.generic_visit(node)
        (ok1, obj), (ok2, key) = self._value(node.value), self._value(node.slice)
        if ok1 and ok2 and isinstance(node.ctx, pyast.Load):
            return self._computed(node, lambda: obj[key])
        return node

    def visit_Compare(self, node):
        self.generic_visit(node)
        vals = [self._value(p) for p in [node.left] + node.comparators]
        if all(ok for ok, _ in vals):
            return self._computed(node, lambda: _compare(node.ops, [x for _, x in vals]))
        if all(isinstance(op, _ORDERING) for op in node.ops):     # (none cannot be ordered either)
            node.left = self._without_zero(node.left)
            node.comparators = [self._without_zero(c) for c in node.comparators]
        return node

    def visit_BinOp(self, node):
        self.generic_visit(node)
        (ok1, a), (ok2, b) = self._value(node.left), self._value(node.right)
        if ok1 and ok2 and isinstance(a, (int, bool)) and isinstance(b, (int, bool)):
            return self._computed(node, lambda: BINOPS[type(node.op)](a, b))
        # adding or taking away 0 (an unrolled offset, a modifier's empty term) leaves a
        # number as it is: dropped where the other side is arithmetic, an int for certain ...
        kept = self._zero_added_to(node)
        if kept is not None and arithmetic(kept):
            return kept
        # ... and anywhere inside a sum, a difference or a product, which treats a truth value
        # as the number it stands for
        if isinstance(node.op, (pyast.Add, pyast.Sub, pyast.Mult)):
            node.left, node.right = self._without_zero(node.left), self._without_zero(node.right)
        return node

    def _zero_added_to(self, node):
        """x for `x + 0`, `x - 0` or `0 + x`, else None."""
        if not (isinstance(node, pyast.BinOp) and isinstance(node.op, (pyast.Add, pyast.Sub))):
            return None
        (ok1, a), (ok2, b) = self._value(node.left), self._value(node.right)
        if ok2 and type(b) is int and b == 0:
            return node.left
        if isinstance(node.op, pyast.Add) and ok1 and type(a) is int and a == 0:
            return node.right
        return None

    def _without_zero(self, node):
        """node without the zeros added to it (for a caller that uses it as a number)."""
        while (kept := self._zero_added_to(node)) is not None:
            node = kept
            self.changed = True
        return node

    def visit_UnaryOp(self, node):
        self.generic_visit(node)
        ok, a = self._value(node.operand)
        if ok and isinstance(a, PLAIN):
            return self._computed(node, lambda: _UNARY[type(node.op)](a))
        return node

    def visit_BoolOp(self, node):
        self.generic_visit(node)
        values = list(node.values)
        is_and = isinstance(node.op, pyast.And)
        # known operands at the front decide or drop out; the last operand is the value
        while len(values) > 1:
            ok, v = self._value(values[0])
            if not ok or not isinstance(v, PLAIN):
                break
            if bool(v) != is_and:      # `False and x`, `True or x`: the known value is the result
                return self._const(v, node) or node
            values.pop(0)
        if len(values) == 1:
            return values[0]
        if len(values) != len(node.values):
            return pyast.copy_location(pyast.BoolOp(op=node.op, values=values), node)
        return node

    def visit_Call(self, node):
        """A grid cell of known row and column inside the grid (`_cell(0, 2, 3, 3)`, after a
        loop value stood in) is its number; outside, the call stays and names the cell."""
        self.generic_visit(node)
        if isinstance(node.func, pyast.Name) and node.func.id == "_cell" and len(node.args) == 4 \
                and not node.keywords:
            vals = [self._value(a) for a in node.args]
            if all(ok and type(v) is int for ok, v in vals):
                r, c, rows, cols = (v for _, v in vals)
                if 0 <= r < rows and 0 <= c < cols:
                    return self._const(r * cols + c, node)
        return node

    def visit_IfExp(self, node):
        self.generic_visit(node)
        ok, v = self._value(node.test)
        if ok and isinstance(v, PLAIN):
            return node.body if v else node.orelse
        return node


def _compare(ops, vals):
    for op, a, b in zip(ops, vals, vals[1:]):
        if not _COMPARE[type(op)](a, b):
            return False
    return True


_COMPARE = {pyast.Eq: operator.eq, pyast.NotEq: operator.ne, pyast.Lt: operator.lt,
            pyast.LtE: operator.le, pyast.Gt: operator.gt, pyast.GtE: operator.ge,
            pyast.Is: operator.is_, pyast.IsNot: operator.is_not,
            pyast.In: lambda a, b: a in b, pyast.NotIn: lambda a, b: a not in b}
_ORDERING = (pyast.Lt, pyast.LtE, pyast.Gt, pyast.GtE)
_UNARY = {pyast.Not: operator.not_, pyast.USub: operator.neg, pyast.UAdd: operator.pos}

