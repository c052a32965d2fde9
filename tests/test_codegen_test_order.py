"""The tests of a legal-move generator run cheap ones first (codegen/moves.py, `_cost`): a
hook is priced with the modifiers that other modules add to it, so a hook whose modifier asks
something costly is tested after a plain read that rules out most values."""

from __future__ import annotations

import re

import pytest

from regola.runtime.moves import IllegalMove
from rules_helpers import load, moves

GAME = """
game g:
    players 2..2

record Gem:
    worth: int
components Gem:
    | name  | worth |
    | ruby  | 3     |
    | opal  | 1     |
    | jade  | 2     |
    | onyx  | 1     |

per player:
    owned: map Gem to bool
    coins: int

global:
    turns: int

# a hook a module adjusts: the plain rule allows everything
hook usable(p: Player, g: Gem) -> bool = true
modifier usable(p, g) = sum(x.worth for x in values(Gem) where p.owned[x]) >= 4 when g == onyx

action polish(g in values(Gem)):
    require usable(me, g), "not now"
    require me.owned[g], "you do not own that gem"
    me.coins += g.worth
    turns += 1

action take(g in values(Gem)):
    require not me.owned[g]
    me.owned[g] = true
    turns += 1

flow:
    repeat 6:
        for p in players:
            act p: polish | take

score: me.coins
"""


def test_a_hook_with_a_costly_modifier_is_tested_after_a_plain_read(tmp_path):
    game = load(tmp_path, GAME)
    src = re.search(r"def G_0_0\(.*?(?=\ndef )", game.source, re.S).group(0)
    tests = [line.strip() for line in src.splitlines() if line.strip().startswith("if not")]
    owned = next(i for i, t in enumerate(tests) if re.search(r"\[l_g\]\)?\): continue", t))
    usable = next(i for i, t in enumerate(tests) if "usable" in t or "== 3" in t)   # (onyx: 3)
    assert owned < usable, src
    # the moves are those the rules give, in their order
    s = game.new_initial_state(0)
    assert moves(game, s) == ["take(ruby)", "take(opal)", "take(jade)", "take(onyx)"]
    for m in ("take(onyx)", "take(ruby)", "take(opal)", "take(jade)"):      # both players take
        game.apply(s, m)
    # the first player's gems are worth 2 in all: onyx is not usable, opal is
    assert [m for m in moves(game, s) if m.startswith("polish")] == ["polish(opal)"]
    with pytest.raises(IllegalMove, match="not now"):
        game.apply(s, "polish(onyx)")



def test_tests_of_about_the_same_cost_keep_the_order_the_rules_give(tmp_path):
    # `shiny` (a def) is dearer by the estimate than the plain read after it, but within one
    # band: the rules' order stands, and the author's first test is asked first
    text = GAME.replace("""action polish(g in values(Gem)):
    require usable(me, g), "not now"
    require me.owned[g], "you do not own that gem\"""", """def shiny(p: Player, g: Gem) -> bool = p.owned[g] and g.worth > 1

action polish(g in values(Gem)):
    require shiny(me, g), "you do not own a shiny gem"
    require me.coins < g.worth * 100, "rich enough\"""")
    game = load(tmp_path, text)
    src = re.search(r"def G_0_0\(.*?(?=\ndef )", game.source, re.S).group(0)
    assert src.index("[l_g] and") < src.index("* 100"), src          # shiny, then the coins
    s = game.new_initial_state(0)
    for m in ("take(onyx)", "take(ruby)", "take(opal)", "take(jade)"):
        game.apply(s, m)
    assert [m for m in moves(game, s) if m.startswith("polish")] == []      # onyx, opal: worth 1
    game.apply(s, "take(jade)")
    assert [m for m in moves(game, s) if m.startswith("polish")] == ["polish(ruby)", "polish(jade)"]
