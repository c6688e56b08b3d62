"""Literal definitions for probability scores (calibration curve, Brier score and its
decomposition, calibration error, gain and lift, per-class quantiles), for the tests only.

Plain Python loops over rows, written from the docstrings' definitions; nothing shared
with rankwise. Labels are booleans (True = positive), weights default to 1. Bin edges are
floats, as scikit-learn's: the uniform ones are ``np.linspace(0, 1, n_bins + 1)`` (so
0.6000000000000001 is the third of five edges, and a probability 0.6 falls below it),
the unweighted quantile ones are ``np.percentile``'s (scikit-learn's call), the weighted
ones the inverted cdf.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np


def _w(w, n):
    return [1.0] * n if w is None else [float(x) for x in w]


def percentile_linear(values, q):
    """numpy's default quantile: sorted values x_0..x_{n-1}, h = q (n - 1),
    x_floor(h) + (h - floor(h)) (x_ceil(h) - x_floor(h)); exact fractions, rounded at the end."""
    v = sorted(Fraction(x) for x in values)
    h = Fraction(q) * (len(v) - 1)
    lo = math.floor(h)
    hi = min(lo + 1, len(v) - 1)
    return v[lo] + (h - lo) * (v[hi] - v[lo])


def quantile_inverted_cdf(values, w, q):
    """The smallest value v with sum_{x_i <= v} w_i >= q * sum w (rows of zero weight
    skipped), in exact arithmetic (q a float or a Fraction)."""
    pairs = [(x, Fraction(wi)) for x, wi in zip(values, w) if wi > 0]
    total = sum(wi for _, wi in pairs)
    for v in sorted({x for x, _ in pairs}):
        if sum(wi for x, wi in pairs if x <= v) >= Fraction(q) * total:
            return v
    return max(x for x, _ in pairs)


def bin_edges(p, w, n_bins, strategy):
    if strategy == "uniform":
        return [float(e) for e in np.linspace(0.0, 1.0, n_bins + 1)]
    if w is None:
        # scikit-learn's call itself: numpy's interpolation can round an edge just below a
        # tied value (the exact edge, percentile_linear, is checked to 1e-12 separately), and
        # the bins follow the rounded edge in both libraries.
        return [float(e) for e in np.percentile(np.asarray(p, dtype=float), np.linspace(0, 1, n_bins + 1) * 100)]
    return [float(quantile_inverted_cdf(p, w, Fraction(k, n_bins))) for k in range(n_bins + 1)]


def bin_of(x, edges):
    """Bin k holds edges[k] < x <= edges[k + 1]; the first also x <= edges[1], the last every x > edges[-2]."""
    n_bins = len(edges) - 1
    for k in range(n_bins - 1):
        if x <= edges[k + 1]:
            return k
    return n_bins - 1


def calibration_curve(y, p, n_bins, strategy, w=None):
    """Per bin (mean predicted, fraction positive, mass, sum of squared weights); nan when empty."""
    n = len(y)
    edges = bin_edges(p, None if w is None else [float(x) for x in w], n_bins, strategy)
    w = _w(w, n)
    out = []
    for k in range(n_bins):
        rows = [i for i in range(n) if bin_of(p[i], edges) == k]
        mass = sum(w[i] for i in rows)
        if mass > 0:
            out.append((sum(w[i] * p[i] for i in rows) / mass, sum(w[i] for i in rows if y[i]) / mass, mass,
                        sum(w[i] ** 2 for i in rows)))
        else:
            out.append((math.nan, math.nan, mass, 0.0))
    return out, edges


def brier(y, p, w=None):
    w = _w(w, len(y))
    return sum(wi * (pi - (1.0 if yi else 0.0)) ** 2 for yi, pi, wi in zip(y, p, w)) / sum(w)


def calibration_error(y, p, n_bins, strategy, w=None, norm="l1"):
    bins, _ = calibration_curve(y, p, n_bins, strategy, w)
    total = sum(b[2] for b in bins)
    gaps = [(b[2], abs(b[1] - b[0])) for b in bins if b[2] > 0]
    if norm == "l1":
        return sum(m * g for m, g in gaps) / total
    return max(g for _, g in gaps)


def decomposition(y, p, n_bins, strategy, w=None):
    """(reliability, resolution, uncertainty, within-bin variance, within-bin covariance)
    by their definitions, row by row."""
    n = len(y)
    o = [1.0 if v else 0.0 for v in y]
    edges = bin_edges(p, w, n_bins, strategy)
    w = _w(w, n)
    total = sum(w)
    base = sum(wi * oi for wi, oi in zip(w, o)) / total
    rel = res = wbv = wbc = 0.0
    for k in range(n_bins):
        rows = [i for i in range(n) if bin_of(p[i], edges) == k]
        mass = sum(w[i] for i in rows)
        if mass == 0:
            continue
        fk = sum(w[i] * p[i] for i in rows) / mass
        ok = sum(w[i] * o[i] for i in rows) / mass
        rel += mass * (fk - ok) ** 2
        res += mass * (ok - base) ** 2
        for i in rows:
            wbv += w[i] * (p[i] - fk) ** 2
            wbc += 2.0 * w[i] * (o[i] - ok) * (p[i] - fk)
    return rel / total, res / total, base * (1.0 - base), wbv / total, wbc / total


def brier_std_error(y, p, w=None):
    """Unweighted: sample standard deviation of (p - y)^2 over sqrt(n). Weighted: the
    linearisation variance n/(n-1) sum w_i^2 (e_i - e_bar)^2 / (sum w)^2 over rows of positive weight."""
    n = len(y)
    w = _w(w, n)
    rows = [i for i in range(n) if w[i] > 0]
    e = {i: (p[i] - (1.0 if y[i] else 0.0)) ** 2 for i in rows}
    m = len(rows)
    total = sum(w[i] for i in rows)
    mean = sum(w[i] * e[i] for i in rows) / total
    return math.sqrt(m / (m - 1) * sum(w[i] ** 2 * (e[i] - mean) ** 2 for i in rows)) / total


def gain_points(y, s, w=None):
    """Walk the rows from the highest score down; after each whole tie group record
    (targeted mass / total, captured positive mass / positive mass, the group's score).
    Starts at (0, 0, inf). Groups of zero mass are not points."""
    n = len(y)
    w = _w(w, n)
    order = sorted(range(n), key=lambda i: -s[i])
    total = sum(w)
    pos = sum(w[i] for i in range(n) if y[i])
    pts = [(0.0, 0.0, math.inf)]
    targeted = captured = 0.0
    k = 0
    while k < n:
        v = s[order[k]]
        group_mass = 0.0
        while k < n and s[order[k]] == v:
            i = order[k]
            targeted += w[i]
            group_mass += w[i]
            captured += w[i] if y[i] else 0.0
            k += 1
        if group_mass > 0:
            pts.append((targeted / total, captured / pos if pos > 0 else math.nan, v))
    return pts


def gain_at(y, s, fraction, w=None):
    """Target the top `fraction` of the mass: every group above the cut whole, and the
    share of the cut group that fills the rest, capturing that share of its positives."""
    n = len(y)
    w = _w(w, n)
    total = sum(w)
    pos = sum(w[i] for i in range(n) if y[i])
    budget = fraction * total
    captured = 0.0
    for v in sorted(set(s), reverse=True):
        g = [i for i in range(n) if s[i] == v]
        gm = sum(w[i] for i in g)
        gp = sum(w[i] for i in g if y[i])
        if gm == 0:
            continue
        if gm <= budget:
            captured += gp
            budget -= gm
        else:
            captured += gp * budget / gm
            break
    return captured / pos


def class_quantiles(s, w, q):
    """Unweighted (w None): numpy's linear quantile; weighted: the inverted cdf."""
    if w is None:
        return float(percentile_linear(s, q))
    return quantile_inverted_cdf(s, w, q)
