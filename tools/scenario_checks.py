"""Scenario steps about what a player sees and what the rules decided on their own:

    - observe:                        # what player 2 can know now
        player: 2
        expect: ["count(player(1).hand) == 3", "knows(me, privilege[d1])"]
        unknown: ["player(1).hand"]   # values player 2 cannot tell
    - forced: "shield=A"              # a decision taken without asking (it had one option)
    - impossible: [shop, office]      # chance outcomes that cannot come now

`observe` judges an expression by the states the player cannot tell apart from the real one
(`game.resample`, OBSERVE_DRAWS redraws of what they do not see or know): an `expect` holds in
the real state and in every redraw (so the player knows it: a hidden hand's count, a card
they peeked at), an `unknown` takes another value in at least one redraw (the player cannot
tell it: the hand's cards). `me` is the observing player.
"""

from __future__ import annotations

import random

from regola.runtime.helpers import RulesRuntimeError

OBSERVE_DRAWS = 24        # redraws an `observe:` step judges an expression by


def observe(game, snip, s, spec: dict, origin, seed: int):
    """(ok, message, checks) of an `observe:` step."""
    where = f"{origin[0]}:{origin[1]}"
    seat = spec["player"]
    if not 1 <= seat <= game.num_players:
        return False, f"{where}: 'observe:' names player {seat}, and this game has {game.num_players}", 0
    p = seat - 1
    rng = random.Random(seed * 7919 + origin[1])
    draws = [game.resample(s, p, rng) for _ in range(OBSERVE_DRAWS)]
    checks = 0
    for kind in ("expect", "unknown"):
        for text, at in spec.get(kind, []):
            fn = snip.expression(text, at)
            try:
                real = fn(s, p)
                values = [fn(r, p) for r in draws]
            except RulesRuntimeError as e:
                return False, f"{at[0]}:{at[1]}: evaluating {text!r} failed: {e}", checks
            differs = [v for v in values if v != real]
            if kind == "expect":
                if real is not True:
                    return False, f"{at[0]}:{at[1]}: observe (player {seat}): {text} is {real!r}", checks
                if differs:
                    return False, (f"{at[0]}:{at[1]}: observe (player {seat}): {text} holds, but player {seat} "
                                   f"cannot know it: it is {differs[0]!r} in a state they cannot tell from "
                                   f"this one (it depends on what they do not see)"), checks
            elif not differs:
                return False, (f"{at[0]}:{at[1]}: observe (player {seat}): player {seat} can tell {text} "
                               f"({real!r} in all {OBSERVE_DRAWS} states they cannot tell from this one)"), checks
            checks += 1
    return True, "", checks


def forced(game, s, wants: list, where: str):
    """(ok, message) of a `forced:` step: each move text was a decision the rules took on their
    own since the last move (or `forced:` step)."""
    taken = [(game.move_text(site, move), who) for site, who, move, forced in s.record.taken if forced]
    have = {_norm(t) for t, _ in taken}
    for w in wants:
        if _norm(w) not in have:
            listed = ", ".join(f"{t} (player {who + 1})" for t, who in taken) or "none"
            return False, (f"{where}: {w!r} was not taken without asking; the decisions taken without "
                           f"asking since the last move: {listed}")
    return True, ""


def impossible(game, s, outcomes: list, where: str):
    """(ok, message) of an `impossible:` step: a chance event is pending, and none of these
    outcomes can come from it."""
    if not game.is_chance(s):
        return False, f"{where}: 'impossible:' needs a pending chance event"
    possible = {_norm(game.outcome_str(s, o)) for o, weight in game.chance_outcomes(s) if weight > 0}
    for text in outcomes:
        if _norm(text) in possible:
            return False, f"{where}: {text!r} can come from this chance event"
        if not game.names_an_outcome(s, text):
            return False, (f"{where}: {text!r} is no outcome this chance event could ever have: a step "
                           f"that checks it is impossible would pass without testing anything")
    return True, ""


def _norm(text) -> str:
    return "".join(str(text).split())
