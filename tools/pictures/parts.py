"""Pictures of the values of one observation: counters, maps and zones (cards in slots,
piles and stacks as faces or as a count, sequences in order), each drawn from what its
declaration says it is. The values come from `game.observe` only: a zone the viewer may not
see is a count there, a slot they do not know is "hidden", and that is all that is drawn.
"""

from __future__ import annotations

from regola import types as T
from regola.runtime.values import format_value

from .layout import GAP, Box, flow, framed, label, stack
from .svg import fit_lines, named_colour, player_colour, seat_of, text_width, tint

CARD_W, CARD_H = 80, 58
CHIP_H = 20
MAP_ALL = 12             # a map with more keys shows only its entries not at nothing (0, false, none, [])
MOST_CHIPS = 40          # kinds shown of one pile; the rest are counted


def move_chip(text: str, taken: bool = False) -> Box:
    """A move: plain, or marked as the one taken."""
    w = text_width(text, 11) + 12

    def draw(cv, x, y):
        cv.rect(x, y, w, CHIP_H, "rg-chip rg-taken" if taken else "rg-chip", fill="#fff3b0" if taken else "#ffffff",
                rx=3)
        cv.text(x + 6, y + 14, text, "rg-s", weight="bold" if taken else None)
    return Box(w, CHIP_H, draw)


def value_text(v) -> str:
    """An observed value as text: none, true/false, numbers, names, lists in brackets."""
    if v is None:
        return "none"
    if v is True or v is False:
        return "true" if v else "false"
    if isinstance(v, list):
        return "[" + ", ".join(value_text(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{k}: {value_text(x)}" for k, x in v.items()) + "}"
    return str(v)


class Kinds:
    """What a record's components are: their fields (for tooltips) and their tints, worked
    out once per kind (`kinds_of` keeps one Kinds per record)."""

    def __init__(self, rec: T.RecordType):
        self.rec = rec
        self.index = {k: i for i, k in enumerate(rec.kinds)}
        self._said: dict[str, tuple[str, str]] = {}

    def _work_out(self, name: str) -> tuple[str, str]:
        i = self.index.get(name)
        if i is None:
            return str(name), tint(name)
        values = [(f, format_value(t, self.rec.data[f][i])) for f, t in self.rec.fields.items() if f in self.rec.data]
        text = f"{name} ({self.rec.name})" + (" - " + "; ".join(f"{f}: {v}" for f, v in values) if values else "")
        # the colour the name says (`red_disc`), else one its fields say (a colour `red`), else its own
        colour = named_colour(name) or next((c for c in (named_colour(v) for _, v in values) if c), None)
        return text, colour or tint(name)

    def _get(self, name: str) -> tuple[str, str]:
        said = self._said.get(name)
        if said is None:
            said = self._said[name] = self._work_out(name)
        return said

    def describe(self, name: str) -> str:
        return self._get(name)[0]

    def tint(self, name: str) -> str:
        return self._get(name)[1]


_KINDS: dict[int, Kinds] = {}


def kinds_of(rec: T.RecordType) -> Kinds:
    k = _KINDS.get(id(rec))
    if k is None or k.rec is not rec:
        k = _KINDS[id(rec)] = Kinds(rec)
    return k


def chip(name: str, value, dim: bool = False) -> Box:
    """`name value` in a rounded box; a player's value with the player's colour beside it."""
    text = value_text(value)
    seat = seat_of(value)
    left = text_width(name, 11) + 12 if name else 6
    dot = 14 if seat is not None else 0
    w = left + dot + text_width(text, 11) + 8

    def draw(cv, x, y):
        with cv.group(f"{name}: {text}" if name else text):
            cv.rect(x, y, w, CHIP_H, "rg-chip", fill="#eeeeee" if dim else "#ffffff", rx=9)
            if name:
                cv.text(x + 6, y + 14, name, "rg-s rg-dim")
            if seat is not None:
                cv.circle(x + left + 5, y + 10, 5, player_colour(seat))
            cv.text(x + left + dot, y + 14, text, "rg-s", weight="bold")
    return Box(w, CHIP_H, draw)


def kind_chip(kind: str, n: int, kinds: Kinds | None) -> Box:
    """A component: its name on its tint, `xN` for N of them."""
    text = kind if n == 1 else f"{kind} x{n}"
    w = text_width(text, 11) + 12

    def draw(cv, x, y):
        with cv.group(kinds.describe(kind) if kinds else kind):
            cv.rect(x, y, w, CHIP_H, "rg-chip", fill=kinds.tint(kind) if kinds else tint(kind), rx=3)
            cv.text(x + 6, y + 14, text, "rg-s")
    return Box(w, CHIP_H, draw)


def count_back(count: int, what: str = "hidden") -> Box:
    """Components not shown: a face-down card and how many."""
    text = f"{count} {what}"
    w = 26 + text_width(text, 11) + 6

    def draw(cv, x, y):
        with cv.group(f"{count} component{'s' if count != 1 else ''}, not shown to this viewer"):
            if count:
                cv.rect(x + 3, y, 18, 24, "rg-back", rx=2)
                cv.rect(x, y + 3, 18, 24, "rg-back", rx=2)
            else:
                cv.rect(x, y + 3, 18, 24, "rg-empty", rx=2)
            cv.text(x + 26, y + 19, text, "rg-s")
    return Box(w, 28, draw)


def card(key: str, kind, kinds: Kinds | None) -> Box:
    """One slot: its key above, the component's face, a face-down card ("hidden") or an
    empty outline (none)."""
    def draw(cv, x, y):
        cv.text(x + 2, y + 9, key, "rg-xs")
        top = y + 12
        if kind is None:
            with cv.group(f"{key}: empty"):
                cv.rect(x, top, CARD_W, CARD_H, "rg-empty", rx=4)
        elif kind == "hidden":
            with cv.group(f"{key}: face down, not known to this viewer"):
                cv.rect(x, top, CARD_W, CARD_H, "rg-back", rx=4)
                cv.text(x + CARD_W / 2, top + CARD_H / 2 + 6, "?", "rg-h", anchor="middle", fill="#ffffff")
        else:
            with cv.group(f"{key}: " + (kinds.describe(kind) if kinds else kind)):
                cv.rect(x, top, CARD_W, CARD_H, "rg-card", fill=kinds.tint(kind) if kinds else tint(kind), rx=4)
                lines = fit_lines(kind, CARD_W - 8, 11, 3)
                y0 = top + CARD_H / 2 - (len(lines) - 1) * 7 + 4
                for i, ln in enumerate(lines):
                    cv.text(x + CARD_W / 2, y0 + i * 14, ln, "rg-s", anchor="middle")
    return Box(max(CARD_W, text_width(key, 9)), CARD_H + 12, draw)


# ------------------------------------------------------------------ variables

def var_box(vs, value, width: float) -> Box:
    """A variable as the viewer sees it, drawn as its declaration says."""
    if value == "hidden":
        return chip(vs.name, "hidden", dim=True)
    if vs.kind == "scalar":
        return chip(vs.name, value)
    if vs.kind == "map":
        return map_box(vs.name, value, width)
    if vs.kind == "zone":
        return zone_box(vs, value, width)
    return chip(vs.name, value_text(value))


def map_box(name: str, value: dict, width: float) -> Box:
    items = list(value.items())
    shown = items if len(items) <= MAP_ALL else [(k, v) for k, v in items if v not in (0, False, None, [])]
    chips = [chip(str(k), v) for k, v in shown]
    left = len(items) - len(shown)
    if left:
        chips.append(label(f"{'and ' if shown else ''}{left} at 0, false or none", "rg-xs", 9))
    return framed(name, flow(chips, width - 12, 4))


def zone_box(vs, value, width: float) -> Box:
    zt = vs.zone
    kinds = kinds_of(zt.elem)
    tag = "" if vs.visibility == "public" else f" ({vs.visibility})"
    if vs.keys:
        rows = []
        for key, one in value.items():
            inner = zone_content(zt, one, kinds, width - 24)
            rows.append(flow([label(str(key), "rg-s rg-dim"), inner], width - 12, 6))
        return framed(vs.name + tag, stack(rows, 4))
    return framed(f"{vs.name}{tag}{_count_text(zt, value)}", zone_content(zt, value, kinds, width - 12))


def _count_text(zt, value) -> str:
    if zt.slotted:
        return ""
    n = value["count"] if isinstance(value, dict) else len(value)
    return f": {n}"


def zone_content(zt, value, kinds: Kinds, width: float) -> Box:
    if zt.slotted:
        return flow([card(str(k), v, kinds) for k, v in value.items()], width, GAP)
    if isinstance(value, dict) and "contents" not in value:
        return count_back(value["count"])                        # not seen: how many, no more
    items = list(value["contents"].items()) if isinstance(value, dict) else [(k, 1) for k in value]
    if not items:
        return label("empty", "rg-s rg-dim")
    chips = [kind_chip(k, n, kinds) for k, n in items[:MOST_CHIPS]]
    if len(items) > MOST_CHIPS:
        chips.append(label(f"and {len(items) - MOST_CHIPS} more", "rg-xs", 9))
    return flow(chips, width, 4)
