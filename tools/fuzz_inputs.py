"""What the fuzzer (tools/fuzz.py) throws at the engine: rules files, broken on purpose.

Every input is built from a `random.Random`: the local runner seeds one per case, and
tests/test_fuzz.py lets Hypothesis drive one (`st.randoms()`), so the same generators serve
both. Three families:

* **mutation**: one file of a copied bundled game, changed one to four times: bytes inserted
  (NUL, 0xff, controls, quotes, backslashes, brackets, indentation), bytes deleted or the
  file cut short; tokens (a simple regex: names, numbers, strings, operators, line breaks)
  swapped, duplicated, deleted, an operator or keyword changed, a number made huge, 0 or -1,
  a name replaced by another name of the file; lines duplicated, deleted, moved, indented
  differently; a declaration or statement derived from the grammar spliced in, written with
  the file's own names (so it gets past the parser and exercises the checker and compiler).
* **soup**: a one-file game of random lines of the language's keywords, operators, names,
  numbers and strings.
* **grammar**: a one-file game whose declarations are derived at random from
  grammar/regola.lark: always parseable (bar the rare continuation-line surprise), rarely
  well-typed, so most of them test the checker.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from regola.resources import rules_dir

# ------------------------------------------------------------------ tokens

TOKEN_RE = re.compile(r'''
    (?P<str>"(?:[^"\\\n]|\\.)*")
  | (?P<comment>\#[^\n]*)
  | (?P<name>[A-Za-z_][A-Za-z0-9_]*)
  | (?P<num>[0-9]+)
  | (?P<nl>\n[ \t]*)
  | (?P<ws>[ \t]+)
  | (?P<op>->|\.\.|\+=|-=|==|!=|<=|>=|.)
''', re.X | re.S)


def tokenize(text: str) -> list[tuple[str, str]]:
    """(kind, text) pairs whose texts joined give `text` back exactly."""
    return [(m.lastgroup, m.group()) for m in TOKEN_RE.finditer(text)]


@lru_cache(maxsize=1)
def grammar_words() -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(keywords, operators) of the language, read from the grammar's quoted literals."""
    from regola.parser import _lark
    kw, ops = set(), set()
    for t in _lark().terminals:
        if t.pattern.type == "str":
            (kw if t.pattern.value.isidentifier() else ops).add(t.pattern.value)
    return tuple(sorted(kw)), tuple(sorted(ops))


# bytes a hostile or damaged file may hold
_NASTY = [b"\x00", b"\xff", b"\xfe", b"\x01", b"\x1b", b"\x7f", b"\r", b"\r\n", b"\t", b"\x0b", b"\x0c",
          b'"', b"\\", b"\\\n", b"(", b")", b"[", b"]", b"{", b"}", b":", b",", b"|", b"#", b"=", b"-",
          b"\n", b"\n    ", b"    ", b" ", b"\n\n", b"\xc3\xa9", b"\xe2\x80\xae", b"\xe2\x80\xa8",
          b"\xef\xbb\xbf", b"\xc2\x85", b"\xc3", b"\xed\xa0\x80", b"'", b".", b"..", b"->", b"0", b"9" * 20]

_NUMBERS = ["0", "1", "-1", "2", "3", "-5", "100", "1000", "99999", "1000000", "999999999999999",
            "1000000000000000", "2147483648", "123456789012345678901234567890"]


def _weighted(rng: random.Random, table):
    total = sum(w for w, _ in table)
    x = rng.random() * total
    for w, v in table:
        x -= w
        if x < 0:
            return v
    return table[-1][1]


# ------------------------------------------------------------------ text mutations


def _meaningful(toks) -> list[int]:
    return [i for i, (k, _) in enumerate(toks) if k not in ("ws", "comment")]


def _names_of(toks) -> list[str]:
    keywords = set(grammar_words()[0])
    return sorted({t for k, t in toks if k == "name" and t not in keywords}) or ["x"]


def m_insert_bytes(rng, data: bytes) -> tuple[bytes, str]:
    pos = rng.randrange(len(data) + 1)
    if rng.random() < 0.7:
        ins = b"".join(rng.choice(_NASTY) for _ in range(rng.randint(1, 3)))
    else:
        ins = bytes(rng.randrange(256) for _ in range(rng.randint(1, 8)))
    return data[:pos] + ins + data[pos:], f"insert {ins!r} at byte {pos}"


def m_delete_bytes(rng, data: bytes) -> tuple[bytes, str]:
    if not data:
        return data, "delete nothing"
    pos = rng.randrange(len(data))
    n = rng.choice([1, 1, 2, 3, rng.randint(1, 80)])
    return data[:pos] + data[pos + n:], f"delete {n} bytes at {pos}"


def m_truncate(rng, data: bytes) -> tuple[bytes, str]:
    pos = rng.randrange(len(data) + 1)
    return data[:pos], f"cut at byte {pos}"


def m_swap_tokens(rng, text: str) -> tuple[str, str]:
    toks = tokenize(text)
    idx = _meaningful(toks)
    if len(idx) < 2:
        return text, "swap nothing"
    a = rng.choice(idx)
    near = [i for i in idx if 0 < abs(i - a) <= 4]
    b = rng.choice(near) if near and rng.random() < 0.7 else rng.choice(idx)
    toks[a], toks[b] = toks[b], toks[a]
    return "".join(t for _, t in toks), f"swap tokens {a} and {b}"


def m_duplicate_tokens(rng, text: str) -> tuple[str, str]:
    toks = tokenize(text)
    idx = _meaningful(toks)
    if not idx:
        return text, "duplicate nothing"
    a = rng.choice(idx)
    n = rng.choice([1, 1, 2, 3, 6])
    run = toks[a:a + n]
    toks[a:a] = run + ([("ws", " ")] if rng.random() < 0.5 else [])
    return "".join(t for _, t in toks), f"duplicate {n} tokens at {a}"


def m_delete_tokens(rng, text: str) -> tuple[str, str]:
    toks = tokenize(text)
    idx = _meaningful(toks)
    if not idx:
        return text, "delete nothing"
    a = rng.choice(idx)
    n = rng.choice([1, 1, 1, 2, 4])
    del toks[a:a + n]
    return "".join(t for _, t in toks), f"delete {n} tokens at {a}"


def m_number(rng, text: str) -> tuple[str, str]:
    toks = tokenize(text)
    idx = [i for i, (k, _) in enumerate(toks) if k == "num"]
    if not idx:
        return text, "no number"
    a = rng.choice(idx)
    old = toks[a][1]
    new = rng.choice(_NUMBERS + [str(int(old) + 1), str(max(int(old) - 1, 0)), str(int(old) * 10)])
    toks[a] = ("num", new)
    return "".join(t for _, t in toks), f"number {old} -> {new} (token {a})"


def m_name(rng, text: str) -> tuple[str, str]:
    toks = tokenize(text)
    idx = [i for i, (k, _) in enumerate(toks) if k == "name"]
    if not idx:
        return text, "no name"
    a = rng.choice(idx)
    old = toks[a][1]
    pool = _names_of(toks) if rng.random() < 0.85 else list(grammar_words()[0])
    new = rng.choice(pool)
    toks[a] = ("name", new)
    return "".join(t for _, t in toks), f"name {old} -> {new} (token {a})"


def m_operator(rng, text: str) -> tuple[str, str]:
    toks = tokenize(text)
    idx = [i for i, (k, _) in enumerate(toks) if k == "op"]
    if not idx:
        return text, "no operator"
    a = rng.choice(idx)
    old = toks[a][1]
    new = rng.choice(grammar_words()[1])
    toks[a] = ("op", new)
    return "".join(t for _, t in toks), f"operator {old} -> {new} (token {a})"


_OP_CLASSES = [["==", "!=", "<", "<=", ">", ">="], ["+", "-", "*", "/", "%"], ["and", "or"], ["+=", "-=", "="],
               ["min", "max"], ["count", "sum"], ["true", "false"], ["any", "all"], ["before", "after"]]


def m_kindred(rng, text: str) -> tuple[str, str]:
    """An operator or word for one of its kind (`<` for `>=`, `or` for `and`, `max` for `min`):
    the file mostly still checks, and then runs differently."""
    toks = tokenize(text)
    kin = {w: c for c in _OP_CLASSES for w in c}
    idx = [i for i, (k, t) in enumerate(toks) if t in kin and k in ("op", "name")]
    if not idx:
        return text, "no operator"
    a = rng.choice(idx)
    old = toks[a][1]
    new = rng.choice([w for w in kin[old] if w != old])
    toks[a] = (toks[a][0], new)
    return "".join(t for _, t in toks), f"{old} -> {new} (token {a})"


def m_negate(rng, text: str) -> tuple[str, str]:
    """`not` after an if, elif, while, require or where."""
    toks = tokenize(text)
    idx = [i for i, (k, t) in enumerate(toks) if k == "name" and t in ("if", "elif", "while", "require", "where")]
    if not idx:
        return text, "no condition"
    a = rng.choice(idx)
    toks[a + 1:a + 1] = [("ws", " "), ("name", "not")]
    return "".join(t for _, t in toks), f"negate the condition after token {a}"


def m_insert_word(rng, text: str) -> tuple[str, str]:
    toks = tokenize(text)
    idx = _meaningful(toks)
    if not idx:
        return text, "no place"
    a = rng.choice(idx)
    kw, ops = grammar_words()
    word = rng.choice(kw + ops)
    toks[a:a] = [("op", word), ("ws", " ")]
    return "".join(t for _, t in toks), f"insert {word!r} before token {a}"


def _lines(text: str) -> list[str]:
    return text.split("\n")


def m_line(rng, text: str) -> tuple[str, str]:
    lines = _lines(text)
    i = rng.randrange(len(lines))
    what = rng.choice(["duplicate", "delete", "move", "indent", "dedent", "tab", "odd", "flush"])
    line = lines[i]
    if what == "duplicate":
        lines.insert(i, line)
    elif what == "delete":
        del lines[i]
    elif what == "move":
        del lines[i]
        lines.insert(rng.randrange(len(lines) + 1), line)
    elif what == "indent":
        lines[i] = "    " + line
    elif what == "dedent":
        lines[i] = line[4:] if line.startswith("    ") else line.lstrip()
    elif what == "tab":
        lines[i] = "\t" + line.lstrip(" ")
    elif what == "odd":
        lines[i] = " " * rng.randint(1, 3) + line
    else:
        lines[i] = line.lstrip()
    return "\n".join(lines), f"{what} line {i + 1}"


def m_splice(rng, text: str) -> tuple[str, str]:
    """A declaration derived from the grammar, at the margin; or a statement, inside a block
    (after an indented line, at its indentation), written with the file's own names."""
    toks = tokenize(text)
    names = _names_of(toks)
    lines = _lines(text)
    g = grammar()
    if rng.random() < 0.4:
        margins = [i for i, x in enumerate(lines) if x and not x[0].isspace()] or [0]
        i = rng.choice(margins)
        new = g.text(rng, "_decl", names, budget=rng.choice([15, 30, 60]))
        lines[i:i] = new.rstrip("\n").split("\n")
        return "\n".join(lines), f"splice a declaration before line {i + 1}"
    inner = [i for i, x in enumerate(lines) if x.startswith(" ") and x.strip() and not x.strip().startswith(("|", "#"))]
    if not inner:
        return text, "no block"
    i = rng.choice(inner)
    indent = lines[i][:len(lines[i]) - len(lines[i].lstrip())]
    if lines[i].rstrip().endswith(":"):
        return text, "no statement place"
    new = g.text(rng, "_stmt", names, budget=rng.choice([10, 20, 40]))
    lines[i + 1:i + 1] = [indent + x for x in new.rstrip("\n").split("\n")]
    return "\n".join(lines), f"splice a statement after line {i + 1}"


TEXT_MUTATIONS = [(3, m_swap_tokens), (2, m_duplicate_tokens), (3, m_delete_tokens), (5, m_number),
                  (6, m_name), (3, m_operator), (4, m_kindred), (2, m_negate), (2, m_insert_word), (4, m_line),
                  (5, m_splice)]
BYTE_MUTATIONS = [(4, m_insert_bytes), (2, m_delete_bytes), (1, m_truncate)]


# changes that mostly leave a file well-formed and well-typed, so that it checks clean and
# runs differently (the 'semantic' kind of case): numbers, kindred operators, negated
# conditions, statements deleted or duplicated, names of the file
SEMANTIC_MUTATIONS = [(5, m_number), (5, m_kindred), (2, m_negate), (3, m_line), (2, m_name)]


def mutate(rng: random.Random, data: bytes, semantic: bool = False) -> tuple[bytes, list[str]]:
    """One to four mutations of a file's bytes (two to six semantic ones); the list says what
    was done."""
    ops = []
    if semantic:
        text = data.decode("utf-8", errors="surrogateescape")
        for _ in range(rng.randint(2, 6)):
            text, what = _weighted(rng, SEMANTIC_MUTATIONS)(rng, text)
            ops.append(what)
        return text.encode("utf-8", errors="surrogateescape"), ops
    for _ in range(_weighted(rng, [(6, 1), (3, 2), (1, 3), (1, 4)])):
        if rng.random() < 0.25:
            data, what = _weighted(rng, BYTE_MUTATIONS)(rng, data)
        else:
            text = data.decode("utf-8", errors="surrogateescape")
            text, what = _weighted(rng, TEXT_MUTATIONS)(rng, text)
            data = text.encode("utf-8", errors="surrogateescape")
        ops.append(what)
    return data, ops


# ------------------------------------------------------------------ typed swaps


@lru_cache(maxsize=64)
def _typed_expressions(game: str, name: str) -> tuple[tuple[int, int, str, str], ...]:
    """(start, end, type, text) of the one-line expressions of file `name` of a bundled game,
    typed by the checker (in a configuration that reads the file: its module chosen)."""
    from regola import ast
    from regola.loader import check_rules
    files = dict(_game_files(game))
    path = rules_dir() / game
    try:
        res = check_rules(str(path), modules=_modules_for(files, name))
    except Exception:  # noqa: BLE001 - a configuration that cannot be chosen: no swaps there
        return ()
    text = files[name].decode("utf-8")
    starts = [0]
    for line in text.split("\n"):
        starts.append(starts[-1] + len(line) + 1)
    out = []
    target = str(path / name)
    for decl in _all_decls(res.source):
        for node in decl.walk():
            sp = node.span
            t = res.program.types.get(id(node))
            if not isinstance(node, ast.Expr) or t is None or sp.file != target or sp.line != sp.end_line \
                    or sp.line < 1 or sp.line > len(starts) - 1:
                continue
            a, b = starts[sp.line - 1] + sp.col - 1, starts[sp.line - 1] + sp.end_col - 1
            if 0 <= a < b <= len(text):
                out.append((a, b, str(t), text[a:b]))
    return tuple(out)


def _all_decls(src):
    yield from src.base.decls
    for m in src.modules.values():
        yield from m.program.decls


def typed_swap(rng: random.Random, game: str, name: str, data: bytes) -> tuple[bytes, list[str]]:
    """One to three expressions of the file replaced by other expressions of the same type
    from it (`count(me.hand)` for `me.florins`, `river` for `street`): the file mostly still
    checks, and the compiler and the runtime meet combinations no game has."""
    exprs = _typed_expressions(game, name)
    by_type: dict[str, list] = {}
    for e in exprs:
        by_type.setdefault(e[2], []).append(e)
    pool = [e for e in exprs if len({x[3] for x in by_type[e[2]]}) > 1]
    if not pool:
        return data, ["no expressions to swap"]
    text = data.decode("utf-8")
    ops, done = [], []
    for _ in range(rng.randint(1, 3)):
        a, b, t, old = rng.choice(pool)
        if any(a < y and x < b for x, y, _ in done):
            continue
        new = rng.choice([x[3] for x in by_type[t] if x[3] != old])
        done.append((a, b, new))
        ops.append(f"{old} -> {new} ({t}, byte {a})")
    for a, b, new in sorted(done, reverse=True):
        text = text[:a] + new + text[b:]
    return text.encode("utf-8"), ops


# ------------------------------------------------------------------ random programs

_DEFAULT_NAMES = ["a", "b", "x", "n", "p", "c", "Card", "Color", "red", "blue", "board", "hand", "deck",
                  "coins", "score", "count", "sum", "min", "max", "range", "players", "cells", "copies",
                  "slots", "player", "cell", "values", "adjacent", "turn", "take", "Tile", "value", "current"]

_HEAD = "game fuzz:\n    players {lo}..{hi}\n\n"


class Grammar:
    """Random derivations of the grammar's rules, bounded by a budget of terminals."""

    def __init__(self):
        from regola.parser import _lark
        lk = _lark()
        self.rules: dict[str, list[list]] = {}
        for r in lk.rules:
            self.rules.setdefault(r.origin.name, []).append(list(r.expansion))
        self.literal = {t.name: t.pattern.value for t in lk.terminals if t.pattern.type == "str"}
        self.size = self._sizes()

    def _sizes(self) -> dict[str, int]:
        """Fewest terminals a derivation of each rule can have."""
        h: dict[str, int] = {}
        changed = True
        while changed:
            changed = False
            for name, exps in self.rules.items():
                best = min((sum(1 if s.is_term else h.get(s.name, 10 ** 6) for s in e) for e in exps),
                           default=10 ** 6)
                if best < h.get(name, 10 ** 6):
                    h[name] = best
                    changed = True
        return h

    def _cost(self, e) -> int:
        return sum(1 if s.is_term else self.size.get(s.name, 10 ** 6) for s in e)

    def derive(self, rng, symbol: str, names, budget: int) -> list[tuple[str, str]]:
        out: list[tuple[str, str]] = []
        self._derive(rng, symbol, names, out, budget, 0)
        return out

    def _derive(self, rng, symbol, names, out, budget, depth):
        exps = self.rules[symbol]
        low = min(self._cost(e) for e in exps)
        if len(out) >= budget or depth > 40:
            exps = [e for e in exps if self._cost(e) == low]
        elif rng.random() < 0.6:             # mostly short: chains of operators stay readable
            exps = [e for e in exps if self._cost(e) <= low + 1]
        for s in rng.choice(exps):
            if s.is_term:
                out.append((s.name, self._terminal(rng, s.name, names)))
            else:
                self._derive(rng, s.name, names, out, budget, depth + 1)

    def _terminal(self, rng, name, names) -> str:
        if name in self.literal:
            return self.literal[name]
        if name == "NAME":
            return rng.choice(names)
        if name == "INT":
            return rng.choice(["0", "1", "2", "3", "4", "6", "10", "1", "2", rng.choice(_NUMBERS).lstrip("-")])
        if name == "STRING":
            return rng.choice(['"x"', '""', '"a b"', '"\\n"', '"\\"q\\""'])
        return name                       # _NL, _INDENT, _DEDENT: laid out by text()

    def text(self, rng, symbol: str, names=None, budget: int = 40) -> str:
        """A derivation of `symbol` laid out as rules text (four spaces a level)."""
        return self.layout(self.derive(rng, symbol, names or _DEFAULT_NAMES, budget))

    @staticmethod
    def layout(tokens) -> str:
        out, level, at_start = [], 0, True
        for kind, value in tokens:
            if kind == "_NL":
                out.append("\n")
                at_start = True
            elif kind == "_INDENT":
                level += 1
            elif kind == "_DEDENT":
                level = max(level - 1, 0)
            else:
                out.append("    " * level if at_start else " ")
                out.append(value)
                at_start = False
        if not at_start:
            out.append("\n")
        return "".join(out)


@lru_cache(maxsize=1)
def grammar() -> Grammar:
    return Grammar()


# declarations a random program is made of (a game, a module or a part of one would only
# be refused as such); each declares a fresh name, so that most get past the first passes
_DECLS = ["const_decl", "enum_decl", "record_decl", "components_decl", "grid_decl", "global_decl",
          "player_decl", "def_decl", "procedure_decl", "action_decl", "on_decl", "when_decl",
          "actions_decl", "payment_decl", "event_decl", "hook_decl", "modifier_decl", "assert_decl",
          "extend_decl", "extend_enum", "extend_record", "extend_actions", "on_end_decl"]


def grammar_program(rng: random.Random) -> tuple[bytes, list[str]]:
    g = grammar()
    fresh = [f"{c}{i}" for i in range(1, 4) for c in "ABCDEFGH"]
    names = rng.sample(fresh[:12], rng.randint(2, 8)) + rng.sample(_DEFAULT_NAMES, rng.randint(2, 8))
    decls = []
    kinds = [rng.choice(_DECLS) for _ in range(rng.randint(1, 8))] + ["setup_decl"] * (rng.random() < 0.3)
    for kind in kinds + ["flow_decl", "score_decl"]:
        toks = g.derive(rng, kind, names, budget=rng.choice([10, 25, 50, 100]))
        first = next((i for i, (k, _) in enumerate(toks) if k == "NAME"), None)
        if first is not None and kind not in ("on_decl", "modifier_decl", "when_decl", "extend_decl",
                                              "extend_enum", "extend_record", "extend_actions", "assert_decl"):
            toks[first] = ("NAME", fresh.pop(0))
        decls.append(g.layout(toks))
    lo = rng.randint(1, 3)
    return (_HEAD.format(lo=lo, hi=lo + rng.randint(0, 2)) + "\n".join(decls)).encode(), \
        [f"{len(decls)} declarations from the grammar: {', '.join(kinds)}"]


def token_soup(rng: random.Random) -> tuple[bytes, list[str]]:
    kw, ops = grammar_words()
    pool = [(4, lambda: rng.choice(kw)), (3, lambda: rng.choice(ops)), (3, lambda: rng.choice(_DEFAULT_NAMES)),
            (1, lambda: rng.choice(_NUMBERS).lstrip("-")), (1, lambda: rng.choice(['"s"', '""', '"\\q"']))]
    lines, level = [], 0
    for _ in range(rng.randint(1, 25)):
        level = max(0, min(4, level + rng.choice([-1, 0, 0, 1])))
        words = [_weighted(rng, pool)() for _ in range(rng.randint(1, 8))]
        if rng.random() < 0.3:
            words.append(":")
        lines.append("    " * level + " ".join(words))
    head = _HEAD.format(lo=2, hi=2) if rng.random() < 0.7 else ""
    return (head + "\n".join(lines) + "\n").encode(), [f"{len(lines)} lines of random tokens"]


# ------------------------------------------------------------------ long chains and lists

_G = "game deep:\n    players 2..2\n\nglobal:\n    t: int = 0\n\n"


def _chain_consts(n):
    return "".join(f"const A{i} = A{i + 1} + 1\n" for i in range(n)) + f"const A{n} = 0\nflow:\n    t = A0\nscore: t\n"


def _chain_defs(n):
    return "".join(f"def f{i}() -> int = f{i + 1}() + 1\n" for i in range(n)) + \
        f"def f{n}() -> int = 0\nflow:\n    t = f0()\nscore: t\n"


def _chain_procs(n):
    return "".join(f"procedure p{i}():\n    t += 1\n    p{i + 1}()\n" for i in range(n)) + \
        f"procedure p{n}():\n    t += 1\nflow:\n    p0()\nscore: t\n"


def _chain_events(n):
    return "".join(f"event e{i}()\non e{i}():\n    t += 1\n    emit e{i + 1}()\n" for i in range(n)) + \
        f"event e{n}()\nflow:\n    emit e0()\nscore: t\n"


def _chain_tables(n):
    out = ""
    for i in range(n + 1):
        v = f"count(copies(R{i + 1}))" if i < n else "1"
        out += f"record R{i}:\n    v: int\ncomponents R{i}:\n    | name | v | count |\n    | k{i} | {v} | 1 |\n"
    return out + "flow:\n    t = count(copies(R0))\nscore: t\n"


def _chain_triggers(n):
    decl = "per player:\n" + "".join(f"    c{i}: int = 0\n" for i in range(n + 1))
    return decl + "".join(f"when p.c{i} reaches 1:\n    p.c{i + 1} += 1\n" for i in range(n)) + \
        "flow:\n    player(1).c0 += 1\nscore: me.c" + str(n) + "\n"


def _long_elif(n):
    arms = "".join(f"    elif t == {i}:\n        t = {i + 1}\n" for i in range(1, n))
    return f"flow:\n    if t == 0:\n        t = 1\n{arms}    else:\n        t = -1\nscore: t\n"


def _long_block(n):
    return "flow:\n" + "".join("    t += 1\n" for _ in range(n)) + "score: t\n"


def _long_list(n):
    return f"const L = [{', '.join(str(i % 7) for i in range(n))}]\nflow:\n    t = sum(L)\nscore: t\n"


def _many_actions(n):
    acts = "".join(f"action a{i}(x in range(0, 3)):\n    t += x\n" for i in range(n))
    return acts + f"actions all_acts: {', '.join(f'a{i}' for i in range(n))}\n" \
        "flow:\n    repeat 3:\n        act player(1): all_acts\nscore: t\n"


def _big_table(n):
    rows = "".join(f"    | k{i} | {i % 5} | {1 + i % 3} |\n" for i in range(n))
    return ("record Card:\n    v: int\ncomponents Card:\n    | name | v | count |\n" + rows +
            "global:\n    deck: stack of Card\n    hand: pile of Card\nsetup:\n    fill deck with copies(Card)\n"
            "flow:\n    repeat 5:\n        draw deck -> hand\n    t = sum(c.v for c in hand)\nscore: t\n")


def _wide_state(n):
    rows = "".join(f"    | k{i} | 1 | 1 |\n" for i in range(n))
    piles = "".join(f"    h{j}: pile of Card\n" for j in range(max(n // 10, 1)))
    return ("record Card:\n    v: int\ncomponents Card:\n    | name | v | count |\n" + rows +
            "per player:\n" + piles + "flow:\n    t = count(player(1).h0)\nscore: t\n")


def _many_copies(n):
    rows = "".join(f"    | k{i} | 1 | 10000 |\n" for i in range(n))
    return ("record Card:\n    v: int\ncomponents Card:\n    | name | v | count |\n" + rows +
            "flow:\n    t = count(copies(Card))\nscore: t\n")


DEEP = {"wide-state": _wide_state, "copies": _many_copies, "consts": _chain_consts, "defs": _chain_defs, "procedures": _chain_procs, "events": _chain_events,
        "tables": _chain_tables, "triggers": _chain_triggers, "elif": _long_elif, "block": _long_block,
        "list": _long_list, "actions": _many_actions, "table": _big_table}


def deep_program(rng: random.Random) -> tuple[bytes, list[str]]:
    """A game made of one long chain of definitions that wait on one another, or one long
    list: what no mutation of a real game makes, and what recursion in the engine fears."""
    kind = rng.choice(sorted(DEEP))
    n = rng.choice([30, 100, 300, 1000, 3000])
    return (_G + DEEP[kind](n)).encode(), [f"{kind}, {n} long"]


# ------------------------------------------------------------------ cases


@dataclass
class Case:
    """One input: the files of a game directory (one of them changed) and how to run it."""
    kind: str                          # mutation | soup | grammar
    game: str                          # the directory's name
    files: dict[str, bytes]            # file name -> content, the whole directory
    changed: str                       # the file that was changed
    ops: list[str] = field(default_factory=list)
    check_file: bool = True            # check the changed file (else the directory)
    games: int = 1                     # simulate this many games when the check is clean
    seed: int = 0
    with_: list[str] = field(default_factory=list)
    players: int | None = None         # None: the most the game allows
    bots: str = "random"
    log: bool = False                  # simulate with --log (move and outcome names, ids)

    def describe(self) -> str:
        return f"{self.kind} of {self.game}/{self.changed}: " + "; ".join(self.ops)


@lru_cache(maxsize=None)
def _game_files(game: str) -> tuple[tuple[str, bytes], ...]:
    d = rules_dir() / game
    return tuple((p.name, p.read_bytes()) for p in sorted(d.glob("*.regola")))


_MODULE_RE = re.compile(r"^module\s+(\w+)\s*:", re.M)
_PART_RE = re.compile(r"^part\s+of\s+(\w+)", re.M)
_REQUIRES_RE = re.compile(r"^\s+requires\s+(\w+)", re.M)


def _modules_for(files: dict[str, bytes], name: str, rng: random.Random | None = None) -> list[str]:
    """The optional modules to simulate with so that the changed file is played: its own
    module (or the module it is part of), after the ones that module requires; with `rng`,
    sometimes other optional modules of the game too (modules changing one another's rules;
    two that conflict are refused with a diagnostic)."""
    texts = {n: b.decode("utf-8", errors="replace") for n, b in files.items()}
    mods = {}
    for n, t in texts.items():
        m = _MODULE_RE.search(t)
        if m and "applies when" not in t:
            mods[m.group(1)] = t
    text = texts[name]
    m = _MODULE_RE.search(text) or _PART_RE.search(text)
    wanted = [m.group(1)] if m is not None and m.group(1) in mods else []
    if rng is not None and mods and rng.random() < 0.3:
        wanted += rng.sample(sorted(mods), rng.randint(1, len(mods)))
    order: list[str] = []

    def add(mod, depth=0):
        if mod in order or mod not in mods or depth > 10:
            return
        for req in _REQUIRES_RE.findall(mods[mod]):
            add(req, depth + 1)
        order.append(mod)
    for mod in wanted:
        add(mod)
    return order


def _players_of(files: dict[str, bytes]) -> tuple[int, int] | None:
    """The player range of the game's own declaration (before any change)."""
    for data in files.values():
        m = re.search(rb"^game\s+\w+\s*:(?:\n[ \t]+.*)*?\n[ \t]+players\s+(\d+)\s*\.\.\s*(\d+)", data, re.M)
        if m:
            return int(m.group(1)), int(m.group(2))
    return None


def bundled_files(games=None) -> list[tuple[str, str]]:
    """(game, file name) of every bundled rules file (of these games)."""
    from regola.resources import bundled_games
    return [(g, n) for g in (games or bundled_games()) for n, _ in _game_files(g)]


def make_case(rng: random.Random, games=None,
              kinds=((6, "mutation"), (3, "semantic"), (3, "typed"), (1, "soup"), (2, "grammar"),
                     (1, "deep"))) -> Case:
    """A case of a kind drawn from `kinds`; mutations of the files of `games` (default: all)."""
    kind = _weighted(rng, list(kinds))
    sim = dict(games=rng.randint(1, 3), seed=rng.randrange(1000), log=rng.random() < 0.3,
               bots=_weighted(rng, [(7, "random"), (2, "first"), (1, "greedy")]))
    if kind in ("mutation", "semantic", "typed"):
        game, name = rng.choice(bundled_files(games))
        files = dict(_game_files(game))
        players = _players_of(files)
        if kind == "typed":
            files[name], ops = typed_swap(rng, game, name, files[name])
        else:
            files[name], ops = mutate(rng, files[name], semantic=kind == "semantic")
        return Case(kind, game, files, name, ops, check_file=rng.random() < 0.7,
                    with_=_modules_for(files, name, rng),
                    players=rng.randint(*players) if players and rng.random() < 0.5 else None, **sim)
    data, ops = {"soup": token_soup, "grammar": grammar_program, "deep": deep_program}[kind](rng)
    return Case(kind, "fuzz", {"fuzz.regola": data}, "fuzz.regola", ops, **sim)


def write_case(case: Case, where: Path) -> Path:
    """Write the case's game directory under `where`; returns the directory."""
    d = where / case.game
    d.mkdir(parents=True, exist_ok=True)
    for name, data in case.files.items():
        (d / name).write_bytes(data)
    return d
