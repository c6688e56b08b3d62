"""Criteria for many rank tables at once: rows of level masses over shared levels.

A stratified bootstrap resample of a sample keeps its score levels and only
changes how much mass of each class sits at each level, so every resample is a
row ``(A[r], B[r])`` of positive and negative masses over the same levels, and a
criterion is a few cumulative sums along the rows: no sort, no Python loop over
resamples. Each function here computes exactly what the corresponding
single-table pass of :mod:`rankwise._kernels._passes` computes on the weighted
sample with those masses (a test checks this).
"""

from __future__ import annotations

import numpy as np

from .._kernels import _passes

__all__ = ["VALUES"]


def _excl(x: np.ndarray) -> np.ndarray:
    c = np.cumsum(x, axis=1)
    c -= x
    return c


def _totals(A, B):
    return A.sum(axis=1), B.sum(axis=1)


def auc(A, B) -> np.ndarray:
    P, M = _totals(A, B)
    return np.einsum("ij,ij->i", A, _excl(B) + 0.5 * B) / (P * M)


def _at_ranks(phi, r: np.ndarray, N: np.ndarray) -> np.ndarray:
    if not getattr(phi, "needs_n", False):
        return phi.at_ranks(r, N[:, None])
    if np.all(N == N[0]):
        return phi.at_ranks(r, float(N[0]))
    return np.stack([phi.at_ranks(r[i], float(N[i])) for i in range(r.shape[0])])


def rank_statistic(A, B, phi, ties, scale) -> np.ndarray:
    P, M = _totals(A, B)
    N = P + M
    C = A + B
    below = _excl(C)
    r = below + 0.5 * (C + 1.0) if ties == "average" else below + C
    w = np.einsum("ij,ij->i", A, _at_ranks(phi, r, N))
    if scale == "raw":
        return w
    if scale == "mean":
        return w / P
    own = _excl(A)
    rp = own + 0.5 * (A + 1.0) if ties == "average" else own + A
    wmin = np.einsum("ij,ij->i", A, _at_ranks(phi, rp, N))
    wmax = np.einsum("ij,ij->i", A, _at_ranks(phi, rp + M[:, None], N))
    with np.errstate(invalid="ignore", divide="ignore"):
        return (w - wmin) / (wmax - wmin)


def local_auc(A, B, top) -> np.ndarray:
    P, M = _totals(A, B)
    N = P + M
    strictly_above = N[:, None] - np.cumsum(A + B, axis=1)
    keep = strictly_above < (top * N * (1.0 - _passes._REL))[:, None]
    return np.einsum("ij,ij->i", np.where(keep, A, 0.0), _excl(B) + 0.5 * B) / (P * M)


def pnorm_push(A, B, p, ties, normalize) -> np.ndarray:
    P, M = _totals(A, B)
    c = 0.5 if ties == "average" else 1.0
    h = _excl(A) + c * A
    if normalize:
        h /= P[:, None]
        return (np.einsum("ij,ij->i", B, np.power(h, p)) / M) ** (1.0 / p)
    return np.einsum("ij,ij->i", B, np.power(h, p))


def partial_auc(A, B, max_fpr, standardize) -> np.ndarray:
    P, M = _totals(A, B)
    if max_fpr >= 1.0:
        return auc(A, B)
    Pm, Mm = P[:, None], M[:, None]
    Nb = _excl(B)
    Pb = _excl(A)
    w = B / Mm
    fpr_before = (Mm - Nb - B) / Mm
    with np.errstate(invalid="ignore", divide="ignore"):
        f = np.where(B > 0, np.clip((max_fpr - fpr_before) / w, 0.0, 1.0), 0.0)
    t0 = (Pm - Pb - A) / Pm
    dt = A / Pm
    pauc = np.einsum("ij,ij->i", f * w, t0 + 0.5 * f * dt)
    if standardize is None:
        return pauc
    lo, hi = 0.5 * max_fpr * max_fpr, max_fpr
    return 0.5 * (1.0 + (pauc - lo) / (hi - lo))


def _cumulative_discount_grid(discount, top: int) -> np.ndarray:
    grid = np.zeros(top + 2)
    if top > 0:
        np.cumsum(discount(np.arange(1, top + 1, dtype=np.float64)), out=grid[1: top + 1])
    grid[top + 1] = grid[top]
    return grid


def _cdisc(grid: np.ndarray, x: np.ndarray) -> np.ndarray:
    top = grid.shape[0] - 2
    fl = np.floor(x).astype(np.int64)
    frac = x - fl
    return grid[fl] + frac * (grid[np.minimum(fl + 1, top + 1)] - grid[fl])


def dcg(A, B, k, discount, normalized=False) -> np.ndarray:
    P, M = _totals(A, B)
    N = P + M
    cut = N if k is None else np.minimum(float(k), N)
    grid = _cumulative_discount_grid(discount, int(np.ceil(cut.max())))
    C = A + B
    above = N[:, None] - np.cumsum(C, axis=1)
    cm = cut[:, None]
    block = _cdisc(grid, np.minimum(above + C, cm)) - _cdisc(grid, np.minimum(above, cm))
    with np.errstate(invalid="ignore", divide="ignore"):
        per = np.where(C > 0, block / np.where(C > 0, C, 1.0), 0.0)
    val = np.einsum("ij,ij->i", A, per)
    if normalized:
        val = val / _cdisc(grid, np.minimum(P, cut))
    return val


def ndcg(A, B, k, discount) -> np.ndarray:
    return dcg(A, B, k, discount, normalized=True)


VALUES = {
    "auc": auc,
    "rank_statistic": rank_statistic,
    "local_auc": local_auc,
    "pnorm_push": pnorm_push,
    "partial_auc": partial_auc,
    "dcg": dcg,
    "ndcg": ndcg,
}
