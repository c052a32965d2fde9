"""SVG primitives: a canvas that writes elements, every piece of text escaped, and the
colours and text measures the pictures use. Nothing here knows a game.

Text comes from rules files, saves and logs (names, prompts, move texts): it is someone
else's. `esc` writes it as XML character data: control characters and bidirectional
overrides as visible escapes (regola.textsafe), then `& < > " '` as entities, and any
character XML 1.0 cannot hold (lone surrogates, U+FFFE, U+FFFF) as U+FFFD.
"""

from __future__ import annotations

import re
import zlib
from contextlib import contextmanager

from regola.textsafe import safe_line

FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
CHAR = 0.62              # a character's width, as a share of the font size (a generous mean)

# one colour per seat (player(1) first), and tints for what has none of its own
PLAYERS = ["#d1495b", "#2e86ab", "#e09f3e", "#3f8f5f", "#7d5ba6", "#c06c2b", "#4a6670", "#b5487a"]
AREA_TINTS = ["#eef4e6", "#e6eef7", "#f7efe2", "#f1e8f5", "#e5f3f1", "#f6e9e9"]
LINE_COLOURS = ["#3a7bbf", "#6b6b6b", "#b8742a", "#7a4fa0"]
# colour words in a component's or value's name (`red_disc`, `gold_market_1`): drawn in that colour
COLOUR_WORDS = {
    "red": "#ef9a9a", "blue": "#90caf9", "green": "#a5d6a7", "yellow": "#fff59d", "white": "#fafafa",
    "black": "#9e9e9e", "purple": "#ce93d8", "orange": "#ffcc80", "gold": "#ffe082", "silver": "#dfe6ea",
    "grey": "#d0d0d0", "gray": "#d0d0d0", "brown": "#bcaaa4", "pink": "#f8bbd0",
}

STYLE = f"""
text{{font-family:{FONT};fill:#222}}
.rg-t{{font-size:18px;font-weight:bold}}
.rg-h{{font-size:13px;font-weight:bold}}
.rg-s{{font-size:11px}}
.rg-xs{{font-size:9px;fill:#555}}
.rg-dim{{fill:#777}}
.rg-frame{{fill:#fff;stroke:#b9b9b9;stroke-width:1}}
.rg-cell{{stroke:#c9c9c9;stroke-width:1}}
.rg-card{{stroke:#555;stroke-width:1}}
.rg-empty{{fill:none;stroke:#aaa;stroke-width:1;stroke-dasharray:4 3}}
.rg-back{{fill:url(#rg-hatch);stroke:#555;stroke-width:1}}
.rg-chip{{stroke:#999;stroke-width:.8}}
.rg-taken{{stroke:#111;stroke-width:2.5}}
"""

DEFS = ('<defs><pattern id="rg-hatch" width="6" height="6" patternUnits="userSpaceOnUse" '
        'patternTransform="rotate(45)"><rect width="6" height="6" fill="#5d6d7e"/>'
        '<line x1="0" y1="0" x2="0" y2="6" stroke="#85929e" stroke-width="3"/></pattern></defs>')

_NOT_XML = re.compile("[\ud800-\udfff\ufffe\uffff]")


def esc(text) -> str:
    """Text made safe as SVG/HTML character data or a quoted attribute value."""
    t = _NOT_XML.sub("\ufffd", safe_line(str(text)))
    return (t.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace('"', "&quot;").replace("'", "&#39;"))


def num(v: float) -> str:
    """A coordinate, short: 12, 12.5."""
    r = round(v, 1)
    return str(int(r)) if r == int(r) else str(r)


def text_width(text: str, size: float) -> float:
    return len(text) * size * CHAR


def named_colour(name: str) -> str | None:
    """The light colour one of the words of `name` names (`gold_market_1`), or None."""
    for word in re.split(r"[_\-\s]+", str(name).lower()):
        if word in COLOUR_WORDS:
            return COLOUR_WORDS[word]
    return None


def tint(name: str) -> str:
    """A light fill for a name: the colour its words name, else a pastel of its own."""
    said = named_colour(name)
    if said is not None:
        return said
    hue = zlib.crc32(str(name).encode()) % 360
    return f"hsl({hue},55%,86%)"


def player_colour(seat: int) -> str:
    """The colour of seat `seat` (0 is player(1))."""
    return PLAYERS[seat % len(PLAYERS)]


_PLAYER = re.compile(r"player\((\d+)\)")


def seat_of(value) -> int | None:
    """The seat (from 0) a value names when it is a player as the engine writes one, `player(2)`."""
    m = _PLAYER.fullmatch(value) if isinstance(value, str) else None
    return int(m[1]) - 1 if m else None


def fit_lines(text: str, width: float, size: float, max_lines: int = 3) -> list[str]:
    """`text` in at most `max_lines` lines of at most `width` pixels: broken after `_` or
    a space, a word too long cut, the last line ending in `…` when something is left out."""
    per = max(1, int(width / (size * CHAR)))
    tokens = re.findall(r"[^_\s]*[_\s]?", str(text))
    tokens = [t for t in tokens if t]
    lines, line = [], ""
    for tok in tokens:
        while len(tok) > per:                     # a word longer than a line: cut it
            if line:
                lines.append(line)
                line = ""
            lines.append(tok[:per])
            tok = tok[per:]
        if len(line) + len(tok.rstrip()) > per:
            lines.append(line)
            line = tok
        else:
            line += tok
    if line:
        lines.append(line)
    lines = [ln.rstrip() for ln in lines if ln.strip()] or [""]
    if len(lines) > max_lines:
        last = lines[max_lines - 1]
        lines = lines[:max_lines - 1] + [(last[:per - 1] if len(last) >= per else last) + "…"]
    return lines


def _tag(name: str, attrs: dict, text=None) -> str:
    """An element: the attributes given (not None or ""), escaped, and its text, escaped."""
    a = "".join(f' {k}="{esc(v)}"' for k, v in attrs.items() if v is not None and v != "")
    return f"<{name}{a}/>" if text is None else f"<{name}{a}>{esc(text)}</{name}>"


class Canvas:
    """SVG elements written in order; `document` wraps them in an <svg> of the given size."""

    def __init__(self):
        self.parts: list[str] = []

    def rect(self, x, y, w, h, cls="", fill=None, rx=0, stroke=None, opacity=None):
        self.parts.append(_tag("rect", {"x": num(x), "y": num(y), "width": num(max(w, 0)), "height": num(max(h, 0)),
                                        "class": cls, "fill": fill, "stroke": stroke, "rx": num(rx) if rx else None,
                                        "opacity": opacity}))

    def text(self, x, y, text, cls="rg-s", anchor=None, fill=None, weight=None):
        self.parts.append(_tag("text", {"x": num(x), "y": num(y), "class": cls, "text-anchor": anchor,
                                        "style": f"fill:{fill}" if fill else None, "font-weight": weight}, text))

    def line(self, x1, y1, x2, y2, colour, width=1.0, opacity=None, cap="butt"):
        self.parts.append(_tag("line", {"x1": num(x1), "y1": num(y1), "x2": num(x2), "y2": num(y2), "stroke": colour,
                                        "stroke-width": num(width), "stroke-linecap": cap, "opacity": opacity}))

    def circle(self, cx, cy, r, fill, stroke="#333"):
        self.parts.append(_tag("circle", {"cx": num(cx), "cy": num(cy), "r": num(r), "fill": fill, "stroke": stroke,
                                          "stroke-width": "1"}))

    @contextmanager
    def group(self, tip: str | None = None, cls: str = ""):
        """A <g>, with a tooltip (<title>) when `tip` is given."""
        self.parts.append(f'<g class="{cls}">' if cls else "<g>")
        if tip:
            self.parts.append(f"<title>{esc(tip)}</title>")
        yield
        self.parts.append("</g>")

    @contextmanager
    def at(self, x, y):
        """A group moved to (x, y): what is drawn inside is in its own coordinates."""
        if not x and not y:
            yield
            return
        self.parts.append(f'<g transform="translate({num(x)},{num(y)})">')
        yield
        self.parts.append("</g>")

    def document(self, width, height, title: str) -> str:
        w, h = num(width), num(height)
        return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" '
                f'role="img"><title>{esc(title)}</title><style>{STYLE}</style>{DEFS}'
                f'<rect width="{w}" height="{h}" fill="#f7f6f2"/>' + "".join(self.parts) + "</svg>")
