"""`regola serve RULES [--players N] [--with M] [--bots B] [--port P] [--seat S]`: play
against bots in a browser, through the same engine as everything else.

A local web server (the standard library's http.server, on 127.0.0.1 only) holds one game.
The page shows the picture of the human's seat (picture.py) and, at the seat's decisions,
the legal moves as buttons; a click POSTs the move's text, the engine applies it (an
illegal move is refused with the engine's message), the bots answer until the seat decides
again or the game ends, and the page shows the new picture, what the others did and, at the
end, the scores.

What reaches the page is what the seat may know: the picture of `game.observe(state, seat)`,
the seat's own legal moves, the others' moves as `move_str_seen_by` tells them to the seat,
and nothing of chance outcomes (the picture shows what of them is public). Requests must
name this server as their Host (a web page elsewhere cannot reach it through a rebound
name), and a move must come as JSON (which another site's page cannot send without asking).

    GET  /          the page
    GET  /view      the seat's view, as JSON
    POST /move      {"move": "take(2)"} -> the new view, or 400 {"error": "illegal move ..."}
    POST /new       a new game (the next seed)
"""

from __future__ import annotations

import json
import sys
import threading
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from regola.runtime.game import IllegalMove
from regola.textsafe import safe

from ..cli import _options, _split, whole_number
from .page import page
from .picture import state_svg

MAX_BODY = 64 * 1024
MAX_EVENTS = 200            # what the others did, kept for the page


class Table:
    """One game: a human at `seat` (from 0), bots at the other seats."""

    def __init__(self, game, seat: int, bots: list[str], seed: int = 0):
        self.game, self.seat, self.bots, self.seed = game, seat, bots, seed
        self.lock = threading.Lock()
        self.new_game(seed)

    def new_game(self, seed: int) -> None:
        from ..match import agents_for
        n = self.game.num_players
        names = self.bots if len(self.bots) in (1, n) else (self.bots[:self.seat] + ["first"] + self.bots[self.seat:])
        self.seed = seed
        self.agents = agents_for(self.game, names, seed)
        self.state = self.game.new_initial_state(seed)
        self.events: list[str] = []
        self.moves_made = 0
        self._others_play()

    def _others_play(self) -> None:
        """Chance and the bots, until the seat decides or the game ends."""
        g, s = self.game, self.state
        while s.pending is not None:
            who = s.pending[1]
            if who == -1:
                g.apply_chance(s, g.sample_chance(s))
                continue
            if who == self.seat:
                return
            m = self.agents[who].choose(g, s, g.legal_moves(s))
            self._say(f"player({who + 1}) played {g.move_str_seen_by(s, m, self.seat)}")
            g.apply(s, m)
            self.moves_made += 1

    def _say(self, text: str) -> None:
        self.events.append(text)
        del self.events[:-MAX_EVENTS]

    def play(self, text: str) -> None:
        """Apply the seat's move (its text); IllegalMove when it is not legal now."""
        g, s = self.game, self.state
        if s.pending is None:
            raise IllegalMove(text, "the game is over")
        if s.pending[1] != self.seat:
            raise IllegalMove(text, f"it is not your turn (player({s.pending[1] + 1}) decides)")
        move = g.parse_move(s, text)
        shown = g.move_str(s, move)
        g.apply(s, move)
        self.moves_made += 1
        self._say(f"you played {shown}")
        self._others_play()

    def view(self) -> dict:
        """What the page may show: the seat's picture and moves, the others' moves as the
        seat saw them, and the scores at the end."""
        g, s = self.game, self.state
        yours = s.pending is not None and s.pending[1] == self.seat
        out = {"title": g.title, "seat": f"player({self.seat + 1})", "seed": self.seed,
               "svg": state_svg(g, s, self.seat, moves=False),
               "moves": [g.move_str(s, m) for m in g.legal_moves(s)] if yours else [],
               "events": list(self.events), "moves_made": self.moves_made, "over": s.pending is None}
        if yours:
            d = g.decision(s)
            out["prompt"] = d.get("prompt") or ""
        if s.pending is None:
            out["scores"] = {f"player({p + 1})": sc for p, sc in enumerate(g.scores(s))}
            out["winners"] = [f"player({w + 1})" for w in g.winners(s)]
        return out


def make_server(table: Table, port: int = 0, quiet: bool = True) -> ThreadingHTTPServer:
    """An HTTP server on 127.0.0.1:port (0: any free port) serving `table`."""
    class Handler(_Handler):
        pass
    Handler.table, Handler.quiet = table, quiet
    server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
    server.daemon_threads = True
    return server


class _Handler(BaseHTTPRequestHandler):
    table: Table
    quiet = True
    server_version = "regola-serve"

    def log_message(self, format, *args):  # noqa: A002 - the base class's name
        if not self.quiet:
            sys.stderr.write(safe(f"{self.address_string()} - {format % args}\n"))

    def _host_ok(self) -> bool:
        port = self.server.server_address[1]
        return self.headers.get("Host", "") in (f"127.0.0.1:{port}", f"localhost:{port}")

    def _send(self, status, body: bytes, kind: str):
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("X-Frame-Options", "DENY")
        self.send_header("Content-Security-Policy", "default-src 'none'; script-src 'unsafe-inline'; "
                                                    "style-src 'unsafe-inline'; connect-src 'self'; img-src data:")
        self.end_headers()
        self.wfile.write(body)

    def _json(self, status, data):
        self._send(status, json.dumps(data).encode(), "application/json; charset=utf-8")

    def do_GET(self):  # noqa: N802 - http.server's name
        if not self._host_ok():
            return self._json(HTTPStatus.FORBIDDEN, {"error": "this server answers only as 127.0.0.1 or localhost"})
        path = self.path.split("?", 1)[0]
        with self.table.lock:
            view = self.table.view()
        if path == "/":
            return self._send(HTTPStatus.OK, page(view).encode(), "text/html; charset=utf-8")
        if path == "/view":
            return self._json(HTTPStatus.OK, view)
        return self._json(HTTPStatus.NOT_FOUND, {"error": f"no such page: {path[:100]}"})

    def do_POST(self):  # noqa: N802
        if not self._host_ok():
            return self._json(HTTPStatus.FORBIDDEN, {"error": "this server answers only as 127.0.0.1 or localhost"})
        if self.headers.get("Content-Type", "").split(";")[0].strip() != "application/json":
            return self._json(HTTPStatus.UNSUPPORTED_MEDIA_TYPE, {"error": "send JSON (Content-Type: application/json)"})
        try:
            size = int(self.headers.get("Content-Length", "0"))
        except ValueError:
            size = -1
        if not 0 <= size <= MAX_BODY:
            return self._json(HTTPStatus.REQUEST_ENTITY_TOO_LARGE, {"error": "a move is a short text"})
        try:
            body = json.loads(self.rfile.read(size) or b"{}")
        except (ValueError, RecursionError):
            return self._json(HTTPStatus.BAD_REQUEST, {"error": "the request is not JSON"})
        path = self.path.split("?", 1)[0]
        t = self.table
        if path == "/new":
            with t.lock:
                t.new_game(t.seed + 1)
                return self._json(HTTPStatus.OK, t.view())
        if path != "/move":
            return self._json(HTTPStatus.NOT_FOUND, {"error": f"no such action: {path[:100]}"})
        move = body.get("move") if isinstance(body, dict) else None
        if not isinstance(move, str) or not move.strip() or len(move) > 1000:
            return self._json(HTTPStatus.BAD_REQUEST, {"error": "give the move's text: {\"move\": \"...\"}"})
        with t.lock:
            try:
                t.play(move)
            except IllegalMove as e:
                return self._json(HTTPStatus.BAD_REQUEST, {"error": str(e), "view": t.view()})
            return self._json(HTTPStatus.OK, t.view())


# ------------------------------------------------------------------ the command

def add_parser(sub) -> None:
    s = sub.add_parser("serve", help="play against bots in a web browser (a local page on 127.0.0.1)")
    s.add_argument("rules", help="a bundled game's name or a rules path")
    s.add_argument("--players", type=whole_number, default=None)
    s.add_argument("--with", dest="with_", action="append", help="optional modules, comma separated")
    s.add_argument("--option", action="append", metavar="NAME=VALUE", help="set a game option")
    s.add_argument("--bots", action="append", help="one bot for all, or one per seat (random, first, greedy, "
                                                   "mcts:N, ismcts:N)")
    s.add_argument("--seat", type=whole_number, default=1, help="your seat, from 1 (default 1)")
    s.add_argument("--port", type=whole_number, default=8000, help="the port on 127.0.0.1 (default 8000; 0: any free)")
    s.add_argument("--seed", type=whole_number, default=0)
    s.add_argument("-v", "--verbose", action="store_true", help="print each request")
    s.set_defaults(func=cmd_serve)


def cmd_serve(args) -> int:
    from regola.loader import load_game
    game = load_game(args.rules, modules=_split(args.with_), players=args.players, options=_options(args))
    n = game.num_players
    if not 1 <= args.seat <= n:
        print(f"regola serve: --seat {args.seat}: give a seat from 1 to {n}", file=sys.stderr)
        return 2
    bots = _split(args.bots) or ["random"]
    if len(bots) not in (1, n - 1, n):
        print(f"regola serve: --bots: give one bot, or one per other seat ({n - 1}), or one per seat ({n})",
              file=sys.stderr)
        return 2
    if not 0 <= args.port <= 65535:
        print(f"regola serve: --port {args.port}: give a port from 0 to 65535", file=sys.stderr)
        return 2
    table = Table(game, args.seat - 1, bots, args.seed)
    try:
        server = make_server(table, args.port, quiet=not args.verbose)
    except OSError as e:
        print(safe(f"regola serve: cannot listen on 127.0.0.1:{args.port}: {e.strerror}"), file=sys.stderr)
        return 1
    print(safe(f"{game.title}: you are player({args.seat}); open http://127.0.0.1:{server.server_address[1]}/ "
               f"(Ctrl-C stops)"), flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0
