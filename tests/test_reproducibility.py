"""Same seed and moves give the same game; saved states continue identically."""

import json
import random

import pytest

from regola.loader import load_game
from regola.runtime.game import StateError
from regola.tools import logs
from regola.tools.match import agents_for, play, replay


def _play_random(game, s, rng, limit=None):
    n = 0
    trail = []
    while s.pending is not None and (limit is None or n < limit):
        if game.is_chance(s):
            o = game.sample_chance(s)
            trail.append(("chance", game.outcome_str(s, o)))
            game.apply_chance(s, o)
        else:
            moves = game.legal_moves(s)
            m = moves[rng.randrange(len(moves))]
            trail.append((s.pending[1], game.move_str(s, m)))
            game.apply(s, m)
        n += 1
    return trail


@pytest.mark.parametrize("players", [2, 4, 5])
def test_same_seed_same_agents_same_log(players):
    game = load_game("lungarno", players=players)
    a = play(game, agents_for(game, ["random"], 11), seed=11, record=True)
    b = play(game, agents_for(game, ["random"], 11), seed=11, record=True)
    assert a.log.entries == b.log.entries
    assert a.scores == b.scores
    c = play(game, agents_for(game, ["random"], 12), seed=12, record=True)
    assert c.log.entries != a.log.entries


def test_log_replays_exactly(tmp_path):
    game = load_game("lungarno", players=3)
    res = play(game, agents_for(game, ["random"], 5), seed=5, rules="lungarno", record=True)
    path = tmp_path / "g.jsonl"
    logs.write(path, res.log)
    g2, s, log = replay(path)
    assert g2.scores(s) == res.scores
    assert g2.is_terminal(s)


def test_replay_refuses_a_tampered_log(tmp_path):
    from regola.tools.match import ReplayError
    game = load_game("lungarno", players=3)
    res = play(game, agents_for(game, ["random"], 6), seed=6, rules="lungarno", record=True)
    moves = [i for i, e in enumerate(res.log.entries) if e["type"] == "move" and e["move"].startswith("buy_tile")]
    res.log.entries[moves[0]]["move"] = "buy_tile(9)"
    path = tmp_path / "bad.jsonl"
    logs.write(path, res.log)
    with pytest.raises(ReplayError, match=r"bad.jsonl:\d+: .*buy_tile\(9\)"):
        replay(path)


def test_replay_checks_chance_outcomes_against_the_seed(tmp_path):
    from regola.tools.match import ReplayError
    game = load_game("lungarno", players=2)
    res = play(game, agents_for(game, ["random"], 8), seed=8, rules="lungarno", record=True)
    entries = res.log.entries
    i = next(i for i, e in enumerate(entries) if e["type"] == "chance" and e["outcome"] in ("AAB", "BBC", "CCD"))
    entries[i]["outcome"] = "DAB" if entries[i]["outcome"] != "DAB" else "ABC"
    path = tmp_path / "forced.jsonl"
    logs.write(path, res.log)
    with pytest.raises(ReplayError, match="not what seed 8 draws"):
        replay(path)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_save_and_load_at_random_points_continue_identically(players):
    game = load_game("lungarno", players=players)
    for seed in range(12):
        rng = random.Random(1000 + seed)
        s = game.new_initial_state(seed)
        cut = rng.randrange(5, 150)
        _play_random(game, s, random.Random(seed), limit=cut)
        text = json.dumps(game.dump(s))
        loaded = game.load(json.loads(text))
        cloned = game.clone(s)
        assert game.dump(loaded) == game.dump(s)
        if s.pending is not None and not game.is_chance(s):
            assert game.legal_moves(loaded) == game.legal_moves(s)
        tails = [_play_random(game, x, random.Random(77 + seed)) for x in (s, loaded, cloned)]
        assert tails[0] == tails[1] == tails[2]
        assert game.dump(s) == game.dump(loaded) == game.dump(cloned)
        assert game.scores(s) == game.scores(loaded)


def test_save_in_the_middle_of_an_effect():
    """A merchant choice inside play_tile is pending: the frames of the action are saved."""
    game = load_game("lungarno", players=3)
    for seed in range(40):
        s = game.new_initial_state(seed)
        rng = random.Random(seed)
        while s.pending is not None:
            d = game.decision(s)
            if d["kind"] == "choose" and len(s.stack) >= 3:
                break
            if game.is_chance(s):
                game.step_chance(s)
            else:
                ms = game.legal_moves(s)
                game.apply(s, ms[rng.randrange(len(ms))])
        else:
            continue
        loaded = game.load(json.loads(json.dumps(game.dump(s))))
        assert game.legal_moves(loaded) == game.legal_moves(s)
        t1 = _play_random(game, s, random.Random(3))
        t2 = _play_random(game, loaded, random.Random(3))
        assert t1 == t2
        return
    pytest.fail("no mid-effect choice found")


def test_broken_saves_say_what_is_wrong():
    game = load_game("lungarno", players=3)
    s = game.new_initial_state(1)
    good = game.dump(s)
    for change, msg in [
        ({"format": "x"}, "not a Regola saved state"),
        ({"game": "other"}, "state of 'other'"),
        ({"players": 4}, "4 players"),
        ({"fingerprint": "0"}, "rules changed"),
        ({"v": [1, 2]}, "layout"),
        ({"stack": [[99, 0, {}, None]]}, "stack"),
        ({"pending": "x"}, "pending decision"),
    ]:
        bad = dict(good, **change)
        with pytest.raises(StateError, match=msg):
            game.load(bad)


def test_observation_hides_other_hands_and_unknown_tokens():
    game = load_game("lungarno", players=3)
    s = game.new_initial_state(2)
    while game.is_chance(s):
        game.step_chance(s)
    o1 = game.observe(s, 0)
    hands = o1["player_state"]
    assert "contents" in hands["player(1)"]["hand"]
    assert set(hands["player(2)"]["hand"]) == {"count"}
    assert set(o1["state"]["draw_stack"]) == {"count"}
    assert all(v == "hidden" for v in o1["state"]["privilege"].values())
    # a spectator sees no hand at all
    spec = game.observe(s, None)
    assert all(set(p["hand"]) == {"count"} for p in spec["player_state"].values())


@pytest.mark.parametrize("rules,players", [("cant-stop", 3), ("love-letter", 4), ("lungarno", 4)])
def test_a_played_log_is_the_one_sampling_then_applying_each_outcome_gives(rules, players):
    """match.play draws and applies a chance outcome in one step (step_chance); its log is
    the log of sample_chance followed by apply_chance, outcome for outcome."""
    game = load_game(rules, players=players)
    for seed in range(3):
        agents = agents_for(game, ["random"], seed)
        s, want = game.new_initial_state(seed), []
        while s.pending is not None:
            if s.pending[1] == -1:
                o = game.sample_chance(s)
                want.append(("chance", game.outcome_str(s, o)))
                game.apply_chance(s, o)
            else:
                m = agents[s.pending[1]].choose(game, s, game.legal_moves(s))
                want.append(("move", game.move_str(s, m)))
                game.apply(s, m)
        res = play(game, agents_for(game, ["random"], seed), seed, record=True)
        got = [(e["type"], e["outcome"] if e["type"] == "chance" else e["move"]) for e in res.log.entries]
        assert got == want and res.scores == game.scores(s)


@pytest.mark.parametrize("rules, players, modules", [
    ("lungarno", 4, []), ("tic-tac-toe", 2, []),
    ("lorenzo-il-magnifico", 4, ["advanced", "leaders"]),
    ("lions-of-lydia", 3, ["croesus", "tomb"])])
def test_the_start_made_once_is_the_start_made_each_time(rules, players, modules):
    """new_initial_state clones one state made after setup (the rules never draw from the
    seed): each start equals a setup run for its own seed, and playing one start to the end
    changes neither the next start nor the kept one."""
    game = load_game(rules, players=players, modules=modules)
    for seed in (3, 4, 3):
        s = game.new_initial_state(seed)
        assert game.dump(s) == game.dump(game._set_up(seed, False, False))
        assert s.rng != game.new_initial_state(seed + 1).rng
        before = json.dumps(game.dump(game._start[1]))
        _play_random(game, s, random.Random(seed))
        assert game.is_terminal(s)
        assert json.dumps(game.dump(game._start[1])) == before
    # a start with history or a record runs the setup itself, and agrees
    h = game.new_initial_state(3, history=True)
    assert {k: v for k, v in game.dump(h).items() if not k.startswith("history")} == game.dump(game.new_initial_state(3))


def test_a_new_step_budget_makes_the_start_again():
    game = load_game("tic-tac-toe", players=2)
    game.new_initial_state(1)
    first = game._start
    game.STEP_BUDGET = 1000
    try:
        game.new_initial_state(1)
        assert game._start is not first and game._start[0] == 1000
    finally:
        del game.STEP_BUDGET


def test_a_driver_that_shuffles_the_first_moves_changes_no_other_game():
    game = load_game("tic-tac-toe", players=2)
    first = list(game.legal_moves(game.new_initial_state(1)))
    s = game.new_initial_state(2)
    game.legal_moves(s).reverse()
    assert game.legal_moves(game.new_initial_state(3)) == first
