"""Hooks and modifiers, rolls, files that are part of a game, record field defaults and
several components tables for one record."""

from __future__ import annotations

import json

import pytest

from regola.diagnostics import RulesError
from regola.tools import logs
from regola.tools.match import agents_for, play, replay
from rules_helpers import errors, load, moves

HOOKS = """
    game g:
        players 2..2
    enum Member: black, white, neutral
    global:
        dice: map Member to int = {black: 4, white: 2}
    per player:
        charmed: bool
        cursed: bool
        fixed: bool
    hook value(p: Player, m: Member) -> int = 0 if m == neutral else dice[m]
    modifier value(p, m) = 5 when p.fixed and m != neutral
    modifier value(p, m) += 2 when p.charmed and m != neutral
    modifier value(p, m) -= 1 when p.cursed
    action bless(what in [1, 2, 3]):
        if what == 1: me.charmed = true
        elif what == 2: me.cursed = true
        else: me.fixed = true
    flow:
        loop:
            act player(1): bless
    score: value(me, black) * 100 + value(me, neutral) + 10
"""


def test_modifiers_adjust_a_hook_in_declaration_order_while_their_condition_holds(tmp_path):
    game = load(tmp_path, HOOKS)
    s = game.new_initial_state()
    assert game.scores(s)[0] == 400 + 0 + 10
    game.apply(s, "bless(1)")                      # +2 to coloured members
    assert game.scores(s)[0] == 600 + 0 + 10
    game.apply(s, "bless(2)")                      # -1 to every member
    assert game.scores(s)[0] == 500 - 1 + 10
    game.apply(s, "bless(3)")                      # = 5 first, then +2, then -1
    assert game.scores(s)[0] == 600 - 1 + 10
    assert game.scores(s)[1] == 400 + 10           # player 2 untouched


def test_a_module_adds_modifiers(tmp_path):
    mod = """
        module curse:
            title "Curse"
        modifier value(p, m) -= 3 when m == black
    """
    game = load(tmp_path, HOOKS, name="g2", files={"curse": mod}, modules=["curse"])
    assert game.scores(game.new_initial_state())[0] == 100 + 10


def test_modifier_errors(tmp_path):
    bad = HOOKS.replace("hook value(", "def value(")
    assert "E183" in [e.code for e in errors(tmp_path, bad, name="b1")]
    bad = HOOKS.replace("modifier value(p, m) -= 1 when p.cursed", "modifier value(p) -= 1 when p.cursed")
    assert "E171" in [e.code for e in errors(tmp_path, bad, name="b2")]
    bad = HOOKS.replace("modifier value(p, m) -= 1 when p.cursed", "modifier value(p, m) -= true")
    assert "E130" in [e.code for e in errors(tmp_path, bad, name="b3")]
    bad = HOOKS.replace("modifier value(p, m) -= 1 when p.cursed", "modifier valu(p, m) -= 1")
    errs = errors(tmp_path, bad, name="b4")
    assert errs[0].code == "E183" and "did you mean 'value'" in errs[0].message


ROLL = """
    game g:
        players 2..2
    enum Die: black, white
    global:
        dice: map Die to int
        coin: int
    flow:
        for d in values(Die):
            roll face in range(1, 7)
            dice[d] = face
        roll side in [0, 0, 1]
        coin = side
        end game
    score: dice[black] + dice[white] + coin
"""


def test_roll_is_a_chance_event_with_weighted_outcomes(tmp_path):
    game = load(tmp_path, ROLL)
    s = game.new_initial_state(5)
    assert game.is_chance(s) and game.chance_kind(s) == "roll"
    outs = game.chance_outcomes(s)
    assert [v for v, _ in outs] == [1, 2, 3, 4, 5, 6] and all(abs(p - 1 / 6) < 1e-9 for _, p in outs)
    game.apply_chance(s, 6)
    game.apply_chance(s, "2")                       # by its text
    outs = game.chance_outcomes(s)
    assert dict(outs) == pytest.approx({0: 2 / 3, 1: 1 / 3})
    with pytest.raises(Exception, match="not possible"):
        game.apply_chance(s, 7)
    game.apply_chance(s, 1)
    assert game.is_terminal(s) and game.scores(s) == [9, 9]


def test_rolls_are_logged_and_replayed(tmp_path):
    game = load(tmp_path, ROLL, name="g2")
    res = play(game, agents_for(game, ["random"], 3), seed=3, rules=str(tmp_path / "g2"), record=True)
    assert [e["type"] for e in res.log.entries] == ["chance"] * 3
    path = tmp_path / "roll.jsonl"
    logs.write(path, res.log)
    g2, s, _ = replay(path)
    assert g2.scores(s) == res.scores
    again = play(game, agents_for(game, ["random"], 3), seed=3, record=True)
    assert again.log.entries == res.log.entries
    mid = game.new_initial_state(3)
    game.apply_chance(mid, game.sample_chance(mid))
    loaded = game.load(json.loads(json.dumps(game.dump(mid))))
    assert game.chance_outcomes(loaded) == game.chance_outcomes(mid)


PARTS = """
    game g:
        players 2..2
    per player:
        points: int
    flow:
        for p in players: p.points = total_value()
    score: me.points
"""

DATA = """
    part of g
    record Card:
        kind: Kind
        cost: map Res to int = {}
        value: int = 1
    enum Kind: small, big
    enum Res: gold, iron
    components Card:
        | name   | kind  | cost           |
        | pebble | small | {}             |
        | nugget | small | {gold: 1}      |
    components Card:
        | name  | kind | value | count |
        | rock  | big  | 10    | 2     |
    def total_value() -> int = sum(c.value * c.count for c in Card) + sum(c.cost[gold] for c in Card)
"""


def test_a_game_may_span_files_and_records_have_defaults_and_several_tables(tmp_path):
    d = tmp_path / "g"
    d.mkdir()
    import textwrap
    (d / "game.regola").write_text(textwrap.dedent(PARTS))
    (d / "data.regola").write_text(textwrap.dedent(DATA))
    from regola.loader import load_game
    game = load_game(str(d), players=2)
    assert game.scores(game.new_initial_state()) == [23, 23]     # 1 + 1 + 2*10, plus one gold
    (d / "data.regola").write_text(textwrap.dedent(DATA).replace("part of g", "part of h"))
    with pytest.raises(RulesError, match="part of 'h', but the game here is 'g'"):
        load_game(str(d), players=2)


def test_a_field_without_default_must_be_in_every_table(tmp_path):
    errs = errors(tmp_path, """
        game g:
            players 2..2
        record Card:
            kind: int
            value: int = 1
        components Card:
            | name | value |
            | a    | 2     |
        flow:
            pass
        score: 0
    """)
    assert [e.code for e in errs] == ["E111"] and "no column 'kind'" in errs[0].message


def test_moves_of_a_hooked_game(tmp_path):
    game = load(tmp_path, HOOKS, name="g5")
    assert moves(game, game.new_initial_state()) == ["bless(1)", "bless(2)", "bless(3)"]
