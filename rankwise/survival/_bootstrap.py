"""The bootstrap of the concordance index: resamples as frequency weights.

A resample of the rows (or of whole clusters) is the same data with each row's weight
multiplied by the number of times it was drawn, so the estimator runs unchanged on the
original arrays (no copy, no re-validation); with Uno's weights the censoring Kaplan-Meier
is refitted on each resample, so its sampling variation is in the bootstrap distribution
(the infinitesimal jackknife holds it fixed).
"""

from __future__ import annotations

import warnings
from typing import Callable

import numpy as np

__all__ = ["resample_counts", "bootstrap_values", "influence_acceleration"]


def resample_counts(rng: np.random.Generator, n: int, strata: np.ndarray | None, clusters: tuple | None
                    ) -> np.ndarray:
    """How many times each row is drawn in one resample: whole clusters drawn with
    replacement (as many as there are), else rows drawn with replacement within each
    stratum (each stratum keeps its size), else rows."""
    if clusters is not None:
        codes, k = clusters
        picks = np.bincount(rng.integers(0, k, size=k), minlength=k)
        return picks[codes].astype(np.float64)
    if strata is None:
        return np.bincount(rng.integers(0, n, size=n), minlength=n).astype(np.float64)
    counts = np.zeros(n)
    order = np.argsort(strata, kind="stable")
    bounds = np.flatnonzero(np.r_[True, strata[order][1:] != strata[order][:-1], True])
    for a, b in zip(bounds[:-1].tolist(), bounds[1:].tolist()):
        rows = order[a:b]
        np.add.at(counts, rows[rng.integers(0, b - a, size=b - a)], 1.0)
    return counts


def bootstrap_values(value_of: Callable[[np.ndarray], float], w: np.ndarray | None, n: int,
                     strata: np.ndarray | None, clusters: tuple | None, n_resamples: int, rng: np.random.Generator,
                     func: str) -> np.ndarray:
    """``value_of(weights)`` on ``n_resamples`` resamples; a resample where the value is
    undefined (no comparable pair, or a censoring curve at 0 before an event) is left out,
    with a warning saying how many."""
    base = np.ones(n) if w is None else w
    reps = np.empty(n_resamples)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for b in range(n_resamples):
            try:
                reps[b] = value_of(base * resample_counts(rng, n, strata, clusters))
            except ValueError:
                reps[b] = np.nan
    bad = int(np.sum(~np.isfinite(reps)))
    if bad:
        from .._validation import UndefinedMetricWarning

        warnings.warn(f"{func}: the concordance is undefined on {bad} of {n_resamples} bootstrap resamples (no "
                      f"comparable pair, or the censoring curve reaches 0 before an event); they are left out.",
                      UndefinedMetricWarning, stacklevel=3)
    return reps[np.isfinite(reps)]


def influence_acceleration(u: np.ndarray) -> float:
    """The BCa acceleration from the influence terms (per row, or summed per cluster):
    ``sum u^3 / (6 (sum u^2)^(3/2))`` (Efron 1987, with the infinitesimal jackknife's
    influences in place of the jackknife's)."""
    s2 = float(np.dot(u, u))
    return 0.0 if s2 <= 0 else float(np.sum(u ** 3) / (6.0 * s2 ** 1.5))
