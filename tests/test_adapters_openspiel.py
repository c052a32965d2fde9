"""The OpenSpiel adapter (adapters/openspiel.py): OpenSpiel's random_sim_test with
serialization on every bundled game, and OpenSpiel's own MCTSBot and Python ISMCTSBot playing
whole games through it."""

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from regola.adapters import openspiel  # noqa: E402,F401 (registers the bundled games)

GAMES = ["python_regola_tic_tac_toe", "python_regola_connect_four", "python_regola_cant_stop(players=3)",
         "python_regola_love_letter(players=4)", "python_regola_sushi_go(players=3)",
         "python_regola_hanabi(players=2)", "python_regola_lungarno(players=4)",
         "python_regola_lions_of_lydia(players=3,modules=croesus+pactolus+tomb)",
         "python_regola_lorenzo_il_magnifico(players=4,modules=advanced+leaders)",
         "python_regola_lorenzo_il_magnifico(players=5,modules=leaders+houses_of_renaissance)"]


@pytest.mark.parametrize("name", GAMES)
def test_random_sim_test_with_serialization(name):
    game = pyspiel.load_game(name)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_the_game_type_comes_from_the_declarations():
    ttt = pyspiel.load_game("python_regola_tic_tac_toe").get_type()
    assert ttt.chance_mode == pyspiel.GameType.ChanceMode.DETERMINISTIC
    assert ttt.information == pyspiel.GameType.Information.PERFECT_INFORMATION
    ll = pyspiel.load_game("python_regola_love_letter(players=2)")
    assert ll.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert ll.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert ll.num_players() == 2 and ll.num_distinct_actions() == ll.regola.action_space
    cs = pyspiel.load_game("python_regola_cant_stop(players=2)")
    assert cs.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC


def test_information_state_strings_hide_what_the_player_cannot_see():
    game = pyspiel.load_game("python_regola_love_letter(players=2)")
    rng = np.random.RandomState(3)
    state = game.new_initial_state()
    checked = 0
    while not state.is_terminal() and checked < 20:
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(actions, p=probs)))
            continue
        p = state.current_player()
        other = state.resample_from_infostate(p, pyspiel.UniformProbabilitySampler(0., 1.))
        assert other.information_state_string(p) == state.information_state_string(p)
        assert other.observation_tensor(p) == state.observation_tensor(p)
        assert other.legal_actions() == state.legal_actions()
        checked += 1
        state.apply_action(int(rng.choice(state.legal_actions())))
    assert checked >= 5


def _play(game, bots, seed=0):
    rng = np.random.RandomState(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            state.apply_action(bots[state.current_player()].step(state))
    return state.returns()


def test_openspiel_mcts_plays_connect_four_through_the_adapter():
    from open_spiel.python.algorithms import mcts
    game = pyspiel.load_game("python_regola_connect_four")
    ev = mcts.RandomRolloutEvaluator(1, np.random.RandomState(1))
    bots = [mcts.MCTSBot(game, 1.4, 60, ev, random_state=np.random.RandomState(p)) for p in range(2)]
    returns = _play(game, bots)
    assert sorted(returns) in ([0.0, 1.0], [0.5, 0.5])


def test_openspiel_ismcts_plays_love_letter_through_the_adapter():
    from open_spiel.python.algorithms import ismcts, mcts
    game = pyspiel.load_game("python_regola_love_letter(players=2)")
    ev = mcts.RandomRolloutEvaluator(1, np.random.RandomState(2))
    bots = [ismcts.ISMCTSBot(game, ev, 1.4, 30, random_state=np.random.RandomState(p)) for p in range(2)]
    returns = _play(game, bots, seed=4)
    assert sum(returns) == pytest.approx(1.0)
