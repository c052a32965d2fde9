"""Any encoded game as a PettingZoo AEC environment.

    from regola.adapters import pettingzoo
    env = pettingzoo.env("lungarno", players=4)
    env.reset(seed=42)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        mask = obs["action_mask"]
        action = None if terminated or truncated else env.action_space(agent).sample(mask)
        env.step(action)

Agents are `player_1` ... `player_N`. The observation is a dict: `observation`, the
game's observation vector for that player (`game.observation_tensor`, float32, what the
player may see and nothing else; its layout is `env.game.observation_layout()`), and
`action_mask`, 1 for each legal action id of the agent to move (int8, zeros for the
others). Actions are the game's static action ids (`Discrete(game.action_space)`;
`env.game.action_str(i)` names any of them); an illegal one raises `regola.IllegalMove`.
Chance is resolved inside the environment from the game's seeded generator, so
`reset(seed=s)` and the same actions give the same game. A player may move several times in a
row (the next agent is whoever the rules ask). At the end every agent gets its share of the
win as its reward (1/k to each of k winners, 0 to the others); `max_moves` truncates a game
that runs longer. `render()` is the text view of a spectator ("ansi" returns it, "human"
prints it).
"""

from __future__ import annotations

import random

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from regola import load_game


def env(rules, players=None, modules=(), options=None, render_mode=None, max_moves=None):
    """A new environment for a bundled game's name or a rules path."""
    return RegolaAEC(rules, players=players, modules=modules, options=options, render_mode=render_mode,
                     max_moves=max_moves)


class RegolaAEC(AECEnv):
    metadata = {"render_modes": ["ansi", "human"], "name": "regola", "is_parallelizable": True}

    def __init__(self, rules, players=None, modules=(), options=None, render_mode=None, max_moves=None):
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}, not {render_mode!r}")
        self.game = load_game(rules, modules=list(modules), players=players, options=options)
        self.metadata = dict(self.metadata, name=f"regola_{self.game.name}")
        self.render_mode = render_mode
        self.max_moves = max_moves
        n = self.game.num_players
        self.possible_agents = [f"player_{i + 1}" for i in range(n)]
        self._index = {a: i for i, a in enumerate(self.possible_agents)}
        size, actions = self.game.observation_size(), self.game.action_space
        self._obs_space = spaces.Dict({
            "observation": spaces.Box(low=-np.inf, high=np.inf, shape=(size,), dtype=np.float32),
            "action_mask": spaces.Box(low=0, high=1, shape=(actions,), dtype=np.int8)})
        self._act_space = spaces.Discrete(actions)
        self.state = None
        self._legal = None

    def observation_space(self, agent):
        return self._obs_space

    def action_space(self, agent):
        return self._act_space

    # ------------------------------------------------------------------ playing

    def reset(self, seed=None, options=None):
        if seed is None:
            seed = random.SystemRandom().randrange(2 ** 31)
        self.state = self.game.new_initial_state(seed)
        self._legal = None
        self._settle()
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.moves = 0
        self._select()

    def _settle(self):
        from regola.tools.match import MAX_CHANCE_RUN, GameDidNotEnd
        game, s = self.game, self.state
        n = 0
        while game.is_chance(s):
            n += 1
            if n > MAX_CHANCE_RUN:
                raise GameDidNotEnd(f"{MAX_CHANCE_RUN:,} chance outcomes in a row and no move",
                                    "the rules may never end (an endless loop of rolls or draws?)")
            game.step_chance(s)

    def _select(self):
        s = self.state
        if s.pending is not None:
            self.agent_selection = self.possible_agents[s.pending[1]]

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        game, s = self.game, self.state
        move = self._legal_ids().get(int(action))
        if move is None:
            move = game.move_from_id(s, int(action))          # (refused, with the reason)
        game.apply(s, move)
        self._legal = None
        self._settle()
        self.moves += 1
        self._cumulative_rewards[agent] = 0.0
        for a in self.agents:
            self.rewards[a] = 0.0
        if game.is_terminal(s):
            winners = game.winners(s)
            for i, a in enumerate(self.possible_agents):
                self.rewards[a] = 1.0 / len(winners) if i in winners else 0.0
            self.terminations = {a: True for a in self.agents}
        elif self.max_moves is not None and self.moves >= self.max_moves:
            self.truncations = {a: True for a in self.agents}
        self._select()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def observe(self, agent):
        i = self._index[agent]
        obs = np.zeros(self.game.observation_size(), dtype=np.float32)
        self.game.observation_tensor(self.state, i, obs)
        s = self.state
        mask = np.zeros(self.game.action_space, dtype=np.int8)
        if s.pending is not None and s.pending[1] == i and not (self.terminations.get(agent) or
                                                               self.truncations.get(agent)):
            mask[list(self._legal_ids())] = 1
        return {"observation": obs, "action_mask": mask}

    def _legal_ids(self) -> dict:
        """Action id -> legal move at the pending decision (worked out once per decision)."""
        if self._legal is None:
            game, s = self.game, self.state
            self._legal = {game.move_id(s, m): m for m in game.legal_moves(s)} if s.pending is not None else {}
        return self._legal

    def render(self):
        if self.render_mode is None:
            return None
        from regola.tools.view import render_view
        text = render_view(self.game, self.state, None)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self):
        pass
