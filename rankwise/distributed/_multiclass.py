"""Exact one-vs-rest multiclass AUC on Dask collections.

Class ``k`` against the rest is the binary AUC of ``y == labels[k]`` on score column
``k``: each column is range-partitioned (:mod:`._partition`) with that class as the
positive one, and the binary AUC runs on every bucket's rank table as it does for
:func:`rankwise.distributed.auc`. One pass validates everything and draws the splitter
samples of all columns; then one split-and-merge pass per class (K in all), or one over
the n K pooled entries for the micro average. Results equal
:func:`rankwise.multiclass_auc` on the concatenated data (to rounding).
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np

from .. import criteria as _criteria
from .._labels import MULTICLASS, LabelSummary
from .._validation import check_choice, format_values, to_numpy, warn_undefined, weight_scale
from ..metrics.blocks import ovr_average
from . import _partition as _p
from ._cluster import require_dask
from ._criteria import criteria_on_partition

__all__ = ["multiclass_auc"]

_FUNC = "multiclass_auc"


# --- pass 1: labels, scores, weights, row sums --------------------------------------------------

def _inspect_chunk(chunk, index: int, n_sample: int):
    """One chunk's label summary (classes with counts and masses), per-column non-finite
    counts and splitter sample, weight checks, and the rows whose scores do not sum to 1."""
    y, scores, w = chunk
    n = int(y.shape[0])
    for s in scores:
        if s.shape[0] != n:
            raise ValueError(f"A chunk has {n} labels but {s.shape[0]} scores; the inputs' chunks are not aligned.")
    info: dict = {"n": n, "labels": MULTICLASS.summarize(y, w)}
    rng = np.random.default_rng([_p._SEED, index])
    pick = rng.integers(0, n, size=min(n, n_sample)) if n else np.empty(0, dtype=np.int64)
    cols, finite = [], True
    for s in scores:
        bad = (0, -1)
        if s.dtype.kind == "f":
            fin = np.isfinite(s)
            if not fin.all():
                idx = np.flatnonzero(~fin)
                bad = (int(idx.shape[0]), int(idx[0]))
                finite = False
        cols.append({"bad": bad, "sample": s[pick] if bad[0] == 0 else s[:0]})
    info["scores"] = cols
    info["sums"] = (0, -1, 0.0)
    if finite and n and scores:
        total = np.zeros(n)
        for s in scores:
            total += s
        off = np.flatnonzero(~np.isclose(1.0, total))
        if off.shape[0]:
            info["sums"] = (int(off.shape[0]), int(off[0]), float(total[off[0]]))
    if w is not None:
        fin = np.isfinite(w)
        bad = np.flatnonzero(~fin)
        neg = np.flatnonzero(fin & (w < 0))
        info["w_bad"] = (int(bad.shape[0]), int(bad[0]) if bad.shape[0] else -1)
        info["w_neg"] = (int(neg.shape[0]), int(neg[0]) if neg.shape[0] else -1)
        info["w_max"] = float(w[fin].max(initial=0.0))
    return info


def _first(pairs: list, offsets: list) -> tuple[int, int]:
    total, first = 0, -1
    for (cnt, idx), off in zip(pairs, offsets):
        if cnt and first < 0:
            first = off + idx
        total += cnt
    return total, first


def _classes(summary: LabelSummary, labels: Any) -> tuple[list, np.ndarray]:
    """``(classes, mass)``: the classes in the order of the score columns and each one's
    mass (0 for a class of ``labels`` without rows); the errors of
    :func:`rankwise.multiclass_auc`."""
    MULTICLASS.resolve(summary, func=f"rankwise.distributed.{_FUNC}")  # raises for missing or incomparable labels
    if not summary.exact or summary.n_distinct > len(summary.values):
        raise ValueError(f"rankwise.distributed.{_FUNC} supports at most {len(summary.values)} classes; y_true holds "
                         f"{'at least ' if not summary.exact else ''}{summary.n_distinct}.")
    present = {v: m for v, _, m in summary.values}
    if labels is None:
        classes = [v for v, _, _ in summary.values]
    else:
        lab = np.asarray(to_numpy(labels, "labels"))
        if lab.ndim != 1 or lab.size == 0:
            raise ValueError("The 'labels' argument must list the classes of the score columns (a non-empty "
                             "1-dimensional sequence).")
        classes = lab.tolist()
        index: dict = {}
        for v in classes:
            if v in index:
                raise ValueError(f"The 'labels' argument must hold distinct classes; {v!r} is repeated.")
            index[v] = True
        missing = [v for v in present if v not in index]
        if missing:
            raise ValueError(f"The 'labels' argument must contain every class of y_true; missing: "
                             f"{format_values(np.asarray(missing, dtype=object))}.")
    return classes, np.array([float(present.get(v, 0.0)) for v in classes])


# --- inputs --------------------------------------------------------------------------------------

def _score_columns(y_score: Any) -> tuple[list, list | None]:
    """``(columns, names)``: a score matrix as a list of 1-D columns, and the column names
    of a (pandas or dask) DataFrame (None otherwise)."""
    mod = type(y_score).__module__ or ""
    if hasattr(y_score, "columns") and (mod.startswith("pandas") or mod.startswith("dask")):
        names = list(y_score.columns)
        if mod.startswith("dask"):
            return [y_score[c].to_dask_array(lengths=True) for c in names], names
        return [to_numpy(y_score[c], str(c)) for c in names], names
    if _p._is_dask_array(y_score):
        if y_score.ndim != 2:
            raise ValueError(f"The 'y_score' argument must have shape (n, K): one column per class. Got a dask "
                             f"array of shape {y_score.shape}.")
        return [y_score[:, j] for j in range(y_score.shape[1])], None
    if y_score is None:
        raise TypeError("The 'y_score' argument must be an array-like of shape (n, K). Got None instead.")
    S = np.asarray(y_score)
    if S.ndim != 2:
        raise ValueError(f"The 'y_score' argument must have shape (n, K): one column per class. Got shape "
                         f"{S.shape}.")
    return [S[:, j] for j in range(S.shape[1])], None


def _pool(chunk, cols: tuple, classes: tuple):
    """The chunk's n K (row, class) entries for the micro average: positive where the row
    is of the class, the class's score, the row's weight."""
    y, scores, w = chunk
    K = len(classes)
    own = np.empty((y.shape[0], K), dtype=bool)
    S = np.empty((y.shape[0], K))
    for k, (c, lab) in enumerate(zip(cols, classes)):
        own[:, k] = _p.is_positive(y, lab)
        S[:, k] = scores[c]
    return own.ravel(), (S.ravel(),), None if w is None else np.repeat(w, K)


# --- the function -------------------------------------------------------------------------------

def multiclass_auc(y_true, y_score=None, *, multi_class: str = "ovr", average: str | None = "macro", labels=None,
                   sample_weight=None, label=None, score=None, weight=None, n_partitions=None, splitters=None,
                   chunk_size=None, client=None):
    r"""Exact one-vs-rest multiclass AUC (macro, weighted, micro or per class) of data held
    by Dask; equals :func:`rankwise.multiclass_auc` on the concatenated data.

    Parameters
    ----------
    y_true : dask array, array-like, dask DataFrame or path
        Class labels (any values); or a dask DataFrame, or the path of a Parquet file or
        directory, holding the columns named by ``label``, ``score`` and ``weight``.
    y_score : dask array (n, K), array-like (n, K) or DataFrame, optional
        Column ``k`` scores class ``labels[k]``, each row summing to 1 (probabilities,
        scikit-learn's rule, as :func:`rankwise.multiclass_auc`). A (pandas or dask)
        DataFrame's columns are matched to the classes by name. Omit with a DataFrame or
        path ``y_true``.
    multi_class : {"ovr"}
        One-vs-rest. One-vs-one is not computed here (``NotImplementedError``): it reads
        every pair of classes on its own rows; use :func:`rankwise.multiclass_auc`.
    average : {"macro", "weighted", "micro"} or None
        As in :func:`rankwise.multiclass_auc`; None returns the K per-class AUCs.
    labels : sequence of K classes, optional
        The classes in the order of the score columns; default their sorted values.
    sample_weight : dask array or array-like, optional
        Non-negative frequency weights.
    label, weight : str, optional
        Column names, with a DataFrame or Parquet ``y_true``.
    score : list of K str, optional
        The score columns of a DataFrame or Parquet ``y_true``, in the order of ``labels``
        (of the sorted classes when ``labels`` is not given).
    n_partitions, splitters, chunk_size, client
        As in :func:`rankwise.distributed.auc` (the splitters, when given, serve every
        column).

    Returns
    -------
    float or ndarray (K,)
        nan with :class:`rankwise.UndefinedMetricWarning` where
        :func:`rankwise.multiclass_auc` gives it (fewer than two classes; a class without
        rows makes the macro average nan and drops out of the weighted one).

    Notes
    -----
    Class ``k``'s one-vs-rest AUC is the binary AUC (ties 1/2) of the rows of class ``k``
    over all the others on score column ``k``, so each class is one exact binary AUC
    (:func:`rankwise.distributed.auc`): one pass validates the labels, the K columns
    (finite, rows summing to 1) and the weights and samples every column's splitters;
    then each column is range-partitioned once with its class as the positive one, and
    the bucket sums are merged on the client. The micro average is one binary AUC of the
    n K pooled entries (row, class), positive where the row is of that class. Costs: one
    read of the data to inspect, then K reads and exchanges of one score column (one of
    the n K entries for micro); a few floats per bucket to the client.

    Examples
    --------
    Without a distributed client, dask's local threads do the work:

    >>> import numpy as np
    >>> import rankwise as rw
    >>> import rankwise.distributed as rwd
    >>> y = np.array([0, 0, 1, 1, 2, 2])
    >>> S = np.array([[0.6, 0.2, 0.2], [0.5, 0.3, 0.2], [0.3, 0.6, 0.1],
    ...               [0.2, 0.7, 0.1], [0.1, 0.2, 0.7], [0.1, 0.65, 0.25]])
    >>> rwd.multiclass_auc(y, S, average=None, chunk_size=2).tolist()
    [1.0, 0.875, 1.0]
    >>> rwd.multiclass_auc(y, S, chunk_size=2) == rw.multiclass_auc(y, S)
    True
    """
    dask, _ = require_dask()
    if multi_class == "ovo":
        raise NotImplementedError(f"rankwise.distributed.{_FUNC} computes the one-vs-rest AUCs (and the micro "
                                  f"average) only; for one-vs-one use rankwise.multiclass_auc on one machine.")
    if multi_class != "ovr":
        raise ValueError(f"The 'multi_class' argument must be 'ovr' (one-vs-one: rankwise.multiclass_auc). Got "
                         f"{multi_class!r} instead.")
    if average is not None:
        check_choice(average, "average", _FUNC, ("macro", "weighted", "micro"))
    frame = _p._is_path(y_true) or _p._is_dask_frame(y_true)
    if frame:
        if score is None or isinstance(score, str) or len(score) < 2:
            raise ValueError("A DataFrame or Parquet input needs score=[...]: one score column per class, in the "
                             "order of labels (or of the sorted classes).")
        if y_score is not None:
            raise ValueError("With a DataFrame or Parquet input, name the score columns with score=[...]; do not "
                             "pass y_score.")
        columns, names = [None], None
        src = _p.as_source(y_true, columns, sample_weight, label=label, score=list(score), weight=weight,
                           score_names=[str(c) for c in score], chunk_size=chunk_size)
    else:
        if score is not None:
            raise ValueError("score= names the columns of a DataFrame or Parquet y_true; pass y_score instead.")
        columns, names = _score_columns(y_score)
        src = _p.as_source(y_true, columns, sample_weight, label=label, weight=weight,
                           score_names=["y_score"] * len(columns), chunk_size=chunk_size)
    # --- pass 1 ---
    C = len(src.chunks)
    per_chunk = max(16, -(-_p.SAMPLE_SIZE // max(C, 1)))
    f = dask.delayed(_inspect_chunk, pure=True)
    infos = _p.compute([f(ch, i, per_chunk) for i, ch in enumerate(src.chunks)], client)
    rows = [i["n"] for i in infos]
    n = int(sum(rows))
    if n == 0:
        raise ValueError("The 'y_true' argument is empty; at least one label is needed.")
    offsets = np.concatenate(([0], np.cumsum(rows)[:-1])).astype(np.int64).tolist()
    summary = functools.reduce(LabelSummary.merge, [i["labels"] for i in infos])
    classes, mass = _classes(summary, labels)
    K = len(classes)
    n_cols = len(src.score_names)
    if names is not None:  # a DataFrame y_score: its columns by class name
        if len(names) != K or set(names) != set(classes):
            raise ValueError(f"The 'y_score' argument is a DataFrame whose columns {names!r} are not the classes "
                             f"{classes!r}; name one column per class.")
        cols = [names.index(c) for c in classes]
    else:
        if n_cols != K:
            source = "labels" if labels is not None else "the distinct values of y_true"
            raise ValueError(f"The 'y_score' argument must have shape (n, K) = ({n}, {K}): one column per class of "
                             f"{source}. Got {n_cols} score column(s) instead.")
        cols = list(range(K))
    for k in range(n_cols):
        nbad, first = _first([i["scores"][k]["bad"] for i in infos], offsets)
        if nbad:
            raise ValueError(f"The '{src.score_names[k]}' argument contains NaN or infinite values in {nbad} row(s) "
                             f"(first at row {first}); scores must be finite.")
    if src.weighted:
        for key, what in (("w_bad", "NaN or infinite"), ("w_neg", "negative")):
            cnt, first = _first([i[key] for i in infos], offsets)
            if cnt:
                raise ValueError(f"The 'sample_weight' argument contains {cnt} {what} value(s) (first at index "
                                 f"{first}); weights must be finite and non-negative.")
    if K < 2 or np.count_nonzero(mass > 0) < 2:
        value = warn_undefined(_FUNC, "fewer than two classes are present in y_true")
        return np.full(K, np.nan) if average is None else value
    n_off, first = _first([i["sums"][:2] for i in infos], offsets)
    if n_off:
        at = next(i["sums"][2] for i in infos if i["sums"][0])
        raise ValueError(
            f"The 'y_score' argument must hold probabilities: each row summing to 1 over the classes "
            f"(scikit-learn's rule for multiclass ROC AUC; rows are not renormalised). {n_off} row(s) do not "
            f"(first at index {first}, sum {at!r}).")
    samples = [np.concatenate([i["scores"][k]["sample"] for i in infos]) for k in range(n_cols)]
    w_max = max(i["w_max"] for i in infos) if src.weighted else 0.0
    unit = _criteria.get(("auc", {}), _FUNC)
    opts = dict(n_partitions=n_partitions, splitters=splitters, client=client)

    def auc_of(source, insp, k):
        part = _p.partition(source, insp, k, **opts)
        try:
            return criteria_on_partition(part, [unit], client)[0], part.n_pos
        finally:
            del part

    if average == "micro":
        pooled = _p.Source([dask.delayed(_pool, pure=True)(ch, tuple(cols), tuple(classes)) for ch in src.chunks],
                           ["y_score"], src.weighted)
        scale = weight_scale(w_max, n * K) if src.weighted else 1.0
        insp = _p.Inspection(n * K, [r * K for r in rows], True, True, True,
                             [np.concatenate([samples[c] for c in cols])], scale)
        return auc_of(pooled, insp, 0)[0]
    scale = weight_scale(w_max, n) if src.weighted else 1.0
    per = np.full(K, np.nan)
    scaled_mass = np.zeros(K)
    total = mass.sum()
    for k in range(K):
        if not (mass[k] > 0 and total - mass[k] > 0):
            continue
        insp = _p.Inspection(n, rows, classes[k], True, True, samples, scale)
        per[k], scaled_mass[k] = auc_of(src, insp, cols[k])
    return ovr_average(per, scaled_mass, average)
