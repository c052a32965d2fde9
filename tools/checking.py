"""Checking a game as `regola check` does: every player count of the base game and each
optional module, or one chosen combination; shared by the command and the language server
(tools/lsp.py), which passes an editor's unsaved text as `overrides`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

from regola.compose import ModuleSelectionError
from regola.diagnostics import RulesError, SourceMap


@dataclass
class GameCheck:
    diagnostics: list = field(default_factory=list)   # each once, in the order found
    sources: Optional[SourceMap] = None
    configurations: int = 0                           # configurations checked
    problems: list = field(default_factory=list)      # messages that are not diagnostics
    # with keep_programs: (players, modules) -> (checked program, composed declarations)
    programs: dict = field(default_factory=dict)
    paths: list = field(default_factory=list)         # the game's files


def file_kind(text: str) -> str:
    """'module', 'part' (of a game) or 'game', from a rules file's first statement."""
    for line in text.splitlines():
        s = line.strip()
        if not s or s.startswith("#"):
            continue
        if s.startswith("module "):
            return "module"
        if s.startswith("part of "):
            return "part"
        return "game"
    return "game"


def only_game_in(path: Path) -> bool:
    """Is this file the one game of its directory (so its parts and modules go with it)?"""
    games = [f for f in path.parent.glob("*.regola")
             if file_kind(f.read_text(encoding="utf-8", errors="replace")) == "game"]
    return [f.resolve() for f in games] == [path.resolve()]


def target_of(path: Path, head: str) -> tuple[Path, Optional[Path]]:
    """What checking a rules file means: (the game's directory or file, the one module to
    check or None). A module file checks its game with that module; a part, its whole game."""
    kind = file_kind(head)
    if kind == "game" and not only_game_in(path):
        return path, None                 # a single game file beside others
    if kind == "module":
        return path.parent, path
    return path.parent, None


def check_game(game_dir: Path, only_module: Optional[Path] = None, chosen=(), options=None,
               overrides: Optional[dict] = None, seen: Optional[set] = None,
               keep_programs: bool = False) -> GameCheck:
    """Check a game at every player count of the base game and with each optional module
    (or only `only_module`), or with exactly the modules `chosen` at every player count.
    A warning that something is never used is kept only if it holds in every configuration.
    `seen` (code, place, message) keys are skipped and added to."""
    from regola.checker import check
    from regola.compose import compose, player_range, read_game, select_modules
    from regola.options import normalize as normalize_options
    out = GameCheck()
    seen = set() if seen is None else seen

    def add(d):
        key = (d.code, str(d.span), d.message)
        if key not in seen:
            seen.add(key)
            out.diagnostics.append(d)

    try:
        src = read_game(game_dir, overrides)
    except RulesError as e:
        for d in e.diagnostics:
            add(d)
        out.sources = e.sources
        return out
    except FileNotFoundError as e:
        out.problems.append(str(e))
        return out
    chosen = list(chosen)
    if chosen:
        lo, hi = player_range(src, [src.modules[n] for n in chosen if n in src.modules])
        configs = [(n, chosen) for n in range(lo, hi + 1)]
    else:
        configs = [(n, []) for n in range(src.min_players, src.max_players + 1)]
        for name, m in src.modules.items():
            if not m.automatic and (only_module is None or
                                    Path(m.path).resolve() == Path(only_module).resolve()):
                mods = [*m.requires, name]
                configs.append((player_range(src, [src.modules[n] for n in mods if n in src.modules])[1], mods))
    unused, unused_diags = None, {}
    for players, mods in configs:
        try:
            selected = select_modules(src, players, mods)
        except ModuleSelectionError as e:
            out.problems.append(str(e))
            continue
        except RulesError as e:
            for d in e.diagnostics:
                add(d)
            continue
        composed = compose(src, selected, players, normalize_options(options or {}))
        prog, diags = check(composed)
        out.configurations += 1
        if keep_programs:
            out.programs[(players, tuple(mods))] = (prog, composed.decls)
        config_unused = set()
        for d in diags:
            if d.code == "W001":
                config_unused.add((d.code, str(d.span), d.message))
                unused_diags[(d.code, str(d.span), d.message)] = d
            else:
                add(d)
        # "never used" only if unused in every configuration (a module may use it)
        unused = config_unused if unused is None else (unused & config_unused)
    for key in sorted(unused or ()):
        add(unused_diags[key])
    out.sources = src.sources
    out.paths = list(src.paths)
    return out
