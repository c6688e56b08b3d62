"""The point functions of groups and strata against literal definitions:
:func:`rw.bias_aucs` (Borkan et al. 2019), :func:`rw.xauc` (Kallus & Zhou 2019) and
:func:`rw.stratified_auc` (the four weightings).

The references (``tests/_support/reference_groups.py``) compute ``A(P, N)`` by the double
loop over the pairs of two row sets, weights multiplying and ties counting 1/2. Generated
inputs (hypothesis, derandomised, few examples) with ties, integer and fractional weights,
zero weights and groups of one class; hand-checked examples; frequency weights as repeated
rows; bad input.
"""

import math
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rankwise as rw
from _support import reference_groups as rg

UNDEFINED = "ignore::rankwise.UndefinedMetricWarning"


def close(actual, expected, rtol=1e-12, atol=1e-14, what=""):
    a, e = float(actual), float(expected)
    if math.isnan(e):
        assert math.isnan(a), f"{what}: {a} where the reference is nan"
        return
    assert abs(a - e) <= atol + rtol * abs(e), f"{what}: {a!r} != {e!r} (reference)"


@st.composite
def samples(draw, max_n=24, max_groups=5, weights=True):
    """``(y, s, groups, w)``: hypothesis draws the shape, a seeded generator the rows.
    Both classes overall; zero weights allowed anywhere (a group may hold one class only
    by its rows or by its weights)."""
    n = draw(st.integers(4, max_n))
    G = draw(st.integers(1, max_groups))
    rng = np.random.default_rng(draw(st.integers(0, 2 ** 32 - 1)))
    codes = [int(v) for v in rng.integers(0, G, n)]
    y = [int(v) for v in rng.integers(0, 2, n)]
    y[0], y[1] = 1, 0
    if G > 1 and draw(st.booleans()):  # a group of positives only
        y = [1 if c == G - 1 else v for c, v in zip(codes, y)]
        y[1] = 0
        codes[1] = 0
    if draw(st.booleans()):
        s = [float(v) for v in rng.integers(-3, 4, n)]
    else:
        s = [round(float(v), 1) for v in rng.normal(size=n) + 0.8 * np.asarray(y)]
    groups = codes if draw(st.booleans()) else [f"g{c}" for c in codes]
    w = None
    kind = draw(st.sampled_from(["none", "int", "frac"])) if weights else "none"
    if kind != "none":
        pool = [0.0, 1.0, 2.0, 3.0] if kind == "int" else [0.0, 0.3, 0.5, 1.0, 1.5, 2.0]
        w = [float(v) for v in rng.choice(pool, n)]
        w[0] = w[1] = 1.0
    return y, s, groups, w


# --- bias AUCs ---------------------------------------------------------------------------------

@pytest.mark.filterwarnings(UNDEFINED)
@settings(max_examples=50)
@given(samples())
def test_bias_aucs_against_reference(sample):
    y, s, groups, w = sample
    got = rw.bias_aucs(y, s, groups, sample_weight=w)
    ref = rg.bias_aucs(y, s, groups, w)
    assert list(got) == sorted(ref)
    for g, row in ref.items():
        assert list(got[g]) == list(rg.BIAS)
        for name, v in row.items():
            close(got[g][name], v, what=f"{name} of {g}")


@settings(max_examples=20)
@given(samples(weights=False))
def test_bias_aucs_warn_when_undefined(sample):
    y, s, groups, _ = sample
    ref = rg.bias_aucs(y, s, groups)
    undefined = any(math.isnan(v) for row in ref.values() for v in row.values())
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        rw.bias_aucs(y, s, groups)
    warned = any(issubclass(c.category, rw.UndefinedMetricWarning) for c in caught)
    assert warned == undefined


def test_bias_aucs_by_hand():
    # a: positives 0.9 | negatives 0.1, 0.5; b: positives 0.6, 0.4 | negative 0.2
    y = [0, 1, 0, 1, 0, 1]
    s = [0.1, 0.9, 0.5, 0.6, 0.2, 0.4]
    g = ["a", "a", "a", "b", "b", "b"]
    b = rw.bias_aucs(y, s, g)
    # a's negative AEG: 1/2 - A(a's negatives 0.1, 0.5 over b's negative 0.2) = 1/2 - 1/2
    assert b["a"] == {"subgroup_auc": 1.0, "bpsn_auc": 0.75, "bnsp_auc": 1.0, "aeg_positive": -0.5,
                      "aeg_negative": 0.0}
    # b: BPSN = a's positive 0.9 over b's negative 0.2 = 1; BNSP = b's positives 0.6, 0.4
    # over a's negatives 0.1, 0.5 = 3/4; positive AEG = 1/2 - A(b's 0.6, 0.4 over a's 0.9) = 1/2
    assert b["b"] == {"subgroup_auc": 1.0, "bpsn_auc": 1.0, "bnsp_auc": 0.75, "aeg_positive": 0.5,
                      "aeg_negative": 0.0}
    # ties count 1/2, weights multiply
    w = [1.0, 2.0, 1.0, 1.0, 3.0, 1.0]
    st_ = [0.5, 0.5, 0.5, 0.2, 0.2, 0.9]
    got = rw.bias_aucs(y, st_, g, sample_weight=w)
    assert got["a"]["subgroup_auc"] == pytest.approx(0.5)
    # BNSP of b: positives 0.2 (w 1), 0.9 (w 1) over a's negatives 0.5 (w 1), 0.5 (w 1)
    assert got["b"]["bnsp_auc"] == pytest.approx(0.5)


# --- xAUC --------------------------------------------------------------------------------------

@pytest.mark.filterwarnings(UNDEFINED)
@settings(max_examples=50)
@given(samples(), st.data())
def test_xauc_against_reference(sample, data):
    y, s, groups, w = sample
    ids = sorted(set(groups))
    if len(ids) < 2:
        return
    a, b = data.draw(st.permutations(ids))[:2]
    got = rw.xauc(y, s, groups, a, b, sample_weight=w)
    ref = rg.xauc(y, s, groups, a, b, w)
    for name in rw.XAUC._fields:
        close(getattr(got, name), ref[name], what=name)
    back = rw.xauc(y, s, groups, b, a, sample_weight=w)
    close(back.xauc, got.reverse, rtol=0, atol=0)
    close(back.disparity, -got.disparity, rtol=0, atol=0)
    close(back.balanced_positive_a, got.balanced_positive_b, rtol=0, atol=0)


def test_xauc_by_hand():
    y = [0, 1, 0, 1, 0, 1]
    s = [0.1, 0.9, 0.5, 0.6, 0.2, 0.4]
    g = ["a", "a", "a", "b", "b", "b"]
    x = rw.xauc(y, s, g, "a", "b")
    # a's positive 0.9 over b's negative 0.2: 1; b's positives 0.6, 0.4 over a's 0.1, 0.5: 3/4
    assert (x.xauc, x.reverse) == (1.0, 0.75)
    assert x.disparity == pytest.approx(0.25)
    # balanced: a's positive over all negatives: 1; all positives over a's negatives 0.1, 0.5: 5/6
    assert x.balanced_positive_a == 1.0 and x.balanced_negative_a == pytest.approx(5 / 6)
    # ids matched by value or by their text
    y2 = y + [1, 0]
    assert rw.xauc(y2, s + [0.3, 0.3], [1, 1, 1, 2, 2, 2, 3, 3], "1", 2).xauc == 1.0


def test_xauc_undefined_warns():
    with pytest.warns(rw.UndefinedMetricWarning):
        x = rw.xauc([1, 0, 1, 1], [0.1, 0.2, 0.3, 0.4], ["a", "a", "b", "b"], "a", "b")
    assert math.isnan(x.xauc) and x.reverse == 1.0


# --- stratified AUC ---------------------------------------------------------------------------

@pytest.mark.filterwarnings(UNDEFINED)
@settings(max_examples=50)
@given(samples(), st.sampled_from(rg.WEIGHTINGS))
def test_stratified_auc_against_reference(sample, weighting):
    y, s, strata, w = sample
    got = rw.stratified_auc(y, s, strata, weighting=weighting, sample_weight=w)
    close(got, rg.stratified_auc(y, s, strata, weighting, w), what=weighting)
    if weighting == "pairs" and math.isfinite(got):
        close(got, rg.pairs_within_strata(y, s, strata, w), what="pairs within strata")


def test_stratified_auc_by_hand():
    y = [0, 1, 0, 1, 0, 0, 1, 1]
    s = [0.1, 0.9, 0.5, 0.3, 0.2, 0.6, 0.7, 0.8]
    strata = ["a"] * 4 + ["b"] * 4
    # a: 0.9 beats 0.1, 0.5; 0.3 beats 0.1 -> 3/4. b: 0.7 and 0.8 beat 0.2 and 0.6 -> 1.
    assert rw.stratified_auc(y, s, strata) == 0.875  # 4 pairs each
    assert rw.stratified_auc(y, s, strata, weighting="positives") == 0.875  # 2 positives each
    assert rw.stratified_auc(y, s, strata, weighting="uniform") == 0.875
    # a stratum of one class is skipped
    s3 = strata[:]
    s3[0] = "c"  # c: one negative only; a: 0.9, 0.3 over 0.5 -> 1/2
    assert rw.stratified_auc(y, s, s3, weighting="uniform") == pytest.approx(0.75)
    # one stratum: the AUC
    assert rw.stratified_auc(y, s, ["x"] * 8) == pytest.approx(rw.auc(y, s))
    # a constant shift within a stratum changes the pooled AUC, not the stratified one
    shifted = [v + (10 if g == "b" else 0) for v, g in zip(s, strata)]
    assert rw.stratified_auc(y, shifted, strata) == 0.875
    assert rw.auc(y, shifted) != rw.auc(y, s)


@pytest.mark.filterwarnings(UNDEFINED)
@settings(max_examples=25)
@given(samples(max_n=14, max_groups=3, weights=False), st.data())
def test_weights_are_repeated_rows(sample, data):
    """Integer frequency weights (zero included) give the values of the rows repeated (to
    rounding: the sums run in another order)."""
    y, s, groups, _ = sample
    w = data.draw(st.lists(st.integers(0, 3), min_size=len(y), max_size=len(y)))
    w[0], w[1] = max(w[0], 1), max(w[1], 1)
    reps = [int(v) for v in w]
    yr = [v for v, k in zip(y, reps) for _ in range(k)]
    sr = [v for v, k in zip(s, reps) for _ in range(k)]
    gr = [v for v, k in zip(groups, reps) for _ in range(k)]
    wf = [float(v) for v in w]
    a = rw.bias_aucs(y, s, groups, sample_weight=wf)
    b = rw.bias_aucs(yr, sr, gr)
    for g in b:  # a group whose rows all weigh 0 is a group here and no group there
        for name in rg.BIAS:
            close(a[g][name], b[g][name], rtol=1e-14, atol=1e-15)
    for weighting in rg.WEIGHTINGS:
        close(rw.stratified_auc(y, s, groups, weighting=weighting, sample_weight=wf),
              rw.stratified_auc(yr, sr, gr, weighting=weighting), rtol=1e-14, atol=1e-15)
    ids = sorted(set(gr))
    if len(ids) > 1:
        x, z = rw.xauc(y, s, groups, ids[0], ids[1], sample_weight=wf), rw.xauc(yr, sr, gr, ids[0], ids[1])
        for name in rw.XAUC._fields:
            close(getattr(x, name), getattr(z, name), rtol=1e-14, atol=1e-15)


# --- bad input ---------------------------------------------------------------------------------

Y = [0, 1, 0, 1, 1, 0]
S = [0.1, 0.9, 0.3, 0.2, 0.8, 0.5]
G = ["a", "a", "a", "b", "b", "b"]

CALLS = {
    "bias_aucs": lambda groups, **kw: rw.bias_aucs(Y, S, groups, **kw),
    "xauc": lambda groups, **kw: rw.xauc(Y, S, groups, "a", "b", **kw),
    "stratified_auc": lambda groups, **kw: rw.stratified_auc(Y, S, groups, **kw),
}
NAME = {"bias_aucs": "groups", "xauc": "groups", "stratified_auc": "strata"}
BAD_IDS = [
    ("short", G[:-1], ValueError),
    ("long", G + ["a"], ValueError),
    ("none_id", [None] + G[1:], ValueError),
    ("nan_float", [float("nan"), 1.0, 1.0, 2.0, 2.0, 2.0], ValueError),
    ("nan_object", np.array([float("nan")] + G[1:], dtype=object), ValueError),
    ("missing", None, TypeError),
    ("scalar", "a", TypeError),
]


@pytest.mark.parametrize("func", list(CALLS))
@pytest.mark.parametrize("ids,exc", [b[1:] for b in BAD_IDS], ids=[b[0] for b in BAD_IDS])
def test_bad_ids(func, ids, exc):
    with pytest.raises(exc, match=NAME[func]):
        CALLS[func](ids)


def test_bad_other():
    with pytest.raises(ValueError, match="different"):
        rw.xauc(Y, S, G, "a", "a")
    with pytest.raises(ValueError, match="'b'"):
        rw.xauc(Y, S, G, "a", "z")
    with pytest.raises(ValueError, match="'a'"):
        rw.xauc(Y, S, G, "z", "b")
    with pytest.raises(ValueError, match="weighting"):
        rw.stratified_auc(Y, S, G, weighting="rows")
    for f in (lambda: rw.bias_aucs([], [], []), lambda: rw.xauc([], [], [], "a", "b"),
              lambda: rw.stratified_auc([], [], [])):
        with pytest.raises(ValueError, match="y_true.*empty"):
            f()
    with pytest.raises(ValueError, match="sample_weight"):
        rw.bias_aucs(Y, S, G, sample_weight=[1.0])
