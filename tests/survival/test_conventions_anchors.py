"""Tie conventions: rankwise reproduces what lifelines, scikit-survival and R survival count
on small tied datasets, under the option mapping of docs/survival.md ("How the packages
count"). Values from tests/golden/anchor_conventions.json (made by
tests/golden/make_anchor_conventions.py: lifelines 0.30.3, scikit-survival 0.28.0, R
survival 3.5.3; each value carries its call)."""

import json
import os

import numpy as np
import pytest

import rankwise as rw
from _support import reference_survival as ref

GOLDEN = os.path.join(os.path.dirname(__file__), os.pardir, "golden", "anchor_conventions.json")


def cases():
    with open(GOLDEN) as fh:
        return json.load(fh)["cases"]


CASES = cases()


def arrays(case):
    x = case["inputs"]
    return np.array(x["time"], dtype=float), np.array(x["event"], dtype=bool), np.array(x["risk"], dtype=float)


def censoring_ties_an_event(t, e, upto=np.inf):
    """Whether a censoring shares its time with an event counted (before ``upto``)."""
    return bool(np.intersect1d(t[e & (t <= upto)], t[~e]).size)


def value(case, key):
    res = case["results"][key]
    assert "value" in res, res
    return res["value"]


@pytest.mark.parametrize("name", list(CASES))
def test_lifelines_is_harrell_of_minus_the_score(name):
    """lifelines' concordance_index(time, score, event) takes a predicted survival time
    (higher = later): it is rankwise's Harrell's C with risk = -score, on every tie case."""
    case = CASES[name]
    t, e, r = arrays(case)
    assert "-risk" in case["results"]["lifelines"]["call"]
    assert rw.survival.concordance_index(t, e, r) == pytest.approx(value(case, "lifelines"), rel=1e-12)


@pytest.mark.parametrize("name", list(CASES))
def test_scikit_survival_censored_is_harrell_with_exact_ties(name):
    """concordance_index_censored with tied_tol=0 counts every tie as rankwise does; with
    its default tied_tol=1e-8, risks closer than 1e-8 count as tied (only near_tied_risk has
    such risks here)."""
    case = CASES[name]
    t, e, r = arrays(case)
    c = rw.survival.concordance_index(t, e, r)
    assert c == pytest.approx(value(case, "sksurv_censored_tol0"), rel=1e-12)
    gaps = np.diff(np.unique(r))
    if gaps.size and gaps.min() <= 1e-8:
        assert name == "near_tied_risk"
        assert value(case, "sksurv_censored") != pytest.approx(c, rel=1e-9)
        merged = np.where(np.abs(r - 1.0) <= 1e-8, 1.0, r)  # the tolerance's ties made exact
        assert rw.survival.concordance_index(t, e, merged) == pytest.approx(value(case, "sksurv_censored"))
    else:
        assert c == pytest.approx(value(case, "sksurv_censored"), rel=1e-12)


@pytest.mark.parametrize("name", [n for n in CASES if "tau" in CASES[n]["inputs"]])
def test_scikit_survival_ipcw(name):
    """concordance_index_ipcw(y, y, risk, tau=tau) keeps the events with t < tau (rankwise:
    t <= tau, so tau just below) and weighs them by 1 / G(t_i)^2, G including the
    censorings at t_i (rankwise: G(t_i-), R's). Where no censoring ties a counted event the
    two agree; where one does, scikit-survival's value is the literal definition with G(t_i)."""
    case = CASES[name]
    t, e, r = arrays(case)
    tau = case["inputs"]["tau"]
    below = float(np.nextafter(tau, -np.inf))
    sk, sk_tau = value(case, "sksurv_ipcw"), value(case, "sksurv_ipcw_tau")
    G_right = ref.censoring_km_literal(t, e, limit="right")
    assert ref.weighted_concordance(t, e, r, weighting="uno", tau=np.nextafter(tau, -np.inf),
                                    censoring_left=G_right)[0] == pytest.approx(sk_tau, rel=1e-10)
    assert ref.weighted_concordance(t, e, r, weighting="uno", censoring_left=G_right)[0] == pytest.approx(
        sk, rel=1e-10)
    if not censoring_ties_an_event(t, e, below):
        assert rw.survival.concordance_index(t, e, r, weighting="uno", tau=below) == pytest.approx(sk_tau, rel=1e-10)
    else:
        assert rw.survival.concordance_index(t, e, r, weighting="uno", tau=below) != pytest.approx(sk_tau, rel=1e-6)
    if not censoring_ties_an_event(t, e):
        assert rw.survival.concordance_index(t, e, r, weighting="uno") == pytest.approx(sk, rel=1e-10)


def test_the_datasets_cover_both_ipcw_cases():
    with_tau = [n for n in CASES if "tau" in CASES[n]["inputs"]]
    tied = [n for n in with_tau if censoring_ties_an_event(*arrays(CASES[n])[:2])]
    assert tied and len(tied) < len(with_tau)


@pytest.mark.parametrize("name", list(CASES))
def test_r_survival(name):
    """R survival's concordance(..., reverse = TRUE, timefix = FALSE): Harrell's and Uno's
    (timewt = 'n/G2'), with ymax = tau, with strata: rankwise's defaults, value and var
    to 1e-10; except Uno's C in a stratum with a single event (below)."""
    case = CASES[name]
    t, e, r = arrays(case)
    x = case["inputs"]
    strata = x.get("strata")
    for key, opts in (("r_harrell", {}), ("r_uno", dict(weighting="uno")),
                      ("r_harrell_tau", dict(tau=x.get("tau"))),
                      ("r_uno_tau", dict(weighting="uno", tau=x.get("tau")))):
        if key not in case["results"]:
            continue
        if name == "strata_one_single_event" and key.startswith("r_uno"):
            continue
        res = case["results"][key]
        est = rw.survival.estimate(t, e, r, strata=strata, **opts)
        assert est.value == pytest.approx(res["value"], rel=1e-10), key
        assert est.std_error ** 2 == pytest.approx(res["var"], rel=1e-9, abs=1e-15), key


@pytest.mark.parametrize("key", ["r_uno", "r_uno_tau"])
def test_r_survival_single_event_stratum_falls_back_to_unit_weights(key):
    """R survival's n/G2 gives unit weights to a stratum with fewer than two events (its
    time weights fall back to 'n'); rankwise weighs that stratum's pairs by 1/G^2 too. R's
    value is the literal definition with that stratum's weights set to 1."""
    case = CASES["strata_one_single_event"]
    t, e, r = arrays(case)
    s = np.array(case["inputs"]["strata"])
    tau = case["inputs"]["tau"] if key.endswith("tau") else None
    num = den = 0.0
    for g in np.unique(s):
        m = s == g
        how = "uno" if e[m].sum() >= 2 else "harrell"
        _, nu, de, _, _ = ref.weighted_concordance(t[m], e[m], r[m], weighting=how, tau=tau)
        num, den = num + nu, den + de
    assert num / den == pytest.approx(value(case, key), rel=1e-12)
    ours = rw.survival.concordance_index(t, e, r, strata=s, weighting="uno", tau=tau)
    assert ours == pytest.approx(ref.weighted_concordance(t, e, r, strata=s, weighting="uno", tau=tau)[0], rel=1e-12)
    assert ours != pytest.approx(value(case, key), rel=1e-6)
