"""What a move did, in the game's own words: the changes a viewer can see between two of
their observations (generic: from the declarations, never from a game's Python).

    player(2) plays buy_tile(1)
        player(2).florins 14 -> 13
        player(2).hand + tower_A
        face_up[1] tower_A -> none; face_up[2] none -> office

Used by `regola play` (every move, the person's included, and the chance events and forced
moves it set off) and `regola replay --verbose`. Only what the viewer's observation holds is
compared, so nothing hidden is narrated: a private hand of someone else changes only in its
count.
"""

from __future__ import annotations

from regola.textsafe import safe_line

WIDTH = 80


def changes(before: dict, after: dict, skip=()) -> list[str]:
    """The visible differences between two observations, one short phrase each (variables
    named in skip, the rules' `internal` bookkeeping, left out)."""
    out: list[str] = []
    for name, vb in after.get("state", {}).items():
        if name not in skip:
            _diff(name, before.get("state", {}).get(name), vb, out)
    for who, vals in after.get("player_state", {}).items():
        mine = before.get("player_state", {}).get(who, {})
        for name, vb in vals.items():
            if name not in skip:
                _diff(f"{who}.{name}", mine.get(name), vb, out)
    return out


def narrate(before: dict, after: dict, indent: str = "    ", skip=()) -> list[str]:
    """The changes as lines of at most WIDTH columns (phrases joined with '; ')."""
    lines, cur = [], ""
    for phrase in changes(before, after, skip):
        phrase = safe_line(phrase)
        if cur and len(indent) + len(cur) + 2 + len(phrase) > WIDTH:
            lines.append(indent + cur)
            cur = ""
        cur = f"{cur}; {phrase}" if cur else phrase
    if cur:
        lines.append(indent + cur)
    return lines


def _diff(path: str, a, b, out: list):
    """Phrases for what changed from a to b at path (`face_up[1]`, `player(2).hand`)."""
    if a == b:
        return
    if _is_zone(a) or _is_zone(b):
        out.append(_zone_change(path, a or {"count": 0}, b or {"count": 0}))
    elif isinstance(a, dict) and isinstance(b, dict):
        for k, vb in b.items():
            _diff(f"{path}[{k}]", a.get(k), vb, out)
    else:
        out.append(f"{path} {_show(a)} -> {_show(b)}")


def _is_zone(v) -> bool:
    return isinstance(v, dict) and "count" in v and set(v) <= {"count", "contents"}


def _zone_change(name: str, a: dict, b: dict) -> str:
    ca, cb = a.get("contents"), b.get("contents")
    if ca is None or cb is None:           # counts only (hidden from this viewer)
        d = b.get("count", 0) - a.get("count", 0)
        return f"{name} {'+' if d > 0 else '-'}{abs(d)} (now {b.get('count', 0)})" if d else f"{name} changed"
    parts = []
    for kind in sorted(set(ca) | set(cb)):
        d = cb.get(kind, 0) - ca.get(kind, 0)
        if d:
            parts.append(f"{'+' if d > 0 else '-'} {kind}" + (f" x{abs(d)}" if abs(d) > 1 else ""))
    return f"{name} " + ", ".join(parts)


def _show(v) -> str:
    if v is None:
        return "none"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, list):
        return "[" + ", ".join(_show(x) for x in v) + "]"
    if isinstance(v, dict):
        if _is_zone(v):
            return f"{v.get('count', 0)} " + ("(" + ", ".join(f"{k} x{n}" if n > 1 else k
                                                          for k, n in v["contents"].items()) + ")"
                                              if "contents" in v else "hidden")
        return "{" + ", ".join(f"{k}: {_show(x)}" for k, x in v.items()) + "}"
    return str(v)
