"""Operating points of a score: the threshold, true- and false-positive rates and precision
at requested false-positive rates, true-positive rates or thresholds, and the optimal cut
(Youden's index or the point closest to the top-left corner). Definitions and pROC's
conventions: ``docs/operating_points.md``."""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._kernels import (build_rank_table, exact_numbers, exact_scalar, object_array, point_of_threshold, read_points,
                       roc_rows)
from .._labels import check_sample
from .._validation import check_choice, check_param, ranked_score_values, to_numpy, warn_undefined

__all__ = ["OperatingPoints", "operating_points", "OptimalThreshold", "optimal_threshold", "cut_at_fpr",
           "check_operating_request", "points_from_table"]

_BY_NAME = {"fpr": "fpr", "tpr": "tpr", "thresholds": "threshold"}


@dataclass(frozen=True)
class OperatingPoints:
    """Operating points of a score, one per requested value, as float64 arrays.

    Attributes
    ----------
    requested : str
        What was fixed: ``"fpr"``, ``"tpr"`` or ``"threshold"``.
    threshold : ndarray
        The cut: observations with ``score >= threshold`` are called positive. ``+inf``
        calls nothing positive. ``nan`` where a requested rate falls between two ROC
        points (the rates there are interpolated; no single threshold attains them).
        float64 when float64 holds every threshold exactly (float scores, integers up to
        2^53); otherwise (integer scores or thresholds beyond 2^53) an object array of exact
        Python numbers, so that every cut reported gives the rates reported.
    tpr, fpr, precision : ndarray
        True-positive rate (sensitivity, recall), false-positive rate (1 - specificity)
        and precision (positive predictive value; ``nan`` where nothing is called positive).
    n_positive, n_negative : float
        Class sizes (weight totals with ``sample_weight``).
    """

    requested: str
    threshold: np.ndarray
    tpr: np.ndarray
    fpr: np.ndarray
    precision: np.ndarray
    n_positive: float
    n_negative: float

    @property
    def sensitivity(self) -> np.ndarray:
        """The true-positive rate."""
        return self.tpr

    @property
    def specificity(self) -> np.ndarray:
        """``1 - fpr``."""
        return 1.0 - self.fpr

    @property
    def n(self) -> float:
        return self.n_positive + self.n_negative

    def to_rows(self) -> list[dict]:
        """One dict per operating point: ``threshold, tpr, fpr, specificity, precision``
        (Python floats; a threshold float64 cannot hold is an exact Python int), in the
        order requested."""
        return [{"threshold": exact_scalar(t), "tpr": float(a), "fpr": float(b), "specificity": float(1.0 - b),
                 "precision": float(p)}
                for t, a, b, p in zip(self.threshold, self.tpr, self.fpr, self.precision)]

    def summary(self) -> str:
        header = ["threshold", "tpr", "fpr", "specificity", "precision"]
        rows = [[_fmt_cut(r[h]) if h == "threshold" else _fmt(r[h]) for h in header] for r in self.to_rows()]
        return (f"Operating points at the requested {self.requested} (n+ = {_count(self.n_positive)}, "
                f"n- = {_count(self.n_negative)}; positive when score >= threshold)\n" + _table(header, rows))

    def __str__(self) -> str:
        return self.summary()


def check_operating_request(fpr: Any, tpr: Any, thresholds: Any, func: str) -> tuple[str, np.ndarray]:
    """``(by, values)`` from exactly one of ``fpr``, ``tpr``, ``thresholds`` (a scalar or a
    1-D array; rates in [0, 1], thresholds any number but nan); ``by`` is ``"fpr"``,
    ``"tpr"`` or ``"threshold"``."""
    given = [(k, v) for k, v in (("fpr", fpr), ("tpr", tpr), ("thresholds", thresholds)) if v is not None]
    if len(given) != 1:
        raise TypeError(f"{func} needs exactly one of 'fpr', 'tpr' or 'thresholds'. "
                        f"Got {len(given)} ({', '.join(k for k, _ in given) or 'none'}) instead.")
    name, value = given[0]
    try:
        arr = to_numpy([value] if np.ndim(value) == 0 else value, name)
    except (ValueError, TypeError):
        arr = np.empty((0, 0))
    if (name == "thresholds" and isinstance(value, (list, tuple)) and arr.dtype.kind == "f" and any(
            isinstance(v, numbers.Integral) and not isinstance(v, bool) and abs(v) > 2 ** 53 for v in value)):
        arr = object_array(list(value))  # numpy rounded the ints next to floats
    if name == "thresholds" and arr.ndim == 1 and arr.size and arr.dtype.kind in "iuO":
        arr = exact_numbers(arr)
    exact = arr.dtype.kind == "O" and name == "thresholds" and all(
        isinstance(v, numbers.Real) and not isinstance(v, (bool, np.bool_)) for v in arr.tolist())
    if arr.ndim > 1 or arr.size == 0 or (arr.dtype.kind not in "biuf" and not exact) or arr.dtype.kind == "b":
        raise ValueError(f"The '{name}' parameter of {func} must be a number or a non-empty 1-D array of numbers. "
                         f"Got {value!r} instead.")
    if arr.dtype.kind != "O":
        arr = np.atleast_1d(arr.astype(np.float64))
    if name == "thresholds":
        if any(v != v for v in (arr.tolist() if arr.dtype.kind == "O" else arr[np.isnan(arr)][:1].tolist())):
            raise ValueError(f"The 'thresholds' parameter of {func} must not contain nan. Got {value!r} instead.")
    elif not (np.isfinite(arr).all() and arr.min() >= 0.0 and arr.max() <= 1.0):
        raise ValueError(f"The '{name}' parameter of {func} must hold rates in [0, 1]. Got {value!r} instead.")
    return _BY_NAME[name], arr


def points_from_table(t, by: str, q: np.ndarray, ranked: list | None = None) -> OperatingPoints:
    """The operating points of one rank table (both classes present) at ``q``; ``ranked``:
    the distinct score values when the table's levels are their ranks
    (:func:`rankwise._validation.ranked_score_values`)."""
    A, B = t.pos[None, :], t.neg[None, :]
    if by == "threshold":
        tp, fp, prec, _, _ = read_points(A, B, "point", point_of_threshold(t.levels, q, ranked))
        thr = q.copy()
    else:
        tp, fp, prec, j, hit = read_points(A, B, by, q)
        thr = point_thresholds(t, ranked)[j[0]]
        if thr.dtype.kind == "O":
            thr[~hit[0]] = math.nan
        else:
            thr = np.where(hit[0], thr, np.nan)
    return OperatingPoints(by, thr, tp[0], fp[0], prec[0], t.n_pos, t.n_neg)


def point_thresholds(t, ranked: list | None = None) -> np.ndarray:
    """The threshold of each ROC point: ``+inf``, then the levels from the top, exactly:
    float64 when it holds them all (float scores, integers up to 2^53), else an object
    array of Python ints (integer scores beyond 2^53) or of the original values (scores
    given as ranks of ``ranked``)."""
    levels = t.levels
    if ranked is not None:
        vals = [ranked[int(r)] for r in levels[::-1].tolist()]
    elif levels.dtype.kind in "iu" and levels.shape[0] and (int(levels[-1]) > 2 ** 53 or int(levels[0]) < -2 ** 53):
        vals = levels[::-1].tolist()
    else:
        thr = np.empty(levels.shape[0] + 1, dtype=np.float64)
        thr[0] = np.inf
        thr[1:] = levels[::-1]
        return thr
    return exact_numbers(object_array([math.inf] + vals))


def _ranked(y_score, s: np.ndarray) -> list | None:
    """The distinct values behind ``s`` when ``s`` holds their ranks, else None."""
    return ranked_score_values(y_score) if s.dtype == np.int64 else None


def operating_points(y_true, y_score, *, fpr=None, tpr=None, thresholds=None, sample_weight=None,
                     pos_label=None) -> OperatingPoints:
    r"""Sensitivity at fixed specificities, specificity at fixed sensitivities, or both
    (and precision) at fixed thresholds: a threshold table.

    Give exactly one of ``fpr``, ``tpr``, ``thresholds`` (a number or a 1-D array).

    Parameters
    ----------
    y_true : array-like of shape (n,)
    y_score : array-like of shape (n,)
        Higher score = more likely positive, always.
    fpr : float or array-like, optional
        False-positive rates in [0, 1] (``1 - specificity``).
    tpr : float or array-like, optional
        True-positive rates in [0, 1] (sensitivity).
    thresholds : float or array-like, optional
        Cuts: an observation is called positive when ``score >= threshold``.
    sample_weight : array-like, optional
    pos_label : optional
        The positive class, needed when the labels are not {0, 1}, {-1, 1} or booleans.

    Returns
    -------
    OperatingPoints
        Arrays ``threshold, tpr, fpr, precision`` (``.sensitivity``, ``.specificity``),
        ``to_rows()`` and ``summary()``. Intervals: :func:`rankwise.stats.operating_points`.

    Notes
    -----
    At threshold ``t``: :math:`\mathrm{TPR}(t) = \sum_{i: y_i = 1} w_i \mathbf 1\{s_i \ge t\} / n_+`,
    :math:`\mathrm{FPR}(t) = \sum_{j: y_j = 0} w_j \mathbf 1\{s_j \ge t\} / n_-`, precision
    ``TP / (TP + FP)`` (nan when nothing is called positive).

    At a requested false-positive rate ``x``, the empirical ROC curve (its points joined by
    straight lines, as for :func:`auc`) is read at ``x``. When ``x`` is attained by some
    thresholds, the one with the largest TPR is taken (the lowest such threshold) and
    reported. Between two ROC points the rates are interpolated linearly and the threshold
    is ``nan``: that point is reached only by a randomised rule mixing the two neighbouring
    thresholds, whose expected counts give the precision ``TP / (TP + FP)`` reported. At a
    requested true-positive rate likewise, taking the smallest FPR (the highest threshold).
    A requested rate within 1e-12 of a rate on the curve counts as that rate, so that
    ``fpr=1 - 0.9`` finds the point at FPR 0.1.

    These are the conventions of R's pROC ``coords(roc, x, input = "specificity" |
    "sensitivity" | "threshold")`` (Robin et al. 2011, "pROC: an open-source package for R
    and S+ to analyze and compare ROC curves"), with ``direction = "<"``: the same
    sensitivity, specificity and precision. pROC reports thresholds midway between
    consecutive distinct scores; rankwise reports the lowest score called positive, which
    calls the same observations positive.

    Examples
    --------
    Positives score 0.35, 0.8, 0.9, 0.3; negatives 0.1, 0.4, 0.5, 0.8. At FPR 0.25 the
    cut is 0.8 (0.8 and 0.9 of the positives, 0.8 of the negatives, are called positive);
    FPR 0.1 lies between the points (0, 0.25) and (0.25, 0.5):

    >>> import rankwise as rw
    >>> y = [0, 0, 1, 0, 1, 1, 0, 1]
    >>> s = [0.1, 0.4, 0.35, 0.5, 0.8, 0.9, 0.8, 0.3]
    >>> op = rw.operating_points(y, s, fpr=[0.25, 0.1])
    >>> op.threshold.tolist(), op.tpr.tolist()
    ([0.8, nan], [0.5, 0.35])
    >>> rw.operating_points(y, s, thresholds=0.35).to_rows()
    [{'threshold': 0.35, 'tpr': 0.75, 'fpr': 0.75, 'specificity': 0.25, 'precision': 0.5}]
    """
    by, q = check_operating_request(fpr, tpr, thresholds, "operating_points")
    x = check_sample(y_true, y_score, sample_weight=sample_weight, pos_label=pos_label, func="operating_points")
    s = x.scores
    t = build_rank_table(x.labels, s, x.weights)
    if not x.defined:
        warn_undefined("operating_points")
        nan = np.full(q.shape, np.nan)
        return OperatingPoints(by, q.copy() if by == "threshold" else nan, nan, nan, nan, t.n_pos, t.n_neg)
    return points_from_table(t, by, q, _ranked(y_score, s))


@dataclass(frozen=True)
class OptimalThreshold:
    """The best cut of a score by one criterion.

    Attributes
    ----------
    threshold : float or int
        Observations with ``score >= threshold`` are called positive (``+inf``: none); an
        exact Python int where float64 would round the score (integers beyond 2^53).
    tpr, fpr, precision : float
    youden_index : float
        ``tpr - fpr`` (Youden's J) at the cut.
    distance : float
        ``(1 - tpr)^2 + fpr^2``, the squared distance to the top-left corner (0, 1).
    method : str
        ``"youden"`` or ``"closest_topleft"``.
    tied_thresholds : ndarray
        Every threshold that is equally good, decreasing; ``threshold`` is the first (the
        highest, calling the fewest observations positive).
    """

    threshold: float
    tpr: float
    fpr: float
    precision: float
    youden_index: float
    distance: float
    method: str
    tied_thresholds: np.ndarray

    @property
    def specificity(self) -> float:
        return 1.0 - self.fpr

    def summary(self) -> str:
        ties = "" if self.tied_thresholds.shape[0] <= 1 else f"; {self.tied_thresholds.shape[0]} equally good cuts"
        return (f"Optimal threshold ({self.method}): score >= {_fmt_cut(self.threshold)} is positive; "
                f"tpr {_fmt(self.tpr)}, fpr {_fmt(self.fpr)}, precision {_fmt(self.precision)}, "
                f"Youden's J {_fmt(self.youden_index)}{ties}")

    def __str__(self) -> str:
        return self.summary()


def optimal_threshold(y_true, y_score, *, method: str = "youden", cost: float = 1.0, prevalence: float = 0.5,
                      sample_weight=None, pos_label=None) -> OptimalThreshold:
    r"""The threshold that maximises Youden's index, or the one closest to the top-left
    corner of the ROC plot.

    Parameters
    ----------
    y_true, y_score : array-like of shape (n,)
        Higher score = more likely positive, always.
    method : {"youden", "closest_topleft"}
        ``"youden"``: maximise :math:`J = \mathrm{TPR} - \mathrm{FPR}` (Youden 1950, "Index
        for rating diagnostic tests"); ``"closest_topleft"``: minimise
        :math:`(1 - \mathrm{TPR})^2 + \mathrm{FPR}^2`.
    cost : float > 0
        Cost of a false negative relative to a false positive.
    prevalence : float in (0, 1)
        Share of positives in the population the cut is for. With ``r = (1 - prevalence) /
        (cost prevalence)`` the criteria become ``TPR - r FPR`` and ``(1 - TPR)^2 + r FPR^2``
        (pROC's ``best.weights = c(cost, prevalence)``); the defaults give ``r = 1``.
    sample_weight : array-like, optional
    pos_label : optional

    Returns
    -------
    OptimalThreshold

    Notes
    -----
    Every ROC point is a candidate, including ``+inf`` (nothing positive) and the lowest
    score (everything positive). Ties (values equal to within 8 units in the last place,
    so that rounding of the rates does not split a tie) are all listed in
    ``tied_thresholds``, and the highest of them is returned. R's pROC ``coords(roc,
    "best", best.method = "youden" | "closest.topleft")`` returns every tied point, and
    reports ``sensitivity + specificity`` (that is, ``J + 1``) as "youden"; rankwise
    reports ``J`` itself. With weights, the rates are weighted.

    Examples
    --------
    >>> import rankwise as rw
    >>> cut = rw.optimal_threshold([0, 0, 1, 0, 1, 1], [0.1, 0.4, 0.35, 0.5, 0.8, 0.9])
    >>> cut.threshold, cut.tpr, cut.fpr
    (0.8, 0.6666666666666666, 0.0)
    """
    method = check_choice(method, "method", "optimal_threshold", ("youden", "closest_topleft"))
    cost = check_param(cost, "cost", "optimal_threshold", low=0.0, low_inclusive=False)
    prevalence = check_param(prevalence, "prevalence", "optimal_threshold", low=0.0, high=1.0, low_inclusive=False,
                             high_inclusive=False)
    r = (1.0 - prevalence) / (cost * prevalence)
    x = check_sample(y_true, y_score, sample_weight=sample_weight, pos_label=pos_label, func="optimal_threshold")
    s = x.scores
    t = build_rank_table(x.labels, s, x.weights)
    if not x.defined:
        nan = warn_undefined("optimal_threshold")
        return OptimalThreshold(nan, nan, nan, nan, nan, nan, method, np.array([np.nan]))
    fps, tps = roc_rows(t.pos[None, :], t.neg[None, :])
    fpr, tpr = fps[0] / t.n_neg, tps[0] / t.n_pos
    if method == "youden":
        score = tpr - r * fpr
    else:
        score = -((1.0 - tpr) ** 2 + r * fpr ** 2)
    best = score.max()
    tie = score >= best - 8.0 * np.finfo(np.float64).eps * max(abs(best), 1.0)
    thr = point_thresholds(t, _ranked(y_score, s))
    k = int(np.flatnonzero(tie)[0])
    with np.errstate(invalid="ignore", divide="ignore"):
        precision = tps[0, k] / (tps[0, k] + fps[0, k])
    return OptimalThreshold(exact_scalar(thr[k]), float(tpr[k]), float(fpr[k]), float(precision),
                            float(tpr[k] - fpr[k]), float((1.0 - tpr[k]) ** 2 + fpr[k] ** 2), method, thr[tie])


def _fmt(x: float) -> str:
    x = float(x)
    if np.isnan(x):
        return "-"
    if np.isinf(x):
        return "inf" if x > 0 else "-inf"
    return f"{x:.4g}" if x != 0 and (abs(x) >= 1e5 or abs(x) < 1e-3) else f"{x:.4f}"


def _fmt_cut(x) -> str:
    """A threshold: an integer in full (integer scores: 4 significant digits would not
    give the same cut), otherwise as :func:`_fmt`."""
    if isinstance(x, numbers.Integral) and not isinstance(x, bool):
        return str(int(x))
    if isinstance(x, float) and x.is_integer() and 1e5 <= abs(x) <= 2.0 ** 53:
        return str(int(x))
    return _fmt(x)


def _count(x: float) -> str:
    x = float(x)
    return str(int(x)) if x.is_integer() and abs(x) < 1e15 else f"{x:.6g}"


def _table(header: list, rows: list) -> str:
    widths = [max(len(r[i]) for r in [header] + rows) for i in range(len(header))]
    lines = ["  ".join(c.rjust(wd) for c, wd in zip(r, widths)) for r in [header] + rows]
    lines.insert(1, "  ".join("-" * wd for wd in widths))
    return "\n".join(lines)


def cut_at_fpr(y_true, y_score, fpr, *, pos_label=None):
    """The cut to deploy for "at most ``fpr`` false alarms": the lowest observed score
    ``t`` whose rule ``score >= t`` calls at most a share ``fpr`` of the negatives
    positive.

    Parameters
    ----------
    y_true, y_score, pos_label
        As in :func:`rankwise.roc_curve` (higher score = more likely positive).
    fpr : float or array-like of float in [0, 1]
        Largest acceptable false positive rates.

    Returns
    -------
    float or ndarray
        One cut per rate (``+inf`` when even the highest score calls too many negatives
        positive), a float for a float ``fpr``. Cuts float64 cannot hold (integer scores
        beyond 2^53) are exact Python ints (an object array for several rates).

    Notes
    -----
    :func:`operating_points` reads the ROC curve *at* a false positive rate,
    interpolating between two of its points (R pROC's ``coords`` convention, the rates a
    randomised rule would reach); this is the deterministic rule that stays at or below
    the rate: ``min {t in scores : FPR(t) <= fpr}``, the last point of the curve not
    beyond ``fpr`` (a rate within 1e-12 of the target counts as on it). Its own rates are
    ``operating_points(y, s, thresholds=cut)``; the report's operating-point
    table shows both.

    Examples
    --------
    Negatives score 0.1, 0.4, 0.5 and 0.8: at most 10% false alarms calls no negative
    positive (cut 0.9); at most 25%, one (0.8); at most 50%, two (0.5):

    >>> y = [0, 0, 1, 0, 1, 1, 0, 1]
    >>> s = [0.1, 0.4, 0.35, 0.5, 0.8, 0.9, 0.8, 0.3]
    >>> cut_at_fpr(y, s, [0.1, 0.25, 0.5]).tolist()
    [0.9, 0.8, 0.5]
    """
    scalar = isinstance(fpr, (int, float, np.integer, np.floating)) and not isinstance(fpr, bool)
    try:
        rates = np.atleast_1d(np.asarray(fpr, dtype=np.float64))
    except (TypeError, ValueError):
        rates = np.array([np.nan])
    if rates.ndim != 1 or rates.size == 0 or not np.all((rates >= 0.0) & (rates <= 1.0)):
        raise ValueError(f"The 'fpr' parameter of cut_at_fpr must be a rate or rates in [0, 1]. Got {fpr!r} instead.")
    x = check_sample(y_true, y_score, pos_label=pos_label, func="cut_at_fpr")
    s = x.scores
    t = build_rank_table(x.labels, s)
    if not x.defined:
        warn_undefined("roc_curve")
    fps = np.empty(t.size + 1)
    fps[0] = 0.0
    fps[1:] = t.n_neg - t.neg_below[::-1]
    with np.errstate(invalid="ignore", divide="ignore"):
        c_fpr = fps / t.n_neg
    # fpr increases along the curve (thresholds decrease): the last point at or below the
    # rate has the lowest threshold.
    cuts = point_thresholds(t, _ranked(y_score, s))[np.searchsorted(c_fpr, rates + 1e-12, side="right") - 1]
    return exact_scalar(cuts[0]) if scalar else cuts
