"""Statements (part of pass 6): each kind of statement is checked in its context (what a
'def' may not do, where 'require', 'return' and 'break' belong), with the places components
move from and to, what may be assigned, hidden slots and secrets, and calls of procedures."""

from __future__ import annotations

from typing import Optional

from .. import ast
from .. import types as T
from ..suggest import did_you_mean
from ..symbols import Sym, VarInfo
from .common import BUILTINS, _Ctx, _Scope


class StatementChecks:
    """block, stmt and the statements' own checks."""

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

    def _loop_body(self, body, scope, ctx):
        """A loop's block, where `break` is allowed."""
        ctx.loops += 1
        self.block(body, scope, ctx)
        ctx.loops -= 1


def _text(node) -> str:
    if isinstance(node, ast.Name):
        return node.name
    if isinstance(node, ast.Attr):
        return f"{_text(node.obj)}.{node.name}"
    if isinstance(node, ast.Me):
        return "me"
    return "zone"
