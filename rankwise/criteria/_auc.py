"""The AUC (Wilcoxon-Mann-Whitney statistic): ties count 1/2."""

from __future__ import annotations

from .._kernels import below_plus_tied
from ._base import RankCriterion, register

__all__ = ["AUC"]


@register
class AUC(RankCriterion):
    r"""``AUC = sum over positive levels of P (Nb + Nt / 2) / (n+ n-)``.

    Projection: DeLong's placements, ``h_+ = (Nb + b/2) / M`` (the share of negatives
    below a positive) and ``h_- = (Pa + a/2) / P`` (the share of positives above a
    negative); the Hájek variance is then exactly DeLong's.
    """

    name = "auc"
    examples = ("auc",)
    methods = ("delong", "hajek")

    def __init__(self):
        pass

    def describe(self) -> str:
        return "AUC"

    def sums(self, t):
        side = t.pos_side
        return (side.total(below_plus_tied(side, 0.5)),)

    def finish(self, sums, n_pos, n_neg):
        return sums[0] / (n_pos * n_neg)

    def projection(self, d, bw, g):
        return (d.Nb + 0.5 * d.b) / d.M, (d.Pa + 0.5 * d.a) / d.P

    side_projected = True

    def side_projection(self, t):
        # The same numbers as projection() at each class's levels: every count is an
        # integer (or half of one) far below 2**52, so the sums are exact either way.
        return (below_plus_tied(t.pos_side, 0.5) / t.n_neg,
                (t.n_pos - below_plus_tied(t.neg_side, 0.5)) / t.n_pos)
