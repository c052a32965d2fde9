"""Moves as text and numbers: the canonical string of a move and parsing it back, the stable
integer id of a move in the static action space, and the explanation of an illegal move.
"""

from __future__ import annotations

from .. import types as T
from .values import _BAD, _norm, _split_args, format_value, parse_value, value_index


class IllegalMove(Exception):
    def __init__(self, move_text: str, reason: str, span=None, cite: str = ""):
        self.move_text = move_text
        self.reason = reason
        self.span = span
        self.cite = cite
        where = f" ({span})" if span is not None else ""
        rule = f" [{cite}]" if cite else ""
        super().__init__(f"illegal move {move_text!r}: {reason}{rule}{where}")


class MoveNames:
    """Part of `Game` (game.py): uses its `sites`, `actions`, `num_players`, `_checks` and
    `legal_moves`."""

    def fmt(self, t, v) -> str:
        return format_value(t, v)

    def move_str(self, s, move) -> str:
        return self.move_text(s.pending[0], move)

    def move_text(self, site_index: int, move) -> str:
        """A move's canonical text at a decision site (a `Record`'s entries give the site)."""
        if not move:
            return "pass"
        site = self.sites[site_index]
        if site.kind == "act":
            meta = self.actions[move[0]]
            if not meta.param_types:
                return meta.name
            args = ", ".join(format_value(t, v) for t, v in zip(meta.param_types, move[1:]))
            return f"{meta.name}({args})"
        if site.kind == "pay":
            parts = [f"{label}={n}" for label, n in zip(site.labels, move[0]) if n]
            return f"pay({', '.join(parts) or 'nothing'})"
        return f"{site.node.var}={format_value(site.value_type, move[0])}"

    def move_str_seen_by(self, s, move, viewer) -> str:
        """The move as `viewer` may be told of it, in the state before it is played: a value
        taken from a private or hidden zone (a card kept in a draft, a tile from a hand) is
        `?` to everyone but the player moving (viewer None: a spectator)."""
        return self._seen_text(s.pending[0], s.pending[1], move, viewer)

    def _seen_text(self, site_index: int, mover: int, move, viewer) -> str:
        if not move or viewer == mover:
            return self.move_text(site_index, move)
        site = self.sites[site_index]
        if site.kind == "act":
            meta = self.actions[move[0]]
            if not any(meta.secret):
                return self.move_text(site_index, move)
            args = ", ".join("?" if secret else format_value(t, v)
                             for t, v, secret in zip(meta.param_types, move[1:], meta.secret))
            return f"{meta.name}({args})"
        if site.kind == "choose" and site.secret:
            return f"{site.node.var}=?"
        return self.move_text(site_index, move)

    def parse_move(self, s, text: str):
        want = _norm(text)
        legal = self.legal_moves(s)
        if want == "pass":
            if () in legal:
                return ()
            raise self._illegal(s, ())
        for m in legal:
            if _norm(self.move_str(s, m)) == want:
                return m
        if want.isdigit():
            return self.move_from_id(s, int(want))
        # not legal: find the tuple it names, to explain why
        m = self._parse_any(s, text)
        if m is not None:
            if m in legal:              # written otherwise than move_str does (a selection's order)
                return m
            raise self._illegal(s, m)
        from ..suggest import did_you_mean
        names = [self.move_str(s, m) for m in legal]
        raise IllegalMove(text, f"no such move here{did_you_mean(text, names)}")

    def _parse_any(self, s, text: str):
        """Parse an action move even when it is not legal (for error messages)."""
        site = self.sites[s.pending[0]]
        t = text.strip()
        if site.kind == "choose":
            var, eq, val = t.partition("=")
            if not eq or var.strip() != site.node.var:
                return None
            v = parse_value(site.value_type, val)
            if v is _BAD:
                opts = ", ".join(self.move_str(s, m) for m in self.legal_moves(s))
                raise IllegalMove(text, f"'{val.strip()}' is not a {T.strip(site.value_type)} "
                                        f"(options: {opts})", site.node.span, site.cite)
            return (v,)
        if site.kind != "act":
            return None
        name, _, rest = t.partition("(")
        name = name.strip()
        meta = next((m for m in self.actions if m.name == name), None)
        if meta is None:
            return None
        args = _split_args(rest[:-1] if rest.endswith(")") else rest)
        if len(args) != len(meta.param_types):
            return None
        vals = []
        for ty, a in zip(meta.param_types, args):
            v = parse_value(ty, a)
            if v is _BAD:
                return None
            vals.append(v)
        return (meta.index, *vals)

    def names_a_move(self, text: str) -> bool:
        """Whether `text` is a move of the game's action space at all (legal or not, at any
        decision): `pass`, an action with as many values of its parameters' types as it has
        parameters, `VAR=value` of a choice, `pay(...)` of a payment. A misspelled action or a
        value of the wrong type is not."""
        t = (text or "").strip()
        if _norm(t) == "pass":
            return True
        var, eq, val = t.partition("=")
        if eq and "(" not in var:
            return any(site.kind == "choose" and site.node.var == var.strip()
                       and parse_value(site.value_type, val) is not _BAD for site in self.sites)
        name, paren, rest = t.partition("(")
        name = name.strip()
        if name == "pay" and any(site.kind == "pay" for site in self.sites):
            return True
        meta = next((m for m in self.actions if m.name == name), None)
        if meta is None or (paren and not rest.endswith(")")):
            return False
        if not paren:
            return not meta.param_types
        args = _split_args(rest[:-1])
        if len(args) != len(meta.param_types):
            return False
        return all(parse_value(ty, a) is not _BAD for ty, a in zip(meta.param_types, args))

    def move_id(self, s, move) -> int:
        if not move:
            return 0
        site = self.sites[s.pending[0]]
        if site.kind == "act":
            plan = self._id_plans.get(move[0])
            if plan is None:
                plan = self._id_plan(move[0])
            idx = 0
            for (radix, low, t), v in zip(plan[1], move[1:]):
                idx = idx * radix + (v - low if t is None else value_index(t, v))
            return plan[0] + idx
        if site.kind == "pay":
            idx = 0
            for radix, n in zip(site.radixes, move[0]):
                idx = idx * radix + min(n, radix - 1)
            return site.id_offset + idx
        return site.id_offset + value_index(site.value_type, move[0])

    def _id_plan(self, action: int):
        """(first id, [(radix, offset, type or None) per parameter]): an action's ids worked
        out once (type None: the value minus the offset is its index)."""
        meta = self.actions[action]
        steps = []
        for t in meta.param_types:
            st_ = T.strip(t)
            radix = max(T.type_size(t, self.num_players), 1)
            if isinstance(st_, T.IntRange):
                steps.append((radix, st_.low, None))
            elif st_ is T.BOOL or isinstance(st_, T.SelectionType):
                steps.append((radix, 0, t))
            else:
                steps.append((radix, 0, None))
        plan = self._id_plans[action] = (meta.id_offset, steps)
        return plan

    def move_from_id(self, s, ident: int):
        for m in self.legal_moves(s):
            if self.move_id(s, m) == ident:
                return m
        raise IllegalMove(str(ident), "no legal move has this id here")

    def _illegal(self, s, move) -> IllegalMove:
        site = self.sites[s.pending[0]]
        text = self._safe_str(s, move)
        if site.kind == "pay":
            opts = ", ".join(self.move_str(s, m) for m in self.legal_moves(s))
            return IllegalMove(text, f"not a way to pay this cost (ways: {opts})", site.node.span, site.cite)
        if site.kind == "choose":
            opts = ", ".join(self.move_str(s, m) for m in self.legal_moves(s))
            what = format_value(site.value_type, move[0]) if move and isinstance(move, tuple) else "pass"
            reason = f"{what} is not an option here (options: {opts})"
            if site.node.cond is not None:
                from ..render import render_expr
                reason += f"; choices must satisfy: {render_expr(site.node.cond)}"
            return IllegalMove(text, reason, site.node.span, site.cite)
        if not move:
            return IllegalMove(text, "passing is not allowed here: an action must be taken",
                               site.node.span, site.cite)
        if not isinstance(move, tuple) or not isinstance(move[0], int) or not 0 <= move[0] < len(self.actions):
            return IllegalMove(text, "not a move of this game", site.node.span, site.cite)
        meta = self.actions[move[0]]
        if meta.name not in site.actions:
            return IllegalMove(text, f"'{meta.name}' cannot be taken now (here: {', '.join(site.actions)})",
                               site.node.span, site.cite)
        if len(move) - 1 != len(meta.param_types):
            return IllegalMove(text, f"'{meta.name}' takes {len(meta.param_types)} parameters",
                               meta.info.decl.span, meta.info.cite)
        try:
            idx = self._checks[meta.index](s, s.pending[1], *move[1:])
        except Exception:  # noqa: BLE001 - a malformed value
            idx = 0
        if idx >= 0:
            msg, span, cite = meta.checks[idx]
            if "{" in msg:                 # name the offending value: "{t} is not among me.hand"
                values = {prm.name: format_value(t, v) for prm, t, v in
                          zip(meta.info.params, meta.param_types, move[1:])}
                try:
                    param = msg[msg.index("{") + 1:msg.index("}")]
                    msg = msg.format(**values)
                    earlier = [f"{n}={v}" for n, v in values.items() if n != param]
                    names = [prm.name for prm in meta.info.params]
                    earlier = earlier[:names.index(param)] if param in names else []
                    if earlier:
                        msg += " for " + ", ".join(earlier)
                except (KeyError, IndexError, ValueError):
                    pass
            return IllegalMove(text, msg, span, cite)
        return IllegalMove(text, "you cannot pay the extra cost of this action", site.node.span, site.cite)

    def _safe_str(self, s, move) -> str:
        try:
            return self.move_str(s, move)
        except Exception:  # noqa: BLE001
            return str(move)
