"""The regola command end to end (in-process, through its main())."""

import io
import json
import sys


from regola.tools.cli import main


def run(capsys, *args):
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_check_bundled_rules_is_clean(capsys):
    code, out, err = run(capsys, "check", "rules/lungarno/lungarno.regola", "rules/lungarno/two-player.regola")
    assert code == 0
    assert "0 errors" in err


def test_check_any_file_of_a_game_checks_the_game_it_belongs_to(capsys):
    # the game file brings its parts; a part alone is checked as the whole game
    for f in ("rules/lorenzo-il-magnifico/lorenzo-il-magnifico.regola", "rules/lorenzo-il-magnifico/board.regola",
              "rules/lorenzo-il-magnifico/cards.regola"):
        code, out, err = run(capsys, "check", f)
        assert code == 0, out
        assert "0 errors" in err


def test_check_reports_errors_with_position_and_exits_1(tmp_path, capsys):
    bad = tmp_path / "bad.regola"
    bad.write_text('game bad:\n    players 2..3\n\nconst X = Y + 1\nscore: 0\nflow:\n    pass\n')
    code, out, err = run(capsys, "check", str(bad))
    assert code == 1
    assert f"{bad}:4:11: error[E170]: unknown name 'Y'" in out
    assert "    const X = Y + 1" in out
    assert "1 error" in err


def test_check_unknown_path(capsys):
    code, out, err = run(capsys, "check", "no-such-game")
    assert code == 1
    assert "no rules named 'no-such-game'" in err


def test_simulate_json_and_logs_then_replay(tmp_path, capsys):
    logdir = tmp_path / "logs"
    code, out, err = run(capsys, "simulate", "lungarno", "--players", "2", "--games", "4", "--seed", "9",
                         "--log", str(logdir), "--json")
    assert code == 0
    d = json.loads(out)
    assert d["games"] == 4 and d["players"] == 2 and d["modules"] == ["two_player"]
    assert len(d["mean_score"]) == 2 and abs(sum(d["win_rate"]) - 1.0) < 1e-9
    assert d["games_per_second"] > 0
    files = sorted(logdir.glob("*.jsonl"))
    assert len(files) == 4
    code, out, err = run(capsys, "replay", str(files[0]))
    assert code == 0, err
    assert "verified" in out and "winner" in out
    lines = files[0].read_text().splitlines()
    end = json.loads(lines[-1])
    end["scores"] = [s + 1 for s in end["scores"]]
    lines[-1] = json.dumps(end)
    files[0].write_text("\n".join(lines) + "\n")
    code, out, err = run(capsys, "replay", str(files[0]))
    assert code == 1
    assert "final scores" in err


def test_simulate_table(capsys):
    code, out, err = run(capsys, "simulate", "lungarno", "--players", "3", "--games", "3", "--bots", "random,first,random")
    assert code == 0
    assert "mean score" in out and "win rate" in out and "games/s" in out


def test_simulate_rejects_bad_options(capsys):
    code, out, err = run(capsys, "simulate", "lungarno", "--players", "7", "--games", "1")
    assert code == 1 and "2 to 5 players" in err
    code, out, err = run(capsys, "simulate", "lungarno", "--players", "3", "--with", "nope")
    assert code == 1 and "no module 'nope'" in err
    code, out, err = run(capsys, "simulate", "lungarno", "--players", "2", "--with", "two_player")
    assert code == 1 and "applies automatically" in err


def test_replay_broken_log(tmp_path, capsys):
    p = tmp_path / "x.jsonl"
    p.write_text('{"type": "header"}\nnot json\n')
    code, out, err = run(capsys, "replay", str(p))
    assert code == 1
    assert "x.jsonl:1" in err or "x.jsonl:2" in err


def test_play_against_bots_with_save_and_resume(tmp_path, capsys, monkeypatch):
    save = tmp_path / "save.json"
    script = "buy_tile(9)\n1\n" + "1\n" * 3 + f"save {save}\nquit\nn\n"
    monkeypatch.setattr(sys, "stdin", io.StringIO(script))
    code, out, err = run(capsys, "play", "lungarno", "--players", "3", "--seed", "4")
    assert code == 0
    assert "illegal move 'buy_tile(9)'" in out
    assert "player(1) >" in out and "saved to" in out
    assert "player(2) plays" in out
    data = json.loads(save.read_text())
    assert data["format"] == "regola-save/1"
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n" * 400))
    code, out, err = run(capsys, "play", "--resume", str(save))
    assert code == 0
    assert "winner:" in out


def test_play_shows_only_the_humans_view(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\nn\n"))
    code, out, err = run(capsys, "play", "lungarno", "--players", "2", "--seed", "1")
    assert code == 0
    assert "(hidden)" in out          # the other player's hand and the draw stack


def test_resume_broken_save(tmp_path, capsys):
    p = tmp_path / "s.json"
    p.write_text("{broken")
    code, out, err = run(capsys, "play", "--resume", str(p))
    assert code == 1 and "not a saved game" in err


def test_test_command_runs_scenarios(capsys):
    code, out, err = run(capsys, "test", "tests/scenarios/lungarno")
    assert code == 0
    assert "passed, 0 failed" in out


def test_info(capsys):
    code, out, err = run(capsys, "info")
    assert code == 0 and "lungarno" in out
    code, out, err = run(capsys, "info", "lungarno")
    assert "two_player" in out and "automatic" in out
