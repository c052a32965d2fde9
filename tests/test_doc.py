"""`regola doc`: the rules summary, in Markdown and HTML, for every bundled game."""

import html
import re
from pathlib import Path

import pytest

from regola.loader import check_rules
from regola.resources import bundled_games
from regola.tools.cli import main

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True)
def _in_repo(monkeypatch):
    # places are shown relative to the working directory: run from the checkout's root
    monkeypatch.chdir(REPO)


def run(capsys, *args):
    code = main(["doc", *args])
    out = capsys.readouterr()
    return code, out.out, out.err


def place(node) -> str:
    return f"{Path(node.span.file).resolve().relative_to(REPO).as_posix()}:{node.span.line}"


@pytest.mark.parametrize("game", bundled_games())
def test_every_bundled_game_has_a_summary_naming_each_action_its_place_and_its_section(game, capsys):
    code, md, err = run(capsys, game)
    assert code == 0, err
    code, page, err = run(capsys, game, "--format", "html")
    assert code == 0, err
    assert page.startswith("<!DOCTYPE html>") and page.rstrip().endswith("</html>")
    prog = check_rules(game).program
    assert f"# {prog.title}" in md
    for name, a in prog.actions.items():
        assert f"Action `{name}`" in md
        assert f"Action <code>{name}</code>" in page
        assert place(a.decl) in md and place(a.decl) in page
        if a.cite:
            assert f"§ {a.cite}" in md
            assert f"§ {html.escape(a.cite)}" in page
    assert "## Rulebook sections cited" in md


def test_the_components_of_small_games(capsys):
    code, md, _ = run(capsys, "tic-tac-toe")
    assert code == 0
    assert "### Record `Mark`" in md
    assert "| `X` | `cross` | 5 | `rules/tic-tac-toe/tic-tac-toe.regola:26` |" in md
    assert "| `O` | `nought` | 4 | `rules/tic-tac-toe/tic-tac-toe.regola:27` |" in md
    assert "2 kinds, 9 components in all." in md
    code, md, _ = run(capsys, "connect-four")
    assert code == 0
    assert "| `red_disc` | `red` | `DISCS_EACH` = 21 |" in md
    assert "| `yellow_disc` | `yellow` | `DISCS_EACH` = 21 |" in md
    assert "2 kinds, 42 components in all." in md


def test_every_require_message_of_an_action_of_lungarno(capsys):
    a = check_rules("lungarno").program.actions["play_tile"]
    assert len(a.requires) == 3
    code, md, _ = run(capsys, "lungarno")
    code2, page, _ = run(capsys, "lungarno", "--format", "html")
    assert code == code2 == 0
    section = md.split("### Action `play_tile`")[1].split("\n### ")[0]
    for r in a.requires:
        assert f"“{r.message}” (`{place(r)}`)" in section
        assert html.escape(r.message) in page
    assert "- move `t` from `me.hand` to `board[c]`" in section
    assert "[§ Play a Tile](#cite-play-a-tile)" in section


def test_what_depends_on_the_number_of_players(capsys):
    code, md, _ = run(capsys, "lungarno")
    assert code == 0
    assert "- `COLUMNS` is `9` with 2 players; `12` with 3–5 players" in md
    assert "| `COLUMNS` (with 2 players) | `9` | `rules/lungarno/two-player.regola:15` |" in md
    code, md, _ = run(capsys, "love-letter")
    assert "if `count(players) == 2` (`true` with 2 players; `false` with 3–4 players):" in md
    # one number of players: only what holds for it
    code, md, _ = run(capsys, "lungarno", "--players", "3")
    assert code == 0
    assert "| `COLUMNS` | `12` |" in md and "two-player.regola:15" not in md


def test_a_modules_actions_appear_only_with_it(capsys):
    code, md, _ = run(capsys, "lions-of-lydia")
    assert code == 0
    assert "to_builder" not in md.split("## Actions")[1]
    assert ("| `builders` Expansion 6: Royal Builders | chosen with `--with builders` | "
            "no: add `--with builders` |") in md
    code, md, _ = run(capsys, "lions-of-lydia", "--with", "builders")
    assert code == 0
    assert "### Action `to_builder` (module builders)" in md
    assert "rules/lions-of-lydia/builders.regola:18" in md


HOSTILE = '''game hostile:
    title "<b>Bad</b> & \\"Co\\""
    players 2

cite "<i>Moves</i> & more"
global:
    n: int = 0

flow:
    loop:
        for p in players:
            act p: go

action go():
    require n < 3, "<script>alert('x')</script> & \\"n\\" < 3"
    n += 1
    if n == 3:
        end game

score: 0
'''


def test_html_escapes_what_the_rules_say(tmp_path, capsys):
    f = tmp_path / "hostile.regola"
    f.write_text(HOSTILE)
    out = tmp_path / "out.html"
    code, stdout, err = run(capsys, str(f), "--format", "html", "-o", str(out))
    assert code == 0, err
    assert stdout == ""
    page = out.read_text()
    assert "<script>" not in page and "<i>" not in page and "<b>" not in page
    assert "&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt; &amp; &quot;n&quot; &lt; 3" in page
    assert "<title>&lt;b&gt;Bad&lt;/b&gt; &amp; &quot;Co&quot;</title>" in page
    assert "§ &lt;i&gt;Moves&lt;/i&gt; &amp; more" in page
    assert f'href="{f.resolve().as_uri()}#L14"' in page
    code, md, _ = run(capsys, str(f))
    assert code == 0
    assert "\\<script>" in md and not re.search(r"(?<!\\)<(script|b|i)>", md)


def test_errors_are_reported_like_other_commands(tmp_path, capsys):
    code, out, err = run(capsys, "no-such-game")
    assert code == 1 and out == ""
    assert "regola doc: no rules named 'no-such-game'" in err
    code, out, err = run(capsys, "lungarno", "--with", "nope")
    assert code == 1 and "regola doc: lungarno has no module 'nope'" in err
    bad = tmp_path / "bad.regola"
    bad.write_text('game bad:\n    players 2..3\n\nconst X = Y + 1\nscore: 0\nflow:\n    pass\n')
    code, out, err = run(capsys, str(bad))
    assert code == 1 and out == ""
    assert f"{bad}:4:11: error[E170]: unknown name 'Y'" in err
    code, out, err = run(capsys, "lungarno", "-o", str(tmp_path / "no-dir" / "x.md"))
    assert code == 1 and "regola doc:" in err
