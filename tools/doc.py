"""`regola doc RULES`: a readable summary of a game's rules, made from its rules files, to
hold against the rulebook.

    regola doc lungarno                      # Markdown on stdout
    regola doc lungarno --format html -o lungarno.html
    regola doc lions-of-lydia --with tomb --players 3

It shows the title and player counts, the modules (and which are in play), constants,
enums, records and their components, boards, the state, setup, the flow, each action with
its parameters, requires, costs and effects in words, the decisions and chance events,
triggers, hooks and modifiers, the end of the game and the scores. Every item names the
`file:line` of its declaration and the rulebook section it cites (`cite "..."`); the last
section lists, for each section cited, the items that encode it.

Without --players the summary covers every number of players the game (with the chosen
modules) allows: the rules are checked for each, and what differs (a module that applies
only with 2 players, a constant it overrides, a setup it extends) is shown once per group of
counts, labelled "with 2 players". What the rules work out from the number of players alone
(`count(players) == 2`) is worked out for each count, beside the rule.
"""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

from regola.compose import player_range, read_game, select_modules
from regola.loader import RulesError, check_rules, find_rules

from .checking import file_kind as _file_kind, only_game_in as _only_game_in
from .cli import _split, safe, whole_number
from .doc_model import (Bullets, Cite, Code, Document, Entry, Item, Link, Para, Row, Section, Table,
                        labelled, slug, to_html, to_markdown)
from .doc_sections import Builder, value_text
from .doc_words import PlayerCounts, by_count, counts_text, expr_text, where
from .doc_words import value_text as plain_text


def register(sub) -> None:
    d = sub.add_parser("doc", help="a readable summary of a game's rules (Markdown or HTML), to check "
                                   "against the rulebook")
    d.add_argument("rules", help="a bundled game (e.g. lungarno) or a path")
    d.add_argument("--with", dest="with_", action="append", help="optional modules, comma separated")
    d.add_argument("--players", type=whole_number, default=None,
                   help="only this number of players (default: every number the game allows)")
    d.add_argument("--format", choices=["md", "html"], default="md", help="Markdown (default) or HTML")
    d.add_argument("-o", "--output", metavar="FILE", help="write to FILE instead of stdout")
    d.set_defaults(func=cmd_doc)


def cmd_doc(args) -> int:
    doc = build(args.rules, _split(args.with_), args.players)
    text = to_html(doc) if args.format == "html" else to_markdown(doc)
    if args.output:
        try:
            Path(args.output).write_text(text, encoding="utf-8")
        except OSError as e:
            print(safe(f"regola doc: {args.output}: {e.strerror}"), file=sys.stderr)
            return 1
        return 0
    sys.stdout.write(text)
    return 0


# ------------------------------------------------------------------ building

def build(spec, modules=(), players=None) -> Document:
    """The summary of a game with these modules, for one number of players or (None) all
    it allows. Raises RulesError when the rules do not check, ModuleSelectionError for a
    module the game does not have or cannot take, FileNotFoundError for unknown rules."""
    path, module = _game_of(find_rules(str(spec)))
    src = read_game(path)
    modules = list(modules)
    if module is not None:
        name = next((n for n, m in src.modules.items() if Path(m.path).resolve() == module.resolve()), None)
        if name is not None and not src.modules[name].automatic and name not in modules:
            modules.append(name)
    if players is None:
        lo, hi = player_range(src, select_modules(src, None, modules))
        counts = list(range(lo, hi + 1))
    else:
        counts = [players]
    progs = {}
    for n in counts:
        res = check_rules(path, modules, n)
        if res.errors:
            raise RulesError(res.diagnostics, res.source.sources)
        progs[n] = res.program
    pc = PlayerCounts(progs)
    per_count = {n: Builder(p, src, pc).sections() for n, p in progs.items()}
    sections = merge(per_count, counts)
    main = progs[counts[-1]]
    head = [s for s in (_counts_section(src, progs, pc), _modules_section(src, progs, modules)) if s.blocks]
    sections = head + sections
    sections.append(_cite_index(sections))
    return Document(main.title, _intro(src, main, counts, modules, path), sections)


def _game_of(path: Path):
    """The game a rules file belongs to, as `regola check` reads it: a part or a module file
    stands for its game's directory (a module file: with that module), and so does the one
    game file of a directory; (path to read, module file or None)."""
    if not path.is_file():
        return path, None
    try:
        kind = _file_kind(path.read_text(encoding="utf-8", errors="replace"))
    except OSError:
        return path, None
    if kind == "game" and not _only_game_in(path):
        return path, None
    return path.parent, (path if kind == "module" else None)


def _intro(src, prog, counts, modules, path) -> list:
    lo, hi = src.min_players, src.max_players
    parts = [f"{prog.title} (", Code(prog.name), f"), a game for {counts_text(range(lo, hi + 1))}. "
             f"This summary covers {counts_text(counts)}"]
    parts += [", with the modules " + ", ".join(modules) if modules else ", with no optional module"]
    parts += [". Rules read from ", Code(_shown(path)), "."]
    return [Para(tuple(parts), key="intro"),
            Para(("Every item names the file and line of its declaration and the rulebook section it cites "
                  "(§); the last section lists the items under each section cited. Generated by ",
                  Code("regola doc"), " from the rules files: expressions are shown as written."), key="how")]


def _shown(path) -> str:
    from .doc_model import shown_path
    return shown_path(str(path))


def _counts_section(src, progs: dict, pc: PlayerCounts) -> Section:
    s = Section("player-counts", "Player counts")
    counts = list(progs)
    if len(counts) > 1 or any(m.automatic for m in src.modules.values()):
        rows = []
        for n, p in progs.items():
            auto = [m for m in p.modules if m in src.modules and src.modules[m].automatic]
            rows.append(Row(str(n), ((str(n),), (Code(", ".join(auto)),) if auto else ("—",))))
        s.blocks.append(Table(("players", "modules that apply by themselves"), tuple(rows), key="counts"))
    items = []
    main = progs[counts[-1]]
    for name in main.consts:
        seen = {n: value_text(p.consts[name], p.top[name].type) for n, p in progs.items() if name in p.consts}
        if len(set(seen.values())) > 1:
            items.append(_by_count(Code(name), seen))
    for name, c in main.defs.items():
        if c.params or c.decl.expr is None or not pc.depends(c.decl.expr):
            continue
        vals = pc.values(c.decl.expr)
        if vals is not None:
            items.append(_by_count(Link(f"{name}()", f"def-{name}"), {n: plain_text(v) for n, v in vals.items()}))
    if items:
        s.blocks.append(Para(("What depends on the number of players:",), key="depends-intro"))
        s.blocks.append(Bullets(tuple(items), key="depends"))
    return s


def _by_count(name, values: dict) -> Item:
    return Item((name, " is ", *by_count(values)))


def _modules_section(src, progs: dict, chosen) -> Section:
    s = Section("modules", "Modules")
    rows = []
    for name, m in sorted(src.modules.items(), key=lambda x: x[1].path):
        if m.automatic:
            how = ("applies by itself when ", Code(expr_text(m.applies_when)))
            on = [n for n, p in progs.items() if name in p.modules]
            active = (f"yes, with {counts_text(on)}",) if on else ("no",)
        else:
            how = ("chosen with ", Code(f"--with {name}"))
            active = ("yes",) if name in chosen else ("no: add ", Code(f"--with {name}"))
        extra = []
        if m.requires:
            extra.append(f"requires {', '.join(m.requires)}")
        if m.conflicts:
            extra.append(f"conflicts with {', '.join(m.conflicts)}")
        if m.players is not None:
            extra.append(f"for {m.players[0]}–{m.players[1]} players")
        how = (*how, f" ({'; '.join(extra)})") if extra else how
        rows.append(Row(name, ((Code(name), f" {m.title}" if m.title != name else ""), how, active,
                               (where(m.decl),))))
    if rows:
        s.blocks.append(Table(("module", "how it is chosen", "in play here", "declared"), tuple(rows),
                              key="modules"))
    return s


# ------------------------------------------------------------------ one summary for all counts

def merge(per_count: dict, counts: list) -> list:
    """The sections of every number of players as one: what is the same for all is shown
    once; what differs, or exists only for some, once per group of counts, labelled."""
    out: list = []
    titles: dict = {}
    for n in counts:
        for s in per_count[n]:
            titles.setdefault(s.key, s.title)
    for key, title in titles.items():
        by_count = {n: next((s for s in per_count[n] if s.key == key), Section(key, title)) for n in counts}
        blocks = _merge_keyed({n: [(b.key, b) for b in s.blocks] for n, s in by_count.items()}, counts,
                              _merge_block)
        out.append(Section(key, title, blocks))
    return out


def _merge_keyed(lists: dict, counts: list, merge_one) -> list:
    order: list = []
    for n in counts:
        prev = -1
        for k, _ in lists[n]:
            if k in order:
                prev = order.index(k)
            else:
                order.insert(prev + 1, k)
                prev += 1
    out: list = []
    for k in order:
        have = {n: dict(lists[n])[k] for n in counts if k in dict(lists[n])}
        out.extend(merge_one(have, counts))
    return out


def _merge_block(have: dict, counts: list) -> list:
    first = next(iter(have.values()))
    if isinstance(first, Table) and all(isinstance(b, Table) for b in have.values()):
        rows = _merge_keyed({n: [(r.key, r) for r in (have[n].rows if n in have else ())] for n in counts},
                            counts, _merge_row)
        return [replace(first, rows=tuple(rows))]
    out = []
    for b, ns in _groups(have):
        if len(ns) != len(counts):
            b = labelled(b, f"with {counts_text(ns)}")
            if isinstance(b, Entry) and counts[-1] not in ns:      # the most players keep the anchor
                b = replace(b, anchor=f"{b.anchor}-{slug(counts_text(ns))}")
        out.append(b)
    return out


def _merge_row(have: dict, counts: list) -> list:
    out = []
    for r, ns in _groups(have):
        if len(ns) != len(counts):
            first = (*r.cells[0], f" (with {counts_text(ns)})")
            r = replace(r, cells=(first, *r.cells[1:]))
        out.append(r)
    return out


def _groups(have: dict) -> list:
    groups: list = []
    for n, b in have.items():
        for g in groups:
            if g[0] == b:
                g[1].append(n)
                break
        else:
            groups.append((b, [n]))
    return groups


# ------------------------------------------------------------------ the rulebook's sections

def _cite_index(sections: list) -> Section:
    """Each rulebook section cited, with the items that cite it, in the order first cited."""
    index: dict = {}

    def add(text, piece):
        lst = index.setdefault(text, [])
        if piece not in lst:
            lst.append(piece)

    def link(e: Entry) -> Link:
        title = "".join(p if isinstance(p, str) else getattr(p, "text", "") for p in e.title).strip()
        return Link(title + (f" ({e.label})" if e.label else ""), e.anchor, code=False)

    def visit_entry(e: Entry, sect: Section):
        for c in e.cites:
            add(c.text, link(e))
        for b in e.blocks:
            visit(b, sect, e)

    def visit_items(items, sect, e):
        for it in items:
            for p in it.parts:
                if isinstance(p, Cite) and e is not None:
                    add(p.text, link(e))
            visit_items(it.children, sect, e)

    def visit(b, sect: Section, e):
        if isinstance(b, Entry):
            visit_entry(b, sect)
        elif isinstance(b, Bullets):
            visit_items(b.items, sect, e)
        elif isinstance(b, Table):
            for r in b.rows:
                for cell in r.cells:
                    for p in cell:
                        if isinstance(p, Cite):
                            name = "".join(x if isinstance(x, str) else getattr(x, "text", "") for x in r.cells[0])
                            add(p.text, Link(f"{name} ({sect.title.lower()})", slug(sect.key), code=False))

    for s in sections:
        for b in s.blocks:
            visit(b, s, None)
    out = Section("rulebook", "Rulebook sections cited")
    for text, links in index.items():
        items = tuple(Item((ln,)) for ln in links)
        out.blocks.append(Entry(f"cite:{text}", "cite-" + slug(text), ("§ ", text), None, (), (Bullets(items),)))
    if not index:
        out.blocks.append(Para(("These rules cite no rulebook section.",)))
    return out
