"""Hostile and broken input to the command line: scenario files, logs, options, the terminal
game and the board view. Each is refused with a clear message (exit 1 or 2), never a Python
traceback, and nothing is written that the user did not ask for."""

from __future__ import annotations

import io
import random
import re
import sys
import textwrap
import tomllib
from pathlib import Path

import pytest

from regola import load_game
from regola.snippets import SnippetCompiler
from regola.tools.cli import main
from regola.tools.scenarios import ScenarioError, load_file
from regola.tools.view import render_view

ROOT = Path(__file__).resolve().parent.parent


def run(capsys, *args):
    code = main(list(args))
    out = capsys.readouterr()
    assert "Traceback" not in out.out + out.err
    return code, out.out, out.err


def usage_error(capsys, *args):
    """argparse refuses: exit status 2 and its usage line."""
    with pytest.raises(SystemExit) as ei:
        main(list(args))
    err = capsys.readouterr().err
    assert ei.value.code == 2 and "usage:" in err and "Traceback" not in err
    return err


def scenario(tmp_path, text, name="s.yaml"):
    p = tmp_path / name
    p.write_text(textwrap.dedent(text), encoding="utf-8")
    return p


# --------------------------------------------------------------------- scenario files

@pytest.mark.parametrize("value, shown", [("three", "'three'"), ("2.5", "2.5"), ("true", "true"),
                                          ("0", "0"), ("[2]", "[2]")])
def test_scenario_players_must_be_a_whole_number(tmp_path, capsys, value, shown):
    p = scenario(tmp_path, f"""\
        rules: tic-tac-toe
        players: {value}
        steps:
          - expect: true
        """)
    code, out, err = run(capsys, "test", str(p))
    assert code == 1
    assert f"{p}:2: 'players' must be a whole number of players (such as 3), not {shown}" in out


def test_scenario_seed_must_be_a_whole_number(tmp_path, capsys):
    p = scenario(tmp_path, """\
        rules: tic-tac-toe
        scenarios:
          - name: a
            seed: x
            steps:
              - expect: true
        """)
    code, out, err = run(capsys, "test", str(p))
    assert code == 1 and f"{p}:4: 'seed' must be a whole number, not 'x'" in out


def test_scenario_steps_given_as_a_string(tmp_path, capsys):
    p = scenario(tmp_path, """\
        rules: tic-tac-toe
        steps: "move: mark((0,0))"
        """)
    code, out, err = run(capsys, "test", str(p))
    assert code == 1 and f"{p}:2: 'steps' must be a list" in out and "not a string" in out


def test_scenario_step_that_is_not_a_mapping(tmp_path, capsys):
    p = scenario(tmp_path, """\
        rules: tic-tac-toe
        steps:
          - expect: true
          - move mark((0,0))
        """)
    code, out, err = run(capsys, "test", str(p))
    assert code == 1 and f"{p}:4: a step is a mapping such as 'move: ...'" in out


def test_scenario_unknown_step_key(tmp_path, capsys):
    p = scenario(tmp_path, """\
        rules: tic-tac-toe
        steps:
          - expect: true
          - expct: true
        """)
    code, out, err = run(capsys, "test", str(p))
    assert code == 1 and f"{p}:4: unknown step 'expct'; did you mean 'expect'?" in out


def test_scenario_unknown_key_is_not_silently_ignored(tmp_path, capsys):
    # a misspelt 'steps' would leave a scenario that checks nothing and passes
    p = scenario(tmp_path, """\
        rules: tic-tac-toe
        scenarios:
          - name: a
            step:
              - expect: false
        """)
    code, out, err = run(capsys, "test", str(p))
    assert code == 1 and f"{p}:4: unknown key 'step' in a scenario; did you mean 'steps'?" in out


def test_scenario_step_values_are_checked(tmp_path):
    for body, msg in [("- move:\n", "'move:' has no value"),
                      ("- expect:\n    a: b\n", "'expect:' takes text or a list of texts"),
                      ("- expect: true\n  because: x\n", "'because' goes with an 'illegal:' step only"),
                      ("- scores: [a, b]\n", "'scores:' is a list of whole numbers")]:
        p = scenario(tmp_path, "rules: tic-tac-toe\nsteps:\n" + textwrap.indent(body, "  "))
        with pytest.raises(ScenarioError, match=re.escape(f"{p}:3: {msg}")):
            load_file(p)


def test_scenario_empty_list_of_scenarios(tmp_path):
    p = scenario(tmp_path, "rules: tic-tac-toe\nscenarios: []\n")
    with pytest.raises(ScenarioError, match="'scenarios' is empty"):
        load_file(p)


def test_scenario_run_endless_loop_fails_instead_of_hanging(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(SnippetCompiler, "step_budget", 10_000)
    p = scenario(tmp_path, """\
        rules: tic-tac-toe
        scenarios:
          - name: run
            steps:
              - run: |
                  while true:
                      pass
          - name: position
            position:
              - |
                loop:
                    pass
            steps:
              - expect: true
          - name: a loop that ends still runs
            steps:
              - run: |
                  repeat 20000:
                      pass
        """)
    code, out, err = run(capsys, "test", str(p))
    assert code == 1
    assert f"{p}:6: this statement failed: the statement ran 10,000 loop rounds without finishing: " \
           f"an endless loop?" in out
    assert f"{p}:11: this position statement failed: the statement ran 10,000 loop rounds" in out
    assert "0 passed, 3 failed" in out     # the third: 20,000 rounds are over this small budget


def test_scenario_endless_loop_with_the_engine_budget(tmp_path, capsys):
    p = scenario(tmp_path, """\
        rules: tic-tac-toe
        steps:
          - run: |
              loop:
                  pass
        """)
    code, out, err = run(capsys, "test", str(p))
    assert code == 1 and f"{p}:4: this statement failed: the statement ran 2,000,000 loop rounds" in out


def test_scenario_runtime_errors_and_unknown_games_fail_alone(tmp_path, capsys):
    bad = scenario(tmp_path, """\
        rules: lungarno
        players: 3
        scenarios:
          - name: division
            steps:
              - run: player(1).florins = 1 / 0
          - name: too many players
            players: 9
            steps:
              - expect: true
          - name: no such game
            rules: nosuchgame
            steps:
              - expect: true
          - name: fine
            steps:
              - expect: player(1).florins >= 0
        """, "bad.yaml")
    good = scenario(tmp_path, "rules: tic-tac-toe\nsteps:\n  - to_move: 1\n", "good.yaml")
    code, out, err = run(capsys, "test", str(bad), str(good))
    assert code == 1
    assert f"{bad}:6: this statement failed: division by zero" in out
    assert f"{bad}:7: Lungarno is for 2 to 5 players, not 9" in out
    assert f"{bad}:11: no rules named 'nosuchgame'" in out
    assert "2 passed, 3 failed" in out


# --------------------------------------------------------------------- replay

@pytest.mark.parametrize("text", ["\n", "\n\n  \n"])
def test_replay_of_blank_lines_is_not_a_game_log(tmp_path, capsys, text):
    p = tmp_path / "blank.jsonl"
    p.write_text(text)
    code, out, err = run(capsys, "replay", str(p))
    assert code == 1 and f"{p}: only blank lines, not a game log" in err


def test_replay_of_binary_or_deeply_nested_file(tmp_path, capsys):
    p = tmp_path / "bin.jsonl"
    p.write_bytes(b"\xff\xfe\x00\n")
    code, out, err = run(capsys, "replay", str(p))
    assert code == 1 and "not a game log (not UTF-8 text)" in err
    p.write_text("[" * 100_000 + "\n")
    code, out, err = run(capsys, "replay", str(p))
    assert code == 1 and "nested too deeply" in err


# --------------------------------------------------------------------- simulate options

def test_simulate_log_into_a_regular_file_is_refused(tmp_path, capsys):
    f = tmp_path / "logs"
    f.write_text("mine")
    code, out, err = run(capsys, "simulate", "tic-tac-toe", "--games", "2", "--log", str(f))
    assert code == 2 and f"--log {f}: exists and is not a directory" in err
    assert f.read_text() == "mine"


def test_simulate_never_overwrites_logs(tmp_path, capsys):
    d = tmp_path / "logs"
    code, out, err = run(capsys, "simulate", "tic-tac-toe", "--games", "2", "--log", str(d))
    assert code == 0 and sorted(p.name for p in d.iterdir()) == ["game-000000.jsonl", "game-000001.jsonl"]
    (d / "game-000001.jsonl").write_text("someone's results\n")
    code, out, err = run(capsys, "simulate", "tic-tac-toe", "--games", "3", "--log", str(d))
    assert code == 2
    assert "already holds logs of 2 of these games (game-000000.jsonl, game-000001.jsonl)" in err
    assert "they are not overwritten" in err
    assert (d / "game-000001.jsonl").read_text() == "someone's results\n"
    assert not (d / "game-000002.jsonl").exists()
    # other seeds' games go beside them; other files do not matter
    (d / "notes.txt").write_text("x")
    code, out, err = run(capsys, "simulate", "tic-tac-toe", "--games", "2", "--seed", "2", "--log", str(d))
    assert code == 0 and (d / "game-000003.jsonl").exists()


@pytest.mark.parametrize("option, value", [("--games", "0"), ("--games", "-5"), ("--jobs", "0"),
                                           ("--jobs", "-1")])
def test_simulate_counts_must_be_positive(capsys, option, value):
    err = usage_error(capsys, "simulate", "tic-tac-toe", option, value)
    assert f"argument {option}: {value} is too few; give 1 or more" in err


@pytest.mark.parametrize("option", ["--games", "--jobs", "--players", "--seed"])
def test_simulate_numbers_that_are_not_numbers(capsys, option):
    err = usage_error(capsys, "simulate", "tic-tac-toe", option, "many")
    assert f"argument {option}: 'many' is not a whole number" in err


def test_players_outside_the_games_range(capsys):
    for cmd in ("simulate", "play"):
        code, out, err = run(capsys, cmd, "tic-tac-toe", "--players", "3")
        assert code == 1 and f"regola {cmd}: Tic-Tac-Toe is for 2 to 2 players, not 3" in err
    usage_error(capsys, "play", "tic-tac-toe", "--players", "2.5")


@pytest.mark.parametrize("seat", ["x", "0", "3", "-1"])
def test_play_human_seat_must_be_a_seat(capsys, seat):
    code, out, err = run(capsys, "play", "tic-tac-toe", "--human", seat)
    assert code == 2 and f"--human {seat}: give a seat from 1 to 2" in err


# --------------------------------------------------------------------- play

def play(capsys, monkeypatch, tmp_path, script, *extra):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "stdin", io.StringIO(script))
    return run(capsys, "play", "tic-tac-toe", "--seed", "1", *extra)


def test_play_refuses_numbers_outside_the_menu(tmp_path, capsys, monkeypatch):
    # tic-tac-toe's first menu has 9 moves; 10 and up are internal move ids, never accepted
    code, out, err = play(capsys, monkeypatch, tmp_path, "10\n12\n0\n-1\n1 2\n99999999999999999999999\n")
    assert code == 0
    assert out.count("there are only 9 moves; enter 1 to 9 or a move") == 6
    assert "player(1) plays" not in out and "plays" not in out.split("player(1) >", 1)[1]


def test_play_end_of_input_quits_without_saving(tmp_path, capsys, monkeypatch):
    code, out, err = play(capsys, monkeypatch, tmp_path, "1\n")
    assert code == 0
    assert "input ended: the game was not saved" in out and "enter 'save'" in out
    assert list(tmp_path.iterdir()) == []


def test_play_end_of_input_at_the_save_question(tmp_path, capsys, monkeypatch):
    code, out, err = play(capsys, monkeypatch, tmp_path, "quit\n")
    assert "save before quitting?" in out and "the game was not saved" in out
    assert list(tmp_path.iterdir()) == []
    code, out, err = play(capsys, monkeypatch, tmp_path, "quit\nn\n")
    assert "the game was not saved" in out and list(tmp_path.iterdir()) == []


def test_play_save_that_cannot_be_written_keeps_the_game(tmp_path, capsys, monkeypatch):
    (tmp_path / "adir").mkdir()
    code, out, err = play(capsys, monkeypatch, tmp_path, "save adir\nquit\ny\n", "--save", "adir")
    assert code == 0
    assert out.count("cannot save to adir") == 2
    assert "input ended: the game was not saved" in out   # after the failed save, the game went on


def test_play_moves_by_number_and_by_text_still_work(tmp_path, capsys, monkeypatch):
    code, out, err = play(capsys, monkeypatch, tmp_path, "mark((1,1))\n1\nsave\n")
    assert "saved to regola-save.json" in out and (tmp_path / "regola-save.json").exists()


# --------------------------------------------------------------------- the board view

VIEW_GAMES = [("lungarno", n) for n in (2, 3, 4, 5)] + [("lions-of-lydia", 2), ("lions-of-lydia", 4),
                                                        ("lorenzo-il-magnifico", 2), ("lorenzo-il-magnifico", 4),
                                                        ("connect-four", 2), ("tic-tac-toe", 2)]


def random_views(game, seed, every=9, limit=600):
    """(state, view of player 1, view of a spectator) at several points of a random game."""
    s = game.new_initial_state(seed)
    rng = random.Random(seed)
    for k in range(limit):
        if game.is_terminal(s):
            break
        if game.is_chance(s):
            game.step_chance(s)
            continue
        if k % every == 0:
            yield s, render_view(game, s, 0), render_view(game, s, None)
        game.apply(s, rng.choice(game.legal_moves(s)))
    yield s, render_view(game, s, 0), render_view(game, s, None)


@pytest.mark.parametrize("name, players", VIEW_GAMES)
def test_views_fit_80_columns(name, players):
    game = load_game(name, players=players)
    for seed in (1, 2):
        for _, mine, public in random_views(game, seed):
            for view in (mine, public):
                long = [line for line in view.splitlines() if len(line) > 80]
                assert not long, f"{name} {players}p: {long[0]!r}"


def test_view_marks_are_never_cut_and_areas_are_named():
    game = load_game("lungarno", players=4)
    checked = 0
    for s, view, _ in random_views(game, 3, every=5):
        st = game.observe(s, 0)["state"]
        lines = view.splitlines()
        # every merchant and every shield under it is shown in full, on its tagged line
        for tag, attr in (("m", "merchant"), ("t", "trades_with")):
            shown = [tok for line in lines if line.startswith(f"{tag}  ")
                     for tok in line[3:].split() if tok not in "|:!"]
            assert sorted(shown) == sorted(str(v) for v in st[attr].values() if v is not None)
            checked += len(shown)
        if st["merchant"]:
            assert "under a row: m = merchant, t = trades_with" in lines
        assert "lines: ~ river, | street" in lines
        assert "district(0): rows 0-1, columns 0-2; district(1): rows 0-1, columns 3-5;" in view
    assert checked > 20


def test_view_in_a_narrow_terminal():
    game = load_game("lungarno", players=5)
    for s, _, _ in random_views(game, 4, every=20):
        view = render_view(game, s, 0, width=40)
        assert max(len(line) for line in view.splitlines()) <= 40
        assert "board, columns 0-2:" in view
    # not even one column fits: cell by cell, the lines wrapped (indented) but no word cut
    tiny = render_view(game, s, 0, width=11).replace("\n    ", " ")
    assert "board, cell by cell (row, column):" in tiny
    for key, who in game.observe(s, 0)["state"]["merchant"].items():
        assert re.search(re.escape(key) + r" \w+; merchant " + re.escape(who), tiny), key


def test_view_shortens_names_with_a_legend():
    game = load_game("connect-four", players=2)
    *_, (s, view, _) = random_views(game, 5)
    assert "shortened: yello_disc = yellow_disc" in view
    assert max(len(line) for line in view.splitlines()) <= 80


# --------------------------------------------------------------------- packaging

def test_every_importable_game_directory_is_a_listed_package():
    """setuptools warns about a rules directory named like a Python package that is not in
    `packages`; the wheel must also carry every game's files (package-data)."""
    conf = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    games = [d.name for d in (ROOT / "rules").iterdir() if d.is_dir() and any(d.glob("*.regola"))]
    assert games
    for g in games:
        if g.isidentifier():
            assert f"regola.rules.{g}" in conf["packages"], g
    assert conf["package-dir"]["regola.rules"] == "rules"
    assert "*/*.regola" in conf["package-data"]["regola.rules"]


def test_scenario_rules_are_found_next_to_the_scenario_file(tmp_path, capsys, monkeypatch):
    import shutil
    game_dir = tmp_path / "project" / "mygame"
    shutil.copytree("rules/tic-tac-toe", game_dir)
    sc = tmp_path / "project" / "tests" / "s.yaml"
    sc.parent.mkdir()
    sc.write_text("rules: ../mygame\nscenarios:\n  - name: first move\n    steps:\n"
                  "      - move: mark((1,1))\n      - to_move: 2\n")
    monkeypatch.chdir(tmp_path)                  # not where the rules are
    code = main(["test", str(sc)])
    out = capsys.readouterr().out
    assert code == 0 and "1 passed" in out, out


def test_a_log_of_rules_given_by_path_replays_from_another_directory(tmp_path, capsys, monkeypatch):
    import shutil
    shutil.copytree("rules/tic-tac-toe", tmp_path / "mine")
    monkeypatch.chdir(tmp_path)
    assert main(["simulate", "mine", "--games", "1", "--log", "logs"]) == 0
    log = next((tmp_path / "logs").glob("*.jsonl"))
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    capsys.readouterr()
    assert main(["replay", str(log)]) == 0, capsys.readouterr().err
    # the rules gone: the message says which game the log is of
    shutil.rmtree(tmp_path / "mine")
    assert main(["replay", str(log)]) == 1
    err = capsys.readouterr().err
    assert "the log is of the game 'tic_tac_toe'" in err and "fingerprint" in err
