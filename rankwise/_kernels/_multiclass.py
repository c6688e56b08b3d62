"""The sorts and counts behind the multiclass AUCs and the VUS, with two engines behind
one interface (as in :mod:`rankwise._kernels._merge`): numpy, the reference and the
fallback, and numba (``_numba_multiclass``), used when numba is installed and loaded
(for samples of at least :data:`rankwise._kernels._merge.MIN_ROWS` score entries, or
once any sample loaded it).

- :func:`score_levels`: one sort of a score vector, with each sorted position's level
  (dense rank, ties share one).
- :func:`class_pair_counts`: unweighted rows; on every score column ``i`` and for every pair of
  classes ``(i, j)``, the number of (class-i row, class-j row) pairs in order, ties 1/2.
- :func:`pooled_pair_count`: unweighted rows; the same count for the n K pooled entries,
  positive where the column is the row's class.
- :func:`ordered_chain_share`: unweighted rows; the VUS of ordered classes, compiled engine only
  (the numpy route is the chain count of :mod:`rankwise.metrics._vus`).
- :func:`vus_terms`: compiled engine only; the VUS and every row's placement (its share of
  the chains), one sort and two walks.
- :func:`class_terms`: compiled engine only; every row's terms of the one-vs-rest or
  one-vs-one standard errors (its placements, masses below plus half tied, read on each
  column) and the directed pair masses, one sort of each column.

numpy sorts with ``np.argsort``/``np.sort`` (O(n log n)); numba with a radix sort of the
scores' ordered 64-bit keys on the top 32 bits of their span (four passes), the keys left
out of order below those bits sorted after (O(n) in all: a key is in one such group), carrying
each entry's class, then one counting pass. The unweighted counts are exact integers on
both engines (halved at the end), so both give the same floats; weighted placements
differ at most in the order of the additions within one tied score.
"""

from __future__ import annotations

import numpy as np

from ._merge import _compiled, level_counts

__all__ = ["score_levels", "class_pair_counts", "pooled_pair_count", "ordered_chain_share", "class_terms", "vus_terms"]


def _fast(entries: int):
    """The compiled module, or None (numba missing, the numpy engine selected, or not
    loaded yet and ``entries`` below the loading threshold)."""
    if _compiled(entries) is None:
        return None
    try:
        from . import _numba_multiclass
    except ImportError:  # pragma: no cover - numba found but not importable
        return None
    return _numba_multiclass


def _bits(x: np.ndarray) -> tuple[np.ndarray, int] | None:
    """Real scores ``x`` as 64 bits and their kind (0 float64, 1 int64, 2 uint64), exactly
    (narrower floats and integers widened, a view when already 64 bits); None for another
    dtype (objects)."""
    kind = x.dtype.kind
    if kind == "b":
        x, kind = x.astype(np.int64), "i"
    elif kind == "f" and x.dtype.itemsize <= 8:
        x = x.astype(np.float64, copy=False)
    elif kind in "iu" and x.dtype.itemsize <= 8:
        x = x.astype(np.int64 if kind == "i" else np.uint64, copy=False)
    else:
        return None
    if not x.dtype.isnative:
        x = x.astype(x.dtype.newbyteorder("="))
    return x.view(np.uint64), "fiu".index(kind)


def score_levels(x: np.ndarray) -> tuple[np.ndarray, np.ndarray, int]:
    """One sort of ``x`` (1-D, no NaN): ``(order, lev, L)``, ``order`` the permutation that
    sorts ``x`` (any order among ties), ``lev[i]`` the level of ``x[order[i]]`` (0 for the
    smallest score, +1 at each larger one), ``L`` the number of distinct scores."""
    n = x.shape[0]
    fast = _fast(n)
    u = _bits(x) if fast is not None and n > 0 else None
    if u is None:
        order = np.argsort(x)
        xs = x[order]
        step = np.empty(n, dtype=np.intp)
        step[:1] = 0
        np.not_equal(xs[1:], xs[:-1], out=step[1:], casting="unsafe")
        lev = np.cumsum(step, out=step)
        return order, lev, int(lev[-1]) + 1 if n else 0
    keys, kbuf = np.empty(n, dtype=np.uint64), np.empty(n, dtype=np.uint64)
    order, pbuf = np.empty(n, dtype=np.intp), np.empty(n, dtype=np.intp)
    L = fast.sorted_levels_into(*u, keys, order, kbuf, pbuf)
    return order, keys.view(np.intp), int(L)


def _class_buffers(m: int, K: int):
    """Keys, classes and their scratch for a sort of ``m`` entries of ``K`` classes."""
    dt = np.uint8 if K <= 256 else np.int64
    return np.empty(m, dtype=np.uint64), np.empty(m, dtype=dt), np.empty(m, dtype=np.uint64), np.empty(m, dtype=dt)


def class_pair_counts(S: np.ndarray, codes: np.ndarray, K: int) -> np.ndarray:
    """Unweighted rows of ``S`` (n, K) float64 with class ``codes`` (0..K-1): ``num[i, j]``,
    on score column ``i``, the number of (class-i row, class-j row) pairs with the class-i
    row above, ties 1/2 (``num[i, i] = 0``). One sort of each column."""
    n = S.shape[0]
    fast = _fast(n * K)
    u = _bits(S) if fast is not None else None
    if u is None:
        return _pair_counts_numpy(S, codes, K)
    keys, cls, kbuf, cbuf = _class_buffers(n, K)
    num2 = np.empty((K, K), dtype=np.int64)
    fast.pair_counts_into(*u, codes.astype(cls.dtype), keys, cls, kbuf, cbuf, num2)
    return num2 / 2.0


def _pair_counts_numpy(S: np.ndarray, codes: np.ndarray, K: int) -> np.ndarray:
    # Class k's rows gathered once (a stable sort of the codes), transposed, each column
    # sorted; class i's distinct scores on column i counted against each class's sorted ones.
    order = np.argsort(codes, kind="stable")
    bounds = np.concatenate(([0], np.cumsum(np.bincount(codes, minlength=K))))
    blocks = [np.sort(S[order[bounds[k]:bounds[k + 1]]].T, axis=1) for k in range(K)]
    num = np.zeros((K, K))
    for i in range(K):
        xi = blocks[i][i]
        if xi.size == 0:
            continue
        new = np.empty(xi.shape[0], dtype=bool)
        new[0] = True
        np.not_equal(xi[1:], xi[:-1], out=new[1:])
        starts = np.flatnonzero(new)
        cnt = np.diff(np.append(starts, xi.shape[0]))
        for j in range(K):
            xj = blocks[j][i]
            if j == i or xj.size == 0:
                continue
            left, right = level_counts(xi[starts], xj)
            num[i, j] = int(np.dot(cnt, (left + right).astype(np.int64))) / 2.0
    return num


def pooled_pair_count(S: np.ndarray, codes: np.ndarray) -> float:
    """Unweighted rows: over the n K entries of ``S`` pooled, each positive where its
    column is the row's class, the number of (positive, negative) pairs in order, ties 1/2."""
    n, K = S.shape
    fast = _fast(n * K)
    u = _bits(S) if fast is not None else None
    if u is None:
        own = np.zeros(S.shape, dtype=bool)
        own[np.arange(n), codes] = True
        pos, neg = np.sort(S[own]), np.sort(S[~own])
        new = np.empty(pos.shape[0], dtype=bool)
        new[:1] = True
        np.not_equal(pos[1:], pos[:-1], out=new[1:])
        starts = np.flatnonzero(new)
        cnt = np.diff(np.append(starts, pos.shape[0]))
        left, right = level_counts(pos[starts], neg)
        return int(np.dot(cnt, (left + right).astype(np.int64))) / 2.0
    return int(fast.micro_count2(*u, codes.astype(np.intp, copy=False), *_class_buffers(n * K, 2))) / 2.0


def ordered_chain_share(score: np.ndarray, codes: np.ndarray, K: int) -> float | None:
    """Unweighted rows, every class of ``0..K-1`` present: the VUS (HUM) of the ordered
    classes, ties broken at random (:func:`rankwise.vus`); None when the compiled engine
    is not in use (the caller counts with numpy)."""
    n = score.shape[0]
    fast = _fast(n)
    u = _bits(score) if fast is not None else None
    if u is None:
        return None
    inv = 1.0 / np.bincount(codes, minlength=K).astype(np.float64)
    fact = np.ones(K + 1)
    for j in range(2, K + 1):
        fact[j] = fact[j - 1] / j
    keys, cls, kbuf, cbuf = _class_buffers(n, K)
    return float(fast.chain_share(*u, codes.astype(cls.dtype), inv, fact, keys, cls, kbuf, cbuf))


def class_terms(S: np.ndarray, codes: np.ndarray, K: int, w: np.ndarray | None, mass: np.ndarray,
                ovo: bool, full: bool = True) -> tuple[np.ndarray, ...] | None:
    """The per-row terms of the one-vs-rest (``ovo=False``) or one-vs-one standard errors
    of ``S`` (n, K; no NaN) with class ``codes`` (0..K-1), weights ``w`` (or None) and the
    class masses ``mass``, compiled engine only (None otherwise: the caller builds them
    with numpy, :mod:`rankwise.stats._multiclass`). One sort of each column.

    Returns ``(H, num, pairs, off, order)``: the rows grouped by class in ``order`` (each class's
    rows in row order; class ``c`` at ``off[c]:off[c + 1]``); ``H`` their terms by that
    order, one row per component, (K, n) one-vs-rest (row k: the terms of class k's AUC),
    (K - 1, n) one-vs-one (for a row of class ``c``, row ``d`` (less one when ``d > c``):
    its term of the pair (c, d), the average of its placements in the two directed AUCs); ``num``
    (K, K) the directed pair masses, ``num[k, j]`` the (class-k row, class-j row) pairs in
    order on column ``k``, ties 1/2 (zeros one-vs-rest unless ``full``); ``pairs`` (K,),
    one-vs-rest only, its sums over ``j != k`` (class k above the rest), all the
    one-vs-rest values read."""
    n = S.shape[0]
    fast = _fast(n * K)
    u = _bits(S) if fast is not None and n > 0 and 2 <= K <= 256 and n < 1 << 32 else None
    if u is None:
        return None
    codes = codes.astype(np.intp, copy=False)
    pos, cpos, off, order = fast.class_positions(codes, K)
    weighted = w is not None
    wpos = np.ascontiguousarray(w[order], dtype=np.float64) if weighted else np.empty(1)
    mass = np.ascontiguousarray(mass, dtype=np.float64)
    with np.errstate(divide="ignore"):
        inv_mass = 1.0 / mass
    H = np.empty((K - 1 if ovo else K, n))  # every entry is written (once)
    H2 = np.empty_like(H) if ovo else np.empty((1, 1))
    num, pairs = np.empty((K, K)), np.empty(K)
    keys, kbuf = np.empty(n, dtype=np.uint64), np.empty(n, dtype=np.uint64)
    pay, pbuf = np.empty(n, dtype=np.uint32), np.empty(n, dtype=np.uint32)
    cnt, m = np.empty(K), np.empty(K)
    for k in range(K):
        fast.class_terms_into(*u, k, pos, cpos, wpos, weighted, mass, inv_mass, ovo, full or ovo, keys, pay, kbuf, pbuf,
                              cnt, m, H, H2, num, pairs)
    if ovo:
        H += H2
    return H, num, pairs, off, order


def vus_terms(score: np.ndarray, codes: np.ndarray, K: int, w: np.ndarray | None,
              mass: np.ndarray) -> tuple[float, np.ndarray, np.ndarray, np.ndarray] | None:
    """The VUS (HUM) of ordered classes ``codes`` (0..K-1, every class with positive
    ``mass``) on one score (1-D, no NaN), weights ``w`` (or None), and every row's
    placement (the share of the chains through it), compiled engine only (None
    otherwise: the caller counts with numpy). One sort, a forward and a backward walk.

    Returns ``(theta, V, off, order)``: the rows grouped by class in ``order`` (each
    class's rows in row order, class ``c`` at ``off[c]:off[c + 1]``) and ``V`` their
    placements in that order."""
    n = score.shape[0]
    fast = _fast(n)
    u = _bits(score) if fast is not None and n > 0 and 2 <= K <= 256 and n < 1 << 32 else None
    if u is None:
        return None
    pos, cpos, off, order = fast.class_positions(codes.astype(np.intp, copy=False), K)
    weighted = w is not None
    wpos = np.ascontiguousarray(w[order], dtype=np.float64) if weighted else np.empty(1)
    inv_tot = 1.0 / np.asarray(mass, dtype=np.float64)
    fact = np.ones(K + 1)
    for j in range(2, K + 1):
        fact[j] = fact[j - 1] / j
    V = np.empty(n)
    keys, kbuf = np.empty(n, dtype=np.uint64), np.empty(n, dtype=np.uint64)
    pay, pbuf = np.empty(n, dtype=np.uint32), np.empty(n, dtype=np.uint32)
    # Fs: one row per score shared by two classes or more (at most n / 2; pages never
    # written are never touched)
    theta = fast.vus_terms_into(*u, pos, cpos, wpos, weighted, inv_tot, fact, keys, pay, kbuf, pbuf,
                                np.empty(n), np.empty((n // 2 + 1, K + 1)), V)
    return float(theta), V, off, order
