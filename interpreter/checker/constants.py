"""Pass 3, components: constants, game options and component tables are typed and evaluated
(each on first use, as values known when the rules are loaded may use one another: a chain
too deep, or a value that depends on itself, is an error). `static_value` and `static_int`,
which the other passes use for sizes, bounds and initial values, are here."""

from __future__ import annotations

from typing import Optional

from .. import ast
from .. import types as T
from ..limits import MAX_COPIES
from ..suggest import did_you_mean
from .common import CheckError, _Ctx, _Scope

# constants, component tables and grids worked out inside one another (each waiting for the
# next): every level costs the checker a dozen Python frames
_MAX_ON_DEMAND = 32

# copies of all the kinds of one record (each kind may have MAX_COPIES): every copy is an
# entry of the table copies(...) reads
_MAX_ALL_COPIES = 1_000_000


class ConstantsPass:
    """pass_components, and the constants, options and tables worked out on demand."""

    def static_evaluator(self):
        if self._static is None:
            from ..codegen.static import StaticEvaluator
            self._static = StaticEvaluator(self)
        return self._static

    def static_value(self, e: ast.Expr, what: str, expected: Optional[T.Type] = None):
        """Type-check `e` in a static context and evaluate it now. None after an error."""
        n_err = sum(d.is_error for d in self.diags)
        t = self.expr(e, _Scope(), _Ctx("static", static=True), expected)
        if sum(d.is_error for d in self.diags) > n_err:
            return None, T.ANY
        try:
            return self.static_evaluator().eval(e), t
        except CheckError:
            return None, T.ANY
        except Exception as exc:  # noqa: BLE001 - an error of the rules, reported as such
            self.error(e, "E120", f"cannot evaluate {what}: {_describe(exc)}")
            return None, T.ANY

    def static_int(self, e: Optional[ast.Expr], what: str) -> int:
        if e is None:
            return 0
        v, t = self.static_value(e, what, T.INT)
        if v is None:
            return 0
        if not isinstance(v, int) or isinstance(v, bool):
            self.error(e, "E121", f"{what} must be a number, not {t}")
            return 0
        return v

    def ensure_const(self, name: str, at: ast.Node) -> T.Type:
        """Type-check and evaluate a constant on first use (constants may use each other)."""
        state = self._const_state.get(name)
        sym = self.p.top[name]
        if state == "done":
            return sym.type
        if state == "checking":
            self.error(at, "E122", f"constant '{name}' depends on itself")
            raise CheckError()
        self._nested(at, f"constant '{name}'")
        self._const_state[name] = "checking"
        d = self._const_decls[name]
        try:
            if isinstance(d, ast.OptionDecl):
                v, t = self._option_value(d)
            else:
                v, t = self.static_value(d.value, f"constant '{name}'")
        finally:
            self._on_demand -= 1
        sym.type = t
        self.p.consts[name] = v
        self._const_state[name] = "done"
        if v is None:
            raise CheckError()
        return t

    def _option_value(self, d: ast.OptionDecl):
        """A game option's value (the default or the value given): of its declared type, an
        int, a bool, an enum or a Player, and inside its bounds."""
        want = self.resolve_type(d.type)
        if want is T.ANY:
            return None, T.ANY
        if not (want is T.INT or want is T.BOOL or isinstance(want, (T.EnumType, T.PlayerType))):
            self.error(d.type, "E018", f"option '{d.name}' cannot be {want}: an option is an int, a bool, "
                                       f"an enum or a Player", "make it a constant, or an enum of the choices")
            return None, T.ANY
        what = f"option '{d.name}'" + (f" (given {d.given})" if d.given is not None else "")
        v, t = self.static_value(d.value, what, want)
        if v is None and t is T.ANY:
            return None, T.ANY
        if t is T.NONE or v is None or not T.assignable(t, want):
            self.error(d.value, "E018", f"{what} must be {'an int' if want is T.INT else want}, not "
                                        f"{'none' if v is None else t}",
                       _option_hint(want) if d.given is not None else None)
            return None, T.ANY
        if isinstance(d.bound, ast.BoundIn):
            lo = self.static_int(d.bound.low, f"the lower bound of option '{d.name}'")
            hi = self.static_int(d.bound.high, f"the upper bound of option '{d.name}'")
            if want is not T.INT:
                self.error(d.bound, "E151", f"bounds apply to an int option, not {want}")
                return None, T.ANY
            if not lo <= v <= hi:
                self.error(d.value, "E018", f"{what} is {v}, outside its bounds {lo}..{hi}")
                return None, T.ANY
        return v, want

    def ensure_table(self, rec: T.RecordType, at: ast.Node):
        state = self._table_state.get(rec.name)
        if state == "done":
            return
        if state == "checking":
            self.error(at, "E122", f"the components of '{rec.name}' depend on themselves")
            raise CheckError()
        self._nested(at, f"the components of '{rec.name}'")
        self._table_state[rec.name] = "checking"
        try:
            self._eval_table(rec)
        finally:
            self._on_demand -= 1
        self._table_state[rec.name] = "done"

    def pass_components(self):
        for rec in self.p.records.values():
            try:
                self.ensure_table(rec, (self._tables.get(rec.name) or [self.p.top[rec.name].node])[0])
            except CheckError:
                pass
        for name in self._const_order():
            try:
                self.ensure_const(name, self._const_decls[name])
            except CheckError:
                pass

    def _const_order(self) -> list[str]:
        """The constants, each after the constants its value names: evaluated in this order,
        none waits on another (a chain of a thousand constants, each the next one plus one,
        would otherwise nest the checker a thousand deep). Found without recursion."""
        decls = self._const_decls
        deps = {n: [x.name for x in d.value.walk() if isinstance(x, ast.Name) and x.name in decls and x.name != n]
                for n, d in decls.items()}
        order, seen = [], set()
        for root in decls:
            if root in seen:
                continue
            seen.add(root)
            stack = [(root, iter(deps[root]))]
            while stack:
                name, rest = stack[-1]
                nxt = next(rest, None)
                if nxt is None:
                    stack.pop()
                    order.append(name)
                elif nxt not in seen:
                    seen.add(nxt)
                    stack.append((nxt, iter(deps[nxt])))
        return order

    def _nested(self, at: ast.Node, what: str):
        """One more constant, table or grid worked out while another waits for it; past
        _MAX_ON_DEMAND the chain is an error, not a Python recursion error."""
        if self._on_demand >= _MAX_ON_DEMAND:
            self.error(at, "E122", f"working out {what} needs constants, component tables or grids that need "
                                   f"others in turn, more than {_MAX_ON_DEMAND} deep",
                       "write the values of some of them directly")
            raise CheckError()
        self._on_demand += 1

    def _eval_table(self, rec: T.RecordType):
        for f in rec.fields:
            rec.data[f] = []
        rec.copies = []
        defaults = self._field_defaults.get(rec.name, {})
        default_values = {}
        for f, e in defaults.items():
            v, t = self.static_value(e, f"the default of field '{f}'", rec.fields[f])
            if v is not None and not T.assignable(t, rec.fields[f]):
                self.error(e, "E130", f"field '{f}' of {rec.name} is {rec.fields[f]}, not {t}")
            default_values[f] = v
        total = 0
        for d in self._tables.get(rec.name, []):
            self._eval_one_table(rec, d, default_values)
            if total <= _MAX_ALL_COPIES < sum(rec.copies):       # (said once, at the table past it)
                self.error(d, "E112", f"{sum(rec.copies):,} components of '{rec.name}' in all; at most "
                                      f"{_MAX_ALL_COPIES:,}", "give fewer copies of each kind, or fewer kinds")
            total = sum(rec.copies)

    def _eval_one_table(self, rec: T.RecordType, d: ast.ComponentsDecl, default_values: dict):
        header = d.header.columns
        for col in header:
            if col not in ("name", "count") and col not in rec.fields:
                self.error(d.header, "E111", f"record '{rec.name}' has no field '{col}'"
                                             f"{did_you_mean(col, rec.fields)}")
        for f in rec.fields:
            if f not in header and f not in default_values:
                self.error(d.header, "E111", f"this components table of '{rec.name}' has no column '{f}'",
                           f"add the column, or give the field a default in the record: {f}: ... = ...")
        for row in d.rows:
            if len(row.cells) != len(header):
                self.error(row, "E112", f"this row has {len(row.cells)} cells; the header has {len(header)}")
                for f in rec.fields:
                    rec.data[f].append(None)
                rec.copies.append(1)
                continue
            count = 1
            given = {}
            for col, cell in zip(header, row.cells):
                if col == "name":
                    continue
                if col == "count":
                    count = self.static_int(cell, "a component count")
                    if count < 0:
                        self.error(cell, "E112", "a component count cannot be negative")
                    elif count > MAX_COPIES:
                        self.error(cell, "E112", f"{count:,} copies of one component; at most {MAX_COPIES:,}")
                        count = 0
                    continue
                if col not in rec.fields:
                    continue
                ft = rec.fields[col]
                v, t = self.static_value(cell, f"field '{col}'", ft)
                if v is not None and not T.assignable(t, ft):
                    self.error(cell, "E130", f"field '{col}' of {rec.name} is {ft}, not {t}")
                given[col] = v
            for f in rec.fields:
                v = given[f] if f in given else default_values.get(f)
                rec.data[f].append(list(v) if isinstance(v, list) else v)
            rec.copies.append(count)


def _describe(exc: Exception) -> str:
    msg = str(exc)
    if isinstance(exc, ZeroDivisionError):
        return "division by zero"
    if type(exc).__name__ == "RulesTooSlow":
        from ..runtime import watchdog
        return f"it takes more than {watchdog.limit_seconds:g} seconds (loops nested too deep?)"
    if isinstance(exc, RecursionError):
        return "calls nested too deep (a def that calls itself without end?)"
    if isinstance(exc, (ValueError, TypeError)) and "empty" in msg:
        return "min or max of nothing"
    return msg or type(exc).__name__


def _option_hint(want: T.Type) -> str:
    if isinstance(want, T.EnumType):
        return f"one of: {', '.join(want.values)}"
    if isinstance(want, T.PlayerType):
        return "a seat number: 1 for the first player"
    if want is T.BOOL:
        return "true or false"
    return "a whole number"
