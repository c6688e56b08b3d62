"""Uno's IPCW concordance, truncation at tau and the tie switch of rw.survival
(concordance_index, estimate, compare): against R survival 3.5.3's
concordance(..., timewt = "n/G2", ymax = tau) (tests/golden/survival_golden.json: value,
var, dfbeta, counts, with weights and every kind of tie), against the literal pair loop of
tests/_support/reference_survival.py on generated inputs, and bad input."""

import json
import os
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rankwise as rw
from _support import reference_survival as ref
from rankwise.survival import _concordance as conc

GOLDEN = os.path.join(os.path.dirname(__file__), os.pardir, "golden", "survival_golden.json")


def golden():
    with open(GOLDEN) as fh:
        return json.load(fh)["cases"]


def _inputs(case):
    x = case["inputs"]
    w = np.array(x["weight"], dtype=float) if case["weighted"] else None
    return np.array(x["time"]), np.array(x["status"]).astype(bool), np.array(x["risk"]), w


@pytest.mark.parametrize("name", list(golden()))
def test_uno_equals_r_survival(name):
    """concordance(Surv(time, status) ~ risk, reverse = TRUE, timewt = "n/G2", ymax = ymax
    [, weights = weight]): the value, var and every row's dfbeta to 1e-10."""
    case = golden()[name]
    t, e, r, w = _inputs(case)
    res = case["results"]["uno"]
    tau = case["ymax"]
    c = rw.survival.concordance_index(t, e, r, weighting="uno", tau=tau, sample_weight=w)
    assert c == pytest.approx(res["concordance"], rel=1e-10)
    est = rw.survival.estimate(t, e, r, weighting="uno", tau=tau, sample_weight=w)
    assert est.value == c and est.weighting == "uno" and est.tau == tau
    assert est.std_error ** 2 == pytest.approx(res["var"], rel=1e-10)
    a = conc.case_weights(t, e, w, None, "uno", tau, None, "test")[0]
    C, u, D = conc._influence(t, e, r.astype(float), w, None, a, True)
    np.testing.assert_allclose(u, res["dfbeta"], rtol=1e-9, atol=1e-14)
    cnt = res["count"]
    assert D == pytest.approx(cnt["concordant"] + cnt["discordant"] + cnt["tied.x"], rel=1e-10)
    # the pairs counted (before the weights): Harrell's comparable pairs up to tau
    assert est.comparable == pytest.approx(rw.survival.estimate(t, e, r, tau=tau, sample_weight=w).comparable)
    assert "Uno's C, IPCW" in est.summary() and f"tau = {tau:g}" in est.summary()
    assert "higher risk = earlier event" in est.summary() and "censoring weights fixed" in est.summary()


@st.composite
def samples(draw):
    n = draw(st.integers(1, 22))
    rng = np.random.default_rng(draw(st.integers(0, 2 ** 31)))
    time = rng.integers(0, draw(st.integers(1, 8)), n).astype(float)
    event = rng.random(n) < draw(st.sampled_from([0.0, 0.3, 0.7, 1.0]))
    risk = rng.integers(0, draw(st.integers(1, 5)), n).astype(float)
    kind = draw(st.sampled_from(["none", "int", "frac"]))
    w = None if kind == "none" else (rng.integers(0, 3, n).astype(float) if kind == "int" else rng.random(n) * 2)
    strata = rng.integers(0, 3, n) if draw(st.booleans()) else None
    tau = None if draw(st.booleans()) else float(rng.choice(time)) + draw(st.sampled_from([0.0, 0.5]))
    if tau is not None and (tau > time.max() or tau <= 0):
        tau = None
    return time, event, risk, w, strata, tau


@settings(max_examples=60)
@given(samples(), st.sampled_from(["harrell", "uno"]), st.booleans())
def test_equals_the_literal_pair_loop(sample, weighting, tec):
    t, e, r, w, s, tau = sample
    C, num, den, dN, dD = ref.weighted_concordance(t, e, r, w, s, weighting=weighting, tau=tau,
                                                   tied_event_censored=tec)
    opts = dict(weighting=weighting, tau=tau, strata=s, sample_weight=w, tied_event_censored=tec)
    if not den > 0:
        with pytest.warns(rw.UndefinedMetricWarning):
            assert np.isnan(rw.survival.concordance_index(t, e, r, **opts))
        return
    assert rw.survival.concordance_index(t, e, r, **opts) == pytest.approx(C, rel=1e-12)
    est = rw.survival.estimate(t, e, r, **opts)
    assert est.std_error ** 2 == pytest.approx(
        ref.weighted_ij_variance(t, e, r, w, s, weighting=weighting, tau=tau, tied_event_censored=tec),
        rel=1e-9, abs=1e-14)
    # the pairs counted: the literal count with unit case weights, up to tau
    pairs = ref.weighted_concordance(t, e, r, w, s, weighting="harrell", tau=tau, tied_event_censored=tec)[2]
    assert est.comparable == pytest.approx(pairs, rel=1e-12, abs=1e-12)


@settings(max_examples=40)
@given(samples(), samples())
def test_reference_censoring_sample(sample, reference):
    """censoring=(time, event): G from the reference sample, read at these rows' event
    times (left limit); events beyond the reference's last time refused."""
    t, e, r, w, s, tau = sample
    rt, re_, _, _, _, _ = reference
    G = ref.censoring_km_literal(rt, re_)
    counted = e & (t <= (np.inf if tau is None else tau))
    if w is not None:
        counted &= w > 0
    opts = dict(weighting="uno", tau=tau, sample_weight=w, strata=s, censoring=(rt, re_))
    if (t[counted] > rt.max()).any():
        with pytest.raises(ValueError, match="'censoring' sample of concordance_index ends at time"):
            rw.survival.concordance_index(t, e, r, **opts)
        return
    assert all(G(v) > 0 for v in t[counted])  # up to the reference's last time G(t-) > 0
    C, _, den, _, _ = ref.weighted_concordance(t, e, r, w, s, weighting="uno", tau=tau, censoring_left=G)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", rw.UndefinedMetricWarning)
        got = rw.survival.concordance_index(t, e, r, **opts)
    assert (np.isnan(got) and not den > 0) or got == pytest.approx(C, rel=1e-12)


def test_hand_example():
    t, e, r = [1, 2, 3, 4], [1, 0, 1, 0], [0.2, 0.5, 0.9, 0.1]
    assert rw.survival.concordance_index(t, e, r) == 0.5
    assert rw.survival.concordance_index(t, e, r, weighting="uno") == pytest.approx(13 / 21, rel=1e-15)
    # tau = 2 keeps only the event at 1: one concordant pair of three
    assert rw.survival.concordance_index(t, e, r, weighting="uno", tau=2) == pytest.approx(1 / 3)
    assert rw.survival.concordance_index(t, e, r, tau=2.5) == pytest.approx(1 / 3)
    # an event and a censoring at one time: comparable by default, not with the switch
    t2, e2, r2 = [1, 1, 2], [1, 0, 1], [1.0, 2.0, 0.0]
    assert rw.survival.concordance_index(t2, e2, r2) == 0.5
    assert rw.survival.concordance_index(t2, e2, r2, tied_event_censored=False) == 1.0


def test_uno_is_harrell_without_censoring_and_scale_free_in_weights():
    rng = np.random.default_rng(3)
    t = np.round(rng.exponential(size=200), 1)
    r = np.round(rng.normal(size=200) - t, 1)
    e = np.ones(200, dtype=bool)
    assert rw.survival.concordance_index(t, e, r, weighting="uno") == pytest.approx(
        rw.survival.concordance_index(t, e, r), rel=1e-13)
    e = rng.random(200) < 0.6
    w = rng.integers(1, 4, 200).astype(float)
    a = rw.survival.estimate(t, e, r, weighting="uno", sample_weight=w)
    b = rw.survival.estimate(t, e, r, weighting="uno", sample_weight=w * 1000)
    assert a.value == pytest.approx(b.value, rel=1e-12)
    rep = rw.survival.concordance_index(np.repeat(t, w.astype(int)), np.repeat(e, w.astype(int)),
                                        np.repeat(r, w.astype(int)), weighting="uno")
    assert a.value == pytest.approx(rep, rel=1e-12)


def test_compare_with_uno_weights_is_the_joint_jackknife():
    rng = np.random.default_rng(8)
    n = 50
    t = np.ceil(rng.exponential(5, n))
    d = rng.random(n) < 0.6
    a = np.round(-t + rng.normal(size=n) * 3, 0)
    b = np.round(-t + rng.normal(size=n) * 6, 0)
    tau = float(np.quantile(t, 0.8))
    c = rw.survival.compare(t, d, {"a": a, "b": b}, weighting="uno", tau=tau)
    ua = ref.weighted_dfbeta(t, d, a, weighting="uno", tau=tau)
    ub = ref.weighted_dfbeta(t, d, b, weighting="uno", tau=tau)
    np.testing.assert_allclose(c.cov, [[ua @ ua, ua @ ub], [ub @ ua, ub @ ub]], rtol=1e-10)
    assert c.values[0] == pytest.approx(ref.weighted_concordance(t, d, a, weighting="uno", tau=tau)[0])
    assert c.params == {"weighting": "uno", "tau": tau}
    assert rw.survival.compare(t, d, {"a": a, "b": b}).params == {"weighting": "harrell"}


@pytest.mark.parametrize("opts, exc, match", [
    (dict(weighting="somers"), ValueError, "'weighting' parameter of concordance_index must be one of"),
    (dict(tau=0), ValueError, "'tau' parameter of concordance_index must be a positive, finite time"),
    (dict(tau=-1.0), ValueError, "'tau' parameter"),
    (dict(tau=np.nan), ValueError, "'tau' parameter"),
    (dict(tau=np.inf), ValueError, "'tau' parameter"),
    (dict(tau="3"), ValueError, "'tau' parameter"),
    (dict(tau=True), ValueError, "'tau' parameter"),
    (dict(tau=7.5), ValueError, "'tau' parameter of concordance_index must not exceed the last observed time \\(7\\)"),
    (dict(tied_event_censored="yes"), TypeError, "'tied_event_censored' parameter"),
    (dict(censoring=([1, 2], [1, 0])), ValueError, "applies to weighting='uno' only"),
    (dict(weighting="uno", censoring=[1, 2, 3]), ValueError, "'censoring' parameter of concordance_index must be a "
                                                              "reference sample"),
    (dict(weighting="uno", censoring=([1, -2], [1, 0])), ValueError, "'censoring\\[0\\] \\(time\\)' parameter"),
    (dict(weighting="uno", censoring=([1, 2], [1, 3])), ValueError, "'censoring\\[1\\] \\(event\\)' parameter"),
    (dict(weighting="uno", censoring=([1, 2], [1])), ValueError, "'censoring\\[1\\] \\(event\\)' has 1"),
    (dict(weighting="uno", censoring=([1, 3], [0, 0])), ValueError, "ends at time 3, before the event at time 4"),
])
def test_bad_options(opts, exc, match):
    with pytest.raises(exc, match=match):
        rw.survival.concordance_index([2, 4, 5, 7], [1, 1, 0, 1], [0.9, 0.3, 0.5, 0.1], **opts)


def test_options_are_checked_by_estimate_and_compare_too():
    args = ([2, 4, 5, 7], [1, 1, 0, 1])
    with pytest.raises(ValueError, match="'tau' parameter of estimate"):
        rw.survival.estimate(*args, [0.9, 0.3, 0.5, 0.1], tau=8)
    with pytest.raises(ValueError, match="'weighting' parameter of compare"):
        rw.survival.compare(*args, {"a": [1, 2, 3, 4], "b": [4, 3, 2, 1]}, weighting="x")


def test_no_event_or_no_pair_up_to_tau_is_nan_with_a_warning():
    with pytest.warns(rw.UndefinedMetricWarning, match="no pair is comparable"):
        assert np.isnan(rw.survival.concordance_index([1, 2, 3], [0, 0, 0], [1, 2, 3], weighting="uno"))
    with pytest.warns(rw.UndefinedMetricWarning, match="up to tau"):
        assert np.isnan(rw.survival.concordance_index([1, 2, 3], [0, 1, 1], [1, 2, 3], tau=1.5))
    with pytest.warns(rw.UndefinedMetricWarning):
        e = rw.survival.estimate([1, 2, 3], [0, 1, 1], [1, 2, 3], weighting="uno", tau=1.5)
    assert np.isnan(e.value) and np.isnan(e.std_error) and e.comparable == 0 and e.weighting == "uno"


def test_censoring_curve_stays_positive_at_the_events():
    """The censoring curve reaches 0 only at a censoring that takes its whole risk set
    (the events at that time leave first), so no row of positive weight comes later: G(t-)
    stays positive at every event that counts. A row of weight 0 may come later; it weighs
    nothing."""
    t, e, r = [1, 2, 3], [1, 0, 1], [3, 2, 1]
    assert rw.survival.concordance_index(t, e, r, weighting="uno", sample_weight=[1, 1, 0]) == 1.0
