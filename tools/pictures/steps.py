"""A game log as steps: the state at each decision a player made, with the move made there,
and the end. Step 0 is the first decision (after the setup's chance events), step k the
decision after k moves, and the last step the end of the game (or where the log stops).
The chance outcomes that follow a move belong to its step.

The log is replayed and verified as `regola replay` does (tools/match.py): a move that is
not legal or an outcome that is not possible is a ReplayError.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..match import replay

from .picture import ALL


@dataclass
class Step:
    state: object                      # a clone of the state at this decision
    move: tuple | None = None          # the move made here (None at the end)
    chance: list = field(default_factory=list)     # the outcomes drawn after it, as text

    @property
    def mover(self) -> int | None:
        return None if self.move is None else self.state.pending[1]

    def move_seen_by(self, game, viewer) -> str | None:
        """The move made here as `viewer` may be told of it (`move_str_seen_by`)."""
        if self.move is None:
            return None
        if viewer == ALL:
            return game.move_str(self.state, self.move)
        return game.move_str_seen_by(self.state, self.move, viewer)


def log_steps(path, forced: bool = False):
    """(game, log, steps) of a log file, every move and outcome verified."""
    steps: list[Step] = []

    def after(entry, game, s):
        if entry is not None and entry["type"] == "move":
            last = steps[-1]
            last.move = game.parse_move(last.state, entry["move"])
        elif entry is not None and steps:
            steps[-1].chance.append(entry["outcome"])
        if s.pending is not None and s.pending[1] != -1:
            steps.append(Step(game.clone(s)))

    game, s, log = replay(path, forced=forced, after_move=after)
    if not steps or s.pending is None or s.pending[1] == -1:
        steps.append(Step(game.clone(s)))
    return game, log, steps


def last_move_text(game, steps: list[Step], k: int, viewer) -> str | None:
    """`player(2) played take(1)`: the move that led to step k, as `viewer` may be told of it."""
    if k == 0 or steps[k - 1].move is None:
        return None
    before = steps[k - 1]
    return f"player({before.mover + 1}) played {before.move_seen_by(game, viewer)}"
