"""A compiled game: the runtime API every driver, bot and test uses.

    game = load_game("my-game", players=4)
    s = game.new_initial_state(seed=1)
    while not game.is_terminal(s):
        if game.is_chance(s):
            game.apply_chance(s, game.sample_chance(s))
        else:
            game.apply(s, some_move_from(game.legal_moves(s)))
    game.scores(s)

Moves are tuples: `(action, *params)` at an `act`, `(value,)` at a `choose`, `()` for
pass. Each has a canonical string (`move_str`) and a stable integer id in a static action
space (`move_id`). `apply` mutates the state in place after validating the move; an illegal
move raises `IllegalMove` naming the failing rule and leaves the state untouched.

The pieces of `Game`, one job per file (all in interpreter/runtime/):

    game.py     the class: construction, the start, queries, `apply`, results, observation
    runner.py   running the rules between two decisions (`Runner`)
    chance.py   chance events: outcomes, sampling, applying (`Chance`)
    moves.py    moves as text and ids, why a move is illegal (`MoveNames`, `IllegalMove`)
    saves.py    the initial variables, `clone`, `dump`, `load` (`Saves`, `StateError`)
    values.py   typed values and their text (`format_value`, `parse_value`, `value_index`)
    observe.py  what one player may see
    recall.py   what one player has seen so far (perfect recall, from the kept history)
    record.py   what the rules did in a game (decisions, triggers fired), when a driver asks
"""

from __future__ import annotations

import hashlib
import sys
from typing import Optional

from ..codegen.program import CompiledProgram, SiteInfo, VarSlot
from ..pycompile import compile_quietly
from . import state as st
from . import watchdog
from .chance import Chance
from .learning import Learning
from .recall import HistoryStart, Recall
from .record import Record
from .helpers import HELPERS, NoOptions, RulesRuntimeError, _EndGame  # noqa: F401 (re-exported)
from .moves import IllegalMove, MoveNames
from .observe import observe as _observe
from .runner import _PYTHON_ERRORS, CALL, RET, SUSPEND, Runner  # noqa: F401 (re-exported)
from .saves import Saves, StateError  # noqa: F401 (re-exported)
from .values import (_BAD, _copy, _default_for, _norm, _split_args, format_value,  # noqa: F401 (re-exported)
                     parse_value, value_index)

CHANCE = -1
TERMINAL = -2


class Game(Runner, Chance, MoveNames, Saves, Learning, Recall):
    """The runtime API of one compiled game; the mixins hold running, chance, move names and saves."""

    def __init__(self, compiled: CompiledProgram, name: str, modules: list[str], source_files: list[str]):
        self.compiled = compiled
        self.prog = compiled.prog
        self.name = name
        self.title = self.prog.title
        self.modules = list(modules)
        self.num_players = compiled.players
        self.sites: list[SiteInfo] = compiled.sites
        self._id_plans: dict = {}          # action -> how its move ids are worked out (moves.py)
        self.actions = compiled.actions
        self.triggers = compiled.triggers      # TriggerInfo, as a state's record names them
        self.vars: list[VarSlot] = compiled.vars
        self.action_space = compiled.action_space
        src = compiled.module.source()
        self.source = src
        self.fingerprint = hashlib.sha256(
            (src + f"|{self.num_players}|{','.join(self.modules)}").encode()).hexdigest()[:16]
        self._filename = f"<regola:{name}:{self.fingerprint}>"
        ns = dict(HELPERS)
        ns["PLAYERS"] = list(range(self.num_players))
        ns["NP"] = self.num_players
        ns.update(compiled.tables)
        ns["_W"] = self._work = [0]      # the loop budget of one run (set by Runner._run)
        code = compile_quietly(src, self._filename, "exec")
        exec(code, ns)
        self.ns = ns
        self._procs = ns["PROCS"]
        self._site_funcs = ns["SITES"]
        self._checks = ns["CHECKS"]
        self._score = ns["SCORE"]
        self._spans = compiled.module.spans
        self._clone_v = self._make_clone()
        self._start = None          # (STEP_BUDGET, the state after setup) once a game is made
        self._load_v = self._make_clone(strict=True)
        self._needs = None          # per unit and block, the slots it may change (at the first clone)
        self._sharing = None        # whether clones share lists (decided at the first clone)
        self._owning = None         # the blocks that first own what they change (runner.py)
        # where a decision's answer is kept in its frame: '@m' for an action move (None
        # here), '@o' for a draw, the chosen variable's key otherwise
        self._site_keys = [None if si.kind == "act" else "@o" if si.kind == "chance" else si.var_key
                           for si in self.sites]
        watchdog.watch(Runner._run, Runner._all_scores, Game.legal_moves, Chance._chance_dist,
                       Chance._draw_counts, Chance.step_chance)

    # ------------------------------------------------------------------ start

    def new_initial_state(self, seed: int = 0, history: bool = False, record: bool = False) -> st.State:
        """The state after setup, at its first decision. `history=True` keeps the moves and
        chance outcomes (for `information_state_string`; clones share it); `record=True`
        keeps the rules-level record of the game from its setup on (`s.record`,
        runtime/record.py; clones do not carry it).

        Running the rules never draws from the seed (only chance steps do), so the state
        after setup is the same for every seed but for `rng`: it is made once and cloned."""
        if not (history or record):
            start = self._start
            if start is None or start[0] != self.STEP_BUDGET:
                start = self._start = (self.STEP_BUDGET, self._set_up(0, False, False))
            s = self._own_copy(start[1])
            s.rng = st.seed_rng(seed)
            if s.cache is not None:      # its own list: a driver that sorts one changes no other game
                s.cache = s.cache.copy()
            return s
        return self._set_up(seed, history, record)

    def _set_up(self, seed, history, record) -> st.State:
        s = st.State()
        if history:
            s.hist = HistoryStart()
        if record:
            s.record = Record()
        s.nplayers = self.num_players
        s.rng = st.seed_rng(seed)
        s.v = self._initial_vars()
        # flow below setup; 'on game end' is pushed when play stops
        pid = self.compiled.unit_pid
        if "flow" in pid:
            s.stack.append([pid["flow"], 0, {}, None])
        if "setup" in pid:
            s.stack.append([pid["setup"], 0, {}, None])
        self._run(s)
        if history:
            s.hist.state = start = self._own_copy(s)   # where the history starts (runtime/recall.py)
            start.hist = None
        return s

    # ------------------------------------------------------------------ queries

    def is_terminal(self, s) -> bool:
        return s.phase == st.OVER

    def is_chance(self, s) -> bool:
        return s.pending is not None and s.pending[1] == -1

    def current_player(self, s) -> int:
        if s.pending is None:
            return TERMINAL
        return s.pending[1]

    def decision(self, s) -> Optional[dict]:
        """What is being decided now: kind, who, the prompt and the rulebook section."""
        if s.pending is None:
            return None
        site = self.sites[s.pending[0]]
        d = {"kind": site.kind, "site": site.index, "player": s.pending[1], "cite": site.cite,
             "prompt": site.prompt, "where": str(site.node.span)}
        if site.kind == "act":
            d["actions"] = site.actions
            d["optional"] = site.optional
        if site.simultaneous:
            d["simultaneous"] = True       # one of the players' hidden choices made all at once
        return d

    def legal_moves(self, s) -> list:
        if s.cache is not None:
            return s.cache
        if s.pending is None or s.pending[1] == -1:
            return []
        site = self.sites[s.pending[0]]
        F = s.stack[-1]
        try:
            moves = self._site_funcs[site.index](s, F)
        except _PYTHON_ERRORS as e:             # (a state loaded with a value the rules never make)
            raise self._located(e) from None
        if site.optional:
            moves.append(())
        s.cache = moves
        return moves

    # ------------------------------------------------------------------ acting

    def apply(self, s, move) -> None:
        """Validate then play `move` (a tuple, a canonical string or an action id)."""
        pending = s.pending
        if pending is None:
            raise IllegalMove(str(move), "the game is over")
        site, who = pending
        if who == -1:
            raise IllegalMove(str(move), "chance decides here: use apply_chance")
        if type(move) is not tuple:
            if isinstance(move, str):
                move = self.parse_move(s, move)
            elif hasattr(move, "__index__") and not isinstance(move, bool):
                move = self.move_from_id(s, move.__index__())     # an id (also a numpy integer)
            elif not isinstance(move, tuple):
                raise IllegalMove("%.60r" % (move,), "a move is a tuple from legal_moves, its text (move_str) "
                                                     f"or its integer id (move_id), not a {type(move).__name__}")
        legal = s.cache
        if legal is None:
            legal = self.legal_moves(s)
        if move not in legal:          # (an identical object is found without comparing)
            raise self._illegal(s, move)
        if s.hist is not None:
            s.hist = (s.hist, site, who, move)
        if s.record is not None:
            s.record.taken.append((site, who, move, False))
        key = self._site_keys[site]
        if key is None:
            s.stack[-1][2]["@m"] = move
        else:
            s.stack[-1][2][key] = move[0] if move else None
        s.pending = None
        s.cache = None
        self._run(s)

    # ------------------------------------------------------------------ results

    def scores(self, s) -> list[int]:
        res = s.result or self._all_scores(s)
        return [r[0] for r in res]

    def ranking_keys(self, s) -> list[tuple]:
        """Per player, what ranks them (the greatest wins): the score, or minus the score in a
        game where the lowest score wins, then the tiebreaks (the greatest first)."""
        res = s.result or self._all_scores(s)
        sign = -1 if self.prog.lowest_wins else 1
        return [(sign * r[0], *r[1]) for r in res]

    def winners(self, s) -> list[int]:
        keys = self.ranking_keys(s)
        best = max(keys)
        return [p for p, k in enumerate(keys) if k == best]

    # ------------------------------------------------------------------ determinization

    def resample(self, s, player: Optional[int], rng) -> st.State:
        """A state `player` cannot tell from `s`: what they do not see or know is redrawn
        (runtime/resample.py). `rng` is a random.Random (or a seed)."""
        from .resample import resample
        if not hasattr(rng, "getrandbits"):
            import random
            rng = random.Random(rng)
        return resample(self, s, player, rng)

    # ------------------------------------------------------------------ observation

    def observe(self, s, player: Optional[int]) -> dict:
        """Everything `player` may see or knows (player None: a spectator sees public things)."""
        return _observe(self, s, player)


sys.setrecursionlimit(max(sys.getrecursionlimit(), 5000))
