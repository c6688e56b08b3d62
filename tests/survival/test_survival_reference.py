"""The literal definitions of tests/_support/reference_survival.py against R survival 3.5.3
(tests/golden/survival_golden.json, made by tests/golden/make_survival_golden.R): Harrell's
C, its counts and infinitesimal-jackknife variance, per-row dfbeta, with strata, clusters,
weights and ties in time, in risk and between events and censorings. The fast censored
concordance will be checked against these definitions and the same golden values."""

import json
import os

import numpy as np
import pytest

from _support import reference_survival as ref

GOLDEN = os.path.join(os.path.dirname(__file__), os.pardir, "golden", "survival_golden.json")


def cases():
    with open(GOLDEN) as fh:
        data = json.load(fh)
    assert data["producer"].startswith("R 4.") and "survival 3.5" in data["producer"]
    return [(name, c) for name, c in data["cases"].items() if len(c["inputs"]["time"]) <= 100]


@pytest.mark.parametrize("name,case", cases(), ids=[c[0] for c in cases()])
def test_literal_definitions_equal_r_survival(name, case):
    x = case["inputs"]
    t, d, r = np.array(x["time"]), np.array(x["status"]), np.array(x["risk"])
    w = np.array(x["weight"], dtype=float) if case["weighted"] else None
    res = case["results"]
    C, num, den, _, _ = ref.harrell(t, d, r, w)
    cnt = res["harrell"]["count"]
    assert C == pytest.approx(res["harrell"]["concordance"], rel=1e-13)
    assert num == pytest.approx(cnt["concordant"] + cnt["tied.x"] / 2, rel=1e-13)
    assert den == pytest.approx(cnt["concordant"] + cnt["discordant"] + cnt["tied.x"], rel=1e-13)
    assert ref.ij_variance(t, d, r, w) == pytest.approx(res["harrell"]["var"], rel=1e-10)
    np.testing.assert_allclose(ref.dfbeta(t, d, r, w), res["harrell"]["dfbeta"], rtol=1e-10, atol=1e-15)
    strata = np.array(x["strata"])
    assert ref.harrell(t, d, r, w, strata)[0] == pytest.approx(res["strata"]["concordance"], rel=1e-13)
    assert ref.ij_variance(t, d, r, w, strata) == pytest.approx(res["strata"]["var"], rel=1e-10)
    cl = np.array(x["cluster"])
    assert ref.ij_variance(t, d, r, w, clusters=cl) == pytest.approx(res["cluster"]["var"], rel=1e-10)


def test_golden_file_holds_ties_of_every_kind():
    """The cases exercise what the definitions distinguish: tied risks, tied event times,
    an event and a censoring at one time."""
    kinds = set()
    for _, case in cases():
        x = case["inputs"]
        t, d, r = np.array(x["time"]), np.array(x["status"]), np.array(x["risk"])
        for i in range(len(t)):
            for j in range(len(t)):
                if i != j and t[i] == t[j]:
                    kinds.add("event-event" if d[i] and d[j] else ("event-censored" if d[i] != d[j] else "cc"))
        if len(np.unique(r)) < len(r):
            kinds.add("risk")
    assert {"event-event", "event-censored", "risk"} <= kinds


@pytest.mark.parametrize("name,case", cases(), ids=[c[0] for c in cases()])
def test_literal_uno_equals_r_survival(name, case):
    """The literal Uno pair loop (censoring Kaplan-Meier with the events leaving the risk set
    first at tied times, G read just before the event time, pairs from events after ymax
    dropped, G held fixed in the jackknife) against concordance(..., timewt = "n/G2",
    ymax = ymax): value, the weighted counts, var and dfbeta."""
    x = case["inputs"]
    t, d, r = np.array(x["time"]), np.array(x["status"]), np.array(x["risk"])
    w = np.array(x["weight"], dtype=float) if case["weighted"] else None
    res = case["results"]["uno"]
    opts = dict(weighting="uno", tau=case["ymax"])
    C, num, den, _, _ = ref.weighted_concordance(t, d, r, w, **opts)
    cnt = res["count"]
    assert C == pytest.approx(res["concordance"], rel=1e-12)
    assert num == pytest.approx(cnt["concordant"] + cnt["tied.x"] / 2, rel=1e-12)
    assert den == pytest.approx(cnt["concordant"] + cnt["discordant"] + cnt["tied.x"], rel=1e-12)
    assert ref.weighted_ij_variance(t, d, r, w, **opts) == pytest.approx(res["var"], rel=1e-10)
    np.testing.assert_allclose(ref.weighted_dfbeta(t, d, r, w, **opts), res["dfbeta"], rtol=1e-10, atol=1e-15)
    # with G(t) in place of G(t-) (censorings at t_i included) the value moves where a
    # censoring ties an event before ymax: R reads G just before the event
    tied = np.intersect1d(t[(d == 1) & (t <= case["ymax"])], t[d == 0]).size > 0
    right = ref.censoring_km_literal(t, d, w, limit="right")
    C_right = ref.weighted_concordance(t, d, r, w, censoring_left=right, **opts)[0]
    assert (C_right != pytest.approx(C, rel=1e-9)) == tied
    # the other tie convention of the Kaplan-Meier (Y, not Y - d) is not R's where ties exist
    usual = ref.censoring_km_literal(t, d, w, events_first=False)
    C_usual = ref.weighted_concordance(t, d, r, w, censoring_left=usual, **opts)[0]
    assert (C_usual != pytest.approx(C, rel=1e-9)) == tied


def test_literal_harrell_with_unit_case_weights_is_the_weighted_loop():
    """The two literal loops agree: Harrell's pair loop and the weighted one with a = 1."""
    rng = np.random.default_rng(2)
    t = rng.integers(0, 6, 30).astype(float)
    d = rng.random(30) < 0.6
    r = rng.integers(0, 4, 30).astype(float)
    for tec in (True, False):
        assert ref.weighted_concordance(t, d, r, tied_event_censored=tec)[:3] == pytest.approx(
            ref.harrell(t, d, r, tied_event_censored=tec)[:3])
