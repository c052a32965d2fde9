"""Evaluate expressions when the rules are loaded (constants, tables, assertions, sizes).

Uses the same expression compiler as the runtime, with no state: the checker has already
refused anything that reads the game state in these places.
"""

from __future__ import annotations

from .. import ast
from .. import types as T
from ..pycompile import compile_quietly
from ..runtime import watchdog
from ..runtime.helpers import HELPERS
from .expr import ExprGen
from .tables import enum_tables, grid_tables, record_tables


class StaticEvaluator:
    def __init__(self, checker):
        self.checker = checker
        self.p = checker.p
        self.gen = ExprGen(self.p)
        self.ns: dict = dict(HELPERS)
        self.ns["V"] = None
        self.ns["me"] = None
        if self.p.players is not None:
            self.ns["NP"] = self.p.players        # player(k) and next_player in constants
        self._defs_done: set[str] = set()
        self._grids_done: set[str] = set()          # grids whose tables are in ns (built once)
        for et in self.p.enums.values():
            self.ns.update(enum_tables(et))

    def _prepare(self, e: ast.Expr):
        """Put into the namespace every constant, table and pure function e uses."""
        for n in e.walk():
            self._prepare_node(n)

    def _prepare_node(self, n):
        if isinstance(n, ast.Name):
            sym = self.p.refs.get(id(n))
            if sym is not None and sym.kind == "const":
                self.checker.ensure_const(n.name, n)
                self.ns[f"K_{n.name}"] = self.p.consts[n.name]
        t = T.strip(self.p.types.get(id(n), T.ANY))
        for rec in _records_in(t):
            self.checker.ensure_table(rec, n)
            self.ns.update(record_tables(rec))
        g = _grid_of(t)
        if g is not None and g.name not in self._grids_done:
            self.checker.ensure_grid(g, n)
            if not g.rows:               # an error in its declaration, already reported
                from ..checker import CheckError
                raise CheckError()
            self._grids_done.add(g.name)
            self.ns.update(grid_tables(g))
        if isinstance(n, ast.Call) and n.func in self.p.defs:
            self._def(n.func)

    def _def(self, name: str):
        """Compile a pure function for use at load time (assertions may call defs)."""
        if name in self._defs_done:
            return
        self._defs_done.add(name)
        from .defs import compile_def_source
        c = self.p.defs[name]
        for n in c.decl.walk():
            self._prepare_node(n)
        src = compile_def_source(self.p, self.gen, c)
        exec(compile_quietly(src, f"<regola def {name}>", "exec"), self.ns)

    def eval(self, e: ast.Expr):
        self._prepare(e)
        src = self.gen.gen(e, {})
        watchdog.watch(StaticEvaluator.eval)       # (load time has the time limit of run time)
        return eval(compile_quietly(src, "<regola static>", "eval"), self.ns)


def _grid_of(t):
    """The grid whose tables a value of type t needs (its cells, areas or lines), or None."""
    if isinstance(t, T.TypeRef):
        t = t.target
    if isinstance(t, T.ListType):
        t = T.strip(t.elem)
    return t.grid if isinstance(t, (T.GridType, T.CellType, T.AreaType, T.LineType)) else None


def _records_in(t):
    while True:
        if isinstance(t, T.TypeRef):
            t = t.target
        elif isinstance(t, (T.ListType,)):
            t = T.strip(t.elem)
        else:
            break
    if isinstance(t, T.RecordType):
        yield t
