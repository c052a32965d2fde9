"""Random playouts of every bundled game, at every player count and with each optional
module, to the end (OpenSpiel's random_sim_test)."""

import random

import pytest

from regola.compose import read_game
from regola.loader import load_game
from regola.resources import bundled_games, find_rules


def _configs():
    for name in bundled_games():
        src = read_game(find_rules(name))
        for n in range(src.min_players, src.max_players + 1):
            yield name, n, ()
            for mod, m in sorted(src.modules.items()):
                if not m.automatic:
                    yield name, n, tuple(m.requires) + (mod,)


@pytest.mark.parametrize("rules,players,modules", list(_configs()))
def test_random_games_end(rules, players, modules):
    game = load_game(rules, modules=list(modules), players=players)
    for seed in range(5):
        s = game.new_initial_state(seed)
        rng = random.Random(seed)
        steps = 0
        while not game.is_terminal(s):
            if game.is_chance(s):
                outs = game.chance_outcomes(s)
                assert abs(sum(p for _, p in outs) - 1.0) < 1e-9
                game.step_chance(s)
            else:
                moves = game.legal_moves(s)
                assert moves, "a player decision with no legal move"
                ids = [game.move_id(s, m) for m in moves]
                assert len(set(ids)) == len(ids), "two legal moves share an id"
                assert all(0 <= i < game.action_space for i in ids)
                names = [game.move_str(s, m) for m in moves]
                assert len(set(names)) == len(names), "two legal moves share a name"
                m = moves[rng.randrange(len(moves))]
                assert game.parse_move(s, game.move_str(s, m)) == m
                game.apply(s, m)
            steps += 1
            assert steps < 20000
        assert len(game.scores(s)) == players
