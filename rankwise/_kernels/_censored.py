"""Pair counts of the censored concordance (Harrell's C, and Uno's with case weights) in
O(n log n), and each row's share of them (the infinitesimal jackknife's derivatives).

Higher risk = earlier event. A pair ``(i, j)`` is comparable when ``t_i < t_j`` and ``i``
had an event, or ``t_i == t_j``, ``i`` had an event and ``j`` was censored (unless
``tied_event_censored=False``); two events at one time never are; with strata, only within
one stratum. It weighs ``w_i a_i w_j`` (``a`` the case weights of the earlier row, ones by
default) and counts ``psi(r_i, r_j)`` (1 above, 1/2 tied, 0 below). For every row ``k`` the
kernel returns ``dN[k]`` and ``dD[k]``, the derivatives of the weighted count ``N`` and of
the weight ``D`` of the comparable pairs in ``w_k`` (``k`` in either role), so that
``N = sum_k w_k dN_A[k]`` over the earlier role only, and the derivative of ``C = N / D`` in
``w_k`` is ``(dN[k] - C dD[k]) / D``.

Two engines count the same pairs. The compiled one (numba) radix-sorts the rows by
(stratum, time) and by risk, then sweeps once in time order with a tree of weights over
the risk ranks: a row as the later one reads the earlier events above its risk; an event
as the earlier one gets its partners below its risk as the stratum's weight below its risk
less the tree's (the earlier rows, and its own time's rows that are not its partners).
The tree is blocked: a Fenwick tree within each block of 64 risk ranks (a few cache lines,
asked for a few rows ahead of the sweep: a prefetch, so their cache misses overlap) under a
compact Fenwick tree of the blocks' sums, which stays in the core's cache; with few times
or few risks, plain sums per rank rebuilt at each time instead. The sweep is compiled once
per kind of tree, so its branches are folded away. From :data:`THREADED_FROM` rows, where
:data:`THREADS` (``RANKWISE_CENSORED_THREADS``) allows two threads, the two sorts run side by
side and the sweep is split at a (stratum, time) boundary near the middle, the second half
starting from its state rebuilt in one linear pass (:mod:`rankwise._kernels._numba_censored`);
with integer weights the result is the same to the last bit, with fractional or Uno's
weights to rounding. Uno's weights (:func:`uno_counts`) come from the same sort: the
sweep keeps each stratum's censoring Kaplan-Meier ``G(t-)`` as it passes the times, so no
curve is fitted apart and no weight array is gathered; the numpy twin computes the curve
per (stratum, time) block with whole-array scans (:func:`censoring_blocks`).
The numpy twin goes bit by bit of the risk ranks, from the top, keeping the rows in
(stratum, bits above the level, time) order: within a block, an event with the level's bit
set is above every row without it, and its partners among those are the rows after its
time, a cumulative sum; after the last bit, the pairs of one risk count 1/2. Both take
O(n) memory; sums are float64 (with integer weights every partial sum is exact).
"""

from __future__ import annotations

import os
import threading

import numpy as np

from ._merge import _compiled

__all__ = ["concordance_counts", "uno_counts", "censoring_blocks"]

#: From this many rows the compiled engine is used when numba is installed.
COMPILED_FROM = 4096


def _dense(x: np.ndarray) -> tuple[np.ndarray, int]:
    u, inv = np.unique(x, return_inverse=True)
    return inv.reshape(-1).astype(np.int64), int(u.shape[0])


def _runs(new: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
    """From a boolean "a run starts here": each position's run start and end (exclusive)."""
    starts = np.flatnonzero(new)
    ends = np.append(starts[1:], n)
    rid = np.cumsum(new) - 1
    return starts[rid], ends[rid]


def _cum0(x: np.ndarray) -> np.ndarray:
    """The cumulative sums of ``x`` after a leading 0: the sum over ``[a, b)`` is
    ``c[b] - c[a]``."""
    out = np.zeros(x.shape[0] + 1, dtype=np.float64 if x.dtype.kind == "f" else np.int64)
    np.cumsum(x, out=out[1:])
    return out


def concordance_counts(time: np.ndarray, event: np.ndarray, risk: np.ndarray, w: np.ndarray | None = None,
                       strata: np.ndarray | None = None, *, case_weight: np.ndarray | None = None,
                       tied_event_censored: bool = True) -> tuple[float, float, np.ndarray, np.ndarray]:
    """``(N, D, dN, dD)`` of the censored concordance on validated arrays (``event`` bool;
    ``strata`` int codes or None): ``C = N / D``.

    A comparable pair ``(i, j)`` (``i`` the earlier row, an event) weighs ``w_i a_i w_j``,
    ``a = case_weight`` (ones when None; Uno's ``1 / G(t_i-)^2``, say); ``N`` sums the pair
    weights times ``psi(r_i, r_j)``, ``D`` the pair weights. ``dN[k]``, ``dD[k]`` are their
    derivatives in ``w_k`` (``a`` held fixed). ``tied_event_censored``: an event and a
    censoring at one time are comparable (the event earlier; R survival's convention), or,
    when False, not; two events at one time never are.

    Examples
    --------
    >>> import numpy as np
    >>> N, D, dN, dD = concordance_counts(np.array([1.0, 2.0, 3.0]), np.array([True, True, False]),
    ...                                   np.array([3.0, 1.0, 2.0]))
    >>> N, D
    (2.0, 3.0)
    """
    n = time.shape[0]
    tec = bool(tied_event_censored)
    # The numpy route is the slower one here (about 15 times at 10^6 rows): the compiled one is
    # loaded from a few thousand rows on (once per process; about half a second).
    fast = _compiled(None if n >= COMPILED_FROM else n)
    if fast is not None:
        return _counts_compiled(fast, time, event, risk, w, case_weight, strata, tec)
    wt = np.ones(n) if w is None else np.asarray(w, dtype=np.float64)
    a = np.ones(n) if case_weight is None else np.asarray(case_weight, dtype=np.float64)
    codes, _ = _codes(strata, n)
    s = np.zeros(n, dtype=np.int64) if codes is None else codes
    return _counts_numpy(time, event, risk, wt, a, s, tec)


def _codes(strata, n: int) -> tuple[np.ndarray | None, int]:
    """``(codes, S)``: the strata as int64 codes 0..S-1 (None for one stratum)."""
    if strata is None or n == 0:
        return None, 1
    codes = np.ascontiguousarray(strata, dtype=np.int64)
    S = int(codes.max()) + 1
    if codes.min() < 0 or S > n:  # not the validator's 0..S-1 codes
        u, inv = np.unique(codes, return_inverse=True)
        codes, S = inv.reshape(-1).astype(np.int64), int(u.shape[0])
    return (None, 1) if S == 1 else (codes, S)


def uno_counts(time: np.ndarray, event: np.ndarray, risk: np.ndarray, w: np.ndarray | None = None,
               strata: np.ndarray | None = None, *, tau: float | None = None,
               tied_event_censored: bool = True) -> tuple:
    """``(N, D, dN, dD, P, z)`` of Uno's concordance with the sample's own censoring
    Kaplan-Meier (per stratum) on validated arrays: :func:`concordance_counts` with the case
    weights ``a_i = 1 / G(t_i-)^2`` for the events up to ``tau`` (0 after it, and for rows of
    weight 0), computed from the same sort of the rows by (stratum, time).

    ``G`` is the censoring survival of the row's stratum just before its time, the events
    at a tied time leaving the risk set before its censorings (``G(t) = prod_{s <= t}
    (1 - c_s / (Y_s - d_s))``, as :func:`rankwise.survival._km.fit_censoring_km`). ``P`` is
    the weight ``sum w_i w_j`` of the comparable pairs up to ``tau`` (before ``a``); ``z``
    the first row of positive weight whose event counts where ``G(t-)`` is 0 (its weight
    would be infinite; -1 when none: the caller refuses the sample otherwise, and ``N``,
    ``D``, ``dN``, ``dD`` are then not meaningful). The compiled engine keeps ``G`` along
    its sweep; the numpy twin computes it per (stratum, time) block
    (:func:`censoring_blocks`) first.

    Examples
    --------
    Times 1, 2, 3, 4 with events 1, 0, 1, 0: the censoring at 2 leaves ``G(3-) = 2/3``, so
    the pairs of the event at 3 weigh ``9/4``; pairs (1, 2), (1, 3), (1, 4) and (3, 4).

    >>> N, D, dN, dD, P, z = uno_counts(np.array([1.0, 2, 3, 4]), np.array([True, False, True, False]),
    ...                                 np.array([0.2, 0.5, 0.9, 0.1]))
    >>> round(N, 12), D, P, z
    (3.25, 5.25, 4.0, -1)
    """
    n = time.shape[0]
    tec = bool(tied_event_censored)
    fast = _compiled(None if n >= COMPILED_FROM else n)
    if fast is not None:
        N, D, dN, dD, P, z = _counts_compiled(fast, time, event, risk, w, None, strata, tec, uno=True, tau=tau)
        return N, D, dN, dD, P, z
    wt = np.ones(n) if w is None else np.asarray(w, dtype=np.float64)
    codes, _ = _codes(strata, n)
    s = np.zeros(n, dtype=np.int64) if codes is None else codes
    order = np.lexsort((time, s))
    km = censoring_blocks(time, event, wt, s, order)
    need = event & (wt > 0)
    keep = np.ones(km.times.shape[0], dtype=bool)
    if tau is not None:
        need &= time <= tau
        keep = km.times <= tau
    g = km.left
    zero = need & ~(g > 0)
    later = km.at_risk - km.events - km.censored + (km.censored if tec else 0.0)
    P = float(np.dot(km.events[keep], later[keep]))
    if zero.any():
        return float("nan"), float("nan"), np.full(n, np.nan), np.full(n, np.nan), P, int(np.flatnonzero(zero)[0])
    a = np.zeros(n)
    a[need] = 1.0 / g[need] ** 2
    N, D, dN, dD = _counts_numpy(time, event, risk, wt, a, s, tec, order)
    return N, D, dN, dD, P, -1


class Blocks:
    """The censoring Kaplan-Meier of a sample per (stratum, time) block (:func:`censoring_blocks`).

    Attributes: ``left`` (n,), each row's ``G(t-)`` in its stratum; per block, in (stratum,
    time) order: ``times``, ``strata``, ``at_risk`` (the stratum's weight with ``time >=
    t``), ``events``, ``censored`` (the weights of the events and censorings at ``t``)."""

    __slots__ = ("left", "times", "strata", "at_risk", "events", "censored")

    def __init__(self, left, times, strata, at_risk, events, censored):
        self.left, self.times, self.strata = left, times, strata
        self.at_risk, self.events, self.censored = at_risk, events, censored


def _segmented_scan(x: np.ndarray, first: np.ndarray, op: np.ufunc) -> np.ndarray:
    """The inclusive scan of ``x`` by ``op`` (``np.add``, ``np.multiply``) restarted where
    ``first`` is True (``first[0]`` must be): a loop of cumulative scans over a few
    segments, else log2(longest) whole-array doubling steps (Hillis & Steele 1986) over
    many."""
    starts = np.flatnonzero(first)
    if starts.shape[0] <= 16:
        out = np.empty_like(x)
        for a, b in zip(starts.tolist(), np.append(starts[1:], x.shape[0]).tolist()):
            op.accumulate(x[a:b], out=out[a:b])
        return out
    pos = np.arange(x.shape[0]) - np.repeat(starts, np.diff(np.append(starts, x.shape[0])))
    out = x.copy()
    ident = 0.0 if op is np.add else 1.0
    k, longest = 1, int(pos.max()) + 1
    while k < longest:
        op(out[k:], np.where(pos[k:] >= k, out[:-k], ident), out=out[k:])
        k *= 2
    return out


def censoring_blocks(time: np.ndarray, event: np.ndarray, w: np.ndarray, s: np.ndarray | None,
                     order: np.ndarray, *, events_first: bool = True) -> Blocks:
    """The censoring Kaplan-Meier of each stratum, per (stratum, time) block, and each
    row's ``G(t-)`` (in its own order): ``order`` sorts the rows by (stratum, time)
    (``s`` int codes, or None for one stratum), ``w`` the weights (float64). The events
    at a tied time leave the risk set first with ``events_first`` (the factor at ``t`` is
    ``1 - c_t / (Y_t - d_t)``; else ``1 - c_t / Y_t``). Whole-array steps: the strata's
    reverse cumulative weights and cumulative products by :func:`_segmented_scan`."""
    n = time.shape[0]
    if n == 0:
        z = np.zeros(0)
        return Blocks(z, z, np.zeros(0, dtype=np.int64), z, z, z)
    ts = time[order]
    new = np.empty(n, dtype=bool)
    new[0] = True
    np.not_equal(ts[1:], ts[:-1], out=new[1:])
    if s is not None:
        ss = s[order]
        new[1:] |= ss[1:] != ss[:-1]
    starts = np.flatnonzero(new)
    wo, eo = w[order], event[order]
    d = np.add.reduceat(wo * eo, starts)
    c = np.add.reduceat(wo * ~eo, starts)
    bs = np.zeros(starts.shape[0], dtype=np.int64) if s is None else ss[starts]
    first = np.ones(bs.shape[0], dtype=bool)  # each stratum's first block
    first[1:] = bs[1:] != bs[:-1]
    last = np.ones(bs.shape[0], dtype=bool)  # and its last
    last[:-1] = first[1:]
    # at risk: the stratum's weight from this block on
    at_risk = _segmented_scan((d + c)[::-1], last[::-1], np.add)[::-1]
    denom = at_risk - d if events_first else at_risk
    with np.errstate(divide="ignore", invalid="ignore"):
        factor = np.where(c > 0, 1.0 - c / np.where(denom > 0, denom, 1.0), 1.0)
    g = _segmented_scan(np.clip(factor, 0.0, 1.0), first, np.multiply)
    left_block = np.empty_like(g)
    left_block[0] = 1.0
    left_block[1:] = np.where(first[1:], 1.0, g[:-1])
    left = np.empty(n)
    left[order] = np.repeat(left_block, np.diff(np.append(starts, n)))
    return Blocks(left, ts[starts], bs, at_risk, d, c)


def threads_for(n: int) -> int:
    """How many threads the compiled engine uses on ``n`` rows: 2 from :data:`THREADED_FROM`
    rows on when the process may run on two CPUs or more (and :data:`THREADS` allows), else 1."""
    if n < THREADED_FROM or THREADS < 2:
        return 1
    try:
        cpus = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not on Linux
        cpus = os.cpu_count() or 1
    return 2 if cpus >= 2 else 1


#: The most threads the compiled engine uses (1: none besides the caller's); the
#: environment's ``RANKWISE_CENSORED_THREADS`` sets it.
THREADS = 1
try:
    THREADS = max(1, int(os.environ.get("RANKWISE_CENSORED_THREADS", "1")))
except ValueError:  # a malformed value: the default
    THREADS = 1

#: From this many rows the compiled engine shares its work between two threads.
THREADED_FROM = 1 << 19


def _in_threads(*calls):
    """Run each ``(function, args)`` (compiled, releasing the GIL): the first in this thread,
    the others in threads of their own; their results in order."""
    out = [None] * len(calls)

    def run(i):
        f, args = calls[i]
        out[i] = f(*args)

    others = [threading.Thread(target=run, args=(i,)) for i in range(1, len(calls))]
    for th in others:
        th.start()
    try:
        run(0)
    finally:
        for th in others:
            th.join()
    return out


def _counts_compiled(fast, time, event, risk, w, a, strata, tec, mode: int = 0, *, uno: bool = False,
                     tau: float | None = None, threads: int | None = None, split: float = 0.5) -> tuple:
    """The compiled engine: radix sorts by (stratum, time) and by risk, then a sweep with a
    tree of weights over the risk ranks (Fenwick, or plain sums when there are few times
    or risks; ``mode`` 1 or 2 forces one, for the tests). ``w``, ``a``, ``strata`` may be
    None. ``(N, D, dN, dD)``; with ``uno`` (``a`` None: Uno's weights from the sweep's own
    censoring Kaplan-Meier, up to ``tau``) ``(N, D, dN, dD, P, z)`` as :func:`uno_counts`.

    ``threads`` (default :func:`threads_for`): with 2, the two sorts run side by side and
    the sweep is split at the (stratum, time) boundary nearest to the fraction ``split`` of
    the rows (:mod:`rankwise._kernels._numba_censored`); with 1, one thread does it all.
    ``fast`` is the loaded compiled module of :mod:`rankwise._kernels._merge` (not None)."""
    from . import _numba_censored as nc

    n = time.shape[0]
    nthreads = threads_for(n) if threads is None else int(threads)
    empty = np.empty(0)
    w = empty if w is None else np.ascontiguousarray(w, dtype=np.float64)
    weighted = w.shape[0] > 0
    cased = a is not None and not uno
    a = np.ascontiguousarray(a, dtype=np.float64) if cased else empty
    codes, S = _codes(strata, n)
    if codes is None:
        codes = np.empty(0, dtype=np.int64)
    time = np.ascontiguousarray(time, dtype=np.float64)
    risk = np.ascontiguousarray(risk, dtype=np.float64)
    event = np.ascontiguousarray(event, dtype=np.bool_)
    # work space, each array apart (numpy reuses freed memory below 32 MB; numba would
    # fault in fresh pages on every call)
    idx = np.int32 if n < 2 ** 31 else np.int64  # row numbers: half the bytes to move in the sorts
    tk, kb, rk, rb = (np.empty(n, dtype=np.uint64) for _ in range(4))
    perm, pb, rperm, xb = (np.empty(n, dtype=idx) for _ in range(4))
    total = np.zeros(S)
    sort_time = (nc.time_order, (time, codes, S, tk, perm, kb, pb))
    e_t = np.empty(n, dtype=np.bool_)
    w_t = np.empty(w.shape[0])
    a_t = np.empty(a.shape[0])
    s_t = np.empty(codes.shape[0], dtype=np.int64)
    if nthreads >= 2:
        # the two sorts side by side (the risks in the rows' order), then the ranks
        # gathered into time order, each thread half the rows
        rank0 = np.empty(n, dtype=idx)
        G0 = np.empty(n)
        R, moved = _in_threads((nc.risk_ranks, (risk, w, codes, S, weighted, rk, rperm, rb, xb, rank0, G0, total)),
                               sort_time)
        tkeys, order = (kb, pb) if moved else (tk, perm)
        rank, G = rperm, rk.view(np.float64)  # the risk sort's work space, free now
        gather = nc.gather_rows, (order, tkeys, event, w, a, codes, S, weighted, cased, rank0, G0, e_t, w_t, a_t,
                                  s_t, rank, G)
        groups = sum(_in_threads((gather[0], (*gather[1], 0, n // 2)), (gather[0], (*gather[1], n // 2, n))))
        del rank0, G0
        dD_t = (tk if moved else kb).view(np.float64)  # the time sort's spare keys
    else:
        # one thread: the risks' keys gathered in time order are ranked there (no gather after)
        moved = sort_time[0](*sort_time[1])
        tkeys, order = (kb, pb) if moved else (tk, perm)
        groups = nc.gather_keys(order, tkeys, risk, event, w, a, codes, S, weighted, cased, rk, e_t, w_t, a_t, s_t)
        rank, G = rperm, (tk if moved else kb).view(np.float64)  # the time sort's spare keys
        R = fast._risk_ranks(rk, xb, rb, perm if moved else pb, w_t, s_t, S, weighted, rank, G, total)
        dD_t = rk.view(np.float64)  # the risks' keys, ranked now
    # dense: a rebuild of R sums at each time, no walks; Fenwick: log R per row
    dense = groups * (R + 1) <= 2 * n if mode == 0 else mode == 2
    Y = np.empty(n if uno else 0)
    if uno:
        nc.at_risk_into(tkeys, e_t, w_t, s_t, S, weighted, Y)
    dN_t = rb.view(np.float64)  # the risk sort's spare keys
    dN, dD = np.empty(n), np.empty(n)
    tdtype = np.float64 if (weighted or cased or uno or n >= 2 ** 31) else np.int32  # counts: half the bytes
    taukey = _order_key(np.inf if tau is None else tau)
    m = n
    if nthreads >= 2 and n > 1:
        m = int(nc.split_point(tkeys, s_t, S, int(split * n)))

    size_f, size_c = (2 * (R + 1), 0) if dense else nc.tree_sizes(R)

    def part(lo, hi):
        return (nc.sweep_dense if dense else nc.sweep_tree,
                (tkeys, e_t, w_t, a_t, s_t, S, weighted, cased, bool(tec), rank, G, total, R, dN_t, dD_t,
                 np.zeros(size_f, dtype=tdtype), np.zeros(size_c, dtype=tdtype), bool(uno), taukey, order, Y, lo, hi,
                 dN, dD))

    if 0 < m < n:
        (N, Nc, D, Dc, P, Pc, z), second = _in_threads(part(0, m), part(m, n))
        N, Nc = _add2(N, Nc, second[0], second[1])
        D, Dc = _add2(D, Dc, second[2], second[3])
        P, Pc = _add2(P, Pc, second[4], second[5])
        if second[6] >= 0 and (z < 0 or second[6] < z):
            z = second[6]
    else:
        f, args = part(0, n)
        N, Nc, D, Dc, P, Pc, z = f(*args)
    if uno:
        return float(N + Nc), float(D + Dc), dN, dD, float(P + Pc), int(z)
    return float(N + Nc), float(D + Dc), dN, dD


def _add2(s1: float, c1: float, s2: float, c2: float) -> tuple[float, float]:
    """Two compensated sums ``(value, correction)`` added (Neumaier's step, then the
    corrections)."""
    t = s1 + s2
    c = c1 + c2 + (((s1 - t) + s2) if abs(s1) >= abs(s2) else ((s2 - t) + s1))
    return t, c


def _order_key(v: float) -> np.uint64:
    """The radix sort's key of a float (:func:`rankwise._kernels._numba_merge._order_key`):
    unsigned integers in the floats' order."""
    u = int(np.array([v], dtype=np.float64).view(np.uint64)[0])
    if u == 1 << 63:  # -0.0 as +0.0
        u = 0
    return np.uint64(u ^ (0xFFFFFFFFFFFFFFFF if u >> 63 else 1 << 63))


def _counts_numpy(time, event, risk, wt, a, s, tec, order=None) -> tuple:
    """Bit by bit of the risk ranks, from the top: O(n log R) after the sorts, in whole-array
    steps. ``order``: the rows' (stratum, time) order when already known."""
    n = time.shape[0]
    rho, R = _dense(risk)
    if order is None:
        order = np.lexsort((time, s))
    ts, ss = time[order], s[order]
    newg = np.ones(n, dtype=bool)
    newg[1:] = (ts[1:] != ts[:-1]) | (ss[1:] != ss[:-1])
    tc = np.cumsum(newg) - 1  # the (stratum, time) group, in that order
    tg = np.empty(n, dtype=np.int64)
    tg[order] = tc
    cens = ~event
    wa = np.where(event, wt * a, 0.0)  # an event's weight as the earlier row
    # D: an event's partners are the later rows of its stratum (and the censorings at its
    # time); a row's are the earlier events (and, for a censoring, the events at its time)
    gw = np.bincount(tg, weights=wt)
    gwc = np.bincount(tg, weights=np.where(cens, wt, 0.0))
    gwa = np.bincount(tg, weights=wa)
    gs = ss[newg]
    first = np.ones(gs.shape[0], dtype=bool)
    first[1:] = gs[1:] != gs[:-1]
    g0, g1 = _runs(first, gs.shape[0])
    cW, cA = _cum0(gw), _cum0(gwa)
    g = np.arange(gs.shape[0])
    later = cW[g1] - cW[g + 1] + (gwc if tec else 0.0)
    earlier = cA[g] - cA[g0]
    dDa = np.where(event, a * later[tg], 0.0)
    dDb = earlier[tg] + (np.where(cens, gwa[tg], 0.0) if tec else 0.0)
    # N: the rows kept in (stratum, the risk rank's bits above the level, time) order, a
    # block being one value of the first two (the stratum is the key's top bits). In a
    # block, an event whose rank has the level's bit set is above every row without it:
    # its partners among those are the rows after its time's run (and the censorings in
    # it), a cumulative sum. Each level then splits every block stably, lower half first
    # (a scatter into two sequential streams per block; the rows' fields travel along).
    # After the last bit a block is one risk: its pairs count 1/2.
    nbits = int(R - 1).bit_length()
    kc = (ss << nbits) | rho[order]
    wc, ac, cc, cur = wt[order], wa[order], cens[order], order
    Xc = np.zeros(n)  # an event's partners' weight below its risk (1/2 at it)
    Yc = np.zeros(n)  # a row's partners' (earlier events') w a above its risk (1/2 at it)
    pos = np.arange(n)
    for L in range(nbits - 1, -2, -1):
        blk = kc >> (L + 1) if L >= 0 else kc
        newb = np.ones(n, dtype=bool)
        newb[1:] = blk[1:] != blk[:-1]
        newr = newb.copy()
        newr[1:] |= tc[1:] != tc[:-1]
        b0, b1 = _runs(newb, n)
        r0, r1 = _runs(newr, n)
        if L >= 0:
            upper = ((kc >> L) & 1).astype(bool)
            low_w = np.where(upper, 0.0, wc)
            up_a = np.where(upper, ac, 0.0)
        else:
            low_w, up_a = wc, ac
        cL, cU = _cum0(low_w), _cum0(up_a)
        xs = cL[b1] - cL[r1]
        ys = cU[r0] - cU[b0]
        if tec:
            cLC = _cum0(np.where(cc, low_w, 0.0))
            xs += cLC[r1] - cLC[r0]
            ys += np.where(cc, cU[r1] - cU[r0], 0.0)
        if L < 0:
            Xc += 0.5 * xs
            Yc += 0.5 * ys
            break
        Xc += np.where(upper, xs, 0.0)
        Yc += np.where(upper, 0.0, ys)
        cz = _cum0(~upper)
        zb = cz[:-1] - cz[b0]  # lower-half rows before this one in its block
        newpos = b0 + np.where(upper, (cz[b1] - cz[b0]) + (pos - b0) - zb, zb)
        fields = []
        for f in (kc, tc, wc, ac, cc, cur, Xc, Yc):
            moved = np.empty_like(f)
            moved[newpos] = f
            fields.append(moved)
        kc, tc, wc, ac, cc, cur, Xc, Yc = fields
    dNa = np.empty(n)
    dNb = np.empty(n)
    dNa[cur] = np.where(cc, 0.0, Xc)
    dNb[cur] = Yc
    dNa *= a
    return float(np.dot(wt, dNa)), float(np.dot(wt, dDa)), dNa + dNb, dDa + dDb
