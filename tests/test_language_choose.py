"""`choose`: decisions inside an effect, `where`, `by p`, `optional`, single option, no option."""

from __future__ import annotations


import pytest

from regola.diagnostics import RulesError
from regola.runtime.game import IllegalMove
from regola.runtime.helpers import RulesRuntimeError
from rules_helpers import errors, load as _load, moves, trace


def load(tmp_path, text, players=3, name="game"):
    return _load(tmp_path, text, players=players, name=name)


PICK = """
game g:
    players 3..3
enum Colour: red, green, blue
global:
    picked: Colour or none
    trace: int
per player:
    pts: int
flow:
    act player(1): pick | idle
    trace = trace * 10 + 9
action idle():
    pass
action pick():
    choose c in values(Colour) where c != green, prompt "pick a colour":
        picked = c
        trace = trace * 10 + 1
    choose q in [p for p in players where p != me], by next_player(me):
        q.pts += 5
        trace = trace * 10 + 2
    choose x in [1, 2, 3] where x > 2:
        me.pts += x
        trace = trace * 10 + 3
    choose b in [true, false], optional:
        me.pts += 100 if b else 10
        trace = trace * 10 + 4
    choose y in [1, 2] where y > 5, optional:
        trace = 0
    trace = trace * 10 + 5
score: me.pts
"""


@pytest.fixture
def pick(tmp_path):
    game = load(tmp_path, PICK)
    s = game.new_initial_state()
    game.apply(s, "pick")
    return game, s


def test_choose_offers_the_values_passing_where(pick):
    game, s = pick
    d = game.decision(s)
    assert d["kind"] == "choose" and d["player"] == 0 and d["prompt"] == "pick a colour"
    assert moves(game, s) == ["c=red", "c=blue"]
    before = game.dump(s)["v"]
    for bad in ("c=green", (1,)):         # green, as a string and as a tuple
        with pytest.raises(IllegalMove) as ei:
            game.apply(s, bad)
        assert "c=red" in ei.value.reason and "c=blue" in ei.value.reason     # the options
    with pytest.raises(IllegalMove):
        game.apply(s, ())                # not optional: no pass
    assert game.dump(s)["v"] == before
    game.apply(s, "c=blue")
    assert game.observe(s, 0)["state"]["picked"] == "blue"


def test_choose_by_another_player_changes_the_current_player(pick):
    game, s = pick
    game.apply(s, "c=red")
    assert game.current_player(s) == 1              # next_player(player(1))
    assert game.decision(s)["player"] == 1
    assert moves(game, s) == ["q=player(2)", "q=player(3)"]
    game.apply(s, "q=player(3)")
    assert game.observe(s, 0)["player_state"]["player(3)"]["pts"] == 5


def test_single_option_is_chosen_automatically_and_optional_offers_pass(pick):
    game, s = pick
    game.apply(s, "c=red")
    game.apply(s, "q=player(2)")
    # x in [1, 2, 3] where x > 2 has one option: no decision; then the optional choice
    assert game.current_player(s) == 0
    assert trace(game, s) == 123
    assert game.observe(s, 0)["player_state"]["player(1)"]["pts"] == 3
    assert moves(game, s) == ["b=true", "b=false", "pass"]
    game.apply(s, "pass")
    # the optional choice with no option at all is skipped
    assert game.is_terminal(s)
    assert trace(game, s) == 12359
    assert game.scores(s) == [3, 5, 0]


def test_optional_choice_taken_runs_its_block(pick):
    game, s = pick
    for m in ["c=red", "q=player(2)", "b=false"]:
        game.apply(s, m)
    assert trace(game, s) == 123459
    assert game.scores(s) == [13, 5, 0]


def test_choice_without_block_binds_the_name_for_the_rest_of_the_block(tmp_path):
    game = load(tmp_path, """
        game g:
            players 2..2
        per player:
            pts: int
        flow:
            for p in players:
                act p: go
        action go():
            choose x in range(1, 4)
            me.pts += x * 10
        score: me.pts
    """, players=2)
    s = game.new_initial_state()
    assert moves(game, s) == ["x=1", "x=2", "x=3"]
    game.apply(s, "x=2")
    assert game.current_player(s) == 1
    game.apply(s, "x=3")
    assert game.scores(s) == [20, 30]


def test_choice_among_components_of_a_zone_and_cells(tmp_path):
    game = load(tmp_path, """
        game g:
            players 2..2
        record Card:
            value: int
        components Card:
            | name | value | count |
            | a    | 1     | 2     |
            | b    | 2     | 1     |
        grid board of Card:
            size 1 by 3
        per player:
            hand: pile of Card
        setup:
            fill player(1).hand with copies(Card)
        flow:
            repeat 2:
                choose k in player(1).hand, by player(1):
                    choose c in cells(board) where board[c] == none, by player(2):
                        move k from player(1).hand -> board[c]
        score: count(me.hand)
    """, players=2)
    s = game.new_initial_state()
    assert moves(game, s) == ["k=a", "k=b"]            # kinds, once each
    game.apply(s, "k=a")
    assert game.current_player(s) == 1
    assert moves(game, s) == ["c=(0,0)", "c=(0,1)", "c=(0,2)"]
    game.apply(s, "c=(0,1)")
    game.apply(s, "k=a")
    game.apply(s, "c=(0,2)")
    assert game.observe(s, 0)["state"]["board"] == {"(0,1)": "a", "(0,2)": "a"}
    assert game.scores(s) == [1, 0]


def test_choice_with_no_option_and_not_optional_is_a_rules_error(tmp_path):
    game = load(tmp_path, """
        game g:
            players 2..2
        global:
            n: int
        flow:
            choose x in [1, 2] where x > n + 5, by player(1):
                n = x
        score: n
    """, players=2)
    with pytest.raises(RulesRuntimeError, match=r"game\.regola:7:5: no legal option"):
        game.new_initial_state()


def test_a_flat_optional_choice_binds_none_on_pass(tmp_path):
    text = """
        game g:
            players 2..2
        global:
            n: int
        flow:
            loop:
                choose x in [1, 2], by player(1), optional
                if x == none:
                    break
                n += x
        score: n
    """
    game = load(tmp_path, text, players=2)
    s = game.new_initial_state()
    assert moves(game, s) == ["x=1", "x=2", "pass"]
    game.apply(s, "x=2")
    game.apply(s, "x=1")
    game.apply(s, "pass")
    assert game.is_terminal(s) and game.scores(s) == [3, 3]
    errs = errors(tmp_path, text.replace("if x == none:", "if x + 1 > 9:").replace("break", "pass"), name="g2")
    assert errs == []        # x may be none: arithmetic on it is a run-time question, not a type error


def test_choice_values_must_be_known_when_loaded(tmp_path):
    errs = errors(tmp_path, """
        game g:
            players 2..2
        global:
            n: int
        flow:
            choose x in [n, n + 1], by player(1):
                n = x
        score: n
    """)
    assert [e.code for e in errs] == ["E132"]


def test_choose_without_by_where_no_player_acts(tmp_path):
    text = """
        game g:
            players 2..2
        global:
            n: int
        flow:
            choose x in [1, 2]:
                n = x
        score: n
    """
    try:
        game = load(tmp_path, text, players=2)
        s = game.new_initial_state()
    except (RulesError, RulesRuntimeError):
        return                              # refused: fine
    assert game.current_player(s) in (0, 1)
    game.observe(s, 0)
