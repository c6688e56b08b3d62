"""Bootstrap intervals of the concordance (issue 30): a resample is the rows' weights times
how often each was drawn, which equals the estimator on the materialised resample; rows are
drawn within strata, whole clusters with ``clusters=``; Uno's censoring curve is refitted
on every resample; BCa acceleration from the infinitesimal jackknife's influences."""

import warnings

import numpy as np
import pytest

import rankwise as rw
from rankwise._validation import check_clusters
from rankwise.survival._bootstrap import influence_acceleration, resample_counts


@pytest.fixture(scope="module")
def data():
    rng = np.random.default_rng(30)
    n = 300
    x = rng.normal(size=n)
    t = rng.exponential(1 / np.exp(x))
    c = rng.exponential(1.0, size=n)
    time = np.round(np.minimum(t, c), 2)  # tied times, events and censorings at one time
    return time, t <= c, np.round(x + rng.normal(size=n), 1), rng.integers(0, 3, n), rng.integers(0, 60, n)


def test_counts_by_unit():
    rng = np.random.default_rng(0)
    c = resample_counts(rng, 50, None, None)
    assert c.sum() == 50 and (c >= 0).all()
    strata = np.repeat([2, 0, 1], [10, 25, 15])
    c = resample_counts(rng, 50, strata, None)
    assert [c[strata == s].sum() for s in (0, 1, 2)] == [25, 15, 10]
    codes = np.arange(50) % 7
    c = resample_counts(rng, 50, None, (codes, 7))
    for g in range(7):
        assert np.unique(c[codes == g]).size == 1  # a cluster is drawn whole
    assert sum(c[codes == g][0] for g in range(7)) == 7


@pytest.mark.parametrize("weighting", ["harrell", "uno"])
def test_a_resample_is_the_materialised_rows(data, weighting):
    time, event, risk, _, _ = data
    counts = resample_counts(np.random.default_rng(4), time.shape[0], None, None)
    idx = np.repeat(np.arange(time.shape[0]), counts.astype(int))
    a = rw.survival.concordance_index(time, event, risk, sample_weight=counts, weighting=weighting)
    b = rw.survival.concordance_index(time[idx], event[idx], risk[idx], weighting=weighting)
    assert a == pytest.approx(b, rel=1e-13)


@pytest.mark.parametrize("weighting", ["harrell", "uno"])
def test_interval_near_the_jackknife(data, weighting):
    time, event, risk, _, _ = data
    e = rw.survival.estimate(time, event, risk, weighting=weighting)
    ci = e.confidence_interval(method="bootstrap", n_resamples=400, random_state=0)
    assert ci.method == "bootstrap" and ci.n_resamples == 400 and ci.kind == "bca"
    assert ci.low < e.value < ci.high
    # the bootstrap's spread and the infinitesimal jackknife's agree roughly at n = 300
    assert 0.7 < ci.std_error / e.std_error < 1.4
    lo, hi = e.confidence_interval()
    assert 0.6 < (ci.high - ci.low) / (hi - lo) < 1.6
    again = e.confidence_interval(method="bootstrap", n_resamples=400, random_state=0)
    assert (again.low, again.high) == (ci.low, ci.high)
    pct = e.confidence_interval(method="bootstrap", kind="percentile", n_resamples=400, random_state=0)
    reps = e.bootstrap_distribution(400, 0)
    assert (pct.low, pct.high) == pytest.approx(tuple(np.quantile(reps, [0.025, 0.975])), abs=1e-12)


def test_strata_and_clusters_resample_their_unit(data):
    time, event, risk, strata, clusters = data
    es = rw.survival.estimate(time, event, risk, strata=strata)
    ec = rw.survival.estimate(time, event, risk, clusters=clusters)
    for e in (es, ec):
        ci = e.confidence_interval(method="bootstrap", n_resamples=200, random_state=1)
        assert ci.low < e.value < ci.high
    # the first resample of each equals the estimator under resample_counts' draws
    rng = np.random.default_rng(7)
    w = resample_counts(rng, time.shape[0], None, check_clusters(clusters, time.shape[0]))
    want = rw.survival.concordance_index(time, event, risk, sample_weight=w)
    assert ec.bootstrap_distribution(2, 7)[0] == pytest.approx(want, rel=1e-13)


def test_acceleration_from_influences():
    u = np.array([0.1, -0.2, 0.05, 0.3])
    assert influence_acceleration(u) == pytest.approx(np.sum(u ** 3) / (6 * np.sum(u ** 2) ** 1.5))
    assert influence_acceleration(np.zeros(3)) == 0.0


def test_bad_arguments_and_undefined(data):
    time, event, risk, _, _ = data
    e = rw.survival.estimate(time, event, risk)
    with pytest.raises(ValueError, match="method"):
        e.confidence_interval(method="jackknife")
    with pytest.raises(ValueError, match="n_resamples"):
        e.confidence_interval(method="bootstrap", n_resamples=0)
    with pytest.raises(ValueError, match="kind"):
        e.confidence_interval(method="bootstrap", kind="normal")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        u = rw.survival.estimate([1.0, 2.0], [0, 0], [0.1, 0.2])
    assert np.isnan(u.confidence_interval(method="bootstrap", n_resamples=10).low)
