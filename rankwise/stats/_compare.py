"""``compare``: several scorers on one sample (paired) or two independent samples."""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import numpy as np

from .. import criteria as _criteria
from .._labels import BINARY, kind_of
from .._validation import (
    check_choice,
    check_clusters,
    check_same_length,
    check_sample_weight,
    scale_weights,
    check_scores,
    warn_undefined,
)
from . import _compare_boot, _core, _dist
from ._estimate import (
    DegenerateIntervalWarning,
    check_bandwidth,
    check_method,
    estimate,
    resolve_criterion,
    warn_few_clusters,
)
from ._results import fmt, fmt_count, format_rows, html_table
from ._risk import pair_inputs
from ._variance import term_covariance

__all__ = [
    "ADJUSTMENTS",
    "ALTERNATIVES",
    "MARGIN_ALTERNATIVES",
    "TEST_ALTERNATIVES",
    "compare",
    "compare_unpaired",
    "Comparison",
    "PairwiseDifference",
    "adjust_p_values",
    "build_comparison",
    "check_margin",
    "check_names",
    "check_reference",
    "check_projection",
    "score_columns",
]


#: Criteria over structured cells with a comparison of their own that :func:`compare` also
#: reaches (``"stratified_auc"``: :mod:`rankwise.stats._strata` registers it).
COMPARE_ENTRIES: dict = {}


class PairwiseDifference(NamedTuple):
    """``value[a] - value[b]`` with its standard error, test and interval.

    ``p_value`` and the interval ``[low, high]`` follow the comparison's ``alternative``
    (a one-sided interval has an infinite end); ``p_adjusted`` is adjusted over the
    comparison's ``family``. A non-inferiority or equivalence margin is the comparison's
    (``Comparison.margin``)."""

    a: str
    b: str
    difference: float
    std_error: float
    statistic: float
    p_value: float
    p_adjusted: float
    low: float
    high: float


@dataclass(frozen=True, kw_only=True)
class Comparison:
    """Joint inference on K criteria values.

    Attributes
    ----------
    names : tuple of str
    values : ndarray (K,)
    cov : ndarray (K, K)
        Joint covariance of the K estimates (zero off the diagonal when unpaired).
    std_errors : ndarray (K,)
    pairs : tuple of PairwiseDifference
        Without a reference, every pair ``a < b`` in input order; with one, each other
        scorer ``a`` against the reference ``b`` (in input order). Each: difference
        ``a - b``, standard error, statistic, raw and adjusted p-value, confidence
        interval (not adjusted).
    adjust : str
        The multiplicity adjustment of ``p_adjusted``: ``"holm"``, ``"bonferroni"``,
        ``"bh"`` or ``"none"``.
    reference : str or None
        The scorer every other one is compared with (many-to-one), or None (all pairs).
    alternative : str
        ``"two-sided"``, ``"greater"`` (the alternative is ``a - b > 0``), ``"less"``,
        ``"noninferiority"`` (``a - b > -margin``) or ``"equivalence"``
        (``-margin < a - b < margin``).
    margin : float or None
        The non-inferiority or equivalence margin (None for the other alternatives).
    family : str
        The comparisons each adjusted p-value is adjusted over, in words with their
        number, e.g. ``"all pairs (K(K-1)/2 = 105)"`` or ``"each against 'logreg' (14)"``.
    bounds : tuple of (float, float)
        Each scorer's criterion range (e.g. ``(0, 1)`` for the AUC); the per-scorer
        intervals of :meth:`confidence_intervals` are clipped to it.
    global_statistic, global_df, global_p_value : float
        Wald test that all K values are equal: ``d' (C S C')^+ d`` with ``d`` the K-1
        successive differences, chi-square with ``rank(C S C')`` degrees of freedom.
    paired : bool
    df : float or None
        Unpaired only: the Welch-type degrees of freedom of pROC's unpaired DeLong test.
    n_clusters : int, (int, int) or None
        The number of clusters the covariance was taken over (``clusters=``; for an
        unpaired comparison, each sample's, or None for a sample of independent rows);
        None when every row is independent.
    """

    criterion: str
    params: dict
    names: tuple
    values: np.ndarray
    cov: np.ndarray
    method: str
    paired: bool
    adjust: str
    confidence_level: float
    pairs: tuple
    global_statistic: float
    global_df: float
    global_p_value: float
    df: float | None = None
    estimates: tuple = field(default=(), repr=False)
    reference: str | None = None
    alternative: str = "two-sided"
    family: str = ""
    bounds: tuple = ()
    n_clusters: Any = None
    margin: float | None = None
    #: ``method="bootstrap"``: the resamples the covariance and intervals were drawn from
    #: (those with every value defined), and the kind of interval of the differences
    #: (``"bca"`` or ``"percentile"``); None for an analytic method.
    n_resamples: int | None = None
    interval: str | None = None

    @property
    def std_errors(self) -> np.ndarray:
        return np.sqrt(np.maximum(np.diag(self.cov), 0.0))

    def confidence_intervals(self, confidence_level: float | None = None) -> np.ndarray:
        """Each scorer's Wald interval ``value +- z se`` (the comparison's level by
        default), clipped to the criterion's range: an AUC interval never leaves [0, 1].
        For a transformed or bootstrap interval of one scorer use :func:`estimate`.

        Returns
        -------
        ndarray (K, 2)
        """
        level = self.confidence_level if confidence_level is None else _core.check_level(
            confidence_level, "Comparison.confidence_intervals")
        z = _dist.norm_ppf(0.5 + level / 2.0)
        se = self.std_errors
        out = np.column_stack([self.values - z * se, self.values + z * se])
        if self.bounds:
            b = np.asarray(self.bounds, dtype=np.float64).reshape(-1, 2)
            out = np.column_stack([np.maximum(out[:, 0], b[:, 0]), np.minimum(out[:, 1], b[:, 1])])
        return out

    @property
    def corr(self) -> np.ndarray:
        se = self.std_errors
        with np.errstate(invalid="ignore", divide="ignore"):
            return self.cov / np.outer(se, se)

    def _label(self) -> str:
        extra = ", ".join(f"{k}={v}" for k, v in self.params.items())
        kind = "paired" if self.paired else "unpaired"
        return f"compare {self.criterion}{'(' + extra + ')' if extra else ''}: {kind}, {self.method}"

    def _tables(self):
        lvl = f"{self.confidence_level:.0%} CI"
        t1 = (["scorer", "value", "std. error", lvl],
              [[n, fmt(v), fmt(s), f"[{fmt(lo)}, {fmt(hi)}]"]
               for n, v, s, (lo, hi) in zip(self.names, self.values, self.std_errors, self.confidence_intervals())])
        if self.alternative == "two-sided":
            dlvl = lvl
        elif self.alternative == "equivalence":
            dlvl = f"{2.0 * self.confidence_level - 1.0:.0%} CI (TOST)"
        else:
            dlvl = f"{lvl} (one-sided)"
        t2 = (["difference", "estimate", "std. error", "statistic", "p-value", f"p ({self.adjust})", dlvl],
              [[f"{p.a} - {p.b}", fmt(p.difference), fmt(p.std_error), fmt(p.statistic, 3), fmt(p.p_value),
                fmt(p.p_adjusted), _fmt_interval(p.low, p.high)] for p in self.pairs])
        note = (f"all equal: chi2 = {fmt(self.global_statistic, 3)}, df = {fmt_count(self.global_df) if np.isfinite(self.global_df) else 'nan'}, "
                f"p = {fmt(self.global_p_value)}")
        if self.df is not None:
            note += f"; unpaired test: Welch-type df = {fmt(self.df, 3)}"
        notes = [self._family_note(), *self._margin_notes(), note]
        if self.n_clusters is not None and self.n_resamples is None:
            notes.append(cluster_note(self.n_clusters))
        if self.n_resamples is not None:
            notes.append(_boot_note(self))
        return t1, t2, notes

    def _family_note(self) -> str:
        if self.adjust == "none":
            text = f"p-values not adjusted for multiplicity; comparisons: {self.family}"
        else:
            text = f"p ({self.adjust}) adjusted over {self.family}"
        if self.alternative in ("greater", "less"):
            text += f"; one-sided: alternative a - b {'>' if self.alternative == 'greater' else '<'} 0"
        return text

    def _margin_notes(self) -> list[str]:
        """The hypotheses of a non-inferiority or equivalence test, in words."""
        if self.margin is None:
            return []
        d = f"{self.margin:g}"
        if self.alternative == "noninferiority":
            return [f"non-inferiority of a to b, margin {d}: H0: a - b <= -{d} (a worse than b by the margin "
                    f"or more), H1: a - b > -{d}; statistic (a - b + {d}) / se, upper-tail p-value; "
                    f"a is non-inferior when p < {fmt(1.0 - self.confidence_level)}, i.e. when the one-sided "
                    f"interval's lower end exceeds -{d}"]
        lvl = f"{2.0 * self.confidence_level - 1.0:.0%}"
        return [f"equivalence of a and b, margin {d} (two one-sided tests, Schuirmann 1987): H0: |a - b| >= {d}, "
                f"H1: -{d} < a - b < {d}; p is the larger of the two one-sided p-values and the statistic the "
                f"smaller of (a - b + {d}) / se and ({d} - (a - b)) / se; a and b are equivalent when "
                f"p < {fmt(1.0 - self.confidence_level)}, i.e. when the {lvl} interval lies inside (-{d}, {d})"]

    def summary(self) -> str:
        """Text tables: each value with its interval, then the differences, the family
        the p-values are adjusted over, and the global test."""
        t1, t2, notes = self._tables()
        return "\n".join([self._label(), format_rows(*t1), "", format_rows(*t2), *notes])

    def _repr_html_(self) -> str:
        t1, t2, notes = self._tables()
        title = "pairwise differences" if self.reference is None else f"differences to {self.reference!r}"
        return html_table(self._label(), *t1) + html_table(title, *t2, notes)

    def __str__(self) -> str:
        return self.summary()


ADJUSTMENTS = ("holm", "bonferroni", "bh", "none")
ALTERNATIVES = ("two-sided", "greater", "less")
#: The alternatives of a test against a margin (``margin=`` required): non-inferiority
#: and equivalence (two one-sided tests).
MARGIN_ALTERNATIVES = ("noninferiority", "equivalence")
#: The alternatives :func:`compare`, :func:`compare_unpaired` and :func:`build_comparison` take.
TEST_ALTERNATIVES = ALTERNATIVES + MARGIN_ALTERNATIVES


def _boot_note(c) -> str:
    """The line of a bootstrap comparison's summary that says how it was drawn."""
    if c.n_clusters is None:
        unit = "rows resampled within each class"
    elif isinstance(c.n_clusters, tuple):
        unit = " and ".join("rows within each class" if n is None else f"{n} clusters" for n in c.n_clusters) + \
            " resampled"
    else:
        unit = f"{c.n_clusters} clusters resampled whole"
    kind = "BCa" if c.interval == "bca" else "percentile"
    design = "jointly for all scorers" if c.paired else "each sample on its own"
    return (f"bootstrap: {fmt_count(c.n_resamples)} resamples ({unit}, {design}); statistic = difference / "
            f"bootstrap sd of the difference, normal p-value; {kind} intervals of the differences")


def _fmt_interval(low: float, high: float) -> str:
    return f"{'(' if low == -np.inf else '['}{fmt(low)}, {fmt(high)}{')' if high == np.inf else ']'}"


def adjust_p_values(p: np.ndarray, adjust: str) -> np.ndarray:
    """p-values adjusted for multiplicity over the ``m`` given ones.

    ``"holm"``: Holm's (1979) step-down, ``max_{j <= i} (m - j + 1) p_(j)`` at the
    ``i``-th smallest (controls the family-wise error rate); ``"bonferroni"``: ``m p``;
    ``"bh"``: Benjamini & Hochberg's (1995) step-up, ``min_{j >= i} m p_(j) / j``
    (controls the false discovery rate of independent or positively dependent tests);
    ``"none"``: unchanged. All are capped at 1. NaN p-values stay NaN and are not
    counted in ``m`` (as R's ``p.adjust``).

    Examples
    --------
    >>> import rankwise as rw
    >>> rw.stats.adjust_p_values([0.01, 0.04, 0.03, 0.5], "bh").round(4).tolist()
    [0.04, 0.0533, 0.0533, 0.5]
    """
    p = np.array(p, dtype=np.float64)
    if p.ndim != 1:
        raise ValueError(f"adjust_p_values takes a 1-D array of p-values. Got shape {p.shape}.")
    adjust = check_choice(adjust, "adjust", "adjust_p_values", ADJUSTMENTS)
    ok = ~np.isnan(p)
    bad = p[ok][(p[ok] < 0) | (p[ok] > 1)]
    if bad.size:
        raise ValueError(f"adjust_p_values takes p-values in [0, 1]. Got {bad[:3].tolist()}.")
    q = p[ok]
    m = q.shape[0]
    if adjust == "none" or m == 0:
        return p
    if adjust == "bonferroni":
        q = np.minimum(1.0, q * m)
    else:
        order = np.argsort(q, kind="stable")
        i = np.arange(1, m + 1)
        if adjust == "holm":
            stepped = np.maximum.accumulate((m - i + 1) * q[order])
        else:  # bh
            stepped = np.minimum.accumulate((m / i * q[order])[::-1])[::-1]
        q = np.empty(m)
        q[order] = np.minimum(1.0, stepped)
    p[ok] = q
    return p


def _ratio(num: float, se: float) -> float:
    # Zero variance on both sides (pROC's convention): a zero numerator gives a statistic
    # of 0, any other an infinite one.
    if se == 0:
        return 0.0 if num == 0 else float(np.copysign(np.inf, num))
    return num / se


def _test(diff: float, se: float, alternative: str, df: float | None,
          margin: float | None = None) -> tuple[float, float]:
    """The statistic ``diff / se`` and its p-value under ``alternative``, from the normal
    (``df`` None) or Student's t with ``df`` degrees of freedom.

    ``"noninferiority"``: ``(diff + margin) / se`` and its upper tail (H0: ``diff <=
    -margin``); ``"equivalence"``: the two one-sided tests, the smaller of ``(diff +
    margin) / se`` and ``(margin - diff) / se`` and its upper tail, which is the larger
    of the two one-sided p-values."""
    if not np.isfinite(se):
        return float("nan"), float("nan")
    if alternative in MARGIN_ALTERNATIVES:
        zs = _ratio(diff + margin, se)
        if alternative == "equivalence":
            zs = min(zs, _ratio(margin - diff, se))
        p = _dist.norm_sf(zs) if df is None else _dist.t_sf(zs, df)
        return float(zs), float(p)
    zs = _ratio(diff, se)
    if df is None:
        sf, cdf = _dist.norm_sf, _dist.norm_cdf
    else:
        sf, cdf = (lambda x: _dist.t_sf(x, df)), (lambda x: _dist.t_cdf(x, df))
    if alternative == "greater":
        p = sf(zs)
    elif alternative == "less":
        p = cdf(zs)
    else:
        p = 2.0 * sf(abs(zs))
    return float(zs), float(p)


def _interval(diff: float, se: float, alternative: str, level: float, df: float | None) -> tuple[float, float]:
    def ppf(p: float) -> float:
        return _dist.norm_ppf(p) if df is None else _dist.t_ppf(p, df)
    if alternative == "two-sided":
        q = float(ppf(0.5 + level / 2.0))
        return float(diff - q * se), float(diff + q * se)
    q = float(ppf(level))
    if alternative == "equivalence":  # the (1 - 2 alpha) two-sided interval
        return float(diff - q * se), float(diff + q * se)
    if alternative in ("greater", "noninferiority"):
        return float(diff - q * se), float("inf")
    return float("-inf"), float(diff + q * se)


def _global_test(values: np.ndarray, cov: np.ndarray) -> tuple[float, float, float]:
    K = values.shape[0]
    C = np.zeros((K - 1, K))
    idx = np.arange(K - 1)
    C[idx, idx] = 1.0
    C[idx, idx + 1] = -1.0
    d = C @ values
    S = C @ cov @ C.T
    if not np.isfinite(S).all():
        return float("nan"), float("nan"), float("nan")
    scale = max(float(np.abs(S).max()), 1e-300)
    df = int(np.linalg.matrix_rank(S, tol=1e-10 * scale)) if np.abs(S).max() > 0 else 0
    if df == 0:
        return (0.0, 0.0, 1.0) if np.allclose(d, 0) else (float("inf"), 0.0, 0.0)
    stat = float(d @ np.linalg.pinv(S, rcond=1e-10) @ d)
    return stat, float(df), _dist.chi2_sf(stat, df)


def check_reference(reference, names, func: str = "compare") -> str | None:
    """None, or the name of one of the scorers."""
    if reference is None:
        return None
    if not isinstance(reference, str):
        raise TypeError(f"The 'reference' argument of {func} must be a scorer name (a str). "
                        f"Got {type(reference).__name__} {reference!r}.")
    if reference not in names:
        raise ValueError(f"The 'reference' argument of {func} must be one of the scorer names {list(names)}. "
                         f"Got {reference!r}.")
    return reference


def family_text(names, reference: str | None) -> str:
    """The comparisons a :class:`Comparison`'s p-values are adjusted over, in words."""
    K = len(names)
    if reference is None:
        return f"all pairs (K(K-1)/2 = {K * (K - 1) // 2})"
    return f"each against {reference!r} ({K - 1})"


def cluster_note(n_clusters) -> str:
    """The line of a summary that says over which clusters the variances were taken."""
    if isinstance(n_clusters, tuple):
        parts = [f"{n} clusters" if n is not None else "independent rows" for n in n_clusters]
        return "standard errors over clusters: " + " and ".join(parts) + " (cluster-robust, Obuchowski 1997)"
    return f"standard errors over {n_clusters} clusters (cluster-robust, Obuchowski 1997)"


def check_margin(margin, alternative: str, func: str) -> float | None:
    """``margin``: a positive finite number with ``"noninferiority"`` and
    ``"equivalence"`` (required), None with the other alternatives."""
    if alternative not in MARGIN_ALTERNATIVES:
        if margin is not None:
            raise ValueError(f"The 'margin' argument of {func} is only for alternative='noninferiority' or "
                             f"'equivalence'. Got margin={margin!r} with alternative={alternative!r}.")
        return None
    what = ("the largest shortfall a - b < 0 that still counts as non-inferior" if alternative == "noninferiority"
            else "the largest difference |a - b| that still counts as equivalent")
    if margin is None:
        raise ValueError(f"The 'margin' argument of {func} is required with alternative={alternative!r}: "
                         f"a positive number, {what}.")
    if isinstance(margin, (bool, np.bool_)) or not isinstance(margin, (int, float, np.integer, np.floating)):
        raise TypeError(f"The 'margin' argument of {func} must be a positive number, {what}. "
                        f"Got {type(margin).__name__} {margin!r}.")
    m = float(margin)
    if not (np.isfinite(m) and m > 0):
        raise ValueError(f"The 'margin' argument of {func} must be a positive number, {what}. Got {margin!r}.")
    return m


def build_comparison(criterion, params, names, values, cov, method, paired, adjust, level, estimates=(),
                     unpaired_df=None, *, reference=None, alternative="two-sided", bounds=(),
                     n_clusters=None, margin=None) -> Comparison:
    """The :class:`Comparison` of K values with their joint covariance: every pair
    ``a < b`` in input order, or with ``reference`` each other scorer ``a`` against it
    (``b``); p-values and intervals under ``alternative``, from the normal, or from
    Student's t with ``unpaired_df`` degrees of freedom when given. ``margin``: required
    with ``"noninferiority"`` and ``"equivalence"`` (see :func:`compare`), refused
    otherwise."""
    K = values.shape[0]
    reference = check_reference(reference, names, "build_comparison")
    alternative = check_choice(alternative, "alternative", "build_comparison", TEST_ALTERNATIVES)
    margin = check_margin(margin, alternative, "build_comparison")
    if reference is None:
        index = [(i, j) for i in range(K) for j in range(i + 1, K)]
    else:
        r = list(names).index(reference)
        index = [(i, r) for i in range(K) if i != r]
    raw = []
    for i, j in index:
        diff = float(values[i] - values[j])
        var = float(cov[i, i] + cov[j, j] - 2.0 * cov[i, j])
        se = float(np.sqrt(max(var, 0.0))) if np.isfinite(var) else float("nan")
        # Student's t where its degrees of freedom are defined (a variance), else the normal.
        df = unpaired_df if unpaired_df is not None and se > 0 and np.isfinite(unpaired_df) else None
        stat, p = _test(diff, se, alternative, df, margin)
        low, high = _interval(diff, se, alternative, level, df)
        raw.append((names[i], names[j], diff, se, stat, p, low, high))
    if any(np.isnan(r[3]) and np.isfinite(r[2]) for r in raw):
        why = ("a class lies in fewer than two clusters" if n_clusters is not None and not isinstance(n_clusters, tuple)
               else "a class has at most one observation, or total frequency weight at most 1")
        warnings.warn(f"compare({criterion!r}): the standard errors of the differences cannot be estimated "
                      f"({why}), so the p-values and intervals are nan.", DegenerateIntervalWarning, stacklevel=3)
    padj = adjust_p_values(np.array([r[5] for r in raw]), adjust)
    pairs = tuple(PairwiseDifference(r[0], r[1], r[2], r[3], r[4], r[5], float(pa), r[6], r[7])
                  for r, pa in zip(raw, padj))
    gs, gdf, gp = _global_test(values, cov)
    return Comparison(criterion=criterion, params=params, names=tuple(names), values=values, cov=cov, method=method,
                      paired=paired, adjust=adjust, confidence_level=level, pairs=pairs, global_statistic=gs,
                      global_df=gdf, global_p_value=gp, df=unpaired_df, estimates=tuple(estimates),
                      reference=reference, alternative=alternative, family=family_text(names, reference),
                      bounds=tuple(tuple(float(v) for v in b) for b in bounds), n_clusters=n_clusters,
                      margin=margin)


def score_columns(y_scores: Any, names: Any, *, named_list: bool = False) -> tuple[list, list[str]]:
    """The K score columns of ``compare`` and their names: a dict (keys), a DataFrame
    (columns), a list (``score_1 ... score_K``, or the items themselves with
    ``named_list``, when they are column names) or a 2-D array (one column per scorer;
    a dask array stays lazy)."""
    mod = type(y_scores).__module__ or ""
    if isinstance(y_scores, dict):
        keys = list(y_scores)
        cols = [y_scores[k] for k in keys]
        default = [str(k) for k in keys]
    elif mod.startswith("pandas") and hasattr(y_scores, "columns"):
        default = [str(c) for c in y_scores.columns]
        cols = [y_scores[c] for c in y_scores.columns]
    elif isinstance(y_scores, (list, tuple)):
        cols = list(y_scores)
        default = [str(c) for c in cols] if named_list else [f"score_{i + 1}" for i in range(len(cols))]
    else:
        arr = y_scores if hasattr(y_scores, "ndim") and hasattr(y_scores, "shape") else np.asarray(y_scores)
        if arr.ndim != 2:
            raise ValueError(
                "The 'y_scores' argument of compare must be a list of score arrays, a dict, a DataFrame or a "
                f"2-D array with one column per scorer. Got an array of shape {arr.shape} instead."
            )
        cols = [arr[:, k] for k in range(arr.shape[1])]
        default = [f"score_{i + 1}" for i in range(len(cols))]
    return cols, check_names(cols, default, names)


def check_names(cols: list, default: list, names) -> list[str]:
    """At least two scorers, and as many distinct names as scorers (``default`` when None)."""
    if len(cols) < 2:
        raise ValueError(f"compare needs at least two scorers. Got {len(cols)}.")
    names = [str(n) for n in (default if names is None else names)]
    if len(names) != len(cols):
        raise ValueError(f"compare got {len(names)} names for {len(cols)} scorers; they must match.")
    if len(set(names)) != len(names):
        raise ValueError(f"The scorer names must be distinct. Got {names}.")
    return names


def compare(y_true, y_scores, criterion: str = "auc", *, names=None, sample_weight=None, pos_label=None,
            method: str | None = None, reference: str | None = None, adjust: str = "holm",
            alternative: str = "two-sided", confidence_level: float = 0.95, bandwidth: float | None = None,
            clusters=None, margin: float | None = None, n_resamples: int | None = None, random_state: Any = None,
            interval: str | None = None, **criterion_args) -> Comparison:
    r"""Compare K scorers on the same sample: joint covariance, pairwise tests, global test.

    Parameters
    ----------
    y_true : array-like of shape (n,)
    y_scores : list of array-likes, dict name -> array-like, DataFrame, or array (n, K)
        The K scorers, each of length n, on the same observations.
    criterion : str
        As in :func:`estimate` (any binary criterion, or ``ranking_risk``).
    names : list of str, optional
        Defaults to the dict keys / DataFrame columns / ``score_1 ... score_K``.
    method : str, optional
        ``"delong"`` (AUC default) or ``"hajek"``; ``"hajek"`` for ``ranking_risk``; or
        ``"bootstrap"`` for any binary criterion (those without a projection, like
        ``ks_statistic``, included): the covariance is the bootstrap covariance of the
        K values, resampled jointly (one draw of the rows shared by all scorers: rows
        within each class, or whole clusters with ``clusters=``), each statistic the
        difference over the bootstrap standard deviation of the difference with its
        normal p-value (pROC's ``roc.test(..., method="bootstrap")``), and the
        intervals of the differences bootstrap intervals (``interval=``). See
        docs/bootstrap_compare.md.
    n_resamples : int, optional
        ``method="bootstrap"`` only: the number of resamples (default 2000, at least 2).
    random_state : int, numpy Generator or None
        ``method="bootstrap"`` only: the seed; the same seed gives the same numbers.
    interval : {"bca", "percentile"}, optional
        ``method="bootstrap"`` only: the intervals of the differences, bias-corrected and
        accelerated (default; the acceleration from a jackknife) or percentile.
    reference : str, optional
        A scorer's name: compare each other scorer ``a`` with it (``a - reference``;
        many-to-one, K - 1 comparisons), and adjust the p-values over those K - 1 only.
        By default every pair ``a < b`` in input order, K(K-1)/2 comparisons.
    adjust : {"holm", "bonferroni", "bh", "none"}
        Multiplicity adjustment of the p-values over the comparisons made
        (``Comparison.family`` names them): Holm's (1979) step-down (the default) and
        Bonferroni's control the family-wise error rate; ``"bh"``, Benjamini &
        Hochberg's (1995) step-up, the false discovery rate. See :func:`adjust_p_values`.
    clusters : array-like of shape (n,), optional
        The sampling unit of each row (a patient id for several lesions per patient, a
        user id for several sessions per user; ids of any type). The joint covariance is
        then taken over clusters (Obuchowski 1997; see :func:`estimate`), so rows of one
        cluster may be correlated. Default: every row independent.
    alternative : {"two-sided", "greater", "less", "noninferiority", "equivalence"}
        The alternative of each test of the difference ``a - b``: ``"greater"`` is
        ``a - b > 0``. One-sided p-values are the normal's tail on that side (pROC's
        ``roc.test(..., alternative=)`` convention), so a ``"greater"`` p-value below
        0.5 is half the two-sided one. Choose the side before looking at the data; for
        a loss (``greater_is_better`` false) "better" is ``"less"``.

        ``"noninferiority"`` (with ``margin=d``) tests H0: ``a - b <= -d`` against H1:
        ``a - b > -d``: ``a``, the first scorer of each pair, is the new score and
        ``b`` the current one (with ``reference=`` the reference is ``b`` in every
        pair, so pass the current score as ``reference``). The statistic is
        ``(a - b + d) / se`` with its upper-tail p-value. ``"equivalence"`` tests H0:
        ``|a - b| >= d`` against H1: ``-d < a - b < d`` by two one-sided tests
        (Schuirmann 1987): the p-value is the larger of the two one-sided ones, the
        statistic the smaller of ``(a - b + d) / se`` and ``(d - (a - b)) / se``. Both
        are written for a criterion where greater is better; for a loss, where
        ``a`` is worse when ``a - b > 0``, test non-inferiority on the reversed
        pair (``a`` the current score) or use ``"equivalence"``.
    margin : float, optional
        Required with ``"noninferiority"`` and ``"equivalence"``, refused with the
        other alternatives: a positive number, in the criterion's units, the largest
        shortfall ``b - a`` (non-inferiority) or difference ``|a - b|`` (equivalence)
        that still counts as acceptable, e.g. 0.02 of AUC. Fix it before looking at
        the data. Stored as ``Comparison.margin``.
    confidence_level : float
        For the intervals of the differences (not adjusted for multiplicity). With a
        one-sided alternative the interval is one-sided too, ``[low, inf)`` for
        ``"greater"`` and ``(-inf, high]`` for ``"less"``, so that it excludes 0
        exactly when the test rejects at ``1 - confidence_level``. The open end is
        infinite rather than the largest possible difference: the intervals are Wald
        intervals, not clipped to the criterion's range when two-sided either, and for
        several criteria (DCG, the p-norm push, the ranking risk) the range depends on
        the sample. ``"noninferiority"`` has the one-sided ``[low, inf)`` (non-inferior
        exactly when ``low > -margin``); ``"equivalence"`` the two-sided interval at
        level ``2 confidence_level - 1`` (90% at 95%), and equivalence is declared
        exactly when it lies inside ``(-margin, margin)``.

    Notes
    -----
    Every estimate is linearised into one projection term per observation (see
    :func:`estimate`); on the same sample these terms are paired, and the joint
    covariance is :math:`\Sigma = S_+/n_+ + S_-/n_-`, :math:`S_\pm` the within-class sample
    covariance matrices of the K projections. For the AUC these are DeLong, DeLong &
    Clarke-Pearson's (1988) placements, and the pairwise statistic
    :math:`z = (\hat\theta_a - \hat\theta_b)/\sqrt{\Sigma_{aa} + \Sigma_{bb} - 2\Sigma_{ab}}` is
    R pROC's ``roc.test(..., method="delong", paired=TRUE)`` (they agree to 1e-12).
    The global test is the Wald statistic of the K-1 successive differences,
    chi-square with as many degrees of freedom as the rank of their covariance.
    For ``ranking_risk`` (real labels) the terms are the Hoeffding projections and
    :math:`\Sigma = 4\,\mathrm{Cov}(h_1)/n`.

    Non-inferiority and equivalence: Schuirmann, D. J. (1987), "A comparison of the two
    one-sided tests procedure and the power approach for assessing the equivalence of
    average bioavailability", *Journal of Pharmacokinetics and Biopharmaceutics* 15(6),
    657-680; for diagnostic tests, Obuchowski, N. A. (1997), "Testing for equivalence of
    diagnostic tests", *American Journal of Roentgenology* 168(1), 13-17.

    Bootstrap (``method="bootstrap"``): ``B`` resamples of the rows within each class
    (class sizes kept) or of whole clusters, one draw shared by the K scorers; the
    covariance is the sample covariance of the ``B`` resampled value vectors, so the
    standard error of ``a - b`` is the standard deviation of the resampled differences and
    :math:`D = (\hat\theta_a - \hat\theta_b)/\mathrm{sd}(d^*)` is pROC's bootstrap statistic
    (Robin et al. 2011, "pROC: an open-source package for R and S+ to analyze and compare
    ROC curves", *BMC Bioinformatics* 12, 77), with its normal p-value. The intervals of
    the differences are percentile or BCa intervals of the ``d*`` (Efron, B. and
    Tibshirani, R. J. (1993), *An Introduction to the Bootstrap*, Chapman & Hall; the
    acceleration from a jackknife of the difference); Carpenter, J. and Bithell, J. (2000),
    "Bootstrap confidence intervals: when, which, what? A practical guide for medical
    statisticians", *Statistics in Medicine* 19, 1141-1164, discuss the choice.

    Multiple comparisons: Holm, S. (1979), "A simple sequentially rejective multiple test
    procedure", *Scandinavian Journal of Statistics* 6(2), 65-70; Benjamini, Y. and
    Hochberg, Y. (1995), "Controlling the false discovery rate: a practical and powerful
    approach to multiple testing", *Journal of the Royal Statistical Society B* 57(1),
    289-300.

    Examples
    --------
    >>> import rankwise as rw
    >>> y = [0, 0, 1, 0, 1, 1, 0, 1]
    >>> c = rw.stats.compare(y, {"a": [1, 2, 3, 4, 5, 6, 7, 8], "b": [1, 3, 2, 5, 4, 8, 6, 7]})
    >>> c.values.round(4).tolist()
    [0.75, 0.6875]
    >>> d = c.pairs[0]
    >>> round(d.difference, 4), round(d.std_error, 4), round(d.p_value, 4)
    (0.0625, 0.1693, 0.7119)
    >>> g = rw.stats.compare(y, {"a": [1, 2, 3, 4, 5, 6, 7, 8], "b": [1, 3, 2, 5, 4, 8, 6, 7]},
    ...                      reference="b", alternative="greater")
    >>> g.family, round(g.pairs[0].p_value, 4), g.pairs[0].high
    ("each against 'b' (1)", 0.356, inf)

    Non-inferiority of ``a`` to ``b`` with a margin of 0.1: the statistic is
    ``(0.0625 + 0.1) / 0.1693 = 0.96``, its upper normal tail 0.168:

    >>> n = rw.stats.compare(y, {"a": [1, 2, 3, 4, 5, 6, 7, 8], "b": [1, 3, 2, 5, 4, 8, 6, 7]},
    ...                      alternative="noninferiority", margin=0.1)
    >>> round(n.pairs[0].statistic, 2), round(n.pairs[0].p_value, 3), n.margin
    (0.96, 0.168, 0.1)

    The Kolmogorov-Smirnov statistic has no analytic standard error, so it is compared by
    the bootstrap. Both scorers separate the classes by at most 0.5 (``a`` at the
    threshold 2.5: all 4 positives above it against 2 of the 4 negatives), so the
    difference is 0:

    >>> k = rw.stats.compare(y, {"a": [1, 2, 3, 4, 5, 6, 7, 8], "b": [1, 3, 2, 5, 4, 8, 6, 7]},
    ...                      "ks_statistic", method="bootstrap", n_resamples=500, random_state=0)
    >>> k.values.tolist(), k.pairs[0].difference, k.n_resamples, k.interval
    ([0.5, 0.5], 0.0, 500, 'bca')
    """
    n_boot, interval = _compare_boot.check_boot_args(method, n_resamples, random_state, interval, "compare")
    if isinstance(criterion, str) and criterion in COMPARE_ENTRIES:  # e.g. "stratified_auc": its own entry
        if n_boot is not None:
            raise ValueError(f"compare({criterion!r}) does not take method='bootstrap'; use its analytic method.")
        return COMPARE_ENTRIES[criterion](y_true, y_scores, names=names, sample_weight=sample_weight,
                                          pos_label=pos_label, method=method, bandwidth=bandwidth, clusters=clusters,
                                          reference=reference, adjust=adjust, alternative=alternative,
                                          confidence_level=confidence_level, margin=margin, **criterion_args)
    unit, params = resolve_criterion(criterion, criterion_args, "compare")
    if n_boot is None:
        check_projection(unit, "compare")
        method = check_method(method, unit, "compare")
    else:
        _check_boot_unit(unit, bandwidth, "compare")
    adjust = check_choice(adjust, "adjust", "compare", ADJUSTMENTS)
    alternative = check_choice(alternative, "alternative", "compare", TEST_ALTERNATIVES)
    margin = check_margin(margin, alternative, "compare")
    level = _core.check_level(confidence_level, "compare")
    bandwidth = check_bandwidth(bandwidth)
    cols, names = score_columns(y_scores, names)
    K = len(cols)
    opts = dict(reference=check_reference(reference, names), alternative=alternative, margin=margin)
    if kind_of(unit).name == "real":
        return _compare_pairs(unit, params, y_true, cols, names, sample_weight, adjust, level, opts, clusters)
    is_pos, labels = BINARY.read(y_true, pos_label=pos_label, func="compare")
    both = labels.both
    n = is_pos.shape[0]
    clusters = check_clusters(clusters, n, "compare")
    scores = []
    for k, col in enumerate(cols):
        s = check_scores(col, name=f"y_scores[{names[k]!r}]")
        check_same_length(n, s.shape[0], f"y_scores[{names[k]!r}]")
        scores.append(s)
    w, scale = scale_weights(check_sample_weight(sample_weight, n))
    if both and w is not None:
        both = bool(w[is_pos].any()) and bool(w[~is_pos].any())
    if not both:
        warn_undefined(f"compare({unit.name!r})")
        nan = np.full(K, np.nan)
        return build_comparison(unit.name, params, names, nan, np.full((K, K), np.nan), method, True, adjust, level,
                                n_clusters=None if clusters is None else clusters[1], **opts)
    w, scale = _criteria.table_weights(unit, w, scale)
    if clusters is not None:
        warn_few_clusters(is_pos, w, clusters, f"compare({unit.name!r})", stacklevel=3)
    if n_boot is not None:
        return _boot_paired(unit, params, is_pos, scores, w, scale, clusters, names, adjust, level, opts, n_boot,
                            random_state, interval)
    values, bounds, H, rows = _core.terms_by_row(unit, is_pos, scores, w, scale, bandwidth)
    cov = term_covariance(H, rows, weights=w, scale=scale, clusters=clusters)
    return build_comparison(unit.name, params, names, values, cov, method, True, adjust, level, bounds=bounds,
                            n_clusters=None if clusters is None else clusters[1], **opts)


def check_projection(unit, func: str) -> None:
    """Paired comparisons pair the scorers' projection terms: a criterion without a
    projection (its intervals come from the bootstrap) cannot be compared this way."""
    if not unit.methods:
        raise ValueError(f"{func} pairs the scorers' projection terms and {unit.name} has none "
                         f"(its intervals come from the bootstrap); compare the scorers with another "
                         f"criterion, or bootstrap the difference yourself.")


def _check_boot_unit(unit, bandwidth, func: str) -> None:
    """The bootstrap resamples binary samples; it has no use for a projection's window."""
    if kind_of(unit).name != "binary":
        raise ValueError(f"{func}(method='bootstrap') resamples binary samples; {unit.name} takes "
                         f"{kind_of(unit).name} labels: use its analytic method.")
    if bandwidth is not None:
        raise ValueError(f"The 'bandwidth' argument of {func} is the window of a projection's derivatives; "
                         f"method='bootstrap' does not use it. Got bandwidth={bandwidth!r}.")


def _boot_fits(unit, is_pos, scores, w, scale):
    """Each scorer's value and range, and the bootstrap's units (one sort per scorer)."""
    samples, levels = _compare_boot.sample_levels(is_pos, scores, w, scale)
    values, bounds = [], []
    for sample in samples:
        fit = _core.fit_criterion(unit, sample, None, sided=True)
        values.append(fit.value)
        bounds.append(fit.bounds)
    return np.array(values, dtype=np.float64), bounds, levels


def _boot_moments(reps: np.ndarray, func: str) -> tuple[np.ndarray, np.ndarray]:
    """``(finite replicates, covariance)``: the resamples where every value is defined
    (a resample of clusters may miss a class), and their covariance (denominator B - 1)."""
    ok = np.isfinite(reps).all(axis=1)
    dropped = int(reps.shape[0] - np.count_nonzero(ok))
    if dropped:
        warnings.warn(f"{func}: {dropped} of {reps.shape[0]} bootstrap resamples gave an undefined value (a "
                      f"class absent from the resample) and were dropped.", DegenerateIntervalWarning, stacklevel=4)
    reps = reps[ok]
    K = reps.shape[1]
    if reps.shape[0] < 2:
        return reps, np.full((K, K), np.nan)
    return reps, np.atleast_2d(np.cov(reps, rowvar=False, ddof=1))


def _with_boot_intervals(comp: Comparison, diffs: dict, accels: dict, interval: str, n_boot: int) -> Comparison:
    """The comparison with each difference's interval replaced by its bootstrap interval."""
    import dataclasses

    pairs = []
    for p in comp.pairs:
        low, high = _compare_boot.difference_interval(p.difference, diffs[(p.a, p.b)], comp.alternative,
                                                      comp.confidence_level, interval, accels[(p.a, p.b)]())
        pairs.append(p._replace(low=low, high=high))
    return dataclasses.replace(comp, pairs=tuple(pairs), n_resamples=int(n_boot), interval=interval)


def _boot_paired(unit, params, is_pos, scores, w, scale, clusters, names, adjust, level, opts, n_boot,
                 random_state, interval) -> Comparison:
    """``compare(..., method="bootstrap")`` on a sample with both classes."""
    values, bounds, levels = _boot_fits(unit, is_pos, scores, w, scale)
    draws = _compare_boot.BootDraws(is_pos, levels, w, clusters)
    reps, cov = _boot_moments(_compare_boot.replicates(unit, draws, n_boot, random_state), "compare")
    comp = build_comparison(unit.name, params, names, values, cov, "bootstrap", True, adjust, level, bounds=bounds,
                            n_clusters=None if clusters is None else clusters[1], **opts)
    index = {n: i for i, n in enumerate(names)}
    jack = []

    def accel_of(i, j):
        def accel():
            if interval != "bca":
                return 0.0
            if not jack:  # the jackknife once, for every pair
                full = [draws.full_tables(k) for k in range(len(names))]
                jack.append(_compare_boot.jackknife_acceleration(unit, draws, full))
            coef = np.zeros(len(names))
            coef[i], coef[j] = 1.0, -1.0
            return _compare_boot.acceleration_of(jack[0], coef)
        return accel

    diffs, accels = {}, {}
    for p in comp.pairs:
        i, j = index[p.a], index[p.b]
        diffs[(p.a, p.b)] = reps[:, i] - reps[:, j]
        accels[(p.a, p.b)] = accel_of(i, j)
    return _with_boot_intervals(comp, diffs, accels, interval, reps.shape[0])


def _boot_sample(y_true, y_score, sample_weight, pos_label, clusters, unit, func: str, which: str) -> tuple:
    """One sample of an unpaired bootstrap comparison, validated: ``(is_pos, s, w, scale,
    clusters, defined)``."""
    is_pos, labels = BINARY.read(y_true, pos_label=pos_label, func=func)
    n = is_pos.shape[0]
    s = check_scores(y_score, name=f"y_score_{which}")
    check_same_length(n, s.shape[0], f"y_score_{which}")
    w, scale = scale_weights(check_sample_weight(sample_weight, n))
    clusters = check_clusters(clusters, n, func, name=f"clusters_{which}")
    both = labels.both
    if both and w is not None:
        both = bool(w[is_pos].any()) and bool(w[~is_pos].any())
    w, scale = _criteria.table_weights(unit, w, scale)
    if both and clusters is not None:
        warn_few_clusters(is_pos, w, clusters, f"{func}({unit.name!r}), sample {which}",
                          what="bootstrap over clusters", stacklevel=4)
    return is_pos, s, w, scale, clusters, both


def _boot_unpaired(unit, params, samples, names, level, alternative, margin, n_boot, random_state,
                   interval) -> Comparison:
    """``compare_unpaired(..., method="bootstrap")``: each sample resampled on its own."""
    rng = random_state if isinstance(random_state, np.random.Generator) else np.random.default_rng(random_state)
    seeds = rng.spawn(2)
    values, variances, reps_all, bounds, parts, ncl = [], [], [], [], [], []
    for (is_pos, s, w, scale, clusters, both), seed in zip(samples, seeds):
        ncl.append(None if clusters is None else clusters[1])
        if not both:
            warn_undefined(f"compare_unpaired({unit.name!r})")
            values.append(float("nan"))
            variances.append(float("nan"))
            reps_all.append(np.full(n_boot, np.nan))
            bounds.append((0.0, 1.0))
            parts.append(None)
            continue
        v, b, levels = _boot_fits(unit, is_pos, [s], w, scale)
        draws = _compare_boot.BootDraws(is_pos, levels, w, clusters)
        reps, cov = _boot_moments(_compare_boot.replicates(unit, draws, n_boot, seed), "compare_unpaired")
        values.append(float(v[0]))
        variances.append(float(cov[0, 0]))
        reps_all.append(reps[:, 0])
        bounds.append(b[0])
        parts.append(draws)
    values = np.array(values)
    cov = np.diag(variances)
    nc = None if ncl[0] is None and ncl[1] is None else tuple(ncl)
    comp = build_comparison(unit.name, params, list(names), values, cov, "bootstrap", False, "none", level,
                            alternative=alternative, bounds=bounds, n_clusters=nc, margin=margin)
    m = min(r.shape[0] for r in reps_all)  # resample r of a against resample r of b

    def accel():
        if interval != "bca" or any(p is None for p in parts):
            return 0.0
        num = den = 0.0
        for sign, draws in zip((1.0, -1.0), parts):
            jack = _compare_boot.jackknife_acceleration(unit, draws, [draws.full_tables(0)])
            a, d = _compare_boot.acceleration_parts(jack, np.array([sign]))
            num, den = num + a, den + d
        return num / (6.0 * den ** 1.5) if den > 0 else 0.0

    p = comp.pairs[0]
    return _with_boot_intervals(comp, {(p.a, p.b): reps_all[0][:m] - reps_all[1][:m]}, {(p.a, p.b): accel},
                                interval, m)


def _compare_pairs(unit, params, y_true, cols, names, sample_weight, adjust, level, opts, clusters=None) -> Comparison:
    K = len(cols)
    values = np.empty(K)
    G = None
    w = None
    for k, col in enumerate(cols):
        y, s, w, scale = pair_inputs(y_true, col, sample_weight, f"y_scores[{names[k]!r}]")
        res = unit.projection_of(y, s, w)
        if res is None:
            warn_undefined(f"compare({unit.name!r})", unit.undefined_reason)
            return build_comparison(unit.name, params, names, np.full(K, np.nan), np.full((K, K), np.nan),
                                    "hajek", True, adjust, level, **opts)
        if G is None:
            G = np.empty((y.shape[0], K))
        values[k], G[:, k] = res[0], res[1]
    n = G.shape[0]
    clusters = check_clusters(clusters, n, "compare")
    if clusters is None:
        nn = float(n if w is None else w.sum())
        ww = np.ones(n) if w is None else w
        # 4 G'WG / size^2 with size = scale * nn the sample size (frequency weights).
        cov = 4.0 * (G.T * ww) @ G / nn / (nn * scale)
    else:
        # The Hoeffding projections summed by cluster (the grouped infinitesimal jackknife:
        # no small-sample factor, as the row-level 4 zeta1 / n has none).
        cov = 4.0 * term_covariance([G], [np.arange(n)], weights=w, clusters=clusters, small_sample=False)
    return build_comparison(unit.name, params, names, values, cov, "hajek", True, adjust, level,
                            n_clusters=None if clusters is None else clusters[1], **opts)


def compare_unpaired(y_true_a, y_score_a, y_true_b, y_score_b, criterion: str = "auc", *, names=("a", "b"),
                     sample_weight_a=None, sample_weight_b=None, pos_label=None, method: str | None = None,
                     alternative: str = "two-sided", confidence_level: float = 0.95,
                     bandwidth: float | None = None, clusters_a=None, clusters_b=None,
                     margin: float | None = None, n_resamples: int | None = None, random_state: Any = None,
                     interval: str | None = None, **criterion_args) -> Comparison:
    r"""Compare a criterion between two independent samples (e.g. a score on two populations).

    The two estimates are independent, so the difference has variance
    :math:`V_a + V_b`. As in R pROC's ``roc.test(..., method="delong", paired=FALSE)``
    the statistic :math:`D = (\hat\theta_a - \hat\theta_b)/\sqrt{V_a + V_b}` is referred to a
    t distribution with the Welch-type degrees of freedom
    :math:`(V_a + V_b)^2 / (V_a^2/(N_a - 1) + V_b^2/(N_b - 1))`, ``N`` the total sample sizes
    (agreement with pROC to 1e-12). ``Comparison.df`` holds them.

    ``clusters_a``, ``clusters_b``: each sample's sampling units (see :func:`estimate`);
    its variance is then taken over its clusters, and ``N`` counts its clusters rather
    than its rows in the degrees of freedom. The two samples must not share a cluster
    (they are independent).

    ``alternative`` (``"two-sided"``, ``"greater"``: ``a - b > 0``, or ``"less"``) takes
    the p-value from that t distribution's tail(s), as pROC does; the interval of the
    difference uses the same t quantile (one-sided, with an infinite open end, for a
    one-sided alternative; see :func:`compare`), so it excludes 0 exactly when the test
    rejects at ``1 - confidence_level``. Where the degrees of freedom are undefined
    (both variances zero) the normal is used.

    ``alternative="noninferiority"`` or ``"equivalence"`` with ``margin=d`` (required
    with them, refused otherwise): as in :func:`compare`, with ``a`` the first sample's
    criterion, and the same t distribution: non-inferiority's statistic
    ``(a - b + d) / se`` with its upper t tail and the interval ``[low, inf)``;
    equivalence's two one-sided tests, the larger of their p-values, and the two-sided
    interval at level ``2 confidence_level - 1``.

    ``method="bootstrap"`` (any binary criterion, with ``n_resamples``, ``random_state``
    and ``interval`` as in :func:`compare`): each sample resampled on its own (rows
    within each class, or its whole clusters), the variance of each value its bootstrap
    variance, the statistic the difference over the root of their sum with its normal
    p-value (pROC's ``roc.test(..., method="bootstrap", paired=FALSE)``; ``df`` None),
    and the interval of the difference a bootstrap interval of ``a* - b*``.

    Examples
    --------
    >>> import rankwise as rw
    >>> c = rw.stats.compare_unpaired([0, 1, 0, 1, 1], [0.1, 0.8, 0.3, 0.2, 0.9],
    ...                               [0, 0, 1, 1, 0, 1], [0.2, 0.6, 0.5, 0.9, 0.1, 0.7])
    >>> c.values.round(4).tolist()
    [0.8333, 0.8889]
    >>> round(c.pairs[0].p_value, 4), round(c.df, 2)
    (0.8499, 7.21)
    """
    n_boot, interval = _compare_boot.check_boot_args(method, n_resamples, random_state, interval, "compare_unpaired")
    unit, params = resolve_criterion(criterion, criterion_args, "compare_unpaired")
    level = _core.check_level(confidence_level, "compare_unpaired")
    alternative = check_choice(alternative, "alternative", "compare_unpaired", TEST_ALTERNATIVES)
    margin = check_margin(margin, alternative, "compare_unpaired")
    names = [str(n) for n in names]
    if len(names) != 2 or names[0] == names[1]:
        raise ValueError(f"compare_unpaired needs two distinct names. Got {names}.")
    if n_boot is not None:
        _check_boot_unit(unit, bandwidth, "compare_unpaired")
        samples = [_boot_sample(y_true_a, y_score_a, sample_weight_a, pos_label, clusters_a, unit, "compare_unpaired",
                                "a"),
                   _boot_sample(y_true_b, y_score_b, sample_weight_b, pos_label, clusters_b, unit, "compare_unpaired",
                                "b")]
        return _boot_unpaired(unit, params, samples, names, level, alternative, margin, n_boot, random_state,
                              interval)
    kw = dict(pos_label=pos_label, method=method, bandwidth=bandwidth, **criterion_args)
    if kind_of(unit).name == "real":
        kw.pop("pos_label")
    ea = estimate(y_true_a, y_score_a, criterion, sample_weight=sample_weight_a, clusters=clusters_a, **kw)
    eb = estimate(y_true_b, y_score_b, criterion, sample_weight=sample_weight_b, clusters=clusters_b, **kw)
    va, vb = ea.std_error ** 2, eb.std_error ** 2
    values = np.array([ea.value, eb.value])
    cov = np.diag([va, vb])
    # The Welch-type degrees of freedom count independent units: clusters when given.
    na = float(ea.n_clusters) if ea.n_clusters is not None else _total(y_true_a, sample_weight_a)
    nb = float(eb.n_clusters) if eb.n_clusters is not None else _total(y_true_b, sample_weight_b)
    den = va * va / (na - 1.0) + vb * vb / (nb - 1.0)
    df = float((va + vb) ** 2 / den) if den > 0 else float("nan")
    nc = None if ea.n_clusters is None and eb.n_clusters is None else (ea.n_clusters, eb.n_clusters)
    return build_comparison(ea.criterion, ea.params, names, values, cov, ea.method, False, "none", level, (ea, eb), df,
                            alternative=alternative, bounds=(ea.bounds, eb.bounds), n_clusters=nc, margin=margin)


def _total(y, w) -> float:
    if w is not None:
        return float(np.sum(np.asarray(w, dtype=np.float64)))
    return float(len(np.asarray(y)))
