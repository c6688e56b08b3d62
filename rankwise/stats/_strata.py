"""The stratified AUC with its standard error: strata independent (or clusters across
them), plus the term for weights estimated from the sample (Janes & Pepe 2009)."""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from .._kernels import MAX_PLACEMENTS, CellAUCs, CellMoments
from .._validation import check_choice, check_same_length, check_scores, warn_undefined
from ..metrics.blocks import WEIGHTINGS, group_cells, stratum_parts
from . import _core
from ._compare import COMPARE_ENTRIES, TEST_ALTERNATIVES, Comparison, build_comparison, check_margin, score_columns
from ._estimate import OWN_ENTRIES, DegenerateIntervalWarning, warn_few_clusters
from ._results import ConfidenceInterval, fmt, fmt_count, format_rows, html_table
from ._variance import sparse_term_covariance

__all__ = ["stratified_auc", "StratifiedAUC", "compare_stratified"]


@dataclass(frozen=True, kw_only=True)
class StratifiedAUC:
    """A stratified AUC with its standard error (:func:`stratified_auc`).

    Attributes
    ----------
    value : float
    std_error : float
        The total: ``sqrt(var_strata + var_weights)``.
    std_error_strata : float
        The part with the strata's weights held fixed: ``sqrt(sum_g c_g^2 Var(AUC_g))``
        (strata independent; over clusters with ``clusters``).
    weighting : str
    strata : tuple
        The stratum ids, sorted.
    values, weights, n_pos, n_neg : ndarray
        Each stratum's AUC (nan when skipped), normalised weight (0 when skipped) and
        class masses.
    n_strata, n_skipped : int
        Strata used, and skipped (one class only).
    n_clusters : int or None
    """

    value: float
    std_error: float
    std_error_strata: float
    weighting: str
    strata: tuple
    values: np.ndarray
    weights: np.ndarray
    n_pos: np.ndarray
    n_neg: np.ndarray
    n_strata: int
    n_skipped: int
    n_clusters: int | None = None
    criterion: str = "stratified_auc"
    method: str = "delong"

    def confidence_interval(self, confidence_level: float = 0.95, method: str | None = None, *,
                            transform: str | None = None) -> ConfidenceInterval:
        """Normal interval ``value +- z se`` clipped to [0, 1], or built on the logit
        scale with ``transform="logit"``."""
        level = _core.check_level(confidence_level, "confidence_interval")
        if method is not None:
            check_choice(method, "method", "confidence_interval", ("delong",))
        if transform is not None:
            check_choice(transform, "transform", "confidence_interval", ("logit",))
        se = self.std_error
        if not np.isfinite(self.value) or not np.isfinite(se):
            if np.isfinite(self.value):
                warnings.warn("stratified_auc: the standard error cannot be estimated (a stratum class of one "
                              "row, or too few clusters); the interval is [0, 1].", DegenerateIntervalWarning,
                              stacklevel=2)
                return ConfidenceInterval(0.0, 1.0, level, "delong", "wald", transform, None, se)
            return ConfidenceInterval(float("nan"), float("nan"), level, "delong", "wald", transform, None, se)
        lo, hi = _core.normal_interval(self.value, se, level, transform, (0.0, 1.0))
        return ConfidenceInterval(lo, hi, level, "delong", "wald", transform, None, se)

    def standard_error(self, method: str | None = None) -> float:
        return self.std_error

    def _table(self) -> tuple:
        rows = [[str(s), fmt_count(p), fmt_count(q), fmt(v), fmt(c)]
                for s, p, q, v, c in zip(self.strata, self.n_pos, self.n_neg, self.values, self.weights)]
        return ["stratum", "n_pos", "n_neg", "AUC", "weight"], rows

    def summary(self) -> str:
        lo, hi = self.confidence_interval()
        head = (f"stratified AUC ({self.weighting} weights) = {fmt(self.value)}, std err {fmt(self.std_error)} "
                f"(strata part {fmt(self.std_error_strata)}), 95% CI [{fmt(lo)}, {fmt(hi)}]\n"
                f"{self.n_strata} strata used, {self.n_skipped} skipped (one class)")
        if self.n_clusters is not None:
            head += f"; standard errors over {self.n_clusters} clusters"
        header, rows = self._table()
        if len(rows) > 30:
            rows = rows[:30] + [["...", "", "", "", ""]]
        return head + "\n" + format_rows(header, rows)

    def __str__(self) -> str:
        return self.summary()

    def _repr_html_(self) -> str:
        header, rows = self._table()
        lo, hi = self.confidence_interval()
        return html_table(f"stratified AUC ({self.weighting}) = {fmt(self.value)} [{fmt(lo)}, {fmt(hi)}]",
                          header, rows[:30], [f"{self.n_strata} strata used, {self.n_skipped} skipped"])


def stratified_auc(y_true, y_score, strata, *, weighting: str = "pairs", sample_weight=None, pos_label=None,
                   clusters=None) -> StratifiedAUC:
    r"""The stratified AUC (pairs within strata) with its standard error.

    Parameters
    ----------
    y_true, y_score, sample_weight, pos_label
        As in :func:`rankwise.auc`.
    strata : array-like of shape (n,)
        The stratum of each row.
    weighting : {"pairs", "positives", "size", "uniform"}, default "pairs"
        As in :func:`rankwise.stratified_auc`: within-stratum pairs; positives (the
        covariate-adjusted AUC of Janes & Pepe 2009); rows (GAUC); equal.
    clusters : array-like of shape (n,), optional
        The sampling unit of each row (a cluster may span strata).

    Returns
    -------
    StratifiedAUC

    Notes
    -----
    With :math:`c_g` the normalised weights and :math:`\mathrm{AUC}_g` each stratum's AUC
    (strata with one class skipped):

    - *strata part*: :math:`\sum_g c_g^2\, \widehat{\mathrm{Var}}(\mathrm{AUC}_g)`, DeLong's
      variance within each stratum (strata independent); over clusters the stacked terms
      :math:`c_g h_i` summed by cluster (Obuchowski 1997), so strata sharing a cluster
      are correlated;
    - *weights part*, where the weights are estimated from the sample (all but
      ``"uniform"``): each row of class :math:`c` (mass :math:`N_c`) in stratum g gets the
      term :math:`N_c\, \partial_{n_{gc}} v_g\, (\mathrm{AUC}_g - \mathrm{AUC}_S) / \sum_{g'} v_{g'}`,
      the derivative of the weights in the stratum's class mass, and the variance of
      these terms within each class is added. For ``"positives"`` it is
      :math:`\sum_g (n^+_g / n^+)(\mathrm{AUC}_g - \mathrm{AUC}_S)^2 / (n^+ - 1)`, the
      multinomial term of Janes & Pepe (2009).

    Examples
    --------
    >>> import rankwise as rw
    >>> y = [0, 1, 0, 1, 0, 0, 1, 1, 0, 1]
    >>> s = [0.1, 0.9, 0.5, 0.3, 0.2, 0.6, 0.7, 0.8, 0.4, 0.45]
    >>> r = rw.stats.stratified_auc(y, s, ["a"] * 4 + ["b"] * 6, weighting="positives")
    >>> round(r.value, 4), r.n_strata
    (0.8333, 2)
    """
    weighting = check_choice(weighting, "weighting", "stratified_auc", WEIGHTINGS)
    sample, cells, names = group_cells(y_true, y_score, strata, sample_weight=sample_weight, pos_label=pos_label,
                                       clusters=clusters, func="stratified_auc", name="strata", unit="stratum")
    scale = sample.weight_scale
    clus = None if sample.clusters is None else (sample.clusters, sample.n_clusters)
    if clus is None and sample.n_rows * 2 * cells.G <= MAX_PLACEMENTS:
        joint = _from_moments(sample, cells, weighting)
    else:
        joint = _joint(sample, cells, [sample.scores], weighting, "stratified_auc")
    parts = joint.parts[0]
    common = dict(weighting=weighting, strata=tuple(names), values=parts.values, weights=parts.weights,
                  n_pos=parts.n_pos * scale, n_neg=parts.n_neg * scale, n_strata=int(joint.used.shape[0]),
                  n_skipped=int(cells.G - joint.used.shape[0]), n_clusters=None if clus is None else clus[1])
    if joint.used.shape[0] == 0:
        nan = warn_undefined("stratified_auc", "no stratum holds both classes")
        return StratifiedAUC(value=nan, std_error=nan, std_error_strata=nan, **common)
    var, var_strata = float(joint.cov[0, 0]), float(joint.cov_strata[0, 0])
    se = float(np.sqrt(var)) if np.isfinite(var) and var >= 0 else float("nan")
    se_s = float(np.sqrt(var_strata)) if np.isfinite(var_strata) and var_strata >= 0 else float("nan")
    return StratifiedAUC(value=float(joint.values[0]), std_error=se, std_error_strata=se_s, **common)


class _Joint(NamedTuple):
    values: np.ndarray
    cov: np.ndarray
    cov_strata: np.ndarray
    parts: list
    used: np.ndarray


def _weights_derivative(cells, weighting: str):
    """``(d v_g / d n+_g, d v_g / d n-_g)`` of the strata's raw weights ``v_g``, and the
    raw weights; None for fixed (uniform) weights."""
    p, q = cells.mass[:, 1], cells.mass[:, 0]
    deriv = {"pairs": (q, p), "positives": (np.ones_like(p), np.zeros_like(q)),
             "size": (np.ones_like(p), np.ones_like(q)), "uniform": None}[weighting]
    raw = None if deriv is None else {"pairs": p * q, "positives": p, "size": p + q}[weighting]
    return deriv, raw


def _from_moments(sample, cells, weighting: str) -> _Joint:
    """One scorer, independent rows: the strata's AUCs and DeLong variances from the cells'
    moments (one sort), the weights part in closed form (its terms are constant on each
    class x stratum cell, so their variance within a class is the spread of the cells'
    values weighted by the cells' masses)."""
    scale = sample.weight_scale
    G = cells.G
    moments = CellMoments(sample.scores, cells, same_class=False, scale=scale)
    values, cov = moments.statistics([([2 * g + 1], [2 * g], 1.0) for g in range(G)])
    parts = stratum_parts(None, cells, weighting, values=values)
    used = np.flatnonzero(parts.used)
    if used.shape[0] == 0:
        nan = np.full((1, 1), np.nan)
        return _Joint(np.full(1, np.nan), nan, nan, [parts], used)
    c = parts.weights
    value = float(np.dot(c[used], values[used]))
    var_strata = float(np.sum(c[used] ** 2 * np.diag(cov)[used]))
    var_weights = 0.0
    deriv, raw = _weights_derivative(cells, weighting)
    if deriv is not None:
        total = raw[used].sum()
        gap = values[used] - value
        for side, cls in ((0, 1), (1, 0)):  # positives (d/dn+), negatives (d/dn-)
            W = cells.mass[used, cls]
            N = float(W.sum())
            t = N * deriv[side][used] * gap / total
            if not N > 0 or not np.any(t != 0):
                continue
            size = N * scale
            mean = float(np.dot(W, t)) / N
            var_weights += float(np.dot(W, (t - mean) ** 2)) / N / (size - 1.0) if size > 1 else float("nan")
    return _Joint(np.array([value]), np.array([[var_strata + var_weights]]), np.array([[var_strata]]), [parts],
                  used)


def _joint(sample, cells, scores: list, weighting: str, func: str) -> _Joint:
    """K scorers' stratified AUCs on one sample with their joint covariance: the strata
    part (each scorer's DeLong terms times its stratum's weight, stacked on every class x
    stratum cell) plus the weights part (each scorer's terms of the estimated weights, on
    each class); over rows or clusters. The weights are the same for every scorer (they
    depend on the class masses only)."""
    w, scale = sample.weights, sample.weight_scale
    clus = None if sample.clusters is None else (sample.clusters, sample.n_clusters)
    K = len(scores)
    parts, terms = [], []
    for s in scores:
        pt, tm = stratum_parts(CellAUCs(cells, s), cells, weighting, with_terms=True)
        parts.append(pt)
        terms.append(tm)
    used = np.flatnonzero(parts[0].used)
    nan = np.full((K, K), np.nan)
    if used.shape[0] == 0:
        return _Joint(np.full(K, np.nan), nan, nan, parts, used)
    if clus is not None:
        keep = np.isin(cells.codes, used)
        warn_few_clusters(sample.is_pos[keep], None if w is None else w[keep], (clus[0][keep], clus[1]), func,
                          stacklevel=4)
    c = parts[0].weights
    values = np.array([float(np.dot(c[used], p.values[used])) for p in parts])
    every = np.arange(K, dtype=np.intp)
    # the strata part: stratum g's cells carry c_g times each scorer's DeLong terms
    blocks, rows, cols = [], [], []
    for g in used:
        for k in (2 * g + 1, 2 * g):
            idx = cells.rows[k]
            blocks.append(np.asfortranarray(np.column_stack([c[g] * terms[j][g][idx] for j in range(K)])))
            rows.append(idx)
            cols.append(every)
    cov_strata = sparse_term_covariance(blocks, rows, cols, K, weights=w, scale=scale, clusters=clus)
    # the weights part: the derivative of the weights in each stratum's class mass
    p, q = cells.mass[:, 1], cells.mass[:, 0]
    deriv = {"pairs": (q, p), "positives": (np.ones_like(p), np.zeros_like(q)),
             "size": (np.ones_like(p), np.ones_like(q)), "uniform": None}[weighting]
    cov_weights = np.zeros((K, K))
    if deriv is not None:
        raw_total = {"pairs": p * q, "positives": p, "size": p + q}[weighting][used].sum()
        N = (p[used].sum(), q[used].sum())
        blocks, rows, cols = [], [], []
        for cls, side in ((1, 0), (0, 1)):
            idx = np.concatenate([cells.rows[2 * g + cls] for g in used])
            if idx.shape[0] == 0:
                continue
            where = cells.codes[idx]
            B = np.empty((idx.shape[0], K), order="F")
            for j in range(K):
                gap = np.zeros(cells.G)
                gap[used] = parts[j].values[used] - values[j]
                B[:, j] = N[side] * deriv[side][where] * gap[where] / raw_total
            blocks.append(B)
            rows.append(idx)
            cols.append(every)
        if any(np.any(b != 0) for b in blocks):
            cov_weights = sparse_term_covariance(blocks, rows, cols, K, weights=w, scale=scale, clusters=clus)
    return _Joint(values, cov_strata + cov_weights, cov_strata, parts, used)


def compare_stratified(y_true, y_scores, strata, *, weighting: str = "pairs", names=None, sample_weight=None,
                       pos_label=None, clusters=None, reference=None, adjust: str = "holm",
                       alternative: str = "two-sided", confidence_level: float = 0.95,
                       margin: float | None = None) -> Comparison:
    """Several scorers' stratified AUCs on the same rows, compared: their joint covariance
    (both parts of :func:`stratified_auc`'s variance, stacked over the scorers), every
    pair's difference (or each against ``reference``) with its test and interval, and
    the Wald test that all are equal. Also ``rw.stats.compare(y, scores,
    "stratified_auc", strata=..., weighting=...)``. ``alternative`` and ``margin``
    (non-inferiority, equivalence) as in :func:`rankwise.stats.compare`.

    Examples
    --------
    >>> import rankwise as rw
    >>> y = [0, 1, 0, 1, 0, 0, 1, 1, 0, 1]
    >>> a = [0.1, 0.9, 0.5, 0.3, 0.2, 0.6, 0.7, 0.8, 0.4, 0.45]
    >>> b = [0.2, 0.8, 0.1, 0.6, 0.3, 0.2, 0.9, 0.7, 0.5, 0.4]
    >>> c = rw.stats.compare(y, {"a": a, "b": b}, "stratified_auc", strata=["s"] * 4 + ["t"] * 6)
    >>> [round(float(v), 4) for v in c.values]
    [0.8462, 0.9231]

    Stratum s: a orders 3 of its 4 pairs right, b all 4; stratum t: both 8 of 9. With
    the pairs as weights, a has (3 + 8) / 13 and b (4 + 8) / 13.
    """
    weighting = check_choice(weighting, "weighting", "compare", WEIGHTINGS)
    level = _core.check_level(confidence_level, "compare")
    check_margin(margin, check_choice(alternative, "alternative", "compare", TEST_ALTERNATIVES), "compare")
    cols, labels = score_columns(y_scores, names)
    sample, cells, _ = group_cells(y_true, cols[0], strata, sample_weight=sample_weight, pos_label=pos_label,
                                   clusters=clusters, func="compare", name="strata", unit="stratum")
    scores = [sample.scores]
    for col, nm in zip(cols[1:], labels[1:]):
        s = check_scores(col, name=nm)
        check_same_length(sample.n_rows, s.shape[0], nm)
        scores.append(s)
    joint = _joint(sample, cells, scores, weighting, "compare('stratified_auc')")
    if joint.used.shape[0] == 0:
        warn_undefined("compare('stratified_auc')", "no stratum holds both classes")
    return build_comparison("stratified_auc", {"weighting": weighting}, labels, joint.values, joint.cov, "delong",
                            True, adjust, level, reference=reference, alternative=alternative,
                            bounds=[(0.0, 1.0)] * len(labels),
                            n_clusters=None if sample.clusters is None else sample.n_clusters, margin=margin)


def _from_estimate(y_true, y_score, *, sample_weight, pos_label, method, bandwidth, clusters, **kw):
    """``estimate(y, s, "stratified_auc", strata=..., weighting=...)``."""
    extra = sorted(set(kw) - {"strata", "weighting"})
    if extra or "strata" not in kw:
        raise TypeError("estimate(criterion='stratified_auc') takes strata=... (one stratum id per row) and "
                        f"optionally weighting=...; got the keywords {sorted(kw)}.")
    if method not in (None, "delong") or bandwidth is not None:
        raise TypeError("estimate(criterion='stratified_auc') takes no method other than 'delong' and no bandwidth.")
    return stratified_auc(y_true, y_score, sample_weight=sample_weight, pos_label=pos_label, clusters=clusters, **kw)


OWN_ENTRIES["stratified_auc"] = _from_estimate


def _from_compare(y_true, y_scores, *, names, sample_weight, pos_label, method, bandwidth, clusters, reference,
                  adjust, alternative, confidence_level, margin=None, **kw):
    """``compare(y, scores, "stratified_auc", strata=..., weighting=...)``."""
    extra = sorted(set(kw) - {"strata", "weighting"})
    if extra or "strata" not in kw:
        raise TypeError("compare(criterion='stratified_auc') takes strata=... (one stratum id per row) and "
                        f"optionally weighting=...; got the keywords {sorted(kw)}.")
    if method not in (None, "delong") or bandwidth is not None:
        raise TypeError("compare(criterion='stratified_auc') takes no method other than 'delong' and no bandwidth.")
    return compare_stratified(y_true, y_scores, names=names, sample_weight=sample_weight, pos_label=pos_label,
                              clusters=clusters, reference=reference, adjust=adjust, alternative=alternative,
                              confidence_level=confidence_level, margin=margin, **kw)


COMPARE_ENTRIES["stratified_auc"] = _from_compare
