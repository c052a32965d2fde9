"""Static types of the language, used by the checker and the compiler.

Every runtime value is plain Python data: int, bool, None, str, list. Enumerated values
(enum values, component kinds, players, cells, areas, lines) are ints indexing static
tables; `none` is None.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional


class Type:
    finite = False          # values can be numbered statically (action spaces)

    def __str__(self) -> str:
        return self.name

    def size(self) -> int:
        raise TypeError(f"{self} has no static size")


@dataclass(frozen=True)
class _Simple(Type):
    name: str

    def __str__(self):
        return self.name


INT = _Simple("int")
BOOL = _Simple("bool")
STR = _Simple("string")
NONE = _Simple("none")
ANY = _Simple("any")          # after an error: accepted everywhere, reported once


@dataclass(eq=False)
class EnumType(Type):
    name: str
    values: list[str]
    finite = True

    def size(self):
        return len(self.values)


@dataclass(eq=False)
class RecordType(Type):
    """A record schema; its components are the values of KindType(record)."""
    name: str
    fields: dict[str, Type] = field(default_factory=dict)
    kinds: list[str] = field(default_factory=list)
    copies: list[int] = field(default_factory=list)
    data: dict[str, list] = field(default_factory=dict)     # field -> value per kind
    finite = True

    def size(self):
        return len(self.kinds)


@dataclass(eq=False)
class PlayerType(Type):
    """Seats 0..n-1; n is known per compiled configuration, not by the type."""
    name: str = "Player"
    finite = True


PLAYER = PlayerType()


def type_size(t: Type, players: int) -> int:
    """How many values a finite type has, in a game of `players` players."""
    t = strip(t)
    if t is BOOL:
        return 2
    if isinstance(t, PlayerType):
        return players
    if getattr(t, "finite", False):
        return t.size()
    return 0


def state_values(t: Type, players: int) -> int:
    """How many values a variable of type t keeps in a state: a count per kind of a stack or
    pile, a slot per place of a row or slots zone, an entry per key of a map, times the keys
    of keyed zones; 1 for anything else (a number, a list: lists grow as the rules run)."""
    if isinstance(t, KeyedZones):
        return type_size(t.key, players) * state_values(t.zone, players)
    if isinstance(t, ZoneType):
        if t.zone == "row":
            return t.size_
        if t.zone == "slots":
            return type_size(t.key, players)
        return len(t.elem.kinds) if t.counted else 1
    if isinstance(t, MapType):
        return type_size(t.key, players)
    return 1


@dataclass(eq=False)
class GridInfo:
    name: str
    record: RecordType
    rows: int = 0
    cols: int = 0
    lines: dict[str, "LineType"] = field(default_factory=dict)
    areas: dict[str, "AreaType"] = field(default_factory=dict)
    cell_attrs: dict[str, Type] = field(default_factory=dict)
    # static geometry, filled by the checker
    adjacent: list[list[int]] = field(default_factory=list)
    cell_type: Optional["CellType"] = None

    @property
    def ncells(self):
        return self.rows * self.cols


@dataclass(eq=False)
class CellType(Type):
    grid: GridInfo
    name: str = "Cell"
    finite = True

    def size(self):
        return self.grid.ncells


@dataclass(eq=False)
class LineType(Type):
    """Boundary lines of one declared kind (e.g. every `street`)."""
    name: str
    grid: GridInfo
    axis: str = "row"
    positions: list[int] = field(default_factory=list)   # line i lies after row/col positions[i]
    beside: list[list[int]] = field(default_factory=list)  # cells next to line i
    finite = True

    def size(self):
        return len(self.positions)


@dataclass(eq=False)
class AreaType(Type):
    name: str
    grid: GridInfo
    bounds: list[str] = field(default_factory=list)
    cells: list[list[int]] = field(default_factory=list)  # cells of area i
    of_cell: list[int] = field(default_factory=list)      # area index of each cell
    finite = True

    def size(self):
        return len(self.cells)


@dataclass(frozen=True)
class IntRange(Type):
    """An int known to lie in low..high (action parameters need finite domains)."""
    low: int
    high: int
    finite = True

    @property
    def name(self):
        return "int"          # the bounds only matter for action ids

    def size(self):
        return self.high - self.low + 1


@dataclass(frozen=True)
class ListType(Type):
    elem: Type

    @property
    def name(self):
        return f"list of {self.elem}"


@dataclass(frozen=True)
class SelectionType(ListType):
    """A selection of lo..hi values of elem (kinds or enum values), repeats allowed, in
    ascending order: the value of `x in subsets(Z, lo, hi)`. A list to read; finite, so a
    move may take one (ids: selections of fewer values first, then in lexicographic order)."""
    lo: int = 0
    hi: int = 0
    finite = True

    @property
    def kinds(self) -> int:
        e = strip(self.elem)
        return len(e.kinds) if isinstance(e, RecordType) else len(e.values)

    def size(self) -> int:
        from math import comb
        n = self.kinds
        return sum(comb(n + k - 1, k) for k in range(self.lo, self.hi + 1))

    def rank(self, values) -> int:
        """The position of a selection (ascending values) among all of this type."""
        from math import comb
        n, k = self.kinds, len(values)
        idx = sum(comb(n + j - 1, j) for j in range(self.lo, k))
        # as the k-combination b_i = values[i] + i of n + k - 1 things, lexicographically
        total, prev = n + k - 1, -1
        for i, v in enumerate(values):
            b = v + i
            for x in range(prev + 1, b):
                idx += comb(total - 1 - x, k - 1 - i)
            prev = b
        return idx

    def unrank(self, idx: int) -> tuple:
        """The selection at position idx (the inverse of `rank`)."""
        from math import comb
        n = self.kinds
        for k in range(self.lo, self.hi + 1):
            count = comb(n + k - 1, k)
            if idx >= count:
                idx -= count
                continue
            total, prev, out = n + k - 1, -1, []
            for i in range(k):
                x = prev + 1
                while True:
                    c = comb(total - 1 - x, k - 1 - i)
                    if idx < c:
                        break
                    idx -= c
                    x += 1
                out.append(x - i)
                prev = x
            return tuple(out)
        raise IndexError("no selection has this position")


@dataclass(frozen=True)
class OptType(Type):
    inner: Type

    @property
    def name(self):
        return f"{self.inner} or none"


@dataclass(frozen=True)
class MapType(Type):
    key: Type
    value: Type

    @property
    def name(self):
        return f"map {self.key} to {self.value}"


@dataclass(frozen=True)
class ZoneType(Type):
    zone: str                  # stack | pile | sequence | row | slots
    elem: RecordType
    size_: int = 0             # slots of a row
    key: Optional[Type] = None

    @property
    def name(self):
        if self.zone == "row":
            return f"row of {self.size_} {self.elem}"
        if self.zone == "slots":
            return f"slots of {self.elem} by {self.key}"
        return f"{self.zone} of {self.elem}"

    @property
    def slotted(self):
        return self.zone in ("row", "slots")

    @property
    def counted(self):
        return self.zone in ("stack", "pile")


@dataclass(frozen=True)
class KeyedZones(Type):
    """One zone per value of a key type: `bin: pile of Token by Colour`; bin[red] is a pile."""
    zone: "ZoneType"
    key: Type

    @property
    def name(self):
        return f"{self.zone} by {self.key}"


@dataclass(frozen=True)
class GridType(Type):
    grid: GridInfo

    @property
    def name(self):
        return f"grid {self.grid.name}"


@dataclass(frozen=True)
class TypeRef(Type):
    """A type named in expression position: `Card`, `Colour`, `region`."""
    target: Type

    @property
    def name(self):
        return f"type {self.target}"


def strip(t: Type) -> Type:
    """The type without `or none`."""
    while isinstance(t, OptType):
        t = t.inner
    return t


def is_int(t: Type) -> bool:
    t = strip(t)
    return t is INT or isinstance(t, IntRange) or t is ANY


def is_indexed(t: Type) -> bool:
    """Values numbered 0..n-1 with a static table (finite, not int ranges or bools)."""
    return isinstance(strip(t), (EnumType, RecordType, PlayerType, CellType, LineType, AreaType))


def elem_type(t: Type) -> Optional[Type]:
    """The type of the elements when iterating `t`, or None if it is not iterable."""
    t = strip(t)
    if t is ANY:
        return ANY
    if isinstance(t, ListType):
        return t.elem
    if isinstance(t, ZoneType):
        return t.elem
    if isinstance(t, TypeRef):
        tgt = t.target
        if isinstance(tgt, (EnumType, RecordType, LineType, AreaType, PlayerType)):
            return tgt
    return None


def assignable(src: Type, dst: Type) -> bool:
    """Can a value of type src be used where dst is expected?"""
    if src is ANY or dst is ANY:
        return True
    if src is NONE:
        return isinstance(dst, OptType)
    if isinstance(dst, OptType):
        return assignable(strip(src), dst.inner)
    if isinstance(src, OptType):
        # a value that may be none is accepted where a value is needed; using none there
        # is a run-time error with the rule's position (no flow analysis of '!= none' tests)
        return assignable(src.inner, dst)
    if is_int(dst) and is_int(src):
        return True
    if isinstance(dst, ListType) and isinstance(src, ListType):
        return src.elem is ANY or assignable(src.elem, dst.elem)
    return same(src, dst)


def same(a: Type, b: Type) -> bool:
    if a is b:
        return True
    if is_int(a) and is_int(b):
        return True
    if isinstance(a, ListType) and isinstance(b, ListType):
        return same(a.elem, b.elem)
    if isinstance(a, OptType) and isinstance(b, OptType):
        return same(a.inner, b.inner)
    if isinstance(a, PlayerType) and isinstance(b, PlayerType):
        return True
    if isinstance(a, CellType) and isinstance(b, CellType):
        return a.grid is b.grid
    return a == b if isinstance(a, (ListType, OptType, MapType, IntRange)) else False


def comparable(a: Type, b: Type) -> bool:
    """May a == b be written?"""
    if a is ANY or b is ANY:
        return True
    if a is NONE or b is NONE:
        return True
    return same(strip(a), strip(b))
