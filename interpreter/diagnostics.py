"""One diagnostic type and one renderer for every stage (parser, composer, checker).

Rendered as `file:line:col: severity[code]: message`, then the source line, a caret
under the column, and an optional hint.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

from .ast import Span


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

    def add(self, name: str, text: str) -> None:
        self.files[name] = text

    def line(self, name: str, line: int) -> Optional[str]:
        text = self.files.get(name)
        if text is None or line < 1:
            return None
        lines = text.splitlines()
        return lines[line - 1] if line <= len(lines) else None


def render(d: Diagnostic, sources: Optional[SourceMap] = None) -> str:
    s = d.span
    out = [f"{s.file}:{s.line}:{s.col}: {d.severity}[{d.code}]: {d.message}"]
    src = sources.line(s.file, s.line) if sources else None
    if src is not None:
        out.append("    " + src.rstrip())
        width = 1
        if s.end_line == s.line and s.end_col > s.col:
            width = s.end_col - s.col
        out.append("    " + " " * (s.col - 1) + "^" + "~" * max(0, min(width, 60) - 1))
    if d.hint:
        out.append(f"  hint: {d.hint}")
    for span, text in d.notes:
        out.append(f"  note: {span}: {text}")
    return "\n".join(out)


def render_all(diags, sources=None) -> str:
    return "\n".join(render(d, sources) for d in sorted(diags, key=Diagnostic.sort_key))


class RulesError(Exception):
    """Loading failed: carries every diagnostic collected."""

    def __init__(self, diagnostics: list[Diagnostic], sources: Optional[SourceMap] = None):
        self.diagnostics = sorted(diagnostics, key=Diagnostic.sort_key)
        self.sources = sources
        super().__init__(render_all(self.diagnostics, sources))
