"""``TimeAUCDisplay``: the time-dependent AUC(t) of a risk score against time, with its
pointwise confidence band; several risk scores overlay on one axes."""

from __future__ import annotations

from typing import Any

import numpy as np

from .._validation import check_choice
from ._common import CURVE_GID, CurveDisplay, check_bool, check_level_arg, interval_text

__all__ = ["TimeAUCDisplay"]


class TimeAUCDisplay(CurveDisplay):
    r"""The cumulative/dynamic AUC(t) of one risk score at each time, with a pointwise
    confidence band, and the mean AUC over the times in the legend.

    Built by :meth:`from_estimate` from a :class:`rankwise.survival.TimeDependentAUC`
    (:func:`rankwise.survival.cumulative_dynamic_auc`), by :meth:`from_predictions`, or
    directly from computed data (then call :meth:`plot`). Several risk scores overlay
    on one axes: pass the same ``ax`` to each call; each takes the next colour, the
    chance line at 0.5 is drawn once. **Higher risk = earlier event**: AUC(t) is how
    often a subject whose event came by ``t`` had a higher risk than one still followed
    after ``t``.

    Parameters
    ----------
    times, values : array-like
        The times and AUC(t) at each (nan where undefined: drawn as a gap).
    lows, highs : array-like, optional
        The pointwise interval at each time (the band).
    mean_value : float, optional
        The mean AUC over the times, shown in the legend with ``mean_interval``.
    mean_interval : tuple (low, high), optional
    confidence_level : float
        The level of the band and the interval (shown in the legend).
    name : str, optional
        The risk score's name, drawn literally.

    Attributes
    ----------
    line_ : matplotlib Line2D
        AUC(t), a point at each time joined by straight lines.
    band_ : matplotlib PolyCollection or None
        The pointwise band.
    chance_level_ : matplotlib Line2D or None
        The line AUC = 0.5 (shared by every curve on the axes).
    ax_, figure_

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import rankwise as rw
    >>> from rankwise.display import TimeAUCDisplay
    >>> time = [1, 2, 3, 4, 5, 6, 7, 8]
    >>> event = [1, 1, 0, 1, 1, 0, 1, 0]
    >>> risk = [0.9, 0.7, 0.8, 0.4, 0.6, 0.2, 0.3, 0.1]
    >>> d = TimeAUCDisplay.from_predictions(time, event, risk, [2, 5], name="model")
    >>> d.values.round(4).tolist()
    [0.9167, 1.0]
    >>> d.line_.get_label()
    'model (mean AUC = 0.962 [0.870, 1.000])'
    """

    pos_label = None

    def __init__(self, *, times, values, lows=None, highs=None, mean_value: float | None = None,
                 mean_interval: tuple | None = None, confidence_level: float = 0.95, name: str | None = None):
        self.times = np.asarray(times, dtype=np.float64)
        self.values = np.asarray(values, dtype=np.float64)
        if self.times.shape != self.values.shape or self.times.ndim != 1:
            raise ValueError(f"TimeAUCDisplay needs one value per time: got {self.times.shape[0]} times and "
                             f"values of shape {self.values.shape}.")
        if (lows is None) != (highs is None):
            raise ValueError("TimeAUCDisplay needs both 'lows' and 'highs' for a band, or neither.")
        self.lows = None if lows is None else np.asarray(lows, dtype=np.float64)
        self.highs = None if highs is None else np.asarray(highs, dtype=np.float64)
        for arr, nm in ((self.lows, "lows"), (self.highs, "highs")):
            if arr is not None and arr.shape != self.times.shape:
                raise ValueError(f"TimeAUCDisplay needs one '{nm}' value per time: got {arr.shape[0]} for "
                                 f"{self.times.shape[0]} times.")
        self.mean_value = mean_value
        self.mean_interval = mean_interval
        self.confidence_level = check_level_arg(confidence_level, "TimeAUCDisplay")
        self.name = name

    def _label(self, name: str | None) -> str:
        if self.mean_value is None or not np.isfinite(self.mean_value):
            return "_nolegend_" if name is None else name
        if self.mean_interval is None:
            summary = f"mean AUC = {self.mean_value:.3f}"
        else:
            summary = f"mean AUC = {interval_text(self.mean_value, *self.mean_interval)}"
        return summary if name is None else f"{name} ({summary})"

    def plot(self, ax: Any = None, *, name: str | None = None, band: bool = True, plot_chance_level: bool = True,
             chance_level_kw: dict | None = None, band_kw: dict | None = None, legend: bool = True,
             **kwargs) -> "TimeAUCDisplay":
        """Draw AUC(t) (and its band) on ``ax`` (a new figure when None).

        Parameters
        ----------
        ax : matplotlib Axes, optional
            Curves already drawn there by a display are kept; this one takes the next colour.
        name : str, optional
            Overrides the display's name in the legend.
        band : bool
            Draw the pointwise band (when the display holds one).
        plot_chance_level : bool
            Draw the line AUC = 0.5 (once per axes).
        chance_level_kw, band_kw : dict, optional
            Keyword arguments of the chance line's ``plot`` and the band's ``fill_between``.
        legend : bool
        **kwargs
            Keyword arguments of the curve's ``plot``.

        Returns
        -------
        TimeAUCDisplay
            ``self``, with ``line_``, ``band_``, ``ax_`` and ``figure_`` set.
        """
        func = "TimeAUCDisplay.plot"
        check_bool(band, "band", func)
        ax, fig, name, style = self._start(ax, name, {"marker": "o", "markersize": 3.5}, kwargs)
        self.band_ = None
        if band and self.lows is not None:
            opts = {"color": style["color"], "alpha": 0.22, "linewidth": 0,
                    "label": f"pointwise {self.confidence_level:.0%} band" + ("" if name is None else f" ({name})"),
                    **(band_kw or {})}
            self.band_ = ax.fill_between(self.times, self.lows, self.highs, **opts)
        (self.line_,) = ax.plot(self.times, self.values, label=self._label(name), gid=CURVE_GID, **style)
        lo, hi = float(np.min(self.times)), float(np.max(self.times))
        pad = 0.02 * (hi - lo) if hi > lo else 0.5
        self._finish(ax, fig, chance=([lo - pad, hi + pad], [0.5, 0.5], "chance (AUC = 0.5)"),
                     plot_chance_level=plot_chance_level, chance_level_kw=chance_level_kw, xlabel="time t",
                     ylabel="AUC(t) (higher risk = earlier event)", legend=False, ci=None, what="AUC",
                     loc="lower right", square=False)
        ax.set_ylim(min(0.0, ax.get_ylim()[0]), 1.01)
        if legend:
            from ._common import literal_legend

            literal_legend(ax, loc="lower right", fontsize="small",
                           title=f"mean AUC over the times [{self.confidence_level:.0%} CI]",
                           title_fontsize="small")
        return self

    @classmethod
    def from_estimate(cls, estimate: Any, *, confidence_level: float = 0.95, transform: str | None = None,
                      name: str | None = None, ax: Any = None, **kwargs) -> "TimeAUCDisplay":
        """Plot a :class:`rankwise.survival.TimeDependentAUC`: its AUC(t), the pointwise
        intervals at ``confidence_level`` (on the ``transform`` scale: None or
        ``"logit"``) and the mean AUC with its interval."""
        from ..survival import TimeDependentAUC

        func = "TimeAUCDisplay.from_estimate"
        if not isinstance(estimate, TimeDependentAUC):
            raise TypeError(f"The 'estimate' parameter of {func} must be a rankwise.survival.TimeDependentAUC "
                            f"(from rankwise.survival.cumulative_dynamic_auc). Got {type(estimate).__name__}.")
        level = check_level_arg(confidence_level, func)
        if transform is not None:
            check_choice(transform, "transform", func, ("logit",))
        lows, highs = estimate.confidence_intervals(level, transform=transform)
        mean_lo, mean_hi = estimate.mean_confidence_interval(level, transform=transform)
        mean_interval = (mean_lo, mean_hi) if np.isfinite(mean_lo) and np.isfinite(mean_hi) else None
        display = cls(times=estimate.times, values=estimate.values, lows=lows, highs=highs,
                      mean_value=estimate.mean_value, mean_interval=mean_interval, confidence_level=level,
                      name=name)
        return display.plot(ax, **kwargs)

    @classmethod
    def from_predictions(cls, time, event, risk, times, *, sample_weight=None, clusters=None, censoring=None,
                         confidence_level: float = 0.95, transform: str | None = None, name: str | None = None,
                         ax: Any = None, **kwargs) -> "TimeAUCDisplay":
        """Compute AUC(t) of ``risk`` at ``times`` (:func:`rankwise.survival.cumulative_dynamic_auc`,
        the same checks and errors) and plot it with its pointwise band."""
        from ..survival import cumulative_dynamic_auc

        est = cumulative_dynamic_auc(time, event, risk, times, sample_weight=sample_weight, clusters=clusters,
                                     censoring=censoring)
        return cls.from_estimate(est, confidence_level=confidence_level, transform=transform, name=name, ax=ax,
                                 **kwargs)

    @classmethod
    def from_estimator(cls, estimator, X, time, event, times, *, name: str | None = None, **kwargs
                       ) -> "TimeAUCDisplay":
        """AUC(t) of a fitted survival model's risk: ``estimator.predict(X)`` (higher = earlier
        event, as scikit-survival's models predict). The name defaults to the estimator's
        class name; other arguments as in :meth:`from_predictions`."""
        if not hasattr(estimator, "predict"):
            raise TypeError(f"The 'estimator' of TimeAUCDisplay.from_estimator must have a predict method "
                            f"returning risk scores. Got {type(estimator).__name__} instead.")
        risk = np.asarray(estimator.predict(X))
        if risk.ndim != 1:
            raise ValueError(f"TimeAUCDisplay.from_estimator needs one risk score per row: the estimator's "
                             f"predict returned an array of shape {risk.shape}.")
        name = type(estimator).__name__ if name is None else name
        return cls.from_predictions(time, event, risk, times, name=name, **kwargs)
