"""Rudin's (2009) p-norm push, height form: a loss."""

from __future__ import annotations

import math
import warnings

import numpy as np

from .._kernels import below_plus_tied, power_inplace, power_total, suffix_sum
from .._validation import check_choice, check_param
from ._base import RankCriterion, buckets_above, num, register

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

    def describe(self) -> str:
        extra = [w for w, on in (("ties counted fully", self.ties == "max"), ("raw sum", not self.normalize)) if on]
        return f"p-norm push, p = {num(self.p)}" + (f" ({', '.join(extra)})" if extra else "")

    # Heights are divided by the largest one before the p-th power, so that no power
    # underflows (1e-6 ** 64 is 0 in float64) or overflows: the sums are (L, S) with
    # sum of Height^p = exp(p L) S, L the log of the largest height (-inf when every
    # height is 0), and S at least the mass at the top. Two score ranges combine by
    # rescaling to the larger L (:meth:`merge`).
    def sums(self, t):
        side = t.neg_side
        h = below_plus_tied(side, self.c)
        if side.unit:  # below_plus_tied returned other_below itself: a new array for h
            h = h / t.n_pos if self.normalize else h.copy()
        elif self.normalize:
            h /= t.n_pos
        if h.ndim == 2:
            # A batch row keeps every level, some with no negative mass there: they weigh 0,
            # and must not set the top (nor overflow in the power).
            h = np.where(side.mass > 0, h, 0.0)
        top = side.maximum(h)
        with np.errstate(divide="ignore"):
            log_top = np.log(np.where(top > 0, top, 0.0))
        h /= np.where(top > 0, top, 1.0)
        return _scalar(log_top), _scalar(power_total(side, h, self.p))

    def merge(self, parts):
        parts = [q for q in parts if q is not None]
        if not parts:
            return ()
        top = np.maximum.reduce([q[0] for q in parts])
        ref = np.where(np.isfinite(top), top, 0.0)
        terms = [q[1] * np.exp(self.p * (q[0] - ref)) for q in parts]
        if np.ndim(top) == 0:
            return float(top), math.fsum(float(x) for x in terms)
        return top, np.sum(terms, axis=0)

    def finish(self, sums, n_pos, n_neg):
        log_top, total = sums
        with np.errstate(over="ignore", divide="ignore", invalid="ignore"):
            if self.normalize:
                # (sum Height^p / (n- n+^p))^(1/p), the heights already divided by n+.
                out = np.exp(log_top) * (total / n_neg) ** (1.0 / self.p)
            else:
                out = np.exp(self.p * log_top + np.log(total))
        return np.where(np.isfinite(log_top), out, 0.0) if np.ndim(out) else (
            float(out) if math.isfinite(log_top) else 0.0)

    def total(self, sums, n_pos, n_neg):
        out = super().total(sums, n_pos, n_neg)
        if math.isinf(out):
            warnings.warn(f"pnorm_push(p={self.p:g}, normalize=False) exceeds the float64 range (about "
                          f"1.8e308) and is returned as inf; the normalised value (normalize=True) is "
                          f"always in [0, 1].", RuntimeWarning, stacklevel=2)
        return out

    # --- projection ---
    # As the value, on heights divided by the largest one: the bucket summaries carry the
    # log of their own largest height and combine() rescales them to the global one, L.
    # Then h_+ is the true term over exp((p - 1) L), h_- (returned times exp(L)) over
    # exp((p - 1) L) too, and scale() folds exp((p - 1) L) into the chain-rule factor.
    def _heights(self, d):
        # Only levels with negative mass carry terms; 0 elsewhere (a positive's height may
        # exceed the top and its power overflow).
        return np.where(d.b > 0, (d.Pb + self.c * d.a) / d.P, 0.0)

    def _terms(self, v, log_top, b, M):
        """``(v^p, e)``: the rescaled heights' p-th power and ``e = b p v^(p-1) / M``
        (powers by multiplication where ``p`` is a small integer; v, ours, is reused).
        ``b`` None: every level is one negative (a class side of an untied range)."""
        if math.isfinite(log_top):
            v /= math.exp(log_top)
        e = power_inplace(v.copy(), self.p - 1.0)
        vp = np.multiply(e, v, out=v)  # v^(p-1) v
        if b is not None:
            e *= b
        e *= self.p / M
        return vp, e

    @staticmethod
    def _log_top(v):
        top = float(v.max()) if v.shape[0] else 0.0
        return math.log(top) if top > 0 else -math.inf

    def summary(self, d, bw):
        v = self._heights(d)
        log_top = self._log_top(v)
        vp, e = self._terms(v, log_top, d.b, d.M)
        return {"L": log_top, "m": float(np.dot(d.b, vp)), "E": float(e.sum())}

    # An untied range's terms live on one class each: h_- at each negative (its height:
    # the positives below it, over n+), h_+ at each positive (the e of the negatives above
    # it, a suffix sum over the negatives alone: the dense suffix sum only adds zeros
    # between them, so the partial sums are the same numbers).
    def _side_heights(self, st):
        side = st.neg_side
        return None if not (side.unit and st.pos_side.unit) else side.other_below / st.n_pos

    def range_summary(self, st, bw):
        v = self._side_heights(st)
        if v is None:
            return None
        log_top = self._log_top(v)
        vp, e = self._terms(v, log_top, None, st.n_neg)
        return {"L": log_top, "m": float(vp.sum()), "E": float(e.sum())}

    def range_terms(self, st, bw, g):
        v = self._side_heights(st)
        if v is None:
            return None
        h_neg, e = self._terms(v, g["L"], None, st.n_neg)
        if math.isfinite(g["L"]):
            h_neg *= math.exp(g["L"])
        above = np.zeros(e.shape[0] + 1)  # above[j]: e summed over the range's negatives j, j + 1, ...
        np.cumsum(e[::-1], out=above[-2::-1])
        # The negatives of the range below each positive: its global count minus the offset.
        below = st.pos_side.other_below - st.range_masses()[1]
        h_pos = above.take(below.astype(np.intp))
        h_pos += g["above"]
        return h_pos, h_neg

    def combine(self, summaries, n_pos, n_neg):
        tops = [s["L"] for s in summaries if s]
        top = max(tops) if tops else -math.inf
        ref = top if math.isfinite(top) else 0.0
        scaled = [dict(s, m=s["m"] * math.exp(self.p * (s["L"] - ref)),
                       E=s["E"] * math.exp((self.p - 1.0) * (s["L"] - ref))) if s else s for s in summaries]
        m = math.fsum(s["m"] for s in scaled if s) / n_neg
        return [{"m": m, "L": top, "above": x} for x in buckets_above(scaled, "E")]

    def projection(self, d, bw, g):
        h_neg, e = self._terms(self._heights(d), g["L"], d.b, d.M)
        if math.isfinite(g["L"]):
            h_neg *= math.exp(g["L"])
        return suffix_sum(e, self.c) + g["above"], h_neg

    def scale(self, value, bsums, g, n_pos, n_neg):
        p, m, log_top = self.p, g["m"], g["L"]
        if self.normalize:
            # d/dm of exp(L) (m)^(1/p) per unit of the rescaled m, times exp(-L) (see above).
            return ((m ** (1.0 / p - 1.0)) / p if m > 0 else 0.0), (0.0, 1.0)
        with np.errstate(over="ignore"):
            hi = float(np.exp(math.log(n_neg) + p * math.log(n_pos)))
            f = float(np.exp(math.log(n_neg) + p * math.log(n_pos) + (p - 1.0) * log_top)) if m > 0 else 0.0
        return f, (0.0, hi)


def _scalar(x):
    """A 0-d result as a float; a batch's (k, 1) column as it is."""
    return float(x) if np.ndim(x) == 0 else x
