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
def class_positions(codes, K):  # pragma: no cover - compiled
    """Rows grouped by class, each class's rows in row order: ``pos[r]`` the row's position
    (uint32), ``cpos[p]`` the class at position ``p`` (uint8), ``off`` (K + 1) where each
    class's positions start, ``order[p]`` the row at position ``p``."""
    n = codes.shape[0]
    off = np.zeros(K + 1, dtype=np.int64)
    for r in range(n):
        off[codes[r] + 1] += 1
    for c in range(K):
        off[c + 1] += off[c]
    nxt = off[:K].copy()
    pos = np.empty(n, dtype=np.uint32)
    cpos = np.empty(n, dtype=np.uint8)
    order = np.empty(n, dtype=np.intp)
    for r in range(n):
        c = codes[r]
        p = nxt[c]
        nxt[c] = p + 1
        pos[r] = p
        cpos[p] = c
        order[p] = r
    return pos, cpos, off, order


@nb.njit(cache=True, nogil=True)
def class_terms_into(S, kind, k, pos, cpos, wpos, weighted, mass, inv_mass, ovo, full, keys, pay, kbuf, pbuf,
                     cnt, m, H, H2, num, pairs):  # pragma: no cover - compiled
    """Score column ``k`` of ``S`` (the (n, K) scores' bits, ``kind`` as in :func:`_key`),
    rows at class-grouped positions ``pos`` (classes ``cpos``, weights ``wpos`` by position
    when ``weighted``; class masses ``mass`` and their inverses ``inv_mass``, inf for an
    absent class). One sort carrying each row's position, one pass over the runs of equal
    scores; a placement is the mass below plus half the mass at the row's score (``cnt``
    the masses below the run, ``m`` the run's).

    ``num[k, j]``: the mass of (class-k row, class-j row) pairs in order, ties 1/2 (the
    directed counts of column ``k``; left 0 one-vs-rest unless ``full``), ``pairs[k]``
    their sum over ``j != k`` (class k against the rest; one-vs-rest only). ``H`` (K, n) one-vs-rest, by position (a component's
    terms contiguous: the writes of one column's pass stay within a few class ranges, which
    the cache holds, where an (n, K) array scatters them over all of it): row ``k`` of
    each row's term of class k's AUC, the share of the rest below a class-k row (over the
    rest's mass) and ``W_c / W_rest`` times the share of class ``k`` above a class-c row.
    One-vs-one, ``H`` and ``H2`` (K - 1, n): for a row of class ``c``, the entry of the
    pair (c, d) (``d`` less one when ``d > c``) gets in ``H`` half the share of class ``d``
    below it on column ``c`` and in ``H2`` half the share of class ``d`` above it on column
    ``d``: the two directed AUCs of the pair, each read on its own column; its term is
    their sum. (Two arrays, each entry written once: adding in place would read entries at
    random.) ``H2`` is not read one-vs-rest."""
    n = S.shape[0]
    K = S.shape[1]
    for r in range(n):
        keys[r] = _key(S[r, k], kind)
        pay[r] = pos[r]
    sort_pairs(keys, pay, kbuf, pbuf)
    total = 0.0
    for j in range(K):
        cnt[j] = 0.0
        m[j] = 0.0
        num[k, j] = 0.0
        total += mass[j]
    rest = total - mass[k]
    inv_rest = 1.0 / rest if rest > 0 else np.inf
    # A row of class c != k: one-vs-rest term fac[c] - g[c] * (class k below), one-vs-one
    # 1/2 - hk * (class k below). The class-k mass below (ck), every class's (below) and
    # class k's pairs against the rest (pk) are kept in registers; cnt[j], the other
    # classes' masses below, only where read (one-vs-one and ``full``).
    fac = np.empty(K)
    g = np.empty(K)
    for c in range(K):
        fac[c] = mass[c] * inv_rest
        g[c] = fac[c] * inv_mass[k]
    hk = 0.5 * inv_mass[k]
    hm = 0.5 * inv_mass
    ck = 0.0
    below = 0.0
    pk = 0.0
    wr = 1.0
    a = 0
    while a < n:
        b = a + 1
        if b < n and keys[b] == keys[a]:
            while b < n and keys[b] == keys[a]:
                b += 1
            cnt[k] = ck
            ck, below, pk = _tied_run(a, b, k, keys, pay, cpos, wpos, weighted, ovo, full, cnt, m, fac, g, hk,
                                      inv_mass, inv_rest, H, H2, num, below, pk)
            a = b
            continue
        # an untied score (the common case)
        p = pay[a]
        c = cpos[p]
        if weighted:
            wr = wpos[p]
        if c != k:
            if ovo:
                H2[k - 1 if k > c else k, p] = 0.5 - hk * ck
                cnt[c] += wr
            else:
                H[k, p] = fac[c] - g[c] * ck
                if full:
                    cnt[c] += wr
        elif not full:  # one-vs-rest: the rest below is all below less class k
            sk = below - ck
            pk += wr * sk
            H[k, p] = sk * inv_rest
            ck += wr
        elif ovo:  # a class-k row: its placement against every other class (pair rows j, less one past k)
            for j in range(k):
                bj = cnt[j]
                num[k, j] += wr * bj
                H[j, p] = hm[j] * bj
            num[k, k] += wr * (ck + 0.5 * wr)
            for j in range(k + 1, K):
                bj = cnt[j]
                num[k, j] += wr * bj
                H[j - 1, p] = hm[j] * bj
            ck += wr
        else:
            sk = 0.0
            for j in range(K):
                if j == k:
                    num[k, j] += wr * (ck + 0.5 * wr)
                    continue
                bj = cnt[j]
                num[k, j] += wr * bj
                sk += bj
            pk += wr * sk
            H[k, p] = sk * inv_rest
            ck += wr
        below += wr
        a = b
    pairs[k] = pk


@nb.njit
def _tied_run(a, b, k, keys, pay, cpos, wpos, weighted, ovo, full, cnt, m, fac, g, hk, inv_mass, inv_rest,
              H, H2, num, below, pk):  # pragma: no cover - compiled
    """:func:`class_terms_into` on the run ``a:b`` of tied scores (``cnt[k]`` current):
    every row's placement is the mass below plus half the run's. Returns the class-k
    mass, every class's mass and class k's pairs against the rest after the run."""
    K = cnt.shape[0]
    for t in range(a, b):
        p = pay[t]
        m[cpos[p]] += wpos[p] if weighted else 1.0
    mt = 0.0
    for j in range(K):
        mt += m[j]
    own = cnt[k] + 0.5 * m[k]  # class k's mass below plus half at this score
    for t in range(a, b):
        p = pay[t]
        c = cpos[p]
        if c == k:
            wr = wpos[p] if weighted else 1.0
            if not full:
                sk = below + 0.5 * mt - own
            else:
                sk = 0.0
                for j in range(K):
                    bj = cnt[j] + 0.5 * m[j]
                    num[k, j] += wr * bj
                    if j != k:
                        sk += bj
                        if ovo:
                            H[j - 1 if j > k else j, p] = 0.5 * bj * inv_mass[j]
            pk += wr * sk
            if not ovo:
                H[k, p] = sk * inv_rest
        elif ovo:
            H2[k - 1 if k > c else k, p] = 0.5 - hk * own
        else:
            H[k, p] = fac[c] - g[c] * own
    for j in range(K):
        cnt[j] += m[j]
        m[j] = 0.0
    return cnt[k], below + mt, pk


@nb.njit(inline="always")
def _run_shares(a, b, pay, cpos, wpos, weighted, inv_tot, m):  # pragma: no cover - compiled
    """The class shares ``m`` of the rows ``a:b`` of a run (zeroed first); the number of
    classes present."""
    K = m.shape[0]
    for c in range(K):
        m[c] = 0.0
    for t in range(a, b):
        p = pay[t]
        c = cpos[p]
        m[c] += (wpos[p] if weighted else 1.0) * inv_tot[c]
    present = 0
    for c in range(K):
        if m[c] != 0.0:
            present += 1
    return present


@nb.njit(cache=True, nogil=True)
def vus_terms_into(x, kind, pos, cpos, wpos, weighted, inv_tot, fact, keys, pay, kbuf, pbuf, fw, Fs, V):  # pragma: no cover
    """The VUS (HUM) of ordered classes 0..K-1 and every row's placement: the share of the
    chains (one row of each class, in increasing score) through it. ``x``: the scores'
    bits (``kind`` as in :func:`_key`); rows at class-grouped positions ``pos`` (classes
    ``cpos``, weights by position ``wpos`` when ``weighted``); ``inv_tot[c]`` one over
    class c's mass; ``fact[j] = 1 / j!``. Scratch: ``fw`` (n,), ``Fs`` (at least the
    number of scores held by two classes or more, K + 1). ``V`` (n,) gets each position's
    placement. Returns the VUS.

    One sort carrying the positions; a forward walk over the distinct scores keeps
    ``F[c]``, the share of chains of classes 0..c-1 strictly below the score (as
    :func:`chain_share`, plain sums), and stores the row's own ``F[c]`` per sorted row
    (the whole of ``F`` at a score several classes share); a backward walk keeps ``G[c]``,
    the chains of classes c..K-1 strictly above. A row of class c at a score lies on
    ``F[c] G[c+1]`` chains with no other member at its score, plus, where classes a..b
    (a <= c <= b, a < b) all hold rows at the score, ``F[a] G[b+1] / (b-a+1)!`` times the
    shares of the other classes a..b there: the chains whose members of classes a..b are
    tied at the score, by the share of their tie-breakings in order."""
    n = x.shape[0]
    K = inv_tot.shape[0]
    for t in range(n):
        keys[t] = _key(x[t], kind)
        pay[t] = pos[t]
    sort_pairs(keys, pay, kbuf, pbuf)
    F = np.zeros(K + 1)
    F[0] = 1.0
    m = np.zeros(K)
    D = np.zeros(K + 1)
    ns = 0
    a = 0
    while a < n:
        b = a + 1
        while b < n and keys[b] == keys[a]:
            b += 1
        if b == a + 1:  # untied: only the chains ending at this row's class grow
            p = pay[a]
            c = cpos[p]
            fw[a] = F[c]
            F[c + 1] += F[c] * (wpos[p] if weighted else 1.0) * inv_tot[c]
            a = b
            continue
        for t in range(a, b):
            fw[t] = F[cpos[pay[t]]]
        if _run_shares(a, b, pay, cpos, wpos, weighted, inv_tot, m) >= 2:
            for c in range(K + 1):
                Fs[ns, c] = F[c]
            ns += 1
        for c in range(1, K + 1):
            d = 0.0
            prod = 1.0
            for j in range(1, c + 1):
                prod *= m[c - j]
                if prod == 0.0:
                    break
                d += F[c - j] * prod * fact[j]
            D[c] = d
        for c in range(1, K + 1):
            F[c] += D[c]
        a = b
    theta = F[K]
    G = np.zeros(K + 1)
    G[K] = 1.0
    T = np.zeros(K)
    b = n
    while b > 0:
        a = b - 1
        while a > 0 and keys[a - 1] == keys[b - 1]:
            a -= 1
        if b == a + 1:
            p = pay[a]
            c = cpos[p]
            V[p] = fw[a] * G[c + 1]
            G[c] += G[c + 1] * (wpos[p] if weighted else 1.0) * inv_tot[c]
            b = a
            continue
        if _run_shares(a, b, pay, cpos, wpos, weighted, inv_tot, m) < 2:
            for t in range(a, b):
                p = pay[t]
                V[p] = fw[t] * G[cpos[p] + 1]
        else:
            ns -= 1
            for c in range(K):
                T[c] = Fs[ns, c] * G[c + 1]
            for lo in range(K):
                for hi in range(lo + 1, K):
                    outer = Fs[ns, lo] * G[hi + 1] * fact[hi - lo + 1]
                    if outer == 0.0:
                        continue
                    for c in range(lo, hi + 1):
                        prod = 1.0
                        for e in range(lo, hi + 1):
                            if e != c:
                                prod *= m[e]
                        T[c] += outer * prod
            for t in range(a, b):
                p = pay[t]
                V[p] = T[cpos[p]]
        for c in range(K - 1, -1, -1):  # chains of classes c..K-1 with members at this score
            d = 0.0
            prod = 1.0
            for j in range(1, K - c + 1):
                prod *= m[c + j - 1]
                if prod == 0.0:
                    break
                d += G[c + j] * prod * fact[j]
            D[c] = d
        for c in range(K):
            G[c] += D[c]
        b = a
    return theta
