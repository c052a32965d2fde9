"""Accumulates generated Python lines with their rules spans (for runtime error positions)."""

from __future__ import annotations


class Lines:
    def __init__(self):
        self.items: list[tuple[int, str, object]] = []

    def add(self, indent: int, text: str, span=None):
        self.items.append((indent, text, span))

    def extend(self, other: "Lines", extra_indent: int = 0):
        for ind, text, span in other.items:
            self.items.append((ind + extra_indent, text, span))

    def __len__(self):
        return len(self.items)


class Module:
    """The whole generated module: source text plus a line -> span map."""

    def __init__(self):
        self.lines: list[str] = []
        self.spans: list[object] = []

    def add(self, text: str, span=None):
        self.lines.append(text)
        self.spans.append(span)

    def add_lines(self, lines: Lines, base_indent: int = 0):
        last = None
        for ind, text, span in lines.items:
            span = span or last
            last = span
            self.add("    " * (ind + base_indent) + text, span)

    def source(self) -> str:
        return "\n".join(self.lines) + "\n"
