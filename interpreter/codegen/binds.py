"""An inlined def's arguments that need no name of their own, written where they are read.

A def written in place of its call (codegen/expr.py `_inline`) binds an argument used more
than once to a name first, in a tuple whose last item is the body:

    ((_i9_r := _i7_r), (_i10_c := (_i8_c + 1)), (_i15_dr := 0), <body>)[3]

Once recursion is unfolded and constants folded (codegen/unroll.py), many such arguments are
a constant or another local (`_i7_r`, a parameter), or are no longer read at all (the folder
put their value where they were read). Such a binding costs a store, the tuple a slot, and
a tuple with only its body left costs building and indexing it. Here a binding to a
constant or to a local is replaced by that value at every read of its name in the rest of
the tuple, and dropped; a tuple left with its body alone is the body:

    ((_i10_c := (_i8_c + 1)), <body with _i7_r for _i9_r and 0 for _i15_dr>)[1]

Only the compiler's own names for inlined arguments (`_i<n>_<name>`) are touched, and only
where every read of the name in the function lies after its binding in the same tuple (the
inliner's shape), the value's own name is not rebound before those reads, and no lambda
there could read the name later.
"""

from __future__ import annotations

import ast as pyast
import re

_INLINED = re.compile(r"_i\d+_\w+")


def _binding_tuple(e):
    """The bindings and body of `(a := x, ..., body)[n]`, n the body's index, or None."""
    if not (isinstance(e, pyast.Subscript) and isinstance(e.ctx, pyast.Load)
            and isinstance(e.value, pyast.Tuple) and isinstance(e.slice, pyast.Constant)):
        return None
    elts = e.value.elts
    if len(elts) < 2 or e.slice.value != len(elts) - 1 or type(e.slice.value) is not int:
        return None
    binds = elts[:-1]
    if not all(isinstance(b, pyast.NamedExpr) for b in binds):
        return None
    return binds, elts[-1]


def _reads(nodes, name: str) -> int:
    return sum(1 for x in nodes for n in pyast.walk(x)
               if isinstance(n, pyast.Name) and n.id == name and isinstance(n.ctx, pyast.Load))


def _stores(nodes) -> set:
    out = set()
    for x in nodes:
        for n in pyast.walk(x):
            if isinstance(n, pyast.Name) and not isinstance(n.ctx, pyast.Load):
                out.add(n.id)
            elif isinstance(n, pyast.NamedExpr):
                out.add(n.target.id)
    return out


class _Put(pyast.NodeTransformer):
    """Every read of `name` replaced by a copy of `value`."""

    def __init__(self, name: str, value):
        self.name, self.value = name, value

    def visit_Name(self, n):
        if n.id == self.name and isinstance(n.ctx, pyast.Load):
            return pyast.copy_location(type(self.value)(**{f: getattr(self.value, f) for f in self.value._fields}), n)
        return n


class _Tidy(pyast.NodeTransformer):
    def __init__(self, scoped: set, plain_locals: set):
        self.scoped = scoped                 # inlined names read only after their own binding
        self.plain_locals = plain_locals     # names always bound where a binding could read them
        self.changed = False

    def visit_Subscript(self, e):
        self.generic_visit(e)               # inner tuples first
        found = _binding_tuple(e)
        if found is None:
            return e
        binds, body = found
        rest = list(binds) + [body]
        kept = []
        for i, b in enumerate(binds):
            name, value = b.target.id, b.value
            after = rest[i + 1:]
            plain = isinstance(value, pyast.Constant) or (
                isinstance(value, pyast.Name) and value.id in self.plain_locals
                and value.id not in _stores(after))
            if name not in self.scoped or not plain or name in _stores(after) or any(
                    isinstance(n, pyast.Lambda) for x in after for n in pyast.walk(x)):
                kept.append(b)
                continue
            put = _Put(name, value)
            rest[i + 1:] = [put.visit(x) for x in after]
            self.changed = True
        body = rest[-1]
        kept = [b for b in rest[:-1] if b in kept]
        if len(kept) == len(binds):
            return e
        if not kept:
            return body
        return pyast.copy_location(pyast.Subscript(value=pyast.Tuple(elts=kept + [body], ctx=pyast.Load()),
                                                   slice=pyast.Constant(len(kept)), ctx=pyast.Load()), e)


def drop_plain_binds(fn: pyast.FunctionDef, body: list) -> bool:
    """Rewrite, in place, the statements `body` of function `fn`: inlined arguments bound
    to a constant or a local written where they are read. True if anything changed."""
    follow: dict = {}            # per inlined name, its reads that follow a binding of it in a tuple
    targets = set()              # the name nodes those bindings store to
    for x in body:
        for n in pyast.walk(x):
            found = _binding_tuple(n)
            if found is None:
                continue
            bs, tail = found
            seq = list(bs) + [tail]
            for i, b in enumerate(bs):
                name = b.target.id
                if _INLINED.fullmatch(name):
                    follow[name] = follow.get(name, 0) + _reads(seq[i + 1:], name)
                    targets.add(id(b.target))
    if not follow:
        return False
    # a name read anywhere else, or bound anywhere but in such a tuple, is left alone
    reads: dict = {}
    elsewhere = set()
    for x in body:
        for n in pyast.walk(x):
            if isinstance(n, pyast.Name) and n.id in follow:
                if isinstance(n.ctx, pyast.Load):
                    reads[n.id] = reads.get(n.id, 0) + 1
                elif id(n) not in targets:
                    elsewhere.add(n.id)
    scoped = {name for name, k in follow.items() if k == reads.get(name, 0) and name not in elsewhere}
    if not scoped:
        return False
    # a binding's value read later instead must be bound for certain where it was read: a
    # parameter, or an inlined name (read only after its own binding)
    plain_locals = {a.arg for a in fn.args.args} | scoped
    tidy = _Tidy(scoped, plain_locals)
    body[:] = [tidy.visit(x) for x in body]
    return tidy.changed
