"""Copies and saves of a state: the initial variables, the copy function specialised to the
state layout (`clone`), and `dump`/`load` to and from JSON-ready data.
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

    def _make_clone(self, strict: bool = False):
        """A specialised copy function for this layout (no deepcopy on the hot path): the
        slots unpacked into locals, lists copied with `.copy()`, nested ones with map. The
        strict one (for `load`) copies by slicing, which refuses anything but lists
        (a TypeError) where `.copy()` would also copy a dict."""
        parts = []
        names = [f"a{i}" for i in range(len(self.vars))]
        for i, vs in enumerate(self.vars):
            depth = 0
            if vs.kind in ("grid", "cell_attr", "zone", "map", "known"):
                depth = 1
            if vs.keys:
                depth += 1
            if vs.per_player:
                depth += 1
            a = names[i]
            if depth == 0:
                parts.append(a)
            elif strict:
                parts.append(f"{a}[:]" if depth == 1 else f"[x[:] for x in {a}]" if depth == 2
                             else f"[[y[:] for y in x] for x in {a}]")
            elif depth == 1:
                parts.append(f"{a}.copy()")
            elif depth == 2:
                parts.append(f"list(map(_copy_list, {a}))")
            else:
                parts.append(f"[list(map(_copy_list, x)) for x in {a}]")
        unpack = f"    {', '.join(names)}, = v\n" if names else ""
        src = "def clone_v(v):\n" + unpack + "    return [" + ", ".join(parts) + "]\n"
        ns: dict = {"_copy_list": list.copy}
        exec(src, ns)
        return ns["clone_v"]

    def clone(self, s):
        c = _new_state(st.State)         # every slot is set below: no __init__ to run
        c.v = self._clone_v(s.v)
        c.stack = [[unit, block, local.copy(), me] for unit, block, local, me in s.stack]
        c.pending = s.pending.copy() if s.pending is not None else None
        c.cache = s.cache
        c.rng = s.rng
        c.phase = s.phase
        c.result = s.result
        c.nplayers = s.nplayers
        c.hist = s.hist
        c.record = None
        return c

    def dump(self, s) -> dict:
        c = self.clone(s)          # the dump owns its data: changing one never changes the other
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
            start = self.clone(s)
            start.hist = None
            return HistoryStart(start, _chain(HistoryStart(), entries))
        before, prefix, state = validator.check_history_start(data["history_start"], len(entries))
        if "history" in state:
            raise StateError("history_start.state: the state a history starts from keeps no history")
        try:
            start_state = self.load(state)
        except StateError as e:
            raise StateError(f"history_start.state: {e}") from None
        t = self.clone(start_state)
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
