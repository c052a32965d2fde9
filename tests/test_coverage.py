"""regola coverage: rulebook headings cited by the rules, and what of the rules ran."""

import argparse
import json
import sys
from pathlib import Path

import pytest

from regola.compose import read_game
from regola.loader import load_game
from regola.resources import find_rules
from regola.tools import coverage
from regola.tools.coverage_headings import extract, match_all, collect_cites, read_rulebook

MINI = """\
game mini:
    title "Mini"
    players 2..2

cite "Setup"

# a comment with <script>alert("&")</script> in it
global:
    turns: int

per player:
    points: int

flow:
    loop:
        for p in players:
            act p: step | jump | dead
        if turns >= 6:
            end game

cite "2. Moves"

action step(n in range(1, 4)):
    require n <= turns + 1, "not so far yet"
    me.points += n
    turns += 1

action jump():
    require turns >= 2, "not before the third turn"
    turns += 1
    if turns > 1000:
        me.points += 100
    else:
        me.points += 1

cite "No Such Heading"

action dead():
    require turns < 0, "never"
    turns += 1

score: me.points
"""

BOOK = """\
MINI - a rulebook

1. SETUP
1.1 Nothing to set up.

2. MOVES
2.1 Step or jump.

3. SCORING
3.1 Points score.
"""

RULEBOOKS = [p for p in (Path(__file__).resolve().parents[2] / "shared" / "rulebooks",
                         Path("/work/shared/rulebooks")) if p.is_dir()]


@pytest.fixture
def mini(tmp_path):
    (tmp_path / "mini.regola").write_text(MINI)
    (tmp_path / "book.txt").write_text(BOOK)
    return tmp_path


def run(capsys, *args):
    p = argparse.ArgumentParser(prog="regola")
    coverage.register(p.add_subparsers(dest="command", required=True))
    a = p.parse_args(["coverage", *args])
    code = a.func(a)
    out = capsys.readouterr()
    return code, out.out, out.err


def line_of(text):
    """The line of MINI that holds `text`."""
    return next(n for n, line in enumerate(MINI.splitlines(), 1) if text in line)


def _lines(items, kind, status):
    return [c.line for c in items if c.kind == kind and c.status() == status]


# --------------------------------------------------------------------- what ran

def test_a_dead_action_and_a_dead_branch_are_exactly_what_is_reported(mini):
    path = mini / "mini.regola"
    game = load_game(str(path), players=2)
    cov = coverage.measure(game, read_game(path), games=5, seed=0)
    items = cov.items
    assert cov.games == 5 and cov.moves > 0
    assert [c.label for c in items if c.kind == "action" and c.status() == "never"] == ["dead"]
    assert _lines(items, "require", "never_true") == [line_of("require turns < 0")]
    assert _lines(items, "require", "never_false") == []
    assert _lines(items, "require", "never_evaluated") == []
    dead_branch = line_of("if turns > 1000")
    assert _lines(items, "branch", "never") == [dead_branch]
    assert {c.status() for c in items if c.kind == "branch" and c.line != dead_branch} == {"covered"}
    assert [c for c in items if c.kind in ("trigger", "modifier")] == []
    # the three shapes of a test: an unrolled domain filter (step), a test of no parameter
    # that returns (jump, dead)
    req = {c.line: c for c in items if c.kind == "require"}
    step, jump = req[line_of("require n <=")], req[line_of("require turns >= 2")]
    assert step.true and step.false and "enters" in {s.mode for s in step.sites}
    assert jump.true and jump.false and "leaves" in {s.mode for s in jump.sites}


def test_the_tracer_leaves_the_previous_tracer_in_place(mini):
    path = mini / "mini.regola"
    game = load_game(str(path), players=2)

    def other(frame, event, arg):
        return None
    if hasattr(sys, "monitoring"):
        pytest.skip("sys.monitoring does not replace sys.settrace")
    old = sys.gettrace()
    sys.settrace(other)
    try:
        coverage.measure(game, read_game(path), games=1)
        assert sys.gettrace() is other
    finally:
        sys.settrace(old)


def test_lungarno_requires_including_one_that_cannot_fail():
    # tests written as loops (`beside(c, river) or any(...)`) and tests of no parameter;
    # a closed district is full, so `board[c] == none` fails before `not closed[...]` is asked
    game = load_game("lungarno", players=4)
    cov = coverage.measure(game, read_game(find_rules("lungarno")), games=3, seed=1)
    got = {c.line: c.status() for c in cov.items if c.kind == "require"}
    assert got[222] == "never_false"     # a closed district is full: `board[c] == none` fails first
    assert got[221] == got[223] == got[261] == "covered"


# --------------------------------------------------------------------- headings

def test_three_headings_two_cited_one_cite_names_none(mini):
    book = read_rulebook(mini / "book.txt")
    assert [h.text for h in book.headings] == ["1. SETUP", "2. MOVES", "3. SCORING"]
    src = read_game(mini / "mini.regola")
    rep = match_all(book, collect_cites([src.base]))
    assert [h.text for h in rep.cited] == ["1. SETUP", "2. MOVES"]
    assert [h.text for h in rep.uncited] == ["3. SCORING"]
    assert [c.text for c, _ in rep.unmatched] == ["No Such Heading"]


def test_heading_shapes_and_cite_matching():
    text = """Some Game Rulebook

Table of Contents

• Overview
• Playing
  • A Turn
• Scoring

Overview

A long paragraph of text. It is not a heading, even if Short.

Playing

A Turn

1. Place the board in the middle of the table.
2. Take Your Pieces
Note: this is a note.
See Figure 1:

Scoring (page 12):
Bramante - 4 Purple cards
The end of a sentence wraps
Onto This Line And Ends Here.
"""
    book = extract(text)
    assert [(h.text, h.level) for h in book.headings] == [
        ("Overview", 1), ("Playing", 1), ("A Turn", 2), ("2. Take Your Pieces", 3), ("Scoring (page 12):", 1)]
    from regola.tools.coverage_headings import Cite
    rep = match_all(book, [Cite("Playing: A Turn", [("r", 1)]), Cite("SCORING", [("r", 2)]),
                           Cite("Overviews", [("r", 3)])])
    assert {h.text for h in rep.cited} == {"Playing", "A Turn", "Scoring (page 12):"}
    assert [(c.text, s) for c, s in rep.unmatched] == [("Overviews", "Overview")]


def test_numbered_cites_match_sections_and_paragraphs():
    book = extract("A RULEBOOK\n\n6. USING SUMS\n6.3 The player chooses one pairing.\n\n"
                   "7. THE CARDS\n7.1 Guard (1). Choose an opponent.\n")
    from regola.tools.coverage_headings import match_cite
    assert match_cite(book, "6.3 Using Sums")[0] == [0]
    assert match_cite(book, "7.1 Guard") == ([1], "paragraph 7.1")
    assert match_cite(book, "7. Cards")[0] == []          # the number agrees, the title does not
    assert match_cite(book, "7.9 Guard")[0] == []         # no paragraph 7.9


@pytest.mark.skipif(not RULEBOOKS, reason="no shared/rulebooks here")
def test_every_shared_rulebook_has_a_plausible_number_of_headings():
    files = sorted(RULEBOOKS[0].glob("*.txt"))
    assert files
    for f in files:
        book = read_rulebook(f)
        assert 5 < len(book.headings) < 60, (f.name, [h.text for h in book.headings])
        assert all(len(h.title) <= 80 for h in book.headings)


# --------------------------------------------------------------------- the command

def test_the_command_on_tic_tac_toe_prints_every_section(tmp_path, capsys):
    book = tmp_path / "ttt.txt"
    book.write_text("TIC-TAC-TOE\n\n1. EQUIPMENT\n\n2. SETUP\n\n3. PLAY\n\n4. WINNING\n\n5. VARIANTS\n")
    code, out, err = run(capsys, "tic-tac-toe", "--rulebook", str(book), "--games", "5")
    assert code == 0, err
    for section in ("Rulebook headings", "not cited:", "line 11: 5. VARIANTS", "Actions never played: 0 of 1",
                    "Requires never true", "Requires never false", "Triggers never fired",
                    "Modifiers never applied", "Branches never ran"):
        assert section in out
    code, out, err = run(capsys, "tic-tac-toe", "--rulebook", str(book), "--games", "2", "--json")
    d = json.loads(out)
    assert d["games"] == 2 and d["headings"]["count"] == 5
    assert d["constructs"]["actions"] == {"total": 1, "never_played": []}


def test_html_is_a_page_with_everything_escaped(mini, capsys):
    page = mini / "out.html"
    code, out, err = run(capsys, str(mini / "mini.regola"), "--rulebook", str(mini / "book.txt"),
                         "--games", "3", "--html", str(page))
    assert code == 0, err
    text = page.read_text()
    assert text.startswith("<!DOCTYPE html>") and text.rstrip().endswith("</html>")
    assert "<script>" not in text
    assert "&lt;script&gt;alert(&quot;&amp;&quot;)&lt;/script&gt;" in text
    assert "class='never'" in text and "class='covered'" in text
    assert "No Such Heading" in text


def test_a_missing_rulebook_is_a_clear_error(tmp_path, capsys):
    code, out, err = run(capsys, "tic-tac-toe", "--rulebook", str(tmp_path / "nope.txt"), "--games", "1")
    assert code == 1
    assert "--rulebook" in err and "no such file" in err
    code, out, err = run(capsys, "tic-tac-toe", "--rulebook", str(tmp_path), "--games", "1")
    assert code == 1 and "a directory" in err


def test_triggers_fired_come_from_the_engine_record_even_with_an_empty_body(tmp_path):
    """A handler whose body is `pass` has no generated line of its own; the engine's record
    still says it fired; one that never fired is reported as never fired, empty body or not
    (not as untraced: the record misses no firing)."""
    text = MINI.replace("    turns += 1\n\naction jump", "    turns += 1\n    emit stepped(n)\n\naction jump") + """
on stepped(k: int):
    pass

on never_sent(k: int):
    pass

when p.points reaches 100000:
    turns += 0

on game end:
    pass
"""
    text = text.replace('    require turns < 0, "never"\n', '    require turns < 0, "never"\n    emit never_sent(1)\n')
    path = tmp_path / "mini.regola"
    path.write_text(text)
    game = load_game(str(path), players=2)
    cov = coverage.measure(game, read_game(path), games=3, seed=0)
    status = {(c.label, c.line): c.status() for c in cov.items if c.kind == "trigger"}
    lines = text.splitlines()
    at = {label: next(n for n, line in enumerate(lines, 1) if line.startswith(label)) for label in
          ("on stepped", "on never_sent", "when p.points", "on game end")}
    assert status == {("on stepped", at["on stepped"]): "covered",
                      ("on never_sent", at["on never_sent"]): "never",
                      ("when", at["when p.points"]): "never",
                      ("on game end", at["on game end"]): "covered"}
