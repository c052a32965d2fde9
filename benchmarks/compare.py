"""Compare the speed of two versions of Regola on the same games, interleaved.

    python benchmarks/compare.py BASE [NEW] [--games SPEC,...] [--repeats 7] [--seconds 1.0] [--json]

    python benchmarks/compare.py HEAD~1                    # last commit against the working tree
    python benchmarks/compare.py HEAD~3 HEAD --games lungarno:4 --repeats 3 --seconds 0.5
    python benchmarks/compare.py ../regola-old .           # two checkouts on disk

BASE and NEW are each a directory (a checkout) or a git revision of this repository (a
revision is exported with `git archive` to a temporary directory, removed afterwards). NEW
defaults to this working tree. A game is NAME[:PLAYERS[:MODULE+MODULE...]], e.g.
lions-of-lydia:4:croesus+pactolus. A game missing from one checkout's rules/ is loaded there
from the other checkout's rules directory, so an old engine runs a new game file.

Each checkout gets one persistent worker process (benchmarks/compare_worker.py of this
checkout, with the measured checkout first on sys.path). Each worker loads each game once
(not timed). Then, per game, batches of random playouts of the same seeds run on BASE, NEW,
BASE, NEW ... for --repeats rounds, each batch sized to take about --seconds. Printed per
game: median games/s and decisions/s of each version, the median of the per-round ratios
NEW/BASE with their range, and whether both versions played the same games (the same final
scores and lengths for the same seeds). A second row per game, `clone+apply`, times
`c = clone(s); apply(c, m)` at every decision of such games: the cost of one step of a tree
search, in microseconds. Every ratio is a speed ratio: above 1 means NEW is faster.

Not a test: timings depend on the machine and on whatever else runs on it.
"""

from __future__ import annotations

import argparse
import json
import os
import selectors
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
WORKER = HERE / "compare_worker.py"

DEFAULT_GAMES = [
    "lungarno:4",
    "lions-of-lydia:4:croesus+pactolus+craftsmen+courtyards+tomb+builders+chariot_race",
    "lorenzo-il-magnifico:4:advanced+leaders",
    "lorenzo-il-magnifico:5:leaders+houses_of_renaissance",
]
OPTIONAL_GAMES = ["connect-four:2", "tic-tac-toe:2"]   # only if the NEW checkout has them
SEED0 = 1000


class CompareError(Exception):
    pass


# ----------------------------------------------------------------------------- checkouts

@dataclass
class Checkout:
    role: str            # BASE or NEW
    spec: str            # as given
    root: Path
    label: str
    temp: Path | None = None

    def cleanup(self):
        if self.temp is not None:
            shutil.rmtree(self.temp, ignore_errors=True)
            self.temp = None


def _git(*args, cwd=ROOT, check=True) -> str:
    r = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True)
    if check and r.returncode != 0:
        raise CompareError(f"git {' '.join(args)}: {r.stderr.strip()}")
    return r.stdout.strip() if r.returncode == 0 else ""


def _describe_dir(root: Path) -> str:
    head = _git("rev-parse", "--short", "HEAD", cwd=root, check=False)
    if not head:
        return str(root)
    dirty = _git("status", "--porcelain", "--untracked-files=no", cwd=root, check=False)
    return f"{root} ({head}{', uncommitted changes' if dirty else ''})"


def resolve_checkout(role: str, spec: str | None) -> Checkout:
    if spec is None:
        return Checkout(role, "working tree", ROOT, f"working tree {_describe_dir(ROOT)}")
    p = Path(spec).expanduser()
    if p.is_dir():
        root = p.resolve()
        return Checkout(role, spec, root, f"directory {_describe_dir(root)}")
    commit = _git("rev-parse", "--verify", "--quiet", spec + "^{commit}", check=False)
    if not commit:
        raise CompareError(f"{role} {spec!r} is neither a directory nor a git revision of {ROOT}")
    temp = Path(tempfile.mkdtemp(prefix=f"regola-compare-{role.lower()}-"))
    try:
        archive = subprocess.run(["git", "archive", "--format=tar", commit], cwd=ROOT, capture_output=True)
        if archive.returncode != 0:
            raise CompareError(f"git archive {commit}: {archive.stderr.decode(errors='replace').strip()}")
        subprocess.run(["tar", "-x", "-C", str(temp)], input=archive.stdout, check=True)
    except BaseException:
        shutil.rmtree(temp, ignore_errors=True)
        raise
    subject = _git("log", "-1", "--format=%s", commit, check=False)
    subject = subject if len(subject) <= 60 else subject[:57] + "..."
    return Checkout(role, spec, temp, f"{spec} = {commit[:10]} {subject!r}", temp)


# ----------------------------------------------------------------------------- workers

class Worker:
    """A compare_worker.py process for one checkout, spoken to in JSON lines."""

    def __init__(self, co: Checkout, timeout: float):
        self.co = co
        self.timeout = timeout
        self.errlog = tempfile.TemporaryFile(mode="w+")
        env = dict(os.environ, PYTHONHASHSEED="0")   # both versions iterate sets alike
        env.pop("PYTHONPATH", None)
        self.proc = subprocess.Popen([sys.executable, str(WORKER), str(co.root)], cwd=str(co.root),
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.errlog,
                                     text=True, bufsize=1, env=env)
        self.sel = selectors.DefaultSelector()
        self.sel.register(self.proc.stdout, selectors.EVENT_READ)
        hello = self._read(max(timeout, 60.0))
        if not hello.get("ok"):
            raise CompareError(f"{co.role} ({co.label}) cannot be imported: {hello.get('error')}")
        self.hello = hello

    def _stderr_tail(self) -> str:
        self.errlog.seek(0)
        lines = self.errlog.read().strip().splitlines()
        return ("\n    " + "\n    ".join(lines[-12:])) if lines else ""

    def _read(self, timeout: float) -> dict:
        if not self.sel.select(timeout):
            self.close()
            raise CompareError(f"{self.co.role} worker gave no answer in {timeout:.0f} s{self._stderr_tail()}")
        line = self.proc.stdout.readline()
        if not line:
            self.proc.wait()
            raise CompareError(f"{self.co.role} worker ({self.co.label}) stopped, exit code "
                               f"{self.proc.returncode}{self._stderr_tail()}")
        return json.loads(line)

    def ask(self, timeout: float | None = None, **req) -> dict:
        try:
            self.proc.stdin.write(json.dumps(req) + "\n")
            self.proc.stdin.flush()
        except BrokenPipeError:
            raise CompareError(f"{self.co.role} worker stopped{self._stderr_tail()}") from None
        return self._read(timeout or self.timeout)

    def close(self):
        if self.proc.poll() is None:
            try:
                self.proc.stdin.write('{"op": "quit"}\n')
                self.proc.stdin.flush()
                self.proc.wait(timeout=5)
            except Exception:  # noqa: BLE001
                self.proc.kill()
                self.proc.wait()
        self.errlog.close()


# ----------------------------------------------------------------------------- games

@dataclass
class GameSpec:
    text: str
    name: str
    players: int | None
    modules: list[str]


def parse_games(text: str) -> list[GameSpec]:
    out = []
    for item in [x.strip() for x in text.split(",") if x.strip()]:
        parts = item.split(":")
        if len(parts) > 3 or not parts[0]:
            raise CompareError(f"bad game {item!r}: write NAME[:PLAYERS[:MODULE+MODULE...]]")
        players = None
        if len(parts) > 1 and parts[1]:
            try:
                players = int(parts[1])
            except ValueError:
                raise CompareError(f"bad player count in {item!r}") from None
        mods = [m for m in parts[2].split("+") if m] if len(parts) > 2 else []
        out.append(GameSpec(item, parts[0], players, mods))
    return out


def rules_candidates(g: GameSpec, co: Checkout, other: Checkout) -> list[tuple[str, str]]:
    """(rules argument, note) to try in order for a checkout."""
    p = Path(g.name).expanduser()
    if "/" in g.name or p.exists():
        return [(str(p.resolve()), "")]
    own = co.root / "rules" / g.name
    theirs = other.root / "rules" / g.name
    cands = [(str(own), "")] if own.is_dir() else [(g.name, "")]
    if not own.is_dir() and theirs.is_dir():
        cands.append((str(theirs), f"{co.role} loads the rules from {other.role}'s rules/{g.name}"))
    return cands


def load_in(w: Worker, key: str, g: GameSpec, other: Checkout) -> tuple[dict, str]:
    errors = []
    for rules, note in rules_candidates(g, w.co, other):
        r = w.ask(op="load", key=key, rules=rules, modules=g.modules, players=g.players)
        if r.get("ok"):
            return r, note
        errors.append(r.get("error", "?"))
    raise CompareError(f"{g.text} does not load in {w.co.role}: {errors[-1]}")


# ----------------------------------------------------------------------------- measuring

class Progress:
    def __init__(self, quiet: bool):
        self.tty = sys.stderr.isatty() and not quiet
        self.quiet = quiet
        self.last = ""

    def show(self, text: str, final: bool = False):
        if self.quiet:
            return
        if self.tty:
            pad = max(0, len(self.last) - len(text))
            sys.stderr.write("\r" + text + " " * pad)
            self.last = text
        elif final:
            sys.stderr.write(text + "\n")
        sys.stderr.flush()

    def done(self):
        if self.tty and self.last:
            sys.stderr.write("\r" + " " * len(self.last) + "\r")
            sys.stderr.flush()
        self.last = ""


@dataclass
class Row:
    game: str
    kind: str                 # "playouts" or "clone+apply"
    notes: list[str] = field(default_factory=list)
    error: str | None = None
    batch: int = 0
    rounds: list[dict] = field(default_factory=list)

    def summary(self) -> dict:
        if self.error or not self.rounds:
            return {}
        def med(k):
            return statistics.median(r[k] for r in self.rounds)
        ratios = [r["ratio"] for r in self.rounds]
        out = {"ratio": statistics.median(ratios), "ratio_min": min(ratios), "ratio_max": max(ratios),
               "identical": all(r["same"] for r in self.rounds)}
        if self.kind == "playouts":
            out.update(base_games_per_s=med("base_gps"), new_games_per_s=med("new_gps"),
                       base_decisions_per_s=med("base_dps"), new_decisions_per_s=med("new_dps"),
                       decisions_per_game=self.rounds[0]["new_decisions"] / self.batch)
        else:
            out.update(base_us=med("base_us"), new_us=med("new_us"))
        return out


def _batch_size(ask_a, ask_b, seconds: float, per_game) -> int:
    """Games per batch so that a batch takes about `seconds` (the mean of both versions)."""
    n = 1
    target = min(0.1, seconds / 5)
    while True:
        ta, tb = per_game(ask_a(n)), per_game(ask_b(n))
        if min(ta, tb) * n >= target or n >= 1 << 20:
            return max(1, round(seconds / ((ta + tb) / 2)))
        n *= 2 if min(ta, tb) * n * 4 >= target else 8


def measure(row: Row, a: Worker, b: Worker, key: str, repeats: int, seconds: float, progress: Progress,
            label: str, clock: str = "wall"):
    op = "play" if row.kind == "playouts" else "clone"

    def ask(w, seed, n):
        r = w.ask(op=op, key=key, seed=seed, games=n, clock=clock, timeout=max(120.0, 30 * seconds + 60))
        if not r.get("ok"):
            raise CompareError(f"{row.game}: {w.co.role} failed while playing: {r.get('error')}")
        if op == "play" and clock == "cpu":
            r["wall"], r["elapsed"] = r["elapsed"], r["cpu"]
        return r

    def wall(r):
        return r["wall"] / r["games"] if "wall" in r else r["elapsed"] / r["games"]

    progress.show(f"{label}: sizing batches")
    row.batch = n = _batch_size(lambda k: ask(a, 0, k), lambda k: ask(b, 0, k), seconds, wall)
    for i in range(repeats):
        seed = SEED0 + i * n
        progress.show(f"{label}: round {i + 1}/{repeats}, {n} games, BASE")
        ra = ask(a, seed, n)
        progress.show(f"{label}: round {i + 1}/{repeats}, {n} games, NEW")
        rb = ask(b, seed, n)
        rec = {"seed": seed, "games": n, "same": ra["checksum"] == rb["checksum"]}
        if op == "play":
            rec.update(base_elapsed=ra["elapsed"], new_elapsed=rb["elapsed"],
                       base_decisions=ra["decisions"], new_decisions=rb["decisions"],
                       base_gps=n / ra["elapsed"], new_gps=n / rb["elapsed"],
                       base_dps=ra["decisions"] / ra["elapsed"], new_dps=rb["decisions"] / rb["elapsed"])
            rec["ratio"] = rec["new_gps"] / rec["base_gps"]
        else:
            rec.update(base_count=ra["count"], new_count=rb["count"],
                       base_us=1e6 * ra["elapsed"] / max(1, ra["count"]),
                       new_us=1e6 * rb["elapsed"] / max(1, rb["count"]))
            rec["ratio"] = rec["base_us"] / rec["new_us"] if rec["new_us"] else float("nan")
        row.rounds.append(rec)


# ----------------------------------------------------------------------------- output

def _f(x: float, digits=1) -> str:
    if x >= 10000:
        return f"{x:,.0f}"
    return f"{x:,.{digits}f}"


NAME_WIDTH = 40


def print_table(base: Checkout, new: Checkout, rows: list[Row], args):
    print(f"BASE  {base.label}")
    print(f"NEW   {new.label}")
    print(f"{args.repeats} rounds per game, batches of about {args.seconds:g} s, run BASE, NEW, BASE, NEW ...; "
          f"{'CPU' if args.clock == 'cpu' else 'wall-clock'} time")
    print("NEW/BASE: NEW's speed / BASE's speed (above 1: NEW is faster), median and range of the rounds' ratios")
    print()
    names = [r.game if r.kind == "playouts" else f"{r.game} clone+apply" for r in rows]
    w = min(NAME_WIDTH, max([len(n) for n in names] + [24])) + 2
    head = (f"{'game':<{w}}{'BASE games/s':>13}{'NEW games/s':>13}{'BASE dec/s':>12}{'NEW dec/s':>12}"
            f"{'NEW/BASE':>10}  {'(min-max)':<13} same games")
    print(head)
    print("-" * len(head))
    warnings = []
    for name, r in zip(names, rows):
        if len(name) > w - 2:              # a long name on a line of its own, the figures below it
            if r.kind == "playouts":
                print(name)
                name = ""
            else:
                name = "  clone+apply"
        if r.error and not r.rounds:
            print(f"{name:<{w}}error: {r.error.splitlines()[0]}")
            continue
        s = r.summary()
        same = "yes" if s["identical"] else "NO"
        rng = f"({s['ratio_min']:.2f}-{s['ratio_max']:.2f})"
        if r.kind == "playouts":
            print(f"{name:<{w}}{_f(s['base_games_per_s']):>13}{_f(s['new_games_per_s']):>13}"
                  f"{_f(s['base_decisions_per_s'], 0):>12}{_f(s['new_decisions_per_s'], 0):>12}"
                  f"{s['ratio']:>9.2f}x  {rng:<13} {same} ({len(r.rounds)} x {r.batch} games)")
        else:
            print(f"{name:<{w}}{s['base_us']:>10.2f} µs{s['new_us']:>10.2f} µs{'':>24}"
                  f"{s['ratio']:>9.2f}x  {rng:<13} {same}")
        for note in r.notes:
            print(f"{'':<{w}}note: {note}")
        if not s["identical"]:
            bad = [x["seed"] for x in r.rounds if not x["same"]]
            warnings.append(f"{r.game}{'' if r.kind == 'playouts' else ' clone+apply'}: BASE and NEW played "
                            f"different games from the same seeds (rounds starting at seed "
                            f"{', '.join(map(str, bad))}): the versions do not behave alike, so the speed ratio "
                            f"compares different work")
    for wmsg in warnings:
        print(f"warning: {wmsg}")


def to_json(base: Checkout, new: Checkout, rows: list[Row], args) -> dict:
    return {
        "base": {"spec": base.spec, "label": base.label, "root": str(base.root)},
        "new": {"spec": new.spec, "label": new.label, "root": str(new.root)},
        "repeats": args.repeats, "seconds": args.seconds, "clock": args.clock,
        "rows": [{"game": r.game, "kind": r.kind, "batch_games": r.batch, "notes": r.notes, "error": r.error,
                  **r.summary(), "rounds": r.rounds} for r in rows],
    }


# ----------------------------------------------------------------------------- main

def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="compare.py", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("base", metavar="BASE", help="a checkout directory or a git revision")
    ap.add_argument("new", metavar="NEW", nargs="?", help="a checkout directory or a git revision "
                    "(default: this working tree)")
    ap.add_argument("--games", help="comma-separated NAME[:PLAYERS[:MOD+MOD...]] (default: the bundled games)")
    ap.add_argument("--repeats", type=int, default=7, help="rounds per game (default 7)")
    ap.add_argument("--seconds", type=float, default=1.0, help="about how long one batch takes (default 1.0)")
    ap.add_argument("--no-clone", action="store_true", help="leave out the clone+apply rows")
    ap.add_argument("--clock", choices=["wall", "cpu"], default="wall",
                    help="time with the wall clock (default) or the worker's CPU time, steadier when other "
                         "programs compete for the cores")
    ap.add_argument("--json", action="store_true", help="print the results as JSON")
    ap.add_argument("--quiet", action="store_true", help="no progress line on stderr")
    a = ap.parse_args(argv)
    if a.repeats < 1 or a.seconds <= 0:
        ap.error("--repeats must be at least 1 and --seconds positive")

    progress = Progress(a.quiet)
    checkouts: list[Checkout] = []
    workers: list[Worker] = []
    rows: list[Row] = []
    try:
        progress.show("preparing BASE")
        base = resolve_checkout("BASE", a.base)
        checkouts.append(base)
        progress.show("preparing NEW")
        new = resolve_checkout("NEW", a.new)
        checkouts.append(new)
        if a.games:
            games = parse_games(a.games)
        else:
            games = parse_games(",".join(DEFAULT_GAMES + [g for g in OPTIONAL_GAMES
                                                         if (new.root / "rules" / g.split(":")[0]).is_dir()]))
        timeout = max(300.0, 60 * a.seconds)
        progress.show("starting BASE worker")
        wa = Worker(base, timeout)
        workers.append(wa)
        progress.show("starting NEW worker")
        wb = Worker(new, timeout)
        workers.append(wb)
        kinds = ["playouts"] if a.no_clone else ["playouts", "clone+apply"]
        total = len(games) * len(kinds)
        step = 0
        for gi, g in enumerate(games):
            key = f"g{gi}"
            progress.show(f"[{step + 1}/{total}] {g.text}: loading")
            try:
                _, note_a = load_in(wa, key, g, new)
                _, note_b = load_in(wb, key, g, base)
            except CompareError as e:
                rows.append(Row(g.text, "playouts", error=str(e)))
                step += len(kinds)
                progress.show(f"{g.text}: {e}".splitlines()[0], final=True)
                continue
            notes = [n for n in (note_a, note_b) if n]
            for kind in kinds:
                step += 1
                row = Row(g.text, kind, notes=list(notes) if kind == "playouts" else [])
                rows.append(row)
                label = f"[{step}/{total}] {g.text}{'' if kind == 'playouts' else ' clone+apply'}"
                try:
                    measure(row, wa, wb, key, a.repeats, a.seconds, progress, label, a.clock)
                except CompareError as e:
                    row.error = str(e)
                    if wa.proc.poll() is not None or wb.proc.poll() is not None:
                        raise
                progress.show(f"{label}: done", final=True)
        progress.done()
        if a.json:
            print(json.dumps(to_json(base, new, rows, a), indent=2))
        else:
            print_table(base, new, rows, a)
        return 1 if any(r.error for r in rows) else 0
    except CompareError as e:
        progress.done()
        print(f"compare.py: error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        progress.done()
        print("compare.py: interrupted", file=sys.stderr)
        return 130
    finally:
        for w in workers:
            w.close()
        for co in checkouts:
            co.cleanup()


if __name__ == "__main__":
    sys.exit(main())
