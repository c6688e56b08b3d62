"""rw.det_curve: against a literal definition and against scikit-learn's det_curve,
computed live, with ties, weights (zeros among them), pos_label and drop_intermediate.

Weights are exact binary fractions (``pair_samples``: 0, 0.5, 1, 2, 3.25) so that both
libraries' running sums are exact and "the true positives do not change" means the same
thing in both.
"""

from __future__ import annotations

import inspect
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn import metrics as skm

import rankwise as rw
from _support.strategies import pair_samples

#: scikit-learn's det_curve took its present form (drop_intermediate, the +inf threshold) after
#: 1.6, the oldest version rankwise supports (tested by `make test-min`): the live comparisons
#: need a version that has it; the literal definition is checked on every version.
SKLEARN_DET = "drop_intermediate" in inspect.signature(skm.det_curve).parameters
live = pytest.mark.skipif(not SKLEARN_DET, reason="this scikit-learn's det_curve predates drop_intermediate "
                                                 "and the +inf threshold (scikit-learn < 1.7)")

TIED = st.integers(-3, 3)
SPREAD = st.integers(-40, 40).map(lambda v: v / 8)
SAMPLES = st.one_of(pair_samples(scores=TIED, max_n=30), pair_samples(scores=SPREAD, max_n=30))


def _literal_det(y, s, w=None):
    """The DET curve from its definition: at each threshold (``+inf`` and every score of
    positive weight) the false positive and false negative masses by direct sums; keep
    the thresholds from the last with no false positive to the first with no false
    negative; increasing thresholds."""
    y = np.asarray(y, dtype=bool)
    s = np.asarray(s, dtype=float)
    w = np.ones(len(y)) if w is None else np.asarray(w, dtype=float)
    n_pos, n_neg = w[y].sum(), w[~y].sum()
    cuts = [np.inf] + sorted({float(v) for v, wi in zip(s, w) if wi > 0}, reverse=True)
    fp = [sum(wi for yi, si, wi in zip(y, s, w) if not yi and si >= c) for c in cuts]
    fn = [sum(wi for yi, si, wi in zip(y, s, w) if yi and si < c) for c in cuts]
    first = max(i for i in range(len(cuts)) if fp[i] == 0)
    last = min(i for i in range(len(cuts)) if fn[i] == 0)
    sl = slice(first, last + 1)
    return (np.array(fp[sl][::-1]) / n_neg, np.array(fn[sl][::-1]) / n_pos, np.array(cuts[sl][::-1]))


def _same(c, ref):
    fpr, fnr, thr = ref
    np.testing.assert_array_equal(c.thresholds, thr)
    np.testing.assert_allclose(c.fpr, fpr, rtol=0, atol=1e-12)
    np.testing.assert_allclose(c.fnr, fnr, rtol=0, atol=1e-12)


@settings(max_examples=40)
@given(SAMPLES)
def test_det_curve_is_its_definition(sample):
    y, s, w = sample
    _same(rw.det_curve(y, s, sample_weight=w), _literal_det(y, s, w))


@live
@settings(max_examples=40)
@given(SAMPLES, st.booleans())
def test_det_curve_matches_sklearn(sample, drop):
    y, s, w = sample
    c = rw.det_curve(y, s, sample_weight=w, drop_intermediate=drop)
    _same(c, skm.det_curve(y, s, sample_weight=w, drop_intermediate=drop))


@live
@settings(max_examples=25)
@given(pair_samples(scores=TIED, max_n=30))
def test_det_curve_pos_label_matches_sklearn(sample):
    y, s, w = sample
    labels = np.where(y, "spam", "ham")
    c = rw.det_curve(labels, s, sample_weight=w, pos_label="spam", drop_intermediate=True)
    _same(c, skm.det_curve(labels, s, sample_weight=w, pos_label="spam", drop_intermediate=True))
    # The other class as the positive one: the scores then rank the wrong way round.
    c = rw.det_curve(labels, s, sample_weight=w, pos_label="ham")
    _same(c, skm.det_curve(labels, s, sample_weight=w, pos_label="ham"))


@settings(max_examples=25)
@given(pair_samples(scores=TIED, max_n=30), st.booleans())
def test_det_curve_drop_intermediate_keeps_a_subset_with_the_same_ends(sample, drop):
    y, s, w = sample
    full = rw.det_curve(y, s, sample_weight=w)
    thin = rw.det_curve(y, s, sample_weight=w, drop_intermediate=True)
    assert set(thin.thresholds.tolist()) <= set(full.thresholds.tolist())
    # The false negative rates taken are the same: only points inside horizontal runs go.
    assert set(thin.fnr.tolist()) == set(full.fnr.tolist())


def test_det_curve_is_the_roc_curve_turned_over():
    rng = np.random.default_rng(3)
    y = rng.integers(0, 2, 200)
    s = rng.integers(0, 25, 200) + y * 4.0
    w = rng.choice([0.5, 1.0, 2.0], 200)
    d = rw.det_curve(y, s, sample_weight=w)
    r = rw.roc_curve(y, s, sample_weight=w)
    at = {float(t): (f, 1.0 - p) for t, f, p in zip(r.thresholds, r.fpr, r.tpr)}
    for t, f, m in zip(d.thresholds, d.fpr, d.fnr):
        np.testing.assert_allclose((f, m), at[float(t)], rtol=0, atol=1e-12)


def test_det_curve_example_by_hand():
    # Negatives 0.1, 0.4; positives 0.35, 0.8 (scikit-learn's example).
    c = rw.det_curve([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    assert isinstance(c, rw.DETCurve)
    np.testing.assert_array_equal(c.thresholds, [0.35, 0.4, 0.8])
    np.testing.assert_array_equal(c.fpr, [0.5, 0.5, 0.0])
    np.testing.assert_array_equal(c.fnr, [0.0, 0.5, 0.5])


def test_det_curve_keeps_the_infinite_threshold_when_needed():
    # The top score is a negative: fpr 0 is reached only at +inf (scikit-learn >= 1.7).
    c = rw.det_curve([1, 0], [0.2, 0.9])
    np.testing.assert_array_equal(c.thresholds, [0.2, 0.9, np.inf])
    np.testing.assert_array_equal(c.fpr, [1.0, 1.0, 0.0])
    np.testing.assert_array_equal(c.fnr, [0.0, 1.0, 1.0])


@live
def test_det_curve_zero_weight_scores_are_not_thresholds():
    c = rw.det_curve([0, 1, 0, 1], [1, 2, 3, 4], sample_weight=[1, 1, 0, 1])
    assert 3 not in c.thresholds.tolist()
    _same(c, skm.det_curve([0, 1, 0, 1], [1, 2, 3, 4], sample_weight=[1, 1, 0, 1]))


@pytest.mark.parametrize("y, undefined", [([0, 0, 0, 0], "fnr"), ([1, 1, 1, 1], "fpr")])
def test_det_curve_one_class_warns_and_gives_nan(y, undefined):
    s = [0.3, 0.1, 0.3, 0.8]
    with pytest.warns(rw.UndefinedMetricWarning, match="det_curve is undefined"):
        c = rw.det_curve(y, s)
    assert np.isnan(getattr(c, undefined)).all()
    other = c.fnr if undefined == "fpr" else c.fpr
    # The defined rate at every threshold, +inf included (the absent class trims nothing).
    np.testing.assert_array_equal(c.thresholds, [0.1, 0.3, 0.8, np.inf])
    if undefined == "fnr":
        np.testing.assert_array_equal(other, [1.0, 0.75, 0.25, 0.0])
    else:
        np.testing.assert_array_equal(other, [0.0, 0.25, 0.75, 1.0])
    if SKLEARN_DET:  # scikit-learn raises here.
        with pytest.raises(ValueError, match="Only one class"):
            skm.det_curve(y, s)


def test_det_curve_one_class_by_weight_warns():
    with pytest.warns(rw.UndefinedMetricWarning):
        c = rw.det_curve([0, 1, 0], [1, 2, 3], sample_weight=[1, 0, 1])
    assert np.isnan(c.fnr).all()


def test_det_curve_does_not_modify_inputs():
    y, s, w = np.array([0, 1, 1, 0]), np.array([0.3, 0.2, 0.9, 0.1]), np.array([1.0, 2.0, 0.5, 1.0])
    copies = y.copy(), s.copy(), w.copy()
    rw.det_curve(y, s, sample_weight=w, drop_intermediate=True)
    for a, b in zip((y, s, w), copies):
        np.testing.assert_array_equal(a, b)


@live
def test_det_curve_integer_scores():
    y, s = [0, 1, 1, 0, 1], [3, 5, 3, 1, 9]
    c = rw.det_curve(y, s)
    assert c.thresholds.dtype == np.float64
    _same(c, skm.det_curve(y, s))


@pytest.mark.parametrize("kwargs, exc, match", [
    ({"drop_intermediate": "yes"}, TypeError, "'drop_intermediate' parameter of det_curve must be a bool"),
    ({"sample_weight": [1.0, -1.0, 1.0]}, ValueError, "sample_weight"),
    ({"sample_weight": [1.0, 1.0]}, ValueError, "sample_weight"),
])
def test_det_curve_bad_arguments(kwargs, exc, match):
    with pytest.raises(exc, match=match):
        rw.det_curve([0, 1, 1], [0.1, 0.5, 0.7], **kwargs)


@pytest.mark.parametrize("y, s, exc, match", [
    ([0, 1, 1], [0.1, 0.5], ValueError, "y_score"),
    ([0, 1, 1], [0.1, np.nan, 0.7], ValueError, "y_score"),
    ([0, 1, 2], [0.1, 0.5, 0.7], ValueError, "y_true"),
    ("01", [0.1, 0.5], TypeError, "y_true"),
])
def test_det_curve_bad_input(y, s, exc, match):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(exc, match=match):
            rw.det_curve(y, s)


def test_det_curve_is_exported():
    assert {"det_curve", "DETCurve"} <= set(rw.metrics.__all__) and "det_curve" in rw.__all__
    assert rw.det_curve is rw.metrics.det_curve and rw.DETCurve._fields == ("fpr", "fnr", "thresholds")


@live
def test_det_curve_float32_scores_give_float64_thresholds():
    y, s = [0, 1, 1, 0, 1], np.array([0.1, 0.5, 0.3, 0.2, 0.3], dtype=np.float32)
    c = rw.det_curve(y, s)
    ref = skm.det_curve(y, s)
    assert c.thresholds.dtype == ref[2].dtype == np.float64
    _same(c, ref)
