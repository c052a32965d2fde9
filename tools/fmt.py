"""`regola fmt`: one layout for every rules file, comments and blank-line groups kept.

The formatter works on the text, line by line, guided by the tokens of the project's own
lexer and the decisions of its own indenter (which line breaks end a statement, which are
inside brackets or continue a line): it never rebuilds the file from the syntax tree, so
nothing the tree does not hold (comments, blank lines, where a long expression is broken)
is lost, and it changes nothing but whitespace outside strings and comments.
docs/formatter.md says what it normalises; `format_text` checks that the text it returns
parses to the same syntax tree as the one it was given.
"""

from __future__ import annotations

import bisect
import difflib
import os
import sys
import tempfile
import unicodedata
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path

from regola.diagnostics import RulesError, render
from regola.parser import _RegolaIndenter, parse
from regola.rules_text import TextError, decode
from regola.textsafe import safe, safe_line

INDENT = 4                      # spaces per block level
MAX_BLANK_TOP = 2               # blank lines in a row before a top-level line
MAX_BLANK_INSIDE = 1            # ... before any other line

_OPEN = {"LPAR": "(", "LSQB": "[", "LBRACE": "{"}
_CLOSE = {"RPAR", "RSQB", "RBRACE"}
# tokens after which '-' subtracts, '[' indexes (and, after a name, '(' calls)
_OPERAND_END = {"NAME", "INT", "STRING", "TRUE", "FALSE", "NONE", "ME"} | _CLOSE
_TIGHT = {".", ".."}            # no space on either side


class FormatError(Exception):
    """The formatter would have changed what the rules say: a bug of the formatter."""


# ------------------------------------------------------------------------ tokens

class _Recorder(_RegolaIndenter):
    """The parser's own indenter, noting the tokens the lexer gives it and the line breaks
    it passes on to the parser (those that end a statement; the others are inside brackets
    or continue a line)."""

    def process(self, stream):
        self.tokens, self.kept = [], set()

        def tap(tokens):
            for tok in tokens:
                self.tokens.append(tok)
                yield tok
        for tok in super().process(tap(stream)):
            if tok.type == "_NL":
                self.kept.add(tok.start_pos)
            yield tok


@lru_cache(maxsize=1)
def _recording_parser():
    """A parser of the grammar regola.parser uses, whose indenter is a _Recorder (without
    the positions of the syntax tree's nodes, a third faster; its tables cached apart)."""
    import lark
    from regola.grammar_cache import cache_file
    from regola.resources import grammar_path
    grammar = grammar_path().read_text(encoding="utf-8")
    cache = cache_file(grammar + "\n// regola fmt", lark.__version__) or False
    recorder = _Recorder()
    parser = lark.Lark(grammar, parser="lalr", postlex=recorder, maybe_placeholders=True, cache=cache,
                       start="start")
    return parser, recorder


def _lex(text: str):
    """The tokens of a text that parses (whitespace and comments left out), and the start
    positions of the line breaks that end a statement."""
    parser, recorder = _recording_parser()
    recorder.text = text
    parser.parse(text)
    return recorder.tokens, recorder.kept


# ------------------------------------------------------------------------ lines

def _lead(s: str) -> str:
    return s[:len(s) - len(s.lstrip(" \t"))]


def _lark_width(indentation: str) -> int:
    """An indentation's width as the parser's indenter counts it (a tab is 4 spaces)."""
    return indentation.count(" ") + indentation.count("\t") * INDENT


def _columns(s: str) -> int:
    """Columns a stretch of a line takes, tabs going to the next multiple of 4."""
    return len(s.expandtabs(INDENT))


def _display_width(s: str) -> int:
    """Columns a text takes in a terminal (wide East Asian characters take two)."""
    if s.isascii():
        return len(s)
    return sum(0 if unicodedata.combining(ch) else 2 if unicodedata.east_asian_width(ch) in "WF" else 1
               for ch in s)


@dataclass
class _Line:
    raw: str                        # as it was, without its newline
    tokens: list = field(default_factory=list)     # the tokens that start on it (no line breaks)
    start: bool = False             # its code starts a statement (else it continues one)
    ends: bool = True               # its line break ends a statement
    level: int = 0                  # a statement's block level
    owner: int = 0                  # the first line of the statement it is in or follows
    stack: tuple = (0,)             # the widths of the blocks open after it
    rest: str = ""                  # after its code (or all of it, without code): a comment or '\'
    rest_col: int = 0               # the column where `rest` started
    rest_gap: int = 0               # the columns between its code and `rest`
    spaces: list = field(default_factory=list)     # the space before each token
    code: str = ""                  # its tokens, spaced
    rest_fixed: int = -1            # the column a table gives its row's comment (-1: none)
    indent: int = 0                 # the new indentation
    text: str = ""                  # the new line

    @property
    def width(self) -> int:
        return _lark_width(_lead(self.raw))

    @property
    def columns(self) -> int:
        return _columns(_lead(self.raw))

    def rest_at(self) -> int:
        """The new column of its comment (or '\\')."""
        if not self.tokens:
            return self.indent
        if self.rest_fixed >= 0:
            return self.rest_fixed
        end = self.indent + len(self.code)
        # kept where the code still fits before it (moved with the line), else after the
        # code and a gap of one or two spaces
        target = self.rest_col + self.indent - self.columns
        return target if target > end else end + min(2, max(1, self.rest_gap))


class _Formatter:
    def __init__(self, text: str):
        self.lines = [_Line(raw) for raw in text.split("\n")[:-1]]    # text ends with "\n"
        self.tokens, self.kept = _lex(text)

    def run(self) -> str:
        self._classify()
        self._space_tokens()
        self._align_tables()
        self._indent()
        return self._join()

    def _classify(self):
        """Which line starts a statement, at what level; which continues one."""
        lines = self.lines
        starts = [0]                               # where each line starts in the text
        for ln in lines:
            starts.append(starts[-1] + len(ln.raw) + 1)
        for tok in self.tokens:
            if tok.type != "_NL":
                lines[tok.line - 1].tokens.append(tok)
                continue
            # the lines whose newline this token holds
            first = bisect.bisect_right(starts, tok.start_pos) - 1
            last = bisect.bisect_right(starts, tok.start_pos + str(tok).rfind("\n")) - 1
            for i in range(first, min(last, len(lines) - 1) + 1):
                lines[i].ends = tok.start_pos in self.kept
        stack, owner = [0], 0
        for i, ln in enumerate(lines):
            after = ln.raw[ln.tokens[-1].end_column - 1:] if ln.tokens else ln.raw
            ln.rest = after.strip(" \t")
            ln.rest_col = _columns(ln.raw[:len(ln.raw) - len(after.lstrip(" \t"))])
            ln.rest_gap = _columns(after[:len(after) - len(after.lstrip(" \t"))])
            if ln.rest.startswith("\\"):           # a line continuation: not a token
                ln.ends, ln.rest = False, "\\"
            ln.start = bool(ln.tokens) and (i == 0 or lines[i - 1].ends)
            if ln.start:
                width = ln.width if i else 0       # the first line's indentation is ignored
                if width > stack[-1]:
                    stack.append(width)
                while width < stack[-1]:
                    stack.pop()
                ln.level, owner = len(stack) - 1, i
                ln.indent = INDENT * ln.level
            ln.owner = owner
            ln.stack = tuple(stack)

    def _space_tokens(self):
        """The space before each token of a line: see _space."""
        brackets: list[str] = []
        prev = before_prev = None                   # the tokens before, on any line
        for ln in self.lines:
            for k, tok in enumerate(ln.tokens):
                if k == 0:
                    ln.spaces.append("")
                else:
                    ln.spaces.append(_space(before_prev, prev, tok, brackets[-1] if brackets else ""))
                if tok.type in _OPEN:
                    brackets.append(_OPEN[tok.type])
                elif tok.type in _CLOSE and brackets:
                    brackets.pop()
                before_prev, prev = prev, tok
            ln.code = "".join(s + str(t) for s, t in zip(ln.spaces, ln.tokens))

    # -- tables -------------------------------------------------------------------

    def _align_tables(self):
        for rows in self._tables():
            cells = [_cells(self.lines[i]) for i in rows]
            widths: list[int] = []
            for row in cells:
                for k, cell in enumerate(row):
                    if k == len(widths):
                        widths.append(0)
                    widths[k] = max(widths[k], _display_width(cell))
            for i, row in zip(rows, cells):
                ln = self.lines[i]
                padded = [c + " " * (w - _display_width(c)) for c, w in zip(row, widths)]
                ln.code = "| " + " | ".join(padded) + " |"
            # the rows' comments in one column: the first that each row's comment may take
            commented = [self.lines[i] for i in rows if self.lines[i].rest.startswith("#")]
            if commented:
                column = max(ln.rest_at() for ln in commented)
                for ln in commented:
                    ln.rest_fixed = column

    def _tables(self):
        """The rows of each table (statements starting with '|', in one block), when each
        row is on one line (a row on several lines leaves its table as it is)."""
        groups, rows, whole = [], [], True
        for i, ln in enumerate(self.lines):
            if not ln.tokens:
                continue
            if ln.start and ln.tokens[0].type == "VBAR" and (not rows or self.lines[rows[-1]].level == ln.level):
                rows.append(i)
                continue
            if not ln.start and rows and ln.owner == rows[-1]:
                whole = False
                continue
            if rows and whole:
                groups.append(rows)
            rows, whole = [], True
            if ln.start and ln.tokens[0].type == "VBAR":
                rows.append(i)
        if rows and whole:
            groups.append(rows)
        return groups

    # -- indentation --------------------------------------------------------------

    def _indent(self):
        lines = self.lines
        following = [None] * len(lines)            # the next line that starts a statement
        nxt = None
        for i in range(len(lines) - 1, -1, -1):
            following[i] = nxt
            if lines[i].start:
                nxt = i
        for i, ln in enumerate(lines):             # (a statement's first line: by its level)
            if not ln.start and (ln.tokens or i and not lines[i - 1].ends):
                ln.indent = self._continued(ln)
            elif not ln.start and ln.rest:
                ln.indent = self._comment_indent(i, following[i])
            ln.text = self._text(ln)

    def _continued(self, ln: _Line) -> int:
        """A line inside a statement moves with the statement's first line, and is not
        indented less than it; an indented line stays indented (an indented `when`
        continues the line before it, one at the margin does not)."""
        head = self.lines[ln.owner]
        moved = max(ln.columns + head.indent - head.columns, head.indent)
        return INDENT if moved == 0 and ln.columns > 0 else moved

    def _comment_indent(self, i: int, nxt) -> int:
        """A comment on a line of its own, between statements: under the comment of the
        line above if it was, else at the level of the innermost block it reaches (or of
        the block that opens on the next line)."""
        ln = self.lines[i]
        above = self.lines[i - 1] if i else None
        if above is not None and above.rest.startswith("#") and above.rest_col == ln.columns:
            return above.rest_at()
        stack = list(above.stack) if above is not None else [0]
        if nxt is not None and self.lines[nxt].width > stack[-1]:
            stack.append(self.lines[nxt].width)
        return INDENT * max(k for k, width in enumerate(stack) if width <= ln.width or k == 0)

    @staticmethod
    def _text(ln: _Line) -> str:
        if not ln.tokens:
            return " " * ln.indent + ln.rest if ln.rest else ""
        line = " " * ln.indent + ln.code
        if ln.rest == "\\":
            return line + " \\"
        if ln.rest:
            return line + " " * (ln.rest_at() - len(line)) + ln.rest
        return line

    def _join(self) -> str:
        out: list[str] = []
        blank = 0
        for i, ln in enumerate(self.lines):
            if not ln.text:
                blank += 1
                continue
            if blank and out:
                top = ln.indent == 0 and (ln.start or not ln.tokens and self.lines[i - 1].ends)
                out.extend([""] * min(blank, MAX_BLANK_TOP if top else MAX_BLANK_INSIDE))
            blank = 0
            out.append(ln.text.rstrip(" \t"))
        return "\n".join(out) + "\n" if out else ""


def _cells(ln: _Line) -> list[str]:
    """The text of each cell of a table row."""
    cells, cell = [], None
    for space, tok in zip(ln.spaces, ln.tokens):
        if tok.type == "VBAR":
            if cell is not None:
                cells.append(cell)
            cell = ""
        else:
            cell += (space if cell else "") + str(tok)
    return cells


def _space(before_prev, prev, tok, bracket: str) -> str:
    """The space between two tokens of a line (bracket: the innermost bracket open)."""
    if tok.type in _CLOSE or tok.type == "COMMA" or prev.type in _OPEN:
        return ""
    if prev.type == "COMMA":
        return " "
    if str(prev) in _TIGHT or str(tok) in _TIGHT:
        return ""
    if "COLON" in (prev.type, tok.type):
        return "" if tok.type == "COLON" or bracket == "[" else " "     # (in '[...]': a slice)
    if tok.type == "LSQB" and prev.type in _OPERAND_END or tok.type == "LPAR" and prev.type == "NAME":
        return ""                                   # an index, a call
    if str(prev) == "-" and (before_prev is None or before_prev.type not in _OPERAND_END):
        return ""                                   # a negative number, a negation
    return " "


# ------------------------------------------------------------------------ the text

def _normal(text: str) -> str:
    """Without a byte-order mark, every line ending '\\n', the last line ended."""
    text = text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    return text if text.endswith("\n") else text + "\n"


def format_text(text: str, filename: str = "<rules>") -> str:
    """The rules text formatted. Raises RulesError (a positioned diagnostic) when the text
    does not parse, FormatError if the result would not parse to the same syntax tree."""
    text = _normal(text)
    before = parse(text, filename)
    try:
        out = _Formatter(text).run()
    except Exception as e:  # noqa: BLE001 - a bug of the formatter: said, not a traceback
        raise FormatError(f"{type(e).__name__}: {e}") from e
    if out == text:
        return out
    try:
        after = parse(out, filename)
    except RulesError as e:
        raise FormatError(f"the formatted text does not parse: {e.diagnostics[0].message}") from None
    if after.dump() != before.dump():
        raise FormatError("the formatted text parses to another syntax tree")
    return out


# ------------------------------------------------------------------------ regola fmt

def register(sub) -> None:
    """Add `regola fmt` to the command's subparsers."""
    f = sub.add_parser("fmt", help="format rules files (indentation, spacing, aligned tables); --check for CI")
    f.add_argument("paths", nargs="+", metavar="PATH", help=".regola files, or directories searched for them")
    f.add_argument("--check", action="store_true",
                   help="change nothing: list the files that would change, exit 1 if there are any")
    f.add_argument("--diff", action="store_true", help="change nothing: print the changes as a unified diff")
    f.set_defaults(func=cmd_fmt)


def cmd_fmt(args) -> int:
    """Exit status 0: every file formatted (or, with --check, already formatted); 1: with
    --check, some file would change; 2: some file could not be read, parsed or written
    (it is left as it was)."""
    files, errors = rules_files(args.paths)
    changed = unchanged = 0
    for path in files:
        try:
            data = path.read_bytes()
        except OSError as e:
            errors.append(f"regola fmt: {path}: cannot read: {e.strerror}")
            continue
        try:
            text = decode(data)
            out = format_text(text, str(path))
        except TextError as e:
            errors.append(_one_line(e.diagnostic(str(path))))
            continue
        except RulesError as e:
            errors.append(_one_line(e.diagnostics[0]))
            continue
        except FormatError as e:
            errors.append(f"regola fmt: {path}: left as it was: {e} (a bug of regola fmt)")
            continue
        if out.encode("utf-8") == data:
            unchanged += 1
            continue
        changed += 1
        if args.diff:
            sys.stdout.write(safe("".join(difflib.unified_diff(
                text.splitlines(keepends=True), out.splitlines(keepends=True),
                f"{path} (as it is)", f"{path} (formatted)"))))
        if args.check:
            if not args.diff:
                print(safe_line(str(path)))
        elif not args.diff:
            try:
                _write(path, out)
            except OSError as e:
                errors.append(f"regola fmt: {path}: cannot write: {e.strerror}; left as it was")
                changed -= 1
                continue
            print(safe_line(f"formatted {path}"))
    for message in errors:
        print(safe(message), file=sys.stderr)
    if not args.check and not args.diff:
        print(f"{changed} file{'s' if changed != 1 else ''} formatted, {unchanged} already formatted"
              + (f", {len(errors)} not" if errors else ""))
    if errors:
        return 2
    return 1 if args.check and changed else 0


def rules_files(paths) -> tuple[list[Path], list[str]]:
    """The files named and the *.regola files below the directories named (directories whose
    name starts with '.' left out), each once, in order; and a message for each path that
    is neither."""
    files, errors = [], []
    for spec in paths:
        p = Path(spec)
        if p.is_dir():
            found = []
            for root, dirs, names in os.walk(p, onerror=lambda e: errors.append(
                    f"regola fmt: {e.filename}: cannot read the directory: {e.strerror}")):
                dirs[:] = sorted(d for d in dirs if not d.startswith("."))
                found += [Path(root) / n for n in names if n.endswith(".regola")]
            if not found:
                errors.append(f"regola fmt: {spec}: no .regola files in this directory")
            files += sorted(found)
        elif p.exists():
            files.append(p)
        else:
            errors.append(f"regola fmt: {spec}: no such file or directory")
    return list(dict.fromkeys(files)), errors


def _one_line(d) -> str:
    """A diagnostic's first line: file:line:col: error[code]: message."""
    return render(replace(d, hint=None, notes=[]))


def _write(path: Path, text: str) -> None:
    """Replace the file's text at once (a new file renamed over it, with its permissions):
    a failure leaves the file as it was."""
    target = path.resolve()
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
        os.chmod(tmp, target.stat().st_mode & 0o7777)
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
