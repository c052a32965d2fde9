"""A grid as its declaration says: `size R by C` cells, the declared lines drawn where they
lie (after a row or a column), the areas they bound tinted (neighbouring areas in different
tints) with their borders and names, each cell's component by name (its fields in the
tooltip) and the grid's cell attributes (a player as a disc of the player's colour, any
other value as text) under it.
"""

from __future__ import annotations

from regola import types as T

from .layout import Box
from .parts import kinds_of, value_text
from .svg import AREA_TINTS, LINE_COLOURS, fit_lines, player_colour, seat_of

LABEL = 18               # room for the row and column numbers
MIN_CELL, MAX_CELL = 44, 84


def area_colours(g: T.GridInfo, area: T.AreaType) -> list[int]:
    """A tint index per area, neighbours (sharing a cell edge) told apart, greedily."""
    near = [set() for _ in area.cells]
    of = area.of_cell
    for c in range(g.ncells):               # the cell on the right and the one below, across lines too
        for d in ((c + 1) if (c + 1) % g.cols else None, c + g.cols if c + g.cols < g.ncells else None):
            if d is not None and _in(of[c]) and _in(of[d]) and of[c] != of[d]:
                near[of[c]].add(of[d])
                near[of[d]].add(of[c])
    out: list[int] = []
    for i in range(len(area.cells)):
        used = {out[j] for j in near[i] if j < i}
        out.append(next(k for k in range(len(AREA_TINTS) + len(near[i]) + 1) if k not in used))
    return out


def _in(a) -> bool:
    return a is not None and a >= 0


def grid_box(name: str, g: T.GridInfo, cells: dict, attrs: list[tuple[str, dict]], width: float) -> Box:
    """The grid `name` with the components in `cells` ("(r,c)" -> kind) and the cell
    attributes `attrs` ([(name, {"(r,c)": value})]), fitted to `width` when it can be."""
    cs = max(MIN_CELL, min(MAX_CELL, (width - LABEL - 4) // max(g.cols, 1)))
    kinds = kinds_of(g.record)
    areas = list(g.areas.values())
    tints = area_colours(g, areas[0]) if areas else []
    legend = _legend(g, attrs)
    w = LABEL + cs * g.cols + 4
    h = LABEL + cs * g.rows + (18 + 16 * len(legend) if legend else 0)

    def cell_xy(r, c, x0, y0):
        return x0 + LABEL + c * cs, y0 + LABEL + r * cs

    def draw(cv, x, y):
        cv.text(x, y + 12, name, "rg-h")
        for c in range(g.cols):
            cv.text(x + LABEL + c * cs + cs / 2, y + LABEL - 4, str(c), "rg-xs", anchor="middle")
        for r in range(g.rows):
            cv.text(x + LABEL - 4, y + LABEL + r * cs + cs / 2 + 3, str(r), "rg-xs", anchor="end")
        for r in range(g.rows):
            for c in range(g.cols):
                i = r * g.cols + c
                cx, cy = cell_xy(r, c, x, y)
                a = areas[0].of_cell[i] if areas else None
                fill = AREA_TINTS[tints[a] % len(AREA_TINTS)] if a is not None and a >= 0 else "#ffffff"
                _cell(cv, cx, cy, cs, f"({r},{c})", fill, cells, attrs, kinds, areas, i)
        for area in areas:
            _area_borders(cv, g, area, cs, x + LABEL, y + LABEL)
        for k, lt in enumerate(g.lines.values()):
            colour = LINE_COLOURS[k % len(LINE_COLOURS)]
            for p in lt.positions:
                with cv.group(f"{lt.name} (after {lt.axis} {p})"):
                    if lt.axis == "row":
                        ly = y + LABEL + (p + 1) * cs
                        cv.line(x + LABEL, ly, x + LABEL + g.cols * cs, ly, colour, 6, 0.85)
                    else:
                        lx = x + LABEL + (p + 1) * cs
                        cv.line(lx, y + LABEL, lx, y + LABEL + g.rows * cs, colour, 6, 0.85)
        ly = y + LABEL + g.rows * cs + 16
        for text, colour in legend:
            if colour:
                cv.line(x + LABEL, ly - 4, x + LABEL + 22, ly - 4, colour, 6, 0.85)
            cv.text(x + LABEL + (28 if colour else 0), ly, text, "rg-s")
            ly += 16
    return Box(w, h, draw)


def _cell(cv, x, y, cs, key, fill, cells, attrs, kinds, areas, i):
    kind = cells.get(key)
    marks = [(n, vals[key]) for n, vals in attrs if key in vals and vals[key] is not None]
    place = [f"{a.name}({a.of_cell[i]})" for a in areas if a.of_cell[i] is not None and a.of_cell[i] >= 0]
    tip = " ".join([key, *place]) + (": " + kinds.describe(kind) if kind else ": empty")
    tip += "".join(f"; {n}: {value_text(v)}" for n, v in marks)
    with cv.group(tip):
        cv.rect(x, y, cs, cs, "rg-cell", fill=fill)
        if kind:
            cv.rect(x + 3, y + 3, cs - 6, cs - 6 - 10 * len(marks), "rg-card", fill=kinds.tint(kind), rx=3)
            lines = fit_lines(kind, cs - 8, 10, max(1, 3 - len(marks)))
            y0 = y + (cs - 10 * len(marks)) / 2 - (len(lines) - 1) * 6 + 3
            for k, ln in enumerate(lines):
                cv.text(x + cs / 2, y0 + k * 12, ln, "rg-xs", anchor="middle", fill="#222")
        for k, (n, v) in enumerate(reversed(marks)):
            my = y + cs - 4 - 10 * k
            seat = seat_of(v)
            if seat is not None:
                cv.circle(x + 8, my - 3, 5, player_colour(seat))
                cv.text(x + 16, my, str(seat + 1), "rg-xs")
            else:
                text = fit_lines(f"{n} {value_text(v)}", cs - 4, 9, 1)[0]
                cv.text(x + 2, my, text, "rg-xs")


def _area_borders(cv, g, area, cs, x0, y0):
    """A dark edge between two cells of different areas."""
    of = area.of_cell
    for r in range(g.rows):
        for c in range(g.cols):
            i = r * g.cols + c
            if c + 1 < g.cols and of[i] != of[i + 1]:
                cv.line(x0 + (c + 1) * cs, y0 + r * cs, x0 + (c + 1) * cs, y0 + (r + 1) * cs, "#444", 2)
            if r + 1 < g.rows and of[i] != of[i + g.cols]:
                cv.line(x0 + c * cs, y0 + (r + 1) * cs, x0 + (c + 1) * cs, y0 + (r + 1) * cs, "#444", 2)


def _legend(g: T.GridInfo, attrs) -> list[tuple[str, str | None]]:
    """(text, line colour or None): the lines, the areas and the cell marks."""
    out = []
    for k, lt in enumerate(g.lines.values()):
        where = ", ".join(str(p) for p in lt.positions)
        out.append((f"{lt.name}: after {lt.axis}{'s' if len(lt.positions) > 1 else ''} {where}",
                    LINE_COLOURS[k % len(LINE_COLOURS)]))
    for a in g.areas.values():
        bounded = f", bounded by {', '.join(a.bounds)}" if a.bounds else ""
        out.append((f"{a.name}: {len(a.cells)} areas, tinted, dark edges between them{bounded}", None))
    for n, vals in attrs:
        if any(v is not None for v in vals.values()):
            out.append((f"{n}: under the cell's component (a player as a disc of their colour)", None))
    return out


def grid_width(g: T.GridInfo) -> float:
    """The least width the grid needs."""
    return LABEL + MIN_CELL * g.cols + 4
