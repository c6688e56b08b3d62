r"""The linear rankers of :mod:`rankwise.learners`, fitted on data held by a Dask cluster.

The training rows stay on the workers, in row blocks ("parts" ``(X_c, y_c, w_c)``, one per
chunk of a dask array, partition of a dask DataFrame or row block of a numpy array). What
travels between the client and the workers is a d-vector, a d x d matrix or a handful of
scalars per part; only the exact pairwise hinge losses also move per-row scores between
workers (their range-partitioned pass). The estimators are the single-machine ones
(:class:`~rankwise.BBRRanker`, :class:`~rankwise.ProperLossRanker`,
:class:`~rankwise.PairwiseRanker`): the functions here set the same fitted attributes, so
``decision_function``, ``predict``, ``score`` and :func:`rankwise.save_model` work unchanged.

Costs, for ``n`` rows in ``C`` parts, ``d`` features, 8-byte floats (task overhead aside):

================================  =========================  ==================================
learner                           passes over the data       bytes moved (client <-> workers)
================================  =========================  ==================================
``BBRRanker``                     1 (class moments)          ``C * 2 * 8 (1 + d + d^2)`` back
                                  + 1 (scores, threshold)    ``C * 8 d`` out
``ProperLossRanker``              1 per L-BFGS evaluation    ``C * 8 (d + 1)`` out,
                                                             ``C * 8 (d + 2)`` back
``PairwiseRanker`` squared        1 (class moments), then    as BBR; the iterations run on
                                  none per iteration         the client (d x d algebra)
``PairwiseRanker`` exponential    1 per evaluation           ``C * 8 d`` out,
                                                             ``C * 2 * 8 (d + 2)`` back
``PairwiseRanker`` (squared_)     1 per evaluation, plus a   ``C * 8 d`` out, ``C * 8 (d + 1)``
hinge                             shuffle of per-row keys    back, ``B * 8 (8 + s/B)`` (bucket
                                  to ``B`` range buckets     totals, ``s`` sampled keys);
                                                             worker to worker: 33 bytes per
                                                             row to the buckets, 16 back,
                                                             ``B^2 * 8 (8 + s/B)`` totals
================================  =========================  ==================================

plus, for the learners whose intercept is the training-ranking threshold (BBR, pairwise),
the exact distributed selection of :func:`_threshold_offset` (a few rounds of
``C * 8 (B_s + s)`` bytes, then at most ``_GATHER_LIMIT`` scores gathered).

Tasks: one per part and evaluation (BBR, proper, exponential); ``2 C B + 2 C + 3 B`` per
evaluation for the hinge losses (split, route, merge, gradient, route back, ``X_c^T g``),
with one client round trip. On small data the scheduler's per-task overhead (about 1 ms,
several ms on a loaded 2-core machine) dominates; on large parts the passes are
compute-bound like the single-machine ones.

Class moments are combined in the parallel-variance form of Chan, Golub & LeVeque
("Updating formulae and a pairwise algorithm for computing sample variances", 1979):
each part returns, per class, its weight ``W_c``, mean ``m_c`` and centred scatter
``C_c = sum w (x - m_c)(x - m_c)^T`` (:func:`rankwise._kernels.moments`), and the
client combines them with :func:`rankwise._kernels.merge_moments` (no cancellation
between large uncentred sums).

The objectives themselves (parameter checks, per-block loss terms, penalty, start and
fitted attributes) are those of the single-machine fits, from
:mod:`rankwise.learners._objectives`; the all-pairs hinge sums are
:func:`rankwise._kernels.hinge_pair_sums`, as in :func:`rankwise.losses.pairwise`.

Fault tolerance: the parts are futures with lineage (they come from the input graph), so a
worker lost mid-fit has its parts and results recomputed by the scheduler; the result is
bit-for-bit that of an undisturbed run. If the scheduler gives up on a task
(``distributed.KilledWorker``), a :class:`RuntimeError` says so; nothing is returned.
"""

from __future__ import annotations

import math
import numbers
import os
from typing import Sequence

import numpy as np

from .._kernels import hinge_pair_sums, log_weights, merge_moments, moments
from .._validation import check_param
from ..learners import (BBRRanker, LCBRRanker, PairwiseRanker, ProperLossRanker, binary_classes, check_bbr,
                        check_pairwise, check_proper, pair_moments_from_classes, pointwise_loss, proper_penalised,
                        proper_terms, solve_bbr, solve_pairwise, solve_proper)

__all__ = ["fit", "fit_bbr", "fit_proper", "fit_pairwise", "SUPPORTED_ESTIMATORS", "PAIRWISE_LOSSES"]

#: Estimator classes :func:`fit` accepts (``LCBRRanker``, a subclass of ``BBRRanker`` that
#: samples pairs, is not one of them).
SUPPORTED_ESTIMATORS = ("BBRRanker", "ProperLossRanker", "PairwiseRanker")
#: The pairwise surrogates :func:`fit_pairwise` evaluates exactly on a cluster.
PAIRWISE_LOSSES = ("hinge", "squared_hinge", "squared", "exponential")

# At most this many scores are gathered to the client to finish the exact threshold
# selection; above it, range-counting rounds narrow the interval holding the cut first.
_GATHER_LIMIT = 1 << 16
# Keys sampled per round (over all parts) to place the splitters of a range partition.
_SAMPLE = 2048


# ==========================================================================================
# Client, inputs and parts
# ==========================================================================================

def _get_client(client):
    try:
        from ._cluster import get_client
    except ImportError:  # pragma: no cover - the package is being assembled
        get_client = None
    if get_client is not None:
        return get_client(client)
    import distributed  # pragma: no cover

    return client if client is not None else distributed.Client.current(allow_global=True)  # pragma: no cover


def _n_workers(client) -> int:
    try:
        return max(1, len(client.nthreads()))
    except Exception:  # noqa: BLE001 - only a default
        return 1


def _part_from_arrays(X, y, sw, name):
    """Validate one row block exactly as ``BinaryLinearRanker._validate_fit`` does (on a worker)."""
    from sklearn.utils.validation import _check_sample_weight, _check_y, check_array, check_consistent_length

    X = check_array(X, dtype=np.float64, order="C", ensure_min_samples=0, estimator=name, input_name="X")
    y = _check_y(np.asarray(y) if not hasattr(y, "dtype") else y, estimator=name)
    check_consistent_length(X, y)
    if sw is not None and X.shape[0] == 0:
        sw = None
    elif sw is not None:
        sw = _check_sample_weight(sw, X, dtype=np.float64, ensure_non_negative=True, allow_all_zero_weights=True)
        if sw.shape[0] and bool(np.all(sw == 1.0)):
            sw = None
    return X, y, sw


def _part_from_frame(pdf, features, label, weight, name):
    missing = [c for c in [*features, label] + ([weight] if weight is not None else []) if c not in pdf.columns]
    if missing:
        raise KeyError(f"{name}: columns {missing} are not in the data (columns: {list(pdf.columns)}).")
    sw = None if weight is None else pdf[weight].to_numpy(dtype=np.float64, na_value=np.nan)
    return _part_from_arrays(pdf[list(features)], pdf[label].to_numpy(), sw, name)


def _is_dask_collection(x) -> bool:
    return hasattr(x, "__dask_graph__") and x.__dask_graph__() is not None


def _is_frame(x) -> bool:
    mod = type(x).__module__ or ""
    return hasattr(x, "columns") and (mod.startswith("dask") or mod.startswith("pandas"))


class _Parts:
    """The training set as ``C`` row blocks on the cluster: futures (``persist=True``) or
    delayed objects recomputed at each pass. Each block is ``(X_c, y_c, sw_c)`` validated,
    ``sw_c`` None when every weight is 1."""

    def __init__(self, client, parts, n_features, meta, persisted):
        self.client = client
        self.parts = parts
        self.n_features = n_features
        self.meta = meta
        self.persisted = persisted

    def map(self, func, *args):
        """One task per part, ``func(part, *args)``; returns futures."""
        import dask

        if self.persisted:
            return [self.client.submit(func, p, *args, pure=False) for p in self.parts]
        return self.client.compute([dask.delayed(func, pure=False)(p, *args) for p in self.parts])

    def release(self):
        self.parts = None


def _load(client, estimator, X, y, sample_weight, feature_columns, label, chunk_size, persist,
          weight=None) -> _Parts:
    import dask

    name = type(estimator).__name__
    if weight is not None:
        if sample_weight is not None:
            raise ValueError(f"{name}: give the weights once (sample_weight= or weight=), not both.")
        sample_weight = weight
    part_fn = dask.delayed(_part_from_arrays, pure=True)
    pandas_with_arrays = _is_frame(X) and not _is_dask_collection(X) and y is not None and not isinstance(y, str)
    if isinstance(X, (str, os.PathLike)) or (_is_frame(X) and not pandas_with_arrays):
        import dask.dataframe as dd
        import pandas as pd

        if isinstance(y, str):
            if label is not None and label != y:
                raise ValueError(f"{name}: the label column is given twice ({y!r} and label={label!r}).")
            label = y
        elif y is not None:
            raise TypeError(f"{name}: with a DataFrame or a Parquet path, give the label as a column name "
                            f"(y='col' or label='col'), not as {type(y).__name__}.")
        if label is None:
            raise ValueError(f"{name}: with a DataFrame or a Parquet path, name the label column (label='...').")
        if sample_weight is not None and not isinstance(sample_weight, str):
            raise TypeError(f"{name}: with a DataFrame or a Parquet path, sample_weight must be a column name.")
        if isinstance(X, (str, os.PathLike)):
            cols = None if feature_columns is None else [*feature_columns, label] + (
                [sample_weight] if sample_weight else [])
            frame = dd.read_parquet(os.fspath(X), columns=cols)
        elif isinstance(X, pd.DataFrame):
            nw = _n_workers(client)
            frame = dd.from_pandas(X, npartitions=max(1, min(len(X), 2 * nw)) if chunk_size is None
                                   else max(1, math.ceil(len(X) / chunk_size)))
        else:
            frame = X
        columns = list(frame.columns)
        for c in [label] + ([sample_weight] if sample_weight else []):
            if c not in columns:
                raise KeyError(f"{name}: column {c!r} is not in the data (columns: {columns}).")
        if feature_columns is None:
            feature_columns = [c for c in columns if c != label and c != sample_weight]
        feature_columns = list(feature_columns)
        absent = [c for c in feature_columns if c not in columns]
        if absent:
            raise KeyError(f"{name}: feature columns {absent} are not in the data (columns: {columns}).")
        if not feature_columns:
            raise ValueError(f"{name}: no feature columns.")
        fn = dask.delayed(_part_from_frame, pure=True)
        parts = [fn(p, feature_columns, label, sample_weight, name) for p in frame.to_delayed()]
        meta = pd.DataFrame({c: np.zeros(0) for c in feature_columns})
        d = len(feature_columns)
    elif _is_dask_collection(X):
        import dask.array as da

        if not hasattr(X, "ndim") or X.ndim != 2:
            raise ValueError(f"{name}: X must be a 2-D dask array (rows x features). Got {getattr(X, 'ndim', '?')} "
                             f"dimensions.")
        if X.numblocks[1] > 1:
            X = X.rechunk({1: -1})
        rows = X.chunks[0]
        known = not any(math.isnan(r) for r in rows)

        def align(v, what):
            if v is None:
                return [None] * X.numblocks[0]
            if isinstance(v, numbers.Number):
                return [v] * X.numblocks[0]
            if not _is_dask_collection(v):
                v = np.asarray(v)
                if not known:
                    raise ValueError(f"{name}: X has unknown chunk sizes; call X.compute_chunk_sizes() or pass "
                                     f"{what} as a dask array with the same blocks.")
                if v.ndim < 1 or v.shape[0] != X.shape[0]:
                    raise ValueError(f"Found input variables with inconsistent numbers of samples: "
                                     f"[{X.shape[0]}, {v.shape[0] if v.ndim else 1}]")
                v = da.from_array(v, chunks=(rows,) + v.shape[1:])
            elif known and not any(math.isnan(r) for r in v.chunks[0]):
                if v.shape[0] != X.shape[0]:
                    raise ValueError(f"Found input variables with inconsistent numbers of samples: "
                                     f"[{X.shape[0]}, {v.shape[0]}]")
                if v.chunks[0] != rows:
                    v = v.rechunk((rows,) + v.chunks[1:])
            elif v.numblocks[0] != X.numblocks[0]:
                raise ValueError(f"{name}: X and {what} have unknown chunk sizes and different numbers of blocks.")
            if v.ndim > 1 and v.numblocks[1] > 1:
                v = v.rechunk({1: -1})
            return list(v.to_delayed().reshape(X.numblocks[0], -1)[:, 0])

        if isinstance(sample_weight, str):
            raise TypeError(f"{name}: a weight column name ({sample_weight!r}) needs a DataFrame or Parquet input.")
        ys = align(y, "y") if y is not None else None
        if ys is None:
            raise ValueError(f"{name}: y is required.")
        ws = align(sample_weight, "sample_weight")
        parts = [part_fn(xb, yb, wb, name) for xb, yb, wb in zip(X.to_delayed()[:, 0], ys, ws)]
        meta, d = np.empty((0, X.shape[1])), X.shape[1]
    else:
        from sklearn.utils.validation import check_array

        if isinstance(sample_weight, str):
            raise TypeError(f"{name}: a weight column name ({sample_weight!r}) needs a DataFrame or Parquet input "
                            f"with the label as a column too.")
        Xn = check_array(X, dtype=None, ensure_all_finite=False, ensure_min_samples=0, estimator=name)
        if y is None:
            raise ValueError(f"{name}: y is required.")
        yn = np.asarray(y)
        n = Xn.shape[0]
        if yn.ndim == 0 or yn.shape[0] != n:
            raise ValueError(f"Found input variables with inconsistent numbers of samples: "
                             f"[{n}, {yn.shape[0] if yn.ndim else 1}]")
        if sample_weight is not None and not isinstance(sample_weight, numbers.Number):
            sample_weight = np.asarray(sample_weight)
            if sample_weight.ndim != 1 or sample_weight.shape[0] != n:
                raise ValueError(f"sample_weight.shape == {sample_weight.shape}, expected ({n},)!")
        step = chunk_size or max(1, math.ceil(n / (2 * _n_workers(client))))
        step = int(check_param(step, "chunk_size", name, low=1, integer=True))
        parts = []
        for a in range(0, max(n, 1), step):
            sw = sample_weight if sample_weight is None or isinstance(sample_weight, numbers.Number) \
                else sample_weight[a:a + step]
            parts.append(part_fn(Xn[a:a + step], yn[a:a + step], sw, name))
        meta, d = (X.iloc[:0] if pandas_with_arrays else np.empty((0, Xn.shape[1]))), Xn.shape[1]
    if persist:
        parts = client.compute(parts)
    return _Parts(client, parts, d, meta, persist)


def _gather(client, futures, what: str):
    """Gather results; a task the scheduler gave up on becomes a clear RuntimeError."""
    from distributed import KilledWorker

    try:
        return client.gather(futures)
    except KilledWorker as exc:
        raise RuntimeError(
            f"{what}: a Dask worker died while running it and the cluster could not recover "
            f"({exc}); no result is returned."
        ) from exc


# ==========================================================================================
# Validation and class moments (one pass)
# ==========================================================================================

def _stats_part(part, with_moments: bool):
    """Per part: number of rows, its labels, their weights and (``with_moments``) per-label
    weight, mean and centred scatter matrix (None for a label of weight 0)."""
    X, y, sw = part
    n = X.shape[0]
    if n == 0:
        return {"n": 0, "labels": np.asarray(y)[:0], "wsum": np.zeros(0), "count": np.zeros(0, np.int64),
                "unit": True, "moments": []}
    labels, inv = np.unique(y, return_inverse=True)
    inv = inv.ravel()
    w = np.ones(n) if sw is None else sw
    out = {"n": n, "labels": labels, "count": np.bincount(inv, minlength=labels.shape[0]),
           "wsum": np.array([float(w[inv == k].sum()) for k in range(labels.shape[0])]),
           "unit": sw is None, "moments": []}
    if with_moments and labels.shape[0] <= 2:
        for k in range(labels.shape[0]):
            idx = inv == k
            out["moments"].append(moments(X[idx], w[idx]))  # None for a class of weight 0
    return out


class _Summary:
    """What the validation pass learnt: classes, positive label, class weights and counts,
    whether every weight is 1, per-part row counts and (optionally) the class moments."""


def _validate(data: _Parts, estimator, moments: bool) -> _Summary:
    from sklearn.utils.validation import _check_feature_names, _check_n_features

    name = type(estimator).__name__
    stats = _gather(data.client, data.map(_stats_part, moments), f"{name} (distributed fit)")
    n = sum(s["n"] for s in stats)
    if n == 0:
        raise ValueError(f"Found array with 0 sample(s) (shape=(0, {data.n_features})) while a minimum of 1 is "
                         f"required by {name}.")
    classes = binary_classes(np.concatenate([s["labels"] for s in stats if s["n"]]), name)
    pos = classes[1]
    S = _Summary()
    S.classes, S.pos_label, S.n, S.d = classes, pos, n, data.n_features
    S.unit = all(s["unit"] for s in stats)
    S.part_rows = np.array([s["n"] for s in stats], dtype=np.int64)
    Wp = Wn = 0.0
    n_pos = 0
    for s in stats:
        for k, lab in enumerate(s["labels"]):
            if lab == pos:
                Wp += s["wsum"][k]
                n_pos += int(s["count"][k])
            else:
                Wn += s["wsum"][k]
    if not (Wp + Wn > 0):
        raise ValueError("Sample weights must contain at least one non-zero number.")
    if not (Wp > 0 and Wn > 0):
        raise ValueError(f"{name}: each class needs positive total sample weight.")
    S.Wp, S.Wn, S.n_pos = float(Wp), float(Wn), n_pos
    if moments:
        pieces = [(lab == pos, mom) for s in stats for lab, mom in zip(s["labels"], s["moments"])]
        S.mom_pos = merge_moments(mom for is_pos, mom in pieces if is_pos)
        S.mom_neg = merge_moments(mom for is_pos, mom in pieces if not is_pos)
    # The fitted attributes _validate_fit sets.
    estimator.classes_ = classes
    _check_n_features(estimator, data.meta, reset=True)
    _check_feature_names(estimator, data.meta, reset=True)
    return S


def _pair_moments(S: _Summary):
    """``(Sigma, mu)`` of ``pair_moments`` from the combined class moments, and the pair
    covariance ``Cov_+ + Cov_-`` (``Sigma - mu mu^T``)."""
    Wp, mp, Cp = S.mom_pos
    Wn, mn, Cn = S.mom_neg
    Sigma, mu, cov = pair_moments_from_classes(mp, Cp / Wp, mn, Cn / Wn)
    return Sigma, mu, 0.5 * (cov + cov.T)


# ==========================================================================================
# The exact training-ranking threshold (intercept), by distributed selection
# ==========================================================================================

def _score_part(part, coef, unit):
    """Scores ``X_c @ coef`` of a part, with the weights of the rows that count (weight > 0)."""
    X, _, sw = part
    s = np.asarray(X @ coef).ravel()
    if unit:
        return s, None
    if sw is None:
        return s, np.ones(s.shape[0])
    keep = sw > 0
    return s[keep], sw[keep]


def _interval(sp, lo, hi):
    s, w = sp
    sel = (s >= lo) & (s < hi)
    return s[sel], (None if w is None else w[sel])


def _interval_stats(sp, lo, hi, m, seed):
    v, _ = _interval(sp, lo, hi)
    if v.size == 0:
        return 0, np.inf, -np.inf, v
    rng = np.random.default_rng(seed)
    sample = v[rng.integers(0, v.size, size=min(int(m), v.size))] if m > 0 else v[:0]
    return int(v.size), float(v.min()), float(v.max()), sample


def _interval_hist(sp, lo, hi, splitters):
    v, w = _interval(sp, lo, hi)
    b = np.searchsorted(splitters, v, side="right")
    nb = splitters.shape[0] + 1
    counts = np.bincount(b, minlength=nb)
    mass = counts.astype(np.float64) if w is None else np.bincount(b, weights=w, minlength=nb)
    return counts, mass


def _interval_values(sp, lo, hi):
    return _interval(sp, lo, hi)


def _max_below(sp, cut):
    s = sp[0]
    below = s[s < cut]
    return float(below.max()) if below.size else -np.inf


def _threshold_offset(data: _Parts, coef: np.ndarray, S: _Summary, what: str) -> float:
    r"""``threshold_offset(X @ coef, is_pos, sw)`` of :mod:`rankwise.learners._base`, exactly,
    without gathering the scores.

    The cut is the largest score ``v`` with ``M(s >= v) >= T``: ``M`` counts rows and
    ``T = n_+`` unweighted (the single-machine ``np.partition``), ``M`` sums weights
    (zero-weight rows dropped) and ``T = W_+ (1 - 1e-12)`` weighted (the single-machine
    cumulative-weight search). Rounds of range counting narrow an interval ``[lo, hi)``
    holding the cut: a sample of its scores (plus 16 evenly spaced values between its
    smallest and largest) gives splitters; each part returns per-bucket counts and masses
    (buckets by ``searchsorted(splitters, s, side="right")``, so equal scores share a
    bucket); the client keeps the bucket where ``M`` crosses ``T``. An interval holding a
    single value is the answer; one of at most ``_GATHER_LIMIT`` scores is gathered and
    finished on the client. The result does not depend on the splitters (only the number
    of rounds does). Then ``max(s < cut)`` is one more reduction. The scores are
    computed once and held on the workers (8 or 16 bytes per row).
    """
    client = data.client
    score_futs = data.map(_score_part, coef, S.unit)
    T = float(S.n_pos) if S.unit else S.Wp * (1.0 - 1e-12)
    lo, hi, above = -np.inf, np.inf, 0.0
    counts = S.part_rows.astype(np.float64)
    cut = None
    rnd = 0
    while cut is None:
        total = max(float(counts.sum()), 1.0)
        m = np.ceil(_SAMPLE * counts / total).astype(np.int64)
        st = _gather(client, [client.submit(_interval_stats, f, lo, hi, int(mc), [rnd, c], pure=False)
                              for c, (f, mc) in enumerate(zip(score_futs, m))], what)
        n_in = sum(s[0] for s in st)
        if n_in <= _GATHER_LIMIT:
            got = _gather(client, [client.submit(_interval_values, f, lo, hi, pure=False) for f in score_futs], what)
            vals = np.concatenate([g[0] for g in got])
            wts = np.ones(vals.shape[0]) if S.unit else np.concatenate([g[1] for g in got])
            order = np.argsort(-vals, kind="stable")
            cum = above + np.cumsum(wts[order])
            k = int(np.searchsorted(cum, T))
            cut = float(vals[order[min(k, vals.shape[0] - 1)]])
            break
        gmin = min(s[1] for s in st)
        gmax = max(s[2] for s in st)
        if gmin == gmax:
            cut = gmin
            break
        spl = np.unique(np.concatenate([np.concatenate([s[3] for s in st]), np.linspace(gmin, gmax, 17)]))
        spl = spl[(spl > gmin) & (spl <= gmax)]
        hist = _gather(client, [client.submit(_interval_hist, f, lo, hi, spl, pure=False) for f in score_futs], what)
        mass = np.sum([h[1] for h in hist], axis=0)
        ge = above + np.cumsum(mass[::-1])[::-1]  # ge[b] = M(s >= lower edge of bucket b)
        ok = np.flatnonzero(ge >= T)
        b = int(ok[-1]) if ok.size else 0
        edges = np.concatenate([[lo], spl, [hi]])
        lo, hi = float(edges[b]), float(edges[b + 1])
        above = float(ge[b + 1]) if b + 1 < ge.shape[0] else above
        counts = np.array([h[0][b] for h in hist], dtype=np.float64)
        rnd += 1
    below = max(_gather(client, [client.submit(_max_below, f, cut, pure=False) for f in score_futs], what))
    threshold = 0.5 * (cut + below) if np.isfinite(below) else cut - 1.0
    return -float(threshold)


# ==========================================================================================
# BBR
# ==========================================================================================

def _check_estimator(estimator, cls, func):
    if not isinstance(estimator, cls) or isinstance(estimator, LCBRRanker):
        raise TypeError(f"{func} fits a rankwise.{cls.__name__}. Got {type(estimator).__name__}; "
                        f"rankwise.distributed.fit supports {', '.join(SUPPORTED_ESTIMATORS)}.")


def fit_bbr(estimator: BBRRanker, X, y=None, sample_weight=None, *, client=None, feature_columns=None,
            label=None, weight=None, chunk_size=None, persist: bool = True) -> BBRRanker:
    r"""Fit a :class:`~rankwise.BBRRanker` on data held by a Dask cluster, in one pass.

    Parameters
    ----------
    estimator : BBRRanker
        Fitted in place and returned (its ``radius`` and ``alpha`` apply; ``method`` is
        always the class-moment identity, which ``"pairs"`` equals).
    X : dask array (n, d), numpy array, dask or pandas DataFrame, or Parquet path
        A dask array is used in its row chunks (columns are rechunked to one block); a
        numpy array (or pandas DataFrame) is cut into ``chunk_size`` row blocks (default:
        two blocks per worker).
        With a dask DataFrame or a Parquet path (file or directory), name the label column
        (``y="col"`` or ``label="col"``) and optionally ``feature_columns`` (default: all
        other columns) and a weight column (``sample_weight="col"`` or ``weight="col"``).
        A pandas DataFrame takes either form (column names, or array-like ``y`` and
        ``sample_weight``); its column names become ``feature_names_in_``.
    y, sample_weight : array-like or dask array, aligned with the rows of ``X``
    client : distributed.Client, scheduler address or None (the current client)
    persist : bool, default True
        Keep the validated row blocks in worker memory between the two passes; False
        reads the source twice (for data larger than the cluster's memory).

    Returns
    -------
    BBRRanker
        With ``coef_``, ``intercept_``, ``pair_covariance_``, ``pair_mean_``,
        ``multiplier_``, ``classes_``, ``n_features_in_`` (and ``feature_names_in_`` for
        DataFrame input) as :meth:`BBRRanker.fit` sets them.

    Notes
    -----
    Pass 1: each part returns, per class, ``(W_c, m_c, C_c)`` (weight, mean, centred
    scatter): ``2 * 8 (1 + d + d^2)`` bytes per part. The client combines them
    (parallel-variance formula), forms :math:`\mu = m_+ - m_-` and
    :math:`\Sigma = C_+/W_+ + C_-/W_- + \mu\mu^\top` and solves the same trust-region
    problem as the single-machine fit. Pass 2: the scores ``X_c @ coef`` (``8 d`` bytes to
    each part) for the exact threshold (:func:`_threshold_offset`). The single-machine
    fit forms the same moments from uncentred sums; on standardised data the two agree
    to about 1e-13 relative (the tests check 1e-10 on coef, intercept and scores).
    """
    _check_estimator(estimator, BBRRanker, "fit_bbr")
    check_bbr(estimator)
    client = _get_client(client)
    data = _load(client, estimator, X, y, sample_weight, feature_columns, label, chunk_size, persist, weight)
    try:
        S = _validate(data, estimator, moments=True)
        Sigma, mu, _ = _pair_moments(S)
        solve_bbr(estimator, Sigma, mu)
        estimator.intercept_ = _threshold_offset(data, estimator.coef_, S, "fit_bbr")
    finally:
        data.release()
    return estimator


# ==========================================================================================
# ProperLossRanker
# ==========================================================================================

def _proper_part(part, theta, pos_label, loss_name, div_pos, div_neg, total):
    """The part's :func:`~rankwise.learners.proper_terms`, ``(sum_i w_i l(t_i, f_i),
    X_c^T g, sum g)`` with ``g_i = w_i l'(t_i, f_i)``, ``w`` normalised as
    :meth:`ProperLossRanker.fit` does (with the class totals of the whole sample)."""
    X, y, sw = part
    if X.shape[0] == 0:
        return 0.0, np.zeros(X.shape[1]), 0.0
    is_pos = y == pos_label
    w = np.ones(X.shape[0]) if sw is None else sw.copy()
    if div_pos is not None:
        w[is_pos] /= div_pos
        w[~is_pos] /= div_neg
    w /= total
    t = np.where(is_pos, 1.0, -1.0)
    return proper_terms(X, t, w, theta, *pointwise_loss(loss_name))


def fit_proper(estimator: ProperLossRanker, X, y=None, sample_weight=None, *, client=None,
               feature_columns=None, label=None, weight=None, chunk_size=None) -> ProperLossRanker:
    r"""Fit a :class:`~rankwise.ProperLossRanker` on data held by a Dask cluster.

    The same L-BFGS-B run as :meth:`ProperLossRanker.fit` (same start, options and
    objective), on the client; each objective evaluation is one map over the parts, which
    are validated once and kept in worker memory. Per evaluation ``theta`` (``8 (d + 1)``
    bytes) goes to each part and ``(loss sum, X_c^T g, sum g)`` (``8 (d + 2)`` bytes) comes
    back. The normalising constants (class weights, balanced shares) come from the
    validation pass. Only the order of the sums differs from the single-machine fit, so
    both follow the same optimiser path up to rounding (the tests check the coefficients
    to 1e-8 relative). Inputs as in :func:`fit_bbr`.
    """
    _check_estimator(estimator, ProperLossRanker, "fit_proper")
    loss, alpha, max_iter, tol = check_proper(estimator)
    client = _get_client(client)
    data = _load(client, estimator, X, y, sample_weight, feature_columns, label, chunk_size, True, weight)
    try:
        S = _validate(data, estimator, moments=False)
        Wp, Wn = S.Wp, S.Wn
        if estimator.balanced:
            p = Wp / (Wp + Wn)
            div_pos, div_neg = 2.0 * p, 2.0 * (1.0 - p)
            total = Wp / div_pos + Wn / div_neg
            prior_mass = (Wp / div_pos) / total
        else:
            div_pos = div_neg = None
            total = Wp + Wn
            prior_mass = Wp / total

        def objective(theta):
            futs = data.map(_proper_part, theta, S.pos_label, loss.name, div_pos, div_neg, total)
            res = _gather(client, futs, "fit_proper")
            return proper_penalised(theta, alpha, sum(r[0] for r in res), np.sum([r[1] for r in res], axis=0),
                                    sum(r[2] for r in res))

        solve_proper(estimator, loss, objective, S.d, prior_mass, max_iter, tol)
    finally:
        data.release()
    return estimator


# ==========================================================================================
# PairwiseRanker
# ==========================================================================================

# --- exponential: the objective factorises ------------------------------------------------

def _exp_part(part, w, pos_label):
    """Per class of a part: the largest exponent ``M`` of ``a_i = log w_i -+ s_i``,
    ``sum e^{a_i - M}`` and ``X^T e^{a - M}`` (log-sum-exp pieces; ``M = -inf`` if none)."""
    X, y, sw = part
    d = X.shape[1]
    out = []
    if X.shape[0] == 0:
        return [(-np.inf, 0.0, np.zeros(d))] * 2
    s = np.asarray(X @ w).ravel()
    is_pos = y == pos_label
    lw = np.zeros(s.shape[0]) if sw is None else log_weights(sw)
    with np.errstate(over="ignore"):
        for sel, sign in ((is_pos, -1.0), (~is_pos, 1.0)):
            a = lw[sel] + sign * s[sel]
            if a.size == 0 or not np.any(np.isfinite(a)):
                out.append((-np.inf, 0.0, np.zeros(d)))
                continue
            M = float(a.max())
            e = np.exp(a - M)
            out.append((M, float(e.sum()), np.asarray(X[sel].T @ e).ravel()))
    return out


def _lse(pieces):
    M = max(p[0] for p in pieces)
    return M + math.log(sum(p[1] * math.exp(p[0] - M) for p in pieces if p[1] > 0))


# --- hinge and squared hinge: the range-partitioned pass ----------------------------------

_ORD_MIN = np.int64(-0x8000000000000000)


def _to_ord(x: np.ndarray) -> np.ndarray:
    """float64 -> int64, order preserving (-0.0 and 0.0 both to 0)."""
    i = np.ascontiguousarray(x, dtype=np.float64).view(np.int64)
    with np.errstate(over="ignore"):
        return np.where(i >= 0, i, _ORD_MIN - i)


def _from_ord(k: np.ndarray) -> np.ndarray:
    with np.errstate(over="ignore"):
        i = np.where(k >= 0, k, _ORD_MIN - k)
    return i.astype(np.int64).view(np.float64)


_ORD_NINF = int(_to_ord(np.array([-np.inf]))[0])
_ORD_INF = int(_to_ord(np.array([np.inf]))[0])


def _pair_key(s: np.ndarray, c: float) -> np.ndarray:
    r"""For each positive score ``s``, the largest float ``t`` with ``fl(s - t) >= c``.

    ``fl(s - t)`` is monotone in ``t``, so a negative scored ``s_j`` is active with this
    positive (``fl(s - s_j) < c``, the single-machine predicate, bit for bit) exactly when
    ``s_j > t``: keys turn the predicate into an order comparison that a range partition
    preserves. ``fl(s - c)`` is within an ulp or two; an exponential search then a
    bisection on the order-preserving integer image of the floats find ``t`` exactly.
    """
    s = np.asarray(s, dtype=np.float64)
    if s.size == 0:
        return s.copy()

    def ok(k):
        return (s - _from_ord(k)) >= c

    with np.errstate(over="ignore", invalid="ignore"):
        k0 = _to_ord(s - c)
        f0 = ok(k0)
        lo = np.where(f0, k0, np.maximum(k0 - 1, _ORD_NINF))
        hi = np.where(f0, np.minimum(k0 + 1, _ORD_INF), k0)
        step = 1
        while True:
            bad_hi = ok(hi)  # must be False
            bad_lo = ~ok(lo)  # must be False
            if not (bad_hi.any() or bad_lo.any()):
                break
            step = min(step * 2, 1 << 62)
            lo = np.where(bad_hi, hi, lo)
            hi = np.where(bad_hi, np.where(hi > _ORD_INF - step, _ORD_INF, hi + step), hi)
            hi = np.where(bad_lo, lo, hi)
            lo = np.where(bad_lo, np.where(lo < _ORD_NINF + step, _ORD_NINF, lo - step), lo)
        while True:
            gap = hi - lo
            act = gap > 1
            if not act.any():
                break
            mid = lo + gap // 2
            fm = ok(mid)
            lo = np.where(act & fm, mid, lo)
            hi = np.where(act & ~fm, mid, hi)
    return _from_ord(lo)


def _hinge_keys(part, w, pos_label, margin):
    """Scores of a part, its positives and the keys: positives at :func:`_pair_key`,
    negatives at their score."""
    X, y, _ = part
    s = np.asarray(X @ w).ravel()
    is_pos = np.asarray(y == pos_label)
    key = s.copy()
    key[is_pos] = _pair_key(s[is_pos], margin)
    return s, is_pos, key


def _hinge_sample(part, w, pos_label, margin, k, seed):
    """Up to ``k`` random keys of a part (splitters before any evaluation has sampled)."""
    key = _hinge_keys(part, w, pos_label, margin)[2]
    if key.size == 0:
        return key
    return key[np.random.default_rng(seed).integers(0, key.size, size=min(key.size, int(k)))]


def _class_sums_part(part, pos_label):
    """Weighted feature sums of a part's positives and negatives."""
    X, y, sw = part
    is_pos = np.asarray(y == pos_label)
    v = np.ones(X.shape[0]) if sw is None else sw
    return (np.asarray(X[is_pos].T @ v[is_pos]).ravel().astype(np.float64),
            np.asarray(X[~is_pos].T @ v[~is_pos]).ravel().astype(np.float64))


def _hinge_split(part, w, pos_label, margin, splitters):
    """Scores of a part and their keys (positives at :func:`_pair_key`, negatives at their
    score), cut into the buckets of ``splitters`` (``searchsorted(..., side="right")``:
    equal keys share a bucket). One piece per bucket: ``(positions, key, s, w, is_pos)``."""
    sw = part[2]
    s, is_pos, key = _hinge_keys(part, w, pos_label, margin)
    v = np.ones(s.shape[0]) if sw is None else sw
    b = np.searchsorted(splitters, key, side="right")
    nb = splitters.shape[0] + 1
    order = np.argsort(b, kind="stable")
    edges = np.searchsorted(b[order], np.arange(nb + 1), side="left")
    pieces = []
    for k in range(nb):
        idx = order[edges[k]:edges[k + 1]]
        pieces.append((idx, key[idx], s[idx], v[idx], is_pos[idx]))
    return pieces


def _pick(obj, *path):
    for p in path:
        obj = obj[p]
    return obj


def _hinge_bucket(n_sample, seed, *pieces):
    """Merge one bucket's pieces (one per part) and sort each class by key. Small result:
    the bucket's score range, its class totals ``(sum w-, sum w- u, sum w- u^2, sum w+,
    sum w+ u)`` with ``u = s - r`` centred at the bucket's own midpoint ``r``, and a
    sample of its keys (splitters of the next evaluation)."""
    part_id = np.concatenate([np.full(p[0].shape[0], c, dtype=np.int64) for c, p in enumerate(pieces)])
    idx = np.concatenate([p[0] for p in pieces])
    key = np.concatenate([p[1] for p in pieces])
    s = np.concatenate([p[2] for p in pieces])
    v = np.concatenate([p[3] for p in pieces])
    P = np.concatenate([p[4] for p in pieces]).astype(bool)
    N = ~P
    op = np.argsort(key[P], kind="stable")
    on = np.argsort(key[N], kind="stable")
    pos = tuple(a[P][op] for a in (part_id, idx, key, s, v))
    neg = tuple(a[N][on] for a in (part_id, idx, key, s, v))
    if s.size:
        smin, smax = float(s.min()), float(s.max())
        r = 0.5 * (smin + smax)
    else:
        smin, smax, r = np.inf, -np.inf, 0.0
    un, vn = neg[3] - r, neg[4]
    up, vp = pos[3] - r, pos[4]
    totals = np.array([vn.sum(), (vn * un).sum(), (vn * un * un).sum(), vp.sum(), (vp * up).sum()])
    rng = np.random.default_rng(seed)
    sample = key[rng.integers(0, key.size, size=min(key.size, int(n_sample)))] if key.size else key
    return (pos, neg), (smin, smax, r, totals, sample)


def _shift_totals(small, ref):
    """A bucket's class totals re-centred from its midpoint ``r`` to ``ref``:
    ``sum w (s - ref) = sum w u + (r - ref) sum w`` and
    ``sum w (s - ref)^2 = sum w u^2 + 2 (r - ref) sum w u + (r - ref)^2 sum w``."""
    _, _, r, t, _ = small
    h = r - ref
    return np.array([t[0], t[1] + h * t[0], t[2] + 2.0 * h * t[1] + h * h * t[0], t[3], t[4] + h * t[3]])


def _hinge_grad(bucket, b, margin, squared, W, n_parts, *smalls):
    """Per-row ``dF/ds`` of one bucket and its share of ``F W``, routed back to the parts.

    Scores are centred at the global ``ref = (min + max) / 2`` (as the single-machine
    kernel centres them). Partners inside the bucket come from prefix/suffix sums over the
    sorted keys; partners in other buckets from their totals (the negatives of the buckets
    above, the positives of the buckets below: keys in higher buckets are larger). Returns
    one ``(positions, g)`` piece per part; the bucket's value rides on part 0's piece."""
    (pos, neg), _ = bucket
    ref = 0.5 * (min(sm[0] for sm in smalls) + max(sm[1] for sm in smalls))
    T = np.array([_shift_totals(sm, ref) for sm in smalls])
    # Negatives of the buckets above and positives of the buckets below are active with
    # every element here.
    outside = (T[b + 1:, 0].sum(), T[b + 1:, 1].sum(), T[b + 1:, 2].sum(), T[:b, 3].sum(), T[:b, 4].sum())
    pid_p, idx_p, key_p, sp, vp = pos
    pid_n, idx_n, key_n, sn, vn = neg
    kn = np.searchsorted(key_n, key_p, side="right")   # first negative with key > tau_i
    kp = np.searchsorted(key_p, key_n, side="left")    # positives with tau_i < s_j
    val, gp, gn = hinge_pair_sums(sp - ref, vp, sn - ref, vn, kn, kp, margin, squared, outside)
    gp = gp / W
    gn = gn / W
    pid = np.concatenate([pid_p, pid_n])
    order = np.argsort(pid, kind="stable")
    idx = np.concatenate([idx_p, idx_n])[order]
    g = np.concatenate([gp, gn])[order]
    edges = np.searchsorted(pid[order], np.arange(n_parts + 1), side="left")
    return [(idx[edges[k]:edges[k + 1]], g[edges[k]:edges[k + 1]], val if k == 0 else 0.0)
            for k in range(n_parts)]


def _hinge_xtg(part, *backs):
    """``X_c^T g`` with the per-row gradient ``g`` put back in row order, and the bucket
    values that rode along."""
    X = part[0]
    g = np.zeros(X.shape[0])
    val = 0.0
    for idx, gv, bv in backs:
        g[idx] = gv
        val += bv
    return np.asarray(X.T @ g).ravel(), val


def fit_pairwise(estimator: PairwiseRanker, X, y=None, sample_weight=None, *, client=None,
                 feature_columns=None, label=None, weight=None, chunk_size=None,
                 n_partitions=None) -> PairwiseRanker:
    r"""Fit a :class:`~rankwise.PairwiseRanker` on data held by a Dask cluster, with the
    exact all-pairs objective.

    The same L-BFGS-B run as :meth:`PairwiseRanker.fit`; the objective
    :math:`F(w) = \frac1W \sum_{i+}\sum_{j-} w_i w_j \phi(s_i - s_j)` and its gradient
    :math:`X^\top \partial F/\partial s` are evaluated on the cluster:

    * ``squared``: :math:`F = (c - \mu^\top w)^2 + w^\top (\mathrm{Cov}_+ + \mathrm{Cov}_-) w`
      from the class moments of one pass (as BBR); the iterations then run on the client
      with d x d algebra, no data pass.
    * ``exponential``: :math:`F = (\sum_+ w_i e^{-s_i})(\sum_- w_j e^{s_j}) / W`; each part
      returns, per class, its largest exponent ``M``, ``sum e^{a - M}`` and ``X^T e^{a - M}``
      (``2 * 8 (d + 2)`` bytes), combined by log-sum-exp on the client.
    * ``hinge``, ``squared_hinge``: positives keyed at the exact float version of
      ``s_i - margin`` (:func:`_pair_key`), negatives at ``s_j``; a pair is active iff the
      negative's key is above the positive's, the single-machine predicate
      ``fl(s_i - s_j) < margin`` bit for bit. The keys are range-partitioned into
      ``n_partitions`` buckets (default: one per worker; splitters from the previous
      evaluation's sample of keys, equal keys in one bucket); each bucket sorts its keys
      and uses prefix/suffix sums of ``(w, w s, w s^2)`` plus the class totals of the
      buckets above/below (5 floats each). The per-row gradient goes back to its part by
      (part, position) ids and each part returns ``X_c^T g``. Per evaluation: ``8 d``
      bytes to each part, 33 bytes per row to the buckets and 16 back (worker to worker),
      ``8 (d + s)`` bytes per part and one float per bucket to the client.
    * ``logistic``: not supported (its exact form is O(n+ n-) pair blocks); a ValueError
      says so.

    The intercept is the exact training-ranking threshold (:func:`_threshold_offset`).
    ``objective_``, ``n_iter_`` and ``mode_`` (``"exact"``) are set as the single-machine
    fit sets them. Inputs as in :func:`fit_bbr`.
    """
    surrogate, alpha, max_iter, tol = _check_pairwise(estimator)
    client = _get_client(client)
    data = _load(client, estimator, X, y, sample_weight, feature_columns, label, chunk_size, True, weight)
    try:
        S = _validate(data, estimator, moments=(surrogate.name == "squared"))
        solve_pairwise(estimator, _pairwise_objective(data, S, surrogate, n_partitions), S.d, alpha, max_iter, tol)
        estimator.intercept_ = _threshold_offset(data, estimator.coef_, S, "fit_pairwise")
    finally:
        data.release()
    return estimator


def _check_pairwise(estimator):
    """:func:`~rankwise.learners.check_pairwise`, for a surrogate this module evaluates."""
    _check_estimator(estimator, PairwiseRanker, "fit_pairwise")
    surrogate, alpha, max_iter, tol = check_pairwise(estimator)
    if surrogate.name not in PAIRWISE_LOSSES:
        raise ValueError(
            f"fit_pairwise: the distributed pairwise {surrogate.name!r} loss is not supported (its exact "
            f"evaluation takes O(n+ n-) pair blocks); supported losses: {', '.join(map(repr, PAIRWISE_LOSSES))}."
        )
    return surrogate, alpha, max_iter, tol


def _pairwise_objective(data: _Parts, S: _Summary, surrogate, n_partitions=None):
    """``w -> (F(w), X^T dF/ds)``: the surrogate over all pairs, evaluated on the cluster."""
    client = data.client
    name = surrogate.name
    d = S.d
    W = S.Wp * S.Wn
    if name == "squared":
        c = surrogate.params["margin"]
        _, mu, cov = _pair_moments(S)

        def value_grad(w):
            b = c - float(mu @ w)
            cw = cov @ w
            return b * b + float(w @ cw), -2.0 * b * mu + 2.0 * cw
        return value_grad
    if name == "exponential":
        logW = math.log(S.Wp) + math.log(S.Wn)

        def value_grad(w):
            res = _gather(client, data.map(_exp_part, w, S.pos_label), "fit_pairwise")
            lse_p = _lse([r[0] for r in res])
            lse_n = _lse([r[1] for r in res])
            with np.errstate(over="ignore"):
                val = float(np.exp(lse_p + lse_n - logW))
                g = np.zeros(d)
                for rp, rn in res:
                    if rp[1] > 0:
                        g -= np.exp(rp[0] + (lse_n - logW)) * rp[2]
                    if rn[1] > 0:
                        g += np.exp(rn[0] + (lse_p - logW)) * rn[2]
            return val, g
        return value_grad
    c = surrogate.params["margin"]
    squared = name == "squared_hinge"
    C = len(data.parts)
    B = int(n_partitions) if n_partitions is not None else _n_workers(client)
    B = int(check_param(B, "n_partitions", "fit_pairwise", low=1, integer=True))
    quota = max(64, 16 * B)
    state = {"splitters": np.zeros(0), "round": 0}

    def value_grad(w):
        sub = client.submit
        if not np.any(w):
            # All scores 0, every pair at margin 0: F = phi(0) and X^T dF/ds =
            # phi'(0) (mean_+ x - mean_- x), from class sums (no bucket would split ties).
            sums = _gather(client, data.map(_class_sums_part, S.pos_label), "fit_pairwise")
            mu = sum(r[0] for r in sums) / S.Wp - sum(r[1] for r in sums) / S.Wn
            return float(surrogate.phi(0.0)), float(surrogate.dphi(0.0)) * mu
        if B > 1 and state["splitters"].size == 0:
            # No previous evaluation to take splitters from: sample this w's keys first.
            rnd = state["round"] = state["round"] + 1
            keys = _gather(client, [sub(_hinge_sample, p, w, S.pos_label, c, math.ceil(quota / C), [rnd, k],
                                        pure=False) for k, p in enumerate(data.parts)], "fit_pairwise")
            keys = np.concatenate(keys)
            if keys.size:
                state["splitters"] = np.unique(np.quantile(keys, np.arange(1, B) / B, method="inverted_cdf"))
        spl = state["splitters"]
        nb = spl.shape[0] + 1
        rnd = state["round"] = state["round"] + 1
        A = [sub(_hinge_split, p, w, S.pos_label, c, spl, pure=False) for p in data.parts]
        buckets = [sub(_hinge_bucket, math.ceil(quota / nb), [rnd, b],
                       *[sub(_pick, a, b, pure=False) for a in A], pure=False) for b in range(nb)]
        smalls = [sub(_pick, bk, 1, pure=False) for bk in buckets]
        grads = [sub(_hinge_grad, bk, b, c, squared, W, C, *smalls, pure=False)
                 for b, bk in enumerate(buckets)]
        xtg = [sub(_hinge_xtg, p, *[sub(_pick, g, k, pure=False) for g in grads], pure=False)
               for k, p in enumerate(data.parts)]
        xtg, smalls = _gather(client, [xtg, smalls], "fit_pairwise")
        sample = np.concatenate([sm[4] for sm in smalls])
        if B > 1 and sample.size:
            q = np.quantile(sample, np.arange(1, B) / B, method="inverted_cdf")
            state["splitters"] = np.unique(q)
        val = sum(x[1] for x in xtg)
        return max(val / W, 0.0), np.sum([x[0] for x in xtg], axis=0)
    return value_grad


def _evaluate_pairwise(estimator, X, y, sample_weight, ws: Sequence[np.ndarray], *, client=None, **kwargs):
    """``[(F(w), X^T dF/ds) for w in ws]`` on the cluster, in order (the splitters of
    each evaluation come from the previous one, as in a fit). For tests and diagnostics."""
    surrogate = _check_pairwise(estimator)[0]
    client = _get_client(client)
    data = _load(client, estimator, X, y, sample_weight, kwargs.pop("feature_columns", None),
                 kwargs.pop("label", None), kwargs.pop("chunk_size", None), True, kwargs.pop("weight", None))
    try:
        S = _validate(data, estimator, moments=(surrogate.name == "squared"))
        value_grad = _pairwise_objective(data, S, surrogate, kwargs.pop("n_partitions", None))
        return [value_grad(np.asarray(w, dtype=np.float64)) for w in ws]
    finally:
        data.release()


# ==========================================================================================
# Dispatch
# ==========================================================================================

def fit(estimator, X, y=None, sample_weight=None, **kwargs):
    """Fit a supported rankwise estimator on data held by a Dask cluster.

    Dispatches on the estimator: :class:`~rankwise.BBRRanker` to :func:`fit_bbr`,
    :class:`~rankwise.ProperLossRanker` to :func:`fit_proper`,
    :class:`~rankwise.PairwiseRanker` to :func:`fit_pairwise` (keyword arguments passed on:
    ``client``, ``feature_columns``, ``label``, ``chunk_size``, ...). Any other
    estimator raises a TypeError listing the supported ones.
    """
    if isinstance(estimator, BBRRanker) and not isinstance(estimator, LCBRRanker):
        return fit_bbr(estimator, X, y, sample_weight, **kwargs)
    if isinstance(estimator, ProperLossRanker):
        return fit_proper(estimator, X, y, sample_weight, **kwargs)
    if isinstance(estimator, PairwiseRanker):
        return fit_pairwise(estimator, X, y, sample_weight, **kwargs)
    raise TypeError(
        f"rankwise.distributed.fit does not support {type(estimator).__name__}; supported estimators: "
        f"{', '.join(SUPPORTED_ESTIMATORS)}."
    )
