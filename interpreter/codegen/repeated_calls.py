"""A def called again with the same arguments in a function that never changes the state is
computed once, at the first call that runs.

Rules often ask the same question twice in one expression or one function: `bonus_for(p)`
(a walk of the player's cards) under the test of each good of a cost, `free_spaces()` in
two of a move's tests. A def is a function of the state and its arguments, and such a
function (a def, a legal-move generator) changes neither, so every call of `D_f(V, me, l_p)`
in it has one value. When the same call (the same text, its arguments constants,
parameters the function never binds again, or names it sets once at its top before the
call, such as a table read `_tb1 = A3_Card_kind[l_c]`) is written twice or more, each becomes

    (_rc1 if _rc1 is not ... else (_rc1 := D_bonus_for(V, me, l_p)))

with `_rc1 = ...` (lines.UNSET) at the function's top: the def runs where the first of them runs, and
not at all where none does, so it raises exactly where the original first raised. Only defs
whose value is a plain one (a number, a truth value, text, a component, a player, none) are
shared so: a list would be one object where the rules made a new one per call, and a caller
may change its copy. Calls inside comprehensions are left alone (`:=` there binds elsewhere).
"""

from __future__ import annotations

import ast as pyast

from .. import types as T
from .lines import UNSET, Lines, each_function, parse_function, write_with_locals
from .tabulate import bounded_and_stateless

_VAR = "_rc"
# nodes inside which a call is left as it is (`:=` there binds elsewhere or is refused)
_OPAQUE = (pyast.Lambda, pyast.ListComp, pyast.SetComp, pyast.DictComp, pyast.GeneratorExp,
           pyast.FunctionDef)
# what makes a def worth remembering: a walk (a def without one costs about what remembering
# it costs)
_WALKS = (pyast.For, pyast.While, pyast.ListComp, pyast.SetComp, pyast.DictComp, pyast.GeneratorExp)


def plain_value(t) -> bool:
    """A type whose values are numbers, truth values, text, components, players or none."""
    if t is None:
        return False
    s = T.strip(t)
    return s in (T.INT, T.BOOL, T.STR) or isinstance(s, T.IntRange) or T.is_indexed(s)


def shareable_defs(compiled: list, returns: dict) -> frozenset:
    """The defs (generated names) whose repeated calls are made once, from their compiled
    lines: those with a plain value (`returns`: a def's rules name -> its value's type) that
    walk something, but for the ones likely to become tables (codegen/tabulate.py reads
    those calls from a table instead)."""
    out = set()
    for lines in compiled:
        fn = parse_function(lines.items) if lines.items else None
        if fn is None or not fn.name.startswith("D_") or (len(fn.args.args) == 3 and bounded_and_stateless(fn)) \
                or not any(isinstance(n, _WALKS) for n in pyast.walk(fn)):
            continue
        if plain_value(returns.get(fn.name[2:])):
            out.add(fn.name)
    return frozenset(out)


def share_repeated_calls(lines: Lines, defs: frozenset) -> Lines:
    """Every function of `lines` with its repeated calls of `defs` (generated names of defs with
    plain values) made once."""
    if not defs:
        return lines
    return each_function(lines, lambda func, out: _one(func, out, defs))


def _one(func: list, out: Lines, defs: frozenset):
    fn = parse_function(func)
    groups = _groups(fn, defs) if fn is not None else {}
    shared = [(pyast.unparse(calls[0]), [(call, "") for call in calls])
              for calls in groups.values() if len(calls) >= 2]
    if not shared:
        for item in func:
            out.add(*item)
        return
    remember(func, fn, shared, _VAR, out)


def remember(func: list, fn, shared: list, prefix: str, out: Lines):
    """Write `func` (parsed: fn) to out with each group of `shared`, (the text of a value,
    [(a call, what follows the value in its place)]), read from one local set at the first
    of its calls that runs: `(_rc1 if _rc1 is not ... else (_rc1 := <value>))<suffix>`,
    the locals named `prefix`<n> and set to ... (UNSET) at the function's top."""
    write_with_locals(func, fn, shared, prefix, out, lambda var, value: f"{var} = {UNSET}",
                      lambda var, value, suffix: f"({var} if {var} is not {UNSET} else ({var} := {value})){suffix}")


def _groups(fn, defs: frozenset) -> dict:
    """A call's text -> the calls of a def of `defs` with that text whose arguments cannot
    change in the function (none of them inside another: each is a whole argument list of
    names and constants)."""
    fixed = fixed_names(fn)
    opaque = opaque_nodes(fn)
    groups: dict[str, list] = {}
    for j, st in enumerate(fn.body):
        for n in pyast.walk(st):
            if isinstance(n, pyast.Call) and isinstance(n.func, pyast.Name) and n.func.id in defs \
                    and not n.keywords and id(n) not in opaque and n.lineno == n.end_lineno \
                    and all(unchanging(a, fixed, j) for a in n.args):
                groups.setdefault(pyast.unparse(n), []).append(n)
    return groups


def opaque_nodes(fn) -> set[int]:
    """The ids of the nodes inside comprehensions, lambdas and nested functions of fn."""
    return {id(x) for n in pyast.walk(fn) if isinstance(n, _OPAQUE) and n is not fn for x in pyast.walk(n)}


def fixed_names(fn) -> dict[str, int]:
    """The names that keep one value once set in the function: its parameters that it never
    binds again (-1), and names it binds once, by an assignment of its own at the top of
    its body (the index of that statement in the body: a call after it reads that value)."""
    stores: dict[str, int] = {}
    for n in pyast.walk(fn):
        if isinstance(n, pyast.Name) and not isinstance(n.ctx, pyast.Load):
            stores[n.id] = stores.get(n.id, 0) + 1
    out = {a.arg: -1 for a in fn.args.args if a.arg not in stores}
    for j, st in enumerate(fn.body):
        if isinstance(st, pyast.Assign) and len(st.targets) == 1 and isinstance(st.targets[0], pyast.Name) \
                and stores.get(st.targets[0].id) == 1 and st.targets[0].id not in out:
            out[st.targets[0].id] = j
    return out


def unchanging(e, fixed: dict[str, int], at: int) -> bool:
    """A constant, or a name `fixed_names` found set before the statement `at` of the body."""
    if isinstance(e, pyast.Constant):
        return True
    return isinstance(e, pyast.Name) and fixed.get(e.id, at) < at
