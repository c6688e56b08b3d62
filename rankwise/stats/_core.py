"""Shared machinery of :mod:`rankwise.stats`: the sample with its per-row levels,
the per-criterion projections, the class variances and the stratified bootstrap."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

import numpy as np
from scipy import special, stats as _sps

from .. import phi as _phi
from .._kernels import _passes
from .._kernels._ranktable import RankTable, build_rank_table
from ..metrics._criteria import CRITERIA
from .._validation import check_param
from . import _batch, _influence

#: Criteria of the binary family that rankwise.stats handles (ranking_risk is separate).
BINARY_CRITERIA = ("auc", "rank_statistic", "local_auc", "pnorm_push", "partial_auc", "dcg", "ndcg")


class Sample:
    """A validated binary sample as a dense rank table, plus each row's level on demand.

    ``rows=False`` (one scorer, no per-row terms needed): the table comes from
    :func:`build_rank_table` (two in-place class sorts and a linear merge, the same cost
    as one ``rw.auc``). ``rows=True`` (paired comparisons): one argsort, which also
    gives ``level_of_row``. ``level_of_row`` maps every input row to its level; rows with
    zero weight point at level 0 and carry no mass.
    """

    def __init__(self, is_pos: np.ndarray, s: np.ndarray, w: np.ndarray | None, rows: bool = False):
        self.is_pos = is_pos
        self.s = s
        self.w = w
        self._level_of_row = None
        if rows:
            self.table, self._level_of_row = _table_with_rows(is_pos, s, w)
        else:
            self.table = build_rank_table(is_pos, s, w)
        self.dense = _influence.dense(self.table)

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


def _table_with_rows(is_pos: np.ndarray, s: np.ndarray, w: np.ndarray | None):
    n = s.shape[0]
    order = np.argsort(s)
    ss = s[order]
    flag = np.empty(n, dtype=bool)
    flag[0] = True
    if n > 1:
        np.not_equal(ss[1:], ss[:-1], out=flag[1:])
    inv = np.empty(n, dtype=np.int64)
    if w is None and flag.all():
        # Untied: every row is its own level (the common case of continuous scores).
        inv[order] = np.arange(n, dtype=np.int64)
        levels = ss
        a = is_pos[order].astype(np.float64)
        b = 1.0 - a
    else:
        starts = np.flatnonzero(flag)
        levels = ss[starts]
        lev_sorted = np.cumsum(flag, dtype=np.int64)
        lev_sorted -= 1
        inv[order] = lev_sorted
        lab = is_pos[order]
        if w is None:
            a = np.add.reduceat(lab, starts, dtype=np.int64).astype(np.float64)
            b = np.diff(np.append(starts, n)).astype(np.float64) - a
        else:
            ws = w[order]
            a = np.add.reduceat(np.where(lab, ws, 0.0), starts)
            b = np.add.reduceat(np.where(lab, 0.0, ws), starts)
            keep = (a + b) > 0
            if not keep.all():
                newidx = np.cumsum(keep) - 1
                inv = np.where(keep[inv], newidx[inv], 0)
                levels, a, b = levels[keep], a[keep], b[keep]
    table = RankTable(levels, a.sum(), b.sum(), weighted=w is not None, pos=a, neg=b)
    return table, inv


@dataclass(frozen=True)
class Fit:
    """A criterion's value and projection on one sample.

    ``h_pos``/``h_neg`` are per level, already multiplied by ``factor`` (the
    criterion's derivative with respect to the projected statistic), so that
    ``Var = S_+^2(h_pos) / n+ + S_-^2(h_neg) / n-``.
    """

    value: float
    h_pos: np.ndarray
    h_neg: np.ndarray
    bounds: tuple[float, float]
    batch: Callable[[np.ndarray, np.ndarray], np.ndarray]
    method: str


def fit_criterion(name: str, params: dict, sample: Sample, bandwidth: float | None) -> Fit:
    """Value and projection of a binary criterion on a sample (both classes present)."""
    t = sample.table
    d = sample.dense
    _, runner = CRITERIA[name]
    value = float(runner(t, **params))
    bw = _influence.default_bandwidth(d.N) if bandwidth is None else bandwidth
    batch = _bind(_batch.VALUES[name], params)
    if name == "auc":
        hp, hn = _influence.auc(d)
        return Fit(value, hp, hn, (0.0, 1.0), batch, "delong")
    if name == "rank_statistic":
        phi, ties, scale = params["phi"], params["ties"], params["scale"]
        _, wmin, wmax = _passes.rank_statistic(t, phi, ties, "minmax")
        if bandwidth is None and phi.name == "dcg":
            bw = _influence.dcg_bandwidth(d.N, phi.k)
        hp, hn = _influence.rank_statistic(d, phi, ties, bw)
        if scale == "raw":
            f, bounds = 1.0, (wmin, wmax)
        elif scale == "mean":
            f, bounds = 1.0 / d.P, (wmin / d.P, wmax / d.P)
        else:
            f = 1.0 / (wmax - wmin) if wmax > wmin else float("nan")
            bounds = (0.0, 1.0)
        return Fit(value, f * hp, f * hn, bounds, batch, "hajek")
    if name == "local_auc":
        hp, hn = _influence.local_auc(d, params["top"], bw)
        # The range is [0, 1], not the reachable maximum min(top n, n+) / n+: in small
        # samples the estimate sits at that ceiling often (a top list all positive) while
        # the truth is inside, and a logit interval would then collapse to the point (the
        # coverage study measured 0.74 against 0.84 with [0, 1] at n = 100, 50% positives).
        return Fit(value, hp, hn, (0.0, 1.0), batch, "hajek")
    if name == "pnorm_push":
        p = params["p"]
        m, hp, hn = _influence.pnorm_push_mean(d, p, params["ties"])
        if params["normalize"]:
            f = (m ** (1.0 / p - 1.0)) / p if m > 0 else 0.0
            bounds = (0.0, 1.0)
        else:
            f = d.M * d.P ** p
            bounds = (0.0, f)
        return Fit(value, f * hp, f * hn, bounds, batch, "hajek")
    if name == "partial_auc":
        mf, std = params["max_fpr"], params["standardize"]
        hp, hn = _influence.partial_auc(d, mf)
        if std is None or mf >= 1.0:
            f, bounds = 1.0, (0.0, mf)
        else:
            lo, hi = 0.5 * mf * mf, mf
            f = 0.5 / (hi - lo)
            bounds = (0.5 * (1.0 - mf / (2.0 - mf)), 1.0)
        return Fit(value, f * hp, f * hn, bounds, batch, "hajek")
    if name in ("dcg", "ndcg"):
        k, disc = params["k"], params["discount"]
        phi = _phi.dcg(k, None if disc is _phi.standard_discount else disc)
        if bandwidth is None:
            bw = _influence.dcg_bandwidth(d.N, k)
        hp, hn = _influence.rank_statistic(d, phi, "average", bw)
        ideal = _passes.ideal_dcg(t, k, disc)
        if name == "dcg":
            return Fit(value, hp, hn, (0.0, ideal), batch, "hajek")
        return Fit(value, hp / ideal, hn / ideal, (0.0, 1.0), batch, "hajek")
    raise ValueError(f"rankwise.stats does not support criterion {name!r}.")  # pragma: no cover


def _bind(func, params):
    def run(A, B):
        return func(A, B, **params)
    return run


# --- variances -------------------------------------------------------------------------

def class_variance(h: np.ndarray, mass: np.ndarray, n: float) -> float:
    """Sample variance (denominator ``n - 1``) of ``h`` over a class with mass ``mass`` per level."""
    if not n > 1:
        return float("nan")
    sel = mass > 0
    hm, mm = h[sel], mass[sel]
    mean = np.dot(mm, hm) / n
    return float(np.dot(mm, (hm - mean) ** 2) / (n - 1.0))


def projection_variance(fit: Fit, d) -> float:
    return class_variance(fit.h_pos, d.a, d.P) / d.P + class_variance(fit.h_neg, d.b, d.M) / d.M


def acceleration(fit: Fit, d) -> float:
    """BCa acceleration from the empirical influence values (Efron 1987, with the
    jackknife replaced by the projection): ``sum U^3 / (6 (sum U^2)^(3/2))``,
    ``U = (h - mean_c) / n_c`` over every observation of each class."""
    num = 0.0
    den = 0.0
    for h, mass, n in ((fit.h_pos, d.a, d.P), (fit.h_neg, d.b, d.M)):
        sel = mass > 0
        hm, mm = h[sel], mass[sel]
        u = (hm - np.dot(mm, hm) / n) / n
        num += float(np.dot(mm, u ** 3))
        den += float(np.dot(mm, u ** 2))
    return num / (6.0 * den ** 1.5) if den > 0 else 0.0


# --- normal intervals --------------------------------------------------------------------

def normal_interval(value: float, se: float, level: float, transform: str | None,
                    bounds: tuple[float, float]) -> tuple[float, float]:
    z = _sps.norm.ppf(0.5 + level / 2.0)
    lo_b, hi_b = bounds
    if transform is None:
        return float(max(value - z * se, lo_b)), float(min(value + z * se, hi_b))
    span = hi_b - lo_b
    x = (value - lo_b) / span
    if not 0.0 < x < 1.0 or not span > 0:
        # On the boundary the logit is infinite: the interval collapses to the value.
        return float(value), float(value)
    g = special.logit(x)
    se_g = se / (span * x * (1.0 - x))
    return (lo_b + span * float(special.expit(g - z * se_g)),
            lo_b + span * float(special.expit(g + z * se_g)))


# --- bootstrap ---------------------------------------------------------------------------

def _class_draws(sample: Sample, positive: bool, rng, k: int, L: int) -> np.ndarray:
    """``k`` stratified resamples of one class as a (k, L) mass matrix."""
    d = sample.dense
    mass = d.a if positive else d.b
    if sample.w is None:
        lev = np.flatnonzero(mass > 0)
        cnt = mass[lev]
        n_c = int(round(cnt.sum()))
        out = np.zeros((k, L))
        if lev.shape[0] * 8 <= n_c:
            out[:, lev] = rng.multinomial(n_c, cnt / n_c, size=k)
            return out
        row_level = np.repeat(lev, cnt.astype(np.int64))
        draws = row_level[rng.integers(0, n_c, size=(k, n_c), dtype=np.int32)]
        draws += (np.arange(k, dtype=np.int64) * L)[:, None]
        return np.bincount(draws.ravel(), minlength=k * L).reshape(k, L).astype(np.float64)
    sel = (sample.is_pos if positive else ~sample.is_pos) & (sample.w > 0)
    row_level = sample.level_of_row[sel]
    row_w = sample.w[sel]
    n_c = row_level.shape[0]
    idx = rng.integers(0, n_c, size=(k, n_c), dtype=np.int32)
    flat = row_level[idx] + (np.arange(k, dtype=np.int64) * L)[:, None]
    return np.bincount(flat.ravel(), weights=row_w[idx].ravel(), minlength=k * L).reshape(k, L)


def bootstrap_values(sample: Sample, batch, n_resamples: int, random_state: Any,
                     chunk_elems: int = 4_000_000) -> np.ndarray:
    """The criterion on ``n_resamples`` class-stratified resamples (cases resampled
    with replacement within each class, the class sizes kept)."""
    rng = np.random.default_rng(random_state)
    L = sample.table.size
    k = max(1, min(n_resamples, chunk_elems // max(L, sample.n_rows)))
    out = np.empty(n_resamples)
    done = 0
    while done < n_resamples:
        kk = min(k, n_resamples - done)
        A = _class_draws(sample, True, rng, kk, L)
        B = _class_draws(sample, False, rng, kk, L)
        with np.errstate(invalid="ignore", divide="ignore"):
            out[done: done + kk] = batch(A, B)
        done += kk
    return out


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
        z0 = _sps.norm.ppf(below)
        zq = _sps.norm.ppf([alpha / 2.0, 1.0 - alpha / 2.0])
        adj = z0 + (z0 + zq) / (1.0 - accel * (z0 + zq))
        q = _sps.norm.cdf(adj)
    lo, hi = np.quantile(reps, q)
    return float(lo), float(hi)


def check_level(confidence_level: Any, func: str) -> float:
    return check_param(confidence_level, "confidence_level", func, low=0.0, high=1.0,
                       low_inclusive=False, high_inclusive=False)


def check_resamples(n_resamples: Any, func: str) -> int:
    return check_param(n_resamples, "n_resamples", func, low=2, integer=True)
