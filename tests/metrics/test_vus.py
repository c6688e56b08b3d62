"""The volume under the ROC surface / hypervolume under the ROC manifold (issue 31): the
chain count over one sort equals the literal chain loop (tests/_support/reference_vus.py)
on generated samples with many ties, weights, K = 2..5 and classes of one; K = 2 is
rw.auc; bad input is refused naming the argument; an absent class warns and gives nan."""

import itertools
import math
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rankwise as rw
from _support.reference_vus import permutation_share, tie_share, vus_reference
from rankwise.metrics._vus import vus


@st.composite
def ordinal_samples(draw, k_min=2, k_max=4, max_n=14, weights=False):
    k = draw(st.integers(k_min, k_max))
    n = draw(st.integers(k, max_n))
    # every class at least once (one member for some), the rest drawn
    y = list(range(k)) + draw(st.lists(st.integers(0, k - 1), min_size=n - k, max_size=n - k))
    y = draw(st.permutations(y))
    if draw(st.booleans()):  # few values: ties within and across classes
        s = [float(v) for v in draw(st.lists(st.integers(-2, 2), min_size=n, max_size=n))]
    else:
        s = draw(st.lists(st.floats(-1e3, 1e3, allow_nan=False, width=64), min_size=n, max_size=n))
    w = None
    if weights:
        w = draw(st.lists(st.sampled_from([0.0, 0.5, 1.0, 2.0, 3.25]), min_size=n, max_size=n))
    return np.array(y), np.array(s), k, w


def _close(a, b):
    return (math.isnan(a) and math.isnan(b)) or abs(a - b) <= 1e-12 * max(1.0, abs(b))


@pytest.mark.parametrize("scores", list(itertools.product([0, 1, 2], repeat=4)))
def test_tie_share_is_the_share_of_tie_breakings(scores):
    assert tie_share(scores) == pytest.approx(permutation_share(scores))


@settings(max_examples=60)
@given(ordinal_samples())
def test_equals_chain_loop(sample):
    y, s, k, _ = sample
    labels = list(range(k))
    assert _close(vus(y, s, labels=labels), vus_reference(y, s, labels))


@settings(max_examples=50)
@given(ordinal_samples(weights=True))
def test_equals_chain_loop_weighted(sample):
    y, s, k, w = sample
    labels = list(range(k))
    ref = vus_reference(y, s, labels, w)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", rw.UndefinedMetricWarning)  # a class with zero weight only
        got = vus(y, s, labels=labels, sample_weight=w)
    assert _close(got, ref)


@settings(max_examples=25)
@given(ordinal_samples(k_min=5, k_max=5, max_n=9))
def test_five_classes(sample):
    y, s, k, _ = sample
    assert _close(vus(y, s, labels=list(range(k))), vus_reference(y, s, list(range(k))))


@settings(max_examples=50)
@given(ordinal_samples(k_min=2, k_max=2, max_n=30, weights=True))
def test_two_classes_is_auc(sample):
    y, s, _, w = sample
    if w is not None and not all(sum(wi for wi, yi in zip(w, y) if yi == c) > 0 for c in (0, 1)):
        w = None
    assert _close(vus(y, s, labels=[0, 1], sample_weight=w), rw.auc(y, s, sample_weight=w))
    # the order of labels is the direction: reversed, the AUC of the other class
    assert _close(vus(y, s, labels=[1, 0], sample_weight=w), 1.0 - rw.auc(y, s, sample_weight=w))


def test_all_tied_is_one_over_k_factorial():
    for k in (2, 3, 4, 5):
        y = np.repeat(np.arange(k), 3)
        assert vus(y, np.zeros(y.size), labels=list(range(k))) == pytest.approx(1 / math.factorial(k))


def test_hand_examples():
    assert vus(["a", "a", "b", "b", "c", "c"], [0.1, 0.5, 0.4, 0.6, 0.9, 0.7], labels=["a", "b", "c"]) == 0.75
    assert vus(["a", "b", "c"], [0.3, 0.3, 0.8], labels=["a", "b", "c"]) == 0.5
    assert vus(["a", "b", "c"], [0.3, 0.8, 0.8], labels=["a", "b", "c"]) == 0.5
    assert vus(["a", "b", "c"], [0.8, 0.3, 0.9], labels=["a", "b", "c"]) == 0.0
    assert vus(["c", "b", "a"], [3, 2, 1], labels=["a", "b", "c"]) == 1.0


def test_integer_weights_equal_repetition():
    rng = np.random.default_rng(31)
    y = rng.integers(0, 3, 40)
    s = rng.integers(0, 6, 40)
    w = rng.integers(0, 4, 40)
    w[:3] = 1
    y[:3] = [0, 1, 2]
    rep = np.repeat(np.arange(40), w)
    assert vus(y, s, labels=[0, 1, 2], sample_weight=w) == pytest.approx(vus(y[rep], s[rep], labels=[0, 1, 2]),
                                                                        rel=1e-12)


def test_weight_scale_invariance():
    rng = np.random.default_rng(3)
    y = rng.integers(0, 4, 200)
    s = np.round(rng.normal(size=200) + 0.5 * y, 1)
    w = rng.uniform(0.1, 2, 200)
    base = vus(y, s, labels=[0, 1, 2, 3], sample_weight=w)
    for c in (1e-300, 1e-100, 1e100, 1e300):
        assert vus(y, s, labels=[0, 1, 2, 3], sample_weight=w * c) == pytest.approx(base, rel=1e-12)


def test_normal_scores_match_the_chain_loop_on_a_larger_sample():
    rng = np.random.default_rng(7)
    y = rng.integers(0, 3, 60)
    s = np.round(rng.normal(size=60) + y, 1)
    assert vus(y, s, labels=[0, 1, 2]) == pytest.approx(vus_reference(y, s, [0, 1, 2]), rel=1e-12)


def test_inputs_from_pandas_and_strings():
    pd = pytest.importorskip("pandas")
    y = pd.Series(pd.Categorical(["low", "high", "mid", "low", "mid", "high"]))
    s = pd.Series([0.1, 0.9, 0.5, 0.6, 0.4, 0.7])
    labels = ["low", "mid", "high"]
    assert vus(y, s, labels=labels) == pytest.approx(vus_reference(list(y), list(s), labels))


# --- bad input --------------------------------------------------------------------------------

def test_absent_label_warns_nan():
    with pytest.warns(rw.UndefinedMetricWarning, match="'c'"):
        assert math.isnan(vus(["a", "b", "a"], [1, 2, 3], labels=["a", "b", "c"]))
    with pytest.warns(rw.UndefinedMetricWarning, match="positive weight"):
        assert math.isnan(vus([0, 1, 2], [1, 2, 3], labels=[0, 1, 2], sample_weight=[1, 0, 1]))


@pytest.mark.parametrize("kwargs, exc, match", [
    (dict(y_true=["a", "b", "d"], labels=["a", "b", "c"]), ValueError, "'labels'.*cover.*'d'"),
    (dict(labels=["a", "b", "a"]), ValueError, "'labels'.*distinct"),
    (dict(labels=["a"]), ValueError, "'labels'.*at least 2"),
    (dict(labels=[]), ValueError, "'labels'.*at least 2"),
    (dict(labels=None), TypeError, "'labels'"),
    (dict(labels="abc"), TypeError, "'labels'"),
    (dict(y_score=[0.1, float("nan"), 0.3]), ValueError, "'y_score'.*NaN"),
    (dict(y_score=[0.1, 0.2]), ValueError, "same length"),
    (dict(y_score=[[0.1, 0.9], [0.2, 0.8], [0.3, 0.7]]), ValueError, "'y_score'"),
    (dict(sample_weight=[1, -1, 1]), ValueError, "'sample_weight'.*negative"),
    (dict(sample_weight=[1, 1]), ValueError, "'sample_weight'"),
    (dict(y_true=[]), ValueError, "'y_true'"),
])
def test_bad_input(kwargs, exc, match):
    args = dict(y_true=["a", "b", "c"], y_score=[0.1, 0.2, 0.3], labels=["a", "b", "c"], sample_weight=None)
    args.update(kwargs)
    with pytest.raises(exc, match=match):
        vus(args["y_true"], args["y_score"], labels=args["labels"], sample_weight=args["sample_weight"])


def test_memory_and_time_are_not_cubic():
    # 3 x 20_000 rows: 8e12 chains, counted in one pass (the loop would never finish)
    rng = np.random.default_rng(0)
    y = np.repeat([0, 1, 2], 20_000)
    s = rng.normal(size=y.size) + y
    got = vus(y, s, labels=[0, 1, 2])
    # population value for N(0,1), N(1,1), N(2,1): P(X < Y < Z), about 0.56
    assert 0.53 < got < 0.59
