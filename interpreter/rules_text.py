"""The text of a rules file before it is parsed, and the limits it must keep.

A rules file is someone else's code. Whatever bytes it holds, reading it ends in either a
program or a positioned diagnostic: bytes that are not UTF-8, control characters, string
escapes the language does not have, integers too long to be a count, and expressions or
blocks nested deeper than the later stages (and the Python the compiler writes) can take.
Every limit here is documented in docs/language.md ("Limits").
"""

from __future__ import annotations

import re

from lark import Token, Tree

from . import ast
from .diagnostics import Diagnostic
from .limits import MAX_CHAIN, MAX_FILE_BYTES, MAX_INT_DIGITS, MAX_NESTING, MAX_STRING

# C0 controls but tab and newline, DEL, C1 controls, the line and paragraph separators
# (editors break lines there, the parser does not), and the bidirectional overrides that
# make a line read differently from how it runs ("Trojan source")
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
_ESCAPES = {'"': '"', "\\": "\\", "n": "\n", "t": "\t"}


class TextError(Exception):
    """A problem at a place in the text (line and column from 1)."""

    def __init__(self, line: int, col: int, message: str, hint: str | None = None, code: str = "E002"):
        super().__init__(message)
        self.line, self.col, self.message, self.hint, self.code = line, col, message, hint, code

    def diagnostic(self, filename: str) -> Diagnostic:
        span = ast.Span(file=filename, line=self.line, col=self.col, end_line=self.line, end_col=self.col + 1)
        return Diagnostic(self.code, span, self.message, self.hint)


def _line_col(text: str, pos: int) -> tuple[int, int]:
    line = text.count("\n", 0, pos) + 1
    return line, pos - (text.rfind("\n", 0, pos) + 1) + 1


def decode(data: bytes) -> str:
    """The text of a rules file: UTF-8 (a byte-order mark is dropped), any line ending."""
    if len(data) > MAX_FILE_BYTES:
        raise TextError(1, 1, f"this file is {len(data):,} bytes; a rules file may have at most "
                              f"{MAX_FILE_BYTES:,}", "split the game into parts or modules")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        good = _normal(data[:e.start].decode("utf-8", errors="replace"))
        line, col = _line_col(good, len(good))
        raise TextError(line, col, f"byte 0x{data[e.start]:02x} is not UTF-8 text",
                        "save the file as UTF-8") from None
    return _normal(text)


def _normal(text: str) -> str:
    """Without a byte-order mark, every line ending made '\\n'."""
    if text.startswith("\ufeff"):
        text = text[1:]
    return text.replace("\r\n", "\n").replace("\r", "\n")


def shown_text(data: bytes) -> "RulesText":
    """What the source map keeps of a file that could not be read as rules text: its lines
    as decode() counts them, bytes that are not UTF-8 replaced."""
    return RulesText(_normal(data.decode("utf-8", errors="replace")))


class RulesText(str):
    """The text of a rules file as the source map keeps it: its lines end at '\\n' only, as
    the parser counts them (`str.splitlines`, which the source map uses, also breaks at \\x0b,
    \\x0c, \\x1c-\\x1e, \\x85, \\u2028 and \\u2029; a diagnostic about such a character
    would otherwise show the wrong line)."""

    def splitlines(self, keepends: bool = False) -> list[str]:
        lines = self.split("\n")
        if keepends:
            lines = [x + "\n" for x in lines[:-1]] + [lines[-1]]
        return lines[:-1] if lines and lines[-1] == "" else lines


def check_characters(text: str) -> None:
    """Refuse a control character anywhere (inside a string too: write \\n or \\t there)."""
    m = _CONTROL.search(text)
    if m is not None:
        line, col = _line_col(text, m.start())
        c = ord(m.group())
        name = f"\\x{c:02x}" if c < 0x100 else f"\\u{c:04x}"
        hint = ("remove it: it makes the line read differently from how it runs" if c >= 0x200e
                else "remove it; inside a string write \\n for a new line or \\t for a tab")
        raise TextError(line, col, f"a control character ({name}) in the rules text", hint)


def string_value(tok: Token) -> str:
    """The value of a STRING token: the language's own escapes, \\" \\\\ \\n \\t, and no other."""
    raw = str(tok)[1:-1]
    if len(raw) > MAX_STRING:
        raise TextError(tok.line, tok.column, f"a string of {len(raw):,} characters; at most {MAX_STRING:,}")
    if "\\" not in raw:
        return raw
    out, i = [], 0
    while i < len(raw):
        ch = raw[i]
        if ch != "\\":
            out.append(ch)
            i += 1
            continue
        nxt = raw[i + 1] if i + 1 < len(raw) else ""
        if nxt not in _ESCAPES:
            shown = "\\" + nxt if nxt.isprintable() else "\\"
            raise TextError(tok.line, tok.column + 1 + i, f"'{shown}' is not an escape of the language",
                            'the escapes in a string are \\" \\\\ \\n and \\t')
        out.append(_ESCAPES[nxt])
        i += 2
    return "".join(out)


def int_value(tok: Token) -> int:
    digits = str(tok)
    if len(digits.lstrip("0")) > MAX_INT_DIGITS:
        raise TextError(tok.line, tok.column, f"an integer of {len(digits):,} digits; integer literals "
                                              f"have at most {MAX_INT_DIGITS}",
                        "the language counts things: no count needs more")
    return int(digits)


# left-associative operator chains: `a + b - c + d` nests to the left; a chain counts as one
# level of nesting, and its length has a limit of its own
_CHAINS = {"add": "+", "sub": "+", "mul": "*", "div": "*", "mod": "*", "and_op": "and", "or_op": "or"}


def check_nesting(tree: Tree) -> None:
    """Refuse a syntax tree nested deeper than MAX_NESTING, or an operator chain longer than
    MAX_CHAIN (walked without recursion): the later stages recurse over the tree, and the
    Python the compiler writes has its own limits (200 nested parentheses)."""
    stack = [(tree, 1, 1)]
    while stack:
        node, depth, chain = stack.pop()
        if depth > MAX_NESTING:
            line, col = _position(node)
            raise TextError(line, col, f"nested too deeply: more than {MAX_NESTING} levels of "
                                       f"expressions and blocks",
                            "give parts of it names (let, def, procedure)", "E003")
        if chain > MAX_CHAIN:
            line, col = _position(node)
            raise TextError(line, col, f"a chain of more than {MAX_CHAIN} '{_CHAINS[str(node.data)]}' "
                                       f"operations", "split it into named parts (let, def), or use sum(...) "
                                                      "or all(...) over a list", "E003")
        family = _CHAINS.get(str(node.data))
        for i, c in enumerate(node.children):
            if isinstance(c, Tree):
                if i == 0 and family is not None and _CHAINS.get(str(c.data)) == family:
                    stack.append((c, depth, chain + 1))
                else:
                    stack.append((c, depth + 1, 1))


def _position(node: Tree) -> tuple[int, int]:
    """Where a subtree starts (its first token), found without recursion."""
    while True:
        meta = node.meta
        if not getattr(meta, "empty", True):
            return meta.line, meta.column
        for c in node.children:
            if isinstance(c, Token) and c.line is not None:
                return c.line, c.column
        trees = [c for c in node.children if isinstance(c, Tree)]
        if not trees:
            return 1, 1
        node = trees[0]
