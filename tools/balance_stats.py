"""The statistics of `regola balance`, in pure Python (no numpy, no scipy).

Wilson intervals for proportions (shared with tools/tournament.py), an exact two-sided
binomial test, a chi-square goodness of fit, Holm's step-down correction, the two-proportion
z-test, Welch's t-test, Newcombe's interval for a difference of proportions, and the number
of games needed for a given precision or power.
"""

from __future__ import annotations

import math

from .tournament import Z95, mean_interval, wilson

__all__ = ["Z95", "wilson", "mean_interval", "normal_cdf", "normal_quantile", "binomial_test",
           "chi_square_sf", "chi_square_gof", "holm", "two_proportion_z", "welch_t", "student_t_sf",
           "newcombe_diff", "games_for_half_width", "games_to_detect"]


def normal_cdf(x: float) -> float:
    return 0.5 * math.erfc(-x / math.sqrt(2.0))


def normal_quantile(p: float) -> float:
    """The x with normal_cdf(x) == p (bisection: exact to 1e-12, fast enough here)."""
    if not 0.0 < p < 1.0:
        raise ValueError("a probability strictly between 0 and 1")
    lo, hi = -40.0, 40.0
    for _ in range(200):
        mid = (lo + hi) / 2
        if normal_cdf(mid) < p:
            lo = mid
        else:
            hi = mid
        if hi - lo < 1e-13:
            break
    return (lo + hi) / 2


def _binom_logpmf(k: int, n: int, p: float) -> float:
    if p <= 0.0:
        return 0.0 if k == 0 else -math.inf
    if p >= 1.0:
        return 0.0 if k == n else -math.inf
    return (math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)
            + k * math.log(p) + (n - k) * math.log1p(-p))


def binomial_test(k: int, n: int, p: float) -> float:
    """Exact two-sided p-value of k successes in n trials against probability p: the total
    probability of the outcomes no more likely than k (as R's binom.test and scipy)."""
    if n == 0:
        return 1.0
    pk = _binom_logpmf(k, n, p)
    tol = 1e-7
    total = 0.0
    for i in range(n + 1):
        lp = _binom_logpmf(i, n, p)
        if lp <= pk + tol:
            total += math.exp(lp)
    return min(1.0, total)


def _gamma_q(a: float, x: float) -> float:
    """The regularized upper incomplete gamma function Q(a, x) (series or continued fraction)."""
    if x <= 0:
        return 1.0
    gln = math.lgamma(a)
    if x < a + 1:
        term = total = 1.0 / a
        ap = a
        for _ in range(10_000):
            ap += 1
            term *= x / ap
            total += term
            if abs(term) < abs(total) * 1e-15:
                break
        return max(0.0, 1.0 - total * math.exp(-x + a * math.log(x) - gln))
    b = x + 1 - a
    c = 1 / 1e-300
    d = 1 / b
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = 1e-300 if abs(d) < 1e-300 else d
        c = b + an / c
        c = 1e-300 if abs(c) < 1e-300 else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-15:
            break
    return math.exp(-x + a * math.log(x) - gln) * h


def chi_square_sf(x: float, df: int) -> float:
    """P(X >= x) for a chi-square variable with df degrees of freedom."""
    return _gamma_q(df / 2.0, x / 2.0)


def chi_square_gof(observed: list, expected: list) -> tuple:
    """Pearson's chi-square goodness of fit: (statistic, degrees of freedom, p-value)."""
    stat = sum((o - e) ** 2 / e for o, e in zip(observed, expected) if e > 0)
    df = max(1, len(observed) - 1)
    return stat, df, chi_square_sf(stat, df)


def holm(pvalues: list) -> list:
    """Holm's step-down adjusted p-values, in the order given (a family-wise error rate)."""
    m = len(pvalues)
    order = sorted(range(m), key=lambda i: pvalues[i])
    out = [0.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * pvalues[i]))
        out[i] = running
    return out


def two_proportion_z(x1: float, n1: int, x2: float, n2: int) -> tuple:
    """Pooled two-proportion z-test: (z, two-sided p-value)."""
    if n1 == 0 or n2 == 0:
        return 0.0, 1.0
    p = (x1 + x2) / (n1 + n2)
    se = math.sqrt(p * (1 - p) * (1 / n1 + 1 / n2))
    if se == 0:
        return 0.0, 1.0
    z = (x1 / n1 - x2 / n2) / se
    return z, 2 * normal_cdf(-abs(z))


def _beta_cf(a: float, b: float, x: float) -> float:
    qab, qap, qam = a + b, a + 1, a - 1
    c, d = 1.0, 1 - qab * x / qap
    d = 1 / (1e-300 if abs(d) < 1e-300 else d)
    h = d
    for m in range(1, 10_000):
        m2 = 2 * m
        for aa in (m * (b - m) * x / ((qam + m2) * (a + m2)), -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))):
            d = 1 + aa * d
            d = 1 / (1e-300 if abs(d) < 1e-300 else d)
            c = 1 + aa / c
            c = 1e-300 if abs(c) < 1e-300 else c
            h *= d * c
        if abs(d * c - 1) < 1e-15:
            break
    return h


def _beta_inc(a: float, b: float, x: float) -> float:
    """The regularized incomplete beta function I_x(a, b)."""
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1) / (a + b + 2):
        return front * _beta_cf(a, b, x) / a
    return 1 - front * _beta_cf(b, a, 1 - x) / b


def student_t_sf(t: float, df: float) -> float:
    """P(T >= t) for Student's t with df degrees of freedom."""
    tail = 0.5 * _beta_inc(df / 2, 0.5, df / (df + t * t))
    return tail if t >= 0 else 1 - tail


def welch_t(xs: list, ys: list) -> tuple:
    """Welch's unequal-variance t-test: (t, degrees of freedom, two-sided p-value)."""
    n1, n2 = len(xs), len(ys)
    if n1 < 2 or n2 < 2:
        return 0.0, 0.0, 1.0
    m1, m2 = sum(xs) / n1, sum(ys) / n2
    v1 = sum((x - m1) ** 2 for x in xs) / (n1 - 1)
    v2 = sum((y - m2) ** 2 for y in ys) / (n2 - 1)
    se2 = v1 / n1 + v2 / n2
    if se2 == 0:
        return 0.0, float(n1 + n2 - 2), 1.0 if m1 == m2 else 0.0
    t = (m1 - m2) / math.sqrt(se2)
    df = se2 ** 2 / ((v1 / n1) ** 2 / (n1 - 1) + (v2 / n2) ** 2 / (n2 - 1))
    return t, df, min(1.0, 2 * student_t_sf(abs(t), df))


def newcombe_diff(x1: float, n1: int, x2: float, n2: int) -> tuple:
    """p1 - p2 with Newcombe's 95% hybrid score interval (from the two Wilson intervals)."""
    if n1 == 0 or n2 == 0:
        return 0.0, -1.0, 1.0
    p1, p2 = x1 / n1, x2 / n2
    l1, u1 = wilson(x1, n1)
    l2, u2 = wilson(x2, n2)
    d = p1 - p2
    lo = d - math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2)
    hi = d + math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)
    return d, max(-1.0, lo), min(1.0, hi)


def games_for_half_width(p: float, half_width: float, confidence: float = 0.95) -> int:
    """Games for a normal-approximation interval of +/- half_width around a proportion p."""
    z = normal_quantile(1 - (1 - confidence) / 2)
    return math.ceil(z * z * p * (1 - p) / half_width ** 2)


def games_to_detect(p0: float, delta: float, alpha: float = 0.05, power: float = 0.8) -> int:
    """Games for a two-sided test at level alpha against p0 to find a true rate p0 + delta
    with the given power (the usual one-sample formula for a proportion)."""
    p1 = min(max(p0 + delta, 1e-9), 1 - 1e-9)
    za = normal_quantile(1 - alpha / 2)
    zb = normal_quantile(power)
    n = ((za * math.sqrt(p0 * (1 - p0)) + zb * math.sqrt(p1 * (1 - p1))) / delta) ** 2
    return math.ceil(n)
