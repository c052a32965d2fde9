"""Helpers for tests that write a small game into a temporary directory and load it."""

from __future__ import annotations

import textwrap

from regola.loader import check_rules, load_game


def write(tmp_path, text, name="game", files=None):
    """A game directory: `text` as game.regola, plus module files {name: text}."""
    d = tmp_path / name
    d.mkdir()
    (d / "game.regola").write_text(textwrap.dedent(text), encoding="utf-8")
    for mod, body in (files or {}).items():
        (d / f"{mod}.regola").write_text(textwrap.dedent(body), encoding="utf-8")
    return d


def load(tmp_path, text, players=2, modules=(), name="game", files=None):
    return load_game(str(write(tmp_path, text, name, files)), players=players, modules=list(modules))


def diagnostics(tmp_path, text, name="game", files=None):
    return check_rules(str(write(tmp_path, text, name, files))).diagnostics


def errors(tmp_path, text, name="game", files=None):
    return [d for d in diagnostics(tmp_path, text, name, files) if d.is_error]


def line_of(text, needle):
    """1-based line of the first line of the dedented rules text containing needle."""
    lines = textwrap.dedent(text).splitlines()
    return next(i for i, line in enumerate(lines, 1) if needle in line)


def moves(game, s):
    """The canonical strings of the legal moves."""
    return [game.move_str(s, m) for m in game.legal_moves(s)]


def trace(game, s):
    """The global variable 'trace' as a spectator sees it."""
    return game.observe(s, None)["state"]["trace"]


def random_moves(game, s, rng, limit=None) -> int:
    """Play random moves (chance from the seed) until the game ends or `limit` steps."""
    n = 0
    while not game.is_terminal(s) and (limit is None or n < limit):
        if game.is_chance(s):
            game.step_chance(s)
        else:
            ms = game.legal_moves(s)
            game.apply(s, ms[rng.randrange(len(ms))])
        n += 1
    return n


def assert_save_and_load_continue_identically(game, seed, cut_range):
    """Play to a random point, save to JSON and load, then finish both games with the same
    random moves: they must end identically."""
    import json
    import random
    s = game.new_initial_state(seed)
    rng = random.Random(seed)
    random_moves(game, s, rng, rng.randrange(*cut_range))
    loaded = game.load(json.loads(json.dumps(game.dump(s))))
    random_moves(game, s, random.Random(seed + 99))
    random_moves(game, loaded, random.Random(seed + 99))
    assert game.dump(s) == game.dump(loaded)
    assert game.scores(s) == game.scores(loaded)


def call_outcome(src: str, name: str, namespace: dict, *args):
    """Run function `name` of Python source `src` (its globals: a copy of `namespace`):
    ("ok", its value) or ("raise", the error's type name), to compare a rewrite with the
    original."""
    ns = dict(namespace)
    exec(src, ns)
    try:
        return "ok", ns[name](*args)
    except Exception as e:  # noqa: BLE001
        return "raise", type(e).__name__


def rewrite_source(src: str, transform) -> str:
    """Python source (4-space indents) through a codegen pass on Lines, back as source."""
    from regola.codegen.lines import Lines, Module
    lines = Lines()
    for raw in src.strip("\n").splitlines():
        stripped = raw.lstrip(" ")
        lines.add((len(raw) - len(stripped)) // 4, stripped, None)
    m = Module()
    m.add_lines(transform(lines))
    return m.source()


class SoakReader:
    """A soak test's rules-language expressions compiled once against a game: `fns` reads
    values (READ), `always` and `playing` are invariants, `active[k]` those of seat k+1
    (ACTIVE, with {k} for the seat)."""

    def __init__(self, game, read: dict, invariants, playing=(), active=()):
        from regola.snippets import SnippetCompiler
        sc = SnippetCompiler(game)
        self.fns = {k: sc.expression(v) for k, v in read.items()}
        self.always = [(n, sc.expression(t)) for n, t in invariants]
        self.playing = [(n, sc.expression(t)) for n, t in playing]
        self.active = [[(n, sc.expression(t.format(k=k + 1))) for n, t in active]
                       for k in range(game.num_players)]


def function_source(game, name: str) -> str:
    """The generated text of one top-level function of `game` (its `def` line to the next)."""
    src = game.source[game.source.index(f"def {name}("):]
    end = src.find("\ndef ")
    return src if end < 0 else src[:end]


def play_alike(fast, plain, seeds) -> None:
    """Random games on two compilations of the same rules (the optimised and the plain):
    the same legal moves at every decision, the same scores at the end."""
    import random
    for seed in seeds:
        rng = random.Random(seed)
        a, b = fast.new_initial_state(seed), plain.new_initial_state(seed)
        while not fast.is_terminal(a):
            ms = fast.legal_moves(a)
            assert ms == plain.legal_moves(b)
            m = rng.choice(ms)
            fast.apply(a, m)
            plain.apply(b, m)
        assert plain.is_terminal(b) and fast.scores(a) == plain.scores(b)
