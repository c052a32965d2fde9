"""Connect Four written by hand in plain Python, the way a programmer would write it.

The same driver API as a Regola game (new_initial_state, is_terminal, is_chance,
legal_moves, apply, clone, scores), so benchmarks/peers.py drives both with one loop.
Seven columns, six rows; a move is a column; a disc falls to the lowest empty cell; four in
a row horizontally, vertically or diagonally wins; a full board is a draw.
"""

ROWS, COLS = 6, 7
DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))


class State:
    def __init__(self):
        self.board = [[None] * COLS for _ in range(ROWS)]   # board[row][col], row 0 at the bottom
        self.heights = [0] * COLS
        self.player = 0
        self.winner = None
        self.moves = 0


class ConnectFour:
    num_players = 2

    def new_initial_state(self, seed=0):
        return State()

    def is_terminal(self, s):
        return s.winner is not None or s.moves == ROWS * COLS

    def is_chance(self, s):
        return False

    def legal_moves(self, s):
        if self.is_terminal(s):
            return []
        return [c for c in range(COLS) if s.heights[c] < ROWS]

    def apply(self, s, col):
        if self.is_terminal(s) or not 0 <= col < COLS or s.heights[col] == ROWS:
            raise ValueError(f"illegal move {col!r}")
        row = s.heights[col]
        s.board[row][col] = s.player
        s.heights[col] += 1
        s.moves += 1
        if self._wins(s, row, col):
            s.winner = s.player
        s.player = 1 - s.player

    def _wins(self, s, row, col):
        p = s.board[row][col]
        for dr, dc in DIRECTIONS:
            n = 1
            for sign in (1, -1):
                r, c = row + sign * dr, col + sign * dc
                while 0 <= r < ROWS and 0 <= c < COLS and s.board[r][c] == p:
                    n += 1
                    r, c = r + sign * dr, c + sign * dc
            if n >= 4:
                return True
        return False

    def clone(self, s):
        c = State()
        c.board = [row[:] for row in s.board]
        c.heights = s.heights[:]
        c.player, c.winner, c.moves = s.player, s.winner, s.moves
        return c

    def scores(self, s):
        return [1 if s.winner == p else 0 for p in range(2)]
