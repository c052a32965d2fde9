"""A small layout: boxes that know their size before they are drawn, put side by side
(wrapping at a width), one under another, or in a frame with a title. Drawing a box at
(x, y) writes its elements on a Canvas; the boxes inside another are each drawn in a group
moved to their place (`place`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from .svg import Canvas, fit_lines, text_width

GAP = 8


@dataclass
class Box:
    w: float
    h: float
    draw: Callable[[Canvas, float, float], None]


def place(cv: Canvas, b: Box, x: float, y: float) -> None:
    """Draw `b` in a group moved to (x, y), in its own coordinates: a box drawn the same
    way anywhere is the same text (replay_html.py keeps such texts once)."""
    with cv.at(x, y):
        b.draw(cv, 0, 0)


MEMO_SIZE = 4096
_MEMO: dict = {}


def remembered(key, make: Callable[[], Box]) -> Box:
    """The box `make()` makes, drawn once for each key and then copied: a picture drawn
    again and again (each step of a replay, for each viewer) repeats most of its parts."""
    hit = _MEMO.get(key)
    if hit is None:
        b = make()
        cv = Canvas()
        b.draw(cv, 0, 0)
        if len(_MEMO) >= MEMO_SIZE:
            _MEMO.clear()
        hit = _MEMO[key] = (b.w, b.h, "".join(cv.parts))
    w, h, text = hit

    def draw(cv, x, y):
        with cv.at(x, y):
            cv.parts.append(text)
    return Box(w, h, draw)


def empty() -> Box:
    return Box(0, 0, lambda cv, x, y: None)


def flow(boxes: list[Box], width: float, gap: float = GAP) -> Box:
    """Left to right, a new line when the next box would pass `width`."""
    boxes = [b for b in boxes if b.w or b.h]
    placed, x, y, line_h, widest = [], 0.0, 0.0, 0.0, 0.0
    for b in boxes:
        if x and x + b.w > width:
            x, y, line_h = 0.0, y + line_h + gap, 0.0
        placed.append((x, y, b))
        widest = max(widest, x + b.w)
        x += b.w + gap
        line_h = max(line_h, b.h)

    def draw(cv, ox, oy):
        for dx, dy, b in placed:
            place(cv, b, ox + dx, oy + dy)
    return Box(widest, (y + line_h) if placed else 0, draw)


def stack(boxes: list[Box], gap: float = GAP) -> Box:
    """One under another."""
    boxes = [b for b in boxes if b.w or b.h]

    def draw(cv, ox, oy):
        y = oy
        for b in boxes:
            place(cv, b, ox, y)
            y += b.h + gap
    h = sum(b.h for b in boxes) + gap * max(len(boxes) - 1, 0)
    return Box(max((b.w for b in boxes), default=0), h, draw)


def columns(boxes: list[Box], width: float, gap: float = GAP) -> Box:
    """As many equal columns as the widest box allows, boxes filled in row by row, each row
    as tall as its tallest box."""
    if not boxes:
        return empty()
    widest = max(b.w for b in boxes)
    n = max(1, min(len(boxes), int((width + gap) // (widest + gap))))
    rows = [boxes[i:i + n] for i in range(0, len(boxes), n)]
    heights = [max(b.h for b in row) for row in rows]

    def draw(cv, ox, oy):
        y = oy
        for row, h in zip(rows, heights):
            for i, b in enumerate(row):
                place(cv, b, ox + i * (widest + gap), y)
            y += h + gap
    return Box(n * widest + (n - 1) * gap, sum(heights) + gap * (len(rows) - 1), draw)


def label(text: str, cls: str = "rg-s", size: float = 11, fill=None, weight=None) -> Box:
    """One line of text."""
    def draw(cv, x, y):
        cv.text(x, y + size, text, cls, fill=fill, weight=weight)
    return Box(text_width(text, size), size + 4, draw)


def paragraph(text: str, width: float, cls: str = "rg-s", size: float = 11, max_lines: int = 6) -> Box:
    """Text broken into lines of at most `width` pixels."""
    lines = fit_lines(text, width, size, max_lines)
    step = size + 3

    def draw(cv, x, y):
        for i, ln in enumerate(lines):
            cv.text(x, y + size + i * step, ln, cls)
    return Box(max(text_width(ln, size) for ln in lines), step * len(lines) + 2, draw)


def framed(title: str, inner: Box, *, pad: float = 6, head_fill: str | None = None,
           head_colour: str | None = None, tip: str | None = None, min_w: float = 0,
           width: float | None = None) -> Box:
    """`inner` in a white frame under a bold title (a coloured band when `head_fill`)."""
    head = 18 if title else 0
    w = max(inner.w + 2 * pad, text_width(title, 13) + 2 * pad, min_w) if width is None else width
    h = head + inner.h + 2 * pad

    def draw(cv, x, y):
        with cv.group(tip):
            cv.rect(x, y, w, h, "rg-frame", rx=4)
            if head_fill:
                cv.rect(x, y, w, head + 2, fill=head_fill, rx=4)
            if title:
                cv.text(x + pad, y + 14, title, "rg-h", fill=head_colour)
            place(cv, inner, x + pad, y + head + pad)
    return Box(w, h, draw)


def pad_box(inner: Box, left: float = 0, top: float = 0) -> Box:
    return Box(inner.w + left, inner.h + top, lambda cv, x, y: place(cv, inner, x + left, y + top))
