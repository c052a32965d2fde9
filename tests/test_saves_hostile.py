"""Hostile and broken input (issue 9, item 3): a tampered save is refused when loaded, naming
the field; an untampered one plays on identically; a broken log says what is wrong; a move
that is not of the game's own form is refused."""

import copy
import json
import random

import pytest

from regola.loader import load_game
from regola.runtime.game import IllegalMove, RulesRuntimeError, StateError
from rules_helpers import assert_save_and_load_continue_identically, random_moves
from regola.tools.cli import main
from regola.tools.logs import LogError, read as read_log

CONFIGS = [("lungarno", (), 4), ("lions-of-lydia", (), 4),
           ("lorenzo-il-magnifico", ("advanced", "leaders"), 4),
           ("connect-four", (), 2), ("tic-tac-toe", (), 2)]
IDS = [c[0] for c in CONFIGS]
STEPS = {"connect-four": 5, "tic-tac-toe": 3}          # too few to end the game


@pytest.fixture(scope="module", params=CONFIGS, ids=IDS)
def mid(request):
    """A game, a state in the middle of it at a player's decision, and its save as JSON data."""
    name, modules, players = request.param
    game = load_game(name, modules=list(modules), players=players)
    s = game.new_initial_state(5)
    random_moves(game, s, random.Random(5), STEPS.get(name, 60))
    while game.is_chance(s):
        game.step_chance(s)
    assert not game.is_terminal(s)
    return game, s, json.loads(json.dumps(game.dump(s)))


def refused(game, data, *words):
    with pytest.raises(StateError) as ei:
        game.load(data)
    text = str(ei.value)
    assert all(w in text for w in words), text
    return text


def tampered(data, change):
    bad = copy.deepcopy(data)
    change(bad)
    return bad


# ----------------------------------------------------------------------- saves as written

@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_untampered_saves_from_random_points_load_and_play_on_identically(config):
    name, modules, players = config
    game = load_game(name, modules=list(modules), players=players)
    for seed in range(3):
        assert_save_and_load_continue_identically(game, seed, (0, 120))
        s = game.new_initial_state(seed)
        random_moves(game, s, random.Random(seed))            # to the end: a finished game loads too
        data = json.loads(json.dumps(game.dump(s)))
        assert game.dump(game.load(data)) == game.dump(s)


def test_a_save_loads_as_it_was_dumped(mid):
    game, s, data = mid
    loaded = game.load(data)
    assert json.loads(json.dumps(game.dump(loaded))) == data
    assert game.legal_moves(loaded) == game.legal_moves(s)
    assert game.load(game.dump(s)).stack == s.stack      # without JSON too (tuples in the locals)


# ----------------------------------------------------------------------- the variables

def _leaves(x, path=()):
    if isinstance(x, list) and x:
        for i, y in enumerate(x):
            yield from _leaves(y, path + (i,))
    elif not isinstance(x, list):
        yield path


def _set(data, path, value):
    target = data["v"]
    for i in path[:-1]:
        target = target[i]
    target[path[-1]] = value


def _field(game, path) -> str:
    return "v." + game.vars[path[0]].name + "".join(f"[{i}]" for i in path[1:])


def test_every_variable_refuses_values_of_another_type(mid):
    game, s, data = mid
    rng = random.Random(1)
    for slot, vs in enumerate(game.vars):
        leaves = list(_leaves(data["v"][slot], (slot,)))
        for path in leaves[:1] + rng.sample(leaves, min(2, len(leaves))):
            if len(path) == 1 and isinstance(data["v"][slot], list):
                continue                                  # an empty list: no leaf
            for value in (3.5, "x", 10 ** 100, -(2 ** 60), {}, [1], float("nan")):
                refused(game, tampered(data, lambda d: _set(d, path, value)), _field(game, path) + ": ")


def test_every_variable_refuses_values_outside_its_range(mid):
    game, s, data = mid
    n = game.num_players
    for slot, vs in enumerate(game.vars):
        value = data["v"][slot]
        one = value[0] if vs.per_player else value
        path = (slot, 0) if vs.per_player else (slot,)
        if vs.kind == "zone" and vs.keys:
            one, path = one[0], path + (0,)
        zone = vs.zone
        if vs.kind == "known":
            bad = [(1 << n, "knowledge mask"), (-2, "knowledge mask")]
        elif vs.kind == "zone" and zone.counted:
            bad = [(-1, "not a count"), (True, "not a count"), (None, "not a count")]
        elif vs.kind == "zone" and zone.slotted:
            bad = [(len(zone.elem.kinds), f"is not a {zone.elem.name}"), (-1, f"is not a {zone.elem.name}")]
        elif vs.kind == "zone":
            bad = [(len(zone.elem.kinds), f"is not a {zone.elem.name}"), (None, f"is not a {zone.elem.name}")]
        elif vs.kind == "grid":
            bad = [(len(vs.grid.record.kinds), f"is not a {vs.grid.record.name}"), (False, "is not a")]
        elif vs.kind in ("scalar", "map") and vs.high is not None:
            bad = [(vs.high + 1, "above the maximum"), (None, "not an integer")]
        elif vs.kind in ("scalar", "map") and vs.low is not None:
            bad = [(vs.low - 1, "below the minimum"), (True, "not an integer")]
        elif vs.kind == "scalar" and str(vs.type) == "bool":
            bad = [(0, "not true or false"), (None, "not true or false")]
        elif vs.kind == "scalar" and str(vs.type) == "Player or none":
            bad = [(n, "is not a Player"), (-1, "is not a Player")]
        else:
            bad = []
        if isinstance(one, list) and one:
            path = path + (0,)
        elif isinstance(one, list):
            bad = []
        for value, words in bad:
            refused(game, tampered(data, lambda d: _set(d, path, value)), _field(game, path) + ": ", words)


def test_lists_of_the_wrong_length_are_refused(mid):
    game, s, data = mid
    for slot, vs in enumerate(game.vars):
        value = data["v"][slot]
        if vs.per_player:
            refused(game, tampered(data, lambda d: d["v"][slot].pop()), f"v.{vs.name}: ", "entries, not")
            value = value[0]
        if vs.kind in ("grid", "cell_attr", "known", "map") or (vs.kind == "zone" and (vs.keys or vs.size)):
            path = (slot, 0) if vs.per_player else (slot,)

            def grow(d, path=path):
                target = d["v"]
                for i in path:
                    target = target[i]
                target.append(copy.deepcopy(target[0]))
            refused(game, tampered(data, grow), _field(game, path) + ": ", "entries, not")
    refused(game, tampered(data, lambda d: d["v"].pop()), "layout")


def test_named_examples(mid):
    game, s, data = mid
    if game.name != "lungarno":
        pytest.skip("the examples name Lungarno's variables")
    slot = {vs.name: i for i, vs in enumerate(game.vars)}
    refused(game, tampered(data, lambda d: _set(d, (slot["florins"], 2), 3.5)), "v.florins[2]: 3.5 is not an integer")
    refused(game, tampered(data, lambda d: _set(d, (slot["board"], 17), 99)),
            "v.board[17]: 99 is not a Tile (0..21) or none")
    refused(game, tampered(data, lambda d: _set(d, (slot["florins"], 1), 10 ** 100)), "v.florins[1]", "too large")
    refused(game, tampered(data, lambda d: _set(d, (slot["merchants"], 0), 6)),
            "v.merchants[0]: 6 is above the maximum 5")
    refused(game, tampered(data, lambda d: _set(d, (slot["hand"], 3, 0), -1)), "v.hand[3][0]: -1 is not a count")


# ----------------------------------------------------------------------- stack, pending, rng, phase

def test_the_pending_decision_is_checked(mid):
    game, s, data = mid
    site, player = data["pending"]
    n, sites = game.num_players, len(game.sites)
    assert player >= 0
    refused(game, tampered(data, lambda d: d.__setitem__("pending", [site, n + 3])),
            f"pending: player {n + 3} is not a seat (0..{n - 1}) or chance (-1)")
    refused(game, tampered(data, lambda d: d.__setitem__("pending", [site, -1])), "pending:", "not chance")
    refused(game, tampered(data, lambda d: d.__setitem__("pending", [site, True])), "pending: player true")
    refused(game, tampered(data, lambda d: d.__setitem__("pending", [sites, player])), "pending[0]: ")
    refused(game, tampered(data, lambda d: d.__setitem__("pending", [-1, player])), "pending[0]: ")
    refused(game, tampered(data, lambda d: d.__setitem__("pending", "x")), "pending decision")
    refused(game, tampered(data, lambda d: d.__setitem__("pending", [site])), "pending decision")
    refused(game, tampered(data, lambda d: d.__setitem__("pending", None)), "pending: none", "not over")
    chance = [i for i, si in enumerate(game.sites) if si.kind in ("chance", "roll")]
    if chance:
        refused(game, tampered(data, lambda d: d.__setitem__("pending", [chance[0], player])),
                "chance event", "its player is -1")
    others = [i for i, si in enumerate(game.sites) if i != site and si.kind not in ("chance", "roll")]
    if others:                      # another decision: the rules do not wait for it here
        refused(game, tampered(data, lambda d: d.__setitem__("pending", [others[0], player])), "stack[")
    if game.sites[site].kind == "act":
        other = (player + 1) % n
        refused(game, tampered(data, lambda d: d["stack"][-1][2].__setitem__("@p", other)), "['@p']")


def test_the_frames_of_the_stack_are_checked(mid):
    game, s, data = mid
    n = game.num_players
    top = len(data["stack"]) - 1
    unit, block, local, me = data["stack"][top]
    at = f"stack[{top}]"
    frame = lambda change: tampered(data, lambda d: change(d["stack"][top]))  # noqa: E731
    refused(game, tampered(data, lambda d: d.__setitem__("stack", [])), "stack: empty")
    refused(game, tampered(data, lambda d: d.__setitem__("stack", {"a": 1})), "stack: ")
    refused(game, tampered(data, lambda d: d["stack"].__setitem__(top, 7)), f"{at}: a frame")
    refused(game, tampered(data, lambda d: d["stack"][top].pop()), f"{at}: a frame")
    refused(game, frame(lambda f: f.__setitem__(0, len(game._procs))), f"{at}[0]: ")
    refused(game, frame(lambda f: f.__setitem__(0, "0")), f"{at}[0]: ")
    refused(game, frame(lambda f: f.__setitem__(1, len(game._procs[unit]))), f"{at}[1]: ")
    refused(game, frame(lambda f: f.__setitem__(1, 1.0)), f"{at}[1]: ")
    if len(game._procs[unit]) > 1:
        refused(game, frame(lambda f: f.__setitem__(1, (block + 1) % len(game._procs[unit]))), f"{at}: ")
    refused(game, frame(lambda f: f.__setitem__(2, [])), f"{at}[2]: ")
    refused(game, frame(lambda f: f.__setitem__(3, n)), f"{at}[3]: {n} is not a seat")
    refused(game, frame(lambda f: f.__setitem__(3, -1)), f"{at}[3]: -1 is not a seat")
    refused(game, frame(lambda f: f[2].__setitem__("@t", 3.5)), f"{at}[2]['@t']: 3.5 is not a value")
    refused(game, frame(lambda f: f[2].__setitem__("@t", {"a": 1})), f"{at}[2]['@t']: ")
    refused(game, frame(lambda f: f[2].__setitem__("@t", 2 ** 80)), f"{at}[2]['@t']: ")
    refused(game, frame(lambda f: f[2].__setitem__("@t", json.loads("[" * 40 + "]" * 40))), "nested too deeply")
    refused(game, frame(lambda f: f[2].__setitem__("no_such_parameter", 1)), f"{at}[2]: ", "not a parameter")
    python_keys = tampered(data, lambda d: None)
    python_keys["stack"][top][2][1] = 1                       # a dict from Python, not JSON
    refused(game, python_keys, f"{at}[2]: the name 1 is not a string")
    frames_with_params = [(i, f) for i, f in enumerate(data["stack"]) if any(k[0] != "@" for k in f[2])]
    for i, f in frames_with_params[:2]:
        key = next(k for k in f[2] if k[0] != "@")
        refused(game, tampered(data, lambda d: d["stack"][i][2].pop(key)), f"stack[{i}][2]: the parameter")
        refused(game, tampered(data, lambda d: d["stack"][i][2].__setitem__(key, 3.5)),
                f"stack[{i}][2][{key!r}]: 3.5 is not")
    if top > 0:               # a frame below the top waits where a call returns, or at its start
        lower = data["stack"][top - 1]
        waits = game._state_validator.returns.get(lower[0], set()) | {0}
        elsewhere = [b for b in range(len(game._procs[lower[0]])) if b not in waits]
        if elsewhere:
            refused(game, tampered(data, lambda d: d["stack"][top - 1].__setitem__(1, elsewhere[0])),
                    f"stack[{top - 1}][1]: ", "never waits")


@pytest.mark.parametrize("value", [-1, 2 ** 64, 1.5, "12", True, None, [1]])
def test_a_garbage_generator_state_is_refused(mid, value):
    game, s, data = mid
    refused(game, tampered(data, lambda d: d.__setitem__("rng", value)), "rng: not a 64-bit state")


@pytest.mark.parametrize("value", [3, -1, "0", True, None, 0.0])
def test_an_unknown_phase_is_refused(mid, value):
    game, s, data = mid
    refused(game, tampered(data, lambda d: d.__setitem__("phase", value)), "phase: ")


def test_a_game_over_with_a_decision_pending_is_refused(mid):
    game, s, data = mid
    refused(game, tampered(data, lambda d: d.__setitem__("phase", 2)), "phase: the game is over")
    over = tampered(data, lambda d: d.update(phase=2, pending=None))
    refused(game, over, "phase: the game is over")


@pytest.mark.parametrize("key", ["v", "stack", "pending", "rng", "phase"])
def test_a_deleted_key_is_named(mid, key):
    game, s, data = mid
    refused(game, tampered(data, lambda d: d.pop(key)), f"{key}: missing")


@pytest.mark.parametrize("change, words", [
    (lambda d: d.pop("format"), "not a Regola saved state"),
    (lambda d: d.update(format="regola-state/2"), "not a Regola saved state"),
    (lambda d: d.update(players=str(d["players"])), "players"),
    (lambda d: d.update(players=float(d["players"])), "players"),
    (lambda d: d.update(modules="advanced"), "modules"),
    (lambda d: d.pop("modules"), "modules"),
    (lambda d: d.update(fingerprint=None), "fingerprint"),
    (lambda d: d.update(game=["x"]), "state of"),
])
def test_the_identity_of_a_save_is_checked(mid, change, words):
    game, s, data = mid
    refused(game, tampered(data, change), words)


@pytest.mark.parametrize("data", [None, [], "x", 5, {"format": "regola-state/1"}])
def test_something_else_than_a_save_is_refused(mid, data):
    game = mid[0]
    with pytest.raises(StateError):
        game.load(data)


@pytest.mark.parametrize("rules", ["tic-tac-toe", "connect-four"])
def test_a_decision_without_a_legal_move_cannot_be_resumed(rules):
    game = load_game(rules, players=2)
    data = json.loads(json.dumps(game.dump(game.new_initial_state(1))))
    board = next(i for i, vs in enumerate(game.vars) if vs.kind == "grid")
    data["v"][board] = [0] * len(data["v"][board])            # a full board, and still a mark to make
    refused(game, data, "the saved decision cannot be resumed: it has no legal move")


def test_a_decision_whose_moves_cannot_be_listed_is_refused(mid, monkeypatch):
    game, s, data = mid
    def broken(S, F):
        return [][F[2]["@no_such_local"]]
    funcs = list(game._site_funcs)
    funcs[data["pending"][0]] = broken
    monkeypatch.setattr(game, "_site_funcs", funcs)
    refused(game, data, "the saved decision cannot be resumed: KeyError")


# ----------------------------------------------------------------------- random tampering

HOSTILE = [3.5, -1, 0, 1, 99, 10 ** 30, 2 ** 64, "x", "", None, True, False, [], [0], {}, {"a": 1},
           [[[[0]]]], -(2 ** 53) - 1]


def _places(x, path=()):
    """Every (container, key) in a save, depth first."""
    if isinstance(x, dict):
        for k, y in x.items():
            yield x, k, path + (k,)
            yield from _places(y, path + (k,))
    elif isinstance(x, list):
        for i, y in enumerate(x):
            yield x, i, path + (i,)
            yield from _places(y, path + (i,))


def test_random_tampering_is_refused_or_plays_on_within_the_rules(mid):
    """Seeded random changes anywhere in a save: load refuses with a StateError, or the state
    it loads answers every question and plays on, failing only as the rules may."""
    game, s, data = mid
    rng = random.Random(game.name)
    for attempt in range(300):
        bad = copy.deepcopy(data)
        places = [p for p in _places(bad) if p[2][0] not in ("format", "game", "players", "modules", "fingerprint")]
        container, key, path = places[rng.randrange(len(places))]
        how = rng.random()
        if how < 0.1 and isinstance(container, list):
            container.pop(key)
        elif how < 0.15 and isinstance(container, dict):
            del container[key]
        elif how < 0.3 and isinstance(container[key], int) and not isinstance(container[key], bool):
            container[key] += rng.choice([-1, 1, 2, 7])
        else:
            container[key] = copy.deepcopy(rng.choice(HOSTILE))
        try:
            loaded = game.load(bad)
        except StateError:
            continue
        _answers_and_plays_on(game, loaded, rng, path)


def _answers_and_plays_on(game, s, rng, path):
    try:
        for p in [None] + list(range(game.num_players)):
            game.observe(s, p)
        json.dumps(game.dump(game.clone(s)))
        if not game.is_terminal(s):
            game.decision(s)
            if not game.is_chance(s):
                for m in game.legal_moves(s):
                    game.move_str(s, m)
                    game.move_id(s, m)
        random_moves(game, s, rng, 40)
    except RulesRuntimeError:
        pass
    except Exception as e:  # noqa: BLE001
        if any(isinstance(k, str) and k.startswith("@") for k in path):
            return        # the compiler's temporaries are checked for their shape only (docs/engine.md)
        raise AssertionError(f"a save changed at {path} loaded, then {type(e).__name__}: {e}") from e


# ----------------------------------------------------------------------- moves

def test_only_moves_of_the_games_own_form_are_accepted(mid):
    game, s, data = mid
    s = game.clone(s)
    before = game.dump(s)
    for bad in (True, False, [0, 0], [], None, 1.0, {"move": 1}, b"pass", object()):
        with pytest.raises(IllegalMove) as ei:
            game.apply(s, bad)
        assert "a move is a tuple from legal_moves" in str(ei.value), bad
    assert game.dump(s) == before
    numpy = pytest.importorskip("numpy")
    m = game.legal_moves(s)[0]
    c = game.clone(s)
    game.apply(c, numpy.int64(game.move_id(s, m)))            # an id from an adapter
    game.apply(s, m)
    assert game.dump(c) == game.dump(s)


# ----------------------------------------------------------------------- logs

def run(capsys, *args):
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.fixture(scope="module")
def good_log(tmp_path_factory):
    d = tmp_path_factory.mktemp("logs")
    assert main(["simulate", "tic-tac-toe", "--games", "1", "--seed", "2", "--log", str(d)]) == 0
    return next(d.glob("*.jsonl")).read_text().splitlines()


def _lines(good, header=None, entry=None, at=1):
    lines = list(good)
    if header is not None:
        lines[0] = json.dumps(dict(json.loads(lines[0]), **header))
    if entry is not None:
        lines[at] = json.dumps(dict(json.loads(lines[at]), **entry))
    return "\n".join(lines) + "\n"


def _broken_logs(good):
    yield "", "empty file"
    yield "\n  \n\n", "only blank lines"
    yield good[0][:40], "not valid JSON"
    yield "\n".join(good)[:-5], "not valid JSON"
    yield '{"format": "regola-state/1", "v": []}\n', "each line must be a JSON object with a 'type'"
    yield '{"type": "header", "format": "other"}\n', "header of format regola-log/1"
    yield _lines(good, header={"players": "2"}), ":1: the header's 'players' must be"
    yield _lines(good, header={"players": True}), ":1: the header's 'players' must be"
    yield _lines(good, header={"seed": "7"}), ":1: the header's 'seed' must be an integer"
    yield _lines(good, header={"rules": ["tic-tac-toe"]}), ":1: the header's 'rules' must be"
    yield _lines(good, header={"with": "x"}), ":1: the header's 'with' must be a list of names"
    yield _lines(good, header={"modules": [1]}), ":1: the header's 'modules' must be a list of names"
    yield _lines(good, header={"fingerprint": 5}), ":1: the header's 'fingerprint' must be a string"
    yield _lines(good, entry={"player": "x"}), ":2: the move's 'player' must be a seat from 1 to 2, not \"x\""
    yield _lines(good, entry={"player": 3}), ":2: the move's 'player' must be a seat"
    yield _lines(good, entry={"move": None}), ":2: the move's 'move' must be"
    yield _lines(good, entry={"id": "3"}), ":2: the move's 'id' must be"
    yield _lines(good, entry={"type": "jump"}), ":2: unknown line type"
    yield good[0] + "\n" + '{"type": "chance", "outcome": 3}\n', ":2: the chance's 'outcome' must be"
    yield good[0] + "\n" + '{"type": "chance"}\n', ":2: the chance has no 'outcome'"
    yield good[0] + "\n" + "[" * 50_000 + "]" * 50_000 + "\n", ":2: not a log line (nested too deeply)"
    yield good[0] + "\n" + '{"type": "move", "move": "' + "x" * 1_100_000 + '"}\n', ":2: a line of"
    yield good[0] + "\n" + '{"type": "move", "id": ' + "9" * 5000 + "}\n", ":2: not a log line"
    yield "\n".join(good + [good[1]]) + "\n", "after the end of the game"


def test_broken_logs_say_what_is_wrong(tmp_path, good_log):
    for n, (text, says) in enumerate(_broken_logs(good_log)):
        p = tmp_path / f"broken{n}.jsonl"
        p.write_text(text)
        with pytest.raises(LogError) as ei:
            read_log(p)
        assert says in str(ei.value), (says, str(ei.value))


def test_regola_replay_of_a_broken_log_exits_1_without_a_traceback(tmp_path, capsys, good_log):
    cases = list(_broken_logs(good_log))
    binary = tmp_path / "binary.jsonl"
    binary.write_bytes(b"\x00\xff\xfe{")
    for n, (text, says) in enumerate(cases[:4] + cases[12:15]):
        p = tmp_path / f"broken{n}.jsonl"
        p.write_text(text)
        code, out, err = run(capsys, "replay", str(p))
        assert code == 1 and says in err and "Traceback" not in err, err
    code, out, err = run(capsys, "replay", str(binary))
    assert code == 1 and "not UTF-8" in err
    code, out, err = run(capsys, "replay", str(tmp_path))
    assert code == 1 and "not a file" in err


def test_a_log_with_unknown_fields_replays(tmp_path, capsys, good_log):
    lines = [json.dumps(dict(json.loads(line), note="kept by another tool")) for line in good_log]
    p = tmp_path / "extra.jsonl"
    p.write_text("\n".join(lines) + "\n")
    code, out, err = run(capsys, "replay", str(p))
    assert code == 0, err
    assert "verified" in out
