"""Regola: a declarative rules language for board games and the engine that runs it.

Pipeline: parser -> AST -> modules composed -> checker -> compiler -> runtime.
`load_game` is the one entry point most callers need.
"""

from .diagnostics import Diagnostic, RulesError

__all__ = ["Diagnostic", "RulesError", "load_game"]


def load_game(spec, modules=(), players=None):
    from .loader import load_game as _load
    return _load(spec, modules=modules, players=players)
