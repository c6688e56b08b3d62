"""The criteria added as units (average precision and the precision-recall curve, the
Kolmogorov-Smirnov statistic, Gini, the partial AUC over any FPR or TPR band): golden
values of scikit-learn / SciPy and R pROC 1.18 to 1e-9, the literal definitions of
tests/_support/reference.py on generated samples with ties, weights and tiny samples, and
the properties their inference rests on.

Fixtures: tests/golden/inputs_new_criteria.json, sklearn_new.json (make_sklearn_new.py),
proc_partial.json (make_proc_partial.R); each value is stored under the call that made it.
"""

from __future__ import annotations

import json
import math
import os

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rankwise as rw
from _support.reference import (
    average_precision_ref,
    gini_ref,
    ks_ref,
    partial_auc_range_ref,
    precision_recall_ref,
)
from _support.strategies import samples
from _support.paths import GOLDEN
from _support.quiet import quiet as _quiet

HERE = GOLDEN
TOL = 1e-9


def _load(name):
    with open(os.path.join(HERE, name)) as fh:
        return json.load(fh)


INP = _load("inputs_new_criteria.json")["cases"]
SK = _load("sklearn_new.json")["cases"]
PROC = _load("proc_partial.json")["cases"]
CASES = sorted(INP)


def _case(name):
    c = INP[name]
    return np.asarray(c["y"]), np.asarray(c["s"], float), np.asarray(c["w"], float)


def close(a, b, tol=TOL):
    return math.isclose(a, b, rel_tol=tol, abs_tol=tol)


# --- golden values --------------------------------------------------------------------------

@pytest.mark.parametrize("name", CASES)
def test_sklearn_and_scipy_golden(name):
    y, s, w = _case(name)
    g = SK[name]
    assert close(rw.average_precision(y, s), g["average_precision_score(y, s)"])
    assert close(rw.average_precision(y, s, sample_weight=w), g["average_precision_score(y, s, sample_weight=w)"])
    assert close(rw.gini(y, s), g["2 * roc_auc_score(y, s) - 1"])
    assert close(rw.gini(y, s, sample_weight=w), g["2 * roc_auc_score(y, s, sample_weight=w) - 1"])
    assert close(rw.ks_statistic(y, s), g["ks_2samp(pos, neg).statistic"])
    assert close(rw.ks_statistic(y, s, sample_weight=w),
                 g["max_abs_tpr_minus_fpr(*roc_curve(y, s, sample_weight=w, drop_intermediate=False))"])


@pytest.mark.parametrize("name", CASES)
def test_precision_recall_curve_golden(name):
    # scikit-learn's points in the opposite order, without our +inf threshold.
    y, s, w = _case(name)
    for weighted in (False, True):
        for drop in (False, True):
            key = "precision_recall_curve(y, s, {}drop_intermediate={})".format(
                "sample_weight=w, " if weighted else "", drop)
            c = rw.precision_recall_curve(y, s, sample_weight=w if weighted else None, drop_intermediate=drop)
            g = SK[name][key]
            assert c.thresholds[0] == np.inf and c.precision[0] == 1.0 and c.recall[0] == 0.0
            np.testing.assert_array_equal(c.thresholds[1:][::-1], g["thresholds"], err_msg=key)
            np.testing.assert_allclose(c.precision[::-1], g["precision"], rtol=0, atol=TOL, err_msg=key)
            np.testing.assert_allclose(c.recall[::-1], g["recall"], rtol=0, atol=TOL, err_msg=key)


@pytest.mark.parametrize("name", CASES)
def test_proc_partial_auc_golden(name):
    # From R pROC 1.18.0: auc(roc(y, s, levels = c(0, 1), direction = "<"), partial.auc = ...,
    # partial.auc.focus = "specificity" | "sensitivity", partial.auc.correct = ...); the call
    # is stored next to each value.
    y, s, _ = _case(name)
    for rec in PROC[name]["partial"]:
        lo, hi = sorted((rec["lo"], rec["hi"]))
        kw = {f"min_{rec['focus']}": lo, f"max_{rec['focus']}": hi}
        if rec["correct"]:
            kw["standardize"] = "mcclish"
        ours = rw.partial_auc(y, s, **kw)
        if rec["value"] is None:
            # pROC refuses McClish's correction below the diagonal; its
            # allow.invalid.partial.auc.correct = TRUE value is ours.
            twin = next(r for r in PROC[name]["partial"] if r["allow_invalid"] and r["focus"] == rec["focus"]
                        and (r["lo"], r["hi"]) == (rec["lo"], rec["hi"]))
            assert close(ours, twin["value"]) and ours < 0.5, rec["call"]
        else:
            assert close(ours, rec["value"]), rec["call"]


# --- literal definitions --------------------------------------------------------------------

@given(samples(weights=True, max_n=25) | samples(max_n=25))
def test_average_precision_and_gini_match_definitions(sample):
    y, s, w = sample
    assert close(rw.average_precision(y, s, sample_weight=w), average_precision_ref(y, s, w))
    assert close(rw.gini(y, s, sample_weight=w), gini_ref(y, s, w))
    assert close(rw.ks_statistic(y, s, sample_weight=w), ks_ref(y, s, w))


@given(samples(weights=True, max_n=25) | samples(max_n=25))
def test_precision_recall_curve_matches_definition(sample):
    y, s, w = sample
    for drop in (False, True):
        c = rw.precision_recall_curve(y, s, sample_weight=w, drop_intermediate=drop)
        prec, rec, thr = precision_recall_ref(y, s, w, drop_intermediate=drop)
        np.testing.assert_array_equal(c.thresholds[1:][::-1], thr)
        np.testing.assert_allclose(c.precision[::-1], prec, rtol=0, atol=TOL)
        np.testing.assert_allclose(c.recall[::-1], rec, rtol=0, atol=TOL)
    # Average precision is the step area of the curve.
    c = rw.precision_recall_curve(y, s, sample_weight=w)
    step = float(np.sum(np.diff(c.recall) * c.precision[1:]))
    assert close(step, rw.average_precision(y, s, sample_weight=w))


BANDS = st.tuples(st.floats(0.0, 1.0), st.floats(0.0, 1.0)).filter(lambda b: abs(b[0] - b[1]) > 1e-6)


@given(samples(weights=True, max_n=25) | samples(max_n=25), BANDS, st.sampled_from(["fpr", "tpr"]), st.booleans())
@settings(max_examples=300)
def test_partial_auc_band_matches_definition(sample, band, focus, mcclish):
    y, s, w = sample
    lo, hi = sorted(band)
    kw = {f"min_{focus}": lo, f"max_{focus}": hi}
    if mcclish:
        kw["standardize"] = "mcclish"
    want = partial_auc_range_ref(y, s, w, lo=lo, hi=hi, focus=focus, mcclish=mcclish)
    tol = TOL
    if mcclish:
        # McClish divides by the band's (max - min) area, (b - a)^2 / 2 for a band at an end
        # of [0, 1]: rounding of the area (1e-16) is magnified by its inverse. Found by
        # hypothesis: a TPR band [0, 6.1e-5] is off by 3e-8.
        a, b = (1 - hi, 1 - lo) if focus == "tpr" else (lo, hi)
        tol = max(TOL, 1e-15 / ((b - a) - 0.5 * (b * b - a * a)))
    assert close(rw.partial_auc(y, s, sample_weight=w, **kw), want, tol)


@given(samples(weights=True, max_n=25) | samples(max_n=25), BANDS)
def test_tpr_band_is_the_fpr_band_of_the_mirror(sample, band):
    y, s, w = sample
    lo, hi = sorted(band)
    y2 = [not v for v in y]
    s2 = [-v for v in s]
    assert close(rw.partial_auc(y, s, sample_weight=w, min_tpr=lo, max_tpr=hi),
                 rw.partial_auc(y2, s2, sample_weight=w, min_fpr=1 - hi, max_fpr=1 - lo))


def test_partial_auc_keeps_its_max_fpr_form():
    y, s = [0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]
    assert rw.partial_auc(y, s, max_fpr=0.5) == rw.partial_auc(y, s, min_fpr=0.0, max_fpr=0.5) == 0.25
    assert rw.partial_auc(y, s, max_fpr=1.0) == rw.auc(y, s)
    assert rw.partial_auc(y, s, min_tpr=0.0, max_tpr=1.0) == rw.auc(y, s)


@pytest.mark.parametrize("kw, err, msg", [
    ({}, TypeError, "partial_auc needs a band"),
    ({"max_fpr": 0.2, "min_tpr": 0.5}, ValueError, "not both"),
    ({"min_fpr": 0.3, "max_fpr": 0.2}, ValueError, "'min_fpr' parameter of partial_auc must be below 'max_fpr'"),
    ({"min_tpr": 1.0}, ValueError, "'min_tpr' parameter of partial_auc must be"),
    ({"max_fpr": 1.5}, ValueError, "'max_fpr' parameter of partial_auc must be"),
    ({"min_tpr": 0.5, "standardize": "other"}, ValueError, "'standardize' parameter"),
])
def test_partial_auc_band_errors(kw, err, msg):
    with pytest.raises(err, match=msg):
        rw.partial_auc([0, 1], [0.0, 1.0], **kw)


@pytest.mark.parametrize("func", [rw.average_precision, rw.ks_statistic, rw.gini])
def test_one_class_is_undefined(func):
    with pytest.warns(rw.UndefinedMetricWarning):
        assert math.isnan(func([1, 1, 1], [0.1, 0.2, 0.3]))
    with pytest.raises(ValueError, match="NaN"):
        func([0, 1], [0.1, float("nan")])


def test_hand_checked_examples():
    # Positives at ranks 1 and 3 of 4: precisions 1 and 2/3.
    assert close(rw.average_precision([1, 0, 1, 0], [0.9, 0.8, 0.7, 0.1]), (1 + 2 / 3) / 2)
    # A random score has AP = share of positives in expectation; a perfect one 1.
    assert rw.average_precision([0, 0, 1, 1], [1, 2, 3, 4]) == 1.0
    assert rw.ks_statistic([0, 0, 1, 1], [0.1, 0.2, 0.6, 0.9]) == 1.0
    assert rw.ks_statistic([0, 1], [0.5, 0.5]) == 0.0  # one tied threshold: TPR = FPR
    assert rw.gini([0, 1], [1.0, 0.0]) == -1.0


# --- inference ----------------------------------------------------------------------------------

def test_gini_interval_is_the_auc_interval_mapped():
    rng = np.random.default_rng(0)
    y = rng.random(500) < 0.3
    s = rng.normal(size=500) + y
    a, g = rw.stats.estimate(y, s, "auc"), rw.stats.estimate(y, s, "gini")
    assert g.std_error == pytest.approx(2 * a.std_error, rel=1e-12)
    lo, hi = a.confidence_interval()
    assert tuple(g.confidence_interval()) == pytest.approx((2 * lo - 1, 2 * hi - 1), rel=1e-12)
    assert g.bounds == (-1.0, 1.0)


def test_average_precision_standard_error_matches_monte_carlo():
    # Class sizes fixed (the design the projection assumes): 150 positives, 250 negatives,
    # binormal scores, 400 samples. The Monte Carlo SD of AP has a relative standard error
    # of about 1/sqrt(2 * 399) = 3.5%; 12% allows 3.5 of those.
    rng = np.random.default_rng(7)
    y = np.r_[np.ones(150, bool), np.zeros(250, bool)]
    vals, ses = [], []
    for _ in range(400):
        s = rng.normal(size=400) + 1.0 * y
        e = rw.stats.estimate(y, s, "average_precision")
        vals.append(e.value)
        ses.append(e.std_error)
    assert np.mean(ses) == pytest.approx(np.std(vals, ddof=1), rel=0.12)


def test_ks_statistic_intervals_come_from_the_bootstrap():
    rng = np.random.default_rng(1)
    y = rng.random(600) < 0.4
    s = rng.normal(size=600) + y
    e = rw.stats.estimate(y, s, "ks_statistic")
    assert e.method == "bootstrap" and math.isnan(e.std_error)
    ci = e.confidence_interval(n_resamples=500, random_state=0)
    assert ci.method == "bootstrap" and ci.kind == "bc" and ci.low < e.value < ci.high
    with pytest.raises(ValueError, match="method"):
        e.confidence_interval(method="hajek")
    assert "bootstrap (BC, 2000)" in rw.stats.estimate(y, s, "ks_statistic").summary()


def test_partial_auc_tpr_band_standard_error_matches_monte_carlo():
    # As for AP: fixed class sizes, 300 samples; the relative SE of the MC SD is about 4%.
    rng = np.random.default_rng(11)
    y = np.r_[np.ones(300, bool), np.zeros(500, bool)]
    vals, ses = [], []
    for _ in range(300):
        s = rng.normal(size=800) + 1.2 * y
        e = rw.stats.estimate(y, s, "partial_auc", min_tpr=0.8)
        vals.append(e.value)
        ses.append(e.std_error)
    assert np.mean(ses) == pytest.approx(np.std(vals, ddof=1), rel=0.15)
