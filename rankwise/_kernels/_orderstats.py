"""The stratified bootstrap read through a few order statistics: the kernel behind the
default engine of ROC bands and of operating-point intervals at fixed rates.

An unweighted class of ``n`` cases resampled with replacement is ``n`` draws of the
empirical quantile function at independent uniforms. A reading of the ROC curve at a fixed
false-positive rate (or true-positive rate) depends on the resample only through one order
statistic of one class (its ``K``-th largest score), the resampled counts of that class
above and at that score's level, and the resampled counts of the other class above and at
the same level. :func:`draw_order_reads` draws exactly these, for a few ``K`` at once and
for ``k`` resamples, without going back to the rows or to the levels in between: uniform
order statistics from gamma spacings, the counts around them from binomials of the cases
between consecutive order statistics, the other class from one multinomial over the cells
between the levels reached. Cost per resample: O(r) draws and O(r log L) searches.

Levels are indexed from the top (level 0 is the highest score).
"""

from __future__ import annotations

import numpy as np

__all__ = ["draw_order_reads", "count_at_rate", "read_rates_by_order_stats"]


def count_at_rate(q: np.ndarray, n: int, side: str, tol: float = 1e-12) -> tuple[np.ndarray, np.ndarray]:
    """The class count a reading at rate ``q`` stops at, and whether ``q`` snaps to it.

    ``side="right"`` (reading at a false-positive rate: the last ROC point with
    ``m / n <= q``): the largest ``m`` with ``m / n <= q`` (float division, as the rates of
    the curve are computed); ``side="left"`` (at a true-positive rate: the first point with
    ``m / n >= q``): the smallest such ``m``. A rate within ``tol`` of ``r / n``
    (``r = round(q n)``) counts as ``r / n`` (:func:`rankwise._kernels.snap_rows`):
    returns ``(m, snapped)`` with ``m`` set to ``r`` where ``snapped``.
    """
    q = np.asarray(q, dtype=np.float64)
    nf = float(n)
    if side == "right":
        m = np.clip(np.floor(q * nf), 0, n).astype(np.int64)
        for _ in range(2):  # q * n is within an ulp of the product: at most one step each way
            up = (m < n) & ((m + 1) / nf <= q)
            m = m + up
            m = m - ((m > 0) & (m / nf > q))
    else:
        m = np.clip(np.ceil(q * nf), 0, n).astype(np.int64)
        for _ in range(2):
            m = m - ((m > 0) & ((m - 1) / nf >= q))
            m = m + ((m < n) & (m / nf < q))
    r = np.clip(np.rint(q * nf), 0, n).astype(np.int64)
    snapped = np.abs(r / nf - q) <= tol
    return np.where(snapped, r, m), snapped


def _first_of_run(x: np.ndarray, start: np.ndarray, fill) -> np.ndarray:
    """Each entry replaced by the entry at the start of its run (``x`` non-decreasing over
    the run starts along each row)."""
    return np.maximum.accumulate(np.where(start, x, fill), axis=1)


def _last_of_run(x: np.ndarray, end: np.ndarray, fill) -> np.ndarray:
    """Each entry replaced by the entry at the end of its run (``x`` non-decreasing over
    the run ends along each row)."""
    return np.minimum.accumulate(np.where(end, x, fill)[:, ::-1], axis=1)[:, ::-1]


def draw_order_reads(rng: np.random.Generator, x_top: np.ndarray, y_top: np.ndarray, K: np.ndarray,
                     k: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``k`` stratified resamples read at the ``K``-th largest case of class x.

    Parameters
    ----------
    x_top, y_top : int64 arrays of shape (L,)
        Case counts of the two classes per level, from the top level down; ``x_top`` sums
        to ``n >= 1``, ``y_top`` to ``n_y >= 1``.
    K : int64 array of shape (r,)
        Strictly increasing order-statistic ranks in ``[1, n]`` (1 = the largest).

    Returns
    -------
    lam, x_above, x_through, y_above, y_through : int64 arrays of shape (k, r)
        For each resample and each ``K``: the level ``lam`` of the resample's ``K``-th
        largest x case, and the resampled counts of class x (then y) at levels strictly
        above ``lam`` and at levels ``<= lam`` (above or at it). Jointly distributed as in
        the resample of the rows (cases drawn uniformly with replacement within each
        class, the class sizes kept).

    Notes
    -----
    Class x: the resample is ``Q(U_1), ..., Q(U_n)``, with ``Q`` the empirical quantile
    function of the class from the top and ``U`` i.i.d. uniform; in the scale ``n U``,
    level ``l`` takes the interval ``(c_l - x_l, c_l]``, ``c`` the cumulative counts from
    the top. The ``K``-th smallest of ``n`` uniforms, jointly over ``K_1 < ... < K_r``, is
    ``S_K / S_{n+1}`` with ``S`` the partial sums of ``n + 1`` standard exponentials: the
    increments ``S_{K_i} - S_{K_{i-1}}`` are independent gamma variables of shape
    ``K_i - K_{i-1}``. Given these order statistics, the ``K_i - K_{i-1} - 1`` uniforms
    strictly between two consecutive ones are i.i.d. uniform on that gap, independently
    across gaps; the only level boundaries a reading needs inside a gap are the bottom of
    the level reached on its left (``b1``) and the top of the level reached on its right
    (``b2``), so one binomial counts the gap's cases up to ``b1`` and a second, of the
    rest, those beyond ``b2``. The count above the level of order statistic ``i`` is
    ``K_i - 1`` minus those beyond ``b2`` in the gap that starts the run of equal levels;
    the count through it is ``K_i`` plus those up to ``b1`` in the gap after the run.
    Class y is independent of class x given nothing: its counts in the cells between the
    sorted level boundaries reached are one multinomial with the class's mass in each cell.
    """
    n = int(x_top.sum())
    n_y = int(y_top.sum())
    L = x_top.shape[0]
    r = K.shape[0]
    cx = np.cumsum(x_top)
    cy = np.cumsum(y_top)
    Kx = np.concatenate(([0], K, [n + 1])).astype(np.int64)
    gaps = np.diff(Kx)  # r + 1 gamma shapes (>= 1); each gap holds gaps - 1 cases strictly inside
    S = np.cumsum(rng.standard_gamma(gaps.astype(np.float64), size=(k, r + 1)), axis=1)
    W = S[:, :r] / S[:, r:] * float(n)  # the K-th smallest of n uniforms, times n
    lam = np.minimum(np.searchsorted(cx, W, side="left"), L - 1)
    x_hi = cx[lam]  # boundaries of the level reached, in the scale of n U
    x_lo = x_hi - x_top[lam]
    zero = np.zeros((k, 1))
    w_lo = np.concatenate([zero, W], axis=1)  # gap g runs from order statistic g - 1 to g
    w_hi = np.concatenate([W, np.full((k, 1), float(n))], axis=1)
    b1 = np.concatenate([zero, np.minimum(x_hi, w_hi[:, 1:])], axis=1)
    b2 = np.concatenate([np.maximum(x_lo, b1[:, :r]), np.full((k, 1), float(n))], axis=1)
    width = w_hi - w_lo
    with np.errstate(invalid="ignore", divide="ignore"):
        p_left = np.clip((b1 - w_lo) / width, 0.0, 1.0)
        p_right = np.clip((w_hi - b2) / width, 0.0, 1.0)
        p_right = np.where(p_left < 1.0, np.clip(p_right / (1.0 - p_left), 0.0, 1.0), 0.0)
    p_left = np.nan_to_num(p_left, nan=0.0)
    p_right = np.nan_to_num(p_right, nan=0.0)
    inside = gaps - 1
    left = rng.binomial(inside, p_left)
    right = rng.binomial(inside - left, p_right)
    start = np.ones((k, r), dtype=bool)
    start[:, 1:] = lam[:, 1:] != lam[:, :-1]
    end = np.ones((k, r), dtype=bool)
    end[:, :-1] = start[:, 1:]
    x_above = _first_of_run(K[None, :] - 1 - right[:, :r], start, -1)
    x_through = _last_of_run(K[None, :] + left[:, 1:], end, n + 1)
    # Class y: cells between the boundaries (top of each level reached, bottom of it), in
    # order from the top; a level reached again adds empty cells.
    y_hi = cy[lam]
    cuts = np.empty((k, 2 * r), dtype=np.int64)
    cuts[:, 0::2] = y_hi - y_top[lam]
    cuts[:, 1::2] = y_hi
    np.maximum.accumulate(cuts, axis=1, out=cuts)
    cells = np.diff(cuts, axis=1, prepend=0, append=n_y)
    counts = np.cumsum(rng.multinomial(n_y, cells / float(n_y)), axis=1)
    y_above = _first_of_run(counts[:, 0:2 * r:2], start, -1)
    y_through = counts[:, 1:2 * r:2]
    return lam, x_above, x_through, y_above, y_through


def read_rates_by_order_stats(rng: np.random.Generator, a_top: np.ndarray, b_top: np.ndarray, q: np.ndarray,
                              by: str, k: int, draw=None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``k`` stratified resamples' operating points at rates ``q``: ``(tpr, fpr, precision)``,
    arrays of shape ``(k, len(q))``, distributed exactly as
    :func:`rankwise._kernels.read_points` ``(A, B, by, q)`` over rows of resampled level
    masses ``A`` (positives), ``B`` (negatives) of an unweighted sample.

    ``a_top``, ``b_top``: int64 case counts per level from the top, both classes present.
    ``by="fpr"``: the last ROC point with ``FPR <= q`` is the one just above the level of
    the ``(m + 1)``-th largest resampled negative (``m`` from :func:`count_at_rate`), the
    next point is at that level; ``by="tpr"``: the first point with ``TPR >= q`` is at the
    level of the ``m``-th largest resampled positive, the previous one just above it. Either
    way the reading (interpolation included) needs only :func:`draw_order_reads`.
    ``draw(x_top, y_top, K)`` replaces it (for tests: the same counts read off explicit
    resamples).
    """
    P, M = float(a_top.sum()), float(b_top.sum())
    if by == "fpr":
        x_top, y_top, nx, ny, side = b_top, a_top, M, P, "right"
    else:
        x_top, y_top, nx, ny, side = a_top, b_top, P, M, "left"
    m, snapped = count_at_rate(q, int(nx), side)
    # At FPR 1 the last point is (1, 1); at TPR 0 the first point is (0, 0).
    trivial = m >= int(nx) if by == "fpr" else m <= 0
    fixed = np.where(snapped, m / nx, q)
    val = np.broadcast_to(np.where(trivial, 1.0 if by == "fpr" else 0.0, np.nan), (k, q.shape[0])).copy()
    fixed = np.broadcast_to(fixed, (k, q.shape[0])).copy()
    todo = np.flatnonzero(~trivial)
    if todo.size:
        K, inv = np.unique(m[todo] + (1 if by == "fpr" else 0), return_inverse=True)
        if draw is None:
            _, x_above, x_through, y_above, y_through = draw_order_reads(rng, x_top, y_top, K, k)
        else:
            _, x_above, x_through, y_above, y_through = draw(x_top, y_top, K)
        if by == "fpr":  # the point just above the level, then the one at it
            c0, c1, d0, d1 = x_above, x_through, y_above, y_through
        else:  # the point at the level, then the one just above it
            c0, c1, d0, d1 = x_through, x_above, y_through, y_above
        c0, c1, d0, d1 = c0[:, inv], c1[:, inv], d0[:, inv], d1[:, inv]
        x0, x1, y0, y1 = c0 / nx, c1 / nx, d0 / ny, d1 / ny
        qq = q[todo]
        # A rate snapped to r / n stays r / n only where r is attained (a point of the resample).
        f = np.where(snapped[todo] & (c0 == m[todo]), x0, qq)
        with np.errstate(invalid="ignore", divide="ignore"):
            if by == "fpr":
                frac = np.where(x1 != x0, (f - x0) / (x1 - x0), 0.0)
                val[:, todo] = y0 + np.clip(frac, 0.0, 1.0) * (y1 - y0)
            else:  # from the segment's left end, as rankwise._kernels.interp_rows reads it
                frac = np.where((x1 != x0) & (x0 != f), (f - x1) / (x0 - x1), 1.0)
                val[:, todo] = np.where(x0 == f, y0, y1 + np.clip(frac, 0.0, 1.0) * (y0 - y1))
        fixed[:, todo] = f
    t, f = (val, fixed) if by == "fpr" else (fixed, val)
    tp, fp = t * P, f * M
    with np.errstate(invalid="ignore", divide="ignore"):
        precision = tp / (tp + fp)
    return t, f, precision
