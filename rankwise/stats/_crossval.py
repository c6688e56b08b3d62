r"""Cross-validated criteria with influence-curve intervals (LeDell, Petersen & van der
Laan 2015): ``cross_validated`` on out-of-fold scores, ``cross_validate`` on a model."""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .. import criteria as _criteria
from .._kernels import build_rank_table, dense, read_points
from .._labels import check_sample, kind_of
from .._validation import check_choice, check_clusters, check_groups, check_param, labels_equal, to_numpy
from . import _core, _dist
from ._estimate import DegenerateIntervalWarning, resolve_criterion
from ._results import ConfidenceInterval, fmt, fmt_count, format_rows, html_table

__all__ = ["cross_validated", "cross_validate", "CrossValidatedEstimate", "MeanROC"]

_FUNC = "cross_validated"


# --- the mean ROC curve ------------------------------------------------------------------

@dataclass(frozen=True, eq=False)
class MeanROC:
    """The fold ROC curves averaged vertically, with a pointwise band.

    Attributes
    ----------
    fpr : ndarray of shape (n_points,)
        The grid of false-positive rates, ``0, 1/(n_points - 1), ..., 1``.
    tpr : ndarray of shape (n_points,)
        The mean over the folds of each fold's true-positive rate at the grid.
    lower, upper : ndarray of shape (n_points,)
        ``tpr -/+ t * sd / sqrt(V)`` clipped to [0, 1]: ``sd`` the standard deviation of
        the fold curves at the grid point (denominator ``V - 1``), ``t`` the Student
        quantile with ``V - 1`` degrees of freedom at ``(1 + confidence_level) / 2``.
    fold_tpr : ndarray of shape (V, n_points)
        Each fold's curve at the grid, the folds in the order of ``fold_ids``.
    fold_ids : ndarray
    confidence_level : float
    """

    fpr: np.ndarray
    tpr: np.ndarray
    lower: np.ndarray
    upper: np.ndarray
    fold_tpr: np.ndarray
    fold_ids: np.ndarray
    confidence_level: float

    @property
    def n_folds(self) -> int:
        return int(self.fold_tpr.shape[0])

    def _rows(self, max_rows: int = 11):
        idx = np.unique(np.linspace(0, self.fpr.shape[0] - 1, min(max_rows, self.fpr.shape[0])).round().astype(int))
        header = ["fpr", "mean tpr", f"{self.confidence_level:.0%} band", "fold min", "fold max"]
        rows = [[fmt(self.fpr[i], 3), fmt(self.tpr[i]), f"[{fmt(self.lower[i])}, {fmt(self.upper[i])}]",
                 fmt(self.fold_tpr[:, i].min()), fmt(self.fold_tpr[:, i].max())] for i in idx]
        return header, rows

    def _title(self) -> str:
        return (f"Mean ROC curve of {self.n_folds} folds (vertical average) with a pointwise "
                f"{self.confidence_level:.0%} band over the folds")

    def summary(self) -> str:
        header, rows = self._rows()
        return self._title() + "\n" + format_rows(header, rows)

    def _repr_html_(self) -> str:
        header, rows = self._rows()
        return html_table(self._title(), header, rows, ["band: mean +/- t(V-1) sd / sqrt(V), clipped to [0, 1]"])

    def __str__(self) -> str:
        return self.summary()


# --- the result --------------------------------------------------------------------------

@dataclass(frozen=True, kw_only=True, eq=False)
class CrossValidatedEstimate:
    """A criterion averaged over cross-validation folds, with its influence-curve
    standard error.

    Attributes
    ----------
    criterion : str
    params : dict
        The criterion's parameters as given.
    value : float
        The mean of the fold values (each fold's criterion on its own out-of-fold scores).
    std_error : float
        The influence-curve standard error (LeDell, Petersen & van der Laan 2015; see
        :func:`cross_validated`).
    method : str
        ``"influence"``.
    variance : str
        How the influence values' variance is estimated: ``"influence"`` (LeDell et al.'s
        mean squares, R cvAUC's numbers) or ``"unbiased"`` (each fold's class variances
        over ``n - 1``; see :func:`cross_validated`).
    pooled : bool
        Whether the independent units are ``ids`` holding several rows (the pooled
        estimator of R cvAUC's ``ci.pooled.cvAUC``) rather than the rows.
    fold_ids : ndarray
        The folds' ids, sorted (``0 .. V-1`` for per-fold pairs).
    fold_values : ndarray
        Each fold's criterion, in the order of ``fold_ids``.
    fold_n_pos, fold_n_neg : ndarray
        Each fold's class sizes (masses with weights).
    n_folds : int
        ``V``.
    naive_std_error : float
        ``sd(fold_values) / sqrt(V)`` (denominator ``V - 1``): the standard error often
        quoted for a cross-validated criterion, shown for contrast. It treats the fold
        values as independent, which they are not (the training sets overlap), and rests on
        ``V`` numbers only.
    n_pos, n_neg : float
        The class sizes over all folds.
    n_units : int
        The independent units the standard error is taken over: the rows, or the distinct
        ``ids`` when ``pooled``.
    bounds : (float, float)
        The range of the fold-averaged criterion (the mean of the folds' ranges), used to
        clip the intervals.
    weighted : bool
    confidence_level : float
        The level of :meth:`confidence_interval`, :meth:`roc_curve` and :meth:`summary`
        when they are not given one (``cross_validated``'s ``confidence_level``).
    """

    criterion: str
    params: dict
    value: float
    std_error: float
    method: str = "influence"
    variance: str = "influence"
    pooled: bool = False
    fold_ids: np.ndarray
    fold_values: np.ndarray
    fold_n_pos: np.ndarray
    fold_n_neg: np.ndarray
    n_folds: int
    naive_std_error: float
    n_pos: float
    n_neg: float
    n_units: int
    bounds: tuple = (0.0, 1.0)
    weighted: bool = False
    confidence_level: float = 0.95
    #: Each fold's validated sample ``(is_pos, scores, weights)``, for :meth:`roc_curve`.
    _folds: tuple = field(default=(), repr=False)

    # --- intervals ---------------------------------------------------------------------
    def confidence_interval(self, confidence_level: float | None = None,
                            method: str | None = None) -> ConfidenceInterval:
        """Confidence interval for the fold-averaged criterion.

        Parameters
        ----------
        confidence_level : float in (0, 1), optional
            Default: the estimate's ``confidence_level`` (0.95 unless
            :func:`cross_validated` was given another).
        method : {"influence", "naive"}, optional
            ``"influence"`` (default): ``value -/+ z * std_error``, clipped to the
            criterion's range (R cvAUC's ``ci.cvAUC`` and ``ci.pooled.cvAUC``
            truncate to [0, 1] likewise). ``"naive"``: ``value -/+ t * naive_std_error``
            with Student's ``t`` on ``V - 1`` degrees of freedom, clipped the same way:
            the fold-spread interval, for contrast; it has no coverage guarantee.

        Returns
        -------
        ConfidenceInterval
        """
        level = _core.check_level(self.confidence_level if confidence_level is None else confidence_level,
                                  "confidence_interval")
        method = check_choice("influence" if method is None else method, "method", "confidence_interval",
                              ("influence", "naive"))
        if method == "naive":
            se = self.naive_std_error
            q = _dist.t_ppf(0.5 + level / 2.0, self.n_folds - 1)
            kind = "t"
        else:
            se = self.std_error
            q = _dist.norm_ppf(0.5 + level / 2.0)
            kind = "wald"
        if not np.isfinite(se):
            lo, hi = (float(b) for b in self.bounds)
            return ConfidenceInterval(lo, hi, level, method, kind, None, None, se)
        if se == 0:
            warnings.warn(f"The cross-validated {self.criterion} estimate {self.value:.6g} is degenerate: its {method} "
                          f"standard error is 0, so the interval collapses to a point and has no coverage guarantee.",
                          DegenerateIntervalWarning, stacklevel=2)
        lo_b, hi_b = self.bounds
        lo = float(max(self.value - q * se, lo_b))
        hi = float(min(self.value + q * se, hi_b))
        return ConfidenceInterval(lo, hi, level, method, kind, None, None, se)

    # --- the ROC curve -----------------------------------------------------------------
    def roc_curve(self, n_points: int = 101, confidence_level: float | None = None) -> MeanROC:
        """The folds' ROC curves averaged vertically, with a pointwise band.

        Parameters
        ----------
        n_points : int, at least 2
            Grid points ``0, 1/(n_points - 1), ..., 1`` on the false-positive axis.
        confidence_level : float in (0, 1), optional
            Default: the estimate's ``confidence_level``.

        Returns
        -------
        MeanROC

        Notes
        -----
        Each fold's curve is read at the grid as :func:`rankwise.stats.roc_band` reads
        the empirical curve (ties as diagonal segments; at a vertical step, its top), and
        the curves are averaged at each grid point: vertical averaging (Fawcett 2006, "An
        introduction to ROC analysis", *Pattern Recognition Letters* 27). The band is
        ``mean -/+ t * sd / sqrt(V)`` at each point, clipped to [0, 1] (Student's ``t``
        with ``V - 1`` degrees of freedom): a description of the spread between folds,
        with the caveat of ``naive_std_error`` (the fold curves share training data), not
        a band with a coverage guarantee.
        """
        n_points = check_param(n_points, "n_points", "roc_curve", low=2, high=1_000_000, integer=True)
        level = _core.check_level(self.confidence_level if confidence_level is None else confidence_level,
                                  "roc_curve")
        grid = np.linspace(0.0, 1.0, n_points)
        curves = np.empty((len(self._folds), n_points))
        for k, (is_pos, s, w) in enumerate(self._folds):
            d = dense(build_rank_table(is_pos, s, w))
            curves[k] = read_points(d.a[None, :], d.b[None, :], "fpr", grid)[0][0]
        V = curves.shape[0]
        mean = curves.mean(axis=0)
        sd = curves.std(axis=0, ddof=1)
        half = _dist.t_ppf(0.5 + level / 2.0, V - 1) * sd / np.sqrt(V)
        return MeanROC(grid, mean, np.clip(mean - half, 0.0, 1.0), np.clip(mean + half, 0.0, 1.0), curves,
                       self.fold_ids, level)

    # --- display -----------------------------------------------------------------------
    def _label(self) -> str:
        name = self.criterion
        if self.params:
            name += "(" + ", ".join(f"{k}={v if isinstance(v, str) else repr(v)}" for k, v in self.params.items()) + ")"
        return f"{name}, cross-validated over {self.n_folds} folds"

    def _rows(self, confidence_level: float | None = None):
        confidence_level = self.confidence_level if confidence_level is None else confidence_level
        header = ["method", "value", "std. error", f"{confidence_level:.0%} CI"]
        rows = []
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ic_name = "influence curve" + (" (unbiased)" if self.variance == "unbiased" else "")
            for m, what in (("influence", ic_name), ("naive", "fold SD (naive)")):
                ci = self.confidence_interval(confidence_level, m)
                rows.append([what, fmt(self.value), fmt(ci.std_error), f"[{fmt(ci.low)}, {fmt(ci.high)}]"])
        unit = (f"{self.n_units} independent units (ids; pooled)" if self.pooled else
                f"{self.n_units} rows as independent units")
        how = ("variance 'unbiased': each fold's class variances over n - 1 (DeLong 1988"
               + ("; units: Obuchowski 1997)" if self.pooled else ")") if self.variance == "unbiased" else
               "variance 'influence': mean squares over n (R cvAUC)")
        sizes = f"n+ = {fmt_count(self.n_pos)}, n- = {fmt_count(self.n_neg)}"
        notes = [sizes + (" (weighted)" if self.weighted else "") + f"; {unit}",
                 f"influence-curve standard error of LeDell, Petersen & van der Laan (2015), {how}; the naive "
                 f"one treats the fold values as independent"]
        return header, rows, notes

    def _fold_rows(self, max_rows: int = 20):
        header = ["fold", "n+", "n-", "value"]
        rows = [[str(f), fmt_count(p), fmt_count(n), fmt(v)] for f, p, n, v in
                zip(self.fold_ids.tolist(), self.fold_n_pos, self.fold_n_neg, self.fold_values)]
        if len(rows) > max_rows:
            rows = rows[: max_rows - 1] + [["...", "", "", ""]]
        return header, rows

    def summary(self, confidence_level: float | None = None) -> str:
        """A text table: the value, the influence-curve and naive standard errors and
        intervals, then each fold's class sizes and value."""
        header, rows, notes = self._rows(confidence_level)
        fh, fr = self._fold_rows()
        return (f"{self._label()}\n" + format_rows(header, rows) + "\n" + "\n".join(notes) + "\n\n"
                + format_rows(fh, fr))

    def _repr_html_(self) -> str:
        header, rows, notes = self._rows()
        fh, fr = self._fold_rows()
        return html_table(self._label(), header, rows, notes) + html_table("folds", fh, fr)

    def __str__(self) -> str:
        return self.summary()


# --- the computation ---------------------------------------------------------------------

def _split_pairs(folds: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(y_true, y_score, fold codes)`` from per-fold ``(y, s)`` pairs."""
    if isinstance(folds, (str, bytes)) or not isinstance(folds, (list, tuple)):
        raise TypeError(f"With y_true=None and y_score=None, the 'folds' parameter of {_FUNC} must be a list of "
                        f"(y_true, y_score) pairs, one per fold. Got {type(folds).__name__} instead.")
    ys, ss = [], []
    for k, pair in enumerate(folds):
        if not isinstance(pair, (list, tuple)) or len(pair) != 2:
            got = f"a {type(pair).__name__} of length {len(pair)}" if isinstance(pair, (list, tuple)) else \
                f"a {type(pair).__name__}"
            raise TypeError(f"The 'folds' parameter of {_FUNC}: item {k} must be a (y_true, y_score) pair. "
                            f"Got {got} instead.")
        y, s = to_numpy(pair[0], f"folds[{k}][0]"), to_numpy(pair[1], f"folds[{k}][1]")
        if y.shape[0] != s.shape[0]:
            raise ValueError(f"The 'folds' parameter of {_FUNC}: fold {k} has {y.shape[0]} labels and "
                             f"{s.shape[0]} scores; they must have the same length.")
        if y.shape[0] == 0:
            raise ValueError(f"The 'folds' parameter of {_FUNC}: fold {k} is empty.")
        ys.append(y)
        ss.append(s)
    if not ys:
        raise ValueError(f"The 'folds' parameter of {_FUNC} holds no fold; at least 2 are needed.")
    codes = np.repeat(np.arange(len(ys), dtype=np.int64), [y.shape[0] for y in ys])
    return np.concatenate(ys), np.concatenate(ss), codes


def _unit_of(criterion: Any, criterion_args: dict):
    unit, params = resolve_criterion(criterion, criterion_args, _FUNC)
    if kind_of(unit).name != "binary":
        raise ValueError(f"{_FUNC} averages binary criteria over folds; the criterion {unit.name!r} reads "
                         f"{kind_of(unit).name}-valued labels.")
    if not unit.has_projection:
        raise ValueError(f"The criterion {unit.name!r} has no projection (no Hajek terms), so it has no "
                         f"influence-curve interval; {_FUNC} takes criteria with one (for example 'auc').")
    return unit, params


def cross_validated(y_true, y_score, folds, *, criterion: str = "auc", sample_weight=None, pos_label=None,
                    pooled: bool = False, ids=None, confidence_level: float = 0.95,
                    variance: str = "influence", **criterion_args) -> CrossValidatedEstimate:
    r"""A criterion averaged over cross-validation folds, with a valid confidence interval.

    Parameters
    ----------
    y_true, y_score : array-like of shape (n,), or None
        Out-of-fold labels and scores, one row per observation and repetition (each
        score from the model that did not see the row). Both None: ``folds`` holds
        per-fold pairs instead.
    folds : array-like of shape (n,), or list of (y_true, y_score) pairs
        The fold of each row (ids of any type; a fold is the set of rows scored by one
        fitted model), or, with ``y_true = y_score = None``, one ``(y_true, y_score)``
        pair per fold (fold ids ``0 .. V-1``; ``sample_weight`` and ``ids`` then run
        over the pairs' rows in order).
    criterion : str
        Any binary criterion with a projection (:func:`rankwise.stats.estimate`'s
        ``"hajek"`` method): ``"auc"``, ``"gini"``, ``"partial_auc"``, ``"pnorm_push"``,
        ``"local_auc"``, ``"rank_statistic"``, ``"dcg"``, ``"ndcg"``,
        ``"average_precision"``, or a spec string such as ``"pnorm_push:p=4"``.
    sample_weight : array-like of shape (n,), optional
        Frequency weights: a row of weight 2 counts as two copies.
    pos_label : object, optional
        As in :func:`rankwise.auc`, resolved once on all the rows.
    pooled : bool, default False
        False: every row is an independent observation (R cvAUC's ``ci.cvAUC``).
        True: the independent units are ``ids``, each holding several rows (pooled
        repeated measures, R cvAUC's ``ci.pooled.cvAUC``, or repeated cross-validation,
        where each observation is scored once per repetition).
    ids : array-like of shape (n,), optional
        With ``pooled=True`` (and only then; required): the independent unit of each
        row (the patient of each visit; the observation of each repetition's score).
    confidence_level : float in (0, 1)
        The default level of the result's ``confidence_interval()``, ``roc_curve()``
        and ``summary()``.
    variance : {"influence", "unbiased"}, default "influence"
        How the variance of the influence values is estimated. ``"influence"``: LeDell
        et al.'s mean squares (R cvAUC's numbers). ``"unbiased"``: within each fold and
        class the squared centred terms are summed over ``n_vc - 1`` instead of
        ``n_vc``, which removes the downward bias of small folds (a few positives per
        fold); pooled, the analogous correction over the units of each fold. See Notes.
    **criterion_args
        The criterion's parameters (``p=4``, ``max_fpr=0.1``, ...).

    Returns
    -------
    CrossValidatedEstimate

    Raises
    ------
    ValueError
        Fewer than 2 folds, a fold without positives or without negatives (named),
        fold ids or ``ids`` of the wrong length, scores that are not finite, a criterion
        without a projection, ``pooled=True`` without ``ids``; with
        ``variance="unbiased"``, a fold with at most one of a class (at most one unit
        holding rows of a class, pooled), or pooled units with rows in several folds.

    Notes
    -----
    The estimate is the mean of the fold values, :math:`\hat\psi = \frac1V \sum_v
    \hat\psi_v`. Its target (LeDell, Petersen & van der Laan 2015, "Computationally
    efficient confidence intervals for cross-validated area under the ROC curve
    estimates", *Electronic Journal of Statistics* 9) is the mean over the folds of the
    true criterion of each fold's fitted model, on new data.

    Each fold's criterion is linearised by its projection (the Hájek terms of
    :func:`rankwise.stats.estimate`; for the AUC, DeLong's placements: a positive's share
    of negatives below it, a negative's share of positives above it, ties 1/2):
    :math:`\hat\psi_v - \psi_v \approx \frac{1}{n_{v+}}\sum_{i \in v, +}(h_i - \bar h_{v+})
    + \frac{1}{n_{v-}}\sum_{j \in v, -}(h_j - \bar h_{v-})`. With the fold's class shares
    replaced by the whole sample's, :math:`n_{v\pm} \approx n_v\, n_\pm / n`, and
    :math:`n_v \approx n / V`, the average over folds is :math:`\frac1n \sum_{\text{rows}}
    \mathrm{IC}_i` with the influence value :math:`\mathrm{IC}_i = \frac{n}{n_+}(h_i -
    \bar h_{v+})` for a positive and :math:`\frac{n}{n_-}(h_i - \bar h_{v-})` for a
    negative (:math:`v` the row's fold). Hence

    .. math:: \hat\sigma^2 = \frac1V \sum_v \frac{1}{n_v} \sum_{i \in v} \mathrm{IC}_i^2,
              \qquad \mathrm{se} = \sqrt{\hat\sigma^2 / n},

    and the interval :math:`\hat\psi \pm z\, \mathrm{se}` clipped to the criterion's
    range. For the AUC without tied scores these are exactly R cvAUC's ``ci.cvAUC``
    numbers (a test compares them to 1e-10); cvAUC's placements count a tied pair as 0
    (its value, from ROCR, counts it 1/2), rankwise's count it 1/2, so with ties the
    standard errors differ slightly. With weights, sums over rows are weighted sums and
    ``n`` is the total weight.

    **Pooled** (``pooled=True``): a unit's influence value is the sum of its rows'
    divided by the mean number of rows per unit, :math:`\bar\tau = n / I` (``I`` the
    number of units), :math:`\mathrm{IC}_g = \sum_{i \in g} \mathrm{IC}_i / \bar\tau`;
    :math:`\hat\sigma^2 = \frac1V\sum_v \frac{1}{I_v}\sum_{g \in v} \mathrm{IC}_g^2` (``I_v``
    the units with rows in fold ``v``) and :math:`\mathrm{se} = \sqrt{\hat\sigma^2 / I}`:
    ``ci.pooled.cvAUC`` when every unit lies in one fold. When a unit has rows in several
    folds (repeated cross-validation) its influence value sums all of them, the
    covariance between its scores in different repetitions included; cvAUC sums within
    each fold only (and warns that the ids should not straddle folds).

    **variance="unbiased".** Fold ``v``'s part of :math:`\hat\sigma^2` is, per class,
    :math:`(n/n_c)^2` times the mean square of the centred terms :math:`h_i - \bar h_{vc}`,
    whose expectation is :math:`(n_{vc} - 1)/n_{vc}` times their variance: the class mean
    was estimated from the same :math:`n_{vc}` rows. With 5 positives per fold the
    positive part is 20% low. The correction multiplies each fold's class sum
    :math:`\sum_{i \in v, c} \mathrm{IC}_i^2` by :math:`n_{vc}/(n_{vc} - 1)`:

    .. math:: \hat\sigma^2_u = \frac1V \sum_v \frac{1}{n_v} \sum_{c \in \{+,-\}}
              \frac{n_{vc}}{n_{vc} - 1} \sum_{i \in v, c} \mathrm{IC}_i^2,

    so that one fold's part is DeLong's variance (DeLong, DeLong & Clarke-Pearson 1988,
    "Comparing the areas under two or more correlated receiver operating characteristic
    curves: a nonparametric approach", *Biometrics* 44), class variances over
    :math:`n_{vc} - 1`, where ``"influence"`` gives it over :math:`n_{vc}`. It needs more
    than one of each class in every fold (weights: a class mass above 1). Pooled, with
    every unit inside one fold, a unit's influence value splits into its positive rows'
    part :math:`a_g` and its negative rows' part :math:`b_g`, and fold ``v``'s
    :math:`\sum_g \mathrm{IC}_g^2` becomes :math:`\frac{I_{v+}}{I_{v+}-1}\sum a_g^2 +
    \frac{I_{v-}}{I_{v-}-1}\sum b_g^2 + 2\frac{I_v}{I_v-1}\sum a_g b_g` (``I_v+``,
    ``I_v-``: the fold's units holding positive, negative rows): the clustered-AUC
    variance of Obuchowski (1997, "Nonparametric analysis of clustered ROC curve data",
    *Biometrics* 53), which is the row formula when every unit is one row. Units with rows
    in several folds (repeated cross-validation) are refused: a unit's influence value
    then mixes terms centred in different folds, and no such per-fold factor makes its
    square unbiased. The interval stays ``psi_hat -/+ z se``: a Student quantile on the
    Welch-Satterthwaite degrees of freedom of the ``2V`` class variances (about
    :math:`n - 2V`, 80 with 100 rows in 10 folds) would widen it by 1-2% only.

    Examples
    --------
    Two folds of four rows, no ties: the fold AUCs are 3/4 and 1.

    >>> import rankwise as rw
    >>> y = [0, 0, 1, 1, 0, 0, 1, 1]
    >>> s = [0.1, 0.6, 0.4, 0.9, 0.2, 0.3, 0.5, 0.8]
    >>> r = rw.stats.cross_validated(y, s, [0, 0, 0, 0, 1, 1, 1, 1])
    >>> r.fold_values.tolist(), r.value
    ([0.75, 1.0], 0.875)
    >>> r.std_error
    0.125

    By hand: in fold 0 the positives beat 1/2 and 1 of the negatives and the negatives
    are beaten by 0 and 1/2 of the positives, so with ``n/n+ = n/n- = 2`` the influence
    values are ``2 * (-1/4, 1/4, 1/4, -1/4)``, mean square 1/4; fold 1 has all
    placements equal to the AUC, mean square 0. So :math:`\hat\sigma^2 = 1/8` and
    se = sqrt(1/8 / 8) = 1/8 (R cvAUC's ``ci.cvAUC`` gives the same).

    With two rows of each class per fold, ``variance="unbiased"`` doubles every class sum
    of squares (``2 / (2 - 1)``), so the variance doubles: se = sqrt(2) / 8.

    >>> u = rw.stats.cross_validated(y, s, [0, 0, 0, 0, 1, 1, 1, 1], variance="unbiased")
    >>> round(u.std_error, 6), u.variance
    (0.176777, 'unbiased')
    """
    unit, params = _unit_of(criterion, criterion_args)
    level = _core.check_level(confidence_level, _FUNC)
    variance = check_choice(variance, "variance", _FUNC, ("influence", "unbiased"))
    if not isinstance(pooled, (bool, np.bool_)):
        raise TypeError(f"The 'pooled' parameter of {_FUNC} must be a bool. Got {pooled!r} instead.")
    if y_true is None and y_score is None:
        y_true, y_score, fold_codes = _split_pairs(folds)
        fold_names = np.arange(int(fold_codes[-1]) + 1)
    elif y_true is None or y_score is None:
        raise TypeError(f"{_FUNC}: give both y_true and y_score (out-of-fold rows with 'folds' their fold ids), or "
                        f"neither (with 'folds' a list of (y_true, y_score) pairs).")
    else:
        fold_codes = None
    x = check_sample(y_true, y_score, sample_weight=sample_weight, pos_label=pos_label, func=_FUNC)
    n = x.n_rows
    if fold_codes is None:
        if isinstance(folds, (list, tuple)) and len(folds) != n and folds and isinstance(folds[0], (list, tuple)):
            raise TypeError(f"The 'folds' parameter of {_FUNC} is a list of pairs: pass y_true=None and "
                            f"y_score=None with it.")
        fold_codes, names = check_groups(folds, n, _FUNC, name="folds", unit="fold")
        fold_names = np.asarray(names)
    V = int(fold_names.shape[0])
    if V < 2:
        raise ValueError(f"The 'folds' parameter of {_FUNC} must hold at least 2 folds. Got {V}.")
    if pooled:
        if ids is None:
            raise ValueError(f"pooled=True needs the 'ids' parameter of {_FUNC}: the independent unit of each row.")
        unit_codes, n_units = check_clusters(ids, n, _FUNC, name="ids", unit="unit")
    elif ids is not None:
        raise ValueError(f"The 'ids' parameter of {_FUNC} is read with pooled=True only; pass pooled=True with it "
                         f"(the rows of one id are then one independent unit).")
    else:
        unit_codes, n_units = None, n
    is_pos, s, w, scale = x.labels, x.scores, x.weights, x.weight_scale
    mass = np.ones(n) if w is None else w
    pos_mass = np.bincount(fold_codes, weights=np.where(is_pos, mass, 0.0), minlength=V)
    neg_mass = np.bincount(fold_codes, weights=np.where(is_pos, 0.0, mass), minlength=V)
    for v in range(V):
        if not (pos_mass[v] > 0 and neg_mass[v] > 0):
            which = "positives" if not pos_mass[v] > 0 else "negatives"
            raise ValueError(f"Fold {fold_names[v].item() if hasattr(fold_names[v], 'item') else fold_names[v]!r} "
                             f"has no {which} (n+ = {fmt_count(pos_mass[v] * scale)}, "
                             f"n- = {fmt_count(neg_mass[v] * scale)}); every fold needs both classes for {_FUNC}.")
    N, N_pos, N_neg = mass.sum(), pos_mass.sum(), neg_mass.sum()
    order = np.argsort(fold_codes, kind="stable")
    starts = np.searchsorted(fold_codes[order], np.arange(V + 1))
    values = np.empty(V)
    lows, highs = np.empty(V), np.empty(V)
    ic = np.empty(n)
    fold_data = []
    for v in range(V):
        idx = order[starts[v]: starts[v + 1]]
        pv, sv = is_pos[idx], s[idx]
        wv = None if w is None else w[idx]
        fold_data.append((pv, sv, wv))
        wt, st = _criteria.table_weights(unit, wv, scale)
        vals, bnds, H, rows = _core.terms_by_row(unit, pv, [sv], wt, st, None)
        values[v] = vals[0]
        lows[v], highs[v] = bnds[0]
        mv = mass[idx]
        for Hc, r, factor in ((H[0], rows[0], N / N_pos), (H[1], rows[1], N / N_neg)):
            h = Hc[:, 0]
            hbar = np.dot(mv[r], h) / mv[r].sum()
            ic[idx[r]] = factor * (h - hbar)
    fold_mass = pos_mass + neg_mass
    if variance == "unbiased":
        sig2 = _unbiased_sig2(is_pos, mass, ic, fold_codes, fold_names, V, fold_mass, pos_mass * scale,
                              neg_mass * scale, unit_codes, n_units, N)
        se = float(np.sqrt(sig2 / (N * scale if unit_codes is None else n_units)))
    elif unit_codes is None:
        sig2 = float(np.mean(np.bincount(fold_codes, weights=mass * ic * ic, minlength=V) / fold_mass))
        se = float(np.sqrt(sig2 / (N * scale)))
    else:
        taubar = N / n_units
        ic_unit = np.bincount(unit_codes, weights=mass * ic, minlength=n_units) / taubar
        # c_g = (1/V) sum over the folds holding unit g of 1 / (units in that fold)
        cells = np.unique(fold_codes * np.int64(n_units) + unit_codes)
        cell_fold, cell_unit = cells // n_units, cells % n_units
        units_in_fold = np.bincount(cell_fold, minlength=V)
        c = np.bincount(cell_unit, weights=1.0 / units_in_fold[cell_fold], minlength=n_units) / V
        sig2 = float(np.dot(c, ic_unit * ic_unit))
        se = float(np.sqrt(sig2 / n_units))
    value = float(values.mean())
    naive = float(values.std(ddof=1) / np.sqrt(V))
    return CrossValidatedEstimate(
        criterion=unit.name, params=params, value=value, std_error=se, method="influence", variance=variance,
        pooled=bool(pooled),
        fold_ids=fold_names, fold_values=values, fold_n_pos=pos_mass * scale, fold_n_neg=neg_mass * scale,
        n_folds=V, naive_std_error=naive, n_pos=float(N_pos * scale), n_neg=float(N_neg * scale),
        n_units=int(n_units), bounds=(float(lows.mean()), float(highs.mean())), weighted=w is not None,
        confidence_level=level, _folds=tuple(fold_data))


def _fold_name(names: np.ndarray, v: int) -> str:
    name = names[v].item() if hasattr(names[v], "item") else names[v]
    return repr(name)


def _unbiased_sig2(is_pos, mass, ic, fold_codes, fold_names, V, fold_mass, n_pos, n_neg, unit_codes, n_units,
                   N) -> float:
    """``sigma^2`` of ``variance="unbiased"``: ``mass`` and ``ic`` the rows' weights and influence values,
    ``n_pos``/``n_neg`` each fold's class sizes (frequencies). Rows: each fold's class sum
    of squares times ``n_vc / (n_vc - 1)``; nested units: the positive parts, the negative
    parts and their cross products times ``I_v+ / (I_v+ - 1)``, ``I_v- / (I_v- - 1)`` and
    ``I_v / (I_v - 1)``."""
    if unit_codes is None:
        for v in range(V):
            for size, which in ((n_pos[v], "positives"), (n_neg[v], "negatives")):
                if not size > 1:
                    raise ValueError(f"variance='unbiased' divides each fold's class sums of squares by n - 1, so "
                                     f"every fold needs more than one of each class; fold "
                                     f"{_fold_name(fold_names, v)} has {fmt_count(size)} {which}. Use "
                                     f"variance='influence' (the mean squares of {_FUNC}).")
        ww = mass * ic * ic
        sq_pos = np.bincount(fold_codes, weights=np.where(is_pos, ww, 0.0), minlength=V)
        sq_neg = np.bincount(fold_codes, weights=np.where(is_pos, 0.0, ww), minlength=V)
        return float(np.mean((sq_pos * n_pos / (n_pos - 1) + sq_neg * n_neg / (n_neg - 1)) / fold_mass))
    cells = np.unique(fold_codes * np.int64(n_units) + unit_codes)
    if cells.shape[0] != n_units:
        raise ValueError(f"variance='unbiased' with pooled=True needs every unit ('ids') inside one fold (pooled "
                         f"repeated measures); here {cells.shape[0] - n_units} unit-fold pairs beyond one per unit "
                         f"(units spread over folds, as in repeated cross-validation). Use variance='influence'.")
    taubar = N / n_units
    wic = mass * ic
    a = np.bincount(unit_codes, weights=np.where(is_pos, wic, 0.0), minlength=n_units) / taubar
    b = np.bincount(unit_codes, weights=np.where(is_pos, 0.0, wic), minlength=n_units) / taubar
    has_pos = np.bincount(unit_codes, weights=is_pos.astype(float), minlength=n_units) > 0
    has_neg = np.bincount(unit_codes, weights=(~is_pos).astype(float), minlength=n_units) > 0
    fold_of = np.empty(n_units, dtype=np.int64)
    fold_of[unit_codes] = fold_codes
    I_v = np.bincount(fold_of, minlength=V).astype(float)
    I_pos = np.bincount(fold_of, weights=has_pos.astype(float), minlength=V)
    I_neg = np.bincount(fold_of, weights=has_neg.astype(float), minlength=V)
    for v in range(V):
        for size, which in ((I_pos[v], "positive"), (I_neg[v], "negative")):
            if size < 2:
                raise ValueError(f"variance='unbiased' with pooled=True divides each fold's sums of squares over "
                                 f"units by (units - 1), so every fold needs at least 2 units with {which} rows; "
                                 f"fold {_fold_name(fold_names, v)} has {int(size)}. Use variance='influence'.")
    sa = np.bincount(fold_of, weights=a * a, minlength=V)
    sb = np.bincount(fold_of, weights=b * b, minlength=V)
    sab = np.bincount(fold_of, weights=a * b, minlength=V)
    per_fold = (sa * I_pos / (I_pos - 1) + sb * I_neg / (I_neg - 1) + 2.0 * sab * I_v / (I_v - 1)) / I_v
    return float(np.mean(per_fold))


# --- from a model --------------------------------------------------------------------------

def _scores(est, X, method: str | None, pos_label: Any, func: str) -> np.ndarray:
    """The fitted model's scores of ``pos_label`` on ``X``: ``decision_function`` (higher
    = more likely ``classes_[1]``, negated when ``pos_label`` is ``classes_[0]``) or the
    ``predict_proba`` column of ``pos_label``."""
    if method is None:
        method = "decision_function" if hasattr(est, "decision_function") else "predict_proba"
    if not hasattr(est, method):
        raise TypeError(f"The estimator of {func} ({type(est).__name__}) has no {method} method; pass "
                        f"method='decision_function' or 'predict_proba', whichever it has.")
    classes = list(getattr(est, "classes_", [0, 1]))
    if len(classes) != 2:
        raise ValueError(f"{func} scores binary classifiers; the fitted {type(est).__name__} has "
                         f"{len(classes)} classes.")
    at = [k for k, c in enumerate(classes) if labels_equal(c, pos_label)]
    if not at:
        raise ValueError(f"{func}: the positive label {pos_label!r} is not among the fitted classes {classes!r} "
                         f"(a training fold without it?).")
    out = np.asarray(getattr(est, method)(X))
    if method == "predict_proba":
        if out.ndim != 2 or out.shape[1] != 2:
            raise ValueError(f"{func}: predict_proba returned shape {out.shape}; expected (n, 2).")
        return out[:, at[0]]
    out = out.reshape(out.shape[0], -1)
    if out.shape[1] != 1:
        raise ValueError(f"{func}: {method} returned {out.shape[1]} columns; expected one score per row.")
    return out[:, 0] if at[0] == 1 else -out[:, 0]


def cross_validate(estimator, X, y, *, cv: Any = 5, criterion: str = "auc", groups=None, random_state: Any = None,
                   method: str | None = None, pos_label=None, variance: str = "influence") -> CrossValidatedEstimate:
    r"""Fit a model on cross-validation folds and return its cross-validated criterion
    with the influence-curve interval of :func:`cross_validated`.

    Parameters
    ----------
    estimator : scikit-learn classifier or rankwise ranker
        Cloned and fitted on each training set (``clone(estimator).fit(X[train], y[train])``).
    X : array-like or sparse matrix of shape (n, p)
    y : array-like of shape (n,)
        Binary labels.
    cv : int, cross-validation splitter or iterable of (train, test) index pairs, default 5
        An integer ``V``: ``StratifiedKFold(V, shuffle=True, random_state=random_state)``,
        or ``StratifiedGroupKFold`` (the same arguments) when ``groups`` is given, so that
        a group's rows stay in one fold. A splitter (``RepeatedStratifiedKFold``, ...) or
        explicit pairs are used as given (``split(X, y, groups)``).
    criterion : str
        As in :func:`cross_validated`.
    groups : array-like of shape (n,), optional
        The independent unit of each row (a patient with several rows): passed to the
        splitter, and the ``ids`` of the pooled interval.
    random_state : int, numpy Generator or None
        The shuffling of the default splitter.
    method : {"decision_function", "predict_proba"}, optional
        How the fitted model scores a row; default ``decision_function`` when the
        estimator has it, else ``predict_proba`` (the positive class's column).
    pos_label : object, optional
        The positive class (default as in :func:`rankwise.auc`).
    variance : {"influence", "unbiased"}, default "influence"
        As in :func:`cross_validated`. ``"unbiased"`` is refused (``ValueError``) when
        the interval is pooled over units spread across splits (repeated
        cross-validation); with ``groups`` kept in one fold by the splitter it applies.

    Returns
    -------
    CrossValidatedEstimate
        With ``fold_ids`` the split numbers ``0, 1, ...``. The interval is pooled
        (``pooled=True``) over ``groups`` when they are given, or over the rows of ``X``
        when a row is scored in several splits (repeated cross-validation); otherwise
        every row is its own unit (``ci.cvAUC``).

    Notes
    -----
    Every row of a test set gives one out-of-fold score; the scores and their split
    numbers go to :func:`cross_validated`, which holds the definitions and the papers
    (LeDell, Petersen & van der Laan 2015).

    Examples
    --------
    >>> import numpy as np
    >>> import rankwise as rw
    >>> from sklearn.linear_model import LogisticRegression
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(200, 3))
    >>> y = (X[:, 0] + rng.normal(size=200) > 0).astype(int)
    >>> r = rw.stats.cross_validate(LogisticRegression(), X, y, cv=5, random_state=0)
    >>> r.n_folds, bool(0.7 < r.value < 0.9)
    (5, True)
    """
    from sklearn.base import clone
    from sklearn.model_selection import StratifiedGroupKFold, StratifiedKFold, check_cv
    from sklearn.utils import _safe_indexing

    func = "cross_validate"
    if method is not None:
        check_choice(method, "method", func, ("decision_function", "predict_proba"))
    check_choice(variance, "variance", func, ("influence", "unbiased"))
    y_arr = to_numpy(y, "y")
    x = check_sample(y_arr, np.zeros(y_arr.shape[0]), pos_label=pos_label, func=func)
    pos = x.pos_label
    if isinstance(cv, (int, np.integer)) and not isinstance(cv, bool):
        V = check_param(cv, "cv", func, low=2, integer=True)
        cv = (StratifiedKFold(V, shuffle=True, random_state=random_state) if groups is None else
              StratifiedGroupKFold(V, shuffle=True, random_state=random_state))
    else:
        cv = check_cv(cv, y_arr, classifier=True)
    if groups is not None:
        unit_codes, _ = check_clusters(groups, y_arr.shape[0], func, name="groups", unit="group")
    scores, labels, fold, rows = [], [], [], []
    for k, (train, test) in enumerate(cv.split(X, y_arr, groups)):
        est = clone(estimator).fit(_safe_indexing(X, train), y_arr[train])
        scores.append(np.asarray(_scores(est, _safe_indexing(X, test), method, pos, func), dtype=np.float64))
        labels.append(y_arr[test])
        fold.append(np.full(len(test), k, dtype=np.int64))
        rows.append(np.asarray(test, dtype=np.int64))
    if len(scores) < 2:
        raise ValueError(f"The 'cv' parameter of {func} gave {len(scores)} split(s); at least 2 are needed.")
    rows_all = np.concatenate(rows)
    ids = unit_codes[rows_all] if groups is not None else rows_all
    repeated = np.unique(rows_all).shape[0] < rows_all.shape[0]
    pooled = groups is not None or repeated
    return cross_validated(np.concatenate(labels), np.concatenate(scores), np.concatenate(fold), criterion=criterion,
                           pos_label=pos, pooled=pooled, ids=ids if pooled else None, variance=variance)
