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


def harrell(time, status, risk, weight=None, strata=None, case_weight=None, tied_event_censored=True):
    """``(C, numerator, denominator, dN, dD)``: the concordance, its weighted counts and each
    row's derivatives ``dN/dw_k``, ``dD/dw_k``. ``case_weight`` ``a``: a pair (i earlier,
    j later) weighs ``w_i a_i w_j``; ``tied_event_censored=False``: an event and a censoring
    at one time are not comparable."""
    n = len(time)
    w = np.ones(n) if weight is None else np.asarray(weight, dtype=float)
    a = np.ones(n) if case_weight is None else np.asarray(case_weight, dtype=float)
    num = den = 0.0
    dN, dD = np.zeros(n), np.zeros(n)
    for i in range(n):
        for j in range(n):
            if i == j or (strata is not None and strata[i] != strata[j]):
                continue
            if comparable(time[i], status[i], time[j], status[j]) and (
                    tied_event_censored or time[i] != time[j]):
                v = psi(risk[i], risk[j])
                num += w[i] * a[i] * w[j] * v
                den += w[i] * a[i] * w[j]
                dN[i] += a[i] * w[j] * v
                dN[j] += w[i] * a[i] * v
                dD[i] += a[i] * w[j]
                dD[j] += w[i] * a[i]
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


# --- Uno's IPCW concordance, truncation at tau, the tie switch (added with issue 30) ----------

def censoring_km_literal(time, status, weight=None, events_first=True, limit="left"):
    """``G`` as a function: the censoring Kaplan-Meier by a loop over the distinct times.
    At a time with events and censorings the events leave the risk set first
    (``events_first``: the factor is ``1 - c / (Y - d)``), else ``1 - c / Y``. ``limit``:
    ``"left"`` gives ``t -> G(t-)`` (censorings before ``t``), ``"right"`` ``t -> G(t)``."""
    n = len(time)
    w = np.ones(n) if weight is None else np.asarray(weight, dtype=float)
    steps = []
    g = 1.0
    for s in sorted(set(float(v) for v in time)):
        at_risk = sum(w[i] for i in range(n) if time[i] >= s)
        dead = sum(w[i] for i in range(n) if time[i] == s and status[i])
        cens = sum(w[i] for i in range(n) if time[i] == s and not status[i])
        if cens > 0:
            g *= 1.0 - cens / (at_risk - dead if events_first else at_risk)
        steps.append((s, g))

    def left(t):
        """G(t-) (or G(t)): the product over the censoring times before t (or up to t)."""
        out = 1.0
        for s, gs in steps:
            if s < t or (limit == "right" and s == t):
                out = gs
        return out

    return left


def comparable_opt(ti, di, tj, dj, tied_event_censored=True) -> bool:
    """Comparable (i earlier, j later); ``tied_event_censored=False``: an event and a
    censoring at one time are not comparable."""
    return bool(di) and (ti < tj or (tied_event_censored and ti == tj and not dj))


def weighted_concordance(time, status, risk, weight=None, strata=None, weighting="harrell", tau=None,
                         tied_event_censored=True, censoring_left=None):
    """``(C, numerator, denominator, dN, dD)`` of the concordance whose comparable pair
    ``(i, j)`` weighs ``w_i w_j a_i``: ``a_i = 1`` (Harrell) or ``1 / G(t_i-)^2`` (Uno, ``G``
    the censoring Kaplan-Meier of ``i``'s stratum, or ``censoring_left`` when given, a
    function ``t -> G(t-)``), and ``a_i = 0`` when ``t_i > tau``. ``dN_k``, ``dD_k``: the
    derivatives in ``w_k`` with ``a`` held fixed."""
    n = len(time)
    w = np.ones(n) if weight is None else np.asarray(weight, dtype=float)
    groups = np.zeros(n, dtype=int) if strata is None else np.unique(np.asarray(strata), return_inverse=True)[1]
    groups = np.asarray(groups).ravel()
    a = np.ones(n)
    if weighting == "uno":
        for g in set(groups.tolist()):
            rows = [i for i in range(n) if groups[i] == g]
            left = censoring_left or censoring_km_literal([time[i] for i in rows], [status[i] for i in rows],
                                                          [w[i] for i in rows])
            for i in rows:
                if status[i] and w[i] > 0:  # a row of weight 0 is in no pair
                    g_i = left(time[i])
                    a[i] = 1.0 / g_i ** 2 if g_i > 0 else float("inf")
    if tau is not None:
        a = np.where(np.asarray(time, dtype=float) > tau, 0.0, a)
    num = den = 0.0
    dN, dD = np.zeros(n), np.zeros(n)
    for i in range(n):
        for j in range(n):
            if i == j or groups[i] != groups[j]:
                continue
            if comparable_opt(time[i], status[i], time[j], status[j], tied_event_censored):
                v = psi(risk[i], risk[j])
                num += w[i] * w[j] * a[i] * v
                den += w[i] * w[j] * a[i]
                dN[i] += a[i] * w[j] * v
                dN[j] += a[i] * w[i] * v
                dD[i] += a[i] * w[j]
                dD[j] += a[i] * w[i]
    C = num / den if den > 0 else float("nan")
    return C, num, den, dN, dD


def weighted_dfbeta(time, status, risk, weight=None, strata=None, **options) -> np.ndarray:
    """``w_k dC/dw_k`` (the censoring weights held fixed) for every row."""
    C, _, den, dN, dD = weighted_concordance(time, status, risk, weight, strata, **options)
    w = np.ones(len(time)) if weight is None else np.asarray(weight, dtype=float)
    return w * (dN - C * dD) / den


def weighted_ij_variance(time, status, risk, weight=None, strata=None, clusters=None, **options) -> float:
    """The infinitesimal jackknife variance of :func:`weighted_concordance` (G fixed)."""
    d = weighted_dfbeta(time, status, risk, weight, strata, **options)
    if clusters is None:
        return float(np.sum(d ** 2))
    _, inv = np.unique(np.asarray(clusters), return_inverse=True)
    return float(np.sum(np.bincount(inv.ravel(), weights=d) ** 2))
