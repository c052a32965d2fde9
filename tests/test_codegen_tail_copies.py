"""Jumps to small blocks written as those blocks' lines (codegen/tail_copies.py): the unit
does what the runner would have done block by block, jumps the copy cannot stand for are
left to the runner, and games play as the plain compilation plays them."""

from __future__ import annotations

import random

from regola.codegen.lines import Lines
from regola.codegen.tail_copies import COPY_LINES, copy_small_jump_targets
from regola.loader import load_game
from rules_helpers import play_alike, write


def _blocks(*texts: str) -> list[Lines]:
    out = []
    for text in texts:
        b = Lines()
        for line in text.strip("\n").splitlines():
            stripped = line.lstrip(" ")
            b.add(1 + (len(line) - len(stripped)) // 4, stripped)
        out.append(b)
    return out


def _functions(blocks: list[Lines]) -> list:
    src = []
    for i, b in enumerate(blocks):
        src.append(f"def B{i}(S, F):")
        src.append("    L = F[2]")
        src += ["    " * ind + text for ind, text, _ in b.items]
    ns: dict = {"M9_0": lambda S, F: -1}
    exec("\n".join(src) + "\n", ns)
    return [ns[f"B{i}"] for i in range(len(blocks))]


def _run(funcs, frame: dict, limit: int = 200):
    """The runner's loop for one frame: (the trace of frames at each return, the outcome)."""
    F = [0, 0, frame, None]
    r, trace = 0, []
    for _ in range(limit):
        try:
            r = funcs[r](None, F)
        except Exception as e:  # noqa: BLE001
            return trace, ("raise", type(e).__name__, str(e))
        trace.append(dict(frame))
        if r < 0:
            return trace[-1:], ("return", r, F[1])
    return trace[-1:], ("steps", r)


UNIT = ("""
L['n'] = L.get('n', 0) + 1
if L['n'] > L['stop']: return -1
if L['mode'] == 0: return 1
elif L['mode'] == 1: L['x'] = 7; return 2
else: return 3
""", """
L['a'] = L.get('a', 0) + L['n']
if L['a'] > 20: F[1] = 0; return -2
return 2
""", """
_l = L['items']; _ix = 0
while _ix < len(_l):
    v = _l[_ix]; _ix += 1
    if v < 0: continue
    if v > 5: L['big'] = v; break
L['mode'] = (L['mode'] + 1) % 4
return 0
""", """
try:
    L['q'] = 10 // L['d']
except ZeroDivisionError:
    L['q'] = None; return 2
L['d'] -= 1
return 0
""")


def test_copies_do_what_the_runner_does_block_by_block():
    rng = random.Random(5)
    plain = _blocks(*UNIT)
    copied = _blocks(*UNIT)
    copy_small_jump_targets(copied)
    assert "return 1" not in [t for _, t, _ in copied[0].items]          # block 1 copied into 0
    assert any(t == "if L['mode'] == 0:" for _, t, _ in copied[0].items)
    f_plain, f_copied = _functions(plain), _functions(copied)
    for _ in range(300):
        frame = {"stop": rng.randint(0, 12), "mode": rng.randint(0, 3), "d": rng.randint(-1, 3),
                 "items": [rng.randint(-3, 8) for _ in range(rng.randint(0, 5))]}
        a = _run(f_plain, dict(frame))
        b = _run(f_copied, dict(frame))
        assert a[1] == b[1] or (a[1][0] == b[1][0] == "steps"), (frame, a, b)
        if a[1][0] != "steps":
            assert a[0] == b[0]


def test_jumps_a_copy_cannot_stand_for_stay():
    long_block = "\n".join(f"L['k{i}'] = {i}" for i in range(COPY_LINES)) + "\nreturn -1\n"
    blocks = _blocks("""
try:
    x = 1
    if x: return 1
except ValueError:
    return 1
if L['d'] == {'a': 1}: return 1
if L['e']: return 2
if L['f']: return 3
if L['g']: return 4
return 0
""", "L['one'] = 1\nreturn -1\n", long_block, """
for i in range(3):
    L['i'] = i
continue
""", """
if L['h']: L['z'] = 1
""")
    before = [list(b.items) for b in blocks]
    copy_small_jump_targets(blocks)
    texts = [t for _, t, _ in blocks[0].items]
    # inside the try and its handler: the copy's errors would be caught there
    assert texts[2] == "if x: return 1" and texts[4] == "return 1"
    # the line with a dict's ': ' is split as Python splits it
    assert "if L['d'] == {'a': 1}:" in texts and "return 1" not in texts[5:]
    # too long, a `continue` of no loop of its own, a path that falls off its end; itself
    assert "if L['e']: return 2" in texts and "if L['f']: return 3" in texts and "if L['g']: return 4" in texts
    assert texts[-1] == "return 0"
    assert [list(b.items) for b in blocks[1:]] == before[1:]


def test_only_blocks_that_leave_the_state_alone_are_copied():
    # a clone that shares its lists copies those a block may change before it runs: a copy of
    # a block that changes some would add them to every path of the block it is copied into
    blocks = _blocks("""
if L['a'] == 1: return 1
if L['a'] == 2: return 2
if L['a'] == 3: return 3
if L['a'] == 4: return 4
return 5
""", """
_cF = [9, 0, {}, None]; S.stack.append(_cF); F[1] = 2; _cr = M9_0(S, _cF)
return -1
""", """
A_drop(S, L['p'], 3)
return -1
""", """
_o = V[3]; _o[L['i']] = 1
return -1
""", """
V[2][0].append(5)
return -1
""", """
_p = L['p']; _ms = out = []
G_0_0(S, V, _p, out)
if not _ms: _no_options(0)
if len(_ms) == 1: L['@m'] = _ms[0]; S.record is None or S.record.forced(0, _p, _ms[0]); return 0
del L['@it_9']
L['@p'] = _p; S.pending = [0, _p]; S.cache = _ms; F[1] = 0; return -2
""")
    copy_small_jump_targets(blocks)
    texts = [t for _, t, _ in blocks[0].items]
    assert texts[:4] == ["if L['a'] == 1: return 1", "if L['a'] == 2: return 2", "if L['a'] == 3: return 3",
                         "if L['a'] == 4: return 4"]
    assert "G_0_0(S, V, _p, out)" in texts and "return 5" not in texts


GAME = """
    game g:
        players 2..3
    per player:
        points: int
    global:
        rounds: int
    flow:
        loop:
            rounds += 1
            if rounds > 6:
                end game
            for p in players:
                act p: take | pass_turn
                if p.points > 9:
                    p.points -= 3
    action take(n in range(1, 4)):
        me.points += n
    action pass_turn():
        me.points += 0
    score: me.points
    """


def test_a_game_plays_as_the_plain_compilation_and_saves_at_every_decision(tmp_path):
    path = str(write(tmp_path, GAME))
    for players in (2, 3):
        fast = load_game(path, players=players)
        plain = load_game(path, players=players, optimise=False)
        play_alike(fast, plain, range(8))
        for seed in range(3):
            rng = random.Random(seed)
            s = fast.new_initial_state(seed)
            while not fast.is_terminal(s):
                t = fast.load(fast.dump(s))
                m = rng.choice(fast.legal_moves(s))
                fast.apply(s, m)
                fast.apply(t, m)
                assert fast.dump(t) == fast.dump(s)
