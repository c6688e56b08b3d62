"""Operating points: the true-positive rate and precision of every scorer at fixed
false-positive rates with bootstrap intervals, the cut to deploy for each rate, and
Youden's cut."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from types import MappingProxyType
from typing import Mapping

from ..metrics import cut_at_fpr
from ._html import esc, fmt, interval, level_text, pct, section, table
from ._page import Section


@dataclass(frozen=True)
class AtFpr:
    """One false-positive rate: the TPR and precision read on the ROC curve there with
    their intervals, and the cut to deploy with its own rates on this sample."""

    fpr: float
    tpr: float
    precision: float
    tpr_low: float
    tpr_high: float
    precision_low: float
    precision_high: float
    cut: float
    cut_tpr: float
    cut_fpr: float
    cut_precision: float


@dataclass(frozen=True)
class Youden:
    threshold: float
    tpr: float
    fpr: float
    precision: float
    youden_index: float


@dataclass(frozen=True)
class ScorerOperating:
    at_fpr: tuple
    youden: Youden
    method: str
    n_resamples: int

    def as_dict(self) -> dict:
        return {"at_fpr": [asdict(r) for r in self.at_fpr], "youden": asdict(self.youden), "method": self.method,
                "n_resamples": self.n_resamples}


def scorer_operating(data, s) -> ScorerOperating:
    """The operating points of the score column ``s``.

    The TPR at a rate is the ROC curve read there (:func:`rankwise.operating_points`,
    pROC's ``coords``); the intervals are :func:`rankwise.stats.operating_points`'s
    (pROC's ``ci.se``; whole clusters resampled when the rows are clustered), drawn from
    a few order statistics per resample, so they cost about one ``auc``."""
    from .. import metrics, stats

    fprs = list(data.fprs)
    est = stats.operating_points(data.y01, s, fpr=fprs, **data.cluster_args)
    ci = est.confidence_interval(data.level, n_resamples=data.n_resamples, random_state=data.random_state)
    cuts = cut_at_fpr(data.y01, s, fprs).tolist()
    at_cut = metrics.operating_points(data.y01, s, thresholds=cuts)
    rows = tuple(AtFpr(fpr=float(x), tpr=float(est.tpr[i]), precision=float(est.precision[i]),
                       tpr_low=float(ci.tpr_low[i]), tpr_high=float(ci.tpr_high[i]),
                       precision_low=float(ci.precision_low[i]), precision_high=float(ci.precision_high[i]),
                       cut=cuts[i], cut_tpr=float(at_cut.tpr[i]), cut_fpr=float(at_cut.fpr[i]),
                       cut_precision=float(at_cut.precision[i])) for i, x in enumerate(fprs))
    yd = metrics.optimal_threshold(data.y01, s, method="youden")
    youden = Youden(threshold=float(yd.threshold), tpr=float(yd.tpr), fpr=float(yd.fpr),
                    precision=float(yd.precision), youden_index=float(yd.youden_index))
    return ScorerOperating(at_fpr=rows, youden=youden, method="bootstrap", n_resamples=data.n_resamples)


@dataclass(frozen=True)
class Operating:
    """``by_scorer`` (in the caller's order) and ``order`` (best first, as shown)."""

    by_scorer: Mapping[str, ScorerOperating]
    order: tuple


class OperatingSection(Section):
    key = "operating"
    needs = ("criteria",)
    anchor, toc = "operating", "Operating points"

    def compute(self, data, prior) -> Operating:
        out = {}
        for k, (name, s) in enumerate(data.scores.items(), 1):
            data.progress(f"operating points {k}/{len(data.scores)}: {name}")
            out[name] = scorer_operating(data, s)
        return Operating(by_scorer=MappingProxyType(out), order=prior["criteria"].order)

    def render(self, data, result: Operating, figures: dict) -> str:
        return section("operating", "Operating points", _table(data, result))

    def summary(self, data, result: Operating) -> dict:
        return {"operating_points": {name: o.as_dict() for name, o in result.by_scorer.items()}}


def _table(data, result: Operating) -> str:
    lvl = level_text(data.level)
    fprs = data.fprs
    header = ["#", "scorer"] + [f"TPR at FPR {pct(x)}<small>precision</small>" for x in fprs] + [
        "Youden's cut<small>score &ge;</small>", "TPR", "FPR", "precision"]
    hclass = ["", "name"] + [""] * (len(fprs) + 4)
    rows, classes, attrs = [], [], []
    for k, name in enumerate(result.order, 1):
        o = result.by_scorer[name]
        row, cl, at = [str(k), esc(name)], ["rank", "name"], ["", ""]
        for r in o.at_fpr:
            row.append(f'{esc(fmt(r.tpr))}<span class="ci">{esc(interval(r.tpr_low, r.tpr_high))}</span>'
                       f'<span class="ci">precision {esc(fmt(r.precision))}</span>')
            cl.append("num")
            at.append(f' data-value="{r.tpr!r}" data-low="{r.tpr_low!r}" data-high="{r.tpr_high!r}"'
                      f' data-precision="{r.precision!r}"')
        for key in ("threshold", "tpr", "fpr", "precision"):
            v = getattr(o.youden, key)
            row.append(esc(fmt(v)))
            cl.append("num")
            at.append(f' data-value="{v!r}"')
        rows.append(row)
        classes.append(cl)
        attrs.append(at)
    how = "stratified" if data.n_clusters is None else "cluster"
    return "\n".join([
        table(header, rows, "operating", classes, attrs, hclass),
        f'<p class="caption">True positive rate (sensitivity) at a fixed false positive rate (1 &minus; '
        f"specificity), read on the ROC curve (between two of its points the rates are interpolated, as in pROC's "
        f"<code>coords</code>), with its {lvl} {how} bootstrap interval ({data.n_resamples} resamples; pROC's "
        f"<code>ci.se</code>) and the precision there with its interval from the same resamples. Youden's cut "
        f"maximises TPR &minus; FPR; an observation is called positive when its score is at or above the cut. "
        f"Each scorer's details give the cut to deploy for each false positive rate.</p>"])


def scorer_table(o: ScorerOperating, level: float) -> str:
    """One scorer's operating points in full (its details): each rate's TPR and
    precision with intervals, the cut to deploy and that cut's own rates."""
    lvl = level_text(level)
    header = ["FPR", "TPR", f"{lvl} interval", "precision", f"{lvl} interval", "cut: score &ge;", "its TPR",
              "its FPR", "its precision"]
    rows = [[esc(pct(r.fpr)), esc(fmt(r.tpr)), esc(interval(r.tpr_low, r.tpr_high)),
             esc(fmt(r.precision)), esc(interval(r.precision_low, r.precision_high)),
             esc(fmt(r.cut)), esc(fmt(r.cut_tpr)), esc(fmt(r.cut_fpr)), esc(fmt(r.cut_precision))]
            for r in o.at_fpr]
    classes = [["num"] * 9 for _ in rows]
    return (table(header, rows, "scorer-operating", classes)
            + '<p class="caption">The cut is the lowest score whose rule keeps the false positive rate at or below '
              "the target; its rates are those of that rule on this sample.</p>")
