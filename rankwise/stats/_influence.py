"""Per-level influence of each observation on a criterion: the Hájek projection.

Every criterion ``theta`` of the bipartite family is, to first order, a sum of
one term per observation (its projection, paper 000's ``V_n``)::

    theta_hat - theta ~= sum_{i pos} (h_+(s_i) - mean_+) / n+  +  sum_{j neg} (h_-(s_j) - mean_-) / n-

so that, with the class counts fixed (the two-sample design that DeLong and
pROC use), ``Var(theta_hat) ~= S_+^2(h_+) / n+ + S_-^2(h_-) / n-`` where ``S_c^2``
is the sample variance over the class (denominator ``n_c - 1``). This module
computes ``h_+`` and ``h_-`` at every level of the dense rank table, in one
vectorised pass; ``h_+`` is only meaningful at levels holding positives and
``h_-`` at levels holding negatives. Covariances between criteria or scorers on
the same sample come from the same values read per observation.

Notation (dense levels in increasing score): ``a``, ``b`` the positive and
negative mass at a level, ``Pb``, ``Nb`` the masses strictly below, ``Pa``,
``Na`` strictly above; ``P = n+``, ``M = n-``, ``N = P + M``.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .._kernels import _passes
from .._kernels._ranktable import RankTable

__all__ = ["Dense", "dense", "default_bandwidth", "dcg_bandwidth"]


class Dense(NamedTuple):
    a: np.ndarray
    b: np.ndarray
    P: float
    M: float
    Pb: np.ndarray
    Nb: np.ndarray

    @property
    def N(self) -> float:
        return self.P + self.M

    @property
    def Pa(self) -> np.ndarray:
        return self.P - self.Pb - self.a

    @property
    def Na(self) -> np.ndarray:
        return self.M - self.Nb - self.b


def dense(t: RankTable) -> Dense:
    return Dense(t.pos, t.neg, t.n_pos, t.n_neg, t.pos_below, t.neg_below)


def default_bandwidth(n: float) -> float:
    """Window width, as a fraction of the pooled sample, used to differentiate a
    non-smooth ``phi`` and to estimate the class density ratio at a quantile cut:
    ``sqrt(n)`` observations, i.e. ``n^(-1/2)`` (at most 1/2, at least 2 observations).
    Chosen by simulation (binormal scores, n = 1,000 and 5,000, ``phi(u) = u 1{u >= 0.9}``):
    the standard error was 3-4% above the true standard deviation with this window,
    against 11-18% above with the wider ``n^(-1/3)``."""
    return float(min(0.5, max(2.0, np.sqrt(n)) / (n + 1.0)))


def dcg_bandwidth(n: float, k: float | None) -> float:
    """DCG's window: ``sqrt(k)`` positions (at least 2). DCG's discount changes over a few
    top positions and jumps at ``k``, so the pooled-sample window of
    :func:`default_bandwidth` (``n^(2/3)`` positions) would average its derivative over far
    more than the ``k`` positions it lives on; a simulation (binormal scores, n from 100
    to 5,000, k from 10 to 100) put the standard error within about 15% of the true
    standard deviation with ``sqrt(k)`` positions, against up to 5x too large with the
    default (which is the same rule with ``k = n``)."""
    kk = n if k is None else min(float(k), n)
    return float(min(0.5, max(2.0, np.sqrt(kk)) / (n + 1.0)))


def _suffix_sum(x: np.ndarray, c: float) -> np.ndarray:
    """``sum_{k > l} x_k + c x_l`` for every level ``l``."""
    total = np.cumsum(x[::-1])[::-1]  # sum_{k >= l}
    return total - (1.0 - c) * x


# --- one function per criterion: returns (h_pos, h_neg) over all dense levels ---------

def auc(d: Dense) -> tuple[np.ndarray, np.ndarray]:
    """DeLong's placements: ``h_+ = (Nb + b/2) / M`` (share of negatives below a positive),
    ``h_- = (Pa + a/2) / P`` (share of positives above a negative)."""
    return (d.Nb + 0.5 * d.b) / d.M, (d.Pa + 0.5 * d.a) / d.P


def phi_slope(phi, r: np.ndarray, n: float, bandwidth: float) -> np.ndarray:
    """Secant slope of ``phi`` (in ``u = rank / (n + 1)`` units) over a window of
    ``bandwidth * (n + 1)`` ranks centred at each rank ``r``, shifted (not shrunk) to
    stay inside [0, n + 1]. Exact for linear ``phi``; O(bandwidth^2) off ``phi'`` for
    smooth ``phi``; spreads a jump of ``phi`` evenly over the window (a kernel estimate
    of the density ratio there), with the same width near the ends of the list so that
    a jump close to the top is not counted twice as steep."""
    width = min(bandwidth, 1.0) * (n + 1.0)
    lo = np.clip(r - 0.5 * width, 0.0, n + 1.0 - width)
    hi = lo + width
    return (phi.at_ranks(hi, n) - phi.at_ranks(lo, n)) / (width / (n + 1.0))


def rank_statistic(d: Dense, phi, ties: str, bandwidth: float) -> tuple[np.ndarray, np.ndarray]:
    """Projection of ``W_n = sum_{pos} phi(R_i / (N + 1))`` (influence on ``W_n`` itself).

    An observation at level ``l`` raises the rank of every positive above it by one (by
    ``c`` if tied: 1/2 for mid-ranks, 1 for the paper's ``<=`` rank), which moves that
    positive's term by about ``phi'(u_i) / (N + 1)``; a positive also brings its own term
    ``phi(u_l)``. So, with ``g_k = a_k phi'(u_k) / (N + 1)`` and ``D_l = sum_{k > l} g_k + c g_l``,
    the contributions to ``W_n`` are ``phi(u_l) + D_l`` (positive) and ``D_l`` (negative),
    and ``h_+ = P (phi(u_l) + D_l)``, ``h_- = M D_l``. For ``phi(u) = u`` this is exactly
    DeLong's variance times ``(M / (N + 1))^2 P^2``."""
    N = d.N
    below = d.Pb + d.Nb
    count = d.a + d.b
    if ties == "average":
        r = below + 0.5 * (count + 1.0)
        c = 0.5
    else:
        r = below + count
        c = 1.0
    at = phi.at_ranks(r, N)
    slope = np.zeros_like(r)
    has = d.a > 0
    slope[has] = phi_slope(phi, r[has], N, bandwidth)
    g = d.a * slope / (N + 1.0)
    D = _suffix_sum(g, c)
    return d.P * (at + D), d.M * D


def local_auc(d: Dense, top: float, bandwidth: float) -> tuple[np.ndarray, np.ndarray]:
    """Projection of CV07's LocAUC ``= sum_{pos i, s_i >= Q} (Nb_i + b_i/2) / (P M)``.

    Pairs above the cut contribute as in DeLong's placements restricted to kept
    positives. The cut ``Q`` is the empirical upper ``top``-quantile of the pooled
    scores, so it moves with the sample: an observation above ``Q`` pushes it up by
    ``1 / (N f(Q))``, which removes ``H(Q) g(Q) / f(Q)`` (per unit) from the statistic,
    ``f``, ``g``, ``H`` the pooled density, the positive density and the negative cdf.
    ``pi g(Q) / f(Q)`` is the share of positives near the cut, estimated over the levels
    whose pooled mid-cdf lies within ``bandwidth / 2`` of ``1 - top`` (always including
    the cut's own level)."""
    N = d.N
    cum = d.Pb + d.Nb + d.a + d.b
    keep = (N - cum) < top * N * (1.0 - _passes._REL)
    keep &= (d.a + d.b) > 0
    q = int(np.argmax(keep))  # first (lowest) kept level: the cut Q
    mid = (cum - 0.5 * (d.a + d.b)) / N
    window = np.abs(mid - (1.0 - top)) <= 0.5 * bandwidth
    window[q] = True
    rho = float(d.a[window].sum() / (d.a[window] + d.b[window]).sum())  # local share of positives
    h_q = float((d.Nb[q] + 0.5 * d.b[q]) / d.M)  # H(Q), mid
    above = np.zeros_like(d.a)
    above[q + 1:] = 1.0
    above[q] = 0.5
    kp = np.where(keep, d.a, 0.0)
    h_pos = np.where(keep, (d.Nb + 0.5 * d.b) / d.M, 0.0) - h_q * rho * above
    h_neg = _suffix_sum(kp, 0.5) / d.P - h_q * rho * (d.M / d.P) * above
    return h_pos, h_neg


def pnorm_push_mean(d: Dense, p: float, ties: str) -> tuple[float, np.ndarray, np.ndarray]:
    """Projection of ``m = sum_{neg k} b_k v_k^p / M`` with ``v_k = (Pb_k + c a_k) / P`` the
    normalised height of a negative. Returns ``(m, h_+, h_-)``: ``h_- = v^p`` and, for a
    positive at ``l``, ``h_+ = sum_{neg k above (or tied)} b_k p v_k^(p-1) / M``."""
    c = 0.5 if ties == "average" else 1.0
    v = (d.Pb + c * d.a) / d.P
    vp = np.power(v, p)
    m = float(np.dot(d.b, vp) / d.M)
    e = d.b * p * np.power(v, p - 1.0) / d.M
    # A positive at l is below the negatives strictly above it, and counts c below a tied one.
    return m, _suffix_sum(e, c), vp


def partial_auc(d: Dense, max_fpr: float) -> tuple[np.ndarray, np.ndarray]:
    """Projection of ``pAUC = int_0^f ROC(a) da``.

    A positive at false-positive rate ``a_x`` lifts the curve over ``[a_x, 1]``: its
    influence is ``-min(f, a_x)`` up to a constant. A negative at ``a_x`` shifts the
    curve right beyond ``a_x``; integrating ``ROC'`` gives ``ROC(min(f, a_x))``. Ties
    are read at the middle of their segment (``a_x = (Na + b/2)/M``), where the
    curve's diagonal gives ``(Pa + a/2)/P``. With ``f = 1`` these are DeLong's
    placements (up to sign and constants)."""
    fpr_mid = (d.Na + 0.5 * d.b) / d.M
    h_pos = -np.minimum(max_fpr, fpr_mid)
    # The empirical ROC curve, by increasing fpr (levels from the top), ties diagonal.
    fpr = np.concatenate(([0.0], np.cumsum(d.b[::-1]) / d.M))
    tpr = np.concatenate(([0.0], np.cumsum(d.a[::-1]) / d.P))
    # Beyond the cut every negative has the same influence, ROC(f); at a vertical step
    # the curve is read at the top of the step (the last point with fpr <= f).
    j = int(np.searchsorted(fpr, max_fpr, side="right")) - 1
    at_f = tpr[j] if j + 1 >= fpr.shape[0] or fpr[j + 1] == fpr[j] else (
        tpr[j] + (max_fpr - fpr[j]) * (tpr[j + 1] - tpr[j]) / (fpr[j + 1] - fpr[j]))
    # Before the cut, a negative sits at the middle of its own segment, where the curve's
    # diagonal is at (Pa + a/2)/P.
    h_neg = np.where(fpr_mid <= max_fpr, (d.Pa + 0.5 * d.a) / d.P, at_f)
    return h_pos, h_neg

