"""Determinization: a full state that one player cannot tell apart from the real one.

`Game.resample(s, player, rng)` copies the state and redraws what `player` does not see or
know, from the declarations alone (nothing here is written per game):

* the components in every zone the player cannot see are shuffled among those places: hidden
  zones (draw stacks, face-down tokens), other players' private zones (their hands), the
  player's own `others` zone (a hand held facing away), each unknown slot of a hidden row (a slot the
  player peeked at, or that was revealed, stays); a zone or slot the player was shown as a
  whole (`reveal`, `peek`) stays too;
* a component only moves to a place of its own record type and only where the place's
  `holds c where ...` allows it (interpreter/holds.py): a deck of one card type keeps that
  type, a hand's slot keeps the cards that agree with what was said of it;
* every place keeps its size (a stack its count, a row its occupied slots), and so the
  counts of each kind of component over all places are kept;
* the state's random generator is replaced from `rng`: the future draws are unknown too;
* choices other players made at a simultaneous decision and that are not revealed yet
  (kept in the running rules' frame) stay possible: in each place holding them, as many
  copies of the chosen components as were chosen stay where they are.

The shuffle is a random walk of swaps between two places (a swap is made when each
component may go to the other's place), started from an arrangement that depends only on
what the player knows (never on the real one, so two states the player cannot tell apart
give the same redraws for the same `rng`): every arrangement
allowed by `holds` can be reached by such swaps when the places of a record type are
connected by them, and the walk has the uniform distribution over them as its limit; a
number of steps proportional to the components moved mixes it well in practice.

Values that are not components (a private or hidden `int` or map) are kept as they are: the
declarations give no distribution for them.
"""

from __future__ import annotations

from . import state as st
from .observe import _sees

SWEEPS = 8          # swap attempts per component shuffled


def resample(game, s, player, rng):
    new = game._own_copy(s)
    new.rng = rng.getrandbits(64)
    if s.phase == st.OVER:
        return new
    new.cache = None                   # another player's options may depend on what changed
    groups = _places(game, new, player)
    pinned = _pinned(new)
    for items in groups.values():
        _shuffle(game, new, items, pinned, rng)
    game.restart_history(s, player, new)
    return new


class _Place:
    """One place of unseen components: a counted zone, or one slot or position of a zone."""
    __slots__ = ("vs", "owner", "key", "container", "index", "counted")

    def __init__(self, vs, owner, key, container, index, counted):
        self.vs, self.owner, self.key = vs, owner, key
        self.container, self.index, self.counted = container, index, counted


def _places(game, s, player) -> dict:
    """Record type name -> [place, kind] items: every unseen component, where it is."""
    groups: dict = {}
    for vs in game.vars:
        if vs.kind != "zone":
            continue
        zt = vs.zone
        rec = zt.elem.name
        seen = s.v[vs.seen_slot] if vs.seen_slot >= 0 else None
        known = s.v[vs.known_slot] if vs.known_slot >= 0 else None
        owners = range(s.nplayers) if vs.per_player else (None,)
        for owner in owners:
            shown = (seen[owner][0] if vs.per_player else seen[0]) if seen is not None else 0
            if _sees(vs, player, owner, shown):
                continue
            value = s.v[vs.slot][owner] if vs.per_player else s.v[vs.slot]
            kn = (known[owner] if vs.per_player else known) if known is not None else None
            zones = list(enumerate(value)) if vs.keys else [(None, value)]
            items = groups.setdefault(rec, [])
            for key, z in zones:
                if zt.counted:
                    place = _Place(vs, owner, key, z, None, True)
                    for kind, n in enumerate(z):
                        items.extend([place, kind] for _ in range(n))
                    continue
                for i, kind in enumerate(z):
                    if kind is None:
                        continue
                    if kn is not None and (kn[i] == -1 or (player is not None and kn[i] >> player & 1)):
                        continue                       # a slot this player knows
                    items.append([_Place(vs, owner, i if key is None else key, z, i, False), kind])
    return groups


def _pinned(s) -> dict:
    """kind -> copies that must stay where they are: the components chosen at a simultaneous
    decision and not revealed yet (the frame's '@picks' lists; a selection is a tuple). A kind
    number is pinned in every record type's places that hold it: more than needed, never less."""
    pins: dict = {}
    for frame in s.stack:
        for k, v in frame[2].items():
            if not k.startswith("@picks"):
                continue
            for pick in v:
                for kind in (pick if isinstance(pick, (list, tuple)) else (pick,)):
                    if type(kind) is int:
                        pins[kind] = pins.get(kind, 0) + 1
    return pins


def _shuffle(game, s, items, pinned, rng):
    if pinned:                          # in each place, as many copies as were chosen stay put
        left, fixed = [], {}
        for it in items:
            tag = (id(it[0].container), it[1])
            if fixed.get(tag, 0) < pinned.get(it[1], 0):
                fixed[tag] = fixed.get(tag, 0) + 1
                continue
            left.append(it)
        items = left
    n = len(items)
    if n < 2:
        return
    allowed = _Allowed(game, s)
    _canonical(items, allowed)
    rand = rng.random
    for _ in range(SWEEPS * n):
        a = items[int(rand() * n)]
        b = items[int(rand() * n)]
        pa, pb, ka, kb = a[0], b[0], a[1], b[1]
        if ka == kb or pa is pb or (pa.counted and pb.counted and pa.container is pb.container):
            continue
        if allowed(pb, ka) and allowed(pa, kb):
            a[1], b[1] = kb, ka
            _move(pa, ka, kb)
            _move(pb, kb, ka)


def _canonical(items, allowed) -> bool:
    """Start from an arrangement that depends only on what the player knows (the places, their
    sizes, the components among them), not on the real one: each place in turn, the most
    constrained first, takes the lowest kinds it may hold. The walk then starts from the same
    arrangement for every state the player cannot tell apart, so the result depends on the
    real arrangement in no way. False (and the real arrangement kept) if this greedy filling
    gets stuck, which `holds` conditions that split the components into groups never do."""
    places, slots = [], {}
    for it in items:
        key = id(it[0])
        if key not in slots:
            slots[key] = []
            places.append(it[0])
        slots[key].append(it)
    remaining: dict = {}
    for it in items:
        remaining[it[1]] = remaining.get(it[1], 0) + 1
    kinds = sorted(remaining)
    order = sorted(range(len(places)), key=lambda i: (sum(1 for k in kinds if allowed(places[i], k)), i))
    plan = {}
    for i in order:
        place = places[i]
        need, take = len(slots[id(place)]), []
        for k in kinds:
            if remaining[k] and allowed(place, k):
                n = min(need - len(take), remaining[k])
                take += [k] * n
                if len(take) == need:
                    break
        if len(take) < need:
            return False
        for k in take:
            remaining[k] -= 1
        plan[id(place)] = take
    for place in places:
        for it, new in zip(slots[id(place)], plan[id(place)]):
            if it[1] != new:
                _move(place, it[1], new)
                it[1] = new
    return True


def _move(place, old, new):
    """Put kind `new` where `old` was, in the state itself."""
    if place.counted:
        place.container[old] -= 1
        place.container[new] += 1
    else:
        place.container[place.index] = new


class _Allowed:
    """May a place hold a kind? (`holds` of its zone, evaluated on the state, remembered)."""

    def __init__(self, game, s):
        self.ns, self.V, self.memo = game.ns, s.v, {}

    def __call__(self, place, kind) -> bool:
        fn_name = place.vs.holds
        if fn_name is None:
            return True
        tag = (place.vs.slot, place.owner, place.key, kind)
        r = self.memo.get(tag)
        if r is None:
            args = [self.V, place.owner, kind]
            if place.key is not None:
                args.append(place.key)
            if place.vs.per_player:
                args.append(place.owner)
            r = self.memo[tag] = bool(self.ns[fn_name](*args))
        return r
