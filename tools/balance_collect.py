"""Playing the games of `regola balance`: one compact record per game, from the engine's
rules-level record of it (runtime/record.py: who took which decision, which triggers fired).

Game g is played with seed S + g (the bots' seeds derive from it, as in `regola simulate`),
and the records come back in game order whatever the number of jobs, so the aggregates are
the same with --jobs 1 or 8. A move is named once per distinct (site, move) in a process,
not once per move played: that and not keeping a log is what keeps a balance run close to
the cost of a plain simulation.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from regola.loader import load_game

from regola.runtime.values import _split_args

from .match import agents_for, play


@dataclass
class GameRecord:
    index: int
    scores: list
    winners: list                 # seats, from 0
    moves: int
    chance: int
    actions: list = field(default_factory=list)     # per seat: Counter of action names
    values: list = field(default_factory=list)      # per seat: Counter of (action, parameter, value)
    triggers: list = field(default_factory=list)    # per seat: Counter of trigger names it fired for
    fired: Counter = field(default_factory=Counter)  # trigger name -> times fired (for anyone or nobody)
    held: list = field(default_factory=list)        # per seat: Counter of (zone, kind) held at the end
    turns: int = 0                                  # runs of decisions chosen by one player in a row


def turns_of(record) -> int:
    """A game's turns: the runs of decisions players chose one after another by the same
    player (a turn of several choices, or of rolls and choices, counts once)."""
    turns, last = 0, None
    for _, player, _, forced in record.taken:
        if not forced and player != last:
            turns += 1
            last = player
    return turns


def action_name(move: str) -> str:
    """`play_tile(shop, (1,1))` -> `play_tile`; `shield=A` -> `shield`; `pass` -> `pass`."""
    cut = len(move)
    for ch in "(=":
        i = move.find(ch)
        if i != -1:
            cut = min(cut, i)
    return move[:cut].strip()


def parameters(move: str) -> list:
    """The parameters of a move string, as (position from 1, text): the top-level,
    comma-separated parts between its outer parentheses, or the value after `=`."""
    name = action_name(move)
    rest = move[len(name):].strip()
    if rest.startswith("="):
        return [(1, rest[1:].strip())]
    if not (rest.startswith("(") and rest.endswith(")")):
        return []
    out = [part.strip() for part in _split_args(rest[1:-1])]
    return list(enumerate(out, 1))


def trigger_names(game) -> list:
    """A name per trigger of the game: its label, with its line where two share one."""
    labels = Counter(tr.label for tr in game.triggers)
    return [tr.label if labels[tr.label] == 1 else f"{tr.label} (line {tr.span.line})" for tr in game.triggers]


class Holdings:
    """What each player holds at the end of a game: the components in the zones of their own
    (per-player zone variables, keyed ones summed over their keys), as (zone, kind) -> count.
    Bookkeeping (`internal`) zones are left out."""

    def __init__(self, game):
        self.zones = []
        for vs in game.vars:
            zone = vs.zone if vs.kind == "zone" else None
            if zone is None or not vs.per_player or vs.internal:
                continue
            self.zones.append((vs.slot, vs.name, zone, vs.keys, zone.elem.kinds))

    def __call__(self, s, n: int) -> list:
        out = [Counter() for _ in range(n)]
        for slot, name, zone, keys, kinds in self.zones:
            for p in range(n):
                value = s.v[slot][p]
                for part in (value if keys else [value]):
                    if zone.counted:
                        for k, c in enumerate(part):
                            if c:
                                out[p][(name, kinds[k])] += c
                    else:
                        for k in part:
                            if k is not None:
                                out[p][(name, kinds[k])] += 1
        return out


class _MoveNames:
    """(action, [(position, value text)]) of a (site, move), worked out once per distinct one."""

    def __init__(self, game):
        self.game = game
        self.known: dict = {}

    def __call__(self, site: int, move):
        key = (site, move)
        named = self.known.get(key)
        if named is None:
            text = self.game.move_text(site, move)
            named = self.known[key] = (action_name(text), parameters(text))
        return named


def play_games(rules, players, bots, seed, indices, modules=(), options=None, max_moves=100_000,
               progress=None) -> list:
    game = load_game(rules, modules=list(modules), players=players, options=options)
    n = game.num_players
    names = _MoveNames(game)
    triggers = trigger_names(game)
    holdings = Holdings(game)
    out = []
    for g in indices:
        gseed = seed + g
        res = play(game, agents_for(game, bots, gseed), gseed, rules=rules, max_moves=max_moves, rules_record=True)
        rec = res.state.record
        actions = [Counter() for _ in range(n)]
        values = [Counter() for _ in range(n)]
        for (seat, site, move), times in rec.moves_by_player(forced=False).items():
            name, params = names(site, move)
            actions[seat][name] += times
            for pos, text in params:
                values[seat][(name, pos, text)] += times
        by_seat = [Counter() for _ in range(n)]
        fired = Counter()
        for (trigger, seat), times in rec.fired_counts().items():
            fired[triggers[trigger]] += times
            if seat is not None:
                by_seat[seat][triggers[trigger]] += times
        out.append(GameRecord(g, list(res.scores), list(res.winners), res.moves, rec.chance, actions, values,
                              by_seat, fired, holdings(res.state, n), turns_of(rec)))
        if progress is not None:
            progress.update(len(out))
    return out


def _worker(args):
    return play_games(*args)


def run(rules, players, bots, games, seed=0, modules=(), options=None, jobs=1, progress=None,
        max_moves=100_000, executor="local", ray_address=None) -> list:
    """The records of `games` games, in game order. `progress` is a tools.simulate.Progress
    (or None), advanced by the games done. `executor` 'ray' runs the `jobs` parts as Ray
    tasks (tools/executors.py)."""
    from .tournament import _chunks
    chunks = _chunks(games, max(1, min(jobs, games)))
    args = [(rules, players, list(bots), seed, idx, tuple(modules), options, max_moves) for idx in chunks]
    from .executors import run_parts
    return run_parts(_worker, args, executor, ray_address, progress)
