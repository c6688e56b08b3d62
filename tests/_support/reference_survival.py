"""Literal definitions of the censored concordance (Harrell's C) and its infinitesimal
jackknife variance, for the tests only: pair by pair, sharing no code with rankwise.

Higher risk = earlier event. A pair ``(i, j)`` is *comparable* when ``t_i < t_j`` and ``i``
had an event, or ``t_i == t_j``, ``i`` had an event and ``j`` was censored (an event before a
censoring at the same time); two events at the same time are not comparable. With strata,
only pairs within one stratum. A comparable pair weighs ``w_i w_j`` and counts
``psi(r_i, r_j)``: 1 if ``r_i > r_j``, 1/2 if equal, 0 if below. ``C = N / D`` with ``N``
the weighted count and ``D`` the weighted number of comparable pairs (R survival's
``concordance(Surv(time, status) ~ risk, reverse = TRUE)``).

Infinitesimal jackknife: ``dC/dw_k = (dN/dw_k - C dD/dw_k) / D``, ``dN/dw_k`` the weighted
count of the comparable pairs holding ``k`` (either role) and ``dD/dw_k`` their weight;
``dfbeta_k = w_k dC/dw_k``; the variance is ``sum_k dfbeta_k^2``, or with clusters
``sum_g (sum_{k in g} dfbeta_k)^2``. tests/golden/survival_golden.json (R survival 3.5.3)
checks these definitions (tests/survival/test_survival_reference.py).
"""

from __future__ import annotations

import numpy as np


def comparable(ti, di, tj, dj) -> bool:
    """Whether the pair (i earlier, j later) is comparable."""
    return bool(di) and (ti < tj or (ti == tj and not dj))


def psi(a, b) -> float:
    return 1.0 if a > b else (0.5 if a == b else 0.0)


def harrell(time, status, risk, weight=None, strata=None):
    """``(C, numerator, denominator, dN, dD)``: the concordance, its weighted counts and each
    row's derivatives ``dN/dw_k``, ``dD/dw_k``."""
    n = len(time)
    w = np.ones(n) if weight is None else np.asarray(weight, dtype=float)
    num = den = 0.0
    dN, dD = np.zeros(n), np.zeros(n)
    for i in range(n):
        for j in range(n):
            if i == j or (strata is not None and strata[i] != strata[j]):
                continue
            if comparable(time[i], status[i], time[j], status[j]):
                v = psi(risk[i], risk[j])
                num += w[i] * w[j] * v
                den += w[i] * w[j]
                dN[i] += w[j] * v
                dN[j] += w[i] * v
                dD[i] += w[j]
                dD[j] += w[i]
    C = num / den if den > 0 else float("nan")
    return C, num, den, dN, dD


def dfbeta(time, status, risk, weight=None, strata=None) -> np.ndarray:
    """``w_k dC/dw_k`` for every row."""
    C, _, den, dN, dD = harrell(time, status, risk, weight, strata)
    w = np.ones(len(time)) if weight is None else np.asarray(weight, dtype=float)
    return w * (dN - C * dD) / den


def ij_variance(time, status, risk, weight=None, strata=None, clusters=None) -> float:
    """The infinitesimal jackknife variance (grouped by cluster when given)."""
    d = dfbeta(time, status, risk, weight, strata)
    if clusters is None:
        return float(np.sum(d ** 2))
    _, inv = np.unique(np.asarray(clusters), return_inverse=True)
    return float(np.sum(np.bincount(inv.ravel(), weights=d) ** 2))
