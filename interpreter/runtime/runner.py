"""Running the rules between two decisions: the loop over the frames of the stack until the
next decision or the end of the game, the final scores, and where in the rules a runtime
error happened.
"""

from __future__ import annotations

import sys

from ..limits import STEP_BUDGET
from . import state as st
from . import watchdog
from .helpers import NoOptions, RulesRuntimeError, _EndGame

RET, SUSPEND, CALL = -1, -2, -3
# the masks of missing lists whose copy plans are kept (a mask is a subset of a block's needs:
# few in a real game, but a rules file may make many)
_OWN_PLANS = 4096


# Python errors of generated code that mean the rules did something impossible (located at
# the rule whose line raised them)
_PYTHON_ERRORS = (TypeError, IndexError, KeyError, ValueError, ZeroDivisionError, AttributeError,
                  RecursionError, MemoryError, watchdog.RulesTooSlow)


class _Endless(Exception):
    """The step budget ran out (turned into a RulesRuntimeError by the runner)."""


class Runner:
    """Part of `Game` (game.py): uses its `compiled`, `sites`, `_procs`, `_score` and the
    generated module's file name and line spans (`_filename`, `_spans`)."""

    STEP_BUDGET = STEP_BUDGET        # blocks run between two decisions before we call it a loop

    def _run(self, s: st.State):
        """Run blocks until a decision is pending or the game is over. Every block entered
        and every frame change counts against STEP_BUDGET (an endless loop is an error)."""
        stack = s.stack
        procs = self._procs
        budget = self.STEP_BUDGET
        self._work[0] = budget          # rounds of the rules' own loops (codegen/statements.py _tick)
        if s.own is not None:           # s shares lists with a clone: blocks that own first
            procs = self._owning_procs()
        while True:
            try:
                while stack:
                    F = stack[-1]
                    blocks = procs[F[0]]
                    r = blocks[F[1]](s, F)
                    while r >= 0:
                        budget -= 1
                        if budget < 0:
                            F[1] = r
                            self._endless(stack)
                        r = blocks[r](s, F)
                    if r == -1:                 # RET (literals: no global lookup per block)
                        stack.pop()
                    elif r == -2:               # SUSPEND
                        return
                    budget -= 1              # a call: the callee's frame is on top
                    if budget < 0:
                        self._endless(stack)
            except _EndGame:
                if s.phase != st.PLAYING:
                    raise RulesRuntimeError("'end game' while the game is already ending") from None
                stack.clear()
            except NoOptions as e:
                site = self.sites[e.site]
                raise RulesRuntimeError(f"{site.node.span}: no legal option at this decision, "
                                        f"and the rules do not say what happens then") from None
            except _Endless as e:
                raise RulesRuntimeError(str(e)) from None
            except RulesRuntimeError as e:
                raise self._located(e) from None
            except _PYTHON_ERRORS as e:
                raise self._located(e) from None
            # the stack is empty: the game ends (its `on game end` rules run first)
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

    def _owning_procs(self) -> list:
        """The blocks of every unit, each first copying the lists it may change that the
        state does not own yet (for a state that shares lists with a clone)."""
        if self._owning is None:
            if self._needs is None:
                self._read_changes()        # (a state cloned by another Game of these rules)
            own = self._own
            self._owning = [[_owning_block(block, need, own) for block, need in zip(blocks, needs)]
                            for blocks, needs in zip(self._procs, self._needs)]
        return self._owning

    def _own(self, s, need: int) -> None:
        """Copy the lists of the slots of mask `need` that `s` does not own yet
        (runtime/sharing.py); `s.own` becomes None once `s` owns every list any block may
        change."""
        own = s.own
        missing = need & ~own
        plan = self._own_plans.get(missing)
        if plan is None:
            plan = self._own_plan(missing)
        v = s.v
        for k, copy in plan:
            v[k] = copy(v[k])
        own |= need
        changeable = self._changeable
        s.own = None if own & changeable == changeable else own

    def _own_plan(self, missing: int) -> tuple:
        """(slot, its copy function) for each slot of mask `missing`, made once per mask (a
        game's blocks ask for few distinct masks; past _OWN_PLANS of them, made each time)."""
        copies = self._slot_copies
        key = missing
        plan = []
        while missing:
            low = missing & -missing
            k = low.bit_length() - 1
            plan.append((k, copies[k]))
            missing ^= low
        plan = tuple(plan)
        if len(self._own_plans) < _OWN_PLANS:
            self._own_plans[key] = plan
        return plan

    def _endless(self, stack):
        """The budget is spent: an error at the rule the next block runs (a place in the loop)."""
        span = None
        if stack:
            F = stack[-1]
            blocks = self._procs[F[0]]
            if 0 <= F[1] < len(blocks):
                span = self._span_of(blocks[F[1]])
        where = f"{span}: " if span is not None else ""
        raise _Endless(f"{where}the rules ran {self.STEP_BUDGET:,} steps without reaching a decision: "
                       f"an endless loop? (in {_unit_words(self._unit_name(stack[-1][0])) if stack else 'the flow'})")

    def _span_of(self, fn):
        """The rule of the first line of a generated function that has one."""
        code = getattr(fn, "__code__", None)
        if code is None or code.co_filename != self._filename:
            return None
        for _, _, line in code.co_lines():
            if line is not None and 0 < line <= len(self._spans) and self._spans[line - 1] is not None:
                return self._spans[line - 1]
        return None

    def _all_scores(self, s):
        try:
            return [self._score(s, p) for p in range(s.nplayers)]
        except RulesRuntimeError as e:
            raise self._located(e) from None
        except _PYTHON_ERRORS as e:
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
        elif isinstance(exc, IndexError) and "out of range" in msg:
            msg = "a position past the end of a list (positions count from 0)"
        elif isinstance(exc, RecursionError):
            msg = (f"calls nested more than {sys.getrecursionlimit():,} deep: a procedure, def, event "
                   f"or 'when' trigger that sets itself off without end?")
        elif isinstance(exc, MemoryError):
            msg = "the rules built more than this machine's memory holds"
        elif isinstance(exc, watchdog.RulesTooSlow):
            msg = (f"the rules ran for more than {watchdog.limit_seconds:g} seconds without reaching a decision "
                   f"(loops nested deep in a def, or a def that calls itself more than once?)")
        elif not isinstance(exc, RulesRuntimeError):
            msg = f"{type(exc).__name__}: {msg}"
        where = f"{span}: " if span is not None else ""
        return RulesRuntimeError(f"{where}{msg}")


def _owning_block(block, need: int, own):
    """`block`, first copying the lists of mask `need` a sharing state does not own yet."""
    if not need:
        return block

    def owning(s, F):
        mine = s.own
        if mine is not None and need & ~mine:
            own(s, need)
        return block(s, F)
    return owning


def _unit_words(key: str) -> str:
    """A unit of the generated program in the rules' words: 'proc:take_turn' -> 'procedure take_turn'."""
    kind, _, rest = key.partition(":")
    if kind == "proc":
        return f"procedure {rest}"
    if kind == "action":
        return f"action {rest}"
    if kind == "event":
        return f"on {rest.partition(':')[0]}"
    if kind == "watch":
        return "a 'when ... reaches' trigger"
    return {"on_end": "on game end"}.get(key, key)
