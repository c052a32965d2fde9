"""Random playouts of Lungarno over 2-5 players, checking invariants after every step.

The invariants are written in the rules language and compiled against the game, so they
read the same state the rules do.
"""

import random

import pytest

from regola.codegen.tables import area_table
from regola.loader import load_game
from regola.snippets import SnippetCompiler

GAMES_PER_COUNT = 250          # 1,000 games in all

INVARIANTS = [
    ("florins are never negative", "all(p.florins >= 0 for p in players)"),
    ("65 building tiles are conserved",
     "count(draw_stack) + count(face_up) + count(c for c in cells(board) where board[c] != none)"
     " + sum(count(p.hand) for p in players) == 65"),
    ("each player's 5 merchants are conserved",
     "all(p.merchants + count(c for c in cells(board) where merchant[c] == p) == 5 for p in players)"),
    ("a merchant always stands on a shield of its tile",
     "all(trades_with[c] in board[c].shields for c in cells(board) where merchant[c] != none)"),
    ("merchant and shield are set together",
     "all((merchant[c] == none) == (trades_with[c] == none) for c in cells(board))"),
    ("one merchant per family per district",
     "all(count(c for c in cells(d) where trades_with[c] == f) <= 1 for d in values(district) for f in values(Family))"),
    ("no more than five tiles in a hand", "all(count(p.hand) <= 5 for p in players)"),
    ("the face-up row has no gap before a tile",
     "all(face_up[i] != none for i in [0, 1] where face_up[i + 1] != none)"),
    ("a district's privilege token is there exactly while it is open",
     "all((privilege[d] == none) == closed[d] for d in values(district))"),
    ("a closed district is full", "all(all(board[c] != none for c in cells(d)) for d in values(district) where closed[d])"),
    ("merchants on palaces leave when their district closes",
     "all(board[c].building != palace for c in cells(board) where merchant[c] != none and closed[c.district])"),
]


def _checks(game):
    sc = SnippetCompiler(game)
    return [(name, sc.expression(text)) for name, text in INVARIANTS]


def _closed_cells(game, s, board_slot, closed_slot, area_of):
    closed = s.v[closed_slot]
    return {c: k for c, k in enumerate(s.v[board_slot]) if closed[area_of[c]]}


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_playouts_keep_invariants(players):
    game = load_game("lungarno", players=players)
    checks = _checks(game)
    board_slot = game.compiled.slots["board"]
    closed_slot = game.compiled.slots["closed"]
    area_of = game.ns[area_table("board", "district")]
    lengths = []
    for seed in range(GAMES_PER_COUNT):
        rng = random.Random(seed)
        s = game.new_initial_state(seed)
        steps = 0
        while s.pending is not None:
            before = _closed_cells(game, s, board_slot, closed_slot, area_of)
            if game.is_chance(s):
                game.step_chance(s)
                move_text = "chance"
            else:
                moves = game.legal_moves(s)
                m = moves[rng.randrange(len(moves))]
                move_text = game.move_str(s, m)
                game.apply(s, m)
            steps += 1
            assert steps < 2000, f"seed {seed}: the game does not end"
            if game.is_terminal(s) or not game.is_chance(s):     # at every decision, setup done
                for name, fn in checks:
                    assert fn(s), f"{players} players, seed {seed}, after {move_text}: {name}"
            # closed districts never receive tiles except by an office
            after = s.v[board_slot]
            for c, k in before.items():
                if after[c] != k:
                    assert move_text.startswith("play_office"), \
                        f"seed {seed}: {move_text} changed cell {c} of a closed district"
                    assert game.ns["NAME_Tile"][after[c]] == "office"
        assert game.is_terminal(s)
        lengths.append(steps)
        # the game ends with every district closed and no palace merchant left
        assert all(s.v[closed_slot])
    assert min(lengths) > 0
