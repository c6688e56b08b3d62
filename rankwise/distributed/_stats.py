"""Inference on Dask collections: ``estimate`` and ``compare`` from the partitioned passes.

Every criterion of :mod:`rankwise.stats` is linearised into one projection term per
observation, a function of the observation's level in the rank table (DeLong's
placements for the AUC, the Hájek projection otherwise). Each criterion computes its
projection in two rounds (:class:`rankwise.criteria.RankCriterion`), so on a
range-partitioned sample the terms are read off each bucket's table seen through its
offsets, plus a few global scalars that one small exchange provides, for example:

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
"""

from __future__ import annotations

import numpy as np

from .._kernels import ShiftedTable, merge_moments, moments
from .._validation import check_choice, warn_undefined
from ..stats import (
    ADJUSTMENTS,
    ALTERNATIVES,
    Comparison,
    Estimate,
    Inference,
    build_comparison,
    check_bandwidth,
    check_level,
    check_method,
    check_projection,
    check_reference,
    combine_ranges,
    dense_once,
    range_moments,
    range_round1,
    resolve_criterion,
    score_columns,
    variance_of_moments,
)
from . import _bootstrap as _bs
from . import _criteria as _c
from . import _partition as _p
from ._cluster import require_dask

__all__ = ["estimate", "compare"]


# --- bucket tasks --------------------------------------------------------------------------------

def _table_of(entry):
    return entry[0] if isinstance(entry, tuple) else entry


def _round1(entry, offsets: tuple, unit, bandwidth):
    """One bucket's value sums, bound sums and projection summary (the range algorithm's
    round 1, :func:`rankwise.stats.range_round1`, on the bucket)."""
    t = _table_of(entry)
    if t.size == 0:
        return None
    return range_round1(ShiftedTable(t, *offsets), [unit], [bandwidth])[0]


def _round2_var(entry, offsets: tuple, unit, bandwidth, g: dict, f: float):
    """One bucket's class moments of the (scaled) projection terms."""
    t = _table_of(entry)
    if t.size == 0:
        return None
    st = ShiftedTable(t, *offsets)
    return range_moments(st, unit, unit.bandwidth(st.n, bandwidth), g, f, dense_once(st))


def _round2_rows(entry, offsets: tuple, unit, bandwidth, g: dict, f: float):
    """Every row's (scaled) projection term, split by the chunk it came from."""
    t, inv, lab, lengths = entry
    if t.size == 0:
        h = np.zeros(lab.shape[0])
    else:
        _, hp, hn = _c.bucket_terms(t, offsets, unit, bandwidth, g, f)
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


# --- the two rounds --------------------------------------------------------------------------------

def fit_partition(part: _p.Partition, unit, bandwidth, client):
    """Round 1 and the client-side combination: ``(value, per-bucket globals, factor, bounds)``."""
    dask, _ = require_dask()
    f1 = dask.delayed(_round1, pure=True)
    res = _p.compute([f1(t, part.offsets(b), unit, bandwidth) for b, t in enumerate(part.tables)], client)
    return combine_ranges(unit, res, part.n_pos, part.n_neg)


def _data_source(y_true, y_score, sample_weight, label, score, weight, chunk_size):
    return _p.as_source(y_true, [y_score], sample_weight, label=label, score=None if score is None else [score],
                        weight=weight, score_names=None if score is None else [str(score)], chunk_size=chunk_size)


_DATA_KEYS = ("label", "score", "weight", "n_partitions", "splitters", "chunk_size", "client")


def estimate(y_true, y_score=None, criterion: str = "auc", *, sample_weight=None, pos_label=None,
             method: str | None = None, bandwidth: float | None = None, label=None, score=None, weight=None,
             n_partitions=None, splitters=None, chunk_size=None, client=None, **criterion_args) -> Estimate:
    """A criterion with its DeLong or Hájek standard error, on data held by Dask.

    Returns a :class:`rankwise.stats.Estimate` equal (value, ``std_error``, analytic
    ``confidence_interval``) to :func:`rankwise.stats.estimate` on the concatenated data.
    The bootstrap (``confidence_interval(method="bootstrap")``, ``bootstrap_distribution``)
    runs on the buckets (:mod:`rankwise.distributed._bootstrap`): the single-machine
    stratified bootstrap's distribution, not its random stream; unweighted data only.
    Data parameters as in :func:`rankwise.distributed.auc`;
    the others as in :func:`rankwise.stats.estimate`. Cost: the two passes of the criteria,
    then two rounds over the buckets' tables (no data moves; a few numbers per bucket).
    """
    unit, params = resolve_criterion(criterion, criterion_args)
    bandwidth = check_bandwidth(bandwidth)
    _c.check_rank_criterion(unit, "estimate")
    method = check_method(method, unit)
    src = _data_source(y_true, y_score, sample_weight, label, score, weight, chunk_size)
    insp = _p.inspect(src, client, pos_label)
    if not insp.defined:
        nan = warn_undefined(f"estimate({unit.name!r})")
        return Estimate(criterion=unit.name, params=params, value=nan, std_error=nan, method=method, n_pos=nan,
                        n_neg=nan, bounds=(0.0, 1.0), weighted=src.weighted)
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
            bandwidth: float | None = None, label=None, weight=None, n_partitions=None, splitters=None,
            chunk_size=None, client=None, **criterion_args) -> Comparison:
    """Compare K scorers on the same rows held by Dask; equals :func:`rankwise.stats.compare`.

    ``y_scores``: a list or dict of dask arrays / array-likes, a 2-D array (one column per
    scorer), or, when ``y_true`` is a dask DataFrame or a Parquet path, a list of score
    column names (``label=`` and ``weight=`` name the other columns). Returns the same
    :class:`rankwise.stats.Comparison` (values, joint covariance, pairwise tests, global
    test); ``reference``, ``adjust`` and ``alternative`` as there. The data are read
    once and held on the workers (the label, score and weight columns) until every
    scorer is partitioned. Cost per scorer: one range partitioning with the rows kept in order, then each row's projection term
    (8 bytes) goes back to its chunk; only K-vectors and K x K matrices per chunk reach
    the client.
    """
    dask, _ = require_dask()
    unit, params = resolve_criterion(criterion, criterion_args, "compare")
    _c.check_rank_criterion(unit, "compare")
    check_projection(unit, "compare")
    method = check_method(method, unit, "compare")
    adjust = check_choice(adjust, "adjust", "compare", ADJUSTMENTS)
    alternative = check_choice(alternative, "alternative", "compare", ALTERNATIVES)
    level = check_level(confidence_level, "compare")
    bandwidth = check_bandwidth(bandwidth)
    framed = _p._is_path(y_true) or _p._is_dask_frame(y_true)
    cols, names = score_columns(y_scores, names, named_list=framed)
    K = len(cols)
    opts = dict(reference=check_reference(reference, names), alternative=alternative)
    if framed:
        src = _p.as_source(y_true, [None] * K, sample_weight, label=label, score=cols, weight=weight,
                           score_names=[f"y_scores[{n!r}]" for n in names], chunk_size=chunk_size)
    else:
        src = _p.as_source(y_true, cols, sample_weight, score_names=[f"y_scores[{n!r}]" for n in names],
                           chunk_size=chunk_size)
    # The data are read once: the loaded chunks (the label, the K score columns and the
    # weights, nothing else) are held on the workers for the inspection and every
    # scorer's partition, which would otherwise each read them again (1 + K reads).
    src.chunks = _p.persist(src.chunks, client)
    insp = _p.inspect(src, client, pos_label)
    if not insp.defined:
        warn_undefined(f"compare({unit.name!r})")
        return build_comparison(unit.name, params, names, np.full(K, np.nan), np.full((K, K), np.nan), method, True,
                                adjust, level, **opts)
    values = np.empty(K)
    bounds = []
    terms = []  # per scorer: persisted per-chunk term arrays, in chunk row order
    meta0 = None
    gather = dask.delayed(_gather_rows, pure=True)
    C = len(src.chunks)
    for k in range(K):
        part = _p.partition(src, insp, k, n_partitions=n_partitions, splitters=splitters, rows=True, client=client,
                            scaled=unit.scale_free)
        scale = part.mass_scale
        bw = unit.bandwidth((part.n_pos + part.n_neg) * scale, bandwidth)
        values[k], gs, f, b = fit_partition(part, unit, bw, client)
        bounds.append(b)
        outs = [dask.delayed(_round2_rows, nout=C, pure=True)(t, part.offsets(b), unit, bw, gs[b], f)
                for b, t in enumerate(part.tables)]
        per_chunk = [gather(part.meta[c], *[o[c] for o in outs]) for c in range(C)]
        terms.append(_p.persist(per_chunk, client))
        if meta0 is None:
            meta0 = part.meta
        del part, outs, per_chunk
    del src  # the loaded chunks are no longer needed: only the terms and the chunks' order
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
