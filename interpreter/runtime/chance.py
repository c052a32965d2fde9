"""Chance events: the possible outcomes of a draw or a roll, sampling one from the state's
seeded generator, applying one, and the names of outcomes.
"""

from __future__ import annotations

import operator
from bisect import bisect_right
from itertools import accumulate

from .. import types as T
from . import state as st
from .moves import IllegalMove
from .runner import _PYTHON_ERRORS
from .values import _BAD, format_value, parse_value


def _draw(s, counts) -> int:
    """A kind drawn from a stack's counts with the state's generator (advancing it): the first
    kind whose running total passes the draw mod the total, as if walking the copies kind by
    kind; kinds with no copy left are never chosen. The generator's step is st.rng_next
    written out (a call fewer on the draw of every tile and card)."""
    r = s.rng = (s.rng + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
    z = ((r ^ (r >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
    cum = list(accumulate(counts))
    return bisect_right(cum, (z ^ (z >> 31)) % cum[-1])


def _hashable(v):
    """A rolled value as a key: a list (a pair of dice, say) as a tuple, nested too."""
    return tuple(_hashable(x) for x in v) if isinstance(v, list) else v


class Chance:
    """Part of `Game` (game.py): uses its `prog`, `sites`, `_site_funcs`, `_site_keys`,
    `is_chance` and `_run`."""

    def chance_kind(self, s) -> str:
        """'draw' (a component from a stack) or 'roll' (a value of a list)."""
        return "roll" if self.sites[s.pending[0]].kind == "roll" else "draw"

    def chance_outcomes(self, s) -> list[tuple[object, float]]:
        dist = self._chance_dist(s)
        total = sum(n for _, n in dist)
        return [(v, n / total) for v, n in dist]

    def _chance_dist(self, s):
        """[(outcome, weight)]: the kinds left in a stack drawn from, or the values rolled."""
        if not self.is_chance(s):
            raise IllegalMove("chance", "this is not a chance event")
        site = self.sites[s.pending[0]]
        try:
            vals = self._site_funcs[site.index](s, s.stack[-1])
            if site.kind == "roll":
                tally: dict = {}                  # key -> [value, weight], in first-seen order
                for v in vals:
                    k = _hashable(v)
                    if k in tally:
                        tally[k][1] += 1
                    else:
                        tally[k] = [v, 1]
                return [(v, n) for v, n in tally.values()]
            return [(k, n) for k, n in enumerate(self._counts(vals)) if n]
        except _PYTHON_ERRORS as e:
            raise self._located(e) from None

    @staticmethod
    def _counts(vals):
        """The counts of a stack, checked (a state loaded from outside could hold anything)."""
        if type(vals) is not list or not all(type(n) is int and n >= 0 for n in vals):
            raise TypeError("the stack drawn from does not hold counts of components")
        return vals

    def _draw_counts(self, s):
        """The counts of the stack drawn from at a draw, or None at a roll."""
        site = s.pending[0]
        if self._site_keys[site] != "@o":
            return None
        try:
            return self._counts(self._site_funcs[site](s, s.stack[-1]))
        except _PYTHON_ERRORS as e:
            raise self._located(e) from None

    def sample_chance(self, s):
        """Draw an outcome from the state's seeded generator (advancing it)."""
        if s.pending is None or s.pending[1] != -1:
            raise IllegalMove("chance", "this is not a chance event")
        counts = self._draw_counts(s)
        if counts is not None:
            return _draw(s, counts)
        dist = self._chance_dist(s)
        total = sum(n for _, n in dist)
        s.rng, x = st.rng_next(s.rng)
        r = x % total
        for v, n in dist:
            if r < n:
                return v
            r -= n
        raise AssertionError("unreachable")

    def apply_chance(self, s, outcome) -> None:
        if s.pending is None or s.pending[1] != -1:
            raise IllegalMove(str(outcome), "this is not a chance event")
        if isinstance(outcome, str):
            outcome = self.parse_outcome(s, outcome)
        counts = self._draw_counts(s)
        if counts is not None:
            try:
                outcome = operator.index(outcome)      # also a numpy integer from an adapter
            except TypeError:
                raise IllegalMove(str(outcome), "a drawn kind is a number") from None
            if not (0 <= outcome < len(counts) and counts[outcome] > 0):
                raise IllegalMove(str(outcome), "this outcome is not possible now")
            key = "@o"
        else:
            if outcome not in [v for v, _ in self._chance_dist(s)]:
                raise IllegalMove(str(outcome), "this outcome is not possible now")
            key = self._site_keys[s.pending[0]]
        if s.hist is not None:
            s.hist = (s.hist, s.pending[0], -1, outcome)
        if s.record is not None:
            s.record.chance += 1
        s.stack[-1][2][key] = outcome
        s.pending = None
        s.cache = None
        self._run(s)

    def step_chance(self, s) -> int:
        """Resolve a chance event from the seed; returns the outcome (the same as
        sample_chance then apply_chance, without checking its own draw again)."""
        pending = s.pending
        if pending is None or pending[1] != -1:
            raise IllegalMove("chance", "this is not a chance event")
        site = pending[0]
        F = s.stack[-1]
        key = self._site_keys[site]
        if key == "@o":
            try:
                o = _draw(s, self._site_funcs[site](s, F))
            except _PYTHON_ERRORS as e:
                raise self._located(e) from None
        else:
            o = self.sample_chance(s)
        if s.hist is not None:
            s.hist = (s.hist, site, -1, o)
        if s.record is not None:
            s.record.chance += 1
        F[2][key] = o
        s.pending = None
        s.cache = None
        self._run(s)
        return o

    def outcome_str(self, s, outcome) -> str:
        return self.outcome_text(s.pending[0], outcome)

    def outcome_text(self, site_index: int, outcome) -> str:
        """An outcome's text at a chance site (the site of the pending event, or of one just
        resolved: `step_chance` returns the outcome once the state has moved on)."""
        site = self.sites[site_index]
        if site.kind == "roll":
            return format_value(site.value_type, outcome)
        rec = T.strip(self.prog.types.get(id(site.node.zone))).elem
        return rec.kinds[outcome]

    def names_an_outcome(self, s, text: str) -> bool:
        """Whether `text` names an outcome of the pending chance event's kind, possible now or
        not: a kind of the drawn record type, a value of the rolled type."""
        site = self.sites[s.pending[0]]
        if site.kind == "roll":
            return parse_value(site.value_type, str(text)) is not _BAD
        rec = T.strip(self.prog.types.get(id(site.node.zone))).elem
        return str(text).strip() in rec.kinds

    def parse_outcome(self, s, text: str):
        site = self.sites[s.pending[0]]
        from ..suggest import did_you_mean
        if site.kind == "roll":
            names = {self.outcome_str(s, v): v for v, _ in self._chance_dist(s)}
            if text.strip() in names:
                return names[text.strip()]
            raise IllegalMove(text, f"not a possible outcome ({', '.join(names)})")
        rec = T.strip(self.prog.types.get(id(site.node.zone))).elem
        if text in rec.kinds:
            return rec.kinds.index(text)
        raise IllegalMove(text, f"not a {rec.name}{did_you_mean(text, rec.kinds)}")
