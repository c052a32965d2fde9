"""Statements and expressions of the rules language, checked and compiled against a loaded
game, outside its rules files: scenario positions and expectations, debugging, REPLs.

    sc = SnippetCompiler(game)
    check = sc.expression("player(1).coins == 22", origin=("case.yaml", 12, 9))
    check(state)           # -> True / False
    run = sc.statements(["player(1).coins = 20"], origins=[("case.yaml", 10, 9)])
    run(state)

Errors are RulesError diagnostics whose positions point into the origin (file, line,
column) the text came from. Running a snippet raises RulesRuntimeError, never a bare Python
error; its own loops share a budget of Runner.STEP_BUDGET rounds per run, so `while true`
fails instead of hanging (loops inside the game's procedures it calls are the game's).
"""

from __future__ import annotations

from typing import Optional

from . import ast
from . import types as T
from .checker import Checker, _Ctx, _Scope
from .codegen.expr import ExprGen
from .codegen.lines import Lines
from .codegen.program import ProgramCompiler
from .diagnostics import Diagnostic, RulesError, SourceMap
from .parser import parse
from .pycompile import compile_quietly
from .runtime.helpers import RulesRuntimeError
from .runtime.runner import Runner

# Python errors of generated code that mean the rules did something impossible
_RUNTIME_ERRORS = (TypeError, IndexError, KeyError, ValueError, ZeroDivisionError, AttributeError,
                   RecursionError)


class SnippetCompiler:
    step_budget = Runner.STEP_BUDGET     # loop rounds one run of a statement snippet may take

    def __init__(self, game):
        self.game = game
        self.prog = game.prog
        self.pc = ProgramCompiler(self.prog, game.num_players)
        self.pc.triggers = False      # a position is set, not played: no `when` fires
        self.pc._analyse()
        self.eg = ExprGen(self.prog, self.pc.slots)
        self.sources = SourceMap()
        self._n = 0

    # ------------------------------------------------------------------ parsing

    def _parse(self, prefix: str, text: str, origin) -> tuple[ast.Node, object]:
        fname, line, col = origin
        src = prefix + text
        try:
            prog = parse(src + "\n", fname)
        except RulesError as e:
            raise RulesError([self._remap(d, origin, len(prefix.splitlines()[-1]) if prefix else 0,
                                          prefix.count("\n")) for d in e.diagnostics], self.sources) from None
        return prog

    def _remap(self, d: Diagnostic, origin, col_shift: int, line_shift: int) -> Diagnostic:
        fname, line, col = origin
        s = d.span
        new_line = line + (s.line - 1 - line_shift)
        # the first line was shifted by the wrapper's prefix, the next ones by 4 spaces
        new_col = (s.col - col_shift) + (col - 1) if s.line - 1 == line_shift else s.col - 4 + (col - 1)
        span = ast.Span(file=fname, line=new_line, col=max(new_col, 1), end_line=new_line,
                        end_col=max(new_col, 1) + max(0, (s.end_col - s.col) if s.end_line == s.line else 0))
        return Diagnostic(d.code, span, d.message, d.hint, d.severity, d.notes)

    def _checked(self, checker: Checker, origin, col_shift, line_shift):
        errs = [d for d in checker.diags if d.is_error]
        if errs:
            raise RulesError([self._remap(d, origin, col_shift, line_shift) for d in errs], self.sources)

    # ------------------------------------------------------------------ expressions

    def expression(self, text: str, origin=("<snippet>", 1, 1), expected: Optional[T.Type] = None):
        """Compile an expression; returns a function state -> value (with `.type`, `.node`)."""
        prefix = "const __snippet__ = "
        prog = self._parse(prefix, text, origin)
        node = prog.decls[0].value
        checker = Checker.for_program(self.prog)
        t = checker.expr(node, _Scope(), _Ctx("scenario"), expected)
        self._checked(checker, origin, len(prefix), 0)
        fn = self._compile_expr(node)
        fn.type = t
        fn.node = node
        return fn

    def _compile_expr(self, node):
        src = self.eg.gen(node, {})
        self._n += 1
        name = f"__snippet_{self._n}"
        code = f"def {name}(S, me):\n    V = S.v\n    return {src}\n"
        exec(compile_quietly(code, f"<snippet {name}>", "exec"), self.game.ns)
        fn = self.game.ns[name]

        game = self.game

        def run(state, me=None):
            if me is None and state.pending is not None and state.pending[1] >= 0:
                me = state.pending[1]
            try:
                return fn(state, me)
            except _RUNTIME_ERRORS as e:
                raise _runtime_error(game, e) from None
        return run

    def subexpressions(self, fn):
        """For a comparison, functions computing each side (to show values on failure)."""
        node = fn.node
        if isinstance(node, (ast.Compare, ast.BoolOp)):
            return [(side, self._compile_expr(side)) for side in (node.left, node.right)]
        return []

    # ------------------------------------------------------------------ statements

    def statements(self, texts: list[str], origins: list):
        """Compile statements (no decisions, no chance) run in order on a state."""
        if not texts:
            return lambda state: None
        body = []
        checker = Checker.for_program(self.prog)
        for text, origin in zip(texts, origins):
            prefix = "procedure __snippet__():\n    "
            text = text.replace("\n", "\n    ")       # the snippet is a block of its own
            prog = self._parse(prefix, text, origin)
            stmts = prog.decls[0].body
            for s in stmts:
                ends = any(isinstance(n, ast.EndGame) for n in s.walk())
                if self.pc._stmt_suspends(s) or ends:
                    why = ("a scenario statement cannot end the game" if ends else
                           "a scenario statement cannot wait for a decision or a chance draw")
                    raise RulesError([self._remap(Diagnostic(
                        "E190", s.span, why,
                        "set the position directly: move components, assign counters; "
                        "play moves to reach the end"), origin, 4, 1)],
                        self.sources)
            n0 = len(checker.diags)
            checker.block(stmts, _Scope(), _Ctx("scenario"))
            bad = [d for d in checker.diags[n0:] if d.is_error]
            if bad:
                raise RulesError([self._remap(d, origin, 4, 1) for d in bad], self.sources)
            body.extend(stmts)
        out = Lines()
        self._n += 1
        name = f"__snippet_{self._n}"
        out.add(0, f"def {name}(S, me, _tick):")
        out.add(1, "V = S.v")
        self.pc.stmts_plain(body, {}, out, 1, [])
        out.add(1, "return None")
        code = "\n".join("    " * ind + text for ind, text, _ in _with_ticks(out.items)) + "\n"
        exec(compile_quietly(code, f"<snippet {name}>", "exec"), self.game.ns)
        fn = self.game.ns[name]
        game, budget = self.game, self.step_budget

        def run(state, me=None):
            if me is None and state.pending is not None and state.pending[1] >= 0:
                me = state.pending[1]
            left = [budget]
            work = getattr(game, "_work", None)
            if work is not None:        # a budget for the game's own loops too (procedures called)
                work[0] = budget

            def tick():
                left[0] -= 1
                if left[0] < 0:
                    raise RulesRuntimeError(f"the statement ran {budget:,} loop rounds without "
                                            f"finishing: an endless loop?")
            try:
                fn(state, me, tick)
            except _RUNTIME_ERRORS as e:
                raise _runtime_error(game, e) from None
            finally:
                state.cache = None      # the position changed: legal moves are recomputed
        return run


def _with_ticks(items):
    """The generated lines with `_tick()` first in the body of every loop (`for`, `while`):
    each round of a snippet's loop counts against its budget."""
    out = []
    for ind, text, span in items:
        out.append((ind, text, span))
        if text.startswith(("for ", "while ")) and text.endswith(":"):
            out.append((ind + 1, "_tick()", span))
    return out


def _runtime_error(game, exc: Exception) -> RulesRuntimeError:
    """A Python error of generated code as the rules' runtime error, in the engine's words."""
    if isinstance(exc, RecursionError):
        return RulesRuntimeError("calls nested too deeply (a function or procedure that calls itself "
                                 "without end?)")
    return game._located(exc)
