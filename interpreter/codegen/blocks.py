"""Fewer, longer blocks in a resumable unit (the runner pays for every block it enters).

A unit that may wait for a decision is a list of block functions; a block returns the next
block's number (or RET, SUSPEND, CALL). Compiling statement by statement leaves many blocks
that only jump on (`return 4`) and many jumps to a block nothing else enters. Three
rewrites, repeated until nothing changes:

* threading: a jump to a block that only jumps on goes straight to where it leads;
* fusion: a block that ends by jumping to a block entered from nowhere else takes that
  block's lines in place of the jump;
* tail calls: a call after which the unit only returns replaces the unit's frame.

Block numbers stay as they are (saved states name them); blocks left unreachable are still
emitted. Block 0, where a unit starts, is never fused away.
"""

from __future__ import annotations

import re

from .lines import Lines

_JUMP = re.compile(r"\breturn (\d+)\b")
_RESUME = re.compile(r"\bF\[1\] = (\d+)\b")
_ONLY_JUMP = re.compile(r"return (-?\d+)")
_CALL_THEN = re.compile(r"S\.stack\.append\((\[.*\])\); F\[1\] = (\d+); return -3$")
RET = -1


def simplify_blocks(blocks: list[Lines]) -> None:
    """Thread, fuse and tail-call the blocks of one unit, in place."""
    for b in blocks:
        if not b.items:
            b.add(1, f"return {RET}")
    changed = True
    while changed:
        changed = _thread(blocks) | _fuse(blocks)


def _target(block: Lines):
    """Where a block that only jumps leads, or None."""
    if len(block.items) == 1 and block.items[0][0] == 1:
        m = _ONLY_JUMP.fullmatch(block.items[0][1])
        if m:
            return int(m.group(1))
    return None


def _thread(blocks: list[Lines]) -> bool:
    final: dict[int, int] = {}
    for b in range(1, len(blocks)):
        seen = {b}
        t = _target(blocks[b])
        while t is not None and t >= 0 and t not in seen and _target(blocks[t]) is not None:
            seen.add(t)
            t = _target(blocks[t])
        if t is not None and t not in seen:
            final[b] = t
    if not final:
        return False
    changed = False

    def jump(m):
        nonlocal changed
        n = int(m.group(1))
        if n in final:
            changed = True
            return f"return {final[n]}"
        return m.group(0)

    def resume(m):
        nonlocal changed
        n = int(m.group(1))
        if n in final and final[n] >= 0:
            changed = True
            return f"F[1] = {final[n]}"
        return m.group(0)

    def tail(m):
        nonlocal changed
        n = int(m.group(2))
        if final.get(n) == RET:                # nothing left to do after the call
            changed = True
            return f"S.stack[-1] = {m.group(1)}; return -3"
        return m.group(0)

    for b, block in enumerate(blocks):
        if b in final:
            continue                           # unreachable now, or kept for a resume
        block.items = [(ind, _RESUME.sub(resume, _CALL_THEN.sub(tail, _JUMP.sub(jump, text))), sp)
                       for ind, text, sp in block.items]
    return changed


def _fuse(blocks: list[Lines]) -> bool:
    refs = [0] * len(blocks)
    refs[0] = 1                                # entered by whoever starts the unit
    live = _reachable(blocks)
    for b in live:
        for _, text, _ in blocks[b].items:
            for m in _JUMP.finditer(text):
                refs[int(m.group(1))] += 1
            for m in _RESUME.finditer(text):
                refs[int(m.group(1))] += 2     # entered by the runner: never fused
    changed = False
    for a in sorted(live):
        block = blocks[a]
        while block.items:
            ind, text, _ = block.items[-1]
            m = _ONLY_JUMP.fullmatch(text) if ind == 1 else None
            if m is None:
                break
            b = int(m.group(1))
            if b <= 0 or b == a or refs[b] != 1:
                break
            block.items = block.items[:-1] + list(blocks[b].items)
            refs[b] = 0
            blocks[b].items = [(1, "raise AssertionError('a fused block was entered')", None)]
            changed = True
    return changed


def _reachable(blocks: list[Lines]) -> set[int]:
    seen, todo = {0}, [0]
    while todo:
        b = todo.pop()
        for _, text, _ in blocks[b].items:
            for rx in (_JUMP, _RESUME):
                for m in rx.finditer(text):
                    n = int(m.group(1))
                    if n not in seen:
                        seen.add(n)
                        todo.append(n)
    return seen
