"""The rules-level record of one game: who took which decision, which triggers fired, how
many chance events there were, noted by the engine while the game runs.

A state carries one only when its driver asks (`game.new_initial_state(seed, record=True)`,
or `state.record = Record()` later); otherwise the engine pays one test of a slot per
decision taken and per trigger fired. Clones never carry it (a search bot's simulations are
not the game), and saves do not keep it. `regola balance` counts the actions of winners and
losers from it, `regola coverage` the actions played and triggers fired, scenarios their
`forced:` steps.

Entries are raw engine values, so noting one costs an append: a decision is `(site, player,
move, forced)` with the move as `legal_moves` gave it (`game.move_text(site, move)` names it)
and `forced` true when the rules took it on their own because it had one option; a trigger
is `(index into game.triggers, player)`, the player being whoever the trigger acts for (None
for `on game end`).
"""

from __future__ import annotations

from collections import Counter


class Record:
    __slots__ = ("taken", "fired", "chance")

    def __init__(self):
        self.taken: list = []       # (site, player, move, forced), in the order taken
        self.fired: list = []       # (trigger, player), in the order fired
        self.chance = 0             # chance events resolved

    # noted by the generated code (codegen/machines.py, codegen/program.py)
    def forced(self, site: int, player, move) -> None:
        self.taken.append((site, player, move, True))

    def fire(self, trigger: int, player) -> None:
        self.fired.append((trigger, player))

    # ------------------------------------------------------------ summaries

    def moves_by_player(self, forced: bool = True) -> Counter:
        """How often each (player, site, move) was taken; `forced=False` leaves
        out those the rules took on their own."""
        return Counter((p, site, m) for site, p, m, f in self.taken if forced or not f)

    def fired_counts(self) -> Counter:
        """How often each (trigger, player) fired."""
        return Counter(self.fired)

    def __repr__(self) -> str:
        forced = sum(1 for t in self.taken if t[3])
        return (f"Record({len(self.taken)} decisions, {forced} of them forced, {len(self.fired)} triggers fired, "
                f"{self.chance} chance events)")
