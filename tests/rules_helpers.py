"""Helpers for tests that write a small game into a temporary directory and load it."""

from __future__ import annotations

import textwrap

from interpreter.loader import check_rules, load_game


def write(tmp_path, text, name="game", files=None):
    """A game directory: `text` as game.regola, plus module files {name: text}."""
    d = tmp_path / name
    d.mkdir()
    (d / "game.regola").write_text(textwrap.dedent(text), encoding="utf-8")
    for mod, body in (files or {}).items():
        (d / f"{mod}.regola").write_text(textwrap.dedent(body), encoding="utf-8")
    return d


def load(tmp_path, text, players=2, modules=(), name="game", files=None):
    return load_game(str(write(tmp_path, text, name, files)), players=players, modules=list(modules))


def diagnostics(tmp_path, text, name="game", files=None):
    return check_rules(str(write(tmp_path, text, name, files))).diagnostics


def errors(tmp_path, text, name="game", files=None):
    return [d for d in diagnostics(tmp_path, text, name, files) if d.is_error]


def line_of(text, needle):
    """1-based line of the first line of the dedented rules text containing needle."""
    lines = textwrap.dedent(text).splitlines()
    return next(i for i, line in enumerate(lines, 1) if needle in line)


def moves(game, s):
    """The canonical strings of the legal moves."""
    return [game.move_str(s, m) for m in game.legal_moves(s)]


def trace(game, s):
    """The global variable 'trace' as a spectator sees it."""
    return game.observe(s, None)["state"]["trace"]
