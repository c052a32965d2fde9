"""Text from a rules file, a save or a log, made safe to print on a terminal.

A rules file is someone else's code: a title or a prompt holding an escape sequence could
clear the screen, move the cursor or rewrite what was printed before. Everything Regola prints
that came from such a file passes through `safe`, which writes control characters (C0 but
newline and tab, DEL, C1) and the bidirectional overrides (which reorder how a line reads)
as visible escapes: `\\x1b`, `\\u202e`.
"""

from __future__ import annotations

import re

_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def _escape(m: re.Match) -> str:
    c = ord(m.group())
    return f"\\x{c:02x}" if c < 0x100 else f"\\u{c:04x}"


def safe(text: str) -> str:
    """`text` with every character that would act on the terminal written as an escape."""
    return _UNSAFE.sub(_escape, text)


def safe_line(text: str) -> str:
    """One line: newlines and tabs escaped too (for a value printed inside a line)."""
    return safe(text).replace("\n", "\\n").replace("\t", "\\t")
