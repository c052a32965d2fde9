"""Rules on disk -> a runnable Game: read, compose modules, check, compile.

`check_rules` runs every stage up to the checker and returns all diagnostics (used by
`regola check`); `load_game` raises RulesError if any diagnostic is an error.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Optional

from .checker import check
from .compose import GameSource, ModuleSelectionError, compose, player_range, read_game, select_modules
from .diagnostics import Diagnostic, RulesError
from .resources import find_rules


@dataclass
class CheckResult:
    source: GameSource
    diagnostics: list[Diagnostic]
    program: object

    @property
    def errors(self):
        return [d for d in self.diagnostics if d.is_error]


def check_rules(spec, modules=(), players: Optional[int] = None) -> CheckResult:
    src = read_game(find_rules(str(spec)))
    if players is None:
        players = player_range(src, select_modules(src, None, list(modules)))[1]
    mods = select_modules(src, players, list(modules))
    _check_players(src, mods, players)
    composed = compose(src, mods, players)
    prog, diags = check(composed)
    return CheckResult(src, diags, prog)


def _check_players(src: GameSource, mods, players: int):
    lo, hi = player_range(src, mods)
    if not lo <= players <= hi:
        with_ = [m.name for m in mods if m.players is not None]
        raise ModuleSelectionError(f"{src.title}{' with ' + ', '.join(with_) if with_ else ''} is for {lo} to {hi} "
                                   f"players, not {players}")


def load_game(spec, modules=(), players: Optional[int] = None):
    """Load, check and compile a game for a number of players (default: the most it allows)."""
    path = find_rules(str(spec))
    return _load_cached(str(Path(path).resolve()), _mtime(path), tuple(modules), players)


def _mtime(path) -> float:
    p = Path(path)
    files = [p] if p.is_file() else list(p.glob("*.regola"))
    return max((f.stat().st_mtime for f in files), default=0.0)


@lru_cache(maxsize=32)
def _load_cached(path: str, mtime: float, modules: tuple, players: Optional[int]):
    from .codegen.program import ProgramCompiler
    from .runtime.game import Game
    res = check_rules(path, modules, players)
    if res.errors:
        raise RulesError(res.diagnostics, res.source.sources)
    n = res.program.players
    compiled = ProgramCompiler(res.program, n).compile()
    game = Game(compiled, res.source.name, res.program.modules, res.source.paths)
    game.requested_modules = list(modules)
    return game
