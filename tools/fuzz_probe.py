"""The fuzzer's third step (tools/fuzz.py): a game that checked clean and played is driven
through the rest of the runtime API a program uses, where `regola simulate` does not go.

At every decision of one game of random moves: `observe` for each player and a spectator,
`dump` through JSON and `load` back (the loaded state dumps the same), `clone`; at a move
`move_str`, `parse_move` of that text and `move_from_id` of `move_id` give the move back,
`move_str_seen_by` for each player; at a chance event `chance_outcomes`, `outcome_str` and
`parse_outcome` of it; a clone that shares the state's lists (runtime/sharing.py, on for
these rules whatever their size) plays a few steps, and neither it nor the state sees the
other's moves. At the end `scores` and `winners`. Then one game of the optimised
compilation against the plain one (tools/crosscheck.py): a difference is a bug of the code
generator's rewrites that these rules set off.

A rules runtime error is fine where it is located (`file:line:col: ...`). Anything else is
printed as `regola probe: ...` and, if it is a broken promise of the API (a dumped state
that does not load, a move text that does not parse back), as `mismatch: ...`.
"""

from __future__ import annotations

import json
import random
import sys

from regola.loader import load_game
from regola.runtime.helpers import RulesRuntimeError


class Mismatch(Exception):
    """The API broke one of its promises about a state of these rules."""


def probe(path: str, players, modules, seed: int, steps: int = 150) -> int:
    """Drive one game; 0 when it went through, 1 with a message otherwise."""
    try:
        _drive(path, players, modules, seed, steps)
        _crosscheck(path, players, modules, seed, steps)
    except RulesRuntimeError as e:
        print(f"regola probe: {e}", file=sys.stderr)
        return 1
    except Mismatch as e:
        print(f"regola probe: mismatch: {e}", file=sys.stderr)
        return 1
    print("probe: ok")
    return 0


def _drive(path, players, modules, seed, steps):
    game = load_game(path, modules=list(modules), players=players)
    game._share_clones(True)
    rng = random.Random(seed)
    s = game.new_initial_state(seed)
    apart = None                 # (a clone made at the last step, its dump then)
    for step in range(steps):
        if apart is not None and _dumped(game, apart[0]) != apart[1]:
            raise Mismatch(f"step {step}: a move changed a clone made before it")
        if game.is_terminal(s):
            break
        for p in [None, *range(game.num_players)]:
            json.dumps(game.observe(s, p))
        apart = _round_trip(game, s, step, rng)
        if game.is_chance(s):
            dist = game.chance_outcomes(s)
            o = game.sample_chance(s)
            if o not in [v for v, _ in dist]:
                raise Mismatch(f"step {step}: sample_chance gave {o!r}, not one of chance_outcomes")
            text = game.outcome_str(s, o)
            if game.parse_outcome(s, text) != o:
                raise Mismatch(f"step {step}: outcome {text!r} parses back to another outcome")
            game.apply_chance(s, o)
            continue
        moves = game.legal_moves(s)
        m = moves[rng.randrange(len(moves))]
        text = game.move_str(s, m)
        for p in range(game.num_players):
            game.move_str_seen_by(s, m, p)
        back = game.parse_move(s, text)
        if back != m:
            raise Mismatch(f"step {step}: move {text!r} parses back to {game.move_str(s, back)!r}")
        ident = game.move_id(s, m)
        if game.move_from_id(s, ident) != m:
            raise Mismatch(f"step {step}: move {text!r} has id {ident}, which names another move")
        game.apply(s, m)
    if game.is_terminal(s):
        game.scores(s)
        game.winners(s)


def _crosscheck(path, players, modules, seed, steps):
    from .crosscheck import crosscheck
    rep = crosscheck(path, players, modules, games=1, seed=seed, max_moves=steps)
    if rep.divergence is not None:          # (no plain compilation, rep.plain_error: nothing to compare)
        raise Mismatch("the optimised and the plain compilation differ: "
                       + rep.divergence.text().replace("\n", " "))


def _round_trip(game, s, step, rng):
    """Dump and load `s`; clone it and play the clone a few steps: `s` must not change.
    Returns a clone of `s` and its dump (the next step checks that `s`'s move left it)."""
    from regola.runtime.game import StateError
    text = _dumped(game, s)
    d = json.loads(text)
    try:
        s2 = game.load(d)
    except StateError as e:
        raise Mismatch(f"step {step}: a dumped state does not load back: {e}") from None
    if json.loads(json.dumps(game.dump(s2))) != d:
        raise Mismatch(f"step {step}: a loaded state dumps differently")
    c = game.clone(s)
    try:
        for _ in range(rng.randrange(1, 4)):
            if game.is_terminal(c):
                break
            if game.is_chance(c):
                game.step_chance(c)
            else:
                moves = game.legal_moves(c)
                game.apply(c, moves[rng.randrange(len(moves))])
    except RulesRuntimeError:
        pass                     # (the game itself goes there, or not: its own step says)
    if _dumped(game, s) != text:
        raise Mismatch(f"step {step}: a move on a clone changed the state it was cloned from")
    kept = game.clone(s)
    return kept, _dumped(game, kept)


def _dumped(game, s) -> str:
    return json.dumps(game.dump(s))
