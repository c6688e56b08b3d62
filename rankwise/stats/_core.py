"""Shared machinery of :mod:`rankwise.stats`: the sample with its per-row levels,
the per-criterion projections, the class variances and the stratified bootstrap."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

import numpy as np

from .. import criteria as _criteria
from .._kernels import (
    MassRows,
    build_rank_table,
    class_orders,
    dense,
    moments,
    range_rows,
    range_tables,
    table_from_runs,
    table_with_rows,
    terms_in_order,
    use_ranges,
)
from .._validation import check_param
from . import _dist
from ._variance import (  # noqa: F401 - the variance step, re-exported for the range code's callers
    ClassDraws,
    ClusterDraws,
    acceleration,
    mean_variance,
    projection_variance,
    variance_of_moments,
)


class Sample:
    """A validated binary sample as a dense rank table, plus each row's level on demand.

    ``rows=False`` (one scorer, no per-row terms needed): the table comes from
    :func:`build_rank_table` (two in-place class sorts and a linear merge, the same cost
    as one ``rw.auc``). ``rows=True`` (paired comparisons): one argsort, which also
    gives ``level_of_row``. ``level_of_row`` maps every input row to its level; rows with
    zero weight point at level 0 and carry no mass.
    """

    def __init__(self, is_pos: np.ndarray, s: np.ndarray, w: np.ndarray | None, rows: bool = False,
                 mass_scale: float = 1.0, table=None, clusters: tuple | None = None):
        self.is_pos = is_pos
        #: ``(codes, n_clusters)`` of the rows' sampling units, or None (independent rows).
        self.clusters = clusters
        self.s = s
        self.w = w
        #: The weights are frequency weights divided by this power of two
        #: (:func:`rankwise._validation.scale_weights`): a class's size is its mass times it.
        self.mass_scale = mass_scale
        self._level_of_row = None
        if table is not None:  # built by the caller (e.g. from class runs it sorted itself)
            self.table = table
        elif rows:
            self.table, self._level_of_row = table_with_rows(is_pos, s, w)
        else:
            self.table = build_rank_table(is_pos, s, w)
        self._dense = None

    @property
    def dense(self):
        """The dense view of the table (made when first asked for: the AUC's inference
        reads the class sides only)."""
        if self._dense is None:
            self._dense = dense(self.table)
        return self._dense

    @property
    def level_of_row(self) -> np.ndarray:
        if self._level_of_row is None:
            lev = np.searchsorted(self.table.levels, self.s)
            # Zero-weight rows may sit at a score with no level: any level will do.
            self._level_of_row = np.minimum(lev, self.table.size - 1)
        return self._level_of_row

    @property
    def n_rows(self) -> int:
        return int(self.is_pos.shape[0])


@dataclass(frozen=True)
class Fit:
    """A criterion's value and projection on one sample.

    ``h_pos``/``h_neg`` are per level, already multiplied by the criterion's chain-rule
    factor, so that ``Var = S_+^2(h_pos) / n+ + S_-^2(h_neg) / n-``; None for a criterion
    without a projection (its intervals come from the bootstrap). They are over the
    dense levels, or, when ``m_pos``/``m_neg`` are given, over each class's own levels
    with those masses (a side projection: see :attr:`RankCriterion.side_projected`).
    """

    value: float
    h_pos: np.ndarray | None
    h_neg: np.ndarray | None
    bounds: tuple[float, float]
    batch: Callable[[np.ndarray, np.ndarray], np.ndarray]
    #: ``((mass_pos, n_pos), (mass_neg, n_neg))`` for a side projection, else None.
    sides: tuple | None = None

    def class_terms(self, d):
        """``((h, mass, n), ...)`` of each class (``d`` the dense view, read only when the
        terms are over the dense levels; a callable giving it)."""
        if self.sides is not None:
            (mp, P), (mn, M) = self.sides
            return ((self.h_pos, mp, P), (self.h_neg, mn, M))
        d = d() if callable(d) else d
        return ((self.h_pos, d.a, d.P), (self.h_neg, d.b, d.M))


def side_masses(side) -> np.ndarray | None:
    """A class side's masses as a contiguous array; None when the side is untied (every
    mass 1: the variances then skip the weights, and no array of ones is made)."""
    return None if side.unit else side.mass


def fit_criterion(unit, sample: Sample, bandwidth: float | None, sided: bool = False) -> Fit:
    """Value and projection of a binary criterion on a sample (both classes present):
    the criterion's own pass and projection, with the whole sample as one bucket.
    ``sided``: the projection may be over each class's levels (a side projection, for
    a criterion that has one); otherwise it is over the dense levels."""
    t = sample.table

    def batch(A, B, _u=unit):
        return _u.values(MassRows(A, B))

    value = unit.value(t)
    if not unit.has_projection:
        _, bounds = unit.scale(value, (), {}, t.n_pos, t.n_neg)
        return Fit(value, None, None, bounds, batch)
    if sided and unit.side_projected:
        hp, hn = unit.side_projection(t)
        f, bounds = unit.scale(value, unit.bound_sums(t), unit.combine([{}], t.n_pos, t.n_neg)[0], t.n_pos, t.n_neg)
        if f != 1.0:
            hp, hn = f * hp, f * hn
        return Fit(value, hp, hn, bounds, batch,
                   sides=((side_masses(t.pos_side), t.n_pos), (side_masses(t.neg_side), t.n_neg)))
    d = sample.dense
    bw = unit.bandwidth(d.N * sample.mass_scale, bandwidth)  # the default window follows the sample size
    g = unit.combine([unit.summary(d, bw)], t.n_pos, t.n_neg)[0]
    hp, hn = unit.projection(d, bw, g)
    f, bounds = unit.scale(value, unit.bound_sums(t), g, t.n_pos, t.n_neg)
    if f != 1.0:
        hp, hn = f * hp, f * hn
    return Fit(value, hp, hn, bounds, batch)


# --- the range algorithm: a sample cut into score ranges (one machine, or Dask buckets) ----

def range_round1(st, units: list, bandwidths: list) -> list:
    """Round 1 on one score range (a :class:`rankwise._kernels.ShiftedTable`): for each unit,
    ``(sums, bound sums, projection summary)``; the range's dense view is made once, and
    only for units with a projection."""
    d = None
    out = []
    for u, bw in zip(units, bandwidths):
        if not u.has_projection or u.side_projected:  # a side projection has no summary
            out.append((u.sums(st), (), {}))
            continue
        bw = u.bandwidth(st.n, bw)
        summary = None if st.weighted else u.range_summary(st, bw)
        if summary is None:
            d = dense(st) if d is None else d
            summary = u.summary(d, bw)
        out.append((u.sums(st), u.bound_sums(st), summary))
    return out


def range_class_terms(st, unit, bw: float, g: dict, view: Callable[[], tuple]) -> tuple:
    """Each class's projection terms on one range, ``((h_pos, mass), (h_neg, mass))``: ``h``
    a float on a flat range, else an array at the class's levels, with their masses (None:
    every mass 1). From :meth:`RankCriterion.range_terms` where the unit gives them,
    otherwise from the dense view: ``view()`` gives ``(dense view, class_levels)``, made
    once per range for every unit that needs it (:func:`dense_once`)."""
    terms = None if st.weighted else unit.range_terms(st, bw, g)
    if terms is not None:
        return tuple((h, side_masses(side)) for h, side in zip(terms, (st.pos_side, st.neg_side)))
    d, at = view()
    return tuple((h.take(i), m) for h, (i, m) in zip(unit.projection(d, bw, g), at))


def range_moments(st, unit, bw: float, g: dict, f: float, view: Callable[[], tuple]) -> tuple:
    """Round 2's report of one range for one unit: the class-wise moments (mass, mean,
    centred sum of squares) of its projection terms (:func:`range_class_terms`) times
    ``f``, merged exactly across ranges by :func:`variance_of_moments`. A flat range
    reports each class's mass with its one term and no spread."""
    out = []
    for (h, m), W in zip(range_class_terms(st, unit, bw, g, view), st.range_masses()[2:]):
        if W == 0:
            out.append(None)
        elif np.ndim(h) == 0:
            out.append((float(W), float(h * f), 0.0))
        else:
            out.append(moments(h * f if f != 1.0 else h, m))
    return tuple(out)


def dense_once(st) -> Callable[[], tuple]:
    """``() -> (dense(st), class_levels(...))``, computed on the first call only."""
    made = []

    def view():
        if not made:
            d = dense(st)
            made.append((d, class_levels(d)))
        return made[0]
    return view


def combine_ranges(unit, res: list, n_pos: float, n_neg: float) -> tuple:
    """Client side of round 1: ``(value, per-range globals, chain-rule factor, bounds)`` from
    every range's round-1 result (None for an empty range); globals None without a projection."""
    value = unit.total(unit.merge([r[0] for r in res if r is not None]), n_pos, n_neg)
    if not unit.has_projection:
        return value, None, float("nan"), unit.scale(value, (), {}, n_pos, n_neg)[1]
    gs = unit.combine([None if r is None else r[2] for r in res], n_pos, n_neg)
    f, bounds = unit.scale(value, _criteria.add_sums([r[1] for r in res if r is not None]), gs[0], n_pos, n_neg)
    return value, gs, f, bounds


def class_levels(d) -> list:
    """Each class's levels with mass in a dense view, and those masses: ``[(idx, mass)]``
    for the positives then the negatives (shared by every criterion of a range); the
    masses are None when every one is 1 (an untied class: the moments skip them)."""
    out = []
    for m in (d.a, d.b):
        i = np.flatnonzero(m > 0)
        mi = m[i]
        out.append((i, None if mi.shape[0] and mi.min() == 1.0 and mi.max() == 1.0 else mi))
    return out


def side_moments(t, hp: np.ndarray, hn: np.ndarray) -> tuple:
    """:func:`range_moments`' report for a side projection (terms at each class's own levels)."""
    return tuple(moments(h, side_masses(side)) for h, side in ((hp, t.pos_side), (hn, t.neg_side)))


def fit_by_ranges(units: list, pos: np.ndarray, neg: np.ndarray, bandwidth: float | None,
                  chunk_rows: int | None = None) -> list:
    """``(value, std_error, bounds)`` of each rank criterion on a large unweighted sample,
    given each class's sorted scores, reading the rank table range by range (the Dask
    algorithm on one machine: :func:`range_round1`, :func:`combine_ranges`, then the
    projection terms range by range into :func:`range_moments`). The same numbers as
    :func:`fit_criterion` on the whole table, in the memory of one range at a time.
    ``chunk_rows``: rows per range (default :func:`rankwise._kernels.range_rows`)."""
    P, M = float(pos.shape[0]), float(neg.shape[0])
    bws = [u.bandwidth(P + M, bandwidth) if u.has_projection else None for u in units]
    res = [[] for _ in units]
    # Side projections need no global from round 1: their moments come in the same pass.
    mom = {k: [] for k, u in enumerate(units) if u.has_projection and u.side_projected}
    for st in range_tables(pos, neg, chunk_rows):
        for k, r in enumerate(range_round1(st, units, bws)):
            res[k].append(r)
        for k in mom:
            mom[k].append(side_moments(st, *units[k].side_projection(st)))
    fits = [combine_ranges(u, res[k], P, M) for k, u in enumerate(units)]
    out = [[value, float("nan"), bounds] for value, _, _, bounds in fits]
    done = set()
    for k in mom:
        if fits[k][2] == 1.0:
            out[k][1] = float(np.sqrt(variance_of_moments(mom[k], P, M)))
            done.add(k)
        # else a chain-rule factor (e.g. the Gini's 2): the terms times it, in the second walk
    proj = [k for k, (_, gs, _, _) in enumerate(fits) if gs is not None and k not in done]
    if proj:
        mom = {k: [] for k in proj}
        for b, st in enumerate(range_tables(pos, neg, chunk_rows)):
            view = dense_once(st)  # made for the first criterion whose terms are not flat here
            for k in proj:
                _, gs, f, _ = fits[k]
                mom[k].append(range_moments(st, units[k], bws[k], gs[b], f, view))
        for k in proj:
            out[k][1] = float(np.sqrt(variance_of_moments(mom[k], P, M)))
    return [tuple(o) for o in out]


def side_terms_by_ranges(unit, pos: np.ndarray, neg: np.ndarray, bandwidth: float | None,
                         chunk_rows: int | None = None) -> tuple:
    """``(value, bounds, h_pos, h_neg)`` of a criterion with a projection on a large
    unweighted sample, given each class's sorted scores: its terms (times the chain-rule
    factor) at each class's distinct scores, increasing (the levels of the whole table's
    class sides), read range by range as :func:`fit_by_ranges` reads them (flat ranges as
    one value, the others off their sides or their dense view). Paired comparisons put
    them back in row order."""
    P, M = float(pos.shape[0]), float(neg.shape[0])
    bw = unit.bandwidth(P + M, bandwidth)
    res = [range_round1(st, [unit], [bw])[0] for st in range_tables(pos, neg, chunk_rows)]
    value, gs, f, bounds = combine_ranges(unit, res, P, M)
    parts = ([], [])
    for b, st in enumerate(range_tables(pos, neg, chunk_rows)):
        terms = range_class_terms(st, unit, bw, gs[b], dense_once(st))
        for c, ((h, _), side) in enumerate(zip(terms, (st.pos_side, st.neg_side))):
            parts[c].append(np.full(side.mass.shape[0], h) if np.ndim(h) == 0 else h)
    h_pos, h_neg = (np.concatenate(p) if p else np.empty(0) for p in parts)
    if f != 1.0:
        h_pos, h_neg = f * h_pos, f * h_neg
    return value, bounds, h_pos, h_neg


# --- normal intervals --------------------------------------------------------------------

def normal_interval(value: float, se: float, level: float, transform: str | None,
                    bounds: tuple[float, float]) -> tuple[float, float]:
    z = _dist.norm_ppf(0.5 + level / 2.0)
    lo_b, hi_b = bounds
    if transform is None:
        return float(max(value - z * se, lo_b)), float(min(value + z * se, hi_b))
    span = hi_b - lo_b
    x = (value - lo_b) / span
    if not 0.0 < x < 1.0 or not span > 0:
        # On the boundary the logit is infinite: the interval collapses to the value.
        return float(value), float(value)
    g = _dist.logit(x)
    se_g = se / (span * x * (1.0 - x))
    return (lo_b + span * float(_dist.expit(g - z * se_g)),
            lo_b + span * float(_dist.expit(g + z * se_g)))


# --- bootstrap ---------------------------------------------------------------------------

def draws_of(sample: Sample):
    """The resampling strategy of a sample: whole clusters when it has them, else the
    rows within each class."""
    return ClassDraws(sample) if sample.clusters is None else ClusterDraws(sample, sample.clusters)


def bootstrap_values(sample: Sample, batch, n_resamples: int, random_state: Any,
                     chunk_elems: int = 4_000_000) -> np.ndarray:
    """The criterion on ``n_resamples`` resamples of the sample's independent unit
    (:func:`draws_of`: cases within each class, the class sizes kept; or whole clusters),
    each a row of level masses over the sample's own rank table, in batches."""
    rng = np.random.default_rng(random_state)
    draws = draws_of(sample)
    cost = getattr(draws, "chunk_cost", max(draws.L, draws.n_rows))
    k = max(1, min(n_resamples, chunk_elems // max(cost, 1)))
    out = np.empty(n_resamples)
    done = 0
    while done < n_resamples:
        kk = min(k, n_resamples - done)
        A, B = draws.draw(rng, kk)
        with np.errstate(invalid="ignore", divide="ignore"):
            out[done: done + kk] = batch(A, B)
        done += kk
    return out


def cached_draws(cache: dict, resampler, n_resamples: Any, random_state: Any) -> np.ndarray:
    """``resampler(n_resamples, random_state)``, kept in ``cache`` for an integer seed (a
    result object's ``bootstrap_distribution``)."""
    n_resamples = check_resamples(n_resamples, "bootstrap_distribution")
    key = (n_resamples, random_state) if isinstance(random_state, (int, np.integer)) else None
    if key is not None and key in cache:
        return cache[key]
    reps = resampler(n_resamples, random_state)
    if key is not None:
        cache[key] = reps
    return reps


def bootstrap_interval(value: float, reps: np.ndarray, level: float, kind: str, accel: float) -> tuple[float, float]:
    reps = reps[np.isfinite(reps)]
    alpha = 1.0 - level
    if kind == "percentile":
        q = np.array([alpha / 2.0, 1.0 - alpha / 2.0])
    else:
        # BCa (Efron 1987): bias correction from the share of resamples below the estimate
        # (ties count 1/2), acceleration from the influence values.
        below = (np.count_nonzero(reps < value) + 0.5 * np.count_nonzero(reps == value)) / reps.shape[0]
        below = min(max(below, 0.5 / reps.shape[0]), 1.0 - 0.5 / reps.shape[0])
        z0 = _dist.norm_ppf(below)
        zq = _dist.norm_ppf([alpha / 2.0, 1.0 - alpha / 2.0])
        adj = z0 + (z0 + zq) / (1.0 - accel * (z0 + zq))
        q = _dist.norm_cdf(adj)
    lo, hi = np.quantile(reps, q)
    return float(lo), float(hi)


def check_level(confidence_level: Any, func: str) -> float:
    return check_param(confidence_level, "confidence_level", func, low=0.0, high=1.0,
                       low_inclusive=False, high_inclusive=False)


#: The most resamples a bootstrap takes: each costs a row of the resampled values, so the
#: memory grows with it; beyond this it is refused with the bound named, not allocated.
MAX_RESAMPLES = 1_000_000


def check_resamples(n_resamples: Any, func: str) -> int:
    return check_param(n_resamples, "n_resamples", func, low=2, high=MAX_RESAMPLES, integer=True)


# --- per-row terms (paired comparisons, clusters) ------------------------------------------

def _distinct(run: np.ndarray) -> np.ndarray:
    """The distinct values of a sorted array (itself when they all differ)."""
    if run.shape[0] < 2:
        return run
    new = run[1:] != run[:-1]
    if new.all():
        return run
    return run[np.concatenate(([True], new))]


def terms_by_row(unit, is_pos: np.ndarray, scores: list, w: np.ndarray | None, scale: float,
                 bandwidth: float | None) -> tuple:
    """``(values, bounds, blocks, rows)`` of a binary criterion on K score columns of one
    sample (both classes present): each column's value and range, and its projection
    term at every row, class by class (``blocks[c]`` of shape ``(n_c, K)``, Fortran order,
    for the rows ``rows[c]``: positives then negatives), the input of
    :func:`rankwise.stats._variance.term_covariance`.

    Three ways to the same terms, by cost: a large unweighted sample whose criterion reads
    its projection range by range (terms at each class's distinct scores, mostly from
    flat ranges); a side projection (each class's rows sorted once with their
    permutation); otherwise the dense table with each row's level."""
    K = len(scores)
    n = is_pos.shape[0]
    rows = (np.flatnonzero(is_pos), np.flatnonzero(~is_pos))
    H = (np.empty((rows[0].shape[0], K), order="F"), np.empty((rows[1].shape[0], K), order="F"))
    values = np.empty(K)
    bounds = []
    work = {}
    ranged = w is None and not unit.side_projected and use_ranges(n, None, fine=True)
    for k, s in enumerate(scores):
        if ranged:
            (rp, op), (rn, on) = class_orders(is_pos, s, work)
            values[k], bnd, *hs = side_terms_by_ranges(unit, rp, rn, bandwidth, range_rows(fine=True))
            bounds.append(bnd)
            for c, (run, order, h) in enumerate(((rp, op, hs[0]), (rn, on, hs[1]))):
                terms_in_order(_distinct(run), h, run, order, H[c][:, k])
            del rp, rn, op, on, hs
            continue
        if w is None and unit.side_projected:
            # The sorted runs build the table (no dense form) and the permutations put each
            # row's term, read off its class's levels, back in row order.
            (rp, op), (rn, on) = class_orders(is_pos, s, work)  # buffers reused by the next scorer
            runs, orders = [rp, rn], [op, on]
            del rp, rn, op, on
            sample = Sample(is_pos, s, None, mass_scale=scale, table=table_from_runs(*runs))
            fit = fit_criterion(unit, sample, bandwidth, sided=True)
            values[k] = fit.value
            bounds.append(fit.bounds)
            for c, h in enumerate((fit.h_pos, fit.h_neg)):
                terms_in_order(sample.table.side_levels(c == 0), h, runs[c], orders[c], H[c][:, k])
            del sample, fit, runs, orders
            continue
        sample = Sample(is_pos, s, w, rows=True, mass_scale=scale)
        fit = fit_criterion(unit, sample, bandwidth)
        values[k] = fit.value
        bounds.append(fit.bounds)
        lev = sample.level_of_row
        del sample
        H[0][:, k] = fit.h_pos[lev[rows[0]]]
        H[1][:, k] = fit.h_neg[lev[rows[1]]]
    return values, bounds, H, rows
