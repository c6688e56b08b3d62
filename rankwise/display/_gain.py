"""``GainDisplay``: the cumulative gain curve, or the lift curve, of a ranking."""

from __future__ import annotations

from typing import Any

import numpy as np

from .._validation import check_choice, check_param
from ._common import CURVE_GID, CurveDisplay

__all__ = ["GainDisplay"]

KINDS = ("gain", "lift")


class GainDisplay(CurveDisplay):
    r"""The cumulative gain curve (or the lift curve) of one scorer.

    Built by :meth:`from_predictions` or :meth:`from_estimator`, or from computed data
    (then call :meth:`plot`). Several scorers overlay on one axes by passing the same
    ``ax`` (20 distinct colours).

    Parameters
    ----------
    fraction_targeted, fraction_captured, thresholds : ndarray
        The gain curve, as :func:`rankwise.gain_curve` returns it (by decreasing
        threshold, from (0, 0)).
    kind : {"gain", "lift"}
        What :meth:`plot` draws: the gain curve, or the lift
        ``fraction_captured / fraction_targeted``.
    at : float in (0, 1]
        The targeted share whose gain (or lift) the legend states.
    name : str, optional
        Drawn literally (never as mathtext).
    pos_label : optional

    Attributes
    ----------
    lift : ndarray
        The lift at the gain curve's points after (0, 0): :func:`rankwise.lift_curve`'s.
    line_ : matplotlib Line2D
    chance_level_ : matplotlib Line2D or None
        A random ranking: the diagonal (gain) or lift 1.
    ax_, figure_

    Notes
    -----
    Targeting the rows scored ``>= t`` reaches the share
    :math:`\mathrm{targeted}(t) = \sum_i w_i \mathbf 1\{s_i \ge t\} / \sum_i w_i` of the
    population and captures the share
    :math:`\mathrm{captured}(t) = \sum_{i: y_i = 1} w_i \mathbf 1\{s_i \ge t\} / n_+` of
    the positives; the lift is their ratio. A tied group of scores is targeted all or
    nothing, so the gain is straight between its corner points (the expected gain of
    targeting a random part of the group), and the lift, the gain divided by the
    targeted share, is drawn exactly between them, not as straight segments.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from rankwise.display import GainDisplay
    >>> d = GainDisplay.from_predictions([1, 0, 1, 0], [0.9, 0.8, 0.7, 0.1], at=0.25)
    >>> d.fraction_targeted.tolist(), d.fraction_captured.tolist()
    ([0.0, 0.25, 0.5, 0.75, 1.0], [0.0, 0.5, 0.5, 1.0, 1.0])
    >>> d.lift.round(4).tolist()
    [2.0, 1.0, 1.3333, 1.0]
    >>> d.line_.get_label()
    'top 25%: 50.0% of positives'
    """

    def __init__(self, *, fraction_targeted, fraction_captured, thresholds=None, kind: str = "gain",
                 at: float = 0.1, name: str | None = None, pos_label: Any = None):
        self.fraction_targeted = fraction_targeted
        self.fraction_captured = fraction_captured
        self.thresholds = thresholds
        self.kind = kind
        self.at = at
        self.name = name
        self.pos_label = pos_label

    @property
    def lift(self) -> np.ndarray:
        with np.errstate(invalid="ignore", divide="ignore"):
            return self.fraction_captured[1:] / self.fraction_targeted[1:]

    def gain_at(self, fraction: float) -> float:
        """The gain curve at a targeted share (linear between corner points:
        :func:`rankwise.gain_at`)."""
        return float(np.interp(fraction, self.fraction_targeted, self.fraction_captured))

    def _label(self, name: str | None) -> str:
        g = self.gain_at(self.at)
        summary = (f"top {self.at:.0%}: {g:.1%} of positives" if self.kind == "gain"
                   else f"lift at top {self.at:.0%} = {g / self.at:.2f}")
        return summary if name is None else f"{name} ({summary})"

    def plot(self, ax: Any = None, *, name: str | None = None, kind: str | None = None,
             plot_chance_level: bool = True, chance_level_kw: dict | None = None, legend: bool = True,
             **kwargs) -> "GainDisplay":
        """Draw the gain (or lift) curve on ``ax`` (a new figure when None).

        Parameters
        ----------
        kind : {"gain", "lift"}, optional
            Overrides the display's ``kind``.
        plot_chance_level : bool
            Draw a random ranking's curve (once per axes).
        chance_level_kw : dict, optional
        legend : bool
        **kwargs
            Keyword arguments of the curve's ``plot``.

        Returns
        -------
        GainDisplay
        """
        func = "GainDisplay.plot"
        if kind is not None:
            self.kind = check_choice(kind, "kind", func, KINDS)
        check_choice(self.kind, "kind", func, KINDS)
        ax, fig, name, style = self._start(ax, name, {}, kwargs)
        x, g = self.fraction_targeted, self.fraction_captured
        if self.kind == "gain":
            (self.line_,) = ax.plot(x, g, label=self._label(name), gid=CURVE_GID, **style)
            return self._finish(ax, fig, chance=([0.0, 1.0], [0.0, 1.0], "random (gain = share targeted)"),
                                plot_chance_level=plot_chance_level, chance_level_kw=chance_level_kw,
                                xlabel="Share of the population targeted (highest scores first)",
                                ylabel="Share of positives captured", legend=legend, ci=None, what="",
                                loc="lower right")
        # The lift between corner points is the straight gain over the targeted share:
        # drawn on a fine grid, exact at every point drawn.
        dense = np.union1d(x[1:], np.linspace(0.0, 1.0, 401)[1:])
        with np.errstate(invalid="ignore", divide="ignore"):
            lift = np.interp(dense, x, g) / dense
        (self.line_,) = ax.plot(dense, lift, label=self._label(name), gid=CURVE_GID, **style)
        self._finish(ax, fig, chance=([0.0, 1.0], [1.0, 1.0], "random (lift = 1)"),
                     plot_chance_level=plot_chance_level, chance_level_kw=chance_level_kw,
                     xlabel="Share of the population targeted (highest scores first)", ylabel="Lift",
                     legend=legend, ci=None, what="", loc="upper right", square=False)
        top = max((np.nanmax(line.get_ydata()) for line in ax.get_lines() if line.get_gid() == CURVE_GID),
                  default=1.0)
        ax.set(xlim=(0.0, 1.0), ylim=(0.0, 1.05 * max(top, 1.0) if np.isfinite(top) else 1.05))
        return self

    @classmethod
    def from_predictions(cls, y_true, y_score, *, sample_weight=None, pos_label=None, name: str | None = None,
                         ax: Any = None, kind: str = "gain", at: float = 0.1, **kwargs) -> "GainDisplay":
        """Compute the gain curve of ``y_score`` and plot it (or its lift).

        Parameters
        ----------
        y_true, y_score, sample_weight, pos_label
            As in :func:`rankwise.gain_curve` (the same checks and errors).
        name : str, optional
        ax : matplotlib Axes, optional
        kind : {"gain", "lift"}
        at : float in (0, 1]
            The targeted share whose gain (or lift) the legend states.
        **kwargs
            Passed to :meth:`plot`.
        """
        from .. import metrics

        func = "GainDisplay.from_predictions"
        check_choice(kind, "kind", func, KINDS)
        at = check_param(at, "at", func, low=0.0, high=1.0, low_inclusive=False)
        c = metrics.gain_curve(y_true, y_score, sample_weight=sample_weight, pos_label=pos_label)
        display = cls(fraction_targeted=c.fraction_targeted, fraction_captured=c.fraction_captured,
                      thresholds=c.thresholds, kind=kind, at=at, name=name, pos_label=pos_label)
        return display.plot(ax, **kwargs)
