"""Pass 2, resolve_types: type expressions become types (`resolve_type`, also used by the
later passes), and record fields, grid cell attributes, the parameters and results of
functions and procedures, and the parameters of events and their handlers get theirs."""

from __future__ import annotations

from .. import ast
from .. import types as T
from ..limits import MAX_ZONE_SLOTS
from ..suggest import did_you_mean


class ResolveTypesPass:
    """pass_resolve_types and resolve_type."""

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


def _sig(params) -> str:
    return ", ".join(f"{n}: {t}" for n, t in params)
