"""The class split and the merge count that build an unweighted rank table, with two
engines behind one interface.

An unweighted table needs each class's scores sorted and, for every member of one class,
how many members of the other class lie strictly below it (its pooled position minus
its own rank). Three steps, each linear except the sorts:

1. :func:`split_classes`: the scores of each class gathered into one buffer;
2. ``buffer.sort()`` on each class's part (numpy's SIMD sort, in place);
3. :func:`merge_below` (untied runs) or :func:`level_counts` (levels against the other
   class's sorted scores): a linear merge count.

The **numpy** engine is the reference and the fallback: boolean indexing for the split,
a stable argsort of the two concatenated runs (a timsort, linear on two runs) for the
merge, ``searchsorted`` for level counts. The **numba** engine (used when numba is
installed) does each step in one compiled pass; it is several times faster on the
split and the merge, which at 10^7 rows cost more than the sorts themselves in numpy.
``RANKWISE_ENGINE=numpy`` in the environment, or :func:`use_engine`, selects the
reference; any value other than ``numba`` or ``numpy`` (any case, spaces ignored) is a
ValueError naming them, raised at the first use of an engine (not at import, so the
CLI reports it in one line). Both give identical arrays. Byte order is made native at the
door (:func:`rankwise._validation.to_numpy`), so both see the same arrays.
"""

from __future__ import annotations

import os
from contextlib import contextmanager

import numpy as np

__all__ = ["engine", "use_engine", "split_classes", "merge_below", "level_counts", "terms_at", "terms_in_order",
           "class_orders"]

_state = {"name": None, "mod": None}

#: The compiled engine is loaded (numba's import and the cached machine code: about half a
#: second, once per process) for the first sample of at least this many rows; smaller
#: samples before it run on numpy, where the split and merge cost little anyway.
MIN_ROWS = 1 << 18


def _compiled(rows: int | None = None):
    """The numba module, or None (numba missing, the numpy engine selected, or not loaded
    yet and ``rows`` below :data:`MIN_ROWS`)."""
    name = _state["name"]
    if name is None:
        name = _env_engine()
        if name == "numba":
            from importlib.util import find_spec

            try:  # not imported here: loaded on the first large sample
                found = find_spec("numba") is not None
            except (ImportError, ValueError):
                found = False
            if not found:
                name = "numpy"
        _state["name"] = name
    if name != "numba":
        return None
    if _state["mod"] is None:
        if rows is not None and rows < MIN_ROWS:
            return None
        try:
            from . import _numba_merge
        except ImportError:  # found but not importable (e.g. a broken or blocked install)
            _state["name"] = "numpy"
            return None
        _state["mod"] = _numba_merge
    return _state["mod"]


ENGINES = ("numba", "numpy")


def _env_engine() -> str:
    """The engine named by ``RANKWISE_ENGINE`` (``"numba"`` when unset or empty); a
    ValueError naming the engines for any other value. Read at the first use of an engine,
    not at import, so that ``import rankwise`` (and the CLI's ``--help``) never fails on it."""
    raw = os.environ.get("RANKWISE_ENGINE", "")
    name = raw.strip().lower() or "numba"
    if name not in ENGINES:
        raise ValueError(f"The RANKWISE_ENGINE environment variable must be one of "
                         f"{', '.join(repr(e) for e in ENGINES)} (or unset). Got {raw!r} instead.")
    return name


def engine() -> str:
    """The engine in use on large samples: ``"numba"`` or ``"numpy"``."""
    _compiled(0)
    return _state["name"]


@contextmanager
def use_engine(name: str):
    """Run the enclosed code on the given engine (``"numba"`` needs numba installed)."""
    if name not in ENGINES:
        raise ValueError(f"Unknown engine {name!r}; expected 'numba' or 'numpy'.")
    saved = dict(_state)
    if name == "numba" and _state["mod"] is None:
        from . import _numba_merge

        _state["mod"] = _numba_merge
    _state["name"] = name
    try:
        yield
    finally:
        _state.update(saved)


def _fits(*arrays) -> bool:
    """Whether the compiled engine takes these arrays (numeric, not object)."""
    return all(a.dtype.kind in "iufb" for a in arrays)


def split_classes(is_pos: np.ndarray, s: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each class's scores, in their own dtype, unsorted (``(positives, negatives)``;
    with the numba engine two views of one buffer of ``len(s)``)."""
    mod = _compiled(s.shape[0])
    if mod is not None and _fits(s):
        buf = np.empty(s.shape[0], dtype=s.dtype)
        n_pos = mod.split_classes_into(is_pos, s, buf)
        return buf[:n_pos], buf[n_pos:]
    # Boolean indexing, not np.compress: compress gathers through int64 indices (8 bytes
    # per selected row, twice the float32 scores themselves).
    return s[is_pos], s[~is_pos]


def merge_below(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray, bool]:
    """For two sorted runs, each without ties within itself: ``(below_a, below_b, tied)``,
    ``below_a[i]`` the number of ``b`` strictly below ``a[i]`` and ``below_b[j]`` the
    number of ``a`` strictly below ``b[j]`` (float64), ``tied`` whether some value is in
    both runs (then the counts are not to be used)."""
    m, k = a.shape[0], b.shape[0]
    mod = _compiled(m + k)
    if mod is not None and _fits(a, b) and a.dtype == b.dtype:
        out_a = np.empty(m, dtype=np.float64)
        out_b = np.empty(k, dtype=np.float64)
        tied = mod.merge_below_into(a, b, out_a, out_b, *_lanes(a, b))
        return out_a, out_b, bool(tied)
    merged = np.concatenate((a, b))
    order = np.argsort(merged, kind="stable")  # a timsort: linear on two sorted runs
    lab = order < m
    del order
    merged.sort(kind="stable")
    tied = bool(m + k > 1 and (merged[1:] == merged[:-1]).any())
    del merged
    # The i-th member of a run sits at merged position p_i: p_i - i of the other run are before it.
    out = []
    for sel, size in ((lab, m), (~lab, k)):
        where = np.flatnonzero(sel)
        where -= np.arange(size, dtype=where.dtype)
        out.append(where.astype(np.float64))
    return out[0], out[1], tied


def _lanes(a: np.ndarray, b: np.ndarray, lanes: int = 4) -> tuple[np.ndarray, np.ndarray]:
    """Where the merge of ``a`` and ``b`` is cut into ``lanes`` pieces of about equal
    length: lane ``c`` holds ``a[ia[c]:ia[c+1]]`` and ``b[ja[c]:ja[c+1]]``, cut just
    below a value of ``a`` (so a value in both runs falls in one lane). Bisection on
    ``i + #(b < a[i])``, the merged position of ``a[i]``."""
    m, k = a.shape[0], b.shape[0]
    ia, ja = [0], [0]
    for c in range(1, lanes):
        target = c * (m + k) // lanes
        lo, hi = ia[-1], m
        while lo < hi:
            mid = (lo + hi) // 2
            if mid + int(np.searchsorted(b, a[mid])) >= target:
                hi = mid
            else:
                lo = mid + 1
        ia.append(lo)
        ja.append(int(np.searchsorted(b, a[lo])) if lo < m else k)
    ia.append(m)
    ja.append(k)
    return np.array(ia, dtype=np.intp), np.array(ja, dtype=np.intp)


def level_counts(levels: np.ndarray, other: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For increasing distinct ``levels`` and sorted ``other``: the number of ``other``
    strictly below each level and at or below it (float64)."""
    L, k = levels.shape[0], other.shape[0]
    mod = _compiled(L + k)
    # Bisection costs L log k, the merge L + k: bisect when there are few levels.
    if mod is not None and L * 16 > k and _fits(levels, other) and levels.dtype == other.dtype:
        left = np.empty(L, dtype=np.float64)
        right = np.empty(L, dtype=np.float64)
        mod.level_counts_into(levels, other, left, right)
        return left, right
    return (np.searchsorted(other, levels, "left").astype(np.float64),
            np.searchsorted(other, levels, "right").astype(np.float64))


def terms_at(levels: np.ndarray, h: np.ndarray, x: np.ndarray, out: np.ndarray) -> np.ndarray:
    """``out[i] = h[j]`` with ``j`` the number of ``levels`` strictly below ``x[i]``
    (``levels`` increasing and distinct; every ``x[i]`` one of them): per-row terms read
    off a table's levels. The rows are argsorted (numpy's SIMD argsort), then read in
    increasing order: a linear walk (compiled) or a bisection of sorted keys (numpy). A
    bisection, or a bucketed look-up, per row in row order reads the table at random and
    measured slower than the argsort at 10^6 and 10^7 rows."""
    order = np.argsort(x)
    return terms_in_order(levels, h, x[order], order, out)


def terms_in_order(levels: np.ndarray, h: np.ndarray, xs: np.ndarray, order: np.ndarray,
                   out: np.ndarray) -> np.ndarray:
    """:func:`terms_at` given the rows' scores sorted (``xs``) and the permutation that
    sorts them (``order``): ``out[order[i]] = h[#(levels < xs[i])]``."""
    mod = _compiled(xs.shape[0])
    if mod is not None and _fits(levels, xs) and levels.dtype == xs.dtype:
        mod.terms_in_order_into(levels, h, xs, order, out)
    else:
        out[order] = h[np.searchsorted(levels, xs)]
    return out


def class_orders(is_pos: np.ndarray, s: np.ndarray,
                 work: dict | None = None) -> tuple[tuple[np.ndarray, np.ndarray], ...]:
    """Each class's scores sorted, with the permutation that sorts them:
    ``((runs_pos, order_pos), (runs_neg, order_neg))``, ``runs_c = s_c[order_c]`` with
    ``s_c`` the class's scores in row order. The runs are the same on both engines; the
    permutations may differ among equal scores (numba keeps them in row order, numpy's
    argsort does not say), which callers read by value.

    numpy: boolean indexing and an argsort per class (numpy's SIMD argsort of float64
    measured 3-6x its sort, its stable argsort 4x more, plus a random gather for the
    runs). numba: one pass writes each row's sort key (the score's bits made unsigned-ordered, at the top of 64 bits)
    with its class rank in the low bits, so that ``np.sort`` of plain integers, the
    SIMD sort, sorts the rows; a second pass reads the permutation off the low bits and
    gathers the runs. Scores that agree above the low bits come out in class order and
    are then sorted by score (a few small groups in continuous data; exact in every
    case).

    ``work``: a dict kept by a caller that sorts several score vectors of the same
    length one after the other (``compare``): the compiled engine keeps its buffers
    there and reuses them, so the arrays returned by one call are overwritten by the
    next. Above 32 MiB every fresh array is a new mapping whose pages the kernel
    faults in and zeroes again (at 10^7 rows that was a third of ``compare``)."""
    n = s.shape[0]
    mod = _compiled(n)
    if mod is None or not _fits(s) or s.dtype.kind not in "iuf" or n >= 1 << 62:
        out = []
        for x in (s[is_pos], s[~is_pos]):
            o = np.argsort(x)
            out.append((x[o], o))
        return tuple(out)

    def buffer(name, dtype):
        if work is None:
            return np.empty(n, dtype=dtype)
        a = work.get(name)
        if a is None or a.shape[0] != n or a.dtype != dtype:
            a = work[name] = np.empty(n, dtype=dtype)
        return a

    keys, xs = buffer("keys", np.uint64), buffer("xs", s.dtype)
    all_order, all_runs = buffer("order", np.intp), buffer("runs", s.dtype)
    shift = max(1, (n - 1).bit_length())
    u = s.view(np.dtype(f"u{s.dtype.itemsize}"))
    n_pos = mod.split_keys_into(is_pos, s, u, 8 * s.dtype.itemsize, "fiu".index(s.dtype.kind), keys, xs, shift)
    # The negatives are at the back in reverse row order: their scores read through a
    # reversed view, so that the class rank in a key indexes it.
    parts = ((keys[:n_pos], xs[:n_pos]), (keys[n_pos:], xs[n_pos:][::-1]))
    out = []
    for (keys, x), at in zip(parts, (slice(0, n_pos), slice(n_pos, n))):
        keys.sort()
        order, runs = all_order[at], all_runs[at]
        if mod.unpack_into(keys, x, shift, order, runs):
            big = np.empty((64, 2), dtype=np.intp)
            while True:
                k = mod.sort_groups_into(keys, x, shift, order, runs, big)
                for a, b in big[: min(k, big.shape[0])]:
                    o = np.argsort(runs[a:b], kind="stable")  # the group is in class order
                    order[a:b] = order[a:b][o]
                    runs[a:b] = runs[a:b][o]
                if k <= big.shape[0]:
                    break
        out.append((runs, order))
    return tuple(out)
