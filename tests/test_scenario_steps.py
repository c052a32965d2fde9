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


# ---------------------------------------------------------------------- issue 12, item 2

def _run_file(tmp_path, body: str, rules_text: str | None = None):
    if rules_text is not None:
        (tmp_path / "secrets.regola").write_text(rules_text, encoding="utf-8")
    p = tmp_path / "s.yaml"
    p.write_text(textwrap.dedent(body), encoding="utf-8")
    return [run_scenario(sc) for sc in load_file(p)]


def test_observe_knows_a_count_and_what_was_peeked_at_and_not_a_hidden_hand(tmp_path):
    from test_language_knowledge import SECRETS
    ok, peeked, cannot_know, can_tell, own = _run_file(tmp_path, """\
        rules: secrets.regola
        players: 3
        scenarios:
          - name: a hidden hand shows only its count
            steps:
              - observe: {player: 3, expect: ["count(player(2).hand) == 1"], unknown: ["player(2).hand"]}
          - name: what player 1 peeked at they know
            steps:
              - move: look(player(2))
              - observe:
                  player: 1
                  expect: ["g in player(2).hand", "count(deck) == 3"]
                  unknown: ["player(3).hand"]
          - name: an expectation on a card the player cannot see
            steps:
              - observe: {player: 3, expect: ["g in player(2).hand"]}
          - name: a value the player can tell is not unknown
            steps:
              - observe: {player: 3, unknown: ["count(player(2).hand)"]}
          - name: your own hand is yours to see
            steps:
              - observe: {player: 2, unknown: ["me.hand"]}
        """, SECRETS.replace("deck: pile of Card", "deck: pile of Card, hidden"))
    assert ok.ok and ok.checks == 2, ok.message
    assert peeked.ok and peeked.checks == 3, peeked.message
    assert not cannot_know.ok and "player 3 cannot know it" in cannot_know.message
    assert not can_tell.ok and "player 3 can tell count(player(2).hand)" in can_tell.message
    assert not own.ok and "player 2 can tell me.hand" in own.message


def test_refused_modules(tmp_path):
    ok, accepted, other_reason = _run_file(tmp_path, """\
        rules: lions-of-lydia
        players: 3
        scenarios:
          - name: the tomb and the estates cannot be played together
            refused_modules: [tomb, estates]
            refusal: cannot be used together
          - name: these can
            refused_modules: [tomb, croesus]
          - name: refused, but for another reason than the one given
            refused_modules: [tomb, estates]
            refusal: not enough players
        """)
    assert ok.ok, ok.message
    assert not accepted.ok and "expected to be refused together, but the game loaded" in accepted.message
    assert not other_reason.ok and "not for 'not enough players'" in other_reason.message


def test_refused_modules_with_steps_is_a_scenario_error(tmp_path):
    from regola.tools.scenarios import ScenarioError
    import pytest
    p = tmp_path / "s.yaml"
    p.write_text("rules: lions-of-lydia\nrefused_modules: [tomb, estates]\nsteps:\n  - to_move: 1\n")
    with pytest.raises(ScenarioError, match="has no position or steps"):
        load_file(p)


def test_forced_names_a_decision_taken_without_asking(tmp_path):
    moves = ["mark((0,0))", "mark((0,1))", "mark((0,2))", "mark((1,1))", "mark((1,0))", "mark((2,0))",
             "mark((2,1))", "mark((1,2))"]
    body = "rules: tic-tac-toe\nscenarios:\n  - name: the last cell\n    steps:\n" + \
        "".join(f"      - move: \"{m}\"\n" for m in moves) + \
        "      - forced: \"mark((2,2))\"\n      - to_move: over\n" + \
        "  - name: a move that was asked for\n    steps:\n      - move: \"mark((1,1))\"\n" + \
        "      - forced: \"mark((1,1))\"\n"
    last, asked = _run_file(tmp_path, body)
    assert last.ok, last.message
    assert not asked.ok and "was not taken without asking" in asked.message and "none" in asked.message


def test_impossible_chance_outcomes(tmp_path):
    """A tile of which no copy is left in the draw stack cannot be drawn; a kind with copies
    left can; a name that is no tile at all is an error of the scenario."""
    from regola.loader import load_game
    game = load_game("lungarno", players=3)
    for seed in range(100):                  # a game whose setup dealt a one-of-a-kind tile
        s = game.new_initial_state(seed)
        while game.is_chance(s):
            game.step_chance(s)
        game.apply(s, "buy_tile(0)")
        counts = game._draw_counts(s)
        gone = [k for k, n in enumerate(counts) if n == 0]
        if gone:
            break
    kinds = game.prog.records["Tile"].kinds
    gone_name, left_name = kinds[gone[0]], kinds[counts.index(max(counts))]
    ok, possible, nonsense, no_chance = _run_file(tmp_path, f"""\
        rules: lungarno
        players: 3
        seed: {seed}
        scenarios:
          - name: a tile with no copy left
            steps:
              - move: buy_tile(0)
              - impossible: [{gone_name}]
          - name: a tile with copies left
            steps:
              - move: buy_tile(0)
              - impossible: {left_name}
          - name: no tile at all
            steps:
              - move: buy_tile(0)
              - impossible: [no_such_tile]
          - name: no chance event
            steps:
              - impossible: [{gone_name}]
        """)
    assert ok.ok, ok.message
    assert not possible.ok and f"'{left_name}' can come from this chance event" in possible.message
    assert not nonsense.ok and "no outcome this chance event could ever have" in nonsense.message
    assert not no_chance.ok


def test_impossible_rolls(tmp_path):
    ok, possible = _run_file(tmp_path, """\
        rules: cant-stop
        players: 2
        scenarios:
          - name: a die shows no 7
            steps:
              - impossible: [7, 0]
          - name: a die can show 3
            steps:
              - impossible: 3
        """)
    assert ok.ok, ok.message
    assert not possible.ok and "'3' can come" in possible.message


def test_yaml_mistakes_are_named_as_yaml_mistakes(tmp_path):
    import pytest
    from regola.tools.scenarios import ScenarioError
    p = tmp_path / "s.yaml"
    p.write_text("rules: lungarno\nsteps:\n  - expect:\n      - player(1).florins: 3\n")
    with pytest.raises(ScenarioError, match=r"s.yaml:3: .*YAML read 'player\(1\).florins: 3' as a mapping"):
        load_file(p)
    p.write_text("rules: lungarno\nsteps:\n  - expect: player(1).florins: 3\n")
    with pytest.raises(ScenarioError, match=r"s.yaml:3:30: not valid YAML: mapping values .* quote the whole"):
        load_file(p)
    p.write_text("rules: lungarno\nposition:\n  - true\nsteps:\n  - to_move: 1\n")
    with pytest.raises(ScenarioError, match=r"s.yaml:3:.*YAML read true \(a yes/no value\): quote it"):
        load_file(p)


def test_to_move_first_starts_the_game_on_another_seat(tmp_path):
    ok, no_option, both = _run_file(tmp_path, """\
        scenarios:
          - name: yellow starts
            rules: cant-stop
            players: 3
            to_move_first: 3
            steps:
              - to_move: 3
          - name: a game without the option
            rules: lungarno
            players: 3
            to_move_first: 2
          - name: a seat that is not at the table
            rules: cant-stop
            players: 2
            to_move_first: 3
        """)
    assert ok.ok and ok.checks == 2, ok.message
    assert not no_option.ok and "declares `option first_player" in no_option.message
    assert not both.ok


def test_to_move_first_and_the_option_together_is_a_scenario_error(tmp_path):
    import pytest
    from regola.tools.scenarios import ScenarioError
    p = tmp_path / "s.yaml"
    p.write_text("rules: cant-stop\nto_move_first: 2\noptions: {first_player: 3}\nsteps:\n  - to_move: 2\n")
    with pytest.raises(ScenarioError, match="give one of them"):
        load_file(p)
