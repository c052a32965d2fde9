"""`regola fmt` (tools/fmt.py): the formatter keeps what the rules say and every comment, and
is idempotent; the bundled rules are formatted; the command's modes, messages and statuses."""

from __future__ import annotations

import os
import random
import re
from pathlib import Path

import pytest

from regola.parser import parse
from regola.tools.cli import main
from regola.tools.fmt import _lex, format_text

ROOT = Path(__file__).resolve().parent.parent
BUNDLED = sorted((ROOT / "rules").glob("*/*.regola"))


def run(capsys, *args):
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


def comments(text: str) -> list[str]:
    """Every comment of a rules text, in order (a '#' inside a string starts none)."""
    found = []
    for line in text.splitlines():
        i, in_string = 0, False
        while i < len(line):
            ch = line[i]
            if in_string:
                if ch == "\\":
                    i += 1
                elif ch == '"':
                    in_string = False
            elif ch == '"':
                in_string = True
            elif ch == "#":
                found.append(line[i:].rstrip())
                break
            i += 1
    return found


def assert_safe(before: str, after: str):
    """Same syntax tree (spans left out of dump()), same comments in the same order, stable."""
    assert parse(after).dump() == parse(before).dump()
    assert comments(after) == comments(before)
    assert format_text(after) == after


# ---------------------------------------------------------------- the bundled rules

@pytest.mark.parametrize("path", BUNDLED, ids=[f"{p.parent.name}/{p.name}" for p in BUNDLED])
def test_bundled_rules_keep_their_syntax_tree_and_comments(path):
    text = path.read_text(encoding="utf-8")
    out = format_text(text, str(path))
    assert parse(out, str(path)).dump() == parse(text, str(path)).dump()
    assert comments(out) == comments(text)
    assert format_text(out, str(path)) == out


def test_bundled_rules_are_formatted(capsys):
    code, out, err = run(capsys, "fmt", "--check", str(ROOT / "rules"))
    assert (code, out, err) == (0, "", "")


# ---------------------------------------------------------------- what is normalised

def test_indentation_spacing_blank_lines_and_final_newline():
    messy = ("\n\n# a game   \n"
             "game  g :   # its header\n"
             "  title \"g\"\n"
             "  players 2..3\n\n\n\n\n"
             "const  N=3\n"
             "const L = [ 1,2 ,-3 ]\n"
             "const M={a:1 , b:2}\n"
             "enum E:a,b\n"
             "def f(x:int)->int=x*2+-1\n"
             "def g(xs:list of int)->int:\n"
             "\tlet s=sum(x for x in xs where x>0)\n"
             "\n\n\n"
             "\treturn s - - 1 if xs [ 0 ]>=L[ 1: ] [0] else -s\n"
             "flow :\n"
             "  loop :\n"
             "      if f(1) >0 : pass\n"
             "      else :\n"
             "          end game    \n"
             "score: me .x\n\n\n")
    out = format_text(messy)
    assert out == ("# a game\n"
                   "game g:     # its header\n"      # the comment keeps its column
                   "    title \"g\"\n"
                   "    players 2..3\n\n\n"
                   "const N = 3\n"
                   "const L = [1, 2, -3]\n"
                   "const M = {a: 1, b: 2}\n"
                   "enum E: a, b\n"
                   "def f(x: int) -> int = x * 2 + -1\n"
                   "def g(xs: list of int) -> int:\n"
                   "    let s = sum(x for x in xs where x > 0)\n"
                   "\n"
                   "    return s - -1 if xs[0] >= L[1:][0] else -s\n"
                   "flow:\n"
                   "    loop:\n"
                   "        if f(1) > 0: pass\n"
                   "        else:\n"
                   "            end game\n"
                   "score: me.x\n")
    assert_safe(messy, out)


def test_line_endings_byte_order_mark_and_empty_text():
    assert format_text("\ufeffgame g:\r\n    players 2\r\nscore: 0") == "game g:\n    players 2\nscore: 0\n"
    assert format_text("") == ""
    assert format_text("\n\n# only a comment\n\n\n\n# and another\n\n") == "# only a comment\n\n\n# and another\n"


TABLE = '''game t:
    players 2
enum Colour: red, blue
record Card:
    colour: Colour
    label: Label
    points: int = 0
components Card:
    |name|colour|label|points|
    | red_one | red | "a | b" | 1 |   # a pipe in a string
    # a comment between rows
    | blue_ten|blue|"# not a comment"|10|

    | blue_two | blue | "x: y" | -2 |   # negative
score: 0
'''


def test_a_table_is_aligned_per_column_its_strings_and_comments_kept():
    out = format_text(TABLE)
    assert out.split("components Card:\n")[1] == (
        '    | name     | colour | label             | points |\n'
        '    | red_one  | red    | "a | b"           | 1      |  # a pipe in a string\n'
        '    # a comment between rows\n'
        '    | blue_ten | blue   | "# not a comment" | 10     |\n'
        '\n'
        '    | blue_two | blue   | "x: y"            | -2     |  # negative\n'
        'score: 0\n')
    assert_safe(TABLE, out)


def test_table_comments_share_a_column_and_keep_theirs_if_the_rows_fit():
    text = ("game t:\n    players 2\nrecord R:\n    n: int\ncomponents R:\n"
            "    | name | n |\n"
            "    | a | 1 |            # far out\n"
            "    | bb | 22 |  # near\n"
            "score: 0\n")
    out = format_text(text)
    assert out.splitlines()[6:8] == ["    | a    | 1  |        # far out",
                                     "    | bb   | 22 |        # near"]
    assert_safe(text, out)


def test_a_row_on_several_lines_leaves_its_table_unaligned():
    text = ("game t:\n    players 2\nenum C: a, b\nrecord R:\n    m: map C to int\ncomponents R:\n"
            "    | name | m |\n"
            "    | x | {a: 1,\n"
            "           b: 2} |\n"
            "    |yy|{}|\n"
            "score: 0\n")
    out = format_text(text)
    assert out.splitlines()[6:10] == ["    | name | m |", "    | x | {a: 1,", "           b: 2} |", "    | yy | {} |"]
    assert_safe(text, out)


def assert_formats(*lines):
    """The text of the lines before formats to the text of the lines after: each line is
    kept as it is, or a pair (before, after)."""
    pairs = [(x, x) if isinstance(x, str) else x for x in lines]
    text, tidy = "".join(a + "\n" for a, _ in pairs), "".join(b + "\n" for _, b in pairs)
    assert format_text(text) == tidy
    assert_safe(text, tidy)


def test_comments_before_else_inside_blocks_and_at_the_end_of_lines():
    assert_formats(
        "game t:",
        ("  players 2", "    players 2"),
        "flow:",
        ("  loop:", "    loop:"),
        ("      # before the if", "        # before the if"),
        ("      if true:   # always", "        if true:   # always"),
        ("          pass", "            pass"),
        ("      # about the else", "        # about the else"),
        ("      else:", "        else:"),
        ("              # inside the else, too deep", "            # inside the else, too deep"),
        ("          end game", "            end game"),
        ("  # after the loop, in the flow", "    # after the loop, in the flow"),
        "# after the flow",
        "score: 0")


def test_comments_between_cited_lines_and_a_modifier_continued_by_when():
    assert_formats(
        "game t:",
        "    players 2",
        "hook bonus(p: Player) -> int = 0",
        'cite "Leaders"',
        ("  # Ludovico: a member is worth 5", "# Ludovico: a member is worth 5"),
        ("modifier bonus(p)=5 when p==player(1)", "modifier bonus(p) = 5 when p == player(1)"),
        ("    # (only the first player)", "# (only the first player)"),
        'cite "Excommunication"',
        "modifier bonus(p) -= 1",
        "        when p == player(2)   # the second",
        "score: bonus(me)")


def test_continuation_lines_move_with_the_line_they_continue():
    assert_formats(
        "game t:",
        ("  players 2", "    players 2"),
        "const WEIGHTS = [1, 2,   # the light ones",
        "                 3, 4]   # the heavy ones",
        "def heavy(x: int) -> bool =",
        "  x > 2 and",                          # its statement does not move: nor does it
        "  x < 10",
        "flow:",
        ("  if all(heavy(w) or", "    if all(heavy(w) or"),
        ("         # a comment inside the call", "           # a comment inside the call"),
        ("         w == 0", "           w == 0"),
        ("         for w in WEIGHTS):", "           for w in WEIGHTS):"),
        ("      let total = 1 + \\", "        let total = 1 + \\"),
        ("                  2", "                    2"),
        ("      let more = total", "        let more = total"),
        ("        + 3", "          + 3"),
        ("  end game", "    end game"),
        "score: 0")


def test_a_comment_under_an_end_of_line_comment_stays_under_it():
    text = ("game t:\n    players 2\n"
            "const A  =  1          # one\n"
            "                       # still about one\n"
            "const B = 2\n"
            "score: 0\n")
    out = format_text(text)
    assert out.splitlines()[2:4] == ["const A = 1            # one", "                       # still about one"]
    assert_safe(text, out)


def test_end_of_line_comments_keep_their_column_while_the_code_fits():
    text = "game t:\n    players 2\nconst A=1   # fits\nconst BBBB = [1,2,3] # pushed\nscore: 0\n"
    assert format_text(text).splitlines()[2:4] == ["const A = 1 # fits", "const BBBB = [1, 2, 3] # pushed"]
    text = "game t:\n    players 2\nconst A = [1,2,3]  # two spaces kept\nscore: 0\n"
    assert format_text(text).splitlines()[2] == "const A = [1, 2, 3]  # two spaces kept"


def test_strings_are_never_changed():
    text = ('game t:\n    players 2\n'
            'const A = "a|b # c: d  ,e"\n'
            'const B = ["x ,y", "tab\there", "q\\"uote # not"]   # the comment\n'
            'score: 0\n')
    out = format_text(text)
    assert '"a|b # c: d  ,e"' in out and '"x ,y", "tab\there", "q\\"uote # not"' in out
    assert_safe(text, out)


def test_text_that_does_not_parse_is_refused_with_the_parser_diagnostic():
    from regola.diagnostics import RulesError
    with pytest.raises(RulesError) as e:
        format_text("game t:\n    players 2\nconst A = (1 +\n", "bad.regola")
    d = e.value.diagnostics[0]
    assert (d.code, d.span.file, d.span.line) == ("E001", "bad.regola", 3)


# ---------------------------------------------------------------- property: any layout, one result

SAMPLES = [TABLE] + [(ROOT / "rules" / p).read_text(encoding="utf-8")
                     for p in ("tic-tac-toe/tic-tac-toe.regola", "lungarno/two-player.regola",
                               "lions-of-lydia/croesus.regola")]


def _tokens_by_line(text):
    tokens, _ = _lex(text)
    lines: dict[int, list] = {}
    for t in tokens:
        if t.type != "_NL":
            lines.setdefault(t.line, []).append(t)
    return lines


def _perturbed(text: str, rng: random.Random) -> str:
    """The same rules laid out otherwise: spaces and tabs between the tokens of lines with no
    end-of-line comment, tabs for indentation, trailing whitespace, more blank lines where
    the formatter allows fewer, blank lines before and after."""
    by_line = _tokens_by_line(text)
    out = []
    for n, line in enumerate(text.split("\n")[:-1], 1):
        toks = by_line.get(n, [])
        if toks and "#" not in line[toks[-1].end_column - 1:]:
            pieces, at = [], 0
            for a, b in zip(toks, toks[1:]):
                pieces.append(line[at:a.end_column - 1] + rng.choice(["", "", " ", "  ", "\t"]))
                at = a.end_column - 1
            line = "".join(pieces) + line[at:]
        lead = line[:len(line) - len(line.lstrip(" "))]
        if rng.random() < 0.5:
            line = lead.replace("    ", "\t") + line.lstrip(" ")
        out.append(line + rng.choice(["", "", " ", "\t "]))
    result = []
    for k, line in enumerate(out):
        result.append(line)
        following = out[k + 1] if k + 1 < len(out) else None
        if not line.strip() and following is not None and following.strip() and rng.random() < 0.5:
            result.extend([""] * rng.randint(1, 3))
    return "\n" * rng.randint(0, 2) + "\n".join(result) + "\n" * rng.randint(1, 3)


@pytest.mark.parametrize("seed", range(12))
def test_any_layout_of_formatted_rules_formats_back_to_them(seed):
    rng = random.Random(seed)
    canonical = format_text(SAMPLES[seed % len(SAMPLES)])
    messy = _perturbed(canonical, rng)
    assert messy != canonical
    out = format_text(messy)
    assert parse(out).dump() == parse(messy).dump()
    assert comments(out) == comments(messy)
    assert format_text(out) == out
    # blank lines: as many as the formatter allows, so only the layout around them differs
    squeeze = lambda t: re.sub(r"\n\n+", "\n\n", t)
    assert squeeze(out) == squeeze(canonical)


# ---------------------------------------------------------------- the command

MESSY = "game  g:\n  players 2\nconst A=1\nscore: 0\n"
TIDY = "game g:\n    players 2\nconst A = 1\nscore: 0\n"


def test_fmt_rewrites_files_in_place_and_says_how_many_changed(tmp_path, capsys):
    (tmp_path / "a.regola").write_text(MESSY)
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "b.regola").write_text(TIDY)
    (tmp_path / ".hidden").mkdir()
    (tmp_path / ".hidden" / "c.regola").write_text(MESSY)
    (tmp_path / "notes.txt").write_text(MESSY)
    code, out, err = run(capsys, "fmt", str(tmp_path))
    assert code == 0 and err == ""
    assert out == f"formatted {tmp_path / 'a.regola'}\n1 file formatted, 1 already formatted\n"
    assert (tmp_path / "a.regola").read_text() == TIDY
    assert (tmp_path / ".hidden" / "c.regola").read_text() == MESSY
    assert (tmp_path / "notes.txt").read_text() == MESSY


def test_fmt_keeps_the_files_permissions_and_writes_unix_line_endings(tmp_path, capsys):
    f = tmp_path / "a.regola"
    f.write_bytes(TIDY.replace("\n", "\r\n").encode())
    os.chmod(f, 0o640)
    code, out, err = run(capsys, "fmt", str(f))
    assert code == 0 and f.read_bytes() == TIDY.encode()
    assert f.stat().st_mode & 0o777 == 0o640
    assert [p.name for p in tmp_path.iterdir()] == ["a.regola"]


def test_fmt_check_lists_the_files_that_would_change_and_nothing_else(tmp_path, capsys):
    (tmp_path / "a.regola").write_text(MESSY)
    (tmp_path / "b.regola").write_text(TIDY)
    code, out, err = run(capsys, "fmt", "--check", str(tmp_path))
    assert (code, out, err) == (1, f"{tmp_path / 'a.regola'}\n", "")
    assert (tmp_path / "a.regola").read_text() == MESSY
    code, out, err = run(capsys, "fmt", "--check", str(tmp_path / "b.regola"))
    assert (code, out, err) == (0, "", "")


def test_fmt_diff_prints_the_changes_and_writes_nothing(tmp_path, capsys):
    f = tmp_path / "a.regola"
    f.write_text(MESSY)
    code, out, err = run(capsys, "fmt", "--diff", str(f))
    assert code == 0 and err == ""
    assert f"--- {f} (as it is)\n+++ {f} (formatted)\n" in out
    assert "\n-const A=1\n" in out and "\n+const A = 1\n" in out
    assert f.read_text() == MESSY
    code, out, err = run(capsys, "fmt", "--diff", "--check", str(f))
    assert code == 1 and "+const A = 1\n" in out


def test_fmt_names_a_file_that_does_not_parse_and_leaves_it(tmp_path, capsys):
    bad = tmp_path / "bad.regola"
    bad.write_text("game g:\n    players 2\nconst A = (1 +\n")
    good = tmp_path / "good.regola"
    good.write_text(MESSY)
    code, out, err = run(capsys, "fmt", str(bad), str(good))
    assert code == 2
    assert err == f"{bad}:3:13: error[E001]: unexpected end of file; expected an expression\n"
    assert bad.read_text() == "game g:\n    players 2\nconst A = (1 +\n"
    assert good.read_text() == TIDY                       # the others are formatted
    assert "1 file formatted, 0 already formatted, 1 not" in out


def test_fmt_names_a_file_that_is_not_utf8_or_not_there(tmp_path, capsys):
    bad = tmp_path / "latin1.regola"
    bad.write_bytes(b"game g:\n    title \"Caf\xe9\"\n")
    code, out, err = run(capsys, "fmt", "--check", str(bad), str(tmp_path / "missing.regola"),
                         str(tmp_path / "empty-dir"))
    assert code == 2 and out == ""
    assert err.splitlines() == [f"regola fmt: {tmp_path / 'missing.regola'}: no such file or directory",
                                f"regola fmt: {tmp_path / 'empty-dir'}: no such file or directory",
                                f"{bad}:2:15: error[E002]: byte 0xe9 is not UTF-8 text"]
    assert bad.read_bytes() == b"game g:\n    title \"Caf\xe9\"\n"
    (tmp_path / "empty-dir").mkdir()
    code, out, err = run(capsys, "fmt", str(tmp_path / "empty-dir"))
    assert code == 2 and err == f"regola fmt: {tmp_path / 'empty-dir'}: no .regola files in this directory\n"


def test_fmt_names_a_file_it_cannot_read_or_write(tmp_path, capsys, monkeypatch):
    f = tmp_path / "a.regola"
    f.write_text(MESSY)

    def refused(*args, **kw):
        raise PermissionError(13, "Permission denied")
    with monkeypatch.context() as m:
        m.setattr(Path, "read_bytes", refused)
        code, out, err = run(capsys, "fmt", str(f))
    assert code == 2 and err == f"regola fmt: {f}: cannot read: Permission denied\n"
    with monkeypatch.context() as m:
        m.setattr(os, "replace", refused)
        code, out, err = run(capsys, "fmt", str(f))
    assert code == 2 and err == f"regola fmt: {f}: cannot write: Permission denied; left as it was\n"
    assert "0 files formatted" in out
    assert f.read_text() == MESSY and [p.name for p in tmp_path.iterdir()] == ["a.regola"]


def test_fmt_leaves_a_file_the_formatter_would_change_the_meaning_of(tmp_path, capsys, monkeypatch):
    from regola.tools import fmt
    f = tmp_path / "a.regola"
    f.write_text(MESSY)
    monkeypatch.setattr(fmt._Formatter, "run", lambda self: TIDY.replace("1", "2"))
    code, out, err = run(capsys, "fmt", str(f))
    assert code == 2
    assert err == f"regola fmt: {f}: left as it was: the formatted text parses to another syntax tree (a bug of regola fmt)\n"
    assert f.read_text() == MESSY
