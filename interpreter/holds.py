"""`holds c where COND` under a zone's declaration: which components the zone may hold.

    deck: stack of Dev by CardType, hidden
        holds c where c.type == key and c.period == period


A determinization (runtime/resample.py) redraws what a player cannot see: the components in
hidden zones, in other players' private zones and in the player's own `others` zone are
shuffled among those places. The declarations say which zones hold which kind of component;
`holds` says which components of that kind a zone may hold as far as anyone can tell
(a deck of one card type holds that type's cards of the current period; a hinted slot
holds the cards its hints allow). Without it a zone may hold any component of its type.

The condition becomes an ordinary pure function of the rules, `holds__<zone>(c, key,
owner)`, checked and compiled like any `def` (it may read the state): `key` is there for
keyed zones (`stack of Dev by CardType`), slots and rows, `owner` for per-player zones.
"""

from __future__ import annotations

from . import ast

PREFIX = "holds__"


def def_name(var: str) -> str:
    return PREFIX + var


def holds_option(v: ast.VarDecl):
    return v.holds


def key_type_name(z: ast.ZoneType):
    """The type name of a zone's `key` parameter, or None if it has none."""
    if z.zone == "row" or (z.zone == "sequence" and z.key is None):
        return "int"
    return z.key


def holds_defs(decls: list) -> list:
    """A `def holds__<zone>(c: Elem[, key: K][, owner: Player]) -> bool = COND` for each zone
    declared with `holds` (a non-zone is left to the checker's error)."""
    out = []
    for d in decls:
        if not isinstance(d, (ast.GlobalDecl, ast.PlayerDecl)):
            continue
        for v in d.vars:
            h = holds_option(v)
            if h is None or not isinstance(v.type, ast.ZoneType):
                continue
            span = h.span
            params = [ast.Param(span=span, name=h.var, type=ast.TypeName(span=span, name=v.type.elem))]
            key = key_type_name(v.type)
            if key is not None:
                params.append(ast.Param(span=span, name="key", type=ast.TypeName(span=span, name=key)))
            if isinstance(d, ast.PlayerDecl):
                params.append(ast.Param(span=span, name="owner", type=ast.TypeName(span=span, name="Player")))
            out.append(ast.DefDecl(span=span, name=def_name(v.name), params=params,
                                   ret=ast.TypeName(span=span, name="bool"), expr=h.cond))
    return out
