"""Tic-tac-toe written by hand in plain Python, the way a programmer would write it.

The same driver API as a Regola game (new_initial_state, is_terminal, is_chance,
legal_moves, apply, clone, scores), so benchmarks/peers.py drives both with one loop.
Nine cells numbered 0-8 in reading order; a move is a cell; three in a row, column or
diagonal wins; a full board is a draw.
"""

LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8),
         (0, 3, 6), (1, 4, 7), (2, 5, 8),
         (0, 4, 8), (2, 4, 6))


class State:
    def __init__(self):
        self.board = [None] * 9
        self.player = 0
        self.winner = None
        self.moves = 0


class TicTacToe:
    num_players = 2

    def new_initial_state(self, seed=0):
        return State()

    def is_terminal(self, s):
        return s.winner is not None or s.moves == 9

    def is_chance(self, s):
        return False

    def legal_moves(self, s):
        if self.is_terminal(s):
            return []
        return [i for i in range(9) if s.board[i] is None]

    def apply(self, s, cell):
        if self.is_terminal(s) or not 0 <= cell < 9 or s.board[cell] is not None:
            raise ValueError(f"illegal move {cell!r}")
        p = s.player
        s.board[cell] = p
        s.moves += 1
        if any(s.board[a] == p and s.board[b] == p and s.board[c] == p for a, b, c in LINES):
            s.winner = p
        s.player = 1 - p

    def clone(self, s):
        c = State()
        c.board = s.board[:]
        c.player, c.winner, c.moves = s.player, s.winner, s.moves
        return c

    def scores(self, s):
        return [1 if s.winner == p else 0 for p in range(2)]
