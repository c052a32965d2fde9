"""Plain statements: a statement that never waits for a decision, as Python lines; assignments
with their declared bounds and `when ... reaches` watchers, and moving components between zones."""

from __future__ import annotations

import re
from typing import Optional

from .. import ast
from .. import types as T
from ..limits import MAX_INT
from .expr import CodegenError
from .layout import VarSlot
from .lines import Lines
from .lower import needs_lowering
from .names import _pyname


class StatementCompiler:
    """Statements that never wait. Uses ProgramCompiler's `p`, `eg` (ExprGen), `lowerer`,
    `vars`, `slots`, `unit_pid` (machine units, to push a watcher that may wait), `fresh`,
    `fresh_key` and `_watchers_of`."""

    def stmts_plain(self, stmts, env, out: Lines, ind, loops):
        env = dict(env)
        for s in stmts:
            self.stmt_plain(s, env, out, ind, loops)

    def _local(self, env, name, machine):
        if machine:
            env[name] = f"L[{self.fresh_key(name)!r}]"
        else:
            env[name] = self.fresh("lt_" + name)      # never a parameter's l_<name>
        return env[name]

    def stmt_plain(self, s, env, out: Lines, ind, loops, machine=False):
        g = self.eg.gen
        k = type(s)
        sp = s.span
        low = self.lowerer
        if k is ast.LetStmt:
            val = low.value(s.value, env, out, ind)
            target = self._local(env, s.name, machine)
            out.add(ind, f"{target} = {val}", sp)
        elif k is ast.AssignStmt:
            self._assign(s, env, out, ind)
        elif k is ast.MoveFrom:
            item = g(s.item, env)
            z = self.eg.t(s.zone)
            out.add(ind, f"_k = {item}", sp)
            self._take(out, ind, s.zone, env, z, "_k", sp)
            self._put(out, ind, s.dest, env, "_k", sp)
        elif k is ast.MoveSlot:
            self._take_slot(out, ind, s.source, env, "_k", sp)
            self._put(out, ind, s.dest, env, "_k", sp)
        elif k is ast.MoveAll:
            zt = T.strip(self.eg.t(s.zone))
            out.add(ind, f"_z = {g(s.zone, env)}", sp)
            out.add(ind, f"_all = {'list(_it_counts(_z))' if zt.counted else '_it_slots(_z)' if zt.slotted else 'list(_z)'}", sp)
            self._clear_zone(out, ind, s.zone, env, zt, "_z", sp)
            out.add(ind, "for _k in _all:", sp)
            self._put(out, ind + 1, s.dest, env, "_k", sp)
        elif k is ast.FillStmt:
            zt = T.strip(self.eg.t(s.zone))
            self._forget(out, ind, s.zone, env, sp)
            out.add(ind, f"_z = {g(s.zone, env)}", sp)
            if zt.counted:
                out.add(ind, f"for _k in {g(s.value, env)}: _z[_k] += 1", sp)
            else:
                out.add(ind, f"_z.extend({g(s.value, env)})", sp)
        elif k is ast.DiscardStmt:
            self._take_slot(out, ind, s.target, env, "_k", sp)
        elif k is ast.DiscardAll:
            zt = T.strip(self.eg.t(s.zone))
            out.add(ind, f"_z = {g(s.zone, env)}", sp)
            self._clear_zone(out, ind, s.zone, env, zt, "_z", sp)
        elif k is ast.CompactStmt:
            self._forget(out, ind, s.zone, env, sp)
            zsrc = g(s.zone, env)
            kn = self._known_of(s.zone, env)
            if kn:
                out.add(ind, f"_compact_known({zsrc}, {kn})", sp)
            else:
                out.add(ind, f"_z = {zsrc}; _v = [x for x in _z if x is not None]; "
                             f"_z[:] = _v + [None] * (len(_z) - len(_v))", sp)
        elif k in (ast.PeekStmt, ast.RevealStmt):
            who = s.player if k is ast.PeekStmt else s.to
            seen = self._seen_of(s.target, env, whole_only=True)
            if seen is not None:                          # a whole variable (`reveal p.hand`)
                kn, i = seen, "0"
            else:                                         # one hidden slot (`reveal tokens[k]`)
                kn, i = self._known_of(s.target.obj, env), g(s.target.index, env)
            if who is None:
                out.add(ind, f"{kn}[{i}] = -1", sp)
            else:
                out.add(ind, f"_kn = {kn}; _i = {i}", sp)
                out.add(ind, f"if _kn[_i] != -1: _kn[_i] |= 1 << ({g(who, env)})", sp)
        elif k is ast.EmitStmt:
            ev = self.p.events.get(s.event)
            if ev is not None:
                args = [self.eg.value(a, env) for a in (s.args or [])]
                for i in range(len(ev.handlers)):
                    out.add(ind, f"{_pyname(f'event:{s.event}:{i}')}(S, me{''.join(', ' + a for a in args)})", sp)
        elif k is ast.EndGame:
            out.add(ind, "raise _EndGame()", sp)
        elif k in (ast.PassStmt, ast.CiteStmt):
            pass
        elif k is ast.CallStmt:
            args = [self.eg.value(a, env) for a in (s.args or [])]
            out.add(ind, f"{_pyname('proc:' + s.func)}(S, me{''.join(', ' + a for a in args)})", sp)
        elif k is ast.BreakStmt:
            if loops and loops[-1][0] == "m":
                out.add(ind, f"return {loops[-1][1]}", sp)
            else:
                out.add(ind, "break", sp)
        elif k is ast.IfStmt:
            self._if_plain(s, [(s.cond, s.body)] + [(e.cond, e.body) for e in s.elifs], env, out, ind,
                           loops, machine)
        elif k is ast.ForStmt:
            inner = dict(env)
            var = self._local(inner, s.var, machine)
            src = low.iterable(s.iter, env, out, ind)
            n = self._static_len(src)
            if n is not None:                   # known when compiled: charged once, up front
                _tick(out, ind, sp, n)
            out.add(ind, f"for {var} in {src}:", sp)
            if n is None:
                _tick(out, ind + 1, sp)
            if s.cond is not None:
                low.test(s.cond, inner, out, ind + 1, "continue")
            self._block_plain(s.body, inner, out, ind + 1, loops + [("py",)], machine)
        elif k is ast.RepeatStmt:
            count = g(s.count, env)
            if count.isdigit():
                _tick(out, ind, sp, int(count))
            out.add(ind, f"for _ in range({count}):", sp)
            if not count.isdigit():
                _tick(out, ind + 1, sp)
            self._block_plain(s.body, env, out, ind + 1, loops + [("py",)], machine)
        elif k is ast.WhileStmt:
            if needs_lowering(s.cond):        # the test's loops run again before each round
                out.add(ind, "while True:", sp)
                _tick(out, ind + 1, sp)
                low.test(s.cond, env, out, ind + 1, "break")
            else:
                out.add(ind, f"while {g(s.cond, env)}:", sp)
                _tick(out, ind + 1, sp)
            self._block_plain(s.body, env, out, ind + 1, loops + [("py",)], machine)
        elif k is ast.LoopStmt:
            out.add(ind, "while True:", sp)
            _tick(out, ind + 1, sp)
            self._block_plain(s.body, env, out, ind + 1, loops + [("py",)], machine)
        elif k is ast.ReturnStmt:
            out.add(ind, f"return {low.expr(s.value, env, out, ind)}", sp)
        else:
            raise CodegenError(s, f"statement {s.kind} cannot be compiled here")

    def _if_plain(self, s, branches, env, out, ind, loops, machine):
        """if/elif/else; an elif whose test needs lines of its own becomes `else: <lines> if`."""
        cond, body = branches[0]
        out.add(ind, f"if {self.lowerer.expr(cond, env, out, ind)}:", cond.span)
        self._block_plain(body, env, out, ind + 1, loops, machine)
        rest = branches[1:]
        while rest:
            cond, body = rest[0]
            if needs_lowering(cond):
                out.add(ind, "else:", cond.span)
                self._if_plain(s, rest, env, out, ind + 1, loops, machine)
                return
            out.add(ind, f"elif {self.eg.gen(cond, env)}:", cond.span)
            self._block_plain(body, env, out, ind + 1, loops, machine)
            rest = rest[1:]
        if s.other is not None:
            out.add(ind, "else:", s.span)
            self._block_plain(s.other, env, out, ind + 1, loops, machine)

    def _block_plain(self, body, env, out, ind, loops, machine):
        n = len(out)
        inner = dict(env)
        for s in body:
            self.stmt_plain(s, inner, out, ind, loops, machine)
        if len(out) == n:
            out.add(ind, "pass")

    # assignments with declared bounds ------------------------------------------

    def _target_var(self, tgt) -> Optional[VarSlot]:
        if isinstance(tgt, ast.Index):
            vs = self._zone_var(tgt.obj)        # an entry of a map variable
            return vs if vs is not None and vs.kind == "map" else None
        if isinstance(tgt, ast.Attr) and "." + tgt.name in self.slots:
            return self.vars[self.slots["." + tgt.name]]
        if isinstance(tgt, ast.Name) and tgt.name in self.slots:
            sym = self.p.refs.get(id(tgt))
            if sym is not None and sym.kind == "global":
                return self.vars[self.slots[tgt.name]]
        return None

    def _assign(self, s: ast.AssignStmt, env, out: Lines, ind, machine=None):
        watchers = self._watchers_of(s.target)
        if not watchers:
            return self._store(s, env, out, ind)
        # a watched counter: remember who and which key, store, then look for a crossing
        g = self.eg.gen
        tgt = s.target
        base = tgt.obj if isinstance(tgt, ast.Index) else tgt
        env = dict(env)
        if isinstance(base, ast.Attr):
            out.add(ind, f"_wp = {g(base.obj, env)}", s.span)
        else:
            out.add(ind, "_wp = me", s.span)
        if isinstance(tgt, ast.Index):
            out.add(ind, f"_wk = {g(tgt.index, env)}", s.span)
        cell = self._watched_cell(tgt)
        out.add(ind, f"_old = {cell}", s.span)
        self._store(s, env, out, ind, fixed=True)
        out.add(ind, f"_new = {cell}", s.span)
        fired = []
        for i, w in watchers:
            wenv = {}
            if w.player_binder:
                wenv[w.player_binder] = "_wp"
            if w.key_binder:
                wenv[w.key_binder] = "_wk"
            th = g(w.decl.value, wenv)
            args = "".join([", _wp"] if w.player_binder else []) + ("".join([", _wk"]) if w.key_binder else "")
            cond = f"_old < {th} <= _new"
            key = f"watch:{i}"
            if key in self.unit_pid:
                loc = "{" + ", ".join(([f"{w.player_binder!r}: _wp"] if w.player_binder else []) +
                                      ([f"{w.key_binder!r}: _wk"] if w.key_binder else [])) + "}"
                fired.append((cond, f"S.stack.append([{self.unit_pid[key]}, 0, {loc}, _wp])"))
            else:
                out.add(ind, f"if {cond}: {_pyname(key)}(S, _wp{args})", w.decl.span)
        return fired

    def _watched_cell(self, tgt) -> str:
        vs = self._target_var(tgt)
        if isinstance(tgt, ast.Index):
            return f"V[{vs.slot}][_wp][_wk]" if vs.per_player else f"V[{vs.slot}][_wk]"
        return f"V[{vs.slot}][_wp]" if vs.per_player else f"V[{vs.slot}]"

    def _store(self, s: ast.AssignStmt, env, out: Lines, ind, fixed=False):
        """The assignment itself (bounds and clamps applied). `fixed`: _wp/_wk hold the target."""
        g = self.eg.gen
        tgt = s.target
        vs0 = self._target_var(tgt)
        if vs0 is not None and vs0.seen_slot >= 0:
            self._forget(out, ind, tgt, env, s.span)
        val = self.lowerer.value(s.value, env, out, ind) if s.op == "=" else self.lowerer.expr(s.value, env, out, ind)
        vs = self._target_var(tgt)
        if isinstance(tgt, ast.Name):
            sym = self.p.refs.get(id(tgt))
            if sym.kind == "local":
                loc = env[tgt.name]
                op = {"=": "=", "+=": "+=", "-=": "-="}[s.op]
                out.add(ind, f"{loc} {op} {val}", s.span)
                if s.op != "=" and T.is_int(self.p.types.get(id(s.value))):   # (doubling in a loop)
                    out.add(ind, f"if not -{MAX_INT} <= {loc} <= {MAX_INT}: _too_big({tgt.name!r}, {loc})", s.span)
                return []
            container, key = "V", str(self.slots[tgt.name])
        elif isinstance(tgt, ast.Attr):
            container, key = f"V[{self.slots['.' + tgt.name]}]", ("_wp" if fixed else g(tgt.obj, env))
        elif fixed:
            cell = self._watched_cell(tgt)
            container, key = cell[:cell.rindex("[")], "_wk"
        else:
            container, key = g(tgt.obj, env), g(tgt.index, env)
        if s.op == "=":
            delta = None
        else:
            delta = val if s.op == "+=" else f"-({val})"
        whole_map = vs is not None and vs.kind == "map" and not isinstance(tgt, ast.Index)
        if vs is not None and vs.kind in ("scalar", "map") and (vs.low is not None or vs.high is not None
                                                                or (_holds_ints(vs) and not whole_map)):
            if delta is None:
                out.add(ind, f"_o = {container}; _i = {key}; _v = {val}", s.span)
                self._bounded_store(out, ind, vs, s.span)
            else:
                self._adjust(out, ind, container, key, delta, vs, s.span)
        else:
            if delta is None:
                out.add(ind, f"{container}[{key}] = {val}", s.span)
            else:
                out.add(ind, f"{container}[{key}] += {delta}", s.span)
        return []

    def _static_len(self, src: str) -> Optional[int]:
        """How many values a loop's iterable has at most, if fixed when compiled: a table of
        the game's (VALS_*, CELLS_*...) or its longest row, the players, a literal list or a
        literal range."""
        tables = getattr(self, "static_tables", None) or {}
        if src == "PLAYERS":
            return self.players
        v = tables.get(src)
        if isinstance(v, (list, tuple)):
            return len(v)
        m = _TABLE_ROW.fullmatch(src)            # a row of a table (the cells of an area...): the longest
        if m and isinstance(tables.get(m.group(1)), (list, tuple)) and tables[m.group(1)] \
                and all(isinstance(r, (list, tuple)) for r in tables[m.group(1)]):
            return max(len(r) for r in tables[m.group(1)])
        m = _LITERAL_RANGE.fullmatch(src)
        if m:
            return max(0, int(m.group(2)) - int(m.group(1)))
        if _LITERAL_LIST.fullmatch(src):
            return src.count(",") + (0 if src == "[]" else 1)
        return None

    def _adjust(self, out, ind, container, key, delta, vs: VarSlot, span):
        if vs.low is None and vs.high is None and not _holds_ints(vs):
            out.add(ind, f"{container}[{key}] += {delta}", span)
            return
        out.add(ind, f"_o = {container}; _i = {key}; _v = _o[_i] + {delta}", span)
        self._bounded_store(out, ind, vs, span)

    def _bounded_store(self, out, ind, vs: VarSlot, span):
        """Store _v in _o[_i] within the declared bounds (clamped, or an error), and a number
        within -MAX_INT..MAX_INT where no bound is declared (limits.py)."""
        lo, hi = vs.low, vs.high
        if vs.clamp:
            # min(hi, max(lo, _v)) written as tests (a builtin call costs several of them)
            none_ok = "_v is not None and " if _may_be_none(vs) else ""
            if lo is None or hi is None:
                out.add(ind, f"if {none_ok}not -{MAX_INT} <= _v <= {MAX_INT}: _too_big({vs.name!r}, _v)", span)
            if lo is not None:
                out.add(ind, f"if {none_ok}_v < {lo}: _v = {lo}", span)
            if hi is not None:
                out.add(ind, f"if {none_ok}_v > {hi}: _v = {hi}", span)
            out.add(ind, "_o[_i] = _v", span)
            return
        # one test: the declared bounds, and -MAX_INT..MAX_INT on a side with none declared
        # (_bound_error tells which was passed)
        conds = [f"_v < {lo if lo is not None else -MAX_INT}", f"_v > {hi if hi is not None else MAX_INT}"]
        test = " or ".join(conds)
        if _may_be_none(vs):                    # `int or none`: none is stored as it is
            test = f"_v is not None and ({test})"
        out.add(ind, f"if {test}: _bound_error({vs.name!r}, _v, {lo!r}, {hi!r})", span)
        out.add(ind, "_o[_i] = _v", span)

    # moving components -----------------------------------------------------

    def _known_of(self, zone_expr, env) -> Optional[str]:
        """Source of the knowledge list of a hidden slotted zone expression, if any."""
        vs = self._zone_var(zone_expr)
        return None if vs is None or vs.known_slot < 0 else self._owners(vs.known_slot, vs, zone_expr, env)

    def _owners(self, slot, vs: VarSlot, node, env) -> str:
        """Source of state slot `slot` for the owner of variable node (all of it if global)."""
        return f"V[{slot}][{self.eg.gen(node.obj, env)}]" if vs.per_player else f"V[{slot}]"

    def _seen_of(self, expr, env, whole_only=False) -> Optional[str]:
        """Source of the one-item list holding who knows a revealed variable as a whole
        (layout.py seen_slot), for the variable `expr` names or one of its parts (a key of
        a keyed zone, a slot, a map's entry); None if no one's knowledge of it is kept."""
        node = expr
        if not whole_only:
            while isinstance(node, ast.Index) and self._zone_var(node) is None:
                node = node.obj
        vs = self._zone_var(node)
        return None if vs is None or vs.seen_slot < 0 else self._owners(vs.seen_slot, vs, node, env)

    def _forget(self, out, ind, expr, env, sp):
        """The variable changed: whoever was shown it no longer knows it (its owner, for a
        private one, always does)."""
        seen = self._seen_of(expr, env)
        if seen is not None:
            out.add(ind, f"{seen}[0] = 0", sp)

    def _zone_var(self, zone_expr) -> Optional[VarSlot]:
        if isinstance(zone_expr, ast.Name) and zone_expr.name in self.slots:
            return self.vars[self.slots[zone_expr.name]]
        if isinstance(zone_expr, ast.Attr) and "." + zone_expr.name in self.slots:
            return self.vars[self.slots["." + zone_expr.name]]
        return None

    def _take(self, out, ind, zone, env, zt, var, sp):
        zt = T.strip(zt)
        self._forget(out, ind, zone, env, sp)
        src = self.eg.gen(zone, env)
        if zt.counted:
            out.add(ind, f"_z = {src}", sp)
            out.add(ind, f"if _z[{var}] <= 0: _missing({var}, NAME_{zt.elem.name})", sp)
            out.add(ind, f"_z[{var}] -= 1", sp)
        else:
            out.add(ind, f"_remove({src}, {var}, NAME_{zt.elem.name})", sp)

    def _take_slot(self, out, ind, slot_expr: ast.Index, env, var, sp):
        self._forget(out, ind, slot_expr.obj, env, sp)
        obj, idx = self.eg.gen(slot_expr.obj, env), self.eg.gen(slot_expr.index, env)
        out.add(ind, f"_o = {obj}; _i = {idx}; {var} = _o[_i]", sp)
        out.add(ind, f"if {var} is None: _empty_slot()", sp)
        out.add(ind, "_o[_i] = None", sp)
        kn = self._known_of(slot_expr.obj, env)
        if kn:
            out.add(ind, f"{kn}[_i] = 0", sp)

    def _put(self, out, ind, dest, env, var, sp):
        self._forget(out, ind, dest, env, sp)
        if isinstance(dest, ast.Index):
            ot = self.eg.t(dest.obj)
            if isinstance(ot, T.GridType) or (isinstance(ot, T.ZoneType) and ot.slotted):
                obj, idx = self.eg.gen(dest.obj, env), self.eg.gen(dest.index, env)
                out.add(ind, f"_d = {obj}; _j = {idx}", sp)
                out.add(ind, "if _d[_j] is not None: _occupied()", sp)
                out.add(ind, f"_d[_j] = {var}", sp)
                kn = self._known_of(dest.obj, env)
                if kn:
                    out.add(ind, f"{kn}[_j] = 0", sp)
                return
        zt = T.strip(self.eg.t(dest))
        src = self.eg.gen(dest, env)
        if zt.counted:
            out.add(ind, f"{src}[{var}] += 1", sp)
        else:
            out.add(ind, f"{src}.append({var})", sp)

    def _clear_zone(self, out, ind, zone, env, zt, var, sp):
        self._forget(out, ind, zone, env, sp)
        if zt.counted:
            out.add(ind, f"{var}[:] = [0] * len({var})", sp)
        elif zt.slotted:
            out.add(ind, f"{var}[:] = [None] * len({var})", sp)
            kn = self._known_of(zone, env)
            if kn:
                out.add(ind, f"{kn}[:] = [0] * len({var})", sp)
        else:
            out.add(ind, f"del {var}[:]", sp)


def _tick(out, ind, span, rounds=1):
    """Each round of a loop of statements spends one step of the budget the runner gives
    every run between two decisions (runtime/runner.py): a loop that never ends, or one over
    a billion values, stops with an error at its line instead of hanging. A loop whose
    length is known when compiled pays for all its rounds once, before it starts."""
    out.add(ind, f"_W[0] -= {rounds}", span)
    out.add(ind, "if _W[0] < 0: _loop_budget()", span)


_TABLE_ROW = re.compile(r"(\w+)\[[^\[\]]+\]")
_LITERAL_RANGE = re.compile(r"range\((-?\d+), (-?\d+)\)")
_LITERAL_LIST = re.compile(r"\[(-?\d+(, -?\d+)*)?\]")


def _may_be_none(vs: VarSlot) -> bool:
    """An `int or none` variable (or a map to them): none passes its bounds as it is."""
    t = vs.type.value if vs.kind == "map" and isinstance(vs.type, T.MapType) else vs.type
    return isinstance(t, T.OptType)


def _holds_ints(vs: VarSlot) -> bool:
    """An int variable, or a map to ints: its stores are kept within -MAX_INT..MAX_INT."""
    t = T.strip(vs.type)
    if vs.kind == "map":
        t = T.strip(getattr(t, "value", None))
    return t is T.INT or isinstance(t, T.IntRange)
