"""A jump to a small block written as that block's lines (the runner's round trip saved).

A block ends each of its paths by returning the next block's number; the runner then looks
the block up and calls it with the same state and frame. Where the next block is entered
from several places it cannot be fused into one of them (codegen/blocks.py), but it can be
copied: `return 3` becomes block 3's own lines, which end in a return of their own.
A turn loop, for instance, plays the move in block 6 and jumps to block 3, the loop over
the players that lists the next player's moves; with block 3 copied into block 6, a
decision costs one block call instead of two:

    def M1_6(S, F):                          def M1_6(S, F):
        ...                                      ...
        if _a == 0: A_drop(S, _p, _m[1]); return 3   if _a == 0:
                                                     A_drop(S, _p, _m[1])
                                                     _l = L['@it_9']; _ix = L['@ix_10']
                                                     while _ix < len(_l):
                                                         ...

The copy does exactly what the runner would have done next: a jump never changes the frame
or the stack (the runner calls the next block with the same ones), and the copied lines
read only the frame, the state and names they bind themselves. Every path through them
ends in a return or a raise (their last statement is one, at the block's own level), so
nothing after the jump in the block that copies them runs; a `continue` or `break` in them
belongs to a loop of their own. Copies are made from the blocks as they were before any
copying (a copy never holds another copy); a block is never copied into itself nor inside a
`try` (its errors would be caught there); only blocks of at most COPY_LINES lines that change
none of the state's lists are copied (`_changes_no_state`: a clone that shares its lists
copies, before a block runs, those the block may change, and a copy's would count on every
path of its new block). A unit's first block, which other blocks may enter directly, takes
no copy that enters a block directly itself, so the chains of such entries stay as
codegen/direct_calls.py bounded them. The runner's step budget counts one block fewer per
copy run; an endless cycle of blocks still passes through the runner at each jump back.
"""

from __future__ import annotations

import ast as pyast
import re

from .blocks import _reachable
from .lines import Lines

COPY_LINES = 14
_JUMP_AT_END = re.compile(r"(?:(?P<head>(?:if|elif) .+|else): )?(?:(?P<pre>.+); )?return (?P<to>\d+)")
_LOOP_HEAD = re.compile(r"(?:for|while) ")
_LEAVE_LOOP = re.compile(r"\b(?:continue|break)\b")
_EXIT = re.compile(r"\b(?:return|raise)\b")
_ENTERS = re.compile(r"\bM\d+_\d+\(")      # a block entered directly (codegen/direct_calls.py)
_GUARD = re.compile(r"(?:try:|except\b|finally:|with )")
_HANDLER = re.compile(r"(?:except\b|finally:|else:)")


def copy_small_jump_targets(blocks: list[Lines]) -> None:
    """Rewrite, in place, the jumps of one unit's blocks to blocks small enough to copy."""
    live = _reachable(blocks)
    original = {b: list(blocks[b].items) for b in live}
    copyable = {b for b, items in original.items() if _copyable(items) and _changes_no_state(items)}
    if not copyable:
        return
    for a in sorted(live):
        out = []
        changed = False
        guarded: list[int] = []                # indentations of the try/with blocks open here
        for ind, text, span in original[a]:
            while guarded and ind <= guarded[-1] and not _HANDLER.match(text):
                guarded.pop()
            if _GUARD.match(text):
                if not (guarded and guarded[-1] == ind):
                    guarded.append(ind)
                out.append((ind, text, span))
                continue
            # (a copy inside a try would have its errors caught there)
            lines = None if guarded else _copied_jump(ind, text, span, a, copyable, original)
            if lines is None:
                out.append((ind, text, span))
            else:
                out.extend(lines)
                changed = True
        if changed:
            blocks[a].items = out


def _copyable(items: list) -> bool:
    """A block of at most COPY_LINES lines whose every path leaves it (its last line a return
    or a raise at its own level) and whose `continue`s and `break`s are all inside its own
    loops."""
    if not items or len(items) > COPY_LINES:
        return False
    last_ind, last, _ = items[-1]
    if last_ind != 1 or not _exits(last):
        return False
    loops: list[int] = []                     # indentations of the loops open at each line
    for ind, text, _ in items:
        while loops and ind <= loops[-1]:
            loops.pop()
        if _LEAVE_LOOP.search(_code_only(text)) and not (loops or _LOOP_HEAD.match(text)):
            return False
        if _LOOP_HEAD.match(text):
            loops.append(ind)
    return True


# what a block may do and still change nothing but its frame, the pending decision and the
# legal moves: call the pure generated functions (legal-move generators, sites, defs, checks)
# and the helpers below, and write locals, the frame, `S.pending`, `S.cache`, a list of moves
_PURE_CALL = re.compile(r"(?:G|RG|GL|RGL|G_can|RG_can|SITE|D|CHECK)_\w+|len|list|range|sum|min|max|any|all|"
                        r"repr|_no_options|_can_keep|_cell|_index|_player|RulesRuntimeError|AssertionError")
_OWN_LISTS = {"L", "F", "out", "_ms"}
_OWN_METHODS = {("out", "extend"), ("out", "append"), ("_ms", "append"), ("L", "pop"), ("L", "get")}


def _changes_no_state(items: list) -> bool:
    """Does a block leave the state's lists alone (by the lines it is made of)? A copy adds
    what it may change to what its new block may change, on every path through that block:
    a state that shares its lists with a clone then copies them before the block runs
    (runtime/sharing.py), even where the copied lines never run. Only blocks that change
    nothing there are copied (a list of moves, a frame variable, the pending decision)."""
    try:
        tree = pyast.parse("\n".join("    " * (ind - 1) + text for ind, text, _ in items))
    except SyntaxError:
        return False
    for n in pyast.walk(tree):
        if isinstance(n, pyast.Call):
            f = n.func
            if isinstance(f, pyast.Name):
                if not _PURE_CALL.fullmatch(f.id):
                    return False
            elif isinstance(f, pyast.Attribute) and isinstance(f.value, pyast.Name):
                if (f.value.id, f.attr) not in _OWN_METHODS:
                    return False
            elif not (isinstance(f, pyast.Attribute) and f.attr == "forced"
                      and pyast.unparse(f.value) == "S.record"):
                return False
        elif isinstance(n, (pyast.Assign, pyast.AugAssign, pyast.Delete, pyast.AnnAssign)):
            targets = n.targets if isinstance(n, (pyast.Assign, pyast.Delete)) else [n.target]
            for t in targets:
                for x in (t.elts if isinstance(t, pyast.Tuple) else [t]):
                    if isinstance(x, pyast.Name):
                        continue
                    if isinstance(x, pyast.Subscript) and isinstance(x.value, pyast.Name) \
                            and x.value.id in _OWN_LISTS:
                        continue
                    if isinstance(x, pyast.Attribute) and pyast.unparse(x) in ("S.pending", "S.cache"):
                        continue
                    return False
    return True


def _exits(line: str) -> bool:
    """Is the line's last statement a return or a raise (`F[1] = 6; return -2`, say)?"""
    if not _EXIT.search(line):
        return False
    try:
        body = pyast.parse(line).body
    except SyntaxError:
        return False
    return bool(body) and isinstance(body[-1], (pyast.Return, pyast.Raise))


def _code_only(text: str) -> str:
    """The line without its string literals (a message may say 'break')."""
    return re.sub(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"", "''", text)


def _copied_jump(ind: int, text: str, span, host: int, copyable: set, original: dict):
    """The lines standing for `text` with its jump replaced by the target's lines, or None
    when the line ends in no jump to a block that may be copied here."""
    m = _JUMP_AT_END.fullmatch(text)
    if m is None:
        return None
    to = int(m.group("to"))
    if to == host or to not in copyable:
        return None
    if host == 0 and any(_ENTERS.search(t) for _, t, _ in original[to]):
        return None            # a unit's first block may be entered directly: no entries in it
    head, pre = m.group("head"), m.group("pre")
    if head == "else":
        if pre is not None and not _same_split(text[len("else: "):], None, pre, to):
            return None
    elif head is not None or pre is not None:
        # the split must be Python's own: a condition or statement holding ': ' or '; '
        # (a dict, a string) is left alone unless it reads back as the same statements
        if not _same_split(text, head, pre, to):
            return None
    out = []
    base = ind
    if head is not None:
        out.append((ind, head + ":", span))
        base = ind + 1
    if pre is not None:
        out.append((base, pre, span))
    for xind, xtext, xspan in original[to]:
        out.append((base + xind - 1, xtext, xspan or span))
    return out


def _same_split(text: str, head, pre, to: int) -> bool:
    """Does `head: pre; return to` parse as the if/elif/else of `head` around the statements
    of `pre` and the return, the way the line itself parses?"""
    parse = text[2:] if text.startswith("elif ") else text
    try:
        whole = pyast.parse(parse).body
    except SyntaxError:
        return False
    if head is None:
        stmts = whole
    else:
        if len(whole) != 1:
            return False
        node = whole[0]
        if not isinstance(node, pyast.If) or node.orelse:
            return False
        stmts = node.body
        cond = head[3:] if head.startswith("if ") else head[5:]
        try:
            if pyast.dump(pyast.parse(cond, mode="eval").body) != pyast.dump(node.test):
                return False
        except SyntaxError:
            return False
    if not stmts or not isinstance(stmts[-1], pyast.Return):
        return False
    ret = stmts[-1].value
    if not (isinstance(ret, pyast.Constant) and ret.value == to):
        return False
    if pre is None:
        return len(stmts) == 1
    try:
        before = pyast.parse(pre).body
    except SyntaxError:
        return False
    return [pyast.dump(s) for s in before] == [pyast.dump(s) for s in stmts[:-1]]
