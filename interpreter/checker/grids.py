"""Pass 4, grids: each grid's size (a value known when the rules are loaded, worked out on
first use), the positions of its lines, and the geometry the compiler keeps in tables: the
cells adjacent to each cell, the cells beside each line and the cells of each area."""

from __future__ import annotations

from .. import ast
from .. import types as T
from ..limits import MAX_GRID_CELLS
from ..suggest import did_you_mean
from .common import CheckError

# values per cell a grid's lines and areas may need in all (see _grid_lines_and_areas); a
# limit of the declarations like those of interpreter/limits.py
_GRID_TABLE_CELLS = 1_000_000


class GridsPass:
    """pass_grids and ensure_grid."""

    def pass_grids(self):
        for g in self.p.grids.values():
            try:
                self.ensure_grid(g, self._grid_decls[g.name])
            except CheckError:
                pass

    def ensure_grid(self, g: T.GridInfo, at: ast.Node):
        """The grid's size and geometry, on first use (a constant may use a grid's cells, and a
        grid's size may use constants)."""
        state = self._grid_state.get(g.name)
        if state == "done":
            return
        if state == "checking":
            self.error(at, "E122", f"the size of grid '{g.name}' depends on itself")
            raise CheckError()
        self._nested(at, f"grid '{g.name}'")
        self._grid_state[g.name] = "checking"
        try:
            self._grid(g, self._grid_decls[g.name])
        finally:
            self._on_demand -= 1
        self._grid_state[g.name] = "done"

    def _grid(self, g: T.GridInfo, d: ast.GridDecl):
        sizes = [i for i in d.items if isinstance(i, ast.GridSize)]
        if len(sizes) != 1:
            self.error(d, "E140", f"grid '{g.name}' needs exactly one 'size ROWS by COLUMNS' line")
            return
        n_err = sum(d.is_error for d in self.diags)
        g.rows = self.static_int(sizes[0].rows, "the number of rows")
        g.cols = self.static_int(sizes[0].cols, "the number of columns")
        if g.rows <= 0 or g.cols <= 0:
            if sum(d.is_error for d in self.diags) == n_err:      # (not after an error in the size)
                self.error(sizes[0], "E140", "a grid needs at least one row and one column")
            g.rows = g.cols = 0
            return
        if g.rows * g.cols > MAX_GRID_CELLS:
            self.error(sizes[0], "E140", f"a grid of {g.rows:,} by {g.cols:,} cells; a grid may have at "
                                         f"most {MAX_GRID_CELLS:,} cells")
            g.rows = g.cols = 0
            return
        if not self._grid_lines_and_areas(g, d):
            g.rows = g.cols = 0
            return
        self._grid_geometry(g, d)

    def _grid_lines_and_areas(self, g: T.GridInfo, d: ast.GridDecl) -> bool:
        """The positions of the grid's lines; False if its lines and areas are more than its
        tables may hold: each area, line and position of a line keeps a value per cell (which
        area a cell is in, the distance of a cell to the line), so their number times the cells
        is bounded (a 100 x 100 grid may have 100 in all, a 10 x 10 grid 10,000)."""
        cells = g.rows * g.cols
        most = max(_GRID_TABLE_CELLS // cells, 1)
        used = 0
        for item in d.items:
            if isinstance(item, ast.GridLine):
                self._grid_line(g, item)
                used += 1 + len(g.lines[item.name].positions)
            elif isinstance(item, ast.GridArea):
                used += 1
            else:
                continue
            if used > most:
                self.error(item, "E140", f"more lines and areas than a grid of {cells:,} cells may have: at most "
                                         f"{most:,}, counting each area, each line and each row or column a "
                                         f"line lies after", "use fewer lines and areas, or a smaller grid")
                return False
        return True

    def _grid_line(self, g: T.GridInfo, item: ast.GridLine):
        v, t = self.static_value(item.positions, "the position of a line")
        if v is None:
            return
        positions = [v] if isinstance(v, int) else v
        if not isinstance(positions, list) or not all(isinstance(x, int) for x in positions):
            self.error(item.positions, "E141", "a line lies after a row or column number, or a list of them")
            return
        limit = g.rows if item.axis == "row" else g.cols
        for x in positions:
            if not 0 <= x < limit - 1:
                self.error(item.positions, "E141", f"a line after {item.axis} {x} is outside the grid "
                                                   f"({item.axis}s 0..{limit - 1})")
                return
        seen = set()
        for x in positions:
            if x in seen:
                self.error(item.positions, "E141", f"{item.axis} {x} is given twice for line '{item.name}'")
                return
            seen.add(x)
        g.lines[item.name].positions = sorted(positions)

    def _grid_geometry(self, g: T.GridInfo, d: ast.GridDecl):
        R, C = g.rows, g.cols
        cut_rows = {x for lt in g.lines.values() if lt.axis == "row" for x in lt.positions}
        cut_cols = {x for lt in g.lines.values() if lt.axis == "column" for x in lt.positions}
        g.adjacent = []
        for r in range(R):
            for c in range(C):
                adj = []
                if r > 0 and (r - 1) not in cut_rows:
                    adj.append((r - 1) * C + c)
                if c > 0 and (c - 1) not in cut_cols:
                    adj.append(r * C + c - 1)
                if c < C - 1 and c not in cut_cols:
                    adj.append(r * C + c + 1)
                if r < R - 1 and r not in cut_rows:
                    adj.append((r + 1) * C + c)
                g.adjacent.append(adj)
        for lt in g.lines.values():
            lt.beside = []
            for x in lt.positions:
                if lt.axis == "row":
                    lt.beside.append([x * C + c for c in range(C)] + [(x + 1) * C + c for c in range(C)])
                else:
                    lt.beside.append(sorted([r * C + x for r in range(R)] + [r * C + x + 1 for r in range(R)]))
        for item in d.items:
            if not isinstance(item, ast.GridArea):
                continue
            at = g.areas[item.name]
            rows_cut, cols_cut = set(), set()
            for b in item.bounds:
                lt = g.lines.get(b)
                if lt is None:
                    self.error(item, "E142", f"grid '{g.name}' has no line '{b}'{did_you_mean(b, g.lines)}")
                    continue
                (rows_cut if lt.axis == "row" else cols_cut).update(lt.positions)
            at.of_cell = [-1] * (R * C)
            at.cells = []
            for start in range(R * C):
                if at.of_cell[start] != -1:
                    continue
                idx = len(at.cells)
                members, todo = [], [start]
                at.of_cell[start] = idx
                while todo:
                    x = todo.pop()
                    members.append(x)
                    r, c = divmod(x, C)
                    for nr, nc, cut in ((r - 1, c, (r - 1) in rows_cut), (r + 1, c, r in rows_cut),
                                        (r, c - 1, (c - 1) in cols_cut), (r, c + 1, c in cols_cut)):
                        if 0 <= nr < R and 0 <= nc < C and not cut:
                            y = nr * C + nc
                            if at.of_cell[y] == -1:
                                at.of_cell[y] = idx
                                todo.append(y)
                at.cells.append(sorted(members))
