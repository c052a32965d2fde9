"""A loop over the kinds a pile holds, in a function that never changes the state, walks them
in C.

`for t in me.hand` over a pile (a count per kind), where each kind counts once, is written
`for l_t in _distinct_counts(V[11][me]):`; the helper builds the list of kinds with a count
(runtime/helpers.py), a Python call and a list per loop. Where nothing can change the pile
while the loop runs (a def, a legal-move generator, a choice's options), the loop walks
`_compress(_KINDS, counts)` instead: the same kinds in the same order, taken as the loop asks
for them, with no call into Python. (In the flow, where a loop's body may move the pile's
copies, the list is still made first.)
"""

from __future__ import annotations

import ast as pyast

from .lines import Lines

_HEAD = "for "
_CALL = "_distinct_counts("


def walk_pile_kinds_in_c(lines: Lines) -> Lines:
    """`lines` (functions that never change the state) with each `for X in
    _distinct_counts(E):` walking `_compress(_KINDS, E)`."""
    out = Lines()
    for ind, text, span in lines.items:
        out.add(ind, _rewritten(text), span)
    return out


def _rewritten(text: str) -> str:
    if not (text.startswith(_HEAD) and text.endswith("):") and _CALL in text):
        return text
    target, sep, iterable = text[len(_HEAD):-1].partition(" in ")
    if not sep or not iterable.startswith(_CALL):
        return text
    try:
        call = pyast.parse(iterable, mode="eval").body
    except SyntaxError:
        return text
    if not (isinstance(call, pyast.Call) and isinstance(call.func, pyast.Name) and call.func.id == "_distinct_counts"
            and len(call.args) == 1 and not call.keywords and call.end_col_offset == len(iterable.encode())):
        return text
    arg = iterable[len(_CALL):-1]
    return f"{_HEAD}{target} in _compress(_KINDS, {arg}):"
