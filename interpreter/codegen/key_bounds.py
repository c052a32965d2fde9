"""Which keys of a remembered value are small numbers known when compiled, so that its memo
can be a list rather than a dict.

A legal-move generator remembers a value per value of a loop's variable (codegen/invariants.py,
codegen/moves.py): a dict looked up with `.get` costs a method call at every pass, some 30 ns
on this machine, where a list indexed by the key costs 14. A list serves only when every key
is an int in 0..n-1 with n known when compiled and small (a list of n slots is made at every
entry into the loop): the values of a type (`VALS_Space`), the cells of a board, a parameter's
domain filtered from them (`_dom1`), a `range` of constants, a rules table of such numbers.
Anything else (none among the keys, a negative number, a list of unknown contents) keeps the
dict: a negative key would silently read another slot of a list.
"""

from __future__ import annotations

import ast as pyast

LIST_MEMO_MAX = 64     # the most slots of a list memo (made afresh at each entry into its loop)


def small_int_tables(known: dict, walked: bool = False) -> dict[str, int]:
    """For each table of `known` whose values are all ints in 0..n-1 (n at most
    LIST_MEMO_MAX), that n: the values read from it (`T[x]`: a dict's values), or with
    `walked` those a `for` over it walks (a list's items, a dict's keys)."""
    out = {}
    for name, v in known.items():
        if isinstance(v, dict):
            items = v.keys() if walked else v.values()
        elif isinstance(v, (list, tuple)):
            items = v
        else:
            continue
        top = -1
        for x in items:
            if type(x) is not int or x < 0 or x >= LIST_MEMO_MAX:
                break
            top = max(top, x)
        else:
            if top >= 0:
                out[name] = top + 1
    return out


class LoopBounds:
    """The bounds of one function's loops (its syntax tree indexed once, when first asked: a
    function may have thousands of nodes, and most have no memo to bound). `of(it)`: n when
    every value a `for` over `it` walks is an int in 0..n-1 known when compiled, else None: a
    table of `walked` (`small_int_tables(known, walked=True)`), a `range` of constants, or a
    domain `_domN` that the function fills only with the values of such loops. `read`: the
    bounds of the values read from the tables (`small_int_tables(known)`), for keys read
    through one."""

    def __init__(self, fn, walked: dict[str, int], read: dict[str, int] | None = None):
        self.fn = fn
        self.walked = walked
        self.read = read or {}
        self.memo: dict[str, int | None] = {}  # domain -> its bound
        self.active: set[str] = set()          # the domains being worked out
        self.indexed = False                   # (the tree is read at the first question)

    def of(self, it) -> int | None:
        if not self.indexed:
            self._index(self.fn)
        return self.walk(it, 0)

    def _index(self, fn):
        self.indexed = True
        self.assigns: dict[str, list] = {}     # name -> values of its one-target `=`
        self.fors: dict[str, list] = {}        # name -> the iterables of the `for`s binding it
        # names bound any other way (`+=`, `:=`, a comprehension, del, the arguments)
        self.other_binds: set[str] = {a.arg for a in fn.args.args}
        self.appends: dict[str, list] = {}     # name -> the arguments of its `.append(...)`s
        self.other_uses: set[str] = set()      # names with another method, or an item stored
        plain: set[int] = set()
        for n in pyast.walk(fn):
            if isinstance(n, pyast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], pyast.Name):
                self.assigns.setdefault(n.targets[0].id, []).append(n.value)
                plain.add(id(n.targets[0]))
            elif isinstance(n, pyast.For) and isinstance(n.target, pyast.Name):
                self.fors.setdefault(n.target.id, []).append(n.iter)
                plain.add(id(n.target))
            elif isinstance(n, pyast.Call) and isinstance(n.func, pyast.Attribute) \
                    and isinstance(n.func.value, pyast.Name):
                name = n.func.value.id
                if n.func.attr == "append" and len(n.args) == 1 and not n.keywords:
                    self.appends.setdefault(name, []).append(n.args[0])
                else:
                    self.other_uses.add(name)
        for n in pyast.walk(fn):
            if isinstance(n, pyast.Name) and not isinstance(n.ctx, pyast.Load) and id(n) not in plain:
                self.other_binds.add(n.id)
            elif isinstance(n, pyast.Subscript) and not isinstance(n.ctx, pyast.Load) \
                    and isinstance(n.value, pyast.Name):
                self.other_uses.add(n.value.id)
            elif isinstance(n, pyast.Attribute) and isinstance(n.value, pyast.Name) and n.attr != "append":
                self.other_uses.add(n.value.id)

    def walk(self, it, depth: int) -> int | None:
        if depth > 4:
            return None
        if isinstance(it, pyast.Name):
            if it.id in self.walked:
                return self.walked[it.id]
            if it.id.startswith("_dom"):
                name = it.id
                if name in self.memo:
                    return self.memo[name]
                if name in self.active:
                    # filled, through a loop over it, with values it already has: the other
                    # sources bound it (a bound found inside such a cycle holds for the
                    # domain it started from only, so only that one is remembered)
                    return 0
                self.active.add(name)
                b = self._domain(name, depth)
                self.active.discard(name)
                if not self.active:
                    self.memo[name] = b
                return b
            return None
        if isinstance(it, pyast.Call) and isinstance(it.func, pyast.Name) and it.func.id == "range" \
                and not it.keywords and 1 <= len(it.args) <= 2:
            vals = [a.value for a in it.args if isinstance(a, pyast.Constant)]
            if len(vals) != len(it.args) or any(type(x) is not int for x in vals):
                return None
            low, high = (0, vals[0]) if len(vals) == 1 else vals
            return high if 0 <= low and 0 < high <= LIST_MEMO_MAX else None
        return None

    def _domain(self, name: str, depth: int) -> int | None:
        """A parameter's domain as codegen/moves.py makes it: `_domN = []` then
        `_domN.append(l_x)` inside `for l_x in <bounded>`, or `_domN = <bounded>`."""
        if name in self.other_binds or name in self.other_uses or name in self.fors:
            return None
        bound = 0
        for value in self.assigns.get(name, []):
            b = 0 if isinstance(value, pyast.List) and not value.elts else self.walk(value, depth + 1)
            if b is None:
                return None
            bound = max(bound, b)
        for arg in self.appends.get(name, []):
            b = self._loop_variable(arg, depth) if isinstance(arg, pyast.Name) else None
            if b is None:
                return None
            bound = max(bound, b)
        return bound or None

    def _loop_variable(self, var: pyast.Name, depth: int) -> int | None:
        """The bound of a name bound only by `for` loops over bounded lists."""
        name = var.id
        if name in self.other_binds or name in self.assigns or name not in self.fors:
            return None
        bound = 0
        for it in self.fors[name]:
            b = self.walk(it, depth + 1)
            if b is None:
                return None
            bound = max(bound, b)
        return bound


def _is_name(node, name: str) -> bool:
    return isinstance(node, pyast.Name) and node.id == name
