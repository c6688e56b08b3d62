"""Pairwise surrogates over all pairs: fast kernels against the literal double loop.

The O(n^2) definitions live in ``_reference_pairwise.py`` (plain Python loops, no code
shared with rankwise). Labels, scores and weights are generated with ties (integer and
decimal scores, so margins fall exactly on the hinge point) and zero weights.
"""

from __future__ import annotations

import importlib
import math
import os
import runpy
import warnings

import numpy as np
import pytest
from hypothesis import assume, given, strategies as st

from _support import reference_pairwise as ref
from _support.strategies import pair_samples
from _support.paths import BENCH
from rankwise.losses._pairwise import (
    APPROX_GRAD_ERROR,
    APPROX_VALUE_ERROR,
    PAIRWISE,
    PairwiseSurrogate,
    pairwise,
)

# The module itself.
pw_module = importlib.import_module("rankwise.losses._pairwise")

NAMES = ["hinge", "squared_hinge", "squared", "exponential", "logistic"]
EXACT = {"logistic": {"mode": "exact"}}


def _loss(name, **params):
    return pairwise(name, **{**EXACT.get(name, {}), **params})




def _assert_matches(name, y, s, w, margin=1.0, rtol=1e-12):
    params = {} if name in ("exponential", "logistic") else {"margin": margin}
    value, grad = _loss(name, **params).value_and_grad(np.array(y), np.array(s, dtype=float), w)
    rv, rg = ref.pairwise_value_and_grad(name, y, s, w, margin=margin)
    assert value == pytest.approx(rv, rel=rtol, abs=1e-13)
    np.testing.assert_allclose(grad, rg, rtol=rtol, atol=1e-13)


# --- exact kernels == the double loop ------------------------------------------------------

@pytest.mark.parametrize("name", NAMES)
@given(data=pair_samples())
def test_matches_bruteforce_integer_scores(name, data):
    """Integer scores: many ties, and margins exactly at the hinge point 1."""
    _assert_matches(name, *data)


@pytest.mark.parametrize("name", ["hinge", "squared_hinge"])
@pytest.mark.parametrize("margin", [0.5, 2.0])
@given(data=pair_samples(scores=st.integers(-6, 6).map(lambda k: k / 2)))
def test_matches_bruteforce_other_margins(name, margin, data):
    _assert_matches(name, *data, margin=margin)


@pytest.mark.parametrize("name", ["hinge", "squared_hinge"])
@given(data=pair_samples(scores=st.integers(-15, 15).map(lambda k: k * 0.1), max_n=30))
def test_hinge_active_set_is_the_floating_point_definition(name, data):
    """Decimal scores: fl(s_i - s_j) lands on either side of 1 (0.3 - (-0.7) is not 1.0 in
    float64); the kernel must count exactly the pairs the literal loop counts."""
    _assert_matches(name, *data)


@pytest.mark.parametrize("name", ["hinge", "squared_hinge"])
@pytest.mark.parametrize("margin", [1.0, 0.3])
def test_hinge_active_set_at_rounding_boundary(name, margin):
    """Negatives within a few ulps of s_i - margin: there ``s_j > s_i - margin`` and
    ``s_i - s_j < margin`` disagree for some of such pairs in float64; the kernel
    must follow the latter (the definition), on the positive and on the negative side."""
    rng = np.random.default_rng(1)
    sp = rng.uniform(-3, 3, 60)
    sn = []
    for k in (-2, -1, 0, 1, 2):
        t = sp - margin
        for _ in range(abs(k)):
            t = np.nextafter(t, np.inf if k > 0 else -np.inf)
        sn.extend(t.tolist())
    sn.extend(sn[:10])  # tied negatives
    s = list(sp) + sn
    y = [True] * sp.size + [False] * len(sn)
    naive = sum((a - margin < b) != (a - b < margin) for a in sp for b in sn)
    assert naive > 0  # the construction does hit the disagreement
    _assert_matches(name, y, s, None, margin=margin)


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("offset", [0.0, 1e6])
def test_matches_bruteforce_continuous_larger(name, offset):
    """Continuous scores, also far from 0 (the kernels centre before summing)."""
    rng = np.random.default_rng(7)
    n = 150
    y = rng.random(n) < 0.3
    s = rng.normal(0.0, 2.0, n) + y + offset
    w = rng.random(n) * 3
    _assert_matches(name, y.tolist(), s.tolist(), w.tolist(), rtol=1e-9 if offset else 1e-11)


@pytest.mark.parametrize("name", NAMES)
def test_label_encodings_agree(name):
    y = np.array([1, 0, 1, 1, 0, 0, 1])
    s = np.array([0.5, 0.2, -1.0, 2.0, 0.7, 0.7, 0.2])
    loss = _loss(name)
    v01, g01 = loss.value_and_grad(y, s)
    vpm, gpm = loss.value_and_grad(2 * y - 1, s)
    vb, gb = loss.value_and_grad(y.astype(bool), s)
    vl, gl = loss.value_and_grad(np.where(y == 1, "yes", "no"), s, pos_label="yes")
    assert v01 == vpm == vb == vl
    np.testing.assert_array_equal(g01, gpm)
    np.testing.assert_array_equal(g01, gb)
    np.testing.assert_array_equal(g01, gl)
    assert loss.value(y, s) == v01


@pytest.mark.parametrize("name", NAMES)
def test_integer_weights_are_repetitions(name):
    y = np.array([1, 0, 1, 0, 0])
    s = np.array([0.3, 0.1, -0.4, 1.2, 0.3])
    w = np.array([2, 1, 3, 0, 2])
    loss = _loss(name)
    v, g = loss.value_and_grad(y, s, w)
    rep = np.repeat(np.arange(5), w)
    vr, gr = loss.value_and_grad(y[rep], s[rep])
    assert v == pytest.approx(vr, rel=1e-13)
    # the gradient of a repeated observation is the sum over its copies
    np.testing.assert_allclose(g, np.bincount(rep, weights=gr, minlength=5), rtol=1e-12, atol=1e-15)


# --- gradients: central finite differences -------------------------------------------------

@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("weighted", [False, True])
def test_gradient_finite_differences(name, weighted):
    rng = np.random.default_rng(3)
    n, h = 40, 1e-6
    y = rng.random(n) < 0.4
    while True:  # continuous scores, every margin at least 1e-3 from the hinge point
        s = rng.normal(0.0, 1.5, n)
        m = s[y][:, None] - s[~y][None, :]
        if np.abs(m - 1.0).min() > 1e-3:
            break
    w = rng.random(n) * 2 if weighted else None
    loss = _loss(name)
    _, g = loss.value_and_grad(y, s, w)
    fd = np.empty(n)
    for k in range(n):
        e = np.zeros(n)
        e[k] = h
        fd[k] = (loss.value(y, s + e, w) - loss.value(y, s - e, w)) / (2 * h)
    np.testing.assert_allclose(g, fd, rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("name", NAMES)
def test_phi_dphi_elementwise(name):
    loss = pairwise(name)
    m = np.linspace(-5, 5, 101)
    for mk, p, d in zip(m, loss.phi(m), loss.dphi(m)):
        assert p == pytest.approx(ref._phi(name, mk, 1.0), rel=1e-14, abs=1e-15)
        assert d == pytest.approx(ref._dphi(name, mk, 1.0), rel=1e-14, abs=1e-15)


# --- logistic: exact, approximate, auto ----------------------------------------------------

def _approx_errors(y, s, w=None):
    """(|value error|, max gradient error / (w_k / W_class)) of approx against exact."""
    ex = pairwise("logistic", mode="exact").evaluate(y, s, w)
    ap = pairwise("logistic", mode="approx").evaluate(y, s, w)
    assert (ex.mode, ap.mode) == ("exact", "approx")
    w = np.ones(len(s)) if w is None else np.asarray(w, dtype=float)
    wclass = np.where(y, w[y].sum(), w[~y].sum())
    scale = w / wclass
    ok = scale > 0
    gerr = np.max(np.abs(ap.grad - ex.grad)[ok] / scale[ok])
    assert np.all(ap.grad[~ok] == 0)
    return abs(ap.value - ex.value), gerr, ex.value


@pytest.mark.parametrize(
    "case",
    ["normal_0.3", "normal_3", "normal_30", "uniform_1000", "separated_1000", "ties_int", "offset_1e6"],
)
def test_logistic_approx_within_stated_bound(case, record_property):
    rng = np.random.default_rng(11)
    n = 2000
    y = rng.random(n) < 0.3
    w = rng.random(n) * 2
    kind, scale = case.split("_")
    if kind == "normal":
        s = rng.normal(0.0, float(scale), n) + y
    elif kind == "uniform":
        s = rng.uniform(-1000, 1000, n)
    elif kind == "separated":  # large-magnitude scores, classes apart: mostly tail pairs
        s = np.where(y, rng.uniform(-20, 1000, n), rng.uniform(-1000, 20, n))
    elif kind == "ties":
        s = rng.integers(-40, 41, n).astype(float)
    else:  # a huge common offset: bins are found relative to the smallest score
        s = 1e6 + rng.normal(0.0, 5.0, n)
    verr, gerr, value = _approx_errors(y, s, w)
    record_property("value_error", float(verr))
    record_property("grad_error", float(gerr))
    print(f"{case}: F = {value:.6g}, |F_approx - F| = {verr:.2e}, grad error / (w/W_class) = {gerr:.2e}")
    assert verr <= APPROX_VALUE_ERROR + 1e-14 * abs(value)
    assert gerr <= APPROX_GRAD_ERROR + 1e-13


@given(data=pair_samples(scores=st.integers(-80, 80).map(lambda k: k / 4), max_n=20))
def test_logistic_approx_within_bound_small_samples(data):
    y, s, w = data
    verr, gerr, value = _approx_errors(np.array(y), np.array(s, dtype=float), w)
    assert verr <= APPROX_VALUE_ERROR + 1e-14 * abs(value)
    assert gerr <= APPROX_GRAD_ERROR + 1e-13


def test_logistic_approx_bound_is_tight():
    """The stated bounds are per-pair maxima; a one-pair sample attains the per-pair error,
    so the bound must be within 100x of what is observed on such samples (it is within ~1.1x)."""
    worst_v = worst_g = 0.0
    margins = np.concatenate([np.linspace(-31.5, 31.5, 2521), np.linspace(-3, 3, 1201)])
    for m in margins:
        for base in (0.0, 0.37):  # two placements on the bin grid
            verr, gerr, _ = _approx_errors(np.array([True, False]), np.array([base + m, base]))
            worst_v = max(worst_v, verr)
            worst_g = max(worst_g, gerr)
    print(f"one-pair samples: worst |F error| = {worst_v:.3e} (bound {APPROX_VALUE_ERROR:.1e}), "
          f"worst grad error = {worst_g:.3e} (bound {APPROX_GRAD_ERROR:.1e})")
    assert worst_v <= APPROX_VALUE_ERROR and worst_g <= APPROX_GRAD_ERROR
    assert APPROX_VALUE_ERROR <= 100 * worst_v
    assert APPROX_GRAD_ERROR <= 100 * worst_g


def test_logistic_approx_bound_recomputed_on_a_fine_grid():
    """White box: the interpolants' errors over every offset, on a 20001-point grid (finer
    than the 4001 points the stated constants came from), plus the tails e^{-30}."""
    val, grad, _, _ = pw_module._logistic_tables()
    u = np.linspace(-1.0, 1.0, 20001)
    ev = eg = 0.0
    for row, d in enumerate(range(-pw_module._K + 1, pw_module._K)):
        m = pw_module._DELTA * (d + u)
        ev = max(ev, np.abs(np.polynomial.polynomial.polyval(u, val[row]) - [ref._phi("logistic", x, 1) for x in m]).max())
        eg = max(eg, np.abs(np.polynomial.polynomial.polyval(u, grad[row]) - [ref._dphi("logistic", x, 1) for x in m]).max())
    tail = math.log1p(math.exp(-pw_module._DELTA * (pw_module._K - 1)))
    assert ev + tail <= APPROX_VALUE_ERROR <= 1.25 * (ev + tail)
    assert eg + tail <= APPROX_GRAD_ERROR <= 1.25 * (eg + tail)


def test_logistic_auto_mode():
    loss = pairwise("logistic")
    assert loss.params == {"mode": "auto", "exact_max_pairs": 1e6}
    assert loss.mode_for(1000, 1000) == "exact"
    assert loss.mode_for(1000, 1001) == "approx"
    assert pairwise("logistic", exact_max_pairs=0).mode_for(1, 1) == "approx"
    assert pairwise("logistic", mode="exact").mode_for(10**6, 10**6) == "exact"
    assert pairwise("hinge").mode_for(10**6, 10**6) == "exact"
    y = np.array([1, 0, 0, 1, 0])
    s = np.array([0.1, 0.4, -2.0, 3.0, 0.0])
    r = loss.evaluate(y, s)
    assert (r.mode, r.error_bound) == ("exact", 0.0)
    r2 = pairwise("logistic", exact_max_pairs=5).evaluate(y, s)
    assert (r2.mode, r2.error_bound) == ("approx", APPROX_VALUE_ERROR)
    assert abs(r2.value - r.value) <= APPROX_VALUE_ERROR


def test_logistic_exact_blocks(monkeypatch):
    """Blocking over positives and over negatives gives the unblocked sums."""
    rng = np.random.default_rng(5)
    y = rng.random(300) < 0.4
    s = rng.normal(0, 4, 300)
    w = rng.random(300)
    v0, g0 = pairwise("logistic", mode="exact").value_and_grad(y, s, w)
    monkeypatch.setattr(pw_module, "_BLOCK_ELEMENTS", 37)   # < n_neg: blocks of negatives too
    v1, g1 = pairwise("logistic", mode="exact").value_and_grad(y, s, w)
    assert v1 == pytest.approx(v0, rel=1e-13)
    np.testing.assert_allclose(g1, g0, rtol=1e-12, atol=1e-16)


# --- exponential: no overflow where the true value is finite -------------------------------

@pytest.mark.parametrize("lo_pos, hi_pos, lo_neg, hi_neg", [
    (-500, 500, -500, 500),      # F about e^{1000}: infinite, checked below
    (200, 500, -500, 300),       # F up to e^{100}
    (600, 1000, -1000, 800),     # e^{800} alone overflows, F does not
    (800, 900, 700, 750),        # e^{-800} alone underflows, F ~ e^{-50}
    (-1000, -990, -1000, -995),  # all scores at -1000
])
def test_exponential_large_scores(lo_pos, hi_pos, lo_neg, hi_neg):
    rng = np.random.default_rng(2)
    n = 200
    y = np.arange(n) % 3 == 0
    s = np.where(y, rng.uniform(lo_pos, hi_pos, n), rng.uniform(lo_neg, hi_neg, n))
    w = rng.random(n) + 0.1
    log_true = ref.exponential_log_value(y.tolist(), s.tolist(), w.tolist())
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        value, grad = pairwise("exponential").value_and_grad(y, s, w)
    if log_true > math.log(np.finfo(float).max):
        assert value == math.inf
        return
    assert np.isfinite(value) and np.all(np.isfinite(grad))
    assert math.log(value) == pytest.approx(log_true, rel=1e-13, abs=1e-12)
    # d log F / d s_i = -w_i e^{-s_i} / S+ on positives, +w_j e^{s_j} / S- on negatives: each
    # class's gradient sums to -F and +F.
    assert grad[~y].sum() == pytest.approx(value, rel=1e-12)
    assert grad[y].sum() == pytest.approx(-value, rel=1e-12)
    assert np.all(grad[y] <= 0) and np.all(grad[~y] >= 0)


def test_exponential_overflow_is_inf_without_warning():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        v, g = pairwise("exponential").value_and_grad([1, 0], [-500.0, 500.0])
    assert v == math.inf and g[0] == -math.inf and g[1] == math.inf


def test_zero_weight_extreme_scores_do_not_poison_the_gradient():
    y = np.array([1, 1, 0, 0])
    s = np.array([0.0, -2000.0, 0.5, 3000.0])
    w = np.array([1.0, 0.0, 1.0, 0.0])
    for name in NAMES:
        v, g = _loss(name).value_and_grad(y, s, w)
        rv, rg = ref.pairwise_value_and_grad(name, [True, False], [0.0, 0.5])
        assert v == pytest.approx(rv, rel=1e-13)
        np.testing.assert_allclose(g, [rg[0], 0.0, rg[1], 0.0], rtol=1e-13)


# --- the API and its errors ----------------------------------------------------------------

def test_registry_and_repr():
    assert list(PAIRWISE) == NAMES
    assert isinstance(pairwise("hinge"), PairwiseSurrogate)
    assert repr(pairwise("hinge", margin=2)) == "pairwise('hinge', margin=2.0)"
    assert pairwise("squared").params == {"margin": 1.0}
    assert pairwise("exponential").params == {}


def test_squared_is_twice_paper_003_risk():
    """Gultekin & Paisley's (2020, "Risk bounds for low cost bipartite ranking") risk is 1/2 (1 - m)^2 averaged over pairs: half of ours."""
    rng = np.random.default_rng(4)
    y = rng.random(50) < 0.5
    s = rng.normal(size=50)
    m = s[y][:, None] - s[~y][None, :]
    assert pairwise("squared").value(y, s) == pytest.approx(2 * np.mean(0.5 * (1 - m) ** 2), rel=1e-13)


def test_unknown_name():
    with pytest.raises(ValueError, match="valid names are 'hinge', 'squared_hinge', 'squared', 'exponential', 'logistic'"):
        pairwise("savage")


def test_bad_parameters():
    with pytest.raises(ValueError, match=r"^The 'margin' parameter of pairwise must be a float in \(0, inf\). Got -1 instead.$"):
        pairwise("hinge", margin=-1)
    with pytest.raises(ValueError, match="'margin' parameter"):
        pairwise("squared", margin=0)
    with pytest.raises(TypeError, match="'margin' parameter"):
        pairwise("squared", margin="1")
    with pytest.raises(ValueError, match="'mode' parameter of pairwise must be one of"):
        pairwise("logistic", mode="fast")
    with pytest.raises(ValueError, match="'exact_max_pairs'"):
        pairwise("logistic", exact_max_pairs=-5)
    with pytest.raises(TypeError, match="unexpected parameter.*'mode'.*accepts 'margin'"):
        pairwise("hinge", mode="exact")
    with pytest.raises(TypeError, match="accepts no parameters"):
        pairwise("exponential", margin=1.0)


@pytest.mark.parametrize("name", NAMES)
def test_input_errors(name):
    loss = pairwise(name)
    with pytest.raises(ValueError, match="needs both classes: y_true has no negatives"):
        loss.value_and_grad([1, 1, 1], [0.1, 0.2, 0.3])
    with pytest.raises(ValueError, match="needs both classes: y_true has no positives"):
        loss.value([0, 0], [0.1, 0.2])
    with pytest.raises(ValueError, match="needs both classes.*with positive weight"):
        loss.value_and_grad([1, 0, 0], [0.1, 0.2, 0.3], [0.0, 1.0, 1.0])
    with pytest.raises(ValueError, match="NaN"):
        loss.value_and_grad([1, 0], [np.nan, 0.2])
    with pytest.raises(ValueError, match="infinite"):
        loss.value_and_grad([1, 0], [np.inf, 0.2])
    with pytest.raises(ValueError, match="same length"):
        loss.value_and_grad([1, 0, 1], [0.1, 0.2])
    with pytest.raises(ValueError, match="same length"):
        loss.value_and_grad([1, 0], [0.1, 0.2], [1.0])
    with pytest.raises(ValueError, match="negative"):
        loss.value_and_grad([1, 0], [0.1, 0.2], [1.0, -1.0])
    with pytest.raises(ValueError, match="two distinct label values"):
        loss.value_and_grad([0, 1, 2], [0.1, 0.2, 0.3])
    with pytest.raises(TypeError, match="real numbers"):
        loss.value_and_grad([0, 1], ["a", "b"])


def test_accepts_lists_ints_and_column_vectors():
    loss = pairwise("hinge")
    v1, g1 = loss.value_and_grad([1, 0, 1], [2, 0, 1])
    v2, g2 = loss.value_and_grad(np.array([[1], [0], [1]]), np.array([[2.0], [0.0], [1.0]]))
    assert v1 == v2 == 0.0  # margins 2 and 1: both at or past the hinge point
    np.testing.assert_array_equal(g1, g2)
    assert g1.dtype == np.float64 and g1.shape == (3,)


# --- the benchmark script runs (timings never asserted) ------------------------------------

def test_bench_pairwise_quick(capsys):
    path = os.path.join(BENCH, "bench_pairwise.py")
    mod = runpy.run_path(path)
    assert mod["main"](["--quick"]) == 0
    out = capsys.readouterr().out
    assert "hinge" in out and "logistic exact" in out and "logistic approx" in out
