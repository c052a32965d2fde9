"""Pure functions (`def`) and hooks with their modifiers -> Python functions `D_<name>(V, me, ...)`.

A def reads the state and never changes it. A hook is a def that modifiers may change: the
hook's own value first, then the modifiers that set it (`=`) and those that adjust it
(`+=`, `-=`), each in declaration order, each only while its `when` holds.
"""

from __future__ import annotations

from itertools import count

from .. import ast
from ..symbols import CheckedProgram
from .expr import ExprGen
from .lines import Lines, Module
from .lower import Lowerer, needs_lowering


def def_lines(prog: CheckedProgram, eg: ExprGen, c, fresh=None) -> Lines:
    """The Python function(s) of one def or hook, with each line's rules span."""
    if fresh is None:
        numbers = count(1)
        fresh = lambda base: f"{base}_{next(numbers)}"   # noqa: E731
    low = Lowerer(eg, fresh)
    d = c.decl
    params = "".join(f", l_{name}" for name, _ in c.params)
    env = {name: f"l_{name}" for name, _ in c.params}
    out = Lines()
    name = f"D_{d.name}"
    mods = prog.modifiers.get(d.name, []) if d.hook else []
    if not mods:        # a def, or a hook nothing changes here: a plain function
        _function(out, low, c, name, params, env)
        return out
    base = f"DB_{d.name}"
    out.add(0, f"def {name}(V, me{params}):", d.span)
    if d.expr is not None:
        out.add(1, f"_v = {low.expr(d.expr, env, out, 1)}", d.expr.span)
    else:
        out.add(1, f"_v = {base}(V, me{params})", d.span)
    # values set first (in declaration order), then the adjustments (in declaration order)
    for m in [x for x in mods if x.op == "="] + [x for x in mods if x.op != "="]:
        menv = {b: f"l_{pname}" for b, (pname, _) in zip(m.params or [], c.params)}
        ind = 1
        if m.cond is not None:
            out.add(1, f"if {low.expr(m.cond, menv, out, 1)}:", m.cond.span)
            ind = 2
        out.add(ind, f"_v {m.op} {low.expr(m.value, menv, out, ind)}", m.value.span)
    out.add(1, "return _v", d.span)
    if d.expr is None:
        _function(out, low, c, base, params, env)
    return out


def compile_def_source(prog: CheckedProgram, eg: ExprGen, c) -> str:
    """The same as text (for evaluating defs when the rules are loaded)."""
    m = Module()
    m.add_lines(def_lines(prog, eg, c))
    return m.source()


def _function(out: Lines, low: Lowerer, c, fname, params, env):
    d = c.decl
    out.add(0, f"def {fname}(V, me{params}):", d.span)
    if d.expr is not None:
        out.add(1, f"return {low.expr(d.expr, env, out, 1)}", d.expr.span)
        return
    _block(d.body, env, low, out, 1)


def _block(body, env, low: Lowerer, out: Lines, ind):
    env = dict(env)
    n0 = len(out)
    for s in body:
        if isinstance(s, ast.LetStmt):
            val = low.expr(s.value, env, out, ind)
            var = low.fresh(f"lt_{s.name}")   # never a parameter's l_<name>
            out.add(ind, f"{var} = {val}", s.span)
            env[s.name] = var
        elif isinstance(s, ast.ReturnStmt):
            out.add(ind, f"return {low.expr(s.value, env, out, ind)}", s.span)
        elif isinstance(s, ast.IfStmt):
            _if(s, [(s.cond, s.body)] + [(e.cond, e.body) for e in s.elifs], env, low, out, ind)
    if len(out) == n0:
        out.add(ind, "pass")


def _if(s, branches, env, low, out, ind):
    """if/elif/else; an elif whose test needs lines of its own becomes `else: <lines> if`."""
    cond, body = branches[0]
    out.add(ind, f"if {low.expr(cond, env, out, ind)}:", cond.span)
    _block(body, env, low, out, ind + 1)
    rest = branches[1:]
    while rest:
        cond, body = rest[0]
        if needs_lowering(cond):
            out.add(ind, "else:", cond.span)
            _if(s, rest, env, low, out, ind + 1)
            return
        out.add(ind, f"elif {low.expr(cond, env, out, ind)}:", cond.span)
        _block(body, env, low, out, ind + 1)
        rest = rest[1:]
    if s.other is not None:
        out.add(ind, "else:", s.span)
        _block(s.other, env, low, out, ind + 1)
