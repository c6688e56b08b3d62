"""Each scorer in detail (collapsed): every criterion with its standard error, interval
and method, its operating points in full, its learner, and its ROC curve with pointwise
and simultaneous bootstrap bands; then the learners' table."""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Mapping

import numpy as np

from ._criteria import Criteria
from ._draw import curve_styles, new_figure, png
from ._html import (METHOD_NAMES, cell, collapsed_section, esc, figure, fmt, interval, learner_table, level_text,
                    section, table)
from ._operating import Operating, scorer_table
from ._page import Section

#: The ROC bands' grid of false positive rates.
BAND_GRID = np.linspace(0.0, 1.0, 101)


class BandsUnit(Section):
    """Every scorer's ROC curve with its pointwise and simultaneous bootstrap bands
    (:func:`rankwise.stats.roc_band`; whole clusters resampled when the rows are
    clustered): ``{scorer: ROCBand}``. Shown in the details."""

    key = "bands"

    def compute(self, data, prior) -> Mapping[str, Any]:
        from .. import stats

        bands = {}
        for k, (name, s) in enumerate(data.scores.items(), 1):
            data.progress(f"ROC bands {k}/{len(data.scores)} ({data.n_resamples} resamples): {name}")
            bands[name] = stats.roc_band(data.y01, s, fpr=BAND_GRID, confidence_level=data.level,
                                         n_resamples=data.n_resamples, random_state=data.random_state,
                                         **data.cluster_args)
        return MappingProxyType(bands)


@dataclass(frozen=True)
class Details:
    """What each scorer's details show: ``criteria`` (rows, AUCs, order), ``bands``,
    ``operating`` and ``learners`` (the summaries by scorer name)."""

    criteria: Criteria
    bands: Mapping[str, Any]
    operating: Operating
    learners: Mapping[str, dict]


class DetailsSection(Section):
    key = "details"
    needs = ("criteria", "bands", "operating")
    anchor, toc = "details", "Details per scorer"

    def compute(self, data, prior) -> Details:
        by_name = {d.get("name"): d for d in data.learners if isinstance(d.get("name"), str)}
        return Details(criteria=prior["criteria"], bands=prior["bands"], operating=prior["operating"],
                       learners=MappingProxyType(by_name))

    def figures(self, data, result: Details) -> dict:
        """``{scorer: PNG}``: each scorer's ROC curve with its bands, in its colour."""
        from .. import metrics
        from ..display import RocCurveDisplay

        order = list(result.criteria.order)
        styles = curve_styles(order)
        out = {}
        for name in order:
            fig, ax = new_figure(4.6, 4.6)
            c = metrics.roc_curve(data.y01, data.scores[name], drop_intermediate=True)
            RocCurveDisplay(fpr=c.fpr, tpr=c.tpr, thresholds=c.thresholds, roc_auc=result.criteria.aucs[name].value,
                            band=result.bands[name], name=name).plot(ax=ax, **styles[name])
            out[name] = png(fig)
        return out

    def render(self, data, result: Details, figures: dict) -> str:
        parts = [_scorer(data, result, name, k, figures[name]) for k, name in enumerate(result.criteria.order, 1)]
        return section("details", "Details per scorer", "\n".join(parts))


def _scorer(data, result: Details, name: str, k: int, band_png: bytes) -> str:
    lvl = level_text(data.level)
    rows_of = result.criteria.rows[name]
    first = data.criteria[0]
    r0 = rows_of[first]
    summary = (f"<summary><b>{k}. {esc(name)}</b> &mdash; {esc(data.labels[first])} "
               f"{esc(cell(r0.value, r0.low, r0.high))}</summary>")
    header = ["criterion", "value", "std. error", f"{lvl} interval", "method"]
    rows = [[esc(data.labels[spec]) + (" <small>(lower is better)</small>" if not data.units[spec].greater_is_better
                                       else "") + f"<br><code>{esc(spec)}</code>",
             esc(fmt(rows_of[spec].value)), esc(fmt(rows_of[spec].std_error)),
             esc(interval(rows_of[spec].low, rows_of[spec].high)),
             esc(METHOD_NAMES.get(rows_of[spec].method, rows_of[spec].method))] for spec in data.criteria]
    classes = [["name", "num", "num", "num", ""] for _ in data.criteria]
    left = ["<h3>Criteria</h3>", table(header, rows, "scorer-criteria", classes)]
    ops = result.operating.by_scorer.get(name)
    if ops is not None:
        left += ["<h3>Operating points</h3>", scorer_table(ops, data.level)]
    learner = result.learners.get(name)
    if learner:
        left.append("<h3>Learner</h3>")
        left.append(learner_table([learner]))
    band = result.bands[name]
    how = "class-stratified resamples" if data.n_clusters is None else "resamples of whole clusters"
    right = [figure(band_png, f"ROC curve of {name} with bootstrap bands",
                    f"ROC curve with its {lvl} pointwise (darker) and simultaneous (lighter) bootstrap bands, "
                    f"{band.n_resamples} {how}; sup-norm half-width {esc(fmt(band.sup_quantile))}.")]
    return (f'<details class="scorer" id="scorer-{k}">{summary}<div class="split"><div>{"".join(left)}</div>'
            f'<div>{"".join(right)}</div></div></details>')


class LearnersSection(Section):
    """The learners' summaries (collapsed), when the caller gives them."""

    key = "learners"
    kinds = ("binary", "censored")
    anchor, toc = "learners", "Learners"

    def applies(self, data) -> bool:
        return bool(data.learners)

    def render(self, data, result, figures: dict) -> str:
        return collapsed_section("learners", "Learners", learner_table(list(data.learners)))
