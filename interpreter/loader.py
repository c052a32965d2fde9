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
from .options import normalize as normalize_options
from .resources import find_rules


@dataclass
class CheckResult:
    source: GameSource
    diagnostics: list[Diagnostic]
    program: object

    @property
    def errors(self):
        return [d for d in self.diagnostics if d.is_error]


def check_rules(spec, modules=(), players: Optional[int] = None, options=None) -> CheckResult:
    src = read_game(find_rules(str(spec)))
    if players is None:
        players = player_range(src, select_modules(src, None, list(modules)))[1]
    mods = select_modules(src, players, list(modules))
    _check_players(src, mods, players)
    composed = compose(src, mods, players, normalize_options(options))
    prog, diags = check(composed)
    return CheckResult(src, diags, prog)


def _check_players(src: GameSource, mods, players: int):
    lo, hi = player_range(src, mods)
    if not lo <= players <= hi:
        with_ = [m.name for m in mods if m.players is not None]
        raise ModuleSelectionError(f"{src.title}{' with ' + ', '.join(with_) if with_ else ''} is for {lo} to {hi} "
                                   f"players, not {players}")


def load_game(spec, modules=(), players: Optional[int] = None, options=None, optimise: bool = True):
    """Load, check and compile a game for a number of players (default: the most it allows),
    with game options set by name ({"first_player": 2}; interpreter/options.py).
    `optimise=False` compiles the plain reference code (codegen/program.py): the same game,
    slower; `regola crosscheck` plays the two side by side."""
    path = find_rules(str(spec))
    return _load_cached(str(Path(path).resolve()), _mtime(path), tuple(modules), players,
                        normalize_options(options), bool(optimise))


def _mtime(path) -> float:
    p = Path(path)
    files = [p] if p.is_file() else list(p.glob("*.regola"))
    return max((f.stat().st_mtime for f in files), default=0.0)


@lru_cache(maxsize=32)
def _load_cached(path: str, mtime: float, modules: tuple, players: Optional[int], options: tuple = (),
                 optimise: bool = True):
    from .codegen.program import CodegenError, ProgramCompiler
    from .runtime.game import Game
    res = check_rules(path, modules, players, dict(options))
    if res.errors:
        raise RulesError(res.diagnostics, res.source.sources)
    n = res.program.players
    compiled = None
    try:
        compiled = ProgramCompiler(res.program, n, optimise).compile()
        game = Game(compiled, res.source.name, res.program.modules, res.source.paths)
    except (SyntaxError, RecursionError, MemoryError) as e:
        raise RulesError([_beyond_limits(e, compiled, res)], res.source.sources) from None
    except CodegenError as e:
        raise RulesError([Diagnostic("E999", e.node.span, f"Regola cannot compile this: {e.msg}",
                                     "a gap in Regola's checker, not in your rules: please report it "
                                     "with this file")], res.source.sources) from None
    game.requested_modules = list(modules)
    game.options = dict(options)          # the options given (by name, as text); defaults elsewhere
    return game


def _beyond_limits(e: Exception, compiled, res: CheckResult) -> Diagnostic:
    """The rules checked clean, yet their compiled form goes past a limit of Python's (200
    nested parentheses, 20 nested loops) or of the compiler's recursion: a diagnostic at the
    rule the failing line came from (the checks in rules_text.py keep this rare)."""
    span = None
    line = getattr(e, "lineno", None)
    spans = compiled.module.spans if compiled is not None else []
    if isinstance(e, SyntaxError) and line is not None and 0 < line <= len(spans):
        span = spans[line - 1]
    if span is None:
        span = res.source.game_decl.span
    why = "too large" if isinstance(e, MemoryError) else "nested too deeply or too long"
    return Diagnostic("E003", span, f"this rule is {why} to compile",
                      "give parts of it names (let, def, procedure), or nest fewer loops")
