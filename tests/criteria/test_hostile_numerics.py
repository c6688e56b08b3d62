"""Numbers that must not silently go wrong on valid but extreme input.

Each test named ``test_repro_*`` is a reproduction from the adversarial review of
issue 14 (it failed on the code before the fix: a wrong number with no error); the
property tests check every registered criterion at once:

* weight-scale invariance from 1e-300 to 1e300 (for the criteria that are invariant
  under a common scale of the weights; the others read absolute masses and must stay
  finite and agree across entry points);
* integer exactness: integer scores beyond float64's 2^53 (int64, uint64, Python ints
  beyond 64 bits) give the same value as small integers with the same order.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rankwise as rw
from rankwise import criteria
from _support.strategies import samples
from _support.quiet import quiet as _quiet

EXAMPLES = [spec for n in criteria.names() for spec in criteria.unit_class(n).examples]
Y6 = np.array([0, 1, 0, 1, 1, 0])
S6 = np.array([0.1, 0.5, 0.3, 0.9, 0.2, 0.4])
SCALES = [1e-300, 1e-200, 2.0 ** -700, 1e-150, 1e150, 1e200, 1e300]


def _close(a, b, tol=1e-9):
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    return math.isclose(a, b, rel_tol=tol, abs_tol=tol)


def _is_pair(spec):
    return isinstance(criteria.get(spec), criteria.PairCriterion)


def _compute(spec, y, s, w=None):
    if _is_pair(spec):
        return rw.metrics.compute(spec, np.asarray(y, dtype=float), s, w)
    return rw.metrics.compute(spec, y, s, w)


# --- reproductions: p-norm push at large p ---------------------------------------------------

def test_repro_pnorm_push_does_not_underflow_at_p64():
    y = np.r_[np.ones(10 ** 6, int), np.zeros(10, int)]
    s = np.r_[np.arange(1e6), np.full(10, 0.5)]
    # Every negative has exactly one positive below it: height 1/n+ = 1e-6 for all.
    assert math.isclose(rw.pnorm_push(y, s, p=64), 1e-6, rel_tol=1e-12)


@pytest.mark.parametrize("p", [128, 200, 1000])
def test_repro_pnorm_push_large_p_is_not_a_perfect_ranking(p):
    y = np.r_[np.ones(1000, int), np.zeros(10, int)]
    s = np.r_[np.arange(1000.0), np.full(10, 0.5)]
    assert math.isclose(rw.pnorm_push(y, s, p=p), 1e-3, rel_tol=1e-12)
    e = rw.stats.estimate(y, s, "pnorm_push", p=p)
    assert math.isclose(e.value, 1e-3, rel_tol=1e-12)
    # The projection is rescaled too: the standard error is the one at p = 4 (every
    # height equal, so the criterion is the height itself whatever p), not 0 or nan.
    e4 = rw.stats.estimate(y, s, "pnorm_push", p=4)
    assert math.isclose(e.std_error, e4.std_error, rel_tol=1e-9) and e.std_error > 0


def test_pnorm_push_large_p_matches_the_maximum_height():
    # As p grows the normalised p-norm tends to the largest normalised height.
    rng = np.random.default_rng(3)
    y = rng.random(500) < 0.4
    s = rng.normal(size=500) + y
    top = max((s[y] < v).sum() + 0.5 * (s[y] == v).sum() for v in s[~y]) / y.sum()
    v = rw.pnorm_push(y, s, p=5000)
    assert top * (1 / (~y).sum()) ** (1 / 5000) <= v <= top * (1 + 1e-12)


def test_pnorm_push_raw_overflow_warns():
    rng = np.random.default_rng(0)
    y = rng.random(300) < 0.3
    s = rng.normal(size=300) + y
    with pytest.warns(RuntimeWarning, match="exceeds the float64 range"):
        assert math.isinf(rw.pnorm_push(y, s, p=200, normalize=False))


# --- reproductions: the scale of the weights -------------------------------------------------

@pytest.mark.parametrize("c", [1e160, 1e200, 1e-200, 1e-300])
def test_repro_weight_scale(c):
    w = np.full(6, c)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no RuntimeWarning, no UndefinedMetricWarning
        assert math.isclose(rw.auc(Y6, S6, sample_weight=w), 7 / 9, rel_tol=1e-12)
        assert _close(rw.local_auc(Y6, S6, top=0.5, sample_weight=w), rw.local_auc(Y6, S6, top=0.5), 1e-12)
        assert _close(rw.ranking_risk(Y6, S6, sample_weight=w), rw.ranking_risk(Y6, S6), 1e-12)
        e = rw.stats.estimate(Y6, S6, sample_weight=w)
    assert math.isclose(e.value, 7 / 9, rel_tol=1e-12)
    # Frequency weights: the class sizes are the weights' totals, whatever their scale.
    assert math.isclose(e.n_pos, 3 * c, rel_tol=1e-12) and math.isclose(e.n_neg, 3 * c, rel_tol=1e-12)


def test_repro_compare_with_huge_weights():
    rng = np.random.default_rng(0)
    n = 200
    y = rng.integers(0, 2, n)
    a, b = rng.normal(size=n) + y, rng.normal(size=n) + y
    ref = rw.stats.compare(y, [a, b]).pairs[0]
    big = rw.stats.compare(y, [a, b], sample_weight=np.full(n, 1e300)).pairs[0]
    assert math.isclose(big.difference, ref.difference, rel_tol=1e-12)
    # n = 2e302 observations: the standard error shrinks as 1/sqrt(weight), never nan.
    assert math.isclose(big.std_error, ref.std_error * math.sqrt((n / 2 - 1) / (n / 2 * 1e300)), rel_tol=0.02)
    assert math.isfinite(big.statistic)


def test_tiny_frequency_weights_have_no_variance_and_say_so():
    rng = np.random.default_rng(0)
    n = 200
    y = rng.integers(0, 2, n)
    a, b = rng.normal(size=n) + y, rng.normal(size=n) + y
    with pytest.warns(rw.stats.DegenerateIntervalWarning, match="cannot be estimated"):
        c = rw.stats.compare(y, [a, b], sample_weight=np.full(n, 1e-300))
    assert math.isnan(c.pairs[0].p_value) and math.isfinite(c.pairs[0].difference)
    e = rw.stats.estimate(Y6, S6, sample_weight=np.full(6, 1e-200))
    with pytest.warns(rw.stats.DegenerateIntervalWarning, match="cannot be estimated"):
        iv = e.confidence_interval()
    assert (iv.low, iv.high) == (0.0, 1.0)


# --- reproductions: integers beyond 2^53, one positive, phi --------------------------------

def test_repro_python_ints_beyond_64_bits_are_ranked_exactly():
    assert rw.auc([0, 1], [2 ** 64, 2 ** 64 + 1]) == 1.0
    assert rw.auc([0, 1], [2 ** 64 + 1, 2 ** 64]) == 0.0
    assert rw.auc([0, 1, 0], [2 ** 80, 2 ** 80 + 1, 0.5]) == 1.0
    # An int next to a float that cannot hold it: compared exactly, not through float64.
    assert rw.auc([0, 1], [float(2 ** 60), 2 ** 60 + 1]) == 1.0
    assert rw.auc([0, 1], np.array([2 ** 63 + 5, 2 ** 63 + 6], dtype=np.uint64)) == 1.0


def test_repro_one_positive_interval_is_not_a_silent_nan():
    e = rw.stats.estimate([0, 0, 0, 1], [0.1, 0.2, 0.3, 0.4])
    assert e.value == 1.0
    with pytest.warns(rw.stats.DegenerateIntervalWarning, match="at most one observation"):
        iv = e.confidence_interval()
    assert (iv.low, iv.high) == (0.0, 1.0)  # no information on the variance: the whole range


@pytest.mark.parametrize("phi, match", [
    (lambda u: np.where(np.abs(u - 2 / 7) < 1e-12, np.nan, u), "must be finite"),
    (lambda u: np.where(np.abs(u - 5 / 7) < 1e-9, 0.0, u), "nondecreasing"),
    (lambda u: np.where(np.abs(u - 5 / 7) < 1e-9, 1.5, u), r"into \[0, 1\]"),
])
def test_repro_phi_is_checked_at_the_ranks_used(phi, match):
    # The positives of (Y6, S6) sit at ranks 2, 5, 6 of 6: u = 2/7, 5/7, 6/7, none of
    # them on the 2049-point grid phi is first checked on.
    rw.phi.from_callable(phi)  # passes the grid
    with pytest.raises(ValueError, match=match):
        rw.rank_statistic(Y6, S6, phi=phi)
    with pytest.raises(ValueError, match=match):
        rw.stats.estimate(Y6, S6, "rank_statistic", phi=phi)


# --- properties, every criterion -------------------------------------------------------------

@pytest.mark.parametrize("spec", EXAMPLES)
@settings(max_examples=25)
@given(sample=samples(weights=True, max_n=12), c=st.sampled_from(SCALES))
def test_every_criterion_is_exact_at_any_weight_scale(spec, sample, c):
    y, s, w = sample
    w = np.asarray(w)
    unit = criteria.get(spec)
    base = _quiet(_compute, spec, y, s, w)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            scaled = _compute(spec, y, s, w * c)
        except ValueError as exc:
            # DCG without a cut over 1e150 units of frequency weight: refused, by name.
            assert not unit.scale_free and "positions" in str(exc), exc
            return
    named = [x for x in caught if issubclass(x.category, rw.UndefinedMetricWarning)
             or "exceeds the float64 range" in str(x.message)]
    # No numpy "overflow/invalid value encountered": every way out is a stated one.
    assert not [x for x in caught if x not in named and issubclass(x.category, RuntimeWarning)], \
        [str(x.message) for x in caught]
    if getattr(unit, "scale_free", True):
        assert _close(scaled, base, 1e-9), (spec, c, scaled, base)
    else:
        # Absolute masses (DCG positions, rank / (N + 1)): a different number at another
        # scale, but computed, or undefined with a named warning (e.g. min-max scaling
        # when the whole mass fits in one position), and the same through every entry point.
        assert math.isfinite(scaled) or named, (spec, c, scaled)
    if not _is_pair(spec):
        both = _quiet(rw.evaluate, y, s, [spec], sample_weight=w * c)[spec]
        assert _close(both, scaled, 1e-12)
        if unit.has_projection:
            est = _quiet(rw.stats.estimate, y, s, spec, sample_weight=w * c)
            assert _close(est.value, scaled, 1e-12)
            assert not math.isinf(est.std_error)


@pytest.mark.parametrize("spec", EXAMPLES)
@settings(max_examples=25)
@given(sample=samples(weights=False, max_n=12),
       ints=st.lists(st.integers(-3, 3), min_size=12, max_size=12))
def test_every_criterion_is_exact_on_integers_beyond_2_53(spec, sample, ints):
    y, _, _ = sample
    small = np.array(ints[: len(y)], dtype=np.int64)
    want = _quiet(_compute, spec, y, small)
    versions = {
        "int64 near 2^62": small + np.int64(2 ** 62),
        "uint64 near 2^64": (small + 8).astype(np.uint64) + np.uint64(2 ** 64 - 64),
        "python ints beyond 2^64": [2 ** 70 + int(v) for v in small],
        "float64 of the small ints": small.astype(np.float64),
    }
    for what, s in versions.items():
        got = _quiet(_compute, spec, y, s)
        assert _close(got, want, 1e-12), (spec, what, got, want)


# --- large unweighted samples: evaluated range by range ----------------------------------------

RANK_EXAMPLES = [spec for spec in EXAMPLES if not _is_pair(spec)]


@pytest.mark.parametrize("chunk", [1, 2, 5])
@settings(max_examples=40)
@given(sample=samples(weights=False, max_n=25))
def test_range_by_range_evaluation_equals_the_one_table(chunk, sample):
    # rw.evaluate and rw.metrics.compute run unweighted samples above 2 * RANGE_ROWS rows
    # range by range (bounded memory at 10^8 rows); with tiny ranges here every range
    # boundary and tie case is hit, in float64 and float32.
    y, s, _ = sample
    from rankwise._kernels import _ranktable

    s32 = np.asarray(s, dtype=np.float32)
    want = _quiet(rw.evaluate, y, s, RANK_EXAMPLES)
    want32 = {spec: _quiet(rw.metrics.compute, spec, y, s32) for spec in RANK_EXAMPLES}
    with pytest.MonkeyPatch.context() as m:
        m.setattr(_ranktable, "RANGE_ROWS", chunk)
        got = _quiet(rw.evaluate, y, s, RANK_EXAMPLES)
        got32 = {spec: _quiet(rw.metrics.compute, spec, y, s32) for spec in RANK_EXAMPLES}
    for spec in RANK_EXAMPLES:
        assert _close(got[spec], want[spec], 1e-12), (spec, got[spec], want[spec])
        assert _close(got32[spec], want32[spec], 1e-12), (spec, got32[spec], want32[spec])


@pytest.mark.parametrize("chunk", [1, 3])
@settings(max_examples=30)
@given(sample=samples(weights=False, min_n=7, max_n=25))  # the range path: more than 2 * 3 rows
def test_range_by_range_estimates_equal_the_one_table(chunk, sample):
    # stats.iter_estimates (the command line's evaluate) reads large unweighted samples
    # range by range too, the Hajek projection included (two rounds, merged moments).
    y, s, _ = sample
    from rankwise._kernels import _ranktable

    want = [(e.value, e.std_error) for e in _quiet(lambda: list(rw.stats.iter_estimates(y, s, RANK_EXAMPLES)))]
    with pytest.MonkeyPatch.context() as m:
        m.setattr(_ranktable, "RANGE_ROWS", chunk)
        got = _quiet(lambda: list(rw.stats.iter_estimates(y, s, RANK_EXAMPLES)))
        assert got[0]._inference.path == "ranges"  # the range path ran
        boot = _quiet(got[0].confidence_interval, method="bootstrap", n_resamples=50, random_state=0)
    for spec, (v, se), e in zip(RANK_EXAMPLES, want, got):
        assert _close(e.value, v, 1e-12), (spec, e.value, v)
        assert _close(e.std_error, se, 1e-9), (spec, e.std_error, se)
    ref = _quiet(lambda: rw.stats.estimate(y, s, RANK_EXAMPLES[0]).confidence_interval(
        method="bootstrap", n_resamples=50, random_state=0))
    assert (boot.low, boot.high) == (ref.low, ref.high) or math.isnan(ref.low)
