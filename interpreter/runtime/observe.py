"""What one player may see, derived from the declared visibility of every variable.

public zones show their contents; private ones show their contents to their owner and a
count to everyone else; hidden ones show only a count, except slots a player knows (peeked
at) or that were revealed. Nothing here is written per game.
"""

from __future__ import annotations

from .. import types as T
from . import state as st
from .values import format_value


def observe(game, s, player) -> dict:
    out = {"game": game.name, "players": s.nplayers,
           "you": None if player is None else f"player({player + 1})",
           "over": s.phase == st.OVER}
    if s.pending is not None:
        d = game.decision(s)
        who = d["player"]
        out["to_move"] = "chance" if who == -1 else f"player({who + 1})"
        out["decision"] = {k: d[k] for k in ("kind", "prompt", "cite") if d.get(k)}
        out["decision"]["site"] = d["site"]          # which decision: a turn's first action and a second one differ
    glob, per = {}, [dict() for _ in range(s.nplayers)]
    for vs in game.vars:
        if vs.kind == "known":
            continue
        known = s.v[vs.known_slot] if vs.known_slot >= 0 else None
        seen = s.v[vs.seen_slot] if vs.seen_slot >= 0 else None
        if vs.per_player:
            for p in range(s.nplayers):
                kn = known[p] if known is not None else None
                shown = seen[p][0] if seen is not None else 0
                per[p][vs.name] = _view(vs, s.v[vs.slot][p], player, owner=p, known=kn, shown=shown)
        else:
            shown = seen[0] if seen is not None else 0
            glob[vs.name] = _view(vs, s.v[vs.slot], player, owner=None, known=known, shown=shown)
    out["state"] = glob
    out["player_state"] = {f"player({p + 1})": per[p] for p in range(s.nplayers)}
    if s.phase == st.OVER:
        out["scores"] = {f"player({p + 1})": sc for p, sc in enumerate(game.scores(s))}
    return out


def _fmt(t, v):
    return format_value(t, v) if v is not None else None


def _typed(t, v):
    """A value as JSON-ready data of its type: numbers and booleans as they are, a list as a
    list (of lists too), a name (a kind, an enum value, a player, a cell) as its text, none
    as null."""
    if v is None:
        return None
    s = T.strip(t) if t is not None else T.ANY
    if isinstance(s, T.ListType):
        return [_typed(s.elem, x) for x in v]
    if T.is_int(s) or s is T.BOOL:
        return v
    return format_value(s, v)


def _sees(vs, viewer, owner, shown) -> bool:
    """Public; the owner of a private variable; every player but the owner of an `others`
    one; or shown to this viewer (to everyone: -1) by reveal or peek, and not changed since."""
    if vs.visibility == "public" or shown == -1:
        return True
    if viewer is None:
        return False
    if vs.visibility == "private" and viewer == owner or vs.visibility == "others" and viewer != owner:
        return True
    return bool(shown >> viewer & 1)


def _view(vs, value, viewer, owner, known, shown=0):
    t = vs.type
    if vs.kind in ("scalar", "map") and not _sees(vs, viewer, owner, shown):
        return "hidden"
    if vs.kind == "scalar":
        return _typed(t, value)
    if vs.kind == "map":
        return {_fmt(t.key, k): _typed(t.value, x) for k, x in enumerate(value)}
    if vs.kind == "grid":
        g = vs.grid
        return {_cell(g, c): g.record.kinds[k] for c, k in enumerate(value) if k is not None}
    if vs.kind == "cell_attr":
        g = vs.grid
        return {_cell(g, c): _typed(t, x) for c, x in enumerate(value) if x is not None}
    # zones
    if vs.keys:
        one = _ZoneOf(vs)
        return {_fmt(vs.key_type, k): _view(one, z, viewer, owner, None, shown) for k, z in enumerate(value)}
    sees = _sees(vs, viewer, owner, shown)
    rec = t.elem
    if t.counted:
        total = sum(value)
        if sees:
            return {"count": total, "contents": {rec.kinds[k]: n for k, n in enumerate(value) if n}}
        return {"count": total}
    if t.slotted:
        keyfmt = (lambda i: str(i)) if t.zone == "row" else (lambda i: _fmt(t.key, i))
        slots = {}
        for i, k in enumerate(value):
            if k is None:
                slots[keyfmt(i)] = None
            elif sees:
                slots[keyfmt(i)] = rec.kinds[k]
            elif known is not None and (known[i] == -1 or (viewer is not None and known[i] >> viewer & 1)):
                slots[keyfmt(i)] = rec.kinds[k]
            else:
                slots[keyfmt(i)] = "hidden"
        return slots
    if sees:
        return [rec.kinds[k] for k in value]
    return {"count": len(value)}


class _ZoneOf:
    """The view of one zone of a keyed zone variable."""

    def __init__(self, vs):
        self.kind, self.type, self.visibility, self.keys, self.grid = "zone", vs.zone, vs.visibility, 0, None


def _cell(g, c):
    r, col = divmod(c, g.cols)
    return f"({r},{col})"
