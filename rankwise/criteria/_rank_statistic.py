"""Clémençon & Vayatis's conditional linear rank statistic ``W_n`` for any ``phi``."""

from __future__ import annotations

import numpy as np

from .. import phi as _phi
from .._kernels import phi_slope, pooled_ranks, suffix_sum, window_bandwidth
from .._validation import check_choice, parse_spec, warn_undefined
from ._base import RankCriterion, buckets_above, register

__all__ = ["RankStatistic", "PhiProjection", "PhiProjected", "at_ranks"]


def at_ranks(phi, r, n):
    """``phi(r / (n + 1))`` where ``n`` may be a ``(k, 1)`` column of a batch; a ``phi``
    that depends on ``n`` itself (DCG) is evaluated row by row when the rows differ."""
    if np.ndim(n) == 0 or not getattr(phi, "needs_n", False):
        return phi.at_ranks(r, n)
    col = np.asarray(n, dtype=np.float64).ravel()
    if np.all(col == col[0]):
        return phi.at_ranks(r, float(col[0]))
    return np.stack([phi.at_ranks(r[i], float(col[i])) for i in range(r.shape[0])])


class PhiProjection:
    """The Hájek projection of ``W_n = sum_{pos} phi(R_i / (N + 1))`` (on ``W_n`` itself).

    An observation at level ``l`` raises the rank of every positive above it by one (by
    ``c`` if tied: 1/2 for mid-ranks, 1 for the ``<=`` rank), which moves that positive's
    term by about ``phi'(u_i) / (N + 1)``; a positive also brings its own term
    ``phi(u_l)``. With ``g_k = a_k phi'(u_k) / (N + 1)`` and ``D_l = sum_{k > l} g_k + c g_l``
    the contributions are ``phi(u_l) + D_l`` (positive) and ``D_l`` (negative), so
    ``h_+ = P (phi(u_l) + D_l)`` and ``h_- = M D_l``. For ``phi(u) = u`` this is exactly
    DeLong's variance times ``(M / (N + 1))^2 P^2``. ``phi'`` is the secant slope over the
    window (:func:`rankwise._kernels.phi_slope`). On a bucket, ``sum_{k > l}`` also runs
    over the buckets above: each reports its ``sum g``."""

    def __init__(self, phi, ties: str):
        self.phi, self.ties = phi, ties
        self.c = 0.5 if ties == "average" else 1.0

    def _ranks(self, d) -> np.ndarray:
        below = d.Pb + d.Nb
        count = d.a + d.b
        if self.ties == "average":
            return below + 0.5 * (count + 1.0)
        return below + count

    def _g(self, d, r, bw):
        slope = np.zeros_like(r)
        has = d.a > 0
        start = 0
        top = self.phi.positions
        if top is not None and r.ndim == 1:
            # phi is constant below its top `positions` ranks: the secant is 0 wherever
            # its whole window lies below them, a prefix of the (increasing) ranks. Only
            # the rest is evaluated (a margin of one rank; the same numbers).
            width = min(bw, 1.0) * (d.N + 1.0)
            first = d.N - float(top) - 1.0  # ranks below it have phi = its value at 0
            if width < first:
                start = int(np.searchsorted(r, first - 0.5 * width - 1.0, "left"))
        has = has[start:]
        slope[start:][has] = phi_slope(self.phi, r[start:][has], d.N, bw)
        return d.a * slope / (d.N + 1.0)

    def bandwidth(self, n, given):
        return window_bandwidth(n, self.phi.positions) if given is None else given

    def summary(self, d, bw):
        return {"G": float(self._g(d, self._ranks(d), bw).sum())}

    def combine(self, summaries):
        return [{"above": x} for x in buckets_above(summaries, "G")]

    def _flat_phi(self, st, bw):
        """``phi`` on a range whose ranks all lie below the top ``positions`` by more than
        the window (``_g``'s slope is 0 at every level, ``phi`` constant there), else
        None. Every rank of the range is at most the masses up to its top."""
        top = self.phi.positions
        if top is None:
            return None
        cp, cn, A, B = st.range_masses()
        N = st.n
        width = min(bw, 1.0) * (N + 1.0)
        first = N - float(top) - 1.0
        if not (width < first and cp + cn + A + B < first - 0.5 * width - 1.0):
            return None
        ends = self.phi.at_ranks(np.array([cp + cn + 1.0, cp + cn + A + B]), N)
        return float(ends[0]) if ends[0] == ends[1] else None

    def range_summary(self, st, bw):
        return None if self._flat_phi(st, bw) is None else {"G": 0.0}

    def range_terms(self, st, bw, g):
        c = self._flat_phi(st, bw)
        if c is None:
            return None
        D = 0.0  # projection()'s D with every g_k 0
        if g.get("above"):
            D = D + g["above"]
        return st.n_pos * (c + D), st.n_neg * D

    def projection(self, d, bw, g):
        r = self._ranks(d)
        D = suffix_sum(self._g(d, r, bw), self.c)
        if g.get("above"):
            D = D + g["above"]
        return d.P * (self.phi.at_ranks(r, d.N) + D), d.M * D


class PhiProjected:
    """A criterion whose projection is that of ``W_phi`` (``self._proj``, a
    :class:`PhiProjection`): mixed in before :class:`RankCriterion`. ``phi`` reads
    ``rank / (N + 1)`` and the value sums masses: not scale free."""

    scale_free = False

    def bandwidth(self, n, given):
        return self._proj.bandwidth(n, given)

    def summary(self, d, bw):
        return self._proj.summary(d, bw)

    def combine(self, summaries, n_pos, n_neg):
        return self._proj.combine(summaries)

    def projection(self, d, bw, g):
        return self._proj.projection(d, bw, g)

    def range_summary(self, st, bw):
        return self._proj.range_summary(st, bw)

    def range_terms(self, st, bw, g):
        return self._proj.range_terms(st, bw, g)


@register
class RankStatistic(PhiProjected, RankCriterion):
    r"""``W = sum_l P_l phi(r_l / (n + 1))`` with ``r_l`` the pooled rank of level ``l`` in
    mass units; ``scale="minmax"`` also needs ``W_min`` and ``W_max``, the statistic when
    every positive is below (above) every negative, positives keeping their order."""

    name = "rank_statistic"
    examples = ("rank_statistic:phi=local_auc,u0=0.5", "rank_statistic:phi=pnorm_push,p=2,scale=mean",
                "rank_statistic:phi=dcg,k=20,ties=max,scale=minmax")

    def __init__(self, phi="auc", ties="average", scale="raw", **phi_params):
        if phi_params:
            if not isinstance(phi, str):
                raise ValueError(
                    f"rank_statistic got unexpected parameters {sorted(phi_params)}; phi parameters are only "
                    f"accepted together with a phi name."
                )
            name, params = parse_spec(phi)
            params.update(phi_params)
            phi = name + ":" + ",".join(f"{k}={v}" for k, v in params.items())
        self.phi = _phi.resolve(phi, "rank_statistic")
        self.ties = check_choice(ties, "ties", "rank_statistic", ("average", "max"))
        self.scale_ = check_choice(scale, "scale", "rank_statistic", ("raw", "mean", "minmax"))
        self._proj = PhiProjection(self.phi, self.ties)

    def describe(self) -> str:
        extra = [w for w, on in (("ties counted fully", self.ties == "max"), (f"{self.scale_} scale", self.scale_ != "raw"))
                 if on]
        return f"W_φ, {self.phi.describe()}" + (f" ({', '.join(extra)})" if extra else "")

    def _extremes(self, t):
        side = t.pos_side
        if side.unit:  # every mass 1: both conventions give own_below + 1 (no mass array)
            rp = side.own_below + 1.0
        elif self.ties == "average":
            rp = side.own_below + 0.5 * (side.mass + 1.0)
        else:
            rp = side.own_below + side.mass
        return (side.total(at_ranks(self.phi, rp, t.n)), side.total(at_ranks(self.phi, rp + t.n_neg, t.n)))

    def sums(self, t):
        side = t.pos_side
        w = side.total(at_ranks(self.phi, pooled_ranks(side, self.ties), t.n))
        if self.scale_ != "minmax":
            return (w,)
        return (w,) + self._extremes(t)

    def finish(self, sums, n_pos, n_neg):
        if self.scale_ == "raw":
            return sums[0]
        if self.scale_ == "mean":
            return sums[0] / n_pos
        w, wmin, wmax = sums
        if np.ndim(w) == 0:
            if not wmax > wmin:
                return warn_undefined("rank_statistic(scale='minmax')",
                                      "phi takes the same value at the best and the worst ordering")
            return (w - wmin) / (wmax - wmin)
        return np.where(wmax > wmin, (w - wmin) / (wmax - wmin), np.nan)

    # --- projection: PhiProjected's, with the range from W_min and W_max ---
    def bound_sums(self, t):
        return self._extremes(t)

    def scale(self, value, bsums, g, n_pos, n_neg):
        wmin, wmax = bsums
        if self.scale_ == "raw":
            return 1.0, (wmin, wmax)
        if self.scale_ == "mean":
            return 1.0 / n_pos, (wmin / n_pos, wmax / n_pos)
        return (1.0 / (wmax - wmin) if wmax > wmin else float("nan")), (0.0, 1.0)
