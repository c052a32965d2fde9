"""Random playouts of Hanabi over 2-5 players, checking invariants at every decision.

The invariants are written in the rules language and compiled against the game, so they
read the same state the rules do (benchmarks/soak.py checks INVARIANTS too). Beside them,
each move is followed here from the rulebook's text alone: the hand it changes (5.2: the
cards close the gap, a drawn card enters slot 1, each with what the hints told of it, 13.2),
the tokens (7.1, 8.2, 9.3, 9.4, R5), the fireworks (9.2: one colour grows by one, by a
correct play only), the turn order (6.1), the final round (10.2, R6: exactly one turn per
player after the one that drew the last card) and the end (11.1-11.4, 12.1, R1). And what
every player and a spectator see through observe() (1.2, 13.1-13.3): every hand but one's
own, never the deck, the tokens, fireworks, discard pile and hints always.

Uniformly random moves blow the three fuses within some twenty moves; so a third of the
games are played by a "careful" bot that plays a card it could not only by a slip (one move
in 25 is uniformly random; it reads the state the rules keep, its own cards included) and a
third by an "expert" that also keeps the cards still needed: those reach the final round and
perfect scores, with some fuses lost on the way.
"""

from __future__ import annotations

import random

import pytest

from regola.loader import load_game
from rules_helpers import SoakReader

GAMES = {2: 80, 3: 80, 4: 70, 5: 70}   # 300 games
FIRST_GAMES = 9                        # and 36 with the last seat playing first (R9)
HAND = {2: 5, 3: 5, 4: 4, 5: 4}        # 4.2
DECK = {2: 40, 3: 35, 4: 34, 5: 30}    # 4.3

_WHERE = ("count(x for x in deck where x == k) + count(x for x in discard_pile where x == k)"
          " + count(x for x in fireworks[k.colour] where x == k)"
          " + sum(count(s for s in values(Slot) where p.hand[s] == k) for p in players)")

# True at every decision and at the end of the game.
INVARIANTS = [
    ("50 cards in all: deck, discard pile, fireworks and hands (2.1)",
     "count(deck) + count(discard_pile) + fireworks_total() + sum(cards_in_hand(p) for p in players) == 50"),
    ("every card kind keeps its count (2.1)", f"all({_WHERE} == k.count for k in Card)"),
    ("information tokens between 0 and 8 (3.1)", "info_tokens >= 0 and info_tokens <= 8"),
    ("fuse tokens between 0 and 3 (3.2)", "fuse_tokens >= 0 and fuse_tokens <= 3"),
    ("a firework is its colour's 1, 2, 3... in order (3.3, 9.2)",
     "all([x.number for x in fireworks[c]] == range(1, height(c) + 1) and all(x.colour == c for x in fireworks[c])"
     " for c in values(Colour))"),
    ("a hand fills slots 1..n with no gap (5.2)",
     "all(all(p.hand[slot(k)] != none for k in range(1, cards_in_hand(p) + 1)) for p in players)"),
    ("no hand holds more than the hand size (4.2)", "all(cards_in_hand(p) <= hand_size() for p in players)"),
    ("what a hint told of a card is true: its colour and number, what it lacks (7.2, 13.2)",
     "all((p.known_colour[s] == none or p.known_colour[s] == p.hand[s].colour)"
     " and (p.known_number[s] == 0 or p.known_number[s] == p.hand[s].number)"
     " and p.hand[s].colour not in p.not_colours[s] and p.hand[s].number not in p.not_numbers[s]"
     " for p in players for s in values(Slot) where p.hand[s] != none)"),
    ("an empty slot carries no hint knowledge (13.2)",
     "all(p.known_colour[s] == none and p.known_number[s] == 0 and p.not_colours[s] == [] and p.not_numbers[s] == []"
     " for p in players for s in values(Slot) where p.hand[s] == none)"),
    ("'not' sets list each colour and number once, in order",
     "all(p.not_colours[s] == [c for c in values(Colour) where c in p.not_colours[s]]"
     " and p.not_numbers[s] == [n for n in NUMBERS where n in p.not_numbers[s]]"
     " for p in players for s in values(Slot))"),
    ("the final round only once the deck is empty, at most one turn each (10.2)",
     "final_turns <= count(players) and (final_turns == 0 or count(deck) == 0)"),
]

# True at every decision while the game goes on.
PLAYING = [
    ("a fuse is left while the game goes on (11.1)", "fuse_tokens >= 1"),
    ("some firework is incomplete while the game goes on (11.2)", "fireworks_total() < 25"),
    ("full hands while the deck lasts (10.1)",
     "count(deck) == 0 or all(cards_in_hand(p) == hand_size() for p in players)"),
    ("at most one card short in the final round (10.1, R6)",
     "all(cards_in_hand(p) >= hand_size() - 1 for p in players)"),
]

# True at every decision of the player in seat {k}.
# (in the final round too: a player loses a card only in their own final turn, 10.2)
ACTIVE = [
    ("the active player holds a full hand (4.2, 10.1, 10.2)",
     "cards_in_hand(player({k})) == hand_size()"),
]

READ = {
    "heights": "[height(c) for c in values(Colour)]",
    "info": "info_tokens",
    "fuses": "fuse_tokens",
    "deck": "count(deck)",
    "final": "final_turns",
    "discards": "[ordinal(x) for x in discard_pile]",
    "hands": "[[ordinal(p.hand[s]) if p.hand[s] != none else -1 for s in values(Slot)] for p in players]",
    "known_colour": "[[ordinal(p.known_colour[s]) if p.known_colour[s] != none else -1 for s in values(Slot)]"
                    " for p in players]",
    "known_number": "[[p.known_number[s] for s in values(Slot)] for p in players]",
    "not_colours": "[[[ordinal(c) for c in p.not_colours[s]] for s in values(Slot)] for p in players]",
    "not_numbers": "[[p.not_numbers[s] for s in values(Slot)] for p in players]",
    "kinds": "[[ordinal(k.colour), k.number, k.count] for k in Card]",
    "total": "fireworks_total()",
    "hand_size": "hand_size()",
}
NO_KNOWLEDGE = [-1, 0, [], []]


class Reader(SoakReader):
    def __init__(self, game):
        super().__init__(game, READ, INVARIANTS, PLAYING, ACTIVE)

    def read(self, s):
        r = {k: fn(s) for k, fn in self.fns.items()}
        # per player, per slot: [known colour (-1: none), known number (0: none), not colours, not numbers]
        r["known"] = [[[c, m, list(nc), list(nn)] for c, m, nc, nn in zip(*slots)]
                      for slots in zip(r["known_colour"], r["known_number"], r["not_colours"], r["not_numbers"])]
        return r


def _slot(text: str) -> int:
    """The 0-based slot a move's text names (`play(slot3)` -> 2)."""
    return int(text.split("(slot")[1].rstrip(")")) - 1


def _hint(text: str) -> tuple[int, str, str]:
    """(target seat, 'colour' or 'number', value) of `hint_colour(player(2), red)`."""
    kind = text.split("(")[0].split("_")[1]
    target = int(text.split("player(")[1].split(")")[0]) - 1
    value = text.rsplit(",", 1)[1].strip().rstrip(")")
    return target, kind, value


COLOURS = ["white", "yellow", "green", "blue", "red"]


def choose(rng, policy, texts, now, k, kinds):
    """A move for seat k: uniformly random, or careful/expert (never a wrong play while
    another move is legal; the expert also discards what is no longer needed first)."""
    if policy == "random" or rng.random() < 0.04:        # the careful slip now and then
        return texts[rng.randrange(len(texts))]
    hand = [c for c in now["hands"][k] if c >= 0]

    def playable(c):
        return kinds[c][1] == now["heights"][kinds[c][0]] + 1

    def useless(c):
        return kinds[c][1] <= now["heights"][kinds[c][0]]

    plays = [t for t in texts if t.startswith("play(") and playable(hand[_slot(t)])]
    if plays:
        return plays[rng.randrange(len(plays))]
    discards = [t for t in texts if t.startswith("discard(")]
    hints = [t for t in texts if t.startswith("hint_")]
    if policy == "expert" and discards:
        gone = [kinds[c][2] - now["discards"].count(c) for c in range(len(kinds))]
        safe = [t for t in discards if useless(hand[_slot(t)])]
        if not safe and hints and now["info"] >= 2:
            return hints[rng.randrange(len(hints))]
        spare = [t for t in discards if gone[hand[_slot(t)]] > 1]
        pick = safe or spare or discards
        return pick[rng.randrange(len(pick))]
    others = discards + hints
    if others:
        return others[rng.randrange(len(others))]
    return texts[rng.randrange(len(texts))]


def expected_after(before, text, k, n, kinds):
    """What the rulebook says the move `text` of seat k does (the card drawn aside):
    (hands, knowledge, heights, info, fuses, discards) with the drawn card as None."""
    hands = [list(h) for h in before["hands"]]
    known = [[list(x) for x in h] for h in before["known"]]
    heights = list(before["heights"])
    info, fuses, discards = before["info"], before["fuses"], list(before["discards"])
    if text.startswith("hint_"):
        q, kind, value = _hint(text)
        assert q != k, f"{text}: a hint to oneself (7.4)"
        assert info >= 1, f"{text}: a hint without a token (7.1)"
        info -= 1
        touched = 0
        for i, c in enumerate(hands[q]):
            if c < 0:
                continue
            colour, number = kinds[c][0], kinds[c][1]
            if kind == "colour":
                v = COLOURS.index(value)
                if colour == v:
                    known[q][i][0] = v
                    touched += 1
                else:
                    known[q][i][2] = sorted(set(known[q][i][2]) | {v})
            else:
                v = int(value)
                if number == v:
                    known[q][i][1] = v
                    touched += 1
                else:
                    known[q][i][3] = sorted(set(known[q][i][3]) | {v})
        assert touched, f"{text}: a hint that touches no card (R2)"
        return hands, known, heights, info, fuses, discards, False
    i = _slot(text)
    card = hands[k][i]
    assert card >= 0, f"{text}: an empty slot"
    colour, number = kinds[card][0], kinds[card][1]
    if text.startswith("discard("):
        assert info < 8, f"{text}: a discard with 8 tokens (8.1, R4)"
        info += 1
        discards.append(card)
    elif number == heights[colour] + 1:
        heights[colour] += 1
        if number == 5 and info < 8:
            info += 1
    else:
        fuses -= 1
        discards.append(card)
    # 5.2: the cards close the gap; a drawn card enters slot 1 (filled in by the caller),
    # each card with what the hints told of it (13.2); the new card with nothing
    held = [(c, x) for c, x in zip(hands[k], known[k]) if c >= 0]
    del held[i]
    draws = before["deck"] > 0 and fuses > 0 and sum(heights) < 25
    if draws:
        held = [(None, list(NO_KNOWLEDGE))] + held
    hands[k] = [c for c, _ in held] + [-1] * (5 - len(held))
    known[k] = [x for _, x in held] + [list(NO_KNOWLEDGE)] * (5 - len(held))
    return hands, known, heights, info, fuses, discards, draws


def check_observations(game, s, now, n, where):
    """1.2, 13.1, 13.3: each player sees every hand but their own; a spectator sees no hand;
    nobody sees the deck; tokens, fireworks, the discard pile and the hints are public."""
    for v in [None, *range(n)]:
        obs = game.observe(s, v)
        st = obs["state"]
        assert set(st["deck"]) == {"count"} and st["deck"]["count"] == now["deck"], \
            f"{where}: viewer {v} sees the deck (13.3)"
        assert st["info_tokens"] == now["info"] and st["fuse_tokens"] == now["fuses"], where
        assert st["final_turns"] == now["final"], where
        assert [len(st["fireworks"][c]) for c in COLOURS] == now["heights"], where
        assert st["discard_pile"]["count"] == len(now["discards"]) and "contents" in st["discard_pile"], \
            f"{where}: the discard pile is public (3.4)"
        for q in range(n):
            seen = obs["player_state"][f"player({q + 1})"]
            for i, c in enumerate(now["hands"][q]):
                shown = seen["hand"][f"slot{i + 1}"]
                if c < 0:
                    assert shown is None, f"{where}: viewer {v}: player {q + 1}'s slot {i + 1} is empty"
                elif v is None or v == q:
                    assert shown == "hidden", f"{where}: viewer {v} sees player {q + 1}'s slot {i + 1}"
                else:
                    assert shown != "hidden", f"{where}: player {v + 1} does not see player {q + 1}'s slot {i + 1}"
            for var in ("known_colour", "known_number", "not_colours", "not_numbers"):
                assert len(seen[var]) == 5, f"{where}: viewer {v} does not see player {q + 1}'s {var} (13.2)"
            assert [seen["known_number"][f"slot{i + 1}"] for i in range(5)] == [x[1] for x in now["known"][q]], where


def play(game, reader: Reader, seed: int, policy: str, first: int = 0):
    """One game, checked at every step; returns (final state, how it ended, moves). `first`
    is the seat of the option first_player, from 0."""
    rng = random.Random(seed)
    s = game.new_initial_state(seed)
    n = game.num_players
    kinds = reader.fns["kinds"](s)
    where = f"{n} players, {policy}, seed {seed}"
    before = text = None
    k_before = None
    moves = 0
    last_drawer = None          # the seat that drew the last card (10.2)
    final_moves = 0             # moves after that turn
    while True:
        while game.is_chance(s):
            game.step_chance(s)
        over = game.is_terminal(s)
        now = reader.read(s)
        here = f"{where}, move {moves}"
        for name, fn in reader.always:
            assert fn(s), f"{here}: {name}"
        if before is not None:
            hands, known, heights, info, fuses, discards, draws = expected_after(before, text, k_before, n, kinds)
            if draws:
                drawn = now["hands"][k_before][0]
                assert drawn >= 0, f"{here}: {text}: nothing drawn into slot 1 (10.1)"
                hands[k_before][0] = drawn
                assert now["deck"] == before["deck"] - 1, f"{here}: {text}: the deck"
            else:
                assert now["deck"] == before["deck"], f"{here}: {text}: a card drawn"
            assert now["hands"] == hands, f"{here}: {text}: hands {now['hands']} != {hands} (5.2)"
            assert now["known"] == known, f"{here}: {text}: knowledge {now['known']} != {known} (13.2)"
            assert now["heights"] == heights, f"{here}: {text}: fireworks {now['heights']} != {heights} (9.2)"
            assert (now["info"], now["fuses"]) == (info, fuses), f"{here}: {text}: tokens (7.1, 8.2, 9.3, 9.4)"
            assert sorted(now["discards"]) == sorted(discards), f"{here}: {text}: the discard pile (8.2, 9.4)"
            if last_drawer is not None:
                final_moves += 1
            if draws and now["deck"] == 0:
                last_drawer = k_before
                assert now["final"] == n or over, f"{here}: the final round has {now['final']} turns (R6)"
        if over:
            break
        for name, fn in reader.playing:
            assert fn(s), f"{here}: {name}"
        k = game.decision(s)["player"]
        for name, fn in reader.active[k]:
            assert fn(s), f"{here}: {name}"
        if k_before is not None:
            assert k == (k_before + 1) % n, f"{here}: seat {k + 1} moves after seat {k_before + 1} (6.1)"
        else:
            assert k == first, f"{here}: seat {k + 1} takes the first turn, not the first player's (R9)"
            # 4.2, 4.3, 4.4: the hands dealt, the deck left, the tokens
            assert now["hand_size"] == HAND[n] and now["deck"] == DECK[n], f"{here}: setup sizes"
            assert (now["info"], now["fuses"], now["total"], now["discards"]) == (8, 3, 0, []), here
        if last_drawer is not None:
            assert now["final"] == n - final_moves, f"{here}: {now['final']} final turns left (10.2)"
            assert final_moves < n, f"{here}: more than {n} turns after the last card (R6)"
        check_observations(game, s, now, n, here)
        ms = game.legal_moves(s)
        texts = [game.move_str(s, m) for m in ms]
        assert "pass" not in texts and texts, f"{here}: passing (6.1)"
        for m, t in zip(ms, texts):
            for v in [None, *range(n)]:
                assert game.move_str_seen_by(s, m, v) == t, f"{here}: {t} is not named alike to all"
        text = choose(rng, policy, texts, now, k, kinds)
        before, k_before = now, k
        game.apply(s, text)
        moves += 1
        assert moves < 200, f"{where}: the game does not end"
    # 11.4 whichever comes first: the third fuse, a perfect score, the final round's end
    if now["fuses"] == 0:
        ended = "fuse"
    elif now["total"] == 25:
        ended = "perfect"
    else:
        ended = "final round"
        assert last_drawer is not None and final_moves == n and now["final"] == 0, \
            f"{where}: the game ended after {final_moves} turns of the final round (10.2, R6)"
        assert k_before == last_drawer, f"{where}: the last turn is not the drawer's (10.2)"
    # 12.1, R1: one score for the team
    score = 0 if ended == "fuse" else now["total"]
    assert game.scores(s) == [score] * n, f"{where}: scores {game.scores(s)} != {score}"
    assert game.winners(s) == list(range(n))
    return s, ended, moves


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_playouts_keep_the_rules(players):
    game = load_game("hanabi", players=players)
    reader = Reader(game)
    ends = {"fuse": 0, "perfect": 0, "final round": 0}
    policies = ["random", "careful", "expert"]
    for seed in range(GAMES[players]):
        s, ended, moves = play(game, reader, seed, policies[seed % 3])
        ends[ended] += 1
        for name, fn in reader.always:
            assert fn(s), f"seed {seed}, at the end: {name}"
    # every way the game ends is met (11.1, 11.2, 11.3)
    assert all(ends.values()), ends
    # R9: another first player (the last seat), a few games
    game = load_game("hanabi", players=players, options={"first_player": players})
    reader = Reader(game)
    for seed in range(FIRST_GAMES):
        play(game, reader, seed, policies[seed % 3], first=players - 1)
