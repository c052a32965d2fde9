"""What of the rules ran in simulated games, seen from outside the engine (`regola coverage`, part 2).

A game's rules compile to one generated Python module (docs/speed.md) whose code objects
carry the file name `game._filename`, and `game._spans[n - 1]` says which rules span
generated line n came from. So the engine is not touched: the games are played as usual
while a tracer records which generated lines ran, and these lines are mapped back to the
constructs of the checked program (`game.prog`):

* an action was played when the game's record (runtime/record.py) says a player chose it or
  the rules took it as the only choice, or a line of its effects ran;
* a trigger (`on EVENT`, `when X reaches V`, `on game end`) fired when the record says so (the
  engine notes every firing, even of a trigger with an empty body);
* a modifier applied when the line computing its value ran (a hook compiled as a function
  sets the value under an `if` of the modifier's condition);
* a branch (one arm of an `if`/`elif`/`else`) ran when a line of its body ran;
* a `require` came out false or true at a test of the generated code (coverage_sites.py):
  the legal-move generators test it as `if not (COND): continue` (or `return`, ...), so the
  outcome is where control goes after the test: the statement after it (true) or anything
  else (false: the loop's head, a return). Every move offered needs the generators to run,
  and the driver lists the legal moves at every decision.

The tracer is `sys.monitoring` where Python has it (3.12+: lines already seen stop being
reported), else `sys.settrace` with a local tracer only for code objects of the generated
module that hold something to learn, dropped once everything in them was seen.
"""

from __future__ import annotations

import bisect
import sys
from dataclasses import dataclass, field
from types import SimpleNamespace

from regola import ast

from .coverage_sites import RETURN, Site


@dataclass(eq=False)
class Construct:
    kind: str                    # action | require | trigger | modifier | branch
    label: str                   # what it is, in a few words
    file: str
    line: int                    # where it is shown
    regions: list                # (file, (line, col), (end_line, end_col)) whose lines count
    inline: bool = False         # may also run compiled inline, where no line of its own shows it
    lines: frozenset = frozenset()
    sites: list = field(default_factory=list)    # require: its tests in the generated code
    ambiguous: int = 0           # require: tests whose outcome a line cannot tell
    ran: bool = False
    true: bool = False
    false: bool = False

    @property
    def folded(self) -> bool:
        """A require the compiler decided for every move (tested only where an illegal move
        is explained, in a `CHECK_` function)."""
        return bool(self.sites) and all(s.func_name.startswith("CHECK_") for s in self.sites)

    def status(self) -> str:
        """covered | never | never_true | never_false | never_evaluated | untraced | uncertain"""
        if self.kind == "require":
            if not self.sites:
                return "untraced"
            if not (self.true or self.false):
                return "never_evaluated"
            return "covered" if self.true and self.false else "never_false" if self.true else "never_true"
        if self.ran:
            return "covered"
        if self.kind not in ("action", "trigger") and not self.lines:   # (the record sees those two)
            return "untraced"
        return "uncertain" if self.inline else "never"


# --------------------------------------------------------------------- the constructs

def _block(stmts) -> list:
    if not stmts:
        return []
    a, b = stmts[0].span, stmts[-1].span
    return [(a.file, (a.line, a.col), (b.end_line, b.end_col))]


def _span_region(s) -> list:
    return [(s.file, (s.line, s.col), (s.end_line, s.end_col))]


def inlined_defs(prog) -> set:
    """The defs (hooks included) the compiler may write in place of their calls, asked of the
    compiler's own rule (codegen/expr.py); if that cannot be asked, every def."""
    try:
        from regola.codegen.expr import ExprGen
        probe = SimpleNamespace(p=prog)
        return {name for name in prog.defs if ExprGen._inline_info(probe, name) is not False}
    except Exception:  # noqa: BLE001 - a changed compiler: be cautious, not wrong
        return set(prog.defs)


def constructs(prog, lines_of) -> list[Construct]:
    """Every action, require, trigger, modifier and if/elif/else arm of a checked program.
    `lines_of(file, n)` is the text of a rules line (to find an `else`)."""
    inl = inlined_defs(prog)
    out: list[Construct] = []
    for name, a in prog.actions.items():
        d = a.decl
        out.append(Construct("action", name, d.span.file, d.span.line, _block(a.effects)))
        for r in a.requires:
            out.append(Construct("require", f"{name}: require", r.span.file, r.span.line, _span_region(r.span)))
    for ev_name, ev in prog.events.items():
        for h in ev.handlers:
            out.append(Construct("trigger", f"on {ev_name}", h.span.file, h.span.line, _block(h.body)))
    for w in prog.watchers:
        d = w.decl
        out.append(Construct("trigger", "when", d.span.file, d.span.line, _block(d.body)))
    if prog.on_end is not None:
        d = prog.on_end
        out.append(Construct("trigger", "on game end", d.span.file, d.span.line, _block(d.body)))
    for hook, mods in prog.modifiers.items():
        for m in mods:
            out.append(Construct("modifier", f"modifier {hook}", m.span.file, m.span.line,
                                 _span_region(m.value.span), inline=hook in inl))
    bodies = [(a.decl, False) for a in prog.actions.values()]
    bodies += [(c.decl, False) for c in prog.procs.values()]
    bodies += [(c.decl, name in inl) for name, c in prog.defs.items()]
    bodies += [(h, False) for ev in prog.events.values() for h in ev.handlers]
    bodies += [(w.decl, False) for w in prog.watchers]
    bodies += [(d, False) for d in (prog.setup, prog.flow, prog.on_end) if d is not None]
    seen: set[int] = set()
    for decl, inline in bodies:
        for n in decl.walk():
            if isinstance(n, ast.IfStmt) and id(n) not in seen:
                seen.add(id(n))
                out += _arms(n, inline, lines_of)
    return out


def _arms(n: ast.IfStmt, inline: bool, lines_of) -> list[Construct]:
    f = n.span.file
    arms = [Construct("branch", "if", f, n.span.line, _block(n.body), inline)]
    for c in n.elifs:
        arms.append(Construct("branch", "elif", f, c.span.line, _block(c.body), inline))
    if n.other:
        line = n.other[0].span.line
        for k in range(line, n.span.line - 1, -1):      # the `else:` line above the arm's body
            text = (lines_of(f, k) or "").strip()
            if text.startswith("else"):
                line = k
                break
        arms.append(Construct("branch", "else", f, line, _block(n.other), inline))
    return arms


class SpanIndex:
    """Generated lines by the rules position they came from."""

    def __init__(self, spans):
        self.by_file: dict[str, list] = {}
        for i, s in enumerate(spans):
            if s is not None:
                self.by_file.setdefault(s.file, []).append((s.line, s.col, i + 1))
        for v in self.by_file.values():
            v.sort()

    def lines_in(self, regions) -> frozenset:
        out = set()
        for file, start, end in regions:
            rows = self.by_file.get(file, [])
            lo = bisect.bisect_left(rows, (start[0], start[1], 0))
            hi = bisect.bisect_left(rows, (end[0], end[1], 0))
            out.update(r[2] for r in rows[lo:hi])
        return frozenset(out)


# --------------------------------------------------------------------- the tracer

class Tracer:
    """Records the lines of one generated module that run, and where control goes after each
    require test. `wanted`: lines worth recording; `sites`: the require tests."""

    def __init__(self, filename: str, wanted: set, sites: list[Site]):
        self.filename = filename
        self.wanted = set(wanted)
        self.seen: set[int] = set()
        self.sites_in: dict[int, dict[int, Site]] = {}     # function's first line -> line -> site
        for s in sites:
            d = self.sites_in.setdefault(s.func, {})
            for n in s.watch:
                d[n] = s
        self._plans: dict = {}            # code -> (lines wanted in it, its sites) or None
        self._done: set = set()
        self._old = None
        self._tool = None

    def _plan(self, code):
        """(wanted lines of this code object, its require tests by line) or None when it holds
        nothing to learn. Tests belong to the function that holds them, not to a comprehension
        on the same line."""
        if code in self._plans:
            return self._plans[code]
        mine = {n for _, _, n in code.co_lines() if n in self.wanted}
        sites = None if code.co_name.startswith("<") else self.sites_in.get(code.co_firstlineno)
        plan = (mine, sites or {}) if (mine or sites) else None
        self._plans[code] = plan
        return plan

    def _is_done(self, code) -> bool:
        mine, sites = self._plans[code]
        return not (mine - self.seen) and all(s.passed and s.failed for s in sites.values())

    # ---- sys.settrace (every Python)

    def _global(self, frame, event, arg):
        code = frame.f_code
        if code.co_filename != self.filename or code in self._done:
            return None
        plan = self._plan(code)
        if plan is None:
            self._done.add(code)
            return None
        seen, sites = self.seen, plan[1]
        prev = 0
        news = False

        def local(frame, event, arg):
            nonlocal prev, news
            if event == "line":
                b = frame.f_lineno
                if b not in seen:
                    seen.add(b)
                    news = True
                s = sites.get(prev)
                if s is not None and b not in s.inner:
                    news = s.record(b) or news
                prev = b
            elif event == "return":
                s = sites.get(prev)
                if s is not None:
                    news = s.record(RETURN, arg) or news
                if news and self._is_done(code):
                    self._done.add(code)
            elif event == "exception":
                prev = 0
            return local
        return local

    # ---- sys.monitoring (Python 3.12+)

    def _start_monitoring(self) -> bool:
        mon = getattr(sys, "monitoring", None)
        if mon is None:
            return False
        for tool in (mon.COVERAGE_ID, 3, 4):
            if mon.get_tool(tool) is None:
                break
        else:
            return False
        mon.use_tool_id(tool, "regola coverage")
        self._tool, E = tool, mon.events
        self._prev: dict[int, int] = {}
        self._keep: dict[int, int] = {}            # line -> unfinished sites that need it
        for d in self.sites_in.values():
            for s in set(d.values()):
                for n in (*s.watch, *s.inner, s.succ):
                    self._keep[n] = self._keep.get(n, 0) + 1
        mon.register_callback(tool, E.PY_START, self._m_start)
        mon.register_callback(tool, E.LINE, self._m_line)
        mon.register_callback(tool, E.PY_RETURN, self._m_return)
        mon.register_callback(tool, E.PY_UNWIND, self._m_unwind)
        mon.set_events(tool, E.PY_START | E.PY_UNWIND)
        return True

    def _m_start(self, code, offset):
        mon = sys.monitoring
        plan = self._plan(code) if code.co_filename == self.filename else None
        if plan is not None:
            mon.set_local_events(self._tool, code, mon.events.LINE | (mon.events.PY_RETURN if plan[1] else 0))
        return mon.DISABLE

    def _m_line(self, code, line):
        self.seen.add(line)
        plan = self._plans.get(code)
        if not plan or not plan[1]:
            return sys.monitoring.DISABLE
        sites = plan[1]
        key = id(sys._getframe(1))
        s = sites.get(self._prev.get(key, 0))
        if s is not None and line not in s.inner and s.record(line):
            self._finished(s)
        self._prev[key] = line
        if not self._keep.get(line):
            return sys.monitoring.DISABLE
        return None

    def _m_return(self, code, offset, value):
        plan = self._plans.get(code)
        prev = self._prev.pop(id(sys._getframe(1)), 0)
        s = plan[1].get(prev) if plan else None
        if s is not None and s.record(RETURN, value):
            self._finished(s)

    def _m_unwind(self, code, offset, exc):
        if code.co_filename == self.filename:
            self._prev.pop(id(sys._getframe(1)), None)

    def _finished(self, s: Site):
        if s.passed and s.failed:
            for n in (*s.watch, *s.inner, s.succ):
                self._keep[n] -= 1

    # ---- both

    def start(self):
        if self._start_monitoring():
            return
        self._old = sys.gettrace()
        sys.settrace(self._global)

    def stop(self):
        if self._tool is not None:
            mon = sys.monitoring
            mon.set_events(self._tool, 0)
            for code, plan in self._plans.items():
                if plan is not None:
                    mon.set_local_events(self._tool, code, 0)
            for ev in (mon.events.PY_START, mon.events.LINE, mon.events.PY_RETURN, mon.events.PY_UNWIND):
                mon.register_callback(self._tool, ev, None)
            mon.free_tool_id(self._tool)
            self._tool = None
            return
        sys.settrace(self._old)
        self._old = None
