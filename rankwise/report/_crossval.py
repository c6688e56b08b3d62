"""The section on cross-validation (``write_report(..., folds=)``): each row's score comes
from the model fitted without its fold, and for each scorer the section shows every
criterion with a projection averaged over the folds with its influence-curve
interval (LeDell, Petersen & van der Laan 2015), the naive fold-SD interval for contrast,
each fold's class sizes and values, and the folds' ROC curves with their vertical average
and its pointwise band.

The numbers are those of :func:`rankwise.stats.cross_validated` (one call per scorer and
criterion on the report's rows, pooled over its clusters when it has them) and
:meth:`rankwise.stats.CrossValidatedEstimate.roc_curve`; the figure is drawn by
:class:`rankwise.display.CrossValidatedRocDisplay`. A report without ``folds`` has no such
section and is what it was without it."""

from __future__ import annotations

import dataclasses
import warnings
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Mapping

import numpy as np

from ._data import ReportData
from ._draw import curve_styles, new_figure, png
from ._html import esc, figure, fmt, interval, level_text, section, table
from ._page import Section

__all__ = ["FoldedReportData", "with_folds", "cv_criteria", "CrossValSection", "CrossValidation", "N_POINTS"]

#: Grid points of the mean ROC curve on the false-positive axis.
N_POINTS = 101


@dataclass(frozen=True)
class FoldedReportData(ReportData):
    """:class:`rankwise.report._data.ReportData` with each row's cross-validation fold.

    Attributes
    ----------
    folds : ndarray of int64
        Each row's fold numbered ``0 .. V - 1`` in the order of ``fold_names``
        (:func:`rankwise._validation.check_groups`).
    fold_names : tuple
        The distinct fold ids, sorted when they sort.
    fold_name : str or None
        The fold column's name, shown in the section's title.
    """

    folds: np.ndarray | None = None
    fold_names: tuple = ()
    fold_name: str | None = None


def with_folds(data: ReportData, folds: Any, fold_name: str | None, *,
               default_command: bool = False) -> FoldedReportData:
    """``data`` with the rows' folds, checked (``ValueError``/``TypeError`` naming the
    argument): one fold id a row, none missing, at least two folds, both classes in every
    fold; ``fold_name`` a string, and only with ``folds``. With ``default_command`` (the
    caller gave no ``command``) the call shown in the header says ``folds=...``."""
    from .._validation import check_groups

    if fold_name is not None and not isinstance(fold_name, str):
        raise TypeError(f"write_report: 'fold_name' must be None or a string. Got {type(fold_name).__name__}.")
    if folds is None:
        raise ValueError("write_report: 'fold_name' names the fold column, but no 'folds' were given.")
    codes, names = check_groups(folds, data.n, "write_report", name="folds", unit="fold")
    if len(names) < 2:
        raise ValueError(f"write_report: 'folds' must hold at least 2 folds (each row's cross-validation fold). "
                         f"Got {len(names)}.")
    V = len(names)
    n = np.bincount(codes, minlength=V)
    pos = np.bincount(codes, weights=data.y01.astype(np.float64), minlength=V)
    for k in range(V):
        if pos[k] == 0 or pos[k] == n[k]:
            raise ValueError(f"write_report: fold {names[k]!r} of 'folds' has no "
                             f"{'positives' if pos[k] == 0 else 'negatives'} ({n[k]} rows); every fold needs both "
                             f"classes.")
    base = {f.name: getattr(data, f.name) for f in dataclasses.fields(ReportData)}
    if default_command and base["command"].endswith(")"):
        base["command"] = base["command"][:-1] + ", folds=...)"
    return FoldedReportData(**base, folds=codes, fold_names=tuple(names), fold_name=fold_name)


def cv_criteria(data) -> tuple[tuple, dict]:
    """``(specs, labels)``: the criteria averaged over the folds, the AUC first (the
    report's own spec of it when it has one), then every other criterion of the report of
    binary labels that has a projection (the influence curve needs one; the KS statistic,
    ``ranking_risk`` have none); ``labels`` their readable names. The By group section's
    choice (:func:`rankwise.report._groups.group_criteria`), which needs the same."""
    from ._groups import group_criteria

    return group_criteria(data)


@dataclass(frozen=True)
class CrossValidation:
    """What the section shows: ``specs`` (the criteria, AUC first) and their ``labels``,
    ``order`` (the scorers, best first when the criteria were computed), ``estimates``
    (``{scorer: {spec: CrossValidatedEstimate}}``), ``intervals`` (``{scorer: {spec:
    (influence ConfidenceInterval, naive ConfidenceInterval)}}``), ``curves`` (``{scorer:
    MeanROC}``), the folds' ``names`` and ``column``, ``pooled`` and ``n_units``."""

    specs: tuple
    labels: Mapping[str, str]
    order: tuple
    estimates: Mapping[str, Mapping[str, Any]]
    intervals: Mapping[str, Mapping[str, tuple]]
    curves: Mapping[str, Any]
    names: tuple
    column: str | None
    pooled: bool
    n_units: int


class CrossValSection(Section):
    """Every scorer cross-validated (see the module's description); applies with ``folds``."""

    key = "crossval"
    wants = ("criteria",)
    anchor, toc = "crossval", "Cross-validation"

    def applies(self, data) -> bool:
        return getattr(data, "folds", None) is not None

    def compute(self, data, prior) -> CrossValidation:
        from .. import stats

        specs, labels = cv_criteria(data)
        crit = prior.get("criteria")
        order = tuple(crit.order) if crit is not None else tuple(data.scores)
        pooled = {} if data.clusters is None else {"pooled": True, "ids": data.clusters}
        ests, ivs, curves = {}, {}, {}
        for k, name in enumerate(order, 1):
            data.progress(f"cross-validation {k}/{len(order)}: {name}")
            ests[name], ivs[name] = {}, {}
            for spec in specs:
                r = stats.cross_validated(data.y01, data.scores[name], data.folds, criterion=spec,
                                          confidence_level=data.level, **pooled)
                ic = r.confidence_interval(data.level)
                with warnings.catch_warnings():  # a degenerate naive interval: the influence one has said it
                    warnings.simplefilter("ignore", stats.DegenerateIntervalWarning)
                    naive = r.confidence_interval(data.level, method="naive")
                ests[name][spec], ivs[name][spec] = r, (ic, naive)
            curves[name] = ests[name][specs[0]].roc_curve(N_POINTS, data.level)
        first = ests[order[0]][specs[0]]
        return CrossValidation(
            specs=specs, labels=MappingProxyType(labels), order=order,
            estimates=MappingProxyType({n: MappingProxyType(e) for n, e in ests.items()}),
            intervals=MappingProxyType({n: MappingProxyType(e) for n, e in ivs.items()}),
            curves=MappingProxyType(curves), names=tuple(data.fold_names), column=data.fold_name,
            pooled=first.pooled, n_units=first.n_units)

    def figures(self, data, result: CrossValidation) -> dict:
        """``{scorer: PNG}``: each fold's ROC curve, their mean and its band, in the
        scorer's colour of the other figures (:class:`rankwise.display.CrossValidatedRocDisplay`)."""
        from ..display import CrossValidatedRocDisplay

        styles = curve_styles(list(result.order))  # the colours of the other figures
        auc = result.specs[0]
        out = {}
        for name in result.order:
            roc, est = result.curves[name], result.estimates[name][auc]
            d = CrossValidatedRocDisplay(fpr=roc.fpr, tpr=roc.tpr, lower=roc.lower, upper=roc.upper,
                                         fold_tpr=roc.fold_tpr, fold_ids=[str(f) for f in result.names],
                                         value=est.value, value_ci=result.intervals[name][auc][0],
                                         what=result.labels[auc], confidence_level=roc.confidence_level)
            fig, ax = new_figure(5.8, 5.6)
            d.plot(ax=ax, **styles[name])
            out[name] = png(fig)
        return out

    def render(self, data, result: CrossValidation, figures: dict) -> str:
        parts = [_intro(data, result)]
        for k, name in enumerate(result.order, 1):
            parts.append(_scorer(data, result, name, k, figures.get(name)))
        title = "Cross-validation" + (f": <code>{esc(result.column)}</code>" if result.column else "")
        return section("crossval", title, "\n".join(parts))

    def summary(self, data, result: CrossValidation) -> dict:
        by_scorer = {}
        for name in result.order:
            by_scorer[name] = {}
            for spec in result.specs:
                r = result.estimates[name][spec]
                ic, naive = result.intervals[name][spec]
                by_scorer[name][spec] = {
                    "value": r.value, "std_error": r.std_error, "low": ic.low, "high": ic.high,
                    "naive_std_error": r.naive_std_error, "naive_low": naive.low, "naive_high": naive.high,
                    "fold_values": r.fold_values.tolist(), "fold_n_pos": r.fold_n_pos.tolist(),
                    "fold_n_neg": r.fold_n_neg.tolist()}
        curves = {name: {"fpr": c.fpr.tolist(), "tpr": c.tpr.tolist(), "lower": c.lower.tolist(),
                         "upper": c.upper.tolist()} for name, c in result.curves.items()}
        return {"crossval": {"column": result.column, "folds": list(result.names), "n_folds": len(result.names),
                             "criteria": list(result.specs), "pooled": result.pooled, "n_units": result.n_units,
                             "by_scorer": by_scorer, "mean_roc": curves}}


# --- HTML ------------------------------------------------------------------------------------

def _intro(data, result: CrossValidation) -> str:
    V = len(result.names)
    lvl = level_text(data.level)
    column = f" of the column <code>{esc(result.column)}</code>" if result.column else ""
    crits = ", ".join(esc(result.labels[s]) for s in result.specs)
    text = (f"The rows fall in {V:,} cross-validation folds{column}; each row's score is taken to come from the "
            f"model fitted without its fold. For each scorer: {crits} on each fold's rows, their mean over the folds "
            f"(the cross-validated value) with its {lvl} influence-curve interval (LeDell, Petersen &amp; van der "
            f"Laan 2015: each row's influence value from the fold's projection terms, normal, clipped to the "
            f"criterion's range), and, for contrast, the naive interval from the spread of the fold values "
            f"(standard deviation / &radic;{V}, Student's t on {V - 1} df), which treats the fold values as "
            f"independent (the training sets overlap) and has no coverage guarantee; each fold's values; the folds' "
            f"ROC curves with their vertical average and its pointwise band (Fawcett 2006). The other sections pool "
            f"the rows of every fold: their values are those of the pooled out-of-fold scores, not the means over "
            f"the folds.")
    if result.pooled:
        text += (f" The standard errors treat the {result.n_units:,} clusters as the independent units (a cluster's "
                 f"rows pooled).")
    return f'<p class="caption">{text}</p>'


def _attrs(value: float, low: float | None = None, high: float | None = None) -> str:
    out = f' data-value="{float(value)!r}"'
    if low is not None:
        out += f' data-low="{float(low)!r}" data-high="{float(high)!r}"'
    return out


def _ci_cell(value: float, ci) -> str:
    return f'{esc(fmt(value))}<span class="ci">{esc(interval(ci.low, ci.high))}</span>'


def _scorer(data, result: CrossValidation, name: str, k: int, roc_png: bytes | None) -> str:
    lvl = level_text(data.level)
    auc = result.specs[0]
    r0, (ic0, _) = result.estimates[name][auc], result.intervals[name][auc]
    summary = (f"<b>{k}. {esc(name)}</b> &mdash; cross-validated {esc(result.labels[auc])} "
               f"{esc(fmt(r0.value))} {esc(interval(ic0.low, ic0.high))} over {r0.n_folds} folds")
    header = ["criterion", f"mean over the folds<small>{lvl} CI, influence curve</small>", "std. error",
              f"naive<small>{lvl} CI, fold SD</small>", "naive std. error"]
    rows, classes, attrs = [], [], []
    for spec in result.specs:
        r = result.estimates[name][spec]
        ic, naive = result.intervals[name][spec]
        rows.append([esc(result.labels[spec]), _ci_cell(r.value, ic), esc(fmt(r.std_error)),
                     _ci_cell(r.value, naive), esc(fmt(r.naive_std_error))])
        classes.append(["name", "num", "num", "num", "num"])
        attrs.append(["", _attrs(r.value, ic.low, ic.high), _attrs(r.std_error), _attrs(r.value, naive.low, naive.high),
                      _attrs(r.naive_std_error)])
    parts = ["<h3>Averaged over the folds</h3>", table(header, rows, "crossval", classes, attrs)]
    fheader = ["fold", "n", "positives", "negatives", *(esc(result.labels[s]) for s in result.specs)]
    frows, fclasses, fattrs = [], [], []
    for j, f in enumerate(result.names):
        p, q = r0.fold_n_pos[j], r0.fold_n_neg[j]
        row = [esc(str(f)), f"{int(round(p + q)):,}", f"{int(round(p)):,}", f"{int(round(q)):,}"]
        at = ["", "", "", ""]
        for spec in result.specs:
            v = float(result.estimates[name][spec].fold_values[j])
            row.append(esc(fmt(v)))
            at.append(_attrs(v))
        frows.append(row)
        fclasses.append(["name"] + ["num"] * (len(row) - 1))
        fattrs.append(at)
    parts += ["<h3>Each fold</h3>", table(fheader, frows, "folds", fclasses, fattrs)]
    if roc_png is not None:
        parts.append(figure(roc_png, f"ROC curves of the folds of {name}",
                            f"Each fold's ROC curve (thin), their mean at each false-positive rate (thick) and the "
                            f"pointwise {lvl} band of the mean over the folds (mean &plusmn; t &middot; sd / "
                            f"&radic;{r0.n_folds}: the spread between folds, no coverage guarantee); the legend gives "
                            f"the cross-validated {esc(result.labels[auc])} with its influence-curve interval."))
    opened = " open" if k == 1 else ""
    return (f'<details class="scorer" id="cv-scorer-{k}"{opened}><summary>{summary}</summary>'
            f'{"".join(parts)}</details>')
