"""Regola: a declarative rules language for board games and the engine that runs it.

    import regola
    game = regola.load_game("rules/my-game", players=4)      # or a bundled game's name

Pipeline: parser -> AST -> modules composed -> checker -> compiler -> runtime.
The public API: `load_game`, the runtime's `Game` and `State`, the errors (`RulesError` for
rules files, `IllegalMove` for moves, `StateError` for broken saves), and the bots
(`make_bot("ismcts:500", seed)`, `RandomAgent`, `MCTSAgent`, `ISMCTSAgent`), imported when
first used so that `import regola` stays light.
"""

from .diagnostics import Diagnostic, RulesError

__all__ = ["Diagnostic", "RulesError", "load_game", "Game", "State", "IllegalMove", "StateError",
           "make_bot", "RandomAgent", "GreedyAgent", "MCTSAgent", "ISMCTSAgent"]


def load_game(spec, modules=(), players=None, options=None):
    """Load, check and compile a game (a bundled game's name, a .regola file or a game
    directory) for a number of players, with optional modules and game options."""
    from .loader import load_game as _load
    return _load(spec, modules=modules, players=players, options=options)


_LAZY = {
    "Game": ("regola.runtime.game", "Game"),
    "IllegalMove": ("regola.runtime.game", "IllegalMove"),
    "StateError": ("regola.runtime.game", "StateError"),
    "State": ("regola.runtime.state", "State"),
    "make_bot": ("regola.tools.agents", "make_agent"),
    "RandomAgent": ("regola.tools.agents", "RandomAgent"),
    "GreedyAgent": ("regola.tools.agents", "GreedyAgent"),
    "MCTSAgent": ("regola.tools.search", "MCTSAgent"),
    "ISMCTSAgent": ("regola.tools.search", "ISMCTSAgent"),
}


def __getattr__(name):
    if name in _LAZY:
        import importlib
        module, attr = _LAZY[name]
        return getattr(importlib.import_module(module), attr)
    raise AttributeError(f"module 'regola' has no attribute {name!r}")
