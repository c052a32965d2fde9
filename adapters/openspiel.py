"""Any encoded game as an OpenSpiel game.

    import pyspiel
    from regola.adapters import openspiel      # registers every bundled game
    game = pyspiel.load_game("python_regola_lungarno(players=4)")
    game = pyspiel.load_game("python_regola_lions_of_lydia(players=3,modules=croesus+tomb)")

`register(rules)` registers another rules path (its short name is returned). Parameters:
`players` (default: the most the game allows) and `modules` (optional modules joined by
`+`). What OpenSpiel asks of a game, from the declarations:

* actions are the game's static action ids (`game.action_str` names them); chance outcomes
  have stable ids: a drawn component's kind number, or a rolled value's place in the list
  rolled from (`max_chance_outcomes` bounds both);
* the game type says whether the game has chance (explicit stochastic) and hidden
  information; the utility of a player is their share of the win (1/k to each of k winners:
  constant-sum, 1 in all);
* observation tensors are `game.observation_tensor` (what the player sees, nothing else);
  observation strings the player's view (`observe`) as JSON; information-state strings are
  `game.information_state_string` (every move so far as that player saw it, then the view:
  states keep their history, `new_initial_state(seed, history=True)`);
* `resample_from_infostate(player, sampler)` is `game.resample`: a state the player cannot
  tell from this one, with the same history of moves as the player saw them (OpenSpiel's
  Python ISMCTSBot uses it);
* serialization is the engine's save (history included).
"""

from __future__ import annotations

import json
import random

import numpy as np
import pyspiel

from regola import load_game
from regola.resources import bundled_games

MAX_GAME_LENGTH = 100_000           # decisions and chance events (the engine's --max-moves)
MIN_CHANCE_OUTCOMES = 64            # rolls: lists of at most this many values


def short_name(name: str) -> str:
    return "python_regola_" + name.replace("-", "_")


_REGISTERED: dict[str, str] = {}
_TYPES: dict = {}


def register(rules: str) -> str:
    """Register a game (a bundled game's name or a rules path) with OpenSpiel; its name."""
    if rules in _REGISTERED:
        return _REGISTERED[rules]
    probe = load_game(rules)
    facts = probe.facts()
    lo, hi = probe.prog.min_players, probe.prog.max_players
    name = short_name(probe.name)
    game_type = pyspiel.GameType(
        short_name=name,
        long_name=f"Regola: {probe.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=(pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC if facts["chance"]
                     else pyspiel.GameType.ChanceMode.DETERMINISTIC),
        information=(pyspiel.GameType.Information.IMPERFECT_INFORMATION if facts["hidden_information"]
                     else pyspiel.GameType.Information.PERFECT_INFORMATION),
        utility=pyspiel.GameType.Utility.CONSTANT_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=hi, min_num_players=lo,
        provides_information_state_string=True, provides_information_state_tensor=False,
        provides_observation_string=True, provides_observation_tensor=True,
        parameter_specification={"players": hi, "modules": ""})

    # a class per game, as OpenSpiel's own Python games register: a closure (or anything not
    # in a reference cycle) held only by OpenSpiel's registry would be freed after Python has
    # shut down, which aborts the process at exit
    _TYPES[rules] = game_type
    cls = type(f"RegolaGame_{name}", (RegolaGame,), {"RULES": rules})
    pyspiel.register_game(game_type, cls)
    _REGISTERED[rules] = name
    return name


_GAMES: dict = {}                   # (rules, players, modules) -> the loaded regola game


def _game(key):
    g = _GAMES.get(key)
    if g is None:
        rules, players, modules = key
        g = _GAMES[key] = load_game(rules, players=players, modules=list(modules))
    return g


class RegolaGame(pyspiel.Game):
    RULES = ""                          # set by `register` on the class made for each game

    def __init__(self, params=None):
        rules, params = self.RULES, params or {}
        game_type = _TYPES[rules]
        players = int(params.get("players", game_type.max_num_players))
        modules = tuple(m for m in str(params.get("modules", "")).split("+") if m)
        self.key = (rules, players, modules)
        self.regola = g = _game(self.key)
        self._initial = g.new_initial_state(0, history=True)     # for information-state strings
        kinds = max([len(r.kinds) for r in g.prog.records.values()] or [1])
        info = pyspiel.GameInfo(
            num_distinct_actions=g.action_space,
            max_chance_outcomes=max(kinds, MIN_CHANCE_OUTCOMES) if g.facts()["chance"] else 0,
            num_players=g.num_players, min_utility=0.0, max_utility=1.0, utility_sum=1.0,
            max_game_length=g.prog.max_moves or MAX_GAME_LENGTH)
        super().__init__(game_type, info, {"players": players, "modules": "+".join(modules)})

    def new_initial_state(self, *args):
        # (OpenSpiel clones a state by making a new one and copying attributes: cheap here)
        return RegolaState(self, _Live(self.key, self.regola.clone(self._initial)))

    def make_py_observer(self, iig_obs_type=None, params=None):
        return RegolaObserver(self.regola, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False))


class _Live:
    """The regola state inside an OpenSpiel state: copied with the engine's `clone`, pickled
    as the engine's save (`dump`/`load`), for OpenSpiel's clone and serialization."""
    __slots__ = ("key", "s")

    def __init__(self, key, s):
        self.key, self.s = key, s

    def __deepcopy__(self, memo):
        return _Live(self.key, _game(self.key).clone(self.s))

    def __reduce__(self):
        return (_load_live, (self.key, _game(self.key).dump(self.s)))


def _load_live(key, data):
    return _Live(key, _game(key).load(data))


class RegolaState(pyspiel.State):
    def __init__(self, game, live):
        super().__init__(game)
        self._live = live

    @property
    def _g(self):
        return _game(self._live.key)

    @property
    def _s(self):
        return self._live.s

    # -------------------------------------------------------------- the API

    def current_player(self):
        s = self._s
        if s.pending is None:
            return pyspiel.PlayerId.TERMINAL
        return pyspiel.PlayerId.CHANCE if s.pending[1] == -1 else s.pending[1]

    def _legal_actions(self, player):
        g, s = self._g, self._s
        return sorted(g.move_id(s, m) for m in g.legal_moves(s))

    def chance_outcomes(self):
        g, s = self._g, self._s
        dist = g.chance_outcomes(s)
        if g.chance_kind(s) == "roll" and len(dist) > MIN_CHANCE_OUTCOMES:
            raise ValueError(f"a roll of {len(dist)} values: OpenSpiel is told of at most {MIN_CHANCE_OUTCOMES}")
        return [(g.chance_outcome_id(s, v), p) for v, p in dist]

    def _apply_action(self, action):
        g, s = self._g, self._s
        if s.pending[1] == -1:
            g.apply_chance(s, self._outcome(action))
            return
        g.apply(s, g.move_from_id(s, int(action)))

    def _outcome(self, action):
        return self._g.chance_outcome_from_id(self._s, int(action))

    def _action_to_string(self, player, action):
        if player == pyspiel.PlayerId.CHANCE:
            s = self._s
            if s.pending is not None and s.pending[1] == -1:
                try:
                    return self._g.outcome_str(s, self._outcome(action))
                except (IndexError, ValueError):
                    pass
            return f"chance:{action}"
        return self._g.action_str(int(action))

    def is_terminal(self):
        return self._s.pending is None

    def returns(self):
        g, s = self._g, self._s
        if s.pending is not None:
            return [0.0] * g.num_players
        winners = g.winners(s)
        return [1.0 / len(winners) if p in winners else 0.0 for p in range(g.num_players)]

    def __str__(self):
        return json.dumps(self._g.observe(self._s, None), sort_keys=True)

    def resample_from_infostate(self, player_id, probability_sampler):
        """A state `player_id` cannot tell from this one (`game.resample`), with the same
        history (OpenSpiel's ISMCTSBot)."""
        rng = random.Random(int(probability_sampler() * 2 ** 53))
        new = self.clone()
        new._live.s = self._g.resample(self._s, player_id, rng)
        return new


class RegolaObserver:
    """Observation tensor and strings for one kind of observation (perfect recall or not)."""

    def __init__(self, game, iig_obs_type):
        self.game = game
        self.perfect_recall = iig_obs_type.perfect_recall
        self.tensor = np.zeros(game.observation_size(), np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state, player):
        self.tensor.fill(0.0)
        self.game.observation_tensor(state._s, player, self.tensor)

    def string_from(self, state, player):
        if self.perfect_recall:
            return self.game.information_state_string(state._s, player)
        return json.dumps(self.game.observe(state._s, player), sort_keys=True)


for _name in bundled_games():
    register(_name)
