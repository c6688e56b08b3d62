"""The weighted Kaplan-Meier estimate of the censoring distribution, ``G(t) = P(C > t)``.

Used by the inverse-probability-of-censoring weights of Uno's concordance and of the
time-dependent AUC. The censorings are the "events" of this curve; the events of the data
are what removes a row from it without a jump.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._kernels import censoring_blocks

__all__ = ["CensoringKM", "fit_censoring_km"]


@dataclass(frozen=True)
class CensoringKM:
    """A fitted censoring Kaplan-Meier curve (a right-continuous step function).

    Attributes
    ----------
    times : ndarray
        The distinct observed times (events and censorings), sorted.
    at_risk : ndarray
        The weighted number of rows with ``time >= t``.
    events : ndarray
        The weighted number of events at ``t``.
    censored : ndarray
        The weighted number of censorings at ``t``.
    survival : ndarray
        ``G(t)``: the censoring survival just after ``t`` (censorings at ``t`` included).
    events_first : bool
        The convention at a time with both events and censorings (see
        :func:`fit_censoring_km`).
    """

    times: np.ndarray
    at_risk: np.ndarray
    events: np.ndarray
    censored: np.ndarray
    survival: np.ndarray
    events_first: bool = True

    def left(self, t) -> np.ndarray:
        """``G(t-)``: the product over the censoring times strictly before ``t`` (1 before
        the first one). Vectorised over ``t``."""
        idx = np.searchsorted(self.times, np.asarray(t, dtype=np.float64), side="left") - 1
        return np.where(idx >= 0, self.survival[np.maximum(idx, 0)], 1.0) if self.times.size else \
            np.ones(np.shape(t))

    def right(self, t) -> np.ndarray:
        """``G(t)``: the product over the censoring times ``<= t``. Vectorised over ``t``."""
        idx = np.searchsorted(self.times, np.asarray(t, dtype=np.float64), side="right") - 1
        return np.where(idx >= 0, self.survival[np.maximum(idx, 0)], 1.0) if self.times.size else \
            np.ones(np.shape(t))

    @property
    def last_time(self) -> float:
        """The largest observed time (the curve is not estimated beyond it)."""
        return float(self.times[-1]) if self.times.size else float("nan")


def fit_censoring_km(time, event, sample_weight=None, *, events_first: bool = True) -> CensoringKM:
    r"""The Kaplan-Meier estimate of the censoring survival ``G(t) = P(C > t)``.

    Parameters
    ----------
    time : array-like of shape (n,)
        Follow-up times (validated by the caller: finite, non-negative).
    event : array-like of shape (n,)
        True where the follow-up ended in the event, False where it was censored (the
        censorings are this curve's jumps).
    sample_weight : array-like of shape (n,), optional
        Frequency weights (validated by the caller).
    events_first : bool, default True
        The convention at a time ``t`` with both events and censorings. True: the events at
        ``t`` are taken to happen first, so they are no longer at risk of being censored at
        ``t``; the factor at ``t`` is ``1 - c_t / (Y_t - d_t)``. This is what R survival's
        ``concordance`` uses for ``timewt = "n/G2"`` (its C routine ``fastkm1``), what
        prodlim's ``prodlim(..., reverse = TRUE)`` (timeROC's weights) and scikit-survival's
        ``kaplan_meier_estimator(..., reverse=True)`` use. False: everyone with
        ``time >= t`` is at risk of censoring at ``t``, the factor is ``1 - c_t / Y_t``, as
        R's ``survfit(Surv(time, 1 - event) ~ 1)`` (the events relabelled as censorings).

    Returns
    -------
    CensoringKM

    Notes
    -----
    With ``Y_t`` the weight of the rows with ``time >= t``, ``d_t`` of the events and
    ``c_t`` of the censorings at ``t``,

    .. math:: G(t) = \prod_{s \le t} \Bigl(1 - \frac{c_s}{Y_s - d_s}\Bigr)
              \quad\text{(events first; } Y_s \text{ without } - d_s \text{ otherwise)}

    (a factor 1 where ``c_s = 0``). One sort, then cumulative sums: O(n log n) time, O(n)
    memory. ``left(t)`` is ``G(t-)`` (censorings strictly before ``t``), the weight of an
    event at ``t`` in Uno's concordance; ``right(t)`` is ``G(t)``.

    Examples
    --------
    Times 1, 2, 2, 3 with events 1, 1, 0, 0: at 2 one event and one censoring tie; with the
    event first the censoring at 2 faces one row at risk besides the event's, so
    ``G(2) = 1 - 1/2``, and ``G(3) = 0``.

    >>> km = fit_censoring_km([1, 2, 2, 3], [1, 1, 0, 0])
    >>> km.survival.tolist(), km.left([2, 3, 9]).tolist()
    ([1.0, 0.5, 0.0], [1.0, 0.5, 0.0])
    >>> fit_censoring_km([1, 2, 2, 3], [1, 1, 0, 0], events_first=False).survival.tolist()
    [1.0, 0.6666666666666667, 0.0]
    """
    t = np.asarray(time, dtype=np.float64).reshape(-1)
    e = np.asarray(event).reshape(-1).astype(bool)
    w = np.ones(t.shape[0]) if sample_weight is None else np.asarray(sample_weight, dtype=np.float64).reshape(-1)
    if e.shape[0] != t.shape[0] or w.shape[0] != t.shape[0]:
        raise ValueError(f"fit_censoring_km: 'time', 'event' and 'sample_weight' must have one value per row; got "
                         f"{t.shape[0]}, {e.shape[0]} and {w.shape[0]}.")
    times, inv = np.unique(t, return_inverse=True)
    inv = inv.reshape(-1)
    k = times.shape[0]
    d = np.bincount(inv, weights=w * e, minlength=k)
    c = np.bincount(inv, weights=w * ~e, minlength=k)
    tot = d + c
    # rows with time >= t: the reverse cumulative sum of the weight per distinct time
    at_risk = np.cumsum(tot[::-1])[::-1]
    denom = at_risk - d if events_first else at_risk
    with np.errstate(divide="ignore", invalid="ignore"):
        factor = np.where(c > 0, 1.0 - c / np.where(denom > 0, denom, 1.0), 1.0)
    factor = np.clip(factor, 0.0, 1.0)
    survival = np.cumprod(factor)
    return CensoringKM(times=times, at_risk=at_risk, events=d, censored=c, survival=survival,
                       events_first=bool(events_first))


@dataclass(frozen=True)
class RowsKM:
    """The censoring Kaplan-Meier of a sample read at its own rows (:func:`censoring_at_rows`).

    Attributes
    ----------
    left : ndarray of shape (n,)
        ``G(t_k-)`` for every row ``k``, from the curve of the row's stratum.
    times, strata : ndarray
        Each distinct (stratum, time) block, sorted by stratum then time.
    at_risk, events, censored : ndarray
        Per block: the weight of the stratum's rows with ``time >= t``, of its events and
        of its censorings at ``t``.
    """

    left: np.ndarray
    times: np.ndarray
    strata: np.ndarray
    at_risk: np.ndarray
    events: np.ndarray
    censored: np.ndarray


def censoring_at_rows(time: np.ndarray, event: np.ndarray, sample_weight: np.ndarray | None = None,
                      strata: np.ndarray | None = None, *, events_first: bool = True) -> RowsKM:
    """:func:`fit_censoring_km` within each stratum, read just before each row's own time:
    one sort of the rows (no search), then whole-array steps (no loop over the strata;
    :func:`rankwise._kernels._censored.censoring_blocks`), the same convention and numbers.

    Examples
    --------
    >>> censoring_at_rows(np.array([1.0, 2, 2, 3]), np.array([True, True, False, False])).left.tolist()
    [1.0, 1.0, 1.0, 0.5]
    """
    t = np.asarray(time, dtype=np.float64)
    e = np.asarray(event, dtype=bool)
    n = t.shape[0]
    w = np.ones(n) if sample_weight is None else np.asarray(sample_weight, dtype=np.float64)
    if strata is None:
        s = None
        order = np.argsort(t, kind="stable")
    else:
        s = np.asarray(strata).astype(np.int64)
        order = np.lexsort((t, s))
    b = censoring_blocks(t, e, w, s, order, events_first=events_first)
    return RowsKM(b.left, b.times, b.strata, b.at_risk, b.events, b.censored)
