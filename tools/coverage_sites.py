"""Where a `require` is tested in a game's generated module, and how a tracer can tell the
outcome of each test from the lines that run (`regola coverage`).

The compiler writes a require's condition as a test in the legal-move generators (`G_*`:
list the moves; `G_can_*`: is there one?) and in the checks that explain an illegal move
(`CHECK_*`). The test is the outermost statement whose first line came from the require:

* it leaves on failure (`if not (C): continue`, `... return`, `... return False`,
  `... return 3`; a condition written out as loops, `if not A: for ...: ... else: continue`,
  or a loop `for ...: if C: break / else: continue`): the test passed when control reaches
  the statement after it, failed when it left another way;
* it leaves on success (a search unrolled over a few constant values: `if C: return True`):
  passed when the function returns True, failed when control reaches the statement after it;
* neither, and its body is other code (a short domain filter unrolled: `if C: dom.append(v)`;
  a first parameter unrolled, whose body lists the rest): passed when the body is entered,
  failed when control goes anywhere else from the test's line;
* neither, and its body is the require's own code (`if _r is None: _r = ...`, a remembered
  value): a computation, not a test.

A test whose success and failure would reach the same next line (a failing `continue` to the
loop's head when the test is the last statement of that loop, a test both sides of which
leave) is not used: the require's `ambiguous` count says how many there were.

A require split in parts (`require a and b`: one test per part, hoisted separately) came out
true when its last part passed; false when any part failed.
"""

from __future__ import annotations

import ast as pyast
from dataclasses import dataclass

RETURN = -1          # "the frame returned" as the next line


@dataclass(eq=False)
class Site:
    """One test of a require in the generated code. Control leaving one of the `watch` lines
    for a line not in `inner` (or returning) tells its outcome."""
    construct: object
    func: int                    # first line of the generated function holding it
    func_name: str
    test: int                    # the test's first line
    watch: frozenset
    inner: frozenset
    succ: int                    # the line after the test (or the body's first line, when entering it is success)
    through: bool                # whether reaching `succ` means the test passed
    mode: str = "leaves"         # leaves (on failure) | returns (True on success) | enters (its body)
    part: tuple = ()             # the rules position of the tested part
    final: bool = True           # its success makes the require true (its last part)
    passed: bool = False
    failed: bool = False

    def record(self, nxt: int, value=None) -> bool:
        """Note where control went after the test (RETURN with the value returned); True
        when that was news."""
        ok = (value is True) if nxt == RETURN else (nxt == self.succ) == self.through
        if ok:
            if not self.passed:
                self.passed = True
                if self.final:
                    self.construct.true = True
                return True
        elif not self.failed:
            self.failed = self.construct.false = True
            return True
        return False


def require_sites(source: str, spans, requires) -> list[Site]:
    """The tests of the given require constructs (each with `lines`, the generated lines that
    came from it, and `sites`/`ambiguous` to fill in) in the generated module `source`;
    `spans[n - 1]` is the rules span of generated line n."""
    owner = {n: c for c in requires for n in c.lines}
    tree = pyast.parse(source)
    parents: dict = {}
    for node in pyast.walk(tree):
        for name, value in pyast.iter_fields(node):
            if isinstance(value, list):
                for i, x in enumerate(value):
                    if isinstance(x, pyast.stmt):
                        parents[x] = (node, name, i)
    sites: list[Site] = []

    def visit(stmts, func):
        for st in stmts:
            if isinstance(st, (pyast.FunctionDef, pyast.AsyncFunctionDef)):
                visit(st.body, (st.lineno, st.name))
                continue
            c = owner.get(st.lineno)
            if c is not None and func is not None:
                s, way_on = _site(st, c, func, parents, lambda n: owner.get(n) is c or spans[n - 1] is None)
                if s is not None:
                    s.part = _position(spans[s.test - 1])
                    c.sites.append(s)
                    sites.append(s)
                if not way_on:
                    continue
            for name in ("body", "orelse", "finalbody"):
                sub = getattr(st, name, None)
                if sub and isinstance(sub[0], pyast.stmt):
                    visit(sub, func)
            for h in getattr(st, "handlers", None) or []:
                visit(h.body, func)

    visit(tree.body, None)
    _mark_final(sites)
    return sites


def _position(span):
    return (span.file, span.line, span.col) if span is not None else ()


def _mark_final(sites: list[Site]) -> None:
    """In each function, only the tests of a require's last part (by line) make it true."""
    groups: dict = {}
    for s in sites:
        groups.setdefault((s.func, id(s.construct)), []).append(s)
    for group in groups.values():
        last = max(group, key=lambda s: s.test).part
        for s in group:
            s.final = s.part == last


def _site(st, c, func, parents, own):
    """(the test `st` makes of require `c`, or None; whether its body is other code to visit).
    `own(n)`: whether generated line n came from `c` (or from no rule)."""
    if isinstance(st, pyast.If) and not all(own(n) for x in st.body + st.orelse
                                            for n in range(x.lineno, x.end_lineno + 1)):
        first = st.body[0].lineno
        if first == st.lineno:
            c.ambiguous += 1
            return None, True
        return Site(c, func[0], func[1], st.lineno, frozenset([st.lineno]), frozenset(), first, True, "enters"), True
    if not isinstance(st, (pyast.If, pyast.For, pyast.While)):
        return None, False
    kinds = _exit_kinds([st])
    if not kinds:
        return None, False                    # a computation of the require's, not a test
    succ = _successor(st, parents)
    if "mixed" in kinds or succ is None or (succ == RETURN and pyast.Return in kinds) or \
            (isinstance(succ, tuple) and pyast.Continue in kinds):
        c.ambiguous += 1
        return None, False
    if isinstance(succ, tuple):
        succ = succ[1]
    lines = frozenset(range(st.lineno, st.end_lineno + 1))
    through = "pass" not in kinds
    return Site(c, func[0], func[1], st.lineno, lines, lines - {st.lineno}, succ, through,
                "leaves" if through else "returns"), False


def _exit_kinds(stmts) -> set:
    """How the statements can leave: {"pass"} for a `return True`, else the kinds of the jumps
    that leave them (`return`, a `continue` or `break` of a loop around them; a loop's `else:`
    belongs to the loop around it)."""
    out = set()
    todo = [(x, False) for x in stmts]
    while todo:
        n, inner = todo.pop()
        if isinstance(n, pyast.Return):
            v = n.value
            out.add("pass" if isinstance(v, pyast.Constant) and v.value is True else pyast.Return)
        elif isinstance(n, (pyast.Continue, pyast.Break)) and not inner:
            out.add(type(n))
        elif isinstance(n, (pyast.For, pyast.While)):
            todo += [(x, True) for x in n.body] + [(x, inner) for x in n.orelse]
        elif isinstance(n, pyast.stmt) and not isinstance(n, (pyast.FunctionDef, pyast.ClassDef)):
            todo += [(x, inner) for x in pyast.iter_child_nodes(n) if isinstance(x, pyast.stmt)]
    if "pass" in out and len(out) > 1:
        out.add("mixed")
    return out


def _successor(node, parents):
    """The line control reaches when `node` completes normally: the next statement, a loop's
    head as ("loop", line), RETURN, or None (unknown)."""
    while True:
        if node not in parents:
            return None
        p, name, i = parents[node]
        block = getattr(p, name)
        if i + 1 < len(block):
            return block[i + 1].lineno
        if isinstance(p, (pyast.For, pyast.While)) and name == "body":
            return ("loop", p.lineno)
        if isinstance(p, (pyast.FunctionDef, pyast.AsyncFunctionDef)):
            return RETURN
        if isinstance(p, pyast.Try):
            return None
        node = p
