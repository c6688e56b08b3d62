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
The numpy twin goes bit by bit of the risk ranks, from the top, keeping the rows in
(stratum, bits above the level, time) order: within a block, an event with the level's bit
set is above every row without it, and its partners among those are the rows after its
time, a cumulative sum; after the last bit, the pairs of one risk count 1/2. Both take
O(n) memory; sums are float64 (with integer weights every partial sum is exact).
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


def _counts_compiled(fast, time, event, risk, w, a, strata, tec, mode: int = 0) -> tuple:
    """The compiled engine: radix sorts by (stratum, time) and by risk, then one sweep with
    a tree of weights over the risk ranks (Fenwick, or plain sums when there are few times
    or risks; ``mode`` 1 or 2 forces one, for the tests). ``w``, ``a``, ``strata`` may be
    None."""
    n = time.shape[0]
    empty = np.empty(0)
    w = empty if w is None else np.ascontiguousarray(w, dtype=np.float64)
    a = empty if a is None else np.ascontiguousarray(a, dtype=np.float64)
    codes, S = _codes(strata, n)
    if codes is None:
        codes = np.empty(0, dtype=np.int64)
    dN, dD = np.empty(n), np.empty(n)
    N, D = fast.censored_counts_into(
        np.ascontiguousarray(time, dtype=np.float64), np.ascontiguousarray(event, dtype=np.bool_),
        np.ascontiguousarray(risk, dtype=np.float64), w, a, codes, S, bool(tec), int(mode),
        *(np.empty(n, dtype=np.uint64) for _ in range(3)), *(np.empty(n, dtype=np.int64) for _ in range(4)),
        np.empty(n, dtype=np.bool_),
        np.empty(w.shape[0]), np.empty(a.shape[0]), np.empty(codes.shape[0], dtype=np.int64), np.empty(n), dN, dD)
    return float(N), float(D), dN, dD


def _counts_numpy(time, event, risk, wt, a, s, tec) -> tuple:
    """Bit by bit of the risk ranks, from the top: O(n log R) after the sorts, in whole-array
    steps."""
    n = time.shape[0]
    rho, R = _dense(risk)
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
