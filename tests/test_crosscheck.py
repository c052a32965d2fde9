"""`regola crosscheck` (tools/crosscheck.py): every bundled game plays alike compiled with the
code generator's rewrites and without them (`load_game(..., optimise=False)`), and a rewrite
that changes a game is caught at the step where it shows, with what differs."""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path
from types import SimpleNamespace

import pytest

import regola.codegen.program as program
from regola.loader import _load_cached, load_game
from regola.tools import cli
from regola.tools.crosscheck import _Differ, _locals, _same_state, crosscheck

RULES = Path(__file__).resolve().parent.parent / "rules"
LIONS_ALL = ["croesus", "pactolus", "craftsmen", "courtyards", "tomb", "builders", "chariot_race"]

CONFIGS = [
    ("tic-tac-toe", 2, [], 20),
    ("connect-four", 2, [], 10),
    ("lungarno", 4, [], 6),
    ("lungarno", 2, [], 6),                 # (with its automatic two-player module)
    ("lions-of-lydia", 4, LIONS_ALL, 4),
    ("lions-of-lydia", 2, ["estates", "croesus", "builders"], 4),
    ("lorenzo-il-magnifico", 4, ["advanced", "leaders"], 2),
    ("lorenzo-il-magnifico", 5, ["leaders", "houses_of_renaissance"], 2),
    ("lorenzo-il-magnifico", 2, [], 2),
    ("hanabi", 3, [], 6),
    ("sushi-go", 4, [], 4),
    ("cant-stop", 3, [], 4),
    ("love-letter", 4, [], 6),
]


@pytest.mark.parametrize("game,players,modules,games", CONFIGS, ids=[f"{g}-{n}p{'-' + '+'.join(m) if m else ''}"
                                                                     for g, n, m, _ in CONFIGS])
def test_every_bundled_game_plays_alike_optimised_and_plain(game, players, modules, games):
    rep = crosscheck(str(RULES / game), players, modules, games=games, seed=101)
    assert rep.agree, rep.summary()
    assert rep.games == games and rep.decisions > 0
    assert rep.refusals > 0                 # explanations of illegal moves were compared too


def test_the_plain_compilation_leaves_out_the_rewrites():
    fast = load_game(str(RULES / "connect-four"))
    plain = load_game(str(RULES / "connect-four"), optimise=False)
    assert fast.fingerprint != plain.fingerprint          # saves of one are not taken for the other's
    for marker in (":=", "MV0 = ", "_q_"):          # inlined defs, move tables, quantifiers as loops
        assert marker in fast.source and marker not in plain.source
    assert "any(" in plain.source and "any(" not in fast.source
    # a payment check lists every way in the plain compilation: none of the quick answers
    fast = load_game(str(RULES / "lions-of-lydia"), players=3)
    plain = load_game(str(RULES / "lions-of-lydia"), players=3, optimise=False)
    pay = plain.source[plain.source.index("def PAY_wild"):plain.source.index("def SPEND_wild")]
    assert "ways = _payments(groups, values, False)" in pay and "if check_only:" not in pay
    assert "if check_only and q > cap: return False" in fast.source
    # an expensive test of one parameter is asked each time, not remembered per value
    fast = load_game(str(RULES / "lorenzo-il-magnifico"), players=4, modules=["advanced", "leaders"])
    plain = load_game(str(RULES / "lorenzo-il-magnifico"), players=4, modules=["advanced", "leaders"],
                      optimise=False)
    assert "_seen" in fast.source and "_seen" not in plain.source


@pytest.fixture
def private_ttt(tmp_path):
    """A copy of tic-tac-toe of its own (the loader caches compiled games by path)."""
    d = tmp_path / "ttt"
    shutil.copytree(RULES / "tic-tac-toe", d)
    _load_cached.cache_clear()
    yield d
    _load_cached.cache_clear()


def test_a_rewrite_that_changes_the_game_is_found_where_it_shows(private_ttt, monkeypatch):
    real = program.cache_loop_invariants

    # a planted bug: every square is taken for an empty one in the functions rewritten
    monkeypatch.setattr(program, "cache_loop_invariants", lambda lines, *known: _swap(real(lines, *known), "is None", "is None or True"))
    rep = crosscheck(str(private_ttt), games=3)
    assert not rep.agree
    dv = rep.divergence
    assert (dv.seed, dv.step, dv.what) == (0, 1, "the legal moves")       # once a mark is on the board
    assert "player 2 at " in dv.where and "(act)" in dv.where
    assert dv.optimised.startswith("9 moves, of which only here: mark(") and dv.plain == "8 moves"
    assert "DIFFER" in rep.summary() and "please report it" in rep.summary()


def test_the_command_says_whether_they_agree(private_ttt, monkeypatch, capsys):
    assert cli.main(["crosscheck", str(private_ttt), "--games", "4", "--seed", "7"]) == 0
    out = capsys.readouterr().out
    assert "agree over 4 games (seeds 7-10)" in out and "illegal moves refused alike" in out
    assert cli.main(["crosscheck", str(private_ttt), "--games", "2", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["agree"] is True and data["games"] == 2 and "divergence" not in data

    real = program.cache_loop_invariants
    monkeypatch.setattr(program, "cache_loop_invariants", lambda lines, *known: _swap(real(lines, *known), "is None", "is None or True"))
    _load_cached.cache_clear()
    assert cli.main(["crosscheck", str(private_ttt), "--games", "2", "--json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["agree"] is False and data["divergence"]["what"] == "the legal moves"


def _swap(lines, old, new):
    lines.items = [(ind, text.replace(old, new), span) for ind, text, span in lines.items]
    return lines


def test_the_command_refuses_a_game_it_cannot_find(capsys):
    assert cli.main(["crosscheck", "no-such-game-here"]) == 1
    err = capsys.readouterr().err
    assert "regola crosscheck: " in err and "no-such-game-here" in err and "Traceback" not in err


def _state(v, stack, pending=(0, 1)):
    return SimpleNamespace(v=v, stack=stack, pending=list(pending), phase=0, rng=5, result=None)


GAME = SimpleNamespace(vars=[SimpleNamespace(name="board"), SimpleNamespace(name="florins")])


def test_a_difference_of_state_names_the_variable_and_where_in_it():
    a = _state([[None, 3, None], [[1, 2], [3, 4]]], [])
    b = _state([[None, 3, None], [[1, 2], [3, 5]]], [])
    with pytest.raises(_Differ) as e:
        _same_state(GAME, a, b)
    assert e.value.what == "the variable florins[1][1]"
    assert (e.value.optimised, e.value.plain) == ("4", "5")
    with pytest.raises(_Differ) as e:
        _same_state(GAME, a, _state(a.v, [], pending=(0, 2)))
    assert e.value.what == "the state's pending"


def test_the_compilers_temporaries_are_compared_by_rank_in_their_frame():
    fast = {"p": 1, "@it_9": [0, 1], "@ix_10": 1, "@it_14": [2], "@ix_15": 0}
    plain = {"p": 1, "@it_3": [0, 1], "@ix_4": 1, "@it_7": [2], "@ix_8": 0}
    assert _locals(fast) == _locals(plain)
    swapped = {"p": 1, "@it_3": [2], "@ix_4": 1, "@it_7": [0, 1], "@ix_8": 0}
    assert _locals(fast) != _locals(swapped)
    a = _state([[None, None, None], [[0, 0], [0, 0]]], [[0, 2, fast, 1]])
    _same_state(GAME, a, _state(a.v, [[0, 2, plain, 1]]))
    with pytest.raises(_Differ) as e:
        _same_state(GAME, a, _state(a.v, [[0, 3, plain, 1]]))      # another block of the unit
    assert e.value.what == "frame 0 of the stack (unit, block, locals, player)"


def test_random_games_aimed_at_the_rewrites_play_alike(tmp_path):
    """tools/fuzz_rewrites.py: games that check clean, written to set off every rewrite; the
    local runner (`python -m regola.tools.fuzz_rewrites --cases 3000`) runs thousands."""
    from regola.tools.fuzz_rewrites import make_program, run_case
    seen = {":=": 0, " is not ... else ": 0, "_distinct_counts(": 0, " * 4 + ": 0, "_cell(": 0}
    for i in range(60):
        text = make_program(random.Random(f"ci:{i}"))
        res = run_case(text, tmp_path / str(i), games=2, seed=i)
        assert res.kind == "agree", f"case {i}: {res.kind}\n{res.detail}\n{text}"
        src = load_game(str(tmp_path / str(i) / "rewrites")).source
        for marker in seen:
            seen[marker] += marker in src
    # the rewrites were there to check: inlined defs' temporaries, remembered invariants, piles
    # walked by kind, cells made without their test, and cells that keep it
    assert all(n >= 5 for n in seen.values()), seen


def test_an_engine_error_in_one_compilation_is_a_difference_not_a_traceback(private_ttt, monkeypatch):
    real = program.cache_loop_invariants
    # a planted bug: a rewrite that leaves a name unbound (a NameError is no rules error)
    monkeypatch.setattr(program, "cache_loop_invariants", lambda lines, *known: _swap(real(lines, *known), "_V0[l_c]", "_nowhere[l_c]"))
    rep = crosscheck(str(private_ttt), games=2)
    dv = rep.divergence
    assert dv is not None and dv.what == "setting up: an error of the engine, not of the rules"
    assert dv.optimised.startswith("NameError: ") and "_nowhere" in dv.optimised and dv.plain == "ok"


def test_a_plain_compilation_that_cannot_be_made_is_said_not_compared(private_ttt, monkeypatch, capsys):
    import regola.tools.crosscheck as cc
    from regola.ast import Span
    from regola.diagnostics import Diagnostic, RulesError
    real = cc.load_game

    def plain_past_a_limit(*args, optimise=True, **kw):
        if not optimise:
            at = Span(file="game.regola", line=3, col=5, end_line=3, end_col=9)
            raise RulesError([Diagnostic("E998", at, "the compiled rules nest deeper than Python allows")])
        return real(*args, **kw)

    monkeypatch.setattr(cc, "load_game", plain_past_a_limit)
    rep = crosscheck(str(private_ttt), games=2)
    assert not rep.agree and rep.divergence is None and rep.games == 0
    assert "nothing compared, the plain compilation cannot be made" in rep.summary()
    assert "nest deeper than Python allows" in rep.summary()
    assert cli.main(["crosscheck", str(private_ttt), "--json"]) == 2
    assert "nest deeper" in json.loads(capsys.readouterr().out)["plain_error"]
