"""Accumulates generated Python lines with their rules spans (for runtime error positions)."""

from __future__ import annotations

import ast as pyast
import re


class Lines:
    def __init__(self):
        self.items: list[tuple[int, str, object]] = []

    def add(self, indent: int, text: str, span=None):
        self.items.append((indent, text, span))

    def extend(self, other: "Lines", extra_indent: int = 0):
        for ind, text, span in other.items:
            self.items.append((ind + extra_indent, text, span))

    def __len__(self):
        return len(self.items)


class Module:
    """The whole generated module: source text plus a line -> span map."""

    def __init__(self):
        self.lines: list[str] = []
        self.spans: list[object] = []

    def add(self, text: str, span=None):
        self.lines.append(text)
        self.spans.append(span)

    def add_lines(self, lines: Lines, base_indent: int = 0):
        last = None
        for ind, text, span in lines.items:
            span = span or last
            last = span
            self.add("    " * (ind + base_indent) + text, span)

    def source(self) -> str:
        return "\n".join(self.lines) + "\n"


def each_function(lines: Lines, rewrite) -> Lines:
    """`lines` with `rewrite(func, out)` applied to each top-level function: func is the
    function's items from its `def` line on; rewrite adds what it makes of them to out."""
    out = Lines()
    func: list = []
    for item in lines.items:
        if item[0] == 0 and func:
            rewrite(func, out)
            func = []
        func.append(item)
    if func:
        rewrite(func, out)
    return out


# the types of plain values (numbers, truth values, text, none): what the rewriting passes
# compute with at compile time, and what may key a dict
PLAIN = (int, bool, str, type(None))


# the largest function (in syntax-tree nodes) the rewriting passes look at: their work grows
# faster than a function's size, and a rules file may be written to make one huge
MAX_REWRITE_NODES = 20_000


def parse_function(func: list):
    """The Python syntax tree of one function's items, or None: not a function, too large,
    or text Python's parser refuses (nested too deep, say; the module's compile then reports
    it): such a function is left as it is."""
    if not func[0][1].startswith("def "):
        return None
    try:
        fn = pyast.parse("\n".join("    " * ind + text for ind, text, _ in func)).body[0]
    except (SyntaxError, RecursionError, MemoryError):
        return None
    nodes = 0
    for _ in pyast.walk(fn):
        nodes += 1
        if nodes > MAX_REWRITE_NODES:
            return None
    return fn


# a string literal (left alone) or a read of a state variable's slot
_STR_OR_SLOT = re.compile(r"""('(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")|\bV\[(\d+)\]""")


def hoist_slot_reads(lines: Lines) -> Lines:
    """In functions that never change the state (legal moves, checks, defs), read each
    variable's slot `V[k]` used more than once, or inside a block, once into a local `_Vk`.

    The state's top-level list is only ever indexed, and such a function runs while nothing
    is assigned, so the slot's value cannot change under it.
    """
    return each_function(lines, _hoist_one)


def _hoist_one(func: list, out: Lines):
    uses: dict[str, int] = {}
    for ind, text, _ in func[1:]:
        for m in _STR_OR_SLOT.finditer(text):
            if m.group(2) is not None:
                uses[m.group(2)] = uses.get(m.group(2), 0) + (1 if ind <= 1 else 2)
    hoisted = sorted((k for k, n in uses.items() if n >= 2), key=int)
    if not hoisted or not func[0][1].startswith("def "):
        for item in func:
            out.add(*item)
        return

    def sub(m):
        return m.group(0) if m.group(2) is None or m.group(2) not in keep else f"_V{m.group(2)}"

    keep = set(hoisted)
    out.add(*func[0])
    body = func[1:]
    at = 1 if body and body[0][1].startswith("V = S.v") else 0
    for item in body[:at]:
        out.add(*item)
    span = body[0][2] if body else None
    out.add(1, "; ".join(f"_V{k} = V[{k}]" for k in hoisted), span)
    for ind, text, sp in body[at:]:
        out.add(ind, _STR_OR_SLOT.sub(sub, text), sp)


# A local not computed yet (a remembered value, computed where it is first needed:
# codegen/invariants.py, codegen/repeated_calls.py). The constant `...` is loaded by
# LOAD_CONST where a global sentinel costs a dictionary lookup per test (a card game's generated
# code tests some 150 a decision), and no value of the rules is ever Ellipsis.
UNSET = "..."


def is_unset(node) -> bool:
    """Whether the parsed node is the not-yet-computed marker UNSET."""
    return isinstance(node, pyast.Constant) and node.value is Ellipsis


def fresh_names(prefix: str, taken):
    """`prefix`1, `prefix`2, ... but the names in `taken` (those the function already uses):
    the new locals a rewriting pass adds to a function."""
    k = 0
    while True:
        k += 1
        if f"{prefix}{k}" not in taken:
            yield f"{prefix}{k}"


def write_with_locals(func: list, fn, shared: list, prefix: str, out: Lines, at_top, in_place):
    """Write `func` (parsed: fn) to out with, for each (value text, [(node, suffix)]) of
    `shared`, a new local named `prefix`<n> (a name fn does not use): `at_top(var, value)` is
    its statement on a line at the function's top, and each node (on one line) is replaced by
    `in_place(var, value, suffix)`."""
    fresh = fresh_names(prefix, {n.id for n in pyast.walk(fn) if isinstance(n, pyast.Name)})
    edits: dict[int, list] = {}          # line -> [(start, end, text)]
    made = []
    for value, nodes in shared:
        var = next(fresh)
        made.append(at_top(var, value))
        for node, suffix in nodes:
            edits.setdefault(node.lineno, []).append((node.col_offset, node.end_col_offset, in_place(var, value, suffix)))
    out.add(*func[0])
    out.add(1, "; ".join(made), func[0][2])
    for i, (ind, text, span) in enumerate(func[1:], start=2):
        if i in edits:
            src = "    " * ind + text
            for start, end, new in sorted(edits[i], reverse=True):
                src = src[:start] + new + src[end:]
            text = src[4 * ind:]
        out.add(ind, text, span)
