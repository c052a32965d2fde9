"""Zones: stack (drawing is chance), pile, sequence, row, slots by a type; moving components."""

from __future__ import annotations

import textwrap

import pytest

from regola.runtime.game import IllegalMove
from regola.runtime.helpers import RulesRuntimeError
from regola.snippets import SnippetCompiler
from rules_helpers import errors, load, moves


CARDS = """
record Card:
    value: int
components Card:
    | name | value | count |
    | a    | 1     | 3     |
    | b    | 2     | 1     |
    | c    | 3     | 2     |
"""


# ---------------------------------------------------------------- stacks and chance

DRAW = """
game g:
    players 2..2
""" + CARDS + """
global:
    deck: stack of Card
per player:
    hand: pile of Card
setup:
    fill deck with copies(Card)
    draw deck -> player(1).hand
    draw deck -> player(2).hand
flow:
    pass
score: count(me.hand)
"""


def test_drawing_from_a_stack_is_a_chance_event_weighted_by_counts(tmp_path):
    game = load(tmp_path, DRAW)
    s = game.new_initial_state(seed=1)
    assert game.is_chance(s)
    assert game.current_player(s) == -1
    assert game.legal_moves(s) == []
    outs = game.chance_outcomes(s)
    assert [(game.outcome_str(s, k), p) for k, p in outs] == [("a", 3 / 6), ("b", 1 / 6), ("c", 2 / 6)]
    assert sum(p for _, p in outs) == pytest.approx(1.0)
    game.apply_chance(s, "b")
    # the drawn copy is gone from the stack: 'b' is no longer possible
    outs = game.chance_outcomes(s)
    assert [(game.outcome_str(s, k), p) for k, p in outs] == [("a", 3 / 5), ("c", 2 / 5)]
    with pytest.raises(IllegalMove, match="not possible"):
        game.apply_chance(s, "b")
    with pytest.raises(IllegalMove):
        game.apply(s, ())          # a chance event is not a player's decision
    game.apply_chance(s, 2)        # an outcome may also be given by index
    assert game.is_terminal(s)
    hands = {p: game.observe(s, None)["player_state"][p]["hand"] for p in ("player(1)", "player(2)")}
    assert hands == {"player(1)": {"count": 1, "contents": {"b": 1}},
                     "player(2)": {"count": 1, "contents": {"c": 1}}}
    # a stack is hidden unless declared otherwise: only its count is shown
    assert game.observe(s, 0)["state"]["deck"] == {"count": 4}


def test_sampling_chance_is_seeded(tmp_path):
    game = load(tmp_path, DRAW)

    def run(seed):
        s = game.new_initial_state(seed=seed)
        out = []
        while game.is_chance(s):
            o = game.sample_chance(s)
            out.append(game.outcome_str(s, o))
            game.apply_chance(s, o)
        return out

    runs = {seed: run(seed) for seed in range(12)}
    assert all(run(seed) == r for seed, r in list(runs.items())[:3])       # same seed, same draws
    assert len({tuple(r) for r in runs.values()}) > 1                        # seeds differ


def test_a_stack_holding_one_kind_draws_without_a_chance_event(tmp_path):
    game = load(tmp_path, DRAW.replace("fill deck with copies(Card)", "fill deck with [c, c]"))
    s = game.new_initial_state()
    assert not game.is_chance(s)
    assert game.is_terminal(s)
    assert game.observe(s, None)["player_state"]["player(1)"]["hand"]["contents"] == {"c": 1}
    assert game.observe(s, None)["player_state"]["player(2)"]["hand"]["contents"] == {"c": 1}


def test_drawing_the_last_kinds_stops_being_chance_when_one_kind_is_left(tmp_path):
    game = load(tmp_path, DRAW.replace("fill deck with copies(Card)", "fill deck with [a, b]"))
    s = game.new_initial_state()
    assert game.is_chance(s)
    game.apply_chance(s, "a")
    assert game.is_terminal(s)          # only 'b' was left: drawn without asking chance
    assert game.observe(s, None)["player_state"]["player(2)"]["hand"]["contents"] == {"b": 1}


def test_drawing_from_an_empty_stack_is_a_rules_error(tmp_path):
    game = load(tmp_path, DRAW.replace("fill deck with copies(Card)", "fill deck with [a]"))
    with pytest.raises(RulesRuntimeError, match="cannot draw from an empty stack"):
        game.new_initial_state()


def test_draw_from_a_pile_is_an_error(tmp_path):
    errs = errors(tmp_path, DRAW.replace("deck: stack of Card", "deck: pile of Card"))
    assert {e.code for e in errs} == {"E135"}
    assert "stack" in errs[0].message


# ---------------------------------------------------------------- piles, sequences, rows, slots

ZONES = """
game g:
    players 2..2
enum Side: north, south
""" + CARDS + """
global:
    supply: pile of Card
    market: row of 3 Card
    guard: slots of Card by Side
    seat: slots of Card by Player
    gone: pile of Card
per player:
    hand: pile of Card
    tableau: sequence of Card
setup:
    fill supply with copies(Card)
    move b from supply -> market[1]
    move c from supply -> market[2]
flow:
    loop:
        act player(1): buy | take | lay | guard_it | seat_it | burn | sweep | stop
action buy(s in slots(market) where market[s] != none):
    move market[s] -> me.hand
    compact market
action take(k in supply):
    move k from supply -> me.hand
action lay(k in me.hand):
    move k from me.hand -> me.tableau
action guard_it(k in me.hand, side in slots(guard) where guard[side] == none):
    move k from me.hand -> guard[side]
action seat_it(side in values(Side) where guard[side] != none, p in players where seat[p] == none):
    move guard[side] -> seat[p]
action burn(p in players where seat[p] != none):
    discard seat[p]
action sweep():
    require count(me.tableau) > 0, "nothing to sweep"
    move all from me.tableau -> gone
    discard all from supply
action stop():
    end game
score: sum(k.value for k in me.tableau)
"""


@pytest.fixture
def zones(tmp_path):
    game = load(tmp_path, ZONES)
    return game, game.new_initial_state()


def state(game, s):
    o = game.observe(s, 0)
    return o["state"], o["player_state"]["player(1)"]


def test_pile_counts_kinds(zones):
    game, s = zones
    g, me = state(game, s)
    assert g["supply"] == {"count": 4, "contents": {"a": 3, "c": 1}}
    # a parameter over a pile ranges over the kinds present, once each
    assert [m for m in moves(game, s) if m.startswith("take")] == ["take(a)", "take(c)"]
    game.apply(s, "take(a)")
    game.apply(s, "take(a)")
    g, me = state(game, s)
    assert me["hand"] == {"count": 2, "contents": {"a": 2}}
    assert g["supply"]["contents"] == {"a": 1, "c": 1}
    sc = SnippetCompiler(game)
    assert sc.expression("a in player(1).hand")(s) is True
    assert sc.expression("b in player(1).hand")(s) is False
    assert sc.expression("count(player(1).hand)")(s) == 2
    assert sc.expression("count(k for k in player(1).hand where k == a)")(s) == 2


def test_sequence_keeps_order(zones):
    game, s = zones
    for m in ["take(c)", "take(a)", "buy(1)", "lay(c)", "lay(b)", "lay(a)"]:
        game.apply(s, m)
    _, me = state(game, s)
    assert me["tableau"] == ["c", "b", "a"]
    assert SnippetCompiler(game).expression("player(1).tableau")(s) == [2, 1, 0]


def test_row_slots_and_compact(zones):
    game, s = zones
    g, _ = state(game, s)
    assert g["market"] == {"0": None, "1": "b", "2": "c"}
    assert [m for m in moves(game, s) if m.startswith("buy")] == ["buy(1)", "buy(2)"]
    game.apply(s, "buy(1)")
    g, me = state(game, s)
    # compact shifts the remaining components towards slot 0
    assert g["market"] == {"0": "c", "1": None, "2": None}
    assert me["hand"]["contents"] == {"b": 1}
    assert SnippetCompiler(game).expression("count(market)")(s) == 1


def test_slots_by_enum_and_by_player(zones):
    game, s = zones
    game.apply(s, "take(a)")
    game.apply(s, "take(c)")
    assert [m for m in moves(game, s) if m.startswith("guard_it")] == [
        "guard_it(a, north)", "guard_it(a, south)", "guard_it(c, north)", "guard_it(c, south)"]
    game.apply(s, "guard_it(c, south)")
    g, _ = state(game, s)
    assert g["guard"] == {"north": None, "south": "c"}
    assert [m for m in moves(game, s) if m.startswith("guard_it")] == ["guard_it(a, north)"]
    assert [m for m in moves(game, s) if m.startswith("seat_it")] == [
        "seat_it(south, player(1))", "seat_it(south, player(2))"]
    game.apply(s, "seat_it(south, player(2))")
    g, _ = state(game, s)
    assert g["guard"] == {"north": None, "south": None}
    assert g["seat"] == {"player(1)": None, "player(2)": "c"}
    game.apply(s, "burn(player(2))")
    g, _ = state(game, s)
    assert g["seat"] == {"player(1)": None, "player(2)": None}
    assert g["gone"]["count"] == 0          # discarded: removed from the game, not moved


def test_move_all_and_discard_all(zones):
    game, s = zones
    assert "sweep" not in moves(game, s)
    for m in ["take(a)", "take(a)", "lay(a)", "lay(a)"]:
        game.apply(s, m)
    game.apply(s, "sweep")
    g, me = state(game, s)
    assert me["tableau"] == []
    assert g["gone"] == {"count": 2, "contents": {"a": 2}}
    assert g["supply"] == {"count": 0, "contents": {}}


def test_moving_a_kind_that_is_not_there_is_a_rules_error(tmp_path):
    game = load(tmp_path, """
        game g:
            players 2..2
        """ + textwrap.indent(textwrap.dedent(CARDS), "        ") + """
        global:
            supply: pile of Card
        per player:
            hand: pile of Card
        setup:
            fill supply with [a]
            move b from supply -> player(1).hand
        flow:
            pass
        score: 0
    """)
    with pytest.raises(RulesRuntimeError, match="there is no b there to move"):
        game.new_initial_state()


def test_moving_into_an_occupied_slot_is_a_rules_error(tmp_path):
    game = load(tmp_path, """
        game g:
            players 2..2
        """ + textwrap.indent(textwrap.dedent(CARDS), "        ") + """
        global:
            supply: pile of Card
            market: row of 2 Card
        setup:
            fill supply with copies(Card)
            move a from supply -> market[0]
            move c from supply -> market[0]
        flow:
            pass
        score: 0
    """)
    with pytest.raises(RulesRuntimeError, match="already occupied"):
        game.new_initial_state()


def test_moving_from_an_empty_slot_is_a_rules_error(tmp_path):
    game = load(tmp_path, """
        game g:
            players 2..2
        """ + textwrap.indent(textwrap.dedent(CARDS), "        ") + """
        global:
            market: row of 2 Card
            supply: pile of Card
        setup:
            move market[1] -> supply
        flow:
            pass
        score: 0
    """)
    with pytest.raises(RulesRuntimeError, match="that slot is empty"):
        game.new_initial_state()


@pytest.mark.parametrize("stmt, code", [
    ("compact supply", "E135"),             # only rows compact
    ("move supply -> market[0]", "E135"),  # a pile has no slot to name
    ("move a from market -> supply", "E135"),   # name the slot of a row
    ("fill market with [a]", "E135"),      # rows are filled with 'move'
    ("move all from supply -> market[0]", "E135"),
])
def test_zone_misuse_is_reported(tmp_path, stmt, code):
    errs = errors(tmp_path, """
        game g:
            players 2..2
        """ + textwrap.indent(textwrap.dedent(CARDS), "        ") + f"""
        global:
            supply: pile of Card
            market: row of 2 Card
        setup:
            {stmt}
        flow:
            pass
        score: count(supply) + count(market)
    """)
    assert [e.code for e in errs][:1] == [code]


def test_a_parameter_named_like_an_internal_key_survives_a_draw(tmp_path):
    game = load(tmp_path, """
        game g:
            players 2..2
        """ + textwrap.indent(textwrap.dedent(CARDS), "        ") + """
        global:
            deck: stack of Card
        per player:
            hand: pile of Card
            pts: int
        setup:
            fill deck with copies(Card)
        flow:
            act player(1): take
        action take(_o in [1, 2]):
            draw deck -> me.hand
            me.pts += _o
        score: me.pts
    """)
    s = game.new_initial_state()
    game.apply(s, "take(2)")
    game.step_chance(s)
    assert game.scores(s) == [2, 0]


def test_counting_one_kind_in_a_pile(tmp_path):
    # count(x for x in PILE where x == k) is compiled to one lookup; the other forms loop
    game = load(tmp_path, """
        game g:
            players 2..2
        record Gem:
            worth: int
        components Gem:
            | name  | worth | count |
            | ruby  | 3     | 4     |
            | jade  | 1     | 2     |
        global:
            bag: pile of Gem
            got: int
        def rubies() -> int = count(x for x in bag where x == ruby)
        def jades() -> int = count(x for x in bag where jade == x)
        def of(k: Gem or none) -> int = count(x for x in bag where x == k)
        setup:
            fill bag with copies(Gem)
            got = rubies() * 100 + jades() * 10 + of(none) + count(x for x in bag where x.worth == 1)
        flow:
            pass
        score: got
        """)
    s = game.new_initial_state()
    assert game.scores(s) == [422, 422]


PER_PLAYER_CONTAINERS = """
game keyed:
    players 3..3
enum Kind: a, b
record Token:
    kind: Kind
components Token:
    | name | kind | count |
    | ta   | a    | 6     |
    | tb   | b    | 6     |
global:
    supply: pile of Token
per player:
    bonuses: pile of Token by Kind, private
    shelf: slots of Token by Kind
    row2: pile of Token by Kind
    tally: map Kind to int
    picks: list of int
setup:
    fill supply with [ta, ta, ta, ta, ta, ta, tb, tb, tb, tb, tb, tb]
flow:
    move ta from supply -> player(1).bonuses[a]
    move tb from supply -> player(2).shelf[b]
    player(3).tally[b] += 2
    player(3).picks = [7]
    act player(1): stop
action stop():
    pass
score: count(me.bonuses[a]) * 100 + (10 if me.shelf[b] != none else 0) + me.tally[b]
"""


def test_per_player_containers_are_each_players_own(tmp_path):
    """A keyed zone (one zone per key) and every other container declared per player is
    the player's own: a change to one player's never shows in another's, nor through a
    clone or a save."""
    import json
    game = load(tmp_path, PER_PLAYER_CONTAINERS, players=3)
    s = game.new_initial_state(0)
    assert game.scores(s) == [100, 10, 2]
    c = game.clone(s)
    again = game.load(json.loads(json.dumps(game.dump(s))))
    for other in (c, again):
        assert game.scores(other) == [100, 10, 2]
    obs = game.observe(s, 0)["player_state"]
    assert obs["player(1)"]["bonuses"]["a"]["count"] == 1 and obs["player(2)"]["bonuses"]["a"]["count"] == 0
    # a change in the clone stays in the clone (changed directly: detached first)
    game.detach(c)
    c.v[game.compiled.slots[".bonuses"]][1][0][0] += 1      # player 2, key a, kind ta
    count_a = lambda st, p: game.observe(st, p)["player_state"][f"player({p + 1})"]["bonuses"]["a"]["count"]  # noqa: E731
    assert [count_a(s, p) for p in range(3)] == [1, 0, 0] and [count_a(c, p) for p in range(3)] == [1, 1, 0]
