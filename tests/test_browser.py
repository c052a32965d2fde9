"""The pages in a real browser: `regola serve` played by clicking a move, and a replay page
of `regola replay --html` stepped with its button and the arrow key.

Needs Debian's chromium at /usr/bin/chromium (`make browser-deps`, or `apt-get install -y
chromium`) and the Python package playwright (`pip install -e '.[browser]'`); playwright's
own browser download (`playwright install`) is not used. Skipped, saying which is missing,
when either is.
"""

import json
import os
import socket
import struct
import subprocess
import sys
import time
import urllib.request
import zlib
from pathlib import Path

import pytest

CHROMIUM = "/usr/bin/chromium"
if not Path(CHROMIUM).exists():
    pytest.skip(f"no Debian chromium at {CHROMIUM} (make browser-deps, or apt-get install -y chromium)",
                allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api",
                               reason="the Python package playwright is missing (pip install -e '.[browser]')")

from regola.loader import load_game  # noqa: E402
from regola.tools import logs  # noqa: E402
from regola.tools.match import agents_for, play  # noqa: E402
from regola.tools.pictures.replay_html import write_replay_html  # noqa: E402

ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


@pytest.fixture
def page(browser):
    """A page that records its errors and every request that leaves for the network. (The
    pages' Content-Security-Policy stays on, so the tests wait with selectors, not with
    JavaScript given as text, which it forbids.)"""
    pg = browser.new_page(viewport={"width": 1300, "height": 900})
    pg.errors, pg.outside = [], []
    pg.on("pageerror", lambda e: pg.errors.append(str(e)))

    def route(r):
        url = r.request.url
        if url.startswith(("file://", "http://127.0.0.1:", "data:")):
            return r.continue_()
        pg.outside.append(url)
        return r.abort()
    pg.route("**/*", route)
    yield pg
    pg.close()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def served():
    """`regola serve` in a process of its own on a free port; stopped after the test."""
    procs = []

    def start(*args):
        port = free_port()
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        proc = subprocess.Popen([sys.executable, "-m", "regola.tools.cli", "serve", *args, "--port", str(port)],
                                cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        procs.append(proc)
        url = f"http://127.0.0.1:{port}/"
        for _ in range(300):
            if proc.poll() is not None:
                raise AssertionError(f"regola serve stopped: {proc.stdout.read()}")
            try:
                with urllib.request.urlopen(url + "view", timeout=5) as r:
                    json.load(r)
                return url
            except OSError:
                time.sleep(0.2)
        raise AssertionError("regola serve did not answer in 60 s")
    yield start
    for proc in procs:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()


def png_pixels(data: bytes):
    """(width, height, rows of pixels as bytes, bytes per pixel) of an 8-bit RGB(A) PNG."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat = 8, b""
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        pos += 12 + n
        if kind == b"IHDR":
            w, h, depth, colour = struct.unpack(">IIBB", body[:10])
        elif kind == b"IDAT":
            idat += body
    assert depth == 8 and colour in (2, 6), (depth, colour)
    bpp = 3 if colour == 2 else 4
    raw, stride = zlib.decompress(idat), w * bpp
    rows, prev = [], bytearray(stride)
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride) if f else ():
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            else:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return w, h, rows, bpp


def assert_a_picture(png: bytes, width: int, height: int):
    """A real screenshot: a PNG of that size, more than a kilobyte, of many colours."""
    assert len(png) > 1024
    w, h, rows, bpp = png_pixels(png)
    assert (w, h) == (width, height)
    colours = {row[i:i + 3] for row in rows[::7] for i in range(0, len(row), bpp * 5)}
    assert len(colours) > 20, len(colours)


def test_serve_in_a_browser_click_a_move_and_see_the_page_change(served, page):
    url = served("lungarno", "--players", "2", "--seed", "3", "--bots", "random")
    page.goto(url)
    assert page.title() == "Lungarno - regola serve"
    page.wait_for_selector("body[data-moves-made] #stage svg")           # the script has run
    assert "as player(1) sees it" in page.inner_html("#stage")
    before = page.get_attribute("body", "data-moves-made")
    buttons = page.locator("#moves button.move")
    assert buttons.count() > 0
    first = buttons.first.text_content()
    buttons.first.click()
    page.wait_for_selector(f"body:not([data-moves-made={json.dumps(before)}])", timeout=30000)
    assert page.locator("#events li").last.text_content() == f"you played {first}"
    assert page.text_content("#error") == ""
    # a move typed by hand that is not legal: refused with the engine's message, nothing changes
    made = page.get_attribute("body", "data-moves-made")
    page.fill("#typed", "play_tile(nothing, (9,9))")
    page.click("#go")
    page.wait_for_selector("#error:not(:empty)", timeout=30000)
    assert page.text_content("#error").startswith("illegal move")
    assert page.get_attribute("body", "data-moves-made") == made
    png = page.screenshot(clip={"x": 0, "y": 0, "width": 800, "height": 600})
    assert_a_picture(png, 800, 600)
    assert page.errors == [] and page.outside == []


def test_a_replay_page_in_a_browser_steps_and_switches_viewer(tmp_path, page):
    game = load_game("love-letter", players=2)
    res = play(game, agents_for(game, ["random"], 2), 2, rules="love-letter", record=True)
    log = tmp_path / "game.jsonl"
    logs.write(log, res.log)
    out = tmp_path / "replay.html"
    write_replay_html(log, out)
    page.goto(out.as_uri())
    page.wait_for_selector('body[data-step="0"]', timeout=30000)
    assert page.text_content("#where") == f"step 0 of {res.moves}"
    assert "spectator view" in page.inner_html("#stage")
    page.click("#next")
    page.wait_for_selector('body[data-step="1"]')
    page.keyboard.press("ArrowRight")
    page.wait_for_selector('body[data-step="2"]')
    assert page.text_content("#where") == f"step 2 of {res.moves}"
    page.select_option("#viewer", label="omniscient")
    page.wait_for_selector('body[data-viewer="omniscient"]')
    assert "omniscient view" in page.inner_html("#stage")
    assert page.locator("#moves span").count() > 0            # the omniscient view sees the legal moves
    page.keyboard.press("End")
    page.wait_for_selector(f'body[data-step="{res.moves}"]')
    assert "Game over" in page.inner_html("#stage")
    png = page.screenshot(clip={"x": 0, "y": 0, "width": 800, "height": 600})
    assert_a_picture(png, 800, 600)
    assert page.errors == [] and page.outside == []


def test_a_balance_report_in_a_browser(tmp_path, page):
    """`regola balance --html`: the page loads with no script and no request leaving the
    machine, shows its charts (one SVG per figure) and is a real picture."""
    from regola.tools.cli import main
    out = tmp_path / "balance.html"
    assert main(["balance", "tic-tac-toe", "--players", "2", "--bots", "random", "--games", "40",
                 "--html", str(out)]) == 0
    page.goto(out.as_uri())
    page.wait_for_selector("svg")
    assert page.title().startswith("Balance")
    assert page.locator("svg").count() >= 4            # win rates, scores per seat, margin, length
    assert "fair share" in page.inner_html("body")
    png = page.screenshot(clip={"x": 0, "y": 0, "width": 800, "height": 600})
    assert_a_picture(png, 800, 600)
    assert page.errors == [] and page.outside == []
