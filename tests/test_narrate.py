"""What a move did, told in the game's words from the viewer's observations (tools/narrate.py):
`regola play` after every move, `regola replay --verbose` for a log."""

import io
import re
import sys

from regola.loader import load_game
from regola.tools.cli import main
from regola.tools.narrate import changes, narrate
from regola.tools.play import PlaySession


def test_changes_name_what_changed_and_only_what_the_viewer_sees():
    before = {"state": {"row": {"0": "a", "1": None}, "pile": {"count": 2, "contents": {"x": 2}}},
              "player_state": {"player(1)": {"coins": 3, "hand": {"count": 1, "contents": {"x": 1}}},
                               "player(2)": {"coins": 3, "hand": {"count": 1}}}}
    after = {"state": {"row": {"0": None, "1": "a"}, "pile": {"count": 1, "contents": {"x": 1}}},
             "player_state": {"player(1)": {"coins": 5, "hand": {"count": 3, "contents": {"x": 1, "y": 2}}},
                              "player(2)": {"coins": 3, "hand": {"count": 2}}}}
    assert changes(before, after) == ["row[0] a -> none", "row[1] none -> a", "pile - x",
                                      "player(1).coins 3 -> 5", "player(1).hand + y x2",
                                      "player(2).hand +1 (now 2)"]
    lines = narrate(before, after)
    assert all(len(x) <= 80 for x in lines) and lines[0].startswith("    row[0] a -> none; ")


def test_play_tells_what_each_move_did_without_naming_a_hidden_tile():
    game = load_game("lungarno", players=3)
    out = io.StringIO()
    PlaySession(game, "lungarno", [], ["random"], 3, out=out).run()
    text = out.getvalue()
    assert re.search(r"plays play_tile\(\?, \(\d+,\d+\)\)\n    board\[\(\d+,\d+\)\] none -> \w+", text)
    # the spectator never sees what a hand holds, only how many
    assert re.search(r"player\(\d\)\.hand [+-]\d \(now \d\)", text)
    assert not re.search(r"player\(\d\)\.hand [+-] \w", text)


def test_replay_verbose_tells_every_move(tmp_path, capsys):
    assert main(["simulate", "tic-tac-toe", "--games", "1", "--log", str(tmp_path)]) == 0
    log = next(tmp_path.glob("*.jsonl"))
    capsys.readouterr()
    assert main(["replay", "--verbose", str(log)]) == 0
    out = capsys.readouterr().out
    assert re.search(r"\s+2: player\(1\) plays mark\(\(\d,\d\)\)\n\s+board\[\(\d,\d\)\] none -> X; "
                     r"player\(1\)\.marks - X", out)
    assert "moves and 0 chance outcomes verified" in out


def test_internal_variables_are_left_out_of_views_and_narration(tmp_path):
    from rules_helpers import load
    from regola.tools.view import render_view
    game = load(tmp_path, """
game g:
    players 2
global:
    steps_taken: int, internal = 0
    pot: int = 0
per player:
    scratch: int, internal = 0
flow:
    act player(1): go | stay
    act player(1): go | stay
action go():
    steps_taken += 1
    me.scratch += 1
    pot += 2
action stay():
    pass
score: pot
""")
    s = game.new_initial_state()
    before = game.observe(s, 0)
    game.apply(s, "go")
    after = game.observe(s, 0)
    assert after["state"]["steps_taken"] == 1          # observe keeps them (adapters, tests)
    view = render_view(game, s, 0)
    assert "steps_taken" not in view and "scratch" not in view and "pot: 2" in view
    out = io.StringIO()
    session = PlaySession(game, "g", [], ["first"], 0, out=out)
    session.run()
    assert "steps_taken" not in out.getvalue() and "pot 0 -> 2" in out.getvalue()
