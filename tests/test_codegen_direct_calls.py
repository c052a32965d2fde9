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
    # twice's and last's first blocks enter ask's directly: chains of first blocks
    pid = game.compiled.unit_pid
    assert _chain_depths(game.source) == {pid["proc:ask"]: 1, pid["proc:twice"]: 2, pid["proc:last"]: 2}


def _chain_depths(source: str) -> dict:
    """{unit: how many first blocks a direct call of it runs through}, checking that no chain
    of first blocks entering each other directly is a cycle or longer than MAX_DEPTH."""
    callees = _direct_callees(source)
    chains = {pid: _direct_callees(_first_block(source, pid)) for pid in callees}

    def depth(pid, seen=()):
        assert pid not in seen, "first blocks that enter each other directly"
        return 1 + max((depth(q, seen + (pid,)) for q in chains.get(pid, ())), default=0)
    depths = {pid: depth(pid) for pid in callees}
    assert max(depths.values()) <= MAX_DEPTH
    return depths


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
    # the validator read where every call returns (a frame below the top waits only there)
    returns = game._state_validator.returns
    assert returns is not None and returns.get(game.compiled.unit_pid["proc:twice"])


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


def test_a_long_chain_of_calls_compiles_and_plays(tmp_path):
    # p0 calls p1 first thing, p1 calls p2, ...: only the first few are entered directly
    n = 400
    procs = "".join(f"procedure p{i}(p: Player):\n    p{i + 1}(p)\n    trace += 1\n\n" for i in range(n))
    procs += f"procedure p{n}(p: Player):\n    act p: take_one | take_two\n\n"
    text = CALLS.split("flow:")[0] + "flow:\n    p0(player(1))\n\n" + procs + \
        "action take_one():\n    me.points += 1\n\naction take_two():\n    me.points += 2\n\nscore: me.points\n"
    game = load(tmp_path, text)
    depths = _chain_depths(game.source)           # (none longer than MAX_DEPTH, no cycle)
    assert max(depths.values()) > 1 and len(depths) < n       # some calls go through the runner
    s = game.new_initial_state(0)
    assert len(s.stack) == n + 1          # (the flow's frame replaced by p0's: a tail call)
    game.apply(s, game.legal_moves(s)[0])
    assert s.pending is None and trace(game, s) == n
