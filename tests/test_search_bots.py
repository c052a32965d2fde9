"""Search bots (tools/search.py: mcts, ismcts) and tournaments (tools/tournament.py)."""

import json
import random

import pytest

from regola.loader import load_game
from regola.tools import cli
from regola.tools.agents import make_agent
from regola.tools.search import ISMCTSAgent, MCTSAgent
from regola.tools.tournament import elo, report, run, seating, wilson
from rules_helpers import random_moves


@pytest.mark.parametrize("name, words", [
    ("mcts:0", "a number of iterations, 1 or more"), ("mcts:x", "a number of iterations"),
    ("random:5", "only mcts and ismcts take a budget"), ("alphazero", "unknown bot 'alphazero'"),
])
def test_bad_bot_names_are_refused_with_what_is_allowed(name, words):
    with pytest.raises(ValueError, match=words):
        make_agent(name, 0)


def test_a_budget_is_iterations():
    assert make_agent("mcts:25", 0).iterations == 25
    assert make_agent("ismcts", 0).iterations == 1000
    assert isinstance(make_agent("ismcts:3", 0), ISMCTSAgent)


def _play_moves(game, texts):
    s = game.new_initial_state(0)
    for t in texts:
        game.apply(s, t)
    return s


def test_mcts_takes_a_win_and_blocks_a_loss_at_tic_tac_toe():
    game = load_game("tic-tac-toe")
    bot = MCTSAgent(1, 300)
    # X at 0 and 1, O at 3 and 4: X to move wins at 2
    names = [game.move_str(game.new_initial_state(0), m) for m in game.legal_moves(game.new_initial_state(0))]
    s = _play_moves(game, [names[0], names[3], names[1], names[4]])
    m = bot.choose(game, s, game.legal_moves(s))
    assert game.move_str(s, m) == names[2]
    # X at 0 and 8, O at 4 and 1: O threatens 7; X must block there
    s = _play_moves(game, [names[0], names[4], names[8], names[1]])
    m = bot.choose(game, s, game.legal_moves(s))
    assert game.move_str(s, m) == names[7]


def test_search_never_touches_the_real_state_or_its_future_draws():
    game = load_game("cant-stop", players=2)
    s = game.new_initial_state(4)
    while game.is_chance(s):
        game.step_chance(s)
    before = game.dump(s)
    MCTSAgent(0, 50).choose(game, s, game.legal_moves(s))
    assert game.dump(s) == before


@pytest.mark.parametrize("rules, players", [("love-letter", 3), ("hanabi", 3), ("sushi-go", 3), ("lungarno", 2)])
def test_ismcts_never_uses_what_the_mover_cannot_see(rules, players):
    """Two states the mover cannot tell apart (the real one and a redraw of it) give the same
    redraws for the same generator and the same move from the same bot."""
    game = load_game(rules, players=players)
    rng = random.Random(2)
    checked = 0
    for seed in range(8):
        s = game.new_initial_state(seed)
        random_moves(game, s, rng, limit=rng.randrange(2, 30))
        while game.is_chance(s):
            game.step_chance(s)
        if game.is_terminal(s):
            continue
        p = game.current_player(s)
        other = game.resample(s, p, rng)
        assert game.resample(s, p, random.Random(9)).v == game.resample(other, p, random.Random(9)).v
        a = ISMCTSAgent(seed, 40).choose(game, s, game.legal_moves(s))
        b = ISMCTSAgent(seed, 40).choose(game, other, game.legal_moves(other))
        assert a == b
        checked += 1
    assert checked >= 4


def test_seats_rotate_so_every_bot_sits_everywhere():
    bots = ["a", "b", "c"]
    seats = [seating(bots, g) for g in range(6)]
    for i in range(3):
        assert sorted(s[i] for s in seats) == ["a", "a", "b", "b", "c", "c"]


def test_a_tournament_is_reproducible_whatever_the_number_of_jobs():
    one = run("tic-tac-toe", 2, ["mcts:30", "random"], 8, seed=3)
    two = run("tic-tac-toe", 2, ["mcts:30", "random"], 8, seed=3, jobs=2)
    assert [(r.index, r.seats, r.scores, r.winners) for r in one] == [(r.index, r.seats, r.scores, r.winners) for r in two]
    d = report(one, "Tic-Tac-Toe", 2, 3)
    stats = {b["bot"]: b for b in d["bots"]}
    assert stats["mcts:30"]["seats"] == 8 and stats["random"]["seats"] == 8
    assert stats["mcts:30"]["wins"] + stats["random"]["wins"] == 8    # a draw is half a win each
    assert stats["mcts:30"]["elo"] > 1500 > stats["random"]["elo"]


def test_wilson_and_elo_behave():
    lo, hi = wilson(9, 10)
    assert 0.59 < lo < 0.6 and 0.98 < hi < 0.99          # the textbook interval for 9 of 10
    assert wilson(0, 0) == (0.0, 0.0)
    from regola.tools.tournament import GameRecord
    recs = [GameRecord(i, ["a", "b"] if i % 2 else ["b", "a"], [1, 0] if i % 2 else [0, 1], [i % 2 == 0 and 1 or 0], 5)
            for i in range(10)]
    r = elo(recs)                                          # a wins every game
    assert r["a"] > 1700 and r["b"] < 1300 and abs(r["a"] + r["b"] - 3000) < 1e-6


def test_the_tournament_command(capsys):
    assert cli.main(["tournament", "tic-tac-toe", "--bots", "mcts:20,random", "--games", "4"]) == 0
    out = capsys.readouterr().out
    assert "4 games (seats rotated)" in out and "mcts:20" in out and "Elo" in out
    assert cli.main(["tournament", "tic-tac-toe", "--bots", "random,random", "--games", "4", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["bots"][0]["bot"] == "random" and d["bots"][0]["seats"] == 8
    assert cli.main(["tournament", "tic-tac-toe", "--bots", "random", "--games", "2"]) == 1
    assert "one bot per seat (2), not 1" in capsys.readouterr().err
    assert cli.main(["tournament", "tic-tac-toe", "--bots", "mcts:0,random", "--games", "2"]) == 1
    assert "1 or more" in capsys.readouterr().err


def test_simulate_takes_search_bots(capsys):
    assert cli.main(["simulate", "connect-four", "--bots", "mcts:20,random", "--games", "2"]) == 0
    assert "mcts:20" in capsys.readouterr().out


RAY_SCRIPT = """
import json
from regola.tools.simulate import simulate
from regola.tools.tournament import run
a = simulate("tic-tac-toe", 2, 6, seed=2).as_dict("tic-tac-toe", [], ["random"], 2)
b = simulate("tic-tac-toe", 2, 6, seed=2, jobs=3, executor="ray").as_dict("tic-tac-toe", [], ["random"], 2)
keep = ("mean_score", "win_rate", "mean_moves", "games")
local = run("tic-tac-toe", 2, ["mcts:10", "random"], 4, seed=1)
on_ray = run("tic-tac-toe", 2, ["mcts:10", "random"], 4, seed=1, jobs=2, executor="ray")
print(json.dumps({"simulate": [{k: a[k] for k in keep}, {k: b[k] for k in keep}],
                  "tournament": [[(r.seats, r.scores) for r in local], [(r.seats, r.scores) for r in on_ray]]}))
"""


def test_simulations_and_tournaments_on_ray_give_the_same_results():
    """(In a process of its own: Ray's threads in this one would be copied into the fuzzer's
    forked workers.)"""
    pytest.importorskip("ray")
    import subprocess
    import sys
    out = subprocess.run([sys.executable, "-c", RAY_SCRIPT], capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr[-2000:]
    d = json.loads(out.stdout.strip().splitlines()[-1])
    assert d["simulate"][0] == d["simulate"][1]
    assert d["tournament"][0] == d["tournament"][1]


def test_the_commands_run_on_ray_and_exit_cleanly():
    pytest.importorskip("ray")
    import subprocess
    import sys
    code = ("import sys; from regola.tools.cli import main; "
            "sys.exit(main(['tournament', 'tic-tac-toe', '--bots', 'random,random', '--games', '4', "
            "'--jobs', '2', '--executor', 'ray', '--json']))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    assert json.loads(out.stdout)["games"] == 4


ENDLESS_ROLLS = """
game endless:
    players 2
global:
    total: int
flow:
    act player(1): start | wait
    loop:
        roll d in [1, 2]
        total = d
    end game
action start():
    total = 0
action wait():
    total = 1
score: total
"""


def test_rules_that_roll_for_ever_end_a_game_with_an_error(tmp_path, capsys):
    from regola.tools.match import GameDidNotEnd, MAX_CHANCE_RUN
    from rules_helpers import write
    d = str(write(tmp_path, ENDLESS_ROLLS))
    assert cli.main(["simulate", d, "--games", "1"]) == 1
    err = capsys.readouterr().err
    assert f"{MAX_CHANCE_RUN:,} chance outcomes in a row and no move" in err and "an endless loop" in err
    line = ENDLESS_ROLLS.split("\n").index("        roll d in [1, 2]") + 1
    assert f".regola:{line}:9: seed 0: " in err         # placed at the roll met last
    game = load_game(d)
    s = game.new_initial_state(0)
    assert MCTSAgent(0, 3).choose(game, s, game.legal_moves(s)) in game.legal_moves(s)    # a search ends
    pz = pytest.importorskip("regola.adapters.pettingzoo")
    env = pz.env(d)
    env.reset(seed=0)
    with pytest.raises(GameDidNotEnd):
        env.step(int(env.observe(env.agent_selection)["action_mask"].argmax()))
