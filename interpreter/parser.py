"""Rules text -> AST (`Program`), or a diagnostic in plain words.

The lark parser is built once per process (LALR, with lark's grammar cache) and the
transformer is derived from the AST classes (see `ast_rules.build_rule_table`).
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from lark import Lark, Token, Transformer
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, VisitError
from lark.indenter import DedentError, Indenter

from . import ast
from .ast_rules import build_rule_table
from .diagnostics import Diagnostic, RulesError, SourceMap
from .grammar_cache import cache_file
from .resources import grammar_path
from .rules_text import RulesText, TextError, check_characters, check_nesting, int_value, string_value


# A line ending in one of these continues on the next line (no parentheses needed).
_CONTINUES = {",", "and", "or", "not", "in", "where", "+", "-", "*", "/", "%", "=", "==", "!=",
              "<", "<=", ">", ">=", "->", "+=", "-=", "if", "else"}


# A line starting with one of these continues the line before.
_LEADS_RE = re.compile(r"(?:and|or|where|else(?!\s*:))\b|[-+*/%<>]|==|!=")
# `when` declarations start at the margin; an indented `when` continues a modifier
_INDENTED_WHEN_RE = re.compile(r"[ \t]+when\b")


def _indent_of(nl_token) -> int:
    """The width of the indentation the line-break token ends with."""
    text = str(nl_token)
    return len(text) - len(text.rstrip(" \t"))


class _RegolaIndenter(Indenter):
    """Python-style blocks, plus continuation lines after a trailing operator or comma."""

    def process(self, stream):
        return super().process(self._join_continuations(stream))

    text = ""                     # the text being parsed (set by parse(); not re-entrant)

    def _join_continuations(self, stream):
        """Drop the line break after a trailing operator or comma, and before a line that starts
        with one (`and`, `or`, `+`, `where`, `else x` but not `else:`). The next line is read
        from the text: lexing ahead would confuse lark's contextual lexer."""
        prev = None
        for tok in stream:
            if tok.type == "_NL" and prev is not None:
                if prev.type not in ("NAME", "STRING", "INT") and prev.value in _CONTINUES:
                    continue
                if tok.end_pos is not None and _LEADS_RE.match(self.text, tok.end_pos):
                    continue
                if tok.end_pos is not None and _INDENTED_WHEN_RE.match(self.text, tok.end_pos - _indent_of(tok)):
                    continue
            yield tok
            prev = tok

    NL_type = "_NL"
    OPEN_PAREN_types = ["LPAR", "LSQB", "LBRACE"]
    CLOSE_PAREN_types = ["RPAR", "RSQB", "RBRACE"]
    INDENT_type = "_INDENT"
    DEDENT_type = "_DEDENT"
    tab_len = 4


@lru_cache(maxsize=1)
def _lark() -> Lark:
    path = grammar_path()
    with open(path, encoding="utf-8") as f:
        text = f.read()
    import lark
    cache = cache_file(text, lark.__version__) or False       # never lark's shared /tmp file
    return Lark(text, parser="lalr", postlex=_RegolaIndenter(), propagate_positions=True,
                maybe_placeholders=True, cache=cache, start="start")


class _Builder(Transformer):
    """Builds AST nodes from the rule table derived from the node classes."""

    def __init__(self, filename: str):
        super().__init__(visit_tokens=True)
        self.filename = filename
        self.table = _rule_table()

    # tokens ------------------------------------------------------------
    def INT(self, tok):
        return int_value(tok)

    def STRING(self, tok):
        return string_value(tok)

    def NAME(self, tok):
        return tok          # a str; keeps its position for spans of names

    def __default__(self, data, children, meta):
        rule = data.value if isinstance(data, Token) else data
        if rule.endswith("_list"):
            return list(children)
        spec = self.table.get(rule)
        if spec is None:
            raise KeyError(f"no AST class for grammar rule {rule!r}")
        cls, fields, fixed, collect = spec
        if cls is None:                    # pass-through rules: block, else_block
            if collect:
                return list(children)
            return children[0]
        values: dict[str, Any] = dict(fixed)
        if collect:
            values[fields[0]] = list(children)
        else:
            if len(children) != len(fields):
                raise ValueError(f"rule {rule}: {len(children)} children for fields {fields}")
            for name, child in zip(fields, children):
                if child is None:
                    continue             # keep the field's default
                values[name] = child
        for name, child in list(values.items()):
            if isinstance(child, Token):
                values[name] = str(child)
        values["span"] = self._span(meta, children)
        return cls(**values)

    def _span(self, meta, children) -> ast.Span:
        if not getattr(meta, "empty", True):
            return ast.Span(file=self.filename, line=meta.line, col=meta.column,
                            end_line=meta.end_line, end_col=meta.end_column)
        for c in children:
            if isinstance(c, ast.Node):
                return c.span
        return ast.Span(file=self.filename, line=1, col=1, end_line=1, end_col=1)


@lru_cache(maxsize=1)
def _rule_table():
    return build_rule_table()


# Plain words for the terminals lark reports as expected.
_TERMINAL_WORDS = {
    "NAME": "a name", "INT": "a number", "STRING": "a string", "_NL": "end of line",
    "_INDENT": "an indented block", "_DEDENT": "end of the block", "$END": "end of file",
    "LPAR": "'('", "RPAR": "')'", "LSQB": "'['", "RSQB": "']'", "LBRACE": "'{'",
    "RBRACE": "'}'", "COLON": "':'", "COMMA": "','", "DOT": "'.'", "EQUAL": "'='",
    "VBAR": "'|'", "PLUS": "'+'", "MINUS": "'-'", "STAR": "'*'", "SLASH": "'/'",
    "PERCENT": "'%'", "MORETHAN": "'>'", "LESSTHAN": "'<'",
}


def _word(term: str, parser: Lark) -> str:
    if term in _TERMINAL_WORDS:
        return _TERMINAL_WORDS[term]
    try:
        pattern = parser.get_terminal(term).pattern
        if pattern.type == "str":
            return f"'{pattern.value}'"
    except KeyError:
        pass
    return term.lower()


_EXPR_START = {"NAME", "INT", "STRING", "LPAR", "LSQB", "LBRACE", "MINUS", "TRUE", "FALSE",
               "NONE", "ME", "NOT"}
_OPERATORS = {"PLUS", "MINUS", "STAR", "SLASH", "PERCENT", "LESSTHAN", "MORETHAN", "IN", "NOT",
              "AND", "OR", "IF", "DOT", "LSQB", "LPAR"}


def _literal(term: str, parser: Lark):
    try:
        return parser.get_terminal(term).pattern.value
    except KeyError:
        return None


def _expected_words(expected, parser: Lark) -> str:
    expected = set(expected)
    words = []
    if {"NAME", "INT"} <= expected:
        words.append("an expression")
        expected -= _EXPR_START
    ops = {t for t in expected if t in _OPERATORS or _literal(t, parser) in ("==", "!=", "<=", ">=")}
    if len(ops) >= 4:
        words.append("an operator")
        expected -= ops
    words += sorted({_word(t, parser) for t in expected})
    if len(words) > 8:
        words = words[:8] + ["..."]
    if len(words) > 1 and words[-1] != "...":
        return ", ".join(words[:-1]) + " or " + words[-1]
    return ", ".join(words)


def _token_words(tok) -> str:
    if tok is None:
        return "end of file"
    if tok.type == "_NL":
        return "end of line"
    if tok.type == "_INDENT":
        return "indentation"
    if tok.type == "_DEDENT":
        return "end of the block"
    if tok.type == "$END":
        return "end of file"
    return f"'{tok}'"


def _hint(exc, expected: set[str]) -> str | None:
    tok = getattr(exc, "token", None)
    if tok is not None and tok.type == "_INDENT":
        return "this line is indented more than the line before it"
    if "_INDENT" in expected:
        return "a line ending in ':' must be followed by an indented block"
    if tok is not None and tok.type == "EQUAL" and "EQUAL" not in expected:
        return "to compare two values, write '=='"
    if tok is not None and tok.type == "_NL" and "COLON" in expected:
        return "a declaration or block header ends with ':'"
    if tok is not None and tok.type in ("_NL", "_DEDENT") and {"NAME", "INT"} <= expected:
        return "the line ends where an expression should follow"
    return None


def parse(text: str, filename: str = "<rules>", sources: SourceMap | None = None) -> ast.Program:
    """Parse one file. Raises RulesError with a single diagnostic on a syntax error."""
    if sources is not None:
        sources.add(filename, RulesText(text))
    if not text.endswith("\n"):
        text += "\n"
    try:
        check_characters(text)
    except TextError as e:
        raise RulesError([e.diagnostic(filename)], sources) from None
    parser = _lark()
    parser.options.postlex.text = text
    try:
        tree = parser.parse(text)
        check_nesting(tree)
    except TextError as e:
        raise RulesError([e.diagnostic(filename)], sources) from None
    except UnexpectedInput as exc:
        raise RulesError([_syntax_diagnostic(exc, text, filename, parser)], sources) from None
    except DedentError as exc:
        line = _dedent_line(text, str(exc))
        src_line = text.splitlines()[line - 1] if 0 < line <= len(text.splitlines()) else ""
        col = len(src_line) - len(src_line.lstrip()) + 1
        raise RulesError([Diagnostic("E001", ast.Span(file=filename, line=line, col=col, end_line=line, end_col=col),
                                     "this line's indentation matches no enclosing block",
                                     "indent it like the block it belongs to")], sources) from None
    try:
        return _Builder(filename).transform(tree)
    except VisitError as exc:
        if isinstance(exc.orig_exc, TextError):
            raise RulesError([exc.orig_exc.diagnostic(filename)], sources) from None
        raise exc.orig_exc from None


def _dedent_line(text: str, message: str) -> int:
    # lark reports the bad indentation width, not the line; find the first line with it
    import re
    m = re.search(r"Unexpected dedent to column (\d+)", message)
    if m:
        col = int(m.group(1))
        stack = [0]
        for i, line in enumerate(text.splitlines(), 1):
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            ind = len(line) - len(line.lstrip())
            if ind > stack[-1]:
                stack.append(ind)
            while ind < stack[-1]:
                stack.pop()
            if ind == col and ind != stack[-1]:
                return i
            if ind != stack[-1]:
                return i
    return 1


def _unclosed_bracket(text: str, upto):
    """(line, col, char) of the innermost bracket still open at position upto, if any."""
    if upto is None:
        return None
    stack = []
    line, col, i = 1, 1, 0
    in_str = False
    while i < min(upto, len(text)):
        ch = text[i]
        if in_str:
            if ch == "\\":
                i += 1
                col += 1
            elif ch == '"' or ch == "\n":
                in_str = False
        elif ch == '"':
            in_str = True
        elif ch == "#":
            while i < len(text) and text[i] != "\n":
                i += 1
            continue
        elif ch in "([{":
            stack.append((line, col, ch))
        elif ch in ")]}" and stack:
            stack.pop()
        if ch == "\n":
            line, col = line + 1, 1
        else:
            col += 1
        i += 1
    return stack[-1] if stack else None


def _previous_code_line(text: str, line: int):
    lines = text.splitlines()
    for n in range(line - 1, 0, -1):
        code = lines[n - 1].split("#", 1)[0]
        if code.strip():
            return n, code
    return None


def _syntax_diagnostic(exc, text: str, filename: str, parser: Lark) -> Diagnostic:
    line = getattr(exc, "line", None)
    col = getattr(exc, "column", None)
    tok = getattr(exc, "token", None)
    if isinstance(exc, UnexpectedEOF) or line is None or line < 0:
        lines = text.splitlines() or [""]
        line, col = len(lines), len(lines[-1]) + 1
    if tok is not None and tok.type in ("_NL", "_DEDENT", "_INDENT", "$END"):
        # point at the end of the line where something was missing
        prev = text[: tok.start_pos] if getattr(tok, "start_pos", None) is not None else ""
        if tok.type == "_INDENT":
            line = getattr(tok, "end_line", None) or line
            src = text.splitlines()[line - 1] if line - 1 < len(text.splitlines()) else ""
            col = len(src) - len(src.lstrip()) + 1
        elif prev:
            stripped = prev.rstrip("\n\r\t ")
            line = stripped.count("\n") + 1
            last = stripped.rsplit("\n", 1)[-1]
            code = last.split("#", 1)[0].rstrip()
            col = len(code) + 1
    expected = set(getattr(exc, "expected", None) or getattr(exc, "allowed", None) or [])
    ip = getattr(exc, "interactive_parser", None)
    if ip is not None:
        try:                      # the exact set (LALR merges lookaheads of similar states)
            expected = set(ip.accepts()) or expected
        except Exception:
            pass
    if isinstance(exc, UnexpectedCharacters):
        ch = text[exc.pos_in_stream] if exc.pos_in_stream < len(text) else "?"
        msg = f"unexpected character {ch!r}"
        hint = None
        if ch == "\t":
            hint = "use spaces for indentation"
        elif expected:
            hint = f"expected {_expected_words(expected, parser)}"
    else:
        msg = f"unexpected {_token_words(tok)}"
        if expected and not (tok is not None and tok.type == "_INDENT"):
            msg += f"; expected {_expected_words(expected, parser)}"
        hint = _hint(exc, expected)
    opened = _unclosed_bracket(text, getattr(tok, "start_pos", None) if tok is not None else None)
    if opened is not None and opened[0] < line:
        hint = f"the '{opened[2]}' opened on line {opened[0]}, column {opened[1]} is not closed"
    elif tok is not None and tok.type not in ("_NL", "_DEDENT", "_INDENT", "$END") and tok.line:
        prev = _previous_code_line(text, tok.line)
        if prev is not None and prev[1].rstrip().split()[-1:] and prev[1].rstrip().split()[-1] in _CONTINUES \
                and prev[0] < tok.line:
            last = prev[1].rstrip().split()[-1]
            hint = (f"line {prev[0]} ends with '{last}', so it continues on line {tok.line}; "
                    f"is something missing after '{last}'?")
    span = ast.Span(file=filename, line=line, col=max(col or 1, 1), end_line=line, end_col=max(col or 1, 1))
    return Diagnostic("E001", span, msg, hint)
