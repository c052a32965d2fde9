"""Search bots: MCTS (UCT) and single-observer information-set MCTS, for any encoded game.

    regola simulate lungarno --bots ismcts:500,random,random,random

`mcts` searches the real state (for games of perfect information: Connect Four, Can't Stop);
`ismcts` searches determinizations, states the mover cannot tell apart from the real one
(`game.resample`, redrawn at each iteration), so it never uses what it cannot see
(Cowling, Powley and Whitehouse, "Information Set Monte Carlo Tree Search", 2012). Both:

* one tree of the mover's and the other players' moves; chance is not in the tree: each
  iteration draws its own outcomes (the state's random generator is replaced from the bot's,
  so a search never knows the real future draws) - "open loop";
* selection by UCB1 over the moves legal in this iteration's state, with availability
  counts (a move's exploration term counts the iterations it was legal in, as ISMCTS needs
  when a move is legal in some determinizations only);
* expansion of one untried move per iteration, then a uniformly random playout to the end;
* the reward of a player is 0.75 x their share of the win (1/k for k winners) + 0.25 x their
  score over the largest absolute score seen in this search: winning first, then scoring
  well, which also gives cooperative games (everyone wins or loses together) a signal;
* the move played is the most visited one.

The budget is iterations (`mcts:1000`), so a game is reproducible from the bots' seeds.
"""

from __future__ import annotations

import math
import random

from .agents import Agent

EXPLORATION = 0.7           # UCB1's constant, for rewards in 0..1
MAX_PLAYOUT = 5_000         # decisions in one playout before it is scored as it stands


class _Node:
    __slots__ = ("player", "visits", "total", "avail", "children")

    def __init__(self, player: int):
        self.player = player              # who chose the move leading here
        self.visits = 0
        self.total = 0.0
        self.avail = 0
        self.children: dict = {}


class MCTSAgent(Agent):
    """UCT on the real state (perfect information)."""
    name = "mcts"
    determinize = False

    def __init__(self, seed=0, iterations: int = 1000):
        if iterations < 1:
            raise ValueError(f"{self.name}: the budget is a number of iterations, 1 or more")
        self.rng = random.Random(seed)
        self.iterations = iterations

    def choose(self, game, state, moves):
        if len(moves) == 1:
            return moves[0]
        me = game.current_player(state)
        root = _Node(me)
        scale = [1.0]
        for _ in range(self.iterations):
            self._iterate(game, state, me, root, scale)
        best = max(moves, key=lambda m: (root.children[m].visits if m in root.children else -1))
        return best

    def _start(self, game, state, me):
        if self.determinize:
            return game.resample(state, me, self.rng)
        s = game.clone(state)
        s.rng = self.rng.getrandbits(64)      # its own chance outcomes, not the game's
        return s

    def _iterate(self, game, state, me, root, scale):
        rng = self.rng
        s = self._start(game, state, me)
        node, path = root, [root]
        legal, apply = game.legal_moves, game.apply
        # selection and expansion (chance steps counted: rules that roll for ever end a search)
        steps = 0
        while s.pending is not None and steps < MAX_PLAYOUT:
            if s.pending[1] == -1:
                game.step_chance(s)
                steps += 1
                continue
            ms = legal(s)
            who = s.pending[1]
            children = node.children
            untried = [m for m in ms if m not in children]
            if untried:
                m = untried[int(rng.random() * len(untried))]
                for other in ms:
                    c = children.get(other)
                    if c is not None:
                        c.avail += 1
                child = children[m] = _Node(who)
                child.avail = 1
                apply(s, m)
                path.append(child)
                break
            best, best_val = None, -math.inf
            for m in ms:
                c = children[m]
                c.avail += 1
            for m in ms:
                c = children[m]
                log_n = math.log(c.avail)
                val = c.total / c.visits + EXPLORATION * math.sqrt(log_n / c.visits)
                if val > best_val:
                    best, best_val = m, val
            node = children[best]
            apply(s, best)
            path.append(node)
        # playout
        while s.pending is not None and steps < MAX_PLAYOUT:
            if s.pending[1] == -1:
                game.step_chance(s)
            else:
                ms = legal(s)
                apply(s, ms[int(rng.random() * len(ms))])
            steps += 1
        rewards = _rewards(game, s, scale)
        for n in path[1:]:
            n.visits += 1
            n.total += rewards[n.player]


class ISMCTSAgent(MCTSAgent):
    """Single-observer ISMCTS: each iteration searches a fresh determinization."""
    name = "ismcts"
    determinize = True


def _rewards(game, s, scale) -> list:
    scores = game.scores(s)
    winners = game.winners(s)
    top = max(abs(x) for x in scores) if scores else 0
    if top > scale[0]:
        scale[0] = float(top)
    share = 1.0 / len(winners) if winners else 0.0
    return [0.75 * (share if p in winners else 0.0) + 0.25 * scores[p] / scale[0] for p in range(len(scores))]
