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

The pieces, by job: layout.py (the state layout), statements.py (plain statements),
machines.py (resumable units), moves.py (decision sites, legal moves and checks),
payments.py (payment functions); this module analyses the program and composes them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .. import ast
from .. import types as T
from ..symbols import ActionInfo, CheckedProgram
from .expr import CodegenError, ExprGen
from .blocks import simplify_blocks
from .direct_calls import enter_directly
from .frame_reads import cache_block_frame_reads
from .defs import def_lines
from .lower import Lowerer, needs_lowering
from .inline_steps import inline_steps_as_statements
from .shared_divisions import share_parameter_divisions
from .pile_walks import walk_pile_kinds_in_c
from .invariants import cache_loop_invariants, scalar_tables
from .key_bounds import small_int_tables
from .range_bounds import narrow_range_loops
from .table_reads import hoist_table_reads, slot_shapes
from .static_filters import StaticFilters
from .table_sets import MembershipTables
from .tables import all_tables
from .tabulate import tabulate_state_free_defs
from ..pycompile import compile_quietly
from ..runtime.helpers import HELPERS
from .groups import walk_groups
from .unroll import unroll_and_fold
from .fused_walks import FusedWalks
from .lines import Lines, Module, hoist_slot_reads
from .repeated_calls import share_repeated_calls, shareable_defs
from .layout import LayoutCompiler, VarSlot, _zone_len
from .machines import CALL, RET, SUSPEND, MachineCompiler, _Machine
from .moves import _EXPENSIVE, ActionMeta, MoveCompiler, SiteInfo
from .names import _pyname, _text
from .payments import PaymentCompiler, _key_name
from .secrecy import Secrecy
from .tail_copies import copy_small_jump_targets
from .statements import StatementCompiler

# everything importable from here before the split stays importable from here
__all__ = ["RET", "SUSPEND", "CALL", "VarSlot", "SiteInfo", "ActionMeta", "CompiledProgram",
           "ProgramCompiler", "CodegenError", "ActionInfo", "needs_lowering", "_Machine",
           "_EXPENSIVE", "_zone_len", "_key_name", "_pyname", "_text"]


class ProgramCompiler(LayoutCompiler, StatementCompiler, MachineCompiler, MoveCompiler, PaymentCompiler):
    """The whole compiler: analysis and the driver here, the pieces from the mixins."""

    def __init__(self, prog: CheckedProgram, players: int, optimise: bool = True):
        """`optimise=False` makes the plain compilation: the same units, sites and tests,
        without what only makes them faster (defs and hooks inlined, quantifiers written out
        as loops, piles walked by kind, move tables, constant loops unrolled and folded, cell
        tests dropped, slots read once, loop invariants remembered, an expensive test of a
        parameter remembered per value, the quick answers of a payment check: it lists every
        way and asks whether there is one). It is the reference
        `regola crosscheck` plays the optimised compilation against. The blocks of resumable
        units are fused alike in both: they are the frames a saved state holds."""
        self.p = prog
        self.players = players
        self.optimise = optimise
        self.vars: list[VarSlot] = []
        self.slots: dict[str, int] = {}
        self._layout()
        self.eg = ExprGen(prog, self.slots, share_constants=True)
        self.eg.optimise = optimise
        self.lowerer = Lowerer(self.eg, self.fresh)
        self.mod = Module()
        self.sites: list[SiteInfo] = []
        self.actions: list[ActionMeta] = []
        self.machines: list[_Machine] = []
        self.unit_pid: dict[str, int] = {}      # machine units by key
        self.suspends: set[str] = set()          # unit keys that may wait for a decision
        self._n = 0
        self._site_funcs: list[Lines] = []
        self._tables_made: dict[int, object] = {}   # action index -> its move table's name or None
        self.move_tables: list[str] = []             # their definitions
        self.groups: dict = {}                       # loops' group tables (codegen/groups.py)
        self._kept = None               # moves a can() keeps for the act being written (machines.py)
        self._listers: dict[int, object] = {}       # actions whose GL_ lister such a can() calls
        self.triggers = True            # False: assignments set the state without firing `when`

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
        # the values fixed when compiled: tables, constants, the players
        tables = all_tables(self.p)          # the same objects become the module's globals
        self.static_tables = tables          # (loop lengths known when compiled: statements.py)
        known = dict(tables, PLAYERS=list(range(self.players)), NP=self.players)
        self._scalar_tables = scalar_tables(known)     # (memos keyed by a table's values)
        # (memos kept in lists: key_bounds.py)
        self._int_tables = (small_int_tables(known, walked=True), small_int_tables(known))
        self._slot_shapes = slot_shapes(self.vars, self.players)   # (lengths of the state's lists)
        self._sets = MembershipTables(tables, known)                # (answers of `T[i] in [...]`)
        self._filters = StaticFilters(tables, known)                # (lists a fixed test filters)
        self._fused = FusedWalks(known)              # (defs walking for every column at once)
        compiled_defs = []
        for name, c in self.p.defs.items():
            lines = self._pure_function(def_lines(self.p, self.eg, c, self.fresh), known, self._param_ranges(c))
            if self.optimise:
                self._fused.find(lines)
            compiled_defs.append(lines)
        self._shared_defs = (shareable_defs(compiled_defs, {n: c.ret for n, c in self.p.defs.items()})
                             if self.optimise else frozenset())
        for lines in compiled_defs + self._fused.vector_defs():
            m.add_lines(self._calls_once(lines))
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
        self._number_triggers()
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
        if self.optimise:
            enter_directly(self.machines)
            for mach in self.machines:
                copy_small_jump_targets(mach.blocks)
        for mach in self.machines:
            for b, lines in enumerate(mach.blocks):
                if self.optimise:
                    lines = self._sets.rewrite_block(lines, f"def M{mach.uid}_{b}(S, F):")
                    lines = cache_block_frame_reads(lines, f"def M{mach.uid}_{b}(S, F):")
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
        for i, meta in sorted(self._listers.items()):
            self._generator(f"GL_{i}", meta, {})         # the moves of an action, for _can_keep
        # (a generator's `me` is the player it lists moves for; a site's function sets it itself)
        for lines in self._site_funcs:
            m.add_lines(self._calls_once(self._pure_function(lines, known, reads_at={"me": (0, self.players - 1)})))
        m.add("SITES = [" + ", ".join(f"SITE_{s.index}" for s in self.sites) + "]")
        self._checks()
        self._scores()
        self._mark_secrets()
        for src, name in self.eg.constant_maps.items():
            m.add(f"{name} = {src}")
        for src in self.move_tables:
            m.add(src)
        for name, grouped in self.groups.items():
            m.add(f"{name} = {grouped!r}")
        if self.optimise:
            tables.update(self._tabulate(known))
        return CompiledProgram(self.p, self.players, m, self.vars, self.slots, self.sites, self.actions,
                               {k: v for k, v in self.unit_pid.items()}, self._id_next,
                               [self.unit_pid[r] for r in roots if r in self.unit_pid], tables,
                               self.triggers)

    def _tabulate(self, known: dict) -> dict:
        """Defs of one component, value or player that read no state, computed once per
        argument (codegen/tabulate.py): the new tables. `known`: the tables, the players."""
        candidates = {}
        for name, c in self.p.defs.items():
            if len(c.params) == 1 and T.is_indexed(c.params[0][1]):
                candidates[f"D_{name}"] = T.type_size(c.params[0][1], self.players)
        if not candidates:
            return {}
        ns = dict(HELPERS, _W=[0], **known)
        ns.update(self.groups)
        for src, name in self.eg.constant_maps.items():
            exec(compile_quietly(f"{name} = {src}", "<regola constant map>", "exec"), ns)
        return tabulate_state_free_defs(self.mod, candidates, ns)

    def _calls_once(self, lines: Lines) -> Lines:
        """A function that never changes the state, with its calls of a def asked for several
        columns walking once (codegen/fused_walks.py) and its repeated calls made once
        (codegen/repeated_calls.py)."""
        return share_repeated_calls(self._fused.rewrite(lines), self._shared_defs)

    def _param_ranges(self, c) -> dict:
        """The def's parameters whose type numbers its values 0..n-1 (never none): name in
        the generated code -> (0, n - 1). A caller can pass no other value (the checker
        types every argument; cells, players, components and enum values exist only in range)."""
        out = {}
        for name, t in c.params:
            if not isinstance(t, T.OptType) and T.is_indexed(t):
                n = T.type_size(t, self.players)
                if n > 0:
                    out[f"l_{name}"] = (0, n - 1)
        return out

    def _pure_function(self, lines: Lines, known: dict, ranges: dict | None = None,
                       reads_at: dict | None = None) -> Lines:
        """The rewrites of functions that never change the state: memberships in fixed lists
        (and, after the groups, comparisons with constants) read from tables of answers, short
        constant loops unrolled and constants folded, filtered loops over fixed lists walking
        groups, slots and tables read once, range loops walking the values their bound tests
        accept, loop-invariant values remembered, a pile's kinds walked in C. `ranges`: the
        parameters' intervals; `reads_at`: more of them, for the table reads only."""
        if not self.optimise:
            return lines
        lines = walk_groups(unroll_and_fold(self._sets.rewrite(lines, comparisons=False), known, ranges),
                            known, self.groups)
        lines = self._filters.rewrite(self._sets.rewrite(lines, memberships=False))  # (after the groups: see table_sets.py)
        lines = hoist_table_reads(hoist_slot_reads(lines), known, {**(ranges or {}), **(reads_at or {})},
                                  self._slot_shapes)
        lines = inline_steps_as_statements(cache_loop_invariants(narrow_range_loops(lines), self._scalar_tables,
                                                                 self._int_tables))
        return walk_pile_kinds_in_c(share_parameter_divisions(lines, {**(ranges or {}), **(reads_at or {})}))

    def _mark_secrets(self):
        """Which move values other players must not be shown (codegen/secrecy.py)."""
        secrecy = Secrecy(self.p, self.composed_decls() + [c.decl for c in self.p.defs.values()])
        for meta in self.actions:
            meta.secret = [secrecy.options(prm.domain) for prm in meta.info.params]
        for site in self.sites:
            if site.kind == "choose":
                site.secret = site.simultaneous or secrecy.options(site.node.domain)

    # ------------------------------------------------------------------ units

    def _number_triggers(self):
        """Every trigger gets an index, noted in the state's record when it fires
        (runtime/record.py): event handlers, `when ... reaches`, `on game end`."""
        p = self.p
        self.triggers: list[TriggerInfo] = []
        for name, ev in p.events.items():
            for i, h in enumerate(ev.handlers):
                self.triggers.append(TriggerInfo(f"event:{name}:{i}", f"on {name}", h.span))
        for i, w in enumerate(p.watchers):
            label = f"when {_text(w.decl.target)} reaches {_text(w.decl.value)}"
            self.triggers.append(TriggerInfo(f"watch:{i}", label, w.decl.span))
        if p.on_end is not None:
            self.triggers.append(TriggerInfo("on_end", "on game end", p.on_end.span))
        self._trigger_index = {t.key: i for i, t in enumerate(self.triggers)}

    def _unit(self, key, body, params, decl, costs=()):
        pyname = _pyname(key)
        fired = self._trigger_index.get(key)
        note = None if fired is None else f"S.record is None or S.record.fire({fired}, me)"
        if key not in self.unit_pid:
            env = {name: f"l_{name}" for name, _ in params}
            out = Lines()
            args = "".join(f", l_{name}" for name, _ in params)
            header = f"def {pyname}(S, me{args}):"
            self.mod.add(header, decl.span)
            out.add(1, "V = S.v", decl.span)
            if note is not None:
                out.add(1, note, decl.span)
            self._pay(costs, out, 1, "me", env)
            self.stmts_plain(body, env, out, 1, [])
            out.add(1, "return None")
            self.mod.add_lines(self._sets.rewrite_block(out, header) if self.optimise else out)
            return
        mach = self.machines[self.unit_pid[key]]
        if note is not None:
            mach.emit(note, decl.span)
        env = {name: f"L[{name!r}]" for name, _ in params}
        self._pay(costs, mach.out, 1, "me", env)
        self.stmts_machine(body, env, mach, [])
        mach.emit(f"return {RET}")

    def _pay(self, costs, out: Lines, ind, who, env):
        for item in costs:
            vs = self.vars[self.slots["." + item.counter]]
            amount = self.eg.gen(item.amount, env)
            self._adjust(out, ind, f"V[{vs.slot}]", who, f"-({amount})", vs, item.span)

    # ------------------------------------------------------------------ names

    def fresh(self, base):
        """A unique Python-safe name."""
        self._n += 1
        return f"{base}_{self._n}"

    def fresh_key(self, base):
        """A unique key in a frame's locals; '@' keeps them apart from parameter names."""
        return "@" + self.fresh(base.lstrip("_"))

    # ------------------------------------------------------------------ scores

    def _scores(self):
        p = self.p
        lines = Lines()
        lines.add(0, "def SCORE(S, me):")
        lines.add(1, "V = S.v")
        score = self.eg.gen(p.score.expr, {}) if p.score is not None else "0"
        tbs = [self.eg.gen(e, {}) for e in p.tiebreaks]
        lines.add(1, f"return ({score}, [{', '.join(tbs)}])", p.score.expr.span if p.score else None)
        self.mod.add_lines(lines)


@dataclass(frozen=True)
class TriggerInfo:
    """A trigger of the compiled rules, as a state's record names it when it fires
    (runtime/record.py): `on EVENT` (one per handler), `when X reaches V`, `on game end`."""
    key: str              # the generated unit: 'event:NAME:i', 'watch:i', 'on_end'
    label: str            # in the rules' words: 'on scored', 'when p.points reaches 10'
    span: object          # where it is declared


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
    tables: dict                # static tables (codegen/tables.py): the generated code's globals
    triggers: list = field(default_factory=list)    # TriggerInfo, indexed as the record notes them


# what a block reads from the state and its frame, each only where the block uses it
_PROLOGUE = [("V = S.v", re.compile(r"\bV\b")), ("L = F[2]", re.compile(r"\bL\b")),
             ("me = F[3]", re.compile(r"\bme\b"))]
