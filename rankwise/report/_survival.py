"""The section on censored times (``write_report(..., time=, event=)``): each risk score's
Harrell's and Uno's concordance index with its interval, the time-dependent AUC(t) of every
scorer with its pointwise bands, and the differences between the scorers with their tests.
**Higher risk = earlier event**, for every scorer.

The numbers are those of :func:`rankwise.survival.estimate` (one call per scorer and C),
:func:`rankwise.survival.compare` (one call per C: the joint covariance of the
infinitesimal jackknife, every pair, Holm-adjusted p-values) and
:func:`rankwise.survival.cumulative_dynamic_auc` (one scorer) or
:func:`rankwise.survival.compare_cumulative_dynamic_auc` (several: one sweep gives every
curve and every difference): this section only lays them out. It serves the
``"censored"`` label kind only, so a page on binary labels is what it was without it.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import Any, Mapping

import numpy as np

from ._criteria import ComparisonNumbers
from ._html import ADJUST_NAMES, esc, figure, fmt, fmt_p, interval, level_text, p_eq, section, show_value, table
from ._page import Section

#: The concordance indexes a report may show, with their names on the page.
CONCORDANCE_NAMES = {"harrell": "Harrell's C", "uno": "Uno's C"}


def survival_args(data, weighting: str) -> dict:
    """The keywords of :func:`rankwise.survival.estimate` and ``compare`` for one C on the
    report's rows."""
    kw: dict = {"weighting": weighting, "tau": data.tau, **data.cluster_args}
    if data.strata is not None:
        kw["strata"] = data.strata
    return kw


# --- the time-dependent AUC(t) --------------------------------------------------------------------
# The cumulative/dynamic AUC(t) of every scorer with its pointwise bands
# (rw.survival.cumulative_dynamic_auc; with two scorers or more one call of
# rw.survival.compare_cumulative_dynamic_auc gives the curves and their differences):
# computed in `time_dependent_auc` (a frozen result, nothing drawn), drawn in
# `time_dependent_auc_figures` (<stem>_files/auc_t.png), shown by `time_dependent_auc_html`
# (between the table of Cs and the differences of the Cs) and returned by
# `time_dependent_auc_summary` (write_report's ["survival"]["time_dependent_auc"]).

#: The figure key (and file name) of the AUC(t) curves.
AUC_T = "auc_t"
#: The quantiles of the observed event times that ``times="auto"`` evaluates AUC(t) at.
AUTO_QUANTILES = (0.10, 0.25, 0.50, 0.75)


def auto_times(time, event) -> list[float]:
    """The evaluation times of ``times="auto"``: the 10%, 25%, 50% and 75% quantiles of the
    observed event times (numpy's linear interpolation), each rounded to 2 significant
    digits for display (3, 4, ..., or not at all when the rounding would leave the
    follow-up), kept inside ``[first event time, last follow-up time)`` where AUC(t) is
    defined, sorted, without repeats. Empty when there is no event or no time qualifies.

    Examples
    --------
    >>> auto_times([1.234, 2.5, 3.75, 4.1, 5.05, 9.0], [1, 1, 1, 1, 1, 0])
    [1.7, 2.5, 3.8, 4.1]
    """
    t = np.asarray(time, dtype=np.float64).reshape(-1)
    ev = np.asarray(event).reshape(-1).astype(bool)
    if t.shape[0] == 0 or not ev.any():
        return []
    lo, hi = float(t[ev].min()), float(t.max())
    out = []
    for q in np.quantile(t[ev], AUTO_QUANTILES):
        q = float(q)
        shown = next((r for r in (float(f"{q:.{d}g}") for d in range(2, 18)) if lo <= r < hi), None)
        if shown is not None:
            out.append(shown)
    return sorted(set(out))


def versus_reference(differences, reference: str | None) -> list[dict]:
    """The rows of :attr:`rankwise.survival.TimeAUCComparison.differences`, all of them
    without ``reference``; with it, those of the pairs holding it, each turned to read
    ``scorer - reference`` (difference, z and interval negated when the pair was
    ``reference - scorer``; the standard error and p-value unchanged)."""
    if reference is None:
        return [dict(d) for d in differences]
    out = []
    for d in differences:
        if d["b"] == reference:
            out.append(dict(d))
        elif d["a"] == reference:
            out.append({**d, "a": d["b"], "b": d["a"], "difference": -d["difference"], "z": -d["z"],
                        "low": -d["high"], "high": -d["low"]})
    return out


@dataclass(frozen=True)
class TimeCurves:
    """The AUC(t) part of the section: ``times`` (the evaluation times), ``how``
    (``"auto"`` or ``"given"``), ``aucs`` (``{scorer: TimeDependentAUC}``, page order),
    ``differences`` (rows of :func:`versus_reference`; None with one scorer) and
    ``skipped`` (why there are no curves, else None)."""

    times: tuple = ()
    how: str = "auto"
    aucs: Mapping[str, Any] | None = None
    differences: tuple | None = None
    skipped: str | None = None


def time_dependent_auc(data, order=None) -> TimeCurves | None:
    """The AUC(t) curves of every scorer at the report's times (None with ``times=None``);
    a ValueError naming ``times`` when one lies outside the follow-up."""
    from .. import survival

    if data.auc_times is None:
        return None
    how = "auto" if isinstance(data.auc_times, str) else "given"
    if data.strata is not None:
        return TimeCurves(how=how, skipped="AUC(t) is not computed within strata: with strata the section shows the "
                                           "stratified concordance only")
    times = auto_times(data.time, data.event) if how == "auto" else list(data.auc_times)
    if not times:
        return TimeCurves(how=how, skipped="no time qualifies for AUC(t): it needs an event by t and a row still "
                                           "followed after t")
    names = list(order) if order is not None else list(data.scores)
    data.progress(f"AUC(t) at {len(times)} time{'s' if len(times) != 1 else ''}")
    if len(names) == 1:
        est = survival.cumulative_dynamic_auc(data.time, data.event, data.scores[names[0]], times,
                                              **data.cluster_args)
        return TimeCurves(times=tuple(float(x) for x in est.times), how=how,
                          aucs=MappingProxyType({names[0]: est}))
    comp = survival.compare_cumulative_dynamic_auc(data.time, data.event, {n: data.scores[n] for n in names}, times,
                                                   confidence_level=data.level, **data.cluster_args)
    return TimeCurves(times=tuple(float(x) for x in comp.aucs[0].times), how=how,
                      aucs=MappingProxyType(dict(zip(comp.names, comp.aucs))),
                      differences=tuple(versus_reference(comp.differences, data.reference)))


def time_dependent_auc_figures(data, curves: TimeCurves | None) -> dict:
    """``{"auc_t": PNG}``: every scorer's AUC(t) with its pointwise band on one axes."""
    if curves is None or curves.aucs is None:
        return {}
    from ..display import TimeAUCDisplay
    from ._draw import MANY, curve_styles, new_figure, png

    names = list(curves.aucs)
    styles = curve_styles(names)
    fig, ax = new_figure(*((9.6, 5.2) if len(names) > MANY else (7.2, 4.8)))
    for i, name in enumerate(names):
        TimeAUCDisplay.from_estimate(curves.aucs[name], confidence_level=data.level, name=name, ax=ax,
                                     legend=i == len(names) - 1, **styles[name])
    return {AUC_T: png(fig)}


def _in_order(curves: TimeCurves | None, order) -> TimeCurves | None:
    """The curves listed as the scorers are on the page (best first on the first C)."""
    if curves is None or curves.aucs is None:
        return curves
    return replace(curves, aucs=MappingProxyType({n: curves.aucs[n] for n in order}))


def _auc_cell(value: float, low: float, high: float) -> str:
    if not np.isfinite(value):
        return "nan"
    return f'{esc(fmt(value))}<span class="ci">{esc(interval(low, high))}</span>'


def _auc_attrs(value: float, low: float, high: float, se: float) -> str:
    return f' data-value="{float(value)!r}" data-low="{float(low)!r}" data-high="{float(high)!r}" ' \
           f'data-se="{float(se)!r}"'


def time_dependent_auc_html(data, curves: TimeCurves | None, figures: dict) -> str:
    """The AUC(t) part of the section: the figure, the table of AUC(t) per time and scorer
    with the mean AUC, and (two scorers or more) the differences with their tests."""
    if curves is None:
        return ""
    if curves.aucs is None:
        return f'<h3>Time-dependent AUC(t)</h3><p class="caption">{esc(curves.skipped)}.</p>'
    lvl = level_text(data.level)
    names = list(curves.aucs)
    first = curves.aucs[names[0]]
    bounds = {n: a.confidence_intervals(data.level) for n, a in curves.aucs.items()}
    means = {n: a.mean_confidence_interval(data.level) for n, a in curves.aucs.items()}
    header = ["time t", *(f"{esc(n)}<small>AUC(t), {lvl} CI</small>" for n in names), "cases<small>events by t"
              "</small>", "controls<small>followed beyond t</small>"]
    rows, classes, attrs = [], [], []
    for j, t in enumerate(curves.times):
        row, cl, at = [esc(show_value(t))], ["name"], [f' data-value="{t!r}"']
        for n in names:
            a = curves.aucs[n]
            lo, hi = bounds[n][0][j], bounds[n][1][j]
            row.append(_auc_cell(a.values[j], lo, hi))
            cl.append("num")
            at.append(_auc_attrs(a.values[j], lo, hi, a.std_errors[j]))
        row += [_pairs(first.n_cases[j]), _pairs(first.n_controls[j])]
        cl += ["num", "num"]
        at += ["", ""]
        rows.append(row)
        classes.append(cl)
        attrs.append(at)
    row, cl, at = ["mean AUC"], ["name"], [""]
    for n in names:
        a, m = curves.aucs[n], means[n]
        row.append(_auc_cell(a.mean_value, m.low, m.high))
        cl.append("num")
        at.append(_auc_attrs(a.mean_value, m.low, m.high, a.mean_std_error))
    rows.append(row + ["", ""])
    classes.append(cl + ["", ""])
    attrs.append(at + ["", ""])
    where = ("the 10%, 25%, 50% and 75% quantiles of the observed event times, rounded"
             if curves.how == "auto" else "the times asked for")
    text = (f"Cumulative/dynamic AUC(t) at {where}: of a row whose event came by t (a case, weighted by "
            f"1/G(T-), G the Kaplan-Meier estimate of the censoring) and a row still followed after t (a "
            f"control), how often the case had the higher risk score (tied risks 1/2); Uno et al. 2007, Hung "
            f"&amp; Chiang 2010. Each cell: AUC(t) and its pointwise {lvl} interval (normal, clipped to [0, 1]) "
            f"from the standard error of the i.i.d. representation of Blanche, Dartigues &amp; Jacqmin-Gadda "
            f"(2013), the term of the estimated censoring curve included")
    if data.n_clusters is not None:
        text += f", taken over the {data.n_clusters:,} clusters"
    text += (". Mean AUC: the AUC(t) weighted by the drop of the Kaplan-Meier survival over the interval ending at "
             "each time (Lambert &amp; Chevret 2016; scikit-survival's mean_auc), the weights held fixed in its "
             "standard error.")
    if data.tau is not None:
        text += " &tau; truncates the concordance pairs only; it does not apply to AUC(t)."
    parts = ["<h3>Time-dependent AUC(t)</h3>"]
    if AUC_T in figures:
        parts.append(figure(figures[AUC_T], "AUC(t) of every scorer with its pointwise band",
                            f"AUC(t) of every scorer against the time t with its pointwise {lvl} band (legend: "
                            f"the mean AUC over the times with its interval); the dashed line is a random score. "
                            f"Higher risk = earlier event."))
    parts.append(table(header, rows, "auc-t", classes, attrs, ["", *([""] * len(names)), "", ""]))
    parts.append(f'<p class="caption">{text}</p>')
    if curves.differences is not None:
        parts.append(_auc_differences(data, curves))
    return "\n".join(parts)


def _auc_differences(data, curves: TimeCurves) -> str:
    lvl = level_text(data.level)
    header = ["difference", "time t", f"estimate<small>{lvl} CI</small>", "std. error", "z", "p-value"]
    rows, classes, attrs = [], [], []
    for d in curves.differences:
        diff, lo, hi = d["difference"], d["low"], d["high"]
        est = ("nan" if not np.isfinite(diff) else
               f'{esc(f"{diff:+.4f}")}<span class="ci">{esc(f"[{lo:+.4f}, {hi:+.4f}]")}</span>')
        when = "mean AUC" if d["time"] is None else esc(show_value(d["time"]))
        rows.append([esc(f"{d['a']} - {d['b']}"), when, est, esc(fmt(d["std_error"])), esc(fmt(d["z"], 3)),
                     esc(fmt_p(d["p_value"]))])
        classes.append(["name", "num", "num", "num", "num",
                        "num sig" if np.isfinite(d["p_value"]) and d["p_value"] < 1 - data.level else "num"])
        attrs.append(["", "", f' data-value="{d["difference"]!r}" data-low="{d["low"]!r}" data-high="{d["high"]!r}"',
                      f' data-value="{d["std_error"]!r}"', "", f' data-value="{d["p_value"]!r}"'])
    family = (f"each scorer against {esc(data.reference)}" if data.reference is not None else "every pair of scorers")
    text = (f"Differences of AUC(t) on the same rows, {family}, at each time and for the mean AUC: the standard "
            f"error of the difference of the two scorers' i.i.d. terms row by row (Blanche, Dartigues &amp; "
            f"Jacqmin-Gadda 2013, timeROC's <code>compare</code>), a two-sided z test and the {lvl} interval; "
            f"the p-values are not adjusted for the number of times or pairs (shaded: below "
            f"{1 - data.level:.2g}).")
    return "<h3>Differences: AUC(t)</h3>" + table(header, rows, "pairs", classes, attrs) + \
        f'<p class="caption">{text}</p>'


def time_dependent_auc_summary(data, curves: TimeCurves | None) -> dict | None:
    """The AUC(t) numbers: ``times``, ``how``, ``confidence_level``, ``estimates``
    (``{scorer: TimeDependentAUC.to_dict()}`` with the intervals at the report's level and
    ``mean_low``, ``mean_high``), ``differences`` (None with one scorer) and ``skipped``;
    None with ``times=None``."""
    if curves is None:
        return None
    if curves.aucs is None:
        return {"times": [], "how": curves.how, "confidence_level": data.level, "estimates": None,
                "differences": None, "skipped": curves.skipped}
    return {"times": list(curves.times), "how": curves.how, "confidence_level": data.level,
            "estimates": {n: time_auc_dict(a, data.level) for n, a in curves.aucs.items()},
            "differences": None if curves.differences is None else [dict(d) for d in curves.differences],
            "skipped": None}


def time_auc_dict(est, level: float) -> dict:
    """:meth:`rankwise.survival.TimeDependentAUC.to_dict` with the pointwise intervals and
    the mean's interval at ``level``."""
    lo, hi = est.confidence_intervals(level)
    m = est.mean_confidence_interval(level)
    return {**est.to_dict(), "ci_low": lo.tolist(), "ci_high": hi.tolist(), "confidence_level": level,
            "mean_low": float(m.low), "mean_high": float(m.high)}


# --- the section ----------------------------------------------------------------------------------

@dataclass(frozen=True)
class CRow:
    """One C of one scorer: value, standard error (infinitesimal jackknife), interval and
    the comparable pairs (their weight for a weighted C)."""

    value: float
    std_error: float
    low: float
    high: float
    comparable: float

    def as_dict(self) -> dict:
        return {"value": self.value, "std_error": self.std_error, "low": self.low, "high": self.high,
                "method": "ij", "comparable": self.comparable}


@dataclass(frozen=True)
class Concordance:
    """What the section shows: ``weightings`` (the Cs), ``rows[scorer][weighting]``,
    ``order`` (the scorers, best first on the first C), ``comparisons`` (``{weighting:
    ComparisonNumbers}``; None with one scorer) and ``curves`` (the AUC(t) hook's result)."""

    weightings: tuple
    rows: Mapping[str, Mapping[str, CRow]]
    order: tuple
    comparisons: Mapping[str, ComparisonNumbers] | None
    curves: Any = None


class SurvivalSection(Section):
    """Each risk score's concordance indexes and their differences (see the module's
    description); the page's section for censored times."""

    key = "survival"
    kinds = ("censored",)
    anchor, toc = "survival", "Concordance"
    files = (AUC_T,)

    def compute(self, data, prior) -> Concordance:
        from .. import survival

        curves = time_dependent_auc(data)  # first: a time outside the follow-up fails before the Cs
        rows: dict = {}
        for k, (name, s) in enumerate(data.scores.items(), 1):
            data.progress(f"concordance {k}/{len(data.scores)}: {name}")
            rows[name] = {}
            for w in data.concordance:
                est = survival.estimate(data.time, data.event, s, **survival_args(data, w))
                ci = est.confidence_interval(data.level)
                rows[name][w] = CRow(value=float(est.value), std_error=float(est.std_error), low=float(ci.low),
                                     high=float(ci.high), comparable=float(est.comparable))
        first = data.concordance[0]
        order = tuple(sorted(rows, key=lambda n: (not np.isfinite(rows[n][first].value), -rows[n][first].value
                                                  if np.isfinite(rows[n][first].value) else 0.0)))
        comparisons = None
        if len(data.scores) > 1:
            data.progress("concordance comparisons")
            comparisons = {w: ComparisonNumbers.of(survival.compare(
                data.time, data.event, dict(data.scores), reference=data.reference, adjust="holm",
                confidence_level=data.level, **survival_args(data, w))) for w in data.concordance}
        return Concordance(weightings=tuple(data.concordance),
                           rows=MappingProxyType({n: MappingProxyType(r) for n, r in rows.items()}), order=order,
                           comparisons=None if comparisons is None else MappingProxyType(comparisons),
                           curves=_in_order(curves, order))

    def figures(self, data, result: Concordance) -> dict:
        return time_dependent_auc_figures(data, result.curves)

    def render(self, data, result: Concordance, figures: dict) -> str:
        parts = [_table(data, result), _caption(data, result), time_dependent_auc_html(data, result.curves, figures)]
        if result.comparisons is not None:
            for w in result.weightings:
                parts.append(_differences(data, w, result.comparisons[w]))
        return section("survival", "Concordance with censored times <small>(higher risk = earlier event)</small>",
                       "\n".join(p for p in parts if p))

    def summary(self, data, result: Concordance) -> dict:
        return {"survival": {
            "concordance": list(result.weightings), "tau": data.tau, "n_events": data.n_events,
            "n_strata": None if data.strata is None else int(data.strata.max()) + 1, "order": list(result.order),
            "estimates": {n: {w: result.rows[n][w].as_dict() for w in result.weightings} for n in result.order},
            "comparisons": None if result.comparisons is None else {w: c.as_dict()
                                                                     for w, c in result.comparisons.items()},
            "time_dependent_auc": time_dependent_auc_summary(data, result.curves)}}


# --- HTML -------------------------------------------------------------------------------------------

def _value(r: CRow) -> str:
    if not np.isfinite(r.value):
        return "nan"
    return f'{esc(fmt(r.value))}<span class="ci">{esc(interval(r.low, r.high))}</span>'


def _pairs(x: float) -> str:
    if not np.isfinite(x):
        return "nan"
    return f"{int(x):,}" if float(x).is_integer() else esc(fmt(x))


def _table(data, result: Concordance) -> str:
    lvl = level_text(data.level)
    header = ["#", "scorer"]
    for w in result.weightings:
        header.append(f"{esc(CONCORDANCE_NAMES[w])}<small>{lvl} CI</small>")
    for w in result.weightings:
        header.append(f"std. error<small>{esc(CONCORDANCE_NAMES[w])}</small>")
    header.append("comparable pairs" + ("<small>up to &tau;</small>" if data.tau is not None else ""))
    best = {w: max((r[w].value for r in result.rows.values() if np.isfinite(r[w].value)), default=None)
            for w in result.weightings}
    rows, classes, attrs = [], [], []
    for k, name in enumerate(result.order, 1):
        r = result.rows[name]
        row, cl, at = [str(k), esc(name)], ["rank", "name"], ["", ""]
        for w in result.weightings:
            row.append(_value(r[w]))
            cl.append("num best" if best[w] is not None and r[w].value == best[w] else "num")
            at.append(f' data-value="{r[w].value!r}" data-low="{r[w].low!r}" data-high="{r[w].high!r}"')
        for w in result.weightings:
            row.append(esc(fmt(r[w].std_error)))
            cl.append("num")
            at.append(f' data-value="{r[w].std_error!r}"')
        row.append(_pairs(r[result.weightings[0]].comparable))
        cl.append("num")
        at.append("")
        rows.append(row)
        classes.append(cl)
        attrs.append(at)
    return table(header, rows, "concordance", classes, attrs, ["", "name"] + [""] * (len(header) - 2))


def _caption(data, result: Concordance) -> str:
    lvl = level_text(data.level)
    n, e = data.n, data.n_events
    text = (f"Risk scores: <b>higher risk = earlier event</b>, for every scorer. {n:,} rows, {e:,} events, "
            f"{n - e:,} censored. A pair of rows is comparable when the earlier follow-up ended in the event (an "
            f"event before a censoring at the same time counts; two events at the same time do not); a pair "
            f"counts 1 when the earlier row has the higher risk, 1/2 when the risks tie.")
    if "harrell" in result.weightings:
        text += " Harrell's C: every comparable pair alike (Harrell, Lee &amp; Mark 1996)."
    if "uno" in result.weightings:
        text += (" Uno's C: each pair weighted by 1/G(t-)<sup>2</sup>, G the Kaplan-Meier estimate of the "
                 "censoring distribution at the earlier time t (Uno et al. 2011, &ldquo;On the C-statistics for "
                 "evaluating overall adequacy of risk prediction procedures with censored survival data&rdquo;)"
                 + ("; G is fitted within each stratum" if data.strata is not None else "") + ".")
    if data.tau is not None:
        text += f" Pairs truncated at &tau; = {esc(show_value(data.tau))}: the earlier follow-up ends by &tau;."
    if data.strata is not None:
        column = (data.source or {}).get("strata")
        k = int(data.strata.max()) + 1
        text += (f" Pairs within strata only ({k:,} strata" + (f" of <code>{esc(str(column))}</code>" if column
                                                                else "") + ").")
    text += (f" Each cell: the value and its {lvl} confidence interval (normal, clipped to [0, 1]) from the "
             f"infinitesimal jackknife standard error, as R survival's <code>concordance</code>"
             + (" (Uno's with the censoring weights held fixed)" if "uno" in result.weightings else ""))
    if data.n_clusters is not None:
        text += f", taken over the {data.n_clusters:,} clusters (cluster-robust)"
    text += ". The best value of each column is highlighted; the scorers are listed best first on " \
            f"{esc(CONCORDANCE_NAMES[result.weightings[0]])}."
    return f'<p class="caption">{text}</p>'


def _differences(data, weighting: str, comp: ComparisonNumbers) -> str:
    lvl = level_text(data.level)
    name = CONCORDANCE_NAMES[weighting]
    how = ADJUST_NAMES.get(comp.adjust, comp.adjust)
    header = ["difference", f"estimate<small>{lvl} CI</small>", "std. error", "z", "p-value", f"p<small>{esc(how)}"
              f"</small>"]
    rows, classes, attrs = [], [], []
    for p in comp.pairs:
        rows.append([esc(f"{p.a} - {p.b}"), f'{esc(f"{p.difference:+.4f}")}<span class="ci">'
                     f'{esc(f"[{p.low:+.4f}, {p.high:+.4f}]")}</span>', esc(fmt(p.std_error)),
                     esc(fmt(p.statistic, 3)), esc(fmt_p(p.p_value)), esc(fmt_p(p.p_adjusted))])
        classes.append(["name", "num", "num", "num", "num",
                        "num sig" if np.isfinite(p.p_adjusted) and p.p_adjusted < 1 - data.level else "num"])
        attrs.append(["", f' data-value="{p.difference!r}" data-low="{p.low!r}" data-high="{p.high!r}"', "", "", "",
                      f' data-value="{p.p_adjusted!r}"'])
    m = len(comp.pairs)
    family = (f"the {m} comparison{'s' if m != 1 else ''} with {comp.reference}" if comp.reference is not None
              else f"all {m} pairs of scorers" if m != 1 else "the one pair of scorers")
    text = (f"Differences of {esc(name)} on the same rows: the joint covariance of the infinitesimal jackknife "
            f"(R survival's <code>concordance</code> of several fits), a z test for each difference with its "
            f"{lvl} interval (not adjusted), p-values {esc(how)}-adjusted over {esc(family)} (shaded: below "
            f"{1 - data.level:.2g}).")
    if np.isfinite(comp.global_statistic):
        text += (f" All {len(comp.names)} equal: chi2 = {esc(fmt(comp.global_statistic, 3))}, df = "
                 f"{esc(show_value(comp.global_df))}, p {esc(p_eq(comp.global_p_value))}.")
    return (f"<h3>Differences: {esc(name)}</h3>" + table(header, rows, "pairs", classes, attrs)
            + f'<p class="caption">{text}</p>')
