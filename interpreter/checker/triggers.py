"""Triggers, modifiers and payments (part of pass 6): 'when x reaches v' watches an int
variable (or an entry of a map to int); a modifier adjusts a hook's result; each rule of a
payment names a counter of the payer's that may pay for some units of a cost."""

from __future__ import annotations

from .. import ast
from .. import types as T
from ..suggest import did_you_mean
from ..symbols import PaymentInfo, PayRuleInfo, Sym, WatchInfo
from .common import _Ctx, _Scope


class TriggerChecks:
    """_when, _modifier and _payment."""

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
