"""Random playouts of Love Letter over 2-4 players, checking invariants at every decision.

The invariants are written in the rules language and compiled against the game, so they
read the same state the rules do (benchmarks/soak.py checks INVARIANTS too). Beside them,
each game is followed here, from the rulebook's text alone, for what the rules do not keep
in a variable: tokens only grow and the match ends exactly when someone has the tokens
needed (4.1, 12.1); a Handmaid protects its player until that player's next turn (7.4);
and what every player sees through observe(): a hand is its owner's (13.1) unless a Priest,
a Baron, a King or the showdown showed it (13.2, 10.2), the set-aside card is nobody's
(5.2), the face-up cards and the discard piles are everyone's (5.3, 3.3).
"""

from __future__ import annotations

import random

import pytest

from regola.loader import load_game
from rules_helpers import SoakReader

GAMES = {2: 100, 3: 100, 4: 100}       # 300 matches, some 3,000 rounds in all

# True at every decision and at the end of the game.
INVARIANTS = [
    ("16 cards in all: deck, set-aside, face-up, hands and discard piles (2.1, 5.1)",
     "count(deck) + count(set_aside) + count(face_up)"
     " + sum(count(p.hand) + count(p.discards) for p in players) == 16"),
    ("every card kind keeps its count (2.1)",
     "all(count(x for x in deck where x == c) + count(x for x in set_aside where x == c)"
     " + count(x for x in face_up where x == c)"
     " + sum(count(x for x in p.hand where x == c) + count(x for x in p.discards where x == c) for p in players)"
     " == c.count for c in Card)"),
    ("one card set aside, unless a Prince gave it with the deck empty (5.2, R7)",
     "count(set_aside) == 1 or (count(set_aside) == 0 and count(deck) == 0)"),
    ("three cards face up with 2 players, none with 3 or 4 (5.3)",
     "count(face_up) == (3 if count(players) == 2 else 0)"),
    ("a player out of the round holds no card (9.1)",
     "all(count(p.hand) == 0 for p in players where not p.in_round)"),
    # (a Prince cannot choose a protected player, and a player who goes out loses the
    # protection: nothing goes on a protected player's discard pile after their Handmaid)
    ("a protected player is in the round and the last card they placed is a Handmaid (3.5, 9.2)",
     "all(p.in_round and [c for c in p.discards][count(p.discards) - 1] == handmaid"
     " for p in players where p.protected)"),
    ("nobody has more tokens than needed to win (12.1)",
     "all(p.tokens <= tokens_to_win() for p in players)"),
]

# True at every decision while the game goes on.
PLAYING = [
    ("at least two players are in the round (10.1)", "count(in_the_round()) >= 2"),
    ("nobody has the tokens needed while the game goes on (12.1)",
     "all(p.tokens < tokens_to_win() for p in players)"),
    ("a player in the round holds one card between turns (3.2)",
     "all(count(p.hand) <= 2 and count(p.hand) >= 1 for p in players where p.in_round)"),
]

# True at every decision of the player in seat {k}.
ACTIVE = [
    ("the active player is in the round and holds two cards (3.2, 6.3)",
     "player({k}).in_round and count(player({k}).hand) == 2"),
    ("the active player is not protected (6.2)", "not player({k}).protected"),
    ("every other player in the round holds one card (3.2)",
     "all(count(p.hand) == 1 for p in players where p.in_round and p != player({k}))"),
]

READ = {
    "tokens": "[p.tokens for p in players]",
    "in_round": "[p.in_round for p in players]",
    "protected": "[p.protected for p in players]",
    "target": "tokens_to_win()",
    "piles": "[[ordinal(c) for c in p.discards] for p in players]",
}
SHOWING = {1, 2, 5}                     # ordinal of the Priest, the Baron, the King


class Reader(SoakReader):
    def __init__(self, game):
        super().__init__(game, READ, INVARIANTS, PLAYING, ACTIVE)

    def read(self, s):
        return {k: fn(s) for k, fn in self.fns.items()}


def _hands(game, s):
    """Each player's hand as its owner sees it (13.1: the owner always sees it)."""
    n = game.num_players
    return [game.observe(s, p)["player_state"][f"player({p + 1})"]["hand"] for p in range(n)]


def _target(text: str) -> int | None:
    """The seat a move's text chooses (`play_king(player(3))` -> 2), if any."""
    if "player(" not in text:
        return None
    return int(text.split("player(")[1].split(")")[0]) - 1


class Sight:
    """What each player may know of each other hand, from the rulebook (13.2, 10.2): shown
    by a Priest, a Baron, a King or the showdown, and known until that hand changes."""

    def __init__(self, n):
        self.n = n
        self.shown = set()                 # (viewer, owner)

    def hands_changed(self, before, after):
        for q in range(self.n):
            if before[q] != after[q]:
                self.shown = {(v, o) for v, o in self.shown if o != q}

    def unseen_plays(self, piles_before, piles_after, explained):
        """A turn with one legal move is played without a decision (docs/language.md,
        "Forced decisions"): a Priest, Baron or King placed on a discard pile by no move of
        ours may have shown hands; its target is unknown here, so its player may have seen
        every hand and every hand may have seen it (a weaker check for those hands only)."""
        for j in range(self.n):
            new = piles_after[j][len(piles_before[j]):] if len(piles_after[j]) >= len(piles_before[j]) else []
            if j == explained and new:
                new = new[1:]
            if any(c in SHOWING for c in new):
                self.shown |= {(j, o) for o in range(self.n)} | {(o, j) for o in range(self.n)}

    def check(self, game, s, where):
        hands = _hands(game, s)
        for v in [None, *range(self.n)]:
            obs = game.observe(s, v)
            st = obs["state"]
            assert "contents" not in st["set_aside"], f"{where}: {v} sees the set-aside card (5.2, 13.1)"
            assert "contents" in st["face_up"], f"{where}: {v} does not see the face-up cards (5.3)"
            assert "contents" not in st["deck"], f"{where}: {v} sees the deck (13.1)"
            for q in range(self.n):
                seen = obs["player_state"][f"player({q + 1})"]
                assert isinstance(seen["discards"], list), f"{where}: discard piles are public (3.3)"
                hand = seen["hand"]
                if q == v:
                    assert hand == hands[q]
                elif "contents" in hand and hands[q]["count"] > 0:
                    assert v is not None and (v, q) in self.shown, \
                        f"{where}: player {v + 1 if v is not None else 'spectator'} sees player {q + 1}'s hand"
                    assert hand == hands[q]


def play(game, reader: Reader, seed: int):
    """One random match, checked at every step; returns its final state."""
    rng = random.Random(seed)
    s = game.new_initial_state(seed)
    n = game.num_players
    where = f"{n} players, seed {seed}"
    sight = Sight(n)
    hands = _hands(game, s)
    protected = [False] * n
    last = reader.read(s)
    steps = rounds = 0
    steps_seen = 0
    unseen: set = set()
    while not game.is_terminal(s):
        steps += 1
        assert steps < 5000, f"{where}: the game does not end"
        if game.is_chance(s):
            piles = reader.read(s)["piles"]
            game.step_chance(s)
            after = _hands(game, s)
            sight.hands_changed(hands, after)
            hands = after
            if not game.is_terminal(s):
                piles_now = reader.read(s)["piles"]
                sight.unseen_plays(piles, piles_now, None)
                unseen |= {j for j in range(n) if piles_now[j] != piles[j]}
            continue
        k = game.decision(s)["player"]
        here = f"{where}, step {steps}"
        for name, fn in reader.always + reader.playing + reader.active[k]:
            assert fn(s), f"{here}: {name}"
        now = reader.read(s)
        # 11.1, 12.1: tokens only grow (a whole round may be played by forced moves, so
        # several rounds may end between two decisions)
        assert all(b >= a for a, b in zip(last["tokens"], now["tokens"])), f"{here}: tokens fell"
        # 7.4, 6.2: protected from playing a Handmaid until the start of one's next turn.
        # A turn with a single legal move is played without a decision (docs/language.md,
        # "Forced decisions"): the players who placed cards we did not see placed took
        # such turns, unseen here; their protection is only checked by INVARIANTS.
        if now["tokens"] != last["tokens"] or steps_seen == 0:
            rounds += now["tokens"] != last["tokens"]
            # 5.6 a new round: "nobody is protected", but who has placed a card this round
            protected = [False] * n
            unseen = {j for j in range(n) if now["piles"][j]}
        steps_seen += 1
        for j in unseen:
            protected[j] = now["protected"][j]
        unseen = set()
        protected[k] = False
        protected = [protected[p] and now["in_round"][p] for p in range(n)]
        assert now["protected"] == protected, f"{here}: protection {now['protected']} != {protected}"
        sight.check(game, s, here)
        moves = game.legal_moves(s)
        texts = [game.move_str(s, m) for m in moves]
        assert len(set(texts)) == len(texts), f"{here}: a move is listed twice (R11)"
        text = texts[rng.randrange(len(texts))]
        game.apply(s, text)
        if not game.is_terminal(s):
            piles_now = reader.read(s)["piles"]
            sight.unseen_plays(now["piles"], piles_now, k)
            unseen |= {j for j in range(n) if len(piles_now[j]) > len(now["piles"][j]) + (1 if j == k else 0)}
        if text == "play_handmaid":
            protected[k] = True
        before, hands = hands, _hands(game, s)
        sight.hands_changed(before, hands)
        q = _target(text)
        kind = text.split("(")[0]
        if q is not None and kind in ("play_priest", "play_baron", "play_king"):
            # 13.2: a Priest shows the target's hand to its player; a Baron and a King show
            # each of the two players the other's hand. Known until that hand changes: here
            # the next draw is pending (nothing else happened yet), or a single-outcome draw
            # and forced moves have already been played: then only a hand left as the move
            # left it is still known.
            pairs = [(k, q)] if kind == "play_priest" else [(k, q), (q, k)]
            left = list(before)                      # the hands as the move left them
            card = kind.split("_")[1]
            kept = dict(before[k]["contents"])
            kept[card] -= 1
            kept = {"count": 1, "contents": {c: m for c, m in kept.items() if m}}
            left[k] = kept
            if kind == "play_king":                  # 7.6: exchanged
                left[k], left[q] = before[q], kept
            for v, o in pairs:
                if hands[o]["count"] == 0:
                    continue
                if game.is_chance(s):
                    sight.shown.add((v, o))
                    assert game.observe(s, v)["player_state"][f"player({o + 1})"]["hand"] == hands[o], \
                        f"{here}: {text}: player {v + 1} does not see player {o + 1}'s hand"
                elif hands[o]["count"] == left[o]["count"] and \
                        hands[o].get("contents") == left[o].get("contents"):
                    sight.shown.add((v, o))
        last = now
    return s, rounds


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_playouts_keep_the_rules(players):
    game = load_game("love-letter", players=players)
    reader = Reader(game)
    total = 0
    for seed in range(GAMES[players]):
        s, rounds = play(game, reader, seed)
        total += rounds
        for name, fn in reader.always:
            assert fn(s), f"seed {seed}, at the end: {name}"
        # 12.1, R3: the game ends when someone has the tokens needed; they are the winners
        end = reader.read(s)
        won = [p for p in range(players) if end["tokens"][p] == end["target"]]
        assert won, f"seed {seed}: the game ended with tokens {end['tokens']}"
        assert game.scores(s) == end["tokens"]
        assert game.winners(s) == won
    assert total > GAMES[players] * 3
