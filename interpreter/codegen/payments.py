"""Payments: per declared payment, PAY_<name> (the ways a player can pay a cost from their
counters) and SPEND_<name>, and the labels of its counters for the pay sites."""

from __future__ import annotations

from .. import types as T
from .lines import Lines


class PaymentCompiler:
    """Payment functions. Uses ProgramCompiler's `eg` and `mod`."""

    def _counter_index(self, pi, vi, key_src):
        """Python source of the index of a payer's counter in pi.counters."""
        if key_src is None:
            return str(pi.counters.index((vi, None)))
        first = pi.counters.index((vi, 0))
        return key_src if first == 0 else f"({first} + {key_src})"

    def _payment_functions(self, pi):
        """PAY_<name>(V, me, cost, tally, check_only): the ways to pay a cost (or whether one
        exists), the cost a list of units or (when cost is None) `tally`, the units counted
        (`_tally_units`: a cost read from a record's field comes so from a table, ExprGen.cost_args);
        SPEND_<name>(V, me, spend): take a chosen way from the counters."""
        eg = self.eg
        lines = Lines()
        lines.add(0, f"def PAY_{pi.name}(V, me, cost, tally, check_only):", pi.decl.span)
        lines.add(1, f"values = [{', '.join(self._counter_values(pi))}]")
        lines.add(1, "if cost is not None: tally = _tally_units(cost)")
        if not self.optimise:
            self._plain_payment(pi, lines)
            return
        # whether a cost can be paid: the quick answers before any group is built
        lines.add(1, "if check_only:")
        lines.add(2, "if tally[0] > sum(values): return False")
        first = pi.rules[0] if pi.rules else None
        first_ways = first is not None and first.rule.cond is None and first.rule.when is None
        if first_ways:
            key = eg.gen(first.rule.source.index, {first.binder: "l_u"}) if first.keyed else None
            idx = self._counter_index(pi, first.var, key)
            if key is None:
                # every unit's first way is one counter: all the units at once
                lines.add(2, f"if tally[0] <= values[{idx}]: return True")
            elif key == "l_u":
                # each unit's first way is its own counter (the units of a tally are distinct,
                # so no two add up on one counter): each unit's count against its counter
                lines.add(2, "for l_u, q in tally[1]:")
                lines.add(3, f"if q > values[{idx}]: break")
                lines.add(2, "else:")
                lines.add(3, "return True")
            else:
                # each unit by its first way: a counter asked for more than it holds stops the
                # count (it would exceed it at the end too), else every unit is paid so (the
                # units of one kind at once: the same answer as one by one)
                lines.add(2, f"need = [0] * {len(pi.counters)}")
                lines.add(2, "for l_u, q in tally[1]:")
                lines.add(3, f"_i = {idx}; need[_i] += q")
                lines.add(3, "if need[_i] > values[_i]: break")
                lines.add(2, "else:")
                lines.add(3, "return True")
        # the groups: per kind of unit, how many and the counters that may pay for them. A
        # group needing more than those counters hold together cannot be paid, whatever the
        # others do: a check answers False at once (most failed checks end here)
        self._groups(pi, lines)
        lines.add(2, "if check_only and q > cap: return False")
        lines.add(2, "groups.append((q, src))")
        lines.add(1, f"return _payments(groups, values, check_only{', True' if first_ways else ''})")
        self._spend_function(pi, lines)

    def _counter_values(self, pi) -> list[str]:
        """The payer's counters, as the items of a list: a map whose every key is a counter,
        in key order, is unpacked whole (`*V[k][me]`) rather than read key by key."""
        out = []
        counters = pi.counters
        i = 0
        while i < len(counters):
            vi, k = counters[i]
            size = self.vars[vi.slot].size if self.vars[vi.slot].kind == "map" else 0
            if k == 0 and size > 1 and counters[i:i + size] == [(vi, j) for j in range(size)]:
                out.append(f"*V[{vi.slot}][me]")
                i += size
                continue
            out.append(f"V[{vi.slot}][me]" + (f"[{k}]" if k is not None else ""))
            i += 1
        return out

    def _groups(self, pi, lines):
        """The groups of a cost: per kind of unit, how many and the counters that may pay."""
        eg = self.eg
        lines.add(1, "groups = []")
        lines.add(1, "for l_u, q in tally[1]:")
        first = True
        for r in pi.rules:
            env = {r.binder: "l_u"}
            key = eg.gen(r.rule.source.index, env) if r.keyed else None
            idx = self._counter_index(pi, r.var, key)
            conds = [eg.gen(c, env) for c in (r.rule.cond, r.rule.when) if c is not None]
            if first and not conds:          # a first way for every unit: the list starts with it
                lines.add(2, f"_i = {idx}; src = [_i]; cap = values[_i]", r.rule.span)
                first = False
                continue
            if first:
                lines.add(2, "src = []; cap = 0")
                first = False
            lines.add(2, f"if {' and '.join(conds) if conds else 'True'}:", r.rule.span)
            lines.add(3, f"_i = {idx}")
            lines.add(3, "if _i not in src: src.append(_i); cap += values[_i]")
        if first:
            lines.add(2, "src = []; cap = 0")

    def _plain_payment(self, pi, lines):
        """The plain compilation's PAY_ (ProgramCompiler(optimise=False)): every way is listed,
        and a check asks whether there is one; none of the quick answers."""
        self._groups(pi, lines)
        lines.add(2, "groups.append((q, src))")
        lines.add(1, "ways = _payments(groups, values, False)")
        lines.add(1, "return bool(ways) if check_only else ways")
        self._spend_function(pi, lines)

    def _spend_function(self, pi, lines):
        lines.add(0, f"def SPEND_{pi.name}(V, me, spend):", pi.decl.span)
        for j, (vi, k) in enumerate(pi.counters):
            cell = f"V[{vi.slot}][me]" + (f"[{k}]" if k is not None else "")
            lines.add(1, f"{cell} -= spend[{j}]")
        lines.add(1, "return None")
        self.mod.add_lines(lines)

    def _pay_labels(self, pi):
        labels = []
        for vi, k in pi.counters:
            if k is None:
                labels.append(vi.name)
            else:
                kt = vi.type.key
                labels.append(_key_name(kt, k))
        if len(set(labels)) != len(labels):         # two maps with the same keys: qualify
            labels = [vi.name if k is None else f"{vi.name}[{_key_name(vi.type.key, k)}]"
                      for vi, k in pi.counters]
        return labels


def _key_name(t, k) -> str:
    t = T.strip(t)
    if isinstance(t, T.EnumType):
        return t.values[k]
    if isinstance(t, T.RecordType):
        return t.kinds[k]
    if isinstance(t, T.PlayerType):
        return f"player{k + 1}"
    return str(k)
