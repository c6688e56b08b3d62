"""Inference for criteria of real-valued labels (``ranking_risk``): the Hoeffding
decomposition of a U-statistic (Clémençon, Lugosi & Vayatis 2008)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .._validation import (
    check_clusters,
    check_real_labels,
    check_same_length,
    check_sample_weight,
    check_scores,
    scale_weights,
)
from ._results import fmt, fmt_count, format_rows

__all__ = ["RiskDecomposition", "pair_parts", "pair_inputs"]


@dataclass(frozen=True)
class RiskDecomposition:
    r"""The Hoeffding decomposition of the empirical ranking risk (Clémençon, Lugosi & Vayatis 2008).

    :math:`L_n - L = 2 T_n + W_n` with :math:`T_n = \frac1n \sum_i h_1(Z_i)` an i.i.d.
    average (:math:`h_1(z) = E\,q(z, Z') - L`) and :math:`W_n` a degenerate U-statistic.
    With :math:`\zeta_1 = \mathrm{Var}\,h_1(Z)` and :math:`\zeta_2 = \mathrm{Var}\,q(Z, Z')`:
    :math:`\mathrm{Var}(2T_n) = 4\zeta_1/n`, :math:`\mathrm{Var}(W_n) = 2(\zeta_2 - 2\zeta_1)/(n(n-1))`,
    :math:`\mathrm{Var}(L_n) = [4(n-2)\zeta_1 + 2\zeta_2]/(n(n-1))`.

    Attributes
    ----------
    value : float
    n : float
        Sample size (total weight).
    projection : ndarray of shape (n,)
        :math:`\hat h_1(Z_i)`, in input order: the row mean of the pair kernel minus the
        estimate (for ``pairs="comparable"``, of the linearised ratio kernel).
    zeta1, zeta2 : float
        Plug-in estimates.
    var_linear, var_degenerate, variance : float
        The variances of ``2 T_n``, of ``W_n`` and of ``L_n``.

    Notes
    -----
    ``h_1`` is estimated by the row means of the kernel minus ``L_n``, so the empirical
    ``T_n`` is 0 by construction and the empirical ``W_n`` is 0 too: what the sample tells
    is the *size* of each part. ``var_degenerate`` is small next to ``var_linear``
    (order ``1/n^2`` against ``1/n``) unless ``zeta1`` is near 0, which is the case paper
    001's fast rates exploit (the degenerate part then dominates). Plug-in ``zeta``'s can
    make ``var_degenerate`` slightly negative in small samples; the total ``variance`` is
    floored at 0 in ``std_error``.
    """

    value: float
    n: float
    pairs: str
    projection: np.ndarray = field(repr=False)
    weights: Any = field(repr=False)
    zeta1: float
    zeta2: float

    @property
    def var_linear(self) -> float:
        return 4.0 * self.zeta1 / self.n if self.n > 1 else float("nan")

    # Divisions one factor at a time: n (n - 1) overflows for frequency weights near 1e154.
    @property
    def var_degenerate(self) -> float:
        n = self.n
        if not n > 1:
            return float("nan")
        return 2.0 * (self.zeta2 - 2.0 * self.zeta1) / n / (n - 1.0)

    @property
    def variance(self) -> float:
        n = self.n
        if not n > 1:
            return float("nan")
        return (4.0 * (n - 2.0) / n * self.zeta1 + 2.0 * self.zeta2 / n) / (n - 1.0)

    def std_error(self, method: str = "hoeffding") -> float:
        v = self.variance if method == "hoeffding" else self.var_linear
        return float(np.sqrt(max(v, 0.0))) if np.isfinite(v) else float("nan")

    def acceleration(self) -> float:
        # Efron's a = sum U^3 / (6 (sum U^2)^1.5) with U = h / n over the observations; it
        # is invariant to a common scale of U, and the weights may be scaled frequency
        # weights (total mass w.sum(), sample size n): a = a(weights) * sqrt(w.sum() / n).
        w = np.ones_like(self.projection) if self.weights is None else self.weights
        u = self.projection
        den = float(np.dot(w, u * u))
        if not den > 0:
            return 0.0
        return float(np.dot(w, u ** 3)) / (6.0 * den ** 1.5) * math.sqrt(float(w.sum()) / self.n)

    def summary(self) -> str:
        rows = [
            ["2 T_n (linear, i.i.d.)", fmt(self.var_linear)],
            ["W_n (degenerate)", fmt(self.var_degenerate)],
            ["L_n (total)", fmt(self.variance)],
        ]
        return "Hoeffding decomposition, variance of each part:\n" + format_rows(["part", "variance"], rows) + (
            f"\nzeta1 = {fmt(self.zeta1)}, zeta2 = {fmt(self.zeta2)}, n = {fmt_count(self.n)}")


def pair_inputs(y_true, y_score, sample_weight, score_name: str = "y_score"):
    """Validated ``(y, s, w, scale)`` for a criterion of real-valued labels: the weights
    divided by the power of two ``scale`` (:func:`rankwise._validation.scale_weights`)."""
    y = check_real_labels(y_true)
    s = check_scores(y_score, name=score_name)
    check_same_length(y.shape[0], s.shape[0], score_name)
    w, scale = scale_weights(check_sample_weight(sample_weight, y.shape[0]))
    return y, s, w, scale


def pair_parts(unit, y_true, y_score, sample_weight, method: str, clusters=None):
    """``(value, std_error, n, decomposition, resampler, acceleration, clusters)`` of a criterion of
    real-valued labels on data, or ``(None, clusters)`` when it is undefined there. With ``clusters``
    (validated here, ``(codes, n_clusters)`` after) the standard error is the Hájek one over
    clusters (the Hoeffding projections summed within each cluster; no decomposition), and
    the bootstrap resamples whole clusters."""
    y, s, w, scale = pair_inputs(y_true, y_score, sample_weight)
    if clusters is not None and not isinstance(clusters, tuple):
        clusters = check_clusters(clusters, y.shape[0], "estimate")
    res = unit.projection_of(y, s, w)
    if res is None:
        return None, clusters
    value, proj, z1, z2, n = res
    n *= scale  # the sample size (frequency weights)
    base = np.ones(y.shape[0]) if w is None else w
    if clusters is None:
        dec = RiskDecomposition(value, n, unit.pairs, proj, w, z1, z2)
        se, accel = dec.std_error(method), dec.acceleration
    else:
        from ._variance import cluster_acceleration, cluster_sums, covariance_from_cluster_sums

        dec = None
        sums = [cluster_sums(proj[:, None], np.arange(y.shape[0]), w, clusters)]
        var = 4.0 * float(covariance_from_cluster_sums(sums, clusters[1], small_sample=False)[0, 0])
        se = float(np.sqrt(var)) if np.isfinite(var) else float("nan")
        a = cluster_acceleration(sums)

        def accel(_a=a):
            return _a

    def resampler(n_resamples, random_state, _y=y, _s=s, _unit=unit, _cl=clusters):
        # Real labels have no class strata: cases (or whole clusters) are resampled from the
        # whole sample. Each resample is a weighted pair count (no rank-table shortcut for 2-D labels).
        rng = np.random.default_rng(random_state)
        nr = _y.shape[0]
        out = np.empty(n_resamples)
        for r in range(n_resamples):
            if _cl is None:
                cnt = np.bincount(rng.integers(0, nr, nr), minlength=nr) * base
            else:
                G = _cl[1]
                cnt = np.bincount(rng.integers(0, G, G), minlength=G)[_cl[0]] * base
            v = _unit.value_of(_y, _s, cnt) if cnt.any() else None
            out[r] = np.nan if v is None else v
        return out

    return value, se, n, dec, resampler, accel, clusters
