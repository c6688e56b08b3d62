"""Curves read off the rank table: the ROC curve and the precision-recall curve."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .._kernels import build_rank_table
from .._labels import check_sample
from .._validation import ranked_score_values, warn_undefined

__all__ = ["ROCCurve", "roc_curve", "roc_points", "PRCurve", "precision_recall_curve", "pr_from_points"]


class ROCCurve(NamedTuple):
    """The empirical ROC curve, by decreasing threshold, starting at (0, 0).

    ``thresholds[0]`` is ``+inf``; at ``thresholds[i]`` an observation is called positive
    when its score is ``>= thresholds[i]``.
    """

    fpr: np.ndarray
    tpr: np.ndarray
    thresholds: np.ndarray


def roc_points(t, ranked: list | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(false positives, true positives, thresholds)`` (masses, not rates) by decreasing
    threshold, starting at (0, 0) with threshold +inf: at threshold ``levels[l]``
    (positive when score >= threshold) the true positives are ``n+ - Pb_l``. Integer
    scores give float64 thresholds where it holds them exactly, else exact Python ints (an
    object array); ``ranked``: the values behind levels that are their ranks."""
    fps = np.empty(t.size + 1)
    tps = np.empty(t.size + 1)
    fps[0] = tps[0] = 0.0
    fps[1:] = t.n_neg - t.neg_below[::-1]
    tps[1:] = t.n_pos - t.pos_below[::-1]
    if t.levels.dtype.kind != "f":
        from ._oppoints import point_thresholds  # exact: no rounding of integers beyond 2^53

        return fps, tps, point_thresholds(t, ranked)
    thr = np.empty(t.size + 1, dtype=t.levels.dtype)
    thr[0] = np.inf
    thr[1:] = t.levels[::-1]
    return fps, tps, thr


def roc_curve(y_true, y_score, *, sample_weight=None, pos_label=None, drop_intermediate: bool = False) -> ROCCurve:
    r"""The empirical ROC curve at every distinct score.

    Parameters
    ----------
    drop_intermediate : bool
        Drop the points that lie midway on a straight segment (the area is unchanged):
        the same points as scikit-learn's ``roc_curve(..., drop_intermediate=True)``
        (its default), with ties and weights. A point is dropped when its false- and
        true-positive masses (counts without weights) take equal steps on either side;
        the ``+inf`` threshold and the first and last data thresholds are always kept.
        Off by default here: every distinct threshold is returned.

    Notes
    -----
    At threshold ``t``: :math:`\mathrm{TPR}(t) = \sum_{i: y_i = 1} w_i \mathbf 1\{s_i \ge t\} / n_+`,
    :math:`\mathrm{FPR}(t) = \sum_{j: y_j = 0} w_j \mathbf 1\{s_j \ge t\} / n_-`. Joining the points
    by straight lines gives an area equal to :func:`auc` (ties count 1/2). Scores carried only
    by zero-weight observations are not thresholds. With one class only, the undefined
    coordinate is ``nan`` (with a warning).

    Examples
    --------
    >>> import rankwise as rw
    >>> rw.roc_curve([0, 1], [0.2, 0.7]).tpr
    array([0., 1., 1.])
    """
    if not isinstance(drop_intermediate, (bool, np.bool_)):
        raise TypeError(f"The 'drop_intermediate' parameter of roc_curve must be a bool. Got {drop_intermediate!r} instead.")
    x = check_sample(y_true, y_score, sample_weight=sample_weight, pos_label=pos_label, func="roc_curve")
    s = x.scores
    t = build_rank_table(x.labels, s, x.weights)
    if not x.defined:
        warn_undefined("roc_curve")
    fps, tps, thr = roc_points(t, ranked_score_values(y_score) if s.dtype == np.int64 else None)
    if drop_intermediate:
        keep = roc_corners(fps, tps)
        fps, tps, thr = fps[keep], tps[keep], thr[keep]
    with np.errstate(invalid="ignore", divide="ignore"):
        fpr, tpr = fps / t.n_neg, tps / t.n_pos
    return ROCCurve(fpr, tpr, thr)


def roc_corners(fps: np.ndarray, tps: np.ndarray) -> np.ndarray:
    """Which ROC points ``drop_intermediate`` keeps (a boolean mask over ``roc_points``).

    The rule is scikit-learn's: among the points at the data's thresholds (all but the
    ``+inf`` one), a point is dropped when both its false- and true-positive masses take
    equal steps on either side (zero second difference), so it lies midway on a straight
    segment. The ``+inf`` point, the first and the last data threshold are always kept,
    and nothing is dropped with two data thresholds or fewer. The test runs on the masses
    themselves (counts without weights), which are exact, not on the rates, where
    ``5/7``, ``6/7`` and ``7/7`` do not take equal steps in floating point.
    """
    keep = np.ones(fps.shape[0], dtype=bool)
    if fps.shape[0] > 3:
        keep[2:-1] = (np.diff(fps[1:], 2) != 0) | (np.diff(tps[1:], 2) != 0)
    return keep


class PRCurve(NamedTuple):
    """The empirical precision-recall curve, by decreasing threshold, starting at recall 0
    with precision 1 (threshold ``+inf``).

    At ``thresholds[i]`` an observation is called positive when its score is
    ``>= thresholds[i]``. scikit-learn's ``precision_recall_curve`` returns the same points
    in the opposite order, without the ``+inf`` threshold.
    """

    precision: np.ndarray
    recall: np.ndarray
    thresholds: np.ndarray


def pr_from_points(fps: np.ndarray, tps: np.ndarray, thr: np.ndarray, n_pos: float,
                   drop_intermediate: bool = False) -> PRCurve:
    """The precision-recall curve from the ROC points (masses, by decreasing threshold,
    the first one the ``+inf`` threshold)."""
    with np.errstate(invalid="ignore", divide="ignore"):
        precision = np.empty_like(tps)
        precision[0] = 1.0
        precision[1:] = tps[1:] / (tps[1:] + fps[1:])
        recall = tps / n_pos
    if drop_intermediate and tps.shape[0] > 3:
        # Points of equal recall lie on one horizontal run: keep the first and the last of
        # each run (the +inf point stays).
        t = tps[1:]
        keep = np.ones(t.shape[0], dtype=bool)
        keep[1:-1] = (t[1:-1] != t[:-2]) | (t[1:-1] != t[2:])
        keep = np.r_[True, keep]
        precision, recall, thr = precision[keep], recall[keep], thr[keep]
    return PRCurve(precision, recall, thr)


def precision_recall_curve(y_true, y_score, *, sample_weight=None, pos_label=None,
                           drop_intermediate: bool = False) -> PRCurve:
    r"""The empirical precision-recall curve at every distinct score.

    Parameters
    ----------
    drop_intermediate : bool
        Keep only the first and last point of each run of thresholds with the same recall
        (scikit-learn's option of the same name). Off by default: every distinct threshold.

    Notes
    -----
    At threshold ``t``: recall :math:`R(t) = \mathrm{TPR}(t)`, precision
    :math:`P(t) = \sum_{i: y_i = 1} w_i \mathbf 1\{s_i \ge t\} / \sum_i w_i \mathbf 1\{s_i \ge t\}`.
    Its step area :math:`\sum_k (R_k - R_{k-1}) P_k` is :func:`average_precision`. Scores
    carried only by zero-weight observations are not thresholds. Unlike the ROC curve, the
    precision-recall curve must not be joined by straight lines (precision is not linear
    between points). With one class only, the undefined coordinate is ``nan`` (with a
    warning).

    Examples
    --------
    >>> import rankwise as rw
    >>> c = rw.precision_recall_curve([1, 0, 1, 0], [0.9, 0.8, 0.7, 0.1])
    >>> c.precision.round(4).tolist(), c.recall.tolist()
    ([1.0, 1.0, 0.5, 0.6667, 0.5], [0.0, 0.5, 0.5, 1.0, 1.0])
    """
    if not isinstance(drop_intermediate, (bool, np.bool_)):
        raise TypeError(f"The 'drop_intermediate' parameter of precision_recall_curve must be a bool. "
                        f"Got {drop_intermediate!r} instead.")
    x = check_sample(y_true, y_score, sample_weight=sample_weight, pos_label=pos_label,
                     func="precision_recall_curve")
    s = x.scores
    t = build_rank_table(x.labels, s, x.weights)
    if not x.defined:
        warn_undefined("precision_recall_curve")
    fps, tps, thr = roc_points(t, ranked_score_values(y_score) if s.dtype == np.int64 else None)
    return pr_from_points(fps, tps, thr, t.n_pos, bool(drop_intermediate))
