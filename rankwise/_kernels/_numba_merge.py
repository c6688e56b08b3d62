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
from llvmlite import ir
from numba.core import cgutils, types
from numba.extending import intrinsic


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


# --- pieces of the censored concordance (its kernel: rankwise._kernels._numba_censored) --------


@nb.njit(inline="always")
def _order_key(v):  # pragma: no cover - compiled
    # float64 bits (a uint64) to a key in the floats' order: the sign bit flipped for
    # non-negative values, every bit for negative ones; -0.0 as +0.0 (no NaN reaches here)
    sign = np.uint64(1) << np.uint64(63)
    if v == sign:
        v = np.uint64(0)
    return v ^ (np.uint64(0xFFFFFFFFFFFFFFFF) if v & sign else sign)


@nb.njit(cache=True, nogil=True)
def _radix_sort(keys, perm, kbuf, pbuf, stratum, S):  # pragma: no cover - compiled
    """Stable LSD radix sort of uint64 ``keys`` carrying ``perm`` (8-bit digits; a digit all
    keys share is skipped), then, when ``S > 1``, a stable counting sort by
    ``stratum[perm]``: the rows by (stratum, key), ties in their order before. The other
    two arrays are scratch; returns True when the result is in them."""
    n = keys.shape[0]
    hist = np.zeros((8, 256), dtype=np.int64)
    for i in range(n):
        k = keys[i]
        for d in range(8):
            hist[d, (k >> np.uint64(8 * d)) & np.uint64(255)] += 1
    src_k, src_p, dst_k, dst_p = keys, perm, kbuf, pbuf
    moved = False
    pos = np.empty(max(256, S), dtype=np.int64)
    for d in range(8):
        sh = np.uint64(8 * d)
        if n == 0 or hist[d, (keys[0] >> sh) & np.uint64(255)] == n:
            continue
        c = 0
        for b in range(256):
            pos[b] = c
            c += hist[d, b]
        for i in range(n):
            k = src_k[i]
            b = (k >> sh) & np.uint64(255)
            j = pos[b]
            pos[b] = j + 1
            dst_k[j] = k
            dst_p[j] = src_p[i]
        src_k, src_p, dst_k, dst_p = dst_k, dst_p, src_k, src_p
        moved = not moved
    if S > 1:
        pos[:S] = 0
        for i in range(n):
            pos[stratum[i]] += 1
        c = 0
        for s in range(S):
            m = pos[s]
            pos[s] = c
            c += m
        for i in range(n):
            p = src_p[i]
            s = stratum[p]
            j = pos[s]
            pos[s] = j + 1
            dst_k[j] = src_k[i]
            dst_p[j] = p
        moved = not moved
    return moved


@intrinsic
def _prefetch(typingctx, arr, idx):  # pragma: no cover - compiled
    """A hint to load the cache line of ``arr[idx]`` (LLVM's prefetch: read, keep): no
    effect on the values."""
    if not isinstance(arr, types.Array):
        return None

    def codegen(context, builder, signature, args):
        aryty = signature.args[0]
        ary = context.make_array(aryty)(context, builder, args[0])
        ptr = cgutils.get_item_pointer(context, builder, aryty, ary, [args[1]], wraparound=False)
        i32 = ir.IntType(32)
        if getattr(ptr.type, "is_opaque", False):  # LLVM 15 on: one pointer type
            name = "llvm.prefetch.p0"
        else:  # typed pointers (older llvmlite): the intrinsic takes an i8*
            ptr = builder.bitcast(ptr, ir.IntType(8).as_pointer())
            name = "llvm.prefetch.p0i8"
        fn = cgutils.get_or_insert_function(builder.module, ir.FunctionType(ir.VoidType(), [ptr.type, i32, i32, i32]),
                                            name)
        builder.call(fn, [ptr, ir.Constant(i32, 0), ir.Constant(i32, 3), ir.Constant(i32, 1)])
        return context.get_dummy_value()

    return types.void(arr, types.intp), codegen


@nb.njit(inline="always")
def _tree_rebuild(T, B, R):  # pragma: no cover - compiled
    sw = 0.0
    sa = 0.0
    for r in range(1, R + 1):
        B[2 * r] = sw
        B[2 * r + 1] = sa
        sw += T[2 * r]
        sa += T[2 * r + 1]


@nb.njit(cache=True, nogil=True)
def _risk_ranks(rkeys, rperm, kbuf, pbuf, w, s, S, weighted, rank, G, total):  # pragma: no cover - compiled
    """Rows in time order, ``rkeys`` their risks' keys: each row's dense risk rank (1..R)
    and ``G``, the weight of its stratum's rows with a lower risk plus half of those with
    its own (itself included); ``total`` gets each stratum's weight. Returns R."""
    n = rkeys.shape[0]
    for i in range(n):
        rperm[i] = i
    moved = _radix_sort(rkeys, rperm, kbuf, pbuf, s, 1)
    keys = kbuf if moved else rkeys
    order = pbuf if moved else rperm
    run = np.zeros(S)
    R = 0
    m0 = 0
    while m0 < n:
        m1 = m0 + 1
        while m1 < n and keys[m1] == keys[m0]:
            m1 += 1
        R += 1
        if S == 1:
            t = 0.0
            if weighted:
                for m in range(m0, m1):
                    t += w[order[m]]
            else:
                t = float(m1 - m0)
            g = total[0] + 0.5 * t
            for m in range(m0, m1):
                p = order[m]
                rank[p] = R
                G[p] = g
            total[0] += t
        else:
            for m in range(m0, m1):
                p = order[m]
                run[s[p]] += w[p] if weighted else 1.0
            for m in range(m0, m1):
                p = order[m]
                rank[p] = R
                G[p] = total[s[p]] + 0.5 * run[s[p]]
            for m in range(m0, m1):
                k = s[order[m]]
                total[k] += run[k]
                run[k] = 0.0
        m0 = m1
    return R


#: How many rows ahead of the sweep the tree's nodes are asked for.
AHEAD = 8


@nb.njit(inline="always")
def _sum(s, c, x):  # pragma: no cover - compiled
    # s + x with the rounding error kept in c (Neumaier): long sums of case weights stay
    # accurate to a few units in the last place, not n of them
    t = s + x
    if abs(s) >= abs(x):
        c += (s - t) + x
    else:
        c += (x - t) + s
    return t, c


@nb.njit(inline="always")
def _case(a, k, wi, cased, uno, ag):  # pragma: no cover - compiled
    # the weight a_k of row k as the earlier row of a pair: Uno's group weight (0 for a row
    # of weight 0, whose G does not matter), the caller's, or 1
    if uno:
        return ag if wi > 0.0 else 0.0
    return a[k] if cased else 1.0

