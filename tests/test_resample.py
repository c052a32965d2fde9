"""Determinization (`game.resample(state, player, rng)`, runtime/resample.py) and the `holds`
declaration that bounds it (interpreter/holds.py), on every bundled game and on small games."""

import random
from collections import Counter

import pytest

from rules_helpers import errors, load, random_moves
from regola.loader import load_game

CONFIGS = [
    ("lungarno", 2, []), ("lungarno", 4, []),
    ("lions-of-lydia", 4, ["croesus", "pactolus", "craftsmen", "courtyards", "tomb", "builders", "chariot_race"]),
    ("lorenzo-il-magnifico", 2, []), ("lorenzo-il-magnifico", 4, ["advanced", "leaders"]),
    ("lorenzo-il-magnifico", 5, ["leaders", "houses_of_renaissance"]),
    ("love-letter", 2, []), ("love-letter", 4, []),
    ("sushi-go", 3, []), ("sushi-go", 5, []),
    ("hanabi", 2, []), ("hanabi", 5, []),
    ("cant-stop", 3, []), ("connect-four", 2, []), ("tic-tac-toe", 2, []),
]
# where components the player cannot see may be elsewhere than they are (hands, face-down
# tokens, a deck beside other hidden places); in base Lorenzo the only hidden places are the
# decks, one per card type and period, so their contents are known: nothing to redraw
HIDDEN = {"lungarno", "love-letter", "sushi-go", "hanabi"}


def components(game, s) -> Counter:
    """Every component in a zone, by record type and kind (all zones, all owners)."""
    out = Counter()
    for vs in game.vars:
        if vs.kind != "zone":
            continue
        rec = vs.zone.elem.name
        values = s.v[vs.slot] if vs.per_player else [s.v[vs.slot]]
        for value in values:
            for z in (value if vs.keys else [value]):
                if vs.zone.counted:
                    out.update({(rec, k): n for k, n in enumerate(z) if n})
                else:
                    out.update((rec, k) for k in z if k is not None)
    return out


@pytest.mark.parametrize("rules, players, mods", CONFIGS, ids=[f"{r}-{n}p{'-' + '+'.join(m) if m else ''}"[:60]
                                                             for r, n, m in CONFIGS])
def test_resampled_states_look_the_same_to_the_player_and_play_on(rules, players, mods):
    game = load_game(rules, players=players, modules=mods)
    rng = random.Random(7)
    tried = differ = 0
    for seed in range(3):
        s = game.new_initial_state(seed)
        while not game.is_terminal(s):
            if game.is_chance(s):
                game.step_chance(s)
                continue
            if rng.random() < 0.15:
                p = game.current_player(s)
                r = game.resample(s, p, rng)
                tried += 1
                differ += r.v != s.v
                assert game.observe(r, p) == game.observe(s, p)
                assert components(game, r) == components(game, s)
                assert game.legal_moves(r) == game.legal_moves(s)      # the player's own options
                assert r.rng != s.rng                                    # the future draws are unknown
                random_moves(game, r, random.Random(seed))               # plays on to the end
                assert game.is_terminal(r)
            ms = game.legal_moves(s)
            game.apply(s, ms[rng.randrange(len(ms))])
    assert tried >= 5
    if rules in HIDDEN or "leaders" in mods:
        assert differ >= tried // 3, f"only {differ} of {tried} resampled states differ from the real one"
    elif rules in ("connect-four", "tic-tac-toe", "cant-stop") or (rules, mods) == ("lorenzo-il-magnifico", []):
        assert differ == 0                   # nothing to redraw: the same state (a new generator)


def test_resample_is_reproducible_and_leaves_the_real_state_alone():
    game = load_game("love-letter", players=3)
    s = game.new_initial_state(3)
    while game.is_chance(s):
        game.step_chance(s)
    before = game.dump(s)
    a = game.resample(s, 0, random.Random(11))
    b = game.resample(s, 0, 11)
    assert a.v == b.v and a.rng == b.rng
    assert game.dump(s) == before


def test_a_spectator_sees_nobody_s_hand():
    game = load_game("love-letter", players=4)
    s = game.new_initial_state(0)
    random_moves(game, s, random.Random(0), limit=5)
    r = game.resample(s, None, random.Random(1))
    assert game.observe(r, None) == game.observe(s, None)


CARDS = """
game cards:
    players 2
enum Suit: red, blue
record Card:
    suit: Suit
    rank: int
components Card:
    | name | suit | rank | count |
    | r1   | red  | 1    | 4     |
    | r2   | red  | 2    | 4     |
    | b1   | blue | 1    | 4     |
    | b2   | blue | 2    | 4     |
global:
    reds: stack of Card
        holds c where c.suit == red
    blues: stack of Card
        holds c where c.suit == blue
    shown: pile of Card
per player:
    hand: row of 3 Card, private
        holds c where c.rank <= key + 1
    secret: pile of Card, private
setup:
    fill reds with [r1, r1, r1, r1, r2, r2, r2, r2]
    fill blues with [b1, b1, b1, b1, b2, b2, b2, b2]
    for p in players:
        draw reds -> p.hand[0]
        draw blues -> p.hand[1]
        draw reds -> p.hand[2]
        draw blues -> p.secret
        draw reds -> p.secret
flow:
    loop:
        for p in players:
            act p: show_one
action show_one(i in range(0, 3)):
    require me.hand[i] != none
    move me.hand[i] -> shown
    if count(shown) >= 4:
        end game
score: count(me.secret)
"""


def test_holds_keeps_each_component_where_the_declarations_allow_it(tmp_path):
    game = load(tmp_path, CARDS)
    s = game.new_initial_state(0)
    while game.is_chance(s):
        game.step_chance(s)
    obs = game.observe
    seen_in_slot0 = set()
    for k in range(200):
        r = game.resample(s, 0, random.Random(k))
        view = game.observe(r, 1)                       # player 2's hand: what player 1 cannot see
        hand = view["player_state"]["player(2)"]["hand"]
        assert hand["0"] in ("r1", "b1")                 # slot 0 holds rank <= 1
        seen_in_slot0.add(hand["0"])
        for i in ("1", "2"):
            assert hand[i] is None or hand[i] in ("r1", "r2", "b1", "b2")
        # the stacks keep their suit: holds
        rv = {v.name: v for v in game.vars}
        reds = r.v[rv["reds"].slot]
        blues = r.v[rv["blues"].slot]
        kinds = rv["reds"].zone.elem.kinds
        assert all(kinds[i].startswith("r") for i, n in enumerate(reds) if n)
        assert all(kinds[i].startswith("b") for i, n in enumerate(blues) if n)
        assert obs(r, 0) == obs(s, 0)
    assert seen_in_slot0 == {"r1", "b1"}               # both allowed cards come up


def test_holds_on_something_that_is_not_a_zone_is_an_error(tmp_path):
    text = CARDS.replace("    shown: pile of Card\n", "    shown: pile of Card\n    n: int\n        holds c where true\n")
    errs = errors(tmp_path, text)
    assert any(e.code == "E154" and "'n' is int" in e.message for e in errs)


def test_a_holds_condition_is_checked_like_a_def(tmp_path):
    text = CARDS.replace("holds c where c.suit == red", "holds c where c.colour == red")
    errs = errors(tmp_path, text)
    assert any("colour" in e.message for e in errs)
    text = CARDS.replace("holds c where c.suit == red", "holds c where c.rank")
    assert any(e.code == "E130" for e in errors(tmp_path, text, name="game2"))


def test_simultaneous_choices_already_made_stay_possible():
    """Sushi Go: the cards other players chose this turn are not revealed yet; a resample
    keeps them in their hands, and the clone's frame does not share the list of choices."""
    game = load_game("sushi-go", players=4)
    rng = random.Random(3)
    checked = 0
    s = game.new_initial_state(1)
    while not game.is_terminal(s) and checked < 30:
        if game.is_chance(s):
            game.step_chance(s)
            continue
        picks = [v for f in s.stack for k, v in f[2].items() if k.startswith("@picks")]
        if any(picks):
            p = game.current_player(s)
            before = game.dump(s)
            r = game.resample(s, p, rng)
            random_moves(game, r, random.Random(checked))
            assert game.is_terminal(r)
            assert game.dump(s) == before            # playing the resampled state changed nothing here
            checked += 1
        ms = game.legal_moves(s)
        game.apply(s, ms[rng.randrange(len(ms))])
    assert checked >= 10


def _priest_left(game, s) -> bool:
    deck = next(v for v in game.vars if v.name == "deck")
    kinds = deck.zone.elem.kinds
    return s.v[deck.slot][kinds.index("pr")] > 0


def test_every_visibility_construct_survives_a_redraw(tmp_path):
    """Private piles, counters, maps and keyed piles, a hidden counter, what was peeked at and
    revealed (test_language_knowledge's game): for every player and a spectator, the redrawn
    state looks the same (observe, the observation vector, the information-state string);
    a pile the player peeked at stays as it is, numbers are kept."""
    from test_language_knowledge import SECRETS
    game = load(tmp_path, SECRETS, players=3)
    rng = random.Random(4)
    for seed in range(6):
        s = game.new_initial_state(seed, history=True)
        for _ in range(12):
            if game.is_terminal(s):
                break
            for p in (0, 1, 2, None):
                r = game.resample(s, p, rng)
                assert game.observe(r, p) == game.observe(s, p)
                assert game.observation_tensor(r, p) == game.observation_tensor(s, p)
                if p is not None:
                    assert game.information_state_string(r, p) == game.information_state_string(s, p)
                assert components(game, r) == components(game, s)
                chips = next(v for v in game.vars if v.name == "chips")
                assert r.v[chips.slot] == s.v[chips.slot]                       # numbers are kept
            # (the game draws a priest only while the deck has one: its own rules do not check)
            ok = ("look", "show", "bet") + (("draw_one", "stash") if _priest_left(game, s) else ())
            ms = [m for m in game.legal_moves(s) if game.move_str(s, m).startswith(ok)]
            game.apply(s, ms[rng.randrange(len(ms))])
    # after player 1 peeks at player 2's hand, a redraw for player 1 keeps that hand
    s = game.new_initial_state(0)
    game.apply(s, "look(player(2))")
    hand = next(v for v in game.vars if v.name == "hand")
    for k in range(20):
        assert game.resample(s, 0, k).v[hand.slot][1] == s.v[hand.slot][1]
