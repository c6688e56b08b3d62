r"""Pairwise surrogates of the ranking error, summed exactly over all positive-negative pairs.

A pairwise surrogate replaces the 0-1 pair loss ``1{s_i <= s_j}`` of a positive ``i`` and a
negative ``j`` by a convex function ``phi`` of the pair margin ``m = s_i - s_j`` (large margin
= good). Over a weighted sample the objective is the mean over the pair mass,

.. math:: F(s) = \frac{1}{W} \sum_{i: y_i = 1} \sum_{j: y_j = 0} w_i w_j\, \phi(s_i - s_j),
          \qquad W = \Big(\sum_{i: y_i = 1} w_i\Big) \Big(\sum_{j: y_j = 0} w_j\Big),

so that values are comparable across sample sizes (a weighted mean of ``phi`` over the
``n+ n-`` pairs). These are *losses*: lower is better. Higher score = more likely positive,
always.

None of the surrogates materialises the pairs (except ``logistic`` in ``mode="exact"``, which
streams them in bounded blocks):

==================  ===========================  =========================================
name                ``phi(m)``                   algorithm (value and gradient)
==================  ===========================  =========================================
``hinge``           ``max(0, c - m)``            sort + prefix sums, O(n log n)
``squared_hinge``   ``max(0, c - m)^2``          sort + prefix sums, O(n log n)
``squared``         ``(c - m)^2``                class moments, O(n)
``exponential``     ``exp(-m)``                  factorises (log-sum-exp), O(n)
``logistic``        ``log(1 + exp(-m))``         exact O(n+ n-) blocks, or an O(n log n)
                                                 approximation with a stated error bound
==================  ===========================  =========================================

``c`` is the ``margin`` parameter (default 1). Use :func:`pairwise` to build one:

>>> from rankwise.losses import pairwise
>>> loss = pairwise("hinge")
>>> value, grad = loss.value_and_grad([0, 1], [0.0, 0.5])   # one pair, margin 0.5
>>> value, grad.tolist()
(0.5, [1.0, -1.0])
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Callable, Mapping, NamedTuple

import numpy as np

from .._kernels import cumsum0, hinge_pair_sums, log_weights, suffix0
from .._labels import BINARY
from .._validation import (
    check_choice,
    check_param,
    check_same_length,
    check_sample_weight,
    check_scores,
)

__all__ = ["PairwiseSurrogate", "PairwiseResult", "PreparedPairwise", "pairwise", "PAIRWISE", "APPROX_VALUE_ERROR",
           "APPROX_GRAD_ERROR", "APPROX_HESS_ERROR"]


# --------------------------------------------------------------------------------------
# Elementwise phi and phi' (the definitions; also used by the exact logistic blocks)
# --------------------------------------------------------------------------------------

def _phi_hinge(m: np.ndarray, c: float) -> np.ndarray:
    return np.maximum(c - m, 0.0)


def _dphi_hinge(m: np.ndarray, c: float) -> np.ndarray:
    # Subgradient convention: a pair is active iff m < c; at m == c the slope is 0 (the pair
    # contributes 0 to the value and to the gradient), the same convention as the kernels.
    return np.where(m < c, -1.0, 0.0)


def _phi_sqhinge(m: np.ndarray, c: float) -> np.ndarray:
    r = np.maximum(c - m, 0.0)
    return r * r


def _dphi_sqhinge(m: np.ndarray, c: float) -> np.ndarray:
    return -2.0 * np.maximum(c - m, 0.0)


def _phi_squared(m: np.ndarray, c: float) -> np.ndarray:
    r = c - m
    return r * r


def _dphi_squared(m: np.ndarray, c: float) -> np.ndarray:
    return -2.0 * (c - m)


def _phi_exp(m: np.ndarray) -> np.ndarray:
    with np.errstate(over="ignore"):
        return np.exp(-m)


def _dphi_exp(m: np.ndarray) -> np.ndarray:
    with np.errstate(over="ignore"):
        return -np.exp(-m)


def _phi_logistic(m: np.ndarray) -> np.ndarray:
    # log(1 + e^{-m}) = max(-m, 0) + log1p(e^{-|m|}): no overflow, no cancellation.
    return np.maximum(-m, 0.0) + np.log1p(np.exp(-np.abs(m)))


def _dphi_logistic(m: np.ndarray) -> np.ndarray:
    # -1 / (1 + e^{m}) = -sigmoid(-m), written with e^{-|m|} only.
    e = np.exp(-np.abs(m))
    return -np.where(m >= 0, e, 1.0) / (1.0 + e)


# --------------------------------------------------------------------------------------
# Kernels on validated arrays: sp, wp (positives), sn, wn (negatives), float64, W > 0
# They return (value, grad_pos, grad_neg).
# --------------------------------------------------------------------------------------

def _first_active_negative(tn: np.ndarray, tp: np.ndarray, c: float) -> np.ndarray:
    """For each positive score ``tp`` (sorted ascending), the first index ``k`` of the sorted
    negatives ``tn`` with ``fl(tp - tn[k]) < c``; all later negatives are active too.

    ``fl(s - t)`` is monotone in ``t`` (rounding is monotone), so the active negatives are a
    suffix. ``searchsorted(tn, tp - c)`` finds it up to the rounding of ``tp - c``; the
    fix-up loops then move the boundary by whole blocks of tied values until the floating
    point predicate itself holds, so the active set is exactly the brute force's
    ``s_i - s_j < c`` (pairs at exactly ``m = c`` are inactive).
    """
    nn = tn.shape[0]
    k = np.searchsorted(tn, tp - c, side="right")
    while True:  # the negative just below the boundary must be inactive
        idx = np.flatnonzero(k > 0)
        bad = idx[tp[idx] - tn[k[idx] - 1] < c]
        if bad.size == 0:
            break
        k[bad] = np.searchsorted(tn, tn[k[bad] - 1], side="left")
    while True:  # the negative at the boundary must be active
        idx = np.flatnonzero(k < nn)
        bad = idx[~(tp[idx] - tn[k[idx]] < c)]
        if bad.size == 0:
            break
        k[bad] = np.searchsorted(tn, tn[k[bad]], side="right")
    return k


def _count_active_positives(tp: np.ndarray, tn: np.ndarray, c: float) -> np.ndarray:
    """For each negative score ``tn``, the number of sorted positives ``tp`` with
    ``fl(tp - tn) < c`` (a prefix of ``tp``); exact as in :func:`_first_active_negative`."""
    npos = tp.shape[0]
    k = np.searchsorted(tp, tn + c, side="left")
    while True:  # the last counted positive must be active
        idx = np.flatnonzero(k > 0)
        bad = idx[~(tp[k[idx] - 1] - tn[idx] < c)]
        if bad.size == 0:
            break
        k[bad] = np.searchsorted(tp, tp[k[bad] - 1], side="left")
    while True:  # the first uncounted positive must be inactive
        idx = np.flatnonzero(k < npos)
        bad = idx[tp[k[idx]] - tn[idx] < c]
        if bad.size == 0:
            break
        k[bad] = np.searchsorted(tp, tp[k[bad]], side="right")
    return k


def _kernel_hinge(sp, wp, sn, wn, *, margin: float, squared: bool, hessian: bool = False):
    """Hinge (``squared=False``) or squared hinge, exact, O(n log n).

    Positive ``i`` pairs with the negatives ``s_j > s_i - c`` (a suffix of the sorted
    negatives); negative ``j`` with the positives ``s_i < s_j + c`` (a prefix of the sorted
    positives). Suffix sums of ``w, w s, w s^2`` over negatives and prefix sums of
    ``w, w s`` over positives give each element's sum over its active partners
    (:func:`rankwise._kernels.hinge_pair_sums`).
    """
    c = margin
    W = float(wp.sum()) * float(wn.sum())
    # Any sort order will do: boundaries always fall between blocks of tied values.
    op = np.argsort(sp)
    on = np.argsort(sn)
    tp, vp = sp[op], wp[op]
    tn, vn = sn[on], wn[on]
    # Active sets on the raw scores (bit-compatible with the literal definition) ...
    kn = _first_active_negative(tn, tp, c)
    kp = _count_active_positives(tp, tn, c)
    # ... sums on centred scores (margins are translation invariant; centring keeps the
    # cancellation in a S0 + S1 at the scale of the score spread, not of the scores).
    ref = 0.5 * (min(tp[0], tn[0]) + max(tp[-1], tn[-1]))
    val, gp_sorted, gn_sorted = hinge_pair_sums(tp - ref, vp, tn - ref, vn, kn, kp, c, squared)
    gp = np.empty_like(sp)
    gn = np.empty_like(sn)
    gp[op] = gp_sorted / W
    gn[on] = gn_sorted / W
    if not hessian:
        return max(val / W, 0.0), gp, gn
    # Squared hinge: phi'' = 2 on the active pairs (m < c), 0 elsewhere, so each element's
    # second derivative is twice the weight of its active partners (the same suffix and
    # prefix sums as the gradient).
    hp = np.empty_like(sp)
    hn = np.empty_like(sn)
    hp[op] = 2.0 * vp * suffix0(vn)[kn] / W
    hn[on] = 2.0 * vn * cumsum0(vp)[kp] / W
    return max(val / W, 0.0), gp, gn, hp, hn


def _kernel_squared(sp, wp, sn, wn, *, margin: float, hessian: bool = False):
    """Pairwise squared loss from class moments, O(n).

    Under the pair measure ``m = s_i - s_j`` has mean ``mu+ - mu-`` and variance
    ``V+ + V-`` (the classes are independent), so ``F = (c - mu+ + mu-)^2 + V+ + V-``;
    the (weighted) variances are computed around the means (two passes, no cancellation).
    """
    c = margin
    # Centre first: means of scores far from 0 (1e6 + noise) would otherwise carry a rounding
    # error at the scale of the scores into every gradient entry.
    ref = 0.5 * (min(float(sp.min()), float(sn.min())) + max(float(sp.max()), float(sn.max())))
    sp = sp - ref
    sn = sn - ref
    Wp = float(wp.sum())
    Wn = float(wn.sum())
    mup = float(np.dot(wp, sp)) / Wp
    mun = float(np.dot(wn, sn)) / Wn
    dp = sp - mup
    dn = sn - mun
    Vp = float(np.dot(wp, dp * dp)) / Wp
    Vn = float(np.dot(wn, dn * dn)) / Wn
    b = c - mup + mun
    val = b * b + Vp + Vn
    gp = (-2.0 / Wp) * wp * ((c + mun) - sp)
    gn = (2.0 / Wn) * wn * ((c - mup) + sn)
    if not hessian:
        return val, gp, gn
    # phi'' = 2 for every pair: 2 w_i W- / W = 2 w_i / W+ (and 2 w_j / W-).
    return val, gp, gn, (2.0 / Wp) * wp, (2.0 / Wn) * wn


def _logsumexp(a: np.ndarray) -> float:
    mx = float(a.max())  # finite: at least one weight is positive
    return mx + math.log(float(np.exp(a - mx).sum()))


def _kernel_exponential(sp, wp, sn, wn, *, hessian: bool = False, log_w=None):
    """Pairwise exponential loss (RankBoost): ``F = (sum+ w e^{-s})(sum- w e^{s}) / W``,
    both factors in log space (shifted by their largest exponent), O(n). ``log_w``: the
    pair ``(log wp, log wn)`` when the caller has it already (a prepared objective)."""
    lwp, lwn = (log_weights(wp), log_weights(wn)) if log_w is None else log_w
    ap = lwp - sp
    an = lwn + sn
    lse_p = _logsumexp(ap)
    lse_n = _logsumexp(an)
    logW = math.log(float(wp.sum())) + math.log(float(wn.sum()))
    with np.errstate(over="ignore"):
        val = float(np.exp(lse_p + lse_n - logW))
        gp = -np.exp(ap + (lse_n - logW))
        gn = np.exp(an + (lse_p - logW))
    if not hessian:
        return val, gp, gn
    # phi'' = phi = -phi': each element's second derivative is the size of its gradient.
    return val, gp, gn, -gp, gn.copy()


# --- logistic, exact: all pairs in bounded blocks -------------------------------------

_BLOCK_ELEMENTS = 4_000_000  # pairs held in memory at once (about 32 MB per temporary)


def _kernel_logistic_exact(sp, wp, sn, wn, *, hessian: bool = False):
    """All ``n+ n-`` pairs, blocks of at most ``_BLOCK_ELEMENTS`` pairs, stable forms
    ``phi = max(-m, 0) + log1p(e^{-|m|})``, ``phi' = -[m >= 0 ? e^{-|m|} : 1]/(1 + e^{-|m|})``
    and (``hessian=True``) ``phi'' = e^{-|m|} / (1 + e^{-|m|})^2``."""
    npos, nneg = sp.shape[0], sn.shape[0]
    W = float(wp.sum()) * float(wn.sum())
    bn = min(nneg, _BLOCK_ELEMENTS)
    bp = max(1, _BLOCK_ELEMENTS // bn)
    val = 0.0
    gp = np.zeros(npos)
    gn = np.zeros(nneg)
    hp = np.zeros(npos) if hessian else None
    hn = np.zeros(nneg) if hessian else None
    for j0 in range(0, nneg, bn):
        tn = sn[j0:j0 + bn]
        vn = wn[j0:j0 + bn]
        for i0 in range(0, npos, bp):
            m = sp[i0:i0 + bp, None] - tn[None, :]
            e = np.abs(m)
            np.negative(e, out=e)
            np.exp(e, out=e)                     # e = exp(-|m|)
            loss = np.log1p(e)
            np.minimum(m, 0.0, out=m)            # m <- min(m, 0) = -max(-m, 0)
            loss -= m
            nonneg = m == 0.0                    # original m >= 0
            sig = np.where(nonneg, e, 1.0)
            vb = wp[i0:i0 + bp]
            if hessian:
                curv = e.copy()                  # exp(-|m|)
            e += 1.0
            sig /= e                             # sigmoid(-m) = -phi'(m)
            val += float(vb @ (loss @ vn))
            gp[i0:i0 + bp] -= sig @ vn
            gn[j0:j0 + bn] += vb @ sig
            if hessian:
                curv /= e
                curv /= e                        # phi''(m) = e^{-|m|} / (1 + e^{-|m|})^2
                hp[i0:i0 + bp] += curv @ vn
                hn[j0:j0 + bn] += vb @ curv
    if not hessian:
        return val / W, gp * wp / W, gn * wn / W
    return val / W, gp * wp / W, gn * wn / W, hp * wp / W, hn * wn / W


# --- logistic, approximate: binned local expansions, O(n log n) ----------------------
#
# Scores go into bins of width DELTA on a common grid; a score is its bin index plus a local
# coordinate x in [-1/2, 1/2) (in units of DELTA) around the bin centre. A pair whose bins are
# d apart has margin m = DELTA (d + x_i - x_j), |x_i - x_j| < 1. For |d| < K the pair term is a
# degree-DEG polynomial in (x_i - x_j): the Chebyshev interpolant of u -> phi(DELTA (d + u)) on
# [-1, 1], written in monomials. Expanding (x_i - x_j)^k binomially separates i from j, so each
# bin needs only its DEG + 1 power sums, and each pair of bins at offset d a small matrix
# product; each element then evaluates a degree-DEG polynomial in its own x. For d >= K
# (m > (K-1) DELTA) phi and phi' are < e^{-(K-1) DELTA} and the pairs are dropped; for d <= -K
# (m < -(K-1) DELTA), phi = -m and phi' = -1 within e^{-(K-1) DELTA}, summed exactly with
# prefix sums over the bins.

_DELTA = 1.0
_DEG = 10
_K = 31
# Stated per-pair error bounds of the approximation (max over the band of |P_d - phi| and
# |P'_d - phi'| on a grid of 4001 points per offset, plus the tail term e^{-30} = 9.4e-14,
# rounded up; tests/losses/test_losses_pairwise.py recomputes them on a finer grid).
APPROX_VALUE_ERROR = 1.5e-10
APPROX_GRAD_ERROR = 1.7e-9
# The same for phi'' (the engines' Hessian; measured the same way, rounded up).
APPROX_HESS_ERROR = 2.5e-9


@functools.lru_cache(maxsize=None)
def _logistic_tables() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Monomial coefficients of the interpolants, per offset d = -K+1 .. K-1:
    ``val[d, k]`` for phi and ``grad[d, k]`` for phi', and the expansion matrices
    ``Cpos[d] = [Cval | Cgrad]`` (shape (DEG+1, 2 DEG+2)) and ``Cgrad`` with
    ``C[d][p, r] = coef[d, r + p] * binom(r + p, r)``."""
    from numpy.polynomial import chebyshev as cheb

    offsets = np.arange(-_K + 1, _K)
    q = _DEG + 1
    val = np.empty((offsets.size, q))
    grad = np.empty((offsets.size, q))
    for row, d in enumerate(offsets):
        val[row] = cheb.cheb2poly(cheb.chebinterpolate(lambda u: _phi_logistic(_DELTA * (d + u)), _DEG))
        grad[row] = cheb.cheb2poly(cheb.chebinterpolate(lambda u: _dphi_logistic(_DELTA * (d + u)), _DEG))

    def expand(coef: np.ndarray) -> np.ndarray:
        out = np.zeros((offsets.size, q, q))
        for p in range(q):
            for r in range(q - p):
                out[:, p, r] = coef[:, r + p] * math.comb(r + p, r)
        return out

    cgrad = expand(grad)
    cpos = np.concatenate([expand(val), cgrad], axis=2)
    return val, grad, cpos, cgrad


def _phi2_logistic(m: np.ndarray) -> np.ndarray:
    """``phi''(m) = e^{-|m|} / (1 + e^{-|m|})^2`` (symmetric in ``m``)."""
    e = np.exp(-np.abs(m))
    return e / ((1.0 + e) * (1.0 + e))


@functools.lru_cache(maxsize=None)
def _logistic_hess_tables() -> tuple[np.ndarray, np.ndarray]:
    """As :func:`_logistic_tables`, for ``phi''``: the monomial coefficients ``hess[d, k]``
    per offset and their expansion matrices ``Chess[d]`` (shape (DEG+1, DEG+1))."""
    from numpy.polynomial import chebyshev as cheb

    offsets = np.arange(-_K + 1, _K)
    q = _DEG + 1
    hess = np.empty((offsets.size, q))
    for row, d in enumerate(offsets):
        hess[row] = cheb.cheb2poly(cheb.chebinterpolate(lambda u: _phi2_logistic(_DELTA * (d + u)), _DEG))
    out = np.zeros((offsets.size, q, q))
    for p in range(q):
        for r in range(q - p):
            out[:, p, r] = hess[:, r + p] * math.comb(r + p, r)
    return hess, out


def _compress_bins(b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Sorted distinct bins (as floats) and each element's index into them. Integer-valued,
    non-negative ``b``; O(n) with a bincount when the bins are dense, else a sort."""
    bmax = float(b.max())
    if bmax < 4 * b.shape[0] + 4096:
        bi = b.astype(np.int64)
        cnt = np.bincount(bi)
        present = cnt > 0
        remap = np.cumsum(present) - 1
        return np.flatnonzero(present).astype(np.float64), remap[bi]
    u, inv = np.unique(b, return_inverse=True)
    return u, inv.ravel()


def _power_sums(inv: np.ndarray, nbins: int, w: np.ndarray, x: np.ndarray) -> np.ndarray:
    """out[b, p] = sum over the elements of bin b of w x^p, p = 0 .. DEG."""
    out = np.empty((nbins, _DEG + 1))
    pw = w.copy()
    for p in range(_DEG + 1):
        out[:, p] = np.bincount(inv, weights=pw, minlength=nbins)
        if p < _DEG:
            pw *= x
    return out


def _horner(coef: np.ndarray, inv: np.ndarray, x: np.ndarray) -> np.ndarray:
    """sum_r coef[inv, r] x^r, column by column (no (n, DEG+1) temporary)."""
    acc = coef[inv, coef.shape[1] - 1].copy()
    for r in range(coef.shape[1] - 2, -1, -1):
        acc *= x
        acc += coef[inv, r]
    return acc


def _kernel_logistic_approx(sp, wp, sn, wn, *, hessian: bool = False):
    W = float(wp.sum()) * float(wn.sum())
    _, _, cpos, cgrad = _logistic_tables()
    if hessian:
        # phi'' rides along: positives get [value | phi' | phi''], negatives [phi' | phi''].
        chess = _logistic_hess_tables()[1]
        cpos = np.concatenate([cpos, chess], axis=2)
        cgrad = np.concatenate([cgrad, chess], axis=2)
    q = _DEG + 1
    x0 = min(float(sp.min()), float(sn.min()))
    zp = (sp - x0) / _DELTA
    zn = (sn - x0) / _DELTA
    bp = np.floor(zp)
    bn = np.floor(zn)
    xp = zp - bp - 0.5                      # local coordinates in [-1/2, 1/2)
    xn = zn - bn - 0.5
    up, ip = _compress_bins(bp)
    un, in_ = _compress_bins(bn)
    pos_mom = _power_sums(ip, up.size, wp, xp)          # sum w x^p
    neg_mom = _power_sums(in_, un.size, wn, -xn)        # sum w (-x)^p
    lam_pos = np.zeros((up.size, cpos.shape[2]))   # per positive bin: value | phi' (| phi'') polynomials in x
    lam_neg = np.zeros((un.size, cgrad.shape[2]))  # per negative bin: phi' (| phi'') polynomials in -x
    last = un.size - 1
    for row, d in enumerate(range(-_K + 1, _K)):
        target = up - d                                # negative bin partnering each positive bin
        j = np.minimum(np.searchsorted(un, target), last)
        a_sel = np.flatnonzero(un[j] == target)
        if a_sel.size == 0:
            continue
        b_sel = j[a_sel]
        # For fixed d each positive bin has at most one partner and vice versa: no duplicates.
        # (lam[idx] = lam[idx] + x is ~3x faster than lam[idx] += x with numpy 2.x.)
        lam_pos[a_sel] = lam_pos[a_sel] + neg_mom[b_sel] @ cpos[row]
        lam_neg[b_sel] = lam_neg[b_sel] + pos_mom[a_sel] @ cgrad[row]

    # Far pairs, m < -(K-1) DELTA: phi(m) = -m, phi'(m) = -1 (each within e^{-(K-1) DELTA}).
    zpd = zp * _DELTA
    znd = zn * _DELTA
    vb = neg_mom[:, 0]
    tb = np.bincount(in_, weights=wn * znd, minlength=un.size)
    first = np.searchsorted(un, up + _K, side="left")   # negative bins with b >= a + K
    V_far = suffix0(vb)[first]
    T_far = suffix0(tb)[first]
    cnt = np.searchsorted(up, un - _K, side="right")     # positive bins with a <= b - K
    P_far = cumsum0(pos_mom[:, 0])[cnt]

    val_i = _horner(lam_pos[:, :q], ip, xp) + (T_far[ip] - zpd * V_far[ip])
    dphi_i = _horner(lam_pos[:, q:2 * q], ip, xp) - V_far[ip]
    dphi_j = _horner(lam_neg[:, :q], in_, -xn) - P_far[in_]
    val = float(np.dot(wp, val_i)) / W
    if not hessian:
        return max(val, 0.0), wp * dphi_i / W, -wn * dphi_j / W
    # Far pairs have phi'' < e^{-(K-1) DELTA}: dropped, as phi' - (-1) is for m < -(K-1) DELTA.
    d2_i = _horner(lam_pos[:, 2 * q:], ip, xp)
    d2_j = _horner(lam_neg[:, q:], in_, -xn)
    return max(val, 0.0), wp * dphi_i / W, -wn * dphi_j / W, wp * d2_i / W, wn * d2_j / W


def _kernel_logistic(sp, wp, sn, wn, *, mode: str, hessian: bool = False):
    if mode == "exact":
        return _kernel_logistic_exact(sp, wp, sn, wn, hessian=hessian)
    return _kernel_logistic_approx(sp, wp, sn, wn, hessian=hessian)


# --------------------------------------------------------------------------------------
# Registry and public API
# --------------------------------------------------------------------------------------

@dataclass(frozen=True)
class _Spec:
    name: str
    formula: str
    defaults: Mapping[str, Any]
    phi: Callable[..., np.ndarray]
    dphi: Callable[..., np.ndarray]
    kernel: Callable[..., tuple]


PAIRWISE: Mapping[str, _Spec] = MappingProxyType({
    "hinge": _Spec("hinge", "max(0, margin - m)", MappingProxyType({"margin": 1.0}),
                   _phi_hinge, _dphi_hinge, functools.partial(_kernel_hinge, squared=False)),
    "squared_hinge": _Spec("squared_hinge", "max(0, margin - m)^2", MappingProxyType({"margin": 1.0}),
                           _phi_sqhinge, _dphi_sqhinge, functools.partial(_kernel_hinge, squared=True)),
    "squared": _Spec("squared", "(margin - m)^2", MappingProxyType({"margin": 1.0}),
                     _phi_squared, _dphi_squared, _kernel_squared),
    "exponential": _Spec("exponential", "exp(-m)", MappingProxyType({}),
                         _phi_exp, _dphi_exp, _kernel_exponential),
    "logistic": _Spec("logistic", "log(1 + exp(-m))",
                      MappingProxyType({"mode": "auto", "exact_max_pairs": 1_000_000}),
                      _phi_logistic, _dphi_logistic, _kernel_logistic),
})
"""The pairwise surrogates by name (read-only): each entry has ``formula`` and the
``defaults`` of its parameters."""


class PairwiseResult(NamedTuple):
    """What :meth:`PairwiseSurrogate.evaluate` returns."""

    value: float
    """The objective ``F`` (mean over the pair mass)."""
    grad: np.ndarray
    """``dF/ds``, one entry per observation, in input order."""
    mode: str
    """``"exact"`` or ``"approx"``: the algorithm that ran."""
    error_bound: float
    """Bound on ``|value - F|`` from the approximation (0 when exact; floating point rounding
    is not included)."""


class PairwiseSurrogate:
    r"""A pairwise surrogate summed over all positive-negative pairs; build it with :func:`pairwise`.

    Attributes
    ----------
    name : str
        One of the keys of :data:`PAIRWISE`.
    params : dict
        Its parameters (defaults filled in).

    Notes
    -----
    .. math:: F(s) = \frac{1}{W} \sum_{i: y_i = 1} \sum_{j: y_j = 0} w_i w_j\, \phi(s_i - s_j),
              \qquad W = \Big(\sum_{i: y_i = 1} w_i\Big) \Big(\sum_{j: y_j = 0} w_j\Big)

    with ``phi`` the surrogate (see :func:`pairwise`) and ``w`` the sample weights (1 if not
    given; frequency weights: an integer weight is the same as repeating the observation).
    The gradient is ``dF/ds``, one entry per observation; for the hinge it is the subgradient
    in which a pair at exactly ``m = margin`` is inactive.
    """

    def __init__(self, name: str, **params: Any) -> None:
        if not isinstance(name, str) or name not in PAIRWISE:
            valid = ", ".join(repr(k) for k in PAIRWISE)
            raise ValueError(f"Unknown pairwise surrogate {name!r}; valid names are {valid}.")
        spec = PAIRWISE[name]
        unknown = sorted(set(params) - set(spec.defaults))
        if unknown:
            accepted = ", ".join(repr(k) for k in spec.defaults) or "no parameters"
            raise TypeError(
                f"pairwise({name!r}) got unexpected parameter(s) {', '.join(repr(k) for k in unknown)}; "
                f"it accepts {accepted}."
            )
        full = dict(spec.defaults)
        full.update(params)
        if "margin" in full:
            full["margin"] = check_param(full["margin"], "margin", "pairwise", low=0.0, low_inclusive=False)
        if "mode" in full:
            full["mode"] = check_choice(full["mode"], "mode", "pairwise", ("auto", "exact", "approx"))
            full["exact_max_pairs"] = check_param(full["exact_max_pairs"], "exact_max_pairs", "pairwise", low=0.0)
        self.name = name
        self.params = full
        self._spec = spec

    def __repr__(self) -> str:
        args = "".join(f", {k}={v!r}" for k, v in self.params.items())
        return f"pairwise({self.name!r}{args})"

    # -- elementwise ----------------------------------------------------------------------

    def phi(self, m: Any) -> np.ndarray:
        """The surrogate on margins ``m = s_i - s_j`` (elementwise, float64).

        Examples
        --------
        >>> from rankwise.losses import pairwise
        >>> pairwise("squared_hinge").phi([-1.0, 0.5, 1.0, 3.0]).tolist()
        [4.0, 0.25, 0.0, 0.0]
        """
        m = np.asarray(m, dtype=np.float64)
        margin = self.params.get("margin")
        return self._spec.phi(m) if margin is None else self._spec.phi(m, margin)

    def dphi(self, m: Any) -> np.ndarray:
        """The derivative of :meth:`phi` (elementwise; the hinge's slope is 0 at ``m = margin``).

        Examples
        --------
        >>> from rankwise.losses import pairwise
        >>> pairwise("hinge").dphi([0.0, 1.0, 2.0]).tolist()
        [-1.0, 0.0, 0.0]
        """
        m = np.asarray(m, dtype=np.float64)
        margin = self.params.get("margin")
        return self._spec.dphi(m) if margin is None else self._spec.dphi(m, margin)

    # -- modes ----------------------------------------------------------------------------

    def mode_for(self, n_pos: int, n_neg: int) -> str:
        """The algorithm :meth:`value_and_grad` runs for ``n_pos`` positives and ``n_neg``
        negatives: ``"exact"`` or ``"approx"`` (only ``logistic`` ever approximates:
        ``mode="auto"`` is exact when ``n_pos * n_neg <= exact_max_pairs``).

        Examples
        --------
        >>> from rankwise.losses import pairwise
        >>> loss = pairwise("logistic")
        >>> loss.mode_for(100, 900), loss.mode_for(10_000, 90_000)
        ('exact', 'approx')
        """
        mode = self.params.get("mode", "exact")
        if mode == "auto":
            # Python ints: n+ n- overflows int32 near n = 1e5.
            return "exact" if int(n_pos) * int(n_neg) <= self.params["exact_max_pairs"] else "approx"
        return mode

    # -- objective ------------------------------------------------------------------------

    def _inputs(self, y, scores, sample_weight, pos_label):
        is_pos, _ = BINARY.read(y, pos_label=pos_label)
        s = check_scores(scores, name="y_score")
        check_same_length(is_pos.shape[0], s.shape[0])
        w = check_sample_weight(sample_weight, is_pos.shape[0])
        s = s.astype(np.float64, copy=False)
        if w is None:
            w = np.ones(s.shape[0])
        neg = ~is_pos
        wp, wn = w[is_pos], w[neg]
        have_pos = wp.size > 0 and float(wp.sum()) > 0
        have_neg = wn.size > 0 and float(wn.sum()) > 0
        if not (have_pos and have_neg):
            missing = "positives" if not have_pos else "negatives"
            raise ValueError(
                f"The pairwise surrogate {self.name!r} needs both classes: y_true has no {missing}"
                f"{'' if sample_weight is None else ' with positive weight'}, so there are no "
                f"positive-negative pairs."
            )
        return is_pos, neg, s[is_pos], wp, s[neg], wn

    def evaluate(self, y_true: Any, y_score: Any, sample_weight: Any = None, *,
                 pos_label: Any = None) -> PairwiseResult:
        """Value, gradient, the mode that ran and its error bound.

        Parameters
        ----------
        y_true : array-like of shape (n,)
            Binary labels: booleans, {0, 1} or {-1, +1} (positive = 1 / True), or any two
            values with ``pos_label``.
        y_score : array-like of shape (n,)
            Finite real scores; higher = more likely positive.
        sample_weight : array-like of shape (n,), optional
            Non-negative weights.
        pos_label : optional
            The positive label, when the labels are not {0, 1}, {-1, 1} or booleans.

        Returns
        -------
        PairwiseResult
            ``(value, grad, mode, error_bound)``.

        Raises
        ------
        ValueError
            Non-finite scores, lengths that differ, negative weights, or a class with no
            observation (or no weight): the objective needs both classes.
        """
        is_pos, neg, sp, wp, sn, wn = self._inputs(y_true, y_score, sample_weight, pos_label)
        mode = self.mode_for(sp.shape[0], sn.shape[0])
        kwargs = {k: v for k, v in self.params.items() if k == "margin"}
        if self.name == "logistic":
            kwargs["mode"] = mode
        val, gp, gn = self._spec.kernel(sp, wp, sn, wn, **kwargs)
        grad = np.empty(is_pos.shape[0])
        grad[is_pos] = gp
        grad[neg] = gn
        grad += 0.0  # -0.0 (an element with no active pair) reads as 0.0
        bound = APPROX_VALUE_ERROR if mode == "approx" else 0.0
        return PairwiseResult(float(val), grad, mode, bound)

    def value_and_grad(self, y_true: Any, y_score: Any, sample_weight: Any = None, *,
                       pos_label: Any = None) -> tuple[float, np.ndarray]:
        r"""The objective ``F`` and its gradient ``dF/ds`` over all positive-negative pairs.

        Parameters
        ----------
        y_true, y_score, sample_weight, pos_label
            As in :meth:`evaluate`.

        Returns
        -------
        value : float
        grad : ndarray of shape (n,), in input order

        Notes
        -----
        .. math:: F(s) = \frac{1}{W} \sum_{i: y_i = 1} \sum_{j: y_j = 0} w_i w_j\, \phi(s_i - s_j)

        Exact for every surrogate except ``logistic`` when :meth:`mode_for` says
        ``"approx"`` (see :func:`pairwise` for its bound); :meth:`evaluate` also returns the
        mode that ran.

        Examples
        --------
        Two positives (scores 2 and 0.5) and one negative (score 0): margins 2 and 0.5, so
        ``F = (0 + 0.5) / 2``; the negative is pushed down by one active pair of two.

        >>> from rankwise.losses import pairwise
        >>> v, g = pairwise("hinge").value_and_grad([1, 1, 0], [2.0, 0.5, 0.0])
        >>> v, g.tolist()
        (0.25, [0.0, -0.5, 0.5])
        """
        r = self.evaluate(y_true, y_score, sample_weight, pos_label=pos_label)
        return r.value, r.grad

    def prepare(self, y_true: Any, sample_weight: Any = None, *, pos_label: Any = None) -> PreparedPairwise:
        """This surrogate bound to fixed labels and weights, checked once: a
        :class:`PreparedPairwise` whose ``value_and_grad(y_score)`` and
        ``value_grad_hess(y_score)`` check only the scores (the per-round objective of a
        boosting engine).

        Examples
        --------
        >>> from rankwise.losses import pairwise
        >>> obj = pairwise("exponential").prepare([0, 1])
        >>> v, g, h = obj.value_grad_hess([0.0, 0.0])
        >>> v, g.tolist(), h.tolist()
        (1.0, [1.0, -1.0], [1.0, 1.0])
        """
        return PreparedPairwise(self, y_true, sample_weight, pos_label=pos_label)

    def value_grad_hess(self, y_true: Any, y_score: Any, sample_weight: Any = None, *,
                        pos_label: Any = None) -> tuple[float, np.ndarray, np.ndarray]:
        """``F``, ``dF/ds`` and the diagonal of the Hessian ``d^2 F / ds_i^2`` over all
        positive-negative pairs (see :class:`PreparedPairwise`); the hinge has none.

        Examples
        --------
        >>> from rankwise.losses import pairwise
        >>> v, g, h = pairwise("squared_hinge").value_grad_hess([1, 0], [0.5, 0.0])
        >>> v, g.tolist(), h.tolist()
        (0.25, [-1.0, 1.0], [2.0, 2.0])
        """
        return self.prepare(y_true, sample_weight, pos_label=pos_label).value_grad_hess(y_score)

    def value(self, y_true: Any, y_score: Any, sample_weight: Any = None, *,
              pos_label: Any = None) -> float:
        """The objective ``F`` alone (same cost as :meth:`value_and_grad`).

        Examples
        --------
        RankBoost's loss of one pair at margin 0 is ``e^0 = 1``:

        >>> from rankwise.losses import pairwise
        >>> pairwise("exponential").value([0, 1], [3.0, 3.0])
        1.0
        """
        return self.evaluate(y_true, y_score, sample_weight, pos_label=pos_label).value


class PreparedPairwise:
    r"""A pairwise surrogate bound to fixed labels and weights (build it with
    :meth:`PairwiseSurrogate.prepare`): the labels and weights are checked once, each call
    checks only the scores. This is what a boosting engine calls once per round.

    :meth:`value_grad_hess` adds the diagonal of the Hessian,

    .. math:: \frac{\partial^2 F}{\partial s_i^2} = \frac{w_i}{W} \sum_{j: y_j = 0} w_j\, \phi''(s_i - s_j)
              \ (y_i = 1), \qquad
              \frac{\partial^2 F}{\partial s_j^2} = \frac{w_j}{W} \sum_{i: y_i = 1} w_i\, \phi''(s_i - s_j)
              \ (y_j = 0),

    from the same sorts, prefix sums or factorisations as the gradient: exponential
    ``phi'' = phi`` (the size of the gradient), squared ``phi'' = 2`` (``2 w_i / W_class``),
    squared hinge ``phi'' = 2`` on the active pairs ``m < margin`` (twice the weight of the
    active partners), logistic ``phi'' = e^{-|m|} / (1 + e^{-|m|})^2`` (exact blocks, or the
    binned expansion of ``phi''`` with the error bound ``APPROX_HESS_ERROR = 2.5e-9`` per
    pair). The hinge has ``phi'' = 0`` wherever it is differentiable: it has no curvature to
    give and :meth:`value_grad_hess` refuses it.

    Examples
    --------
    >>> from rankwise.losses import pairwise
    >>> obj = pairwise("squared").prepare([1, 0, 0])
    >>> v, g, h = obj.value_grad_hess([0.5, 0.0, 0.0])    # margins 0.5 and 0.5
    >>> v, g.tolist(), h.tolist()
    (0.25, [-1.0, 0.5, 0.5], [2.0, 1.0, 1.0])
    """

    def __init__(self, surrogate: "PairwiseSurrogate", y_true: Any, sample_weight: Any = None, *,
                 pos_label: Any = None) -> None:
        is_pos, _ = BINARY.read(y_true, pos_label=pos_label)
        w = check_sample_weight(sample_weight, is_pos.shape[0])
        w = np.ones(is_pos.shape[0]) if w is None else np.asarray(w, dtype=np.float64)
        # the class check of PairwiseSurrogate._inputs, on placeholder scores
        surrogate._inputs(is_pos, np.zeros(is_pos.shape[0]), w, None)
        self.surrogate = surrogate
        self.is_pos = is_pos
        # integer positions: gathering and scattering by them is about 3x faster than by a
        # boolean mask, and this runs every round
        self._ip = np.flatnonzero(is_pos)
        self._in = np.flatnonzero(~is_pos)
        self._wp = w[self._ip]
        self._wn = w[self._in]
        self.sample_weight = w
        self.mode = surrogate.mode_for(self._wp.shape[0], self._wn.shape[0])
        self._extra = {}
        if surrogate.name == "exponential":
            self._extra["log_w"] = (log_weights(self._wp), log_weights(self._wn))

    def _scores(self, y_score: Any) -> np.ndarray:
        s = check_scores(y_score, name="y_score")
        check_same_length(self.is_pos.shape[0], s.shape[0])
        return s.astype(np.float64, copy=False)

    def _run(self, y_score: Any, hessian: bool):
        s = self._scores(y_score)
        sur = self.surrogate
        kwargs = {k: v for k, v in sur.params.items() if k == "margin"}
        if sur.name == "logistic":
            kwargs["mode"] = self.mode
        if hessian:
            kwargs["hessian"] = True
        kwargs.update(self._extra)
        out = sur._spec.kernel(s[self._ip], self._wp, s[self._in], self._wn, **kwargs)
        arrays = []
        for a, b in zip(out[1::2], out[2::2]):
            full = np.empty(s.shape[0])
            full[self._ip] = a
            full[self._in] = b
            full += 0.0  # -0.0 reads as 0.0
            arrays.append(full)
        return (float(out[0]), *arrays)

    def value_and_grad(self, y_score: Any) -> tuple[float, np.ndarray]:
        """``F`` and ``dF/ds`` at ``y_score`` (as :meth:`PairwiseSurrogate.value_and_grad`)."""
        return self._run(y_score, False)

    def value_grad_hess(self, y_score: Any) -> tuple[float, np.ndarray, np.ndarray]:
        """``F``, ``dF/ds`` and the diagonal ``d^2 F / ds_i^2`` at ``y_score``, in input order.

        Raises
        ------
        ValueError
            For the hinge (no curvature: use ``squared_hinge``), or scores that are not
            finite or not one per observation.
        """
        if self.surrogate.name == "hinge":
            raise ValueError("The hinge surrogate has no curvature (phi'' = 0 wherever it is differentiable), so "
                             "it has no Hessian for a Newton step; use 'squared_hinge' (its smooth counterpart), "
                             "'logistic' or 'squared'.")
        return self._run(y_score, True)


def pairwise(name: str, **params: Any) -> PairwiseSurrogate:
    r"""A pairwise surrogate of the ranking error, summed exactly over all pairs.

    Parameters
    ----------
    name : {"hinge", "squared_hinge", "squared", "exponential", "logistic"}
        The surrogate ``phi`` of the pair margin ``m = s_i - s_j`` (positive ``i``, negative
        ``j``):

        * ``"hinge"``: ``max(0, margin - m)``;
        * ``"squared_hinge"``: ``max(0, margin - m)^2``;
        * ``"squared"``: ``(margin - m)^2``. BBR / LCBR (Gultekin & Paisley, "Risk Bounds
          for Low Cost Bipartite Ranking", UAI 2020) use ``1/2 (1 - m)^2``: its risk is half
          of this one (gradient too), same minimiser;
        * ``"exponential"``: ``exp(-m)``, RankBoost's loss (Freund, Iyer, Schapire & Singer,
          "An efficient boosting algorithm for combining preferences", JMLR 4, 2003);
        * ``"logistic"``: ``log(1 + exp(-m))`` (natural log).
    margin : float in (0, inf), default 1
        For ``hinge``, ``squared_hinge`` and ``squared`` only.
    mode : {"auto", "exact", "approx"}, default "auto"
        For ``logistic`` only. ``"exact"``: every pair, in blocks of at most 4e6 pairs
        (O(n+ n-) time, bounded memory). ``"approx"``: O(n log n) with the error bound below.
        ``"auto"``: exact when ``n+ n- <= exact_max_pairs``, else approx;
        :meth:`PairwiseSurrogate.mode_for` and :meth:`PairwiseSurrogate.evaluate` say which ran.
    exact_max_pairs : float >= 0, default 1e6
        For ``logistic`` with ``mode="auto"``.

    Returns
    -------
    PairwiseSurrogate

    Raises
    ------
    ValueError
        Unknown name (the message lists the valid ones) or a parameter out of range.
    TypeError
        A parameter that the surrogate does not take, or of the wrong type.

    Notes
    -----
    .. math:: F(s) = \frac{1}{W} \sum_{i: y_i = 1} \sum_{j: y_j = 0} w_i w_j\, \phi(s_i - s_j),
              \qquad W = \Big(\sum_{i: y_i = 1} w_i\Big) \Big(\sum_{j: y_j = 0} w_j\Big)

    normalised by the pair mass ``W`` (``n+ n-`` without weights), so ``F`` is the weighted
    mean of ``phi`` over pairs and comparable across sample sizes. Algorithms (all exact
    except ``logistic`` in approx mode):

    * hinge, squared hinge: one sort per class; positive ``i`` is active with the negatives
      ``s_j > s_i - margin`` (a suffix of the sorted negatives), negative ``j`` with the
      positives ``s_i < s_j + margin`` (a prefix of the sorted positives); prefix sums of
      ``w, w s, w s^2`` give each element's sum. A pair at exactly ``m = margin`` is
      inactive (contributes 0 to value and gradient), decided on the floating point margin
      ``s_i - s_j`` as the literal definition would. O(n log n).
    * squared: class moments, ``F = (margin - mu+ + mu-)^2 + V+ + V-`` with the weighted
      class means ``mu`` and variances ``V`` (the two ends of a pair are independent
      draws from the two classes). O(n).
    * exponential: ``F = (sum+ w_i e^{-s_i})(sum- w_j e^{s_j}) / W``, each factor in log
      space. Finite whenever the true value is (scores of any size, e.g. +-1000); when the
      true value exceeds the float64 range (about ``e^{709}``: a negative scored more than
      ~709 above a positive) the value, and the gradient entries that overflow, are ``inf``,
      without a warning. O(n). RankBoost (Freund, Iyer, Schapire & Singer, JMLR 4, 2003).
    * logistic, approx: scores are binned on a grid of width 1; pairs whose bins are at
      least 31 apart have ``|m| > 30`` and use ``phi = 0`` (``m > 30``) or ``phi = -m``
      (``m < -30``, summed with prefix sums), each within ``e^{-30} = 9.4e-14``. A pair of
      bins ``d`` apart, ``|d| <= 30``, has ``m = d + x_i - x_j`` with local coordinates
      ``|x| <= 1/2``; ``phi`` and ``phi'`` there are replaced by their degree-10 Chebyshev
      interpolants in ``x_i - x_j`` on ``[-1, 1]``, whose binomial expansion needs only
      per-bin power sums ``sum w x^p``. Cost O(n + B log B + P * 11^2), B occupied bins
      (at most ``min(n, score range)``), P pairs of occupied positive and negative bins at
      most 30 apart (at most ``61 B``): about 0.1 s at n = 1e6 for scores spread over tens
      of units, about 2 s when they are spread over 1e5 units. The largest
      per-pair error (interpolation on a 4001-point grid per offset, plus the tails),
      rounded up, is ``APPROX_VALUE_ERROR = 1.5e-10`` for ``phi`` and
      ``APPROX_GRAD_ERROR = 1.7e-9`` for ``phi'``; since ``F`` is a weighted mean of pair
      terms, ``|F_approx - F| <= 1.5e-10`` and each gradient entry is within
      ``1.7e-9 w_i / W_class`` (``W_class``: the weight of the observation's own class), up
      to floating point rounding (relative ~1e-15 of the pair sums). The approximate
      gradient approximates the exact gradient (it is not the derivative of the
      approximate value, which jumps by up to the bound when a score crosses a bin edge).

    Examples
    --------
    >>> from rankwise.losses import pairwise
    >>> pairwise("squared").value([0, 1], [0.0, 3.0])   # (1 - 3)^2
    4.0
    >>> pairwise("margin_loss")
    Traceback (most recent call last):
    ...
    ValueError: Unknown pairwise surrogate 'margin_loss'; valid names are 'hinge', 'squared_hinge', 'squared', 'exponential', 'logistic'.
    """
    return PairwiseSurrogate(name, **params)
