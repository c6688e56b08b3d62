"""The bootstrap of :func:`compare` and :func:`compare_unpaired` (``method="bootstrap"``).

One engine for every binary criterion, with or without a projection. The K score columns
are sorted once (each its own rank table and the level of every row); the rows are then
folded into *units*: the rows of one class with the same level under every scorer and the
same weight (stratified resampling), or the rows of one cluster and one class with the
same levels (cluster resampling), with their masses. A resample is a vector of unit
counts (a multinomial draw of each class's rows, or of the clusters), and each scorer's
resampled rank table is a bincount of the counts (times the masses) by that scorer's
level: no sort per resample. The criteria are then evaluated on the batch of tables by
the criterion's vectorised pass (:class:`rankwise._kernels.MassRows`), the same pass
rankwise's bootstrap of one estimate uses. The resamples are drawn in blocks whose size
bounds the memory (never ``n x n_resamples``); the random streams (one per class, or one
for the clusters) do not depend on the block size, so the same seed gives the same
replicates whatever the blocking.

For the AUC (and the criteria on its sums, e.g. the Gini) with stratified row draws,
the fused path (:func:`rankwise._kernels.boot_auc_sums`, compiled with numba) skips the
tables: the same rows drawn from the same streams in the same blocks are counted, and
each scorer's AUC sum comes from one walk over its rows in score order (pre-sorted once);
the replicates are the table path's (to rounding; exactly, unweighted). Without numba,
the table path.

Where the scores take few distinct values the units are few (at most the product of the
scorers' level counts per class), and a resample costs O(units + levels) rather than
O(rows).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .. import criteria as _criteria
from .._kernels import BootAucPlan, MassRows, boot_auc_kernel, boot_auc_sums, table_with_rows
from .._validation import check_choice, check_param
from . import _core

__all__ = [
    "INTERVALS",
    "MAX_JACKKNIFE_UNITS",
    "BootDraws",
    "check_boot_args",
    "replicates",
    "jackknife_acceleration",
    "acceleration_of",
    "acceleration_parts",
    "sample_levels",
    "difference_interval",
]

#: The kinds of bootstrap interval of a difference.
INTERVALS = ("bca", "percentile")

#: Above this many units in a class (or clusters), the BCa acceleration comes from a
#: delete-a-block jackknife over this many blocks instead of one unit at a time.
MAX_JACKKNIFE_UNITS = 200

#: Elements (resamples x max(units, levels)) per block of resamples.
CHUNK_ELEMS = 4_000_000
#: ... and at most this many elements of tables (resamples x levels of all scorers) per
#: block, so that the tables being filled and read stay in the cache: one resample at a
#: time on untied scores at 10^5 rows costs half what twenty at a time do.
TABLE_ELEMS = 1 << 18


def check_boot_args(method: str | None, n_resamples: Any, random_state: Any, interval: Any, func: str) -> tuple:
    """``(n_resamples, interval)`` for ``method="bootstrap"``; refuses the bootstrap's
    arguments with any other method."""
    if method != "bootstrap":
        for name, v in (("n_resamples", n_resamples), ("interval", interval), ("random_state", random_state)):
            if v is not None:
                raise ValueError(f"The {name!r} argument of {func} is for method='bootstrap' only. "
                                 f"Got {name}={v!r} with method={method!r}.")
        return None, None
    if n_resamples is None:
        n_resamples = 2000
    if isinstance(n_resamples, (bool, np.bool_)) or not isinstance(n_resamples, (int, np.integer)):
        raise ValueError(f"The 'n_resamples' argument of {func} must be an integer of at least 2. "
                         f"Got {type(n_resamples).__name__} {n_resamples!r}.")
    n_resamples = check_param(int(n_resamples), "n_resamples", func, low=2, high=_core.MAX_RESAMPLES, integer=True)
    interval = check_choice("bca" if interval is None else interval, "interval", func, INTERVALS)
    return int(n_resamples), interval


def _group(cols: list) -> tuple[np.ndarray, np.ndarray]:
    """``(inverse, first)``: the group of every row with equal values in all ``cols``
    (groups numbered in the lexicographic order of the values) and one row of each."""
    n = cols[0].shape[0]
    if n == 0:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    order = np.lexsort(cols[::-1])
    new = np.zeros(n, dtype=bool)
    new[0] = True
    for c in cols:
        cs = c[order]
        new[1:] |= cs[1:] != cs[:-1]
    gid = np.cumsum(new) - 1
    inv = np.empty(n, dtype=np.int64)
    inv[order] = gid
    return inv, order[new]


class BootDraws:
    """The units of a sample for K scorers and their resampling.

    Parameters
    ----------
    is_pos : bool ndarray (n,)
    levels : list of (int ndarray (n,), int)
        Each scorer's level of every row and its number of levels.
    w : ndarray or None
        Row weights (rows of weight 0 are dropped).
    clusters : (codes, n_clusters) or None
    """

    def __init__(self, is_pos: np.ndarray, levels: list, w: np.ndarray | None, clusters: tuple | None = None):
        self.L = [int(L) for _, L in levels]
        self.K = len(levels)
        self.clusters = clusters
        keep = np.ones(is_pos.shape[0], dtype=bool) if w is None else w > 0
        #: per class (positives, negatives): dict with the unit arrays
        self.classes = []
        for positive in (True, False):
            rows = np.flatnonzero(keep & (is_pos if positive else ~is_pos))
            cols = [lev[rows] for lev, _ in levels]
            if clusters is None:
                if w is not None:
                    cols.append(w[rows])
                inv, first = _group(cols)
                count = np.bincount(inv, minlength=first.shape[0]).astype(np.float64)
                mass = np.ones(first.shape[0]) if w is None else w[rows[first]]
                cl = None
            else:
                inv, first = _group([clusters[0][rows]] + cols)
                count = np.bincount(inv, minlength=first.shape[0]).astype(np.float64)
                mass = count if w is None else np.bincount(inv, weights=w[rows], minlength=first.shape[0])
                cl = clusters[0][rows[first]]
            c = dict(rows=rows, inv=inv, rep=rows[first], count=count, mass=mass, cluster=cl,
                     lev=[lev[rows[first]] for lev, _ in levels], n=int(rows.shape[0]))
            c["by_row"] = clusters is None and first.shape[0] * 8 > rows.shape[0]
            if c["by_row"]:
                # Units nearly as many as rows: draw rows. The rows of the class in unit
                # order (each unit's count times), with each scorer's level and the mass.
                unit_of_draw = np.repeat(np.arange(first.shape[0], dtype=np.int64), count.astype(np.int64))
                small = np.int32 if max(self.L) < 2 ** 31 else np.int64
                c["unit_of_draw"] = unit_of_draw
                c["lev_of_draw"] = [lv[unit_of_draw].astype(small) for lv in c["lev"]]
                # the same levels row-major, (n_c, K): one cache line per drawn row (compiled engine)
                c["levels_by_draw"] = np.ascontiguousarray(np.column_stack(c["lev_of_draw"]))
                c["mass_of_draw"] = None if w is None else mass[unit_of_draw]
            self.classes.append(c)

    @property
    def cost(self) -> int:
        """Elements per resample (for the block size)."""
        units = sum(c["rep"].shape[0] for c in self.classes)
        rows = max((c["n"] for c in self.classes if c["by_row"]), default=0)
        return max(units, rows, sum(self.L), 1)

    def streams(self, random_state: Any) -> list:
        """The independent random streams of a bootstrap: one per class (stratified) or
        one (clusters)."""
        rng = random_state if isinstance(random_state, np.random.Generator) else np.random.default_rng(random_state)
        return rng.spawn(1 if self.clusters is not None else 2)

    @staticmethod
    def _row_draws(c: dict, rng, k: int) -> np.ndarray:
        """``(k, n_c)`` positions in the class's rows (unit order), drawn with replacement."""
        n_c = c["n"]
        return rng.integers(0, n_c, size=(k, n_c), dtype=np.int32 if n_c < 2 ** 31 else np.int64)

    def unit_weights(self, streams: list, k: int) -> list:
        """``k`` resamples: for each class, the mass of every unit, ``(k, units)`` (the same
        draws as :meth:`draw_tables` makes from the same streams)."""
        if self.clusters is not None:
            G = self.clusters[1]
            counts = streams[0].multinomial(G, np.full(G, 1.0 / G), size=k).astype(np.float64)
            return [counts[:, c["cluster"]] * c["mass"] for c in self.classes]
        out = []
        for c, rng in zip(self.classes, streams):
            U = c["rep"].shape[0]
            if U == 0 or not c["by_row"]:
                out.append(self._unit_counts(c, rng, k))
            else:
                idx = self._row_draws(c, rng, k)
                flat = c["unit_of_draw"][idx] + (np.arange(k, dtype=np.int64) * U)[:, None]
                counts = np.bincount(flat.ravel(), minlength=k * U).reshape(k, U).astype(np.float64)
                out.append(counts * c["mass"])
        return out

    def draw_tables(self, streams: list, k: int, total: int | None = None) -> list:
        """``k`` resamples as each scorer's level masses: ``[(A_j, B_j)]``, each ``(k, L_j)``.
        Units drawn by row (nearly every row its own unit) go straight from the drawn rows
        to the levels; the others through the units' counts. ``total``: the resamples of
        the whole bootstrap (whether compiling the row loop is worth it)."""
        if self.clusters is not None:
            W = self.unit_weights(streams, k)
            return [self.tables(W, j) for j in range(self.K)]
        per_class = []
        for c, rng in zip(self.classes, streams):
            if c["rep"].shape[0] == 0 or not c["by_row"]:
                W = self._unit_counts(c, rng, k)
                per_class.append([_level_masses(c["lev"][j], W, self.L[j]) for j in range(self.K)])
                continue
            idx = self._row_draws(c, rng, k)
            kern = _compiled(c["n"] * (k if total is None else total), k * sum(self.L))
            if kern is not None:
                off = np.concatenate(([0], np.cumsum([k * L for L in self.L])))
                buf = np.zeros(int(off[-1]))
                mass = np.zeros(0) if c["mass_of_draw"] is None else c["mass_of_draw"]
                kern(idx, c["levels_by_draw"], mass, np.asarray(self.L, dtype=np.int64), off[:-1], buf)
                per_class.append([buf[off[j]: off[j + 1]].reshape(k, self.L[j]) for j in range(self.K)])
                continue
            wts = None if c["mass_of_draw"] is None else c["mass_of_draw"][idx].ravel()
            tabs = []
            for j in range(self.K):
                L = self.L[j]
                flat = c["lev_of_draw"][j][idx].astype(np.int64)
                flat += (np.arange(k, dtype=np.int64) * L)[:, None]
                tabs.append(np.bincount(flat.ravel(), weights=wts, minlength=k * L).reshape(k, L)
                            .astype(np.float64, copy=False))
            per_class.append(tabs)
        return [(per_class[0][j], per_class[1][j]) for j in range(self.K)]

    @staticmethod
    def _unit_counts(c: dict, rng, k: int) -> np.ndarray:
        """A class's units drawn by one multinomial of its rows: their masses ``(k, units)``."""
        U, n_c = c["rep"].shape[0], c["n"]
        if U == 0:
            return np.zeros((k, 0))
        return rng.multinomial(n_c, c["count"] / n_c, size=k).astype(np.float64) * c["mass"]

    def tables(self, weights: list, j: int) -> tuple[np.ndarray, np.ndarray]:
        """Scorer ``j``'s resampled level masses ``(A, B)``, each ``(k, L_j)``, from the
        units' masses (:meth:`unit_weights`)."""
        A, B = (_level_masses(c["lev"][j], W, self.L[j]) for c, W in zip(self.classes, weights))
        return A, B

    def full_tables(self, j: int) -> tuple[np.ndarray, np.ndarray]:
        """Scorer ``j``'s level masses on the whole sample ``(A, B)``, each ``(L_j,)``."""
        W = [(c["mass"] * c["count"] if self.clusters is None else c["mass"])[None, :] for c in self.classes]
        A, B = self.tables(W, j)
        return A[0], B[0]

    def row_weights(self, weights: list, n: int) -> np.ndarray:
        """The resamples as row weights ``(k, n)``: each unit's mass put on one of its rows
        (for checks against a direct evaluation on weighted rows)."""
        k = weights[0].shape[0]
        out = np.zeros((k, n))
        for c, W in zip(self.classes, weights):
            out[:, c["rep"]] = W
        return out


_KERNEL: dict = {}

#: The compiled scatter of drawn rows into level masses is used from this many draws in
#: the whole bootstrap (numba's compilation, about a second once per process, is not
#: worth it below)...
MIN_COMPILED_DRAWS = 1 << 25
#: ... and while the block's tables (resamples x levels, all scorers) stay in cache: on
#: tables of many levels (untied scores) numpy's bincount, one scorer at a time, is faster
#: (measured at 10^5 and 10^6 untied rows; the compiled loop gains about 20% at 10^6 rows
#: with scores rounded to 3 decimals).
MAX_COMPILED_TABLE = 1 << 16


def _compiled(draws: int, table: int):
    """The numba kernel that adds each drawn row's mass at its level under every scorer,
    or None (numba missing, the numpy engine selected with ``RANKWISE_ENGINE=numpy``, too
    few draws or too large tables). It adds in the order numpy's ``bincount`` does, so both
    engines give identical tables from the same draws."""
    if table > MAX_COMPILED_TABLE or (draws < MIN_COMPILED_DRAWS and "fn" not in _KERNEL):
        return None
    from .._kernels import engine

    if engine() != "numba":
        return None
    if "fn" not in _KERNEL:
        try:
            import numba
        except ImportError:  # pragma: no cover - the engine says numba, so it imports
            return None

        @numba.njit(cache=False, nogil=True)
        def scatter(idx, levels, mass, L, off, out):  # pragma: no cover - compiled
            k, n = idx.shape
            K = levels.shape[1]
            weighted = mass.shape[0] > 0
            for r in range(k):
                for t in range(n):
                    i = idx[r, t]
                    wt = mass[i] if weighted else 1.0
                    for j in range(K):
                        out[off[j] + r * L[j] + levels[i, j]] += wt

        _KERNEL["fn"] = scatter
    return _KERNEL["fn"]


def _level_masses(lev: np.ndarray, W: np.ndarray, L: int) -> np.ndarray:
    """``(k, L)``: the units' masses ``W`` (``(k, units)``) added at their levels ``lev``."""
    k = W.shape[0]
    if W.shape[1] == 0:
        return np.zeros((k, L))
    flat = lev[None, :] + (np.arange(k, dtype=np.int64) * L)[:, None]
    return np.bincount(flat.ravel(), weights=W.ravel(), minlength=k * L).reshape(k, L)


def sample_levels(is_pos: np.ndarray, scores: list, w: np.ndarray | None, scale: float) -> tuple[list, list]:
    """Each scorer's :class:`rankwise.stats._core.Sample` (its rank table) and
    ``(level of every row, number of levels)``."""
    samples, levels = [], []
    for s in scores:
        table, lev = table_with_rows(is_pos, s, w)
        sample = _core.Sample(is_pos, s, w, mass_scale=scale, table=table)
        samples.append(sample)
        levels.append((np.asarray(lev, dtype=np.int64), table.size))
    return samples, levels


#: The fused AUC path (:func:`rankwise._kernels.boot_auc_sums`) is taken from this many
#: drawn rows in the whole bootstrap (below, the table path costs little and loading the
#: compiled loop is not worth it).
MIN_FUSED_DRAWS = 1 << 22


def _fused_auc(unit, draws: BootDraws) -> bool:
    """Whether ``unit``'s value on a resample is a function of the AUC's sums alone (the
    AUC and the criteria derived from it that keep its sums, e.g. the Gini) and the draws
    are rows of both classes (stratified, no clusters): the resample's AUC sums then come
    from the drawn rows in one compiled pass, without the batch of tables."""
    auc = type(_criteria.get("auc"))
    return (isinstance(unit, auc) and type(unit).sums is auc.sums and draws.clusters is None
            and all(c["by_row"] and c["n"] > 0 for c in draws.classes))


def replicates(unit, draws: BootDraws, n_resamples: int, random_state: Any,
               chunk_elems: int = CHUNK_ELEMS, fused: bool | None = None) -> np.ndarray:
    """The criterion of every scorer on ``n_resamples`` joint resamples: ``(n_resamples, K)``
    (one draw of the units shared by the K scorers).

    ``fused``: for the AUC and the criteria on its sums (:func:`_fused_auc`), compute each
    resample's sums from the drawn rows in one compiled pass (the same draws and blocks,
    the same replicates up to rounding); None: when numba is in use and the bootstrap
    draws at least :data:`MIN_FUSED_DRAWS` rows; False: always the table path."""
    streams = draws.streams(random_state)
    k = max(1, min(n_resamples, chunk_elems // draws.cost, TABLE_ELEMS // max(sum(draws.L), 1)))
    out = np.empty((n_resamples, draws.K))
    if fused is None:
        fused = sum(c["n"] for c in draws.classes) * n_resamples >= MIN_FUSED_DRAWS
    if fused and _fused_auc(unit, draws) and _replicates_fused(unit, draws, streams, k, out):
        return out
    done = 0
    while done < n_resamples:
        kk = min(k, n_resamples - done)
        for j, (A, B) in enumerate(draws.draw_tables(streams, kk, n_resamples)):
            with np.errstate(invalid="ignore", divide="ignore"):
                out[done: done + kk, j] = unit.values(MassRows(A, B))
        done += kk
    return out


def _replicates_fused(unit, draws: BootDraws, streams: list, k: int, out: np.ndarray) -> bool:
    """:func:`replicates` by the fused AUC pass, into ``out``; False (nothing drawn) when
    numba is not in use. The rows are drawn from the same streams in the same blocks as
    :meth:`BootDraws.draw_tables` draws them."""
    pos, neg = draws.classes
    if boot_auc_kernel() is None:
        return False
    plan = BootAucPlan(pos["levels_by_draw"], neg["levels_by_draw"], pos["mass_of_draw"], neg["mass_of_draw"])
    n_resamples = out.shape[0]
    done = 0
    while done < n_resamples:
        kk = min(k, n_resamples - done)
        idx_pos = draws._row_draws(pos, streams[0], kk)
        idx_neg = draws._row_draws(neg, streams[1], kk)
        sums, n_pos, n_neg = boot_auc_sums(plan, idx_pos, idx_neg)
        with np.errstate(invalid="ignore", divide="ignore"):
            out[done: done + kk] = unit.finish((sums,), n_pos[:, None], n_neg[:, None])
        done += kk
    return True


def jackknife_acceleration(unit, draws: BootDraws, full: list, cap: int = MAX_JACKKNIFE_UNITS,
                           chunk_elems: int = CHUNK_ELEMS) -> np.ndarray:
    """Each scorer's jackknife influence values for the BCa acceleration:
    ``(values (m, K), multiplicity (m,), cell (m,))`` flattened into an ``(m, K + 2)``
    array, one row per deletion.

    Stratified: one row of a class deleted at a time (rows alike give equal values, so
    one per unit, weighted by its count), cell = the class; above ``cap`` units in a
    class, ``cap`` blocks of its rows (row ``i`` of the class in block ``i mod cap``),
    each deleted whole. Clusters: one cluster at a time, or ``cap`` blocks of clusters;
    one cell. ``full``: each scorer's full level masses ``(A, B)``."""
    K = draws.K
    dels = []  # per deletion group: (cell, [per class: (del_id (rows), lev per scorer, w)], n_del, mult)
    if draws.clusters is None:
        for ci, c in enumerate(draws.classes):
            U = c["rep"].shape[0]
            if U == 0:
                continue
            if U <= cap:
                ids = np.arange(U)
                parts = {ci: (ids, [lv for lv in c["lev"]], c["mass"])}
                dels.append((ci, parts, U, c["count"]))
            else:
                block = np.arange(c["n"]) % cap
                unit_of_row = c["inv"]
                wrow = c["mass"][unit_of_row]
                parts = {ci: (block, [lv[unit_of_row] for lv in c["lev"]], wrow)}
                dels.append((ci, parts, cap, np.ones(cap)))
    else:
        G = draws.clusters[1]
        nb = G if G <= cap else cap
        parts = {}
        for ci, c in enumerate(draws.classes):
            ids = c["cluster"] if G <= cap else c["cluster"] % cap
            parts[ci] = (ids, c["lev"], c["mass"])
        dels.append((0, parts, nb, np.ones(nb)))
    vals, mult, cell = [], [], []
    for ci, parts, m, mu in dels:
        V = np.empty((m, K))
        for j in range(K):
            L = draws.L[j]
            step = max(1, chunk_elems // max(L, 1))
            for lo in range(0, m, step):
                hi = min(m, lo + step)
                AB = []
                for cj in (0, 1):
                    base = np.broadcast_to(full[j][cj], (hi - lo, L)).copy()
                    if cj in parts:
                        ids, levs, wts = parts[cj]
                        sel = (ids >= lo) & (ids < hi)
                        flat = (ids[sel] - lo) * L + levs[j][sel]
                        base -= np.bincount(flat, weights=wts[sel], minlength=(hi - lo) * L).reshape(hi - lo, L)
                        np.maximum(base, 0.0, out=base)  # rounding of a mass taken off itself
                    AB.append(base)
                with np.errstate(invalid="ignore", divide="ignore"):
                    V[lo:hi, j] = unit.values(MassRows(AB[0], AB[1]))
        vals.append(V)
        mult.append(np.asarray(mu, dtype=np.float64))
        cell.append(np.full(m, ci))
    if not vals:
        return np.zeros((0, K + 2))
    return np.column_stack([np.vstack(vals), np.concatenate(mult), np.concatenate(cell)])


def acceleration_of(jack: np.ndarray, coef: np.ndarray) -> float:
    """Efron's acceleration ``sum m U^3 / (6 (sum m U^2)^(3/2))`` of the statistic
    ``jack[:, :K] @ coef`` (a scorer, or a difference of two), ``U`` its jackknife values
    centred within their cell (class), ``m`` the multiplicities."""
    num, den = acceleration_parts(jack, coef)
    return num / (6.0 * den ** 1.5) if den > 0 else 0.0


def acceleration_parts(jack: np.ndarray, coef: np.ndarray) -> tuple[float, float]:
    """``(sum m U^3, sum m U^2)`` of :func:`acceleration_of` (independent samples add them)."""
    if jack.shape[0] == 0:
        return 0.0, 0.0
    K = coef.shape[0]
    v = jack[:, :K] @ coef
    m, cell = jack[:, K], jack[:, K + 1]
    ok = np.isfinite(v)
    num = den = 0.0
    for ci in np.unique(cell[ok]):
        sel = ok & (cell == ci)
        mean = np.dot(m[sel], v[sel]) / m[sel].sum()
        u = mean - v[sel]
        num += float(np.dot(m[sel], u ** 3))
        den += float(np.dot(m[sel], u ** 2))
    return num, den


def difference_interval(diff: float, reps: np.ndarray, alternative: str, level: float, kind: str,
                        accel: float) -> tuple[float, float]:
    """The bootstrap interval of a difference under ``alternative``: two-sided at
    ``level``; one-sided (``"greater"``, ``"noninferiority"``: ``[low, inf)``;
    ``"less"``: ``(-inf, high]``) with the end of the two-sided interval at ``2 level -
    1``; ``"equivalence"``: the two-sided interval at ``2 level - 1``."""
    reps = reps[np.isfinite(reps)]
    if reps.shape[0] < 2 or not np.isfinite(diff):
        return float("nan"), float("nan")
    two = level if alternative == "two-sided" else 2.0 * level - 1.0
    lo, hi = _core.bootstrap_interval(diff, reps, two, kind, accel)
    if alternative in ("greater", "noninferiority"):
        return lo, math.inf
    if alternative == "less":
        return -math.inf, hi
    return lo, hi
