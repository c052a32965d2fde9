"""A compiled game: the runtime API every driver, bot and test uses.

    game = load_game("my-game", players=4)
    s = game.new_initial_state(seed=1)
    while not game.is_terminal(s):
        if game.is_chance(s):
            game.apply_chance(s, game.sample_chance(s))
        else:
            game.apply(s, some_move_from(game.legal_moves(s)))
    game.scores(s)

Moves are tuples: `(action, *params)` at an `act`, `(value,)` at a `choose`, `()` for
pass. Each has a canonical string (`move_str`) and a stable integer id in a static action
space (`move_id`). `apply` mutates the state in place after validating the move; an illegal
move raises `IllegalMove` naming the failing rule and leaves the state untouched.
"""

from __future__ import annotations

import hashlib
import sys
from bisect import bisect_right
from itertools import accumulate
from typing import Optional

from .. import types as T
from ..codegen.program import CompiledProgram, SiteInfo, VarSlot
from . import state as st
from .helpers import HELPERS, NoOptions, RulesRuntimeError, _EndGame
from .observe import observe as _observe
from .values import (_BAD, _copy, _default_for, _norm, _split_args, format_value,  # noqa: F401 (re-exported)
                     parse_value, value_index)

CHANCE = -1
TERMINAL = -2

RET, SUSPEND, CALL = -1, -2, -3


class IllegalMove(Exception):
    def __init__(self, move_text: str, reason: str, span=None, cite: str = ""):
        self.move_text = move_text
        self.reason = reason
        self.span = span
        self.cite = cite
        where = f" ({span})" if span is not None else ""
        rule = f" [{cite}]" if cite else ""
        super().__init__(f"illegal move {move_text!r}: {reason}{rule}{where}")


class StateError(Exception):
    """A saved state or log that cannot be loaded, and why."""


class Game:
    def __init__(self, compiled: CompiledProgram, name: str, modules: list[str], source_files: list[str]):
        self.compiled = compiled
        self.prog = compiled.prog
        self.name = name
        self.title = self.prog.title
        self.modules = list(modules)
        self.num_players = compiled.players
        self.sites: list[SiteInfo] = compiled.sites
        self.actions = compiled.actions
        self.vars: list[VarSlot] = compiled.vars
        self.action_space = compiled.action_space
        src = compiled.module.source()
        self.source = src
        self.fingerprint = hashlib.sha256(
            (src + f"|{self.num_players}|{','.join(self.modules)}").encode()).hexdigest()[:16]
        self._filename = f"<regola:{name}:{self.fingerprint}>"
        ns = dict(HELPERS)
        ns["PLAYERS"] = list(range(self.num_players))
        ns["NP"] = self.num_players
        from ..codegen.tables import all_tables
        ns.update(all_tables(self.prog))
        code = compile(src, self._filename, "exec")
        exec(code, ns)
        self.ns = ns
        self._procs = ns["PROCS"]
        self._site_funcs = ns["SITES"]
        self._checks = ns["CHECKS"]
        self._score = ns["SCORE"]
        self._spans = compiled.module.spans
        self._fmt = {}
        self._clone_v = self._make_clone()
        # where a decision's answer is kept in its frame: '@m' for an action move (None
        # here), '@o' for a draw, the chosen variable's key otherwise
        self._site_keys = [None if si.kind == "act" else "@o" if si.kind == "chance" else si.var_key
                           for si in self.sites]

    # ------------------------------------------------------------------ start

    def new_initial_state(self, seed: int = 0) -> st.State:
        s = st.State()
        s.nplayers = self.num_players
        s.rng = st.seed_rng(seed)
        s.v = self._initial_vars()
        # flow below setup; 'on game end' is pushed when play stops
        pid = self.compiled.unit_pid
        if "flow" in pid:
            s.stack.append([pid["flow"], 0, {}, None])
        if "setup" in pid:
            s.stack.append([pid["setup"], 0, {}, None])
        self._run(s)
        return s

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

    def _make_clone(self):
        """A specialised copy function for this layout (no deepcopy on the hot path)."""
        parts = []
        for i, vs in enumerate(self.vars):
            depth = 0
            if vs.kind in ("grid", "cell_attr", "zone", "map", "known"):
                depth = 1
            if vs.keys:
                depth += 1
            if vs.per_player:
                depth += 1
            if depth == 0:
                parts.append(f"v[{i}]")
            elif depth == 1:
                parts.append(f"v[{i}][:]")
            elif depth == 2:
                parts.append(f"[x[:] for x in v[{i}]]")
            else:
                parts.append(f"[[y[:] for y in x] for x in v[{i}]]")
        src = "def clone_v(v):\n    return [" + ", ".join(parts) + "]\n"
        ns: dict = {}
        exec(src, ns)
        return ns["clone_v"]

    # ------------------------------------------------------------------ running

    STEP_BUDGET = 2_000_000          # blocks run between two decisions before we call it a loop

    def _run(self, s: st.State):
        stack = s.stack
        procs = self._procs
        budget = self.STEP_BUDGET
        while True:
            budget -= 1
            if budget < 0:
                raise RulesRuntimeError(f"the rules ran {self.STEP_BUDGET:,} steps without reaching a decision: "
                                        f"an endless loop? (in {self._unit_name(stack[-1][0]) if stack else 'the flow'})")
            if not stack:
                if s.phase == st.PLAYING:
                    s.phase = st.ENDING
                    pid = self.compiled.unit_pid.get("on_end")
                    if pid is not None:
                        stack.append([pid, 0, {}, None])
                        continue
                s.phase = st.OVER
                s.pending = None
                s.cache = None
                s.result = self._all_scores(s)
                return
            F = stack[-1]
            blocks = procs[F[0]]
            try:
                r = blocks[F[1]](s, F)
                while r >= 0:
                    F[1] = r
                    budget -= 1
                    if budget < 0:
                        break
                    r = blocks[r](s, F)
            except _EndGame:
                if s.phase != st.PLAYING:
                    raise RulesRuntimeError("'end game' while the game is already ending") from None
                stack.clear()
                continue
            except NoOptions as e:
                site = self.sites[e.site]
                raise RulesRuntimeError(f"{site.node.span}: no legal option at this decision, "
                                        f"and the rules do not say what happens then") from None
            except RulesRuntimeError as e:
                raise self._located(e) from None
            except (TypeError, IndexError, KeyError, ValueError, ZeroDivisionError, AttributeError) as e:
                raise self._located(e) from None
            if r == RET:
                stack.pop()
            elif r == SUSPEND:
                return

    def _all_scores(self, s):
        try:
            return [self._score(s, p) for p in range(s.nplayers)]
        except RulesRuntimeError as e:
            raise self._located(e) from None
        except (TypeError, IndexError, KeyError, ValueError, ZeroDivisionError, AttributeError) as e:
            raise self._located(e) from None

    def _unit_name(self, pid: int) -> str:
        for key, uid in self.compiled.unit_pid.items():
            if uid == pid:
                return key
        return "?"

    def _located(self, exc: Exception) -> RulesRuntimeError:
        span = None
        tb = exc.__traceback__
        while tb is not None:
            if tb.tb_frame.f_code.co_filename == self._filename:
                line = tb.tb_lineno
                if 0 < line <= len(self._spans) and self._spans[line - 1] is not None:
                    span = self._spans[line - 1]
            tb = tb.tb_next
        msg = str(exc)
        if isinstance(exc, TypeError) and "NoneType" in msg:
            msg = "a value is none here (an empty slot or cell, or no player)"
        elif isinstance(exc, ZeroDivisionError):
            msg = "division by zero"
        elif isinstance(exc, ValueError) and ("empty" in msg or "arg is an empty" in msg):
            msg = "min or max of nothing"
        elif not isinstance(exc, RulesRuntimeError):
            msg = f"{type(exc).__name__}: {msg}"
        where = f"{span}: " if span is not None else ""
        return RulesRuntimeError(f"{where}{msg}")

    # ------------------------------------------------------------------ queries

    def is_terminal(self, s) -> bool:
        return s.phase == st.OVER

    def is_chance(self, s) -> bool:
        return s.pending is not None and s.pending[1] == -1

    def chance_kind(self, s) -> str:
        """'draw' (a component from a stack) or 'roll' (a value of a list)."""
        return "roll" if self.sites[s.pending[0]].kind == "roll" else "draw"

    def current_player(self, s) -> int:
        if s.pending is None:
            return TERMINAL
        return s.pending[1]

    def decision(self, s) -> Optional[dict]:
        """What is being decided now: kind, who, the prompt and the rulebook section."""
        if s.pending is None:
            return None
        site = self.sites[s.pending[0]]
        d = {"kind": site.kind, "site": site.index, "player": s.pending[1], "cite": site.cite,
             "prompt": site.prompt, "where": str(site.node.span)}
        if site.kind == "act":
            d["actions"] = site.actions
            d["optional"] = site.optional
        return d

    def legal_moves(self, s) -> list:
        if s.cache is not None:
            return s.cache
        if s.pending is None or s.pending[1] == -1:
            return []
        site = self.sites[s.pending[0]]
        F = s.stack[-1]
        moves = self._site_funcs[site.index](s, F)
        if site.optional:
            moves.append(())
        s.cache = moves
        return moves

    # ------------------------------------------------------------------ acting

    def apply(self, s, move) -> None:
        """Validate then play `move` (a tuple, a canonical string or an action id)."""
        pending = s.pending
        if pending is None:
            raise IllegalMove(str(move), "the game is over")
        if pending[1] == -1:
            raise IllegalMove(str(move), "chance decides here: use apply_chance")
        if type(move) is not tuple:
            if isinstance(move, str):
                move = self.parse_move(s, move)
            elif isinstance(move, int):
                move = self.move_from_id(s, move)
            elif isinstance(move, list):
                move = tuple(tuple(x) if isinstance(x, list) else x for x in move)
        legal = s.cache if s.cache is not None else self.legal_moves(s)
        if move not in legal:          # (an identical object is found without comparing)
            raise self._illegal(s, move)
        F = s.stack[-1]
        key = self._site_keys[pending[0]]
        if key is None:
            F[2]["@m"] = move
        else:
            F[2][key] = move[0] if move else None
        s.pending = None
        s.cache = None
        self._run(s)

    def chance_outcomes(self, s) -> list[tuple[object, float]]:
        dist = self._chance_dist(s)
        total = sum(n for _, n in dist)
        return [(v, n / total) for v, n in dist]

    def _chance_dist(self, s):
        """[(outcome, weight)]: the kinds left in a stack drawn from, or the values rolled."""
        if not self.is_chance(s):
            raise IllegalMove("chance", "this is not a chance event")
        site = self.sites[s.pending[0]]
        vals = self._site_funcs[site.index](s, s.stack[-1])
        if site.kind == "roll":
            tally: dict = {}
            for v in vals:
                tally[v] = tally.get(v, 0) + 1
            return list(tally.items())
        return [(k, n) for k, n in enumerate(vals) if n]

    def _draw_counts(self, s):
        """The counts of the stack drawn from at a draw, or None at a roll."""
        site = s.pending[0]
        if self._site_keys[site] != "@o":
            return None
        return self._site_funcs[site](s, s.stack[-1])

    def sample_chance(self, s):
        """Draw an outcome from the state's seeded generator (advancing it)."""
        if s.pending is None or s.pending[1] != -1:
            raise IllegalMove("chance", "this is not a chance event")
        counts = self._draw_counts(s)
        if counts is not None:
            s.rng, x = st.rng_next(s.rng)
            # the first kind whose running total passes x mod the total (as if walking the
            # copies kind by kind); kinds with no copy left are never chosen
            cum = list(accumulate(counts))
            return bisect_right(cum, x % cum[-1])
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
            if not (type(outcome) is int and 0 <= outcome < len(counts) and counts[outcome] > 0):
                raise IllegalMove(str(outcome), "this outcome is not possible now")
            key = "@o"
        else:
            if outcome not in [v for v, _ in self._chance_dist(s)]:
                raise IllegalMove(str(outcome), "this outcome is not possible now")
            key = self._site_keys[s.pending[0]]
        s.stack[-1][2][key] = outcome
        s.pending = None
        s.cache = None
        self._run(s)

    def step_chance(self, s) -> int:
        """Resolve a chance event from the seed; returns the outcome."""
        o = self.sample_chance(s)
        s.stack[-1][2][self._site_keys[s.pending[0]]] = o
        s.pending = None
        s.cache = None
        self._run(s)
        return o

    # ------------------------------------------------------------------ move names and ids

    def _site_record(self, s):
        site = self.sites[s.pending[0]]
        node = site.node
        return getattr(node, "zone", None)

    def outcome_str(self, s, outcome) -> str:
        site = self.sites[s.pending[0]]
        if site.kind == "roll":
            return format_value(site.value_type, outcome)
        rec = T.strip(self.prog.types.get(id(site.node.zone))).elem
        return rec.kinds[outcome]

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

    def fmt(self, t, v) -> str:
        return format_value(t, v)

    def move_str(self, s, move) -> str:
        if not move:
            return "pass"
        site = self.sites[s.pending[0]]
        if site.kind == "act":
            meta = self.actions[move[0]]
            if not meta.param_types:
                return meta.name
            args = ", ".join(format_value(t, v) for t, v in zip(meta.param_types, move[1:]))
            return f"{meta.name}({args})"
        if site.kind == "pay":
            parts = [f"{label}={n}" for label, n in zip(site.labels, move[0]) if n]
            return f"pay({', '.join(parts) or 'nothing'})"
        return f"{site.node.var}={format_value(site.value_type, move[0])}"

    def parse_move(self, s, text: str):
        want = _norm(text)
        legal = self.legal_moves(s)
        if want == "pass":
            if () in legal:
                return ()
            raise self._illegal(s, ())
        for m in legal:
            if _norm(self.move_str(s, m)) == want:
                return m
        if want.isdigit():
            return self.move_from_id(s, int(want))
        # not legal: find the tuple it names, to explain why
        m = self._parse_any(s, text)
        if m is not None:
            raise self._illegal(s, m)
        from ..suggest import did_you_mean
        names = [self.move_str(s, m) for m in legal]
        raise IllegalMove(text, f"no such move here{did_you_mean(text, names)}")

    def _parse_any(self, s, text: str):
        """Parse an action move even when it is not legal (for error messages)."""
        site = self.sites[s.pending[0]]
        t = text.strip()
        if site.kind == "choose":
            var, eq, val = t.partition("=")
            if not eq or var.strip() != site.node.var:
                return None
            v = parse_value(site.value_type, val)
            if v is _BAD:
                opts = ", ".join(self.move_str(s, m) for m in self.legal_moves(s))
                raise IllegalMove(text, f"'{val.strip()}' is not a {T.strip(site.value_type)} "
                                        f"(options: {opts})", site.node.span, site.cite)
            return (v,)
        if site.kind != "act":
            return None
        name, _, rest = t.partition("(")
        name = name.strip()
        meta = next((m for m in self.actions if m.name == name), None)
        if meta is None:
            return None
        args = _split_args(rest[:-1] if rest.endswith(")") else rest)
        if len(args) != len(meta.param_types):
            return None
        vals = []
        for ty, a in zip(meta.param_types, args):
            v = parse_value(ty, a)
            if v is _BAD:
                return None
            vals.append(v)
        return (meta.index, *vals)

    def move_id(self, s, move) -> int:
        if not move:
            return 0
        site = self.sites[s.pending[0]]
        if site.kind == "act":
            meta = self.actions[move[0]]
            idx = 0
            for t, v in zip(meta.param_types, move[1:]):
                idx = idx * max(T.type_size(t, self.num_players), 1) + value_index(t, v)
            return meta.id_offset + idx
        if site.kind == "pay":
            idx = 0
            for radix, n in zip(site.radixes, move[0]):
                idx = idx * radix + min(n, radix - 1)
            return site.id_offset + idx
        return site.id_offset + value_index(site.value_type, move[0])

    def move_from_id(self, s, ident: int):
        for m in self.legal_moves(s):
            if self.move_id(s, m) == ident:
                return m
        raise IllegalMove(str(ident), "no legal move has this id here")

    def _illegal(self, s, move) -> IllegalMove:
        site = self.sites[s.pending[0]]
        text = self._safe_str(s, move)
        if site.kind == "pay":
            opts = ", ".join(self.move_str(s, m) for m in self.legal_moves(s))
            return IllegalMove(text, f"not a way to pay this cost (ways: {opts})", site.node.span, site.cite)
        if site.kind == "choose":
            opts = ", ".join(self.move_str(s, m) for m in self.legal_moves(s))
            what = format_value(site.value_type, move[0]) if move and isinstance(move, tuple) else "pass"
            reason = f"{what} is not an option here (options: {opts})"
            if site.node.cond is not None:
                from ..render import render_expr
                reason += f"; choices must satisfy: {render_expr(site.node.cond)}"
            return IllegalMove(text, reason, site.node.span, site.cite)
        if not move:
            return IllegalMove(text, "passing is not allowed here: an action must be taken",
                               site.node.span, site.cite)
        if not isinstance(move, tuple) or not isinstance(move[0], int) or not 0 <= move[0] < len(self.actions):
            return IllegalMove(text, "not a move of this game", site.node.span, site.cite)
        meta = self.actions[move[0]]
        if meta.name not in site.actions:
            return IllegalMove(text, f"'{meta.name}' cannot be taken now (here: {', '.join(site.actions)})",
                               site.node.span, site.cite)
        if len(move) - 1 != len(meta.param_types):
            return IllegalMove(text, f"'{meta.name}' takes {len(meta.param_types)} parameters",
                               meta.info.decl.span, meta.info.cite)
        try:
            idx = self._checks[meta.index](s, s.pending[1], *move[1:])
        except Exception:  # noqa: BLE001 - a malformed value
            idx = 0
        if idx >= 0:
            msg, span, cite = meta.checks[idx]
            if "{" in msg:                 # name the offending value: "{t} is not among me.hand"
                values = {prm.name: format_value(t, v) for prm, t, v in
                          zip(meta.info.params, meta.param_types, move[1:])}
                try:
                    param = msg[msg.index("{") + 1:msg.index("}")]
                    msg = msg.format(**values)
                    earlier = [f"{n}={v}" for n, v in values.items() if n != param]
                    names = [prm.name for prm in meta.info.params]
                    earlier = earlier[:names.index(param)] if param in names else []
                    if earlier:
                        msg += " for " + ", ".join(earlier)
                except (KeyError, IndexError, ValueError):
                    pass
            return IllegalMove(text, msg, span, cite)
        return IllegalMove(text, "you cannot pay the extra cost of this action", site.node.span, site.cite)

    def _safe_str(self, s, move) -> str:
        try:
            return self.move_str(s, move)
        except Exception:  # noqa: BLE001
            return str(move)

    # ------------------------------------------------------------------ results

    def scores(self, s) -> list[int]:
        res = s.result or self._all_scores(s)
        return [r[0] for r in res]

    def ranking_keys(self, s) -> list[tuple]:
        res = s.result or self._all_scores(s)
        return [(r[0], *r[1]) for r in res]

    def winners(self, s) -> list[int]:
        keys = self.ranking_keys(s)
        best = max(keys)
        return [p for p, k in enumerate(keys) if k == best]

    # ------------------------------------------------------------------ copies and saves

    def clone(self, s):
        c = st.State()
        c.v = self._clone_v(s.v)
        c.stack = [[f[0], f[1], dict(f[2]), f[3]] for f in s.stack]
        c.pending = list(s.pending) if s.pending is not None else None
        c.cache = s.cache
        c.rng = s.rng
        c.phase = s.phase
        c.result = s.result
        c.nplayers = s.nplayers
        return c

    def dump(self, s) -> dict:
        c = self.clone(s)          # the dump owns its data: changing one never changes the other
        return {"format": "regola-state/1", "game": self.name, "modules": self.modules,
                "players": s.nplayers, "fingerprint": self.fingerprint, "v": c.v,
                "stack": c.stack, "pending": c.pending, "rng": s.rng, "phase": s.phase}

    def load(self, data: dict):
        def bad(why):
            raise StateError(f"cannot load this state: {why}")
        if not isinstance(data, dict) or data.get("format") != "regola-state/1":
            bad("it is not a Regola saved state (format regola-state/1)")
        if data.get("game") != self.name:
            bad(f"it is a state of '{data.get('game')}', not '{self.name}'")
        if data.get("players") != self.num_players:
            bad(f"it has {data.get('players')} players; this game was loaded for {self.num_players}")
        if list(data.get("modules", [])) != self.modules:
            bad(f"it was saved with modules {data.get('modules')}; these are {self.modules}")
        if data.get("fingerprint") != self.fingerprint:
            bad("the rules changed since it was saved (fingerprint differs)")
        v = data.get("v")
        if not isinstance(v, list) or len(v) != len(self.vars):
            bad("its variables do not match the rules' layout")
        stack = data.get("stack")
        if not isinstance(stack, list) or not all(
                isinstance(f, list) and len(f) == 4 and isinstance(f[0], int) and 0 <= f[0] < len(self._procs)
                and isinstance(f[1], int) and 0 <= f[1] < len(self._procs[f[0]]) and isinstance(f[2], dict)
                for f in stack):
            bad("its stack of pending rules is malformed")
        pending = data.get("pending")
        if pending is not None and not (isinstance(pending, list) and len(pending) == 2
                                        and isinstance(pending[0], int) and 0 <= pending[0] < len(self.sites)):
            bad("its pending decision is malformed")
        s = st.State()
        try:
            s.v = self._clone_v(v)
        except (TypeError, IndexError):
            bad("its variables do not match the rules' layout")
        s.stack = [[f[0], f[1], dict(f[2]), f[3]] for f in stack]
        s.pending = list(pending) if pending is not None else None
        s.rng = int(data.get("rng", 0))
        s.phase = int(data.get("phase", 0))
        s.nplayers = self.num_players
        if s.phase == st.OVER:
            s.result = self._all_scores(s)
        return s

    # ------------------------------------------------------------------ observation

    def observe(self, s, player: Optional[int]) -> dict:
        """Everything `player` may see or knows (player None: a spectator sees public things)."""
        return _observe(self, s, player)


sys.setrecursionlimit(max(sys.getrecursionlimit(), 5000))
