"""Expressions -> Python expression source.

Generated code sees the state's variable list as `V`, the acting player as `me`, the static
tables as globals (see tables.py) and the helpers of runtime/helpers.py. Locals are mapped
by an environment: a name -> the Python expression that reads it (`l_x` for Python locals,
`L['x']` for locals kept in a suspended frame).
"""

from __future__ import annotations

import re
from contextlib import contextmanager

from .. import ast
from .. import types as T
from ..symbols import CheckedProgram
from ..limits import MAX_RANGE
from .tables import area_table, eq_key_table, eq_key_values, field_table, tally_table, tally_values


class ExprGen:
    def __init__(self, prog: CheckedProgram, slots: dict | None = None, share_constants: bool = False):
        self.p = prog
        self.slots = slots or {}        # variable name -> slot index in V (runtime only)
        self._tmp = 0
        # map literals of constants, built once as module globals (maps are never changed in
        # place through a name bound to a literal: see value())
        self.share_constants = share_constants
        self.constant_maps: dict[str, str] = {}      # source -> global name
        self._inlinable: dict = {}                  # def name -> (params, uses, render) or False
        self._inline_depth = 0
        self._no_binding = 0          # > 0: no `:=` may be written (see no_binding)
        # False: the plain compilation (no inlining, no lowering, no rewrites of the code made;
        # see ProgramCompiler), the reference the optimised one is checked against
        self.optimise = True
        # nodes already computed into a temporary by lines emitted before (see lower.py)
        self.subst: dict[int, str] = {}
        # while the test of an `if` before an `act` is written: a can() of that act's player
        # and actions keeps the moves it lists for the act (machines.py, m_if_stmt)
        self.keep = None

    def t(self, e) -> T.Type:
        return self.p.types.get(id(e), T.ANY)

    def fresh(self, base="t") -> str:
        """A new Python name: the number comes first, so that no base can imitate it."""
        self._tmp += 1
        return f"_{base[0]}{self._tmp}_{base[1:]}"

    # ------------------------------------------------------------------

    def gen(self, e: ast.Expr, env: dict) -> str:
        if self.subst:
            done = self.subst.get(id(e))
            if done is not None:
                return done
        m = getattr(self, "g_" + e.kind)
        return m(e, env)

    def g_int_lit(self, e, env):
        return repr(e.value)

    def g_str_lit(self, e, env):
        return repr(e.value)

    def g_bool_lit(self, e, env):
        return "True" if e.value else "False"

    def g_none_lit(self, e, env):
        return "None"

    def g_me(self, e, env):
        return "me"

    def g_name(self, e, env):
        sym = self.p.refs.get(id(e))
        if sym is None:
            raise CodegenError(e, f"unresolved name {e.name}")
        k = sym.kind
        if k == "local":
            return env[e.name]
        if k == "players":
            return "PLAYERS"
        if k == "const":
            v = self.p.consts.get(e.name)
            if isinstance(v, (bool, int)) or v is None:
                return repr(v)
            return f"K_{e.name}"
        if k in ("enum_value", "kind"):
            return repr(sym.data)
        if k in ("global", "grid", "cell_attr"):
            return f"V[{self.slots[e.name]}]"
        if k in ("enum", "record", "area", "line"):
            return f"VALS_{e.name}"
        raise CodegenError(e, f"name {e.name} of kind {k} has no value")

    def g_attr(self, e, env):
        ot = self.t(e.obj)
        base = T.strip(ot)
        if isinstance(base, T.TypeRef):
            sym = self.p.refs.get(id(e))
            return repr(sym.data)
        obj = self.gen(e.obj, env)
        if isinstance(base, T.PlayerType):
            return f"V[{self.slots['.' + e.name]}][{obj}]"
        if isinstance(base, T.RecordType):
            opt = isinstance(ot, T.OptType)
            if e.name == "count":
                return f"{'CNTO' if opt else 'CNT'}_{base.name}[{obj}]"
            return f"{field_table(base.name, e.name, none_safe=opt)}[{obj}]"
        if isinstance(base, T.CellType):
            g = base.grid
            if e.name == "row":
                return f"({obj} // {g.cols})"
            if e.name == "col":
                return f"({obj} % {g.cols})"
            return f"{area_table(g.name, e.name)}[{obj}]"
        raise CodegenError(e, f"attribute {e.name} of {ot}")

    def g_index(self, e, env):
        return f"{self.gen(e.obj, env)}[{self.gen(e.index, env)}]"

    def g_slice(self, e, env):
        low = self.gen(e.low, env) if e.low is not None else ""
        high = self.gen(e.high, env) if e.high is not None else ""
        return f"{self.gen(e.obj, env)}[{low}:{high}]"

    def g_list_lit(self, e, env):
        return "[" + ", ".join(self.gen(x, env) for x in e.items) + "]"

    def value(self, e, env) -> str:
        """Python source of e as a value to keep (bound by let, stored, passed to a
        procedure): maps are copied, so a later change to the map it came from (entry by
        entry) does not show through it, and a saved game continues the same way."""
        src = self.gen(e, env)
        if isinstance(T.strip(self.t(e)), T.MapType) and not src.startswith("_maplit("):
            return f"list({src})"        # (a literal built here is already a new map)
        return src

    def g_map_lit(self, e, env):
        t = T.strip(self.t(e))
        n = "NP" if isinstance(t.key, T.PlayerType) else t.key.size()
        default = _default_src(t.value)
        parts = [(self.gen(x.key, env), self.gen(x.value, env)) for x in e.entries]
        pairs = ", ".join(f"({k}, {v})" for k, v in parts)
        src = f"_maplit({n}, {default}, ({pairs}{',' if len(e.entries) == 1 else ''}))"
        if self.share_constants and n != "NP" and all(_CONSTANT.fullmatch(k) and _CONSTANT.fullmatch(v)
                                                      for k, v in parts):
            return self.constant_maps.setdefault(src, f"_MAP{len(self.constant_maps)}")
        return src

    def g_binary(self, e, env):
        op = "//" if e.op == "/" else e.op
        left, right = self.gen(e.left, env), self.gen(e.right, env)
        if op == "*" and not (_FIXED_NUMBER.fullmatch(left) or _FIXED_NUMBER.fullmatch(right)):
            return f"_mul({left}, {right})"      # checked: squaring again and again explodes
        return f"({left} {op} {right})"

    def g_neg(self, e, env):
        return f"(-{self.gen(e.operand, env)})"

    def g_not_op(self, e, env):
        return f"(not {self.gen(e.operand, env)})"

    def g_bool_op(self, e, env):
        return f"({self.gen(e.left, env)} {e.op} {self.gen(e.right, env)})"

    def g_cond_expr(self, e, env):
        return f"({self.gen(e.then, env)} if {self.gen(e.cond, env)} else {self.gen(e.other, env)})"

    def g_compare(self, e, env):
        op = e.op
        if op in ("in", "not in"):
            item = self.gen(e.left, env)
            rt = T.strip(self.t(e.right))
            coll = self.gen(e.right, env)
            if isinstance(rt, T.ZoneType) and rt.counted:
                test = f"({coll}[{item}] > 0)"
                return test if op == "in" else f"(not {test})"
            return f"({item} {op} {coll})"
        if isinstance(e.right, ast.NoneLit) or isinstance(e.left, ast.NoneLit):
            other = e.left if isinstance(e.right, ast.NoneLit) else e.right
            return f"({self.gen(other, env)} {'is' if op == '==' else 'is not'} None)"
        if op in ("==", "!=") and self.optimise:
            left, right = self._eq_key(e.left, e.right, env), self._eq_key(e.right, e.left, env)
            if left is not None or right is not None:
                return (f"({left if left is not None else self.gen(e.left, env)} {op} "
                        f"{right if right is not None else self.gen(e.right, env)})")
        return f"({self.gen(e.left, env)} {op} {self.gen(e.right, env)})"

    def _eq_key(self, side, other, env):
        """`c.field` compared with a value numbered from 0 that is never none, where the field
        may be none: read from the table with none as -1 (tables.py eq_key_values), which
        compares the same and faster; else None."""
        if not isinstance(side, ast.Attr) or isinstance(self.t(side.obj), T.OptType):
            return None
        rec = T.strip(self.t(side.obj))
        ot = self.t(other)
        if not isinstance(rec, T.RecordType) or isinstance(ot, T.OptType) or not T.is_indexed(ot) \
                or side.name == "count" or not T.is_indexed(self.t(side)) \
                or eq_key_values(rec, side.name) is None:
            return None
        return f"{eq_key_table(rec.name, side.name)}[{self.gen(side.obj, env)}]"

    # iteration ----------------------------------------------------------

    def iterable(self, e, env, kinds_only: bool = False) -> str:
        """Python source iterating the values of e (zones with their copies; a pile's kinds
        once each with `kinds_only`, where the answer cannot depend on how many copies of a
        kind it holds: see KIND_BLIND)."""
        if isinstance(e, ast.Call) and e.func == "range":
            return self._range(e, env)             # iterated only: no list needed
        t = T.strip(self.t(e))
        src = self.gen(e, env)
        if isinstance(t, T.ZoneType):
            if t.counted:
                return f"_distinct_counts({src})" if kinds_only else f"_it_counts({src})"
            if t.slotted:
                return f"_it_slots({src})"
        return src

    def distinct(self, e, env) -> str:
        """Python source of the distinct values of e (domains of parameters and choices)."""
        t = T.strip(self.t(e))
        src = self.gen(e, env)
        if isinstance(t, T.ZoneType):
            if t.counted:
                return f"_distinct_counts({src})"
            if t.slotted:
                return f"_distinct(_it_slots({src}))"
            return f"_distinct({src})"
        if isinstance(t, T.TypeRef):
            return src
        if isinstance(e, ast.Call) and e.func == "range":
            return self._range(e, env)             # iterated or tested only: no list needed
        if isinstance(e, ast.Call) and e.func in _DISTINCT_BUILTINS:
            return src
        if isinstance(e, ast.ListLit) and all(isinstance(x, ast.IntLit) for x in e.items) and \
                len({x.value for x in e.items}) == len(e.items):
            return src
        return f"_distinct({src})"

    @contextmanager
    def no_binding(self):
        """While generating a comprehension's iterable: inlined defs bind no names there."""
        self._no_binding += 1
        try:
            yield
        finally:
            self._no_binding -= 1

    def _clauses(self, e, env):
        env = dict(env)
        parts = []
        kinds_only = self.optimise and getattr(e, "func", None) in KIND_BLIND
        for cl in e.clauses:
            with self.no_binding():
                it = self.iterable(cl.iter, env, kinds_only)
            var = self.fresh("c" + cl.var)
            env[cl.var] = var
            parts.append(f"for {var} in {it}")
            if cl.cond is not None:
                parts.append(f"if {self.gen(cl.cond, env)}")
        return " ".join(parts), env

    def g_list_comp(self, e, env):
        clauses, inner = self._clauses(e, env)
        return f"[{self.gen(e.elem, inner)} {clauses}]"

    def kind_count(self, e, env):
        """`count(x for x in PILE where x == k)` is PILE's count of kind k (one lookup), or
        None when e is not of that shape."""
        if e.func != "count" or len(e.clauses) != 1 or not self.optimise:
            return None
        cl = e.clauses[0]
        zt = T.strip(self.t(cl.iter))
        c = cl.cond
        if not (isinstance(zt, T.ZoneType) and zt.counted and isinstance(c, ast.Compare) and c.op == "=="):
            return None
        for mine, other in ((c.left, c.right), (c.right, c.left)):
            if isinstance(mine, ast.Name) and mine.name == cl.var and not isinstance(self.t(other), T.OptType) \
                    and not any(isinstance(n, ast.Name) and n.name == cl.var or isinstance(n, _LOOPS)
                                for n in other.walk()):
                return f"{self.gen(cl.iter, env)}[{self.gen(other, env)}]"
        return None

    def g_generator_call(self, e, env):
        counted = self.kind_count(e, env)
        if counted is not None:
            return counted
        clauses, inner = self._clauses(e, env)
        elem = self.gen(e.elem, inner)
        # a list is faster to build than a generator to drain, except where any/all stop early
        if e.func == "count":
            return f"len([1 {clauses}])"
        if e.func in ("any", "all"):
            return f"{e.func}({elem} {clauses})"
        return f"{e.func}([{elem} {clauses}])"

    # calls ----------------------------------------------------------------

    def g_call(self, e, env):
        args = e.args or []
        f = e.func
        if f in self.p.defs:
            srcs = [self.gen(x, env) for x in args]
            inlined = self._inline(f, srcs)
            if inlined is not None:
                return inlined
            a = ", ".join(["V", "me"] + srcs)
            return f"D_{f}({a})"
        t = self.p.lines.get(f) or self.p.areas.get(f)
        if t is not None:
            return f"_index({self.gen(args[0], env)}, {t.size()}, {f!r})"
        return getattr(self, "b_" + f)(e, args, env)

    def _inline(self, f, srcs):
        """The body of a small def written in place of its call (a Python call costs more
        than most such bodies), or None. Only defs without loops whose body is one expression
        or an if/return chain (a hook with its modifiers as one expression). An argument used
        more than once that is not a cheap read is computed once, first, into a name of its
        own, as the call would (not inside a comprehension's iterable, where Python forbids
        `:=`)."""
        info = self._inlinable.get(f)
        if info is None:
            info = self._inlinable[f] = self._inline_info(f)
        if info is False or not self.optimise:
            return None
        params, uses, render, leaf = info
        if self._inline_depth >= (_INLINE_DEPTH + _LEAF_DEPTH if leaf else _INLINE_DEPTH):
            return None
        env = {}
        binds = []
        for (name, _), src in zip(params, srcs):
            cheap = _DUPLICABLE.fullmatch(src)
            if uses[name] > 1 and not cheap:
                if self._no_binding:
                    return None
                self._tmp += 1
                var = f"_i{self._tmp}_{name}"
                binds.append(f"({var} := {src})")
                env[name] = var
                continue
            env[name] = src if cheap else f"({src})"
        self._inline_depth += 1
        try:
            body = render(env)
        finally:
            self._inline_depth -= 1
        if binds:
            return f"({', '.join(binds)}, {body})[{len(binds)}]"
        return f"({body})"

    def _inline_info(self, f):
        c = self.p.defs[f]
        d = c.decl
        base = d.expr if d.expr is not None else _as_expr(d.body)
        if base is None:
            return False
        pnames = [name for name, _ in c.params]
        mods = self.p.modifiers.get(f, []) if d.hook else []
        # each part with its own names for the parameters (a modifier names them itself)
        parts = [(base, {n: n for n in pnames})]
        for m in mods:
            binders = {b: n for b, n in zip(m.params or [], pnames)}
            parts += [(x, binders) for x in (m.value, m.cond) if x is not None]
        uses = {n: 0 for n in pnames}
        size = 0
        leaf = True                 # (asks no def: inlined deeper, it cannot unfold further)
        for expr, names in parts:
            for n in expr.walk():
                size += 1
                if isinstance(n, _LOOPS):
                    return False
                if isinstance(n, ast.Call) and n.func in self.p.defs:     # (a hook is a def too)
                    leaf = False
                if isinstance(n, ast.Name) and n.name in names:
                    sym = self.p.refs.get(id(n))
                    if sym is not None and sym.kind == "local":
                        uses[names[n.name]] += 1
        if size > _INLINE_NODES:
            return False
        sets = [m for m in mods if m.op == "="]
        adjusts = [m for m in mods if m.op != "="]

        def render(env):
            v = self.gen(base, env)
            # as the hook's function: values set first, then adjustments, in declaration order
            for m in sets + adjusts:
                menv = {b: env[n] for b, n in zip(m.params or [], pnames)}
                val = self.gen(m.value, menv)
                if m.op == "=":
                    v = f"({val} if {self.gen(m.cond, menv)} else {v})" if m.cond is not None else f"({val})"
                else:
                    op = m.op[0]
                    part = f"({val} if {self.gen(m.cond, menv)} else 0)" if m.cond is not None else f"({val})"
                    v = f"({v} {op} {part})"
            return v
        return c.params, uses, render, leaf

    def b_count(self, e, args, env):
        t = T.strip(self.t(args[0]))
        src = self.gen(args[0], env)
        if isinstance(t, T.ZoneType):
            if t.counted:
                return f"sum({src})"
            if t.slotted:
                return f"_count_slots({src})"
        if src == "PLAYERS" and self.optimise:
            return "NP"         # (a game is compiled for its number of players: folded where known)
        return f"len({src})"

    def b_sum(self, e, args, env):
        return f"sum({self.gen(args[0], env)})"

    def b_min(self, e, args, env):
        srcs = [self.gen(a, env) for a in args]
        if len(args) == 2 and self.optimise and not self._no_binding \
                and all(_plain_int(self.t(a)) for a in args):
            return self._min_max(e.func, *srcs)
        return f"{e.func}({', '.join(srcs)})"

    def _min_max(self, func: str, a: str, b: str) -> str:
        """`min(a, b)` / `max(a, b)` of two ints as a conditional (a builtin call costs
        several times the comparison). Both are computed once, a first, and the value is
        the one the builtin gives: its first argument unless the second is smaller (min) or
        greater (max)."""
        keep_second = "<" if func == "min" else ">"
        if _INT_TEXT.fullmatch(a):          # min(0, x): x unless it is not smaller/greater
            t = self.fresh("m")
            return f"({t} if ({t} := {b}) {keep_second} {a} else {a})"
        if _INT_TEXT.fullmatch(b):          # min(x, 0): x unless 0 is smaller/greater
            t = self.fresh("m")
            return f"({t} if ({t} := {a}) {_NOT_STRICT[keep_second]} {b} else {b})"
        x, y = self.fresh("m"), self.fresh("m")     # a first: b kept when b > a (max), a > b (min)
        return f"({y} if ({x} := {a}) {_FLIP[keep_second]} ({y} := {b}) else {x})"

    b_max = b_min

    def b_any(self, e, args, env):
        return f"{e.func}({self.gen(args[0], env)})"

    b_all = b_any

    def b_abs(self, e, args, env):
        return f"abs({self.gen(args[0], env)})"

    def _range(self, e, env):
        a, b = self.gen(e.args[0], env), self.gen(e.args[1], env)
        if _INT_TEXT.fullmatch(a) and _INT_TEXT.fullmatch(b) and int(b) - int(a) <= MAX_RANGE:
            return f"range({a}, {b})"         # (constants are written as their values)
        return f"_range({a}, {b})"           # checked when it runs (runtime/helpers.py)

    def b_subsets(self, e, args, env):
        st = T.strip(T.strip(self.t(e)).elem)              # the SelectionType
        src, zt = self.gen(args[0], env), T.strip(self.t(args[0]))
        if isinstance(zt, T.ZoneType) and zt.counted:
            return f"_selections({src}, {st.lo}, {st.hi})"
        return f"_selections_of({src}, {st.lo}, {st.hi}, {st.kinds})"

    def b_range(self, e, args, env):
        return f"list({self._range(e, env)})"

    def b_values(self, e, args, env):
        t = self.t(args[0])
        if isinstance(t, T.TypeRef) and isinstance(t.target, T.PlayerType):
            return "PLAYERS"
        return self.gen(args[0], env)

    def b_copies(self, e, args, env):
        t = self.t(args[0])
        if isinstance(t, T.TypeRef):
            return f"COPIES_{t.target.name}"
        rec = T.strip(t)
        k = self.gen(args[0], env)
        return f"[{k}] * CNT_{rec.name}[{k}]"

    def b_slots(self, e, args, env):
        t = self.t(args[0])
        if t.zone == "row":
            return repr(list(range(t.size_)))
        return f"VALS_{t.key.name}" if not isinstance(t.key, T.PlayerType) else "PLAYERS"

    def b_cells(self, e, args, env):
        t = T.strip(self.t(args[0]))
        if isinstance(t, T.GridType):
            return f"CELLS_{t.grid.name}"
        if isinstance(t, T.AreaType):
            return f"{area_table(t.grid.name, t.name, cells=True)}[{self.gen(args[0], env)}]"
        return f"LCELLS_{t.name}[{self.gen(args[0], env)}]"

    def _grid_of(self, arg) -> T.GridInfo:
        return T.strip(self.t(arg)).grid

    def b_adjacent(self, e, args, env):
        return f"ADJ_{self._grid_of(args[0]).name}[{self.gen(args[0], env)}]"

    def b_row_cells(self, e, args, env):
        return f"ROWC_{self._grid_of(args[0]).name}[{self.gen(args[0], env)}]"

    def b_col_cells(self, e, args, env):
        return f"COLC_{self._grid_of(args[0]).name}[{self.gen(args[0], env)}]"

    def b_beside(self, e, args, env):
        t = self.t(args[1])
        c = self.gen(args[0], env)
        if isinstance(t, T.TypeRef):
            return f"BESIDE_{t.target.name}[{c}]"
        lt = T.strip(t)
        return f"({c} in LCELLS_{lt.name}[{self.gen(args[1], env)}])"

    def b_distance(self, e, args, env):
        lt = T.strip(self.t(args[1]))
        return f"DIST_{lt.name}[{self.gen(args[1], env)}][{self.gen(args[0], env)}]"

    def b_cell(self, e, args, env):
        g = T.strip(self.t(e)).grid
        r, c = self.gen(args[0], env), self.gen(args[1], env)
        call = f"_cell({r}, {c}, {g.rows}, {g.cols})"      # (names the cell outside the grid)
        rl, cl = _int_lit(args[0]), _int_lit(args[1])
        if rl is not None and cl is not None:
            return str(rl * g.cols + cl) if 0 <= rl < g.rows and 0 <= cl < g.cols else call
        if rl is not None and 0 <= rl < g.rows and _SIMPLE.fullmatch(c):
            return f"({rl * g.cols} + {c} if 0 <= {c} < {g.cols} else {call})"
        if _SIMPLE.fullmatch(r) and _SIMPLE.fullmatch(c):
            return f"({r} * {g.cols} + {c} if 0 <= {r} < {g.rows} and 0 <= {c} < {g.cols} else {call})"
        if self.optimise and not self._no_binding and (_SIMPLE.fullmatch(r) or _SIMPLE.fullmatch(c)):
            # one side computed (a call, say): into a name, tested first (the other side is a
            # name or a number, so the order of the two changes nothing)
            t = self.fresh("ncell")
            if _SIMPLE.fullmatch(c):
                return (f"({t} * {g.cols} + {c} if 0 <= ({t} := {r}) < {g.rows} and 0 <= {c} < {g.cols} "
                        f"else _cell({t}, {c}, {g.rows}, {g.cols}))")
            return (f"({r} * {g.cols} + {t} if 0 <= ({t} := {c}) < {g.cols} and 0 <= {r} < {g.rows} "
                    f"else _cell({r}, {t}, {g.rows}, {g.cols}))")
        return call

    def b_knows(self, e, args, env):
        """Can player p see this slot's content (public zone, own private zone, or known), or
        a whole private or hidden variable (its owner, or shown to p and not changed since)."""
        who = self.gen(args[0], env)
        whole = self._whole_known(args[1], env)
        if whole is not None:
            return whole.replace("@WHO@", who)
        zone = args[1].obj
        vis, owner = self._visibility(zone, env)
        if vis == "public":
            return "True"
        if vis == "private":
            return f"({who} == {owner})"
        if vis == "others":
            return f"({who} != {owner})"
        known = self._known(zone, env)
        return f"_knows({known}[{self.gen(args[1].index, env)}], {who})"

    def _whole_known(self, node, env):
        """`knows(p, X)` for a variable X named as a whole, with @WHO@ standing for p."""
        key = self._zone_key(node)
        if key is None:
            return None
        vi = self.p.pvars.get(key[1:]) if key.startswith(".") else self.p.globals.get(key)
        if vi is None:
            return None
        if vi.visibility == "public":
            return "True"
        # who sees it by its visibility: the owner (private), all but the owner (others), no one
        owner = self.gen(node.obj, env) if key.startswith(".") else None
        by_visibility = {"private": f"@WHO@ == {owner}", "others": f"@WHO@ != {owner}"}.get(vi.visibility)
        if vi.seen_slot < 0:             # never shown by the rules
            return f"({by_visibility})" if by_visibility else "False"
        shown = f"_knows(V[{vi.seen_slot}][{owner}][0], @WHO@)" if owner else f"_knows(V[{vi.seen_slot}][0], @WHO@)"
        return f"({by_visibility} or {shown})" if by_visibility else shown

    def _zone_key(self, zone):
        if isinstance(zone, ast.Name):
            return zone.name
        if isinstance(zone, ast.Attr):
            return "." + zone.name
        return None

    def _visibility(self, zone, env):
        key = self._zone_key(zone)
        vi = self.p.pvars.get(key[1:]) if key and key.startswith(".") else self.p.globals.get(key)
        owner = self.gen(zone.obj, env) if isinstance(zone, ast.Attr) else None
        return (vi.visibility if vi is not None else "public"), owner

    def _known(self, zone, env):
        key = self._zone_key(zone)
        if key.startswith("."):
            return f"V[{self.slots['?' + key]}][{self.gen(zone.obj, env)}]"
        return f"V[{self.slots['?' + key]}]"

    def b_ordinal(self, e, args, env):
        return f"_ordinal({self.gen(args[0], env)})"

    def b_seats_from(self, e, args, env):
        return f"_seats_from({self.gen(args[0], env)}, NP)"

    def b_affordable(self, e, args, env):
        payer = self.gen(args[2], env) if len(args) == 3 else "me"
        return f"PAY_{args[1].name}(V, {payer}, {self.cost_args(args[0], env)}, True)"

    def cost_args(self, cost, env) -> str:
        """A payment's cost as PAY_ takes it (`cost, tally`): the list of units and None, or
        (optimised) for a record field of lists of numbers, None and the kind's tally from the
        field's table of tallied units, so that the payment neither counts nor walks the units
        itself."""
        if self.optimise and isinstance(cost, ast.Attr) and cost.name != "count":
            ot = self.t(cost.obj)
            base = T.strip(ot)
            if isinstance(base, T.RecordType) and tally_values(base, cost.name) is not None:
                table = tally_table(base.name, cost.name, none_safe=isinstance(ot, T.OptType))
                return f"None, {table}[{self.gen(cost.obj, env)}]"
        return f"{self.gen(cost, env)}, None"

    def b_can(self, e, args, env):
        name = args[1].name
        names = self.p.groups[name] if name in self.p.groups else [name]
        if not names:
            return "False"
        order = list(self.p.actions)      # actions are numbered in this order
        who = self.gen(args[0], env)
        keep = self.keep
        if keep is not None and keep.names is None and not self._no_binding and who == keep.who \
                and set(names) <= keep.actions:
            # an `act` that lists these actions for this player comes next: list them now and
            # keep the moves for it (codegen/machines.py, m_if_stmt)
            keep.names = list(names)
            ix = [order.index(n) for n in names]
            tup = lambda fmt: "(" + "".join(fmt.format(i) + ", " for i in ix) + ")"      # noqa: E731
            return (f"({keep.var} := _can_keep({tup('GL_{}')}, {tup('G_can_{}')}, {tup('RG_can_{}')}, "
                    f"S, V, {who}))[0]")
        if len(names) == 1:
            i = order.index(names[0])
            return f"_can(G_can_{i}, RG_can_{i}, V, {who})"
        calls = " or ".join(f"_can(G_can_{order.index(n)}, RG_can_{order.index(n)}, V, _w)" for n in names)
        return f"(lambda _w: {calls})({who})"

    def b_player(self, e, args, env):
        k, n = _int_lit(args[0]), self.p.players
        if k is not None and n is not None and 1 <= k <= n:
            return str(k - 1)                      # the number of players is fixed when compiled
        return f"_player({self.gen(args[0], env)}, NP)"

    def b_next_player(self, e, args, env):
        return f"(({self.gen(args[0], env)} + 1) % NP)"


# quantifiers whose answer is the same whether a pile's kind comes once or once per copy
# (the copies of a kind are the same value, and these stop at, or keep, one value): they walk
# a pile's kinds, not its copies. count, sum and lists count the copies.
KIND_BLIND = ("any", "all", "min", "max")

_LOOPS = (ast.GeneratorCall, ast.ListComp)


_INT_TEXT = re.compile(r"-?\d{1,15}")
_NOT_STRICT = {"<": "<=", ">": ">="}      # x kept by min(x, k) when x <= k, by max(x, k) when x >= k
_FLIP = {"<": ">", ">": "<"}


def _plain_int(t) -> bool:
    """An int for certain (not a truth value, nor a value of unknown type)."""
    t = T.strip(t)
    return t is T.INT or isinstance(t, T.IntRange)


# a number fixed when the rules are compiled (a literal or a constant): a product with one
# cannot grow by itself, so it needs no check
_FIXED_NUMBER = re.compile(r"\(?-?\d{1,15}\)?|K_\w+")


def _int_lit(e):
    """The value of an integer literal (or its negation), else None."""
    if isinstance(e, ast.IntLit):
        return e.value
    if isinstance(e, ast.Neg) and isinstance(e.operand, ast.IntLit):
        return -e.operand.value
    return None


def _as_expr(body):
    """A def body made of `if ...: return a` / `elif` / `else` and a last `return`, as one
    conditional expression (None for any other body: lets, loops...)."""
    if not body:
        return None
    st = body[0]
    if isinstance(st, ast.ReturnStmt):
        return st.value
    if not isinstance(st, ast.IfStmt):
        return None
    rest = _as_expr(st.other) if st.other is not None else _as_expr(body[1:])
    for clause in reversed(st.elifs):
        then = _as_expr(clause.body)
        if then is None or rest is None:
            return None
        rest = ast.CondExpr(then=then, cond=clause.cond, other=rest, span=clause.span)
    then = _as_expr(st.body)
    if then is None or rest is None:
        return None
    return ast.CondExpr(then=then, cond=st.cond, other=rest, span=st.span)


_CONSTANT = re.compile(r"-?\d+|True|False|None")
# an argument source cheap enough to repeat where an inlined def uses its parameter twice
_SIMPLE = re.compile(r"-?\d+|True|False|None|[A-Za-z_][A-Za-z0-9_]*|L\['[^']*'\]")
# an argument cheap enough to compute at each use of its parameter: a name, a constant, or
# a read of a table or a state slot by such (a subscript costs far less than a call)
_DUPLICABLE = re.compile(r"-?\d+|True|False|None|L\['[^']*'\]|[A-Za-z_][A-Za-z0-9_]*"
                         r"(\[(-?\d+|[A-Za-z_][A-Za-z0-9_]*|L\['[^']*'\])\]){0,3}")
# inlining limits: the size of a def's body (nodes), and defs inlined within each other (a
# def that asks no def, two levels more: a small test asked under a cost's modifiers)
_INLINE_NODES = 60
_INLINE_DEPTH = 3
_LEAF_DEPTH = 2


def _default_src(t) -> str:
    t2 = T.strip(t) if not isinstance(t, T.OptType) else None
    if t2 is None:
        return "None"
    if T.is_int(t2):
        return "0"
    if t2 is T.BOOL:
        return "False"
    if isinstance(t2, T.ListType):
        return "[]"
    return "None"


# builtins whose lists never repeat a value
_DISTINCT_BUILTINS = {"values", "slots", "cells", "adjacent", "row_cells", "col_cells", "range"}


class CodegenError(Exception):
    """Something the checker let through that the compiler cannot write: a gap in the
    checker (loader.py reports it as diagnostic E999 at the node)."""

    def __init__(self, node, msg):
        super().__init__(f"{node.span}: internal compiler error: {msg}")
        self.node, self.msg = node, msg
