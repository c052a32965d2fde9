"""`if ... can(p, A) ...: ... else: act p: ... A ...`: the moves of A that can() lists are the
ones the act offers next (runtime/helpers.py `_can_keep`, codegen/machines.py `m_if_stmt`):
the same decisions as asking can() and listing again, in every place that lists them."""

from __future__ import annotations

import pytest

from regola.loader import load_game
from regola.runtime.moves import IllegalMove
from regola.tools.crosscheck import crosscheck
from rules_helpers import load, moves, write
from test_language_actions import GUARDED as GUARDED_THEN

PLACING = """
game placing:
    players 2..2

enum Colour: white, black

record Stone:
    colour: Colour
components Stone:
    | name | colour | count |
    | w    | white  | 4     |
    | b    | black  | 4     |

grid board of Stone:
    size 2 by 3

per player:
    stones: pile of Stone
    points: int

global:
    rests: int

setup:
    fill player(1).stones with [w, w, w, w]
    fill player(2).stones with [b, b, b, b]

flow:
    repeat 5:
        for p in players:
            if count(p.stones) == 0 or not can(p, place):
                act p: rest
            else:
                act p: place | rest

action place(c in cells(board)):
    require board[c] == none, "that cell is taken"
    require all(board[n] == none for n in adjacent(c)) or c.col == 0, "not beside another stone"
    move (w if me == player(1) else b) from me.stones -> board[c]
    me.points += 1 + c.row * 3 + c.col

action rest():
    rests += 1

score: me.points
"""

# the game whose listing meets an error (test_language_actions.py), its can() before the `else`
_THEN = """            if can(p, pick):
                act p: pick | rest
            else:
                act p: rest"""
assert _THEN in GUARDED_THEN
GUARDED = GUARDED_THEN.replace(_THEN, """            if n > 100 or not can(p, pick):
                act p: rest
            else:
                act p: pick | rest""")


def test_the_act_takes_the_moves_can_listed(tmp_path):
    game = load(tmp_path, PLACING)
    src = game.source
    assert "_kept := _can_keep((GL_0, ), (G_can_0, ), (RG_can_0, ), S, V, " in src
    assert "if _kept[1] is not None: out.extend(_kept[1][0])" in src
    # the site function (legal_moves after a load) lists for itself
    site = src[src.index("def SITE_1("):]
    assert "_kept" not in site[:site.index("\ndef ", 1)]
    s = game.new_initial_state(0)
    assert moves(game, s) == ["place((0,0))", "place((0,1))", "place((0,2))",
                              "place((1,0))", "place((1,1))", "place((1,2))", "rest"]
    game.apply(s, game.parse_move(s, "place((0,1))"))
    # in the left column, or with no stone beside (orthogonally)
    assert moves(game, s) == ["place((0,0))", "place((1,0))", "place((1,2))", "rest"]
    fresh = game.load(game.dump(s))
    fresh.cache = None
    assert moves(game, fresh) == moves(game, s)
    with pytest.raises(IllegalMove, match="not beside another stone"):
        game.apply(s, game.parse_move(s, "place((0,2))"))


def test_games_with_kept_moves_play_as_the_plain_compilation(tmp_path):
    path = write(tmp_path, PLACING)
    assert "_can_keep" not in load_game(str(path), players=2, optimise=False).source
    rep = crosscheck(str(path), players=2, games=30)
    assert rep.agree and rep.decisions >= 150, rep


def test_a_listing_that_meets_an_error_gives_cans_own_answer_and_lists_again(tmp_path):
    """The generator tests the cheap `6 / k > 2` first, which divides by zero for k = 0: the
    can() answers as written (`_can`, a move exists) and keeps nothing; the act lists again,
    as written: the same moves as without the keeping."""
    game = load(tmp_path, GUARDED)
    assert "_can_keep" in game.source
    s = game.new_initial_state(0)
    assert moves(game, s) == ["pick(1)", "pick(2)", "rest"]
    rep = crosscheck(str(write(tmp_path, GUARDED, name="again")), players=2, games=5)
    assert rep.agree, rep


@pytest.mark.parametrize("change", [
    ("                act p: place | rest", "                act p: place | rest optional cost 0 points"),
    ("                act p: place | rest", "                act other(p): place | rest"),
    ("not can(p, place)", "not can(other(p), place)"),
    ("            else:\n                act p: place | rest",
     "            else:\n                rests += 0\n                act p: place | rest")])
def test_no_moves_are_kept_where_the_act_does_not_follow_for_the_same_player(tmp_path, change):
    """An act with an extra cost lists other moves; another player's, or a statement before the
    act, and the moves are listed again."""
    text = PLACING.replace("action rest():", "def other(p: Player) -> Player = player(2) if p == player(1) "
                                            "else player(1)\n\naction rest():")
    old, new = change
    assert old in text
    game = load(tmp_path, text.replace(old, new))
    assert "_can_keep" not in game.source
    s = game.new_initial_state(0)
    assert moves(game, s)
