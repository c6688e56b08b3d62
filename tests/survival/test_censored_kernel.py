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


@st.composite
def options(draw):
    """A sample, case weights (None, zeros among them, or Uno-like factors >= 1) and the
    switch for an event and a censoring at one time."""
    time, event, risk, w, strata = draw(samples())
    n = time.shape[0]
    rng = np.random.default_rng(draw(st.integers(0, 2 ** 31)))
    kind = draw(st.sampled_from(["none", "uno", "zeros"]))
    a = None if kind == "none" else 1.0 / rng.uniform(0.1, 1.0, n) ** 2
    if kind == "zeros":
        a[rng.random(n) < 0.4] = 0.0
    return time, event, risk, w, strata, a, draw(st.booleans())


@pytest.mark.parametrize("engine", ENGINES)
@settings(max_examples=60)
@given(options())
def test_case_weights_and_tie_switch_equal_the_pair_loop(engine, sample):
    time, event, risk, w, strata, a, tec = sample
    _, num, den, dN, dD = ref.harrell(time, event, risk, w, strata, case_weight=a, tied_event_censored=tec)
    with use_engine(engine):
        N, D, dn, dd = concordance_counts(time, event, risk, w, strata, case_weight=a, tied_event_censored=tec)
    assert N == pytest.approx(num, rel=1e-12, abs=1e-12) and D == pytest.approx(den, rel=1e-12, abs=1e-12)
    np.testing.assert_allclose(dn, dN, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(dd, dD, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("engine", ENGINES)
def test_tie_switch_on_a_hand_example(engine):
    # times 1, 1, 2; events yes, no, yes; risks 3, 2, 1. Comparable with the tie rule:
    # (0, 1) concordant, (0, 2) concordant; without it only (0, 2).
    t, d, r = np.array([1.0, 1.0, 2.0]), np.array([True, False, True]), np.array([3.0, 2.0, 1.0])
    a = np.array([2.0, 5.0, 7.0])  # only row 0 is ever the earlier row
    with use_engine(engine):
        assert concordance_counts(t, d, r)[:2] == (2.0, 2.0)
        assert concordance_counts(t, d, r, tied_event_censored=False)[:2] == (1.0, 1.0)
        N, D, dn, dd = concordance_counts(t, d, r, case_weight=a, tied_event_censored=False)
    assert (N, D) == (2.0, 2.0)
    np.testing.assert_array_equal(dn, [2.0, 0.0, 2.0])
    np.testing.assert_array_equal(dd, [2.0, 0.0, 2.0])


HAS_NUMBA = "numba" in ENGINES
needs_numba = pytest.mark.skipif(not HAS_NUMBA, reason="numba is not installed")


def _compiled_counts(mode, *args, **kw):
    from rankwise._kernels import _censored, _numba_merge

    return _censored._counts_compiled(_numba_merge, *args, mode=mode, **kw)


@needs_numba
@pytest.mark.parametrize("mode", [1, 2])  # the Fenwick tree, the dense sums rebuilt at each time
@settings(max_examples=50)
@given(options())
def test_both_trees_of_the_compiled_sweep_equal_the_pair_loop(mode, sample):
    time, event, risk, w, strata, a, tec = sample
    _, num, den, dN, dD = ref.harrell(time, event, risk, w, strata, case_weight=a, tied_event_censored=tec)
    N, D, dn, dd = _compiled_counts(mode, time, event, risk, w, a, strata, tec)
    assert N == pytest.approx(num, rel=1e-12, abs=1e-12) and D == pytest.approx(den, rel=1e-12, abs=1e-12)
    np.testing.assert_allclose(dn, dN, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(dd, dD, rtol=1e-12, atol=1e-12)


@needs_numba
@pytest.mark.parametrize("tied", [False, True])
def test_engines_agree_on_a_few_thousand_rows(tied):
    # past the hypothesis sizes: several strata (codes not numbered 0..S-1), weights, case
    # weights, negative and zero risks (-0.0 among them), both tie rules, both trees
    rng = np.random.default_rng(7)
    n = 3000
    time = rng.exponential(size=n)
    risk = rng.normal(size=n)
    if tied:
        time, risk = np.ceil(time * 3), np.round(risk, 1)
        risk[:50] = -0.0
    event = rng.random(n) < 0.6
    w = rng.integers(0, 4, n) * 0.5
    a = 1.0 / rng.uniform(0.2, 1.0, n) ** 2
    strata = rng.choice([3, 11, 40], n) * (10 ** 12 if tied else 1) - 5  # not numbered 0..S-1
    for tec in (True, False):
        with use_engine("numpy"):
            want = concordance_counts(time, event, risk, w, strata, case_weight=a, tied_event_censored=tec)
        for mode in (0, 1, 2):
            got = _compiled_counts(mode, time, event, risk, w, a, strata, tec)
            assert got[0] == pytest.approx(want[0], rel=1e-12) and got[1] == pytest.approx(want[1], rel=1e-12)
            for g, h in zip(got[2:], want[2:]):
                np.testing.assert_allclose(g, h, rtol=1e-12, atol=1e-12 * np.abs(h).max())


@needs_numba
def test_many_small_strata():
    # strata of two rows (the tree emptied between strata, by its walks or at once) and a
    # tail of one large stratum
    rng = np.random.default_rng(3)
    n = 4000
    time, risk = np.ceil(rng.exponential(size=n) * 5), np.round(rng.normal(size=n), 1)
    event = rng.random(n) < 0.7
    strata = np.minimum(np.arange(n) // 2, 1500)
    with use_engine("numpy"):
        want = concordance_counts(time, event, risk, None, strata)
    for mode in (0, 1, 2):
        got = _compiled_counts(mode, time, event, risk, None, None, strata, True)
        assert got[:2] == want[:2]
        np.testing.assert_array_equal(got[2], want[2])
        np.testing.assert_array_equal(got[3], want[3])


def test_no_comparable_pair():
    N, D, dn, dd = concordance_counts(np.array([1.0, 2.0]), np.array([False, False]), np.array([0.0, 1.0]))
    assert (N, D) == (0.0, 0.0) and not dn.any() and not dd.any()
