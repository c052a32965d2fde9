"""Names the pieces of the program compiler share: a unit's generated function name, and a
short rendering of an expression for messages."""

from __future__ import annotations


def _pyname(key: str) -> str:
    kind, _, rest = key.partition(":")
    prefix = {"proc": "P", "action": "A", "event": "H", "watch": "W"}.get(kind, kind.upper())
    return f"{prefix}_{rest.replace(':', '_')}"


def _text(node) -> str:
    """A short readable rendering of an expression for messages."""
    from ..render import render_expr
    return render_expr(node)
