"""``CrossValidatedRocDisplay``: the ROC curve of every cross-validation fold (thin), their
vertical average and its pointwise band, the cross-validated AUC with its influence-curve
interval in the legend."""

from __future__ import annotations

from typing import Any

import numpy as np

from ._common import CURVE_GID, CurveDisplay, check_bool, check_level_arg, interval_text

__all__ = ["CrossValidatedRocDisplay"]


class CrossValidatedRocDisplay(CurveDisplay):
    r"""The ROC curves of the folds of a cross-validation, their mean and its band.

    Built by :meth:`from_predictions` (out-of-fold scores and each row's fold),
    :meth:`from_estimator` (a model fitted on each training set), :meth:`from_estimate`
    (a :class:`rankwise.stats.CrossValidatedEstimate`), which compute and plot, or from
    computed data (then call :meth:`plot`). The numbers held are those of
    :meth:`rankwise.stats.CrossValidatedEstimate.roc_curve` (the curves) and
    :func:`rankwise.stats.cross_validated` (the value and its interval). Several displays
    overlay on one axes as :class:`RocCurveDisplay`'s do (pass the same ``ax``): each
    takes the next colour, its folds and band in that colour.

    Parameters
    ----------
    fpr : ndarray of shape (n_points,)
        The grid of false-positive rates.
    tpr, lower, upper : ndarray of shape (n_points,)
        The mean of the fold curves at the grid and its pointwise band.
    fold_tpr : ndarray of shape (V, n_points)
        Each fold's curve at the grid.
    fold_ids : array-like of V ids
    value : float, optional
        The cross-validated criterion (the mean of the fold values), shown in the legend.
    value_ci : ConfidenceInterval, optional
        Its influence-curve interval.
    what : str
        The criterion's readable name in the legend (``"AUC"``).
    confidence_level : float
        The level of the band.
    name : str, optional
        The scorer's name, drawn literally (never as mathtext).
    pos_label : optional
        The positive label, shown on the axes when given.

    Attributes
    ----------
    line_ : matplotlib Line2D
        The mean curve.
    fold_lines_ : list of matplotlib Line2D
        Each fold's curve, in the order of ``fold_ids`` (empty with ``plot_folds=False``).
    band_ : matplotlib PolyCollection or None
        The band (None with ``plot_band=False``).
    chance_level_ : matplotlib Line2D or None
    estimate_ : CrossValidatedEstimate or None
        The estimate the display was built from (:meth:`from_estimate` and the others).
    ax_, figure_

    Notes
    -----
    Each fold's empirical ROC curve (ties as diagonal segments) is read at a grid of
    false-positive rates, at a vertical step its top, and the mean curve is the average of
    the fold curves at each grid point: vertical averaging (Fawcett 2006, "An introduction
    to ROC analysis", Pattern Recognition Letters 27). The fold curves are drawn as read at
    the grid (with the default 101 points a step between two grid points shows as a short
    slope). The band is ``mean -/+ t * sd / sqrt(V)`` at each point (Student's ``t`` with
    ``V - 1`` degrees of freedom, clipped to [0, 1]): it describes the spread between
    folds, which share training data, and is no confidence band with a coverage
    guarantee. The interval in the legend is the influence-curve interval of the
    cross-validated AUC (LeDell, Petersen & van der Laan 2015, "Computationally efficient
    confidence intervals for cross-validated area under the ROC curve estimates",
    Electronic Journal of Statistics 9).

    Examples
    --------
    Two folds of four rows; the fold AUCs are 3/4 and 1, their mean 0.875. Fold 0's scores
    run, highest first, positive (0.9), negative (0.6), positive (0.4), negative (0.1): its
    curve rises to 1/2, runs flat to a false-positive rate of 1/2 and rises there to 1 (the
    grid reads the top of that step). Fold 1 separates perfectly: its curve is 1 from 0 on.

    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from rankwise.display import CrossValidatedRocDisplay
    >>> y = [0, 0, 1, 1, 0, 0, 1, 1]
    >>> s = [0.1, 0.6, 0.4, 0.9, 0.2, 0.3, 0.5, 0.8]
    >>> d = CrossValidatedRocDisplay.from_predictions(y, s, [0, 0, 0, 0, 1, 1, 1, 1], n_points=5)
    >>> d.fpr.tolist(), d.fold_tpr.tolist()
    ([0.0, 0.25, 0.5, 0.75, 1.0], [[0.5, 0.5, 1.0, 1.0, 1.0], [1.0, 1.0, 1.0, 1.0, 1.0]])
    >>> d.tpr.tolist()
    [0.75, 0.75, 1.0, 1.0, 1.0]
    >>> d.line_.get_label()
    'mean of 2 folds (AUC = 0.875 [0.630, 1.000])'
    """

    def __init__(self, *, fpr, tpr, lower, upper, fold_tpr, fold_ids, value: float | None = None,
                 value_ci: Any = None, what: str = "AUC", confidence_level: float = 0.95, name: str | None = None,
                 pos_label: Any = None):
        self.fpr = np.asarray(fpr, dtype=np.float64)
        self.tpr = np.asarray(tpr, dtype=np.float64)
        self.lower = np.asarray(lower, dtype=np.float64)
        self.upper = np.asarray(upper, dtype=np.float64)
        self.fold_tpr = np.atleast_2d(np.asarray(fold_tpr, dtype=np.float64))
        self.fold_ids = list(np.asarray(fold_ids, dtype=object).tolist())
        k = self.fpr.shape[0]
        for field in ("tpr", "lower", "upper"):
            if getattr(self, field).shape != (k,):
                raise ValueError(f"CrossValidatedRocDisplay got {k} false-positive rates but {field} of shape "
                                 f"{getattr(self, field).shape}; they must match.")
        if self.fold_tpr.shape != (len(self.fold_ids), k):
            raise ValueError(f"CrossValidatedRocDisplay: fold_tpr must have shape ({len(self.fold_ids)}, {k}) (one "
                             f"row per fold id, one column per grid point). Got {self.fold_tpr.shape}.")
        self.value = value
        self.value_ci = value_ci
        self.what = what
        self.confidence_level = confidence_level
        self.name = name
        self.pos_label = pos_label
        self.estimate_ = None

    @property
    def n_folds(self) -> int:
        return len(self.fold_ids)

    def _label(self, name: str | None) -> str:
        head = f"mean of {self.n_folds} folds"
        if self.value is not None and np.isfinite(self.value):
            ci = self.value_ci
            if ci is not None and np.isfinite(ci.low) and np.isfinite(ci.high):
                head += f" ({self.what} = {interval_text(self.value, ci.low, ci.high)})"
            else:
                head += f" ({self.what} = {self.value:.3f})"
        return head if name is None else f"{name}: {head}"

    def plot(self, ax: Any = None, *, name: str | None = None, plot_folds: bool = True, plot_band: bool = True,
             plot_chance_level: bool = True, chance_level_kw: dict | None = None, fold_kw: dict | None = None,
             band_kw: dict | None = None, legend: bool = True, **kwargs) -> "CrossValidatedRocDisplay":
        """Draw the fold curves, the band and the mean curve on ``ax`` (a new figure when None).

        Parameters
        ----------
        ax : matplotlib Axes, optional
            Axes to draw on; curves already drawn there by a display are kept, and this
            one takes the next colour.
        name : str, optional
            Overrides the display's name in the legend.
        plot_folds : bool
            Draw each fold's curve (thin, pale).
        plot_band : bool
            Draw the pointwise band around the mean.
        plot_chance_level : bool
            Draw the diagonal (once per axes).
        chance_level_kw, fold_kw, band_kw : dict, optional
            Keyword arguments of the diagonal's and the folds' ``plot`` and of the band's
            ``fill_between``.
        legend : bool
            Draw (or redraw) the axes' legend.
        **kwargs
            Keyword arguments of the mean curve's ``plot`` (``color``, ``linestyle``, ...).

        Returns
        -------
        CrossValidatedRocDisplay
            ``self``, with ``line_``, ``fold_lines_``, ``band_``, ``chance_level_``, ``ax_``
            and ``figure_`` set.
        """
        func = "CrossValidatedRocDisplay.plot"
        for value, nm in ((plot_folds, "plot_folds"), (plot_band, "plot_band"),
                          (plot_chance_level, "plot_chance_level"), (legend, "legend")):
            check_bool(value, nm, func)
        ax, fig, name, style = self._start(ax, name, {"linewidth": 2.0}, kwargs)
        color = style["color"]
        self.fold_lines_ = []
        if plot_folds:
            for k in range(self.n_folds):
                opts = {"color": color, "linewidth": 0.7, "alpha": 0.45,
                        "label": f"each of the {self.n_folds} folds" if k == 0 else "_nolegend_", **(fold_kw or {})}
                (line,) = ax.plot(self.fpr, self.fold_tpr[k], **opts)
                self.fold_lines_.append(line)
        self.band_ = None
        if plot_band:
            opts = {"color": color, "alpha": 0.2, "linewidth": 0,
                    "label": f"pointwise {self.confidence_level:.0%} band over the folds", **(band_kw or {})}
            self.band_ = ax.fill_between(self.fpr, self.lower, self.upper, **opts)
        (self.line_,) = ax.plot(self.fpr, self.tpr, label=self._label(name), gid=CURVE_GID, **style)
        out = self._finish(ax, fig, chance=([0.0, 1.0], [0.0, 1.0], "chance (AUC = 0.5)"),
                           plot_chance_level=plot_chance_level, chance_level_kw=chance_level_kw,
                           xlabel="False positive rate", ylabel="True positive rate", legend=False, ci=None,
                           what=self.what, loc="lower right")
        if legend:
            from ._common import literal_legend

            ci = self.value_ci
            title = None if ci is None else (f"cross-validated {self.what} [{ci.confidence_level:.0%} CI, "
                                             "influence curve]")
            literal_legend(ax, loc="lower right", fontsize="small", title=title, title_fontsize="small")
        return out

    @classmethod
    def from_estimate(cls, estimate, *, n_points: int = 101, confidence_level: float | None = None,
                      name: str | None = None, ax: Any = None, pos_label: Any = None,
                      **kwargs) -> "CrossValidatedRocDisplay":
        """The curves of a :class:`rankwise.stats.CrossValidatedEstimate`.

        Parameters
        ----------
        estimate : CrossValidatedEstimate
            From :func:`rankwise.stats.cross_validated` or
            :func:`rankwise.stats.cross_validate` (any criterion: the curves are the
            folds' ROC curves, the legend shows the estimate's criterion).
        n_points : int, at least 2
            Grid points on the false-positive axis.
        confidence_level : float in (0, 1), optional
            Of the band and of the criterion's interval; default the estimate's.
        name : str, optional
        ax : matplotlib Axes, optional
        pos_label : optional
            Shown on the axes.
        **kwargs
            Passed to :meth:`plot`.
        """
        from .. import criteria
        from ..stats import CrossValidatedEstimate

        func = "CrossValidatedRocDisplay.from_estimate"
        if not isinstance(estimate, CrossValidatedEstimate):
            raise TypeError(f"The 'estimate' parameter of {func} must be a rankwise.stats.CrossValidatedEstimate "
                            f"(from cross_validated or cross_validate). Got {type(estimate).__name__} instead.")
        level = estimate.confidence_level if confidence_level is None else check_level_arg(confidence_level, func)
        roc = estimate.roc_curve(n_points, level)
        what = criteria.get((estimate.criterion, dict(estimate.params))).describe()
        display = cls(fpr=roc.fpr, tpr=roc.tpr, lower=roc.lower, upper=roc.upper, fold_tpr=roc.fold_tpr,
                      fold_ids=roc.fold_ids, value=estimate.value, value_ci=estimate.confidence_interval(level),
                      what=what, confidence_level=level, name=name, pos_label=pos_label)
        display.estimate_ = estimate
        return display.plot(ax, **kwargs)

    @classmethod
    def from_predictions(cls, y_true, y_score, folds, *, criterion: str = "auc", sample_weight=None,
                         pos_label=None, pooled: bool = False, ids=None, n_points: int = 101,
                         confidence_level: float = 0.95, name: str | None = None, ax: Any = None,
                         **kwargs) -> "CrossValidatedRocDisplay":
        """Out-of-fold scores: each fold's curve, the mean and its band, the
        cross-validated criterion with its interval.

        Parameters
        ----------
        y_true, y_score, folds, criterion, sample_weight, pos_label, pooled, ids
            As in :func:`rankwise.stats.cross_validated` (the same checks, the same
            errors): ``folds`` the fold of each row.
        n_points : int, at least 2
            Grid points on the false-positive axis.
        confidence_level : float in (0, 1)
            Of the band and the interval.
        name : str, optional
        ax : matplotlib Axes, optional
        **kwargs
            Passed to :meth:`plot`.
        """
        from .. import stats

        est = stats.cross_validated(y_true, y_score, folds, criterion=criterion, sample_weight=sample_weight,
                                    pos_label=pos_label, pooled=pooled, ids=ids, confidence_level=confidence_level)
        return cls.from_estimate(est, n_points=n_points, name=name, ax=ax, pos_label=pos_label, **kwargs)

    @classmethod
    def from_estimator(cls, estimator, X, y, *, cv: Any = 5, criterion: str = "auc", groups=None,
                       random_state: Any = None, method: str | None = None, pos_label=None, n_points: int = 101,
                       confidence_level: float = 0.95, name: str | None = None, ax: Any = None,
                       **kwargs) -> "CrossValidatedRocDisplay":
        """Fit ``estimator`` on each training set of ``cv`` and draw the held-out folds'
        curves (:func:`rankwise.stats.cross_validate`: ``cv``, ``groups``,
        ``random_state``, ``method`` and ``pos_label`` as there). The name defaults to the
        estimator's class name; the other arguments as in :meth:`from_predictions`."""
        from .. import stats

        level = check_level_arg(confidence_level, "CrossValidatedRocDisplay.from_estimator")
        est = stats.cross_validate(estimator, X, y, cv=cv, criterion=criterion, groups=groups,
                                   random_state=random_state, method=method, pos_label=pos_label)
        name = type(estimator).__name__ if name is None else name
        return cls.from_estimate(est, n_points=n_points, confidence_level=level, name=name, ax=ax,
                                 pos_label=pos_label, **kwargs)
