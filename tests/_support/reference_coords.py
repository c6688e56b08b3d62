"""Literal definitions of ROC coordinates (pROC's ``coords``), the best cut, a literal
stratified bootstrap of them, and of the power formulas of AUC studies from observed
curves, for the tests only.

Written from the definitions in docs/coords_power.md with plain loops, sharing no code
with rankwise. Labels are booleans (True = positive), weights default to 1.
"""

from __future__ import annotations

import math
import random
from statistics import NormalDist

_N = NormalDist()


def _w(w, n):
    return [1.0] * n if w is None else [float(x) for x in w]


def cuts(y, s, w=None):
    """The distinct scores carried by positive weight, decreasing."""
    return sorted({si for si, wi in zip(s, _w(w, len(y))) if wi > 0}, reverse=True)


def counts(y, s, w, t):
    """(tp, fp, n+, n-) masses with ``score >= t`` called positive."""
    w = _w(w, len(y))
    tp = sum(wi for yi, si, wi in zip(y, s, w) if yi and si >= t)
    fp = sum(wi for yi, si, wi in zip(y, s, w) if not yi and si >= t)
    return tp, fp, sum(wi for yi, wi in zip(y, w) if yi), sum(wi for yi, wi in zip(y, w) if not yi)


def _div(a, b):
    return a / b if b != 0 else math.nan


def all_coords(se, sp, P, M, thr, r=1.0):
    """Every coordinate of a point of sensitivity ``se`` and specificity ``sp``."""
    tp, tn = se * P, sp * M
    fn, fp = P - tp, M - tn
    acc = (tp + tn) / (P + M)
    npv, ppv = _div(tn, tn + fn), _div(tp, tp + fp)
    return {"threshold": thr, "sensitivity": se, "specificity": sp, "accuracy": acc, "tn": tn, "tp": tp,
            "fn": fn, "fp": fp, "npv": npv, "ppv": ppv, "tpr": se, "tnr": sp, "fpr": 1 - sp, "fnr": _div(fn, tp + fn),
            "fdr": _div(fp, tp + fp), "1-specificity": 1 - sp, "1-sensitivity": 1 - se, "1-accuracy": 1 - acc,
            "1-npv": 1 - npv, "1-ppv": 1 - ppv, "precision": ppv, "recall": se, "youden": se + r * sp,
            "closest.topleft": (1 - se) ** 2 + r * (1 - sp) ** 2}


def points(y, s, w=None, midpoint=False):
    """[(threshold, se, sp, P, M)] at the cut +inf and at every distinct score (rankwise's
    threshold: the score; pROC's: midway to the next lower score, -inf below the lowest)."""
    c = cuts(y, s, w)
    out = []
    for i, t in enumerate([math.inf] + c):
        tp, fp, P, M = counts(y, s, w, t)
        if midpoint and i > 0:
            lower = c[i] if i < len(c) else None
            thr = -math.inf if lower is None else (t + lower) / 2
            if thr == lower:
                thr = t
        else:
            thr = t
        out.append((thr, tp / P, (M - fp) / M, P, M))
    return out


def best(y, s, w=None, method="youden", r=1.0, midpoint=False, rel=8 * 2.0 ** -52):
    """The tied best points (highest threshold first) as coordinate dicts."""
    pts = points(y, s, w, midpoint)
    val = [(se + r * sp) if method == "youden" else -((1 - se) ** 2 + r * (1 - sp) ** 2) for _, se, sp, _, _ in pts]
    b = max(val)
    return [all_coords(se, sp, P, M, t, r) for (t, se, sp, P, M), v in zip(pts, val)
            if v >= b - rel * max(abs(b), 1.0)]


def at_threshold(y, s, w, t, r=1.0):
    tp, fp, P, M = counts(y, s, w, t)
    return all_coords(tp / P, (M - fp) / M, P, M, t, r)


def bootstrap_best(y, s, ret, n_resamples, seed, method="youden", midpoint=True, level=0.95):
    """A literal stratified bootstrap of the best cut (ties: one drawn at random):
    ``{coordinate: (low, high)}`` percentile interval (R's type-7 quantiles)."""
    rnd = random.Random(seed)
    pos = [si for yi, si in zip(y, s) if yi]
    neg = [si for yi, si in zip(y, s) if not yi]
    vals = {k: [] for k in ret}
    for _ in range(n_resamples):
        p = [rnd.choice(pos) for _ in pos]
        n = [rnd.choice(neg) for _ in neg]
        yy = [True] * len(p) + [False] * len(n)
        tied = best(yy, p + n, None, method, 1.0, midpoint)
        pick = tied[rnd.randrange(len(tied))]
        for k in ret:
            vals[k].append(pick[k])
    return {k: (quantile(v, (1 - level) / 2), quantile(v, (1 + level) / 2)) for k, v in vals.items()}


def quantile(v, p):
    v = sorted(x for x in v if x == x)
    h = (len(v) - 1) * p
    lo = math.floor(h)
    return v[lo] + (h - lo) * (v[min(lo + 1, len(v) - 1)] - v[lo])


# --- power from observed curves (Obuchowski & McClish 1997) -------------------------------

def binormal_f_g(a, b, fpr_range=None):
    """The derivatives ``f = d theta / d a`` and ``g = d theta / d b`` of the (partial) area
    under ``TPR = Phi(a + b Phi^{-1}(FPR))``, written out as in Obuchowski & McClish (1997)."""
    e = 1 + b * b
    ex = math.exp(-a * a / (2 * e))
    if fpr_range is None:
        return ex / math.sqrt(2 * math.pi * e), -ex * a * b / math.sqrt(2 * math.pi * e ** 3)
    lo, hi = fpr_range
    c = [(_N.inv_cdf(x) if 0 < x < 1 else (-math.inf if x <= 0 else math.inf)) for x in (hi, lo)]
    cd = [(ci + a * b / e) * math.sqrt(e) for ci in c]
    e3 = _N.cdf(cd[0]) - _N.cdf(cd[1])
    e4 = math.exp(-cd[0] ** 2 / 2) - math.exp(-cd[1] ** 2 / 2)
    f = ex / math.sqrt(2 * math.pi * e) * e3
    g = ex / (2 * math.pi * e) * (-e4) - a * b * ex / math.sqrt(2 * math.pi * e ** 3) * e3
    return f, g


def binormal_var(a, b, kappa, fpr_range=None):
    f, g = binormal_f_g(a, b, fpr_range)
    return f * f * (1 + b * b / kappa + a * a / 2) + g * g * b * b * (1 + kappa) / (2 * kappa)


def binormal_cov(a1, b1, a2, b2, rn, ra, kappa, fpr_range=None):
    f1, g1 = binormal_f_g(a1, b1, fpr_range)
    f2, g2 = binormal_f_g(a2, b2, fpr_range)
    return (f1 * f2 * (ra + rn * b1 * b2 / kappa + ra * ra * a1 * a2 / 2)
            + g1 * g2 * b1 * b2 * (rn * rn + kappa * ra * ra) / (2 * kappa)
            + f1 * g2 * ra * ra * a1 * b2 / 2 + f2 * g1 * ra * ra * a2 * b1 / 2)


def noninferiority_n(delta, margin, v, alpha, power):
    """``n+ = (z_{1-alpha} + z_{power})^2 V / (delta + margin)^2``."""
    return (_N.inv_cdf(1 - alpha) + _N.inv_cdf(power)) ** 2 * v / (delta + margin) ** 2


def equivalence_power(n, delta, margin, v, alpha):
    """Power of the two one-sided tests: ``Phi((d - delta) sqrt(n / V) - z) + Phi((d + delta)
    sqrt(n / V) - z) - 1``, at least 0."""
    z = _N.inv_cdf(1 - alpha)
    k = math.sqrt(n / v)
    return max(0.0, _N.cdf((margin - delta) * k - z) + _N.cdf((margin + delta) * k - z) - 1)
