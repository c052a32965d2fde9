"""A call of a unit that may wait runs the callee's first block in the calling block, and
hands the runner only what that block leaves (codegen/direct_calls.py): the frames, the
blocks they wait in and every effect are the runner's own."""

from __future__ import annotations

import re

import pytest

from regola.codegen.direct_calls import MAX_DEPTH
from regola.limits import STEP_BUDGET
from regola.loader import load_game
from regola.runtime.helpers import RulesRuntimeError
from regola.tools.crosscheck import crosscheck
from rules_helpers import load, moves, trace, write

CALLS = """
game calls:
    players 2..2

per player:
    points: int

global:
    trace: int

flow:
    repeat 2:
        for p in players:
            ask(p, 1)
            ask(p, 0)
            twice(p)
    last(player(1))

# its first block ends the call (n = 0), waits (n > 0), or goes on in a later block
procedure ask(p: Player, n: int):
    trace += 1
    if n > 0:
        act p: take_one | take_two
        trace += 100
    trace += 10

# entered directly itself: its own calls go through the runner
procedure twice(p: Player):
    ask(p, 1)
    ask(p, 1)

# the caller's last statement: the callee's frame replaces the caller's
procedure last(p: Player):
    trace += 1000
    ask(p, 1)

action take_one():
    me.points += 1

action take_two():
    me.points += 2

score: me.points
"""


def _direct_callees(source: str) -> set[int]:
    return {int(u) for u in re.findall(r"_cr = M(\d+)_0\(S, _cF\)", source)}


def _first_block(source: str, pid: int) -> str:
    return source.split(f"def M{pid}_0(S, F):\n", 1)[1].split("\ndef ", 1)[0]


def test_calls_enter_the_callees_first_block(tmp_path):
    game = load(tmp_path, CALLS)
    callees = _direct_callees(game.source)
    assert callees, "no call was written to enter its callee directly"
    # twice's first block enters ask's directly: a chain of first blocks, never a cycle
    chains = {pid: _direct_callees(_first_block(game.source, pid)) for pid in callees}
    assert any(chains.values())

    def depth(pid, seen=()):
        assert pid not in seen, "first blocks that enter each other directly"
        return 1 + max((depth(q, seen + (pid,)) for q in chains.get(pid, ())), default=0)
    assert all(depth(pid) <= MAX_DEPTH for pid in callees)


def test_direct_calls_play_as_the_plain_compilation(tmp_path):
    path = write(tmp_path, CALLS)
    assert "_cr = " not in load_game(str(path), players=2, optimise=False).source
    rep = crosscheck(str(path), players=2, games=30)
    assert rep.agree and rep.decisions >= 300, rep


def test_a_call_that_ends_at_once_goes_on_in_the_caller(tmp_path):
    game = load(tmp_path, CALLS)
    s = game.new_initial_state(0)
    assert moves(game, s) == ["take_one", "take_two"]
    assert trace(game, s) == 1                      # the first ask waits in its `if`
    game.apply(s, game.parse_move(s, "take_two"))
    # that ask ends (+100 +10), ask(p, 0) runs whole (+1 +10), twice's first ask waits (+1)
    assert trace(game, s) == 1 + 110 + 11 + 1
    assert moves(game, s) == ["take_one", "take_two"]
    assert len(s.stack) == 3                        # the flow, twice, and its ask waiting
    assert game.scores(s) == [2, 0]


def test_saves_at_every_decision_load_and_play_on(tmp_path):
    game = load(tmp_path, CALLS)
    for seed in range(5):
        s = game.new_initial_state(seed)
        i = 0
        while s.pending is not None:
            t = game.load(game.dump(s))             # the validator knows where calls return
            ms = game.legal_moves(s)
            m = ms[(seed + i) % len(ms)]
            game.apply(s, m)
            game.apply(t, game.legal_moves(t)[ms.index(m)])
            assert game.dump(t) == game.dump(s)
            i += 1
        assert game.scores(s) == game.scores(t)


def test_endless_calls_still_end_in_the_step_budget(tmp_path):
    text = CALLS.replace("    last(player(1))", "    spin(player(1))") + """
procedure spin(p: Player):
    trace += 1
    if trace < 0:
        act p: take_one
    spin(p)
"""
    game = load(tmp_path, text)
    assert _direct_callees(game.source)
    s = game.new_initial_state(0)
    with pytest.raises(RulesRuntimeError, match=f"ran {STEP_BUDGET:,} steps without reaching a decision"):
        while s.pending is not None:
            game.apply(s, game.legal_moves(s)[0])
