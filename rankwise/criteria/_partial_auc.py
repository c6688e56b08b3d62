"""The partial AUC over false-positive rates in ``[0, max_fpr]``, McClish-standardised on request."""

from __future__ import annotations

import numpy as np

from .._kernels import REL
from .._validation import check_choice, check_param
from ._auc import AUC
from ._base import RankCriterion, register

__all__ = ["PartialAUC"]


@register
class PartialAUC(RankCriterion):
    r"""Area under the ROC curve (ties as diagonal segments) over ``fpr in [0, max_fpr]``,
    the curve linearly interpolated at ``max_fpr``.

    Pass, on the negative side: going down from the top, a negative level of mass ``N``
    moves the curve right by ``N / n-`` while the TPR rises from ``T0 = (n+ - Pb - Pt) / n+``
    by ``Pt / n+`` (``Pt`` tied positives: a diagonal). A fraction ``f`` of that segment
    (clipped at ``max_fpr``) adds ``f (N / n-) (T0 + f Pt / (2 n+))``. Levels with positives
    only add no width.

    Projection: a positive at false-positive rate ``a_x`` lifts the curve over ``[a_x, 1]``:
    its influence is ``-min(f, a_x)`` up to a constant. A negative at ``a_x`` shifts the
    curve right beyond ``a_x``; integrating ``ROC'`` gives ``ROC(min(f, a_x))``. Ties are
    read at the middle of their segment. ``ROC(max_fpr)`` comes from the points on either
    side of it (on a partitioned sample, from the buckets holding them).

    McClish's (1989) standardisation ``(1 + (A - m) / (M - m)) / 2``, ``m`` the area under
    the diagonal and ``M`` the area of a perfect curve over the range, maps chance to 1/2
    and perfection to 1.
    """

    name = "partial_auc"

    def __init__(self, max_fpr, standardize=None):
        self.max_fpr = check_param(max_fpr, "max_fpr", "partial_auc", low=0.0, high=1.0, low_inclusive=False)
        if standardize is not None:
            standardize = check_choice(standardize, "standardize", "partial_auc", ("mcclish",))
        self.standardize = standardize
        self._full = self.max_fpr >= 1.0
        self._auc = AUC()

    # --- McClish ---
    def _diag_and_perfect(self):
        b = self.max_fpr
        return 0.5 * b * b, b

    def _mcclish(self, area):
        lo, hi = self._diag_and_perfect()
        return 0.5 * (1.0 + (area - lo) / (hi - lo))

    @property
    def _standardized(self) -> bool:
        return self.standardize is not None and not self._full

    # --- value ---
    def sums(self, t):
        if self._full:
            return self._auc.sums(t)
        b = self.max_fpr
        n_neg, n_pos = t.n_neg, t.n_pos
        # Only negative levels whose segment starts left of max_fpr contribute.
        side = t.neg_side.tail((1.0 - b) * n_neg * (1.0 + REL))
        mass = np.asarray(side.mass, dtype=np.float64)
        fpr_before = (n_neg - side.own_below - mass) / n_neg
        f = np.clip(side.ratio((b - fpr_before) * n_neg, mass), 0.0, 1.0)
        t0 = (n_pos - side.other_below - side.other_tied) / n_pos
        dt = side.other_tied / n_pos
        return (side.total(f * (t0 + 0.5 * f * dt)) / n_neg,)

    def finish(self, sums, n_pos, n_neg):
        area = self._auc.finish(sums, n_pos, n_neg) if self._full else sums[0]
        return self._mcclish(area) if self._standardized else area

    # --- projection ---
    def summary(self, d, bw):
        # ROC points of the bucket, by increasing fpr (levels from the top), global rates.
        fpr = (d.Na + d.b)[::-1] / d.M
        tpr = (d.Pa + d.a)[::-1] / d.P
        x = self.max_fpr
        j = int(np.searchsorted(fpr, x, side="right")) - 1
        return {"left": (float(fpr[j]), float(tpr[j])) if j >= 0 else None,
                "right": (float(fpr[j + 1]), float(tpr[j + 1])) if j + 1 < fpr.shape[0] else None}

    def combine(self, summaries, n_pos, n_neg):
        # ROC(x): the last point at or left of x (lowest bucket holding one; the origin if
        # none), then linearly towards the first point right of it (highest bucket holding one).
        x = self.max_fpr
        left = next((s["left"] for s in summaries if s and s["left"]), (0.0, 0.0))
        right = next((s["right"] for s in reversed(summaries) if s and s["right"]), None)
        if right is None or right[0] == left[0]:
            at = left[1]
        else:
            at = left[1] + (x - left[0]) * (right[1] - left[1]) / (right[0] - left[0])
        return [{"at": at} for _ in summaries]

    def projection(self, d, bw, g):
        x = self.max_fpr
        fpr_mid = (d.Na + 0.5 * d.b) / d.M
        h_neg = np.where(fpr_mid <= x, (d.Pa + 0.5 * d.a) / d.P, g["at"])
        return -np.minimum(x, fpr_mid), h_neg

    def scale(self, value, bsums, g, n_pos, n_neg):
        if not self._standardized:
            return 1.0, (0.0, self.max_fpr)
        lo, hi = self._diag_and_perfect()
        return 0.5 / (hi - lo), (self._mcclish(0.0), 1.0)
