"""Inlined calls written as statements where the generated code can hold them.

A small def written in place of its call (codegen/expr.py, `_inline`) binds its arguments
with `:=` inside a tuple whose last element is the body, so that it stays one expression:

    1 + ((_i7_r := l_c // 7), (_i8_c := l_c % 7 + 1),
         0 if _i8_c >= 7 or _V0[_i7_r * 7 + _i8_c] != _tb1 else 1 + (<the next step>)[1])[2]

A def that calls itself is unfolded three steps so, each step a tuple built and indexed.
Where such a tuple is computed whenever its statement runs (an operand of arithmetic or of a
comparison's first pair, an argument of a call, not a branch of `and`/`or`/`if`), it is
written before the statement instead, its bindings as assignments and its conditional body
as an `if` setting a temporary, and the statement reads the temporary:

    _i7_r = l_c // 7
    _i8_c = l_c % 7 + 1
    if _i8_c >= 7 or _V0[_i7_r * 7 + _i8_c] != _tb1:
        _st1 = 0
    else:
        <the next step, the same way, each of its branches setting _st1 to 1 + its value>
    if 1 + _st1 + ... >= 4:

A conditional in such a place with a step in a branch (the body of a def inlined with no
argument to bind, or a conditional of the rules asking an inlined def in one branch) is
written as an `if` setting a temporary the same way, each branch's steps inside it. A whole-number constant added to a step is summed into its branches (`_st1 = 2`, `_st1 = 3 +
D_run(...)`: the same whole numbers, the addition to a computed value still made last). An
`elif` whose test has such a tuple becomes `else:` with the statements and an `if`. Only
functions that never change the state are rewritten (defs, legal-move generators, checks),
so the values computed are the same; a tuple is moved before the parts of its statement that
Python would have computed first only when those bind no name (`:=`) and it binds no name
they read, which at most changes which of two errors is reported (as codegen/lower.py).
Nothing the original would not compute is computed: the branches of a conditional are
written inside their `if`.
"""

from __future__ import annotations

import ast as pyast

from .lines import Lines, each_function, fresh_names, parse_function
from .unroll import emit_function

_PREFIX = "_st"


def inline_steps_as_statements(lines: Lines) -> Lines:
    """Every function of `lines` (functions that never change the state) with its inlined
    calls at statement level written as statements."""
    return each_function(lines, _one)


def _one(func: list, out: Lines):
    fn = parse_function(func)
    if fn is None or not any(_is_step(n) for n in pyast.walk(fn)):
        for item in func:
            out.add(*item)
        return
    names = {n.id for n in pyast.walk(fn) if isinstance(n, pyast.Name)}
    rw = _Rewriter(names)
    body = rw.block(fn.body)
    emit_function(func, body if rw.changed else None, out)


def _is_step(e) -> bool:
    """`(a := x, b := y, value)[2]`: an inlined call's bindings and its value, the value read."""
    if not (isinstance(e, pyast.Subscript) and isinstance(e.value, pyast.Tuple)
            and isinstance(e.slice, pyast.Constant) and type(e.slice.value) is int):
        return False
    elts = e.value.elts
    return len(elts) >= 2 and e.slice.value == len(elts) - 1 \
        and all(isinstance(x, pyast.NamedExpr) and isinstance(x.target, pyast.Name) for x in elts[:-1]) \
        and not any(isinstance(x, pyast.Starred) for x in elts)


def _conditional_with_steps(e) -> bool:
    """`x if c else y` with a step in a branch: written as an `if` setting a temporary, so
    that the step can be a statement too."""
    return isinstance(e, pyast.IfExp) and any(_is_step(n) for n in pyast.walk(e))


def _binds(node) -> set[str]:
    return {n.target.id for n in pyast.walk(node) if isinstance(n, pyast.NamedExpr)
            and isinstance(n.target, pyast.Name)}


def _strict_children(e) -> list:
    """The parts of e Python computes whenever it computes e, in its order; the others (the
    right side of `and`/`or`, a conditional's branches, a comparison's later pairs, what a
    comprehension or lambda computes) are not listed."""
    if isinstance(e, pyast.BinOp):
        return [e.left, e.right]
    if isinstance(e, pyast.UnaryOp):
        return [e.operand]
    if isinstance(e, pyast.Compare):
        return [e.left, e.comparators[0]]
    if isinstance(e, pyast.BoolOp):
        return [e.values[0]]
    if isinstance(e, pyast.IfExp):
        return [e.test]
    if isinstance(e, pyast.Call):
        if e.keywords or any(isinstance(a, pyast.Starred) for a in e.args):
            return []
        return [e.func, *e.args]
    if isinstance(e, pyast.Subscript):
        return [e.value, e.slice]
    if isinstance(e, pyast.NamedExpr):
        return [e.value]
    if isinstance(e, (pyast.Tuple, pyast.List)) and not any(isinstance(x, pyast.Starred) for x in e.elts):
        return list(e.elts)
    return []


class _Rewriter:
    def __init__(self, names: set[str]):
        self.fresh = fresh_names(_PREFIX, names)     # (temporaries avoid the function's names)
        self.changed = False

    # ------------------------------------------------------------------ statements

    def block(self, stmts: list) -> list:
        out = []
        for st in stmts:
            out.extend(self.statement(st))
        return out

    def statement(self, st) -> list:
        if isinstance(st, pyast.If):
            pre, test = self.hoist(st.test, st)
            new = pyast.If(test=test, body=self.block(st.body), orelse=self.block(st.orelse))
            pyast.copy_location(new, st)
            return pre + [new]
        if isinstance(st, (pyast.For, pyast.While)):
            new = type(st)(**{f: getattr(st, f) for f in st._fields})
            new.body = self.block(st.body)
            new.orelse = self.block(st.orelse)
            pyast.copy_location(new, st)
            return [new]
        if isinstance(st, pyast.Return) and st.value is not None:
            pre, value = self.hoist(st.value, st)
            return pre + [pyast.copy_location(pyast.Return(value=value), st)] if pre else [st]
        if isinstance(st, pyast.Assign) and len(st.targets) == 1 and isinstance(st.targets[0], pyast.Name):
            pre, value = self.hoist(st.value, st)
            return pre + [pyast.copy_location(pyast.Assign(targets=st.targets, value=value), st)] if pre else [st]
        if isinstance(st, pyast.Expr):
            pre, value = self.hoist(st.value, st)
            return pre + [pyast.copy_location(pyast.Expr(value=value), st)] if pre else [st]
        return [st]

    # ------------------------------------------------------------------ expressions

    def hoist(self, e, at) -> tuple[list, object]:
        """(statements computing e's steps, e reading their temporaries); the statements
        carry `at`'s line (e's statement's)."""
        steps = []
        self._find(e, steps, e, [False])
        if not steps:
            return [], e
        self.changed = True
        pre = []
        replace = {}
        for step in steps:
            var = next(self.fresh)
            pre.extend(self.set_to(var, step, at))
            replace[id(step)] = var
        return pre, _Replace(replace).visit(e)

    def _find(self, e, steps: list, whole, blocked: list):
        """The steps of e in strict places, in Python's order, that can move before the
        statement: each is taken when nothing computed before it binds a name and it binds
        no name the rest of the statement reads. `blocked[0]` turns true at the first part
        that binds a name and stays in place (nothing after it moves)."""
        if blocked[0]:
            return
        if _is_step(e) or _conditional_with_steps(e):
            bound = _binds(e)
            if not bound & _reads_outside(whole, e):
                steps.append(e)
                return
        strict = _strict_children(e)
        strict_ids = {id(x) for x in strict}
        for child in pyast.iter_child_nodes(e):
            if id(child) in strict_ids:
                self._find(child, steps, whole, blocked)
            elif _binds(child) and not blocked[0]:
                # a part that may or may not be computed, in Python's order among the strict ones
                blocked[0] = True
            if blocked[0]:
                return
        if isinstance(e, pyast.NamedExpr):      # its own binding stays where it is
            blocked[0] = True

    def assign(self, var: str, step, at, wraps: tuple = ()) -> list:
        """Statements setting `var` to the value of step (`(a := x, ..., value)[k]`), with
        `wraps` around it (see set_to)."""
        out = []
        for b in step.value.elts[:-1]:
            pre, value = self.hoist(b.value, at)
            out.extend(pre)
            out.append(_at(pyast.Assign(targets=[pyast.Name(id=b.target.id, ctx=pyast.Store())], value=value), at))
        out.extend(self.set_to(var, step.value.elts[-1], at, wraps))
        return out

    def set_to(self, var: str, e, at, wraps: tuple = ()) -> list:
        """Statements setting `var` to e: a conditional as an `if`, its branches each set.
        `wraps`: whole-number constants the value is added to, innermost first (`1 + step`
        sets each branch to 1 + its value, a constant branch to the sum: `_st1 = 2`)."""
        if isinstance(e, pyast.IfExp):
            pre, test = self.hoist(e.test, at)
            return pre + [_at(pyast.If(test=test, body=self.set_to(var, e.body, at, wraps),
                                       orelse=self.set_to(var, e.orelse, at, wraps)), at)]
        if _is_step(e):
            return self.assign(var, e, at, wraps)
        added = _added_constant(e)
        if added is not None and _is_step(added[1]):
            return self.assign(var, added[1], at, wraps + (added[0],))
        pre, value = self.hoist(e, at)
        return pre + [_at(pyast.Assign(targets=[pyast.Name(id=var, ctx=pyast.Store())],
                                       value=_wrapped(value, wraps)), at)]


def _added_constant(e):
    """(c, x) for `c + x` with c a whole-number constant, else None."""
    if isinstance(e, pyast.BinOp) and isinstance(e.op, pyast.Add) and _whole(e.left):
        return e.left.value, e.right
    return None


def _whole(e) -> bool:
    return isinstance(e, pyast.Constant) and type(e.value) is int


def _wrapped(value, wraps: tuple):
    """`c1 + (c2 + ... value)` for wraps (c_inner, ..., c_outer): the constants summed first
    (whole numbers: the same value, the addition to `value` last as in the original), with
    `value` itself when it is a constant or a constant plus something."""
    if not wraps:
        return value
    total = sum(wraps)
    if _whole(value):
        return pyast.Constant(value=total + value.value)
    added = _added_constant(value)
    if added is not None:
        total += added[0]
        value = added[1]
    return pyast.BinOp(left=pyast.Constant(value=total), op=pyast.Add(), right=value)


def _reads_outside(whole, part) -> set[str]:
    """The names `whole` reads outside `part`."""
    inside = {id(n) for n in pyast.walk(part)}
    return {n.id for n in pyast.walk(whole) if id(n) not in inside
            and isinstance(n, pyast.Name) and isinstance(n.ctx, pyast.Load)}


def _at(node, at):
    """node at `at`'s line (its rules span, when the lines are written again)."""
    if at is not None and hasattr(at, "lineno"):
        node.lineno = at.lineno
        node.end_lineno = getattr(at, "end_lineno", at.lineno)
    return node


class _Replace(pyast.NodeTransformer):
    def __init__(self, replace: dict):
        self.replace = replace

    def visit(self, node):
        var = self.replace.get(id(node))
        if var is not None:
            return pyast.Name(id=var, ctx=pyast.Load())
        return super().visit(node)
