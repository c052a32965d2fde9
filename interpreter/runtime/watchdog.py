"""The last bound on time: a run of the rules that takes longer than MAX_SECONDS between two
decisions is stopped with a rules error at the line it had reached.

The counted budgets (runner.py, codegen/statements.py, limits.py) stop the endless loops a
rules file can write in its flow, procedures and actions, and the numbers and ranges that
explode; a `def` can still nest loops over large domains or recurse into two calls of
itself, which would take years. Counting every round of every loop of the legal-move
generators and defs would cost the hot path dearly, so this backstop costs it nothing: a
daemon thread looks, twice a second, at what each thread is running (`sys._current_frames`),
and when the same call of an engine entry point (Runner._run, legal_moves, the scores...)
has been on a thread's stack for longer than MAX_SECONDS, raises `RulesTooSlow` in that
thread (`PyThreadState_SetAsyncExc`); the entry point turns it into a RulesRuntimeError whose
position is the generated line that was running.

Being a matter of time, it is not reproducible from run to run: no real game comes within
orders of magnitude of the limit, and a rules file that reaches it has no useful result to
reproduce. Where CPython's C API is not at hand (another Python), only the counted budgets
apply.
"""

from __future__ import annotations

import ctypes
import os
import sys
import threading
import time

from ..limits import MAX_SECONDS

_lock = threading.Lock()
_entry_codes: set = set()
_thread: threading.Thread | None = None
limit_seconds: float = MAX_SECONDS       # (tests and `regola simulate --max-seconds` change it)


class RulesTooSlow(Exception):
    """Raised in a thread whose run of the rules passed the time limit."""


def watch(*functions) -> None:
    """Watch calls of these engine entry points (started once per process)."""
    with _lock:
        _entry_codes.update(f.__code__ for f in functions)
        _start()


def _start():
    global _thread
    if (_thread is None or not _thread.is_alive()) and hasattr(ctypes, "pythonapi") \
            and hasattr(sys, "_current_frames"):
        _thread = threading.Thread(target=_loop, name="regola-watchdog", daemon=True)
        _thread.start()


def _after_fork():
    """A forked process (simulate --jobs) has no thread but the one that forked: watch on."""
    global _thread, _lock
    _lock = threading.Lock()
    if _thread is not None:
        _thread = None
        _start()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork)


def _outermost_entry(frame):
    found = None
    while frame is not None:
        if frame.f_code in _entry_codes:
            found = frame
        frame = frame.f_back
    return found


def _loop():
    since: dict[int, tuple] = {}           # thread -> (entry frame, when first seen)
    while True:
        time.sleep(min(0.5, max(limit_seconds / 4, 0.05)))
        now = time.monotonic()
        current = {}
        for tid, top in sys._current_frames().items():
            if tid == threading.get_ident():
                continue
            entry = _outermost_entry(top)
            if entry is None:
                continue
            seen = since.get(tid)
            first = seen[1] if seen is not None and seen[0] is entry else now
            current[tid] = (entry, first)
            if now - first > limit_seconds and _outermost_entry(sys._current_frames().get(tid)) is entry:
                ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(tid), ctypes.py_object(RulesTooSlow))
                current[tid] = (entry, float("inf"))        # once per call
        since = current
        del current
