"""Decision sites and legal moves: what a site and an action are to the runtime, one generator
per action and site listing its legal moves (tests hoisted to the outermost loop where their
inputs are known), and per action a check naming the first condition a move fails."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

from .. import ast
from .. import types as T
from ..symbols import ActionInfo
from .key_bounds import LIST_MEMO_MAX
from .lines import Lines
from .names import _text


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
    secret: bool = False        # choose sites: the options are a private or hidden zone's contents
    simultaneous: bool = False  # a choice every player makes without seeing the others' (SimultaneousStmt)


@dataclass
class ActionMeta:
    index: int
    name: str
    info: ActionInfo
    param_types: list[T.Type]
    id_offset: int = 0
    checks: list[tuple[str, object, str]] = field(default_factory=list)   # (message, span, cite)
    secret: list[bool] = field(default_factory=list)    # per parameter: secret from other players (secrecy.py)


# the estimated cost (see _cost) above which a test of one parameter is evaluated lazily
_EXPENSIVE = 300
# tests whose estimated costs fall in one band of this width keep the order the rules give them
_COST_BAND = 32
# the most moves an action's table of move tuples may hold (see _move_table)
_MOVE_TABLE_MAX = 20_000


def _header(gname, a, extra_amounts: dict, exists: bool) -> Lines:
    """The first line of a generator: (S, V, me) -> bool with `exists`, else (S, V, me, out,
    the site's extra costs) appending its moves to out."""
    lines = Lines()
    if exists:
        lines.add(0, f"def {gname}(S, V, me):", a.decl.span)
    else:
        extra_args = "".join(f", {x}" for xs in extra_amounts.values() for x in xs)
        lines.add(0, f"def {gname}(S, V, me, out{extra_args}):", a.decl.span)
    return lines


class MoveCompiler:
    """Legal-move generators and checks. Uses ProgramCompiler's `p`, `eg`, `lowerer`, `vars`,
    `slots`, `actions` (ActionMeta), `mod` (the generated module) and `_site_funcs`."""

    def _generator(self, gname, meta: ActionMeta, extra_amounts: dict, exists: bool = False):
        """One action's legal moves at one site: nested loops, tests hoisted. With `exists`,
        a function (S, V, me) -> bool that stops at the first legal move, testing in place
        rather than filtering whole domains up front.

        The tests run in an order of their own (the cheap first, each as soon as its
        parameters are known, some over a whole domain up front). The rules' tests are
        pure, so the moves are the same, but a test the rules guard by an earlier one
        (`require k > 0` then `require 6 / k > 1`) may raise here where the rules never
        evaluate it. So the module also holds `R<gname>`, the reference: the parameters'
        loops, then each `where`, require and cost in the order the rules give them; a
        listing that meets an error lists again with the references (machines.py, `_can`),
        which raise only where the rules as written do. (Where the generator's order meets
        no error, its moves stand, even if the written order would have met one: see
        docs/language.md.) The plain compilation has both alike."""
        self._reference_generator("R" + gname, meta, extra_amounts, exists)
        a = meta.info
        eg = self.eg
        pnames = [prm.name for prm in a.params]
        env = {}
        lines = _header(gname, a, extra_amounts, exists)
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

        # cheap tests first: they are pure, so their order changes only the time taken. The
        # estimate is rough, so tests within one band of it keep the rules' order: an author
        # tends to write first what rules out most (`owns(me, c)` before `not used[c]`,
        # which nearly every card passes)
        tests.sort(key=lambda t: 0 if isinstance(t[1], tuple) else self._cost(t[1]) // _COST_BAND)
        # an expensive test of one parameter waits until the cheap tests of the inner parameters
        # have passed, and is remembered for each value of its parameter
        lazy: dict[int, int] = {}                  # test index -> the parameter it depends on
        inner = len(a.params)
        for ti, (lv, test, span, can_fold) in enumerate(tests):
            if not isinstance(test, tuple) and can_fold and 1 <= lv <= inner and inner > 1 and only(test, lv - 1) \
                    and self._cost(test) >= _EXPENSIVE:
                lazy[ti] = lv - 1
                tests[ti] = (inner, test, span, False)
        in_list: set[int] = set()                  # tests remembered in a list (key_bounds.py)
        for ti in lazy:
            if self.optimise:
                size = self._memo_slots(meta.param_types[lazy[ti]]) if meta.param_types else 0
                if size:
                    in_list.add(ti)
                lines.add(1, f"_seen{ti} = [None] * {size}" if size else f"_seen{ti} = {{}}")

        low = self.lowerer

        def emit_test(test, env_, ind_, fail):
            if isinstance(test, tuple):
                lines.add(ind_, f"if not ({self._cost_test(test, env_)}): {fail}", a.decl.span)
            else:
                low.test(test, env_, lines, ind_, fail)

        # tests of no parameter first (the cheap ones first: see above)
        for lv, test, span, _ in tests:
            if lv == 0:
                emit_test(test, env, 1, stop)
        # domains whose expression needs no other parameter are filtered once, up front
        hoisted: dict[int, str] = {}
        folded: set[int] = set()
        table = None if exists else self._move_table(meta)
        for i, prm in enumerate(a.params):
            if level(prm.domain) == 0 and not exists:
                var = f"l_{prm.name}"
                filters = [ti for ti, (lv, test, span, can_fold) in enumerate(tests)
                           if lv == i + 1 and can_fold and only(test, i)]
                if filters and len(a.params) == 1 and table is not None:
                    # the only parameter, filtered: its loop appends each move as it finds
                    # it (a list of values then a second walk to the moves costs more)
                    continue
                folded.update(filters)
                conds = [tests[ti][1] for ti in filters]
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
        n = len(a.params)
        ind = 1
        for i, prm in enumerate(a.params):
            var = f"l_{prm.name}"
            dom = hoisted.get(i) or low.distinct(prm.domain, env, lines, ind)
            last = i == n - 1
            inner_tests = [ti for ti, t in enumerate(tests) if t[0] == i + 1 and ti not in folded]
            if last and table is not None and i in hoisted and not inner_tests:
                # every value of the last parameter's (filtered) domain makes a move: the
                # moves are taken from the table in one call
                row = table if n == 1 else "_row"
                lines.add(ind, f"out.extend(map({row}.__getitem__, {dom}))", prm.domain.span)
                self._site_funcs.append(lines)
                return
            lines.add(ind, f"for {var} in {dom}:", prm.domain.span)
            env[prm.name] = var
            ind += 1
            for ti in inner_tests:
                lv, test, span, _ = tests[ti]
                if ti in lazy and self.optimise:        # (the plain compilation asks it each time)
                    key = f"l_{pnames[lazy[ti]]}"
                    lines.add(ind, f"_r = _seen{ti}[{key}]" if ti in in_list else f"_r = _seen{ti}.get({key})", span)
                    lines.add(ind, "if _r is None:", span)
                    src = low.expr(test, env, lines, ind + 1)
                    lines.add(ind + 1, f"_r = _seen{ti}[{key}] = bool({src})", span)
                    lines.add(ind, "if not _r: continue", span)
                else:
                    emit_test(test, env, ind, "continue")
            if table is not None and i == n - 2:
                lines.add(ind, f"_row = {table}{''.join(f'[l_{x}]' for x in pnames[:-1])}", prm.domain.span)
        tup = ", ".join([str(meta.index)] + [f"l_{n}" for n in pnames])
        # (the move is the last parameter's: `regola coverage` reads a test whose body is
        # this line as passed when the body is entered; tools/coverage_sites.py)
        listed = a.params[-1].domain.span if a.params else a.decl.span
        if exists:
            lines.add(ind, "return True")
            lines.add(1, "return False")
        elif table is not None:
            lines.add(ind, f"out.append({table}[l_{pnames[0]}])" if n == 1 else f"out.append(_row[l_{pnames[-1]}])",
                      listed)
        else:
            lines.add(ind, f"out.append(({tup},))" if not pnames else f"out.append(({tup}))", listed)
        self._site_funcs.append(lines)

    def _cost_test(self, test, env) -> str:
        """Can the acting player pay the costs of one counter (("cost", counter, amounts, extras))?"""
        _, counter, amounts, extras = test
        parts = [f"({self.eg.gen(x, env)})" for x in amounts] + list(extras)
        vs = self.vars[self.slots["." + counter]]
        if vs.low is None:
            return "True"
        return f"V[{vs.slot}][me] - ({' + '.join(parts) or '0'}) >= {vs.low}"

    def _reference_generator(self, gname, meta: ActionMeta, extra_amounts: dict, exists: bool):
        """The legal moves tested as the rules are written (see _generator): a loop per
        parameter over its domain, its `where` first thing inside; then the requires in their
        order; then the costs, per counter in the order the rules first name it (the site's
        extra costs after). Its tests stay Python expressions (not written out as loops,
        no def inlined, no pass over it): it runs only after an error, and nests no deeper
        than the rules."""
        eg = self.eg
        optimise, eg.optimise = eg.optimise, False
        try:
            self._write_reference(gname, meta, extra_amounts, exists)
        finally:
            eg.optimise = optimise

    def _write_reference(self, gname, meta: ActionMeta, extra_amounts: dict, exists: bool):
        a = meta.info
        lines = _header(gname, a, extra_amounts, exists)
        stop = "return False" if exists else "return"
        fail = "continue" if a.params else stop
        low = self.lowerer
        env: dict = {}
        ind = 1
        for prm in a.params:
            var = f"l_{prm.name}"
            dom = low.distinct(prm.domain, env, lines, ind)
            lines.add(ind, f"for {var} in {dom}:", prm.domain.span)
            env[prm.name] = var
            ind += 1
            if prm.cond is not None:
                low.test(prm.cond, env, lines, ind, "continue")
        for r in a.requires:
            low.test(r.cond, env, lines, ind, fail)
        costs: dict[str, list] = {}
        for item in a.costs:
            costs.setdefault(item.counter, []).append(item.amount)
        for counter in list(costs) + [c for c in extra_amounts if c not in costs]:
            test = ("cost", counter, costs.get(counter, []), extra_amounts.get(counter, []))
            lines.add(ind, f"if not ({self._cost_test(test, env)}): {fail}", a.decl.span)
        tup = ", ".join([str(meta.index)] + [f"l_{prm.name}" for prm in a.params])
        if exists:
            lines.add(ind, "return True")
            lines.add(1, "return False")
        else:
            lines.add(ind, f"out.append(({tup},))" if not a.params else f"out.append(({tup}))")
        self.mod.add_lines(lines)      # as written: none of the rewrites (they run only after an error)

    def _memo_slots(self, t) -> int:
        """The slots of a list remembering a test per value of a parameter of type t (values
        0..n-1 of a type numbered so, never none), or 0: a dict remembers it."""
        if isinstance(t, T.OptType) or not T.is_indexed(t):
            return 0
        n = T.type_size(t, self.players)
        return n if 0 < n <= LIST_MEMO_MAX else 0

    def _move_table(self, meta: ActionMeta):
        """The name of a module table holding every move of the action as one tuple, indexed by
        its parameters' values (`MV3[t][c] == (3, t, c)`), so that listing moves builds no
        tuple; None when a parameter's values are not 0..n-1 or the table would be large."""
        if not meta.param_types or meta.index in self._tables_made or not self.optimise:
            return self._tables_made.get(meta.index)
        sizes = []
        for t in meta.param_types:
            st = T.strip(t)
            if T.is_indexed(st):
                sizes.append(T.type_size(st, self.players))
            elif isinstance(st, T.IntRange) and st.low >= 0:
                sizes.append(st.high + 1)
            else:
                sizes.append(0)
        total = 1
        for x in sizes:
            total *= x
        if not total or total > _MOVE_TABLE_MAX:
            self._tables_made[meta.index] = None
            return None
        name = f"MV{meta.index}"
        names = [f"_a{j}" for j in range(len(sizes))]
        src = f"({meta.index}, {', '.join(names)},)"
        for nm, size in reversed(list(zip(names, sizes))):
            src = f"[{src} for {nm} in range({size})]"
        self.move_tables.append(f"{name} = {src}")      # written at the module's end
        self._tables_made[meta.index] = name
        return name

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
                # a hook is asked with its modifiers (their values and conditions), which
                # other modules add: `leader_usable(p, l) = true` may ask for goods
                if d.hook:
                    body += [x for m in self.p.modifiers.get(n.func, []) for x in (m.value, m.cond)]
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
            self.mod.add_lines(self._sets.rewrite(lines) if self.optimise else lines)
        self.mod.add("CHECKS = [" + ", ".join(f"CHECK_{m.index}" for m in self.actions) + "]")
