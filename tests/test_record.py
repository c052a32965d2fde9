"""The rules-level record of a game (runtime/record.py): every decision taken, chosen or
forced, every trigger fired, the chance events; kept only when asked, never by clones."""

from __future__ import annotations

from collections import Counter

from rules_helpers import line_of, load

GAME = """
game g:
    players 2..2
global:
    total: int
per player:
    pts: int
flow:
    repeat 2:
        for p in players:
            roll die in [1, 2, 3]
            act p: go | rest
action go(n in [1, 2]):
    emit scored(n, me)
action rest():
    me.pts += 0
on scored(k: int, who: Player):
    who.pts += k
on scored(k: int, who: Player):
    for i in range(0, k):
        choose bonus in [1, 2], by who:
            total += bonus
    choose only in [5], by who:
        total += only
when p.pts reaches 3:
    total += 100
on game end:
    total += 1
score: me.pts
"""


def _settle(game, s):
    while game.is_chance(s):
        game.step_chance(s)
    return s


def _play(game, moves):
    s = game.new_initial_state(3, record=True)
    for m in moves:
        game.apply(_settle(game, s), m)
    return _settle(game, s)


def test_the_record_notes_decisions_chosen_and_forced_and_every_trigger_once_per_firing(tmp_path):
    game = load(tmp_path, GAME)
    labels = [t.label for t in game.triggers]
    assert labels == ["on scored", "on scored", "when p.pts reaches 3", "on game end"]
    assert [t.span.line for t in game.triggers] == [line_of(GAME, "on scored"), line_of(GAME, "on scored") + 2,
                                                     line_of(GAME, "when p.pts"), line_of(GAME, "on game end")]
    s = _play(game, ["go(2)", "bonus=1", "bonus=2", "rest", "go(1)", "bonus=2", "rest"])
    assert game.is_terminal(s)
    rec = s.record
    taken = [(site, p, game.move_text(site, m), forced) for site, p, m, forced in rec.taken]
    assert [(p, text, forced) for _, p, text, forced in taken] == [
        (0, "go(2)", False), (0, "bonus=1", False), (0, "bonus=2", False), (0, "only=5", True),
        (1, "rest", False),
        (0, "go(1)", False), (0, "bonus=2", False), (0, "only=5", True), (1, "rest", False)]
    # each handler once per emit (the second waits for choices in a loop: still once); the
    # `when` inside the first handler of the second emit, as player 1's points reach 3;
    # `on game end` once, for nobody
    assert rec.fired == [(0, 0), (1, 0), (0, 0), (2, 0), (1, 0), (3, None)]
    assert Counter(t for t, _ in rec.fired) == {0: 2, 1: 2, 2: 1, 3: 1}
    assert rec.chance == 4
    assert game.ns["SCORE"](s, 0)[0] == 3
    first = rec.taken[0]
    assert rec.moves_by_player(forced=False)[(0, first[0], first[2])] == 1
    assert sum(rec.moves_by_player(forced=False).values()) == 7
    assert sum(rec.moves_by_player().values()) == 9
    assert "2 of them forced" in repr(rec)


def test_no_record_unless_asked_and_clones_do_not_carry_it(tmp_path):
    game = load(tmp_path, GAME)
    plain = _settle(game, game.new_initial_state(3))
    assert plain.record is None
    game.apply(plain, "go(1)")                       # runs with no record at all
    s = _settle(game, game.new_initial_state(3, record=True))
    c = game.clone(s)
    assert c.record is None
    game.apply(c, "go(1)")
    assert s.record.taken == [] and s.record.fired == [] and s.record.chance == 1
    assert game.load(game.dump(s)).record is None


def test_a_state_given_a_record_later_notes_from_then_on(tmp_path):
    from regola.runtime.record import Record
    game = load(tmp_path, GAME)
    s = _settle(game, game.new_initial_state(3))
    game.apply(s, "rest")
    s.record = Record()
    game.apply(_settle(game, s), "go(1)")
    assert [game.move_text(site, m) for site, _, m, _ in s.record.taken] == ["go(1)"]
    assert s.record.fired == [(0, 1), (1, 1)]
    assert s.record.chance == 1
