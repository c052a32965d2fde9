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

A comparison of such a read with a constant number, `A5_Space_area[l_sp] == 6` or
`A5_Space_players[l_sp] <= NP` (the number of players is a constant of the compiled game),
is read from a table of its answers the same way (`comparisons`), when every answer can be
computed: a table holding none compared by `<` would raise for some index, and is left
alone. In the pure functions this runs after codegen/groups.py, which walks a group instead
of filtering a fixed list by such a test.
"""

from __future__ import annotations

import ast as pyast
import operator

from .invariants import _rewrite
from .lines import PLAIN, Lines, each_function, parse_function

_PREFIX = "_IN"
_COMPARE = {pyast.Eq: operator.eq, pyast.NotEq: operator.ne, pyast.Lt: operator.lt, pyast.LtE: operator.le,
            pyast.Gt: operator.gt, pyast.GtE: operator.ge}
_FLIP = {pyast.Eq: pyast.Eq, pyast.NotEq: pyast.NotEq, pyast.Lt: pyast.Gt, pyast.LtE: pyast.GtE,
         pyast.Gt: pyast.Lt, pyast.GtE: pyast.LtE}


class MembershipTables:
    """The tables of answers made so far (shared by every function of a module): each is
    added to `tables` and `known`, the compiled module's globals and what the passes after
    this one may compute with."""

    def __init__(self, tables: dict, known: dict):
        self.tables = tables
        self.known = known
        self.names: dict[tuple, str] = {}

    def name_for(self, table: str, values: tuple, negate: bool) -> str | None:
        """The table of answers of `table[i] in values` (`not in` with negate), or None."""
        return self._answers((table, values, negate), table, lambda x: (x in values) != negate)

    def _answers(self, key: tuple, table: str, answer, tail: tuple = ()) -> str | None:
        """The table of `answer(table[i][tail...])` per i (the items at the constant indexes
        `tail` of each row of a table of lists), or None. A table that is a map (one with a
        row for none too) gives a map of the answers, with the same keys."""
        name = self.names.get(key + tail)
        if name is None:
            t = self.known.get(table)
            if isinstance(t, dict):
                keys, rows = list(t), list(t.values())
            elif isinstance(t, (list, tuple)):
                keys, rows = None, list(t)
            else:
                return None
            for k in tail:          # (a row that is not a list, or too short: no table)
                if not all(isinstance(row, (list, tuple)) and -len(row) <= k < len(row) for row in rows):
                    return None
                rows = [row[k] for row in rows]
            if not all(type(x) in PLAIN for x in rows):
                return None
            try:
                answers = [answer(x) for x in rows]
            except TypeError:               # (none < 3: the original raises at that index)
                return None
            if keys is not None:
                answers = dict(zip(keys, answers))
            name = f"{_PREFIX}{len(self.names)}"
            while name in self.known:
                name += "_"
            self.names[key + tail] = name
            self.tables[name] = answers
            self.known[name] = answers
        return name

    def rewrite(self, lines: Lines, comparisons: bool = True, memberships: bool = True) -> Lines:
        """Every function of `lines` with its memberships (and comparisons with constants)
        read from tables."""
        return each_function(lines, lambda func, out: self._one(func, out, comparisons, memberships))

    def rewrite_block(self, lines: Lines, def_line: str) -> Lines:
        """A block's lines (the body of `def_line`), rewritten the same way."""
        func = Lines()
        func.add(0, def_line, None)
        func.extend(lines)
        out = Lines()
        for item in self.rewrite(func).items[1:]:
            out.add(*item)
        return out

    def _one(self, func: list, out: Lines, comparisons: bool, memberships: bool):
        fn = parse_function(func)
        edits: dict[int, list] = {}
        if fn is not None:
            local = {n.id for n in pyast.walk(fn) if isinstance(n, pyast.Name) and not isinstance(n.ctx, pyast.Load)}
            local |= {a.arg for a in fn.args.args}
            for n in pyast.walk(fn):
                form = self._form(n, local) if memberships else None
                if form is None and comparisons:
                    form = self._comparison(n, local)
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

    def _comparison(self, n, local: set) -> str | None:
        """The text replacing `T[i] OP k` or `k OP T[i]` (k a constant number), or None."""
        if not (isinstance(n, pyast.Compare) and len(n.ops) == 1 and type(n.ops[0]) in _COMPARE
                and n.lineno == n.end_lineno):
            return None
        op, left, right = type(n.ops[0]), n.left, n.comparators[0]
        read = _row_read(left, local)
        if read is None:
            left, right, op = right, left, _FLIP[op]
            read = _row_read(left, local)
        if read is None:
            return None
        table, index, tail = read
        k = self._number(right)
        if k is None:
            return None
        fn = _COMPARE[op]
        name = self._answers((table, op.__name__, k), table, lambda x: fn(x, k), tail)
        if name is None:
            return None
        return f"{name}[{pyast.unparse(index)}]".replace("{", "{{").replace("}", "}}")

    def _number(self, node):
        """The constant whole number node is (a literal, or a known constant such as NP)."""
        if isinstance(node, pyast.UnaryOp) and isinstance(node.op, pyast.USub):
            k = self._number(node.operand)
            return None if k is None else -k
        if isinstance(node, pyast.Constant):
            k = node.value
        elif isinstance(node, pyast.Name) and node.id == "NP":
            k = self.known.get("NP")
        else:
            return None
        return k if type(k) is int else None


def _table_read(node, local: set) -> bool:
    """`T[i]`: a read of a global (a table, if `known` says so) at one index."""
    return isinstance(node, pyast.Subscript) and isinstance(node.value, pyast.Name) \
        and node.value.id not in local and not isinstance(node.slice, pyast.Slice)


def _row_read(node, local: set):
    """(table, index, constant indexes after it) for `T[i]` or `T[i][2]...` (a row of a table
    of lists read at constant places), else None."""
    tail = []
    while isinstance(node, pyast.Subscript) and isinstance(node.slice, pyast.Constant) \
            and type(node.slice.value) is int and isinstance(node.value, pyast.Subscript):
        tail.append(node.slice.value)
        node = node.value
    if not _table_read(node, local):
        return None
    return node.value.id, node.slice, tuple(reversed(tail))


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
