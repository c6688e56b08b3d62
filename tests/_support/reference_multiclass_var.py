"""Literal K-sample DeLong variances of the multiclass AUCs and of the VUS (issue 31), for
the tests only: every placement by a loop over the other rows (O(n^2 K)), every VUS
placement by a loop over the chains through the row (O(n^(K-1))), straight from the
definitions in docs/multiclass.md; no code shared with rankwise.

For a criterion ``theta = sum g D`` over directed AUCs
``D_k(a|b) = sum_{i in a, j in b} w_i w_j psi(s_ik, s_jk) / (W_a W_b)``, row ``i`` of class
``c`` has the term ``h_i = sum over the D its class enters of g * placement`` (the share of
the other class below it when ``c = a``, above it when ``c = b``), and

    Var = sum_c sum_{i in c} w_i (h_i - hbar_c)^2 / (W_c (W_c - 1)),

``hbar_c`` the weighted class mean. ``average="weighted"`` adds the prevalence term
``W/(W-1) sum_c W_c tau_c^2`` with ``tau_c = (d theta / d eps_c) / W_c``, the derivative of
the criterion when the weights of class ``c`` are scaled by ``1 + eps_c`` (which leaves
every D unchanged and moves the prevalences only), here by central differences of the
literal criterion.
"""

from __future__ import annotations

import itertools
import math

import numpy as np

from _support.reference_multiclass import multiclass_reference
from _support.reference_vus import tie_share


def _psi(a: float, b: float) -> float:
    return 1.0 if a > b else (0.5 if a == b else 0.0)


def _share_below(x: float, col, members, w) -> float:
    tot = sum(w[j] for j in members)
    return sum(w[j] * _psi(x, col[j]) for j in members) / tot


def _share_above(x: float, col, members, w) -> float:
    tot = sum(w[j] for j in members)
    return sum(w[j] * _psi(col[j], x) for j in members) / tot


def _class_variance(h, y, classes, w) -> float:
    var = 0.0
    for c in classes:
        idx = [i for i in range(len(y)) if y[i] == c]
        W = sum(w[i] for i in idx)
        if W <= 1:
            return math.nan
        mean = sum(w[i] * h[i] for i in idx) / W
        var += sum(w[i] * (h[i] - mean) ** 2 for i in idx) / (W * (W - 1))
    return var


def component_terms(y, S, classes, multi_class, w):
    """Per row, the placement terms of each component: OvR class k (column k), OvO pair
    (a, b) in ``triu`` order. Returns (terms (n, C), values (C,))."""
    y = list(y)
    S = np.asarray(S, dtype=float)
    n, K = S.shape
    cls = list(classes)
    members = [[i for i in range(n) if y[i] == c] for c in cls]
    mass = [sum(w[i] for i in m) for m in members]
    total = sum(mass)
    if multi_class == "ovr":
        H = np.zeros((n, K))
        for k in range(K):
            col = S[:, k]
            rest = [i for i in range(n) if y[i] != cls[k]]
            for i in range(n):
                if y[i] == cls[k]:
                    H[i, k] = _share_below(col[i], col, rest, w)
                else:
                    c = cls.index(y[i])
                    H[i, k] = mass[c] / (total - mass[k]) * _share_above(col[i], col, members[k], w)
        return H
    pairs = [(a, b) for a in range(K) for b in range(a + 1, K)]
    H = np.zeros((n, len(pairs)))
    for p, (a, b) in enumerate(pairs):
        for i in range(n):
            if y[i] == cls[a]:
                H[i, p] = (_share_below(S[i, a], S[:, a], members[b], w)
                           + _share_above(S[i, b], S[:, b], members[b], w)) / 2
            elif y[i] == cls[b]:
                H[i, p] = (_share_below(S[i, b], S[:, b], members[a], w)
                           + _share_above(S[i, a], S[:, a], members[a], w)) / 2
    return H


def multiclass_variance_reference(y, S, classes, multi_class, average, w=None) -> float:
    """The K-sample DeLong variance of ``multiclass_auc(multi_class, average)``, every class
    present; with the prevalence term for ``average="weighted"``."""
    y = list(y)
    S = np.asarray(S, dtype=float)
    n, K = S.shape
    w = [1.0] * n if w is None else [float(v) for v in w]
    cls = list(classes)
    mass = np.array([sum(w[i] for i in range(n) if y[i] == c) for c in cls])
    if average == "micro":
        # Entries (row, class); row i: one positive entry (share of negative entries
        # below), K - 1 negative ones (share of positive entries above); per copy
        # (P_i + mean Q_i - 2 A) / W, written as a class-variance term with h * W_c / W.
        ent = [(i, k) for i in range(n) for k in range(K)]
        pos = [(i, k) for (i, k) in ent if y[i] == cls[k]]
        neg = [(i, k) for (i, k) in ent if y[i] != cls[k]]
        wp = sum(w[i] for i, _ in pos)
        wn = sum(w[i] for i, _ in neg)
        h = []
        for i in range(n):
            c = cls.index(y[i])
            P = sum(w[j] * _psi(S[i, c], S[j, k]) for j, k in neg) / wn
            Q = sum(sum(w[j] * _psi(S[j, kk], S[i, k]) for j, kk in pos) / wp for k in range(K) if k != c)
            h.append((P + Q / (K - 1)) * mass[c] / mass.sum())
        return _class_variance(h, y, cls, w)
    H = component_terms(y, S, cls, multi_class, w)
    if multi_class == "ovr":
        coef = np.full(K, 1.0 / K) if average == "macro" else mass / mass.sum()
    else:
        pairs = [(a, b) for a in range(K) for b in range(a + 1, K)]
        coef = (np.full(len(pairs), 1.0 / len(pairs)) if average == "macro"
                else np.array([mass[a] + mass[b] for a, b in pairs]) / sum(mass[a] + mass[b] for a, b in pairs))
    var = _class_variance(list(H @ coef), y, cls, w)
    if average == "weighted":
        W = mass.sum()
        eps = 1e-5
        tau = np.zeros(K)
        for c in range(K):
            vals = []
            for e in (eps, -eps):
                ww = [w[i] * (1 + e if y[i] == cls[c] else 1.0) for i in range(n)]
                vals.append(multiclass_reference(y, S, cls, multi_class, average, ww))
            tau[c] = (vals[0] - vals[1]) / (2 * eps) / mass[c]
        var += W / (W - 1) * float(np.sum(mass * tau ** 2))
    return var


def component_variances_reference(y, S, classes, multi_class, w=None) -> np.ndarray:
    """The K-sample DeLong covariance matrix of the components (OvR classes, OvO pairs)."""
    y = list(y)
    S = np.asarray(S, dtype=float)
    n = S.shape[0]
    w = [1.0] * n if w is None else [float(v) for v in w]
    H = component_terms(y, S, classes, multi_class, w)
    C = H.shape[1]
    cov = np.zeros((C, C))
    for c in classes:
        idx = [i for i in range(n) if y[i] == c]
        W = sum(w[i] for i in idx)
        ww = np.array([w[i] for i in idx])
        Hc = H[idx]
        Hc = Hc - ww @ Hc / W
        cov += (Hc.T * ww) @ Hc / (W * (W - 1))
    return cov


def vus_variance_reference(y, s, labels, w=None) -> float:
    """The K-sample DeLong variance of the VUS/HUM: row i of class c has the placement
    ``V_i`` = the weighted share of chains (one row per other class) through it, each
    chain counted by its tie share."""
    h = vus_placements_reference(y, s, labels, w)
    return _class_variance(h, list(y), list(labels), [1.0] * len(h) if w is None else [float(v) for v in w])


def vus_covariance_reference(y, s1, s2, labels, w=None) -> float:
    """The covariance of two scores' VUS on the same rows: ``sum_c cov_c(V^1, V^2) / W_c``
    (weighted, denominator ``W_c - 1``)."""
    y = list(y)
    w = [1.0] * len(y) if w is None else [float(v) for v in w]
    h1 = vus_placements_reference(y, s1, labels, w)
    h2 = vus_placements_reference(y, s2, labels, w)
    out = 0.0
    for c in labels:
        idx = [i for i in range(len(y)) if y[i] == c]
        W = sum(w[i] for i in idx)
        m1 = sum(w[i] * h1[i] for i in idx) / W
        m2 = sum(w[i] * h2[i] for i in idx) / W
        out += sum(w[i] * (h1[i] - m1) * (h2[i] - m2) for i in idx) / (W * (W - 1))
    return out


def vus_placements_reference(y, s, labels, w=None) -> list:
    """Each row's VUS placement (see :func:`vus_variance_reference`)."""
    y = list(y)
    s = [float(v) for v in s]
    n = len(y)
    w = [1.0] * n if w is None else [float(v) for v in w]
    labels = list(labels)
    members = [[i for i in range(n) if y[i] == lab] for lab in labels]
    totals = [sum(w[i] for i in m) for m in members]
    h = [0.0] * n
    for i in range(n):
        c = labels.index(y[i])
        others = [members[d] for d in range(len(labels)) if d != c]
        num = 0.0
        for rest in itertools.product(*others):
            chain = list(rest[:c]) + [i] + list(rest[c:])
            weight = math.prod(w[j] for j in rest)
            if weight:
                num += weight * tie_share([s[j] for j in chain])
        h[i] = num / math.prod(totals[d] for d in range(len(labels)) if d != c)
    return h


__all__ = ["multiclass_variance_reference", "component_variances_reference", "vus_variance_reference",
           "vus_covariance_reference", "vus_placements_reference", "component_terms"]
