"""Copy-on-write clones: which of the state's containers each block of the flow may change.

`game.clone(s)` copies the state's list of slots but not the containers in it (the lists of
a zone, a grid, a per-player value): the clone and `s` share them until one of them is
about to change one. Before the runner enters a block of a state that shares (`s.own` is
not None), it copies the containers that block may change and that the state does not own
yet (runtime/runner.py, `Runner._own`). A tree search pays for the containers a move
changes, not for the whole state, and its states share the rest.

What a block may change is read from the generated module (Python's own parser, once per
game, at its first clone): every container the block, or any generated function it names,
changes in place: a store, an augmented store or a `del` into it, a method call on it (any
but the reading ones), or the container handed to a function that is not known to leave its
arguments alone. A container is an expression that reaches into `V[k]` (the state's slot k)
less deep than the slot's containers nest, or a name bound to one (`_o = V[9]`,
`for x in V[3]`, `(_z := V[11][me])`), or something holding one (a list it was appended to,
a frame it was kept in, a value a generated function returned). Names are followed through
the function in order (a name bound again no longer holds what it held), branches and loops
joined. Anything the reading cannot follow (`V` or `S` handed to an unknown function, a slot
chosen at run time) counts as changing every container. The reading errs only towards
copying more; tests/test_clone_sharing.py checks it on every bundled game.

Slots whose value is not a container (a number, a list value of a variable, which the rules
replace rather than change) are never copied: the clone's own list of slots holds them.
"""

from __future__ import annotations

import ast

ALL = "ALL"                 # any container of the state
_V, _S, _F = "V", "S", "F"  # the state's list of slots itself; the state; its frames
# A container of slot k, `rest` levels above its plain values, is the token (k, rest);
# something that holds one (a list it was appended to) is a level higher: (k, rest + 1), at
# most _TOP. The frames are (F, n), n levels above the values they keep: `S.stack` (F, 3), a
# frame `F` (F, 2), its locals `L` (F, 1); each state has its own (clone copies them), and
# what is read out of them is whatever any function kept in one.
_TOP = 8


def _is_frame(r) -> bool:
    return type(r) is tuple and r[0] == _F


def _is_slot(r) -> bool:
    return type(r) is tuple and r[0] != _F


# Functions the generated code calls that never change a container handed to them.
PURE_CALLS = frozenset({
    "sum", "len", "max", "min", "any", "all", "bool", "int", "list", "tuple", "dict", "set",
    "sorted", "reversed", "map", "filter", "zip", "enumerate", "range", "repr", "str", "abs",
    "isinstance", "iter", "next",
    "_range", "_mul", "_too_big", "_selections", "_selections_of", "_loop_budget", "_it_counts",
    "_distinct_counts", "_compress", "_it_slots", "_distinct", "_count_slots", "_cell", "_index", "_knows",
    "_can", "_can_keep", "_maplit", "_tally_units", "_ordinal", "_seats_from", "_player", "_bound_error",
    "_missing", "_empty_slot", "_occupied", "_draw_single", "_no_options", "_hall", "_splits",
    "RulesRuntimeError", "AssertionError",
})
# functions whose result holds nothing of their arguments (numbers, truths, new lists of numbers;
# `_compress(_KINDS, counts)` gives the numbers of the range it is given, walked at once by a
# loop of a function that never changes the state: codegen/pile_walks.py)
FRESH_RESULTS = frozenset({
    "len", "sum", "bool", "any", "all", "int", "abs", "repr", "str", "isinstance", "range",
    "_can", "_can_keep", "_draw_single", "_count_slots", "_knows", "_cell", "_index", "_range",
    "_mul", "_ordinal", "_player", "_seats_from", "_distinct_counts", "_it_counts", "_selections",
    "_selections_of", "_hall", "_splits", "_compress",
})
# methods that only read the object they are called on
READING_METHODS = frozenset({"copy", "count", "index", "get", "keys", "values", "items", "__getitem__"})
# methods that keep their arguments in the object they are called on (which then holds them)
STORING_METHODS = frozenset({"append", "extend", "insert", "add", "update", "setdefault", "__setitem__"})

_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)
_STEPS = "steps"            # (in the memo: statements the reading may still read)
# The reading reads a loop's body again until what it knows stops growing, so nested loops
# multiply its work: it gives up (clones then copy whole) past this many statements read,
# ten times what the largest bundled configuration needs (19,629).
STEP_LIMIT = 200_000


class TooLong(Exception):
    """The generated code is too long or too deeply nested to read within STEP_LIMIT."""


_BUSY = (ast.Call, ast.NamedExpr, ast.Lambda) + _COMPREHENSIONS     # what _scan looks for


def _held(roots) -> set:
    """What an object holding `roots` is (one level up)."""
    out = set()
    for r in roots:
        if type(r) is tuple:
            out.add((r[0], min(r[1] + 1, _TOP)))
        else:
            out.add(ALL)          # holding the list of slots, the state, or anything
    return out


def _join(a: dict, b: dict) -> dict:
    out = dict(a)
    for k, v in b.items():
        out[k] = out[k] | v if k in out else v
    return out


def _base_name(e):
    """The name an object reached by subscripts and attributes starts from (`out` of
    `out[3].x`), or None."""
    while isinstance(e, (ast.Subscript, ast.Attribute)):
        e = e.value
    return e.id if isinstance(e, ast.Name) else None


class _Function:
    """One generated function read in order: what it changes, returns and keeps in frames,
    and the generated functions it names."""

    def __init__(self, node, generated: dict, returns: dict, framed: frozenset, depths: list,
                 memo: dict):
        self.memo = memo                    # id(node) -> facts about it (shared by every reading)
        self.generated = generated          # name -> its parameters' names, for every function
        self.returns = returns              # name -> what it may return (of its own V and S)
        self.depths = depths
        self.changes: set = set()
        self.names: set = set()
        self.framed: set = set()            # what it keeps in a frame (any block may read it)
        self.gives: set = set()             # what it may return
        self.in_frames = set(framed)        # what any function kept in a frame
        self._loops: list = []              # per loop entered: ([envs at breaks], [at continues])
        self._weak = 0                      # inside a try: every binding adds (handlers see all)
        params = generated[node.name]
        env = {}
        if "V" in params:
            env["V"] = frozenset({_V})
        if "S" in params:
            env["S"] = frozenset({_S})
        if "F" in params:
            env["F"] = frozenset({(_F, 2)})
        self._body(node.body, env)
        names = memo.get(id(node))
        if names is None:
            names = memo[id(node)] = {n.id for n in ast.walk(node)
                                      if isinstance(n, ast.Name) and n.id in generated}
        self.names = set(names)

    # ---------------------------------------------------------------- what an expression is

    def _slot(self, k) -> set:
        if not (isinstance(k, ast.Constant) and type(k.value) is int):
            return {ALL}
        k = k.value
        if not 0 <= k < len(self.depths):
            return {ALL}
        return {(k, self.depths[k])} if self.depths[k] else set()

    def _element(self, roots) -> set:
        """What an element of `roots` may be (one level down; for V, any slot)."""
        out = set()
        for r in roots:
            if type(r) is tuple:
                if r[1] > 1:
                    out.add((r[0], r[1] - 1))
                elif r[0] == _F:
                    out |= self.in_frames
            else:
                out.add(ALL)
        return out

    def roots(self, e, env) -> set:
        """The containers of the state `e` may evaluate to (or hold): tokens (k, rest), `V`
        (the list of slots), `S` (the state), `F` (its frames) or ALL."""
        if e is None:
            return set()
        if isinstance(e, ast.Name):
            return set(env.get(e.id, ()))
        if isinstance(e, ast.Attribute):
            inner = self.roots(e.value, env)
            out = {r for r in inner if r not in (_S, _V)}
            if _S in inner:
                if e.attr == "v":
                    out.add(_V)
                elif e.attr == "stack":
                    out.add((_F, 3))
            return out
        if isinstance(e, ast.Subscript):
            inner = self.roots(e.value, env)
            if isinstance(e.slice, ast.Slice):          # a new list of the same elements
                return {r for r in inner if r not in (_V, _S)} | ({ALL} if inner & {_V, _S} else set())
            out = self._element(inner - {_V})
            if _V in inner:
                out |= self._slot(e.slice)
            return out
        if isinstance(e, ast.NamedExpr):
            return self.roots(e.value, env)
        if isinstance(e, ast.IfExp):
            return self.roots(e.body, env) | self.roots(e.orelse, env)
        if isinstance(e, ast.BoolOp):
            return set().union(*(self.roots(x, env) for x in e.values))
        if isinstance(e, (ast.List, ast.Tuple, ast.Set)):
            return _held(set().union(*(self.roots(x, env) for x in e.elts))) if e.elts else set()
        if isinstance(e, ast.Dict):
            return _held(set().union(*(self.roots(x, env) for x in e.values))) if e.values else set()
        if isinstance(e, ast.Starred):
            return self.roots(e.value, env)
        if isinstance(e, ast.BinOp):              # `a + b` of lists holds their elements
            return self.roots(e.left, env) | self.roots(e.right, env)
        if isinstance(e, _COMPREHENSIONS):
            local = self._comprehension_env(e, env)
            return _held(self.roots(e.value if isinstance(e, ast.DictComp) else e.elt, local))
        if isinstance(e, ast.Call):
            f = e.func
            if isinstance(f, ast.Name) and f.id in self.generated:
                return self._returned(f.id, e, env)
            if isinstance(f, ast.Name) and f.id in FRESH_RESULTS:
                return set()
            out = set()                  # what a call returns may hold its inputs, or be one
            if isinstance(f, ast.Attribute):        # (or an element: `L.pop('x')`, `x.get(k)`)
                obj = self.roots(f.value, env)
                out |= obj | self._element(obj - {_V, _S})
            for a in e.args:
                out |= self.roots(a, env)
            for k in e.keywords:
                out |= self.roots(k.value, env)
            return out | _held(out) if out else out
        return set()                               # constants, arithmetic, comparisons: new values

    def _comprehension_env(self, e, env) -> dict:
        local = dict(env)
        for gen in e.generators:
            self._bind(gen.target, self._element(self.roots(gen.iter, local)), local, weak=True)
        return local

    def _returned(self, name: str, call: ast.Call, env) -> set:
        """What a call of a generated function may return: what it returns of its own V and
        S, as the arguments in their places are here, and any container handed to it."""
        params = self.generated[name]
        given = self.returns.get(name, frozenset())
        out = set()
        for i, a in enumerate(call.args):
            r = self.roots(a, env)
            p = params[i] if i < len(params) else None
            if p in ("V", "S"):
                if (_V if p == "V" else _S) in given:
                    out |= r
            elif p == "F":                       # frames are followed by their tokens
                continue
            elif r:
                out |= r | _held(r)
        for k in call.keywords:
            r = self.roots(k.value, env)
            out |= r | _held(r)
        out |= {x for x in given if x not in (_V, _S)}
        if len(call.args) > len(params) or any(isinstance(a, ast.Starred) for a in call.args):
            out.add(ALL)
        return out

    # ---------------------------------------------------------------- bindings

    def _bind(self, target, roots, env, weak=False):
        weak = weak or self._weak
        if isinstance(target, ast.Name):
            env[target.id] = env.get(target.id, frozenset()) | roots if weak else frozenset(roots)
        elif isinstance(target, (ast.Tuple, ast.List)):
            for t in target.elts:
                self._bind(t, roots, env, weak)
        elif isinstance(target, ast.Starred):
            self._bind(target.value, roots, env, weak)
        elif isinstance(target, (ast.Subscript, ast.Attribute)):
            self._scan(target.value, env)
            if isinstance(target, ast.Subscript):
                self._scan(target.slice, env)
                self._changed(target.value, env)
            else:
                self.changes |= {r[0] for r in self.roots(target.value, env) if _is_slot(r)}
            self._hold(target.value, roots, env)

    def _hold(self, obj, roots, env):
        """`obj` now holds `roots` (stored into it, or `obj.append(x)`)."""
        if not roots:
            return
        if any(_is_frame(r) for r in self.roots(obj, env)):   # kept in a frame: any block may read it
            self.framed |= roots
        base = _base_name(obj)
        if base is not None and base not in ("V", "S", "F"):
            env[base] = env.get(base, frozenset()) | _held(roots)

    # ---------------------------------------------------------------- changes

    def _changed(self, obj, env):
        """`obj` is changed in place (stored into, deleted from, a method of it called)."""
        for r in self.roots(obj, env):
            if r == _S or r == ALL:
                self.changes.add(ALL)
            elif _is_slot(r):
                self.changes.add(r[0])
            # V: a store into the list of slots itself (each state's own); F: the frames (copied)

    def _scan(self, e, env):
        """The changes and bindings inside an expression (calls, `:=`, comprehensions)."""
        if e is None:
            return
        busy = self.memo.get(id(e))
        if busy is None:
            busy = self.memo[id(e)] = any(isinstance(n, _BUSY) for n in ast.walk(e))
        if not busy:
            return
        if isinstance(e, ast.NamedExpr):
            self._scan(e.value, env)
            self._bind(e.target, self.roots(e.value, env), env, weak=True)   # (maybe not evaluated)
            return
        if isinstance(e, _COMPREHENSIONS):
            local = dict(env)
            for gen in e.generators:
                self._scan(gen.iter, local)
                self._bind(gen.target, self._element(self.roots(gen.iter, local)), local, weak=True)
                for c in gen.ifs:
                    self._scan(c, local)
            if isinstance(e, ast.DictComp):
                self._scan(e.key, local)
                self._scan(e.value, local)
            else:
                self._scan(e.elt, local)
            for k, v in local.items():           # a `:=` inside binds in the function
                if k in env and v != env[k]:
                    env[k] = env[k] | v
            return
        if isinstance(e, ast.Lambda):
            self.changes.add(ALL)                 # (generated code makes none: not followed)
            return
        for child in ast.iter_child_nodes(e):
            self._scan(child, env)
        if isinstance(e, ast.Call):
            self._call(e, env)

    def _call(self, n: ast.Call, env):
        f = n.func
        args = list(n.args) + [k.value for k in n.keywords]
        if isinstance(f, ast.Attribute):
            if f.attr in STORING_METHODS:
                self._changed(f.value, env)
                held = set()
                for a in args:
                    held |= self.roots(a, env)
                self._hold(f.value, held, env)
                return                            # the arguments are kept, not changed
            if f.attr not in READING_METHODS:
                self._changed(f.value, env)
        if isinstance(f, ast.Name) and f.id in PURE_CALLS:
            return
        generated = isinstance(f, ast.Name) and f.id in self.generated
        for a in args:
            r = self.roots(a, env)
            if not r:
                continue
            if generated:                         # V, S and F are followed into the function
                r = {x for x in r if x not in (_V, _S)}
            elif _V in r or _S in r:
                r = {ALL}
            for x in r:
                if x == ALL:
                    self.changes.add(ALL)
                elif _is_slot(x):
                    self.changes.add(x[0])

    # ---------------------------------------------------------------- statements, in order

    def _body(self, stmts, env) -> dict:
        for st in stmts:
            env = self._stmt(st, env)
        return env

    def _stmt(self, st, env) -> dict:
        self.memo[_STEPS] -= 1
        if self.memo[_STEPS] < 0:
            raise TooLong()
        if isinstance(st, ast.Assign):
            self._scan(st.value, env)
            if (len(st.targets) == 1 and isinstance(st.targets[0], (ast.Tuple, ast.List))
                    and isinstance(st.value, (ast.Tuple, ast.List))
                    and len(st.targets[0].elts) == len(st.value.elts)
                    and not any(isinstance(x, ast.Starred) for x in st.targets[0].elts)):
                rs = [self.roots(v, env) for v in st.value.elts]
                for t, r in zip(st.targets[0].elts, rs):
                    self._bind(t, r, env)
                return env
            r = self.roots(st.value, env)
            for t in st.targets:
                self._bind(t, r, env)
            return env
        if isinstance(st, ast.AugAssign):
            self._scan(st.value, env)
            r = self.roots(st.value, env)
            if isinstance(st.target, ast.Name):
                self._bind(st.target, r, env, weak=True)
            else:
                self._bind(st.target, r, env)
            return env
        if isinstance(st, ast.AnnAssign):
            if st.value is not None:
                self._scan(st.value, env)
                self._bind(st.target, self.roots(st.value, env), env)
            return env
        if isinstance(st, ast.Delete):
            for t in st.targets:
                if isinstance(t, ast.Subscript):
                    self._scan(t, env)
                    self._changed(t.value, env)
                elif isinstance(t, ast.Name) and not self._weak:
                    env.pop(t.id, None)
            return env
        if isinstance(st, (ast.Expr, ast.Raise, ast.Assert)):
            for child in ast.iter_child_nodes(st):
                self._scan(child, env)
            return env
        if isinstance(st, ast.Return):
            self._scan(st.value, env)
            self.gives |= self.roots(st.value, env)
            return env
        if isinstance(st, ast.If):
            self._scan(st.test, env)
            a = self._body(st.body, dict(env))
            b = self._body(st.orelse, dict(env))
            return _join(a, b)
        if isinstance(st, (ast.While, ast.For)):
            return self._loop(st, env)
        if isinstance(st, ast.Try):
            self._weak += 1                       # an error may leave the body anywhere
            after = self._body(st.body, dict(env))
            self._weak -= 1
            out = self._body(st.orelse, dict(after))
            for h in st.handlers:
                out = _join(out, self._body(h.body, dict(after)))
            return self._body(st.finalbody, out)
        if isinstance(st, ast.With):
            for item in st.items:
                self._scan(item.context_expr, env)
                if item.optional_vars is not None:
                    self._bind(item.optional_vars, self.roots(item.context_expr, env), env)
            return self._body(st.body, env)
        if isinstance(st, (ast.Break, ast.Continue)):
            if self._loops:
                self._loops[-1][0 if isinstance(st, ast.Break) else 1].append(dict(env))
            return env
        if isinstance(st, (ast.Pass, ast.Global, ast.Nonlocal)):
            return env
        if isinstance(st, (ast.Import, ast.ImportFrom, ast.FunctionDef, ast.AsyncFunctionDef,
                           ast.ClassDef)):
            self.changes.add(ALL)                 # (generated code has none: not followed)
            return env
        self.changes.add(ALL)                     # anything else: not followed
        return env

    def _loop(self, st, env) -> dict:
        """A loop: its body read again from the join of its entry and its end until that
        stops growing; it leaves with that join and every break's state."""
        if isinstance(st, ast.For):
            self._scan(st.iter, env)
            element = self._element(self.roots(st.iter, env))
        else:
            self._scan(st.test, env)
        head = dict(env)
        breaks: list = []
        for _ in range(50):
            body_env = dict(head)
            if isinstance(st, ast.For):
                self._bind(st.target, element, body_env)
            continues: list = []
            self._loops.append((breaks, continues))
            end = self._body(st.body, body_env)
            self._loops.pop()
            for c in continues:
                end = _join(end, c)
            if isinstance(st, ast.While):
                self._scan(st.test, end)
            new = _join(head, end)
            if new == head:
                break
            head = new
        else:
            self.changes.add(ALL)                 # (never: the sets only grow, and are few)
        out = self._body(st.orelse, dict(head))
        for b in breaks:
            out = _join(out, b)
        return out


def block_changes(source: str, depths: list) -> dict:
    """For every function of a generated module: the slots it may change in place, itself or
    through the generated functions it names (a frozenset of slot numbers, or ALL).
    `depths[k]`: how deep slot k's containers nest (0: slot k holds a plain value)."""
    tree = ast.parse(source)
    defs = {n.name: n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
    generated = {name: [a.arg for a in d.args.args] for name, d in defs.items()}
    # what each function may return depends on what those it calls return: read them again
    # until that stops growing (each is read again only when a function it calls grew); and
    # all of them again if one keeps in a frame what none was read as keeping
    framed: frozenset = frozenset()
    memo: dict = {_STEPS: STEP_LIMIT}
    while True:
        returns: dict = {}
        info: dict = {}
        callers: dict = {name: set() for name in defs}
        todo = list(defs)
        queued = set(todo)
        while todo:
            name = todo.pop()
            queued.discard(name)
            f = info[name] = _Function(defs[name], generated, returns, framed, depths, memo)
            for other in f.names:
                callers[other].add(name)
            if f.gives != returns.get(name, frozenset()):
                returns[name] = frozenset(f.gives)
                for c in callers[name]:
                    if c not in queued:
                        queued.add(c)
                        todo.append(c)
        kept = frozenset(r for f in info.values() for r in f.framed if not _is_frame(r))
        if kept <= framed:
            break
        framed |= kept
    # what each function changes with everything it names: grow to a fixed point
    total = {name: (ALL if ALL in f.changes else {k for k in f.changes if type(k) is int})
             for name, f in info.items()}
    grew = True
    while grew:
        grew = False
        for name, f in info.items():
            mine = total[name]
            if mine is ALL:
                continue
            for other in f.names:
                theirs = total[other]
                if theirs is ALL:
                    total[name] = ALL
                    grew = True
                    break
                if not theirs <= mine:
                    mine |= theirs
                    grew = True
    return {name: (ALL if t is ALL else frozenset(t)) for name, t in total.items()}
