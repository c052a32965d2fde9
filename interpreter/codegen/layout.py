"""The state layout: every variable of a checked program gets a slot in the flat list `S.v`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from .. import types as T


@dataclass
class VarSlot:
    name: str
    key: str                    # name in `slots` ('.x' for per-player variables)
    slot: int
    per_player: bool
    kind: str                   # scalar | map | zone | grid | cell_attr
    type: T.Type
    visibility: str = "public"
    init: object = None
    size: int = 0               # map or slotted-zone length
    known_slot: int = -1        # knowledge bitmasks for hidden slotted zones
    seen_slot: int = -1         # who knows a private or hidden variable as a whole (reveal/peek/knows)
    internal: bool = False      # bookkeeping (`internal`): left out of views and narration
    low: Optional[int] = None
    high: Optional[int] = None
    clamp: bool = False
    grid: Optional[T.GridInfo] = None
    keys: int = 0               # keyed zones: one zone per key (0: not keyed)
    key_type: Optional[T.Type] = None
    holds: Optional[str] = None    # the generated function of `holds c where ...` (D_holds__<name>)

    @property
    def zone(self) -> Optional[T.ZoneType]:
        t = self.type
        return t.zone if isinstance(t, T.KeyedZones) else (t if isinstance(t, T.ZoneType) else None)


class LayoutCompiler:
    """Lays out the state. Uses ProgramCompiler's `p` (the checked program) and `players`, and
    fills its `vars` (VarSlot list) and `slots` (slot by key)."""

    def _layout(self):
        p = self.p
        n = 0

        def add(vs: VarSlot):
            nonlocal n
            vs.slot = n
            n += 1
            self.slots[vs.key] = vs.slot
            self.vars.append(vs)
            return vs

        for g in p.grids.values():
            add(VarSlot(g.name, g.name, -1, False, "grid", T.GridType(g), size=g.ncells, grid=g))
            for attr, t in g.cell_attrs.items():
                add(VarSlot(attr, attr, -1, False, "cell_attr", t, size=g.ncells, grid=g))
        for vi in list(p.globals.values()) + list(p.pvars.values()):
            t = vi.type
            key = ("." if vi.per_player else "") + vi.name
            kind, size, keys, key_type = "scalar", 0, 0, None
            if isinstance(t, T.KeyedZones):
                kind = "zone"
                size = _zone_len(t.zone, self.players)
                keys, key_type = T.type_size(t.key, self.players), t.key
            elif isinstance(t, T.ZoneType):
                kind = "zone"
                size = _zone_len(t, self.players)
            elif isinstance(t, T.MapType):
                kind = "map"
                size = T.type_size(t.key, self.players)
            vs = add(VarSlot(vi.name, key, -1, vi.per_player, kind, t, vi.visibility, vi.init, size,
                             low=vi.low, high=vi.high, clamp=vi.clamp, keys=keys, key_type=key_type))
            vi.slot = vs.slot
            vs.internal = vi.internal
            vs.holds = f"D_{vi.holds}" if vi.holds else None
            if isinstance(t, T.ZoneType) and t.slotted and vi.visibility == "hidden":
                ks = VarSlot(vi.name + "?", "?" + key, -1, vi.per_player, "known", t, size=size)
                add(ks)
                vs.known_slot = ks.slot
                vi.known_slot = ks.slot
            if vi.revealed:
                # one bitmask of the players who know it (-1: everyone), cleared when it changes
                ss = VarSlot(vi.name + "!", "!" + key, -1, vi.per_player, "known", T.INT, size=1)
                add(ss)
                vs.seen_slot = ss.slot
                vi.seen_slot = ss.slot


def _zone_len(t: T.ZoneType, players: int) -> int:
    if t.zone == "row":
        return t.size_
    if t.zone == "slots":
        return T.type_size(t.key, players)
    if t.counted:
        return len(t.elem.kinds)
    return 0
