"""Harrell's and Uno's concordance index with the infinitesimal-jackknife standard error."""

from __future__ import annotations

import html
import numbers
import warnings
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .._kernels import concordance_counts, uno_counts
from .._labels import CENSORED
from .._validation import (
    UndefinedMetricWarning,
    check_choice,
    check_clusters,
    check_groups,
    check_sample_weight,
    check_scores,
)
from ..stats.blocks import bootstrap_interval, cached_draws, check_level, fmt, fmt_count, normal_interval
from ..stats import ConfidenceInterval
from ._bootstrap import bootstrap_values, influence_acceleration
from ._km import censoring_at_rows, fit_censoring_km

__all__ = ["concordance_index", "estimate", "compare", "ConcordanceEstimate"]

WEIGHTINGS = ("harrell", "uno")


def _same_length(n: int, m: int, name: str) -> None:
    if m != n:
        raise ValueError(f"'time' has {n} values but '{name}' has {m}; they must have the same length.")


def check_survival(time: Any, event: Any, risk: Any, sample_weight: Any = None, strata: Any = None,
                   clusters: Any = None, func: str = "concordance_index") -> tuple:
    """``(time, event, risk, w, strata_codes, clusters)`` validated: times finite and
    non-negative, events booleans or 0/1 (the censored label kind,
    :class:`rankwise._labels.CensoredKind`), risks finite reals, one value of each per row."""
    t, ev = CENSORED.check_parts(time, event, func)
    n = t.shape[0]
    r = check_scores(risk, name="risk")
    _same_length(n, r.shape[0], "risk")
    if sample_weight is not None and getattr(sample_weight, "__len__", None) is not None \
            and not isinstance(sample_weight, (str, bytes)) and len(sample_weight) != n:
        _same_length(n, len(sample_weight), "sample_weight")
    w = check_sample_weight(sample_weight, n)
    codes = None if strata is None else check_groups(strata, n, func, name="strata", unit="stratum")[0]
    clus = check_clusters(clusters, n, func)
    return t, ev, r.astype(np.float64), w, codes, clus


def check_options(t: np.ndarray, weighting: Any, tau: Any, censoring: Any, tied_event_censored: Any,
                  func: str) -> tuple:
    """``(weighting, tau, censoring)`` validated: ``tau`` None or in ``(0, max(time)]``;
    ``censoring`` None or a reference ``(time, event)`` sample (Uno's weighting only)."""
    weighting = check_choice(weighting, "weighting", func, WEIGHTINGS)
    if tau is not None:
        if isinstance(tau, bool) or not isinstance(tau, numbers.Real) or not np.isfinite(float(tau)) \
                or not float(tau) > 0:
            raise ValueError(f"The 'tau' parameter of {func} must be a positive, finite time or None. "
                             f"Got {tau!r} instead.")
        tau = float(tau)
        last = float(t.max())
        if tau > last:
            raise ValueError(f"The 'tau' parameter of {func} must not exceed the last observed time "
                             f"({last:g}): nothing is observed beyond it. Got {tau:g} instead.")
    if not isinstance(tied_event_censored, (bool, np.bool_)):
        raise TypeError(f"The 'tied_event_censored' parameter of {func} must be True or False. "
                        f"Got {tied_event_censored!r} instead.")
    if censoring is not None:
        if weighting != "uno":
            raise ValueError(f"The 'censoring' parameter of {func} applies to weighting='uno' only (the censoring "
                             f"distribution weights Uno's pairs); got weighting={weighting!r}.")
        if not (isinstance(censoring, (tuple, list)) and len(censoring) == 2):
            raise ValueError(f"The 'censoring' parameter of {func} must be a reference sample (time, event): a "
                             f"pair of arrays. Got {type(censoring).__name__} instead.")
        censoring = CENSORED.check_parts(censoring[0], censoring[1], func, time_name="censoring[0] (time)",
                                         event_name="censoring[1] (event)")
    return weighting, tau, censoring


def case_weights(t: np.ndarray, ev: np.ndarray, w: np.ndarray | None, codes: np.ndarray | None, weighting: str,
                 tau: float | None, censoring: tuple | None, func: str, tec: bool = True, *,
                 count_pairs: bool = True) -> tuple:
    """``(a, pairs)``: the weight ``a_i`` of each row in the earlier role of a pair, and
    the weight ``sum w_i w_j`` of the comparable pairs counted (up to ``tau``, before
    ``a``), or None where the kernel's ``D`` is that number.

    ``a`` is None (all ones) for Harrell's C without ``tau``; ``1{t_i <= tau}`` for
    Harrell's with ``tau``; for Uno's, ``1 / G(t_i-)^2`` (0 beyond ``tau``) with ``G`` the
    censoring Kaplan-Meier of the row's stratum, or of the reference sample ``censoring``."""
    if weighting == "harrell":
        return (None, None) if tau is None else ((t <= tau).astype(np.float64), None)
    need = ev if tau is None else ev & (t <= tau)
    if w is not None:
        need = need & (w > 0)  # a row of weight 0 is in no pair: its G does not matter
    if censoring is not None:
        km = fit_censoring_km(*censoring)
        beyond = need & (t > km.last_time)
        if beyond.any():
            i = int(np.flatnonzero(beyond)[0])
            raise ValueError(f"The 'censoring' sample of {func} ends at time {km.last_time:g}, before the event at "
                             f"time {t[i]:g} (row {i}): its censoring survival is not estimated there. Pass a "
                             f"reference sample that covers the events, or tau <= {km.last_time:g}.")
        g = km.left(t)
        pairs = CENSORED.comparable_weight(t, ev if tau is None else ev & (t <= tau), w, codes,
                                           tied_event_censored=tec) if count_pairs else None
    else:
        rows = censoring_at_rows(t, ev, w, codes)
        g = rows.left
        # the pairs from each (stratum, time) block's events: the stratum's later rows, and
        # its censorings at that time when they count
        later = rows.at_risk - rows.events - rows.censored + (rows.censored if tec else 0.0)
        keep = slice(None) if tau is None else rows.times <= tau
        pairs = float(np.dot(rows.events[keep], later[keep]))
    # Defensive: G reaches 0 only at a censoring that takes its whole risk set, after which no
    # row of positive weight of the same sample remains, so this holds for the sample's own G.
    zero = need & ~(g > 0)
    if zero.any():
        _zero_censoring_survival(t, int(np.flatnonzero(zero)[0]), func)
    a = np.zeros(t.shape[0])
    a[need] = 1.0 / g[need] ** 2
    return a, pairs


def _zero_censoring_survival(t: np.ndarray, i: int, func: str):
    raise ValueError(f"{func}: the censoring survival G(t-) is 0 at the event time {t[i]:g} (row {i}), so Uno's "
                     f"weight 1 / G^2 is infinite there. Pass tau= below that time (a time where G stays "
                     f"positive) to truncate the pairs.")


def _no_pair(t, ev, w, codes, eligible, tec) -> bool:
    """Whether no pair is comparable, decided exactly (O(n)): no event of positive weight
    (and ``eligible``: within tau, a positive Uno weight) before the last follow-up of its
    stratum, or, with ``tec``, at the time of a censoring of its stratum or later."""
    rows = np.ones(t.shape[0], dtype=bool) if w is None else w > 0
    s = np.zeros(t.shape[0], dtype=np.int64) if codes is None else codes
    k = int(s.max()) + 1 if s.shape[0] else 0
    last = np.full(k, -np.inf)
    np.maximum.at(last, s[rows], t[rows])
    cens = rows & ~ev
    last_cens = np.full(k, -np.inf)
    np.maximum.at(last_cens, s[cens], t[cens])
    e = rows & ev if eligible is None else rows & ev & eligible
    te, se = t[e], s[e]
    return not bool(np.any(te < last[se]) or (tec and np.any(te <= last_cens[se])))


def _zeroed(counts: tuple, n: int) -> tuple:
    """The counts of a sample without a comparable pair: exactly 0 (the compiled kernel's
    subtractions can leave rounding residues of 1e-16 where the count is 0)."""
    return (0.0, 0.0, np.zeros(n), np.zeros(n), *counts[4:])


def _small(N: float, D: float, w, n: int) -> bool:
    """Counts small enough to be rounding residues (then checked exactly)."""
    total = float(n) if w is None else float(np.sum(w))
    return max(abs(N), abs(D)) <= 1e-9 * total * total


def _counts(t, ev, r, w, codes, a, tied_event_censored):
    if a is None and tied_event_censored:
        out = concordance_counts(t, ev, r, w, codes)
    else:
        out = concordance_counts(t, ev, r, w, codes, case_weight=a, tied_event_censored=tied_event_censored)
    if _small(out[0], out[1], w, t.shape[0]) and _no_pair(t, ev, w, codes, None if a is None else a > 0,
                                                           tied_event_censored):
        return _zeroed(out, t.shape[0])
    return out


def _pair_counts(t, ev, r, w, codes, weighting, tau, cens, tec, func, *, count_pairs=True) -> tuple:
    """``(N, D, dN, dD, pairs)`` for any weighting (``pairs`` as :func:`case_weights`,
    None where ``D`` is that number). Uno's weights from the sample's own censoring curve
    come out of the kernel's sort and sweep (:func:`rankwise._kernels.uno_counts`): no
    Kaplan-Meier fitted apart, no weight array passed."""
    if weighting == "uno" and cens is None:
        N, D, dN, dD, pairs, z = uno_counts(t, ev, r, w, codes, tau=tau, tied_event_censored=tec)
        if z >= 0:
            _zero_censoring_survival(t, z, func)
        if _small(N, D, w, t.shape[0]) and _no_pair(t, ev, w, codes, None if tau is None else t <= tau, tec):
            return _zeroed((N, D, dN, dD, 0.0), t.shape[0])
        return N, D, dN, dD, pairs
    a, pairs = case_weights(t, ev, w, codes, weighting, tau, cens, func, tec, count_pairs=count_pairs)
    return (*_counts(t, ev, r, w, codes, a, tec), pairs)


def _which(weighting: str, tau: float | None) -> str:
    name = "Uno's C, IPCW" if weighting == "uno" else "Harrell's C"
    return name + ("" if tau is None else f", pairs truncated at tau = {tau:g}")


def concordance_index(time, event, risk, *, weighting: str = "harrell", tau: float | None = None, strata=None,
                      sample_weight=None, censoring=None, tied_event_censored: bool = True) -> float:
    r"""The concordance index: of two subjects, how often the one whose event came first
    had the higher risk (Harrell's C, or Uno's inverse-probability-of-censoring weighted C).

    Parameters
    ----------
    time : array-like of shape (n,)
        Follow-up times (finite, non-negative).
    event : array-like of shape (n,)
        True (or 1) where the follow-up ended in the event, False (0) where censored.
    risk : array-like of shape (n,)
        Risk scores: **higher = earlier event**.
    weighting : {"harrell", "uno"}, default "harrell"
        ``"harrell"``: every comparable pair weighs the same. ``"uno"``: a pair whose
        earlier row has its event at ``t_i`` weighs ``1 / G(t_i-)^2``, ``G`` the
        Kaplan-Meier estimate of the censoring survival (Uno et al. 2011).
    tau : float, optional
        Truncation time: pairs whose earlier event comes after ``tau`` do not count (R
        survival's ``ymax``). In ``(0, max(time)]``; None: no truncation.
    strata : array-like of shape (n,), optional
        Only pairs within a stratum count (with Uno's weights, ``G`` is estimated per
        stratum).
    sample_weight : array-like of shape (n,), optional
        Frequency weights: a pair weighs ``w_i w_j`` (times Uno's weight); they weigh the
        censoring Kaplan-Meier too.
    censoring : (time, event), optional
        Uno's weighting only: a reference sample (the training data, say) on which the
        censoring Kaplan-Meier is fitted instead of these rows (scikit-survival's
        ``survival_train``); its curve is read at these rows' event times.
    tied_event_censored : bool, default True
        Whether an event and a censoring at the same time are comparable (the event taken
        to come first), as R survival, lifelines and scikit-survival count them; False: not
        comparable, as in Uno et al.'s estimator (``t_i < t_j`` strictly).

    Returns
    -------
    float
        nan (with an :class:`rankwise.UndefinedMetricWarning`) when no pair is comparable
        (no event, say).

    Notes
    -----
    A pair ``(i, j)`` is comparable when ``i`` had the event and ``t_i < t_j``, or
    ``t_i = t_j`` with ``j`` censored (``tied_event_censored``); two events at the same
    time are not comparable. It counts ``psi = 1`` when ``r_i > r_j``, 1/2 when the risks
    tie, 0 otherwise, and weighs ``w_i w_j a_i``:

    .. math:: C = \frac{\sum_{(i, j)\ \mathrm{comparable}} w_i w_j a_i\, \psi(r_i, r_j)}
                       {\sum_{(i, j)\ \mathrm{comparable}} w_i w_j a_i}

    with ``a_i = 1`` (Harrell) or ``a_i = 1 / G(t_i-)^2`` (Uno), and ``a_i = 0`` when
    ``t_i > tau``. ``G(t-)`` is the censoring survival just before ``t``: the product over
    the censoring times ``s < t`` of ``1 - c_s / (Y_s - d_s)`` (``Y_s`` the weight at risk,
    ``d_s`` of the events and ``c_s`` of the censorings at ``s``: at a tied time the events
    leave the risk set first). Without ``tau`` Uno's weights need ``G(t-) > 0`` at every
    event: a ValueError suggests ``tau`` otherwise.

    These are R survival's ``concordance(Surv(time, event) ~ risk, reverse = TRUE)`` and,
    for Uno's C, ``timewt = "n/G2", ymax = tau`` (Therneau & Atkinson, "Concordance", the
    survival package's vignette); Harrell, Lee & Mark (1996), "Multivariable prognostic
    models", Statistics in Medicine 15; Uno, Cai, Pencina, D'Agostino & Wei (2011), "On the
    C-statistics for evaluating overall adequacy of risk prediction procedures with
    censored survival data", Statistics in Medicine 30. With no censoring Harrell's C is
    ``rankwise.ranking_risk(time, risk)`` (Clémençon, Lugosi & Vayatis 2008). O(n log n)
    with or without numba (numba's compiled pass is about 10x faster); memory O(n).

    Examples
    --------
    >>> import rankwise as rw
    >>> rw.survival.concordance_index([2, 4, 5, 7], [1, 1, 0, 1], [0.9, 0.3, 0.5, 0.1])
    0.8

    The comparable pairs start from an event: (2, 4), (2, 5), (2, 7), (4, 5), (4, 7); all
    but (4, 5) have the earlier time with the higher risk.

    Uno's weights: times 1, 2, 3, 4 with events 1, 0, 1, 0. The censoring at 2 leaves
    ``G(3-) = 2/3``, so pairs from the event at 3 weigh ``(3/2)^2 = 9/4``. Of the pairs
    (1, 2), (1, 3), (1, 4), (3, 4), the last two are concordant: Harrell's C is 2/4 and
    Uno's ``(1 + 9/4) / (3 + 9/4) = 13/21``.

    >>> t, e, r = [1, 2, 3, 4], [1, 0, 1, 0], [0.2, 0.5, 0.9, 0.1]
    >>> rw.survival.concordance_index(t, e, r), round(rw.survival.concordance_index(t, e, r, weighting="uno"), 4)
    (0.5, 0.619)
    """
    func = "concordance_index"
    t, ev, r, w, codes, _ = check_survival(time, event, risk, sample_weight, strata, None, func)
    weighting, tau, cens = check_options(t, weighting, tau, censoring, tied_event_censored, func)
    N, D, _, _, _ = _pair_counts(t, ev, r, w, codes, weighting, tau, cens, bool(tied_event_censored), func,
                                 count_pairs=False)
    if not D > 0:
        warnings.warn("concordance_index is undefined because no pair is comparable (no event before another "
                      "follow-up ended" + ("" if tau is None else ", up to tau") + "); returning nan.",
                      UndefinedMetricWarning, stacklevel=2)
        return float("nan")
    return float(N / D)


@dataclass(frozen=True, kw_only=True)
class ConcordanceEstimate:
    """A concordance index (Harrell's or Uno's) with its standard error (:func:`estimate`).

    Attributes
    ----------
    value : float
    std_error : float
        Infinitesimal jackknife (over clusters with ``clusters``; Uno's censoring weights
        held fixed).
    n, n_events : float
        Rows and events (masses with weights).
    comparable : float
        Weight ``sum w_i w_j`` of the comparable pairs counted (their number without
        weights; up to ``tau``), before Uno's weights.
    n_strata, n_clusters : int or None
    weighting : str
        ``"harrell"`` or ``"uno"``.
    tau : float or None
        The truncation time.
    """

    value: float
    std_error: float
    n: float
    n_events: float
    comparable: float
    n_strata: int | None = None
    n_clusters: int | None = None
    weighting: str = "harrell"
    tau: float | None = None
    criterion: str = "concordance"
    method: str = "ij"

    _resample: Any = field(default=None, repr=False, compare=False)

    def confidence_interval(self, confidence_level: float = 0.95, method: str | None = None, *,
                            transform: str | None = None, kind: str = "bca", n_resamples: int = 2000,
                            random_state: Any = None) -> ConfidenceInterval:
        """A confidence interval for the concordance.

        Parameters
        ----------
        confidence_level : float in (0, 1)
        method : {"ij", "bootstrap"}, optional
            ``"ij"`` (default): the normal interval ``C -/+ z se`` with the infinitesimal
            jackknife's standard error, clipped to [0, 1] (or built on the logit scale with
            ``transform="logit"``). ``"bootstrap"``: from ``n_resamples`` resamples of the
            rows (within each stratum with ``strata``; whole clusters with ``clusters``);
            with Uno's weights the censoring curve is refitted on every resample, so its
            own sampling variation is included.
        transform : {None, "logit"}
            The ``"ij"`` interval's scale.
        kind : {"bca", "percentile"}
            Bootstrap only: bias-corrected and accelerated (acceleration from the
            infinitesimal jackknife's influences; Efron 1987) or percentile.
        n_resamples : int
        random_state : int, numpy Generator or None
            The bootstrap's seed (resamples are cached for an integer seed).
        """
        func = "confidence_interval"
        level = check_level(confidence_level, func)
        method = "ij" if method is None else method
        check_choice(method, "method", func, ("ij", "bootstrap"))
        if method == "bootstrap":
            check_choice(kind, "kind", func, ("bca", "percentile"))
            if not np.isfinite(self.value):
                return ConfidenceInterval(float("nan"), float("nan"), level, "bootstrap", kind, None, None,
                                          float("nan"))
            reps = self.bootstrap_distribution(n_resamples, random_state)
            if reps.shape[0] < 2:
                return ConfidenceInterval(float("nan"), float("nan"), level, "bootstrap", kind, None,
                                          int(reps.shape[0]), float("nan"))
            accel = self._resample.acceleration if kind == "bca" else 0.0
            lo, hi = bootstrap_interval(self.value, reps, level, kind, accel)
            return ConfidenceInterval(float(lo), float(hi), level, "bootstrap", kind, None, int(reps.shape[0]),
                                      float(np.std(reps, ddof=1)))
        if transform is not None:
            check_choice(transform, "transform", func, ("logit",))
        if not (np.isfinite(self.value) and np.isfinite(self.std_error)):
            return ConfidenceInterval(float("nan"), float("nan"), level, "ij", "wald", transform, None,
                                      self.std_error)
        lo, hi = normal_interval(self.value, self.std_error, level, transform, (0.0, 1.0))
        return ConfidenceInterval(lo, hi, level, "ij", "wald", transform, None, self.std_error)

    def bootstrap_distribution(self, n_resamples: int = 2000, random_state: Any = None) -> np.ndarray:
        """The concordance on ``n_resamples`` resamples (rows within strata, or whole
        clusters), the undefined ones left out with a warning. Cached for an integer
        ``random_state``. Each resample costs one :func:`concordance_index` on all rows."""
        if self._resample is None:
            raise ValueError(f"This concordance estimate has no sample to resample (it is undefined: "
                             f"{self.value}); no bootstrap can be drawn.")
        return cached_draws(self._resample.cache, self._resample, n_resamples, random_state)

    def summary(self) -> str:
        lo, hi = self.confidence_interval()
        extra = "".join([f", {self.n_strata} strata" if self.n_strata else "",
                         f", standard error over {self.n_clusters} clusters" if self.n_clusters else ""])
        se_note = "infinitesimal jackknife, censoring weights fixed" if self.weighting == "uno" else \
            "infinitesimal jackknife"
        return (f"concordance ({_which(self.weighting, self.tau)}; higher risk = earlier event) = {fmt(self.value)}, "
                f"std err {fmt(self.std_error)} ({se_note}), 95% CI [{fmt(lo)}, {fmt(hi)}]\n"
                f"n = {fmt_count(self.n)}, events = {fmt_count(self.n_events)}, comparable pairs = "
                f"{fmt_count(self.comparable)}{extra}")

    def __str__(self) -> str:
        return self.summary()

    def _repr_html_(self) -> str:
        return "<pre>" + html.escape(self.summary()) + "</pre>"


def _influence(t, ev, r, w, codes, a, tec):
    """``(C, u, D)``: the concordance, each row's influence ``w_k dC/dw_k`` (a fixed) and the
    weighted pair mass."""
    return _influence_of(*_counts(t, ev, r, w, codes, a, tec), w, t.shape[0])


def _influence_of(N, D, dN, dD, w, n):
    """:func:`_influence` from the kernel's counts."""
    if not D > 0:
        return float("nan"), np.full(n, np.nan), D
    C = N / D
    u = np.multiply(C, dD)  # (w (dN - C dD)) / D, in place: one array, not four
    np.subtract(dN, u, out=u)
    if w is not None:
        np.multiply(w, u, out=u)
    u /= D
    return float(C), u, D


class _Resampler:
    """What :meth:`ConcordanceEstimate.bootstrap_distribution` needs: the validated rows,
    the options, the BCa acceleration from the influences (summed per cluster), computed
    on first use (a BCa interval): an estimate alone does not pay for it."""

    def __init__(self, t, ev, r, w, codes, clus, weighting, tau, cens, tec, u):
        self.args = (t, ev, r, w, codes, clus, weighting, tau, cens, tec)
        self._u = u
        self._acceleration: float | None = None
        self.cache: dict = {}

    @property
    def acceleration(self) -> float:
        if self._acceleration is None:
            u, clus = self._u, self.args[5]
            units = u if clus is None else np.bincount(clus[0], weights=u, minlength=clus[1])
            self._acceleration = influence_acceleration(units)
        return self._acceleration

    def __call__(self, n_resamples: int, random_state: Any) -> np.ndarray:
        t, ev, r, w, codes, clus, weighting, tau, cens, tec = self.args

        def value_of(wb: np.ndarray) -> float:
            N, D, _, _, _ = _pair_counts(t, ev, r, wb, codes, weighting, tau, cens, tec, "bootstrap",
                                         count_pairs=False)
            return N / D if D > 0 else float("nan")

        rng = np.random.default_rng(random_state)
        return bootstrap_values(value_of, w, t.shape[0], codes, clus, n_resamples, rng, "bootstrap_distribution")


def estimate(time, event, risk, *, weighting: str = "harrell", tau: float | None = None, strata=None,
             sample_weight=None, clusters=None, censoring=None, tied_event_censored: bool = True
             ) -> ConcordanceEstimate:
    r"""Harrell's or Uno's concordance index with its standard error.

    Parameters
    ----------
    time, event, risk, weighting, tau, strata, sample_weight, censoring, tied_event_censored
        As in :func:`concordance_index` (**higher risk = earlier event**).
    clusters : array-like of shape (n,), optional
        The sampling unit of each row (several rows per patient...): the variance is taken
        over clusters.

    Returns
    -------
    ConcordanceEstimate

    Notes
    -----
    The infinitesimal jackknife: with ``N`` and ``D`` the numerator and denominator of
    :func:`concordance_index`, ``dN_k`` and ``dD_k`` their derivatives in the weight
    ``w_k`` of row ``k`` (the comparable pairs holding ``k``, in either role, each
    contributing ``a_i`` times the other row's weight), each row's influence is
    ``u_k = w_k (dN_k - C dD_k) / D`` and :math:`\widehat{\mathrm{Var}}(C) = \sum_k u_k^2`,
    or with clusters :math:`\sum_g (\sum_{k \in g} u_k)^2`. With Uno's weights the
    censoring curve ``G`` is held fixed (its own sampling variation is left out), as R
    survival's ``concordance(..., timewt = "n/G2")`` computes its ``var``; both are equal
    to it to 1e-10 in the tests. Bootstrap intervals (rows within strata, or whole
    clusters; Uno's censoring curve refitted on each resample):
    ``confidence_interval(method="bootstrap")``.

    Examples
    --------
    >>> import rankwise as rw
    >>> e = rw.survival.estimate([2, 4, 5, 7], [1, 1, 0, 1], [0.9, 0.3, 0.5, 0.1])
    >>> round(e.value, 4), round(e.std_error, 4)
    (0.8, 0.204)

    R survival's ``concordance(Surv(time, event) ~ risk, reverse = TRUE)`` gives 0.8 and
    ``sqrt(var)`` 0.2039608 on these rows.
    """
    func = "estimate"
    t, ev, r, w, codes, clus = check_survival(time, event, risk, sample_weight, strata, clusters, func)
    weighting, tau, cens = check_options(t, weighting, tau, censoring, tied_event_censored, func)
    N, D, dN, dD, pairs = _pair_counts(t, ev, r, w, codes, weighting, tau, cens, bool(tied_event_censored), func)
    C, u, D = _influence_of(N, D, dN, dD, w, t.shape[0])
    if pairs is None:  # the kernel's D counts the pairs (Harrell's weights are 0 or 1)
        pairs = D
    n_rows, n_events = (float(t.shape[0]), float(np.count_nonzero(ev))) if w is None else \
        (float(w.sum()), float(w[ev].sum()))
    common = dict(n=n_rows, n_events=n_events, comparable=float(pairs),
                  n_strata=None if codes is None else int(codes.max()) + 1,
                  n_clusters=None if clus is None else int(clus[1]), weighting=weighting, tau=tau)
    if not D > 0:
        warnings.warn("estimate: the concordance is undefined because no pair is comparable; returning nan.",
                      UndefinedMetricWarning, stacklevel=2)
        return ConcordanceEstimate(value=float("nan"), std_error=float("nan"), **common)
    var = float(np.dot(u, u)) if clus is None else float(np.sum(np.bincount(clus[0], weights=u,
                                                                              minlength=clus[1]) ** 2))
    return ConcordanceEstimate(value=C, std_error=float(np.sqrt(var)), **common,
                               _resample=_Resampler(t, ev, r, w, codes, clus, weighting, tau, cens,
                                                    bool(tied_event_censored), u))


def compare(time, event, risks, *, weighting: str = "harrell", tau: float | None = None, names=None, strata=None,
            sample_weight=None, clusters=None, censoring=None, tied_event_censored: bool = True, reference=None,
            adjust: str = "holm", alternative: str = "two-sided", confidence_level: float = 0.95,
            margin: float | None = None):
    r"""Several risk scores' concordance on the same rows, compared.

    Parameters
    ----------
    time, event, weighting, tau, strata, sample_weight, clusters, censoring, tied_event_censored
        As in :func:`estimate`.
    risks : dict, DataFrame, list of arrays or 2-D array
        Two or more risk scores (higher = earlier event), one per column.
    names, reference, adjust, alternative, confidence_level, margin
        As in :func:`rankwise.stats.compare` (``alternative="noninferiority"`` or
        ``"equivalence"`` with ``margin``, in units of C: a higher C is better).

    Returns
    -------
    rankwise.stats.Comparison
        The K concordances, their joint covariance, every pairwise difference (or each
        against ``reference``) with its test, interval and adjusted p-value, and the Wald
        test that all K are equal.

    Notes
    -----
    The joint covariance is the infinitesimal jackknife's: with ``u^a_k`` row ``k``'s
    influence on scorer ``a``'s C (:func:`estimate`), ``Cov(C_a, C_b) = sum_k u^a_k u^b_k``
    (sums over clusters first with ``clusters``), the covariance R survival's
    ``concordance(fit_a, fit_b)`` reports. Uno's weights are the same for every scorer
    (they depend on the times only) and are held fixed.

    Examples
    --------
    >>> import rankwise as rw
    >>> c = rw.survival.compare([2, 4, 5, 7, 9], [1, 1, 0, 1, 1],
    ...                         {"a": [0.9, 0.3, 0.5, 0.1, 0.0], "b": [0.1, 0.3, 0.5, 0.9, 0.2]})
    >>> [round(float(v), 4) for v in c.values]
    [0.875, 0.25]

    Eight pairs are comparable (from the events at 2, 4 and 7 to every later row); ``a``
    orders 7 of them right, ``b`` 2.
    """
    from ..stats.blocks import TEST_ALTERNATIVES, build_comparison, check_margin, score_columns

    func = "compare"
    margin = check_margin(margin, check_choice(alternative, "alternative", func, TEST_ALTERNATIVES), func)
    cols, labels = score_columns(risks, names)
    level = check_level(confidence_level, func)
    t, ev, r0, w, codes, clus = check_survival(time, event, cols[0], sample_weight, strata, clusters, func)
    weighting, tau, cens = check_options(t, weighting, tau, censoring, tied_event_censored, func)
    tec = bool(tied_event_censored)
    fused = weighting == "uno" and cens is None  # Uno's weights from each kernel call's own sweep
    a = None if fused else case_weights(t, ev, w, codes, weighting, tau, cens, func, tec, count_pairs=False)[0]
    U, values = [], []
    for k, col in enumerate(cols):
        r = r0 if k == 0 else check_scores(col, name=labels[k]).astype(np.float64)
        _same_length(t.shape[0], r.shape[0], labels[k])
        if fused:
            C, u, D = _influence_of(*_pair_counts(t, ev, r, w, codes, weighting, tau, None, tec, func)[:4], w,
                                    t.shape[0])
        else:
            C, u, D = _influence(t, ev, r, w, codes, a, tec)
        if not D > 0:
            warnings.warn("compare: the concordance is undefined because no pair is comparable; returning nan.",
                          UndefinedMetricWarning, stacklevel=2)
        values.append(C)
        U.append(u)
    U = np.column_stack(U)
    if clus is not None:
        U = np.column_stack([np.bincount(clus[0], weights=U[:, k], minlength=clus[1]) for k in range(U.shape[1])])
    cov = U.T @ U
    params = {"weighting": weighting} if tau is None else {"weighting": weighting, "tau": tau}
    return build_comparison("concordance", params, labels, np.array(values), cov, "ij", True, adjust, level,
                            reference=reference, alternative=alternative, bounds=[(0.0, 1.0)] * len(labels),
                            n_clusters=None if clus is None else int(clus[1]), margin=margin)
