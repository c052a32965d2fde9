"""Actions: parameters, `where`, `require`, `cost`; `act` with `optional`, extra `cost`, `else pass`."""

from __future__ import annotations

import copy
import re
import textwrap

import pytest

from regola.runtime.game import IllegalMove
from regola.runtime.helpers import RulesRuntimeError
from rules_helpers import errors, line_of, load, moves


def snapshot(game, s):
    return copy.deepcopy(game.dump(s))


SHOP = """
game shop:
    players 2..2
enum Good: bread, wine, silk
per player:
    coins: int, min 0
    goods: map Good to int
global:
    stalls: int
setup:
    for p in players:
        p.coins = 4
flow:
    loop:
        for p in players:
            act p: buy | beg | close
cite "Buying"
action buy(g in values(Good) where g != silk, n in [1, 2, 3]):
    require stalls < 3, "the market is closed"
    require me.goods[g] + n <= 3, "you may hold at most three of a good"
    cost n coins
    me.goods[g] += n
action beg():
    cite "Begging"
    require me.coins == 0, "only the poor may beg"
    me.coins += 2
action close():
    require stalls < 3, "already closed"
    stalls += 3
    end game
score: sum(me.goods[g] for g in values(Good))
"""


@pytest.fixture
def shop(tmp_path):
    game = load(tmp_path, SHOP)
    return game, game.new_initial_state()


def test_every_parameter_combination_passing_where_require_and_cost_is_a_move(shop):
    game, s = shop
    assert moves(game, s) == ["buy(bread, 1)", "buy(bread, 2)", "buy(bread, 3)",
                              "buy(wine, 1)", "buy(wine, 2)", "buy(wine, 3)", "close"]
    assert game.current_player(s) == 0
    game.apply(s, "buy(wine, 3)")          # pays 3 of 4 coins
    assert game.current_player(s) == 1
    game.apply(s, "buy(bread, 1)")
    # player 1 has 1 coin and 3 wine: only what is affordable and allowed remains
    assert moves(game, s) == ["buy(bread, 1)", "close"]
    o = game.observe(s, 0)["player_state"]["player(1)"]
    assert o == {"coins": 1, "goods": {"bread": 0, "wine": 3, "silk": 0}}


def test_illegal_move_names_the_require_message_and_position_and_changes_nothing(shop):
    game, s = shop
    for m in ["buy(wine, 3)", "buy(bread, 1)", "buy(bread, 1)", "buy(bread, 1)"]:
        game.apply(s, m)
    # player 1: 0 coins, 3 wine, 1 bread
    before = snapshot(game, s)
    with pytest.raises(IllegalMove) as ei:
        game.apply(s, "buy(wine, 1)")
    e = ei.value
    assert e.reason == "you may hold at most three of a good"
    assert e.cite == "Buying"
    assert e.span.line == line_of(SHOP, "you may hold at most three")
    assert e.span.col == 5
    text = str(e)
    assert text.startswith("illegal move 'buy(wine, 1)': you may hold at most three of a good [Buying] (")
    assert re.search(rf"game\.regola:{e.span.line}:5\)$", text)
    assert snapshot(game, s) == before


def test_illegal_move_reasons_in_order(shop):
    game, s = shop
    before = snapshot(game, s)
    cases = {
        "buy(silk, 1)": ["g != silk"],                 # the parameter's 'where'
        "buy(bread, 4)": ["4", "[1, 2, 3]"],           # outside the parameter's domain
        "beg": ["only the poor may beg"],
    }
    for move, words in cases.items():
        with pytest.raises(IllegalMove) as ei:
            game.apply(s, move)
        assert all(w in ei.value.reason for w in words), ei.value.reason
    assert ei.value.cite == "Begging"          # a cite inside the action's block wins
    # the cost is part of legality
    game.apply(s, "buy(bread, 3)")
    game.apply(s, "buy(bread, 3)")
    with pytest.raises(IllegalMove) as ei:
        game.apply(s, "buy(wine, 2)")          # 1 coin left
    assert ei.value.reason == "you cannot pay n coins"
    assert ei.value.span.line == line_of(SHOP, "cost n coins")
    assert snapshot(game, s) != before


def test_illegal_moves_given_as_tuples_ids_and_unknown_strings(shop):
    game, s = shop
    before = snapshot(game, s)
    with pytest.raises(IllegalMove, match="no such move here"):
        game.apply(s, "dance")
    with pytest.raises(IllegalMove, match="passing is not allowed here"):
        game.apply(s, ())
    with pytest.raises(IllegalMove, match="no legal move has this id here"):
        game.apply(s, 10_000)
    assert snapshot(game, s) == before
    # a legal move as a tuple or as its id
    m = game.legal_moves(s)[0]
    game.apply(s, game.move_id(s, m))
    assert game.observe(s, 0)["player_state"]["player(1)"]["goods"]["bread"] == 1


def test_costs_are_paid_and_effects_run(shop):
    game, s = shop
    game.apply(s, "buy(bread, 2)")
    assert game.observe(s, 0)["player_state"]["player(1)"]["coins"] == 2
    game.apply(s, "close")
    assert game.is_terminal(s)
    assert game.scores(s) == [2, 0]


ACT = """
game turns:
    players 2..2
per player:
    coins: int, min 0
    tokens: int
global:
    trace: int
setup:
    player(1).coins = 3
flow:
    repeat 3:
        act player(1): take | rest else pass
        trace = trace * 10 + 1
        act player(1): take | rest optional cost 2 coins
        trace = trace * 10 + 2
action take(n in [1, 3]):
    cost n coins
    me.tokens += n
action rest():
    require me.tokens > 0, "rest only after taking"
    me.coins += 1
score: me.tokens
"""


def test_act_optional_adds_pass_and_the_extra_cost_is_part_of_legality(tmp_path):
    game = load(tmp_path, ACT)
    s = game.new_initial_state()
    assert moves(game, s) == ["take(1)", "take(3)"]        # no pass: not optional
    game.apply(s, "take(1)")                                # 2 coins left
    # the second action costs 2 more: only rest (free) is affordable, and pass
    assert moves(game, s) == ["rest", "pass"]
    with pytest.raises(IllegalMove, match="you cannot pay the extra cost of this action"):
        game.apply(s, "take(1)")
    game.apply(s, "rest")                                   # pays 2, gains 1
    o = game.observe(s, 0)["player_state"]["player(1)"]
    assert o == {"coins": 1, "tokens": 1}
    assert game.observe(s, 0)["state"]["trace"] == 12


def test_act_optional_pass_does_nothing(tmp_path):
    game = load(tmp_path, ACT)
    s = game.new_initial_state()
    game.apply(s, "take(1)")
    game.apply(s, "pass")
    assert game.observe(s, 0)["player_state"]["player(1)"] == {"coins": 2, "tokens": 1}
    assert game.observe(s, 0)["state"]["trace"] == 12


def test_act_else_pass_and_optional_without_a_legal_move_are_skipped(tmp_path):
    game = load(tmp_path, ACT.replace("player(1).coins = 3", "player(1).coins = 0"))
    s = game.new_initial_state()
    # nothing is legal anywhere: every act passes, the flow runs to its end
    assert game.is_terminal(s)
    assert game.observe(s, 0)["state"]["trace"] == 121212


def test_act_with_a_single_legal_move_is_taken_automatically(tmp_path):
    # (not stated in language.md for 'act'; stated for 'choose')
    game = load(tmp_path, ACT.replace("player(1).coins = 3", "player(1).coins = 1"))
    s = game.new_initial_state()
    # round 1: take(1) is the only legal move of the first act, taken without asking; the
    # second act is unaffordable. Round 2: rest is the only legal move. Round 3: a real choice.
    assert not game.is_terminal(s)
    assert game.observe(s, 0)["state"]["trace"] == 1212
    assert game.observe(s, 0)["player_state"]["player(1)"] == {"coins": 1, "tokens": 1}
    assert moves(game, s) == ["take(1)", "rest"]


def test_act_without_else_pass_and_no_legal_move_is_a_rules_error(tmp_path):
    text = ACT.replace("take | rest else pass", "take | rest").replace("player(1).coins = 3", "player(1).coins = 0")
    game = load(tmp_path, text)
    with pytest.raises(RulesRuntimeError) as ei:
        game.new_initial_state()
    assert f"game.regola:{line_of(text, 'act player(1): take | rest')}:9: no legal option" in str(ei.value)


def test_require_without_a_message_names_the_condition(tmp_path):
    game = load(tmp_path, """
        game g:
            players 2..2
        per player:
            tokens: int
        flow:
            loop:
                act player(1): work | rest
        action work(n in [1, 2]):
            require n + me.tokens < 3
            me.tokens += n
        action rest():
            me.tokens -= 1
        score: me.tokens
    """)
    s = game.new_initial_state()
    game.apply(s, "work(1)")
    with pytest.raises(IllegalMove) as ei:
        game.apply(s, "work(2)")
    assert "n + me.tokens < 3" in ei.value.reason


def test_a_parameter_domain_may_depend_on_an_earlier_parameter(tmp_path):
    game = load(tmp_path, """
        game g:
            players 2..2
        record Pawn:
            v: int
        components Pawn:
            | name | v | count |
            | pawn | 1 | 2     |
        grid board of Pawn:
            size 2 by 3
            line wall after column 0
        global:
            supply: pile of Pawn
        setup:
            fill supply with copies(Pawn)
            move pawn from supply -> board[cell(0, 0)]
            move pawn from supply -> board[cell(1, 2)]
        flow:
            loop:
                act player(1): step optional
        action step(c in cells(board) where board[c] != none, d in adjacent(c) where board[d] == none):
            require d.row == c.row, "pawns step sideways"
            move board[c] -> board[d]
        score: 0
    """)
    s = game.new_initial_state()
    # (0,0) is walled in on the right and may not step down; (1,2) may step left only
    assert moves(game, s) == ["step((1,2), (1,1))", "pass"]
    for bad, words in [("step((0,0), (0,1))", ["(0,1)", "adjacent(c)"]),
                       ("step((0,0), (1,0))", ["pawns step sideways"]),
                       ("step((0,1), (0,2))", ["board[c] != none"])]:
        with pytest.raises(IllegalMove) as ei:
            game.apply(s, bad)
        assert all(w in ei.value.reason for w in words), ei.value.reason


def test_action_not_offered_at_this_decision(tmp_path):
    game = load(tmp_path, ACT)
    s = game.new_initial_state()
    rest = next(m.index for m in game.actions if m.name == "rest")
    with pytest.raises(IllegalMove, match="rest only after taking"):
        game.apply(s, (rest,))


@pytest.mark.parametrize("body, code", [
    ("    me.tokens += 1\n    require me.tokens > 1, \"late\"\n", "E161"),   # require after effects
    ("    me.tokens += 1\n    cost 1 coins\n", "E161"),                      # cost after effects
    ("    cost 1 gold\n", "E133"),                                          # no such counter
    ("    require me.tokens, \"not a bool\"\n", "E130"),
])
def test_action_body_errors(tmp_path, body, code):
    errs = errors(tmp_path, """
        game g:
            players 2..2
        per player:
            coins: int, min 0
            tokens: int
        flow:
            act player(1): work
        action work():
        BODY
        score: me.tokens
    """.replace("        BODY\n", textwrap.indent(body, " " * 8)))
    assert code in [e.code for e in errs], [str(e) for e in errs]


def test_parameter_domain_must_be_finite(tmp_path):
    errs = errors(tmp_path, """
        game g:
            players 2..2
        per player:
            tokens: int
        flow:
            act player(1): work
        action work(n in [me.tokens, 2]):
            me.tokens += n
        score: me.tokens
    """)
    assert [e.code for e in errs] == ["E132"]


def test_act_names_an_unknown_action(tmp_path):
    errs = errors(tmp_path, """
        game g:
            players 2..2
        per player:
            tokens: int
        flow:
            act player(1): wrok
        action work():
            me.tokens += 1
        score: me.tokens
    """)
    assert [e.code for e in errs] == ["E172"]
    assert "did you mean 'work'?" in errs[0].message


CAN = """
game g:
    players 2..2
per player:
    coins: int, min 0
    cards: int
    asked: bool
setup:
    player(1).coins = 1
flow:
    repeat 3:
        for p in players:
            p.asked = can(p, buy)
            if can(p, buy):
                act p: buy | wave
            else:
                act p: wave optional
action buy(n in [1, 2]):
    require me.coins >= n, "not enough coins"
    me.coins -= n
    me.cards += n
action wave():
    me.cards += 0
score: me.cards
"""


def test_can_tells_whether_an_action_has_a_legal_move_for_a_player(tmp_path):
    game = load(tmp_path, CAN)
    s = game.new_initial_state()
    # player 1 has a coin: buying is possible, waving too, no pass
    assert moves(game, s) == ["buy(1)", "wave"]
    game.apply(s, game.parse_move(s, "buy(1)"))
    # player 2 has none: buying is impossible, so the optional act offers wave or pass
    assert sorted(moves(game, s)) == ["pass", "wave"]
    assert game.observe(s, None)["player_state"]["player(1)"]["asked"] is True
    assert game.observe(s, None)["player_state"]["player(2)"]["asked"] is False


def test_can_names_an_action(tmp_path):
    errs = errors(tmp_path, CAN.replace("can(p, buy)", "can(p, bye)", 1))
    assert [e.code for e in errs] == ["E170"]
    assert "did you mean 'buy'?" in errs[0].message
    (tmp_path / "second").mkdir()
    errs = errors(tmp_path / "second", CAN.replace("can(p, buy)", "can(2, buy)", 1))
    assert errs and "the player" in errs[0].message


def test_can_asks_a_whole_group_of_actions(tmp_path):
    text = CAN.replace("action wave():", "actions shopping: buy, steal\nactions nothing:\naction steal():\n"
                                         "    require me.coins > 5, \"only the rich steal\"\n    me.cards += 5\n"
                                         "action wave():")
    text = text.replace("p.asked = can(p, buy)", "p.asked = can(p, shopping) and not can(p, nothing)")
    game = load(tmp_path, text)
    s = game.new_initial_state()
    game.apply(s, game.parse_move(s, "buy(1)"))
    ps = game.observe(s, None)["player_state"]
    assert ps["player(1)"]["asked"] is True and ps["player(2)"]["asked"] is False


GUARDED = """
game guarded:
    players 2..2
global:
    n: int
flow:
    repeat 2:
        for p in players:
            if can(p, pick):
                act p: pick | rest
            else:
                act p: rest
action pick(k in range(0, 3)):
    require any(x == k for x in range(1, 3)), "k must be 1 or 2"
    require 6 / k > 2, "too small"
action rest():
    n = n + 1
score: n
"""


def test_a_require_guarded_by_an_earlier_one_raises_nothing(tmp_path):
    """The generator tests the cheap `6 / k > 2` first, which divides by zero for k = 0; the
    rules test `k` first. Listing again as written, the guard stands: no error, the same
    moves, in every place that lists them (the decision, legal_moves after a load, can)."""
    game = load(tmp_path, GUARDED)
    s = game.new_initial_state(0)
    assert moves(game, s) == ["pick(1)", "pick(2)", "rest"]
    fresh = game.load(game.dump(s))
    fresh.cache = None
    assert moves(game, fresh) == moves(game, s)
    with pytest.raises(IllegalMove, match="k must be 1 or 2"):
        game.apply(s, (0, 0))


def test_a_require_that_raises_unguarded_is_a_located_error(tmp_path):
    game = load(tmp_path, GUARDED.replace('    require any(x == k for x in range(1, 3)), "k must be 1 or 2"\n', ""))
    with pytest.raises(RulesRuntimeError, match=r"game\.regola:\d+:\d+: division by zero"):
        game.new_initial_state(0)


def test_an_action_whose_require_is_never_true_compiles_and_is_never_a_move(tmp_path):
    """Folding constants drops the generator's whole loop (fuzz_rewrites case 21-3 once left
    the reference listing, then folded too, with no body)."""
    never = GUARDED.replace('    require any(x == k for x in range(1, 3)), "k must be 1 or 2"\n', "")
    game = load(tmp_path, never.replace('    require 6 / k > 2, "too small"', "    require not (k >= k)"))
    s = game.new_initial_state(0)
    assert game.is_terminal(s) and game.scores(s) == [4, 4]     # every turn a forced rest
