"""Literal definitions of the new criteria, for the tests only: average precision and the
precision-recall curve, the Kolmogorov-Smirnov statistic, Gini, and the partial AUC over
any FPR or TPR range (raw and McClish-standardised).

Nothing here shares code with rankwise or with scikit-learn / pROC: each function is
written from the definition in its docstring, with plain loops over thresholds (or pairs)
and numpy sums, so that agreement with the fast implementations and with the golden
values of tests/golden/ means something.

Conventions. ``y``: labels, truthy = positive. ``s``: scores, higher = more positive.
``w``: frequency weights (>= 0; default 1). A "threshold" t classifies s >= t as positive;
the thresholds are the distinct scores, taken from the top. With weights,
    TP(t) = sum of w_j over positives with s_j >= t,  FP(t) likewise over negatives,
    TPR(t) = TP(t) / W+,  FPR(t) = FP(t) / W-,  W+ / W- the total positive / negative weight.
"""

from __future__ import annotations

import math

import numpy as np


def _arrays(y, s, w):
    y = np.asarray(y).astype(bool)
    s = np.asarray(s, dtype=float)
    w = np.ones(y.size) if w is None else np.asarray(w, dtype=float)
    if not (y.size == s.size == w.size):
        raise ValueError("y, s, w differ in length")
    return y, s, w


def _sum(v):
    """Correctly rounded sum (math.fsum): equal multisets of nonzero terms give equal
    floats whatever zeros or order come with them, so "same recall" is exact equality."""
    return math.fsum(v.tolist())


def _tp_fp(y, s, w, t):
    """(TP(t), FP(t)): weighted positives and negatives with score >= t."""
    above = s >= t
    return _sum(w[above & y]), _sum(w[above & ~y])


# --------------------------------------------------------------------------- AP / PR curve

def average_precision_ref(y, s, w=None):
    """AP = weighted mean, over the positives i, of the precision at threshold s_i:
    precision(s_i) = (weighted positives with s >= s_i) / (weighted all with s >= s_i).

    This is the step form sum_k (R_k - R_{k-1}) P_k over the distinct thresholds from the
    top (a threshold's recall step is the weight of the positives scored exactly there, and
    all of them share that threshold's precision), so tied scores form one threshold.
    Positives of weight 0 contribute nothing.
    """
    y, s, w = _arrays(y, s, w)
    num = 0.0
    den = 0.0
    for i in range(y.size):
        if not y[i] or w[i] == 0:
            continue
        tp, fp = _tp_fp(y, s, w, s[i])
        num += w[i] * tp / (tp + fp)
        den += w[i]
    return num / den


def precision_recall_ref(y, s, w=None, drop_intermediate=False):
    """The precision-recall curve in scikit-learn's layout (precision, recall, thresholds):

    * thresholds: the distinct scores of the samples of positive weight, increasing (a
      threshold at the score of a weight-0 sample alone would only repeat the point of the
      next higher threshold);
    * precision[k] = TP(t_k) / (TP(t_k) + FP(t_k)), recall[k] = TP(t_k) / W+;
    * then one more point, precision 1 and recall 0, without a threshold (the curve's start
      on the recall = 0 axis).

    drop_intermediate=True keeps, of each run of consecutive thresholds with the same
    recall (a vertical stretch of the step plot), only its two ends; the appended (recall
    0, precision 1) point takes no part in that rule (scikit-learn 1.9 behaves so).
    """
    y, s, w = _arrays(y, s, w)
    wpos = _sum(w[y])
    thresholds = sorted(set(s[w > 0].tolist()))
    tps, precision = [], []
    for t in thresholds:
        tp, fp = _tp_fp(y, s, w, t)
        tps.append(tp)
        precision.append(tp / (tp + fp))
    keep = list(range(len(thresholds)))
    if drop_intermediate:
        keep = [k for k in keep
                if k == 0 or k == len(thresholds) - 1 or not (tps[k - 1] == tps[k] == tps[k + 1])]
    prec = np.array([precision[k] for k in keep] + [1.0])
    rec = np.array([tps[k] / wpos for k in keep] + [0.0])
    return prec, rec, np.array([thresholds[k] for k in keep])


# --------------------------------------------------------------------------- KS / Gini

def ks_ref(y, s, w=None):
    """KS = max over thresholds t of |TPR(t) - FPR(t)|, t over the distinct scores and
    +inf (where both are 0)."""
    y, s, w = _arrays(y, s, w)
    wpos, wneg = _sum(w[y]), _sum(w[~y])
    best = 0.0  # t = +inf
    for t in set(s.tolist()):
        tp, fp = _tp_fp(y, s, w, t)
        best = max(best, abs(tp / wpos - fp / wneg))
    return best


def auc_ref(y, s, w=None):
    """sum over (positive i, negative j) of w_i w_j (1{s_i > s_j} + 1/2 1{s_i = s_j}) / (W+ W-)."""
    y, s, w = _arrays(y, s, w)
    sp, wp = s[y], w[y]
    sn, wn = s[~y], w[~y]
    pair = (sp[:, None] > sn[None, :]) + 0.5 * (sp[:, None] == sn[None, :])
    return float((wp[:, None] * wn[None, :] * pair).sum() / (wp.sum() * wn.sum()))


def gini_ref(y, s, w=None):
    """Gini = 2 AUC - 1, ties counted 1/2 in the AUC."""
    return 2.0 * auc_ref(y, s, w) - 1.0


# --------------------------------------------------------------------------- partial AUC

def roc_polyline_ref(y, s, w=None):
    """Vertices (FPR, TPR) of the empirical ROC curve: (0, 0) (threshold +inf), then one
    vertex per distinct score from the top. Consecutive vertices are joined by straight
    lines, so a block of tied scores holding both classes is one diagonal segment."""
    y, s, w = _arrays(y, s, w)
    wpos, wneg = _sum(w[y]), _sum(w[~y])
    pts = [(0.0, 0.0)]
    for t in sorted(set(s.tolist()), reverse=True):
        tp, fp = _tp_fp(y, s, w, t)
        pts.append((fp / wneg, tp / wpos))
    return pts


def _band_area(pts, lo, hi, axis):
    """Exact integral along the polyline of (other coordinate) d(axis coordinate), over the
    part of the curve whose axis coordinate lies in [lo, hi]; the curve is monotone in both
    coordinates, so each segment contributes its clipped trapezoid."""
    area = 0.0
    for p, q in zip(pts[:-1], pts[1:]):
        u0, u1 = p[axis], q[axis]
        if u1 <= u0:
            continue  # no extent along the axis: no area
        a, b = max(u0, lo), min(u1, hi)
        if b <= a:
            continue
        v0, v1 = p[1 - axis], q[1 - axis]
        va = v0 + (v1 - v0) * (a - u0) / (u1 - u0)
        vb = v0 + (v1 - v0) * (b - u0) / (u1 - u0)
        area += (b - a) * (va + vb) / 2.0
    return area


def partial_auc_range_ref(y, s, w=None, *, lo, hi, focus="fpr", mcclish=False):
    """Partial area of the empirical (piecewise-linear) ROC curve over a band.

    focus="fpr": A = integral of TPR d FPR for FPR in [lo, hi] (the area under the curve
    over that FPR range); the perfect curve gives max = hi - lo, the diagonal
    min = (hi^2 - lo^2) / 2.
    focus="tpr": A = integral of (1 - FPR) d TPR for TPR in [lo, hi] (the area between the
    curve and the right edge FPR = 1 over that TPR range); max = hi - lo,
    min = (hi - lo) - (hi^2 - lo^2) / 2.
    mcclish=True returns (1 + (A - min) / (max - min)) / 2 (0.5 on the diagonal, 1 for the
    perfect curve, below 0.5 for a band where the curve is below the diagonal).
    """
    if not 0.0 <= lo < hi <= 1.0:
        raise ValueError("need 0 <= lo < hi <= 1")
    pts = roc_polyline_ref(y, s, w)
    if focus == "fpr":
        area = _band_area(pts, lo, hi, axis=0)
        amin = (hi * hi - lo * lo) / 2.0
    elif focus == "tpr":
        # (1 - FPR) d TPR: integrate against the TPR axis the distance to the right edge.
        area = _band_area([(1.0 - fpr, tpr) for fpr, tpr in pts], lo, hi, axis=1)
        amin = (hi - lo) - (hi * hi - lo * lo) / 2.0
    else:
        raise ValueError("focus must be 'fpr' or 'tpr'")
    if not mcclish:
        return area
    amax = hi - lo
    return (1.0 + (area - amin) / (amax - amin)) / 2.0
