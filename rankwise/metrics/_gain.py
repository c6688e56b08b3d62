"""Cumulative gain and lift: what share of the positives the top of the ranking captures.

Read off the rank table like the ROC curve (one sort): the targeted mass at a threshold is
the mass of every score at or above it, the captured mass its positive part. A tied group
of scores is targeted all or nothing, so the curves pass through the groups' corner points
only and are straight between them (the ROC curve's convention). Definitions:
``docs/calibration.md``.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .._kernels import build_rank_table
from .._labels import check_sample
from .._validation import check_param, warn_undefined
from ._curves import roc_points

__all__ = ["GainCurve", "LiftCurve", "gain_curve", "lift_curve", "gain_at", "lift_at"]


class GainCurve(NamedTuple):
    """The cumulative gain curve, by decreasing threshold, starting at (0, 0) with
    threshold ``+inf``: at ``thresholds[i]`` (rows with a score ``>= thresholds[i]``
    targeted), ``fraction_targeted[i]`` of the population holds ``fraction_captured[i]``
    of the positives."""

    fraction_targeted: np.ndarray
    fraction_captured: np.ndarray
    thresholds: np.ndarray


class LiftCurve(NamedTuple):
    """The lift curve, by decreasing threshold, one point per distinct score (no point at
    ``fraction_targeted = 0``, where lift is 0/0): ``lift[i]`` is the share of positives
    among the rows scored ``>= thresholds[i]`` over the share in the whole population."""

    fraction_targeted: np.ndarray
    lift: np.ndarray
    thresholds: np.ndarray


def _gain_points(y_true, y_score, sample_weight, pos_label, func):
    x = check_sample(y_true, y_score, sample_weight=sample_weight, pos_label=pos_label, func=func)
    t = build_rank_table(x.labels, x.scores, x.weights)
    if not t.n_pos > 0:
        warn_undefined(func, "no positive is present in y_true")
    fps, tps, thr = roc_points(t)
    total = t.n_pos + t.n_neg
    with np.errstate(invalid="ignore", divide="ignore"):
        return (tps + fps) / total, tps / t.n_pos, thr


def gain_curve(y_true, y_score, *, sample_weight=None, pos_label=None) -> GainCurve:
    r"""The cumulative gain curve: the share of all positives found in the top-scored share
    of the population.

    Notes
    -----
    At threshold ``t`` (rows with :math:`s_i \ge t` targeted):
    :math:`\mathrm{targeted}(t) = \sum_i w_i \mathbf 1\{s_i \ge t\} / \sum_i w_i` and
    :math:`\mathrm{captured}(t) = \sum_{i: y_i = 1} w_i \mathbf 1\{s_i \ge t\} / n_+`,
    one point per distinct score, plus (0, 0). A tied group is targeted all or nothing:
    between its corner points the curve is a straight line, the expected gain when a
    random part of the group is targeted. A random score gives the diagonal; the curve
    lies above it exactly where the ROC curve lies above its own. Scores carried only by
    zero-weight rows are not thresholds. With no positive, ``fraction_captured`` is nan
    (with a warning); with no negative the curve is the diagonal.

    Examples
    --------
    >>> import rankwise as rw
    >>> c = rw.gain_curve([1, 0, 1, 0], [0.9, 0.8, 0.7, 0.1])
    >>> c.fraction_targeted.tolist(), c.fraction_captured.tolist()
    ([0.0, 0.25, 0.5, 0.75, 1.0], [0.0, 0.5, 0.5, 1.0, 1.0])
    """
    return GainCurve(*_gain_points(y_true, y_score, sample_weight, pos_label, "gain_curve"))


def lift_curve(y_true, y_score, *, sample_weight=None, pos_label=None) -> LiftCurve:
    r"""The lift curve: the precision among the top-scored share of the population over the
    base rate.

    Notes
    -----
    :math:`\mathrm{lift}(t) = \mathrm{captured}(t) / \mathrm{targeted}(t)` with the
    quantities of :func:`gain_curve`, i.e. the share of positives among the rows scored
    ``>= t`` divided by the share of positives in the whole population: 1 for a random
    score, ``1 / base rate`` at most. One point per distinct score (the point at 0 has no
    lift). Between corner points the lift is the gain's straight line divided by the
    targeted share (:func:`lift_at`), not a straight line.

    Examples
    --------
    >>> import rankwise as rw
    >>> c = rw.lift_curve([1, 0, 1, 0], [0.9, 0.8, 0.7, 0.1])
    >>> c.fraction_targeted.tolist(), c.lift.round(4).tolist()
    ([0.25, 0.5, 0.75, 1.0], [2.0, 1.0, 1.3333, 1.0])
    """
    x, g, thr = _gain_points(y_true, y_score, sample_weight, pos_label, "lift_curve")
    with np.errstate(invalid="ignore", divide="ignore"):
        return LiftCurve(x[1:], g[1:] / x[1:], thr[1:])


def gain_at(y_true, y_score, fraction: float, *, sample_weight=None, pos_label=None) -> float:
    r"""The share of all positives captured by targeting the top ``fraction`` of the
    population (by weight).

    Notes
    -----
    Interpolated linearly between the corner points of :func:`gain_curve`: when the cut
    falls inside a tied group, that group is targeted in part, and in expectation over
    which of its rows are taken, a part ``a`` of it captures ``a`` of its positives.

    Examples
    --------
    >>> import rankwise as rw
    >>> rw.gain_at([1, 0, 1, 0], [0.9, 0.8, 0.7, 0.1], 0.5)
    0.5
    >>> rw.gain_at([1, 0, 1, 0], [0.9, 0.8, 0.8, 0.1], 0.5)   # half of the tied pair
    0.75
    """
    fraction = check_param(fraction, "fraction", "gain_at", low=0.0, high=1.0)
    x, g, _ = _gain_points(y_true, y_score, sample_weight, pos_label, "gain_at")
    return float(np.interp(fraction, x, g)) if np.isfinite(g[-1]) else float("nan")


def lift_at(y_true, y_score, fraction: float, *, sample_weight=None, pos_label=None) -> float:
    r"""The lift of targeting the top ``fraction`` of the population (by weight):
    :func:`gain_at` divided by ``fraction``.

    Examples
    --------
    >>> import rankwise as rw
    >>> rw.lift_at([1, 0, 1, 0], [0.9, 0.8, 0.7, 0.1], 0.25)   # 1/2 of the positives in 1/4
    2.0
    """
    fraction = check_param(fraction, "fraction", "lift_at", low=0.0, high=1.0, low_inclusive=False)
    x, g, _ = _gain_points(y_true, y_score, sample_weight, pos_label, "lift_at")
    return float(np.interp(fraction, x, g)) / fraction if np.isfinite(g[-1]) else float("nan")
