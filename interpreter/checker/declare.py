"""Pass 1, declare: every top-level name is collected (constants and options, enums and their
values, records and the kinds their components tables name, grids with their lines, areas
and cell attributes, variables, functions, procedures, actions, groups, events, payments,
triggers and modifiers); a name defined twice, or a builtin's name, is an error, and so is a
game with no 'score' or no 'flow'."""

from __future__ import annotations

from .. import ast
from .. import types as T
from ..suggest import did_you_mean
from ..symbols import ActionInfo, Callable, EventInfo, PaymentInfo, Sym, VarInfo
from .common import BUILTINS, RESERVED_VALUES


class DeclarePass:
    """pass_declare and the definitions it makes."""

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
