"""Moves taken from per-action tables (codegen/moves.py, `_move_table`): the same moves, in the
same order, as the conditions of the rules give, whatever the parameters' types."""

from __future__ import annotations

from rules_helpers import function_source, load, moves

GAME = """
    game g:
        players 2..2
    enum Colour: red, green, blue
    record Tile:
        colour: Colour
    grid board of Tile:
        size 2 by 3
        cell colour_of: Colour or none
    global:
        turns: int
    action paint(k in values(Colour), c in cells(board)):
        require colour_of[c] == none, "that cell is painted"
        require k != green or c.row == 0, "green only on the top row"
        colour_of[c] = k
    action wait(n in range(1, 3)):
        require n <= 2
        turns += n
    action shout():
        turns += 1
    flow:
        loop:
            for p in players:
                if turns >= 4:
                    end game
                act p: paint | wait | shout
    score: turns
    """


def test_table_moves_equal_the_rules_and_keep_their_order(tmp_path):
    game = load(tmp_path, GAME)
    assert "MV0 = " in game.source                    # paint(k, c): colour x cell
    s = game.new_initial_state()
    got = moves(game, s)
    want = [f"paint({k}, {c})" for k in ("red", "green", "blue") for c in
            ("(0,0)", "(0,1)", "(0,2)", "(1,0)", "(1,1)", "(1,2)") if k != "green" or c.startswith("(0")]
    paint = [m.replace(" ", "") for m in got if m.startswith("paint")]
    assert paint == [w.replace(" ", "") for w in want]
    assert [m for m in got if not m.startswith("paint")] == ["wait(1)", "wait(2)", "shout"]
    # the tuples are the moves' own form: (action, *params)
    for m in game.legal_moves(s):
        assert type(m) is tuple and game.move_from_id(s, game.move_id(s, m)) == m


def test_a_painted_cell_leaves_the_table_row_and_play_goes_on(tmp_path):
    game = load(tmp_path, GAME)
    s = game.new_initial_state()
    game.apply(s, "paint(blue, (1,1))")
    assert not any("(1,1)" in m.replace(" ", "") for m in moves(game, s))
    game.apply(s, "wait(2)")
    game.apply(s, "wait(2)")
    assert game.is_terminal(s)


def test_a_single_filtered_parameter_appends_its_moves_as_it_finds_them(tmp_path):
    """(no list of the values that pass and a second walk over it to the moves)"""
    game = load(tmp_path, GAME.replace("action wait(n in range(1, 3)):\n        require n <= 2",
                                       "action wait(n in range(1, 5)):\n        require n <= 2 + turns % 2"))
    wait = function_source(game, "G_0_1")             # the site's listing of wait(n)
    assert "_dom" not in wait and "out.append(MV1[" in wait, wait
    s = game.new_initial_state()
    assert [m for m in moves(game, s) if m.startswith("wait")] == ["wait(1)", "wait(2)"]
    game.apply(s, "wait(1)")
    assert [m for m in moves(game, s) if m.startswith("wait")] == ["wait(1)", "wait(2)", "wait(3)"]
    game.apply(s, "wait(3)")
    assert game.is_terminal(s)
