"""``estimate``: a criterion with its standard error and confidence intervals."""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .. import criteria as _criteria
from .._kernels import MassRows, class_sorted, range_rows, use_ranges
from .._labels import check_binary_inputs, kind_of
from .._validation import check_choice, check_clusters, check_param, parse_spec, warn_undefined
from . import _core, _variance
from ._results import ConfidenceInterval, fmt, fmt_count, format_rows, html_table

__all__ = [
    "estimate",
    "estimate_many",
    "iter_estimates",
    "Estimate",
    "DegenerateIntervalWarning",
    "FewClustersWarning",
    "Inference",
    "warn_few_clusters",
    "analytic_methods",
    "resolve_criterion",
    "check_bandwidth",
    "check_method",
]


#: Criteria over structured cells with an entry of their own that :func:`estimate` also
#: reaches (``"stratified_auc"``: :mod:`rankwise.stats._strata` registers it), name ->
#: ``f(y_true, y_score, *, sample_weight, pos_label, method, bandwidth, clusters, **kw)``.
OWN_ENTRIES: dict = {}


class DegenerateIntervalWarning(UserWarning):
    """The interval cannot carry its usual meaning: the estimate sits where its variance
    estimate is zero (e.g. AUC = 1; the normal interval collapses to a point and has no
    coverage guarantee), or the variance cannot be estimated at all (a class of one
    observation, or of total frequency weight at most 1; the interval is then the
    criterion's whole range)."""


def analytic_methods(criterion) -> tuple[str, ...]:
    """The analytic standard errors of a criterion (a name, spec or unit), the default
    first: ``("delong", "hajek")`` for the AUC, ``("hoeffding", "hajek")`` for
    ``ranking_risk``, ``("hajek",)`` for the other criteria with a projection, and ``()``
    for those whose intervals come from the bootstrap only."""
    if isinstance(criterion, str):
        return _criteria.unit_class(parse_spec(criterion)[0]).methods
    return criterion.methods


class Inference:
    """An estimate's private inference slot: how to draw bootstrap replicates of it
    (``resample(n_resamples, random_state)``, None when there is no sample to resample),
    its BCa acceleration (``acceleration()``), the replicates drawn so far (by integer
    seed) and the path that computed it (``"table"``, ``"ranges"``, ``"clusters"``,
    ``"pairs"``, ``"dask"``)."""

    __slots__ = ("resample", "_acceleration", "cache", "path")

    def __init__(self, resample=None, acceleration=None, path: str = "table"):
        self.resample = resample
        self._acceleration = acceleration
        self.cache: dict = {}
        self.path = path

    def acceleration(self) -> float:
        return 0.0 if self._acceleration is None else float(self._acceleration())


@dataclass(frozen=True, kw_only=True)
class Estimate:
    """A criterion on a sample, with what is needed for its intervals.

    Attributes
    ----------
    criterion : str
    params : dict
        The criterion's parameters as given.
    value : float
    std_error : float
        Standard error from ``method`` (an analytic method).
    method : str
        ``"delong"`` (AUC), ``"hajek"`` (projection, every binary criterion) or
        ``"hoeffding"`` (``ranking_risk``).
    n_pos, n_neg : float
        Class sizes (masses with weights); for ``ranking_risk`` ``n_pos`` is the total
        mass and ``n_neg`` is ``nan``.
    bounds : (float, float)
        The range of the criterion at these class sizes, used by ``transform="logit"``
        and to clip the normal interval.
    decomposition : RiskDecomposition or None
        For ``ranking_risk``: the Hoeffding decomposition.
    n_clusters : int or None
        The number of clusters the standard error and the bootstrap were taken over
        (``clusters=``), or None when every row is an independent observation.

    Built by keyword from these public fields; what the other intervals need (the
    resampling of the sample's independent unit, the BCa acceleration) is one private
    slot filled by the function that made the estimate.
    """

    criterion: str
    params: dict
    value: float
    std_error: float
    method: str
    n_pos: float
    n_neg: float
    bounds: tuple
    weighted: bool = False
    decomposition: Any = None
    n_clusters: int | None = None
    _inference: Inference | None = field(default=None, repr=False, compare=False)

    # --- intervals ---------------------------------------------------------------------
    def confidence_interval(self, confidence_level: float = 0.95, method: str | None = None, *,
                            transform: str | None = None, kind: str = "bca", n_resamples: int = 2000,
                            random_state: Any = None) -> ConfidenceInterval:
        """Confidence interval for the criterion.

        Parameters
        ----------
        confidence_level : float in (0, 1)
        method : str, optional
            An analytic method (default: the estimate's ``method``; ``"delong"`` and
            ``"hajek"`` for the AUC, ``"hajek"`` for the other binary criteria,
            ``"hoeffding"`` or ``"hajek"`` for ``ranking_risk``) or ``"bootstrap"``.
        transform : {None, "logit"}
            Analytic methods only: build the normal interval for
            ``logit((theta - lo) / (hi - lo))`` and map it back, so that it stays inside
            the criterion's range ``bounds``. Without it the interval is clipped to the
            range (pROC's convention for the AUC).
        kind : {"bca", "percentile"}
            Bootstrap only: bias-corrected and accelerated (default) or percentile.
        n_resamples : int
            Bootstrap only.
        random_state : int, numpy Generator or None
            Bootstrap only.

        Notes
        -----
        At the boundary (AUC = 1 or 0, constant scores with DeLong's variance 0, ...) the
        analytic standard error is 0 and the interval collapses to the point; a
        :class:`DegenerateIntervalWarning` says so. No normal approximation has coverage
        there; a bootstrap interval is also degenerate when every resample gives the same
        value (a perfect separation stays perfect under resampling).
        """
        level = _core.check_level(confidence_level, "confidence_interval")
        methods = self._methods
        method = self.method if method is None else method
        check_choice(method, "method", "confidence_interval", methods + ("bootstrap",))
        if transform is not None:
            check_choice(transform, "transform", "confidence_interval", ("logit",))
        if not np.isfinite(self.value):
            return ConfidenceInterval(float("nan"), float("nan"), level, method)
        if method == "bootstrap":
            check_choice(kind, "kind", "confidence_interval", ("bca", "percentile"))
            reps = self.bootstrap_distribution(n_resamples, random_state)
            accel = self._acceleration() if kind == "bca" else 0.0
            lo, hi = _core.bootstrap_interval(self.value, reps, level, kind, accel)
            sd = float(np.std(reps[np.isfinite(reps)], ddof=1))
            if sd == 0:
                self._warn_degenerate("every bootstrap resample gives the same value")
            if kind == "bca" and not self._methods and self.decomposition is None:
                kind = "bc"  # no projection, so no acceleration: the bias-corrected percentile interval
            return ConfidenceInterval(lo, hi, level, "bootstrap", kind, None, int(reps.shape[0]), sd)
        se = self.standard_error(method)
        if not np.isfinite(se):
            # No variance can be estimated (a class of size <= 1): claim nothing.
            lo, hi = (float(b) for b in self.bounds)
            self._warn_degenerate(f"its {method} standard error cannot be estimated ({self._sizes()}: a "
                                  f"class has at most one observation)", f"the interval is the criterion's whole "
                                  f"range [{lo:.6g}, {hi:.6g}]")
            return ConfidenceInterval(lo, hi, level, method, "wald", transform, None, se)
        if se == 0:
            self._warn_degenerate(f"its {method} standard error is 0")
        lo, hi = _core.normal_interval(self.value, se, level, transform, self.bounds)
        return ConfidenceInterval(lo, hi, level, method, "wald", transform, None, se)

    def standard_error(self, method: str | None = None) -> float:
        """Standard error by an analytic method (default: the estimate's own)."""
        method = self.method if method is None else method
        check_choice(method, "method", "standard_error", self._methods or ("bootstrap",))
        if method == self.method:
            return self.std_error
        if self.decomposition is not None:
            return self.decomposition.std_error(method)
        # delong and hajek coincide for the AUC (a test checks it): one projection.
        return self.std_error

    def bootstrap_distribution(self, n_resamples: int = 2000, random_state: Any = None) -> np.ndarray:
        """The criterion on ``n_resamples`` resamples (stratified by class for binary
        criteria). Cached for integer ``random_state``."""
        inf = self._inference
        if inf is None or inf.resample is None:
            raise ValueError(f"This {self.criterion} estimate has no sample to resample (it is undefined: "
                             f"{self.value}); no bootstrap can be drawn.")
        return _core.cached_draws(inf.cache, inf.resample, n_resamples, random_state)

    @property
    def _methods(self) -> tuple[str, ...]:
        methods = analytic_methods(self.criterion)
        if self.n_clusters is not None and self.decomposition is None and "hoeffding" in methods:
            # Over clusters only the projection (Hajek) part of the ranking risk has a sandwich form.
            methods = tuple(m for m in methods if m != "hoeffding")
        return methods

    def _acceleration(self) -> float:
        return 0.0 if self._inference is None else self._inference.acceleration()

    def _warn_degenerate(self, why: str, then: str = "the interval collapses to a point") -> None:
        warnings.warn(
            f"The {self.criterion} estimate {self.value:.6g} is degenerate: {why}, so {then} "
            f"and has no coverage guarantee.",
            DegenerateIntervalWarning,
            stacklevel=3,
        )

    def _sizes(self) -> str:
        if np.isnan(self.n_neg):
            return f"n = {fmt_count(self.n_pos)}"
        return f"n+ = {fmt_count(self.n_pos)}, n- = {fmt_count(self.n_neg)}"

    # --- display -------------------------------------------------------------------------
    def _label(self) -> str:
        if not self.params:
            return self.criterion
        return self.criterion + "(" + ", ".join(f"{k}={_show(v)}" for k, v in self.params.items()) + ")"

    def _rows(self, confidence_level: float = 0.95) -> tuple[list[str], list[list[str]], list[str]]:
        header = ["method", "value", "std. error", f"{confidence_level:.0%} CI"]
        rows = []
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for m in self._methods:
                ci = self.confidence_interval(confidence_level, m)
                rows.append([m, fmt(self.value), fmt(ci.std_error), f"[{fmt(ci.low)}, {fmt(ci.high)}]"])
            cache = {} if self._inference is None else self._inference.cache
            drawn = list(cache)
            if not self._methods and not drawn and np.isfinite(self.value):
                # Nothing analytic to show: draw the default bootstrap (seeded, so the
                # summary is reproducible).
                self.bootstrap_distribution(2000, 0)
                drawn = list(cache)
            for n_res, rs in drawn:
                ci = self.confidence_interval(confidence_level, "bootstrap", n_resamples=n_res, random_state=rs)
                rows.append([f"bootstrap ({ci.kind.upper() if ci.kind == 'bca' else 'BC'}, {n_res})",
                             fmt(self.value), fmt(ci.std_error), f"[{fmt(ci.low)}, {fmt(ci.high)}]"])
        if self.decomposition is not None:
            notes = [f"n = {fmt_count(self.n_pos)} (mass)"]
        else:
            notes = [f"n+ = {fmt_count(self.n_pos)}, n- = {fmt_count(self.n_neg)}" + (" (weighted)" if self.weighted else "")]
        if self.n_clusters is not None:
            notes.append(f"standard errors and resamples over {self.n_clusters} clusters "
                         f"(cluster-robust, Obuchowski 1997)")
        return header, rows, notes

    def summary(self, confidence_level: float = 0.95) -> str:
        """A text table: the value, standard errors and intervals by each analytic
        method (and by the bootstrap, for resamples already drawn)."""
        header, rows, notes = self._rows(confidence_level)
        text = f"{self._label()}\n" + format_rows(header, rows) + "\n" + "\n".join(notes)
        if self.decomposition is not None:
            text += "\n" + self.decomposition.summary()
        return text

    def _repr_html_(self) -> str:
        header, rows, notes = self._rows()
        return html_table(self._label(), header, rows, notes)

    def __str__(self) -> str:
        return self.summary()


def _show(v: Any) -> str:
    if callable(v) and hasattr(v, "__name__"):
        return v.__name__
    return repr(v) if not isinstance(v, str) else v


def check_method(method: Any, unit, func: str = "estimate") -> str:
    """The analytic method asked for (default: the criterion's first), or ``"bootstrap"``
    for a criterion without one."""
    methods = unit.methods or ("bootstrap",)
    if method is None:
        return methods[0]
    return check_choice(method, "method", func, methods)


def check_bandwidth(bandwidth: Any) -> float | None:
    return check_param(bandwidth, "bandwidth", "estimate", low=0.0, high=1.0, low_inclusive=False, allow_none=True)


def resolve_criterion(criterion: Any, criterion_args: dict, func: str = "estimate"):
    """``(unit, params)``: the registered unit of a criterion spec plus keyword arguments,
    and the parameters as the user gave them (for display)."""
    if not isinstance(criterion, str):
        raise TypeError(f"The 'criterion' parameter must be a string. Got {type(criterion).__name__} instead.")
    name, params = parse_spec(criterion)
    if criterion_args:
        check_keywords(name, criterion_args, func)
    params.update(criterion_args)
    return _criteria.get((name, params), func), params


#: The keyword arguments of the public inference functions, for naming a misspelt one.
_KEYWORDS = {
    "estimate": ("sample_weight", "pos_label", "method", "bandwidth", "clusters"),
    "compare": ("names", "sample_weight", "pos_label", "method", "reference", "adjust", "alternative",
                "confidence_level", "bandwidth", "clusters", "margin", "n_resamples", "random_state", "interval"),
    "compare_unpaired": ("names", "sample_weight_a", "sample_weight_b", "pos_label", "method", "alternative",
                         "confidence_level", "bandwidth", "clusters_a", "clusters_b", "margin", "n_resamples",
                         "random_state", "interval"),
}


def check_keywords(name: str, criterion_args: dict, func: str) -> None:
    """A keyword that is neither the function's nor a parameter of the criterion is a
    TypeError that names it as a keyword of ``func`` (with the nearest keyword when it
    looks misspelt), not a complaint of the criterion."""
    import difflib
    import inspect

    try:
        cls = _criteria.unit_class(name)
    except (KeyError, ValueError, TypeError):
        return  # an unknown criterion: its own error comes next
    sig = inspect.signature(cls.__init__)
    if any(p.kind is p.VAR_KEYWORD for p in sig.parameters.values()):
        return
    accepted = [p for p in sig.parameters if p != "self"]
    own = _KEYWORDS.get(func, ())
    for key in criterion_args:
        if key in accepted:
            continue
        close = difflib.get_close_matches(key, list(own) + accepted, n=1, cutoff=0.75)
        hint = f" Did you mean {close[0]!r}?" if close else ""
        params = ", ".join(repr(a) for a in accepted) if accepted else "none"
        raise TypeError(f"{func}() got an unexpected keyword argument {key!r}.{hint} Its keywords are "
                        f"{', '.join(own) if own else 'listed in its docstring'}; the criterion {name!r} takes "
                        f"the parameters: {params}.")


def estimate(y_true, y_score, criterion: str = "auc", *, sample_weight=None, pos_label=None,
             method: str | None = None, bandwidth: float | None = None, clusters=None,
             **criterion_args) -> Estimate:
    r"""A ranking criterion with its standard error and confidence intervals.

    Parameters
    ----------
    y_true, y_score, sample_weight, pos_label
        As in :func:`rankwise.auc` (for ``ranking_risk``: real labels, no ``pos_label``).
    criterion : str
        ``"auc"``, ``"rank_statistic"``, ``"local_auc"``, ``"pnorm_push"``,
        ``"partial_auc"``, ``"dcg"``, ``"ndcg"`` or ``"ranking_risk"``, or a spec string
        such as ``"local_auc:top=0.1"``. Structured samples have entries of their own,
        reached from here too: ``"stratified_auc"`` (``strata=``), ``"multiclass_auc"``
        (``y_score`` (n, K), ``multi_class=``, ``average=``, ``labels=``) and ``"vus"``
        (``labels=`` in their order), which return their own result types.
    method : str, optional
        The analytic standard error: ``"delong"`` (default for the AUC), ``"hajek"``
        (default for the other binary criteria) or, for ``ranking_risk``,
        ``"hoeffding"`` (default) or ``"hajek"``.
    bandwidth : float in (0, 1], optional
        Width of the window, as a fraction of the pooled sample, used by the Hájek
        method to differentiate a non-smooth ``phi`` (local AUC, DCG) and to estimate the
        share of positives at a quantile cut (local AUC). Default: ``sqrt(n)``
        observations (``n^(-1/2)``); for DCG ``sqrt(k)`` positions, the scale its
        discount varies on.
    clusters : array-like of shape (n,), optional
        The sampling unit of each row: the patient of each lesion, the user of each
        session (ids of any type; no missing ids). The rows of one cluster may then be
        correlated: the standard error is taken over clusters (Obuchowski 1997) and the
        bootstrap resamples whole clusters. Default: every row an independent
        observation. For ``ranking_risk`` the method is then ``"hajek"``.
    **criterion_args
        The criterion's parameters (``top=0.1``, ``p=4``, ``phi="pnorm_push:p=4"``, ...).

    Returns
    -------
    Estimate
        With ``value``, ``std_error`` and ``confidence_interval(confidence_level=0.95,
        method=..., transform=..., kind=..., n_resamples=..., random_state=...)``.

    Notes
    -----
    **DeLong** (AUC): with placements :math:`V_{10}(i)` (share of negatives below
    positive ``i``, ties 1/2) and :math:`V_{01}(j)` (share of positives above negative
    ``j``), :math:`\widehat{\mathrm{Var}} = S_{10}/n_+ + S_{01}/n_-`, sample variances with
    denominators :math:`n_\pm - 1`. The interval is :math:`\mathrm{AUC} \pm z\, \mathrm{se}`
    clipped to [0, 1]; these are R pROC's conventions and agree with it to 1e-12.

    **Hájek** (Clémençon & Vayatis 2008): each criterion is linearised into a
    sum of one term per observation, its projection :math:`V_n`; with the class sizes
    fixed, :math:`\mathrm{Var} \approx S_+^2(h_+)/n_+ + S_-^2(h_-)/n_-`, the projection
    terms read off the rank table with empirical cdfs in place of ``F``, ``G``, ``H``.
    For :math:`W_n = \sum_{pos} \phi(R_i/(n+1))`:
    :math:`h_+(x) = n_+[\phi(u_x) + D(x)]`, :math:`h_-(x) = n_- D(x)`,
    :math:`D(x) = \frac{1}{n+1}\sum_{pos\ i} \phi'(u_i)\,[\mathbf 1\{s_i > x\} + \tfrac12 \mathbf 1\{s_i = x\}]`.
    For :math:`\phi(u) = u` this is exactly DeLong's variance. :math:`\phi'` is taken as
    the secant slope of :math:`\phi` over a window of ``bandwidth`` (exact for linear
    :math:`\phi`, :math:`O(h^2)` off for smooth ones). **Approximation for non-smooth
    phi**: where :math:`\phi` jumps (local AUC's threshold, DCG's cut at ``k``) the
    secant spreads the jump over the window, which estimates the density ratio of the
    classes at the cut by the share of positives there; local AUC's cut at the pooled
    quantile is handled the same way. For DCG with fixed ``k`` the statistic depends on a
    few top positions and is not asymptotically normal; see the coverage study in
    ``REPRODUCTION.md`` for how these intervals behave. The Rudin p-norm push, partial
    AUC and the normalisations (``scale``, McClish, NDCG) are handled by the chain rule.

    **Hoeffding** (``ranking_risk``; Clémençon, Lugosi & Vayatis 2008): the
    U-statistic's exact variance :math:`[4(n-2)\zeta_1 + 2\zeta_2]/(n(n-1))` with plug-in
    :math:`\zeta_1` (variance of the projection) and :math:`\zeta_2` (of the kernel); see
    :class:`RiskDecomposition`. ``"hajek"`` keeps the linear part :math:`4\zeta_1/n` only.

    **Clusters** (Obuchowski 1997, "Nonparametric analysis of clustered ROC curve data",
    *Biometrics* 53): the same projection terms, centred within their class and divided by
    the class size, are summed within each cluster, giving :math:`U_{g+}` and
    :math:`U_{g-}` for cluster ``g``; then
    :math:`\widehat{\mathrm{Var}} = \frac{I_+}{I_+-1}\sum_g U_{g+}^2 + \frac{I_-}{I_- - 1}\sum_g U_{g-}^2
    + \frac{2I}{I-1}\sum_g U_{g+}U_{g-}`, with :math:`I_\pm` the clusters holding a
    positive (negative) and :math:`I` all clusters. For the AUC this is Obuchowski's
    estimator; R ``survival::concordance(y ~ x, cluster = id)`` gives it without the
    factors :math:`I/(I-1)`. With one row per cluster it is the independent-rows
    variance above. A class present in fewer than ten clusters gives a
    :class:`FewClustersWarning`.

    **Bootstrap**: cases resampled with replacement within each class (class sizes
    kept; for ``ranking_risk``, the whole sample); with ``clusters``, whole clusters
    resampled (class sizes vary). Each resample of a binary criterion is
    a row of level masses over the sample's own rank table, evaluated in batches without
    a sort; percentile or BCa (acceleration from the projection terms).

    Examples
    --------
    >>> import rankwise as rw
    >>> e = rw.stats.estimate([0, 0, 1, 0, 1, 1], [0.1, 0.4, 0.35, 0.5, 0.8, 0.9])
    >>> round(e.value, 4), round(e.std_error, 4)
    (0.7778, 0.2485)
    >>> lo, hi = e.confidence_interval(0.95)
    >>> round(lo, 4), hi
    (0.2908, 1.0)

    By hand: the positives beat 1/3, 1 and 1 of the negatives (variance 12/81 over 3),
    the negatives are beaten by 1, 2/3 and 2/3 of the positives (3/81 over 3), so the
    DeLong variance is 4/81 + 1/81 and the standard error is sqrt(5)/9; the upper end
    0.7778 + 1.96 * 0.2485 is clipped to 1.
    """
    if isinstance(criterion, str) and criterion in OWN_ENTRIES:  # e.g. "stratified_auc": its own entry
        return OWN_ENTRIES[criterion](y_true, y_score, sample_weight=sample_weight, pos_label=pos_label,
                                      method=method, bandwidth=bandwidth, clusters=clusters, **criterion_args)
    unit, params = resolve_criterion(criterion, criterion_args)
    bandwidth = check_bandwidth(bandwidth)
    if kind_of(unit).name == "real":
        if pos_label is not None:
            raise TypeError(f"{unit.name} takes real-valued labels; 'pos_label' does not apply.")
        if clusters is not None:
            # Over clusters only the projection (Hajek) part has a sandwich form.
            method = check_choice("hajek" if method is None else method, "method", "estimate (with clusters)",
                                  ("hajek",))
        else:
            method = check_method(method, unit)
        return _pair_estimate(unit, params, y_true, y_score, sample_weight, method, clusters)
    method = check_method(method, unit)
    is_pos, s, w, defined, scale = check_binary_inputs(y_true, y_score, sample_weight, pos_label=pos_label,
                                                       return_scale=True)
    clusters = check_clusters(clusters, is_pos.shape[0], "estimate")
    if not defined:
        return _undefined(unit, params, method, w is not None, clusters)
    if clusters is not None:
        w, scale = _criteria.table_weights(unit, w, scale)
        return _clustered(unit, params, is_pos, s, w, scale, clusters, method, bandwidth)
    if use_ranges(s.shape[0], w, _fine([unit])):
        # A large unweighted sample, range by range (the whole table's numbers, summed by
        # range; the memory of one range; ranges far from what the criterion reads
        # closely cost nothing but their class masses).
        return next(_by_ranges([(unit, params)], is_pos, s, sample_weight, [method], bandwidth))
    w, scale = _criteria.table_weights(unit, w, scale)
    return _from_sample(unit, params, _core.Sample(is_pos, s, w, mass_scale=scale), method, bandwidth)


class FewClustersWarning(UserWarning):
    """A class is present in fewer clusters than a cluster-robust variance can rely on:
    the variance over clusters is estimated from the spread of that few cluster totals
    (nan below two; unstable below about ten, where intervals tend to be too short)."""


#: Below this many clusters holding a class, :class:`FewClustersWarning` is raised.
MIN_CLUSTERS = 10


def warn_few_clusters(is_pos: np.ndarray, w: np.ndarray | None, clusters: tuple, func: str, *,
                      what: str = "cluster-robust variance", stacklevel: int = 4) -> None:
    """Warn (:class:`FewClustersWarning`) when the positives or the negatives lie in fewer
    than :data:`MIN_CLUSTERS` clusters. ``what``: the quantity that rests on the clusters
    (the variance, or a bootstrap over clusters); ``stacklevel``: as for ``warnings.warn``,
    counted from the caller of this function's caller."""
    codes, G = clusters
    # The clusters holding each class, from one bincount over the (cluster, class) cells
    # (np.unique of the codes, a hash table of the ids, took 60x longer at 10^6 rows).
    key = codes * 2 + is_pos
    if w is not None:
        key = key[w > 0]
    held = np.bincount(key, minlength=2 * G).reshape(G, 2)
    for name, c in (("positives", 1), ("negatives", 0)):
        k = int(np.count_nonzero(held[:, c]))
        if k < MIN_CLUSTERS:
            how = "cannot be estimated (nan)" if k < 2 else "rests on that few cluster totals and may be too small"
            warnings.warn(f"{func}: the {name} lie in {k} cluster{'s' if k != 1 else ''} (of {G}); the "
                          f"{what} {how}.", FewClustersWarning, stacklevel=stacklevel)


def _undefined(unit, params, method, weighted, clusters=None) -> Estimate:
    nan = warn_undefined(f"estimate({unit.name!r})")
    return Estimate(criterion=unit.name, params=params, value=nan, std_error=nan, method=method, n_pos=nan,
                    n_neg=nan, bounds=(0.0, 1.0), weighted=weighted,
                    n_clusters=None if clusters is None else clusters[1])


def _pair_estimate(unit, params, y_true, y_score, sample_weight, method, clusters=None) -> Estimate:
    from ._risk import pair_parts

    parts = pair_parts(unit, y_true, y_score, sample_weight, method, clusters)
    if parts[0] is None:
        n_clusters = None if parts[1] is None else parts[1][1]
        nan = warn_undefined(f"estimate({unit.name!r})", unit.undefined_reason)
        return Estimate(criterion=unit.name, params=params, value=nan, std_error=nan, method=method, n_pos=nan,
                        n_neg=nan, bounds=(0.0, 1.0), weighted=sample_weight is not None, n_clusters=n_clusters)
    value, se, n, dec, resampler, accel, clusters = parts
    n_clusters = None if clusters is None else clusters[1]
    return Estimate(criterion=unit.name, params=params, value=value, std_error=se, method=method, n_pos=n,
                    n_neg=float("nan"), bounds=(0.0, 1.0), weighted=sample_weight is not None, decomposition=dec,
                    n_clusters=n_clusters,
                    _inference=Inference(resampler, accel, "pairs" if clusters is None else "clusters"))


def _from_sample(unit, params, sample, method, bandwidth) -> Estimate:
    fit = _core.fit_criterion(unit, sample, bandwidth, sided=True)
    c = sample.mass_scale
    se = float(np.sqrt(_core.projection_variance(fit, lambda: sample.dense, c)))

    def resampler(n_resamples, random_state, _s=sample, _b=fit.batch):
        return _core.bootstrap_values(_s, _b, n_resamples, random_state)

    def accel(_f=fit, _s=sample):
        return _core.acceleration(_f, lambda: _s.dense, _s.mass_scale)

    t = sample.table
    return Estimate(criterion=unit.name, params=params, value=fit.value, std_error=se, method=method,
                    n_pos=t.n_pos * c, n_neg=t.n_neg * c, bounds=fit.bounds, weighted=sample.w is not None,
                    _inference=Inference(resampler, accel, "table"))


def _clustered(unit, params, is_pos, s, w, scale, clusters, method, bandwidth) -> Estimate:
    """The estimate over clusters: every row's projection term
    (:func:`rankwise.stats._core.terms_by_row`), summed by cluster within each class, the
    variance over clusters (:mod:`rankwise.stats._variance`); the bootstrap resamples
    whole clusters."""
    warn_few_clusters(is_pos, w, clusters, f"estimate({unit.name!r})")
    if not unit.has_projection:
        t = _core.Sample(is_pos, s, w, mass_scale=scale, clusters=clusters)
        value = unit.value(t.table)
        _, bounds = unit.scale(value, (), {}, t.table.n_pos, t.table.n_neg)
        se, accel = float("nan"), None
    else:
        values, bounds, H, rows = _core.terms_by_row(unit, is_pos, [s], w, scale, bandwidth)
        value, bounds = float(values[0]), bounds[0]
        tops = _variance._power_of_two_tops(H)
        if tops[0] != 1.0:
            for Hc in H:
                Hc /= tops[0]
        sums = [_variance.cluster_sums(Hc, idx, w, clusters) for Hc, idx in zip(H, rows)]
        var = float(_variance.covariance_from_cluster_sums(sums, clusters[1])[0, 0]) * tops[0] ** 2
        se = float(np.sqrt(max(var, 0.0))) if np.isfinite(var) else float("nan")  # -1e-33: rounding of 0
        del H

        def accel(_sums=sums):  # for BCa intervals only: computed when one asks for it
            return _variance.cluster_acceleration(_sums)

    made = []

    def resampler(n_resamples, random_state):
        if not made:  # the sample with each row's level, built when a bootstrap is first asked for
            made.append(_core.Sample(is_pos, s, w, rows=True, mass_scale=scale, clusters=clusters))

        def batch(A, B, _u=unit):
            return _u.values(MassRows(A, B))

        return _core.bootstrap_values(made[0], batch, n_resamples, random_state)

    n_pos = float(is_pos.sum() if w is None else w[is_pos].sum()) * scale
    n_neg = float((~is_pos).sum() if w is None else w[~is_pos].sum()) * scale
    return Estimate(criterion=unit.name, params=params, value=value, std_error=se, method=method, n_pos=n_pos,
                    n_neg=n_neg, bounds=bounds, weighted=w is not None, n_clusters=clusters[1],
                    _inference=Inference(resampler, accel, "clusters"))


def estimate_many(y_true, y_score, criteria, *, sample_weight=None, pos_label=None, clusters=None) -> list[Estimate]:
    """:func:`estimate` for several criteria of one score column, sharing one sort.

    ``criteria`` is a list of spec strings (``"auc"``, ``"local_auc:top=0.1"``, ...); each gets
    its default method. Criteria of real-valued labels (``ranking_risk``) are estimated on
    the binary labels. Equivalent to calling :func:`estimate` for each, at the cost of one
    rank table. ``clusters``: as in :func:`estimate` (``ranking_risk`` then gets ``"hajek"``).
    """
    return list(iter_estimates(y_true, y_score, criteria, sample_weight=sample_weight, pos_label=pos_label,
                               clusters=clusters))


def iter_estimates(y_true, y_score, criteria, *, sample_weight=None, pos_label=None, clusters=None):
    """:func:`estimate_many` one estimate at a time: a caller that drops each estimate after
    use holds one criterion's projection in memory, not all of them."""
    specs = [resolve_criterion(c, {}, "estimate_many") for c in criteria]
    is_pos, s, w, defined, scale = check_binary_inputs(y_true, y_score, sample_weight, pos_label=pos_label,
                                                       return_scale=True)
    clusters = check_clusters(clusters, is_pos.shape[0], "estimate_many")
    if clusters is not None:
        for unit, params in specs:
            if kind_of(unit).name == "real":
                yield _pair_estimate(unit, params, is_pos.astype(float), s, sample_weight, "hajek", clusters[0])
            elif not defined:
                yield _undefined(unit, params, check_method(None, unit), w is not None, clusters)
            else:
                wu, su = _criteria.table_weights(unit, w, scale)
                yield _clustered(unit, params, is_pos, s, wu, su, clusters, check_method(None, unit), None)
        return
    if defined and use_ranges(s.shape[0], w, _fine([u for u, _ in specs])):
        yield from _by_ranges(specs, is_pos, s, sample_weight)
        return
    samples = {}  # one sample per weight scale in use (one, unless the weights had to be scaled)
    for unit, params in specs:
        method = check_method(None, unit)
        if kind_of(unit).name == "real":
            yield _pair_estimate(unit, params, is_pos.astype(float), s, sample_weight, method)
        elif not defined:
            yield _undefined(unit, params, method, w is not None)
        else:
            wu, su = _criteria.table_weights(unit, w, scale)
            if su not in samples:
                samples[su] = _core.Sample(is_pos, s, wu, mass_scale=su)
            yield _from_sample(unit, params, samples[su], method, None)


def _fine(units) -> bool:
    """Whether the range path reads these units in fine ranges
    (:func:`rankwise._kernels.range_rows`): when one of them has a projection that is
    not read off the class sides, whose ranges far from its cut are then flat."""
    return any(kind_of(u).name == "binary" and u.has_projection and not u.side_projected for u in units)


def _by_ranges(specs, is_pos, s, sample_weight, methods=None, bandwidth=None):
    """:func:`iter_estimates` on a large unweighted sample: values and analytic standard
    errors range by range (:func:`rankwise.stats._core.fit_by_ranges`, one sort for all
    criteria, memory of one range at a time); the bootstrap builds the whole table when
    first asked for."""
    ranked = [(u, p) for u, p in specs if not kind_of(u).name == "real"]
    pos, neg = class_sorted(is_pos, s)
    units = [u for u, _ in ranked]
    fits = iter(_core.fit_by_ranges(units, pos, neg, bandwidth, range_rows(_fine(units))))  # in the order of specs
    P, M = float(pos.shape[0]), float(neg.shape[0])
    del pos, neg
    for i, (unit, params) in enumerate(specs):
        method = check_method(None, unit) if methods is None else methods[i]
        if kind_of(unit).name == "real":
            yield _pair_estimate(unit, params, is_pos.astype(float), s, sample_weight, method)
            continue
        value, se, bounds = next(fits)
        whole = _WholeTable(unit, params, method, is_pos, s, bandwidth)
        yield Estimate(criterion=unit.name, params=params, value=value, std_error=se, method=method, n_pos=P,
                       n_neg=M, bounds=bounds, _inference=Inference(whole, whole.acceleration, "ranges"))


class _WholeTable:
    """The resampler of an estimate made range by range: the stratified bootstrap and its
    BCa acceleration read the whole rank table, built (once) when first asked for."""

    def __init__(self, unit, params, method, is_pos, s, bandwidth=None):
        self._args = (unit, params, method, is_pos, s, bandwidth)
        self._est = None

    def _full(self) -> "Estimate":
        if self._est is None:
            unit, params, method, is_pos, s, bandwidth = self._args
            self._est = _from_sample(unit, params, _core.Sample(is_pos, s, None), method, bandwidth)
        return self._est

    def __call__(self, n_resamples, random_state):
        return self._full()._inference.resample(n_resamples, random_state)

    def acceleration(self) -> float:
        return self._full()._acceleration()
