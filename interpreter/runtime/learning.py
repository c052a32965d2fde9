"""What learning and search libraries need from a game, derived from its declarations:
a fixed-length observation vector and its layout, an action mask over the static action
space, the text of any action id, and the game's static facts. Part of `Game` (game.py).

The vector, per player's view (`observation_tensor(s, p)`; p None for a spectator):

* a header: who observes (one-hot over the seats), who is to move (seats, then chance, then
  "over"), and which decision is pending (one-hot over the decision sites);
* then every variable in declaration order (per-player ones once per seat), each as wide as
  its type makes it: a bool or a number 1 (the number as it is; `observation_layout` gives
  its declared bounds), a value of a finite type (an enum, a component kind, a player, a
  cell) one-hot, with one more place for none when it may be none; a list of a finite type
  the count of each value; a list of numbers its first 8 and its length; a map one entry per
  key; a counted zone (stack, pile) a count per kind and the total; a sequence a count per
  kind and its length; a row or slots zone per slot a one-hot of the kind, "empty" and
  "hidden"; a grid per cell a one-hot of the kind and "empty";
* numbers are Python ints, floats or bools (NumPy's `asarray(..., float32)` takes them as
  they are); what the observer may not see is zeros (a zone's total count stays, as in `observe`), and
  a variable that is not public has one more place, 1 when the observer sees it.

Two states that differ only in what the observer cannot see give the same vector (it is
built from the same visibility rules as `observe`).
"""

from __future__ import annotations

import json

from .. import types as T
from .observe import _sees
from .saves import history_entries
from .values import format_value, value_from_index

MAX_LIST = 8              # numbers of a list of numbers kept in the vector


class Learning:
    """Mixin of Game: uses its `vars`, `sites`, `actions`, `action_space`, `num_players`."""

    # ------------------------------------------------------------------ layout

    def observation_layout(self) -> list[dict]:
        """Each part of the vector: name, offset, size, what it encodes (and bounds)."""
        return [{k: v for k, v in part.items() if not k.startswith("_")} for part in self._parts()]

    def _parts(self) -> list[dict]:
        lay = getattr(self, "_layout", None)
        if lay is None:
            lay = self._layout = _build_layout(self)
        return lay

    def observation_size(self) -> int:
        last = self._parts()[-1]
        return last["offset"] + last["size"]

    def observation_tensor(self, s, player, out=None):
        """The vector as a list, or written into `out` (a zeroed buffer of the right size,
        e.g. a NumPy float32 array: adapters skip converting a list)."""
        if out is None:
            out = [0.0] * self.observation_size()
        n = s.nplayers
        lay = self._parts()
        if player is not None:
            out[player] = 1.0
        who = n + 1 if s.pending is None else (n if s.pending[1] == -1 else s.pending[1])
        out[n + who] = 1.0
        if s.pending is not None:
            out[2 * n + 2 + s.pending[0]] = 1.0
        for part in lay:
            vs = part.get("_var")
            if vs is None:
                continue
            owner = part["owner"]
            value = s.v[vs.slot][owner] if vs.per_player else s.v[vs.slot]
            seen = s.v[vs.seen_slot] if vs.seen_slot >= 0 else None
            shown = ((seen[owner][0] if vs.per_player else seen[0]) if seen is not None else 0)
            known = s.v[vs.known_slot] if vs.known_slot >= 0 else None
            if known is not None and vs.per_player:
                known = known[owner]
            sees = vs.kind in ("grid", "cell_attr") or _sees(vs, player, owner, shown)
            off = part["offset"]
            if part["seen_flag"]:
                out[off] = 1.0 if sees else 0.0
                off += 1
            part["_encode"](out, off, value, sees, known, player)
        return out

    # ------------------------------------------------------------------ information states

    def information_state_string(self, s, player) -> str:
        """What `player` knows of the game so far, with perfect recall: every move as they saw
        it (a value from another player's hidden hand is `?`; `player(k):` names the mover),
        each chance event as `chance`, their view now (`observe`, as JSON), and last a digest
        of every view they had along the way (runtime/recall.py: a hand seen once and passed
        on, a card peeked at and shuffled back). Needs a state that keeps its history
        (`new_initial_state(seed, history=True)`)."""
        if s.hist is None:
            raise ValueError("this state keeps no history: start the game with "
                             "new_initial_state(seed, history=True)")
        lines = []
        for site, who, move in history_entries(s):
            lines.append("chance" if who == -1 else f"player({who + 1}): {self._seen_text(site, who, move, player)}")
        lines.append(json.dumps(self.observe(s, player), sort_keys=True))
        lines.append(f"recall {self.recall_digest(s, player).hex()}")
        return "\n".join(lines)

    # ------------------------------------------------------------------ actions

    def action_mask(self, s) -> list:
        """1 for each action id legal now, 0 elsewhere (length `action_space`)."""
        mask = [0] * self.action_space
        if s.pending is None or s.pending[1] == -1:
            return mask
        for m in self.legal_moves(s):
            mask[self.move_id(s, m)] = 1
        return mask

    def action_str(self, ident: int) -> str:
        """The text of any action id, legal now or not (as `move_str` writes the move)."""
        if not isinstance(ident, int) or not 0 <= ident < self.action_space:
            raise ValueError(f"action ids are 0 to {self.action_space - 1}, not {ident!r}")
        if ident == 0:
            return "pass"
        n = self.num_players
        for meta in self.actions:
            offset, steps = self._id_plans.get(meta.index) or self._id_plan(meta.index)   # (move_id's)
            sizes = [radix for radix, _, _ in steps]
            total = 1
            for z in sizes:
                total *= z
            if offset <= ident < offset + total:
                idx, args = ident - offset, []
                for t, z in zip(reversed(meta.param_types), reversed(sizes)):
                    args.append(format_value(t, value_from_index(t, idx % z)))
                    idx //= z
                return f"{meta.name}({', '.join(reversed(args))})" if args else meta.name
        for site in self.sites:
            if site.kind == "choose":
                size = T.type_size(site.value_type, n)
                if site.id_offset <= ident < site.id_offset + size:
                    v = value_from_index(site.value_type, ident - site.id_offset)
                    return f"{site.node.var}={format_value(site.value_type, v)}"
            elif site.kind == "pay":
                total = 1
                for r in site.radixes:
                    total *= r
                if site.id_offset <= ident < site.id_offset + total:
                    idx, parts = ident - site.id_offset, []
                    for label, r in zip(reversed(site.labels), reversed(site.radixes)):
                        parts.append((label, idx % r))
                        idx //= r
                    text = [f"{label}={k}" for label, k in reversed(parts) if k]
                    return f"pay({', '.join(text) or 'nothing'})"
        raise ValueError(f"action id {ident} names no action")

    # ------------------------------------------------------------------ chance outcome ids

    def chance_outcome_id(self, s, outcome) -> int:
        """A stable number for a chance outcome: a drawn component's kind number, or a rolled
        value's place in the list rolled from (the same list gives the same numbers)."""
        if self.chance_kind(s) == "draw":
            return int(outcome)
        for i, (v, _) in enumerate(self.chance_outcomes(s)):
            if v == outcome:
                return i
        raise ValueError(f"{outcome!r} is not a possible outcome now")

    def chance_outcome_from_id(self, s, ident: int):
        if self.chance_kind(s) == "draw":
            return int(ident)
        dist = self.chance_outcomes(s)
        if not 0 <= ident < len(dist):
            raise ValueError(f"no chance outcome has the number {ident} now")
        return dist[ident][0]

    # ------------------------------------------------------------------ facts

    def facts(self) -> dict:
        """What an adapter needs to know before playing: all from the declarations."""
        hidden = any(vs.visibility != "public" for vs in self.vars) or any(si.simultaneous for si in self.sites)
        return {"name": self.name, "title": self.title, "players": self.num_players,
                "action_space": self.action_space, "observation_size": self.observation_size(),
                "chance": any(si.kind in ("chance", "roll") for si in self.sites),
                "hidden_information": hidden,
                "simultaneous": any(si.simultaneous for si in self.sites),
                # chance outcome ids (chance_outcome_id): kinds of a drawn record type; a roll
                # numbers the values of its list, which only the rules' run time knows
                "max_draw_outcomes": max([len(r.kinds) for r in self.prog.records.values()] or [0]),
                # `at most N moves` and `scores A..B` in the game's header, if declared
                "max_game_length": self.prog.max_moves,
                "score_bounds": list(self.prog.score_bounds) if self.prog.score_bounds else None,
                "lowest_score_wins": bool(self.prog.lowest_wins),
                "utility": "win share: 1/k to each of k winners, 0 to the others",
                "min_utility": 0.0, "max_utility": 1.0}


# ---------------------------------------------------------------------- building the layout

def _build_layout(game) -> list[dict]:
    n = game.num_players
    lay = [{"name": "observer", "offset": 0, "size": n, "kind": "one-hot seat"},
           {"name": "to_move", "offset": n, "size": n + 2, "kind": "one-hot seat, then chance, then over"},
           {"name": "decision", "offset": 2 * n + 2, "size": len(game.sites), "kind": "one-hot decision site"}]
    off = 2 * n + 2 + len(game.sites)
    for vs in game.vars:
        if vs.kind == "known":
            continue
        enc, size, kind, extra = _encoder(vs, n)
        for owner in (range(n) if vs.per_player else (None,)):
            flag = vs.visibility != "public" and vs.kind not in ("grid", "cell_attr")
            name = vs.name if owner is None else f"player({owner + 1}).{vs.name}"
            part = {"name": name, "offset": off, "size": size + flag, "kind": kind, "seen_flag": flag,
                    "owner": owner, "_var": vs, "_encode": enc, **extra}
            lay.append(part)
            off += size + flag
    return lay


def _value_encoder(t, n):
    """(encode(out, off, v), width, kind, extra) for one value of type t."""
    opt = isinstance(t, T.OptType)
    s = T.strip(t)
    if s is T.BOOL:
        return (lambda out, off, v: out.__setitem__(off, 1.0 if v else 0.0)), 1, "bool", {}
    if T.is_int(s) and not (isinstance(s, T.SelectionType)):
        if opt:
            def enc_oint(out, off, v):
                if v is None:
                    out[off] = 1.0
                else:
                    out[off + 1] = float(v)
            return enc_oint, 2, "none flag, number", {}
        return (lambda out, off, v: out.__setitem__(off, float(v))), 1, "number", {}
    size = T.type_size(s, n)
    if size and not isinstance(s, T.ListType):
        def enc_one(out, off, v):
            if v is None:
                if opt:
                    out[off + size] = 1.0
            else:
                out[off + v] = 1.0
        return enc_one, size + opt, f"one-hot {s}" + (", then none" if opt else ""), {"values": size}
    if isinstance(s, T.ListType):
        e = T.strip(s.elem)
        k = T.type_size(e, n)
        if k and not isinstance(s, T.SelectionType):
            def enc_counts(out, off, v):
                for x in v or ():
                    if x is None:
                        out[off + k] += 1.0
                    else:
                        out[off + x] += 1.0
            return enc_counts, k + 1, f"count of each {e} (then of none)", {}
        if T.is_int(e):
            def enc_ints(out, off, v):
                v = v or ()
                for i, x in enumerate(v[:MAX_LIST]):
                    out[off + i] = float(x)
                out[off + MAX_LIST] = float(len(v))
            return enc_ints, MAX_LIST + 1, f"first {MAX_LIST} numbers, then the length", {}
    return (lambda out, off, v: None), 0, f"left out ({s})", {}


def _encoder(vs, n):
    t = vs.type
    extra = {}
    if vs.low is not None or vs.high is not None:
        extra = {"low": vs.low, "high": vs.high}
    if vs.kind == "scalar":
        enc, w, kind, more = _value_encoder(t, n)

        def enc_scalar(out, off, v, sees, known, viewer):
            if sees:
                enc(out, off, v)
        return enc_scalar, w, kind, {**extra, **more}
    if vs.kind == "map":
        enc, w, kind, more = _value_encoder(t.value, n)
        keys = vs.size
        if kind in ("number", "bool"):                  # one number per key: copied at once

            def enc_map_flat(out, off, v, sees, known, viewer):
                if sees:
                    out[off:off + keys] = v
            return enc_map_flat, keys, f"per key of {t.key}: {kind}", {**extra, "keys": keys}

        def enc_map(out, off, v, sees, known, viewer):
            if sees:
                for i, x in enumerate(v):
                    enc(out, off + i * w, x)
        return enc_map, keys * w, f"per key of {t.key}: {kind}", {**extra, "keys": keys}
    if vs.kind == "grid":
        g = vs.grid
        k = len(g.record.kinds)

        def enc_grid(out, off, v, sees, known, viewer):
            for c, x in enumerate(v):
                out[off + c * (k + 1) + (k if x is None else x)] = 1.0
        return enc_grid, g.ncells * (k + 1), "per cell: one-hot kind, then empty", {"cells": g.ncells}
    if vs.kind == "cell_attr":
        enc, w, kind, more = _value_encoder(t, n)

        def enc_attr(out, off, v, sees, known, viewer):
            for c, x in enumerate(v):
                if x is not None:
                    enc(out, off + c * w, x)
        return enc_attr, vs.grid.ncells * w, f"per cell: {kind}", {}
    # zones
    zt = vs.zone
    k = len(zt.elem.kinds)
    if zt.counted:
        w, kind = k + 1, "count per kind, then the total"

        def one(out, off, z, sees, known, viewer):
            if sees:
                out[off:off + k] = z
            out[off + k] = sum(z)
    elif zt.slotted:
        slots = vs.size
        w, kind = slots * (k + 2), "per slot: one-hot kind, then empty, then hidden"

        def one(out, off, z, sees, known, viewer):
            for i, x in enumerate(z):
                base = off + i * (k + 2)
                if x is None:
                    out[base + k] = 1.0
                elif sees or (known is not None and (known[i] == -1 or (viewer is not None and known[i] >> viewer & 1))):
                    out[base + x] = 1.0
                else:
                    out[base + k + 1] = 1.0
    else:
        w, kind = k + 1, "count per kind, then the length"

        def one(out, off, z, sees, known, viewer):
            if sees:
                for x in z:
                    out[off + x] += 1.0
            out[off + k] = float(len(z))
    if vs.keys:
        keys = vs.keys

        def enc_keyed(out, off, v, sees, known, viewer):
            for i, z in enumerate(v):
                one(out, off + i * w, z, sees, None, viewer)
        return enc_keyed, keys * w, f"per key of {vs.key_type}: {kind}", {"keys": keys}
    return one, w, kind, {}
