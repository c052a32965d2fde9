"""Tournaments: bots against each other with every seat assignment rotated.

    regola tournament lungarno --players 4 --bots ismcts:200,random,random,random --games 40

Game g seats bot (i + g) mod N in seat i, so over a multiple of N games every bot sits in
every seat equally often (the first player's advantage is shared out). Per bot (bots of the
same name are pooled): the seats it played, its win rate (a tie for first among k players is
1/k of a win) with a 95% Wilson interval, its mean score with a 95% interval, and an Elo
rating fitted to every pairwise result inside the games (Bradley-Terry by minorization-
maximization, Hunter 2004; a tie counts half; the mean rating is 1500). Game g uses seed
S + g for chance, and the bots' seeds derive from it, so a tournament is reproducible
whatever the number of jobs.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from regola.loader import load_game

from .agents import make_agent
from .match import play

Z95 = 1.959964


@dataclass
class GameRecord:
    index: int
    seats: list               # bot name per seat
    scores: list
    winners: list             # seats, from 0
    moves: int


@dataclass
class BotStats:
    name: str
    seats: int = 0
    wins: float = 0.0
    scores: list = field(default_factory=list)

    def as_dict(self) -> dict:
        lo, hi = wilson(self.wins, self.seats)
        m, half = mean_interval(self.scores)
        return {"bot": self.name, "seats": self.seats, "wins": self.wins,
                "win_rate": self.wins / self.seats if self.seats else 0.0, "win_rate_95": [lo, hi],
                "mean_score": m, "mean_score_95": [m - half, m + half]}


def seating(bots: list, game_index: int) -> list:
    n = len(bots)
    return [bots[(i + game_index) % n] for i in range(n)]


def play_games(rules, players, bots, seed, indices, modules=(), options=None, max_moves=100_000,
               progress=None) -> list:
    game = load_game(rules, modules=list(modules), players=players, options=options)
    out = []
    for g in indices:
        seats = seating(bots, g)
        gseed = seed + g
        agents = [make_agent(name, gseed * 1_000_003 + 7919 * i + 1) for i, name in enumerate(seats)]
        res = play(game, agents, gseed, rules=rules, max_moves=max_moves)
        out.append(GameRecord(g, seats, res.scores, res.winners, res.moves))
        if progress is not None:
            progress.update(len(out))
    return out


def _worker(args):
    return play_games(*args)


def run(rules, players, bots, games, seed=0, modules=(), options=None, jobs=1, progress=False,
        executor="local", ray_address=None, max_moves=100_000) -> list:
    """Play the tournament; the records in game order, the same whatever `jobs` and
    `executor` ('local' processes, or 'ray')."""
    from .simulate import Progress
    game = load_game(rules, modules=list(modules), players=players, options=options)
    if len(bots) != game.num_players:
        raise ValueError(f"give one bot per seat ({game.num_players}), not {len(bots)}")
    for name in set(bots):
        make_agent(name, 0)                       # an unknown bot is refused before any game
    chunks = _chunks(games, max(1, min(jobs, games)))
    args = [(rules, game.num_players, list(bots), seed, idx, tuple(modules), options, max_moves)
            for idx in chunks]
    from .executors import run_parts
    bar = Progress(games, progress) if executor != "ray" else None
    records = run_parts(_worker, args, executor, ray_address, bar)
    if bar is not None:
        bar.close()
    return records


def _chunks(games: int, jobs: int) -> list:
    """Game indices dealt round-robin to the jobs (each job gets every seating)."""
    return [list(range(j, games, jobs)) for j in range(jobs)]


def bot_stats(records) -> list:
    stats: dict = {}
    for r in records:
        share = 1.0 / len(r.winners) if r.winners else 0.0
        for seat, name in enumerate(r.seats):
            b = stats.setdefault(name, BotStats(name))
            b.seats += 1
            b.wins += share if seat in r.winners else 0.0
            b.scores.append(r.scores[seat])
    return list(stats.values())


def pairwise(records, ranking=None) -> dict:
    """(a, b) -> points of bot a against bot b over every pair of seats in every game (1 for
    a better result, 1/2 for the same), bots of the same name not compared."""
    pts: dict = {}
    for r in records:
        keys = ranking(r) if ranking else [(1 if s in r.winners else 0, r.scores[s]) for s in range(len(r.seats))]
        for i, a in enumerate(r.seats):
            for j, b in enumerate(r.seats):
                if i == j or a == b:
                    continue
                v = 1.0 if keys[i] > keys[j] else 0.5 if keys[i] == keys[j] else 0.0
                pts[(a, b)] = pts.get((a, b), 0.0) + v
    return pts


def elo(records, iterations: int = 200) -> dict:
    """Bradley-Terry strengths from the pairwise points, as Elo ratings with mean 1500. A bot
    that never lost (or never won) a pair gets a rating bounded by a prior of one draw
    against each opponent, so it stays finite."""
    pts = pairwise(records)
    names = sorted({a for a, _ in pts} | {b for _, b in pts})
    if len(names) < 2:
        return {n: 1500.0 for n in names}
    games = {}
    for (a, b), v in pts.items():
        games[(a, b)] = games.get((a, b), 0.0) + v + pts.get((b, a), 0.0)
    prior = 0.5
    strength = {n: 1.0 for n in names}
    for _ in range(iterations):
        new = {}
        for a in names:
            won = sum(pts.get((a, b), 0.0) + prior for b in names if b != a)
            denom = sum((games.get((a, b), 0.0) + 2 * prior) / (strength[a] + strength[b]) for b in names if b != a)
            new[a] = won / denom if denom else strength[a]
        g = math.exp(sum(math.log(v) for v in new.values()) / len(new))
        strength = {n: v / g for n, v in new.items()}
    return {n: 1500.0 + 400.0 * math.log10(strength[n]) for n in names}


def wilson(wins: float, n: int):
    if n == 0:
        return 0.0, 0.0
    p = wins / n
    den = 1 + Z95 ** 2 / n
    mid = (p + Z95 ** 2 / (2 * n)) / den
    half = Z95 * math.sqrt(p * (1 - p) / n + Z95 ** 2 / (4 * n * n)) / den
    return max(0.0, mid - half), min(1.0, mid + half)


def mean_interval(xs):
    n = len(xs)
    if n == 0:
        return 0.0, 0.0
    m = sum(xs) / n
    if n < 2:
        return m, 0.0
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1))
    return m, Z95 * sd / math.sqrt(n)


def report(records, title: str, players: int, seed: int) -> dict:
    ratings = elo(records)
    bots = [b.as_dict() | {"elo": ratings.get(b.name, 1500.0)} for b in bot_stats(records)]
    bots.sort(key=lambda b: -b["win_rate"])
    return {"game": title, "players": players, "games": len(records), "seed": seed,
            "mean_moves": sum(r.moves for r in records) / len(records) if records else 0.0,
            "bots": bots}


def format_report(d: dict) -> str:
    lines = [f"{d['game']}: {d['players']} players, {d['games']} games (seats rotated), seed {d['seed']}",
             f"{'bot':<18}{'seats':>6}  {'win rate (95% CI)':<24}{'mean score (95% CI)':<28}{'Elo':>6}"]
    for b in d["bots"]:
        lo, hi = b["win_rate_95"]
        slo, shi = b["mean_score_95"]
        win = f"{b['win_rate'] * 100:.1f}% ({lo * 100:.1f}-{hi * 100:.1f}%)"
        score = f"{b['mean_score']:.2f} ({slo:.2f} to {shi:.2f})"
        lines.append(f"{b['bot'][:18]:<18}{b['seats']:>6}  {win:<24}{score:<28}{b['elo']:>6.0f}")
    lines.append(f"mean game length: {d['mean_moves']:.1f} moves")
    return "\n".join(lines)
