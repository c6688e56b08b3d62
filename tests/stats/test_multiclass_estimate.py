"""Inference for several classes (issue 31): rw.stats.estimate / compare with
criterion="multiclass_auc" and "vus". The K-sample DeLong variances equal their literal
definitions (tests/_support/reference_multiclass_var.py) on generated samples with ties and
weights; two classes give DeLong's binary variance; weights are frequency weights; clusters
of one row change nothing; the bootstrap is seeded."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rankwise as rw
from _support.reference_multiclass_var import (
    component_variances_reference,
    multiclass_variance_reference,
    vus_covariance_reference,
    vus_variance_reference,
)
from rankwise._kernels._merge import use_engine
from rankwise.stats import DegenerateIntervalWarning, MulticlassEstimate

try:
    import numba  # noqa: F401
    ENGINES = ["numpy", "numba"]
except ImportError:  # the compiled terms need numba
    ENGINES = ["numpy"]


@pytest.fixture(params=ENGINES)
def engine(request):
    """The per-row terms from numpy (the reference) or from one compiled pass per column."""
    with use_engine(request.param):
        yield request.param


COMBOS = [("ovr", "macro"), ("ovr", "weighted"), ("ovr", "micro"), ("ovo", "macro"), ("ovo", "weighted")]


def _probabilities(rng, y, K, digits=1):
    X = rng.normal(size=(y.shape[0], K))
    X[np.arange(y.shape[0]), y] += 1.0
    P = np.exp(X)
    P /= P.sum(axis=1, keepdims=True)
    P = np.round(P, digits)  # ties
    P[:, -1] = 1.0 - P[:, :-1].sum(axis=1)  # rows sum to 1 again
    return P


@st.composite
def samples(draw, K_max=4, n_max=16):
    K = draw(st.integers(3, K_max))
    n = draw(st.integers(2 * K, n_max))
    seed = draw(st.integers(0, 2 ** 31))
    rng = np.random.default_rng(seed)
    y = np.concatenate([np.arange(K), np.arange(K), rng.integers(0, K, n - 2 * K)])  # each class twice at least
    rng.shuffle(y)
    S = _probabilities(rng, y, K, digits=draw(st.sampled_from([1, 2])))
    w = None
    if draw(st.booleans()):
        w = rng.integers(1, 4, n).astype(float)
    return y, S, K, w


@settings(max_examples=25, deadline=None)
@given(samples())
def test_variances_equal_the_literal_definition(sample):
    y, S, K, w = sample
    for engine in ENGINES:
        with use_engine(engine):
            _variances_equal_the_literal_definition(y, S, K, w)


def _variances_equal_the_literal_definition(y, S, K, w):
    for mc, av in COMBOS:
        e = rw.stats.estimate(y, S, criterion="multiclass_auc", multi_class=mc, average=av, sample_weight=w)
        assert isinstance(e, MulticlassEstimate)
        assert e.value == pytest.approx(rw.multiclass_auc(y, S, multi_class=mc, average=av, sample_weight=w),
                                        abs=1e-14)
        ref = multiclass_variance_reference(y, S, range(K), mc, av, w)
        assert e.std_error ** 2 == pytest.approx(ref, rel=1e-8, abs=1e-14), (mc, av)
        if av != "micro":
            cov = component_variances_reference(y, S, range(K), mc, w)
            np.testing.assert_allclose(e.component_cov, cov, rtol=1e-9, atol=1e-14)
            np.testing.assert_allclose(e.component_std_errors, np.sqrt(np.diag(cov)), rtol=1e-9, atol=1e-14)


@settings(max_examples=25, deadline=None)
@given(st.integers(3, 5), st.integers(0, 2 ** 31), st.sampled_from([0, 1]), st.booleans())
def test_vus_variance_equals_the_chain_loop(K, seed, digits, weighted):
    """Both engines (numpy's level tables; the compiled sort and two walks) against the
    chain loop, ties across up to five classes, weights with zeros."""
    rng = np.random.default_rng(seed)
    n = rng.integers(2 * K, 3 * K + 4)
    y = np.concatenate([np.arange(K), np.arange(K), rng.integers(0, K, n - 2 * K)])
    s = np.round(rng.normal(size=n) + 0.8 * y, digits)  # many ties at digits=0, across classes too
    w = None
    if weighted:
        w = rng.integers(0, 4, n).astype(float)
        w[:K] = rng.integers(1, 4, K)  # rows 0..K-1 are one of each class: every class keeps a positive mass
    want_var = vus_variance_reference(y, s, range(K), w)
    want = rw.vus(y, s, labels=list(range(K)), sample_weight=w)
    for engine in ENGINES:
        with use_engine(engine):
            e = rw.stats.estimate(y, s, criterion="vus", labels=list(range(K)), sample_weight=w)
        assert e.value == pytest.approx(want, abs=1e-14), engine
        assert e.std_error ** 2 == pytest.approx(want_var, rel=1e-9, abs=1e-15), engine


def test_vus_placements_average_to_the_vus_in_every_class():
    from rankwise.stats._multiclass import _vus_placements
    rng = np.random.default_rng(3)
    m = rng.integers(0, 3, size=(30, 4)).astype(float)
    m /= m.sum(axis=0)
    theta, V = _vus_placements(m)
    np.testing.assert_allclose((m * V).sum(axis=0), theta, rtol=1e-12)


def test_two_classes_give_delongs_binary_variance():
    rng = np.random.default_rng(1)
    y = rng.integers(0, 2, 80)
    p = np.round(1 / (1 + np.exp(-(rng.normal(size=80) + y))), 2)
    S = np.column_stack([1 - p, p])
    binary = rw.stats.estimate(y, p)
    for mc in ("ovr", "ovo"):
        e = rw.stats.estimate(y, S, criterion="multiclass_auc", multi_class=mc)
        assert e.value == pytest.approx(binary.value, abs=1e-14)
        assert e.std_error == pytest.approx(binary.std_error, rel=1e-12)
    v = rw.stats.estimate(y, p, criterion="vus", labels=[0, 1])
    assert v.value == pytest.approx(binary.value, abs=1e-14)
    assert v.std_error == pytest.approx(binary.std_error, rel=1e-12)
    g = rng.integers(0, 25, 80)
    bc = rw.stats.estimate(y, p, clusters=g)
    vc = rw.stats.estimate(y, p, criterion="vus", labels=[0, 1], clusters=g)
    assert vc.std_error == pytest.approx(bc.std_error, rel=1e-12)
    oc = rw.stats.estimate(y, S, criterion="multiclass_auc", clusters=g)
    assert oc.std_error == pytest.approx(bc.std_error, rel=1e-12)


@pytest.mark.parametrize("mc, av", COMBOS)
def test_integer_weights_are_repeated_rows(mc, av, engine):
    rng = np.random.default_rng(5)
    y = rng.integers(0, 3, 40)
    S = _probabilities(rng, y, 3)
    w = rng.integers(1, 4, 40)
    a = rw.stats.estimate(y, S, criterion="multiclass_auc", multi_class=mc, average=av, sample_weight=w)
    b = rw.stats.estimate(np.repeat(y, w), np.repeat(S, w, axis=0), criterion="multiclass_auc", multi_class=mc,
                          average=av)
    assert a.value == pytest.approx(b.value, abs=1e-14)
    assert a.std_error == pytest.approx(b.std_error, rel=1e-12)


@pytest.mark.parametrize("mc, av", COMBOS)
def test_clusters_of_one_row_change_nothing(mc, av, engine):
    rng = np.random.default_rng(6)
    y = rng.integers(0, 3, 60)
    S = _probabilities(rng, y, 3)
    a = rw.stats.estimate(y, S, criterion="multiclass_auc", multi_class=mc, average=av)
    b = rw.stats.estimate(y, S, criterion="multiclass_auc", multi_class=mc, average=av,
                          clusters=[f"id{i}" for i in range(60)])
    assert b.n_clusters == 60
    assert b.std_error == pytest.approx(a.std_error, rel=1e-10)
    if av != "micro":
        np.testing.assert_allclose(b.component_std_errors, a.component_std_errors, rtol=1e-10)


def test_clustered_pairs_widen_the_interval():
    """Every row duplicated within its cluster: the cluster-robust SE equals the SE of the
    undoubled sample (the duplicates carry no new information), not the SE of 2n rows."""
    rng = np.random.default_rng(7)
    y = rng.integers(0, 3, 90)
    S = _probabilities(rng, y, 3, digits=3)
    s = S[:, 2] - S[:, 0]
    one = rw.stats.estimate(y, s, criterion="vus", labels=[0, 1, 2])
    dup = rw.stats.estimate(np.repeat(y, 2), np.repeat(s, 2), criterion="vus", labels=[0, 1, 2],
                            clusters=np.repeat(np.arange(90), 2))
    naive = rw.stats.estimate(np.repeat(y, 2), np.repeat(s, 2), criterion="vus", labels=[0, 1, 2])
    assert dup.value == pytest.approx(one.value, abs=1e-14)
    # Obuchowski's factors I_c/(I_c-1) apply to the clusters, n_c/(n_c-1) to the rows: equal here.
    assert dup.std_error == pytest.approx(one.std_error, rel=1e-10)
    assert naive.std_error < 0.75 * dup.std_error


def test_compare_covariance_and_tests():
    rng = np.random.default_rng(8)
    y = rng.integers(0, 3, 70)
    S1 = _probabilities(rng, y, 3, digits=2)
    S2 = (S1 + _probabilities(rng, y, 3, digits=2)) / 2
    for mc, av in COMBOS:
        c = rw.stats.compare(y, {"a": S1, "b": S2}, criterion="multiclass_auc", multi_class=mc, average=av)
        ea = rw.stats.estimate(y, S1, criterion="multiclass_auc", multi_class=mc, average=av)
        eb = rw.stats.estimate(y, S2, criterion="multiclass_auc", multi_class=mc, average=av)
        assert c.names == ("a", "b")
        np.testing.assert_allclose(c.values, [ea.value, eb.value], rtol=0, atol=1e-15)
        np.testing.assert_allclose(np.diag(c.cov), [ea.std_error ** 2, eb.std_error ** 2], rtol=1e-12)
        # the covariance: the variance of the difference's terms, literally
        diff_var = ea.std_error ** 2 + eb.std_error ** 2 - 2 * c.cov[0, 1]
        assert c.pairs[0].std_error == pytest.approx(math.sqrt(diff_var), rel=1e-12)
        assert abs(c.cov[0, 1]) <= math.sqrt(c.cov[0, 0] * c.cov[1, 1]) + 1e-15
    same = rw.stats.compare(y, [S1, S1], criterion="multiclass_auc", multi_class="ovo")
    assert same.pairs[0].difference == 0 and same.pairs[0].std_error == pytest.approx(0.0, abs=1e-12)


def test_compare_covariance_equals_the_literal_cross_term(engine):
    rng = np.random.default_rng(9)
    y = np.array([0, 1, 2, 0, 1, 2, 0, 1, 2, 2, 1, 0, 0])
    s1 = np.round(rng.normal(size=13) + y, 1)
    s2 = np.round(rng.normal(size=13) + y, 0)
    w = rng.integers(1, 4, 13).astype(float)
    for weights in (None, w):
        c = rw.stats.compare(y, [s1, s2], criterion="vus", labels=[0, 1, 2], sample_weight=weights)
        assert c.cov[0, 0] == pytest.approx(vus_variance_reference(y, s1, [0, 1, 2], weights), rel=1e-10)
        assert c.cov[1, 1] == pytest.approx(vus_variance_reference(y, s2, [0, 1, 2], weights), rel=1e-10)
        assert c.cov[0, 1] == pytest.approx(vus_covariance_reference(y, s1, s2, [0, 1, 2], weights), rel=1e-10)
    assert c.global_p_value == pytest.approx(c.pairs[0].p_value, rel=1e-10)


def test_bootstrap_is_seeded_and_stratified():
    rng = np.random.default_rng(10)
    y = rng.integers(0, 3, 120)
    S = _probabilities(rng, y, 3, digits=3)
    e = rw.stats.estimate(y, S, criterion="multiclass_auc", multi_class="ovo")
    a = e.bootstrap_distribution(300, random_state=1)
    b = e.bootstrap_distribution(300, random_state=1)
    assert np.array_equal(a, b)
    # the bootstrap SD and the DeLong SE agree roughly (n = 120)
    assert 0.75 < np.std(a, ddof=1) / e.std_error < 1.33
    lo, hi = e.confidence_interval(method="bootstrap", n_resamples=300, random_state=1)
    assert lo < e.value < hi
    lo_p, hi_p = e.confidence_interval(method="bootstrap", kind="percentile", n_resamples=300, random_state=1)
    assert (lo_p, hi_p) == tuple(np.quantile(a, [0.025, 0.975]))
    g = np.arange(120) // 3
    ec = rw.stats.estimate(y, S[:, 2] - S[:, 0], criterion="vus", labels=[0, 1, 2], clusters=g)
    reps = ec.bootstrap_distribution(200, random_state=2)
    assert np.isfinite(reps).all() and reps.std() > 0


def test_weighted_adds_the_prevalence_term():
    rng = np.random.default_rng(11)
    y = rng.choice(3, 200, p=[0.2, 0.3, 0.5])
    S = _probabilities(rng, y, 3, digits=3)
    for mc in ("ovr", "ovo"):
        e = rw.stats.estimate(y, S, criterion="multiclass_auc", multi_class=mc, average="weighted")
        assert e.std_error_prevalence > 0
        coef = e.class_sizes / e.class_sizes.sum() if mc == "ovr" else None
        if coef is not None:
            cond = float(coef @ e.component_cov @ coef)
            assert e.std_error ** 2 == pytest.approx(cond + e.std_error_prevalence ** 2, rel=1e-12)


def test_component_intervals_and_summary():
    rng = np.random.default_rng(12)
    y = rng.integers(0, 3, 90)
    labels = np.array(["low", "mid", "high"])
    S = _probabilities(rng, y, 3, digits=3)
    e = rw.stats.estimate(labels[y], S, criterion="multiclass_auc", multi_class="ovo", labels=labels)
    assert e.components == ("low vs mid", "low vs high", "mid vs high")
    ci = e.component_intervals()
    z = 1.959963984540054
    np.testing.assert_allclose(ci[:, 0], np.maximum(e.component_values - z * e.component_std_errors, 0), rtol=1e-12)
    text = str(e)
    assert "M (Hand & Till)" in text and "low vs high" in text
    assert "<table" in e._repr_html_()
    lo, hi = e.confidence_interval(transform="logit")
    assert 0 < lo < e.value < hi < 1


def test_undefined_and_degenerate():
    with pytest.warns(rw.UndefinedMetricWarning):
        e = rw.stats.estimate([0, 0, 0], np.full((3, 3), 1 / 3), criterion="multiclass_auc", labels=[0, 1, 2])
    assert math.isnan(e.value) and math.isnan(tuple(e.confidence_interval())[0])
    with pytest.warns(rw.UndefinedMetricWarning):
        e = rw.stats.estimate([0, 1, 0, 1], [0.1, 0.2, 0.3, 0.4], criterion="vus", labels=[0, 1, 2])
    assert math.isnan(e.value)
    # perfect separation: SE 0, the interval collapses with a warning
    y = [0, 0, 1, 1, 2, 2]
    s = [0.1, 0.2, 0.4, 0.5, 0.8, 0.9]
    e = rw.stats.estimate(y, s, criterion="vus", labels=[0, 1, 2])
    assert e.value == 1.0 and e.std_error == 0.0
    with pytest.warns(DegenerateIntervalWarning):
        assert tuple(e.confidence_interval()) == (1.0, 1.0)
    # a class of one row: no variance, the interval is [0, 1]
    e = rw.stats.estimate([0, 0, 1, 2, 2], [0.1, 0.5, 0.4, 0.3, 0.9], criterion="vus", labels=[0, 1, 2])
    assert math.isnan(e.std_error)
    with pytest.warns(DegenerateIntervalWarning):
        assert tuple(e.confidence_interval()) == (0.0, 1.0)


def test_ovr_macro_with_an_absent_class_is_nan_ovo_skips_it(engine):
    S = np.array([[0.7, 0.2, 0.1], [0.2, 0.7, 0.1], [0.6, 0.3, 0.1], [0.3, 0.6, 0.1]])
    y = [0, 1, 0, 1]
    with pytest.warns(rw.UndefinedMetricWarning):
        e = rw.stats.estimate(y, S, criterion="multiclass_auc", labels=[0, 1, 2])
    assert math.isnan(e.value)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        o = rw.stats.estimate(y, S, criterion="multiclass_auc", multi_class="ovo", labels=[0, 1, 2])
    assert o.value == pytest.approx(rw.multiclass_auc(y, S, multi_class="ovo", labels=[0, 1, 2]))
    assert np.isnan(o.component_values[1:]).all() and np.isfinite(o.std_error)


@pytest.mark.parametrize("kwargs, exc, match", [
    (dict(criterion="multiclass_auc", average=None), ValueError, "average"),
    (dict(criterion="multiclass_auc", average="samples"), ValueError, "average"),
    (dict(criterion="multiclass_auc", multi_class="ovo", average="micro"), ValueError, "micro"),
    (dict(criterion="multiclass_auc", pos_label=1), TypeError, "pos_label"),
    (dict(criterion="multiclass_auc", top=0.1), TypeError, "top"),
    (dict(criterion="multiclass_auc", method="hajek"), ValueError, "method"),
    (dict(criterion="vus"), TypeError, "labels"),
])
def test_bad_input(kwargs, exc, match):
    S = np.array([[0.7, 0.2, 0.1], [0.2, 0.7, 0.1], [0.1, 0.2, 0.7], [0.6, 0.3, 0.1]])
    y = [0, 1, 2, 0]
    score = S if kwargs["criterion"] == "multiclass_auc" else S[:, 2]
    with pytest.raises(exc, match=match):
        rw.stats.estimate(y, score, **kwargs)


def test_rows_must_sum_to_one_and_compare_needs_matrices():
    S = np.array([[0.7, 0.2, 0.2], [0.2, 0.7, 0.1], [0.1, 0.2, 0.7], [0.6, 0.3, 0.1]])
    with pytest.raises(ValueError, match="summing to 1"):
        rw.stats.estimate([0, 1, 2, 0], S, criterion="multiclass_auc")
    with pytest.raises(TypeError, match="list or dict"):
        rw.stats.compare([0, 1, 2, 0], np.stack([S, S]), criterion="multiclass_auc")


@pytest.mark.parametrize("mc, av", COMBOS)
def test_huge_weights_are_frequency_weights(mc, av, engine):
    """Weights c are c copies of each row: the value is unchanged, the class sizes scale by
    c and, once c is large (class sizes >> 1), the SE by 1/sqrt(c); also at 1e200, where
    products of masses would overflow unscaled."""
    rng = np.random.default_rng(13)
    y = rng.integers(0, 3, 200)
    S = _probabilities(rng, y, 3, digits=3)
    e = rw.stats.estimate(y, S, criterion="multiclass_auc", multi_class=mc, average=av)
    ses = []
    for c in (1e100, 1e200):
        f = rw.stats.estimate(y, S, criterion="multiclass_auc", multi_class=mc, average=av,
                              sample_weight=np.full(200, c))
        assert f.value == pytest.approx(e.value, abs=1e-12)
        np.testing.assert_allclose(f.class_sizes, e.class_sizes * c, rtol=1e-12)
        ses.append(f.std_error * math.sqrt(c))
    assert ses[0] == pytest.approx(ses[1], rel=1e-9) and 0 < ses[0] < e.std_error
    v = [rw.stats.estimate(y, S[:, 2] - S[:, 0], criterion="vus", labels=[0, 1, 2], sample_weight=np.full(200, c))
         for c in (1e100, 1e200)]
    assert v[0].std_error == pytest.approx(v[1].std_error * 1e50, rel=1e-9)
