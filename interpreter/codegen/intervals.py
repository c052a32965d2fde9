"""Bound tests whose answer the code already knows: dropped from the tests they are part of.

Rules that walk a line of cells test the bounds at each step before reading the grid:

    if r < 0 or r >= ROWS or c < 0 or c >= COLUMNS or board[cell(r, c)] != d: return 0
    return 1 + run(d, r + dr, c + dc, dr, dc)

Once such a def is inlined and unrolled (a four-in-a-row test, say), every step is one
conditional, and many of its tests are decided by what came before: `c := x % 7 + 1` lies in
1..7, so `c < 0` is false; a step after `r` passed `0 <= r < 6` makes `r2 := r + 1` at least
1. Here each expression is read in the order Python evaluates it, keeping an interval of
values for the names it binds with `:=` (from integer constants, `+`, `-`, `*` by a constant,
`//` and `%` by a positive constant) and narrowing them by the comparisons the evaluation has
passed (an operand of `or` runs only when those before it were false, a branch of a
conditional only when its test had that value). A comparison of such names and constants
that the intervals decide is replaced by its value, and inside a test (`if`, a conditional's
test, `not`, and `and`/`or` within them) a false operand of `or` or a true one of `and` is
dropped: it changes nothing of the test's truth, and a comparison of names and constants
has no effect of its own. Anything not understood (a call, a comprehension, a name bound
where it may or may not run) makes the names it may bind unknown again.
"""

from __future__ import annotations

import ast as pyast
import operator

from .bounds import _facts

_OPEN = (None, None)
# the arithmetic the passes compute with at compile time (unroll.py folds with it too)
BINOPS = {pyast.Add: operator.add, pyast.Sub: operator.sub, pyast.Mult: operator.mul,
          pyast.FloorDiv: operator.floordiv, pyast.Mod: operator.mod}


def drop_decided_tests(e: pyast.expr, known: dict | None = None):
    """(e with the comparisons its evaluation decides replaced, whether anything changed).
    `known`: intervals of names bound before e is evaluated and never changed (a def's
    parameters of a numbered type)."""
    d = _Decider()
    new, _ = d.visit(e, dict(known) if known else {}, False)
    return new, d.changed


def _interval(node, env):
    """(low, high) of an int-valued node, either end None when unknown; None when not an int
    expression this knows."""
    if isinstance(node, pyast.Constant) and type(node.value) is int:
        return node.value, node.value
    if isinstance(node, pyast.Name):
        return env.get(node.id, _OPEN) if node.id in env else None
    if isinstance(node, pyast.NamedExpr):
        return _interval(node.value, env)
    if isinstance(node, pyast.UnaryOp) and isinstance(node.op, pyast.USub):
        iv = _interval(node.operand, env)
        if iv is None:
            return None
        lo, hi = iv
        return (None if hi is None else -hi), (None if lo is None else -lo)
    if not isinstance(node, pyast.BinOp):
        return None
    if isinstance(node.op, pyast.Mod) and _positive(node.right):
        k = node.right.value
        iv = _interval(node.left, env) or _OPEN
        if iv[0] is not None and iv[1] is not None and 0 <= iv[0] and iv[1] < k:
            return iv
        return 0, k - 1
    a, b = _interval(node.left, env), _interval(node.right, env)
    if a is None or b is None:
        return None
    if isinstance(node.op, pyast.Add):
        return _add(a[0], b[0]), _add(a[1], b[1])
    if isinstance(node.op, pyast.Sub):
        return _add(a[0], _neg(b[1])), _add(a[1], _neg(b[0]))
    if isinstance(node.op, pyast.Mult) and _constant(node.right) is not None:
        k = node.right.value
        ends = (_mul(a[0], k), _mul(a[1], k))
        return ends if k >= 0 else (ends[1], ends[0])
    if isinstance(node.op, pyast.FloorDiv) and _positive(node.right):
        k = node.right.value
        return (None if a[0] is None else a[0] // k), (None if a[1] is None else a[1] // k)
    return None


def _constant(node):
    return node.value if isinstance(node, pyast.Constant) and type(node.value) is int else None


def _positive(node) -> bool:
    v = _constant(node)
    return v is not None and v > 0


def _add(x, y):
    return None if x is None or y is None else x + y


def _neg(x):
    return None if x is None else -x


def _mul(x, k):
    return None if x is None else x * k


def arithmetic(node) -> bool:
    """Is node `a + b`, `a - b`, `a * b`, `a // b` or `a % b`? (Its value is then an int,
    never a truth value, whatever the ints or truth values it is made of.)"""
    return isinstance(node, pyast.BinOp) and isinstance(node.op, (pyast.Add, pyast.Sub, pyast.Mult,
                                                                   pyast.FloorDiv, pyast.Mod))


def _simple(node) -> bool:
    """A name or an int constant: evaluating it does nothing and cannot fail (for a name the
    code has bound)."""
    return isinstance(node, pyast.Name) or _constant(node) is not None


def _decide(op, a, b):
    """True/False when every value of interval a `op` every value of interval b agree, else None."""
    (alo, ahi), (blo, bhi) = a, b
    if isinstance(op, pyast.Lt):
        if ahi is not None and blo is not None and ahi < blo:
            return True
        if alo is not None and bhi is not None and alo >= bhi:
            return False
    elif isinstance(op, pyast.LtE):
        if ahi is not None and blo is not None and ahi <= blo:
            return True
        if alo is not None and bhi is not None and alo > bhi:
            return False
    elif isinstance(op, pyast.Gt):
        return _decide(pyast.Lt(), b, a)
    elif isinstance(op, pyast.GtE):
        return _decide(pyast.LtE(), b, a)
    return None


def _narrow(env, node, truth: bool):
    """env with what `node` having truth value `truth` proves about the names it knows."""
    facts: set = set()
    _facts(node, truth, facts)
    if not facts:
        return env
    env = dict(env)
    for name, op, k in facts:
        if name not in env:
            continue
        lo, hi = env[name]
        if op == "lt":
            hi = k - 1 if hi is None else min(hi, k - 1)
        elif op == "le":
            hi = k if hi is None else min(hi, k)
        elif op == "gt":
            lo = k + 1 if lo is None else max(lo, k + 1)
        elif op == "ge":
            lo = k if lo is None else max(lo, k)
        env[name] = (lo, hi)
    return env


def _join(a: dict, b: dict) -> dict:
    """What holds after either of two paths: the names both know, each interval widened."""
    out = {}
    for name in a.keys() & b.keys():
        (alo, ahi), (blo, bhi) = a[name], b[name]
        out[name] = (None if alo is None or blo is None else min(alo, blo),
                     None if ahi is None or bhi is None else max(ahi, bhi))
    return out


def _bound_names(node) -> set[str]:
    return {n.target.id for n in pyast.walk(node)
            if isinstance(n, pyast.NamedExpr) and isinstance(n.target, pyast.Name)}


class _Decider:
    def __init__(self):
        self.changed = False

    def visit(self, node, env: dict, test: bool):
        """(node rewritten, env after evaluating it). `test`: only node's truth matters."""
        if isinstance(node, pyast.NamedExpr) and isinstance(node.target, pyast.Name):
            node.value, env = self.visit(node.value, env, False)
            iv = _interval(node.value, env)
            if iv is None and arithmetic(node.value):
                iv = _OPEN                       # a number, not yet bounded: tests narrow it
            env = dict(env)
            if iv is None:
                env.pop(node.target.id, None)
            else:
                env[node.target.id] = iv
            return node, env
        if isinstance(node, pyast.Compare):
            return self._compare(node, env)
        if isinstance(node, pyast.BoolOp):
            return self._boolop(node, env, test)
        if isinstance(node, pyast.IfExp):
            node.test, env = self.visit(node.test, env, True)
            if isinstance(node.test, pyast.Constant):
                self.changed = True
                return self.visit(node.body if node.test.value else node.orelse, env, test)
            node.body, yes = self.visit(node.body, _narrow(env, node.test, True), test)
            node.orelse, no = self.visit(node.orelse, _narrow(env, node.test, False), test)
            return node, _join(yes, no)
        if isinstance(node, pyast.UnaryOp) and isinstance(node.op, pyast.Not):
            node.operand, env = self.visit(node.operand, env, True)
            return node, env
        if isinstance(node, (pyast.Tuple, pyast.List)) and isinstance(node.ctx, pyast.Load):
            elts = []
            for x in node.elts:
                x, env = self.visit(x, env, False)
                elts.append(x)
            node.elts = elts
            return node, env
        if isinstance(node, pyast.Name) and isinstance(node.ctx, pyast.Load) and node.id in env:
            lo, hi = env[node.id]
            if lo is not None and lo == hi:          # the name holds this int for certain
                self.changed = True
                return pyast.copy_location(pyast.Constant(lo), node), env
            return node, env
        if isinstance(node, pyast.BinOp):
            node.left, env = self.visit(node.left, env, False)
            node.right, env = self.visit(node.right, env, False)
            return self._binop(node, env), env
        if isinstance(node, (pyast.Subscript, pyast.Call, pyast.UnaryOp, pyast.Constant,
                             pyast.Name, pyast.Attribute, pyast.Starred)):
            # operands left to right (a call's function, then its arguments)
            for field, value in pyast.iter_fields(node):
                if isinstance(value, pyast.expr):
                    new, env = self.visit(value, env, False)
                    setattr(node, field, new)
                elif isinstance(value, list) and all(isinstance(v, pyast.expr) for v in value):
                    out = []
                    for v in value:
                        v, env = self.visit(v, env, False)
                        out.append(v)
                    setattr(node, field, out)
                elif isinstance(value, list) and value:          # keywords: left as they are
                    return node, {k: v for k, v in env.items() if k not in _bound_names(node)}
            return node, env
        # anything else (comprehensions, lambdas, slices, ...): as it is, and what it may
        # bind unknown
        bound = _bound_names(node)
        return node, {k: v for k, v in env.items() if k not in bound}

    def _binop(self, node, env):
        """node, or what it reduces to once names of known value stood in: the value of two
        int constants, or the int side of `x + 0`, `x - 0`, `0 + x`."""
        a, b = _constant(node.left), _constant(node.right)
        if a is not None and b is not None:
            op = BINOPS.get(type(node.op))
            if op is not None and (b != 0 or not isinstance(node.op, (pyast.FloorDiv, pyast.Mod))):
                self.changed = True
                return pyast.copy_location(pyast.Constant(op(a, b)), node)
        if isinstance(node.op, (pyast.Add, pyast.Sub)) and b == 0 and self._int(node.left, env):
            self.changed = True
            return node.left
        if isinstance(node.op, pyast.Add) and a == 0 and self._int(node.right, env):
            self.changed = True
            return node.right
        return node

    @staticmethod
    def _int(node, env) -> bool:
        """Is node's value an int for certain (not a truth value, which `+ 0` would change)?"""
        return arithmetic(node) or (isinstance(node, pyast.Name) and node.id in env) \
            or _constant(node) is not None

    def _compare(self, node, env):
        parts = [node.left] + node.comparators
        new = []
        for p in parts:
            p, env = self.visit(p, env, False)
            new.append(p)
        node.left, node.comparators = new[0], new[1:]
        if len(node.ops) == 1 and all(_simple(p) for p in new):
            a, b = _interval(new[0], env), _interval(new[1], env)
            if a is not None and b is not None:
                answer = _decide(node.ops[0], a, b)
                if answer is not None:
                    self.changed = True
                    return pyast.copy_location(pyast.Constant(answer), node), env
        return node, env

    def _boolop(self, node, env, test: bool):
        is_or = isinstance(node.op, pyast.Or)
        after_first = None
        kept = []
        cur = env
        for i, v in enumerate(node.values):
            v, out = self.visit(v, cur, test)
            if i == 0:
                after_first = out
            if test and isinstance(v, pyast.Constant) and bool(v.value) is not is_or:
                self.changed = True                  # `or False` / `and True`: no say in the test
            else:
                kept.append(v)
                if test and isinstance(v, pyast.Constant):
                    break                            # `or True` / `and False`: the rest never runs
            # the next operand runs only when this one was false (or) / true (and)
            cur = _narrow(out, v, not is_or)
        # after the whole: the first operand ran; the rest may not have
        bound_later = set().union(*(_bound_names(v) for v in node.values[1:])) if len(node.values) > 1 else set()
        env_after = {k: iv for k, iv in (after_first or env).items() if k not in bound_later}
        if not kept:
            return pyast.copy_location(pyast.Constant(not is_or), node), env_after
        if len(kept) == 1:
            return kept[0], env_after
        node.values = kept
        return node, env_after
