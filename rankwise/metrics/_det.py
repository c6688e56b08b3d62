"""The detection error trade-off (DET) curve, read off the rank table."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .._kernels import build_rank_table
from .._labels import check_sample
from .._validation import ranked_score_values, warn_undefined
from ._curves import roc_points

__all__ = ["DETCurve", "det_curve", "det_from_table"]


class DETCurve(NamedTuple):
    """The empirical DET curve, by increasing threshold (decreasing false positive rate),
    as scikit-learn's ``det_curve`` returns it.

    At ``thresholds[i]`` an observation is called positive when its score is
    ``>= thresholds[i]``; ``fpr[i]`` is the false positive rate (false alarms) and
    ``fnr[i]`` the false negative rate (misses) of that rule.
    """

    fpr: np.ndarray
    fnr: np.ndarray
    thresholds: np.ndarray


def det_from_table(t, ranked: list | None = None, drop_intermediate: bool = False) -> DETCurve:
    """The DET curve of a rank table ``t`` (``ranked``: as in :func:`roc_points`).

    The points are those of :func:`roc_points` (every distinct score and ``+inf``); the
    rules that thin and trim them are scikit-learn's, run on the class masses at each
    level (exact) rather than on running sums. A class without mass is never used to trim:
    its rate is ``nan`` and every point of the other class's rate is kept.
    """
    _, _, thr = roc_points(t, ranked)
    if thr.dtype.kind == "f" and thr.dtype != np.float64:
        thr = thr.astype(np.float64)  # float32 scores: float64 thresholds, as scikit-learn gives
    pos, neg = t.pos[::-1], t.neg[::-1]  # masses by decreasing threshold
    m = thr.shape[0]
    # Masses at or above each threshold (false positives) and below it (false negatives);
    # the +inf point first.
    fps = np.zeros(m)
    np.cumsum(neg, out=fps[1:])
    fns = np.empty(m)
    fns[0] = t.n_pos
    fns[1:] = t.pos_below[::-1]
    if drop_intermediate and m > 2:
        # Drop a point when the true positives (so the false negative rate) change neither
        # from the point before nor to the point after: it lies inside a horizontal run.
        step = np.zeros(m, dtype=bool)
        step[1:] = pos > 0  # the true positives change between point k - 1 and point k
        keep = np.ones(m, dtype=bool)
        if t.n_pos > 0:
            keep[1:-1] = step[1:-1] | step[2:]
        fps, fns, thr = fps[keep], fns[keep], thr[keep]
    # Start at the last point without false positives (fpr 0 may be reached at a finite
    # threshold) and stop at the first without false negatives. Both masses are running
    # sums of non-negative masses: exactly 0 until the first positive term.
    first = int(np.flatnonzero(fps == 0)[-1]) if t.n_neg > 0 else 0
    last = int(np.flatnonzero(fns == 0)[0]) + 1 if t.n_pos > 0 else fps.shape[0]
    sl = slice(first, last)
    n_neg = fps[-1] if t.n_neg > 0 else 0.0
    with np.errstate(invalid="ignore", divide="ignore"):
        fpr = fps[sl][::-1] / n_neg
        fnr = fns[sl][::-1] / t.n_pos
    return DETCurve(np.ascontiguousarray(fpr), np.ascontiguousarray(fnr), np.ascontiguousarray(thr[sl][::-1]))


def det_curve(y_true, y_score, *, sample_weight=None, pos_label=None, drop_intermediate: bool = False) -> DETCurve:
    r"""The detection error trade-off (DET) curve: the false negative rate against the
    false positive rate at every distinct score.

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Binary labels (``{0, 1}``, ``{-1, 1}``, booleans, or any two values with
        ``pos_label``).
    y_score : array-like of shape (n,)
        Scores, higher = more likely positive.
    sample_weight : array-like of shape (n,), optional
        Non-negative weights.
    pos_label : optional
        The positive label.
    drop_intermediate : bool, default False
        Drop the points at which the number of true positives changes neither from the
        previous threshold nor to the next one: they lie inside a horizontal run of the
        curve (same false negative rate). The same points as scikit-learn's
        ``det_curve(..., drop_intermediate=True)``; off by default, as there.

    Returns
    -------
    DETCurve
        ``(fpr, fnr, thresholds)`` by increasing threshold, so ``fpr`` decreases and
        ``fnr`` increases.

    Notes
    -----
    At threshold ``t`` (positive when the score is ``>= t``) the false positive rate is
    :math:`\mathrm{FPR}(t) = \sum_{j: y_j = 0} w_j \mathbf 1\{s_j \ge t\} / n_-` and the
    false negative rate is :math:`\mathrm{FNR}(t) = \sum_{i: y_i = 1} w_i \mathbf 1\{s_i < t\} / n_+
    = 1 - \mathrm{TPR}(t)`: the DET curve is the ROC curve (:func:`roc_curve`) with its
    vertical axis turned upside down, usually drawn with both axes on the normal-deviate
    scale (:class:`rankwise.display.DetCurveDisplay`), where two normal score
    distributions give a straight line (Martin, Doddington, Kamm, Ordowski & Przybocki
    1997, "The DET curve in assessment of detection task performance").

    The points and their order are scikit-learn's ``det_curve`` (version 1.7 and later):
    every distinct score and ``+inf`` (everything called negative), trimmed to start at the
    last threshold with no false positive and to stop at the first with no false negative
    (the points beyond lie at an infinite deviate), then reversed so that the thresholds
    increase. Scores carried only by zero-weight observations are not thresholds. The
    curve costs one sort, that of the rank table. Integer scores beyond 2**53 give exact
    integer thresholds, as :func:`roc_curve` does (scikit-learn rounds them to floats).

    With one class only, scikit-learn raises; here, as :func:`roc_curve` does, a warning
    is given and the undefined rate is ``nan``, the other rate is kept at every threshold
    (the absent class trims nothing).

    Examples
    --------
    Two negatives (0.1, 0.4) and two positives (0.35, 0.8):

    >>> import rankwise as rw
    >>> c = rw.det_curve([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> c.thresholds.tolist()
    [0.35, 0.4, 0.8]
    >>> c.fpr.tolist(), c.fnr.tolist()
    ([0.5, 0.5, 0.0], [0.0, 0.5, 0.5])

    At threshold 0.4 the negative 0.4 is a false alarm (1 of 2) and the positive 0.35 is
    missed (1 of 2). The threshold 0.1 is left out: no false negative is left at 0.35
    already.
    """
    if not isinstance(drop_intermediate, (bool, np.bool_)):
        raise TypeError(f"The 'drop_intermediate' parameter of det_curve must be a bool. "
                        f"Got {drop_intermediate!r} instead.")
    x = check_sample(y_true, y_score, sample_weight=sample_weight, pos_label=pos_label, func="det_curve")
    s = x.scores
    t = build_rank_table(x.labels, s, x.weights)
    if not x.defined:
        warn_undefined("det_curve")
    return det_from_table(t, ranked_score_values(y_score) if s.dtype == np.int64 else None, bool(drop_intermediate))
