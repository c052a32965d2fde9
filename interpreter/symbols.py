"""What names mean: the symbol table the checker builds and the compiler reads."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional

from . import ast
from .types import AreaType, EnumType, GridInfo, LineType, RecordType, Type


@dataclass(eq=False)
class Sym:
    kind: str           # see KINDS
    name: str
    type: Type
    node: Optional[ast.Node] = None
    data: Any = None
    used: bool = False

    @property
    def span(self):
        return self.node.span if self.node is not None else ast.NO_SPAN


KINDS = ("const", "enum", "enum_value", "record", "kind", "grid", "cell_attr", "line", "area",
         "global", "pvar", "def", "proc", "action", "local", "builtin", "players")


@dataclass(eq=False)
class VarInfo:
    name: str
    type: Type
    decl: ast.VarDecl
    per_player: bool
    visibility: str = "public"
    low: Optional[int] = None
    high: Optional[int] = None
    clamp: bool = False
    init: Any = None
    used: bool = False
    slot: int = -1                 # index in the state's variable list (compiler)
    known_slot: int = -1           # knowledge bitmasks of a hidden slotted zone
    revealed: bool = False         # named by reveal, peek or knows as a whole: who knows it is kept
    internal: bool = False         # `internal`: bookkeeping, left out of views
    seen_slot: int = -1            # that knowledge, a bitmask (per owner for a per-player variable)
    holds: Optional[str] = None    # `holds c where ...`: the def saying what the zone may hold


@dataclass(eq=False)
class Callable:
    name: str
    params: list[tuple[str, Type]]
    decl: ast.Decl
    ret: Optional[Type] = None


@dataclass(eq=False)
class ActionParamInfo:
    name: str
    type: Type
    domain: ast.Expr
    cond: Optional[ast.Expr]


@dataclass(eq=False)
class ActionInfo:
    name: str
    params: list[ActionParamInfo]
    decl: ast.ActionDecl
    requires: list[ast.RequireStmt] = field(default_factory=list)
    costs: list[ast.CostItem] = field(default_factory=list)
    effects: list[ast.Stmt] = field(default_factory=list)
    cite: str = ""


@dataclass(eq=False)
class EventInfo:
    name: str
    params: list[tuple[str, Type]]
    handlers: list[ast.OnDecl] = field(default_factory=list)
    emitted: bool = False
    decl: Optional[ast.EventDecl] = None      # declared with `event NAME(...)`


@dataclass(eq=False)
class WatchInfo:
    """`when TARGET reaches VALUE:` — TARGET is a variable, per player and/or per key."""
    decl: ast.WhenDecl
    var: VarInfo
    player_binder: Optional[str] = None
    key_binder: Optional[str] = None
    key_type: object = None


@dataclass(eq=False)
class PayRuleInfo:
    binder: str
    rule: ast.PayRule
    var: VarInfo                   # a counter of the payer: me.x or me.x[key]
    keyed: bool


@dataclass(eq=False)
class PaymentInfo:
    name: str
    unit: object                   # the type of a cost's units
    decl: ast.PaymentDecl
    rules: list = field(default_factory=list)
    counters: list = field(default_factory=list)   # (VarInfo, key index or None), in id order


@dataclass(eq=False)
class CheckedProgram:
    """The composed program plus everything the checker worked out about it."""
    name: str
    title: str
    min_players: int
    max_players: int
    players: Optional[int]
    modules: list[str]
    lowest_wins: bool = False                                # `lowest score wins`
    max_moves: Optional[int] = None                          # `at most N moves`
    score_bounds: Optional[tuple] = None                     # `scores A..B`
    header_spans: dict = field(default_factory=dict)         # "moves"/"scores" -> where declared
    top: dict[str, Sym] = field(default_factory=dict)        # top-level names
    values: dict[str, list[Sym]] = field(default_factory=dict)  # enum values and kinds
    enums: dict[str, EnumType] = field(default_factory=dict)
    records: dict[str, RecordType] = field(default_factory=dict)
    grids: dict[str, GridInfo] = field(default_factory=dict)
    lines: dict[str, LineType] = field(default_factory=dict)
    areas: dict[str, AreaType] = field(default_factory=dict)
    consts: dict[str, Any] = field(default_factory=dict)      # evaluated values
    options: dict[str, ast.OptionDecl] = field(default_factory=dict)   # game options (also consts)
    globals: dict[str, VarInfo] = field(default_factory=dict)
    pvars: dict[str, VarInfo] = field(default_factory=dict)
    defs: dict[str, Callable] = field(default_factory=dict)
    procs: dict[str, Callable] = field(default_factory=dict)
    actions: dict[str, ActionInfo] = field(default_factory=dict)
    events: dict[str, EventInfo] = field(default_factory=dict)
    setup: Optional[ast.SetupDecl] = None
    flow: Optional[ast.FlowDecl] = None
    on_end: Optional[ast.OnEndDecl] = None
    score: Optional[ast.ScoreDecl] = None
    tiebreaks: list[ast.Expr] = field(default_factory=list)
    groups: dict[str, list[str]] = field(default_factory=dict)    # named groups of actions
    watchers: list = field(default_factory=list)                   # WatchInfo
    payments: dict = field(default_factory=dict)                   # name -> PaymentInfo
    act_actions: dict = field(default_factory=dict)                # id(act stmt) -> actions offered
    modifiers: dict = field(default_factory=dict)                  # hook name -> [ModifierDecl]
    asserts: list[ast.AssertDecl] = field(default_factory=list)
    cites: dict[int, str] = field(default_factory=dict)       # id(decl) -> top-level cite
    # side tables keyed by id(node): never stored on the nodes themselves
    types: dict[int, Type] = field(default_factory=dict)
    refs: dict[int, Sym] = field(default_factory=dict)
