"""`regola crosscheck RULES`: the optimised compilation of a game played side by side with its
plain one, to find a bug of the code generator's rewrites in these rules.

The compiler makes each game's code fast by rewriting it (codegen/: defs inlined, loops
unrolled and constants folded, cell tests dropped, loop invariants remembered, move
tables...). Each rewrite must keep the game exactly as it was. `load_game(...,
optimise=False)` compiles the same rules without any of them; here both play the same
seeded random games, and at every step they must agree on

- the state (variables, who decides, the generator, the stack of rules waiting; only the
  numbers of the compiler's temporaries in a frame may differ),
- the legal moves, in order, and the chance outcomes with their weights,
- why a move that is not legal is refused (a move of an earlier decision at the same site),
- a rules runtime error: both stop, or neither (which of two errors a step meets may differ,
  as expressions may compute their strict operands in another order),
- the final scores and ranking.

The first difference is reported with the seed, the step and the decision; there is nothing
to fix in the rules then: it is a bug of Regola's, to report with the rules file.
"""

from __future__ import annotations

import json
import random
import sys
from dataclasses import dataclass, field
from typing import Callable, Optional

from regola.diagnostics import RulesError
from regola.loader import load_game
from regola.runtime.helpers import RulesRuntimeError
from regola.runtime.moves import IllegalMove

MAX_MOVES = 2_000          # steps of one game before it is cut short (it still counts)
_POOL = 8                  # earlier moves kept per decision site, to try as illegal moves


@dataclass
class Divergence:
    seed: int
    step: int
    where: str              # the decision: who decides, at which rule
    what: str               # what differs
    optimised: str
    plain: str

    def text(self) -> str:
        return (f"game seed {self.seed}, step {self.step} ({self.where}): {self.what}\n"
                f"    optimised: {self.optimised}\n    plain:     {self.plain}")


@dataclass
class CrossReport:
    title: str
    players: int
    modules: list
    games: int = 0
    decisions: int = 0
    chance: int = 0
    refusals: int = 0           # illegal moves whose explanations were compared
    stopped: int = 0            # games both compilations stopped with a rules runtime error
    cut: int = 0                # games cut short at max_moves
    divergence: Optional[Divergence] = None
    plain_error: Optional[str] = None   # the plain compilation could not be made: nothing compared
    seeds: list = field(default_factory=list)

    @property
    def agree(self) -> bool:
        return self.divergence is None and self.plain_error is None

    def as_json(self) -> dict:
        d = {"title": self.title, "players": self.players, "modules": self.modules, "games": self.games,
             "decisions": self.decisions, "chance_events": self.chance, "refusals_compared": self.refusals,
             "stopped_by_rules_errors": self.stopped, "cut_short": self.cut, "agree": self.agree}
        if self.plain_error is not None:
            d["plain_error"] = self.plain_error
        if self.divergence is not None:
            dv = self.divergence
            d["divergence"] = {"seed": dv.seed, "step": dv.step, "where": dv.where, "what": dv.what,
                               "optimised": dv.optimised, "plain": dv.plain}
        return d

    def summary(self) -> str:
        mods = f" with {', '.join(self.modules)}" if self.modules else ""
        head = f"{self.title} ({self.players} players{mods})"
        if self.plain_error is not None:
            return (f"{head}: nothing compared, the plain compilation cannot be made (the optimised one "
                    f"is fine): {self.plain_error}")
        if self.divergence is not None:
            return (f"{head}: the optimised and the plain compilation DIFFER (a bug of Regola's code "
                    f"generator, not of the rules: please report it with the rules file)\n  "
                    + self.divergence.text())
        notes = []
        if self.stopped:
            notes.append(f"{self.stopped} stopped alike by a rules runtime error")
        if self.cut:
            notes.append(f"{self.cut} cut short at the move limit")
        return (f"{head}: the optimised and the plain compilation agree over {self.games} games "
                f"(seeds {_seed_range(self.seeds)}): {self.decisions:,} decisions, {self.chance:,} chance "
                f"events, {self.refusals:,} illegal moves refused alike"
                + (f"; {', '.join(notes)}" if notes else ""))


def _seed_range(seeds) -> str:
    if not seeds:
        return "none"
    return str(seeds[0]) if len(seeds) == 1 else f"{seeds[0]}-{seeds[-1]}"


class _Differ(Exception):
    def __init__(self, what: str, optimised, plain):
        super().__init__(what)
        self.what, self.optimised, self.plain = what, optimised, plain


def _same_state(game, a, b):
    """The two states must be equal, but for the numbers the compiler gives its temporaries
    (the plain compilation makes fewer): `@it_9` and `@it_3` are the same loop's list when
    each is the first `@it_` of its frame."""
    for name in ("pending", "phase", "rng", "result"):
        if getattr(a, name) != getattr(b, name):
            raise _Differ(f"the state's {name}", _jsonish(getattr(a, name)), _jsonish(getattr(b, name)))
    for i, (x, y) in enumerate(zip(a.v, b.v)):
        if x != y:
            path = _first_difference(x, y)
            raise _Differ(f"the variable {game.vars[i].name}{path}", _jsonish(_at(x, path)), _jsonish(_at(y, path)))
    if len(a.stack) != len(b.stack):
        raise _Differ("the rules waiting (frames on the stack)", f"{len(a.stack)} frames", f"{len(b.stack)} frames")
    for i, (f, g) in enumerate(zip(a.stack, b.stack)):
        x, y = (f[0], f[1], _locals(f[2]), f[3]), (g[0], g[1], _locals(g[2]), g[3])
        if x != y:
            raise _Differ(f"frame {i} of the stack (unit, block, locals, player)", _jsonish(x), _jsonish(y))


def _locals(loc: dict) -> dict:
    """A frame's locals with the compiler's temporaries (`@name_N`) numbered by rank in the frame."""
    out, temps = {}, {}
    for k, v in loc.items():
        base, sep, num = k.rpartition("_")
        if k.startswith("@") and sep and num.isdigit():
            temps.setdefault(base, []).append((int(num), v))
        else:
            out[k] = v
    for base, items in temps.items():
        for rank, (_, v) in enumerate(sorted(items, key=lambda t: t[0])):
            out[f"{base}#{rank}"] = v
    return out


def _first_difference(x, y, path: str = "") -> str:
    """`[2][5]`: where two nested lists first differ (empty if they differ as wholes)."""
    if isinstance(x, list) and isinstance(y, list) and len(x) == len(y):
        for i, (p, q) in enumerate(zip(x, y)):
            if p != q:
                return _first_difference(p, q, f"{path}[{i}]")
    return path


def _at(x, path: str):
    for part in path[1:-1].split("][") if path else []:
        x = x[int(part)]
    return x


def _call(fn, *args):
    """("ok", value), ("rules", the rules runtime error's text) or ("engine", any other error:
    a bug of Regola's, such as a name a rewrite left unbound)."""
    try:
        return "ok", fn(*args)
    except RulesRuntimeError as e:
        return "rules", str(e)
    except Exception as e:  # noqa: BLE001 - reported as a difference, never a traceback
        return "engine", f"{type(e).__name__}: {e}"


def _both(what: str, fast_call: tuple, plain_call: tuple) -> tuple:
    """Run a step, (function, *arguments), in both; (value, value), or None when both
    stopped with a rules error."""
    (ka, va), (kb, vb) = _call(*fast_call), _call(*plain_call)
    if "engine" in (ka, kb):
        raise _Differ(f"{what}: an error of the engine, not of the rules",
                      va if ka == "engine" else ka, vb if kb == "engine" else kb)
    if ka != kb:
        raise _Differ(f"{what}: one compilation stops with a rules runtime error",
                      va if ka == "rules" else "no error", vb if kb == "rules" else "no error")
    return None if ka == "rules" else (va, vb)


def crosscheck(rules, players: Optional[int] = None, modules=(), options=None, games: int = 20,
               seed: int = 0, max_moves: int = MAX_MOVES,
               progress: Optional[Callable[[int], None]] = None) -> CrossReport:
    """Play `games` seeded random games (seeds seed..seed+games-1) with both compilations;
    stop at the first difference."""
    fast = load_game(rules, modules=list(modules), players=players, options=options)
    rep = CrossReport(fast.title, fast.num_players, list(fast.modules))
    try:
        plain = load_game(rules, modules=list(modules), players=fast.num_players, options=options, optimise=False)
    except RulesError as e:
        # the plain code, with its quantifiers as Python expressions, went past a limit of
        # Python's that the optimised code did not (nested parentheses, say): nothing to compare
        rep.plain_error = e.diagnostics[0].message if e.diagnostics else str(e)
        return rep
    for g in range(seed, seed + games):
        rep.seeds.append(g)
        at = _Place()
        try:
            _one_game(fast, plain, g, max_moves, rep, at)
        except _Differ as d:
            rep.divergence = Divergence(g, at.step, at.where, d.what, _short(d.optimised), _short(d.plain))
        rep.games += 1
        if progress is not None:
            progress(rep.games)
        if rep.divergence is not None:
            break
    return rep


@dataclass
class _Place:
    """Where a game is: reported with a difference."""
    step: int = 0
    where: str = "the set-up"


def _one_game(fast, plain, g: int, max_moves: int, rep: CrossReport, at: _Place) -> None:
    both = _both("setting up", (fast.new_initial_state, g), (plain.new_initial_state, g))
    if both is None:
        rep.stopped += 1
        return
    a, b = both
    rng = random.Random(g)
    pool: dict[int, list] = {}
    for step in range(max_moves):
        at.step = step
        _same_state(fast, a, b)
        if fast.is_terminal(a):
            at.where = "the end"
            scored = _both("scoring", (fast.ranking_keys, a), (plain.ranking_keys, b))
            if scored is None:                 # (both stopped alike: the score is a rules error)
                rep.stopped += 1
            else:
                _same("the final scores and ranking", *scored)
            return
        at.where = _where(fast, a)
        if fast.is_chance(a):
            dists = _both("the chance outcomes", (fast.chance_outcomes, a), (plain.chance_outcomes, b))
            if dists is not None:
                _same("the chance outcomes", *dists)
                drawn = _both("resolving the chance event", (fast.step_chance, a), (plain.step_chance, b))
            if dists is None or drawn is None:
                rep.stopped += 1
                return
            _same("the outcome drawn", *drawn)
            rep.chance += 1
            continue
        lists = _both("listing the legal moves", (fast.legal_moves, a), (plain.legal_moves, b))
        if lists is None:
            rep.stopped += 1
            return
        ma, mb = lists
        if ma != mb:
            raise _Differ("the legal moves", _moves_text(fast, a, ma, mb), _moves_text(fast, a, mb, ma))
        site = a.pending[0]
        earlier = pool.setdefault(site, [])
        for m in earlier:
            if m not in ma:
                _same("the refusal of an illegal move", _refusal(fast, a, m), _refusal(plain, b, m))
                rep.refusals += 1
                break
        m = ma[int(rng.random() * len(ma))]
        if m not in earlier:
            earlier.append(m)
            if len(earlier) > _POOL:
                earlier.pop(0)
        played = _both(f"playing {fast.move_text(site, m)}", (fast.apply, a, m),
                       (plain.apply, b, m))
        rep.decisions += 1
        if played is None:
            rep.stopped += 1
            return
    rep.cut += 1


def _same(what: str, x, y):
    if x != y:
        raise _Differ(what, _jsonish(x), _jsonish(y))


def _refusal(game, s, move) -> str:
    try:
        game.apply(s, move)
    except IllegalMove as e:
        return str(e)
    except Exception as e:  # noqa: BLE001 - a difference to report, never a traceback
        return f"{type(e).__name__}: {e}"
    return "accepted"            # (never: the move is not among the legal ones)


def _where(game, s) -> str:
    d = game.decision(s)
    if d is None:
        return "the end"
    who = "chance" if d["player"] == -1 else f"player {d['player'] + 1}"
    return f"{who} at {d['where']} ({d['kind']})"


def _moves_text(game, s, mine, other) -> str:
    only = [m for m in mine if m not in other]
    if only:
        names = ", ".join(game.move_str(s, m) for m in only[:6]) + (" ..." if len(only) > 6 else "")
        return f"{len(mine)} moves, of which only here: {names}"
    if len(mine) == len(other) and all(m in mine for m in other):
        return f"{len(mine)} moves (the same, in another order)"
    return f"{len(mine)} moves"


def _jsonish(x) -> str:
    try:
        return json.dumps(x, default=str)
    except (TypeError, ValueError):
        return repr(x)


def _short(text: str, limit: int = 600) -> str:
    text = str(text)
    return text if len(text) <= limit else text[:limit] + " ..."


# --------------------------------------------------------------------- the command

def register(sub) -> None:
    from .cli import add_game_arguments, positive_int, whole_number
    c = sub.add_parser("crosscheck", help="play a game's optimised and plain compilations side by side "
                                          "(finds a bug of the code generator in these rules)")
    add_game_arguments(c)
    c.add_argument("--games", type=positive_int, default=20, help="games to play (default 20)")
    c.add_argument("--seed", type=whole_number, default=0, help="the first game's seed (default 0)")
    c.add_argument("--max-moves", type=positive_int, default=MAX_MOVES, metavar="N",
                   help=f"cut a game short after N steps (default {MAX_MOVES:,})")
    c.add_argument("--json", action="store_true", help="print the report as JSON")
    c.set_defaults(func=cmd_crosscheck)


def cmd_crosscheck(args) -> int:
    from .cli import _options, _split
    from .simulate import Progress
    bar = Progress(args.games, sys.stderr.isatty() and not args.json)
    try:
        rep = crosscheck(args.rules, args.players, _split(args.with_), _options(args), args.games, args.seed,
                         args.max_moves, bar.update)
    finally:
        bar.close()
    if args.json:
        print(json.dumps(rep.as_json(), indent=2))
    else:
        print(rep.summary())
    return 0 if rep.agree else 2 if rep.plain_error is not None else 1
