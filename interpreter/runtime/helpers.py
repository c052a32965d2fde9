"""Small functions the generated code calls (kept few: most operations are inlined)."""

from __future__ import annotations

import operator
import sys
from itertools import combinations_with_replacement, compress

from ..limits import MAX_INT, MAX_RANGE


class RulesRuntimeError(Exception):
    """The rules did something impossible while running (a bug in the rules, not a bad move)."""


def _range(a, b):
    """range(a, b) whose bounds are known only when the rules run: refused past MAX_RANGE
    values (a bigger one would take the memory or the time of the machine)."""
    if b - a > MAX_RANGE:
        raise RulesRuntimeError(f"range({a}, {b}) has {b - a:,} values; a range may have at most {MAX_RANGE:,}")
    return range(a, b)


def _mul(a, b):
    """a * b of two numbers the rules computed: a number squared again and again would
    otherwise grow until it takes the machine's memory and time."""
    r = a * b
    if -MAX_INT <= r <= MAX_INT:
        return r
    raise RulesRuntimeError(f"{a} * {b} is beyond the numbers the rules may use (-2**53..2**53)")


def _too_big(name, value):
    raise RulesRuntimeError(f"'{name}' would be {value}, beyond the numbers the rules may use (-2**53..2**53)")


def _selections(counts, lo, hi):
    """Every selection of lo..hi values, at most counts[v] of each value v, as ascending
    tuples: fewer values first, then in lexicographic order (the order of their move ids)."""
    kinds = [v for v, n in enumerate(counts) if n > 0]
    out = []
    for k in range(lo, hi + 1):
        for combo in combinations_with_replacement(kinds, k):
            if all(combo.count(v) <= counts[v] for v in set(combo)):
                out.append(combo)
                if len(out) > MAX_RANGE:
                    raise RulesRuntimeError(f"more than {MAX_RANGE:,} selections of {lo} to {hi} values")
    return out


def _selections_of(values, lo, hi, nkinds):
    """The selections among a list of values (kinds or enum values, none left out)."""
    counts = [0] * nkinds
    for v in values:
        if v is not None:
            counts[v] += 1
    return _selections(counts, lo, hi)


def _loop_budget():
    raise RulesRuntimeError("the rules' loops ran more rounds than one decision allows (an endless "
                            "loop?); see 'Limits at run time' in docs/engine.md")


def _it_counts(counts):
    """Every copy in a pile or stack, kind by kind (the scan of the counts runs in C)."""
    kinds = list(compress(_KINDS, counts))
    if len(kinds) == sum(counts):
        return kinds
    return [k for k in kinds for _ in range(counts[k])]


def _distinct_counts(counts):
    return list(compress(_KINDS, counts))


_KINDS = range(sys.maxsize)     # the kinds' numbers, as long as any list of counts


def _it_slots(slots):
    return [x for x in slots if x is not None]


def _distinct(values):
    return list(dict.fromkeys(values))


def _memo_set(memo, key, value):
    """A value remembered in a memo kept in a list (codegen/key_bounds.py), and given back."""
    memo[key] = value
    return value


def _count_slots(slots):
    return len(slots) - slots.count(None)


def _cell(r, c, rows, cols):
    if not (0 <= r < rows and 0 <= c < cols):
        raise RulesRuntimeError(f"cell({r}, {c}) is outside the grid ({rows} x {cols})")
    return r * cols + c


def _index(k, n, what):
    if not 0 <= k < n:
        raise RulesRuntimeError(f"{what}({k}): there are {n}, numbered 0 to {n - 1}")
    return k


# what a test of the rules may raise (a division by zero, a cell off the grid, a position past
# the end of a list...): a legal-move generator that tests in its own order and meets one of
# these lists the moves again in the order the rules are written (codegen/moves.py)
TEST_ERRORS = (TypeError, IndexError, KeyError, ValueError, ZeroDivisionError, AttributeError, RulesRuntimeError)


def _knows(bits, p):
    return bits == -1 or bool(bits >> p & 1)


def _can(exists, reference, V, p):
    """can(p, ACTION): does the action have a legal move for p? (`exists` stops at the first,
    testing in its own order; should a test raise, `reference` answers, testing as the rules
    are written: see codegen/moves.py)"""
    try:
        return exists(None, V, p)
    except TEST_ERRORS:
        return reference(None, V, p)


def _can_keep(listers, exists, references, S, V, p):
    """can(p, ACTIONS) asked just before an `act p` that lists those actions
    (codegen/machines.py, m_if_stmt): (the answer, each action's moves) with the moves listed
    by the act's own generators, which the act then takes instead of listing them again. A
    test that raises in the listing gives can()'s own answer (`_can`, each action in turn) and
    no moves; so does one that recurses too deep where can()'s search, stopping at the first
    move, may not have gone."""
    lists = []
    try:
        for lister in listers:
            out = []
            lister(S, V, p, out)
            lists.append(out)
    except (*TEST_ERRORS, RecursionError):
        return (any(_can(e, r, V, p) for e, r in zip(exists, references)), None)
    return (any(lists), lists)


def _maplit(n, default, pairs):
    out = [list(default) if isinstance(default, list) else default for _ in range(n)]
    for k, v in pairs:
        out[k] = v
    return out


def _tally_units(units):
    """A cost as a payment asks it: (how many units, ((unit, how many), ...) in order of
    first appearance). A cost read from a record's field comes so tallied from a table
    (codegen/tables.py, tally_values)."""
    counts = {}
    for u in units:
        counts[u] = counts.get(u, 0) + 1
    return len(units), tuple(counts.items())


def _ordinal(x):
    if x is None:
        raise RulesRuntimeError("ordinal(none): no value to number")
    return x


def _seats_from(p, n):
    return [(p + i) % n for i in range(n)]


def _player(k, n):
    if not 1 <= k <= n:
        raise RulesRuntimeError(f"player({k}): seats are numbered 1 to {n}")
    return k - 1




class _EndGame(Exception):
    """Raised by `end game`; the runner unwinds the stack and starts the end of the game."""


def _bound_error(name, value, low, high):
    if (low is None or value >= low) and (high is None or value <= high):
        _too_big(name, value)            # inside what was declared: past what any number may be
    rng = f"{'' if low is None else low}..{'' if high is None else high}"
    raise RulesRuntimeError(f"'{name}' would become {value}, outside its declared range {rng}")


def _missing(kind, names):
    raise RulesRuntimeError(f"there is no {names[kind]} there to move")


def _remove(seq, kind, names):
    try:
        seq.remove(kind)
    except ValueError:
        raise RulesRuntimeError(f"there is no {names[kind]} there to move") from None


def _empty_slot():
    raise RulesRuntimeError("that slot is empty: nothing to move")


def _occupied():
    raise RulesRuntimeError("that slot is already occupied")


def _compact_known(slots, known):
    pairs = [(x, k) for x, k in zip(slots, known) if x is not None]
    n = len(slots)
    slots[:] = [x for x, _ in pairs] + [None] * (n - len(pairs))
    known[:] = [k for _, k in pairs] + [0] * (n - len(pairs))


def _draw_single(counts):
    """The only kind left in a stack (no chance needed), or None if there are several.
    (The kinds with no copy are counted in C: a deck of a hundred kinds, most of them gone,
    was walked in Python at every draw.)"""
    empty = counts.count(0)
    if empty < len(counts) - 1:
        return None
    if empty == len(counts):
        raise RulesRuntimeError("cannot draw from an empty stack")
    for k, n in enumerate(counts):
        if n:
            return k


class NoOptions(Exception):
    def __init__(self, site):
        super().__init__(site)
        self.site = site


def _no_options(site):
    raise NoOptions(site)




_HALL_GROUPS = 8


def _hall(groups, values):
    """Can every group be paid at once? (Hall's condition for supplies and demands: every set
    of groups needs no more than the counters any of them may use hold together.) Checked over
    all sets of groups, each built from a smaller one, so no search is needed."""
    g = len(groups)
    masks = []
    for _, sources in groups:
        m = 0
        for c in sources:
            m |= 1 << c
        masks.append(m)
    need = [0] * (1 << g)
    srcs = [0] * (1 << g)
    for mask in range(1, 1 << g):
        low = mask & -mask
        i = low.bit_length() - 1
        rest = mask ^ low
        need[mask] = need[rest] + groups[i][0]
        srcs[mask] = srcs[rest] | masks[i]
        cap = 0
        m = srcs[mask]
        while m:
            b = m & -m
            cap += values[b.bit_length() - 1]
            m ^= b
        if need[mask] > cap:
            return False
    return True


def _payments(groups, values, check_only, first_ways_checked=False):
    """Ways to pay: groups is [(how many units, [counters that may pay for them])]; values the
    counters' current amounts. Returns the distinct spend vectors (tuples), or with check_only
    whether there is at least one. `first_ways_checked`: the caller has already answered the
    two quickest questions below (PAY_ functions do, before building any group)."""
    n = len(values)
    if check_only:
        # quick answers first: not enough in all, or each unit's first source enough alone
        if not first_ways_checked:
            if sum(q for q, _ in groups) > sum(values):
                return False
            need = [0] * n
            for q, sources in groups:
                if not sources:
                    return False
                need[sources[0]] += q
            if all(need[i] <= values[i] for i in range(n)):
                return True
        # each group in turn from its ways in order: a full assignment proves it payable
        left = list(values)
        for q, sources in groups:
            for c in sources:
                take = left[c] if left[c] < q else q
                left[c] -= take
                q -= take
                if not q:
                    break
            else:
                break
        else:
            return True
        # a group, or all of them, needing more than the counters they may use hold together
        used = set()
        for q, sources in groups:
            if q > sum(values[c] for c in sources):
                return False
            used.update(sources)
        if sum(q for q, _ in groups) > sum(values[c] for c in used):
            return False
        if len(groups) <= _HALL_GROUPS:
            return _hall(groups, values)
    # every way, group by group: the distinct amounts spent so far (ways that spend the same
    # from each counter are one way, so each is carried on once, not once per path to it)
    states = {(0,) * n}
    for q, sources in groups:
        nxt = set()
        add = nxt.add
        sources = [c for c in sources if values[c]]     # an empty counter pays for nothing
        if len(sources) == 1:                           # (written out: the usual cases)
            c = sources[0]
            room = values[c] - q
            for spend in states:
                if spend[c] <= room:
                    sp = list(spend)
                    sp[c] += q
                    add(tuple(sp))
        elif len(sources) == 2:
            a, b = sources
            for spend in states:
                ca, cb = values[a] - spend[a], values[b] - spend[b]
                for x in range(q - cb if q > cb else 0, (q if q < ca else ca) + 1):
                    sp = list(spend)
                    sp[a] += x
                    sp[b] += q - x
                    add(tuple(sp))
        elif not sources:
            if q == 0:                                  # nothing asked: every way goes on
                nxt = set(states)
        else:
            for spend in states:
                for amounts in _splits(q, [values[c] - spend[c] for c in sources]):
                    sp = list(spend)
                    for c, x in zip(sources, amounts):
                        sp[c] += x
                    add(tuple(sp))
        if not nxt:
            return False if check_only else []
        states = nxt
    if check_only:
        return True
    return sorted(states, reverse=True)


def _splits(q, caps):
    """Every way to take q units from counters holding caps: tuples of amounts, one per counter."""
    if not caps:
        return [()] if q == 0 else []
    if len(caps) == 1:
        return [(q,)] if q <= caps[0] else []
    if len(caps) == 2:                  # (the usual case: a unit's own counter and one substitute)
        return [(a, q - a) for a in range(max(0, q - caps[1]), min(q, caps[0]) + 1)]
    out = []
    rest = sum(caps[1:])
    for a in range(max(0, q - rest), min(q, caps[0]) + 1):
        for tail in _splits(q - a, caps[1:]):
            out.append((a,) + tail)
    return out


# everything the generated code may call
HELPERS = {name: obj for name, obj in list(globals().items())
           if name.startswith("_") and not name.startswith("__") and callable(obj)}
HELPERS["RulesRuntimeError"] = RulesRuntimeError
HELPERS["_vadd"] = operator.add      # (a sum of rows, codegen/fused_walks.py)
# a pile's kinds walked in C (codegen/pile_walks.py): compress(_KINDS, counts) are the kinds
# with a count, as _distinct_counts lists them
HELPERS["_compress"] = compress
HELPERS["_KINDS"] = _KINDS
HELPERS["_TEST_ERRORS"] = TEST_ERRORS
# no moves kept by a can() (see _can_keep): the test did not ask it
HELPERS["_NO_KEEP"] = (False, None)
