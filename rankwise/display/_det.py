"""``DetCurveDisplay``: the detection error trade-off curve, both axes on the
normal-deviate scale; several scorers overlay on one axes."""

from __future__ import annotations

from typing import Any

import numpy as np

from ._common import CURVE_GID, CurveDisplay, check_bool

__all__ = ["DetCurveDisplay", "DET_TICKS", "normal_deviate"]

#: The error rates marked on both axes (scikit-learn's ticks).
DET_TICKS = (0.001, 0.01, 0.05, 0.20, 0.5, 0.80, 0.95, 0.99, 0.999)
#: Both axes show the deviates in [-3, 3] (rates from 0.13% to 99.87%).
DET_LIM = (-3.0, 3.0)


def normal_deviate(rate) -> np.ndarray:
    """The standard normal quantile of ``rate``, with ``rate`` clipped to ``[eps, 1 - eps]``
    first (float64's ``eps``) so that rates 0 and 1 are drawn at a finite deviate (about
    -8.1 and 8.1, off the axes), as scikit-learn draws them; ``nan`` stays ``nan``."""
    from scipy.special import ndtri

    eps = np.finfo(np.float64).eps
    return ndtri(np.clip(np.asarray(rate, dtype=np.float64), eps, 1.0 - eps))


def _tick_label(p: float) -> str:
    return f"{p:.0%}" if (100 * p).is_integer() else f"{p:.1%}"


class DetCurveDisplay(CurveDisplay):
    r"""The detection error trade-off (DET) curve of one scorer.

    Built by :meth:`from_predictions` or :meth:`from_estimator` (which compute and plot)
    or directly from computed data (then call :meth:`plot`), as scikit-learn's
    ``DetCurveDisplay``. Several scorers overlay on one axes: pass the same ``ax`` to each
    call; each curve takes the next of 20 distinct colours, the chance line is drawn once,
    and the legend lists every curve.

    Parameters
    ----------
    fpr, fnr : ndarray
        The curve, as :func:`rankwise.det_curve` returns it.
    thresholds : ndarray, optional
        Its thresholds (kept, not drawn).
    name : str, optional
        The scorer's name, drawn literally (never as mathtext).
    pos_label : optional
        The positive label, shown on the axes when given.

    Attributes
    ----------
    line_ : matplotlib Line2D
        The DET curve, in normal deviates: its data are ``normal_deviate(fpr)`` and
        ``normal_deviate(fnr)``.
    chance_level_ : matplotlib Line2D or None
        The line of a random score (shared by every curve on the axes).
    ax_ : matplotlib Axes
    figure_ : matplotlib Figure

    Notes
    -----
    The DET curve (Martin, Doddington, Kamm, Ordowski & Przybocki 1997, "The DET curve in
    assessment of detection task performance") shows the false negative rate (misses)
    against the false positive rate (false alarms) at every threshold, both on the
    normal-deviate scale: a rate :math:`p` is drawn at :math:`\Phi^{-1}(p)`, and the axes
    are labelled with the rates. When the scores of both classes are normal, the curve is
    a straight line (of slope -1 when the two variances are equal); the farther it lies
    towards the lower left, the better the scorer. A random score gives
    :math:`\mathrm{FNR} = 1 - \mathrm{FPR}`, the line :math:`y = -x` (dashed). Rates 0 and 1
    lie at an infinite deviate; they are clipped to float64's ``eps`` and ``1 - eps``,
    as scikit-learn does, and so drawn off the axes, which show the deviates in [-3, 3].
    The held ``fpr`` and ``fnr`` are never changed.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from rankwise.display import DetCurveDisplay
    >>> d = DetCurveDisplay.from_predictions([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], name="model")
    >>> d.fpr.tolist(), d.fnr.tolist()
    ([0.5, 0.5, 0.0], [0.0, 0.5, 0.5])
    >>> d.line_.get_xydata()[1].tolist()   # the point (50%, 50%): deviates (0, 0)
    [0.0, 0.0]
    >>> [t.get_text() for t in d.ax_.get_xticklabels()][:3]
    ['0.1%', '1%', '5%']
    """

    def __init__(self, *, fpr, fnr, thresholds=None, name: str | None = None, pos_label: Any = None):
        self.fpr = fpr
        self.fnr = fnr
        self.thresholds = thresholds
        self.name = name
        self.pos_label = pos_label

    def plot(self, ax: Any = None, *, name: str | None = None, plot_chance_level: bool = True,
             chance_level_kw: dict | None = None, legend: bool = True, **kwargs) -> "DetCurveDisplay":
        """Draw the curve on ``ax`` (a new figure when None), on normal-deviate axes.

        Parameters
        ----------
        ax : matplotlib Axes, optional
            Axes to draw on; curves already drawn there by a display are kept, and this
            one takes the next colour.
        name : str, optional
            Overrides the display's name in the legend.
        plot_chance_level : bool
            Draw the line of a random score, ``FNR = 1 - FPR`` (once per axes).
        chance_level_kw : dict, optional
            Keyword arguments of that line's ``plot``.
        legend : bool
            Draw (or redraw) the axes' legend (when a curve has a name).
        **kwargs
            Keyword arguments of the curve's ``plot`` (``color``, ``linestyle``, ...).

        Returns
        -------
        DetCurveDisplay
            ``self``, with ``line_``, ``ax_`` and ``figure_`` set.
        """
        func = "DetCurveDisplay.plot"
        check_bool(plot_chance_level, "plot_chance_level", func)
        check_bool(legend, "legend", func)
        ax, fig, name, style = self._start(ax, name, {}, kwargs)
        label = "_nolegend_" if name is None else name
        (self.line_,) = ax.plot(normal_deviate(self.fpr), normal_deviate(self.fnr), label=label, gid=CURVE_GID,
                                **style)
        low, high = DET_LIM
        named = any(line.get_gid() == CURVE_GID and not str(line.get_label()).startswith("_nolegend")
                    for line in ax.get_lines())
        self._finish(ax, fig, chance=([low, high], [high, low], "chance (FNR = 1 - FPR)"),
                     plot_chance_level=plot_chance_level, chance_level_kw=chance_level_kw,
                     xlabel="False positive rate", ylabel="False negative rate", legend=legend and named, ci=None,
                     what="", loc="upper right", square=False)
        ticks = normal_deviate(DET_TICKS)
        labels = [_tick_label(p) for p in DET_TICKS]
        ax.set_xticks(ticks, labels)
        ax.set_yticks(ticks, labels)
        ax.set(xlim=DET_LIM, ylim=DET_LIM, aspect="equal")
        return self

    @classmethod
    def from_predictions(cls, y_true, y_score, *, sample_weight=None, pos_label=None, name: str | None = None,
                         ax: Any = None, drop_intermediate: bool = True, plot_chance_level: bool = True,
                         **kwargs) -> "DetCurveDisplay":
        """Compute the DET curve of ``y_score`` and plot it.

        Parameters
        ----------
        y_true, y_score, sample_weight, pos_label
            As in :func:`rankwise.det_curve` (the same checks, the same errors).
        name : str, optional
            The scorer's name in the legend.
        ax : matplotlib Axes, optional
        drop_intermediate : bool
            As in :func:`rankwise.det_curve` (default True here, as in scikit-learn's
            display: the same picture with fewer points).
        plot_chance_level : bool
        **kwargs
            Passed to :meth:`plot`.
        """
        from .. import metrics

        curve = metrics.det_curve(y_true, y_score, sample_weight=sample_weight, pos_label=pos_label,
                                  drop_intermediate=drop_intermediate)
        display = cls(fpr=curve.fpr, fnr=curve.fnr, thresholds=curve.thresholds, name=name, pos_label=pos_label)
        return display.plot(ax, plot_chance_level=plot_chance_level, **kwargs)
