"""rankwise.theory.variance_condition: the fast estimator against its literal definition
(ties, tiny samples, degenerate classes), against closed forms of a law/class pair with a
known exponent, its jackknife standard error against the spread over seeds, and its errors."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from _support import reference_variance as ref
from rankwise import theory as th


@st.composite
def classes(draw):
    n = draw(st.integers(4, 6))
    K = draw(st.integers(2, 3))
    # eta on a dyadic grid (exact arithmetic: a zero is a zero in both codes), 0 and 1 included;
    # scores from a few integers: ties within a member, between members and in the Bayes scores.
    eta = [draw(st.sampled_from([0.0, 0.25, 0.5, 0.75, 1.0])) for _ in range(n)]
    cols = [[float(draw(st.integers(-2, 2))) for _ in range(n)] for _ in range(K)]
    t = None if draw(st.booleans()) else [float(draw(st.integers(-2, 2))) for _ in range(n)]
    return eta, cols, t


@settings(max_examples=40)
@given(classes())
def test_matches_the_literal_definition(case):
    eta, cols, t = case
    want = ref.variance_condition(eta, cols, eta if t is None else t)
    args = (np.array(eta), np.array(cols).T, None if t is None else np.array(t))
    if want is None:
        with pytest.raises(ValueError, match="variance_condition"):
            th.variance_condition(*args)
        return
    got = th.variance_condition(*args)
    lam, var, used, slope, se = want
    np.testing.assert_allclose(got.excess_risk, lam, rtol=1e-10, atol=1e-13)
    np.testing.assert_allclose(got.variance, var, rtol=1e-10, atol=1e-13)
    assert got.used.tolist() == used
    assert got.exponent == pytest.approx(slope, rel=1e-8, abs=1e-10)
    assert got.std_error == pytest.approx(se, rel=1e-7, abs=1e-10)     # inf == inf included
    lo, hi = got.confidence_interval()
    assert (hi - lo) / 2 == pytest.approx(1.959963984540054 * got.std_error, rel=1e-9, abs=1e-12)
    assert got.n == len(eta)


def test_float_eta_and_a_strictly_increasing_transform_of_the_bayes_scores():
    x = np.array([-0.9, -0.5, -0.2, 0.1, 0.35, 0.6, 0.8])
    eta = (1 + x) / 2
    cols = [list(np.where(np.abs(x) <= tau, -x, x)) for tau in (0.4, 0.7, 1.0)]
    lam, var, used, slope, se = ref.variance_condition(list(eta), cols, list(eta))
    for bayes in (None, x, np.exp(3 * x)):          # any increasing transform of eta orders the same
        got = th.variance_condition(eta, np.array(cols).T, bayes)
        np.testing.assert_allclose(got.excess_risk, lam, rtol=1e-10)
        np.testing.assert_allclose(got.variance, var, rtol=1e-10)
        assert got.exponent == pytest.approx(slope, rel=1e-9)
        assert got.std_error == pytest.approx(se, rel=1e-8)


# -- a law and class with a known exponent --------------------------------------------------
# X ~ U[-1, 1], eta(x) = (1 + sign(x)|x|^b)/2, the window rules s_tau = -x on [-tau, tau].
# Lambda(tau) = tau^(b+2)/(b+2); Var(h_tau) from the conditional means of q given x, written
# here as one-dimensional integrals of their definitions (not the experiment's closed form).

def _window_population(tau, b):
    from scipy import integrate

    g = lambda u: np.sign(u) * abs(u) ** b                                           # noqa: E731
    eta = lambda u: 0.5 * (1 + g(u))                                                 # noqa: E731
    # given x in the window and y: E over X' in the window (density 1/2) of the change in loss
    m1 = lambda x: integrate.quad(lambda u: 0.5 * (1 - eta(u)) * np.sign(x - u), -tau, tau, points=[x])[0]  # noqa: E731
    m0 = lambda x: integrate.quad(lambda u: -0.5 * eta(u) * np.sign(x - u), -tau, tau, points=[x])[0]      # noqa: E731
    lam = integrate.quad(lambda x: 0.5 * (eta(x) * m1(x) + (1 - eta(x)) * m0(x)), -tau, tau, limit=200)[0]
    msq = integrate.quad(lambda x: 0.5 * (eta(x) * m1(x) ** 2 + (1 - eta(x)) * m0(x) ** 2), -tau, tau,
                         limit=200)[0]
    return lam, msq - lam * lam


@pytest.mark.parametrize("b", [1.0, 4.0])
def test_recovers_the_exponent_of_a_known_law_and_class(b):
    taus = np.geomspace(0.15, 0.6, 5)
    pop = [_window_population(t, b) for t in taus]
    lam_pop = np.array([p[0] for p in pop])
    var_pop = np.array([p[1] for p in pop])
    np.testing.assert_allclose(lam_pop, taus ** (b + 2) / (b + 2), rtol=1e-6)   # the closed form
    kappa_pop = np.polyfit(np.log(lam_pop), np.log(var_pop), 1)[0]
    assert kappa_pop == pytest.approx(3 / (b + 2), abs=0.01)                      # 1 and 0.5
    x = np.random.default_rng(11).uniform(-1, 1, 700)
    eta = 0.5 * (1 + np.sign(x) * np.abs(x) ** b)
    S = np.stack([np.where(np.abs(x) <= t, -x, x) for t in taus], axis=1)
    vc = th.variance_condition(eta, S, x)
    lo, hi = vc.confidence_interval(0.99)
    assert lo <= kappa_pop <= hi, (vc, kappa_pop)
    assert vc.std_error < 0.05
    assert vc.used.all()
    # constant: the least c over the members, so one member attains it
    assert np.max(vc.variance / vc.excess_risk ** vc.exponent) == pytest.approx(vc.constant)


def test_jackknife_standard_error_is_calibrated():
    # 30 independent samples: the spread of the exponents against the mean jackknife SE.
    b, taus = 2.0, np.geomspace(0.2, 0.7, 4)
    ests, ses = [], []
    for seed in range(30):
        x = np.random.default_rng([7, seed]).uniform(-1, 1, 160)
        vc = th.variance_condition(0.5 * (1 + np.sign(x) * np.abs(x) ** b),
                                   np.stack([np.where(np.abs(x) <= t, -x, x) for t in taus], axis=1), x)
        ests.append(vc.exponent)
        ses.append(vc.std_error)
    ratio = np.std(ests, ddof=1) / np.mean(ses)
    # the sd of 30 draws is within about +-26% (2 SE) of the truth
    assert 0.65 < ratio < 1.5, ratio


def test_errors():
    eta = np.linspace(0.1, 0.9, 6)
    S = np.stack([eta, eta[::-1]], axis=1)
    with pytest.raises(ValueError, match="at least 4 points"):
        th.variance_condition(eta[:3], S[:3])
    with pytest.raises(ValueError, match=r"probabilities in \[0, 1\]"):
        th.variance_condition(eta * 2, S)
    with pytest.raises(ValueError, match=r"shape \(n, K\) = \(6, K\)"):
        th.variance_condition(eta, S[:5])
    with pytest.raises(ValueError, match="K >= 2"):
        th.variance_condition(eta, S[:, :1])
    with pytest.raises(ValueError, match="must have shape \\(6,\\)"):
        th.variance_condition(eta, S, np.ones(5))
    with pytest.raises(ValueError, match="one-dimensional"):
        th.variance_condition(S, S)
    with pytest.raises(TypeError, match="real numbers"):
        th.variance_condition(["a"] * 6, S)
    with pytest.raises(ValueError, match="finite"):
        th.variance_condition(np.r_[eta[:5], np.nan], S)
    with pytest.raises(ValueError, match="confidence_level"):
        th.VarianceCondition(0.5, 0.1, 1.0, np.ones(2), np.ones(2), np.ones(2, bool), 0.0, 10).confidence_interval(1.0)
    # every member orders like eta: no excess risk anywhere
    with pytest.raises(ValueError, match="at least two members with a positive excess risk"):
        th.variance_condition(eta, np.stack([eta, 2 * eta], axis=1))
    # two members, one excess risk: no slope
    x = np.random.default_rng(0).uniform(-1, 1, 20)
    col = np.where(np.abs(x) <= 0.5, -x, x)
    with pytest.raises(ValueError, match="same excess risk"):
        th.variance_condition((1 + x) / 2, np.stack([col, col], axis=1), x)


def test_matches_the_literal_definition_on_random_classes():
    # Seeded draws beside hypothesis's (which shrinks towards degenerate classes): most of these
    # give an exponent, so the comparison of the fitted path is not vacuous.
    fitted = 0
    for seed in range(16):
        rng = np.random.default_rng([5, seed])
        eta = rng.choice([0.0, 0.25, 0.5, 0.75, 1.0], 6)
        cols = [list(rng.integers(-2, 3, 6).astype(float)) for _ in range(3)]
        want = ref.variance_condition(list(eta), cols, list(eta))
        if want is None:
            continue
        fitted += 1
        got = th.variance_condition(eta, np.array(cols).T)
        np.testing.assert_allclose(got.excess_risk, want[0], rtol=1e-10, atol=1e-13)
        np.testing.assert_allclose(got.variance, want[1], rtol=1e-10, atol=1e-13)
        assert got.used.tolist() == want[2]
        assert got.exponent == pytest.approx(want[3], rel=1e-8)
        assert got.std_error == pytest.approx(want[4], rel=1e-7)
    assert fitted >= 8, fitted
