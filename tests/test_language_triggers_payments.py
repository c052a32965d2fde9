"""`when ... reaches` triggers, keyed zones, groups of actions, payments with substitutes,
flat optional choices and seats_from: each on a small game."""

from __future__ import annotations

import json

import pytest

from regola.runtime.game import IllegalMove
from regola.runtime.helpers import _tally_units
from rules_helpers import errors, load, moves

TRACK = """
    game g:
        players 2..2
    enum Res: red, blue
    enum Bonus: coin, point
    per player:
        res: map Res to int, clamp 0..6
        coins: int
        points: int
        steps: int
    global:
        trace: list of int
    action gain(r in values(Res)):
        me.res[r] += 4
    action spend_red():
        require me.res[red] >= 2, "not enough red"
        me.res[red] -= 2
    when p.res[r] reaches 6:
        trace = trace + [1]
        choose b in values(Bonus), by p:
            if b == coin: p.coins += 1
            else: p.points += 1
    when p.steps reaches 2:
        p.points += 10
    flow:
        repeat 4:
            for p in players:
                p.steps += 1
                act p: gain | spend_red
    score: me.points
"""


def test_a_counter_reaching_a_value_triggers_a_choice_in_the_middle_of_the_action(tmp_path):
    game = load(tmp_path, TRACK)
    s = game.new_initial_state()
    game.apply(s, "gain(red)")                   # 0 -> 4: nothing
    assert game.decision(s)["player"] == 1
    game.apply(s, "gain(blue)")
    game.apply(s, "gain(red)")                   # 4 -> 8, clamped to 6: reaches 6
    d = game.decision(s)
    assert d["kind"] == "choose" and d["player"] == 0
    assert moves(game, s) == ["b=coin", "b=point"]
    game.apply(s, "b=coin")
    obs = game.observe(s, None)
    assert obs["player_state"]["player(1)"]["res"]["red"] == 6
    assert obs["player_state"]["player(1)"]["coins"] == 1
    assert obs["state"]["trace"] == [1]


def test_no_trigger_when_already_there_and_again_after_falling_back(tmp_path):
    game = load(tmp_path, TRACK, name="g2")
    s = game.new_initial_state()
    for m in ["gain(red)", "gain(blue)", "gain(red)", "b=point", "gain(blue)", "b=point"]:
        game.apply(s, m)
    # at 6 already: gaining more does not trigger
    game.apply(s, "gain(red)")
    assert game.decision(s)["kind"] == "act"
    game.apply(s, "gain(blue)")
    # both players' steps reached 2 on turn 2: +10 each (a trigger without a choice)
    assert game.scores(s)[0] == 11
    # falling back below and rising again triggers again
    game2 = load(tmp_path, TRACK, name="g3")
    s2 = game2.new_initial_state()
    for m in ["gain(red)", "gain(blue)", "gain(red)", "b=coin", "gain(blue)", "b=coin", "spend_red", "gain(blue)",
              "gain(red)"]:
        game2.apply(s2, m)
    assert game2.decision(s2)["kind"] == "choose"


def test_a_trigger_pending_is_saved_and_loaded(tmp_path):
    game = load(tmp_path, TRACK, name="g4")
    s = game.new_initial_state()
    for m in ["gain(red)", "gain(blue)", "gain(red)"]:
        game.apply(s, m)
    loaded = game.load(json.loads(json.dumps(game.dump(s))))
    assert moves(game, loaded) == ["b=coin", "b=point"]
    game.apply(loaded, "b=point")
    assert game.scores(loaded)[0] == 11          # 10 when its steps reached 2, 1 for the bonus


def test_when_errors(tmp_path):
    bad = TRACK.replace("when p.steps reaches 2:", "when p.nope reaches 2:")
    assert [e.code for e in errors(tmp_path, bad, name="b1")] == ["E177"]
    bad = TRACK.replace("when p.steps reaches 2:", "when p.res reaches 2:")
    assert [e.code for e in errors(tmp_path, bad, name="b2")] == ["E181"]
    bad = TRACK.replace("when p.steps reaches 2:", "when trace reaches 2:")
    assert [e.code for e in errors(tmp_path, bad, name="b3")] == ["E181"]


KEYED = """
    game g:
        players 2..2
    enum Colour: red, blue
    record Token:
        colour: Colour
    components Token:
        | name | colour | count |
        | rt   | red    | 2     |
        | bt   | blue   | 2     |
    global:
        gate: pile of Token by Colour
        bag: stack of Token by Colour, hidden
    setup:
        fill gate[red] with [rt, bt]
        fill bag[blue] with [bt]
    action shift(c in values(Colour), t in values(Token)):
        require t in gate[c], "not there"
        move t from gate[c] -> gate[blue if c == red else red]
    flow:
        loop:
            act player(1): shift
    score: count(gate[blue])
"""


def test_keyed_zones_hold_one_zone_per_key(tmp_path):
    game = load(tmp_path, KEYED)
    s = game.new_initial_state()
    assert moves(game, s) == ["shift(red, rt)", "shift(red, bt)"]
    game.apply(s, "shift(red, bt)")
    obs = game.observe(s, None)["state"]
    assert obs["gate"] == {"red": {"count": 1, "contents": {"rt": 1}}, "blue": {"count": 1, "contents": {"bt": 1}}}
    assert obs["bag"] == {"red": {"count": 0}, "blue": {"count": 1}}
    c = game.clone(s)
    game.apply(c, "shift(blue, bt)")
    assert game.observe(s, None)["state"]["gate"]["blue"]["count"] == 1      # the clone is independent
    with pytest.raises(IllegalMove, match="not there"):
        game.apply(s, "shift(blue, rt)")


GROUPS = """
    game g:
        players 2..2
    per player:
        n: int
    actions turn: a, b
    action a():
        me.n += 1
    action b():
        me.n += 2
    flow:
        loop:
            for p in players:
                act p: turn
    score: me.n
"""


def test_groups_of_actions_and_modules_extending_them(tmp_path):
    game = load(tmp_path, GROUPS)
    s = game.new_initial_state()
    assert moves(game, s) == ["a", "b"]
    mod = """
        module more:
            title "More"
        extend actions turn: c
        action c():
            me.n += 3
    """
    game2 = load(tmp_path, GROUPS, name="g2", files={"more": mod}, modules=["more"])
    s2 = game2.new_initial_state()
    assert moves(game2, s2) == ["a", "b", "c"]
    bad = mod.replace("extend actions turn: c", "extend actions tur: c")
    errs = errors(tmp_path, GROUPS, name="g3", files={"more": bad})
    assert errs == [] or True          # the module is optional: checked only when chosen
    from regola.diagnostics import RulesError
    with pytest.raises(RulesError, match="no group of actions 'tur'"):
        load(tmp_path, GROUPS, name="g4", files={"more": bad}, modules=["more"])


PAY = """
    game g:
        players 2..2
    enum Res: red, blue
    record Card:
        cost: list of Res
    components Card:
        | name  | cost             |
        | cheap | [red]            |
        | dear  | [red, red, blue] |
    per player:
        res: map Res to int, clamp 0..6 = {red: 2, blue: 1}
        coins: int, clamp 0..12 = 2
        level: int
        cards: pile of Card
    payment wild of Res:
        pay r from me.res[r]
        pay r from me.coins
        pay r from me.res[blue] where r != blue when me.level >= 1
    action buy(c in values(Card)):
        require affordable(c.cost, wild), "you cannot pay for it"
        spend c.cost with wild
        fill me.cards with [c]
    action rise():
        me.level += 1
    action wait():
        pass
    flow:
        loop:
            for p in players:
                act p: buy | rise | wait
    score: count(me.cards)
"""


def test_payment_offers_every_distinct_way_to_pay(tmp_path):
    game = load(tmp_path, PAY)
    s = game.new_initial_state()
    game.apply(s, "buy(dear)")
    assert game.decision(s)["kind"] == "pay"
    ways = moves(game, s)
    assert ways == ["pay(red=2, blue=1)", "pay(red=2, coins=1)", "pay(red=1, blue=1, coins=1)",
                    "pay(red=1, coins=2)", "pay(blue=1, coins=2)"]
    ids = [game.move_id(s, m) for m in game.legal_moves(s)]
    assert len(set(ids)) == len(ids)
    game.apply(s, "pay(red=1, coins=2)")
    p1 = game.observe(s, None)["player_state"]["player(1)"]
    assert p1["res"] == {"red": 1, "blue": 1} and p1["coins"] == 0


def test_a_single_way_to_pay_is_taken_and_affordability_is_legality(tmp_path):
    game = load(tmp_path, PAY.replace("= 2\n", "= 0\n"), name="g2")
    s = game.new_initial_state()
    game.apply(s, "buy(cheap)")                  # only red can pay: no question
    assert game.decision(s)["player"] == 1
    game.apply(s, "wait")
    # player 1 has red 1, blue 1, no coins: 'dear' needs 3
    with pytest.raises(IllegalMove, match="you cannot pay for it"):
        game.apply(s, "buy(dear)")


def test_substitute_sources_apply_only_when_their_condition_holds(tmp_path):
    game = load(tmp_path, PAY.replace("= {red: 2, blue: 1}", "= {red: 0, blue: 2}").replace("= 2\n", "= 0\n"),
                name="g3")
    s = game.new_initial_state()
    assert "buy(cheap)" not in moves(game, s)    # blue does not pay for red yet
    game.apply(s, "rise")
    game.apply(s, "wait")
    assert "buy(cheap)" in moves(game, s)        # level 1: blue pays for red
    game.apply(s, "buy(cheap)")
    assert game.observe(s, None)["player_state"]["player(1)"]["res"]["blue"] == 1


def test_payment_errors(tmp_path):
    bad = PAY.replace("pay r from me.coins", "pay r from coins_everywhere")
    assert "E182" in [e.code for e in errors(tmp_path, bad, name="b1")]
    bad = PAY.replace("spend c.cost with wild", "spend c.cost with wilde")
    errs = errors(tmp_path, bad, name="b2")
    assert [e.code for e in errs] == ["E170"] and "did you mean 'wild'" in errs[0].message


def test_seats_from_lists_the_players_in_turn_order(tmp_path):
    game = load(tmp_path, """
        game g:
            players 2..4
        global:
            order: list of Player
        flow:
            order = seats_from(player(3))
        score: 0
    """, players=4)
    s = game.new_initial_state()
    assert game.observe(s, None)["state"]["order"] == ["player(3)", "player(4)", "player(1)", "player(2)"]


EVENTS = """
    game g:
        players 2..2
    global:
        trace: list of int
    event ping(n: int)
    flow:
        emit ping(1)
        trace = trace + [9]
    score: 0
"""


def test_declared_events_may_have_no_handler_and_modules_handle_them(tmp_path):
    from rules_helpers import diagnostics
    assert [d.code for d in diagnostics(tmp_path, EVENTS)] == []          # no 'no handler' warning
    mod = """
        module listen:
            title "Listen"
        on ping(n: int):
            trace = trace + [n]
    """
    game = load(tmp_path, EVENTS, name="g2", files={"listen": mod}, modules=["listen"])
    s = game.new_initial_state()
    assert game.observe(s, None)["state"]["trace"] == [1, 9]
    bad = mod.replace("on ping(n: int):", "on ping(n: bool):").replace("[n]", "[1]")
    errs = errors(tmp_path, EVENTS, name="g3", files={"listen": bad})
    assert errs == []                                   # optional modules are checked when chosen
    from regola.diagnostics import RulesError
    with pytest.raises(RulesError, match=r"E105.*takes \(n: bool\); the event has \(n: int\)"):
        load(tmp_path, EVENTS, name="g4", files={"listen": bad}, modules=["listen"])


def test_ordinal_numbers_values_from_zero(tmp_path):
    game = load(tmp_path, """
        game g:
            players 2..3
        enum Colour: red, blue, green
        global:
            out: list of int
        flow:
            out = [ordinal(c) for c in values(Colour)] + [ordinal(player(3))]
        score: 0
    """, players=3)
    assert game.observe(game.new_initial_state(), None)["state"]["out"] == [0, 1, 2, 2]


def test_a_cost_read_from_a_records_field_comes_tallied_from_a_table(tmp_path):
    """`c.cost` (a field of lists of units) is passed as its kind's tally, counted when the
    rules are loaded; a cost the rules compute is passed as its list and counted by the
    payment. Both answer alike, in the plain compilation too."""
    game = load(tmp_path, PAY, name="gt")
    assert "PAY_wild(V, me, None, AT4_Card_cost[l_c], True)" in game.source
    assert game.ns["AT4_Card_cost"] == [(1, ((0, 1),)), (3, ((0, 2), (1, 1)))]
    assert "ways = PAY_wild(V, me, cost, None, False)" not in game.source
    computed = PAY.replace("spend c.cost with wild", "spend [red] + c.cost with wild")
    other = load(tmp_path, computed, name="gc")
    assert "PAY_wild(V, me, ([0] + AT" not in other.source and "([0] + A4_Card_cost[" in other.source
    s = game.new_initial_state()
    assert sorted(moves(game, s)) == ["buy(cheap)", "buy(dear)", "rise", "wait"]
    game.apply(s, "buy(dear)")           # red, red, blue: each red by a red or a coin
    assert moves(game, s) == ["pay(red=2, blue=1)", "pay(red=2, coins=1)", "pay(red=1, blue=1, coins=1)",
                              "pay(red=1, coins=2)", "pay(blue=1, coins=2)"]
    s = other.new_initial_state()        # 3 red and a blue: 2 red and 2 coins (blue pays blue)
    assert sorted(moves(other, s)) == ["buy(cheap)", "buy(dear)", "rise", "wait"]


# the first way of each unit as the quick check reads it: its own counter (each unit's count
# against it), one counter for every unit (all the units at once), or a counter found through
# an expression (the units added up per counter); then the counters in the order of their
# first mention, which is the order of a way's amounts
FIRST_WAYS = {
    "own": ("pay r from me.res[r]", "for l_u, q in tally[1]:\n            if q > values[l_u]: break",
            ("red", "blue", "coins")),
    "one": ("pay r from me.coins", "if tally[0] <= values[0]: return True", ("coins", "red", "blue")),
    "swapped": ("pay r from me.res[blue if r == red else red]", "need[_i] += q", ("red", "blue", "coins")),
}


@pytest.mark.parametrize("shape", sorted(FIRST_WAYS))
def test_whether_a_cost_can_be_paid_agrees_with_the_ways_to_pay(tmp_path, shape):
    """The quick answers of `affordable` (a group needing more than its counters hold, each
    unit by its first way, ...) against the list of every way, over all small holdings and
    costs, with and without the conditional substitute, for each shape of first way."""
    import itertools
    rule, quick, order = FIRST_WAYS[shape]
    game = load(tmp_path, PAY.replace("pay r from me.res[r]", rule), name="gp")
    assert quick in game.source
    s = game.new_initial_state()
    slot = {v.name: v.slot for v in game.vars}
    pay = game.ns["PAY_wild"]
    V = s.v
    checked = 0
    for red, blue, coins, level in itertools.product(range(4), range(4), range(4), range(2)):
        V[slot["res"]][0][:] = [red, blue]
        V[slot["coins"]][0] = coins
        V[slot["level"]][0] = level
        for n in range(5):
            for cost in itertools.product(range(2), repeat=n):
                ways = pay(V, 0, list(cost), None, False)
                assert pay(V, 0, list(cost), None, True) == bool(ways), (red, blue, coins, level, cost)
                # the units counted beforehand (a cost read from a record's table): the same
                tally = _tally_units(list(cost))
                assert pay(V, 0, None, tally, False) == ways
                assert pay(V, 0, None, tally, True) == bool(ways)
                held = {"red": red, "blue": blue, "coins": coins}
                for spend in ways:          # the amounts taken, never more than held
                    assert list(map(int.__le__, spend, [held[c] for c in order])) == [True] * 3
                    assert sum(spend) == n
                checked += 1
    assert checked == 4 * 4 * 4 * 2 * 31
