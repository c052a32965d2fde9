"""A block's reads of its frame kept in Python locals (optimised compilation only).

A resumable unit's block keeps the unit's variables in its frame, a dict `L`, and reads them
by name: a loop over a player's goods reads `L['g']` and `L['@k_44']` half a dozen times a
pass, each a dict lookup. Nothing but the block itself changes its frame while it runs
(`apply` and chance steps write a frame between runs; a call gets a frame of its own), so a
frame variable keeps its value between the block's own writes of it. Here each block's reads
are given a local where that is exact:

    _fr1 = L['g']                                         # before the first statement that
    L['@n_46'] = (V[2][_fr1][L['@k_44']] + ...)           # reads it in any case
    L['@k_44'] = _fr2 = _l[L['@ix_43']]                   # a write also keeps the value

- A local is bound before a statement that begins its line and reads the variable whatever
  happens (not in a later operand of `and`/`or`, a branch of a conditional, a comprehension)
  and only when the variable is read again after: the read moves to the start of that
  statement, where the variable has the same value (a statement that writes or pops the
  variable anywhere gets no local for it).
- `L['x'] = value` beginning its line keeps the value it stores, when x is read after it.
- A local stands for reads in the statements after it in the same list and inside them,
  until a statement that writes the variable anywhere (then from where it writes it, in the
  write-through case); inside a loop only if the loop never writes it; after a compound
  statement, only what stood before it and was not written inside. A lambda reads the frame
  itself (it may run after a later write).
- A block that uses `L` in any other way than `L['name']` and `L.pop('name')` is left as it
  is, and so is every function that is not a block.
"""

from __future__ import annotations

import ast as pyast
import re

from .lines import Lines, fresh_names, parse_function

_COMPOUND_BODIES = ("body", "orelse", "finalbody")
_FRAME_READ = re.compile(r"\bL\[('[^']*')\]")
_CONDITIONAL = (pyast.IfExp, pyast.ListComp, pyast.SetComp, pyast.DictComp, pyast.GeneratorExp, pyast.Lambda)


def cache_frame_reads(func: list) -> list:
    """One block function's items (its `def` line first) with its frame reads in locals."""
    seen: set = set()
    for _, text, _ in func:                 # (most blocks read no variable twice: not parsed)
        for k in _FRAME_READ.findall(text):
            if k in seen:
                break
            seen.add(k)
        else:
            continue
        break
    else:
        return func
    fn = parse_function(func)
    if fn is None:
        return func
    try:
        rw = _Rewriter(fn, func)
        if not rw.ok:
            return func
        rw.block(fn.body, {})
    except RecursionError:              # (statements nested deeper than Python's stack)
        return func
    if not rw.edits and not rw.inserts:
        return func
    return rw.apply()


def _key(node):
    """The constant name of `L['name']`, else None."""
    if isinstance(node, pyast.Subscript) and isinstance(node.value, pyast.Name) and node.value.id == "L" \
            and isinstance(node.slice, pyast.Constant) and isinstance(node.slice.value, str):
        return node.slice.value
    return None


def _popped(node):
    """The name of `L.pop('name'...)`, else None."""
    if isinstance(node, pyast.Call) and isinstance(node.func, pyast.Attribute) \
            and isinstance(node.func.value, pyast.Name) and node.func.value.id == "L" \
            and node.func.attr == "pop" and node.args and isinstance(node.args[0], pyast.Constant) \
            and isinstance(node.args[0].value, str):
        return node.args[0].value
    return None


class _Index:
    """One walk of a function: per node, the frame reads inside it and the variables it
    writes, deletes or pops anywhere inside it (children before parents, without recursion:
    a generated expression may nest deeper than Python's stack)."""

    def __init__(self, fn):
        self.reads: dict = {}
        self.written: dict = {}
        self.names: set = set()
        self.l_uses: list = []          # every Name L
        self.allowed: set = set()       # ids of the L of L['name'] and L.pop('name')
        self.in_lambda: set = set()     # ids of the nodes inside a lambda
        self.starts: dict = {}          # line -> statements beginning there, in order
        order = []                      # (node, its children), parents before children
        stack = [(fn, False)]
        while stack:
            node, lam = stack.pop()
            children = list(pyast.iter_child_nodes(node))
            order.append((node, children))
            if lam:
                self.in_lambda.add(id(node))
            lam = lam or isinstance(node, pyast.Lambda)
            stack.extend((c, lam) for c in children)
        none: tuple = ()
        reads_of, written_of = self.reads, self.written
        for node, children in reversed(order):             # children first
            reads, written = none, none
            for c in children:
                r, w = reads_of[id(c)], written_of[id(c)]
                if r:
                    reads = reads + r if reads else r
                if w:
                    written = written | w if written else w
            if isinstance(node, pyast.Subscript):
                k = _key(node)
                if k is not None:
                    self.allowed.add(id(node.value))
                    if isinstance(node.ctx, pyast.Load):
                        reads = reads + [node] if reads else [node]
                    else:
                        written = written | {k} if written else frozenset((k,))
            elif isinstance(node, pyast.Call):
                k = _popped(node)
                if k is not None:
                    self.allowed.add(id(node.func.value))
                    written = written | {k} if written else frozenset((k,))
            elif isinstance(node, pyast.Name):
                self.names.add(node.id)
                if node.id == "L":
                    self.l_uses.append(node)
            elif isinstance(node, pyast.stmt):
                self.starts.setdefault(node.lineno, []).append(node)
            reads_of[id(node)] = reads
            written_of[id(node)] = written
        for line in self.starts.values():
            line.sort(key=lambda st: st.col_offset)


def _sure_reads(expr, out: list):
    """The reads expr makes whenever it is evaluated (not under a later operand of and/or, a
    branch of a conditional expression, a comprehension or a lambda)."""
    if expr is None:
        return
    if _key(expr) is not None and isinstance(expr.ctx, pyast.Load):
        out.append(expr)
    if isinstance(expr, _CONDITIONAL):
        if isinstance(expr, pyast.IfExp):
            _sure_reads(expr.test, out)
        return
    if isinstance(expr, pyast.BoolOp):
        _sure_reads(expr.values[0], out)
        return
    for child in pyast.iter_child_nodes(expr):
        if isinstance(child, pyast.expr):
            _sure_reads(child, out)


def _header_exprs(st) -> list:
    """The expressions a statement evaluates itself (not those of the statements it holds)."""
    out = []
    for field, value in pyast.iter_fields(st):
        if field in _COMPOUND_BODIES or field == "handlers":
            continue
        if isinstance(value, pyast.expr):
            out.append(value)
        elif isinstance(value, list):
            out.extend(v for v in value if isinstance(v, pyast.expr))
    return out


def _sure_header_reads(st) -> list:
    """The reads a statement makes in any case when it runs."""
    out: list = []
    if isinstance(st, (pyast.Assign, pyast.AugAssign, pyast.AnnAssign, pyast.Expr, pyast.Return)):
        _sure_reads(st.value, out)
        if isinstance(st, pyast.Assign):
            for t in st.targets:              # a target's own parts (`V[k][L['p']] = ...`)
                if not isinstance(t, pyast.Name):
                    for child in pyast.iter_child_nodes(t):
                        if isinstance(child, pyast.expr):
                            _sure_reads(child, out)
    elif isinstance(st, (pyast.If, pyast.While)):
        _sure_reads(st.test, out)
    elif isinstance(st, pyast.For):
        _sure_reads(st.iter, out)
    return out


class _Rewriter:
    def __init__(self, fn, func):
        self.func = func
        self.edits: list = []          # (line, start col, end col, text)
        self.inserts: dict = {}        # line -> [text] to add before it, at its indent
        self.ok = True
        self.ix = ix = _Index(fn)
        self.fresh = fresh_names("_fr", set(ix.names))   # (the locals it reads into)
        # L used only as L['name'] and L.pop('name'), and bound once (`L = F[2]`): otherwise
        # the frame may change unseen
        stores = [n for n in ix.l_uses if isinstance(n.ctx, pyast.Store)]
        if len(stores) > 1 or any(id(n) not in ix.allowed for n in ix.l_uses if n not in stores):
            self.ok = False
        self.lines = ["    " * ind + text for ind, text, _ in func]
        self.starts = ix.starts

    def own_line(self, st) -> bool:
        """Does st begin its line (statements after it there are its followers), as a plain
        statement (not elif/else/except)?"""
        if st.end_lineno != st.lineno and not isinstance(st, (pyast.If, pyast.While, pyast.For, pyast.Try)):
            return False
        text = self.lines[st.lineno - 1]
        indent = len(text) - len(text.lstrip(" "))
        if st.col_offset != indent or text.lstrip().startswith(("elif ", "else", "except", "finally")):
            return False
        return self.starts.get(st.lineno, [st])[0] is st

    def block(self, stmts: list, available: dict):
        """Rewrite a list of statements; `available` maps variables to the locals holding them
        at its start (changed in place as the list goes on)."""
        # reads of each variable from each statement on (one walk of the list)
        suffix: list = [{}]
        for st in reversed(stmts):
            counts = dict(suffix[-1])
            for n in self.ix.reads[id(st)]:
                counts[n.slice.value] = counts.get(n.slice.value, 0) + 1
            suffix.append(counts)
        suffix.reverse()
        for i, st in enumerate(stmts):
            written = self.ix.written[id(st)]
            loop = isinstance(st, (pyast.While, pyast.For))
            for k in written:
                if loop or not self._write_through(st, k):
                    available.pop(k, None)
            # a local for each variable this statement reads in any case and that is read again
            if self.own_line(st):
                later = suffix[i]
                for node in _sure_header_reads(st):
                    k = node.slice.value
                    if k in available or k in written or later.get(k, 0) < 2:
                        continue
                    name = available[k] = next(self.fresh)
                    self.inserts.setdefault(st.lineno, []).append(f"{name} = L[{k!r}]")
            # what stands inside: a loop's body and test see every pass (none of what the loop
            # writes); a branch starts from here (none of what the statement's own test pops);
            # what runs after a part that may have written (a try's handlers, a loop's else)
            # none of what the statement writes
            header_written = set().union(*(self.ix.written[id(e)] for e in _header_exprs(st)))
            inner = {k: v for k, v in available.items() if k not in (written if loop else header_written)}
            after_writes = {k: v for k, v in available.items() if k not in written}
            for e in _header_exprs(st):
                self._replace(e, inner)
            for field in _COMPOUND_BODIES:
                body = getattr(st, field, None)
                if isinstance(body, list) and body and isinstance(body[0], pyast.stmt):
                    first = field == "body" or isinstance(st, pyast.If)
                    self.block(body, dict(inner if first else after_writes))
            for h in getattr(st, "handlers", []) or []:
                self.block(h.body, dict(after_writes))
            for k in written:                       # changed inside: not the local's value now
                if not self._write_through(st, k):
                    available.pop(k, None)
            self._keep_written(st, available, suffix[i + 1])

    def _write_through(self, st, k) -> bool:
        return isinstance(st, pyast.Assign) and len(st.targets) == 1 and _key(st.targets[0]) == k \
            and self.own_line(st) and not any(n.slice.value == k for n in self.ix.reads[id(st.value)])

    def _keep_written(self, st, available: dict, later: dict):
        """`L['x'] = value` first on its line, x read again after it: `L['x'] = _frN =
        value`, and the local stands for x after it."""
        if not isinstance(st, pyast.Assign) or len(st.targets) != 1:
            return
        k = _key(st.targets[0])
        if k is None or not self._write_through(st, k) or not later.get(k):
            available.pop(k, None)
            return
        t = st.targets[0]
        if t.end_lineno != t.lineno:
            available.pop(k, None)
            return
        name = available[k] = next(self.fresh)
        # `L['x'] = ` becomes `L['x'] = _frN = `: the same value in both, stored in order
        self.edits.append((t.lineno, t.end_col_offset, t.end_col_offset, f" = {name}"))

    def _replace(self, expr, available: dict):
        if not available:
            return
        # (not inside a lambda: it may run after a later write, and must read the frame then)
        for n in self.ix.reads[id(expr)]:
            if id(n) in self.ix.in_lambda:
                continue
            name = available.get(n.slice.value)
            if name is not None and n.lineno == n.end_lineno:
                self.edits.append((n.lineno, n.col_offset, n.end_col_offset, name))

    def apply(self) -> list:
        raw = [line.encode() for line in self.lines]
        by_line: dict = {}
        for line, start, end, text in self.edits:
            by_line.setdefault(line, []).append((start, end, text))
        for line, edits in by_line.items():
            b = raw[line - 1]
            for start, end, text in sorted(edits, reverse=True):
                b = b[:start] + text.encode() + b[end:]
            raw[line - 1] = b
        out = []
        for i, (ind, _, span) in enumerate(self.func):
            for text in self.inserts.get(i + 1, ()):
                out.append((ind, text, span))
            out.append((ind, raw[i].decode()[4 * ind:], span))
        return out


def cache_block_frame_reads(lines: Lines, def_line: str) -> Lines:
    """A block's lines (the body of `def_line`) with its frame reads in locals."""
    func = [(0, def_line, None)] + list(lines.items)
    new = cache_frame_reads(func)
    out = Lines()
    for item in new[1:]:
        out.add(*item)
    return out
