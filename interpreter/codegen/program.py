"""Checked program -> one generated Python module (compiled once per game configuration).

What is generated:

* the state layout: every variable gets a slot in the flat list `S.v`;
* `D_*` pure functions (defs), `P_*`/`A_*`/`H_*` procedures, actions and event handlers
  that never wait for a decision, as plain Python functions;
* units that may wait for a decision (a choice, an action, a chance draw) as resumable
  state machines: a list of block functions `M<unit>_<block>(S, F)` over a frame
  `F = [unit, block, locals, me]` kept on the explicit stack `S.stack`. A block returns
  the next block, or RET / SUSPEND / CALL. No Python generators: a frame is plain data,
  so a state can be saved and loaded in the middle of an effect;
* one function per decision site listing its legal moves: for an `act`, nested loops over
  the actions' parameters with every `where`/`require`/`cost` hoisted to the outermost
  loop where its inputs are known.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Optional

from .. import ast
from .. import types as T
from ..symbols import ActionInfo, CheckedProgram
from .expr import CodegenError, ExprGen
from .blocks import simplify_blocks
from .defs import def_lines
from .lower import Lowerer, needs_lowering
from .lines import Lines, Module, hoist_slot_reads

RET, SUSPEND, CALL = -1, -2, -3


@dataclass
class VarSlot:
    name: str
    key: str                    # name in `slots` ('.x' for per-player variables)
    slot: int
    per_player: bool
    kind: str                   # scalar | map | zone | grid | cell_attr
    type: T.Type
    visibility: str = "public"
    init: object = None
    size: int = 0               # map or slotted-zone length
    known_slot: int = -1        # knowledge bitmasks for hidden slotted zones
    low: Optional[int] = None
    high: Optional[int] = None
    clamp: bool = False
    grid: Optional[T.GridInfo] = None
    keys: int = 0               # keyed zones: one zone per key (0: not keyed)
    key_type: Optional[T.Type] = None

    @property
    def zone(self) -> Optional[T.ZoneType]:
        t = self.type
        return t.zone if isinstance(t, T.KeyedZones) else (t if isinstance(t, T.ZoneType) else None)


@dataclass
class SiteInfo:
    index: int
    kind: str                   # act | choose | chance
    node: ast.Node
    cite: str = ""
    prompt: str = ""
    var_key: str = ""           # choose: where the chosen value is stored
    value_type: Optional[T.Type] = None
    actions: list[str] = field(default_factory=list)
    optional: bool = False
    id_offset: int = 0          # choose sites: first action id of their values
    payment: str = ""           # pay sites: the payment, its counters' labels and id radixes
    labels: list = field(default_factory=list)
    radixes: list = field(default_factory=list)


@dataclass
class ActionMeta:
    index: int
    name: str
    info: ActionInfo
    param_types: list[T.Type]
    id_offset: int = 0
    checks: list[tuple[str, object, str]] = field(default_factory=list)   # (message, span, cite)


class _Machine:
    def __init__(self, uid: int, name: str):
        self.uid = uid
        self.name = name
        self.blocks: list[Lines] = [Lines()]
        self.cur = 0

    def new(self) -> int:
        self.blocks.append(Lines())
        return len(self.blocks) - 1

    @property
    def out(self) -> Lines:
        return self.blocks[self.cur]

    def emit(self, text, span=None, ind=0):
        self.blocks[self.cur].add(1 + ind, text, span)

    def goto(self, target: int, span=None):
        self.emit(f"return {target}", span)


class ProgramCompiler:
    def __init__(self, prog: CheckedProgram, players: int):
        self.p = prog
        self.players = players
        self.vars: list[VarSlot] = []
        self.slots: dict[str, int] = {}
        self._layout()
        self.eg = ExprGen(prog, self.slots, share_constants=True)
        self.lowerer = Lowerer(self.eg, self.fresh)
        self.mod = Module()
        self.sites: list[SiteInfo] = []
        self.actions: list[ActionMeta] = []
        self.machines: list[_Machine] = []
        self.unit_pid: dict[str, int] = {}      # machine units by key
        self.suspends: set[str] = set()          # unit keys that may wait for a decision
        self._n = 0
        self._site_funcs: list[Lines] = []
        self.triggers = True            # False: assignments set the state without firing `when`

    # ------------------------------------------------------------------ layout

    def _layout(self):
        p = self.p
        n = 0

        def add(vs: VarSlot):
            nonlocal n
            vs.slot = n
            n += 1
            self.slots[vs.key] = vs.slot
            self.vars.append(vs)
            return vs

        for g in p.grids.values():
            add(VarSlot(g.name, g.name, -1, False, "grid", T.GridType(g), size=g.ncells, grid=g))
            for attr, t in g.cell_attrs.items():
                add(VarSlot(attr, attr, -1, False, "cell_attr", t, size=g.ncells, grid=g))
        for vi in list(p.globals.values()) + list(p.pvars.values()):
            t = vi.type
            key = ("." if vi.per_player else "") + vi.name
            kind, size, keys, key_type = "scalar", 0, 0, None
            if isinstance(t, T.KeyedZones):
                kind = "zone"
                size = _zone_len(t.zone, self.players)
                keys, key_type = T.type_size(t.key, self.players), t.key
            elif isinstance(t, T.ZoneType):
                kind = "zone"
                size = _zone_len(t, self.players)
            elif isinstance(t, T.MapType):
                kind = "map"
                size = T.type_size(t.key, self.players)
            vs = add(VarSlot(vi.name, key, -1, vi.per_player, kind, t, vi.visibility, vi.init, size,
                             low=vi.low, high=vi.high, clamp=vi.clamp, keys=keys, key_type=key_type))
            vi.slot = vs.slot
            if isinstance(t, T.ZoneType) and t.slotted and vi.visibility == "hidden":
                ks = VarSlot(vi.name + "?", "?" + key, -1, vi.per_player, "known", t, size=size)
                add(ks)
                vs.known_slot = ks.slot
                vi.known_slot = ks.slot

    # ------------------------------------------------------------------ analysis

    def _analyse(self):
        p = self.p
        units: dict[str, list] = {}
        for name, c in p.procs.items():
            units["proc:" + name] = c.decl.body
        for name, a in p.actions.items():
            units["action:" + name] = a.effects
        for name, ev in p.events.items():
            units["event:" + name] = [s for h in ev.handlers for s in h.body]
        for i, w in enumerate(p.watchers):
            units[f"watch:{i}"] = w.decl.body
        changed = True
        while changed:
            changed = False
            for key, body in units.items():
                if key not in self.suspends and any(self._stmt_suspends(s) for s in body):
                    self.suspends.add(key)
                    changed = True

    def _watchers_of(self, tgt) -> list:
        """(index, WatchInfo) of the `when ... reaches` on the variable an assignment targets."""
        if not self.triggers:
            return []
        vs = self._target_var(tgt) if isinstance(tgt, (ast.Attr, ast.Index, ast.Name)) else None
        if vs is None:
            return []
        return [(i, w) for i, w in enumerate(self.p.watchers)
                if w.var.slot == vs.slot and (w.key_binder is not None) == isinstance(tgt, ast.Index)]

    def _stmt_suspends(self, s) -> bool:
        if isinstance(s, (ast.ChooseStmt, ast.ActStmt, ast.DrawStmt, ast.PayStmt, ast.RollStmt)):
            return True
        if isinstance(s, ast.AssignStmt):
            return any(f"watch:{i}" in self.suspends for i, _ in self._watchers_of(s.target))
        if isinstance(s, ast.CallStmt):
            return "proc:" + s.func in self.suspends
        if isinstance(s, ast.EmitStmt):
            return "event:" + s.event in self.suspends
        for attr in ("body", "other"):
            b = getattr(s, attr, None)
            if isinstance(b, list) and any(self._stmt_suspends(x) for x in b):
                return True
        if isinstance(s, ast.IfStmt):
            return any(self._stmt_suspends(x) for e in s.elifs for x in e.body)
        return False

    # ------------------------------------------------------------------ driver

    def compile(self) -> "CompiledProgram":
        self._analyse()
        m = self.mod
        m.add("# generated by regola: do not edit")
        for name, c in self.p.defs.items():
            m.add_lines(hoist_slot_reads(def_lines(self.p, self.eg, c, self.fresh)))
        for pi in self.p.payments.values():
            self._payment_functions(pi)
        # actions get their indices first (moves name them)
        offset = 1                               # action id 0 is 'pass'
        for i, (name, a) in enumerate(self.p.actions.items()):
            meta = ActionMeta(i, name, a, [prm.type for prm in a.params])
            meta.id_offset = offset
            size = 1
            for t in meta.param_types:
                size *= max(T.type_size(t, self.players), 1)
            offset += size
            self.actions.append(meta)
        self._id_next = offset
        # every unit first gets its machine (if it can wait), so calls can name any unit
        units = []
        for name, c in self.p.procs.items():
            units.append(("proc:" + name, c.decl.body, c.params, c.decl, (), False))
        for meta in self.actions:
            a = meta.info
            params = [(prm.name, prm.type) for prm in a.params]
            units.append(("action:" + meta.name, a.effects, params, a.decl, a.costs, False))
        for name, ev in self.p.events.items():
            for i, h in enumerate(ev.handlers):
                units.append((f"event:{name}:{i}", h.body, ev.params, h, (), "event:" + name in self.suspends))
        for i, w in enumerate(self.p.watchers):
            params = []
            if w.player_binder:
                params.append((w.player_binder, T.PLAYER))
            if w.key_binder:
                params.append((w.key_binder, w.key_type))
            units.append((f"watch:{i}", w.decl.body, params, w.decl, (), False))
        roots = []
        for attr in ("setup", "flow", "on_end"):
            d = getattr(self.p, attr)
            if d is not None:
                roots.append(attr)
                units.append((attr, d.body, [], d, (), True))
        for key, body, params, decl, costs, force in units:
            if force or key in self.suspends:
                mach = _Machine(len(self.machines), key)
                self.machines.append(mach)
                self.unit_pid[key] = mach.uid
        for key, body, params, decl, costs, force in units:
            self._unit(key, body, params, decl, costs)
        for mach in self.machines:
            simplify_blocks(mach.blocks)
            for b, lines in enumerate(mach.blocks):
                m.add(f"def M{mach.uid}_{b}(S, F):")
                used = " ".join(text for _, text, _ in lines.items)
                prologue = [x for x, rx in _PROLOGUE if rx.search(used)]
                if prologue:
                    m.add("    " + "; ".join(prologue))
                m.add_lines(lines)
        m.add("PROCS = [" + ", ".join("[" + ", ".join(f"M{mc.uid}_{b}" for b in range(len(mc.blocks))) + "]"
                                      for mc in self.machines) + "]")
        # can(p, ACTION) asks an action's own generator (no site's extra costs)
        for meta in self.actions:
            self._generator(f"G_can_{meta.index}", meta, {}, exists=True)
        for lines in self._site_funcs:
            m.add_lines(hoist_slot_reads(lines))
        m.add("SITES = [" + ", ".join(f"SITE_{s.index}" for s in self.sites) + "]")
        self._checks()
        self._scores()
        for src, name in self.eg.constant_maps.items():
            m.add(f"{name} = {src}")
        return CompiledProgram(self.p, self.players, m, self.vars, self.slots, self.sites, self.actions,
                               {k: v for k, v in self.unit_pid.items()}, self._id_next,
                               [self.unit_pid[r] for r in roots if r in self.unit_pid])

    # ------------------------------------------------------------------ units

    def _unit(self, key, body, params, decl, costs=()):
        pyname = _pyname(key)
        if key not in self.unit_pid:
            env = {name: f"l_{name}" for name, _ in params}
            out = Lines()
            args = "".join(f", l_{name}" for name, _ in params)
            self.mod.add(f"def {pyname}(S, me{args}):", decl.span)
            out.add(1, "V = S.v", decl.span)
            self._pay(costs, out, 1, "me", env)
            self.stmts_plain(body, env, out, 1, [])
            out.add(1, "return None")
            self.mod.add_lines(out)
            return
        mach = self.machines[self.unit_pid[key]]
        env = {name: f"L[{name!r}]" for name, _ in params}
        self._pay(costs, mach.out, 1, "me", env)
        self.stmts_machine(body, env, mach, [])
        mach.emit(f"return {RET}")

    def _pay(self, costs, out: Lines, ind, who, env):
        for item in costs:
            vs = self.vars[self.slots["." + item.counter]]
            amount = self.eg.gen(item.amount, env)
            self._adjust(out, ind, f"V[{vs.slot}]", who, f"-({amount})", vs, item.span)

    # ------------------------------------------------------------------ plain statements

    def fresh(self, base):
        """A unique Python-safe name."""
        self._n += 1
        return f"{base}_{self._n}"

    def fresh_key(self, base):
        """A unique key in a frame's locals; '@' keeps them apart from parameter names."""
        return "@" + self.fresh(base.lstrip("_"))

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
            zsrc = g(s.zone, env)
            kn = self._known_of(s.zone, env)
            if kn:
                out.add(ind, f"_compact_known({zsrc}, {kn})", sp)
            else:
                out.add(ind, f"_z = {zsrc}; _v = [x for x in _z if x is not None]; "
                             f"_z[:] = _v + [None] * (len(_z) - len(_v))", sp)
        elif k is ast.PeekStmt:
            kn = self._known_of(s.target.obj, env)
            out.add(ind, f"_kn = {kn}; _i = {g(s.target.index, env)}", sp)
            out.add(ind, f"if _kn[_i] != -1: _kn[_i] |= 1 << ({g(s.player, env)})", sp)
        elif k is ast.RevealStmt:
            kn = self._known_of(s.target.obj, env)
            out.add(ind, f"{kn}[{g(s.target.index, env)}] = -1", sp)
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
            out.add(ind, f"for {var} in {low.iterable(s.iter, env, out, ind)}:", sp)
            if s.cond is not None:
                low.test(s.cond, inner, out, ind + 1, "continue")
            self._block_plain(s.body, inner, out, ind + 1, loops + [("py",)], machine)
        elif k is ast.RepeatStmt:
            out.add(ind, f"for _ in range({g(s.count, env)}):", sp)
            self._block_plain(s.body, env, out, ind + 1, loops + [("py",)], machine)
        elif k is ast.WhileStmt:
            if needs_lowering(s.cond):        # the test's loops run again before each round
                out.add(ind, "while True:", sp)
                low.test(s.cond, env, out, ind + 1, "break")
            else:
                out.add(ind, f"while {g(s.cond, env)}:", sp)
            self._block_plain(s.body, env, out, ind + 1, loops + [("py",)], machine)
        elif k is ast.LoopStmt:
            out.add(ind, "while True:", sp)
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
        val = self.lowerer.value(s.value, env, out, ind) if s.op == "=" else self.lowerer.expr(s.value, env, out, ind)
        vs = self._target_var(tgt)
        if isinstance(tgt, ast.Name):
            sym = self.p.refs.get(id(tgt))
            if sym.kind == "local":
                loc = env[tgt.name]
                op = {"=": "=", "+=": "+=", "-=": "-="}[s.op]
                out.add(ind, f"{loc} {op} {val}", s.span)
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
        if vs is not None and (vs.low is not None or vs.high is not None) and vs.kind in ("scalar", "map"):
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

    def _adjust(self, out, ind, container, key, delta, vs: VarSlot, span):
        if vs.low is None and vs.high is None:
            out.add(ind, f"{container}[{key}] += {delta}", span)
            return
        out.add(ind, f"_o = {container}; _i = {key}; _v = _o[_i] + {delta}", span)
        self._bounded_store(out, ind, vs, span)

    def _bounded_store(self, out, ind, vs: VarSlot, span):
        lo, hi = vs.low, vs.high
        if vs.clamp:
            expr = "_v"
            if lo is not None:
                expr = f"max({lo}, {expr})"
            if hi is not None:
                expr = f"min({hi}, {expr})"
            out.add(ind, f"_o[_i] = {expr}", span)
            return
        conds = []
        if lo is not None:
            conds.append(f"_v < {lo}")
        if hi is not None:
            conds.append(f"_v > {hi}")
        out.add(ind, f"if {' or '.join(conds)}: _bound_error({vs.name!r}, _v, {lo!r}, {hi!r})", span)
        out.add(ind, "_o[_i] = _v", span)

    # moving components -----------------------------------------------------

    def _known_of(self, zone_expr, env) -> Optional[str]:
        """Source of the knowledge list of a hidden slotted zone expression, if any."""
        vs = self._zone_var(zone_expr)
        if vs is None or vs.known_slot < 0:
            return None
        if vs.per_player:
            return f"V[{vs.known_slot}][{self.eg.gen(zone_expr.obj, env)}]"
        return f"V[{vs.known_slot}]"

    def _zone_var(self, zone_expr) -> Optional[VarSlot]:
        if isinstance(zone_expr, ast.Name) and zone_expr.name in self.slots:
            return self.vars[self.slots[zone_expr.name]]
        if isinstance(zone_expr, ast.Attr) and "." + zone_expr.name in self.slots:
            return self.vars[self.slots["." + zone_expr.name]]
        return None

    def _take(self, out, ind, zone, env, zt, var, sp):
        zt = T.strip(zt)
        src = self.eg.gen(zone, env)
        if zt.counted:
            out.add(ind, f"_z = {src}", sp)
            out.add(ind, f"if _z[{var}] <= 0: _missing({var}, NAME_{zt.elem.name})", sp)
            out.add(ind, f"_z[{var}] -= 1", sp)
        else:
            out.add(ind, f"_remove({src}, {var}, NAME_{zt.elem.name})", sp)

    def _take_slot(self, out, ind, slot_expr: ast.Index, env, var, sp):
        obj, idx = self.eg.gen(slot_expr.obj, env), self.eg.gen(slot_expr.index, env)
        out.add(ind, f"_o = {obj}; _i = {idx}; {var} = _o[_i]", sp)
        out.add(ind, f"if {var} is None: _empty_slot()", sp)
        out.add(ind, "_o[_i] = None", sp)
        kn = self._known_of(slot_expr.obj, env)
        if kn:
            out.add(ind, f"{kn}[_i] = 0", sp)

    def _put(self, out, ind, dest, env, var, sp):
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
        if zt.counted:
            out.add(ind, f"{var}[:] = [0] * len({var})", sp)
        elif zt.slotted:
            out.add(ind, f"{var}[:] = [None] * len({var})", sp)
            kn = self._known_of(zone, env)
            if kn:
                out.add(ind, f"{kn}[:] = [0] * len({var})", sp)
        else:
            out.add(ind, f"del {var}[:]", sp)

    # ------------------------------------------------------------------ machines

    def stmts_machine(self, stmts, env, mach: _Machine, loops):
        env = dict(env)
        for s in stmts:
            if not self._stmt_suspends(s):
                self.stmt_plain(s, env, mach.out, 1, loops, machine=True)
                continue
            getattr(self, "m_" + s.kind)(s, env, mach, loops)

    def m_assign_stmt(self, s, env, mach, loops):
        fired = self._assign(s, env, mach.out, 1)
        after = mach.new()
        mach.emit("_f = False", s.span)
        for cond, push in reversed(fired):      # pushed last runs first: declaration order
            mach.emit(f"if {cond}: {push}; _f = True", s.span)
        mach.emit(f"if _f: F[1] = {after}; return {CALL}", s.span)
        mach.goto(after)
        mach.cur = after

    def m_if_stmt(self, s, env, mach, loops):
        g = self.eg.gen
        branches = [(s.cond, s.body)] + [(e.cond, e.body) for e in s.elifs]
        after = mach.new()
        targets = []
        for cond, body in branches:
            b = mach.new()
            targets.append(b)
            mach.emit(f"if {self.lowerer.expr(cond, env, mach.out, 1)}: return {b}", cond.span)
        if s.other is not None:
            b = mach.new()
            mach.goto(b)
            cur_other = b
        else:
            mach.goto(after)
            cur_other = None
        for (cond, body), b in zip(branches, targets):
            mach.cur = b
            self.stmts_machine(body, env, mach, loops)
            mach.goto(after)
        if cur_other is not None:
            mach.cur = cur_other
            self.stmts_machine(s.other, env, mach, loops)
            mach.goto(after)
        mach.cur = after

    def m_for_stmt(self, s, env, mach, loops):
        it, ix = self.fresh_key("it"), self.fresh_key("ix")
        mach.emit(f"L[{it!r}] = list({self.eg.iterable(s.iter, env)}); L[{ix!r}] = 0", s.span)
        head, body, after = mach.new(), mach.new(), mach.new()
        mach.goto(head)
        mach.cur = head
        inner = dict(env)
        var = self._local(inner, s.var, True)
        mach.emit(f"_l = L[{it!r}]", s.span)
        mach.emit(f"while L[{ix!r}] < len(_l):", s.span)
        mach.emit(f"{var} = _l[L[{ix!r}]]; L[{ix!r}] += 1", s.span, 1)
        if s.cond is not None:
            mach.emit(f"if {self.lowerer.expr(s.cond, inner, mach.out, 2)}: return {body}", s.cond.span, 1)
        else:
            mach.emit(f"return {body}", s.span, 1)
        mach.emit(f"del L[{it!r}], L[{ix!r}]", s.span)
        mach.goto(after)
        mach.cur = body
        self.stmts_machine(s.body, inner, mach, loops + [("m", after, head)])
        mach.goto(head)
        mach.cur = after

    def m_repeat_stmt(self, s, env, mach, loops):
        cnt = self.fresh_key("n")
        mach.emit(f"L[{cnt!r}] = {self.eg.gen(s.count, env)}", s.span)
        head, body, after = mach.new(), mach.new(), mach.new()
        mach.goto(head)
        mach.cur = head
        mach.emit(f"if L[{cnt!r}] > 0:", s.span)
        mach.emit(f"L[{cnt!r}] -= 1; return {body}", s.span, 1)
        mach.emit(f"del L[{cnt!r}]", s.span)
        mach.goto(after)
        mach.cur = body
        self.stmts_machine(s.body, env, mach, loops + [("m", after, head)])
        mach.goto(head)
        mach.cur = after

    def m_while_stmt(self, s, env, mach, loops):
        head, body, after = mach.new(), mach.new(), mach.new()
        mach.goto(head)
        mach.cur = head
        mach.emit(f"if {self.lowerer.expr(s.cond, env, mach.out, 1)}: return {body}", s.span)
        mach.goto(after)
        mach.cur = body
        self.stmts_machine(s.body, env, mach, loops + [("m", after, head)])
        mach.goto(head)
        mach.cur = after

    def m_loop_stmt(self, s, env, mach, loops):
        body, after = mach.new(), mach.new()
        mach.goto(body)
        mach.cur = body
        self.stmts_machine(s.body, env, mach, loops + [("m", after, body)])
        mach.goto(body)
        mach.cur = after

    def m_call_stmt(self, s, env, mach, loops):
        pid = self._pid("proc:" + s.func)
        c = self.p.procs[s.func]
        args = [self.eg.value(a, env) for a in (s.args or [])]
        loc = "{" + ", ".join(f"{name!r}: {a}" for (name, _), a in zip(c.params, args)) + "}"
        after = mach.new()
        mach.emit(f"S.stack.append([{pid}, 0, {loc}, me]); F[1] = {after}; return {CALL}", s.span)
        mach.cur = after

    def _pid(self, key) -> int:
        if key not in self.unit_pid:
            raise CodegenError(ast.Node.model_construct(span=ast.NO_SPAN), f"unit {key} is not a machine")
        return self.unit_pid[key]

    def m_emit_stmt(self, s, env, mach, loops):
        ev = self.p.events[s.event]
        args = [self.eg.value(a, env) for a in (s.args or [])]
        loc = "{" + ", ".join(f"{name!r}: {a}" for (name, _), a in zip(ev.params, args)) + "}"
        after = mach.new()
        mach.emit(f"_loc = {loc}", s.span)
        for i in reversed(range(len(ev.handlers))):
            pid = self._pid(f"event:{s.event}:{i}")
            mach.emit(f"S.stack.append([{pid}, 0, dict(_loc), me])", s.span)
        mach.emit(f"F[1] = {after}; return {CALL}", s.span)
        mach.cur = after

    def m_draw_stmt(self, s, env, mach, loops):
        site = self._site("chance", s)
        zsrc = self.eg.gen(s.zone, env)
        fn = Lines()
        fn.add(0, f"def SITE_{site.index}(S, F):")
        fn.add(1, "V = S.v; L = F[2]; me = F[3]")
        fn.add(1, f"return {zsrc}", s.span)
        self._site_funcs.append(fn)
        resume = mach.new()
        mach.emit(f"_o = _draw_single({zsrc})", s.span)
        mach.emit(f"if _o is not None: L['@o'] = _o; return {resume}", s.span)
        mach.emit(f"S.pending = [{site.index}, -1]; S.cache = None; F[1] = {resume}; return {SUSPEND}", s.span)
        mach.cur = resume
        mach.emit("_k = L.pop('@o')", s.span)
        zt = self.eg.t(s.zone)
        self._take(mach.out, 1, s.zone, env, zt, "_k", s.span)
        self._put(mach.out, 1, s.dest, env, "_k", s.span)

    def m_roll_stmt(self, s: ast.RollStmt, env, mach, loops):
        site = self._site("roll", s)
        site.value_type = T.strip(T.elem_type(self.eg.t(s.values)) or T.ANY)
        key = self.fresh_key(s.var)
        site.var_key = key
        vals = self.eg.iterable(s.values, env)
        fn = Lines()
        fn.add(0, f"def SITE_{site.index}(S, F):")
        fn.add(1, "V = S.v; L = F[2]; me = F[3]")
        fn.add(1, f"return list({vals})", s.span)
        self._site_funcs.append(fn)
        resume = mach.new()
        mach.emit(f"_vs = SITE_{site.index}(S, F)", s.span)
        mach.emit("if not _vs: raise RulesRuntimeError('roll among no values')", s.span)
        mach.emit(f"if len(set(_vs)) == 1: L[{key!r}] = _vs[0]; return {resume}", s.span)
        mach.emit(f"S.pending = [{site.index}, -1]; S.cache = None; F[1] = {resume}; return {SUSPEND}", s.span)
        mach.cur = resume
        env[s.var] = f"L[{key!r}]"

    def m_choose_stmt(self, s: ast.ChooseStmt, env, mach, loops):
        site = self._site("choose", s)
        optional = any(isinstance(o, ast.ChooseOptional) for o in s.options)
        by = next((o.player for o in s.options if isinstance(o, ast.ChooseBy)), None)
        prompt = next((o.text for o in s.options if isinstance(o, ast.ChoosePrompt)), "")
        site.optional, site.prompt = optional, prompt
        vt = T.strip(self.p.types.get(id(s.domain)))
        site.value_type = T.elem_type(vt) if vt is not None else None
        site.value_type = self._domain_type(s.domain, site.value_type)
        site.id_offset = self._id_next
        self._id_next += max(T.type_size(site.value_type, self.players), 1)
        inner = dict(env)
        key = self.fresh_key(s.var)
        site.var_key = key
        inner[s.var] = f"L[{key!r}]"
        # the site lists the options from the frame's locals
        fn = Lines()
        fn.add(0, f"def SITE_{site.index}(S, F):")
        fn.add(1, "V = S.v; L = F[2]; me = F[3]")
        dom = self.lowerer.distinct(s.domain, env, fn, 1)
        if s.cond is not None:
            cvar = self.fresh("v")
            cenv = dict(env)
            cenv[s.var] = cvar
            fn.add(1, "_out = []", s.span)
            fn.add(1, f"for {cvar} in {dom}:", s.span)
            self.lowerer.test(s.cond, cenv, fn, 2, "continue")
            fn.add(2, f"_out.append(({cvar},))", s.span)
            fn.add(1, "return _out", s.span)
        else:
            fn.add(1, f"return [(v,) for v in {dom}]", s.span)
        self._site_funcs.append(fn)
        who = self.eg.gen(by, env) if by is not None else "me"
        resume, after = mach.new(), mach.new()
        mach.emit(f"_ms = SITE_{site.index}(S, F)", s.span)
        if optional:
            mach.emit(f"if not _ms: L[{key!r}] = None; return {resume}", s.span)
        else:
            mach.emit(f"if not _ms: _no_options({site.index})", s.span)
            mach.emit(f"if len(_ms) == 1: L[{key!r}] = _ms[0][0]; return {resume}", s.span)
        if optional:
            mach.emit("_ms.append(())", s.span)
        mach.emit(f"_w = {who}", s.span)
        mach.emit("if _w is None: raise RulesRuntimeError('no player is acting here: who chooses?')", s.span)
        mach.emit(f"S.pending = [{site.index}, _w]; S.cache = _ms; F[1] = {resume}; return {SUSPEND}", s.span)
        mach.cur = resume
        if s.body is None:
            mach.goto(after)
            mach.cur = after
            env[s.var] = inner[s.var]
            return
        if optional:
            mach.emit(f"if L[{key!r}] is None: return {after}", s.span)
        self.stmts_machine(s.body, inner, mach, loops)
        mach.goto(after)
        mach.cur = after

    def _domain_type(self, domain, et):
        t = T.strip(et) if et is not None else T.ANY
        if T.is_int(t) and not isinstance(t, T.IntRange):
            dt = self.p.types.get(id(domain))
            if isinstance(dt, T.ListType) and isinstance(dt.elem, T.IntRange):
                return dt.elem
        return t

    def m_act_stmt(self, s: ast.ActStmt, env, mach, loops):
        site = self._site("act", s)
        site.actions = list(self.p.act_actions.get(id(s), s.actions))
        optional = any(isinstance(o, ast.ActOptional) for o in s.options)
        else_pass = any(isinstance(o, ast.ActElsePass) for o in s.options)
        extra = [o for o in s.options if isinstance(o, ast.ActCost)]
        site.optional = optional
        who = self.eg.gen(s.player, env)
        # the site function lists every legal move of every action offered here
        fn = Lines()
        fn.add(0, f"def SITE_{site.index}(S, F):")
        fn.add(1, "V = S.v; L = F[2]; me = F[3]")
        fn.add(1, f"_p = {who}; out = []", s.span)
        extra_amounts = {}
        for j, o in enumerate(extra):
            fn.add(1, f"_x{j} = {self.eg.gen(o.amount, env)}", o.span)
            extra_amounts.setdefault(o.counter, []).append(f"_x{j}")
        for name in site.actions:
            meta = next(m for m in self.actions if m.name == name)
            gname = f"G_{site.index}_{meta.index}"
            self._generator(gname, meta, extra_amounts)
            args = "".join(f", {x}" for xs in extra_amounts.values() for x in xs)
            fn.add(1, f"{gname}(S, V, _p, out{args})", s.span)
        fn.add(1, "return out")
        self._site_funcs.append(fn)
        resume, after = mach.new(), mach.new()
        mach.emit(f"_p = {who}; _ms = SITE_{site.index}(S, F)", s.span)
        if optional or else_pass:
            mach.emit(f"if not _ms: return {after}", s.span)
        else:
            mach.emit(f"if not _ms: _no_options({site.index})", s.span)
        if not optional:
            mach.emit(f"if len(_ms) == 1: L['@m'] = _ms[0]; L['@p'] = _p; return {resume}", s.span)
        else:
            mach.emit("_ms.append(())", s.span)
        mach.emit(f"L['@p'] = _p; S.pending = [{site.index}, _p]; S.cache = _ms; F[1] = {resume}; "
                  f"return {SUSPEND}", s.span)
        mach.cur = resume
        mach.emit("_m = L.pop('@m'); _p = L.pop('@p')", s.span)
        mach.emit(f"if not _m: return {after}", s.span)
        for o in extra:
            vs = self.vars[self.slots["." + o.counter]]
            self._adjust(mach.out, 1, f"V[{vs.slot}]", "_p", f"-({self.eg.gen(o.amount, env)})", vs, o.span)
        mach.emit("_a = _m[0]", s.span)
        for name in site.actions:
            meta = next(m for m in self.actions if m.name == name)
            key = "action:" + name
            params = [prm.name for prm in meta.info.params]
            if key in self.unit_pid or key in self.suspends:
                pid = self.unit_pid.get(key)
                if pid is None:
                    raise CodegenError(s, f"action {name} compiled out of order")
                loc = "{" + ", ".join(f"{p!r}: _m[{i + 1}]" for i, p in enumerate(params)) + "}"
                mach.emit(f"if _a == {meta.index}: S.stack.append([{pid}, 0, {loc}, _p]); F[1] = {after}; "
                          f"return {CALL}", s.span)
            else:
                args = "".join(f", _m[{i + 1}]" for i in range(len(params)))
                mach.emit(f"if _a == {meta.index}: {_pyname(key)}(S, _p{args}); return {after}", s.span)
        mach.emit("raise RulesRuntimeError('unknown action ' + repr(_a))", s.span)
        mach.cur = after

    def _site(self, kind, node) -> SiteInfo:
        site = SiteInfo(len(self.sites), kind, node, cite=self._cite_of(node))
        self.sites.append(site)
        return site

    def _cite_of(self, node) -> str:
        """The rulebook section in force at node: its declaration's, or a nearer `cite`."""
        best = ""
        for d in self.composed_decls():
            if d.span.file == node.span.file and d.span.line <= node.span.line <= d.span.end_line:
                best = self.p.cites.get(id(d), "")
                for s in d.walk():
                    if isinstance(s, ast.CiteStmt) and s.span.line <= node.span.line:
                        best = s.text
        return best

    def composed_decls(self):
        p = self.p
        out = [c.decl for c in p.procs.values()] + [a.decl for a in p.actions.values()]
        out += [h for ev in p.events.values() for h in ev.handlers]
        out += [d for d in (p.setup, p.flow, p.on_end) if d is not None]
        return out

    # ------------------------------------------------------------------ payments

    def _counter_index(self, pi, vi, key_src):
        """Python source of the index of a payer's counter in pi.counters."""
        if key_src is None:
            return str(pi.counters.index((vi, None)))
        first = pi.counters.index((vi, 0))
        return f"({first} + {key_src})"

    def _payment_functions(self, pi):
        """PAY_<name>(V, me, cost, check_only): the ways to pay a cost (or whether one exists);
        SPEND_<name>(V, me, spend): take a chosen way from the counters."""
        eg = self.eg
        lines = Lines()
        lines.add(0, f"def PAY_{pi.name}(V, me, cost, check_only):", pi.decl.span)
        vals = []
        for vi, k in pi.counters:
            vals.append(f"V[{vi.slot}][me]" + (f"[{k}]" if k is not None else ""))
        lines.add(1, f"values = [{', '.join(vals)}]")
        lines.add(1, "groups = []")
        lines.add(1, "for l_u, q in _tally(cost):")
        lines.add(2, "src = []")
        for r in pi.rules:
            env = {r.binder: "l_u"}
            base = r.rule.source.obj if r.keyed else r.rule.source
            key = eg.gen(r.rule.source.index, env) if r.keyed else None
            idx = self._counter_index(pi, r.var, key)
            conds = [eg.gen(c, env) for c in (r.rule.cond, r.rule.when) if c is not None]
            test = " and ".join(conds) if conds else "True"
            lines.add(2, f"if {test}:", r.rule.span)
            lines.add(3, f"_i = {idx}")
            lines.add(3, "if _i not in src: src.append(_i)")
            del base
        lines.add(2, "groups.append((q, src))")
        lines.add(1, "return _payments(groups, values, check_only)")
        lines.add(0, f"def SPEND_{pi.name}(V, me, spend):", pi.decl.span)
        for j, (vi, k) in enumerate(pi.counters):
            cell = f"V[{vi.slot}][me]" + (f"[{k}]" if k is not None else "")
            lines.add(1, f"{cell} -= spend[{j}]")
        lines.add(1, "return None")
        self.mod.add_lines(lines)

    def _pay_labels(self, pi):
        labels = []
        for vi, k in pi.counters:
            if k is None:
                labels.append(vi.name)
            else:
                kt = vi.type.key
                labels.append(_key_name(kt, k))
        if len(set(labels)) != len(labels):         # two maps with the same keys: qualify
            labels = [vi.name if k is None else f"{vi.name}[{_key_name(vi.type.key, k)}]"
                      for vi, k in pi.counters]
        return labels

    def m_pay_stmt(self, s: ast.PayStmt, env, mach, loops):
        pi = self.p.payments[s.payment]
        site = self._site("pay", s)
        site.payment = pi.name
        site.labels = self._pay_labels(pi)
        site.radixes = [(vi.high + 1 if vi.high is not None else 64) for vi, k in pi.counters]
        site.prompt = f"how do you pay {_text(s.cost)}?"
        site.id_offset = self._id_next
        size = 1
        for r in site.radixes:
            size *= r
        self._id_next += size
        cost = self.eg.gen(s.cost, env)
        payer = self.eg.gen(s.payer, env) if s.payer is not None else "me"
        fn = Lines()
        fn.add(0, f"def SITE_{site.index}(S, F):")
        fn.add(1, "V = S.v; L = F[2]; me = F[3]")
        fn.add(1, f"return [(o,) for o in PAY_{pi.name}(V, {payer}, {cost}, False)]", s.span)
        self._site_funcs.append(fn)
        key = self.fresh_key("pay")
        site.var_key = key
        resume = mach.new()
        mach.emit(f"_ms = SITE_{site.index}(S, F)", s.span)
        mach.emit(f"if not _ms: raise RulesRuntimeError('cannot pay ' + repr({cost}))", s.span)
        mach.emit(f"if len(_ms) == 1: L[{key!r}] = _ms[0][0]; return {resume}", s.span)
        mach.emit(f"S.pending = [{site.index}, {payer}]; S.cache = _ms; F[1] = {resume}; return {SUSPEND}", s.span)
        mach.cur = resume
        mach.emit(f"SPEND_{pi.name}(V, {payer}, L.pop({key!r}))", s.span)

    # ------------------------------------------------------------------ legal moves

    def _generator(self, gname, meta: ActionMeta, extra_amounts: dict, exists: bool = False):
        """One action's legal moves at one site: nested loops, tests hoisted. With `exists`,
        a function (S, V, me) -> bool that stops at the first legal move, testing in place
        rather than filtering whole domains up front."""
        a = meta.info
        eg = self.eg
        pnames = [prm.name for prm in a.params]
        env = {}
        lines = Lines()
        extra_args = "".join(f", {x}" for xs in extra_amounts.values() for x in xs)
        if exists:
            lines.add(0, f"def {gname}(S, V, me):", a.decl.span)
        else:
            lines.add(0, f"def {gname}(S, V, me, out{extra_args}):", a.decl.span)
        stop = "return False" if exists else "return"

        def level(expr) -> int:
            """How many parameters must be bound before expr can be evaluated."""
            lv = 0
            for n in expr.walk():
                if isinstance(n, ast.Name):
                    sym = self.p.refs.get(id(n))
                    if sym is not None and sym.kind == "local" and isinstance(sym.node, ast.ActionParam) \
                            and n.name in pnames:
                        lv = max(lv, pnames.index(n.name) + 1)
            return lv

        def only(expr, i) -> bool:
            """Does expr depend on parameter i alone (so it can filter i's domain up front)?"""
            for n in expr.walk():
                if isinstance(n, ast.Name):
                    sym = self.p.refs.get(id(n))
                    if sym is not None and sym.kind == "local" and isinstance(sym.node, ast.ActionParam) \
                            and n.name in pnames and pnames.index(n.name) != i:
                        return False
            return True

        tests: list[tuple[int, str, object, bool]] = []   # (level, python test, span, folds into domain)
        for i, prm in enumerate(a.params):
            if prm.cond is not None:
                tests.append((i + 1, prm.cond, prm.cond.span, True))
        for r in a.requires:
            tests.append((level(r.cond), r.cond, r.span, True))
        # cost checks: one per counter, including the site's extra costs
        costs: dict[str, list] = {}
        for item in a.costs:
            costs.setdefault(item.counter, []).append(item.amount)
        for counter in set(costs) | set(extra_amounts):
            amounts = costs.get(counter, [])
            lv = max([level(x) for x in amounts] or [0])
            tests.append((lv, ("cost", counter, amounts, extra_amounts.get(counter, [])), a.decl.span, False))

        def test_src(test, env_) -> str:
            if isinstance(test, tuple):
                _, counter, amounts, extras = test
                parts = [f"({eg.gen(x, env_)})" for x in amounts] + list(extras)
                vs = self.vars[self.slots["." + counter]]
                low = vs.low if vs.low is not None else None
                need = " + ".join(parts) or "0"
                if low is None:
                    return "True"
                return f"V[{vs.slot}][me] - ({need}) >= {low}"
            return eg.gen(test, env_)

        # cheap tests first: they are pure, so their order changes only the time taken
        tests.sort(key=lambda t: 0 if isinstance(t[1], tuple) else self._cost(t[1]))
        # an expensive test of one parameter waits until the cheap tests of the inner parameters
        # have passed, and is remembered for each value of its parameter
        lazy: dict[int, int] = {}                  # test index -> the parameter it depends on
        inner = len(a.params)
        for ti, (lv, test, span, can_fold) in enumerate(tests):
            if not isinstance(test, tuple) and can_fold and 1 <= lv <= inner and inner > 1 and only(test, lv - 1) \
                    and self._cost(test) >= _EXPENSIVE:
                lazy[ti] = lv - 1
                tests[ti] = (inner, test, span, False)
        for ti in lazy:
            lines.add(1, f"_seen{ti} = {{}}")

        low = self.lowerer

        def emit_test(test, env_, ind_, fail):
            if isinstance(test, tuple):
                lines.add(ind_, f"if not ({test_src(test, env_)}): {fail}", a.decl.span)
            else:
                low.test(test, env_, lines, ind_, fail)

        # tests of no parameter first (the cheap ones first: see above)
        for lv, test, span, _ in tests:
            if lv == 0:
                emit_test(test, env, 1, stop)
        # domains whose expression needs no other parameter are filtered once, up front
        hoisted: dict[int, str] = {}
        folded: set[int] = set()
        for i, prm in enumerate(a.params):
            if level(prm.domain) == 0 and not exists:
                var = f"l_{prm.name}"
                conds = []
                for ti, (lv, test, span, can_fold) in enumerate(tests):
                    if lv == i + 1 and can_fold and only(test, i):
                        conds.append(test)
                        folded.add(ti)
                name = f"_dom{i}"
                dom = low.distinct(prm.domain, {}, lines, 1)
                if conds:
                    lines.add(1, f"{name} = []", prm.domain.span)
                    lines.add(1, f"for {var} in {dom}:", prm.domain.span)
                    for test in conds:
                        emit_test(test, {prm.name: var}, 2, "continue")
                    lines.add(2, f"{name}.append({var})", prm.domain.span)
                else:
                    lines.add(1, f"{name} = {dom}", prm.domain.span)
                lines.add(1, f"if not {name}: {stop}", prm.domain.span)
                hoisted[i] = name
        ind = 1
        for i, prm in enumerate(a.params):
            var = f"l_{prm.name}"
            dom = hoisted.get(i) or low.distinct(prm.domain, env, lines, ind)
            lines.add(ind, f"for {var} in {dom}:", prm.domain.span)
            env[prm.name] = var
            ind += 1
            for ti, (lv, test, span, _) in enumerate(tests):
                if lv == i + 1 and ti not in folded:
                    if ti in lazy:
                        key = f"l_{pnames[lazy[ti]]}"
                        lines.add(ind, f"_r = _seen{ti}.get({key})", span)
                        lines.add(ind, "if _r is None:", span)
                        src = low.expr(test, env, lines, ind + 1)
                        lines.add(ind + 1, f"_r = _seen{ti}[{key}] = bool({src})", span)
                        lines.add(ind, "if not _r: continue", span)
                    else:
                        emit_test(test, env, ind, "continue")
        tup = ", ".join([str(meta.index)] + [f"l_{n}" for n in pnames])
        if exists:
            lines.add(ind, "return True")
            lines.add(1, "return False")
        else:
            lines.add(ind, f"out.append(({tup},))" if not pnames else f"out.append(({tup}))")
        self._site_funcs.append(lines)

    def _cost(self, expr, seen=None) -> int:
        """A rough estimate of the work of evaluating expr: its nodes, the bodies of the
        functions it calls, and more for loops."""
        seen = set() if seen is None else seen
        total = 0
        for n in expr.walk():
            total += 1
            if isinstance(n, (ast.GeneratorCall, ast.ListComp)):
                total += 20
            elif isinstance(n, ast.Call) and n.func in self.p.defs and n.func not in seen:
                seen.add(n.func)
                d = self.p.defs[n.func].decl
                body = [d.expr] if d.expr is not None else [x for st in d.body for x in st.walk()
                                                            if isinstance(x, ast.Expr)]
                total += sum(self._cost(b, seen) for b in body if b is not None)
        return total

    def _checks(self):
        """Per action, a function naming the first condition a given move fails."""
        for meta in self.actions:
            a = meta.info
            env = {prm.name: f"l_{prm.name}" for prm in a.params}
            lines = Lines()
            args = "".join(f", l_{prm.name}" for prm in a.params)
            lines.add(0, f"def CHECK_{meta.index}(S, me{args}):", a.decl.span)
            lines.add(1, "V = S.v")
            n = 0
            scope_env: dict = {}
            for prm in a.params:
                dom = self.eg.distinct(prm.domain, scope_env)
                lines.add(1, f"if l_{prm.name} not in {dom}: return {n}", prm.domain.span)
                meta.checks.append((f"{{{prm.name}}} is not among {_text(prm.domain)}", prm.domain.span, a.cite))
                n += 1
                scope_env[prm.name] = f"l_{prm.name}"
                if prm.cond is not None:
                    self.lowerer.test(prm.cond, scope_env, lines, 1, f"return {n}")
                    meta.checks.append((f"{prm.name} must satisfy: {_text(prm.cond)}", prm.cond.span, a.cite))
                    n += 1
            for r in a.requires:
                self.lowerer.test(r.cond, env, lines, 1, f"return {n}")
                meta.checks.append((r.message or f"requires {_text(r.cond)}", r.span, a.cite))
                n += 1
            for item in a.costs:
                vs = self.vars[self.slots["." + item.counter]]
                if vs.low is not None:
                    amt = self.eg.gen(item.amount, env)
                    lines.add(1, f"if V[{vs.slot}][me] - ({amt}) < {vs.low}: return {n}", item.span)
                    meta.checks.append((f"you cannot pay {_text(item.amount)} {item.counter}", item.span, a.cite))
                    n += 1
            lines.add(1, "return -1")
            self.mod.add_lines(lines)
        self.mod.add("CHECKS = [" + ", ".join(f"CHECK_{m.index}" for m in self.actions) + "]")

    def _scores(self):
        p = self.p
        lines = Lines()
        lines.add(0, "def SCORE(S, me):")
        lines.add(1, "V = S.v")
        score = self.eg.gen(p.score.expr, {}) if p.score is not None else "0"
        tbs = [self.eg.gen(e, {}) for e in p.tiebreaks]
        lines.add(1, f"return ({score}, [{', '.join(tbs)}])", p.score.expr.span if p.score else None)
        self.mod.add_lines(lines)


@dataclass
class CompiledProgram:
    prog: CheckedProgram
    players: int
    module: Module
    vars: list[VarSlot]
    slots: dict[str, int]
    sites: list[SiteInfo]
    actions: list[ActionMeta]
    unit_pid: dict[str, int]
    action_space: int
    roots: list[int]


# what a block reads from the state and its frame, each only where the block uses it
_PROLOGUE = [("V = S.v", re.compile(r"\bV\b")), ("L = F[2]", re.compile(r"\bL\b")),
             ("me = F[3]", re.compile(r"\bme\b"))]

# the estimated cost (see _cost) above which a test of one parameter is evaluated lazily
_EXPENSIVE = 300


def _key_name(t, k) -> str:
    t = T.strip(t)
    if isinstance(t, T.EnumType):
        return t.values[k]
    if isinstance(t, T.RecordType):
        return t.kinds[k]
    if isinstance(t, T.PlayerType):
        return f"player{k + 1}"
    return str(k)


def _zone_len(t: T.ZoneType, players: int) -> int:
    if t.zone == "row":
        return t.size_
    if t.zone == "slots":
        return T.type_size(t.key, players)
    if t.counted:
        return len(t.elem.kinds)
    return 0


def _pyname(key: str) -> str:
    kind, _, rest = key.partition(":")
    prefix = {"proc": "P", "action": "A", "event": "H", "watch": "W"}.get(kind, kind.upper())
    return f"{prefix}_{rest.replace(':', '_')}"


def _text(node) -> str:
    """A short readable rendering of an expression for messages."""
    from ..render import render_expr
    return render_expr(node)
