"""Average precision: the area under the precision-recall curve, in its step form."""

from __future__ import annotations

import math

import numpy as np

from ._base import RankCriterion, buckets_below, register

__all__ = ["AveragePrecision"]


@register
class AveragePrecision(RankCriterion):
    r"""``AP = sum_k (R_k - R_{k-1}) P_k`` over the distinct score thresholds from the top:
    recall rises by the positive mass of a level over ``n+``, precision is read at that
    threshold (all observations with a score at or above it, ties included). No
    interpolation between points; this is scikit-learn's ``average_precision_score``.
    Per positive level ``l``: ``AP = sum_l a_l A_l / (A_l + B_l) / n+`` with ``A_l``, ``B_l``
    the positive and negative mass at or above the level.

    Projection (the class sizes fixed): a positive at level ``x`` brings its own precision
    and raises ``A_l`` of every positive level ``l <= x``; a negative at ``x`` raises their
    ``B_l``. With ``f(A, B) = A / (A + B)``::

        h_+(x) = f(A_x, B_x) + sum_{l <= x} a_l B_l / (A_l + B_l)^2
        h_-(x) = -(n- / n+) sum_{l <= x} a_l A_l / (A_l + B_l)^2

    the sums over the levels at or below ``x`` (on a partitioned sample, also over the
    buckets below).
    """

    name = "average_precision"
    examples = ("average_precision",)

    def __init__(self):
        pass

    def describe(self) -> str:
        return "average precision"

    def sums(self, t):
        side = t.pos_side
        above_pos = t.n_pos - side.own_below  # positive mass at or above the level
        above_all = above_pos + (t.n_neg - side.other_below)
        return (side.total(side.ratio(above_pos, above_all)),)

    def finish(self, sums, n_pos, n_neg):
        return sums[0] / n_pos

    # --- projection ---
    @staticmethod
    def _slopes(d):
        A = d.P - d.Pb
        B = d.M - d.Nb
        with np.errstate(invalid="ignore", divide="ignore"):
            den = (A + B) ** 2
            ga = np.where(d.a > 0, d.a * B / den, 0.0)
            gb = np.where(d.a > 0, d.a * A / den, 0.0)
        return A, B, ga, gb

    def summary(self, d, bw):
        _, _, ga, gb = self._slopes(d)
        return {"GA": math.fsum(ga), "GB": math.fsum(gb)}

    def combine(self, summaries, n_pos, n_neg):
        return [{"GA": a, "GB": b} for a, b in zip(buckets_below(summaries, "GA"), buckets_below(summaries, "GB"))]

    def projection(self, d, bw, g):
        A, B, ga, gb = self._slopes(d)
        with np.errstate(invalid="ignore", divide="ignore"):
            own = np.where(A + B > 0, A / (A + B), 0.0)
        return own + np.cumsum(ga) + g["GA"], -(d.M / d.P) * (np.cumsum(gb) + g["GB"])
