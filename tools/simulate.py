"""Simulate many games with bots: per-player mean score and win rate, game length, speed."""

from __future__ import annotations

import os
import sys
import time
from dataclasses import dataclass, field

from regola.loader import load_game

from . import logs
from .match import agents_for, play


@dataclass
class Stats:
    players: int
    games: int = 0
    score_sum: list = field(default_factory=list)
    wins: list = field(default_factory=list)
    moves_sum: int = 0
    seconds: float = 0.0
    load_seconds: float = 0.0

    def __post_init__(self):
        self.score_sum = [0] * self.players
        self.wins = [0.0] * self.players

    def add(self, result):
        self.games += 1
        for p, sc in enumerate(result.scores):
            self.score_sum[p] += sc
        share = 1.0 / len(result.winners)
        for w in result.winners:
            self.wins[w] += share
        self.moves_sum += result.moves

    def merge(self, other: "Stats"):
        self.games += other.games
        self.moves_sum += other.moves_sum
        for p in range(self.players):
            self.score_sum[p] += other.score_sum[p]
            self.wins[p] += other.wins[p]

    def as_dict(self, rules, modules, bots, seed) -> dict:
        g = max(self.games, 1)
        total = self.seconds + self.load_seconds
        return {
            "rules": rules, "modules": modules, "players": self.players, "games": self.games, "seed": seed,
            "bots": bots,
            "mean_score": [round(x / g, 3) for x in self.score_sum],
            "win_rate": [round(x / g, 4) for x in self.wins],
            "mean_moves": round(self.moves_sum / g, 2),
            "seconds": round(total, 3),
            "games_per_second": round(self.games / total, 1) if total > 0 else None,
            "games_per_second_excluding_load": round(self.games / self.seconds, 1) if self.seconds > 0 else None,
        }


class Progress:
    def __init__(self, total: int, enabled: bool):
        self.total = total
        self.enabled = enabled and total >= 20
        self.t0 = time.perf_counter()
        self.last = 0.0

    def update(self, done: int):
        if not self.enabled:
            return
        now = time.perf_counter()
        if now - self.last < 0.1 and done < self.total:
            return
        self.last = now
        width = 30
        filled = int(width * done / self.total)
        rate = done / (now - self.t0) if now > self.t0 else 0.0
        sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{self.total} games  {rate:,.0f}/s ")
        sys.stderr.flush()

    def close(self):
        if self.enabled:
            sys.stderr.write("\n")
            sys.stderr.flush()


MAX_MOVES = 100_000          # moves of one game before it is called endless (--max-moves)


def log_name(game_seed: int) -> str:
    """The file name of the log of the game played with this seed."""
    return f"game-{game_seed:06d}.jsonl"


def _run_range(rules, modules, players, bots, seed, first, count, log_dir, progress=None,
               max_moves=MAX_MOVES, max_steps=None, options=None):
    game = load_game(rules, modules=modules, players=players, options=options)
    st = Stats(game.num_players)
    budget = game.STEP_BUDGET
    if max_steps is not None:
        game.STEP_BUDGET = max_steps   # (the loaded game is shared: put back below)
    try:
        for i in range(first, first + count):
            gseed = seed + i
            agents = agents_for(game, bots, gseed)
            res = play(game, agents, gseed, rules=rules, record=log_dir is not None, max_moves=max_moves)
            if log_dir is not None:
                logs.write(os.path.join(log_dir, log_name(gseed)), res.log)
            st.add(res)
            if progress is not None:
                progress.update(st.games)
    finally:
        game.STEP_BUDGET = budget
    return st


def _worker(args):
    return _run_range(*args)


def simulate(rules: str, players: int, games: int, seed: int = 0, modules=(), bots=("random",),
             log_dir=None, jobs: int = 1, progress: bool = False, max_moves: int = MAX_MOVES,
             max_steps: int | None = None, options=None, executor: str = "local",
             ray_address: str | None = None) -> Stats:
    """Play `games` games with bots. A game longer than `max_moves` moves raises
    GameDidNotEnd; `max_steps` replaces the game's step budget between two decisions;
    `options` sets game options by name; `executor` 'ray' runs the `jobs` parts as Ray tasks
    (tools/executors.py). The statistics are the same whatever the jobs and the executor."""
    t0 = time.perf_counter()
    game = load_game(rules, modules=modules, players=players, options=options)
    t_load = time.perf_counter() - t0
    if log_dir is not None:
        os.makedirs(log_dir, exist_ok=True)
    stats = Stats(game.num_players)
    t1 = time.perf_counter()
    jobs = max(1, min(jobs, games))
    if executor == "ray":
        from .executors import ray_map
        chunk = (games + jobs - 1) // jobs
        parts = [(rules, tuple(modules), players, list(bots), seed, i * chunk, min(chunk, games - i * chunk), log_dir,
                  None, max_moves, max_steps, options)
                 for i in range(jobs) if i * chunk < games]
        for st in ray_map(_worker, parts, address=ray_address):
            stats.merge(st)
    elif jobs == 1:
        bar = Progress(games, progress)
        stats.merge(_run_range(rules, tuple(modules), players, list(bots), seed, 0, games, log_dir, bar,
                               max_moves, max_steps, options))
        bar.close()
    else:
        from .executors import process_map
        chunk = (games + jobs - 1) // jobs
        parts = [(rules, tuple(modules), players, list(bots), seed, i * chunk, min(chunk, games - i * chunk), log_dir,
                  None, max_moves, max_steps, options)
                 for i in range(jobs) if i * chunk < games]
        for st in process_map(_worker, parts):
            stats.merge(st)
    stats.seconds = time.perf_counter() - t1
    stats.load_seconds = t_load
    return stats
