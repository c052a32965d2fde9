"""The checker: ordered, named passes over the composed program.

Passes (each may rely on the ones before it):

1. declare        collect every top-level name; duplicates are errors
2. resolve_types  record fields, parameters, variables and cell attributes get types
3. components     component tables are typed and evaluated (constants on demand)
4. grids          grid geometry: cells, adjacency, lines, areas
5. variables      bounds, sizes, initial values, visibility
6. bodies         every expression and statement is typed; names resolved
7. assertions     static assertions evaluated
8. unused         warnings for definitions nothing uses

Diagnostics are collected, never raised one at a time; the result of a pass lives in side
tables of `CheckedProgram` (types and refs keyed by node id), the AST is never mutated.
"""

from __future__ import annotations

from typing import Optional

from . import ast
from . import types as T
from .compose import Composed
from .diagnostics import Diagnostic
from .holds import def_name as holds_def_name
from .limits import MAX_ACTION_MOVES, MAX_COPIES, MAX_GRID_CELLS, MAX_OPTIONS, MAX_SELECTION, MAX_ZONE_SLOTS
from .suggest import did_you_mean
from .symbols import (ActionInfo, ActionParamInfo, Callable, CheckedProgram, EventInfo, PaymentInfo, PayRuleInfo,
                      Sym, VarInfo, WatchInfo)

BUILTINS = ("count", "sum", "min", "max", "any", "all", "abs", "range", "values", "copies", "slots",
            "cells", "adjacent", "beside", "distance", "row_cells", "col_cells", "cell", "player",
            "next_player", "knows", "seats_from", "affordable", "ordinal", "can", "subsets")

RESERVED_VALUES = ("players",)

# constants, component tables and grids worked out inside one another (each waiting for the
# next): every level costs the checker a dozen Python frames
_MAX_ON_DEMAND = 32

# copies of all the kinds of one record (each kind may have MAX_COPIES): every copy is an
# entry of the table copies(...) reads
_MAX_ALL_COPIES = 1_000_000

# values one state keeps (a count per kind of each stack or pile, slots, map entries, cells):
# our largest games keep about 1,000; every state of a search is a copy
_MAX_STATE_VALUES = 1_000_000

# values per cell a grid's lines and areas may need in all (see _grid_lines_and_areas); a
# limit of the declarations like those of interpreter/limits.py
_GRID_TABLE_CELLS = 1_000_000


class _Scope:
    def __init__(self, parent: Optional["_Scope"] = None, python: bool = False):
        self.parent = parent
        self.names: dict[str, Sym] = {}

    def lookup(self, name: str) -> Optional[Sym]:
        s = self
        while s is not None:
            if name in s.names:
                return s.names[name]
            s = s.parent
        return None

    def all_names(self):
        s, out = self, []
        while s is not None:
            out.extend(s.names)
            s = s.parent
        return out

    def child(self) -> "_Scope":
        return _Scope(self)


class _Ctx:
    """Where a body is being checked."""

    def __init__(self, kind: str, static: bool = False, action: Optional[ActionInfo] = None,
                 ret: Optional[T.Type] = None):
        self.kind = kind           # def, procedure, action, setup, flow, handler, end, score, static
        self.static = static
        self.action = action
        self.ret = ret
        self.loops = 0


class CheckError(Exception):
    pass


class Checker:
    def __init__(self, composed: Composed):
        src = composed.source
        self.composed = composed
        self.diags: list[Diagnostic] = list(composed.diagnostics)
        self.p = CheckedProgram(name=src.name, title=src.title, min_players=src.min_players,
                                max_players=src.max_players, players=composed.players,
                                modules=[m.name for m in composed.modules],
                                lowest_wins=any(isinstance(i, ast.LowestScoreWins) for i in src.game_decl.items))
        self.p.cites = composed.cites
        self._const_decls: dict[str, ast.ConstDecl] = {}
        self._const_state: dict[str, str] = {}     # name -> checking | done
        self._tables: dict[str, list[ast.ComponentsDecl]] = {}
        self._table_state: dict[str, str] = {}
        self._grid_decls: dict[str, ast.GridDecl] = {}
        self._grid_state: dict[str, str] = {}
        self._on_demand = 0                         # constants, tables, grids being worked out
        self._whens: list[ast.WhenDecl] = []
        self._field_defaults: dict[str, dict[str, ast.Expr]] = {}
        self._modifiers: list[ast.ModifierDecl] = []
        self._static = None                         # StaticEvaluator, made on first use

    @classmethod
    def for_program(cls, prog: CheckedProgram) -> "Checker":
        """A checker over an already checked program, to check new snippets against it."""
        c = cls.__new__(cls)
        c.composed = None
        c.diags = []
        c.p = prog
        c._const_decls = {}
        c._const_state = {name: "done" for name in prog.consts}
        c._tables = {}
        c._table_state = {name: "done" for name in prog.records}
        c._grid_decls = {}
        c._grid_state = {name: "done" for name in prog.grids}
        c._on_demand = 0
        c._whens = []
        c._field_defaults = {}
        c._modifiers = []
        c._static = None
        return c

    # ------------------------------------------------------------------ driver

    PASSES = ("declare", "resolve_types", "components", "grids", "variables", "bodies",
              "assertions", "header_facts", "unused")

    def run(self) -> CheckedProgram:
        for name in self.PASSES:
            getattr(self, "pass_" + name)()
            if name in ("declare", "resolve_types") and any(d.is_error for d in self.diags):
                break           # later passes would only repeat these errors
        return self.p

    def error(self, node, code, msg, hint=None, notes=None):
        span = node.span if isinstance(node, ast.Node) else node
        self.diags.append(Diagnostic(code, span, msg, hint, "error", notes or []))

    def warn(self, node, code, msg, hint=None):
        span = node.span if isinstance(node, ast.Node) else node
        self.diags.append(Diagnostic(code, span, msg, hint, "warning"))

    # ------------------------------------------------------------------ 1. declare

    def _define(self, name: str, sym: Sym):
        if name in BUILTINS or name in RESERVED_VALUES:
            self.error(sym.node, "E101", f"'{name}' is a builtin name and cannot be redefined")
            return
        old = self.p.top.get(name)
        if old is not None:
            hint = "give one of them another name"
            if sym.kind == "const" and old.kind == "const" and self.composed is not None and \
                    self.composed.origin.get(id(sym.node)) != self.composed.origin.get(id(old.node)):
                hint = f"to change the base game's value from a module, write 'override const {name} = ...'"
            self.error(sym.node, "E102", f"'{name}' is already defined", hint,
                       notes=[(old.span, "first defined here")])
            return
        self.p.top[name] = sym

    def _define_value(self, name: str, sym: Sym, owner: str):
        lst = self.p.values.setdefault(name, [])
        for other in lst:
            if other.type is sym.type:
                self.error(sym.node, "E102", f"'{name}' appears twice in {owner}",
                           notes=[(other.span, "first here")])
                return
        lst.append(sym)

    def pass_declare(self):
        p = self.p
        for d in self.composed.decls:
            if isinstance(d, ast.ConstDecl):
                self._const_decls[d.name] = d
                if isinstance(d, ast.OptionDecl):
                    p.options[d.name] = d
                self._define(d.name, Sym("const", d.name, T.ANY, d))
            elif isinstance(d, ast.EnumDecl):
                et = T.EnumType(d.name, list(d.values))
                p.enums[d.name] = et
                self._define(d.name, Sym("enum", d.name, T.TypeRef(et), d))
                for i, v in enumerate(d.values):
                    self._define_value(v, Sym("enum_value", v, et, d, i), f"enum {d.name}")
            elif isinstance(d, ast.RecordDecl):
                rt = T.RecordType(d.name)
                p.records[d.name] = rt
                self._define(d.name, Sym("record", d.name, T.TypeRef(rt), d))
            elif isinstance(d, ast.GridDecl):
                self._grid_decls[d.name] = d
            elif isinstance(d, ast.GlobalDecl):
                for v in d.vars:
                    vi = VarInfo(v.name, T.ANY, v, False)
                    p.globals[v.name] = vi
                    self._define(v.name, Sym("global", v.name, T.ANY, v, vi))
            elif isinstance(d, ast.PlayerDecl):
                for v in d.vars:
                    if v.name in p.pvars:
                        self.error(v, "E102", f"player attribute '{v.name}' is already defined",
                                   notes=[(p.pvars[v.name].decl.span, "first defined here")])
                        continue
                    p.pvars[v.name] = VarInfo(v.name, T.ANY, v, True)
            elif isinstance(d, ast.DefDecl):
                c = Callable(d.name, [], d)
                p.defs[d.name] = c
                self._define(d.name, Sym("def", d.name, T.ANY, d, c))
            elif isinstance(d, ast.ProcedureDecl):
                c = Callable(d.name, [], d)
                p.procs[d.name] = c
                self._define(d.name, Sym("proc", d.name, T.ANY, d, c))
            elif isinstance(d, ast.ActionDecl):
                a = ActionInfo(d.name, [], d, cite=self.composed.cites.get(id(d), ""))
                p.actions[d.name] = a
                self._define(d.name, Sym("action", d.name, T.ANY, d, a))
            elif isinstance(d, ast.SetupDecl):
                self._single("setup", d)
            elif isinstance(d, ast.FlowDecl):
                self._single("flow", d)
            elif isinstance(d, ast.OnEndDecl):
                self._single("on_end", d)
            elif isinstance(d, ast.ScoreDecl):
                self._single("score", d)
            elif isinstance(d, ast.TiebreakDecl):
                if p.tiebreaks:
                    self.error(d, "E102", "'tiebreak' is declared twice")
                p.tiebreaks = list(d.exprs)
            elif isinstance(d, ast.AssertDecl):
                p.asserts.append(d)
            elif isinstance(d, ast.EventDecl):
                ev = p.events.get(d.name)
                if ev is None:
                    ev = p.events[d.name] = EventInfo(d.name, [])
                if ev.decl is not None:
                    self.error(d, "E102", f"event '{d.name}' is declared twice",
                               notes=[(ev.decl.span, "first declared here")])
                ev.decl = d
            elif isinstance(d, ast.OnDecl):
                ev = p.events.get(d.event)
                if ev is None:
                    ev = p.events[d.event] = EventInfo(d.event, [])
                ev.handlers.append(d)
            elif isinstance(d, ast.ComponentsDecl):
                # several tables may list one record's components (each with its own columns)
                self._tables.setdefault(d.record, []).append(d)
            elif isinstance(d, ast.ActionsDecl):
                p.groups[d.name] = list(d.actions)
                self._define(d.name, Sym("group", d.name, T.ANY, d, d.actions))
            elif isinstance(d, ast.WhenDecl):
                self._whens.append(d)
            elif isinstance(d, ast.ModifierDecl):
                self._modifiers.append(d)
            elif isinstance(d, ast.PaymentDecl):
                pi = PaymentInfo(d.name, T.ANY, d)
                p.payments[d.name] = pi
                self._define(d.name, Sym("payment", d.name, T.ANY, d, pi))
            elif isinstance(d, (ast.OverrideConst, ast.ReplaceDecl, ast.ExtendDecl, ast.ExtendActions)):
                pass  # applied by the composer
        # grids after records (they name a record)
        for name, d in self._grid_decls.items():
            rec = p.records.get(d.record)
            if rec is None:
                self.error(d, "E103", f"unknown record type '{d.record}'{did_you_mean(d.record, p.records)}")
                rec = T.RecordType(d.record)
            g = T.GridInfo(name, rec)
            g.cell_type = T.CellType(g)
            p.grids[name] = g
            self._define(name, Sym("grid", name, T.GridType(g), d, g))
            for item in d.items:
                if isinstance(item, ast.GridLine):
                    lt = T.LineType(item.name, g, item.axis)
                    g.lines[item.name] = lt
                    p.lines[item.name] = lt
                    self._define(item.name, Sym("line", item.name, T.TypeRef(lt), item, lt))
                elif isinstance(item, ast.GridArea):
                    at = T.AreaType(item.name, g, list(item.bounds))
                    g.areas[item.name] = at
                    p.areas[item.name] = at
                    self._define(item.name, Sym("area", item.name, T.TypeRef(at), item, at))
                elif isinstance(item, ast.GridCell):
                    self._define(item.name, Sym("cell_attr", item.name, T.ANY, item, g))
        for rec, tables in self._tables.items():
            if rec not in p.records:
                self.error(tables[0], "E103", f"components of unknown record type '{rec}'"
                                              f"{did_you_mean(rec, p.records)}")
                continue
            # kind names are known now, their attributes in the components pass
            rt = p.records[rec]
            for d in tables:
                header = d.header.columns
                if "name" not in header:
                    self.error(d.header, "E110", "a components table needs a 'name' column")
                    continue
                ni = header.index("name")
                for row in d.rows:
                    if ni < len(row.cells) and isinstance(row.cells[ni], ast.Name):
                        kname = row.cells[ni].name
                        rt.kinds.append(kname)
                        self._define_value(kname, Sym("kind", kname, rt, row, len(rt.kinds) - 1),
                                           f"the components of {rec}")
                    else:
                        self.error(row, "E110", "the 'name' cell of a component must be a plain name")
        if p.score is None:
            gd = self.composed.source.game_decl
            self.error(gd, "E104", "the game declares no 'score'", "add 'score: <expression>' (evaluated per player)")
        if p.flow is None:
            self.error(self.composed.source.game_decl, "E104", "the game declares no 'flow'",
                       "add 'flow:' with the game's main loop")

    def _single(self, attr, d):
        if getattr(self.p, attr) is not None:
            self.error(d, "E102", f"'{attr.replace('_', ' ')}' is declared twice",
                       notes=[(getattr(self.p, attr).span, "first declared here")])
            return
        setattr(self.p, attr, d)

    # ------------------------------------------------------------------ 2. resolve types

    def resolve_type(self, te: ast.TypeExpr, allow_zone=False) -> T.Type:
        p = self.p
        if isinstance(te, ast.TypeName):
            n = te.name
            if n == "int":
                return T.INT
            if n == "bool":
                return T.BOOL
            if n == "Player":
                return T.PLAYER
            if n == "Cell":
                if len(p.grids) == 1:
                    return next(iter(p.grids.values())).cell_type
                if not p.grids:
                    self.error(te, "E103", "'Cell' needs a grid, and this game declares none")
                else:
                    self.error(te, "E103", "'Cell' is ambiguous: this game has several grids")
                return T.ANY
            for table in (p.enums, p.records, p.lines, p.areas):
                if n in table:
                    return table[n]
            cands = ["int", "bool", "Player", "Cell", *p.enums, *p.records, *p.lines, *p.areas]
            self.error(te, "E103", f"unknown type '{n}'{did_you_mean(n, cands)}")
            return T.ANY
        if isinstance(te, ast.OptionalType):
            inner = self.resolve_type(te.inner, allow_zone)
            return T.OptType(inner) if inner is not T.ANY else T.ANY
        if isinstance(te, ast.ListType):
            return T.ListType(self.resolve_type(te.elem))
        if isinstance(te, ast.MapType):
            kt = self.resolve_type(ast.TypeName(span=te.span, name=te.key))
            if kt is not T.ANY and not T.is_indexed(kt):
                self.error(te, "E104", f"a map is keyed by an enum, a record, an area, a line, Player or Cell, "
                                       f"not {kt}")
            return T.MapType(kt, self.resolve_type(te.value))
        if isinstance(te, ast.ZoneType):
            if not allow_zone:
                self.error(te, "E104", f"a {te.zone} can only be declared as game state (global: or per player:)")
                return T.ANY
            rec = p.records.get(te.elem)
            if rec is None:
                self.error(te, "E103", f"a {te.zone} holds components; unknown record type '{te.elem}'"
                                       f"{did_you_mean(te.elem, p.records)}")
                return T.ANY
            key = None
            size = 0
            if te.zone == "slots":
                key = self.resolve_type(ast.TypeName(span=te.span, name=te.key))
                if key is not T.ANY and not T.is_indexed(key):
                    self.error(te, "E104", f"slots are keyed by an enum, area, line or Player, not {key}")
            if te.zone == "row":
                size = self.static_int(te.size, "the size of a row")
                if size > MAX_ZONE_SLOTS:
                    self.error(te.size, "E113", f"a row of {size:,} slots; a row may have at most {MAX_ZONE_SLOTS:,}")
                    size = MAX_ZONE_SLOTS
            if te.zone in ("stack", "pile", "sequence") and te.key is not None:
                kt = self.resolve_type(ast.TypeName(span=te.span, name=te.key))
                if kt is not T.ANY and not T.is_indexed(kt):
                    self.error(te, "E104", f"zones are kept one per value of an enum, record, area, line or "
                                           f"Player, not {kt}")
                    return T.ANY
                return T.KeyedZones(T.ZoneType(te.zone, rec), kt)
            return T.ZoneType(te.zone, rec, size, key)
        raise AssertionError(te)

    def pass_resolve_types(self):
        p = self.p
        for d in self.composed.decls:
            if isinstance(d, ast.RecordDecl):
                rt = p.records[d.name]
                for f in d.fields:
                    if f.name in rt.fields:
                        self.error(f, "E102", f"field '{f.name}' is declared twice")
                    if f.name in ("name", "count"):
                        self.error(f, "E101", f"'{f.name}' is a reserved column of components tables")
                    rt.fields[f.name] = self.resolve_type(f.type)
                    if f.default is not None:
                        self._field_defaults.setdefault(d.name, {})[f.name] = f.default
        for g in p.grids.values():
            for item in self._grid_decls[g.name].items:
                if isinstance(item, ast.GridCell):
                    t = self.resolve_type(item.type)
                    g.cell_attrs[item.name] = t
                    p.top[item.name].type = t
        for d in self.composed.decls:
            if isinstance(d, ast.DefDecl):
                c = p.defs[d.name]
                c.params = self._params(d.params)
                c.ret = self.resolve_type(d.ret)
            elif isinstance(d, ast.ProcedureDecl):
                p.procs[d.name].params = self._params(d.params)
        for name, ev in p.events.items():
            first = None
            if ev.decl is not None:
                first = ev.params = self._params(ev.decl.params)
            for h in ev.handlers:
                params = self._params(h.params)
                if first is None:
                    first = params
                    ev.params = params
                elif [str(t) for _, t in params] != [str(t) for _, t in first]:
                    where = ev.decl if ev.decl is not None else ev.handlers[0]
                    self.error(h, "E105", f"this handler of event '{name}' takes ({_sig(params)}); "
                                          f"the event has ({_sig(first)})",
                               notes=[(where.span, "declared here" if ev.decl is not None else
                                       "the first handler is here")])

    def _params(self, params) -> list[tuple[str, T.Type]]:
        out = []
        seen = set()
        for prm in params or []:
            if prm.name in seen:
                self.error(prm, "E102", f"parameter '{prm.name}' is declared twice")
            seen.add(prm.name)
            out.append((prm.name, self.resolve_type(prm.type)))
        return out

    # ------------------------------------------------------------------ static values

    def static_evaluator(self):
        if self._static is None:
            from .codegen.static import StaticEvaluator
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

    # ------------------------------------------------------------------ 3. components

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

    # ------------------------------------------------------------------ 4. grids

    def pass_grids(self):
        for g in self.p.grids.values():
            try:
                self.ensure_grid(g, self._grid_decls[g.name])
            except CheckError:
                pass

    def ensure_grid(self, g: T.GridInfo, at: ast.Node):
        """The grid's size and geometry, on first use (a constant may use a grid's cells, and a
        grid's size may use constants)."""
        state = self._grid_state.get(g.name)
        if state == "done":
            return
        if state == "checking":
            self.error(at, "E122", f"the size of grid '{g.name}' depends on itself")
            raise CheckError()
        self._nested(at, f"grid '{g.name}'")
        self._grid_state[g.name] = "checking"
        try:
            self._grid(g, self._grid_decls[g.name])
        finally:
            self._on_demand -= 1
        self._grid_state[g.name] = "done"

    def _grid(self, g: T.GridInfo, d: ast.GridDecl):
        sizes = [i for i in d.items if isinstance(i, ast.GridSize)]
        if len(sizes) != 1:
            self.error(d, "E140", f"grid '{g.name}' needs exactly one 'size ROWS by COLUMNS' line")
            return
        n_err = sum(d.is_error for d in self.diags)
        g.rows = self.static_int(sizes[0].rows, "the number of rows")
        g.cols = self.static_int(sizes[0].cols, "the number of columns")
        if g.rows <= 0 or g.cols <= 0:
            if sum(d.is_error for d in self.diags) == n_err:      # (not after an error in the size)
                self.error(sizes[0], "E140", "a grid needs at least one row and one column")
            g.rows = g.cols = 0
            return
        if g.rows * g.cols > MAX_GRID_CELLS:
            self.error(sizes[0], "E140", f"a grid of {g.rows:,} by {g.cols:,} cells; a grid may have at "
                                         f"most {MAX_GRID_CELLS:,} cells")
            g.rows = g.cols = 0
            return
        if not self._grid_lines_and_areas(g, d):
            g.rows = g.cols = 0
            return
        self._grid_geometry(g, d)

    def _grid_lines_and_areas(self, g: T.GridInfo, d: ast.GridDecl) -> bool:
        """The positions of the grid's lines; False if its lines and areas are more than its
        tables may hold: each area, line and position of a line keeps a value per cell (which
        area a cell is in, the distance of a cell to the line), so their number times the cells
        is bounded (a 100 x 100 grid may have 100 in all, a 10 x 10 grid 10,000)."""
        cells = g.rows * g.cols
        most = max(_GRID_TABLE_CELLS // cells, 1)
        used = 0
        for item in d.items:
            if isinstance(item, ast.GridLine):
                self._grid_line(g, item)
                used += 1 + len(g.lines[item.name].positions)
            elif isinstance(item, ast.GridArea):
                used += 1
            else:
                continue
            if used > most:
                self.error(item, "E140", f"more lines and areas than a grid of {cells:,} cells may have: at most "
                                         f"{most:,}, counting each area, each line and each row or column a "
                                         f"line lies after", "use fewer lines and areas, or a smaller grid")
                return False
        return True

    def _grid_line(self, g: T.GridInfo, item: ast.GridLine):
        v, t = self.static_value(item.positions, "the position of a line")
        if v is None:
            return
        positions = [v] if isinstance(v, int) else v
        if not isinstance(positions, list) or not all(isinstance(x, int) for x in positions):
            self.error(item.positions, "E141", "a line lies after a row or column number, or a list of them")
            return
        limit = g.rows if item.axis == "row" else g.cols
        for x in positions:
            if not 0 <= x < limit - 1:
                self.error(item.positions, "E141", f"a line after {item.axis} {x} is outside the grid "
                                                   f"({item.axis}s 0..{limit - 1})")
                return
        seen = set()
        for x in positions:
            if x in seen:
                self.error(item.positions, "E141", f"{item.axis} {x} is given twice for line '{item.name}'")
                return
            seen.add(x)
        g.lines[item.name].positions = sorted(positions)

    def _grid_geometry(self, g: T.GridInfo, d: ast.GridDecl):
        R, C = g.rows, g.cols
        cut_rows = {x for lt in g.lines.values() if lt.axis == "row" for x in lt.positions}
        cut_cols = {x for lt in g.lines.values() if lt.axis == "column" for x in lt.positions}
        g.adjacent = []
        for r in range(R):
            for c in range(C):
                adj = []
                if r > 0 and (r - 1) not in cut_rows:
                    adj.append((r - 1) * C + c)
                if c > 0 and (c - 1) not in cut_cols:
                    adj.append(r * C + c - 1)
                if c < C - 1 and c not in cut_cols:
                    adj.append(r * C + c + 1)
                if r < R - 1 and r not in cut_rows:
                    adj.append((r + 1) * C + c)
                g.adjacent.append(adj)
        for lt in g.lines.values():
            lt.beside = []
            for x in lt.positions:
                if lt.axis == "row":
                    lt.beside.append([x * C + c for c in range(C)] + [(x + 1) * C + c for c in range(C)])
                else:
                    lt.beside.append(sorted([r * C + x for r in range(R)] + [r * C + x + 1 for r in range(R)]))
        for item in d.items:
            if not isinstance(item, ast.GridArea):
                continue
            at = g.areas[item.name]
            rows_cut, cols_cut = set(), set()
            for b in item.bounds:
                lt = g.lines.get(b)
                if lt is None:
                    self.error(item, "E142", f"grid '{g.name}' has no line '{b}'{did_you_mean(b, g.lines)}")
                    continue
                (rows_cut if lt.axis == "row" else cols_cut).update(lt.positions)
            at.of_cell = [-1] * (R * C)
            at.cells = []
            for start in range(R * C):
                if at.of_cell[start] != -1:
                    continue
                idx = len(at.cells)
                members, todo = [], [start]
                at.of_cell[start] = idx
                while todo:
                    x = todo.pop()
                    members.append(x)
                    r, c = divmod(x, C)
                    for nr, nc, cut in ((r - 1, c, (r - 1) in rows_cut), (r + 1, c, r in rows_cut),
                                        (r, c - 1, (c - 1) in cols_cut), (r, c + 1, c in cols_cut)):
                        if 0 <= nr < R and 0 <= nc < C and not cut:
                            y = nr * C + nc
                            if at.of_cell[y] == -1:
                                at.of_cell[y] = idx
                                todo.append(y)
                at.cells.append(sorted(members))

    # ------------------------------------------------------------------ 5. variables

    def pass_variables(self):
        players = self.p.players or self.p.max_players
        held = 0
        for g in self.p.grids.values():
            held = self._state_grows(self._grid_decls.get(g.name) or g.name, f"grid '{g.name}'",
                                     g.rows * g.cols * (1 + len(g.cell_attrs)), held)
        for vi in list(self.p.globals.values()) + list(self.p.pvars.values()):
            self._var(vi)
            n = T.state_values(vi.type, players) * (players if vi.per_player else 1)
            held = self._state_grows(vi.decl, f"'{vi.name}'" + (f" ({players} players)" if vi.per_player else ""),
                                     n, held)

    def _state_grows(self, node, what: str, n: int, held: int) -> int:
        """The values a state keeps, after n more; an error at the declaration past the limit."""
        if held + n > _MAX_STATE_VALUES >= held and isinstance(node, ast.Node):
            self.error(node, "E113", f"the game's state would keep more than {_MAX_STATE_VALUES:,} values: "
                                     f"{what} alone keeps {n:,}",
                       "keep fewer zones of many kinds, fewer kinds of components, or a smaller grid")
        return held + n

    def _var(self, vi: VarInfo):
        v = vi.decl
        t = self.resolve_type(v.type, allow_zone=True)
        vi.type = t
        if not vi.per_player:
            self.p.top[v.name].type = t
        is_zone = isinstance(t, (T.ZoneType, T.KeyedZones))
        vi.internal = any(isinstance(o, ast.VarInternal) for o in v.options)
        for o in ([v.holds] if v.holds is not None else []):
            if isinstance(o, ast.VarHolds):
                if not is_zone:
                    self.error(o, "E154", f"'holds' says which components a zone may hold; '{v.name}' is {t}")
                elif holds_def_name(v.name) in self.p.defs:
                    vi.holds = holds_def_name(v.name)
                    self.p.top[vi.holds].used = True
        vis = [o for o in v.options if isinstance(o, ast.Visibility)]
        if len(vis) > 1:
            self.error(vis[1], "E150", "visibility is given twice")
        if vis:
            vi.visibility = vis[0].level
            if isinstance(t, T.GridType) and vis[0].level != "public":
                self.error(vis[0], "E150", "a grid is public: its cells are on the table")
            if vis[0].level in ("private", "others") and not vi.per_player:
                self.error(vis[0], "E150", f"'{vis[0].level}' is about its owner: only per-player variables can be "
                                           f"{vis[0].level} (a global one can be hidden)")
        elif is_zone and (t.zone if isinstance(t, T.ZoneType) else t.zone.zone) == "stack":
            vi.visibility = "hidden"
        # bounds apply to an int, or to every entry of a map to int
        bounded = T.is_int(t) or (isinstance(t, T.MapType) and T.is_int(t.value))
        for o in v.options:
            if isinstance(o, (ast.BoundIn, ast.BoundClamp, ast.BoundMin, ast.BoundMax)) and not bounded:
                self.error(o, "E151", f"bounds apply to int variables (or maps to int), not {t}")
                continue
            if isinstance(o, (ast.BoundIn, ast.BoundClamp)):
                vi.low = self.static_int(o.low, "a lower bound")
                vi.high = None if o.high is None else self.static_int(o.high, "an upper bound")
                vi.clamp = isinstance(o, ast.BoundClamp)
                if vi.high is not None and vi.low > vi.high:
                    self.error(o, "E151", f"empty range {vi.low}..{vi.high}")
            elif isinstance(o, ast.BoundMin):
                vi.low = self.static_int(o.value, "a lower bound")
            elif isinstance(o, ast.BoundMax):
                vi.high = self.static_int(o.value, "an upper bound")
        if v.init is not None:
            if is_zone:
                self.error(v.init, "E152", "zones start empty; fill them in setup")
            else:
                val, it = self.static_value(v.init, f"the initial value of '{v.name}'", t)
                if isinstance(t, T.MapType) and not isinstance(it, T.MapType):
                    # a single value for every key: 'open: map Region to bool = true'
                    if val is not None and not T.assignable(it, t.value):
                        self.error(v.init, "E130", f"the entries of '{v.name}' are {t.value}, not {it}")
                    val = None if val is None else [val] * T.type_size(t.key, self.p.players or self.p.max_players)
                elif val is not None and not T.assignable(it, t):
                    self.error(v.init, "E130", f"'{v.name}' is {t}; its initial value is {it}")
                vi.init = val
        else:
            vi.init = _default_value(t)
            holds = t.value if isinstance(t, T.MapType) else t
            if not isinstance(holds, T.OptType) and isinstance(T.strip(holds), T.PlayerType):      # no player is a better default than another
                self.error(v, "E153", f"'{v.name}' holds a player but has no initial value (it would "
                                      f"silently be player(1))",
                           "give it one (= player(1)), or let it be none until set: "
                           + ("map ... to Player or none" if isinstance(t, T.MapType) else "Player or none"))
        inits = vi.init if isinstance(t, T.MapType) and isinstance(vi.init, list) else [vi.init]
        for init in inits:
            if not isinstance(init, int) or isinstance(init, bool):
                continue
            if vi.low is not None and init < vi.low:
                if v.init is not None:
                    self.error(v.init, "E151", f"the initial value {init} is below the minimum {vi.low}")
                elif not isinstance(t, T.MapType):
                    vi.init = vi.low
            if vi.high is not None and init > vi.high:
                if v.init is not None:
                    self.error(v.init, "E151", f"the initial value {init} is above the maximum {vi.high}")
                elif not isinstance(t, T.MapType):
                    vi.init = vi.high

    # ------------------------------------------------------------------ 6. bodies

    def pass_bodies(self):
        p = self.p
        for name, acts in p.groups.items():
            for a in acts:
                if a not in p.actions:
                    self.error(p.top[name].node, "E172", f"group '{name}' names an unknown action '{a}'"
                                                         f"{did_you_mean(a, p.actions)}")
        for pi in p.payments.values():
            self._payment(pi)
        for d in self._whens:
            self._when(d)
        for d in self._modifiers:
            self._modifier(d)
        for c in p.defs.values():
            d = c.decl
            scope = self._param_scope(c.params, d)
            ctx = _Ctx("def", ret=c.ret)
            if d.expr is not None:
                t = self.expr(d.expr, scope, ctx, c.ret)
                self._expect(d.expr, t, c.ret, f"the result of '{d.name}'")
            else:
                self.block(d.body, scope, ctx)
                if not d.body or not _ends_in_return(d.body):
                    self.error(d, "E160", f"'{d.name}' must end with 'return'")
        for c in p.procs.values():
            self.block(c.decl.body, self._param_scope(c.params, c.decl), _Ctx("procedure"))
        for a in p.actions.values():
            self._action(a)
        for ev in p.events.values():
            for h in ev.handlers:
                self.block(h.body, self._param_scope(ev.params, h), _Ctx("handler"))
        for attr, kind in (("setup", "setup"), ("flow", "flow"), ("on_end", "end")):
            d = getattr(p, attr)
            if d is not None:
                self.block(d.body, _Scope(), _Ctx(kind))
        if p.score is not None:
            t = self.expr(p.score.expr, _Scope(), _Ctx("score"), T.INT)
            self._expect(p.score.expr, t, T.INT, "the score")
        for e in p.tiebreaks:
            t = self.expr(e, _Scope(), _Ctx("score"), T.INT)
            self._expect(e, t, T.INT, "a tiebreak")

    def _param_scope(self, params, decl) -> _Scope:
        scope = _Scope()
        for name, t in params:
            scope.names[name] = Sym("local", name, t, decl)
        return scope

    def _action(self, a: ActionInfo):
        d = a.decl
        scope = _Scope()
        ctx = _Ctx("action", action=a)
        seen = set()
        moves = 1
        for prm in d.params or []:
            if prm.name in seen:
                self.error(prm, "E102", f"parameter '{prm.name}' is declared twice")
            seen.add(prm.name)
            dt = self.expr(prm.domain, scope, ctx)
            et = T.elem_type(dt)
            if et is None:
                self.error(prm.domain, "E131", f"a parameter takes its values from a list or zone, not {dt}")
                et = T.ANY
            et = self._finite(prm.domain, et, f"parameter '{prm.name}'")
            self._own_blind_options(prm.domain, f"parameter '{prm.name}'")
            moves *= max(T.type_size(et, self.p.players or self.p.max_players), 1)
            if moves > MAX_ACTION_MOVES:
                self.error(prm, "E114", f"action '{a.name}' would have {moves:,} possible moves; an action may "
                                        f"have at most {MAX_ACTION_MOVES:,}",
                           "take fewer values for its parameters, or split it into actions or choices")
                moves = 1
            scope = scope.child()
            scope.names[prm.name] = Sym("local", prm.name, et, prm)
            if prm.cond is not None:
                ct = self.expr(prm.cond, scope, ctx, T.BOOL)
                self._expect(prm.cond, ct, T.BOOL, "a 'where' condition")
            a.params.append(ActionParamInfo(prm.name, et, prm.domain, prm.cond))
        effects_started = False
        for s in d.body:
            if isinstance(s, ast.RequireStmt):
                if effects_started:
                    self.error(s, "E161", "'require' must come before the action's effects",
                               "legality is decided before anything happens; move it up")
                t = self.expr(s.cond, scope, ctx, T.BOOL)
                self._expect(s.cond, t, T.BOOL, "a 'require'")
                a.requires.append(s)
            elif isinstance(s, ast.CostStmt):
                if effects_started:
                    self.error(s, "E161", "'cost' must come before the action's effects")
                for item in s.items:
                    self._cost_item(item, scope, ctx)
                a.costs.extend(s.items)
            elif isinstance(s, ast.CiteStmt):
                if not a.cite or not effects_started:
                    a.cite = s.text
            else:
                effects_started = True
                a.effects.append(s)
        self.block(a.effects, scope, _Ctx("action", action=a), top_level_done=True)

    def _finite(self, node, t: T.Type, what: str) -> T.Type:
        """Parameters and choices need statically numbered values (for action ids)."""
        s = T.strip(t)
        if T.is_int(s) and not isinstance(s, T.IntRange):
            s = self._static_range(node) or s
        if isinstance(s, T.SelectionType) and s.size() > MAX_OPTIONS:
            self.error(node, "E114", f"{what} would take {s.size():,} selections; at most {MAX_OPTIONS:,}",
                       "fewer values in a selection, or fewer kinds to select among")
            return T.ANY
        if isinstance(s, T.IntRange) and s.high - s.low + 1 > MAX_OPTIONS:
            self.error(node, "E114", f"{what} would take {s.high - s.low + 1:,} values; at most {MAX_OPTIONS:,}",
                       "a choice among a million values is no choice a player makes: narrow the range")
            return T.ANY
        if s is T.ANY or getattr(s, "finite", False):
            return s
        if s is T.BOOL:
            return s
        self.error(node, "E132", f"the values of {what} must be known when the rules are loaded, "
                                 f"but they are {t}",
                   "take them from an enum, components, cells, players, slots(...) or range(LOW, HIGH) "
                   "with constant bounds")
        return T.ANY

    def _static_range(self, node) -> Optional[T.IntRange]:
        t = self.p.types.get(id(node))
        if isinstance(t, T.ListType) and isinstance(t.elem, T.IntRange):
            return t.elem
        return None

    def _cost_item(self, item: ast.CostItem, scope, ctx):
        t = self.expr(item.amount, scope, ctx, T.INT)
        self._expect(item.amount, t, T.INT, "a cost")
        vi = self.p.pvars.get(item.counter)
        if vi is None:
            self.error(item, "E133", f"a cost is paid from a player's counter; players have no "
                                     f"'{item.counter}'{did_you_mean(item.counter, self.p.pvars)}")
        elif not T.is_int(vi.type):
            self.error(item, "E133", f"'{item.counter}' is {vi.type}; a cost is paid from an int counter")
        else:
            vi.used = True

    # statements -----------------------------------------------------------

    def block(self, stmts, scope: _Scope, ctx: _Ctx, top_level_done=False):
        scope = scope.child()
        for s in stmts:
            self.stmt(s, scope, ctx, top_level_done)

    def stmt(self, s: ast.Stmt, scope: _Scope, ctx: _Ctx, top=False):
        p = self.p
        k = type(s)
        if ctx.kind == "def" and k not in (ast.LetStmt, ast.ReturnStmt, ast.IfStmt, ast.CiteStmt, ast.PassStmt):
            self.error(s, "E162", "a 'def' computes a value: only 'let', 'if' and 'return' are allowed in it",
                       "write a 'procedure' for rules that change the game")
            return
        if k is ast.LetStmt:
            if s.type is not None:
                t = self.resolve_type(s.type)
                self._expect(s.value, self.expr(s.value, scope, ctx, t), t, f"the value of '{s.name}'")
            else:
                t = self.expr(s.value, scope, ctx)
            if t is T.NONE:
                self.error(s.value, "E134", "'let' needs a value with a type; 'none' alone has none",
                           f"write the type: let {s.name}: T or none = none")
            elif s.type is None and isinstance(t, T.ListType) and t.elem is T.ANY and \
                    isinstance(s.value, ast.ListLit) and not s.value.items:
                self.error(s.value, "E134", "'let' needs a value with a type; an empty list alone has none",
                           f"write the type: let {s.name}: list of T = []")
            if scope.lookup(s.name) is not None and s.name in scope.names:
                self.error(s, "E102", f"'{s.name}' is already bound in this block")
            scope.names[s.name] = Sym("local", s.name, t, s)
        elif k is ast.AssignStmt:
            self._assign(s, scope, ctx)
        elif k is ast.MoveFrom:
            zt = self.expr(s.zone, scope, ctx)
            z = self._zone(s.zone, zt, "move ... from")
            it = self.expr(s.item, scope, ctx, z.elem if z else None)
            if z is not None:
                if z.zone in ("row", "slots"):
                    self.error(s.zone, "E135", "to move out of a row or slots, name the slot: move Z[i] -> ...")
                self._expect(s.item, it, z.elem, "the component moved")
            self._dest(s.dest, scope, ctx, z.elem if z else None)
        elif k is ast.MoveSlot:
            st = self.expr(s.source, scope, ctx)
            rec = self._slot(s.source, st, "move")
            self._dest(s.dest, scope, ctx, rec)
        elif k is ast.MoveAll:
            zt = self.expr(s.zone, scope, ctx)
            z = self._zone(s.zone, zt, "move all from")
            self._dest(s.dest, scope, ctx, z.elem if z else None, whole=True)
        elif k is ast.DrawStmt:
            zt = self.expr(s.zone, scope, ctx)
            z = self._zone(s.zone, zt, "draw")
            if z is not None and z.zone != "stack":
                self.error(s.zone, "E135", f"'draw' takes a random component from a stack, not from a {z.zone}",
                           "declare it 'stack of ...', or 'move' a chosen component")
            self._dest(s.dest, scope, ctx, z.elem if z else None)
            self._no_static(s, ctx)
        elif k is ast.FillStmt:
            zt = self.expr(s.zone, scope, ctx)
            z = self._zone(s.zone, zt, "fill")
            if z is not None and z.slotted:
                self.error(s.zone, "E135", "fill a stack, pile or sequence; put components in slots with 'move'")
            vt = self.expr(s.value, scope, ctx, T.ListType(z.elem) if z else None)
            if z is not None:
                self._expect(s.value, vt, T.ListType(z.elem), "the components to fill with")
        elif k is ast.DiscardStmt:
            st = self.expr(s.target, scope, ctx)
            self._slot(s.target, st, "discard")
        elif k is ast.DiscardAll:
            zt = self.expr(s.zone, scope, ctx)
            self._zone(s.zone, zt, "discard all from")
        elif k is ast.CompactStmt:
            zt = self.expr(s.zone, scope, ctx)
            z = self._zone(s.zone, zt, "compact")
            if z is not None and z.zone != "row":
                self.error(s.zone, "E135", f"only a row can be compacted, not a {z.zone}")
        elif k in (ast.PeekStmt, ast.RevealStmt):
            who = s.player if k is ast.PeekStmt else s.to
            if who is not None:
                pt = self.expr(who, scope, ctx, T.PLAYER)
                self._expect(who, pt, T.PLAYER, "who peeks" if k is ast.PeekStmt else "whom it is shown to")
            tt = self.expr(s.target, scope, ctx)
            if self._whole_secret(s.target, shows=True) is None:
                self._slot(s.target, tt, "peek at" if k is ast.PeekStmt else "reveal", hidden=True)
        elif k is ast.RequireStmt or k is ast.CostStmt:
            where = "at the top of an action, before its effects" if ctx.kind == "action" else "in actions"
            self.error(s, "E161", f"'{'require' if k is ast.RequireStmt else 'cost'}' belongs {where}")
            if k is ast.RequireStmt:
                self.expr(s.cond, scope, ctx, T.BOOL)
            else:
                for item in s.items:
                    self._cost_item(item, scope, ctx)
        elif k is ast.EmitStmt:
            ev = p.events.get(s.event)
            args = s.args or []
            if ev is None:
                self.warn(s, "W002", f"no handler listens to event '{s.event}'",
                          f"add 'on {s.event}(...):' or remove the emit")
                for a in args:
                    self.expr(a, scope, ctx)
            else:
                ev.emitted = True
                self._args(s, args, ev.params, scope, ctx, f"event '{s.event}'")
        elif k is ast.RollStmt:
            vt = self.expr(s.values, scope, ctx)
            et = T.elem_type(vt)
            if et is None:
                self.error(s.values, "E131", f"'roll' picks one value of a list, not of {vt}")
                et = T.ANY
            scope.names[s.var] = Sym("local", s.var, T.INT if isinstance(T.strip(et), T.IntRange) else et, s)
            if ctx.kind in ("def", "static", "score"):
                self.error(s, "E162", "chance belongs to the game's flow, not to a 'def'")
        elif k is ast.PayStmt:
            pi = self.p.payments.get(s.payment)
            if pi is None:
                self.error(s, "E170", f"unknown payment '{s.payment}'{did_you_mean(s.payment, self.p.payments)}",
                           "declare it with 'payment NAME of UNIT:'")
                self.expr(s.cost, scope, ctx)
            else:
                self.p.top[s.payment].used = True
                ct = self.expr(s.cost, scope, ctx, T.ListType(pi.unit))
                self._expect(s.cost, ct, T.ListType(pi.unit), "a cost")
            if s.payer is not None:
                self._expect(s.payer, self.expr(s.payer, scope, ctx, T.PLAYER), T.PLAYER, "who pays")
            if ctx.kind in ("def", "static", "score"):
                self.error(s, "E162", "paying changes the game: not in a 'def'")
        elif k is ast.EndGame:
            if ctx.kind == "end":
                self.error(s, "E163", "the game is already ending here")
        elif k in (ast.PassStmt, ast.CiteStmt):
            pass
        elif k is ast.CallStmt:
            self._call_stmt(s, scope, ctx)
        elif k is ast.ReturnStmt:
            if ctx.kind != "def":
                self.error(s, "E164", "'return' is only for 'def' functions")
                self.expr(s.value, scope, ctx)
            else:
                t = self.expr(s.value, scope, ctx, ctx.ret)
                self._expect(s.value, t, ctx.ret, "the returned value")
        elif k is ast.BreakStmt:
            if ctx.loops == 0:
                self.error(s, "E165", "'break' outside a loop")
        elif k is ast.ActStmt:
            self._act(s, scope, ctx)
        elif k is ast.ChooseStmt:
            self._choose(s, scope, ctx)
        elif k is ast.IfStmt:
            for cond, body in [(s.cond, s.body)] + [(e.cond, e.body) for e in s.elifs]:
                t = self.expr(cond, scope, ctx, T.BOOL)
                self._expect(cond, t, T.BOOL, "an 'if' condition")
                self.block(body, scope, ctx)
            if s.other is not None:
                self.block(s.other, scope, ctx)
        elif k is ast.ForStmt:
            self._loop_body(s.body, self._loop_clause(s, scope, ctx), ctx)
        elif k is ast.SimultaneousStmt:
            inner = self._loop_clause(s, scope, ctx)
            choice = s.body[0] if len(s.body) == 1 and isinstance(s.body[0], ast.ChooseStmt) else None
            by = next((o.player for o in choice.options if isinstance(o, ast.ChooseBy)), None) if choice else None
            if choice is None or not (isinstance(by, ast.Name) and by.name == s.var):
                self.error(s, "E167", f"'simultaneously for {s.var} in ...' takes one choice made by each "
                                      f"of them: choose x in ..., by {s.var}: ...")
            if not isinstance(T.strip(inner.names[s.var].type), (T.PlayerType,)) and \
                    inner.names[s.var].type is not T.ANY:
                self.error(s.iter, "E130", f"simultaneous choices are made by players, not {inner.names[s.var].type}")
            self.block(s.body, inner, ctx)
        elif k is ast.RepeatStmt:
            self._expect(s.count, self.expr(s.count, scope, ctx, T.INT), T.INT, "a repeat count")
            self._loop_body(s.body, scope, ctx)
        elif k is ast.WhileStmt:
            self._expect(s.cond, self.expr(s.cond, scope, ctx, T.BOOL), T.BOOL, "a 'while' condition")
            self._loop_body(s.body, scope, ctx)
        elif k is ast.LoopStmt:
            self._loop_body(s.body, scope, ctx)
        else:
            raise AssertionError(k)

    def _no_static(self, s, ctx):
        if ctx.kind == "def":
            self.error(s, "E162", "a 'def' cannot change the game")

    def _assign(self, s: ast.AssignStmt, scope, ctx):
        tgt = s.target
        tt = self.expr(tgt, scope, ctx)
        ok = False
        if isinstance(tgt, ast.Name):
            sym = self.p.refs.get(id(tgt))
            if sym is not None and sym.kind == "local" and isinstance(sym.node, ast.LetStmt):
                ok = True
            elif sym is not None and sym.kind == "global" and not isinstance(sym.type, T.ZoneType):
                ok = True
        elif isinstance(tgt, ast.Attr):
            ot = T.strip(self.p.types.get(id(tgt.obj), T.ANY))
            if isinstance(ot, T.PlayerType) and tgt.name in self.p.pvars and \
                    not isinstance(self.p.pvars[tgt.name].type, T.ZoneType):
                ok = True
        elif isinstance(tgt, ast.Index):
            ot = self.p.types.get(id(tgt.obj), T.ANY)
            osym = self.p.refs.get(id(tgt.obj))
            if osym is not None and osym.kind == "cell_attr":
                ok = True
            elif isinstance(ot, T.MapType):
                if isinstance(tgt.obj, ast.Name) and osym is not None and osym.kind == "local":
                    # a local map is a value: changing it in place would change the game's map
                    # it came from, past its bounds and triggers
                    self.error(tgt, "E136", "a local map cannot be changed entry by entry",
                               "assign the game's variable itself (p.x[k] = ...)")
                    ok = None
                else:
                    ok = True
        if tt is T.ANY:
            ok = True
        if ok and isinstance(T.strip(tt), T.MapType) and not isinstance(tgt, ast.Index):
            vi = self._var_of(tgt)
            if vi is not None and (vi.low is not None or vi.high is not None or
                                   any(w.var is vi for w in self.p.watchers)):
                self.error(tgt, "E136", f"'{vi.name}' has bounds or triggers: assign it entry by entry "
                                        f"({_text(tgt)}[k] = ...)")
        if ok is None:
            pass
        elif not ok:
            self.error(tgt, "E136", "this cannot be assigned: assign a variable, a player's counter, "
                                    "a map entry or a cell attribute",
                       "components move with 'move'" if isinstance(T.strip(tt), (T.RecordType, T.ZoneType)) else None)
        vt = self.expr(s.value, scope, ctx, tt)
        if s.op in ("+=", "-="):
            if not T.is_int(tt):
                self.error(s, "E137", f"'{s.op}' needs a number, but the target is {tt}")
            self._expect(s.value, vt, T.INT, f"the right side of '{s.op}'")
        else:
            self._expect(s.value, vt, tt, "the assigned value")
        if ctx.kind == "def":
            self.error(s, "E162", "a 'def' cannot change the game")

    def _zone(self, node, t, what) -> Optional[T.ZoneType]:
        t = T.strip(t)
        if isinstance(t, T.ZoneType):
            return t
        if t is not T.ANY:
            self.error(node, "E135", f"'{what}' needs a zone (stack, pile, sequence, row or slots), not {t}")
        return None

    def _slot(self, node, t, what, hidden=False) -> Optional[T.RecordType]:
        """A single place: a slot of a row or slots zone, or a grid cell."""
        if isinstance(node, ast.Index):
            ot = self.p.types.get(id(node.obj), T.ANY)
            if isinstance(ot, T.ZoneType) and ot.slotted:
                if hidden:
                    vi = self._var_of(node.obj)
                    if vi is not None and vi.visibility != "hidden":
                        self.error(node, "E138", f"'{what}' applies to hidden slots; '{vi.name}' is {vi.visibility}")
                return ot.elem
            if isinstance(ot, T.GridType) and not hidden:
                return ot.grid.record
            if ot is T.ANY:
                return None
        if t is not T.ANY:
            self.error(node, "E135", f"'{what}' needs one slot (Z[i] of a row or slots, or a grid cell), not {t}")
        return None

    def _own_blind_options(self, domain, what):
        """Options taken from the contents of the mover's own `others` zone would show the
        mover what its owner may not see (the legal moves name them)."""
        if isinstance(domain, ast.Attr) and isinstance(domain.obj, ast.Me):
            vi = self.p.pvars.get(domain.name)
            if vi is not None and vi.visibility == "others":
                self.warn(domain, "W004", f"the options of {what} are the cards of your own '{vi.name}', which "
                                          f"you may not see: the legal moves would name them",
                          f"take the slots instead: slots(me.{vi.name})")

    def _whole_secret(self, node, shows=False) -> Optional[VarInfo]:
        """A private or hidden variable named as a whole (`p.hand`, `deck`, `p.chips`), for
        reveal and peek (shows) and knows: marked so that who knows it is kept in the state.
        Once the state is laid out (a scenario's statements, checked against a loaded game),
        nothing is marked: a reveal the rules never make cannot be kept."""
        vi = self._var_of(node)
        if vi is None or vi.visibility not in ("private", "hidden", "others"):
            return None
        if vi.slot < 0:
            vi.revealed = True
        elif shows and vi.seen_slot < 0:
            self.error(node, "E138", f"the rules never show '{vi.name}' as a whole, so who knows it is not "
                                     f"kept: it cannot be shown here")
        return vi

    def _var_of(self, node) -> Optional[VarInfo]:
        if isinstance(node, ast.Name):
            sym = self.p.refs.get(id(node))
            if sym is not None and sym.kind == "global":
                return sym.data
        if isinstance(node, ast.Attr) and node.name in self.p.pvars:
            return self.p.pvars[node.name]
        return None

    def _dest(self, node, scope, ctx, rec: Optional[T.RecordType], whole=False):
        t = self.expr(node, scope, ctx)
        if isinstance(node, ast.Index):
            ot = self.p.types.get(id(node.obj), T.ANY)
            if (isinstance(ot, T.ZoneType) and ot.slotted) or isinstance(ot, T.GridType):
                if whole:
                    self.error(node, "E135", "'move all' needs a zone to receive everything, not one slot")
                drec = ot.elem if isinstance(ot, T.ZoneType) else ot.grid.record
                if rec is not None and drec is not rec:
                    self.error(node, "E130", f"this slot holds {drec.name}, not {rec.name}")
                return
        z = T.strip(t)
        if isinstance(z, T.ZoneType):
            if z.slotted:
                self.error(node, "E135", f"name the slot of '{_text(node)}' to move into: {_text(node)}[i]")
            elif rec is not None and z.elem is not rec:
                self.error(node, "E130", f"this zone holds {z.elem.name}, not {rec.name}")
            return
        if t is not T.ANY:
            self.error(node, "E135", f"a destination must be a zone or one slot, not {t}")

    def _call_stmt(self, s: ast.CallStmt, scope, ctx):
        p = self.p
        args = s.args or []
        if s.func in p.procs:
            c = p.procs[s.func]
            p.top[s.func].used = True
            self._args(s, args, c.params, scope, ctx, f"procedure '{s.func}'")
            if ctx.kind == "def":
                self.error(s, "E162", "a 'def' cannot call a procedure")
            return
        if s.func in p.defs or s.func in BUILTINS:
            self.error(s, "E166", f"'{s.func}' computes a value; calling it alone does nothing",
                       "use its value in an expression, or call a procedure")
            for a in args:
                self.expr(a, scope, ctx)
            return
        if s.func in p.actions:
            self.error(s, "E166", f"'{s.func}' is an action: players take actions with 'act'")
            return
        self.error(s, "E170", f"unknown procedure '{s.func}'{did_you_mean(s.func, list(p.procs))}")
        for a in args:
            self.expr(a, scope, ctx)

    def _args(self, node, args, params, scope, ctx, what):
        if len(args) != len(params):
            self.error(node, "E171", f"{what} takes {len(params)} argument{'s' if len(params) != 1 else ''}, "
                                     f"not {len(args)}")
        for a, (pname, pt) in zip(args, params):
            t = self.expr(a, scope, ctx, pt)
            self._expect(a, t, pt, f"argument '{pname}' of {what}")
        for a in args[len(params):]:
            self.expr(a, scope, ctx)

    def _act(self, s: ast.ActStmt, scope, ctx):
        pt = self.expr(s.player, scope, ctx, T.PLAYER)
        self._expect(s.player, pt, T.PLAYER, "the acting player")
        expanded = []
        for name in s.actions:
            if name in self.p.groups:
                self.p.top[name].used = True
                members = self.p.groups[name]
            else:
                members = [name]
            for a in members:
                if a not in self.p.actions:
                    if a == name:
                        self.error(s, "E172", f"unknown action '{name}'"
                                              f"{did_you_mean(name, list(self.p.actions) + list(self.p.groups))}")
                    continue
                self.p.top[a].used = True
                if a in expanded:
                    self.error(s, "E172", f"action '{a}' is offered twice here")
                expanded.append(a)
        self.p.act_actions[id(s)] = expanded
        for o in s.options:
            if isinstance(o, ast.ActCost):
                self._cost_item(ast.CostItem(span=o.span, amount=o.amount, counter=o.counter), scope, ctx)
        if ctx.kind in ("def", "static", "score"):
            self.error(s, "E162", "players act only in the game's flow, procedures and handlers")

    def _choose(self, s: ast.ChooseStmt, scope, ctx):
        dt = self.expr(s.domain, scope, ctx)
        et = T.elem_type(dt)
        if et is None:
            self.error(s.domain, "E131", f"a choice is made among the values of a list or zone, not {dt}")
            et = T.ANY
        et = self._finite(s.domain, et, f"choice '{s.var}'")
        inner = scope if s.body is None else scope.child()
        inner.names[s.var] = Sym("local", s.var, et, s)
        if s.cond is not None:
            ct = self.expr(s.cond, inner, ctx, T.BOOL)
            self._expect(s.cond, ct, T.BOOL, "a 'where' condition")
        seen = set()
        for o in s.options:
            if type(o) in seen:
                self.error(o, "E173", "this option is given twice")
            seen.add(type(o))
            if isinstance(o, ast.ChooseBy):
                t = self.expr(o.player, scope, ctx, T.PLAYER)
                self._expect(o.player, t, T.PLAYER, "who chooses")
        optional = any(isinstance(o, ast.ChooseOptional) for o in s.options)
        if ctx.kind in ("setup", "flow", "end") and not any(isinstance(o, ast.ChooseBy) for o in s.options):
            where = {"setup": "setup", "flow": "the flow", "end": "'on game end'"}[ctx.kind]
            self.error(s, "E174", f"who chooses? In {where} no player is acting", "add ', by p'")
        if optional and s.body is None:
            # a flat optional choice binds none when the player passes
            inner.names[s.var] = Sym("local", s.var, T.OptType(et) if et is not T.ANY else T.ANY, s)
        if ctx.kind in ("def", "static", "score"):
            self.error(s, "E162", "choices are made in the flow, procedures, actions and handlers")
        if s.body is not None:
            self.block(s.body, inner, ctx)

    # expressions ----------------------------------------------------------

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
            from .render import render_expr
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

    def _loop_body(self, body, scope, ctx):
        """A loop's block, where `break` is allowed."""
        ctx.loops += 1
        self.block(body, scope, ctx)
        ctx.loops -= 1

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

    # builtins: each checks its own arguments ---------------------------------

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

    # ------------------------------------------------------------------ triggers and payments

    def _when(self, d: ast.WhenDecl):
        """`when p.x[k] reaches v:` — the target names a variable; p and k are binders."""
        p = self.p
        tgt = d.target
        key_binder = None
        if isinstance(tgt, ast.Index):
            if not isinstance(tgt.index, ast.Name):
                self.error(tgt.index, "E181", "name the key with a plain name, e.g. resources[r]")
                return
            key_binder = tgt.index.name
            tgt = tgt.obj
        player_binder = None
        if isinstance(tgt, ast.Attr) and isinstance(tgt.obj, ast.Name):
            player_binder = tgt.obj.name
            vi = p.pvars.get(tgt.name)
            if vi is None:
                self.error(tgt, "E177", f"players have no attribute '{tgt.name}'{did_you_mean(tgt.name, p.pvars)}")
                return
        elif isinstance(tgt, ast.Name):
            vi = p.globals.get(tgt.name)
            if vi is None:
                self.error(tgt, "E170", f"unknown variable '{tgt.name}'{did_you_mean(tgt.name, p.globals)}")
                return
            p.top[tgt.name].used = True
        else:
            self.error(d.target, "E181", "'when ... reaches' watches a variable: x, x[k], p.x or p.x[k]")
            return
        t = vi.type
        key_type = None
        if key_binder is not None:
            if not isinstance(t, T.MapType):
                self.error(d.target, "E181", f"'{vi.name}' is {t}, not a map: drop the [{key_binder}]")
                return
            key_type, t = t.key, t.value
        elif isinstance(t, T.MapType):
            self.error(d.target, "E181", f"'{vi.name}' is a map: watch its entries, e.g. {vi.name}[k]")
            return
        if not T.is_int(t):
            self.error(d.target, "E181", f"'when ... reaches' watches a number; '{vi.name}' is {t}")
            return
        vi.used = True
        scope = _Scope()
        if player_binder:
            scope.names[player_binder] = Sym("local", player_binder, T.PLAYER, d)
        if key_binder:
            scope.names[key_binder] = Sym("local", key_binder, key_type, d)
        ctx = _Ctx("handler")
        vt = self.expr(d.value, scope, ctx, T.INT)
        self._expect(d.value, vt, T.INT, "the value watched for")
        self.block(d.body, scope, ctx)
        p.watchers.append(WatchInfo(d, vi, player_binder, key_binder, key_type))

    def _modifier(self, d: ast.ModifierDecl):
        """`modifier hook(a, b) += v when c`: adjusts a hook's result while c holds."""
        p = self.p
        c = p.defs.get(d.hook_name)
        if c is None or not c.decl.hook:
            hooks = [n for n, x in p.defs.items() if x.decl.hook]
            what = "is a function, not a hook: declare it with 'hook'" if c is not None else "is not a hook"
            self.error(d, "E183", f"'{d.hook_name}' {what}{did_you_mean(d.hook_name, hooks) if c is None else ''}")
            return
        p.top[d.hook_name].used = True
        names = d.params or []
        if len(names) != len(c.params):
            self.error(d, "E171", f"hook '{d.hook_name}' takes {len(c.params)} parameters; name each of them "
                                  f"({', '.join(n for n, _ in c.params)})")
            return
        scope = _Scope()
        for name, (_, t) in zip(names, c.params):
            scope.names[name] = Sym("local", name, t, d)
        ctx = _Ctx("def")
        want = T.INT if d.op in ("+=", "-=") else c.ret
        if d.op in ("+=", "-=") and not T.is_int(c.ret):
            self.error(d, "E137", f"'{d.op}' adjusts a number; hook '{d.hook_name}' gives {c.ret}")
        vt = self.expr(d.value, scope, ctx, want)
        self._expect(d.value, vt, want, "the modifier's value")
        if d.cond is not None:
            self._expect(d.cond, self.expr(d.cond, scope, ctx, T.BOOL), T.BOOL, "a modifier's condition")
        p.modifiers.setdefault(d.hook_name, []).append(d)

    def _payment(self, pi: PaymentInfo):
        """Each rule names a counter of the payer that may pay for some units of a cost."""
        p = self.p
        d = pi.decl
        ut = self.resolve_type(ast.TypeName(span=d.span, name=d.unit))
        if ut is not T.ANY and not T.is_indexed(ut):
            self.error(d, "E182", f"a cost is a list of values of an enum or record, not {ut}")
            return
        pi.unit = ut
        counters: list = []
        for rule in d.rules:
            scope = _Scope()
            scope.names[rule.var] = Sym("local", rule.var, ut, rule)
            ctx = _Ctx("payment")
            src = rule.source
            keyed = isinstance(src, ast.Index)
            base = src.obj if keyed else src
            if not (isinstance(base, ast.Attr) and isinstance(base.obj, ast.Me) and base.name in p.pvars):
                self.error(src, "E182", "a payment is made from the payer's own counters: me.x or me.x[key]")
                continue
            vi = p.pvars[base.name]
            st = self.expr(src, scope, ctx, T.INT)
            if not T.is_int(st):
                self.error(src, "E182", f"a payment comes from a number, not {st}")
                continue
            for cond in (rule.cond, rule.when):
                if cond is not None:
                    self._expect(cond, self.expr(cond, scope, ctx, T.BOOL), T.BOOL, "a condition")
            vi.used = True
            pi.rules.append(PayRuleInfo(rule.var, rule, vi, keyed))
            if keyed:
                kt = vi.type.key
                n = T.type_size(kt, p.players or p.max_players)
                for k in range(n):
                    if (vi, k) not in counters:
                        counters.append((vi, k))
            elif (vi, None) not in counters:
                counters.append((vi, None))
        pi.counters = counters

    def _b_player(self, e, args, scope, ctx, expected):
        if self._arity(e, args, 1):
            self._expect(args[0], self.expr(args[0], scope, ctx, T.INT), T.INT, "a seat number")
        return T.PLAYER

    def _b_next_player(self, e, args, scope, ctx, expected):
        if self._arity(e, args, 1):
            self._expect(args[0], self.expr(args[0], scope, ctx, T.PLAYER), T.PLAYER, "a player")
        return T.PLAYER

    # ------------------------------------------------------------------ 7. assertions

    def pass_assertions(self):
        for a in self.p.asserts:
            v, t = self.static_value(a.cond, "an assertion", T.BOOL)
            if v is None:
                continue
            if t is not T.BOOL:
                self.error(a.cond, "E130", f"an assertion must be true or false, not {t}")
            elif not v:
                self.error(a, "E180", f"assertion failed: {a.message}",
                           "the data above disagrees with this fact from the rulebook")

    # ------------------------------------------------------------------ 7b. header facts

    def pass_header_facts(self):
        """`at most N moves` and `scores A..B`: facts for adapters, checked for sense here."""
        for item in self.composed.source.game_decl.items:
            if isinstance(item, ast.GameLength):
                if item.moves < 1:
                    self.error(item, "E018", "a game has at least 1 move: 'at most N moves' needs N of 1 or more")
                else:
                    self.p.max_moves = item.moves
                    self.p.header_spans["moves"] = item.span
            elif isinstance(item, ast.GameScores):
                lo = self.static_int(item.low, "the lowest score")
                hi = self.static_int(item.high, "the highest score")
                if lo > hi:
                    self.error(item, "E018", f"scores {lo}..{hi}: the lowest score is above the highest")
                else:
                    self.p.score_bounds = (lo, hi)
                    self.p.header_spans["scores"] = item.span

    # ------------------------------------------------------------------ 8. unused

    def pass_unused(self):
        p = self.p
        for name, sym in p.top.items():
            if sym.used:
                continue
            if sym.kind in ("def", "proc", "const", "global", "group", "payment"):
                what = {"def": "function", "proc": "procedure", "const": "constant", "global": "variable",
                        "group": "group of actions", "payment": "payment"}[sym.kind]
                if name in p.options:
                    what = "option"
                self.warn(sym.node, "W001", f"{what} '{name}' is never used")
            elif sym.kind == "action":
                self.warn(sym.node, "W001", f"action '{name}' is never offered by any 'act'")
        for ev in p.events.values():
            if not ev.emitted:
                self.warn(ev.decl or ev.handlers[0], "W002", f"event '{ev.name}' is never emitted")
        # a variable or constant named like a value: the name alone means the variable
        for name, sym in p.top.items():
            if sym.kind in ("global", "const") and name in p.values:
                v = p.values[name][0]
                self.warn(sym.node, "W003", f"'{name}' is both a {'variable' if sym.kind == 'global' else 'constant'} "
                                            f"and a value of {v.type}: the name alone means the {'variable' if sym.kind == 'global' else 'constant'}",
                          "give one of them another name")


class _CellAttr(T.Type):
    """The type of a cell attribute's name (indexed by a cell)."""

    def __init__(self, grid, name, value):
        self.grid, self.attr, self.value = grid, name, value
        self.name = f"cell attribute {name}"


def _sig(params) -> str:
    return ", ".join(f"{n}: {t}" for n, t in params)


def _widen(t: T.Type) -> T.Type:
    return T.INT if isinstance(t, T.IntRange) else t


def _default_value(t: T.Type):
    s = t
    if isinstance(s, T.OptType) or s is T.ANY:
        return None
    if T.is_int(s):
        return 0
    if s is T.BOOL:
        return False
    if isinstance(s, T.ListType):
        return []
    if isinstance(s, T.MapType):
        return None  # filled per key by the compiler
    if isinstance(s, (T.EnumType, T.RecordType, T.PlayerType, T.CellType, T.AreaType, T.LineType)):
        return 0
    return None


def _ends_in_return(body) -> bool:
    last = body[-1]
    if isinstance(last, ast.ReturnStmt):
        return True
    if isinstance(last, ast.IfStmt) and last.other is not None:
        return all(_ends_in_return(b) for b in [last.body, last.other] + [e.body for e in last.elifs] if b)
    return False


def _describe(exc: Exception) -> str:
    msg = str(exc)
    if isinstance(exc, ZeroDivisionError):
        return "division by zero"
    if type(exc).__name__ == "RulesTooSlow":
        from .runtime import watchdog
        return f"it takes more than {watchdog.limit_seconds:g} seconds (loops nested too deep?)"
    if isinstance(exc, RecursionError):
        return "calls nested too deep (a def that calls itself without end?)"
    if isinstance(exc, (ValueError, TypeError)) and "empty" in msg:
        return "min or max of nothing"
    return msg or type(exc).__name__


def _text(node) -> str:
    if isinstance(node, ast.Name):
        return node.name
    if isinstance(node, ast.Attr):
        return f"{_text(node.obj)}.{node.name}"
    if isinstance(node, ast.Me):
        return "me"
    return "zone"


def check(composed: Composed) -> tuple[CheckedProgram, list[Diagnostic]]:
    c = Checker(composed)
    prog = c.run()
    return prog, sorted(c.diags, key=Diagnostic.sort_key)


def _option_hint(want: T.Type) -> str:
    if isinstance(want, T.EnumType):
        return f"one of: {', '.join(want.values)}"
    if isinstance(want, T.PlayerType):
        return "a seat number: 1 for the first player"
    if want is T.BOOL:
        return "true or false"
    return "a whole number"
