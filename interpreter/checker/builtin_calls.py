"""Calls of the builtin functions (part of pass 6): `_call` (expressions.py) sends count(...) to
`_b_count` and so on; each checks its number of arguments and their types, and gives the
type of its result."""

from __future__ import annotations

from typing import Optional

from .. import ast
from .. import types as T
from ..limits import MAX_SELECTION
from ..suggest import did_you_mean
from .common import CheckError


class BuiltinChecks:
    """_arity and one _b_NAME per builtin."""

    def _arity(self, e, args, n, lo=None):
        lo = n if lo is None else lo
        if not lo <= len(args) <= n:
            want = f"{lo}" if lo == n else f"{lo} to {n}"
            self.error(e, "E171", f"'{e.func}' takes {want} argument{'s' if n != 1 else ''}, not {len(args)}")
            return False
        return True

    def _b_count(self, e, args, scope, ctx, expected):
        if self._arity(e, args, 1):
            t = self.expr(args[0], scope, ctx)
            if T.elem_type(t) is None and t is not T.ANY or isinstance(T.strip(t), T.TypeRef):
                self.error(args[0], "E130", f"count(...) counts a list or a zone, not {t}",
                           "count(copies(T)) counts every physical component" if isinstance(t, T.TypeRef) else None)
        return T.INT

    def _b_sum(self, e, args, scope, ctx, expected):
        if self._arity(e, args, 1):
            t = self.expr(args[0], scope, ctx)
            if not (isinstance(T.strip(t), T.ListType) and T.is_int(T.strip(t).elem)) and t is not T.ANY:
                self.error(args[0], "E130", f"sum(...) adds a list of numbers, not {t}")
        return T.INT

    def _b_min(self, e, args, scope, ctx, expected):
        if not args:
            self._arity(e, args, 1)
            return T.INT
        ts = [self.expr(a, scope, ctx, T.INT) for a in args]
        if len(args) == 1:
            t = T.strip(ts[0])
            if not (isinstance(t, T.ListType) and T.is_int(t.elem)) and t is not T.ANY:
                self.error(args[0], "E130", f"{e.func}(...) of one argument takes a list of numbers, not {t}")
        else:
            for a, t in zip(args, ts):
                self._expect(a, t, T.INT, f"an argument of {e.func}")
        return T.INT

    _b_max = _b_min

    def _b_any(self, e, args, scope, ctx, expected):
        if self._arity(e, args, 1):
            t = self.expr(args[0], scope, ctx)
            if not (isinstance(T.strip(t), T.ListType) and T.strip(t).elem in (T.BOOL, T.ANY)) and t is not T.ANY:
                self.error(args[0], "E130", f"{e.func}(...) takes a list of booleans, not {t}")
        return T.BOOL

    _b_all = _b_any

    def _b_abs(self, e, args, scope, ctx, expected):
        if self._arity(e, args, 1):
            self._expect(args[0], self.expr(args[0], scope, ctx, T.INT), T.INT, "the argument of abs")
        return T.INT

    def _b_subsets(self, e, args, scope, ctx, expected):
        """subsets(Z, lo, hi): every selection of lo..hi of the components of zone Z (or the
        values of a list of kinds or enum values), as lists in ascending order."""
        if not self._arity(e, args, 3):
            return T.ANY
        t = T.strip(self.expr(args[0], scope, ctx))
        elem = t.elem if isinstance(t, (T.ZoneType, T.ListType)) else None
        if t is T.ANY:
            return T.ANY
        if elem is None or not isinstance(T.strip(elem), (T.RecordType, T.EnumType)):
            self.error(args[0], "E130", f"subsets(...) selects among the components of a zone, or a list of "
                                        f"kinds or enum values, not {t}")
            return T.ANY
        lo, hi = (self.static_int(a, "the number of values in a selection") for a in args[1:])
        if not 0 <= lo <= hi <= MAX_SELECTION:
            self.error(e, "E114", f"a selection of {lo} to {hi} values; sizes go from 0 up to at most "
                                  f"{MAX_SELECTION}, the smaller first")
            return T.ANY
        return T.ListType(T.SelectionType(T.strip(elem), lo, hi))

    def _b_range(self, e, args, scope, ctx, expected):
        if not self._arity(e, args, 2):
            return T.ListType(T.INT)
        for a in args:
            self._expect(a, self.expr(a, scope, ctx, T.INT), T.INT, "a bound of range")
        if all(self._is_static(a) for a in args):
            try:
                lo, hi = (self.static_evaluator().eval(a) for a in args)
                if hi > lo:
                    return T.ListType(T.IntRange(lo, hi - 1))
            except Exception:  # noqa: BLE001
                pass
        return T.ListType(T.INT)

    def _is_static(self, e) -> bool:
        for n in e.walk():
            if isinstance(n, ast.Me):
                return False
            if isinstance(n, ast.Name):
                sym = self.p.refs.get(id(n))
                if sym is None or sym.kind not in ("const", "enum_value", "kind"):
                    return False
            if isinstance(n, (ast.Attr, ast.Index, ast.Call, ast.GeneratorCall, ast.ListComp)):
                return False
        return True

    def _typearg(self, e, a, scope, ctx) -> Optional[T.Type]:
        t = self.expr(a, scope, ctx)
        if isinstance(t, T.TypeRef):
            return t.target
        if t is not T.ANY:
            self.error(a, "E130", f"'{e.func}' takes a type (an enum, record, area or line), not {t}")
        return None

    def _b_values(self, e, args, scope, ctx, expected):
        if not self._arity(e, args, 1):
            return T.ANY
        tgt = self._typearg(e, args[0], scope, ctx)
        if tgt is None:
            return T.ANY
        return T.ListType(tgt)

    def _b_copies(self, e, args, scope, ctx, expected):
        if not self._arity(e, args, 1):
            return T.ANY
        t = self.expr(args[0], scope, ctx)
        if isinstance(t, T.TypeRef) and isinstance(t.target, T.RecordType):
            try:
                self.ensure_table(t.target, e)
            except CheckError:
                pass
            return T.ListType(t.target)
        if isinstance(T.strip(t), T.RecordType):
            return T.ListType(T.strip(t))
        if t is not T.ANY:
            self.error(args[0], "E130", f"copies(...) takes a record type or a component, not {t}")
        return T.ANY

    def _b_slots(self, e, args, scope, ctx, expected):
        if not self._arity(e, args, 1):
            return T.ANY
        t = self.expr(args[0], scope, ctx)
        if isinstance(t, T.ZoneType) and t.zone == "row":
            return T.ListType(T.IntRange(0, max(t.size_ - 1, 0)))
        if isinstance(t, T.ZoneType) and t.zone == "slots":
            return T.ListType(t.key)
        if t is not T.ANY:
            self.error(args[0], "E130", f"slots(...) takes a row or slots zone, not {t}")
        return T.ANY

    def _b_cells(self, e, args, scope, ctx, expected):
        if not self._arity(e, args, 1):
            return T.ANY
        t = T.strip(self.expr(args[0], scope, ctx))
        if isinstance(t, T.GridType):
            return T.ListType(t.grid.cell_type)
        if isinstance(t, (T.AreaType, T.LineType)):
            return T.ListType(t.grid.cell_type)
        if t is not T.ANY:
            self.error(args[0], "E130", f"cells(...) takes a grid, an area or a line, not {t}")
        return T.ANY

    def _cell_arg(self, e, a, scope, ctx) -> Optional[T.CellType]:
        t = T.strip(self.expr(a, scope, ctx))
        if isinstance(t, T.CellType):
            return t
        if t is not T.ANY:
            self.error(a, "E130", f"'{e.func}' takes a cell, not {t}")
        return None

    def _b_adjacent(self, e, args, scope, ctx, expected):
        if not self._arity(e, args, 1):
            return T.ANY
        ct = self._cell_arg(e, args[0], scope, ctx)
        return T.ListType(ct) if ct else T.ANY

    _b_row_cells = _b_adjacent
    _b_col_cells = _b_adjacent

    def _b_beside(self, e, args, scope, ctx, expected):
        if not self._arity(e, args, 2):
            return T.BOOL
        self._cell_arg(e, args[0], scope, ctx)
        t = self.expr(args[1], scope, ctx)
        if not (isinstance(t, T.TypeRef) and isinstance(t.target, T.LineType)) and \
                not isinstance(T.strip(t), T.LineType) and t is not T.ANY:
            self.error(args[1], "E130", f"beside(c, L) takes a kind of line or a line, not {t}")
        return T.BOOL

    def _b_distance(self, e, args, scope, ctx, expected):
        if not self._arity(e, args, 2):
            return T.INT
        self._cell_arg(e, args[0], scope, ctx)
        t = T.strip(self.expr(args[1], scope, ctx))
        if not isinstance(t, T.LineType) and t is not T.ANY:
            self.error(args[1], "E130", f"distance(c, l) takes a line, not {t}")
        return T.INT

    def _b_cell(self, e, args, scope, ctx, expected):
        if not self._arity(e, args, 2):
            return T.ANY
        for a in args:
            self._expect(a, self.expr(a, scope, ctx, T.INT), T.INT, "a row or column")
        want = T.strip(expected) if expected is not None else None
        if isinstance(want, T.CellType):
            return want
        if len(self.p.grids) == 1:
            return next(iter(self.p.grids.values())).cell_type
        self.error(e, "E130", "cell(r, c) needs exactly one grid in the game" if not self.p.grids else
                   "cell(r, c) is ambiguous with several grids")
        return T.ANY

    def _b_knows(self, e, args, scope, ctx, expected):
        if self._arity(e, args, 2):
            self._expect(args[0], self.expr(args[0], scope, ctx, T.PLAYER), T.PLAYER, "a player")
            t = self.expr(args[1], scope, ctx)
            whole = self._var_of(args[1])            # a variable as a whole (a public one: known to all)
            rec = None if whole is not None and (whole.visibility == "public" or self._whole_secret(args[1])) \
                else self._slot(args[1], t, "knows")
            if rec is not None and isinstance(args[1], ast.Index) and \
                    isinstance(self.p.types.get(id(args[1].obj)), T.GridType):
                self.error(args[1], "E138", "knows(p, ...) takes a slot of a row or slots zone; grids are public")
        if ctx.static:
            self._static_error(e, "knows(...)")
        return T.BOOL

    def _b_ordinal(self, e, args, scope, ctx, expected):
        if self._arity(e, args, 1):
            t = self.expr(args[0], scope, ctx)
            if not (T.is_indexed(t) or t is T.ANY) or isinstance(T.strip(t), T.CellType):
                self.error(args[0], "E130", f"ordinal(x) numbers the values of an enum, a record, an area, a line "
                                            f"or Player (from 0), not {t}")
        return T.INT

    def _b_seats_from(self, e, args, scope, ctx, expected):
        if self._arity(e, args, 1):
            self._expect(args[0], self.expr(args[0], scope, ctx, T.PLAYER), T.PLAYER, "a player")
        if ctx.static:
            self._static_error(e, "seats_from(...)")
        return T.ListType(T.PLAYER)

    def _b_affordable(self, e, args, scope, ctx, expected):
        if not self._arity(e, args, 3, 2):
            return T.BOOL
        if len(args) == 3:
            self._expect(args[2], self.expr(args[2], scope, ctx, T.PLAYER), T.PLAYER, "who pays")
        pname = args[1].name if isinstance(args[1], ast.Name) else None
        pi = self.p.payments.get(pname)
        if pi is None:
            self.error(args[1], "E170", f"affordable(cost, PAYMENT) names a payment declaration"
                                        f"{did_you_mean(pname or '', self.p.payments)}")
            self.expr(args[0], scope, ctx)
            return T.BOOL
        self.p.top[pname].used = True
        self.p.refs[id(args[1])] = self.p.top[pname]
        self._expect(args[0], self.expr(args[0], scope, ctx, T.ListType(pi.unit)), T.ListType(pi.unit), "a cost")
        if ctx.static:
            self._static_error(e, "affordable(...)")
        return T.BOOL

    def _b_can(self, e, args, scope, ctx, expected):
        """can(p, ACTION): whether player p has a legal move of that action now."""
        if not self._arity(e, args, 2, 2):
            return T.BOOL
        self._expect(args[0], self.expr(args[0], scope, ctx, T.PLAYER), T.PLAYER, "the player")
        aname = args[1].name if isinstance(args[1], ast.Name) else None
        if aname not in self.p.actions and aname not in self.p.groups:
            self.error(args[1], "E170", f"can(p, ACTION) names an action or a group of actions"
                                        f"{did_you_mean(aname or '', list(self.p.actions) + list(self.p.groups))}")
            return T.BOOL
        self.p.refs[id(args[1])] = self.p.top[aname]
        if ctx.static:
            self._static_error(e, "can(...)")
        return T.BOOL

    def _b_player(self, e, args, scope, ctx, expected):
        if self._arity(e, args, 1):
            self._expect(args[0], self.expr(args[0], scope, ctx, T.INT), T.INT, "a seat number")
        return T.PLAYER

    def _b_next_player(self, e, args, scope, ctx, expected):
        if self._arity(e, args, 1):
            self._expect(args[0], self.expr(args[0], scope, ctx, T.PLAYER), T.PLAYER, "a player")
        return T.PLAYER
