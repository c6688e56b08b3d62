"""Inference on Dask collections: ``estimate`` and ``compare`` from the partitioned passes.

Every criterion of :mod:`rankwise.stats` is linearised into one projection term per
observation, a function of the observation's level in the rank table (DeLong's
placements for the AUC, the Hájek projection otherwise; see
:mod:`rankwise.stats._influence`). On a range-partitioned sample these terms are read
off each bucket's table seen through its offsets, plus a few global scalars that one
small exchange provides:

* suffix sums over the buckets above (the ``D`` term of ``W_phi``, the p-norm push's
  ``sum e``, the local AUC's kept positives): each bucket sends its total;
* the local AUC's cut ``Q`` (the lowest kept level, in the lowest bucket holding one),
  the share of positives in the window around it and ``H(Q)``;
* the partial AUC's ``ROC(max_fpr)``: each bucket sends its last ROC point at or left of
  ``max_fpr`` and its first point right of it;
* the p-norm push mean ``m`` and the statistic's range (``W_min``, ``W_max``, ideal DCG).

``estimate`` then needs only per-bucket class variances (mass, mean, centred sum of
squares), combined exactly by the parallel formula of Chan, Golub and LeVeque.
``compare`` pairs the K scorers' terms row by row: each bucket sends every row's term
back to the chunk it came from (in the order the chunk sent it, so no row ids travel),
each chunk forms its class-wise K-vector of means and K x K centred cross-products, and
only those come back to the client.
"""

from __future__ import annotations

import math

import numpy as np

from .. import phi as _phi
from .._kernels import _passes
from .._kernels._ranktable import RankTable
from .._validation import check_choice, warn_undefined
from ..metrics._criteria import CRITERIA
from ..stats import _core, _influence
from ..stats import _compare
from ..stats._compare import Comparison, _build
from ..stats._estimate import Estimate, _check_bandwidth, _check_method, _split
from . import _bootstrap as _bs
from . import _criteria as _c
from . import _partition as _p
from ._cluster import require_dask

__all__ = ["estimate", "compare"]


# --- per-bucket projection pieces --------------------------------------------------------------

def _dense(t: RankTable, offsets: tuple) -> _influence.Dense:
    st = _p.ShiftedTable(t, *offsets)
    return _influence.Dense(st.pos, st.neg, st.n_pos, st.n_neg, st.pos_below, st.neg_below)


def _bandwidth(name: str, params: dict, N: float, bandwidth: float | None) -> float:
    if bandwidth is not None:
        return bandwidth
    if name in ("dcg", "ndcg"):
        return _influence.dcg_bandwidth(N, params["k"])
    if name == "rank_statistic" and params["phi"].name == "dcg":
        return _influence.dcg_bandwidth(N, params["phi"].k)
    return _influence.default_bandwidth(N)


def _rank_phi(name: str, params: dict):
    """``(phi, ties)`` of the criteria whose projection is the ``W_phi`` one."""
    if name == "rank_statistic":
        return params["phi"], params["ties"]
    disc = params["discount"]
    return _phi.dcg(params["k"], None if disc is _phi.standard_discount else disc), "average"


def _rank_g(d, phi, ties: str, bw: float) -> np.ndarray:
    """``g_k = a_k phi'(u_k) / (N + 1)`` of :func:`rankwise.stats._influence.rank_statistic`."""
    N = d.N
    below = d.Pb + d.Nb
    count = d.a + d.b
    r = below + 0.5 * (count + 1.0) if ties == "average" else below + count
    slope = np.zeros_like(r)
    has = d.a > 0
    slope[has] = _influence.phi_slope(phi, r[has], N, bw)
    return d.a * slope / (N + 1.0)


def _local_keep(d, top: float) -> tuple[np.ndarray, np.ndarray]:
    N = d.N
    cum = d.Pb + d.Nb + d.a + d.b
    keep = (N - cum) < top * N * (1.0 - _passes._REL)
    keep &= (d.a + d.b) > 0
    return keep, cum


def _summary(name: str, params: dict, d, bw: float, offsets_above: tuple) -> dict:
    """Round 1: what the bucket contributes to the global scalars of the projection."""
    if name in ("rank_statistic", "dcg", "ndcg"):
        phi, ties = _rank_phi(name, params)
        return {"G": float(_rank_g(d, phi, ties, bw).sum())}
    if name == "pnorm_push":
        c = 0.5 if params["ties"] == "average" else 1.0
        p = params["p"]
        v = (d.Pb + c * d.a) / d.P
        e = d.b * p * np.power(v, p - 1.0) / d.M
        return {"m": float(np.dot(d.b, np.power(v, p))), "E": float(e.sum())}
    if name == "local_auc":
        top = params["top"]
        keep, cum = _local_keep(d, top)
        mid = (cum - 0.5 * (d.a + d.b)) / d.N
        window = np.abs(mid - (1.0 - top)) <= 0.5 * bw
        out = {"KP": float(np.where(keep, d.a, 0.0).sum()), "aw": float(d.a[window].sum()),
               "abw": float((d.a[window] + d.b[window]).sum()), "q": -1}
        if keep.any():
            q = int(np.argmax(keep))
            out.update(q=q, a_q=float(d.a[q]), b_q=float(d.b[q]), Nb_q=float(d.Nb[q]), w_q=bool(window[q]))
        return out
    if name == "partial_auc":
        mf = params["max_fpr"]
        neg_above, pos_above = offsets_above
        fpr = (neg_above + np.cumsum(d.b[::-1])) / d.M  # by decreasing level, as the ROC curve
        tpr = (pos_above + np.cumsum(d.a[::-1])) / d.P
        j = int(np.searchsorted(fpr, mf, side="right")) - 1
        out = {"left": None, "right": None}
        if j >= 0:
            out["left"] = (float(fpr[j]), float(tpr[j]))
        if j + 1 < fpr.shape[0]:
            out["right"] = (float(fpr[j + 1]), float(tpr[j + 1]))
        return out
    return {}


def _globals(name: str, params: dict, summaries: list, part: _p.Partition) -> dict:
    """Client side: combine the buckets' round-1 summaries into the projection's scalars."""
    B = len(summaries)

    def above(key):
        tot = np.array([s[key] if s else 0.0 for s in summaries])
        return np.concatenate((np.cumsum(tot[::-1])[::-1][1:], [0.0]))  # sum over buckets above

    if name in ("rank_statistic", "dcg", "ndcg"):
        return {"above": above("G")}
    if name == "pnorm_push":
        m = math.fsum(s["m"] for s in summaries if s) / part.n_neg
        return {"above": above("E"), "m": m}
    if name == "local_auc":
        qb = next(b for b in range(B) if summaries[b] and summaries[b]["q"] >= 0)
        sq = summaries[qb]
        aw = math.fsum(s["aw"] for s in summaries if s)
        abw = math.fsum(s["abw"] for s in summaries if s)
        if not sq["w_q"]:
            aw += sq["a_q"]
            abw += sq["a_q"] + sq["b_q"]
        return {"above": above("KP"), "qb": qb, "q": sq["q"], "rho": aw / abw,
                "h_q": (sq["Nb_q"] + 0.5 * sq["b_q"]) / part.n_neg}
    if name == "partial_auc":
        mf = params["max_fpr"]
        left = next((summaries[b]["left"] for b in range(B) if summaries[b] and summaries[b]["left"]), (0.0, 0.0))
        right = next((summaries[b]["right"] for b in range(B - 1, -1, -1)
                      if summaries[b] and summaries[b]["right"]), None)
        if right is None or right[0] == left[0]:
            at_f = left[1]
        else:
            at_f = left[1] + (mf - left[0]) * (right[1] - left[1]) / (right[0] - left[0])
        return {"at_f": at_f}
    return {}


def _projection(name: str, params: dict, d, bw: float, g: dict, b: int) -> tuple[np.ndarray, np.ndarray]:
    """Round 2: ``(h_pos, h_neg)`` at the bucket's levels, equal to the single-machine
    projection at those levels."""
    if name == "auc":
        return _influence.auc(d)
    if name in ("rank_statistic", "dcg", "ndcg"):
        phi, ties = _rank_phi(name, params)
        hp, hn = _influence.rank_statistic(d, phi, ties, bw)
        extra = g["above"][b]
        return hp + d.P * extra, hn + d.M * extra
    if name == "pnorm_push":
        c = 0.5 if params["ties"] == "average" else 1.0
        p = params["p"]
        v = (d.Pb + c * d.a) / d.P
        e = d.b * p * np.power(v, p - 1.0) / d.M
        return _influence._suffix_sum(e, c) + g["above"][b], np.power(v, p)
    if name == "local_auc":
        keep, _ = _local_keep(d, params["top"])
        above = np.zeros_like(d.a)
        if b > g["qb"]:
            above[:] = 1.0
        elif b == g["qb"]:
            above[g["q"] + 1:] = 1.0
            above[g["q"]] = 0.5
        kp = np.where(keep, d.a, 0.0)
        h_q, rho = g["h_q"], g["rho"]
        h_pos = np.where(keep, (d.Nb + 0.5 * d.b) / d.M, 0.0) - h_q * rho * above
        h_neg = (_influence._suffix_sum(kp, 0.5) + g["above"][b]) / d.P - h_q * rho * (d.M / d.P) * above
        return h_pos, h_neg
    if name == "partial_auc":
        mf = params["max_fpr"]
        fpr_mid = (d.Na + 0.5 * d.b) / d.M
        h_neg = np.where(fpr_mid <= mf, (d.Pa + 0.5 * d.a) / d.P, g["at_f"])
        return -np.minimum(mf, fpr_mid), h_neg
    raise ValueError(f"rankwise.distributed does not support criterion {name!r}.")  # pragma: no cover


def _factor(name: str, params: dict, value: float, g: dict, extra: tuple, n_pos: float, n_neg: float):
    """The chain-rule factor and the range of the criterion, as :func:`rankwise.stats._core.fit_criterion`."""
    if name == "auc":
        return 1.0, (0.0, 1.0)
    if name == "rank_statistic":
        wmin, wmax = extra
        scale = params["scale"]
        if scale == "raw":
            return 1.0, (wmin, wmax)
        if scale == "mean":
            return 1.0 / n_pos, (wmin / n_pos, wmax / n_pos)
        return (1.0 / (wmax - wmin) if wmax > wmin else float("nan")), (0.0, 1.0)
    if name == "local_auc":
        return 1.0, (0.0, 1.0)
    if name == "pnorm_push":
        p, m = params["p"], g["m"]
        if params["normalize"]:
            return ((m ** (1.0 / p - 1.0)) / p if m > 0 else 0.0), (0.0, 1.0)
        f = n_neg * n_pos ** p
        return f, (0.0, f)
    if name == "partial_auc":
        mf, std = params["max_fpr"], params["standardize"]
        if std is None or mf >= 1.0:
            return 1.0, (0.0, mf)
        lo, hi = 0.5 * mf * mf, mf
        return 0.5 / (hi - lo), (0.5 * (1.0 - mf / (2.0 - mf)), 1.0)
    if name in ("dcg", "ndcg"):
        stub = RankTable(np.empty(0), n_pos, n_neg)
        ideal = _passes.ideal_dcg(stub, params["k"], params["discount"])
        if name == "dcg":
            return 1.0, (0.0, ideal)
        return 1.0 / ideal, (0.0, 1.0)
    raise ValueError(f"rankwise.distributed does not support criterion {name!r}.")  # pragma: no cover


# --- bucket tasks ------------------------------------------------------------------------------

def _table_of(entry) -> RankTable:
    return entry[0] if isinstance(entry, tuple) else entry


def _round1(entry, offsets: tuple, above: tuple, name: str, params: dict, bandwidth, specs: list):
    """Value partials (``specs``) and projection summary of one bucket."""
    t = _table_of(entry)
    if t.size == 0:
        return None, None
    d = _dense(t, offsets)
    bw = _bandwidth(name, params, d.N, bandwidth)
    return _c._bucket_partials(t, offsets, specs), _summary(name, params, d, bw, above)


def _class_moments(h: np.ndarray, mass: np.ndarray) -> tuple[float, float, float]:
    sel = mass > 0
    hm, mm = h[sel], mass[sel]
    W = float(mm.sum())
    if W == 0:
        return 0.0, 0.0, 0.0
    mean = float(np.dot(mm, hm) / W)
    return W, mean, float(np.dot(mm, (hm - mean) ** 2))


def _round2_var(entry, offsets: tuple, name: str, params: dict, bandwidth, g: dict, b: int, f: float):
    """One bucket's class moments of the (scaled) projection terms."""
    t = _table_of(entry)
    if t.size == 0:
        return None
    d = _dense(t, offsets)
    hp, hn = _projection(name, params, d, _bandwidth(name, params, d.N, bandwidth), g, b)
    return _class_moments(f * hp, d.a), _class_moments(f * hn, d.b)


def _round2_rows(entry, offsets: tuple, name: str, params: dict, bandwidth, g: dict, b: int, f: float):
    """Every row's (scaled) projection term, split by the chunk it came from."""
    t, inv, lab, lengths = entry
    if t.size == 0:
        h = np.zeros(lab.shape[0])
    else:
        d = _dense(t, offsets)
        hp, hn = _projection(name, params, d, _bandwidth(name, params, d.N, bandwidth), g, b)
        h = np.where(lab, (f * hp)[inv], (f * hn)[inv])
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
        wc = np.ones(Hc.shape[0]) if w is None else w[sel]
        W = float(wc.sum())
        if W == 0:
            out.append(None)
            continue
        mean = (wc @ Hc) / W
        D = Hc - mean
        out.append((W, mean, (D.T * wc) @ D))
    return out


def _chan(parts: list):
    """Combine (mass, mean, centred sum of squares) pieces, scalars or vectors/matrices."""
    W, mean, M2 = 0.0, None, None
    for p in parts:
        if p is None or p[0] == 0:
            continue
        wb, mb, m2b = p
        if mean is None:
            W, mean, M2 = wb, mb, m2b
            continue
        tot = W + wb
        delta = mb - mean
        M2 = M2 + m2b + np.multiply.outer(delta, delta) * (W * wb / tot)
        mean = mean + delta * (wb / tot)
        W = tot
    return W, mean, M2


# --- public functions --------------------------------------------------------------------------

def _check_criterion(name: str, func: str) -> None:
    if name == "ranking_risk":
        raise NotImplementedError(
            f"rankwise.distributed.{func} does not support ranking_risk (real-valued labels); "
            f"use rankwise.stats.{func} on one machine."
        )
    if name not in CRITERIA or name not in _core.BINARY_CRITERIA:
        valid = ", ".join(repr(c) for c in _core.BINARY_CRITERIA)
        raise ValueError(f"The 'criterion' parameter of {func} must be one of {valid}. Got {name!r} instead.")


def _fit_partition(part: _p.Partition, name: str, params: dict, bandwidth, client):
    """Rounds 1 and the client-side combination: value, globals, factor, bounds."""
    dask, _ = require_dask()
    specs = [(name, params)]
    if name == "rank_statistic" and params["scale"] != "minmax":
        specs.append(("rank_statistic", {**params, "scale": "minmax"}))
    f1 = dask.delayed(_round1, pure=True)
    tasks = []
    for b, t in enumerate(part.tables):
        neg_above = part.n_neg - part.cum_neg[b] - part.n_neg_b[b]
        pos_above = part.n_pos - part.cum_pos[b] - part.n_pos_b[b]
        tasks.append(f1(t, part.offsets(b), (neg_above, pos_above), name, params, bandwidth, specs))
    res = _p.compute(tasks, client)
    sums = _c._sum_partials([r[0] for r in res], len(specs))
    value = _c._finish(name, params, sums[0], part.n_pos, part.n_neg)
    extra = (sums[-1][1], sums[-1][2]) if name == "rank_statistic" else ()
    g = _globals(name, params, [r[1] for r in res], part)
    f, bounds = _factor(name, params, value, g, extra, part.n_pos, part.n_neg)
    return value, g, f, bounds


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
    name, params = _split(criterion, criterion_args)
    bandwidth = _check_bandwidth(bandwidth)
    _check_criterion(name, "estimate")
    method = _check_method(method, name)
    checked = CRITERIA[name][0](**params)
    src = _p.as_source(y_true, [y_score], sample_weight, label=label, score=None if score is None else [score],
                       weight=weight, score_names=None if score is None else [str(score)], chunk_size=chunk_size)
    insp = _p.inspect(src, client, pos_label)
    if not insp.defined:
        nan = warn_undefined(f"estimate({name!r})")
        return Estimate(name, params, nan, nan, method, float("nan"), float("nan"), (0.0, 1.0), src.weighted)
    part = _p.partition(src, insp, 0, n_partitions=n_partitions, splitters=splitters, client=client)
    value, g, f, bounds = _fit_partition(part, name, checked, bandwidth, client)
    dask, _ = require_dask()
    f2 = dask.delayed(_round2_var, pure=True)
    res = _p.compute([f2(t, part.offsets(b), name, checked, bandwidth, g, b, f) for b, t in enumerate(part.tables)],
                     client)
    var = 0.0
    for c, n_c in ((0, part.n_pos), (1, part.n_neg)):
        _, _, m2 = _chan([r[c] for r in res if r is not None])
        v = float("nan") if not n_c > 1 else float(m2) / (n_c - 1.0)
        var += v / n_c
    se = float(np.sqrt(var))
    resampler = _bs.Resampler(part, name, checked, src.weighted, client, bandwidth, g, f)
    return _bs.DistributedEstimate(name, params, value, se, method, part.n_pos, part.n_neg, bounds, src.weighted,
                                   None, None, None, resampler)


def _score_columns(y_true, y_scores, names):
    """The K scorers: arrays (list, dict, 2-D array) or, for a frame/path, column names."""
    if isinstance(y_scores, dict):
        keys = list(y_scores)
        cols, default = [y_scores[k] for k in keys], [str(k) for k in keys]
    elif isinstance(y_scores, (list, tuple)):
        cols = list(y_scores)
        default = ([str(c) for c in cols] if (_p._is_path(y_true) or _p._is_dask_frame(y_true))
                   else [f"score_{i + 1}" for i in range(len(cols))])
    else:
        arr = y_scores
        if getattr(arr, "ndim", None) != 2:
            raise ValueError(
                "The 'y_scores' argument of compare must be a list of score arrays, a dict, or a 2-D array with "
                f"one column per scorer. Got {type(y_scores).__name__} instead."
            )
        cols = [arr[:, k] for k in range(arr.shape[1])]
        default = [f"score_{i + 1}" for i in range(len(cols))]
    return cols, _compare.check_names(cols, default, names)


def compare(y_true, y_scores, criterion: str = "auc", *, names=None, sample_weight=None, pos_label=None,
            method: str | None = None, adjust: str = "holm", confidence_level: float = 0.95,
            bandwidth: float | None = None, label=None, weight=None, n_partitions=None, splitters=None,
            chunk_size=None, client=None, **criterion_args) -> Comparison:
    """Compare K scorers on the same rows held by Dask; equals :func:`rankwise.stats.compare`.

    ``y_scores``: a list or dict of dask arrays / array-likes, a 2-D array (one column per
    scorer), or, when ``y_true`` is a dask DataFrame or a Parquet path, a list of score
    column names (``label=`` and ``weight=`` name the other columns). Returns the same
    :class:`rankwise.stats.Comparison` (values, joint covariance, pairwise tests, global
    test). Cost per scorer: one range partitioning with the rows kept in order, then each
    row's projection term (8 bytes) goes back to its chunk; only K-vectors and K x K
    matrices per chunk reach the client.
    """
    dask, _ = require_dask()
    name, params = _split(criterion, criterion_args)
    _check_criterion(name, "compare")
    method = _check_method(method, name)
    adjust = check_choice(adjust, "adjust", "compare", ("holm", "bonferroni", "none"))
    level = _core.check_level(confidence_level, "compare")
    bandwidth = _check_bandwidth(bandwidth)
    checked = CRITERIA[name][0](**params)
    cols, names = _score_columns(y_true, y_scores, names)
    K = len(cols)
    framed = _p._is_path(y_true) or _p._is_dask_frame(y_true)
    if framed:
        src = _p.as_source(y_true, [None] * K, sample_weight, label=label, score=cols, weight=weight,
                           score_names=[f"y_scores[{n!r}]" for n in names], chunk_size=chunk_size)
    else:
        src = _p.as_source(y_true, cols, sample_weight, score_names=[f"y_scores[{n!r}]" for n in names],
                           chunk_size=chunk_size)
    insp = _p.inspect(src, client, pos_label)
    if not insp.defined:
        warn_undefined(f"compare({name!r})")
        return _build(name, params, names, np.full(K, np.nan), np.full((K, K), np.nan), method, True, adjust, level)
    values = np.empty(K)
    terms = []  # per scorer: persisted per-chunk term arrays, in chunk row order
    meta0 = None
    gather = dask.delayed(_gather_rows, pure=True)
    C = len(src.chunks)
    for k in range(K):
        part = _p.partition(src, insp, k, n_partitions=n_partitions, splitters=splitters, rows=True, client=client)
        values[k], g, f, _ = _fit_partition(part, name, checked, bandwidth, client)
        outs = [dask.delayed(_round2_rows, nout=C, pure=True)(t, part.offsets(b), name, checked, bandwidth, g, b, f)
                for b, t in enumerate(part.tables)]
        per_chunk = [gather(part.meta[c], *[o[c] for o in outs]) for c in range(C)]
        terms.append(_p.persist(per_chunk, client))
        if meta0 is None:
            meta0 = part.meta
        del part, outs, per_chunk
    mom = dask.delayed(_chunk_moments, pure=True)
    res = _p.compute([mom(meta0[c], *[terms[k][c] for k in range(K)]) for c in range(C)], client)
    cov = np.zeros((K, K))
    for cls in (0, 1):
        W, _, M2 = _chan([r[cls] for r in res])
        if not W > 1:
            cov[:] = np.nan
            break
        cov += M2 / ((W - 1.0) * W)
    return _build(name, params, names, values, cov, method, True, adjust, level)
