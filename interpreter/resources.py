"""Where the grammar and the bundled rules live, installed or in a source checkout."""

from __future__ import annotations

import os
from pathlib import Path

from .textsafe import safe_line

_HERE = Path(__file__).resolve().parent


def _package_dir(package: str, checkout_dir: str) -> Path:
    """The checkout's directory when running from source, else the installed package data."""
    local = _HERE.parent / checkout_dir
    if (_HERE.parent / "grammar" / "regola.lark").is_file() and local.is_dir():
        return local
    import importlib.util
    spec = importlib.util.find_spec(package)
    if spec is not None and spec.submodule_search_locations:
        return Path(list(spec.submodule_search_locations)[0])
    return local


def grammar_path() -> Path:
    return _package_dir("regola.grammar", "grammar") / "regola.lark"


def rules_dir() -> Path:
    return _package_dir("regola.rules", "rules")


def bundled_games() -> list[str]:
    d = rules_dir()
    if not d.is_dir():
        return []
    return sorted(p.name for p in d.iterdir() if p.is_dir() and any(p.glob("*.regola")))


def find_rules(spec: str) -> Path:
    """A bundled game's short name, or a path to a .regola file or a game directory (one
    holding .regola files). Nothing else is read: a save or a log names its rules, and a
    name that is some other file is refused without opening it."""
    if not isinstance(spec, str) or not spec or "\x00" in spec:
        raise FileNotFoundError(f"no rules named {safe_line(repr(spec))}")
    p = Path(spec)
    if p.exists():
        if p.is_dir():
            if any(f.suffix == ".regola" for f in p.glob("*.regola")):
                return p
            raise FileNotFoundError(f"{safe_line(spec)}: a directory with no rules files (*.regola) in it")
        if p.is_file() and p.suffix == ".regola" and p.resolve().suffix == ".regola":
            return p
        raise FileNotFoundError(f"{safe_line(spec)}: not a rules file (a .regola file, a game directory "
                                f"or a bundled game's name)")
    d = rules_dir() / spec
    if "/" not in spec and "\\" not in spec and spec not in (".", "..") and d.is_dir():
        return d
    names = bundled_games()
    from .suggest import did_you_mean
    hint = did_you_mean(spec, names)
    raise FileNotFoundError(f"no rules named {safe_line(repr(spec))}: not a file, and not a bundled game "
                            f"({', '.join(names) or 'none bundled'}){hint}")


def version() -> str:
    try:
        from importlib.metadata import version as v
        return v("regola")
    except Exception:
        return os.environ.get("REGOLA_VERSION", "0.1.0")
