"""Passes 7 and 7b, assertions and header_facts: static assertions are evaluated and must
hold; the game header's 'at most N moves' and 'scores A..B' are checked for sense and kept
for adapters."""

from __future__ import annotations

from .. import ast
from .. import types as T


class AssertionsPass:
    """pass_assertions and pass_header_facts."""

    def pass_assertions(self):
        for a in self.p.asserts:
            v, t = self.static_value(a.cond, "an assertion", T.BOOL)
            if v is None:
                continue
            if t is not T.BOOL:
                self.error(a.cond, "E130", f"an assertion must be true or false, not {t}")
            elif not v:
                self.error(a, "E180", f"assertion failed: {a.message}",
                           "the data above disagrees with this fact from the rulebook")

    def pass_header_facts(self):
        """`at most N moves` and `scores A..B`: facts for adapters, checked for sense here."""
        for item in self.composed.source.game_decl.items:
            if isinstance(item, ast.GameLength):
                if item.moves < 1:
                    self.error(item, "E018", "a game has at least 1 move: 'at most N moves' needs N of 1 or more")
                else:
                    self.p.max_moves = item.moves
                    self.p.header_spans["moves"] = item.span
            elif isinstance(item, ast.GameScores):
                lo = self.static_int(item.low, "the lowest score")
                hi = self.static_int(item.high, "the highest score")
                if lo > hi:
                    self.error(item, "E018", f"scores {lo}..{hi}: the lowest score is above the highest")
                else:
                    self.p.score_bounds = (lo, hi)
                    self.p.header_spans["scores"] = item.span
