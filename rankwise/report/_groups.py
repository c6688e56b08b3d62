"""The section by group (``write_report(..., groups=)``): for each scorer, every criterion
with an analytic variance in each group with its interval, each group against the rest
of the rows, the test that all groups are equal, the bias AUCs and a forest plot of the
AUC by group.

The numbers are those of :func:`rankwise.stats.by_group` (one call per scorer, on the
report's rows, with its clusters): this section only chooses the criteria, lays the
tables out and draws the forest with :class:`rankwise.display.GroupForestDisplay`."""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Mapping

import numpy as np

from ._draw import new_figure, png
from ._html import ADJUST_NAMES, esc, figure, fmt, fmt_p, level_text, num_attrs, p_eq, section, show_value, table
from ._page import Section

#: The bias statistics' column headers, in the order of :data:`rankwise.stats.BIAS_STATISTICS`.
BIAS_HEADERS = {"subgroup_auc": "subgroup AUC", "bpsn_auc": "BPSN AUC", "bnsp_auc": "BNSP AUC",
                "aeg_positive": "positive AEG", "aeg_negative": "negative AEG", "xauc_disparity": "xAUC disparity"}


def group_criteria(data) -> tuple[tuple, dict]:
    """``(specs, labels)``: the criteria shown by group, the AUC first (the report's own
    spec of it when it has one), then every other criterion of the report that has an
    analytic variance (those without one, e.g. the KS statistic, would show values
    without intervals or tests); ``labels`` their readable names."""
    from .. import criteria as _criteria
    from .._labels import kind_of

    auc = _criteria.get("auc")
    auc_spec = next((spec for spec in data.criteria if data.units[spec] == auc), "auc")
    specs = [auc_spec]
    for spec in data.criteria:
        unit = data.units[spec]
        # the label kind first: a criterion of real-valued labels (ranking_risk) has no projection attribute
        if spec != auc_spec and kind_of(unit).name == "binary" and unit.methods and unit.has_projection:
            specs.append(spec)
    labels = {spec: data.labels.get(spec) or _criteria.get(spec).describe() for spec in specs}
    return tuple(specs), labels


@dataclass(frozen=True)
class Groups:
    """What the section shows: ``specs`` (the criteria, AUC first) and their ``labels``,
    ``order`` (the scorers, best first when the criteria were computed), ``estimates``
    (``{scorer: GroupEstimates}``), the groups' ``names`` and ``column``, ``one_class``
    (the groups with one class only) and ``n_clusters``."""

    specs: tuple
    labels: Mapping[str, str]
    order: tuple
    estimates: Mapping[str, Any]
    names: tuple
    column: str | None
    one_class: tuple
    n_clusters: int | None


class GroupsSection(Section):
    """Every scorer by group (see the module's description); applies with ``groups``."""

    key = "groups"
    wants = ("criteria",)
    anchor, toc = "groups", "By group"

    def applies(self, data) -> bool:
        return data.groups is not None

    def compute(self, data, prior) -> Groups:
        from .. import stats

        specs, labels = group_criteria(data)
        crit = prior.get("criteria")
        order = tuple(crit.order) if crit is not None else tuple(data.scores)
        ests = {}
        for k, name in enumerate(order, 1):
            data.progress(f"by group {k}/{len(order)}: {name}")
            ests[name] = stats.by_group(data.y01, data.scores[name], data.groups, specs, adjust="holm",
                                        confidence_level=data.level, names=[name], **data.cluster_args)
        first = ests[order[0]]
        return Groups(specs=specs, labels=MappingProxyType(labels), order=order, estimates=MappingProxyType(ests),
                      names=tuple(first.groups), column=data.group_name, one_class=tuple(first.one_class),
                      n_clusters=first.n_clusters)

    def figures(self, data, result: Groups) -> dict:
        """``{scorer: PNG}``: the AUC of each group with its interval, a line at the AUC
        on all rows (:class:`rankwise.display.GroupForestDisplay`)."""
        from ..display import GroupForestDisplay

        out = {}
        for name in result.order:
            fig, ax = new_figure(7.4, 1.8 + 0.42 * len(result.names))
            GroupForestDisplay.from_estimates(result.estimates[name], result.specs[0], name, ax=ax)
            out[name] = png(fig)
        return out

    def render(self, data, result: Groups, figures: dict) -> str:
        parts = [_intro(data, result)]
        for k, name in enumerate(result.order, 1):
            parts.append(_scorer(data, result, name, k, figures.get(name)))
        return section("groups", "By group" + (f": <code>{esc(result.column)}</code>" if result.column else ""),
                       "\n".join(parts))

    def summary(self, data, result: Groups) -> dict:
        first = result.estimates[result.order[0]]
        sizes = {}
        for r in first.rows:
            if r.criterion == result.specs[0]:
                sizes.setdefault(r.group, int(r.n_rows))
        return {"groups": {"column": result.column, "names": list(result.names), "sizes": list(sizes.values()),
                           "criteria": list(result.specs), "one_class": list(result.one_class),
                           "n_clusters": result.n_clusters,
                           "by_scorer": {n: result.estimates[n].to_dict() for n in result.order}}}


# --- HTML ------------------------------------------------------------------------------------

def _intro(data, result: Groups) -> str:
    G = len(result.names)
    column = f" <code>{esc(result.column)}</code>" if result.column else ""
    lvl = level_text(data.level)
    crits = ", ".join(esc(result.labels[s]) for s in result.specs)
    text = (f"The rows fall in {G:,} group{'s' if G != 1 else ''} of the column{column}" if result.column else
            f"The rows fall in {G:,} group{'s' if G != 1 else ''}")
    text += (f". For each scorer: {crits} in each group with its {lvl} confidence interval (analytic: DeLong's "
             f"variance for the AUC, the Hájek projection's for the others; criteria without an analytic variance "
             f"are not shown by group), each group against the rest of the rows (the difference with its {lvl} "
             f"interval, not adjusted, and its p-value Holm-adjusted over the {G} groups), the Wald test that the "
             f"criterion is equal in every group, the bias AUCs of each group and a forest plot of the AUC by "
             f"group.")
    if result.n_clusters is not None:
        text += (f" Every interval and test treats the {result.n_clusters:,} clusters as the sampling units "
                 f"(cluster-robust variances, Obuchowski 1997), also across groups.")
    out = [f'<p class="caption">{text}</p>']
    if result.one_class:
        out.append(_one_class_note(result))
    return "\n".join(out)


def _one_class_note(result: Groups) -> str:
    m = len(result.one_class)
    which = ", ".join(esc(str(g)) for g in result.one_class)
    return (f'<p class="caption warn">{m} group{"s" if m != 1 else ""} ({which}) '
            f'{"hold" if m != 1 else "holds"} one class only: {"their" if m != 1 else "its"} criteria are '
            f'undefined (nan) and {"they are" if m != 1 else "it is"} left out of the tests.</p>')


def _rows_of(est, spec: str) -> dict:
    return {r.group: r for r in est.rows if r.criterion == spec}


def _scorer(data, result: Groups, name: str, k: int, forest_png: bytes | None) -> str:
    est = result.estimates[name]
    auc_spec = result.specs[0]
    aucs = _rows_of(est, auc_spec)
    finite = [(r.value, g) for g, r in aucs.items() if np.isfinite(r.value)]
    gt = next(t for t in est.global_tests if t.criterion == auc_spec)
    summary = f"<b>{k}. {esc(name)}</b>"
    if finite:
        (lo, g_lo), (hi, g_hi) = min(finite, key=lambda t: t[0]), max(finite, key=lambda t: t[0])
        summary += (f" &mdash; {esc(result.labels[auc_spec])} from {esc(fmt(lo))} ({esc(str(g_lo))}) to "
                    f"{esc(fmt(hi))} ({esc(str(g_hi))})")
        if np.isfinite(gt.p_value):
            summary += f"; all groups equal: p {esc(p_eq(gt.p_value))}"
    head = f"{esc(result.labels[auc_spec])} by group" if len(result.specs) == 1 else "Criteria by group"
    parts = [f"<h3>{head}</h3>", _groups_table(data, result, est), _groups_caption(data, result, est)]
    if forest_png is not None:
        parts.append(figure(forest_png, f"{result.labels[auc_spec]} of {name} by group",
                            f"{esc(result.labels[auc_spec])} of each group with its {level_text(data.level)} "
                            f"confidence interval and its Holm-adjusted p-value against the rest; the vertical line "
                            f"is the {esc(result.labels[auc_spec])} on all rows (shaded: its interval).",
                            cls="forest"))
    if est.bias:
        parts += ["<h3>Bias AUCs</h3>", _bias_table(data, est), _bias_caption(data, result)]
    opened = " open" if k == 1 else ""
    return (f'<details class="scorer" id="group-scorer-{k}"{opened}><summary>{summary}</summary>'
            f'{"".join(parts)}</details>')


def _groups_table(data, result: Groups, est) -> str:
    lvl = level_text(data.level)
    header = ["group", "n", "positives", "negatives"]
    hclass = ["name", "", "", ""]
    for spec in result.specs:
        label = esc(result.labels[spec])
        header += [f"{label}<small>{lvl} CI</small>", f"&Delta; {label}<small>vs the rest</small>",
                   f"p<small>{esc(ADJUST_NAMES.get(est.adjust, est.adjust))}</small>"]
        hclass += ["", "", ""]
    rows_by = {spec: _rows_of(est, spec) for spec in result.specs}
    overall = {r.criterion: r for r in est.overall}
    diffs = {(d.criterion, d.group): d for d in est.differences}
    rows, classes, attrs = [], [], []
    first = overall[result.specs[0]]
    row = ["all rows", f"{first.n_rows:,}", _count(first.n_pos), _count(first.n_neg)]
    cl, at = ["name", "num", "num", "num"], ["", "", "", ""]
    for spec in result.specs:
        r = overall[spec]
        row += [_value(r), "&ndash;", "&ndash;"]
        cl += ["num", "ref", "ref"]
        at += [num_attrs(r), "", ""]
    rows.append(row)
    classes.append(cl)
    attrs.append(at)
    one = set(result.one_class)
    for g in est.groups:
        r0 = rows_by[result.specs[0]][g]
        label = esc(str(g)) + (" <small>one class only</small>" if g in one else "")
        row = [label, f"{r0.n_rows:,}", _count(r0.n_pos), _count(r0.n_neg)]
        cl, at = ["name", "num", "num", "num"], ["", "", "", ""]
        for spec in result.specs:
            r, d = rows_by[spec][g], diffs.get((spec, g))
            row.append(_value(r))
            cl.append("num")
            at.append(num_attrs(r))
            if d is None or not np.isfinite(d.difference):
                row += ["nan", "nan"]
                cl += ["num", "num"]
                at += ["", ""]
            else:
                diff, ends = f"{d.difference:+.4f}", f"[{d.low:+.4f}, {d.high:+.4f}]"
                row += [f'{esc(diff)}<span class="ci">{esc(ends)}</span>', esc(fmt_p(d.p_adjusted))]
                cl += ["num", "num sig" if d.p_adjusted < 1 - data.level else "num"]
                at += [f' data-value="{d.difference!r}" data-low="{d.low!r}" data-high="{d.high!r}"',
                       f' data-value="{d.p_adjusted!r}"']
        rows.append(row)
        classes.append(cl)
        attrs.append(at)
    return table(header, rows, "groups", classes, attrs, hclass)


def _count(x: float) -> str:
    """A class count (the report's rows carry no weights: whole numbers)."""
    return f"{int(round(x)):,}" if np.isfinite(x) else "nan"


def _value(r) -> str:
    if not np.isfinite(r.value):
        return "nan"
    return f'{esc(fmt(r.value))}<span class="ci">{esc("[" + fmt(r.low) + ", " + fmt(r.high) + "]")}</span>'


def _groups_caption(data, result: Groups, est) -> str:
    tests = []
    for spec in result.specs:
        t = next(t for t in est.global_tests if t.criterion == spec)
        if t.n_groups > 1 and np.isfinite(t.p_value):
            tests.append(f"{esc(result.labels[spec])}: chi2 = {fmt(t.statistic, 3)}, df = {show_value(t.df)}, "
                         f"p {esc(p_eq(t.p_value))}")
        else:
            tests.append(f"{esc(result.labels[spec])}: fewer than two groups with both classes, no test")
    how = ADJUST_NAMES.get(est.adjust, est.adjust)
    text = (f"Each cell: the value on the group's rows and its {level_text(data.level)} interval; &Delta;: the "
            f"group's value minus that of every other row, with its interval (not adjusted) and its p-value "
            f"{esc(how)}-adjusted over {esc(est.family)} (shaded: below {1 - data.level:.2g}). All groups equal "
            f"(Wald test, groups with both classes): " + "; ".join(tests) + ".")
    return f'<p class="caption">{text}</p>'


def _bias_table(data, est) -> str:
    from ..stats.blocks import BIAS_STATISTICS

    by = {(b.group, b.statistic): b for b in est.bias}
    header = ["group"] + [f"{BIAS_HEADERS[s]}<small>{level_text(data.level)} CI, p</small>" for s in BIAS_STATISTICS]
    rows, classes, attrs = [], [], []
    for g in est.groups:
        row, cl, at = [esc(str(g))], ["name"], [""]
        for s in BIAS_STATISTICS:
            b = by.get((g, s))
            if b is None or not np.isfinite(b.value):
                row.append("nan")
                cl.append("num")
                at.append("")
                continue
            row.append(f'{_value(b)}<span class="ci">p {esc(p_eq(b.p_adjusted))}</span>')
            cl.append("num sig" if np.isfinite(b.p_adjusted) and b.p_adjusted < 1 - data.level else "num")
            at.append(num_attrs(b) + f' data-p="{float(b.p_adjusted)!r}"')
        rows.append(row)
        classes.append(cl)
        attrs.append(at)
    return table(header, rows, "bias", classes, attrs, ["name"] + [""] * len(BIAS_STATISTICS))


def _bias_caption(data, result: Groups) -> str:
    text = ("For each group g, after Borkan et al. 2019 (&ldquo;Nuanced metrics for measuring unintended bias "
            "with real data for text classification&rdquo;): the subgroup AUC (g's positives against g's "
            "negatives); BPSN, background positives and subgroup negatives (the other groups' positives against "
            "g's negatives); BNSP, subgroup positives and background negatives (g's positives against the other "
            "groups' negatives); the positive and negative average equality gaps (1/2 minus the share of pairs "
            "in which g's positives outscore the other positives, and likewise for the negatives: 0 when g's "
            "scores sit where the others' do). The xAUC disparity of Kallus &amp; Zhou 2019 (&ldquo;The fairness "
            "of risk scores beyond classification: bipartite ranking and the xAUC metric&rdquo;) is BNSP "
            "minus BPSN. The three AUCs are tested against the AUC on all rows, the gaps and the disparity against "
            f"0; p-values {esc(ADJUST_NAMES.get('holm'))}-adjusted over each statistic's groups (shaded: below "
            f"{1 - data.level:.2g}).")
    if result.n_clusters is not None:
        text += f" Cluster-robust over the {result.n_clusters:,} clusters."
    return f'<p class="caption">{text}</p>'
