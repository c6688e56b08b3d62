"""Literal definitions behind ``rankwise.theory.variance_condition``, for the tests only.

Written from the formulas with plain loops and no shared code: the excess-risk kernel
``q_r((x, y), (x', y')) = 1[(y - y') r(x, x') < 0] - 1[(y - y') r*(x, x') < 0]`` with a tied
pair of scores counting 1/2, the labels integrated out with ``P(Y = 1 | X = x_i) = eta_i``,
the squares of the conditional means estimated from distinct pairs of other points, and
the jackknife by literally deleting each point and recomputing from scratch.
"""

from __future__ import annotations

import math


def _loss(yi, yj, si, sj):
    """1[(y_i - y_j) r(x_i, x_j) < 0] with r = sign(s_i - s_j); a tie counts 1/2 (y_i != y_j)."""
    if yi == yj:
        return 0.0
    if si == sj:
        return 0.5
    r = 1 if si > sj else -1
    return 1.0 if (yi - yj) * r < 0 else 0.0


def _q(yi, yj, i, j, s, t):
    return _loss(yi, yj, s[i], s[j]) - _loss(yi, yj, t[i], t[j])


def _prob(y, e):
    return e if y == 1 else 1.0 - e


def excess_and_variance(eta, s, t, idx):
    """(Lambda-hat, Var-hat) over the points ``idx`` (a list of indices)."""
    n = len(idx)
    lam = 0.0
    for i in idx:
        for j in idx:
            if i == j:
                continue
            for yi in (0, 1):
                for yj in (0, 1):
                    lam += _prob(yi, eta[i]) * _prob(yj, eta[j]) * _q(yi, yj, i, j, s, t)
    lam /= n * (n - 1)
    msq = 0.0
    for i in idx:
        for yi in (0, 1):
            tot = 0.0
            for j in idx:
                for k in idx:
                    if len({i, j, k}) < 3:
                        continue
                    mj = sum(_prob(yj, eta[j]) * _q(yi, yj, i, j, s, t) for yj in (0, 1))
                    mk = sum(_prob(yk, eta[k]) * _q(yi, yk, i, k, s, t) for yk in (0, 1))
                    tot += mj * mk
            msq += _prob(yi, eta[i]) * tot / ((n - 1) * (n - 2))
    msq /= n
    return lam, msq - lam * lam


def _slope(xs, ys):
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    return sum((a - mx) * (b - my) for a, b in zip(xs, ys)) / sum((a - mx) ** 2 for a in xs)


def variance_condition(eta, scores, t):
    """(lam, var, used, exponent, std_error) or None where fewer than two members are usable
    or they share one excess risk. ``scores`` is a list of K columns."""
    n = len(eta)
    K = len(scores)
    full = [excess_and_variance(eta, scores[k], t, list(range(n))) for k in range(K)]
    loo = [[excess_and_variance(eta, scores[k], t, [i for i in range(n) if i != l]) for k in range(K)]
           for l in range(n)]
    used = [full[k][0] > 0 and full[k][1] > 0 and all(loo[l][k][0] > 0 and loo[l][k][1] > 0 for l in range(n))
            for k in range(K)]
    ks = [k for k in range(K) if used[k]]
    logs = [math.log(full[k][0]) for k in ks]
    if len(ks) < 2 or max(logs) - min(logs) <= 1e-9:
        return None
    slope = _slope([math.log(full[k][0]) for k in ks], [math.log(full[k][1]) for k in ks])
    for l in range(n):
        lx = [math.log(loo[l][k][0]) for k in ks]
        if max(lx) - min(lx) <= 1e-9:
            return [f[0] for f in full], [f[1] for f in full], used, slope, math.inf
    reps = [_slope([math.log(loo[l][k][0]) for k in ks], [math.log(loo[l][k][1]) for k in ks]) for l in range(n)]
    mean = sum(reps) / n
    se = math.sqrt((n - 1) / n * sum((r - mean) ** 2 for r in reps))
    return [f[0] for f in full], [f[1] for f in full], used, slope, se
