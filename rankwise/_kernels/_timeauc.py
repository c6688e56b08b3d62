"""The cumulative/dynamic AUC(t) and its i.i.d. (influence) terms, on clean input.

Used by :mod:`rankwise.survival._timeauc`, which validates. Memory O(n): a handful of
length-n vectors and length-m ones over the distinct times of the censoring curve; no
n x n and no n x (number of times) array.

Layout: the rows of one risk score are kept in the order of that score (sorted once, in
:func:`prepare_score`), with the boundaries of its groups of tied risks. At an evaluation
time ``t`` the case and control weights are accumulated along that order (cumulative
sums, O(n)), which gives each case's weighted count of controls below it and each
control's weighted count of cases above it (ties 1/2): no sort per time.

The censoring part of the influence (Blanche, Dartigues & Jacqmin-Gadda 2013) is an
integral of each row's censoring martingale against the cases' weights; over the distinct
times ``u_1 < ... < u_m`` it is a suffix sum (the cases after ``u``) and a prefix sum (the
compensator up to the row's time), O(n + m) per time.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["Censoring", "ScoreLayout", "grid_positions", "prepare_censoring", "prepare_score", "auc_terms_at"]


@dataclass(frozen=True)
class Censoring:
    """The censoring curve ``G`` and what the martingale part of the influence needs.

    ``grid``: the distinct times of the sample that fitted ``G``; ``at_risk_c[j]``: the
    weight at risk of being censored at ``grid[j]`` (rows with a larger time, and those
    censored at it: the events at a time leave first); ``hazard[j]``: the censorings'
    weight at ``grid[j]`` over ``at_risk_c[j]``; ``survival[j]``: ``G(grid[j])``. Per row of
    that sample: ``row_idx`` (its time's index in ``grid``), ``row_key`` (that index, plus
    ``len(grid)`` if the row was censored: where its term is read in the table that
    :func:`auc_terms_at` builds) and ``row_w``.
    """

    grid: np.ndarray
    at_risk_c: np.ndarray
    hazard: np.ndarray
    survival: np.ndarray
    row_idx: np.ndarray
    row_key: np.ndarray
    row_w: np.ndarray

    def left(self, t: np.ndarray) -> np.ndarray:
        """``G(t-)`` at each ``t`` and, second, the number of grid times below each."""
        p = np.searchsorted(self.grid, t, side="left")
        return np.where(p > 0, self.survival[np.maximum(p - 1, 0)], 1.0), p

    def right(self, t: np.ndarray) -> np.ndarray:
        p = np.searchsorted(self.grid, t, side="right")
        return np.where(p > 0, self.survival[np.maximum(p - 1, 0)], 1.0)


def grid_positions(grid: np.ndarray, time: np.ndarray, order: np.ndarray) -> np.ndarray:
    """For each row, the number of ``grid`` times strictly below its time; ``order`` sorts
    ``time`` (sorted queries: one cache-friendly pass instead of n random searches)."""
    pos = np.empty(time.shape[0], dtype=np.int64)
    pos[order] = np.searchsorted(grid, time[order], side="left")
    return pos


def prepare_censoring(km, time: np.ndarray, event: np.ndarray, w: np.ndarray, order: np.ndarray) -> Censoring:
    """From ``km``, the censoring Kaplan-Meier curve fitted on ``(time, event, w)`` with the
    events before the censorings at one time (``rankwise.survival._km.fit_censoring_km``);
    ``order`` sorts ``time``."""
    at_risk_c = km.at_risk - km.events
    with np.errstate(divide="ignore", invalid="ignore"):
        hazard = np.where(km.censored > 0, km.censored / np.where(at_risk_c > 0, at_risk_c, 1.0), 0.0)
    idx = grid_positions(km.times, time, order)  # each row's own time is in the grid: its index
    key = idx + km.times.shape[0] * (~event)
    return Censoring(grid=km.times, at_risk_c=at_risk_c, hazard=hazard, survival=km.survival,
                     row_idx=idx, row_key=key, row_w=w)


@dataclass(frozen=True)
class ScoreLayout:
    """One risk score's rows in its order (ascending risk) with what every time reuses."""

    order: np.ndarray        # rows of the sample in ascending risk
    time: np.ndarray         # per row, in that order
    event: np.ndarray
    w: np.ndarray
    inv_g: np.ndarray        # 1 / G(T_i-) for events (0 for censored rows)
    grid_pos: np.ndarray     # number of censoring-grid times strictly below T_i
    starts: np.ndarray | None  # first position of each group of tied risks (None: no ties)
    ends: np.ndarray | None    # one past the last position of each group
    sizes: np.ndarray | None
    cidx: np.ndarray | None  # Censoring.row_key in this order (when G was fitted on these rows)


def prepare_score(risk, time, event, w, cens: Censoring, pos: np.ndarray, own: bool) -> ScoreLayout:
    """Sort the rows by ``risk`` once. ``pos``: each row's number of ``cens.grid`` times
    below its time (:func:`grid_positions`); ``own``: ``cens`` was fitted on these rows."""
    order = np.argsort(risk, kind="stable")
    r = risk[order]
    t = time[order]
    e = event[order]
    ww = w[order]
    p = pos[order]
    n = r.shape[0]
    brk = np.flatnonzero(r[1:] != r[:-1]) + 1
    if brk.shape[0] == n - 1:  # no tied risks: every group a single row
        starts = ends = sizes = None
    else:
        starts = np.concatenate(([0], brk)).astype(np.int64)
        ends = np.concatenate((brk, [n])).astype(np.int64)
        sizes = ends - starts
    g_left = np.where(p > 0, cens.survival[np.maximum(p - 1, 0)], 1.0)
    with np.errstate(divide="ignore"):
        inv_g = np.where(e & (g_left > 0), 1.0 / np.where(g_left > 0, g_left, 1.0), 0.0)
    inv_g[e & ~(g_left > 0)] = np.inf  # an event where G(T-) = 0: refused by the caller if a case
    return ScoreLayout(order=order, time=t, event=e, w=ww, inv_g=inv_g, grid_pos=p, starts=starts, ends=ends,
                       sizes=sizes, cidx=cens.row_key[order] if own else None)


def _placements(x: np.ndarray, L: ScoreLayout):
    """Per row (in risk order): the sum of ``x`` over the rows with a lower risk plus half
    over those with the same risk, and the same for a higher risk."""
    c = np.empty(x.shape[0] + 1)
    c[0] = 0.0
    np.cumsum(x, out=c[1:])
    if L.starts is None:
        half = 0.5 * x
        return c[:-1] + half, (c[-1] - c[1:]) + half
    lo = c[L.starts]
    hi = c[L.ends]
    half = 0.5 * (hi - lo)
    return np.repeat(lo + half, L.sizes), np.repeat((c[-1] - hi) + half, L.sizes)


def auc_terms_at(L: ScoreLayout, cens: Censoring, t: float):
    """AUC(t) and the influence terms of one score at one time.

    Returns ``(auc, cases, controls, u, v)``: the weights of the cases and controls, ``u``
    the terms of the sample's rows (in ``L.order``; the censoring part included when
    ``cens`` was fitted on them) and ``v`` the censoring part on the rows of a separate
    censoring sample (None when ``cens`` is the sample's own). ``auc`` is nan when there is
    no case or no control weight; then ``u`` and ``v`` are None.
    """
    case = L.event & (L.time <= t)
    ctrl = L.time > t
    d = np.where(case, L.inv_g, 0.0)
    wd = L.w * d
    wc = np.where(ctrl, L.w, 0.0)
    Fw = float(wd.sum())
    Sw = float(wc.sum())
    n_cases = float(np.dot(L.w, case))
    n_ctrl = Sw
    if not (Fw > 0 and Sw > 0):
        return float("nan"), n_cases, n_ctrl, None, None
    a = d * _placements(wc, L)[0]     # case: the control weight below it (ties 1/2)
    b = ctrl * _placements(wd, L)[1]  # control: the cases' (IPCW) weight above it
    FS = Fw * Sw
    auc = min(max(float(np.dot(L.w, a) / FS), 0.0), 1.0)  # a ratio of sums: rounding may pass 1 by an ulp
    # The U-statistic part: w_k [(a_k + b_k) / (F S) - AUC (d_k / F + 1{control} / S)] (sums of weights).
    u = L.w * ((a + b) / FS - auc * (d / Fw + ctrl / Sw))
    # The censoring part: q_i, each case's weight in the integral against dM_C / y.
    q = L.w * (a / FS - auc * d / Fw)
    m = cens.grid.shape[0]
    B = np.bincount(L.grid_pos, weights=q, minlength=m + 1)
    # Q_j: sum of q_i over the cases with T_i > grid[j], i.e. grid_pos_i > j.
    Q = B.sum() - np.cumsum(B)[:m]
    with np.errstate(divide="ignore", invalid="ignore"):
        Z = np.where(cens.hazard > 0, cens.hazard * Q / np.where(cens.at_risk_c > 0, cens.at_risk_c, 1.0), 0.0)
    R = np.empty(m + 1)
    R[0] = 0.0
    np.cumsum(Z, out=R[1:])  # R[j] = sum of Z over the grid times before grid[j]
    # Row k's term: w_k [1{censored} (1 - hazard) Q / at_risk_c at its time - R at its time],
    # one gather from a table of 2m values (uncensored rows: first half, censored: second).
    with np.errstate(divide="ignore", invalid="ignore"):
        jumpQ = np.where(cens.at_risk_c > 0, (1.0 - cens.hazard) * Q / np.where(cens.at_risk_c > 0, cens.at_risk_c,
                                                                                 1.0), 0.0)
    table = np.concatenate((-R[:m], jumpQ - R[:m]))
    if L.cidx is not None:
        return auc, n_cases, n_ctrl, u + L.w * table[L.cidx], None
    return auc, n_cases, n_ctrl, u, cens.row_w * table[cens.row_key]
