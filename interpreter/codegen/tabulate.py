"""Defs that read nothing of the state, tabulated: each call becomes a read of a table.

A def of one component, enum value or player that never looks at the state has one value
per argument, fixed when the rules are compiled: `ways(c: Dev) = [1, 2] if ... c.alt_cost
... else [1]` is asked again and again while moves are listed, each time walking the card's
fields. Here such a def is computed once for every value of its parameter, and its calls
`D_ways(V, me, x)` become `TD_ways[x]` (`TD_ways[x][:]` when the values are lists: a caller
gets a list of its own, as from the function). A call may pass none where the rules allow it
(`me` in `setup`, where no player acts): a def that has a value for none as well keeps it in
its table, which is then a map.

Only the optimised compilation does this, and only for a def that has no `while` loop (a
`for` or a comprehension walks a list, which ends: a def walking nine goods, too many to be
unrolled, is still one value per card), names
neither the state nor the acting player (`V`, `me`, `S`, `F`, `L`), calls no generated
function, and gives plain values (numbers, truth values, text, none, tuples of them, or
lists of them). If computing it raises for some value, its parameter has more than
MAX_VALUES values, a value is longer than MAX_LENGTH, or the tables of the rules take more
than TIME_BUDGET to compute, the def is left as a function: the call then does what it did.
One call that never ends (a def can be made slow without a loop) is stopped by the
watchdog (runtime/watchdog.py), and no table is made after it.
"""

from __future__ import annotations

import ast as pyast
import re
import time

from ..pycompile import compile_quietly
from .lines import PLAIN
from ..runtime import watchdog

MAX_VALUES = 1024          # values of the parameter
MAX_LENGTH = 64            # items of a list (or letters of a text) a def gives
TIME_BUDGET = 0.25         # seconds for computing every table of a rules file
_STATE_NAMES = {"V", "me", "S", "F", "L", "_W"}
# generated functions a tabulated def may not call (they take the state)
_GENERATED = re.compile(r"(D|DB|P|A|H|W|M\d+|G|GL|RG|SITE|CHECK|PAY|SPEND|SCORE)_")
# what a tabulated def may not hold: a loop that may not end (a `for` walks a list, which is
# finite; its time is bounded by the deadline and the watchdog)
_UNBOUNDED = (pyast.While, pyast.Lambda)


def tabulate_state_free_defs(module, candidates: dict[str, int], ns: dict) -> dict:
    """Tabulate the defs of `candidates` (function name -> how many values its parameter
    has) that qualify: rewrite their calls in `module` (a lines.Module) and return the new
    tables for the generated code's globals (name -> list; a map when none has a value too).
    `ns` is what the functions need to run (helpers, tables, constants)."""
    tables, copies = _tables(_function_texts(module.lines, candidates), candidates, ns)
    if tables:
        names = [t[1:] for t in tables]            # the functions' names (tables are T + name)
        calls = re.compile(r"(?<![\w.])(" + "|".join(re.escape(n) for n in names) + r")\(")
        module.lines = [text if text.lstrip().startswith("def ") else _rewrite(text, calls, copies)
                        for text in module.lines]
    return tables


def _tables(bodies: dict, candidates: dict, ns: dict) -> tuple[dict, set]:
    """(the tables of the defs that qualify, the names of those whose values are lists). The
    watchdog watches this (not the rewriting after it): a call that runs on is stopped, and
    no table is made after it."""
    watchdog.watch(_tables)
    tables: dict = {}
    copies: set[str] = set()
    deadline = time.perf_counter() + TIME_BUDGET
    try:
        for name, text in bodies.items():
            if time.perf_counter() > deadline:
                break
            values = _compute(name, text, candidates[name], ns, deadline)
            if values is None:
                continue
            if any(isinstance(v, list) for v in (values.values() if isinstance(values, dict) else values)):
                copies.add(name)
            tables["T" + name] = values
    except watchdog.RulesTooSlow:           # (the tables made before it are whole)
        copies &= {t[1:] for t in tables}
    return tables, copies


def _function_texts(lines: list[str], wanted: dict) -> dict[str, str]:
    """The source of each wanted top-level function."""
    out: dict[str, str] = {}
    i = 0
    while i < len(lines):
        m = re.match(r"def (\w+)\(", lines[i])
        if m and m.group(1) in wanted:
            j = i + 1
            while j < len(lines) and lines[j].startswith((" ", "\t")):
                j += 1
            out[m.group(1)] = "\n".join(lines[i:j]) + "\n"
            i = j
        else:
            i += 1
    return out


def bounded_and_stateless(fn: pyast.FunctionDef) -> bool:
    if len(fn.args.args) != 3 or fn.args.vararg or fn.args.kwarg or fn.args.kwonlyargs:
        return False
    for st in fn.body:
        for n in pyast.walk(st):
            if isinstance(n, _UNBOUNDED) or isinstance(n, (pyast.Global, pyast.Nonlocal, pyast.Yield,
                                                       pyast.YieldFrom, pyast.Await, pyast.Try)):
                return False
            if isinstance(n, pyast.Name) and n.id in _STATE_NAMES:
                return False
            if isinstance(n, pyast.Call):
                f = n.func
                if isinstance(f, pyast.Name) and _GENERATED.match(f.id):
                    return False
                if not isinstance(f, (pyast.Name, pyast.Attribute)):
                    return False
    return True


def _compute(name: str, text: str, size: int, ns: dict, deadline: float):
    """The def's value for each parameter value 0..size-1, or None if it does not qualify (or
    its values are long, or computing them takes the rules past the deadline: a table is a
    saving, never a cost a rules file can make large)."""
    if not 0 < size <= MAX_VALUES:
        return None
    try:
        tree = pyast.parse(text)
    except (SyntaxError, RecursionError, MemoryError):
        return None
    fn = tree.body[0] if tree.body else None
    if not isinstance(fn, pyast.FunctionDef) or not bounded_and_stateless(fn):
        return None
    local = dict(ns)
    try:
        exec(compile_quietly(text, f"<regola table {name}>", "exec"), local)
        func = local[name]
        values = []
        for x in range(size):
            v = func(None, None, x)
            if _too_long(v) or time.perf_counter() > deadline:
                return None
            values.append(v)
    except watchdog.RulesTooSlow:
        raise
    except Exception:               # (a value the def refuses: its calls stay calls)
        return None
    # a call may pass none (`me` where no player acts): a def with a value for none too
    # gets it in its table (a map then); one without fails there as a table read of none
    try:
        for_none = [func(None, None, None)]
    except watchdog.RulesTooSlow:
        raise
    except Exception:
        for_none = []
    if for_none and _too_long(for_none[0]):
        return None
    if not all(_plain(v) for v in values + for_none) and not all(
            isinstance(v, list) and all(_plain(x) for x in v) for v in values + for_none):
        return None
    if for_none:
        return {**dict(enumerate(values)), None: for_none[0]}
    return values


def _too_long(v) -> bool:
    return isinstance(v, (list, tuple, str)) and len(v) > MAX_LENGTH


def _plain(v) -> bool:
    return isinstance(v, PLAIN) or (isinstance(v, tuple) and all(_plain(x) for x in v))


def _rewrite(text: str, calls: re.Pattern, copies: set[str]) -> str:
    """`text` with each call `D_f(a, b, x)` of a tabulated def written `TD_f[x]`."""
    out = []
    pos = 0
    for m in calls.finditer(text):
        if m.start() < pos:                   # inside an argument already rewritten
            continue
        args = _arguments(text, m.end())
        if args is None:
            continue
        parts, end = args
        if len(parts) != 3:
            continue
        name = m.group(1)
        arg = _rewrite(parts[2].strip(), calls, copies)
        out.append(text[pos:m.start()])
        out.append(f"T{name}[{arg}]" + ("[:]" if name in copies else ""))
        pos = end
    out.append(text[pos:])
    return "".join(out)


def _arguments(text: str, start: int):
    """The top-level arguments of a call whose `(` ends at `start`, and where the call ends;
    None if the text is not a whole call (strings are skipped over)."""
    depth = 0
    parts = []
    begin = start
    i = start
    while i < len(text):
        ch = text[i]
        if ch in "'\"":
            close = text.find(ch, i + 1)
            while close != -1 and text[close - 1] == "\\":
                close = text.find(ch, close + 1)
            if close == -1:
                return None
            i = close + 1
            continue
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            if depth == 0:
                parts.append(text[begin:i])
                return parts, i + 1
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(text[begin:i])
            begin = i + 1
        i += 1
    return None
