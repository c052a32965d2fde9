"""The reports of `regola coverage`: text, JSON and a self-contained HTML page."""

from __future__ import annotations

import html
import os

# (kind, status) -> the section it is listed in, in the order printed
SECTIONS = [
    ("action", "never", "actions never played"),
    ("require", "never_true", "requires never true"),
    ("require", "never_false", "requires never false"),
    ("require", "never_evaluated", "requires never evaluated"),
    ("trigger", "never", "triggers never fired"),
    ("modifier", "never", "modifiers never applied"),
    ("branch", "never", "branches never ran"),
]
_KEYS = {"action": ("actions", "never_played"), "require": ("requires", None), "trigger": ("triggers", "never_fired"),
         "modifier": ("modifiers", "never_applied"), "branch": ("branches", "never_ran")}
_RANK = {"never": 0, "never_evaluated": 0, "never_true": 1, "never_false": 1, "uncertain": 2, "untraced": 3,
         "covered": 4}
_SAID = {"never": "never ran", "never_evaluated": "never evaluated", "never_true": "never true",
         "never_false": "never false", "uncertain": "not seen (may run compiled inline)",
         "untraced": "not traced (no line of its own)", "covered": "covered"}


def shown_path(path: str) -> str:
    """A path relative to the working directory when it lies under it."""
    try:
        rel = os.path.relpath(path)
    except ValueError:
        return path
    return path if rel.startswith("..") else rel


def _text_of(cov, c) -> str:
    t = (cov.source.sources.line(c.file, c.line) or "").strip()
    return t if len(t) <= 100 else t[:97] + "..."


def _note(c) -> str:
    if c.kind == "require" and c.status() == "never_evaluated" and c.folded:
        return "decided when the rules were compiled; tested only to explain an illegal move"
    return ""


def _item(cov, c) -> dict:
    d = {"kind": c.kind, "label": c.label, "file": shown_path(c.file), "line": c.line,
         "text": _text_of(cov, c), "status": c.status()}
    if _note(c):
        d["note"] = _note(c)
    return d


def _sorted(items):
    return sorted(items, key=lambda c: (c.file, c.line))


def _title(cov, rules) -> list[str]:
    g = cov.game
    mods = ", ".join(g.modules) or "none"
    return [f"Coverage of {g.title} ({rules}), {g.num_players} players, modules: {mods}",
            f"{cov.games} games with {', '.join(cov.bots)} bots from seed {cov.seed}, {cov.moves:,} moves, "
            f"{cov.seconds:.1f} s (traced with {cov.tracer})"]


def text_report(cov, rules: str) -> str:
    out = _title(cov, rules)
    rep = cov.headings
    if rep is not None:
        book = rep.book
        out += ["", f"Rulebook headings ({shown_path(book.path)}): {len(book.headings)} headings, "
                    f"{len(rep.cited)} cited, {len(rep.uncited)} not cited; "
                    f"{len(rep.unmatched)} cite{'s' if len(rep.unmatched) != 1 else ''} naming no heading"]
        out.append("  not cited:" if rep.uncited else "  not cited: (none)")
        for h in rep.uncited:
            out.append(f"    line {h.line}: {'  ' * (h.level - 1)}{h.text}")
        out.append("  cites that name no heading:" if rep.unmatched else "  cites that name no heading: (none)")
        for c, suggestion in rep.unmatched:
            f, line = c.places[0]
            more = f" (and {len(c.places) - 1} more)" if len(c.places) > 1 else ""
            hint = f"; did you mean \"{suggestion}\"?" if suggestion else ""
            out.append(f"    {shown_path(f)}:{line}: cite \"{c.text}\"{more}{hint}")
        out.append("  cited:")
        for h in rep.cited:
            how = "; ".join(sorted({f"\"{t}\" ({w})" for t, w, _ in h.cites})) or "through its sub-headings"
            out.append(f"    line {h.line}: {'  ' * (h.level - 1)}{h.text}  <- {how}")
    for kind, status, title in SECTIONS:
        of = [c for c in cov.items if c.kind == kind]
        hit = _sorted(c for c in of if c.status() == status)
        out += ["", f"{title.capitalize()}: {len(hit)} of {len(of)}"]
        for c in hit:
            note = f"  ({_note(c)})" if _note(c) else ""
            out.append(f"  {shown_path(c.file)}:{c.line}: {_text_of(cov, c)}{note}")
    for status, title in (("uncertain", "Not seen, but may have run compiled inline (a small def or hook "
                                        "is written into its callers, where no line of its own shows it)"),
                          ("untraced", "Not traced: no generated line of their own (an arm that only breaks, "
                                       "passes or emits an event nothing handles)")):
        hit = _sorted(c for c in cov.items if c.status() == status)
        if hit:
            out += ["", f"{title}: {len(hit)}"]
            for c in hit:
                out.append(f"  {shown_path(c.file)}:{c.line}: [{c.kind}] {_text_of(cov, c)}")
    return "\n".join(out)


def as_json(cov, rules: str) -> dict:
    g = cov.game
    d = {"rules": rules, "game": g.name, "title": g.title, "players": g.num_players, "modules": list(g.modules),
         "games": cov.games, "moves": cov.moves, "seed": cov.seed, "bots": cov.bots,
         "seconds": round(cov.seconds, 3), "tracer": cov.tracer}
    rep = cov.headings
    if rep is not None:
        def heading(h):
            return {"line": h.line, "text": h.text, "level": h.level}
        d["headings"] = {
            "rulebook": shown_path(rep.book.path), "count": len(rep.book.headings),
            "cited": [dict(heading(h), cites=[{"text": t, "how": w, "places": [f"{shown_path(f)}:{n}" for f, n in p]}
                                              for t, w, p in h.cites], through_sub_headings=not h.cites)
                      for h in rep.cited],
            "uncited": [heading(h) for h in rep.uncited],
            "unmatched_cites": [{"text": c.text, "places": [f"{shown_path(f)}:{n}" for f, n in c.places],
                                 "suggestion": s or None} for c, s in rep.unmatched]}
    cons = {}
    for kind, (name, key) in _KEYS.items():
        of = [c for c in cov.items if c.kind == kind]
        part = {"total": len(of)}
        statuses = ["never_true", "never_false", "never_evaluated"] if key is None else ["never"]
        for st in statuses:
            part[key or st] = [_item(cov, c) for c in _sorted(c for c in of if c.status() == st)]
        cons[name] = part
    cons["uncertain"] = [_item(cov, c) for c in _sorted(c for c in cov.items if c.status() == "uncertain")]
    cons["untraced"] = [_item(cov, c) for c in _sorted(c for c in cov.items if c.status() == "untraced")]
    d["constructs"] = cons
    return d


# --------------------------------------------------------------------- html

_CSS = """
body { font-family: sans-serif; margin: 1.5em; color: #222; }
h1 { font-size: 1.3em; } h2 { font-size: 1.1em; margin-top: 1.5em; }
table.src { border-collapse: collapse; font-family: monospace; font-size: 13px; width: 100%; }
table.src td { padding: 0 .5em; white-space: pre; vertical-align: top; }
td.n { color: #888; text-align: right; user-select: none; width: 4em; }
td.s { color: #555; font-family: sans-serif; font-size: 12px; white-space: normal; }
tr.covered td.c { background: #dff5df; }
tr.never td.c, tr.never_evaluated td.c { background: #f8d0d0; }
tr.never_true td.c, tr.never_false td.c { background: #fde3bf; }
tr.uncertain td.c { background: #f6f3c4; }
tr.untraced td.c { background: #e6e6e6; }
tr.inside td.c { border-left: 3px solid #e0a0a0; }
span.k { display: inline-block; padding: 0 .4em; margin-right: .5em; }
ul { margin: .3em 0; }
"""


def html_page(cov, rules: str) -> str:
    esc = html.escape
    e = []
    title = _title(cov, rules)
    e.append(f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{esc(title[0])}</title>"
             f"<style>{_CSS}</style></head><body>")
    e.append(f"<h1>{esc(title[0])}</h1><p>{esc(title[1])}</p>")
    e.append("<p>" + " ".join(f"<span class='k' style='background:{bg}'>{esc(_SAID[k])}</span>" for k, bg in
                              (("covered", "#dff5df"), ("never", "#f8d0d0"), ("never_true", "#fde3bf"),
                               ("uncertain", "#f6f3c4"), ("untraced", "#e6e6e6"))) + "</p>")
    e.append("<h2>Summary</h2><ul>")
    for kind, status, what in SECTIONS:
        of = [c for c in cov.items if c.kind == kind]
        n = sum(1 for c in of if c.status() == status)
        e.append(f"<li>{esc(what)}: {n} of {len(of)}</li>")
    e.append("</ul>")
    rep = cov.headings
    if rep is not None:
        e.append(f"<h2>Rulebook headings: {esc(shown_path(rep.book.path))}</h2><ul>")
        for h in rep.book.headings:
            state = "cited" if h.cites else "cited through sub-headings" if h.via_children else "NOT CITED"
            e.append(f"<li style='margin-left:{(h.level - 1) * 1.5}em'>{esc(h.text)} "
                     f"<small>(line {h.line}: {esc(state)})</small></li>")
        e.append("</ul>")
        if rep.unmatched:
            e.append("<p>Cites that name no heading:</p><ul>")
            for c, s in rep.unmatched:
                f, line = c.places[0]
                e.append(f"<li>{esc(shown_path(f))}:{line}: cite &quot;{esc(c.text)}&quot;"
                         + (f" (did you mean &quot;{esc(s)}&quot;?)" if s else "") + "</li>")
            e.append("</ul>")
    marks: dict = {}          # (file, line) -> [(status, text)]
    inside: set = set()
    never = {"action": "never played", "trigger": "never fired", "modifier": "never applied"}
    for c in cov.items:
        st = c.status()
        said = never.get(c.kind, _SAID[st]) if st == "never" else _SAID[st]
        marks.setdefault((c.file, c.line), []).append((st, f"{c.kind} {c.label}: {said}"))
        if st in ("never", "never_evaluated"):
            for _, start, end in c.regions:
                inside.update((c.file, n) for n in range(start[0], end[0] + (end[1] > 1)))
    src = cov.source
    decls = list(src.base.decls) + [d for m in cov.game.modules if m in src.modules for d in src.modules[m].program.decls]
    files = list(dict.fromkeys([d.span.file for d in decls] + [c.file for c in cov.items]))
    files = [f for f in files if f in src.sources.files]
    for f in files:
        e.append(f"<h2>{esc(shown_path(f))}</h2><table class='src'>")
        text = cov.source.sources.files[f]
        for n, line in enumerate(text.splitlines(), 1):
            m = marks.get((f, n), [])
            cls = min((st for st, _ in m), key=_RANK.__getitem__) if m else ""
            if (f, n) in inside:
                cls += " inside"
            said = "; ".join(sorted({t for _, t in m}))
            e.append(f"<tr class='{cls.strip()}'><td class='n'>{n}</td><td class='c'>{esc(line)}</td>"
                     f"<td class='s'>{esc(said)}</td></tr>")
        e.append("</table>")
    e.append("</body></html>")
    return "\n".join(e)
