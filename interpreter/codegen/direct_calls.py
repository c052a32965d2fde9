"""Calls of resumable units that enter the callee's first block directly.

A call pushes the callee's frame and returns CALL; the runner then finds the new frame on
top of the stack and runs its first block. Here the calling block runs that block itself,
right after pushing the frame, and hands the runner only what it cannot finish:

    _cF = [3, 0, {'t': _m[1], 'c': _m[2]}, _p]; S.stack.append(_cF); F[1] = 2; _cr = M3_0(S, _cF)
    if _cr == -1: S.stack.pop(); return 2      # the callee is done: on in the caller
    if _cr >= 0: _cF[1] = _cr; return -3       # the callee goes on at its block _cr
    return _cr                                 # it waits for a decision (its frame on top)

A tail call, whose frame replaces the caller's, needs no pop (its RET is the caller's); an
event with one handler is entered the same way; and where the caller goes on in the very
block that walks a list (`while L['@ix_9'] < len(_l):`), the callee's end goes round that
Python loop (`continue`) rather than out through the runner and in again. The stack, the
frames and every block's effect are what the runner would have made; only the round trips
through the runner are saved.

A first block entered directly may itself enter the next unit (a procedure whose first step
hands on to another), but Python's own stack stays shallow: no chain of first blocks entering each other
directly comes back to where it started, and none is longer than MAX_DEPTH (a call that would
close a cycle or go deeper goes through the runner). A procedure that calls itself without
end therefore still ends in the runner's step budget, not in Python's recursion limit.
"""

from __future__ import annotations

import re

from .blocks import loop_tail, walking_loop

# the calls the compiler writes (machines.py): alone on a line, or as an action's dispatch
_PUSH = re.compile(r"(?P<pre>if _a == \d+: )?S\.stack\.append\((?P<frame>\[(?P<pid>\d+), (?P<blk>\d+), .*\])\); "
                   r"F\[1\] = (?P<after>\d+); return -3")
_TAIL = re.compile(r"(?P<pre>if _a == \d+: )?S\.stack\[-1\] = (?P<frame>\[(?P<pid>\d+), (?P<blk>\d+), .*\]); return -3")
# an event's handler pushed (m_emit_stmt), then the line that hands the runner the call
_HANDLER = re.compile(r"S\.stack\.append\((?P<frame>\[(?P<pid>\d+), (?P<blk>\d+), dict\(_loc\), .*\])\)")
_THEN_CALL = re.compile(r"F\[1\] = (?P<after>\d+); return -3")


# how many first blocks deep one block entered by the runner may run through direct calls
MAX_DEPTH = 4
# how far the search for those chains follows calls (a rules file may chain thousands of
# procedures; what lies past MAX_DEPTH is never entered directly anyway)
_SEARCH_DEPTH = 64


def enter_directly(machines: list) -> None:
    """Rewrite, in place, the calls of every unit's blocks (`_Machine.blocks`, after
    blocks.py) to run the callee's first block directly where Python's stack allows it."""
    calls = {}
    for mach in machines:
        for b, block in enumerate(mach.blocks):
            found = _calls(block.items, len(machines))
            if found:
                calls[(mach.uid, b)] = found
    # a first block may enter others directly too, as long as no chain of such calls comes
    # back to it and none is more than MAX_DEPTH deep
    height: dict[int, int] = {}
    direct_from_first: dict[int, set] = {}
    visiting: set[int] = set()

    def visit(uid: int) -> None:
        visiting.add(uid)
        h, ok = 0, set()
        for _, _, m in calls.get((uid, 0), []):
            callee = int(m.group("pid"))
            if callee in visiting or len(visiting) >= _SEARCH_DEPTH:
                continue                # a cycle (or a chain past any use): through the runner
            if callee not in height:
                visit(callee)
            if height[callee] + 1 < MAX_DEPTH:
                ok.add(callee)
                h = max(h, height[callee] + 1)
        visiting.discard(uid)
        height[uid], direct_from_first[uid] = h, ok

    for mach in machines:
        if mach.uid not in height:
            visit(mach.uid)
    for (uid, b), found in calls.items():
        if b == 0:
            found = [c for c in found if int(c[2].group("pid")) in direct_from_first[uid]]
        if found:
            blocks = machines[uid].blocks
            blocks[b].items = _rewritten(blocks, found, b)


def _calls(items: list, units: int) -> list:
    """[(line index, lines it takes, match)] of the calls in a block that enter block 0."""
    out = []
    for i, (ind, text, _) in enumerate(items):
        m = _PUSH.fullmatch(text) or _TAIL.fullmatch(text)
        n = 1
        if m is None:
            m = _HANDLER.fullmatch(text)
            single = i + 1 < len(items) and items[i + 1][0] == ind and _THEN_CALL.fullmatch(items[i + 1][1]) \
                and not (i > 0 and _HANDLER.fullmatch(items[i - 1][1]))
            if m is None or not single:
                continue
            n = 2
        if m.group("blk") == "0" and int(m.group("pid")) < units:
            out.append((i, n, m))
    return out


def _rewritten(blocks: list, calls: list, block: int) -> list:
    items = blocks[block].items
    loop = walking_loop(items)
    at = {i: (n, m) for i, n, m in calls}
    out = []
    skip = 0
    for i, (ind, text, span) in enumerate(items):
        if skip:
            skip -= 1
            continue
        if i not in at:
            out.append((ind, text, span))
            continue
        n, m = at[i]
        skip = n - 1
        pid, frame = m.group("pid"), m.group("frame")
        if m.groupdict().get("pre"):
            out.append((ind, m.group("pre").rstrip(" "), span))
            ind += 1
        if m.re is _TAIL:
            out.append((ind, f"_cF = {frame}; S.stack[-1] = _cF; _cr = M{pid}_0(S, _cF)", span))
        else:
            after = m.group("after") if m.re is _PUSH else _THEN_CALL.fullmatch(items[i + 1][1]).group("after")
            in_loop = loop is not None and loop[0] <= i < loop[1]
            tail = loop_tail(blocks, block, int(after)) if in_loop else None
            out.append((ind, f"_cF = {frame}; S.stack.append(_cF); F[1] = {after}; _cr = M{pid}_0(S, _cF)", span))
            if tail is not None:        # on in a small block that goes back round the loop
                out.append((ind, "if _cr == -1:", span))
                out.append((ind + 1, "S.stack.pop()", span))
                out.extend((ind + xind, xtext, xspan or span) for xind, xtext, xspan in tail)
                out.append((ind + 1, "continue", span))
            else:
                on = "continue" if in_loop and after == str(block) else f"return {after}"
                out.append((ind, f"if _cr == -1: S.stack.pop(); {on}", span))
        out.append((ind, "if _cr >= 0: _cF[1] = _cr; return -3", span))
        out.append((ind, "return _cr", span))
    return out
