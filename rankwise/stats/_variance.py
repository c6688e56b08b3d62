"""The variance step of :mod:`rankwise.stats`: per-observation influence terms summed over
the sampling unit.

Every analytic standard error in rankwise is the same computation. A criterion is
linearised into one term per observation (DeLong's placements for the AUC, the Hájek
projection for a rank statistic, the Hoeffding projection for the ranking risk); the
terms are centred within their *cell* (the class, for a binary criterion) and their
covariance is taken over the independent unit:

- rows (``clusters=None``): the within-cell sample covariances over the cell sizes,
  ``sum_c S_c / n_c``. Computed per level when the terms are constant on a level
  (:func:`mean_variance`, :func:`projection_variance`: the shortcut for independent rows,
  which never forms a per-row array) or from range-by-range moments that merge exactly
  (:func:`variance_of_moments`: score ranges on one machine and Dask buckets);
- clusters: each cluster's terms summed first, then the covariance over clusters with
  Obuchowski's (1997) small-sample factors (:func:`term_covariance`,
  :func:`covariance_from_cluster_sums`; the sums merge across chunks too).

The bootstraps resample the same unit: classes (stratified), or whole clusters
(:class:`ClusterDraws`).
"""

from __future__ import annotations

import functools
import math

import numpy as np

from .._kernels import merge_moments, moments  # noqa: F401 - moments re-exported for the range code

__all__ = [
    "mean_variance",
    "projection_variance",
    "acceleration",
    "variance_of_moments",
    "term_covariance",
    "sparse_term_covariance",
    "cluster_sums",
    "covariance_from_cluster_sums",
    "cluster_acceleration",
    "ClassDraws",
    "ClusterDraws",
]


def variance_of_moments(parts: list, n_pos: float, n_neg: float, scale: float = 1.0) -> float:
    """The projection variance from every range's :func:`range_moments` (None for an empty
    range): ``sum_c S_c^2 / n_c``, the class sizes ``scale * n_c`` (frequency weights
    divided by a power of two)."""
    var = 0.0
    for c, n_c in ((0, n_pos), (1, n_neg)):
        _, _, m2 = merge_moments([r[c] for r in parts if r is not None])
        size = n_c * scale
        # sum_true m (h - mean)^2 / ((size - 1) size), in the scaled masses.
        var += float("nan") if not size > 1 or m2 is None else float(m2) / n_c / (size - 1.0)
    return var




# --- variances -------------------------------------------------------------------------

def mean_variance(h: np.ndarray, mass: np.ndarray | None, n: float, scale: float = 1.0,
                  positive: bool = False) -> float:
    """The variance of the mean of ``h`` over a class: its sample variance (denominator
    ``size - 1``) over the class size, with ``mass`` per level summing to ``n`` and the
    class size ``scale * n`` (frequency weights scaled by a power of two). nan when the
    class size is at most 1 (no variance can be estimated from one observation).
    ``positive``: every mass is positive (a class side), so no level is dropped; ``mass``
    None: every mass is 1 (an untied class side)."""
    size = n * scale
    if not size > 1:
        return float("nan")
    if mass is None:
        return _unit_mean_variance(h, n, size)
    if positive:
        hm, mm = h, mass
    else:
        sel = mass > 0
        hm, mm = h[sel], mass[sel]
    # Terms divided by their largest size first: a criterion of absolute masses (a sum
    # over 1e200 units of weight) has terms whose squares times masses overflow.
    top = max(float(hm.max()), -float(hm.min())) if hm.shape[0] else 0.0
    if not 0.0 < top < math.inf:
        top = 1.0
    hm = hm / top
    mean = np.dot(mm, hm) / n
    # = sum_true m (h - mean)^2 / ((size - 1) size), without forming size^2 (it overflows).
    hm -= mean
    np.square(hm, out=hm)
    return float(np.dot(mm, hm) / n / (size - 1.0) * top * top)


#: Unit-mass terms of at most this size in absolute value are summed unscaled: their
#: squares over fewer than 2^63 rows cannot overflow, nor underflow to matter.
_SAFE_TOP = 2.0 ** 400
#: Rows per block of :func:`_unit_mean_variance` (256 KiB of deviations).
_BLOCK = 1 << 15


def _unit_mean_variance(h: np.ndarray, n: float, size: float) -> float:
    """:func:`mean_variance` of one term per level with every mass 1 (``n`` levels, class
    size ``size``): the centred sum of squares as one subtraction and one dot product.
    Scaled by a power of two only when the terms are huge or tiny (a scaling that rounds
    nothing, so it is skipped whenever it cannot be needed)."""
    top = max(float(h.max()), -float(h.min()))
    k = 0
    if not (top == 0.0 or 1.0 / _SAFE_TOP < top < _SAFE_TOP):
        k = math.frexp(top)[1] if 0.0 < top < math.inf else 0
    # Block by block (a small buffer stays in cache and costs no page faults, where an
    # array of the class's length costs both): the terms divided by 2^k when k, else as they are.
    buf = np.empty(min(h.shape[0], _BLOCK))

    def blocks():
        for i in range(0, h.shape[0], _BLOCK):
            x = h[i: i + _BLOCK]
            yield np.ldexp(x, -k, out=buf[: x.shape[0]]) if k else x

    mean = (math.fsum(float(x.sum()) for x in blocks()) if k else float(h.sum())) / n
    ss = 0.0
    for x in blocks():
        dev = np.subtract(x, mean, out=buf[: x.shape[0]])
        ss += float(np.dot(dev, dev))
    var = ss / n / (size - 1.0)
    if k:
        with np.errstate(over="ignore"):
            var = np.ldexp(var, 2 * k)
    return float(var)


def projection_variance(fit: Fit, d, scale: float = 1.0) -> float:
    """``d``: the dense view, or a callable giving it (read only for dense-level terms)."""
    if fit.h_pos is None:
        return float("nan")
    return sum(mean_variance(h, mass, n, scale, fit.sides is not None) for h, mass, n in fit.class_terms(d))


def acceleration(fit: Fit, d, scale: float = 1.0) -> float:
    """BCa acceleration from the empirical influence values (Efron 1987, with the
    jackknife replaced by the projection): ``sum U^3 / (6 (sum U^2)^(3/2))``,
    ``U = (h - mean_c) / n_c`` over every observation of each class (0, i.e. the
    bias-corrected percentile interval, for a criterion without a projection). With
    masses that are frequency weights divided by ``scale`` the ratio is the one of the
    scaled masses divided by ``sqrt(scale)``."""
    if fit.h_pos is None:
        return 0.0
    num = 0.0
    den = 0.0
    for h, mass, n in fit.class_terms(d):
        if mass is None:  # an untied class side: every mass 1
            hm, total = h, np.sum
        else:
            sel = mass > 0
            hm, mm = h[sel], mass[sel]
            total = functools.partial(np.dot, mm)
        u = (hm - total(hm) / n) / n
        num += float(total(u ** 3))
        den += float(total(u ** 2))
    return num / (6.0 * den ** 1.5) / math.sqrt(scale) if den > 0 else 0.0



# --- per-row terms: K statistics at once, over rows or clusters ----------------------------

def _power_of_two_tops(blocks: list) -> np.ndarray:
    """Each column's largest term in absolute value, as a power of two, and 1 where the
    squares of the terms can neither overflow nor underflow (then nothing is divided)."""
    K = blocks[0].shape[1]
    tops = np.zeros(K)
    for Hc in blocks:
        if Hc.shape[0]:
            # column maxima and minima of the (Fortran-ordered) blocks: no |H| copy
            tops = np.maximum(tops, np.maximum(Hc.max(axis=0), -Hc.min(axis=0)))
    tops[~((tops > 0) & np.isfinite(tops))] = 1.0
    tops = np.ldexp(1.0, np.frexp(tops)[1])
    tops[(tops > 2.0 ** -400) & (tops < 2.0 ** 400)] = 1.0
    return tops


def term_covariance(blocks: list, rows: list, *, weights: np.ndarray | None = None, scale: float = 1.0,
                    clusters: tuple | None = None, small_sample: bool = True) -> np.ndarray:
    r"""The joint covariance ``(K, K)`` of K statistics from their per-row terms.

    Parameters
    ----------
    blocks : list of ndarray (n_c, K)
        Cell ``c``'s terms, one row per observation of the cell (the rows ``rows[c]`` of
        the sample), one column per statistic. Centred here, in place.
    rows : list of int ndarray
        The sample rows of each cell (for the weights and the cluster ids).
    weights : ndarray or None
        Frequency weights of the sample's rows (None: every row counts once), divided by
        ``scale`` (:func:`rankwise._validation.scale_weights`).
    clusters : (codes, n_clusters) or None
        The sampling unit of each row (:func:`rankwise._validation.check_clusters`).
    small_sample : bool
        Clusters only: Obuchowski's factors ``I_c/(I_c - 1)`` and ``I/(I - 1)`` (True; with
        one row per cluster they give the within-cell sample covariances, denominators
        ``n_c - 1``), or none (False: the grouped infinitesimal jackknife, for a statistic
        whose row-level variance has no such factor, like the ranking risk's ``4 zeta1 / n``).

    Notes
    -----
    Independent rows: :math:`\Sigma = \sum_c S_c/n_c`, :math:`S_c` the sample covariance
    (denominator :math:`n_c - 1`) of the cell's terms. Clusters (Obuchowski 1997, "Nonparametric
    analysis of clustered ROC curve data", Biometrics 53): with
    :math:`U_{gc} = \sum_{i \in g,\, i \in c} w_i (h_i - \bar h_c) / n_c` the centred terms of
    cluster ``g`` in cell ``c``, :math:`I_c` the clusters holding cell ``c`` and :math:`I`
    all clusters,
    :math:`\Sigma = \sum_c \frac{I_c}{I_c - 1} \sum_g U_{gc} U_{gc}^\top + \frac{I}{I-1}
    \sum_{c \ne c'} \sum_g U_{gc} U_{gc'}^\top`. nan where a cell has fewer than two rows
    (or clusters).
    """
    K = blocks[0].shape[1]
    # Terms divided by their largest size first (products of masses and squared terms
    # overflow for criteria of absolute masses under huge weights); folded back below.
    tops = _power_of_two_tops(blocks)
    if (tops != 1.0).any():
        for Hc in blocks:
            Hc /= tops
    if clusters is None:
        cov = np.zeros((K, K))
        for Hc, idx in zip(blocks, rows):
            if weights is None:
                nc = float(idx.shape[0])
                Hc -= Hc.mean(axis=0) if Hc.shape[0] else 0.0
                prod = Hc.T @ Hc
            else:
                wc = weights[idx]
                nc = float(wc.sum())
                Hc -= (wc @ Hc) / nc if nc > 0 else 0.0
                prod = (Hc.T * wc) @ Hc
            size = nc * scale  # the cell size (frequency weights scaled by a power of two)
            if not size > 1:
                return np.full((K, K), np.nan)
            cov += prod / nc / (size - 1.0)
    else:
        sums = [cluster_sums(Hc, idx, weights, clusters) for Hc, idx in zip(blocks, rows)]
        cov = covariance_from_cluster_sums(sums, clusters[1], small_sample=small_sample)
    return cov * tops[:, None] * tops[None, :]


def sparse_term_covariance(blocks: list, rows: list, cols: list, K: int, *, weights: np.ndarray | None = None,
                           scale: float = 1.0, clusters: tuple | None = None, bounded: bool = False) -> np.ndarray:
    """:func:`term_covariance` of K statistics when cell ``c`` carries the terms of the
    statistics ``cols[c]`` only (its block is ``(n_c, len(cols[c]))``; every other
    statistic's terms are 0 on the cell's rows). The groups' AUCs are the case: each cell
    (class x group) holds the terms of its own group's AUC, so the blocks hold one column
    where the dense form would hold one per group. The blocks are centred in place.

    Independent rows: ``sum_c S_c / n_c`` on each cell's statistics. Clusters: with
    ``U_c`` the centred cluster sums of cell ``c`` (:func:`covariance_from_cluster_sums`)
    and ``T = sum_c U_c`` (placed in the columns ``cols[c]``), Obuchowski's form is
    ``f T'T + sum_c (f_c - f) U_c'U_c``, ``f = I/(I-1)`` and ``f_c = I_c/(I_c-1)``.

    The terms are rescaled by powers of two against overflow and underflow unless
    ``bounded`` (the caller knows them to be of order one, as placements and their sums
    over a few classes are).
    """
    cov = np.zeros((K, K))
    tops = np.ones(K)
    for Hc, cc in zip(blocks, cols):
        if Hc.shape[0] and not bounded:
            t = np.maximum(Hc.max(axis=0), -Hc.min(axis=0))
            tops[cc] = np.maximum(tops[cc], np.where(np.isfinite(t) & (t > 0), t, 1.0))
    tops = np.ldexp(1.0, np.frexp(tops)[1])
    tops[(tops > 2.0 ** -400) & (tops < 2.0 ** 400)] = 1.0
    if (tops != 1.0).any():
        for Hc, cc in zip(blocks, cols):
            Hc /= tops[cc]
    if clusters is None:
        for Hc, idx, cc in zip(blocks, rows, cols):
            if weights is None:
                nc = float(idx.shape[0])
                Hc -= Hc.mean(axis=0) if Hc.shape[0] else 0.0
                prod = Hc.T @ Hc
            else:
                wc = weights[idx]
                nc = float(wc.sum())
                Hc -= (wc @ Hc) / nc if nc > 0 else 0.0
                prod = (Hc.T * wc) @ Hc
            size = nc * scale
            ix = np.ix_(cc, cc)
            cov[ix] += prod / nc / (size - 1.0) if size > 1 else np.nan
    else:
        G = clusters[1]
        T = np.zeros((G, K))
        occupied = np.zeros(G, dtype=bool)
        parts = []
        for Hc, idx, cc in zip(blocks, rows, cols):
            S, W = cluster_sums(Hc, idx, weights, clusters)
            nc = float(W.sum())
            I_c = int(np.count_nonzero(W > 0))
            occupied |= W > 0  # a cell in one cluster still counts among all clusters (I)
            if not (nc > 0 and I_c > 1):
                cov[np.ix_(cc, cc)] = np.nan
                continue
            U = (S - np.outer(W, S.sum(axis=0) / nc)) / nc
            T[:, cc] += U
            parts.append((cc, I_c / (I_c - 1.0), U.T @ U))
        I = int(np.count_nonzero(occupied))
        f = I / (I - 1.0) if I > 1 else float("nan")
        cov += f * (T.T @ T)
        for cc, f_c, UU in parts:
            cov[np.ix_(cc, cc)] += (f_c - f) * UU
    return cov * tops[:, None] * tops[None, :]


def cluster_sums(H: np.ndarray, idx: np.ndarray, weights: np.ndarray | None, clusters: tuple) -> tuple:
    """One cell's terms summed by cluster: ``(S, W)``, ``S`` (n_clusters, K) the sums of
    ``w_i h_i`` and ``W`` (n_clusters,) the masses ``w_i``, over the cell's rows ``idx``.
    Sums of chunks of the rows add up to the sums of the whole (the Dask form). ``S`` is in
    Fortran order: each statistic's sums contiguous, as :func:`covariance_from_cluster_sums`
    reads them (the column sums of a ``(200000, 3)`` array: 2.8 ms C-ordered, 0.1 ms so)."""
    codes, G = clusters
    g = codes[idx]
    w = None if weights is None else weights[idx]
    W = np.bincount(g, weights=w, minlength=G).astype(np.float64, copy=False)
    S = np.empty((G, H.shape[1]), order="F")
    for k in range(H.shape[1]):
        col = H[:, k] if w is None else H[:, k] * w
        S[:, k] = np.bincount(g, weights=col, minlength=G)
    return S, W


def covariance_from_cluster_sums(sums: list, n_clusters: int, *, small_sample: bool = True) -> np.ndarray:
    """:func:`term_covariance` over clusters from each cell's :func:`cluster_sums`
    (merged across chunks by adding them): the cell means from the totals, each cluster's
    centred sums ``U = (S - mean W) / n_c`` (column by column into a Fortran-ordered array:
    no ``(G, K)`` temporaries), then Obuchowski's form."""
    K = sums[0][0].shape[1]
    U = []
    factors = []
    for S, W in sums:
        nc = float(W.sum())
        if not nc > 0:
            return np.full((K, K), np.nan)
        Uc = np.empty(S.shape, order="F")
        for k in range(K):
            col = np.multiply(W, float(S[:, k].sum()) / nc, out=Uc[:, k])
            np.subtract(S[:, k], col, out=col)
            col /= nc
        U.append(Uc)
        I_c = int(np.count_nonzero(W > 0))
        if small_sample:
            factors.append(I_c / (I_c - 1.0) if I_c > 1 else float("nan"))
        else:
            factors.append(1.0 if I_c > 1 else float("nan"))
    if any(not np.isfinite(f) for f in factors):
        return np.full((K, K), np.nan)
    cov = np.zeros((K, K))
    for f, Uc in zip(factors, U):
        cov += f * (Uc.T @ Uc)
    if len(U) > 1:
        occupied = np.zeros(n_clusters, dtype=bool)
        for _, W in sums:
            occupied |= W > 0
        I = int(np.count_nonzero(occupied))
        f = I / (I - 1.0) if small_sample else 1.0
        for a in range(len(U)):
            for b in range(len(U)):
                if a != b:
                    cov += f * (U[a].T @ U[b])
    return cov


def cluster_acceleration(sums: list) -> float:
    """BCa acceleration over clusters: Efron's ``sum u^3 / (6 (sum u^2)^(3/2))`` with ``u``
    each cluster's summed influence (its terms centred within their cell, over the cell's
    mass: the infinitesimal jackknife's values of whole clusters), one column of
    :func:`cluster_sums`."""
    total = None
    for S, W in sums:
        nc = float(W.sum())
        u = (S[:, 0] - W * (S[:, 0].sum() / nc)) / nc
        total = u if total is None else total + u
    num = float(np.sum(total ** 3))
    den = float(np.sum(total ** 2))
    return num / (6.0 * den ** 1.5) if den > 0 else 0.0


# --- resampling strategies: the unit a bootstrap resamples --------------------------------

class ClassDraws:
    """Resamples of a binary sample stratified by class: each class's rows drawn with
    replacement, the class sizes kept (the rank table's levels as the columns)."""

    def __init__(self, sample):
        self.sample = sample
        self.L = sample.table.size
        self.n_rows = sample.n_rows

    def draw(self, rng, k: int) -> tuple[np.ndarray, np.ndarray]:
        return (self._class(True, rng, k), self._class(False, rng, k))

    def _class(self, positive: bool, rng, k: int) -> np.ndarray:
        sample, L = self.sample, self.L
        d = sample.dense
        mass = d.a if positive else d.b
        if not (mass > 0).any():
            return np.zeros((k, L))  # an absent class (quantities defined with one class: the Brier score)
        if sample.w is None:
            lev = np.flatnonzero(mass > 0)
            cnt = mass[lev]
            n_c = int(round(cnt.sum()))
            out = np.zeros((k, L))
            if lev.shape[0] * 8 <= n_c:
                out[:, lev] = rng.multinomial(n_c, cnt / n_c, size=k)
                return out
            row_level = np.repeat(lev, cnt.astype(np.int64))
            draws = row_level[rng.integers(0, n_c, size=(k, n_c), dtype=np.int32)]
            draws += (np.arange(k, dtype=np.int64) * L)[:, None]
            return np.bincount(draws.ravel(), minlength=k * L).reshape(k, L).astype(np.float64)
        sel = (sample.is_pos if positive else ~sample.is_pos) & (sample.w > 0)
        row_level = sample.level_of_row[sel]
        row_w = sample.w[sel]
        n_c = row_level.shape[0]
        idx = rng.integers(0, n_c, size=(k, n_c), dtype=np.int32)
        flat = row_level[idx] + (np.arange(k, dtype=np.int64) * L)[:, None]
        return np.bincount(flat.ravel(), weights=row_w[idx].ravel(), minlength=k * L).reshape(k, L)


class ClusterDraws:
    """Resamples of whole clusters: ``n_clusters`` clusters drawn with replacement, each
    row counted as often as its cluster was drawn (times its weight). The class sizes
    vary from resample to resample, as they do between studies of as many clusters; a
    resample without one of the classes gives nan (dropped by the intervals)."""

    def __init__(self, sample, clusters: tuple):
        self.sample = sample
        self.L = sample.table.size
        self.n_rows = sample.n_rows
        codes, self.G = clusters
        w = sample.w
        keep = np.ones(sample.n_rows, dtype=bool) if w is None else w > 0
        lev = sample.level_of_row
        # The rows folded into (cluster, level, class) cells with their masses: a resample
        # is then one gather of the cluster counts and one bincount per class.
        cells = []
        for positive in (True, False):
            sel = keep & (sample.is_pos if positive else ~sample.is_pos)
            key = codes[sel].astype(np.int64) * self.L + lev[sel]
            mass = None if w is None else w[sel]
            uk, inv = np.unique(key, return_inverse=True)
            m = np.bincount(inv.reshape(-1), weights=mass, minlength=uk.shape[0]).astype(np.float64)
            cells.append((uk // self.L, uk % self.L, m))
        self._cells = cells

    def draw(self, rng, k: int) -> tuple[np.ndarray, np.ndarray]:
        G, L = self.G, self.L
        counts = rng.multinomial(G, np.full(G, 1.0 / G), size=k).astype(np.float64)  # (k, G)
        out = []
        for g, lev, m in self._cells:
            if lev.shape[0] == 0:
                out.append(np.zeros((k, L)))
                continue
            wts = counts[:, g] * m  # (k, cells)
            flat = lev[None, :] + (np.arange(k, dtype=np.int64) * L)[:, None]
            out.append(np.bincount(flat.ravel(), weights=wts.ravel(), minlength=k * L).reshape(k, L))
        return out[0], out[1]

    @property
    def chunk_cost(self) -> int:
        return max(self.L, sum(c[1].shape[0] for c in self._cells))
