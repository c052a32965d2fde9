"""Copies and saves of a state: the initial variables, the copy function specialised to the
state layout, `clone` (which shares lists with its parent in a game of large states:
runtime/sharing.py), and `dump`/`load` to and from JSON-ready data.
"""

from __future__ import annotations

from ..codegen.program import VarSlot
from . import state as st
from .helpers import RulesRuntimeError
from .recall import HistoryStart, root_of
from .moves import IllegalMove
from .validate import StateError, StateValidator, check_resumable  # noqa: F401 (StateError re-exported)
from .values import _copy, _default_for


_new_state = object.__new__


class Saves:
    """Part of `Game` (game.py): uses its identity (`name`, `modules`, `num_players`,
    `fingerprint`), `vars`, `sites`, `_procs`, `_clone_v`, `_load_v` and `_all_scores`;
    `load` checks a save with a StateValidator (validate.py) made on the first load."""

    def _initial_vars(self) -> list:
        n = self.num_players
        out = []
        for vs in self.vars:
            one = self._initial_one(vs)
            if vs.per_player:
                out.append([_copy(one) for _ in range(n)])
            else:
                out.append(one)
        return out

    def _initial_one(self, vs: VarSlot):
        t = vs.type
        if vs.kind in ("grid", "cell_attr"):
            return [None] * vs.size
        if vs.kind == "known":
            return [0] * vs.size
        if vs.kind == "zone" and vs.keys:
            t = vs.zone
            empty = [0] * vs.size if t.counted else ([None] * vs.size if t.slotted else [])
            return [list(empty) for _ in range(vs.keys)]
        if vs.kind == "zone":
            if t.counted:
                return [0] * vs.size
            if t.slotted:
                return [None] * vs.size
            return []
        if vs.kind == "map":
            if vs.init is not None:            # the checker gives the whole map
                return [_copy(x) for x in vs.init]
            return [_copy(_default_for(t.value)) for _ in range(vs.size)]
        return vs.init

    def _slot_depths(self) -> list[int]:
        """How deep each slot's containers nest: 0 a value (never changed in place: the rules
        replace it), 1 a list (a zone, a grid, a map), 2 a list of lists (per player, or
        per key), 3 per player and per key."""
        out = []
        for vs in self.vars:
            depth = 1 if vs.kind in ("grid", "cell_attr", "zone", "map", "known") else 0
            out.append(depth + (1 if vs.keys else 0) + (1 if vs.per_player else 0))
        return out

    def _make_clone(self, strict: bool = False):
        """A specialised copy function for this layout (no deepcopy on the hot path): the
        slots unpacked into locals, lists copied with `.copy()`, nested ones with map. The
        strict one (for `load`) copies by slicing, which refuses anything but lists
        (a TypeError) where `.copy()` would also copy a dict."""
        names = [f"a{i}" for i in range(len(self.vars))]
        parts = [_copy_code(a, depth, strict) for a, depth in zip(names, self._slot_depths())]
        unpack = f"    {', '.join(names)}, = v\n" if names else ""
        src = "def clone_v(v):\n" + unpack + "    return [" + ", ".join(parts) + "]\n"
        ns: dict = {"_copy_list": list.copy}
        exec(src, ns)
        return ns["clone_v"]

    def _make_slot_copies(self) -> list:
        """Per slot, the function that copies its containers (None for a plain value; a flat
        list's is list.copy itself, no Python call)."""
        out = []
        for depth in self._slot_depths():
            if depth <= 1:
                out.append(list.copy if depth else None)
                continue
            ns: dict = {"_copy_list": list.copy}
            exec(f"def copy(a): return {_copy_code('a', depth, False)}\n", ns)
            out.append(ns["copy"])
        return out

    def clone(self, s):
        """A state equal to `s` that changes independently of it. In a game whose state holds
        many lists, the two share them until either is about to change one (copy on write:
        runtime/sharing.py): a clone costs the list of slots and the frames, and a move on it
        the lists the move may change. Code that changes a state's data other than through
        `apply` (`s.v` directly) calls `detach(s)` first."""
        sharing = self._sharing
        if sharing is None:
            sharing = self._share_clones(_count_lists(s.v, self._slot_depths()) >= SHARE_FROM_LISTS)
        if not sharing:
            return _state_like(s, self._clone_v(s.v), None)     # (_own_copy, one call fewer)
        s.own = 0                       # both now share every list
        return _state_like(s, s.v.copy(), 0)

    def _own_copy(self, s):
        """A copy of `s` that shares no container with it (nor with any other state)."""
        return _state_like(s, self._clone_v(s.v), None)

    def detach(self, s) -> None:
        """Make `s` own every container it holds (share none with a clone): for code that
        changes `s.v` itself rather than through `apply`."""
        if s.own is not None:
            s.v[:] = self._clone_v(s.v)
            s.own = None

    def _share_clones(self, on: bool) -> bool:
        """Whether clones share lists (decided at the first clone, by the state's size; not
        when the generated code is too long to read: runtime/sharing.py, STEP_LIMIT)."""
        if on and self._needs is None:
            on = self._read_changes()
        self._sharing = on
        return on

    def _read_changes(self) -> bool:
        """What each block of the flow may change (runtime/sharing.py), as masks of slots;
        False when the generated code is too long to read (every block then counts as
        changing every list: a state that shares owns all at its first block)."""
        from .sharing import ALL, TooLong, block_changes
        depths = self._slot_depths()
        containers = sum(1 << k for k, d in enumerate(depths) if d)
        try:
            changes = block_changes(self.source, depths)
            read = True
        except (TooLong, RecursionError):
            changes, read = {}, False
        needs = []
        for blocks in self._procs:
            masks = []
            for fn in blocks:
                code = getattr(fn, "__code__", None)
                ch = changes.get(fn.__name__, ALL) if code is not None and code.co_filename == self._filename else ALL
                masks.append(containers if ch is ALL else
                             sum(1 << k for k in ch if 0 <= k < len(depths) and depths[k]))
            needs.append(masks)
        self._changeable = 0
        for masks in needs:
            for m in masks:
                self._changeable |= m
        self._slot_copies = self._make_slot_copies()
        self._own_plans = {}            # (the runner's copies per mask of missing slots)
        self._needs = needs
        self._owning = None             # (the runner's owning blocks, made again from these)
        return read

    def dump(self, s) -> dict:
        c = self._own_copy(s)      # the dump owns its data: changing one never changes the other
        stack = _stack_json(c.stack)
        data = {"format": "regola-state/1", "game": self.name, "modules": self.modules,
                "players": s.nplayers, "fingerprint": self.fingerprint, "v": c.v,
                "stack": stack, "pending": c.pending, "rng": s.rng, "phase": s.phase}
        if s.hist is not None:
            data["history"] = [[site, who, _as_json(m)] for site, who, m in history_entries(s)]
            data["history_start"] = self._dump_start(s.hist)
        return data

    def _load_history(self, validator, data, s):
        """The kept history of a save, checked: its steps after its start, replayed from the
        start's state, lead to the saved state."""
        entries = validator.check_history(data["history"])
        if "history_start" not in data:          # (a save from before starts were kept)
            start = self._own_copy(s)
            start.hist = None
            return HistoryStart(start, _chain(HistoryStart(), entries))
        before, prefix, state = validator.check_history_start(data["history_start"], len(entries))
        if "history" in state:
            raise StateError("history_start.state: the state a history starts from keeps no history")
        try:
            start_state = self.load(state)
        except StateError as e:
            raise StateError(f"history_start.state: {e}") from None
        t = self._own_copy(start_state)
        for i, (site, who, m) in enumerate(entries[before:], before):
            if who != -1 and (t.pending is None or t.pending[1] != who):
                raise StateError(f"history[{i}]: player {who} does not decide here")
            try:
                self.replay_step(t, who, m)
            except (IllegalMove, RulesRuntimeError) as e:
                raise StateError(f"history[{i}]: {e}") from None
        if any(getattr(t, f) != getattr(s, f) for f in ("v", "pending", "phase")) or \
                _stack_json(t.stack) != _stack_json(s.stack):
            raise StateError("history: its moves, replayed from its start, do not lead to this state")
        start = HistoryStart(start_state, _chain(HistoryStart(), entries[:before]), prefix)
        return _chain(start, entries[before:])

    def _dump_start(self, hist) -> dict:
        """Where a kept history starts (runtime/recall.py): the state, how many of the
        history's entries came before it, and what each player had seen by then."""
        start = root_of(hist)
        return {"before": len(history_entries_of(start.before)),
                "prefix": {str(p): d.hex() for p, d in sorted(start.prefix.items())},
                "state": self.dump(start.state)}

    def load(self, data: dict):
        """A state from `dump`'s data, after checking every field against the rules (validate.py):
        a save that does not fit raises StateError naming the field, never a later crash."""
        validator = self.__dict__.get("_state_validator")
        if validator is None:
            validator = self._state_validator = StateValidator(self)
        validator.check_identity(data)
        validator.check_variables(data["v"])
        stack = validator.check_stack(data["stack"])
        pending = validator.check_pending(data["pending"], stack)
        s = st.State()
        s.v = self._load_v(data["v"])
        s.stack = stack
        s.pending = pending
        s.rng = validator.check_rng(data["rng"])
        s.phase = validator.check_phase(data["phase"], pending, stack)
        s.nplayers = self.num_players
        check_resumable(self, s)
        if "history" in data:
            s.hist = self._load_history(validator, data, s)
        if s.phase == st.OVER:
            try:
                s.result = self._all_scores(s)
            except RulesRuntimeError as e:
                raise StateError(f"cannot load this state: the final scores cannot be computed: {e}") from None
        return s


def _chain(start, entries):
    for site, who, m in entries:
        start = (start, site, who, m)
    return start


def history_entries(s) -> list:
    """The kept history of a state, oldest first: (site, player or -1, move or outcome)."""
    return history_entries_of(s.hist)


def history_entries_of(h) -> list:
    out = []
    while True:
        while h:
            h, site, who, m = h
            out.append((site, who, m))
        before = getattr(h, "before", ())
        if not before:
            break
        h = before
    out.reverse()
    return out


def _stack_json(stack) -> list:
    return [[u, b, {k: _as_json(x) for k, x in local.items()}, me] for u, b, local, me in stack]


def _as_json(x):
    """A frame's value as JSON holds it: a selection kept as a tuple is a list (so a dump
    equals the dump of its own reloaded state)."""
    if isinstance(x, (tuple, list)):
        return [_as_json(y) for y in x]
    return x


def _state_like(s, v: list, own):
    """A state with the slots `v`, and a copy of `s`'s frames and the rest."""
    c = _new_state(st.State)         # every slot is set below: no __init__ to run
    c.v = v
    c.own = own
    c.stack = stack = []             # (a loop: a comprehension costs a call more)
    for unit, block, local, me in s.stack:
        stack.append([unit, block, local.copy(), me])
    c.pending = s.pending.copy() if s.pending is not None else None
    c.cache = s.cache
    c.rng = s.rng
    c.phase = s.phase
    c.result = s.result
    c.nplayers = s.nplayers
    c.hist = s.hist
    c.record = None
    return c


# Clones share lists when a state holds at least this many: below, copying them all costs
# less than keeping track (a bundled game of 16 lists: 11% more instructions per clone + apply
# with sharing; one of 75: 29% fewer; docs/speed.md).
SHARE_FROM_LISTS = 32


def _count_lists(v: list, depths: list) -> int:
    def count(x, d):
        return 0 if d == 0 or not isinstance(x, list) else 1 + sum(count(y, d - 1) for y in x)
    return sum(count(x, d) for x, d in zip(v, depths))


def _copy_code(a: str, depth: int, strict: bool) -> str:
    """Python copying the containers of a slot of `depth` held in `a` (see _slot_depths)."""
    if depth == 0:
        return a
    if strict:
        return f"{a}[:]" if depth == 1 else f"[x[:] for x in {a}]" if depth == 2 else f"[[y[:] for y in x] for x in {a}]"
    if depth == 1:
        return f"{a}.copy()"
    if depth == 2:
        return f"list(map(_copy_list, {a}))"
    return f"[list(map(_copy_list, x)) for x in {a}]"
