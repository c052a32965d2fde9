"""Game options: `option NAME: TYPE [in A..B] = DEFAULT[, "what it sets"]`, set when the game
is loaded (docs/language.md, "Game options")."""

import json

import pytest

from regola.diagnostics import RulesError, render_all
from regola.loader import load_game
from regola.options import OptionError, option_values
from rules_helpers import errors, write
from regola.tools import cli, logs
from regola.tools.match import replay

RACE = """
game race:
    title "Race"
    players 2..4
enum Colour: red, blue, green
option first: Player = player(1), "the seat that starts"
option goal: int in 1..20 = 5, "the number to reach"
option bonus_colour: Colour = red
option head_start: bool = false
global:
    x: int
    starter: Player = player(1)
    track: list of int
setup:
    starter = first
    track = [0 for i in range(0, goal)]
    if head_start:
        x = goal - 1
flow:
    loop:
        for p in seats_from(first):
            act p: step
action step(n in [1, 2]):
    x += n
    if x >= goal:
        end game
score: x + (10 if bonus_colour == blue else 0)
"""


def _race(tmp_path, **options):
    return load_game(str(write(tmp_path, RACE)), players=3, options=options or None)


def test_defaults_hold_when_nothing_is_given(tmp_path):
    g = _race(tmp_path)
    s = g.new_initial_state(0)
    assert option_values(g.prog) == {"first": "1", "goal": "5", "bonus_colour": "red", "head_start": "false"}
    assert g.options == {}
    assert g.current_player(s) == 0
    assert len(g.observe(s, None)["state"]["track"]) == 5


def test_given_values_replace_the_defaults(tmp_path):
    d = write(tmp_path, RACE)
    g = load_game(str(d), players=3, options={"first": 2, "goal": 3, "bonus_colour": "blue", "head_start": True})
    s = g.new_initial_state(0)
    assert g.current_player(s) == 1                      # seat 2 starts
    assert g.observe(s, None)["state"]["x"] == 2         # goal - 1
    assert len(g.observe(s, None)["state"]["track"]) == 3
    g.apply(s, g.legal_moves(s)[0])
    assert g.is_terminal(s) and g.scores(s) == [13, 13, 13]
    assert g.options == {"first": "2", "goal": "3", "bonus_colour": "blue", "head_start": "true"}


def test_turn_order_follows_the_first_player(tmp_path):
    g = load_game(str(write(tmp_path, RACE)), players=3, options={"first": 3, "goal": 20})
    s = g.new_initial_state(0)
    seen = []
    for _ in range(4):
        seen.append(g.current_player(s))
        g.apply(s, g.legal_moves(s)[0])
    assert seen == [2, 0, 1, 2]


def test_each_set_of_options_is_its_own_game(tmp_path):
    d = str(write(tmp_path, RACE))
    a = load_game(d, players=3, options={"goal": 3})
    b = load_game(d, players=3, options={"goal": "3"})
    c = load_game(d, players=3, options={"goal": 4})
    assert a is b                                  # the same value given twice: one compiled game
    assert a is not c and a.fingerprint != c.fingerprint
    assert load_game(d, players=3) is not a


def test_a_seat_can_be_given_as_player_k(tmp_path):
    g = load_game(str(write(tmp_path, RACE)), players=3, options={"first": "player(2)"})
    assert g.current_player(g.new_initial_state(0)) == 1


@pytest.mark.parametrize("given, code, words", [
    ({"first": 4}, "E120", "player(4): seats are numbered 1 to 3"),
    ({"first": 0}, "E120", "player(0)"),
    ({"goal": 21}, "E018", "is 21, outside its bounds 1..20"),
    ({"goal": 0}, "E018", "outside its bounds"),
    ({"goal": "true"}, "E018", "must be an int, not bool"),
    ({"head_start": 1}, "E018", "must be bool, not int"),
    ({"bonus_colour": "purple"}, "E170", "unknown name 'purple'"),
    ({"bonus_colour": "first"}, "E018", "must be Colour"),
    ({"goal": "1 +"}, "E001", ""),
    ({"goal": "x"}, "E123", "depends on the game state"),
])
def test_a_bad_value_is_a_positioned_error_in_a_source_of_its_own(tmp_path, given, code, words):
    with pytest.raises(RulesError) as e:
        load_game(str(write(tmp_path, RACE)), players=3, options=given)
    d = e.value.diagnostics[0]
    name = next(iter(given))
    assert d.code == code and words in d.message
    assert d.span.file == f"<option {name}>"
    text = render_all(e.value.diagnostics, e.value.sources)
    assert f"\n    {name}=" in text and "^" in text        # the value shown with a caret under it


@pytest.mark.parametrize("given, words", [
    ({"goals": 3}, "has no option or constant 'goals'; did you mean 'goal'?"),
    ({"speed": 3}, "its options: bonus_colour, first, goal, head_start"),
    ({"goal": ""}, "no value given"),
    ({"goal": "1\n2"}, "one short line"),
    ({"goal": 2.5}, "not float"),
    ({"bad name": 1}, "is not an option name"),
])
def test_an_unknown_option_or_a_value_that_is_not_one_is_refused_by_name(tmp_path, given, words):
    with pytest.raises(OptionError) as e:
        load_game(str(write(tmp_path, RACE)), players=3, options=given)
    assert words in str(e.value)


def test_a_game_without_options_says_so(tmp_path):
    with pytest.raises(OptionError, match=r"has no option or constant 'x' \(it has no options\)"):
        load_game("tic-tac-toe", options={"x": 1})


@pytest.mark.parametrize("decl, code, words", [
    ("option o: list of int = [1]", "E018", "an option is an int, a bool, an enum or a Player"),
    ("option o: int = true", "E018", "must be an int, not bool"),
    ("option o: int in 1..3 = 5", "E018", "outside its bounds 1..3"),
    ("option o: bool in 1..3 = true", "E151", "bounds apply to an int option"),
    ("option o: Player or none = none", "E018", "cannot be"),
    ("option o: int = count(board)", "E170", ""),
])
def test_bad_option_declarations(tmp_path, decl, code, words):
    text = RACE.replace('option head_start: bool = false', f'option head_start: bool = false\n{decl}')
    errs = errors(tmp_path, text)
    assert any(e.code == code and words in e.message for e in errs), errs


def test_an_unused_option_is_a_warning_naming_it_an_option(tmp_path):
    from rules_helpers import diagnostics
    text = RACE.replace('option head_start: bool = false', 'option head_start: bool = false\noption spare: int = 1')
    warns = [d.message for d in diagnostics(tmp_path, text) if d.code == "W001"]
    assert "option 'spare' is never used" in warns


def test_a_module_may_declare_an_option_and_another_override_its_default(tmp_path):
    files = {"long": """
        module long:
            title "A long race"
        override const goal = 12
        """, "handicap": """
        module handicap:
            title "Handicap"
        option handicap: int in 0..5 = 0, "points the first seat gives"
        extend setup after:
            x = 0 - handicap
        """}
    d = str(write(tmp_path, RACE, files=files))
    g = load_game(d, players=2, modules=["long"])
    assert option_values(g.prog)["goal"] == "12"          # still an option, with a new default
    g = load_game(d, players=2, modules=["long"], options={"goal": 2})
    assert option_values(g.prog)["goal"] == "2"
    g = load_game(d, players=2, modules=["handicap"], options={"handicap": 3})
    assert g.observe(g.new_initial_state(0), None)["state"]["x"] == -3
    with pytest.raises(OptionError, match="no option or constant 'handicap'"):
        load_game(d, players=2, options={"handicap": 3})     # the module is not chosen


def test_logs_record_the_options_and_replay_with_them(tmp_path, capsys):
    d = str(write(tmp_path, RACE))
    out = tmp_path / "logs"
    assert cli.main(["simulate", d, "--players", "3", "--games", "3", "--option", "first=2",
                     "--option", "goal=7", "--log", str(out)]) == 0
    assert "first=2, goal=7" in capsys.readouterr().out
    for f in sorted(out.iterdir()):
        header = json.loads(f.read_text().splitlines()[0])
        assert header["options"] == {"first": "2", "goal": "7"}
        game, s, log = replay(f)
        assert game.is_terminal(s) and game.options == {"first": "2", "goal": "7"}
        assert log.entries[0]["player"] == 2


def test_a_log_with_broken_options_is_refused_when_read(tmp_path):
    d = str(write(tmp_path, RACE))
    g = load_game(d, players=2, options={"goal": 3})
    h = logs.header(g, d, 0)
    for bad in ([1], {"goal": 3}, {"goal": ["3"]}):
        h["options"] = bad
        p = tmp_path / "bad.jsonl"
        p.write_text(json.dumps(h) + "\n")
        with pytest.raises(logs.LogError, match="'options'"):
            logs.read(p)


def test_info_lists_the_options_and_check_takes_them(tmp_path, capsys):
    d = str(write(tmp_path, RACE))
    assert cli.main(["info", d]) == 0
    out = capsys.readouterr().out
    assert "option goal: int in 1..20 = 5  (the number to reach; --option goal=VALUE)" in out
    assert "option bonus_colour: Colour = red  (--option bonus_colour=VALUE)" in out
    assert cli.main(["check", d, "--option", "goal=20"]) == 0
    assert cli.main(["check", d, "--option", "goal=21"]) == 1
    assert "goal=21\n" in capsys.readouterr().out          # the value shown, a caret under it
    assert cli.main(["simulate", d, "--option", "goal"]) == 1
    assert "--option takes NAME=VALUE, not 'goal'" in capsys.readouterr().err


def test_a_saved_game_resumes_with_its_options(tmp_path):
    import io
    from regola.tools.play import PlaySession, resume
    d = str(write(tmp_path, RACE))
    g = load_game(d, players=3, options={"first": 3, "goal": 9})
    save = tmp_path / "save.json"
    session = PlaySession(g, d, [], ["random"], 5, out=io.StringIO(), inp=io.StringIO(""), save_path=str(save))
    assert session.save(str(save))
    again = resume(str(save), out=io.StringIO(), inp=io.StringIO(""))
    assert again.game is g and again.game.options == {"first": "3", "goal": "9"}


# a constant of the rules, not an option: a designer's study may still set it by name
LIMITED = RACE.replace("global:", "const STEP_MAX = 2\nconst LABEL = [1, 2]\nglobal:").replace(
    "n in [1, 2]", "n in range(1, STEP_MAX + 1)")


def test_a_constant_of_the_rules_is_set_by_name_like_an_option(tmp_path):
    d = str(write(tmp_path, LIMITED))
    game = load_game(d, players=2, options={"STEP_MAX": 4})
    s = game.new_initial_state()
    assert [game.move_str(s, m) for m in game.legal_moves(s)] == ["step(1)", "step(2)", "step(3)", "step(4)"]
    assert game.options == {"STEP_MAX": "4"}                  # kept for logs and saves
    plain = load_game(d, players=2)
    assert len(plain.legal_moves(plain.new_initial_state())) == 2
    assert option_values(game.prog) == option_values(plain.prog)   # it is not an option


def test_a_constant_set_badly_is_an_error_of_the_rules_or_a_suggestion(tmp_path):
    d = str(write(tmp_path, LIMITED))
    with pytest.raises(OptionError, match=r"constant STEP_MAX is a number in the rules \(STEP_MAX = 2\), "
                                          r"not true or false: 'true'"):
        load_game(d, players=2, options={"STEP_MAX": "true"})
    with pytest.raises(OptionError, match="constant LABEL is a list in the rules"):
        load_game(d, players=2, options={"LABEL": "-3"})
    with pytest.raises(OptionError, match="did you mean 'STEP_MAX'"):
        load_game(d, players=2, options={"STEP_MX": 3})


def test_info_lists_the_constants_a_study_may_set(tmp_path, capsys):
    assert cli.main(["info", str(write(tmp_path, LIMITED))]) == 0
    out = capsys.readouterr().out
    assert "constants (a study may set one like an option, --option NAME=VALUE): STEP_MAX = 2, LABEL = [1, 2]" in out
