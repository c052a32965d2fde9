"""Enums, records, components tables and static assertions."""

from __future__ import annotations

import textwrap

import pytest

from regola.diagnostics import RulesError
from regola.snippets import SnippetCompiler
from rules_helpers import errors, load


MARKET = """
game market:
    players 2..2

enum Building: palace, tower, shop

record Tile:
    building: Building
    worth: int
    shields: list of Building

components Tile:
    | name   | building | worth | shields         | count |
    | palace | palace   | 3     | [palace, tower] | 2     |
    | shop   | shop     | 1     | []              | 4     |
    | tower  | tower    | 2     | [tower]         | 1     |

grid board of Tile:
    size 1 by 3

global:
    supply: pile of Tile
    picked: Building or none
    kinds_seen: int
    palace_copies: int

setup:
    fill supply with copies(Tile)
    for t in Tile:
        kinds_seen += 1
    for t in copies(Tile) where t == palace:
        palace_copies += 1
    move shop from supply -> board[cell(0, 0)]
    move palace from supply -> board[cell(0, 1)]

flow:
    for c in cells(board) where board[c] == shop:
        picked = board[c].building

def worth_of(b: Building) -> int = sum(t.worth * t.count for t in Tile where t.building == b)

score: count(supply) + worth_of(shop) + kinds_seen + palace_copies
"""


@pytest.fixture(scope="module")
def market(tmp_path_factory):
    game = load(tmp_path_factory.mktemp("components"), MARKET)
    return game, game.new_initial_state(seed=3), SnippetCompiler(game)


def value(market, expr):
    game, s, sc = market
    return sc.expression(expr)(s)


def test_enum_values_are_the_declared_names_in_order(market):
    game, s, sc = market
    assert value(market, "values(Building)") == [0, 1, 2]
    assert game.prog.enums["Building"].values == ["palace", "tower", "shop"]
    assert value(market, "count(values(Building))") == 3
    # an enum-valued variable is shown by name
    assert game.observe(s, 0)["state"]["picked"] == "shop"


def test_components_count_column_gives_physical_copies(market):
    assert value(market, "count(copies(Tile))") == 7
    assert value(market, "Tile.palace.count") == 2
    assert value(market, "Tile.tower.count") == 1
    assert value(market, "sum(t.count for t in Tile)") == 7


def test_iterating_a_record_type_yields_each_kind_once_and_copies_every_copy(market):
    game, s, _ = market
    obs = game.observe(s, 0)["state"]
    assert obs["kinds_seen"] == 3
    assert obs["palace_copies"] == 2
    assert value(market, "count(values(Tile))") == 3
    assert value(market, "count(copies(Tile.palace))") == 2


def test_fields_of_kinds(market):
    assert value(market, "Tile.palace.worth") == 3
    assert value(market, "Tile.palace.building == Building.palace") is True
    assert value(market, "count(Tile.palace.shields)") == 2
    assert value(market, "tower in Tile.palace.shields") is True
    assert value(market, "shop in Tile.shop.shields") is False


def test_name_that_is_a_kind_and_an_enum_value_is_resolved_by_the_expected_type(market):
    game, s, _ = market
    # board[c] == shop compares Tiles; board[c].building == shop compares Buildings
    assert value(market, "board[cell(0, 0)] == shop") is True
    assert value(market, "board[cell(0, 1)] == shop") is False
    assert value(market, "board[cell(0, 0)].building == shop") is True
    assert value(market, "board[cell(0, 1)].building == palace") is True
    # the components table column 'building' expects a Building, the move a Tile
    assert game.observe(s, 0)["state"]["board"] == {"(0,0)": "shop", "(0,1)": "palace"}
    # a function parameter gives the expected type too
    assert value(market, "worth_of(shop)") == 4
    assert value(market, "worth_of(palace)") == 6
    # and the left side may be the bare name
    assert value(market, "shop == board[cell(0, 0)]") is True


def test_qualified_names(market):
    assert value(market, "Tile.shop == board[cell(0, 0)]") is True
    assert value(market, "Building.shop == board[cell(0, 0)].building") is True
    assert value(market, "Tile.shop.worth") == 1


def test_bare_ambiguous_name_with_no_expected_type_is_an_error(market):
    _, _, sc = market
    with pytest.raises(RulesError) as ei:
        sc.expression("shop.count")
    d = ei.value.diagnostics[0]
    assert d.code == "E176"
    assert "Building.shop" in d.message and "Tile.shop" in d.message


def test_attribute_of_none_is_none(market):
    # an empty cell: attribute access gives none, so comparisons are simply false
    assert value(market, "board[cell(0, 2)] == none") is True
    assert value(market, "board[cell(0, 2)].building == palace") is False
    assert value(market, "board[cell(0, 2)].worth == none") is True


def test_score_uses_components_data(market):
    game, s, _ = market
    assert game.is_terminal(s)
    # supply 5 left, 4 worth of shops, 3 kinds seen, 2 palace copies
    assert game.scores(s) == [14, 14]


def test_count_column_defaults_to_one(tmp_path):
    game = load(tmp_path, """
        game g:
            players 2..2
        record Card:
            value: int
        components Card:
            | name | value |
            | ace  | 11    |
            | two  | 2     |
        assert count(copies(Card)) == 2, "one copy of each kind"
        flow:
            pass
        score: ace.count + two.count
    """)
    s = game.new_initial_state()
    assert game.scores(s) == [2, 2]


def test_components_table_with_a_missing_cell_is_an_error(tmp_path):
    errs = errors(tmp_path, """
        game g:
            players 2..2
        record Card:
            value: int
        components Card:
            | name | value | count |
            | ace  | 11    | 2     |
            | two  | 2     |
        flow:
            pass
        score: 0
    """)
    assert [e.code for e in errs] == ["E112"]
    assert errs[0].span.line == 9


def test_components_field_of_the_wrong_type_is_an_error(tmp_path):
    errs = errors(tmp_path, """
        game g:
            players 2..2
        enum Suit: hearts, spades
        record Card:
            suit: Suit
        components Card:
            | name | suit |
            | ace  | 11   |
        flow:
            pass
        score: 0
    """)
    assert [e.code for e in errs] == ["E130"]
    assert "suit" in errs[0].message


def test_static_assertions_are_evaluated_at_load_time(tmp_path):
    text = """
        game g:
            players 2..2
        enum Suit: hearts, spades
        record Card:
            suit: Suit
            value: int
        components Card:
            | name   | suit   | value | count |
            | ace_h  | hearts | 11    | 1     |
            | two_h  | hearts | 2     | 3     |
            | ace_s  | spades | 11    | 1     |
        const DECK = 5
        def points(s: Suit) -> int:
            let total = sum(c.value * c.count for c in Card where c.suit == s)
            if total > 15:
                return total
            return 0
        assert count(copies(Card)) == DECK, "five cards"
        assert points(hearts) == 17, "hearts are worth 17"
        assert all(c.value > 0 for c in Card), "every card has a value"
        ASSERTION
        flow:
            pass
        score: 0
    """
    # all true: loads
    load(tmp_path, text.replace("ASSERTION", ""), name="ok")
    # a false one: a load-time error naming the assertion's message and its line
    with pytest.raises(RulesError) as ei:
        load(tmp_path, text.replace("ASSERTION", 'assert points(spades) == 11, "spades are worth 11"'),
             name="bad")
    (d,) = [d for d in ei.value.diagnostics if d.is_error]
    assert d.code == "E180"
    assert d.message == "assertion failed: spades are worth 11"
    assert d.span.line == 1 + textwrap.dedent(text).splitlines().index("ASSERTION")
    assert "assertion failed: spades are worth 11" in str(ei.value)


def test_static_assertion_may_not_read_game_state(tmp_path):
    errs = errors(tmp_path, """
        game g:
            players 2..2
        global:
            n: int
        assert n == 0, "n starts at zero"
        flow:
            n = 1
        score: n
    """)
    assert [e.code for e in errs] == ["E123"]


def test_reserved_field_names_are_refused(tmp_path):
    errs = errors(tmp_path, """
        game g:
            players 2..2
        record Card:
            count: int
        flow:
            pass
        score: 0
    """)
    assert "E101" in [e.code for e in errs]
