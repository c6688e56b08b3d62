"""Discounted cumulative gain with binary relevance (Järvelin & Kekäläinen 2002), and NDCG."""

from __future__ import annotations

import numpy as np

from .. import phi as _phi
from .._kernels import check_positions, cumulative_discount, discount_block_sums, ideal_dcg
from .._validation import check_param
from ._base import RankCriterion, register
from ._rank_statistic import PhiProjected, PhiProjection

__all__ = ["DCG", "NDCG"]


@register
class DCG(PhiProjected, RankCriterion):
    r"""A positive at position ``q`` (1 = top) gains ``discount(q)`` if ``q <= k``; a block of
    tied scores shares the mean discount of the positions it occupies (the expected DCG
    under random tie-breaking, scikit-learn's convention). With weights, positions are
    counted in mass units (the cumulative discount is interpolated between integers, so
    integer weights are repetitions).

    Projection: DCG is the linear rank statistic with ``phi(u) = d(n + 1 - (n+1) u)
    1{(n+1) u >= n - k + 1}``; its projection is that of ``W_phi`` at the mid-rank, with the
    window of ``sqrt(k)`` positions its discount varies on.
    """

    name = "dcg"
    examples = ("dcg:k=20", "dcg")

    def __init__(self, k=None, discount=None):
        self.k = check_param(k, "k", self.name, low=1, integer=True, allow_none=True)
        dphi = _phi.dcg(self.k, discount)  # validates a user discount
        self.discount = dphi.discount
        self._proj = PhiProjection(dphi, "average")

    def describe(self) -> str:
        at = "" if self.k is None else f"@{self.k}"
        own = self.params.get("discount")
        return self.name.upper() + at + ("" if own is None else f" (discount {getattr(own, '__name__', 'given')})")

    def sums(self, t):
        check_positions(t.n)
        cut = t.n if self.k is None else np.minimum(float(self.k), t.n)
        side = t.pos_side
        if self.k is not None:
            # A level with at least `cut` positives above it adds nothing: only the top
            # levels are read (n+ - own_below - mass positives lie above a level).
            side = side.tail(t.n_pos - cut)
        c = side.mass + side.other_tied
        above = t.n - (side.own_below + side.other_below) - c
        if not t.weighted:
            m = np.clip(cut - above, 0.0, c)
            block = discount_block_sums(self.discount, above + 1.0, m.astype(np.int64))
        else:
            block = (cumulative_discount(self.discount, above + c, cut)
                     - cumulative_discount(self.discount, above, cut))
        return (side.total(side.ratio(block, c)),)

    def _ideal(self, n_pos, n_neg):
        out = ideal_dcg(n_pos, n_pos + n_neg, self.k, self.discount)
        return float(out) if np.ndim(out) == 0 else out

    # --- projection: PhiProjected's ---
    def scale(self, value, bsums, g, n_pos, n_neg):
        return 1.0, (0.0, self._ideal(n_pos, n_neg))


@register
class NDCG(DCG):
    r"""``DCG@k / IDCG@k``, ``IDCG@k = sum_{q=1}^{min(k, n+)} d(q)`` (positives first)."""

    name = "ndcg"
    examples = ("ndcg", "ndcg:k=20")

    def __init__(self, k=None, discount=None):
        super().__init__(k=k, discount=discount)

    def finish(self, sums, n_pos, n_neg):
        return sums[0] / self._ideal(n_pos, n_neg)

    def scale(self, value, bsums, g, n_pos, n_neg):
        return 1.0 / self._ideal(n_pos, n_neg), (0.0, 1.0)
