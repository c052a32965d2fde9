"""Private and hidden numbers, and knowledge of whole variables: `reveal X`, `reveal X to p`,
`peek p at X` and `knows(p, X)` on piles, counters and maps, forgotten when X changes
(docs/language.md, "State: global and per player")."""

import json

import pytest

from rules_helpers import errors, load

SECRETS = """
game secrets:
    players 3
enum Kind: guard, priest
record Card:
    kind: Kind
components Card:
    | name   | kind   | count |
    | g      | guard  | 4     |
    | pr     | priest | 2     |
global:
    deck: pile of Card
    pot: int, hidden = 0
per player:
    hand: pile of Card, private
    chips: int, private = 5
    bets: map Kind to int, private
    trophies: pile of Card by Kind, private
setup:
    fill deck with [g, g, g, g, pr, pr]
    for p in players:
        move g from deck -> p.hand
flow:
    loop:
        act player(1): look | show | bet | draw_one | stash | stop
action look(q in players where q != me):
    peek me at q.hand
    peek me at q.chips
    peek me at q.trophies
action show():
    reveal me.hand to player(2)
    reveal me.bets to player(2)
    reveal pot
action bet():
    me.chips -= 1
    pot += 1
    me.bets[guard] += 1
action draw_one():
    move pr from deck -> me.hand
action stash():
    move pr from deck -> player(2).trophies[priest]
action stop():
    end game
score: (1 if knows(player(1), player(2).hand) else 0) + (10 if knows(player(2), player(1).hand) else 0)
    + (100 if knows(player(1), pot) else 0) + (1000 if knows(player(1), player(1).hand) else 0)
"""


def _seen(game, s, viewer):
    obs = game.observe(s, viewer)
    return obs["state"], obs["player_state"]


@pytest.fixture
def game(tmp_path):
    return load(tmp_path, SECRETS, players=3)


def test_private_and_hidden_numbers_are_shown_only_to_who_may_see_them(game):
    s = game.new_initial_state(0)
    glob, per = _seen(game, s, 0)
    assert glob["pot"] == "hidden"
    assert per["player(1)"]["chips"] == 5 and per["player(1)"]["bets"] == {"guard": 0, "priest": 0}
    assert per["player(2)"]["chips"] == "hidden" and per["player(2)"]["bets"] == "hidden"
    glob, per = _seen(game, s, None)                    # a spectator sees none of them
    assert glob["pot"] == "hidden" and all(per[p]["chips"] == "hidden" for p in per)


def test_peek_shows_a_whole_pile_and_number_to_one_player_until_it_changes(game):
    s = game.new_initial_state(0)
    game.apply(s, "look(player(2))")
    _, per = _seen(game, s, 0)
    assert per["player(2)"]["hand"] == {"count": 1, "contents": {"g": 1}} and per["player(2)"]["chips"] == 5
    assert per["player(3)"]["hand"] == {"count": 1} and per["player(3)"]["chips"] == "hidden"
    _, per3 = _seen(game, s, 2)
    assert per3["player(2)"]["hand"] == {"count": 1}     # only the one who peeked knows
    assert game.scores(s)[0] % 10 == 1                   # knows(player(1), player(2).hand)
    game.apply(s, "stash")                               # player 2's trophies change: forgotten
    _, per = _seen(game, s, 0)
    assert per["player(2)"]["trophies"]["priest"] == {"count": 1}
    assert per["player(2)"]["hand"] == {"count": 1, "contents": {"g": 1}}   # the hand did not change


def test_reveal_to_one_player_and_to_everyone(game):
    s = game.new_initial_state(0)
    game.apply(s, "show")
    glob, per2 = _seen(game, s, 1)
    assert per2["player(1)"]["hand"] == {"count": 1, "contents": {"g": 1}}
    assert per2["player(1)"]["bets"] == {"guard": 0, "priest": 0}
    assert _seen(game, s, 2)[1]["player(1)"]["hand"] == {"count": 1}      # not to player 3
    assert glob["pot"] == 0 and _seen(game, s, None)[0]["pot"] == 0       # pot: to everyone
    assert game.scores(s)[0] == 1110
    game.apply(s, "bet")                                  # the pot and the bets change: forgotten
    glob, per2 = _seen(game, s, 1)
    assert glob["pot"] == "hidden" and per2["player(1)"]["bets"] == "hidden"
    assert per2["player(1)"]["hand"] == {"count": 1, "contents": {"g": 1}}
    game.apply(s, "draw_one")                             # the hand changes: forgotten
    assert _seen(game, s, 1)[1]["player(1)"]["hand"] == {"count": 2}
    assert game.scores(s)[0] == 1000                      # the owner always knows their own


def test_knowledge_survives_clone_and_save(game):
    s = game.new_initial_state(0)
    game.apply(s, "look(player(3))")
    game.apply(s, "show")
    c = game.clone(s)
    loaded = game.load(json.loads(json.dumps(game.dump(s))))
    for other in (c, loaded):
        assert game.observe(other, 0) == game.observe(s, 0)
        assert game.observe(other, 1) == game.observe(s, 1)
    game.apply(c, "draw_one")                             # the clone forgets; the original not
    assert _seen(game, s, 1)[1]["player(1)"]["hand"]["count"] == 1
    assert "contents" in _seen(game, s, 1)[1]["player(1)"]["hand"]
    assert "contents" not in _seen(game, c, 1)[1]["player(1)"]["hand"]


WAGER = """
game g:
    players 2
global:
    pot: int, hidden = 0
per player:
    chips: int, private = 3
flow:
    act player(1): wager
action wager(n in range(1, 4) where n <= me.chips):
    me.chips -= n
    pot += n
score: me.chips
"""


def test_a_secret_number_read_for_a_move_is_not_named_to_the_others(tmp_path):
    game = load(tmp_path, WAGER)
    s = game.new_initial_state(0)
    m = game.legal_moves(s)[0]
    assert game.move_str_seen_by(s, m, 1) == "wager(1)"        # the amount is said at the table


@pytest.mark.parametrize("text,code", [
    ("global:\n    x: int, private = 1\n", "E150"),                     # private is per player
    ("per player:\n    h: pile of Card, private\nflow:\n    reveal deck\n", None),   # deck is public: nothing to reveal
])
def test_misuse(tmp_path, text, code):
    base = ("game g:\n    players 2\nrecord Card:\n    v: int\ncomponents Card:\n    | name | v | count |\n"
            "    | a    | 1 | 1     |\nglobal:\n    deck: pile of Card\n")
    body = text if text.startswith("per player") else text.replace("global:\n", "")
    src = base + body + ("" if "flow:" in body else "flow:\n    pass\n") + "score: 0\n"
    errs = errors(tmp_path, src)
    if code is None:
        assert errs and errs[0].code == "E135"            # a public zone as a whole: not a slot either
    else:
        assert [e.code for e in errs] == [code]


def test_scenario_expressions_ask_knows_without_changing_the_game(tmp_path):
    """A scenario's `knows(p, X)` on a variable the rules never show: its owner knows it, no
    one else; a scenario cannot show it (who knows it is not kept), and asking changes
    nothing in the loaded game."""
    from regola.diagnostics import RulesError
    from regola.snippets import SnippetCompiler
    game = load(tmp_path, WAGER, name="never")
    fingerprint = game.fingerprint
    sc = SnippetCompiler(game)
    s = game.new_initial_state(0)
    assert sc.expression("knows(player(1), player(1).chips)")(s) is True
    assert sc.expression("knows(player(2), player(1).chips)")(s) is False
    assert sc.expression("knows(player(1), pot)")(s) is False
    for text in ("reveal player(1).chips", "peek player(2) at pot"):
        with pytest.raises(RulesError) as e:
            sc.statements([text], [("<scenario>", 1, 1)])
        assert e.value.diagnostics[0].code == "E138"
    assert game.fingerprint == fingerprint and "!" not in "".join(vs.key for vs in game.vars)


FACING_OUT = """
game facing:
    players 3
record Card:
    v: int
components Card:
    | name | v | count |
    | one  | 1 | 6     |
    | two  | 2 | 6     |
global:
    deck: stack of Card
per player:
    hand: row of 2 Card, others
    told: int = 0
setup:
    fill deck with [one, one, one, one, one, one, two, two, two, two, two, two]
    for p in players:
        draw deck -> p.hand[0]
        draw deck -> p.hand[1]
flow:
    act player(1): tell | play
action tell(q in players where q != me):
    q.told += 1
action play(i in slots(me.hand)):
    move me.hand[i] -> deck
score: (1 if knows(player(1), player(2).hand) else 0) + (10 if knows(player(1), player(1).hand) else 0)
    + (100 if knows(player(1), player(1).hand[0]) else 0) + (1000 if knows(player(2), player(1).hand[0]) else 0)
"""


def test_others_visibility_every_player_sees_it_but_its_owner(tmp_path):
    """Hanabi's hands: `others` is seen by every player but its owner (a spectator sees only
    what is public)."""
    game = load(tmp_path, FACING_OUT, players=3)
    s = game.new_initial_state(2)
    while game.is_chance(s):
        game.step_chance(s)
    mine = game.observe(s, 0)["player_state"]
    assert mine["player(1)"]["hand"] == {"0": "hidden", "1": "hidden"}
    assert all(v in ("one", "two") for v in mine["player(2)"]["hand"].values())
    assert all(v == "hidden" for p in ("player(1)", "player(2)", "player(3)")
               for v in game.observe(s, None)["player_state"][p]["hand"].values())
    assert game.scores(s)[0] == 1001
    m = next(m for m in game.legal_moves(s) if game.move_str(s, m).startswith("play("))
    assert game.move_str_seen_by(s, m, 1) == game.move_str(s, m)      # slots are named, not cards
    errs = errors(tmp_path, FACING_OUT.replace("per player:\n    hand: row of 2 Card, others",
                                               "global:\n    shared: pile of Card, others\nper player:\n"
                                               "    hand: row of 2 Card, others"), name="bad")
    assert [e.code for e in errs] == ["E150"]


def test_options_from_your_own_others_hand_are_warned_about(tmp_path):
    from rules_helpers import diagnostics
    text = FACING_OUT.replace("action play(i in slots(me.hand)):\n    move me.hand[i] -> deck",
                              "action play(c in me.hand):\n    pass")
    ds = [d for d in diagnostics(tmp_path, text) if not d.is_error]
    assert [d.code for d in ds] == ["W004"] and "slots(me.hand)" in ds[0].hint


def test_knows_a_public_variable_is_true(tmp_path):
    game = load(tmp_path, FACING_OUT.replace(
        "score: (1 if", "score: (10000 if knows(player(1), player(2).told) and not knows(player(2), deck) else 0) + (1 if"),
        players=3, name="public")
    s = game.new_initial_state(2)
    while game.is_chance(s):
        game.step_chance(s)
    assert game.scores(s)[0] == 11001
