"""`regola replay LOG --html OUT.html`: a self-contained page to step through a game.

The log is replayed and verified (steps.py); for every step and every viewer (each player,
the spectator, the omniscient view) the SVG is drawn here, in Python, with the same
renderer as `regola render`, so what each viewer is shown is exactly what they could see.
The page only switches between pictures made in advance: buttons and the arrow keys step,
a list picks the viewer. Beside the picture: the move made at this step as the viewer may be
told of it, and the legal moves when the viewer is the one deciding (or omniscient); the
chance outcomes after a move are named to the omniscient viewer only.

Size: a picture is cut into pieces before each `<g` (every box is drawn in its own
coordinates, so a box that did not change is the same text at every step and for every
viewer who sees it alike) and each piece is kept once; the pieces and, per viewer, each
step's list of piece numbers and notes are one JSON text, compressed with zlib and written
in base64. The page inflates it when it opens (DecompressionStream, in every current
browser). A game of some 150 moves for 4 players makes 100 to 200 KB (docs/pictures.md).
At most MAX_STEPS steps are kept (the first ones); the command says when a log had more.
"""

from __future__ import annotations

import base64
import json
import re
import zlib
from pathlib import Path

from .page import document, json_script
from .picture import ALL, moves_seen, state_svg, viewer_name
from .steps import last_move_text, log_steps

MAX_STEPS = 1000


def viewers_of(game) -> list:
    """Each seat, the spectator, and the omniscient view."""
    return [*range(game.num_players), None, ALL]


class Pool:
    """Pieces of SVG text kept once: a picture is cut before each `<g` (a box, drawn in its
    own coordinates, is the same text wherever it is and from step to step) and written as
    the numbers of its pieces."""

    def __init__(self):
        self.pieces: list[str] = []
        self.index: dict[str, int] = {}

    def numbers(self, svg: str) -> list[int]:
        out = []
        for piece in _CUT.split(svg):
            if piece:
                n = self.index.get(piece)
                if n is None:
                    n = self.index[piece] = len(self.pieces)
                    self.pieces.append(piece)
                out.append(n)
        return out


_CUT = re.compile(r"(?=<g[ >])")


def viewer_data(game, steps, viewer, pool: Pool) -> dict:
    """One viewer's pictures (as numbers of pieces of the pool, one per step) and notes."""
    frames, notes = [], []
    for k, step in enumerate(steps):
        taken = step.move_seen_by(game, viewer)
        svg = state_svg(game, step.state, viewer, last=last_move_text(game, steps, k, viewer), moves=False)
        frames.append(pool.numbers(svg))
        note = {"move": taken, "mover": None if step.mover is None else f"player({step.mover + 1})",
                "moves": moves_seen(game, step.state, viewer)}
        if viewer == ALL and step.chance:
            note["chance"] = list(step.chance)
        notes.append(note)
    return {"name": viewer_name(viewer), "frames": frames, "notes": notes}


def pack(data) -> str:
    """JSON, compressed (zlib) and written in base64."""
    return base64.b64encode(zlib.compress(json.dumps(data, separators=(",", ":")).encode(), 9)).decode("ascii")


def unpack(text: str):
    return json.loads(zlib.decompress(base64.b64decode(text)))


def frame_svg(data: dict, viewer: int, step: int) -> str:
    """A picture of unpacked replay data (`unpack` of the page's `data`), as the page builds it."""
    return "".join(data["pieces"][n] for n in data["viewers"][viewer]["frames"][step])


def replay_page(game, log, steps, source: str = "", total: int | None = None) -> str:
    h = log.header
    facts = {"title": game.title, "source": source, "players": game.num_players, "seed": h.get("seed"),
             "agents": h.get("agents") or [], "modules": game.modules, "steps": len(steps),
             "total": total or len(steps),
             "scores": game.scores(steps[-1].state) if steps[-1].state.pending is None else None,
             "viewers": [viewer_name(v) for v in viewers_of(game)]}
    pool = Pool()
    viewers = [viewer_data(game, steps, v, pool) for v in viewers_of(game)]
    facts["data"] = pack({"pieces": pool.pieces, "viewers": viewers})
    body = ("<header><h1 id=\"title\"></h1><span class=\"sub\" id=\"about\"></span></header>"
            "<main><div id=\"stage\"></div><div id=\"side\">"
            "<p><button id=\"first\" title=\"first step (Home)\">&laquo; first</button>"
            "<button id=\"prev\" title=\"previous step (left arrow)\">&lsaquo; back</button>"
            "<button id=\"next\" title=\"next step (right arrow)\">next &rsaquo;</button>"
            "<button id=\"last\" title=\"last step (End)\">last &raquo;</button> "
            "<span id=\"where\"></span></p>"
            "<p><input id=\"slider\" type=\"range\" min=\"0\" value=\"0\" style=\"width:100%\" "
            "aria-label=\"step\"></p>"
            "<p><label>viewer <select id=\"viewer\"></select></label></p>"
            "<p id=\"error\" class=\"error\"></p>"
            "<h2>This step</h2><p id=\"move\"></p><p id=\"chance\" class=\"dim\"></p>"
            "<h2>Legal moves</h2><div id=\"moves\" class=\"moves\"></div></div></main>"
            + json_script("replay", facts))
    csp = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:"
    return document(f"{game.title} - replay", body, REPLAY_JS, csp)


def write_replay_html(log_path, out_path, forced: bool = False, max_steps: int = MAX_STEPS) -> str:
    """Write the replay page of a log and say what it holds (`130 steps, 6 viewers, 100,265
    bytes`). Raises ReplayError or LogError for a bad log (nothing is written), OSError."""
    game, log, steps = log_steps(log_path, forced=forced)
    total = len(steps)
    steps = steps[:max_steps]
    text = replay_page(game, log, steps, Path(log_path).name, total)
    Path(out_path).write_text(text, encoding="utf-8")
    kept = f"{len(steps)} steps" + (f" (the first of {total}: at most {max_steps} are kept)" if total > len(steps) else "")
    return f"{kept}, {len(viewers_of(game))} viewers, {len(text.encode()):,} bytes"


REPLAY_JS = r"""
"use strict";
const $ = (id) => document.getElementById(id);
const R = JSON.parse($("replay").textContent);
let step = 0, viewer = R.viewers.length - 2;     // the spectator first
let unpacked = null;
async function inflate(b64) {
  const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate"));
  return JSON.parse(await new Response(stream).text());
}
async function show() {
  if (unpacked === null) {
    try { unpacked = await inflate(R.data); } catch (e) {
      $("error").textContent = "this browser cannot unpack the pictures (it needs DecompressionStream): " + e;
      return;
    }
  }
  const v = unpacked.viewers[viewer];
  $("stage").innerHTML = v.frames[step].map((n) => unpacked.pieces[n]).join("");
  document.body.dataset.step = String(step);
  document.body.dataset.viewer = R.viewers[viewer];
  $("where").textContent = "step " + step + " of " + (R.steps - 1);
  $("slider").value = String(step);
  const n = v.notes[step];
  $("move").textContent = n.move === null ? (step === R.steps - 1 ? "the end of the log" : "")
                                          : n.mover + " played " + n.move;
  $("chance").textContent = n.chance ? "then chance: " + n.chance.join(", ") : "";
  const box = $("moves");
  box.replaceChildren();
  if (n.moves === null) {
    box.textContent = n.mover ? "only " + n.mover + " sees their legal moves" : "no decision";
  } else {
    for (const m of n.moves) {
      const s = document.createElement("span");
      s.textContent = m;
      if (m === n.move) s.className = "taken";
      box.appendChild(s);
    }
  }
  $("first").disabled = $("prev").disabled = step === 0;
  $("next").disabled = $("last").disabled = step === R.steps - 1;
}
function go(k) { step = Math.max(0, Math.min(R.steps - 1, k)); show(); }
$("title").textContent = R.title;
$("about").textContent = R.players + " players, seed " + R.seed
  + (R.agents.length ? ", " + R.agents.join(", ") : "") + (R.modules.length ? ", modules " + R.modules.join(", ") : "")
  + (R.scores ? "; final scores " + R.scores.join(", ") : "") + (R.source ? " (" + R.source + ")" : "")
  + (R.total > R.steps ? "; the first " + R.steps + " of " + R.total + " steps" : "");
R.viewers.forEach((v, i) => {
  const o = document.createElement("option");
  o.value = String(i);
  o.textContent = v;
  $("viewer").appendChild(o);
});
$("viewer").value = String(viewer);
$("slider").max = String(R.steps - 1);
$("slider").addEventListener("input", () => go(Number($("slider").value)));
$("viewer").addEventListener("change", () => { viewer = Number($("viewer").value); show(); });
$("first").addEventListener("click", () => go(0));
$("prev").addEventListener("click", () => go(step - 1));
$("next").addEventListener("click", () => go(step + 1));
$("last").addEventListener("click", () => go(R.steps - 1));
document.addEventListener("keydown", (e) => {
  if (e.target.tagName === "SELECT" || e.target.tagName === "INPUT") return;
  if (e.key === "ArrowRight") { go(step + 1); e.preventDefault(); }
  else if (e.key === "ArrowLeft") { go(step - 1); e.preventDefault(); }
  else if (e.key === "Home") go(0);
  else if (e.key === "End") go(R.steps - 1);
});
show();
"""
