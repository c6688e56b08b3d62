"""Probability scores: the reliability (calibration) curve, the Brier score and the
expected calibration error.

These need scores that are probabilities (in [0, 1]); the ranking criteria do not. The
Brier score and the calibration error are losses (lower is better). Unlike the ranking
criteria they are defined with one class only (the Brier score of a sample of negatives
is the mean squared probability), as in scikit-learn. Definitions, scikit-learn's bin
conventions and the intervals: ``docs/calibration.md``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._labels import check_sample
from .._validation import check_choice, check_param

__all__ = [
    "CalibrationCurve",
    "calibration_curve",
    "brier_score",
    "brier_value",
    "expected_calibration_error",
    "check_probability_inputs",
    "calibration_bins",
    "bin_totals",
    "proportion_interval",
    "calibration_error",
    "curve_from_rows",
    "check_bins",
    "inverted_cdf",
]

STRATEGIES = ("uniform", "quantile")
INTERVALS = ("wilson", "jeffreys")


def check_probability_inputs(y_true, y_prob, sample_weight, pos_label, func: str):
    """``(is_pos, p, w, scale)``: binary labels, probabilities as float64 in [0, 1], the
    weights (None, or divided by the power of two ``scale``, as
    :func:`rankwise._validation.scale_weights`)."""
    x = check_sample(y_true, y_prob, sample_weight=sample_weight, pos_label=pos_label, func=func, score_name="y_prob")
    p = x.scores.astype(np.float64, copy=False)
    lo, hi = float(p.min()), float(p.max())
    if lo < 0.0 or hi > 1.0:
        raise ValueError(
            f"The 'y_prob' argument of {func} must hold probabilities in [0, 1]. Got values from {lo:.6g} "
            f"to {hi:.6g} instead; ranking criteria (rw.auc, rw.evaluate, ...) need no probabilities.")
    is_pos, w, scale = x.labels, x.weights, x.weight_scale
    if w is not None and not w.any():
        raise ValueError(f"The 'sample_weight' argument of {func} is 0 for every row; at least one weight "
                         f"must be positive.")
    return is_pos, p, w, scale


#: The most bins a calibration function takes: each bin costs a few float64 per array
#: (edges, totals), so 10^6 bins are tens of MB whatever the sample; more is refused with
#: the bound named rather than allocated (10^9 bins were 7.5 GiB for 4 rows).
MAX_BINS = 1_000_000


def check_bins(n_bins, strategy, func: str) -> tuple[int, str]:
    """``(n_bins, strategy)`` checked for ``func`` (``1 <= n_bins <= MAX_BINS``)."""
    n_bins = check_param(n_bins, "n_bins", func, low=1, integer=True)
    if n_bins > MAX_BINS:
        raise ValueError(f"The 'n_bins' parameter of {func} must be at most {MAX_BINS} (empty bins cost memory "
                         f"whatever the sample). Got {n_bins} instead.")
    return n_bins, check_choice(strategy, "strategy", func, STRATEGIES)


def inverted_cdf(levels: np.ndarray, mass: np.ndarray, q: np.ndarray, den: float = 1.0) -> np.ndarray:
    """Weighted quantiles by the inverted cdf: for each ``q / den``, the smallest of the
    sorted ``levels`` whose cumulative share of ``mass`` reaches it (numpy's
    ``method="inverted_cdf"``; Hyndman & Fan's type 1). Levels of zero mass are skipped.
    The bins' ``k / n_bins`` are passed as ``q = k``, ``den = n_bins``: the target
    ``k * total / n_bins`` is then exact whenever it equals a cumulative mass, where
    ``np.linspace``'s 0.6000000000000001 would skip the level that reaches 3/5."""
    keep = mass > 0
    levels, mass = levels[keep], mass[keep]
    cum = np.cumsum(mass)
    idx = np.searchsorted(cum, np.asarray(q, dtype=np.float64) * cum[-1] / den, side="left")
    return levels[np.minimum(idx, levels.shape[0] - 1)]


def calibration_bins(p: np.ndarray, w: np.ndarray | None, n_bins: int, strategy: str) -> tuple[np.ndarray, np.ndarray]:
    """``(bin_edges, bin of each row)`` with scikit-learn's conventions.

    ``"uniform"``: ``n_bins`` equal bins over [0, 1]. ``"quantile"``: the edges are the
    ``k / n_bins`` quantiles of ``p`` (``np.percentile``'s linear interpolation without
    weights, as scikit-learn; the inverted weighted cdf with weights). A row goes to the
    bin ``k`` with ``edges[k] < p <= edges[k + 1]`` (the first bin also holds
    ``p = edges[0]``): ``searchsorted(edges[1:-1], p, side="left")``, scikit-learn's rule.
    Tied quantiles give repeated edges and empty bins; no sort of ``p`` is needed
    (``np.percentile`` partitions)."""
    if strategy == "uniform":
        edges = np.linspace(0.0, 1.0, n_bins + 1)
    elif w is None:
        edges = np.percentile(p, np.linspace(0, 1, n_bins + 1) * 100)
    else:
        order = np.argsort(p, kind="stable")
        edges = inverted_cdf(p[order], w[order], np.arange(n_bins + 1), n_bins)
    return edges, np.searchsorted(edges[1:-1], p, side="left")


def bin_totals(is_pos, p, w, rows_bin, n_bins):
    """Per-bin ``(mass, sum of w p, positive mass, sum of w^2)``: four ``bincount``."""
    if w is None:
        mass = np.bincount(rows_bin, minlength=n_bins).astype(np.float64)
        return (mass, np.bincount(rows_bin, weights=p, minlength=n_bins),
                np.bincount(rows_bin, weights=is_pos.astype(np.float64), minlength=n_bins), mass)
    return (np.bincount(rows_bin, weights=w, minlength=n_bins),
            np.bincount(rows_bin, weights=w * p, minlength=n_bins),
            np.bincount(rows_bin, weights=np.where(is_pos, w, 0.0), minlength=n_bins),
            np.bincount(rows_bin, weights=w * w, minlength=n_bins))


def proportion_interval(p_hat: np.ndarray, n: np.ndarray, confidence_level: float, method: str):
    """``(lower, upper)``: the Wilson score or the Jeffreys interval for binomial proportions
    ``p_hat`` out of ``n`` trials (``n`` need not be an integer: an effective sample size);
    nan where ``n`` is 0."""
    from scipy import special

    p_hat = np.asarray(p_hat, dtype=np.float64)
    n = np.asarray(n, dtype=np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        if method == "wilson":
            z = special.ndtri(0.5 + confidence_level / 2.0)
            z2n = z * z / n
            centre = (p_hat + z2n / 2.0) / (1.0 + z2n)
            half = z / (1.0 + z2n) * np.sqrt(p_hat * (1.0 - p_hat) / n + z2n / (4.0 * n))
            lo, hi = np.maximum(centre - half, 0.0), np.minimum(centre + half, 1.0)
        else:
            x = p_hat * n
            a = (1.0 - confidence_level) / 2.0
            lo = np.where(p_hat > 0, special.betaincinv(x + 0.5, n - x + 0.5, a), 0.0)
            hi = np.where(p_hat < 1, special.betaincinv(x + 0.5, n - x + 0.5, 1.0 - a), 1.0)
    empty = ~(n > 0)
    return np.where(empty, np.nan, lo), np.where(empty, np.nan, hi)


@dataclass(frozen=True)
class CalibrationCurve:
    """The reliability diagram's data: one entry per bin (empty bins included).

    Attributes
    ----------
    mean_predicted : ndarray of shape (n_bins,)
        Mean predicted probability in each bin (weighted); nan for an empty bin.
    fraction_positive : ndarray of shape (n_bins,)
        Share of positives in each bin (weighted); nan for an empty bin.
    count : ndarray of shape (n_bins,)
        Number of rows (total weight) in each bin.
    effective_count : ndarray of shape (n_bins,)
        Kish's effective sample size ``(sum w)^2 / sum w^2`` of each bin: ``count``
        without weights.
    lower, upper : ndarray of shape (n_bins,)
        Interval for the bin's fraction of positives at ``confidence_level``.
    bin_edges : ndarray of shape (n_bins + 1,)
    confidence_level : float
    interval : str
        ``"wilson"`` or ``"jeffreys"``.
    strategy : str

    scikit-learn's ``calibration_curve`` returns ``fraction_positive[count > 0]`` and
    ``mean_predicted[count > 0]``.
    """

    mean_predicted: np.ndarray
    fraction_positive: np.ndarray
    count: np.ndarray
    effective_count: np.ndarray
    lower: np.ndarray
    upper: np.ndarray
    bin_edges: np.ndarray
    confidence_level: float
    interval: str
    strategy: str

    @property
    def nonempty(self) -> np.ndarray:
        """Boolean mask of the bins that hold data."""
        return self.count > 0


def calibration_curve(y_true, y_prob, *, n_bins: int = 10, strategy: str = "uniform", sample_weight=None,
                      pos_label=None, confidence_level: float = 0.95, interval: str = "wilson") -> CalibrationCurve:
    r"""The reliability curve: observed share of positives against mean predicted
    probability, by bin of predicted probability.

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Binary labels (as :func:`rankwise.auc`; ``pos_label`` names the positive class).
    y_prob : array-like of shape (n,)
        Predicted probabilities of the positive class, in [0, 1] (read as float64).
    n_bins : int, default 10
        Number of bins, from 1 to 10^6 (``MAX_BINS``; more is refused, not allocated).
    strategy : {"uniform", "quantile"}
        ``"uniform"``: equal-width bins over [0, 1]. ``"quantile"``: edges at the
        ``k / n_bins`` quantiles of ``y_prob``, so that bins hold about equal numbers of
        rows.
    sample_weight : array-like of shape (n,), optional
    pos_label : label, optional
    confidence_level : float in (0, 1), default 0.95
        Of the per-bin intervals.
    interval : {"wilson", "jeffreys"}
        The interval for each bin's binomial proportion.

    Returns
    -------
    CalibrationCurve
        Per-bin ``mean_predicted``, ``fraction_positive``, ``count``,
        ``effective_count``, ``lower``, ``upper``, and ``bin_edges``.

    Notes
    -----
    Bin ``k`` holds the rows with ``edges[k] < p <= edges[k + 1]`` (the first bin also
    ``p = edges[0]``); its point is :math:`(\bar p_k, \bar o_k)` with
    :math:`\bar p_k = \sum_{i \in k} w_i p_i / \sum_{i \in k} w_i` and
    :math:`\bar o_k = \sum_{i \in k} w_i y_i / \sum_{i \in k} w_i`. A calibrated score lies
    on the diagonal (Niculescu-Mizil & Caruana 2005, "Predicting good probabilities with
    supervised learning").

    **scikit-learn**: the same bins, edges and points as
    ``sklearn.calibration.calibration_curve(y, p, n_bins=..., strategy=...)``, which
    returns the non-empty bins only (``fraction_positive[count > 0]``,
    ``mean_predicted[count > 0]``). The edges are its floats: ``np.linspace(0, 1,
    n_bins + 1)`` (the third of five edges is 0.6000000000000001, so a probability 0.6
    falls in the third bin) and ``np.percentile(y_prob, 100 k / n_bins)`` (linear
    interpolation). Tied probabilities give repeated quantile edges, hence empty bins, as
    there; and numpy's interpolation can round an edge just below a tied value (0.21875 -
    2.8e-17 between 0.2 and a pair at 0.21875), which then goes to the bin above, in both
    libraries.
    With ``sample_weight`` (which scikit-learn's function does not take) the quantile
    edges are the weighted quantiles of the inverted cdf (the smallest ``p`` whose
    weighted cdf reaches ``k / n_bins``), which do not change when the weights are
    scaled; so unit weights can give other quantile edges than no weights.

    **Intervals**: Wilson's score interval (Wilson 1927, "Probable inference, the law of
    succession, and statistical inference") by default: it stays in [0, 1], is not
    degenerate at 0 or ``n`` positives, and its coverage is close to nominal down to
    small bins, where the Wald interval fails (Brown, Cai & DasGupta 2001, "Interval
    estimation for a binomial proportion"). ``"jeffreys"`` gives the equal-tailed
    ``Beta(x + 1/2, n - x + 1/2)`` interval (lower end 0 at ``x = 0``, upper 1 at
    ``x = n``), of similar quality. With weights, ``n`` is the bin's effective sample
    size (Kish) :math:`(\sum w)^2 / \sum w^2` and ``x = \bar o_k n``: weights are read
    as sampling weights, so integer weights are not the same as repeated rows for the
    intervals (they are for the points).

    Examples
    --------
    >>> import rankwise as rw
    >>> c = rw.calibration_curve([0, 0, 1, 1, 1], [0.1, 0.3, 0.35, 0.8, 0.9], n_bins=2)
    >>> c.mean_predicted.round(4).tolist(), c.fraction_positive.round(4).tolist()
    ([0.25, 0.85], [0.3333, 1.0])
    >>> c.count.tolist()
    [3.0, 2.0]
    """
    n_bins, strategy = check_bins(n_bins, strategy, "calibration_curve")
    level = check_param(confidence_level, "confidence_level", "calibration_curve", low=0.0, high=1.0,
                        low_inclusive=False, high_inclusive=False)
    check_choice(interval, "interval", "calibration_curve", INTERVALS)
    is_pos, p, w, scale = check_probability_inputs(y_true, y_prob, sample_weight, pos_label, "calibration_curve")
    edges, rows_bin = calibration_bins(p, w, n_bins, strategy)
    return curve_from_rows(is_pos, p, w, scale, edges, rows_bin, strategy, level, interval)


def curve_from_rows(is_pos, p, w, scale, edges, rows_bin, strategy, level, interval) -> CalibrationCurve:
    """:func:`calibration_curve` on validated arrays, binned by :func:`calibration_bins`."""
    mass, sum_p, sum_pos, sum_w2 = bin_totals(is_pos, p, w, rows_bin, edges.shape[0] - 1)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean_p = np.where(mass > 0, sum_p / mass, np.nan)
        frac = np.where(mass > 0, sum_pos / mass, np.nan)
        n_eff = np.where(mass > 0, mass * mass / sum_w2, 0.0) if w is not None else mass
    lo, hi = proportion_interval(frac, n_eff, level, interval)
    return CalibrationCurve(mean_p, frac, mass * scale, n_eff, lo, hi, edges, level, interval, strategy)


def brier_score(y_true, y_prob, *, sample_weight=None, pos_label=None) -> float:
    r"""The Brier score: the mean squared difference between probability and outcome.

    Notes
    -----
    .. math:: \mathrm{BS} = \frac{\sum_i w_i (p_i - y_i)^2}{\sum_i w_i}, \qquad y_i \in \{0, 1\}

    (Brier 1950, "Verification of forecasts expressed in terms of probability"). A loss:
    0 is perfect, 0.25 is the score of a constant 1/2. The same number as scikit-learn's
    ``brier_score_loss(y, p, sample_weight=w, pos_label=...)``. Defined with one class
    present. Its decomposition and its
    interval: :func:`rankwise.stats.brier_decomposition`,
    :func:`rankwise.stats.calibration`.

    Examples
    --------
    >>> import rankwise as rw
    >>> round(rw.brier_score([0, 1, 1, 0], [0.1, 0.9, 0.8, 0.3]), 10)   # (0.01 + 0.01 + 0.04 + 0.09) / 4
    0.0375
    """
    is_pos, p, w, _ = check_probability_inputs(y_true, y_prob, sample_weight, pos_label, "brier_score")
    return brier_value(is_pos, p, w)


def brier_value(is_pos: np.ndarray, p: np.ndarray, w: np.ndarray | None) -> float:
    """The Brier score of validated inputs: one summation order for every caller (the
    metric, the decomposition, the summary), so they agree to the last bit."""
    err = (p - is_pos) ** 2
    if w is None:
        return float(err.mean())
    return float(np.dot(w, err) / w.sum())


def expected_calibration_error(y_true, y_prob, *, n_bins: int = 10, strategy: str = "uniform", norm: str = "l1",
                               sample_weight=None, pos_label=None) -> float:
    r"""The expected calibration error: the mean gap between the reliability curve and the
    diagonal, each bin weighted by its share of the sample.

    Parameters
    ----------
    n_bins, strategy
        The bins, as :func:`calibration_curve`.
    norm : {"l1", "max"}
        ``"l1"``: the expected calibration error (ECE); ``"max"``: the largest gap over the
        non-empty bins, the maximum calibration error (MCE).

    Notes
    -----
    .. math:: \mathrm{ECE} = \sum_k \frac{W_k}{W}\,\lvert \bar o_k - \bar p_k \rvert,
              \qquad \mathrm{MCE} = \max_{k: W_k > 0} \lvert \bar o_k - \bar p_k \rvert

    with :math:`W_k` the mass of bin ``k`` and :math:`\bar o_k`, :math:`\bar p_k` as in
    :func:`calibration_curve` (Naeini, Cooper & Hauskrecht 2015, "Obtaining well
    calibrated probabilities using Bayesian binning"). A loss in [0, 1]. It depends on the
    bins, and it is biased upward: a perfectly calibrated score has ECE > 0 in any finite
    sample (each bin's sampling noise adds to the gap). Its bootstrap interval:
    :func:`rankwise.stats.calibration`.

    Examples
    --------
    Two bins: [0.1, 0.3, 0.35] with 1/3 positive and mean 0.25; [0.8, 0.9] all positive
    with mean 0.85. ECE = 3/5 * (1/3 - 1/4) + 2/5 * 0.15 = 0.11.

    >>> import rankwise as rw
    >>> round(rw.expected_calibration_error([0, 0, 1, 1, 1], [0.1, 0.3, 0.35, 0.8, 0.9], n_bins=2), 6)
    0.11
    """
    n_bins, strategy = check_bins(n_bins, strategy, "expected_calibration_error")
    check_choice(norm, "norm", "expected_calibration_error", ("l1", "max"))
    is_pos, p, w, _ = check_probability_inputs(y_true, y_prob, sample_weight, pos_label,
                                               "expected_calibration_error")
    _, rows_bin = calibration_bins(p, w, n_bins, strategy)
    mass, sum_p, sum_pos, _ = bin_totals(is_pos, p, w, rows_bin, n_bins)
    return calibration_error(mass, sum_p, sum_pos, norm)


def calibration_error(mass, sum_p, sum_pos, norm: str):
    """ECE (``"l1"``) or MCE (``"max"``) from per-bin totals; the bins run along the last
    axis (a batch of resamples is a 2-d array). nan where the total mass is 0."""
    with np.errstate(invalid="ignore", divide="ignore"):
        if norm == "l1":
            out = np.abs(sum_pos - sum_p).sum(axis=-1) / mass.sum(axis=-1)
        else:
            gap = np.where(mass > 0, np.abs(sum_pos - sum_p) / np.where(mass > 0, mass, 1.0), -np.inf)
            out = np.max(gap, axis=-1)
            out = np.where(np.isfinite(out), out, np.nan)
    return float(out) if np.ndim(out) == 0 else out
