"""The cumulative/dynamic time-dependent AUC(t), its i.i.d. standard error, the mean AUC
over the times, and the comparison of several risk scores."""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._kernels import auc_terms_at, grid_positions, prepare_censoring, prepare_score
from .._validation import UndefinedMetricWarning, check_choice, check_scores, to_numpy
from ..stats import ConfidenceInterval
from ..stats.blocks import check_level, fmt, fmt_count, format_rows, html_table, norm_ppf, norm_sf, normal_interval
from ._concordance import _same_length, check_survival
from ._km import fit_censoring_km

__all__ = ["cumulative_dynamic_auc", "compare_cumulative_dynamic_auc", "TimeDependentAUC", "TimeAUCComparison"]

_HIGHER = "higher risk = earlier event"


# --- validation ------------------------------------------------------------------------------

def _check_censoring(censoring: Any, func: str):
    """``censoring=(time, event)``: the reference sample of the censoring curve."""
    if censoring is None:
        return None
    if not isinstance(censoring, (tuple, list)) or len(censoring) != 2:
        raise TypeError(f"The 'censoring' parameter of {func} must be a pair (time, event) of the sample that "
                        f"estimates the censoring distribution. Got {type(censoring).__name__} instead.")
    ct, ce = censoring
    try:
        n = to_numpy(ct, "time").reshape(-1).shape[0]
        t, e, _, _, _, _ = check_survival(ct, ce, np.zeros(n), func=func)
    except ValueError as err:
        raise ValueError(f"The 'censoring' parameter of {func} (time, event): {err}") from None
    return t, e


def _check_times(times: Any, t: np.ndarray, ev: np.ndarray, w: np.ndarray, cens, ref, func: str) -> np.ndarray:
    """The evaluation times, sorted and without repeats, inside the usable range."""
    arr = to_numpy([times] if np.ndim(times) == 0 else times, "times")
    if arr.ndim != 1 or arr.size == 0:
        raise ValueError(f"The 'times' parameter of {func} must be a non-empty 1-D array of times. Got shape "
                         f"{arr.shape}.")
    try:
        tt = arr.astype(np.float64)
    except (TypeError, ValueError):
        raise ValueError(f"The 'times' parameter of {func} must hold real numbers. Got dtype {arr.dtype}.") from None
    if not np.isfinite(tt).all():
        raise ValueError(f"The 'times' parameter of {func} must hold finite times. Got {tt[~np.isfinite(tt)][:3]}.")
    tt = np.unique(tt)
    live = w > 0
    if (ev & live).any():
        lo = float(t[ev & live].min())
        hi = float(t[live].max())
        bad = (tt < lo) | (tt >= hi)
        if bad.any():
            raise ValueError(
                f"The 'times' parameter of {func} must lie within the follow-up: at least one event by t (the first "
                f"is at {lo:g}) and at least one row still followed after t (the last time is {hi:g}), i.e. in "
                f"[{lo:g}, {hi:g}). Got {tt[bad][:5].tolist()}.")
    if ref is not None:
        last = float(cens.grid[-1])
        g = cens.right(tt)
        bad = (tt > last) | ~(g > 0)
        if bad.any():
            raise ValueError(
                f"The 'times' parameter of {func} must lie where the censoring curve of 'censoring' is estimated and "
                f"positive (G(t) > 0, t <= {last:g}, its last time). Got {tt[bad][:5].tolist()}.")
    return tt


def _prepare(time, event, risk_cols, names, sample_weight, clusters, censoring, times, func):
    t, ev, r0, w, _, clus = check_survival(time, event, risk_cols[0], sample_weight, None, clusters, func)
    n = t.shape[0]
    risks = [r0]
    for k, col in enumerate(risk_cols[1:], start=1):
        r = check_scores(col, name=names[k]).astype(np.float64)
        _same_length(n, r.shape[0], names[k])
        risks.append(r)
    wt = np.ones(n) if w is None else w
    ref = _check_censoring(censoring, func)
    ot = np.argsort(t, kind="stable")  # the one sort by time
    own_km = fit_censoring_km(t[ot], ev[ot], wt[ot])  # sorted input: its np.unique is a linear pass
    if ref is None:
        cens = prepare_censoring(own_km, t, ev, wt, ot)
        pos = cens.row_idx
    else:
        rw_ = np.ones(ref[0].shape[0])
        cens = prepare_censoring(fit_censoring_km(ref[0], ref[1], rw_), ref[0], ref[1], rw_,
                                 np.argsort(ref[0], kind="stable"))
        pos = grid_positions(cens.grid, t, ot)
    tt = _check_times(times, t, ev, wt, cens, ref, func)
    # G(t) > 0 at every time (checked above) gives G(T_i-) >= G(t) > 0 for every case.
    layouts = [prepare_score(r, t, ev, wt, cens, pos, ref is None) for r in risks]
    omega = _mean_weights(own_km, tt)
    return t, ev, wt, clus, cens, ref, tt, layouts, omega


def _mean_weights(km, tt) -> np.ndarray:
    """scikit-survival's mean_auc weights: (S(t_{k-1}) - S(t_k)) / (1 - S(t_K)), S the
    Kaplan-Meier curve of the events of the sample (from the counts of ``km``, fitted on
    the sample), S(t_0) = 1; one time: weight 1."""
    if tt.shape[0] == 1:
        return np.ones(1)
    with np.errstate(divide="ignore", invalid="ignore"):
        f = np.where(km.events > 0, 1.0 - km.events / np.where(km.at_risk > 0, km.at_risk, 1.0), 1.0)
    S = np.cumprod(f)
    p = np.searchsorted(km.times, tt, side="right")
    s = np.where(p > 0, S[np.maximum(p - 1, 0)], 1.0)
    denom = 1.0 - s[-1]
    if not denom > 0:
        return np.full(tt.shape[0], np.nan)
    return -np.diff(np.r_[1.0, s]) / denom


def _variance(u: np.ndarray, clus) -> float:
    """m/(m-1) sum (U - mean U)^2 over the m units (rows, or clusters' sums)."""
    if clus is not None:
        u = np.bincount(clus[0], weights=u, minlength=clus[1])
    m = u.shape[0]
    if m < 2:
        return float("nan")
    return float(m / (m - 1) * np.sum((u - u.mean()) ** 2))


# --- results ---------------------------------------------------------------------------------

def _interval(value: float, se: float, level: float, transform) -> tuple[float, float]:
    if not (np.isfinite(value) and np.isfinite(se)):
        return float("nan"), float("nan")
    return normal_interval(float(value), float(se), level, transform, (0.0, 1.0))


@dataclass(frozen=True, kw_only=True, eq=False)
class TimeDependentAUC:
    """The cumulative/dynamic AUC(t) at several times with standard errors
    (:func:`cumulative_dynamic_auc`). Higher risk = earlier event.

    Attributes
    ----------
    times : ndarray
        The evaluation times, sorted, without repeats.
    values : ndarray
        AUC(t) at each time (nan where undefined).
    std_errors : ndarray
        Their standard errors (the i.i.d. representation of Blanche, Dartigues &
        Jacqmin-Gadda 2013, with the term of the estimated censoring curve).
    n_cases, n_controls : ndarray
        Per time: the weight (number, unweighted) of the cases (events by ``t``) and of the
        controls (still followed after ``t``).
    mean_value, mean_std_error : float
        The mean AUC over ``times`` (weights ``mean_weights``, held fixed) and its standard
        error.
    mean_weights : ndarray
        The weight of each time in the mean: the drop of the Kaplan-Meier survival over the
        interval that ends there, over its drop from 0 to the last time.
    n, n_events : float
        Rows and events (masses with weights).
    n_clusters : int or None
        The number of clusters the variance was taken over.
    censoring : str
        ``"sample"`` (G fitted on the rows) or ``"reference"`` (on ``censoring=``).
    """

    times: np.ndarray
    values: np.ndarray
    std_errors: np.ndarray
    n_cases: np.ndarray
    n_controls: np.ndarray
    mean_value: float
    mean_std_error: float
    mean_weights: np.ndarray
    n: float
    n_events: float
    n_clusters: int | None = None
    censoring: str = "sample"

    def confidence_intervals(self, confidence_level: float = 0.95, *, transform: str | None = None
                             ) -> tuple[np.ndarray, np.ndarray]:
        """Pointwise normal intervals ``AUC(t) -/+ z se`` clipped to [0, 1] (or built on
        the logit scale with ``transform="logit"``): arrays ``(low, high)``, one entry per
        time."""
        level = check_level(confidence_level, "confidence_intervals")
        if transform is not None:
            check_choice(transform, "transform", "confidence_intervals", ("logit",))
        pairs = [_interval(v, s, level, transform) for v, s in zip(self.values, self.std_errors)]
        return np.array([p[0] for p in pairs]), np.array([p[1] for p in pairs])

    def mean_confidence_interval(self, confidence_level: float = 0.95, *, transform: str | None = None
                                 ) -> ConfidenceInterval:
        """The normal interval of the mean AUC."""
        level = check_level(confidence_level, "mean_confidence_interval")
        if transform is not None:
            check_choice(transform, "transform", "mean_confidence_interval", ("logit",))
        lo, hi = _interval(self.mean_value, self.mean_std_error, level, transform)
        return ConfidenceInterval(lo, hi, level, "iid", "wald", transform, None, self.mean_std_error)

    def _rows(self) -> list[list[str]]:
        lo, hi = self.confidence_intervals()
        return [[fmt(t), fmt(v), fmt(s), f"[{fmt(a)}, {fmt(b)}]", fmt_count(c), fmt_count(k)]
                for t, v, s, a, b, c, k in zip(self.times, self.values, self.std_errors, lo, hi, self.n_cases,
                                               self.n_controls)]

    def _notes(self) -> list[str]:
        mlo, mhi = self.mean_confidence_interval()
        extra = f", standard errors over {self.n_clusters} clusters" if self.n_clusters else ""
        ref = "; censoring curve fitted on the 'censoring' sample" if self.censoring == "reference" else ""
        return [f"mean AUC over the times (Kaplan-Meier weights) = {fmt(self.mean_value)}, std err "
                f"{fmt(self.mean_std_error)}, 95% CI [{fmt(mlo)}, {fmt(mhi)}]",
                f"n = {fmt_count(self.n)}, events = {fmt_count(self.n_events)}; cases: events by t, controls: "
                f"followed beyond t; standard errors: i.i.d. representation (Blanche et al. 2013){extra}{ref}"]

    _HEADER = ["time", "AUC(t)", "std err", "95% CI", "cases", "controls"]

    def summary(self) -> str:
        title = f"time-dependent AUC(t), cumulative cases / dynamic controls ({_HIGHER})"
        return "\n".join([title, format_rows(self._HEADER, self._rows())] + self._notes())

    def __str__(self) -> str:
        return self.summary()

    def _repr_html_(self) -> str:
        return html_table(f"time-dependent AUC(t) ({_HIGHER})", self._HEADER, self._rows(), self._notes())

    def to_dict(self) -> dict:
        """Plain Python values (lists and floats), for JSON."""
        lo, hi = self.confidence_intervals()
        return {"criterion": "cumulative_dynamic_auc", "direction": _HIGHER,
                "times": self.times.tolist(), "values": self.values.tolist(), "std_errors": self.std_errors.tolist(),
                "ci_low": lo.tolist(), "ci_high": hi.tolist(), "confidence_level": 0.95,
                "n_cases": self.n_cases.tolist(), "n_controls": self.n_controls.tolist(),
                "mean_value": self.mean_value, "mean_std_error": self.mean_std_error,
                "mean_weights": self.mean_weights.tolist(), "n": self.n, "n_events": self.n_events,
                "n_clusters": self.n_clusters, "censoring": self.censoring}


@dataclass(frozen=True, kw_only=True, eq=False)
class TimeAUCComparison:
    """Several risk scores' AUC(t) on the same rows, compared pairwise
    (:func:`compare_cumulative_dynamic_auc`). Higher risk = earlier event.

    Attributes
    ----------
    names : tuple of str
    aucs : tuple of TimeDependentAUC
        One per score, in the order of ``names``.
    differences : tuple of dict
        One row per pair of scores ``(a, b)`` and time (``time`` None: the mean AUC):
        ``a, b, time, difference`` (``AUC_a - AUC_b``), ``std_error`` (from the paired
        i.i.d. terms), ``z``, ``p_value`` (two-sided), ``low, high`` (the interval at
        ``confidence_level``).
    confidence_level : float
    """

    names: tuple
    aucs: tuple
    differences: tuple
    confidence_level: float = 0.95

    _HEADER = ["a - b", "time", "difference", "std err", "z", "p-value", "CI"]

    def _rows(self) -> list[list[str]]:
        return [[f"{d['a']} - {d['b']}", "mean" if d["time"] is None else fmt(d["time"]), fmt(d["difference"]),
                 fmt(d["std_error"]), fmt(d["z"]), fmt(d["p_value"]), f"[{fmt(d['low'])}, {fmt(d['high'])}]"]
                for d in self.differences]

    def summary(self) -> str:
        head = [f"time-dependent AUC(t) of {len(self.names)} risk scores ({_HIGHER}); differences with "
                f"{round(100 * self.confidence_level, 6):g}% intervals and two-sided p-values"]
        parts = [a.summary().replace("time-dependent AUC(t), cumulative", f"{name}: AUC(t), cumulative", 1)
                 for name, a in zip(self.names, self.aucs)]
        return "\n\n".join(head + parts + [format_rows(self._HEADER, self._rows())])

    def __str__(self) -> str:
        return self.summary()

    def _repr_html_(self) -> str:
        return "".join([a._repr_html_() for a in self.aucs]
                       + [html_table(f"differences ({_HIGHER})", self._HEADER, self._rows())])

    def to_dict(self) -> dict:
        return {"names": list(self.names), "aucs": [a.to_dict() for a in self.aucs],
                "differences": [dict(d) for d in self.differences], "confidence_level": self.confidence_level}


# --- the sweep -------------------------------------------------------------------------------

def _sweep(t, ev, wt, clus, cens, ref, tt, layouts, omega, *, keep_terms: bool):
    """Per score: values, std errors, case/control weights per time, and the mean's
    accumulated terms; with ``keep_terms``, yields each time's terms (original row order)
    for the paired differences."""
    K, T, n = len(layouts), tt.shape[0], t.shape[0]
    vals = np.full((K, T), np.nan)
    ses = np.full((K, T), np.nan)
    ncase = np.zeros(T)
    nctrl = np.zeros(T)
    mean_u = [np.zeros(n) for _ in range(K)]
    mean_v = [np.zeros(cens.row_w.shape[0]) for _ in range(K)] if ref is not None else None
    clus_k = [None if clus is None else (clus[0][L.order], clus[1]) for L in layouts]
    per_time = []
    for j, tj in enumerate(tt):
        terms = []
        for k, L in enumerate(layouts):
            auc, nc, nk, u, v = auc_terms_at(L, cens, float(tj))
            ncase[j], nctrl[j] = nc, nk
            if u is None:
                terms.append(None)
                continue
            vals[k, j] = auc
            var = _variance(u, clus_k[k]) + (0.0 if v is None else _variance(v, None))
            ses[k, j] = np.sqrt(var)
            mean_u[k] += omega[j] * u
            if v is not None:
                mean_v[k] += omega[j] * v
            if keep_terms:
                uo = np.empty(n)
                uo[L.order] = u
                terms.append((uo, v))
        per_time.append(terms)
    mvals, mses = np.full(K, np.nan), np.full(K, np.nan)
    for k in range(K):
        if np.isfinite(vals[k]).all() and np.isfinite(omega).all():
            mvals[k] = float(np.dot(omega, vals[k]))
            mses[k] = np.sqrt(_variance(mean_u[k], clus_k[k]) + (0.0 if ref is None else _variance(mean_v[k], None)))
    return dict(omega=omega, vals=vals, ses=ses, ncase=ncase, nctrl=nctrl, mvals=mvals, mses=mses,
                mean_u=mean_u, mean_v=mean_v, per_time=per_time)


def _warn_undefined(tt, vals, func, stacklevel=3):
    bad = ~np.isfinite(vals)
    if bad.any():
        warnings.warn(f"{func}: AUC(t) is undefined (no case or no control with positive weight) at times "
                      f"{tt[bad][:5].tolist()}; returning nan there (and for the mean AUC).",
                      UndefinedMetricWarning, stacklevel=stacklevel)


def _result(k, res, tt, t, ev, wt, clus, ref) -> TimeDependentAUC:
    return TimeDependentAUC(times=tt.copy(), values=res["vals"][k].copy(), std_errors=res["ses"][k].copy(),
                            n_cases=res["ncase"].copy(), n_controls=res["nctrl"].copy(),
                            mean_value=float(res["mvals"][k]), mean_std_error=float(res["mses"][k]),
                            mean_weights=res["omega"].copy(), n=float(wt.sum()), n_events=float(wt[ev].sum()),
                            n_clusters=None if clus is None else int(clus[1]),
                            censoring="sample" if ref is None else "reference")


def cumulative_dynamic_auc(time, event, risk, times, *, sample_weight=None, clusters=None,
                           censoring=None) -> TimeDependentAUC:
    r"""The time-dependent AUC(t) (cumulative cases, dynamic controls) with standard errors.

    Of a subject whose event came by ``t`` and a subject still event-free after ``t``, how
    often the first had the higher risk. **Higher risk = earlier event.**

    Parameters
    ----------
    time : array-like of shape (n,)
        Follow-up times (non-negative).
    event : array-like of shape (n,)
        True (or 1) where the follow-up ended in the event, False (0) where censored.
    risk : array-like of shape (n,)
        Risk scores: **higher = earlier event**.
    times : array-like of shape (T,)
        The evaluation times; sorted and repeats dropped (the result's ``times``). Each must
        lie in ``[first event time, last follow-up time)``.
    sample_weight : array-like of shape (n,), optional
        Weights of the rows (in the cases' and controls' sums and in the censoring curve).
    clusters : array-like of shape (n,), optional
        The sampling unit of each row: the i.i.d. terms are summed per cluster before the
        variance is taken.
    censoring : tuple (time, event), optional
        A reference sample (a training set, say) on which to fit the censoring curve
        ``G`` instead of the rows themselves (scikit-survival's ``survival_train``); its
        rows' own i.i.d. terms then enter the variance as an independent sample's.

    Returns
    -------
    TimeDependentAUC
        ``times, values, std_errors``, the cases and controls per time, the mean AUC with
        its standard error, ``confidence_intervals()``, ``summary()``.

    Raises
    ------
    ValueError
        A time outside ``[first event time, last follow-up time)`` (no case by ``t`` or no
        subject followed beyond it), or where the ``censoring`` curve is 0 or not
        estimated; bad ``time``, ``event``, ``risk`` or weights.

    Warns
    -----
    rankwise.UndefinedMetricWarning
        A time without any case or any control of positive weight (an all-censored
        sample): its AUC(t), standard error and the mean AUC are nan.

    Notes
    -----
    Cases at ``t``: the events with ``T_i <= t``, each weighing ``w_i / G(T_i-)``, with
    ``G`` the Kaplan-Meier curve of the censoring (events leave the risk set before the
    censorings of the same time, as prodlim and scikit-survival count them). Controls: the
    rows with ``T_j > t``, weighing ``w_j`` (the common factor ``1 / G(t)`` cancels).

    .. math:: \mathrm{AUC}(t) = \frac{\sum_i \sum_j \frac{w_i}{G(T_i-)} w_j\, \psi(r_i, r_j)}
                                     {\sum_i \frac{w_i}{G(T_i-)} \sum_j w_j}

    over cases ``i`` and controls ``j``; ``psi`` is 1 when the case has the higher risk,
    1/2 when the risks tie exactly, 0 otherwise (Uno, Cai, Tian & Wei 2007, "Evaluating
    prediction rules for t-year survivors with censored regression models", Journal of the
    American Statistical Association 102; Hung & Chiang 2010, "Estimation methods for
    time-dependent AUC models with survival data", Canadian Journal of Statistics 38).

    The standard error is that of the i.i.d. representation of Blanche, Dartigues &
    Jacqmin-Gadda (2013), "Estimating and comparing time-dependent areas under receiver
    operating characteristic curves for censored event times with competing risks",
    Statistics in Medicine 32, including the term of the estimated censoring curve: each
    row's term ``u_k``, and ``Var = m/(m-1) sum (u_k - mean u)^2`` over the ``m`` rows (or
    clusters' sums), timeROC's ``sd(iid)/sqrt(n)`` without weights.
    Each term costs O(n) per time after one sort by risk: prefix sums along the risk order
    (the placements) and along the time order (the censoring martingales). The mean AUC is
    ``sum_k omega_k AUC(t_k)``, ``omega_k = (S(t_{k-1}) - S(t_k)) / (1 - S(t_T))`` with
    ``S`` the Kaplan-Meier survival of the rows and ``S(t_0) = 1`` (scikit-survival's
    ``mean_auc``; Lambert & Chevret 2016, "Summary measure of discrimination in survival
    models based on cumulative/dynamic time-dependent ROC curves", Statistical Methods in
    Medical Research 25); its standard error treats the weights as fixed.
    timeROC counts the events at exactly ``t`` as neither cases nor controls, so it
    differs from this at an evaluation time equal to an event time; scikit-survival
    weighs a case by ``1 / G(T_i)``, which differs where an event and a censoring share a
    time. Details: ``docs/survival.md``.

    Examples
    --------
    >>> import rankwise as rw
    >>> res = rw.survival.cumulative_dynamic_auc([1, 2, 3, 4, 5], [1, 1, 0, 1, 0],
    ...                                          [0.9, 0.4, 0.7, 0.5, 0.1], [2.5])
    >>> round(float(res.values[0]), 4)
    0.6667

    The cases at 2.5 are the events at 1 and 2 (nothing was censored before them, so each
    weighs 1); the controls are the rows at 3, 4 and 5. The case with risk 0.9 is above all
    three controls, the one with 0.4 only above the 0.1: 4 of the 6 pairs.
    """
    t, ev, wt, clus, cens, ref, tt, layouts, omega = _prepare(time, event, [risk], ["risk"], sample_weight, clusters,
                                                              censoring, times, "cumulative_dynamic_auc")
    res = _sweep(t, ev, wt, clus, cens, ref, tt, layouts, omega, keep_terms=False)
    _warn_undefined(tt, res["vals"][0], "cumulative_dynamic_auc")
    return _result(0, res, tt, t, ev, wt, clus, ref)


def compare_cumulative_dynamic_auc(time, event, risks, times, *, names=None, sample_weight=None, clusters=None,
                                   censoring=None, confidence_level: float = 0.95) -> TimeAUCComparison:
    r"""Two or more risk scores' AUC(t) on the same rows, with every pairwise difference
    tested at each time and for the mean AUC. **Higher risk = earlier event.**

    Parameters
    ----------
    time, event, times, sample_weight, clusters, censoring
        As in :func:`cumulative_dynamic_auc`.
    risks : dict, DataFrame, list of arrays or 2-D array
        Two or more risk scores (higher = earlier event), one per column.
    names : list of str, optional
        The scores' names (default: the dict keys or columns, else ``score_1 ...``).
    confidence_level : float, default 0.95
        Of the intervals of the differences.

    Returns
    -------
    TimeAUCComparison
        ``names``, ``aucs`` (one :class:`TimeDependentAUC` per score) and ``differences``:
        per pair and time ``AUC_a(t) - AUC_b(t)`` with its standard error, z, two-sided
        p-value and interval, and the same for the mean AUCs.

    Notes
    -----
    The two AUCs of a pair are estimated on the same rows, so the standard error of their
    difference is that of the difference of their i.i.d. terms row by row,
    ``Var = m/(m-1) sum_k (u^a_k - u^b_k - mean)^2`` (summed per cluster first with
    ``clusters``): Blanche, Dartigues & Jacqmin-Gadda (2013), the test of timeROC's
    ``compare()``. The p-value is ``2 P(Z > |d| / se)``, not adjusted for the number of
    times or pairs. Memory O(n K) for K scores: one time's terms at a time.

    Examples
    --------
    >>> import rankwise as rw
    >>> c = rw.survival.compare_cumulative_dynamic_auc(
    ...     [1, 2, 3, 4, 5, 6], [1, 1, 0, 1, 0, 0],
    ...     {"a": [0.9, 0.4, 0.7, 0.5, 0.1, 0.2], "b": [0.1, 0.4, 0.7, 0.5, 0.9, 0.2]}, [2.5])
    >>> [float(x.values[0]) for x in c.aucs]
    [0.75, 0.125]

    Cases at 1 and 2 against controls at 3, 4, 5 and 6: score ``a`` orders 6 of the 8 pairs
    right, ``b`` 1 (its case at 2, risk 0.4, above the control with 0.2).
    """
    from ..stats.blocks import score_columns

    cols, labels = score_columns(risks, names)
    level = check_level(confidence_level, "compare_cumulative_dynamic_auc")
    t, ev, wt, clus, cens, ref, tt, layouts, omega = _prepare(time, event, cols, labels, sample_weight, clusters,
                                                              censoring, times, "compare_cumulative_dynamic_auc")
    res = _sweep(t, ev, wt, clus, cens, ref, tt, layouts, omega, keep_terms=True)
    for k, name in enumerate(labels):
        _warn_undefined(tt, res["vals"][k], f"compare_cumulative_dynamic_auc ({name})")
    K = len(labels)
    z_level = norm_ppf(0.5 + level / 2.0)
    order_k = [L.order for L in layouts]

    def row(a, b, time_, d, var):
        se = float(np.sqrt(var)) if np.isfinite(var) else float("nan")
        z = d / se if se > 0 else float("nan")
        p = 2.0 * norm_sf(abs(z)) if np.isfinite(z) else float("nan")
        return {"a": labels[a], "b": labels[b], "time": time_, "difference": float(d), "std_error": se,
                "z": float(z), "p_value": float(p), "low": float(d - z_level * se), "high": float(d + z_level * se)}

    rows = []
    for a in range(K):
        for b in range(a + 1, K):
            for j, tj in enumerate(tt):
                ta, tb = res["per_time"][j][a], res["per_time"][j][b]
                if ta is None or tb is None:
                    rows.append(row(a, b, float(tj), float("nan"), float("nan")))
                    continue
                var = _variance(ta[0] - tb[0], clus)
                if ref is not None:
                    var += _variance(ta[1] - tb[1], None)
                rows.append(row(a, b, float(tj), res["vals"][a, j] - res["vals"][b, j], var))
            ma, mb = res["mvals"][a], res["mvals"][b]
            if np.isfinite(ma) and np.isfinite(mb):
                ua = np.empty(t.shape[0])
                ua[order_k[a]] = res["mean_u"][a]
                ub = np.empty(t.shape[0])
                ub[order_k[b]] = res["mean_u"][b]
                var = _variance(ua - ub, clus)
                if ref is not None:
                    var += _variance(res["mean_v"][a] - res["mean_v"][b], None)
                rows.append(row(a, b, None, ma - mb, var))
            else:
                rows.append(row(a, b, None, float("nan"), float("nan")))
    aucs = tuple(_result(k, res, tt, t, ev, wt, clus, ref) for k in range(K))
    return TimeAUCComparison(names=tuple(labels), aucs=aucs, differences=tuple(rows), confidence_level=level)
