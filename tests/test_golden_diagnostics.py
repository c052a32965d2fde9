"""Golden diagnostics: every bad rules file under tests/golden/diagnostics/ is rendered by the
`regola` command and compared with its .out file.

Regenerate the expected outputs with `.venv/bin/python -m regola.tools.golden --update` (and
read the diff before committing it: each .out file is what a rules author sees).
"""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from regola.diagnostics import _shown

from regola.tools import golden

CASES = golden.cases()
HEADER = re.compile(r"^(?P<file>[^\s:][^:]*):(?P<line>\d+):(?P<col>\d+): (?P<sev>error|warning)\[(?P<code>[EW]\d{3})\]: (?P<msg>.+)$")


def test_there_are_cases_and_each_has_an_expected_output():
    names = {c.name for c in CASES}
    assert len(CASES) >= 20
    missing = [c.name for c in CASES if not c.out_path.is_file()]
    assert not missing, f"cases without a .out file: {missing}"
    orphans = [p.name for p in golden.CASES.glob("*.out") if p.stem not in names]
    assert not orphans, f".out files without a case: {orphans}"


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_golden_output(case):
    status, actual = golden.run(case)
    expected = case.out_path.read_text(encoding="utf-8")
    assert actual == expected, (
        f"output of 'regola {' '.join(case.argv())}' changed "
        f"(if intended: python -m regola.tools.golden --update {case.name})\n" + golden.diff(case))
    # the exit status follows the output: 1 when anything is an error, 0 for warnings only
    is_error = any(m and m.group("sev") == "error" for m in map(HEADER.match, actual.splitlines())) \
        or actual.startswith("regola ")
    assert status == (1 if is_error else 0)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_golden_output_is_readable(case):
    """Each diagnostic names a file relative to the repository, a line and a column inside
    the file, and shows that source line with a caret under the column."""
    text = case.out_path.read_text(encoding="utf-8")
    assert "/work/" not in text
    lines = text.splitlines()
    headers = [(i, HEADER.match(line)) for i, line in enumerate(lines)]
    headers = [(i, m) for i, m in headers if m]
    if not headers:
        # module selection is refused before any file is checked: one line naming the modules
        assert len(lines) >= 1 and lines[0].startswith("regola ")
        return
    for i, m in headers:
        path = golden.ROOT / m.group("file")
        assert not m.group("file").startswith("/"), "paths are relative to the repository root"
        assert "\\" not in m.group("file"), "paths use forward slashes"
        assert path.is_file(), m.group("file")
        src = path.read_bytes().decode("utf-8", errors="replace").splitlines()
        line, col = int(m.group("line")), int(m.group("col"))
        assert 1 <= line <= len(src)
        assert col - 1 <= len(src[line - 1]), "the column lies on the line"
        caret = lines[i + 2]
        assert caret.startswith("    ") and caret.strip().startswith("^")
        plain = src[line - 1].rstrip()
        if len(plain) <= 160 and plain.isprintable():
            assert lines[i + 1] == "    " + plain
            assert caret.index("^") - 4 == col - 1, "the caret sits under the reported column"
        else:       # a long line is shown around the column; tabs and controls as printed
            shown, _ = _shown(plain, col, 1)
            assert lines[i + 1] == "    " + shown
            assert "\t" not in lines[i + 1] and lines[i + 1].isprintable()


def test_golden_case_points_into_the_module_file():
    case = next(c for c in CASES if c.name == "module_overrides_missing_constant")
    text = case.out_path.read_text(encoding="utf-8")
    assert text.startswith("tests/golden/diagnostics/module_overrides_missing_constant/small_hands.regola:5:1:")
    assert "did you mean 'HAND_LIMIT'?" in text


def test_conflicting_modules_message_names_both():
    case = next(c for c in CASES if c.name == "conflicting_modules")
    text = case.out_path.read_text(encoding="utf-8")
    assert "'merchants'" in text and "'pirates'" in text


def test_duplicate_definition_notes_the_first_definition():
    case = next(c for c in CASES if c.name == "duplicate_definition")
    text = case.out_path.read_text(encoding="utf-8")
    assert "note: tests/golden/diagnostics/duplicate_definition.regola:5:1: first defined here" in text


def test_golden_tool_check_mode_agrees(tmp_path):
    """`python -m regola.tools.golden` (no --update) exits 0 when every case agrees."""
    res = subprocess.run([sys.executable, "-m", "regola.tools.golden", "unknown_name", "zone_misuse"],
                         capture_output=True, text=True, cwd=tmp_path, timeout=60)
    assert res.returncode == 0, res.stdout + res.stderr
    assert "2 of 2 golden cases agree" in res.stdout


def test_golden_tool_reports_a_difference(tmp_path, monkeypatch):
    """The comparison fails, with a diff, when an expected output is wrong."""
    case = next(c for c in CASES if c.name == "unknown_name")
    fake = golden.Case(case.name, case.path)
    monkeypatch.setattr(golden.Case, "out_path", property(lambda self: tmp_path / "wrong.out"))
    (tmp_path / "wrong.out").write_text("something else\n", encoding="utf-8")
    d = golden.diff(fake)
    assert d.startswith("--- unknown_name.out (expected)")
    assert "+tests/golden/diagnostics/unknown_name.regola:9:5: error[E170]" in d
