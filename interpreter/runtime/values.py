"""Values and their text: how a typed value is written, read back and numbered in the action
space, and the default and copy of a variable's initial value. Pure functions, no state.
"""

from __future__ import annotations

from .. import types as T


_BAD = object()


def format_value(t, v) -> str:
    if v is None:
        return "none"
    t = T.strip(t) if t is not None else T.ANY
    if isinstance(t, T.EnumType):
        return t.values[v]
    if isinstance(t, T.RecordType):
        return t.kinds[v]
    if isinstance(t, T.PlayerType):
        return f"player({v + 1})"
    if isinstance(t, T.CellType):
        r, c = divmod(v, t.grid.cols)
        return f"({r},{c})"
    if isinstance(t, (T.AreaType, T.LineType)):
        return f"{t.name}({v})"
    if t is T.BOOL:
        return "true" if v else "false"
    if isinstance(t, T.ListType):
        return "[" + ", ".join(format_value(t.elem, x) for x in v) + "]"
    return str(v)


def parse_value(t, text: str):
    text = text.strip()
    t = T.strip(t)
    if isinstance(t, T.ListType):
        return _parse_list(t, text)
    try:
        if isinstance(t, T.EnumType):
            return t.values.index(text)
        if isinstance(t, T.RecordType):
            return t.kinds.index(text)
        if isinstance(t, T.PlayerType):
            if text.startswith("player(") and text.endswith(")"):
                return int(text[7:-1]) - 1
            return _BAD
        if isinstance(t, T.CellType):
            r, c = (int(x) for x in text.strip("()").split(","))
            if 0 <= r < t.grid.rows and 0 <= c < t.grid.cols:
                return r * t.grid.cols + c
            return _BAD
        if isinstance(t, (T.AreaType, T.LineType)):
            return int(text[len(t.name) + 1:-1])
        if t is T.BOOL:
            return {"true": True, "false": False}[text]
        return int(text)
    except (ValueError, KeyError, IndexError):
        return _BAD


def value_index(t, v) -> int:
    t = T.strip(t)
    if isinstance(t, T.SelectionType):
        return t.rank(v)
    if isinstance(t, T.IntRange):
        return v - t.low
    if t is T.BOOL:
        return int(bool(v))
    return int(v)


def _parse_list(t, text: str):
    """`[a, b]`: a list of values of the element type; a selection (`subsets`) is the
    ascending tuple of them, in any order written, of an allowed size."""
    if not (text.startswith("[") and text.endswith("]")):
        return _BAD
    inner = text[1:-1].strip()
    items = [parse_value(t.elem, x) for x in _split_args(inner)] if inner else []
    if any(x is _BAD for x in items):
        return _BAD
    if isinstance(t, T.SelectionType):
        if not t.lo <= len(items) <= t.hi:
            return _BAD
        return tuple(sorted(items))
    return items


def value_from_index(t, i: int):
    """The value of a finite type at index i (the inverse of `value_index`)."""
    t = T.strip(t)
    if isinstance(t, T.SelectionType):
        return t.unrank(i)
    if isinstance(t, T.IntRange):
        return t.low + i
    if t is T.BOOL:
        return bool(i)
    return i


def _split_args(text: str) -> list[str]:
    out, depth, cur = [], 0, ""
    for ch in text:
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur)
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur)
    return out


def _norm(text: str) -> str:
    return "".join(str(text).split())


def _copy(x):
    """A copy of a value, nested lists included (one player's keyed zone, a list of lists,
    must never be another player's)."""
    return [_copy(y) for y in x] if isinstance(x, list) else x


def _default_for(t):
    if isinstance(t, T.OptType):
        return None
    if T.is_int(t):
        return 0
    if t is T.BOOL:
        return False
    if isinstance(t, T.ListType):
        return []
    return None
