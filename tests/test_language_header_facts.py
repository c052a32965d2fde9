"""`at most N moves` and `scores A..B` in a game's header (docs/language.md, "The game"):
facts for adapters and bots, held to by `regola simulate`."""

import pytest

from regola.loader import load_game
from regola.runtime.helpers import RulesRuntimeError
from regola.tools import cli
from regola.tools.agents import make_agent
from regola.tools.match import GameDidNotEnd, play
from rules_helpers import errors, write

COUNT = """
game count:
    title "Count"
    players 2
    at most LIMIT moves
    scores LOW..HIGH
const TOP = 5
global:
    n: int
flow:
    loop:
        for p in players:
            act p: up | down
            if n >= 3 or n <= -3:
                end game
action up():
    n += 1
action down():
    n -= 1
score: n if me == player(1) else 0 - n
"""


def _game(tmp_path, limit="100", low="-3", high="3", name="game"):
    text = COUNT.replace("LIMIT", limit).replace("LOW", low).replace("HIGH", high)
    return str(write(tmp_path, text, name=name))


def test_the_facts_are_what_the_header_says(tmp_path):
    game = load_game(_game(tmp_path))
    facts = game.facts()
    assert facts["max_game_length"] == 100 and facts["score_bounds"] == [-3, 3]
    assert load_game("tic-tac-toe").facts()["max_game_length"] == 9
    assert load_game("lungarno").facts()["max_game_length"] is None       # nothing declared


def test_a_constant_may_bound_the_scores(tmp_path):
    game = load_game(_game(tmp_path, high="TOP"))
    assert game.facts()["score_bounds"] == [-3, 5]


def test_a_game_past_its_declared_length_is_an_error(tmp_path):
    game = load_game(_game(tmp_path, limit="2"))
    agents = [make_agent("first", 0), make_agent("first", 1)]        # up, up, up: 3 moves
    with pytest.raises(GameDidNotEnd, match="the rules' 'at most 2 moves'"):
        play(game, agents, 0)


def test_a_score_outside_the_declared_range_is_an_error(tmp_path, capsys):
    game = load_game(_game(tmp_path, low="0", high="2"))
    agents = [make_agent("first", 0), make_agent("first", 1)]
    with pytest.raises(RulesRuntimeError, match=r"player\(1\) scores 3, outside the rules' 'scores 0..2'"):
        play(game, agents, 0)
    assert cli.main(["simulate", _game(tmp_path, low="0", high="2", name="g2"), "--bots", "first", "--games", "1"]) == 1
    assert "outside the rules' 'scores 0..2'" in capsys.readouterr().err


@pytest.mark.parametrize("limit, low, high, words", [
    ("0", "0", "1", "at least 1 move"), ("5", "3", "1", "the lowest score is above the highest"),
    ("5", "0", "NOPE", "unknown name 'NOPE'")])
def test_nonsense_in_the_header_is_refused(tmp_path, limit, low, high, words):
    text = COUNT.replace("LIMIT", limit).replace("LOW", low).replace("HIGH", high)
    assert any(words in e.message for e in errors(tmp_path, text))


def test_openspiel_is_told_the_longest_game():
    pyspiel = pytest.importorskip("pyspiel")
    from regola.adapters import openspiel  # noqa: F401
    assert pyspiel.load_game("python_regola_tic_tac_toe").max_game_length() == 9
