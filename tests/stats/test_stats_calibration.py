"""rankwise.stats.calibration and brier_decomposition: the decomposition identity (Murphy;
Stephenson, Coelho & Jolliffe), the Brier score's standard error and its coverage, the
calibration error's stratified bootstrap."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import rankwise as rw
from _support import reference_probability as ref
from rankwise.stats import _core

TIED = st.integers(0, 10).map(lambda v: v / 10)
SPREAD = st.integers(0, 64).map(lambda v: v / 64)


@st.composite
def prob_samples(draw, weights=True, max_n=30):
    n = draw(st.integers(2, max_n))
    y = draw(st.lists(st.booleans(), min_size=n, max_size=n))
    p = draw(st.lists(st.one_of(TIED, SPREAD), min_size=n, max_size=n))
    w = None
    if weights and draw(st.booleans()):
        w = draw(st.lists(st.sampled_from([0.0, 0.5, 1.0, 2.0, 3.25]), min_size=n, max_size=n))
        if sum(x > 0 for x in w) < 2:
            w[0], w[1] = 1.0, 2.0
    return y, p, w


# --- the decomposition --------------------------------------------------------------------

@pytest.mark.parametrize("strategy", ["uniform", "quantile"])
@given(sample=prob_samples(), n_bins=st.integers(1, 8))
def test_decomposition_matches_the_definition_and_sums_to_the_brier_score(strategy, sample, n_bins):
    y, p, w = sample
    d = rw.stats.brier_decomposition(y, p, n_bins=n_bins, strategy=strategy, sample_weight=w)
    rel, res, unc, wbv, wbc = ref.decomposition(y, p, n_bins, strategy, w)
    assert d.reliability == pytest.approx(rel, abs=1e-12)
    assert d.resolution == pytest.approx(res, abs=1e-12)
    assert d.uncertainty == pytest.approx(unc, abs=1e-12)
    assert d.within_bin_variance == pytest.approx(wbv, abs=1e-12)
    assert d.within_bin_covariance == pytest.approx(wbc, abs=1e-12)
    assert d.brier_score == pytest.approx(rw.brier_score(y, p, sample_weight=w), abs=1e-12)
    # Stephenson, Coelho & Jolliffe (2008): exact with the two within-bin terms.
    total = d.reliability - d.resolution + d.uncertainty + d.within_bin_variance - d.within_bin_covariance
    assert total == pytest.approx(d.brier_score, abs=1e-12)


@given(st.lists(st.sampled_from([0.0625, 0.25, 0.5, 0.75, 0.9375]), min_size=2, max_size=40),
       st.lists(st.booleans(), min_size=40, max_size=40))
def test_murphy_partition_is_exact_when_a_bin_holds_one_prediction(p, y):
    # Five bins of width 0.2, each prediction in its own bin: the within-bin terms vanish
    # (binary fractions, so a bin's mean prediction is the prediction itself, exactly).
    y = y[: len(p)]
    d = rw.stats.brier_decomposition(y, p, n_bins=5)
    assert d.within_bin_variance == 0.0 and d.within_bin_covariance == 0.0
    assert d.reliability - d.resolution + d.uncertainty == pytest.approx(d.brier_score, abs=1e-14)


def test_murphy_partition_alone_is_not_the_brier_score_when_predictions_vary_in_a_bin():
    rng = np.random.default_rng(1)
    p = rng.random(400)
    y = rng.random(400) < p ** 2  # miscalibrated, so predictions and outcomes co-vary within bins
    d = rw.stats.brier_decomposition(y, p, n_bins=4)
    murphy = d.reliability - d.resolution + d.uncertainty
    assert abs(murphy - d.brier_score) > 1e-3
    assert d.within_bin_variance > 0 and d.within_bin_covariance > 0
    assert murphy + d.within_bin_variance - d.within_bin_covariance == pytest.approx(d.brier_score, abs=1e-14)


# --- the Brier score's standard error and interval ---------------------------------------

@given(prob_samples())
def test_brier_std_error_matches_the_definition(sample):
    y, p, w = sample
    c = rw.stats.calibration(y, p, sample_weight=w)
    assert c.brier_score.value == pytest.approx(ref.brier(y, p, w), abs=1e-12)
    assert c.brier_score.std_error == pytest.approx(ref.brier_std_error(y, p, w), rel=1e-10, abs=1e-15)
    lo, hi = c.brier_score.confidence_interval(0.9)
    z = 1.6448536269514722
    assert lo == pytest.approx(max(c.brier_score.value - z * c.brier_score.std_error, 0.0), abs=1e-12)
    assert hi == pytest.approx(min(c.brier_score.value + z * c.brier_score.std_error, 1.0), abs=1e-12)


def test_brier_interval_by_hand():
    # Squared errors 0.01, 0.01, 0.04, 0.09: mean 0.0375, sd 0.0377492, se = sd / 2.
    c = rw.stats.calibration([0, 1, 1, 0], [0.1, 0.9, 0.8, 0.3], n_bins=2)
    assert c.brier_score.std_error == pytest.approx(np.std([0.01, 0.01, 0.04, 0.09], ddof=1) / 2, rel=1e-12)
    ci = c.brier_score.confidence_interval()
    assert (ci.method, ci.kind) == ("normal", "wald")


def test_brier_interval_of_one_row_is_the_whole_range():
    c = rw.stats.calibration([1], [0.7])
    with pytest.warns(rw.stats.DegenerateIntervalWarning, match="1 row"):
        assert tuple(c.brier_score.confidence_interval()) == (0.0, 1.0)


def test_brier_interval_covers_at_the_nominal_rate():
    # A calibrated law: p ~ Beta(2, 3), y ~ Bernoulli(p). The Brier score's expectation is
    # E[p (1 - p)] = E[p] - E[p^2] = 2/5 - (2 * 3 / (5 * 5 * 6) + (2/5)^2) = 0.2.
    rng = np.random.default_rng(20261201)
    truth = 0.4 - (6 / 150 + 0.16)
    reps, n = 4000, 150
    hits = np.zeros(2)
    for _ in range(reps):
        p = rng.beta(2, 3, n)
        y = rng.random(n) < p
        b = rw.stats.calibration(y, p, n_bins=5).brier_score
        for k, level in enumerate((0.9, 0.95)):
            lo, hi = b.confidence_interval(level)
            hits[k] += lo <= truth <= hi
    rate = hits / reps  # measured: 0.9005 and 0.9485
    for r, level in zip(rate, (0.9, 0.95)):
        mc = np.sqrt(level * (1 - level) / reps)  # 0.0047 and 0.0034
        assert abs(r - level) < 3.5 * mc, rate


# --- the calibration error's bootstrap ------------------------------------------------------

def _literal_resamples(y, p, w, n_resamples, seed, func):
    """The stratified draws made by rankwise's bootstrap, replayed from the same generator,
    and the quantity recomputed from each resample's rows by ``func``."""
    is_pos = np.asarray(y, dtype=bool)
    pa = np.asarray(p, dtype=float)
    sample = _core.Sample(is_pos, pa, None if w is None else np.asarray(w, dtype=float))
    rng = np.random.default_rng(seed)
    L = sample.table.size
    A = _core.ClassDraws(sample)._class(True, rng, n_resamples)
    B = _core.ClassDraws(sample)._class(False, rng, n_resamples)
    levels = sample.table.levels
    out = []
    for r in range(n_resamples):
        yy = [True] * L + [False] * L
        pp = list(levels) * 2
        ww = list(A[r]) + list(B[r])
        out.append(func(yy, pp, ww))
    return np.array(out)


@pytest.mark.parametrize("norm", ["l1", "max"])
@pytest.mark.parametrize("strategy", ["uniform", "quantile"])
@pytest.mark.parametrize("weighted", [False, True])
def test_bootstrap_resamples_are_the_quantity_on_the_resampled_rows(norm, strategy, weighted):
    rng = np.random.default_rng(7)
    n = 60
    p = np.round(rng.random(n), 1)
    y = rng.random(n) < p
    w = rng.choice([0.5, 1.0, 2.0], n) if weighted else None
    c = rw.stats.calibration(y, p, n_bins=4, strategy=strategy, norm=norm, sample_weight=w)
    edges = c.curve.bin_edges

    def ece(yy, pp, ww):
        # The sample's bins, fixed: the resample's rows binned with the sample's edges.
        k = np.searchsorted(edges[1:-1], pp, side="left")
        ww, yy, pp = np.asarray(ww), np.asarray(yy), np.asarray(pp)
        gaps = []
        for b in range(4):
            m = ww[k == b].sum()
            if m > 0:
                gaps.append((m, abs(ww[(k == b) & yy].sum() / m - (ww * pp)[k == b].sum() / m)))
        tot = sum(m for m, _ in gaps)
        return sum(m * g for m, g in gaps) / tot if norm == "l1" else max(g for _, g in gaps)

    got = c.calibration_error.bootstrap_distribution(25, 11)
    np.testing.assert_allclose(got, _literal_resamples(y, p, w, 25, 11, ece), rtol=0, atol=1e-12)
    brier = c.brier_score.bootstrap_distribution(25, 12)
    np.testing.assert_allclose(brier, _literal_resamples(y, p, w, 25, 12, ref.brier), rtol=0, atol=1e-12)


def test_bootstrap_interval_is_the_percentile_interval_and_reproducible():
    rng = np.random.default_rng(8)
    p = rng.random(200)
    y = rng.random(200) < p
    e = rw.stats.calibration(y, p).calibration_error
    assert np.isnan(e.std_error) and e.method == "bootstrap"
    ci = e.confidence_interval(0.9, n_resamples=500, random_state=3)
    reps = e.bootstrap_distribution(500, 3)
    np.testing.assert_allclose([ci.low, ci.high], np.quantile(reps, [0.05, 0.95]), rtol=0, atol=1e-15)
    assert ci.kind == "percentile" and ci.n_resamples == 500
    assert tuple(e.confidence_interval(0.9, n_resamples=500, random_state=3)) == (ci.low, ci.high)
    # The bias: the error of a calibrated score is positive and its bootstrap sits higher still.
    assert e.value > 0 and np.median(reps) > e.value
    with pytest.raises(ValueError, match="The 'method' parameter of confidence_interval must be one of 'bootstrap'"):
        e.confidence_interval(method="normal")


def test_summary_and_one_class():
    c = rw.stats.calibration([0, 1, 1, 0, 1], [0.1, 0.9, 0.8, 0.3, 0.6], n_bins=2)
    text = c.summary()
    assert "brier_score" in text and "expected_calibration_error" in text and "reliability" in text
    assert "(0.500, 1.000]" in text
    assert "bootstrap (percentile, 99)" in c.summary(n_resamples=99, random_state=1)
    assert "bootstrap (percentile, 99)" in c.calibration_error.summary(n_resamples=99)
    assert "<table>" in c._repr_html_()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        one = rw.stats.calibration([0, 0, 0], [0.1, 0.2, 0.4])  # defined with one class, like the Brier score
        lo, hi = one.calibration_error.confidence_interval(n_resamples=50, random_state=0)
    assert one.decomposition.uncertainty == 0.0 and lo <= one.calibration_error.value <= hi
    assert rw.stats.calibration([0, 1], [0.2, 0.7], norm="max").calibration_error.name == "maximum_calibration_error"


def test_bad_parameters():
    with pytest.raises(ValueError, match="The 'norm' parameter of calibration must be one of 'l1', 'max'"):
        rw.stats.calibration([0, 1], [0.2, 0.5], norm="l2")
    c = rw.stats.calibration([0, 1, 1], [0.2, 0.5, 0.9])
    with pytest.raises(ValueError, match="The 'confidence_level' parameter of confidence_interval"):
        c.brier_score.confidence_interval(1.5)
    with pytest.raises(ValueError, match="The 'n_resamples' parameter of bootstrap_distribution"):
        c.calibration_error.confidence_interval(n_resamples=1)


def test_brier_score_is_one_number_everywhere():
    """rw.brier_score, the summary's value and the decomposition's total agree to the bit
    (they differed by one ulp: two summation orders)."""
    rng = np.random.default_rng(11)
    for i in range(60):
        n = int(rng.integers(2, 400))
        y, p = rng.random(n) < 0.3, rng.random(n)
        w = rng.random(n) if i % 2 else None
        a = rw.brier_score(y, p, sample_weight=w)
        assert a == rw.stats.calibration(y, p, sample_weight=w).brier_score.value
        assert a == rw.stats.brier_decomposition(y, p, sample_weight=w).brier_score
