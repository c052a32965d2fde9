"""Perfect recall: a digest of everything one player has seen from the start to now.

A kept history (`new_initial_state(seed, history=True)`) is a chain of
`(previous, site, player, move)` tuples shared by clones. Its first link is a `HistoryStart`:
an empty tuple (so a walk down the chain stops there) that remembers the state the history
starts from. From it the views a player had along the way can be worked out again: the
player's recall after a step is the digest of their recall before it, the step as they saw it
(`move_seen_text`) and their view after it (`observe`). Two histories give a player the same
digest exactly when they showed that player the same things in the same order (a passed
hand seen once and gone, a card peeked at and shuffled back), which a view of the present
alone cannot tell.

Nothing of this runs while a game is played: a digest is worked out when asked for, from the
digest of the previous step when that is known (the usual case for a driver that asks at
every step) and otherwise by replaying the history from its start once, remembering every
step's digest for every player on the way (`Recall.memo`, bounded).

A history can start later than the game: a redrawn state (`resample`) starts its own, from the
redrawn state, carrying the resampling player's digest of the real game (so the two cannot be
told apart) and, for the others, a digest of that alone (the redraw reveals nothing of theirs);
a save keeps its history's start with it.
"""

from __future__ import annotations

import hashlib
import json

MEMO_LIMIT = 400_000          # digests remembered per game before the memo starts afresh


class HistoryStart(tuple):
    """The first link of a kept history. `state`: the state the history starts from (no
    history of its own; None only in a `before` chain, which is never replayed); `before`:
    the chain of the steps before it (a redraw or a load keeps them for `history_entries`);
    `prefix`: per player, the digest of what they had seen before it (empty for a game's
    own start)."""

    def __new__(cls, state=None, before=(), prefix=None):
        self = super().__new__(cls)
        self.state = state
        self.before = before
        self.prefix = prefix or {}
        return self


def _h(*parts) -> bytes:
    m = hashlib.blake2b(digest_size=16)
    for p in parts:
        m.update(p if isinstance(p, bytes) else str(p).encode())
        m.update(b"\x00")
    return m.digest()


def _view(game, s, player) -> str:
    return json.dumps(game.observe(s, player), sort_keys=True)


def root_of(node):
    while node:
        node = node[0]
    return node


class Recall:
    """Part of `Game`: `recall_digest(s, player)`."""

    def recall_digest(self, s, player) -> bytes:
        node = s.hist
        memo = self.__dict__.setdefault("_recall_memo", {})
        hit = memo.get((id(node), player))
        if hit is not None and hit[0] is node:
            return hit[1]
        if not node:                                   # the history's start
            d = self._start_digest(node, s, player)
        else:
            parent, site, who, move = node
            up = memo.get((id(parent), player))
            if up is not None and up[0] is parent:
                d = self._step_digest(up[1], site, who, move, s, player)
            else:
                self._replay(node)
                return memo[(id(node), player)][1]
        if len(memo) > MEMO_LIMIT:
            memo.clear()
        memo[(id(node), player)] = (node, d)
        return d

    def _start_digest(self, start, s, player) -> bytes:
        if player in start.prefix:
            return start.prefix[player]
        return _h(b"start", _view(self, s, player))

    def _step_digest(self, before: bytes, site, who, move, s, player) -> bytes:
        """What `player` recalls after a step: what they recalled before it, the step as they
        saw it, and their view of `s`, the state after it."""
        return _h(before, self._seen_text(site, who, move, player) if who != -1 else "chance",
                  _view(self, s, player))

    def replay_step(self, t, who, move):
        """Play one step of a kept history on `t`: a move, or a chance outcome (who is -1)."""
        if who == -1:
            self.apply_chance(t, move)
        else:
            self.apply(t, move)

    def _replay(self, node):
        """Work out every player's digest at every step from the history's start to `node`."""
        path = []
        while node:
            path.append(node)
            node = node[0]
        start = node
        memo = self._recall_memo
        t = self._own_copy(start.state)
        t.hist = None
        viewers = range(self.num_players)
        prev = {}
        for p in viewers:
            hit = memo.get((id(start), p))
            prev[p] = hit[1] if hit is not None and hit[0] is start else self._start_digest(start, t, p)
            memo[(id(start), p)] = (start, prev[p])
        for link in reversed(path):
            _, site, who, move = link
            self.replay_step(t, who, move)
            for p in viewers:
                hit = memo.get((id(link), p))
                if hit is not None and hit[0] is link:
                    prev[p] = hit[1]
                    continue
                prev[p] = self._step_digest(prev[p], site, who, move, t, p)
                memo[(id(link), p)] = (link, prev[p])
        if len(memo) > MEMO_LIMIT:
            memo.clear()

    def restart_history(self, s, player, new):
        """`new`, a state redrawn from `s` for `player`, starts a history of its own: `player`
        recalls what they recall in `s`; the others only that this redraw was made."""
        if s.hist is None:
            return
        mine = self.recall_digest(s, player) if player is not None else _h(b"spectator")
        prefix = {p: (mine if p == player else _h(b"redrawn for", player, mine, p))
                  for p in range(self.num_players)}
        state = self._own_copy(new)
        state.hist = None
        new.hist = HistoryStart(state, s.hist, prefix)
