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
   them with those offsets (the offset-aware form of :mod:`rankwise.stats._batch`; the
   class totals ``n_+``, ``n_-`` are the same in every resample);
3. the client adds the shares (a few floats per bucket and resample) and finishes the
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

from .._kernels import _passes
from ..stats import _batch
from ..stats._estimate import Estimate
from . import _partition as _p
from ._cluster import require_dask

__all__ = ["DistributedEstimate", "Resampler"]

#: Elements of a bucket's resample matrices per slice of resamples.
CHUNK_ELEMS = 4_000_000


# --- offset-aware batch criteria -------------------------------------------------------------

def _excl(X: np.ndarray, off: np.ndarray) -> np.ndarray:
    """Mass strictly below each level: the bucket's own cumulative sum plus ``off``."""
    c = np.cumsum(X, axis=1)
    c -= X
    c += off[:, None]
    return c


def _shares(name: str, params: dict, A: np.ndarray, B: np.ndarray, cp: np.ndarray, cn: np.ndarray,
            P: float, M: float) -> list:
    """The bucket's additive share(s) of the criterion, one value per resample row.

    ``A``, ``B``: (k, L) resampled positive / negative counts at the bucket's levels;
    ``cp``, ``cn``: (k,) resampled class masses of the buckets below; ``P``, ``M``: class
    totals (fixed by the stratified bootstrap). Same formulas as :mod:`rankwise.stats._batch`.
    """
    Pb = _excl(A, cp)
    Nb = _excl(B, cn)
    N = P + M
    if name == "auc" or (name == "partial_auc" and params["max_fpr"] >= 1.0):
        return [np.einsum("ij,ij->i", A, Nb + 0.5 * B)]
    if name == "rank_statistic":
        phi, ties, scale = params["phi"], params["ties"], params["scale"]
        C = A + B
        below = Pb + Nb
        r = below + 0.5 * (C + 1.0) if ties == "average" else below + C
        out = [np.einsum("ij,ij->i", A, phi.at_ranks(r, float(N)))]
        if scale == "minmax":
            rp = Pb + 0.5 * (A + 1.0) if ties == "average" else Pb + A
            out.append(np.einsum("ij,ij->i", A, phi.at_ranks(rp, float(N))))
            out.append(np.einsum("ij,ij->i", A, phi.at_ranks(rp + M, float(N))))
        return out
    if name == "local_auc":
        strictly_above = N - (Pb + Nb + A + B)
        keep = strictly_above < params["top"] * N * (1.0 - _passes._REL)
        return [np.einsum("ij,ij->i", np.where(keep, A, 0.0), Nb + 0.5 * B)]
    if name == "pnorm_push":
        c = 0.5 if params["ties"] == "average" else 1.0
        h = Pb + c * A
        if params["normalize"]:
            h /= P
        return [np.einsum("ij,ij->i", B, np.power(h, params["p"]))]
    if name == "partial_auc":
        mf = params["max_fpr"]
        w = B / M
        fpr_before = (M - Nb - B) / M
        with np.errstate(invalid="ignore", divide="ignore"):
            f = np.where(B > 0, np.clip((mf - fpr_before) / w, 0.0, 1.0), 0.0)
        t0 = (P - Pb - A) / P
        return [np.einsum("ij,ij->i", f * w, t0 + 0.5 * f * (A / P))]
    if name in ("dcg", "ndcg"):
        k = params["k"]
        cut = N if k is None else min(float(k), N)
        grid = _batch._cumulative_discount_grid(params["discount"], int(np.ceil(cut)))
        C = A + B
        above = N - (Pb + Nb + C)
        block = _batch._cdisc(grid, np.minimum(above + C, cut)) - _batch._cdisc(grid, np.minimum(above, cut))
        with np.errstate(invalid="ignore", divide="ignore"):
            per = np.where(C > 0, block / np.where(C > 0, C, 1.0), 0.0)
        return [np.einsum("ij,ij->i", A, per)]
    raise ValueError(f"rankwise.distributed does not support criterion {name!r}.")  # pragma: no cover


def _n_shares(name: str, params: dict) -> int:
    return 3 if name == "rank_statistic" and params["scale"] == "minmax" else 1


def _finish(name: str, params: dict, S: np.ndarray, P: float, M: float) -> np.ndarray:
    """Criterion values from the summed shares ``S`` (n_shares, R), as :mod:`rankwise.stats._batch`."""
    with np.errstate(invalid="ignore", divide="ignore"):
        if name in ("auc", "local_auc") or (name == "partial_auc" and params["max_fpr"] >= 1.0):
            return S[0] / (P * M)
        if name == "rank_statistic":
            if params["scale"] == "raw":
                return S[0]
            if params["scale"] == "mean":
                return S[0] / P
            return (S[0] - S[1]) / (S[2] - S[1])
        if name == "pnorm_push":
            if params["normalize"]:
                return (S[0] / M) ** (1.0 / params["p"])
            return S[0]
        if name == "partial_auc":
            std, mf = params["standardize"], params["max_fpr"]
            if std is None:
                return S[0]
            lo, hi = 0.5 * mf * mf, mf
            return 0.5 * (1.0 + (S[0] - lo) / (hi - lo))
        if name == "dcg":
            return S[0]
        if name == "ndcg":
            k = params["k"]
            N = P + M
            cut = N if k is None else min(float(k), N)
            grid = _batch._cumulative_discount_grid(params["discount"], int(np.ceil(cut)))
            return S[0] / _batch._cdisc(grid, np.array([min(P, cut)]))[0]
    raise ValueError(f"rankwise.distributed does not support criterion {name!r}.")  # pragma: no cover


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
                 P: float, M: float, name: str, params: dict, debug: bool):
    """One bucket: draw its level counts for every resample and return its shares
    (n_shares, R); with ``debug``, also ``(levels, A[0], B[0])`` of resample 0."""
    t = entry[0] if isinstance(entry, tuple) else entry
    R = Kp.shape[0]
    out = np.zeros((_n_shares(name, params), R))
    if t.size == 0:
        return out, ((t.levels, np.zeros(0), np.zeros(0)) if debug else None)
    rng = np.random.default_rng(seed)
    L = t.size
    per = max(1, min(R, CHUNK_ELEMS // max(L, int(round(t.n_pos + t.n_neg)))))
    dbg = None
    for lo in range(0, R, per):
        hi = min(R, lo + per)
        A = _draw_levels(rng, t.pos, Kp[lo:hi])
        B = _draw_levels(rng, t.neg, Kn[lo:hi])
        if debug and lo == 0:
            dbg = (t.levels.copy(), A[0].copy(), B[0].copy())
        with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
            out[:, lo:hi] = _shares(name, params, A, B, cp[lo:hi], cn[lo:hi], P, M)
    return out, dbg


def _excl_cols(K: np.ndarray) -> np.ndarray:
    c = np.cumsum(K, axis=1)
    c -= K
    return c


# --- acceleration (BCa) --------------------------------------------------------------------

def _moments3(h: np.ndarray, mass: np.ndarray):
    sel = mass > 0
    hm, mm = h[sel], mass[sel]
    W = float(mm.sum())
    if W == 0:
        return None
    mean = float(np.dot(mm, hm) / W)
    dev = hm - mean
    return W, mean, float(np.dot(mm, dev ** 2)), float(np.dot(mm, dev ** 3))


def _accel_task(entry, offsets: tuple, name: str, params: dict, bandwidth, g: dict, b: int, f: float):
    from ._stats import _bandwidth, _dense, _projection

    t = entry[0] if isinstance(entry, tuple) else entry
    if t.size == 0:
        return None, None
    d = _dense(t, offsets)
    hp, hn = _projection(name, params, d, _bandwidth(name, params, d.N, bandwidth), g, b)
    return _moments3(f * hp, d.a), _moments3(f * hn, d.b)


def _combine3(parts: list):
    """Mass, mean, centred second and third moments of pooled pieces (Pébay 2008)."""
    W = mean = M2 = M3 = 0.0
    for p in parts:
        if p is None:
            continue
        wb, mb, m2b, m3b = p
        if W == 0:
            W, mean, M2, M3 = wb, mb, m2b, m3b
            continue
        tot = W + wb
        delta = mb - mean
        M3 = (M3 + m3b + delta ** 3 * W * wb * (W - wb) / (tot * tot)
              + 3.0 * delta * (W * m2b - wb * M2) / tot)
        M2 = M2 + m2b + delta * delta * W * wb / tot
        mean = mean + delta * wb / tot
        W = tot
    return W, mean, M2, M3


# --- the resampler ---------------------------------------------------------------------------

class Resampler:
    """``resampler(n_resamples, random_state)`` -> the criterion on that many stratified
    resamples, computed where the bucket tables live. Holds the persisted partition (its
    tables stay in worker memory as long as the estimate lives)."""

    def __init__(self, part: _p.Partition, name: str, params: dict, weighted: bool, client: Any = None,
                 bandwidth: float | None = None, g: dict | None = None, factor: float = 1.0):
        self.part, self.name, self.params = part, name, params
        self.weighted, self.client = weighted, client
        self.bandwidth, self.g, self.factor = bandwidth, g, factor
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
                      np.ascontiguousarray(Cp[:, b]), np.ascontiguousarray(Cn[:, b]), P, M, self.name,
                      self.params, debug)
                 for b, t in enumerate(part.tables)]
        res = _p.compute(tasks, self.client)
        S = np.sum([r[0] for r in res], axis=0) if res else np.zeros((_n_shares(self.name, self.params), R))
        reps = _finish(self.name, self.params, S, P, M)
        return reps, ([r[1] for r in res] if debug else None)

    def acceleration(self) -> float:
        """BCa acceleration from the projection terms, as :func:`rankwise.stats._core.acceleration`
        (one round over the bucket tables: per-bucket class moments up to the third)."""
        if self._accel is None:
            dask, _ = require_dask()
            task = dask.delayed(_accel_task, pure=True)
            part = self.part
            res = _p.compute([task(t, part.offsets(b), self.name, self.params, self.bandwidth, self.g, b,
                                   self.factor) for b, t in enumerate(part.tables)], self.client)
            num = den = 0.0
            for c in (0, 1):
                W, _, M2, M3 = _combine3([r[c] for r in res])
                if W > 0:
                    num += M3 / W ** 3
                    den += M2 / W ** 2
            self._accel = num / (6.0 * den ** 1.5) if den > 0 else 0.0
        return self._accel


class DistributedEstimate(Estimate):
    """An :class:`rankwise.stats.Estimate` whose bootstrap runs on the cluster (the BCa
    acceleration comes from the bucket tables, not from a local sample)."""

    def _acceleration(self) -> float:
        return self._resampler.acceleration()


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

