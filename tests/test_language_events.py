"""Events (`emit` / `on`), `end game`, `on game end`, the end of the flow, `score` and `tiebreak`."""

from __future__ import annotations


import pytest

from regola.runtime.game import IllegalMove
from regola.runtime.helpers import RulesRuntimeError
from rules_helpers import diagnostics, load, moves, trace


EVENTS = """
game g:
    players 2..2
global:
    trace: int
    rounds: int
per player:
    pts: int
    tb: int
flow:
    loop:
        rounds += 1
        act player(1): go
        trace = trace * 10 + 9
action go(n in [1, 2, 3]):
    emit scored(n, me)
    trace = trace * 10 + 8
on scored(k: int, who: Player):
    trace = trace * 10 + 1
    who.pts += k
on scored(k: int, who: Player):
    trace = trace * 10 + 2
    if k == 3:
        choose bonus in [10, 20], by player(2):
            who.pts += bonus
    if who.pts >= 14:
        end game
        trace = 7
on game end:
    trace = trace * 10 + 6
    choose extra in [1, 2], by player(2):
        player(2).pts += extra
        player(2).tb += 1
score: me.pts
tiebreak: me.tb, -rounds
"""


@pytest.fixture
def events(tmp_path):
    game = load(tmp_path, EVENTS)
    return game, game.new_initial_state()


def test_emit_runs_every_handler_in_declaration_order(events):
    game, s = events
    game.apply(s, "go(2)")
    # handler 1, handler 2, then the rest of the action, then the rest of the flow
    assert trace(game, s) == 1289
    assert game.observe(s, 0)["player_state"]["player(1)"]["pts"] == 2


def test_handlers_may_make_decisions_by_other_players(events):
    game, s = events
    game.apply(s, "go(3)")
    assert game.decision(s)["kind"] == "choose"
    assert game.current_player(s) == 1
    assert trace(game, s) == 12                 # inside the second handler
    game.apply(s, "bonus=10")
    assert trace(game, s) == 1289               # handler, action and flow continued
    assert game.observe(s, 0)["player_state"]["player(1)"]["pts"] == 13


def test_end_game_stops_immediately_and_runs_on_game_end_with_its_choices(events):
    game, s = events
    game.apply(s, "go(2)")                      # 2 points
    game.apply(s, "go(3)")                      # 5 points, then a bonus of 10: 15 >= 14
    game.apply(s, "bonus=10")
    # 'end game': the rest of the handler, the action and the flow do not run
    assert trace(game, s) == 1289126
    assert not game.is_terminal(s)
    assert game.decision(s)["kind"] == "choose" and game.current_player(s) == 1
    assert moves(game, s) == ["extra=1", "extra=2"]
    game.apply(s, "extra=2")
    assert game.is_terminal(s)
    assert game.legal_moves(s) == []
    assert game.current_player(s) < 0
    with pytest.raises(IllegalMove, match="the game is over"):
        game.apply(s, "go(1)")
    assert game.scores(s) == [15, 2]
    assert game.winners(s) == [0]
    assert game.ranking_keys(s) == [(15, 0, -2), (2, 1, -2)]
    assert game.observe(s, 1)["over"] is True
    assert game.observe(s, 1)["scores"] == {"player(1)": 15, "player(2)": 2}


def test_flow_ending_without_end_game_runs_on_game_end_and_scores(tmp_path):
    game = load(tmp_path, """
        game g:
            players 2..2
        global:
            trace: int
        per player:
            pts: int
        flow:
            for p in players:
                p.pts += 3
            trace = 1
        on game end:
            trace = trace * 10 + 2
            player(2).pts += 1
        score: me.pts
    """)
    s = game.new_initial_state()
    assert game.is_terminal(s)
    assert trace(game, s) == 12
    assert game.scores(s) == [3, 4]
    assert game.winners(s) == [1]


TIES = """
game g:
    players 3..3
per player:
    pts: int
    cards: int
    coins: int
setup:
    SETUP
flow:
    pass
score: me.pts
tiebreak: me.cards, me.coins
"""


@pytest.mark.parametrize("setup, winners", [
    ("player(2).pts = 5", [1]),                                            # best score
    ("player(1).pts = 5\n    player(3).pts = 5\n    player(3).cards = 1", [2]),  # first tiebreak
    ("player(1).pts = 5\n    player(3).pts = 5\n    player(1).coins = 2", [0]),  # second tiebreak
    ("player(1).pts = 5\n    player(2).pts = 5", [0, 1]),                  # still tied: shared win
    ("pass", [0, 1, 2]),
])
def test_score_and_tiebreak_decide_the_winners(tmp_path, setup, winners):
    game = load(tmp_path, TIES.replace("SETUP", setup), players=3)
    s = game.new_initial_state()
    assert game.is_terminal(s)
    assert game.winners(s) == winners


def test_score_is_evaluated_for_each_player_as_me(tmp_path):
    game = load(tmp_path, TIES.replace("SETUP", "for p in players:\n        p.pts = 10 * p.cards + 7")
                .replace("me.pts", "me.pts + (1 if me == player(2) else 0)", 1), players=3)
    s = game.new_initial_state()
    assert game.scores(s) == [7, 8, 7]


def test_end_game_inside_on_game_end_is_an_error(tmp_path):
    diags = diagnostics(tmp_path, """
        game g:
            players 2..2
        flow:
            pass
        on game end:
            end game
        score: 0
    """)
    assert [d.code for d in diags if d.is_error] == ["E163"]


def test_end_game_reached_again_while_ending_is_a_rules_error(tmp_path):
    game = load(tmp_path, """
        game g:
            players 2..2
        procedure finish():
            end game
        flow:
            finish()
        on game end:
            finish()
        score: 0
    """)
    with pytest.raises(RulesRuntimeError, match="already ending"):
        game.new_initial_state()


def test_event_emitted_without_handlers_and_handlers_never_emitted_are_warnings(tmp_path):
    diags = diagnostics(tmp_path, """
        game g:
            players 2..2
        global:
            n: int
        flow:
            emit nobody_listens(1)
        on never_emitted(k: int):
            n = k
        score: n
    """)
    assert sorted((d.code, d.severity) for d in diags) == [("W002", "warning"), ("W002", "warning")]


def test_handlers_of_one_event_must_agree_on_parameters(tmp_path):
    diags = diagnostics(tmp_path, """
        game g:
            players 2..2
        global:
            n: int
        flow:
            emit ping(1)
        on ping(k: int):
            n = k
        on ping(b: bool):
            n = 0
        score: n
    """)
    assert [d.code for d in diags if d.is_error] == ["E105"]


def test_emit_with_wrong_arguments_is_an_error(tmp_path):
    diags = diagnostics(tmp_path, """
        game g:
            players 2..2
        global:
            n: int
        flow:
            emit ping(true)
            emit ping(1, 2)
        on ping(k: int):
            n = k
        score: n
    """)
    assert [d.code for d in diags if d.is_error] == ["E130", "E171"]


def test_an_error_in_the_score_is_a_rules_error_with_its_position(tmp_path):
    game = load(tmp_path, """
        game g:
            players 2..2
        per player:
            cards: int
        flow:
            pass
        score: 10 / me.cards
    """)
    with pytest.raises(RulesRuntimeError, match=r"game\.regola:8:8: division by zero"):
        game.new_initial_state()
