"""Play one game with agents, optionally recording a log; replay a log and verify it."""

from __future__ import annotations

from dataclasses import dataclass

from regola.loader import load_game

from . import logs
from .agents import make_agent


class GameDidNotEnd(Exception):
    """A game that does not end: too many moves (`hint` says how to allow more), or the rules
    drawing and rolling for ever with nobody to move."""

    def __init__(self, message: str, hint: str = "the rules may never end (or raise --max-moves)"):
        super().__init__(message)
        self.hint = hint


@dataclass
class Result:
    scores: list[int]
    winners: list[int]
    moves: int            # decisions taken by players
    log: logs.Log | None = None
    state: object = None      # the final state (`state.record`: the engine's record, when asked)


MAX_CHANCE_RUN = 100_000      # chance outcomes in a row, with no move between, before a game is called endless


def play(game, agents, seed: int, rules: str = "", record: bool = False, max_moves: int = 100_000,
         rules_record: bool = False) -> Result:
    """Play to the end. Chance is drawn from the state's seeded generator. A game with more
    than `max_moves` moves, or MAX_CHANCE_RUN chance outcomes in a row (rules that roll or
    draw for ever without asking anyone), raises GameDidNotEnd; so does a game longer than
    the rules' own `at most N moves`, and a score outside their `scores A..B` is an error.
    `record` keeps the game's log (moves and outcomes as text); `rules_record` the engine's
    record (who took which decision, which triggers fired), far cheaper."""
    declared = game.prog.max_moves
    s = game.new_initial_state(seed, record=rules_record)
    log = logs.Log(logs.header(game, rules or game.name, seed, [a.name for a in agents])) if record else None
    moves = chance_run = 0
    legal_moves, apply, step_chance = game.legal_moves, game.apply, game.step_chance
    while s.pending is not None:
        who = s.pending[1]
        if who == -1:
            chance_run += 1
            if chance_run > MAX_CHANCE_RUN:
                where = game.sites[s.pending[0]].node.span       # the roll or draw met last
                raise GameDidNotEnd(f"{where}: seed {seed}: {MAX_CHANCE_RUN:,} chance outcomes in a row and "
                                    f"no move", "the rules may never end (an endless loop of rolls or draws?)")
            # the seeded outcome sample_chance + apply_chance would give, drawn and applied once
            site = s.pending[0]
            o = step_chance(s)
            if log is not None:
                log.entries.append({"type": "chance", "outcome": game.outcome_text(site, o)})
            continue
        chance_run = 0
        ms = legal_moves(s)
        m = agents[who].choose(game, s, ms)
        if log is not None:
            log.entries.append({"type": "move", "player": who + 1, "move": game.move_str(s, m),
                                "id": game.move_id(s, m)})
        apply(s, m)
        moves += 1
        if moves > max_moves:
            raise GameDidNotEnd(f"seed {seed}: no end after {max_moves} moves")
        if declared is not None and moves > declared:
            where = game.prog.header_spans.get("moves")
            raise GameDidNotEnd(f"{where}: seed {seed}: a move more than the rules' 'at most {declared} moves'",
                                "the declaration or the rules are wrong")
    scores = game.scores(s)
    if game.prog.score_bounds is not None:
        lo, hi = game.prog.score_bounds
        for p, sc in enumerate(scores):
            if not lo <= sc <= hi:
                from regola.runtime.helpers import RulesRuntimeError
                raise RulesRuntimeError(f"{game.prog.header_spans.get('scores')}: seed {seed}: player({p + 1}) "
                                        f"scores {sc}, outside the rules' 'scores {lo}..{hi}'")
    winners = game.winners(s)
    if log is not None:
        log.end = {"type": "end", "scores": scores, "winners": [w + 1 for w in winners], "moves": moves}
    return Result(scores, winners, moves, log, s)


def agents_for(game, names: list[str], seed: int):
    n = game.num_players
    names = list(names) or ["random"]
    if len(names) == 1:
        names = names * n
    if len(names) != n:
        raise ValueError(f"give one bot, or one per player ({n}), not {len(names)}")
    return [make_agent(name, seed * 1_000_003 + 7919 * i + 1) for i, name in enumerate(names)]


class ReplayError(Exception):
    pass


def replay(path, forced: bool = False, after_move=None):
    """Re-run a log: every move must be legal and every chance outcome possible (and, unless
    `forced`, the one the seed draws). Returns (game, final state, log). `after_move(entry,
    game, state)` is called after each move and chance outcome is played (and once with
    entry None before the first)."""
    log = logs.read(path)
    h = log.header
    try:
        game = load_game(h["rules"], modules=_explicit_modules(h), players=int(h["players"]),
                         options=h.get("options"))
    except Exception as e:  # noqa: BLE001
        what = f" (the log is of the game '{h['game']}'" + (f", rules fingerprint {h['fingerprint']})"
                                                            if h.get("fingerprint") else ")") if h.get("game") else ""
        raise ReplayError(f"{path}: cannot load the rules of this log ({h['rules']}){what}: {e}") from None
    if h.get("fingerprint") and h["fingerprint"] != game.fingerprint:
        raise ReplayError(f"{path}: the rules changed since this log was written (fingerprint "
                          f"{h['fingerprint']} != {game.fingerprint})")
    s = game.new_initial_state(int(h["seed"]))
    if after_move is not None:
        after_move(None, game, s)             # the position before the first entry
    for e in log.entries:
        where = f"{path}:{e['_line']}"
        if s.pending is None:
            raise ReplayError(f"{where}: the game is already over, but the log goes on")
        if e["type"] == "chance":
            if not game.is_chance(s):
                raise ReplayError(f"{where}: the log has a chance outcome, but player "
                                  f"{s.pending[1] + 1} is to move")
            expected = game.sample_chance(s)
            try:
                o = game.parse_outcome(s, str(e.get("outcome")))
            except Exception as ex:  # noqa: BLE001
                raise ReplayError(f"{where}: {ex}") from None
            if o != expected and not forced:
                raise ReplayError(f"{where}: chance outcome {e.get('outcome')!r} is not what seed {h['seed']} "
                                  f"draws ({game.outcome_str(s, expected)!r}); use --forced to accept "
                                  f"the log's outcomes")
            try:
                game.apply_chance(s, o)
            except Exception as ex:  # noqa: BLE001
                raise ReplayError(f"{where}: {ex}") from None
            if after_move is not None:
                after_move(e, game, s)
            continue
        if game.is_chance(s):
            raise ReplayError(f"{where}: the log has a move, but a chance event comes first")
        who = s.pending[1] + 1
        if e.get("player") != who:
            raise ReplayError(f"{where}: the log says player {e.get('player')} moves, but it is player {who}")
        try:
            m = game.parse_move(s, str(e.get("move")))
        except Exception as ex:  # noqa: BLE001
            raise ReplayError(f"{where}: {ex}") from None
        if "id" in e and e["id"] != game.move_id(s, m):
            raise ReplayError(f"{where}: move {e['move']!r} has id {game.move_id(s, m)}, the log says {e['id']}")
        game.apply(s, m)
        if after_move is not None:
            after_move(e, game, s)
    if log.end is not None:
        where = f"{path}:{log.end['_line']}"
        if s.pending is not None:
            raise ReplayError(f"{where}: the log ends, but the game is not over")
        if log.end.get("scores") != game.scores(s):
            raise ReplayError(f"{where}: final scores {game.scores(s)} differ from the log's {log.end.get('scores')}")
    return game, s, log


def _explicit_modules(h) -> list[str]:
    """Modules chosen with --with (automatic ones are re-derived from the player count)."""
    return list(h.get("with", []))
