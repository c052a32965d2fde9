"""Observation vectors, action masks, action texts and static facts (runtime/learning.py), on
every bundled game."""

import random

import pytest

from regola.loader import load_game
from test_resample import CONFIGS


def _decisions(game, seeds=2, p=0.25, limit=400):
    """Some decision points of random games (the state, and a generator for what comes next)."""
    rng = random.Random(5)
    for seed in range(seeds):
        s = game.new_initial_state(seed)
        steps = 0
        while not game.is_terminal(s) and steps < limit:
            steps += 1
            if game.is_chance(s):
                game.step_chance(s)
                continue
            if rng.random() < p:
                yield s, rng
            ms = game.legal_moves(s)
            game.apply(s, ms[rng.randrange(len(ms))])


@pytest.mark.parametrize("rules, players, mods", CONFIGS, ids=[f"{r}-{n}p{'-' + '+'.join(m) if m else ''}"[:60]
                                                             for r, n, m in CONFIGS])
def test_vectors_masks_and_action_texts(rules, players, mods):
    game = load_game(rules, players=players, modules=mods)
    lay = game.observation_layout()
    assert lay[0]["offset"] == 0
    for a, b in zip(lay, lay[1:]):
        assert b["offset"] == a["offset"] + a["size"]                 # parts follow each other
    size = game.observation_size()
    assert size == lay[-1]["offset"] + lay[-1]["size"]
    seen = 0
    for s, rng in _decisions(game):
        p = game.current_player(s)
        v = game.observation_tensor(s, p)
        assert len(v) == size and all(isinstance(x, (int, float)) for x in v)
        assert v[p] == 1.0 and v[game.num_players + p] == 1.0           # the observer, the mover
        # what the player cannot see does not change the vector
        assert game.observation_tensor(game.resample(s, p, rng), p) == v
        mask = game.action_mask(s)
        ids = {game.move_id(s, m) for m in game.legal_moves(s)}
        assert len(mask) == game.action_space and {i for i, x in enumerate(mask) if x} == ids
        for m in game.legal_moves(s):
            assert game.action_str(game.move_id(s, m)) == game.move_str(s, m)
        seen += 1
    assert seen >= 3
    facts = game.facts()
    assert facts["players"] == players and facts["action_space"] == game.action_space
    assert facts["observation_size"] == size


def test_every_action_id_has_a_text_and_only_those():
    for rules, players in [("lungarno", 3), ("sushi-go", 3), ("cant-stop", 2), ("hanabi", 2), ("love-letter", 2)]:
        game = load_game(rules, players=players)
        texts = [game.action_str(i) for i in range(game.action_space)]
        assert len(set(texts)) == len(texts)                              # one text per id
        with pytest.raises(ValueError, match="action ids are 0 to"):
            game.action_str(game.action_space)
        with pytest.raises(ValueError):
            game.action_str(-1)


def test_a_spectator_sees_less_than_a_player_with_a_hand():
    game = load_game("love-letter", players=2)
    for s, _ in _decisions(game, seeds=1, p=1.0, limit=3):
        p = game.current_player(s)
        mine, spectator = game.observation_tensor(s, p), game.observation_tensor(s, None)
        part = next(x for x in game.observation_layout() if x["name"] == f"player({p + 1}).hand")
        window = slice(part["offset"], part["offset"] + part["size"])
        assert mine[window] != spectator[window]
        assert mine[part["offset"]] == 1.0 and spectator[part["offset"]] == 0.0    # the seen flag
        break


def test_facts_say_what_kind_of_game_it_is():
    ttt, ll, sg = load_game("tic-tac-toe").facts(), load_game("love-letter", players=2).facts(), \
        load_game("sushi-go", players=3).facts()
    assert not ttt["chance"] and not ttt["hidden_information"]
    assert ll["chance"] and ll["hidden_information"] and not ll["simultaneous"]
    assert sg["simultaneous"] and sg["hidden_information"]
    cs = load_game("cant-stop", players=2).facts()
    assert cs["chance"] and not cs["hidden_information"]          # rolls are chance too


@pytest.mark.parametrize("rules, players, mods", CONFIGS, ids=[f"{r}-{n}p{'-' + '+'.join(m) if m else ''}"[:60]
                                                             for r, n, m in CONFIGS])
def test_information_state_strings_are_perfect_recall_of_what_the_player_saw(rules, players, mods):
    game = load_game(rules, players=players, modules=mods)
    rng = random.Random(9)
    s = game.new_initial_state(1, history=True)
    checked = 0
    while not game.is_terminal(s) and checked < 6:
        if game.is_chance(s):
            game.step_chance(s)
            continue
        if rng.random() < 0.2:
            p = game.current_player(s)
            text = game.information_state_string(s, p)
            assert game.information_state_string(game.resample(s, p, rng), p) == text
            assert game.information_state_string(game.load(game.dump(s)), p) == text
            before = text.count("\n")
            c = game.clone(s)
            game.apply(c, game.legal_moves(c)[0])
            assert game.information_state_string(c, p).count("\n") > before      # one more move
            assert game.information_state_string(s, p) == text                    # the original unchanged
            checked += 1
        ms = game.legal_moves(s)
        game.apply(s, ms[rng.randrange(len(ms))])


def test_a_hidden_choice_of_another_player_is_a_question_mark():
    game = load_game("lorenzo-il-magnifico", players=2, modules=["leaders"])
    s = game.new_initial_state(0, history=True)
    while game.is_chance(s):
        game.step_chance(s)
    game.apply(s, game.legal_moves(s)[0])               # player 1 keeps a leader in the draft
    mine, theirs = game.information_state_string(s, 0), game.information_state_string(s, 1)
    assert "player(1): keep=?" in theirs and "player(1): keep=?" not in mine


def test_without_history_the_question_is_refused_and_a_broken_history_is_too():
    from regola import StateError
    game = load_game("tic-tac-toe")
    s = game.new_initial_state(0)
    with pytest.raises(ValueError, match="history=True"):
        game.information_state_string(s, 0)
    data = game.dump(game.new_initial_state(0, history=True))
    assert data["history"] == []
    for bad in ("x", [[0, 5, [1]]], [[99, 0, [1]]], [[0, 0]]):
        with pytest.raises(StateError, match="history"):
            game.load(dict(data, history=bad))


def test_the_vector_written_into_a_buffer_is_the_list():
    np = pytest.importorskip("numpy")
    game = load_game("lorenzo-il-magnifico", players=5, modules=["leaders", "houses_of_renaissance"])
    for s, _ in _decisions(game, seeds=1, p=0.3, limit=200):
        p = game.current_player(s)
        buf = np.zeros(game.observation_size(), dtype=np.float32)
        game.observation_tensor(s, p, buf)
        assert np.array_equal(buf, np.asarray(game.observation_tensor(s, p), dtype=np.float32))


RECALL = """
game recall:
    players 2
enum Kind: ace, two
record Card:
    kind: Kind
components Card:
    | name | kind | count |
    | a    | ace  | 1     |
    | b    | two  | 1     |
global:
    deck: stack of Card, hidden
per player:
    hand: pile of Card, private
setup:
    fill deck with [a, b]
flow:
    draw deck -> player(1).hand
    act player(1): give_back | keep
    act player(2): stop | halt
action give_back():
    move all from me.hand -> deck
action keep():
    pass
action stop():
    end game
action halt():
    end game
score: 0
"""


def test_recall_tells_apart_what_was_seen_once_and_is_hidden_again(tmp_path):
    """Player 1 draws a card, sees it, and gives it back to the hidden deck: their view now and
    the moves (one `chance`, one `give_back`) are the same whichever card it was, but what they
    saw was not: their information-state strings differ; player 2's, who saw nothing, do not."""
    from test_language_knowledge import load as load_rules
    game = load_rules(tmp_path, RECALL, players=2)
    seen = {}
    for card in (0, 1):
        s = game.new_initial_state(0, history=True)
        game.apply_chance(s, card)
        game.apply(s, "give_back")
        assert game.observe(s, 0)["player_state"]["player(1)"]["hand"]["count"] == 0
        seen[card] = [game.information_state_string(s, p) for p in (0, 1)]
        # the same digest whether asked at every step or only now (a replay from the start)
        fresh = game.load(game.dump(s))
        assert [game.information_state_string(fresh, p) for p in (0, 1)] == seen[card]
    mine = [t.rsplit("\n", 1) for t in (seen[0][0], seen[1][0])]
    assert mine[0][0] == mine[1][0] and mine[0][1] != mine[1][1]     # only the recall differs
    assert seen[0][1] == seen[1][1]


def test_a_save_whose_history_does_not_lead_to_it_is_refused(tmp_path):
    from regola import StateError
    from test_language_knowledge import load as load_rules
    game = load_rules(tmp_path, RECALL, players=2)
    s = game.new_initial_state(0, history=True)
    game.apply_chance(s, 0)
    data = game.dump(s)
    game.load(data)
    with pytest.raises(StateError, match="history"):
        game.load(dict(data, history=[[data["history"][0][0], -1, 1]]))      # the other card
    with pytest.raises(StateError, match="history_start"):
        game.load(dict(data, history_start={"before": 5}))
    with pytest.raises(StateError, match="prefix"):
        game.load(dict(data, history_start=dict(data["history_start"], prefix={"0": "zz"})))
