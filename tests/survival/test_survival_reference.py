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
