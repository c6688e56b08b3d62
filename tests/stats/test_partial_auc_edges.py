"""The partial AUC's analytic standard error at the band's edges.

The negatives' terms are their placements clipped to the reads of the placements at the
band's edges, each read the mean placement over a unit window of negative mass
(``tests/_support/reference_variance.py``, written with plain loops). Checked against that
literal definition on generated samples (ties, weights, both foci, edges on, just off and
between the grid points of the class sizes), against the literal stratified jackknife
where the two coincide, and for continuity in the edge.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rankwise as rw
from _support import reference_variance as rv
from _support.quiet import quiet
from _support.strategies import samples


def _enough(y, w):
    wt = [1.0] * len(y) if w is None else w
    return sum(q for q, t in zip(wt, y) if t) > 1 and sum(q for q, t in zip(wt, y) if not t) > 1


def _close(a, b, tol=1e-9):
    return math.isclose(a, b, rel_tol=tol, abs_tol=tol)


def _edge(y, w, kind, k, shift):
    """An edge near the grid point ``k / m`` of the class whose rows the band's edge moves
    across (the negatives for a false-positive band, the positives for a true-positive
    band), ``m`` that class's mass: on it, 1e-12 below, or half a step past it."""
    wt = [1.0] * len(y) if w is None else w
    m = sum(q for q, t in zip(wt, y) if (t if kind == "tpr" else not t))
    x = min(k, m) / m + {"on": 0.0, "below": -1e-12, "mid": 0.5 / m}[shift]
    return min(max(x, 0.01), 0.99)


@settings(max_examples=50)
@given((samples(weights=True) | samples(min_n=4, max_n=30)).filter(lambda t: _enough(t[0], t[2])),
       st.sampled_from(["fpr", "tpr"]), st.integers(1, 6), st.sampled_from(["on", "below", "mid"]),
       st.sampled_from(["upper", "lower", "both"]))
def test_standard_error_matches_literal_definition(sample, kind, k, shift, which):
    y, s, w = sample
    x = _edge(y, w, kind, k, shift)
    if kind == "fpr":  # the edge moves across negatives: max_fpr, or min_fpr
        band = {"max_fpr": x} if which == "upper" else {"min_fpr": x, "max_fpr": 1.0} if which == "lower" \
            else {"min_fpr": x / 2, "max_fpr": x}
    else:  # across positives: min_tpr (the mirror's upper edge), or max_tpr
        band = {"min_tpr": x} if which == "upper" else {"min_tpr": 0.0, "max_tpr": x} if which == "lower" \
            else {"min_tpr": x / 2, "max_tpr": x}
    e = quiet(rw.stats.estimate, y, s, "partial_auc", sample_weight=w, **band)
    assert _close(e.std_error ** 2, rv.partial_auc_variance(y, s, w, **band))


@settings(max_examples=30)
@given(st.integers(3, 12), st.integers(3, 12), st.integers(0, 10 ** 6), st.booleans(),
       st.sampled_from([(0.0, 0.2), (0.0, 0.5), (0.2, 0.5), (0.25, 0.7), (0.5, 1.0), (0.0, 1 / 3)]))
def test_equals_the_stratified_jackknife(n_pos, n_neg, seed, class_ties, band):
    # Unweighted, no score shared by the two classes: the area is linear in the negatives'
    # placements, and the analytic variance is exactly the delete-one jackknife's.
    rng = np.random.default_rng(seed)
    pos = rng.normal(0.8, 1.0, n_pos)
    neg = rng.normal(0.0, 1.0, n_neg)
    if class_ties:  # ties within each class only
        pos = np.round(pos, 1) + 0.05
        neg = np.round(neg, 1)
    y = [1] * n_pos + [0] * n_neg
    s = pos.tolist() + neg.tolist()
    lo, hi = band
    e = rw.stats.estimate(y, s, "partial_auc", min_fpr=lo, max_fpr=hi)
    assert _close(e.std_error ** 2, rv.partial_auc_jackknife(y, s, min_fpr=lo, max_fpr=hi), 1e-10)


@pytest.mark.parametrize("kind", ["max_fpr", "min_tpr"])
def test_standard_error_is_continuous_in_the_edge(kind):
    rng = np.random.default_rng(5)
    n_pos, n_neg = (40, 10) if kind == "max_fpr" else (10, 40)
    y = np.r_[np.ones(n_pos, int), np.zeros(n_neg, int)]
    s = np.r_[rng.normal(1.0, 1.0, n_pos), rng.normal(0.0, 1.0, n_neg)]
    for x in (0.2, 0.3, 0.8):
        ses = [rw.stats.estimate(y, s, "partial_auc", **{kind: x + d}).std_error for d in (-1e-12, 0.0, 1e-12)]
        assert max(ses) - min(ses) < 1e-9
        # And across a step of the grid the terms move by a bounded amount, not a jump of
        # a whole placement: a tenth of a step moves the SE by well under a tenth of it.
        near = rw.stats.estimate(y, s, "partial_auc", **{kind: x + 0.01}).std_error
        assert abs(near - ses[1]) < 0.1 * ses[1]


def test_whole_band_is_delong():
    rng = np.random.default_rng(2)
    y = rng.random(50) < 0.4
    s = np.round(rng.normal(size=50) + y, 1)
    w = rng.uniform(0.2, 3.0, 50)
    a = rw.stats.estimate(y, s, sample_weight=w)
    for band in ({"max_fpr": 1.0}, {"min_tpr": 0.0, "max_tpr": 1.0}):
        assert rw.stats.estimate(y, s, "partial_auc", sample_weight=w, **band).std_error == pytest.approx(a.std_error)


def test_small_example_by_hand():
    # Negatives 0.9, 0.5, 0.1 have placements 1/3, 2/3, 1 (the positives 1.0, 0.7, 0.3
    # above each); the positives sit at false-positive rates 0, 1/3, 2/3. max_fpr = 1/3:
    # the read at b is the curve's mean height over [1/3 * 2, 1/3 * 2 + 1] of negative
    # mass, 1/3 * 1/3 + 2/3 * 2/3 = 5/9. Negatives' terms 1/3, 5/9, 5/9; positives' -0,
    # -1/3, -1/3.
    y = [1, 1, 1, 0, 0, 0]
    s = [1.0, 0.7, 0.3, 0.9, 0.5, 0.1]
    var_neg = np.var([1 / 3, 5 / 9, 5 / 9], ddof=1) / 3
    var_pos = np.var([0.0, -1 / 3, -1 / 3], ddof=1) / 3
    e = rw.stats.estimate(y, s, "partial_auc", max_fpr=1 / 3)
    assert e.std_error == pytest.approx(math.sqrt(var_neg + var_pos), rel=1e-12)
    assert rv.partial_auc_edge_read(y, s, 1 / 3) == pytest.approx(5 / 9, rel=1e-12)


@pytest.mark.parametrize("band", [{"max_fpr": 0.2}, {"min_fpr": 0.1, "max_fpr": 0.35}, {"min_tpr": 0.8},
                                  {"min_tpr": 0.3, "max_tpr": 0.6}])
def test_score_ranges_agree_with_one_table(band):
    # The range algorithm (large samples, Dask buckets) reads the windows bucket by bucket.
    from rankwise import criteria
    from rankwise.stats import _core

    rng = np.random.default_rng(9)
    pos = np.sort(rng.normal(1.0, 1.0, 700))
    neg = np.sort(np.round(rng.normal(0.0, 1.0, 900), 2))
    unit = criteria.get(("partial_auc", band))
    y = np.r_[np.ones(700, bool), np.zeros(900, bool)]
    want = rw.stats.estimate(y, np.r_[pos, neg], "partial_auc", **band)
    for rows in (37, 150, 2000):
        value, se, _ = _core.fit_by_ranges([unit], pos, neg, None, chunk_rows=rows)[0]
        assert value == pytest.approx(want.value, rel=1e-12)
        assert se == pytest.approx(want.std_error, rel=1e-9)
