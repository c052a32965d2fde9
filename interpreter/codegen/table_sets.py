"""A table's value tested against a fixed list, read from a table of the answers.

`A5_Space_area[l_sp] in [0, 1, 2, 3]` (is the space's area one of the towers?) compares
the area with each value of the list, one rich comparison after another, every time it is
asked. The table and the list never change, so the answer for each index can be computed
once, when compiled, into a table of its own:

    _IN0 = [True, True, ..., False]         # A5_Space_area[i] in [0, 1, 2, 3], per i
    ... _IN0[l_sp] ...

The new read fails exactly where the old one did (the same index into a list of the same
length: an IndexError past its end, a TypeError for none), and `not in` reads a table of
the negations. Only a comparison of one operator whose left side reads a table of the rules
(a list of plain values) at one index, and whose right side is a list, tuple or set of
constants, is rewritten; the pass works on the generated text with Python's own parser, as
codegen/invariants.py does, and keeps every line's span.
"""

from __future__ import annotations

import ast as pyast

from .invariants import _rewrite
from .lines import PLAIN, Lines, each_function, parse_function

_PREFIX = "_IN"


class MembershipTables:
    """The tables of answers made so far (shared by every function of a module): each is
    added to `tables` and `known`, the compiled module's globals and what the passes after
    this one may compute with."""

    def __init__(self, tables: dict, known: dict):
        self.tables = tables
        self.known = known
        self.names: dict[tuple, str] = {}

    def name_for(self, table: str, values: tuple, negate: bool) -> str | None:
        key = (table, values, negate)
        name = self.names.get(key)
        if name is None:
            t = self.known.get(table)
            if not isinstance(t, (list, tuple)) or not all(type(x) in PLAIN for x in t):
                return None
            name = f"{_PREFIX}{len(self.names)}"
            while name in self.known:
                name += "_"
            answers = [(x in values) != negate for x in t]
            self.names[key] = name
            self.tables[name] = answers
            self.known[name] = answers
        return name

    def rewrite(self, lines: Lines) -> Lines:
        """Every function of `lines` with its memberships read from tables."""
        return each_function(lines, self._one)

    def rewrite_block(self, lines: Lines, def_line: str) -> Lines:
        """A block's lines (the body of `def_line`), rewritten the same way."""
        func = Lines()
        func.add(0, def_line, None)
        func.extend(lines)
        out = Lines()
        for item in self.rewrite(func).items[1:]:
            out.add(*item)
        return out

    def _one(self, func: list, out: Lines):
        fn = parse_function(func)
        edits: dict[int, list] = {}
        if fn is not None:
            local = {n.id for n in pyast.walk(fn) if isinstance(n, pyast.Name) and not isinstance(n.ctx, pyast.Load)}
            local |= {a.arg for a in fn.args.args}
            for n in pyast.walk(fn):
                form = self._form(n, local)
                if form is not None:
                    edits.setdefault(n.lineno, []).append((n.col_offset, n.end_col_offset, form))
        if not edits:
            for item in func:
                out.add(*item)
            return
        raw = [("    " * ind + text).encode() for ind, text, _ in func]
        for line, found in edits.items():
            raw[line - 1] = _rewrite(raw[line - 1], 0, len(raw[line - 1]), _outermost(sorted(found, key=lambda e: (e[0], -e[1]))))
        for i, (ind, _, span) in enumerate(func):
            out.add(ind, raw[i].decode()[4 * ind:], span)

    def _form(self, n, local: set) -> str | None:
        """The text replacing comparison `n`, or None."""
        if not (isinstance(n, pyast.Compare) and len(n.ops) == 1 and isinstance(n.ops[0], (pyast.In, pyast.NotIn))
                and n.lineno == n.end_lineno):
            return None
        left, right = n.left, n.comparators[0]
        if not (isinstance(left, pyast.Subscript) and isinstance(left.value, pyast.Name)
                and left.value.id not in local and not isinstance(left.slice, pyast.Slice)):
            return None
        if not (isinstance(right, (pyast.List, pyast.Tuple, pyast.Set))
                and all(isinstance(e, pyast.Constant) and type(e.value) in PLAIN for e in right.elts)):
            return None
        values = tuple(e.value for e in right.elts)
        name = self.name_for(left.value.id, values, isinstance(n.ops[0], pyast.NotIn))
        if name is None:
            return None
        return f"{name}[{pyast.unparse(left.slice)}]".replace("{", "{{").replace("}", "}}")


def _outermost(edits: list) -> list:
    """Edits (start, end, text) sorted by start (the longest first), without any inside
    another: a replaced
    comparison's text is made from the syntax tree, so what it holds needs no edit of its own."""
    out = []
    for start, end, text in edits:
        if out and start < out[-1][1]:
            continue
        out.append((start, end, text))
    return out
