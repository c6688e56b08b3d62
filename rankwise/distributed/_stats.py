"""Inference on Dask collections: ``estimate`` and ``compare`` from the partitioned passes.

Every criterion of :mod:`rankwise.stats` is linearised into one projection term per
observation, a function of the observation's level in the rank table (DeLong's
placements for the AUC, the Hájek projection otherwise). Each criterion computes its
projection in two rounds (:class:`rankwise.criteria.RankCriterion`), so on a
range-partitioned sample the terms are read off each bucket (a
:class:`rankwise.stats.RankAccumulator`) seen through its offsets, by its range methods
(``range_round1``, then ``range_moments`` or, per row, ``range_terms``), plus a few global
scalars that one small exchange provides (``RankAccumulator.combine_ranges``), for example:

* suffix sums over the buckets above (the ``D`` term of ``W_phi``, the p-norm push's
  ``sum e``, the local AUC's kept positives): each bucket sends its total;
* the local AUC's cut ``Q`` (the lowest kept level, in the lowest bucket holding one),
  the share of positives in the window around it and ``H(Q)``;
* the partial AUC's ROC at the ends of its band: each bucket sends its last ROC point at
  or left of each end and its first point right of it;
* prefix sums over the buckets below (the average precision's slopes);
* the p-norm push mean ``m`` and the statistic's range (``W_min``, ``W_max``, ideal DCG).

``estimate`` then needs only per-bucket class variances (mass, mean, centred sum of
squares), combined exactly by the parallel formula of Chan, Golub and LeVeque.
``compare`` pairs the K scorers' terms row by row: each bucket sends every row's term
back to the chunk it came from (in the order the chunk sent it, so no row ids travel),
each chunk forms its class-wise K-vector of means and K x K centred cross-products, and
only those come back to the client.

With ``clusters=`` (the sampling unit of each row: Obuchowski 1997, "Nonparametric
analysis of clustered ROC curve data", *Biometrics* 53) both functions take that per-row
path (``estimate`` with K = 1): each chunk sums its rows' terms by cluster within each
class, ``S = sum w h`` and ``W = sum w`` per cluster id, and sends back its distinct ids
with those sums. Ids are not numbered alike across chunks, so the client merges the
chunks' sums by id (a cluster may span chunks and buckets) and applies the
single-machine variance step over clusters to them. Exact: sums of chunks add up to
the sums of the whole, so the result equals :func:`rankwise.stats.estimate` /
:func:`rankwise.stats.compare` with ``clusters=`` (to rounding). Cost: O(distinct ids per
chunk) numbers per chunk to the client, O(G K) memory there (G clusters).
"""

from __future__ import annotations

import math

import numpy as np

from .._kernels import merge_moments, moments
from .._validation import check_choice, to_numpy, warn_undefined
from ..stats import Comparison, Estimate, RankAccumulator
from ..stats.blocks import (
    ADJUSTMENTS,
    TEST_ALTERNATIVES,
    Inference,
    build_comparison,
    check_margin,
    check_bandwidth,
    check_level,
    check_method,
    check_projection,
    check_reference,
    cluster_acceleration,
    covariance_from_cluster_sums,
    power_of_two_tops,
    resolve_criterion,
    score_columns,
    variance_of_moments,
    warn_few_clusters,
)
from . import _bootstrap as _bs
from . import _criteria as _c
from . import _partition as _p
from ._cluster import require_dask

__all__ = ["estimate", "compare"]


# --- bucket tasks --------------------------------------------------------------------------------

def _round1(entry, offsets: tuple, unit, bandwidth):
    """One bucket's value sums, bound sums and projection summary (the range algorithm's
    round 1 on the bucket: :meth:`rankwise.stats.RankAccumulator.range_round1`)."""
    return _p.bucket_of(entry).range_round1(unit, bandwidth, offsets)


def _round2_var(entry, offsets: tuple, unit, bandwidth, g: dict, f: float):
    """One bucket's class moments of the (scaled) projection terms
    (:meth:`rankwise.stats.RankAccumulator.range_moments`)."""
    return _p.bucket_of(entry).range_moments(unit, bandwidth, g, f, offsets)


def _round2_rows(entry, offsets: tuple, unit, bandwidth, g: dict, f: float):
    """Every row's (scaled) projection term, split by the chunk it came from."""
    acc, inv, lab, lengths = entry
    terms = acc.range_terms(unit, bandwidth, g, f, offsets)
    if terms is None:
        h = np.zeros(lab.shape[0])
    else:
        _, hp, hn = terms
        h = np.where(lab, hp[inv], hn[inv])
    cuts = np.concatenate(([0], np.cumsum(lengths)))
    return tuple(h[a:e] for a, e in zip(cuts[:-1], cuts[1:]))


def _gather_rows(meta, *pieces) -> np.ndarray:
    """A chunk's terms back in its own row order (pieces arrive bucket by bucket)."""
    order = meta[0]
    out = np.empty(order.shape[0])
    out[order] = np.concatenate(pieces) if pieces else np.empty(0)
    return out


def _chunk_moments(meta, *cols):
    """Class-wise (mass, mean vector, centred cross-product matrix) of a chunk's K terms."""
    _, lab, w = meta
    H = np.column_stack(cols) if cols else np.empty((lab.shape[0], 0))
    out = []
    for sel in (lab, ~lab):
        Hc = H[sel]
        out.append(moments(Hc, None if w is None else w[sel]))
    return out


# --- cluster ids -------------------------------------------------------------------------------------

#: Missing-id row indices a chunk reports (the message shows the first five of all).
_SHOWN = 5


def _clean_ids(raw, func: str):
    """A chunk's cluster ids as a numpy array, and ``(rows, missing)``: ``missing`` None,
    or ``(what, first local row indices, count)`` of the missing ids. The rules of
    :func:`rankwise._validation.check_clusters`: None, NaN, pandas NA/NaT and infinite
    floats are missing; ids of any other type that compares for equality are fine."""
    mask = what = None
    mod = type(raw).__module__ or ""
    if mod.startswith("pandas") and hasattr(raw, "isna"):
        m = np.asarray(raw.isna())
        if m.ndim == 1 and m.any():
            mask, what = m, "missing ids (None/NaN)"
    arr = to_numpy(raw, "clusters")
    kind = arr.dtype.kind
    if mask is None:
        if kind in "fc":
            mask, what = ~np.isfinite(arr), "missing or infinite ids"
        elif kind == "O":
            mask = np.fromiter((v is None or (isinstance(v, float) and v != v)
                                or type(v).__name__ in ("NAType", "NaTType") for v in arr.tolist()),
                               dtype=bool, count=arr.shape[0])
            what = "missing ids (None/NaN)"
        elif kind not in "iubUSM":
            raise TypeError(f"The 'clusters' parameter of {func} must hold ids (integers, strings, ...). "
                            f"Got an array of dtype {arr.dtype} instead.")
    missing = None
    if mask is not None and mask.any():
        idx = np.flatnonzero(mask)
        missing = (what, idx[:_SHOWN], int(idx.shape[0]))
    return arr, (int(arr.shape[0]), missing)


def _id_report(cleaned):
    return cleaned[1]


def _unique_inverse(ids: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct ids and each id's index among them (by sorting; ids of mixed types
    that do not sort are numbered by first appearance, as ``check_clusters`` does)."""
    try:
        u, inv = np.unique(ids, return_inverse=True)
        return u, inv.reshape(-1)
    except TypeError:
        table: dict = {}
        try:
            inv = np.fromiter((table.setdefault(v, len(table)) for v in ids.tolist()), dtype=np.int64,
                              count=ids.shape[0])
        except TypeError as exc:
            raise TypeError(f"The 'clusters' parameter must hold hashable ids. Got: {exc}") from None
        u = np.empty(len(table), dtype=object)
        for i, v in enumerate(table):
            u[i] = v
        return u, inv


def _chunk_unique(cleaned) -> np.ndarray:
    """A chunk's distinct cluster ids."""
    return _unique_inverse(cleaned[0])[0]


def _power_of_two(m: float) -> float:
    return math.ldexp(1.0, math.frexp(m)[1]) if 0.0 < m < math.inf else 1.0


def _chunk_cluster_sums(meta, cleaned, *cols):
    """Per class (positives, negatives): ``(ids, S, W, tops, largest)``, the chunk's
    distinct ids, ``S[g, k]`` the sum of ``w h_k / tops[k]`` over the chunk's rows of the
    class in cluster ``ids[g]``, ``W[g]`` the sum of their weights (row counts when
    unweighted), ``tops`` a power of two per column (the terms' size, so that the
    products cannot overflow) and ``largest`` the largest ``|h_k|``."""
    _, lab, w = meta
    ids = cleaned[0]
    K = len(cols)
    out = []
    for sel in (lab, ~lab):
        u, inv = _unique_inverse(ids[sel])
        G = u.shape[0]
        wc = None if w is None else w[sel]
        W = np.bincount(inv, weights=wc, minlength=G).astype(np.float64, copy=False)
        S = np.empty((G, K))
        tops = np.ones(K)
        largest = np.zeros(K)
        for k, col in enumerate(cols):
            h = col[sel]
            largest[k] = float(np.max(np.abs(h))) if h.shape[0] else 0.0
            tops[k] = _power_of_two(largest[k])
            x = h / tops[k] if tops[k] != 1.0 else h
            S[:, k] = np.bincount(inv, weights=x if wc is None else x * wc, minlength=G)
        out.append((u, S, W, tops, largest))
    return out


def _concat_ids(pieces: list) -> np.ndarray:
    """The chunks' ids in one array: as they are when of one kind (or all numbers), else
    as Python objects (an integer id never equals a string id)."""
    kinds = {p.dtype.kind for p in pieces if p.shape[0]}
    if len(kinds) > 1 and not kinds <= set("biuf"):
        pieces = [p.astype(object) for p in pieces]
    return np.concatenate(pieces) if pieces else np.empty(0)


def merge_cluster_sums(res: list, K: int) -> tuple[list, int, np.ndarray]:
    """The chunks' :func:`_chunk_cluster_sums` merged by cluster id: ``(sums, G, tops)``,
    ``sums`` per class ``(S, W)`` over the G clusters of the whole sample (in the terms
    divided by ``tops``, the powers of two :func:`rankwise.stats.blocks.power_of_two_tops`
    gives for the whole sample: the single-machine scaling), the input of
    :func:`rankwise.stats.blocks.covariance_from_cluster_sums`."""
    largest = np.zeros(K)
    for r in res:
        for part in r:
            largest = np.maximum(largest, part[4])
    tops = power_of_two_tops([largest[None, :]]) if K else np.ones(0)
    pieces = [part[0] for r in res for part in r]
    uniq, inv = _unique_inverse(_concat_ids(pieces))
    G = int(uniq.shape[0])
    cuts = np.concatenate(([0], np.cumsum([p.shape[0] for p in pieces]))).astype(np.int64)
    sums = []
    for cls in (0, 1):
        S = np.zeros((G, K))
        W = np.zeros(G)
        for c, r in enumerate(res):
            u, Sc, Wc, tc, _ = r[cls]
            j = 2 * c + cls
            g = inv[cuts[j]:cuts[j + 1]]  # distinct within a chunk's class: no repeated index
            S[g] += Sc * (tc / tops)  # powers of two: exact
            W[g] += Wc
        sums.append((S, W))
    return sums, G, tops


def _few_clusters(sums: list, G: int, func: str) -> None:
    """:func:`rankwise.stats.blocks.warn_few_clusters` from the merged sums: the clusters
    holding a class are those where its mass is positive."""
    held = [np.flatnonzero(W > 0) for _, W in sums]
    is_pos = np.zeros(held[0].shape[0] + held[1].shape[0], dtype=bool)
    is_pos[: held[0].shape[0]] = True
    warn_few_clusters(is_pos, None, (np.concatenate(held), G), func)


def _prepare_ids(src: _p.Source, client, func: str) -> list | None:
    """Persist the data chunks (``src.chunks``, replaced) with their cleaned cluster ids:
    one read of each chunk (a DataFrame's id column comes from the same partitions)."""
    if src.clusters is None:
        return None
    dask, _ = require_dask()
    clean = dask.delayed(_clean_ids, pure=True)
    C = len(src.chunks)
    done = _p.persist(list(src.chunks) + [clean(r, func) for r in src.clusters], client)
    src.chunks = done[:C]
    return done[C:]


def _check_ids(ids: list, insp: _p.Inspection, client, func: str) -> None:
    """Every row has an id (the message of ``check_clusters``, with global row indices)."""
    dask, _ = require_dask()
    reports = _p.compute([dask.delayed(_id_report, pure=True)(x) for x in ids], client)
    start = 0
    found, total, what = [], 0, None
    for (n, missing), rows in zip(reports, insp.chunk_rows):
        if n != rows:
            raise ValueError(f"The 'clusters' parameter of {func} must have one id per row: a chunk of {rows} rows "
                             f"has {n} ids.")
        if missing is not None:
            what = what or missing[0]
            found.extend(int(i) + start for i in missing[1])
            total += missing[2]
        start += rows
    if total:
        shown = ", ".join(str(i) for i in found[:5]) + (", ..." if total > 5 else "")
        raise ValueError(f"The 'clusters' parameter of {func} has {what} at rows {shown}; every row needs the id "
                         f"of its cluster.")


def _count_clusters(ids: list, client) -> int:
    dask, _ = require_dask()
    res = _p.compute([dask.delayed(_chunk_unique, pure=True)(x) for x in ids], client)
    return int(_unique_inverse(_concat_ids(res))[0].shape[0])


def _cluster_sums(meta: list, ids: list, terms: list, client) -> tuple[list, int, np.ndarray]:
    """Every chunk's class-wise cluster sums of the K scorers' terms, merged by id."""
    dask, _ = require_dask()
    task = dask.delayed(_chunk_cluster_sums, pure=True)
    res = _p.compute([task(meta[c], ids[c], *[t[c] for t in terms]) for c in range(len(ids))], client)
    return merge_cluster_sums(res, len(terms))


def _no_bootstrap(n_resamples, random_state):
    raise NotImplementedError(
        "rankwise.distributed.estimate with clusters= has no bootstrap: resampling whole clusters across the "
        "buckets is not implemented. Its analytic intervals (confidence_interval() with the estimate's method) "
        "are exact, equal to rankwise.stats.estimate(..., clusters=); for the cluster bootstrap use "
        "rankwise.stats.estimate(..., clusters=) on one machine."
    )


# --- the two rounds --------------------------------------------------------------------------------

def fit_partition(part: _p.Partition, unit, bandwidth, client):
    """Round 1 and the client-side combination: ``(value, per-bucket globals, factor, bounds)``."""
    dask, _ = require_dask()
    f1 = dask.delayed(_round1, pure=True)
    res = _p.compute([f1(t, part.offsets(b), unit, bandwidth) for b, t in enumerate(part.tables)], client)
    return RankAccumulator.combine_ranges(unit, res, part.n_pos, part.n_neg)


def _data_source(y_true, y_score, sample_weight, label, score, weight, chunk_size, clusters=None):
    return _p.as_source(y_true, [y_score], sample_weight, label=label, score=None if score is None else [score],
                        weight=weight, score_names=None if score is None else [str(score)], chunk_size=chunk_size,
                        clusters=clusters)


_DATA_KEYS = ("label", "score", "weight", "n_partitions", "splitters", "chunk_size", "client")


def _row_terms(src: _p.Source, insp: _p.Inspection, unit, bandwidth, n_partitions, splitters, client):
    """Each scorer's value, range and projection term at every row: ``(values, bounds,
    terms, meta, scale, (n_pos, n_neg))``, ``terms[k]`` the persisted per-chunk arrays of
    scorer ``k`` in the chunk's row order (None for a criterion without a projection),
    ``meta`` each chunk's ``(order, lab, w)``. One range partitioning per scorer with the
    rows kept in order; each bucket sends every row's term back to its chunk."""
    dask, _ = require_dask()
    K = len(src.score_names)
    C = len(src.chunks)
    values = np.empty(K)
    bounds, terms = [], []
    meta0, scale, sizes = None, 1.0, (float("nan"), float("nan"))
    gather = dask.delayed(_gather_rows, pure=True)
    for k in range(K):
        part = _p.partition(src, insp, k, n_partitions=n_partitions, splitters=splitters, rows=True, client=client,
                            scaled=unit.scale_free)
        scale = part.mass_scale
        bw = unit.bandwidth((part.n_pos + part.n_neg) * scale, bandwidth) if unit.has_projection else bandwidth
        values[k], gs, f, b = fit_partition(part, unit, bw, client)
        bounds.append(b)
        if gs is None:
            terms.append(None)
        else:
            outs = [dask.delayed(_round2_rows, nout=C, pure=True)(t, part.offsets(b), unit, bw, gs[b], f)
                    for b, t in enumerate(part.tables)]
            per_chunk = [gather(part.meta[c], *[o[c] for o in outs]) for c in range(C)]
            terms.append(_p.persist(per_chunk, client))
            del outs, per_chunk
        if meta0 is None:
            meta0, sizes = part.meta, (part.n_pos, part.n_neg)
        del part
    return values, bounds, terms, meta0, scale, sizes


_CLUSTERS_DOC = """
    ``clusters``: the sampling unit of each row (a patient id for several lesions per
    patient, a user id for several sessions per user), as in :func:`rankwise.stats.{func}`:
    a dask array or Series (or array-like) of ids of any type aligned with the rows, or,
    when ``y_true`` is a dask DataFrame or a Parquet path, the name of the id column. A
    cluster may span chunks, partitions and buckets. The {what} is then taken over
    clusters (Obuchowski 1997), equal to the single-machine one on the concatenated data;
    a missing id (None, NaN, NA) is a ValueError."""


def estimate(y_true, y_score=None, criterion: str = "auc", *, sample_weight=None, pos_label=None,
             method: str | None = None, bandwidth: float | None = None, clusters=None, label=None, score=None,
             weight=None, n_partitions=None, splitters=None, chunk_size=None, client=None,
             **criterion_args) -> Estimate:
    """A criterion with its DeLong or Hájek standard error, on data held by Dask.

    Returns a :class:`rankwise.stats.Estimate` equal (value, ``std_error``, analytic
    ``confidence_interval``) to :func:`rankwise.stats.estimate` on the concatenated data.
    The bootstrap (``confidence_interval(method="bootstrap")``, ``bootstrap_distribution``)
    runs on the buckets (:mod:`rankwise.distributed._bootstrap`): the single-machine
    stratified bootstrap's distribution, not its random stream; unweighted data only.
    Data parameters as in :func:`rankwise.distributed.auc`;
    the others as in :func:`rankwise.stats.estimate`. Cost: the two passes of the criteria,
    then two rounds over the buckets' tables (no data moves; a few numbers per bucket).
{clusters}
    With clusters the data are read once and held on the workers, every row's term goes
    back to its chunk (as in :func:`compare`), ``n_clusters`` is set, and there is no
    bootstrap: ``confidence_interval(method="bootstrap")`` and ``bootstrap_distribution``
    raise NotImplementedError (the analytic intervals are exact; the cluster bootstrap runs
    on one machine, :func:`rankwise.stats.estimate`).
    """
    unit, params = resolve_criterion(criterion, criterion_args)
    bandwidth = check_bandwidth(bandwidth)
    _c.check_rank_criterion(unit, "estimate")
    method = check_method(method, unit)
    src = _data_source(y_true, y_score, sample_weight, label, score, weight, chunk_size, clusters)
    ids = _prepare_ids(src, client, "estimate")
    insp = _p.inspect(src, client, pos_label)
    if ids is not None:
        _check_ids(ids, insp, client, "estimate")
    if not insp.defined:
        nan = warn_undefined(f"estimate({unit.name!r})")
        return Estimate(criterion=unit.name, params=params, value=nan, std_error=nan, method=method, n_pos=nan,
                        n_neg=nan, bounds=(0.0, 1.0), weighted=src.weighted,
                        n_clusters=None if ids is None else _count_clusters(ids, client))
    if ids is not None:
        values, bounds, terms, meta, c, (P, M) = _row_terms(src, insp, unit, bandwidth, n_partitions, splitters,
                                                            client)
        weighted = src.weighted
        del src
        cols = [x for x in terms if x is not None]
        sums, G, tops = _cluster_sums(meta, ids, cols, client)
        _few_clusters(sums, G, f"estimate({unit.name!r})")
        se, accel = float("nan"), 0.0
        if cols:
            var = float(covariance_from_cluster_sums(sums, G)[0, 0]) * tops[0] ** 2
            se = float(np.sqrt(var)) if np.isfinite(var) else float("nan")
            accel = cluster_acceleration(sums)
        return Estimate(criterion=unit.name, params=params, value=float(values[0]), std_error=se, method=method,
                        n_pos=P * c, n_neg=M * c, bounds=bounds[0], weighted=weighted,
                        n_clusters=G, _inference=Inference(_no_bootstrap, lambda: accel, "dask"))
    part = _p.partition(src, insp, 0, n_partitions=n_partitions, splitters=splitters, client=client,
                        scaled=unit.scale_free)
    c = part.mass_scale  # masses are frequency weights divided by c
    bandwidth = unit.bandwidth((part.n_pos + part.n_neg) * c, bandwidth) if unit.has_projection else bandwidth
    value, gs, f, bounds = fit_partition(part, unit, bandwidth, client)
    se = float("nan")
    if gs is not None:
        dask, _ = require_dask()
        f2 = dask.delayed(_round2_var, pure=True)
        res = _p.compute([f2(t, part.offsets(b), unit, bandwidth, gs[b], f) for b, t in enumerate(part.tables)],
                         client)
        se = float(np.sqrt(variance_of_moments(res, part.n_pos, part.n_neg, c)))
    resampler = _bs.Resampler(part, unit, src.weighted, client, bandwidth, gs, f)
    # The bootstrap runs where the bucket tables live; the BCa acceleration comes from them too.
    return Estimate(criterion=unit.name, params=params, value=value, std_error=se, method=method,
                    n_pos=part.n_pos * c, n_neg=part.n_neg * c, bounds=bounds, weighted=src.weighted,
                    _inference=Inference(resampler, resampler.acceleration, "dask"))


def compare(y_true, y_scores, criterion: str = "auc", *, names=None, sample_weight=None, pos_label=None,
            method: str | None = None, reference: str | None = None, adjust: str = "holm",
            alternative: str = "two-sided", confidence_level: float = 0.95,
            bandwidth: float | None = None, clusters=None, label=None, weight=None, n_partitions=None,
            splitters=None, chunk_size=None, client=None, margin: float | None = None,
            **criterion_args) -> Comparison:
    """Compare K scorers on the same rows held by Dask; equals :func:`rankwise.stats.compare`.

    ``y_scores``: a list or dict of dask arrays / array-likes, a 2-D array (one column per
    scorer), or, when ``y_true`` is a dask DataFrame or a Parquet path, a list of score
    column names (``label=`` and ``weight=`` name the other columns). Returns the same
    :class:`rankwise.stats.Comparison` (values, joint covariance, pairwise tests, global
    test); ``reference``, ``adjust``, ``alternative`` and ``margin`` (non-inferiority,
    equivalence) as there. The data are read
    once and held on the workers (the label, score and weight columns) until every
    scorer is partitioned. Cost per scorer: one range partitioning with the rows kept in order, then each row's projection term
    (8 bytes) goes back to its chunk; only K-vectors and K x K matrices per chunk reach
    the client.
{clusters}
    ``Comparison.n_clusters`` is then set; each chunk sends back its distinct ids with a
    K-vector of sums per id and class.
    """
    dask, _ = require_dask()
    unit, params = resolve_criterion(criterion, criterion_args, "compare")
    _c.check_rank_criterion(unit, "compare")
    check_projection(unit, "compare")
    method = check_method(method, unit, "compare")
    adjust = check_choice(adjust, "adjust", "compare", ADJUSTMENTS)
    alternative = check_choice(alternative, "alternative", "compare", TEST_ALTERNATIVES)
    margin = check_margin(margin, alternative, "compare")
    level = check_level(confidence_level, "compare")
    bandwidth = check_bandwidth(bandwidth)
    framed = _p._is_path(y_true) or _p._is_dask_frame(y_true)
    cols, names = score_columns(y_scores, names, named_list=framed)
    K = len(cols)
    opts = dict(reference=check_reference(reference, names), alternative=alternative, margin=margin)
    if framed:
        src = _p.as_source(y_true, [None] * K, sample_weight, label=label, score=cols, weight=weight,
                           score_names=[f"y_scores[{n!r}]" for n in names], chunk_size=chunk_size,
                           clusters=clusters)
    else:
        src = _p.as_source(y_true, cols, sample_weight, score_names=[f"y_scores[{n!r}]" for n in names],
                           chunk_size=chunk_size, clusters=clusters)
    # The data are read once: the loaded chunks (the label, the K score columns and the
    # weights, nothing else) are held on the workers for the inspection and every
    # scorer's partition, which would otherwise each read them again (1 + K reads).
    ids = _prepare_ids(src, client, "compare")
    if ids is None:
        src.chunks = _p.persist(src.chunks, client)
    insp = _p.inspect(src, client, pos_label)
    if ids is not None:
        _check_ids(ids, insp, client, "compare")
    if not insp.defined:
        warn_undefined(f"compare({unit.name!r})")
        return build_comparison(unit.name, params, names, np.full(K, np.nan), np.full((K, K), np.nan), method, True,
                                adjust, level, n_clusters=None if ids is None else _count_clusters(ids, client),
                                **opts)
    values, bounds, terms, meta0, scale, _ = _row_terms(src, insp, unit, bandwidth, n_partitions, splitters, client)
    del src  # the loaded chunks are no longer needed: only the terms and the chunks' order
    C = len(meta0)
    if ids is not None:
        sums, G, tops = _cluster_sums(meta0, ids, terms, client)
        _few_clusters(sums, G, f"compare({unit.name!r})")
        cov = covariance_from_cluster_sums(sums, G) * tops[:, None] * tops[None, :]
        return build_comparison(unit.name, params, names, values, cov, method, True, adjust, level, bounds=bounds,
                                n_clusters=G, **opts)
    mom = dask.delayed(_chunk_moments, pure=True)
    res = _p.compute([mom(meta0[c], *[terms[k][c] for k in range(K)]) for c in range(C)], client)
    cov = np.zeros((K, K))
    for cls in (0, 1):
        W, _, M2 = merge_moments([r[cls] for r in res])
        size = W * scale  # the class size (frequency weights divided by a power of two)
        if not size > 1:
            cov[:] = np.nan
            break
        cov += M2 / W / (size - 1.0)
    return build_comparison(unit.name, params, names, values, cov, method, True, adjust, level, bounds=bounds, **opts)


estimate.__doc__ = estimate.__doc__.replace("{clusters}", _CLUSTERS_DOC.format(func="estimate",
                                                                               what="standard error"))
compare.__doc__ = compare.__doc__.replace("{clusters}", _CLUSTERS_DOC.format(func="compare",
                                                                             what="joint covariance"))
