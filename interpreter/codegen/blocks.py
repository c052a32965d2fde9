"""Fewer, longer blocks in a resumable unit (the runner pays for every block it enters).

A unit that may wait for a decision is a list of block functions; a block returns the next
block's number (or RET, SUSPEND, CALL). Compiling statement by statement leaves many blocks
that only jump on (`return 4`) and many jumps to a block nothing else enters. Four
rewrites, repeated until nothing changes:

* threading: a jump to a block that only jumps on goes straight to where it leads;
* fusion: a block that ends by jumping to a block entered from nowhere else takes that
  block's lines in place of the jump;
* tail calls: a call after which the unit only returns replaces the unit's frame;
* inlining: a conditional jump (`if c: return 26`) to a block entered from nowhere else and
  holding no loop takes that block's lines; inside the loop of a block that walks a list
  (`while _ix < len(_l):`), such lines that jump back to the block go round the
  Python loop (`continue`) instead of through the runner; and a small block that such a
  loop jumps to and that jumps straight back (`loop_tail`) is copied into the loop.

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
        changed = _thread(blocks) | _fuse(blocks) | _inline(blocks)


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
    refs = _refs(blocks)
    live = _reachable(blocks)
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


_IF_JUMP = re.compile(r"((?:if|elif) .+|else): return (\d+)")
_BARE_JUMP = re.compile(r"return (\d+)")
_LOOP_HEAD = re.compile(r"while _ix < len\(_l\):")


def _inline(blocks: list[Lines]) -> bool:
    refs = _refs(blocks)
    changed = False
    for a in sorted(_reachable(blocks)):
        block = blocks[a]
        loop = walking_loop(block.items)
        out = []
        for i, (ind, text, span) in enumerate(block.items):
            m = _IF_JUMP.fullmatch(text)
            x = int(m.group(2)) if m else None
            if m is None:
                m = _BARE_JUMP.fullmatch(text)
                x = int(m.group(1)) if m and ind > 1 else None
            in_loop = loop is not None and loop[0] <= i < loop[1]
            # a small block that ends by jumping back round the loop: its lines copied here
            tail = loop_tail(blocks, a, x) if in_loop and x is not None else None
            if tail is None and (x is None or x <= 0 or x == a or refs[x] != 1 or _has_loop(blocks[x])):
                out.append((ind, text, span))
                continue
            base = ind
            if m.re is _IF_JUMP:
                out.append((ind, m.group(1) + ":", span))
                base = ind + 1
            if tail is not None:
                out.extend((base + xind - 1, xtext, xspan or span) for xind, xtext, xspan in tail)
                out.append((base, "continue", span))
            else:                       # the block entered from here only: its lines moved here
                for xind, xtext, xspan in blocks[x].items:
                    if in_loop:
                        xtext = _back_to(xtext, a)
                    out.append((base + xind - 1, xtext, xspan or span))
                refs[x] = 0
                blocks[x].items = [(1, "raise AssertionError('a fused block was entered')", None)]
            changed = True
        block.items = out
    return changed


def walking_loop(items: list):
    """The lines of the body of the list-walking loop a block starts with, as (first, end)
    indexes, when a `continue` anywhere in them goes round that loop (no loop inside it);
    else None."""
    if len(items) >= 2 and items[0][1].startswith("_l = L['@it_") \
            and items[1][0] == 1 and _LOOP_HEAD.fullmatch(items[1][1]):
        end = 2
        while end < len(items) and items[end][0] > 1:
            end += 1
        if not any(t.startswith(("for ", "while ")) for _, t, _ in items[2:end]):
            return (2, end)
    return None


_TAIL_LINES = 4
_CONTROL = re.compile(r"\b(?:return|continue|break|yield)\b|^(?:for|while) |\bF\[1\] =")


def loop_tail(blocks: list[Lines], a: int, x: int):
    """The lines of block x to run in place of a jump to it from inside the list-walking loop
    of block a (followed there by `continue`), when x is at most _TAIL_LINES lines with no
    loop and no jump but its last line, `return a`; else None. x keeps its own lines (it may
    be entered from elsewhere too): this copies them, saving the round trip of a loop whose
    body calls a unit and then does one thing more (two runner steps per round)."""
    if x <= 0 or x == a or x >= len(blocks):
        return None
    items = blocks[x].items
    if not items or len(items) > _TAIL_LINES or items[-1][0] != 1 or items[-1][1] != f"return {a}":
        return None
    body = items[:-1]
    if any(_CONTROL.search(t) for _, t, _ in body):
        return None
    return body


def _back_to(text: str, a: int) -> str:
    """A jump back to the loop's own block, as the Python loop's next round."""
    if text == f"return {a}":
        return "continue"
    m = _IF_JUMP.fullmatch(text)
    if m and int(m.group(2)) == a:
        return m.group(1) + ": continue"
    return text


def _has_loop(block: Lines) -> bool:
    return any(t.startswith(("for ", "while ")) for _, t, _ in block.items)


def _refs(blocks: list[Lines]) -> list[int]:
    """How many places enter each block: jumps count once, resumes (the runner) twice."""
    refs = [0] * len(blocks)
    refs[0] = 1                                # entered by whoever starts the unit
    for b in _reachable(blocks):
        for _, text, _ in blocks[b].items:
            for m in _JUMP.finditer(text):
                refs[int(m.group(1))] += 1
            for m in _RESUME.finditer(text):
                refs[int(m.group(1))] += 2     # entered by the runner: never fused
    return refs


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
