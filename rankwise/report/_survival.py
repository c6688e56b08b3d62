"""The section on censored times (``write_report(..., time=, event=)``): each risk score's
Harrell's and Uno's concordance index with its interval, and the differences between the
scorers with their tests. **Higher risk = earlier event**, for every scorer.

The numbers are those of :func:`rankwise.survival.estimate` (one call per scorer and C)
and :func:`rankwise.survival.compare` (one call per C: the joint covariance of the
infinitesimal jackknife, every pair, Holm-adjusted p-values): this section only lays them
out. It serves the ``"censored"`` label kind only, so a page on binary labels is what it
was without it.

The time-dependent AUC(t) with its bands has its place here, marked ``HOOK`` below: four
functions that return nothing yet and that the section already calls.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Mapping

import numpy as np

from ._criteria import ComparisonNumbers
from ._html import ADJUST_NAMES, esc, fmt, fmt_p, interval, level_text, p_eq, section, show_value, table
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


# --- HOOK: the time-dependent AUC(t) ------------------------------------------------------------
# The cumulative/dynamic AUC(t) of every scorer with its bands (rw.survival.cumulative_dynamic_auc,
# issue 30, item 3) goes here. SurvivalSection already calls these four functions: compute the
# curves in `time_dependent_auc` (a frozen result, nothing drawn), draw them in
# `time_dependent_auc_figures` ({key: PNG}; add the key to SurvivalSection.files to also write
# <stem>_files/<key>.png, and output_paths then lists it), show them in `time_dependent_auc_html`
# (placed between the table of Cs and the differences) and return their numbers in
# `time_dependent_auc_summary` (write_report's ["survival"]["time_dependent_auc"]). Until then
# they return None, {}, "" and None: the page shows no curves.

def time_dependent_auc(data) -> Any | None:
    """HOOK: the AUC(t) curves of every scorer with their bands; None until built."""
    return None


def time_dependent_auc_figures(data, curves) -> dict:
    """HOOK: ``{key: PNG bytes}`` of the AUC(t) curves; none until built."""
    return {}


def time_dependent_auc_html(data, curves, figures: dict) -> str:
    """HOOK: the AUC(t) part of the section (escaped HTML); empty until built."""
    return ""


def time_dependent_auc_summary(data, curves) -> Any | None:
    """HOOK: the AUC(t) numbers of the returned dict; None until built."""
    return None


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

    def compute(self, data, prior) -> Concordance:
        from .. import survival

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
                           curves=time_dependent_auc(data))

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
