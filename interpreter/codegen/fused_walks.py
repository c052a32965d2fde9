"""A def that sums one column of a table over a walk of the state, called for several
columns with the same other arguments, walks once for all of them.

The rules ask for a discount per good, each a sum over a player's cards:

    def discount(p: Player, c: Card, g: Good) -> int =
        sum(x.bonus[g] for x in p.cards where x.kind == c.kind)

and a test of affordability asks it for every good in turn, `discount(p, c, 0)`,
`discount(p, c, 1)`, ..., each call walking the player's cards again. The def compiles to

    def D_discount(V, me, l_p, l_c, l_g):
        _q_1 = 0
        for _ck_2 in V[21][l_p]:
            if not (...): continue
            _q_1 += A3_Card_bonus[_ck_2][l_g]
        return _q_1

Its last parameter is read once, as the column of a table whose rows are lists of whole
numbers of one length N. So the module also holds `DV_discount(V, me, l_p, l_c)`, the
same walk summing whole rows (`_q_1 = [*map(_vadd, _q_1, A3_Card_bonus[_ck_2])]`, from
N zeros), and a function that never changes the state (a def, a legal-move generator)
and calls the def twice or more with the same other arguments (constants, its parameters and
names it sets once at its top, never bound again) and a column known to exist (a constant, or the variable of a loop over
a table of such constants) reads the column of one walk, made at the first call:

    (_fw1 if _fw1 is not ... else (_fw1 := DV_discount(V, me, l_p, l_c)))[2]

The greatest (or least) of a column is walked alike: a def that appends the column's values
to a list and returns `max([c] + list)` (c a whole number) gets a walk keeping the greatest
of each column, from c (`[*map(max, _q, ROW)]`).

The walk is the def's own, so it raises exactly where the def would at that first call (its
tests do not read the column; a row's numbers add or compare without error), and nothing
runs where no call would have. The state cannot change between two calls in such a function.
"""

from __future__ import annotations

import ast as pyast

from .lines import Lines, each_function, parse_function
from .repeated_calls import fixed_names, opaque_nodes, remember, unchanging

_VAR = "_fw"


class FusedWalks:
    """The defs of a module that can walk for every column at once (`find`, given each def's
    final lines), their walks (`vector_defs`), and calls rewritten to share one (`rewrite`).
    `known`: the module's fixed tables by name."""

    def __init__(self, known: dict):
        self.known = known
        self.columns: dict[str, int] = {}         # D_name -> N (its table's row length)
        self.vectors: list[Lines] = []

    def find(self, lines: Lines) -> None:
        for func in _functions(lines):
            made = self._vector(func)
            if made is not None:
                self.vectors.append(made)

    def vector_defs(self) -> list[Lines]:
        return self.vectors

    def rewrite(self, lines: Lines) -> Lines:
        if not self.columns:
            return lines
        return each_function(lines, self._callers)

    # ------------------------------------------------------------------ the defs

    def _vector(self, func: list):
        fn = parse_function(func)
        if fn is None or not fn.name.startswith("D_") or len(fn.args.args) < 3 \
                or fn.args.vararg or fn.args.kwonlyargs or fn.args.kwarg or fn.args.defaults:
            return None
        col = fn.args.args[-1].arg
        uses = [n for n in pyast.walk(fn) if isinstance(n, pyast.Name) and n.id == col]
        steps = [n for n in pyast.walk(fn) if _step(n, col) is not None]
        if len(uses) != 1 or len(steps) != 1:
            return None
        step = steps[0]
        acc, read = _step(step, col)
        if uses[0] is not read.slice:
            return None
        width = _row_width(self.known.get(read.value.value.id))
        body = fn.body
        init = next((st for st in body if isinstance(st, pyast.Assign) and len(st.targets) == 1
                     and isinstance(st.targets[0], pyast.Name) and st.targets[0].id == acc), None)
        last = body[-1]
        start = _start(init, last, acc, isinstance(step, pyast.AugAssign))
        named = [n for n in pyast.walk(fn) if isinstance(n, pyast.Name) and n.id == acc]
        returns = [n for n in pyast.walk(fn) if isinstance(n, pyast.Return)]
        if width is None or start is None or len(named) != 3 or returns != [last] \
                or not all(_alone_on_line(func, st) for st in (init, step, last)):
            return None
        fold, first = start
        row = pyast.unparse(read.value)
        out = Lines()
        args = ", ".join(a.arg for a in fn.args.args[:-1])
        for i, (ind, text, span) in enumerate(func):
            line = i + 1
            if line == fn.lineno:
                text = f"def DV_{fn.name[2:]}({args}):"
            elif line == init.lineno:
                text = f"{acc} = ({', '.join([repr(first)] * width)},)"
            elif line == step.lineno:
                text = f"{acc} = [*map({fold}, {acc}, {row})]"
            elif line == last.lineno:
                text = f"return {acc}"
            out.add(ind, text, span)
        self.columns[fn.name] = width
        return out

    # ------------------------------------------------------------------ the callers

    def _callers(self, func: list, out: Lines):
        fn = parse_function(func)
        groups = self._groups(fn) if fn is not None else {}
        shared = [(f"DV_{name[2:]}({args})", [(call, f"[{pyast.unparse(call.args[-1])}]") for call in calls])
                  for (name, args), calls in groups.items() if len(calls) >= 2]
        if not shared:
            for item in func:
                out.add(*item)
            return
        remember(func, fn, shared, _VAR, out)

    def _groups(self, fn) -> dict:
        """(def, its other arguments' text) -> the calls of it that may share one walk."""
        stored: dict[str, int] = {}
        for n in pyast.walk(fn):
            if isinstance(n, pyast.Name) and not isinstance(n.ctx, pyast.Load):
                stored[n.id] = stored.get(n.id, 0) + 1
        loops: dict[str, list] = {}
        for n in pyast.walk(fn):
            if isinstance(n, pyast.For) and isinstance(n.target, pyast.Name):
                loops.setdefault(n.target.id, []).append(n.iter)
        fixed = fixed_names(fn)
        opaque = opaque_nodes(fn)
        groups: dict[tuple, list] = {}
        for j, st in enumerate(fn.body):
            for n in pyast.walk(st):
                if not (isinstance(n, pyast.Call) and isinstance(n.func, pyast.Name) and n.func.id in self.columns
                        and not n.keywords and id(n) not in opaque and n.lineno == n.end_lineno and n.args):
                    continue
                width = self.columns[n.func.id]
                *args, col = n.args
                if any(isinstance(a, pyast.Starred) for a in n.args) \
                        or not all(unchanging(a, fixed, j) for a in args) \
                        or not self._column(col, width, stored, loops):
                    continue
                groups.setdefault((n.func.id, ", ".join(pyast.unparse(a) for a in args)), []).append(n)
        return groups

    def _column(self, e, width: int, stored: dict, loops: dict) -> bool:
        """Is e a column every row has: a whole number in -width..width-1, or the variable of
        loops (and nothing else binds it) over tables of such numbers?"""
        if isinstance(e, pyast.Constant):
            return type(e.value) is int and -width <= e.value < width
        if not isinstance(e, pyast.Name) or e.id not in loops or stored.get(e.id) != len(loops[e.id]):
            return False
        for it in loops[e.id]:
            values = self.known.get(it.id) if isinstance(it, pyast.Name) else None
            if not isinstance(values, (list, tuple)) \
                    or not all(type(v) is int and -width <= v < width for v in values):
                return False
        return True


def _functions(lines: Lines) -> list:
    found = []
    each_function(lines, lambda func, out: found.append(func))
    return found


def _column_read(e, col: str) -> bool:
    """`TABLE[x][col]`"""
    return isinstance(e, pyast.Subscript) and isinstance(e.slice, pyast.Name) and e.slice.id == col \
        and isinstance(e.value, pyast.Subscript) and isinstance(e.value.value, pyast.Name)


def _step(st, col: str):
    """(the total's name, the column's read) of `acc += TABLE[x][col]` or
    `acc.append(TABLE[x][col])` (a statement), else None."""
    if isinstance(st, pyast.AugAssign) and isinstance(st.op, pyast.Add) and isinstance(st.target, pyast.Name) \
            and _column_read(st.value, col):
        return st.target.id, st.value
    if isinstance(st, pyast.Expr) and isinstance(st.value, pyast.Call):
        call = st.value
        if isinstance(call.func, pyast.Attribute) and call.func.attr == "append" \
                and isinstance(call.func.value, pyast.Name) and len(call.args) == 1 and not call.keywords \
                and _column_read(call.args[0], col):
            return call.func.value.id, call.args[0]
    return None


def _start(init, last, acc: str, summed: bool):
    """(how two totals combine, the first total) when the def starts its total with init and
    returns it with last: `acc = 0` ... `return acc` (a sum), or `acc = []` ... `return
    max([c] + acc)` (the greatest, c a whole number; min alike). Else None."""
    if init is None or not isinstance(last, pyast.Return):
        return None
    v, r = init.value, last.value
    if summed:
        if isinstance(v, pyast.Constant) and type(v.value) is int and v.value == 0 \
                and isinstance(r, pyast.Name) and r.id == acc:
            return "_vadd", 0
        return None
    if not (isinstance(v, pyast.List) and not v.elts and isinstance(r, pyast.Call)
            and isinstance(r.func, pyast.Name) and r.func.id in ("max", "min") and len(r.args) == 1
            and not r.keywords):
        return None
    e = r.args[0]
    if isinstance(e, pyast.BinOp) and isinstance(e.op, pyast.Add) and isinstance(e.left, pyast.List) \
            and len(e.left.elts) == 1 and _whole(e.left.elts[0]) is not None \
            and isinstance(e.right, pyast.Name) and e.right.id == acc:
        return r.func.id, _whole(e.left.elts[0])
    return None


def _whole(e):
    """The whole number a constant (`3`, `-3`) is, else None."""
    if isinstance(e, pyast.UnaryOp) and isinstance(e.op, pyast.USub):
        inner = _whole(e.operand)
        return None if inner is None else -inner
    return e.value if isinstance(e, pyast.Constant) and type(e.value) is int else None


def _row_width(table):
    """N when every row of the table is a list of N whole numbers (N >= 2), else None."""
    if not isinstance(table, (list, tuple)) or not table:
        return None
    widths = set()
    for row in table:
        if not isinstance(row, (list, tuple)) or not all(type(x) is int for x in row):
            return None
        widths.add(len(row))
    return widths.pop() if len(widths) == 1 and min(widths) >= 2 else None


def _alone_on_line(func: list, st) -> bool:
    """Is st the only statement on its line (so the line can be replaced whole)?"""
    if st.lineno != st.end_lineno:
        return False
    ind, text, _ = func[st.lineno - 1]
    return st.col_offset == 4 * ind and st.end_col_offset == 4 * ind + len(text)
