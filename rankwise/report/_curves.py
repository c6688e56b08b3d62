"""The curves of every scorer on one figure each (ROC, precision-recall, cumulative gain,
detection error trade-off) and the AUC of every scorer with its interval (a forest plot)."""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import Mapping

from ._draw import MANY, curve_size, curve_styles, new_figure, png
from ._html import figure, level_text
from ._page import Section

#: The key of the figure of the AUCs with their intervals (``auc_plot``).
FOREST = "auc"
#: The gain figure's legend: the share of positives found in this top share of rows.
GAIN_AT = 0.1


@dataclass(frozen=True)
class Curves:
    """The numbers in the figures' legends and the forest: ``order`` (best first),
    ``aucs`` (the criteria's AUC rows), ``average_precisions`` (the criteria's row when
    one of them is the average precision, else :func:`rankwise.average_precision`) and
    ``positive_share``. The curves' points are read while drawing, one scorer at a
    time: a report on 10^6 rows never holds K full-length curves at once."""

    order: tuple
    aucs: Mapping
    average_precisions: Mapping[str, float]
    positive_share: float


class CurvesSection(Section):
    key = "curves"
    needs = ("criteria",)
    anchor, toc = "curves", "Curves"
    files = ("roc", "pr", "gain", "det", FOREST)

    def compute(self, data, prior) -> Curves:
        from .. import criteria as _criteria
        from .. import metrics

        crit = prior["criteria"]
        ap = _criteria.get("average_precision")
        spec = next((c for c in data.criteria if _criteria.get(c) == ap), None)
        if spec is not None:
            aps = {name: crit.rows[name][spec].value for name in data.scores}
        else:
            aps = {name: metrics.average_precision(data.y01, s) for name, s in data.scores.items()}
        return Curves(order=crit.order, aucs=crit.aucs, average_precisions=MappingProxyType(aps),
                      positive_share=data.n_pos / data.n)

    def figures(self, data, result: Curves) -> dict:
        from .. import metrics
        from ..display import DetCurveDisplay, ForestDisplay, GainDisplay, PrecisionRecallDisplay, RocCurveDisplay

        order, y01 = list(result.order), data.y01
        styles = curve_styles(order)
        # Beyond six curves the displays put the legend beside the axes: a wider figure (the
        # page then shows the figures one above the other, at full size).
        size = curve_size(len(order))
        (fig_roc, ax_roc), (fig_pr, ax_pr), (fig_gain, ax_gain), (fig_det, ax_det) = (new_figure(*size)
                                                                                      for _ in range(4))
        for i, name in enumerate(order):
            last = i == len(order) - 1
            c = metrics.roc_curve(y01, data.scores[name], drop_intermediate=True)
            RocCurveDisplay(fpr=c.fpr, tpr=c.tpr, thresholds=c.thresholds, roc_auc=result.aucs[name].value,
                            name=name).plot(ax=ax_roc, legend=last)
            p = metrics.precision_recall_curve(y01, data.scores[name])
            PrecisionRecallDisplay(precision=p.precision, recall=p.recall, thresholds=p.thresholds,
                                   average_precision=result.average_precisions[name],
                                   prevalence=float(p.precision[-1]), name=name).plot(ax=ax_pr, legend=last,
                                                                                     **styles[name])
            g = metrics.gain_curve(y01, data.scores[name])
            GainDisplay(fraction_targeted=g.fraction_targeted, fraction_captured=g.fraction_captured,
                        thresholds=g.thresholds, at=GAIN_AT, name=name).plot(ax=ax_gain, legend=last,
                                                                             **styles[name])
            d = metrics.det_curve(y01, data.scores[name], drop_intermediate=True)
            DetCurveDisplay(fpr=d.fpr, fnr=d.fnr, thresholds=d.thresholds, name=name).plot(ax=ax_det, legend=last,
                                                                                            **styles[name])
        out = {"roc": png(fig_roc), "pr": png(fig_pr), "gain": png(fig_gain), "det": png(fig_det)}
        if data.auc_plot:
            fig, ax = new_figure(7.2, 1.1 + 0.42 * len(order))
            ForestDisplay(labels=order, values=[result.aucs[n].value for n in order],
                          lows=[result.aucs[n].low for n in order], highs=[result.aucs[n].high for n in order],
                          null_value=0.5, xlabel=f"AUC with its {level_text(data.level)} confidence interval"
                          ).plot(ax=ax)
            out[FOREST] = png(fig)
        return out

    def render(self, data, result: Curves, figures: dict) -> str:
        stacked = " stacked" if len(result.order) > MANY else ""
        parts = [f'<section id="curves"><h2>ROC, precision-recall, gain and DET curves</h2><div class="figs{stacked}">',
                 figure(figures["roc"], "ROC curves of every scorer",
                        "ROC curve of every scorer (legend: AUC); the dashed diagonal is a random score."),
                 figure(figures["pr"], "Precision-recall curves of every scorer",
                        f"Precision against recall (the true positive rate); the dashed line is the positive share "
                        f"{result.positive_share:.1%}, a random score's precision."),
                 figure(figures["gain"], "Cumulative gain curves of every scorer",
                        f"Cumulative gain: the share of all positives among the highest-scored share of the "
                        f"population (legend: in the top {GAIN_AT:.0%}); the diagonal is a random score."),
                 figure(figures["det"], "Detection error trade-off (DET) curves of every scorer",
                        "Detection error trade-off: the false negative rate (misses) against the false positive "
                        "rate (false alarms), both on the normal-deviate scale; lower left is better, the dashed "
                        "line is a random score."),
                 "</div>"]
        if FOREST in figures:
            parts.append(figure(figures[FOREST], "AUC of every scorer with its confidence interval",
                                f"The AUC of every scorer with its {level_text(data.level)} confidence interval; the "
                                f"dashed line is a random score.", cls="forest"))
        parts.append("</section>")
        return "\n".join(parts)
