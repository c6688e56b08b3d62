"""What every section's figures share: an Agg figure (no pyplot state touched), its PNG
bytes, and the colour and line style of each scorer (the same on every figure).

matplotlib is imported here only inside the functions: importing the report does not
import it, and computing a section never draws."""

from __future__ import annotations

#: Beyond this many scorers the curve figures are wider (the legend sits beside the axes)
#: and the page shows them one above the other.
MANY = 6


def png(fig) -> bytes:
    """The figure as PNG bytes (no timestamp or software tag: the same figure gives the
    same bytes)."""
    import io

    buf = io.BytesIO()
    # bbox_inches="tight": a legend beside the axes (many scorers) stays inside the image.
    fig.savefig(buf, format="png", dpi=110, bbox_inches="tight", pad_inches=0.08, metadata={"Software": None})
    return buf.getvalue()


def new_figure(width: float, height: float):
    """``(figure, axes)``: one constrained-layout Agg figure of ``width`` x ``height`` inches."""
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width, height), layout="constrained")
    return fig, fig.subplots()


def curve_size(k: int) -> tuple[float, float]:
    """The size of a figure holding ``k`` curves."""
    return (9.6, 6.4) if k > MANY else (5.8, 5.6)


def curve_styles(order: list[str]) -> dict[str, dict]:
    """``{scorer: {"color", "linestyle"}}``: the style the displays give the ``i``-th curve
    of an axes to the ``i``-th scorer of ``order``, so that a scorer looks the same on
    every figure. Read off the displays themselves (their rule is theirs), on a scratch
    axes that is never rendered."""
    from ..display import RocCurveDisplay

    _, ax = new_figure(1.0, 1.0)
    styles = {}
    for name in order:
        d = RocCurveDisplay(fpr=[0.0, 1.0], tpr=[0.0, 1.0], thresholds=[1.0, 0.0], roc_auc=0.5, name=name)
        d.plot(ax=ax, legend=False, plot_chance_level=False)
        styles[name] = {"color": d.line_.get_color(), "linestyle": d.line_.get_linestyle()}
    return styles
