"""Invariances that every criterion must satisfy (issue 2)."""

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import rankwise as rw
from _support.strategies import samples
from test_criteria_oracle import close

ALL = [
    "auc",
    "local_auc:top=0.3",
    "pnorm_push:p=3",
    "pnorm_push:p=2,ties=max,normalize=false",
    "dcg:k=4",
    "ndcg",
    "partial_auc:max_fpr=0.3",
    "partial_auc:max_fpr=0.2,standardize=mcclish",
    "rank_statistic:phi=auc",
    "rank_statistic:phi=pnorm_push,p=2,ties=max",
    "rank_statistic:phi=local_auc,u0=0.5,scale=minmax",
    "rank_statistic:phi=dcg,k=3,scale=mean",
]


def all_close(a, b):
    return all(close(a[k], b[k]) for k in a)


@given(samples(weights=True) | samples(), st.randoms(use_true_random=False))
def test_sample_order(sample, rnd):
    y, s, w = sample
    perm = list(range(len(y)))
    rnd.shuffle(perm)
    wp = None if w is None else [w[i] for i in perm]
    assert all_close(rw.evaluate(y, s, ALL, sample_weight=w),
                     rw.evaluate([y[i] for i in perm], [s[i] for i in perm], ALL, sample_weight=wp))


@given(samples(weights=True) | samples())
def test_strictly_increasing_transform(sample):
    y, s, w = sample
    s = np.asarray(s)
    base = rw.evaluate(y, s, ALL, sample_weight=w)
    dense_ranks = lambda v: np.unique(v, return_inverse=True)[1].astype(float)  # noqa: E731
    for f in (lambda v: 3 * v - 7, np.arctan, lambda v: np.exp(v / 1000.0), dense_ranks):
        t = f(s)
        if len(np.unique(t)) != len(np.unique(s)):
            continue  # floating point merged two levels: not strictly increasing on this sample
        assert all_close(base, rw.evaluate(y, t, ALL, sample_weight=w))


@given(samples(weights=True, integer_weights=True))
def test_integer_weights_equal_repetition(sample):
    y, s, w = sample
    reps = [int(v) for v in w]
    yr = [v for v, r in zip(y, reps) for _ in range(r)]
    sr = [v for v, r in zip(s, reps) for _ in range(r)]
    assert all_close(rw.evaluate(y, s, ALL, sample_weight=w), rw.evaluate(yr, sr, ALL))
    assert close(rw.ranking_risk(y, s, sample_weight=w), rw.ranking_risk(yr, sr))


@given(samples(weights=True) | samples())
def test_auc_of_negated_scores(sample):
    y, s, w = sample
    assert close(rw.auc(y, [-v for v in s], sample_weight=w), 1.0 - rw.auc(y, s, sample_weight=w))


@given(samples(weights=True) | samples())
def test_minmax_linear_rank_statistic_is_auc(sample):
    y, s, w = sample
    assert close(rw.rank_statistic(y, s, "auc", scale="minmax", sample_weight=w), rw.auc(y, s, sample_weight=w))


@given(samples())
def test_paper_000_identity_between_w_and_auc(sample):
    """W_n = [n+ n- AUC + n+(n+ + 1)/2] / (n + 1) for phi(u) = u (exact with mid-ranks, so
    it also holds without ties for the paper's max-rank)."""
    y, s, _ = sample
    n, npos = len(y), sum(y)
    nneg = n - npos
    expect = (npos * nneg * rw.auc(y, s) + npos * (npos + 1) / 2) / (n + 1)
    assert close(rw.rank_statistic(y, s, "auc"), expect)
    if len(set(s)) == len(s):
        assert close(rw.rank_statistic(y, s, "auc", ties="max"), expect)


@given(samples(weights=True) | samples())
def test_pnorm_push_p1_is_one_minus_auc(sample):
    y, s, w = sample
    assert close(rw.pnorm_push(y, s, p=1, sample_weight=w), 1 - rw.auc(y, s, sample_weight=w))


@given(samples(weights=True) | samples())
def test_binary_ranking_risk_is_one_minus_auc(sample):
    y, s, w = sample
    yy = [float(v) for v in y]
    assert close(rw.ranking_risk(yy, s, sample_weight=w), 1 - rw.auc(y, s, sample_weight=w))


@given(samples(weights=True) | samples())
def test_full_range_special_cases(sample):
    y, s, w = sample
    a = rw.auc(y, s, sample_weight=w)
    assert close(rw.local_auc(y, s, top=1.0, sample_weight=w), a)
    assert close(rw.partial_auc(y, s, max_fpr=1.0, sample_weight=w), a)
    assert close(rw.partial_auc(y, s, max_fpr=1.0, standardize="mcclish", sample_weight=w), a)


def test_label_encodings_agree():
    rng = np.random.default_rng(1)
    y = rng.random(200) < 0.3
    s = rng.normal(size=200).round(1)
    ref = rw.evaluate(y, s, ALL)
    for enc, kw in [
        (y.astype(int), {}),
        (np.where(y, 1, -1), {}),
        (np.where(y, 1.0, 0.0), {}),
        (np.where(y, "bad", "good"), {"pos_label": "bad"}),
        (np.where(y, 2, 1), {"pos_label": 2}),
        (list(y), {}),
    ]:
        assert rw.evaluate(enc, s, ALL, **kw) == ref


def test_input_containers_agree():
    pd = pytest.importorskip("pandas")
    pl = pytest.importorskip("polars")
    pa = pytest.importorskip("pyarrow")
    rng = np.random.default_rng(2)
    y = (rng.random(300) < 0.4).astype(int)
    s = rng.normal(size=300).round(2)
    ref = rw.evaluate(y, s, ALL)
    for yy, ss in [
        (list(y), list(s)),
        (pd.Series(y), pd.Series(s)),
        (pd.Series(y, dtype="Int64"), pd.Series(s, dtype="Float64")),
        (pl.Series(y), pl.Series(s)),
        (pa.array(y), pa.array(s)),
        (pa.chunked_array([y[:100], y[100:]]), pa.chunked_array([s[:100], s[100:]])),
        (y.reshape(-1, 1), s.reshape(-1, 1)),
    ]:
        assert rw.evaluate(yy, ss, ALL) == ref


def test_float32_kept_exact():
    """float32 scores are sorted as float32: values that differ in float32 stay distinct,
    and the result equals the float64 computation on the same (exactly representable) values."""
    rng = np.random.default_rng(4)
    s32 = rng.normal(size=1000).astype(np.float32)
    y = rng.random(1000) < 0.3
    assert rw.evaluate(y, s32, ALL) == rw.evaluate(y, s32.astype(np.float64), ALL)
    a, b = np.float32(1.0), np.nextafter(np.float32(1.0), np.float32(2.0))
    assert rw.auc([0, 1], np.array([a, b], dtype=np.float32)) == 1.0


def test_integer_scores_beyond_float53_are_exact():
    big = 2**60
    s = np.array([big, big + 1], dtype=np.int64)  # equal once cast to float64
    assert rw.auc([0, 1], s) == 1.0
    assert rw.auc([0, 1], s.astype(np.float64)) == 0.5


def test_large_counts_do_not_overflow():
    # n+ n- = 2.5e11 overflows int32; the AUC of a perfect split must still be exactly 1.
    n = 1_000_000
    y = np.zeros(n, dtype=bool)
    y[n // 2:] = True
    s = np.arange(n, dtype=np.float64)
    assert rw.auc(y, s) == 1.0
    assert rw.auc(y, -s) == 0.0
    assert math.isclose(rw.rank_statistic(y, s, "auc", scale="minmax"), 1.0)
