"""Text rendering of one player's view of a game (generic: driven by the declarations).

Every line fits WIDTH columns. A grid is drawn with each column as wide as its longest
shown content; if that is too wide, component names are shortened word by word (with a
legend), and if that is not enough the grid is drawn in parts of whole columns, or else
listed cell by cell. Cell marks (the grid's cell attributes) go on lines of their own under
a row, tagged, and are never cut; declared lines are drawn, and each area is named.
"""

from __future__ import annotations

import re
import textwrap

from regola import types as T

WIDTH = 80
MIN_WORD = 4            # a shortened name keeps at least this much of each word
_ROW_CHARS = "~-=#"     # one per kind of line between rows, in declaration order
_COL_CHARS = "|:!"      # one per kind of line between columns


def internal_names(game) -> set:
    """The variables declared `internal` (bookkeeping of the rules): views leave them out."""
    return {vs.name for vs in game.vars if getattr(vs, "internal", False)}


def render_view(game, state, viewer, width: int = WIDTH) -> str:
    obs = game.observe(state, viewer)
    out = []
    title = f"{game.title} - {'you are ' + obs['you'] if obs.get('you') else 'spectator'}"
    out.extend(_fill(title, width))
    out.append("=" * min(len(title), width))
    grids = {vs.name: vs for vs in game.vars if vs.kind == "grid"}
    attrs = [vs for vs in game.vars if vs.kind == "cell_attr"]
    attr_names = {a.name for a in attrs}
    internal = internal_names(game)
    for name, value in obs["state"].items():
        if name in internal:
            continue
        if name in grids:
            out.extend(_grid(name, grids[name].grid, value, attrs, obs["state"], width))
        elif name not in attr_names:
            out.extend(_fill(f"{name}: {_short(value)}", width))
    out.append("")
    for who, vals in obs["player_state"].items():
        mark = " (you)" if obs.get("you") == who else ""
        out.extend(_fill(f"{who}{mark}: " + "; ".join(f"{k} {_short(v)}" for k, v in vals.items()
                                                      if k not in internal), width))
    if obs.get("over"):
        out.append("")
        out.extend(_fill("game over: " + ", ".join(f"{p} {s}" for p, s in obs["scores"].items()), width))
    return "\n".join(out)


def _short(v) -> str:
    if isinstance(v, dict):
        if set(v) == {"count"}:
            return f"{v['count']} (hidden)"
        if "contents" in v:
            items = ", ".join(f"{k} x{n}" if n > 1 else k for k, n in v["contents"].items())
            return f"[{items}]" if items else "[]"
        # entries at nothing (0, false, none, empty) are left out: long maps stay readable
        shown = [(k, x) for k, x in v.items() if x not in (None, 0, False, [], {})]
        return "{" + ", ".join(f"{k}: {_short(x) if isinstance(x, (dict, list)) else x}" for k, x in shown) + "}"
    if isinstance(v, list):
        return "[" + ", ".join(str(x) for x in v) + "]"
    return str(v)


def _fill(text: str, width: int, indent: str = "    ") -> list[str]:
    """`text` in lines of at most `width`, broken after a ', ' or '; ' where possible, else at
    other spaces; the lines after the first are indented. A word is never cut: one longer
    than the width has a line of its own."""
    if len(text) <= width:
        return [text]
    lines, line = [], ""
    for tok in re.split(r"(?<=[,;]) ", text):
        if not line:
            line = tok
        elif len(line) + 1 + len(tok) <= width:
            line += " " + tok
        else:
            lines.append(line)
            line = indent + tok
    lines.append(line)
    out = []
    for ln in lines:
        if len(ln) <= width:
            out.append(ln)
        elif ln.startswith(indent):
            out.extend(textwrap.wrap(ln[len(indent):], width, initial_indent=indent, subsequent_indent=indent,
                                     break_on_hyphens=False, break_long_words=False))
        else:
            out.extend(textwrap.wrap(ln, width, subsequent_indent=indent, break_on_hyphens=False,
                                     break_long_words=False))
    return out


# --------------------------------------------------------------------- grids

def _grid(name, g: T.GridInfo, cells: dict, attrs, glob, width) -> list[str]:
    content = {(r, c): _short(cells[f"({r},{c})"]) if f"({r},{c})" in cells else "."
               for r in range(g.rows) for c in range(g.cols)}
    # the marks: each cell attribute of this grid with a value somewhere, under a short tag
    shown = [(a.name, {k: _short(v) for k, v in (glob.get(a.name) or {}).items() if v is not None})
             for a in attrs if a.grid is g]
    shown = [(n, vals) for n, vals in shown if vals]
    tags = _tags([n for n, _ in shown])
    marks = [(tags[n], {_cell(k): v for k, v in vals.items()}) for n, vals in shown]
    row_char, col_char = _line_chars(g)
    label = max(len(str(g.rows - 1)), *(len(t) for t, _ in marks), 1)
    plain = _Layout(g, content, marks, row_char, col_char, label)
    legend = _legend(g, shown, tags, row_char, col_char)
    if plain.fits(range(g.cols), width):
        return [f"{name}:", *plain.draw(range(g.cols))] + _lines_of(legend, width)
    for short in _abbreviations(content):        # shorter names, longest first
        lay = _Layout(g, {k: short.get(v, v) for k, v in content.items()}, marks, row_char, col_char, label)
        if lay.fits(range(g.cols), width):
            used = sorted({(short[v], v) for v in content.values() if v in short})
            legend.append("shortened: " + ", ".join(f"{s} = {v}" for s, v in used))
            return [f"{name}:", *lay.draw(range(g.cols))] + _lines_of(legend, width)
    parts = plain.split(width)
    if parts is not None:
        out = []
        for cols in parts:
            out.append(f"{name}, columns {cols[0]}-{cols[-1]}:")
            out.extend(plain.draw(cols))
        return out + _lines_of(legend, width)
    # too wide even one column at a time: cell by cell
    out = _fill(f"{name}, cell by cell (row, column):", width)
    for (r, c), text in content.items():
        extra = [f"{n} {vals[f'({r},{c})']}" for n, vals in shown if f"({r},{c})" in vals]
        if text != "." or extra:
            out.extend(_fill(f"  ({r},{c}) {text}" + "".join(f"; {e}" for e in extra), width))
    return out + _lines_of(legend[2:], width)     # marks named in full, no lines drawn


def _cell(key: str) -> tuple[int, int]:
    r, c = key.strip("()").split(",")
    return int(r), int(c)


def _tags(names: list[str]) -> dict[str, str]:
    """The shortest distinct prefix of each name (at least one letter)."""
    tags = {}
    for n in names:
        k = 1
        while k < len(n) and any(o != n and o.startswith(n[:k]) for o in names):
            k += 1
        tags[n] = n[:k]
    return tags


def _line_chars(g: T.GridInfo):
    """{position: char} for the lines after rows and after columns, a char per kind of line."""
    row_char, col_char = {}, {}
    kinds = {"row": [lt for lt in g.lines.values() if lt.axis == "row"],
             "column": [lt for lt in g.lines.values() if lt.axis != "row"]}
    for i, lt in enumerate(kinds["row"]):
        for p in lt.positions:
            row_char.setdefault(p, _ROW_CHARS[i % len(_ROW_CHARS)])
    for i, lt in enumerate(kinds["column"]):
        for p in lt.positions:
            col_char.setdefault(p, _COL_CHARS[i % len(_COL_CHARS)])
    return row_char, col_char


def _legend(g: T.GridInfo, shown, tags, row_char, col_char) -> list[str]:
    """[marks, lines, areas...]: what the drawing's tags and lines mean, where each area is."""
    marks = ("under a row: " + ", ".join(f"{tags[n]} = {n}" for n, _ in shown)) if shown else ""
    drawn = []
    for lt in g.lines.values():
        chars = row_char if lt.axis == "row" else col_char
        if lt.positions:
            drawn.append(f"{chars[lt.positions[0]]} {lt.name}")
    out = [marks, ("lines: " + ", ".join(drawn)) if drawn else ""]
    for area in g.areas.values():
        out.append("; ".join(f"{area.name}({i}): {_where(g, cells)}" for i, cells in enumerate(area.cells)))
    return out


def _lines_of(legend: list[str], width) -> list[str]:
    return [ln for text in legend if text for ln in _fill(text, width)]


def _where(g: T.GridInfo, cells: list[int]) -> str:
    """Cells by index, said as rows and columns when they make a rectangle."""
    rc = sorted(divmod(i, g.cols) for i in cells)
    rows = sorted({r for r, _ in rc})
    cols = sorted({c for _, c in rc})
    rect = (len(rc) == len(rows) * len(cols) and rows == list(range(rows[0], rows[-1] + 1))
            and cols == list(range(cols[0], cols[-1] + 1))) if rc else False
    if not rect:
        return " ".join(f"({r},{c})" for r, c in rc) or "no cells"

    def span(word, xs, every):
        if xs == every:
            return ""
        return f"{word} {xs[0]}" if len(xs) == 1 else f"{word}s {xs[0]}-{xs[-1]}"
    said = [x for x in (span("row", rows, list(range(g.rows))), span("column", cols, list(range(g.cols)))) if x]
    return ", ".join(said) or "every cell"


def _abbreviations(content: dict):
    """Ways to shorten the names shown, each word cut to n letters for n from long to
    MIN_WORD, while the short names stay distinct."""
    names = sorted({v for v in content.values() if v != "."})
    longest = max((len(w) for v in names for w in v.split("_")), default=0)
    for n in range(longest - 1, MIN_WORD - 1, -1):
        short = {v: "_".join(w[:n] for w in v.split("_")) for v in names}
        if len(set(short.values())) < len(names):
            return                              # cutting more only merges more
        yield {v: s for v, s in short.items() if s != v}


class _Layout:
    """A grid's drawing: every column as wide as the widest shown content or mark (so a
    cell stays where it was from one view to the next), and the drawing of some columns."""

    def __init__(self, g, content, marks, row_char, col_char, label):
        self.g, self.content, self.marks = g, content, marks
        self.row_char, self.col_char, self.label = row_char, col_char, label
        self.cell_width = max([len(str(g.cols - 1))] + [len(v) for v in content.values()]
                              + [len(v) for _, m in marks for v in m.values()])

    def _gap(self, c, cols) -> str:
        """What goes after column c: a drawn line, a space, or nothing at the end."""
        if c == cols[-1]:
            return ""
        return f" {self.col_char[c]} " if c in self.col_char else " "

    def line_width(self, cols) -> int:
        cols = list(cols)
        return self.label + 2 + sum(self.cell_width + len(self._gap(c, cols)) for c in cols)

    def fits(self, cols, width) -> bool:
        return self.line_width(cols) <= width

    def split(self, width):
        """The fewest parts of whole columns that each fit, as even as can be, cut at drawn
        lines if that is enough (else anywhere); None if one column alone is too wide."""
        segments, seg = [], []
        for c in range(self.g.cols):
            seg.append(c)
            if c in self.col_char:
                segments.append(seg)
                seg = []
        if seg:
            segments.append(seg)
        for units in (segments, [[c] for c in range(self.g.cols)]):
            parts = self._partition(units, width)
            if parts is not None:
                return parts
        return None

    def _partition(self, units, width):
        n = len(units)
        inf = float("inf")
        # best[j][k]: the widest part (smallest possible) of units[:j] in k parts, and the cut
        best = [[(inf, 0)] * (n + 1) for _ in range(n + 1)]
        best[0][0] = (0, 0)
        for j in range(1, n + 1):
            for i in range(j):
                cols = [c for u in units[i:j] for c in u]
                w = self.line_width(cols)
                if w > width:
                    continue
                for k in range(1, j + 1):
                    prev = best[i][k - 1][0]
                    if prev < inf and max(prev, w) < best[j][k][0]:
                        best[j][k] = (max(prev, w), i)
        k = next((k for k in range(1, n + 1) if best[n][k][0] < inf), None)
        if k is None:
            return None
        parts, j = [], n
        while k:
            i = best[j][k][1]
            parts.append([c for u in units[i:j] for c in u])
            j, k = i, k - 1
        return parts[::-1]

    def draw(self, cols) -> list[str]:
        cols = list(cols)
        pad = " " * (self.label + 2)
        w = self.cell_width

        def row_text(head, texts):
            return (head + "".join(f"{t:<{w}}{self._gap(c, cols)}" for c, t in zip(cols, texts))).rstrip()
        out = [row_text(pad, [str(c) for c in cols])]
        for r in range(self.g.rows):
            out.append(row_text(f"{r:>{self.label}}  ", [self.content[(r, c)] for c in cols]))
            for tag, m in self.marks:
                if any((r, c) in m for c in cols):
                    out.append(row_text(f"{tag:>{self.label}}  ", [m.get((r, c), "") for c in cols]))
            if r in self.row_char and r < self.g.rows - 1:
                out.append(pad + self.row_char[r] * (self.line_width(cols) - len(pad)))
        return out


def describe_decision(game, state) -> str:
    d = game.decision(state)
    if d is None:
        return "game over"
    who = "chance" if d["player"] == -1 else f"player({d['player'] + 1})"
    parts = [f"{who} decides"]
    if d.get("prompt"):
        parts.append(d["prompt"])
    if d.get("cite"):
        parts.append(f"[{d['cite']}]")
    return " - ".join(parts)


def value_type_name(t) -> str:
    return str(T.strip(t))
