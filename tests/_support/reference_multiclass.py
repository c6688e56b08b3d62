"""Literal multiclass AUCs (issue 31): double loops over pairs of rows, straight from the
definitions in docs/multiclass.md. O(n^2 K^2); for tests only."""

from __future__ import annotations

import math

import numpy as np


def _psi(a: float, b: float) -> float:
    return 1.0 if a > b else (0.5 if a == b else 0.0)


def set_auc_reference(s, in_a, in_b, w) -> float:
    """sum_{i in A, j in B} w_i w_j psi(s_i, s_j) / (W_A W_B); nan if a side has no mass."""
    num = 0.0
    wa = sum(w[i] for i in range(len(s)) if in_a[i])
    wb = sum(w[j] for j in range(len(s)) if in_b[j])
    if not (wa > 0 and wb > 0):
        return math.nan
    for i in range(len(s)):
        if not in_a[i]:
            continue
        for j in range(len(s)):
            if in_b[j]:
                num += w[i] * w[j] * _psi(s[i], s[j])
    return num / (wa * wb)


def multiclass_reference(y, S, classes, multi_class, average, w=None):
    """The multiclass AUC by pair loops. ``classes``: the labels of S's columns, in order.
    Returns a float, a (K,) array (ovr, None) or a (directed, pairs) tuple (ovo, None)."""
    y = list(y)
    S = np.asarray(S, dtype=float)
    n, K = S.shape
    w = [1.0] * n if w is None else [float(v) for v in w]
    cls = list(classes)
    mass = [sum(w[r] for r in range(n) if y[r] == c) for c in cls]
    if multi_class == "ovr":
        if average == "micro":
            s = [S[r, k] for r in range(n) for k in range(K)]
            pos = [y[r] == cls[k] for r in range(n) for k in range(K)]
            ww = [w[r] for r in range(n) for k in range(K)]
            return set_auc_reference(s, pos, [not p for p in pos], ww)
        per = np.array([set_auc_reference(S[:, k], [v == cls[k] for v in y], [v != cls[k] for v in y], w)
                        for k in range(K)])
        if average is None:
            return per
        if average == "macro":
            return float(np.mean(per))
        num = sum(mass[k] * per[k] for k in range(K) if mass[k] > 0)
        return num / sum(m for m in mass if m > 0)
    directed = np.full((K, K), np.nan)
    for i in range(K):
        for j in range(K):
            if i != j and mass[i] > 0 and mass[j] > 0:
                directed[i, j] = set_auc_reference(S[:, i], [v == cls[i] for v in y], [v == cls[j] for v in y], w)
    if average is None:
        return directed, (directed + directed.T) / 2
    vals, pw = [], []
    for i in range(K):
        for j in range(i + 1, K):
            if mass[i] > 0 and mass[j] > 0:
                vals.append((directed[i, j] + directed[j, i]) / 2)
                pw.append(mass[i] + mass[j])
    if average == "macro":
        return sum(vals) / len(vals)
    return sum(p * v for p, v in zip(pw, vals)) / sum(pw)
