"""Fast criteria against the literal O(n^2) definitions of tests/_support/reference.py,
on generated samples with heavy ties, weights, tiny and single-class samples."""

import math
import warnings

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import rankwise as rw
from _support import reference as ref
from _support.strategies import real_label_samples, samples

TOL = 1e-9




def close(a, b, tol=TOL):
    return math.isclose(a, b, rel_tol=tol, abs_tol=tol)


@given(samples(weights=True) | samples())
def test_auc_matches_definition(sample):
    y, s, w = sample
    assert close(rw.auc(y, s, sample_weight=w), ref.auc(y, s, w))


PHIS = [
    (rw.phi.auc(), lambda r, n: r / (n + 1)),
    (rw.phi.local_auc(0.6), lambda r, n: (r / (n + 1)) * (r / (n + 1) >= 0.6)),
    (rw.phi.pnorm_push(3), lambda r, n: (r / (n + 1)) ** 3),
    (rw.phi.from_callable(lambda u: np.sqrt(u)), lambda r, n: math.sqrt(r / (n + 1))),
]


@pytest.mark.parametrize("ties", ["average", "max"])
@pytest.mark.parametrize("k", range(len(PHIS)))
@given(sample=samples(weights=True) | samples())
def test_rank_statistic_matches_definition(sample, k, ties):
    y, s, w = sample
    phi, ref_phi = PHIS[k]
    got = rw.rank_statistic(y, s, phi, ties=ties, sample_weight=w)
    assert close(got, ref.rank_statistic(y, s, ref_phi, w, ties))
    got_mean = rw.rank_statistic(y, s, phi, ties=ties, scale="mean", sample_weight=w)
    wp = sum(wi for wi, yi in zip(w or [1.0] * len(y), y) if yi)
    assert close(got_mean, ref.rank_statistic(y, s, ref_phi, w, ties) / wp)


@pytest.mark.parametrize("ties", ["average", "max"])
@pytest.mark.parametrize("k", [0, 2, 3])
@given(sample=samples(weights=True) | samples())
def test_rank_statistic_minmax_matches_definition(sample, k, ties):
    y, s, w = sample
    phi, ref_phi = PHIS[k]
    got = rw.rank_statistic(y, s, phi, ties=ties, scale="minmax", sample_weight=w)
    assert close(got, ref.rank_statistic_minmax(y, s, ref_phi, w, ties))


@given(samples(), st.integers(1, 30))
def test_rank_statistic_dcg_phi_matches_definition(sample, k):
    y, s, _ = sample

    def ref_phi(r, n):
        q = n + 1 - r
        return ref.std_discount(q) if q <= k else 0.0

    for ties in ("average", "max"):
        got = rw.rank_statistic(y, s, rw.phi.dcg(k), ties=ties)
        assert close(got, ref.rank_statistic(y, s, ref_phi, None, ties))


@given(samples(weights=True) | samples(), st.sampled_from([0.05, 0.1, 0.3, 0.5, 0.7, 0.9, 1.0]))
def test_local_auc_matches_definition(sample, top):
    y, s, w = sample
    assert close(rw.local_auc(y, s, top=top, sample_weight=w), ref.local_auc(y, s, top, w))


@given(samples(weights=True) | samples(), st.sampled_from([1, 1.5, 2, 3, 4, 8, 20]), st.sampled_from(["average", "max"]))
def test_pnorm_push_matches_definition(sample, p, ties):
    y, s, w = sample
    for normalize in (True, False):
        got = rw.pnorm_push(y, s, p=p, ties=ties, normalize=normalize, sample_weight=w)
        assert close(got, ref.pnorm_push(y, s, p, w, ties, normalize))


@given(samples(), st.one_of(st.none(), st.integers(1, 30)))
def test_dcg_ndcg_match_definition(sample, k):
    y, s, _ = sample
    assert close(rw.dcg(y, s, k=k), ref.dcg(y, s, k))
    assert close(rw.ndcg(y, s, k=k), ref.ndcg(y, s, k))


@given(samples(weights=True, integer_weights=True), st.one_of(st.none(), st.integers(1, 30)))
def test_weighted_dcg_is_repetition(sample, k):
    y, s, w = sample
    reps = [int(v) for v in w]
    yr = [v for v, r in zip(y, reps) for _ in range(r)]
    sr = [v for v, r in zip(s, reps) for _ in range(r)]
    assert close(rw.dcg(y, s, k=k, sample_weight=w), ref.dcg(yr, sr, k))
    assert close(rw.ndcg(y, s, k=k, sample_weight=w), ref.ndcg(yr, sr, k))


@given(samples(), st.integers(1, 10))
def test_dcg_user_discount(sample, k):
    y, s, _ = sample

    def disc(q):
        return 1.0 / np.asarray(q, dtype=float)

    got = rw.dcg(y, s, k=k, discount=disc)
    assert close(got, ref.dcg(y, s, k, discount=lambda q: 1.0 / q))


@given(samples(weights=True) | samples(), st.sampled_from([0.01, 0.1, 0.25, 0.5, 0.8, 1.0]))
def test_partial_auc_matches_definition(sample, max_fpr):
    y, s, w = sample
    got = rw.partial_auc(y, s, max_fpr=max_fpr, sample_weight=w)
    assert close(got, ref.partial_auc(y, s, max_fpr, w))
    mc = rw.partial_auc(y, s, max_fpr=max_fpr, standardize="mcclish", sample_weight=w)
    expect = ref.partial_auc(y, s, max_fpr, w)
    if max_fpr < 1:
        lo, hi = max_fpr**2 / 2, max_fpr
        expect = 0.5 * (1 + (expect - lo) / (hi - lo))
    assert close(mc, expect)


@given(samples(weights=True) | samples())
def test_roc_curve_matches_definition(sample):
    y, s, w = sample
    curve = rw.roc_curve(y, s, sample_weight=w)
    pts = ref.roc_points(y, s, w)
    assert len(curve.fpr) == len(pts)
    for (fx, fy, ft), a, b, t in zip(pts, curve.fpr, curve.tpr, curve.thresholds):
        assert close(a, fx) and close(b, fy) and (ft == t)
    # The polygon's area is the AUC (ties as diagonal segments).
    area = float(np.sum(np.diff(curve.fpr) * (curve.tpr[1:] + curve.tpr[:-1]) / 2))
    assert close(area, rw.auc(y, s, sample_weight=w))




@given(real_label_samples(), st.sampled_from(["comparable", "all"]))
def test_ranking_risk_matches_definition(sample, pairs):
    y, s, w = sample
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", rw.UndefinedMetricWarning)
        got = rw.ranking_risk(y, s, pairs=pairs, sample_weight=w)
    if len(set(y)) == 1 and pairs == "comparable":
        assert math.isnan(got)
    else:
        assert close(got, ref.ranking_risk(y, s, w, pairs))


def test_ranking_risk_many_distinct_labels():
    rng = np.random.default_rng(3)
    y = rng.normal(size=300)
    s = np.round(y + rng.normal(size=300), 1)
    w = rng.uniform(0.1, 2, size=300)
    for pairs in ("comparable", "all"):
        assert close(rw.ranking_risk(y, s, pairs=pairs, sample_weight=w), ref.ranking_risk(list(y), list(s), list(w), pairs))


@given(samples(weights=True) | samples())
def test_evaluate_equals_single_functions(sample):
    y, s, w = sample
    res = rw.evaluate(y, s, sample_weight=w, criteria=[
        "auc", "local_auc:top=0.3", "pnorm_push:p=2", "dcg:k=5", "ndcg", "partial_auc:max_fpr=0.2",
        "rank_statistic:phi=local_auc,u0=0.5,ties=max",
    ])
    assert res["auc"] == rw.auc(y, s, sample_weight=w)
    assert res["local_auc:top=0.3"] == rw.local_auc(y, s, top=0.3, sample_weight=w)
    assert res["pnorm_push:p=2"] == rw.pnorm_push(y, s, p=2, sample_weight=w)
    assert res["dcg:k=5"] == rw.dcg(y, s, k=5, sample_weight=w)
    assert res["ndcg"] == rw.ndcg(y, s, sample_weight=w)
    assert res["partial_auc:max_fpr=0.2"] == rw.partial_auc(y, s, max_fpr=0.2, sample_weight=w)
    assert res["rank_statistic:phi=local_auc,u0=0.5,ties=max"] == rw.rank_statistic(
        y, s, rw.phi.local_auc(0.5), ties="max", sample_weight=w)


@given(samples(both_classes=False, max_n=6).filter(lambda t: len(set(t[0])) == 1))
def test_single_class_warns_and_returns_nan(sample):
    y, s, _ = sample
    for f in (rw.auc, lambda y, s: rw.local_auc(y, s, top=0.5), lambda y, s: rw.pnorm_push(y, s, p=2),
              rw.dcg, rw.ndcg, lambda y, s: rw.partial_auc(y, s, max_fpr=0.3),
              lambda y, s: rw.rank_statistic(y, s, "auc")):
        with pytest.warns(rw.UndefinedMetricWarning, match="only one class"):
            assert math.isnan(f(y, s))
    with pytest.warns(rw.UndefinedMetricWarning):
        assert all(math.isnan(v) for v in rw.evaluate(y, s).values())


def test_zero_weight_class_is_undefined():
    with pytest.warns(rw.UndefinedMetricWarning):
        assert math.isnan(rw.auc([0, 1, 1], [1, 2, 3], sample_weight=[0, 1, 1]))


def test_tiny_samples():
    assert rw.auc([0, 1], [0.0, 1.0]) == 1.0
    assert rw.auc([1, 0], [0.0, 1.0]) == 0.0
    assert rw.auc([1, 0], [5, 5]) == 0.5
    assert rw.partial_auc([0, 1], [3, 3], max_fpr=0.5) == pytest.approx(0.125)
    assert rw.ranking_risk([1.0, 2.0], [2.0, 1.0]) == 1.0


def test_ranking_risk_one_label_with_uneven_weights_is_nan():
    """The hypothesis example that found it: the comparable mass was a rounding residue
    (total^2 - sum of squares), so the risk came out 0.0 instead of undefined."""
    y, s, w = [0.0] * 8, [0.0] * 8, [1.0] * 6 + [1.1, 0.1]
    with pytest.warns(rw.UndefinedMetricWarning):
        assert math.isnan(rw.ranking_risk(y, s, pairs="comparable", sample_weight=w))
    assert rw.ranking_risk(y, s, pairs="all", sample_weight=w) == 0.0
