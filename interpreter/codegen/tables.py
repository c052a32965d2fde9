"""Static tables of a checked program, as globals of the generated code.

Names: A<n>_<Rec>_<field> (field value per kind, a list; n is the length of the record's
name, which keeps record `A` field `b_c` apart from record `A_b` field `c`), AO<n>_<Rec>_<field>
(the same as a dict that also maps None to None, for none-safe access), AE<n>_<Rec>_<field>
(none as -1, for comparisons with a value never none), AT<n>_<Rec>_<field> and ATO<n>_...
(a field of lists of units, each tallied for payments), CNT_<Rec> (copies per
kind), NAME_<Rec>, VALS_<T> (all values of a type), COPIES_<Rec> (every copy), K_<const>,
and per grid CELLS_, ADJ_, ROWC_, COLC_, AREA<n>_<g>_<a>, ACELLS<n>_<g>_<a>, LCELLS_<l>,
BESIDE_<l>, DIST_<l>. Every name joins a fixed prefix and rules names so that no two
different things share one (see tests/test_language_names.py).
"""

from __future__ import annotations

from .. import types as T


def field_table(rec: str, field: str, none_safe: bool = False) -> str:
    """The table of a record field's value per kind."""
    return f"{'AO' if none_safe else 'A'}{len(rec)}_{rec}_{field}"


def eq_key_table(rec: str, field: str) -> str:
    """The table of a record field whose value may be none, none written as -1 (see
    eq_key_values)."""
    return f"AE{len(rec)}_{rec}_{field}"


def eq_key_values(rec: T.RecordType, field: str):
    """A field's values per kind with none as -1, when the field holds values numbered from 0
    (a value of an enum, a component, a player: ints, never truth values) or none, and none
    at least once; else None. Compared with such a value that is never none, `==` and `!=`
    give the same answers as with none, and Python compares two ints faster than an int
    and none."""
    vals = rec.data.get(field)
    if vals is None:
        return None
    vals = list(vals) + [None] * (len(rec.kinds) - len(vals))
    if None not in vals or not all(v is None or (type(v) is int and v >= 0) for v in vals):
        return None
    return [-1 if v is None else v for v in vals]


def tally_table(rec: str, field: str, none_safe: bool = False) -> str:
    """The table of a record field of lists of units (a card's cost), each tallied (see
    tally_values)."""
    return f"{'ATO' if none_safe else 'AT'}{len(rec)}_{rec}_{field}"


def tally_values(rec: T.RecordType, field: str):
    """Per kind, a field's list of units as (how many units, ((unit, how many), ...) in order
    of first appearance), as a payment asks it (runtime/helpers.py, `_tally_units`); None
    unless every value is a list of numbers (or none)."""
    vals = rec.data.get(field)
    if vals is None:
        return None
    out = []
    for v in list(vals) + [None] * (len(rec.kinds) - len(vals)):
        if v is None:
            out.append(None)
        elif isinstance(v, list) and all(type(u) is int for u in v):
            counts: dict = {}
            for u in v:
                counts[u] = counts.get(u, 0) + 1
            out.append((len(v), tuple(counts.items())))
        else:
            return None
    return out if any(x is not None for x in out) else None


def area_table(grid: str, area: str, cells: bool = False) -> str:
    """The area of each cell of a grid (or, with cells, the cells of each area)."""
    return f"{'ACELLS' if cells else 'AREA'}{len(grid)}_{grid}_{area}"


def _none_safe(vals: list) -> dict:
    """A table's values by kind as a dict that also maps none to none (a none-safe read)."""
    d = dict(enumerate(vals))
    d[None] = None
    return d


def record_tables(rec: T.RecordType) -> dict:
    ns = {}
    n = len(rec.kinds)
    for f, vals in rec.data.items():
        vals = list(vals) + [None] * (n - len(vals))
        ns[field_table(rec.name, f)] = vals
        ns[field_table(rec.name, f, none_safe=True)] = _none_safe(vals)
        keys = eq_key_values(rec, f)
        if keys is not None:
            ns[eq_key_table(rec.name, f)] = keys
        tallies = tally_values(rec, f)
        if tallies is not None:
            ns[tally_table(rec.name, f)] = tallies
            ns[tally_table(rec.name, f, none_safe=True)] = _none_safe(tallies)
    copies = list(rec.copies) + [1] * (n - len(rec.copies))
    ns[f"CNT_{rec.name}"] = copies
    ns[f"CNTO_{rec.name}"] = _none_safe(copies)
    ns[f"NAME_{rec.name}"] = list(rec.kinds)
    ns[f"VALS_{rec.name}"] = list(range(n))
    ns[f"COPIES_{rec.name}"] = [k for k in range(n) for _ in range(copies[k])]
    return ns


def enum_tables(et: T.EnumType) -> dict:
    return {f"VALS_{et.name}": list(range(len(et.values)))}


def grid_tables(g: T.GridInfo) -> dict:
    ns = {}
    n, C = g.ncells, g.cols
    ns[f"CELLS_{g.name}"] = list(range(n))
    ns[f"ADJ_{g.name}"] = [list(a) for a in g.adjacent]
    # the cells of each cell's row and column: one list per row and per column, shared by its
    # cells (a list per cell would make the table grow with the square of a long row); lists
    # of the rules are never changed in place
    rows = [list(range(r * C, r * C + C)) for r in range(g.rows)]
    cols = [list(range(c, n, C)) for c in range(C)]
    ns[f"ROWC_{g.name}"] = [rows[x // C] for x in range(n)]
    ns[f"COLC_{g.name}"] = [cols[x % C] for x in range(n)]
    for a in g.areas.values():
        ns[area_table(g.name, a.name)] = list(a.of_cell)
        ns[area_table(g.name, a.name, cells=True)] = [list(c) for c in a.cells]
        ns[f"VALS_{a.name}"] = list(range(len(a.cells)))
    for lt in g.lines.values():
        ns[f"LCELLS_{lt.name}"] = [list(c) for c in lt.beside]
        besides = set(x for cells in lt.beside for x in cells)
        ns[f"BESIDE_{lt.name}"] = [x in besides for x in range(n)]
        dist = []
        for pos in lt.positions:
            row = []
            for x in range(n):
                coord = (x // C) if lt.axis == "row" else (x % C)
                row.append(pos - coord if coord <= pos else coord - pos - 1)
            dist.append(row)
        ns[f"DIST_{lt.name}"] = dist
        ns[f"VALS_{lt.name}"] = list(range(len(lt.positions)))
    return ns


def all_tables(prog) -> dict:
    ns = {}
    for rec in prog.records.values():
        ns.update(record_tables(rec))
    for et in prog.enums.values():
        ns.update(enum_tables(et))
    for g in prog.grids.values():
        ns.update(grid_tables(g))
    for name, v in prog.consts.items():
        ns[f"K_{name}"] = v
    return ns
