"""The section **Curve tests** (``write_report(..., curve_test=True)``): Venkatraman's
permutation test that each scorer's ROC curve equals the reference's at every operating
point (:func:`rankwise.stats.curve_test`); a test of the curves, not of their AUCs."""

from __future__ import annotations

from dataclasses import dataclass

from ._html import esc, fmt_p, section, table
from ._page import Section


@dataclass(frozen=True)
class CurveTestRow:
    """One scorer against the reference: Venkatraman's statistic ``E``, its permutation
    p-value (0: below ``1 / n_permutations``) and the number of permutations."""

    scorer: str
    reference: str
    statistic: float
    p_value: float
    n_permutations: int

    def as_dict(self) -> dict:
        return {"scorer": self.scorer, "reference": self.reference, "statistic": self.statistic,
                "p_value": self.p_value, "n_permutations": self.n_permutations}


class CurveTestSection(Section):
    key = "curve_tests"
    anchor, toc = "curve-tests", "Curve tests"

    def applies(self, data) -> bool:
        return bool(getattr(data, "curve_test", False)) and len(data.scores) > 1

    def compute(self, data, prior) -> tuple:
        from .. import stats

        data.progress("curve tests")
        ref = data.reference
        rows = []
        for name, s in data.scores.items():
            if name == ref:
                continue
            t = stats.curve_test(data.y01, s, data.scores[ref], n_permutations=data.n_resamples,
                                 random_state=data.random_state, names=(name, ref))
            rows.append(CurveTestRow(name, ref, float(t.statistic), float(t.p_value), int(t.n_permutations)))
        return tuple(rows)

    def render(self, data, result: tuple, figures: dict) -> str:
        header = ["scorer", "against", "statistic E", "p-value", "permutations"]
        rows, classes = [], []
        for r in result:
            p = f"&lt; {1 / r.n_permutations:.2g}" if r.p_value == 0 else esc(fmt_p(r.p_value))
            rows.append([esc(r.scorer), esc(r.reference), f"{r.statistic:.6g}", p, f"{r.n_permutations:,}"])
            classes.append(["name", "name", "num", "num sig" if r.p_value < 1 - data.level else "num", "num"])
        caption = ("Venkatraman's permutation test (Venkatraman &amp; Begg 1996, paired: the same rows) that the "
                   "scorer's ROC curve equals the reference's at every operating point; its statistic is pROC's "
                   "roc.test(method = 'venkatraman'). It is not a test of the AUCs: two curves that cross can have "
                   "equal AUCs and still differ here. p-values are the share of permutations at least as extreme, "
                   f"not adjusted for the {len(result)} comparison{'s' if len(result) != 1 else ''} (shaded: below "
                   f"{1 - data.level:.2g}).")
        body = table(header, rows, "curvetests", classes) + f'\n<p class="caption">{caption}</p>'
        return section("curve-tests", "Curve tests", body)

    def summary(self, data, result: tuple) -> dict:
        return {"curve_tests": [r.as_dict() for r in result]}


__all__ = ["CurveTestSection", "CurveTestRow"]
