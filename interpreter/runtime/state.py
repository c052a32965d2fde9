"""The game state: plain data only (ints, None, lists, dicts of them).

`v` holds every declared variable in a flat list (the compiler assigns slots); `stack` holds
the frames `[unit, block, locals, me]` of rules waiting to continue; `pending` says who
decides now (`[site, player]`, player -1 for chance); `rng` is the seeded random state;
`hist`, kept only when asked for (`new_initial_state(seed, history=True)`), is the moves and
chance outcomes so far as a chain `(previous, site, player, move)` from a `HistoryStart`
(an empty tuple that keeps the state the history starts from: runtime/recall.py): shared by
clones, never copied. `record`, when a driver asks for one, is the rules-level record of the
game (runtime/record.py: decisions taken, triggers fired; not copied by clones, not saved).
"""

from __future__ import annotations

PLAYING, ENDING, OVER = 0, 1, 2
MASK64 = (1 << 64) - 1


class State:
    __slots__ = ("v", "stack", "pending", "cache", "rng", "phase", "result", "nplayers", "hist", "record", "own")

    def __init__(self):
        self.v: list = []
        self.stack: list = []
        self.pending = None
        self.cache = None            # legal moves at the pending decision (derived, not saved)
        self.rng = 0
        self.phase = PLAYING
        self.result = None           # [(score, [tiebreaks]) per player] once over
        self.nplayers = 0
        self.hist = None             # the history, when kept (a HistoryStart at the start)
        self.record = None           # a runtime.record.Record when the driver keeps one
        self.own = None              # None: every container in v is this state's own; else a bit
                                     # mask of the slots whose containers it owns (the others it
                                     # shares with a clone: runtime/sharing.py)


def seed_rng(seed: int) -> int:
    # spread small seeds over the 64-bit state
    x = (int(seed) * 0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019) & MASK64
    return x


def rng_next(state: int) -> tuple[int, int]:
    """splitmix64: (new state, 64-bit output)."""
    s = (state + 0x9E3779B97F4A7C15) & MASK64
    z = s
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return s, z ^ (z >> 31)
