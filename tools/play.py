"""A person plays in the terminal against bots; can save, quit and resume later."""

from __future__ import annotations

import json
import re
import sys
import textwrap

from regola.loader import load_game
from regola.textsafe import safe
from regola.runtime.game import IllegalMove, StateError

from . import logs
from .match import agents_for
from .narrate import narrate
from .view import internal_names, describe_decision, render_view

SAVE_FORMAT = "regola-save/1"

HELP = """Enter the number of a move, or the move itself (e.g. buy_tile(2)).
Other commands: view (show the table again), save [FILE], quit, help."""

WIDTH = 80            # the terminal width the screen is laid out for

_NUMBER = re.compile(r"[+-]?\d+")


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
        print(safe(text), file=self.out)

    def ask(self, prompt) -> str | None:
        self.out.write(safe(prompt))
        self.out.flush()
        line = self.inp.readline()
        if not line:
            return None
        return line.strip()

    def run(self) -> int:
        g, s = self.game, self.state
        # who watches the terminal: the one person playing; with none or several at one
        # terminal, a spectator (sees only what is public)
        viewer = next(iter(self.humans)) if len(self.humans) == 1 else None
        seen = None                          # what the viewer saw when last told (set up: nothing to tell)
        while not g.is_terminal(s):
            who = g.current_player(s)
            if who == -1:
                o = g.sample_chance(s)
                self.log.entries.append({"type": "chance", "outcome": g.outcome_str(s, o)})
                g.apply_chance(s, o)
                continue
            seen = self._tell_changes(seen, viewer)
            moves = g.legal_moves(s)
            if who in self.humans:
                m = self._human_move(who, moves)
                if m is None:
                    return 0
            else:
                m = self.agents[who].choose(g, s, moves)
                self.say(_wrap(f"player({who + 1}) plays {g.move_str_seen_by(s, m, viewer)}"))
            self.log.entries.append({"type": "move", "player": who + 1, "move": g.move_str(s, m),
                                     "id": g.move_id(s, m)})
            g.apply(s, m)
        self._tell_changes(seen, viewer)
        self.log.end = {"type": "end", "scores": g.scores(s), "winners": [w + 1 for w in g.winners(s)],
                        "moves": sum(1 for e in self.log.entries if e["type"] == "move")}
        self.say("")
        self.say(render_view(g, s, viewer))
        self.say("winner: " + ", ".join(f"player({w + 1})" for w in g.winners(s)))
        return 0

    def _tell_changes(self, seen, viewer):
        """What the last move did (with the chance events and forced moves it set off), as
        the viewer can see it; returns the viewer's observation now."""
        now = self.game.observe(self.state, viewer)
        for line in narrate(seen, now, skip=internal_names(self.game)) if seen is not None else ():
            self.say(line)
        return now

    def _human_move(self, who, moves):
        g, s = self.game, self.state
        self.say("")
        self.say(render_view(g, s, who))
        self.say("")
        self.say(_wrap(describe_decision(g, s)))
        self._menu([g.move_str(s, m) for m in moves])
        while True:
            line = self.ask(f"player({who + 1}) > ")
            if line is None:
                self._input_ended()
                return None
            if line == "quit":
                answer = self.ask("save before quitting? [y/N] ")
                if answer is None:
                    self._input_ended()
                elif answer.lower().startswith("y"):
                    if not self.save(self.save_path):
                        continue               # not saved: the game goes on
                else:
                    self.say("the game was not saved")
                return None
            if not line:
                continue
            if line == "help":
                self.say(HELP)
                continue
            if line == "view":
                self.say(render_view(g, s, who))
                continue
            if line == "save" or line.startswith(("save ", "save\t")):
                path = line[4:].strip() or self.save_path
                self.save(path)
                continue
            number = "".join(line.split())
            if _NUMBER.fullmatch(number):      # a menu number, never a move's internal id
                n = int(number) if len(number) < 19 else 0      # int() refuses thousands of digits
                if 1 <= n <= len(moves):
                    return moves[n - 1]
                self.say(f"  there {'is only 1 move' if len(moves) == 1 else f'are only {len(moves)} moves'}; "
                         f"enter {'1' if len(moves) == 1 else f'1 to {len(moves)}'} or a move")
                continue
            try:
                return g.parse_move(s, line)
            except IllegalMove as e:
                self.say(f"  {e}")

    def _menu(self, texts):
        """The numbered moves, in as many columns as fit WIDTH; a long move wraps under itself."""
        width = max(len(t) for t in texts) + 6
        cols = max(1, WIDTH // width)
        if cols == 1:
            for j, text in enumerate(texts):
                self.say(textwrap.fill(text, WIDTH, initial_indent=f"{j + 1:>3}. ", subsequent_indent="       ",
                                       break_long_words=True, break_on_hyphens=False))
            return
        for i in range(0, len(texts), cols):
            self.say("".join(f"{j + 1:>3}. {texts[j]:<{width - 5}}"
                             for j in range(i, min(i + cols, len(texts)))).rstrip())

    def _input_ended(self):
        """End of input (Ctrl-D): nobody can be asked any more, so nothing is written."""
        self.say("")
        self.say("input ended: the game was not saved (to keep it, enter 'save' before ending, "
                 "or 'quit' and answer y)")

    def save(self, path):
        data = {"format": SAVE_FORMAT, "rules": logs.rules_reference(self.rules), "with": getattr(self.game, "requested_modules", []),
                "humans": sorted(p + 1 for p in self.humans), "bots": self.bots, "seed": self.seed,
                "header": self.log.header, "log": self.log.entries, "state": self.game.dump(self.state)}
        try:
            with open(path, "w", encoding="utf-8") as f:
                json.dump(data, f)
        except OSError as e:
            self.say(f"  cannot save to {path}: {e.strerror}; try save OTHER-FILE")
            return False
        self.say(f"saved to {path}; resume with: regola play --resume {path}")
        return True


def _wrap(text: str) -> str:
    return textwrap.fill(text, WIDTH, subsequent_indent="    ", break_on_hyphens=False)


def resume(path, out=None, inp=None) -> PlaySession:
    """A saved game, checked field by field before anything in it is used."""
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except OSError as e:
        raise StateError(f"{path}: cannot read: {e.strerror}") from None
    except UnicodeDecodeError:
        raise StateError(f"{path}: not a saved game (not UTF-8 text)") from None
    except json.JSONDecodeError as e:
        if not e.doc.strip():
            raise StateError(f"{path}: empty file, not a saved game") from None
        raise StateError(f"{path}: not a saved game (invalid JSON at line {e.lineno}: {e.msg}; "
                         f"truncated?)") from None
    except RecursionError:
        raise StateError(f"{path}: not a saved game (nested too deeply)") from None
    if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
        raise StateError(f"{path}: not a Regola saved game (format {SAVE_FORMAT})")

    def bad(field, why):
        raise StateError(f"{path}: the save's '{field}' {why}")

    for key in ("rules", "humans", "seed", "header", "state"):
        if key not in data:
            bad(key, "is missing")
    rules, mods, humans, bots = data["rules"], data.get("with", []), data["humans"], data.get("bots") or ["random"]
    if not isinstance(rules, str) or not rules:
        bad("rules", "must be a bundled game's name or a rules path")
    if not (isinstance(mods, list) and all(isinstance(m, str) for m in mods)):
        bad("with", "must be a list of module names")
    if not (isinstance(bots, list) and all(isinstance(b, str) for b in bots)):
        bad("bots", "must be a list of bot names")
    seed = data["seed"]
    if type(seed) is not int:
        bad("seed", "must be an integer")
    if not isinstance(data["header"], dict):
        bad("header", "must be a log header (an object)")
    entries = data.get("log", [])
    if not (isinstance(entries, list) and all(isinstance(e, dict) for e in entries)):
        bad("log", "must be a list of log entries (objects)")
    saved = data["state"]
    if not isinstance(saved, dict) or type(saved.get("players")) is not int:
        bad("state", "must be a saved state with its number of players")
    players = saved["players"]
    if not (isinstance(humans, list) and all(type(h) is int and 1 <= h <= players for h in humans)):
        bad("humans", f"must be a list of seats, each from 1 to {players}")
    try:                              # the log it carries, as a log file is read
        logs.check_header(data["header"], f"{path}: the save's 'header'")
        for i, e in enumerate(entries):
            logs.check_entry(e, f"{path}: the save's 'log'[{i}]", players)
    except logs.LogError as e:
        raise StateError(str(e)) from None
    game = load_game(rules, modules=mods, players=players, options=data["header"].get("options"))
    state = game.load(saved)
    log = logs.Log(data["header"], list(entries))
    try:
        return PlaySession(game, rules, [h - 1 for h in humans], bots, seed, state=state, log=log,
                           out=out, inp=inp, save_path=path)
    except ValueError as e:          # bots: an unknown name, or not one per player
        bad("bots", str(e))
