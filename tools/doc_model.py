"""The rules summary as data (sections of titled entries, lists, tables, inline pieces) and
its two writers, Markdown and a self-contained HTML page.

Text that comes from a rules file (titles, messages, prompts, citations, expressions) is
only ever placed through the writers, which escape it for what they write: Markdown's
punctuation, HTML's `<`, `&` and quotes.
"""

from __future__ import annotations

import html
import os
import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Union

# ------------------------------------------------------------------ inline pieces
# A line of text is a tuple of pieces: plain `str`, or one of the classes below.


@dataclass(frozen=True)
class Code:
    """Rules text as written (an expression, a name, a type)."""
    text: str


@dataclass(frozen=True)
class Quote:
    """A string of the rules (a require's message, a prompt), shown in quotes."""
    text: str


@dataclass(frozen=True)
class Strong:
    text: str


@dataclass(frozen=True)
class Where:
    """The place of a declaration or statement: `file:line`."""
    file: str
    line: int

    @property
    def shown(self) -> str:
        return f"{shown_path(self.file)}:{self.line}"


@dataclass(frozen=True)
class Cite:
    """A rulebook section the rules cite (`cite "..."`)."""
    text: str


@dataclass(frozen=True)
class Link:
    """A name that points to its entry in the summary."""
    text: str
    anchor: str
    code: bool = True


Piece = Union[str, Code, Quote, Strong, Where, Cite, Link]


def shown_path(file: str) -> str:
    """A rules file's path as shown: relative to the working directory when it lies below it."""
    try:
        p = Path(file).resolve()
        rel = p.relative_to(Path(os.getcwd()).resolve())
        return rel.as_posix()
    except (ValueError, OSError):
        return file


# ------------------------------------------------------------------ blocks

@dataclass(frozen=True)
class Item:
    """One line of a list, with the lines nested under it."""
    parts: tuple
    children: tuple = ()


@dataclass(frozen=True)
class Para:
    parts: tuple
    key: str = ""
    label: str = ""            # "with 2 players": shown when the block holds only for some counts


@dataclass(frozen=True)
class Bullets:
    items: tuple
    key: str = ""
    label: str = ""


@dataclass(frozen=True)
class Row:
    key: str
    cells: tuple                # a tuple of pieces per column


@dataclass(frozen=True)
class Table:
    head: tuple
    rows: tuple
    key: str = ""
    title: str = ""             # shown before the table
    label: str = ""


@dataclass(frozen=True)
class Entry:
    """A declaration: its heading, where it is, the rulebook sections it cites, its blocks."""
    key: str
    anchor: str
    title: tuple
    where: Where | None = None
    cites: tuple = ()
    blocks: tuple = ()
    label: str = ""


Block = Union[Para, Bullets, Table, Entry]


@dataclass
class Section:
    key: str
    title: str
    blocks: list = field(default_factory=list)


@dataclass
class Document:
    title: str
    intro: list                 # blocks before the first section
    sections: list


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "x"


def labelled(block: Block, label: str) -> Block:
    return replace(block, label=label)


# ------------------------------------------------------------------ Markdown

# Markdown's punctuation in text from the rules: escaped where it could mean something (an
# underscore inside a word, as in tower_house, cannot, and stays as it is)
_MD_SPECIAL = re.compile(r"[\\`*\[\]<|#]|^>|(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])")


def _md_text(s: str) -> str:
    return _MD_SPECIAL.sub(lambda m: "\\" + m.group(), " ".join(s.split("\n")))


def _md_code(s: str) -> str:
    s = " ".join(s.split("\n"))
    longest = max((len(m) for m in re.findall(r"`+", s)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if s.startswith("`") or s.endswith("`") else ""
    return f"{fence}{pad}{s}{pad}{fence}"


def _md_piece(p, cell: bool = False) -> str:
    if isinstance(p, str):
        return _md_text(p)
    if cell and isinstance(p, (Code, Where, Link)):      # a table's cell ends at any '|'
        return _md_piece(p).replace("|", "\\|")
    if isinstance(p, Code):
        return _md_code(p.text)
    if isinstance(p, Quote):
        return "“" + _md_text(p.text) + "”"
    if isinstance(p, Strong):
        return f"**{_md_text(p.text)}**"
    if isinstance(p, Where):
        return _md_code(p.shown)
    if isinstance(p, Cite):
        return f"[§ {_md_text(p.text)}](#{_cite_anchor(p.text)})"
    if isinstance(p, Link):
        return f"[{_md_code(p.text) if p.code else _md_text(p.text)}](#{p.anchor})"
    raise TypeError(p)


def _md_line(parts, cell: bool = False) -> str:
    return "".join(_md_piece(p, cell) for p in parts)


def _md_items(items, depth: int, out: list):
    for it in items:
        out.append("  " * depth + "- " + _md_line(it.parts))
        _md_items(it.children, depth + 1, out)


def _md_block(b: Block, out: list, level: int):
    if b.label and not isinstance(b, Entry):
        out += [f"*{_md_text(b.label[0].upper() + b.label[1:])}:*", ""]
    if isinstance(b, Para):
        out += [_md_line(b.parts), ""]
    elif isinstance(b, Bullets):
        _md_items(b.items, 0, out)
        out.append("")
    elif isinstance(b, Table):
        if b.title:
            out += [f"**{_md_text(b.title)}**", ""]
        out.append("| " + " | ".join(_md_text(h) for h in b.head) + " |")
        out.append("|" + "---|" * len(b.head))
        for r in b.rows:
            out.append("| " + " | ".join(_md_line(c, cell=True) for c in r.cells) + " |")
        out.append("")
    elif isinstance(b, Entry):
        out.append(f'<a id="{b.anchor}"></a>')
        out += ["#" * level + " " + _md_line(_titled(b)), ""]
        if _meta(b):
            out += [_md_line(_meta(b)), ""]
        for x in b.blocks:
            _md_block(x, out, level + 1)


def _titled(e: Entry) -> tuple:
    """An entry's title, with the player counts it holds for when not all."""
    return (*e.title, f" ({e.label})") if e.label else e.title


def _meta(e: Entry) -> tuple:
    parts: list = []
    if e.where is not None:
        parts += ["Declared at ", e.where]
    if e.cites:
        parts += ["; rulebook: " if parts else "Rulebook: "]
        for i, c in enumerate(e.cites):
            parts += [", "] if i else []
            parts.append(c)
    return tuple(parts)


def _cite_anchor(text: str) -> str:
    return "cite-" + slug(text)


def to_markdown(doc: Document) -> str:
    out = [f"# {_md_text(doc.title)}", ""]
    for b in doc.intro:
        _md_block(b, out, 3)
    for s in doc.sections:
        out += [f'<a id="{slug(s.key)}"></a>', f"## {_md_text(s.title)}", ""]
        for b in s.blocks:
            _md_block(b, out, 3)
    return "\n".join(out).rstrip() + "\n"


# ------------------------------------------------------------------ HTML

def _h(s: str) -> str:
    return html.escape(s, quote=True)


def _html_piece(p) -> str:
    if isinstance(p, str):
        return _h(p)
    if isinstance(p, Code):
        return f"<code>{_h(p.text)}</code>"
    if isinstance(p, Quote):
        return f'<q class="rules">{_h(p.text)}</q>'
    if isinstance(p, Strong):
        return f"<strong>{_h(p.text)}</strong>"
    if isinstance(p, Where):
        try:
            uri = Path(p.file).resolve().as_uri() + f"#L{p.line}"
        except ValueError:
            uri = f"#L{p.line}"
        return f'<a class="where" href="{_h(uri)}">{_h(p.shown)}</a>'
    if isinstance(p, Cite):
        return f'<a class="cite" href="#{_cite_anchor(p.text)}">§ {_h(p.text)}</a>'
    if isinstance(p, Link):
        text = f"<code>{_h(p.text)}</code>" if p.code else _h(p.text)
        return f'<a href="#{_h(p.anchor)}">{text}</a>'
    raise TypeError(p)


def _html_line(parts) -> str:
    return "".join(_html_piece(p) for p in parts)


def _html_items(items, out: list):
    out.append("<ul>")
    for it in items:
        out.append("<li>" + _html_line(it.parts))
        if it.children:
            _html_items(it.children, out)
        out.append("</li>")
    out.append("</ul>")


def _html_block(b: Block, out: list, level: int):
    if b.label and not isinstance(b, Entry):
        out.append(f'<p class="label">{_h(b.label[0].upper() + b.label[1:])}:</p>')
    if isinstance(b, Para):
        out.append(f"<p>{_html_line(b.parts)}</p>")
    elif isinstance(b, Bullets):
        _html_items(b.items, out)
    elif isinstance(b, Table):
        if b.title:
            out.append(f'<p class="table-title">{_h(b.title)}</p>')
        out.append("<table><thead><tr>" + "".join(f"<th>{_h(h)}</th>" for h in b.head) + "</tr></thead><tbody>")
        for r in b.rows:
            out.append("<tr>" + "".join(f"<td>{_html_line(c)}</td>" for c in r.cells) + "</tr>")
        out.append("</tbody></table>")
    elif isinstance(b, Entry):
        lv = min(level, 6)
        out.append(f'<section class="entry" id="{_h(b.anchor)}">')
        out.append(f"<h{lv}>{_html_line(_titled(b))}</h{lv}>")
        if _meta(b):
            out.append(f'<p class="meta">{_html_line(_meta(b))}</p>')
        for x in b.blocks:
            _html_block(x, out, level + 1)
        out.append("</section>")


_CSS = """
body { font-family: system-ui, sans-serif; max-width: 60em; margin: 2em auto; padding: 0 1em; line-height: 1.45; }
code { font-family: ui-monospace, monospace; background: #f3f3f3; padding: 0 .2em; }
table { border-collapse: collapse; margin: .5em 0 1em; }
th, td { border: 1px solid #ccc; padding: .2em .5em; text-align: left; vertical-align: top; }
.meta { color: #555; font-size: .9em; margin-top: -.5em; }
.label, .table-title { font-style: italic; margin-bottom: .2em; }
.entry { border-left: 3px solid #e4e4e4; padding-left: .8em; margin: 1em 0; }
a.cite { color: #7a3e00; }
a.where { color: #555; }
nav ul { columns: 2; }
"""


def to_html(doc: Document) -> str:
    out = ["<!DOCTYPE html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
           f"<title>{_h(doc.title)}</title>", f"<style>{_CSS}</style>", "</head>", "<body>",
           f"<h1>{_h(doc.title)}</h1>"]
    for b in doc.intro:
        _html_block(b, out, 3)
    out.append("<nav><ul>" + "".join(f'<li><a href="#{slug(s.key)}">{_h(s.title)}</a></li>'
                                     for s in doc.sections) + "</ul></nav>")
    for s in doc.sections:
        out.append(f'<h2 id="{slug(s.key)}">{_h(s.title)}</h2>')
        for b in s.blocks:
            _html_block(b, out, 3)
    out += ["</body>", "</html>"]
    return "\n".join(out) + "\n"
