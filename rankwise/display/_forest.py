"""``ForestDisplay``: estimates with confidence intervals, one row each (criteria of a
scorer, or scorers on a criterion), or differences to a reference scorer with their
adjusted p-values."""

from __future__ import annotations

from typing import Any

import numpy as np

from ._common import check_level_arg, estimator_scores, get_axes

__all__ = ["ForestDisplay"]


def _fmt_p(p: float) -> str:
    if not np.isfinite(p):
        return "p = nan"
    return "p < 0.0001" if p < 1e-4 else f"p = {p:.4f}"


def _fmt_end(x: float) -> str:
    if np.isnan(x):
        return "nan"
    return f"{x:.3f}" if np.isfinite(x) else ("-inf" if x < 0 else "inf")


class ForestDisplay:
    r"""A forest plot: one row per estimate, its point and confidence interval.

    Rows are either values (:meth:`from_estimates`, or :meth:`from_predictions`
    without a reference: several scorers on one criterion, or several criteria of one
    scorer) or differences to a reference scorer with the p-values adjusted over the
    comparisons shown (:meth:`from_comparison`, or :meth:`from_predictions` with
    ``reference=``); the title then names the adjustment and its family.

    Parameters
    ----------
    labels : list of str
        Row labels, top to bottom, drawn literally (never as mathtext).
    values, lows, highs : array-like
        Point estimates and interval ends (an end may be infinite: a one-sided interval,
        drawn as an arrow to the edge).
    p_values : array-like, optional
        Shown beside each interval (the adjusted p-values of a comparison).
    null_value : float, optional
        A vertical reference line (0 for differences; e.g. 0.5, chance, for AUCs).
    xlabel, title : str, optional
        ``title`` is drawn literally.

    Attributes
    ----------
    points_ : matplotlib Line2D
        The point estimates.
    intervals_ : matplotlib LineCollection
        The intervals.
    null_line_ : matplotlib Line2D or None
    texts_ : list of matplotlib Text
        ``value [low, high]`` (and the p-value) right of each row.
    ax_, figure_

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from rankwise.display import ForestDisplay
    >>> y = [0, 0, 1, 1, 0, 1]
    >>> d = ForestDisplay.from_predictions(y, {"a": [0.1, 0.4, 0.35, 0.8, 0.2, 0.9],
    ...                                        "b": [0.3, 0.2, 0.1, 0.6, 0.4, 0.5]}, null_value=0.5)
    >>> d.labels, d.values.round(4).tolist()   # 8 of the 9 pairs of "a" are ordered, 6 of "b"
    (['a', 'b'], [0.8889, 0.6667])
    >>> d.texts_[0].get_text()
    '0.889 [0.581, 1.000]'
    """

    def __init__(self, *, labels, values, lows, highs, p_values=None, null_value: float | None = None,
                 xlabel: str | None = None, title: str | None = None):
        self.labels = [str(x) for x in labels]
        self.values = np.asarray(values, dtype=np.float64)
        self.lows = np.asarray(lows, dtype=np.float64)
        self.highs = np.asarray(highs, dtype=np.float64)
        self.p_values = None if p_values is None else np.asarray(p_values, dtype=np.float64)
        k = len(self.labels)
        for field in ("values", "lows", "highs") + (("p_values",) if p_values is not None else ()):
            if getattr(self, field).shape != (k,):
                raise ValueError(f"ForestDisplay got {k} labels but {getattr(self, field).size} {field}; "
                                 "they must match.")
        self.null_value = null_value
        self.xlabel = xlabel
        self.title = title

    def plot(self, ax: Any = None, *, color: str = "#1f4e79", show_values: bool = True,
             **kwargs) -> "ForestDisplay":
        """Draw the rows on ``ax`` (a new figure sized to the rows when None).

        Parameters
        ----------
        color : str
        show_values : bool
            Write ``value [low, high]`` (and the p-value) right of each row.
        **kwargs
            Keyword arguments of the points' ``plot`` (``marker``, ``markersize``, ...).

        Returns
        -------
        ForestDisplay
            ``self``, with ``points_``, ``intervals_``, ``texts_``, ``ax_`` and
            ``figure_`` set.
        """
        k = len(self.labels)
        ax, fig = get_axes(ax, "ForestDisplay.plot", figsize=(8.0, 1.1 + 0.42 * max(k, 1)))
        y = np.arange(k, dtype=float)[::-1]
        v, lo, hi = self.values, self.lows, self.highs
        finite = np.concatenate([x[np.isfinite(x)] for x in (v, lo, hi)]
                                + ([np.array([float(self.null_value)])] if self.null_value is not None else []))
        left, right = (finite.min(), finite.max()) if finite.size else (0.0, 1.0)
        pad = 0.06 * (right - left) if right > left else 0.05
        left, right = left - pad, right + pad
        self.intervals_ = ax.hlines(y, np.clip(lo, left, right), np.clip(hi, left, right), color=color,
                                    linewidth=1.6)
        for end, edge, marker in ((lo, left, "<"), (hi, right, ">")):
            open_end = np.isinf(end)
            if open_end.any():
                ax.plot(np.full(open_end.sum(), edge), y[open_end], linestyle="none", marker=marker, color=color)
        style = {"color": color, "marker": "o", "linestyle": "none", "markersize": 6}
        style.update(kwargs)
        (self.points_,) = ax.plot(v, y, **style)
        self.null_line_ = None
        if self.null_value is not None:
            self.null_line_ = ax.axvline(float(self.null_value), color="#888888", linestyle="--", linewidth=0.9)
        ax.set_xlim(left, right)
        ax.set_ylim(-0.7, k - 0.3)
        ax.set_yticks(y)
        ax.set_yticklabels(self.labels, parse_math=False)
        ax.grid(axis="x", alpha=0.3)
        if self.xlabel is not None:
            ax.set_xlabel(self.xlabel, parse_math=False)
        if self.title is not None:
            ax.set_title(self.title, fontsize="medium", parse_math=False)
        self.texts_ = []
        if show_values:
            import matplotlib.transforms as mtransforms

            trans = mtransforms.blended_transform_factory(ax.transAxes, ax.transData)
            for i in range(k):
                self.texts_.append(ax.text(1.02, y[i], self._row_text(i), transform=trans, va="center",
                                           fontsize="small", parse_math=False))
        self.ax_, self.figure_ = ax, fig
        return self

    def _row_text(self, i: int) -> str:
        """The text right of row ``i``: ``value [low, high]`` and its p-value when given."""
        text = f"{self.values[i]:.3f} [{_fmt_end(self.lows[i])}, {_fmt_end(self.highs[i])}]"
        if self.p_values is not None:
            text += f"  {_fmt_p(self.p_values[i])}"
        return text

    @classmethod
    def from_estimates(cls, estimates, *, confidence_level: float = 0.95, method: str | None = None,
                       n_resamples: int = 2000, random_state: Any = None, null_value: float | None = None,
                       ax: Any = None, **kwargs) -> "ForestDisplay":
        """One row per :class:`rankwise.stats.Estimate`.

        Parameters
        ----------
        estimates : dict name -> Estimate, or list of Estimate
            A list is labelled by each estimate's criterion (``local_auc:top=0.1``).
        confidence_level : float in (0, 1)
        method : str, optional
            Interval method of :meth:`Estimate.confidence_interval` (default: each
            estimate's own; the bootstrap for criteria without an analytic one).
        n_resamples, random_state
            For bootstrap intervals.
        null_value : float, optional
        **kwargs
            Passed to :meth:`plot`.
        """
        from .. import criteria

        func = "ForestDisplay.from_estimates"
        level = check_level_arg(confidence_level, func)
        if isinstance(estimates, dict):
            labels, items = [str(n) for n in estimates], list(estimates.values())
        else:
            items = list(estimates)
            labels = [criteria.spec_label(e.criterion, e.params) for e in items]
        if not items:
            raise ValueError(f"{func} needs at least one estimate. Got none.")
        cis = [e.confidence_interval(level, method, n_resamples=n_resamples, random_state=random_state)
               for e in items]
        crits = sorted({criteria.spec_label(e.criterion, e.params) for e in items})
        ci_methods = sorted({ci.describe() for ci in cis})
        what = crits[0] if len(crits) == 1 else "value"
        xlabel = f"{what} with {level:.0%} confidence interval ({'; '.join(ci_methods)})"
        display = cls(labels=labels, values=[e.value for e in items], lows=[ci.low for ci in cis],
                      highs=[ci.high for ci in cis], null_value=null_value, xlabel=xlabel)
        return display.plot(ax, **kwargs)

    @classmethod
    def from_comparison(cls, comparison, *, ax: Any = None, **kwargs) -> "ForestDisplay":
        """One row per difference of a :class:`rankwise.stats.Comparison` (``a - b``),
        with its interval (not adjusted) and its adjusted p-value; the title names the
        adjustment and the family it is over (``Comparison.family``)."""
        from .. import criteria

        c = comparison
        crit = criteria.spec_label(c.criterion, c.params)
        # An equivalence comparison's interval is the two-sided (2 level - 1) one of its two
        # one-sided tests (90% at 95%); a margin is named with its alternative.
        level = 2.0 * c.confidence_level - 1.0 if c.alternative == "equivalence" else c.confidence_level
        margin = getattr(c, "margin", None)
        if c.alternative == "two-sided":
            side = ""
        elif margin is not None:
            side = f", {c.alternative} margin {margin:g}"
        else:
            side = f", one-sided ({c.alternative})"
        xlabel = f"difference in {crit} with {level:.0%} confidence interval{side}"
        title = f"p-values adjusted ({c.adjust}) over {c.family}" if c.family else f"p-values adjusted ({c.adjust})"
        display = cls(labels=[f"{p.a} - {p.b}" for p in c.pairs], values=[p.difference for p in c.pairs],
                      lows=[p.low for p in c.pairs], highs=[p.high for p in c.pairs],
                      p_values=[p.p_adjusted for p in c.pairs], null_value=0.0, xlabel=xlabel, title=title)
        return display.plot(ax, **kwargs)

    @classmethod
    def from_predictions(cls, y_true, y_scores, *, criterion: str = "auc", names=None, sample_weight=None,
                         pos_label=None, method: str | None = None, reference: str | None = None,
                         adjust: str = "holm", alternative: str = "two-sided", confidence_level: float = 0.95,
                         n_resamples: int = 2000, random_state: Any = None, null_value: float | None = None,
                         ax: Any = None, **kwargs) -> "ForestDisplay":
        """Several scorers on one criterion: their values, or their differences to a reference.

        Parameters
        ----------
        y_true, sample_weight, pos_label
            As in :func:`rankwise.stats.estimate`.
        y_scores : dict name -> array-like, DataFrame, list of array-likes or 2-D array
            The scorers, as in :func:`rankwise.stats.compare` (a dict may hold one).
        criterion : str
            A criterion spec (``"auc"``, ``"local_auc:top=0.1"``, ...).
        names : list of str, optional
        method : str, optional
            Interval method (:meth:`rankwise.stats.Estimate.confidence_interval`:
            ``"delong"``, ``"hajek"``, ``"bootstrap"``, ...); with ``reference``, the
            analytic method of :func:`rankwise.stats.compare`.
        reference : str, optional
            Without it, one row per scorer: its value and interval
            (:func:`rankwise.stats.estimate`). With it, one row per other scorer: its
            difference to the reference with the p-values of
            :func:`rankwise.stats.compare` adjusted (``adjust``) over those comparisons.
        adjust, alternative
            As in :func:`rankwise.stats.compare` (with ``reference`` only).
        confidence_level : float in (0, 1)
        n_resamples, random_state
            For bootstrap intervals (criteria without an analytic one).
        null_value : float, optional
            Reference line for values (differences always get 0).
        **kwargs
            Passed to :meth:`plot`.
        """
        from .. import stats

        if reference is not None:
            c = stats.compare(y_true, y_scores, criterion, names=names, sample_weight=sample_weight,
                              pos_label=pos_label, method=method, reference=reference, adjust=adjust,
                              alternative=alternative, confidence_level=confidence_level)
            return cls.from_comparison(c, ax=ax, **kwargs)
        if isinstance(y_scores, dict) and len(y_scores) == 1 and names is None:
            cols, labels = list(y_scores.values()), [str(k) for k in y_scores]
        else:
            cols, labels = stats.score_columns(y_scores, names)
        ests = {label: stats.estimate(y_true, s, criterion, sample_weight=sample_weight, pos_label=pos_label)
                for label, s in zip(labels, cols)}
        return cls.from_estimates(ests, confidence_level=confidence_level, method=method, n_resamples=n_resamples,
                                  random_state=random_state, null_value=null_value, ax=ax, **kwargs)

    @classmethod
    def from_estimator(cls, estimators: dict, X, y, *, pos_label=None, **kwargs) -> "ForestDisplay":
        """Several fitted estimators (a dict name -> estimator) on ``(X, y)``; each one's
        score as in :meth:`RocCurveDisplay.from_estimator`, the rest as in
        :meth:`from_predictions`."""
        func = "ForestDisplay.from_estimator"
        if not isinstance(estimators, dict) or not estimators:
            raise TypeError(f"The 'estimators' argument of {func} must be a non-empty dict name -> fitted "
                            f"estimator. Got {type(estimators).__name__} instead.")
        scores = {str(n): estimator_scores(e, X, pos_label, func) for n, e in estimators.items()}
        return cls.from_predictions(y, scores, pos_label=pos_label, **kwargs)
