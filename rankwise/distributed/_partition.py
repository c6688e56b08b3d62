"""Inputs, validation and exact range partitioning of a score sample held by Dask.

The pipeline (see :mod:`rankwise.distributed` for the costs):

1. **Inspect** (one pass over the data, nothing but a few numbers per chunk comes
   back): row counts, label values with their counts and weight sums, the first
   NaN/infinite score or bad weight (with its global row index), and a small
   seeded random sample of each score column.
2. **Splitters**: ``B - 1`` quantiles of the pooled sample. They only set how evenly
   the work is spread; results never depend on them.
3. **Split** (the second pass): every chunk sends the rows of bucket
   ``b = searchsorted(splitters, s, side="right")`` to bucket ``b``. Equal scores
   always land in the same bucket, so a score level never straddles two buckets. A
   chunk groups its rows by bucket with a radix sort of the bucket ids (no sort by
   score: the bucket does that once). Score values frequent in the sample ("heavy":
   ties shared by many rows, e.g. 90% of the rows on one value) are not sent as rows:
   the chunk sends their positive and negative mass instead. For paired comparisons
   (``rows=True``) every row travels, in an order the chunk can undo, so that per-row
   results can come back without row ids.
4. **Merge**: each bucket is a :class:`rankwise.stats.RankAccumulator` fed with the
   rows it received and the heavy values' masses (the one merge code of rankwise: the
   accumulator of batches, files and buckets), held in worker memory. Its table is
   exactly the table the single-machine code builds, restricted to those levels.
5. **Offsets**: the buckets' class totals give, for each bucket, the positive and
   negative mass strictly below it. Every computation on a bucket is one of its
   accumulator's range methods given those offsets and the global class totals
   (:meth:`rankwise.stats.RankAccumulator.range_sums`, ``range_round1``,
   ``range_moments``, ``range_terms``, ``range_roc``): the criteria's passes
   (:mod:`rankwise.criteria`) return exact partial sums on the bucket's table seen from
   the whole sample.
"""

from __future__ import annotations

import functools
import math
import os
from dataclasses import dataclass
from typing import Any, Sequence

import numpy as np

from .._kernels import RankTable, table_with_rows
from .._labels import BINARY, LabelSummary
from .._validation import as_float64, check_same_length, to_numpy, weight_scale
from ._cluster import require_dask

__all__ = [
    "Source", "as_source", "Inspection", "inspect", "choose_splitters", "Partition", "partition",
    "compute", "persist", "bucket_of", "bucket_table",
]

#: Rows per chunk when numpy input is turned into a dask array.
DEFAULT_CHUNK_SIZE = 1_000_000
#: Upper bound on the number of buckets (bucket ids are held as uint16).
MAX_PARTITIONS = 4096
#: Target size of the pooled splitter sample.
SAMPLE_SIZE = 100_000
_SEED = 20_080_917


# --- scheduling ----------------------------------------------------------------------------

def compute(objs: Sequence[Any], client: Any = None) -> list:
    """Compute dask objects on ``client`` (or the default scheduler: a default distributed
    client if one is running, else threads)."""
    dask, _ = require_dask()
    if not objs:
        return []
    if client is not None:
        return list(dask.compute(*objs, scheduler=client))
    return list(dask.compute(*objs))


def persist(objs: Sequence[Any], client: Any = None) -> list:
    """Persist dask objects (held in worker memory; recomputed from their lineage if a
    worker is lost)."""
    dask, _ = require_dask()
    if not objs:
        return []
    if client is not None:
        return list(client.persist(list(objs)))
    return list(dask.persist(*objs))


# --- inputs -------------------------------------------------------------------------------

@dataclass
class Source:
    """The data as a list of delayed chunks, each computing ``(y, (s_1, ..., s_K), w)``;
    ``clusters``: None, or one delayed per chunk computing the chunk's cluster ids (an
    array or a pandas Series, aligned with the chunk's rows; validated by the caller)."""

    chunks: list
    score_names: list
    weighted: bool
    clusters: list | None = None


def _is_dask_frame(x: Any) -> bool:
    mod = type(x).__module__ or ""
    return mod.startswith("dask") and hasattr(x, "columns") and hasattr(x, "to_delayed")


def _is_dask_array(x: Any) -> bool:
    mod = type(x).__module__ or ""
    return mod.startswith("dask") and hasattr(x, "chunks") and hasattr(x, "to_delayed")


def _is_path(x: Any) -> bool:
    return isinstance(x, (str, os.PathLike))


def as_source(y_true: Any, y_scores: Sequence[Any], sample_weight: Any = None, *, label: Any = None,
              score: Sequence[Any] | None = None, weight: Any = None, score_names: Sequence[str] | None = None,
              chunk_size: int | None = None, clusters: Any = None, ids_name: str = "clusters") -> Source:
    """Turn the accepted inputs into a :class:`Source`.

    Accepted: dask arrays (``y_true``, each score, ``sample_weight``), numpy arrays or any
    array-like (turned into dask arrays of ``chunk_size`` rows), a dask DataFrame as
    ``y_true`` with the column names ``label``, ``score`` (a list, one per scorer) and
    ``weight``, or a path to a Parquet file or directory (read with
    ``dask.dataframe.read_parquet(path, columns=[...])``) with the same column names.
    ``clusters``: each row's cluster id, an array-like (dask array or Series, chunked like
    ``y_true``) or, with a DataFrame or Parquet input, a column name (read with the others).
    ``ids_name``: what the ids are called in messages (``"groups"`` for :func:`by_group`'s).
    """
    dask, da = require_dask()
    if _is_path(y_true) or _is_dask_frame(y_true):
        if label is None or not score:
            raise ValueError(
                "A DataFrame or Parquet input needs the column names: label='...' and score='...' "
                "(and weight='...' for sample weights)."
            )
        if any(x is not None for x in y_scores) or sample_weight is not None:
            raise ValueError(
                "With a DataFrame or Parquet input, name the columns with score=/weight=; do not pass arrays."
            )
        if clusters is not None and (hasattr(clusters, "__len__") and not isinstance(clusters, str)):
            raise ValueError(f"With a DataFrame or Parquet input, name the {ids_name.rstrip('s')} id column with "
                             f"{ids_name}='...'; do not pass an array.")
        cols = [label, *score] + ([weight] if weight is not None else [])
        cols += [clusters] if clusters is not None else []
        if len(set(map(str, cols))) != len(cols):
            raise ValueError(f"The label, score, weight and {ids_name} columns must be distinct. Got {cols}.")
        if _is_path(y_true):
            import dask.dataframe as dd

            path = os.fspath(y_true)
            if "://" not in path and not os.path.exists(path):
                raise FileNotFoundError(f"No Parquet file or directory at {path!r}.")
            frame = dd.read_parquet(path, columns=cols)
        else:
            frame = y_true
            missing = [c for c in cols if c not in frame.columns]
            if missing:
                raise ValueError(f"The DataFrame has no column(s) {missing}; its columns are {list(frame.columns)}.")
            frame = frame[cols]
        parts = frame.to_delayed()
        load = dask.delayed(_load_frame, pure=True)
        chunks = [load(p, label, list(score), weight) for p in parts]
        names = [str(c) for c in score] if score_names is None else list(score_names)
        ids = None
        if clusters is not None:  # from the same partitions: read with the other columns
            pick = dask.delayed(_load_column, pure=True)
            ids = [pick(p, clusters) for p in parts]
        return Source(chunks, names, weight is not None, ids)

    if label is not None or score is not None or weight is not None:
        raise ValueError("label=, score= and weight= name DataFrame or Parquet columns; pass arrays positionally.")
    size = DEFAULT_CHUNK_SIZE if chunk_size is None else int(chunk_size)
    if size < 1:
        raise ValueError(f"The 'chunk_size' parameter must be a positive integer. Got {chunk_size!r} instead.")
    y = _as_dask_1d(y_true, "y_true", size, da)
    if y.shape[0] == 0:
        raise ValueError("The 'y_true' argument is empty; at least one label is needed.")
    names = list(score_names) if score_names is not None else ["y_score"] * len(y_scores)
    ss = []
    for name, s in zip(names, y_scores):
        arr = _as_dask_1d(s, "y_score" if name == "y_score" else name, size, da)
        if arr.shape[0] == 0:
            raise ValueError(f"The '{name}' argument is empty; at least one score is needed.")
        check_same_length(y.shape[0], arr.shape[0], name)
        ss.append(arr.rechunk(y.chunks) if arr.chunks != y.chunks else arr)
    w = None
    if sample_weight is not None:
        w = _as_dask_1d(sample_weight, "sample_weight", size, da)
        if w.shape[0] != y.shape[0]:
            raise ValueError(
                f"The 'sample_weight' argument has {w.shape[0]} values but y_true has {y.shape[0]}; "
                f"they must have the same length."
            )
        if w.chunks != y.chunks:
            w = w.rechunk(y.chunks)
    ids = None
    if clusters is not None:
        if isinstance(clusters, (str, bytes)) or np.isscalar(clusters):
            raise TypeError(f"The '{ids_name}' argument must be an array-like of ids, one per row (or a "
                            f"column name with a DataFrame or Parquet input). Got a {type(clusters).__name__}.")
        if _is_dask_frame(clusters) and hasattr(clusters, "to_dask_array"):  # a dask Series
            clusters = clusters.to_dask_array(lengths=True)
        g = _as_dask_1d(clusters, ids_name, size, da)
        if g.shape[0] != y.shape[0]:
            raise ValueError(f"The '{ids_name}' argument has {g.shape[0]} ids but y_true has {y.shape[0]}; "
                             f"they must have the same length (one id per row).")
        ids = (g.rechunk(y.chunks) if g.chunks != y.chunks else g).to_delayed().ravel().tolist()
    ys = y.to_delayed().ravel().tolist()
    sss = [a.to_delayed().ravel().tolist() for a in ss]
    ws = w.to_delayed().ravel().tolist() if w is not None else [None] * len(ys)
    load = dask.delayed(_load_arrays, pure=True)
    chunks = [load(ys[c], ws[c], *[col[c] for col in sss]) for c in range(len(ys))]
    return Source(chunks, names, w is not None, ids)


def _as_dask_1d(x: Any, name: str, size: int, da) -> Any:
    if _is_dask_array(x):
        arr = x
    else:
        arr = to_numpy(x, name)
        arr = da.from_array(arr, chunks=max(1, min(size, arr.shape[0])) if arr.shape[0] else 1)
    if arr.ndim == 2 and arr.shape[1] == 1:
        arr = arr[:, 0]
    if arr.ndim != 1:
        raise ValueError(f"The '{name}' argument must be one-dimensional. Got an array of shape {arr.shape} instead.")
    if any(math.isnan(c) for c in arr.chunks[0]):
        arr = arr.compute_chunk_sizes()
    return arr


def clean_scores(arr: np.ndarray, name: str) -> np.ndarray:
    """The dtype rules of :func:`rankwise._validation.check_scores` (finiteness is checked
    by :func:`inspect`, with global row indices)."""
    kind = arr.dtype.kind
    if kind == "b":
        return arr.astype(np.float64)
    if kind == "O":
        try:
            return arr.astype(np.float64)
        except (TypeError, ValueError) as exc:
            raise TypeError(f"The '{name}' argument must contain real numbers. Got non-numeric values instead.") from exc
    if kind == "f":
        if arr.dtype.itemsize > 8:
            return arr.astype(np.float64)
        if arr.dtype.itemsize < 4:
            return arr.astype(np.float32)
        return arr
    if kind in "iu":
        return arr
    if kind in "US":
        raise TypeError(f"The '{name}' argument must contain real numbers. Got strings instead.")
    raise TypeError(f"The '{name}' argument must contain real numbers. Got an array of dtype {arr.dtype} instead.")


def _load_arrays(y, w, *scores):
    y = to_numpy(y, "y_true")
    out = tuple(clean_scores(to_numpy(s, "y_score"), "y_score") for s in scores)
    if w is not None:
        w = as_float64(to_numpy(w, "sample_weight"), "sample_weight")
    return y, out, w


def _load_column(part, name):
    """One column of a DataFrame partition, as it is (the caller validates it)."""
    return part[name]


def _load_frame(part, label, scores, weight):
    y = to_numpy(part[label], "y_true")
    out = tuple(clean_scores(to_numpy(part[c], str(c)), str(c)) for c in scores)
    w = None
    if weight is not None:
        w = as_float64(to_numpy(part[weight], "sample_weight"), "sample_weight")
    return y, out, w


# --- inspection (pass 1) --------------------------------------------------------------------

def _first_bad(mask: np.ndarray) -> tuple[int, int]:
    idx = np.flatnonzero(mask)
    return int(idx.shape[0]), (int(idx[0]) if idx.shape[0] else -1)


def _inspect_chunk(chunk, index: int, n_sample: int):
    y, scores, w = chunk
    n = int(y.shape[0])
    info: dict = {"n": n}
    for s in scores:
        if s.shape[0] != n:
            raise ValueError(f"A chunk has {n} labels but {s.shape[0]} scores; the inputs' chunks are not aligned.")
    # labels: a mergeable summary of their distinct values (with their weights)
    info["labels"] = BINARY.summarize(y, w)
    # scores
    rng = np.random.default_rng([_SEED, index])
    sc = []
    for s in scores:
        entry = {"nan": (0, -1), "inf": (0, -1), "bad": (0, -1)}
        if s.dtype.kind == "f":
            fin = np.isfinite(s)
            if not fin.all():
                entry["bad"] = _first_bad(~fin)
                entry["nan"] = _first_bad(np.isnan(s))
                entry["inf"] = _first_bad(np.isinf(s))
        if n and entry["bad"][0] == 0:
            entry["sample"] = s[rng.integers(0, n, size=min(n, n_sample))]
        else:
            entry["sample"] = s[:0]
        sc.append(entry)
    info["scores"] = sc
    # weights
    if w is not None:
        fin = np.isfinite(w)
        info["w_bad"] = _first_bad(~fin)
        info["w_neg"] = _first_bad(fin & (w < 0))
        info["w_max"] = float(w[fin].max(initial=0.0))
    return info


@dataclass
class Inspection:
    """What pass 1 learnt: sizes, the positive label, class presence, splitter samples."""

    n: int
    chunk_rows: list
    pos_label: Any
    both: bool
    defined: bool
    samples: list
    #: The power of two the weights are divided by in the buckets of scale-free criteria
    #: (:func:`rankwise._validation.scale_weights`: their sums neither overflow nor underflow).
    mass_scale: float = 1.0


def _global(pairs: list, offsets: list) -> tuple[int, int]:
    total, first = 0, -1
    for (cnt, idx), off in zip(pairs, offsets):
        if cnt and first < 0:
            first = off + idx
        total += cnt
    return total, first


def inspect(src: Source, client: Any = None, pos_label: Any = None) -> Inspection:
    """Pass 1: validate the data like :func:`rankwise._labels.check_sample` (same messages,
    global row indices) and draw the splitter samples."""
    dask, _ = require_dask()
    C = len(src.chunks)
    per = max(16, -(-SAMPLE_SIZE // max(C, 1)))
    f = dask.delayed(_inspect_chunk, pure=True)
    infos = compute([f(ch, i, per) for i, ch in enumerate(src.chunks)], client)
    rows = [i["n"] for i in infos]
    n = int(sum(rows))
    offsets = np.concatenate(([0], np.cumsum(rows)[:-1])).astype(np.int64).tolist() if rows else []
    if n == 0:
        raise ValueError("The 'y_true' argument is empty; at least one label is needed.")
    # --- labels, as check_sample: the chunks' summaries merged in row order ---
    labels = functools.reduce(LabelSummary.merge, [i["labels"] for i in infos])
    res = labels.resolve(pos_label)
    pos_label, both = res.pos_label, res.both
    # --- scores, as check_scores ---
    for k, name in enumerate(src.score_names):
        ent = [i["scores"][k] for i in infos]
        nbad, first = _global([e["bad"] for e in ent], offsets)
        if nbad:
            nnan, _ = _global([e["nan"] for e in ent], offsets)
            ninf, _ = _global([e["inf"] for e in ent], offsets)
            what = "NaN" if ninf == 0 else ("infinite" if nnan == 0 else "NaN or infinite")
            raise ValueError(
                f"The '{name}' argument contains {nbad} {what} value(s) (first at index {first}); "
                f"scores must be finite real numbers."
            )
    # --- weights, as check_sample_weight ---
    if src.weighted:
        nbad, first = _global([i["w_bad"] for i in infos], offsets)
        if nbad:
            raise ValueError(
                f"The 'sample_weight' argument contains {nbad} NaN or infinite value(s) (first at index {first}); "
                f"weights must be finite and non-negative."
            )
        nneg, first = _global([i["w_neg"] for i in infos], offsets)
        if nneg:
            raise ValueError(
                f"The 'sample_weight' argument contains {nneg} negative value(s) (first at index {first}); "
                f"weights must be finite and non-negative."
            )
    samples = [np.concatenate([i["scores"][k]["sample"] for i in infos]) for k in range(len(src.score_names))]
    scale = weight_scale(max(i["w_max"] for i in infos), n) if src.weighted else 1.0
    return Inspection(n, rows, pos_label, both, res.defined, samples, scale)


def choose_splitters(sample: np.ndarray, n_partitions: int) -> np.ndarray:
    """``n_partitions - 1`` quantiles of the sample, duplicates removed (fewer buckets when
    the sample has few distinct values; exactness does not depend on this choice)."""
    if n_partitions <= 1 or sample.shape[0] == 0:
        return sample[:0]
    srt = np.sort(sample)
    idx = (np.arange(1, n_partitions, dtype=np.int64) * srt.shape[0]) // n_partitions
    return np.unique(srt[np.minimum(idx, srt.shape[0] - 1)])


#: Rows per bucket that the default number of buckets aims at.
ROWS_PER_BUCKET = 5_000_000


def default_partitions(n: int, n_chunks: int) -> int:
    """One bucket per 5 million rows, at least ``min(n_chunks, 4)``. Each bucket costs a
    piece from every chunk (chunks x buckets tasks in the exchange), so one bucket per chunk
    made the 10^8-row benchmark (100 files) spend 20 of its 23 s exchanging 10^4 pieces;
    20 buckets of 5 million rows took 14 s there, each under 1 GiB of worker memory."""
    return int(min(MAX_PARTITIONS, max(1, min(n_chunks, 4), -(-n // ROWS_PER_BUCKET))))


def check_splitters(splitters: Any) -> np.ndarray:
    arr = np.asarray(splitters)
    if arr.ndim != 1 or arr.dtype.kind not in "biuf":
        raise ValueError(f"The 'splitters' parameter must be a 1-D array of real numbers. Got {splitters!r} instead.")
    if arr.dtype.kind == "f" and not np.isfinite(arr).all():
        raise ValueError("The 'splitters' parameter must hold finite numbers.")
    if arr.shape[0] + 1 > MAX_PARTITIONS:
        raise ValueError(f"At most {MAX_PARTITIONS - 1} splitters are supported. Got {arr.shape[0]}.")
    return np.sort(arr)


# --- splitting (pass 2) -------------------------------------------------------------------

def is_positive(y: np.ndarray, pos_label: Any) -> np.ndarray:
    """A chunk's labels as one bool a row (:meth:`rankwise._labels.BinaryKind.positives`)."""
    return BINARY.positives(y, pos_label)


def _scaled(w, scale: float):
    """The chunk's weights divided by the power of two ``scale`` (exact)."""
    if w is None or scale == 1.0:
        return w
    return np.ldexp(w, 1 - math.frexp(scale)[1])


def _split_table(chunk, k: int, splitters: np.ndarray, heavy: np.ndarray, pos_label: Any, n_out: int,
                 scale: float = 1.0):
    """Cut one chunk into per-bucket pieces ``(s, lab, w, heavy_levels, heavy_pos, heavy_neg)``.

    Rows whose score is one of the ``heavy`` values (frequent in the sample) are not sent:
    the chunk sends their positive and negative mass per value instead, so a value held by
    most rows costs two floats per chunk. The other rows are grouped by bucket with a
    radix sort of their bucket ids (no sort by score here: the bucket does that once)."""
    y, scores, w = chunk
    w = _scaled(w, scale)
    s = scores[k]
    lab = is_positive(y, pos_label)
    H = heavy.shape[0]
    hp = hn = np.zeros(H)
    if H and s.shape[0]:
        at = np.minimum(np.searchsorted(heavy, s), H - 1)
        hit = heavy[at] == s
        if hit.any():
            idx = at[hit]
            lh = lab[hit]
            wh = np.ones(idx.shape[0]) if w is None else w[hit]
            hp = np.bincount(idx, weights=np.where(lh, wh, 0.0), minlength=H)
            hn = np.bincount(idx, weights=np.where(lh, 0.0, wh), minlength=H)
            keep = ~hit
            s, lab = s[keep], lab[keep]
            w = None if w is None else w[keep]
    bucket = np.searchsorted(splitters, s, side="right").astype(np.uint16)
    order = np.argsort(bucket, kind="stable")  # radix sort of small integers
    cuts = np.concatenate(([0], np.cumsum(np.bincount(bucket, minlength=n_out))))
    so, lo = s[order], lab[order]
    wo = None if w is None else w[order]
    hcuts = np.concatenate(([0], np.searchsorted(heavy, splitters, side="left"), [H]))
    return tuple(
        (so[a:b], lo[a:b], None if wo is None else wo[a:b], heavy[c:d], hp[c:d], hn[c:d])
        for a, b, c, d in zip(cuts[:-1], cuts[1:], hcuts[:-1], hcuts[1:])
    )


def _merge_bucket(weighted: bool, *pieces):
    """One bucket: a :class:`rankwise.stats.RankAccumulator` fed with the rows it received
    (one batch a chunk, labels as booleans) and the heavy levels' masses (summed over
    chunks; counts without weights, so the table stays unweighted). Its table is the one
    the single-machine code builds, restricted to the bucket's levels; a bucket that
    received no mass has an empty table."""
    from ..stats import RankAccumulator

    acc = RankAccumulator()
    for s, lab, w, *_ in pieces:
        acc.update(lab, s, w if weighted else None)
    hv = pieces[0][3]
    if hv.shape[0]:
        hp = np.sum([p[4] for p in pieces], axis=0)
        hn = np.sum([p[5] for p in pieces], axis=0)
        has = (hp + hn) > 0  # a heavy value no row of this sample carries (or zero weight only)
        if has.any():
            hv, hp, hn = hv[has], hp[has], hn[has]
            lab = np.repeat(np.array([True, False]), hv.shape[0])
            mass = np.concatenate((hp, hn))
            if weighted:
                acc.update(lab, np.concatenate((hv, hv)), mass)
            else:  # the chunks' counts (exact integers in float64)
                acc.update(lab, np.concatenate((hv, hv)), counts=mass.astype(np.int64))
    return acc


def bucket_of(entry):
    """A bucket's :class:`rankwise.stats.RankAccumulator` (with rows, the first item of
    ``(accumulator, row levels, labels, piece lengths)``)."""
    return entry[0] if isinstance(entry, tuple) else entry


def bucket_table(entry) -> RankTable:
    """A bucket's rank table (empty for a bucket without mass)."""
    return bucket_of(entry).rank_table()


def choose_heavy(sample: np.ndarray, n_buckets: int, limit: int = 256) -> np.ndarray:
    """Score values frequent enough in the sample to be sent as per-chunk masses rather
    than as rows (at least a quarter of a bucket's share, and at least 3 draws)."""
    if sample.shape[0] == 0:
        return sample[:0]
    vals, counts = np.unique(sample, return_counts=True)
    thr = max(3.0, sample.shape[0] / (4.0 * max(n_buckets, 1)))
    sel = np.flatnonzero(counts >= thr)
    if sel.shape[0] > limit:
        sel = np.sort(sel[np.argsort(counts[sel], kind="stable")[::-1][:limit]])
    return vals[sel]


def _split_rows(chunk, k: int, splitters: np.ndarray, pos_label: Any, n_out: int, scale: float = 1.0):
    """Cut one chunk into per-bucket row pieces ``(s, lab, w)``, in an order the chunk
    can undo; the last output is ``(order, lab, w)`` in the chunk's own row order."""
    y, scores, w = chunk
    w = _scaled(w, scale)
    s = scores[k]
    lab = is_positive(y, pos_label)
    bucket = np.searchsorted(splitters, s, side="right").astype(np.uint16)
    order = np.argsort(bucket, kind="stable")  # radix sort of small integers
    counts = np.bincount(bucket, minlength=n_out - 1)
    cuts = np.concatenate(([0], np.cumsum(counts)))
    so, lo = s[order], lab[order]
    wo = w[order] if w is not None else None
    pieces = tuple((so[a:b], lo[a:b], None if wo is None else wo[a:b]) for a, b in zip(cuts[:-1], cuts[1:]))
    return pieces + ((order, lab, w),)


def _merge_rows(*pieces):
    """A bucket with each row's level: ``(accumulator, row levels, labels, piece
    lengths)``. The table and the rows' levels come from the single-machine
    ``Sample(rows=True)`` construction (one argsort); the accumulator holds that table
    (:meth:`rankwise.stats.RankAccumulator.from_rank_table`). The piece lengths send
    per-row results back."""
    from ..stats import RankAccumulator

    s = np.concatenate([p[0] for p in pieces])
    lab = np.concatenate([p[1] for p in pieces])
    w = None if pieces[0][2] is None else np.concatenate([p[2] for p in pieces])
    lengths = np.array([p[0].shape[0] for p in pieces], dtype=np.int64)
    if s.shape[0] == 0:
        return RankAccumulator(), np.empty(0, dtype=np.int64), lab, lengths
    t, inv = table_with_rows(lab, s, w)
    return RankAccumulator.from_rank_table(t), inv, lab, lengths


def _summary(entry) -> tuple:
    t = bucket_table(entry)
    return t.size, t.n_pos, t.n_neg


# --- the partitioned sample -----------------------------------------------------------------

@dataclass
class Partition:
    """One scorer's range-partitioned sample: persisted buckets (lowest scores first),
    each a :class:`rankwise.stats.RankAccumulator`, and the offsets of each bucket."""

    tables: list  # persisted delayed: RankAccumulator, or (RankAccumulator, inv, lab, lengths) with rows
    sizes: np.ndarray
    n_pos_b: np.ndarray
    n_neg_b: np.ndarray
    cum_pos: np.ndarray
    cum_neg: np.ndarray
    n_pos: float
    n_neg: float
    splitters: np.ndarray
    rows: bool
    meta: list | None = None  # rows mode: per chunk (order, lab, w), persisted
    pieces_per_chunk: int = 0
    #: The masses are the weights divided by this power of two (1.0: as given).
    mass_scale: float = 1.0

    @property
    def n_buckets(self) -> int:
        return len(self.tables)

    def offsets(self, b: int) -> tuple[float, float, float, float]:
        """``(positive mass below bucket b, negative mass below it, n_pos, n_neg)``: the
        ``offsets`` of the accumulators' range methods."""
        return float(self.cum_pos[b]), float(self.cum_neg[b]), self.n_pos, self.n_neg


def partition(src: Source, insp: Inspection, k: int = 0, *, n_partitions: int | None = None,
              splitters: Any = None, rows: bool = False, client: Any = None, scaled: bool = True) -> Partition:
    """Pass 2 for scorer ``k``: split, shuffle and merge into persisted bucket tables, then
    exchange the buckets' class totals for the offsets. ``scaled``: masses are the weights
    divided by ``insp.mass_scale`` (for scale-free criteria), else the weights as given."""
    scale = insp.mass_scale if scaled else 1.0
    dask, _ = require_dask()
    if splitters is not None:
        spl = check_splitters(splitters)
    else:
        B = default_partitions(insp.n, len(src.chunks)) if n_partitions is None else int(n_partitions)
        if B < 1:
            raise ValueError(f"The 'n_partitions' parameter must be a positive integer. Got {n_partitions!r} instead.")
        spl = choose_splitters(insp.samples[k], min(B, MAX_PARTITIONS))
    B = spl.shape[0] + 1
    if rows:
        nout = B + 1
        splits = [dask.delayed(_split_rows, nout=nout, pure=True)(ch, k, spl, insp.pos_label, nout, scale)
                  for ch in src.chunks]
    else:
        nout = B
        heavy = choose_heavy(insp.samples[k], B)
        splits = [dask.delayed(_split_table, nout=nout, pure=True)(ch, k, spl, heavy, insp.pos_label, nout, scale)
                  for ch in src.chunks]
    merge = dask.delayed(_merge_rows if rows else _merge_bucket, pure=True)
    if rows:
        tables = [merge(*[sp[b] for sp in splits]) for b in range(B)]
        meta = [sp[B] for sp in splits]
        persisted = persist(tables + meta, client)
        tables, meta = persisted[:B], persisted[B:]
    else:
        tables = persist([merge(src.weighted, *[sp[b] for sp in splits]) for b in range(B)], client)
        meta = None
    summ = dask.delayed(_summary, pure=True)
    sums = compute([summ(t) for t in tables], client)
    sizes = np.array([s[0] for s in sums], dtype=np.int64)
    npb = np.array([s[1] for s in sums], dtype=np.float64)
    nnb = np.array([s[2] for s in sums], dtype=np.float64)
    cum_pos = np.concatenate(([0.0], np.cumsum(npb)[:-1]))
    cum_neg = np.concatenate(([0.0], np.cumsum(nnb)[:-1]))
    return Partition(tables, sizes, npb, nnb, cum_pos, cum_neg, math.fsum(npb), math.fsum(nnb), spl, rows, meta,
                     len(src.chunks), scale)
