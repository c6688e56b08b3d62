"""rw.survival.concordance_index and rw.survival.estimate: Harrell's C and its
infinitesimal-jackknife standard error against R survival 3.5.3 (tests/golden/
survival_golden.json: ties, strata, weights, clusters), against the ranking risk without
censoring, and bad input."""

import json
import os

import numpy as np
import pytest

import rankwise as rw

GOLDEN = os.path.join(os.path.dirname(__file__), os.pardir, "golden", "survival_golden.json")


def golden():
    with open(GOLDEN) as fh:
        return json.load(fh)["cases"]


@pytest.mark.parametrize("name", list(golden()))
def test_equals_r_survival(name):
    case = golden()[name]
    x = case["inputs"]
    t, d, r = np.array(x["time"]), np.array(x["status"]), np.array(x["risk"])
    w = np.array(x["weight"], dtype=float) if case["weighted"] else None
    res = case["results"]
    assert rw.survival.concordance_index(t, d, r, sample_weight=w) == pytest.approx(
        res["harrell"]["concordance"], rel=1e-13)
    e = rw.survival.estimate(t, d, r, sample_weight=w)
    assert e.value == pytest.approx(res["harrell"]["concordance"], rel=1e-13)
    assert e.std_error ** 2 == pytest.approx(res["harrell"]["var"], rel=1e-10)
    cnt = res["harrell"]["count"]
    assert e.comparable == pytest.approx(cnt["concordant"] + cnt["discordant"] + cnt["tied.x"], rel=1e-13)
    es = rw.survival.estimate(t, d, r, sample_weight=w, strata=x["strata"])
    assert es.value == pytest.approx(res["strata"]["concordance"], rel=1e-13)
    assert es.std_error ** 2 == pytest.approx(res["strata"]["var"], rel=1e-10) and es.n_strata == 3
    ec = rw.survival.estimate(t, d, r, sample_weight=w, clusters=x["cluster"])
    assert ec.std_error ** 2 == pytest.approx(res["cluster"]["var"], rel=1e-10)
    assert ec.n_clusters == len(set(x["cluster"]))


def test_without_censoring_is_the_ranking_risk():
    rng = np.random.default_rng(4)
    t = np.round(rng.exponential(size=400), 1)
    r = np.round(rng.normal(size=400) - t, 1)
    assert rw.survival.concordance_index(t, np.ones(400, dtype=bool), r) == pytest.approx(rw.ranking_risk(t, r),
                                                                                            rel=1e-13)


def test_interval_summary_and_event_codes():
    e = rw.survival.estimate([2, 4, 5, 7], [True, True, False, True], [0.9, 0.3, 0.5, 0.1])
    lo, hi = e.confidence_interval(0.95)
    assert lo == pytest.approx(0.8 - 1.959963984540054 * e.std_error) and hi == 1.0
    lo2, hi2 = e.confidence_interval(0.95, transform="logit")
    assert 0 < lo2 < 0.8 < hi2 < 1
    assert "higher risk = earlier event" in e.summary() and "0.8000" in e.summary()
    assert rw.survival.estimate([2, 4, 5, 7], [1.0, 1.0, 0.0, 1.0], [0.9, 0.3, 0.5, 0.1]).value == e.value


def test_no_comparable_pair_is_nan_with_a_warning():
    with pytest.warns(rw.UndefinedMetricWarning, match="no pair is comparable"):
        assert np.isnan(rw.survival.concordance_index([1, 2, 3], [0, 0, 0], [1, 2, 3]))
    with pytest.warns(rw.UndefinedMetricWarning):
        assert np.isnan(rw.survival.estimate([1, 1], [1, 1], [1, 2]).value)  # two events at one time


@pytest.mark.parametrize("args, match", [
    (([1, -2, 3], [1, 0, 1], [1, 2, 3]), "'time' parameter of concordance_index must hold non-negative"),
    (([1, np.nan, 3], [1, 0, 1], [1, 2, 3]), "time"),
    (([1, 2, 3], [1, 2, 1], [1, 2, 3]), "'event' parameter of concordance_index must hold booleans or 0/1"),
    (([1, 2, 3], ["a", "b", "c"], [1, 2, 3]), "'event' parameter"),
    (([1, 2, 3], [1, 0], [1, 2, 3]), "'event' has 2"),
    (([1, 2, 3], [1, 0, 1], [1, np.inf, 3]), "risk"),
    (([1, 2, 3], [1, 0, 1], [1, 2]), "'risk' has 2"),
    (([], [], []), "empty"),
    (([1, 2, 3], [True, False, 2], [1, 2, 3]), "'event' parameter"),
    (([1, np.inf, 3], [1, 0, 1], [1, 2, 3]), "'time' parameter of concordance_index must hold finite times"),
])
def test_bad_input(args, match):
    with pytest.raises(ValueError, match=match):
        rw.survival.concordance_index(*args)
    with pytest.raises(ValueError, match="strata"):
        rw.survival.concordance_index([1, 2, 3], [1, 0, 1], [1, 2, 3], strata=[1, None, 2])


@pytest.mark.parametrize("clustered", [False, True])
def test_compare_is_the_joint_jackknife(clustered):
    """Each scorer's value and variance are estimate's; the covariance is the sum of the
    rows' influence products (literal dfbeta of tests/_support), grouped by cluster."""
    import sys

    sys.path.insert(0, os.path.join(os.path.dirname(__file__), os.pardir))
    from _support import reference_survival as ref

    rng = np.random.default_rng(8)
    n = 60
    t = np.ceil(rng.exponential(5, n))
    d = rng.random(n) < 0.7
    a = np.round(-t + rng.normal(size=n) * 3, 0)
    b = np.round(-t + rng.normal(size=n) * 6, 0)
    w = rng.integers(1, 3, n).astype(float)
    cl = rng.integers(0, 15, n) if clustered else None
    c = rw.survival.compare(t, d, {"a": a, "b": b}, sample_weight=w, clusters=cl)
    ua, ub = ref.dfbeta(t, d, a, w), ref.dfbeta(t, d, b, w)
    if clustered:
        ua, ub = np.bincount(cl, weights=ua), np.bincount(cl, weights=ub)
    np.testing.assert_allclose(c.cov, [[ua @ ua, ua @ ub], [ub @ ua, ub @ ub]], rtol=1e-10)
    for k, s in enumerate((a, b)):
        e = rw.survival.estimate(t, d, s, sample_weight=w, clusters=cl)
        assert c.values[k] == pytest.approx(e.value, rel=1e-14) and c.cov[k, k] == pytest.approx(e.std_error ** 2)
    p = c.pairs[0]
    assert p.difference == pytest.approx(c.values[0] - c.values[1])
    assert p.std_error == pytest.approx(np.sqrt(c.cov[0, 0] + c.cov[1, 1] - 2 * c.cov[0, 1]))
    assert c.n_clusters == (None if cl is None else len(set(cl)))


def test_bad_weights_name_the_argument():
    with pytest.raises(ValueError, match="'time' has 3 values but 'sample_weight' has 2"):
        rw.survival.concordance_index([1, 2, 3], [1, 0, 1], [1, 2, 3], sample_weight=[1, 2])
    with pytest.raises(ValueError, match="'sample_weight' argument contains 1 negative"):
        rw.survival.estimate([1, 2, 3], [1, 0, 1], [1, 2, 3], sample_weight=[1, -2, 1])
    with pytest.raises(ValueError, match="'sample_weight' argument contains 1 NaN"):
        rw.survival.estimate([1, 2, 3], [1, 0, 1], [1, 2, 3], sample_weight=[1, np.nan, 1])


def test_harrell_summary_says_which_c():
    e = rw.survival.estimate([2, 4, 5, 7], [1, 1, 0, 1], [0.9, 0.3, 0.5, 0.1])
    assert e.weighting == "harrell" and e.tau is None
    assert e.summary().startswith("concordance (Harrell's C; higher risk = earlier event) = 0.8000")
    et = rw.survival.estimate([2, 4, 5, 7], [1, 1, 0, 1], [0.9, 0.3, 0.5, 0.1], tau=4)
    assert "Harrell's C, pairs truncated at tau = 4;" in et.summary() and et.comparable == 5
