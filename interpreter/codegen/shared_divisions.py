"""A division of a parameter by a constant, written more than once in a function, computed once
at its top.

A grid's cell is one number, its row `c // COLUMNS` and its column `c % COLUMNS`, so a def
walking the lines through a cell (written out by the inliner and the unroller: four
directions, two ways each) divides the same parameter eight times and more; Python's
division of whole numbers costs several additions. Where `l_c // 7` or `l_c % 7` (the
divisor a whole-number constant other than 0, the dividend made of parameters and constants
by `+`, `-`, `*`) occurs twice or more in a function that never binds those parameters again,
it is computed once into a local at the function's top and read there. The parameters are
those whose type numbers its values (a cell, a player, a component, an enum value: the
checker passes no other value, never none), so the division cannot raise: computing it where
the original would not have computed it (before an early `return`) costs one division and
changes nothing else. Uses inside comprehensions and lambdas are left as they are (reading
the local there would make it a closure's).
"""

from __future__ import annotations

import ast as pyast

from .lines import Lines, each_function, parse_function, write_with_locals
from .repeated_calls import opaque_nodes

_PREFIX = "_dv"
_ARITH = (pyast.Add, pyast.Sub, pyast.Mult)


def share_parameter_divisions(lines: Lines, params: dict | None) -> Lines:
    """Every function of `lines` with its repeated divisions of `params` (generated names of
    parameters of a numbered type, never none) by constants computed once."""
    if not params:
        return lines
    return each_function(lines, lambda func, out: _one(func, out, set(params)))


def _one(func: list, out: Lines, params: set[str]):
    fn = parse_function(func)
    groups = _groups(fn, params) if fn is not None else {}
    shared = [(text, nodes) for text, nodes in groups.items() if len(nodes) >= 2]
    if not shared:
        for item in func:
            out.add(*item)
        return
    write_with_locals(func, fn, [(text, [(n, "") for n in nodes]) for text, nodes in shared], _PREFIX, out,
                      lambda var, value: f"{var} = {value}", lambda var, value, suffix: var)


def _groups(fn, params: set[str]) -> dict:
    """A division's text -> its occurrences (outermost ones: a division inside another
    shared one is read through it)."""
    stored = {n.id for n in pyast.walk(fn) if isinstance(n, pyast.Name) and not isinstance(n.ctx, pyast.Load)}
    fixed = {a.arg for a in fn.args.args if a.arg in params and a.arg not in stored}
    if not fixed:
        return {}
    opaque = opaque_nodes(fn)
    groups: dict[str, list] = {}
    inside: set[int] = set()
    for n in pyast.walk(fn):          # (outer nodes first: breadth first)
        if id(n) in inside or id(n) in opaque:
            continue
        if _division(n, fixed) and n.lineno == n.end_lineno:
            groups.setdefault(pyast.unparse(n), []).append(n)
            inside.update(id(x) for x in pyast.walk(n))
    return groups


def _division(n, fixed: set[str]) -> bool:
    return isinstance(n, pyast.BinOp) and isinstance(n.op, (pyast.FloorDiv, pyast.Mod)) \
        and isinstance(n.right, pyast.Constant) and type(n.right.value) is int and n.right.value != 0 \
        and _integral(n.left, fixed)


def _integral(e, fixed: set[str]) -> bool:
    """A whole number computed from `fixed` names and whole-number constants (cannot raise)."""
    if isinstance(e, pyast.Name):
        return e.id in fixed
    if isinstance(e, pyast.Constant):
        return type(e.value) is int
    if isinstance(e, pyast.BinOp) and isinstance(e.op, _ARITH):
        return _integral(e.left, fixed) and _integral(e.right, fixed)
    if isinstance(e, pyast.UnaryOp) and isinstance(e.op, pyast.USub):
        return _integral(e.operand, fixed)
    return False
