"""Inference for paper 001's ranking risk: the Hoeffding decomposition of a U-statistic."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .._kernels import discordant_pairs, discordant_per_element
from .._validation import (
    check_choice,
    check_real_labels,
    check_same_length,
    check_sample_weight,
    check_scores,
    warn_undefined,
)
from ._results import fmt, fmt_count, format_rows

__all__ = ["RiskDecomposition", "estimate_ranking_risk", "risk_projection"]


@dataclass(frozen=True)
class RiskDecomposition:
    r"""The Hoeffding decomposition of the empirical ranking risk (paper 001).

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
        return 4.0 * self.zeta1 / self.n

    @property
    def var_degenerate(self) -> float:
        n = self.n
        return 2.0 * (self.zeta2 - 2.0 * self.zeta1) / (n * (n - 1.0))

    @property
    def variance(self) -> float:
        n = self.n
        return (4.0 * (n - 2.0) * self.zeta1 + 2.0 * self.zeta2) / (n * (n - 1.0))

    def std_error(self, method: str = "hoeffding") -> float:
        v = self.variance if method == "hoeffding" else self.var_linear
        return float(np.sqrt(max(v, 0.0)))

    def acceleration(self) -> float:
        w = np.ones_like(self.projection) if self.weights is None else self.weights
        u = self.projection / self.n
        den = float(np.dot(w, u * u))
        return float(np.dot(w, u ** 3)) / (6.0 * den ** 1.5) if den > 0 else 0.0

    def summary(self) -> str:
        rows = [
            ["2 T_n (linear, i.i.d.)", fmt(self.var_linear)],
            ["W_n (degenerate)", fmt(self.var_degenerate)],
            ["L_n (total)", fmt(self.variance)],
        ]
        return "Hoeffding decomposition, variance of each part:\n" + format_rows(["part", "variance"], rows) + (
            f"\nzeta1 = {fmt(self.zeta1)}, zeta2 = {fmt(self.zeta2)}, n = {fmt_count(self.n)}")


def risk_projection(y: np.ndarray, s: np.ndarray, w: np.ndarray | None, pairs: str):
    """Return ``(value, projection, zeta1, zeta2, n)`` or None if undefined."""
    counts = discordant_pairs(y, s, w)
    denom = counts[pairs]
    if not denom > 0:
        return None
    wt = np.ones(y.shape[0]) if w is None else w
    n = float(wt.sum())
    D, T, allp = counts["discordant"], counts["tied"], counts["all"]
    value = (D + 0.5 * T) / denom
    di = discordant_per_element(y, s, w)
    others = n - wt  # mass of the other observations
    with np.errstate(invalid="ignore", divide="ignore"):
        if pairs == "all":
            g = np.where(others > 0, di / others, 0.0)
            zeta2 = (D + 0.25 * T) / allp - value * value
        else:
            _, inv = np.unique(y, return_inverse=True)
            inv = inv.ravel()
            same = np.bincount(inv, weights=wt)[inv]
            comp = n - same  # mass with a different label
            B = counts["comparable"] / allp
            g = np.where(others > 0, (di - value * comp) / (others * B), 0.0)
            zeta2 = ((D + 0.25 * T) / allp - 2.0 * value * (D + 0.5 * T) / allp + value * value * B) / (B * B)
    gbar = float(np.dot(wt, g) / n)
    proj = g - gbar
    zeta1 = float(np.dot(wt, proj * proj) / n)
    return float(value), proj, zeta1, float(zeta2), n


def estimate_ranking_risk(y_true, y_score, *, sample_weight=None, method: str = "hoeffding",
                          pairs: str = "comparable"):
    from ._estimate import Estimate

    pairs = check_choice(pairs, "pairs", "ranking_risk", ("comparable", "all"))
    y = check_real_labels(y_true)
    s = check_scores(y_score)
    check_same_length(y.shape[0], s.shape[0])
    w = check_sample_weight(sample_weight, y.shape[0])
    res = risk_projection(y, s, w, pairs)
    if res is None:
        nan = warn_undefined("estimate('ranking_risk')", "no pair of observations is comparable")
        return Estimate("ranking_risk", {"pairs": pairs}, nan, nan, method, float("nan"), float("nan"), (0.0, 1.0),
                        w is not None)
    value, proj, z1, z2, n = res
    dec = RiskDecomposition(value, n, pairs, proj, w, z1, z2)

    def resampler(n_resamples, random_state, _y=y, _s=s, _w=w, _pairs=pairs):
        # Real labels have no class strata: cases are resampled from the whole sample.
        # Each resample is a weighted pair count (no rank-table shortcut for 2-D labels).
        rng = np.random.default_rng(random_state)
        nr = _y.shape[0]
        base = np.ones(nr) if _w is None else _w
        out = np.empty(n_resamples)
        for r in range(n_resamples):
            cnt = np.bincount(rng.integers(0, nr, nr), minlength=nr) * base
            c = discordant_pairs(_y, _s, cnt)
            out[r] = (c["discordant"] + 0.5 * c["tied"]) / c[_pairs] if c[_pairs] > 0 else np.nan
        return out

    return Estimate("ranking_risk", {"pairs": pairs}, value, dec.std_error(method), method, n, float("nan"),
                    (0.0, 1.0), w is not None, dec, None, None, resampler)
