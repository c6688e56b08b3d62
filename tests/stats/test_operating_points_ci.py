"""rw.stats.operating_points: the stratified bootstrap intervals (pROC's ci.se, ci.sp,
ci.thresholds conventions).

The resampled operating points are read off rows of level masses over the sample's rank
table (no re-sort); the first tests check that reading against rw.operating_points on the
resampled data itself. Coverage is checked by simulation on a binormal law whose ROC curve
is known. pROC's intervals are not compared number for number: its random draws differ.
"""

import math

import numpy as np
import pytest
from hypothesis import given, strategies as st
from scipy import stats

import rankwise as rw
from rankwise._kernels import build_rank_table, point_of_threshold, read_points
from _support.quiet import quiet
from _support.strategies import samples


@given(samples(max_n=12, weights=True), st.integers(0, 2 ** 32 - 1), st.lists(st.floats(0, 1), min_size=1, max_size=4))
def test_resample_rows_read_like_the_resampled_data(sample, seed, xs):
    """A resample is a row of masses over the sample's levels, with levels of zero mass;
    the points read off it equal those of the resampled observations themselves."""
    y, s, w = sample
    y, s, w = np.array(y), np.array(s), np.array(w)
    t = build_rank_table(y, s, w)
    rng = np.random.default_rng(seed)
    idx = np.r_[rng.choice(np.flatnonzero(y), y.sum()), rng.choice(np.flatnonzero(~y), (~y).sum())]
    lev = np.searchsorted(t.levels, s[idx])
    A = np.bincount(lev, weights=w[idx] * y[idx], minlength=t.size)[None, :]
    B = np.bincount(lev, weights=w[idx] * ~y[idx], minlength=t.size)[None, :]
    q = np.array(xs)
    for by in ("fpr", "tpr"):
        tpr, fpr, prec, _, _ = read_points(A, B, by, q)
        exp = rw.operating_points(y[idx], s[idx], sample_weight=w[idx], **{by: q})
        np.testing.assert_allclose(tpr[0], exp.tpr, atol=1e-12)
        np.testing.assert_allclose(fpr[0], exp.fpr, atol=1e-12)
        np.testing.assert_allclose(prec[0], exp.precision, atol=1e-12)
    thr = np.r_[t.levels, t.levels[0] - 1.0, np.inf]
    tpr, fpr, prec, _, _ = read_points(A, B, "point", point_of_threshold(t.levels, thr))
    exp = rw.operating_points(y[idx], s[idx], sample_weight=w[idx], thresholds=thr)
    np.testing.assert_allclose(tpr[0], exp.tpr, atol=1e-12)
    np.testing.assert_allclose(fpr[0], exp.fpr, atol=1e-12)
    np.testing.assert_allclose(prec[0], exp.precision, atol=1e-12)


def test_point_values_are_those_of_the_metric():
    y = [0, 0, 1, 0, 1, 1, 0, 1]
    s = [0.1, 0.4, 0.35, 0.5, 0.8, 0.9, 0.8, 0.3]
    for kw in ({"fpr": [0.1, 0.25]}, {"tpr": [0.5, 0.6]}, {"thresholds": [0.35, np.inf]}):
        a, b = rw.stats.operating_points(y, s, **kw), rw.operating_points(y, s, **kw)
        for k in ("threshold", "tpr", "fpr", "precision"):
            np.testing.assert_array_equal(getattr(a, k), getattr(b, k))


def test_interval_object_and_determinism():
    rng = np.random.default_rng(3)
    y = np.r_[np.ones(40), np.zeros(60)]
    s = np.r_[rng.normal(1, 1, 40), rng.normal(0, 1, 60)].round(1)  # ties
    op = rw.stats.operating_points(y, s, fpr=[0.1, 0.5])
    ci = op.confidence_interval(0.9, n_resamples=300, random_state=7)
    again = op.confidence_interval(0.9, n_resamples=300, random_state=7)
    np.testing.assert_array_equal(ci.tpr_low, again.tpr_low)
    assert ci.confidence_level == 0.9 and ci.n_resamples == 300 and ci.requested == "fpr"
    np.testing.assert_array_equal(ci.fpr_low, [0.1, 0.5])  # the fixed coordinate
    np.testing.assert_array_equal(ci.fpr_high, [0.1, 0.5])
    assert (ci.tpr_low <= ci.tpr_median).all() and (ci.tpr_median <= ci.tpr_high).all()
    assert (ci.tpr_low < op.tpr).all() and (op.tpr < ci.tpr_high).all()
    wide = op.confidence_interval(0.99, n_resamples=300, random_state=7)
    assert (wide.tpr_high - wide.tpr_low >= ci.tpr_high - ci.tpr_low).all()
    rows = ci.to_rows()
    assert rows[0]["at"] == 0.1 and set(rows[0]) == {"at", "tpr_low", "tpr_high", "fpr_low", "fpr_high",
                                                     "precision_low", "precision_high"}
    assert "stratified bootstrap" in ci.summary() and "<table>" in ci._repr_html_()


def test_precision_undefined_in_every_resample_is_nan():
    op = rw.stats.operating_points([0, 1, 0, 1], [0.1, 0.2, 0.3, 0.4], thresholds=[np.inf, 0.2])
    ci = op.confidence_interval(n_resamples=50, random_state=0)
    assert math.isnan(ci.precision_low[0]) and ci.tpr_high[0] == 0.0
    assert ci.precision_low[1] <= ci.precision_high[1]


def test_weighted_intervals_equal_repetition_in_law():
    """Integer weights resample rows, repeated rows resample copies: different draws, but
    the point values agree exactly and the intervals are of the same size."""
    rng = np.random.default_rng(5)
    y = rng.random(60) < 0.4
    s = rng.normal(size=60) + y
    w = rng.integers(1, 3, size=60)
    a = rw.stats.operating_points(y, s, sample_weight=w, fpr=0.2)
    b = rw.stats.operating_points(np.repeat(y, w), np.repeat(s, w), fpr=0.2)
    assert a.tpr[0] == pytest.approx(b.tpr[0], abs=1e-12)
    ca = a.confidence_interval(n_resamples=400, random_state=1)
    assert ca.tpr_low[0] < a.tpr[0] < ca.tpr_high[0]


def test_one_class_and_bad_parameters():
    with pytest.warns(rw.UndefinedMetricWarning):
        op = rw.stats.operating_points([1, 1], [0.1, 0.2], tpr=0.5)
    assert np.isnan(op.confidence_interval(n_resamples=10).tpr_low).all()
    op = rw.stats.operating_points([0, 1], [0.1, 0.2], tpr=0.5)
    with pytest.raises(ValueError, match="confidence_level"):
        op.confidence_interval(1.5)
    with pytest.raises(ValueError, match="n_resamples"):
        op.confidence_interval(n_resamples=1)


def test_coverage_binormal():
    """Positives N(1, 1), negatives N(0, 1), 100 of each: TPR at FPR x is
    1 - Phi(Phi^-1(1 - x) - 1), FPR at TPR p is 1 - Phi(Phi^-1(1 - p) + 1), and at threshold
    t the rates are 1 - Phi(t - 1), 1 - Phi(t). 300 replications of the 95% interval
    (500 resamples): coverage within 3.5 Monte Carlo standard errors (0.0126) of 0.95; an
    interval with half the right width covers about 68%."""
    rng = np.random.default_rng(20261201)
    mu, n, R = 1.0, 100, 300
    fpr, thr, tpr = np.array([0.1, 0.3]), np.array([0.5, 1.5]), np.array([0.5, 0.8])
    truth = {"fpr": stats.norm.sf(stats.norm.isf(fpr) - mu), "tpr": stats.norm.sf(stats.norm.isf(tpr) + mu),
             "thr_tpr": stats.norm.sf(thr - mu), "thr_fpr": stats.norm.sf(thr)}
    hits = {k: np.zeros(2) for k in truth}
    y = np.r_[np.ones(n), np.zeros(n)]
    for r in range(R):
        s = np.r_[rng.normal(mu, 1, n), rng.normal(0, 1, n)]
        ci = rw.stats.operating_points(y, s, fpr=fpr).confidence_interval(n_resamples=500, random_state=r)
        hits["fpr"] += (ci.tpr_low <= truth["fpr"]) & (truth["fpr"] <= ci.tpr_high)
        ci = rw.stats.operating_points(y, s, tpr=tpr).confidence_interval(n_resamples=500, random_state=r)
        hits["tpr"] += (ci.fpr_low <= truth["tpr"]) & (truth["tpr"] <= ci.fpr_high)
        ci = rw.stats.operating_points(y, s, thresholds=thr).confidence_interval(n_resamples=500, random_state=r)
        hits["thr_tpr"] += (ci.tpr_low <= truth["thr_tpr"]) & (truth["thr_tpr"] <= ci.tpr_high)
        hits["thr_fpr"] += (ci.fpr_low <= truth["thr_fpr"]) & (truth["thr_fpr"] <= ci.fpr_high)
    se = math.sqrt(0.95 * 0.05 / R)
    for k, h in hits.items():
        assert np.all(np.abs(h / R - 0.95) <= 3.5 * se), (k, h / R)


def test_threshold_resamples_follow_the_binomial_law():
    """Unweighted, the resampled true positives at a fixed threshold are Binomial(n+, TPR)
    (and the false positives Binomial(n-, FPR)): the interval ends match the binomial
    quantiles to within one observation (20,000 resamples)."""
    rng = np.random.default_rng(8)
    y = np.r_[np.ones(30, bool), np.zeros(50, bool)]
    s = np.r_[rng.normal(1, 1, 30), rng.normal(0, 1, 50)]
    op = rw.stats.operating_points(y, s, thresholds=[0.0, 0.8, 2.0])
    ci = op.confidence_interval(0.9, n_resamples=20_000, random_state=3)
    for rate, n, lo, hi in ((op.tpr, 30, ci.tpr_low, ci.tpr_high), (op.fpr, 50, ci.fpr_low, ci.fpr_high)):
        exp_lo = stats.binom.ppf(0.05, n, rate) / n
        exp_hi = stats.binom.ppf(0.95, n, rate) / n
        np.testing.assert_allclose(lo, exp_lo, atol=1.0 / n + 1e-12)
        np.testing.assert_allclose(hi, exp_hi, atol=1.0 / n + 1e-12)
