"""Exact ranking criteria on Dask collections.

Each function validates the data in one pass, range-partitions the scores in a second
(:mod:`._partition`: every bucket a :class:`rankwise.stats.RankAccumulator` in worker
memory), runs every criterion's own pass (:mod:`rankwise.criteria`) on every bucket seen
through its offsets (:meth:`rankwise.stats.RankAccumulator.range_sums`), and merges the
buckets' sums on the client before the criterion's finish. The results equal
the single-machine functions of :mod:`rankwise.metrics` on the concatenated data (to
rounding, about 1e-15 relative; exactly for counts).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .. import criteria as _criteria
from .._validation import warn_undefined
from ..metrics import DEFAULT_CRITERIA, PRCurve, ROCCurve, pr_from_points
from . import _partition as _p
from ._cluster import require_dask

# The public functions (the bucket helpers below are for the package's other modules).
__all__ = ["auc", "rank_statistic", "local_auc", "pnorm_push", "dcg", "ndcg", "partial_auc", "roc_curve",
           "precision_recall_curve", "evaluate"]


# --- per-bucket sums --------------------------------------------------------------------------

def bucket_sums(entry, offsets: tuple, units: list) -> list | None:
    """Each criterion's sums over one bucket seen from the whole sample (None if empty)."""
    return _p.bucket_of(entry).range_sums(units, offsets)


def criteria_on_partition(part: _p.Partition, units: list, client: Any = None) -> list[float]:
    """Every criterion of ``units`` on a partitioned sample."""
    dask, _ = require_dask()
    f = dask.delayed(bucket_sums, pure=True)
    results = _p.compute([f(t, part.offsets(b), units) for b, t in enumerate(part.tables)], client)
    out = []
    for i, unit in enumerate(units):
        sums = unit.merge([r[i] for r in results if r is not None])
        out.append(float(unit.finish(sums, part.n_pos, part.n_neg)))
    return out


def check_rank_criterion(unit, func: str) -> None:
    """rankwise.distributed runs criteria of the rank table (binary labels) only."""
    if not isinstance(unit, _criteria.RankCriterion):
        raise NotImplementedError(
            f"rankwise.distributed.{func} does not support {unit.name} (real-valued labels); "
            f"use rankwise.{'stats.' if func in ('estimate', 'compare') else ''}{func} on one machine."
        )


# --- running on data -------------------------------------------------------------------------

_DATA_DOC = """
    y_true : dask array, array-like, dask DataFrame or path
        Binary labels ({0, 1}, {-1, +1}, booleans, or two values with ``pos_label``); or a
        dask DataFrame, or the path of a Parquet file or directory, holding the columns
        named by ``label``, ``score`` (and ``weight``).
    y_score : dask array or array-like, optional
        Scores (higher = more likely positive), with the same length (and, for dask
        arrays, ideally the same chunks) as ``y_true``. Omit with a DataFrame or path.
    sample_weight : dask array or array-like, optional
        Non-negative frequency weights.
    pos_label : optional
        The positive label, as in :func:`rankwise.auc`.
    label, score, weight : str, optional
        Column names, for a DataFrame or Parquet input.
    n_partitions : int, optional
        Number of score ranges (buckets); default: one per 5 million rows, at least
        ``min(input chunks, 4)``. Only the speed depends on it, never the result.
    splitters : array-like, optional
        Explicit bucket boundaries (sorted; duplicates allowed), overriding the sampled ones.
    chunk_size : int, optional
        Rows per chunk when numpy input is turned into a dask array (default 1,000,000).
    client : distributed.Client, optional
        Where to compute; default: the current default client, else dask's local scheduler.
"""


def _one(fn_name: str, name: str, params: dict, y_true, y_score, kw: dict) -> float:
    unit = _criteria.get((name, params), fn_name)
    return _run_units(fn_name, [unit], y_true, y_score, **kw)[0]


def _run_units(fn_name: str, units: list, y_true, y_score, *, sample_weight=None, pos_label=None, label=None,
               score=None, weight=None, n_partitions=None, splitters=None, chunk_size=None, client=None,
               undefined: str | None = None) -> list[float]:
    src = _p.as_source(y_true, [y_score], sample_weight, label=label, score=None if score is None else [score],
                       weight=weight, score_names=None if score is None else [str(score)], chunk_size=chunk_size)
    insp = _p.inspect(src, client, pos_label)
    if not insp.defined:
        warn_undefined(undefined or fn_name)
        return [float("nan")] * len(units)
    # Scale-free criteria read masses divided by insp.mass_scale (no overflow at any weight
    # scale); the others the weights as given. Two partitions only when both kinds are
    # asked for and the weights needed scaling.
    groups = {}
    for i, unit in enumerate(units):
        groups.setdefault(unit.scale_free or insp.mass_scale == 1.0, []).append(i)
    out = [float("nan")] * len(units)
    for scaled, idx in groups.items():
        part = _p.partition(src, insp, 0, n_partitions=n_partitions, splitters=splitters, client=client,
                            scaled=scaled)
        try:
            for i, v in zip(idx, criteria_on_partition(part, [units[i] for i in idx], client)):
                out[i] = v
        finally:
            del part
    return out


def auc(y_true, y_score=None, *, sample_weight=None, pos_label=None, **kw) -> float:
    """Exact AUC (ties count 1/2) of data held by Dask; equals :func:`rankwise.auc`."""
    return _one("auc", "auc", {}, y_true, y_score, dict(sample_weight=sample_weight, pos_label=pos_label, **kw))


def rank_statistic(y_true, y_score=None, phi="auc", *, ties: str = "average", scale: str = "raw",
                   sample_weight=None, pos_label=None, label=None, score=None, weight=None, n_partitions=None,
                   splitters=None, chunk_size=None, client=None, **phi_params) -> float:
    """Exact linear rank statistic ``W_n`` for any ``phi``; equals :func:`rankwise.rank_statistic`
    (same ``phi``, ``ties`` and ``scale``). Data parameters as in :func:`auc`."""
    kw = dict(sample_weight=sample_weight, pos_label=pos_label, label=label, score=score, weight=weight,
              n_partitions=n_partitions, splitters=splitters, chunk_size=chunk_size, client=client)
    return _one("rank_statistic", "rank_statistic", {"phi": phi, "ties": ties, "scale": scale, **phi_params},
                y_true, y_score, kw)


def local_auc(y_true, y_score=None, *, top: float, sample_weight=None, pos_label=None, **kw) -> float:
    """Exact local AUC (CV07); equals :func:`rankwise.local_auc`. Data parameters as in :func:`auc`."""
    return _one("local_auc", "local_auc", {"top": top}, y_true, y_score,
                dict(sample_weight=sample_weight, pos_label=pos_label, **kw))


def pnorm_push(y_true, y_score=None, *, p: float, ties: str = "average", normalize: bool = True,
               sample_weight=None, pos_label=None, **kw) -> float:
    """Exact p-norm push (Rudin's height form, a loss); equals :func:`rankwise.pnorm_push`."""
    return _one("pnorm_push", "pnorm_push", {"p": p, "ties": ties, "normalize": normalize}, y_true, y_score,
                dict(sample_weight=sample_weight, pos_label=pos_label, **kw))


def dcg(y_true, y_score=None, *, k: int | None = None, discount=None, sample_weight=None, pos_label=None,
        **kw) -> float:
    """Exact binary-relevance DCG@k (tied blocks share their mean discount); equals :func:`rankwise.dcg`."""
    return _one("dcg", "dcg", {"k": k, "discount": discount}, y_true, y_score,
                dict(sample_weight=sample_weight, pos_label=pos_label, **kw))


def ndcg(y_true, y_score=None, *, k: int | None = None, discount=None, sample_weight=None, pos_label=None,
         **kw) -> float:
    """Exact NDCG@k; equals :func:`rankwise.ndcg`."""
    return _one("ndcg", "ndcg", {"k": k, "discount": discount}, y_true, y_score,
                dict(sample_weight=sample_weight, pos_label=pos_label, **kw))


def partial_auc(y_true, y_score=None, *, max_fpr: float | None = None, standardize: str | None = None,
                min_fpr: float | None = None, min_tpr: float | None = None, max_tpr: float | None = None,
                sample_weight=None, pos_label=None, **kw) -> float:
    """Exact partial AUC over a band of false-positive (``min_fpr``, ``max_fpr``) or
    true-positive (``min_tpr``, ``max_tpr``) rates, McClish-standardised on request; equals
    :func:`rankwise.partial_auc`."""
    band = {k: v for k, v in (("max_fpr", max_fpr), ("min_fpr", min_fpr), ("min_tpr", min_tpr),
                              ("max_tpr", max_tpr)) if v is not None}
    return _one("partial_auc", "partial_auc", {**band, "standardize": standardize}, y_true, y_score,
                dict(sample_weight=sample_weight, pos_label=pos_label, **kw))


def evaluate(y_true, y_score=None, criteria=None, *, sample_weight=None, pos_label=None, **kw) -> dict[str, float]:
    """Several criteria from one range partitioning; equals :func:`rankwise.evaluate`.

    ``criteria`` takes the same specs as :func:`rankwise.evaluate` (default
    :data:`rankwise.metrics.DEFAULT_CRITERIA`). Two passes over the data in all (validate
    and sample; split and shuffle), then one pass per bucket over its table for every
    criterion at once. Data parameters as in :func:`auc`.

    Examples
    --------
    Without a distributed client, dask's local threads do the work:

    >>> import numpy as np
    >>> import rankwise.distributed as rwd
    >>> y, s = np.array([0, 0, 1, 1]), np.array([0.1, 0.4, 0.35, 0.8])
    >>> rwd.evaluate(y, s, ["auc", "partial_auc:max_fpr=0.5"], n_partitions=2)
    {'auc': 0.75, 'partial_auc:max_fpr=0.5': 0.25}
    """
    units = _criteria.parse(criteria, "evaluate", DEFAULT_CRITERIA)
    for _, unit in units:
        check_rank_criterion(unit, "evaluate")
    values = _run_units("evaluate", [u for _, u in units], y_true, y_score,
                        sample_weight=sample_weight, pos_label=pos_label, **kw)
    return {lab: v for (lab, _), v in zip(units, values)}


for _f in (auc, rank_statistic, local_auc, pnorm_push, dcg, ndcg, partial_auc, evaluate):
    _params = "\n    Parameters\n    ----------" + _DATA_DOC
    if "    Examples\n" in _f.__doc__:
        _head, _tail = _f.__doc__.split("    Examples\n", 1)
        _f.__doc__ = _head.rstrip() + "\n" + _params + "\n    Examples\n" + _tail
    else:
        _f.__doc__ = _f.__doc__.rstrip() + "\n" + _params
del _f, _params


# --- ROC curve -------------------------------------------------------------------------------

def _bucket_roc(entry, offsets: tuple, quota: int | None):
    return _p.bucket_of(entry).range_roc(offsets, quota)


def roc_curve(y_true, y_score=None, *, resolution: int | None = 1000, sample_weight=None, pos_label=None,
              **kw) -> ROCCurve:
    """The empirical ROC curve, exact at every point returned.

    Parameters
    ----------
    resolution : int or None
        About how many points to return: each bucket keeps evenly spaced levels in
        proportion to its number of distinct scores (always its highest and lowest), so the
        returned points are a subset of :func:`rankwise.roc_curve`'s, each with its exact
        ``(fpr, tpr, threshold)``; joining them by straight lines gives a curve below the
        exact one by at most the area of the skipped points. ``None``: every distinct score
        (the whole curve comes back to the client).
    Other parameters as in :func:`auc`.

    Returns
    -------
    ROCCurve
        ``fpr``, ``tpr``, ``thresholds`` by decreasing threshold, starting at ``(0, 0)``
        with threshold ``+inf``.
    """
    fps, tps, thr, n_pos, n_neg = _curve_points("roc_curve", y_true, y_score, resolution, sample_weight,
                                                pos_label, kw)
    with np.errstate(invalid="ignore", divide="ignore"):
        return ROCCurve(fps / n_neg, tps / n_pos, thr)


def precision_recall_curve(y_true, y_score=None, *, resolution: int | None = 1000, sample_weight=None,
                           pos_label=None, **kw) -> PRCurve:
    """The empirical precision-recall curve, exact at every point returned.

    ``resolution`` and the data parameters as in :func:`roc_curve`: the points are those of
    :func:`rankwise.precision_recall_curve` (a subset when ``resolution`` is set), each with
    its exact ``(precision, recall, threshold)``, by decreasing threshold from ``(1, 0)``.
    """
    fps, tps, thr, n_pos, _ = _curve_points("precision_recall_curve", y_true, y_score, resolution, sample_weight,
                                            pos_label, kw)
    return pr_from_points(fps, tps, thr, n_pos)


def _curve_points(func, y_true, y_score, resolution, sample_weight, pos_label, kw):
    """ROC points as masses ``(fps, tps, thresholds)`` by decreasing threshold from +inf,
    and the class totals."""
    dask, _ = require_dask()
    if resolution is not None:
        resolution = int(resolution)
        if resolution < 2:
            raise ValueError(f"The 'resolution' parameter of {func} must be an integer >= 2 or None. "
                             f"Got {resolution!r}.")
    keys = ("label", "score", "weight", "chunk_size", "n_partitions", "splitters", "client")
    opts = {k: kw.pop(k, None) for k in keys}
    if kw:
        raise TypeError(f"{func} got unexpected keyword arguments {sorted(kw)}.")
    client = opts["client"]
    score = opts["score"]
    src = _p.as_source(y_true, [y_score], sample_weight, label=opts["label"],
                       score=None if score is None else [score], weight=opts["weight"],
                       score_names=None if score is None else [str(score)], chunk_size=opts["chunk_size"])
    insp = _p.inspect(src, client, pos_label)
    if not insp.defined:
        warn_undefined(func)
    part = _p.partition(src, insp, 0, n_partitions=opts["n_partitions"], splitters=opts["splitters"], client=client)
    total = int(part.sizes.sum())
    quotas = [None] * part.n_buckets
    if resolution is not None and total > resolution:
        quotas = [int(math.ceil(resolution * int(sz) / total)) for sz in part.sizes]
    f = dask.delayed(_bucket_roc, pure=True)
    res = _p.compute([f(t, part.offsets(b), quotas[b]) for b, t in enumerate(part.tables)], client)
    res = res[::-1]  # highest scores first
    fps = np.concatenate([[0.0]] + [r[0] for r in res])
    tps = np.concatenate([[0.0]] + [r[1] for r in res])
    lv = [r[2] for r in res]
    dtype = lv[0].dtype if lv and lv[0].dtype.kind == "f" else np.float64
    thr = np.concatenate([np.array([np.inf], dtype=dtype)] + [x.astype(dtype, copy=False) for x in lv])
    return fps, tps, thr, part.n_pos, part.n_neg
