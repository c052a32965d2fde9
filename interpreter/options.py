"""Game options: constants the one who loads a game may set (and, for a designer's study,
any other constant of the rules by its name: `apply_options`).

    option first_player: Player = player(1), "who plays first (R9)"
    option rounds: int in 1..5 = 3

`load_game(rules, options={"first_player": 2})`, `regola simulate ... --option first_player=2`
or a scenario's `options:` give a value; the default holds otherwise. An option is a constant
for everything else (`compose` puts the value given in place of the default before the checker
sees it), so a game is compiled once per set of option values and the generated code is as
fast as with a constant. The value given is read as an expression of the language (`2`, `true`,
`red`, `player(2)`; a bare number is the seat for a `Player` option) and checked against the
declared type and bounds by the checker, errors pointing into a source of its own,
`<option NAME>`.
"""

from __future__ import annotations

from . import ast
from .compose import ModuleSelectionError
from .diagnostics import RulesError, SourceMap
from .suggest import did_you_mean

MAX_OPTION_TEXT = 200          # characters in one option's value


class OptionError(ModuleSelectionError):
    """An option the game does not declare, or a value that is not one (before any check)."""


def option_text(value) -> str:
    """The canonical text of a value given from Python or a command line."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return value.strip()
    raise OptionError(f"an option's value is a number, true or false, or a name, not {type(value).__name__}")


def normalize(options) -> tuple:
    """Options as a sorted tuple of (name, text) pairs: hashable, for caches and headers."""
    if not options:
        return ()
    if not isinstance(options, dict):
        raise OptionError("options are a mapping of option names to values")
    out = []
    for name, value in options.items():
        if not isinstance(name, str) or not name.isidentifier():
            raise OptionError(f"{name!r} is not an option name")
        text = option_text(value)
        if not text:
            raise OptionError(f"option {name}: no value given")
        if len(text) > MAX_OPTION_TEXT or "\n" in text or not text.isprintable():
            raise OptionError(f"option {name}: a value is one short line ({MAX_OPTION_TEXT} characters at most)")
        out.append((name, text))
    return tuple(sorted(out))


def parse_assignments(items: list[str]) -> dict:
    """`NAME=VALUE` strings from a command line, as a dict (a repeated name: the last wins)."""
    out = {}
    for item in items or []:
        name, eq, value = item.partition("=")
        if not eq or not name.strip():
            raise OptionError(f"--option takes NAME=VALUE, not {item!r}")
        out[name.strip()] = value.strip()
    return out


def apply_options(decls: list, options: tuple, sources: SourceMap, game_title: str) -> list:
    """The declarations with each given option's value in place of its default. A name that
    is no option but a constant of the rules (`const NAME = ...`, after the modules' overrides)
    sets that constant: what a designer varies in a study (`regola balance --set`); the
    checker then checks the whole game with the new value, as with a module's override."""
    declared = {d.name: i for i, d in enumerate(decls) if isinstance(d, ast.OptionDecl)}
    consts = {d.name: i for i, d in enumerate(decls) if type(d) is ast.ConstDecl}
    for name, text in options:
        idx = declared.get(name)
        if idx is not None:
            d = decls[idx]
            decls[idx] = d.model_copy(update={"value": _given_expr(d, text, sources), "given": text})
            continue
        idx = consts.get(name)
        if idx is not None:
            d = decls[idx]
            value = _given_expr(d, text, sources)
            was, now = _literal_kind(d.value), _literal_kind(value)
            if was and now and was != now:
                from .render import render_expr
                raise OptionError(f"constant {name} is {was} in the rules ({name} = {render_expr(d.value)}), "
                                  f"not {now}: {text!r}")
            decls[idx] = d.model_copy(update={"value": value})
            continue
        names = sorted(declared)
        have = f" (its options: {', '.join(names)})" if names else " (it has no options)"
        raise OptionError(f"{game_title} has no option or constant '{name}'"
                          f"{did_you_mean(name, names + sorted(consts))}{have}")
    return decls


def _given_expr(d: ast.ConstDecl, text: str, sources: SourceMap) -> ast.Expr:
    """Parse the value given as an expression, in a source of its own (for diagnostics)."""
    from .parser import parse
    t = getattr(d, "type", None)             # (a plain constant has no declared type)
    if isinstance(t, ast.TypeName) and t.name == "Player" and text.lstrip("-").isdigit():
        text = f"player({text})"          # a seat number
    fname = f"<option {d.name}>"
    shown = f"{d.name}={text}"
    sources.add(fname, shown)
    prefix = "const __option__ = "
    try:
        prog = parse(prefix + text + "\n", fname)
    except RulesError as e:
        raise RulesError([_shift(x, len(prefix) - len(d.name) - 1) for x in e.diagnostics], sources) from None
    decl = prog.decls[0] if prog.decls else None
    if not isinstance(decl, ast.ConstDecl) or len(prog.decls) != 1:
        raise OptionError(f"option {d.name}: {text!r} is not a value")
    shift = len(prefix) - len(d.name) - 1
    for node in decl.value.walk():
        node.span = node.span.model_copy(update={"col": node.span.col - shift,
                                                 "end_col": node.span.end_col - shift})
    return decl.value


_LITERALS = {ast.IntLit: "a number", ast.BoolLit: "true or false", ast.StrLit: "a text",
             ast.ListLit: "a list", ast.MapLit: "a map"}


def _literal_kind(e) -> str:
    """What a literal is (a number, a list, ...), '' for anything else (a name, a call); a
    negative number counts as a number."""
    if isinstance(e, ast.Neg):
        e = e.operand
    return _LITERALS.get(type(e), "")


def _shift(diag, by: int):
    s = diag.span
    diag.span = s.model_copy(update={"col": max(1, s.col - by), "end_col": max(1, s.end_col - by)})
    return diag


def value_text(value, t) -> str:
    """An option's value as one would give it: `3`, `true`, `red`, `2` (a seat, from 1)."""
    from . import types as T
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(t, T.EnumType) and isinstance(value, int) and 0 <= value < len(t.values):
        return t.values[value]
    if isinstance(t, T.PlayerType) and isinstance(value, int):
        return str(value + 1)
    return str(value)


def option_values(prog) -> dict:
    """name -> the value in force (given or default), as text, for every option of a game."""
    return {name: value_text(prog.consts.get(name), prog.top[name].type) for name in prog.options}
