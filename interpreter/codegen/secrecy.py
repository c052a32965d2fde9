"""Which values of a move are secret: a parameter or a choice whose options are the contents
of a private or hidden zone (a card kept from a draft, a tile played from a hand) names
something the other players do not see. What is shown of another player's move (the
terminal, a log shown to a player, an adapter's observation) leaves such a value out.

The test is static and errs towards secrecy: the options are secret when their expression
reads a private or hidden variable anywhere, except as the zone itself given to `slots` or
`count` (positions and counts are public; contents are not). A name bound by `let` anywhere in the rules is followed to every expression bound to
it, and a `def` called is followed into its body.
"""

from __future__ import annotations

from .. import ast

# builtins that, given a zone itself, answer about its shape, not its contents
_SHAPE_ONLY = {"slots", "count"}


class Secrecy:
    def __init__(self, p, decls):
        self.p = p
        self.lets: dict[str, list] = {}
        for d in decls:
            for n in d.walk():
                if isinstance(n, ast.LetStmt):
                    self.lets.setdefault(n.name, []).append(n.value)
        self._memo: dict[int, bool] = {}

    def _secret_var(self, node) -> bool:
        if isinstance(node, ast.Attr):
            vi = self.p.pvars.get(node.name)
        elif isinstance(node, ast.Name):
            vi = self.p.globals.get(node.name)
        else:
            return False
        return vi is not None and vi.visibility in ("private", "hidden")

    def options(self, expr) -> bool:
        """Does this options expression read the contents of a private or hidden zone?"""
        if expr is None:
            return False
        key = id(expr)
        if key not in self._memo:
            self._memo[key] = self._reads_secret(expr)
        return self._memo[key]

    def _reads_secret(self, root) -> bool:
        """A walk over the expression, every `let` value of a name it reads and every body of
        a def it calls; each node is entered once (a cycle or a shared part costs nothing)."""
        seen: set[int] = set()
        stack = [root]
        while stack:
            n = stack.pop()
            if id(n) in seen:
                continue
            seen.add(id(n))
            if self._secret_var(n):
                return True
            if isinstance(n, ast.Name):
                stack.extend(self.lets.get(n.name, ()))
            elif isinstance(n, ast.Call):
                if n.func in _SHAPE_ONLY and len(n.args) == 1 and isinstance(n.args[0], (ast.Name, ast.Attr)):
                    continue
                d = self.p.defs.get(n.func)
                if d is not None:
                    stack.append(d.decl)
            stack.extend(n.children())
        return False
