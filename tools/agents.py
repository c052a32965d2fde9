"""Bots that choose moves. Each owns its random generator (never the game's)."""

from __future__ import annotations

import random


class Agent:
    name = "agent"

    def choose(self, game, state, moves):
        raise NotImplementedError


class RandomAgent(Agent):
    """Uniform over the legal moves of each decision."""
    name = "random"

    def __init__(self, seed=0):
        self.rng = random.Random(seed)

    def choose(self, game, state, moves):
        return moves[int(self.rng.random() * len(moves))]


class FirstAgent(Agent):
    """Always the first legal move (deterministic; handy in tests)."""
    name = "first"

    def __init__(self, seed=0):
        pass

    def choose(self, game, state, moves):
        return moves[0]


class GreedyAgent(Agent):
    """One-ply lookahead on the mover's score; ties broken at random."""
    name = "greedy"

    def __init__(self, seed=0):
        self.rng = random.Random(seed)

    def choose(self, game, state, moves):
        if len(moves) == 1:
            return moves[0]
        me = game.current_player(state)
        best, best_val = [], None
        for m in moves:
            s = game.clone(state)
            game.apply(s, m)
            val = game.scores(s)[me]
            if best_val is None or val > best_val:
                best, best_val = [m], val
            elif val == best_val:
                best.append(m)
        return best[int(self.rng.random() * len(best))]


AGENTS = {"random": RandomAgent, "first": FirstAgent, "greedy": GreedyAgent}
SEARCH = ("mcts", "ismcts")          # tools/search.py, with a budget: mcts:1000


def make_agent(name: str, seed: int) -> Agent:
    """A bot by name: `random`, `first`, `greedy`, or a search bot with its budget of
    iterations after a colon (`mcts:1000`, `ismcts:500`; 1000 if none is given)."""
    base, colon, budget = name.partition(":")
    if base in SEARCH:
        from .search import ISMCTSAgent, MCTSAgent
        if colon and not (budget.isdigit() and int(budget) >= 1):
            raise ValueError(f"bot '{name}': the budget after ':' is a number of iterations, 1 or more")
        cls = MCTSAgent if base == "mcts" else ISMCTSAgent
        return cls(seed, int(budget) if colon else 1000)
    if colon:
        raise ValueError(f"bot '{name}': only {' and '.join(SEARCH)} take a budget")
    try:
        return AGENTS[name](seed)
    except KeyError:
        raise ValueError(f"unknown bot '{name}' (bots: {', '.join(AGENTS)}, "
                         f"{', '.join(b + ':N' for b in SEARCH)})") from None
