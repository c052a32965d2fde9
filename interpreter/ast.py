"""Typed AST of the Regola language.

Every node class is declared once here, with a `span`. The lark transformer is derived
from these classes (`build_transformer`): the grammar rule named `snake_case(ClassName)`
builds that class, its children filling the fields in declaration order. Grammar aliases
that share a class (`add`, `sub` -> `Binary`) are listed in `ALIASES` with the fields they
fix. Rules whose name ends in `_list` become plain Python lists.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar, Optional

from pydantic import BaseModel, ConfigDict


class Span(BaseModel):
    model_config = ConfigDict(frozen=True)
    file: str
    line: int
    col: int
    end_line: int
    end_col: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"


NO_SPAN = Span(file="<builtin>", line=0, col=0, end_line=0, end_col=0)


class Node(BaseModel):
    model_config = ConfigDict(arbitrary_types_allowed=True, validate_assignment=False)
    kind: ClassVar[str] = "node"
    span: Span

    def __init_subclass__(cls, **kw):
        super().__init_subclass__(**kw)
        cls.kind = _snake(cls.__name__)

    def children(self):
        """Direct child nodes, in field order (one generic walker for every class)."""
        for name in type(self).model_fields:
            if name == "span":
                continue
            v = getattr(self, name)
            if isinstance(v, Node):
                yield v
            elif isinstance(v, list):
                for x in v:
                    if isinstance(x, Node):
                        yield x

    def walk(self):
        """This node and all its descendants, depth first."""
        stack = [self]
        while stack:
            n = stack.pop()
            yield n
            stack.extend(reversed(list(n.children())))

    def dump(self) -> dict:
        """A JSON-friendly dump with the kind tag (used by golden tests)."""
        out: dict[str, Any] = {"kind": self.kind}
        for name in type(self).model_fields:
            if name == "span":
                continue
            out[name] = _dump(getattr(self, name))
        return out


def _dump(v):
    if isinstance(v, Node):
        return v.dump()
    if isinstance(v, list):
        return [_dump(x) for x in v]
    return v


def _snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


class Expr(Node):
    pass


class Stmt(Node):
    pass


class Decl(Node):
    pass


class TypeExpr(Node):
    pass


# ------------------------------------------------------------------ types

class TypeName(TypeExpr):
    name: str


class OptionalType(TypeExpr):
    inner: TypeExpr


class ListType(TypeExpr):
    elem: TypeExpr


class MapType(TypeExpr):
    key: str
    value: TypeExpr


class ZoneType(TypeExpr):
    zone: str            # stack | pile | sequence | row | slots
    elem: str
    size: Optional[Expr] = None
    key: Optional[str] = None     # slots: one slot per key; other zones: one zone per key


# ------------------------------------------------------------------ expressions

class IntLit(Expr):
    value: int


class StrLit(Expr):
    value: str


class BoolLit(Expr):
    value: bool


class NoneLit(Expr):
    pass


class Me(Expr):
    pass


class Name(Expr):
    name: str


class Attr(Expr):
    obj: Expr
    name: str


class Index(Expr):
    obj: Expr
    index: Expr


class Slice(Expr):
    """`xs[a:b]`, `xs[:k]` (the first k), `xs[-k:]` (the last k): as in Python."""
    obj: Expr
    low: Optional[Expr] = None
    high: Optional[Expr] = None


class Call(Expr):
    func: str
    args: list[Expr] = []


class CompClause(Node):
    var: str
    iter: Expr
    cond: Optional[Expr] = None


class GeneratorCall(Expr):
    func: str
    elem: Expr
    clauses: list[CompClause]


class ListComp(Expr):
    elem: Expr
    clauses: list[CompClause]


class ListLit(Expr):
    items: list[Expr] = []


class MapEntry(Node):
    key: Expr
    value: Expr


class MapLit(Expr):
    entries: list[MapEntry] = []


class Binary(Expr):
    op: str
    left: Expr
    right: Expr


class Compare(Expr):
    op: str
    left: Expr
    right: Expr


class BoolOp(Expr):
    op: str
    left: Expr
    right: Expr


class NotOp(Expr):
    operand: Expr


class Neg(Expr):
    operand: Expr


class CondExpr(Expr):
    then: Expr
    cond: Expr
    other: Expr


# ------------------------------------------------------------------ statements

class LetStmt(Stmt):
    name: str
    type: Optional[TypeExpr] = None  # `let x: list of T = []`: when the value cannot tell
    value: Expr


class AssignStmt(Stmt):
    op: str
    target: Expr
    value: Expr


class MoveFrom(Stmt):
    item: Expr
    zone: Expr
    dest: Expr


class MoveSlot(Stmt):
    source: Expr
    dest: Expr


class MoveAll(Stmt):
    zone: Expr
    dest: Expr


class DrawStmt(Stmt):
    zone: Expr
    dest: Expr


class FillStmt(Stmt):
    zone: Expr
    value: Expr


class DiscardStmt(Stmt):
    target: Expr


class DiscardAll(Stmt):
    zone: Expr


class CompactStmt(Stmt):
    zone: Expr


class PeekStmt(Stmt):
    player: Expr
    target: Expr


class RevealStmt(Stmt):
    target: Expr
    to: Optional[Expr] = None       # `reveal X to p`: shown to one player (else to everyone)


class RequireStmt(Stmt):
    cond: Expr
    message: Optional[str] = None


class RollStmt(Stmt):
    var: str
    values: Expr


class PayStmt(Stmt):
    cost: Expr
    payment: str
    payer: Optional[Expr] = None


class CostItem(Node):
    amount: Expr
    counter: str


class CostStmt(Stmt):
    items: list[CostItem]


class EmitStmt(Stmt):
    event: str
    args: Optional[list[Expr]] = None


class EndGame(Stmt):
    pass


class PassStmt(Stmt):
    pass


class CiteStmt(Stmt):
    text: str


class CallStmt(Stmt):
    func: str
    args: Optional[list[Expr]] = None


class ReturnStmt(Stmt):
    value: Expr


class BreakStmt(Stmt):
    pass


class ActOptional(Node):
    pass


class ActCost(Node):
    amount: Expr
    counter: str


class ActElsePass(Node):
    pass


class ActStmt(Stmt):
    player: Expr
    actions: list[str]
    options: list[Node] = []


class ChooseBy(Node):
    player: Expr


class ChooseOptional(Node):
    pass


class ChoosePrompt(Node):
    text: str


class SimultaneousStmt(Stmt):
    """`simultaneously for p in players:` one `choose ..., by p:` every player makes without
    seeing the others' choices; then the bodies run, in that order."""
    var: str
    iter: Expr
    body: list[Stmt]
    cond: Optional[Expr] = None      # (never given: the loop clause shape the checker shares)


class ChooseStmt(Stmt):
    var: str
    domain: Expr
    cond: Optional[Expr] = None
    options: list[Node] = []
    body: Optional[list[Stmt]] = None


class ElifClause(Node):
    cond: Expr
    body: list[Stmt]


class IfStmt(Stmt):
    cond: Expr
    body: list[Stmt]
    elifs: list[ElifClause] = []
    other: Optional[list[Stmt]] = None


class ForStmt(Stmt):
    var: str
    iter: Expr
    cond: Optional[Expr] = None
    body: list[Stmt]


class RepeatStmt(Stmt):
    count: Expr
    body: list[Stmt]


class WhileStmt(Stmt):
    cond: Expr
    body: list[Stmt]


class LoopStmt(Stmt):
    body: list[Stmt]


# ------------------------------------------------------------------ declarations

class GameTitle(Node):
    text: str


class LowestScoreWins(Node):
    """`lowest score wins` in a game's header: the ranking reads scores upside down."""


class GameLength(Node):
    """`at most N moves` in a game's header: no game has more moves by players (a fact for
    adapters and bots; `regola simulate` stops a game that goes past it)."""
    moves: int


class GameScores(Node):
    """`scores A..B` in a game's header: every player's score lies in A..B."""
    low: Expr
    high: Expr


class GamePlayers(Node):
    low: int
    high: Optional[int] = None     # `players 2` is `players 2..2`

    @property
    def top(self) -> int:
        return self.low if self.high is None else self.high


class TopCite(Decl):
    text: str


class GameDecl(Decl):
    name: str
    items: list[Node]


class AppliesWhen(Node):
    cond: Expr


class RequiresModule(Node):
    name: str


class ConflictsWith(Node):
    name: str


class ModuleDecl(Decl):
    name: str
    items: list[Node]


class PartDecl(Decl):
    game: str


class ConstDecl(Decl):
    name: str
    value: Expr


class OptionDecl(ConstDecl):
    """`option NAME: TYPE [in A..B] = DEFAULT[, "what it sets"]`: a constant the one who loads
    the game may set (interpreter/options.py); `value` is the default, or the value given."""
    type: TypeExpr
    bound: Optional[Node] = None
    doc: Optional[str] = None
    given: Optional[str] = None         # the text of the value given at load time, if any


class OverrideConst(Decl):
    name: str
    value: Expr


class EnumDecl(Decl):
    name: str
    values: list[str]


class FieldDecl(Node):
    name: str
    type: TypeExpr
    default: Optional[Expr] = None


class RecordDecl(Decl):
    name: str
    fields: list[FieldDecl]


class TableHeader(Node):
    columns: list[str]


class TableRow(Node):
    cells: list[Expr]


class ComponentsDecl(Decl):
    record: str
    header: TableHeader
    rows: list[TableRow]


class GridSize(Node):
    rows: Expr
    cols: Expr


class GridLine(Node):
    name: str
    axis: str          # row | column
    positions: Expr


class GridArea(Node):
    name: str
    bounds: list[str]


class GridCell(Node):
    name: str
    type: TypeExpr


class GridDecl(Decl):
    name: str
    record: str
    items: list[Node]


class BoundIn(Node):
    low: Expr
    high: Expr


class BoundClamp(Node):
    low: Expr
    high: Optional[Expr] = None         # `clamp 0..`: no upper bound


class BoundMin(Node):
    value: Expr


class BoundMax(Node):
    value: Expr


class Visibility(Node):
    level: str


class VarInternal(Node):
    """`internal`: a variable the rules keep for their own bookkeeping, left out of views."""


class VarHolds(Node):
    """`holds c where COND` on the line under a zone: the components it may hold, as far as anyone can tell
    (what a determinization may put there: runtime/resample.py). COND reads `c`, the zone's
    `key` (keyed zones, slots, rows) and its `owner` (per-player zones), and the state."""
    var: str
    cond: Expr


class VarDecl(Node):
    name: str
    type: TypeExpr
    options: list[Node] = []
    init: Optional[Expr] = None
    holds: Optional[VarHolds] = None


class GlobalDecl(Decl):
    vars: list[VarDecl]


class PlayerDecl(Decl):
    vars: list[VarDecl]


class Param(Node):
    name: str
    type: TypeExpr


class DefDecl(Decl):
    name: str
    params: Optional[list[Param]] = None
    ret: TypeExpr
    expr: Optional[Expr] = None
    body: Optional[list[Stmt]] = None
    hook: bool = False            # modifiable by `modifier` declarations


class ModifierDecl(Decl):
    hook_name: str
    params: Optional[list[str]] = None
    op: str                       # = | += | -=
    value: Expr
    cond: Optional[Expr] = None


class ProcedureDecl(Decl):
    name: str
    params: Optional[list[Param]] = None
    body: list[Stmt]


class ActionParam(Node):
    name: str
    domain: Expr
    cond: Optional[Expr] = None


class ActionDecl(Decl):
    name: str
    params: Optional[list[ActionParam]] = None
    body: list[Stmt]


class SetupDecl(Decl):
    body: list[Stmt]


class FlowDecl(Decl):
    body: list[Stmt]


class OnDecl(Decl):
    event: str
    params: Optional[list[Param]] = None
    body: list[Stmt]


class EventDecl(Decl):
    name: str
    params: Optional[list[Param]] = None


class OnEndDecl(Decl):
    body: list[Stmt]


class ScoreDecl(Decl):
    expr: Expr


class TiebreakDecl(Decl):
    exprs: list[Expr]


class AssertDecl(Decl):
    cond: Expr
    message: str


class ReplaceDecl(Decl):
    decl: Decl


class ExtendDecl(Decl):
    target: str
    place: str          # before | after
    body: list[Stmt]


class WhenDecl(Decl):
    target: Expr
    value: Expr
    body: list[Stmt]


class ActionsDecl(Decl):
    name: str
    actions: list[str] = []


class ExtendActions(Decl):
    name: str
    actions: list[str]


class ExtendRecord(Decl):
    """`extend record Dev:` in a module: more fields, each with a default for the base's rows."""
    name: str
    fields: list[FieldDecl]


class ExtendEnum(Decl):
    """`extend enum Area: special_tower` in a module: more values, after the base's."""
    name: str
    values: list[str]


class PayRule(Node):
    var: str
    source: Expr
    cond: Optional[Expr] = None
    when: Optional[Expr] = None


class PaymentDecl(Decl):
    name: str
    unit: str
    rules: list[PayRule]


class Program(Node):
    """One parsed file."""
    decls: list[Decl]
