"""Golden diagnostics: bad rules files and the exact output the `regola` command prints for them.

    .venv/bin/python -m regola.tools.golden            # compare every case with its .out file
    .venv/bin/python -m regola.tools.golden --update   # rewrite the .out files
    .venv/bin/python -m regola.tools.golden NAME ...   # only these cases

A case is `tests/golden/diagnostics/NAME.regola` (a one-file game) or a directory
`tests/golden/diagnostics/NAME/` (a game and its modules). Its expected output is
`tests/golden/diagnostics/NAME.out`: what `regola check PATH` prints (standard output and
standard error, in the order printed). A directory case may hold a file named `command`
with another command line for the case, `{path}` standing for the case's path, e.g.
`simulate {path} --with a,b --games 1` (module selection errors are only reported when
modules are chosen together).

The command runs with the repository root as working directory and the case's path relative
to it, so every file name in the output is relative to the repository root; any absolute
path of the repository that still appears (some commands resolve paths) is made relative too.
"""

from __future__ import annotations

import argparse
import contextlib
import difflib
import io
import os
import shlex
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CASES = ROOT / "tests" / "golden" / "diagnostics"


@dataclass
class Case:
    name: str
    path: Path              # the .regola file or the game directory

    @property
    def out_path(self) -> Path:
        return self.path.parent / (self.name + ".out")

    @property
    def rel(self) -> str:
        return self.path.relative_to(ROOT).as_posix()

    def argv(self) -> list[str]:
        cmd = self.path / "command" if self.path.is_dir() else None
        if cmd is not None and cmd.is_file():
            return [a.replace("{path}", self.rel) for a in shlex.split(cmd.read_text(encoding="utf-8"))]
        return ["check", self.rel]


def cases(directory: Path = CASES) -> list[Case]:
    out = []
    for p in sorted(directory.iterdir()):
        if p.is_file() and p.suffix == ".regola":
            out.append(Case(p.stem, p))
        elif p.is_dir() and any(p.glob("*.regola")):
            out.append(Case(p.name, p))
    return out


def run(case: Case) -> tuple[int, str]:
    """(exit status, combined output) of the case's regola command."""
    from regola.tools.cli import main
    buf = io.StringIO()
    old = os.getcwd()
    os.chdir(ROOT)
    try:
        with contextlib.redirect_stdout(buf), contextlib.redirect_stderr(buf):
            status = main(case.argv())
    finally:
        os.chdir(old)
    text = buf.getvalue().replace(str(ROOT) + os.sep, "")
    return status, text


def render(case: Case) -> str:
    return run(case)[1]


def diff(case: Case) -> str:
    """A unified diff between the expected and the actual output ('' when they agree)."""
    actual = render(case)
    expected = case.out_path.read_text(encoding="utf-8") if case.out_path.is_file() else ""
    if actual == expected:
        return ""
    return "".join(difflib.unified_diff(expected.splitlines(True), actual.splitlines(True),
                                        f"{case.name}.out (expected)", f"{case.name} (actual)"))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m regola.tools.golden", description=__doc__.splitlines()[0])
    ap.add_argument("names", nargs="*", help="only these cases")
    ap.add_argument("--update", action="store_true", help="rewrite the .out files from the current output")
    args = ap.parse_args(argv)
    todo = cases()
    if args.names:
        known = {c.name for c in todo}
        unknown = [n for n in args.names if n not in known]
        if unknown:
            print(f"no such case: {', '.join(unknown)}", file=sys.stderr)
            return 2
        todo = [c for c in todo if c.name in args.names]
    failed = 0
    for case in todo:
        if args.update:
            text = render(case)
            old = case.out_path.read_text(encoding="utf-8") if case.out_path.is_file() else None
            if old != text:
                case.out_path.write_text(text, encoding="utf-8")
                print(f"updated {case.out_path.relative_to(ROOT)}")
            continue
        d = diff(case)
        if d:
            failed += 1
            print(d)
    if not args.update:
        print(f"{len(todo) - failed} of {len(todo)} golden cases agree")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
