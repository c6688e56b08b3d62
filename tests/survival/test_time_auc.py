"""rw.survival.cumulative_dynamic_auc / compare_cumulative_dynamic_auc: the O(n)-per-time
kernel against the literal definitions of tests/_support/reference_time_auc.py on generated
inputs (ties in time, in risk, events and censorings at one time, weights, clusters, a
separate censoring sample, tiny and all-censored samples), the result objects, bad input
and memory."""

import json
import math
import tracemalloc
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rankwise as rw
from _support import reference_time_auc as ref


@st.composite
def survival_samples(draw, max_n=12, weights=False, clusters=False):
    n = draw(st.integers(1, max_n))
    time = np.array(draw(st.lists(st.integers(0, 5), min_size=n, max_size=n)), float)
    event = np.array(draw(st.lists(st.booleans(), min_size=n, max_size=n)))
    risk = np.array(draw(st.lists(st.integers(-2, 2), min_size=n, max_size=n)), float)
    w = None
    if weights:
        w = np.array(draw(st.lists(st.sampled_from([0.0, 0.5, 1.0, 2.0, 3.5]), min_size=n, max_size=n)))
    cl = None
    if clusters:
        cl = np.array(draw(st.lists(st.integers(0, 3), min_size=n, max_size=n)))
    return time, event, risk, w, cl


def usable_times(time, event, w):
    live = np.ones(len(time), bool) if w is None else w > 0
    if not (event & live).any():
        return None
    lo, hi = time[event & live].min(), time[live].max()
    cand = np.unique(np.r_[time, time + 0.5])
    return cand[(cand >= lo) & (cand < hi)]


def check_against_reference(time, event, risk, w, cl, censoring=None):
    tt = usable_times(time, event, w)
    if tt is None or len(tt) == 0:
        return False
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # nothing undefined inside the usable range
        res = rw.survival.cumulative_dynamic_auc(time, event, risk, tt, sample_weight=w, clusters=cl,
                                                 censoring=censoring)
    cref = None if censoring is None else (np.asarray(censoring[0], float), np.asarray(censoring[1], bool),
                                           np.ones(len(censoring[0])))
    for j, t in enumerate(tt):
        assert res.values[j] == pytest.approx(ref.auc_t(time, event, risk, t, w, cref), abs=1e-12)
        se = ref.std_error(time, event, risk, t, w, cl, censoring=censoring)
        assert res.std_errors[j] == pytest.approx(se, abs=1e-12) or (math.isnan(se) and math.isnan(res.std_errors[j]))
        wt = np.ones(len(time)) if w is None else w
        assert res.n_cases[j] == pytest.approx(wt[event & (time <= t)].sum())
        assert res.n_controls[j] == pytest.approx(wt[time > t].sum())
    mv, ms = ref.mean_auc(time, event, risk, tt, w, cl, censoring)
    np.testing.assert_allclose(res.mean_weights, ref.mean_weights(time, event, tt, w), atol=1e-13)
    if np.isfinite(mv):
        assert res.mean_value == pytest.approx(mv, abs=1e-12)
        assert res.mean_std_error == pytest.approx(ms, abs=1e-12) or (math.isnan(ms) and math.isnan(res.mean_std_error))
    else:
        assert math.isnan(res.mean_value)
    return True


@settings(max_examples=50)
@given(survival_samples())
def test_equals_the_literal_definition(sample):
    check_against_reference(*sample)


@settings(max_examples=50)
@given(survival_samples(weights=True, clusters=True))
def test_weights_and_clusters_equal_the_literal_definition(sample):
    check_against_reference(*sample)


@settings(max_examples=30)
@given(survival_samples(max_n=10), st.lists(st.tuples(st.integers(0, 6), st.booleans()), min_size=2, max_size=10))
def test_separate_censoring_sample_equals_the_literal_definition(sample, cens_rows):
    time, event, risk, _, _ = sample
    ct = np.array([c[0] for c in cens_rows], float)
    ce = np.array([c[1] for c in cens_rows])
    tt = usable_times(time, event, None)
    if tt is None:
        return
    # Where the reference curve is estimated and positive, and every case's G(T-) > 0.
    grid, _, _, G = ref.censoring_km(ct, ce)
    ok = [t for t in tt if t <= ct.max() and ref.g_right(grid, G, t) > 0
          and all(ref.g_left(grid, G, s) > 0 for s in time[event & (time <= t)])]
    if not ok:
        with pytest.raises(ValueError, match="censoring|times"):
            rw.survival.cumulative_dynamic_auc(time, event, risk, tt, censoring=(ct, ce))
        return
    res = rw.survival.cumulative_dynamic_auc(time, event, risk, ok, censoring=(ct, ce))
    for j, t in enumerate(ok):
        assert res.values[j] == pytest.approx(ref.auc_t(time, event, risk, t, None, (ct, ce, np.ones(len(ct)))),
                                              abs=1e-12)
        assert res.std_errors[j] == pytest.approx(ref.std_error(time, event, risk, t, censoring=(ct, ce)), abs=1e-12)
    mv, ms = ref.mean_auc(time, event, risk, np.array(ok), censoring=(ct, ce))
    assert res.mean_value == pytest.approx(mv, abs=1e-12) and res.mean_std_error == pytest.approx(ms, abs=1e-12)
    assert res.censoring == "reference"


@settings(max_examples=40)
@given(survival_samples(weights=True, clusters=True), st.lists(st.integers(-2, 2), min_size=12, max_size=12))
def test_paired_differences_equal_the_literal_definition(sample, other):
    time, event, a, w, cl = sample
    b = np.array(other[:len(time)], float)
    tt = usable_times(time, event, w)
    if tt is None or len(tt) == 0:
        return
    cmp = rw.survival.compare_cumulative_dynamic_auc(time, event, [a, b], tt, sample_weight=w, clusters=cl)
    assert cmp.names == ("score_1", "score_2") and len(cmp.differences) == len(tt) + 1
    om = ref.mean_weights(time, event, tt, w)
    ua_m = ub_m = 0.0
    for j, t in enumerate(tt):
        ua, _ = ref.terms(time, event, a, t, w)
        ub, _ = ref.terms(time, event, b, t, w)
        ua_m, ub_m = ua_m + om[j] * ua, ub_m + om[j] * ub
        d = cmp.differences[j]
        assert d["time"] == t and d["a"] == "score_1" and d["b"] == "score_2"
        assert d["difference"] == pytest.approx(cmp.aucs[0].values[j] - cmp.aucs[1].values[j], abs=1e-15)
        se = math.sqrt(ref._unit_variance(ua - ub, cl))
        assert d["std_error"] == pytest.approx(se, abs=1e-12)
        if se > 1e-12:
            assert d["p_value"] == pytest.approx(math.erfc(abs(d["difference"] / d["std_error"]) / math.sqrt(2)),
                                                 rel=1e-9, abs=1e-15)
    dm = cmp.differences[-1]
    assert dm["time"] is None
    if np.isfinite(dm["difference"]):
        assert dm["std_error"] == pytest.approx(math.sqrt(ref._unit_variance(ua_m - ub_m, cl)), abs=1e-12)


def test_mean_auc_and_its_standard_error_by_hand():
    rng = np.random.default_rng(5)
    n = 60
    t = np.round(rng.exponential(size=n), 1)
    e = rng.random(n) < 0.7
    r = np.round(rng.normal(size=n) - t, 1)
    tt = [0.2, 0.5, 0.9, 1.4]
    res = rw.survival.cumulative_dynamic_auc(t, e, r, tt)
    om = ref.mean_weights(t, e, tt)
    assert om.sum() == pytest.approx(1.0) and res.mean_value == pytest.approx(np.dot(om, res.values), abs=1e-14)
    mv, ms = ref.mean_auc(t, e, r, tt)
    assert (res.mean_value, res.mean_std_error) == (pytest.approx(mv, abs=1e-13), pytest.approx(ms, abs=1e-13))
    # One time: the mean is that time's AUC.
    one = rw.survival.cumulative_dynamic_auc(t, e, r, [0.5])
    assert one.mean_value == one.values[0] and one.mean_std_error == one.std_errors[0]


def test_frequency_weights_give_the_point_value_of_repeated_rows():
    rng = np.random.default_rng(6)
    n = 80
    t = np.ceil(rng.exponential(size=n) * 4)
    e = rng.random(n) < 0.6
    r = np.round(rng.normal(size=n), 1)
    k = rng.integers(1, 4, size=n)
    tt = np.quantile(t[e], [0.3, 0.6]) + 0.5
    a = rw.survival.cumulative_dynamic_auc(t, e, r, tt, sample_weight=k)
    b = rw.survival.cumulative_dynamic_auc(np.repeat(t, k), np.repeat(e, k), np.repeat(r, k), tt)
    np.testing.assert_allclose(a.values, b.values, atol=1e-13)
    assert a.mean_value == pytest.approx(b.mean_value, abs=1e-13)
    np.testing.assert_allclose(a.n_cases, b.n_cases)


def test_without_censoring_is_the_binary_auc():
    # Nothing censored: G = 1, AUC(t) is the AUC of {T <= t} against {T > t}.
    rng = np.random.default_rng(7)
    t = rng.exponential(size=300)
    r = np.round(rng.normal(size=300) - t, 1)
    for q in (0.2, 0.5, 0.8):
        tq = float(np.quantile(t, q))
        res = rw.survival.cumulative_dynamic_auc(t, np.ones(300, bool), r, [tq])
        assert res.values[0] == pytest.approx(rw.auc(t <= tq, r), abs=1e-13)


def test_clusters_sum_the_terms():
    rng = np.random.default_rng(8)
    n = 120
    t = rng.exponential(size=n)
    e = rng.random(n) < 0.7
    r = rng.normal(size=n) - t
    tt = [0.3, 0.8]
    singles = rw.survival.cumulative_dynamic_auc(t, e, r, tt, clusters=np.arange(n))
    plain = rw.survival.cumulative_dynamic_auc(t, e, r, tt)
    np.testing.assert_allclose(singles.std_errors, plain.std_errors, rtol=1e-13)
    paired = rw.survival.cumulative_dynamic_auc(t, e, r, tt, clusters=np.arange(n) // 2)
    assert paired.n_clusters == 60 and not np.allclose(paired.std_errors, plain.std_errors)


# --- the result objects ----------------------------------------------------------------------

def example():
    return rw.survival.cumulative_dynamic_auc([1, 2, 3, 4, 5, 6, 7, 8], [1, 1, 0, 1, 0, 1, 1, 0],
                                              [0.9, 0.4, 0.7, 0.5, 0.1, 0.6, 0.2, 0.3], [2.5, 4.5, 6.5])


def test_result_object():
    res = example()
    assert res.values[0] == pytest.approx(ref.auc_t([1, 2, 3, 4, 5, 6, 7, 8], np.array([1, 1, 0, 1, 0, 1, 1, 0]) == 1,
                                                    [0.9, 0.4, 0.7, 0.5, 0.1, 0.6, 0.2, 0.3], 2.5))
    lo, hi = res.confidence_intervals(0.9)
    z = 1.6448536269514722
    np.testing.assert_allclose(lo, np.maximum(res.values - z * res.std_errors, 0), atol=1e-12)
    np.testing.assert_allclose(hi, np.minimum(res.values + z * res.std_errors, 1), atol=1e-12)
    llo, lhi = res.confidence_intervals(transform="logit")
    inside = (res.values > 0) & (res.values < 1)
    assert np.all(llo[inside] < res.values[inside]) and np.all(lhi[inside] > res.values[inside])
    assert np.all((llo >= 0) & (lhi <= 1))
    mci = res.mean_confidence_interval()
    assert mci.low <= res.mean_value <= mci.high
    text = res.summary()
    assert "higher risk = earlier event" in text and str(res) == text and "mean AUC" in text
    assert "<table>" in res._repr_html_() and "higher risk = earlier event" in res._repr_html_()
    d = json.loads(json.dumps(res.to_dict()))
    assert d["times"] == [2.5, 4.5, 6.5] and d["direction"] == "higher risk = earlier event"
    assert d["values"] == pytest.approx(res.values.tolist())
    with pytest.raises(ValueError, match="confidence_level"):
        res.confidence_intervals(1.5)
    with pytest.raises(ValueError, match="transform"):
        res.confidence_intervals(transform="probit")
    with pytest.raises(AttributeError):
        res.mean_value = 0.5  # frozen


def test_comparison_object_and_names():
    t = [1, 2, 3, 4, 5, 6, 7, 8]
    e = [1, 1, 0, 1, 0, 1, 1, 0]
    a = [0.9, 0.4, 0.7, 0.5, 0.1, 0.6, 0.2, 0.3]
    b = [0.1, 0.4, 0.7, 0.5, 0.9, 0.6, 0.2, 0.3]
    c = np.column_stack([a, b, a])
    cmp = rw.survival.compare_cumulative_dynamic_auc(t, e, c, [2.5, 4.5], names=["x", "y", "z"],
                                                     confidence_level=0.9)
    assert cmp.names == ("x", "y", "z") and len(cmp.aucs) == 3
    assert [(d["a"], d["b"]) for d in cmp.differences] == [("x", "y")] * 3 + [("x", "z")] * 3 + [("y", "z")] * 3
    same = [d for d in cmp.differences if (d["a"], d["b"]) == ("x", "z")]
    assert all(d["difference"] == 0 and d["std_error"] == 0 and math.isnan(d["p_value"]) for d in same)
    d = cmp.differences[0]
    assert d["low"] == pytest.approx(d["difference"] - 1.6448536269514722 * d["std_error"])
    text = cmp.summary()
    assert "higher risk = earlier event" in text and "x - y" in text and "mean" in text
    assert "<table>" in cmp._repr_html_()
    json.dumps(cmp.to_dict())
    single = rw.survival.cumulative_dynamic_auc(t, e, a, [2.5, 4.5])
    np.testing.assert_allclose(cmp.aucs[0].std_errors, single.std_errors, atol=1e-15)
    with pytest.raises(ValueError, match="at least two"):
        rw.survival.compare_cumulative_dynamic_auc(t, e, [a], [2.5])


# --- bad input -------------------------------------------------------------------------------

T = [1.0, 2.0, 3.0, 4.0, 5.0]
E = [1, 1, 0, 1, 0]
R = [0.9, 0.4, 0.7, 0.5, 0.1]


def test_times_outside_the_follow_up():
    for bad in ([0.5], [5.0], [7.0], [-1.0], [2.0, 6.0]):
        with pytest.raises(ValueError, match=r"'times'.*\[1, 5\)"):
            rw.survival.cumulative_dynamic_auc(T, E, R, bad)
    with pytest.raises(ValueError, match="'times'"):
        rw.survival.cumulative_dynamic_auc(T, E, R, [np.nan])
    with pytest.raises(ValueError, match="'times'"):
        rw.survival.cumulative_dynamic_auc(T, E, R, [])
    with pytest.raises(ValueError, match="'times'"):
        rw.survival.cumulative_dynamic_auc(T, E, R, [[1.5, 2.5]])
    # G(t) = 0 or t beyond a reference censoring sample
    with pytest.raises(ValueError, match="'times'.*censoring"):
        rw.survival.cumulative_dynamic_auc(T, E, R, [3.5], censoring=([1.0, 2.0, 3.0], [1, 1, 0]))


def test_times_are_sorted_and_deduplicated():
    a = rw.survival.cumulative_dynamic_auc(T, E, R, [3.5, 1.5, 3.5, 2.5])
    b = rw.survival.cumulative_dynamic_auc(T, E, R, [1.5, 2.5, 3.5])
    assert a.times.tolist() == [1.5, 2.5, 3.5]
    np.testing.assert_array_equal(a.values, b.values)
    assert rw.survival.cumulative_dynamic_auc(T, E, R, 2.5).times.tolist() == [2.5]


def test_bad_data_is_refused_with_the_argument_named():
    with pytest.raises(ValueError, match="'time'"):
        rw.survival.cumulative_dynamic_auc([1, -2, 3], [1, 1, 0], [1, 2, 3], [1.5])
    with pytest.raises(ValueError, match="time"):
        rw.survival.cumulative_dynamic_auc([1, np.nan, 3], [1, 1, 0], [1, 2, 3], [1.5])
    with pytest.raises(ValueError, match="'event'"):
        rw.survival.cumulative_dynamic_auc([1, 2, 3], [1, 2, 0], [1, 2, 3], [1.5])
    with pytest.raises(ValueError, match="risk"):
        rw.survival.cumulative_dynamic_auc([1, 2, 3], [1, 1, 0], [1, 2], [1.5])
    with pytest.raises(ValueError, match="sample_weight"):
        rw.survival.cumulative_dynamic_auc([1, 2, 3], [1, 1, 0], [1, 2, 3], [1.5], sample_weight=[1, -1, 1])
    with pytest.raises(ValueError, match="clusters"):
        rw.survival.cumulative_dynamic_auc([1, 2, 3], [1, 1, 0], [1, 2, 3], [1.5], clusters=[1, 2])
    with pytest.raises(TypeError, match="'censoring'"):
        rw.survival.cumulative_dynamic_auc([1, 2, 3], [1, 1, 0], [1, 2, 3], [1.5], censoring=[1, 2, 3])
    with pytest.raises(ValueError, match="'censoring'"):
        rw.survival.cumulative_dynamic_auc([1, 2, 3], [1, 1, 0], [1, 2, 3], [1.5], censoring=([1, -2], [1, 0]))
    with pytest.raises(ValueError, match="'b'"):
        rw.survival.compare_cumulative_dynamic_auc([1, 2, 3], [1, 1, 0], {"a": [1, 2, 3], "b": [1, 2]}, [1.5])
    # the reference curve reaches 0 at 3 (its last rows censored) and ends there
    for bad in ([3.0], [4.5]):
        with pytest.raises(ValueError, match="'times'.*G\\(t\\) > 0"):
            rw.survival.cumulative_dynamic_auc([1, 4, 5, 6], [1, 1, 0, 0], [1, 2, 3, 4], bad,
                                               censoring=([1, 3, 3], [1, 0, 0]))


def test_all_censored_warns_and_returns_nan():
    with pytest.warns(rw.UndefinedMetricWarning, match="undefined"):
        res = rw.survival.cumulative_dynamic_auc([1, 2, 3], [0, 0, 0], [1, 2, 3], [1.5, 2.5])
    assert np.isnan(res.values).all() and np.isnan(res.std_errors).all() and math.isnan(res.mean_value)
    assert res.n_events == 0 and res.n_cases.tolist() == [0, 0]
    lo, hi = res.confidence_intervals()
    assert np.isnan(lo).all() and np.isnan(hi).all()
    assert "nan" in res.summary()
    # Events only with weight 0: the same.
    with pytest.warns(rw.UndefinedMetricWarning):
        res = rw.survival.cumulative_dynamic_auc([1, 2, 3], [1, 0, 0], [1, 2, 3], [1.5], sample_weight=[0, 1, 1])
    assert np.isnan(res.values[0])


def test_tiny_samples():
    # one row, or no control after the only event: no usable time
    with pytest.raises(ValueError, match="'times'"):
        rw.survival.cumulative_dynamic_auc([2.0], [1], [0.3], [2.0])
    with pytest.raises(ValueError, match="'times'"):
        rw.survival.cumulative_dynamic_auc([1.0, 2.0], [0, 1], [0.3, 0.2], [1.5])
    res = rw.survival.cumulative_dynamic_auc([1.0, 2.0], [1, 0], [0.3, 0.2], [1.5])
    assert res.values[0] == 1.0 and res.std_errors[0] == 0.0


def test_memory_is_linear():
    # No n x n array: 20,000 rows and 10 times in a few MB (n x n doubles would be 3.2 GB).
    rng = np.random.default_rng(9)
    n = 20_000
    t = rng.exponential(size=n)
    e = rng.random(n) < 0.7
    r = rng.normal(size=n) - t
    tt = np.quantile(t[e], np.linspace(0.1, 0.9, 10))
    rw.survival.cumulative_dynamic_auc(t[:100], e[:100], r[:100], tt[:1])
    tracemalloc.start()
    rw.survival.compare_cumulative_dynamic_auc(t, e, [r, -r], tt)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 60 * n * 8  # a few dozen length-n vectors
