"""Actions and decisions (part of pass 6): an action's parameters (finite, statically
numbered domains, with at most MAX_ACTION_MOVES moves), its 'require' and 'cost' before its
effects; 'act' (which actions and groups are offered, and by whom) and 'choose'."""

from __future__ import annotations

from typing import Optional

from .. import ast
from .. import types as T
from ..limits import MAX_ACTION_MOVES, MAX_OPTIONS
from ..suggest import did_you_mean
from ..symbols import ActionInfo, ActionParamInfo, Sym
from .common import _Ctx, _Scope


class ActionChecks:
    """_action, _act, _choose and what they share."""

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
