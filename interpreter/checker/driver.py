"""The checker: ordered, named passes over the composed program.

Passes, in the order they run (each may rely on the ones before it), and their modules:

1.  declare        declare.py      collect every top-level name; duplicates are errors
2.  resolve_types  resolve.py      record fields, parameters, variables and cell attributes get types
3.  components     constants.py    component tables are typed and evaluated (constants on demand)
4.  grids          grids.py        grid geometry: cells, adjacency, lines, areas
5.  variables      variables.py    bounds, sizes, initial values, visibility
6.  bodies         bodies.py       every expression and statement is typed; names resolved
                                   (actions.py, triggers.py, statements.py, expressions.py,
                                   builtin_calls.py)
7.  assertions     assertions.py   static assertions evaluated
7b. header_facts   assertions.py   'at most N moves' and 'scores A..B' checked for sense
8.  unused         unused.py       warnings for definitions nothing uses

After declare or resolve_types, an error stops the checker (later passes would only repeat
it). Each pass is a mixin class of `Checker`, which holds the state they share (`p`, the
`CheckedProgram` being filled in, and `diags`) and reports diagnostics (`error`, `warn`).

Diagnostics are collected, never raised one at a time; the result of a pass lives in side
tables of `CheckedProgram` (types and refs keyed by node id), the AST is never mutated.
"""

from __future__ import annotations

from .. import ast
from ..compose import Composed
from ..diagnostics import Diagnostic
from ..symbols import CheckedProgram
from .actions import ActionChecks
from .assertions import AssertionsPass
from .bodies import BodiesPass
from .builtin_calls import BuiltinChecks
from .constants import ConstantsPass
from .declare import DeclarePass
from .expressions import ExpressionChecks
from .grids import GridsPass
from .resolve import ResolveTypesPass
from .statements import StatementChecks
from .triggers import TriggerChecks
from .unused import UnusedPass
from .variables import VariablesPass


class Checker(DeclarePass, ResolveTypesPass, ConstantsPass, GridsPass, VariablesPass, BodiesPass,
              ActionChecks, TriggerChecks, StatementChecks, ExpressionChecks, BuiltinChecks,
              AssertionsPass, UnusedPass):
    """The passes as one class: the state they share, the driver and the reports."""

    def __init__(self, composed: Composed):
        src = composed.source
        self.composed = composed
        self.diags: list[Diagnostic] = list(composed.diagnostics)
        self.p = CheckedProgram(name=src.name, title=src.title, min_players=src.min_players,
                                max_players=src.max_players, players=composed.players,
                                modules=[m.name for m in composed.modules],
                                lowest_wins=any(isinstance(i, ast.LowestScoreWins) for i in src.game_decl.items))
        self.p.cites = composed.cites
        self._const_decls: dict[str, ast.ConstDecl] = {}
        self._const_state: dict[str, str] = {}     # name -> checking | done
        self._tables: dict[str, list[ast.ComponentsDecl]] = {}
        self._table_state: dict[str, str] = {}
        self._grid_decls: dict[str, ast.GridDecl] = {}
        self._grid_state: dict[str, str] = {}
        self._on_demand = 0                         # constants, tables, grids being worked out
        self._whens: list[ast.WhenDecl] = []
        self._field_defaults: dict[str, dict[str, ast.Expr]] = {}
        self._modifiers: list[ast.ModifierDecl] = []
        self._static = None                         # StaticEvaluator, made on first use

    @classmethod
    def for_program(cls, prog: CheckedProgram) -> "Checker":
        """A checker over an already checked program, to check new snippets against it."""
        c = cls.__new__(cls)
        c.composed = None
        c.diags = []
        c.p = prog
        c._const_decls = {}
        c._const_state = {name: "done" for name in prog.consts}
        c._tables = {}
        c._table_state = {name: "done" for name in prog.records}
        c._grid_decls = {}
        c._grid_state = {name: "done" for name in prog.grids}
        c._on_demand = 0
        c._whens = []
        c._field_defaults = {}
        c._modifiers = []
        c._static = None
        return c

    # ------------------------------------------------------------------ driver

    PASSES = (
        "declare",          # declare.py
        "resolve_types",    # resolve.py
        "components",       # constants.py
        "grids",            # grids.py
        "variables",        # variables.py
        "bodies",           # bodies.py
        "assertions",       # assertions.py
        "header_facts",     # assertions.py
        "unused",           # unused.py
    )

    def run(self) -> CheckedProgram:
        for name in self.PASSES:
            getattr(self, "pass_" + name)()
            if name in ("declare", "resolve_types") and any(d.is_error for d in self.diags):
                break           # later passes would only repeat these errors
        return self.p

    def error(self, node, code, msg, hint=None, notes=None):
        span = node.span if isinstance(node, ast.Node) else node
        self.diags.append(Diagnostic(code, span, msg, hint, "error", notes or []))

    def warn(self, node, code, msg, hint=None):
        span = node.span if isinstance(node, ast.Node) else node
        self.diags.append(Diagnostic(code, span, msg, hint, "warning"))


def check(composed: Composed) -> tuple[CheckedProgram, list[Diagnostic]]:
    c = Checker(composed)
    prog = c.run()
    return prog, sorted(c.diags, key=Diagnostic.sort_key)
