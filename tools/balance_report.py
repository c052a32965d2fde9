"""The numbers of `regola balance`: from the game records (tools/balance_collect.py) to one
report dict (seats, scores, margins, lengths, actions), a comparison of two configurations,
and the text summary. Every figure is described in docs/balance.md."""

from __future__ import annotations

import math
from collections import Counter

from . import balance_stats as st

ALPHA = 0.05
DETECT = 0.05          # a deviation of 5 points from the fair share ...
POWER = 0.8            # ... found with 80% power at level ALPHA
HALF_WIDTH = 0.02      # or an interval of +/- 2 points
TOP_VALUES = 10        # values of one parameter shown


def histogram(xs: list, max_bins: int = 20) -> list:
    """Whole-number bins [lo, hi] with their counts: one per value when there are few."""
    if not xs:
        return []
    lo, hi = math.floor(min(xs)), math.floor(max(xs))
    width = max(1, math.ceil((hi - lo + 1) / max_bins))
    counts = Counter((math.floor(x) - lo) // width for x in xs)
    return [{"lo": lo + b * width, "hi": lo + b * width + width - 1, "count": counts.get(b, 0)}
            for b in range((hi - lo) // width + 1)]


def _summary(xs: list) -> dict:
    m, half = st.mean_interval(xs)
    return {"mean": m, "mean_95": [m - half, m + half], "min": min(xs, default=0), "max": max(xs, default=0),
            "histogram": histogram(xs)}


def _share(r) -> float:
    return 1.0 / len(r.winners) if r.winners else 0.0


def seats(records: list, n: int) -> dict:
    games = len(records)
    wins = [0.0] * n
    for r in records:
        for w in r.winners:
            wins[w] += _share(r)
    fair = 1.0 / n
    rows = []
    for s in range(n):
        lo, hi = st.wilson(wins[s], games)
        rows.append({"seat": s + 1, "wins": wins[s], "win_rate": wins[s] / games if games else 0.0,
                     "win_rate_95": [lo, hi], "p": st.binomial_test(round(wins[s]), games, fair)})
    for row, adj in zip(rows, st.holm([row["p"] for row in rows])):
        row["p_holm"] = adj
        row["significant"] = adj < ALPHA
    stat, df, p = st.chi_square_gof(wins, [games * fair] * n)
    conclusive = p < ALPHA or any(row["significant"] for row in rows)
    # every player scored the same in every game (a cooperative game): the seats share every
    # result by construction, and no number of games could tell them apart
    cooperative = n > 1 and games > 0 and all(len(set(r.scores)) == 1 for r in records)
    worst = max((row["win_rate"] for row in rows), key=lambda x: abs(x - fair), default=fair)
    return {"fair_share": fair, "seats": rows,
            "chi_square": {"statistic": stat, "df": df, "p": p},
            "conclusive": conclusive, "cooperative": cooperative,
            "games_needed": {"detect_deviation": DETECT, "power": POWER, "alpha": ALPHA,
                             "games_to_detect": st.games_to_detect(fair, DETECT, ALPHA, POWER),
                             "half_width": HALF_WIDTH,
                             "games_for_half_width": st.games_for_half_width(worst, HALF_WIDTH)}}


def margins(r) -> int:
    s = sorted(r.scores, reverse=True)
    return s[0] - s[1] if len(s) > 1 else 0


def _winner_split(records: list, n: int):
    """(won, seat counters) for every player in every game: whether that player won."""
    for r in records:
        for s in range(n):
            yield s in r.winners, r.actions[s], r.values[s], r.triggers[s]


def _association(rows: dict, used: dict, games_w: int, games_l: int, moves_w: int, moves_l: int) -> list:
    out = []
    for key, (cw, cl) in rows.items():
        uw, ul = used[key]
        d, lo, hi = st.newcombe_diff(uw, games_w, ul, games_l)
        _, p = st.two_proportion_z(uw, games_w, ul, games_l)
        out.append({"key": key, "by_winners": cw, "by_losers": cl,
                    "share_winners": cw / moves_w if moves_w else 0.0,
                    "share_losers": cl / moves_l if moves_l else 0.0,
                    "used_winners": uw / games_w if games_w else 0.0,
                    "used_losers": ul / games_l if games_l else 0.0,
                    "difference": d, "difference_95": [lo, hi], "p": p})
    for row, adj in zip(out, st.holm([row["p"] for row in out])):
        row["p_holm"] = adj
    out.sort(key=lambda row: (-(row["by_winners"] + row["by_losers"]), str(row["key"])))
    return out


def actions(records: list, n: int) -> dict:
    """Per action name and per parameter value: how often winners and losers chose it (moves,
    and the share of their moves), how many of the winners and of the losers used it at all,
    and the difference of these two proportions with a 95% interval."""
    games_w = games_l = moves_w = moves_l = fires_w = fires_l = 0
    acts: dict = {}
    acts_used: dict = {}
    vals: dict = {}
    vals_used: dict = {}
    trigs: dict = {}
    trigs_used: dict = {}
    for won, ac, vc, tc in _winner_split(records, n):
        k = 0 if won else 1
        if won:
            games_w += 1
            moves_w += sum(ac.values())
            fires_w += sum(tc.values())
        else:
            games_l += 1
            moves_l += sum(ac.values())
            fires_l += sum(tc.values())
        for table, used, counter in ((acts, acts_used, ac), (vals, vals_used, vc), (trigs, trigs_used, tc)):
            for key, c in counter.items():
                table.setdefault(key, [0, 0])[k] += c
                used.setdefault(key, [0, 0])[k] += 1
    top: dict = {}
    for key, (cw, cl) in vals.items():
        top.setdefault(key[:2], []).append((-(cw + cl), key[2], key))
    kept = {}
    for group in top.values():
        for _, _, key in sorted(group)[:TOP_VALUES]:
            kept[key] = vals[key]
    action_rows = _association(acts, acts_used, games_w, games_l, moves_w, moves_l)
    value_rows = _association(kept, vals_used, games_w, games_l, moves_w, moves_l)
    for row in action_rows:
        row["action"] = row.pop("key")
    for row in value_rows:
        a, pos, v = row.pop("key")
        row.update(action=a, parameter=pos, value=v)
    trigger_rows = _association(trigs, trigs_used, games_w, games_l, fires_w, fires_l)
    for row in trigger_rows:
        row["trigger"] = row.pop("key")
    return {"winner_player_games": games_w, "loser_player_games": games_l,
            "actions": action_rows, "values": value_rows, "triggers": trigger_rows}


def held(records: list, n: int) -> dict:
    """Per (zone, kind) of the players' own zones at the end: how many winners and losers held
    on average, the difference of the means with a 95% interval and Welch's t-test (Holm-
    corrected over the rows), and the share of winners and of losers holding at least one."""
    wins, losses = [], []
    for r in records:
        for s in range(n):
            (wins if s in r.winners else losses).append(r.held[s])
    keys = sorted({key for c in wins + losses for key in c})
    rows = []
    for key in keys:
        xw, xl = [c.get(key, 0) for c in wins], [c.get(key, 0) for c in losses]
        mw, ml = sum(xw) / max(len(xw), 1), sum(xl) / max(len(xl), 1)
        _, _, p = st.welch_t(xw, xl)
        half = st.Z95 * math.sqrt(_var(xw) / max(len(xw), 1) + _var(xl) / max(len(xl), 1))
        rows.append({"zone": key[0], "kind": key[1], "mean_winners": mw, "mean_losers": ml,
                     "difference": mw - ml, "difference_95": [mw - ml - half, mw - ml + half], "p": p,
                     "holding_winners": sum(1 for x in xw if x) / max(len(xw), 1),
                     "holding_losers": sum(1 for x in xl if x) / max(len(xl), 1)})
    for row, adj in zip(rows, st.holm([row["p"] for row in rows])):
        row["p_holm"] = adj
    rows.sort(key=lambda row: (row["p"], row["zone"], row["kind"]))
    return {"winner_player_games": len(wins), "loser_player_games": len(losses), "rows": rows}


def fired(records: list) -> list:
    """Per trigger (also those acting for nobody, like `on game end`): times fired per game,
    and the share of games where it fired at all."""
    games = len(records)
    total, some = Counter(), Counter()
    for r in records:
        total.update(r.fired)
        some.update(r.fired.keys())
    rows = [{"trigger": name, "per_game": total[name] / games, "games_fired": some[name] / games}
            for name in total]
    rows.sort(key=lambda row: (-row["per_game"], row["trigger"]))
    return rows


def analyse(records: list, n: int, config: dict) -> dict:
    return {"config": config, "games": len(records), "players": n,
            "seat_advantage": seats(records, n),
            "scores": [_summary([r.scores[s] for r in records]) | {"seat": s + 1} for s in range(n)],
            "margin": _summary([margins(r) for r in records]),
            "length_turns": _summary([r.turns for r in records]),
            "length_moves": _summary([r.moves for r in records]),
            "length_decisions": _summary([r.moves + r.chance for r in records]),
            "actions": actions(records, n),
            "fired": fired(records),
            "held": held(records, n)}


def compare(a: list, b: list, n: int) -> dict:
    """The second configuration against the first: win rate per seat (two-proportion z),
    mean score per seat, margin and length (Welch's t), all Holm-corrected together."""
    rows = []
    ga, gb = len(a), len(b)
    for s in range(n):
        wa = sum(_share(r) for r in a if s in r.winners)
        wb = sum(_share(r) for r in b if s in r.winners)
        d, lo, hi = st.newcombe_diff(wb, gb, wa, ga)
        _, p = st.two_proportion_z(wb, gb, wa, ga)
        rows.append({"what": f"win rate, seat {s + 1}", "first": wa / ga if ga else 0.0,
                     "second": wb / gb if gb else 0.0, "difference": d, "difference_95": [lo, hi],
                     "test": "two-proportion z", "p": p})
    series = [(f"mean score, seat {s + 1}", lambda r, s=s: r.scores[s]) for s in range(n)]
    series += [("margin of victory", margins), ("length (turns)", lambda r: r.turns),
               ("length (moves)", lambda r: r.moves),
               ("length (decisions and chance)", lambda r: r.moves + r.chance)]
    for what, f in series:
        xa, xb = [f(r) for r in a], [f(r) for r in b]
        ma, mb = sum(xa) / max(ga, 1), sum(xb) / max(gb, 1)
        t, df, p = st.welch_t(xb, xa)
        half = st.Z95 * math.sqrt(_var(xa) / max(ga, 1) + _var(xb) / max(gb, 1))
        rows.append({"what": what, "first": ma, "second": mb, "difference": mb - ma,
                     "difference_95": [mb - ma - half, mb - ma + half], "test": "Welch t", "p": p})
    for row, adj in zip(rows, st.holm([row["p"] for row in rows])):
        row["p_holm"] = adj
        row["significant"] = adj < ALPHA
    return {"rows": rows}


def _var(xs: list) -> float:
    if len(xs) < 2:
        return 0.0
    m = sum(xs) / len(xs)
    return sum((x - m) ** 2 for x in xs) / (len(xs) - 1)


def _pct(x: float) -> str:
    return f"{x * 100:.1f}%"


def _p(p: float) -> str:
    return "<0.0001" if p < 1e-4 else f"{p:.4f}"


def describe_config(c: dict) -> str:
    bits = [f"{c['players']} players", f"bots {', '.join(c['bots'])}"]
    if c.get("modules"):
        bits.append(f"modules {', '.join(c['modules'])}")
    bits += [f"{k}={v}" for k, v in sorted(c.get("options", {}).items())]
    return ", ".join(bits)


def format_text(report: dict) -> str:
    out = []
    for rep in report["configurations"]:
        out += _format_one(rep) + [""]
    if report.get("comparison"):
        out.append("second configuration against the first (Holm-corrected over all rows):")
        out.append(f"  {'':<32}{'first':>10}{'second':>10}{'difference (95% CI)':>30}{'p (Holm)':>10}")
        for row in report["comparison"]["rows"]:
            pct = row["what"].startswith("win rate")
            f = _pct if pct else (lambda x: f"{x:.2f}")
            lo, hi = row["difference_95"]
            diff = f"{f(row['difference'])} ({f(lo)} to {f(hi)})"
            mark = " *" if row["significant"] else ""
            out.append(f"  {row['what']:<32}{f(row['first']):>10}{f(row['second']):>10}{diff:>30}"
                       f"{_p(row['p_holm']):>10}{mark}")
        out.append("  (* significant at 5%)")
    return "\n".join(out).rstrip()


def _format_one(rep: dict) -> list:
    c, sa = rep["config"], rep["seat_advantage"]
    out = [f"{c['title']}: {rep['games']} games, seed {c['seed']}, {describe_config(c)}",
           f"win rate by seat (a tie for first shared; fair share {_pct(sa['fair_share'])}):",
           f"  {'seat':>4}  {'win rate (95% CI)':<26}{'p vs fair':>10}{'p (Holm)':>10}"]
    for row in sa["seats"]:
        lo, hi = row["win_rate_95"]
        mark = " *" if row["significant"] else ""
        out.append(f"  {row['seat']:>4}  {_pct(row['win_rate']) + f' ({_pct(lo)}-{_pct(hi)})':<26}"
                   f"{_p(row['p']):>10}{_p(row['p_holm']):>10}{mark}")
    chi = sa["chi_square"]
    out.append(f"  chi-square over seats: {chi['statistic']:.2f} on {chi['df']} df, p = {_p(chi['p'])}")
    if sa["cooperative"]:
        out.append("  cooperative: every player scored the same in every game, so the seats share every "
                   "result and cannot differ; read the scores and lengths instead")
    elif sa["conclusive"]:
        out.append("  the seats are not equally likely to win (5% level)")
    else:
        need = sa["games_needed"]
        out.append(f"  inconclusive: no seat differs from the fair share at the 5% level. To find a "
                   f"deviation of {need['detect_deviation'] * 100:.0f} points with "
                   f"{need['power'] * 100:.0f}% power takes about {need['games_to_detect']:,} games; "
                   f"a win rate to +/-{need['half_width'] * 100:.0f} points about "
                   f"{need['games_for_half_width']:,} games")
    out.append("mean score by seat (95% CI): " + ", ".join(
        f"{s['seat']}: {s['mean']:.2f} ({s['mean_95'][0]:.2f} to {s['mean_95'][1]:.2f})" for s in rep["scores"]))
    for key, what in (("margin", "margin of victory (first minus second)"),
                      ("length_turns", "length in turns (one player's decisions in a row)"),
                      ("length_moves", "length in moves"),
                      ("length_decisions", "length in decisions and chance outcomes")):
        s = rep[key]
        out.append(f"{what}: mean {s['mean']:.2f} ({s['mean_95'][0]:.2f} to {s['mean_95'][1]:.2f}), "
                   f"{s['min']} to {s['max']}")
    acts = rep["actions"]
    out.append(f"actions ({acts['winner_player_games']} winning and {acts['loser_player_games']} losing "
               f"player-games; used = share of those players who chose it at least once):")
    out.append(f"  {'action':<28}{'winners':>9}{'losers':>9}{'used by W':>11}{'used by L':>11}"
               f"{'difference (95% CI)':>28}")
    for row in acts["actions"][:20]:
        out.append("  " + _assoc_line(row["action"], row))
    if acts["values"]:
        out.append("  most chosen parameter values:")
        for row in acts["values"][:20]:
            out.append("  " + _assoc_line(f"{row['action']} #{row['parameter']} = {row['value']}", row))
    if acts["triggers"]:
        out.append("  triggers fired for a player (used = share of those players it fired for at least once):")
        for row in acts["triggers"][:20]:
            out.append("  " + _assoc_line(row["trigger"], row))
    if rep["held"]["rows"]:
        out.append("held at the end in each player's own zones (mean per player; holding = share holding at "
                   "least one; the 20 rows of smallest p):")
        out.append(f"  {'zone: kind':<28}{'winners':>9}{'losers':>9}{'holding W':>11}{'holding L':>11}"
                   f"{'difference (95% CI)':>26}{'p (Holm)':>10}")
        for row in rep["held"]["rows"][:20]:
            lo, hi = row["difference_95"]
            diff = f"{row['difference']:.2f} ({lo:.2f} to {hi:.2f})"
            out.append(f"  {(row['zone'] + ': ' + row['kind'])[:27]:<28}{row['mean_winners']:>9.2f}"
                       f"{row['mean_losers']:>9.2f}{_pct(row['holding_winners']):>11}"
                       f"{_pct(row['holding_losers']):>11}{diff:>26}{_p(row['p_holm']):>10}")
    if rep["fired"]:
        out.append("triggers fired per game (in how many games at all): " + ", ".join(
            f"{row['trigger']} {row['per_game']:.2f} ({_pct(row['games_fired'])})" for row in rep["fired"][:12]))
    return out


def _assoc_line(label: str, row: dict) -> str:
    lo, hi = row["difference_95"]
    diff = f"{_pct(row['difference'])} ({_pct(lo)} to {_pct(hi)})"
    return (f"{label[:27]:<28}{row['by_winners']:>9}{row['by_losers']:>9}{_pct(row['used_winners']):>11}"
            f"{_pct(row['used_losers']):>11}{diff:>28}")
