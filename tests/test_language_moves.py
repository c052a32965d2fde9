"""Moves: canonical strings (`move_str` / `parse_move`), stable ids (`move_id`), and saved
states (`dump` / `load`, `clone`), also in the middle of an effect."""

from __future__ import annotations

import copy
import json

import pytest

from regola.loader import load_game
from regola.runtime.game import IllegalMove, StateError
from rules_helpers import load, moves, write


MARKET = """
game market:
    players 2..4
enum Good: bread, wine
record Card:
    value: int
components Card:
    | name | value | count |
    | a    | 1     | 3     |
    | b    | 2     | 3     |
grid board of Card:
    size 2 by 2
global:
    deck: stack of Card
per player:
    pts: int
    hand: pile of Card
setup:
    fill deck with copies(Card)
flow:
    repeat 3:
        for p in players:
            act p: work | trade | place | idle
action work(n in [1, 2, 3]):
    let base = n * 10
    for i in range(0, 2):
        choose x in [1, 2, 3] where x != n:
            me.pts += base + x + i
        draw deck -> me.hand
    me.pts += count(me.hand)
action trade(g in values(Good), p in players where p != me, flag in [true, false]):
    p.pts += 1 if flag else 2
action place(c in cells(board) where board[c] == none, k in me.hand):
    move k from me.hand -> board[c]
    choose q in players, by next_player(me):
        q.pts += 1
action idle():
    pass
score: me.pts
"""


@pytest.fixture
def market(tmp_path):
    game = load(tmp_path, MARKET, players=3)
    return game, game.new_initial_state(seed=7)


def test_move_strings_name_the_action_and_its_values(market):
    game, s = market
    legal = moves(game, s)
    assert legal[:3] == ["work(1)", "work(2)", "work(3)"]
    assert "trade(wine, player(3), false)" in legal
    assert "trade(bread, player(1), true)" not in legal        # p != me
    assert legal[-1] == "idle"
    assert not any(m.startswith("place") for m in legal)        # empty hand
    # parse_move is the inverse of move_str, and ignores spaces
    for m in game.legal_moves(s):
        assert game.parse_move(s, game.move_str(s, m)) == m
    assert game.parse_move(s, " trade( wine , player(2) ,true ) ") == game.parse_move(s, "trade(wine, player(2), true)")
    with pytest.raises(IllegalMove, match="no such move here; did you mean 'idle'"):
        game.parse_move(s, "idel")


def test_move_ids_are_unique_and_stable(market, tmp_path):
    game, s = market
    ids = {game.move_str(s, m): game.move_id(s, m) for m in game.legal_moves(s)}
    assert len(set(ids.values())) == len(ids)
    assert all(0 < i < game.action_space for i in ids.values())
    # a move is found again by its id, and an id names the same move in another state
    for m in game.legal_moves(s):
        assert game.move_from_id(s, game.move_id(s, m)) == m
    other = game.new_initial_state(seed=99)
    assert {game.move_str(other, m): game.move_id(other, m) for m in game.legal_moves(other)} == ids
    # and in another game object compiled from the same rules
    again = load(tmp_path, MARKET, players=3, name="again")
    assert again is not game
    s2 = again.new_initial_state(seed=7)
    assert {again.move_str(s2, m): again.move_id(s2, m) for m in again.legal_moves(s2)} == ids


def test_action_ids_are_distinct_across_actions_and_choices(market):
    game, s = market
    seen = {}
    # every action's whole id range, from its parameter types
    for meta in game.actions:
        first = meta.id_offset
        seen[meta.name] = first
    offsets = sorted(seen.values())
    assert len(offsets) == len(set(offsets))
    assert offsets[0] == 1                       # 0 is 'pass'
    work_ids = {game.move_id(s, m) for m in game.legal_moves(s) if game.move_str(s, m).startswith("work")}
    trade_ids = {game.move_id(s, m) for m in game.legal_moves(s) if game.move_str(s, m).startswith("trade")}
    assert not work_ids & trade_ids
    # a choice inside an effect gets ids of its own, distinct from the actions'
    all_action_ids = {game.move_id(s, m) for m in game.legal_moves(s)}
    game.apply(s, "work(1)")
    assert game.decision(s)["kind"] == "choose"
    choice_ids = {game.move_id(s, m) for m in game.legal_moves(s)}
    assert len(choice_ids) == 2 and not choice_ids & all_action_ids
    assert [game.move_str(s, m) for m in game.legal_moves(s)] == ["x=2", "x=3"]
    # apply by id
    game.apply(s, max(choice_ids))
    assert game.observe(s, 0)["player_state"]["player(1)"]["pts"] == 13


def test_pass_has_id_zero(tmp_path):
    game = load(tmp_path, """
        game g:
            players 2..2
        per player:
            pts: int
        flow:
            act player(1): go optional
        action go(n in [1, 2]):
            me.pts += n
        score: me.pts
    """)
    s = game.new_initial_state()
    assert moves(game, s) == ["go(1)", "go(2)", "pass"]
    assert game.move_id(s, ()) == 0
    assert game.parse_move(s, "pass") == ()
    game.apply(s, 0)
    assert game.is_terminal(s) and game.scores(s) == [0, 0]


def test_move_ids_do_not_change_when_another_configuration_is_loaded(tmp_path):
    d = write(tmp_path, """
        game g:
            players 2..4
        per player:
            pts: int
        flow:
            loop:
                act player(1): give | other
        action give(n in [1, 2], p in players):
            p.pts += n
        action other():
            pass
        score: me.pts
    """)
    g4 = load_game(str(d), players=4)
    s = g4.new_initial_state()
    before = {g4.move_str(s, m): g4.move_id(s, m) for m in g4.legal_moves(s)}
    assert len(set(before.values())) == len(before)
    load_game(str(d), players=2)
    after = {g4.move_str(s, m): g4.move_id(s, m) for m in g4.legal_moves(s)}
    assert after == before


def play_out(game, s, steps=60):
    """Play up to `steps` decisions with a fixed policy (a 'place' move when there is one, else
    the (7 * i)-th legal move, cyclically), resolving chance from the state's seed; returns
    what happened."""
    out = []
    for i in range(steps):
        while game.is_chance(s):
            out.append(("chance", game.step_chance(s)))
        if game.is_terminal(s):
            break
        legal = game.legal_moves(s)
        placing = [m for m in legal if game.move_str(s, m).startswith("place")]
        m = placing[i % len(placing)] if placing else legal[(7 * i) % len(legal)]
        out.append((game.current_player(s), game.move_str(s, m)))
        game.apply(s, m)
    return out


def test_saved_state_in_the_middle_of_an_action_continues_identically(market):
    game, s = market
    game.apply(s, "work(2)")
    # pending: a choice inside the action's loop, with a local (base) and a loop counter
    assert game.decision(s)["kind"] == "choose"
    saved = json.loads(json.dumps(game.dump(s)))
    restored = game.load(saved)
    assert game.decision(restored) == game.decision(s)
    assert game.legal_moves(restored) == game.legal_moves(s)
    a = play_out(game, s)
    b = play_out(game, restored)
    assert a == b
    assert game.is_terminal(s) and game.is_terminal(restored)
    assert game.dump(s) == game.dump(restored)
    assert game.scores(s) == game.scores(restored)


def test_saved_state_while_chance_is_pending_continues_identically(market):
    game, s = market
    game.apply(s, "work(2)")
    game.apply(s, "x=1")
    assert game.is_chance(s)
    saved = json.loads(json.dumps(game.dump(s)))
    restored = game.load(saved)
    assert game.is_chance(restored)
    assert game.chance_outcomes(restored) == game.chance_outcomes(s)
    assert play_out(game, s) == play_out(game, restored)
    assert game.dump(s) == game.dump(restored)


def test_clone_is_independent(market):
    game, s = market
    game.apply(s, "work(2)")
    c = game.clone(s)
    before = copy.deepcopy(game.dump(s))
    play_out(game, c)
    assert copy.deepcopy(game.dump(s)) == before
    assert play_out(game, s) == play_out(game, game.load(json.loads(json.dumps(before))))


def test_load_of_a_dump_is_independent_of_the_original(market):
    game, s = market
    game.apply(s, "work(2)")
    restored = game.load(game.dump(s))
    expected = copy.deepcopy(game.dump(s))
    play_out(game, restored)
    assert copy.deepcopy(game.dump(s)) == expected


def test_loading_a_state_of_other_rules_is_refused(market, tmp_path):
    game, s = market
    data = json.loads(json.dumps(game.dump(s)))
    with pytest.raises(StateError, match="players"):
        game.load(dict(data, players=2))
    with pytest.raises(StateError, match="fingerprint"):
        game.load(dict(data, fingerprint="0" * 16))
    with pytest.raises(StateError, match="not a Regola saved state"):
        game.load({"format": "something"})
    with pytest.raises(StateError, match="stack"):
        game.load(dict(data, stack=[[999, 0, {}, None]]))
