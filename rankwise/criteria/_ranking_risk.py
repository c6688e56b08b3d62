"""Clémençon, Lugosi & Vayatis's (2008) empirical ranking risk: a U-statistic over pairs."""

from __future__ import annotations

import numpy as np

from .._kernels import discordant_pairs, discordant_per_element
from .._validation import check_choice
from ._base import PairCriterion, register

__all__ = ["RankingRisk"]


@register
class RankingRisk(PairCriterion):
    r"""The weighted share of pairs that the scores order against their labels (a loss).

    ``pairs="all"`` averages over every ordered pair (pairs with equal labels count 0),
    ``"comparable"`` over pairs with different labels only (``1 - AUC`` for binary labels).
    Ties in score count 1/2. Undefined when no pair is comparable (``"comparable"``) or
    fewer than two observations carry weight (``"all"``).
    """

    name = "ranking_risk"
    examples = ("ranking_risk", "ranking_risk:pairs=all")
    greater_is_better = False
    methods = ("hoeffding", "hajek")

    def __init__(self, pairs="comparable"):
        self.pairs = check_choice(pairs, "pairs", "ranking_risk", ("comparable", "all"))

    def describe(self) -> str:
        return f"ranking risk ({self.pairs} pairs)"

    @property
    def undefined_reason(self) -> str:
        if self.pairs == "comparable":
            return "no pair of observations has different labels"
        return "fewer than two observations carry weight"

    def value_of(self, y, s, w):
        counts = discordant_pairs(y, s, w)
        denom = counts[self.pairs]
        if not denom > 0:
            return None
        return float((counts["discordant"] + 0.5 * counts["tied"]) / denom)

    def projection_of(self, y, s, w):
        r"""``(value, projection, zeta1, zeta2, n)``: the estimate, :math:`\hat h_1(Z_i)` per
        row (the row mean of the pair kernel minus the estimate; for ``"comparable"``, of the
        linearised ratio kernel), the plug-in variances of the projection and of the kernel,
        and the total mass. None when undefined."""
        counts = discordant_pairs(y, s, w)
        denom = counts[self.pairs]
        if not denom > 0:
            return None
        wt = np.ones(y.shape[0]) if w is None else w
        n = float(wt.sum())
        D, T, allp = counts["discordant"], counts["tied"], counts["all"]
        value = (D + 0.5 * T) / denom
        di = discordant_per_element(y, s, w)
        others = n - wt  # mass of the other observations
        with np.errstate(invalid="ignore", divide="ignore"):
            if self.pairs == "all":
                g = np.where(others > 0, di / others, 0.0)
                zeta2 = (D + 0.25 * T) / allp - value * value
            else:
                _, inv = np.unique(y, return_inverse=True)
                inv = inv.ravel()
                same = np.bincount(inv, weights=wt)[inv]
                comp = n - same  # mass with a different label
                B = counts["comparable"] / allp
                g = np.where(others > 0, (di - value * comp) / (others * B), 0.0)
                zeta2 = ((D + 0.25 * T) / allp - 2.0 * value * (D + 0.5 * T) / allp + value * value * B) / (B * B)
        gbar = float(np.dot(wt, g) / n)
        proj = g - gbar
        zeta1 = float(np.dot(wt, proj * proj) / n)
        return float(value), proj, zeta1, float(zeta2), n
