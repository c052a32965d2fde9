"""A person plays in the terminal against bots; can save, quit and resume later."""

from __future__ import annotations

import json
import sys

from interpreter.loader import load_game
from interpreter.runtime.game import IllegalMove, StateError

from . import logs
from .match import agents_for
from .view import describe_decision, render_view

SAVE_FORMAT = "regola-save/1"

HELP = """Enter the number of a move, or the move itself (e.g. buy_tile(2)).
Other commands: view (show the table again), save [FILE], quit, help."""


class PlaySession:
    def __init__(self, game, rules: str, humans: list[int], bots: list[str], seed: int,
                 state=None, log=None, out=None, inp=None, save_path=None):
        self.game = game
        self.rules = rules
        self.humans = set(humans)
        self.bots = bots
        self.seed = seed
        self.out = out if out is not None else sys.stdout
        self.inp = inp if inp is not None else sys.stdin
        self.save_path = save_path or "regola-save.json"
        self.state = state if state is not None else game.new_initial_state(seed)
        self.log = log or logs.Log(logs.header(game, rules, seed, ["human" if p in self.humans else b
                                                                  for p, b in zip(range(game.num_players),
                                                                                  self._bot_names())]))
        names = [("first" if p in self.humans else b) for p, b in enumerate(self._bot_names())]
        self.agents = agents_for(game, names, seed + len(self.log.entries))

    def _bot_names(self):
        n = self.game.num_players
        b = self.bots or ["random"]
        return (b * n)[:n] if len(b) == 1 else b

    def say(self, text=""):
        print(text, file=self.out)

    def ask(self, prompt) -> str | None:
        self.out.write(prompt)
        self.out.flush()
        line = self.inp.readline()
        if not line:
            return None
        return line.strip()

    def run(self) -> int:
        g, s = self.game, self.state
        viewer = min(self.humans) if self.humans else None
        while not g.is_terminal(s):
            who = g.current_player(s)
            if who == -1:
                o = g.sample_chance(s)
                self.log.entries.append({"type": "chance", "outcome": g.outcome_str(s, o)})
                g.apply_chance(s, o)
                continue
            moves = g.legal_moves(s)
            if who in self.humans:
                m = self._human_move(who, moves)
                if m is None:
                    return 0
            else:
                m = self.agents[who].choose(g, s, moves)
                self.say(f"player({who + 1}) plays {g.move_str(s, m)}")
            self.log.entries.append({"type": "move", "player": who + 1, "move": g.move_str(s, m),
                                     "id": g.move_id(s, m)})
            g.apply(s, m)
        self.log.end = {"type": "end", "scores": g.scores(s), "winners": [w + 1 for w in g.winners(s)],
                        "moves": sum(1 for e in self.log.entries if e["type"] == "move")}
        self.say("")
        self.say(render_view(g, s, viewer))
        self.say("winner: " + ", ".join(f"player({w + 1})" for w in g.winners(s)))
        return 0

    def _human_move(self, who, moves):
        g, s = self.game, self.state
        self.say("")
        self.say(render_view(g, s, who))
        self.say("")
        self.say(describe_decision(g, s))
        texts = [g.move_str(s, m) for m in moves]
        width = max(len(t) for t in texts) + 6
        cols = max(1, 100 // width)
        for i in range(0, len(texts), cols):
            self.say("".join(f"{j + 1:>3}. {texts[j]:<{width - 5}}" for j in range(i, min(i + cols, len(texts)))))
        while True:
            line = self.ask(f"player({who + 1}) > ")
            if line is None or line == "quit":
                if line is None or (self.ask("save before quitting? [y/N] ") or "").lower().startswith("y"):
                    self.save(self.save_path)
                return None
            if not line:
                continue
            if line == "help":
                self.say(HELP)
                continue
            if line == "view":
                self.say(render_view(g, s, who))
                continue
            if line.startswith("save"):
                path = line[4:].strip() or self.save_path
                self.save(path)
                continue
            if line.isdigit() and 1 <= int(line) <= len(moves):
                return moves[int(line) - 1]
            try:
                return g.parse_move(s, line)
            except IllegalMove as e:
                self.say(f"  {e}")

    def save(self, path):
        data = {"format": SAVE_FORMAT, "rules": self.rules, "with": getattr(self.game, "requested_modules", []),
                "humans": sorted(p + 1 for p in self.humans), "bots": self.bots, "seed": self.seed,
                "header": self.log.header, "log": self.log.entries, "state": self.game.dump(self.state)}
        with open(path, "w", encoding="utf-8") as f:
            json.dump(data, f)
        self.say(f"saved to {path}; resume with: regola play --resume {path}")


def resume(path, out=None, inp=None) -> PlaySession:
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except OSError as e:
        raise StateError(f"{path}: cannot read: {e.strerror}") from None
    except json.JSONDecodeError as e:
        raise StateError(f"{path}: not a saved game (invalid JSON at line {e.lineno})") from None
    if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
        raise StateError(f"{path}: not a Regola saved game (format {SAVE_FORMAT})")
    try:
        game = load_game(data["rules"], modules=data.get("with", []), players=data["state"]["players"])
        state = game.load(data["state"])
        log = logs.Log(data["header"], list(data.get("log", [])))
        return PlaySession(game, data["rules"], [p - 1 for p in data["humans"]], data.get("bots") or ["random"],
                           int(data["seed"]), state=state, log=log, out=out, inp=inp, save_path=path)
    except KeyError as e:
        raise StateError(f"{path}: the save has no {e}") from None
