"""Operating points with bootstrap intervals (sensitivity at fixed specificities,
specificity at fixed sensitivities, both at fixed thresholds), the rows resampled within
each class or whole clusters resampled; the method: ``docs/operating_points.md``."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .. import metrics as _metrics
from .._kernels import exact_scalar, object_array, point_of_threshold, read_points, rows_at_or_above
from .._labels import check_binary_inputs
from .._validation import check_choice, check_clusters, ranked_score_values, warn_undefined
from . import _core
from ._band import resampled_reads
from ._estimate import warn_few_clusters
from ._results import fmt, format_rows, html_table

__all__ = ["operating_points", "OperatingPointsEstimate", "OperatingPointIntervals"]


@dataclass(frozen=True)
class OperatingPointIntervals:
    """Percentile bootstrap intervals of the operating points, one per requested value.

    Attributes
    ----------
    requested : str
        ``"fpr"``, ``"tpr"`` or ``"threshold"``: what was held fixed.
    at : ndarray
        The requested values.
    tpr_low, tpr_high, fpr_low, fpr_high, precision_low, precision_high : ndarray
        Interval ends. The fixed coordinate's interval is the point itself (e.g.
        ``fpr_low == fpr_high == at`` when ``requested == "fpr"``).
    tpr_median, fpr_median, precision_median : ndarray
        Medians of the resampled values (pROC reports them too).
    confidence_level : float
    n_resamples : int
    method : str
        ``"bootstrap"``.
    n_clusters : int or None
        The number of clusters resampled whole (``clusters=``); None when the rows were
        resampled within each class.
    """

    requested: str
    at: np.ndarray
    tpr_low: np.ndarray
    tpr_median: np.ndarray
    tpr_high: np.ndarray
    fpr_low: np.ndarray
    fpr_median: np.ndarray
    fpr_high: np.ndarray
    precision_low: np.ndarray
    precision_median: np.ndarray
    precision_high: np.ndarray
    confidence_level: float
    n_resamples: int
    method: str = "bootstrap"
    n_clusters: int | None = None

    def to_rows(self) -> list[dict]:
        """One dict per requested value: ``at`` and the low/high of tpr, fpr, precision."""
        keys = ("tpr_low", "tpr_high", "fpr_low", "fpr_high", "precision_low", "precision_high")
        return [{"at": exact_scalar(self.at[i]), **{k: float(getattr(self, k)[i]) for k in keys}}
                for i in range(self.at.shape[0])]

    def _rows(self):
        header = [self.requested, "tpr", "fpr", "precision"]
        rows = [[fmt(r["at"]), f"[{fmt(r['tpr_low'])}, {fmt(r['tpr_high'])}]",
                 f"[{fmt(r['fpr_low'])}, {fmt(r['fpr_high'])}]",
                 f"[{fmt(r['precision_low'])}, {fmt(r['precision_high'])}]"] for r in self.to_rows()]
        return header, rows

    def _kind(self) -> str:
        return ("stratified bootstrap" if self.n_clusters is None
                else f"cluster bootstrap (whole clusters resampled: {self.n_clusters} clusters)")

    def summary(self) -> str:
        header, rows = self._rows()
        return (f"{self.confidence_level:.0%} {self._kind()} intervals at the requested {self.requested} "
                f"({self.n_resamples} resamples, percentile)\n" + format_rows(header, rows))

    def _repr_html_(self) -> str:
        header, rows = self._rows()
        return html_table(f"{self.confidence_level:.0%} intervals at the requested {self.requested}", header, rows,
                          [f"{self._kind()}, {self.n_resamples} resamples, percentile"])

    def __str__(self) -> str:
        return self.summary()


@dataclass(frozen=True)
class OperatingPointsEstimate(_metrics.OperatingPoints):
    """:class:`rankwise.metrics.OperatingPoints` that keeps its sample, for intervals:
    ``confidence_interval(confidence_level=0.95, n_resamples=2000, random_state=None)``.

    ``n_clusters``: the number of clusters the intervals resample (``clusters=``), or None
    (independent rows, resampled within each class)."""

    requested_values: np.ndarray = field(default=None, repr=False)
    _sample: Any = field(default=None, repr=False, compare=False)
    _ranked: Any = field(default=None, repr=False, compare=False)
    n_clusters: int | None = None

    def summary(self) -> str:
        text = super().summary()
        if self.n_clusters is None:
            return text
        return text + f"\nrows in {self.n_clusters} clusters: the intervals resample whole clusters"

    def __str__(self) -> str:
        return self.summary()

    def confidence_interval(self, confidence_level: float = 0.95, n_resamples: int = 2000,
                            random_state: Any = None, engine: str = "auto") -> OperatingPointIntervals:
        r"""Bootstrap percentile intervals of the true-positive rate at fixed
        false-positive rates, of the false-positive rate at fixed true-positive rates, or
        of both at fixed thresholds (and of precision in every case): the rows resampled
        within each class, or whole clusters when the estimate was made with ``clusters=``.

        Parameters
        ----------
        engine : {"auto", "order", "rows"}
            How resamples are drawn at fixed rates (both draw the same law; the same seed
            gives different draws): ``"order"`` from a few order statistics, O(len(values))
            per resample (unweighted samples without clusters); ``"rows"`` as rows of level
            masses, O(levels) per resample; ``"auto"``: ``"order"`` at fixed rates without
            weights or clusters, else ``"rows"``. At fixed thresholds a resample is already
            a row over the ``len(values) + 1`` bins between them.

        Notes
        -----
        Each resample draws the positives with replacement among the positives and the
        negatives among the negatives (class sizes kept); it is a row of level masses over
        the sample's rank table, so nothing is sorted again (at fixed thresholds, a row over
        the bins between the thresholds, which is all the counts depend on). At a fixed
        false-positive rate the point read depends on a resample only through one order
        statistic of the resampled negatives and the counts of each class above and at its
        level (at a fixed true-positive rate, of the positives), which the ``"order"``
        engine draws directly (:func:`rankwise.stats.roc_band`, ``docs/inference.md``). In each resample the operating
        point is read exactly as on the sample (:func:`rankwise.operating_points`); the
        interval is the ``(1 - level) / 2`` and ``(1 + level) / 2`` quantiles (linear
        interpolation between order statistics) of the resampled values, resamples where a
        value is undefined (precision with nothing called positive) left out. These are the
        intervals of R pROC's ``ci.se``, ``ci.sp`` and ``ci.thresholds`` (stratified
        bootstrap); the random draws differ, so the numbers agree only up to Monte Carlo
        error.

        **Clusters**: each resample draws the ``n_clusters`` clusters with replacement and
        keeps every row of a drawn cluster as often as it was drawn (a row of level masses,
        as above; the cluster bootstrap, Davison & Hinkley 1997, "Bootstrap methods and
        their application", section 3.8). The class sizes then vary between resamples; a
        resample that draws no positive or no negative has no operating point and is left
        out of every quantile.
        """
        level = _core.check_level(confidence_level, "confidence_interval")
        n_resamples = _core.check_resamples(n_resamples, "confidence_interval")
        engine = check_choice(engine, "engine", "confidence_interval", ("auto", "order", "rows"))
        q = self.requested_values
        G = q.shape[0]
        if self._sample is None:
            nan = np.full(G, np.nan)
            return OperatingPointIntervals(self.requested, q, *([nan] * 9), level, 0, n_clusters=self.n_clusters)
        sample = self._sample
        if self.requested == "threshold":
            # Only the mass at or above each threshold matters: the scores are replaced by
            # their bin between consecutive thresholds (the number of thresholds at or
            # below them), so a resample is a row over G + 1 bins, not over every level.
            # The law of the resampled counts is unchanged.
            # Counted exactly in the scores' own dtype (integers beyond 2^53 included).
            u = sorted(set(q.tolist()))
            binned = rows_at_or_above(sample.s, object_array(u) if q.dtype.kind == "O"
                                      else np.array(u, dtype=np.float64), self._ranked).astype(np.float64)
            sample = _core.Sample(sample.is_pos, binned, sample.w, rows=sample.clusters is not None,
                                  mass_scale=sample.mass_scale, clusters=sample.clusters)
            at = {v: i for i, v in enumerate(u)}
            by, qq = "point", point_of_threshold(sample.table.levels,
                                                 np.array([at[v] + 1.0 for v in q.tolist()], dtype=np.float64))
        else:
            by, qq = self.requested, q
        rng = np.random.default_rng(random_state)
        if by == "point" or sample.w is not None or sample.clusters is not None:
            if engine == "order":
                raise ValueError("The 'order' engine of confidence_interval draws unweighted samples without "
                                 "clusters at fixed rates only; use engine='rows'.")
            engine = "rows"
        boot = resampled_reads(sample, by, qq, n_resamples, rng, "rows" if engine == "rows" else "order")
        alpha = 1.0 - level
        probs = [alpha / 2.0, 0.5, 1.0 - alpha / 2.0]
        out = []
        for c in range(3):
            v = boot[c]
            if np.isnan(v).any():
                cols = [np.quantile(col[~np.isnan(col)], probs) if (~np.isnan(col)).any() else np.full(3, np.nan)
                        for col in v.T]
                out.extend(np.array(cols).T)
            else:
                out.extend(np.quantile(v, probs, axis=0))
        return OperatingPointIntervals(self.requested, q, *out, level, n_resamples, n_clusters=self.n_clusters)


def operating_points(y_true, y_score, *, fpr=None, tpr=None, thresholds=None, sample_weight=None,
                     pos_label=None, clusters=None) -> OperatingPointsEstimate:
    r"""Operating points with confidence intervals: pROC's ``ci.se`` (sensitivity at
    fixed specificities: ``fpr=``), ``ci.sp`` (specificity at fixed sensitivities:
    ``tpr=``) and ``ci.thresholds`` (both at fixed thresholds: ``thresholds=``).

    The point values are those of :func:`rankwise.operating_points` (same arguments);
    ``.confidence_interval(confidence_level=0.95, n_resamples=2000, random_state=None)``
    gives the bootstrap intervals.

    Parameters
    ----------
    y_true, y_score, fpr, tpr, thresholds, sample_weight, pos_label
        As in :func:`rankwise.operating_points`.
    clusters : array-like of shape (n,), optional
        The sampling unit of each row (a patient, a reader, a session; ids of any type, no
        missing ids). The rows of one cluster may be correlated: the intervals then
        resample whole clusters, and a class lying in fewer than ten clusters gives a
        :class:`rankwise.stats.FewClustersWarning`. Default: independent rows, resampled
        within each class (stratified). The points do not depend on it.

    Notes
    -----
    See :func:`rankwise.operating_points` for the definitions and
    :meth:`OperatingPointsEstimate.confidence_interval` for the intervals. Robin et al.
    (2011), "pROC: an open-source package for R and S+ to analyze and compare ROC curves".

    Examples
    --------
    >>> import rankwise as rw
    >>> y = [0, 0, 1, 0, 1, 1, 0, 1]
    >>> s = [0.1, 0.4, 0.35, 0.5, 0.8, 0.9, 0.8, 0.3]
    >>> op = rw.stats.operating_points(y, s, fpr=0.25)
    >>> op.tpr.tolist()
    [0.5]
    >>> ci = op.confidence_interval(n_resamples=500, random_state=0)
    >>> bool(ci.tpr_low[0] <= 0.5 <= ci.tpr_high[0])
    True
    """
    by, q = _metrics.check_operating_request(fpr, tpr, thresholds, "operating_points")
    is_pos, s, w, defined = check_binary_inputs(y_true, y_score, sample_weight, pos_label=pos_label)
    clusters = check_clusters(clusters, is_pos.shape[0], "operating_points")
    n_clusters = None if clusters is None else clusters[1]
    # With clusters, each row's level is needed to fold the rows into (cluster, level) cells.
    sample = _core.Sample(is_pos, s, w, rows=clusters is not None, clusters=clusters)
    t = sample.table
    if not defined:
        warn_undefined("operating_points")
        nan = np.full(q.shape, np.nan)
        return OperatingPointsEstimate(by, q.copy() if by == "threshold" else nan, nan, nan, nan, t.n_pos, t.n_neg,
                                       q, None, n_clusters=n_clusters)
    if clusters is not None:
        warn_few_clusters(is_pos, w, clusters, "operating_points", what="bootstrap over clusters", stacklevel=3)
    ranked = ranked_score_values(y_score) if s.dtype == np.int64 else None
    p = _metrics.points_from_table(t, by, q, ranked)
    return OperatingPointsEstimate(p.requested, p.threshold, p.tpr, p.fpr, p.precision, p.n_positive, p.n_negative,
                                   q, sample, ranked, n_clusters=n_clusters)
