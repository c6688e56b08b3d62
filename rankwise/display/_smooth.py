"""``SmoothROCDisplay``: a smoothed ROC curve (binormal or kernel density) drawn over the
empirical one; several scorers overlay on one axes."""

from __future__ import annotations

from typing import Any

import numpy as np

from ._common import CURVE_GID, CurveDisplay, check_bool

__all__ = ["SmoothROCDisplay"]


class SmoothROCDisplay(CurveDisplay):
    r"""A smoothed ROC curve (:func:`rankwise.smooth_roc`) over the empirical curve.

    Built by :meth:`from_predictions` or :meth:`from_estimator` (which compute and plot)
    or directly from computed data (then call :meth:`plot`). Several scorers overlay on one
    axes: pass the same ``ax`` to each call; each takes the next colour, the chance line is
    drawn once, and the legend lists every smoothed curve.

    Parameters
    ----------
    fpr, tpr : ndarray
        The smoothed curve (``SmoothROC.fpr``, ``SmoothROC.tpr``).
    roc_auc : float, optional
        Its area, shown in the legend.
    method : str, optional
        ``"binormal"`` or ``"density"``, shown in the legend.
    empirical_fpr, empirical_tpr : ndarray, optional
        The empirical curve (:func:`rankwise.roc_curve`), drawn thin beneath.
    name : str, optional
        The scorer's name, drawn literally (never as mathtext).
    pos_label : optional
        The positive label, shown on the axes when given.

    Attributes
    ----------
    line_ : matplotlib Line2D
        The smoothed curve (its data are ``fpr``, ``tpr`` exactly).
    empirical_line_ : matplotlib Line2D or None
        The empirical curve, in the same colour, thin and faint.
    chance_level_ : matplotlib Line2D or None
    curve_ : SmoothROC or None
        The computed curve (:meth:`from_predictions`), for its ``summary()`` and interval.
    ax_ : matplotlib Axes
    figure_ : matplotlib Figure

    Notes
    -----
    See :func:`rankwise.smooth_roc` for the two methods: the binormal model (Metz 1978,
    "Basic principles of ROC analysis") fitted by least squares on the empirical points on
    normal-deviate axes, and the kernel density method of Zou, Hall & Shapiro (1997,
    "Smooth non-parametric receiver operating characteristic (ROC) curves for continuous
    diagnostic tests"). The held arrays are never changed by drawing.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from rankwise.display import SmoothROCDisplay
    >>> d = SmoothROCDisplay.from_predictions([0, 0, 0, 0, 1, 1, 1, 1], [1, 2, 3, 4, 2, 3, 4, 5], name="model")
    >>> round(d.roc_auc, 4)
    0.6833
    >>> d.line_.get_label()
    'model (binormal, AUC = 0.683)'
    """

    def __init__(self, *, fpr, tpr, roc_auc: float | None = None, method: str | None = None, empirical_fpr=None,
                 empirical_tpr=None, name: str | None = None, pos_label: Any = None):
        self.fpr = fpr
        self.tpr = tpr
        self.roc_auc = roc_auc
        self.method = method
        self.empirical_fpr = empirical_fpr
        self.empirical_tpr = empirical_tpr
        self.name = name
        self.pos_label = pos_label
        self.curve_ = None

    def plot(self, ax: Any = None, *, name: str | None = None, plot_empirical: bool = True,
             empirical_kw: dict | None = None, plot_chance_level: bool = True, chance_level_kw: dict | None = None,
             legend: bool = True, **kwargs) -> "SmoothROCDisplay":
        """Draw the smoothed curve (and the empirical one beneath) on ``ax`` (a new figure
        when None).

        Parameters
        ----------
        ax : matplotlib Axes, optional
        name : str, optional
            Overrides the display's name in the legend.
        plot_empirical : bool
            Draw the empirical curve, when held, thin and faint in the same colour.
        empirical_kw : dict, optional
            Keyword arguments of the empirical curve's ``plot``.
        plot_chance_level : bool
            Draw the diagonal of a random score (once per axes).
        chance_level_kw : dict, optional
        legend : bool
        **kwargs
            Keyword arguments of the smoothed curve's ``plot``.

        Returns
        -------
        SmoothROCDisplay
            ``self``, with ``line_``, ``empirical_line_``, ``ax_`` and ``figure_`` set.
        """
        func = "SmoothROCDisplay.plot"
        check_bool(plot_empirical, "plot_empirical", func)
        check_bool(plot_chance_level, "plot_chance_level", func)
        check_bool(legend, "legend", func)
        ax, fig, name, style = self._start(ax, name, {}, kwargs)
        parts = [p for p in (self.method, None if self.roc_auc is None else f"AUC = {self.roc_auc:.3f}") if p]
        what = ", ".join(parts)
        if name is None:
            label = f"smoothed ({what})" if parts else "_nolegend_"
        else:
            label = f"{name} ({what})" if parts else name
        self.empirical_line_ = None
        if plot_empirical and self.empirical_fpr is not None and self.empirical_tpr is not None:
            opts = {"color": style.get("color"), "linewidth": 0.8, "alpha": 0.45, "drawstyle": "default",
                    "label": "_nolegend_", **(empirical_kw or {})}
            (self.empirical_line_,) = ax.plot(self.empirical_fpr, self.empirical_tpr, **opts)
        (self.line_,) = ax.plot(self.fpr, self.tpr, label=label, gid=CURVE_GID, **style)
        named = any(line.get_gid() == CURVE_GID and not str(line.get_label()).startswith("_nolegend")
                    for line in ax.get_lines())
        return self._finish(ax, fig, chance=([0, 1], [0, 1], "chance (AUC = 0.5)"),
                            plot_chance_level=plot_chance_level, chance_level_kw=chance_level_kw,
                            xlabel="False positive rate", ylabel="True positive rate", legend=legend and named,
                            ci=None, what="", loc="lower right")

    @classmethod
    def from_predictions(cls, y_true, y_score, *, sample_weight=None, pos_label=None, name: str | None = None,
                         ax: Any = None, method: str = "binormal", n: int = 512, bw: Any = "nrd0",
                         adjust: float = 1.0, kernel: str = "gaussian", cut: float = 3.0,
                         plot_empirical: bool = True, plot_chance_level: bool = True,
                         **kwargs) -> "SmoothROCDisplay":
        """Smooth the ROC curve of ``y_score`` and plot it over the empirical curve.

        Parameters
        ----------
        y_true, y_score, pos_label, method, n, bw, adjust, kernel, cut
            As in :func:`rankwise.smooth_roc` (the same checks, the same errors).
        sample_weight : None
            Smoothing takes no weights; anything else raises TypeError.
        name : str, optional
        ax : matplotlib Axes, optional
        plot_empirical, plot_chance_level : bool
        **kwargs
            Passed to :meth:`plot`.
        """
        if sample_weight is not None:
            raise TypeError("The 'sample_weight' parameter of SmoothROCDisplay.from_predictions must be None: "
                            "smoothed ROC curves take no weights.")
        from .. import metrics

        c = metrics.smooth_roc(y_true, y_score, method=method, n=n, bw=bw, adjust=adjust, kernel=kernel, cut=cut,
                               pos_label=pos_label)
        emp = metrics.roc_curve(y_true, y_score, pos_label=pos_label)
        display = cls(fpr=c.fpr, tpr=c.tpr, roc_auc=c.auc(), method=c.method, empirical_fpr=np.asarray(emp.fpr),
                      empirical_tpr=np.asarray(emp.tpr), name=name, pos_label=pos_label)
        display.curve_ = c
        return display.plot(ax, plot_empirical=plot_empirical, plot_chance_level=plot_chance_level, **kwargs)
