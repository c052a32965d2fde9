"""Copy-on-write clones (runtime/sharing.py): a clone shares its containers with the state it
was made from until either changes one. What the runner copies before each block is read from
the generated code; these tests check that reading on small made-up functions (every way the
generated code changes a container) and, on every bundled game, that a clone and its parent
never see each other's moves."""

from __future__ import annotations

import json
import random
import textwrap

import pytest

from regola.loader import load_game
from regola.runtime import sharing as sharing_module
from regola.runtime.sharing import ALL, TooLong, block_changes

# slot k nests DEPTHS[k] deep: 0 a plain value, 1 a list, 2 a list of lists
DEPTHS = [0, 1, 1, 2, 2, 1, 3, 0]


def changes(src: str) -> dict:
    return block_changes(textwrap.dedent(src), DEPTHS)


@pytest.mark.parametrize("body, expected", [
    ("_o = V[1]; _o[me] = 3", {1}),
    ("V[3][me][2] += 1", {3}),
    ("_z = V[4][me]; _z[:] = [x for x in _z if x is not None]", {4}),
    ("del V[2][0]", {2}),
    ("V[5].append(me)", {5}),
    ("V[3][me].pop()", {3}),
    ("_remove(V[4][me], 1, None)", {4}),          # a helper that changes what it is given
    ("x = sum(V[4][me]) + len(V[2]) + max(V[1])", set()),   # helpers that only read
    ("_o = V[1]; n = _o[me]; n += 1", set()),     # a number read out of a list
    ("V[0] = 5; V[7] = V[7] + [me]", set()),      # plain values are replaced, not changed
    ("_o = V[1]; _o = []; _o.append(1)", set()),  # bound again: no longer slot 1's list
    ("for row in V[3]: row[0] = 1", {3}),
    ("for row in V[6]:\n    for cell in row: cell.append(1)", {6}),
    ("x = V[1] if me else V[2]; x[0] = 1", {1, 2}),
    ("(_z := V[5])[0] = 1", {5}),
    ("if me: x = V[2]\nelse: x = []\nx.append(1)", {2}),
    ("for i in range(3):\n    if i: x.append(1)\n    x = V[1]", {1}),       # the loop comes round
    ("x = []\nfor i in range(3):\n    x = V[2]\n    break\nx.append(1)", {2}),    # out by a break
    ("x = []\nwhile me:\n    x = V[5]\n    if me: continue\n    x = []\nx.append(1)", {5}),
    ("try:\n    x = V[2]\n    x = []\nexcept ValueError:\n    x.append(1)", {2}),  # left anywhere
    ("out = []; out.append(V[3][me]); out[0].append(1)", {3}),   # held by a list
    ("V[me][0] = 1", ALL),                        # a slot chosen at run time
    ("unknown(V)", ALL),
    ("unknown(S)", ALL),
    ("S.stack.append([1, 0, {}, me]); S.pending = [0, me]; S.cache = []", set()),
])
def test_what_a_block_changes(body, expected):
    src = "def M0_0(S, F):\n    V = S.v; L = F[2]; me = F[3]\n" + textwrap.indent(body, "    ") + "\n"
    got = changes(src)["M0_0"]
    assert got == (ALL if expected is ALL else frozenset(expected)), body


def test_changes_through_the_functions_a_block_names():
    got = changes("""
        def D_hand(V, me, p):
            return V[3][p]
        def A_take(S, me):
            V = S.v
            D_hand(V, me, me).append(1)
        def P_give(S, me):
            V = S.v
            SPEND(V, me)
        def SPEND(V, me):
            V[4][me][0] -= 1
        def M0_0(S, F):
            A_take(S, F[3])
            return -1
        def M0_1(S, F):
            P_give(S, F[3])
            return -1
        def M0_2(S, F):
            return D_hand(S.v, 0, 0)[0]
    """)
    assert got["A_take"] == {3}                 # a container a function returned
    assert got["M0_0"] == {3} and got["M0_1"] == {4}
    assert got["M0_2"] == frozenset()             # reads only


def test_a_piles_kinds_walked_in_c_hold_nothing_of_the_pile():
    """`_compress(_KINDS, counts)` (codegen/pile_walks.py) gives numbers: what a def makes of
    them holds nothing of the state, so changing it changes no slot."""
    got = changes("""
        def D_kinds(V, me, p):
            out = []
            for k in _compress(_KINDS, V[4][p]):
                out.append(k)
            return out
        def M0_0(S, F):
            D_kinds(S.v, 0, 0).append(1)
            return -1
    """)
    assert got["M0_0"] == frozenset()


def test_a_container_kept_in_a_frame_counts_for_every_block():
    got = changes("""
        def M0_0(S, F):
            V = S.v; L = F[2]
            L['h'] = V[2]
            return 1
        def M0_1(S, F):
            L = F[2]
            L['h'].append(1)
            return -1
        def M0_2(S, F):
            L = F[2]
            L['n'] = 3
            return -1
    """)
    assert got["M0_1"] == {2}
    assert got["M0_0"] == frozenset()


@pytest.fixture
def sharing():
    """Games whose clones share lists whatever their size (loaded games are cached: each
    goes back to deciding for itself afterwards)."""
    made = []

    def load(rules, players, modules=()):
        game = load_game(rules, players=players, modules=list(modules))
        game._share_clones(True)
        made.append(game)
        return game
    yield load
    for game in made:
        game._sharing = None


def _dump(game, s) -> str:
    return json.dumps(game.dump(s), sort_keys=True)


def _step(game, s, rng) -> None:
    if s.pending[1] == -1:
        game.step_chance(s)
    else:
        ms = game.legal_moves(s)
        game.apply(s, ms[rng.randrange(len(ms))])


CONFIGS = [
    ("lungarno", 4, []),
    ("lions-of-lydia", 4, ["croesus", "pactolus", "craftsmen", "courtyards", "tomb", "builders",
                           "chariot_race"]),
    ("lions-of-lydia", 2, []),
    ("lorenzo-il-magnifico", 4, ["advanced", "leaders"]),
    ("lorenzo-il-magnifico", 5, ["leaders", "houses_of_renaissance"]),
    ("connect-four", 2, []),
    ("tic-tac-toe", 2, []),
    ("cant-stop", 3, []),
    ("hanabi", 3, []),
    ("love-letter", 4, []),
    ("sushi-go", 4, []),
]


@pytest.mark.parametrize("rules, players, modules", CONFIGS, ids=[f"{c[0]}-{c[1]}p" for c in CONFIGS])
def test_a_clone_and_its_parent_never_see_each_others_moves(sharing, rules, players, modules):
    """At every decision of a game: a clone plays a few steps and the parent is unchanged;
    the game goes on (sometimes on a clone of itself) and the clones made before are
    unchanged; and it plays exactly as the same game played with no clone at all."""
    game = sharing(rules, players, modules)      # (a small game's clones would copy everything)
    rng = random.Random(7)
    s = game.new_initial_state(11)
    plain = game.new_initial_state(11)
    clones = []
    while s.pending is not None:
        before = _dump(game, s)
        c = game.clone(s)
        for _ in range(rng.randrange(1, 4)):
            if c.pending is None:
                break
            _step(game, c, rng)
        assert _dump(game, s) == before
        clones.append((c, _dump(game, c)))
        k = rng.random()
        if s.pending[1] == -1:
            game.step_chance(s)
            game.step_chance(plain)
        else:
            moves = game.legal_moves(s)
            game.apply(s, moves[int(k * len(moves))])
            game.apply(plain, game.legal_moves(plain)[int(k * len(moves))])
        if rng.random() < 0.1:
            s = game.clone(s)
        for c, was in clones[-4:]:
            assert _dump(game, c) == was
    assert _dump(game, s) == _dump(game, plain)


def test_a_tree_of_clones_plays_the_games_of_plain_playouts():
    """Every step on a fresh clone of the state before it (as a tree search walks) gives the
    game that playing straight on gives, for many seeds."""
    game = load_game("lions-of-lydia", players=3)
    assert game.clone(game.new_initial_state(0)).own == 0     # its clones share
    for seed in range(5):
        rng_a, rng_b = random.Random(seed), random.Random(seed)
        a = game.new_initial_state(seed)
        b = game.new_initial_state(seed)
        keep = []
        while a.pending is not None:
            _step(game, a, rng_a)
            keep.append(b)                 # every state of the line stays alive, sharing
            b = game.clone(b)
            _step(game, b, rng_b)
        assert _dump(game, a) == _dump(game, b) and game.scores(a) == game.scores(b)


def test_the_copy_plans_kept_are_bounded_and_a_full_table_changes_nothing(monkeypatch):
    """The runner keeps one plan of copies per mask of missing lists, up to a bound: past it
    the plans are made each time, and the games are the same."""
    from regola.runtime import runner
    game = load_game("lions-of-lydia", players=3)
    rng_a, rng_b = random.Random(7), random.Random(7)
    a, b = game.new_initial_state(7), game.new_initial_state(7)
    while a.pending is not None:
        _step(game, a, rng_a)
        b = game.clone(b)
        _step(game, b, rng_b)
    plans = len(game._own_plans)
    assert 0 < plans <= runner._OWN_PLANS
    assert all(plan == tuple(sorted(plan)) and all(callable(copy) for _, copy in plan)
               for plan in game._own_plans.values())
    monkeypatch.setattr(runner, "_OWN_PLANS", 0)
    game._own_plans.clear()
    rng_c = random.Random(7)
    c = game.new_initial_state(7)
    while c.pending is not None:
        c = game.clone(c)
        _step(game, c, rng_c)
    assert not game._own_plans and _dump(game, a) == _dump(game, b) == _dump(game, c)


def test_detach_lets_code_change_a_state_directly(sharing):
    game = sharing("lungarno", 3)
    s = game.new_initial_state(0)
    c = game.clone(s)
    florins = game.compiled.slots[".florins"]
    game.detach(c)
    c.v[florins][0] += 100
    assert s.v[florins][0] + 100 == c.v[florins][0]
    assert c.own is None


def test_small_states_are_copied_whole():
    """Lungarno's state holds 16 lists: a clone copies them (cheaper than keeping track)."""
    game = load_game("lungarno", players=5, options={})
    s = game.new_initial_state(0)
    c = game.clone(s)
    assert c.own is None and s.own is None and not game._sharing
    assert all(a is not b for a, b in zip(s.v, c.v) if isinstance(a, list))


def test_code_too_long_to_read_is_given_up(monkeypatch):
    """Past STEP_LIMIT statements read (loops are read more than once) the reading stops,
    and clones copy whole, rather than let a huge rules file make the first clone hang."""
    body = "".join(f"    for x{i} in range(2):\n        y = V[{1 + i % 2}]\n" for i in range(40))
    source = "def M0_0(S, F):\n    V = S.v\n" + body
    assert changes(source)["M0_0"] == frozenset()
    monkeypatch.setattr(sharing_module, "STEP_LIMIT", 100)
    with pytest.raises(TooLong):
        changes(source)


def test_a_game_whose_code_is_too_long_to_read_copies_whole(monkeypatch):
    game = load_game("lions-of-lydia", players=2)
    saved = game._sharing, game._needs
    monkeypatch.setattr(sharing_module, "STEP_LIMIT", 10)
    try:
        game._sharing, game._needs = None, None
        s = game.new_initial_state(0)
        c = game.clone(s)
        assert game._sharing is False and c.own is None and s.own is None
        # a state that shares anyway (cloned by another Game of these rules, say) owns all
        # of its lists at its first block
        game._sharing = True
        c = game.clone(s)
        _step(game, c, random.Random(0))
        assert c.own is None and all(a is not b for a, b in zip(s.v, c.v) if isinstance(a, list))
    finally:
        game._sharing, game._needs = saved
        game._owning = None
