"""Scenario steps that cannot pass by accident (issue 12, item 1): an `illegal:` or
`legal_excludes:` step naming no move of the game at all is an error of the scenario, and a
move that exists but is refused is refused for the rules' reason."""

import textwrap

from regola.tools.scenarios import load_file, run_scenario


def _run(tmp_path, steps: str, rules="tic-tac-toe", players=None):
    p = tmp_path / "s.yaml"
    head = f"rules: {rules}\n" + (f"players: {players}\n" if players else "")
    p.write_text(head + "scenarios:\n  - name: case\n    steps:\n" + textwrap.indent(textwrap.dedent(steps), "      "),
                 encoding="utf-8")
    [sc] = load_file(p)
    return run_scenario(sc)


def test_a_misspelled_action_in_an_illegal_step_is_an_error(tmp_path):
    res = _run(tmp_path, """\
        - illegal: mrak((1,1))
        """)
    assert not res.ok and "'mrak((1,1))' is no move of this game at all" in res.message
    assert "did you mean 'mark((1,1))'" in res.message


def test_a_wrong_number_of_values_or_a_value_of_the_wrong_type_is_an_error(tmp_path):
    for move in ("mark()", "mark((1,1), (2,2))", "mark((7,7))", "mark(red)"):
        res = _run(tmp_path, f"""\
            - illegal: "{move}"
            """)
        assert not res.ok and "no move of this game at all" in res.message, move


def test_a_real_move_refused_now_still_passes_and_says_why(tmp_path):
    res = _run(tmp_path, """\
        - move: mark((1,1))
        - illegal: mark((1,1))
          because: already marked
        """)
    assert res.ok, res.message


def test_legal_excludes_of_no_move_at_all_is_an_error(tmp_path):
    res = _run(tmp_path, """\
        - legal_excludes: ["mark((1,1))", "mark((9,9))"]
        """)
    assert not res.ok and "['mark((9,9))'] name no move of this game at all" in res.message


def test_selections_are_moves_in_any_order_and_refused_by_the_rules(tmp_path):
    """Sushi Go: two cards without chopsticks is a move of the game, refused by the rules."""
    from regola.loader import load_game
    game = load_game("sushi-go", players=3)
    assert game.names_a_move("cards=[squid, wasabi]") and game.names_a_move("cards=[wasabi, squid]")
    assert not game.names_a_move("cards=[squid, wasabi, egg]")           # at most 2
    assert not game.names_a_move("cards=[squidd]")


def test_a_selection_written_in_another_order_is_the_same_move(tmp_path):
    from rules_helpers import load
    from test_language_selections import MARKET
    game = load(tmp_path, MARKET)
    s = game.new_initial_state(0)
    game.apply(s, "keep")                                  # then player 2 chooses two kinds
    texts = [game.move_str(s, m) for m in game.legal_moves(s)]
    assert "two=[red, blue]" in texts
    assert game.parse_move(s, "two=[blue, red]") == game.parse_move(s, "two=[red, blue]")
    before = game.dump(s)
    game.apply(s, "two=[blue, red]")
    assert game.dump(s) != before
