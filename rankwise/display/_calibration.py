"""``CalibrationDisplay``: the reliability curve of a probability score, with per-bin
intervals, its Brier score (with an interval) and expected calibration error."""

from __future__ import annotations

from typing import Any

from ._common import CURVE_GID, CurveDisplay, check_bool, estimator_probabilities, interval_text

__all__ = ["CalibrationDisplay"]


class CalibrationDisplay(CurveDisplay):
    r"""The reliability curve: observed share of positives against mean predicted
    probability, by bin.

    Built by :meth:`from_predictions` or :meth:`from_estimator` (which reads
    ``predict_proba``), or from computed data (then call :meth:`plot`), as
    scikit-learn's ``CalibrationDisplay``. Several scorers overlay on one axes by
    passing the same ``ax``.

    Parameters
    ----------
    curve : CalibrationCurve
        As :func:`rankwise.calibration_curve` returns it (every bin, empty ones
        included; only the non-empty bins are drawn).
    brier_score : float, optional
    brier_score_ci : ConfidenceInterval, optional
    calibration_error : float, optional
        The expected calibration error over the same bins.
    name : str, optional
        Drawn literally (never as mathtext).
    pos_label : optional

    Attributes
    ----------
    line_ : matplotlib Line2D
        The curve through the non-empty bins.
    intervals_ : matplotlib LineCollection or None
        Each bin's interval for its share of positives.
    chance_level_ : matplotlib Line2D or None
        The diagonal: a calibrated score lies on it.
    ax_, figure_

    Notes
    -----
    Bin ``k`` shows :math:`(\bar p_k, \bar o_k)`, the (weighted) mean probability and
    share of positives of its rows, with Wilson's interval for the share by default
    (:func:`rankwise.calibration_curve`). The legend gives the Brier score
    :math:`\sum_i w_i (p_i - y_i)^2 / \sum_i w_i` with its normal interval and the
    expected calibration error :math:`\sum_k (W_k / W) |\bar o_k - \bar p_k|`
    (:func:`rankwise.stats.calibration`; Brier 1950, "Verification of forecasts expressed
    in terms of probability"; Naeini, Cooper & Hauskrecht 2015, "Obtaining well calibrated
    probabilities using Bayesian binning"). Calibration is about probabilities, not
    ranking: any increasing map of a score keeps its ROC curve and changes this one.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from rankwise.display import CalibrationDisplay
    >>> d = CalibrationDisplay.from_predictions([0, 0, 1, 1, 1], [0.1, 0.3, 0.35, 0.8, 0.9], n_bins=2)
    >>> d.curve.mean_predicted.round(4).tolist(), d.curve.fraction_positive.round(4).tolist()
    ([0.25, 0.85], [0.3333, 1.0])
    >>> round(d.calibration_error, 6)   # 3/5 * (1/3 - 1/4) + 2/5 * (1 - 0.85)
    0.11
    """

    def __init__(self, *, curve, brier_score: float | None = None, brier_score_ci: Any = None,
                 calibration_error: float | None = None, name: str | None = None, pos_label: Any = None):
        self.curve = curve
        self.brier_score = brier_score
        self.brier_score_ci = brier_score_ci
        self.calibration_error = calibration_error
        self.name = name
        self.pos_label = pos_label

    def _label(self, name: str | None) -> str:
        parts = []
        if self.brier_score is not None:
            b, ci = self.brier_score, self.brier_score_ci
            parts.append(f"Brier = {b:.3f}" if ci is None else f"Brier = {interval_text(b, ci.low, ci.high)}")
        if self.calibration_error is not None:
            parts.append(f"ECE = {self.calibration_error:.3f}")
        summary = ", ".join(parts)
        if name is None:
            return summary or "_nolegend_"
        return f"{name} ({summary})" if summary else name

    def plot(self, ax: Any = None, *, name: str | None = None, intervals: bool = True, ref_line: bool = True,
             legend: bool = True, **kwargs) -> "CalibrationDisplay":
        """Draw the curve (and each bin's interval) on ``ax`` (a new figure when None).

        Parameters
        ----------
        ax : matplotlib Axes, optional
        name : str, optional
        intervals : bool
            Draw each bin's interval as a vertical segment.
        ref_line : bool
            Draw the diagonal (once per axes).
        legend : bool
        **kwargs
            Keyword arguments of the curve's ``plot``.

        Returns
        -------
        CalibrationDisplay
        """
        ax, fig, name, style = self._start(ax, name, {"marker": "o", "markersize": 4}, kwargs)
        c = self.curve
        keep = c.nonempty
        self.intervals_ = None
        if intervals:
            self.intervals_ = ax.vlines(c.mean_predicted[keep], c.lower[keep], c.upper[keep], color=style["color"],
                                        linewidth=1.0, alpha=0.6)
        (self.line_,) = ax.plot(c.mean_predicted[keep], c.fraction_positive[keep], label=self._label(name),
                                gid=CURVE_GID, **style)
        return self._finish(ax, fig, chance=([0.0, 1.0], [0.0, 1.0], "perfectly calibrated"),
                            plot_chance_level=ref_line, chance_level_kw=None, xlabel="Mean predicted probability",
                            ylabel="Fraction of positives", legend=legend, ci=self.brier_score_ci, what="Brier",
                            loc="upper left")

    @classmethod
    def from_predictions(cls, y_true, y_prob, *, n_bins: int = 10, strategy: str = "uniform", sample_weight=None,
                         pos_label=None, name: str | None = None, ax: Any = None, ci: bool = True,
                         confidence_level: float = 0.95, interval: str = "wilson", ref_line: bool = True,
                         **kwargs) -> "CalibrationDisplay":
        """Compute the reliability curve of the probabilities ``y_prob`` and plot it.

        Parameters
        ----------
        y_true, y_prob, n_bins, strategy, sample_weight, pos_label, confidence_level, interval
            As in :func:`rankwise.calibration_curve` (the same checks and errors):
            ``y_prob`` in [0, 1]; the level is that of the bins' intervals and of the
            Brier score's.
        name : str, optional
        ax : matplotlib Axes, optional
        ci : bool
            Show the Brier score's interval (:func:`rankwise.stats.calibration`).
        ref_line : bool
        **kwargs
            Passed to :meth:`plot`.
        """
        from .. import metrics, stats

        func = "CalibrationDisplay.from_predictions"
        check_bool(ci, "ci", func)
        # The curve first: its checks and errors are calibration_curve's own.
        curve = metrics.calibration_curve(y_true, y_prob, n_bins=n_bins, strategy=strategy,
                                          sample_weight=sample_weight, pos_label=pos_label,
                                          confidence_level=confidence_level, interval=interval)
        summary = stats.calibration(y_true, y_prob, n_bins=n_bins, strategy=strategy, sample_weight=sample_weight,
                                    pos_label=pos_label, confidence_level=confidence_level, interval=interval)
        brier = summary.brier_score
        display = cls(curve=curve, brier_score=brier.value,
                      brier_score_ci=brier.confidence_interval(confidence_level) if ci else None,
                      calibration_error=summary.calibration_error.value, name=name, pos_label=pos_label)
        return display.plot(ax, ref_line=ref_line, **kwargs)

    _response = staticmethod(estimator_probabilities)

    @classmethod
    def from_estimator(cls, estimator, X, y, *, sample_weight=None, pos_label=None, name: str | None = None,
                       ax: Any = None, **kwargs) -> "CalibrationDisplay":
        """The reliability curve of a fitted estimator's ``predict_proba(X)`` of the
        positive class (column 1, or 0 when ``pos_label`` is its first class); the name
        defaults to the estimator's class name, the rest as in :meth:`from_predictions`."""
        return super().from_estimator(estimator, X, y, sample_weight=sample_weight, pos_label=pos_label, name=name,
                                      ax=ax, **kwargs)
