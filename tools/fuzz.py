"""Fuzzing the engine with broken rules files: whatever a file holds, `regola check` gives a
clean check or positioned diagnostics, and a file that checks clean either plays or stops
with a located rules runtime error: never a traceback, an unpositioned error, a hang or a
memory blow-up.

    .venv/bin/python -m regola.tools.fuzz --cases 5000 --seed 1       # seeded, reproducible
    .venv/bin/python -m regola.tools.fuzz --cases 500 --games tic-tac-toe,lungarno --out DIR

Inputs come from tools/fuzz_inputs.py (mutations of the bundled games, random token lines,
random derivations of the grammar). Each case runs `regola check` on its file and, when the
check is clean, `regola simulate` for 1-3 games, and when that played, the API probe of
tools/fuzz_probe.py (observe, dump and load, move names and ids), in a worker process that has imported the
engine once and calls `regola.tools.cli.main` with its output captured. The worker lives
under a memory limit (RLIMIT_AS) and each command under a time limit; a worker that times
out, dies or runs out of memory is replaced. Every failure is saved as a reproducer: the
game directory as it was, and a `case.txt` with the command lines, the mutations and the
output.

Outcomes (what is accepted is documented in docs/testing.md, "Fuzzing"):

    clean             the check found no error (then the game is simulated)
    diagnostics       every message is `file:line:col: error[CODE]: message` at a line of
                      the file, with the source line and a caret
    refused           a one-line refusal of the command line's own, `regola check: ...`:
                      no such file, module selection (REFUSALS below)
    played            the simulation ran to its end
    runtime-error     the simulation stopped with `regola simulate: file:line:col: ...`
    no-end            the simulation stopped at --max-moves (the rules may never end)
    slow              the simulation ran past the fuzzer's time, the game still moving on
                      (its last move or chance outcome within --max-seconds): each step is
                      bounded by the engine (--max-seconds, passed 5), the game by
                      --max-moves (500); a game of slow decisions, not a hang

    failures: traceback (an exception escaped main, or 'Traceback' was printed),
    unpositioned (a message without file:line:col, or a position outside the file),
    internal-error (E999, the compiler's backstop for what the checker let through),
    timeout, memory (MemoryError, or the engine's "more than this machine's memory"),
    crash (the worker died), exit-status (an error with exit status 0, or the reverse),
    api-mismatch (the probe: a dumped state that does not load back, a move text that does
    not parse back to its move)
"""

from __future__ import annotations

import argparse
import contextlib
import io
import multiprocessing as mp
import os
import random
import re
import shutil
import signal
import sys
import tempfile
import time
import traceback
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from .fuzz_inputs import Case, make_case, write_case

FAILURES = ("traceback", "unpositioned", "internal-error", "timeout", "memory", "crash", "exit-status",
            "api-mismatch")

HEADER = re.compile(r"^(?P<file>[^\s:][^:]*):(?P<line>\d+):(?P<col>\d+): "
                    r"(?P<sev>error|warning)\[(?P<code>[EW]\d{3})\]: .+$")
LOCATED = re.compile(r"^regola simulate: (?P<file>[^\s:][^:]*):(?P<line>\d+):(?P<col>\d+): .+")
SUMMARY = re.compile(r"^(\d+ configurations? checked|reading the rules failed): \d+ errors?, \d+ warnings?$")

# The command line's own one-line refusals that are not about a place in a file: a missing
# file or directory, a module choice that cannot be made, a player count out of range, a
# game that does not end within --max-moves. Anything else not positioned is a failure.
REFUSALS = [re.compile(p) for p in (
    r"^regola (check|simulate): .*(no rules named |: a directory with no rules files|: not a rules file"
    r"|: no \.regola files in this directory|: cannot read: )",
    r"^regola (check|simulate): \S+ has no module '[^']*'.*\(modules: ",
    r"^regola (check|simulate): module '[^']*' is not chosen with --with: it applies automatically",
    r"^regola (check|simulate): module '[^']*' requires '[^']*', which this game does not have$",
    r"^regola (check|simulate): module '[^']*' requires module '[^']*': add --with ",
    r"^regola simulate: .* is for \d+ to \d+ players, not \d+$",
)]
NO_END = re.compile(r"^regola simulate: seed -?\d+: no end after \d+ moves")
MEMORY_WORDS = "more than this machine's memory"


# ------------------------------------------------------------------ the worker process


class _Deadline(BaseException):
    """Raised in the worker by SIGPROF when a command runs past its time (a BaseException:
    no `except Exception` of the engine swallows it)."""


_armed = [False]          # a command is running: the alarm raises
_expired = [False]        # the alarm rang during this command


def _on_alarm(signum, frame):
    if _armed[0]:
        _expired[0] = True
        raise _Deadline()


def _serve(conn, memory_mb: int):
    """The worker: run `regola` commands in this process until the pipe closes."""
    import resource
    if memory_mb:
        limit = memory_mb * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    signal.signal(signal.SIGPROF, _on_alarm)
    signal.signal(signal.SIGINT, signal.SIG_IGN)          # the parent handles ^C
    # the engine's own limits, whatever the forking process had set (a test's monkeypatch, a
    # tracer of Hypothesis's): each command runs as `regola` would on its own
    from regola.limits import MAX_SECONDS
    from regola.runtime import watchdog
    watchdog.limit_seconds = MAX_SECONDS
    sys.settrace(None)
    _watch_moves()
    while True:
        try:
            argv, cwd, seconds = conn.recv()
        except (EOFError, KeyboardInterrupt):
            return
        conn.send(_run_command(argv, cwd, seconds))


_moved = [None]           # when the game last moved on (a move or a chance outcome applied)


def _watch_moves():
    """Note the time of every move and chance outcome applied in this worker, so that a game
    still moving on when time is up (slow, bounded by --max-moves) is told from one stuck in
    a single step."""
    from regola.runtime.game import Game
    for name in ("apply", "apply_chance", "step_chance"):
        f = getattr(Game, name, None)
        if f is None or getattr(f, "_fuzz_watched", False):
            continue

        def watched(self, *args, _f=f, **kw):
            _moved[0] = time.process_time()
            return _f(self, *args, **kw)
        watched._fuzz_watched = True
        setattr(Game, name, watched)


def _forget_games():
    """Drop the engine's caches of read and compiled games (each case is new files)."""
    from regola import compose, loader
    loader._load_cached.cache_clear()
    compose._READ_CACHE.clear()


def _run_command(argv, cwd, seconds) -> dict:
    from regola.tools.cli import main
    from regola.tools.fuzz_probe import probe
    buf = io.StringIO()
    res = {"status": None, "escaped": None, "deadline": None, "memory": False}
    old = os.getcwd()
    t0 = time.perf_counter()
    _expired[0] = False
    _moved[0] = None
    try:
        try:
            os.chdir(cwd)
            # the limit is CPU time (a machine busy with other work does not make a case time
            # out; a hang spends CPU); the alarm rings again each second, so an exception
            # raised where Python ignores it (a __del__, a callback) does not lose the deadline
            _armed[0] = True
            signal.setitimer(signal.ITIMER_PROF, seconds, 1.0)
            with contextlib.redirect_stdout(buf), contextlib.redirect_stderr(buf):
                res["status"] = probe(*argv[1:]) if argv[0] == "@probe" else main(argv)
        finally:
            _armed[0] = False
        if _expired[0]:
            raise _Deadline()
    except _Deadline as e:         # where it was when time ran out
        res["deadline"] = (f"no end in {seconds:g} s of CPU time; it was at:\n"
                           + "".join(traceback.format_tb(e.__traceback__)[-8:]))
        if _moved[0] is not None:
            res["since_move"] = time.process_time() - _moved[0]
    except SystemExit as e:
        res["status"] = e.code if isinstance(e.code, int) else 2
    except MemoryError:
        res["memory"] = True
        res["escaped"] = "MemoryError"
    except BaseException as e:  # noqa: BLE001 - what escaped main is the finding
        res["escaped"] = "".join(traceback.format_exception(type(e), e, e.__traceback__)[-30:])
        res["memory"] = isinstance(e, MemoryError)
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        os.chdir(old)
        try:
            _forget_games()
        except BaseException:  # noqa: BLE001
            pass
    res["seconds"] = time.perf_counter() - t0
    out = buf.getvalue()
    res["output"] = out if len(out) < 400_000 else out[:200_000] + "\n[...]\n" + out[-200_000:]
    return res


class Worker:
    """One forked process that has the engine imported; replaced when it hangs or dies."""

    # the wall-clock time a command may take before its process is killed: its limit is CPU
    # time (the worker stops it itself), this is for a worker stuck without spending any
    WALL = staticmethod(lambda seconds: 3 * seconds + 30)

    def __init__(self, memory_mb: int = 2048):
        self.memory_mb = memory_mb
        self.proc = None
        self.conn = None
        self.started = 0
        _warm_up()

    def _start(self):
        ctx = mp.get_context("fork")
        self.conn, child = ctx.Pipe()
        self.proc = ctx.Process(target=_serve, args=(child, self.memory_mb), daemon=True)
        self.proc.start()
        child.close()
        self.started += 1

    def run(self, argv: list[str], cwd: str, seconds: float) -> dict:
        if self.proc is None or not self.proc.is_alive():
            self._start()
        self.conn.send((argv, cwd, seconds))
        if not self.conn.poll(self.WALL(seconds)):
            self.stop()
            return {"status": None, "escaped": None, "deadline": f"no answer in {self.WALL(seconds):.0f} s "
                    "(stuck outside Python code?)", "memory": False, "output": "", "seconds": seconds}
        try:
            res = self.conn.recv()
        except (EOFError, OSError):
            code = self.proc.exitcode
            self.stop()
            return {"status": None, "escaped": None, "deadline": None, "memory": False, "output": "",
                    "seconds": 0.0, "died": code}
        if res["escaped"] or res["deadline"] or res["memory"]:
            self.stop()                    # its state may be broken: start afresh
        return res

    def stop(self):
        if self.proc is not None:
            if self.proc.is_alive():
                self.proc.kill()
            self.proc.join(5)
        if self.conn is not None:
            self.conn.close()
        self.proc = self.conn = None


def _warm_up():
    """Import every module of the engine and the tools, and build the parser, before forking:
    a new worker starts at once, and every worker runs the code as it was when the fuzzer
    started (modules imported later, lazily, could come from files edited since)."""
    import importlib
    import pkgutil
    import regola
    import regola.tools
    for pkg in (regola, regola.tools):
        for info in pkgutil.walk_packages(pkg.__path__, pkg.__name__ + "."):
            importlib.import_module(info.name)
    from regola.parser import _lark
    _lark()


# ------------------------------------------------------------------ judging the output


@dataclass
class Outcome:
    kind: str                       # one of the outcomes above
    phase: str = "check"            # check | simulate
    detail: str = ""                # why it failed (the offending line, the traceback)
    argv: list = field(default_factory=list)
    output: str = ""

    @property
    def failed(self) -> bool:
        return self.kind in FAILURES


def _source_lines(path: Path) -> list[str] | None:
    """The lines of a rules file as the engine counts them (only '\\n' ends a line)."""
    try:
        data = path.read_bytes()
    except OSError:
        return None
    text = data.decode("utf-8", errors="replace")
    if text.startswith("\ufeff"):
        text = text[1:]
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


def _bad_position(cwd: Path, file: str, line: int, col: int) -> str | None:
    """Why file:line:col is not a place in a rules file of the case, or None."""
    lines = _source_lines(cwd / file)
    if lines is None:
        return f"{file} is not a file of the case"
    if lines and lines[-1] == "":
        lines = lines[:-1]
    if not 1 <= line <= max(len(lines), 1):
        return f"line {line} is outside {file} ({len(lines)} lines)"
    if not 1 <= col <= len(lines[line - 1] if lines else "") + 1:
        return f"column {col} is outside line {line} of {file}"
    return None


def _shown_line(cwd: Path, file: str, line: int, col: int) -> str | None:
    """The source line as the renderer shows it under a header (None if not checkable)."""
    from regola.diagnostics import _shown
    lines = _source_lines(cwd / file)
    if lines and lines[-1] == "":
        lines = lines[:-1]
    if not lines or line > len(lines):
        return None                   # no such line: none is shown
    return "    " + _shown(lines[line - 1].rstrip(), col, 1)[0]


def judge_errors(res: dict, phase: str) -> Outcome | None:
    """A failure of any command: something escaped, a hang, memory, a dead worker."""
    if res.get("died") is not None:
        return Outcome("crash", phase, f"the worker died (exit code {res['died']})")
    if res["memory"] or MEMORY_WORDS in res["output"]:
        return Outcome("memory", phase, res["escaped"] or _first_line_with(res["output"], MEMORY_WORDS))
    if res["deadline"]:
        return Outcome("timeout", phase, res["deadline"])
    if res["escaped"]:
        return Outcome("traceback", phase, res["escaped"])
    if "Traceback" in res["output"]:
        return Outcome("traceback", phase, res["output"][res["output"].index("Traceback"):][:3000])
    return None


def _first_line_with(text: str, words: str) -> str:
    return next((x for x in text.split("\n") if words in x), words)


def judge_check(res: dict, cwd: Path) -> Outcome:
    bad = judge_errors(res, "check")
    if bad is not None:
        return bad
    out, status = res["output"], res["status"]
    lines = out.split("\n")
    errors = refusals = 0
    for i, line in enumerate(lines):
        if not line or line[0].isspace():
            continue                              # a source line, caret, hint or note
        m = HEADER.match(line)
        if m:
            if m.group("code") == "E999":         # the compiler's backstop: a gap in the checker
                return Outcome("internal-error", "check", line)
            errors += m.group("sev") == "error"
            where = _bad_position(cwd, m.group("file"), int(m.group("line")), int(m.group("col")))
            if where:
                return Outcome("unpositioned", "check", f"{line}\n  ({where})")
            shown = _shown_line(cwd, m.group("file"), int(m.group("line")), int(m.group("col")))
            after = lines[i + 1] if i + 1 < len(lines) else ""
            if shown is not None and after != shown and (after.startswith("    ") or shown.strip()):
                return Outcome("unpositioned", "check", f"{line}\n  shows {after!r}, the line is {shown!r}")
            continue
        if SUMMARY.match(line):
            continue
        if any(r.match(line) for r in REFUSALS):
            refusals += 1
            continue
        return Outcome("unpositioned", "check", line)
    if status == 0 and (errors or refusals):
        return Outcome("exit-status", "check", "errors were printed, yet the exit status is 0")
    if status == 0:
        return Outcome("clean", "check")
    if status == 1 and errors:
        return Outcome("diagnostics", "check")
    if status == 1 and refusals:
        return Outcome("refused", "check")
    return Outcome("exit-status", "check", f"exit status {status} with no error printed")


def judge_simulate(res: dict, cwd: Path, decision_seconds: float = 5) -> Outcome:
    bad = judge_errors(res, "simulate")
    if bad is not None and bad.kind == "timeout" and res.get("since_move") is not None \
            and res["since_move"] < decision_seconds + 1:
        # the game was still moving on, each step within the engine's own limit
        # (--max-seconds): a long game of slow decisions, bounded by --max-moves, not a hang
        return Outcome("slow", "simulate", bad.detail)
    if bad is not None:
        return bad
    out, status = res["output"], res["status"]
    if status == 0:
        return Outcome("played", "simulate")
    first = out.split("\n")[0] if out.strip() else ""
    m = LOCATED.match(first)
    if status == 1 and m:
        where = _bad_position(cwd, m.group("file"), int(m.group("line")), int(m.group("col")))
        if where:
            return Outcome("unpositioned", "simulate", f"{first}\n  ({where})")
        return Outcome("runtime-error", "simulate")
    if status == 1 and NO_END.match(first):
        return Outcome("no-end", "simulate")
    if status == 1 and any(r.match(first) for r in REFUSALS):
        return Outcome("refused", "simulate")
    if status == 1 and HEADER.match(first):
        # loading found what the check did not (a rule too large to compile): positioned
        o = judge_check(res, cwd)
        return Outcome("diagnostics", "simulate") if o.kind == "diagnostics" else \
            Outcome(o.kind, "simulate", o.detail)
    return Outcome("unpositioned" if status == 1 else "exit-status", "simulate", first or f"exit status {status}")


def judge_probe(res: dict, cwd: Path) -> Outcome:
    """The API probe (fuzz_probe.py) of a game that played."""
    bad = judge_errors(res, "probe")
    if bad is not None:
        return bad
    first = res["output"].split("\n")[0]
    if res["status"] == 0:
        return Outcome("played", "probe")
    if first.startswith("regola probe: mismatch: "):
        return Outcome("api-mismatch", "probe", first)
    m = re.match(r"^regola probe: (?P<file>[^\s:][^:]*):(?P<line>\d+):(?P<col>\d+): ", first)
    if m and not _bad_position(cwd, m.group("file"), int(m.group("line")), int(m.group("col"))):
        return Outcome("runtime-error", "probe")
    return Outcome("unpositioned", "probe", first)


# ------------------------------------------------------------------ running cases


@dataclass
class Limits:
    check_seconds: float = 10.0
    simulate_seconds: float = 30.0
    memory_mb: int = 2048
    max_moves: int = 500           # simulate --max-moves: a game that does not end stops there
    probe: bool = True             # drive a game that played through the rest of the API (fuzz_probe.py)
    decision_seconds: int = 5      # simulate --max-seconds: the engine's bound on one decision


def commands(case: Case, game_dir: str) -> tuple[list[str], list[str]]:
    """The check and the simulate command lines of a case (paths relative to its directory)."""
    target = f"{game_dir}/{case.changed}" if case.check_file else game_dir
    sim = ["simulate", game_dir, "--games", str(case.games), "--seed", str(case.seed), "--bots", case.bots]
    if case.with_:
        sim += ["--with", ",".join(case.with_)]
    if case.players is not None:
        sim += ["--players", str(case.players)]
    if case.log:
        sim += ["--log", "logs"]
    return ["check", target], sim


def run_case(case: Case, worker: Worker, work: Path, limits: Limits) -> Outcome:
    """Check the case and, when clean, simulate it (the case's files are under `work`)."""
    write_case(case, work)
    check, sim = commands(case, case.game)
    res = worker.run(check, str(work), limits.check_seconds)
    o = judge_check(res, work)
    o.argv, o.output = check, res["output"]
    if o.kind != "clean":
        return o
    sim = sim + ["--max-moves", str(limits.max_moves), "--max-seconds", str(limits.decision_seconds)]
    res = worker.run(sim, str(work), limits.simulate_seconds)
    o = judge_simulate(res, work, limits.decision_seconds)
    o.argv, o.output = sim, res["output"]
    if o.kind != "played" or not limits.probe:
        return o
    api = ["@probe", case.game, case.players, tuple(case.with_), case.seed]
    res = worker.run(api, str(work), limits.simulate_seconds)
    p = judge_probe(res, work)
    p.argv, p.output = api, res["output"]
    return o if p.kind == "played" else p


def signature(o: Outcome) -> str:
    """Failures alike: the kind and the last engine line of the traceback, or the message's shape."""
    text = o.detail or ""
    frames = re.findall(r'File "([^"]+)", line (\d+), in (\w+)', text)
    frames = [f for f in frames if "/interpreter/" in f[0] or "/tools/" in f[0] or "<regola" in f[0]]
    if frames:
        f = frames[-1]
        exc = text.strip().splitlines()[-1].split(":")[0] if text.strip() else ""
        return f"{o.kind}:{o.phase}:{Path(f[0]).name}:{f[2]}:{exc}"
    shape = re.sub(r"\d+", "N", re.sub(r"'[^']*'", "'…'", text.split("\n")[0] if text else ""))
    shape = re.sub(r"^\S*:N:N: ", "", shape)
    return f"{o.kind}:{o.phase}:{shape[:80]}"


def save_reproducer(case: Case, o: Outcome, out_dir: Path, number: int) -> Path:
    out_dir.mkdir(parents=True, exist_ok=True)
    ignore = out_dir / ".gitignore"
    if not ignore.exists():                    # reproducers are findings, not sources
        ignore.write_text("*\n", encoding="utf-8")
    d = out_dir / f"{number:04d}-{o.kind}"
    if d.exists():
        shutil.rmtree(d)
    write_case(case, d)
    check, sim = commands(case, case.game)
    text = [f"# {o.kind} in {o.phase}", "", f"input: {case.describe()}", "",
            f"reproduce (in this directory):", f"    regola {' '.join(check)}"]
    if o.phase == "simulate":
        text.append(f"    regola {' '.join(o.argv)}")
    if o.phase == "probe":
        _, game, players, modules, seed = o.argv
        text.append(f"    python -c 'from regola.tools.fuzz_probe import probe; "
                    f"probe({game!r}, {players!r}, {modules!r}, {seed!r})'")
    text += ["", "what went wrong:", o.detail, "", "output:", o.output[:20000]]
    (d / "case.txt").write_text("\n".join(text), encoding="utf-8")
    return d


@dataclass
class Report:
    cases: int = 0
    outcomes: Counter = field(default_factory=Counter)
    failures: list = field(default_factory=list)        # (signature, directory or None, outcome)
    seconds: float = 0.0

    @property
    def failed(self) -> int:
        return sum(self.outcomes[k] for k in FAILURES)

    def summary(self) -> str:
        lines = [f"{self.cases} cases in {self.seconds:.0f} s: " +
                 ", ".join(f"{k} {n}" for k, n in sorted(self.outcomes.items(), key=lambda x: -x[1]))]
        sigs = Counter(s for s, _, _ in self.failures)
        if sigs:
            lines.append(f"{self.failed} failures, {len(sigs)} kinds:")
            for sig, n in sigs.most_common():
                where = next((d for s, d, _ in self.failures if s == sig and d is not None), None)
                lines.append(f"  {n:5d}  {sig}" + (f"  -> {where}" if where else ""))
        else:
            lines.append("no failures")
        return "\n".join(lines)


def fuzz(cases, worker: Worker, limits: Limits, out_dir: Path | None = None, progress=None,
         keep_per_kind: int = 3) -> Report:
    """Run every case of the iterable; failures are saved under out_dir (a few of each kind)."""
    rep = Report()
    t0 = time.perf_counter()
    kept: Counter = Counter()
    with tempfile.TemporaryDirectory(prefix="regola-fuzz-") as tmp:
        for i, case in enumerate(cases):
            work = Path(tmp) / f"c{i}"
            work.mkdir()
            try:
                o = run_case(case, worker, work, limits)
            except KeyboardInterrupt:
                break
            finally:
                shutil.rmtree(work, ignore_errors=True)
            rep.cases += 1
            rep.outcomes[o.kind] += 1
            if o.failed:
                sig = signature(o)
                where = None
                if out_dir is not None and kept[sig] < keep_per_kind:
                    kept[sig] += 1
                    where = save_reproducer(case, o, out_dir, len(rep.failures) + 1)
                rep.failures.append((sig, where, o))
            if progress is not None:
                progress(rep)
    rep.seconds = time.perf_counter() - t0
    return rep


def seeded_cases(n: int, seed: int, games=None, kinds=None):
    """Case i comes from its own generator, seeded by (seed, i): any one can be made again."""
    for i in range(n):
        rng = random.Random(f"{seed}:{i}")
        yield make_case(rng, games) if kinds is None else make_case(rng, games, kinds)


class _Bar:
    """A progress bar on a terminal; elsewhere (a log) a line a minute."""

    def __init__(self, total: int, tty: bool):
        self.total, self.tty, self.t0, self.last = total, tty, time.perf_counter(), 0.0

    def __call__(self, rep: Report):
        now = time.perf_counter()
        if now - self.last < (0.2 if self.tty else 60) and rep.cases < self.total:
            return
        self.last = now
        rate = rep.cases / max(now - self.t0, 1e-9)
        if not self.tty:
            print(f"{rep.cases}/{self.total} cases, {rate:.1f}/s, {rep.failed} failures", file=sys.stderr, flush=True)
            return
        width = 30
        filled = int(width * rep.cases / max(self.total, 1))
        sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {rep.cases}/{self.total} cases "
                         f"{rate:.1f}/s, {rep.failed} failures ")
        sys.stderr.flush()

    def close(self):
        if self.tty:
            sys.stderr.write("\n")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m regola.tools.fuzz", description=__doc__.splitlines()[0])
    ap.add_argument("--cases", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--games", help="mutate only these bundled games (comma separated)")
    ap.add_argument("--kinds", help="weights of the kinds of input, e.g. mutation=8,soup=1,grammar=2")
    ap.add_argument("--out", default="fuzz-failures", help="where reproducers are saved (default %(default)s)")
    ap.add_argument("--check-seconds", type=float, default=10.0)
    ap.add_argument("--simulate-seconds", type=float, default=30.0)
    ap.add_argument("--memory-mb", type=int, default=2048)
    args = ap.parse_args(argv)
    games = [g.strip() for g in args.games.split(",")] if args.games else None
    kinds = None
    if args.kinds:
        kinds = [(float(w), k) for k, w in (x.split("=") for x in args.kinds.split(","))]
    limits = Limits(args.check_seconds, args.simulate_seconds, args.memory_mb)
    worker = Worker(args.memory_mb)
    bar = _Bar(args.cases, sys.stderr.isatty())
    try:
        rep = fuzz(seeded_cases(args.cases, args.seed, games, kinds), worker, limits, Path(args.out), bar)
    finally:
        worker.stop()
    bar.close()
    print(rep.summary())
    return 1 if rep.failed else 0


if __name__ == "__main__":
    sys.exit(main())
