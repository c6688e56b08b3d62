"""rw.stats.coords and rw.stats.coords_ci: against R pROC 1.18 (coords golden to 1e-9,
ci.coords in law), against the literal definitions of tests/_support/reference_coords.py
on generated inputs (ties, weights, tiny samples), and on bad input.

Golden fixture: ``tests/golden/make_proc_coords_power.R`` (inputs from
``tests/golden/inputs_stats.json``); the calls are recorded in the JSON under ``"calls"``.
"""

import json
import math
import os

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import rankwise as rw
from _support import reference_coords as ref
from _support.paths import GOLDEN
from _support.strategies import samples

with open(os.path.join(GOLDEN, "inputs_stats.json")) as fh:
    INPUTS = {c["name"]: c for c in json.load(fh)}
with open(os.path.join(GOLDEN, "proc_coords_power.json")) as fh:
    PROC = json.load(fh)
CASES = {(c["name"], c["score"]): c for c in PROC["coords"]}
ALL = rw.stats.COORDINATES
TOL = 1e-9


def _num(v):
    return np.array([float({"NA": "nan", "Inf": "inf", "-Inf": "-inf"}.get(x, x))
                     for x in ([v] if isinstance(v, str) else v)])


def _table(d):
    return {k: _num(v) for k, v in d.items()}


def _close(ours, theirs, what):
    ours, theirs = np.asarray(ours, dtype=float), np.asarray(theirs, dtype=float)
    assert ours.shape == theirs.shape, what
    nan = np.isnan(theirs)
    assert (np.isnan(ours) == nan).all(), what
    np.testing.assert_allclose(ours[~nan], theirs[~nan], rtol=0, atol=TOL, err_msg=what)


def test_fixture_versions():
    assert PROC["versions"]["pROC"].startswith("1.18")
    assert len(CASES) >= 12


@pytest.mark.parametrize("case", sorted(CASES), ids=lambda c: f"{c[0]}-{c[1]}")
def test_coords_match_proc(case):
    g = CASES[case]
    c = INPUTS[case[0]]
    y, s = c["y"], c[case[1]]
    for key, inp, x in (("by_threshold", "threshold", g["thresholds"]), ("by_specificity", "specificity",
                        g["specificity"]), ("by_sensitivity", "sensitivity", g["sensitivity"])):
        got = rw.stats.coords(y, s, _num(x), input=inp, ret="all", threshold_style="midpoint")
        exp = _table(g[key])
        for name in ALL:
            _close(got[name], exp[name], f"{key} {name}")
    for b in g["best"]:
        got = rw.stats.coords(y, s, "best", best_method=b["method"], best_weights=b["weights"], ret="all",
                              threshold_style="midpoint")
        exp = _table(b["table"])
        # pROC keeps the points whose criterion equals the maximum in floating point; rankwise
        # keeps those within 8 units in the last place (equal in exact arithmetic, e.g.
        # r / n- = 2 / n+ with weights (0.5, 0.3) and 120 positives, 280 negatives).
        # pROC's ties are among rankwise's, and every row agrees.
        rows = [int(np.flatnonzero(got["threshold"] == t)[0]) for t in exp["threshold"]]
        for name in ALL:
            _close(got[name][rows], exp[name], f"best {b['method']} {b['weights']} {name}")
        crit = got["youden"] if b["method"] == "youden" else -got["closest.topleft"]
        assert np.ptp(crit) <= 8 * np.finfo(float).eps * max(abs(crit).max(), 1.0)


def test_score_style_thresholds_call_the_same_rows():
    c = INPUTS["mixed_ties"]
    mid = rw.stats.coords(c["y"], c["s1"], "all", threshold_style="midpoint")
    sco = rw.stats.coords(c["y"], c["s1"], "all")
    s = np.unique(c["s1"])
    for m, t in zip(mid["threshold"], sco["threshold"]):
        above = s[s > m]
        assert t == (math.inf if above.size == 0 else above.min())
    np.testing.assert_array_equal(mid["sensitivity"], sco["sensitivity"])


def test_rate_inputs_agree_with_operating_points():
    c = INPUTS["continuous"]
    q = [0.0, 0.1, 0.37, 0.5, 1.0]
    op = rw.operating_points(c["y"], c["s1"], fpr=q)
    for inp, x in (("fpr", q), ("specificity", [1 - v for v in q]), ("1-specificity", q)):
        got = rw.stats.coords(c["y"], c["s1"], x, input=inp, ret=["threshold", "tpr", "fpr", "precision"])
        np.testing.assert_allclose(got["tpr"], op.tpr, atol=1e-12)
        np.testing.assert_allclose(got["precision"], op.precision, atol=1e-12)
        np.testing.assert_array_equal(np.isnan(got["threshold"]), np.isnan(op.threshold))
    n_neg = len(c["y"]) - sum(c["y"])
    got = rw.stats.coords(c["y"], c["s1"], [v * n_neg for v in q], input="fp", ret=["tpr"])
    np.testing.assert_allclose(got["tpr"], op.tpr, atol=1e-12)


@settings(max_examples=40)
@given(samples(max_n=18, weights=True), st.sampled_from(["youden", "closest.topleft"]),
       st.sampled_from([(1.0, 0.5), (2.0, 0.2), (0.5, 0.7)]), st.booleans())
def test_best_matches_definition(sample, method, weights, midpoint):
    y, s, w = sample
    got = rw.stats.coords(y, s, "best", ret="all", best_method=method, best_weights=weights, sample_weight=w,
                          threshold_style="midpoint" if midpoint else "score")
    r = (1 - weights[1]) / (weights[0] * weights[1])
    exp = ref.best(y, s, w, method, r, midpoint)
    for name in ALL:
        np.testing.assert_allclose(got[name], [e[name] for e in exp], rtol=1e-10, atol=1e-10, err_msg=name)


@settings(max_examples=30)
@given(samples(max_n=18, weights=True), st.lists(st.floats(-4, 4), min_size=1, max_size=4))
def test_thresholds_match_definition(sample, thr):
    y, s, w = sample
    got = rw.stats.coords(y, s, thr, ret="all", sample_weight=w)
    for i, t in enumerate(thr):
        exp = ref.at_threshold(y, s, w, t)
        for name in ALL:
            np.testing.assert_allclose(got[name][i], exp[name], rtol=1e-10, atol=1e-10, err_msg=name)


def test_all_points_and_summary():
    y, s = [0, 0, 1, 0, 1, 1], [0.1, 0.4, 0.35, 0.5, 0.8, 0.9]
    c = rw.stats.coords(y, s, "all", threshold_style="midpoint")
    np.testing.assert_allclose(c["threshold"], [math.inf, 0.85, 0.65, 0.45, 0.375, 0.225, -math.inf], rtol=1e-15)
    assert c.ret == ("threshold", "specificity", "sensitivity")
    assert "best" not in c.summary() and "every point" in c.summary()
    assert c.to_rows()[2] == {"threshold": (0.8 + 0.5) / 2, "specificity": 1.0, "sensitivity": 2 / 3}
    zero = rw.stats.coords(y + [1], s + [0.6], "all", sample_weight=[1] * 6 + [0])
    np.testing.assert_array_equal(zero["threshold"], rw.stats.coords(y, s, "all")["threshold"])


def test_weights_equal_repetition():
    y, s, w = [0, 1, 0, 1, 1], [0.2, 0.3, 0.5, 0.7, 0.9], [2, 1, 3, 1, 2]
    yy = [v for v, k in zip(y, w) for _ in range(k)]
    ss = [v for v, k in zip(s, w) for _ in range(k)]
    for x, kw in (("best", {}), ([0.3, 0.6], {}), ([0.2, 0.5], {"input": "specificity"})):
        a = rw.stats.coords(y, s, x, sample_weight=w, ret="all" if "input" not in kw else ["tp", "npv"], **kw)
        b = rw.stats.coords(yy, ss, x, ret="all" if "input" not in kw else ["tp", "npv"], **kw)
        for name in a.ret:
            np.testing.assert_allclose(a[name], b[name], atol=1e-12)


# --- intervals ------------------------------------------------------------------------------

def _ci_case(name):
    c = INPUTS[name]
    return c["y"], c["s1"], next(g for g in PROC["ci"] if g["name"] == name)


@pytest.mark.parametrize("name", ["continuous_large", "mixed_ties"])
def test_intervals_agree_with_proc_in_law(name):
    """4000 resamples each: a percentile of these samples moves by a few hundredths at
    most between seeds; the tolerance is 0.04 on rates (the law's spread, not rounding)."""
    y, s, g = _ci_case(name)
    best = rw.stats.coords_ci(y, s, "best", ret=["threshold", "sensitivity", "specificity", "ppv"],
                              threshold_style="midpoint", n_resamples=4000, random_state=1)
    for k in ("sensitivity", "specificity", "ppv"):
        for end, ours in (("low", best.low), ("high", best.high), ("median", best.median)):
            assert abs(ours[k][0] - _num(g["best"][k][end])[0]) < 0.05, (k, end)
    spread = np.ptp(s)
    for end, ours in (("low", best.low), ("median", best.median), ("high", best.high)):
        assert abs(ours["threshold"][0] - _num(g["best"]["threshold"][end])[0]) < 0.1 * spread, end
    sp = rw.stats.coords_ci(y, s, [0.5, 0.8, 0.9], input="specificity", ret=["sensitivity", "accuracy", "npv", "ppv"],
                            n_resamples=4000, random_state=2)
    for k in ("sensitivity", "accuracy", "npv", "ppv"):
        # The predictive values of a tied sample have atoms next to the 2.5% quantile
        # (mixed_ties at specificity 0.9: 2.5% of the mass lies between 0.17 and 0.29), so
        # that quantile moves by up to 0.07 between seeds: 0.08 for them, 0.04 for rates.
        tol = 0.08 if k in ("npv", "ppv") else 0.04
        for end, ours in (("low", sp.low), ("high", sp.high)):
            np.testing.assert_allclose(ours[k], _num(g["specificity"][k][end]), atol=tol, err_msg=f"{k} {end}")
    thr = _num(g["thresholds"])
    th = rw.stats.coords_ci(y, s, thr, ret=["threshold", "sensitivity", "specificity", "precision"],
                            n_resamples=4000, random_state=3)
    np.testing.assert_array_equal(th.low["threshold"], thr)
    for k in ("sensitivity", "specificity", "precision"):
        for end, ours in (("low", th.low), ("high", th.high)):
            np.testing.assert_allclose(ours[k], _num(g["threshold"][k][end]), atol=0.04, err_msg=f"{k} {end}")


def test_best_intervals_agree_with_literal_bootstrap():
    rng = np.random.default_rng(5)
    y = [bool(v) for v in rng.random(40) < 0.4]
    s = [round(float(v), 1) for v in rng.normal(size=40) + np.array(y) * 1.0]
    exp = ref.bootstrap_best(y, s, ["sensitivity", "specificity", "threshold"], 600, seed=7)
    got = rw.stats.coords_ci(y, s, "best", ret=["sensitivity", "specificity", "threshold"], threshold_style="midpoint",
                             n_resamples=3000, random_state=8)
    for k, (lo, hi) in exp.items():
        tol = 0.12 if k != "threshold" else 0.4
        assert abs(got.low[k][0] - lo) < tol and abs(got.high[k][0] - hi) < tol, (k, got.low[k], got.high[k], lo, hi)


def test_intervals_reproducible_and_policies():
    y, s, _ = _ci_case("mixed_ties")
    a = rw.stats.coords_ci(y, s, "best", n_resamples=300, random_state=4)
    b = rw.stats.coords_ci(y, s, "best", n_resamples=300, random_state=4)
    assert all(np.array_equal(a.low[k], b.low[k]) and np.array_equal(a.high[k], b.high[k]) for k in a.low)
    assert a.best_policy == "random" and a.n_omitted == 0
    yi = [0, 0, 1, 1, 0, 1, 0, 1] * 3
    si = [1, 2, 2, 3, 1, 3, 2, 1] * 3
    om = rw.stats.coords_ci(yi, si, "best", best_policy="omit", n_resamples=300, random_state=0)
    assert om.n_ties > 0 and om.n_omitted == om.n_ties
    with pytest.raises(ValueError, match="more than one best threshold"):
        rw.stats.coords_ci(yi, si, "best", best_policy="stop", n_resamples=300, random_state=0)
    assert "intervals of ROC coordinates" in str(om) and "tied best cuts (omit)" in om.summary()
    rows = om.to_rows()
    assert rows[0]["at"] == "best" and rows[0]["coordinate"] == "threshold"


def test_cluster_bootstrap_is_wider_for_repeated_rows():
    rng = np.random.default_rng(0)
    y0 = rng.random(30) < 0.5
    s0 = rng.normal(size=30) + y0
    y, s = np.repeat(y0, 4), np.repeat(s0, 4)
    cl = np.repeat(np.arange(30), 4)
    rows = rw.stats.coords_ci(y, s, [0.8], input="specificity", ret=["sensitivity"], n_resamples=800, random_state=1)
    clus = rw.stats.coords_ci(y, s, [0.8], input="specificity", ret=["sensitivity"], n_resamples=800, random_state=1,
                              clusters=cl)
    assert clus.n_clusters == 30
    assert (clus.high["sensitivity"] - clus.low["sensitivity"])[0] > 1.4 * (rows.high["sensitivity"]
                                                                            - rows.low["sensitivity"])[0]


def test_one_class_warns_and_returns_nan():
    with pytest.warns(rw.UndefinedMetricWarning):
        c = rw.stats.coords([1, 1], [0.1, 0.2], [0.15], ret=["threshold", "sensitivity"])
    with pytest.warns(rw.UndefinedMetricWarning):
        ci = rw.stats.coords_ci([1, 1], [0.1, 0.2], "best", n_resamples=10)
    assert c["threshold"].tolist() == [0.15] and math.isnan(c["sensitivity"][0])
    assert math.isnan(ci.low["sensitivity"][0])


@pytest.mark.parametrize("kw, err, match", [
    ({"x": "worst"}, ValueError, "'x' parameter of coords must be"),
    ({"x": [0.1, math.nan]}, ValueError, "'x' parameter of coords must be"),
    ({"x": [0.1], "input": "ppv"}, ValueError, "'input' parameter of coords must be one of"),
    ({"x": [1.5], "input": "specificity"}, ValueError, r"values of 'specificity' in \[0, 1\]"),
    ({"x": "best", "ret": ["auc"]}, ValueError, "'ret' parameter of coords must be one of"),
    ({"x": "best", "ret": []}, ValueError, "non-empty list"),
    ({"x": "best", "best_method": "closest"}, ValueError, "'best_method' parameter"),
    ({"x": "best", "best_weights": (1, 1.0)}, ValueError, "'best_weights' parameter"),
    ({"x": "best", "threshold_style": "mid"}, ValueError, "'threshold_style' parameter"),
])
def test_bad_input(kw, err, match):
    with pytest.raises(err, match=match):
        rw.stats.coords([0, 1, 0, 1], [0.1, 0.2, 0.3, 0.4], **kw)


def test_bad_interval_input():
    y, s = [0, 1, 0, 1], [0.1, 0.2, 0.3, 0.4]
    with pytest.raises(ValueError, match="may name 'threshold' only"):
        rw.stats.coords_ci(y, s, [0.5], input="specificity", ret=["threshold"])
    with pytest.raises(ValueError, match="'x' parameter of coords_ci"):
        rw.stats.coords_ci(y, s, "all")
    with pytest.raises(ValueError, match="'best_policy' parameter"):
        rw.stats.coords_ci(y, s, "best", best_policy="first")
    with pytest.raises(ValueError, match="n_resamples"):
        rw.stats.coords_ci(y, s, "best", n_resamples=1)


def test_inputs_not_modified():
    y, s = [0, 1, 0, 1, 1], np.array([0.1, 0.2, 0.3, 0.4, 0.5])
    x = np.array([0.2, 0.3])
    s0, x0 = s.copy(), x.copy()
    rw.stats.coords(y, s, x)
    rw.stats.coords_ci(y, s, x, n_resamples=20, random_state=0)
    np.testing.assert_array_equal(s, s0)
    np.testing.assert_array_equal(x, x0)


def test_exports():
    assert rw.coords is rw.stats.coords and "coords" in rw.__all__
    assert {"coords", "coords_ci", "Coords", "CoordsIntervals", "COORDINATES"} <= set(rw.stats.__all__)
    assert {"auc_study_binormal"} <= set(rw.stats.__all__)
