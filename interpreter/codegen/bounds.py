"""Grid cells whose bounds the code has just tested: the second test dropped.

`cell(r, c)` compiles to a test of the bounds before the number is made (a cell outside the
grid is a rules error that names it):

    (r * 7 + c if 0 <= r < 6 and 0 <= c < 7 else _cell(r, c, 6, 7))

Rules often test the bounds themselves just before, so that a line of pieces running off
the grid stops there:

    if r < 0 or r >= ROWS or c < 0 or c >= COLUMNS or board[cell(r, c)] != d: return 0

An operand of `or` is evaluated only when those before it were false, an operand of `and`
only when those before it were true, and a branch of a conditional only when its test had
that value. Those facts, as bounds of names (`r >= 0`, `r < 6`), are carried into what is
evaluated after them; where they prove a cell's test true, the number is made without it.
Only the comparisons of a name with an integer literal count, and a name bound by `:=`
anywhere in an expression proves nothing inside it (its value could change between the
test and the use); comprehensions and lambdas, which may bind the same names, start with
no facts.
"""

from __future__ import annotations

import ast as pyast

# a comparison's operator as a bound: (name op K) true
_OPS = {pyast.Lt: "lt", pyast.LtE: "le", pyast.Gt: "gt", pyast.GtE: "ge"}
_FLIP = {"lt": "gt", "le": "ge", "gt": "lt", "ge": "le"}        # K op x  ->  x flip(op) K
_NOT = {"lt": "ge", "le": "gt", "gt": "le", "ge": "lt"}         # not (x op K)  ->  x NOT(op) K
_SCOPES = (pyast.Lambda, pyast.ListComp, pyast.SetComp, pyast.DictComp, pyast.GeneratorExp)


def drop_proven_cell_tests(e: pyast.expr):
    """(e with every cell test its context proves true dropped, whether anything changed)."""
    pruner = _Pruner(e)
    new = pruner.visit(e, frozenset())
    return new, pruner.changed


def _int(node) -> bool:
    return isinstance(node, pyast.Constant) and type(node.value) is int


def _facts(node, truth: bool, out: set):
    """Bounds (name, op, K) that hold when node evaluated to `truth`."""
    if isinstance(node, pyast.UnaryOp) and isinstance(node.op, pyast.Not):
        _facts(node.operand, not truth, out)
    elif isinstance(node, pyast.BoolOp):
        if isinstance(node.op, pyast.And) == truth:      # `a and b` true, `a or b` false: each part
            for v in node.values:
                _facts(v, truth, out)
    elif isinstance(node, pyast.Compare):
        if not truth and len(node.ops) != 1:             # a false chain: which link failed is unknown
            return
        for left, op, right in zip([node.left] + node.comparators, node.ops, node.comparators):
            kind = _OPS.get(type(op))
            if kind is None:
                continue
            if isinstance(left, pyast.Name) and _int(right):
                name, k = left.id, right.value
            elif _int(left) and isinstance(right, pyast.Name):
                name, k, kind = right.id, left.value, _FLIP[kind]
            else:
                continue
            out.add((name, kind if truth else _NOT[kind], k))


def _at_least(facts, name, low) -> bool:
    return any(n == name and op in ("ge", "gt") and k >= low for n, op, k in facts)


def _below(facts, name, high) -> bool:
    return any(n == name and ((op == "lt" and k <= high) or (op == "le" and k < high))
               for n, op, k in facts)


def _cell_test(node):
    """For `X if 0 <= r < R and 0 <= c < C else _cell(r, c, R, C)`: (r, R, c, C), else None."""
    call = node.orelse
    if not (isinstance(call, pyast.Call) and isinstance(call.func, pyast.Name) and call.func.id == "_cell"
            and len(call.args) == 4 and not call.keywords):
        return None
    r, c, rows, cols = call.args
    if not (isinstance(r, pyast.Name) and isinstance(c, pyast.Name) and _int(rows) and _int(cols)):
        return None
    want = f"0 <= {r.id} < {rows.value} and 0 <= {c.id} < {cols.value}"
    if pyast.unparse(node.test) != want:
        return None
    return r.id, rows.value, c.id, cols.value


class _Pruner:
    def __init__(self, root):
        self.changed = False
        self.bound: dict[int, frozenset] = {}     # id(node) -> names bound by := inside it
        self._bind(root)

    def _bind(self, node) -> frozenset:
        names = set()
        if isinstance(node, pyast.NamedExpr) and isinstance(node.target, pyast.Name):
            names.add(node.target.id)
        for child in pyast.iter_child_nodes(node):
            names |= self._bind(child)
        out = self.bound[id(node)] = frozenset(names)
        return out

    def visit(self, node, facts: frozenset):
        if isinstance(node, _SCOPES):
            facts = frozenset()
        bound = self.bound.get(id(node), frozenset())
        if facts and bound:
            facts = frozenset(f for f in facts if f[0] not in bound)
        if isinstance(node, pyast.BoolOp):
            known = set(facts)
            values = []
            for v in node.values:
                values.append(self.visit(v, frozenset(known)))
                more: set = set()
                _facts(v, isinstance(node.op, pyast.And), more)
                known |= {f for f in more if f[0] not in bound}
            node.values = values
            return node
        if isinstance(node, pyast.IfExp):
            node.test = self.visit(node.test, facts)
            yes: set = set()
            no: set = set()
            _facts(node.test, True, yes)
            _facts(node.test, False, no)
            node.body = self.visit(node.body, facts | {f for f in yes if f[0] not in bound})
            node.orelse = self.visit(node.orelse, facts | {f for f in no if f[0] not in bound})
            test = _cell_test(node)
            if test is not None:
                r, rows, c, cols = test
                if _at_least(facts, r, 0) and _below(facts, r, rows) \
                        and _at_least(facts, c, 0) and _below(facts, c, cols):
                    self.changed = True
                    return node.body
            return node
        for field, value in pyast.iter_fields(node):
            if isinstance(value, pyast.AST):
                setattr(node, field, self.visit(value, facts))
            elif isinstance(value, list):
                setattr(node, field, [self.visit(v, facts) if isinstance(v, pyast.AST) else v for v in value])
        return node
