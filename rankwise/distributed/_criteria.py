"""Exact ranking criteria on Dask collections.

Each function validates the data in one pass, range-partitions the scores in a second
(:mod:`._partition`), runs the single-machine pass of :mod:`rankwise._kernels._passes`
on every bucket's table seen through its offsets (:class:`._partition.ShiftedTable`),
and adds the buckets' partial sums on the client. The results equal the single-machine
functions of :mod:`rankwise.metrics` on the concatenated data (to rounding, about 1e-15
relative; exactly for counts).
"""

from __future__ import annotations

import math
import types
from typing import Any

import numpy as np

from .._kernels import _passes
from .._kernels._ranktable import ClassSide, RankTable
from .._validation import warn_undefined
from ..metrics._criteria import CRITERIA, ROCCurve, parse_criteria
from . import _partition as _p
from ._cluster import require_dask

__all__ = [
    "auc", "rank_statistic", "local_auc", "pnorm_push", "dcg", "ndcg", "partial_auc", "roc_curve", "evaluate",
]


# --- per-bucket partial sums ---------------------------------------------------------------

def _partial(st: RankTable, name: str, params: dict) -> tuple:
    """The bucket's share of the global sums behind criterion ``name``."""
    if name == "auc":
        return (_passes.auc(st),)
    if name == "rank_statistic":
        scale = "minmax" if params["scale"] == "minmax" else "raw"
        return _passes.rank_statistic(st, params["phi"], params["ties"], scale)
    if name == "local_auc":
        return (_passes.local_auc(st, params["top"]),)
    if name == "pnorm_push":
        # Rudin's R_p (normalised heights when asked): a plain sum over negatives.
        side = st.neg_side
        h = _passes._below_plus_tied(side, 0.5 if params["ties"] == "average" else 1.0)
        h = h.copy() if side.unit else h
        if params["normalize"]:
            h /= st.n_pos
        return (side.total(_passes._power(h, params["p"])),)
    if name in ("dcg", "ndcg"):
        return (_passes.dcg(st, params["k"], params["discount"]),)
    if name == "partial_auc":
        max_fpr = params["max_fpr"]
        if max_fpr >= 1.0:
            return (_passes.auc(st),)
        side = st.neg_side
        # The single-machine pass keeps the negative levels whose segment starts left of
        # max_fpr (own_below + mass > (1 - max_fpr) n-, a suffix); keep the same ones here.
        thr = (1.0 - max_fpr) * st.n_neg * (1.0 + _passes._REL)
        j = int(np.searchsorted(side.own_below + side.mass, thr, side="right"))
        sub = ClassSide(side.mass[j:], side.own_below[j:], side.other_below[j:], side.other_tied[j:], side.unit)
        view = types.SimpleNamespace(neg_side=sub, n_neg=st.n_neg, n_pos=st.n_pos)
        return (_passes.partial_auc(view, max_fpr),)
    raise ValueError(f"Unknown criterion {name!r}.")  # pragma: no cover


def _bucket_partials(t: RankTable, offsets: tuple, specs: list) -> list | None:
    if isinstance(t, tuple):
        t = t[0]
    if t.size == 0:
        return None
    st = _p.ShiftedTable(t, *offsets)
    return [_partial(st, name, params) for name, params in specs]


def _finish(name: str, params: dict, sums: tuple, n_pos: float, n_neg: float) -> float:
    """Turn the summed partials into the criterion, as :mod:`rankwise.metrics` does."""
    if name in ("auc", "local_auc", "dcg"):
        return float(sums[0])
    if name == "rank_statistic":
        w, wmin, wmax = sums
        scale = params["scale"]
        if scale == "raw":
            return float(w)
        if scale == "mean":
            return float(w / n_pos)
        if not wmax > wmin:
            return warn_undefined("rank_statistic(scale='minmax')", "phi takes the same value at the best and the worst ordering")
        return float((w - wmin) / (wmax - wmin))
    if name == "pnorm_push":
        if params["normalize"]:
            return float((sums[0] / n_neg) ** (1.0 / params["p"]))
        return float(sums[0])
    if name == "ndcg":
        stub = RankTable(np.empty(0), n_pos, n_neg)
        return float(sums[0] / _passes.ideal_dcg(stub, params["k"], params["discount"]))
    if name == "partial_auc":
        mf, std = params["max_fpr"], params["standardize"]
        pauc = float(sums[0])
        if std is None or mf >= 1.0:
            return pauc
        lo, hi = 0.5 * mf * mf, mf
        return 0.5 * (1.0 + (pauc - lo) / (hi - lo))
    raise ValueError(f"Unknown criterion {name!r}.")  # pragma: no cover


def _sum_partials(results: list, n_specs: int) -> list[tuple]:
    out = []
    for i in range(n_specs):
        parts = [r[i] for r in results if r is not None]
        width = len(parts[0]) if parts else 1
        out.append(tuple(math.fsum(p[j] for p in parts) for j in range(width)))
    return out


def criteria_on_partition(part: _p.Partition, specs: list, client: Any = None) -> list[float]:
    """Every criterion of ``specs`` (``(name, checked_params)``) on a partitioned sample."""
    dask, _ = require_dask()
    f = dask.delayed(_bucket_partials, pure=True)
    results = _p.compute([f(t, part.offsets(b), specs) for b, t in enumerate(part.tables)], client)
    sums = _sum_partials(results, len(specs))
    return [_finish(name, params, s, part.n_pos, part.n_neg) for (name, params), s in zip(specs, sums)]


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
    checker, _ = CRITERIA[name]
    checked = checker(**params)
    return _run_specs(fn_name, [(name, checked)], y_true, y_score, **kw)[0]


def _run_specs(fn_name: str, specs: list, y_true, y_score, *, sample_weight=None, pos_label=None, label=None,
               score=None, weight=None, n_partitions=None, splitters=None, chunk_size=None, client=None,
               undefined: str | None = None) -> list[float]:
    src = _p.as_source(y_true, [y_score], sample_weight, label=label, score=None if score is None else [score],
                       weight=weight, score_names=None if score is None else [str(score)], chunk_size=chunk_size)
    insp = _p.inspect(src, client, pos_label)
    if not insp.defined:
        warn_undefined(undefined or fn_name)
        return [float("nan")] * len(specs)
    part = _p.partition(src, insp, 0, n_partitions=n_partitions, splitters=splitters, client=client)
    try:
        return criteria_on_partition(part, specs, client)
    finally:
        del part


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


def partial_auc(y_true, y_score=None, *, max_fpr: float, standardize: str | None = None, sample_weight=None,
                pos_label=None, **kw) -> float:
    """Exact partial AUC over ``fpr in [0, max_fpr]`` (McClish's standardisation on request);
    equals :func:`rankwise.partial_auc`."""
    return _one("partial_auc", "partial_auc", {"max_fpr": max_fpr, "standardize": standardize}, y_true, y_score,
                dict(sample_weight=sample_weight, pos_label=pos_label, **kw))


def _parse_criteria(criteria) -> list[tuple[str, str, dict]]:
    """``(label, name, checked_params)`` per criterion, with :func:`rankwise.evaluate`'s rules."""
    return parse_criteria(criteria)


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
    checked = _parse_criteria(criteria)
    values = _run_specs("evaluate", [(n, p) for _, n, p in checked], y_true, y_score,
                        sample_weight=sample_weight, pos_label=pos_label, **kw)
    return {lab: v for (lab, _, _), v in zip(checked, values)}


for _f in (auc, rank_statistic, local_auc, pnorm_push, dcg, ndcg, partial_auc, evaluate):
    _params = "\n    Parameters\n    ----------" + _DATA_DOC
    if "    Examples\n" in _f.__doc__:
        _head, _tail = _f.__doc__.split("    Examples\n", 1)
        _f.__doc__ = _head.rstrip() + "\n" + _params + "\n    Examples\n" + _tail
    else:
        _f.__doc__ = _f.__doc__.rstrip() + "\n" + _params
del _f, _params


# --- ROC curve -------------------------------------------------------------------------------

def _bucket_roc(t, offsets: tuple, quota: int | None):
    if isinstance(t, tuple):
        t = t[0]
    if t.size == 0:
        e = np.empty(0)
        return e, e, t.levels[:0]
    st = _p.ShiftedTable(t, *offsets)
    if quota is None or quota >= t.size:
        idx = slice(None)
    else:
        idx = np.unique(np.round(np.linspace(0, t.size - 1, max(quota, 2))).astype(np.int64))
    fps = st.n_neg - st.neg_below[idx]
    tps = st.n_pos - st.pos_below[idx]
    return fps[::-1], tps[::-1], t.levels[idx][::-1]


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
    dask, _ = require_dask()
    if resolution is not None:
        resolution = int(resolution)
        if resolution < 2:
            raise ValueError(f"The 'resolution' parameter of roc_curve must be an integer >= 2 or None. Got {resolution!r}.")
    keys = ("label", "score", "weight", "chunk_size", "n_partitions", "splitters", "client")
    opts = {k: kw.pop(k, None) for k in keys}
    if kw:
        raise TypeError(f"roc_curve got unexpected keyword arguments {sorted(kw)}.")
    client = opts["client"]
    score = opts["score"]
    src = _p.as_source(y_true, [y_score], sample_weight, label=opts["label"],
                       score=None if score is None else [score], weight=opts["weight"],
                       score_names=None if score is None else [str(score)], chunk_size=opts["chunk_size"])
    insp = _p.inspect(src, client, pos_label)
    if not insp.defined:
        warn_undefined("roc_curve")
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
    with np.errstate(invalid="ignore", divide="ignore"):
        return ROCCurve(fps / part.n_neg, tps / part.n_pos, thr)
