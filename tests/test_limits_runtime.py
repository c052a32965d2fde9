"""A rules file that checks clean can still loop or explode when it runs; the engine stops it
with a rules runtime error naming the rule's line (docs/engine.md, "Limits at run time")."""

import pytest

from regola.limits import MAX_RANGE
from regola.runtime.helpers import RulesRuntimeError
from rules_helpers import load

HEAD = "game bad:\n    players 2..2\n\nglobal:\n    t: int = 0\n\n"


def _start(tmp_path, body):
    game = load(tmp_path, HEAD + body)
    return game, lambda: game.new_initial_state(0)


def _line_of(body, text):
    return (HEAD + body).splitlines().index(next(x for x in (HEAD + body).splitlines() if text in x)) + 1


RECURSION = {
    "procedure": ("procedure r():\n    t += 1\n    r()\n\nflow:\n    r()\nscore: t\n", "    r()"),
    "def": ("def f(n: int) -> int = f(n + 1) + 1\n\nflow:\n    t = f(0)\nscore: t\n", "def f"),
    "event": ("event ping()\non ping():\n    t += 1\n    emit ping()\n\nflow:\n    emit ping()\nscore: t\n",
              "    emit ping()"),
    "when": ("per player:\n    n: int = 0\n\nwhen p.n reaches 1:\n    p.n -= 1\n    p.n += 1\n\n"
             "flow:\n    player(1).n += 1\nscore: 0\n", "when p.n"),
}


@pytest.mark.parametrize("kind", sorted(RECURSION))
def test_endless_recursion_is_a_located_error(tmp_path, kind):
    body, at = RECURSION[kind]
    game, start = _start(tmp_path, body)
    with pytest.raises(RulesRuntimeError, match=r"calls nested more than [\d,]+ deep") as e:
        start()
    # the limit strikes somewhere in the rule that keeps calling itself: its lines
    at_line = _line_of(body, at)
    assert any(f":{n}:" in str(e.value) for n in range(at_line - 2, at_line + 3)), str(e.value)


def test_recursion_in_the_score_is_a_located_error(tmp_path):
    body = "def f(n: int) -> int = f(n + 1) + 1\n\nflow:\n    pass\nscore: f(0)\n"
    game, start = _start(tmp_path, body)
    with pytest.raises(RulesRuntimeError, match="calls nested") as e:
        start()
    assert f":{_line_of(body, 'def f')}:" in str(e.value)


LOOPS = {
    "while in setup": ("setup:\n    while true:\n        t += 1\n\nflow:\n    pass\nscore: t\n", "while true"),
    "while in flow": ("flow:\n    while t >= 0:\n        t += 1\nscore: t\n", "while t"),
    "loop": ("flow:\n    loop:\n        pass\nscore: t\n", "loop:"),
    "repeat": ("flow:\n    repeat 1000000000:\n        t += 1\nscore: t\n", "repeat"),
    "nested for": ("flow:\n    for i in range(0, 100000):\n        for j in range(0, 100000):\n"
                   "            t += 1\nscore: t\n", "for j"),
    "procedure": ("procedure spin():\n    while true:\n        t += 1\n\nflow:\n    spin()\nscore: t\n", "while"),
}


@pytest.mark.parametrize("kind", sorted(LOOPS))
def test_a_loop_that_never_ends_is_a_located_error(tmp_path, kind):
    body, at = LOOPS[kind]
    game, start = _start(tmp_path, body)
    with pytest.raises(RulesRuntimeError, match="loops ran more rounds than one decision allows") as e:
        start()
    assert f":{_line_of(body, at)}:" in str(e.value)


def test_the_loop_budget_is_per_decision(tmp_path):
    # 1.5 million rounds before each of two decisions: each run is within its own budget
    body = ("flow:\n    repeat 2:\n        for i in range(0, 750000):\n            t += 1\n"
            "        act player(1): a | b\n\naction a():\n    pass\naction b():\n    pass\nscore: t\n")
    game, start = _start(tmp_path, body)
    s = start()
    assert game.scores(s)[0] == 750_000
    game.apply(s, game.legal_moves(s)[0])
    assert game.scores(s)[0] == 1_500_000 and not game.is_terminal(s)


@pytest.mark.parametrize("where,body", [
    ("flow", "flow:\n    for i in range(0, 1000000000):\n        t += 1\nscore: t\n"),
    ("def", "def f() -> int = count(i for i in range(0, 1000000000) where i > 5)\nflow:\n    t = f()\nscore: t\n"),
    ("list", "flow:\n    let xs = [i for i in range(0, 1000000000)]\n    t = count(xs)\nscore: t\n"),
    ("computed", "flow:\n    t = 1000000\n    t = count(range(0, t * 1000))\nscore: t\n"),
])
def test_a_range_too_large_is_refused_where_it_is_built(tmp_path, where, body):
    game, start = _start(tmp_path, body)
    with pytest.raises(RulesRuntimeError, match=f"a range may have at most {MAX_RANGE:,}") as e:
        start()
    assert ".regola:" in str(e.value)


def test_a_range_at_the_limit_is_allowed(tmp_path):
    body = f"flow:\n    t = count(range(0, {MAX_RANGE}))\nscore: t\n"
    game, start = _start(tmp_path, body)
    s = start()
    assert game.scores(s)[0] == MAX_RANGE


def _cli(capsys, *args):
    from regola.tools.cli import main
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_simulate_stops_a_game_that_never_ends(tmp_path, capsys):
    body = ("flow:\n    loop:\n        act player(1): a | b\n\naction a():\n    t += 1\n"
            "action b():\n    t -= 1\nscore: t\n")
    d = tmp_path / "endless"
    d.mkdir()
    (d / "endless.regola").write_text(HEAD + body)
    code, out, err = _cli(capsys, "simulate", str(d), "--games", "2", "--max-moves", "500")
    assert code == 1 and "no end after 500 moves" in err and "Traceback" not in err
    code, out, err = _cli(capsys, "simulate", str(d), "--games", "2", "--max-moves", "500", "--jobs", "2")
    assert code == 1 and "no end after 500 moves" in err


def test_simulate_max_steps_sets_the_budget_between_decisions(tmp_path, capsys):
    body = "flow:\n    for i in range(0, 5000):\n        t += 1\n    act player(1): a\n\naction a(v in range(0, 2)):\n    t += v\nscore: t\n"
    d = tmp_path / "busy"
    d.mkdir()
    (d / "busy.regola").write_text(HEAD + body)
    code, out, err = _cli(capsys, "simulate", str(d), "--games", "1", "--max-steps", "1000")
    assert code == 1 and "busy.regola:8:" in err and "loops ran more rounds" in err
    code, out, err = _cli(capsys, "simulate", str(d), "--games", "1", "--max-steps", "10000")
    assert code == 0, err
    from regola.loader import load_game
    assert load_game(str(d), players=2).STEP_BUDGET == 2_000_000      # put back after the run


@pytest.mark.parametrize("kind,body,at", [
    ("squaring a variable", "flow:\n    t = 2\n    repeat 100:\n        t = t * t\nscore: t\n", "t = t * t"),
    ("doubling a variable", "flow:\n    t = 1\n    repeat 1000000:\n        t += t\nscore: t\n", "t += t"),
    ("doubling a local", "flow:\n    let x = 1\n    repeat 1000000:\n        x += x\n    t = x\nscore: t\n", "x += x"),
    ("squaring in recursion", "def f(n: int, k: int) -> int = n if k == 0 else f(n * n, k - 1)\n"
                              "flow:\n    t = f(2, 3000)\nscore: t\n", "def f"),
    ("a map entry", "global:\n    m: map Player to int\nflow:\n    repeat 100:\n        m[player(1)] += m[player(1)] + 1\n"
                    "score: 0\n", "m[player(1)] +="),
])
def test_numbers_that_grow_without_end_are_stopped(tmp_path, kind, body, at):
    game, start = _start(tmp_path, body)
    with pytest.raises(RulesRuntimeError, match=r"beyond the numbers the rules may use") as e:
        start()
    assert f":{_line_of(body, at)}:" in str(e.value)


def test_numbers_up_to_the_limit_are_fine(tmp_path):
    body = "flow:\n    t = 1\n    repeat 53:\n        t += t\n    t = t * 1\nscore: t\n"
    game, start = _start(tmp_path, body)
    assert game.scores(start())[0] == 2 ** 53


def test_what_the_compiler_cannot_write_is_a_positioned_diagnostic(tmp_path, monkeypatch):
    """Defence in depth: a gap in the checker (CodegenError) or compiled code past Python's
    own limits (SyntaxError) is a diagnostic at a rule, never a traceback."""
    from regola.codegen import program
    from regola.diagnostics import RulesError
    body = "flow:\n    t += 1\nscore: t\n"
    real = program.ProgramCompiler.compile

    def gap(self):
        raise program.CodegenError(self.p.flow.body[0], "no code for this statement")
    monkeypatch.setattr(program.ProgramCompiler, "compile", gap)
    with pytest.raises(RulesError) as e:
        load(tmp_path, HEAD + body, name="gap")
    d = e.value.diagnostics[0]
    assert d.code == "E999" and d.span.line == _line_of(body, "t += 1") and "please report" in d.hint

    def too_deep(self):
        compiled = real(self)
        compiled.module.source = lambda: "def f(:\n"
        return compiled
    monkeypatch.setattr(program.ProgramCompiler, "compile", too_deep)
    with pytest.raises(RulesError) as e:
        load(tmp_path, HEAD + body, name="deep")
    assert e.value.diagnostics[0].code == "E003"


@pytest.mark.parametrize("kind,body,at", [
    ("loops nested in a def",
     "def f() -> int = count(a for a in range(0, 1000) where any(b + c < 0 for b in range(0, 1000) "
     "for c in range(0, 1000)))\nflow:\n    t = f()\nscore: t\n", "def f"),
    ("a def calling itself twice",
     "def f(n: int) -> int = 0 if n == 0 else f(n - 1) + f(n - 1) + 1\nflow:\n    t = f(60)\nscore: t\n", "def f"),
    ("in the legal moves",
     "def slow(x: int) -> bool = any(b + c < 0 for b in range(0, 1000000) for c in range(0, 1000))\n"
     "flow:\n    act player(1): a\naction a(x in range(0, 2)):\n    require not slow(x)\n    t = x\nscore: t\n",
     "def slow"),
])
def test_the_watchdog_stops_what_the_budgets_cannot_count(tmp_path, monkeypatch, kind, body, at):
    """Loops nested in a def, or exponential recursion: no counted budget sees them; the
    watchdog stops the run after its time limit, at the line it had reached."""
    import time
    from regola.runtime import watchdog
    monkeypatch.setattr(watchdog, "limit_seconds", 1.0)
    game, start = _start(tmp_path, body)
    t0 = time.monotonic()
    with pytest.raises(RulesRuntimeError, match="ran for more than 1 seconds") as e:
        start()
    assert time.monotonic() - t0 < 15
    assert f":{_line_of(body, at)}:" in str(e.value)


def test_simulate_max_seconds(tmp_path, capsys):
    from regola.runtime import watchdog
    body = "def f(n: int) -> int = 0 if n == 0 else f(n - 1) + f(n - 1) + 1\nflow:\n    t = f(60)\nscore: t\n"
    d = tmp_path / "slow"
    d.mkdir()
    (d / "slow.regola").write_text(HEAD + body)
    before = watchdog.limit_seconds
    try:
        code, out, err = _cli(capsys, "simulate", str(d), "--games", "1", "--max-seconds", "1")
    finally:
        watchdog.limit_seconds = before
    assert code == 1 and "ran for more than 1 seconds" in err and "slow.regola:7:" in err


def test_a_constant_that_takes_too_long_to_evaluate_is_a_diagnostic(tmp_path, monkeypatch):
    from regola.runtime import watchdog
    from rules_helpers import errors
    monkeypatch.setattr(watchdog, "limit_seconds", 1.0)
    errs = errors(tmp_path, HEAD + "const X = count(a for a in range(0, 1000000) where any(b > a for b in "
                                   "range(0, 1000000)))\nflow:\n    t = X\nscore: t\n")
    assert [e.code for e in errs] == ["E120"] and "more than 1 seconds" in errs[0].message


def test_simulate_max_seconds_holds_for_that_command_only(capsys):
    from regola.runtime import watchdog
    from regola.tools.cli import main
    before = watchdog.limit_seconds
    assert main(["simulate", "tic-tac-toe", "--games", "1", "--max-seconds", "3"]) == 0
    assert watchdog.limit_seconds == before        # a later check in this process keeps its limit
