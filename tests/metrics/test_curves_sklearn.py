"""The curves' ``drop_intermediate`` against scikit-learn: the same points, with heavy ties
and weights.

Weights are drawn from exact binary fractions (``pair_samples``: 0, 0.5, 1, 2, 3.25) so
both libraries' class masses are exact and "equal steps" means the same thing in both;
zero weights check that scores carried only by zero-weight observations are not
thresholds in either.
"""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from sklearn import metrics as skm

import rankwise as rw
from _support.strategies import pair_samples

# Heavy ties (few distinct scores, long runs) and, less often, many distinct scores.
TIED = st.integers(-3, 3)
SPREAD = st.integers(-40, 40).map(lambda v: v / 8)


def _sk_roc(y, s, w):
    return skm.roc_curve(y, s, sample_weight=w, drop_intermediate=True)


@given(st.one_of(pair_samples(scores=TIED, max_n=40), pair_samples(scores=SPREAD, max_n=40)))
def test_roc_curve_drop_intermediate_matches_sklearn(sample):
    y, s, w = sample
    c = rw.roc_curve(y, s, sample_weight=w, drop_intermediate=True)
    fpr, tpr, thr = _sk_roc(y, s, w)
    np.testing.assert_array_equal(c.thresholds, thr)
    np.testing.assert_allclose(c.fpr, fpr, rtol=0, atol=1e-15)
    np.testing.assert_allclose(c.tpr, tpr, rtol=0, atol=1e-15)


@given(pair_samples(scores=TIED, max_n=40))
def test_roc_curve_drop_intermediate_keeps_the_area(sample):
    y, s, w = sample
    full = rw.roc_curve(y, s, sample_weight=w)
    thin = rw.roc_curve(y, s, sample_weight=w, drop_intermediate=True)
    assert set(thin.thresholds) <= set(full.thresholds)
    assert abs(_area(thin) - _area(full)) < 1e-12


def _area(c):
    return float(np.sum(np.diff(c.fpr) * (c.tpr[1:] + c.tpr[:-1]) / 2))

def test_roc_curve_drop_intermediate_tests_counts_not_rates():
    # Seven positives at distinct scores above two negatives: the points at 5/7, 6/7 and
    # 7/7 are on one vertical segment, but 6/7 - 5/7 != 7/7 - 6/7 in floating point.
    y = [0, 0, 1, 1, 1, 1, 1, 1, 1]
    s = [0, 1, 2, 3, 4, 5, 6, 7, 8]
    c = rw.roc_curve(y, s, drop_intermediate=True)
    # skm.roc_curve(y, s) with scikit-learn 1.9.1 (drop_intermediate=True by default):
    #   fpr [0, 0, 0, 1], tpr [0, 1/7, 1, 1], thresholds [inf, 8, 2, 0]
    np.testing.assert_array_equal(c.thresholds, [np.inf, 8, 2, 0])
    np.testing.assert_array_equal(c.fpr, [0, 0, 0, 1])
    np.testing.assert_array_equal(c.tpr, [0, 1 / 7, 1, 1])


def test_roc_curve_drop_intermediate_keeps_the_first_threshold():
    # The first data threshold (8) lies midway between (0, 0) and (0, 2/3) but scikit-learn
    # keeps it: its rule runs over the data thresholds before the +inf point is added.
    y = [0, 1, 1, 1]
    s = [0, 6, 7, 8]
    c = rw.roc_curve(y, s, drop_intermediate=True)
    # skm.roc_curve(y, s) with scikit-learn 1.9.1:
    #   fpr [0, 0, 0, 1], tpr [0, 1/3, 1, 1], thresholds [inf, 8, 6, 0]
    np.testing.assert_array_equal(c.thresholds, [np.inf, 8, 6, 0])
    np.testing.assert_array_equal(c.tpr, [0, 1 / 3, 1, 1])


def test_roc_curve_drop_intermediate_small_curves_are_whole():
    # Two data thresholds or fewer: nothing is dropped (scikit-learn's `fps.shape[0] > 2`).
    c = rw.roc_curve([0, 1, 1], [0, 1, 1], drop_intermediate=True)
    np.testing.assert_array_equal(c.thresholds, [np.inf, 1, 0])


@given(st.one_of(pair_samples(scores=TIED, max_n=40), pair_samples(scores=SPREAD, max_n=40)))
def test_precision_recall_curve_drop_intermediate_matches_sklearn(sample):
    y, s, w = sample
    c = rw.precision_recall_curve(y, s, sample_weight=w, drop_intermediate=True)
    prec, rec, thr = skm.precision_recall_curve(y, s, sample_weight=w, drop_intermediate=True)
    # scikit-learn: increasing threshold, the (recall 0, precision 1) point last and no
    # +inf threshold; rankwise: decreasing threshold from +inf.
    np.testing.assert_array_equal(c.thresholds[1:], thr[::-1])
    np.testing.assert_allclose(c.precision, prec[::-1], rtol=0, atol=1e-15)
    np.testing.assert_allclose(c.recall, rec[::-1], rtol=0, atol=1e-15)
