"""What every display shares: the axes, the style of the k-th curve on an axes, a legend
that draws names literally, and the score of a fitted estimator."""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["PALETTE", "LINESTYLES", "CURVE_GID", "CHANCE_GID", "CurveDisplay", "get_axes", "curve_style",
           "next_index", "literal_legend", "legend_label", "axis_label", "defined", "estimator_scores",
           "estimator_probabilities",
           "interval_text", "check_level_arg", "check_bool"]

# Twenty distinct colours: the ten of matplotlib's "tab10", then the ten light ones of
# "tab20" (each the pale version of a tab10 hue). Curves 11 to 20 also change line style,
# so that a pale curve is not read as its dark neighbour: colour and line style are two
# channels, and no two of the first 20 curves share a colour.
PALETTE = (
    "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf",
    "#aec7e8", "#ffbb78", "#98df8a", "#ff9896", "#c5b0d5", "#c49c94", "#f7b6d2", "#c7c7c7", "#dbdb8d", "#9edae5",
)
LINESTYLES = ("-", "--", "-.", ":")

# Artists the displays draw carry a gid, so that a later display on the same axes knows
# how many curves are there (the next style) and whether the chance line is drawn.
CURVE_GID = "rankwise.display.curve"
CHANCE_GID = "rankwise.display.chance"


def get_axes(ax: Any, func: str, figsize: tuple | None = None):
    """``(ax, figure)``: the given axes, or a new pyplot figure's (as scikit-learn's
    displays do, so that notebooks show it), with a constrained layout so that labels and
    texts beside the axes are not cut."""
    if ax is None:
        try:
            import matplotlib.pyplot as plt
        except ImportError as exc:  # pragma: no cover - matplotlib is a core dependency
            raise ImportError(f"{func} needs matplotlib: pip install matplotlib") from exc
        _, ax = plt.subplots(figsize=figsize, layout="constrained")
    elif not hasattr(ax, "plot") or not hasattr(ax, "figure"):
        raise TypeError(f"The 'ax' parameter of {func} must be a matplotlib Axes or None. Got {ax!r} instead.")
    return ax, ax.figure


def next_index(ax) -> int:
    """How many display curves this axes already holds."""
    return sum(1 for line in ax.get_lines() if line.get_gid() == CURVE_GID)


def curve_style(index: int) -> dict:
    """Colour and line style of the ``index``-th curve on an axes (0-based)."""
    return {"color": PALETTE[index % len(PALETTE)],
            "linestyle": LINESTYLES[(index // 10) % len(LINESTYLES)]}


def literal_legend(ax, **kwargs):
    """A legend of every labelled artist on ``ax``, its texts drawn literally (a scorer
    named ``$x$`` or ``_x`` is shown as typed: matplotlib would read the first as
    mathtext and hide the second, whose label starts with an underscore). The chance
    line comes last; with more than six curves the legend sits right of the axes."""
    handles, labels = ax.get_legend_handles_labels()
    for artist in ax.get_lines():
        if artist.get_gid() in (CURVE_GID, CHANCE_GID) and artist not in handles:
            label = artist.get_label()
            if isinstance(label, str) and label.startswith("_") and label != "_nolegend_":
                handles.append(artist)
                labels.append(label)
    # The chance line last, after the curves.
    order = sorted(range(len(handles)), key=lambda i: handles[i].get_gid() == CHANCE_GID)
    handles, labels = [handles[i] for i in order], [labels[i] for i in order]
    if next_index(ax) > 6:
        # Many curves: the legend goes right of the axes, not over the curves.
        kwargs.update(loc="center left", bbox_to_anchor=(1.02, 0.5))
    legend = ax.legend(handles, labels, **kwargs)
    for text in legend.get_texts():
        text.set_parse_math(False)
    return legend


def legend_label(name: str | None, what: str, value: float, ci: Any) -> str:
    """``name (AUC = 0.873 [0.850, 0.896])``: the summary, with its interval when there
    is one, after the name when there is one; ``"_nolegend_"`` when there is neither."""
    if value is None:
        return "_nolegend_" if name is None else name
    summary = f"{what} = {value:.3f}" if ci is None else f"{what} = {interval_text(value, ci.low, ci.high)}"
    return summary if name is None else f"{name} ({summary})"


def axis_label(text: str, pos_label: Any) -> str:
    return text if pos_label is None else f"{text} (positive label: {pos_label})"


def interval_text(value: float, low: float, high: float, digits: int = 3) -> str:
    """``0.873 [0.850, 0.896]``."""
    return f"{value:.{digits}f} [{low:.{digits}f}, {high:.{digits}f}]"


def check_bool(value: Any, name: str, func: str) -> bool:
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"The '{name}' parameter of {func} must be a bool. Got {value!r} instead.")
    return bool(value)


def check_level_arg(confidence_level: Any, func: str) -> float:
    from ..stats import check_level

    return check_level(confidence_level, func)


def defined(y_true, y_score, sample_weight, pos_label) -> bool:
    """Whether both classes carry weight (else the curve is undefined and has warned)."""
    from .._labels import check_sample

    return check_sample(y_true, y_score, sample_weight=sample_weight, pos_label=pos_label, func="display").defined


def estimator_probabilities(estimator: Any, X: Any, pos_label: Any, func: str) -> np.ndarray:
    """``predict_proba(X)`` of the positive class: column 1, or column 0 when ``pos_label``
    is the estimator's first class (``classes_[0]``)."""
    if not hasattr(estimator, "predict_proba"):
        raise TypeError(f"The 'estimator' of {func} must have a predict_proba method (calibration needs "
                        f"probabilities). Got {type(estimator).__name__} instead.")
    flip = _first_class(estimator, pos_label, func)
    p = np.asarray(estimator.predict_proba(X))
    if p.ndim != 2 or p.shape[1] != 2:
        raise ValueError(f"{func} needs a binary estimator: its predict_proba returned an array of "
                         f"shape {p.shape}, expected two columns.")
    return p[:, 0] if flip else p[:, 1]


def _first_class(estimator: Any, pos_label: Any, func: str) -> bool:
    """Whether ``pos_label`` names the estimator's first class (its scores then grow with
    the other one)."""
    classes = getattr(estimator, "classes_", None)
    if classes is None or pos_label is None:
        return False
    classes = list(np.asarray(classes).tolist())
    if len(classes) != 2:
        raise ValueError(f"{func} needs a binary estimator; its classes_ holds {len(classes)} classes.")
    if pos_label not in classes:
        raise ValueError(f"The 'pos_label' parameter of {func} must be one of the estimator's classes_ "
                         f"{classes}. Got {pos_label!r} instead.")
    return pos_label == classes[0]


def estimator_scores(estimator: Any, X: Any, pos_label: Any, func: str) -> np.ndarray:
    """The ranking score of a fitted estimator: ``decision_function`` (rankwise's rule:
    higher = more likely positive), else ``predict_proba[:, 1]``. When the estimator
    knows its ``classes_`` and ``pos_label`` names the first class, the score is turned
    round (``-decision_function``, ``predict_proba[:, 0]``) so that it still grows with
    the positive class."""
    flip = _first_class(estimator, pos_label, func)
    if hasattr(estimator, "decision_function"):
        s = np.asarray(estimator.decision_function(X))
        if s.ndim != 1:
            raise ValueError(f"{func} needs a binary estimator: its decision_function returned an array of "
                             f"shape {s.shape}, expected one score per row.")
        return -s if flip else s
    if hasattr(estimator, "predict_proba"):
        return estimator_probabilities(estimator, X, pos_label, func)
    raise TypeError(f"The 'estimator' of {func} must have a decision_function or a predict_proba method. "
                    f"Got {type(estimator).__name__} instead.")


_ALIASES = {"c": "color", "ls": "linestyle", "lw": "linewidth", "ds": "drawstyle"}


class CurveDisplay:
    """What the curve displays share: a curve in the next style of its axes, one chance
    line per axes, the unit square, a literal legend, ``from_estimator``."""

    def _start(self, ax: Any, name: Any, defaults: dict, kwargs: dict):
        """``(ax, figure, name, style)`` of a curve about to be drawn."""
        ax, fig = get_axes(ax, f"{type(self).__name__}.plot")
        style = {**curve_style(next_index(ax)), "linewidth": 1.6, **defaults}
        # matplotlib's short aliases name the same property: the user's wins over ours.
        style.update({_ALIASES.get(k, k): v for k, v in kwargs.items()})
        return ax, fig, (self.name if name is None else name), style

    def _finish(self, ax, fig, *, chance: tuple | None, plot_chance_level: bool, chance_level_kw: dict | None,
                xlabel: str, ylabel: str, legend: bool, ci: Any, what: str, loc: str, square: bool = True):
        """Draw the chance line ``(x, y, label)`` unless the axes has it, set the unit
        square (unless ``square=False``) and the axis labels, redraw the legend (titled with the interval's method
        when there is one); set ``chance_level_``, ``ax_`` and ``figure_``."""
        self.chance_level_ = None
        if chance is not None:
            x, y, label = chance
            for line in ax.get_lines():
                if line.get_gid() == CHANCE_GID and np.array_equal(line.get_xydata(), np.c_[x, y]):
                    self.chance_level_ = line
            if plot_chance_level and self.chance_level_ is None:
                opts = {"color": "#888888", "linestyle": "--", "linewidth": 0.9, "label": label,
                        **(chance_level_kw or {})}
                (self.chance_level_,) = ax.plot(x, y, gid=CHANCE_GID, **opts)
        if square:
            ax.set(xlim=(-0.01, 1.01), ylim=(-0.01, 1.01), aspect="equal")
        ax.set(xlabel=axis_label(xlabel, self.pos_label), ylabel=axis_label(ylabel, self.pos_label))
        if legend:
            title = None if ci is None else f"{what} [{ci.confidence_level:.0%} CI, {ci.describe()}]"
            literal_legend(ax, loc=loc, fontsize="small", title=title, title_fontsize="small")
        self.ax_, self.figure_ = ax, fig
        return self

    # How a fitted estimator's score is read (the calibration display needs probabilities).
    _response = staticmethod(estimator_scores)

    @classmethod
    def from_estimator(cls, estimator, X, y, *, sample_weight=None, pos_label=None, name: str | None = None,
                       ax: Any = None, **kwargs):
        """The curve of a fitted estimator's score on ``(X, y)``.

        The score is ``decision_function(X)`` (higher = more likely positive), else
        ``predict_proba(X)[:, 1]``; when ``pos_label`` is the estimator's first class
        (``classes_[0]``) the score is turned round (``-decision_function``,
        ``predict_proba[:, 0]``). The name defaults to the estimator's class name. Other
        arguments as in ``from_predictions``.
        """
        s = cls._response(estimator, X, pos_label, f"{cls.__name__}.from_estimator")
        name = type(estimator).__name__ if name is None else name
        return cls.from_predictions(y, s, sample_weight=sample_weight, pos_label=pos_label, name=name, ax=ax,
                                    **kwargs)
