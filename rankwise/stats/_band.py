"""Confidence bands for the ROC curve: pointwise and simultaneous, by the bootstrap."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .._kernels import read_points, read_rates_by_order_stats
from .._labels import check_binary_inputs
from .._validation import check_choice, check_clusters, to_numpy, warn_undefined
from . import _core
from ._estimate import warn_few_clusters
from ._results import fmt, fmt_count, format_rows, html_table

__all__ = ["roc_band", "ROCBand"]


@dataclass(frozen=True)
class ROCBand:
    """The empirical ROC curve on a grid of false-positive rates, with bands.

    Arrays of the grid's length, ready for plotting (e.g.
    ``plt.fill_between(b.fpr, b.simultaneous_low, b.simultaneous_high)``).

    Attributes
    ----------
    fpr : ndarray
        The grid of false-positive rates.
    tpr : ndarray
        The empirical ROC curve at the grid (ties as diagonal segments; at a vertical
        step, the top of the step).
    pointwise_low, pointwise_high : ndarray
        Percentile bootstrap interval of the true-positive rate at each grid point.
    simultaneous_low, simultaneous_high : ndarray
        ``tpr -/+ c`` clipped to [0, 1], with ``c`` the ``confidence_level`` quantile of
        the bootstrap sup-norm distance ``max_x |tpr*(x) - tpr(x)|`` over the grid: the
        band covers the whole curve (on the grid) with the stated confidence.
    sup_quantile : float
        ``c``.
    n_clusters : int or None
        The number of clusters resampled whole (``clusters=``); None when the rows were
        resampled within each class.
    n_used : int
        Resamples the bands were taken from: ``n_resamples`` less the cluster resamples
        that drew no positive or no negative (no curve; none without clusters).
    """

    fpr: np.ndarray
    tpr: np.ndarray
    pointwise_low: np.ndarray
    pointwise_high: np.ndarray
    simultaneous_low: np.ndarray
    simultaneous_high: np.ndarray
    sup_quantile: float
    confidence_level: float
    n_resamples: int
    n_pos: float
    n_neg: float
    n_clusters: int | None = None
    n_used: int | None = None

    def _rows(self, max_rows: int = 11):
        idx = np.unique(np.linspace(0, self.fpr.shape[0] - 1, min(max_rows, self.fpr.shape[0])).round().astype(int))
        header = ["fpr", "tpr", "pointwise", "simultaneous"]
        rows = [[fmt(self.fpr[i], 3), fmt(self.tpr[i]), f"[{fmt(self.pointwise_low[i])}, {fmt(self.pointwise_high[i])}]",
                 f"[{fmt(self.simultaneous_low[i])}, {fmt(self.simultaneous_high[i])}]"] for i in idx]
        return header, rows

    def _unit_note(self) -> str | None:
        if self.n_clusters is None:
            return None
        used = "" if self.n_used in (None, self.n_resamples) else \
            f"; {self.n_used} of them drew both classes and were used"
        return f"whole clusters resampled: {self.n_clusters} clusters{used}"

    def summary(self) -> str:
        header, rows = self._rows()
        note = self._unit_note()
        return (f"ROC curve with {self.confidence_level:.0%} bootstrap bands ({self.n_resamples} resamples, "
                f"n+ = {fmt_count(self.n_pos)}, n- = {fmt_count(self.n_neg)}); sup-norm half-width {fmt(self.sup_quantile)}\n"
                + ("" if note is None else note + "\n") + format_rows(header, rows))

    def _repr_html_(self) -> str:
        header, rows = self._rows()
        note = self._unit_note()
        return html_table(f"ROC curve with {self.confidence_level:.0%} bootstrap bands", header, rows,
                          [f"{self.n_resamples} resamples; sup-norm half-width {fmt(self.sup_quantile)}"]
                          + ([] if note is None else [note]))

    def __str__(self) -> str:
        return self.summary()


def roc_band(y_true, y_score, *, fpr: Any = None, confidence_level: float = 0.95, n_resamples: int = 2000,
             random_state: Any = None, sample_weight=None, pos_label=None, engine: str = "auto",
             clusters=None) -> ROCBand:
    r"""The ROC curve with pointwise and simultaneous bootstrap confidence bands.

    Parameters
    ----------
    fpr : array-like, optional
        Grid of false-positive rates in [0, 1] (default: 101 points).
    confidence_level : float in (0, 1)
    n_resamples : int
        Class-stratified bootstrap resamples (cases with replacement within each class).
    random_state : int, numpy Generator or None
    engine : {"auto", "order", "rows"}
        How resamples are drawn; both draw the same law. ``"order"``: each resampled curve
        at the grid is drawn from a few order statistics of the resampled negatives and the
        resampled counts around them, O(grid) per resample after the one sort (unweighted
        samples only). ``"rows"``: each resample is a row of level masses over the rank
        table, O(levels) per resample (or O(n) with many levels); the reference, and the
        engine for weighted or clustered samples. ``"auto"``: ``"order"`` without weights
        or clusters, else ``"rows"``. The same seed gives different draws with different
        engines.
    clusters : array-like of shape (n,), optional
        The sampling unit of each row (a patient, a reader, a session; ids of any type, no
        missing ids). The rows of one cluster may be correlated: each resample then draws
        the clusters with replacement and keeps every row of a drawn cluster (as often as
        it was drawn), as :func:`rankwise.stats.estimate` does. Default: the rows are
        independent and are resampled within each class.

    Notes
    -----
    The curve at FPR ``x`` is read as the last ROC point with ``FPR <= x`` (the top of a
    vertical step; a rate within 1e-12 of a point's counts as that point's), then linearly
    towards the next point (ties are diagonal segments). The ``"rows"`` engine draws each
    resample as a row of level masses over the sample's rank table and reads its curve at
    the grid for all rows at once. The ``"order"`` engine uses that the reading at ``x``
    depends on a resample only through the ``(m + 1)``-th largest resampled negative
    (``m / n- <= x < (m + 1) / n-``) and the resampled counts of each class above and at its
    level: it draws those exactly (uniform order statistics by gamma spacings, binomial and
    multinomial counts around them; ``docs/inference.md``). The pointwise band
    is the percentile interval at each grid point ("vertical averaging"). The simultaneous
    band is a fixed-width band around the empirical curve whose half-width is the
    bootstrap quantile of the sup-norm distance between resampled and empirical curves
    over the grid (Campbell 1994 uses the same sup-norm idea for Kolmogorov-type bands).

    With ``clusters`` the resamples are of whole clusters (the cluster bootstrap; Davison
    & Hinkley 1997, "Bootstrap methods and their application", section 3.8): the class
    sizes vary between resamples as between studies of as many clusters, a resample that
    draws no positive or no negative has no curve and is left out (``n_used``), and a
    class lying in fewer than ten clusters gives a
    :class:`rankwise.stats.FewClustersWarning`. ``clusters=np.arange(n)`` resamples single
    rows without stratifying by class: the same bands up to Monte Carlo error, not the
    same draws.

    Examples
    --------
    >>> import rankwise as rw
    >>> b = rw.stats.roc_band([0, 0, 1, 0, 1, 1], [0.1, 0.4, 0.35, 0.5, 0.8, 0.9],
    ...                       fpr=[0, 0.5, 1], n_resamples=200, random_state=0)
    >>> b.tpr.tolist()
    [0.6666666666666666, 0.6666666666666666, 1.0]
    """
    is_pos, s, w, defined = check_binary_inputs(y_true, y_score, sample_weight, pos_label=pos_label)
    clusters = check_clusters(clusters, is_pos.shape[0], "roc_band")
    level = _core.check_level(confidence_level, "roc_band")
    engine = check_choice(engine, "engine", "roc_band", ("auto", "order", "rows"))
    n_resamples = _core.check_resamples(n_resamples, "roc_band")
    grid = np.linspace(0.0, 1.0, 101) if fpr is None else np.asarray(to_numpy(fpr, "fpr"), dtype=np.float64)
    if grid.size == 0 or not np.isfinite(grid).all() or grid.min() < 0 or grid.max() > 1:
        raise ValueError("The 'fpr' grid of roc_band must be a non-empty array of values in [0, 1].")
    grid = np.sort(grid)
    if not defined:
        warn_undefined("roc_band")
        nan = np.full(grid.shape, np.nan)
        return ROCBand(grid, nan, nan, nan, nan, nan, float("nan"), level, 0, float("nan"), float("nan"),
                       None if clusters is None else clusters[1], 0)
    if engine == "order" and (w is not None or clusters is not None):
        raise ValueError("The 'order' engine of roc_band draws unweighted samples without clusters only; use "
                         "engine='rows' with sample_weight or clusters.")
    if clusters is not None:
        warn_few_clusters(is_pos, w, clusters, "roc_band", what="bootstrap over clusters", stacklevel=3)
    # With clusters, each row's level is needed to fold the rows into (cluster, level) cells.
    sample = _core.Sample(is_pos, s, w, rows=clusters is not None, clusters=clusters)
    d = sample.dense
    tpr = read_points(d.a[None, :], d.b[None, :], "fpr", grid)[0][0]
    rng = np.random.default_rng(random_state)
    boot = resampled_reads(sample, "fpr", grid, n_resamples, rng, "order" if engine != "rows" and w is None
                           and clusters is None else "rows")[0]
    boot = boot[np.isfinite(boot).all(axis=1)]  # cluster resamples without one of the classes
    alpha = 1.0 - level
    if boot.shape[0] == 0:
        lo = hi = np.full(grid.shape, np.nan)
        c = float("nan")
    else:
        lo, hi = np.quantile(boot, [alpha / 2.0, 1.0 - alpha / 2.0], axis=0)
        sup = np.max(np.abs(boot - tpr[None, :]), axis=1)
        c = float(np.quantile(sup, level))
    return ROCBand(grid, tpr, lo, hi, np.clip(tpr - c, 0.0, 1.0), np.clip(tpr + c, 0.0, 1.0), c, level,
                   n_resamples, d.P, d.M, None if clusters is None else clusters[1], int(boot.shape[0]))


#: The most resampled values a band or an operating-point interval holds (resamples times
#: points): three float64 arrays of this size are 1.2 GB; beyond it is refused, not allocated.
MAX_READS = 50_000_000


def resampled_reads(sample, by: str, q: np.ndarray, n_resamples: int, rng, engine: str) -> np.ndarray:
    """``(tpr, fpr, precision)`` of ``n_resamples`` resamples of the sample's independent
    unit read at rates ``q`` (``by`` "fpr" or "tpr", :func:`rankwise._kernels.read_points`),
    shape ``(3, n_resamples, len(q))``: from rows of level masses (``engine="rows"``; the
    strategy of :func:`rankwise.stats._core.draws_of`: rows within each class, or whole
    clusters when the sample has them) or from order statistics (``"order"``, unweighted
    samples without clusters; the class-stratified law). A cluster resample without one
    of the classes reads nan throughout."""
    G = q.shape[0]
    if n_resamples * G > MAX_READS:
        raise ValueError(f"The bootstrap would hold n_resamples x points = {n_resamples} x {G} values, more than "
                         f"{MAX_READS:.0e}; use fewer resamples or fewer points (rates or thresholds).")
    out = np.empty((3, n_resamples, G))
    if engine == "order":
        d = sample.dense
        a_top = np.rint(d.a[::-1]).astype(np.int64)
        b_top = np.rint(d.b[::-1]).astype(np.int64)
        k = max(1, min(n_resamples, 250_000 // (2 * G + 2)))
    else:
        draws = _core.draws_of(sample)
        cost = getattr(draws, "chunk_cost", max(draws.L + 1, draws.n_rows))
        k = max(1, min(n_resamples, 4_000_000 // max(cost, G)))
    done = 0
    while done < n_resamples:
        kk = min(k, n_resamples - done)
        if engine == "order":
            out[:, done: done + kk] = read_rates_by_order_stats(rng, a_top, b_top, q, by, kk)
        else:
            A, B = draws.draw(rng, kk)
            block = out[:, done: done + kk]
            block[...] = read_points(A, B, by, q)[:3]
            if sample.clusters is not None:
                block[:, ~((A.sum(axis=1) > 0) & (B.sum(axis=1) > 0))] = np.nan
        done += kk
    return out
