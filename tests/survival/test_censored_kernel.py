"""rankwise._kernels.concordance_counts (the pair counts of Harrell's censored concordance
and each row's derivatives) against the literal pair loop of tests/_support/
reference_survival.py, on both engines, and against R survival 3.5.3's golden values: ties
in time, in risk, an event and a censoring at one time, zero and fractional weights,
strata, one row, no event, no comparable pair."""

import json
import os

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from _support import reference_survival as ref
from rankwise._kernels import concordance_counts
from rankwise._kernels._merge import use_engine

GOLDEN = os.path.join(os.path.dirname(__file__), os.pardir, "golden", "survival_golden.json")
ENGINES = ["numpy"] + (["numba"] if __import__("importlib").util.find_spec("numba") else [])


@st.composite
def samples(draw):
    n = draw(st.integers(1, 24))
    seed = draw(st.integers(0, 2 ** 31))
    rng = np.random.default_rng(seed)
    time = rng.integers(0, draw(st.integers(1, 8)), n).astype(float)
    event = rng.random(n) < draw(st.sampled_from([0.0, 0.4, 0.8, 1.0]))
    risk = rng.integers(0, draw(st.integers(1, 6)), n).astype(float)
    kind = draw(st.sampled_from(["none", "int", "frac"]))
    w = None if kind == "none" else (rng.integers(0, 3, n).astype(float) if kind == "int" else rng.random(n) * 2)
    strata = rng.integers(0, 3, n) if draw(st.booleans()) else None
    return time, event, risk, w, strata


@pytest.mark.parametrize("engine", ENGINES)
@settings(max_examples=60)
@given(samples())
def test_counts_equal_the_pair_loop(engine, sample):
    time, event, risk, w, strata = sample
    _, num, den, dN, dD = ref.harrell(time, event, risk, w, strata)
    with use_engine(engine):
        N, D, dn, dd = concordance_counts(time, event, risk, w, strata)
    assert N == pytest.approx(num, rel=1e-12, abs=1e-12) and D == pytest.approx(den, rel=1e-12, abs=1e-12)
    np.testing.assert_allclose(dn, dN, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(dd, dD, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("engine", ENGINES)
def test_counts_give_r_survival(engine):
    with open(GOLDEN) as fh:
        cases = json.load(fh)["cases"]
    for name, case in cases.items():
        x = case["inputs"]
        t, d, r = np.array(x["time"]), np.array(x["status"], dtype=bool), np.array(x["risk"])
        w = np.array(x["weight"], dtype=float) if case["weighted"] else None
        for key, strata in (("harrell", None), ("strata", np.array(x["strata"]))):
            with use_engine(engine):
                N, D, dn, dd = concordance_counts(t, d, r, w, strata)
            C = N / D
            want = case["results"][key]
            assert C == pytest.approx(want["concordance"], rel=1e-13), (name, key)
            dfbeta = (np.ones_like(t) if w is None else w) * (dn - C * dd) / D
            assert float(np.sum(dfbeta ** 2)) == pytest.approx(want["var"], rel=1e-10), (name, key)
            np.testing.assert_allclose(dfbeta, want["dfbeta"], rtol=1e-9, atol=1e-14)
        cl = np.array(x["cluster"])
        with use_engine(engine):
            N, D, dn, dd = concordance_counts(t, d, r, w)
        dfbeta = (np.ones_like(t) if w is None else w) * (dn - N / D * dd) / D
        grouped = np.bincount(np.unique(cl, return_inverse=True)[1].ravel(), weights=dfbeta)
        assert float(np.sum(grouped ** 2)) == pytest.approx(case["results"]["cluster"]["var"], rel=1e-10), name


def test_no_comparable_pair():
    N, D, dn, dd = concordance_counts(np.array([1.0, 2.0]), np.array([False, False]), np.array([0.0, 1.0]))
    assert (N, D) == (0.0, 0.0) and not dn.any() and not dd.any()
