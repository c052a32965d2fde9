"""The PettingZoo adapter (adapters/pettingzoo.py) passes PettingZoo's own tests on every
bundled game: api_test, seed_test, and parallel_api_test through turn_based_aec_to_parallel."""

import numpy as np
import pytest

pz = pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

from pettingzoo.test import api_test, parallel_api_test, seed_test  # noqa: E402
from pettingzoo.utils.conversions import turn_based_aec_to_parallel  # noqa: E402

from regola import IllegalMove  # noqa: E402
from regola.adapters import pettingzoo as rz  # noqa: E402

GAMES = [("tic-tac-toe", 2, []), ("connect-four", 2, []), ("cant-stop", 3, []), ("love-letter", 3, []),
         ("sushi-go", 3, []), ("hanabi", 3, []), ("lungarno", 3, []),
         ("lions-of-lydia", 2, ["croesus", "tomb"]), ("lorenzo-il-magnifico", 2, ["leaders"]),
         ("lorenzo-il-magnifico", 5, ["leaders", "houses_of_renaissance"])]
IDS = [f"{g}-{n}p{'-' + '+'.join(m) if m else ''}" for g, n, m in GAMES]


@pytest.mark.parametrize("rules, players, mods", GAMES, ids=IDS)
def test_api_test(rules, players, mods):
    api_test(rz.env(rules, players=players, modules=mods), num_cycles=1000)


@pytest.mark.parametrize("rules, players, mods", GAMES, ids=IDS)
def test_seed_test(rules, players, mods):
    seed_test(lambda: rz.env(rules, players=players, modules=mods), num_cycles=500)


@pytest.mark.parametrize("rules, players, mods", GAMES, ids=IDS)
def test_parallel_api_test(rules, players, mods):
    parallel_api_test(turn_based_aec_to_parallel(rz.env(rules, players=players, modules=mods)), num_cycles=500)


def test_a_whole_game_and_its_rewards():
    env = rz.env("tic-tac-toe", render_mode="ansi")
    env.reset(seed=3)
    rewards = {a: 0.0 for a in env.possible_agents}
    steps = 0
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        rewards[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        assert obs["action_mask"].dtype == np.int8 and obs["action_mask"].sum() >= 1
        action = int(np.flatnonzero(obs["action_mask"])[0])
        env.step(action)
        steps += 1
    assert steps >= 5 and sum(rewards.values()) == pytest.approx(1.0)    # shares of the win
    assert isinstance(env.render(), str)


def test_an_illegal_action_is_refused_and_the_state_kept():
    env = rz.env("connect-four")
    env.reset(seed=0)
    before = env.game.dump(env.state)
    with pytest.raises(IllegalMove):
        env.step(0)                              # id 0 is 'pass', not a move here
    assert env.game.dump(env.state) == before


def test_observations_hide_what_the_agent_cannot_see():
    env = rz.env("love-letter", players=2)
    env.reset(seed=1)
    game, s = env.game, env.state
    for i, agent in enumerate(env.possible_agents):
        again = game.resample(s, i, 7)
        env.state = again
        a = env.observe(agent)["observation"]
        env.state = s
        assert np.array_equal(a, env.observe(agent)["observation"])
