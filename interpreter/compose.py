"""Compose a game's base file and its selected modules into one program.

A game is a directory (or a single file): the file with the `game` declaration is the
base, every other `.regola` file there is a module. Modules are overlays on the base
program's declarations: they add declarations, `override const`, `replace` a named
declaration, or `extend` one before/after. Every node keeps the span of the file it came
from, so later diagnostics point into the right file.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

from . import ast
from .diagnostics import Diagnostic, RulesError, SourceMap
from .parser import parse
from .limits import MAX_PLAYERS
from .rules_text import TextError, decode, shown_text
from .suggest import did_you_mean


@dataclass
class ModuleInfo:
    name: str
    title: str
    decl: ast.ModuleDecl
    program: ast.Program
    path: str
    applies_when: Optional[ast.Expr] = None
    requires: list[str] = field(default_factory=list)
    conflicts: list[str] = field(default_factory=list)
    players: Optional[tuple[int, int]] = None      # `players 2..5`: the range with this module

    @property
    def automatic(self) -> bool:
        return self.applies_when is not None


@dataclass
class GameSource:
    """Every file of a game, parsed."""
    name: str
    title: str
    min_players: int
    max_players: int
    base: ast.Program
    game_decl: ast.GameDecl
    modules: dict[str, ModuleInfo]
    sources: SourceMap
    paths: list[str]
    warnings: list = field(default_factory=list)


@dataclass
class Composed:
    source: GameSource
    players: Optional[int]
    modules: list[ModuleInfo]
    decls: list[ast.Decl]
    cites: dict[int, str]              # id(decl) -> the top-level cite in force
    origin: dict[int, str]             # id(decl) -> "base" or module name
    diagnostics: list[Diagnostic]


def _files_of(path: Path) -> list[Path]:
    if path.is_dir():
        files = sorted(path.glob("*.regola"))
        if not files:
            raise FileNotFoundError(f"{path}: no .regola files in this directory")
        return files
    return [path]


def read_game(path: Path, overrides: Optional[dict] = None) -> GameSource:
    """Parse every file of a game (cached per file versions: the AST is never mutated, so
    configurations of one game share it). Raises RulesError on syntax errors or a bad layout.
    `overrides` maps a file's resolved path to text read in place of the file's (an editor's
    unsaved buffer)."""
    if overrides:
        return _read_game(path, {str(Path(k).resolve()): v for k, v in overrides.items()})
    files = _files_of(Path(path))
    try:
        stamp = tuple((str(f), f.stat().st_mtime_ns, f.stat().st_size) for f in files)
    except OSError:
        stamp = None
    if stamp is not None and stamp in _READ_CACHE:
        return _READ_CACHE[stamp]
    src = _read_game(path)
    if stamp is not None:
        if len(_READ_CACHE) > 64:
            _READ_CACHE.clear()
        _READ_CACHE[stamp] = src
    return src


_READ_CACHE: dict = {}


def _read_game(path: Path, overrides: Optional[dict] = None) -> GameSource:
    sources = SourceMap()
    diags: list[Diagnostic] = []
    warnings: list[Diagnostic] = []
    programs: list[tuple[str, ast.Program]] = []
    for f in _files_of(Path(path)):
        name = str(f)
        try:
            text = (overrides or {}).get(str(f.resolve()))
            data = f.read_bytes() if text is None else text.encode("utf-8", errors="surrogatepass")
        except OSError as e:
            raise FileNotFoundError(f"{name}: cannot read: {e.strerror}") from None
        try:
            text = decode(data)
        except TextError as e:
            sources.add(name, shown_text(data))
            diags.append(e.diagnostic(name))
            continue
        try:
            programs.append((name, parse(text, name, sources)))
        except RulesError as e:
            diags.extend(e.diagnostics)
    if diags:
        raise RulesError(diags, sources)
    base = None
    parts: list[tuple[str, ast.Program, ast.PartDecl]] = []
    modules: dict[str, ModuleInfo] = {}
    for name, prog in programs:
        games = [d for d in prog.decls if isinstance(d, ast.GameDecl)]
        mods = [d for d in prog.decls if isinstance(d, ast.ModuleDecl)]
        part = [d for d in prog.decls if isinstance(d, ast.PartDecl)]
        if part and not games and not mods:
            parts.append((name, prog, part[0]))
            continue
        if games and mods:
            diags.append(Diagnostic("E010", mods[0].span, "a file declares either a game or a module, not both"))
            continue
        if len(games) > 1 or len(mods) > 1:
            extra = (games or mods)[1]
            diags.append(Diagnostic("E010", extra.span, "a file holds one game or one module declaration",
                                    "put each module in a file of its own"))
            continue
        if games:
            if base is not None:
                diags.append(Diagnostic("E010", games[0].span,
                                        f"a second game declaration (the first is in {base[0]})"))
                continue
            base = (name, prog, games[0])
        elif mods:
            m = _module_info(mods[0], prog, name, diags)
            if m.name in modules:
                diags.append(Diagnostic("E011", mods[0].span, f"module '{m.name}' is declared twice",
                                        notes=[(modules[m.name].decl.span, "first declared here")]))
            modules[m.name] = m
        else:
            span = prog.decls[0].span if prog.decls else ast.Span(file=name, line=1, col=1, end_line=1, end_col=1)
            diags.append(Diagnostic("E010", span, "this file declares neither a game nor a module",
                                    "start it with 'game NAME:', 'module NAME:' or 'part of GAME'"))
    # every module a module requires or conflicts with must exist
    for m in modules.values():
        for item in m.decl.items:
            if isinstance(item, (ast.RequiresModule, ast.ConflictsWith)) and item.name not in modules:
                what = "requires" if isinstance(item, ast.RequiresModule) else "conflicts with"
                d = Diagnostic("E014" if what == "requires" else "W003", item.span,
                               f"module '{m.name}' {what} '{item.name}', but this game has no such module"
                               f"{did_you_mean(item.name, [n for n in modules if n != m.name])}",
                               severity="error" if what == "requires" else "warning")
                (diags if d.is_error else warnings).append(d)
    diags.extend(_requires_cycles(modules))
    if base is None and not diags:
        raise RulesError([Diagnostic("E010", ast.Span(file=str(path), line=1, col=1, end_line=1, end_col=1),
                                     "no file here declares a game", "one file must start with 'game NAME:'")],
                         sources)
    if diags:
        raise RulesError(diags, sources)
    name, prog, gd = base
    for pname, pprog, pdecl in parts:
        if pdecl.game != gd.name and pdecl.game not in modules:
            diags.append(Diagnostic("E010", pdecl.span, f"this file is part of '{pdecl.game}', but the game here "
                                                        f"is '{gd.name}' and no module has that name"
                                                        f"{did_you_mean(pdecl.game, [gd.name, *modules])}"))
    if diags:
        raise RulesError(diags, sources)
    # the parts follow their game or module file, in file-name order: one program each
    for _, pprog, pdecl in sorted(parts, key=lambda x: x[0]):
        if pdecl.game == gd.name:
            prog = ast.Program(span=prog.span, decls=list(prog.decls) + list(pprog.decls))
        else:
            m = modules[pdecl.game]
            m.program = ast.Program(span=m.program.span, decls=list(m.program.decls) + list(pprog.decls))
    title, lo, hi = gd.name, 1, 8
    for item in gd.items:
        if isinstance(item, ast.GameTitle):
            title = item.text
        elif isinstance(item, ast.GamePlayers):
            lo, hi = item.low, item.top
            diags.extend(_player_range_errors(item))
    if diags:
        raise RulesError(diags, sources)
    return GameSource(gd.name, title, lo, hi, prog, gd, modules, sources, [n for n, _ in programs], warnings)


def _module_info(decl: ast.ModuleDecl, prog: ast.Program, path: str, diags) -> ModuleInfo:
    m = ModuleInfo(decl.name, decl.name, decl, prog, path)
    for item in decl.items:
        if isinstance(item, ast.GameTitle):
            m.title = item.text
        elif isinstance(item, ast.AppliesWhen):
            m.applies_when = item.cond
        elif isinstance(item, ast.RequiresModule):
            m.requires.append(item.name)
        elif isinstance(item, ast.ConflictsWith):
            m.conflicts.append(item.name)
        elif isinstance(item, ast.GamePlayers):
            m.players = (item.low, item.top)
            diags.extend(_player_range_errors(item))
    return m


def _player_range_errors(item: ast.GamePlayers) -> list[Diagnostic]:
    lo, hi = item.low, item.top
    if lo < 1:
        return [Diagnostic("E017", item.span, f"a game needs at least 1 player, not {lo}")]
    if lo > hi:
        return [Diagnostic("E017", item.span, f"'players {lo}..{hi}' is an empty range",
                           f"write the smaller number first: players {hi}..{lo}")]
    if hi > MAX_PLAYERS:
        return [Diagnostic("E017", item.span, f"at most {MAX_PLAYERS} players, not {hi}")]
    return []


def player_range(src: "GameSource", modules: list[ModuleInfo]) -> tuple[int, int]:
    """The numbers of players the game allows with these modules: a module that gives its own
    range (`players 2..5`) sets it; several such modules allow what they all allow."""
    lo, hi = src.min_players, src.max_players
    ranges = [m.players for m in modules if m.players is not None]
    if ranges:
        lo, hi = max(r[0] for r in ranges), min(r[1] for r in ranges)
    return lo, hi


def select_modules(src: GameSource, players: Optional[int], requested: list[str]) -> list[ModuleInfo]:
    """Automatic modules whose condition holds, plus the requested ones, dependencies first."""
    diags: list[Diagnostic] = []
    chosen: list[str] = []
    for name in requested:
        if name not in src.modules:
            # accept the file-style spelling (two-player) for two_player
            alt = name.replace("-", "_")
            if alt in src.modules:
                name = alt
            else:
                known = sorted(src.modules)
                raise ModuleSelectionError(
                    f"{src.name} has no module '{name}'{did_you_mean(name, known)}"
                    f" (modules: {', '.join(known) or 'none'})")
        m = src.modules[name]
        if m.automatic:
            raise ModuleSelectionError(f"module '{name}' is not chosen with --with: it applies automatically "
                                       f"when its condition holds ({_cond_text(m)})")
        if name not in chosen:
            chosen.append(name)
    for name, m in sorted(src.modules.items()):
        if m.automatic and players is not None and _eval_applies(m.applies_when, players, diags):
            chosen.append(name)
    if diags:
        raise RulesError(diags, src.sources)
    for name in chosen:
        for req in src.modules[name].requires:
            if req not in src.modules:
                raise ModuleSelectionError(f"module '{name}' requires '{req}', which this game does not have")
            if req not in chosen:
                raise ModuleSelectionError(f"module '{name}' requires module '{req}': add --with {req}")
    for i, a in enumerate(chosen):
        for b in chosen[i + 1:]:
            ma, mb = src.modules[a], src.modules[b]
            if b in ma.conflicts or a in mb.conflicts:
                owner, other = (ma, b) if b in ma.conflicts else (mb, a)
                item = next(x for x in owner.decl.items if isinstance(x, ast.ConflictsWith) and x.name == other)
                raise RulesError([Diagnostic("E015", item.span, f"modules '{a}' and '{b}' cannot be used together",
                                             "choose one of them")], src.sources)
    # dependencies first, otherwise in file order
    order: list[str] = []
    for root in sorted(chosen, key=lambda n: src.modules[n].path):
        stack = [(root, iter(src.modules[root].requires))]      # (no recursion: many modules)
        while stack:
            n, reqs = stack[-1]
            r = next(reqs, None)
            if r is None:
                stack.pop()
                if n not in order:
                    order.append(n)
            elif r not in order and all(r != x for x, _ in stack):
                stack.append((r, iter(src.modules[r].requires)))
    return [src.modules[n] for n in order]


def _requires_cycles(modules: dict[str, ModuleInfo]) -> list[Diagnostic]:
    """A module that requires itself, through any chain of `requires`, is an error at the
    `requires` that closes the circle."""
    out, done = [], set()
    for root in sorted(modules):
        if root in done:
            continue
        path, on_path = [(root, _requires_items(modules[root]))], {root}
        while path:
            name, items = path[-1]
            item = next(items, None)
            if item is None:
                path.pop()
                on_path.discard(name)
                done.add(name)
                continue
            req = item.name
            if req in on_path:
                circle = [n for n, _ in path][[n for n, _ in path].index(req):] + [req]
                out.append(Diagnostic("E016", item.span, "modules require each other in a circle: "
                                      + " -> ".join(circle), "one of them must not require the other"))
            elif req in modules and req not in done:
                path.append((req, _requires_items(modules[req])))
                on_path.add(req)
    return out


def _requires_items(m: ModuleInfo):
    return iter([x for x in m.decl.items if isinstance(x, ast.RequiresModule)])


class ModuleSelectionError(Exception):
    pass


def _cond_text(m: ModuleInfo) -> str:
    line = m.applies_when.span.line
    return f"{m.path}:{line}"


def _eval_applies(e: ast.Expr, players: int, diags) -> bool:
    """`applies when` conditions may use `players`, numbers, comparisons and and/or/not."""
    def ev(x):
        if isinstance(x, ast.IntLit):
            return x.value
        if isinstance(x, ast.BoolLit):
            return x.value
        if isinstance(x, ast.Name) and x.name == "players":
            return players
        if isinstance(x, ast.ListLit):
            return [ev(i) for i in x.items]
        if isinstance(x, ast.NotOp):
            return not ev(x.operand)
        if isinstance(x, ast.BoolOp):
            return (ev(x.left) and ev(x.right)) if x.op == "and" else (ev(x.left) or ev(x.right))
        if isinstance(x, ast.Compare):
            a, b = ev(x.left), ev(x.right)
            return {"==": a == b, "!=": a != b, "<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b,
                    "in": a in b if isinstance(b, list) else False,
                    "not in": a not in b if isinstance(b, list) else True}[x.op]
        raise _NotStatic(x)
    try:
        return bool(ev(e))
    except _NotStatic as ns:
        diags.append(Diagnostic("E012", ns.node.span, "an 'applies when' condition may only use 'players', "
                                "numbers, comparisons, 'and', 'or' and 'not'"))
        return False


class _NotStatic(Exception):
    def __init__(self, node):
        self.node = node


_SINGLETONS = {ast.SetupDecl: "setup", ast.FlowDecl: "flow", ast.OnEndDecl: "on game end",
               ast.ScoreDecl: "score", ast.TiebreakDecl: "tiebreak"}


def _decl_key(d: ast.Decl):
    if type(d) in _SINGLETONS:
        return _SINGLETONS[type(d)]
    if isinstance(d, (ast.ActionDecl, ast.ProcedureDecl, ast.DefDecl)):
        return d.name
    return None


def compose(src: GameSource, modules: list[ModuleInfo], players: Optional[int], options: tuple = ()) -> Composed:
    """The declarations of the base game and the chosen modules in one program; `options`,
    (name, text) pairs (interpreter/options.py), replace the defaults of game options."""
    diags: list[Diagnostic] = []
    decls: list[ast.Decl] = []
    cites: dict[int, str] = {}
    origin: dict[int, str] = {}

    def add_file(prog: ast.Program, who: str):
        cite = None
        for d in prog.decls:
            if isinstance(d, ast.TopCite):
                cite = d.text
                continue
            if isinstance(d, (ast.GameDecl, ast.ModuleDecl, ast.PartDecl)):
                if isinstance(d, ast.PartDecl):
                    cite = None           # a new file: its own citations
                continue
            if cite:
                cites[id(d)] = cite
            origin[id(d)] = who
            yield d

    def target_of(d, cls, what: str):
        """The index of the declaration an `extend enum/record` names, or None (reported)."""
        idx = next((i for i, x in enumerate(decls) if isinstance(x, cls) and x.name == d.name), None)
        if idx is None:
            names = [x.name for x in decls if isinstance(x, cls)]
            diags.append(Diagnostic("E013", d.span, f"there is no {what} '{d.name}' to extend"
                                    f"{did_you_mean(d.name, names)}"))
        return idx

    def replace_with(idx, update: dict, who: str):
        old = decls[idx]
        new = old.model_copy(update=update)
        cites[id(new)] = cites.get(id(old), "")
        origin[id(new)] = origin.get(id(old), who)
        decls[idx] = new

    def extend_enum(d: ast.ExtendEnum, who: str):
        idx = target_of(d, ast.EnumDecl, "enum")
        if idx is None:
            return
        old = decls[idx]
        twice = [v for v in d.values if v in old.values]
        if twice:
            diags.append(Diagnostic("E102", d.span, f"'{twice[0]}' is already a value of {d.name}"))
            return
        replace_with(idx, {"values": old.values + d.values}, who)

    def extend_record(d: ast.ExtendRecord, who: str):
        idx = target_of(d, ast.RecordDecl, "record")
        if idx is None:
            return
        old = decls[idx]
        have = {f.name for f in old.fields}
        for f in d.fields:
            if f.name in have:
                diags.append(Diagnostic("E102", f.span, f"record {d.name} already has a field '{f.name}'"))
                return
            if f.default is None:
                diags.append(Diagnostic("E013", f.span, f"a field added to {d.name} needs a default value "
                                                        f"for the components that do not give it",
                                        f"write {f.name}: ... = VALUE"))
                return
        replace_with(idx, {"fields": old.fields + d.fields}, who)

    def extension(d, who) -> bool:
        if isinstance(d, ast.ExtendEnum):
            extend_enum(d, who)
        elif isinstance(d, ast.ExtendRecord):
            extend_record(d, who)
        else:
            return False
        return True

    for d in add_file(src.base, "base"):
        if not extension(d, "base"):
            decls.append(d)
    for m in modules:
        for d in add_file(m.program, m.name):
            if extension(d, m.name):
                pass
            elif isinstance(d, ast.OverrideConst):
                idx = next((i for i, x in enumerate(decls) if isinstance(x, ast.ConstDecl) and x.name == d.name), None)
                if idx is None:
                    consts = [x.name for x in decls if isinstance(x, ast.ConstDecl)]
                    diags.append(Diagnostic("E013", d.span, f"there is no constant '{d.name}' to override"
                                            f"{did_you_mean(d.name, consts)}"))
                    continue
                old = decls[idx]
                if isinstance(old, ast.OptionDecl):      # a module's own default; still an option
                    new = old.model_copy(update={"value": d.value, "span": d.span})
                else:
                    new = ast.ConstDecl(span=d.span, name=d.name, value=d.value)
                cites[id(new)] = cites.get(id(d), cites.get(id(decls[idx]), ""))
                origin[id(new)] = m.name
                decls[idx] = new
            elif isinstance(d, ast.ReplaceDecl):
                key = _decl_key(d.decl)
                idx = next((i for i, x in enumerate(decls) if type(x) is type(d.decl) and _decl_key(x) == key), None)
                if idx is None:
                    diags.append(Diagnostic("E013", d.span, f"there is no {d.decl.kind.replace('_decl', '')} "
                                            f"'{key}' to replace"))
                    continue
                cites[id(d.decl)] = cites.get(id(d), "")
                origin[id(d.decl)] = m.name
                decls[idx] = d.decl
            elif isinstance(d, ast.ExtendActions):
                idx = next((i for i, x in enumerate(decls) if isinstance(x, ast.ActionsDecl) and x.name == d.name),
                           None)
                if idx is None:
                    groups = [x.name for x in decls if isinstance(x, ast.ActionsDecl)]
                    diags.append(Diagnostic("E013", d.span, f"there is no group of actions '{d.name}' to extend"
                                            f"{did_you_mean(d.name, groups)}"))
                    continue
                old = decls[idx]
                new = old.model_copy(update={"actions": old.actions + [a for a in d.actions if a not in old.actions]})
                cites[id(new)] = cites.get(id(old), "")
                origin[id(new)] = origin.get(id(old), "base")
                decls[idx] = new
            elif isinstance(d, ast.ExtendDecl):
                target = d.target
                idx = next((i for i, x in enumerate(decls)
                            if _decl_key(x) == target and isinstance(x, (ast.ActionDecl, ast.ProcedureDecl,
                                                                          ast.SetupDecl, ast.FlowDecl,
                                                                          ast.OnEndDecl))), None)
                if idx is None:
                    names = [_decl_key(x) for x in decls if _decl_key(x)]
                    diags.append(Diagnostic("E013", d.span, f"there is no procedure, action, setup or flow "
                                            f"'{target}' to extend{did_you_mean(target, names)}"))
                    continue
                old = decls[idx]
                if d.place == "before" and isinstance(old, ast.ActionDecl):
                    # before the effects: legality (require, cost) stays first
                    k = 0
                    while k < len(old.body) and isinstance(old.body[k], (ast.RequireStmt, ast.CostStmt,
                                                                          ast.CiteStmt)):
                        k += 1
                    body = old.body[:k] + d.body + old.body[k:]
                else:
                    body = (d.body + old.body) if d.place == "before" else (old.body + d.body)
                new = old.model_copy(update={"body": body})
                cites[id(new)] = cites.get(id(old), "")
                origin[id(new)] = origin.get(id(old), "base")
                decls[idx] = new
            else:
                decls.append(d)
    from .holds import holds_defs
    for h in holds_defs(decls):             # `holds c where ...` on zones: pure functions
        origin[id(h)] = "base"
        decls.append(h)
    if options:
        from .options import apply_options
        before = {i: d for i, d in enumerate(decls)}
        decls = apply_options(decls, options, src.sources, src.title)
        for i, d in enumerate(decls):
            if d is not before[i]:
                cites[id(d)] = cites.get(id(before[i]), "")
                origin[id(d)] = origin.get(id(before[i]), "base")
    return Composed(src, players, modules, decls, cites, origin, diags + list(src.warnings))
