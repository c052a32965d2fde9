"""Modules: `applies when`, modules chosen by name, `override const`, `replace`, `extend`,
`requires`, `conflicts with`, and events added by modules."""

from __future__ import annotations

import textwrap

import pytest

from regola.compose import ModuleSelectionError
from regola.diagnostics import RulesError
from regola.loader import check_rules, load_game

BASE = """
game market:
    players 2..4
const BONUS = 1
const SIZE = 3
record Card:
    v: int
components Card:
    | name | v |
    | a    | 1 |
global:
    trace: int
    stalls: row of SIZE Card
per player:
    pts: int
setup:
    trace = 1
flow:
    act player(1): gain
    finish()
procedure finish():
    trace = trace * 10 + 2
action gain(n in [1, 2]):
    me.pts += BONUS * n
    emit gained(n)
on gained(n: int):
    trace = trace * 10 + 5
def worth(p: Player) -> int = p.pts
score: worth(me)
"""

MODULES = {
    "duo": """
        module duo:
            title "Two players"
            applies when players == 2
        override const BONUS = 5
    """,
    "crowd": """
        module crowd:
            applies when players >= 3 and not players == 4
        override const SIZE = 5
    """,
    "ext": """
        module ext:
            title "Extension"
        extend finish before:
            trace = trace * 10 + 3
        extend finish after:
            trace = trace * 10 + 4
        extend setup after:
            trace = trace * 10 + 7
        extend gain after:
            me.pts += 100
        on gained(n: int):
            trace = trace * 10 + 6
    """,
    "rep": """
        module rep:
            conflicts with ext
        replace def worth(p: Player) -> int = p.pts * 2
        replace procedure finish():
            trace = 99
        replace action gain(n in [3, 4]):
            me.pts += n
    """,
    "needs": """
        module needs:
            requires ext
        on game end:
            trace = trace * 10 + 8
    """,
}


@pytest.fixture(scope="module")
def game_dir(tmp_path_factory):
    d = tmp_path_factory.mktemp("modules") / "market"
    d.mkdir()
    (d / "market.regola").write_text(textwrap.dedent(BASE), encoding="utf-8")
    for name, text in MODULES.items():
        (d / f"{name}.regola").write_text(textwrap.dedent(text), encoding="utf-8")
    return str(d)


def play(game, move=None):
    s = game.new_initial_state()
    legal = [game.move_str(s, m) for m in game.legal_moves(s)]
    game.apply(s, move or legal[0])
    assert game.is_terminal(s)
    o = game.observe(s, None)
    return legal, o["state"]["trace"], game.scores(s), len(o["state"]["stalls"])


def test_base_game_without_modules(game_dir):
    game = load_game(game_dir, players=4)
    assert game.modules == []
    assert play(game, "gain(2)") == (["gain(1)", "gain(2)"], 152, [2, 0, 0, 0], 3)


def test_applies_when_switches_a_module_on_by_player_count(game_dir):
    two = load_game(game_dir, players=2)
    three = load_game(game_dir, players=3)
    assert two.modules == ["duo"]
    assert three.modules == ["crowd"]
    # override const BONUS = 5 with two players
    assert play(two, "gain(2)")[2] == [10, 0]
    # override const SIZE = 5 with three: the row has five slots
    assert play(three)[3] == 5


def test_automatic_modules_cannot_be_chosen_by_name(game_dir):
    with pytest.raises(ModuleSelectionError, match="applies automatically"):
        load_game(game_dir, players=2, modules=["duo"])


def test_unknown_module_name(game_dir):
    with pytest.raises(ModuleSelectionError, match=r"has no module 'exx'; did you mean 'ext'\?"):
        load_game(game_dir, players=4, modules=["exx"])


def test_extend_before_and_after_and_module_handlers_run_after_the_base_ones(game_dir):
    game = load_game(game_dir, players=4, modules=["ext"])
    assert game.modules == ["ext"]
    legal, trace, scores, _ = play(game, "gain(1)")
    # setup extended after (7); base handler (5) then the module's (6); finish extended
    # before (3) and after (4)
    assert trace == 1756324
    assert scores == [101, 0, 0, 0]


def test_replace_def_procedure_and_action(game_dir):
    game = load_game(game_dir, players=4, modules=["rep"])
    legal, trace, scores, _ = play(game, "gain(4)")
    assert legal == ["gain(3)", "gain(4)"]
    assert trace == 99
    assert scores == [8, 0, 0, 0]          # worth doubled


def test_requires_another_module(game_dir):
    with pytest.raises(ModuleSelectionError, match="module 'needs' requires module 'ext'"):
        load_game(game_dir, players=4, modules=["needs"])
    game = load_game(game_dir, players=4, modules=["needs", "ext"])
    assert game.modules == ["ext", "needs"]           # dependencies first
    assert play(game, "gain(1)")[1] == 17563248


def test_conflicting_modules_are_refused_naming_both(game_dir):
    # refused with a diagnostic pointing at the 'conflicts with' line
    for mods in (["ext", "rep"], ["rep", "ext"]):
        with pytest.raises(RulesError) as ei:
            load_game(game_dir, players=4, modules=mods)
        msg = str(ei.value)
        assert "'ext'" in msg and "'rep'" in msg and "cannot be used together" in msg
        assert "rep.regola:3:5: error[E015]" in msg and "conflicts with ext" in msg
    with pytest.raises(RulesError):
        check_rules(game_dir, ["ext", "rep"], 4)


def test_an_automatic_module_and_a_chosen_one_together(game_dir):
    game = load_game(game_dir, players=2, modules=["ext"])
    assert game.modules == ["duo", "ext"]
    assert play(game, "gain(1)")[2] == [105, 0]


def write(tmp_path, base, modules):
    d = tmp_path / "g"
    d.mkdir()
    (d / "g.regola").write_text(textwrap.dedent(base), encoding="utf-8")
    for name, text in modules.items():
        (d / f"{name}.regola").write_text(textwrap.dedent(text), encoding="utf-8")
    return str(d)


SMALL = """
game g:
    players 2..2
const LIMIT = 3
global:
    n: int
flow:
    n = LIMIT
score: n
"""


@pytest.mark.parametrize("module, code, where", [
    ("override const LIMT = 4", "E013", "did you mean 'LIMIT'?"),
    ("replace procedure nothing():\n    n = 1", "E013", "no procedure 'nothing' to replace"),
    ("extend nothing after:\n    n = 1", "E013", "no procedure, action, setup or flow 'nothing'"),
])
def test_module_errors_point_into_the_module_file(tmp_path, module, code, where):
    d = write(tmp_path, SMALL, {"m": "module m:\n    title \"M\"\n" + module + "\n"})
    res = check_rules(d, ["m"], 2)
    errs = [e for e in res.diagnostics if e.is_error]
    assert [e.code for e in errs] == [code]
    assert errs[0].span.file.endswith("m.regola")
    assert errs[0].span.line == 3
    assert where in errs[0].message


def test_a_file_declaring_neither_game_nor_module(tmp_path):
    d = write(tmp_path, SMALL, {"stray": "const X = 1\n"})
    with pytest.raises(RulesError) as ei:
        load_game(d, players=2)
    assert [e.code for e in ei.value.diagnostics] == ["E010"]


def test_applies_when_may_only_use_players(tmp_path):
    d = write(tmp_path, SMALL, {"m": "module m:\n    applies when LIMIT == 3\n"})
    with pytest.raises(RulesError) as ei:
        load_game(d, players=2)
    assert [e.code for e in ei.value.diagnostics] == ["E012"]


def test_player_count_outside_the_game(tmp_path):
    d = write(tmp_path, SMALL, {})
    with pytest.raises(ModuleSelectionError, match="for 2 to 2 players, not 3"):
        load_game(d, players=3)


def test_extend_an_action_with_requires_before(tmp_path):
    d = write(tmp_path, """
        game g:
            players 2..2
        per player:
            pts: int, min 0
        global:
            trace: int
        flow:
            act player(1): gain
        action gain(n in [1, 2]):
            require n == 1 or me.pts > 0, "need points"
            cost 0 pts
            trace = trace * 10 + 2
        score: me.pts
    """, {"m": """
        module m:
            title "M"
        extend gain before:
            trace = trace * 10 + 1
    """})
    game = load_game(d, players=2, modules=["m"])
    s = game.new_initial_state()
    assert game.is_terminal(s)
    assert game.observe(s, None)["state"]["trace"] == 12


def test_a_module_redefining_a_base_name_is_an_error_noting_the_base_file(tmp_path):
    d = write(tmp_path, SMALL, {"m": "module m:\n    title \"M\"\nconst LIMIT = 4\n"})
    errs = [e for e in check_rules(d, ["m"], 2).diagnostics if e.is_error]
    assert [e.code for e in errs] == ["E102"]
    assert errs[0].span.file.endswith("m.regola")
    (span, note), = errs[0].notes
    assert span.file.endswith("g.regola") and span.line == 4 and note == "first defined here"


# ---------------------------------------------------------------- extend enum, players, parts

COLOURS = """
game g:
    players 2..3
enum Colour: red, blue
per player:
    got: map Colour to int
flow:
    for p in players:
        for c in values(Colour):
            p.got[c] = ordinal(c) + 1
score: sum(me.got[c] for c in values(Colour))
"""


def test_a_module_extends_an_enum_with_values_after_the_base_ones(tmp_path):
    d = write(tmp_path, COLOURS, {"more": """
        module more:
            title "More colours"
        extend enum Colour: green,
            purple
    """})
    base, more = load_game(d, players=2), load_game(d, players=2, modules=["more"])
    for game, want in ((base, {"red": 1, "blue": 2}), (more, {"red": 1, "blue": 2, "green": 3, "purple": 4})):
        s = game.new_initial_state()
        assert game.observe(s, None)["player_state"]["player(1)"]["got"] == want


def test_extending_an_unknown_enum_or_repeating_a_value_is_an_error(tmp_path):
    d = write(tmp_path, COLOURS, {"bad": "module bad:\n    title \"B\"\nextend enum Color: green\n",
                                  "twice": "module twice:\n    title \"T\"\nextend enum Colour: blue\n"})
    with pytest.raises(RulesError) as ei:
        load_game(d, players=2, modules=["bad"])
    assert "no enum 'Color' to extend; did you mean 'Colour'?" in ei.value.diagnostics[0].message
    with pytest.raises(RulesError) as ei:
        load_game(d, players=2, modules=["twice"])
    assert "'blue' is already a value of Colour" in ei.value.diagnostics[0].message


def test_a_module_with_its_own_player_range(tmp_path):
    d = write(tmp_path, COLOURS, {"crowd": "module crowd:\n    title \"Crowd\"\n    players 2..5\n"})
    assert load_game(d, players=5, modules=["crowd"]).num_players == 5
    # without the module the game is for 2 to 3
    with pytest.raises(ModuleSelectionError, match="for 2 to 3 players, not 5"):
        load_game(d, players=5)
    with pytest.raises(ModuleSelectionError, match="with crowd is for 2 to 5 players, not 6"):
        load_game(d, players=6, modules=["crowd"])
    # the most players it allows, when none is given
    assert load_game(d, modules=["crowd"]).num_players == 5


def test_part_files_of_a_module_come_with_it(tmp_path):
    d = write(tmp_path, COLOURS, {
        "more": "module more:\n    title \"More\"\nextend enum Colour: green\n",
        "more-data": "part of more\nconst EXTRA = 10\n",
        "more-score": "part of more\nreplace score: sum(me.got[c] for c in values(Colour)) + EXTRA\n",
    })
    base, more = load_game(d, players=2), load_game(d, players=2, modules=["more"])
    assert base.scores(base.new_initial_state()) == [3, 3]
    assert more.scores(more.new_initial_state()) == [16, 16]


def test_a_part_of_no_game_or_module_is_an_error(tmp_path):
    d = write(tmp_path, COLOURS, {"stray": "part of mroe\nconst X = 1\n",
                                  "more": "module more:\n    title \"More\"\n"})
    with pytest.raises(RulesError) as ei:
        load_game(d, players=2)
    assert "no module has that name; did you mean 'more'?" in ei.value.diagnostics[0].message


CARDS = """
game g:
    players 2..2
record Card:
    points: int
components Card:
    | name | points |
    | a    | 1      |
    | b    | 2      |
global:
    pile: pile of Card
setup:
    fill pile with copies(Card)
flow:
    pass
score: sum(c.points for c in pile)
"""


def test_a_module_extends_a_record_with_fields_that_have_defaults(tmp_path):
    d = write(tmp_path, CARDS, {"bonus": """
        module bonus:
            title "Bonus"
        extend record Card:
            bonus: int = 10
            tags: list of int = []
        components Card:
            | name | points | bonus |
            | c    | 3      | 100   |
        replace score: sum(c.points + c.bonus for c in pile)
    """})
    base, bonus = load_game(d, players=2), load_game(d, players=2, modules=["bonus"])
    assert base.scores(base.new_initial_state()) == [3, 3]
    # a and b take the default 10, c gives 100
    assert bonus.scores(bonus.new_initial_state()) == [126, 126]   # 1+10, 2+10, 3+100


def test_an_added_field_needs_a_default_and_a_new_name(tmp_path):
    d = write(tmp_path, CARDS, {"nodef": "module nodef:\n    title \"N\"\nextend record Card:\n    bonus: int\n",
                                "dup": "module dup:\n    title \"D\"\nextend record Card:\n    points: int = 1\n"})
    with pytest.raises(RulesError) as ei:
        load_game(d, players=2, modules=["nodef"])
    assert "needs a default value" in ei.value.diagnostics[0].message
    with pytest.raises(RulesError) as ei:
        load_game(d, players=2, modules=["dup"])
    assert "already has a field 'points'" in ei.value.diagnostics[0].message


def test_players_may_be_one_number(tmp_path):
    """`players 2` is `players 2..2`; `players 0` is refused like `players 0..0`."""
    from regola.compose import read_game
    from rules_helpers import write
    src = read_game(write(tmp_path, "game g:\n    players 3\nflow:\n    pass\nscore: 0\n", name="one"))
    assert (src.min_players, src.max_players) == (3, 3)
    with pytest.raises(RulesError) as e:
        read_game(write(tmp_path, "game g:\n    players 0\nflow:\n    pass\nscore: 0\n", name="zero"))
    assert [d.code for d in e.value.diagnostics] == ["E017"]
