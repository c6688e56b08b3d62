"""Literal O(n^2) definitions of the pairwise surrogates, for the tests only.

Nothing here shares code with rankwise: the objective is written straight from its
definition with plain Python loops over every positive-negative pair,

    F(s) = 1/W sum_{i pos} sum_{j neg} w_i w_j phi(s_i - s_j),   W = (sum_pos w)(sum_neg w),

and the gradient by the chain rule, pair by pair: the pair (i, j) adds
w_i w_j phi'(m)/W to dF/ds_i and subtracts it from dF/ds_j. Labels are booleans
(True = positive); weights default to 1. The hinge slope at m == margin is 0
(the pair is active only when m < margin).
"""

from __future__ import annotations

import math


def _phi(name, m, margin):
    if name == "hinge":
        return max(0.0, margin - m)
    if name == "squared_hinge":
        return max(0.0, margin - m) ** 2
    if name == "squared":
        return (margin - m) ** 2
    if name == "exponential":
        return math.exp(-m)
    if name == "logistic":
        # log(1 + e^{-m}); for m < 0 written as -m + log(1 + e^{m}) so e^{-m} cannot overflow.
        return math.log1p(math.exp(-m)) if m >= 0 else -m + math.log1p(math.exp(m))
    raise ValueError(name)


def _dphi(name, m, margin):
    if name == "hinge":
        return -1.0 if m < margin else 0.0
    if name == "squared_hinge":
        return -2.0 * (margin - m) if m < margin else 0.0
    if name == "squared":
        return -2.0 * (margin - m)
    if name == "exponential":
        return -math.exp(-m)
    if name == "logistic":
        # d/dm log(1 + e^{-m}) = -e^{-m} / (1 + e^{-m}) = -1 / (1 + e^{m})
        return -math.exp(-m) / (1.0 + math.exp(-m)) if m >= 0 else -1.0 / (1.0 + math.exp(m))
    raise ValueError(name)


def pairwise_value_and_grad(name, y, s, w=None, margin=1.0):
    """(F, [dF/ds_k for k in range(n)]) by the double loop over all pairs."""
    n = len(y)
    w = [1.0] * n if w is None else [float(x) for x in w]
    s = [float(x) for x in s]
    wp = sum(w[i] for i in range(n) if y[i])
    wn = sum(w[j] for j in range(n) if not y[j])
    W = wp * wn
    total = 0.0
    grad = [0.0] * n
    for i in range(n):
        if not y[i]:
            continue
        for j in range(n):
            if y[j]:
                continue
            m = s[i] - s[j]
            pw = w[i] * w[j]
            total += pw * _phi(name, m, margin)
            d = pw * _dphi(name, m, margin)
            grad[i] += d
            grad[j] -= d
    return total / W, [g / W for g in grad]


def exponential_log_value(y, s, w=None):
    """log F for the exponential surrogate, from the factorisation
    F = (sum_pos w e^{-s})(sum_neg w e^{s}) / W, each sum taken as max + log(sum e^(x - max))
    over its terms (so it does not overflow for large scores)."""
    n = len(y)
    w = [1.0] * n if w is None else [float(x) for x in w]

    def log_sum(terms):
        mx = max(terms)
        return mx + math.log(sum(math.exp(t - mx) for t in terms))

    lp = log_sum([math.log(w[i]) - s[i] for i in range(n) if y[i] and w[i] > 0])
    ln = log_sum([math.log(w[j]) + s[j] for j in range(n) if not y[j] and w[j] > 0])
    wp = sum(w[i] for i in range(n) if y[i])
    wn = sum(w[j] for j in range(n) if not y[j])
    return lp + ln - math.log(wp) - math.log(wn)


# --- second derivatives (the boosting engines' Hessians) ----------------------------------

def _d2phi(name, m, margin):
    if name == "squared_hinge":
        return 2.0 if m < margin else 0.0
    if name == "squared":
        return 2.0
    if name == "exponential":
        return math.exp(-m)
    if name == "logistic":
        # d/dm -1/(1 + e^{m}) = e^{m} / (1 + e^{m})^2, symmetric in m
        a = math.exp(-abs(m))
        return a / (1.0 + a) ** 2
    raise ValueError(name)


def pairwise_value_grad_hess(name, y, s, w=None, margin=1.0):
    """(F, dF/ds, [d^2F/ds_k^2]) by the double loop: the pair (i, j) adds
    w_i w_j phi''(m)/W to the second derivative of both s_i and s_j (m = s_i - s_j)."""
    value, grad = pairwise_value_and_grad(name, y, s, w, margin)
    n = len(y)
    w = [1.0] * n if w is None else [float(x) for x in w]
    s = [float(x) for x in s]
    W = sum(w[i] for i in range(n) if y[i]) * sum(w[j] for j in range(n) if not y[j])
    hess = [0.0] * n
    for i in range(n):
        if not y[i]:
            continue
        for j in range(n):
            if y[j]:
                continue
            d = w[i] * w[j] * _d2phi(name, s[i] - s[j], margin)
            hess[i] += d
            hess[j] += d
    return value, grad, [h / W for h in hess]


def pnorm_push_value_grad_hess(y, s, p, w=None):
    """Rudin's R_p(s) = sum_{k neg} v_k q_k^p, q_k = sum_{i pos} v_i e^{-(s_i - s_k)}, with
    class-normalised weights v, its gradient and the diagonal of its Hessian, by the chain
    rule through each q_k (every pair visited): with e_ik = v_i e^{-(s_i - s_k)},
    dR/ds_k = p v_k q_k^p, d2R/ds_k^2 = p^2 v_k q_k^p (negatives),
    dR/ds_i = -sum_k p v_k q_k^(p-1) e_ik,
    d2R/ds_i^2 = sum_k v_k (p (p-1) q_k^(p-2) e_ik^2 + p q_k^(p-1) e_ik) (positives)."""
    n = len(y)
    w = [1.0] * n if w is None else [float(x) for x in w]
    s = [float(x) for x in s]
    wp = sum(w[i] for i in range(n) if y[i])
    wn = sum(w[k] for k in range(n) if not y[k])
    v = [w[t] / (wp if y[t] else wn) for t in range(n)]
    value = 0.0
    grad = [0.0] * n
    hess = [0.0] * n
    for k in range(n):
        if y[k]:
            continue
        e = {i: v[i] * math.exp(-(s[i] - s[k])) for i in range(n) if y[i]}
        q = sum(e.values())
        value += v[k] * q ** p
        grad[k] += p * v[k] * q ** p
        hess[k] += p * p * v[k] * q ** p
        for i, eik in e.items():
            grad[i] -= p * v[k] * q ** (p - 1) * eik
            hess[i] += v[k] * (p * (p - 1) * q ** (p - 2) * eik * eik + p * q ** (p - 1) * eik)
    return value, grad, hess
