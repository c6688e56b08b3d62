"""rw.operating_points and rw.optimal_threshold: against R pROC 1.18 (golden, to 1e-9),
against the literal definitions of tests/_support/reference_oppoints.py on generated
inputs (ties, weights, tiny samples), and on bad input.

Golden fixture: ``tests/golden/make_proc_oppoints.R`` (inputs from
``tests/golden/inputs_stats.json``); the calls are recorded in the JSON under ``"calls"``,
e.g. ``coords(r, x = sp, input = 'specificity', ret = c('threshold', 'sensitivity',
'specificity', 'precision'))`` with ``r = roc(y, s, levels = c(0, 1), direction = '<')``.
"""

import json
import math
import os

import numpy as np
import pytest
from hypothesis import given, strategies as st

import rankwise as rw
from _support import reference_oppoints as ref
from _support.paths import GOLDEN
from _support.quiet import quiet
from _support.strategies import samples

with open(os.path.join(GOLDEN, "inputs_stats.json")) as fh:
    INPUTS = {c["name"]: c for c in json.load(fh)}
with open(os.path.join(GOLDEN, "proc_oppoints.json")) as fh:
    PROC = json.load(fh)
CASES = [(c["name"], c["score"]) for c in PROC["cases"]]
BY_CASE = {(c["name"], c["score"]): c for c in PROC["cases"]}
TOL = 1e-9


def _num(v):
    return [float({"NA": "nan", "Inf": "inf", "-Inf": "-inf"}.get(x, x)) for x in ([v] if isinstance(v, str) else v)]


def _table(d):
    return {k: np.array(_num(v)) for k, v in d.items()}


def _our_threshold(s, proc_thr):
    """pROC's threshold (midway between scores) as rankwise's: the lowest score at or above
    it (the same observations are called positive), +inf when there is none."""
    s = np.unique(s)
    out = []
    for t in proc_thr:
        above = s[s >= t]
        out.append(math.inf if above.size == 0 else float(above.min()))
    return np.array(out)


def test_fixture_versions():
    assert PROC["pROC_version"].startswith("1.18")
    assert len(CASES) >= 12


@pytest.mark.parametrize("by", ["specificity", "sensitivity"])
@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c[0]}-{c[1]}")
def test_by_rate_matches_proc(case, by):
    """coords(r, x, input = "specificity" | "sensitivity"): fpr = 1 - specificity, tpr =
    sensitivity; the threshold where pROC has one (the rate is on the curve), nan where it
    has NA (interpolated)."""
    c, g = INPUTS[case[0]], BY_CASE[case]
    x = np.array(_num(g[by]))
    op = rw.operating_points(c["y"], c[case[1]], **({"fpr": 1.0 - x} if by == "specificity" else {"tpr": x}))
    exp = _table(g["by_" + by])
    np.testing.assert_allclose(op.tpr, exp["sensitivity"], rtol=TOL, atol=TOL)
    np.testing.assert_allclose(op.specificity, exp["specificity"], rtol=TOL, atol=TOL)
    np.testing.assert_allclose(op.precision, exp["precision"], rtol=TOL, atol=TOL)
    has = ~np.isnan(exp["threshold"])
    assert (~np.isnan(op.threshold) == has).all()
    np.testing.assert_array_equal(op.threshold[has], _our_threshold(c[case[1]], exp["threshold"][has]))


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c[0]}-{c[1]}")
def test_by_threshold_matches_proc(case):
    c, g = INPUTS[case[0]], BY_CASE[case]
    thr = np.array(_num(g["thresholds"]))
    op = rw.operating_points(c["y"], c[case[1]], thresholds=thr)
    exp = _table(g["by_threshold"])
    np.testing.assert_array_equal(op.threshold, thr)
    np.testing.assert_allclose(op.tpr, exp["sensitivity"], rtol=TOL, atol=TOL)
    np.testing.assert_allclose(op.specificity, exp["specificity"], rtol=TOL, atol=TOL)
    np.testing.assert_allclose(op.precision, exp["precision"], rtol=TOL, atol=TOL)


@pytest.mark.parametrize("method,key,weights", [
    ("youden", "youden", {}), ("closest_topleft", "closest_topleft", {}),
    ("youden", "youden_weighted", {"cost": 2, "prevalence": 0.2}),
    ("closest_topleft", "closest_topleft_weighted", {"cost": 0.5, "prevalence": 0.3}),
])
@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c[0]}-{c[1]}")
def test_optimal_threshold_matches_proc(case, method, key, weights):
    """pROC lists every tied cut; rankwise lists the same cuts and returns the highest.
    ``cost, prevalence`` are pROC's ``best.weights``."""
    c, g = INPUTS[case[0]], BY_CASE[case]
    exp = _table(g[key])
    cut = rw.optimal_threshold(c["y"], c[case[1]], method=method, **weights)
    theirs = _our_threshold(c[case[1]], exp["threshold"])
    assert sorted(cut.tied_thresholds.tolist(), reverse=True) == sorted(theirs.tolist(), reverse=True)
    k = int(np.argmax(theirs))
    assert cut.threshold == theirs[k]
    assert cut.tpr == pytest.approx(exp["sensitivity"][k], abs=TOL)
    assert cut.specificity == pytest.approx(exp["specificity"][k], abs=TOL)
    assert cut.youden_index == pytest.approx(cut.tpr - cut.fpr, abs=0)


# --- against the literal definitions --------------------------------------------------------

def _rates(draw_fracs, y, s, w):
    """Requested rates: some on the curve (attained), some between its points."""
    pts = ref.curve(y, s, w)
    return pts, draw_fracs


@given(samples(max_n=14, weights=True), st.lists(st.floats(0, 1), min_size=1, max_size=5), st.booleans())
def test_by_rate_matches_definition(sample, fracs, weighted):
    y, s, w = sample
    w = w if weighted else None
    pts = ref.curve(y, s, w)
    for by, key in (("fpr", 2), ("tpr", 1)):
        xs = sorted({p[key] for p in pts}) + list(fracs)
        op = rw.operating_points(y, s, sample_weight=w, **{by: xs})
        for i, x in enumerate(xs):
            thr, tpr, fpr, prec = ref.at_rate(y, s, w, x, by)
            assert op.tpr[i] == pytest.approx(tpr, abs=1e-12)
            assert op.fpr[i] == pytest.approx(fpr, abs=1e-12)
            assert op.precision[i] == pytest.approx(prec, abs=1e-12, nan_ok=True)
            assert (math.isnan(thr) and math.isnan(op.threshold[i])) or op.threshold[i] == thr


@given(samples(max_n=14, weights=True), st.booleans())
def test_by_threshold_matches_definition(sample, weighted):
    y, s, w = sample
    w = w if weighted else None
    u = sorted(set(s))
    thr = u + [(a + b) / 2 for a, b in zip(u, u[1:])] + [-math.inf, math.inf, min(u) - 1, max(u) + 1]
    op = rw.operating_points(y, s, sample_weight=w, thresholds=thr)
    for i, t in enumerate(thr):
        tpr, fpr, prec = ref.point_at(y, s, w, t)
        assert op.tpr[i] == pytest.approx(tpr, abs=1e-12)
        assert op.fpr[i] == pytest.approx(fpr, abs=1e-12)
        assert op.precision[i] == pytest.approx(prec, abs=1e-12, nan_ok=True)


@given(samples(max_n=14, weights=True), st.booleans(), st.sampled_from(["youden", "closest_topleft"]),
       st.sampled_from([(1.0, 0.5), (2.0, 0.2), (0.5, 0.75)]))
def test_optimal_threshold_matches_definition(sample, weighted, method, cost_prevalence):
    y, s, w = sample
    w = w if weighted else None
    cost, prevalence = cost_prevalence
    thr, tpr, fpr, tied = ref.optimal(y, s, w, method, r=(1 - prevalence) / (cost * prevalence))
    cut = rw.optimal_threshold(y, s, sample_weight=w, method=method, cost=cost, prevalence=prevalence)
    assert cut.threshold == thr
    assert cut.tied_thresholds.tolist() == tied
    assert cut.tpr == pytest.approx(tpr, abs=1e-12) and cut.fpr == pytest.approx(fpr, abs=1e-12)


def test_weights_equal_repetition():
    y = [0, 1, 1, 0, 1, 0]
    s = [0.2, 0.9, 0.4, 0.4, 0.7, 0.1]
    w = [1, 3, 2, 1, 1, 2]
    yy = np.repeat(y, w)
    ss = np.repeat(s, w)
    for kw in ({"fpr": [0, 0.3, 0.5, 1]}, {"tpr": [0.2, 0.5, 5 / 6]}, {"thresholds": [0.4, 0.5]}):
        a = rw.operating_points(y, s, sample_weight=w, **kw)
        b = rw.operating_points(yy, ss, **kw)
        for k in ("threshold", "tpr", "fpr", "precision"):
            np.testing.assert_allclose(getattr(a, k), getattr(b, k), rtol=1e-12)


def test_result_object():
    op = rw.operating_points([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], fpr=0.5)
    assert op.requested == "fpr" and op.n_positive == 2 and op.n_negative == 2 and op.n == 4
    assert op.tpr.dtype == np.float64 and op.tpr.shape == (1,)
    assert op.to_rows() == [{"threshold": 0.35, "tpr": 1.0, "fpr": 0.5, "specificity": 0.5,
                             "precision": 2 / 3}]
    assert "positive when score >= threshold" in op.summary()
    with pytest.raises(AttributeError):
        op.tpr = None
    assert "score >= 0.8000" in str(rw.optimal_threshold([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]))


def test_one_class_warns_and_returns_nan():
    with pytest.warns(rw.UndefinedMetricWarning):
        op = rw.operating_points([1, 1, 1], [0.1, 0.2, 0.3], fpr=[0.1, 0.2])
    assert np.isnan(op.tpr).all() and np.isnan(op.threshold).all()
    with pytest.warns(rw.UndefinedMetricWarning):
        cut = rw.optimal_threshold([0, 0], [0.1, 0.2])
    assert math.isnan(cut.threshold)


@pytest.mark.parametrize("kw,err,match", [
    ({}, TypeError, "exactly one of 'fpr', 'tpr' or 'thresholds'"),
    ({"fpr": 0.1, "tpr": 0.2}, TypeError, "exactly one"),
    ({"fpr": 1.5}, ValueError, "rates in \\[0, 1\\]"),
    ({"tpr": [0.1, math.nan]}, ValueError, "rates in \\[0, 1\\]"),
    ({"fpr": []}, ValueError, "non-empty 1-D array"),
    ({"fpr": [[0.1, 0.2], [0.3, 0.4]]}, ValueError, "non-empty 1-D array"),
    ({"thresholds": "a"}, ValueError, "non-empty 1-D array"),
    ({"thresholds": [0.1, math.nan]}, ValueError, "must not contain nan"),
])
def test_bad_requests(kw, err, match):
    with pytest.raises(err, match=match):
        rw.operating_points([0, 1], [0.1, 0.2], **kw)


def test_bad_data_and_method():
    with pytest.raises(ValueError, match="NaN"):
        rw.operating_points([0, 1], [0.1, math.nan], fpr=0.1)
    with pytest.raises(ValueError, match="same length"):
        rw.operating_points([0, 1, 1], [0.1, 0.2], fpr=0.1)
    with pytest.raises(ValueError, match="pos_label"):
        rw.optimal_threshold(["a", "b"], [0.1, 0.2])
    with pytest.raises(ValueError, match="method"):
        rw.optimal_threshold([0, 1], [0.1, 0.2], method="best")
    with pytest.raises(ValueError, match="The 'prevalence' parameter of optimal_threshold must be a float in \\(0, 1\\)"):
        rw.optimal_threshold([0, 1], [0.1, 0.2], prevalence=1.0)
    with pytest.raises(ValueError, match="cost"):
        rw.optimal_threshold([0, 1], [0.1, 0.2], cost=0)


def test_zero_weight_scores_are_never_thresholds():
    y, s, w = [0, 1, 1, 0], [0.1, 0.5, 0.9, 0.7], [1, 0, 1, 1]
    op = rw.operating_points(y, s, sample_weight=w, fpr=[0, 0.5, 1], )
    assert 0.5 not in op.threshold.tolist()
    assert op.threshold.tolist() == [0.9, 0.7, 0.1]
    assert rw.optimal_threshold(y, s, sample_weight=w).tied_thresholds.tolist() == [0.9]


def test_top_level_exports():
    assert "operating_points" in rw.__all__ and "OperatingPoints" in rw.metrics.__all__
    assert rw.optimal_threshold is rw.metrics.optimal_threshold
