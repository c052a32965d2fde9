"""Expressions in a statement context -> lines of Python plus the expression that uses them.

Python builds a generator (for `any`/`all`) or calls a hidden function (for a comprehension)
every time one is evaluated, and inside a filter over 48 cells that is most of the work.
Where the generated code can hold statements (a legal-move generator, a function body, an
effect), a quantifier or comprehension becomes a loop written out in place, with an early
exit for `any`/`all`, and its result in a temporary:

    any(board[n] != none for n in adjacent(c))    ->    _q1 = False
                                                         for _c2_n in ADJ_board[l_c]:
                                                             if (V[0][_c2_n] is not None):
                                                                 _q1 = True; break

Short-circuits are kept: the right side of `and`/`or` and the branches of `x if c else y`
are computed inside an `if`, so nothing the original expression would not evaluate is
evaluated. Strict operands may be computed in a different order, which only changes which
of two runtime errors is reported.
"""

from __future__ import annotations

from .. import ast
from .. import types as T
from .expr import _LOOPS, KIND_BLIND
from .lines import Lines


def needs_lowering(e) -> bool:
    """Does e contain a comprehension or quantifier (worth writing out as a loop)?"""
    return any(isinstance(n, _LOOPS) for n in e.walk())


class Lowerer:
    def __init__(self, eg, fresh):
        self.eg = eg
        self.fresh = fresh            # fresh(base) -> a new unique Python name

    def expr(self, e, env, out: Lines, ind: int) -> str:
        """Lines computing e's heavy parts go into `out` at `ind`; returns e's source."""
        return self._with_pre(e, env, out, ind, self.eg.gen)

    def value(self, e, env, out, ind) -> str:
        """As expr, for a value that is kept (maps copied: see ExprGen.value)."""
        if not needs_lowering(e):
            return self.eg.value(e, env)
        src = self.expr(e, env, out, ind)
        if isinstance(T.strip(self.eg.t(e)), T.MapType) and not src.startswith("_maplit("):
            return f"list({src})"
        return src

    def distinct(self, e, env, out, ind) -> str:
        """The distinct values of e (a parameter's or a choice's domain; see ExprGen.distinct)."""
        return self._with_pre(e, env, out, ind, self.eg.distinct)

    def iterable(self, e, env, out, ind, kinds_only: bool = False) -> str:
        return self._with_pre(e, env, out, ind, lambda x, en: self.eg.iterable(x, en, kinds_only))

    def _with_pre(self, e, env, out, ind, render) -> str:
        if not needs_lowering(e) or not self.eg.optimise:
            return render(e, env)
        added: list[int] = []
        self._pre(e, env, out, ind, added)
        try:
            return render(e, env)
        finally:
            for k in added:
                self.eg.subst.pop(k, None)

    def test(self, e, env, out, ind, fail: str):
        """`if not e: <fail>` with e's loops written out before it; `and`, `or` and a
        one-clause `any` become control flow rather than values (in the plain compilation,
        one `if` of the expression as it is)."""
        if not self.eg.optimise:
            out.add(ind, f"if not {_paren(self.eg.gen(e, env))}: {fail}", e.span)
            return
        k = type(e)
        if k is ast.BoolOp and e.op == "and":
            self.test(e.left, env, out, ind, fail)
            self.test(e.right, env, out, ind, fail)
            return
        if k is ast.BoolOp and e.op == "or" and needs_lowering(e.right):
            left = self.expr(e.left, env, out, ind)
            out.add(ind, f"if not {_paren(left)}:", e.span)
            self.test(e.right, env, out, ind + 1, fail)
            return
        if k is ast.GeneratorCall and e.func == "any" and len(e.clauses) == 1:
            cl = e.clauses[0]
            it = self.iterable(cl.iter, env, out, ind, kinds_only=True)
            inner = dict(env)
            var = self.fresh("_c" + cl.var)
            inner[cl.var] = var
            out.add(ind, f"for {var} in {it}:", cl.span)
            if cl.cond is not None:
                self.test(cl.cond, inner, out, ind + 1, "continue")
            elem = self.expr(e.elem, inner, out, ind + 1)
            out.add(ind + 1, f"if {elem}: break", e.span)
            out.add(ind, "else:", e.span)              # no element passed: the test fails
            out.add(ind + 1, fail, e.span)
            return
        src = self.expr(e, env, out, ind)
        out.add(ind, f"if not {_paren(src)}: {fail}", e.span)

    # ------------------------------------------------------------------

    def _pre(self, e, env, out, ind, added):
        if not needs_lowering(e):
            return
        k = type(e)
        if k is ast.GeneratorCall and self.eg.kind_count(e, env) is not None:
            return                              # one lookup: nothing to write out
        if k is ast.GeneratorCall or k is ast.ListComp:
            tmp = self._loop(e, env, out, ind)
        elif k is ast.BoolOp and needs_lowering(e.right):
            tmp = self.fresh("_b")
            left = self.expr(e.left, env, out, ind)
            out.add(ind, f"{tmp} = {left}", e.span)
            out.add(ind, f"if {'' if e.op == 'and' else 'not '}{tmp}:", e.span)
            right = self.expr(e.right, env, out, ind + 1)
            out.add(ind + 1, f"{tmp} = {right}", e.span)
        elif k is ast.CondExpr and (needs_lowering(e.then) or needs_lowering(e.other)):
            tmp = self.fresh("_e")
            cond = self.expr(e.cond, env, out, ind)
            out.add(ind, f"if {cond}:", e.span)
            out.add(ind + 1, f"{tmp} = {self.expr(e.then, env, out, ind + 1)}", e.span)
            out.add(ind, "else:", e.span)
            out.add(ind + 1, f"{tmp} = {self.expr(e.other, env, out, ind + 1)}", e.span)
        else:
            for c in e.children():
                if isinstance(c, ast.Expr):
                    self._pre(c, env, out, ind, added)
                elif isinstance(c, ast.MapEntry):
                    self._pre(c.key, env, out, ind, added)
                    self._pre(c.value, env, out, ind, added)
            return
        self.eg.subst[id(e)] = tmp
        added.append(id(e))

    def _loop(self, e, env, out: Lines, ind: int) -> str:
        """A comprehension or quantifier as nested loops; returns the temporary holding it."""
        func = e.func if isinstance(e, ast.GeneratorCall) else "list"
        tmp = self.fresh("_q")
        start = {"any": "False", "all": "True", "count": "0", "sum": "0"}.get(func, "[]")
        out.add(ind, f"{tmp} = {start}", e.span)
        env = dict(env)
        depth = ind
        early = func in ("any", "all")
        for cl in e.clauses:
            it = self.iterable(cl.iter, env, out, depth, kinds_only=self.eg.optimise and func in KIND_BLIND)
            var = self.fresh("_c" + cl.var)
            env[cl.var] = var
            out.add(depth, f"for {var} in {it}:", cl.span)
            depth += 1
            if cl.cond is not None:
                self.test(cl.cond, env, out, depth, "continue")
        if func == "count":
            out.add(depth, f"{tmp} += 1", e.span)
        else:
            elem = self.expr(e.elem, env, out, depth)
            if func == "any":
                out.add(depth, f"if {elem}:", e.span)
                out.add(depth + 1, f"{tmp} = True; break", e.span)
            elif func == "all":
                out.add(depth, f"if not {_paren(elem)}:", e.span)
                out.add(depth + 1, f"{tmp} = False; break", e.span)
            elif func == "sum":
                out.add(depth, f"{tmp} += {elem}", e.span)
            else:                                   # list, min, max
                out.add(depth, f"{tmp}.append({elem})", e.span)
        if early:
            # leave the outer loops too once the answer is known
            for d in range(depth - 2, ind - 1, -1):
                out.add(d + 1, f"if {'' if func == 'any' else 'not '}{tmp}: break", e.span)
        if func in ("min", "max"):
            out.add(ind, f"{tmp} = {func}({tmp})", e.span)
        return tmp


def _paren(src: str) -> str:
    return src if src.startswith("(") and src.endswith(")") and _balanced_outer(src) else f"({src})"


def _balanced_outer(src: str) -> bool:
    """Is src one parenthesised group from its first to its last character?"""
    depth = 0
    for i, ch in enumerate(src):
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
            if depth == 0 and i != len(src) - 1:
                return False
    return True
