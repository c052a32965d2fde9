"""Smoke tests of the benchmark programs: each runs for a moment and prints the right shape.

Timings are never asserted: benchmarks/compare.py and benchmarks/peers.py are run with tiny
batches only to check that they work end to end.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
COMPARE = ROOT / "benchmarks" / "compare.py"
PEERS = ROOT / "benchmarks" / "peers.py"
INSTRUCTIONS = ROOT / "benchmarks" / "instructions.py"
FAST = ["--repeats", "2", "--seconds", "0.02", "--json", "--quiet"]


def run(*args, timeout=240, env=None):
    return subprocess.run([sys.executable, *map(str, args)], cwd=ROOT, capture_output=True, text=True,
                          timeout=timeout, env=env)


def test_compare_two_checkouts_json():
    r = run(COMPARE, ROOT, ROOT, "--games", "lungarno:2,lungarno:3", *FAST)
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["repeats"] == 2
    rows = out["rows"]
    assert [(x["game"], x["kind"]) for x in rows] == [
        ("lungarno:2", "playouts"), ("lungarno:2", "clone+apply"),
        ("lungarno:3", "playouts"), ("lungarno:3", "clone+apply")]
    for x in rows:
        assert x["error"] is None
        assert len(x["rounds"]) == 2
        assert x["ratio_min"] <= x["ratio"] <= x["ratio_max"] and x["ratio"] > 0
        assert x["identical"] is True          # the same checkout plays the same games
    play = rows[0]
    assert play["base_games_per_s"] > 0 and play["new_decisions_per_s"] > 0
    assert play["decisions_per_game"] > 10
    assert rows[1]["base_us"] > 0 and rows[1]["new_us"] > 0


def test_compare_table_and_git_revision(tmp_path):
    head = subprocess.run(["git", "rev-parse", "--verify", "--quiet", "HEAD"], cwd=ROOT,
                          capture_output=True, text=True)
    if head.returncode != 0:
        pytest.skip("not a git checkout")
    env = dict(os.environ, TMPDIR=str(tmp_path))     # its own temporary directory: others may run too
    r = run(COMPARE, "HEAD", "--games", "tic-tac-toe:2" if (ROOT / "rules" / "tic-tac-toe").is_dir()
            else "lungarno:2", "--repeats", "1", "--seconds", "0.02", "--no-clone", "--quiet", env=env)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0].startswith("BASE  HEAD = " + head.stdout.strip()[:10])
    assert lines[1].startswith("NEW   working tree")
    assert any("NEW/BASE" in x for x in lines)
    row = next(x for x in lines if x.startswith(("tic-tac-toe:2", "lungarno:2")))
    assert "x  (" in row
    assert not list(tmp_path.glob("regola-compare-*"))   # the export is removed


def test_compare_refuses_bad_checkouts_cleanly(tmp_path):
    r = run(COMPARE, tmp_path / "missing", "--quiet")
    assert r.returncode == 2
    assert "neither a directory nor a git revision" in r.stderr and "Traceback" not in r.stderr
    r = run(COMPARE, tmp_path, "--quiet")          # a directory with no Regola in it
    assert r.returncode == 2
    assert "cannot be imported" in r.stderr and "Traceback" not in r.stderr


@pytest.mark.skipif(not shutil.which("valgrind"), reason="valgrind is not installed (make test installs it)")
def test_instructions_counts_both_versions_under_callgrind():
    """Two runs per version under callgrind (a game of Tic-tac-toe and four of them), so
    about a minute and a half; the counts of a few games are too few to compare, only their
    shape is checked. Counting the whole runs (a Python that names no `starmap_next`), the
    same play differs by some 30,000 instructions run to run; a game is some 330,000.
    Counting only the games, the same checkout counts the same games alike."""
    r = run(INSTRUCTIONS, ROOT, ROOT, "--games", "tic-tac-toe", "--count", "3", "--json", timeout=900)
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    row = out["rows"][0]
    assert row["game"] == "tic-tac-toe" and row["games"] == 3 and row["same_games"]
    for side in ("base", "new"):
        assert row[side]["instructions_per_game"] > 50_000 and row[side]["decisions"] >= 5
    if out["games_only"]:
        assert abs(row["fewer"] - 1) < 0.01, row


@pytest.mark.skipif(not shutil.which("valgrind"), reason="valgrind is not installed (make test installs it)")
def test_instructions_counts_a_clone_and_apply():
    """`--clone`: ten games played with and without a clone + apply of every move, per
    version; what is left per move is the clone + apply (a few thousand instructions for
    Tic-tac-toe, well above the run-to-run difference spread over some 80 moves)."""
    r = run(INSTRUCTIONS, ROOT, ROOT, "--games", "tic-tac-toe", "--count", "10", "--clone", "--json",
            timeout=900)
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    row = out["rows"][0]
    assert out["clone"] and row["same_games"]
    for side in ("base", "new"):
        assert 1_000 < row[side]["instructions_per_game"] < 200_000 and row[side]["decisions"] >= 40


def test_instructions_refuses_bad_input_cleanly(tmp_path):
    r = run(INSTRUCTIONS, ROOT, "--count", "0")
    assert r.returncode == 2 and "--count must be at least 1" in r.stderr and "Traceback" not in r.stderr
    r = run(INSTRUCTIONS, tmp_path / "missing")
    assert r.returncode == 2 and "neither a directory nor a git revision" in r.stderr and "Traceback" not in r.stderr


def test_compare_reports_a_game_that_does_not_load():
    r = run(COMPARE, ROOT, ROOT, "--games", "no-such-game:2", *FAST)
    assert r.returncode == 1
    row = json.loads(r.stdout)["rows"][0]
    assert "does not load" in row["error"]


@pytest.fixture(scope="module")
def peers():
    r = run(PEERS, "--repeats", "1", "--seconds", "0.02", "--json", "--quiet")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    return {(x["game"], x["peer"]): x for x in out["results"]}, \
        {(x["game"], x["peer"]): x for x in out["skipped"]}


GAME_LENGTHS = {"connect-four": (7, 42), "tic-tac-toe": (3, 9)}


def _check(rec, game):
    lo, hi = GAME_LENGTHS[game]
    assert rec["games_per_s"] > 0 and rec["decisions_per_s"] > 0
    assert lo <= rec["decisions_per_game"] <= hi
    assert 0 <= rec["first_wins"] <= 1 and 0 <= rec["draws"] <= 1


@pytest.mark.parametrize("game", ["connect-four", "tic-tac-toe"])
def test_peers_reference_and_regola(peers, game):
    results, skipped = peers
    _check(results[(game, "reference")], game)
    if (ROOT / "rules" / game).is_dir():
        rec = results[(game, "regola")]
        _check(rec, game)
        assert rec["vs_regola"] == 1.0
        assert results[(game, "reference")]["vs_regola"] > 0
    else:
        assert "does not exist" in skipped[(game, "regola")]["skipped"]


@pytest.mark.parametrize("game", ["connect-four", "tic-tac-toe"])
@pytest.mark.parametrize("peer,module", [("pettingzoo", "pettingzoo"), ("pettingzoo-raw", "pettingzoo"),
                                         ("openspiel", "pyspiel")])
def test_peers_installed_peer(peers, game, peer, module):
    results, skipped = peers
    if importlib.util.find_spec(module) is None:
        assert "not installed" in skipped[(game, peer)]["skipped"]
        pytest.skip(f"{module} is not installed")
    _check(results[(game, peer)], game)


def test_peers_runs_lungarno_by_regola_and_reference():
    r = run(PEERS, "--games", "lungarno", "--repeats", "1", "--seconds", "0.02", "--json", "--quiet", timeout=120)
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    results = {x["peer"]: x for x in out["results"]}
    assert set(results) == {"regola", "reference"}
    for x in results.values():
        assert x["game"] == "lungarno" and x["games_per_s"] > 0 and x["vs_regola"] > 0
        assert 50 < x["decisions_per_game"] < 1000
        assert 0 <= x["first_wins"] <= 1 and 0 <= x["draws"] <= 1
    assert {x["peer"] for x in out["skipped"]} == {"pettingzoo", "pettingzoo-raw", "openspiel"}


def test_peers_clone_and_apply():
    """`--clone`: a clone + apply timed at every move, for the implementations that clone;
    PettingZoo's environments cannot and are skipped as such."""
    r = run(PEERS, "--clone", "--games", "tic-tac-toe,lungarno", "--repeats", "2", "--seconds", "0.02",
            "--json", "--quiet")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["clone"]
    results = {(x["game"], x["peer"]): x for x in out["results"]}
    skipped = {(x["game"], x["peer"]): x["skipped"] for x in out["skipped"]}
    for game in ("tic-tac-toe", "lungarno"):
        for peer in ("regola", "reference"):
            rec = results[(game, peer)]
            assert 0 < rec["us_per_clone_apply"] < 10_000 and rec["moves_timed"] > 0
            assert len(rec["rounds"]) == 2 and rec["vs_regola"] > 0
        assert results[(game, "regola")]["vs_regola"] == 1.0
    assert "no clone" in skipped[("tic-tac-toe", "pettingzoo")]
    if importlib.util.find_spec("pyspiel") is not None:
        assert results[("tic-tac-toe", "openspiel")]["us_per_clone_apply"] > 0


STATE_SIZE = ROOT / "benchmarks" / "state_size.py"


def test_state_size_lungarno_json_and_table():
    r = run(STATE_SIZE, "lungarno", "--games", "2", "--clone-seconds", "0.002", "--json", timeout=60)
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["games"] == 2 and out["points"] == ["start", "middle", "end"]
    assert "each object once" in out["memory_counts"]
    rows = out["rows"]
    assert [(x["game"], x["players"]) for x in rows] == [("lungarno", n) for n in (2, 3, 4, 5)]
    for x in rows:
        assert x["decisions"] > 10
        for p in out["points"]:
            assert 100 < x[p]["json"] < x[p]["memory"] < 10**6     # a list of ints takes more in memory
            assert x[p]["clone_us"] > 0
    r = run(STATE_SIZE, "lungarno:2", "--games", "1", "--clone-seconds", "0.002", timeout=60)
    assert r.returncode == 0, r.stderr
    assert "memory bytes start/middle/end" in r.stdout
    assert any(line.startswith("lungarno 2p") for line in r.stdout.splitlines())


def test_soak_runs_every_check_on_a_few_games():
    r = run(ROOT / "benchmarks" / "soak.py", "--moves", "300", "--games", "tic-tac-toe,lungarno")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "every check held" in r.stdout
    assert "lungarno 5p base" in r.stdout and "tic-tac-toe 2p base" in r.stdout


def test_opcodes_counts_the_same_on_every_run():
    opcodes = ROOT / "benchmarks" / "opcodes.py"
    first = run(opcodes, "tic-tac-toe:2", "--games", "5", "--top", "3", timeout=60)
    assert first.returncode == 0, first.stderr
    head, columns, *rows = first.stdout.splitlines()
    assert head.startswith("Tic-Tac-Toe, 2 players: 5 games,") and "opcodes per decision" in head
    assert len(rows) == 3 and columns.split() == ["function", "per", "decision", "share"]
    assert run(opcodes, "tic-tac-toe:2", "--games", "5", "--top", "3", timeout=60).stdout == first.stdout
    blocks = run(opcodes, "tic-tac-toe:2", "--games", "2", "--blocks", timeout=60)
    assert blocks.returncode == 0 and "blocks entered by the runner per decision" in blocks.stdout
    assert "flow" in blocks.stdout
    lines = run(opcodes, "tic-tac-toe", "--games", "2", "--lines", "D_three_in_a_row", timeout=60)
    assert lines.returncode == 0 and "  line " in lines.stdout
    for bad, says in [(["nosuch"], "no rules named"), (["a:b:c:d"], "bad game"),
                      (["tic-tac-toe", "--lines", "nosuch"], "never ran")]:
        r = run(opcodes, *bad, "--games", "1", timeout=60)
        assert r.returncode == 2 and says in r.stderr and "Traceback" not in r.stderr
