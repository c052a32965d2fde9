"""The sections of a rules summary for one checked program (one number of players): what
the game declares (constants, enums, records and components, boards, the state) and what it
does (setup, flow, actions, decisions, triggers, hooks, the end and the scores), each item
with the place of its declaration and the rulebook section it cites.

Nothing here knows a game: it reads the checked program (symbols.py) and the game's files.
"""

from __future__ import annotations

from regola import ast
from regola import types as T

from .doc_model import Bullets, Cite, Code, Entry, Item, Link, Para, Quote, Row, Section, Strong, Table
from .doc_words import PlayerCounts, Words, expr_text, where

_VISIBILITY = {
    ("zone", "public"): "everyone sees what it holds",
    ("zone", "private"): "its owner sees what it holds; the others see how many",
    ("zone", "hidden"): "no one sees what it holds; everyone sees how many",
    ("zone", "others"): "every player but its owner sees what it holds",
    ("var", "public"): "everyone sees it",
    ("var", "private"): "only its owner sees it",
    ("var", "hidden"): "no one sees it",
    ("var", "others"): "every player but its owner sees it",
}

_BOUNDS = {ast.BoundIn: "in {low}..{high}", ast.BoundMin: "min {value}", ast.BoundMax: "max {value}"}


def anchor(kind: str, name: str) -> str:
    return f"{kind}-{name}"


def value_text(v, t) -> str:
    """An evaluated constant as rules text, from its type."""
    t = T.strip(t)
    if v is None:
        return "none"
    if t is T.BOOL or isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(t, T.MapType) and isinstance(v, list):
        keys = _key_names(t.key, len(v))
        return "{" + ", ".join(f"{k}: {value_text(x, t.value)}" for k, x in zip(keys, v)
                               if x not in (0, False, None, [])) + "}"
    if isinstance(t, T.ListType) and isinstance(v, list):
        return "[" + ", ".join(value_text(x, t.elem) for x in v) + "]"
    if isinstance(v, int):
        names = _key_names(t, v + 1)
        return names[v] if names and 0 <= v < len(names) else str(v)
    return str(v)


def _key_names(t, n: int) -> list:
    t = T.strip(t)
    if isinstance(t, T.EnumType):
        return list(t.values)
    if isinstance(t, T.RecordType):
        return list(t.kinds)
    if isinstance(t, T.PlayerType):
        return [f"player({i + 1})" for i in range(n)]
    return []


class Builder:
    """The sections for one checked program. `src` is the game's files (compose.GameSource),
    `counts` works out what depends on the number of players."""

    def __init__(self, prog, src, counts: PlayerCounts):
        self.prog, self.src = prog, src
        self.module_of: dict = {}
        for name, m in src.modules.items():
            self.module_of[m.path] = name
            for d in m.program.decls:
                self.module_of.setdefault(d.span.file, name)
        self.anchors = {(k, n): anchor(k, n) for k, names in
                        (("action", prog.actions), ("procedure", prog.procs), ("event", prog.events),
                         ("def", prog.defs)) for n in names}
        self.words = Words(prog, self.anchors, self.module_of, counts)
        self.decls = [d for p in self._programs() for d in p.decls]
        self.owner = {id(v): d for d in self.decls if isinstance(d, (ast.GlobalDecl, ast.PlayerDecl))
                      for v in d.vars}

    def _programs(self):
        yield self.src.base
        for name in self.prog.modules:
            if name in self.src.modules:
                yield self.src.modules[name].program

    # -------------------------------------------------------------- shared pieces

    def cites(self, decl, body=None) -> tuple:
        """The rulebook section a declaration cites: its block's own `cite`, else the
        top-level one in force where it stands."""
        first = (body or [None])[0]
        if isinstance(first, ast.CiteStmt):
            return (Cite(first.text),)
        text = self.prog.cites.get(id(decl), "")
        return (Cite(text),) if text else ()

    def _cite_cell(self, decl) -> tuple:
        return self.cites(decl) or ("—",)

    def module_note(self, node) -> str:
        m = self.module_of.get(node.span.file)
        return f" (module {m})" if m else ""

    def body(self, stmts, home) -> tuple:
        """A block in words, the leading `cite` left to the entry's heading."""
        stmts = list(stmts or [])
        if stmts and isinstance(stmts[0], ast.CiteStmt):
            stmts = stmts[1:]
        return self.words.block(stmts, home.span.file)

    def entry(self, key: str, anc: str, title: tuple, decl, blocks, body=None) -> Entry:
        return Entry(key, anc, (*title, self.module_note(decl)) if self.module_note(decl) else title,
                     where(decl), self.cites(decl, body), tuple(b for b in blocks if b is not None))

    def params_text(self, params) -> str:
        return ", ".join(f"{n}: {t}" for n, t in params)

    # -------------------------------------------------------------- sections

    def sections(self) -> list:
        return [s for s in (self.constants(), self.enums(), self.records(), self.boards(), self.state(),
                            self.setup(), self.flow(), self.actions(), self.decisions(), self.triggers(),
                            self.hooks(), self.functions(), self.ending(), self.checks()) if s.blocks]

    def constants(self) -> Section:
        rows = []
        for name, v in self.prog.consts.items():
            sym = self.prog.top.get(name)
            if sym is None or sym.node is None:
                continue
            d = sym.node
            written = expr_text(d.value)
            worked = value_text(v, sym.type)
            value = (Code(written),) if worked == written else (Code(written), " = ", Code(worked))
            kind = "option" if isinstance(d, ast.OptionDecl) else "constant"
            note = f" (option: {d.doc})" if isinstance(d, ast.OptionDecl) and d.doc else ""
            rows.append(Row(name, ((Code(name), note or ("" if kind == "constant" else " (option)")), value,
                                   (where(d),), self._cite_cell(d))))
        s = Section("constants", "Constants")
        if rows:
            s.blocks.append(Table(("name", "value", "declared", "rulebook"), tuple(rows), key="consts"))
        return s

    def enums(self) -> Section:
        rows = [Row(name, ((Code(name),), (", ".join(et.values),), (where(self.prog.top[name].node),),
                           self._cite_cell(self.prog.top[name].node)))
                for name, et in self.prog.enums.items() if name in self.prog.top]
        s = Section("enums", "Enums")
        if rows:
            s.blocks.append(Table(("enum", "values", "declared", "rulebook"), tuple(rows), key="enums"))
        return s

    def records(self) -> Section:
        s = Section("records", "Records and components")
        tables: dict = {}
        for d in self.decls:
            if isinstance(d, ast.ComponentsDecl):
                tables.setdefault(d.record, []).append(d)
        for name, rt in self.prog.records.items():
            sym = self.prog.top.get(name)
            if sym is None or sym.node is None:
                continue
            d = sym.node
            fields = Table(("field", "type", "default", "declared"), tuple(
                Row(f.name, ((Code(f.name),), (Code(str(rt.fields.get(f.name, "?"))),),
                             (Code(expr_text(f.default)),) if f.default is not None else ("—",), (where(f),)))
                for f in d.fields), key=f"fields:{name}", title="Fields")
            blocks = [fields]
            for i, table in enumerate(tables.get(name, [])):
                blocks.append(self._components(rt, table, i))
            if rt.kinds:
                blocks.append(Para((f"{len(rt.kinds)} kind{'s' if len(rt.kinds) != 1 else ''}, "
                                    f"{sum(rt.copies)} component{'s' if sum(rt.copies) != 1 else ''} in all.",),
                                   key=f"total:{name}"))
            s.blocks.append(self.entry(f"record:{name}", anchor("record", name), ("Record ", Code(name)),
                                       d, blocks))
        return s

    def _components(self, rt, table: ast.ComponentsDecl, i: int) -> Table:
        cols = [c for c in table.header.columns if c != "count"]
        rows = []
        for row in table.rows:
            cells = dict(zip(table.header.columns, row.cells))
            kind = cells.get("name")
            kname = kind.name if isinstance(kind, ast.Name) else "?"
            k = rt.kinds.index(kname) if kname in rt.kinds else -1
            copies = str(rt.copies[k]) if 0 <= k < len(rt.copies) else "?"
            written = expr_text(cells["count"]) if "count" in cells else copies
            count = (copies,) if written == copies else (Code(written), f" = {copies}")
            rows.append(Row(kname, tuple((Code(expr_text(cells[c])),) if c in cells else ("—",) for c in cols)
                            + (count, (where(row),))))
        title = f"Components ({where(table).shown}" + (f"; rulebook: {self.prog.cites[id(table)]})"
                                                       if self.prog.cites.get(id(table)) else ")")
        return Table((*cols, "count", "declared"), tuple(rows), key=f"components:{rt.name}:{i}", title=title)

    def boards(self) -> Section:
        s = Section("boards", "Boards")
        for name, g in self.prog.grids.items():
            d = self.prog.top[name].node
            items = [Item((f"{g.rows} rows by {g.cols} columns of ", Code(g.record.name),
                           f" ({g.ncells} cells)"),)]
            for it in d.items:
                if isinstance(it, ast.GridLine) and it.name in g.lines:
                    lt = g.lines[it.name]
                    items.append(Item(("line ", Code(it.name), f": after {lt.axis} "
                                       f"{', '.join(str(p) for p in lt.positions)} (", where(it), ")")))
                elif isinstance(it, ast.GridArea) and it.name in g.areas:
                    at = g.areas[it.name]
                    items.append(Item(("area ", Code(it.name), f": {len(at.cells)} areas bounded by "
                                       f"{', '.join(at.bounds)} (", where(it), ")")))
                elif isinstance(it, ast.GridCell):
                    items.append(Item(("each cell has ", Code(it.name), ": ",
                                       Code(str(g.cell_attrs.get(it.name, "?"))), " (", where(it), ")")))
            s.blocks.append(self.entry(f"grid:{name}", anchor("grid", name), ("Board ", Code(name)), d,
                                       [Bullets(tuple(items))]))
        return s

    def state(self) -> Section:
        s = Section("state", "State")
        zones = []
        for per_player, vars_ in ((False, self.prog.globals), (True, self.prog.pvars)):
            rows = []
            for name, vi in vars_.items():
                t = T.strip(vi.type)
                is_zone = isinstance(t, (T.ZoneType, T.KeyedZones))
                seen = _VISIBILITY.get(("zone" if is_zone else "var", vi.visibility), vi.visibility)
                if not per_player and not is_zone and vi.visibility == "private":
                    seen = vi.visibility
                decl = self.owner.get(id(vi.decl), vi.decl)
                cite = self.cites(decl) or ("—",)
                if is_zone:
                    holds = ((Code(f"{vi.decl.holds.var} where {expr_text(vi.decl.holds.cond)}"),)
                             if vi.decl.holds is not None else ("anything of its type",))
                    zones.append(Row(("p:" if per_player else "g:") + name, (
                        (Code(name),), (Code(str(vi.type)),), ("each player" if per_player else "the table",),
                        (Strong(vi.visibility), f": {seen}"), holds, (where(vi.decl),), cite)))
                    continue
                bounds = [b for b in vi.decl.options if type(b) in _BOUNDS or isinstance(b, ast.BoundClamp)]
                btext = ", ".join(_bound_text(b) for b in bounds) or "—"
                init = (Code(expr_text(vi.decl.init)),) if vi.decl.init is not None else ("—",)
                note = " (internal: bookkeeping, left out of views)" if vi.internal else ""
                rows.append(Row(name, ((Code(name), note), (Code(str(vi.type)),), (btext,), init,
                                       (Strong(vi.visibility), f": {seen}"), (where(vi.decl),), cite)))
            if rows:
                s.blocks.append(Table(("variable", "type", "bounds", "initially", "visibility", "declared",
                                       "rulebook"), tuple(rows), key=f"vars:{per_player}",
                                      title="Per player" if per_player else "Global"))
        if zones:
            s.blocks.append(Table(("zone", "holds", "one for", "visibility", "may hold", "declared", "rulebook"),
                                  tuple(zones), key="zones", title="Zones"))
        return s

    def setup(self) -> Section:
        s = Section("setup", "Setup")
        d = self.prog.setup
        if d is not None:
            s.blocks.append(self.entry("setup", "setup-block", ("Setup",), d,
                                       [Bullets(self.body(d.body, d))], d.body))
        return s

    def flow(self) -> Section:
        s = Section("flow", "Flow of play")
        d = self.prog.flow
        if d is not None:
            s.blocks.append(self.entry("flow", "flow-block", ("Flow",), d, [Bullets(self.body(d.body, d))], d.body))
        rows = [Row(g, ((Code(g),), tuple(_join([Link(a, anchor("action", a)) if a in self.prog.actions
                                                  else Code(a) for a in acts])),
                        (where(self.prog.top[g].node),) if g in self.prog.top else ("—",)))
                for g, acts in self.prog.groups.items()]
        if rows:
            s.blocks.append(Table(("group of actions", "actions", "declared"), tuple(rows), key="groups"))
        for name, c in self.prog.procs.items():
            d = c.decl
            s.blocks.append(self.entry(f"procedure:{name}", anchor("procedure", name),
                                       ("Procedure ", Code(f"{name}({self.params_text(c.params)})")), d,
                                       [Bullets(self.body(d.body, d))], d.body))
        return s

    def actions(self) -> Section:
        s = Section("actions", "Actions")
        offered = self._offered()
        for name, a in self.prog.actions.items():
            d = a.decl
            params = tuple(Item((Code(p.name), f" ({p.type}) in ", Code(expr_text(p.domain)),
                                 *((" where ", Code(expr_text(p.cond))) if p.cond is not None else ())))
                           for p in a.params)
            reqs = tuple(Item((Code(expr_text(r.cond)), *((": ", Quote(r.message)) if r.message else ()),
                               " (", where(r), ")", *self.words.notes([r.cond]))) for r in a.requires)
            items = [Item(("Parameters:",), params) if params else Item(("Parameters: none",)),
                     Item(("Requires:",), reqs) if reqs else Item(("Requires: nothing more",)),
                     Item(("Costs: ", *self.words.cost_parts(a.costs)) if a.costs else ("Costs: nothing",)),
                     Item(("Effects:",), self.words.block(a.effects, d.span.file))
                     if a.effects else Item(("Effects: none",))]
            if offered.get(name):
                items.append(Item(("Offered by:",), tuple(offered[name])))
            cites = (Cite(a.cite),) if a.cite else ()
            title = ("Action ", Code(name))
            e = Entry(f"action:{name}", anchor("action", name), (*title, self.module_note(d)) if
                      self.module_note(d) else title, where(d), cites, (Bullets(tuple(items)),))
            s.blocks.append(e)
        return s

    # -------------------------------------------------------------- walking the rules

    def bodies(self):
        """(label pieces, statements) of every block of the rules."""
        p = self.prog
        if p.setup is not None:
            yield (Link("setup", "setup-block"),), p.setup.body
        if p.flow is not None:
            yield (Link("flow", "flow-block"),), p.flow.body
        for n, c in p.procs.items():
            yield (Link(n, anchor("procedure", n)),), c.decl.body
        for n, a in p.actions.items():
            yield (Link(n, anchor("action", n)),), a.decl.body
        for n, ev in p.events.items():
            for i, h in enumerate(ev.handlers):
                yield (Link(f"on {n}", anchor("event", n)),), h.body
        for w in p.watchers:
            yield (Link(f"when {expr_text(w.decl.target)} reaches", "triggers"),), w.decl.body
        if p.on_end is not None:
            yield (Link("on game end", "game-end"),), p.on_end.body

    def _walk(self, types):
        for label, body in self.bodies():
            for st in body:
                for n in st.walk():
                    if isinstance(n, types):
                        yield label, n

    def _offered(self) -> dict:
        out: dict = {}
        for label, st in self._walk(ast.ActStmt):
            for a in self.prog.act_actions.get(id(st)) or st.actions:
                out.setdefault(a, []).append(Item((*label, " (", where(st), ")")))
        return out

    def decisions(self) -> Section:
        s = Section("decisions", "Decisions and chance")
        rows, chance = [], []
        for label, st in self._walk((ast.ActStmt, ast.ChooseStmt, ast.SimultaneousStmt, ast.DrawStmt,
                                     ast.RollStmt)):
            key = f"{st.span.file}:{st.span.line}:{st.span.col}"
            if isinstance(st, (ast.DrawStmt, ast.RollStmt)):
                parts, _ = self.words.line(st, None)
                chance.append(Row(key, (label, parts, (where(st),))))
                continue
            if isinstance(st, ast.SimultaneousStmt):
                what = ("every ", Code(st.var), " in ", Code(expr_text(st.iter)),
                        " chooses without seeing the others' choices")
            else:
                what, _ = self.words.line(st, None)
                what = what[:-1] if what and what[-1] == ":" else what
            rows.append(Row(key, (label, what, (where(st),))))
        if rows:
            s.blocks.append(Table(("in", "decision", "where"), tuple(rows), key="decisions", title="Decisions"))
        if chance:
            s.blocks.append(Table(("in", "chance event", "where"), tuple(chance), key="chance", title="Chance"))
        return s

    def triggers(self) -> Section:
        s = Section("triggers", "Triggers")
        emitted: dict = {}
        for label, st in self._walk(ast.EmitStmt):
            emitted.setdefault(st.event, []).append(Item((*label, " (", where(st), ")")))
        for name, ev in self.prog.events.items():
            for i, h in enumerate(ev.handlers):
                head = f"on {name}({self.params_text(ev.params)})" if ev.params else f"on {name}"
                blocks = [Bullets(self.body(h.body, h))]
                if i == 0 and emitted.get(name):
                    blocks.append(Para(("Emitted by: ", *_join([x for it in emitted[name] for x in (it.parts,)],
                                                              flat=True)), key="emitted"))
                e = self.entry(f"on:{name}:{i}", anchor("event", name) + (f"-{i + 1}" if i else ""),
                               ("Event ", Code(head)), h, blocks, h.body)
                s.blocks.append(e)
        for i, w in enumerate(self.prog.watchers):
            d = w.decl
            s.blocks.append(self.entry(f"when:{where(d).shown}", f"when-{i + 1}",
                                       ("When ", Code(expr_text(d.target)), " reaches ", Code(expr_text(d.value))),
                                       d, [Bullets(self.body(d.body, d))], d.body))
        return s

    def hooks(self) -> Section:
        s = Section("hooks", "Hooks, modifiers and payments")
        for name, c in self.prog.defs.items():
            d = c.decl
            if not d.hook:
                continue
            items = [Item(("Modifier ", Code(f"{name}({', '.join(m.params or [])}) {m.op} {expr_text(m.value)}"),
                           *((" when ", Code(expr_text(m.cond))) if m.cond is not None else ()),
                           " (", where(m), *self._cite_after(m), ")"))
                     for m in self.prog.modifiers.get(name, [])]
            blocks = [self._def_value(c), Bullets(tuple(items)) if items else Para(("No modifier changes it.",))]
            if len(items) > 1:
                blocks.append(Para(("While their conditions hold, the modifiers that set the value (", Code("="),
                                    ") apply first, then those that adjust it (", Code("+="), ", ", Code("-="),
                                    "), each in the order listed.",), key="order"))
            s.blocks.append(self.entry(f"hook:{name}", anchor("def", name),
                                       ("Hook ", Code(f"{name}({self.params_text(c.params)}) -> {c.ret}")), d, blocks,
                                       d.body))
        for name, pi in self.prog.payments.items():
            d = pi.decl
            items = tuple(Item(("pay ", Code(r.var), " from ", Code(expr_text(r.source)),
                                *((" where ", Code(expr_text(r.cond))) if r.cond is not None else ()),
                                *((" when ", Code(expr_text(r.when))) if r.when is not None else ())))
                          for r in d.rules)
            s.blocks.append(self.entry(f"payment:{name}", anchor("payment", name),
                                       ("Payment ", Code(name), " of ", Code(d.unit)), d, [Bullets(items)]))
        return s

    def _cite_after(self, decl) -> tuple:
        c = self.cites(decl)
        return ("; ", *c) if c else ()

    def _def_value(self, c):
        d = c.decl
        if d.expr is not None:
            return Para(("= ", Code(expr_text(d.expr))), key="value")
        return Bullets(self.body(d.body, d), key="value")

    def functions(self) -> Section:
        s = Section("functions", "Functions")
        for name, c in self.prog.defs.items():
            d = c.decl
            if d.hook or name.startswith("holds__"):
                continue
            s.blocks.append(self.entry(f"def:{name}", anchor("def", name),
                                       ("Function ", Code(f"{name}({self.params_text(c.params)}) -> {c.ret}")),
                                       d, [self._def_value(c)], d.body))
        return s

    def ending(self) -> Section:
        s = Section("game-end", "End of the game and scoring")
        p = self.prog
        ends = tuple(Item((*label, " (", where(st), ")")) for label, st in self._walk(ast.EndGame))
        s.blocks.append(Bullets((Item(("The game ends (", Code("end game"), ") in:"), ends),), key="ends")
                        if ends else Para(("No rule ends the game.",), key="ends"))
        if p.on_end is not None:
            s.blocks.append(self.entry("on-end", "on-game-end", ("On game end",), p.on_end,
                                       [Bullets(self.body(p.on_end.body, p.on_end))], p.on_end.body))
        if p.score is not None:
            items = [Item(("Each player scores ", Code(expr_text(p.score.expr)), " (", where(p.score), ")"))]
            items.append(Item(("The lowest score wins." if p.lowest_wins else "The highest score wins.",)))
            if p.tiebreaks:
                items.append(Item(("Ties are broken by, in order (the greatest first):",),
                                  tuple(Item((Code(expr_text(e)), " (", where(e), ")")) for e in p.tiebreaks)))
            else:
                items.append(Item(("Tied players share the win.",)))
            if p.max_moves is not None:
                items.append(Item((f"No game has more than {p.max_moves} moves by players.",)))
            if p.score_bounds is not None:
                lo, hi = p.score_bounds
                items.append(Item((f"Every score lies in {lo}..{hi}.",)))
            s.blocks.append(Entry("score", "score", ("Score",), where(p.score), self.cites(p.score),
                                  (Bullets(tuple(items)),)))
        return s

    def checks(self) -> Section:
        rows = [Row(f"{where(a).shown}", ((Quote(a.message),), (Code(expr_text(a.cond)),), (where(a),),
                                          self._cite_cell(a)))
                for a in self.prog.asserts]
        s = Section("checks", "Facts checked when the rules are loaded")
        if rows:
            s.blocks.append(Table(("assertion", "condition", "declared", "rulebook"), tuple(rows), key="asserts"))
        return s


def _bound_text(b) -> str:
    if isinstance(b, ast.BoundClamp):
        return f"clamp {expr_text(b.low)}.." + (expr_text(b.high) if b.high is not None else "")
    fields = {k: expr_text(getattr(b, k)) for k in ("low", "high", "value") if hasattr(b, k)}
    return _BOUNDS[type(b)].format(**fields)


def _join(pieces, flat: bool = False) -> list:
    """Pieces with commas between them (`flat`: each is a tuple of pieces)."""
    out: list = []
    for i, p in enumerate(pieces):
        out += ["; " if flat else ", "] if i else []
        out += list(p) if flat else [p]
    return out
