"""``rw.stats.RankAccumulator`` (exact mode): any split of a sample into batches, in any
order and merged along any tree, gives the rank table of the whole sample, hence
``rw.evaluate``'s criteria, ``rw.stats.estimate``'s values, standard errors and bootstrap,
and the curves; bit for bit without weights, to 1e-12 with them. Then every refusal, the
file format and its refusals. The state is checked against its direct definition (each
class's distinct scores with their counts), the AUC and DeLong's variance against the
literal O(n^2) definitions of tests/_support/reference.py."""

from __future__ import annotations

import hashlib
import json
import math
import os
import struct
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rankwise as rw
from _support import reference as ref
from _support.quiet import quiet
from _support.strategies import samples
from rankwise.stats import RankAccumulator
from rankwise.stats import _accumulator as accmod

CRITERIA = ["auc", "partial_auc:max_fpr=0.3", "partial_auc:max_fpr=0.1,standardize=mcclish", "local_auc:top=0.3",
            "pnorm_push:p=4", "ndcg:k=5", "dcg:k=3", "rank_statistic:phi=pnorm_push,p=4,scale=minmax",
            "average_precision", "ks_statistic", "gini"]
ESTIMATED = ["auc", "local_auc:top=0.3", "pnorm_push:p=4", "partial_auc:max_fpr=0.5", "ndcg:k=5"]


# --- direct definitions ----------------------------------------------------------------------------

def table_by_definition(y, s, w=None):
    """Each class's distinct scores (float64, increasing) with their mass: the state's
    definition, by np.unique on each class (rows of zero weight make no level)."""
    y, s = np.asarray(y, bool), np.asarray(s, np.float64)
    w = np.ones(len(y)) if w is None else np.asarray(w, np.float64)
    out = []
    for c in (False, True):
        sel = (y == c) & (w > 0)
        lev = np.unique(s[sel])
        out.append((lev, np.array([w[sel][s[sel] == v].sum() for v in lev])))
    return out  # [(negatives' levels, masses), (positives' ...)]


def state_of(acc):
    """The accumulator's merged state as ``[(levels, masses)]`` (masses as float64)."""
    arrays = acc._store.arrays()
    out = []
    for c in ("neg", "pos"):
        lev = arrays[f"{c}_levels"]
        m = arrays.get(f"{c}_mass")
        out.append((lev, np.ones(lev.shape[0]) if m is None else m.astype(np.float64)))
    return out


def fill(y, s, w, cuts, order=None):
    """One accumulator per batch (the sample cut at ``cuts``), in ``order``."""
    idx = np.split(np.arange(len(y)), sorted(cuts))
    order = range(len(idx)) if order is None else order
    y, s = np.asarray(y), np.asarray(s)
    w = None if w is None else np.asarray(w)
    return [RankAccumulator().update(y[idx[k]], s[idx[k]], None if w is None else w[idx[k]]) for k in order]


def merge_tree(accs, picks):
    """Merge the accumulators pairwise along a tree chosen by ``picks``."""
    accs = list(accs)
    picks = iter(picks)
    while len(accs) > 1:
        i = next(picks, 0) % len(accs)
        a = accs.pop(i)
        j = next(picks, 0) % len(accs)
        accs[j] = accs[j].merge(a) if next(picks, 0) % 2 else a.merge(accs[j])
    return accs[0]


def same(a, b, exact):
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    if exact:
        return np.array_equal(a, b, equal_nan=True)
    return np.allclose(a, b, rtol=1e-12, atol=1e-14, equal_nan=True)


@st.composite
def batched(draw, weights=False, both_classes=True):
    y, s, w = draw(samples(weights=weights, integer_weights=draw(st.booleans()) if weights else False,
                           both_classes=both_classes))
    n = len(y)
    cuts = draw(st.lists(st.integers(0, n), max_size=5))
    k = len(cuts) + 1
    order = draw(st.permutations(range(k)))
    picks = draw(st.lists(st.integers(0, 10), min_size=3 * k, max_size=3 * k))
    return y, s, w, cuts, order, picks


# --- equality with the whole sample -----------------------------------------------------------------

@settings(max_examples=40)
@given(case=batched(weights=False))
def test_any_split_order_and_merge_tree_gives_the_whole_samples_results_bit_for_bit(case):
    y, s, w, cuts, order, picks = case
    acc = merge_tree(fill(y, s, w, cuts, order), picks)
    got, want = acc.evaluate(CRITERIA), rw.evaluate(y, s, CRITERIA)
    assert all(same(got[k], want[k], True) for k in CRITERIA), (got, want)
    for lev_m, def_m in zip(state_of(acc), table_by_definition(y, s)):
        assert np.array_equal(lev_m[0], def_m[0]) and np.array_equal(lev_m[1], def_m[1])
    for c in ESTIMATED:
        e, r = acc.estimate(c), rw.stats.estimate(y, s, c)
        assert same([e.value, e.std_error, e.n_pos, e.n_neg], [r.value, r.std_error, r.n_pos, r.n_neg], True)
        assert (e.bounds, e.method, e.params) == (r.bounds, r.method, r.params)
    assert acc.compute("auc") == pytest.approx(ref.auc(y, s), rel=1e-12, abs=1e-15)
    if min(sum(y), len(y) - sum(y)) > 1:  # DeLong's variance needs two rows in each class
        assert acc.estimate("auc").std_error ** 2 == pytest.approx(ref.delong_var(y, s), rel=1e-9, abs=1e-15)


@settings(max_examples=40)
@given(case=batched(weights=True))
def test_weighted_batches_agree_with_the_whole_sample_to_rounding(case):
    y, s, w, cuts, order, picks = case
    acc = merge_tree(fill(y, s, w, cuts, order), picks)
    got, want = acc.evaluate(CRITERIA), rw.evaluate(y, s, CRITERIA, sample_weight=w)
    assert all(same(got[k], want[k], False) for k in CRITERIA), (got, want)
    for lev_m, def_m in zip(state_of(acc), table_by_definition(y, s, w)):
        assert np.array_equal(lev_m[0], def_m[0]) and same(lev_m[1], def_m[1], False)
    for c in ESTIMATED[:3]:
        e, r = acc.estimate(c), rw.stats.estimate(y, s, c, sample_weight=w)
        assert same([e.value, e.std_error, e.n_pos, e.n_neg], [r.value, r.std_error, r.n_pos, r.n_neg], False)
        assert e.weighted and r.weighted
    assert acc.compute("auc") == pytest.approx(ref.auc(y, s, w), rel=1e-12, abs=1e-15)


@settings(max_examples=30)
@given(case=batched(weights=False))
def test_the_state_is_the_same_bytes_for_every_order_and_merge_tree(case):
    y, s, w, cuts, order, picks = case
    one = merge_tree(fill(y, s, w, cuts), [0] * 100)
    other = merge_tree(fill(y, s, w, cuts, order), picks)
    assert one.to_bytes() == other.to_bytes()


@settings(max_examples=25)
@given(case=batched(weights=False, both_classes=False))
def test_curves_and_operating_points_equal_the_whole_samples(case):
    y, s, w, cuts, order, picks = case
    acc = merge_tree(fill(y, s, w, cuts, order), picks)
    for drop in (False, True):
        for mine, theirs in ((quiet(acc.roc_curve, drop_intermediate=drop),
                              quiet(rw.roc_curve, y, s, drop_intermediate=drop)),
                             (quiet(acc.precision_recall_curve, drop_intermediate=drop),
                              quiet(rw.precision_recall_curve, y, s, drop_intermediate=drop))):
            assert all(same(a, b, True) for a, b in zip(mine, theirs))
    for kw in ({"fpr": [0.0, 0.1, 0.5, 1.0]}, {"tpr": [0.25, 0.9]}, {"thresholds": [-1.0, 0.0, 2.5]}):
        a, b = quiet(acc.operating_points, **kw), quiet(rw.operating_points, y, s, **kw)
        assert all(same(getattr(a, f), getattr(b, f), True) for f in ("threshold", "tpr", "fpr", "precision"))
        assert (a.n_positive, a.n_negative) == (b.n_positive, b.n_negative)


def test_weighted_curves_equal_the_whole_samples():
    rng = np.random.default_rng(3)
    y = rng.random(40) < 0.4
    s = rng.integers(0, 6, 40) / 4
    w = rng.integers(0, 4, 40) * 0.75
    acc = fill(y, s, w, [7, 22])
    acc = acc[0].merge(acc[1]).merge(acc[2])
    for mine, theirs in ((acc.roc_curve(), rw.roc_curve(y, s, sample_weight=w)),
                         (acc.precision_recall_curve(), rw.precision_recall_curve(y, s, sample_weight=w))):
        assert all(same(a, b, False) for a, b in zip(mine, theirs))
    a, b = acc.operating_points(fpr=[0.2, 0.6]), rw.operating_points(y, s, fpr=[0.2, 0.6], sample_weight=w)
    assert same(a.tpr, b.tpr, False) and same(a.threshold, b.threshold, True)


@pytest.mark.parametrize("c", ["auc", "local_auc:top=0.3", "pnorm_push:p=4"])
def test_the_bootstrap_draws_the_whole_samples_resamples(c):
    rng = np.random.default_rng(5)
    y = rng.random(60) < 0.5
    s = rng.integers(0, 9, 60).astype(float)
    acc = merge_tree(fill(y, s, None, [10, 30, 31]), [1, 2, 3, 4, 5, 6, 7, 8, 9])
    e, r = acc.estimate(c), rw.stats.estimate(y, s, c)
    assert np.array_equal(e.bootstrap_distribution(200, 7), r.bootstrap_distribution(200, 7))
    for kind in ("bca", "percentile"):
        assert e.confidence_interval(method="bootstrap", kind=kind, n_resamples=200, random_state=7) == \
            r.confidence_interval(method="bootstrap", kind=kind, n_resamples=200, random_state=7)


def test_estimate_takes_the_criterions_arguments_method_and_bandwidth():
    rng = np.random.default_rng(1)
    y = rng.random(50) < 0.5
    s = rng.normal(size=50) + y
    acc = RankAccumulator().update(y[:20], s[:20]).update(y[20:], s[20:])
    e = acc.estimate("local_auc", top=0.2, bandwidth=0.3)
    r = rw.stats.estimate(y, s, "local_auc", top=0.2, bandwidth=0.3)
    assert (e.value, e.std_error, e.params) == (r.value, r.std_error, r.params)
    e, r = acc.estimate("auc", method="hajek"), rw.stats.estimate(y, s, "auc", method="hajek")
    assert (e.method, e.std_error) == (r.method, r.std_error)
    assert e.confidence_interval(transform="logit") == r.confidence_interval(transform="logit")
    with pytest.raises(TypeError, match="'top'"):
        acc.estimate("auc", top=3)
    with pytest.raises(ValueError, match="method"):
        acc.estimate("auc", method="bootstrapped")
    with pytest.raises(ValueError, match="bandwidth"):
        acc.estimate("local_auc:top=0.2", bandwidth=2.0)


@pytest.mark.parametrize("ties", ["untied", "few", "heavy"])
def test_large_samples_read_range_by_range_as_rankwise_does(ties):
    # Above 2 * RANGE_ROWS rows (here 2 * 8) rankwise reads the sample range by range; the
    # accumulator takes the same path on the class runs (its levels, or the levels repeated
    # when there are at most two rows per level), bit for bit; with heavier ties it reads
    # its one table, equal to rounding.
    from rankwise._kernels import _ranktable

    rng = np.random.default_rng(2)
    n = 300
    y = rng.random(n) < 0.4
    s = {"untied": rng.normal(size=n), "few": np.round(rng.normal(size=n), 2),
         "heavy": rng.integers(-20, 20, n).astype(float)}[ties]
    exact = ties != "heavy"
    if ties == "few":
        assert len(np.unique(s)) * 2 >= n > len(np.unique(s))
    with pytest.MonkeyPatch.context() as m:
        m.setattr(_ranktable, "RANGE_ROWS", 8)
        acc = merge_tree(fill(y, s, None, [50, 51, 170]), [3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8])
        got, want = acc.evaluate(CRITERIA), rw.evaluate(y, s, CRITERIA)
        assert all(same(got[k], want[k], exact) for k in CRITERIA), (got, want)
        for c in ESTIMATED:
            e, r = acc.estimate(c), rw.stats.estimate(y, s, c)
            assert same([e.value, e.std_error], [r.value, r.std_error], exact), c
        e, r = acc.estimate("pnorm_push:p=4"), rw.stats.estimate(y, s, "pnorm_push:p=4")
        assert np.array_equal(e.bootstrap_distribution(30, 1), r.bootstrap_distribution(30, 1))


def test_score_dtypes_float32_integers_and_booleans():
    rng = np.random.default_rng(4)
    y = rng.random(80) < 0.5
    for s in (rng.normal(size=80).astype(np.float32), rng.integers(-2 ** 53, 2 ** 53, 80, dtype=np.int64),
              rng.integers(0, 5, 80).astype(np.uint8), rng.random(80) < 0.5,
              rng.integers(0, 4, 80).astype(np.float16)):
        acc = RankAccumulator().update(y[:33], s[:33]).update(y[33:], s[33:])
        assert acc.evaluate(CRITERIA) == rw.evaluate(y, s, CRITERIA)
        e, r = acc.estimate(), rw.stats.estimate(y, s)
        assert (e.value, e.std_error) == (r.value, r.std_error)
        assert same(acc.roc_curve().thresholds, rw.roc_curve(y, s).thresholds, True)


def test_label_forms_and_pos_label():
    y01 = np.array([0, 1, 1, 0, 1, 0])
    s = [0.1, 0.4, 0.35, 0.8, 0.9, 0.2]
    want = rw.auc(y01, s)
    for y, kw in ((y01 * 2 - 1, {}), (y01.astype(bool), {}), (y01.astype(float), {}),
                  (np.where(y01 == 1, "spam", "ham"), {"pos_label": "spam"}),
                  (np.where(y01 == 1, 7, 3), {"pos_label": 7}), (y01, {"pos_label": 1})):
        acc = RankAccumulator(**kw).update(y[:2], s[:2]).update(y[2:], s[2:])
        assert acc.compute("auc") == want
        assert acc.labels == tuple(np.unique(y).tolist())
    acc = RankAccumulator(pos_label=0).update(y01, s)
    assert acc.compute("auc") == rw.auc(y01, s, pos_label=0)
    assert acc.pos_label == 0 and RankAccumulator().pos_label is None
    # one class per batch: labels {0, 1}, {-1, 1} or booleans need no pos_label
    acc = RankAccumulator().update([False, False], [0.1, 0.2]).update([1], [0.15]).update([True], [0.3])
    assert acc.compute("auc") == rw.auc([0, 0, 1, 1], [0.1, 0.2, 0.15, 0.3])
    acc = RankAccumulator(pos_label="b").update(["a"], [1.0]).update(["b", "b"], [0.0, 2.0])
    assert acc.compute("auc") == 0.5 and acc.labels == ("a", "b")


def test_ties_within_and_across_batches_tiny_batches_and_one_class_batches():
    y = [1, 0, 0, 1, 1, 0, 0, 1, 0]
    s = [0.5, 0.5, 0.5, 0.2, 0.5, 0.2, 0.9, 0.9, 0.5]
    acc = RankAccumulator()
    for i in range(len(y)):  # one row a batch
        acc.update(y[i:i + 1], s[i:i + 1])
    assert acc.evaluate(CRITERIA) == rw.evaluate(y, s, CRITERIA)
    assert acc.n_rows == len(acc) == 9 and acc.n_levels == 3 and acc.n_batches == 9
    assert (acc.n_pos, acc.n_neg) == (4.0, 5.0)


def test_one_class_is_undefined_as_in_rankwise():
    acc = RankAccumulator().update([1, 1], [0.1, 0.2]).update([1], [0.3])
    with pytest.warns(rw.UndefinedMetricWarning):
        assert math.isnan(acc.compute("auc"))
    with pytest.warns(rw.UndefinedMetricWarning):
        assert all(math.isnan(v) for v in acc.evaluate(["auc", "ndcg:k=2"]).values())
    with pytest.warns(rw.UndefinedMetricWarning):
        e = acc.estimate("auc")
    r = quiet(rw.stats.estimate, [1, 1, 1], [0.1, 0.2, 0.3])
    assert math.isnan(e.value) and math.isnan(r.value) and e.bounds == r.bounds
    with pytest.warns(rw.UndefinedMetricWarning):
        lo, v, hi = acc.auc_bounds()
    assert math.isnan(lo) and math.isnan(v) and math.isnan(hi)
    # zero total weight in a class is undefined too
    acc = RankAccumulator().update([0, 1], [0.1, 0.2], [1.0, 0.0])
    with pytest.warns(rw.UndefinedMetricWarning):
        assert math.isnan(acc.compute("auc"))


def test_weighted_and_unweighted_batches_mix_as_weight_one():
    y, s = [0, 1, 1, 0, 1], [0.1, 0.5, 0.3, 0.5, 0.7]
    acc = RankAccumulator().update(y[:2], s[:2]).update(y[2:], s[2:], [2.0, 0.5, 0.0])
    w = [1.0, 1.0, 2.0, 0.5, 0.0]
    assert acc.weighted and acc.n_rows == 5
    assert same(list(acc.evaluate(CRITERIA).values()), list(rw.evaluate(y, s, CRITERIA, sample_weight=w).values()),
                False)
    other = RankAccumulator().update(y[2:], s[2:], [2.0, 0.5, 0.0])
    merged = RankAccumulator().update(y[:2], s[:2]).merge(other)
    assert merged.weighted and same(merged.compute("auc"), acc.compute("auc"), False)
    with pytest.raises(ValueError, match="bootstrap resamples rows"):
        acc.estimate().confidence_interval(method="bootstrap", n_resamples=50)


def test_huge_and_tiny_weights_are_scaled_as_rankwise_scales_them():
    rng = np.random.default_rng(8)
    y = rng.random(30) < 0.5
    s = rng.integers(0, 5, 30).astype(float)
    for scale in (1e-300, 1e250):
        w = rng.integers(1, 4, 30) * scale
        acc = RankAccumulator().update(y[:11], s[:11], w[:11]).update(y[11:], s[11:], w[11:])
        for c in ("auc", "dcg:k=4", "pnorm_push:p=2"):
            if c.startswith("dcg") and scale > 1:  # DCG counts positions in weight units: refused both ways
                with pytest.raises(ValueError, match="DCG counts positions"):
                    rw.metrics.compute(c, y, s, sample_weight=w)
                with pytest.raises(ValueError, match="DCG counts positions"):
                    acc.compute(c)
                continue
            assert same(acc.compute(c), rw.metrics.compute(c, y, s, sample_weight=w), False), c
            e, r = acc.estimate(c), rw.stats.estimate(y, s, c, sample_weight=w)
            assert same([e.value, e.std_error, e.n_pos], [r.value, r.std_error, r.n_pos], False), c


@pytest.mark.parametrize("data", ["ties", "untied", "weighted", "mixed"])
def test_pending_batches_are_merged_when_they_outgrow_the_state(monkeypatch, data):
    monkeypatch.setattr(accmod, "MIN_PENDING", 4)
    rng = np.random.default_rng(9)
    y = rng.random(200) < 0.5
    s = rng.integers(0, 12, 200).astype(float) if data != "untied" else rng.normal(size=200)
    w = rng.integers(0, 3, 200) * 0.5 if data in ("weighted", "mixed") else None
    acc = RankAccumulator()
    for i in range(0, 200, 10):
        unweighted = w is None or (data == "mixed" and i < 100)
        acc.update(y[i:i + 10], s[i:i + 10], None if unweighted else w[i:i + 10])
        assert acc._store.n_pending <= max(2 * acc._store._held(), 4) + 10  # bounded by the state
    ww = None if w is None else np.where(np.arange(200) < 100, 1.0, w) if data == "mixed" else w
    got, want = acc.evaluate(CRITERIA), rw.evaluate(y, s, CRITERIA, sample_weight=ww)
    assert all(same(got[k], want[k], w is None) for k in CRITERIA), (got, want)
    if data == "ties":  # memory grows with the distinct scores, not the rows
        assert acc.n_levels == 12 and acc.nbytes <= 2 * 12 * 16


def test_nothing_the_user_gave_is_modified():
    y = np.array([1, 0, 1, 0, 1])
    s = np.array([0.9, 0.1, 0.5, 0.7, 0.3])
    w = np.array([1.0, 2.0, 0.0, 1.0, 1.0])
    keep = (y.copy(), s.copy(), w.copy())
    acc = RankAccumulator().update(y, s, w)
    acc.evaluate()
    acc.estimate()
    other = RankAccumulator().update(y, s)
    before = other.to_bytes()
    acc.merge(other)
    assert other.to_bytes() == before
    assert all(np.array_equal(a, b) for a, b in zip((y, s, w), keep))


def test_merge_with_itself_and_copy():
    y, s = [0, 1, 1, 0], [0.2, 0.4, 0.4, 0.9]
    acc = RankAccumulator().update(y, s)
    twin = acc.copy()
    acc.merge(acc)
    assert acc.n_rows == 8 and acc.compute("auc") == rw.auc(y * 2, s * 2)
    assert twin.n_rows == 4 and twin.compute("auc") == rw.auc(y, s)


def test_repr_len_and_properties():
    acc = RankAccumulator()
    assert len(acc) == 0 and acc.n_levels == 0 and acc.nbytes == 0 and acc.labels == ()
    acc.update([0, 1, 1], [0.1, 0.35, 0.8]).update([0, 0], [0.4, 0.9])
    assert repr(acc) == ("RankAccumulator(rows=5, levels=5, labels=(0, 1), positive=1, n_pos=2, n_neg=3, "
                         "nbytes=40)")
    assert acc.compute("auc") == 0.5 == rw.auc([0, 1, 1, 0, 0], [0.1, 0.35, 0.8, 0.4, 0.9])
    assert not acc.weighted and not acc.quantised and acc.resolution is None and acc.max_levels is None
    assert acc.auc_bounds() == (0.5, 0.5, 0.5)
    assert "weighted" in repr(RankAccumulator().update([0, 1], [0.0, 1.0], [0.5, 2.0]))
    assert RankAccumulator.__doc__ and "Notes" in RankAccumulator.__doc__


# --- refusals ------------------------------------------------------------------------------------------

def test_a_refused_batch_leaves_the_accumulator_unchanged():
    acc = RankAccumulator().update([0, 1, 1], [0.1, 0.2, 0.2]).update([0], [0.5], [2.0])
    before, batches = acc.to_bytes(), acc.n_batches
    bad = [([0, 2], [1.0, 2.0], None), (["a", "b"], [1.0, 2.0], None), ([0, 1], [np.nan, 1.0], None),
           ([0, 1], [np.inf, 1.0], None), ([0, 1], [1.0, 2.0, 3.0], None), ([0, 1], [1.0, 2.0], [1.0, -1.0]),
           ([0, 1], [1.0, 2.0], [1.0]), ([0, 1], [1.0, 2.0], [1e300, 1.0]), ([0, 1], [2 ** 60, 1], None),
           ([0, 1], ["a", "b"], None), ([0, np.nan], [1.0, 2.0], None), ([-1, 1], [1.0, 2.0], None),
           ([0, 1], [1.0, 2.0], [np.nan, 1.0]), ([], [1.0], None), ([0, 1], [], None),
           ([0, 1], [[1.0, 2.0], [3.0, 4.0]], None), ([0, 1], [2 ** 70 + 1, 1], None)]
    for y, s, w in bad:
        with pytest.raises((ValueError, TypeError), match="batch 3"):
            acc.update(y, s, w)
        assert acc.to_bytes() == before and acc.n_batches == batches, (y, s, w)


def test_label_inconsistencies_name_the_batch_and_the_values():
    acc = RankAccumulator().update([0, 1], [0.1, 0.2]).update([1], [0.3])
    with pytest.raises(ValueError, match=r"batch 3 .*-1.* earlier batches \(0, 1\).*3 distinct values"):
        acc.update([-1, -1], [0.0, 0.1])
    with pytest.raises(ValueError, match=r"batch 3 .*'x', not among the labels of the earlier batches \(0, 1\)"):
        acc.update(["x"], [0.0])  # a third label: naming it beats asking for pos_label
    acc = RankAccumulator(pos_label=1).update([0, 1], [0.1, 0.2])
    with pytest.raises(ValueError, match=r"batch 2 .*'x'.*earlier batches \(0, 1\).*comparable"):
        acc.update(["x"], [0.0])  # a value of another kind
    acc = RankAccumulator(pos_label="spam").update(["ham"], [0.1])
    with pytest.raises(ValueError, match=r"batch 2 .*'eggs'.*\('ham'\)"):
        acc.update(["eggs"], [0.2])
    with pytest.raises(ValueError, match="batch 1 .*pass pos_label="):
        RankAccumulator().update(["ham", "ham"], [0.1, 0.2])
    with pytest.raises(ValueError, match="batch 1 .*pass pos_label="):
        RankAccumulator().update([2, 3], [0.1, 0.2])


def test_an_empty_batch_counts_but_adds_nothing():
    acc = RankAccumulator().update([], [])
    assert acc.n_batches == 1 and acc.n_rows == 0
    acc.update(np.array([], dtype=int), np.array([]), sample_weight=[])
    acc.update([0, 1], [0.5, 0.6]).update([], [])
    assert acc.n_batches == 4 and acc.compute("auc") == 1.0
    with pytest.raises(ValueError, match="batch 5"):
        acc.update([], [0.5])
    with pytest.raises(ValueError, match="no rows yet"):
        RankAccumulator().update([], []).evaluate()


def test_merge_refusals_leave_both_unchanged():
    acc = RankAccumulator().update([0, 1], [0.1, 0.2])
    before = acc.to_bytes()
    others = [(RankAccumulator(pos_label=1).update([0, 1], [0.1, 0.2]), "pos_label"),
              (RankAccumulator(resolution=0.1).update([0, 1], [0.1, 0.2]), "quantised"),
              (RankAccumulator().update([-1, 1], [0.1, 0.2]), "3 distinct"),
              (RankAccumulator(pos_label="a").update(["a", "b"], [0.1, 0.2]), "pos_label")]
    for other, msg in others:
        snap = other.to_bytes()
        with pytest.raises(ValueError, match=msg):
            acc.merge(other)
        assert acc.to_bytes() == before and other.to_bytes() == snap
    with pytest.raises(TypeError, match="RankAccumulator"):
        acc.merge([0, 1])


def test_criteria_that_need_rows_are_refused():
    acc = RankAccumulator().update([0, 1, 0], [0.1, 0.2, 0.3])
    with pytest.raises(ValueError, match="ranking_risk.*binary"):
        acc.evaluate(["auc", "ranking_risk"])
    with pytest.raises(ValueError, match="stratified_auc"):
        acc.estimate("stratified_auc")
    with pytest.raises(ValueError, match="unknown|Unknown|not a"):
        acc.compute("no_such_criterion")
    with pytest.raises(TypeError, match="drop_intermediate"):
        acc.roc_curve(drop_intermediate="yes")
    with pytest.raises(TypeError, match="exactly one"):
        acc.operating_points()


# --- the file format -------------------------------------------------------------------------------

def pack(header: dict, blobs: bytes, *, magic=accmod.MAGIC, checksum=True, raw_header: bytes | None = None) -> bytes:
    """The format written by hand from docs/accumulator.md: magic, uint32 LE header length,
    JSON header, raw little-endian arrays, SHA-256 of all that."""
    head = json.dumps(header).encode() if raw_header is None else raw_header
    body = magic + struct.pack("<I", len(head)) + head + blobs
    return body + (hashlib.sha256(body).digest() if checksum else b"\x00" * 32)


def unpack(data: bytes) -> tuple[dict, dict]:
    (hlen,) = struct.unpack("<I", data[8:12])
    header = json.loads(data[12:12 + hlen])
    arrays, at = {}, 12 + hlen
    for a in header["arrays"]:
        arrays[a["name"]] = np.frombuffer(data, dtype=a["dtype"], count=a["length"], offset=at)
        at += 8 * a["length"]
    assert at == len(data) - 32 and hashlib.sha256(data[:-32]).digest() == data[-32:]
    return header, arrays


def blobs_of(header, arrays):
    return b"".join(np.asarray(arrays[a["name"]], dtype=a["dtype"]).tobytes() for a in header["arrays"])


def sample_acc(weighted=False, **kw):
    y = np.array([0, 1, 1, 0, 1, 0, 1])
    s = np.array([0.1, 0.4, 0.4, 0.4, 0.9, 0.2, 0.7])
    w = np.array([1.0, 2.0, 0.5, 1.0, 0.0, 3.0, 1.0]) if weighted else None
    return RankAccumulator(**kw).update(y[:3], s[:3], None if w is None else w[:3]).update(
        y[3:], s[3:], None if w is None else w[3:])


@pytest.mark.parametrize("weighted", [False, True])
def test_bytes_and_file_round_trip(tmp_path, weighted):
    acc = sample_acc(weighted)
    data = acc.to_bytes()
    assert data[:8] == b"RWACCUM\x00"
    header, arrays = unpack(data)  # the documented layout, read by hand
    assert header["format"] == "rankwise-accumulator" and header["version"] == 1
    assert header["weighted"] is weighted and header["n_rows"] == 7
    back = RankAccumulator.from_bytes(data)
    assert back.to_bytes() == data and repr(back) == repr(acc)
    assert back.evaluate(CRITERIA) == acc.evaluate(CRITERIA)
    assert RankAccumulator.from_bytes(bytearray(data)).to_bytes() == data
    path = tmp_path / "acc.rwacc"
    acc.save(path)
    assert path.read_bytes() == data and RankAccumulator.load(path).to_bytes() == data
    assert os.listdir(tmp_path) == ["acc.rwacc"]  # no temporary file left
    with pytest.raises(FileExistsError, match="overwrite=True"):
        acc.save(path)
    acc.update([0], [0.05])
    acc.save(str(path), overwrite=True)
    assert RankAccumulator.load(str(path)).n_rows == 8
    # an update after loading goes on as if never saved
    loaded = RankAccumulator.from_bytes(data).update([1, 0], [0.3, 0.35])
    fresh = sample_acc(weighted).update([1, 0], [0.3, 0.35])
    assert same(list(loaded.evaluate(CRITERIA).values()), list(fresh.evaluate(CRITERIA).values()), not weighted)


def test_labels_round_trip_and_unsavable_labels():
    for y, kw in (([True, False], {}), (["a", "b"], {"pos_label": "b"}), ([2.5, 7.5], {"pos_label": 7.5}),
                  ([-1, 1], {})):
        acc = RankAccumulator(**kw).update(y, [0.1, 0.2])
        back = RankAccumulator.from_bytes(acc.to_bytes())
        assert back.labels == acc.labels and back.pos_label == acc.pos_label
        assert back.compute("auc") == acc.compute("auc")
        back.update(y[:1], [0.3])  # the labels go on being checked
        with pytest.raises(ValueError, match="batch 3"):
            back.update(["zzz"] if not isinstance(y[0], str) else [0], [0.3])
    acc = RankAccumulator(pos_label=b"x").update([b"x", b"y"], [0.1, 0.2])
    with pytest.raises(TypeError, match="bytes"):
        acc.to_bytes()


def test_save_and_load_never_touch_what_is_not_a_regular_file(tmp_path):
    acc = sample_acc()
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with pytest.raises(ValueError, match="not a regular file"):
        acc.save(fifo, overwrite=True)
    with pytest.raises(ValueError, match="not a regular file"):
        RankAccumulator.load(fifo)  # refused without blocking on the pipe
    with pytest.raises(ValueError, match="not a regular file"):
        RankAccumulator.load(tmp_path)
    big = tmp_path / "big"
    big.write_bytes(acc.to_bytes())
    with pytest.raises(ValueError, match="max_bytes"):
        RankAccumulator.load(big, max_bytes=100)
    with pytest.raises(FileNotFoundError):
        RankAccumulator.load(tmp_path / "missing")


def test_from_bytes_refuses_every_malformed_file():
    data = sample_acc().to_bytes()
    header, arrays = unpack(data)
    blobs = blobs_of(header, arrays)
    assert RankAccumulator.from_bytes(pack(header, blobs)).to_bytes() == data  # the hand-made writer agrees

    def edited(**changes):
        h = json.loads(json.dumps(header))
        h.update(changes)
        return h

    cases = {
        "magic": pack(header, blobs, magic=b"RWACCUM\x01"),
        "format 'other'": pack(edited(format="other"), blobs),
        "version 2": pack(edited(version=2), blobs),
        "checksum mismatch": pack(header, blobs, checksum=False),
        "truncated": data[:-40],
        "truncated)": data[:10],
        "extra bytes": pack(header, blobs + b"\x00" * 8),
        "more than the 1048576": data[:8] + struct.pack("<I", (1 << 20) + 1) + data[12:],
        "not JSON": pack(header, blobs, raw_header=b"{not json"),
        "header keys": pack(edited(extra=1), blobs),
        "malformed array": pack(edited(arrays=[{"name": "pos_levels", "dtype": "<f4", "length": 1}]), blobs),
        "n_rows": pack(edited(n_rows=-1), blobs),
        "NaN": pack(header, blobs, raw_header=json.dumps(edited(max_weight=1.0)).replace("1.0", "NaN", 1).encode()),
    }
    corrupt = bytearray(data)
    corrupt[-40] ^= 1
    cases["checksum mismatch (the data is corrupted)"] = bytes(corrupt)
    for msg, bad in cases.items():
        with pytest.raises(ValueError, match="not a valid rankwise accumulator") as info:
            RankAccumulator.from_bytes(bad)
        assert msg.split(" (")[0].rstrip(")") in str(info.value), (msg, str(info.value))

    def with_arrays(**new):
        a = {k: np.array(v) for k, v in arrays.items()}
        a.update({k: np.asarray(v) for k, v in new.items()})
        h = edited(arrays=[{"name": k, "dtype": "<i8" if v.dtype.kind == "i" else "<f8", "length": len(v)}
                           for k, v in a.items()])
        return pack(h, blobs_of(h, a))

    lev = arrays["pos_levels"]
    semantic = {
        "not strictly increasing": with_arrays(pos_levels=lev[::-1].copy()),
        "NaN or infinite": with_arrays(pos_levels=np.r_[lev[:-1], np.nan]),
        "negative masses": with_arrays(pos_mass=np.r_[-1, np.ones(len(lev) - 1, dtype=np.int64)]),
        "zero masses": with_arrays(pos_mass=np.zeros(len(lev), dtype=np.int64)),
        "pos_mass has": with_arrays(pos_mass=np.ones(len(lev) + 1, dtype=np.int64)),
        "disagree": with_arrays(pos_mass=np.full(len(lev), 2, dtype=np.int64)),
        "dtype <f8, expected <i8": with_arrays(pos_mass=np.ones(len(lev))),
        "holds pos_levels": pack(edited(arrays=[]), b""),
        "'rows'": pack(edited(rows=[1, 1]), blobs),
        "do not resolve": pack(edited(labels=[[["str", "a"], 3], [["str", "b"], 4]]), blobs),
        "listed twice": pack(edited(labels=[[["int", 1], 3], [["float", 1.0], 4]]), blobs),
        "[type, value]": pack(edited(pos_label=["tuple", [1]]), blobs),
        "max_weight": pack(edited(max_weight=2.0), blobs),
        "'weighted'": pack(edited(weighted="no"), blobs),
    }
    for msg, bad in semantic.items():
        with pytest.raises(ValueError, match="not a valid rankwise accumulator") as info:
            RankAccumulator.from_bytes(bad)
        assert msg in str(info.value), (msg, str(info.value))
    with pytest.raises(TypeError, match="bytes"):
        RankAccumulator.from_bytes("RWACCUM")


def test_the_file_format_is_little_endian_and_needs_no_pickle():
    data = sample_acc(True).to_bytes()
    assert b"pickle" not in data and b"\x80\x04" not in data[:16]
    header, arrays = unpack(data)
    assert {a["dtype"] for a in header["arrays"]} <= {"<f8", "<i8"}
    assert header["labels"] == [[["int", 0], 3], [["int", 1], 4]]


def test_warnings_are_not_raised_on_defined_data():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        acc = sample_acc()
        acc.evaluate()
        acc.estimate("local_auc:top=0.5").confidence_interval()
        acc.roc_curve()


def test_a_batch_bringing_a_third_label_is_named_as_such():
    """A batch whose own reading fails because it brings a label the earlier batches did
    not have hears about that label (not that pos_label is missing from the batch); the
    accumulator is unchanged."""
    acc = RankAccumulator(pos_label="default")
    acc.update(["paid", "paid"], [0.1, 0.2])  # one class: fine
    acc.update(["default", "paid"], [0.3, 0.2])
    before = acc.to_bytes()
    for bad in (["paid", "maybe"], [1, 2]):
        with pytest.raises(ValueError, match=r"batch 3 of RankAccumulator.update has the label\(s\) .*not among the "
                                             r"labels of the earlier batches \('default', 'paid'\)"):
            acc.update(bad, [0.1, 0.2])
    assert acc.to_bytes() == before
