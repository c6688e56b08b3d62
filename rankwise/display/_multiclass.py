"""Displays for several classes: ``MulticlassROCDisplay`` (each class's one-vs-rest ROC
curve on its own score column, each class's AUC with its interval in the legend, the
average in the title) and ``PairwiseAUCDisplay`` (the one-vs-one AUCs of every pair of
classes as a heat map, Hand & Till's M in the title)."""

from __future__ import annotations

from typing import Any

import numpy as np

from .._labels import MULTICLASS
from .._validation import check_choice
from ._common import check_bool, check_level_arg, get_axes, interval_text, literal_legend
from ._roc import RocCurveDisplay

__all__ = ["MulticlassROCDisplay", "PairwiseAUCDisplay"]

_MULTI_CLASS = ("ovr", "ovo")
_AVERAGES = ("macro", "weighted", "micro")


def _summary_name(multi_class: str, average: str) -> str:
    """The readable name of a multiclass AUC: ``"one-vs-rest macro AUC"``, ``"M (Hand & Till)"``."""
    if multi_class == "ovo" and average == "macro":
        return "M (Hand & Till)"
    return f"{'one-vs-rest' if multi_class == 'ovr' else 'one-vs-one'} {average} AUC"


def _summary_text(name: str, value: float | None, ci: Any) -> str:
    if value is None or not np.isfinite(value):
        return f"{name} = nan"
    if ci is None or not (np.isfinite(ci.low) and np.isfinite(ci.high)):
        return f"{name} = {value:.3f}"
    return f"{name} = {interval_text(value, ci.low, ci.high)} ({ci.confidence_level:.0%} CI)"


def _score_matrix(y_score: Any, classes: np.ndarray) -> np.ndarray:
    """The (n, K) scores in the order of ``classes`` (a DataFrame's columns matched by
    name); called after :func:`rankwise.multiclass_auc` has validated them."""
    mod = type(y_score).__module__ or ""
    if mod.startswith("pandas") and hasattr(y_score, "columns"):
        y_score = y_score[classes.tolist()].to_numpy()
    return np.asarray(y_score, dtype=np.float64)


def _check_options(multi_class: Any, average: Any, ci: Any, confidence_level: Any, func: str) -> float:
    check_choice(multi_class, "multi_class", func, _MULTI_CLASS)
    check_choice(average, "average", func, _AVERAGES)
    if average == "micro" and multi_class == "ovo":
        raise ValueError(f"The 'average' parameter of {func} can be 'micro' with multi_class='ovr' only.")
    check_bool(ci, "ci", func)
    return check_level_arg(confidence_level, func)


def _probabilities(estimator: Any, X: Any, func: str) -> tuple[np.ndarray, np.ndarray]:
    """``(predict_proba(X), classes_)`` of a fitted classifier, the columns in the order of
    its ``classes_``."""
    if not hasattr(estimator, "predict_proba"):
        raise TypeError(f"The 'estimator' of {func} must have a predict_proba method (one probability column per "
                        f"class). Got {type(estimator).__name__} instead.")
    classes = getattr(estimator, "classes_", None)
    if classes is None:
        raise TypeError(f"The 'estimator' of {func} must be a fitted classifier with a classes_ attribute (the "
                        f"classes of its predict_proba columns). {type(estimator).__name__} has none.")
    classes = np.asarray(classes)
    P = np.asarray(estimator.predict_proba(X))
    if P.ndim != 2 or P.shape[1] != classes.shape[0]:
        raise ValueError(f"{func}: the estimator's predict_proba returned an array of shape {P.shape}; expected one "
                         f"column per class of its classes_ ({classes.shape[0]}).")
    return P, classes


def _component_cis(est: Any, level: float) -> list:
    """Each component's DeLong interval as a ConfidenceInterval (None where undefined)."""
    from ..stats import ConfidenceInterval

    if not len(est.components):
        return []
    ends = est.component_intervals(level)
    return [None if not (np.isfinite(lo) and np.isfinite(hi)) else
            ConfidenceInterval(float(lo), float(hi), level, "delong", "wald", None, None, float(se))
            for (lo, hi), se in zip(ends, est.component_std_errors)]


class MulticlassROCDisplay:
    r"""Each class's one-vs-rest ROC curve on one axes: class ``k`` against all the other
    classes on score column ``k``, each class's AUC (with its interval) in the legend, the
    multiclass average (one-vs-rest macro, weighted or micro, or Hand & Till's M) with its
    interval in the title.

    Built by :meth:`from_predictions` or :meth:`from_estimator` (which compute and plot),
    or from computed data (then call :meth:`plot`). Each curve is
    :func:`rankwise.roc_curve` of ``y_true == labels[k]`` against ``y_score[:, k]``, drawn
    by :class:`RocCurveDisplay` (the next of its colours, the diagonal once); the AUCs are
    those of :func:`rankwise.multiclass_auc` with ``average=None``, and their intervals the
    per-class components of :func:`rankwise.stats.estimate` with
    ``criterion="multiclass_auc"`` (K-sample DeLong). A class with no rows, or with every
    row, has no curve: it is listed in ``no_curve`` and drawn nowhere.

    Parameters
    ----------
    labels : array-like of K classes
        The classes, in the order of the score columns (the legend's order).
    curves : list of (fpr, tpr, thresholds) or None
        Each class's one-vs-rest curve (None for a class without one).
    roc_aucs : list of float
        Each class's one-vs-rest AUC.
    roc_auc_cis : list of ConfidenceInterval or None, optional
        Their intervals.
    average_value : float, optional
        The multiclass AUC shown in the title.
    average_ci : ConfidenceInterval, optional
        Its interval.
    multi_class : {"ovr", "ovo"}
    average : {"macro", "weighted", "micro"}
        What ``average_value`` is (the curves are one-vs-rest whichever it is).
    micro_curve : (fpr, tpr, thresholds), optional
        The ROC curve of the n K pooled (row, class) entries, drawn dotted when given
        (its area is the micro average).
    name : str, optional
        The scorer's name, at the head of the title (drawn literally).

    Attributes
    ----------
    displays_ : dict class -> RocCurveDisplay
        The curve of each class drawn.
    lines_ : list of matplotlib Line2D
        The curves, in the order of ``labels`` (classes without a curve left out).
    micro_line_ : matplotlib Line2D or None
    chance_level_ : matplotlib Line2D or None
    title_ : matplotlib Text or None
    ax_, figure_

    Notes
    -----
    Class ``k``'s curve joins the points (false-positive rate, true-positive rate) of
    every distinct threshold of column ``k``, a row of class ``k`` being a positive and a
    row of any other class a negative; ties between the two sides give diagonal segments,
    so the area under the drawn curve is the one-vs-rest AUC with ties counted 1/2. The
    one-vs-rest macro average is the plain mean of these areas; Hand & Till's M (2001, "A
    simple generalisation of the area under the ROC curve for multiple class
    classification problems", Machine Learning 45) averages one-vs-one pair values that
    these curves do not show (:class:`PairwiseAUCDisplay` does). The intervals come from
    the K-sample form of DeLong's variance (DeLong, DeLong & Clarke-Pearson 1988,
    "Comparing the areas under two or more correlated receiver operating characteristic
    curves: a nonparametric approach"), each class's alone, not adjusted for
    multiplicity.

    Examples
    --------
    Three classes, two rows each. On column a both rows of class a (0.6, 0.5) score above
    the four others, and likewise on column c; on column b, class c's second row (0.65)
    scores above b's 0.6: one of b's 8 pairs (2 rows of b times 4 others) is out of
    order, so b's AUC is 7/8 and the macro average (1 + 7/8 + 1)/3.

    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from rankwise.display import MulticlassROCDisplay
    >>> S = [[0.6, 0.2, 0.2], [0.5, 0.3, 0.2], [0.3, 0.6, 0.1],
    ...      [0.2, 0.7, 0.1], [0.1, 0.2, 0.7], [0.1, 0.65, 0.25]]
    >>> d = MulticlassROCDisplay.from_predictions(["a", "a", "b", "b", "c", "c"], S, ci=False)
    >>> [line.get_label() for line in d.lines_]
    ['a (AUC = 1.000)', 'b (AUC = 0.875)', 'c (AUC = 1.000)']
    >>> d.title_.get_text()
    'one-vs-rest macro AUC = 0.958'
    """

    def __init__(self, *, labels, curves, roc_aucs, roc_auc_cis=None, average_value: float | None = None,
                 average_ci: Any = None, multi_class: str = "ovr", average: str = "macro", micro_curve=None,
                 name: str | None = None):
        self.labels = list(np.asarray(labels, dtype=object).tolist())
        self.curves = list(curves)
        self.roc_aucs = [float(a) for a in roc_aucs]
        self.roc_auc_cis = [None] * len(self.labels) if roc_auc_cis is None else list(roc_auc_cis)
        k = len(self.labels)
        for field in ("curves", "roc_aucs", "roc_auc_cis"):
            if len(getattr(self, field)) != k:
                raise ValueError(f"MulticlassROCDisplay got {k} labels but {len(getattr(self, field))} {field}; "
                                 "they must match.")
        check_choice(multi_class, "multi_class", "MulticlassROCDisplay", _MULTI_CLASS)
        check_choice(average, "average", "MulticlassROCDisplay", _AVERAGES)
        self.average_value = average_value
        self.average_ci = average_ci
        self.multi_class = multi_class
        self.average = average
        self.micro_curve = micro_curve
        self.name = name

    @property
    def no_curve(self) -> tuple:
        """The classes without a curve (no rows, or every row)."""
        return tuple(lab for lab, c in zip(self.labels, self.curves) if c is None)

    def plot(self, ax: Any = None, *, plot_chance_level: bool = True, legend: bool = True, title: bool = True,
             **kwargs) -> "MulticlassROCDisplay":
        """Draw every class's curve on ``ax`` (a new figure when None).

        Parameters
        ----------
        ax : matplotlib Axes, optional
        plot_chance_level : bool
            Draw the diagonal (once per axes).
        legend : bool
        title : bool
            Write the scorer's name and the multiclass average with its interval above the
            axes.
        **kwargs
            Passed to each curve's :meth:`RocCurveDisplay.plot` (``linewidth``, ...).

        Returns
        -------
        MulticlassROCDisplay
            ``self``, with ``displays_``, ``lines_``, ``micro_line_``, ``chance_level_``,
            ``title_``, ``ax_`` and ``figure_`` set.
        """
        func = "MulticlassROCDisplay.plot"
        for value, nm in ((plot_chance_level, "plot_chance_level"), (legend, "legend"), (title, "title")):
            check_bool(value, nm, func)
        ax, fig = get_axes(ax, func)
        drawn = [i for i, c in enumerate(self.curves) if c is not None]
        self.displays_, self.lines_, self.chance_level_, self.micro_line_ = {}, [], None, None
        for i in drawn:
            fpr, tpr, thresholds = self.curves[i]
            d = RocCurveDisplay(fpr=fpr, tpr=tpr, thresholds=thresholds, roc_auc=self.roc_aucs[i],
                                roc_auc_ci=self.roc_auc_cis[i], name=str(self.labels[i]))
            d.plot(ax=ax, plot_chance_level=plot_chance_level, legend=False, **kwargs)
            self.displays_[self.labels[i]] = d
            self.lines_.append(d.line_)
            self.chance_level_ = d.chance_level_
        if self.micro_curve is not None:
            fpr, tpr, thresholds = self.micro_curve
            auc = self.average_value if self.average == "micro" else None
            d = RocCurveDisplay(fpr=fpr, tpr=tpr, thresholds=thresholds, roc_auc=auc,
                                roc_auc_ci=self.average_ci if self.average == "micro" else None,
                                name="micro average (pooled)")
            d.plot(ax=ax, plot_chance_level=plot_chance_level, legend=False,
                   **{"color": "#222222", "linestyle": ":", **kwargs})
            self.micro_line_ = d.line_
            self.chance_level_ = d.chance_level_
        ax.set(xlabel="False positive rate (the other classes)", ylabel="True positive rate (the class)")
        if legend:
            cis = [c for c in self.roc_auc_cis if c is not None]
            head = "one-vs-rest AUC" + ("" if not cis else f" [{cis[0].confidence_level:.0%} CI, {cis[0].describe()}]")
            literal_legend(ax, loc="lower right", fontsize="small", title=head, title_fontsize="small")
        self.title_ = None
        if title:
            text = _summary_text(_summary_name(self.multi_class, self.average), self.average_value, self.average_ci)
            if self.name is not None:
                text = f"{self.name}\n{text}"
            self.title_ = ax.set_title(text, fontsize="medium", parse_math=False)
        self.ax_, self.figure_ = ax, fig
        return self

    @classmethod
    def from_predictions(cls, y_true, y_score, *, labels=None, multi_class: str = "ovr", average: str = "macro",
                         sample_weight=None, clusters=None, name: str | None = None, ax: Any = None,
                         drop_intermediate: bool = True, ci: bool = True, confidence_level: float = 0.95,
                         plot_chance_level: bool = True, **kwargs) -> "MulticlassROCDisplay":
        """Compute each class's one-vs-rest ROC curve and AUC and the multiclass average,
        and plot them.

        Parameters
        ----------
        y_true, y_score, labels, sample_weight
            As in :func:`rankwise.multiclass_auc` (the same checks, the same errors):
            ``y_score`` of shape (n, K), rows summing to 1, column ``k`` scoring class
            ``labels[k]`` (a DataFrame's columns matched by class name).
        multi_class : {"ovr", "ovo"}
            Of the average in the title; the curves are one-vs-rest either way.
        average : {"macro", "weighted", "micro"}
            Of the average in the title; ``"micro"`` (one-vs-rest only) also draws the
            pooled curve whose area it is.
        clusters : array-like of shape (n,), optional
            The sampling unit of each row: cluster-robust intervals (Obuchowski 1997).
        name : str, optional
            The scorer's name (head of the title).
        ax : matplotlib Axes, optional
        drop_intermediate : bool
            As in :func:`rankwise.roc_curve`.
        ci : bool
            Each class's AUC and the average with their DeLong intervals
            (:func:`rankwise.stats.estimate`, ``criterion="multiclass_auc"``).
        confidence_level : float in (0, 1)
        plot_chance_level : bool
        **kwargs
            Passed to :meth:`plot`.
        """
        from .. import metrics, stats

        func = "MulticlassROCDisplay.from_predictions"
        level = _check_options(multi_class, average, ci, confidence_level, func)
        # The single-machine metric validates everything (labels, shape, rows summing to 1).
        per = np.atleast_1d(metrics.multiclass_auc(y_true, y_score, multi_class="ovr", average=None, labels=labels,
                                                   sample_weight=sample_weight))
        _, classes, codes = MULTICLASS.classes(y_true, labels, func=func)
        S = _score_matrix(y_score, classes)
        K = classes.shape[0]
        w = None if sample_weight is None else np.asarray(sample_weight, dtype=np.float64)
        mass = np.bincount(codes, weights=w, minlength=K).astype(np.float64)
        total = mass.sum()
        curves = []
        for k in range(K):
            if not (mass[k] > 0 and total - mass[k] > 0):
                curves.append(None)
                continue
            c = metrics.roc_curve(codes == k, S[:, k], sample_weight=w, drop_intermediate=drop_intermediate)
            curves.append((c.fpr, c.tpr, c.thresholds))
        micro = None
        if average == "micro" and np.count_nonzero(mass > 0) >= 2:
            own = codes[:, None] == np.arange(K)[None, :]
            c = metrics.roc_curve(own.ravel(), S.ravel(), sample_weight=None if w is None else np.repeat(w, K),
                                  drop_intermediate=drop_intermediate)
            micro = (c.fpr, c.tpr, c.thresholds)
        cis, value, value_ci = None, None, None
        if ci:
            ovr_average = average if multi_class == "ovr" and average != "micro" else "macro"
            est = stats.estimate(y_true, S, criterion="multiclass_auc", multi_class="ovr", average=ovr_average,
                                 labels=classes, sample_weight=sample_weight, clusters=clusters)
            cis = _component_cis(est, level) or None
            if ovr_average != average or multi_class != "ovr":
                est = stats.estimate(y_true, S, criterion="multiclass_auc", multi_class=multi_class,
                                     average=average, labels=classes, sample_weight=sample_weight,
                                     clusters=clusters)
            value = est.value
            value_ci = est.confidence_interval(level) if np.isfinite(est.value) else None
        else:
            value = metrics.multiclass_auc(y_true, S, multi_class=multi_class, average=average, labels=classes,
                                           sample_weight=sample_weight)
        display = cls(labels=classes, curves=curves, roc_aucs=per, roc_auc_cis=cis, average_value=value,
                      average_ci=value_ci, multi_class=multi_class, average=average, micro_curve=micro, name=name)
        return display.plot(ax, plot_chance_level=plot_chance_level, **kwargs)

    @classmethod
    def from_estimator(cls, estimator, X, y, *, name: str | None = None, **kwargs) -> "MulticlassROCDisplay":
        """The curves of a fitted classifier's ``predict_proba(X)`` against ``y``, its
        columns read in the order of its ``classes_`` (a class of ``classes_`` absent from
        ``y`` has no curve; a class of ``y`` the estimator does not know is an error).
        The name defaults to the estimator's class name; other arguments as in
        :meth:`from_predictions` (except ``labels``: the estimator's ``classes_``)."""
        func = "MulticlassROCDisplay.from_estimator"
        if "labels" in kwargs:
            raise TypeError(f"{func} takes the classes from the estimator's classes_; do not pass 'labels'.")
        P, classes = _probabilities(estimator, X, func)
        name = type(estimator).__name__ if name is None else name
        return cls.from_predictions(y, P, labels=classes, name=name, **kwargs)


class PairwiseAUCDisplay:
    r"""The one-vs-one AUCs of every pair of classes as a K x K heat map, each cell with its
    value (and interval), Hand & Till's M (or the weighted one-vs-one average) in the title.

    Built by :meth:`from_predictions` or :meth:`from_estimator`, or from computed data
    (then call :meth:`plot`). By default cell ``(i, j)`` holds the pair value
    :math:`\hat A(i, j) = (A(i|j) + A(j|i))/2` (symmetric), with its K-sample DeLong
    interval; ``directed=True`` shows :math:`A(i|j)` instead, the probability that a row
    of class ``i`` scores above a row of class ``j`` on column ``i`` (not symmetric; no
    intervals). The diagonal, and a pair with an absent class, are left blank.

    Parameters
    ----------
    labels : array-like of K classes
        The classes, rows and columns in this order.
    matrix : array-like (K, K)
        The values (nan: no value).
    lows, highs : array-like (K, K), optional
        The intervals' ends.
    value : float, optional
        The average shown in the title.
    value_ci : ConfidenceInterval, optional
    average : {"macro", "weighted"}
        What ``value`` is (``"macro"``: Hand & Till's M).
    directed : bool
        Whether ``matrix`` holds :math:`A(i|j)` (rows: the class scored on its own
        column) rather than the symmetric pair values.
    name : str, optional
        The scorer's name, at the head of the title.

    Attributes
    ----------
    image_ : matplotlib AxesImage
    texts_ : ndarray (K, K) of matplotlib Text or None
        The text written in each cell.
    colorbar_ : matplotlib Colorbar or None
    title_ : matplotlib Text or None
    ax_, figure_

    Notes
    -----
    Hand & Till (2001), "A simple generalisation of the area under the ROC curve for
    multiple class classification problems", Machine Learning 45: :math:`A(i|j)` is the
    AUC of class ``i`` over class ``j`` on the rows of these two classes and the score
    column of class ``i`` (ties 1/2); M is the mean of :math:`\hat A(i, j)` over the
    :math:`K(K-1)/2` pairs (:func:`rankwise.multiclass_auc` with ``multi_class="ovo"``).
    The colour scale runs from 0 to 1, white at 0.5 (chance).

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from rankwise.display import PairwiseAUCDisplay
    >>> S = [[0.6, 0.4], [0.3, 0.7], [0.5, 0.5], [0.4, 0.6]]
    >>> d = PairwiseAUCDisplay.from_predictions([0, 0, 1, 1], S, ci=False)
    >>> d.matrix.tolist()
    [[nan, 0.5], [0.5, nan]]
    >>> d.texts_[0, 1].get_text()
    '0.500'

    On column 0, class 0 (0.6, 0.3) is above class 1 (0.5, 0.4) in 2 of the 4 pairs:
    A(0|1) = 1/2; likewise A(1|0) = 1/2 on column 1, so the pair value is 1/2.
    """

    def __init__(self, *, labels, matrix, lows=None, highs=None, value: float | None = None, value_ci: Any = None,
                 average: str = "macro", directed: bool = False, name: str | None = None):
        self.labels = list(np.asarray(labels, dtype=object).tolist())
        K = len(self.labels)
        self.matrix = np.asarray(matrix, dtype=np.float64)
        if self.matrix.shape != (K, K):
            raise ValueError(f"PairwiseAUCDisplay needs a ({K}, {K}) matrix for {K} labels. Got shape "
                             f"{self.matrix.shape}.")
        if (lows is None) != (highs is None):
            raise ValueError("PairwiseAUCDisplay needs both 'lows' and 'highs' for intervals, or neither.")
        self.lows = None if lows is None else np.asarray(lows, dtype=np.float64)
        self.highs = None if highs is None else np.asarray(highs, dtype=np.float64)
        for arr, nm in ((self.lows, "lows"), (self.highs, "highs")):
            if arr is not None and arr.shape != (K, K):
                raise ValueError(f"PairwiseAUCDisplay needs '{nm}' of shape ({K}, {K}). Got {arr.shape}.")
        check_choice(average, "average", "PairwiseAUCDisplay", ("macro", "weighted"))
        self.value = value
        self.value_ci = value_ci
        self.average = average
        self.directed = check_bool(directed, "directed", "PairwiseAUCDisplay")
        self.name = name

    def plot(self, ax: Any = None, *, cmap: Any = "RdBu", show_values: bool = True, colorbar: bool = True,
             title: bool = True, **kwargs) -> "PairwiseAUCDisplay":
        """Draw the heat map on ``ax`` (a new figure when None).

        Parameters
        ----------
        ax : matplotlib Axes, optional
        cmap : str or matplotlib Colormap
            On the fixed scale 0 to 1 (default: red below chance, blue above, white at 0.5).
        show_values : bool
            Write each cell's value (and interval) in it.
        colorbar : bool
        title : bool
            Write the scorer's name and the average with its interval above the map.
        **kwargs
            Keyword arguments of ``imshow``.

        Returns
        -------
        PairwiseAUCDisplay
            ``self``, with ``image_``, ``texts_``, ``colorbar_``, ``title_``, ``ax_`` and
            ``figure_`` set.
        """
        func = "PairwiseAUCDisplay.plot"
        for v, nm in ((show_values, "show_values"), (colorbar, "colorbar"), (title, "title")):
            check_bool(v, nm, func)
        K = len(self.labels)
        ax, fig = get_axes(ax, func, figsize=(1.6 + 1.15 * K, 1.0 + 1.0 * K))
        opts = {"cmap": cmap, "vmin": 0.0, "vmax": 1.0, "interpolation": "nearest", **kwargs}
        self.image_ = ax.imshow(np.ma.masked_invalid(self.matrix), **opts)
        names = [str(v) for v in self.labels]
        ax.set_xticks(range(K))
        ax.set_yticks(range(K))
        for setter in (ax.set_xticklabels, ax.set_yticklabels):
            for t in setter(names):
                t.set_parse_math(False)
        if self.directed:
            ax.set(xlabel="class j (below)", ylabel="class i (above, on its own score column)")
        else:
            ax.set(xlabel="class", ylabel="class")
        self.texts_ = np.full((K, K), None, dtype=object)
        if show_values:
            cm = self.image_.cmap
            for i in range(K):
                for j in range(K):
                    v = self.matrix[i, j]
                    if not np.isfinite(v):
                        continue
                    text = f"{v:.3f}"
                    if self.lows is not None and np.isfinite(self.lows[i, j]) and np.isfinite(self.highs[i, j]):
                        text += f"\n[{self.lows[i, j]:.3f}, {self.highs[i, j]:.3f}]"
                    r, g, b, _ = cm(float(np.clip(v, 0.0, 1.0)))
                    dark = 0.299 * r + 0.587 * g + 0.114 * b < 0.5
                    self.texts_[i, j] = ax.text(j, i, text, ha="center", va="center", fontsize="small",
                                                color="white" if dark else "black", parse_math=False)
        self.colorbar_ = None
        if colorbar:
            what = "A(i | j)" if self.directed else "pair AUC"
            self.colorbar_ = fig.colorbar(self.image_, ax=ax, label=what)
        self.title_ = None
        if title:
            text = _summary_text(_summary_name("ovo", self.average), self.value, self.value_ci)
            if self.name is not None:
                text = f"{self.name}\n{text}"
            self.title_ = ax.set_title(text, fontsize="medium", parse_math=False)
        self.ax_, self.figure_ = ax, fig
        return self

    @classmethod
    def from_predictions(cls, y_true, y_score, *, labels=None, average: str = "macro", sample_weight=None,
                         clusters=None, directed: bool = False, ci: bool = True, confidence_level: float = 0.95,
                         name: str | None = None, ax: Any = None, **kwargs) -> "PairwiseAUCDisplay":
        """Compute the one-vs-one AUCs (:func:`rankwise.multiclass_auc`, ``multi_class="ovo"``,
        ``average=None``) and their average, and plot them.

        Parameters
        ----------
        y_true, y_score, labels, sample_weight
            As in :func:`rankwise.multiclass_auc`.
        average : {"macro", "weighted"}
            The average in the title (``"macro"``: Hand & Till's M).
        clusters : array-like of shape (n,), optional
            Cluster-robust intervals.
        directed : bool
            Show :math:`A(i|j)` rather than the pair values (then the cells carry no interval).
        ci : bool
            The pair values' and the average's K-sample DeLong intervals
            (:func:`rankwise.stats.estimate`).
        confidence_level : float in (0, 1)
        name : str, optional
        ax : matplotlib Axes, optional
        **kwargs
            Passed to :meth:`plot`.
        """
        from .. import metrics, stats

        func = "PairwiseAUCDisplay.from_predictions"
        check_choice(average, "average", func, ("macro", "weighted"))
        check_bool(directed, "directed", func)
        level = _check_options("ovo", average, ci, confidence_level, func)
        res = metrics.multiclass_auc(y_true, y_score, multi_class="ovo", average=None, labels=labels,
                                     sample_weight=sample_weight)
        classes = res.labels
        matrix = res.directed if directed else res.pairs
        K = classes.shape[0]
        lows = highs = value_ci = None
        if ci:
            S = _score_matrix(y_score, classes)
            est = stats.estimate(y_true, S, criterion="multiclass_auc", multi_class="ovo", average=average,
                                 labels=classes, sample_weight=sample_weight, clusters=clusters)
            value = est.value
            value_ci = est.confidence_interval(level) if np.isfinite(value) else None
            if not directed and len(est.components) == K * (K - 1) // 2:
                ends = est.component_intervals(level)
                lows, highs = np.full((K, K), np.nan), np.full((K, K), np.nan)
                iu, ju = np.triu_indices(K, 1)
                lows[iu, ju] = lows[ju, iu] = ends[:, 0]
                highs[iu, ju] = highs[ju, iu] = ends[:, 1]
        else:
            value = metrics.multiclass_auc(y_true, y_score, multi_class="ovo", average=average, labels=labels,
                                           sample_weight=sample_weight)
        display = cls(labels=classes, matrix=matrix, lows=lows, highs=highs, value=value, value_ci=value_ci,
                      average=average, directed=directed, name=name)
        return display.plot(ax, **kwargs)

    @classmethod
    def from_estimator(cls, estimator, X, y, *, name: str | None = None, **kwargs) -> "PairwiseAUCDisplay":
        """The pairwise AUCs of a fitted classifier's ``predict_proba(X)``, its columns in
        the order of its ``classes_``; the name defaults to the estimator's class name;
        other arguments as in :meth:`from_predictions` (except ``labels``)."""
        func = "PairwiseAUCDisplay.from_estimator"
        if "labels" in kwargs:
            raise TypeError(f"{func} takes the classes from the estimator's classes_; do not pass 'labels'.")
        P, classes = _probabilities(estimator, X, func)
        name = type(estimator).__name__ if name is None else name
        return cls.from_predictions(y, P, labels=classes, name=name, **kwargs)
