"""The stratified bootstrap of :func:`rankwise.distributed.estimate`, with no data movement.

A stratified resample draws ``n_+`` positives and ``n_-`` negatives with replacement from
the rows of each class. For one class, the number of draws that land in bucket ``b`` is
``Multinomial(n_c, n_cb / n_c)`` over the buckets, and given those counts the draws inside
each bucket are ``Multinomial(K_b, mass_level / n_cb)`` over its levels, independently of
the other buckets. So (exactly in distribution, not an approximation):

1. the client draws, for every resample, the per-bucket class counts (a ``R x B`` matrix
   per class, R resamples, B buckets) and from them each bucket's offsets (the resampled
   class masses of the buckets below);
2. each bucket draws its level counts for every resample (a ``R x L_b`` matrix per class,
   in slices of resamples to bound memory) and evaluates its share of the criterion on
   them with those offsets (the criterion's own pass on a
   :class:`rankwise._kernels.MassRows` batch with offsets; the class totals ``n_+``,
   ``n_-`` are the same in every resample);
3. the client merges the shares (a few floats per bucket and resample) and finishes the
   criterion (normalisation, standardisation).

Per call, each bucket receives ``2 R`` counts, ``2 R`` offsets and a seed, and sends back
1-3 floats per resample. The random stream depends on the partition (the buckets), so
replicates are reproducible for a given ``random_state`` and partitioning, and have the
single-machine bootstrap's distribution whatever the partitioning.

Weighted samples: the single-machine bootstrap resamples rows carrying their weights,
which is not a multinomial over level masses, and the bucket tables keep only level
masses; the distributed bootstrap is refused for weighted data.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._kernels import MassRows, merge_moments3, moments3
from . import _partition as _p
from ._cluster import require_dask

__all__ = ["Resampler"]

#: Elements of a bucket's resample matrices per slice of resamples.
CHUNK_ELEMS = 4_000_000


# --- per-bucket draws ----------------------------------------------------------------------

def _draw_levels(rng, mass: np.ndarray, K: np.ndarray) -> np.ndarray:
    """For each row ``r``: ``K[r]`` draws with replacement from the class's rows of this
    bucket (``mass`` rows per level), as counts per level, shape (len(K), L)."""
    k, L = K.shape[0], mass.shape[0]
    out = np.zeros((k, L))
    n_c = int(round(float(mass.sum())))
    if n_c == 0 or not K.any():
        return out
    lev = np.flatnonzero(mass > 0)
    cnt = mass[lev]
    if lev.shape[0] * 8 <= n_c:
        out[:, lev] = rng.multinomial(K, cnt / n_c)
        return out
    row_level = np.repeat(lev, cnt.astype(np.int64))
    total = int(K.sum())
    draws = row_level[rng.integers(0, n_c, size=total)]
    draws += np.repeat(np.arange(k, dtype=np.int64) * L, K)
    return np.bincount(draws, minlength=k * L).reshape(k, L).astype(np.float64)


def _bucket_task(entry, seed: int, Kp: np.ndarray, Kn: np.ndarray, cp: np.ndarray, cn: np.ndarray,
                 P: float, M: float, unit, debug: bool):
    """One bucket: draw its level counts for every resample and return its sums (a list,
    one ``(R,)`` array per sum of the criterion; None for an empty bucket); with
    ``debug``, also ``(levels, A[0], B[0])`` of resample 0."""
    t = _p.bucket_table(entry)
    R = Kp.shape[0]
    if t.size == 0:
        return None, ((t.levels, np.zeros(0), np.zeros(0)) if debug else None)
    rng = np.random.default_rng(seed)
    per = max(1, min(R, CHUNK_ELEMS // max(t.size, int(round(t.n_pos + t.n_neg)))))
    dbg = None
    pieces = []
    for lo in range(0, R, per):
        hi = min(R, lo + per)
        A = _draw_levels(rng, t.pos, Kp[lo:hi])
        B = _draw_levels(rng, t.neg, Kn[lo:hi])
        if debug and lo == 0:
            dbg = (t.levels.copy(), A[0].copy(), B[0].copy())
        with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
            pieces.append([np.ravel(x) for x in unit.sums(MassRows(A, B, cp[lo:hi], cn[lo:hi], P, M))])
    return [np.concatenate([p[j] for p in pieces]) for j in range(len(pieces[0]))], dbg


def _excl_cols(K: np.ndarray) -> np.ndarray:
    c = np.cumsum(K, axis=1)
    c -= K
    return c


# --- acceleration (BCa) --------------------------------------------------------------------

def _accel_task(entry, offsets: tuple, unit, bandwidth, g: dict, f: float):
    terms = _p.bucket_of(entry).range_terms(unit, bandwidth, g, f, offsets)
    if terms is None:
        return None, None
    d, hp, hn = terms
    return tuple(moments3(h[m > 0], m[m > 0]) for h, m in ((hp, d.a), (hn, d.b)))


# --- the resampler ---------------------------------------------------------------------------

class Resampler:
    """``resampler(n_resamples, random_state)`` -> the criterion on that many stratified
    resamples, computed where the bucket tables live. Holds the persisted partition (its
    tables stay in worker memory as long as the estimate lives)."""

    def __init__(self, part: _p.Partition, unit, weighted: bool, client: Any = None,
                 bandwidth: float | None = None, gs: list | None = None, factor: float = 1.0):
        self.part, self.unit = part, unit
        self.weighted, self.client = weighted, client
        self.bandwidth, self.gs, self.factor = bandwidth, gs, factor
        self._accel = None

    def _check(self) -> None:
        if self.weighted:
            raise NotImplementedError(
                "The distributed bootstrap does not support sample_weight: the single-machine bootstrap "
                "resamples rows carrying their weights, which the bucket tables (level masses only) cannot "
                "reproduce. Use an analytic method (method='delong' or 'hajek'), or rankwise.stats on one machine."
            )

    def __call__(self, n_resamples: int, random_state: Any = None) -> np.ndarray:
        return self.draw(n_resamples, random_state)[0]

    def draw(self, n_resamples: int, random_state: Any = None, debug: bool = False):
        """``(replicates, debug_info)``; ``debug_info`` (only with ``debug=True``) is, per
        bucket, ``(levels, positive counts, negative counts)`` of resample 0."""
        self._check()
        dask, _ = require_dask()
        part = self.part
        R = int(n_resamples)
        P, M = part.n_pos, part.n_neg
        n_pos_b = np.rint(part.n_pos_b).astype(np.int64)
        n_neg_b = np.rint(part.n_neg_b).astype(np.int64)
        rng = np.random.default_rng(random_state)
        Kp = rng.multinomial(int(n_pos_b.sum()), n_pos_b / n_pos_b.sum(), size=R)
        Kn = rng.multinomial(int(n_neg_b.sum()), n_neg_b / n_neg_b.sum(), size=R)
        seeds = rng.integers(0, 2 ** 63 - 1, size=part.n_buckets)
        Cp = _excl_cols(Kp).astype(np.float64)
        Cn = _excl_cols(Kn).astype(np.float64)
        task = dask.delayed(_bucket_task, pure=True)
        tasks = [task(t, int(seeds[b]), np.ascontiguousarray(Kp[:, b]), np.ascontiguousarray(Kn[:, b]),
                      np.ascontiguousarray(Cp[:, b]), np.ascontiguousarray(Cn[:, b]), P, M, self.unit, debug)
                 for b, t in enumerate(part.tables)]
        res = _p.compute(tasks, self.client)
        sums = self.unit.merge([tuple(r[0]) for r in res if r[0] is not None])
        with np.errstate(invalid="ignore", divide="ignore"):
            reps = np.asarray(self.unit.finish(sums, P, M), dtype=np.float64)
        reps = np.broadcast_to(reps, (R,)).copy()
        return reps, ([r[1] for r in res] if debug else None)

    def acceleration(self) -> float:
        """BCa acceleration from the projection terms, as the single-machine estimate does
        (one round over the bucket tables: per-bucket class moments up to the third); 0 for
        a criterion without a projection."""
        if self._accel is None:
            if self.gs is None:
                self._accel = 0.0
                return self._accel
            dask, _ = require_dask()
            task = dask.delayed(_accel_task, pure=True)
            part = self.part
            res = _p.compute([task(t, part.offsets(b), self.unit, self.bandwidth, self.gs[b], self.factor)
                              for b, t in enumerate(part.tables)], self.client)
            num = den = 0.0
            for c in (0, 1):
                W, _, M2, M3 = merge_moments3([r[c] for r in res])
                if W > 0:
                    num += M3 / W ** 3
                    den += M2 / W ** 2
            self._accel = num / (6.0 * den ** 1.5) if den > 0 else 0.0
        return self._accel


def _materialise(debug_info: list) -> tuple[np.ndarray, np.ndarray]:
    """Rows ``(y, s)`` of resample 0 from :meth:`Resampler.draw`'s debug output (tests)."""
    ys, ss = [], []
    for levels, a, b in debug_info:
        ai, bi = np.rint(a).astype(np.int64), np.rint(b).astype(np.int64)
        ss.append(np.repeat(levels, ai))
        ys.append(np.ones(int(ai.sum()), dtype=np.int64))
        ss.append(np.repeat(levels, bi))
        ys.append(np.zeros(int(bi.sum()), dtype=np.int64))
    return np.concatenate(ys), np.concatenate(ss)
