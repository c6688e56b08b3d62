"""Rudin's (2009) p-norm push, height form: a loss."""

from __future__ import annotations

import math

import numpy as np

from .._kernels import below_plus_tied, power_inplace, suffix_sum
from .._validation import check_choice, check_param
from ._base import RankCriterion, buckets_above, register

__all__ = ["PNormPush"]


@register
class PNormPush(RankCriterion):
    r"""``Height(k) = #{pos i : s_i < s~_k} + 1/2 #{s_i = s~_k}`` (``ties="average"``; ``"max"``
    counts ties fully as Rudin's ``<=``), ``R_p = sum over negatives of Height^p``;
    normalised: ``(R_p / (n- n+^p))^(1/p)``.

    Projection of ``m = sum_{neg k} b_k v_k^p / M`` with ``v_k = (Pb_k + c a_k) / P`` the
    normalised height of a negative: ``h_- = v^p`` and, for a positive at ``l``,
    ``h_+ = sum_{neg k above (or tied)} b_k p v_k^(p-1) / M``; the criterion is
    ``m^(1/p)`` (normalised) or ``M P^p m`` (raw), hence the chain-rule factor.
    """

    name = "pnorm_push"
    examples = ("pnorm_push:p=2", "pnorm_push:p=3,ties=max,normalize=False")
    greater_is_better = False

    def __init__(self, p, ties="average", normalize=True):
        if not isinstance(normalize, (bool, np.bool_)):
            raise TypeError(f"The 'normalize' parameter of pnorm_push must be a bool. Got {normalize!r} instead.")
        self.p = check_param(p, "p", "pnorm_push", low=1.0)
        self.ties = check_choice(ties, "ties", "pnorm_push", ("average", "max"))
        self.normalize = bool(normalize)
        self.scale_free = self.normalize  # the raw R_p sums powers of masses
        self.c = 0.5 if self.ties == "average" else 1.0

    def sums(self, t):
        side = t.neg_side
        h = below_plus_tied(side, self.c)
        if side.unit:
            h = h.copy()  # below_plus_tied returned other_below itself; we write into h
        if self.normalize:
            h /= t.n_pos
        return (side.total(power_inplace(h, self.p)),)

    def finish(self, sums, n_pos, n_neg):
        if self.normalize:
            return (sums[0] / n_neg) ** (1.0 / self.p)
        return sums[0]

    # --- projection ---
    def _terms(self, d):
        v = (d.Pb + self.c * d.a) / d.P
        e = d.b * self.p * np.power(v, self.p - 1.0) / d.M
        return v, e

    def summary(self, d, bw):
        v, e = self._terms(d)
        return {"m": float(np.dot(d.b, np.power(v, self.p))), "E": float(e.sum())}

    def combine(self, summaries, n_pos, n_neg):
        m = math.fsum(s["m"] for s in summaries if s) / n_neg
        return [{"m": m, "above": x} for x in buckets_above(summaries, "E")]

    def projection(self, d, bw, g):
        v, e = self._terms(d)
        return suffix_sum(e, self.c) + g["above"], np.power(v, self.p)

    def scale(self, value, bsums, g, n_pos, n_neg):
        p, m = self.p, g["m"]
        if self.normalize:
            return ((m ** (1.0 / p - 1.0)) / p if m > 0 else 0.0), (0.0, 1.0)
        f = n_neg * n_pos ** p
        return f, (0.0, f)
