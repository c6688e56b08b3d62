"""The score distribution of each class: the data behind a per-class histogram
(``docs/calibration.md``)."""

from __future__ import annotations

import numbers
from dataclasses import dataclass

import numpy as np

from .._kernels import build_rank_table
from .._labels import check_sample
from .._validation import check_param, to_numpy, warn_undefined
from ._calibration import inverted_cdf
from ._curves import roc_points

__all__ = ["ScoreDistributions", "score_distributions"]

DEFAULT_QUANTILES = (0.05, 0.25, 0.5, 0.75, 0.95)


@dataclass(frozen=True)
class ScoreDistributions:
    """Per-class histograms on common bins, quantiles and the Kolmogorov-Smirnov gap.

    Attributes
    ----------
    bin_edges : ndarray of shape (n_bins + 1,)
        Common to both classes.
    count_positive, count_negative : ndarray of shape (n_bins,)
        Mass (weighted count) of each class in each bin.
    density_positive, density_negative : ndarray of shape (n_bins,)
        Each class's histogram as a density: ``count / (class mass * bin width)``,
        integrating to 1 over the bins (nan for a class that is absent).
    quantile_levels : ndarray
        The probabilities of the quantiles.
    quantile_positive, quantile_negative : ndarray
        Each class's score quantiles at ``quantile_levels``.
    ks_statistic : float
        ``max_t |TPR(t) - FPR(t)|`` (:func:`rankwise.ks_statistic`).
    ks_threshold : float
        A threshold where that maximum is reached (the largest such: rows scored
        ``>= ks_threshold`` are called positive).
    n_pos, n_neg : float
        Class masses.
    """

    bin_edges: np.ndarray
    count_positive: np.ndarray
    count_negative: np.ndarray
    density_positive: np.ndarray
    density_negative: np.ndarray
    quantile_levels: np.ndarray
    quantile_positive: np.ndarray
    quantile_negative: np.ndarray
    ks_statistic: float
    ks_threshold: float
    n_pos: float
    n_neg: float


def _check_bins(bins):
    if isinstance(bins, numbers.Integral) and not isinstance(bins, bool):
        return check_param(bins, "bins", "score_distributions", low=1, high=1_000_000, integer=True)
    if isinstance(bins, (str, bytes, bool, numbers.Real)) or bins is None:
        raise TypeError(f"The 'bins' parameter of score_distributions must be an int >= 1 or an increasing "
                        f"array of bin edges. Got {bins!r} instead.")
    edges = np.asarray(to_numpy(bins, "bins"), dtype=np.float64)
    if edges.shape[0] < 2 or not np.isfinite(edges).all() or not (np.diff(edges) > 0).all():
        raise ValueError(f"The 'bins' parameter of score_distributions must be an int >= 1 or an increasing "
                         f"array of at least two finite bin edges. Got {bins!r} instead.")
    return edges


def _check_quantiles(q):
    arr = np.asarray(to_numpy(q, "quantiles"), dtype=np.float64) if not isinstance(q, numbers.Real) else None
    if arr is None or arr.shape[0] == 0 or not ((arr >= 0) & (arr <= 1)).all():
        raise ValueError(f"The 'quantiles' parameter of score_distributions must be a non-empty array of "
                         f"probabilities in [0, 1]. Got {q!r} instead.")
    return arr


def score_distributions(y_true, y_score, *, bins=10, quantiles=DEFAULT_QUANTILES, sample_weight=None,
                        pos_label=None) -> ScoreDistributions:
    r"""The score distribution of each class: histograms on common bins, quantiles, and
    where the two distributions are farthest apart.

    Parameters
    ----------
    y_true, y_score, sample_weight, pos_label
        As in :func:`rankwise.auc`.
    bins : int or array-like of edges, default 10
        An int (at most 10^6): that many equal-width bins from the smallest to the largest score (of
        either class, rows of positive weight). An array: the increasing bin edges.
    quantiles : array-like of probabilities, default (0.05, 0.25, 0.5, 0.75, 0.95)

    Returns
    -------
    ScoreDistributions

    Notes
    -----
    Bins are numpy's: ``[e_k, e_{k+1})``, the last one closed, scores outside the edges
    left out. Without weights the quantiles are numpy's default (linear interpolation
    between order statistics, ``np.quantile(scores_of_class, q)``); with weights, the
    inverted weighted cdf (the smallest score whose class cdf reaches ``q``, numpy's
    ``method="inverted_cdf"``), which does not depend on the scale of the weights, so unit
    weights may give other quantiles than no weights. The Kolmogorov-Smirnov statistic and
    its threshold come from the same rank table as the histograms (one sort). An absent
    class has zero counts and nan densities and quantiles, and the statistic is nan (with
    a warning).

    Examples
    --------
    >>> import rankwise as rw
    >>> d = rw.score_distributions([0, 0, 1, 1], [0.1, 0.2, 0.6, 0.9], bins=[0, 0.5, 1], quantiles=[0.5])
    >>> d.count_positive.tolist(), d.count_negative.tolist(), d.density_positive.tolist()
    ([0.0, 2.0], [2.0, 0.0], [0.0, 2.0])
    >>> d.quantile_positive.tolist(), d.ks_statistic, d.ks_threshold
    ([0.75], 1.0, 0.6)
    """
    edges = _check_bins(bins)
    q = _check_quantiles(quantiles)
    x = check_sample(y_true, y_score, sample_weight=sample_weight, pos_label=pos_label, func="score_distributions")
    is_pos, s, w, scale = x.labels, x.scores, x.weights, x.weight_scale
    t = build_rank_table(is_pos, s, w)
    levels = t.levels.astype(np.float64)
    if not isinstance(edges, np.ndarray):
        edges = np.histogram_bin_edges(levels, bins=edges) if levels.shape[0] else np.linspace(0.0, 1.0, edges + 1)
    pos, neg = t.pos * scale, t.neg * scale  # masses in the caller's units (weights may come scaled)
    n_pos, n_neg = float(pos.sum()), float(neg.sum())
    count_pos = np.histogram(levels, edges, weights=pos)[0]
    count_neg = np.histogram(levels, edges, weights=neg)[0]
    width = np.diff(edges)
    with np.errstate(invalid="ignore", divide="ignore"):
        dens_pos = count_pos / (n_pos * width)
        dens_neg = count_neg / (n_neg * width)
    q_pos = _quantiles(s[is_pos], levels, pos, q, w is not None)
    q_neg = _quantiles(s[~is_pos], levels, neg, q, w is not None)
    if x.defined:
        fps, tps, thr = roc_points(t)
        gap = np.abs(tps / t.n_pos - fps / t.n_neg)
        k = int(np.argmax(gap))
        ks, ks_thr = float(gap[k]), float(thr[k])
    else:
        ks = ks_thr = warn_undefined("score_distributions' ks_statistic")
    return ScoreDistributions(edges, count_pos, count_neg, dens_pos, dens_neg, q, q_pos, q_neg, ks, ks_thr,
                              n_pos, n_neg)


def _quantiles(rows, levels, mass, q, weighted):
    if not mass.sum() > 0:
        return np.full(q.shape[0], np.nan)
    if not weighted:
        return np.quantile(rows.astype(np.float64), q)
    return inverted_cdf(levels, mass, q)
