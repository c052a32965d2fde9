"""Where the grammar and the bundled rules live, installed or in a source checkout."""

from __future__ import annotations

import os
from pathlib import Path

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
    return _package_dir("regola_grammar", "grammar") / "regola.lark"


def rules_dir() -> Path:
    return _package_dir("regola_rules", "rules")


def bundled_games() -> list[str]:
    d = rules_dir()
    if not d.is_dir():
        return []
    return sorted(p.name for p in d.iterdir() if p.is_dir() and any(p.glob("*.regola")))


def find_rules(spec: str) -> Path:
    """A bundled game's short name, or a path to a .regola file or a game directory."""
    p = Path(spec)
    if p.exists():
        return p
    d = rules_dir() / spec
    if d.is_dir():
        return d
    names = bundled_games()
    from .suggest import did_you_mean
    hint = did_you_mean(spec, names)
    raise FileNotFoundError(f"no rules named {spec!r}: not a file, and not a bundled game "
                            f"({', '.join(names) or 'none bundled'}){hint}")


def version() -> str:
    try:
        from importlib.metadata import version as v
        return v("regola")
    except Exception:
        return os.environ.get("REGOLA_VERSION", "0.1.0")
