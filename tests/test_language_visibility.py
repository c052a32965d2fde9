"""Visibility (public / private / hidden) and per-player knowledge: peek and reveal."""

from __future__ import annotations


import pytest

from rules_helpers import errors, load as _load


def load(tmp_path, text, players=3, name="game"):
    return _load(tmp_path, text, players=players, name=name)


SECRETS = """
game g:
    players 3..3
enum Side: north, south
record Card:
    value: int
components Card:
    | name | value |
    | a    | 1     |
    | b    | 2     |
    | c    | 3     |
    | d    | 4     |
    | e    | 5     |
global:
    supply: pile of Card, public
    secret: slots of Card by Side, hidden
    facedown: row of 3 Card, hidden
    table: pile of Card
per player:
    hand: pile of Card, private
    shown: sequence of Card
    vault: row of 2 Card, hidden
setup:
    fill supply with copies(Card)
    move a from supply -> secret[north]
    move b from supply -> secret[south]
    move c from supply -> player(1).hand
    move d from supply -> player(2).shown
    move e from supply -> facedown[2]
flow:
    loop:
        act player(1): look | show | take | put | lift | stash | show_vault | let_see | spread
action look(sd in values(Side) where secret[sd] != none):
    peek me at secret[sd]
action show(sd in values(Side) where secret[sd] != none):
    reveal secret[sd]
action take(sd in values(Side) where secret[sd] != none):
    move secret[sd] -> table
action put(k in table, sd in values(Side) where secret[sd] == none):
    move k from table -> secret[sd]
action lift(i in slots(facedown) where facedown[i] != none):
    peek me at facedown[i]
action spread():
    move facedown[2] -> facedown[0]
action stash(k in me.hand, i in slots(me.vault) where me.vault[i] == none):
    move k from me.hand -> me.vault[i]
action show_vault(i in slots(me.vault) where me.vault[i] != none):
    reveal me.vault[i]
action let_see(p in players, i in slots(me.vault) where me.vault[i] != none):
    peek p at me.vault[i]
score: 0
"""


@pytest.fixture
def secrets(tmp_path):
    game = load(tmp_path, SECRETS)
    return game, game.new_initial_state()


def view(game, s, who, name):
    o = game.observe(s, who)
    return o["state"][name]


def pview(game, s, who, owner, name):
    return game.observe(s, who)["player_state"][f"player({owner + 1})"][name]


VIEWERS = (0, 1, 2, None)       # the three players and a spectator


def test_public_zones_are_seen_by_everyone(secrets):
    game, s = secrets
    for who in VIEWERS:
        assert view(game, s, who, "supply") == {"count": 0, "contents": {}}
        assert pview(game, s, who, 1, "shown") == ["d"]


def test_private_zones_show_contents_to_the_owner_and_the_count_to_others(secrets):
    game, s = secrets
    assert pview(game, s, 0, 0, "hand") == {"count": 1, "contents": {"c": 1}}
    for who in (1, 2, None):
        assert pview(game, s, who, 0, "hand") == {"count": 1}


def test_hidden_slots_are_seen_by_nobody(secrets):
    game, s = secrets
    for who in VIEWERS:
        assert view(game, s, who, "secret") == {"north": "hidden", "south": "hidden"}
        assert view(game, s, who, "facedown") == {"0": None, "1": None, "2": "hidden"}
    # the observation names whose decision it is
    o = game.observe(s, 1)
    assert o["you"] == "player(2)" and o["to_move"] == "player(1)"


def test_peek_lets_only_that_player_see_until_the_component_leaves(secrets):
    game, s = secrets
    game.apply(s, "look(north)")
    assert view(game, s, 0, "secret") == {"north": "a", "south": "hidden"}
    for who in (1, 2, None):
        assert view(game, s, who, "secret") == {"north": "hidden", "south": "hidden"}
    # the component leaves the slot: the knowledge goes with it
    game.apply(s, "take(north)")
    assert view(game, s, 0, "secret") == {"north": None, "south": "hidden"}
    # another component put there is hidden again, even from the player who peeked before
    game.apply(s, "put(a, north)")
    for who in VIEWERS:
        assert view(game, s, who, "secret") == {"north": "hidden", "south": "hidden"}


def test_knowledge_does_not_follow_a_move_into_another_hidden_slot(secrets):
    game, s = secrets
    game.apply(s, "lift(2)")
    assert view(game, s, 0, "facedown") == {"0": None, "1": None, "2": "e"}
    game.apply(s, "spread")
    assert view(game, s, 0, "facedown") == {"0": "hidden", "1": None, "2": None}


def test_reveal_makes_a_hidden_slot_public(secrets):
    game, s = secrets
    game.apply(s, "show(south)")
    for who in VIEWERS:
        assert view(game, s, who, "secret") == {"north": "hidden", "south": "b"}
    # peeking at a revealed slot changes nothing
    game.apply(s, "look(south)")
    for who in VIEWERS:
        assert view(game, s, who, "secret")["south"] == "b"
    # and once it leaves, the slot's next content is hidden again
    game.apply(s, "take(south)")
    game.apply(s, "put(b, south)")
    for who in VIEWERS:
        assert view(game, s, who, "secret")["south"] == "hidden"


def test_per_player_hidden_slots_peek_by_another_player_and_reveal(secrets):
    game, s = secrets
    game.apply(s, "stash(c, 1)")
    # hidden: even the owner does not see it
    for who in VIEWERS:
        assert pview(game, s, who, 0, "vault") == {"0": None, "1": "hidden"}
    game.apply(s, "let_see(player(3), 1)")
    assert pview(game, s, 2, 0, "vault") == {"0": None, "1": "c"}
    for who in (0, 1, None):
        assert pview(game, s, who, 0, "vault") == {"0": None, "1": "hidden"}
    game.apply(s, "show_vault(1)")
    for who in VIEWERS:
        assert pview(game, s, who, 0, "vault") == {"0": None, "1": "c"}


def test_compacting_a_hidden_row_keeps_knowledge_with_the_component(tmp_path):
    game = load(tmp_path, """
        game g:
            players 2..2
        record Card:
            value: int
        components Card:
            | name | value |
            | a    | 1     |
            | b    | 2     |
            | c    | 3     |
        global:
            supply: pile of Card
            r: row of 3 Card, hidden
            gone: pile of Card
        setup:
            fill supply with copies(Card)
            move a from supply -> r[0]
            move b from supply -> r[1]
            move c from supply -> r[2]
        flow:
            loop:
                act player(1): look | take | shift
        action look(i in slots(r) where r[i] != none):
            peek me at r[i]
        action take(i in slots(r) where r[i] != none):
            move r[i] -> gone
        action shift():
            compact r
        score: 0
    """, players=2)
    s = game.new_initial_state()
    game.apply(s, "look(2)")
    game.apply(s, "take(0)")
    game.apply(s, "shift")
    assert view(game, s, 0, "r") == {"0": "hidden", "1": "c", "2": None}
    assert view(game, s, 1, "r") == {"0": "hidden", "1": "hidden", "2": None}


def test_peek_at_a_slot_that_is_not_hidden_is_an_error(tmp_path):
    errs = errors(tmp_path, """
        game g:
            players 2..2
        record Card:
            value: int
        components Card:
            | name | value |
            | a    | 1     |
        global:
            r: row of 2 Card
        flow:
            peek player(1) at r[0]
        score: 0
    """)
    assert [e.code for e in errs] == ["E138"]


@pytest.mark.parametrize("decl, code", [
    ("x: int, private", "E150"),                         # private is per player, numbers too
    ("p: pile of Card, private", "E150"),                # private is per player
    ("p: pile of Card, hidden, public", "E150"),         # given twice
])
def test_visibility_misuse(tmp_path, decl, code):
    errs = errors(tmp_path, f"""
        game g:
            players 2..2
        record Card:
            value: int
        components Card:
            | name | value |
            | a    | 1     |
        global:
            {decl}
        flow:
            pass
        score: 0
    """)
    assert code in [e.code for e in errs]
