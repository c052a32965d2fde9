"""Loop-invariant expressions computed once per loop, in functions that never change the state.

In a legal-move generator, a `def` or a choice filter, the state is fixed while the function
runs, so an expression inside a loop that reads nothing the loop changes has the same value
on every pass. A generator of moves `place(w in workers, s in spaces)`, for instance, would
otherwise price a worker (a long expression of the worker alone) once for every space it
tries.

Such an expression is rewritten to be computed the first time the loop reaches it and
remembered until the loop is entered again:

    _h1 = ...                                     # before the loop (lines.UNSET)
    for l_sp in _dom1:
        if not (... (_h1 if _h1 is not ... else (_h1 := <expr>)) ...): continue

It is evaluated lazily at the very place it was, so short-circuits, conditions and the
errors it may raise are exactly those of the original code: only repeated evaluations of an
unchanged value are saved. The pass works on the generated text of one function at a time
(`Lines`, keeping every line's rules span), using Python's own parser to find expressions.

An expression qualifies when it reads only names the loop never binds and the function never
mutates (no method call or item assignment on them), is made of pure parts (arithmetic,
comparisons, conditionals, subscripts, calls of the generated defs and of pure helpers), and
is worth remembering (it calls a function or has at least _MIN_NODES nodes).
"""

from __future__ import annotations

import ast as pyast

from .key_bounds import LoopBounds
from .lines import PLAIN, UNSET, Lines, each_function, is_unset, parse_function

# calls whose result depends on their arguments and the (unchanging) state only; none returns
# an iterator, which a second use would find consumed
_PURE_CALLS = {"len", "max", "min", "sum", "abs", "bool", "int", "_cell", "_knows", "_can",
               "_count_slots", "_player", "_ordinal", "_index"}
_MIN_NODES = 10
_ALLOWED = (pyast.Name, pyast.Constant, pyast.Subscript, pyast.BinOp, pyast.UnaryOp, pyast.BoolOp,
            pyast.Compare, pyast.IfExp, pyast.Call, pyast.Tuple, pyast.List, pyast.Slice,
            pyast.NamedExpr, pyast.Load, pyast.Store, pyast.operator, pyast.unaryop, pyast.boolop,
            pyast.cmpop)


def cache_loop_invariants(lines: Lines, scalar_tables: frozenset = frozenset(),
                          int_tables: tuple[dict, dict] = ({}, {})) -> Lines:
    """Every function of `lines` (top-level `def`s) with its loop-invariant expressions cached;
    `scalar_tables`: the names of the rules' tables of plain values (`scalar_tables(known)`),
    for calls remembered per value read from one; `int_tables`: the tables whose walked and
    whose read values are small numbers (`key_bounds.small_int_tables(known, walked)`), for
    memos kept in lists."""
    return each_function(lines, lambda func, out: _one(func, out, scalar_tables, int_tables))


def scalar_tables(known: dict) -> frozenset:
    """The names of the tables of `known` whose every value can key a dict."""
    return frozenset(name for name, v in known.items() if _scalar_table(v))


def _scalar_table(v) -> bool:
    """A table every value of which is a number, a name or none (so it can key a dict)."""
    items = v.values() if isinstance(v, dict) else v if isinstance(v, (list, tuple)) else None
    return items is not None and all(type(x) in PLAIN for x in items)


def _one(func: list, out: Lines, scalar_tables: frozenset, int_tables: tuple[dict, dict]):
    fn = parse_function(func)
    if fn is None:
        for item in func:
            out.add(*item)
        return
    local = _bound(fn) | {a.arg for a in fn.args.args}
    walked, read = ({k: v for k, v in t.items() if k not in local} for t in int_tables)
    finder = _Finder(_mutated(fn), _temporaries(fn), scalar_tables - local, LoopBounds(fn, walked, read))
    finder.function(fn)
    if not finder.edits:
        for item in func:
            out.add(*item)
        return
    # apply the replacements line by line (byte offsets: the parser's unit); a cached
    # expression may hold others cached by an outer loop, written inside its own text
    by_line: dict[int, list] = {}
    for line, start, end, form in finder.edits:
        by_line.setdefault(line, []).append((start, end, form))
    raw = [("    " * ind + text).encode() for ind, text, _ in func]
    for line, edits in by_line.items():
        raw[line - 1] = _rewrite(raw[line - 1], 0, len(raw[line - 1]), sorted(edits, key=lambda e: (e[0], -e[1])))
    inits = finder.inits
    for i, (ind, _, span) in enumerate(func):
        names = inits.get(i + 1)
        if names:
            out.add(ind, "; ".join(names), span)
        text = raw[i].decode()
        out.add(ind, text[4 * ind:], span)


def _rewrite(b: bytes, lo: int, hi: int, edits: list) -> bytes:
    """b[lo:hi] with each outermost edit (start, end, form) inside it replaced by its cached
    form, the edits nested in it applied first; edits sorted by start, longest first."""
    out = []
    at = lo
    i = 0
    while i < len(edits):
        start, end, form = edits[i]
        j = i + 1
        while j < len(edits) and edits[j][1] <= end:
            j += 1
        expr = _rewrite(b, start, end, edits[i + 1:j]).decode()
        out.append(b[at:start])
        out.append(form.format(expr=expr).encode())
        at = end
        i = j
    out.append(b[at:hi])
    return b"".join(out)


def _mutated(fn) -> set[str]:
    """Names whose object the function changes or may change: method calls on them, item
    assignments and deletions."""
    names = set()
    for n in pyast.walk(fn):
        if isinstance(n, pyast.Attribute) and isinstance(n.value, pyast.Name):
            names.add(n.value.id)
        elif isinstance(n, pyast.Subscript) and isinstance(n.ctx, (pyast.Store, pyast.Del)):
            base = n.value
            while isinstance(base, pyast.Subscript):
                base = base.value
            if isinstance(base, pyast.Name):
                names.add(base.id)
    return names


def _temporaries(fn) -> dict[str, int]:
    """Names bound once in the function, by `:=` (the temporaries of inlined defs), with the
    number of times each is read: a remembered expression may hold such a binding when all
    the reads are inside it too (skipping the binding on a later pass then changes nothing)."""
    stores: dict[str, int] = {}
    reads: dict[str, int] = {}
    walrus: set[str] = set()
    for n in pyast.walk(fn):
        if isinstance(n, pyast.NamedExpr) and isinstance(n.target, pyast.Name):
            walrus.add(n.target.id)
        if isinstance(n, pyast.Name):
            into = reads if isinstance(n.ctx, pyast.Load) else stores
            into[n.id] = into.get(n.id, 0) + 1
    for a in fn.args.args:
        stores[a.arg] = stores.get(a.arg, 0) + 1
    return {name: reads.get(name, 0) for name in walrus if stores.get(name) == 1}


_OPAQUE = (pyast.Lambda, pyast.ListComp, pyast.SetComp, pyast.DictComp, pyast.GeneratorExp,
           pyast.JoinedStr, pyast.NamedExpr)


def _inner_loops(loop):
    """The `for` loops in loop's body, not counting those inside them."""
    out = []

    def walk(st):
        for child in pyast.iter_child_nodes(st):
            if isinstance(child, pyast.For):
                out.append(child)
            elif isinstance(child, pyast.stmt):
                walk(child)
    for st in loop.body:
        if isinstance(st, pyast.For):
            out.append(st)
        else:
            walk(st)
    return out


def _remembered(st) -> bool:
    """`_r = _seen3[l_x] = <test>`: a legal-move generator already remembers that test per
    value (codegen/moves.py, its lazy tests); remembering it again would be work twice."""
    return isinstance(st, pyast.Assign) and any(
        isinstance(t, pyast.Subscript) and isinstance(t.value, pyast.Name) and t.value.id.startswith("_seen")
        for t in st.targets)


def _scalar_values(it) -> bool:
    """Does the loop walk numbers (a dict key each)? Parameter domains, the values of a type,
    cells, players, ranges and the kinds in a pile do; a list of anything else may not."""
    if isinstance(it, pyast.Name):
        return it.id.startswith(("_dom", "VALS_", "CELLS_")) or it.id == "PLAYERS"
    return isinstance(it, pyast.Call) and isinstance(it.func, pyast.Name) \
        and it.func.id in ("range", "_distinct_counts")


def _binds(node, name: str) -> int:
    return sum(1 for n in pyast.walk(node)
               if isinstance(n, pyast.Name) and n.id == name and not isinstance(n.ctx, pyast.Load))


def _reads(node, name: str) -> bool:
    return any(isinstance(n, pyast.Name) and n.id == name for n in pyast.walk(node))


def _projection(call, key: str, scalar_tables: frozenset):
    """The one `TABLE[...key...]` through which `call` reads `key` (TABLE a table of the rules
    holding numbers, names or none: a value that can key a dict), or None."""
    proj = None
    inside: set[int] = set()
    for n in pyast.walk(call):
        if isinstance(n, pyast.Subscript) and isinstance(n.value, pyast.Name) and n.value.id in scalar_tables \
                and _reads(n.slice, key) and not _calls(n.slice):      # (read again: no call in it)
            if proj is not None and pyast.dump(n) != pyast.dump(proj):
                return None
            proj = proj or n
            inside |= {id(m) for m in pyast.walk(n.slice)}
    if proj is None or any(isinstance(n, pyast.Name) and n.id == key and id(n) not in inside
                           for n in pyast.walk(call)):
        return None
    return proj


def _calls(node) -> bool:
    return any(isinstance(n, pyast.Call) for n in pyast.walk(node))


def _bound(node) -> set[str]:
    """Names bound anywhere inside node (loop targets, assignments, :=, comprehension targets)."""
    names = set()
    for n in pyast.walk(node):
        if isinstance(n, pyast.Name) and isinstance(n.ctx, (pyast.Store, pyast.Del)):
            names.add(n.id)
    return names


class _Finder:
    def __init__(self, mutated: set[str], temporaries: dict[str, int], scalar_tables: frozenset,
                 bounds: LoopBounds):
        self.mutated = mutated
        self.temporaries = temporaries
        self.scalar_tables = scalar_tables    # tables whose values can key a dict
        self.bounds = bounds                  # which loops walk small numbers (key_bounds.py)
        self.sizes: dict[str, int] = {}       # memo name -> its slots, for a memo kept in a list
        self.key_size: int | None = None      # the slots of the memos of the loop looked at
        self.edits: list[tuple[int, int, int, str]] = []   # (line, start, end, form with {expr})
        self.inits: dict[int, list[str]] = {}                # line of a loop -> names set there
        self.n = 0
        self.claimed: set[int] = set()        # ids of expressions already cached

    def function(self, fn):
        for st in fn.body:
            self.statement(st)

    def statement(self, st):
        if isinstance(st, pyast.For):
            self.loop(st)
            return
        for child in pyast.iter_child_nodes(st):
            if isinstance(child, pyast.stmt):
                self.statement(child)

    def loop(self, loop):
        bound = _bound(loop)
        # expressions the loop does not change: one value per entry into the loop
        found: dict[str, str] = {}
        for st in loop.body + loop.orelse:
            self._claim(st, bound, None, found)
        inits = [f"{name} = {UNSET}" for name in found.values()]
        # expressions of an inner loop's variable alone (and of what this loop does not change):
        # one value per value of that variable, remembered while this loop runs
        for inner in _inner_loops(loop):
            t = inner.target
            if isinstance(t, pyast.Name) and _binds(loop, t.id) == 1 and _scalar_values(inner.iter):
                memo: dict[str, str] = {}
                self.key_size = self.bounds.of(inner.iter)
                for st in inner.body:
                    self._claim(st, bound - {t.id}, t.id, memo)
                inits += [f"{name} = [{UNSET}] * {self.sizes[name]}" if name in self.sizes else f"{name} = {{}}"
                          for name in memo.values()]
        if inits:
            self.inits.setdefault(loop.lineno, []).extend(inits)
        # inner loops: what is left there (parts that read this loop's variable) may be
        # invariant in them
        for st in loop.body + loop.orelse:
            self.statement(st)

    def _claim(self, node, bound, key, found):
        """Cache the largest worthy expressions under node that read nothing in `bound` (and,
        with a key variable, read it and call something)."""
        if id(node) in self.claimed or isinstance(node, _OPAQUE) or _remembered(node):
            return
        if isinstance(node, pyast.expr) and isinstance(getattr(node, "ctx", pyast.Load()), pyast.Load):
            ok = self._pure(node, bound)
            if key is not None and ok:
                ok = _reads(node, key) and _calls(node)
            if ok and node.lineno == node.end_lineno \
                    and not isinstance(node, (pyast.Name, pyast.Constant, pyast.List, pyast.Tuple)):
                text = pyast.dump(node)
                name = found.get(text)
                if name is None:
                    self.n += 1
                    name = found[text] = f"_h{self.n}" if key is None else f"_k{self.n}"
                if key is None:
                    form = f"({name} if {name} is not {UNSET} else ({name} := ({{expr}})))"
                elif self.key_size is not None:
                    self.sizes[name] = self.key_size
                    form = f"(_t if (_t := {name}[{key}]) is not {UNSET} else _memo_set({name}, {key}, ({{expr}})))"
                else:
                    form = (f"(_t if (_t := {name}.get({key}, {UNSET})) is not {UNSET} "
                            f"else {name}.setdefault({key}, ({{expr}})))")
                self.edits.append((node.lineno, node.col_offset, node.end_col_offset, form))
                self.claimed.add(id(node))
                if key is not None:
                    self._by_projection(node, bound, key, found)
                return
            if ok is False and key is None:     # pure and invariant but too small: so are its parts
                return
        for child in pyast.iter_child_nodes(node):
            self._claim(child, bound, key, found)

    def _by_projection(self, node, bound, key, found):
        """Inside an expression remembered per value of `key`: the calls that read `key` only
        through one table, `D_f(..., TABLE[key], ...)`, remembered per value of `TABLE[key]`
        (several values of key, the spaces of one area say, then share one call)."""
        for n in pyast.walk(node):
            if not (isinstance(n, pyast.Call) and isinstance(n.func, pyast.Name) and n.func.id.startswith("D_")):
                continue
            proj = _projection(n, key, self.scalar_tables)
            if proj is None or id(n) in self.claimed or self._pure(n, bound - {key}) is None:
                continue
            text = "projection " + pyast.dump(n)
            name = found.get(text)
            if name is None:
                self.n += 1
                name = found[text] = f"_k{self.n}"
            p = pyast.unparse(proj)
            size = self.bounds.read.get(proj.value.id)
            if size is not None:
                self.sizes[name] = size
                form = f"(_t if (_t := {name}[{p}]) is not {UNSET} else _memo_set({name}, {p}, ({{expr}})))"
            else:
                form = f"({name}[{p}] if {p} in {name} else {name}.setdefault({p}, ({{expr}})))"
            self.edits.append((n.lineno, n.col_offset, n.end_col_offset, form))
            self.claimed.add(id(n))

    def _pure(self, node, bound):
        """None: not cacheable here; False: cacheable but not worth it; True: cache it."""
        nodes = 0
        call = False
        local: set[str] = set()         # temporaries bound inside node by :=
        reads: dict[str, int] = {}      # reads of temporaries inside node
        loop_names: set[str] = set()    # names the loop binds, read or bound inside node
        for n in pyast.walk(node):
            if not isinstance(n, _ALLOWED):
                return None
            nodes += 1
            if is_unset(n):              # a remembered value's test: not an expression to claim
                return None
            if isinstance(n, pyast.NamedExpr):
                local.add(n.target.id)
            elif isinstance(n, pyast.Name):
                if n.id in self.mutated:
                    return None
                if n.id in bound:
                    loop_names.add(n.id)
                if isinstance(n.ctx, pyast.Load) and n.id in self.temporaries:
                    reads[n.id] = reads.get(n.id, 0) + 1
            elif isinstance(n, pyast.Call):
                if n.keywords or not isinstance(n.func, pyast.Name) or \
                        not (n.func.id.startswith("D_") or n.func.id in _PURE_CALLS) or \
                        any(isinstance(a, pyast.Starred) for a in n.args):
                    return None
                call = True
        # a name the loop binds makes node vary, unless it is a temporary bound inside node
        # and read nowhere else (then it is private to node)
        if loop_names - local or any(name not in self.temporaries or reads.get(name, 0) != self.temporaries[name]
                                     for name in local):
            return None
        return call or nodes >= _MIN_NODES
