"""Pair counts of the censored concordance (Harrell's C) in O(n log^2 n), and each row's
share of them (the infinitesimal jackknife's derivatives).

Higher risk = earlier event. A pair ``(i, j)`` is comparable when ``t_i < t_j`` and ``i``
had an event, or ``t_i == t_j``, ``i`` had an event and ``j`` was censored; with strata,
only within one stratum. It weighs ``w_i w_j`` and counts ``psi(r_i, r_j)`` (1 above, 1/2
tied, 0 below). For every row ``k`` the kernel returns ``dN[k]`` and ``dD[k]``, the weighted
count and the weight of the comparable pairs holding ``k`` (in either role, the other
row's weight), so that ``N = sum_k w_k dN_A[k]`` over the earlier role only, and the
derivative of ``C = N / D`` in ``w_k`` is ``(dN[k] - C dD[k]) / D``.

The pairs with different times are counted bit by bit on the dense time ranks: a pair
whose ranks first differ at bit ``b`` is counted at level ``b``, where both share the
higher bits (a block) and the earlier row has the bit clear; within a block the count is
a sorted search on the risk ranks. Pairs at one time (an event and a censoring) are the
same search with the time rank as the block. Nothing is pairwise: memory O(n).
"""

from __future__ import annotations

import numpy as np

from ._merge import _compiled

__all__ = ["concordance_counts"]

#: From this many rows the compiled engine is used when numba is installed.
COMPILED_FROM = 4096


def _dense(x: np.ndarray) -> tuple[np.ndarray, int]:
    u, inv = np.unique(x, return_inverse=True)
    return inv.reshape(-1).astype(np.int64), int(u.shape[0])


def _cross(block_q, rank_q, block_p, rank_p, w_p, R: int):
    """For each query: the weight of the partners in its block with a rank below its own,
    equal to it, and in all (three arrays)."""
    stride = R + 1
    key = block_p * stride + rank_p
    order = np.argsort(key, kind="stable")
    ks = key[order]
    cw = np.concatenate(([0.0], np.cumsum(w_p[order])))
    kq = block_q * stride + rank_q
    lo = np.searchsorted(ks, kq, side="left")
    hi = np.searchsorted(ks, kq, side="right")
    b0 = np.searchsorted(ks, block_q * stride, side="left")
    b1 = np.searchsorted(ks, (block_q + 1) * stride, side="left")
    return cw[lo] - cw[b0], cw[hi] - cw[lo], cw[b1] - cw[b0]


def concordance_counts(time: np.ndarray, event: np.ndarray, risk: np.ndarray, w: np.ndarray | None = None,
                       strata: np.ndarray | None = None) -> tuple[float, float, np.ndarray, np.ndarray]:
    """``(N, D, dN, dD)`` of Harrell's C on validated arrays (``event`` bool; ``strata``
    int codes or None): ``C = N / D``.

    Examples
    --------
    >>> import numpy as np
    >>> N, D, dN, dD = concordance_counts(np.array([1.0, 2.0, 3.0]), np.array([True, True, False]),
    ...                                   np.array([3.0, 1.0, 2.0]))
    >>> N, D
    (2.0, 3.0)
    """
    n = time.shape[0]
    wt = np.ones(n) if w is None else w
    s = np.zeros(n, dtype=np.int64) if strata is None else strata.astype(np.int64)
    # The numpy route is the slower one here by far (O(n log^2 n) sorts): the compiled one is
    # loaded from a few thousand rows on (once per process; about half a second).
    fast = _compiled(None if n >= COMPILED_FROM else n)
    if fast is not None:
        return _counts_compiled(fast, time, event, risk, wt, s)
    return _counts_numpy(time, event, risk, wt, s)


def _counts_compiled(fast, time, event, risk, wt, s) -> tuple:
    """The two Fenwick-tree sweeps of the compiled engine, on the rows sorted by stratum and
    time."""
    n = time.shape[0]
    order = np.lexsort((time, s))
    rho, R = _dense(risk)
    out = [np.zeros(n) for _ in range(4)]
    fast.censored_counts_into(time[order], event[order].astype(np.bool_), (rho[order] + 1).astype(np.int64),
                              wt[order].astype(np.float64), s[order], R, *out)
    dNa, dDa, dNb, dDb = (np.empty(n) for _ in range(4))
    for dst, src in zip((dNa, dDa, dNb, dDb), out):
        dst[order] = src
    return float(np.dot(wt, dNa)), float(np.dot(wt, dDa)), dNa + dNb, dDa + dDb


def _counts_numpy(time, event, risk, wt, s) -> tuple:
    """The pairs counted bit by bit on the time ranks (sorted searches within blocks)."""
    n = time.shape[0]
    tau, T = _dense(time)
    rho, R = _dense(risk)
    dN_a, dD_a = np.zeros(n), np.zeros(n)  # k the earlier row (an event)
    dN_b, dD_b = np.zeros(n), np.zeros(n)  # k the later row
    ev = np.flatnonzero(event)
    nbits = int(T - 1).bit_length() if T > 1 else 0
    for L in range(nbits):
        half = (tau >> L) & 1
        per = (T >> (L + 1)) + 1  # blocks per stratum at this level
        blk = (tau >> (L + 1)) + s * per
        left_ev = ev[half[ev] == 0]
        right = np.flatnonzero(half == 1)
        if left_ev.shape[0] and right.shape[0]:
            # events in the left half against every row of the right half (later times)
            below, eq, tot = _cross(blk[left_ev], rho[left_ev], blk[right], rho[right], wt[right], R)
            dN_a[left_ev] += below + 0.5 * eq
            dD_a[left_ev] += tot
            # every row of the right half against the left half's events (earlier times)
            below, eq, tot = _cross(blk[right], rho[right], blk[left_ev], rho[left_ev], wt[left_ev], R)
            dN_b[right] += (tot - below - eq) + 0.5 * eq
            dD_b[right] += tot
    # an event and a censoring at the same time (same stratum): comparable, the event earlier
    cens = np.flatnonzero(~event)
    if ev.shape[0] and cens.shape[0]:
        blk = tau + s * T
        below, eq, tot = _cross(blk[ev], rho[ev], blk[cens], rho[cens], wt[cens], R)
        dN_a[ev] += below + 0.5 * eq
        dD_a[ev] += tot
        below, eq, tot = _cross(blk[cens], rho[cens], blk[ev], rho[ev], wt[ev], R)
        dN_b[cens] += (tot - below - eq) + 0.5 * eq
        dD_b[cens] += tot
    N = float(np.dot(wt, dN_a))
    D = float(np.dot(wt, dD_a))
    return N, D, dN_a + dN_b, dD_a + dD_b
