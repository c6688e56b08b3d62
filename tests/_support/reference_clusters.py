"""Literal definitions of the cluster-robust variance of the AUC, for the tests only.

Written from the formulas, pair by pair and cluster by cluster, sharing no code with
rankwise:

* the weighted AUC, ``sum_{i pos} sum_{k neg} w_i w_k psi(s_i, s_k) / (N+ N-)``, with
  ``psi(a, b) = 1`` if ``a > b``, ``1/2`` if ``a == b``, ``0`` otherwise and ``N+``, ``N-``
  the class masses (frequency weights; 1 each when absent);
* Obuchowski (1997), "Nonparametric analysis of clustered ROC curve data", Biometrics 53:
  per cluster ``g``, ``V10_g = sum_{i in g, pos} w_i sum_{k neg} w_k psi_ik / N-`` and
  ``V01_g = sum_{k in g, neg} w_k sum_{i pos} w_i psi_ik / N+``, with ``m_g``, ``n_g`` the
  cluster's positive and negative masses and ``I10``, ``I01``, ``I`` the clusters holding a
  positive, a negative, any row;
  ``S10 = I10/((I10-1) N+) sum_g (V10_g - m_g A)^2``, ``S01`` likewise,
  ``S11 = I/(I-1) sum_g (V10_g - m_g A)(V01_g - n_g A)`` and
  ``Var = S10/N+ + S01/N- + 2 S11/(N+ N-)``; for K scorers the same with cross-products
  (``S11`` taken both ways round);
* the grouped infinitesimal jackknife of R survival's ``concordance(..., cluster=)``:
  ``sum_g (sum_{i in g} w_i dC/dw_i)^2``, the derivative of the AUC as a function of the
  weights taken by a complex step (``C`` is a ratio of polynomials in the weights, so
  ``Im C(w + i h e_i) / h`` is its derivative to rounding), not from a formula;
* DeLong's variance over independent rows (each row its own cluster, with frequency
  weights as copies of rows).
"""

from __future__ import annotations

import numpy as np


def _psi(a, b):
    """psi(a, b) for every pair: 1 if a > b, 1/2 if a == b, 0 otherwise."""
    a = np.asarray(a, dtype=float)[:, None]
    b = np.asarray(b, dtype=float)[None, :]
    return (a > b) + 0.5 * (a == b)


def _weights(y, w):
    return np.ones(len(y)) if w is None else np.asarray(w, dtype=float)


def auc(y, s, w=None):
    """The weighted AUC as a double sum over (positive, negative) pairs."""
    y = np.asarray(y)
    w = _weights(y, w)
    s = np.asarray(s, dtype=float)
    num = 0.0
    pos = [i for i in range(len(y)) if y[i] == 1]
    neg = [k for k in range(len(y)) if y[k] != 1]
    for i in pos:
        for k in neg:
            if s[i] > s[k]:
                num += w[i] * w[k]
            elif s[i] == s[k]:
                num += 0.5 * w[i] * w[k]
    return num / (sum(w[i] for i in pos) * sum(w[k] for k in neg))


def obuchowski_parts(y, s, clusters, w=None):
    """Per-cluster pieces of Obuchowski's variance for one scorer: ``(A, N+, N-, ids,
    V10, V01, m, n)`` with one entry of ``V10``, ``V01``, ``m``, ``n`` per cluster id (in
    order of first appearance)."""
    y = np.asarray(y)
    w = _weights(y, w)
    s = np.asarray(s, dtype=float)
    ids = list(dict.fromkeys(list(clusters)))
    pos = [i for i in range(len(y)) if y[i] == 1]
    neg = [k for k in range(len(y)) if y[k] != 1]
    Np = sum(w[i] for i in pos)
    Nn = sum(w[k] for k in neg)
    P = _psi(s[pos], s[neg])
    wp = np.array([w[i] for i in pos])
    wn = np.array([w[k] for k in neg])
    A = float(wp @ P @ wn) / (Np * Nn)
    V10 = {g: 0.0 for g in ids}
    V01 = {g: 0.0 for g in ids}
    m = {g: 0.0 for g in ids}
    n = {g: 0.0 for g in ids}
    for a, i in enumerate(pos):
        g = clusters[i]
        V10[g] += w[i] * sum(w[k] * P[a, b] for b, k in enumerate(neg)) / Nn
        m[g] += w[i]
    for b, k in enumerate(neg):
        g = clusters[k]
        V01[g] += w[k] * sum(w[i] * P[a, b] for a, i in enumerate(pos)) / Np
        n[g] += w[k]
    return A, Np, Nn, ids, V10, V01, m, n


def obuchowski_cov(y, scores, clusters, w=None):
    """Obuchowski's (1997) covariance matrix (K, K) of the AUCs of K scorers (a list of
    score vectors) under cluster sampling, with frequency weights ``w``. Clusters count in
    ``I10`` (``I01``) when they hold a positive (negative) row of positive weight."""
    clusters = list(clusters)
    y = np.asarray(y)
    parts = [obuchowski_parts(y, s, clusters, w) for s in scores]
    ids = parts[0][3]
    m, n = parts[0][6], parts[0][7]
    I10 = sum(1 for g in ids if m[g] > 0)
    I01 = sum(1 for g in ids if n[g] > 0)
    I = sum(1 for g in ids if m[g] + n[g] > 0)
    Np, Nn = parts[0][1], parts[0][2]
    K = len(scores)
    cov = np.zeros((K, K))
    for r in range(K):
        Ar, _, _, _, V10r, V01r, _, _ = parts[r]
        for t in range(K):
            At, _, _, _, V10t, V01t, _, _ = parts[t]
            S10 = I10 / ((I10 - 1) * Np) * sum((V10r[g] - m[g] * Ar) * (V10t[g] - m[g] * At) for g in ids)
            S01 = I01 / ((I01 - 1) * Nn) * sum((V01r[g] - n[g] * Ar) * (V01t[g] - n[g] * At) for g in ids)
            S11_rt = I / (I - 1) * sum((V10r[g] - m[g] * Ar) * (V01t[g] - n[g] * At) for g in ids)
            S11_tr = I / (I - 1) * sum((V10t[g] - m[g] * At) * (V01r[g] - n[g] * Ar) for g in ids)
            cov[r, t] = S10 / Np + S01 / Nn + (S11_rt + S11_tr) / (Np * Nn)
    return cov


def obuchowski_var(y, s, clusters, w=None):
    """Obuchowski's (1997) variance of the AUC of one scorer under cluster sampling."""
    return float(obuchowski_cov(y, [s], clusters, w)[0, 0])


def delong_cov(y, scores, w=None):
    """DeLong's covariance matrix (K, K) over independent rows, frequency weights as copies:
    ``S10 = sum_{i pos} w_i (V10_i - A)^2 / (N+ - 1)`` (cross-products for two scorers),
    likewise ``S01``; ``S10/N+ + S01/N-``."""
    y = np.asarray(y)
    w = _weights(y, w)
    pos = [i for i in range(len(y)) if y[i] == 1]
    neg = [k for k in range(len(y)) if y[k] != 1]
    Np = sum(w[i] for i in pos)
    Nn = sum(w[k] for k in neg)
    K = len(scores)
    v10, v01, A = [], [], []
    for s in scores:
        s = np.asarray(s, dtype=float)
        P = _psi(s[pos], s[neg])
        A.append(auc(y, s, w))
        v10.append([sum(w[k] * P[a, b] for b, k in enumerate(neg)) / Nn for a in range(len(pos))])
        v01.append([sum(w[i] * P[a, b] for a, i in enumerate(pos)) / Np for b in range(len(neg))])
    cov = np.zeros((K, K))
    for r in range(K):
        for t in range(K):
            S10 = sum(w[i] * (v10[r][a] - A[r]) * (v10[t][a] - A[t]) for a, i in enumerate(pos)) / (Np - 1)
            S01 = sum(w[k] * (v01[r][b] - A[r]) * (v01[t][b] - A[t]) for b, k in enumerate(neg)) / (Nn - 1)
            cov[r, t] = S10 / Np + S01 / Nn
    return cov


def _auc_of_weights(y, P, W):
    """The AUC as a function of the weights, for each row of ``W`` (B, n) (complex weights
    allowed), with ``P`` the (positive, negative) psi matrix."""
    pos = y == 1
    Wp, Wn = W[:, pos], W[:, ~pos]
    return np.einsum("bj,bj->b", Wp @ P, Wn) / (Wp.sum(axis=1) * Wn.sum(axis=1))


def dfbeta(y, s, w=None, h=1e-30, block=128):
    """``w_i dC/dw_i`` for every row, the derivative by a complex step of size ``h``: the AUC
    recomputed from its definition with ``w_i`` replaced by ``w_i + i h`` (rows in blocks)."""
    y = np.asarray(y)
    w = _weights(y, w)
    s = np.asarray(s, dtype=float)
    P = _psi(s[y == 1], s[y != 1]).astype(complex)
    n = len(y)
    out = np.empty(n)
    for start in range(0, n, block):
        rows = np.arange(start, min(n, start + block))
        W = np.tile(w.astype(complex), (len(rows), 1))
        W[np.arange(len(rows)), rows] += 1j * h
        out[rows] = w[rows] * _auc_of_weights(y, P, W).imag / h
    return out


def survival_ij_cov(y, scores, clusters, w=None):
    """R survival's grouped infinitesimal jackknife (K, K): ``sum_g D_g D_g^T`` with
    ``D_g`` the per-cluster sums of every scorer's ``w_i dC/dw_i``."""
    clusters = list(clusters)
    ids = list(dict.fromkeys(clusters))
    where = {g: j for j, g in enumerate(ids)}
    K = len(scores)
    D = np.zeros((len(ids), K))
    for k, s in enumerate(scores):
        d = dfbeta(y, s, w)
        for i, g in enumerate(clusters):
            D[where[g], k] += d[i]
    return D.T @ D


def survival_ij_var(y, s, clusters, w=None):
    """R survival's ``concordance(y ~ s, cluster = clusters, weights = w)$var``."""
    return float(survival_ij_cov(y, [s], clusters, w)[0, 0])
