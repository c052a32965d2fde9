"""Expressions (part of pass 6, and of every value known when the rules are loaded): each
expression gets its type (recorded in `p.types`) and each name its symbol (`p.refs`); an
expected type settles ambiguous values and empty lists; what depends on the game state is an
error where a value must be static. The builtin functions are checked in builtin_calls.py."""

from __future__ import annotations

from typing import Optional

from .. import ast
from .. import types as T
from ..suggest import did_you_mean
from ..symbols import Sym
from .common import BUILTINS, CheckError, _Ctx, _Scope


class ExpressionChecks:
    """expr and the expressions' own checks."""

    def _expect(self, node, got: T.Type, want: Optional[T.Type], what: str):
        if want is None or got is T.ANY or want is T.ANY:
            return
        if not T.assignable(got, want):
            self.error(node, "E130", f"{what} should be {want}, not {got}")

    def expr(self, e: ast.Expr, scope: _Scope, ctx: _Ctx, expected: Optional[T.Type] = None) -> T.Type:
        t = self._expr(e, scope, ctx, expected)
        self.p.types[id(e)] = t
        return t

    def _expr(self, e, scope, ctx, expected):
        k = type(e)
        if k is ast.IntLit:
            return T.INT
        if k is ast.BoolLit:
            return T.BOOL
        if k is ast.StrLit:
            return T.STR
        if k is ast.NoneLit:
            return T.NONE
        if k is ast.Me:
            if ctx.static:
                self._static_error(e, "'me'")
                return T.ANY
            return T.PLAYER
        if k is ast.Name:
            return self._name(e, scope, ctx, expected)
        if k is ast.Attr:
            return self._attr(e, scope, ctx, expected)
        if k is ast.Index:
            return self._index(e, scope, ctx)
        if k is ast.Slice:
            return self._slice(e, scope, ctx)
        if k is ast.Call:
            return self._call(e, scope, ctx, expected)
        if k in (ast.GeneratorCall, ast.ListComp):
            return self._comprehension(e, scope, ctx, expected)
        if k is ast.ListLit:
            want = T.strip(expected).elem if isinstance(T.strip(expected) if expected else None, T.ListType) else None
            if want is None and isinstance(expected, T.ListType):
                want = expected.elem
            ts = [self.expr(x, scope, ctx, want) for x in e.items]
            if not ts:
                return T.ListType(want or T.ANY)
            first = next((t for t in ts if t is not T.NONE and t is not T.ANY), ts[0])
            for x, t in zip(e.items, ts):
                if not T.comparable(t, first) or (t is T.NONE and want is None):
                    self.error(x, "E130", f"list items must have one type: {first} and {t}")
                    return T.ListType(T.ANY)
            if isinstance(first, T.IntRange) or first is T.INT:
                vals = [x.value for x in e.items if isinstance(x, ast.IntLit)]
                if len(vals) == len(e.items):
                    return T.ListType(T.IntRange(min(vals), max(vals)))
                return T.ListType(T.INT)
            return T.ListType(first)
        if k is ast.MapLit:
            return self._map_lit(e, scope, ctx, expected)
        if k is ast.Binary:
            lt = self.expr(e.left, scope, ctx, expected if isinstance(expected, T.ListType) else T.INT)
            if e.op == "+" and isinstance(T.strip(lt), T.ListType):
                rt = self.expr(e.right, scope, ctx, T.strip(lt))
                if not isinstance(T.strip(rt), T.ListType) or not T.comparable(T.strip(lt).elem, T.strip(rt).elem) \
                        and T.strip(rt).elem is not T.ANY and T.strip(lt).elem is not T.ANY:
                    self.error(e.right, "E130", f"'+' joins two lists of the same type: {lt} and {rt}")
                return T.ListType(_widen(T.strip(lt).elem))
            rt = self.expr(e.right, scope, ctx, T.INT)
            for side, t in ((e.left, lt), (e.right, rt)):
                if not T.is_int(t) and t is not T.ANY:
                    self.error(side, "E130", f"'{e.op}' works on numbers, not {t}")
            return T.INT
        if k is ast.Neg:
            t = self.expr(e.operand, scope, ctx, T.INT)
            if not T.is_int(t) and t is not T.ANY:
                self.error(e.operand, "E130", f"'-' works on numbers, not {t}")
            return T.INT
        if k is ast.NotOp:
            t = self.expr(e.operand, scope, ctx, T.BOOL)
            self._expect(e.operand, t, T.BOOL, "the operand of 'not'")
            return T.BOOL
        if k is ast.BoolOp:
            for side in (e.left, e.right):
                t = self.expr(side, scope, ctx, T.BOOL)
                self._expect(side, t, T.BOOL, f"an operand of '{e.op}'")
            return T.BOOL
        if k is ast.Compare:
            return self._compare(e, scope, ctx)
        if k is ast.CondExpr:
            ct = self.expr(e.cond, scope, ctx, T.BOOL)
            self._expect(e.cond, ct, T.BOOL, "a condition")
            a = self.expr(e.then, scope, ctx, expected)
            b = self.expr(e.other, scope, ctx, expected if a in (T.NONE, T.ANY) else a)
            if a is T.NONE:
                return T.OptType(b) if b is not T.NONE else T.NONE
            if b is T.NONE:
                return T.OptType(a)
            if not T.comparable(a, b):
                self.error(e, "E130", f"both branches must have one type: {a} and {b}")
                return T.ANY
            return T.INT if T.is_int(a) and not isinstance(a, T.IntRange) else a
        raise AssertionError(k)

    def _map_lit(self, e: ast.MapLit, scope, ctx, expected):
        want = T.strip(expected) if expected is not None else None
        kt = want.key if isinstance(want, T.MapType) else None
        vt = want.value if isinstance(want, T.MapType) else None
        seen = set()
        for entry in e.entries:
            t = self.expr(entry.key, scope, ctx, kt)
            if kt is None and t is not T.ANY:
                kt = T.strip(t)
            if not (T.is_indexed(t) or t is T.ANY):
                self.error(entry.key, "E130", f"a map's keys are values of an enum, a record, an area, a line, "
                                              f"Player or Cell, not {t}")
            elif kt is not None and not T.comparable(t, kt):
                self.error(entry.key, "E130", f"all keys of a map have one type: {kt}, not {t}")
            from ..render import render_expr
            text = render_expr(entry.key)
            if text in seen:
                self.error(entry.key, "E102", f"key {text} appears twice")
            seen.add(text)
            v = self.expr(entry.value, scope, ctx, vt)
            if vt is None and v not in (T.ANY, T.NONE):
                vt = T.INT if T.is_int(v) else v
            elif vt is not None:
                self._expect(entry.value, v, vt, "a map value")
        if kt is None:
            self.error(e, "E130", "the type of this map cannot be told: write at least one entry, "
                                  "or use it where a map type is expected")
            return T.ANY
        return T.MapType(kt, vt or T.INT)

    def _static_error(self, e, what):
        self.error(e, "E123", f"{what} depends on the game state; it cannot be used where a value must be "
                              f"known when the rules are loaded")

    def _name(self, e: ast.Name, scope, ctx, expected):
        p = self.p
        n = e.name
        sym = scope.lookup(n)
        if sym is None and n == "players":
            if ctx.static:
                self._static_error(e, "'players'")
                return T.ANY
            sym = Sym("players", n, T.ListType(T.PLAYER))
        if sym is None:
            sym = p.top.get(n)
            # procedures, actions and functions are not values: an enum value or component
            # of the same name is meant
            if sym is not None and sym.kind in ("def", "proc", "action", "group", "payment") and n in p.values:
                sym = None
        if sym is None:
            cands = p.values.get(n)
            if cands:
                sym = self._pick_value(e, cands, expected)
                if sym is None:
                    return T.ANY
        if sym is None:
            names = scope.all_names() + list(p.top) + list(p.values) + ["players"]
            hint = None
            if n in p.pvars:
                hint = f"'{n}' belongs to a player: write me.{n} or p.{n}"
            self.error(e, "E170", f"unknown name '{n}'{did_you_mean(n, names)}", hint)
            return T.ANY
        sym.used = True
        p.refs[id(e)] = sym
        if sym.kind == "const":
            try:
                return self.ensure_const(n, e)
            except CheckError:
                return T.ANY
        if sym.kind in ("global",):
            if ctx.static:
                self._static_error(e, f"'{n}'")
                return T.ANY
            return sym.data.type
        if sym.kind in ("grid", "cell_attr"):
            if ctx.static and sym.kind == "cell_attr":
                self._static_error(e, f"'{n}'")
                return T.ANY
            if sym.kind == "cell_attr":
                return _CellAttr(sym.data, n, sym.type)
            return sym.type
        if sym.kind in ("def", "proc", "action", "group", "payment"):
            what = {"def": "a function", "proc": "a procedure", "action": "an action",
                    "group": "a group of actions", "payment": "a payment declaration"}[sym.kind]
            self.error(e, "E175", f"'{n}' is {what}, not a value")
            return T.ANY
        return sym.type

    def _pick_value(self, e, cands: list[Sym], expected) -> Optional[Sym]:
        if len(cands) == 1:
            return cands[0]
        want = T.strip(expected) if expected is not None else None
        if isinstance(want, T.ListType):
            want = T.strip(want.elem)
        if want is not None and want is not T.ANY:
            fit = [c for c in cands if c.type is want]
            if len(fit) == 1:
                return fit[0]
        owners = ", ".join(f"{c.type.name}.{e.name}" for c in cands)
        self.error(e, "E176", f"'{e.name}' is ambiguous here: it could be {owners}",
                   f"write {cands[0].type.name}.{e.name} (or compare it with a value of the type you mean)")
        return None

    def _attr(self, e: ast.Attr, scope, ctx, expected):
        p = self.p
        ot = self.expr(e.obj, scope, ctx)
        opt = isinstance(ot, T.OptType)
        base = T.strip(ot)
        res: Optional[T.Type] = None
        if base is T.ANY:
            return T.ANY
        if isinstance(base, T.TypeRef):
            tgt = base.target
            if isinstance(tgt, (T.EnumType, T.RecordType)):
                names = tgt.values if isinstance(tgt, T.EnumType) else tgt.kinds
                if e.name in names:
                    cands = [s for s in p.values.get(e.name, []) if s.type is tgt]
                    if cands:
                        p.refs[id(e)] = cands[0]
                        cands[0].used = True
                    return tgt
                self.error(e, "E177", f"{tgt.name} has no value '{e.name}'{did_you_mean(e.name, names)}")
                return T.ANY
            self.error(e, "E177", f"type {tgt} has no members")
            return T.ANY
        if isinstance(base, T.PlayerType):
            vi = p.pvars.get(e.name)
            if vi is None:
                self.error(e, "E177", f"players have no attribute '{e.name}'{did_you_mean(e.name, p.pvars)}")
                return T.ANY
            if ctx.static:
                self._static_error(e, f"'{e.name}'")
                return T.ANY
            vi.used = True
            res = vi.type
            if isinstance(res, T.ZoneType) and opt:
                self.error(e, "E130", "this player may be none here")
            return res if not opt or isinstance(res, T.OptType) else T.OptType(res)
        if isinstance(base, T.RecordType):
            if e.name in base.fields:
                res = base.fields[e.name]
            elif e.name == "count":
                res = T.INT
            else:
                self.error(e, "E177", f"{base.name} has no field '{e.name}'"
                                      f"{did_you_mean(e.name, list(base.fields) + ['count'])}")
                return T.ANY
            try:
                self.ensure_table(base, e)
            except CheckError:
                pass
        elif isinstance(base, T.CellType):
            g = base.grid
            if e.name in ("row", "col"):
                res = T.IntRange(0, (g.rows if e.name == "row" else g.cols) - 1) if g.rows else T.INT
            elif e.name in g.areas:
                res = g.areas[e.name]
            else:
                self.error(e, "E177", f"a cell has no attribute '{e.name}'"
                                      f"{did_you_mean(e.name, ['row', 'col', *g.areas])}",
                           f"cell attributes are read as {e.name}[c]" if e.name in g.cell_attrs else None)
                return T.ANY
        else:
            self.error(e, "E177", f"{base} has no attribute '{e.name}'")
            return T.ANY
        if opt and not isinstance(res, T.OptType):
            return T.OptType(res)
        return res

    def _slice(self, e: ast.Slice, scope, ctx):
        """A part of a list, as in Python: the same list type."""
        ot = self.expr(e.obj, scope, ctx)
        for bound in (e.low, e.high):
            if bound is not None:
                self._expect(bound, self.expr(bound, scope, ctx, T.INT), T.INT, "a position in a list")
        if ot is T.ANY or isinstance(T.strip(ot), T.ListType):
            return T.strip(ot) if ot is not T.ANY else T.ANY
        self.error(e.obj, "E130", f"only a list can be sliced ([a:b]), not {ot}",
                   "for the cards of a zone in order, take a sequence's list: [c for c in z]")
        return T.ANY

    def _index(self, e: ast.Index, scope, ctx):
        ot = self.expr(e.obj, scope, ctx)
        if isinstance(ot, T.OptType) and isinstance(T.strip(ot), (T.MapType, T.ListType)):
            ot = T.strip(ot)           # none here is a run-time error with the position
        if ot is T.ANY:
            self.expr(e.index, scope, ctx)
            return T.ANY
        if isinstance(ot, _CellAttr):
            it = self.expr(e.index, scope, ctx, ot.grid.cell_type)
            self._expect(e.index, it, ot.grid.cell_type, "a cell")
            self.p.types[id(e.obj)] = ot
            return ot.value
        if isinstance(ot, T.GridType):
            it = self.expr(e.index, scope, ctx, ot.grid.cell_type)
            self._expect(e.index, it, ot.grid.cell_type, "a cell")
            return T.OptType(ot.grid.record)
        if isinstance(ot, T.MapType):
            it = self.expr(e.index, scope, ctx, ot.key)
            self._expect(e.index, it, ot.key, "a key")
            return ot.value
        if isinstance(ot, T.KeyedZones):
            it = self.expr(e.index, scope, ctx, ot.key)
            self._expect(e.index, it, ot.key, "a key")
            return ot.zone
        if isinstance(ot, T.ZoneType):
            if ot.zone == "row":
                it = self.expr(e.index, scope, ctx, T.INT)
                self._expect(e.index, it, T.INT, "a slot number")
                return T.OptType(ot.elem)
            if ot.zone == "slots":
                it = self.expr(e.index, scope, ctx, ot.key)
                self._expect(e.index, it, ot.key, "a slot key")
                return T.OptType(ot.elem)
            self.error(e, "E178", f"a {ot.zone} has no slots to index; use 'in', count(...) or 'move ... from'")
            return T.ANY
        if isinstance(T.strip(ot), T.ListType):
            it = self.expr(e.index, scope, ctx, T.INT)
            self._expect(e.index, it, T.INT, "a list position")
            return T.strip(ot).elem
        self.error(e, "E178", f"{ot} cannot be indexed")
        self.expr(e.index, scope, ctx)
        return T.ANY

    def _compare(self, e: ast.Compare, scope, ctx):
        op = e.op
        if op in ("in", "not in"):
            if isinstance(e.right, ast.ListLit) and not isinstance(e.left, ast.Name):
                lt = self.expr(e.left, scope, ctx)
                rt = self.expr(e.right, scope, ctx, T.ListType(T.strip(lt)))
                if not T.comparable(lt, T.elem_type(rt) or T.ANY):
                    self.error(e, "E130", f"cannot look for {lt} among {T.elem_type(rt)}")
                return T.BOOL
            rt = self.expr(e.right, scope, ctx)
            et = T.elem_type(rt)
            if et is None and rt is not T.ANY:
                self.error(e.right, "E131", f"'{op}' needs a list or zone on its right, not {rt}")
                et = T.ANY
            lt = self.expr(e.left, scope, ctx, et)
            if et is not None and not T.comparable(lt, et):
                self.error(e, "E130", f"cannot look for {lt} among {et}")
            return T.BOOL
        # type the side that is not an ambiguous bare name first, then the other with its type
        first, second = e.left, e.right
        if isinstance(e.left, ast.Name) and len(self.p.values.get(e.left.name, [])) > 1 \
                and not isinstance(e.right, ast.Name):
            first, second = e.right, e.left
        ft = self.expr(first, scope, ctx)
        st = self.expr(second, scope, ctx, ft if ft not in (T.NONE, T.ANY) else None)
        lt, rt = (ft, st) if first is e.left else (st, ft)
        if op in ("==", "!="):
            if not T.comparable(lt, rt):
                self.error(e, "E130", f"cannot compare {lt} with {rt}")
        else:
            for side, t in ((e.left, lt), (e.right, rt)):
                if not T.is_int(t) and t is not T.ANY:
                    self.error(side, "E130", f"'{op}' compares numbers, not {t}")
        return T.BOOL

    def _loop_clause(self, cl, scope, ctx) -> "_Scope":
        """`for VAR in ITER [where COND]` (a statement or a comprehension clause): the scope
        with VAR bound."""
        it = self.expr(cl.iter, scope, ctx)
        et = T.elem_type(it)
        if et is None:
            self.error(cl.iter, "E131", f"cannot iterate over {it}")
            et = T.ANY
        if isinstance(cl.iter, ast.ListLit) and not cl.iter.items:
            self.error(cl.iter, "E131", "a loop over an empty list never runs")
        inner = scope.child()
        inner.names[cl.var] = Sym("local", cl.var, et, cl)
        if cl.cond is not None:
            ct = self.expr(cl.cond, inner, ctx, T.BOOL)
            self._expect(cl.cond, ct, T.BOOL, "a 'where' condition")
        return inner

    def _comprehension(self, e, scope, ctx, expected):
        inner = scope
        for cl in e.clauses:
            inner = self._loop_clause(cl, inner, ctx)
        if isinstance(e, ast.ListComp):
            want = expected.elem if isinstance(expected, T.ListType) else None
            return T.ListType(self.expr(e.elem, inner, ctx, want))
        f = e.func
        if f == "count":
            self.expr(e.elem, inner, ctx)
            return T.INT
        if f in ("sum", "min", "max"):
            t = self.expr(e.elem, inner, ctx, T.INT)
            self._expect(e.elem, t, T.INT, f"the values of {f}(...)")
            return T.INT
        if f in ("any", "all"):
            t = self.expr(e.elem, inner, ctx, T.BOOL)
            self._expect(e.elem, t, T.BOOL, f"the values of {f}(...)")
            return T.BOOL
        self.error(e, "E179", f"'{f}' does not take a generator; count, sum, min, max, any and all do")
        return T.ANY

    def _call(self, e: ast.Call, scope, ctx, expected):
        p = self.p
        f = e.func
        args = e.args or []
        if f in p.defs:
            c = p.defs[f]
            p.top[f].used = True
            self._args(e, args, c.params, scope, ctx, f"'{f}'")
            return c.ret or T.ANY
        if f in BUILTINS:
            return getattr(self, "_b_" + f)(e, args, scope, ctx, expected)
        if f in p.lines or f in p.areas:
            # wall(1), region(3): the value of a line or area type by its number
            t = p.lines.get(f) or p.areas.get(f)
            p.top[f].used = True
            if self._arity(e, args, 1):
                self._expect(args[0], self.expr(args[0], scope, ctx, T.INT), T.INT, f"the number of a {f}")
            return t
        if f in p.procs:
            self.error(e, "E175", f"'{f}' is a procedure: it changes the game and has no value",
                       "call it as a statement on a line of its own")
            return T.ANY
        if f in p.actions:
            self.error(e, "E175", f"'{f}' is an action: players take actions with 'act'")
            return T.ANY
        self.error(e, "E170", f"unknown function '{f}'{did_you_mean(f, list(p.defs) + list(BUILTINS))}")
        for a in args:
            self.expr(a, scope, ctx)
        return T.ANY


class _CellAttr(T.Type):
    """The type of a cell attribute's name (indexed by a cell)."""

    def __init__(self, grid, name, value):
        self.grid, self.attr, self.value = grid, name, value
        self.name = f"cell attribute {name}"


def _widen(t: T.Type) -> T.Type:
    return T.INT if isinstance(t, T.IntRange) else t
