"""Random valid games aimed at the code generator's rewrites, each played by `regola
crosscheck` (tools/crosscheck.py): the optimised and the plain compilation must agree.

    python -m regola.tools.fuzz_rewrites --cases 500 --seed 1 [--out DIR]

The mutation fuzzer (tools/fuzz.py) starts from the bundled games and mostly makes broken
files; this one writes games that check clean, over one small skeleton (a 3x4 grid of chips,
a pile per player, a bag to draw from, two counters), with what the rewrites work on drawn at
random in their requires, filters, defs, a hook's modifiers and a choice:

- small defs called with arguments used more than once (inlined, with `:=` temporaries),
  defs calling defs, if/elif chains, a def calling itself along a line of cells (unfolded,
  its steps written as statements) asked from a cell's row and column;
- quantifiers and aggregates over a pile with several copies of a kind (walked by kind),
  over the cells, over adjacent cells, over an enum, a component table, a range, and over
  ten components kept by a field compared with a value (walked by group, with `none` among
  the field's values);
- grid cells made after tests of their bounds, complete or not (the dropped cell tests),
  and now and then a cell that may fall outside the grid (a rules error both must meet);
- expressions of nothing a loop changes (remembered loop invariants), short constant loops
  (unrolled, constants folded), divisions and remainders;
- effects with if/elif/else, a loop with a filter and a while loop, whose tests are written
  out as statements;
- a payment with random sources and conditions, checked (`affordable`) and spent (the quick
  answers of a check against every way listed);
- a turn that asks can() before the act of an `else` (the moves it lists kept for that act).

A case whose rules do not check is a bug of this generator (it says so); a difference between
the compilations, or rules that check clean and do not compile, is a bug of the code
generator, saved with its rules under `--out`.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

SKELETON = """\
game rewrites:
    title "Rewrites"
    players 2..2

const ROWS = 3
const COLS = 4
const SIZES = [2, 0, 3, 1]
enum Colour: red, green, blue

record Chip:
    colour: Colour
    value: int
    loot: map Colour to int = {}
components Chip:
    | name | colour | value | count | loot                |
    | r1   | red    | 1     | 6     | {red: 1}            |
    | g2   | green  | 2     | 4     | {}                  |
    | b3   | blue   | 3     | 4     | {green: 2, blue: 1} |
    | r4   | red    | 4     | 2     | {red: 3, blue: 2}   |

record Step:
    dr: int
    dc: int
components Step:
    | name  | dr | dc |
    | east  | 0  | 1  |
    | south | 1  | 0  |
    | diag  | 1  | 1  |
    | anti  | 1  | -1 |

record Spot:
    zone: Colour or none
    weight: int
components Spot:
    | name | zone  | weight |
    | s1   | red   | 1      |
    | s2   | none  | 2      |
    | s3   | blue  | 3      |
    | s4   | red   | 4      |
    | s5   | green | 5      |
    | s6   | none  | 6      |
    | s7   | blue  | 7      |
    | s8   | red   | 8      |
    | s9   | green | 9      |
    | s10  | red   | 10     |

grid board of Chip:
    size ROWS by COLS

per player:
    chips: pile of Chip
    points: int
    gems: map Colour to int, clamp 0..9
    coins: int, clamp 0..9

global:
    bag: stack of Chip
    counter: int
    turn: int

setup:
    fill bag with [r1, r1, g2, g2, b3, b3, r4, r4]
    for p in players:
        fill p.chips with [r1, r1, g2, b3]
        p.gems[red] = 2
        p.gems[green] = 1
        p.coins = 2

def at(r: int, c: int) -> int =
    0 if r < 0 or r >= ROWS or c < 0 or c >= COLS or board[cell(r, c)] == none else board[cell(r, c)].value
"""

FLOW = """
flow:
    repeat {rounds}:
        for p in players:
{turn}
    end game

action draw_one():
    require count(bag) > 0
    draw bag -> me.chips

action rest():
    turn = turn + 1

score: me.points
"""

INT, CHIP, CELL, PLAYER = "int", "chip", "cell", "player"
_CMP = ["<", "<=", "==", "!=", ">", ">="]


class ProgramGen:
    """One random program: `text()`. Scopes map names to types (INT, CHIP, CELL, PLAYER, and
    "step", "spot" and "colour" for the variables of loops over Step, Spot and Colour)."""

    def __init__(self, rng: random.Random):
        self.rng = rng
        self.n = 0
        self.int_defs: list[str] = []          # fN(a: int, b: int) -> int
        self.bool_defs: list[str] = []         # gN(c: Cell, a: int) -> bool
        self.player_defs: list[str] = []       # hN(p: Player, a: int) -> int, the hook bonus
        self.chip_defs: list[str] = []         # hauledN(p: Player, t: Chip) -> int

    def fresh(self, base: str) -> str:
        self.n += 1
        return f"{base}{self.n}"

    def pick(self, xs):
        return xs[self.rng.randrange(len(xs))]

    def names(self, scope: dict, t: str) -> list[str]:
        return [n for n, ty in scope.items() if ty == t]

    # ------------------------------------------------------------------ expressions

    def int_expr(self, scope: dict, depth: int) -> str:
        r = self.rng
        if depth <= 0 or r.random() < 0.25:
            return self._int_leaf(scope)
        d = depth - 1
        k = r.randrange(19)
        a = lambda: self.int_expr(scope, d)          # noqa: E731
        if k == 0:
            return f"({a()} + {a()})"
        if k == 1:
            return f"({a()} - {a()})"
        if k == 2:
            return f"({a()} * {a()})"
        if k == 3:
            return f"({a()} / (abs({a()}) + 1))"
        if k == 4:
            return f"({a()} % (abs({a()}) + 1))"
        if k == 5:
            return f"({a()} if {self.bool_expr(scope, d)} else {a()})"
        if k == 6:
            return f"{self.pick(['max', 'min'])}([{a()}, {a()}])"
        if k == 7:
            x = self.fresh("x")
            inner = dict(scope, **{x: CHIP})
            pile = self._pile(scope)
            if r.random() < 0.5:
                return f"count({x} for {x} in {pile} where {self.bool_expr(inner, d)})"
            return f"sum({x}.value for {x} in {pile} where {self.bool_expr(inner, d)})"
        if k == 8 and self.names(scope, CELL):
            c = self.pick(self.names(scope, CELL))
            n = self.fresh("n")
            return f"count({n} for {n} in adjacent({c}) where board[{n}] {self.pick(['==', '!='])} none)"
        if k == 9:
            e = self.fresh("e")
            return f"count({e} for {e} in cells(board) where {self._cell_test(dict(scope, **{e: CELL}), e, d)})"
        if k == 10:
            return f"at({a()}, {a()})"
        if k == 11 and self.int_defs:
            return f"{self.pick(self.int_defs)}({a()}, {a()})"
        if k == 12 and self.player_defs and self.names(scope, PLAYER):
            return f"{self.pick(self.player_defs)}({self.pick(self.names(scope, PLAYER))}, {a()})"
        if k == 13:
            s = self.fresh("s")
            inner = dict(scope, **{s: "step"})
            return f"sum({s}.{self.pick(['dr', 'dc'])} * {self.int_expr(inner, d)} for {s} in Step)"
        if k == 14:
            i = self.fresh("i")
            inner = dict(scope, **{i: INT})
            return f"sum(SIZES[{i}] for {i} in range(0, 4) where {self.bool_expr(inner, d)})"
        if k == 15:
            v = self.fresh("v")
            inner = dict(scope, **{v: "colour"})
            return f"count({v} for {v} in values(Colour) where {self.bool_expr(inner, d)})"
        if k == 16:
            return f"SIZES[abs({a()}) % 4]"
        if k == 17:
            return self._spots(scope, d, "sum" if r.random() < 0.5 else "count")
        if k == 18 and self.chip_defs and self.names(scope, PLAYER) and self.names(scope, CHIP):
            return f"{self.pick(self.chip_defs)}({self.pick(self.names(scope, PLAYER))}, " \
                   f"{self.pick(self.names(scope, CHIP))})"
        return self._int_leaf(scope)

    def _spots(self, scope: dict, d: int, q: str) -> str:
        """A quantifier over the ten Spots kept by their zone (a fixed table: the loop walks
        the group of one zone, codegen/groups.py), the zone compared with first or after
        another test, either side of == or !=."""
        x = self.fresh("s")
        inner = dict(scope, **{x: "spot"})
        zone = self.pick(["red", "none", "green"] + [f"{t}.colour" for t in self.names(scope, CHIP)]
                         + self.names(scope, "colour") * 2)
        test = f"{x}.zone {self.pick(['==', '!='])} {zone}" if self.rng.random() < 0.7 \
            else f"{zone} == {x}.zone"
        if self.rng.random() < 0.4:
            more = self.bool_expr(dict(inner), d)
            test = f"{test} and {more}" if self.rng.random() < 0.7 else f"{more} and {test}"
        if q == "sum":
            return f"sum({x}.weight for {x} in Spot where {test})"
        if q == "count":
            return f"count({x} for {x} in Spot where {test})"
        return f"{q}({x}.weight > {self.int_expr(inner, d)} for {x} in Spot where {test})"

    def _int_leaf(self, scope: dict) -> str:
        r = self.rng
        opts = [str(r.randrange(-2, 7)), "counter", "turn"]
        opts += self.names(scope, INT) * 3
        opts += [f"{t}.value" for t in self.names(scope, CHIP)] * 2
        opts += [f"ordinal({t}.colour)" for t in self.names(scope, CHIP)]
        opts += [f"{c}.{self.pick(['row', 'col'])}" for c in self.names(scope, CELL)] * 2
        opts += [f"{p}.points" for p in self.names(scope, PLAYER)]
        opts += [f"count({p}.chips)" for p in self.names(scope, PLAYER)]
        opts += [f"{s}.{self.pick(['dr', 'dc'])}" for s in self.names(scope, "step")] * 2
        opts += [f"{s}.weight" for s in self.names(scope, "spot")] * 2
        opts += [f"ordinal({v})" for v in self.names(scope, "colour")]
        return self.pick(opts)

    def _pile(self, scope: dict) -> str:
        players = self.names(scope, PLAYER)
        return f"{self.pick(players)}.chips" if players else "player(1).chips"

    def _cell_test(self, scope: dict, c: str, depth: int) -> str:
        k = self.rng.randrange(4)
        if k == 0:
            return f"board[{c}] == none"
        if k == 1:
            return f"board[{c}] != none and board[{c}].colour == {self.pick(['red', 'green', 'blue'])}"
        if k == 2:
            return f"at({c}.row, {c}.col) {self.pick(_CMP)} {self.int_expr(scope, depth)}"
        return self.bool_expr(scope, depth)

    def bool_expr(self, scope: dict, depth: int) -> str:
        r = self.rng
        d = max(depth - 1, 0)
        k = r.randrange(15) if depth > 0 else 0
        if k <= 2:
            return f"{self.int_expr(scope, d)} {self.pick(_CMP)} {self.int_expr(scope, d)}"
        if k == 3:
            return f"not ({self.bool_expr(scope, d)})"
        if k == 4:
            return f"({self.bool_expr(scope, d)} {self.pick(['and', 'or'])} {self.bool_expr(scope, d)})"
        if k == 5:
            x = self.fresh("x")
            inner = dict(scope, **{x: CHIP})
            q = self.pick(["any", "all"])
            return f"{q}({self.bool_expr(inner, d)} for {x} in {self._pile(scope)})"
        if k == 6 and self.names(scope, CELL):
            c = self.pick(self.names(scope, CELL))
            s = self.fresh("s")
            inner = dict(scope, **{s: "step"})
            return f"any(at({c}.row + {s}.dr, {c}.col + {s}.dc) > {self.int_expr(inner, d)} for {s} in Step)"
        if k == 7 and self.names(scope, CELL):
            return self._cell_test(scope, self.pick(self.names(scope, CELL)), d)
        if k == 8 and self.names(scope, CHIP):
            t = self.pick(self.names(scope, CHIP))
            return f"{t}.colour {self.pick(['==', '!='])} {self.pick(['red', 'green', 'blue'])}"
        if k == 9 and self.bool_defs and self.names(scope, CELL):
            return f"{self.pick(self.bool_defs)}({self.pick(self.names(scope, CELL))}, {self.int_expr(scope, d)})"
        if k == 10:
            return self._made_cell(scope, d)
        if k == 11:
            v = self.fresh("v")
            inner = dict(scope, **{v: "colour"})
            return f"{self.pick(['any', 'all'])}({self.bool_expr(inner, d)} for {v} in values(Colour))"
        if k == 12:
            e = self.fresh("e")
            inner = dict(scope, **{e: CELL})
            return f"any({self._cell_test(inner, e, d)} for {e} in cells(board))"
        if k == 13 and self.names(scope, CHIP):
            t = self.pick(self.names(scope, CHIP))
            return f"{t} {self.pick(['in', 'not in'])} {self._pile(scope)}"
        if k == 14:
            return self._spots(scope, d, self.pick(["any", "all"]))
        return f"{self.int_expr(scope, d)} {self.pick(_CMP)} {self.int_expr(scope, d)}"

    def _made_cell(self, scope: dict, depth: int) -> str:
        """A cell made from two numbers, after tests of its bounds: all four (the cell test is
        dropped), some of them (it stays), or rarely none (the cell may be off the grid)."""
        r, c = self.int_expr(scope, depth), self.int_expr(scope, depth)
        if scope and self.rng.random() < 0.7:        # names, so that the facts hold for them
            r = self.pick(self.names(scope, INT) or [r])
            c = self.pick(self.names(scope, INT) or [c])
        tests = [(r, ">=", "0"), (r, "<", "ROWS"), (c, ">=", "0"), (c, "<", "COLS")]
        self.rng.shuffle(tests)
        keep = len(tests) if self.rng.random() < 0.6 else self.rng.randrange(0, 4)
        if keep == 0 and self.rng.random() < 0.7:
            keep = 4
        body = f"board[cell({r}, {c})] {self.pick(['==', '!='])} none"
        if keep == 0:
            return body
        if self.rng.random() < 0.5:
            return f"({' and '.join(f'{a} {op} {b}' for a, op, b in tests[:keep])} and {body})"
        neg = {">=": "<", "<": ">="}
        return f"({' or '.join(f'{a} {neg[op]} {b}' for a, op, b in tests[:keep])} or {body})"

    # ------------------------------------------------------------------ declarations

    def defs(self) -> list[str]:
        out = []
        for _ in range(self.rng.randrange(1, 4)):
            name = self.fresh("f")
            scope = {"a": INT, "b": INT}
            out.append(f"def {name}(a: int, b: int) -> int = {self.int_expr(scope, 3)}")
            self.int_defs.append(name)
        for _ in range(self.rng.randrange(1, 3)):
            name = self.fresh("g")
            scope = {"c": CELL, "a": INT}
            lines = [f"def {name}(c: Cell, a: int) -> bool:"]
            for j in range(self.rng.randrange(1, 3)):
                kw = "if" if j == 0 else "elif"
                lines.append(f"    {kw} {self.bool_expr(scope, 2)}:")
                lines.append(f"        return {self.bool_expr(scope, 2)}")
            lines.append(f"    return {self.bool_expr(scope, 2)}")
            out.append("\n".join(lines))
            self.bool_defs.append(name)
        name = self.fresh("h")
        scope = {"p": PLAYER, "a": INT}
        out.append(f"def {name}(p: Player, a: int) -> int:\n    let y = {self.int_expr(scope, 2)}\n"
                   f"    return {self.int_expr(dict(scope, y=INT), 2)}")
        self.player_defs.append(name)
        out += self._walks()
        out += self._streaks()
        scope = {"p": PLAYER, "k": INT}
        out.append(f"hook bonus(p: Player, k: int) -> int = {self.int_expr(scope, 2)}")
        for _ in range(self.rng.randrange(0, 3)):
            op = self.pick(["=", "+=", "-="])
            out.append(f"modifier bonus(p, k) {op} {self.int_expr(scope, 1)} when {self.bool_expr(scope, 2)}")
        self.player_defs.append("bonus")
        return out

    def _walks(self) -> list[str]:
        """A def summing one colour of the chips' loot over a walk of a pile (or taking the
        greatest or least of it), and a def asking it for several colours
        (codegen/fused_walks.py; the colour is sometimes read in the filter too, which leaves
        the def as it is) and another walk twice with the same arguments
        (codegen/repeated_calls.py)."""
        walk, caller = self.fresh("loot"), self.fresh("hauled")
        inner = {"p": PLAYER, "t": CHIP, "x": CHIP}
        if self.rng.random() < 0.3:
            inner["k"] = "colour"
        asks = [f"{walk}(p, t, {self.pick(['red', 'green', 'blue'])}) * {self.rng.randrange(1, 4)}"
                for _ in range(self.rng.randrange(2, 5))]
        weigh = self.fresh("weigh")       # a walk asked twice with the same arguments
        asks.append(f"({weigh}(p, t) if {weigh}(p, t) {self.pick(_CMP)} {self.rng.randrange(0, 6)} else 1)")
        body = " + ".join(asks)
        if self.rng.random() < 0.5:
            body = f"({body} if {self.bool_expr({'p': PLAYER, 't': CHIP}, 1)} else {walk}(p, t, red))"
        self.chip_defs.append(caller)
        test = self.bool_expr(inner, 2)
        if self.rng.random() < 0.5:
            total = f"sum(x.loot[k] for x in p.chips where {test})"
        else:
            total = f"{self.pick(['max', 'min'])}([{self.rng.randrange(-2, 3)}] + " \
                    f"[x.loot[k] for x in p.chips where {test}])"
        return [f"def {walk}(p: Player, t: Chip, k: Colour) -> int =\n    {total}",
                f"def {weigh}(p: Player, t: Chip) -> int = "
                f"sum(x.value for x in p.chips where {self.bool_expr({'p': PLAYER, 't': CHIP, 'x': CHIP}, 2)})",
                f"def {caller}(p: Player, t: Chip) -> int = {body}"]

    def _streaks(self) -> list[str]:
        """A def that calls itself (unfolded three steps by the inliner, each step written as
        statements: codegen/inline_steps.py) walking a line of chips from a cell, and a
        `Cell -> bool` def asking it both ways along each Step from a cell's row and column
        (divided out of the cell once: codegen/shared_divisions.py)."""
        r = self.rng
        run, line = self.fresh("streak"), self.fresh("g")
        stop = self.pick(["board[cell(r, c)] == none", "board[cell(r, c)] != none and board[cell(r, c)].value > v",
                          "board[cell(r, c)] == none or board[cell(r, c)].value != v"])
        step = f"{run}(r + dr, c + dc, dr, dc, v)"
        more = self.pick([f"1 + {step}", f"{step} + 1", f"2 + {step}", f"1 + {step} * 2", step])
        scope = {"c": CELL, "a": INT, "s": "step"}
        v = self.pick(["a", "1", "c.row", f"{self.int_expr(scope, 1)}"])
        ways = [f"{run}(c.row + s.dr, c.col + s.dc, s.dr, s.dc, {v})",
                f"{run}(c.row - s.dr, c.col - s.dc, -s.dr, -s.dc, {v})"]
        # (arguments that are names or constants need no binding: the inlined body is a
        # conditional with the steps in its branch)
        plain = f"{run}(a, a, {self.pick(['0', '1'])}, 1, {self.pick(['1', 'a'])})"
        total = self.pick([f"1 + {ways[0]} + {ways[1]}", f"{ways[0]} + {ways[1]} - c.col % 2",
                           f"{ways[0]} * (c.row / 2 + 1) + {ways[1]}", f"{plain} + {ways[1]}",
                           f"{ways[0]} - 2 * {plain}"])
        test = f"{total} {self.pick(['>=', '>', '=='])} {self.pick(['a', '2', f'a + c.row % 3'])}"
        self.bool_defs.append(line)
        return [f"def {run}(r: int, c: int, dr: int, dc: int, v: int) -> int:\n"
                f"    if r < 0 or r >= ROWS or c < 0 or c >= COLS or {stop}:\n"
                f"        return 0\n"
                f"    return {more}",
                f"def {line}(c: Cell, a: int) -> bool =\n"
                f"    {self.pick(['any', 'all'])}({test} for s in Step)"]

    def actions(self) -> list[str]:
        me = {"me": PLAYER}
        out = []
        scope = dict(me, t=CHIP, c=CELL)
        where = f" where {self.bool_expr(dict(me, t=CHIP), 2)}" if self.rng.random() < 0.4 else ""
        lines = [f"action place(t in me.chips{where}, c in cells(board)):", "    require board[c] == none"]
        lines += [f"    require {self.bool_expr(scope, 3)}" for _ in range(self.rng.randrange(0, 3))]
        lines += ["    move t from me.chips -> board[c]",
                  f"    me.points = (me.points + {self.int_expr(scope, 2)}) % 50"]
        out.append("\n".join(lines))
        scope = dict(me, c=CELL)
        lines = ["action take(c in cells(board)):", "    require board[c] != none"]
        lines += [f"    require {self.bool_expr(scope, 3)}" for _ in range(self.rng.randrange(0, 3))]
        lines += ["    move board[c] -> me.chips"]
        lines += self._statements(scope)
        out.append("\n".join(lines))
        scope = dict(me, k=INT)
        lines = ["action bump(k in range(0, 4)):"]
        lines += [f"    require {self.bool_expr(scope, 3)}" for _ in range(self.rng.randrange(1, 3))]
        lines += [f"    counter = (counter + {self.int_expr(scope, 2)}) % 7"]
        if self.rng.random() < 0.6:
            inner = dict(scope, j=INT)
            lines += [f"    choose j in range(0, 4) where {self.bool_expr(inner, 2)}, optional:",
                      f"        me.points = (me.points + j + {self.int_expr(inner, 1)}) % 50"]
        out.append("\n".join(lines))
        return out

    def _statements(self, scope: dict) -> list[str]:
        """Effects whose tests are written out as statements (if/elif, a loop's filter, a
        while's test run again each round)."""
        r = self.rng
        lines = []
        if r.random() < 0.7:
            lines += [f"    if {self.bool_expr(scope, 2)}:",
                      f"        me.points = (me.points + {self.int_expr(scope, 1)}) % 50"]
            if r.random() < 0.5:
                lines += [f"    elif {self.bool_expr(scope, 2)}:", "        counter = (counter + 1) % 7"]
            if r.random() < 0.5:
                lines += ["    else:", f"        turn = turn + {r.randrange(0, 3)}"]
        if r.random() < 0.6:
            e = self.fresh("e")
            inner = dict(scope, **{e: CELL})
            lines += [f"    for {e} in cells(board) where {self._cell_test(inner, e, 2)}:",
                      f"        me.points = (me.points + {self.int_expr(inner, 1)}) % 50"]
        if r.random() < 0.5:          # ends: turn reaches a multiple of 3 within 3 rounds
            lines += [f"    while turn % 3 != 0 and {self.bool_expr(scope, 2)}:", "        turn = turn + 1"]
        return lines

    def payment(self) -> list[str]:
        """A payment of Colour units from the gems and the coins, under random conditions, and
        an action that pays one of three random costs with it (the quick answers of a check
        against every way listed, and the choice of a way when there are several)."""
        r = self.rng
        colours = ["red", "green", "blue"]
        costs = ", ".join("[" + ", ".join(self.pick(colours) for _ in range(r.randrange(1, 5))) + "]"
                          for _ in range(3))
        pays = ["    pay u from me.gems[u]"]
        for _ in range(r.randrange(1, 3)):
            source = self.pick(["me.coins", f"me.gems[{self.pick(colours)}]"])
            where = f" where u {self.pick(['==', '!='])} {self.pick(colours)}" if r.random() < 0.5 else ""
            when = f" when me.points {self.pick(_CMP)} {r.randrange(0, 20)}" if r.random() < 0.4 else ""
            pays.append(f"    pay u from {source}{where}{when}")
        r.shuffle(pays)
        scope = {"me": PLAYER, "k": INT}
        return [f"const COSTS = [{costs}]",
                "payment wild of Colour:\n" + "\n".join(pays),
                "action trade(k in range(0, 3)):\n"
                "    require affordable(COSTS[k], wild)\n"
                f"    require {self.bool_expr(scope, 2)}\n"
                "    spend COSTS[k] with wild\n"
                f"    me.gems[{self.pick(colours)}] += {r.randrange(1, 4)}\n"
                f"    me.coins += {r.randrange(0, 3)}"]

    def text(self) -> str:
        parts = [SKELETON] + self.defs() + self.actions() + self.payment() + \
            [FLOW.format(rounds=self.rng.randrange(3, 9), turn=self.turn())]
        return "\n\n".join(parts) + "\n"

    def turn(self) -> str:
        """A player's turn: one act, or an `if` asking can() before the act of its `else` (whose
        moves the can() keeps for it, codegen/machines.py)."""
        every = "act p: place | take | bump | draw_one | rest | trade"
        pad = " " * 12
        r = self.rng.random()
        cond = f"{self.pick(['turn', 'counter'])} {self.pick(['<', '>'])} {self.rng.randrange(0, 6)}"
        if r < 0.4:
            return pad + every
        if r < 0.7:
            lines = [f"if {cond} or not can(p, place):", "    act p: take | rest | trade"]
        else:
            lines = [f"if can(p, {self.pick(['place', 'take'])}) and {cond}:", "    act p: rest | trade"]
        return "\n".join(pad + x for x in lines + ["else:", "    " + every])


def make_program(rng: random.Random) -> str:
    return ProgramGen(rng).text()


@dataclass
class CaseResult:
    kind: str     # agree, differ, uncompilable (checks clean, does not compile), no-plain, invalid (our bug)
    detail: str
    rules: str


def run_case(text: str, work: Path, games: int = 3, seed: int = 0) -> CaseResult:
    """Check the rules and crosscheck them."""
    from regola.diagnostics import RulesError
    from regola.loader import check_rules
    from .crosscheck import crosscheck
    d = work / "rewrites"
    d.mkdir(parents=True, exist_ok=True)
    (d / "game.regola").write_text(text, encoding="utf-8")
    res = check_rules(str(d))
    if res.errors:
        return CaseResult("invalid", "\n".join(str(x) for x in res.errors), text)
    try:
        rep = crosscheck(str(d), games=games, seed=seed, max_moves=300)
    except RulesError as e:                 # checked clean, yet one compilation refuses it
        return CaseResult("uncompilable", "\n".join(str(x) for x in e.diagnostics), text)
    if rep.plain_error is not None:
        return CaseResult("no-plain", rep.summary(), text)
    if rep.agree:
        return CaseResult("agree", rep.summary(), text)
    return CaseResult("differ", rep.summary(), text)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m regola.tools.fuzz_rewrites", description=__doc__.split("\n\n")[0])
    ap.add_argument("--cases", type=int, default=200)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--games", type=int, default=3, help="games crosschecked per case (default 3)")
    ap.add_argument("--out", default="fuzz-rewrites-failures", help="where failing cases are saved")
    args = ap.parse_args(argv)
    counts = {"agree": 0, "differ": 0, "uncompilable": 0, "no-plain": 0, "invalid": 0}
    t0 = time.perf_counter()
    out = Path(args.out)
    with tempfile.TemporaryDirectory(prefix="regola-rewrites-") as tmp:
        for i in range(args.cases):
            text = make_program(random.Random(f"{args.seed}:{i}"))
            res = run_case(text, Path(tmp) / str(i), args.games, seed=i)
            counts[res.kind] += 1
            if res.kind != "agree":
                out.mkdir(parents=True, exist_ok=True)
                case = out / f"case-{args.seed}-{i}"
                case.mkdir(exist_ok=True)
                (case / "game.regola").write_text(res.rules, encoding="utf-8")
                (case / "what.txt").write_text(f"{res.kind}\n{res.detail}\n", encoding="utf-8")
                print(f"\ncase {i}: {res.kind}: saved in {case}\n{res.detail}", file=sys.stderr)
            if sys.stderr.isatty():
                sys.stderr.write(f"\r{i + 1}/{args.cases} cases, {counts['differ']} differences, "
                                 f"{counts['invalid']} invalid ")
                sys.stderr.flush()
    if sys.stderr.isatty():
        sys.stderr.write("\n")
    print(f"{args.cases} cases in {time.perf_counter() - t0:.0f} s: {counts['agree']} agree, "
          f"{counts['differ']} differ, {counts['uncompilable']} check clean but do not compile, "
          f"{counts['no-plain']} past a limit of Python's only in the plain compilation, "
          f"{counts['invalid']} invalid (a bug of this generator)")
    return 0 if counts["agree"] == args.cases else 1


if __name__ == "__main__":
    sys.exit(main())
