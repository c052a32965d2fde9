"""Resumable units: a unit that may wait for a decision (a choice, an action, a chance draw, a
payment) becomes a state machine of block functions over a frame on `S.stack`; its statements
that wait suspend the machine at a decision site and resume after it."""

from __future__ import annotations

from .. import ast
from .. import types as T
from .expr import CodegenError
from .lines import Lines
from .moves import SiteInfo
from .names import _pyname, _text

RET, SUSPEND, CALL = -1, -2, -3


class _Keep:
    """The moves a can() lists for the act after it (m_if_stmt): the local that holds them, the
    act's player (its text) and actions, and the can()'s actions once it is written."""

    def __init__(self, var: str, who: str, actions: set, act):
        self.var, self.who, self.actions, self.act = var, who, actions, act
        self.names = None


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


class MachineCompiler:
    """Statements that may wait, as blocks of a `_Machine`. Uses ProgramCompiler's `p`, `eg`,
    `lowerer`, `players`, `vars`, `slots`, `actions` (ActionMeta), `sites`, `_site_funcs`,
    `_id_next` (the next free action id), `unit_pid`, `suspends`, `fresh`, `fresh_key`,
    `_stmt_suspends`, the plain statements (`stmt_plain`, `_local`, `_assign`, `_adjust`, `_take`,
    `_put`), `_generator` (moves) and `_pay_labels` (payments)."""

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
        branches = [(s.cond, s.body)] + [(e.cond, e.body) for e in s.elifs]
        after = mach.new()
        targets = []
        keep = self._keep_for(s, env)
        if keep is not None:
            mach.emit(f"{keep.var} = _NO_KEEP", s.span)
            self.eg.keep = keep
        try:
            for cond, body in branches:
                b = mach.new()
                targets.append(b)
                mach.emit(f"if {self.lowerer.expr(cond, env, mach.out, 1)}: return {b}", cond.span)
        finally:
            self.eg.keep = None
        if keep is not None and keep.names is None:
            keep = None                 # (the test's can() was not of the act's player and actions)
        if keep is not None:
            # the `else` goes on in this block, where the moves are kept; its own block stays,
            # never entered, so that every block keeps its number (saves, the plain compilation)
            cur_other = mach.cur
            unused = mach.new()
            mach.blocks[unused].add(1, "raise AssertionError('a block never entered was entered')", s.span)
        elif s.other is not None:
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
            self._kept = keep           # for the act that opens the `else` (m_act_stmt)
            try:
                self.stmts_machine(s.other, env, mach, loops)
            finally:
                self._kept = None
            mach.goto(after)
        mach.cur = after

    def _keep_for(self, s, env):
        """`if ... can(p, A) ...: ... else: act p: ... A ...`: the moves of A that can() lists
        serve the act, which comes next with nothing run in between (runtime/helpers.py,
        `_can_keep`). An act with an extra cost lists other moves; the plain compilation keeps
        none."""
        if not self.optimise or s.elifs or not s.other or not isinstance(s.other[0], ast.ActStmt):
            return None
        act = s.other[0]
        if any(isinstance(o, ast.ActCost) for o in act.options) or \
                not any(isinstance(n, ast.Call) and n.func == "can" for n in s.cond.walk()):
            return None
        # one name serves every such `if`: the moves are kept from the test to the act that
        # opens the `else`, with no other test of this kind in between
        return _Keep("_kept", self.eg.gen(act.player, env),
                     set(self.p.act_actions.get(id(act), act.actions)), act)

    def m_for_stmt(self, s, env, mach, loops):
        it, ix = self.fresh_key("it"), self.fresh_key("ix")
        mach.emit(f"L[{it!r}] = list({self.eg.iterable(s.iter, env)}); L[{ix!r}] = 0", s.span)
        head, body, after = mach.new(), mach.new(), mach.new()
        mach.goto(head)
        mach.cur = head
        inner = dict(env)
        var = self._local(inner, s.var, True)
        mach.emit(f"_l = L[{it!r}]; _ix = L[{ix!r}]", s.span)
        mach.emit("while _ix < len(_l):", s.span)
        mach.emit(f"{var} = _l[_ix]; _ix += 1; L[{ix!r}] = _ix", s.span, 1)
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

    def m_simultaneous_stmt(self, s: ast.SimultaneousStmt, env, mach, loops):
        """Every player's choice first, each made with what that player sees (the choices
        made so far are only in the frame: no one sees them), then the bodies in order. The
        choice is one site marked simultaneous and secret (its value is `?` to the others)."""
        choice = s.body[0]
        it, ix, picks = self.fresh_key("it"), self.fresh_key("ix"), self.fresh_key("picks")
        mach.emit(f"L[{it!r}] = list({self.eg.iterable(s.iter, env)}); L[{ix!r}] = 0; L[{picks!r}] = []", s.span)
        inner = dict(env)
        var = self._local(inner, s.var, True)
        # 1. each player chooses
        head, ask, answers = mach.new(), mach.new(), mach.new()
        mach.goto(head)
        mach.cur = head
        mach.emit(f"_l = L[{it!r}]; _ix = L[{ix!r}]", s.span)
        mach.emit("while _ix < len(_l):", s.span)
        mach.emit(f"{var} = _l[_ix]; _ix += 1; L[{ix!r}] = _ix; return {ask}", s.span, 1)
        mach.emit(f"L[{ix!r}] = 0", s.span)
        mach.goto(answers)
        mach.cur = ask
        flat = choice.model_copy(update={"body": None})
        ask_env = dict(inner)
        self.m_choose_stmt(flat, ask_env, mach, loops)
        site = self.sites[-1]
        site.secret, site.simultaneous = True, True
        # a new list, not an append: a clone shares the frame's values (runtime/saves.py)
        mach.emit(f"L[{picks!r}] = L[{picks!r}] + [{ask_env[choice.var]}]", s.span)
        mach.goto(head)
        # 2. the bodies, player by player, with their choices
        after, body = mach.new(), mach.new()
        mach.cur = answers
        mach.emit(f"_l = L[{it!r}]; _ix = L[{ix!r}]", s.span)
        mach.emit("while _ix < len(_l):", s.span)
        chosen = self.fresh_key(choice.var)
        mach.emit(f"{var} = _l[_ix]; L[{chosen!r}] = L[{picks!r}][_ix]; _ix += 1; L[{ix!r}] = _ix; "
                  f"return {body}", s.span, 1)
        mach.emit(f"del L[{it!r}], L[{ix!r}], L[{picks!r}]", s.span)
        mach.goto(after)
        mach.cur = body
        body_env = dict(inner)
        body_env[choice.var] = f"L[{chosen!r}]"
        optional = any(isinstance(o, ast.ChooseOptional) for o in choice.options)
        if optional:
            mach.emit(f"if L[{chosen!r}] is None: return {answers}", s.span)
        self.stmts_machine(choice.body or [], body_env, mach, loops + [("m", after, answers)])
        mach.goto(answers)
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
        guard = self._guard_of(c)
        if guard is not None:
            # the procedure is one `if` with no else: its test, asked here of the arguments
            # (computed once, in order, into locals), skips the call when it is false
            names = [self.fresh(f"_g{name}") for name, _ in c.params]
            for n, a in zip(names, args):
                mach.emit(f"{n} = {a}", s.span)
            args = names
        loc = "{" + ", ".join(f"{name!r}: {a}" for (name, _), a in zip(c.params, args)) + "}"
        after = mach.new()
        push = f"S.stack.append([{pid}, 0, {loc}, me]); F[1] = {after}; return {CALL}"
        if guard is None:
            mach.emit(push, s.span)
        else:
            genv = {name: n for (name, _), n in zip(c.params, args)}
            mach.emit(f"if {self.lowerer.expr(guard.cond, genv, mach.out, 1)}:", guard.cond.span)
            mach.emit(push, s.span, 1)
            mach.goto(after)
        mach.cur = after

    def _guard_of(self, proc):
        """The `if` a procedure's body is, when it is one `if` with neither `elif` nor `else`
        (its test then decides, at a call, whether the call does anything); else None."""
        body = proc.decl.body or []
        if (not self.optimise or len(body) != 1 or not isinstance(body[0], ast.IfStmt)
                or body[0].elifs or body[0].other):
            return None
        return body[0]

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
        mach.emit(f"if _vs.count(_vs[0]) == len(_vs): L[{key!r}] = _vs[0]; return {resume}", s.span)   # one value
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
            fn.add(1, f"_d = {dom}", s.span)          # (no `:=` of an inlined def in an iterable)
            fn.add(1, "return [(v,) for v in _d]", s.span)
        self._site_funcs.append(fn)
        who = self.eg.gen(by, env) if by is not None else "me"
        resume, after = mach.new(), mach.new()
        mach.emit(f"_ms = SITE_{site.index}(S, F)", s.span)
        if optional:
            mach.emit(f"if not _ms: L[{key!r}] = None; return {resume}", s.span)
        else:
            mach.emit(f"if not _ms: _no_options({site.index})", s.span)
            mach.emit(f"if len(_ms) == 1: L[{key!r}] = _ms[0][0]; {_traced(site.index, who)}return {resume}", s.span)
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
        listing = []                 # (indent, line) that list the moves (here and in the block)
        for j, o in enumerate(extra):
            listing.append((0, f"_x{j} = {self.eg.gen(o.amount, env)}", o.span))
            extra_amounts.setdefault(o.counter, []).append(f"_x{j}")
        calls = []
        kept = self._kept if self._kept is not None and self._kept.act is s else None
        taken = []                   # the block's listing: moves a can() just listed are taken
        for name in site.actions:
            meta = next(m for m in self.actions if m.name == name)
            if kept is not None and name in kept.names:
                # the lister the can() calls (no extra cost here: the same generator), made
                # once at the end (program.py), not a second copy for this site
                gname = f"GL_{meta.index}"
                self._listers[meta.index] = meta
            else:
                gname = f"G_{site.index}_{meta.index}"
                self._generator(gname, meta, extra_amounts)
            args = "".join(f", {x}" for xs in extra_amounts.values() for x in xs)
            calls.append(f"{{}}{gname}(S, V, _p, out{args})")
            if kept is not None and name in kept.names:
                j = kept.names.index(name)
                taken.append([(0, f"if {kept.var}[1] is not None: out.extend({kept.var}[1][{j}])"),
                              (0, "else:"), (1, calls[-1].format(""))])
            else:
                taken.append([(0, calls[-1].format(""))])
        block_listing = list(listing)
        if calls:
            # a test that raises in the generators' own order: list again as the rules are
            # written, which raises only where they do (codegen/moves.py, _generator)
            fallback = [(0, "except _TEST_ERRORS:", s.span), (1, "del out[:]", s.span)]
            fallback += [(1, c.format("R"), s.span) for c in calls]
            listing += [(0, "try:", s.span)] + [(1, c.format(""), s.span) for c in calls] + fallback
            block_listing += [(0, "try:", s.span)]
            block_listing += [(1 + ind, text, s.span) for lines in taken for ind, text in lines] + fallback
        for extra_ind, text, span in listing:
            fn.add(1 + extra_ind, text, span)
        fn.add(1, "return out")
        self._site_funcs.append(fn)
        resume, after = mach.new(), mach.new()
        # the block lists the moves itself (the site's function serves legal_moves after a load)
        mach.emit(f"_p = {who}; _ms = out = []", s.span)
        for extra_ind, text, span in block_listing:
            mach.emit(text, span, extra_ind)
        if optional or else_pass:
            mach.emit(f"if not _ms: return {after}", s.span)
        else:
            mach.emit(f"if not _ms: _no_options({site.index})", s.span)
        if not optional:
            mach.emit(f"if len(_ms) == 1: L['@m'] = _ms[0]; L['@p'] = _p; {_traced(site.index, '_p')}return {resume}",
                      s.span)
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
        fn.add(1, f"_ways = PAY_{pi.name}(V, {payer}, {self.eg.cost_args(s.cost, env)}, False)", s.span)
        fn.add(1, "return [(o,) for o in _ways]", s.span)
        self._site_funcs.append(fn)
        key = self.fresh_key("pay")
        site.var_key = key
        resume = mach.new()
        mach.emit(f"_ms = SITE_{site.index}(S, F)", s.span)
        mach.emit(f"if not _ms: raise RulesRuntimeError('cannot pay ' + repr({cost}))", s.span)
        mach.emit(f"if len(_ms) == 1: L[{key!r}] = _ms[0][0]; {_traced(site.index, payer)}return {resume}", s.span)
        mach.emit(f"S.pending = [{site.index}, {payer}]; S.cache = _ms; F[1] = {resume}; return {SUSPEND}", s.span)
        mach.cur = resume
        mach.emit(f"SPEND_{pi.name}(V, {payer}, L.pop({key!r}))", s.span)


def _traced(site: int, who: str) -> str:
    """Generated code noting a decision taken without asking (it had one option) in the state's
    `record` (runtime/record.py), when the driver keeps one: one test of a slot otherwise."""
    return f"S.record is None or S.record.forced({site}, {who}, _ms[0]); "
