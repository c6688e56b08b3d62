"""Probability scores: calibration curve, Brier score, calibration error (against
scikit-learn, computed live, and the literal definitions), the per-bin intervals (against
base R), gain and lift (against a row walk), per-class score distributions."""

from __future__ import annotations

import json
import math
import os
import warnings

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from sklearn.calibration import calibration_curve as sk_calibration_curve
from sklearn.metrics import brier_score_loss

import rankwise as rw
from _support import reference_probability as ref
from _support.strategies import pair_samples

GOLDEN = os.path.join(os.path.dirname(__file__), os.pardir, "golden")

# Probabilities with heavy ties (a grid of tenths, often on the uniform bins' edges), or spread out.
TIED = st.integers(0, 10).map(lambda v: v / 10)
SPREAD = st.integers(0, 64).map(lambda v: v / 64)
FINE = st.floats(0.0, 1.0, allow_nan=False)


@st.composite
def prob_samples(draw, probs=st.one_of(TIED, SPREAD), weights=False, max_n=40, both=False):
    n = draw(st.integers(1, max_n))
    y = draw(st.lists(st.booleans(), min_size=n, max_size=n))
    if both:
        assume(any(y) and not all(y))
    p = draw(st.lists(probs, min_size=n, max_size=n))
    w = None
    if weights:
        w = draw(st.lists(st.sampled_from([0.0, 0.5, 1.0, 2.0, 3.25]), min_size=n, max_size=n))
        assume(sum(w) > 0)
    return y, p, w


def _sk_points(y, p, n_bins, strategy):
    prob_true, prob_pred = sk_calibration_curve(np.asarray(y, dtype=int), np.asarray(p), n_bins=n_bins,
                                                strategy=strategy)
    return prob_true, prob_pred


# --- scikit-learn, computed live ---------------------------------------------------------

@pytest.mark.parametrize("strategy", ["uniform", "quantile"])
@given(sample=st.one_of(prob_samples(), prob_samples(probs=FINE)), n_bins=st.integers(1, 12))
def test_calibration_curve_matches_sklearn(strategy, sample, n_bins):
    y, p, _ = sample
    c = rw.calibration_curve(y, p, n_bins=n_bins, strategy=strategy)
    prob_true, prob_pred = _sk_points(y, p, n_bins, strategy)
    m = c.count > 0
    np.testing.assert_allclose(c.fraction_positive[m], prob_true, rtol=0, atol=1e-9)
    np.testing.assert_allclose(c.mean_predicted[m], prob_pred, rtol=0, atol=1e-9)
    assert c.bin_edges.shape == (n_bins + 1,)
    assert c.count.sum() == len(y)


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("strategy", ["uniform", "quantile"])
def test_calibration_curve_matches_sklearn_on_larger_tied_samples(seed, strategy):
    rng = np.random.default_rng(seed)
    n = 500
    p = np.round(rng.beta(2, 5, n), 2 if seed % 2 else 1)  # many ties, some on the edges
    y = rng.random(n) < p
    labels = np.where(y, "bad", "good")
    c = rw.calibration_curve(labels, p, n_bins=7 + seed, strategy=strategy, pos_label="bad")
    prob_true, prob_pred = sk_calibration_curve(labels, p, n_bins=7 + seed, strategy=strategy, pos_label="bad")
    np.testing.assert_allclose(c.fraction_positive[c.nonempty], prob_true, rtol=0, atol=1e-9)
    np.testing.assert_allclose(c.mean_predicted[c.nonempty], prob_pred, rtol=0, atol=1e-9)
    if strategy == "quantile":
        np.testing.assert_array_equal(c.bin_edges, np.percentile(p, np.linspace(0, 1, 8 + seed) * 100))


@given(sample=st.one_of(prob_samples(weights=True), prob_samples(probs=FINE, weights=True), prob_samples()))
def test_brier_score_matches_sklearn(sample):
    y, p, w = sample
    got = rw.brier_score(y, p, sample_weight=w)
    assert got == pytest.approx(brier_score_loss(np.asarray(y, dtype=int), p, sample_weight=w), abs=1e-12)
    assert got == pytest.approx(ref.brier(y, p, w), abs=1e-12)


def test_brier_score_pos_label_like_sklearn():
    y = ["spam", "ham", "ham", "spam"]
    p = [0.1, 0.9, 0.8, 0.3]
    assert rw.brier_score(y, p, pos_label="ham") == pytest.approx(brier_score_loss(y, p, pos_label="ham"), abs=1e-15)
    assert rw.brier_score(y, p, pos_label="spam") == pytest.approx(brier_score_loss(y, p, pos_label="spam"),
                                                                   abs=1e-15)


# --- literal definitions ---------------------------------------------------------------------

@pytest.mark.parametrize("strategy", ["uniform", "quantile"])
@given(sample=st.one_of(prob_samples(weights=True, max_n=25), prob_samples(max_n=25)), n_bins=st.integers(1, 8))
def test_calibration_curve_matches_the_definition(strategy, sample, n_bins):
    y, p, w = sample
    c = rw.calibration_curve(y, p, n_bins=n_bins, strategy=strategy, sample_weight=w)
    bins, edges = ref.calibration_curve(y, p, n_bins, strategy, w)
    np.testing.assert_array_equal(c.bin_edges, edges)
    if strategy == "quantile" and w is None:  # the edges are the quantiles, to numpy's rounding
        exact = [float(ref.percentile_linear(p, k / n_bins)) for k in range(n_bins + 1)]
        np.testing.assert_allclose(c.bin_edges, exact, rtol=0, atol=1e-12)
    np.testing.assert_allclose(c.mean_predicted, [b[0] for b in bins], rtol=0, atol=1e-12)
    np.testing.assert_allclose(c.fraction_positive, [b[1] for b in bins], rtol=0, atol=1e-12)
    np.testing.assert_allclose(c.count, [b[2] for b in bins], rtol=0, atol=1e-12)
    n_eff = [b[2] ** 2 / b[3] if b[2] > 0 else 0.0 for b in bins]
    np.testing.assert_allclose(c.effective_count, n_eff, rtol=1e-12, atol=0)


@pytest.mark.parametrize("norm", ["l1", "max"])
@pytest.mark.parametrize("strategy", ["uniform", "quantile"])
@given(sample=st.one_of(prob_samples(weights=True, max_n=25), prob_samples(max_n=25)), n_bins=st.integers(1, 8))
def test_calibration_error_matches_the_definition(norm, strategy, sample, n_bins):
    y, p, w = sample
    got = rw.expected_calibration_error(y, p, n_bins=n_bins, strategy=strategy, norm=norm, sample_weight=w)
    assert got == pytest.approx(ref.calibration_error(y, p, n_bins, strategy, w, norm), abs=1e-12)


def test_calibration_error_by_hand():
    # Bins (0, 0.5] and (0.5, 1]: gaps |1/3 - 1/4| (3 rows) and |1 - 0.85| (2 rows).
    y, p = [0, 0, 1, 1, 1], [0.1, 0.3, 0.35, 0.8, 0.9]
    assert rw.expected_calibration_error(y, p, n_bins=2) == pytest.approx(0.6 * (1 / 12) + 0.4 * 0.15, abs=1e-15)
    assert rw.expected_calibration_error(y, p, n_bins=2, norm="max") == pytest.approx(0.15, abs=1e-15)


def test_quantile_edge_rounded_below_a_tie_follows_sklearn():
    # np.percentile puts the 2/3 edge at 0.21875 - 2.8e-17, just below the tied pair at
    # 0.21875, so both libraries put the pair in the top bin with 0.3.
    p = [0.0, 0.0, 0.0, 0.2, 0.3, 14 / 64, 14 / 64]
    y = [0, 1, 0, 1, 1, 0, 1]
    c = rw.calibration_curve(y, p, n_bins=3, strategy="quantile")
    assert c.bin_edges[2] < 14 / 64
    prob_true, prob_pred = _sk_points(y, p, 3, "quantile")
    np.testing.assert_allclose(c.mean_predicted[c.nonempty], prob_pred, rtol=0, atol=1e-15)
    np.testing.assert_allclose(c.fraction_positive[c.nonempty], prob_true, rtol=0, atol=1e-15)
    assert c.count.tolist() == [3.0, 1.0, 3.0]


def test_integer_weights_are_repeated_rows_for_the_points():
    rng = np.random.default_rng(3)
    p = np.round(rng.random(30), 1)
    y = rng.random(30) < p
    w = rng.integers(1, 4, 30)
    a = rw.calibration_curve(y, p, sample_weight=w, n_bins=5)
    b = rw.calibration_curve(np.repeat(y, w), np.repeat(p, w), n_bins=5)
    np.testing.assert_allclose(a.mean_predicted, b.mean_predicted, rtol=0, atol=1e-12)
    np.testing.assert_allclose(a.fraction_positive, b.fraction_positive, rtol=0, atol=1e-12)
    np.testing.assert_array_equal(a.count, b.count)
    # ... but not for the intervals: a weighted bin's size is its effective size.
    assert (a.effective_count[a.nonempty] < a.count[a.nonempty]).any()
    assert rw.brier_score(y, p, sample_weight=w) == pytest.approx(rw.brier_score(np.repeat(y, w), np.repeat(p, w)))


def test_weights_scale_free():
    rng = np.random.default_rng(4)
    p = rng.random(40)
    y = rng.random(40) < p
    w = rng.random(40)
    for strategy in ("uniform", "quantile"):
        a = rw.calibration_curve(y, p, sample_weight=w, strategy=strategy, n_bins=4)
        b = rw.calibration_curve(y, p, sample_weight=w * 2.0 ** 600, strategy=strategy, n_bins=4)
        np.testing.assert_array_equal(a.bin_edges, b.bin_edges)
        np.testing.assert_allclose(a.fraction_positive, b.fraction_positive, rtol=1e-14)
        np.testing.assert_allclose(a.upper, b.upper, rtol=1e-12)
        np.testing.assert_allclose(b.count, a.count * 2.0 ** 600, rtol=1e-14)


# --- per-bin intervals against base R -------------------------------------------------------

def _binom_cases():
    with open(os.path.join(GOLDEN, "binom_intervals.json")) as fh:
        return json.load(fh)["cases"]


@pytest.mark.parametrize("case", _binom_cases(), ids=lambda c: f"x{c['x']}-n{c['n']}-{c['level']}")
def test_proportion_intervals_match_r(case):
    # From R 4.2.2: prop.test(x, n, conf.level, correct = FALSE)$conf.int (Wilson) and
    # qbeta(c(a, 1 - a), x + 1/2, n - x + 1/2) (Jeffreys); tests/golden/make_binom_intervals.R.
    x, n, level = case["x"], case["n"], case["level"]
    for method in ("wilson", "jeffreys"):
        if method not in case:
            continue
        lo, hi = rw.metrics.proportion_interval(np.array([x / n]), np.array([float(n)]), level, method)
        np.testing.assert_allclose([lo[0], hi[0]], case[method], rtol=0, atol=1e-9)


def test_curve_intervals_are_wilson_of_each_bin():
    y = [0, 0, 1, 1, 1, 0, 1]
    p = [0.1, 0.3, 0.35, 0.8, 0.9, 0.95, 0.45]
    c = rw.calibration_curve(y, p, n_bins=2, confidence_level=0.9)
    # Bin (0, 0.5]: 2 positives of 4; R: prop.test(2, 4, conf.level = 0.9, correct = FALSE)$conf.int.
    lo, hi = rw.metrics.proportion_interval(np.array([0.5]), np.array([4.0]), 0.9, "wilson")
    assert (c.lower[0], c.upper[0]) == (lo[0], hi[0])
    assert lo[0] == pytest.approx(0.1824001633, abs=1e-10) and hi[0] == pytest.approx(0.8175998367, abs=1e-10)
    j = rw.calibration_curve(y, p, n_bins=2, interval="jeffreys")
    assert j.interval == "jeffreys" and j.lower[1] > 0 and j.upper[1] < 1
    assert np.isnan(rw.calibration_curve([0], [0.05], n_bins=2).lower[1])  # an empty bin


# --- validation --------------------------------------------------------------------------

@pytest.mark.parametrize("func", [rw.calibration_curve, rw.brier_score, rw.expected_calibration_error,
                                  rw.stats.calibration, rw.stats.brier_decomposition])
def test_probabilities_outside_unit_interval_are_refused(func):
    with pytest.raises(ValueError, match=r"^The 'y_prob' argument of \w+ must hold probabilities in \[0, 1\]\. "
                                         r"Got values from -0\.1 to 0\.5 instead; ranking criteria .* need no "
                                         r"probabilities\.$"):
        func([0, 1], [-0.1, 0.5])
    with pytest.raises(ValueError, match="probabilities in"):
        func([0, 1], [0.2, 1.5])
    with pytest.raises(ValueError, match="NaN"):
        func([0, 1], [np.nan, 0.5])
    with pytest.raises(ValueError, match="same length"):
        func([0, 1, 1], [0.2, 0.5])
    with pytest.raises(ValueError, match="negative"):
        func([0, 1], [0.2, 0.5], sample_weight=[1, -1])
    with pytest.raises(ValueError, match="0 for every row"):
        func([0, 1], [0.2, 0.5], sample_weight=[0, 0])
    with pytest.raises(ValueError, match="empty"):
        func([], [])
    with pytest.raises(ValueError, match="two distinct label"):
        func([0, 1, 2], [0.2, 0.5, 0.1])
    with pytest.raises(ValueError, match="pos_label"):
        func(["a", "b"], [0.2, 0.5])


@pytest.mark.parametrize("func", [rw.calibration_curve, rw.expected_calibration_error, rw.stats.calibration,
                                  rw.stats.brier_decomposition])
def test_bad_bins_are_refused(func):
    with pytest.raises(ValueError, match=r"The 'n_bins' parameter of \w+ must be an integer in \[1, inf\)\. Got 0"):
        func([0, 1], [0.2, 0.5], n_bins=0)
    with pytest.raises(TypeError, match="'n_bins'"):
        func([0, 1], [0.2, 0.5], n_bins="3")
    with pytest.raises(ValueError, match=r"The 'strategy' parameter of \w+ must be one of 'uniform', 'quantile'"):
        func([0, 1], [0.2, 0.5], strategy="kmeans")


def test_bad_parameters_are_refused():
    with pytest.raises(ValueError, match="The 'norm' parameter of expected_calibration_error must be one of"):
        rw.expected_calibration_error([0, 1], [0.2, 0.5], norm="l2")
    with pytest.raises(ValueError, match="The 'interval' parameter of calibration_curve must be one of"):
        rw.calibration_curve([0, 1], [0.2, 0.5], interval="wald")
    with pytest.raises(ValueError, match=r"The 'confidence_level' parameter of calibration_curve must be a float in "
                                         r"\(0, 1\)"):
        rw.calibration_curve([0, 1], [0.2, 0.5], confidence_level=1.0)


def test_one_class_is_defined_as_in_sklearn():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert rw.brier_score([0, 0], [0.2, 0.4]) == pytest.approx(brier_score_loss([0, 0], [0.2, 0.4]))
        assert rw.expected_calibration_error([1, 1], [0.2, 0.4], n_bins=1) == pytest.approx(0.7)
        c = rw.calibration_curve([0, 0], [0.2, 0.4], n_bins=2)
        assert c.fraction_positive[0] == 0.0


# --- gain and lift -----------------------------------------------------------------------

GAIN_SAMPLES = st.one_of(pair_samples(scores=st.integers(-3, 3), max_n=30),
                         pair_samples(scores=st.integers(-40, 40).map(lambda v: v / 8), max_n=30))


@given(GAIN_SAMPLES)
def test_gain_curve_matches_the_row_walk(sample):
    y, s, w = sample
    c = rw.gain_curve(y, s, sample_weight=w)
    pts = ref.gain_points(y, s, w)
    np.testing.assert_allclose(c.fraction_targeted, [q[0] for q in pts], rtol=0, atol=1e-12)
    np.testing.assert_allclose(c.fraction_captured, [q[1] for q in pts], rtol=0, atol=1e-12)
    np.testing.assert_array_equal(c.thresholds, [q[2] for q in pts])
    assert c.fraction_targeted[-1] == pytest.approx(1.0) and c.fraction_captured[-1] == pytest.approx(1.0)


@given(GAIN_SAMPLES)
def test_lift_curve_is_gain_over_targeted(sample):
    y, s, w = sample
    lift = rw.lift_curve(y, s, sample_weight=w)
    pts = ref.gain_points(y, s, w)[1:]
    wv = np.ones(len(y)) if w is None else np.asarray(w)
    base = wv[np.asarray(y)].sum() / wv.sum()
    # lift = precision among the targeted / base rate
    expected = []
    for _, _, v in pts:
        sel = np.asarray(s) >= v
        expected.append(wv[sel & np.asarray(y)].sum() / wv[sel].sum() / base)
    np.testing.assert_allclose(lift.lift, expected, rtol=1e-12)
    np.testing.assert_allclose(lift.fraction_targeted, [q[0] for q in pts], rtol=0, atol=1e-12)


@given(GAIN_SAMPLES, st.integers(0, 20))
def test_gain_and_lift_at_a_fraction_match_partial_targeting(sample, k):
    y, s, w = sample
    f = k / 20
    assert rw.gain_at(y, s, f, sample_weight=w) == pytest.approx(ref.gain_at(y, s, f, w), abs=1e-12)
    if f > 0:
        assert rw.lift_at(y, s, f, sample_weight=w) == pytest.approx(ref.gain_at(y, s, f, w) / f, abs=1e-11)


def test_gain_with_text_labels_and_pandas():
    pd = pytest.importorskip("pandas")

    y = pd.Series(["bad", "good", "bad", "good", "good"])
    s = pd.Series([0.9, 0.8, 0.8, 0.1, 0.3])
    c = rw.gain_curve(y, s, pos_label="bad")
    np.testing.assert_allclose(c.fraction_captured, [0.0, 0.5, 1.0, 1.0, 1.0])
    np.testing.assert_allclose(c.fraction_targeted, [0.0, 0.2, 0.6, 0.8, 1.0])
    with pytest.raises(ValueError, match="pos_label"):
        rw.gain_curve(y, s)


def test_gain_reuses_the_roc_points():
    rng = np.random.default_rng(5)
    s = rng.integers(0, 20, 300)
    y = rng.random(300) < 0.3
    g = rw.gain_curve(y, s)
    r = rw.roc_curve(y, s)
    np.testing.assert_array_equal(g.thresholds, r.thresholds)
    np.testing.assert_allclose(g.fraction_captured, r.tpr, rtol=0, atol=1e-15)
    base = y.mean()
    np.testing.assert_allclose(g.fraction_targeted, base * r.tpr + (1 - base) * r.fpr, rtol=0, atol=1e-14)


def test_gain_without_positives_warns():
    with pytest.warns(rw.UndefinedMetricWarning, match="no positive"):
        c = rw.gain_curve([0, 0], [0.2, 0.4])
    assert np.isnan(c.fraction_captured).all()
    with pytest.warns(rw.UndefinedMetricWarning):
        assert math.isnan(rw.lift_at([0, 0], [0.2, 0.4], 0.5))
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # only positives: the gain is the diagonal, the lift is 1
        np.testing.assert_allclose(rw.lift_curve([1, 1], [0.2, 0.4]).lift, [1.0, 1.0])


def test_gain_at_bad_fraction():
    with pytest.raises(ValueError, match=r"The 'fraction' parameter of gain_at must be a float in \[0, 1\]"):
        rw.gain_at([0, 1], [0.2, 0.4], 1.5)
    with pytest.raises(ValueError, match=r"The 'fraction' parameter of lift_at must be a float in \(0, 1\]"):
        rw.lift_at([0, 1], [0.2, 0.4], 0.0)


# --- per-class score distributions ------------------------------------------------------

@given(pair_samples(scores=st.integers(-5, 5).map(float), max_n=30), st.integers(1, 6))
def test_score_distributions_match_per_class_histograms(sample, bins):
    y, s, w = sample
    y, s = np.asarray(y), np.asarray(s)
    wv = np.ones(len(y)) if w is None else np.asarray(w)
    d = rw.score_distributions(y, s, bins=bins, sample_weight=w)
    live = wv > 0
    edges = np.histogram_bin_edges(s[live], bins=bins)
    np.testing.assert_allclose(d.bin_edges, edges, rtol=0, atol=1e-12)
    np.testing.assert_allclose(d.count_positive, np.histogram(s[y], edges, weights=wv[y])[0], rtol=0, atol=1e-12)
    np.testing.assert_allclose(d.count_negative, np.histogram(s[~y], edges, weights=wv[~y])[0], rtol=0, atol=1e-12)
    np.testing.assert_allclose((d.density_positive * np.diff(edges)).sum(), 1.0, rtol=1e-12)
    np.testing.assert_allclose((d.density_negative * np.diff(edges)).sum(), 1.0, rtol=1e-12)
    for q, qp, qn in zip(d.quantile_levels, d.quantile_positive, d.quantile_negative):
        wp = None if w is None else list(wv[y])
        wn = None if w is None else list(wv[~y])
        assert qp == pytest.approx(ref.class_quantiles(list(s[y]), wp, q), abs=1e-12)
        assert qn == pytest.approx(ref.class_quantiles(list(s[~y]), wn, q), abs=1e-12)
    assert d.ks_statistic == pytest.approx(rw.ks_statistic(y, s, sample_weight=w), abs=1e-12)
    # The threshold reaches the statistic: |TPR - FPR| with rows >= threshold called positive.
    sel = s >= d.ks_threshold
    gap = abs(wv[sel & y].sum() / wv[y].sum() - wv[sel & ~y].sum() / wv[~y].sum())
    assert gap == pytest.approx(d.ks_statistic, abs=1e-12)


def test_score_distributions_unweighted_quantiles_are_numpys():
    rng = np.random.default_rng(6)
    s = rng.normal(size=101)
    y = rng.random(101) < 0.4
    d = rw.score_distributions(y, s, quantiles=[0.1, 0.5, 0.9])
    np.testing.assert_allclose(d.quantile_positive, np.quantile(s[y], [0.1, 0.5, 0.9]), rtol=0, atol=1e-15)
    np.testing.assert_allclose(d.quantile_negative, np.quantile(s[~y], [0.1, 0.5, 0.9]), rtol=0, atol=1e-15)


def test_score_distributions_edges_and_bad_input():
    d = rw.score_distributions([0, 1, 1], [0.1, 0.5, 0.9], bins=[0.0, 0.5, 1.0])
    np.testing.assert_array_equal(d.count_positive, [0.0, 2.0])  # numpy's bins: [0, 0.5), [0.5, 1]
    with pytest.raises(ValueError, match="increasing"):
        rw.score_distributions([0, 1], [0.1, 0.5], bins=[1.0, 0.0])
    with pytest.raises(ValueError, match="must be an integer in"):
        rw.score_distributions([0, 1], [0.1, 0.5], bins=0)
    with pytest.raises(TypeError, match="'bins'"):
        rw.score_distributions([0, 1], [0.1, 0.5], bins="auto")
    with pytest.raises(ValueError, match="'quantiles'"):
        rw.score_distributions([0, 1], [0.1, 0.5], quantiles=[1.5])
    with pytest.warns(rw.UndefinedMetricWarning):
        d = rw.score_distributions([1, 1], [0.1, 0.5])
    assert math.isnan(d.ks_statistic) and np.isnan(d.quantile_negative).all() and np.isnan(d.density_negative).all()
