"""The picture of a state as one viewer sees it: an SVG drawn from `game.observe(state,
viewer)` and the declarations alone (no game is known here).

    svg = state_svg(game, state, 0)        # what player(1) sees
    svg = state_svg(game, state, None)     # a spectator: public things only
    svg = state_svg(game, state, ALL)      # omniscient: everything, hidden things included

From top to bottom: the title, the viewer, whose turn it is and the pending decision (its
kind, the actions it offers, its prompt and rulebook section), the legal moves when the
viewer is the one deciding (or omniscient), then each grid, then the table (every global
variable: zones as cards, piles, stacks and sequences, counters, maps), then one panel per
player with their variables, and at the end the scores.

Hidden information: everything drawn of the state comes from the observation, so a hidden
hand of another player is a count, a face-down slot a card back. The legal moves are listed
only for the player who decides (another player's options would tell what they hold), and
the last move is told as `move_str_seen_by` tells it to this viewer.
"""

from __future__ import annotations

import json

from regola.runtime.observe import _view

from .board import grid_box, grid_width
from .layout import GAP, Box, columns, flow, framed, label, paragraph, remembered, stack
from .parts import chip, move_chip, value_text, var_box
from .svg import Canvas, player_colour

ALL = "all"                  # the omniscient viewer
WIDTH = 980
MARGIN = 12
MOST_MOVES = 80              # legal moves listed; the rest are counted


def observation(game, state, viewer) -> dict:
    """What `viewer` sees: a seat (from 0), None (a spectator) or ALL (everything)."""
    if viewer == ALL:
        return omniscient(game, state)
    return game.observe(state, viewer)


def omniscient(game, s) -> dict:
    """The observation of someone who sees everything: every zone's contents, every slot
    and every private number (the same form as `game.observe`)."""
    out = game.observe(s, None)
    out["omniscient"] = True
    glob, per = {}, [{} for _ in range(s.nplayers)]
    for vs in game.vars:
        if vs.kind == "known":
            continue
        if vs.per_player:
            for p in range(s.nplayers):
                per[p][vs.name] = _view(vs, s.v[vs.slot][p], None, p, None, -1)
        else:
            glob[vs.name] = _view(vs, s.v[vs.slot], None, None, None, -1)
    out["state"] = glob
    out["player_state"] = {f"player({p + 1})": per[p] for p in range(s.nplayers)}
    return out


def deciding(game, state, viewer) -> bool:
    """Whether `viewer` may see the legal moves now: the player deciding, or omniscient."""
    if state.pending is None or state.pending[1] == -1:
        return False
    return viewer == ALL or viewer == state.pending[1]


def moves_seen(game, state, viewer) -> list[str] | None:
    """The legal moves as text for a viewer who may see them (`deciding`), else None."""
    if not deciding(game, state, viewer):
        return None
    return [game.move_str(state, m) for m in game.legal_moves(state)]


def viewer_name(viewer) -> str:
    if viewer == ALL:
        return "omniscient"
    return "spectator" if viewer is None else f"player({viewer + 1})"


def state_svg(game, state, viewer, *, last: str | None = None, taken: str | None = None,
              moves: bool = True) -> str:
    """The SVG of `state` for `viewer`. `last`: the move that led here, as this viewer may be
    told of it; `taken`: the move taken next (drawn among the legal moves, which are listed
    when `moves` and the viewer decides now)."""
    obs = observation(game, state, viewer)
    if state.pending is None:
        obs["winners"] = [f"player({w + 1})" for w in game.winners(state)]
    return picture(game, obs, moves=moves_seen(game, state, viewer) if moves else None, taken=taken, last=last)


def picture(game, obs: dict, *, moves=None, taken=None, last=None, width: float = WIDTH) -> str:
    """The SVG of an observation (`game.observe`'s form; `omniscient` marks one that sees
    everything). Only `obs`, the declarations and the texts given are drawn."""
    width = max(width, max((grid_width(vs.grid) for vs in game.vars if vs.kind == "grid"), default=0)
                + 2 * MARGIN)
    inner = width - 2 * MARGIN
    parts = [_header(game, obs, moves, taken, last, inner)]
    glob = {vs.name: vs for vs in game.vars if not vs.per_player}
    per = {vs.name: vs for vs in game.vars if vs.per_player}
    hide = {vs.name for vs in game.vars if vs.internal}
    state = obs.get("state", {})
    for name, value in state.items():
        vs = glob.get(name)
        if vs is not None and vs.kind == "grid" and name not in hide:
            attrs = [(a.name, state.get(a.name) or {}) for a in game.vars
                     if a.kind == "cell_attr" and a.grid is vs.grid]
            parts.append(remembered((game.fingerprint, name, json.dumps([value, attrs]), inner),
                                    lambda: grid_box(name, vs.grid, value, attrs, inner)))
    table = [_var(game, glob[n], v, inner - 12) for n, v in state.items()
             if n in glob and glob[n].kind not in ("grid", "cell_attr") and n not in hide]
    if table:
        parts.append(framed("table", _grouped(table, inner - 12), width=inner))
    panels = []
    pw = inner if len(obs.get("player_state", {})) < 2 else (inner - GAP) / 2
    for who, values in obs.get("player_state", {}).items():
        boxes = [_var(game, per[n], v, pw - 12) for n, v in values.items() if n in per and n not in hide]
        panels.append(_panel(who, obs, _grouped(boxes, pw - 12), pw))
    if panels:
        parts.append(columns(panels, inner))
    body = stack(parts, 10)
    cv = Canvas()
    body.draw(cv, MARGIN, MARGIN)
    return cv.document(width, body.h + 2 * MARGIN, f"{game.title}: {_viewer_text(obs)}")


def _var(game, vs, value, width) -> Box:
    return remembered((game.fingerprint, vs.name, vs.per_player, json.dumps(value), width),
                      lambda: var_box(vs, value, width))


def _grouped(boxes: list[Box], width: float) -> Box:
    """The chips (one line high) first, in a flow, then the framed boxes in a flow."""
    small = [b for b in boxes if b.h <= 20]
    big = [b for b in boxes if b.h > 20]
    return stack([flow(small, width, 6), flow(big, width, GAP)], GAP)


def _panel(who: str, obs: dict, inner: Box, width: float) -> Box:
    seat = int(who[7:-1]) - 1
    marks = []
    if obs.get("you") == who:
        marks.append("you")
    if obs.get("to_move") == who:
        marks.append("to move")
    if "scores" in obs:
        marks.append(f"score {obs['scores'].get(who)}")
    if who in obs.get("winners", ()):
        marks.append("winner")
    title = who + (" - " + ", ".join(marks) if marks else "")
    return framed(title, inner, head_fill=player_colour(seat), head_colour="#ffffff", width=width)


def _viewer_text(obs: dict) -> str:
    if obs.get("omniscient"):
        return "omniscient view (everything, hidden information included)"
    if obs.get("you"):
        return f"as {obs['you']} sees it"
    return "spectator view (public information only)"


def _header(game, obs, moves, taken, last, width) -> Box:
    rows = [flow([label(game.title, "rg-t", 18), label(_viewer_text(obs), "rg-s rg-dim")], width, 16)]
    if obs.get("over"):
        scores = ", ".join(f"{p} {s}" for p, s in obs.get("scores", {}).items())
        won = ", ".join(obs.get("winners", []))
        rows.append(paragraph(f"Game over. Scores: {scores}." + (f" Winner: {won}." if won else ""), width,
                              "rg-h", 13))
    elif "to_move" in obs:
        rows.append(paragraph(_decision_text(game, obs), width, "rg-h", 13))
    if last:
        rows.append(paragraph(f"last: {last}", width, "rg-s", 11, 3))
    if moves is not None:
        chips = [move_chip(m, m == taken) for m in moves[:MOST_MOVES]]
        if len(moves) > MOST_MOVES:
            chips.append(label(f"and {len(moves) - MOST_MOVES} more", "rg-xs", 9))
        head = f"legal moves ({len(moves)})" + (f", taken: {taken}" if taken else "")
        rows.append(stack([label(head, "rg-s rg-dim"), flow(chips, width, 4)], 2))
    elif taken:
        rows.append(flow([label("next:", "rg-s rg-dim"), chip("", taken)], width, 6))
    return stack(rows, 6)


def _decision_text(game, obs) -> str:
    """`player(2) to move: an action (take, give) - prompt [section]`."""
    d = obs.get("decision", {})
    who = obs["to_move"]
    kind = d.get("kind")
    site = game.sites[d["site"]] if "site" in d and 0 <= d["site"] < len(game.sites) else None
    if who == "chance":
        text = "chance: a draw or a roll"
    elif kind == "act" and site is not None:
        text = f"{who} to move: an action ({', '.join(site.actions)}" + (", or pass)" if site.optional else ")")
    elif kind == "pay":
        text = f"{who} to move: how to pay"
    else:
        text = f"{who} to move: a choice"
    if d.get("prompt"):
        text += f" - {d['prompt']}"
    if d.get("cite"):
        text += f" [{d['cite']}]"
    return text


__all__ = ["ALL", "observation", "omniscient", "moves_seen", "deciding", "state_svg", "picture",
           "viewer_name", "value_text"]
