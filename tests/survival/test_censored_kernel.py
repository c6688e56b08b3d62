"""rankwise._kernels.concordance_counts (the pair counts of Harrell's censored concordance
and each row's derivatives) against the literal pair loop of tests/_support/
reference_survival.py, on both engines, and against R survival 3.5.3's golden values: ties
in time, in risk, an event and a censoring at one time, zero and fractional weights,
strata, one row, no event, no comparable pair. uno_counts (Uno's weights from the kernel's
own censoring Kaplan-Meier, truncation at tau) against the same loop with the literal
curve, on both engines and both trees, and against extended-precision sums at 3 x 10^5
rows. The compiled engine's two-thread route (the sorts side by side, the sweep split at
a (stratum, time) boundary, the second half's tree rebuilt from point values) against the
pair loop on tiny samples and against the one-thread route on larger ones."""

import json
import os

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from _support import reference_survival as ref
from rankwise._kernels import concordance_counts, uno_counts
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
@pytest.mark.parametrize("mode", [1, 2])
@settings(max_examples=40)
@given(options(), st.sampled_from([0.0, 0.3, 0.5, 0.8, 1.0]))
def test_two_threads_equal_the_pair_loop(mode, sample, split):
    # the sweep split wherever a (stratum, time) boundary falls (none: one thread)
    time, event, risk, w, strata, a, tec = sample
    _, num, den, dN, dD = ref.harrell(time, event, risk, w, strata, case_weight=a, tied_event_censored=tec)
    N, D, dn, dd = _compiled_counts(mode, time, event, risk, w, a, strata, tec, threads=2, split=split)
    assert N == pytest.approx(num, rel=1e-12, abs=1e-12) and D == pytest.approx(den, rel=1e-12, abs=1e-12)
    np.testing.assert_allclose(dn, dN, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(dd, dD, rtol=1e-12, atol=1e-12)


@needs_numba
@pytest.mark.parametrize("tied", [False, True])
def test_two_threads_equal_one_on_many_rows(tied):
    # past the threads' threshold: 5 strata (the split inside one of them, the tree
    # emptied between them by walks or at once), blocks of 64 ranks many times over;
    # counts agree to the last bit (integer sums), Uno's and fractional weights to rounding
    from rankwise._kernels import _censored

    rng = np.random.default_rng(17)
    n = _censored.THREADED_FROM + 1234
    time = rng.exponential(size=n)
    risk = rng.normal(size=n)
    if tied:
        time, risk = np.ceil(time * 8), np.round(risk, 2)
    event = rng.random(n) < 0.7
    strata = rng.integers(0, 5, n)
    for s in (None, strata):
        for split in (0.5, 0.37):
            one = _compiled_counts(0, time, event, risk, None, None, s, True, threads=1)
            two = _compiled_counts(0, time, event, risk, None, None, s, True, threads=2, split=split)
            assert one[:2] == two[:2]
            np.testing.assert_array_equal(one[2], two[2])
            np.testing.assert_array_equal(one[3], two[3])
            w = rng.uniform(0.1, 2.0, n)
            for kw in ({"uno": True, "tau": float(np.quantile(time, 0.8))}, {}):
                one = _compiled_counts(0, time, event, risk, w, None, s, False, threads=1, **kw)
                two = _compiled_counts(0, time, event, risk, w, None, s, False, threads=2, split=split, **kw)
                for g, h in zip(one, two):
                    np.testing.assert_allclose(g, h, rtol=1e-13, atol=1e-13 * np.max(np.abs(h)))


@needs_numba
@pytest.mark.parametrize("R", [63, 64, 65, 128, 129, 200])
def test_blocked_tree_at_block_edges(R):
    # R distinct risks around multiples of the tree's block (64 ranks): every rank at a
    # block's first and last place; counts equal the numpy engine's to the last bit
    rng = np.random.default_rng(R)
    n = 6 * R
    risk = rng.permutation(np.repeat(np.arange(R, dtype=float), 6))
    time = rng.permutation(n).astype(float)  # one row per time: the tree, not the dense sums
    event = rng.random(n) < 0.6
    with use_engine("numpy"):
        want = concordance_counts(time, event, risk)
    for threads in (1, 2):
        got = _compiled_counts(1, time, event, risk, None, None, None, True, threads=threads)
        assert got[:2] == want[:2]
        np.testing.assert_array_equal(got[2], want[2])
        np.testing.assert_array_equal(got[3], want[3])


@needs_numba
def test_threads_follow_the_setting(monkeypatch):
    from rankwise._kernels import _censored

    monkeypatch.setattr(_censored, "THREADS", 1)
    assert _censored.threads_for(10 ** 7) == 1
    monkeypatch.setattr(_censored, "THREADS", 2)
    assert _censored.threads_for(10) == 1
    assert _censored.threads_for(10 ** 7) in (1, 2)  # 2 where the process may use two CPUs


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


# --- Uno's weights from the kernel's own sort (uno_counts) -------------------------------------

@st.composite
def uno_options(draw):
    """A sample, a truncation time (None, a data time, or between two) and the tie switch."""
    time, event, risk, w, strata = draw(samples())
    rng = np.random.default_rng(draw(st.integers(0, 2 ** 31)))
    tau = None if draw(st.booleans()) else float(rng.choice(time)) + draw(st.sampled_from([0.0, 0.5]))
    return time, event, risk, w, strata, tau, draw(st.booleans())


def _check_uno(got, sample):
    """``got`` (uno_counts' six values) against the literal pair loop with Uno's weights
    from the literal censoring Kaplan-Meier of each stratum. The derivatives are compared
    on the rows of positive weight (a row of weight 0 gets a = 0 here, 1 in the loop; its
    influence w_k (dN_k - C dD_k) / D is 0 either way)."""
    time, event, risk, w, strata, tau, tec = sample
    N, D, dn, dd, P, z = got
    _, num, den, dN, dD = ref.weighted_concordance(time, event, risk, w, strata, weighting="uno", tau=tau,
                                                   tied_event_censored=tec)
    pairs = ref.weighted_concordance(time, event, risk, w, strata, tau=tau, tied_event_censored=tec)[2]
    assert z == -1  # the sample's own G stays positive at the events that count
    assert P == pytest.approx(pairs, rel=1e-12, abs=1e-12)
    assert N == pytest.approx(num, rel=1e-12, abs=1e-12) and D == pytest.approx(den, rel=1e-12, abs=1e-12)
    pos = np.ones(time.shape[0], dtype=bool) if w is None else w > 0
    np.testing.assert_allclose(dn[pos], dN[pos], rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(dd[pos], dD[pos], rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("engine", ENGINES)
@settings(max_examples=60)
@given(uno_options())
def test_uno_counts_equal_the_pair_loop(engine, sample):
    time, event, risk, w, strata, tau, tec = sample
    with use_engine(engine):
        got = uno_counts(time, event, risk, w, strata, tau=tau, tied_event_censored=tec)
    _check_uno(got, sample)


@needs_numba
@pytest.mark.parametrize("mode", [1, 2])
@settings(max_examples=50)
@given(uno_options())
def test_uno_on_both_trees_of_the_compiled_sweep(mode, sample):
    time, event, risk, w, strata, tau, tec = sample
    _check_uno(_compiled_counts(mode, time, event, risk, w, None, strata, tec, uno=True, tau=tau), sample)


@needs_numba
@pytest.mark.parametrize("mode", [1, 2])
@settings(max_examples=40)
@given(uno_options(), st.sampled_from([0.2, 0.5, 0.7]))
def test_uno_on_two_threads_equals_the_pair_loop(mode, sample, split):
    # the second half's censoring curve and running sums replayed from the stratum's start
    time, event, risk, w, strata, tau, tec = sample
    _check_uno(_compiled_counts(mode, time, event, risk, w, None, strata, tec, uno=True, tau=tau, threads=2,
                                split=split), sample)


@needs_numba
@pytest.mark.parametrize("tied", [False, True])
def test_uno_engines_agree_on_a_few_thousand_rows(tied):
    # the compiled sweep's censoring curve against the numpy twin's blocks: one stratum
    # (cumulative scans) and forty (the doubling scan), weights with zeros, tau, both tie
    # rules, both trees; and against case_weights' curve passed as case weights
    from rankwise.survival import _concordance as conc

    rng = np.random.default_rng(11)
    n = 3000
    time = rng.exponential(size=n)
    risk = rng.normal(size=n)
    if tied:
        time, risk = np.ceil(time * 3), np.round(risk, 1)
    event = rng.random(n) < 0.6
    w = rng.integers(0, 4, n) * 0.5
    tau = float(np.quantile(time, 0.9))
    for strata in (None, rng.integers(0, 40, n)):
        for tec in (True, False):
            for t_ in (None, tau):
                with use_engine("numpy"):
                    want = uno_counts(time, event, risk, w, strata, tau=t_, tied_event_censored=tec)
                    a, pairs = conc.case_weights(time, event, w, strata, "uno", t_, None, "test", tec)
                    via_a = concordance_counts(time, event, risk, w, strata, case_weight=a, tied_event_censored=tec)
                assert want[4] == pytest.approx(pairs, rel=1e-12) and want[5] == -1
                for g, h in zip(want[:4], via_a):
                    np.testing.assert_allclose(g, h, rtol=1e-13, atol=1e-13 * np.abs(h).max())
                for mode in (0, 1, 2):
                    got = _compiled_counts(mode, time, event, risk, w, None, strata, tec, uno=True, tau=t_)
                    assert got[5] == -1 and got[4] == pytest.approx(want[4], rel=1e-12)
                    assert got[0] == pytest.approx(want[0], rel=1e-12) and got[1] == pytest.approx(want[1], rel=1e-12)
                    for g, h in zip(got[2:4], want[2:4]):
                        np.testing.assert_allclose(g, h, rtol=1e-12, atol=1e-12 * np.abs(h).max())


@needs_numba
def test_uno_curve_of_the_sweep_is_censoring_at_rows_to_the_last_bit():
    # counts: the sweep's censoring curve takes the same floating-point steps as
    # censoring_at_rows (integers at risk, the same products in the same order), so the
    # sweep with its own weights and the sweep given 1 / G(t-)^2 agree bit for bit
    from rankwise.survival._km import censoring_at_rows

    rng = np.random.default_rng(5)
    n = 5000
    time = np.ceil(rng.exponential(size=n) * 20)
    event = rng.random(n) < 0.5
    risk = np.round(rng.normal(size=n), 2)
    strata = rng.integers(0, 3, n)
    for s in (None, strata):
        g = censoring_at_rows(time, event, None, s).left
        a = np.zeros(n)
        a[event] = 1.0 / g[event] ** 2
        for mode in (1, 2):
            got = _compiled_counts(mode, time, event, risk, None, None, s, True, uno=True)
            want = _compiled_counts(mode, time, event, risk, None, a, s, True)
            assert got[:2] == want[:2]
            np.testing.assert_array_equal(got[2], want[2])
            np.testing.assert_array_equal(got[3], want[3])


def _uno_exact(time, event, risk):
    """Uno's ``(C, var)`` on tied data (no weights, one stratum) in extended precision:
    every row's counts depend only on its (time, risk, event) cell, so cumulative sums
    over the cells' grid give N, D and each cell's influence (Uno's weights from
    censoring_at_rows, taken as exact)."""
    from rankwise.survival._km import censoring_at_rows

    L = np.longdouble
    g = censoring_at_rows(time, event).left
    ut, ti = np.unique(time, return_inverse=True)
    ur, ri = np.unique(risk, return_inverse=True)
    A = np.zeros(len(ut))
    A[ti[event]] = 1.0 / g[event] ** 2
    A = A.astype(L)[:, None]
    ev, ce = np.zeros((len(ut), len(ur)), dtype=L), np.zeros((len(ut), len(ur)), dtype=L)
    np.add.at(ev, (ti[event], ri[event]), 1)
    np.add.at(ce, (ti[~event], ri[~event]), 1)
    later = np.zeros_like(ev)  # rows of later times
    later[:-1] = np.cumsum((ev + ce)[::-1], axis=0)[::-1][1:]
    part = later + ce  # an event's partners: later rows and the censorings at its time
    dNa = A * (np.cumsum(part, axis=1) - part / 2)
    dDa = A * part.sum(axis=1)[:, None]
    evA = ev * A
    N, D = (ev * dNa).sum(), (ev * dDa).sum()
    C = N / D

    def later_role(earlier):  # a row's partners: the earlier events' w a, above its risk (1/2 at it)
        return np.cumsum(earlier[:, ::-1], axis=1)[:, ::-1] - earlier / 2, earlier.sum(axis=1)[:, None]

    dNb, dDb = later_role(np.cumsum(evA, axis=0) - evA)  # an event: the events of earlier times
    u_event = (dNa + dNb - C * (dDa + dDb)) / D
    dNb, dDb = later_role(np.cumsum(evA, axis=0))  # a censoring: and those at its time
    u_censored = (dNb - C * dDb) / D
    return C, (ev * u_event ** 2).sum() + (ce * u_censored ** 2).sum()


@needs_numba
@pytest.mark.skipif(np.finfo(np.longdouble).eps > 1e-18, reason="no extended precision here")
def test_uno_sums_stay_accurate_on_many_rows():
    # 3 x 10^5 tied rows: the sweep's long sums of case weights (N, D, the earlier events'
    # running weight) are compensated, so C and its variance match the extended-precision
    # cell sums to near the last digit, not to n roundings
    rng = np.random.default_rng(2)
    n = 300_000
    time = np.ceil(rng.exponential(size=n) * 12)
    event = rng.random(n) < 0.65
    risk = np.round(rng.normal(size=n) - 0.3 * time, 1)
    C, var = _uno_exact(time, event, risk)
    N, D, dn, dd, P, z = _compiled_counts(0, time, event, risk, None, None, None, True, uno=True)
    u = (dn - N / D * dd) / D
    assert abs(N / D - float(C)) <= 1e-14 * float(C)
    assert abs(float(np.sum(u ** 2)) - float(var)) <= 1e-12 * float(var)
