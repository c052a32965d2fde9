"""Rulebook headings, and which of them the rules cite (`regola coverage`, part 1).

A rulebook is plain text. Its headings are found by their shape, not by one format:

* a table of contents (a line `Table of Contents` or `Contents` followed by bullet lines)
  names headings and gives their levels by indentation; each entry is then found in the
  body (its first stand-alone line after the table);
* a numbered heading: `6. USING SUMS`, `2. Actions (page 4)`, `1.2 Setup` (a number, then
  a title of the heading shape below); a numbered line that is a sentence (`1. Place the
  board in the middle.`, `6.3 The player chooses ...`) is a list item or a numbered
  paragraph: not a heading, but a cite may name it by its number;
* an unnumbered heading: a line of at most 8 words and 60 characters, not indented, not a
  bullet, with every significant word capitalised (or all in capitals), no sentence
  punctuation (a trailing `:` and parentheses are allowed: `Set-Up (page 2):`), no tab or
  column gap, no ` - ` between parts (`Bramante - 4 Purple cards`), not a note
  (`Note:`, `See Figure 1:`), and not in the middle of a wrapped paragraph.

The first non-blank line is the document's title, not a heading.

Cites are matched to headings in this order: exactly (the heading as written, or its title
without its number); normalised (case, punctuation, parentheses and leading numbers
ignored); by number (`5. A Turn` is section 5 when the titles agree; `6.3 Using Sums` and
`7.1 Guard` name paragraphs 6.3 and 7.1, so sections 6 and 7); as a path `A: B` (heading B
under or after a heading A; both are cited). A heading none of whose cites match but one of
whose sub-headings is cited counts as cited through its sub-headings.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

_SMALL = {"a", "an", "and", "as", "at", "by", "de", "del", "della", "di", "for", "from", "il",
          "in", "into", "la", "le", "of", "on", "or", "per", "the", "to", "vs", "with", "&", "+"}
_NOTES = {"see", "note", "notes", "example", "examples", "important", "figure", "tip", "e.g", "i.e"}
_BULLET = re.compile(r"^(?:[•●▪◦‣∙·*]|-(?!-)|o(?=\s))\s*")
_NUMBERED = re.compile(r"^(\d+(?:\.\d+)*)(?:[.)]\s*|\s+)(?=\S)(.*)$")
_RULE_LINE = re.compile(r"^\s*([=\-_*#~])\1{4,}\s*$")
_PAREN = re.compile(r"\([^()]*\)")
_CONTENTS = re.compile(r"^(?:table of )?contents:?$", re.I)
_DASHES = (" - ", " – ", " — ", " -- ")


@dataclass
class Heading:
    text: str                 # the line as written (stripped)
    title: str                # without its number and a trailing colon
    line: int                 # 1-based line in the rulebook
    number: Optional[str]     # "6" for `6. USING SUMS`
    level: int
    parent: Optional[int] = None          # index of the enclosing heading
    cites: list = field(default_factory=list)   # (cite text, how, [places])
    via_children: bool = False

    @property
    def cited(self) -> bool:
        return bool(self.cites) or self.via_children


@dataclass
class Rulebook:
    path: str
    headings: list[Heading]
    paragraphs: dict[str, int]    # numbered paragraph (`6.3`) -> line
    lines: list[str]


def normalise(text: str) -> str:
    """For matching: parentheses dropped, leading numbers dropped, `&` as `and`, lower case,
    only letters and digits kept, one space between words."""
    t = _PAREN.sub(" ", text)
    t = re.sub(r"^\s*(?:\d+(?:\.\d+)*|[ivx]+)[.)]?\s+", "", t, flags=re.I)
    t = t.replace("&", " and ").lower()
    t = re.sub(r"[^\w]+", " ", t)
    return " ".join(t.split())


def _heading_shape(title: str) -> bool:
    """Whether text (without its number) reads as a heading: short, capitalised words, no
    sentence punctuation."""
    t = title.strip()
    if not t or "\t" in t or "  " in t or any(d in t for d in _DASHES):
        return False
    if t.endswith(":"):
        t = t[:-1].rstrip()
    bare = " ".join(_PAREN.sub(" ", t).split())
    if len(bare) > 60 or re.search(r"[.,;!?\"“”]", bare) or bare.count("(") or bare.count(")"):
        return False
    words = bare.split()
    if not words or len(words) > 8:
        return False
    first = words[0].lower().rstrip(":")
    if first in _NOTES or not (words[0][0].isupper() or words[0][0].isdigit()):
        return False
    if bare.upper() == bare and any(c.isalpha() for c in bare):
        return True                                     # ALL CAPS
    for w in words:
        core = w.strip(":'’")
        if not core or core.lower() in _SMALL or not any(c.isalpha() for c in core):
            continue
        if re.fullmatch(r"[IVXLC]+|\d+\w*", core):     # roman numerals, numbers
            continue
        if not core[0].isupper():
            return False
    return True


def _title_of(text: str) -> tuple[Optional[str], str]:
    """(number, title) of a heading line: `6. USING SUMS` -> ("6", "USING SUMS")."""
    m = _NUMBERED.match(text)
    number, title = (m.group(1), m.group(2)) if m else (None, text)
    title = title.strip()
    if title.endswith(":"):
        title = title[:-1].rstrip()
    return number, title


def _contents(lines: list[str]) -> tuple[list[tuple[str, int]], set[int]]:
    """The table of contents: (entry, indent) in order, and the line indices it takes."""
    entries, taken = [], set()
    for i, raw in enumerate(lines):
        if not _CONTENTS.match(raw.strip()):
            continue
        taken.add(i)
        j = i + 1
        while j < len(lines):
            s = lines[j].strip()
            if not s or _CONTENTS.match(s):
                taken.add(j)
                j += 1
                continue
            m = _BULLET.match(s)
            if not m:
                break
            indent = len(lines[j]) - len(lines[j].lstrip())
            entries.append((s[m.end():].strip(), indent))
            taken.add(j)
            j += 1
        if entries:
            return entries, taken
        taken.clear()
    return [], set()


def extract(text: str, path: str = "") -> Rulebook:
    """The headings of a rulebook's text (see the module's doc for the shapes)."""
    lines = text.splitlines()
    toc, toc_lines = _contents(lines)
    first = next((i for i, x in enumerate(lines) if x.strip()), None)
    found: list[Heading] = []
    paragraphs: dict[str, int] = {}
    prev_heading = False
    for i, raw in enumerate(lines):
        s = raw.strip()
        if i == first or i in toc_lines or not s or _RULE_LINE.match(raw):
            prev_heading = prev_heading and not s
            continue
        m = _NUMBERED.match(s)
        if m and "." in m.group(1) and not raw[:1].isspace():
            paragraphs.setdefault(m.group(1), i + 1)
        ok = (not raw[:1].isspace() and not _BULLET.match(s) and _heading_shape(m.group(2) if m else s)
              and _standalone(lines, i, prev_heading))
        if ok:
            number, title = _title_of(s)
            level = number.count(".") + 1 if number else 1
            found.append(Heading(s, title, i + 1, number, level))
        prev_heading = ok
    headings = _with_contents(found, toc, lines, toc_lines) if toc else found
    for k, h in enumerate(headings):
        for j in range(k - 1, -1, -1):
            if headings[j].level < h.level:
                h.parent = j
                break
    return Rulebook(path, headings, paragraphs, lines)


def _standalone(lines: list[str], i: int, prev_heading: bool) -> bool:
    """Not a piece of a wrapped paragraph: the line before ends a sentence (or is blank or a
    heading) and the line after does not carry on in lower case."""
    before = lines[i - 1].strip() if i > 0 else ""
    after = lines[i + 1].strip() if i + 1 < len(lines) else ""
    if before and not prev_heading and not re.search(r"[.!?:)]$", before) and not _RULE_LINE.match(lines[i - 1]):
        return False
    return not (after and after[0].islower() and not _BULLET.match(after))


def _with_contents(found: list[Heading], toc, lines, toc_lines) -> list[Heading]:
    """Headings from a table of contents, each at its first stand-alone line in the body
    (after the table), levels by indentation; the body's other headings sit one level under
    the entry before them."""
    indents = sorted({ind for _, ind in toc})
    after = max(toc_lines) + 1 if toc_lines else 0
    shaped = {h.line: normalise(h.title) for h in found}
    used: set[int] = set()
    placed: list[Heading] = []
    start = after
    for title, ind in toc:
        level = indents.index(ind) + 1
        line = None
        for j in range(start, len(lines)):
            if j + 1 not in used and (lines[j].strip() == title or shaped.get(j + 1) == normalise(title)):
                line = j + 1
                break
        if line is None:        # listed, but not found as a line of its own: keep the entry
            placed.append(Heading(title, _title_of(title)[1], 0, _title_of(title)[0], level))
            continue
        used.add(line)
        start = line
        text = lines[line - 1].strip()
        number, t = _title_of(text)
        placed.append(Heading(text, t, line, number, level))
    extra = []
    for h in found:
        if h.line in used:
            continue
        before = [p for p in placed if 0 < p.line < h.line]
        h.level = max(before, key=lambda p: p.line).level + 1 if before else 1
        extra.append(h)
    return sorted(placed + extra, key=lambda h: (h.line == 0, h.line))


def read_rulebook(path) -> Rulebook:
    """The headings of a rulebook file (UTF-8; undecodable bytes replaced)."""
    p = Path(path)
    return extract(p.read_bytes().decode("utf-8", errors="replace"), str(path))


# --------------------------------------------------------------------- cites

@dataclass
class Cite:
    text: str
    places: list          # (file, line)


def collect_cites(programs) -> list[Cite]:
    """Every `cite "..."` (top-level and in bodies) of the given parsed programs, by text,
    in the order first seen."""
    from regola import ast
    by_text: dict[str, Cite] = {}
    for prog in programs:
        for n in prog.walk():
            if isinstance(n, (ast.TopCite, ast.CiteStmt)):
                c = by_text.setdefault(n.text, Cite(n.text, []))
                c.places.append((n.span.file, n.span.line))
    return list(by_text.values())


def _find(book: Rulebook, text: str) -> tuple[list[int], str]:
    """Indices of the headings `text` names, exactly or once normalised (every heading of
    that title: a rulebook may repeat one), and how ("exact" when any is exact)."""
    t = text.strip().rstrip(":").strip()
    exact = [k for k, h in enumerate(book.headings) if t in (h.text.rstrip(":").strip(), h.title)]
    n = normalise(t)
    hit = [k for k, h in enumerate(book.headings) if k in exact or (n and normalise(h.title) == n)]
    return hit, ("exact" if exact else "normalised" if hit else "")


def match_cite(book: Rulebook, text: str) -> tuple[list[int], str]:
    """The headings a cite names, and how it was matched ("" and [] when it names none)."""
    hit, how = _find(book, text)
    if hit:
        return hit, how
    m = _NUMBERED.match(text.strip())
    if m:
        number, title = m.group(1), normalise(m.group(2))
        for k, h in enumerate(book.headings):
            if h.number == number and _agrees(title, normalise(h.title)):
                return [k], "number"
        if number in book.paragraphs:
            section = number.rsplit(".", 1)[0]
            para = normalise(book.lines[book.paragraphs[number] - 1].strip())
            for k, h in enumerate(book.headings):
                if h.number == section and (_agrees(title, normalise(h.title)) or para.startswith(title)):
                    return [k], f"paragraph {number}"
    if ":" in text:
        parts = [p.strip() for p in text.split(":") if p.strip()]
        for cut in range(len(parts) - 1, 0, -1):
            head, tail = ":".join(parts[:cut]), ":".join(parts[cut:])
            lasts, _ = _find(book, tail)
            firsts, _ = _find(book, head)
            best = None
            for k in lasts:
                before = [f for f in firsts if book.headings[f].line < book.headings[k].line]
                if before and (best is None or book.headings[k].line - book.headings[before[-1]].line
                               < book.headings[best[1]].line - book.headings[best[0]].line):
                    best = (before[-1], k)
            if best is not None:
                return list(best), "path"
    return [], ""


def _agrees(cite_title: str, heading_title: str) -> bool:
    return not cite_title or heading_title.startswith(cite_title) or cite_title.startswith(heading_title)


@dataclass
class HeadingReport:
    book: Rulebook
    unmatched: list = field(default_factory=list)     # (Cite, suggestion or "")

    @property
    def cited(self) -> list[Heading]:
        return [h for h in self.book.headings if h.cited]

    @property
    def uncited(self) -> list[Heading]:
        return [h for h in self.book.headings if not h.cited]


def match_all(book: Rulebook, cites: list[Cite]) -> HeadingReport:
    """Every cite matched to the rulebook's headings; parents of cited headings marked."""
    rep = HeadingReport(book)
    for c in cites:
        hit, how = match_cite(book, c.text)
        if not hit:
            titles = [h.title for h in book.headings]
            close = difflib.get_close_matches(c.text, titles, n=1, cutoff=0.6)
            rep.unmatched.append((c, close[0] if close else ""))
            continue
        for k in hit:
            book.headings[k].cites.append((c.text, how, c.places))
    for h in book.headings:
        if h.cites:
            p = h.parent
            while p is not None and not book.headings[p].via_children:
                book.headings[p].via_children = True
                p = book.headings[p].parent
    return rep
