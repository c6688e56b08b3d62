"""The compiled engine of :mod:`rankwise._kernels._merge` (numba, optional).

Imported only by :func:`rankwise._kernels._merge.engine` when numba is installed; each
function is compiled once per input dtype and cached on disk (``cache=True``), so a
later process loads it instead of compiling. Every function here has a numpy twin in
``_merge`` that is the reference: the two agree exactly (tests/criteria/test_engines.py),
except that ``class_orders``' permutations may order equal scores differently.
"""

from __future__ import annotations

import numba as nb
import numpy as np


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


@nb.njit(cache=True, nogil=True)
def split_keys_into(is_pos, s, u, width, kind, keys, xs, shift):  # pragma: no cover - compiled
    """One pass over the rows, for a sort of each class that also gives its permutation.
    ``u`` is the scores' bits as unsigned integers of ``width`` bits (``s.view``), ``kind``
    0 for floats, 1 for signed and 2 for unsigned integers. Each row gets a uint64 key
    that increases with its score (floats: the sign bit flipped for non-negative values,
    every bit for negative ones, -0.0 as +0.0; signed integers: the sign bit flipped),
    moved to the top of 64 bits, with the row's rank within its class in the low
    ``shift`` bits in place of the key's own. Positives go to the front of ``keys`` (and
    their scores to ``xs``) in row order, negatives to the back in reverse row order,
    as :func:`split_classes_into` does, without a branch on the label. Sorting a class's
    keys then sorts its rows by score, ties (and scores that agree above the low bits)
    in class order. Returns the number of positives."""
    up = np.uint64(64 - width)
    sign = np.uint64(1) << np.uint64(width - 1)
    full = np.uint64(0xFFFFFFFFFFFFFFFF) >> up
    low = np.uint64((1 << shift) - 1)
    high = ~low
    n = s.shape[0]
    ip = 0
    jn = 0
    for t in range(n):
        v = np.uint64(u[t])
        if kind == 0:
            v = v if v != sign else np.uint64(0)  # -0.0 as +0.0
            k = v ^ (full if v & sign else sign)
        elif kind == 1:
            k = v ^ sign
        else:
            k = v
        b = is_pos[t]
        r = ip if b else jn
        w = ip if b else n - 1 - jn
        keys[w] = ((k << up) & high) | np.uint64(r)
        xs[w] = s[t]
        d = 1 if b else 0
        ip += d
        jn += 1 - d
    return ip


@nb.njit(cache=True, nogil=True)
def unpack_into(keys, x, shift, order, runs):  # pragma: no cover - compiled
    """After a class's keys are sorted: ``order[i]`` = the class rank in the low ``shift``
    bits of ``keys[i]``, ``runs[i] = x[order[i]]``. Returns the number of descents
    ``runs[i + 1] < runs[i]`` (scores whose keys agreed above the low bits, left in class
    order: the caller sorts those groups)."""
    low = np.uint64((1 << shift) - 1)
    bad = 0
    for i in range(keys.shape[0]):
        j = np.intp(keys[i] & low)
        order[i] = j
        v = x[j]
        runs[i] = v
        if i > 0 and v < runs[i - 1]:
            bad += 1
    return bad


@nb.njit(cache=True, nogil=True)
def sort_groups_into(keys, x, shift, order, runs, big):  # pragma: no cover - compiled
    """After :func:`unpack_into` found descents: sort each group of equal keys above the
    low ``shift`` bits by score, stably (an insertion sort from the class order the keys
    left them in). A group of more than 32 rows with a descent is left to the caller:
    its ``(start, end)`` go to ``big`` (a ``(k, 2)`` array); returns how many."""
    n = keys.shape[0]
    sh = np.uint64(shift)
    nb_ = 0
    a = 0
    while a < n:
        h = keys[a] >> sh
        b = a + 1
        while b < n and (keys[b] >> sh) == h:
            b += 1
        if b - a > 1:
            desc = False
            for i in range(a + 1, b):
                if runs[i] < runs[i - 1]:
                    desc = True
                    break
            if desc:
                if b - a > 32:
                    if nb_ < big.shape[0]:
                        big[nb_, 0] = a
                        big[nb_, 1] = b
                    nb_ += 1
                else:
                    for i in range(a + 1, b):
                        v = runs[i]
                        o = order[i]
                        j = i - 1
                        while j >= a and runs[j] > v:
                            runs[j + 1] = runs[j]
                            order[j + 1] = order[j]
                            j -= 1
                        runs[j + 1] = v
                        order[j + 1] = o
        a = b
    return nb_


@nb.njit(cache=True, nogil=True)
def cell_placements_into(col, w, weighted, new, offsets, inv, start, X, wout, same_class, G):  # pragma: no cover
    """One pass over the rows in score order (``col``: each row's own column, negatives'
    cells 0..G-1, positives' G..2G-1; ``new``: True where a level of tied scores starts):
    each row's placement in the cells it is read against (the other class's, or every
    cell with ``same_class``): the mass below its level plus half its level's, plus
    ``offsets``, times ``inv``, written cell by cell into ``X`` (rows of column ``cc`` at
    ``start[cc]`` on) with the row's weight in ``wout``. The numpy twin is
    :func:`rankwise._kernels._cells.placement_moments`' cumulative-sum route."""
    n = col.shape[0]
    K = 2 * G
    R = np.zeros(K)
    L = np.zeros(K)
    ptr = start.copy()
    a = 0
    while a < n:
        b = a + 1
        while b < n and not new[b]:
            b += 1
        for i in range(a, b):
            L[col[i]] += w[i] if weighted else 1.0
        for i in range(a, b):
            cc = col[i]
            p = ptr[cc]
            ptr[cc] = p + 1
            wout[p] = w[i] if weighted else 1.0
            if same_class:
                for j in range(K):
                    X[p, j] = (R[j] + 0.5 * L[j] + offsets[j]) * inv[j]
            else:
                base = 0 if cc >= G else G
                for j in range(G):
                    X[p, j] = (R[base + j] + 0.5 * L[base + j] + offsets[base + j]) * inv[base + j]
        for j in range(K):
            R[j] += L[j]
            L[j] = 0.0
        a = b


@nb.njit(cache=True, nogil=True)
def _bit_add(tree, i, v):  # pragma: no cover - compiled
    n = tree.shape[0]
    while i < n:
        tree[i] += v
        i += i & (-i)


@nb.njit(cache=True, nogil=True)
def _bit_sum(tree, i):  # pragma: no cover - compiled
    s = 0.0
    while i > 0:
        s += tree[i]
        i -= i & (-i)
    return s


@nb.njit(cache=True, nogil=True)
def censored_counts_into(time, event, rank, w, stratum, R, dNa, dDa, dNb, dDb):  # pragma: no cover - compiled
    """:func:`rankwise._kernels._censored.concordance_counts` on rows sorted by (stratum,
    time), risk ranks 1..R: two sweeps per stratum with a Fenwick tree of weights over the
    risk ranks (descending time: each event against the rows after it and the censorings
    at its time; ascending: each row against the events before it, a censoring also
    against the events at its time). The numpy twin counts the same pairs bit by bit."""
    n = time.shape[0]
    tree = np.zeros(R + 1)
    a = 0
    while a < n:
        b = a
        while b < n and stratum[b] == stratum[a]:
            b += 1
        total = 0.0
        # descending time: the tree holds the rows of later times
        g1 = b
        while g1 > a:
            g0 = g1 - 1
            while g0 > a and time[g0 - 1] == time[g1 - 1]:
                g0 -= 1
            for i in range(g0, g1):
                if not event[i]:
                    _bit_add(tree, rank[i], w[i])
                    total += w[i]
            for i in range(g0, g1):
                if event[i]:
                    below = _bit_sum(tree, rank[i] - 1)
                    le = _bit_sum(tree, rank[i])
                    dNa[i] = below + 0.5 * (le - below)
                    dDa[i] = total
            for i in range(g0, g1):
                if event[i]:
                    _bit_add(tree, rank[i], w[i])
                    total += w[i]
            g1 = g0
        for i in range(a, b):
            _bit_add(tree, rank[i], -w[i])
        for j in range(R + 1):
            tree[j] = 0.0
        # ascending time: the tree holds the events of earlier times
        total = 0.0
        g0 = a
        while g0 < b:
            g1 = g0 + 1
            while g1 < b and time[g1] == time[g0]:
                g1 += 1
            for i in range(g0, g1):
                if event[i]:
                    below = _bit_sum(tree, rank[i] - 1)
                    le = _bit_sum(tree, rank[i])
                    dNb[i] = (total - le) + 0.5 * (le - below)
                    dDb[i] = total
            for i in range(g0, g1):
                if event[i]:
                    _bit_add(tree, rank[i], w[i])
                    total += w[i]
            for i in range(g0, g1):
                if not event[i]:
                    below = _bit_sum(tree, rank[i] - 1)
                    le = _bit_sum(tree, rank[i])
                    dNb[i] = (total - le) + 0.5 * (le - below)
                    dDb[i] = total
            g0 = g1
        for j in range(R + 1):
            tree[j] = 0.0
        a = b
