"""Checking a saved state before it is loaded: every value against the game's state layout,
the frames of the decision stack, the pending decision, the generator and the phase.

A save is data from outside (a file, a network, a hand-edited JSON): `load` must refuse
what the rules could never have produced, saying which field is wrong, rather than crash
later or play on with impossible values. The checks are built once per game
(`StateValidator`): one small checker per variable slot, made from its VarSlot, and the
places where each unit of the generated code may wait, read from the generated source.

A checker takes a value and returns None when it fits, or the rest of a message: a path
below the value and the reason (`"[2]: 3.5 is not an integer"`, `": none is not a Player"`).
"""

from __future__ import annotations

import re
from typing import Callable, Optional

from .. import types as T
from . import state as st
from .helpers import RulesRuntimeError

MAX_MAGNITUDE = 2 ** 53        # an int without declared bounds beyond this is not a game's number
MAX_COMPONENTS = 1_000_000     # in one counted zone (the rules may list them all)
MAX_LOCAL_DEPTH = 16           # lists in lists in a frame's locals
MAX_TEXT = 10_000              # a string in a frame's locals

Checker = Callable[[object], Optional[str]]


class StateError(Exception):
    """A saved state or log that cannot be loaded, and why."""


def show(x) -> str:
    """A value as a message may quote it: short, in the save's own words."""
    if x is None:
        return "none"
    if x is True or x is False:
        return "true" if x else "false"
    if type(x) is int:
        return str(x) if x.bit_length() <= 60 else f"an integer of {x.bit_length()} bits"
    if isinstance(x, (list, tuple)):
        return f"a list of {len(x)}"
    if isinstance(x, dict):
        return "an object"
    if isinstance(x, (str, float)):
        text = repr(x)
        return text if len(text) <= 40 else text[:37] + "..."
    return f"a {type(x).__name__}"


# ----------------------------------------------------------------------- values of a type

def _leaves(x, out: set):
    """The (type, value) of every int, bool and none in a value (a slot's initial value)."""
    if isinstance(x, list):
        for y in x:
            _leaves(y, out)
    elif x is None or type(x) in (int, bool):
        out.add((type(x), x))
    return out


def _is_initial(x, initial: frozenset) -> bool:
    return (x is None or type(x) in (int, bool)) and (type(x), x) in initial


def int_checker(low=None, high=None, none_ok=False, initial=frozenset()) -> Checker:
    lo = -MAX_MAGNITUDE if low is None else low
    hi = MAX_MAGNITUDE if high is None else high

    def check(x):
        if type(x) is int and lo <= x <= hi:
            return None
        if (x is None and none_ok) or _is_initial(x, initial):
            return None
        if type(x) is not int:
            return f": {show(x)} is not an integer{' or none' if none_ok else ''}"
        if low is not None and x < low:
            return f": {show(x)} is below the minimum {low}"
        if high is not None and x > high:
            return f": {show(x)} is above the maximum {high}"
        return f": {show(x)} is too large for a game's number (beyond ±2**53)"
    return check


def index_checker(n: int, what: str, none_ok=False, initial=frozenset()) -> Checker:
    """A value numbered 0..n-1 (an enum value, a component kind, a player, a cell...)."""
    span = f"0..{n - 1}" if n else "there are none"

    def check(x):
        if type(x) is int and 0 <= x < n:
            return None
        if (x is None and none_ok) or _is_initial(x, initial):
            return None
        return f": {show(x)} is not a {what} ({span}){' or none' if none_ok else ''}"
    return check


def bool_checker(none_ok=False, initial=frozenset()) -> Checker:
    def check(x):
        if type(x) is bool or (x is None and none_ok) or _is_initial(x, initial):
            return None
        return f": {show(x)} is not true or false{' or none' if none_ok else ''}"
    return check


def none_checker(x):
    return None if x is None else f": {show(x)} is not none"


def text_checker(none_ok=False) -> Checker:
    def check(x):
        if (type(x) is str and len(x) <= MAX_TEXT) or (x is None and none_ok):
            return None
        return f": {show(x)} is not a string{' or none' if none_ok else ''}"
    return check


def list_checker(elem: Checker, length: Optional[int] = None, what: str = "list") -> Checker:
    """A list (of `length` entries if given) whose every entry passes `elem`."""
    def check(x):
        if type(x) is not list:
            return f": {show(x)} is not a {what}"
        if length is not None and len(x) != length:
            return f": {len(x)} entries, not {length}"
        for i, y in enumerate(x):
            why = elem(y)
            if why is not None:
                return f"[{i}]{why}"
        return None
    return check


def plain_checker(depth: int = 0) -> Checker:
    """Any value the generated code keeps: ints, bools, none, short strings, lists and tuples
    of them, nested at most MAX_LOCAL_DEPTH deep (no floats, no objects)."""
    def check(x, depth=depth):
        if x is None or type(x) is bool:
            return None
        if type(x) is int:
            return None if -MAX_MAGNITUDE <= x <= MAX_MAGNITUDE else f": {show(x)} is too large"
        if type(x) is str:
            return None if len(x) <= MAX_TEXT else f": a string of {len(x)} characters is too long"
        if type(x) in (list, tuple):
            if depth >= MAX_LOCAL_DEPTH:
                return ": lists nested too deeply"
            for i, y in enumerate(x):
                why = check(y, depth + 1)
                if why is not None:
                    return f"[{i}]{why}"
            return None
        return f": {show(x)} is not a value of a game (an integer, true, false, none, a string or a list)"
    return check


def type_checker(t, players: int, none_ok=False, low=None, high=None, initial=frozenset()) -> Checker:
    """The checker of a value of type `t` (a variable's, a parameter's, a map entry's...)."""
    if isinstance(t, T.OptType):
        return type_checker(T.strip(t), players, True, low, high, initial)
    if t is T.NONE:
        return none_checker
    if t is T.BOOL:
        return bool_checker(none_ok, initial)
    if t is T.STR:
        return text_checker(none_ok)
    if isinstance(t, T.IntRange):
        return int_checker(t.low, t.high, none_ok, initial)
    if T.is_int(t) and t is not T.ANY:
        return int_checker(low, high, none_ok, initial)
    if isinstance(t, T.PlayerType):
        return index_checker(players, "Player", none_ok, initial)
    if isinstance(t, (T.EnumType, T.RecordType, T.CellType, T.AreaType, T.LineType)):
        return index_checker(t.size(), t.name, none_ok, initial)
    if isinstance(t, T.ListType):
        elem = type_checker(t.elem, players)
        return _or_none(list_checker(elem), none_ok)
    if isinstance(t, T.MapType):
        size = T.type_size(t.key, players)
        value = type_checker(t.value, players, _default_is_none(t.value), low, high, initial)
        return _or_none(list_checker(value, size, f"map of {size} entries"), none_ok)
    return plain_checker()


def _default_is_none(t) -> bool:
    """A map entry nobody set holds none unless it is an int, a bool or a list (values.py)."""
    t = T.strip(t)
    return not (T.is_int(t) or t is T.BOOL or isinstance(t, T.ListType))


def _or_none(check: Checker, none_ok: bool) -> Checker:
    if not none_ok:
        return check
    return lambda x: None if x is None else check(x)


# ----------------------------------------------------------------------- the variables

def slot_checker(vs, players: int, initial_value) -> Checker:
    """What one variable slot may hold, from its VarSlot (layout.py); any value found in the
    slot's initial value is accepted too (a map entry nobody set may be none, say)."""
    initial = frozenset(_leaves(initial_value, set()))
    zone = vs.zone
    if vs.kind == "grid":
        record = vs.grid.record
        one = list_checker(index_checker(len(record.kinds), record.name, True), vs.size, f"grid of {vs.size} cells")
    elif vs.kind == "cell_attr":          # every cell starts as none
        one = list_checker(type_checker(vs.type, players, True), vs.size, f"list of {vs.size} cells")
    elif vs.kind == "known":
        one = list_checker(_mask_checker(players), vs.size, f"list of {vs.size} knowledge masks")
    elif vs.kind == "zone":
        if zone.counted:
            one = _counts_checker(vs.size)
        elif zone.slotted:
            one = list_checker(index_checker(len(zone.elem.kinds), zone.elem.name, True), vs.size,
                               f"list of {vs.size} slots")
        else:
            one = list_checker(index_checker(len(zone.elem.kinds), zone.elem.name))
        if vs.keys:
            one = list_checker(one, vs.keys, f"list of {vs.keys} zones")
    else:                                 # scalar or map: the declared type and bounds
        one = type_checker(vs.type, players, False, vs.low, vs.high, initial)
    if vs.per_player:
        return list_checker(one, players, f"list of {players} (one per player)")
    return one


def _mask_checker(players: int) -> Checker:
    """Who knows a hidden slot's content: bit p for player p, or -1 once revealed to all."""
    top = (1 << players) - 1

    def check(x):
        if type(x) is int and -1 <= x <= top:
            return None
        return f": {show(x)} is not a knowledge mask (-1, or 0..{top}: bit p for player p)"
    return check


def _count_checker(x):
    if type(x) is int and 0 <= x <= MAX_COMPONENTS:
        return None
    if type(x) is not int:
        return f": {show(x)} is not a count (an integer, 0 or more)"
    if x < 0:
        return f": {show(x)} is not a count (0 or more)"
    return f": {show(x)} is too many components for a zone (at most {MAX_COMPONENTS:,})"


def _counts_checker(size: int) -> Checker:
    """A stack or pile: how many of each kind, a count per kind."""
    counts = list_checker(_count_checker, size, f"list of {size} counts")

    def check(x):
        why = counts(x)
        if why is None and sum(x) > MAX_COMPONENTS:
            return f": {sum(x):,} components are too many for a zone (at most {MAX_COMPONENTS:,})"
        return why
    return check


# ----------------------------------------------------------------------- where units wait

_BLOCK = re.compile(r"def M(\d+)_(\d+)\(S, F\):")
_SUSPEND = re.compile(r"S\.pending = \[(\d+), .*?\]; S\.cache = .*?; F\[1\] = (\d+); return -2\b")
_CALL = re.compile(r"F\[1\] = (\d+); return -3\b")
_TAIL_CALL = re.compile(r"S\.stack\[-1\] = \[.*\]; return -3\b")      # the frame is replaced (blocks.py)
# a call entering the callee's first block itself (codegen/direct_calls.py): where the caller
# goes on, then the callee's return to the runner
_DIRECT_CALL = re.compile(r"F\[1\] = (\d+); _cr = M\d+_\d+\(S, _cF\)")
_DIRECT_ON = re.compile(r"_cF\[1\] = _cr; return -3\b")
_RETURN_SUSPEND = re.compile(r"\breturn -2\b")
_RETURN_CALL = re.compile(r"\breturn -3\b")


def waiting_places(source: str):
    """From the generated module: where each decision site resumes ({site: {(unit, block)}})
    and where each unit resumes after a call ({unit: {block}}). None for a table when the
    source does not read as expected (those checks are then skipped, never guessed)."""
    resumes: dict[int, set] = {}
    returns: dict[int, set] = {}
    unit = None
    suspends = calls = found_suspends = found_calls = 0
    for line in source.splitlines():
        if not line.startswith((" ", "\t")):
            m = _BLOCK.match(line)
            unit = int(m.group(1)) if m else None
            continue
        if unit is None:
            continue
        suspends += len(_RETURN_SUSPEND.findall(line))
        calls += len(_RETURN_CALL.findall(line))
        for m in _SUSPEND.finditer(line):
            resumes.setdefault(int(m.group(1)), set()).add((unit, int(m.group(2))))
            found_suspends += 1
        for m in _CALL.finditer(line):
            returns.setdefault(unit, set()).add(int(m.group(1)))
            found_calls += 1
        found_calls += len(_TAIL_CALL.findall(line)) + len(_DIRECT_ON.findall(line))
        for m in _DIRECT_CALL.finditer(line):
            returns.setdefault(unit, set()).add(int(m.group(1)))
    return (resumes if found_suspends == suspends else None,
            returns if found_calls == calls else None)


def unit_params(prog, unit_pid: dict) -> dict[int, Optional[list]]:
    """The parameters (name, type) of each resumable unit: the only locals of a frame whose
    names do not start with '@' (machines.py). None for a unit of an unknown kind."""
    out: dict[int, Optional[list]] = {}
    for key, pid in unit_pid.items():
        kind, _, rest = key.partition(":")
        params = None
        if kind == "proc" and rest in prog.procs:
            params = list(prog.procs[rest].params)
        elif kind == "action" and rest in prog.actions:
            params = [(p.name, p.type) for p in prog.actions[rest].params]
        elif kind == "event" and rest.rpartition(":")[0] in prog.events:
            params = list(prog.events[rest.rpartition(":")[0]].params)
        elif kind == "watch" and rest.isdigit() and int(rest) < len(prog.watchers):
            w = prog.watchers[int(rest)]
            params = ([(w.player_binder, T.PLAYER)] if w.player_binder else []) + \
                     ([(w.key_binder, w.key_type)] if w.key_binder else [])
        elif kind in ("setup", "flow", "on_end") and not rest:
            params = []
        out[pid] = params
    return out


def _copy_plain(x):
    """A copy of a local's value that shares no list with the save."""
    if type(x) is list:
        return [_copy_plain(y) for y in x]
    if type(x) is tuple:
        return tuple(_copy_plain(y) for y in x)
    return x


# ----------------------------------------------------------------------- a whole save

REQUIRED = ("v", "stack", "pending", "rng", "phase")
CHANCE_SITES = ("chance", "roll")


def _bad(why: str):
    raise StateError(f"cannot load this state: {why}")


class StateValidator:
    """Every check of `Game.load`, built once per game from its layout, its units and sites."""

    def __init__(self, game):
        n = self.players = game.num_players
        self.game = game
        self.variables = [(vs.name, slot_checker(vs, n, game._initial_one(vs))) for vs in game.vars]
        self.blocks = [len(blocks) for blocks in game._procs]
        names = {pid: key for key, pid in game.compiled.unit_pid.items()}
        self.unit_names = [names.get(pid, str(pid)) for pid in range(len(self.blocks))]
        params = unit_params(game.prog, game.compiled.unit_pid)
        self.params = {pid: None if ps is None else {name: type_checker(t, n) for name, t in ps}
                       for pid, ps in params.items()}
        self.resumes, self.returns = waiting_places(game.source)
        self.site_kinds = [site.kind for site in game.sites]
        self.local_value = plain_checker()

    # the save's identity --------------------------------------------------------------

    def check_identity(self, data):
        g = self.game
        if not isinstance(data, dict) or data.get("format") != "regola-state/1":
            _bad("it is not a Regola saved state (format regola-state/1)")
        game = data.get("game")
        if game != g.name:
            _bad(f"it is a state of '{game if type(game) is str and len(game) <= 60 else show(game)}', "
                 f"not '{g.name}'")
        players = data.get("players")
        if type(players) is not int or players != g.num_players:
            _bad(f"it is for {show(players)} players; this game was loaded for {g.num_players}")
        modules = data.get("modules")
        if type(modules) is not list or modules != g.modules:
            _bad(f"it was saved with modules {show(modules) if type(modules) is not list else modules}; "
                 f"these are {g.modules}")
        if data.get("fingerprint") != g.fingerprint:
            _bad("the rules changed since it was saved (fingerprint differs)")
        for key in REQUIRED:
            if key not in data:
                _bad(f"{key}: missing (a saved state has {', '.join(REQUIRED)})")

    # the parts ------------------------------------------------------------------------

    def check_variables(self, v):
        if type(v) is not list or len(v) != len(self.variables):
            count = f"{len(v)} variables" if type(v) is list else show(v)
            _bad(f"v: {count}; the rules' layout has {len(self.variables)} variables")
        for (name, check), x in zip(self.variables, v):
            why = check(x)
            if why is not None:
                _bad(f"v.{name}{why}")

    def check_stack(self, stack) -> list:
        """The frames [unit, block, locals, me], copied (locals included)."""
        if type(stack) is not list:
            _bad(f"stack: the stack of pending rules is {show(stack)}, not a list of frames")
        n = self.players
        out = []
        last = len(stack) - 1
        for i, frame in enumerate(stack):
            where = f"stack[{i}]"
            if type(frame) is not list or len(frame) != 4:
                _bad(f"{where}: a frame of the stack is [unit, block, locals, me], not {show(frame)}")
            unit, block, local, me = frame
            if type(unit) is not int or not 0 <= unit < len(self.blocks):
                _bad(f"{where}[0]: {show(unit)} is not a unit of these rules (0..{len(self.blocks) - 1})")
            name = self.unit_names[unit]
            if type(block) is not int or not 0 <= block < self.blocks[unit]:
                _bad(f"{where}[1]: {show(block)} is not a block of unit {unit} ({name}: "
                     f"0..{self.blocks[unit] - 1})")
            if i < last and block != 0 and self.returns is not None and block not in self.returns.get(unit, ()):
                _bad(f"{where}[1]: unit {unit} ({name}) never waits at block {block} for a call to return")
            if me is not None and (type(me) is not int or not 0 <= me < n):
                _bad(f"{where}[3]: {show(me)} is not a seat (0..{n - 1}) or none")
            out.append([unit, block, self._locals(local, f"{where}[2]", unit, name), me])
        return out

    def _locals(self, local, where, unit, name) -> dict:
        if type(local) is not dict:
            _bad(f"{where}: the frame's locals are {show(local)}, not an object")
        params = self.params.get(unit)
        for key, x in local.items():
            if type(key) is not str:
                _bad(f"{where}: the name {show(key)} is not a string")
            if key.startswith("@") or params is None:
                why = self.local_value(x)
            elif key in params:
                why = params[key](x)
            else:
                _bad(f"{where}: {show(key)} is not a parameter of unit {unit} ({name}: "
                     f"{', '.join(params) or 'it has none'})")
            if why is not None:
                _bad(f"{where}[{show(key)}]{why}")
        for key in params or ():
            if key not in local:
                _bad(f"{where}: the parameter {key!r} of unit {unit} ({name}) is missing")
        return {key: _copy_plain(x) for key, x in local.items()}

    def check_pending(self, pending, stack):
        n = self.players
        if pending is None:
            return None
        if type(pending) is not list or len(pending) != 2:
            _bad(f"pending: the pending decision is [site, player], not {show(pending)}")
        site, player = pending
        sites = len(self.site_kinds)
        if type(site) is not int or not 0 <= site < sites:
            _bad(f"pending[0]: {show(site)} is not a decision site of these rules (0..{sites - 1})")
        kind = self.site_kinds[site]
        if type(player) is not int or not -1 <= player < n:
            _bad(f"pending: player {show(player)} is not a seat (0..{n - 1}) or chance (-1)")
        if kind in CHANCE_SITES and player != -1:
            _bad(f"pending: decision site {site} is a chance event ({kind}): its player is -1, not {player}")
        if kind not in CHANCE_SITES and player == -1:
            _bad(f"pending: decision site {site} is a player's decision ({kind}), not chance")
        if not stack:
            _bad("stack: empty, but a decision is pending (its rules wait on the stack)")
        unit, block, local, _ = stack[-1]
        top = f"stack[{len(stack) - 1}]"
        if self.resumes is not None and (unit, block) not in self.resumes.get(site, ()):
            _bad(f"{top}: the last frame (unit {unit}, {self.unit_names[unit]}, block {block}) is not "
                 f"where decision site {site} waits")
        acting = local.get("@p")
        if kind == "act" and (type(acting) is not int or acting != player):
            _bad(f"{top}[2]['@p']: the acting player is {show(acting)}, the pending decision's "
                 f"is {player}")
        return [site, player]

    def check_history(self, hist):
        """A kept history: [site, player (-1: chance), move] entries; moves as tuples."""
        g = self.game
        if not isinstance(hist, list) or len(hist) > 10_000_000:
            _bad("history: not a list of moves and chance outcomes")
        out = []
        for i, e in enumerate(hist):
            if not (isinstance(e, list) and len(e) == 3 and type(e[0]) is int and 0 <= e[0] < len(g.sites)
                    and type(e[1]) is int and -1 <= e[1] < g.num_players):
                _bad(f"history[{i}]: not [site, player, move] ({show(e)})")
            m = e[2]
            out.append((e[0], e[1], _tuples(m) if isinstance(m, list) else m))
        return out

    def check_history_start(self, start, entries: int):
        """Where a kept history starts: (entries before it, digests per player, its saved state)."""
        if not isinstance(start, dict) or set(start) - {"before", "prefix", "state"}:
            _bad(f"history_start: not {{before, prefix, state}} ({show(start)})")
        before = start.get("before")
        if type(before) is not int or not 0 <= before <= entries:
            _bad(f"history_start.before: not a count of history entries from 0 to {entries} ({show(before)})")
        prefix = start.get("prefix", {})
        out = {}
        if not isinstance(prefix, dict):
            _bad(f"history_start.prefix: not a map of players to digests ({show(prefix)})")
        for k, d in prefix.items():
            ok = isinstance(k, str) and k.isdigit() and int(k) < self.game.num_players
            if not ok or not (isinstance(d, str) and len(d) == 32 and all(c in "0123456789abcdef" for c in d)):
                _bad(f"history_start.prefix: {show(k)}: {show(d)} is not a player's digest (32 hex digits)")
            out[int(k)] = bytes.fromhex(d)
        state = start.get("state")
        if not isinstance(state, dict):
            _bad(f"history_start.state: not a saved state ({show(state)})")
        return before, out, state

    def check_rng(self, rng):
        if type(rng) is not int or not 0 <= rng <= st.MASK64:
            _bad(f"rng: not a 64-bit state ({show(rng)}; an integer from 0 to 2**64-1)")
        return rng

    def check_phase(self, phase, pending, stack):
        if type(phase) is not int or phase not in (st.PLAYING, st.ENDING, st.OVER):
            _bad(f"phase: {show(phase)} is not a phase ({st.PLAYING} playing, {st.ENDING} ending, "
                 f"{st.OVER} over)")
        if phase == st.OVER and (pending is not None or stack):
            _bad("phase: the game is over, but a decision or rules are still pending")
        if phase != st.OVER and pending is None:
            _bad(f"pending: none, but the game is not over (phase {phase})")
        return phase


def check_resumable(game, s):
    """The loaded decision can be taken: its legal moves (or chance outcomes) are listed
    without an error, and a player's decision has at least one."""
    if s.pending is None:
        return
    try:
        if s.pending[1] == -1:
            options = [o for o, weight in game._chance_dist(s) if weight > 0]
        else:
            options = game.legal_moves(s)
    except Exception as e:  # noqa: BLE001 (anything the generated code may raise on odd data)
        text = str(e)
        text = text if len(text) <= 200 else text[:197] + "..."
        kind = "" if isinstance(e, RulesRuntimeError) else f"{type(e).__name__}: "   # (it says already)
        _bad(f"the saved decision cannot be resumed: {kind}{text}")
    if not options:
        _bad("the saved decision cannot be resumed: it has no "
             f"{'possible outcome' if s.pending[1] == -1 else 'legal move'}")


def _tuples(x):
    """A move read from JSON: lists back to tuples, nested too."""
    return tuple(_tuples(y) if isinstance(y, list) else y for y in x)
