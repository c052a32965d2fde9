"""The page of `regola balance --html`: one self-contained HTML file (no network, no script)
with SVG charts drawn here: win rate by seat with 95% whiskers and the fair share, score
histograms per seat, game length, and the actions of winners against losers. Every text
from the rules or the command line is escaped."""

from __future__ import annotations

from html import escape

from .balance_report import describe_config

W, H, PAD = 520, 220, 40
WINNERS, LOSERS, BAR = "#2b7bb9", "#d9822b", "#5a8f29"


def _t(x: float, y: float, text: str, anchor: str = "middle", size: int = 11) -> str:
    return (f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" text-anchor="{anchor}">'
            f'{escape(str(text))}</text>')


def _frame(body: list, title: str, height: int = H) -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{height}" '
            f'viewBox="0 0 {W} {height}" role="img" aria-label="{escape(title)}">'
            + _t(W / 2, 14, title, size=12) + "".join(body) + "</svg>")


def _rate_axes(n: int):
    """(y of a rate, width of a seat's column, the axis drawn) of a chart of n seats' rates."""
    inner_w, inner_h = W - 2 * PAD, H - 2 * PAD

    def y(v):
        return PAD + inner_h * (1 - v)
    body = [f'<line x1="{PAD}" y1="{y(0)}" x2="{W - PAD}" y2="{y(0)}" stroke="#444"/>']
    for v in (0, 0.25, 0.5, 0.75, 1.0):
        body.append(_t(PAD - 4, y(v) + 4, f"{v * 100:.0f}%", "end", 10))
    return y, inner_w / max(n, 1), body


def win_rate_chart(sa: dict) -> str:
    rows = sa["seats"]
    y, step, body = _rate_axes(len(rows))
    for i, r in enumerate(rows):
        x = PAD + i * step + step * 0.2
        bw = step * 0.6
        lo, hi = r["win_rate_95"]
        body.append(f'<rect x="{x:.1f}" y="{y(r["win_rate"]):.1f}" width="{bw:.1f}" '
                    f'height="{y(0) - y(r["win_rate"]):.1f}" fill="{BAR}"/>')
        cx = x + bw / 2
        body.append(f'<line x1="{cx:.1f}" y1="{y(lo):.1f}" x2="{cx:.1f}" y2="{y(hi):.1f}" stroke="#000"/>')
        for v in (lo, hi):
            body.append(f'<line x1="{cx - 6:.1f}" y1="{y(v):.1f}" x2="{cx + 6:.1f}" y2="{y(v):.1f}" stroke="#000"/>')
        body.append(_t(cx, H - PAD + 14, f"seat {r['seat']}"))
    fy = y(sa["fair_share"])
    body.append(f'<line x1="{PAD}" y1="{fy:.1f}" x2="{W - PAD}" y2="{fy:.1f}" stroke="#c00" stroke-dasharray="4 3"/>')
    body.append(_t(W - PAD, fy - 4, "fair share", "end", 10))
    return _frame(body, "win rate by seat, with 95% intervals")


def histogram_chart(bins: list, title: str, xlabel: str) -> str:
    inner_w, inner_h = W - 2 * PAD, H - 2 * PAD
    top = max((b["count"] for b in bins), default=0) or 1
    step = inner_w / max(len(bins), 1)
    body = [f'<line x1="{PAD}" y1="{PAD + inner_h}" x2="{W - PAD}" y2="{PAD + inner_h}" stroke="#444"/>',
            _t(PAD - 4, PAD + 4, top, "end", 10), _t(W / 2, H - 6, xlabel, size=10)]
    every = max(1, len(bins) // 10)
    for i, b in enumerate(bins):
        h = inner_h * b["count"] / top
        x = PAD + i * step
        body.append(f'<rect x="{x + 1:.1f}" y="{PAD + inner_h - h:.1f}" width="{max(step - 2, 1):.1f}" '
                    f'height="{h:.1f}" fill="{BAR}"><title>{escape(_label(b))}: {b["count"]}</title></rect>')
        if i % every == 0:
            body.append(_t(x + step / 2, PAD + inner_h + 14, _label(b), size=9))
    return _frame(body, title)


def _label(b: dict) -> str:
    return str(b["lo"]) if b["lo"] == b["hi"] else f"{b['lo']}-{b['hi']}"


def actions_chart(rows: list, title: str, unit: str = "moves", legend=None) -> str:
    """Paired bars, winners against losers, a row each (the first 15). By default the values
    are `share_winners`/`share_losers` (shares of the winners' and losers' `unit`); `legend`
    (two labels) with rows whose `winners`/`losers` hold other numbers draws those instead."""
    rows = rows[:15]
    line = 20
    height = PAD + line * len(rows) + 30
    label_w = 170
    inner_w = W - label_w - 20
    if legend is None:
        legend = (f"share of winners' {unit}", f"share of losers' {unit}")
        rows = [r | {"winners": r["share_winners"], "losers": r["share_losers"]} for r in rows]
        show = (lambda v: f"{v * 100:.1f}%")
    else:
        show = (lambda v: f"{v:.2f}")
    top = max((max(r["winners"], r["losers"]) for r in rows), default=0) or 1
    body = [f'<rect x="{label_w}" y="22" width="10" height="8" fill="{WINNERS}"/>',
            _t(label_w + 14, 30, legend[0], "start", 10),
            f'<rect x="{label_w + 170}" y="22" width="10" height="8" fill="{LOSERS}"/>',
            _t(label_w + 184, 30, legend[1], "start", 10)]
    for i, r in enumerate(rows):
        y0 = PAD + i * line
        body.append(_t(label_w - 6, y0 + 12, r["label"][:28], "end", 10))
        for j, (v, colour) in enumerate(((r["winners"], WINNERS), (r["losers"], LOSERS))):
            body.append(f'<rect x="{label_w}" y="{y0 + 2 + j * 8}" width="{inner_w * v / top:.1f}" height="7" '
                        f'fill="{colour}"><title>{show(v)}</title></rect>')
    return _frame(body, title, height)


def _table(header: list, rows: list) -> str:
    head = "".join(f"<th>{escape(str(h))}</th>" for h in header)
    body = "".join("<tr>" + "".join(f"<td>{escape(str(c))}</td>" for c in row) + "</tr>" for row in rows)
    return f"<table><tr>{head}</tr>{body}</table>"


def _pct(x: float) -> str:
    return f"{x * 100:.1f}%"


def config_charts(rep: dict) -> dict:
    """name -> SVG: every chart of one configuration, in the page's order."""
    acts = rep["actions"]
    out = {"win-rate-by-seat": win_rate_chart(rep["seat_advantage"])}
    for s in rep["scores"]:
        out[f"scores-seat-{s['seat']}"] = histogram_chart(s["histogram"], f"scores of seat {s['seat']} "
                                                                          f"(mean {s['mean']:.2f})", "score")
    out["margin"] = histogram_chart(rep["margin"]["histogram"], "margin of victory (first minus second)", "points")
    out["length"] = histogram_chart(rep["length_moves"]["histogram"],
                                    f"game length (mean {rep['length_moves']['mean']:.1f} moves)", "moves")
    out["turns"] = histogram_chart(rep["length_turns"]["histogram"],
                                   f"game length (mean {rep['length_turns']['mean']:.1f} turns)", "turns")
    out["actions"] = actions_chart([r | {"label": r["action"]} for r in acts["actions"]], "actions, winners and losers")
    if acts["values"]:
        out["values"] = actions_chart([r | {"label": f"{r['action']} #{r['parameter']} = {r['value']}"}
                                       for r in acts["values"]], "parameter values, winners and losers")
    if rep["held"]["rows"]:
        out["held"] = actions_chart([{"label": f"{r['zone']}: {r['kind']}", "winners": r["mean_winners"],
                                      "losers": r["mean_losers"]} for r in rep["held"]["rows"]],
                                    "held at the end (rows of smallest p first)",
                                    legend=("winners, mean held", "losers, mean held"))
    if acts["triggers"]:
        out["triggers"] = actions_chart([r | {"label": r["trigger"]} for r in acts["triggers"]],
                                        "triggers fired for winners and losers", unit="triggers fired")
    return out


def seats_compared_chart(reps: list) -> str:
    """Win rate by seat of two configurations side by side, with 95% whiskers."""
    colours = [BAR, WINNERS]
    y, step, body = _rate_axes(len(reps[0]["seat_advantage"]["seats"]))
    for k, rep in enumerate(reps):
        label = f"{k + 1}: {describe_config(rep['config'])}"
        if len(label) > 84:
            label = label[:83] + "\u2026"
        ly = H + 2 + k * 13                      # the legend below the seats, a line each
        body.append(f'<rect x="{PAD}" y="{ly - 8}" width="10" height="8" fill="{colours[k]}"/>')
        body.append(_t(PAD + 14, ly, label, "start", 10))
        for i, r in enumerate(rep["seat_advantage"]["seats"]):
            bw = step * 0.3
            x = PAD + i * step + step * 0.2 + k * bw
            lo, hi = r["win_rate_95"]
            body.append(f'<rect x="{x:.1f}" y="{y(r["win_rate"]):.1f}" width="{bw:.1f}" '
                        f'height="{y(0) - y(r["win_rate"]):.1f}" fill="{colours[k]}">'
                        f'<title>{r["win_rate"] * 100:.1f}%</title></rect>')
            cx = x + bw / 2
            body.append(f'<line x1="{cx:.1f}" y1="{y(lo):.1f}" x2="{cx:.1f}" y2="{y(hi):.1f}" stroke="#000"/>')
            if k == 0:
                body.append(_t(PAD + i * step + step / 2, H - PAD + 14, f"seat {r['seat']}"))
    fy = y(reps[0]["seat_advantage"]["fair_share"])
    body.append(f'<line x1="{PAD}" y1="{fy:.1f}" x2="{W - PAD}" y2="{fy:.1f}" stroke="#c00" stroke-dasharray="4 3"/>')
    return _frame(body, "win rate by seat, two configurations, with 95% intervals", H + 12 + 13 * len(reps))


def all_charts(report: dict) -> dict:
    """file name -> SVG: every chart of the report (`regola balance --svg DIR`)."""
    reps = report["configurations"]
    out = {}
    for i, rep in enumerate(reps, 1):
        for name, svg in config_charts(rep).items():
            out[f"config{i}-{name}.svg"] = svg
    if len(reps) == 2:
        out["compared-win-rate-by-seat.svg"] = seats_compared_chart(reps)
    return out


def _config_section(i: int, rep: dict) -> str:
    c, sa = rep["config"], rep["seat_advantage"]
    charts = config_charts(rep)
    parts = [f"<h2>Configuration {i}: {escape(describe_config(c))}</h2>",
             f"<p>{rep['games']} games, seed {c['seed']}.</p>", charts.pop("win-rate-by-seat"),
             _table(["seat", "win rate", "95% interval", "p vs fair share", "p (Holm)"],
                    [[r["seat"], _pct(r["win_rate"]), f"{_pct(r['win_rate_95'][0])}-{_pct(r['win_rate_95'][1])}",
                      f"{r['p']:.4g}", f"{r['p_holm']:.4g}"] for r in sa["seats"]])]
    chi = sa["chi_square"]
    parts.append(f"<p>Chi-square over seats: {chi['statistic']:.2f} on {chi['df']} df, p = {chi['p']:.4g}. "
                 + ("Cooperative: every player scored the same in every game, so the seats share every result."
                    if sa["cooperative"] else
                    "The seats are not equally likely to win." if sa["conclusive"] else
                    f"Inconclusive: about {sa['games_needed']['games_to_detect']:,} games find a deviation of 5 "
                    f"points with 80% power.") + "</p>")
    parts.extend(charts.values())
    acts = rep["actions"]
    parts.append(_table(["action", "by winners", "by losers", "used by winners", "used by losers",
                         "difference (95% CI)"],
                        [[r["action"], r["by_winners"], r["by_losers"], _pct(r["used_winners"]),
                          _pct(r["used_losers"]), f"{_pct(r['difference'])} ({_pct(r['difference_95'][0])} to "
                          f"{_pct(r['difference_95'][1])})"] for r in acts["actions"]]))
    if rep["held"]["rows"]:
        parts.append(_table(["zone: kind", "winners (mean)", "losers (mean)", "holding: winners", "holding: losers",
                             "difference (95% CI)", "p (Holm)"],
                            [[f"{r['zone']}: {r['kind']}", f"{r['mean_winners']:.2f}", f"{r['mean_losers']:.2f}",
                              _pct(r["holding_winners"]), _pct(r["holding_losers"]),
                              f"{r['difference']:.2f} ({r['difference_95'][0]:.2f} to {r['difference_95'][1]:.2f})",
                              f"{r['p_holm']:.4g}"] for r in rep["held"]["rows"][:30]]))
    if rep["fired"]:
        parts.append(_table(["trigger", "fired per game", "games where it fired"],
                            [[r["trigger"], f"{r['per_game']:.2f}", _pct(r["games_fired"])] for r in rep["fired"]]))
    return "\n".join(parts)


def render(report: dict) -> str:
    reps = report["configurations"]
    title = f"Balance: {reps[0]['config']['title']}"
    sections = [_config_section(i, rep) for i, rep in enumerate(reps, 1)]
    if report.get("comparison"):
        sections.append("<h2>Second configuration against the first</h2>" + seats_compared_chart(reps) + _table(
            ["", "first", "second", "difference", "95% interval", "test", "p (Holm)"],
            [[r["what"], f"{r['first']:.4g}", f"{r['second']:.4g}", f"{r['difference']:.4g}",
              f"{r['difference_95'][0]:.4g} to {r['difference_95'][1]:.4g}", r["test"],
              f"{r['p_holm']:.4g}" + (" *" if r["significant"] else "")] for r in report["comparison"]["rows"]]))
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">"
            f"<title>{escape(title)}</title><style>body{{font-family:sans-serif;max-width:60em;margin:1em auto}}"
            "table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ccc;padding:2px 6px}"
            "svg{display:block;margin:.5em 0}</style></head><body>"
            f"<h1>{escape(title)}</h1>\n" + "\n".join(sections) + "\n</body></html>\n")
