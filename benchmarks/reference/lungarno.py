"""Lungarno written by hand in plain Python, the way a careful programmer wanting speed would.

The speed reference for Regola's compiled Lungarno (rules/lungarno), as connect_four.py is for
Connect Four: the same driver API (new_initial_state, is_terminal, is_chance, step_chance,
apply_chance, legal_moves, apply, clone, scores, current_player, move_str), so
benchmarks/peers.py drives both with one loop.

It plays exactly the game of rules/lungarno/lungarno.regola (and two-player.regola: 9 columns,
streets after columns 2 and 5, 6 districts with two players), readings included:

* the same chance events in the same order: each privilege token of setup (district order),
  each tile dealt, the face-up row (slots 2, 1, 0) and each refill of slot 2 is one event
  whose outcome is the kind's index in the rules' components tables; a draw from a stack
  holding a single kind is no event (Regola resolves it itself). step_chance draws with
  Regola's generator (splitmix64, the same seeding), so one seed deals the same tiles;
* the same decisions: a first action with one possible move is played without asking, with
  none the turn's first action is skipped ("else pass"); the second action (1 florin more) is
  asked only when one is possible, with "pass" last; the merchant's shield only with a
  merchant in supply and a shield free in the district; the street of a tower house only
  when two are equally near. Moves are Regola's tuples, listed in Regola's order, so a
  random playout from one seed is the same game in both.

Board tables (adjacency that never crosses a street or the river, districts, river side,
street sides, nearest streets) are computed once per player count. Cells are numbered
row * columns + column, rows 0-1 north of the river.
"""

from bisect import bisect_right
from itertools import accumulate, compress

FAMILIES = "ABCD"
PALACE, TOWER, PLAZA, SHOP, CHURCH, GRAVEYARD, OFFICE_B = range(7)
KINDS = [  # (name, building, shields, copies): the components table's order
    ("palace_AB", PALACE, (0, 1), 5), ("palace_AC", PALACE, (0, 2), 5),
    ("palace_AD", PALACE, (0, 3), 5), ("palace_BC", PALACE, (1, 2), 5),
    ("palace_BD", PALACE, (1, 3), 5), ("palace_CD", PALACE, (2, 3), 5),
    ("palace_A", PALACE, (0,), 2), ("palace_B", PALACE, (1,), 2),
    ("palace_C", PALACE, (2,), 2), ("palace_D", PALACE, (3,), 2),
    ("plaza_A", PLAZA, (0,), 1), ("plaza_B", PLAZA, (1,), 1),
    ("plaza_C", PLAZA, (2,), 1), ("plaza_D", PLAZA, (3,), 1),
    ("tower_A", TOWER, (0,), 2), ("tower_B", TOWER, (1,), 2),
    ("tower_C", TOWER, (2,), 2), ("tower_D", TOWER, (3,), 2),
    ("shop", SHOP, (), 7), ("church", CHURCH, (), 2),
    ("graveyard", GRAVEYARD, (), 2), ("office", OFFICE_B, (), 4),
]
NK = len(KINDS)
SHOP_K, CHURCH_K, GRAVE_K, OFFICE = 18, 19, 20, 21
BUILDING = [k[1] for k in KINDS]
SHIELDS = [k[2] for k in KINDS]
COPIES = [k[3] for k in KINDS]
# SHC[k][f]: shields of family f on a tile of kind k; a 23rd row of zeros is read for -1 (empty)
SHC = [[k[2].count(f) for f in range(4)] for k in KINDS] + [[0, 0, 0, 0]]
TOKENS = ["AAB", "BBC", "CCD", "DDA", "AAC", "BBD", "CCA", "DDB", "ABC", "BCD", "CDA", "DAB"]
TOKC = [[t.count(f) for f in FAMILIES] for t in TOKENS]

ROWS, HAND_LIMIT, START_FLORINS, START_MERCHANTS = 4, 5, 14, 5
TERMINAL, CHANCE = -2, -1
MASK = 0xFFFFFFFFFFFFFFFF
GOLDEN = 0x9E3779B97F4A7C15

# phases: two chance events, four decisions, the end
SETUP, REFILL, ACT1, ACT2, MERCHANT, STREET, OVER = range(7)
# what _run does next
STOP, GO_ACT1, GO_ACT2, GO_NEXT, GO_END = range(5)

PASS = ()
BUY = [(0, s) for s in range(3)]
SHIELD_MV = [(f,) for f in range(4)]
STREET_MV = [(x,) for x in range(3)]


class Board:
    """The tables of one board size (9 or 12 columns)."""

    def __init__(self, cols, streets_after):
        self.cols, self.ncells = cols, ROWS * cols
        n = self.ncells
        bounds = [0] + [a + 1 for a in streets_after] + [cols]        # column ranges of districts
        colband = [next(i for i in range(len(bounds) - 1) if bounds[i] <= c < bounds[i + 1])
                   for c in range(cols)]
        nb = len(bounds) - 1
        self.district = [(r // 2) * nb + colband[c] for r in range(ROWS) for c in range(cols)]
        self.ndistricts = 2 * nb
        self.dcells = [[x for x in range(n) if self.district[x] == d] for d in range(self.ndistricts)]
        self.adj = []
        for x in range(n):
            r, c = divmod(x, cols)
            near = [(r - 1, c), (r, c - 1), (r, c + 1), (r + 1, c)]
            self.adj.append([rr * cols + cc for rr, cc in near
                             if 0 <= rr < ROWS and 0 <= cc < cols and self.district[rr * cols + cc] == self.district[x]])
        self.river = [1 if x // cols in (1, 2) else 0 for x in range(n)]
        self.rowcells = [list(range((x // cols) * cols, (x // cols + 1) * cols)) for x in range(n)]
        self.streetcells = [[r * cols + c for r in range(ROWS) for c in (a, a + 1)] for a in streets_after]
        dist = [[(a - x % cols) if x % cols <= a else (x % cols - a - 1) for x in range(n)] for a in streets_after]
        self.nearest = []
        for x in range(n):
            best = min(d[x] for d in dist)
            self.nearest.append([i for i, d in enumerate(dist) if d[x] == best])
        self.names = ["(%d,%d)" % divmod(x, cols) for x in range(n)]
        self.cells = list(range(n))
        self.mv_tile = [[(1, k, x) for x in range(n)] for k in range(NK)]
        self.mv_office = [(2, x) for x in range(n)]
        text = {PASS: "pass", **{BUY[s]: "buy_tile(%d)" % s for s in range(3)}}
        text.update({self.mv_office[x]: "play_office(%s)" % self.names[x] for x in range(n)})
        text.update({self.mv_tile[k][x]: "play_tile(%s, %s)" % (KINDS[k][0], self.names[x])
                     for k in range(NK) for x in range(n)})
        self.act_text = text


class State:
    """board/merch/trade per cell: the tile's kind, its merchant's owner, the merchant's family
    (-1: none); play/swap per cell: 1 where a tile may be played / an office may go; per
    district: filled (tiles), dtrade (bits of the families traded), closed, token; tokens and
    stack: the counts left to draw; row: the face-up row (-1: empty, always a prefix);
    hands: counts per kind; phase and step/cell/second: where the game stands (step: the
    setup draw, or the next cell of the final revenues; cell: the tile just played, or the
    tower house; second: the action is the turn's second); rng: splitmix64; cache: the moves."""
    __slots__ = ("board", "merch", "trade", "play", "swap", "filled", "dtrade", "closed", "nopen",
                 "token", "tokens", "stack", "nstack", "nkinds", "row", "hands", "hsize", "florins",
                 "merchants", "player", "phase", "step", "cell", "second", "rng", "cache")


class Lungarno:
    def __init__(self, num_players=4):
        if not 2 <= num_players <= 5:
            raise ValueError("Lungarno is for 2 to 5 players")
        self.num_players = num_players
        self.b = Board(9, [2, 5]) if num_players == 2 else Board(12, [2, 5, 8])

    # ------------------------------------------------------------------ start

    def new_initial_state(self, seed=0):
        b, n = self.b, self.num_players
        s = State()
        nc, nd = b.ncells, b.ndistricts
        s.board, s.merch, s.trade = [-1] * nc, [-1] * nc, [-1] * nc
        s.play, s.swap = b.river[:], [0] * nc                 # playable empty cells; office targets
        s.filled, s.dtrade, s.closed = [0] * nd, [0] * nd, [False] * nd
        s.nopen = nd
        s.token, s.tokens = [-1] * nd, [1] * len(TOKENS)
        s.stack, s.nstack, s.nkinds = COPIES[:], sum(COPIES), NK
        s.row = [-1, -1, -1]
        s.hands, s.hsize = [[0] * NK for _ in range(n)], [0] * n
        s.florins, s.merchants = [START_FLORINS] * n, [START_MERCHANTS] * n
        s.player, s.phase, s.step, s.cell, s.second, s.cache = 0, SETUP, 0, -1, False, None
        s.rng = (int(seed) * GOLDEN + 0x632BE59BD9B4E019) & MASK       # Regola's seeding
        self._setup_next(s)
        return s

    def clone(self, s):
        c = State()
        c.board, c.merch, c.trade, c.play, c.swap = s.board[:], s.merch[:], s.trade[:], s.play[:], s.swap[:]
        c.filled, c.dtrade, c.closed, c.nopen = s.filled[:], s.dtrade[:], s.closed[:], s.nopen
        c.token, c.tokens = s.token[:], s.tokens[:]
        c.stack, c.nstack, c.nkinds, c.row = s.stack[:], s.nstack, s.nkinds, s.row[:]
        c.hands, c.hsize = [h[:] for h in s.hands], s.hsize[:]
        c.florins, c.merchants = s.florins[:], s.merchants[:]
        c.player, c.phase, c.step, c.cell, c.second, c.rng = s.player, s.phase, s.step, s.cell, s.second, s.rng
        c.cache = None if s.cache is None else s.cache[:]
        return c

    # ------------------------------------------------------------------ queries

    def is_terminal(self, s):
        return s.phase == OVER

    def is_chance(self, s):
        return s.phase <= REFILL

    def current_player(self, s):
        ph = s.phase
        if ph == OVER:
            return TERMINAL
        if ph <= REFILL:
            return CHANCE
        if ph == STREET:
            return s.merch[s.cell]
        return s.player

    def legal_moves(self, s):
        """The moves in Regola's order. The list is the state's own: do not change it."""
        c = s.cache
        return [] if c is None else c

    def scores(self, s):
        return s.florins[:]

    def move_str(self, s, m):
        ph = s.phase
        if ph == ACT1 or ph == ACT2:
            return self.b.act_text[m]
        if not m:
            return "pass"
        if ph == MERCHANT:
            return "shield=" + FAMILIES[m[0]]
        return "street_choice=street(%d)" % m[0]

    # ------------------------------------------------------------------ chance

    def _counts(self, s):
        if s.phase == SETUP and s.step < self.b.ndistricts:
            return s.tokens, len(TOKENS) - s.step
        return s.stack, s.nstack

    def step_chance(self, s):
        if s.phase > REFILL:
            raise ValueError("not a chance event")
        counts, total = self._counts(s)
        # splitmix64, then the first kind whose running total passes the draw (Regola's _draw)
        r = s.rng = (s.rng + GOLDEN) & MASK
        z = ((r ^ (r >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        k = bisect_right(list(accumulate(counts)), (z ^ (z >> 31)) % total)
        self._resolve(s, k)
        return k

    def apply_chance(self, s, outcome):
        if s.phase > REFILL:
            raise ValueError("not a chance event")
        counts, _ = self._counts(s)
        if type(outcome) is not int or not 0 <= outcome < len(counts) or counts[outcome] <= 0:
            raise ValueError("outcome %r is not possible now" % (outcome,))
        self._resolve(s, outcome)

    def _take(self, s, k):
        """Take a tile of kind k from the draw stack."""
        st = s.stack
        st[k] -= 1
        s.nstack -= 1
        if not st[k]:
            s.nkinds -= 1

    def _resolve(self, s, k):
        if s.phase == REFILL:
            self._take(s, k)
            s.row[2] = k
            self._run(s, GO_NEXT if s.second else GO_ACT2)
        else:
            self._setup_put(s, k)
            self._setup_next(s)

    def _setup_put(self, s, k):
        b, st = self.b, s.step
        nd = b.ndistricts
        if st < nd:
            s.tokens[k] -= 1
            s.token[st] = k
        elif st < nd + 2 * self.num_players:
            self._take(s, k)
            p = (st - nd) >> 1
            s.hands[p][k] += 1
            s.hsize[p] += 1
        else:
            self._take(s, k)
            s.row[2 - (st - nd - 2 * self.num_players)] = k
        s.step = st + 1

    def _setup_next(self, s):
        nd = self.b.ndistricts
        deal_end = nd + 2 * self.num_players + 3
        while True:
            st = s.step
            if st == nd:
                s.tokens = [0] * len(TOKENS)          # the tokens left go back to the box
            if st < nd:
                if len(TOKENS) - st > 1:
                    s.phase = SETUP
                    return
                self._setup_put(s, s.tokens.index(1))
            elif st < deal_end:
                if s.nkinds > 1:
                    s.phase = SETUP
                    return
                self._setup_put(s, next(k for k in range(NK) if s.stack[k]))
            else:
                s.player = 0
                self._run(s, GO_ACT1)
                return

    # ------------------------------------------------------------------ moves

    def _moves(self, s, p, extra):
        """The actions player p may take, paying `extra` florins more (1 for the second)."""
        out = []
        fl = s.florins[p] - extra
        if fl < 0:
            return out
        hsize = s.hsize[p]
        if hsize < HAND_LIMIT:
            row = s.row
            if row[0] >= 0:
                out.append(BUY[0])
            if row[1] >= 0 and fl >= 1:
                out.append(BUY[1])
            if row[2] >= 0 and fl >= 2:
                out.append(BUY[2])
        hand = s.hands[p]
        b = self.b
        if hsize > hand[OFFICE]:                       # a tile other than an office
            cells = list(compress(b.cells, s.play))
            if cells:
                mv = b.mv_tile
                for k in compress(range(OFFICE), hand):
                    out.extend(map(mv[k].__getitem__, cells))
        if hand[OFFICE]:
            out.extend(map(b.mv_office.__getitem__, compress(b.cells, s.swap)))
        return out

    def _legal_act(self, s, m, extra):
        if type(m) is not tuple:
            return False
        if not m:
            return extra == 1
        p = s.player
        fl = s.florins[p] - extra
        try:
            a = m[0]
            if a == 0 and len(m) == 2:
                sl = m[1]
                return (type(sl) is int and 0 <= sl <= 2 and s.row[sl] >= 0
                        and s.hsize[p] < HAND_LIMIT and fl >= sl)
            if a == 1 and len(m) == 3:
                k, c = m[1], m[2]
                return (type(k) is int and 0 <= k < OFFICE and s.hands[p][k] > 0 and type(c) is int
                        and 0 <= c < self.b.ncells and s.play[c] == 1 and fl >= 0)
            if a == 2 and len(m) == 2:
                c = m[1]
                return (s.hands[p][OFFICE] > 0 and type(c) is int and 0 <= c < self.b.ncells
                        and s.swap[c] == 1 and fl >= 0)
        except (TypeError, IndexError):
            return False
        return False

    def apply(self, s, m):
        ph = s.phase
        if ph == ACT1 or ph == ACT2:
            extra = ph - ACT1
            if not self._legal_act(s, m, extra):
                raise ValueError("illegal move %r" % (m,))
            s.cache = None
            if not m:
                self._run(s, GO_NEXT)
                return
            if extra:
                s.florins[s.player] -= 1
            s.second = extra == 1
            self._run(s, self._act(s, m))
        elif ph == MERCHANT:
            if m not in s.cache:                      # (the shields left, then PASS)
                raise ValueError("illegal move %r" % (m,))
            s.cache = None
            c = s.cell
            if m:
                p, f = s.player, m[0]
                s.merchants[p] -= 1
                s.merch[c], s.trade[c], s.swap[c] = p, f, 0
                s.dtrade[self.b.district[c]] |= 1 << f
            self._run(s, self._played(s, c))
        elif ph == STREET:
            if m not in s.cache:
                raise ValueError("illegal move %r" % (m,))
            s.cache = None
            c = s.cell
            s.florins[s.merch[c]] += self._revenue(s, c, self._shields(s, s.trade[c], self.b.streetcells[m[0]]))
            self._run(s, GO_END)
        else:
            raise ValueError("no decision here (%s)" % ("the game is over" if ph == OVER else "chance"))

    def _act(self, s, m):
        """Play a legal action of the current player; what _run does next."""
        p, a = s.player, m[0]
        if a == 0:                                     # buy_tile(slot)
            sl = m[1]
            s.florins[p] -= sl
            row = s.row
            k = row[sl]
            s.hands[p][k] += 1
            s.hsize[p] += 1
            del row[sl]                                # the row is always a prefix: shift down
            row.append(-1)
            if s.nstack:
                if s.nkinds > 1:
                    s.phase = REFILL
                    return STOP
                k = next(k for k in range(NK) if s.stack[k])
                self._take(s, k)
                row[2] = k
            return GO_NEXT if s.second else GO_ACT2
        if a == 1:                                     # play_tile(kind, cell)
            k, c = m[1], m[2]
            s.hands[p][k] -= 1
            s.hsize[p] -= 1
            board, play, b = s.board, s.play, self.b
            board[c] = k
            play[c] = 0
            s.swap[c] = 1
            for x in b.adj[c]:
                if board[x] < 0:
                    play[x] = 1
            if s.merchants[p] > 0:
                taken = s.dtrade[b.district[c]]
                opts = [SHIELD_MV[f] for f in SHIELDS[k] if not taken >> f & 1]
                if opts:
                    opts.append(PASS)
                    s.phase, s.cell, s.cache = MERCHANT, c, opts
                    return STOP
            return self._played(s, c)
        c = m[1]                                       # play_office(cell)
        hand = s.hands[p]
        hand[s.board[c]] += 1
        hand[OFFICE] -= 1
        s.board[c] = OFFICE
        return GO_NEXT if s.second else GO_ACT2

    def _played(self, s, c):
        """After a tile is played (and the merchant placed or not): close a full district."""
        d = self.b.district[c]
        s.filled[d] += 1
        if s.filled[d] == 6:
            self._close(s, d)
            if not s.nopen:
                s.step = 0
                return GO_END
        return GO_NEXT if s.second else GO_ACT2

    # ------------------------------------------------------------------ revenues

    def _shields(self, s, f, cells):
        board = s.board
        return sum([SHC[board[x]][f] for x in cells])

    def _revenue(self, s, c, base):
        board, b = s.board, self.b
        for x in b.adj[c]:
            k = board[x]
            if k == SHOP_K:
                base += 1
            elif k == CHURCH_K:
                base -= 2
        for x in b.dcells[b.district[c]]:
            if board[x] == GRAVE_K:
                base -= 1
        return base if base > 0 else 0

    def _close(self, s, d):
        b = self.b
        s.closed[d] = True
        s.nopen -= 1
        board, merch, trade = s.board, s.merch, s.trade
        cells = b.dcells[d]
        tok = TOKC[s.token[d]]
        paid = [c for c in cells if merch[c] >= 0 and BUILDING[board[c]] == PALACE]
        for c in paid:
            f = trade[c]
            s.florins[merch[c]] += self._revenue(s, c, self._shields(s, f, cells) + tok[f])
        for c in paid:
            s.merchants[merch[c]] += 1
            merch[c] = trade[c] = -1
            s.swap[c] = 1
        s.token[d] = -1

    # ------------------------------------------------------------------ flow

    def _run(self, s, code):
        """Play on from `code` until a decision, a chance event or the end."""
        n = self.num_players
        while code != STOP:
            if code == GO_ACT1:
                ms = self._moves(s, s.player, 0)
                if not ms:                             # no action possible: "else pass"
                    code = GO_ACT2
                elif len(ms) == 1:                     # one move: played without asking
                    s.second = False
                    code = self._act(s, ms[0])
                else:
                    s.phase, s.cache = ACT1, ms
                    return
            elif code == GO_ACT2:
                ms = self._moves(s, s.player, 1)
                if not ms:
                    code = GO_NEXT
                else:
                    ms.append(PASS)
                    s.phase, s.cache = ACT2, ms
                    return
            elif code == GO_NEXT:
                s.player = (s.player + 1) % n
                code = GO_ACT1
            else:                                      # GO_END: final revenues, cell by cell
                b, board, merch = self.b, s.board, s.merch
                c = s.step
                while c < b.ncells:
                    o = merch[c]
                    if o >= 0:
                        bt = BUILDING[board[c]]
                        if bt == PLAZA:
                            s.florins[o] += self._revenue(s, c, self._shields(s, s.trade[c], b.rowcells[c]))
                        elif bt == TOWER:
                            near = b.nearest[c]
                            if len(near) > 1:
                                s.phase, s.cell, s.step = STREET, c, c + 1
                                s.cache = [STREET_MV[x] for x in near]
                                return
                            s.florins[o] += self._revenue(
                                s, c, self._shields(s, s.trade[c], b.streetcells[near[0]]))
                    c += 1
                s.phase, s.cache = OVER, None
                return
