"""``PrecisionRecallDisplay``: the precision-recall curve as steps, its average
precision with a confidence interval, and the prevalence line."""

from __future__ import annotations

from typing import Any

import numpy as np

from ._common import CURVE_GID, CurveDisplay, check_bool, check_level_arg, defined, legend_label

__all__ = ["PrecisionRecallDisplay"]


class PrecisionRecallDisplay(CurveDisplay):
    r"""The precision-recall curve of one scorer, with its average precision.

    Built by :meth:`from_predictions` or :meth:`from_estimator`, or from computed data
    (then call :meth:`plot`), as scikit-learn's ``PrecisionRecallDisplay``. Several
    scorers overlay on one axes by passing the same ``ax`` (20 distinct colours).

    Parameters
    ----------
    precision, recall, thresholds : ndarray
        The curve, as :func:`rankwise.precision_recall_curve` returns it (by decreasing
        threshold, from recall 0 and precision 1).
    average_precision : float, optional
    average_precision_ci : ConfidenceInterval, optional
        Shown in the legend as ``AP = value [low, high]``.
    prevalence : float, optional
        The (weighted) share of positives: the precision of a scorer that ranks at
        random, drawn as a horizontal line.
    name : str, optional
        Drawn literally (never as mathtext).
    pos_label : optional

    Attributes
    ----------
    line_ : matplotlib Line2D
    chance_level_ : matplotlib Line2D or None
        The prevalence line (one per axes and prevalence).
    ax_, figure_

    Notes
    -----
    The curve is drawn as steps: between the recalls of two successive thresholds
    :math:`R_{k-1} < R_k` the precision is :math:`P_k`, so that the area under the drawn
    curve is exactly the average precision :math:`\sum_k (R_k - R_{k-1}) P_k`
    (:func:`rankwise.average_precision`, scikit-learn's ``average_precision_score``).
    Precision is not linear between thresholds, so the points are not joined by
    straight lines (Davis & Goadrich 2006, "The relationship between precision-recall
    and ROC curves"). The interval of the average precision is Hájek's, from
    :func:`rankwise.stats.estimate`. Unlike the ROC curve the precision-recall curve
    depends on the share of positives: a random scorer's precision is the prevalence.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from rankwise.display import PrecisionRecallDisplay
    >>> d = PrecisionRecallDisplay.from_predictions([1, 0, 1, 0], [0.9, 0.8, 0.7, 0.1], ci=False)
    >>> d.recall.tolist(), d.precision.round(4).tolist()
    ([0.0, 0.5, 0.5, 1.0, 1.0], [1.0, 1.0, 0.5, 0.6667, 0.5])
    >>> round(d.average_precision, 4), d.prevalence
    (0.8333, 0.5)
    """

    def __init__(self, *, precision, recall, thresholds=None, average_precision: float | None = None,
                 average_precision_ci: Any = None, prevalence: float | None = None, name: str | None = None,
                 pos_label: Any = None):
        self.precision = precision
        self.recall = recall
        self.thresholds = thresholds
        self.average_precision = average_precision
        self.average_precision_ci = average_precision_ci
        self.prevalence = prevalence
        self.name = name
        self.pos_label = pos_label

    def plot(self, ax: Any = None, *, name: str | None = None, plot_chance_level: bool = True,
             chance_level_kw: dict | None = None, legend: bool = True, **kwargs) -> "PrecisionRecallDisplay":
        """Draw the curve on ``ax`` (a new figure when None); returns ``self``.

        ``plot_chance_level`` draws the prevalence line (once per axes and prevalence);
        ``**kwargs`` go to the curve's ``plot``. See :meth:`RocCurveDisplay.plot`.
        """
        ax, fig, name, style = self._start(ax, name, {"drawstyle": "steps-pre"}, kwargs)
        label = legend_label(name, "AP", self.average_precision, self.average_precision_ci)
        (self.line_,) = ax.plot(self.recall, self.precision, label=label, gid=CURVE_GID, **style)
        chance = None
        if self.prevalence is not None and np.isfinite(self.prevalence):
            chance = ([0.0, 1.0], [self.prevalence] * 2, f"chance (AP = prevalence = {self.prevalence:.3f})")
        return self._finish(ax, fig, chance=chance, plot_chance_level=plot_chance_level,
                            chance_level_kw=chance_level_kw, xlabel="Recall", ylabel="Precision", legend=legend,
                            ci=self.average_precision_ci, what="AP", loc="lower left")

    @classmethod
    def from_predictions(cls, y_true, y_score, *, sample_weight=None, pos_label=None, name: str | None = None,
                         ax: Any = None, drop_intermediate: bool = False, ci: bool = True,
                         confidence_level: float = 0.95, plot_chance_level: bool = True,
                         **kwargs) -> "PrecisionRecallDisplay":
        """Compute the precision-recall curve of ``y_score`` and plot it.

        Parameters
        ----------
        y_true, y_score, sample_weight, pos_label, drop_intermediate
            As in :func:`rankwise.precision_recall_curve` (the same checks and errors).
        name : str, optional
        ax : matplotlib Axes, optional
        ci : bool
            Compute the average precision's confidence interval
            (:func:`rankwise.stats.estimate`, Hájek) and show it in the legend.
        confidence_level : float in (0, 1)
        plot_chance_level : bool
        **kwargs
            Passed to :meth:`plot`.
        """
        from .. import metrics, stats

        func = "PrecisionRecallDisplay.from_predictions"
        check_bool(ci, "ci", func)
        level = check_level_arg(confidence_level, func)
        curve = metrics.precision_recall_curve(y_true, y_score, sample_weight=sample_weight, pos_label=pos_label,
                                               drop_intermediate=drop_intermediate)
        # At the lowest threshold every observation is called positive: the precision
        # there is the (weighted) share of positives.
        prevalence = float(curve.precision[-1])
        ap, ap_ci = float("nan"), None
        if defined(y_true, y_score, sample_weight, pos_label):  # else the curve has warned: AP is nan
            if ci:
                est = stats.estimate(y_true, y_score, "average_precision", sample_weight=sample_weight,
                                     pos_label=pos_label)
                ap, ap_ci = est.value, est.confidence_interval(level)
            else:
                ap = metrics.average_precision(y_true, y_score, sample_weight=sample_weight, pos_label=pos_label)
        display = cls(precision=curve.precision, recall=curve.recall, thresholds=curve.thresholds,
                      average_precision=ap, average_precision_ci=ap_ci, prevalence=prevalence, name=name,
                      pos_label=pos_label)
        return display.plot(ax, plot_chance_level=plot_chance_level, **kwargs)
