"""Random-playout speed of Regola against other ways to run the same small games.

    python benchmarks/peers.py [--games connect-four,tic-tac-toe,lungarno] [--repeats 5] [--seconds 0.5] [--json]

Connect Four and Tic-tac-toe (the default), and Lungarno (4 players), each run by:

* regola: the bundled rules (rules/connect-four, rules/tic-tac-toe, rules/lungarno) compiled
  by this checkout;
* reference: a hand-written pure-Python implementation (benchmarks/reference/), the same
  driver API, so the same loop drives it;
* pettingzoo: `pettingzoo.classic.connect_four_v3` / `tictactoe_v3`, `env()` as documented
  (with its default wrappers), random legal actions from the action mask;
* pettingzoo-raw: the same environments' `raw_env()`, without the wrappers;
* openspiel: `pyspiel.load_game("connect_four")` / `"tic_tac_toe"` stepped from Python.

Lungarno is run by regola (rules/lungarno) and reference (benchmarks/reference/lungarno.py,
which plays the same random games from the same seeds) only: the other peers have none.

All in this one process, interleaved: every round runs one batch (sized to take about
--seconds) of each implementation in turn, so a change in the machine's speed touches them
alike. Loading is not timed. Printed per game and implementation: median games/s and
decisions/s (chance events included), decisions per game, the first player's win rate and
the draw rate (a tie for the highest score) over every game played (a check that all of them
play the same game), and the speed ratio to Regola
(the median of the per-round ratios; above 1: faster than Regola). Implementations that are
not installed, or rules that do not exist, are skipped with a note.

`--clone` times instead what a tree search pays per node: at every move of the same random
games, `c = clone(s); apply(c, m)` (OpenSpiel: `s.clone().apply_action(a)`), printed as
microseconds per clone + apply; PettingZoo's environments have no clone and are skipped.

Not a test: timings depend on the machine. `pip install '.[peers]'` installs the peers.
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import statistics
import sys
import time
import warnings
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(HERE))

from compare_worker import _timer_overhead as timer_overhead  # noqa: E402  (what a timer pair costs)

GAMES = {
    # name: (Regola rules, reference module.class, PettingZoo module, OpenSpiel name)
    "connect-four": ("connect-four", "connect_four.ConnectFour", "connect_four_v3", "connect_four"),
    "tic-tac-toe": ("tic-tac-toe", "tic_tac_toe.TicTacToe", "tictactoe_v3", "tic_tac_toe"),
    "lungarno": ("lungarno", "lungarno.Lungarno", None, None),
}
PLAYERS = {"lungarno": 4}          # players per game, 2 unless given here
PEERS = ["regola", "reference", "pettingzoo", "pettingzoo-raw", "openspiel"]


class Skip(Exception):
    """This implementation cannot run here (not installed, no rules): skipped with a note."""


# ----------------------------------------------------------------------------- drivers
# Each runner plays `games` random games from seeds seed.. and returns
# (decisions, outcomes) where outcomes counts first-player wins, other players' wins, draws
# (a tie for the highest score).

def _outcome(scores, out):
    best = max(scores)
    if scores.count(best) > 1:
        out[2] += 1
    else:
        out[0 if scores[0] == best else 1] += 1


def drive_api(game, seed: int, games: int, out: list, clones: bool = False, overhead: float = 0.0):
    """Regola's public API; the reference games offer the same one. The loop of compare.py.
    Returns the decisions; with `clones`, (moves, seconds): at every move `c = clone(s);
    apply(c, m)` is timed (what a tree search pays per node), less the timer's own cost."""
    legal, apply, step_chance = game.legal_moves, game.apply, getattr(game, "step_chance", None)
    is_terminal, is_chance, clone = game.is_terminal, game.is_chance, getattr(game, "clone", None)
    pc = time.perf_counter
    decisions = moves = 0
    spent = 0.0
    for g in range(seed, seed + games):
        rng = random.Random(g)
        s = game.new_initial_state(g)
        while not is_terminal(s):
            if is_chance(s):
                step_chance(s)
            else:
                ms = legal(s)
                m = ms[int(rng.random() * len(ms))]
                if clones:
                    t0 = pc()
                    apply(clone(s), m)
                    spent += pc() - t0 - overhead
                    moves += 1
                apply(s, m)
            decisions += 1
        _outcome(game.scores(s), out)
    return (moves, spent) if clones else decisions


def make_pettingzoo(module, raw: bool, clones: bool = False):
    if module is None:
        raise Skip("PettingZoo has no version of this game")
    if clones:
        raise Skip("a PettingZoo environment has no clone")
    try:
        import importlib
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            mod = importlib.import_module(f"pettingzoo.classic.{module}")
        import numpy as np
    except ImportError as e:
        raise Skip(f"pettingzoo is not installed ({e}); pip install '.[peers]'") from None
    env = mod.raw_env() if raw else mod.env()
    flatnonzero = np.flatnonzero

    def run(seed: int, games: int, out: list) -> int:
        decisions = 0
        for g in range(seed, seed + games):
            rng = random.Random(g)
            env.reset(seed=g)
            first = env.agents[0]
            result = None
            for agent in env.agent_iter():
                obs, _reward, termination, truncation, _info = env.last()
                if termination or truncation:
                    if result is None:
                        result = dict(env.rewards)
                    env.step(None)
                    continue
                legal = flatnonzero(obs["action_mask"])
                env.step(int(legal[int(rng.random() * len(legal))]))
                decisions += 1
            others = [a for a in result if a != first]
            _outcome([result[first], result[others[0]]], out)
        return decisions
    return run


def make_openspiel(name, clones: bool = False, overhead: float = 0.0):
    if name is None:
        raise Skip("OpenSpiel has no version of this game")
    try:
        import pyspiel
    except ImportError as e:
        raise Skip(f"open_spiel is not installed ({e}); pip install '.[peers]'") from None
    game = pyspiel.load_game(name)

    def run(seed: int, games: int, out: list):
        """drive_api for OpenSpiel (with `clones`: `s.clone().apply_action(a)` timed)."""
        pc = time.perf_counter
        decisions = moves = 0
        spent = 0.0
        for g in range(seed, seed + games):
            rng = random.Random(g)
            s = game.new_initial_state()
            while not s.is_terminal():
                if s.is_chance_node():
                    outcomes, probs = zip(*s.chance_outcomes())
                    s.apply_action(rng.choices(outcomes, probs)[0])
                else:
                    la = s.legal_actions()
                    a = la[int(rng.random() * len(la))]
                    if clones:
                        t0 = pc()
                        s.clone().apply_action(a)
                        spent += pc() - t0 - overhead
                        moves += 1
                    s.apply_action(a)
                decisions += 1
            _outcome(s.returns(), out)
        return (moves, spent) if clones else decisions
    return run


def _drive(game, clones: bool, overhead: float):
    return lambda seed, games, out: drive_api(game, seed, games, out, clones, overhead)


def make_regola(rules: str, players: int = 2, clones: bool = False, overhead: float = 0.0):
    try:
        try:
            from regola import load_game
        except ImportError:
            from regola.loader import load_game
    except ImportError as e:
        raise Skip(f"cannot import Regola ({e})") from None
    p = Path(rules)
    path = p if p.exists() else ROOT / "rules" / rules
    if not path.exists():
        raise Skip(f"no rules {rules!r} (rules/{rules} does not exist yet)")
    game = load_game(str(path), players=players)
    return _drive(game, clones, overhead)


def make_reference(spec: str, players=None, clones: bool = False, overhead: float = 0.0):
    import importlib
    modname, cls = spec.split(".")
    cls = getattr(importlib.import_module(f"reference.{modname}"), cls)
    game = cls() if players is None else cls(players)       # (two-player games take no count)
    return _drive(game, clones, overhead)


def make_runner(peer: str, game: str, rules: dict, clones: bool = False, overhead: float = 0.0):
    """A function (seed, games, out) playing random games: it returns the decisions made, or
    with `clones` (moves, seconds spent cloning and applying at each of them)."""
    regola_rules, ref, pz, osp = GAMES[game]
    players = PLAYERS.get(game)
    if peer == "regola":
        return make_regola(rules.get(game, regola_rules), players or 2, clones, overhead)
    if peer == "reference":
        return make_reference(ref, players, clones, overhead)
    if peer == "pettingzoo":
        return make_pettingzoo(pz, raw=False, clones=clones)
    if peer == "pettingzoo-raw":
        return make_pettingzoo(pz, raw=True, clones=clones)
    if peer == "openspiel":
        return make_openspiel(osp, clones, overhead)
    raise ValueError(peer)


# ----------------------------------------------------------------------------- measuring

class Impl:
    def __init__(self, game: str, peer: str, run):
        self.game, self.peer, self.run = game, peer, run
        self.batch = 0
        self.rounds: list[dict] = []
        self.out = [0, 0, 0]
        self.games = 0
        self.decisions = 0
        self.seed = 0

    def batch_run(self, n: int) -> dict:
        gc.collect()
        t0 = time.perf_counter()
        d = self.run(self.seed, n, self.out)
        dt = time.perf_counter() - t0
        self.seed += n
        self.games += n
        if isinstance(d, tuple):           # --clone: (moves, the time of their clones + applies)
            d, timed = d
            self.decisions += d
            return {"elapsed": dt, "games": n, "decisions": d, "timed": timed}
        self.decisions += d
        return {"elapsed": dt, "games": n, "decisions": d}

    def size(self, seconds: float):
        n = 1
        target = min(0.1, seconds / 5)
        while True:
            r = self.batch_run(n)
            if r["elapsed"] >= target or n >= 1 << 22:
                self.batch = max(1, round(seconds * n / r["elapsed"]))
                return
            n *= 2 if r["elapsed"] * 4 >= target else 8


def progress(text: str, quiet: bool, end: bool = False):
    if quiet or not sys.stderr.isatty():
        return
    sys.stderr.write("\r" + text.ljust(70) + ("\r" + " " * 70 + "\r" if end else ""))
    sys.stderr.flush()


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="peers.py", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", default="connect-four,tic-tac-toe", help="comma-separated: " + ", ".join(GAMES))
    ap.add_argument("--peers", default=",".join(PEERS), help="comma-separated: " + ", ".join(PEERS))
    ap.add_argument("--rules", action="append", default=[], metavar="GAME=PATH",
                    help="Regola rules to use for a game instead of the bundled ones")
    ap.add_argument("--repeats", type=int, default=5, help="rounds (default 5)")
    ap.add_argument("--seconds", type=float, default=0.5, help="about how long one batch takes (default 0.5)")
    ap.add_argument("--clone", action="store_true",
                    help="time `clone` + `apply` of one move at every move instead of whole games")
    ap.add_argument("--json", action="store_true", help="print the results as JSON")
    ap.add_argument("--quiet", action="store_true", help="no progress line on stderr")
    a = ap.parse_args(argv)
    games = [g for g in a.games.split(",") if g]
    peers = [p for p in a.peers.split(",") if p]
    for g in games:
        if g not in GAMES:
            ap.error(f"unknown game {g!r} (one of {', '.join(GAMES)})")
    for p in peers:
        if p not in PEERS:
            ap.error(f"unknown peer {p!r} (one of {', '.join(PEERS)})")
    rules = {}
    for r in a.rules:
        g, _, path = r.partition("=")
        if g not in GAMES or not path:
            ap.error(f"--rules {r!r}: write GAME=PATH")
        rules[g] = path

    impls: list[Impl] = []
    skipped: list[dict] = []
    overhead = timer_overhead(time.perf_counter) if a.clone else 0.0
    for g in games:
        for p in peers:
            progress(f"{g}: loading {p}", a.quiet)
            try:
                impls.append(Impl(g, p, make_runner(p, g, rules, a.clone, overhead)))
            except Skip as e:
                skipped.append({"game": g, "peer": p, "skipped": str(e)})
    for im in impls:
        progress(f"{im.game}: sizing {im.peer}", a.quiet)
        im.size(a.seconds)
    for i in range(a.repeats):
        for im in impls:
            progress(f"round {i + 1}/{a.repeats}: {im.game} {im.peer}", a.quiet)
            im.rounds.append(im.batch_run(im.batch))
    progress("", a.quiet, end=True)

    if a.clone:
        return report_clones(a, games, impls, skipped)
    results = []
    for g in games:
        base = next((im for im in impls if im.game == g and im.peer == "regola"), None)
        for im in [x for x in impls if x.game == g]:
            gps = [r["games"] / r["elapsed"] for r in im.rounds]
            dps = [r["decisions"] / r["elapsed"] for r in im.rounds]
            rec = {"game": g, "peer": im.peer, "batch_games": im.batch,
                   "games_per_s": statistics.median(gps), "decisions_per_s": statistics.median(dps),
                   "decisions_per_game": im.decisions / im.games, "games_played": im.games,
                   "first_wins": im.out[0] / im.games, "second_wins": im.out[1] / im.games,
                   "draws": im.out[2] / im.games, "rounds": im.rounds, "vs_regola": None}
            if base is not None:
                ratios = [(r["games"] / r["elapsed"]) / (b["games"] / b["elapsed"])
                          for r, b in zip(im.rounds, base.rounds)]
                rec.update(vs_regola=statistics.median(ratios), vs_regola_min=min(ratios),
                           vs_regola_max=max(ratios))
            results.append(rec)
    if a.json:
        print(json.dumps({"repeats": a.repeats, "seconds": a.seconds, "results": results,
                          "skipped": skipped}, indent=2))
        return 0

    print(f"{a.repeats} rounds, batches of about {a.seconds:g} s, every implementation in turn in one process; "
          f"vs regola: speed / Regola's speed (median and range of the rounds)")
    head = (f"{'game':<14}{'implementation':<16}{'games/s':>11}{'decisions/s':>13}{'dec/game':>10}"
            f"{'1st wins':>10}{'draws':>8}{'vs regola':>11}  (min-max)")
    print_tables(games, results, skipped, head,
                 lambda rec: (f"{rec['games_per_s']:>11,.0f}{rec['decisions_per_s']:>13,.0f}"
                              f"{rec['decisions_per_game']:>10.1f}{100 * rec['first_wins']:>9.1f}%"
                              f"{100 * rec['draws']:>7.1f}%"))
    return 0


def print_tables(games: list, results: list, skipped: list, head: str, columns) -> None:
    """One table per game: a row per implementation (its `columns(rec)`, then the ratio to
    Regola), then the implementations skipped."""
    for g in games:
        print()
        print(head)
        print("-" * len(head))
        for rec in [r for r in results if r["game"] == g]:
            vs = (f"{rec['vs_regola']:>10.2f}x  ({rec['vs_regola_min']:.2f}-{rec['vs_regola_max']:.2f})"
                  if rec["vs_regola"] is not None else f"{'-':>11}")
            print(f"{g:<14}{rec['peer']:<16}{columns(rec)}{vs}")
        for sk in [s for s in skipped if s["game"] == g]:
            print(f"{g:<14}{sk['peer']:<16}skipped: {sk['skipped']}")


def report_clones(a, games: list, impls: list, skipped: list) -> int:
    """--clone: microseconds per clone + apply (the median of the rounds) and Regola's time
    over each peer's (above 1: cheaper than Regola's)."""
    results = []
    for g in games:
        base = next((im for im in impls if im.game == g and im.peer == "regola"), None)
        for im in [x for x in impls if x.game == g]:
            us = [1e6 * r["timed"] / max(1, r["decisions"]) for r in im.rounds]
            rec = {"game": g, "peer": im.peer, "batch_games": im.batch, "us_per_clone_apply": statistics.median(us),
                   "moves_timed": im.decisions, "rounds": im.rounds, "vs_regola": None}
            if base is not None:
                ratios = [(b["timed"] / max(1, b["decisions"])) / (r["timed"] / max(1, r["decisions"]))
                          for r, b in zip(im.rounds, base.rounds)]
                rec.update(vs_regola=statistics.median(ratios), vs_regola_min=min(ratios),
                           vs_regola_max=max(ratios))
            results.append(rec)
    if a.json:
        print(json.dumps({"repeats": a.repeats, "seconds": a.seconds, "clone": True, "results": results,
                          "skipped": skipped}, indent=2))
        return 0
    print(f"{a.repeats} rounds, every implementation in turn in one process; `clone` + `apply` of one "
          f"move timed at every move of random games; vs regola: Regola's time / its time")
    head = f"{'game':<14}{'implementation':<16}{'µs per clone+apply':>20}{'moves timed':>13}{'vs regola':>11}  (min-max)"
    print_tables(games, results, skipped, head,
                 lambda rec: f"{rec['us_per_clone_apply']:>20.2f}{rec['moves_timed']:>13,}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
