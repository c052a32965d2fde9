"""What the language server knows of a rules file, without the protocol (tools/lsp.py speaks
it): the checker's diagnostics for the file's whole game, and, from the last version of the
game that parsed (type errors and all), the node under a position, its type, where its name
is declared, and the names that may be written there.

Positions here are 1-based lines and columns, as the checker's spans are.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

from regola import ast

from .checking import check_game, target_of

def keywords() -> list[str]:
    """The language's keywords: the grammar's quoted words (grammar/regola.lark)."""
    global _KEYWORDS
    if _KEYWORDS is None:
        from regola.resources import grammar_path
        _KEYWORDS = sorted(set(re.findall(r'"([a-z_]+)"', grammar_path().read_text(encoding="utf-8"))))
    return _KEYWORDS


_KEYWORDS = None


@dataclass
class Analysis:
    """A game as the checker saw it: the checked program and the declarations of its files."""
    prog: object
    decls: list
    files: set = field(default_factory=set)


def game_of(path: Path, overrides: dict) -> tuple[Path, Optional[Path]]:
    """The game (directory or single file) and module a rules file belongs to."""
    text = overrides.get(str(path.resolve()))
    if text is None:
        text = path.read_text(encoding="utf-8", errors="replace")
    return target_of(path, text.lstrip())


def check_file(path: Path, overrides: dict) -> tuple[dict, Optional[Analysis]]:
    """What the server answers from, in one check of the game `path` belongs to, as `regola
    check` checks it: file -> the checker's diagnostics there (every file of the game gets an
    entry, empty when clean, so an editor clears what was fixed), and the checked program of
    the game with the module of `path` at its most players (the base game's otherwise), or None
    when the rules do not parse."""
    game_dir, module = game_of(path, overrides)
    res = check_game(game_dir, module, overrides=overrides, keep_programs=True)
    files = [game_dir] if game_dir.is_file() else sorted(game_dir.glob("*.regola"))
    found: dict[str, list] = {str(f.resolve()): [] for f in files}
    for d in res.diagnostics:
        found.setdefault(str(Path(d.span.file).resolve()), []).append(d)
    for message in res.problems:
        found.setdefault(str(path.resolve()), []).append(message)
    wanted = [k for k in res.programs if bool(k[1]) == (module is not None)]
    if not wanted:
        return found, None
    prog, decls = res.programs[max(wanted)]
    return found, Analysis(prog, list(decls), {str(Path(f).resolve()) for f in res.paths})


def diagnostics(path: Path, overrides: dict) -> dict[str, list]:
    return check_file(path, overrides)[0]


def analyse(path: Path, overrides: dict) -> Optional[Analysis]:
    return check_file(path, overrides)[1]


def node_at(a: Analysis, file: str, line: int, col: int):
    """The smallest node of `file` whose span holds (line, col), among those the checker typed
    or resolved; None elsewhere."""
    file = str(Path(file).resolve())
    best, best_size = None, None
    for decl in a.decls:
        sp = decl.span
        if str(Path(sp.file).resolve()) != file or not _inside(sp, line, col):
            continue
        for n in decl.walk():
            if id(n) not in a.prog.types and id(n) not in a.prog.refs:
                continue
            s = n.span
            if s.file != sp.file or not _inside(s, line, col):
                continue
            size = (s.end_line - s.line, s.end_col - s.col if s.end_line == s.line else 10 ** 6)
            if best_size is None or size < best_size:
                best, best_size = n, size
    return best


def _inside(s, line: int, col: int) -> bool:
    if line < s.line or line > s.end_line:
        return False
    if line == s.line and col < s.col:
        return False
    if line == s.end_line and col >= s.end_col:
        return False
    return True


def hover(a: Analysis, file: str, line: int, col: int) -> Optional[str]:
    """Markdown for the node under the cursor: what it is and its type."""
    n = node_at(a, file, line, col)
    if n is None:
        return None
    from regola.render import render_expr
    sym = a.prog.refs.get(id(n))
    t = a.prog.types.get(id(n))
    try:
        text = render_expr(n) if isinstance(n, ast.Expr) else getattr(n, "name", n.kind)
    except Exception:  # noqa: BLE001 (a node render.py does not write)
        text = getattr(n, "name", n.kind)
    parts = [f"`{text}`: `{t}`" if t is not None else f"`{text}`"]
    if sym is not None:
        what = sym.kind.replace("_", " ")
        where = sym.span
        parts.append(f"{what} `{sym.name}`: `{sym.type}`" + (f", declared at {Path(where.file).name}:{where.line}"
                                                           if where.line else " (built in)"))
    return "\n\n".join(parts)


def definition(a: Analysis, file: str, line: int, col: int):
    """The span declaring the name under the cursor, or None (a built-in, or no name)."""
    n = node_at(a, file, line, col)
    if n is None:
        return None
    sym = a.prog.refs.get(id(n))
    if sym is None or sym.node is None or not sym.span.line:
        return None
    return sym.span


def completions(a: Optional[Analysis], text_before: str) -> list[tuple[str, str, str]]:
    """(label, kind, detail) of the names that may follow `text_before` (the line up to the
    cursor): after `x.`, every record field and per-player or global variable (what x is is not
    worked out); otherwise the declared names, enum values and kinds, and the keywords."""
    out: dict[str, tuple[str, str, str]] = {}
    if a is not None:
        prog = a.prog
        if re.search(r"[\w)\]]\.\w*$", text_before):
            for rec in prog.records.values():
                for fname, ftype in rec.fields.items():
                    out.setdefault(fname, (fname, "field", f"{rec.name}.{fname}: {ftype}"))
            for v in list(prog.globals.values()) + list(prog.pvars.values()):
                out.setdefault(v.name, (v.name, "variable", f"{v.name}: {v.type}"))
            return sorted(out.values())
        for name, sym in prog.top.items():
            out[name] = (name, sym.kind, f"{sym.kind} {name}: {sym.type}")
        for name, syms in prog.values.items():
            if syms:
                out.setdefault(name, (name, syms[0].kind, f"{syms[0].kind.replace('_', ' ')} {name}"))
        for v in prog.pvars.values():
            out.setdefault(v.name, (v.name, "variable", f"per player {v.name}: {v.type}"))
    for k in keywords():
        out.setdefault(k, (k, "keyword", "keyword"))
    return sorted(out.values())
