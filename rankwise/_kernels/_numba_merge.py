"""The compiled engine of :mod:`rankwise._kernels._merge` (numba, optional).

Imported only by :func:`rankwise._kernels._merge.engine` when numba is installed; each
function is compiled once per input dtype and cached on disk (``cache=True``), so a
later process loads it instead of compiling. Every function here has a numpy twin in
``_merge`` that is the reference: the two agree exactly (tests/metrics/test_engines.py).
"""

from __future__ import annotations

import numba as nb


@nb.njit(cache=True, nogil=True)
def split_classes_into(is_pos, s, out):  # pragma: no cover - compiled
    """One pass over the rows: positives' scores to the front of ``out`` in row order,
    negatives' to the back in reverse row order (both are sorted next). Branchless: the
    target index is a select, so random labels cost no mispredicted branches. Returns
    the number of positives."""
    n = s.shape[0]
    ip = 0
    jn = n - 1
    for t in range(n):
        b = is_pos[t]
        k = ip if b else jn
        out[k] = s[t]
        d = 1 if b else 0
        ip += d
        jn -= 1 - d
    return ip


@nb.njit(inline="always")
def _step(a, b, out_a, out_b, i, j):  # pragma: no cover - compiled
    # Both outputs are written and the indices advance by a select: no data-dependent
    # branch. The last write to a slot before its index moves on is its count.
    x = a[i]
    z = b[j]
    lt = 1 if x < z else 0
    out_a[i] = j
    out_b[j] = i
    return i + lt, j + 1 - lt, x == z


@nb.njit(inline="always")
def _finish(a, b, out_a, out_b, i, j, E, F):  # pragma: no cover - compiled
    tie = False
    while i < E and j < F:
        i, j, t = _step(a, b, out_a, out_b, i, j)
        tie |= t
    while i < E:
        out_a[i] = F
        i += 1
    while j < F:
        out_b[j] = E
        j += 1
    return tie


@nb.njit(cache=True, nogil=True)
def merge_below_into(a, b, out_a, out_b, ia, ja):  # pragma: no cover - compiled
    """Linear merge of two sorted runs without within-run ties: ``out_a[i]`` = number of
    ``b`` strictly below ``a[i]``, ``out_b[j]`` = number of ``a`` strictly below ``b[j]``.
    Returns True when some ``a[i] == b[j]`` (then ``out_a`` counts ``b <= a[i]`` and the
    caller takes the tied path).

    The merge is cut into four lanes, lane ``c`` merging ``a[ia[c]:ia[c+1]]`` with
    ``b[ja[c]:ja[c+1]]`` (consecutive pieces of the merged order, cut at values of ``a``
    so that equal values share a lane), advanced together: one merge is a chain of
    dependent loads, four independent chains keep the core busy (about 2x faster)."""
    i0, i1, i2, i3 = ia[0], ia[1], ia[2], ia[3]
    j0, j1, j2, j3 = ja[0], ja[1], ja[2], ja[3]
    E0, E1, E2, E3 = ia[1], ia[2], ia[3], ia[4]
    F0, F1, F2, F3 = ja[1], ja[2], ja[3], ja[4]
    tie = False
    while (i0 < E0) & (j0 < F0) & (i1 < E1) & (j1 < F1) & (i2 < E2) & (j2 < F2) & (i3 < E3) & (j3 < F3):
        i0, j0, t0 = _step(a, b, out_a, out_b, i0, j0)
        i1, j1, t1 = _step(a, b, out_a, out_b, i1, j1)
        i2, j2, t2 = _step(a, b, out_a, out_b, i2, j2)
        i3, j3, t3 = _step(a, b, out_a, out_b, i3, j3)
        tie |= t0 | t1 | t2 | t3
    tie |= _finish(a, b, out_a, out_b, i0, j0, E0, F0)
    tie |= _finish(a, b, out_a, out_b, i1, j1, E1, F1)
    tie |= _finish(a, b, out_a, out_b, i2, j2, E2, F2)
    tie |= _finish(a, b, out_a, out_b, i3, j3, E3, F3)
    return tie


@nb.njit(cache=True, nogil=True)
def level_counts_into(levels, other, left, right):  # pragma: no cover - compiled
    """For increasing distinct ``levels`` and sorted ``other``: ``left[i]`` = number of
    ``other`` strictly below ``levels[i]``, ``right[i]`` = number at or below. Linear."""
    k = other.shape[0]
    j = 0
    r = 0
    for i in range(levels.shape[0]):
        v = levels[i]
        while j < k and other[j] < v:
            j += 1
        left[i] = j
        if r < j:
            r = j
        while r < k and other[r] <= v:
            r += 1
        right[i] = r


@nb.njit(cache=True, nogil=True)
def terms_in_order_into(levels, h, xs, order, out):  # pragma: no cover - compiled
    """``out[order[i]] = h[#(levels < xs[i])]`` for increasing ``xs`` and increasing
    distinct ``levels``: one linear walk of both (the rows' terms put back in row order)."""
    j = 0
    L = levels.shape[0]
    for i in range(xs.shape[0]):
        v = xs[i]
        while j < L and levels[j] < v:
            j += 1
        out[order[i]] = h[j]
