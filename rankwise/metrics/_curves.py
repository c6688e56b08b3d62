"""Curves read off the rank table: the ROC curve."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .._kernels import build_rank_table
from .._validation import check_binary_inputs, warn_undefined

__all__ = ["ROCCurve", "roc_curve", "roc_points"]


class ROCCurve(NamedTuple):
    """The empirical ROC curve, by decreasing threshold, starting at (0, 0).

    ``thresholds[0]`` is ``+inf``; at ``thresholds[i]`` an observation is called positive
    when its score is ``>= thresholds[i]``.
    """

    fpr: np.ndarray
    tpr: np.ndarray
    thresholds: np.ndarray


def roc_points(t) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(false positives, true positives, thresholds)`` (masses, not rates) by decreasing
    threshold, starting at (0, 0) with threshold +inf: at threshold ``levels[l]``
    (positive when score >= threshold) the true positives are ``n+ - Pb_l``."""
    fps = np.empty(t.size + 1)
    tps = np.empty(t.size + 1)
    fps[0] = tps[0] = 0.0
    fps[1:] = t.n_neg - t.neg_below[::-1]
    tps[1:] = t.n_pos - t.pos_below[::-1]
    thr = np.empty(t.size + 1, dtype=np.float64 if t.levels.dtype.kind != "f" else t.levels.dtype)
    thr[0] = np.inf
    thr[1:] = t.levels[::-1]
    return fps, tps, thr


def roc_curve(y_true, y_score, *, sample_weight=None, pos_label=None, drop_intermediate: bool = False) -> ROCCurve:
    r"""The empirical ROC curve at every distinct score.

    Parameters
    ----------
    drop_intermediate : bool
        Drop points on straight segments (the area is unchanged), as scikit-learn does by
        default. Off by default here: every distinct threshold is returned.

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
    is_pos, s, w, defined = check_binary_inputs(y_true, y_score, sample_weight, pos_label=pos_label)
    t = build_rank_table(is_pos, s, w)
    if not defined:
        warn_undefined("roc_curve")
    fps, tps, thr = roc_points(t)
    with np.errstate(invalid="ignore", divide="ignore"):
        fpr, tpr = fps / t.n_neg, tps / t.n_pos
    if drop_intermediate and fpr.shape[0] > 2:
        keep = np.r_[True, np.logical_or(np.diff(fpr, 2) != 0, np.diff(tpr, 2) != 0), True]
        fpr, tpr, thr = fpr[keep], tpr[keep], thr[keep]
    return ROCCurve(fpr, tpr, thr)
