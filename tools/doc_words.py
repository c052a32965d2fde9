"""Statements in words for the rules summary: each statement of a block as one short line
(`move t from me.hand -> board[c]` reads "move `t` from `me.hand` to `board[c]`"), with
`if`, `for`, `choose` and the other blocks as nested lists; expressions are shown as written
(render.py). What depends on the number of players (`count(players) == 2`) is worked out
for each count the summary covers.

Nothing here knows a game: it reads the checked program only.
"""

from __future__ import annotations

from regola import ast
from regola import types as T
from regola.render import render_expr

from .doc_model import Cite, Code, Item, Link, Quote, Where


def expr_text(e) -> str:
    """An expression as written (render.py, plus the map literals it leaves out)."""
    if isinstance(e, ast.MapLit):
        return "{" + ", ".join(f"{expr_text(x.key)}: {expr_text(x.value)}" for x in e.entries) + "}"
    return render_expr(e)


def counts_text(counts) -> str:
    """[2] -> '2 players'; [3, 4, 5] -> '3–5 players'; [2, 4, 5] -> '2 or 4–5 players'."""
    counts = sorted(counts)
    runs: list[list[int]] = []
    for n in counts:
        if runs and n == runs[-1][-1] + 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    parts = [str(r[0]) if len(r) == 1 else f"{r[0]}–{r[-1]}" for r in runs]
    text = parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " or " + parts[-1]
    return f"{text} player{'s' if counts != [1] else ''}"


# ------------------------------------------------------------------ the number of players

class _NotStatic(Exception):
    pass


def _is_player_count(e) -> bool:
    return (isinstance(e, ast.Call) and e.func == "count" and len(e.args or []) == 1
            and isinstance(e.args[0], ast.Name) and e.args[0].name == "players")


class PlayerCounts:
    """Values of expressions that depend on nothing but the number of players and constants,
    for each count covered: `progs` maps a count to the checked program of that count."""

    def __init__(self, progs: dict):
        self.progs = progs

    def depends(self, e, depth: int = 0) -> bool:
        """Does e read the number of players (directly, or through a def without parameters)?"""
        if depth > 8:
            return False
        for n in e.walk():
            if _is_player_count(n):
                return True
            if isinstance(n, ast.Call) and not n.args:
                for prog in self.progs.values():
                    c = prog.defs.get(n.func)
                    if c is not None and c.decl.expr is not None and self.depends(c.decl.expr, depth + 1):
                        return True
        return False

    def values(self, e) -> dict | None:
        """{count: value}, or None when e is not worked out from the number of players alone."""
        out = {}
        for n, prog in self.progs.items():
            try:
                out[n] = self._ev(e, prog, n, 0)
            except (_NotStatic, TypeError, ValueError, IndexError, ZeroDivisionError, KeyError):
                return None
        return out

    def _ev(self, e, prog, n: int, depth: int):
        if depth > 32:
            raise _NotStatic
        ev = lambda x: self._ev(x, prog, n, depth + 1)      # noqa: E731
        k = type(e)
        if k in (ast.IntLit, ast.BoolLit, ast.StrLit):
            return e.value
        if _is_player_count(e):
            return n
        if k is ast.Name and e.name in prog.consts and _plain(prog.top[e.name].type):
            return prog.consts[e.name]
        if k is ast.ListLit:
            return [ev(x) for x in e.items]
        if k is ast.Index:
            obj, i = ev(e.obj), ev(e.index)
            if not isinstance(obj, list) or not isinstance(i, int) or isinstance(i, bool):
                raise _NotStatic
            return obj[i]
        if k is ast.Binary:
            a, b = ev(e.left), ev(e.right)
            if e.op == "+":
                return a + b
            if isinstance(a, bool) or isinstance(b, bool) or not isinstance(a, int) or not isinstance(b, int):
                raise _NotStatic
            return {"-": lambda: a - b, "*": lambda: a * b, "/": lambda: a // b, "%": lambda: a % b}[e.op]()
        if k is ast.Neg:
            return -ev(e.operand)
        if k is ast.Compare:
            a, b = ev(e.left), ev(e.right)
            return {"==": lambda: a == b, "!=": lambda: a != b, "<": lambda: a < b, "<=": lambda: a <= b,
                    ">": lambda: a > b, ">=": lambda: a >= b, "in": lambda: a in b,
                    "not in": lambda: a not in b}[e.op]()
        if k is ast.BoolOp:
            a = ev(e.left)
            if e.op == "and":
                return a and ev(e.right)
            return a or ev(e.right)
        if k is ast.NotOp:
            return not ev(e.operand)
        if k is ast.CondExpr:
            return ev(e.then) if ev(e.cond) else ev(e.other)
        if k is ast.Call and not e.args:
            c = prog.defs.get(e.func)
            if c is not None and not c.params and c.decl.expr is not None:
                return ev(c.decl.expr)
        if k is ast.Call and e.func in ("min", "max", "abs") and e.args:
            args = [ev(x) for x in e.args]
            return {"min": min, "max": max, "abs": abs}[e.func](*args)
        raise _NotStatic

    def notes(self, e) -> list:
        """What the parts of e that depend on the number of players come to: (part, pieces
        saying its value for each count), for the largest parts worked out from it alone."""
        out: list = []
        self._notes(e, out)
        return out

    def _notes(self, e, out: list):
        if not self.depends(e):
            return
        vals = None if _is_player_count(e) else self.values(e)
        if vals is None:
            for c in e.children():
                self._notes(c, out)
            return
        out.append((e, by_count({n: value_text(v) for n, v in vals.items()})))


def _plain(t) -> bool:
    """Numbers, truth values and lists of them: values shown as they are."""
    t = T.strip(t)
    if isinstance(t, T.ListType):
        return _plain(t.elem)
    return T.is_int(t) or t is T.BOOL


def value_text(v) -> str:
    """A number, truth value or list of them as rules text."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, list):
        return "[" + ", ".join(value_text(x) for x in v) + "]"
    return str(v)


def by_count(values: dict) -> tuple:
    """{count: text} as pieces: '`9` with 2 players; `12` with 3–5 players'."""
    groups: dict = {}
    for n, v in values.items():
        groups.setdefault(v, []).append(n)
    out: list = []
    for v, ns in groups.items():
        out += ["; "] if out else []
        out += [Code(v), f" with {counts_text(ns)}"]
    return tuple(out)


# ------------------------------------------------------------------ statements

_ASSIGN = {"=": "set {t} to {v}", "+=": "add {v} to {t}", "-=": "take {v} from {t}"}


class Words:
    """Statements of a checked program in words. `anchors` maps ('procedure'|'action'|'event',
    name) to the anchor of its entry; `module_of` maps a file to the module it belongs to
    (None for the base game), so statements a module adds to a block say so."""

    def __init__(self, prog, anchors: dict, module_of: dict, counts: PlayerCounts):
        self.prog = prog
        self.anchors = anchors
        self.module_of = module_of
        self.counts = counts

    def block(self, stmts, home: str | None = None) -> tuple:
        """A block as list items; `home` is the file of the declaration holding it. An `if`
        is an item, and each of its `else if` and `otherwise` branches another beside it."""
        out: list = []
        for s in stmts or []:
            if isinstance(s, ast.IfStmt):
                out.append(self._item(s, ("if ", Code(expr_text(s.cond)), ":"), self.block(s.body, s.span.file), home))
                for c in s.elifs:
                    out.append(self._item(c, ("else if ", Code(expr_text(c.cond)), ":"),
                                          self.block(c.body, c.span.file), home))
                if s.other:
                    out.append(Item(("otherwise:",), self.block(s.other, s.span.file)))
            else:
                parts, children = self.line(s, home)
                out.append(self._item(s, parts, children, home))
        return tuple(out)

    def _ref(self, kind: str, name: str):
        a = self.anchors.get((kind, name))
        return Link(name, a) if a else Code(name)

    def _item(self, s, parts, children, home) -> Item:
        mod = self.module_of.get(s.span.file)
        exprs = [c for c in s.children() if isinstance(c, ast.Expr)]     # its own, not its blocks'
        notes = self.notes(exprs)
        if home is not None and mod is not None and mod != self.module_of.get(home):
            notes = (*notes, f" (module {mod})")
        last = parts[-1] if parts else None
        if notes and isinstance(last, str) and last.endswith(":"):      # the note before the colon
            return Item((*parts[:-1], *((last[:-1],) if last[:-1] else ()), *notes, ":"), tuple(children))
        return Item((*parts, *notes), tuple(children))

    def notes(self, exprs) -> tuple:
        """' — where `count(players) == 2` is true with 2 players; ...' for what in these
        expressions depends on the number of players, or nothing."""
        found = [(e, part, said) for e in exprs for part, said in self.counts.notes(e)]
        if len(found) == 1 and found[0][0] is found[0][1]:          # the whole expression
            return (" (", *found[0][2], ")")
        out: list = []
        for _, part, said in found:
            out += [" — where " if not out else "; and "]
            out += [Code(expr_text(part)), " is ", *said]
        return tuple(out)

    def line(self, s, home=None):
        """A statement in words: (its pieces, the items of the blocks it holds)."""
        C = lambda e: Code(expr_text(e))        # noqa: E731
        k = type(s)
        if k is ast.LetStmt:
            return ("let ", Code(s.name), " be ", C(s.value)), ()
        if k is ast.AssignStmt:
            text = _ASSIGN.get(s.op, "{t} " + s.op + " {v}")
            return _fill(text, t=C(s.target), v=C(s.value)), ()
        if k is ast.MoveFrom:
            return ("move ", C(s.item), " from ", C(s.zone), " to ", C(s.dest)), ()
        if k is ast.MoveSlot:
            return ("move what is in ", C(s.source), " to ", C(s.dest)), ()
        if k is ast.MoveAll:
            return ("move everything in ", C(s.zone), " to ", C(s.dest)), ()
        if k is ast.DrawStmt:
            return ("draw from ", C(s.zone), " to ", C(s.dest), " (chance)"), ()
        if k is ast.FillStmt:
            return ("fill ", C(s.zone), " with ", C(s.value)), ()
        if k is ast.DiscardStmt:
            return ("discard ", C(s.target), " (out of the game)"), ()
        if k is ast.DiscardAll:
            return ("discard everything in ", C(s.zone), " (out of the game)"), ()
        if k is ast.CompactStmt:
            return ("shift what is in ", C(s.zone), " towards its first slot"), ()
        if k is ast.PeekStmt:
            return (C(s.player), " looks at ", C(s.target)), ()
        if k is ast.RevealStmt:
            return (("reveal ", C(s.target), " to ", C(s.to)) if s.to is not None
                    else ("reveal ", C(s.target), " to everyone")), ()
        if k is ast.RequireStmt:
            return (("require ", C(s.cond), ": ", Quote(s.message)) if s.message
                    else ("require ", C(s.cond))), ()
        if k is ast.RollStmt:
            return ("roll ", Code(s.var), " among ", C(s.values), " (chance)"), ()
        if k is ast.PayStmt:
            who = (C(s.payer), " pays ") if s.payer is not None else ("pay ",)
            return (*who, C(s.cost), " with payment ", Code(s.payment)), ()
        if k is ast.CostStmt:
            return ("cost ", *self.cost_parts(s.items)), ()
        if k is ast.EmitStmt:
            args = ", ".join(expr_text(a) for a in s.args or [])
            return ("emit ", self._ref("event", s.event), Code(f"({args})"), ": its handlers run"), ()
        if k is ast.EndGame:
            return ("the game ends",), ()
        if k is ast.PassStmt:
            return ("nothing",), ()
        if k is ast.CiteStmt:
            return ("rulebook: ", Cite(s.text)), ()
        if k is ast.CallStmt:
            args = ", ".join(expr_text(a) for a in s.args or [])
            return ("do ", self._ref("procedure", s.func), Code(f"({args})")), ()
        if k is ast.ReturnStmt:
            return ("the result is ", C(s.value)), ()
        if k is ast.BreakStmt:
            return ("leave the loop",), ()
        if k is ast.ActStmt:
            return self._act(s), ()
        if k is ast.ChooseStmt:
            return self._choose(s), self.block(s.body, s.span.file)
        if k is ast.SimultaneousStmt:
            return (("at the same time, for each ", Code(s.var), " in ", C(s.iter),
                     " (no one sees the others' choices until all have chosen):"), self.block(s.body, s.span.file))
        if k is ast.ForStmt:
            where = (" where ", C(s.cond)) if s.cond is not None else ()
            return ("for each ", Code(s.var), " in ", C(s.iter), *where, ":"), self.block(s.body, s.span.file)
        if k is ast.RepeatStmt:
            return (C(s.count), " times:"), self.block(s.body, s.span.file)
        if k is ast.WhileStmt:
            return ("while ", C(s.cond), ":"), self.block(s.body, s.span.file)
        if k is ast.LoopStmt:
            return ("repeat (until the game ends or the loop is left):",), self.block(s.body, s.span.file)
        return (Code(s.kind),), ()

    def cost_parts(self, items) -> tuple:
        out: list = []
        for i, c in enumerate(items):
            out += [" and "] if i else []
            out.append(Code(f"{expr_text(c.amount)} {c.counter}"))
        return tuple(out)

    def _act(self, s: ast.ActStmt) -> tuple:
        names = self.prog.act_actions.get(id(s)) or s.actions
        out: list = [Code(expr_text(s.player)), " takes one action: "]
        for i, n in enumerate(names):
            out += [", "] if i else []
            out.append(self._ref("action", n))
        for o in s.options:
            if isinstance(o, ast.ActOptional):
                out.append("; may pass instead")
            elif isinstance(o, ast.ActCost):
                out += ["; costs ", Code(f"{expr_text(o.amount)} {o.counter}"), " more"]
            elif isinstance(o, ast.ActElsePass):
                out.append("; passes when none is possible")
        return tuple(out)

    def _choose(self, s: ast.ChooseStmt) -> tuple:
        by = next((o.player for o in s.options if isinstance(o, ast.ChooseBy)), None)
        who = Code(expr_text(by)) if by is not None else Code("me")
        out: list = [who, " chooses ", Code(s.var), " in ", Code(expr_text(s.domain))]
        if s.cond is not None:
            out += [" where ", Code(expr_text(s.cond))]
        if any(isinstance(o, ast.ChooseOptional) for o in s.options):
            out.append(", or passes")
        prompt = next((o.text for o in s.options if isinstance(o, ast.ChoosePrompt)), None)
        if prompt:
            out += [", asked ", Quote(prompt)]
        return (*out, ":") if s.body else tuple(out)


def _fill(text: str, **parts) -> tuple:
    out: list = []
    rest = text
    while rest:
        i = rest.find("{")
        if i < 0:
            out.append(rest)
            break
        j = rest.index("}", i)
        if i:
            out.append(rest[:i])
        out.append(parts[rest[i + 1:j]])
        rest = rest[j + 1:]
    return tuple(out)


def where(node) -> Where:
    return Where(node.span.file, node.span.line)
