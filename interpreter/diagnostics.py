"""One diagnostic type and one renderer for every stage (parser, composer, checker).

Rendered as `file:line:col: severity[code]: message`, then the source line, a caret
under the column, and an optional hint.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

from .ast import Span
from .textsafe import safe, safe_line


@dataclass
class Diagnostic:
    code: str
    span: Span
    message: str
    hint: Optional[str] = None
    severity: str = "error"          # error | warning
    notes: list = field(default_factory=list)   # (span, text) pairs: "first defined here"

    @property
    def is_error(self) -> bool:
        return self.severity == "error"

    def sort_key(self):
        return (self.span.file, self.span.line, self.span.col, self.code)


class SourceMap:
    """File name -> text, for rendering source lines."""

    def __init__(self):
        self.files: dict[str, str] = {}
        self._lines: dict[str, list[str]] = {}     # split once per file, not per diagnostic

    def add(self, name: str, text: str) -> None:
        self.files[name] = text
        self._lines.pop(name, None)

    def line(self, name: str, line: int) -> Optional[str]:
        text = self.files.get(name)
        if text is None or line < 1:
            return None
        lines = self._lines.get(name)
        if lines is None:
            lines = self._lines[name] = text.splitlines()
        return lines[line - 1] if line <= len(lines) else None


def _shown(src: str, col: int, width: int) -> tuple[str, str]:
    """The source line as printed (tabs as spaces, control characters as escapes) and the
    caret line under columns col..col+width-1 of the original, at their printed places."""
    if src.isprintable():            # (the common case: each character prints as itself)
        line, end = src, len(src)
        start = max(col - 1, 0)
        stop = max(min(start + width, end), start + 1)
    else:
        shown, at, end = [], [], 0
        for ch in src:
            at.append(end)
            piece = " " * (4 - end % 4) if ch == "\t" else safe_line(ch)
            shown.append(piece)
            end += len(piece)
        start = at[col - 1] if 0 < col <= len(at) else end + max(0, col - 1 - len(at))
        stop = at[col - 1 + width] if col - 1 + width < len(at) else max(end, start + 1)
        line = "".join(shown)
    if end > _LONG_LINE:             # a window around the column, not the whole line
        lo = max(0, min(start - _LONG_LINE // 2, end - _LONG_LINE))
        line = ("..." if lo else "") + line[lo:lo + _LONG_LINE] + ("..." if lo + _LONG_LINE < end else "")
        start -= lo - (3 if lo else 0)
        stop -= lo - (3 if lo else 0)
    return line, " " * start + "^" + "~" * max(0, min(stop - start, 60) - 1)


_LONG_LINE = 160          # printed characters of a source line beyond which only a window is shown


def render(d: Diagnostic, sources: Optional[SourceMap] = None) -> str:
    s = d.span
    out = [f"{safe_line(str(s.file))}:{s.line}:{s.col}: {d.severity}[{d.code}]: {safe(d.message)}"]
    src = sources.line(s.file, s.line) if sources else None
    if src is not None:
        width = 1
        if s.end_line == s.line and s.end_col > s.col:
            width = s.end_col - s.col
        line, caret = _shown(src.rstrip(), s.col, width)
        out.append("    " + line)
        out.append("    " + caret)
    if d.hint:
        out.append(f"  hint: {safe(d.hint)}")
    for span, text in d.notes:
        out.append(f"  note: {safe_line(str(span))}: {safe(text)}")
    return "\n".join(out)


def render_all(diags, sources=None) -> str:
    return "\n".join(render(d, sources) for d in sorted(diags, key=Diagnostic.sort_key))


class RulesError(Exception):
    """Loading failed: carries every diagnostic collected."""

    def __init__(self, diagnostics: list[Diagnostic], sources: Optional[SourceMap] = None):
        self.diagnostics = sorted(diagnostics, key=Diagnostic.sort_key)
        self.sources = sources
        super().__init__(render_all(self.diagnostics, sources))
