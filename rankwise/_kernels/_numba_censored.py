"""The compiled engine of the censored concordance (:mod:`rankwise._kernels._censored`) in
stages, so that two threads can share the work (numba, optional; every function releases
the GIL).

1. Sorts: :func:`time_order` (radix sort of the rows by (stratum, time)); then, on one
   thread, :func:`gather_keys` (the risks' keys and the rows' fields in that order) and
   ``_risk_ranks`` (dense risk ranks and ``G``, the stratum's weight below each risk,
   in time order). On two threads, :func:`time_order` and :func:`risk_ranks` (the same
   in the caller's row order) run side by side, and :func:`gather_rows` (each thread half
   the rows) puts the ranks and fields in time order.
2. Sweep: :func:`sweep_tree` (a blocked Fenwick tree: one tree within each block of 64
   risk ranks, a few cache lines fetched ahead of the sweep, under a compact tree of the
   blocks' sums) or :func:`sweep_dense` (plain sums per rank rebuilt at each time: few
   times or few risks), each compiled apart so that the tree's kind is a constant and its
   branches fold away. On two threads the sweep is split at a (stratum, time) boundary
   near the middle (:func:`split_point`): the second thread first rebuilds the state at
   its start (the tree of the stratum's earlier rows from their point values in one
   linear pass; the running sums and Uno's censoring curve by the same floating-point
   steps as the sweep), then sweeps its half while the first thread sweeps the first.
   Each writes its rows' ``dN``, ``dD`` back in the caller's row order.

With integer weights (counts) every partial sum is exact, so any route gives the same
numbers to the last bit. With fractional weights or case weights (Uno's), the blocked
tree's sums and the split's rebuilt tree and two compensated halves associate the same
terms differently: the results agree to rounding (1e-13 relative in the tests).
"""

from __future__ import annotations

import numba as nb
import numpy as np

from ._numba_merge import AHEAD, _case, _order_key, _prefetch, _radix_sort, _risk_ranks, _sum, _tree_rebuild

__all__ = ["time_order", "risk_ranks", "gather_rows", "gather_keys", "at_risk_into", "split_point", "tree_sizes",
           "sweep_dense", "sweep_tree"]


@nb.njit(cache=True, nogil=True)
def time_order(time, stratum, S, tk, perm, kb, pb):  # pragma: no cover - compiled
    """The rows sorted by (stratum, time), stably: fills the work space (``tk``, ``kb``
    uint64, ``perm``, ``pb`` int64) and returns True when the sorted keys and rows are in
    ``kb``, ``pb`` (else in ``tk``, ``perm``)."""
    n = time.shape[0]
    ut = time.view(np.uint64)
    for i in range(n):
        tk[i] = _order_key(ut[i])
        perm[i] = i
    return _radix_sort(tk, perm, kb, pb, stratum, S)


@nb.njit(cache=True, nogil=True)
def risk_ranks(risk, w, stratum, S, weighted, rk, rperm, rb, xb, rank, G, total):  # pragma: no cover - compiled
    """Each row's dense risk rank (1..R, in the caller's row order) and ``G``: the weight of
    its stratum's rows with a lower risk plus half of those with its own (itself
    included); ``total`` gets each stratum's weight. ``rk``, ``rb`` uint64 and ``rperm``,
    ``xb`` int64 work space. Returns R."""
    ur = risk.view(np.uint64)
    for i in range(risk.shape[0]):
        rk[i] = _order_key(ur[i])
    return _risk_ranks(rk, rperm, rb, xb, w, stratum, S, weighted, rank, G, total)


@nb.njit(cache=True, nogil=True)
def gather_rows(order, tkeys, event, w, a, stratum, S, weighted, cased, rank0, G0, e_t, w_t, a_t, s_t, rank, G,
                start, stop):  # pragma: no cover - compiled
    """The fields of the rows ``order[start:stop]`` (event, weight, case weight, stratum,
    risk rank, ``G``), one sequential pass; returns the number of (stratum, time) blocks
    that start in the range."""
    groups = 0
    for k in range(start, stop):
        p = order[k]
        e_t[k] = event[p]
        rank[k] = rank0[p]
        G[k] = G0[p]
        if weighted:
            w_t[k] = w[p]
        if cased:
            a_t[k] = a[p]
        if S > 1:
            s_t[k] = stratum[p]
        if k == 0 or tkeys[k] != tkeys[k - 1] or (S > 1 and stratum[p] != stratum[order[k - 1]]):
            groups += 1
    return groups


@nb.njit(cache=True, nogil=True)
def gather_keys(order, tkeys, risk, event, w, a, stratum, S, weighted, cased, rk, e_t, w_t, a_t,
                s_t):  # pragma: no cover - compiled
    """One thread's route: the risks' sort keys and the rows' fields in ``order`` (then
    :func:`rankwise._kernels._numba_merge._risk_ranks` ranks them in that order, with no
    gather of ranks after it); returns the number of (stratum, time) blocks."""
    n = order.shape[0]
    ur = risk.view(np.uint64)
    groups = 1 if n else 0
    for k in range(n):
        p = order[k]
        rk[k] = _order_key(ur[p])
        e_t[k] = event[p]
        if weighted:
            w_t[k] = w[p]
        if cased:
            a_t[k] = a[p]
        if S > 1:
            s_t[k] = stratum[p]
        if k > 0 and (tkeys[k] != tkeys[k - 1] or (S > 1 and s_t[k] != s_t[k - 1])):
            groups += 1
    return groups


@nb.njit(cache=True, nogil=True)
def at_risk_into(tkeys, event, w, s, S, weighted, Y):  # pragma: no cover - compiled
    """Uno's weights: the weight at risk (the stratum's rows at this time or later) of each
    (stratum, time) block, summed from the stratum's end, at the block's first row of
    ``Y`` (the other rows are left as they are)."""
    n = tkeys.shape[0]
    lo = 0
    while lo < n:
        hi = n
        if S > 1:
            hi = lo + 1
            while hi < n and s[hi] == s[lo]:
                hi += 1
        acc = 0.0
        k1 = hi
        while k1 > lo:
            k0 = k1 - 1
            while k0 > lo and tkeys[k0 - 1] == tkeys[k1 - 1]:
                k0 -= 1
            td = 0.0
            tc = 0.0
            for k in range(k0, k1):
                if event[k]:
                    td += w[k] if weighted else 1.0
                else:
                    tc += w[k] if weighted else 1.0
            acc += td + tc
            Y[k0] = acc
            k1 = k0
        lo = hi


@nb.njit(inline="always")
def _boundary(tkeys, s, S, m):  # pragma: no cover - compiled
    return tkeys[m] != tkeys[m - 1] or (S > 1 and s[m] != s[m - 1])


@nb.njit(cache=True, nogil=True)
def split_point(tkeys, s, S, at):  # pragma: no cover - compiled
    """The (stratum, time) block boundary in ``(0, n)`` nearest to ``at`` (``n`` when there
    is none)."""
    n = tkeys.shape[0]
    at = min(max(at, 1), n - 1)
    up = at
    down = at
    while True:
        if up < n and _boundary(tkeys, s, S, up):
            return up
        if down > 0 and _boundary(tkeys, s, S, down):
            return down
        if up >= n and down <= 0:
            return n
        up += 1
        down -= 1


@nb.njit(inline="always")
def _km_drop(gl, removed, at_risk):  # pragma: no cover - compiled
    # the censoring curve's Kaplan-Meier factor for ``removed`` censorings among ``at_risk``
    # rows (1 when none is at risk), kept in [0, 1] against rounding
    f = 1.0 - removed / (at_risk if at_risk > 0.0 else 1.0)
    return gl * min(max(f, 0.0), 1.0)


@nb.njit(inline="always")
def _group_end(tkeys, g0, hi):  # pragma: no cover - compiled
    g1 = g0 + 1
    while g1 < hi and tkeys[g1] == tkeys[g0]:
        g1 += 1
    return g1



#: The blocked tree's block: 64 risk ranks, a Fenwick tree of its own (a few cache lines,
#: fetched ahead of the sweep), under a Fenwick tree over the blocks (compact: it stays in
#: the core's cache, where the plain tree's upper nodes are spread one per cache line).
BLOCK = 64


@nb.njit(inline="always")
def _bq(F, C, B, r, dense):  # pragma: no cover - compiled
    # Of the rows in the tree, at risk ranks below r: (weight, w a); at r: (weight, w a).
    if dense:
        return B[2 * r], B[2 * r + 1], F[2 * r] + 0.0, F[2 * r + 1] + 0.0
    b = (r - 1) >> 6
    base = b << 6
    j = (r - 1) & 63  # r's place in its block, from 0
    sw = 0.0
    sa = 0.0
    i = j
    lo = (j + 1) & j
    while i > lo:  # the nodes below r that node j + 1 also covers
        sw += F[2 * (base + i)]
        sa += F[2 * (base + i) + 1]
        i &= i - 1
    pw = F[2 * (base + j + 1)] - sw
    pa = F[2 * (base + j + 1) + 1] - sa
    while i > 0:
        sw += F[2 * (base + i)]
        sa += F[2 * (base + i) + 1]
        i &= i - 1
    i = b
    while i > 0:  # the blocks below
        sw += C[2 * i]
        sa += C[2 * i + 1]
        i &= i - 1
    return sw, sa, pw, pa


@nb.njit(inline="always")
def _ba(F, C, r, nblk, vw, va, dense):  # pragma: no cover - compiled
    if dense:
        F[2 * r] += vw
        F[2 * r + 1] += va
        return
    b = (r - 1) >> 6
    base = b << 6
    i = ((r - 1) & 63) + 1
    while i <= BLOCK:
        F[2 * (base + i)] += vw
        F[2 * (base + i) + 1] += va
        i += i & (-i)
    i = b + 1
    while i <= nblk:
        C[2 * i] += vw
        C[2 * i + 1] += va
        i += i & (-i)


@nb.njit(inline="always")
def _bclear(F, C, r, nblk):  # pragma: no cover - compiled
    b = (r - 1) >> 6
    base = b << 6
    i = ((r - 1) & 63) + 1
    while i <= BLOCK:
        F[2 * (base + i)] = 0
        F[2 * (base + i) + 1] = 0
        i += i & (-i)
    i = b + 1
    while i <= nblk:
        C[2 * i] = 0
        C[2 * i + 1] = 0
        i += i & (-i)


@nb.njit(inline="always")
def _bprefetch(F, r):  # pragma: no cover - compiled
    # every cache line of r's block (its Fenwick nodes: 128 values)
    start = 2 * (((r - 1) >> 6) << 6) + 2
    step = max(64 // F.itemsize, 1)
    for q in range(0, 2 * BLOCK, step):
        _prefetch(F, start + q)


@nb.njit(inline="always")
def _bbuild(F, C, nblk):  # pragma: no cover - compiled
    # point values (at 2 (base + i), i = 1..64) to the blocked tree: each block's Fenwick
    # nodes add into their parents, then each block's total (its node 64) is the blocks'
    # tree's point value, built the same way
    for b in range(nblk):
        base = b << 6
        for i in range(1, BLOCK + 1):
            j = i + (i & (-i))
            if j <= BLOCK:
                F[2 * (base + j)] += F[2 * (base + i)]
                F[2 * (base + j) + 1] += F[2 * (base + i) + 1]
        C[2 * (b + 1)] = F[2 * (base + BLOCK)]
        C[2 * (b + 1) + 1] = F[2 * (base + BLOCK) + 1]
    for i in range(1, nblk + 1):
        j = i + (i & (-i))
        if j <= nblk:
            C[2 * j] += C[2 * i]
            C[2 * j + 1] += C[2 * i + 1]


def tree_sizes(R: int) -> tuple[int, int]:
    """The lengths of the blocked tree's two arrays (values, block sums) for ``R`` ranks."""
    nblk = (R + BLOCK - 1) // BLOCK
    return 2 * (nblk * BLOCK + 1), 2 * (nblk + 1)


@nb.njit(cache=True, nogil=True)
def sweep_dense(tkeys, event, w, a, s, S, weighted, cased, tec, rank, G, total, R, dN, dD, T, C, uno, taukey, order,
                Y, start, stop, dN_out, dD_out):  # pragma: no cover - compiled
    """:func:`_sweep` with the dense sums (compiled apart: the tree's kind a constant, its
    branches folded away)."""
    return _sweep(tkeys, event, w, a, s, S, weighted, cased, tec, rank, G, total, R, dN, dD, T, C, True, uno, taukey,
                  order, Y, start, stop, dN_out, dD_out)


@nb.njit(cache=True, nogil=True)
def sweep_tree(tkeys, event, w, a, s, S, weighted, cased, tec, rank, G, total, R, dN, dD, T, C, uno, taukey, order,
               Y, start, stop, dN_out, dD_out):  # pragma: no cover - compiled
    """:func:`_sweep` with the blocked Fenwick tree."""
    return _sweep(tkeys, event, w, a, s, S, weighted, cased, tec, rank, G, total, R, dN, dD, T, C, False, uno, taukey,
                  order, Y, start, stop, dN_out, dD_out)


@nb.njit(inline="always")
def _sweep(tkeys, event, w, a, s, S, weighted, cased, tec, rank, G, total, R, dN, dD, T, C, dense, uno, taukey, order,
           Y, start, stop, dN_out, dD_out):  # pragma: no cover - compiled
    """One ascending sweep over the rows ``[start, stop)`` (block boundaries) in (stratum,
    time) order, the tree (``T``, ``C``: zeros, :func:`tree_sizes`; or ``T`` the dense sums)
    holding, by risk rank, the weight of the rows of earlier times and the ``w a`` of their
    events. Row k as the later row: the ``w a`` of earlier events above its risk (plus half
    at it); an event as the earlier row: ``G`` less the tree's weight below and half at its
    risk (after its own time's rows that are not its partners went in) is the weight of its
    partners below it. ``uno``: the case weights are ``1 / Gc(t-)^2`` for the events up to
    ``taukey`` (0 beyond), ``Gc`` the stratum's censoring Kaplan-Meier (events first at a
    tied time) kept along the sweep from ``Y``, the weights at risk (:func:`at_risk_into`).
    When ``start`` is inside a stratum, the state there is rebuilt first from the stratum's
    earlier rows: the tree from their point values (a linear build), the running sums and
    Uno's curve by the same steps as the sweep. Fills ``dN``, ``dD`` over the range (sweep
    order) and ``dN_out[order[k]]``, ``dD_out[order[k]]``; returns ``(N, Nc, D, Dc, P, Pc,
    z)``: the totals as compensated pairs (value, correction), ``P`` the weight ``sum w_i
    w_j`` of the comparable pairs up to ``taukey`` (Uno), and the first row (``order``'s
    numbering) whose event needs ``Gc(t-) = 0`` (-1: none)."""
    n = tkeys.shape[0]
    B = np.zeros(2 * (R + 1) if dense else 0)
    nblk = (R + BLOCK - 1) // BLOCK
    N = 0.0
    D = 0.0
    P = 0.0
    Nc = 0.0
    Dc = 0.0
    Pc = 0.0
    z = -1
    lo = start
    if S > 1:
        while lo > 0 and s[lo - 1] == s[start]:
            lo -= 1
    else:
        lo = 0
    first = True
    while lo < stop:
        st = s[lo] if S > 1 else 0
        hi = n
        if S > 1:
            hi = lo + 1
            while hi < n and s[hi] == st:
                hi += 1
        Ws = total[st]
        cw = 0.0
        ca = 0.0
        ca_s = 0.0
        ca_c = 0.0
        gl = 1.0
        g0 = lo
        if first and start > lo:
            # the state at `start`: the same steps as the sweep over [lo, start), no queries
            while g0 < start:
                g1 = _group_end(tkeys, g0, hi)
                ag = 1.0
                Yg = 0.0
                if uno:
                    Yg = Y[g0]
                    q = gl * gl
                    ag = (1.0 / q if q > 0.0 else np.inf) if tkeys[g0] <= taukey else 0.0
                if g1 - g0 == 1:
                    wi = w[g0] if weighted else 1.0
                    r = rank[g0]
                    if event[g0]:
                        wa = wi * _case(a, g0, wi, cased, uno, ag)
                        T[2 * r] += wi
                        T[2 * r + 1] += wa
                        ca_s, ca_c = _sum(ca_s, ca_c, wa)
                        ca = ca_s + ca_c
                    else:
                        T[2 * r] += wi
                        if uno and wi > 0.0:
                            gl = _km_drop(gl, wi, Yg)
                    cw += wi
                else:
                    gw = 0.0
                    gc = 0.0
                    gd = 0.0
                    ga = 0.0
                    for k in range(g0, g1):
                        wi = w[k] if weighted else 1.0
                        gw += wi
                        r = rank[k]
                        T[2 * r] += wi
                        if event[k]:
                            gd += wi
                            wa = wi * _case(a, k, wi, cased, uno, ag)
                            ga += wa
                            T[2 * r + 1] += wa
                        else:
                            gc += wi
                    if uno and gc > 0.0:
                        gl = _km_drop(gl, gc, Yg - gd)
                    cw += gw
                    ca_s, ca_c = _sum(ca_s, ca_c, ga)
                    ca = ca_s + ca_c
                g0 = g1
            if not dense:  # point values to the blocked tree
                _bbuild(T, C, nblk)
        if dense:
            _tree_rebuild(T, B, R)
        first = False
        end = min(hi, stop)
        while g0 < end:
            g1 = _group_end(tkeys, g0, hi)
            ag = 1.0
            inside = True
            Yg = 0.0
            if uno:
                Yg = Y[g0]
                inside = tkeys[g0] <= taukey
                q = gl * gl
                ag = (1.0 / q if q > 0.0 else np.inf) if inside else 0.0
            if not dense and g0 + AHEAD < stop:
                _bprefetch(T, rank[g0 + AHEAD])
            if g1 - g0 == 1:
                r = rank[g0]
                wi = w[g0] if weighted else 1.0
                qw, qa, pw, pa = _bq(T, C, B, r, dense)
                y = ca - qa - 0.5 * pa
                if event[g0]:
                    ai = _case(a, g0, wi, cased, uno, ag)
                    x = G[g0] - qw - 0.5 * pw - 0.5 * wi
                    da = Ws - cw - wi
                    dN[g0] = y + ai * x
                    dD[g0] = ca + ai * da
                    wa = wi * ai
                    N, Nc = _sum(N, Nc, wa * x)
                    D, Dc = _sum(D, Dc, wa * da)
                    if uno and inside and wi > 0.0:
                        P, Pc = _sum(P, Pc, wi * da)
                        if not gl > 0.0 and (z < 0 or order[g0] < z):
                            z = order[g0]
                    _ba(T, C, r, nblk, wi, wa, dense)
                    ca_s, ca_c = _sum(ca_s, ca_c, wa)
                    ca = ca_s + ca_c
                else:
                    dN[g0] = y
                    dD[g0] = ca
                    _ba(T, C, r, nblk, wi, 0.0, dense)
                    if uno and wi > 0.0:
                        gl = _km_drop(gl, wi, Yg)
                cw += wi
            else:
                gw = 0.0
                gc = 0.0
                gd = 0.0
                ga = 0.0
                for k in range(g0, g1):
                    wi = w[k] if weighted else 1.0
                    gw += wi
                    if event[k]:
                        gd += wi
                        ga += wi * _case(a, k, wi, cased, uno, ag)
                    else:
                        gc += wi
                    if event[k] or not tec:
                        qw, qa, pw, pa = _bq(T, C, B, rank[k], dense)
                        dN[k] = ca - qa - 0.5 * pa
                        dD[k] = ca
                for k in range(g0, g1):
                    if event[k]:
                        wi = w[k] if weighted else 1.0
                        _ba(T, C, rank[k], nblk, wi, wi * _case(a, k, wi, cased, uno, ag), dense)
                    elif not tec:
                        _ba(T, C, rank[k], nblk, w[k] if weighted else 1.0, 0.0, dense)
                if dense:
                    _tree_rebuild(T, B, R)
                da = Ws - cw - gw + (gc if tec else 0.0)
                for k in range(g0, g1):
                    if event[k]:
                        qw, qa, pw, pa = _bq(T, C, B, rank[k], dense)
                        wi = w[k] if weighted else 1.0
                        ai = _case(a, k, wi, cased, uno, ag)
                        x = G[k] - qw - 0.5 * pw
                        dN[k] += ai * x
                        dD[k] += ai * da
                        wa = wi * ai
                        N, Nc = _sum(N, Nc, wa * x)
                        D, Dc = _sum(D, Dc, wa * da)
                        if uno and inside and wi > 0.0:
                            P, Pc = _sum(P, Pc, wi * da)
                            if not gl > 0.0 and (z < 0 or order[k] < z):
                                z = order[k]
                    elif tec:
                        qw, qa, pw, pa = _bq(T, C, B, rank[k], dense)
                        dN[k] = ca + ga - qa - 0.5 * pa
                        dD[k] = ca + ga
                if tec:
                    for k in range(g0, g1):
                        if not event[k]:
                            _ba(T, C, rank[k], nblk, w[k] if weighted else 1.0, 0.0, dense)
                if uno and gc > 0.0:
                    gl = _km_drop(gl, gc, Yg - gd)
                cw += gw
                ca_s, ca_c = _sum(ca_s, ca_c, ga)
                ca = ca_s + ca_c
            if dense:
                _tree_rebuild(T, B, R)
            g0 = g1
        if hi < stop:  # empty the tree for the next stratum
            if dense or 16 * (hi - lo) > R:
                T[:] = 0
                C[:] = 0
                B[:] = 0.0
            else:
                for k in range(lo, hi):
                    _bclear(T, C, rank[k], nblk)
        lo = hi
    for k in range(start, stop):
        p = order[k]
        dN_out[p] = dN[k]
        dD_out[p] = dD[k]
    return N, Nc, D, Dc, P, Pc, z
