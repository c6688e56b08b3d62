"""Multiclass AUC (issue 31): one-vs-rest and one-vs-one (Hand & Till's M) with every
average equal to scikit-learn's ``roc_auc_score`` computed live, and to the literal pair
loops of tests/_support/reference_multiclass.py for what scikit-learn lacks (the OvO matrix,
weighted OvO, zero weights); heavy ties within and across classes, absent classes, a class
of one; bad input refused naming the argument; fewer than two classes: warning and nan."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

try:  # pandas is optional: the minimum-versions environment runs this module without it
    import pandas as pd
except ImportError:  # pragma: no cover - exercised only there
    pd = None
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.exceptions import UndefinedMetricWarning as SkUndefined
from sklearn.metrics import roc_auc_score

import rankwise as rw
from _support.reference_multiclass import multiclass_reference
from rankwise.metrics._multiclass import PairwiseAUCs, multiclass_auc


@st.composite
def prob_samples(draw, k_min=2, k_max=5, max_n=14, weights="none", all_present=False):
    """Labels in 0..K-1 and rows of probabilities (each row summing to 1). Integer counts
    divided by their row total: few distinct values, so ties within and across classes."""
    K = draw(st.integers(k_min, k_max))
    n = draw(st.integers(2 if not all_present else K, max_n))
    if all_present:
        y = list(range(K)) + draw(st.lists(st.integers(0, K - 1), min_size=n - K, max_size=n - K))
        y = draw(st.permutations(y))
    else:
        y = draw(st.lists(st.integers(0, K - 1), min_size=n, max_size=n))
    top = draw(st.sampled_from([1, 2, 3, 50]))
    rows = []
    for _ in range(n):
        c = draw(st.lists(st.integers(0, top), min_size=K, max_size=K))
        if sum(c) == 0:
            c[draw(st.integers(0, K - 1))] = 1
        rows.append(c)
    C = np.array(rows, dtype=float)
    S = C / C.sum(axis=1, keepdims=True)
    w = None
    if weights == "positive":
        w = np.array(draw(st.lists(st.sampled_from([0.5, 1.0, 2.0, 3.25]), min_size=n, max_size=n)))
    elif weights == "any":
        w = np.array(draw(st.lists(st.sampled_from([0.0, 0.5, 1.0, 2.0, 3.25]), min_size=n, max_size=n)))
    return np.array(y), S, K, w


def _close(a, b, tol=1e-12):
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    both_nan = np.isnan(a) & np.isnan(b)
    return a.shape == b.shape and bool(np.all(both_nan | (np.abs(a - b) <= tol * np.maximum(1.0, np.abs(b)))))


def _quiet(f, *args, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SkUndefined)
        warnings.simplefilter("ignore", rw.UndefinedMetricWarning)
        warnings.simplefilter("ignore", RuntimeWarning)
        return f(*args, **kw)


def _n_present(y, w):
    mass = np.bincount(y, weights=w)
    return int(np.count_nonzero(mass > 0))


OVR = ["macro", "weighted", "micro", None]
OVO = ["macro", "weighted"]


@settings(max_examples=60)
@given(prob_samples(k_min=3, weights="none"))
def test_equals_sklearn_unweighted(sample):
    y, S, K, _ = sample
    if _n_present(y, None) < 2:
        return
    labels = list(range(K))
    for mc, avs in (("ovr", OVR), ("ovo", OVO)):
        for av in avs:
            ours = _quiet(multiclass_auc, y, S, multi_class=mc, average=av, labels=labels)
            ref = _quiet(roc_auc_score, y, S, multi_class=mc, average=av, labels=labels)
            assert _close(ours, ref), (mc, av, ours, ref)


@settings(max_examples=60)
@given(prob_samples(k_min=3, weights="positive"))
def test_equals_sklearn_weighted_ovr(sample):
    y, S, K, w = sample
    if _n_present(y, w) < 2:
        return
    labels = list(range(K))
    for av in OVR:
        ours = _quiet(multiclass_auc, y, S, multi_class="ovr", average=av, labels=labels, sample_weight=w)
        ref = _quiet(roc_auc_score, y, S, multi_class="ovr", average=av, labels=labels, sample_weight=w)
        assert _close(ours, ref), (av, ours, ref)


@settings(max_examples=50)
@given(prob_samples(k_min=2, k_max=4, max_n=10, weights="any"))
def test_equals_literal_pair_loops(sample):
    """Every combination, weighted OvO and the OvO matrix included, zero weights too."""
    y, S, K, w = sample
    labels = list(range(K))
    if _n_present(y, w) < 2:
        return
    for mc, avs in (("ovr", OVR), ("ovo", OVO + [None])):
        for av in avs:
            ours = _quiet(multiclass_auc, y, S, multi_class=mc, average=av, labels=labels, sample_weight=w)
            ref = multiclass_reference(y, S, labels, mc, av, w)
            if mc == "ovo" and av is None:
                assert isinstance(ours, PairwiseAUCs)
                assert _close(ours.directed, ref[0]) and _close(ours.pairs, ref[1])
                assert list(ours.labels) == labels
            else:
                assert _close(ours, ref), (mc, av, ours, ref)


@settings(max_examples=40)
@given(prob_samples(k_min=3, k_max=4, max_n=12, all_present=True), st.randoms(use_true_random=False))
def test_labels_order_and_dataframe_columns(sample, rnd):
    """Columns follow ``labels``; permuting labels and columns together permutes the per-class
    values; a DataFrame is matched by its column names, in any column order; string labels."""
    y, S, K, _ = sample
    perm = list(range(K))
    rnd.shuffle(perm)
    base = multiclass_auc(y, S, average=None)
    permuted = multiclass_auc(y, S[:, perm], average=None, labels=perm)
    assert _close(permuted, base[perm])
    names = np.array(["a", "b", "c", "d"][:K])
    ys = names[y]
    if pd is None:
        return
    df = pd.DataFrame(S, columns=list(names))[list(names[perm])]
    for mc, av in (("ovr", None), ("ovr", "micro"), ("ovo", "macro")):
        a = multiclass_auc(ys, df, multi_class=mc, average=av)
        b = multiclass_auc(y, S, multi_class=mc, average=av)
        assert _close(a, b)
    m_base = multiclass_auc(y, S, multi_class="ovo", average=None)
    m_perm = multiclass_auc(y, S[:, perm], multi_class="ovo", average=None, labels=perm)
    assert _close(m_perm.directed, m_base.directed[np.ix_(perm, perm)])


def test_hand_till_by_hand():
    """Three classes, two rows each, every AUC worked out on paper.

    Column 0: class 0 at 0.5, 0.4; class 1 at 0.2, 0.4; class 2 at 0.1, 0.3.
    A(0|1) = (1 + 1 + 1 + 1/2)/4 = 7/8, A(0|2) = 1. Column 1: class 1 at 0.6, 0.3; class 0
    at 0.3, 0.2; A(1|0) = (1 + 1 + 1/2 + 1)/4 = 7/8; class 2 at 0.2, 0.3: A(1|2) = 7/8.
    Column 2: class 2 at 0.7, 0.4; class 0 at 0.2, 0.4: A(2|0) = 7/8; class 1 at 0.2, 0.3:
    A(2|1) = 1. M = mean of (7/8+7/8)/2, (1+7/8)/2, (7/8+1)/2 = 11/12."""
    y = [0, 0, 1, 1, 2, 2]
    S = np.array([[0.5, 0.3, 0.2], [0.4, 0.2, 0.4], [0.2, 0.6, 0.2], [0.4, 0.3, 0.3], [0.1, 0.2, 0.7],
                  [0.3, 0.3, 0.4]])
    m = multiclass_auc(y, S, multi_class="ovo", average=None)
    expected = np.array([[np.nan, 7 / 8, 1.0], [7 / 8, np.nan, 7 / 8], [7 / 8, 1.0, np.nan]])
    assert _close(m.directed, expected)
    assert math.isclose(multiclass_auc(y, S, multi_class="ovo"), 11 / 12, rel_tol=1e-15)


def test_weighted_ovo_is_frequency_weighting():
    """Integer weights in OvO equal repeating the rows (the definition of the weights)."""
    rng = np.random.default_rng(3)
    y = rng.integers(0, 4, 40)
    S = rng.dirichlet(np.ones(4), 40).round(2)
    S = S / S.sum(axis=1, keepdims=True)
    w = rng.integers(0, 4, 40)
    rep = np.repeat(np.arange(40), w)
    for av in ("macro", "weighted"):
        a = multiclass_auc(y, S, multi_class="ovo", average=av, sample_weight=w)
        b = multiclass_auc(y[rep], S[rep], multi_class="ovo", average=av)
        assert math.isclose(a, b, rel_tol=1e-12)


def test_one_class_warns_nan():
    S = np.array([[0.2, 0.8], [0.5, 0.5]])
    for mc in ("ovr", "ovo"):
        with pytest.warns(rw.UndefinedMetricWarning):
            assert math.isnan(multiclass_auc([1, 1], S, multi_class=mc, labels=[0, 1]))
    with pytest.warns(rw.UndefinedMetricWarning):
        assert math.isnan(multiclass_auc([0, 0], np.ones((2, 1))))
    with pytest.warns(rw.UndefinedMetricWarning):
        m = multiclass_auc([1, 1], S, multi_class="ovo", average=None, labels=[0, 1])
    assert np.isnan(m.directed).all()


def test_absent_class_ovr_macro_nan_ovo_skips():
    """As scikit-learn: an absent class's OvR AUC is nan (macro nan, weighted without it);
    OvO averages the pairs of present classes."""
    y = np.array([0, 0, 1, 1])
    S = np.array([[0.7, 0.2, 0.1], [0.5, 0.3, 0.2], [0.2, 0.5, 0.3], [0.4, 0.4, 0.2]])
    with pytest.warns(rw.UndefinedMetricWarning):
        per = multiclass_auc(y, S, average=None, labels=[0, 1, 2])
    assert math.isnan(per[2]) and not np.isnan(per[:2]).any()
    with pytest.warns(rw.UndefinedMetricWarning):
        w_avg = multiclass_auc(y, S, average="weighted", labels=[0, 1, 2])
    assert math.isclose(w_avg, per[:2].mean())
    ovo = multiclass_auc(y, S, multi_class="ovo", labels=[0, 1, 2])
    m = multiclass_auc(y, S, multi_class="ovo", labels=[0, 1, 2], average=None)
    assert math.isclose(ovo, m.pairs[0, 1]) and np.isnan(m.directed[2]).all()


GOOD_Y = [0, 1, 2, 0]
GOOD_S = np.array([[0.5, 0.3, 0.2], [0.2, 0.5, 0.3], [0.1, 0.2, 0.7], [0.6, 0.2, 0.2]])


@pytest.mark.parametrize("kwargs, exc, name", [
    (dict(y_score=GOOD_S[:, :2]), ValueError, "y_score"),
    (dict(y_score=GOOD_S[:3]), ValueError, "y_score"),
    (dict(y_score=GOOD_S[:, 0]), ValueError, "y_score"),
    (dict(y_score=GOOD_S * 2), ValueError, "y_score"),
    (dict(y_score=np.where(np.eye(4, 3) > 0, np.nan, GOOD_S)), ValueError, "y_score"),
    (dict(y_score=np.array([["a", "b", "c"]] * 4)), TypeError, "y_score"),
    (dict(y_score=None), TypeError, "y_score"),
    *([(dict(y_score=pd.DataFrame(GOOD_S, columns=["x", "y", "z"])), ValueError, "y_score")]
      if pd is not None else []),
    (dict(labels=[0, 1, 3]), ValueError, "labels"),
    (dict(labels=[0, 1, 1]), ValueError, "labels"),
    (dict(sample_weight=[1, -1, 1, 1]), ValueError, "sample_weight"),
    (dict(sample_weight=[1, 1, 1]), ValueError, "sample_weight"),
    (dict(multi_class="ovx"), ValueError, "multi_class"),
    (dict(average="samples"), ValueError, "average"),
    (dict(multi_class="ovo", average="micro"), ValueError, "average"),
    (dict(y_true=[0, 1, np.nan, 0]), ValueError, "y_true"),
    (dict(y_true=[]), ValueError, "y_true"),
])
def test_bad_input_names_argument(kwargs, exc, name):
    args = dict(y_true=GOOD_Y, y_score=GOOD_S)
    args.update(kwargs)
    y_true, y_score = args.pop("y_true"), args.pop("y_score")
    with pytest.raises(exc, match=name):
        multiclass_auc(y_true, y_score, **args)


def test_probability_rule_matches_sklearn_tolerance():
    """Rows off 1 by less than numpy's allclose tolerance pass in both; rows clearly off are
    refused by both (scikit-learn's rule, kept, never renormalised)."""
    S = GOOD_S.copy()
    S[0] += np.array([1e-9, 0, 0])
    assert math.isclose(multiclass_auc(GOOD_Y, S), roc_auc_score(GOOD_Y, S, multi_class="ovr"), rel_tol=1e-12)
    S[0] += np.array([1e-3, 0, 0])
    with pytest.raises(ValueError, match="y_score"):
        multiclass_auc(GOOD_Y, S)
    with pytest.raises(ValueError):
        roc_auc_score(GOOD_Y, S, multi_class="ovr")


@pytest.mark.parametrize("decimals", [2, 6])
def test_large_sample_equals_sklearn(decimals):
    """20 000 rows, K = 5 (the compiled merge, where numba is installed, takes over from the
    bisection at this size); rounded scores give long runs of ties across classes. The unit
    weights path (one sort of the column with class masses per level) agrees too."""
    rng = np.random.default_rng(decimals)
    n, K = 20_000, 5
    y = rng.integers(0, K, n)
    Z = rng.normal(size=(n, K))
    Z[np.arange(n), y] += 0.7
    S = np.exp(Z).round(decimals) + 1e-3
    S /= S.sum(axis=1, keepdims=True)
    for mc, avs in (("ovr", OVR), ("ovo", OVO)):
        for av in avs:
            ours = multiclass_auc(y, S, multi_class=mc, average=av)
            assert _close(ours, roc_auc_score(y, S, multi_class=mc, average=av), 1e-12), (mc, av)
            assert _close(multiclass_auc(y, S, multi_class=mc, average=av, sample_weight=np.ones(n)), ours, 1e-12)


def test_string_labels_two_classes():
    """K = 2 is allowed (scikit-learn takes its binary path instead): OvR of each class and
    OvO are all the binary AUC of the score column against its class."""
    y = np.array(["no", "yes", "yes", "no", "yes"])
    S = np.array([[0.8, 0.2], [0.3, 0.7], [0.6, 0.4], [0.4, 0.6], [0.1, 0.9]])
    expected = rw.auc(y == "yes", S[:, 1])
    per = multiclass_auc(y, S, average=None)
    assert _close(per, [rw.auc(y == "no", S[:, 0]), expected])
    assert math.isclose(multiclass_auc(y, S, multi_class="ovo"), (per[0] + per[1]) / 2)
