"""HTML pages: one self-contained document (inline CSS and JavaScript, no network), data
embedded as JSON that cannot end its <script> element, and the page `regola serve` shows.
"""

from __future__ import annotations

import json

from .svg import esc

CSS = """
body{font-family:DejaVu Sans,Verdana,Arial,sans-serif;margin:0;background:#f7f6f2;color:#222}
header{padding:8px 14px;background:#2f3b45;color:#fff;display:flex;gap:14px;align-items:center;flex-wrap:wrap}
header h1{font-size:18px;margin:0}
header .sub{font-size:13px;color:#d6dde3}
main{display:flex;gap:14px;padding:10px 14px;align-items:flex-start;flex-wrap:wrap}
#stage{flex:1 1 auto;min-width:320px;overflow:auto}
#side{flex:0 0 330px;font-size:13px}
#side h2{font-size:14px;margin:10px 0 4px}
button{font:inherit;font-size:13px;margin:2px;padding:4px 8px;border:1px solid #888;border-radius:4px;
 background:#fff;cursor:pointer}
button:hover{background:#fff3b0}
button.taken{background:#fff3b0;border:2px solid #111;font-weight:bold}
button:disabled{opacity:.45;cursor:default}
.moves{max-height:340px;overflow:auto;border:1px solid #ddd;background:#fff;padding:4px}
.moves span{display:inline-block;margin:2px;padding:2px 6px;border:1px solid #ccc;border-radius:3px}
.moves span.taken{background:#fff3b0;border:2px solid #111;font-weight:bold}
.error{color:#a00;font-weight:bold;white-space:pre-wrap}
.events{max-height:260px;overflow:auto;background:#fff;border:1px solid #ddd;padding:4px 6px;margin:0;
 list-style:none}
.dim{color:#666}
select,input{font:inherit;font-size:13px}
"""


def json_script(element_id: str, data) -> str:
    """`data` as JSON in a <script type="application/json">: `<`, `>` and `&` written as
    \\u escapes, so nothing in it can close the element or start a comment."""
    text = json.dumps(data, separators=(",", ":")).replace("<", "\\u003c").replace(">", "\\u003e") \
        .replace("&", "\\u0026")
    return f'<script type="application/json" id="{element_id}">{text}</script>'


def document(title: str, body: str, script: str, csp: str) -> str:
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<meta http-equiv=\"Content-Security-Policy\" content=\"{csp}\">"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            f"<title>{esc(title)}</title><style>{CSS}</style></head><body>{body}"
            f"<script>{script}</script></body></html>\n")


SERVE_JS = r"""
"use strict";
const $ = (id) => document.getElementById(id);
let view = JSON.parse($("view").textContent);
function show(v) {
  view = v;
  if (v.svg !== undefined) $("stage").innerHTML = v.svg;     // (the first picture is in the page)
  document.body.dataset.movesMade = String(v.moves_made);
  const box = $("moves");
  box.replaceChildren();
  for (const m of v.moves) {
    const b = document.createElement("button");
    b.textContent = m;
    b.className = "move";
    b.addEventListener("click", () => send("/move", {move: m}));
    box.appendChild(b);
  }
  $("typed").disabled = $("go").disabled = v.moves.length === 0;
  let status;
  if (v.over) {
    const scores = Object.entries(v.scores).map(([p, s]) => p + " " + s).join(", ");
    status = "Game over. Scores: " + scores + ". Winner: " + v.winners.join(", ") + ".";
  } else if (v.moves.length) {
    status = "Your move" + (v.prompt ? ": " + v.prompt : "") + " (" + v.moves.length + " legal)";
  } else {
    status = "Waiting for the others.";
  }
  $("status").textContent = status;
  $("newgame").hidden = !v.over;
  const ev = $("events");
  ev.replaceChildren();
  for (const e of v.events.slice().reverse()) {
    const li = document.createElement("li");
    li.textContent = e;
    ev.appendChild(li);
  }
}
async function send(path, body) {
  $("error").textContent = "";
  for (const b of document.querySelectorAll("button")) b.disabled = true;
  try {
    const r = await fetch(path, {method: "POST", headers: {"Content-Type": "application/json"},
                                 body: JSON.stringify(body)});
    const d = await r.json();
    if (!r.ok) { $("error").textContent = d.error; if (d.view) show(d.view); else show(view); return; }
    show(d);
  } catch (e) {
    $("error").textContent = "the server did not answer: " + e;
    show(view);
  } finally {
    for (const b of document.querySelectorAll("button")) b.disabled = false;
    $("typed").disabled = $("go").disabled = view.moves.length === 0;
  }
}
$("go").addEventListener("click", () => send("/move", {move: $("typed").value}));
$("typed").addEventListener("keydown", (e) => { if (e.key === "Enter") send("/move", {move: $("typed").value}); });
$("newgame").addEventListener("click", () => send("/new", {}));
show(view);
"""


def page(view: dict) -> str:
    """The page of `regola serve`: the seat's picture (an SVG made by picture.py, its text
    escaped there), its moves as buttons, what happened."""
    body = (f"<header><h1>{esc(view['title'])}</h1><span class=\"sub\">you are {esc(view['seat'])}, "
            f"seed {esc(view['seed'])}</span></header><main><div id=\"stage\">{view['svg']}</div><div id=\"side\">"
            "<p id=\"status\"></p><p id=\"error\" class=\"error\"></p>"
            "<h2>Legal moves</h2><div id=\"moves\" class=\"moves\"></div>"
            "<p><input id=\"typed\" size=\"26\" placeholder=\"or type a move\" aria-label=\"a move\">"
            "<button id=\"go\">play</button></p><p><button id=\"newgame\" hidden>new game</button></p>"
            "<h2>What happened (latest first)</h2><ul id=\"events\" class=\"events\"></ul></div></main>"
            + json_script("view", {k: v for k, v in view.items() if k != "svg"}))
    csp = ("default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; "
           "connect-src 'self'; img-src data:")
    return document(f"{view['title']} - regola serve", body, SERVE_JS, csp)
