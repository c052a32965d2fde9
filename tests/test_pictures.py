"""Pictures: the SVG of a state for each viewer (every bundled game, well-formed, hidden
things drawn as counts), `regola render`, the replay page of `regola replay --html`, and
the request handler of `regola serve` (in-process, on a free port)."""

import json
import random
import re
import threading
import urllib.error
import urllib.request
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from regola.loader import load_game
from regola.resources import bundled_games
from regola.tools import logs
from regola.tools.cli import main
from regola.tools.match import agents_for, play
from regola.tools.pictures.picture import ALL, observation, picture, state_svg
from regola.tools.pictures.replay_html import frame_svg, unpack
from regola.tools.pictures.serve import Table, make_server
from regola.tools.pictures.steps import last_move_text, log_steps
from regola.tools.pictures.svg import esc

PICTURES = Path(__file__).resolve().parent.parent / "tools" / "pictures"


def well_formed(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    return root


def players_for(name: str) -> int:
    from regola.compose import read_game
    from regola.resources import find_rules
    src = read_game(find_rules(name))
    return max(src.min_players, min(3, src.max_players))


def a_decision(game, seed: int, moves: int):
    """A state after some random moves, at a player's decision (chance drawn as it comes)."""
    rng = random.Random(seed)
    s = game.new_initial_state(seed)
    done = 0
    while s.pending is not None:
        if game.is_chance(s):
            game.apply_chance(s, game.sample_chance(s))
            continue
        if done == moves:
            break
        game.apply(s, rng.choice(game.legal_moves(s)))
        done += 1
    return s


def word(name: str) -> re.Pattern:
    """`name` as a whole name, not inside another (`king` is not in `play_king`)."""
    return re.compile(r"(?<![A-Za-z0-9_])" + re.escape(name) + r"(?![A-Za-z0-9_])")


# ------------------------------------------------------------------ the renderer

@pytest.mark.parametrize("name", bundled_games())
def test_every_bundled_game_at_a_decision_for_several_viewers(name):
    game = load_game(name, players=players_for(name))
    s = a_decision(game, 7, 6)
    assert s.pending is not None and s.pending[1] >= 0
    mover = s.pending[1]
    for viewer in [*range(game.num_players), None, ALL]:
        svg = state_svg(game, s, viewer)
        well_formed(svg)
        assert esc(game.title) in svg
        if viewer == ALL:
            assert "omniscient view" in svg
        elif viewer is None:
            assert "spectator view" in svg
        else:
            assert f"as player({viewer + 1}) sees it" in svg
        assert f"player({mover + 1}) to move" in svg
        # the legal moves: for the player deciding and the omniscient view only
        listed = "legal moves (" in svg
        assert listed == (viewer == mover or viewer == ALL), viewer
        for vs in game.vars:                     # each variable that views show is drawn by name
            if not vs.internal and vs.kind not in ("known", "cell_attr"):
                assert esc(vs.name) in svg, vs.name


def test_the_renderer_knows_no_game():
    names = set()
    for name in bundled_games():
        names |= {name, name.replace("-", "_"), load_game(name, players=players_for(name)).title.lower()}
    text = "\n".join(p.read_text(encoding="utf-8").lower() for p in PICTURES.glob("*.py"))
    for n in names:
        assert not word(n.lower()).search(text), n


def test_a_grid_is_drawn_with_its_lines_areas_and_cell_marks():
    game = load_game("lungarno", players=3)
    s = a_decision(game, 3, 40)
    svg = state_svg(game, s, None)
    well_formed(svg)
    assert "river: after row 1" in svg
    assert "street: after columns 2, 5, 8" in svg
    assert "district: 8 areas" in svg
    obs = game.observe(s, None)
    for cell, kind in obs["state"]["board"].items():
        assert f"<title>{cell} district(" in svg and f": {kind} (Tile)" in svg
    for cell, who in obs["state"]["merchant"].items():       # the cell's title names the merchant
        assert re.search(re.escape(cell) + r" district\(\d+\): [^<]*; merchant: " + re.escape(who), svg)


def hidden_hand_case(name: str, players: int, hand: str = "hand"):
    """A state where player(2)'s private hand holds a kind that nothing player(1) sees
    names, player(1) not deciding; (game, state, that kind)."""
    game = load_game(name, players=players)
    for seed in range(200):
        s = a_decision(game, seed, seed % 9)
        if s.pending is None or s.pending[1] == 0:
            continue
        held = game.observe(s, 1)["player_state"]["player(2)"][hand].get("contents") or {}
        seen = json.dumps(game.observe(s, 0))
        secret = [k for k in held if not word(k).search(seen)]
        if secret:
            return game, s, secret[0]
    raise AssertionError("no such state found")


@pytest.mark.parametrize("name", ["love-letter", "lungarno"])
def test_a_hidden_hand_of_another_player_is_a_count_and_not_its_cards(name):
    game, s, secret = hidden_hand_case(name, 3)
    count = game.observe(s, 1)["player_state"]["player(2)"]["hand"]["count"]
    for viewer in (0, 2, None):
        svg = state_svg(game, s, viewer)
        assert not word(secret).search(svg), (viewer, secret)
        assert f"hand (private): {count}" in svg
        assert f"{count} hidden" in svg
    assert word(secret).search(state_svg(game, s, 1))            # the owner sees it
    assert word(secret).search(state_svg(game, s, ALL))          # and the omniscient view


def test_face_down_slots_are_backs_unless_known():
    game = load_game("hanabi", players=3)
    s = a_decision(game, 1, 4)
    own = game.observe(s, 0)["player_state"]["player(1)"]["hand"]
    assert set(own.values()) == {"hidden"}
    svg = state_svg(game, s, 0)
    assert svg.count("face down, not known to this viewer") >= len(own)
    real = observation(game, s, ALL)["player_state"]["player(1)"]["hand"]
    assert "hidden" not in real.values()
    assert state_svg(game, s, ALL).count("face down") == 0


def test_text_is_escaped_everywhere(tmp_path):
    rules = Path(__file__).resolve().parent.parent / "rules" / "tic-tac-toe" / "tic-tac-toe.regola"
    hostile = '</title><script>alert(1)</script> & ]]> \\"q\\"'
    text = rules.read_text(encoding="utf-8").replace('title "Tic-Tac-Toe"', f'title "{hostile}"')
    (tmp_path / "h.regola").write_text(text, encoding="utf-8")
    game = load_game(str(tmp_path / "h.regola"))
    s = game.new_initial_state(0)
    obs = game.observe(s, 0)
    obs["decision"]["prompt"] = "<b>bold</b> & \x1b[2J\u202e\ud800"
    obs["state"]["winner"] = "<script>x</script>"
    svg = picture(game, obs, moves=["<m>&"], taken="<m>&", last="</svg>")
    root = well_formed(svg)
    assert "<script" not in svg and "<b>" not in svg and "</svg>" not in svg[:-6]
    assert "\x1b" not in svg and "\u202e" not in svg
    texts = " ".join(t.text or "" for t in root.iter("{http://www.w3.org/2000/svg}text"))
    assert "<script>x</script>" in texts and "<m>&" in texts and "\\x1b[2J" in texts
    assert root.find("{http://www.w3.org/2000/svg}title").text.startswith(game.title)
    assert esc("a<b&'\"") == "a&lt;b&amp;&#39;&quot;"


# ------------------------------------------------------------------ regola render

def write_log(tmp_path, name, players, seed=1, bots=("random",)) -> Path:
    game = load_game(name, players=players)
    res = play(game, agents_for(game, list(bots), seed), seed, rules=name, record=True)
    path = tmp_path / f"{name}.jsonl"
    logs.write(path, res.log)
    return path


def render(capsys, *args):
    code = main(["render", *map(str, args)])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_render_a_saved_state_for_each_viewer(tmp_path, capsys):
    game = load_game("love-letter", players=3)
    s = a_decision(game, 2, 3)
    path = tmp_path / "state.json"
    path.write_text(json.dumps(game.dump(s)), encoding="utf-8")
    for who, viewer in (("1", 0), ("3", 2), ("0", None), ("spectator", None), ("all", ALL)):
        code, out, err = render(capsys, path, "--player", who)
        assert code == 0, err
        assert out.strip() == state_svg(game, s, viewer)
    code, out, err = render(capsys, path, "--player", "2", "--svg", tmp_path / "p2.svg")
    assert code == 0 and out == ""
    well_formed((tmp_path / "p2.svg").read_text(encoding="utf-8"))
    code, _, err = render(capsys, path, "--player", "4")
    assert code == 1 and "give a seat from 1 to 3" in err
    code, _, err = render(capsys, path, "--step", "2")
    assert code == 1 and "--step is for a log" in err
    (tmp_path / "junk.json").write_text("[1, 2", encoding="utf-8")
    code, _, err = render(capsys, tmp_path / "junk.json")
    assert code == 1 and "not a saved state" in err


def test_render_a_log_at_a_step_and_the_omniscient_view_only_when_asked(tmp_path, capsys):
    path = write_log(tmp_path, "love-letter", 3)
    game, _, steps = log_steps(path)
    code, out, err = render(capsys, path, "--player", "2", "--step", "4")
    assert code == 0, err
    assert out.strip() == state_svg(game, steps[4].state, 1, last=last_move_text(game, steps, 4, 1))
    code, out, _ = render(capsys, path, "--player", "2")
    assert out.strip() == state_svg(game, steps[-1].state, 1, last=last_move_text(game, steps, len(steps) - 1, 1))
    assert "Game over" in out
    code, out, err = render(capsys, path, "--player", "all")
    assert code == 1 and out == "" and "--omniscient" in err
    code, out, err = render(capsys, path, "--player", "all", "--omniscient", "--step", "3")
    assert code == 0 and "omniscient view" in out
    code, out, err = render(capsys, path, "--omniscient", "--step", "3")
    assert code == 0 and "omniscient view" in out
    code, _, err = render(capsys, path, "--step", str(len(steps)))
    assert code == 1 and f"steps 0 to {len(steps) - 1}" in err
    # a game without hidden information: nothing to hide, so --player all is plain
    path = write_log(tmp_path, "tic-tac-toe", 2)
    code, out, err = render(capsys, path, "--player", "all")
    assert code == 0 and "omniscient view" in out


# ------------------------------------------------------------------ regola replay --html

def replay_data(page: str) -> tuple[dict, dict]:
    m = re.search(r'<script type="application/json" id="replay">(.*?)</script>', page, re.S)
    facts = json.loads(m.group(1))
    return facts, unpack(facts["data"])


def test_the_replay_page_has_one_picture_per_step_and_viewer(tmp_path, capsys):
    path = write_log(tmp_path, "love-letter", 3, seed=4)
    out = tmp_path / "replay.html"
    assert main(["replay", str(path), "--html", str(out)]) == 0
    printed = capsys.readouterr().out
    page = out.read_text(encoding="utf-8")
    game, log, steps = log_steps(path)
    moves = sum(1 for e in log.entries if e["type"] == "move")
    assert len(steps) == moves + 1
    assert f"{len(steps)} steps, {game.num_players + 2} viewers" in printed
    facts, data = replay_data(page)
    assert facts["steps"] == len(steps)
    assert facts["viewers"] == ["player(1)", "player(2)", "player(3)", "spectator", "omniscient"]
    viewers = [0, 1, 2, None, ALL]
    for i, v in enumerate(viewers):
        frames, notes = data["viewers"][i]["frames"], data["viewers"][i]["notes"]
        assert len(frames) == len(notes) == len(steps)
        for k, step in enumerate(steps):
            # exactly the renderer's picture of that step for that viewer
            assert frame_svg(data, i, k) == state_svg(game, step.state, v, last=last_move_text(game, steps, k, v),
                                                      moves=False)
            note = notes[k]
            if step.move is not None:
                mover = step.state.pending[1]
                assert note["mover"] == f"player({mover + 1})"
                sees = v == ALL or v == mover
                assert (note["moves"] is not None) == sees
                if sees:
                    assert note["move"] == game.move_str(step.state, step.move) and note["move"] in note["moves"]
                else:
                    assert note["move"] == game.move_str_seen_by(step.state, step.move, v)
            assert ("chance" in note) == (v == ALL and bool(step.chance))
    well_formed(frame_svg(data, 0, len(steps) - 1))
    # self-contained: no file or address is fetched
    assert not re.search(r"""(src|href)\s*=|@import|url\(\s*['"]?(https?:|//)""", page)
    assert "https://" not in page and "http://" not in page.replace("http://www.w3.org/2000/svg", "")


def test_replay_html_of_a_broken_log_writes_nothing(tmp_path, capsys):
    path = write_log(tmp_path, "tic-tac-toe", 2)
    lines = path.read_text(encoding="utf-8").splitlines()
    path.write_text("\n".join(lines[:3] + ['{"type": "move", "player": 1, "move": "mark((9,9))"}']) + "\n",
                    encoding="utf-8")
    out = tmp_path / "r.html"
    assert main(["replay", str(path), "--html", str(out)]) == 1
    assert not out.exists()
    assert "regola replay:" in capsys.readouterr().err


# ------------------------------------------------------------------ regola serve

@pytest.fixture
def server():
    started = []

    def start(name, players, seat=0, bots=("random",), seed=0):
        game = load_game(name, players=players)
        table = Table(game, seat, list(bots), seed)
        srv = make_server(table, 0)
        threading.Thread(target=srv.serve_forever, daemon=True).start()
        started.append(srv)
        return game, table, f"http://127.0.0.1:{srv.server_address[1]}"
    yield start
    for srv in started:
        srv.shutdown()
        srv.server_close()


def request(url, data=None, headers=None, method=None):
    body = None if data is None else json.dumps(data).encode()
    h = {"Content-Type": "application/json"} if data is not None else {}
    h.update(headers or {})
    req = urllib.request.Request(url, data=body, headers=h, method=method)
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return r.status, r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode()


def test_serve_shows_the_page_refuses_an_illegal_move_and_plays_a_legal_one(server):
    game, table, url = server("tic-tac-toe", 2)
    status, page = request(url + "/")
    assert status == 200 and page.startswith("<!DOCTYPE html>")
    assert "<svg" in page and "as player(1) sees it" in page
    status, body = request(url + "/view")
    view = json.loads(body)
    assert view["moves"] == [game.move_str(table.state, m) for m in game.legal_moves(table.state)]
    assert view["moves_made"] == 0
    status, body = request(url + "/move", {"move": "mark((7,7))"})
    assert status == 400
    err = json.loads(body)["error"]
    assert err.startswith("illegal move") and json.loads(body)["view"]["moves_made"] == 0
    first = game.move_str(table.state, game.legal_moves(table.state)[0])
    status, body = request(url + "/move", {"move": view["moves"][0]})
    assert status == 200
    after = json.loads(body)
    assert after["moves_made"] == 2                  # ours and the bot's answer
    assert after["events"][0] == f"you played {first}"
    assert after["events"][1].startswith("player(2) played mark(")
    assert view["moves"][0] not in after["moves"]
    # play on to the end: the scores and the winners are shown
    while not after["over"]:
        status, body = request(url + "/move", {"move": after["moves"][0]})
        assert status == 200
        after = json.loads(body)
    assert set(after["scores"]) == {"player(1)", "player(2)"} and after["winners"]
    assert after["moves"] == []
    status, body = request(url + "/move", {"move": "mark((0,0))"})
    assert status == 400 and "the game is over" in json.loads(body)["error"]
    status, body = request(url + "/new", {})
    assert status == 200 and json.loads(body)["moves_made"] == 0


def test_serve_refuses_what_is_not_a_move_from_this_page(server):
    game, table, url = server("tic-tac-toe", 2)
    assert request(url + "/view", headers={"Host": "evil.example:80"})[0] == 403
    assert request(url + "/move", {"move": "mark((0,0))"}, headers={"Host": "evil.example"})[0] == 403
    assert request(url + "/move", {"move": "mark((0,0))"}, headers={"Content-Type": "text/plain"})[0] == 415
    assert request(url + "/move", {"nope": 1})[0] == 400
    assert request(url + "/elsewhere")[0] == 404
    assert table.moves_made == 0


def test_serve_sends_nothing_another_seat_hides(server):
    game, table, url = server("love-letter", 3, seat=0, seed=5)
    for _ in range(20):
        status, body = request(url + "/view")
        view = json.loads(body)
        s = table.state
        assert view["svg"] == state_svg(game, s, 0, moves=False)
        # what seat 1 may know: its observation, its moves, the others' moves as told to it
        public = json.dumps([game.observe(s, 0), view["moves"], view["events"]])
        for p in (1, 2):
            held = game.observe(s, p)["player_state"][f"player({p + 1})"]["hand"].get("contents") or {}
            for kind in held:
                if not word(kind).search(public):
                    assert not word(kind).search(body), kind
        if view["over"] or not view["moves"]:
            break
        request(url + "/move", {"move": view["moves"][0]})


def test_serve_command_checks_its_arguments(capsys):
    assert main(["serve", "tic-tac-toe", "--seat", "3"]) == 2
    assert "give a seat from 1 to 2" in capsys.readouterr().err
    assert main(["serve", "tic-tac-toe", "--bots", "random,random,random"]) == 2
    assert "--bots" in capsys.readouterr().err
