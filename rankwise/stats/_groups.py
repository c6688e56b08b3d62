"""Criteria by group: every group's value with its interval, each group against a
reference group or against the rest, a global test that all groups are equal, the bias
AUCs of Borkan et al. (2019) and the xAUC disparity of Kallus & Zhou (2019).

Everything here is a criterion over a chosen set of pairs plus the variance step of
:mod:`rankwise.stats._variance`. The *cells* are class x group. A statistic is a
criterion of some cells' positives over some cells' negatives (a group's AUC: its own
two cells; the rest's: every other group's; BPSN: the other groups' positives over this
group's negatives); its per-row terms are its projection (DeLong's placements for the
AUC), and the joint covariance of several statistics is the covariance of their stacked
terms over the cells (rows independent) or over clusters. Conditional on each cell's size,
as DeLong's variance is conditional on the class sizes: a statistic that spans several
cells (the rest) has its terms weighted by each cell's share, the stratified form.

The AUCs come from one sort of each scorer (:class:`rankwise._kernels.CellSort`), every
set's placements a bincount and a gather; other criteria are computed on each group's rows
(:func:`rankwise.stats._core.terms_by_row`: the groups' sorts add up to one).
"""

from __future__ import annotations

import html
import warnings
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import numpy as np

from .._kernels import MAX_PLACEMENTS, CellAUCs, CellMoments, GroupCells
from .._labels import kind_of
from .._validation import check_choice, check_scores, check_same_length
from ..metrics.blocks import bias_definitions, group_cells
from . import _core
from ._compare import ADJUSTMENTS, _global_test, _interval, _test, adjust_p_values, score_columns
from ._estimate import (
    DegenerateIntervalWarning,
    estimate,
    resolve_criterion,
    warn_few_clusters,
)
from ._results import fmt, fmt_count, format_rows, html_table
from ._variance import sparse_term_covariance

__all__ = ["by_group", "GroupEstimates", "GroupRow", "GroupDifference", "GroupTest", "BiasRow",
           "OneClassGroupWarning", "BIAS_STATISTICS"]


class OneClassGroupWarning(UserWarning):
    """A group holds one class only (or no weight on one): its criteria are undefined, so
    its row is nan and it is left out of the tests."""


#: The bias statistics of :func:`by_group` (AUC only), in table order.
BIAS_STATISTICS = ("subgroup_auc", "bpsn_auc", "bnsp_auc", "aeg_positive", "aeg_negative", "xauc_disparity")
_BIAS_TEXT = {
    "subgroup_auc": "subgroup AUC",
    "bpsn_auc": "BPSN AUC",
    "bnsp_auc": "BNSP AUC",
    "aeg_positive": "positive AEG",
    "aeg_negative": "negative AEG",
    "xauc_disparity": "xAUC disparity",
}


class GroupRow(NamedTuple):
    """A criterion on one group's rows (``group`` None: on every row)."""

    scorer: str
    criterion: str
    group: Any
    n_rows: int
    n_pos: float
    n_neg: float
    value: float
    std_error: float
    low: float
    high: float


class GroupDifference(NamedTuple):
    """``value(group) - value(versus)``: ``versus`` the reference group, or ``"rest"`` (the
    rows of every other group). ``p_adjusted`` over the family of the result."""

    scorer: str
    criterion: str
    group: Any
    versus: Any
    difference: float
    std_error: float
    statistic: float
    p_value: float
    p_adjusted: float
    low: float
    high: float


class GroupTest(NamedTuple):
    """Wald test that a criterion is equal in every group (those with both classes):
    chi-square with ``df`` degrees of freedom."""

    scorer: str
    criterion: str
    statistic: float
    df: float
    p_value: float
    n_groups: int


class BiasRow(NamedTuple):
    """One bias statistic of one group with its interval, and its test: the three AUCs
    against the overall AUC, the equality gaps and the xAUC disparity against 0."""

    scorer: str
    group: Any
    statistic: str
    value: float
    std_error: float
    low: float
    high: float
    versus: str
    difference: float
    p_value: float
    p_adjusted: float


def _is_auc(unit) -> bool:
    """The plain AUC (computed from the cells' placements), as the registry has it."""
    return type(unit) is type(resolve_criterion("auc", {}, "by_group")[0])


def _show(g: Any) -> str:
    return "(all)" if g is None else str(g)


@dataclass(frozen=True, kw_only=True)
class GroupEstimates:
    """Criteria by group, with intervals and tests (:func:`by_group`).

    Attributes
    ----------
    groups : tuple
        The group ids, sorted (the order of every table).
    scorers, criteria : tuple of str
    rows : tuple of GroupRow
        Every (scorer, criterion, group): value, standard error, interval.
    overall : tuple of GroupRow
        Every (scorer, criterion) on all rows (``group`` None).
    differences : tuple of GroupDifference
        Each group against ``reference`` (or against the rest of the rows).
    global_tests : tuple of GroupTest
    bias : tuple of BiasRow
        Per scorer and group: subgroup, BPSN and BNSP AUCs, the positive and negative
        average equality gaps and the xAUC disparity (empty without ``"auc"``).
    scorer_comparisons : tuple of (criterion, group, Comparison)
        Several scorers: the scorers compared within each group.
    reference : object or None
    adjust : str
    family : str
        What the adjusted p-values of ``differences`` are adjusted over, in words.
    confidence_level : float
    n_clusters : int or None
    one_class : tuple
        The groups with one class only (nan rows).
    cov : dict
        ``(scorer, criterion)`` -> the joint covariance of the groups' values (nan rows and
        columns for one-class groups).
    """

    groups: tuple
    scorers: tuple
    criteria: tuple
    rows: tuple
    overall: tuple
    differences: tuple
    global_tests: tuple
    bias: tuple
    scorer_comparisons: tuple
    reference: Any
    adjust: str
    family: str
    confidence_level: float
    n_clusters: int | None
    one_class: tuple
    weighted: bool = False
    cov: dict = field(default_factory=dict, repr=False, compare=False)

    # --- access -------------------------------------------------------------------------
    def value(self, group: Any, criterion: str | None = None, scorer: str | None = None) -> float:
        """The value of ``criterion`` (default: the first) for ``group`` (None: overall)."""
        criterion = self.criteria[0] if criterion is None else criterion
        scorer = self.scorers[0] if scorer is None else scorer
        for r in (self.overall if group is None else self.rows):
            if r.scorer == scorer and r.criterion == criterion and (group is None or r.group == group):
                return r.value
        raise KeyError(f"no row for scorer {scorer!r}, criterion {criterion!r}, group {group!r}")

    def to_frame(self, table: str = "groups"):
        """A pandas DataFrame of one table: ``"groups"`` (the overall rows first, group
        ``None``), ``"differences"``, ``"global"`` or ``"bias"``."""
        check_choice(table, "table", "to_frame", ("groups", "differences", "global", "bias"))
        try:
            import pandas as pd
        except ImportError:  # pragma: no cover - pandas is optional
            raise ImportError("to_frame needs pandas: pip install pandas") from None
        if table == "groups":
            return pd.DataFrame([r._asdict() for r in self.overall + self.rows], columns=GroupRow._fields)
        if table == "differences":
            return pd.DataFrame([r._asdict() for r in self.differences], columns=GroupDifference._fields)
        if table == "global":
            return pd.DataFrame([r._asdict() for r in self.global_tests], columns=GroupTest._fields)
        return pd.DataFrame([r._asdict() for r in self.bias], columns=BiasRow._fields)

    def to_dict(self) -> dict:
        """Every table as lists of plain dicts (JSON-ready: group ids as given)."""
        def rows(t):
            return [{k: (v.item() if hasattr(v, "item") else v) for k, v in r._asdict().items()} for r in t]
        return {"groups": list(self.groups), "reference": self.reference, "adjust": self.adjust,
                "family": self.family, "confidence_level": self.confidence_level, "n_clusters": self.n_clusters,
                "one_class": list(self.one_class), "overall": rows(self.overall), "rows": rows(self.rows),
                "differences": rows(self.differences), "global_tests": rows(self.global_tests),
                "bias": rows(self.bias)}

    # --- text -----------------------------------------------------------------------------
    def _tables(self) -> list:
        level = f"{self.confidence_level:.0%}"
        out = []
        multi = len(self.scorers) > 1
        for sc in self.scorers:
            for crit in self.criteria:
                head = f"{crit}" + (f" of {sc}" if multi or sc != "score" else "") + " by group"
                rows = []
                for r in [*self.overall, *self.rows]:
                    if r.scorer != sc or r.criterion != crit:
                        continue
                    d = next((d for d in self.differences if d.scorer == sc and d.criterion == crit
                              and d.group == r.group and r.group is not None), None)
                    rows.append([_show(r.group), str(r.n_rows), fmt_count(r.n_pos), fmt_count(r.n_neg), fmt(r.value),
                                 fmt(r.std_error), f"[{fmt(r.low)}, {fmt(r.high)}]",
                                 "" if d is None else fmt(d.difference), "" if d is None else fmt(d.p_adjusted)])
                versus = "rest" if self.reference is None else f"vs {_show(self.reference)}"
                header = ["group", "n", "n_pos", "n_neg", "value", "std err", f"{level} CI",
                          f"diff ({versus})", f"p ({self.adjust})"]
                notes = []
                gt = next((t for t in self.global_tests if t.scorer == sc and t.criterion == crit), None)
                if gt is not None and gt.n_groups < 2:
                    notes.append("no test that all groups are equal: fewer than two groups hold both classes")
                elif gt is not None:
                    notes.append(f"all {gt.n_groups} groups equal: chi2 = {fmt(gt.statistic)}, df = {fmt(gt.df)}, "
                                 f"p = {fmt(gt.p_value)}")
                out.append((head, header, rows, notes))
            brows = [b for b in self.bias if b.scorer == sc]
            if brows:
                rows = [[_show(b.group), _BIAS_TEXT[b.statistic], fmt(b.value), fmt(b.std_error),
                         f"[{fmt(b.low)}, {fmt(b.high)}]", b.versus, fmt(b.difference), fmt(b.p_adjusted)]
                        for b in brows]
                out.append(("bias AUCs" + (f" of {sc}" if multi else ""),
                            ["group", "statistic", "value", "std err", f"{level} CI", "versus", "diff",
                             f"p ({self.adjust})"], rows,
                            ["subgroup/BPSN/BNSP AUC against the overall AUC; equality gaps and xAUC disparity "
                             "(BNSP - BPSN: xAUC(group, rest) - xAUC(rest, group)) against 0; p adjusted over "
                             "each statistic's groups"]))
        return out

    def _notes(self) -> list:
        notes = [f"p-values adjusted ({self.adjust}) over {self.family}"]
        if self.n_clusters is not None:
            notes.append(f"standard errors over {self.n_clusters} clusters (cluster-robust, Obuchowski 1997)")
        if self.one_class:
            notes.append("one class only (nan, left out of the tests): " + ", ".join(map(str, self.one_class)))
        return notes

    def summary(self) -> str:
        parts = []
        for head, header, rows, notes in self._tables():
            parts.append(head + "\n" + format_rows(header, rows) + "".join("\n" + n for n in notes))
        for crit, g, comp in self.scorer_comparisons:
            parts.append(f"scorers compared in group {_show(g)} ({crit})\n" + comp.summary())
        return "\n\n".join(parts + ["\n".join(self._notes())])

    def __str__(self) -> str:
        return self.summary()

    def _repr_html_(self) -> str:
        parts = [html_table(head, header, rows, notes) for head, header, rows, notes in self._tables()]
        parts.append("".join(f"<p><small>{html.escape(n)}</small></p>" for n in self._notes()))
        return "".join(parts)


# --- the statistics ----------------------------------------------------------------------------

def _scaled_blocks(cells: GroupCells, terms: list, spans: list) -> tuple[list, list, list]:
    """The blocks of K statistics for :func:`sparse_term_covariance`: statistic ``k`` has
    per-row terms ``terms[k]`` (full length) and spans the cells ``spans[k]`` (a dict
    cell -> the mass of the statistic's side holding that cell); on each cell its terms are
    weighted by the cell's share of that side (the stratified form: the cells' sizes fixed)."""
    by_cell: dict = {}
    for k, span in enumerate(spans):
        for c, side in span.items():
            by_cell.setdefault(c, []).append((k, side))
    blocks, rows, cols = [], [], []
    for c in sorted(by_cell):
        idx = cells.rows[c]
        if idx.shape[0] == 0:
            continue
        share = cells.mass.reshape(-1)[c]
        if not share > 0:  # rows of zero weight only: no terms (as if the rows were absent)
            continue
        ks = [k for k, _ in by_cell[c]]
        B = np.empty((idx.shape[0], len(ks)), order="F")
        for j, (k, side) in enumerate(by_cell[c]):
            B[:, j] = terms[k][idx] * (share / side if side > 0 else 0.0)
        blocks.append(B)
        rows.append(idx)
        cols.append(np.asarray(ks, dtype=np.intp))
    return blocks, rows, cols


def _span(cells: GroupCells, groups_pos, groups_neg) -> dict:
    """A statistic's cells with the mass of the side each belongs to."""
    m = cells.mass
    n_a = float(sum(m[g, 1] for g in groups_pos))
    n_b = float(sum(m[g, 0] for g in groups_neg))
    out = {2 * g + 1: n_a for g in groups_pos}
    out.update({2 * g: n_b for g in groups_neg})
    return out


def _group_terms(unit, auc: CellAUCs | None, cells: GroupCells, s, w, scale, g: int | None):
    """``(value, bounds, terms)`` of the criterion on group g's rows (``-g - 1``: the rest;
    the terms full length, 0 off the rows), or None when a class is absent there."""
    if auc is not None:
        key_p = ("pos", g)
        key_n = ("neg", g)
        value, h = auc.auc(key_p, key_n)
        return (value, (0.0, 1.0), h) if np.isfinite(value) else None
    rows = np.flatnonzero(cells.codes == g) if g >= 0 else np.flatnonzero(cells.codes != -g - 1)
    is_pos = cells.is_pos[rows]
    wr = None if w is None else w[rows]
    n_p = float(is_pos.sum() if wr is None else wr[is_pos].sum())
    n_n = float((~is_pos).sum() if wr is None else wr[~is_pos].sum())
    if not (n_p > 0 and n_n > 0):
        return None
    values, bounds, H, r = _core.terms_by_row(unit, is_pos, [s[rows]], wr, scale, None)
    h = np.zeros(s.shape[0])
    h[rows[r[0]]] = H[0][:, 0]
    h[rows[r[1]]] = H[1][:, 0]
    return float(values[0]), tuple(float(b) for b in bounds[0]), h


def check_reference_group(reference, gnames: list) -> tuple:
    """``(index, id)`` of the reference group (an id equal to one of the groups, or to its
    text), or ``(None, None)``."""
    if reference is None:
        return None, None
    for k, v in enumerate(gnames):
        if v == reference or str(v) == str(reference):
            return k, v
    raise ValueError(f"The 'reference' parameter of by_group must be one of the groups "
                     f"{[_show(v) for v in gnames][:20]}. Got {reference!r}.")


def _family_size(G: int, ref, defined) -> int:
    """The comparisons the p-values are adjusted over: each group with both classes
    against the rest, or against the reference (none when the reference has one class)."""
    n_def = sum(1 for g in range(G) if defined(g))
    if ref is None:
        return n_def if G > 1 else 0
    return n_def - 1 if defined(ref) else 0


def _diff_row(sc, crit, g, versus, a, b, va, vb, cab, level, logit=False):
    """A difference ``a - b`` with its standard error, Wald interval and test; with
    ``logit`` (AUCs) the test compares ``logit a`` with ``logit b`` (the same null)."""
    diff = a - b
    var = va + vb - 2.0 * cab
    se = float(np.sqrt(max(var, 0.0))) if np.isfinite(var) else float("nan")
    stat, p = _logit_test(a, b, va, vb, cab) if logit else _test(diff, se, "two-sided", None)
    low, high = _interval(diff, se, "two-sided", level, None)
    return [sc, crit, g, versus, float(diff), se, stat, p, low, high]


def _logit_test(a, b, va, vb, cab) -> tuple[float, float]:
    """``(logit a - logit b) / se`` and its two-sided p-value, the variance by the delta
    method; the raw difference's test where a value sits on 0 or 1."""
    if not (0.0 < a < 1.0 and 0.0 < b < 1.0):
        var = va + vb - 2.0 * cab
        return _test(a - b, float(np.sqrt(max(var, 0.0))) if np.isfinite(var) else float("nan"), "two-sided", None)
    ja, jb = 1.0 / (a * (1.0 - a)), 1.0 / (b * (1.0 - b))
    var = ja * ja * va + jb * jb * vb - 2.0 * ja * jb * cab
    se = float(np.sqrt(max(var, 0.0))) if np.isfinite(var) else float("nan")
    return _test(float(np.log(a / (1.0 - a)) - np.log(b / (1.0 - b))), se, "two-sided", None)


def _ival(v, se, level, bounds, logit) -> tuple[float, float]:
    """The value's normal interval, clipped to ``bounds`` (or built on their logit scale)."""
    if not (np.isfinite(se) and np.isfinite(v)):
        return float("nan"), float("nan")
    return _core.normal_interval(float(v), float(se), level, "logit" if logit else None, tuple(bounds))


def _equal_groups_test(vals, cov, logit) -> tuple:
    """The Wald test that every value is equal (on the logit scale with ``logit``, AUCs)."""
    if logit and np.all((vals > 0) & (vals < 1)):
        j = 1.0 / (vals * (1.0 - vals))
        return _global_test(np.log(vals / (1.0 - vals)), cov * j[:, None] * j[None, :])
    return _global_test(vals, cov)


def _finish(raw: list, adjust: str) -> list:
    padj = adjust_p_values(np.array([r[7] for r in raw], dtype=float), adjust) if raw else []
    return [GroupDifference(*r[:8], float(pa), *r[8:]) for r, pa in zip(raw, padj)]


def _overall_row(moments, sample, s, spec, sc, w, scale, clus, cells, level, transform=None) -> GroupRow:
    """The criterion on every row: from the cells' moments (the AUC, independent rows:
    DeLong's variance with each class pooled) or :func:`estimate`."""
    if moments is not None:
        G = cells.G
        value, var = moments.pooled([2 * g + 1 for g in range(G)], [2 * g for g in range(G)])
        se = float(np.sqrt(var)) if np.isfinite(var) and var >= 0 else float("nan")
        lo, hi = _ival(value, se, level, (0.0, 1.0), transform == "logit")
        return GroupRow(sc, spec, None, sample.n_rows, cells.n_pos * scale, cells.n_neg * scale, value, se,
                        float(lo), float(hi))
    e = estimate(sample.labels, s, spec, sample_weight=None if w is None else w * scale,
                 clusters=None if clus is None else clus[0])
    with warnings.catch_warnings():  # a degenerate interval shows as such in the table
        warnings.simplefilter("ignore", DegenerateIntervalWarning)
        lo, hi = (e.confidence_interval(level, transform=transform) if np.isfinite(e.std_error)
                  else (np.nan, np.nan))
    return GroupRow(sc, spec, None, sample.n_rows, cells.n_pos * scale, cells.n_neg * scale, e.value, e.std_error,
                    lo, hi)


def _moments_path(moments, cells: GroupCells, G: int, ref, sc, spec, gnames, reference, level, rows, covs,
                  logit=False):
    """The AUC by group from :class:`rankwise._kernels.CellMoments` (independent rows):
    the groups' and the rests' AUCs and their joint covariance in one quadratic form;
    appends the group rows and the covariance, returns the raw differences."""
    everyone = range(G)
    defs = [([2 * g + 1], [2 * g], 1.0) for g in everyone]
    if ref is None:
        defs += [([2 * h + 1 for h in everyone if h != g], [2 * h for h in everyone if h != g], 1.0)
                 for g in everyone]
    values, C = moments.statistics(defs)
    cov = C[:G, :G].copy()
    for g in everyone:
        if not cells.defined(g):
            cov[g, :] = np.nan
            cov[:, g] = np.nan
    covs[(sc, spec)] = cov
    for g in everyone:
        v, var = float(values[g]), cov[g, g]
        se = float(np.sqrt(var)) if np.isfinite(var) and var >= 0 else float("nan")
        lo, hi = _ival(v, se, level, (0.0, 1.0), logit)
        rows.append(GroupRow(sc, spec, gnames[g], int(cells.n_rows[g]), float(cells.mass[g, 1] * moments.scale),
                             float(cells.mass[g, 0] * moments.scale), v, se, float(lo), float(hi)))
    raw = []
    for g in everyone:
        if ref is not None:
            if g != ref:
                raw.append(_diff_row(sc, spec, gnames[g], reference, values[g], values[ref], cov[g, g],
                                     cov[ref, ref], cov[g, ref], level, logit))
            continue
        r = G + g
        if G > 1 and cells.defined(g):
            raw.append(_diff_row(sc, spec, gnames[g], "rest", values[g], values[r], C[g, g], C[r, r], C[g, r],
                                 level, logit))
        else:
            raw.append(_diff_row(sc, spec, gnames[g], "rest", *(float("nan"),) * 5, level))
    return raw


class _Context(NamedTuple):
    """What every statistic of one by_group call shares."""

    sample: Any
    cells: GroupCells
    gnames: list
    ref: Any
    reference: Any
    level: float
    w: Any
    scale: float
    clus: Any
    transform: Any


def _terms_path(unit, fast, ctx: _Context, sc, spec, s, rows, covs, logit) -> tuple[list, np.ndarray]:
    """A criterion by group from per-row terms (any criterion with a projection; the AUC
    over clusters): each group's value and variance (those of :func:`estimate` on its
    rows), their joint covariance, each group against the reference or the rest. Appends
    the group rows and the covariance; returns the raw differences and the values."""
    cells, G, w, scale, clus = ctx.cells, ctx.cells.G, ctx.w, ctx.scale, ctx.clus
    defined = [g for g in range(G) if cells.defined(g)]
    analytic = bool(unit.methods) and unit.has_projection
    vals = np.full(G, np.nan)
    terms: list = [None] * G
    bnds: list = [(0.0, 1.0)] * G
    if analytic:
        for g in defined:
            got = _group_terms(unit, fast, cells, s, w, scale, g)
            if got is not None:
                vals[g], bnds[g], terms[g] = got
    else:  # values only, from estimate on each group's rows
        for g in defined:
            sel = cells.codes == g
            vals[g] = estimate(ctx.sample.labels[sel], s[sel], spec,
                               sample_weight=None if w is None else w[sel] * scale).value
    ok = [g for g in defined if terms[g] is not None]
    cov = np.full((G, G), np.nan)
    own_var = np.full(G, np.nan)
    if ok:  # the joint covariance of the groups' values
        blocks, brow, bcols = _scaled_blocks(cells, [terms[g] for g in ok], [_span(cells, [g], [g]) for g in ok])
        cov[np.ix_(ok, ok)] = sparse_term_covariance(blocks, brow, bcols, len(ok), weights=w, scale=scale,
                                                     clusters=clus)
        for g in ok:  # each group's own variance, as estimate on its rows gives it
            if clus is None:
                own_var[g] = cov[g, g]
            else:
                b2, r2, c2 = _scaled_blocks(cells, [terms[g]], [_span(cells, [g], [g])])
                own_var[g] = sparse_term_covariance(b2, r2, c2, 1, weights=w, scale=scale, clusters=clus)[0, 0]
    covs[(sc, spec)] = cov
    for g in range(G):
        se = float(np.sqrt(own_var[g])) if np.isfinite(own_var[g]) and own_var[g] >= 0 else float("nan")
        lo, hi = _ival(vals[g], se, ctx.level, bnds[g], ctx.transform == "logit")
        rows.append(GroupRow(sc, spec, ctx.gnames[g], int(cells.n_rows[g]), float(cells.mass[g, 1] * scale),
                             float(cells.mass[g, 0] * scale), float(vals[g]), se, float(lo), float(hi)))
    raw = []
    ref = ctx.ref
    for g in range(G):
        if ref is not None:
            if g != ref:
                raw.append(_diff_row(sc, spec, ctx.gnames[g], ctx.reference, vals[g], vals[ref], cov[g, g],
                                     cov[ref, ref], cov[g, ref], ctx.level, logit))
            continue
        rest = _group_terms(unit, fast, cells, s, w, scale, -g - 1) if (
            analytic and cells.defined(g) and G > 1) else None
        if rest is None or terms[g] is None:
            raw.append(_diff_row(sc, spec, ctx.gnames[g], "rest", *(float("nan"),) * 5, ctx.level))
            continue
        others = [h for h in range(G) if h != g]
        blocks, brow, bcols = _scaled_blocks(cells, [terms[g], rest[2]],
                                             [_span(cells, [g], [g]), _span(cells, others, others)])
        c2 = sparse_term_covariance(blocks, brow, bcols, 2, weights=w, scale=scale, clusters=clus)
        raw.append(_diff_row(sc, spec, ctx.gnames[g], "rest", vals[g], rest[0], c2[0, 0], c2[1, 1], c2[0, 1],
                             ctx.level, logit))
        if fast is not None:
            fast.forget(g)
    return raw, vals


def by_group(y_true, y_score, groups, criteria=("auc",), *, reference=None, clusters=None, sample_weight=None,
             pos_label=None, adjust: str = "holm", confidence_level: float = 0.95, bias: bool | None = None,
             names=None, transform: str | None = None) -> GroupEstimates:
    r"""Criteria by group, with intervals and tests.

    Every criterion in each group with its interval, on all rows, each group against
    ``reference`` (or, with none, against the rest of the rows), a Wald test that the
    criterion is equal in every group and, for the AUC, the bias AUCs.

    Parameters
    ----------
    y_true, sample_weight, pos_label
        As in :func:`rankwise.auc`.
    y_score : array-like, or dict / DataFrame / 2-D array of several scorers
        Several scorers: each is evaluated by group, and the scorers are compared within
        each group (:func:`compare` on the group's rows).
    groups : array-like of shape (n,)
        The group of each row (ids of any type; no missing ids).
    criteria : str or sequence of str, default ("auc",)
        Criterion specs as in :func:`estimate` (those with an analytic variance get
        intervals and tests; the others their values).
    reference : group id, optional
        Compare each group with this one; default: each group with the rest of the rows.
    clusters : array-like of shape (n,), optional
        The sampling unit of each row: every variance and covariance is taken over
        clusters (Obuchowski 1997), also across groups (a cluster may span groups).
    adjust : {"holm", "bonferroni", "bh", "none"}, default "holm"
        Multiplicity adjustment over each (scorer, criterion)'s comparisons with the
        reference (or the rest), and over each bias statistic's groups.
    confidence_level : float, default 0.95
    bias : bool, optional
        The bias AUCs (default: when ``"auc"`` is among the criteria).
    names : sequence of str, optional
        Scorer names (default: the dict keys or DataFrame columns).
    transform : {None, "logit"}
        None: normal intervals clipped to each criterion's range and Wald tests of the
        values (DeLong's, pROC's convention). ``"logit"``: the intervals built on the
        logit scale of the range, and the AUCs' tests (against the rest or the reference,
        the global test, the bias AUCs against the overall AUC, the xAUC disparity) on the
        logit scale, by the delta method. Small groups (tens of positives) make the AUC's
        sampling distribution skewed; there the logit scale holds the tests' size better
        (simulation in REPRODUCTION.md: 6.6% raw, 5.5% logit for the global test with
        groups of about 40 positives).

    Returns
    -------
    GroupEstimates

    Notes
    -----
    The rows of a group form two *cells* (its positives and negatives). Each group's
    value and standard error are those of :func:`estimate` on the group's rows (DeLong's
    for the AUC, the Hájek projection for the other criteria; over clusters with
    ``clusters``). The joint covariance of several groups' values is the covariance of
    their stacked per-row terms over the cells (independent rows: groups are independent)
    or over clusters. The rest's value uses the other groups' cells, its terms weighted by
    each cell's share of its class (variance conditional on the cells' sizes).

    Bias AUCs (Borkan et al. 2019, "Nuanced metrics for measuring unintended bias with
    real data"), for group g with positives :math:`D^+_g` and negatives :math:`D^-_g`:
    subgroup AUC :math:`= A(D^+_g, D^-_g)`, BPSN :math:`= A(D^+_{\neg g}, D^-_g)`, BNSP
    :math:`= A(D^+_g, D^-_{\neg g})`, positive AEG :math:`= 1/2 - A(D^+_g, D^+_{\neg g})`,
    negative AEG :math:`= 1/2 - A(D^-_g, D^-_{\neg g})`, with :math:`A(P, N)` the share
    of pairs of ``P`` x ``N`` ordered ``P`` above ``N`` (ties 1/2). The xAUC disparity of
    Kallus & Zhou (2019, "The fairness of risk scores beyond classification") between
    the group and the rest is :math:`\mathrm{xAUC}(g, \neg g) - \mathrm{xAUC}(\neg g, g)`
    = BNSP - BPSN. All from the scorer's one sort, with their joint covariance.

    Examples
    --------
    >>> import rankwise as rw
    >>> y = [0, 1, 0, 1, 1, 0, 0, 1]
    >>> s = [0.1, 0.9, 0.3, 0.4, 0.8, 0.2, 0.7, 0.6]
    >>> g = ["a", "a", "a", "a", "b", "b", "b", "b"]
    >>> res = rw.stats.by_group(y, s, g, bias=False)
    >>> [round(r.value, 3) for r in res.rows]
    [1.0, 0.75]

    In group b the positives 0.8 and 0.6 face the negatives 0.2 and 0.7: three of the
    four pairs are ordered right.
    """
    level = _core.check_level(confidence_level, "by_group")
    adjust = check_choice(adjust, "adjust", "by_group", ADJUSTMENTS)
    if transform is not None:
        check_choice(transform, "transform", "by_group", ("logit",))
    specs = (criteria,) if isinstance(criteria, str) else tuple(criteria)
    if not specs:
        raise ValueError("The 'criteria' parameter of by_group needs at least one criterion.")
    units = [resolve_criterion(c, {}, "by_group") for c in specs]
    for c, (unit, _) in zip(specs, units):
        if kind_of(unit).name != "binary":
            raise ValueError(f"by_group takes binary criteria; {c!r} is for real-valued labels.")
    several = isinstance(y_score, dict) or (hasattr(y_score, "columns") and hasattr(y_score, "iloc")) or (
        hasattr(y_score, "ndim") and getattr(y_score, "ndim", 1) == 2)
    if several:
        cols, scorers = score_columns(y_score, names)
    else:
        cols, scorers = [y_score], [str(names[0]) if names else "score"]
    sample, cells, gnames = group_cells(y_true, cols[0], groups, sample_weight=sample_weight, pos_label=pos_label,
                                        clusters=clusters, func="by_group")
    n = sample.n_rows
    scores = [sample.scores] + [check_scores(c, name=f"y_score[{nm!r}]") for c, nm in zip(cols[1:], scorers[1:])]
    for s in scores[1:]:
        check_same_length(n, s.shape[0], "y_score")
    codes, G = cells.codes, cells.G
    ref, reference = check_reference_group(reference, gnames)
    is_pos, w, scale = sample.is_pos, sample.weights, sample.weight_scale
    clus = None if sample.clusters is None else (sample.clusters, sample.n_clusters)
    one_class = [gnames[g] for g in range(G) if not cells.defined(g)]
    if one_class:
        many = len(one_class) > 1
        warnings.warn(f"by_group: {len(one_class)} group{'s' if many else ''} {'hold' if many else 'holds'} one "
                      f"class only, so {'their' if many else 'its'} criteria are nan and left out of the tests: "
                      f"{', '.join(map(str, one_class[:10]))}{' ...' if len(one_class) > 10 else ''}",
                      OneClassGroupWarning, stacklevel=2)
    if clus is not None:
        warn_few_clusters(is_pos, w, clus, "by_group", stacklevel=3)
    has_auc = any(_is_auc(u) for u, _ in units)
    bias = has_auc if bias is None else bool(bias)
    if bias and not has_auc:
        raise ValueError("by_group: the bias AUCs need 'auc' among the criteria.")
    defined = [g for g in range(G) if cells.defined(g)]

    rows, overall, diffs, tests, bias_rows, covs = [], [], [], [], [], {}
    use_moments = clus is None and n * 2 * G <= MAX_PLACEMENTS
    ctx = _Context(sample, cells, gnames, ref, reference, level, w, scale, clus, transform)
    for sc, s in zip(scorers, scores):
        aucs = CellAUCs(cells, s)
        moments = CellMoments(s, cells, same_class=bias, scale=scale) if use_moments and has_auc else None
        for spec, (unit, params) in zip(specs, units):
            fast = aucs if _is_auc(unit) else None
            logit = transform == "logit" and fast is not None  # tests on the logit scale: the AUC's
            overall.append(_overall_row(moments if fast is not None else None, sample, s, spec, sc, w, scale, clus,
                                        cells, level, transform))
            if fast is not None and moments is not None:  # every AUC from the cells' moments
                raw = _moments_path(moments, cells, G, ref, sc, spec, gnames, reference, level, rows, covs, logit)
                vals = np.array([r.value for r in rows[-G:]])
            else:
                raw, vals = _terms_path(unit, fast, ctx, sc, spec, s, rows, covs, logit)
            diffs.extend(_finish(raw, adjust))
            cov = covs[(sc, spec)]
            ok = [g for g in defined if np.isfinite(cov[g, g])]  # a nan variance is left out
            st, df, p = _equal_groups_test(vals[ok], cov[np.ix_(ok, ok)], logit) if len(ok) > 1 else (np.nan,) * 3
            tests.append(GroupTest(sc, spec, float(st), float(df), float(p), len(ok)))
        if bias:
            if moments is not None:
                stats_fn = moments.statistics
            else:
                def stats_fn(defs, _a=aucs):
                    return _terms_statistics(_a, cells, defs, w, scale, clus)
            bias_rows.extend(_bias(sc, stats_fn, G, gnames, level=level, adjust=adjust, logit=transform == "logit"))
    comparisons = []
    if len(scorers) > 1:
        from ._compare import compare

        for spec, (unit, _) in zip(specs, units):
            if not (unit.methods and unit.has_projection):
                continue
            for g in defined:
                sel = codes == g
                comp = compare(sample.labels[sel], {sc: s[sel] for sc, s in zip(scorers, scores)}, spec,
                               sample_weight=None if w is None else w[sel] * scale,
                               clusters=None if clus is None else clus[0][sel], adjust=adjust,
                               confidence_level=level)
                comparisons.append((spec, gnames[g], comp))
    m = _family_size(G, ref, cells.defined)
    family = (f"each group against {_show(reference)!r} ({m} per criterion)" if ref is not None
              else f"each group against the rest ({m} per criterion)")
    return GroupEstimates(groups=tuple(gnames), scorers=tuple(scorers), criteria=specs, rows=tuple(rows),
                          overall=tuple(overall), differences=tuple(diffs), global_tests=tuple(tests),
                          bias=tuple(bias_rows), scorer_comparisons=tuple(comparisons), reference=reference,
                          adjust=adjust, family=family, confidence_level=level,
                          n_clusters=None if clus is None else clus[1], one_class=tuple(one_class),
                          weighted=w is not None, cov=covs)


def _terms_statistics(aucs: CellAUCs, cells: GroupCells, defs: list, w, scale, clus) -> tuple:
    """Values and joint covariance of the statistics ``defs`` (``(P_cells, N_cells, sign)``)
    from their per-row terms (any sampling unit): the path beside
    :meth:`rankwise._kernels.CellMoments.statistics`."""
    K = len(defs)
    values = np.full(K, np.nan)
    terms, spans, ok = [], [], []
    mass = cells.mass.reshape(-1)
    for k, (P, N, sign) in enumerate(defs):
        nP, nN = float(mass[P].sum()), float(mass[N].sum())
        if not (nP > 0 and nN > 0):
            continue
        v, h = aucs.auc_cells(P, N)
        values[k] = 0.5 - v if sign < 0 else v
        terms.append(sign * h)
        span = {c: nP for c in P}
        span.update({c: nN for c in N})
        spans.append(span)
        ok.append(k)
    cov = np.full((K, K), np.nan)
    if ok:
        blocks, brow, bcols = _scaled_blocks(cells, terms, spans)
        cov[np.ix_(ok, ok)] = sparse_term_covariance(blocks, brow, bcols, len(ok), weights=w, scale=scale,
                                                     clusters=clus)
    return values, cov


def _bias(sc, statistics, G: int, gnames, *, level, adjust, logit=False):
    """The bias statistics of every group, each with its interval and test, from
    ``statistics(defs) -> (values, cov)``; with ``logit`` the three AUCs' intervals and
    tests against the overall AUC on the logit scale."""
    per_stat: dict = {k: [] for k in BIAS_STATISTICS}
    names = BIAS_STATISTICS[:5]
    for g in range(G):
        values, cov = statistics(bias_definitions(G, g))
        O = 5
        for k, name in enumerate(names):
            v, var = values[k], cov[k, k]
            se = float(np.sqrt(var)) if np.isfinite(var) and var >= 0 else float("nan")
            if k < 3:  # an AUC, against the overall AUC
                row = _diff_row(sc, "auc", gnames[g], "overall AUC", v, values[O], var, cov[O, O], cov[k, O],
                                level, logit)
                lo, hi = _ival(v, se, level, (0.0, 1.0), logit)
                per_stat[name].append([sc, gnames[g], name, float(v), se, lo, hi, "overall AUC", row[4], row[7]])
            else:  # an equality gap, against 0
                lo, hi = _ival(v, se, level, (-0.5, 0.5), False)
                p = _test(float(v), se, "two-sided", None)[1] if np.isfinite(v) else float("nan")
                per_stat[name].append([sc, gnames[g], name, float(v), se, lo, hi, "0", float(v), p])
        # xAUC disparity: BNSP - BPSN = xAUC(g, rest) - xAUC(rest, g), against 0
        d = values[2] - values[1]
        dv = cov[2, 2] + cov[1, 1] - 2 * cov[1, 2]
        se = float(np.sqrt(dv)) if np.isfinite(dv) and dv >= 0 else float("nan")
        lo, hi = _ival(d, se, level, (-1.0, 1.0), False)
        row = _diff_row(sc, "auc", gnames[g], "0", values[2], values[1], cov[2, 2], cov[1, 1], cov[1, 2], level, logit)
        p = row[7] if np.isfinite(d) else float("nan")
        per_stat["xauc_disparity"].append([sc, gnames[g], "xauc_disparity", float(d), se, lo, hi, "0", float(d), p])
    out = []
    for name in BIAS_STATISTICS:
        raw = per_stat[name]
        padj = adjust_p_values(np.array([r[9] for r in raw], dtype=float), adjust) if raw else []
        out.extend(BiasRow(*r[:9], float(r[9]), float(pa)) for r, pa in zip(raw, padj))
    return out


class GroupSizes(NamedTuple):
    """What :func:`auc_by_group_from_moments` needs of a sample's cells besides their
    moments: the masses ``mass`` (G, 2) (negatives, positives; weights divided by the
    sample's power of two ``scale``) and the rows ``n_rows`` (G,) of each group."""

    mass: np.ndarray
    n_rows: np.ndarray
    scale: float

    def defined(self, g: int) -> bool:
        return bool(self.mass[g, 1] > 0 and self.mass[g, 0] > 0)


def auc_by_group_from_moments(moments, sizes: GroupSizes, gnames: list, overall, *, reference=None,
                              adjust: str = "holm", confidence_level: float = 0.95, bias: bool = True,
                              scorer: str = "score", transform: str | None = None) -> GroupEstimates:
    """The AUC by group (:func:`by_group`'s result for ``criteria=("auc",)``, one scorer,
    independent rows) from a sample's :class:`rankwise._kernels.CellMoments` (merged from
    parts: the Dask path) and the overall :class:`Estimate`."""
    level = _core.check_level(confidence_level, "by_group")
    adjust = check_choice(adjust, "adjust", "by_group", ADJUSTMENTS)
    G = len(gnames)
    ref, reference = check_reference_group(reference, gnames)
    one_class = [gnames[g] for g in range(G) if not sizes.defined(g)]
    if one_class:
        warnings.warn(f"by_group: groups with one class only (nan, left out of the tests): "
                      f"{', '.join(map(str, one_class[:10]))}", OneClassGroupWarning, stacklevel=3)
    rows, covs = [], {}
    spec = "auc"
    if transform is not None:
        check_choice(transform, "transform", "by_group", ("logit",))
    logit = transform == "logit"
    raw = _moments_path(moments, sizes, G, ref, scorer, spec, gnames, reference, level, rows, covs, logit)
    diffs = _finish(raw, adjust)
    cov = covs[(scorer, spec)]
    ok = [g for g in range(G) if sizes.defined(g) and np.isfinite(cov[g, g])]
    vals = np.array([r.value for r in rows])
    st, df, p = _equal_groups_test(vals[ok], cov[np.ix_(ok, ok)], logit) if len(ok) > 1 else (np.nan,) * 3
    tests = [GroupTest(scorer, spec, float(st), float(df), float(p), len(ok))]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateIntervalWarning)
        lo, hi = (overall.confidence_interval(level, transform=transform) if np.isfinite(overall.std_error)
                  else (np.nan, np.nan))
    ov = [GroupRow(scorer, spec, None, int(sizes.n_rows.sum()), float(overall.n_pos), float(overall.n_neg),
                   overall.value, overall.std_error, lo, hi)]
    bias_rows = _bias(scorer, moments.statistics, G, gnames, level=level, adjust=adjust, logit=logit) if bias else []
    m = _family_size(G, ref, sizes.defined)
    family = (f"each group against {_show(reference)!r} ({m} per criterion)" if ref is not None
              else f"each group against the rest ({m} per criterion)")
    return GroupEstimates(groups=tuple(gnames), scorers=(scorer,), criteria=(spec,), rows=tuple(rows),
                          overall=tuple(ov), differences=tuple(diffs), global_tests=tuple(tests),
                          bias=tuple(bias_rows), scorer_comparisons=(), reference=reference, adjust=adjust,
                          family=family, confidence_level=level, n_clusters=None, one_class=tuple(one_class),
                          cov=covs)
