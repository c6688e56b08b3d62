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


# --- the partial AUC's projection (the band's edges read as a jackknife reads them) -------
#
# Written from the definition with plain loops over rows (O(n^2)), no shared code. A false-
# positive band [a, b] (a true-positive band is the false-positive band [1 - max, 1 - min]
# of the mirror: classes swapped, scores negated). With W+ and W- the class masses:
#
# * a positive's term is -clip(f_i, a, b), f_i its mid false-positive rate (negative mass
#   above it plus half the tied, over W-);
# * a negative's placement p_j is the positive mass above it plus half the tied, over W+.
#   The read at an edge x is the mean height of the empirical ROC curve (ties as diagonal
#   segments) over the unit window [x (W- - 1), x (W- - 1) + 1] of negative mass counted
#   from the top (divided by min(1, W-)); a negative's term is its placement clipped to
#   [read at a, read at b] (no clip at an edge at 0 or 1).
#
# Untied (or with ties within a class only) and unweighted, the two class variances are
# the stratified delete-one jackknife variances of the area (partial_auc_jackknife).


def _mirror_band(y, s, min_fpr, max_fpr, min_tpr, max_tpr):
    """``(y, s, a, b)`` of the pass: the false-positive band as given, or the mirror."""
    if min_tpr is not None or max_tpr is not None:
        lo = 0.0 if min_tpr is None else min_tpr
        hi = 1.0 if max_tpr is None else max_tpr
        return [0 if v else 1 for v in y], [-x for x in s], 1.0 - hi, 1.0 - lo
    return [1 if v else 0 for v in y], list(s), (0.0 if min_fpr is None else min_fpr), (1.0 if max_fpr is None else max_fpr)


def partial_auc_edge_read(y, s, x, w=None):
    """The read of the curve at the edge ``x`` of a false-positive band: the mean height
    of the empirical ROC curve (ties as diagonal segments) over the unit window
    ``[x (W- - 1), x (W- - 1) + 1]`` of negative mass from the top, i.e. over false-positive
    rates ``[x (W- - 1) / W-, (x (W- - 1) + 1) / W-]`` (over all of it when ``W- < 1``)."""
    n = len(y)
    w = [1.0] * n if w is None else [float(v) for v in w]
    wp = sum(w[i] for i in range(n) if y[i])
    wn = sum(w[i] for i in range(n) if not y[i])
    lo = x * max(wn - 1.0, 0.0)
    hi = lo + 1.0
    # The curve's vertices in masses (false positives, true positives), by decreasing threshold.
    pts = [(0.0, 0.0)]
    for t in sorted(set(s), reverse=True):
        pts.append((sum(w[j] for j in range(n) if not y[j] and s[j] >= t),
                    sum(w[i] for i in range(n) if y[i] and s[i] >= t)))
    total = 0.0
    for (f0, p0), (f1, p1) in zip(pts, pts[1:]):
        u0, u1 = max(f0, lo), min(f1, hi)
        if f1 == f0 or u1 <= u0:
            continue
        h0 = p0 + (p1 - p0) * (u0 - f0) / (f1 - f0)
        h1 = p0 + (p1 - p0) * (u1 - f0) / (f1 - f0)
        total += (u1 - u0) * (h0 + h1) / 2.0 / wp
    return total / min(1.0, wn)


def partial_auc_terms_band(y, s, w=None, *, min_fpr=None, max_fpr=None, min_tpr=None, max_tpr=None):
    """``(h, is_pos)`` per row of the pass (the mirror's rows for a true-positive band, in
    the same order): the partial AUC's projection terms as defined above."""
    y, s, a, b = _mirror_band(y, s, min_fpr, max_fpr, min_tpr, max_tpr)
    n = len(y)
    w = [1.0] * n if w is None else [float(v) for v in w]
    wp = sum(w[i] for i in range(n) if y[i])
    wn = sum(w[i] for i in range(n) if not y[i])
    at_a = partial_auc_edge_read(y, s, a, w) if a > 0.0 else None
    at_b = partial_auc_edge_read(y, s, b, w) if b < 1.0 else None
    h = []
    for i in range(n):
        if y[i]:
            f = (sum(w[j] for j in range(n) if not y[j] and s[j] > s[i])
                 + 0.5 * sum(w[j] for j in range(n) if not y[j] and s[j] == s[i])) / wn
            h.append(-min(max(f, a), b))
        else:
            p = (sum(w[j] for j in range(n) if y[j] and s[j] > s[i])
                 + 0.5 * sum(w[j] for j in range(n) if y[j] and s[j] == s[i])) / wp
            if at_b is not None:
                p = min(p, at_b)
            if at_a is not None:
                p = max(p, at_a)
            h.append(p)
    return h, [bool(v) for v in y]


def _weighted_class_var(vals, ws):
    tot = sum(ws)
    mean = sum(wi * v for v, wi in zip(vals, ws)) / tot
    return sum(wi * (v - mean) ** 2 for v, wi in zip(vals, ws)) / (tot - 1.0)


def partial_auc_variance(y, s, w=None, **band):
    """``S+^2 / W+ + S-^2 / W-`` of :func:`partial_auc_terms_band` (sample variances with
    denominator mass - 1): the partial AUC's analytic variance."""
    n = len(y)
    w = [1.0] * n if w is None else [float(v) for v in w]
    h, pos = partial_auc_terms_band(y, s, w, **band)
    out = 0.0
    for c in (True, False):
        idx = [i for i in range(n) if pos[i] == c]
        out += _weighted_class_var([h[i] for i in idx], [w[i] for i in idx]) / sum(w[i] for i in idx)
    return out


def _band_area_literal(y, s, a, b):
    """Area under the staircase ROC of an unweighted sample with no score shared by the
    two classes, over false-positive rates in [a, b]: each negative, from the top, adds a
    step of width 1/n- at the height of its share of positives above it."""
    pos = [s[i] for i in range(len(y)) if y[i]]
    neg = sorted((s[j] for j in range(len(y)) if not y[j]), reverse=True)
    M = len(neg)
    area = 0.0
    for k, v in enumerate(neg):
        width = max(0.0, min((k + 1) / M, b) - max(k / M, a))
        area += width * sum(1 for p in pos if p > v) / len(pos)
    return area


def partial_auc_jackknife(y, s, *, min_fpr=0.0, max_fpr=1.0):
    """The stratified delete-one jackknife variance of the partial AUC over false-positive
    rates in ``[min_fpr, max_fpr]`` (unweighted; no score shared by a positive and a
    negative): for each class, ``(n_c - 1) / n_c sum_i (A_(-i) - mean)^2`` over deleting
    each of its rows in turn, the two summed."""
    n = len(y)
    out = 0.0
    for c in (True, False):
        idx = [i for i in range(n) if bool(y[i]) == c]
        vals = []
        for i in idx:
            keep = [k for k in range(n) if k != i]
            vals.append(_band_area_literal([y[k] for k in keep], [s[k] for k in keep], min_fpr, max_fpr))
        m = len(vals)
        mean = sum(vals) / m
        out += (m - 1) / m * sum((v - mean) ** 2 for v in vals)
    return out


def partial_auc_row_terms(y, s, w=None, max_fpr=0.3):
    """``(value, h)`` of the unstandardised partial AUC over false-positive rates in
    ``[0, max_fpr]``, ``h`` per row in the rows' order (the contract of the cross-validation
    reference's term functions): the area by the trapezoid rule on the ROC polyline, and
    :func:`partial_auc_terms_band`'s terms."""
    n = len(y)
    w = [1.0] * n if w is None else [float(v) for v in w]
    wp = sum(w[i] for i in range(n) if y[i])
    wn = sum(w[i] for i in range(n) if not y[i])
    pts = [(0.0, 0.0)]
    for t in sorted(set(s), reverse=True):
        pts.append((sum(w[j] for j in range(n) if not y[j] and s[j] >= t) / wn,
                    sum(w[i] for i in range(n) if y[i] and s[i] >= t) / wp))
    area = 0.0
    for (x0, y0), (x1, y1) in zip(pts, pts[1:]):
        if x1 <= x0 or x0 >= max_fpr:
            continue
        xe = min(x1, max_fpr)
        ye = y0 + (y1 - y0) * (xe - x0) / (x1 - x0)
        area += (xe - x0) * (y0 + ye) / 2.0
    h, _ = partial_auc_terms_band(y, s, w, max_fpr=max_fpr)
    return area, h
