"""Golden values for the new criteria (average precision, precision-recall curve, KS,
Gini, partial AUC over any FPR / TPR range with McClish standardisation), reproduced to
1e-9 by the literal definitions of tests/_support/reference.py.

Fixtures (tests/golden/): inputs_new_criteria.json (make_new_criteria_inputs.py),
sklearn_new.json (make_sklearn_new.py: scikit-learn / SciPy) and proc_partial.json
(make_proc_partial.R: R pROC 1.18). Each golden value is stored under the call that
produced it. pROC calls use ``levels = c(0, 1), direction = "<"`` (controls < cases).
"""

import json
import os

import numpy as np
import pytest

from _support.paths import GOLDEN
from _support.reference import (
    auc_ref,
    average_precision_ref,
    gini_ref,
    ks_ref,
    partial_auc_range_ref,
    precision_recall_ref,
    roc_polyline_ref,
)

HERE = GOLDEN


def _load(name):
    with open(os.path.join(HERE, name)) as fh:
        return json.load(fh)


INP = _load("inputs_new_criteria.json")
SK = _load("sklearn_new.json")
PROC = _load("proc_partial.json")

CASES = sorted(INP["cases"])
TOL = 1e-9
BELOW_DIAGONAL = "Partial AUC correction not defined for ROC curves below the diagonal."


def approx(x):
    return pytest.approx(x, rel=0, abs=TOL)


def _data(name):
    c = INP["cases"][name]
    return c["y"], c["s"], c["w"]


def _r_num(x):
    """The text make_proc_partial.R writes for a bound (shortest of %.15g..%.17g that
    reads back exactly)."""
    for d in (15, 16, 17):
        t = f"{float(x):.{d}g}"
        if float(t) == float(x):
            return t
    raise AssertionError(x)


def test_fixture_versions_and_cases():
    assert PROC["pROC_version"].startswith("1.18")
    assert PROC["input"] == SK["input"] == "tests/golden/inputs_new_criteria.json"
    assert "sklearn_version" in SK and "scipy_version" in SK
    assert set(PROC["cases"]) == set(SK["cases"]) == set(CASES)
    assert len(CASES) >= 12
    ns = [INP["cases"][n]["n"] for n in CASES]
    assert min(ns) == 2 and max(ns) >= 300


# --------------------------------------------------------------------------- pROC

@pytest.mark.parametrize("name", CASES)
def test_proc_partial_auc(name):
    y, s, _ = _data(name)
    recs = PROC["cases"][name]["partial"]
    assert len(recs) == 60
    for rec in recs:
        lo, hi, focus = rec["lo"], rec["hi"], rec["focus"]
        # The stored parameters are those of the call that ran.
        if focus == "fpr":
            bounds = [f"1 - {_r_num(lo)}", f"1 - {_r_num(hi)}"]
            assert "partial.auc.focus = 'specificity'" in rec["call"]
        else:
            bounds = [_r_num(lo), _r_num(hi)]
            assert "partial.auc.focus = 'sensitivity'" in rec["call"]
        if rec["kind"] == "bounds reversed":
            bounds.reverse()
        assert f"partial.auc = c({bounds[0]}, {bounds[1]})" in rec["call"], rec["call"]
        assert (f"partial.auc.correct = {'TRUE' if rec['correct'] else 'FALSE'}" in rec["call"])
        assert ("allow.invalid.partial.auc.correct = TRUE" in rec["call"]) == rec["allow_invalid"]

        ref = partial_auc_range_ref(y, s, lo=lo, hi=hi, focus=focus, mcclish=rec["correct"])
        if rec["value"] is None:
            # pROC refuses the correction below the diagonal (A < min), with a warning;
            # the reference gives the formula's value, < 0.5 there.
            assert rec["correct"] and not rec["allow_invalid"], rec["call"]
            assert rec["warning"] == BELOW_DIAGONAL
            assert ref < 0.5, rec["call"]
        else:
            assert "warning" not in rec, rec["call"]
            assert ref == approx(rec["value"]), rec["call"]
            if rec["correct"] and not rec["allow_invalid"]:
                assert ref >= 0.5 - TOL, rec["call"]


@pytest.mark.parametrize("name", CASES)
def test_proc_auc_and_gini(name):
    y, s, _ = _data(name)
    p = PROC["cases"][name]
    assert auc_ref(y, s) == approx(p["auc"]["value"])
    assert (gini_ref(y, s) + 1) / 2 == approx(p["auc"]["value"])
    # The whole range is the AUC, in both foci, raw and corrected (min 1/2, max 1).
    for focus in ("fpr", "tpr"):
        for mcclish in (False, True):
            assert partial_auc_range_ref(y, s, lo=0, hi=1, focus=focus, mcclish=mcclish) == approx(
                p["auc"]["value"])


def test_proc_na_only_below_diagonal():
    """pROC's NA (correction refused) appears exactly where the curve is below the diagonal
    on the band: some in every below-chance case, none in the others."""
    na = {n: sum(r["value"] is None for r in PROC["cases"][n]["partial"]) for n in CASES}
    for n in ("worse_than_chance_80", "worse_than_chance_ties_60", "crossing_100", "tiny_2_reversed"):
        assert na[n] > 0
    for n in ("continuous_200", "separable_ties_30", "all_tied_6", "tiny_2_tied"):
        assert na[n] == 0


# --------------------------------------------------------------------------- scikit-learn

@pytest.mark.parametrize("name", CASES)
def test_sklearn_scalars(name):
    y, s, w = _data(name)
    g = SK["cases"][name]
    assert average_precision_ref(y, s) == approx(g["average_precision_score(y, s)"])
    assert average_precision_ref(y, s, w) == approx(g["average_precision_score(y, s, sample_weight=w)"])
    assert gini_ref(y, s) == approx(g["2 * roc_auc_score(y, s) - 1"])
    assert gini_ref(y, s, w) == approx(g["2 * roc_auc_score(y, s, sample_weight=w) - 1"])
    assert ks_ref(y, s) == approx(g["ks_2samp(pos, neg).statistic"])
    assert ks_ref(y, s) == approx(
        g["max_abs_tpr_minus_fpr(*roc_curve(y, s, drop_intermediate=False))"])
    assert ks_ref(y, s, w) == approx(
        g["max_abs_tpr_minus_fpr(*roc_curve(y, s, sample_weight=w, drop_intermediate=False))"])


@pytest.mark.parametrize("name", CASES)
def test_sklearn_precision_recall_curve(name):
    y, s, w = _data(name)
    g = SK["cases"][name]
    for weighted in (False, True):
        for drop in (False, True):
            key = "precision_recall_curve(y, s, {}drop_intermediate={})".format(
                "sample_weight=w, " if weighted else "", drop)
            prec, rec, thr = precision_recall_ref(y, s, w if weighted else None, drop_intermediate=drop)
            np.testing.assert_array_equal(thr, g[key]["thresholds"], err_msg=key)
            np.testing.assert_allclose(prec, g[key]["precision"], rtol=0, atol=TOL, err_msg=key)
            np.testing.assert_allclose(rec, g[key]["recall"], rtol=0, atol=TOL, err_msg=key)


# --------------------------------------------------------------------------- self-consistency

@pytest.mark.parametrize("name", CASES)
def test_reference_definitions_agree(name):
    """AP = the step sum over the PR curve; partial areas add up over adjacent bands; the
    TPR-focus area over [0, 1] equals the FPR-focus one (both are the AUC)."""
    y, s, w = _data(name)
    for ww in (None, w):
        prec, rec, _ = precision_recall_ref(y, s, ww)
        step = sum((rec[k] - rec[k + 1]) * prec[k] for k in range(len(rec) - 1))
        assert average_precision_ref(y, s, ww) == approx(step)
        for focus in ("fpr", "tpr"):
            parts = [partial_auc_range_ref(y, s, ww, lo=a, hi=b, focus=focus)
                     for a, b in ((0, 0.2), (0.2, 0.55), (0.55, 1))]
            assert sum(parts) == approx(auc_ref(y, s, ww))
        pts = roc_polyline_ref(y, s, ww)
        assert pts[0] == (0.0, 0.0) and pts[-1] == approx((1.0, 1.0))
