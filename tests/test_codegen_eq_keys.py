"""A record field that may be none, compared with a value that is never none, reads a table
with none as -1 (codegen/tables.py eq_key_values, codegen/expr.py `_eq_key`): the same
answers, with Python's fast comparison of two ints rather than an int and none."""

from __future__ import annotations

from regola.loader import load_game
from rules_helpers import write

GAME = """
game keyed:
    players 2..2

enum Colour: red, green, blue

record Tile:
    size: int
components Tile:
    | name  | size |
    | small | 1    |
    | large | 2    |

record Card:
    colour: Colour or none
    partner: Tile or none
    strength: int or none
components Card:
    | name   | colour | partner | strength |
    | plain  | none   | none    | none     |
    | ruby   | red    | small   | 3        |
    | leaf   | green  | none    | 0        |
    | sky    | blue   | large   | none     |

global:
    same: int
    differ: int
    flipped: int
    partnered: int

flow:
    repeat 6:
        for p in players:
            act p: probe

action probe(c in values(Card), k in values(Colour), d in values(Tile)):
    same += count(x for x in values(Card) where x.colour == k) * 100 + (1 if c.colour == k else 0)
    differ += count(x for x in values(Card) where x.colour != k) * 100 + (1 if c.colour != k else 0)
    flipped += (1 if k == c.colour else 0) + (1 if d == c.partner else 0) * 10
    partnered += (1 if c.partner != d else 0) + (1 if c.strength == 3 else 0) * 10

score: 0
"""

COLOURS = {"plain": None, "ruby": 0, "leaf": 1, "sky": 2}
PARTNER = {"plain": None, "ruby": 0, "leaf": None, "sky": 1}
STRENGTH = {"plain": None, "ruby": 3, "leaf": 0, "sky": None}


def test_fields_that_may_be_none_compare_through_tables_with_none_as_minus_one(tmp_path):
    path = str(write(tmp_path, GAME))
    game = load_game(path, players=2)
    plain = load_game(path, players=2, optimise=False)
    src = game.source
    # the enum and component fields with a none: compared through their -1 tables; the int
    # field (compared with an int, which could be -1) and the plain compilation keep theirs
    assert "AE4_Card_colour[" in src and "AE4_Card_partner[" in src and "AE4_Card_strength" not in src
    assert "AE4_" not in plain.source
    names = list(COLOURS)
    tiles = ["small", "large"]
    moves = [(c, k, d) for c in range(4) for k in range(3) for d in range(2)][::2]
    for g in (game, plain):
        s = g.new_initial_state(0)
        expected = {"same": 0, "differ": 0, "flipped": 0, "partnered": 0}
        for c, k, d in moves:
            g.apply(s, g.parse_move(s, f"probe({names[c]}, {['red', 'green', 'blue'][k]}, {tiles[d]})"))
            colour, partner = COLOURS[names[c]], PARTNER[names[c]]
            expected["same"] += sum(v == k for v in COLOURS.values()) * 100 + (colour == k)
            expected["differ"] += sum(v != k for v in COLOURS.values()) * 100 + (colour != k)
            expected["flipped"] += (k == colour) + (d == partner) * 10
            expected["partnered"] += (partner != d) + (STRENGTH[names[c]] == 3) * 10
            state = g.observe(s, None)["state"]
            assert {n: state[n] for n in expected} == expected, (names[c], k, tiles[d])
