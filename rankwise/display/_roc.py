"""``RocCurveDisplay``: the exact empirical ROC curve, its AUC with a confidence
interval, bootstrap bands, the chance diagonal; several scorers overlay on one axes."""

from __future__ import annotations

from typing import Any


from .._validation import check_choice, check_param
from ._common import CURVE_GID, CurveDisplay, check_bool, check_level_arg, defined, legend_label

__all__ = ["RocCurveDisplay", "BANDS"]

BANDS = ("pointwise", "simultaneous", "both")


def _band_kinds(band: Any, func: str) -> tuple[str, ...]:
    if band is None:
        return ()
    check_choice(band, "band", func, BANDS)
    return ("pointwise", "simultaneous") if band == "both" else (band,)


class RocCurveDisplay(CurveDisplay):
    r"""The empirical ROC curve of one scorer, with its AUC, confidence interval and bands.

    Built by :meth:`from_predictions` or :meth:`from_estimator` (which compute and plot)
    or directly from computed data (then call :meth:`plot`), as scikit-learn's
    ``RocCurveDisplay``. Several scorers overlay on one axes: pass the same ``ax`` to each
    call; each curve takes the next of 20 distinct colours (line style as a second
    channel), the chance diagonal is drawn once, and the legend lists every curve.

    Parameters
    ----------
    fpr, tpr, thresholds : ndarray
        The curve, as :func:`rankwise.roc_curve` returns it.
    roc_auc : float, optional
        The area under the curve.
    roc_auc_ci : ConfidenceInterval, optional
        Its confidence interval (:meth:`rankwise.stats.Estimate.confidence_interval`),
        shown in the legend as ``AUC = value [low, high]``.
    band : ROCBand, optional
        Bootstrap bands from :func:`rankwise.stats.roc_band`.
    band_kind : {"pointwise", "simultaneous", "both"}
        Which of the band's two bands :meth:`plot` draws by default.
    name : str, optional
        The scorer's name, drawn literally (never as mathtext).
    pos_label : optional
        The positive label, shown on the axis when given.

    Attributes
    ----------
    line_ : matplotlib Line2D
        The ROC curve.
    chance_level_ : matplotlib Line2D or None
        The diagonal (shared by every curve on the axes).
    pointwise_band_, simultaneous_band_ : matplotlib PolyCollection or None
    ax_ : matplotlib Axes
    figure_ : matplotlib Figure

    Notes
    -----
    The curve joins the points of every distinct score threshold by straight lines:
    tied scores give a diagonal segment, and the area under the drawn curve is the AUC
    with ties counted 1/2 (:func:`rankwise.auc`). ``drop_intermediate=True`` (the
    default, as in scikit-learn) leaves out the points that lie midway on a straight
    segment, which changes neither the picture nor the area. Higher score = more likely
    positive, always: a curve under the diagonal is a scorer worse than chance, never
    silently turned round.

    The AUC interval is :func:`rankwise.stats.estimate`'s (DeLong by default, DeLong et
    al. 1988, "Comparing the areas under two or more correlated receiver operating
    characteristic curves: a nonparametric approach"). The bands come from
    :func:`rankwise.stats.roc_band`: the pointwise band is the percentile bootstrap
    interval of the true-positive rate at each false-positive rate of a grid, the
    simultaneous band covers the whole curve on that grid with the stated confidence.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from rankwise.display import RocCurveDisplay
    >>> d = RocCurveDisplay.from_predictions([0, 0, 1, 1], [0.1, 0.4, 0.4, 0.8], name="model")
    >>> d.fpr.tolist(), d.tpr.tolist()
    ([0.0, 0.0, 0.5, 1.0], [0.0, 0.5, 1.0, 1.0])
    >>> d.roc_auc   # 3 of the 4 pairs ordered, the tie (0.4, 0.4) counts 1/2
    0.875
    >>> d.line_.get_label()
    'model (AUC = 0.875 [0.529, 1.000])'
    """

    def __init__(self, *, fpr, tpr, thresholds=None, roc_auc: float | None = None, roc_auc_ci: Any = None,
                 band: Any = None, band_kind: str = "both", name: str | None = None, pos_label: Any = None):
        self.fpr = fpr
        self.tpr = tpr
        self.thresholds = thresholds
        self.roc_auc = roc_auc
        self.roc_auc_ci = roc_auc_ci
        self.band = band
        self.band_kind = band_kind
        self.name = name
        self.pos_label = pos_label

    def plot(self, ax: Any = None, *, name: str | None = None, band: Any = "default", plot_chance_level: bool = True,
             chance_level_kw: dict | None = None, band_kw: dict | None = None, legend: bool = True,
             **kwargs) -> "RocCurveDisplay":
        """Draw the curve (and its bands) on ``ax`` (a new figure when None).

        Parameters
        ----------
        ax : matplotlib Axes, optional
            Axes to draw on; curves already drawn there by a display are kept, and this
            one takes the next colour.
        name : str, optional
            Overrides the display's name in the legend.
        band : {"default", None, "pointwise", "simultaneous", "both"}
            Which bands to draw; ``"default"``: ``band_kind`` when the display holds a
            band, none otherwise.
        plot_chance_level : bool
            Draw the diagonal (once per axes).
        chance_level_kw, band_kw : dict, optional
            Keyword arguments of the diagonal's ``plot`` and the bands' ``fill_between``.
        legend : bool
            Draw (or redraw) the axes' legend.
        **kwargs
            Keyword arguments of the curve's ``plot`` (``color``, ``linestyle``, ...).

        Returns
        -------
        RocCurveDisplay
            ``self``, with ``line_``, ``ax_`` and ``figure_`` set.
        """
        func = "RocCurveDisplay.plot"
        if band == "default":
            kinds = _band_kinds(self.band_kind, func) if self.band is not None else ()
        else:
            kinds = _band_kinds(band, func)
            if kinds and self.band is None:
                raise ValueError(f"{func} cannot draw a {band!r} band: this display holds none; build it with "
                                 f"from_predictions(..., band={band!r}).")
        ax, fig, name, style = self._start(ax, name, {}, kwargs)
        label = legend_label(name, "AUC", self.roc_auc, self.roc_auc_ci)
        self.pointwise_band_ = self.simultaneous_band_ = None
        if kinds:
            b = self.band
            color = style["color"]
            lvl = f"{b.confidence_level:.0%}"
            for kind, alpha in (("simultaneous", 0.14), ("pointwise", 0.28)):
                if kind in kinds:
                    low, high = getattr(b, f"{kind}_low"), getattr(b, f"{kind}_high")
                    opts = {"color": color, "alpha": alpha, "linewidth": 0,
                            "label": f"{kind} {lvl} band" + ("" if name is None else f" ({name})"),
                            **(band_kw or {})}
                    setattr(self, f"{kind}_band_", ax.fill_between(b.fpr, low, high, **opts))
        (self.line_,) = ax.plot(self.fpr, self.tpr, label=label, gid=CURVE_GID, **style)
        return self._finish(ax, fig, chance=([0.0, 1.0], [0.0, 1.0], "chance (AUC = 0.5)"),
                            plot_chance_level=plot_chance_level, chance_level_kw=chance_level_kw,
                            xlabel="False positive rate", ylabel="True positive rate", legend=legend,
                            ci=self.roc_auc_ci, what="AUC", loc="lower right")

    @classmethod
    def from_predictions(cls, y_true, y_score, *, sample_weight=None, pos_label=None, name: str | None = None,
                         ax: Any = None, drop_intermediate: bool = True, ci: bool = True,
                         confidence_level: float = 0.95, band: str | None = None, n_resamples: int = 2000,
                         random_state: Any = None, plot_chance_level: bool = True, **kwargs) -> "RocCurveDisplay":
        """Compute the ROC curve of ``y_score`` and plot it.

        Parameters
        ----------
        y_true, y_score, sample_weight, pos_label
            As in :func:`rankwise.roc_curve` (the same checks, the same errors).
        name : str, optional
            The scorer's name in the legend.
        ax : matplotlib Axes, optional
        drop_intermediate : bool
            As in :func:`rankwise.roc_curve` (default True here: the same picture with
            fewer points).
        ci : bool
            Compute the AUC's confidence interval (:func:`rankwise.stats.estimate`,
            DeLong) and show it in the legend.
        confidence_level : float in (0, 1)
            Of the AUC interval and the bands.
        band : {None, "pointwise", "simultaneous", "both"}
            Bootstrap bands to compute and draw (:func:`rankwise.stats.roc_band`).
        n_resamples : int
            Bootstrap resamples of the bands.
        random_state : int, numpy Generator or None
            Seed of the bands' bootstrap.
        plot_chance_level : bool
        **kwargs
            Passed to :meth:`plot`.
        """
        from .. import metrics, stats

        func = "RocCurveDisplay.from_predictions"
        kinds = _band_kinds(band, func)
        check_bool(ci, "ci", func)
        level = check_level_arg(confidence_level, func)
        if kinds:
            n_resamples = check_param(n_resamples, "n_resamples", func, low=1, high=1_000_000, integer=True)
        curve = metrics.roc_curve(y_true, y_score, sample_weight=sample_weight, pos_label=pos_label,
                                  drop_intermediate=drop_intermediate)
        roc_auc, roc_auc_ci, b = float("nan"), None, None
        if defined(y_true, y_score, sample_weight, pos_label):  # else roc_curve has warned: the AUC is nan
            if ci:
                est = stats.estimate(y_true, y_score, "auc", sample_weight=sample_weight, pos_label=pos_label)
                roc_auc, roc_auc_ci = est.value, est.confidence_interval(level)
            else:
                roc_auc = metrics.auc(y_true, y_score, sample_weight=sample_weight, pos_label=pos_label)
            if kinds:
                b = stats.roc_band(y_true, y_score, confidence_level=level, n_resamples=n_resamples,
                                   random_state=random_state, sample_weight=sample_weight, pos_label=pos_label)
        display = cls(fpr=curve.fpr, tpr=curve.tpr, thresholds=curve.thresholds, roc_auc=roc_auc,
                      roc_auc_ci=roc_auc_ci, band=b, band_kind=band or "both", name=name, pos_label=pos_label)
        return display.plot(ax, plot_chance_level=plot_chance_level, **kwargs)
