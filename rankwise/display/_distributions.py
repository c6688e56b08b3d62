"""``ScoreDistributionDisplay``: the score distribution of each class, on common bins,
with the Kolmogorov-Smirnov threshold."""

from __future__ import annotations

from typing import Any

import numpy as np

from ._common import estimator_scores, get_axes

__all__ = ["ScoreDistributionDisplay"]

# The two classes: negatives in a cool grey-blue, positives in orange (tab10's first two
# hues would read as two scorers).
NEGATIVE_COLOR, POSITIVE_COLOR = "#4c72b0", "#dd8452"


class ScoreDistributionDisplay:
    r"""The score histogram of each class, on common bins, with the threshold where the
    classes' distributions are farthest apart (the Kolmogorov-Smirnov statistic).

    Parameters
    ----------
    distributions : ScoreDistributions
        As :func:`rankwise.score_distributions` returns it.
    name : str, optional
        The scorer's name, the axes' title (drawn literally).
    pos_label : optional

    Attributes
    ----------
    positive_, negative_ : matplotlib StepPatch
        The two histograms.
    ks_line_ : matplotlib Line2D or None
        The vertical line at ``ks_threshold``.
    ax_, figure_

    Notes
    -----
    Each class's histogram is drawn as a density (its mass over the bin width, so each
    integrates to 1 and two classes of very different sizes compare) or, with
    ``density=False``, as its (weighted) counts. The Kolmogorov-Smirnov statistic
    :math:`\max_t |\mathrm{TPR}(t) - \mathrm{FPR}(t)|` is the largest gap between the
    classes' score distribution functions, the credit-scoring KS; rows scored
    ``>= ks_threshold`` are called positive there.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from rankwise.display import ScoreDistributionDisplay
    >>> d = ScoreDistributionDisplay.from_predictions([0, 0, 1, 1], [0.1, 0.2, 0.6, 0.9], bins=[0, 0.5, 1])
    >>> d.distributions.density_positive.tolist(), d.distributions.density_negative.tolist()
    ([0.0, 2.0], [2.0, 0.0])
    >>> d.ks_line_.get_label()
    'KS = 1.000 at score 0.6'
    """

    def __init__(self, *, distributions, name: str | None = None, pos_label: Any = None):
        self.distributions = distributions
        self.name = name
        self.pos_label = pos_label

    def plot(self, ax: Any = None, *, name: str | None = None, density: bool = True, ks_line: bool = True,
             legend: bool = True, alpha: float = 0.45) -> "ScoreDistributionDisplay":
        """Draw both histograms on ``ax`` (a new figure when None).

        Parameters
        ----------
        density : bool
            Densities (default) or (weighted) counts.
        ks_line : bool
            Mark the Kolmogorov-Smirnov threshold.
        legend : bool
        alpha : float
            Fill opacity of the histograms.

        Returns
        -------
        ScoreDistributionDisplay
        """
        ax, fig = get_axes(ax, "ScoreDistributionDisplay.plot")
        d = self.distributions
        name = self.name if name is None else name
        pos = "positives" if self.pos_label is None else f"positives ({self.pos_label})"
        kind = "density" if density else "count"
        for attr, values, colour, label, n in (
                ("negative_", d.density_negative if density else d.count_negative, NEGATIVE_COLOR, "negatives",
                 d.n_neg),
                ("positive_", d.density_positive if density else d.count_positive, POSITIVE_COLOR, pos, d.n_pos)):
            shown = np.nan_to_num(np.asarray(values, dtype=np.float64))
            setattr(self, attr, ax.stairs(shown, d.bin_edges, fill=True, alpha=alpha, color=colour,
                                          label=f"{label} (n = {n:g})"))
        self.ks_line_ = None
        if ks_line and np.isfinite(d.ks_statistic):
            self.ks_line_ = ax.axvline(d.ks_threshold, color="#333333", linestyle="--", linewidth=1.0,
                                       label=f"KS = {d.ks_statistic:.3f} at score {d.ks_threshold:.3g}")
        ax.set_xlabel("Score")
        ax.set_ylabel(kind.capitalize())
        if name is not None:
            ax.set_title(str(name), fontsize="medium", parse_math=False)
        if legend:
            ax.legend(fontsize="small")
        self.ax_, self.figure_ = ax, fig
        return self

    @classmethod
    def from_predictions(cls, y_true, y_score, *, bins=10, quantiles=(0.05, 0.25, 0.5, 0.75, 0.95),
                         sample_weight=None, pos_label=None, name: str | None = None, ax: Any = None,
                         **kwargs) -> "ScoreDistributionDisplay":
        """Compute each class's score distribution and plot it.

        Parameters
        ----------
        y_true, y_score, bins, quantiles, sample_weight, pos_label
            As in :func:`rankwise.score_distributions` (the same checks and errors).
        name : str, optional
            The title.
        ax : matplotlib Axes, optional
        **kwargs
            Passed to :meth:`plot` (``density``, ``ks_line``, ...).
        """
        from .. import metrics

        d = metrics.score_distributions(y_true, y_score, bins=bins, quantiles=quantiles, sample_weight=sample_weight,
                                        pos_label=pos_label)
        return cls(distributions=d, name=name, pos_label=pos_label).plot(ax, **kwargs)

    @classmethod
    def from_estimator(cls, estimator, X, y, *, pos_label=None, name: str | None = None, **kwargs):
        """Each class's distribution of a fitted estimator's score (as
        :meth:`RocCurveDisplay.from_estimator` reads it); the rest as in
        :meth:`from_predictions`."""
        s = estimator_scores(estimator, X, pos_label, "ScoreDistributionDisplay.from_estimator")
        name = type(estimator).__name__ if name is None else name
        return cls.from_predictions(y, s, pos_label=pos_label, name=name, **kwargs)
