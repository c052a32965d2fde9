"""What the passes share: the names the language reserves, scopes, where a body is being
checked (`_Ctx`), and `CheckError`, raised once a value could not be worked out (its
error already reported)."""

from __future__ import annotations

from typing import Optional

from .. import types as T
from ..symbols import ActionInfo, Sym

BUILTINS = ("count", "sum", "min", "max", "any", "all", "abs", "range", "values", "copies", "slots",
            "cells", "adjacent", "beside", "distance", "row_cells", "col_cells", "cell", "player",
            "next_player", "knows", "seats_from", "affordable", "ordinal", "can", "subsets")

RESERVED_VALUES = ("players",)


class _Scope:
    def __init__(self, parent: Optional["_Scope"] = None, python: bool = False):
        self.parent = parent
        self.names: dict[str, Sym] = {}

    def lookup(self, name: str) -> Optional[Sym]:
        s = self
        while s is not None:
            if name in s.names:
                return s.names[name]
            s = s.parent
        return None

    def all_names(self):
        s, out = self, []
        while s is not None:
            out.extend(s.names)
            s = s.parent
        return out

    def child(self) -> "_Scope":
        return _Scope(self)


class _Ctx:
    """Where a body is being checked."""

    def __init__(self, kind: str, static: bool = False, action: Optional[ActionInfo] = None,
                 ret: Optional[T.Type] = None):
        self.kind = kind           # def, procedure, action, setup, flow, handler, end, score, static
        self.static = static
        self.action = action
        self.ret = ret
        self.loops = 0


class CheckError(Exception):
    pass
