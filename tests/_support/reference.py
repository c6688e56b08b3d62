"""Literal definitions of every criterion and of its variance, O(n^2) or worse, for the
tests only.

Nothing here shares code with rankwise: each function is written from the formula in
docs/criteria.md (or the docstring convention it cites) with plain Python loops, so that
agreement with the fast kernels means something. Labels are booleans (True =
positive); weights default to 1. The second part (average precision and the
precision-recall curve, the Kolmogorov-Smirnov statistic, Gini, the partial AUC over
any band) states its conventions in its own header below.
"""

from __future__ import annotations

import math

import numpy as np


def _w(w, n):
    return [1.0] * n if w is None else [float(x) for x in w]


def auc(y, s, w=None):
    """sum_{pos i, neg j} w_i w_j (1{s_i > s_j} + 1/2 1{s_i = s_j}) / (W+ W-)."""
    n = len(y)
    w = _w(w, n)
    num = 0.0
    for i in range(n):
        if not y[i]:
            continue
        for j in range(n):
            if y[j]:
                continue
            num += w[i] * w[j] * (1.0 if s[i] > s[j] else 0.5 if s[i] == s[j] else 0.0)
    wp = sum(w[i] for i in range(n) if y[i])
    wn = sum(w[i] for i in range(n) if not y[i])
    return num / (wp * wn)


def rank(s, w, i, ties):
    """Pooled rank of observation i in mass units: the paper's #{j: s_j <= s_i} ("max")
    or the mid-rank of its tied block ("average")."""
    below = sum(w[j] for j in range(len(s)) if s[j] < s[i])
    tied = sum(w[j] for j in range(len(s)) if s[j] == s[i])
    return below + tied if ties == "max" else below + (tied + 1.0) / 2.0


def rank_statistic(y, s, phi_at_rank, w=None, ties="average"):
    """W_n = sum_{pos i} w_i phi(Rank_i / (n+1)); phi_at_rank(r, n) receives the rank."""
    n = len(y)
    w = _w(w, n)
    total = sum(w)
    return sum(w[i] * phi_at_rank(rank(s, w, i, ties), total) for i in range(n) if y[i])


def rank_statistic_minmax(y, s, phi_at_rank, w=None, ties="average"):
    """(W - W_worst) / (W_best - W_worst), the extremes obtained by literally moving every
    positive below (above) every negative, keeping the positives' own order."""
    n = len(y)
    # Replace scores by their dense ranks (same order, exact integers), then shift.
    levels = sorted(set(s))
    s = [float(levels.index(v)) for v in s]
    span = len(levels) + 1.0
    worst = [s[i] - span if y[i] else s[i] for i in range(n)]
    best = [s[i] + span if y[i] else s[i] for i in range(n)]
    w_ = rank_statistic(y, s, phi_at_rank, w, ties)
    lo = rank_statistic(y, worst, phi_at_rank, w, ties)
    hi = rank_statistic(y, best, phi_at_rank, w, ties)
    return (w_ - lo) / (hi - lo)


def local_auc(y, s, top, w=None):
    """CV07: pairs (pos i, neg j) with s_i > s_j (ties 1/2) and s_i >= Q, Q the largest
    score v with mass{s >= v} >= top * n."""
    n = len(y)
    w = _w(w, n)
    total = sum(w)
    cands = [v for v in set(s) if sum(w[j] for j in range(n) if s[j] >= v) >= top * total * (1 - 1e-12)]
    q = max(cands)
    num = 0.0
    for i in range(n):
        if not y[i] or s[i] < q:
            continue
        for j in range(n):
            if y[j]:
                continue
            num += w[i] * w[j] * (1.0 if s[i] > s[j] else 0.5 if s[i] == s[j] else 0.0)
    wp = sum(w[i] for i in range(n) if y[i])
    wn = sum(w[i] for i in range(n) if not y[i])
    return num / (wp * wn)


def pnorm_push(y, s, p, w=None, ties="average", normalize=True):
    """Rudin: Height(k) = sum_{pos i} w_i (1{s_i < s_k} + c 1{s_i = s_k}), c = 1/2 or 1;
    R_p = sum_{neg k} w_k Height(k)^p; normalised (R_p / (W- W+^p))^(1/p)."""
    n = len(y)
    w = _w(w, n)
    c = 0.5 if ties == "average" else 1.0
    wp = sum(w[i] for i in range(n) if y[i])
    wn = sum(w[i] for i in range(n) if not y[i])
    r = 0.0
    for k in range(n):
        if y[k]:
            continue
        h = sum(w[i] * (1.0 if s[i] < s[k] else c if s[i] == s[k] else 0.0) for i in range(n) if y[i])
        r += w[k] * h**p
    return (r / (wn * wp**p)) ** (1.0 / p) if normalize else r


def std_discount(q):
    return 1.0 / math.log2(1.0 + q)


def dcg(y, s, k=None, discount=std_discount):
    """Expected DCG under uniformly random tie-breaking, unweighted: a positive whose tied
    block occupies positions a+1..a+c (1 = top) gains the mean of discount(q) 1{q <= k}."""
    n = len(y)
    k = n if k is None else k
    total = 0.0
    for i in range(n):
        if not y[i]:
            continue
        above = sum(1 for j in range(n) if s[j] > s[i])
        c = sum(1 for j in range(n) if s[j] == s[i])
        total += sum(discount(q) for q in range(above + 1, above + c + 1) if q <= k) / c
    return total


def ndcg(y, s, k=None, discount=std_discount):
    n = len(y)
    k = n if k is None else k
    npos = sum(1 for v in y if v)
    return dcg(y, s, k, discount) / sum(discount(q) for q in range(1, min(k, npos) + 1))


def roc_points(y, s, w=None):
    """(fpr, tpr) at every threshold t in {+inf} U {distinct scores}, by decreasing t,
    predicting positive when s >= t."""
    n = len(y)
    w = _w(w, n)
    wp = sum(w[i] for i in range(n) if y[i])
    wn = sum(w[i] for i in range(n) if not y[i])
    pts = [(0.0, 0.0, math.inf)]
    for t in sorted(set(s), reverse=True):
        fp = sum(w[i] for i in range(n) if not y[i] and s[i] >= t)
        tp = sum(w[i] for i in range(n) if y[i] and s[i] >= t)
        pts.append((fp / wn, tp / wp, t))
    return pts


def partial_auc(y, s, max_fpr, w=None):
    """Area under the piecewise-linear ROC curve over fpr in [0, max_fpr], each segment
    clipped at max_fpr."""
    pts = roc_points(y, s, w)
    area = 0.0
    for (x0, y0, _), (x1, y1, _) in zip(pts[:-1], pts[1:]):
        if x0 >= max_fpr or x1 == x0:
            continue
        xe = min(x1, max_fpr)
        ye = y0 + (y1 - y0) * (xe - x0) / (x1 - x0)
        area += (xe - x0) * (y0 + ye) / 2.0
    return area


def ranking_risk(y, s, w=None, pairs="comparable"):
    """Clémençon, Lugosi & Vayatis (2008, "Ranking and empirical minimization of U-statistics"): over pairs i < j (weights w_i w_j), 1{(y_i - y_j)(s_i - s_j) < 0}
    + 1/2 1{s_i = s_j, y_i != y_j}; divided by all pairs or by pairs with y_i != y_j."""
    n = len(y)
    w = _w(w, n)
    num = den = 0.0
    for i in range(n):
        for j in range(i + 1, n):
            ww = w[i] * w[j]
            if (y[i] - y[j]) * (s[i] - s[j]) < 0:
                num += ww
            elif s[i] == s[j] and y[i] != y[j]:
                num += 0.5 * ww
            if pairs == "all" or y[i] != y[j]:
                den += ww
    return num / den


# --- inference (rankwise.stats): the variance formulas, literally -------------------------

def _psi(a, b, c=0.5):
    """1 if a > b, c if a == b, else 0."""
    return 1.0 if a > b else c if a == b else 0.0


def _class_var(vals, ws):
    """Sample variance with denominator (sum of weights - 1)."""
    tot = sum(ws)
    mean = sum(w * v for v, w in zip(vals, ws)) / tot
    return sum(w * (v - mean) ** 2 for v, w in zip(vals, ws)) / (tot - 1.0)


def _split(y, w):
    pos = [i for i in range(len(y)) if y[i]]
    neg = [i for i in range(len(y)) if not y[i]]
    wp = sum(w[i] for i in pos)
    wn = sum(w[i] for i in neg)
    return pos, neg, wp, wn


def delong_placements(y, s, w=None):
    """V10(i) for positives (share of negative mass below, ties 1/2), V01(j) for
    negatives (share of positive mass above, ties 1/2)."""
    w = _w(w, len(y))
    pos, neg, wp, wn = _split(y, w)
    v10 = [sum(w[j] * _psi(s[i], s[j]) for j in neg) / wn for i in pos]
    v01 = [sum(w[i] * _psi(s[i], s[j]) for i in pos) / wp for j in neg]
    return pos, neg, v10, v01, wp, wn, w


def delong_var(y, s, w=None):
    """DeLong, DeLong & Clarke-Pearson (1988): S10 / n+ + S01 / n-."""
    pos, neg, v10, v01, wp, wn, w = delong_placements(y, s, w)
    return _class_var(v10, [w[i] for i in pos]) / wp + _class_var(v01, [w[j] for j in neg]) / wn


def delong_cov(y, s1, s2, w=None):
    """Covariance of two AUCs on the same sample from paired placements."""
    pos, neg, a10, a01, wp, wn, w = delong_placements(y, s1, w)
    _, _, b10, b01, _, _, _ = delong_placements(y, s2, w)

    def cov(u, v, ws):
        tot = sum(ws)
        mu = sum(x * q for x, q in zip(u, ws)) / tot
        mv = sum(x * q for x, q in zip(v, ws)) / tot
        return sum(q * (x - mu) * (z - mv) for x, z, q in zip(u, v, ws)) / (tot - 1.0)

    return cov(a10, b10, [w[i] for i in pos]) / wp + cov(a01, b01, [w[j] for j in neg]) / wn


def hajek_var_rank_statistic(y, s, phi_at_rank, w=None, ties="average", bandwidth=0.2):
    """Var of W_n = sum_pos phi(R_i/(N+1)) from its projection: an observation x contributes
    phi(u_x) (if positive) + D(x), D(x) = 1/(N+1) sum_{pos i} w_i phi'(u_i) psi(s_i, s_x), with
    psi = 1 above, c at a tie (1/2 mid-ranks, 1 for the <= rank) and phi' the secant slope
    over a window of bandwidth*(N+1) ranks, kept inside [0, N+1]; Var = n+ S^2(g+) + n- S^2(g-)."""
    n = len(y)
    w = _w(w, n)
    pos, neg, wp, wn = _split(y, w)
    N = sum(w)
    c = 0.5 if ties == "average" else 1.0
    r = [rank(s, w, i, ties) for i in range(n)]
    width = min(bandwidth, 1.0) * (N + 1.0)
    slope = {}
    for i in pos:
        # A window of `width` ranks centred at the rank, moved inside [0, N + 1] if it sticks out.
        lo = r[i] - width / 2.0
        if lo < 0.0:
            lo = 0.0
        if lo + width > N + 1.0:
            lo = N + 1.0 - width
        slope[i] = (phi_at_rank(lo + width, N) - phi_at_rank(lo, N)) / (width / (N + 1.0))
    D = [sum(w[i] * slope[i] * _psi(s[i], s[x], c) for i in pos) / (N + 1.0) for x in range(n)]
    gp = [phi_at_rank(r[x], N) + D[x] for x in pos]
    gn = [D[x] for x in neg]
    return wp * _class_var(gp, [w[i] for i in pos]) + wn * _class_var(gn, [w[j] for j in neg])


def hajek_var_local_auc(y, s, top, w=None, bandwidth=0.2):
    """Var of CV07's LocAUC from its projection: DeLong-type placements over the pairs with the
    positive at or above the cut Q, plus the move of Q (an observation above Q pushes it up),
    -H(Q) * rho * 1{x above Q} (1/2 at Q) for positives and the same times n-/n+ for
    negatives; rho is the positive share of mass over the score levels whose pooled mid-cdf
    is within bandwidth/2 of 1 - top (and Q's own level)."""
    n = len(y)
    w = _w(w, n)
    pos, neg, wp, wn = _split(y, w)
    N = sum(w)
    levels = sorted(set(v for v, q in zip(s, w) if q > 0))
    q = max(v for v in levels if sum(w[j] for j in range(n) if s[j] >= v) >= top * N * (1 - 1e-12))

    def mass(pred, who=range(n)):
        return sum(w[j] for j in who if pred(s[j]))

    mid = {v: (mass(lambda t: t < v) + 0.5 * mass(lambda t: t == v)) / N for v in levels}
    win = [v for v in levels if abs(mid[v] - (1.0 - top)) <= 0.5 * bandwidth or v == q]
    rho = mass(lambda t: t in win, pos) / mass(lambda t: t in win)
    hq = (mass(lambda t: t < q, neg) + 0.5 * mass(lambda t: t == q, neg)) / wn

    def ind(x):
        return 1.0 if s[x] > q else 0.5 if s[x] == q else 0.0

    hp = [(sum(w[j] * _psi(s[x], s[j]) for j in neg) / wn if s[x] >= q else 0.0) - hq * rho * ind(x) for x in pos]
    hn = [sum(w[i] * _psi(s[i], s[x]) for i in pos if s[i] >= q) / wp - hq * rho * (wn / wp) * ind(x) for x in neg]
    return _class_var(hp, [w[i] for i in pos]) / wp + _class_var(hn, [w[j] for j in neg]) / wn


def hajek_var_pnorm_push(y, s, p, w=None, ties="average"):
    """Var of Rudin's normalised p-norm push (m)^(1/p), m = mean over negatives of v_k^p,
    v_k = normalised height; projection h-(x) = v_x^p, h+(x) = 1/n- sum_{neg k} w_k p v_k^(p-1)
    (1{s_x < s_k} + c 1{s_x = s_k}); delta method for the 1/p power."""
    n = len(y)
    w = _w(w, n)
    pos, neg, wp, wn = _split(y, w)
    c = 0.5 if ties == "average" else 1.0
    v = {k: sum(w[i] * _psi(s[k], s[i], c) for i in pos) / wp for k in neg}
    m = sum(w[k] * v[k] ** p for k in neg) / wn
    hn = [v[k] ** p for k in neg]
    hp = [sum(w[k] * p * v[k] ** (p - 1) * _psi(s[k], s[x], c) for k in neg) / wn for x in pos]
    var_m = _class_var(hp, [w[i] for i in pos]) / wp + _class_var(hn, [w[j] for j in neg]) / wn
    return (m ** (1.0 / p - 1.0) / p) ** 2 * var_m


def _roc_at(pts, a):
    """The ROC polygon at fpr a: the last point with fpr <= a, then linearly to the next."""
    pts = sorted(((x, t) for x, t, _ in pts), key=lambda z: (z[0], z[1]))
    j = max(k for k in range(len(pts)) if pts[k][0] <= a)
    if j + 1 == len(pts):
        return pts[j][1]
    (x0, y0), (x1, y1) = pts[j], pts[j + 1]
    return y0 + (a - x0) * (y1 - y0) / (x1 - x0)


def risk_decomposition(y, s, w=None, pairs="comparable"):
    """Clémençon, Lugosi & Vayatis's (2008) U-statistic over ordered pairs i != j (weights w_i w_j), kernel
    q = 1{(y_i - y_j)(s_i - s_j) < 0} + 1/2 1{s_i = s_j, y_i != y_j}; for "comparable" the
    ratio L = U_q / U_c (c = 1{y_i != y_j}) linearised as (q - L c) / U_c. Returns
    (value, zeta1, zeta2, variance) with zeta1 the weighted variance of the row means,
    zeta2 the mean square of the (centred) kernel, variance (4(n-2) zeta1 + 2 zeta2)/(n(n-1))."""
    n = len(y)
    w = _w(w, n)
    W = sum(w)
    q = [[0.0] * n for _ in range(n)]
    cmp_ = [[0.0] * n for _ in range(n)]
    for i in range(n):
        for j in range(n):
            if i == j:
                continue
            if (y[i] - y[j]) * (s[i] - s[j]) < 0:
                q[i][j] = 1.0
            elif s[i] == s[j] and y[i] != y[j]:
                q[i][j] = 0.5
            cmp_[i][j] = 1.0 if y[i] != y[j] else 0.0
    tot = sum(w[i] * w[j] for i in range(n) for j in range(n) if i != j)
    Uq = sum(w[i] * w[j] * q[i][j] for i in range(n) for j in range(n)) / tot
    Uc = sum(w[i] * w[j] * cmp_[i][j] for i in range(n) for j in range(n)) / tot
    if pairs == "all":
        value = Uq
        k = [[q[i][j] for j in range(n)] for i in range(n)]
        scale = 1.0
        center = value
    else:
        value = Uq / Uc
        k = [[q[i][j] - value * cmp_[i][j] for j in range(n)] for i in range(n)]
        scale = Uc
        center = 0.0
    g = [sum(w[j] * k[i][j] for j in range(n) if j != i) / ((W - w[i]) * scale) for i in range(n)]
    gbar = sum(wi * gi for wi, gi in zip(w, g)) / W
    zeta1 = sum(wi * (gi - gbar) ** 2 for wi, gi in zip(w, g)) / W
    zeta2 = sum(w[i] * w[j] * (k[i][j] / scale - center) ** 2 for i in range(n) for j in range(n) if i != j) / tot
    variance = (4.0 * (W - 2.0) * zeta1 + 2.0 * zeta2) / (W * (W - 1.0))
    return value, zeta1, zeta2, variance


# ======================================================================================
# Literal definitions of the new criteria, for the tests only: average precision and the
# precision-recall curve, the Kolmogorov-Smirnov statistic, Gini, and the partial AUC over
# any FPR or TPR range (raw and McClish-standardised).
#
# Nothing here shares code with rankwise or with scikit-learn / pROC: each function is
# written from the definition in its docstring, with plain loops over thresholds (or pairs)
# and numpy sums, so that agreement with the fast implementations and with the golden
# values of tests/golden/ means something.
#
# Conventions. ``y``: labels, truthy = positive. ``s``: scores, higher = more positive.
# ``w``: frequency weights (>= 0; default 1). A "threshold" t classifies s >= t as positive;
# the thresholds are the distinct scores, taken from the top. With weights,
#     TP(t) = sum of w_j over positives with s_j >= t,  FP(t) likewise over negatives,
#     TPR(t) = TP(t) / W+,  FPR(t) = FP(t) / W-,  W+ / W- the total positive / negative weight.
# ======================================================================================


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
