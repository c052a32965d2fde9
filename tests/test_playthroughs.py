"""Golden playthroughs: regenerate with `python -m regola.tools.playthrough --update`."""

import difflib

import pytest

from regola.tools.playthrough import GOLDEN, PLAYTHROUGHS, playthrough


@pytest.mark.parametrize("name,rules,players,modules,seed", PLAYTHROUGHS, ids=[p[0] for p in PLAYTHROUGHS])
def test_playthrough_matches_golden(name, rules, players, modules, seed):
    want = (GOLDEN / name).read_text()
    got = playthrough(rules, players, modules, seed)
    if got != want:
        diff = "".join(list(difflib.unified_diff(want.splitlines(True), got.splitlines(True),
                                                 "golden", "now", n=2))[:60])
        pytest.fail(f"{name} changed (if intended: python -m regola.tools.playthrough --update)\n{diff}")
