"""Probability scores with uncertainty: the Brier score with its normal interval and its
decomposition, the expected calibration error with a bootstrap interval, the reliability
curve with per-bin intervals. The decomposition identity and the interval methods:
``docs/calibration.md``."""

from __future__ import annotations

import dataclasses
import warnings
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .._validation import check_choice, check_clusters
from ..metrics import CalibrationCurve
from ..metrics.blocks import (
    bin_totals,
    brier_value,
    calibration_bins,
    calibration_error,
    check_bins,
    check_probability_inputs,
    curve_from_rows,
    proportion_interval,
)
from . import _core
from ._estimate import MIN_CLUSTERS, DegenerateIntervalWarning, FewClustersWarning, warn_few_clusters
from ._variance import term_covariance
from ._results import ConfidenceInterval, fmt, fmt_count, format_rows, html_table

__all__ = ["BrierDecomposition", "CalibrationEstimate", "CalibrationSummary", "brier_decomposition", "calibration"]

_NORMS = {"l1": "expected_calibration_error", "max": "maximum_calibration_error"}


def cluster_line(n_clusters: int) -> str:
    """The line of a summary that says over which clusters the uncertainty was taken."""
    return (f"standard error, bootstrap and bin intervals over {n_clusters} clusters "
            f"(cluster-robust; whole clusters resampled)")


@dataclass(frozen=True)
class BrierDecomposition:
    r"""Murphy's partition of the Brier score over bins of predicted probability, with the
    two within-bin terms that make it exact.

    ``brier_score = reliability - resolution + uncertainty + within_bin_variance
    - within_bin_covariance``, to rounding, for any binning (see
    :func:`brier_decomposition`).

    Attributes
    ----------
    brier_score, reliability, resolution, uncertainty, within_bin_variance, within_bin_covariance : float
    n_bins : int
    strategy : str
    """

    brier_score: float
    reliability: float
    resolution: float
    uncertainty: float
    within_bin_variance: float
    within_bin_covariance: float
    n_bins: int
    strategy: str

    def _rows(self):
        names = ("brier_score", "reliability", "resolution", "uncertainty", "within_bin_variance",
                 "within_bin_covariance")
        signs = ("=", "+", "-", "+", "+", "-")
        return ["term", "sign", "value"], [[n, s, fmt(getattr(self, n), 6)] for n, s in zip(names, signs)]

    def summary(self) -> str:
        """A text table of the terms with the signs of the identity."""
        header, rows = self._rows()
        return (f"Brier score decomposition ({self.n_bins} {self.strategy} bins)\n" + format_rows(header, rows))

    def _repr_html_(self) -> str:
        header, rows = self._rows()
        return html_table(f"Brier score decomposition ({self.n_bins} {self.strategy} bins)", header, rows)

    def __str__(self) -> str:
        return self.summary()


@dataclass(frozen=True)
class CalibrationEstimate:
    """The Brier score or the calibration error of a sample, with its intervals.

    Attributes
    ----------
    name : str
        ``"brier_score"``, ``"expected_calibration_error"`` or
        ``"maximum_calibration_error"``.
    value : float
    std_error : float
        The Brier score's standard error (mean of independent per-row terms, or over
        clusters with ``clusters=``); nan for the calibration errors, whose intervals
        come from the bootstrap only.
    method : str
        The default interval: ``"normal"`` (Brier score) or ``"bootstrap"``.
    n : int
        Rows with a positive weight.
    n_pos, n_neg : float
        Class masses.
    weighted : bool
    n_clusters : int or None
        The number of clusters the standard error and the bootstrap were taken over
        (``clusters=``); None when every row is an independent observation.
    """

    name: str
    value: float
    std_error: float
    method: str
    n: int
    n_pos: float
    n_neg: float
    weighted: bool = False
    n_clusters: int | None = None
    _resampler: Any = field(default=None, repr=False, compare=False)
    _cache: dict = field(default_factory=dict, repr=False, compare=False)

    def confidence_interval(self, confidence_level: float = 0.95, method: str | None = None, *,
                            n_resamples: int = 2000, random_state: Any = None) -> ConfidenceInterval:
        """Confidence interval.

        Parameters
        ----------
        confidence_level : float in (0, 1)
        method : {"normal", "bootstrap"}, optional
            ``"normal"`` (Brier score only, its default): ``value +- z std_error``,
            clipped to [0, 1]. ``"bootstrap"`` (the calibration errors' only method):
            the percentile interval of the class-stratified bootstrap (of the cluster
            bootstrap, whole clusters resampled, with ``clusters=``).
        n_resamples : int
        random_state : int, numpy Generator or None
        """
        level = _core.check_level(confidence_level, "confidence_interval")
        methods = ("normal", "bootstrap") if self.method == "normal" else ("bootstrap",)
        method = check_choice(self.method if method is None else method, "method", "confidence_interval", methods)
        if method == "bootstrap":
            reps = self.bootstrap_distribution(n_resamples, random_state)
            lo, hi = _core.bootstrap_interval(self.value, reps, level, "percentile", 0.0)
            sd = float(np.std(reps[np.isfinite(reps)], ddof=1))
            return ConfidenceInterval(lo, hi, level, "bootstrap", "percentile", None, int(reps.shape[0]), sd)
        if not np.isfinite(self.std_error):
            units = f"{self.n} row(s)" if self.n_clusters is None else "fewer than two clusters holding rows"
            warnings.warn(f"The {self.name} standard error cannot be estimated from {units}; the "
                          f"interval is the whole range [0, 1] and has no coverage guarantee.",
                          DegenerateIntervalWarning, stacklevel=2)
            return ConfidenceInterval(0.0, 1.0, level, "normal", "wald", None, None, self.std_error)
        lo, hi = _core.normal_interval(self.value, self.std_error, level, None, (0.0, 1.0))
        return ConfidenceInterval(lo, hi, level, "normal", "wald", None, None, self.std_error)

    def bootstrap_distribution(self, n_resamples: int = 2000, random_state: Any = None) -> np.ndarray:
        """The quantity on ``n_resamples`` class-stratified resamples (rows resampled with
        replacement within each class; with ``clusters=``, whole clusters resampled with
        replacement). Cached for integer ``random_state``."""
        return _core.cached_draws(self._cache, self._resampler, n_resamples, random_state)

    def _row(self, confidence_level: float, n_resamples: int = 2000, random_state: Any = 0) -> list[str]:
        ci = self.confidence_interval(confidence_level, n_resamples=n_resamples, random_state=random_state)
        how = "normal" if ci.method == "normal" else f"bootstrap (percentile, {ci.n_resamples})"
        return [self.name, fmt(self.value), fmt(ci.std_error), f"[{fmt(ci.low)}, {fmt(ci.high)}]", how]

    def summary(self, confidence_level: float = 0.95, n_resamples: int = 2000, random_state: Any = 0) -> str:
        """The value with its default interval (a bootstrap seeded with ``random_state``;
        one resample costs about one pass over the rows)."""
        header = ["quantity", "value", "std. error", f"{confidence_level:.0%} CI", "method"]
        text = format_rows(header, [self._row(confidence_level, n_resamples, random_state)])
        return text if self.n_clusters is None else text + "\n" + cluster_line(self.n_clusters)

    def __str__(self) -> str:
        return self.summary()


@dataclass(frozen=True)
class CalibrationSummary:
    """A probability score's calibration: the Brier score and the calibration error with
    intervals, the Brier decomposition and the reliability curve.

    Attributes
    ----------
    brier_score : CalibrationEstimate
    calibration_error : CalibrationEstimate
        The expected (``norm="l1"``) or maximum (``norm="max"``) calibration error.
    decomposition : BrierDecomposition
    curve : CalibrationCurve
    """

    brier_score: CalibrationEstimate
    calibration_error: CalibrationEstimate
    decomposition: BrierDecomposition
    curve: CalibrationCurve

    def _parts(self, confidence_level: float, n_resamples: int = 2000, random_state: Any = 0):
        header = ["quantity", "value", "std. error", f"{confidence_level:.0%} CI", "method"]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DegenerateIntervalWarning)
            rows = [self.brier_score._row(confidence_level), self.calibration_error._row(confidence_level,
                                                                                         n_resamples, random_state)]
        b = self.brier_score
        notes = [f"n = {b.n}, positives (mass) = {fmt_count(b.n_pos)}" + (" (weighted)" if b.weighted else ""),
                 f"{self.decomposition.n_bins} {self.decomposition.strategy} bins; the calibration error is "
                 f"biased upward, and so is its bootstrap interval"]
        if b.n_clusters is not None:
            notes.append(cluster_line(b.n_clusters))
        c = self.curve
        curve_rows = [[f"({fmt(c.bin_edges[k], 3)}, {fmt(c.bin_edges[k + 1], 3)}]", fmt_count(c.count[k]),
                       fmt(c.mean_predicted[k]), fmt(c.fraction_positive[k]),
                       f"[{fmt(c.lower[k])}, {fmt(c.upper[k])}]"] for k in range(c.count.shape[0]) if c.count[k] > 0]
        curve_header = ["bin", "count", "mean predicted", "fraction positive", f"{c.confidence_level:.0%} {c.interval}"]
        return header, rows, notes, curve_header, curve_rows

    def summary(self, confidence_level: float = 0.95, n_resamples: int = 2000, random_state: Any = 0) -> str:
        """Text tables: the scores with intervals (the calibration error's bootstrap with
        ``n_resamples`` seeded with ``random_state``; about 0.07 s per resample at 10^6
        rows), the decomposition and the reliability curve's non-empty bins."""
        header, rows, notes, ch, cr = self._parts(confidence_level, n_resamples, random_state)
        return "\n".join(["Calibration", format_rows(header, rows), *notes, "", self.decomposition.summary(), "",
                          "Reliability curve", format_rows(ch, cr)])

    def _repr_html_(self) -> str:
        header, rows, notes, ch, cr = self._parts(0.95)
        return (html_table("Calibration", header, rows, notes) + self.decomposition._repr_html_()
                + html_table("Reliability curve", ch, cr))

    def __str__(self) -> str:
        return self.summary()


def _decompose(is_pos, p, w, rows_bin, n_bins, strategy) -> BrierDecomposition:
    mass, sum_p, sum_pos, _ = bin_totals(is_pos, p, w, rows_bin, n_bins)
    ww = np.ones(p.shape[0]) if w is None else w
    o = is_pos.astype(np.float64)
    total = float(mass.sum())
    base = float(sum_pos.sum()) / total
    with np.errstate(invalid="ignore", divide="ignore"):
        f_k = np.where(mass > 0, sum_p / mass, 0.0)
        o_k = np.where(mass > 0, sum_pos / mass, 0.0)
    rel = float(np.dot(mass, (f_k - o_k) ** 2)) / total
    res = float(np.dot(mass, (o_k - base) ** 2)) / total
    df = p - f_k[rows_bin]
    do = o - o_k[rows_bin]
    wbv = float(np.dot(ww, df * df)) / total
    wbc = 2.0 * float(np.dot(ww, do * df)) / total
    bs = brier_value(is_pos, p, w)
    return BrierDecomposition(bs, rel, res, base * (1.0 - base), wbv, wbc, n_bins, strategy)


def brier_decomposition(y_true, y_prob, *, n_bins: int = 10, strategy: str = "uniform", sample_weight=None,
                        pos_label=None) -> BrierDecomposition:
    r"""The Brier score split into reliability, resolution and uncertainty (Murphy), plus the
    two within-bin terms that make the split exact when predictions vary within a bin.

    Parameters
    ----------
    y_true, y_prob, sample_weight, pos_label
        As in :func:`rankwise.brier_score`.
    n_bins, strategy
        The bins, as :func:`rankwise.calibration_curve`.

    Returns
    -------
    BrierDecomposition

    Notes
    -----
    With bins ``k`` of mass :math:`W_k`, mean prediction :math:`\bar p_k`, share of
    positives :math:`\bar o_k`, overall share :math:`\bar o` and total mass ``W``:

    .. math::

        \mathrm{BS} = \underbrace{\tfrac1W \textstyle\sum_k W_k (\bar p_k - \bar o_k)^2}_{\text{reliability}}
        - \underbrace{\tfrac1W \textstyle\sum_k W_k (\bar o_k - \bar o)^2}_{\text{resolution}}
        + \underbrace{\bar o (1 - \bar o)}_{\text{uncertainty}}
        + \underbrace{\tfrac1W \textstyle\sum_i w_i (p_i - \bar p_{k(i)})^2}_{\text{within-bin variance}}
        - \underbrace{\tfrac2W \textstyle\sum_i w_i (o_i - \bar o_{k(i)})(p_i - \bar p_{k(i)})}_{\text{within-bin covariance}}

    an identity (expand :math:`(p_i - o_i)^2` around the bin means). When every prediction
    in a bin equals the bin's mean (a score with at most ``n_bins`` distinct values, one
    per bin) the last two terms are 0 and this is the partition of Murphy (1973), "A new
    vector partition of the probability score". Otherwise the within-bin terms are those of
    Stephenson, Coelho & Jolliffe (2008), "Two extra components in the Brier score
    decomposition": without them reliability - resolution + uncertainty is not the Brier
    score. Lower reliability is better calibration, higher resolution is better
    discrimination between bins; the uncertainty depends on the base rate only.

    Examples
    --------
    Two bins with constant predictions: 0.2 on [0, 0, 1, 0] and 0.9 on [1, 1].
    Reliability (4 * 0.05^2 + 2 * 0.1^2) / 6 = 0.005, resolution
    (4 * (1/4 - 1/2)^2 + 2 * (1 - 1/2)^2) / 6 = 1/8, uncertainty 1/4, and the Brier
    score (3 * 0.2^2 + 0.8^2 + 2 * 0.1^2) / 6 = 0.13 = 0.005 - 0.125 + 0.25.

    >>> import rankwise as rw
    >>> d = rw.stats.brier_decomposition([0, 0, 1, 0, 1, 1], [0.2, 0.2, 0.2, 0.2, 0.9, 0.9], n_bins=2)
    >>> round(d.reliability, 6), round(d.resolution, 6), d.uncertainty, d.within_bin_variance
    (0.005, 0.125, 0.25, 0.0)
    >>> round(d.brier_score, 6), round(d.reliability - d.resolution + d.uncertainty, 6)
    (0.13, 0.13)
    """
    n_bins, strategy = check_bins(n_bins, strategy, "brier_decomposition")
    is_pos, p, w, _ = check_probability_inputs(y_true, y_prob, sample_weight, pos_label, "brier_decomposition")
    _, rows_bin = calibration_bins(p, w, n_bins, strategy)
    return _decompose(is_pos, p, w, rows_bin, n_bins, strategy)


def _brier_std_error(is_pos, p, w, clusters=None) -> tuple[float, int]:
    """The standard error of the (weighted) mean of the per-row squared errors, and the
    number of rows of positive weight. With ``clusters`` (``(codes, n_clusters)``) the
    terms are summed by cluster first: the variance over clusters
    (:func:`rankwise.stats._variance.term_covariance` with one cell), whose factor
    ``I / (I - 1)`` over the ``I`` clusters holding rows of positive weight gives the
    independent-rows numbers when every row is its own cluster."""
    e = (p - is_pos) ** 2
    if clusters is not None:
        n = int(e.shape[0] if w is None else np.count_nonzero(w > 0))
        var = float(term_covariance([e[:, None].copy(order="F")], [np.arange(e.shape[0])], weights=w,
                                    clusters=clusters)[0, 0])
        return (float(np.sqrt(var)) if np.isfinite(var) else float("nan")), n
    if w is None:
        n = e.shape[0]
        return (float(np.std(e, ddof=1) / np.sqrt(n)) if n > 1 else float("nan")), n
    keep = w > 0
    e, ww = e[keep], w[keep]
    n = int(e.shape[0])
    if n < 2:
        return float("nan"), n
    total = ww.sum()
    mean = np.dot(ww, e) / total
    # Linearisation (sandwich) variance of a weighted mean, with the n / (n - 1) correction:
    # s^2 / n with equal weights.
    return float(np.sqrt(n / (n - 1.0) * np.dot(ww * ww, (e - mean) ** 2)) / total), n


def _bin_spread(rows_bin, d, keep, n_bins, codes, n_clusters):
    """Per bin, the sum over clusters of the squared cluster sums of ``d`` and the number of
    clusters holding a row of the bin (rows ``keep`` only)."""
    key = rows_bin[keep].astype(np.int64) * n_clusters + codes[keep]
    uk, inv = np.unique(key, return_inverse=True)
    S = np.bincount(inv.reshape(-1), weights=d[keep], minlength=uk.shape[0])
    b = uk // n_clusters
    return np.bincount(b, weights=S * S, minlength=n_bins), np.bincount(b, minlength=n_bins).astype(np.float64)


def _clustered_curve(curve: CalibrationCurve, is_pos, w, rows_bin, clusters) -> CalibrationCurve:
    """The reliability curve with each bin's effective count divided by its design effect:
    the variance of the bin's share of positives over clusters over that over rows (both
    the sandwich variance of a ratio, with the factor ``I / (I - 1)`` of the units holding
    rows of the bin), taken as at least 1 (Korn & Graubard 1998); nan for a bin whose rows
    lie in one cluster. The intervals are recomputed with these counts."""
    n = is_pos.shape[0]
    ww = np.ones(n) if w is None else w
    keep = ww > 0
    o = is_pos.astype(np.float64)
    nb = curve.count.shape[0]
    mass = np.bincount(rows_bin, weights=ww, minlength=nb)
    with np.errstate(invalid="ignore", divide="ignore"):
        share = np.bincount(rows_bin, weights=ww * o, minlength=nb) / mass
    d = ww * (o - share[rows_bin])  # the linearised terms of the ratio, times the bin's mass
    ss_c, I_c = _bin_spread(rows_bin, d, keep, nb, *clusters)
    ss_r, I_r = _bin_spread(rows_bin, d, keep, nb, np.arange(n, dtype=np.int64), n)
    with np.errstate(invalid="ignore", divide="ignore"):
        deff = (I_c / (I_c - 1.0) * ss_c) / (I_r / (I_r - 1.0) * ss_r)
    deff = np.where(ss_r > 0, np.maximum(deff, 1.0), 1.0)  # no spread within the bin: nothing to inflate
    deff = np.where(I_c > 1, deff, np.nan)
    n_eff = np.where(curve.count > 0, curve.effective_count / deff, 0.0)
    lo, hi = proportion_interval(curve.fraction_positive, n_eff, curve.confidence_level, curve.interval)
    return dataclasses.replace(curve, effective_count=n_eff, lower=lo, upper=hi)


def _warn_few(is_pos, w, clusters) -> None:
    """:class:`FewClustersWarning` when a class present lies in fewer than ten clusters, or
    (one class present) the rows do."""
    has = [bool((is_pos if c else ~is_pos)[slice(None) if w is None else w > 0].any()) for c in (True, False)]
    if all(has):
        warn_few_clusters(is_pos, w, clusters, "calibration")
        return
    codes, G = clusters
    k = int(np.unique(codes if w is None else codes[w > 0]).shape[0])
    if k < MIN_CLUSTERS:
        what = "cannot be estimated (nan)" if k < 2 else "rests on that few cluster totals and may be too small"
        warnings.warn(f"calibration: the rows lie in {k} cluster{'s' if k != 1 else ''} (of {G}); the "
                      f"cluster-robust variance {what}.", FewClustersWarning, stacklevel=3)


def calibration(y_true, y_prob, *, n_bins: int = 10, strategy: str = "uniform", norm: str = "l1",
                sample_weight=None, pos_label=None, confidence_level: float = 0.95,
                interval: str = "wilson", clusters=None) -> CalibrationSummary:
    r"""A probability score's calibration with uncertainty: Brier score and calibration
    error with intervals, the Brier decomposition and the reliability curve.

    Parameters
    ----------
    y_true, y_prob, sample_weight, pos_label
        As in :func:`rankwise.brier_score`: ``y_prob`` in [0, 1].
    n_bins, strategy
        The bins of the curve, the decomposition and the calibration error, as
        :func:`rankwise.calibration_curve`.
    norm : {"l1", "max"}
        The calibration error: expected (ECE) or maximum (MCE), as
        :func:`rankwise.expected_calibration_error`.
    confidence_level, interval
        Of the reliability curve's per-bin intervals.
    clusters : array-like of shape (n,), optional
        The sampling unit of each row (a patient, a hospital, a session; ids of any type,
        no missing ids). The rows of one cluster may be correlated: the Brier score's
        standard error is then taken over clusters, the bootstrap resamples whole
        clusters and the bins' intervals use counts deflated by their design effect
        (below); a class lying in fewer than ten clusters gives a
        :class:`rankwise.stats.FewClustersWarning`. Default: independent rows. The values
        (scores, decomposition, curve points) do not depend on it.

    Returns
    -------
    CalibrationSummary
        ``brier_score`` and ``calibration_error`` (with ``value``, ``std_error``,
        ``confidence_interval(confidence_level=0.95, method=..., n_resamples=...,
        random_state=...)``), ``decomposition`` (:class:`BrierDecomposition`) and
        ``curve`` (:class:`rankwise.CalibrationCurve`).

    Notes
    -----
    **Brier score interval**: the score is the mean of the per-row terms
    :math:`(p_i - y_i)^2`, independent and identically distributed when the rows are, so
    by the central limit theorem :math:`\mathrm{BS} \pm z\, s / \sqrt n` (``s`` their
    sample standard deviation), clipped to [0, 1], has asymptotically the nominal
    coverage; no class stratification is involved. With weights, the linearisation
    (sandwich) variance of a weighted mean,
    :math:`\frac{n}{n-1} \sum_i w_i^2 (e_i - \bar e)^2 / (\sum_i w_i)^2` over the ``n``
    rows of positive weight (weights read as sampling weights). ``method="bootstrap"``
    gives the stratified bootstrap percentile interval instead.

    **Calibration error interval**: the percentile interval of the class-stratified
    bootstrap (rows resampled with replacement within each class, class masses kept),
    with the bins of the sample (quantile edges are not recomputed per resample). The
    calibration error is biased upward (a calibrated score has a positive error in every
    finite sample, and a resample's error is again inflated by its own noise), and the
    percentile interval inherits that bias: it estimates the error of the binned
    empirical curve, and is not a test of perfect calibration; it can exclude 0 for a
    calibrated score. Resamples are rows of level masses over the sample's rank table, so
    no resample is sorted.

    **Clusters**: the Brier score's terms :math:`w_i (e_i - \bar e)` are summed within each
    cluster, :math:`U_g`, and :math:`\mathrm{Var} = \frac{I}{I-1} \sum_g U_g^2 / W^2` over
    the ``I`` clusters holding rows of positive weight (the cluster-robust sandwich of a
    mean; with one row per cluster, the formula above). The bootstrap draws the clusters
    with replacement and keeps every row of a drawn cluster (class masses then vary). The
    reliability curve's bin ``k`` gets the effective count ``n_k / deff_k`` (``n_k`` its
    count, or Kish's effective count with weights), ``deff_k`` the variance of its share of
    positives over clusters divided by the same over rows (the linearised terms
    :math:`w_i (o_i - \bar o_k)`, summed by cluster, with the factor ``I_k / (I_k - 1)``
    of the clusters (rows) holding the bin), at least 1; the Wilson or Jeffreys interval
    is then taken at that count (Korn & Graubard 1998, "Confidence intervals for
    proportions with small expected number of positive counts estimated from survey
    data", Survey Methodology 24). A bin whose rows lie in one cluster has no interval
    (nan). ``clusters=np.arange(n)`` gives the independent-rows numbers.

    Examples
    --------
    >>> import rankwise as rw
    >>> c = rw.stats.calibration([0, 1, 1, 0], [0.1, 0.9, 0.8, 0.3], n_bins=2)
    >>> round(c.brier_score.value, 10), round(c.brier_score.std_error, 6)
    (0.0375, 0.018875)
    >>> [round(v, 4) for v in c.brier_score.confidence_interval()]
    [0.0005, 0.0745]

    By hand: the squared errors are 0.01, 0.01, 0.04 and 0.09, with mean 0.0375 and
    sample standard deviation 0.03775, so the standard error is 0.03775 / 2.
    """
    n_bins, strategy = check_bins(n_bins, strategy, "calibration")
    check_choice(norm, "norm", "calibration", tuple(_NORMS))
    level = _core.check_level(confidence_level, "calibration")
    check_choice(interval, "interval", "calibration", ("wilson", "jeffreys"))
    is_pos, p, w, scale = check_probability_inputs(y_true, y_prob, sample_weight, pos_label, "calibration")
    clusters = check_clusters(clusters, is_pos.shape[0], "calibration")
    if clusters is not None:
        _warn_few(is_pos, w, clusters)
    edges, rows_bin = calibration_bins(p, w, n_bins, strategy)
    curve = curve_from_rows(is_pos, p, w, scale, edges, rows_bin, strategy, level, interval)
    if clusters is not None:
        curve = _clustered_curve(curve, is_pos, w, rows_bin, clusters)
    dec = _decompose(is_pos, p, w, rows_bin, n_bins, strategy)
    se, n = _brier_std_error(is_pos, p, w, clusters)
    n_pos = float(curve.fraction_positive[curve.nonempty] @ curve.count[curve.nonempty])
    n_neg = float(curve.count.sum()) - n_pos
    ece = calibration_error(*bin_totals(is_pos, p, w, rows_bin, n_bins)[:3], norm)
    boot = _Resampler(is_pos, p, w, scale, curve.bin_edges, norm, clusters)
    weighted = w is not None
    n_clusters = None if clusters is None else clusters[1]
    brier = CalibrationEstimate("brier_score", dec.brier_score, se, "normal", n, n_pos, n_neg, weighted,
                                n_clusters, boot.brier)
    err = CalibrationEstimate(_NORMS[norm], ece, float("nan"), "bootstrap", n, n_pos, n_neg, weighted,
                              n_clusters, boot.calibration_error)
    return CalibrationSummary(brier, err, dec, curve)


class _Resampler:
    """The class-stratified bootstrap of the Brier score and the calibration error (or the
    cluster bootstrap, with ``clusters``: :func:`rankwise.stats._core.draws_of`). The
    rank table of the probabilities (one sort) is built when a resample is first asked
    for; each resample is then a row of class masses over its levels, nothing is sorted
    again, and the sample's bins are kept (rows of masses are summed bin by bin)."""

    def __init__(self, is_pos, p, w, scale, edges, norm, clusters=None):
        self._args = (is_pos, p, w, scale, clusters)
        self._edges, self._norm = edges, norm
        self._sample = None

    def _setup(self):
        if self._sample is None:
            is_pos, p, w, scale, clusters = self._args
            # With clusters, each row's level is needed to fold the rows into (cluster, level) cells.
            self._sample = _core.Sample(is_pos, p, w, rows=clusters is not None, mass_scale=scale,
                                        clusters=clusters)
            self._levels = self._sample.table.levels.astype(np.float64)
            lb = np.searchsorted(self._edges[1:-1], self._levels, side="left")
            self._starts = np.flatnonzero(np.r_[True, lb[1:] != lb[:-1]])
        return self._sample

    def brier(self, n_resamples, random_state):
        def batch(A, B):
            lv = self._levels
            return (A @ (1.0 - lv) ** 2 + B @ lv ** 2) / (A.sum(axis=1) + B.sum(axis=1))

        return _core.bootstrap_values(self._setup(), batch, n_resamples, random_state)

    def calibration_error(self, n_resamples, random_state):
        def batch(A, B):
            M, st = A + B, self._starts
            return calibration_error(np.add.reduceat(M, st, axis=1), np.add.reduceat(M * self._levels, st, axis=1),
                                     np.add.reduceat(A, st, axis=1), self._norm)

        return _core.bootstrap_values(self._setup(), batch, n_resamples, random_state)
