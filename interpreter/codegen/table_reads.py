"""Reads of the rules' tables and of the state at a function's own arguments, made once.

A def is called with arguments that do not change while it runs, and the tables of the
rules (a component's attributes, the cells' neighbours...) never change at all, so
`A3_Dev_type[l_c]` has one value in a call of `def permanent_discount(p, c, g)`; written in a
loop over the player's cards, it would otherwise be read again on every pass:

    def D_permanent_discount(V, me, l_p, l_c, l_g):
        _tb1 = A3_Dev_type[l_c]
        for _ck_16 in V[21][l_p]:
            if not (AE3_Dev_bonus_type[_ck_16] == _tb1): continue

Unlike the loop invariants of codegen/invariants.py, which are computed lazily where they
were (an expression may raise, or be costly and not needed), such a read moves out of its
loop, to just before the statement of the function's body that holds the loop, and is made
whether or not the loop makes a pass. That is safe only for a read that cannot fail: each
index is a constant or an argument whose type numbers its values 0..n-1 (`ranges`, from the
checker's types: never none, never out of its range; a generator's `me`, the player whose
moves it lists), and the read of a table is tried at compile time with every value each
index can take. A loop under an `if` is left alone (the read would be wasted whenever the
test fails; an `if` inside the loop is not: the read is still made once instead of on some
of the passes), and so is a read outside loops. The same read in the statements after that
one uses the name too.

The state is fixed too while such a function runs, and the layout gives the length of its
lists (`slot_shapes`: one entry per player, per cell, per kind of a counted zone...; a
loaded state is checked against it, runtime/validate.py), so `_V17[l_p]`, a player's entry
of a per-player variable, is a total read as well: its value is not known when compiled,
only that it is there.
"""

from __future__ import annotations

import ast as pyast

from .invariants import _bound, _mutated, _rewrite
from .lines import Lines, each_function, fresh_names, parse_function

_PREFIX = "_tb"
_MAX_TRIES = 4096          # values tried per read at compile time (a larger one is left alone)
# the same read written this often in one statement of the body, outside loops and guards, is
# made once before it too (an unfolded walk along a line compares each step with board[c])
_REPEATS = 3
_LOOPS = (pyast.For, pyast.While, pyast.ListComp, pyast.SetComp, pyast.DictComp, pyast.GeneratorExp)
# statements whose parts may not run when they are reached (a loop may run no pass: the read
# before it is one wasted read at most)
_GUARDS = (pyast.If, pyast.While, pyast.Try, pyast.With)


def hoist_table_reads(lines: Lines, known: dict, ranges: dict | None, shapes: dict | None = None) -> Lines:
    """Every function of `lines` with the total reads its loops make of `known` tables, and of
    the state's slots of `shapes`, at the arguments of `ranges` (name in the generated code ->
    (lo, hi)) made once, before the loop."""
    if not ranges:
        return lines
    return each_function(lines, lambda func, out: _one(func, out, known, ranges, shapes or {}))


def slot_shapes(variables, players: int) -> dict[int, tuple]:
    """Per slot of the state that holds lists, the lengths of its lists level by level (None
    where a length varies: a pile of cards), as the layout makes them (layout.py, the
    initial state in runtime/saves.py) and a loaded state is checked to have them."""
    out = {}
    for vs in variables:
        shape: tuple = ()
        if vs.kind in ("grid", "cell_attr", "known"):
            shape = (vs.size,)
        elif vs.kind == "map":
            shape = (vs.size,) if vs.init is None or len(vs.init) == vs.size else (None,)
        elif vs.kind == "zone":
            zone = vs.zone
            shape = (vs.size if zone.counted or zone.slotted else None,)
            if vs.keys:
                shape = (vs.keys,) + shape
        if vs.per_player:
            shape = (players,) + shape
        if shape:
            out[vs.slot] = shape
    return out


def _one(func: list, out: Lines, known: dict, ranges: dict, shapes: dict):
    fn = parse_function(func)
    reads = _Reads(fn, known, ranges, shapes) if fn is not None else None
    hoisted = reads.hoisted() if reads is not None else []
    if not hoisted:
        for item in func:
            out.add(*item)
        return
    by_line: dict[int, list] = {}
    inits: dict[int, list[str]] = {}       # line of a statement of the body -> reads made before it
    for at, name, text, nodes in hoisted:
        inits.setdefault(at, []).append(f"{name} = {text}")
        for n in nodes:
            by_line.setdefault(n.lineno, []).append((n.col_offset, n.end_col_offset, name))
    raw = [("    " * ind + text).encode() for ind, text, _ in func]
    for line, edits in by_line.items():
        raw[line - 1] = _rewrite(raw[line - 1], 0, len(raw[line - 1]), sorted(edits))
    for i, (ind, _, sp) in enumerate(func):
        if i + 1 in inits:
            out.add(1, "; ".join(inits[i + 1]), sp)
        out.add(ind, raw[i].decode()[4 * ind:], sp)


class _Reads:
    """The total table reads of one function, by their text, and where they are made: a read
    made in a loop that a statement of the function's body runs whenever it is reached (not
    one under an `if`) is made once, just before that statement, and so are the same reads
    in the statements after it."""

    def __init__(self, fn, known: dict, ranges: dict, shapes: dict):
        bound = _bound(fn) | _mutated(fn)
        self.names = {n.id for n in pyast.walk(fn) if isinstance(n, pyast.Name)}
        args = {a.arg for a in fn.args.args}
        self.ranges = {k: r for k, r in ranges.items() if k in args and k not in bound}
        self.tables = {k: v for k, v in known.items()
                       if isinstance(v, (list, tuple)) and k not in bound and k not in args}
        # the state: V (an argument the function never binds) and its slots' aliases _Vk
        self.shapes = shapes if "V" in args and "V" not in bound else {}
        self.aliases = {name: k for name, k in _aliases(fn, _mutated(fn)).items() if k in self.shapes}
        self.found: dict[str, list] = {}       # text -> [(statement of the body, node)]
        self.first: dict[str, int] = {}        # text -> first statement reading it in a loop
        if self.ranges and (self.tables or self.shapes):
            for i, st in enumerate(fn.body):
                self._top = i
                self._plain: dict[str, int] = {}   # text -> its unguarded reads outside loops here
                self._walk(st, 0, False)
                for text, n in self._plain.items():
                    if n >= _REPEATS and text not in self.first:
                        self.first[text] = i
        self.body = fn.body

    def hoisted(self) -> list[tuple]:
        """(line of the statement to read before, name, text, nodes to replace) per read."""
        out = []
        fresh = fresh_names(_PREFIX, set(self.names))
        for text, at in self.first.items():
            nodes = [n for i, n in self.found[text] if i >= at]
            out.append((self.body[at].lineno, next(fresh), text, nodes))
        return out

    def _walk(self, node, loops: int, guarded: bool):
        if isinstance(node, pyast.Subscript) and not _is_slot(node) and self._values(node) is not None:
            if node.lineno == node.end_lineno:
                text = pyast.unparse(node)
                self.found.setdefault(text, []).append((self._top, node))
                if loops and not guarded and text not in self.first:
                    self.first[text] = self._top
                elif not loops and not guarded:
                    self._plain[text] = self._plain.get(text, 0) + 1
            return
        once = None                 # what a loop evaluates once: what it walks
        if isinstance(node, pyast.For):
            once = node.iter
        elif isinstance(node, _LOOPS) and not isinstance(node, pyast.While):
            once = node.generators[0].iter
        inner_guard = guarded or (isinstance(node, _GUARDS) and not loops)    # (in a loop: every pass)
        for child in pyast.iter_child_nodes(node):
            in_loop = isinstance(node, _LOOPS) and child is not once
            self._walk(child, loops + in_loop, guarded if isinstance(node, pyast.If) and child is node.test else inner_guard)

    def _values(self, node):
        """The values `node` can have (a list), or None: not a read of a table at constants
        and ranged arguments, or one that fails for some value they can take."""
        if isinstance(node, pyast.Name):
            if node.id in self.aliases:
                return _Shape(self.shapes[self.aliases[node.id]])
            return [self.tables[node.id]] if node.id in self.tables else None
        if not (isinstance(node, pyast.Subscript) and isinstance(node.ctx, pyast.Load)):
            return None
        if isinstance(node.value, pyast.Name) and node.value.id == "V" and self.shapes:
            k = node.slice.value if isinstance(node.slice, pyast.Constant) else None
            return _Shape(self.shapes[k]) if type(k) is int and k in self.shapes else None
        bases = self._values(node.value)
        if bases is None:
            return None
        s = node.slice
        if isinstance(s, pyast.Constant) and type(s.value) is int:
            indexes = [s.value]
        elif isinstance(s, pyast.UnaryOp) and isinstance(s.op, pyast.USub) \
                and isinstance(s.operand, pyast.Constant) and type(s.operand.value) is int:
            indexes = [-s.operand.value]
        elif isinstance(s, pyast.Name) and s.id in self.ranges:
            lo, hi = self.ranges[s.id]
            indexes = range(lo, hi + 1)
        else:
            return None
        if isinstance(bases, _Shape):
            n = bases.lengths[0] if bases.lengths else None
            if n is None or not all(-n <= i < n for i in (min(indexes), max(indexes))):
                return None
            return _Shape(bases.lengths[1:])
        if len(bases) * len(indexes) > _MAX_TRIES:
            return None
        out = []
        for b in bases:
            if not isinstance(b, (list, tuple)):
                return None
            for i in indexes:
                if not -len(b) <= i < len(b):
                    return None
                out.append(b[i])
        return out


class _Shape:
    """A list of the state whose values are not known when compiled: its lengths, level by
    level (None where a length varies)."""
    __slots__ = ("lengths",)

    def __init__(self, lengths: tuple):
        self.lengths = lengths


def _aliases(fn, mutated: set) -> dict[str, int]:
    """The names `_Vk = V[k]` (hoist_slot_reads) set once, at the function's top: name -> k."""
    stores: dict[str, int] = {}
    for n in pyast.walk(fn):
        if isinstance(n, pyast.Name) and not isinstance(n.ctx, pyast.Load):
            stores[n.id] = stores.get(n.id, 0) + 1
    out = {}
    for st in fn.body:
        if not isinstance(st, pyast.Assign):
            continue
        for t in st.targets:
            v = st.value
            if isinstance(t, pyast.Name) and stores.get(t.id) == 1 and t.id not in mutated \
                    and isinstance(v, pyast.Subscript) \
                    and isinstance(v.value, pyast.Name) and v.value.id == "V" \
                    and isinstance(v.slice, pyast.Constant) and t.id == f"_V{v.slice.value}":
                out[t.id] = v.slice.value
    return out


def _is_slot(node) -> bool:
    """`V[k]` itself (hoist_slot_reads reads a slot once already)."""
    return isinstance(node.value, pyast.Name) and node.value.id == "V"
