"""rankwise.survival._km.fit_censoring_km (the censoring Kaplan-Meier of the IPCW weights)
against a literal product-limit loop over the rows, under both tie conventions, with
weights (zeros included), ties between events and censorings, all-event and all-censored
samples; left/right limits against the literal step function."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rankwise.survival._km import censoring_at_rows, fit_censoring_km


def literal_km(time, event, w, events_first):
    """G just after each distinct time, by walking the sorted distinct times and counting
    the rows one by one (no cumulative sums)."""
    out = []
    g = 1.0
    for s in sorted(set(time)):
        at_risk = sum(w[i] for i in range(len(time)) if time[i] >= s)
        dead = sum(w[i] for i in range(len(time)) if time[i] == s and event[i])
        cens = sum(w[i] for i in range(len(time)) if time[i] == s and not event[i])
        base = at_risk - dead if events_first else at_risk
        if cens > 0:
            g *= 1.0 - cens / base
        out.append(g)
    return np.array(out)


def literal_g(time, event, w, events_first, t, left):
    """G(t-) (left) or G(t): the product of the factors at the censoring times < t (<= t)."""
    g = 1.0
    for s, gs in zip(sorted(set(time)), literal_km(time, event, w, events_first)):
        if s < t or (not left and s == t):
            g = gs
    return g


@st.composite
def samples(draw):
    n = draw(st.integers(1, 20))
    rng = np.random.default_rng(draw(st.integers(0, 2 ** 31)))
    time = rng.integers(0, draw(st.integers(1, 7)), n).astype(float)
    event = rng.random(n) < draw(st.sampled_from([0.0, 0.3, 0.7, 1.0]))
    kind = draw(st.sampled_from(["none", "int", "frac"]))
    w = np.ones(n) if kind == "none" else (rng.integers(0, 3, n).astype(float) if kind == "int"
                                           else rng.random(n) * 2)
    return time, event, w, kind == "none"


@settings(max_examples=60)
@given(samples(), st.booleans())
def test_equals_the_product_limit_loop(sample, events_first):
    time, event, w, unweighted = sample
    km = fit_censoring_km(time, event, None if unweighted else w, events_first=events_first)
    np.testing.assert_array_equal(km.times, np.unique(time))
    np.testing.assert_allclose(km.survival, literal_km(time, event, w, events_first), rtol=1e-12, atol=1e-14)
    for j, s in enumerate(km.times):
        assert km.at_risk[j] == pytest.approx(w[time >= s].sum(), abs=1e-12)
        assert km.censored[j] == pytest.approx(w[(time == s) & ~event].sum(), abs=1e-12)
        assert km.events[j] == pytest.approx(w[(time == s) & event].sum(), abs=1e-12)
    grid = np.concatenate([np.unique(time), np.unique(time) + 0.5, [-1.0]])
    np.testing.assert_allclose(km.left(grid), [literal_g(time, event, w, events_first, g, True) for g in grid],
                               rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(km.right(grid), [literal_g(time, event, w, events_first, g, False) for g in grid],
                               rtol=1e-12, atol=1e-14)


def test_tie_conventions_by_hand():
    # times 1 2 2 2 3 4 4 5, events 1 1 0 0 0 1 0 1; at 2 one event and two censorings tie
    t = [1, 2, 2, 2, 3, 4, 4, 5]
    d = [1, 1, 0, 0, 0, 1, 0, 1]
    # events first: at 2, 7 at risk less the event = 6, two censored: 4/6; at 3: 1 - 1/4;
    # at 4: 3 at risk less one event = 2, one censored: 1/2
    first = fit_censoring_km(t, d)
    np.testing.assert_allclose(first.survival, [1, 2 / 3, 2 / 3 * 3 / 4, 2 / 3 * 3 / 4 / 2, 0.25])
    # everyone with time >= t at risk (R's survfit(Surv(t, 1 - d) ~ 1)): 5/7, 5/7 * 3/4, ... * 2/3
    usual = fit_censoring_km(t, d, events_first=False)
    np.testing.assert_allclose(usual.survival, [1, 5 / 7, 5 / 7 * 3 / 4, 5 / 7 * 3 / 4 * 2 / 3, 5 / 7 / 2])
    # the left limit at the tied time 2 is before any censoring at 2
    assert first.left(2.0) == 1.0 and first.right(2.0) == pytest.approx(2 / 3)
    assert first.left(np.array([[2.0, 3.0]])).shape == (1, 2)


def test_weights_are_frequencies():
    t = np.array([1.0, 2, 2, 3, 5])
    d = np.array([True, False, True, False, True])
    w = np.array([2.0, 1, 3, 2, 1])
    km = fit_censoring_km(t, d, w)
    rep = fit_censoring_km(np.repeat(t, w.astype(int)), np.repeat(d, w.astype(int)))
    np.testing.assert_allclose(km.survival, rep.survival, rtol=1e-14)
    np.testing.assert_allclose(km.at_risk, rep.at_risk)


def test_all_events_and_all_censored():
    assert fit_censoring_km([1, 2, 3], [1, 1, 1]).survival.tolist() == [1.0, 1.0, 1.0]
    km = fit_censoring_km([1, 2, 3], [0, 0, 0])
    np.testing.assert_allclose(km.survival, [2 / 3, 1 / 3, 0.0])
    assert km.left(3.0) == pytest.approx(1 / 3) and km.right(3.0) == 0.0 and km.last_time == 3.0
    with pytest.raises(ValueError, match="one value per row"):
        fit_censoring_km([1, 2], [1, 0, 1])


@settings(max_examples=50)
@given(samples(), st.booleans(), st.booleans())
def test_read_at_the_rows_is_the_curve_per_stratum(sample, stratified, events_first):
    """censoring_at_rows (one sort, strata) equals fit_censoring_km of each stratum read
    with left() at the stratum's own times, and its blocks hold the stratum's counts."""
    time, event, w, unweighted = sample
    s = np.random.default_rng(len(time)).integers(0, 3, len(time)) if stratified else None
    rows = censoring_at_rows(time, event, None if unweighted else w, s, events_first=events_first)
    groups = np.zeros(len(time), dtype=int) if s is None else s
    for g in np.unique(groups):
        m = groups == g
        km = fit_censoring_km(time[m], event[m], w[m], events_first=events_first)
        np.testing.assert_allclose(rows.left[m], km.left(time[m]), rtol=1e-12, atol=1e-14)
        b = rows.strata == g
        np.testing.assert_array_equal(rows.times[b], km.times)
        np.testing.assert_allclose(rows.at_risk[b], km.at_risk, rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(rows.events[b], km.events, atol=1e-12)
        np.testing.assert_allclose(rows.censored[b], km.censored, atol=1e-12)
    assert censoring_at_rows(np.zeros(0), np.zeros(0, dtype=bool)).left.shape == (0,)


@settings(max_examples=40)
@given(st.integers(0, 2 ** 31), st.sampled_from([17, 40, 200]), st.booleans())
def test_many_strata_read_at_the_rows(seed, n_strata, events_first):
    """More than 16 strata: the strata's curves by whole-array doubling steps, each equal
    to fit_censoring_km of the stratum alone (the literal loop's numbers)."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(n_strata, 6 * n_strata))
    time = rng.integers(0, 9, n).astype(float)
    event = rng.random(n) < 0.5
    w = rng.integers(0, 3, n) * rng.random(n)
    s = np.append(np.arange(n_strata), rng.integers(0, n_strata, n - n_strata))  # every stratum present
    rows = censoring_at_rows(time, event, w, s, events_first=events_first)
    for g in range(n_strata):
        m = s == g
        km = fit_censoring_km(time[m], event[m], w[m], events_first=events_first)
        np.testing.assert_allclose(rows.left[m], km.left(time[m]), rtol=1e-12, atol=1e-14)
        np.testing.assert_allclose(rows.at_risk[rows.strata == g], km.at_risk, rtol=1e-12, atol=1e-12)
    for g in (0, n_strata - 1):  # against the literal product-limit loop too
        m = s == g
        want = [literal_g(time[m], event[m], w[m], events_first, v, True) for v in time[m]]
        np.testing.assert_allclose(rows.left[m], want, rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("op", [np.add, np.multiply])
@pytest.mark.parametrize("n_segments", [1, 5, 40])
def test_segmented_scan_restarts_at_each_segment(op, n_segments):
    from rankwise._kernels._censored import _segmented_scan

    rng = np.random.default_rng(n_segments)
    x = rng.uniform(0.5, 1.5, 300)
    first = np.zeros(300, dtype=bool)
    first[0] = True
    first[rng.choice(np.arange(1, 300), n_segments - 1, replace=False)] = True
    starts = np.append(np.flatnonzero(first), 300)
    want = np.concatenate([op.accumulate(x[a:b]) for a, b in zip(starts[:-1], starts[1:])])
    np.testing.assert_allclose(_segmented_scan(x, first, op), want, rtol=1e-13)
