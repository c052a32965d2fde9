"""Render AST expressions back to rules text (for messages, not for round trips)."""

from __future__ import annotations

from . import ast

_PREC = {"or": 1, "and": 2, "not": 3, "cmp": 4, "+": 5, "-": 5, "*": 6, "/": 6, "%": 6, "neg": 7}


def render_expr(e, prec: int = 0) -> str:
    k = type(e)
    if k is ast.IntLit:
        return str(e.value)
    if k is ast.StrLit:
        return '"' + e.value.replace('"', '\\"') + '"'
    if k is ast.BoolLit:
        return "true" if e.value else "false"
    if k is ast.NoneLit:
        return "none"
    if k is ast.Me:
        return "me"
    if k is ast.Name:
        return e.name
    if k is ast.Attr:
        return f"{render_expr(e.obj, 9)}.{e.name}"
    if k is ast.Index:
        return f"{render_expr(e.obj, 9)}[{render_expr(e.index)}]"
    if k is ast.Slice:
        low = render_expr(e.low) if e.low is not None else ""
        high = render_expr(e.high) if e.high is not None else ""
        return f"{render_expr(e.obj, 9)}[{low}:{high}]"
    if k is ast.Call:
        return f"{e.func}({', '.join(render_expr(a) for a in e.args or [])})"
    if k is ast.ListLit:
        return "[" + ", ".join(render_expr(a) for a in e.items) + "]"
    if k in (ast.GeneratorCall, ast.ListComp):
        clauses = " ".join(f"for {c.var} in {render_expr(c.iter, 1)}" +
                           (f" where {render_expr(c.cond, 1)}" if c.cond is not None else "") for c in e.clauses)
        inner = f"{render_expr(e.elem)} {clauses}"
        return f"{e.func}({inner})" if k is ast.GeneratorCall else f"[{inner}]"
    if k is ast.Binary:
        p = _PREC[e.op]
        s = f"{render_expr(e.left, p)} {e.op} {render_expr(e.right, p + 1)}"
        return f"({s})" if p < prec else s
    if k is ast.Compare:
        p = _PREC["cmp"]
        s = f"{render_expr(e.left, p + 1)} {e.op} {render_expr(e.right, p + 1)}"
        return f"({s})" if p < prec else s
    if k is ast.BoolOp:
        p = _PREC[e.op]
        s = f"{render_expr(e.left, p)} {e.op} {render_expr(e.right, p + 1)}"
        return f"({s})" if p < prec else s
    if k is ast.NotOp:
        s = f"not {render_expr(e.operand, _PREC['not'])}"
        return f"({s})" if _PREC["not"] < prec else s
    if k is ast.Neg:
        return f"-{render_expr(e.operand, _PREC['neg'])}"
    if k is ast.CondExpr:
        s = f"{render_expr(e.then, 1)} if {render_expr(e.cond, 1)} else {render_expr(e.other)}"
        return f"({s})" if prec > 0 else s
    return e.kind
