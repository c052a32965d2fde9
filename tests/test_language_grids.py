"""Grids: cells, lines, areas, adjacency and the grid functions.

The board used here (4 rows x 5 columns, a river after row 1, streets after columns 1 and 3):

        col 0 1 | 2 3 | 4
    row 0   .  . | .  . | .
    row 1   .  . | .  . | .
            ---- river ----
    row 2   .  . | .  . | .
    row 3   .  . | .  . | .

Districts (bounded by river and street) are numbered in reading order: 0 = rows 0-1 cols 0-1,
1 = rows 0-1 cols 2-3, 2 = rows 0-1 col 4, 3..5 likewise south of the river.
"""

from __future__ import annotations


import pytest

from regola.loader import load_game
from regola.runtime.helpers import RulesRuntimeError
from regola.snippets import SnippetCompiler
from rules_helpers import errors, write


CITY = """
game city:
    players 2..2
record Tile:
    kind: int
components Tile:
    | name  | kind | count |
    | house | 1    | 20    |
const ROWS = 4
const STREETS = [1, 3]
grid board of Tile:
    size ROWS by 5
    line river after row 1
    line street after columns STREETS
    area district bounded by river, street
    area bank bounded by river
    cell owner: Player or none
global:
    supply: pile of Tile
setup:
    fill supply with copies(Tile)
flow:
    loop:
        act player(1): build
action build(c in cells(board) where board[c] == none):
    require beside(c, river) or any(board[n] != none for n in adjacent(c)),
        "build next to the river or to another house"
    move house from supply -> board[c]
    owner[c] = me
def neighbours(c: Cell) -> int = count(adjacent(c))
def nearest(c: Cell) -> int = min(distance(c, s) for s in values(street))
score: count(c for c in cells(board) where owner[c] == me)
assert count(values(district)) == 6, "six districts"
assert count(values(bank)) == 2, "two banks"
assert [count(cells(d)) for d in values(district)] == [4, 4, 2, 4, 4, 2], "district sizes"
assert all(count(cells(s)) == 8 for s in values(street)), "eight cells beside each street"
assert count(cells(board)) == 20, "twenty cells"
"""


@pytest.fixture(scope="module")
def city(tmp_path_factory):
    game = load_game(str(write(tmp_path_factory.mktemp("grids"), CITY)), players=2)
    s = game.new_initial_state()
    sc = SnippetCompiler(game)
    return game, s, lambda expr: sc.expression(expr)(s)


def cells(ev, expr):
    """A list of cells as (row, col) pairs."""
    return sorted((c // 5, c % 5) for c in ev(expr))


def test_cells_are_written_cell_row_col(city):
    game, s, ev = city
    assert ev("cell(2, 3).row") == 2
    assert ev("cell(2, 3).col") == 3
    assert ev("count(cells(board))") == 20
    assert ev("cell(0, 0) == cell(0, 0)") is True
    assert ev("cell(0, 1) != cell(1, 0)") is True


def test_cell_outside_the_grid_is_a_rules_error(city):
    game, s, ev = city
    with pytest.raises(RulesRuntimeError, match=r"cell\(4, 0\) is outside the grid \(4 x 5\)"):
        ev("cell(4, 0)")
    # the same with a row or column only known when the rules run (a different code path)
    for expr, where in [("[cell(r, 1) for r in [4]][0]", r"cell\(4, 1\)"),
                        ("[cell(0, c) for c in [-1]][0]", r"cell\(0, -1\)"),
                        ("[cell(r, c) for r in [1] for c in [5]][0]", r"cell\(1, 5\)"),
                        # one side computed, the other a name (codegen/expr.py b_cell)
                        ("[cell(r + 1, c) for r in [3] for c in [0]][0]", r"cell\(4, 0\)"),
                        ("[cell(r, c - 2) for r in [0] for c in [1]][0]", r"cell\(0, -1\)"),
                        ("[cell(r, c * 2) for r in [5] for c in [1]][0]", r"cell\(5, 2\)")]:
        with pytest.raises(RulesRuntimeError, match=where + r" is outside the grid"):
            ev(expr)
    assert ev("[cell(r, c) for r in [3] for c in [4]][0]") == ev("cell(3, 4)")
    assert ev("[cell(r + 1, c) for r in [2] for c in [4]][0]") == ev("cell(3, 4)")
    assert ev("[cell(r, c - 1) for r in [3] for c in [4]][0]") == ev("cell(3, 3)")


def test_adjacency_is_orthogonal_and_does_not_cross_lines(city):
    _, _, ev = city
    assert cells(ev, "adjacent(cell(0, 0))") == [(0, 1), (1, 0)]
    # (1, 1): the river is below, the street to the right
    assert cells(ev, "adjacent(cell(1, 1))") == [(0, 1), (1, 0)]
    # (2, 2): the river is above, a street to the left
    assert cells(ev, "adjacent(cell(2, 2))") == [(2, 3), (3, 2)]
    # (0, 4): a street to the left, the edge to the right
    assert cells(ev, "adjacent(cell(0, 4))") == [(1, 4)]
    assert ev("neighbours(cell(3, 4))") == 1
    assert ev("neighbours(cell(0, 2))") == 2


def test_beside_a_kind_of_line_or_one_line(city):
    _, _, ev = city
    assert ev("beside(cell(1, 0), river)") is True
    assert ev("beside(cell(2, 4), river)") is True
    assert ev("beside(cell(0, 0), river)") is False
    assert ev("beside(cell(3, 1), street)") is True       # left of the first street
    assert ev("beside(cell(3, 4), street)") is True       # right of the second
    assert ev("beside(cell(3, 0), street)") is False
    # one line: values(street) are numbered from left to right
    assert ev("beside(cell(3, 1), values(street)[0])") is True
    assert ev("beside(cell(3, 1), values(street)[1])") is False


def test_distance_counts_the_cells_between_a_cell_and_a_line(city):
    _, _, ev = city
    assert ev("[distance(cell(0, 0), s) for s in values(street)]") == [1, 3]
    assert ev("[distance(cell(0, 4), s) for s in values(street)]") == [2, 0]
    assert ev("distance(cell(3, 2), values(street)[0])") == 0
    assert ev("distance(cell(0, 0), values(river)[0])") == 1
    assert ev("distance(cell(3, 0), values(river)[0])") == 1
    assert ev("nearest(cell(0, 0))") == 1


def test_cells_of_a_line_are_the_cells_beside_it(city):
    _, _, ev = city
    assert cells(ev, "cells(values(street)[0])") == [(r, c) for r in range(4) for c in (1, 2)]
    assert cells(ev, "cells(values(river)[0])") == [(r, c) for r in (1, 2) for c in range(5)]


def test_areas_are_connected_regions_bounded_by_lines_numbered_in_reading_order(city):
    _, _, ev = city
    assert cells(ev, "cells(cell(0, 0).district)") == [(0, 0), (0, 1), (1, 0), (1, 1)]
    assert cells(ev, "cells(cell(3, 3).district)") == [(2, 2), (2, 3), (3, 2), (3, 3)]
    assert cells(ev, "cells(cell(1, 4).district)") == [(0, 4), (1, 4)]
    assert ev("[cell(r, 0).district for r in range(0, 4)]") == [0, 0, 3, 3]
    assert ev("[cell(0, c).district for c in range(0, 5)]") == [0, 0, 1, 1, 2]
    # an area bounded by the river alone: the two banks
    assert ev("count(cells(cell(0, 0).bank))") == 10
    assert ev("cell(0, 4).bank == cell(1, 0).bank") is True
    assert ev("cell(0, 4).bank != cell(2, 0).bank") is True


def test_row_and_column_cells(city):
    _, _, ev = city
    # whole rows and columns, across lines
    assert cells(ev, "row_cells(cell(2, 3))") == [(2, c) for c in range(5)]
    assert cells(ev, "col_cells(cell(2, 3))") == [(r, 3) for r in range(4)]


def test_grid_contents_and_cell_attributes(tmp_path):
    game = load_game(str(write(tmp_path, CITY)), players=2)
    s = game.new_initial_state()
    legal = [game.move_str(s, m) for m in game.legal_moves(s)]
    # only the cells beside the river may be built at first
    assert legal == [f"build(({r},{c}))" for r in (1, 2) for c in range(5)]
    game.apply(s, "build((1,3))")
    legal = [game.move_str(s, m) for m in game.legal_moves(s)]
    assert "build((0,3))" in legal             # next to the new house
    assert "build((0,4))" not in legal         # across the street from it
    assert "build((1,3))" not in legal         # occupied
    st = game.observe(s, 1)["state"]
    assert st["board"] == {"(1,3)": "house"}
    assert st["owner"] == {"(1,3)": "player(1)"}
    assert game.scores(s) == [1, 0]
    sc = SnippetCompiler(game)
    assert sc.expression("board[cell(1, 3)] == house")(s) is True
    assert sc.expression("board[cell(0, 0)] == none")(s) is True
    assert sc.expression("owner[cell(0, 0)] == none")(s) is True


@pytest.mark.parametrize("item, code", [
    ("line river after row 3", "E141"),        # a line after the last row is outside the grid
    ("area zone bounded by canal", "E142"),    # no such line
])
def test_grid_declaration_errors(tmp_path, item, code):
    errs = errors(tmp_path, f"""
        game g:
            players 2..2
        record Tile:
            kind: int
        components Tile:
            | name  | kind |
            | house | 1    |
        grid board of Tile:
            size 4 by 4
            {item}
        flow:
            pass
        score: 0
    """)
    assert code in [e.code for e in errs]
