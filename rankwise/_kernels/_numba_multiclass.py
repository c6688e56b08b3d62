"""The compiled engine of :mod:`rankwise._kernels._multiclass` (numba, optional).

Imported only when :func:`rankwise._kernels._merge._compiled` selects numba; each
function is compiled once per input type and cached on disk (``cache=True``). Every
function here has a numpy twin in ``_multiclass`` that is the reference.

Every count here is one sort and one pass. The sort is a radix sort of 64-bit keys that
increase with the scores (a float's bits with the sign bit flipped for non-negative
values and every bit flipped for negative ones, -0.0 as +0.0; an int64's sign bit
flipped), carrying a payload (each entry's class, or its row). The keys' span (largest
less smallest) is sorted on its top 32 bits, least significant digit first, eight bits a
pass (a pass is skipped when every key shares its digit); keys that agree on those bits
and came out of order are then sorted in place (by insertion when a group is small, else
by a radix sort of the bits below): a few small groups in continuous data, none when the
span fits 32 bits. Four passes over the keys where a full radix sort takes seven or
eight, and exact in every case (the sort and its fix-up see every bit). The pass then
reads the sorted keys (equal keys are equal scores) and the payload.
"""

from __future__ import annotations

import numba as nb
import numpy as np

_SIGN = np.uint64(1) << np.uint64(63)
_ALL = np.uint64(0xFFFFFFFFFFFFFFFF)
_BYTE = np.uint64(255)
#: Below this many keys a range is sorted by insertion.
_SMALL = 48
#: The bits of the keys' span sorted by the radix passes (a multiple of 8).
_TOP = 32


@nb.njit(inline="always")
def _key(v, kind):  # pragma: no cover - compiled
    """The ordered key of a score given by its 64 bits ``v`` (a uint64): ``x < y`` iff
    ``key(x) < key(y)``. ``kind`` 0: a float64 (never a NaN; -0.0 as +0.0), 1: an int64,
    2: a uint64."""
    if kind == 0:
        if v == _SIGN:
            v = np.uint64(0)
        return v ^ (_ALL if v & _SIGN else _SIGN)
    if kind == 1:
        return v ^ _SIGN
    return v


# --- the sort ---------------------------------------------------------------------------------

@nb.njit(inline="always")
def _insertion(keys, pay, lo, hi):  # pragma: no cover - compiled
    for i in range(lo + 1, hi):
        v = keys[i]
        if keys[i - 1] <= v:
            continue
        p = pay[i]
        j = i - 1
        while j >= lo and keys[j] > v:
            keys[j + 1] = keys[j]
            pay[j + 1] = pay[j]
            j -= 1
        keys[j + 1] = v
        pay[j + 1] = p


@nb.njit(inline="always")
def _span(keys, lo, hi):  # pragma: no cover - compiled
    """The smallest key of ``keys[lo:hi]`` and the bit length of the largest less it."""
    kmin = keys[lo]
    kmax = keys[lo]
    for i in range(lo + 1, hi):
        k = keys[i]
        kmin = min(kmin, k)
        kmax = max(kmax, k)
    span = kmax - kmin
    bits = 0
    while span > 0:
        bits += 1
        span >>= np.uint64(1)
    return kmin, bits


@nb.njit(inline="always")
def _lsd(keys, pay, kbuf, pbuf, lo, hi, kmin, shift, D):  # pragma: no cover - compiled
    """Stable LSD radix sort of ``keys[lo:hi]`` (carrying ``pay``) on ``D`` bytes of
    ``(key - kmin) >> shift``; the result left in ``keys``/``pay``."""
    m = hi - lo
    hist = np.zeros((D, 256), dtype=np.int64)
    s0 = np.uint64(shift)
    for i in range(lo, hi):
        k = (keys[i] - kmin) >> s0
        for d in range(D):
            hist[d, (k >> np.uint64(8 * d)) & _BYTE] += 1
    src_k, src_p, dst_k, dst_p = keys, pay, kbuf, pbuf
    moved = False
    pos = np.empty(256, dtype=np.int64)
    first = (keys[lo] - kmin) >> s0
    for d in range(D):
        if hist[d, (first >> np.uint64(8 * d)) & _BYTE] == m:
            continue
        sh = np.uint64(shift + 8 * d)
        c = lo
        for b in range(256):
            pos[b] = c
            c += hist[d, b]
        for i in range(lo, hi):
            k = src_k[i]
            b = ((k - kmin) >> sh) & _BYTE
            j = pos[b]
            pos[b] = j + 1
            dst_k[j] = k
            dst_p[j] = src_p[i]
        src_k, src_p, dst_k, dst_p = dst_k, dst_p, src_k, src_p
        moved = not moved
    if moved:
        keys[lo:hi] = kbuf[lo:hi]
        pay[lo:hi] = pbuf[lo:hi]


@nb.njit(inline="always")
def _sort_exact(keys, pay, kbuf, pbuf, lo, hi):  # pragma: no cover - compiled
    if hi - lo < _SMALL:
        _insertion(keys, pay, lo, hi)
        return
    kmin, bits = _span(keys, lo, hi)
    if bits > 0:
        _lsd(keys, pay, kbuf, pbuf, lo, hi, kmin, 0, (bits + 7) // 8)


@nb.njit(cache=True, nogil=True)
def sort_pairs(keys, pay, kbuf, pbuf):  # pragma: no cover - compiled
    """Sort ``keys`` carrying ``pay`` (equal keys in any order); ``kbuf``/``pbuf`` scratch
    of the same sizes. The top 32 bits of the span by radix passes, then the groups that
    agree on them and are out of order sorted in place."""
    n = keys.shape[0]
    if n < _SMALL:
        _insertion(keys, pay, 0, n)
        return
    kmin, bits = _span(keys, 0, n)
    if bits <= _TOP:
        if bits > 0:
            _lsd(keys, pay, kbuf, pbuf, 0, n, kmin, 0, (bits + 7) // 8)
        return
    shift = bits - _TOP
    _lsd(keys, pay, kbuf, pbuf, 0, n, kmin, shift, _TOP // 8)
    sh = np.uint64(shift)
    i = 1
    while i < n:
        if keys[i] >= keys[i - 1]:
            i += 1
            continue
        h = (keys[i] - kmin) >> sh  # keys[i - 1] shares it: they are in one group
        a = i - 1
        while a > 0 and ((keys[a - 1] - kmin) >> sh) == h:
            a -= 1
        b = i + 1
        while b < n and ((keys[b] - kmin) >> sh) == h:
            b += 1
        _sort_exact(keys, pay, kbuf, pbuf, a, b)
        i = b


# --- the passes -------------------------------------------------------------------------------

@nb.njit(inline="always")
def _fill_column(S, kind, col, codes, keys, cls):  # pragma: no cover - compiled
    for t in range(S.shape[0]):
        keys[t] = _key(S[t, col], kind)
        cls[t] = codes[t]


@nb.njit(inline="always")
def _class_pass(keys, cls, own, cnt, m, acc2):  # pragma: no cover - compiled
    """Over keys sorted with their classes ``cls``: ``acc2[j] +=`` twice the number of
    (class-``own`` entry, class-j entry) pairs with the former above, plus once those tied.
    ``cnt``, ``m``: zeroed scratch of K counts."""
    n = keys.shape[0]
    K = cnt.shape[0]
    a = 0
    while a < n:
        k = keys[a]
        b = a + 1
        while b < n and keys[b] == k:
            b += 1
        if b == a + 1:  # an untied score: the rows below are all of cnt
            c = cls[a]
            if c == own:
                for j in range(K):
                    acc2[j] += 2 * cnt[j]
            cnt[c] += 1
        else:
            for t in range(a, b):
                m[cls[t]] += 1
            mi = m[own]
            if mi > 0:
                for j in range(K):
                    acc2[j] += mi * (2 * cnt[j] + m[j])
            for t in range(a, b):
                c = cls[t]
                cnt[c] += m[c]
                m[c] = 0
        a = b


@nb.njit(cache=True, nogil=True)
def pair_counts_into(S, kind, codes, keys, cls, kbuf, cbuf, num2):  # pragma: no cover - compiled
    """Unweighted rows; ``S``: the (n, K) scores' 64 bits (``kind`` as in :func:`_key`),
    ``codes`` the rows' classes (as ``cls``' dtype). ``num2[i, j]``: on score column
    ``i``, twice the number of (class-i row, class-j row) pairs with the class-i row above,
    plus once those tied (``num2[i, i] = 0``). Per column: a sort with the classes, one
    pass."""
    K = S.shape[1]
    cnt = np.zeros(K, dtype=np.int64)
    m = np.zeros(K, dtype=np.int64)
    for i in range(K):
        _fill_column(S, kind, i, codes, keys, cls)
        sort_pairs(keys, cls, kbuf, cbuf)
        cnt[:] = 0
        num2[i, :] = 0
        _class_pass(keys, cls, i, cnt, m, num2[i])
        num2[i, i] = 0


@nb.njit(cache=True, nogil=True)
def micro_count2(S, kind, codes, keys, cls, kbuf, cbuf):  # pragma: no cover - compiled
    """Unweighted rows (``S``: the scores' bits): the n K entries pooled, class 1 where
    the column is the row's class, else 0. Twice the number of (class-1 entry, class-0
    entry) pairs in order plus once those tied (an exact integer)."""
    n, K = S.shape
    p = 0
    for t in range(n):
        c = codes[t]
        for i in range(K):
            keys[p] = _key(S[t, i], kind)
            cls[p] = 1 if i == c else 0
            p += 1
    sort_pairs(keys, cls, kbuf, cbuf)
    cnt = np.zeros(2, dtype=np.int64)
    m = np.zeros(2, dtype=np.int64)
    acc2 = np.zeros(2, dtype=np.int64)
    _class_pass(keys, cls, 1, cnt, m, acc2)
    return acc2[0]


@nb.njit(inline="always")
def _add(F, E, c, x):  # pragma: no cover - compiled
    # F[c] += x, Neumaier's compensated sum (the lost low bits kept in E[c])
    s = F[c]
    t = s + x
    if abs(s) >= abs(x):
        E[c] += (s - t) + x
    else:
        E[c] += (x - t) + s
    F[c] = t


@nb.njit(cache=True, nogil=True)
def chain_share(score, kind, codes, inv_tot, fact, keys, cls, kbuf, cbuf):  # pragma: no cover - compiled
    """Unweighted rows (``score``: the scores' bits): the VUS (HUM) of ordered classes
    0..K-1 (every class present; ``inv_tot[c]`` = 1 / size of class c; ``fact[j]`` =
    1 / j!). One sort with the classes, then one walk over the distinct scores in
    increasing order keeping ``F[c]``, the share of chains of classes 0..c-1 strictly
    below the current score (compensated sums). At a score holding the shares ``m[c]``,
    the chains of classes 0..c gain ``sum_j F[c+1-j] / j! prod(m[c-j+1..c])``: the last
    j members tied there."""
    n = score.shape[0]
    K = inv_tot.shape[0]
    for t in range(n):
        keys[t] = _key(score[t], kind)
        cls[t] = codes[t]
    sort_pairs(keys, cls, kbuf, cbuf)
    F = np.zeros(K + 1)
    E = np.zeros(K + 1)  # compensation terms of F
    F[0] = 1.0
    cntm = np.zeros(K, dtype=np.int64)
    m = np.zeros(K)
    D = np.zeros(K + 1)
    a = 0
    while a < n:
        k = keys[a]
        b = a + 1
        while b < n and keys[b] == k:
            b += 1
        if b == a + 1:  # untied: only the chains ending at this row's class grow
            c = cls[a]
            _add(F, E, c + 1, (F[c] + E[c]) * inv_tot[c])
            a = b
            continue
        for t in range(a, b):
            cntm[cls[t]] += 1
        for c in range(K):
            m[c] = cntm[c] * inv_tot[c]
            cntm[c] = 0
        for c in range(1, K + 1):
            d = 0.0
            prod = 1.0
            for j in range(1, c + 1):
                prod *= m[c - j]
                if prod == 0.0:
                    break
                d += (F[c - j] + E[c - j]) * prod * fact[j]
            D[c] = d
        for c in range(1, K + 1):
            if D[c] != 0.0:
                _add(F, E, c, D[c])
        a = b
    return F[K] + E[K]


@nb.njit(cache=True, nogil=True)
def sorted_levels_into(x, kind, keys, perm, kbuf, pbuf):  # pragma: no cover - compiled
    """Argsort the scores ``x`` (their 64 bits, ``kind`` as in :func:`_key`): ``perm``
    gets the order; ``keys`` the level of each sorted position (dense rank, ties share one;
    as int64 bits). Returns the number of levels."""
    n = x.shape[0]
    for i in range(n):
        keys[i] = _key(x[i], kind)
        perm[i] = i
    sort_pairs(keys, perm, kbuf, pbuf)
    lev = keys.view(np.int64)
    prev = keys[0]
    L = 0
    lev[0] = 0
    for i in range(1, n):
        k = keys[i]
        if k != prev:
            L += 1
            prev = k
        lev[i] = L
    return L + 1


@nb.njit(cache=True, nogil=True)
def class_placements_into(x, kind, codes, w, weighted, k, keys, pay, kbuf, pbuf, own, Bk):  # pragma: no cover
    """One score column (``x``: the scores' bits), classes ``codes`` (0..K-1, K <= 256),
    weights ``w`` (read when ``weighted``). ``own[r]``: the mass of class ``k`` below row
    r's score plus half of it at that score; ``Bk[i, j]``: for the i-th class-k row (in row
    order), the mass of class j below its score plus half of it there. One sort of the
    keys carrying each row's class and index (``index << 8 | class``; the index is the
    row's rank among the class-k rows for those, else the row: nothing is read at random
    after the sort but the weights), one pass over the runs of equal scores."""
    n = x.shape[0]
    K = Bk.shape[1]
    c_k = 0
    for r in range(n):
        keys[r] = _key(x[r], kind)
        c = codes[r]
        if c == k:
            pay[r] = (c_k << 8) | c
            c_k += 1
        else:
            pay[r] = (r << 8) | c
    sort_pairs(keys, pay, kbuf, pbuf)
    # cnt: the masses up to and including the current run; a placement is cnt - m / 2 (as
    # a cumulative sum less half the level's mass, the numpy twin's arithmetic)
    cnt = np.zeros(K)
    m = np.zeros(K)
    rows_k = np.empty(c_k, dtype=np.int64) if weighted else np.empty(0, dtype=np.int64)
    if weighted:
        c_k = 0
        for r in range(n):
            if codes[r] == k:
                rows_k[c_k] = r
                c_k += 1
    a = 0
    while a < n:
        key = keys[a]
        b = a + 1
        while b < n and keys[b] == key:
            b += 1
        if b == a + 1:
            p = pay[a]
            i = p >> 8
            c = p & 255
            wr = (w[rows_k[i]] if c == k else w[i]) if weighted else 1.0
            cnt[c] += wr
            if c == k:
                for j in range(K):
                    Bk[i, j] = cnt[j]
                Bk[i, k] = cnt[k] - 0.5 * wr
            else:
                own[i] = cnt[k]
            a = b
            continue
        for t in range(a, b):
            p = pay[t]
            i = p >> 8
            c = p & 255
            m[c] += (w[rows_k[i]] if c == k else w[i]) if weighted else 1.0
        for j in range(K):
            cnt[j] += m[j]
        for t in range(a, b):
            p = pay[t]
            i = p >> 8
            if (p & 255) == k:
                for j in range(K):
                    Bk[i, j] = cnt[j] - 0.5 * m[j]
            else:
                own[i] = cnt[k] - 0.5 * m[k]
        for j in range(K):
            m[j] = 0.0
        a = b
    c_k = 0
    for r in range(n):  # the class-k rows' own placements: their Bk[:, k]
        if codes[r] == k:
            own[r] = Bk[c_k, k]
            c_k += 1
