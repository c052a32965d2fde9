"""Text rendering of one player's view of a game (generic: driven by the declarations)."""

from __future__ import annotations

from interpreter import types as T


def render_view(game, state, viewer) -> str:
    obs = game.observe(state, viewer)
    out = []
    title = f"{game.title} - {'you are ' + obs['you'] if obs.get('you') else 'spectator'}"
    out.append(title)
    out.append("=" * len(title))
    grids = {vs.name: vs for vs in game.vars if vs.kind == "grid"}
    attrs = [vs for vs in game.vars if vs.kind == "cell_attr"]
    for name, value in obs["state"].items():
        if name in grids:
            out.append(_grid(name, grids[name], value, attrs, obs["state"]))
        elif any(a.name == name for a in attrs):
            continue
        else:
            out.append(f"{name}: {_short(value)}")
    out.append("")
    for who, vals in obs["player_state"].items():
        mark = " (you)" if obs.get("you") == who else ""
        out.append(f"{who}{mark}: " + "; ".join(f"{k} {_short(v)}" for k, v in vals.items()))
    if obs.get("over"):
        out.append("")
        out.append("game over: " + ", ".join(f"{p} {s}" for p, s in obs["scores"].items()))
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


def _grid(name, vs, cells: dict, attrs, glob) -> str:
    g = vs.grid
    width = max([len(k) for k in g.record.kinds] + [5])
    marks = {}
    for a in attrs:
        if a.grid is g:
            for cell, val in glob.get(a.name, {}).items():
                marks.setdefault(cell, []).append(str(val))
    cut_rows = {p for lt in g.lines.values() if lt.axis == "row" for p in lt.positions}
    cut_cols = {p for lt in g.lines.values() if lt.axis == "column" for p in lt.positions}
    lines = [f"{name}:"]
    header = "     " + "".join(f"{c:^{width + 1}}" + ("| " if c in cut_cols else "") for c in range(g.cols))
    lines.append(header)
    for r in range(g.rows):
        row = f"{r:>3}  "
        extra = "     "
        for c in range(g.cols):
            key = f"({r},{c})"
            row += f"{cells.get(key, '.'):<{width}} " + ("| " if c in cut_cols else "")
            m = ",".join(marks.get(key, []))
            extra += f"{m[:width]:<{width}} " + ("| " if c in cut_cols else "")
        lines.append(row.rstrip())
        if extra.replace("|", "").strip():
            lines.append(extra.rstrip())
        if r in cut_rows:
            lines.append("     " + "~" * (len(header) - 5))
    return "\n".join(lines)


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
