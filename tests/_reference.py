"""Literal definitions from THEORY.md, O(n^2) or worse, for the tests only.

Nothing here shares code with rankwise: each function is written from the
formula in ``../shared/THEORY.md`` (or the docstring convention it cites) with
plain Python loops, so that agreement with the fast kernels means something.
Labels are booleans (True = positive); weights default to 1.
"""

from __future__ import annotations

import math


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
    """Paper 001: over pairs i < j (weights w_i w_j), 1{(y_i - y_j)(s_i - s_j) < 0}
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
