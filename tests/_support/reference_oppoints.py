"""Literal definitions of operating points and of the optimal cut, for the tests only.

Written from the definitions in docs/operating_points.md with plain loops, sharing no
code with rankwise. Labels are booleans (True = positive), weights default to 1. A cut
``t`` calls positive every observation with ``score >= t``; the ROC points are the cut
``+inf`` and every distinct score carried by positive weight.
"""

from __future__ import annotations

import math


def _w(w, n):
    return [1.0] * n if w is None else [float(x) for x in w]


def counts_at(y, s, w, t):
    """(TP, FP, n+, n-) masses at cut ``t``."""
    w = _w(w, len(y))
    tp = sum(wi for yi, si, wi in zip(y, s, w) if yi and si >= t)
    fp = sum(wi for yi, si, wi in zip(y, s, w) if not yi and si >= t)
    return tp, fp, sum(wi for yi, wi in zip(y, w) if yi), sum(wi for yi, wi in zip(y, w) if not yi)


def point_at(y, s, w, t):
    """(tpr, fpr, precision) at cut ``t``; precision nan with nothing called positive."""
    tp, fp, P, M = counts_at(y, s, w, t)
    return tp / P, fp / M, (tp / (tp + fp) if tp + fp > 0 else math.nan)


def curve(y, s, w=None):
    """[(threshold, tpr, fpr)] over the cut +inf and every distinct score with weight."""
    ww = _w(w, len(y))
    cuts = [math.inf] + sorted({si for si, wi in zip(s, ww) if wi > 0}, reverse=True)
    return [(t, *point_at(y, s, w, t)[:2]) for t in cuts]


def at_rate(y, s, w, x, by, tol=1e-12):
    """(threshold, tpr, fpr, precision) at false-positive rate ``x`` (``by="fpr"``) or
    true-positive rate ``x`` (``by="tpr"``).

    On the curve: among the points with that rate, the best other rate (largest TPR at a
    given FPR, smallest FPR at a given TPR), its threshold reported. Off the curve:
    linear interpolation along the segment of the curve that crosses ``x``, threshold nan;
    precision from the interpolated masses.
    """
    pts = curve(y, s, w)
    _, _, P, M = counts_at(y, s, w, math.inf)
    key = 2 if by == "fpr" else 1  # the coordinate fixed
    other = 1 if by == "fpr" else 2
    on = [p for p in pts if abs(p[key] - x) <= tol]
    if on:
        best = max(on, key=lambda p: p[other]) if by == "fpr" else min(on, key=lambda p: p[other])
        thr, tpr, fpr = best
    else:
        below = [p for p in pts if p[key] < x]
        above = [p for p in pts if p[key] > x]
        xb = max(p[key] for p in below)
        xa = min(p[key] for p in above)
        # The curve leaves the last point at xb (the largest other rate there) and enters
        # the first point at xa (the smallest other rate there).
        yb = max(p[other] for p in below if p[key] == xb)
        ya = min(p[other] for p in above if p[key] == xa)
        val = yb + (x - xb) / (xa - xb) * (ya - yb)
        thr = math.nan
        tpr, fpr = (val, x) if by == "fpr" else (x, val)
    tp, fp = tpr * P, fpr * M
    return thr, tpr, fpr, (tp / (tp + fp) if tp + fp > 0 else math.nan)


def optimal(y, s, w=None, method="youden", r=1.0, rel=8 * 2.0 ** -52):
    """(threshold, tpr, fpr, tied thresholds): the best cut by Youden's J = tpr - r fpr or by
    the squared distance (1 - tpr)^2 + r fpr^2 to (0, 1); ties (within ``rel``) listed by
    decreasing threshold, the highest returned."""
    pts = curve(y, s, w)
    val = [(t - r * f) if method == "youden" else -((1 - t) ** 2 + r * f ** 2) for _, t, f in pts]
    best = max(val)
    tied = [p for p, v in zip(pts, val) if v >= best - rel * max(abs(best), 1.0)]
    return tied[0][0], tied[0][1], tied[0][2], [p[0] for p in tied]
