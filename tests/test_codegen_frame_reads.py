"""A block's frame reads kept in Python locals (interpreter/codegen/frame_reads.py): the same
values, writes and errors as reading the frame each time."""

from __future__ import annotations

import random
import textwrap

from regola.codegen.frame_reads import cache_frame_reads


def _rewrite(src: str) -> str:
    lines = textwrap.dedent(src).strip("\n").splitlines()
    func = [((len(x) - len(x.lstrip(" "))) // 4, x.strip(), None) for x in lines]
    return "\n".join("    " * ind + text for ind, text, _ in cache_frame_reads(func))


def _run(src: str, frame: dict):
    ns: dict = {}
    exec(src, ns)
    L = dict(frame)
    out: list = []
    try:
        r = ns["M"](L, out)
        return "ok", r, L, out
    except Exception as e:  # noqa: BLE001
        return "raise", type(e).__name__, L, out


LOOP = """
def M(L, out):
    _l = L['items']
    while L['ix'] < len(_l):
        L['k'] = _l[L['ix']]; L['ix'] += 1
        if L['k'] != 5:
            out.append((L['g'] > 0) and L['g'] * 2)
            n = L['g'] + L['k']
            out.append(L['g'] - n + L['k'])
    del L['ix']
    return L['g']
"""


def test_a_loop_reads_what_it_never_writes_once_a_pass_and_keeps_what_it_writes():
    new = _rewrite(LOOP)
    # 'g' read in any case by the and's first operand: one local from there, also for the
    # second operand (which reads it only sometimes, but after the first)
    assert "_fr2 = L['g']\n            out.append((_fr2 > 0) and _fr2 * 2)" in new
    assert "L['k'] = _fr1 = _l[L['ix']]" in new and "if _fr1 != 5" in new
    assert "while L['ix'] < len(_l)" in new          # written in the loop: read each time
    frame = {"items": [1, 5, 3], "ix": 0, "g": 4}
    assert _run(new, frame) == _run(LOOP, frame)


def test_a_read_only_some_paths_make_is_not_moved_before_them():
    src = """
    def M(L, out):
        if out:
            out.append(L['x'])
        out.append(L['x'] if L['y'] else 0)
        return L['x'] if L['y'] else 1
    """
    new = _rewrite(src)
    assert "= L['x']" not in new                   # never read in any case: no local
    for frame in ({"y": 0}, {"y": 1, "x": 2}):
        assert _run(new, frame) == _run(textwrap.dedent(src), frame)


def test_after_a_write_in_a_try_the_handler_reads_the_frame():
    src = """
    def M(L, out):
        out.append(L['a'] + L['a'])
        try:
            L['a'] = L['b'] + 1
            out.append(L['missing'])
        except KeyError:
            out.append(L['a'])
        return L['a']
    """
    new = _rewrite(src)
    assert "_fr1 = L['a']" in new
    handler = new[new.index("except KeyError"):]
    assert "out.append(L['a'])" in handler
    frame = {"a": 1, "b": 10}
    assert _run(new, frame) == _run(textwrap.dedent(src), frame) == ("ok", 11, {"a": 11, "b": 10}, [2, 11])


def test_a_lambda_reads_the_frame_when_it_runs():
    src = """
    def M(L, out):
        f = lambda: L['a'] * 10
        out.append(L['a'] + L['a'])
        L['a'] = 5
        out.append(f() + L['a'])
        return L['a']
    """
    new = _rewrite(src)
    assert "lambda: L['a'] * 10" in new and "_fr" in new
    assert _run(new, {"a": 1}) == _run(textwrap.dedent(src), {"a": 1}) == ("ok", 5, {"a": 5}, [2, 55])


def test_a_frame_used_otherwise_is_left_alone():
    src = """
    def M(L, out):
        out.append(L['a'] + L['a'])
        out.append(len(L))
        return L['a']
    """
    assert _rewrite(src) == textwrap.dedent(src).strip("\n")


# random blocks: statements that read, write, pop and delete frame variables under branches,
# loops and handlers; the rewritten block must leave the same frame, output, value or error
_KEYS = ["a", "b", "c"]


def _expr(rng, depth=2):
    k = rng.random()
    key = rng.choice(_KEYS)
    if depth <= 0 or k < 0.35:
        return rng.choice([f"L['{key}']", f"L['{key}']", "x", str(rng.randrange(0, 4))])
    if k < 0.55:
        return f"({_expr(rng, depth - 1)} + {_expr(rng, depth - 1)})"
    if k < 0.7:
        return f"({_expr(rng, depth - 1)} if {_expr(rng, depth - 1)} else {_expr(rng, depth - 1)})"
    if k < 0.85:
        return f"({_expr(rng, depth - 1)} {rng.choice(['and', 'or'])} {_expr(rng, depth - 1)})"
    return f"[{_expr(rng, depth - 1)} for _q in range(2) if _q]"


def _stmts(rng, ind, depth, n):
    out = []
    for _ in range(n):
        k = rng.random()
        key = rng.choice(_KEYS)
        pad = "    " * ind
        if depth <= 0 or k < 0.45:
            out.append(pad + rng.choice([
                f"L['{key}'] = {_expr(rng)}",
                f"L['{key}'] += 1",
                f"x = {_expr(rng)}",
                f"out.append({_expr(rng)})",
                f"L.pop('{key}', None)",
                f"del L['{key}']",
                f"out.append({_expr(rng)}); L['{key}'] = {_expr(rng)}",
                f"if {_expr(rng)}: out.append({_expr(rng)})",
            ]))
        elif k < 0.65:
            out.append(pad + f"if {_expr(rng)}:")
            out += _stmts(rng, ind + 1, depth - 1, rng.randrange(1, 4))
            if rng.random() < 0.5:
                out.append(pad + "else:")
                out += _stmts(rng, ind + 1, depth - 1, rng.randrange(1, 3))
        elif k < 0.8:
            n = f"n{ind}"                   # a counter of its own per depth: at most 2 passes
            out.append(pad + f"{n} = 0")
            out.append(pad + f"while {n} < 2 and {_expr(rng, 1)}:")
            out.append(pad + f"    {n} += 1")
            out += _stmts(rng, ind + 1, depth - 1, rng.randrange(1, 4))
        elif k < 0.9:
            out.append(pad + f"for _v in [{_expr(rng, 1)}, {_expr(rng, 1)}]:")
            out += _stmts(rng, ind + 1, depth - 1, rng.randrange(1, 3))
        else:
            out.append(pad + "try:")
            out += _stmts(rng, ind + 1, depth - 1, rng.randrange(1, 4))
            out.append(pad + "except (KeyError, TypeError):")
            out += _stmts(rng, ind + 1, depth - 1, rng.randrange(1, 3))
    return out


def test_random_blocks_leave_the_same_frame_output_and_errors():
    rng = random.Random(5)
    rewritten = 0
    for case in range(1500):
        body = _stmts(rng, 1, 3, rng.randrange(2, 7))
        src = "def M(L, out):\n    x = 0\n" + "\n".join(body) + f"\n    return {_expr(rng)}\n"
        new = _rewrite(src)
        compile(new, "<new>", "exec")
        rewritten += new != src.strip("\n")
        for _ in range(5):
            frame = {k: rng.randrange(0, 3) for k in _KEYS if rng.random() < 0.8}
            assert _run(new, frame) == _run(src, frame), (src, new, frame)
    assert rewritten > 300
