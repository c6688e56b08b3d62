"""Harrell's concordance index with its infinitesimal-jackknife standard error."""

from __future__ import annotations

import html
import warnings
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._kernels import concordance_counts
from .._validation import (
    UndefinedMetricWarning,
    check_choice,
    check_clusters,
    check_groups,
    check_sample_weight,
    check_scores,
    to_numpy,
)
from ..stats.blocks import check_level, fmt, fmt_count, normal_interval
from ..stats import ConfidenceInterval

__all__ = ["concordance_index", "estimate", "compare", "ConcordanceEstimate"]


def _same_length(n: int, m: int, name: str) -> None:
    if m != n:
        raise ValueError(f"'time' has {n} values but '{name}' has {m}; they must have the same length.")


def check_survival(time: Any, event: Any, risk: Any, sample_weight: Any = None, strata: Any = None,
                   clusters: Any = None, func: str = "concordance_index") -> tuple:
    """``(time, event, risk, w, strata_codes, clusters)`` validated: times finite and
    non-negative, events booleans or 0/1, risks finite reals, one value of each per row."""
    t = check_scores(time, name="time")
    if t.shape[0] == 0:
        raise ValueError(f"{func} got an empty sample: 'time' has no values.")
    if (t < 0).any():
        raise ValueError(f"The 'time' parameter of {func} must hold non-negative times. Got {int((t < 0).sum())} "
                         f"negative value(s), the first at row {int(np.flatnonzero(t < 0)[0])}.")
    n = t.shape[0]
    e = to_numpy(event, "event")
    _same_length(n, e.shape[0], "event")
    if e.dtype.kind == "b":
        ev = e.astype(bool)
    else:
        try:
            ef = e.astype(np.float64)
        except (TypeError, ValueError):
            raise ValueError(f"The 'event' parameter of {func} must hold booleans or 0/1 (1: the event happened, "
                             f"0: censored). Got values of dtype {e.dtype}.") from None
        bad = ~np.isin(ef, (0.0, 1.0))
        if bad.any():
            raise ValueError(f"The 'event' parameter of {func} must hold booleans or 0/1 (1: the event happened, "
                             f"0: censored). Got {ef[bad][:3].tolist()} at rows {np.flatnonzero(bad)[:3].tolist()}.")
        ev = ef == 1.0
    r = check_scores(risk, name="risk")
    _same_length(n, r.shape[0], "risk")
    w = check_sample_weight(sample_weight, n)
    codes = None if strata is None else check_groups(strata, n, func, name="strata", unit="stratum")[0]
    clus = check_clusters(clusters, n, func)
    return t.astype(np.float64), ev, r.astype(np.float64), w, codes, clus


def concordance_index(time, event, risk, *, strata=None, sample_weight=None) -> float:
    r"""Harrell's concordance index: of two subjects, how often the one whose event came first
    had the higher risk.

    Parameters
    ----------
    time : array-like of shape (n,)
        Follow-up times (non-negative).
    event : array-like of shape (n,)
        True (or 1) where the follow-up ended in the event, False (0) where censored.
    risk : array-like of shape (n,)
        Risk scores: **higher = earlier event**.
    strata : array-like of shape (n,), optional
        Only pairs within a stratum count.
    sample_weight : array-like of shape (n,), optional
        Frequency weights: a pair weighs ``w_i w_j``.

    Returns
    -------
    float
        nan (with an :class:`rankwise.UndefinedMetricWarning`) when no pair is comparable.

    Notes
    -----
    A pair ``(i, j)`` is comparable when ``t_i < t_j`` and ``i`` had the event, or
    ``t_i = t_j``, ``i`` had the event and ``j`` was censored (the event came first); two
    events at the same time are not comparable. It counts 1 when ``r_i > r_j``, 1/2 when the
    risks tie, 0 otherwise:

    .. math:: C = \frac{\sum_{(i, j)\ \mathrm{comparable}} w_i w_j\, \psi(r_i, r_j)}
                       {\sum_{(i, j)\ \mathrm{comparable}} w_i w_j}

    These are R survival's defaults (``concordance(Surv(time, event) ~ risk, reverse =
    TRUE)``; Therneau & Atkinson, "Concordance", survival package vignette) and Harrell,
    Lee & Mark (1996), "Multivariable prognostic models", Statistics in Medicine 15. With
    no censoring it is ``rankwise.ranking_risk(time, risk)``, the ranking risk of
    Clémençon, Lugosi & Vayatis (2008) with the times as labels. O(n log n) with numba
    installed (two sweeps of a Fenwick tree over the risk ranks), O(n log^2 n) without.

    Examples
    --------
    >>> import rankwise as rw
    >>> rw.survival.concordance_index([2, 4, 5, 7], [1, 1, 0, 1], [0.9, 0.3, 0.5, 0.1])
    0.8

    The comparable pairs start from an event: (2, 4), (2, 5), (2, 7), (4, 5), (4, 7); all
    but (4, 5) have the earlier time with the higher risk.
    """
    t, ev, r, w, codes, _ = check_survival(time, event, risk, sample_weight, strata, None, "concordance_index")
    N, D, _, _ = concordance_counts(t, ev, r, w, codes)
    if not D > 0:
        warnings.warn("concordance_index is undefined because no pair is comparable (no event before another "
                      "follow-up ended); returning nan.", UndefinedMetricWarning, stacklevel=2)
        return float("nan")
    return float(N / D)


@dataclass(frozen=True, kw_only=True)
class ConcordanceEstimate:
    """Harrell's C with its standard error (:func:`estimate`).

    Attributes
    ----------
    value : float
    std_error : float
        Infinitesimal jackknife (over clusters with ``clusters``).
    n, n_events : float
        Rows and events (masses with weights).
    comparable : float
        Weight of the comparable pairs (their number without weights).
    n_strata, n_clusters : int or None
    """

    value: float
    std_error: float
    n: float
    n_events: float
    comparable: float
    n_strata: int | None = None
    n_clusters: int | None = None
    criterion: str = "concordance"
    method: str = "ij"

    def confidence_interval(self, confidence_level: float = 0.95, *, transform: str | None = None
                            ) -> ConfidenceInterval:
        """Normal interval ``C -/+ z se`` clipped to [0, 1], or built on the logit scale."""
        level = check_level(confidence_level, "confidence_interval")
        if transform is not None:
            check_choice(transform, "transform", "confidence_interval", ("logit",))
        if not (np.isfinite(self.value) and np.isfinite(self.std_error)):
            return ConfidenceInterval(float("nan"), float("nan"), level, "ij", "wald", transform, None,
                                      self.std_error)
        lo, hi = normal_interval(self.value, self.std_error, level, transform, (0.0, 1.0))
        return ConfidenceInterval(lo, hi, level, "ij", "wald", transform, None, self.std_error)

    def summary(self) -> str:
        lo, hi = self.confidence_interval()
        extra = "".join([f", {self.n_strata} strata" if self.n_strata else "",
                         f", standard error over {self.n_clusters} clusters" if self.n_clusters else ""])
        return (f"concordance (Harrell's C; higher risk = earlier event) = {fmt(self.value)}, std err "
                f"{fmt(self.std_error)} (infinitesimal jackknife), 95% CI [{fmt(lo)}, {fmt(hi)}]\n"
                f"n = {fmt_count(self.n)}, events = {fmt_count(self.n_events)}, comparable pairs = "
                f"{fmt_count(self.comparable)}{extra}")

    def __str__(self) -> str:
        return self.summary()

    def _repr_html_(self) -> str:
        return "<pre>" + html.escape(self.summary()) + "</pre>"


def estimate(time, event, risk, *, strata=None, sample_weight=None, clusters=None) -> ConcordanceEstimate:
    r"""Harrell's concordance index with its standard error.

    Parameters
    ----------
    time, event, risk, strata, sample_weight
        As in :func:`concordance_index`.
    clusters : array-like of shape (n,), optional
        The sampling unit of each row (several rows per patient...): the variance is taken
        over clusters.

    Returns
    -------
    ConcordanceEstimate

    Notes
    -----
    The infinitesimal jackknife: with ``N`` and ``D`` the numerator and denominator of
    :func:`concordance_index`, ``dN_k`` and ``dD_k`` the weighted count and the weight of
    the comparable pairs that hold row ``k`` (the other row's weight), each row's influence
    is ``u_k = w_k (dN_k - C dD_k) / D`` (the derivative of ``C`` in ``w_k``, times ``w_k``)
    and :math:`\widehat{\mathrm{Var}}(C) = \sum_k u_k^2`, or with clusters
    :math:`\sum_g (\sum_{k \in g} u_k)^2`. This is the ``var`` of R survival's
    ``concordance`` (equal to it to 1e-10 in the tests, with strata, weights and clusters).

    Examples
    --------
    >>> import rankwise as rw
    >>> e = rw.survival.estimate([2, 4, 5, 7], [1, 1, 0, 1], [0.9, 0.3, 0.5, 0.1])
    >>> round(e.value, 4), round(e.std_error, 4)
    (0.8, 0.204)

    R survival's ``concordance(Surv(time, event) ~ risk, reverse = TRUE)`` gives 0.8 and
    ``sqrt(var)`` 0.2039608 on these rows.
    """
    t, ev, r, w, codes, clus = check_survival(time, event, risk, sample_weight, strata, clusters, "estimate")
    N, D, dN, dD = concordance_counts(t, ev, r, w, codes)
    wt = np.ones(t.shape[0]) if w is None else w
    common = dict(n=float(wt.sum()), n_events=float(wt[ev].sum()), comparable=float(D),
                  n_strata=None if codes is None else int(codes.max()) + 1,
                  n_clusters=None if clus is None else int(clus[1]))
    if not D > 0:
        warnings.warn("estimate: the concordance is undefined because no pair is comparable; returning nan.",
                      UndefinedMetricWarning, stacklevel=2)
        return ConcordanceEstimate(value=float("nan"), std_error=float("nan"), **common)
    C = N / D
    u = wt * (dN - C * dD) / D
    var = float(np.dot(u, u)) if clus is None else float(np.sum(np.bincount(clus[0], weights=u,
                                                                              minlength=clus[1]) ** 2))
    return ConcordanceEstimate(value=float(C), std_error=float(np.sqrt(var)), **common)


def compare(time, event, risks, *, names=None, strata=None, sample_weight=None, clusters=None, reference=None,
            adjust: str = "holm", alternative: str = "two-sided", confidence_level: float = 0.95):
    r"""Several risk scores' concordance on the same rows, compared.

    Parameters
    ----------
    time, event, strata, sample_weight, clusters
        As in :func:`estimate`.
    risks : dict, DataFrame, list of arrays or 2-D array
        Two or more risk scores (higher = earlier event), one per column.
    names, reference, adjust, alternative, confidence_level
        As in :func:`rankwise.stats.compare`.

    Returns
    -------
    rankwise.stats.Comparison
        The K concordances, their joint covariance, every pairwise difference (or each
        against ``reference``) with its test, interval and adjusted p-value, and the Wald
        test that all K are equal.

    Notes
    -----
    The joint covariance is the infinitesimal jackknife's: with ``u^a_k`` row ``k``'s
    influence on scorer ``a``'s C (:func:`estimate`), ``Cov(C_a, C_b) = sum_k u^a_k u^b_k``
    (sums over clusters first with ``clusters``), the covariance R survival's
    ``concordance(fit_a, fit_b)`` reports.

    Examples
    --------
    >>> import rankwise as rw
    >>> c = rw.survival.compare([2, 4, 5, 7, 9], [1, 1, 0, 1, 1],
    ...                         {"a": [0.9, 0.3, 0.5, 0.1, 0.0], "b": [0.1, 0.3, 0.5, 0.9, 0.2]})
    >>> [round(float(v), 4) for v in c.values]
    [0.875, 0.25]

    Eight pairs are comparable (from the events at 2, 4 and 7 to every later row); ``a``
    orders 7 of them right, ``b`` 2.
    """
    from ..stats.blocks import build_comparison, score_columns

    cols, labels = score_columns(risks, names)
    level = check_level(confidence_level, "compare")
    t, ev, r0, w, codes, clus = check_survival(time, event, cols[0], sample_weight, strata, clusters, "compare")
    wt = np.ones(t.shape[0]) if w is None else w
    U, values = [], []
    for k, col in enumerate(cols):
        r = r0 if k == 0 else check_scores(col, name=labels[k]).astype(np.float64)
        _same_length(t.shape[0], r.shape[0], labels[k])
        N, D, dN, dD = concordance_counts(t, ev, r, w, codes)
        if not D > 0:
            warnings.warn("compare: the concordance is undefined because no pair is comparable; returning nan.",
                          UndefinedMetricWarning, stacklevel=2)
            values.append(float("nan"))
            U.append(np.full(t.shape[0], np.nan))
            continue
        C = N / D
        values.append(float(C))
        U.append(wt * (dN - C * dD) / D)
    U = np.column_stack(U)
    if clus is not None:
        U = np.column_stack([np.bincount(clus[0], weights=U[:, k], minlength=clus[1]) for k in range(U.shape[1])])
    cov = U.T @ U
    return build_comparison("concordance", {}, labels, np.array(values), cov, "ij", True, adjust, level,
                            reference=reference, alternative=alternative, bounds=[(0.0, 1.0)] * len(labels),
                            n_clusters=None if clus is None else int(clus[1]))
