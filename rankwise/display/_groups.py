"""Displays by group: ``GroupForestDisplay`` (a criterion in every group with its
interval, a line at its value on all rows) and ``GroupRocDisplay`` (the ROC curve of
every group on one axes, each group's AUC in the legend)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ._common import check_bool, check_level_arg, get_axes
from ._forest import ForestDisplay, _fmt_p
from ._roc import RocCurveDisplay

__all__ = ["GroupForestDisplay", "GroupRocDisplay"]


def _show(g: Any) -> str:
    return str(g)


class GroupForestDisplay(ForestDisplay):
    r"""A forest plot by group: one row per group, its value and confidence interval, a
    vertical line at the value on all rows.

    Built by :meth:`from_estimates` from a :class:`rankwise.stats.GroupEstimates`
    (:func:`rankwise.stats.by_group`) or by :meth:`from_predictions`, or directly (then
    call :meth:`plot`). Right of each row: ``value [low, high]`` and the p-value of the
    group against the rest (or against the reference group), adjusted over the groups;
    a group with one class only reads "one class only" (its value is undefined).

    Parameters
    ----------
    groups : list
        The group ids, top to bottom (drawn literally, with their number of rows when
        ``n_rows`` is given).
    values, lows, highs : array-like
        Each group's value and interval ends (nan for a group with one class).
    n_rows : array-like of int, optional
        Each group's number of rows, shown in its label.
    overall, overall_low, overall_high : float, optional
        The value on all rows (the vertical line) and its interval (a shaded band).
    p_values : array-like, optional
        Each group's adjusted p-value (nan: none, e.g. the reference group).
    one_class : sequence, optional
        The groups with one class only.
    what : str
        The criterion's readable name, used in the legend (``"AUC"``).
    xlabel, title : str, optional

    Attributes
    ----------
    overall_line_ : matplotlib Line2D or None
        The vertical line at ``overall``.
    overall_band_ : matplotlib Polygon or None
        Its interval, shaded.
    points_, intervals_, texts_, ax_, figure_
        As in :class:`ForestDisplay`.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import rankwise as rw
    >>> from rankwise.display import GroupForestDisplay
    >>> y = [0, 1, 0, 1, 1, 0, 0, 1, 0, 1]
    >>> s = [0.1, 0.9, 0.3, 0.4, 0.8, 0.2, 0.7, 0.6, 0.5, 0.55]
    >>> g = ["a", "a", "a", "a", "b", "b", "b", "b", "b", "b"]
    >>> d = GroupForestDisplay.from_estimates(rw.stats.by_group(y, s, g))
    >>> d.labels, d.values.round(4).tolist()
    (['a (n = 4)', 'b (n = 6)'], [1.0, 0.7778])
    >>> d.overall_line_.get_label()
    'AUC on all rows = 0.840 [0.568, 1.000]'
    """

    def __init__(self, *, groups, values, lows, highs, n_rows=None, overall: float | None = None,
                 overall_low: float | None = None, overall_high: float | None = None, p_values=None,
                 one_class=(), what: str = "AUC", xlabel: str | None = None, title: str | None = None):
        self.groups = list(groups)
        self.n_rows = None if n_rows is None else [int(n) for n in n_rows]
        if self.n_rows is not None and len(self.n_rows) != len(self.groups):
            raise ValueError(f"GroupForestDisplay got {len(self.groups)} groups but {len(self.n_rows)} n_rows; "
                             "they must match.")
        labels = [_show(g) if self.n_rows is None else f"{_show(g)} (n = {n:,})"
                  for g, n in zip(self.groups, self.n_rows or [0] * len(self.groups))]
        super().__init__(labels=labels, values=values, lows=lows, highs=highs, p_values=p_values,
                         null_value=overall, xlabel=xlabel, title=title)
        self.overall = overall
        self.overall_low = overall_low
        self.overall_high = overall_high
        self.one_class = tuple(one_class)
        self.what = what

    def plot(self, ax: Any = None, *, color: str = "#1f4e79", show_values: bool = True, legend: bool = True,
             **kwargs) -> "GroupForestDisplay":
        """Draw the groups on ``ax`` (a new figure sized to the groups when None).

        Parameters
        ----------
        color : str
        show_values : bool
            Write ``value [low, high]`` and the p-value right of each row.
        legend : bool
            A legend naming the line at the value on all rows.
        **kwargs
            Keyword arguments of the points' ``plot``.

        Returns
        -------
        GroupForestDisplay
            ``self``, with ``overall_line_``, ``overall_band_``, ``points_``,
            ``intervals_``, ``texts_``, ``ax_`` and ``figure_`` set.
        """
        super().plot(ax, color=color, show_values=show_values, **kwargs)
        ax = self.ax_
        self.overall_line_, self.overall_band_ = self.null_line_, None
        if self.overall_line_ is not None:
            self.overall_line_.set(color="#b03a2e", linestyle="-", linewidth=1.0, zorder=1.5)
            label = f"{self.what} on all rows = {self.overall:.3f}"
            lo, hi = self.overall_low, self.overall_high
            if lo is not None and hi is not None and np.isfinite(lo) and np.isfinite(hi):
                label += f" [{lo:.3f}, {hi:.3f}]"
                left, right = ax.get_xlim()
                self.overall_band_ = ax.axvspan(max(lo, left), min(hi, right), color="#b03a2e", alpha=0.1,
                                                linewidth=0, zorder=0.5)
            self.overall_line_.set_label(label)
            if legend:  # in a free band below the last row: it covers no group
                ax.set_ylim(-1.6, len(self.labels) - 0.3)
                leg = ax.legend(handles=[self.overall_line_], labels=[label], loc="lower center",
                                fontsize="small", framealpha=0.95)
                for text in leg.get_texts():
                    text.set_parse_math(False)
        return self

    def _row_text(self, i: int) -> str:
        if self.groups[i] in self.one_class or not np.isfinite(self.values[i]):
            return "one class only" if self.groups[i] in self.one_class else "nan"
        text = f"{self.values[i]:.3f} [{self.lows[i]:.3f}, {self.highs[i]:.3f}]"
        if self.p_values is not None and np.isfinite(self.p_values[i]):
            text += f"  {_fmt_p(self.p_values[i])}"
        return text

    @classmethod
    def from_estimates(cls, by_group, criterion: str = "auc", scorer: str | None = None, *, ax: Any = None,
                       **kwargs) -> "GroupForestDisplay":
        """One row per group of a :class:`rankwise.stats.GroupEstimates`.

        Parameters
        ----------
        by_group : GroupEstimates
            The result of :func:`rankwise.stats.by_group`.
        criterion : str, default "auc"
            One of ``by_group.criteria``.
        scorer : str, optional
            One of ``by_group.scorers`` (default: the first).
        ax : matplotlib Axes, optional
        **kwargs
            Passed to :meth:`plot`.

        Returns
        -------
        GroupForestDisplay
            The values, intervals and adjusted p-values are those of ``by_group``; the
            line is its value on all rows (``by_group.overall``).
        """
        from .. import criteria as _criteria
        from ..stats import GroupEstimates

        func = "GroupForestDisplay.from_estimates"
        if not isinstance(by_group, GroupEstimates):
            raise TypeError(f"The 'by_group' argument of {func} must be a GroupEstimates (rankwise.stats.by_group). "
                            f"Got {type(by_group).__name__} instead.")
        if criterion not in by_group.criteria:
            raise ValueError(f"The 'criterion' parameter of {func} must be one of {list(by_group.criteria)}. "
                             f"Got {criterion!r} instead.")
        if scorer is None:
            scorer = by_group.scorers[0]
        elif scorer not in by_group.scorers:
            raise ValueError(f"The 'scorer' parameter of {func} must be one of {list(by_group.scorers)}. "
                             f"Got {scorer!r} instead.")
        rows = {r.group: r for r in by_group.rows if r.scorer == scorer and r.criterion == criterion}
        rows = [rows[g] for g in by_group.groups]
        overall = next(r for r in by_group.overall if r.scorer == scorer and r.criterion == criterion)
        diffs = {d.group: d.p_adjusted for d in by_group.differences if d.scorer == scorer
                 and d.criterion == criterion}
        try:
            what = _criteria.get(criterion).describe()
        except ValueError:  # pragma: no cover - by_group took the spec, the registry knows it
            what = criterion
        lvl = f"{by_group.confidence_level:.0%}"
        units = "" if by_group.n_clusters is None else f", {by_group.n_clusters:,} clusters"
        xlabel = f"{what} by group with its {lvl} confidence interval{units}"
        title = f"p-values adjusted ({by_group.adjust}) over {by_group.family}" if diffs else None
        display = cls(groups=list(by_group.groups), values=[r.value for r in rows], lows=[r.low for r in rows],
                      highs=[r.high for r in rows], n_rows=[r.n_rows for r in rows], overall=overall.value,
                      overall_low=overall.low, overall_high=overall.high,
                      p_values=[diffs.get(g, float("nan")) for g in by_group.groups] if diffs else None,
                      one_class=by_group.one_class, what=what, xlabel=xlabel, title=title)
        return display.plot(ax, **kwargs)

    @classmethod
    def from_predictions(cls, y_true, y_score, groups, *, criterion: str = "auc", clusters=None, sample_weight=None,
                         pos_label=None, reference=None, adjust: str = "holm", confidence_level: float = 0.95,
                         ax: Any = None, **kwargs) -> "GroupForestDisplay":
        """Compute :func:`rankwise.stats.by_group` (one criterion, no bias AUCs) and plot it.

        Parameters
        ----------
        y_true, y_score, groups, clusters, sample_weight, pos_label, reference, adjust, confidence_level
            As in :func:`rankwise.stats.by_group` (one scorer).
        criterion : str, default "auc"
            A criterion spec.
        ax : matplotlib Axes, optional
        **kwargs
            Passed to :meth:`plot`.
        """
        from .. import stats

        res = stats.by_group(y_true, y_score, groups, (criterion,), reference=reference, clusters=clusters,
                             sample_weight=sample_weight, pos_label=pos_label, adjust=adjust,
                             confidence_level=confidence_level, bias=False)
        return cls.from_estimates(res, criterion, ax=ax, **kwargs)


class GroupRocDisplay:
    r"""The ROC curve of every group on one axes, each group's AUC in the legend.

    Built by :meth:`from_predictions` (which computes and plots) or from computed data
    (then call :meth:`plot`). Each group's curve is :func:`rankwise.roc_curve` on its
    rows, drawn by :class:`RocCurveDisplay` (the next of its colours, the diagonal once);
    its AUC and interval are :func:`rankwise.stats.estimate`'s on its rows, as in
    :func:`rankwise.stats.by_group`. A group with one class only has no curve: it is
    listed in ``one_class`` and drawn nowhere.

    Parameters
    ----------
    groups : list
        The group ids (the legend's order).
    curves : list of (fpr, tpr, thresholds) or None
        Each group's curve (None for a group with one class).
    roc_aucs : list of float
    roc_auc_cis : list of ConfidenceInterval or None, optional
    n_rows : list of int, optional
    name : str, optional
        The scorer's name, the axes' title.
    pos_label : optional

    Attributes
    ----------
    displays_ : dict group -> RocCurveDisplay
        The curve of each group drawn.
    lines_ : list of matplotlib Line2D
        The curves, in the order of ``groups`` (one-class groups left out).
    chance_level_ : matplotlib Line2D or None
    ax_, figure_

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from rankwise.display import GroupRocDisplay
    >>> y = [0, 1, 0, 1, 1, 0, 0, 1, 0, 1]
    >>> s = [0.1, 0.9, 0.3, 0.4, 0.8, 0.2, 0.7, 0.6, 0.5, 0.55]
    >>> g = ["a", "a", "a", "a", "b", "b", "b", "b", "b", "b"]
    >>> d = GroupRocDisplay.from_predictions(y, s, g, ci=False)
    >>> [line.get_label() for line in d.lines_]
    ['a (AUC = 1.000)', 'b (AUC = 0.778)']
    """

    def __init__(self, *, groups, curves, roc_aucs, roc_auc_cis=None, n_rows=None, name: str | None = None,
                 pos_label: Any = None):
        self.groups = list(groups)
        self.curves = list(curves)
        self.roc_aucs = [float(a) for a in roc_aucs]
        self.roc_auc_cis = [None] * len(self.groups) if roc_auc_cis is None else list(roc_auc_cis)
        self.n_rows = None if n_rows is None else [int(n) for n in n_rows]
        k = len(self.groups)
        for field in ("curves", "roc_aucs", "roc_auc_cis") + (("n_rows",) if n_rows is not None else ()):
            if len(getattr(self, field)) != k:
                raise ValueError(f"GroupRocDisplay got {k} groups but {len(getattr(self, field))} {field}; "
                                 "they must match.")
        self.name = name
        self.pos_label = pos_label

    @property
    def one_class(self) -> tuple:
        """The groups without a curve (one class only)."""
        return tuple(g for g, c in zip(self.groups, self.curves) if c is None)

    def plot(self, ax: Any = None, *, plot_chance_level: bool = True, legend: bool = True,
             **kwargs) -> "GroupRocDisplay":
        """Draw every group's curve on ``ax`` (a new figure when None).

        Parameters
        ----------
        plot_chance_level : bool
            Draw the diagonal (once per axes).
        legend : bool
        **kwargs
            Passed to each curve's :meth:`RocCurveDisplay.plot` (``linewidth``, ...).

        Returns
        -------
        GroupRocDisplay
            ``self``, with ``displays_``, ``lines_``, ``chance_level_``, ``ax_`` and
            ``figure_`` set.
        """
        ax, fig = get_axes(ax, "GroupRocDisplay.plot")
        drawn = [i for i, c in enumerate(self.curves) if c is not None]
        self.displays_, self.lines_, self.chance_level_ = {}, [], None
        for j, i in enumerate(drawn):
            fpr, tpr, thresholds = self.curves[i]
            d = RocCurveDisplay(fpr=fpr, tpr=tpr, thresholds=thresholds, roc_auc=self.roc_aucs[i],
                                roc_auc_ci=self.roc_auc_cis[i], name=_show(self.groups[i]), pos_label=self.pos_label)
            d.plot(ax=ax, plot_chance_level=plot_chance_level, legend=legend and j == len(drawn) - 1, **kwargs)
            self.displays_[self.groups[i]] = d
            self.lines_.append(d.line_)
            self.chance_level_ = d.chance_level_
        if self.name is not None:
            ax.set_title(f"{self.name}: ROC curve by group", fontsize="medium", parse_math=False)
        self.ax_, self.figure_ = ax, fig
        return self

    @classmethod
    def from_predictions(cls, y_true, y_score, groups, *, sample_weight=None, pos_label=None, clusters=None,
                         name: str | None = None, ax: Any = None, drop_intermediate: bool = True, ci: bool = True,
                         confidence_level: float = 0.95, plot_chance_level: bool = True,
                         **kwargs) -> "GroupRocDisplay":
        """Compute each group's ROC curve and AUC and plot them on one axes.

        Parameters
        ----------
        y_true, y_score, sample_weight, pos_label
            As in :func:`rankwise.roc_curve` (the same checks, the same errors).
        groups : array-like of shape (n,)
            The group of each row (ids of any type, none missing), as in
            :func:`rankwise.stats.by_group`; the curves follow the groups' sorted order.
        clusters : array-like of shape (n,), optional
            The sampling unit of each row: the AUC intervals are cluster-robust
            (Obuchowski 1997).
        name : str, optional
            The scorer's name (the axes' title).
        ax : matplotlib Axes, optional
        drop_intermediate : bool
            As in :func:`rankwise.roc_curve`.
        ci : bool
            Each group's AUC with its interval (:func:`rankwise.stats.estimate`, DeLong)
            in the legend.
        confidence_level : float in (0, 1)
        plot_chance_level : bool
        **kwargs
            Passed to :meth:`plot`.

        Warns
        -----
        OneClassGroupWarning
            A group holds one class only: it has no curve.
        """
        import warnings

        from .. import metrics, stats
        from .._labels import check_sample
        from .._validation import check_groups

        func = "GroupRocDisplay.from_predictions"
        check_bool(ci, "ci", func)
        level = check_level_arg(confidence_level, func)
        sample = check_sample(y_true, y_score, sample_weight=sample_weight, pos_label=pos_label, clusters=clusters,
                              func=func)
        codes, names = check_groups(groups, sample.n_rows, func)
        is_pos, s = sample.labels, sample.scores
        w = None if sample.weights is None else sample.weights * sample.weight_scale
        curves, aucs, cis, sizes, one = [], [], [], [], []
        for k, g in enumerate(names):
            sel = codes == k
            sizes.append(int(sel.sum()))
            ys, ss, ws = is_pos[sel], s[sel], None if w is None else w[sel]
            pos = float(ys.sum() if ws is None else ws[ys].sum())
            neg = float((~ys).sum() if ws is None else ws[~ys].sum())
            if not (pos > 0 and neg > 0):
                curves.append(None)
                aucs.append(float("nan"))
                cis.append(None)
                one.append(g)
                continue
            c = metrics.roc_curve(ys, ss, sample_weight=ws, drop_intermediate=drop_intermediate)
            curves.append((c.fpr, c.tpr, c.thresholds))
            if ci:
                est = stats.estimate(ys, ss, "auc", sample_weight=ws,
                                     clusters=None if sample.clusters is None else sample.clusters[sel])
                aucs.append(float(est.value))
                cis.append(est.confidence_interval(level))
            else:
                aucs.append(float(metrics.auc(ys, ss, sample_weight=ws)))
                cis.append(None)
        if one:
            many = len(one) > 1
            warnings.warn(f"{func}: {len(one)} group{'s' if many else ''} {'hold' if many else 'holds'} one class "
                          f"only and {'have' if many else 'has'} no ROC curve: {', '.join(map(str, one[:10]))}"
                          f"{' ...' if len(one) > 10 else ''}", stats.OneClassGroupWarning, stacklevel=2)
        display = cls(groups=names, curves=curves, roc_aucs=aucs, roc_auc_cis=cis, n_rows=sizes, name=name,
                      pos_label=pos_label)
        return display.plot(ax, plot_chance_level=plot_chance_level, **kwargs)
