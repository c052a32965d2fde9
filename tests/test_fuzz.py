"""Hostile and broken rules files (tools/fuzz.py): whatever a file holds, `regola check` gives a
clean check or positioned diagnostics, and a file that checks clean plays or stops with a
located rules runtime error. Never a traceback, an unpositioned error, a hang or a memory
blow-up.

Hypothesis drives the input generators of tools/fuzz_inputs.py (derandomized: CI runs the
same few hundred cases each time; the local runner, `python -m regola.tools.fuzz`, runs
thousands of new ones). The small bundled games are mutated here, the large ones only by the
local runner (they take seconds a case). Below, a regression test for each kind of failure the
fuzzer found.
"""

from __future__ import annotations

import os
import signal
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from regola.tools import fuzz
from regola.tools.fuzz_inputs import Case, make_case, mutate, tokenize

if not (hasattr(os, "fork") and hasattr(signal, "setitimer")):
    pytest.skip("the fuzzer's worker needs fork and CPU-time alarms (POSIX)", allow_module_level=True)

CI_GAMES = ["tic-tac-toe", "connect-four", "lungarno"]
# (no 'deep' ones: each takes seconds, and regression tests below cover what they found)
CI_KINDS = [(6, "mutation"), (3, "semantic"), (2, "typed"), (1, "soup"), (2, "grammar")]
CASES = 200


@pytest.fixture(scope="module")
def worker():
    w = fuzz.Worker(memory_mb=2048)
    yield w
    w.stop()


LIMITS = fuzz.Limits(check_seconds=10, simulate_seconds=30, max_moves=500)


def _run(case: Case, worker) -> fuzz.Outcome:
    with tempfile.TemporaryDirectory(prefix="regola-fuzz-") as tmp:
        return fuzz.run_case(case, worker, Path(tmp), LIMITS)


def _explain(case: Case, o: fuzz.Outcome) -> str:
    return (f"{o.kind} in {o.phase}: {case.describe()}\n"
            f"regola {' '.join(o.argv)}\n{o.detail}\n--- output:\n{o.output[:4000]}")


@settings(max_examples=CASES, deadline=None, derandomize=True, database=None, print_blob=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(case=st.randoms(use_true_random=False).map(lambda rng: make_case(rng, CI_GAMES, CI_KINDS)))
def test_no_broken_rules_file_escapes(worker, case):
    o = _run(case, worker)
    event(o.kind)            # pytest --hypothesis-show-statistics: how many played, how many refused
    assert not o.failed, _explain(case, o)


# ------------------------------------------------------------------ the fuzzer itself


def test_tokens_give_the_text_back():
    text = (Path(__file__).parent.parent / "rules" / "tic-tac-toe" / "tic-tac-toe.regola").read_text()
    assert "".join(t for _, t in tokenize(text)) == text
    assert {k for k, _ in tokenize(text)} >= {"name", "num", "str", "op", "nl", "comment"}


def test_mutations_change_the_file_and_say_how():
    import random
    data = b'game g:\n    players 2..3\n    title "G"\nconst N = 4\n'
    changed = 0
    for i in range(50):
        new, ops = mutate(random.Random(i), data)
        assert ops and all(isinstance(x, str) for x in ops)
        changed += new != data
    assert changed >= 40


def _res(output: str, status: int | None = 1, **kw) -> dict:
    return {"status": status, "escaped": None, "deadline": None, "memory": False, "output": output, **kw}


def test_the_judge_accepts_positioned_diagnostics_and_refusals(tmp_path):
    (tmp_path / "g.regola").write_text("game g:\n    players 2..2\nconst N = x\n")
    ok = ("g.regola:3:11: error[E100]: unknown name 'x'\n    const N = x\n              ^\n"
          "reading the rules failed: 1 error, 0 warnings\n")
    assert fuzz.judge_check(_res(ok), tmp_path).kind == "diagnostics"
    assert fuzz.judge_check(_res("1 configuration checked: 0 errors, 0 warnings\n", 0), tmp_path).kind == "clean"
    refusal = "regola check: no rules named 'nothing': not a file, and not a bundled game (a, b)\n"
    assert fuzz.judge_check(_res(refusal), tmp_path).kind == "refused"
    assert fuzz.judge_simulate(_res("regola simulate: g.regola:3:1: division by zero\n"), tmp_path).kind == \
        "runtime-error"
    assert fuzz.judge_simulate(_res("regola simulate: seed 3: no end after 20 moves; the rules may never end\n"),
                               tmp_path).kind == "no-end"


@pytest.mark.parametrize("output,kind", [
    ("regola check: invalid literal for int() with base 10: 'x'\n", "unpositioned"),
    ("g.regola:9:1: error[E100]: unknown name 'x'\n", "unpositioned"),            # past the end of the file
    ("g.regola:3:40: error[E100]: unknown name 'x'\n", "unpositioned"),           # past the end of the line
    ("g.regola:3:1: error[E100]: unknown name 'x'\n    game g:\n    ^\n", "unpositioned"),   # another line shown
    ("Traceback (most recent call last):\n  File \"x.py\", line 1\nKeyError: 3\n", "traceback"),
])
def test_the_judge_refuses_what_is_not_positioned(tmp_path, output, kind):
    (tmp_path / "g.regola").write_text("game g:\n    players 2..2\nconst N = x\n")
    assert fuzz.judge_check(_res(output), tmp_path).kind == kind


def test_the_judge_refuses_an_unlocated_runtime_error(tmp_path):
    o = fuzz.judge_simulate(_res("regola simulate: the rules ran 2,000,000 steps without reaching a decision\n"),
                            tmp_path)
    assert o.failed and o.kind == "unpositioned"


def test_the_worker_reports_a_timeout_and_starts_afresh(worker):
    root = str(Path(__file__).parent.parent)
    res = worker.run(["check", "rules/lorenzo-il-magnifico"], root, 0.05)
    assert res["deadline"] and "no end in 0.05 s of CPU time" in res["deadline"]
    assert fuzz.judge_check(res, Path(root)).kind == "timeout"
    res = worker.run(["check", "-q", "rules/tic-tac-toe"], root, 30)
    assert res["status"] == 0 and not res["deadline"]


def test_the_local_runner_saves_reproducers(tmp_path, worker, monkeypatch):
    """A failure is saved as a directory that reproduces it, with a case.txt that says how."""
    case = Case("mutation", "g", {"g.regola": b"game g:\n    players 2..2\n"}, "g.regola", ["by hand"])
    monkeypatch.setattr(fuzz, "judge_check", lambda res, cwd: fuzz.Outcome("traceback", "check", "KeyError"))
    rep = fuzz.fuzz([case], worker, LIMITS, tmp_path / "out")
    assert rep.cases == 1 and rep.failed == 1 and "traceback" in rep.summary()
    saved = tmp_path / "out" / "0001-traceback"
    assert (saved / "g" / "g.regola").read_bytes() == case.files["g.regola"]
    assert "regola check g/g.regola" in (saved / "case.txt").read_text()
    assert (tmp_path / "out" / ".gitignore").read_text() == "*\n"      # never committed by mistake


# ------------------------------------------------------------------ what the fuzzer found


def _check(tmp_path, capsys, data: bytes, name="g.regola"):
    from regola.tools.cli import main
    (tmp_path / name).write_bytes(data)
    code = main(["check", str(tmp_path / name)])
    out = capsys.readouterr()
    return code, out.out + out.err


@pytest.mark.parametrize("char", ["\x0b", "\x0c", "\x1c", "\x85", "\u2028", "\u2029"])
def test_a_character_python_breaks_lines_at_shows_its_own_line(tmp_path, capsys, char):
    """The source map counts lines as the parser does (only '\\n' ends one): the diagnostic
    about a vertical tab, form feed, NEL or line separator shows the line it is on."""
    text = f"game g:\n    players 2..2\n# a comment{char}with a break\nconst N = 1\n"
    code, out = _check(tmp_path, capsys, text.encode())
    assert code == 1
    lines = out.split("\n")
    escape = f"\\x{ord(char):02x}" if ord(char) < 256 else f"\\u{ord(char):04x}"
    assert lines[0].endswith(f"error[E002]: a control character ({escape}) in the rules text")
    assert ":3:12:" in lines[0]
    assert lines[1].startswith("    # a comment") and lines[1].endswith("with a break")


def test_a_byte_that_is_not_utf8_after_old_mac_line_ends_is_placed_by_lines(tmp_path, capsys):
    code, out = _check(tmp_path, capsys, b"game g:\r    players 2..2\r# caf\xe9\rconst N = 1\r")
    assert code == 1
    assert ":3:6: error[E002]: byte 0xe9 is not UTF-8 text" in out
    assert out.split("\n")[1] == "    # caf\ufffd"


def test_rules_that_run_without_a_decision_stop_at_a_line_of_the_loop(tmp_path):
    """A loop whose rounds each call a procedure that passes (nobody can act) spends the
    step budget between decisions: the error names a line of the loop, not only its unit."""
    from regola.runtime.helpers import RulesRuntimeError
    from rules_helpers import line_of, load
    text = """\
        game g:
            players 2..2
        flow:
            loop:
                turn()
        procedure turn():
            act player(1): a else pass
        action a():
            require false, "never"
        score: 0
        """
    game = load(tmp_path, text)
    game.STEP_BUDGET = 10_000
    with pytest.raises(RulesRuntimeError, match="steps without reaching a decision") as e:
        game.new_initial_state(0)
    msg = str(e.value)
    assert msg.startswith(str(tmp_path))
    assert "(in procedure turn)" in msg or "(in flow)" in msg
    assert any(f"game.regola:{n}:" in msg for n in (line_of(text, "loop:"), line_of(text, "turn()"),
                                                     line_of(text, "act player")))


def test_a_long_row_of_cells_has_small_tables(tmp_path, capsys):
    """The cells of each cell's row (row_cells) are one list per row, shared by its cells: a
    grid of 1 by 10,000 cells took 100 million entries (and the check minutes) before. A
    constant may use a grid's cells (the grid's geometry is worked out when first needed)."""
    import time
    text = ("game g:\n    players 2..2\nrecord Tile:\n    v: int\ncomponents Tile:\n    | name | v | count |\n"
            "    | A | 1 | 1 |\ngrid board of Tile:\n    size 1 by 10000\nconst N = count(row_cells(cell(0, 5)))\n"
            "global:\n    t: int = N\nflow:\n    t = count(col_cells(cell(0, 7)))\nscore: t\n")
    t0 = time.perf_counter()
    code, out = _check(tmp_path, capsys, text.encode())
    assert code == 0, out
    assert time.perf_counter() - t0 < 10
    from regola.loader import load_game
    game = load_game(str(tmp_path / "g.regola"), players=2)
    rows = game.ns["ROWC_board"]
    assert len(rows) == 10_000 and all(r is rows[0] for r in rows) and len(rows[0]) == 10_000
    assert game.scores(game.new_initial_state(0)) == [1, 1]


def test_a_grid_whose_size_needs_its_own_cells_is_a_circle(tmp_path, capsys):
    text = ("game g:\n    players 2..2\nrecord Tile:\n    v: int\ncomponents Tile:\n    | name | v | count |\n"
            "    | A | 1 | 1 |\ngrid board of Tile:\n    size N by 2\nconst N = count(cells(board))\n"
            "flow:\n    pass\nscore: 0\n")
    code, out = _check(tmp_path, capsys, text.encode())
    assert code == 1 and out.count("error[") == 1 and "error[E122]: constant 'N' depends on itself" in out
    assert "CELLS" not in out


def test_a_long_chain_of_constants_checks(tmp_path, capsys):
    """Constants are worked out after the constants they name (a chain of 3,000, each the
    next plus one, was a RecursionError of the checker)."""
    n = 3000
    text = "game g:\n    players 2..2\n" + "".join(f"const A{i} = A{i + 1} + 1\n" for i in range(n)) + \
        f"const A{n} = 0\nglobal:\n    t: int = A0\nflow:\n    pass\nscore: t\n"
    code, out = _check(tmp_path, capsys, text.encode())
    assert code == 0, out[-2000:]
    from regola.loader import load_game
    game = load_game(str(tmp_path / "g.regola"), players=2)
    assert game.scores(game.new_initial_state(0)) == [n, n]


def test_a_long_chain_of_component_tables_is_a_diagnostic(tmp_path, capsys):
    """Tables that wait on tables that wait on tables...: E122 past 32 levels, not a
    RecursionError."""
    n = 100
    text = "game g:\n    players 2..2\n"
    for i in range(n + 1):
        v = f"count(copies(R{i + 1}))" if i < n else "1"
        text += f"record R{i}:\n    v: int\ncomponents R{i}:\n    | name | v | count |\n    | k{i} | {v} | 1 |\n"
    text += "flow:\n    pass\nscore: 0\n"
    code, out = _check(tmp_path, capsys, text.encode())
    assert code == 1 and "Traceback" not in out
    assert "error[E122]: working out the components of 'R" in out and "more than 32 deep" in out


@pytest.mark.parametrize("game", ["tic-tac-toe", "love-letter"])
def test_the_api_probe_goes_through_a_bundled_game(game, capsys):
    from regola.tools.fuzz_probe import probe
    root = Path(__file__).parent.parent
    assert probe(str(root / "rules" / game), None, (), 1, 60) == 0, capsys.readouterr().err


def test_the_judge_of_the_probe(tmp_path):
    (tmp_path / "g.regola").write_text("game g:\n    players 2..2\nconst N = 1\n")
    assert fuzz.judge_probe(_res("probe: ok\n", 0), tmp_path).kind == "played"
    assert fuzz.judge_probe(_res("regola probe: g.regola:3:1: division by zero\n"), tmp_path).kind == "runtime-error"
    assert fuzz.judge_probe(_res("regola probe: mismatch: step 3: a dumped state does not load back\n"),
                            tmp_path).kind == "api-mismatch"
    assert fuzz.judge_probe(_res("regola probe: 'NoneType' object is not iterable\n"), tmp_path).failed


def test_a_position_past_the_end_of_a_list_is_said_in_words(tmp_path):
    from regola.runtime.helpers import RulesRuntimeError
    from rules_helpers import line_of, load
    text = """\
        game g:
            players 2..2
        global:
            t: int = 0
        flow:
            let xs = [1, 2, 3]
            t = xs[t + 5]
        score: t
        """
    game = load(tmp_path, text)
    with pytest.raises(RulesRuntimeError) as e:
        game.new_initial_state(0)
    assert f"game.regola:{line_of(text, 't = xs')}:" in str(e.value)
    assert "a position past the end of a list (positions count from 0)" in str(e.value)
