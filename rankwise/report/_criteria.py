"""The numbers the overview and the details are made of: every criterion of every scorer
with its interval, the ranking, and the paired comparisons. These units render nothing
themselves (:mod:`._overview` shows them)."""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import Mapping

import numpy as np

from ._page import Section


@dataclass(frozen=True)
class Row:
    """One criterion of one scorer: its value, standard error (the analytic one where
    there is one, else the bootstrap's), interval and the interval's method."""

    value: float
    std_error: float
    low: float
    high: float
    method: str

    def as_dict(self) -> dict:
        return {"value": self.value, "std_error": self.std_error, "low": self.low, "high": self.high,
                "method": self.method}


def interval_row(est, ci_method, level, n_resamples, random_state) -> Row:
    """``est`` (a :class:`rankwise.stats.Estimate`) with its interval: ``ci_method``
    (None: the criterion's own default, the bootstrap for a criterion without an
    analytic one). The bootstrap always draws ``n_resamples`` with ``random_state``, so
    the page is reproducible."""
    ci = est.confidence_interval(level, method=ci_method, n_resamples=n_resamples, random_state=random_state)
    se = est.std_error if np.isfinite(est.std_error) else ci.std_error
    return Row(value=float(est.value), std_error=float(se), low=float(ci.low), high=float(ci.high), method=ci.method)


@dataclass(frozen=True)
class Criteria:
    """``rows[scorer][spec]``, ``aucs[scorer]`` (the AUC's row: the area of the ROC curves
    drawn, a criterion or not) and ``order``, the scorers best first on ``rank_by``."""

    rows: Mapping[str, Mapping[str, Row]]
    aucs: Mapping[str, Row]
    order: tuple


class CriteriaUnit(Section):
    """Every criterion of every scorer, one rank table per scorer serving them all (the
    AUC's row reused when a criterion is the AUC); with clusters, each criterion's own
    cluster-robust estimate."""

    key = "criteria"

    def compute(self, data, prior) -> Criteria:
        from .. import criteria as _criteria
        from .. import stats

        data.progress(f"criteria of {len(data.scores)} scorer(s)")
        auc = _criteria.get("auc")
        auc_spec = next((spec for spec in data.criteria if _criteria.get(spec) == auc), None)
        specs = list(data.criteria) + ([] if auc_spec is not None else ["auc"])
        rows, aucs = {}, {}
        for name, s in data.scores.items():
            if data.clusters is None:
                ests = stats.iter_estimates(data.y01, s, specs)
            else:
                ests = (stats.estimate(data.y01, s, spec, clusters=data.clusters) for spec in specs)
            got = {spec: interval_row(est, data.ci_method, data.level, data.n_resamples, data.random_state)
                   for spec, est in zip(specs, ests)}
            aucs[name] = got[auc_spec if auc_spec is not None else "auc"]
            rows[name] = {spec: got[spec] for spec in data.criteria}
        order = tuple(ranking(rows, data.rank_by, data.units[data.rank_by]))
        return Criteria(rows=MappingProxyType({n: MappingProxyType(r) for n, r in rows.items()}),
                        aucs=MappingProxyType(aucs), order=order)

    def summary(self, data, result: Criteria) -> dict:
        return {"labels": dict(data.labels), "rank_by": data.rank_by, "ranking": list(result.order),
                "reference": data.reference,
                "criteria": {n: {spec: r.as_dict() for spec, r in row.items()} for n, row in result.rows.items()},
                "auc": {n: r.as_dict() for n, r in result.aucs.items()}}


def ranking(rows: Mapping, spec: str, unit) -> list[str]:
    """Scorer names from best to worst on ``spec`` (a loss: lowest first); nan last; ties
    keep the input order."""
    names = list(rows)
    sign = -1.0 if unit.greater_is_better else 1.0

    def key(i):
        v = rows[names[i]][spec].value
        return (0, sign * v, i) if np.isfinite(v) else (1, 0.0, i)

    return [names[i] for i in sorted(range(len(names)), key=key)]


def best(rows: Mapping, spec: str, unit) -> float | None:
    """The best finite value of ``spec`` over the scorers (None when none is finite)."""
    vals = [r[spec].value for r in rows.values() if np.isfinite(r[spec].value)]
    if not vals:
        return None
    return max(vals) if unit.greater_is_better else min(vals)


@dataclass(frozen=True)
class ComparisonNumbers:
    """A :class:`rankwise.stats.Comparison` as plain numbers: ``pairs`` holds
    :class:`rankwise.stats.PairwiseDifference` of Python floats; ``p_adjusted_matrix`` is
    K x K with None on the diagonal; ``spec`` is the criterion spec as the report names
    it (against the reference only)."""

    criterion: str
    method: str
    adjust: str
    reference: str | None
    family: str
    names: tuple
    values: tuple
    std_errors: tuple
    pairs: tuple
    p_adjusted_matrix: tuple
    global_statistic: float
    global_df: float
    global_p_value: float
    spec: str | None = None
    alternative: str = "two-sided"
    margin: float | None = None

    @classmethod
    def of(cls, c, spec: str | None = None) -> "ComparisonNumbers":
        names = list(c.names)
        k = len(names)
        matrix = [[None] * k for _ in range(k)]
        pairs = []
        for p in c.pairs:
            i, j = names.index(p.a), names.index(p.b)
            matrix[i][j] = matrix[j][i] = float(p.p_adjusted)
            pairs.append(p._replace(**{f: float(getattr(p, f)) for f in p._fields if f not in ("a", "b")}))
        criterion = c.criterion if not c.params else f"{c.criterion}:" + ",".join(f"{k}={v}"
                                                                                  for k, v in c.params.items())
        return cls(criterion=criterion, method=c.method, adjust=c.adjust, reference=c.reference, family=c.family,
                   names=tuple(names), values=tuple(float(v) for v in c.values),
                   std_errors=tuple(float(v) for v in c.std_errors), pairs=tuple(pairs),
                   p_adjusted_matrix=tuple(tuple(r) for r in matrix), global_statistic=float(c.global_statistic),
                   global_df=float(c.global_df), global_p_value=float(c.global_p_value), spec=spec,
                   alternative=c.alternative, margin=c.margin)

    def as_dict(self) -> dict:
        out = {"criterion": self.criterion, "method": self.method, "adjust": self.adjust, "reference": self.reference,
               "family": self.family, "names": list(self.names), "values": list(self.values),
               "std_errors": list(self.std_errors), "pairs": [p._asdict() for p in self.pairs],
               "p_adjusted_matrix": [list(r) for r in self.p_adjusted_matrix],
               "global_statistic": self.global_statistic, "global_df": self.global_df,
               "global_p_value": self.global_p_value}
        if self.spec is not None:
            out["spec"] = self.spec
        if self.alternative != "two-sided":
            out["alternative"] = self.alternative
        if self.margin is not None:
            out["margin"] = self.margin
        return out


@dataclass(frozen=True)
class Comparisons:
    """``every``: every pair on the AUC, p-values adjusted over all pairs; ``versus``: each
    scorer against the reference on ``versus_spec``, Holm-adjusted over those K - 1
    comparisons. Both None with one scorer."""

    every: ComparisonNumbers | None
    versus: ComparisonNumbers | None


class ComparisonsUnit(Section):
    """The paired comparisons of the scorers (on the same rows: joint covariance)."""

    key = "comparisons"

    def compute(self, data, prior) -> Comparisons:
        from .. import stats

        data.progress("comparisons")
        if len(data.scores) < 2:
            return Comparisons(every=None, versus=None)
        cols, kw = dict(data.scores), data.cluster_args
        every = stats.compare(data.y01, cols, "auc", confidence_level=data.level, **kw)
        boot = {} if data.compare_method is None else {"method": "bootstrap", "n_resamples": data.n_resamples,
                                                       "random_state": data.random_state}
        versus = stats.compare(data.y01, cols, data.versus_spec, reference=data.reference, adjust="holm",
                               confidence_level=data.level, alternative=data.alternative, margin=data.margin,
                               **kw, **boot)
        return Comparisons(every=ComparisonNumbers.of(every), versus=ComparisonNumbers.of(versus, data.versus_spec))

    def summary(self, data, result: Comparisons) -> dict:
        return {"comparison": None if result.every is None else result.every.as_dict(),
                "versus_reference": None if result.versus is None else result.versus.as_dict()}
