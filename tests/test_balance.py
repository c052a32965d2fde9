"""regola balance (tools/balance*.py): the statistics on known answers, and reports on tiny
games whose imbalance is known by construction."""

import csv
import json
import re
import xml.etree.ElementTree as ET

import pytest

from regola.tools import balance_stats as st
from regola.tools import cli
from regola.tools.balance_collect import action_name, parameters
from regola.tools.balance_report import histogram
from rules_helpers import write

# Seat 1 always ends with more points than seat 2.
ALWAYS = """
game always:
    title "Always <script>alert('x')</script> & co"
    players 2..2
per player:
    points: int = 0
flow:
    act player(1): go
    act player(2): go
action go(n in [1, 2, 3]):
    if me == player(1):
        me.points += n + 3
    else:
        me.points += n
score: me.points
"""

# A fair coin (with the default bias 5 in 10) gives the point to seat 1 or seat 2.
COIN = """
game coin:
    title "Coin"
    players 2..2
option bias: int in 0..10 = 5, "tenths of the chance that player 1 gets the point"
per player:
    points: int = 0
flow:
    for p in players:
        act p: call
    roll r in range(0, 10)
    if r < bias:
        player(1).points += 1
    else:
        player(2).points += 1
action call(side in [1, 2]):
    me.points += 0
score: me.points
"""


# ------------------------------------------------------------------ statistics

def test_wilson_known_values():
    lo, hi = st.wilson(5, 10)
    assert lo == pytest.approx(0.2366, abs=1e-4) and hi == pytest.approx(0.7634, abs=1e-4)
    lo, hi = st.wilson(0, 20)
    assert lo == 0.0 and hi == pytest.approx(0.1611, abs=1e-4)


def test_binomial_test_known_p_values():
    assert st.binomial_test(7, 20, 0.5) == pytest.approx(0.2632, abs=1e-4)     # R binom.test(7, 20)
    assert st.binomial_test(10, 10, 0.5) == pytest.approx(2 / 1024)
    assert st.binomial_test(5, 10, 0.5) == pytest.approx(1.0)
    assert st.binomial_test(682, 925, 0.75) == pytest.approx(0.3825, abs=1e-3)  # R's example


def test_chi_square_and_t_distributions():
    assert st.chi_square_sf(3.841459, 1) == pytest.approx(0.05, abs=1e-6)
    assert st.chi_square_sf(9.487729, 4) == pytest.approx(0.05, abs=1e-6)
    stat, df, p = st.chi_square_gof([30, 20, 50], [100 / 3] * 3)
    assert stat == pytest.approx(14.0) and df == 2 and p == pytest.approx(0.000912, abs=1e-5)
    assert st.student_t_sf(2.228139, 10) == pytest.approx(0.025, abs=1e-5)
    assert st.normal_quantile(0.975) == pytest.approx(1.959964, abs=1e-6)


def test_holm_known_example():
    # Holm (1979) step-down: sorted p 0.005, 0.01, 0.03, 0.04 times 4, 3, 2, 1, kept monotone
    assert st.holm([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert st.holm([0.5, 0.9]) == pytest.approx([1.0, 1.0])


def test_sample_sizes():
    assert st.games_for_half_width(0.5, 0.02) == 2401            # 1.96^2 * 0.25 / 0.0004
    n = st.games_to_detect(0.5, 0.05)                            # 5 points at 5%, 80% power
    assert 780 <= n <= 790


def test_two_sample_tests():
    z, p = st.two_proportion_z(60, 100, 40, 100)
    assert z == pytest.approx(2.8284, abs=1e-3) and p == pytest.approx(0.00468, abs=1e-4)
    d, lo, hi = st.newcombe_diff(56, 70, 48, 80)                 # Newcombe (1998), example
    assert (lo, hi) == (pytest.approx(0.0524, abs=1e-3), pytest.approx(0.3339, abs=1e-3))
    t, df, p = st.welch_t([1, 2, 3, 4, 5], [1, 2, 3, 4, 5])
    assert p == pytest.approx(1.0)


def test_move_parts():
    assert action_name("play_tile(shop, (1,1))") == "play_tile"
    assert parameters("play_tile(shop, (1,1))") == [(1, "shop"), (2, "(1,1)")]
    assert action_name("shield=A") == "shield" and parameters("shield=A") == [(1, "A")]
    assert action_name("pass") == "pass" and parameters("pass") == []
    assert histogram([1, 1, 3]) == [{"lo": 1, "hi": 1, "count": 2}, {"lo": 2, "hi": 2, "count": 0},
                                    {"lo": 3, "hi": 3, "count": 1}]


# ------------------------------------------------------------------ reports

def _json(capsys, argv):
    assert cli.main(argv + ["--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_seat_one_always_wins(tmp_path, capsys):
    d = write(tmp_path, ALWAYS)
    rep = _json(capsys, ["balance", str(d), "--games", "40"])["configurations"][0]
    seats = rep["seat_advantage"]["seats"]
    assert seats[0]["win_rate"] == 1.0 and seats[1]["win_rate"] == 0.0
    assert seats[0]["significant"] and rep["seat_advantage"]["conclusive"]
    assert rep["length_moves"]["mean"] == 2.0 and rep["margin"]["min"] >= 1
    assert rep["length_turns"]["mean"] == 2.0
    go = rep["actions"]["actions"][0]
    assert go["action"] == "go" and go["by_winners"] == 40 and go["by_losers"] == 40


def test_fair_coin_is_not_significant_and_says_how_many_games(tmp_path, capsys):
    d = write(tmp_path, COIN)
    assert cli.main(["balance", str(d), "--games", "200", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "inconclusive" in out and "783 games" in out
    rep = _json(capsys, ["balance", str(d), "--games", "200", "--seed", "3"])["configurations"][0]
    assert not rep["seat_advantage"]["conclusive"]
    assert rep["length_decisions"]["mean"] == 3.0              # two moves and one roll


def test_vs_set_compares_two_option_values(tmp_path, capsys):
    d = write(tmp_path, COIN)
    rep = _json(capsys, ["balance", str(d), "--games", "200", "--set", "bias=5", "--vs-set", "bias=1"])
    assert [c["config"]["options"] for c in rep["configurations"]] == [{"bias": "5"}, {"bias": "1"}]
    rows = {r["what"]: r for r in rep["comparison"]["rows"]}
    assert rows["win rate, seat 1"]["difference"] < -0.25 and rows["win rate, seat 1"]["significant"]
    assert not rows["length (moves)"]["significant"]


def test_same_seed_same_numbers_whatever_the_jobs(tmp_path, capsys):
    d = write(tmp_path, COIN)
    one = _json(capsys, ["balance", str(d), "--games", "30", "--seed", "5"])
    two = _json(capsys, ["balance", str(d), "--games", "30", "--seed", "5", "--jobs", "2"])
    assert one == two


def test_html_csv_and_hostile_title(tmp_path, capsys):
    d = write(tmp_path, ALWAYS)
    html, out = tmp_path / "r.html", tmp_path / "csv"
    assert cli.main(["balance", str(d), "--games", "20", "--html", str(html), "--csv", str(out)]) == 0
    page = html.read_text(encoding="utf-8")
    assert "<script>" not in page and "&lt;script&gt;" in page
    svgs = re.findall(r"<svg.*?</svg>", page, re.S)
    assert len(svgs) >= 5
    for svg in svgs:
        ET.fromstring(svg)
    with open(out / "config1_seats.csv", encoding="utf-8") as f:
        rows = list(csv.reader(f))
    assert rows[0][:3] == ["seat", "wins", "win_rate"] and float(rows[1][2]) == 1.0
    assert (out / "config1_actions.csv").exists()


def test_unknown_option_is_a_clear_error(tmp_path, capsys):
    d = write(tmp_path, ALWAYS)
    assert cli.main(["balance", str(d), "--games", "5", "--vs-set", "bias=2"]) == 1
    assert "no option or constant 'bias'" in capsys.readouterr().err


def _with_module_even(tmp_path, name="game"):
    """ALWAYS with seat 1's head start a constant, and a module `even` setting it to 0."""
    base = ALWAYS.replace("per player:", "const HEAD = 3\nper player:").replace("n + 3", "n + HEAD")
    even = """
        module even:
            title "No head start"
        override const HEAD = 0
    """
    return write(tmp_path, base, name=name, files={"even": even})


def test_vs_with_compares_a_module(tmp_path, capsys):
    d = _with_module_even(tmp_path)
    rep = _json(capsys, ["balance", str(d), "--games", "60", "--vs-with", "even"])
    assert [c["config"]["modules"] for c in rep["configurations"]] == [[], ["even"]]
    first = {r["what"]: r for r in rep["comparison"]["rows"]}["win rate, seat 1"]
    assert first["first"] == 1.0 and first["second"] < 0.7 and first["significant"]


def test_an_html_file_that_cannot_be_written_is_a_clear_error(tmp_path, capsys):
    d = write(tmp_path, ALWAYS)
    assert cli.main(["balance", str(d), "--games", "3", "--html", str(tmp_path / "no" / "r.html")]) == 1
    assert "r.html" in capsys.readouterr().err


# Player 1 always wins; the bonus fires only for the winner, `on game end` for nobody, and
# the one-option choice is taken by the rules, not chosen.
TRIGGERS = """
game trig:
    players 2..2
per player:
    points: int = 0
flow:
    for p in players:
        act p: go
action go(n in [1, 2]):
    if me == player(1):
        me.points += 5
        emit bonus(me)
    choose k in [7], by me:
        me.points += 0
on bonus(who: Player):
    who.points += 1
on game end:
    player(2).points += 0
score: me.points
"""


def test_triggers_fired_for_winners_and_losers_and_forced_choices_are_not_chosen(tmp_path, capsys):
    d = write(tmp_path, TRIGGERS)
    rep = _json(capsys, ["balance", str(d), "--games", "30"])["configurations"][0]
    trig = {r["trigger"]: r for r in rep["actions"]["triggers"]}
    assert set(trig) == {"on bonus"}
    assert trig["on bonus"]["by_winners"] == 30 and trig["on bonus"]["by_losers"] == 0
    assert trig["on bonus"]["used_winners"] == 1.0 and trig["on bonus"]["p_holm"] < 0.05
    fired = {r["trigger"]: r for r in rep["fired"]}
    assert fired["on bonus"]["per_game"] == 1.0 and fired["on game end"]["games_fired"] == 1.0
    assert [r["action"] for r in rep["actions"]["actions"]] == ["go"]        # `k=7` was not chosen
    assert rep["length_moves"]["mean"] == 2.0


def test_svg_writes_every_chart_as_a_file(tmp_path, capsys):
    d = write(tmp_path, TRIGGERS)
    out = tmp_path / "svg"
    assert cli.main(["balance", str(d), "--games", "20", "--svg", str(out), "--vs-set", "nothing=1"]) == 1
    capsys.readouterr()
    d2 = _with_module_even(tmp_path, "g2")
    assert cli.main(["balance", str(d2), "--games", "20", "--svg", str(out), "--vs-with", "even"]) == 0
    names = sorted(p.name for p in out.iterdir())
    assert "compared-win-rate-by-seat.svg" in names and "config2-win-rate-by-seat.svg" in names
    assert "config1-scores-seat-2.svg" in names and "config1-actions.svg" in names
    for p in out.iterdir():
        ET.fromstring(p.read_text(encoding="utf-8"))
    assert cli.main(["balance", str(d2), "--games", "2", "--svg", str(tmp_path / "g2" / "game.regola")]) == 1
    assert "game.regola" in capsys.readouterr().err


# Each player takes a card from the supply; whoever holds the crown wins (score 1).
CROWN = """
game crown:
    players 2..2
record Card:
    value: int
components Card:
    | name  | value | count |
    | crown | 1     | 1     |
    | rag   | 0     | 3     |
global:
    supply: pile of Card
per player:
    hand: pile of Card
    shelf: sequence of Card
setup:
    fill supply with copies(Card)
flow:
    for p in players:
        act p: take
action take(k in supply):
    move k from supply -> me.hand
score: sum(c.value for c in me.hand)
"""


def test_components_held_at_the_end_by_winners_and_losers(tmp_path, capsys):
    d = write(tmp_path, CROWN)
    rep = _json(capsys, ["balance", str(d), "--games", "80"])["configurations"][0]
    rows = {(r["zone"], r["kind"]): r for r in rep["held"]["rows"]}
    assert set(rows) == {("hand", "crown"), ("hand", "rag")}           # the empty shelf has no rows
    crown = rows[("hand", "crown")]
    # a loser never holds the crown; a winner does unless nobody took it (a draw: both win)
    assert crown["holding_losers"] == 0.0 and crown["mean_losers"] == 0.0
    # winner player-games: 80 plus one per draw; the crown was taken in the 80 - draws others
    wins = rep["held"]["winner_player_games"]
    assert round(crown["mean_winners"] * wins) == 80 - (wins - 80) and wins > 80
    assert crown["holding_winners"] == crown["mean_winners"]
    assert crown["difference"] > 0.3 and crown["p_holm"] < 0.001
    assert rows[("hand", "rag")]["mean_losers"] == 1.0
    assert cli.main(["balance", str(d), "--games", "10"]) == 0
    assert "hand: crown" in capsys.readouterr().out


def test_turns_are_runs_of_one_players_chosen_decisions():
    from regola.runtime.record import Record
    from regola.tools.balance_collect import turns_of
    rec = Record()
    for site, player, forced in [(0, 0, False), (1, 0, False), (2, 1, True), (1, 0, False),
                                 (0, 1, False), (1, 1, False), (1, 0, True), (0, 0, False), (0, 1, False)]:
        rec.taken.append((site, player, (), forced))
    assert turns_of(rec) == 4          # 0 0 [1] 0 | 1 1 | [0] 0 | 1
    assert turns_of(Record()) == 0


# Both players always score the same: a cooperative game.
TEAM = """
game team:
    players 2..2
global:
    points: int = 0
flow:
    for p in players:
        act p: add
action add(n in [1, 2]):
    points += n
score: points
"""


def test_a_cooperative_game_says_the_seats_cannot_differ(tmp_path, capsys):
    d = write(tmp_path, TEAM)
    rep = _json(capsys, ["balance", str(d), "--games", "30"])["configurations"][0]
    sa = rep["seat_advantage"]
    assert sa["cooperative"] and [r["win_rate"] for r in sa["seats"]] == [0.5, 0.5]
    assert cli.main(["balance", str(d), "--games", "30"]) == 0
    out = capsys.readouterr().out
    assert "cooperative: every player scored the same" in out and "inconclusive" not in out
    assert not _json(capsys, ["balance", str(write(tmp_path, ALWAYS, name="a")), "--games", "5"]
                     )["configurations"][0]["seat_advantage"]["cooperative"]
