"""'Did you mean ...?' suggestions for unknown names."""

from __future__ import annotations

import difflib


def closest(name: str, candidates) -> str | None:
    cands = list(dict.fromkeys(candidates))
    m = difflib.get_close_matches(name, cands, n=1, cutoff=0.6)
    if m:
        return m[0]
    low = {c.lower(): c for c in cands}
    return low.get(name.lower())


def did_you_mean(name: str, candidates) -> str:
    c = closest(name, candidates)
    return f"; did you mean '{c}'?" if c else ""
