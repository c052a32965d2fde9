"""Pass 6, bodies: every body of the rules is typed, in this order: groups of actions,
payments, triggers ('when ... reaches'), modifiers, functions, procedures, actions, event
handlers, setup, the flow, 'on game end', the score and the tiebreaks. The checks of each
kind of body are in actions.py, triggers.py, statements.py, expressions.py and
builtin_calls.py."""

from __future__ import annotations

from .. import ast
from .. import types as T
from ..suggest import did_you_mean
from ..symbols import Sym
from .common import _Ctx, _Scope


class BodiesPass:
    """pass_bodies."""

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


def _ends_in_return(body) -> bool:
    last = body[-1]
    if isinstance(last, ast.ReturnStmt):
        return True
    if isinstance(last, ast.IfStmt) and last.other is not None:
        return all(_ends_in_return(b) for b in [last.body, last.other] + [e.body for e in last.elifs] if b)
    return False
