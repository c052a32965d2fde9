"""Hostile input that must not reach beyond the game: a save or log naming another file, what
the terminal tells of other players' secret moves, control characters from a rules file."""

import io
import json
import shutil
import sys

import pytest

from regola.loader import load_game
from regola.tools.cli import main
from regola.tools.play import PlaySession

SECRET = "TOP-SECRET-FIRST-LINE: root:x:0:0"


def run(capsys, *args):
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.fixture
def private_file(tmp_path):
    p = tmp_path / "private.txt"
    p.write_text(SECRET + "\nsecond line\n")
    return p


def _save_naming(tmp_path, capsys, monkeypatch, rules):
    save = tmp_path / "save.json"
    monkeypatch.setattr(sys, "stdin", io.StringIO(f"save {save}\nquit\nn\n"))
    assert run(capsys, "play", "tic-tac-toe", "--seed", "1")[0] == 0
    data = json.loads(save.read_text())
    data["rules"] = rules
    save.write_text(json.dumps(data))
    return save


@pytest.mark.parametrize("kind", ["file", "directory", "renamed"])
def test_a_save_naming_a_file_that_is_not_rules_is_refused_without_its_contents(
        tmp_path, capsys, monkeypatch, private_file, kind):
    target = {"file": private_file, "directory": tmp_path,
              "renamed": tmp_path / "x.regola"}[kind]
    if kind == "renamed":                 # a .regola name that is a link to another file
        target.symlink_to(private_file)
    save = _save_naming(tmp_path, capsys, monkeypatch, str(target))
    code, out, err = run(capsys, "play", "--resume", str(save))
    assert code == 1
    assert SECRET not in out + err and "root:x" not in out + err
    assert "not a rules file" in err or "no rules files" in err


def test_a_log_naming_a_file_that_is_not_rules_is_refused_without_its_contents(tmp_path, capsys, private_file):
    log = tmp_path / "g.jsonl"
    assert run(capsys, "simulate", "tic-tac-toe", "--games", "1", "--log", str(tmp_path / "logs"))[0] == 0
    src = next((tmp_path / "logs").glob("*.jsonl"))
    lines = src.read_text().splitlines()
    head = json.loads(lines[0])
    head["rules"] = str(private_file)
    log.write_text("\n".join([json.dumps(head)] + lines[1:]) + "\n")
    code, out, err = run(capsys, "replay", str(log))
    assert code == 1
    assert SECRET not in out + err
    assert "not a rules file" in err


@pytest.mark.parametrize("field,value,says", [
    ("humans", "x", "'humans'"), ("humans", [7], "'humans'"), ("seed", "1", "'seed'"),
    ("with", "leaders", "'with'"), ("bots", [3], "'bots'"), ("bots", ["nobody"], "unknown bot"),
    ("rules", 5, "'rules'"), ("state", [], "'state'"), ("log", {}, "'log'"),
    # the log inside a save is checked like a log file
    ("header", {"type": "header", "format": "regola-log/1", "rules": "tic-tac-toe", "players": "two", "seed": 1},
     "'players'"),
    ("log", [{"type": "move", "player": 9, "move": "mark((0,0))"}], "seat from 1 to 2"),
    ("log", [{"type": "chance"}], "'outcome'")])
def test_a_tampered_save_says_which_field_is_wrong(tmp_path, capsys, monkeypatch, field, value, says):
    save = _save_naming(tmp_path, capsys, monkeypatch, "tic-tac-toe")
    data = json.loads(save.read_text())
    data[field] = value
    save.write_text(json.dumps(data))
    code, out, err = run(capsys, "play", "--resume", str(save))
    assert code == 1, out
    assert says in err and "Traceback" not in err


@pytest.mark.parametrize("text,says", [("", "empty file"), ('{"format": "regola-save/1", "rul', "truncated"),
                                       ("\x00\x01", "not a saved game")])
def test_an_empty_or_truncated_save_is_refused(tmp_path, capsys, text, says):
    p = tmp_path / "s.json"
    p.write_text(text)
    code, out, err = run(capsys, "play", "--resume", str(p))
    assert code == 1 and says in err


# ----------------------------------------------------------------------- secret moves

def _bots_only_transcript(rules, players, modules, seed):
    game = load_game(rules, modules=modules, players=players)
    out = io.StringIO()
    PlaySession(game, rules, [], ["random"], seed, out=out).run()
    return game, out.getvalue()


def test_the_terminal_never_prints_a_leader_kept_in_the_draft():
    # reported: `player(2) plays keep=santa_rita` (a private draft pick) was printed to everyone
    game, text = _bots_only_transcript("lorenzo-il-magnifico", 4, ["advanced", "leaders"], 3)
    leaders = T_kinds(game, "Leader")
    plays = [line for line in text.splitlines() if " plays " in line]
    assert any(line.endswith("plays keep=?") for line in plays)
    for line in plays:
        if "keep=" in line or "leader" in line:
            assert not any(name in line for name in leaders), line


def test_a_tile_from_a_hidden_hand_is_not_named_before_it_is_seen():
    game, text = _bots_only_transcript("lungarno", 3, [], 2)
    plays = [line for line in text.splitlines() if "plays play_tile(" in line]
    assert plays and all("play_tile(?, (" in line for line in plays)


def test_the_mover_sees_its_own_secret_value_and_others_do_not():
    game = load_game("lorenzo-il-magnifico", modules=["advanced", "leaders"], players=2)
    s = game.new_initial_state(1)
    while not game.is_terminal(s):
        if game.is_chance(s):
            game.step_chance(s)
            continue
        site = game.sites[s.pending[0]]
        if site.kind == "choose" and site.node.var == "keep":
            break
        game.apply(s, game.legal_moves(s)[0])
    m = game.legal_moves(s)[0]
    mover = game.current_player(s)
    assert game.move_str_seen_by(s, m, mover) == game.move_str(s, m) != "keep=?"
    assert game.move_str_seen_by(s, m, 1 - mover) == "keep=?"
    assert game.move_str_seen_by(s, m, None) == "keep=?"


@pytest.mark.parametrize("rules,players,modules", [
    ("lungarno", 4, []), ("lions-of-lydia", 4, []), ("connect-four", 2, []), ("tic-tac-toe", 2, []),
    ("lorenzo-il-magnifico", 4, ["advanced", "leaders"]),
    ("lorenzo-il-magnifico", 5, ["advanced", "leaders", "houses-of-renaissance"])])
def test_no_value_from_a_private_or_hidden_zone_is_printed_for_another_player(rules, players, modules):
    """Every move printed for a spectator, checked against the options it came from: a value
    the rules draw from a zone others cannot see is '?'."""
    game = load_game(rules, modules=modules, players=players)
    s = game.new_initial_state(5)
    import random
    rng = random.Random(5)
    while not game.is_terminal(s):
        if game.is_chance(s):
            game.step_chance(s)
            continue
        ms = game.legal_moves(s)
        m = ms[rng.randrange(len(ms))]
        shown = game.move_str_seen_by(s, m, None)
        site = game.sites[s.pending[0]]
        if m and site.kind == "act":
            info = game.actions[m[0]].info
            for prm, v in zip(info.params, m[1:]):
                if _zone_visibility(game, prm.domain) in ("private", "hidden"):
                    assert "?" in shown, shown
        elif m and site.kind == "choose" and _zone_visibility(game, site.node.domain) in ("private", "hidden"):
            assert shown.endswith("=?"), shown
        game.apply(s, m)


def _zone_visibility(game, expr):
    from regola import ast
    if isinstance(expr, ast.Attr) and expr.name in game.prog.pvars:
        return game.prog.pvars[expr.name].visibility
    if isinstance(expr, ast.Name) and expr.name in game.prog.globals:
        return game.prog.globals[expr.name].visibility
    return "public"


def T_kinds(game, record):
    return list(game.prog.records[record].kinds)


# ----------------------------------------------------------------------- control characters

def _game_titled(tmp_path, title, dirname="evil"):
    d = tmp_path / dirname
    d.mkdir()
    src = open("rules/tic-tac-toe/tic-tac-toe.regola", encoding="utf-8").read()
    src = src.replace('title "Tic-Tac-Toe"', f'title "{title}"')
    (d / "evil.regola").write_text(src, encoding="utf-8")
    return d


@pytest.mark.parametrize("title", ["Evil\\x1b[2JGame", "Evil\x1b[2JGame", "Evil\u202eGame", "Evil\x9bGame"])
def test_a_rules_file_cannot_carry_control_characters(tmp_path, capsys, title):
    d = _game_titled(tmp_path, title)
    code, out, err = run(capsys, "simulate", str(d), "--games", "2")
    assert code == 1
    assert "error[E002]" in out + err
    assert not any(c in out + err for c in "\x1b\x9b\u202e")


def test_control_characters_that_reach_the_terminal_are_escaped(tmp_path, capsys, monkeypatch):
    # a path is the one way left (a save's or log's file name, a directory's name)
    d = _game_titled(tmp_path, "Fine", dirname="evil\x1b[2J")
    (d / "evil.regola").write_text("game evil:\n    players 2..2\n    oops\n")
    code, out, err = run(capsys, "check", str(d))
    assert code == 1
    assert "\x1b" not in out + err and "evil\\x1b[2J" in out
    log = tmp_path / "log\x1b[2J.jsonl"
    log.write_text("{broken\n")
    code, out, err = run(capsys, "replay", str(log))
    assert code == 1 and "\x1b" not in out + err


def test_safe_escapes_what_acts_on_a_terminal():
    from regola.textsafe import safe, safe_line
    assert safe("a\x1b[2Jb\x07c\x7f\x9b\u202e\nd\te") == "a\\x1b[2Jb\\x07c\\x7f\\x9b\\u202e\nd\te"
    assert safe_line("a\nb\tc") == "a\\nb\\tc"
    assert safe("città ♞ 東") == "città ♞ 東"


def test_control_characters_in_a_source_line_are_escaped_in_a_diagnostic(tmp_path, capsys):
    bad = tmp_path / "bad.regola"
    bad.write_text('game bad:\n    players 2..3\n\nconst X = "\x1b[2J" + Y\nscore: 0\nflow:\n    pass\n')
    code, out, err = run(capsys, "check", str(bad))
    assert code == 1
    assert "\x1b" not in out + err
    assert f"{bad}:4:12: error[E002]: a control character (\\x1b) in the rules text" in out
    lines = out.splitlines()
    line, caret = lines[1], lines[2]
    assert line[caret.index("^"):].startswith("\\x1b[2J")      # the caret under the character


def test_a_caret_after_a_tab_stays_under_its_column(tmp_path, capsys):
    bad = tmp_path / "bad.regola"
    bad.write_text('game bad:\n    players 2..3\n\nconst X = 1 +\tY\nscore: 0\nflow:\n    pass\n')
    code, out, err = run(capsys, "check", str(bad))
    lines = out.splitlines()
    at = next(i for i, x in enumerate(lines) if "unknown name 'Y'" in x)
    line, caret = lines[at + 1], lines[at + 2]
    assert "\t" not in line and line[caret.index("^")] == "Y"


def test_a_loaded_state_the_rules_never_make_fails_as_a_located_rules_error():
    """A save whose temporaries pass the shape checks yet hold what the rules never store
    fails later with a rules error, not a Python one."""
    from regola.runtime.helpers import RulesRuntimeError
    game = load_game("lungarno", players=3)
    s = game.new_initial_state(1)
    while not game.is_chance(s):
        game.apply(s, game.legal_moves(s)[0])
    for stack in ("draw_stack", "token_stack"):
        s.v[game.compiled.slots[stack]] = "oops"      # a value no rule ever stores
    for call in (game.step_chance, game.chance_outcomes, game.sample_chance):
        with pytest.raises(RulesRuntimeError):
            call(s)
