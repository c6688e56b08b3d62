"""ROC points of a batch of tables (one row per table, levels increasing) and the curve
read at given rates or thresholds: the kernel behind ROC bands and operating points.

A row holds the positive and negative mass of every level of one table (the sample's own
table, or a stratified resample of it over the same levels). Its ROC points, by
decreasing threshold, start at (0, 0) (threshold ``+inf``): point ``j`` calls positive
the top ``j`` levels.
"""

from __future__ import annotations

import math
import numbers

import numpy as np

__all__ = ["roc_rows", "roc_rates", "interp_rows", "point_of_threshold", "read_points", "snap_rows", "threshold_keys",
           "rows_at_or_above", "exact_numbers", "exact_scalar", "object_array", "float_holds"]


def roc_rows(A: np.ndarray, B: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(false positives, true positives)`` masses of each row, shape ``(k, L + 1)``, by
    decreasing threshold, starting at 0."""
    k, L = A.shape
    fps = np.zeros((k, L + 1))
    tps = np.zeros((k, L + 1))
    np.cumsum(B[:, ::-1], axis=1, out=fps[:, 1:])
    np.cumsum(A[:, ::-1], axis=1, out=tps[:, 1:])
    return fps, tps


def roc_rates(A: np.ndarray, B: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(fpr, tpr)`` of each row (:func:`roc_rows` over each row's class totals)."""
    fpr, tpr = roc_rows(A, B)
    with np.errstate(invalid="ignore", divide="ignore"):
        fpr /= fpr[:, -1:]
        tpr /= tpr[:, -1:]
    return fpr, tpr


def _row_search(x: np.ndarray, q: np.ndarray, side: str) -> np.ndarray:
    """``searchsorted`` of each row's ``q`` (shape ``(k, G)``) in that row of ``x``, as flat
    indices into ``x``: one searchsorted over all rows, each shifted by twice its row number
    (``x`` is within [0, 1]) so that the flattened array stays sorted."""
    k, m = x.shape
    shift = 2.0 * np.arange(k)[:, None]
    i = np.searchsorted((x + shift).ravel(), (q + shift).ravel(), side=side).reshape(k, -1)
    return i


def snap_rows(x: np.ndarray, q: np.ndarray, tol: float = 1e-12) -> np.ndarray:
    """``q`` for each row of ``x``, shape ``(k, G)``, with every value within ``tol`` of a
    point of that row replaced by the point (``1 - 0.9`` is 0.09999999999999998, not the
    0.1 of 3 negatives in 30)."""
    k, m = x.shape
    q2 = np.broadcast_to(q, (k, q.shape[-1]))
    row0 = (np.arange(k) * m)[:, None]
    i = np.clip(_row_search(x, q2, "left"), row0 + 1, row0 + m - 1)
    lo, hi = x.ravel()[i - 1], x.ravel()[i]
    near = np.where(np.abs(lo - q2) <= np.abs(hi - q2), lo, hi)
    return np.where(np.abs(near - q2) <= tol, near, q2)


def interp_rows(x: np.ndarray, y: np.ndarray, q: np.ndarray, side: str = "right") -> tuple[np.ndarray, np.ndarray]:
    """Each row's polyline ``(x, y)`` (``x`` non-decreasing along a row) read at ``q``
    (shape ``(G,)``, or ``(k, G)``: a value per row).

    ``side="right"``: the last point with ``x <= q``, then linearly towards the next point
    (where the curve is vertical at ``q``, the top of the step); ``side="left"``: the first
    point with ``x >= q``, then linearly back towards the previous one (where it is
    vertical, the bottom). Returns ``(y at q, index of the point taken)``; the index is the
    exact hit when ``x[index] == q`` and otherwise the end of the segment it started from.
    """
    k, m = x.shape
    q2 = np.broadcast_to(q, (k, q.shape[-1]))
    row0 = (np.arange(k) * m)[:, None]
    if side == "right":
        j = np.clip(_row_search(x, q2, "right") - 1, row0, row0 + m - 1)
        jn = np.minimum(j + 1, row0 + m - 1)
    else:
        j = np.clip(_row_search(x, q2, "left"), row0, row0 + m - 1)
        jn = np.maximum(j - 1, row0)
    x0, x1 = x.ravel()[j], x.ravel()[jn]
    y0, y1 = y.ravel()[j], y.ravel()[jn]
    if side == "right":
        with np.errstate(invalid="ignore", divide="ignore"):
            frac = np.where(x1 != x0, (q2 - x0) / (x1 - x0), 0.0)
        return y0 + np.clip(frac, 0.0, 1.0) * (y1 - y0), j - row0
    # Read from the segment's left end (the previous point): from the right end, a small
    # q would be 1 - (1 - q), losing its low digits (a rate of 1e-5 read 1e-11 off).
    with np.errstate(invalid="ignore", divide="ignore"):
        frac = np.where((x1 != x0) & (x0 != q2), (q2 - x1) / (x0 - x1), 1.0)
    return np.where(x0 == q2, y0, y1 + np.clip(frac, 0.0, 1.0) * (y0 - y1)), j - row0


def threshold_keys(levels: np.ndarray, thresholds: np.ndarray, ranked: list | None = None
                   ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Thresholds as keys in the levels' own dtype that compare exactly as they do:
    ``(keys, none, every)``. A value ``x`` of the levels' dtype has ``x >= threshold``
    exactly when ``x >= keys[i]``, except where ``none[i]`` (the threshold is above every
    value of the dtype: nothing is at or above it) or ``every[i]`` (at or below every value:
    everything is); ``keys`` holds 0 there.

    ``thresholds``: float64, or objects (exact Python numbers, e.g. integers beyond 2^53).
    Integer levels take the ceiling of the threshold (no rounding through float64); float
    levels the least float64 at or above it; levels that are the dense ranks of ``ranked``
    (the distinct values, increasing) take the rank of the first value at or above it."""
    q = thresholds
    if ranked is not None:
        import bisect

        key = np.array([bisect.bisect_left(ranked, v) for v in q.tolist()], dtype=np.int64)
        no = np.zeros(key.shape, dtype=bool)
        return key.astype(levels.dtype), no, no.copy()
    if levels.dtype.kind == "f":
        if q.dtype.kind != "O":
            qf = q.astype(np.float64)
        else:
            qf = np.array([_float_at_or_above(v) for v in q.tolist()], dtype=np.float64)
        return qf, qf == np.inf, qf == -np.inf
    info = np.iinfo(levels.dtype)
    if q.dtype.kind != "O":
        c = np.ceil(q.astype(np.float64))
        # float(info.max) is 2^63 or 2^64 (rounded up): a ceiling at or above it is beyond.
        none = ~(c < float(info.max))
        every = c <= float(info.min) if info.min < 0 else c <= 0.0
        key = np.where(none | every, 0.0, c).astype(levels.dtype)
        return key, none, every
    ceil = [_ceil(v) for v in q.tolist()]
    none = np.array([c is None or c > info.max for c in ceil], dtype=bool)
    every = np.array([c is not None and c <= info.min for c in ceil], dtype=bool)
    key = np.array([0 if (n or e) else c for c, n, e in zip(ceil, none, every)], dtype=levels.dtype)
    return key, none, every


def _ceil(v):
    """The least integer at or above the exact number ``v`` (None for +inf, a number below
    every 64-bit integer for -inf)."""
    if isinstance(v, float) and math.isinf(v):
        return None if v > 0 else -(2 ** 65)
    return math.ceil(v)


def _float_at_or_above(v) -> float:
    """The least float64 at or above the exact number ``v`` (+-inf beyond the range)."""
    try:
        f = float(v)
    except OverflowError:
        return np.inf if v > 0 else -np.inf
    if f < v:
        f = float(np.nextafter(f, np.inf))
    return f


def point_of_threshold(levels: np.ndarray, thresholds: np.ndarray, ranked: list | None = None) -> np.ndarray:
    """The ROC point index of each threshold (calling positive ``score >= threshold``):
    the number of levels at or above it, counted exactly (:func:`threshold_keys`: integer
    levels and thresholds beyond 2^53 are compared without rounding through float64)."""
    L = levels.shape[0]
    if ranked is None and levels.dtype.kind == "f" and thresholds.dtype.kind == "f":
        # float32 levels are compared in float64 (exact), never the threshold in float32.
        return L - np.searchsorted(levels.astype(np.float64, copy=False), thresholds, side="left")
    keys, none, every = threshold_keys(levels, thresholds, ranked)
    out = L - np.searchsorted(levels, keys, side="left")
    out[none] = 0
    out[every] = L
    return out


def rows_at_or_above(x: np.ndarray, thresholds: np.ndarray, ranked: list | None = None) -> np.ndarray:
    """For each value of ``x`` (the scores, or their ranks with ``ranked``): how many of
    ``thresholds`` it is at or above, exactly."""
    keys, none, every = threshold_keys(x[:0], thresholds, ranked)
    mid = ~(none | every)
    return int(every.sum()) + np.searchsorted(np.sort(keys[mid]), x, side="right")


def read_points(A: np.ndarray, B: np.ndarray, by: str, q: np.ndarray):
    """Each row's operating points at ``q``: ``(tpr, fpr, precision, point, hit)``, arrays of
    shape ``(k, len(q))``.

    ``by="fpr"``: the ROC polyline at false-positive rate ``q`` (where several points share
    that rate, the one with the largest true-positive rate; between points, linear);
    ``by="tpr"``: at true-positive rate ``q`` (where several share it, the smallest
    false-positive rate); ``by="point"``: ``q`` are point indices (:func:`point_of_threshold`).
    ``point`` is the ROC point taken and ``hit`` whether the requested rate is attained
    there exactly (else the value is interpolated and has no threshold); a requested rate
    within 1e-12 of a point counts as that point's (:func:`snap_rows`). Precision is
    ``TP / (TP + FP)`` from the (interpolated) masses: nan where nothing is called positive.
    """
    fps, tps = roc_rows(A, B)
    M = fps[:, -1:]
    P = tps[:, -1:]
    with np.errstate(invalid="ignore", divide="ignore"):
        fpr, tpr = fps / M, tps / P
        if by == "point":
            j = np.broadcast_to(q.astype(np.intp), (A.shape[0], q.shape[0]))
            rows = np.arange(A.shape[0])[:, None]
            tp, fp = tps[rows, j], fps[rows, j]
            t, f = tp / P, fp / M
            hit = np.ones(j.shape, dtype=bool)
        else:
            x, y = (fpr, tpr) if by == "fpr" else (tpr, fpr)
            fixed = snap_rows(x, q)
            val, j = interp_rows(x, y, fixed, "right" if by == "fpr" else "left")
            hit = np.take_along_axis(x, j, axis=1) == fixed
            t, f = (val, fixed) if by == "fpr" else (fixed, val)
            tp, fp = t * P, f * M
        precision = tp / (tp + fp)
    return t, f, precision, j, hit


def exact_numbers(arr: np.ndarray) -> np.ndarray:
    """Numbers as float64 when float64 holds each exactly, else as an object array of
    exact Python numbers (integers beyond 2^53 stay exact); an array of another kind
    (strings, bools, objects that are not real numbers) is returned unchanged, to be
    refused by the caller."""
    if arr.dtype.kind in "iu":
        if arr.size == 0 or (int(arr.max()) <= 2 ** 53 and int(arr.min()) >= -2 ** 53):
            return arr.astype(np.float64)
        return object_array(arr.tolist())
    if arr.dtype.kind != "O":
        return arr
    vals = [v.item() if isinstance(v, np.generic) else v for v in arr.tolist()]
    if not all(isinstance(v, numbers.Real) and not isinstance(v, (bool, np.bool_)) for v in vals):
        return arr
    if all(float_holds(v) for v in vals):
        return np.array([float(v) for v in vals], dtype=np.float64)
    return object_array(vals)


def object_array(values: list) -> np.ndarray:
    """A 1-D object array holding ``values`` as they are (numpy would round Python ints
    next to floats, or fail on ints beyond 64 bits)."""
    out = np.empty(len(values), dtype=object)
    out[:] = values
    return out


def float_holds(v) -> bool:
    """Whether float64 holds the exact number ``v`` (NaN counts as held)."""
    try:
        return float(v) == v or v != v
    except OverflowError:
        return False


def exact_scalar(v):
    """A threshold as a Python number: a float, or an int where float64 would round it."""
    if isinstance(v, (numbers.Integral, np.integer)) and not isinstance(v, (bool, np.bool_)):
        return int(v) if not float_holds(int(v)) else float(v)
    if isinstance(v, numbers.Rational) and not isinstance(v, numbers.Integral) and not float_holds(v):
        return v
    return float(v)
