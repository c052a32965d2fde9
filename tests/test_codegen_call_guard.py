"""A call of a procedure that may wait and whose body is one `if` with no `else`: the call
asks the `if`'s test of its arguments first and makes no frame when it is false
(codegen/machines.py `m_call_stmt`). Lorenzo's `gain_all` calls `gain` for each of nine
goods, most of them none."""

from __future__ import annotations

import pytest

from regola.loader import load_game
from regola.runtime.helpers import RulesRuntimeError
from regola.tools.crosscheck import crosscheck
from rules_helpers import line_of, load, moves, write

GAINS = """
game gains:
    players 2..2

per player:
    points: int

global:
    asked: int
    offered: int

flow:
    repeat 3:
        for p in players:
            for k in range(0, 4):
                gain(p, k - 1)

procedure gain(p: Player, n: int):
    if n > 0 and p.points < 20:
        asked += 1
        offered = n
        act p: take_all | take_one

action take_all(k in range(1, 3)):
    require k <= offered, "not offered"
    me.points += k

action take_one():
    me.points += 1

score: me.points
"""


def test_a_call_whose_test_is_false_makes_no_frame(tmp_path):
    game = load(tmp_path, GAINS)
    assert "if ((_gn_" in game.source                # the test, asked at the call
    s = game.new_initial_state(0)
    # the calls with n = -1 and 0 did nothing; n = 1 asks
    assert moves(game, s) == ["take_all(1)", "take_one"]
    game.apply(s, game.parse_move(s, "take_all(1)"))
    assert moves(game, s) == ["take_all(1)", "take_all(2)", "take_one"]
    assert len(s.stack) == 2                        # the flow and the one call waiting


def test_calls_with_a_test_play_as_the_plain_compilation(tmp_path):
    path = write(tmp_path, GAINS)
    assert "_gn_" not in load_game(str(path), players=2, optimise=False).source
    rep = crosscheck(str(path), players=2, games=20)
    assert rep.agree and rep.decisions >= 100, rep


def test_a_test_that_fails_is_located_at_the_procedures_if(tmp_path):
    text = GAINS.replace("    if n > 0 and p.points < 20:", "    if 6 / (n + 1) > 1:")
    game = load(tmp_path, text)
    assert "_gn_" in game.source
    line = line_of(text, "if 6 / (n + 1) > 1:")
    with pytest.raises(RulesRuntimeError, match=rf"game\.regola:{line}:\d+: division by zero"):
        game.new_initial_state(0)


@pytest.mark.parametrize("old, new", [
    ("        act p: take_all | take_one", "        act p: take_all | take_one\n    else:\n        asked += 0"),
    ("    if n > 0 and p.points < 20:", "    asked += 0\n    if n > 0 and p.points < 20:"),
])
def test_only_a_body_that_is_one_if_alone_is_asked_at_the_call(tmp_path, old, new):
    game = load(tmp_path, GAINS.replace(old, new))
    assert "_gn_" not in game.source
    s = game.new_initial_state(0)
    assert moves(game, s) == ["take_all(1)", "take_one"]
