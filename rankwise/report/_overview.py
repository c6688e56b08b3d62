"""The overview (the scorers ranked, every criterion with its interval, the difference of
each to the reference with its test) and the collapsed table of all pairwise
comparisons."""

from __future__ import annotations

from dataclasses import dataclass

from ._criteria import ComparisonNumbers, Criteria, best
from ._html import (ADJUST_NAMES, METHOD_NAMES, collapsed_section, esc, fmt, fmt_p, interval, level_text, num_attrs,
                    p_eq, section, show_value, table, value_cell)
from ._page import Section


def family_words(comp: ComparisonNumbers, reference_label: str | None = None) -> str:
    """"Holm-adjusted over the 14 comparisons with logreg" / "over all 105 pairs"."""
    how = ADJUST_NAMES.get(comp.adjust, comp.adjust)
    m = len(comp.pairs)
    if comp.reference is not None:
        return f"{how}-adjusted over the {m} comparison{'s' if m != 1 else ''} with {reference_label or comp.reference}"
    return f"{how}-adjusted over all {m} pair{'s' if m != 1 else ''} of scorers"


def _interval_words(comp: ComparisonNumbers, level: float) -> str:
    """The differences' interval as the alternative makes it: two-sided at the report's
    level, one-sided for ``greater``/``less``/``noninferiority``, two-sided at
    ``2 level - 1`` for ``equivalence``."""
    if comp.alternative == "equivalence":
        return f"two-sided {level_text(2.0 * level - 1.0)}"
    if comp.alternative in ("greater", "less", "noninferiority"):
        return f"one-sided {level_text(level)}"
    return level_text(level)


def hypothesis_words(comp: ComparisonNumbers, level: float) -> str:
    """The hypotheses of the tests against the reference in words (empty for the
    two-sided test of no difference), starting with "; "."""
    alpha = f"{1.0 - level:.2g}"
    ref = comp.reference
    if comp.alternative == "greater":
        return f"; one-sided, H1: a scorer's value is above {ref}'s"
    if comp.alternative == "less":
        return f"; one-sided, H1: a scorer's value is below {ref}'s"
    d = f"{comp.margin:g}" if comp.margin is not None else "?"
    if comp.alternative == "noninferiority":
        return (f"; non-inferiority with margin {d}: H0: the scorer is worse than {ref} by {d} or more "
                f"(difference <= -{d}), H1: difference > -{d}; statistic (difference + {d}) / se with its upper "
                f"tail; a scorer is non-inferior to {ref} when p < {alpha}, i.e. when its interval's lower end "
                f"exceeds -{d}")
    if comp.alternative == "equivalence":
        return (f"; equivalence with margin {d} (two one-sided tests, Schuirmann 1987): H0: |difference| >= {d}, "
                f"H1: -{d} < difference < {d}; p is the larger of the two one-sided p-values; a scorer is "
                f"equivalent to {ref} when p < {alpha}, i.e. when its interval lies inside (-{d}, {d})")
    return ""


def clusters_text(data) -> str:
    """A caption's sentence on the sampling units; empty when the rows are independent."""
    if data.n_clusters is None:
        return ""
    return (f" Intervals and tests treat the {data.n_clusters:,} clusters as the sampling units (the variance of "
            f"Obuchowski 1997 for the analytic ones; whole clusters resampled for the bootstrap).")


def _methods_text(crit: Criteria, data) -> str:
    by_method: dict[str, list[str]] = {}
    for spec in data.criteria:
        for m in dict.fromkeys(r[spec].method for r in crit.rows.values()):
            by_method.setdefault(m, []).append(data.labels[spec])
    parts = []
    for m, specs in by_method.items():
        name = METHOD_NAMES.get(m, m) + (f", {data.n_resamples} resamples" if m == "bootstrap" else "")
        parts.append(f"{name} for {', '.join(specs)}")
    return "; ".join(parts)


@dataclass(frozen=True)
class Overview:
    """The criteria (with the ranking) and, with two scorers or more, the comparisons
    with the reference."""

    criteria: Criteria
    versus: ComparisonNumbers | None


class OverviewSection(Section):
    key = "overview"
    needs = ("criteria",)
    wants = ("comparisons",)
    anchor, toc = "overview", "Overview"

    def compute(self, data, prior) -> Overview:
        comparisons = prior.get("comparisons")
        return Overview(criteria=prior["criteria"], versus=None if comparisons is None else comparisons.versus)

    def render(self, data, result: Overview, figures: dict) -> str:
        return section("overview", "Overview", _overview(data, result.criteria, result.versus))


def _overview(data, crit: Criteria, versus: ComparisonNumbers | None) -> str:
    lvl, labels, units = level_text(data.level), data.labels, data.units
    header, hclass = ["#", "scorer"], ["", "name"]
    for spec in data.criteria:
        sub = []
        if spec == data.rank_by:
            sub.append("ranked by")
        if not units[spec].greater_is_better:
            sub.append("lower is better")
        header.append(esc(labels[spec]) + (f"<small>{esc(', '.join(sub))}</small>" if sub else ""))
        hclass.append("")
    if versus is not None:
        test = {"noninferiority": ", non-inferiority", "equivalence": ", equivalence", "greater": ", one-sided",
                "less": ", one-sided"}.get(versus.alternative, "")
        margin = "" if versus.margin is None else f", margin {versus.margin:g}"
        header += [f"&Delta; {esc(labels.get(versus.spec, versus.spec))}<small>vs {esc(versus.reference)}"
                   f"{esc(margin)}</small>", f"p<small>{esc(ADJUST_NAMES[versus.adjust] + test)}</small>"]
        hclass += ["", ""]
        by_a = {p.a: p for p in versus.pairs}
    top = {spec: best(crit.rows, spec, units[spec]) for spec in data.criteria}
    rows, classes, attrs = [], [], []
    for rank, name in enumerate(crit.order, 1):
        row, cl, at = [str(rank), esc(name)], ["rank", "name"], ["", ""]
        for spec in data.criteria:
            r = crit.rows[name][spec]
            row.append(value_cell(r))
            cl.append("num best" if top[spec] is not None and r.value == top[spec] else "num")
            at.append(num_attrs(r))
        if versus is not None:
            if name == versus.reference:
                row += ["reference", "&ndash;"]
                cl += ["ref", "ref"]
                at += ["", ""]
            else:
                p = by_a[name]
                diff, ends = f"{p.difference:+.4f}", f"[{p.low:+.4f}, {p.high:+.4f}]"
                row += [f'{esc(diff)}<span class="ci">{esc(ends)}</span>', esc(fmt_p(p.p_adjusted))]
                cl += ["num", "num sig" if p.p_adjusted < 1 - data.level else "num"]
                at += [f' data-value="{p.difference!r}" data-low="{p.low!r}" data-high="{p.high!r}"',
                       f' data-value="{p.p_adjusted!r}"']
        rows.append(row)
        classes.append(cl)
        attrs.append(at)
    out = [table(header, rows, "overview", classes, attrs, hclass)]
    text = (f"Ranked by {esc(labels[data.rank_by])}. Each cell: the value and its {lvl} confidence interval "
            f"({esc(_methods_text(crit, data))}); the best value of each column is highlighted.")
    if versus is not None:
        meth = METHOD_NAMES.get(versus.method, versus.method)
        if versus.method == "bootstrap":
            meth += (f", {data.n_resamples:,} resamples, statistic = difference / bootstrap SD as pROC's "
                     f"roc.test(method = 'bootstrap')")
        text += (f" &Delta;: each scorer's {esc(labels.get(versus.spec, versus.spec))} minus that of "
                 f"{esc(versus.reference)}, with its {esc(_interval_words(versus, data.level))} interval (not adjusted); "
                 f"paired {esc(meth)} test on the same observations{esc(hypothesis_words(versus, data.level))}, "
                 f"p-values {esc(family_words(versus))} (shaded: below "
                 f"{1 - data.level:.2g}). All {len(versus.names)} equal: chi2 = {fmt(versus.global_statistic, 3)}, "
                 f"df = {show_value(versus.global_df)}, p {esc(p_eq(versus.global_p_value))}.")
    text += esc(clusters_text(data))
    out.append(f'<p class="caption">{text}</p>')
    return "\n".join(out)


class PairsSection(Section):
    """Every pair of scorers on the AUC, as a table and a matrix of adjusted p-values."""

    key = "pairs"
    needs = ("comparisons",)
    anchor, toc = "pairs", "All pairwise comparisons"

    def applies(self, data) -> bool:
        return len(data.scores) > 1

    def compute(self, data, prior) -> ComparisonNumbers:
        return prior["comparisons"].every

    def render(self, data, result: ComparisonNumbers, figures: dict) -> str:
        return collapsed_section("pairs", "All pairwise comparisons (AUC)", _pairs(result, data))


def _pairs(comp: ComparisonNumbers, data) -> str:
    level = data.level
    lvl = level_text(level)
    names = comp.names
    header = ["difference", "estimate", f"{lvl} CI", "z", "p-value", f"p ({esc(ADJUST_NAMES[comp.adjust])})"]
    rows, classes = [], []
    for p in comp.pairs:
        rows.append([esc(f"{p.a} - {p.b}"), esc(fmt(p.difference)), esc(interval(p.low, p.high)),
                     esc(fmt(p.statistic, 3)), esc(fmt_p(p.p_value)), esc(fmt_p(p.p_adjusted))])
        classes.append(["name", "num", "num", "num", "num", "num sig" if p.p_adjusted < 1 - level else "num"])
    out = [table(header, rows, "pairs", classes)]
    header = [f"p ({esc(ADJUST_NAMES[comp.adjust])})"] + [str(i) for i in range(1, len(names) + 1)]
    rows, classes = [], []
    for i, a in enumerate(names):
        row, cl = [f"{i + 1}. {esc(a)}"], ["name"]
        for j in range(len(names)):
            p = comp.p_adjusted_matrix[i][j]
            if i == j:
                row.append("&ndash;")
                cl.append("diag")
            else:
                row.append(esc(fmt_p(p)))
                cl.append("num sig" if p < 1 - level else "num")
        rows.append(row)
        classes.append(cl)
    out.append(table(header, rows, "matrix", classes, header_classes=["name"] + [""] * len(names)))
    meth = METHOD_NAMES.get(comp.method, comp.method)
    out.append(f'<p class="caption">Every pair of scorers on the AUC: paired {esc(meth)} test on the same '
               f"observations, p-values {esc(family_words(comp))} (shaded: below {1 - level:.2g}); intervals not "
               f"adjusted. Columns of the matrix are numbered as its rows.{esc(clusters_text(data))}</p>")
    return "\n".join(out)
