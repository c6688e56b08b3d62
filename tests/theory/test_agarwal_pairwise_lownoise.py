"""Agarwal (2014) beyond Theorem 13: the induced pair distribution, the pairwise exponential and
logistic bounds, and Theorem 15 with an explicit constant.

Exact checks against the literal definitions of ``_support/reference_agarwal.py`` on finite
laws (hypothesis, derandomised: ties in eta and in the scores, eta at 0 and 1, one or two
points); Monte Carlo checks at 4 standard errors with fixed seeds."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from scipy.optimize import minimize_scalar
from scipy.special import expit

from _support import reference_agarwal as ref
from rankwise import theory as th

Z = 4.0


@st.composite
def finite_laws(draw, max_k=5):
    """A finite law (pi, eta) with 0 < p < 1 and a scorer s with ties."""
    k = draw(st.integers(1, max_k))
    pi = np.array(draw(st.lists(st.integers(1, 9), min_size=k, max_size=k)), dtype=float)
    pi /= pi.sum()
    eta = np.array(draw(st.lists(st.sampled_from([0.0, 0.1, 0.25, 0.5, 0.6, 0.9, 1.0]), min_size=k, max_size=k)))
    p = float(np.dot(pi, eta))
    assume(1e-9 < p < 1 - 1e-9)
    s = [float(v) for v in draw(st.lists(st.integers(-2, 2), min_size=k, max_size=k))]
    return pi, eta, s


# ----------------------------------------------------------------------------
# The pair distribution
# ----------------------------------------------------------------------------

@given(finite_laws())
def test_pair_eta_and_weight_match_the_rejection_sampler(law):
    pi, eta, _ = law
    p = float(np.dot(pi, eta))
    mass, pos = ref.pair_law(pi, eta)
    w = th.pair_weight(eta[:, None], eta[None, :], p)
    np.testing.assert_allclose(w * np.outer(pi, pi), mass, rtol=1e-12, atol=1e-15)
    q = th.pair_eta(eta[:, None], eta[None, :])
    seen = mass > 0
    np.testing.assert_allclose(q[seen], pos[seen] / mass[seen], rtol=1e-12, atol=1e-15)
    assert abs(pos.sum() - 0.5) < 1e-12                      # Eq. (17): the pair law is balanced
    assert np.all(q[~seen] == 0.5)                           # never drawn: the documented 1/2


@given(finite_laws())
def test_ranking_regret_is_the_pairwise_01_regret(law):
    """Eq. (24), ties included (sign(0) = -1 on pairs, 1/2 in the ranking error)."""
    pi, eta, s = law
    regret = ref.ranking_error(pi, eta, s) - ref.bayes_ranking_error(pi, eta)
    assert abs(regret - ref.pair_01_regret(pi, eta, s)) < 1e-12


@pytest.mark.parametrize("loss", ["exponential", "logistic"])
@given(law=finite_laws(max_k=4), scale=st.sampled_from([0.0, 0.3, 1.0, 3.0]))
def test_pairwise_bound_holds_on_finite_laws(loss, law, scale):
    pi, eta, s = law
    s = [scale * v for v in s]
    regret = ref.ranking_error(pi, eta, s) - ref.bayes_ranking_error(pi, eta)
    z = ref.pair_phi_regret(loss, pi, eta, s)
    assert z >= -1e-9
    tight = th.pairwise_bound(max(z, 0.0), loss, tight=True)
    assert regret <= tight + 1e-7
    assert tight <= th.pairwise_bound(max(z, 0.0), loss) + 1e-12


@pytest.mark.parametrize("loss", ["exponential", "logistic"])
def test_psi_inverse_inverts_the_literal_psi_transform(loss):
    for theta in (0.0, 0.05, 0.3, 0.7, 0.95):
        z = ref.psi(loss, theta)
        assert abs(th.pairwise_bound(z, loss, tight=True) - theta) < 1e-6
        assert th.pairwise_bound(z, loss) >= theta            # sqrt(2 z) >= psi^{-1}(z)


@pytest.mark.parametrize("loss", ["exponential", "logistic"])
def test_pairwise_bound_is_tight_on_two_points(loss):
    """Two points, eta = 1 - e and e, a scorer reversing them by a hair: the pairs of a point with
    itself carry eta~ = 1/2 and no regret, both orders of the mixed pair are misclassified and
    carry all of it (mass 2m -> 1, psi(2m theta) ~ 2m psi(theta)), so psi^{-1} is nearly attained.
    (A tie would not do: it costs psi(theta) on both orders but counts 1/2 in the ranking error.)"""
    e = 0.01
    pi, eta, s = np.array([0.5, 0.5]), np.array([1 - e, e]), [0.0, 1e-9]
    regret = ref.ranking_error(pi, eta, s) - ref.bayes_ranking_error(pi, eta)
    z = ref.pair_phi_regret(loss, pi, eta, s)
    ratio = th.pairwise_bound(z, loss, tight=True) / regret
    assert 1.0 <= ratio < 1.03


@pytest.mark.parametrize("loss,link", [("exponential", 0.5), ("logistic", 1.0)])
def test_pairwise_surrogate_regret_against_rejection_sampling(loss, link):
    dist = th.BinormalShared([1.0, 0.5], [0.0, 0.0], np.eye(2), p=0.3)
    score = th.LinearScore([0.4, -0.6], 0.2)
    got = th.pairwise_surrogate_regret(dist, score, loss, n_mc=100_000, random_state=1)
    # Literal: pairs of the rejection sampler, the loss at the oriented difference, minus the
    # conditional Bayes risk at eta~ written out here.
    X, y = dist.sample(400_000, random_state=2)
    A, B, ya, yb = X[:200_000], X[200_000:], y[:200_000], y[200_000:]
    keep = ya != yb
    A, B, ya = A[keep], B[keep], ya[keep]
    ea, eb = dist.eta(A), dist.eta(B)
    q = ea * (1 - eb) / (ea * (1 - eb) + eb * (1 - ea))
    d = score(A) - score(B)
    m = np.where(ya == 1, d, -d)
    if loss == "exponential":
        term = np.exp(-m) - 2 * np.sqrt(q * (1 - q))
    else:
        term = np.logaddexp(0, -m) + q * np.log(q) + (1 - q) * np.log1p(-q)
    se = math.hypot(got.std_error, term.std(ddof=1) / math.sqrt(term.size))
    assert abs(got.value - term.mean()) <= Z * se
    # The pairwise Bayes scorer (a difference of link(eta)) has zero regret.
    bayes = lambda X: link * np.log(dist.eta(X) / (1 - dist.eta(X)))  # noqa: E731
    zero = th.pairwise_surrogate_regret(dist, bayes, loss, n_mc=20_000, random_state=3)
    assert abs(zero.value) < 1e-12


def test_pairwise_bound_holds_on_a_fitted_pairwise_ranker():
    import rankwise as rw

    dist = th.BinormalDifferent([1.0, 0.5], [[1.0, 0.0], [0.0, 3.0]], [0.0, 0.0], np.eye(2), p=0.3)
    X, y = dist.sample(400, random_state=4)
    for loss in ("exponential", "logistic"):
        m = rw.PairwiseRanker(loss=loss, alpha=0.0).fit(X, y)
        score = th.LinearScore(m.coef_, m.intercept_)
        rr = dist.ranking_regret(score)
        z = th.pairwise_surrogate_regret(dist, score, loss, n_mc=50_000, random_state=5)
        assert rr.value > 0
        assert rr.value + Z * rr.std_error <= th.pairwise_bound(max(z.value - Z * z.std_error, 0.0), loss, tight=True)


# ----------------------------------------------------------------------------
# Theorem 15
# ----------------------------------------------------------------------------

@pytest.mark.parametrize("alpha", [0.0, 0.1, 0.5, 1.0])
@pytest.mark.parametrize("C", [1.0, 2.0, 7.5])
def test_theorem15_constant_is_the_minimised_split(alpha, C):
    """The explicit bound is min over t of (C t^(1+alpha) + 4 s / t) / (2 p (1 - p)) with
    s = 2 R / lambda, minimised numerically here."""
    for R, p, lam in ((1e-5, 0.5, 4.0), (0.003, 0.3, 8.0), (0.2, 0.8, 1.0)):
        s = 2 * R / lam
        res = minimize_scalar(lambda lt: C * math.exp(lt) ** (1 + alpha) + 4 * s / math.exp(lt),
                              bounds=(-40.0, 10.0), method="bounded", options={"xatol": 1e-12})
        literal = res.fun / (2 * p * (1 - p))
        got = th.theorem15_explicit_bound(R, p, lam, alpha, C)
        assert got == pytest.approx(literal, rel=1e-7)


def test_theorem15_explicit_at_alpha_zero_is_twice_theorem13():
    R = np.array([1e-6, 1e-3, 0.1])
    np.testing.assert_allclose(th.theorem15_explicit_bound(R, 0.3, 4.0, 0.0, 1.0), 2 * th.theorem13_bound(R, 0.3, 4.0))
    np.testing.assert_allclose(th.conditional_low_noise_bound(R, 0.3, 4.0, 0.0, 1.0), 2 * th.theorem13_bound(R, 0.3, 4.0))


def test_conditional_bound_formula():
    # 2^(1+a) C / (p(1-p)) (2R/lam)^((1+a)/2), literally
    for a, C, R, p, lam in ((0.25, 1.5, 1e-4, 0.4, 4.0), (1.0, 2.0, 0.01, 0.5, 2.0)):
        literal = 2 ** (1 + a) * C / (p * (1 - p)) * (2 * R / lam) ** ((1 + a) / 2)
        assert th.conditional_low_noise_bound(R, p, lam, a, C) == pytest.approx(literal, rel=1e-12)


@pytest.mark.parametrize("alpha", [0.25, 1.0])
def test_low_noise_bounds_hold_for_perturbed_scorers(alpha):
    """Scorers that are not fitted: logit of eta moved by eps * sin(3 x2) (a tilt in the
    uninformative coordinate) or by eps * sign(x2) on the band |eta - 1/2| < eps (order scrambled
    where eta(X) is densest). Monte Carlo regrets, strict direction at 4 SE."""
    dist = th.SingleIndex([1.0, 0.0], link="noise", alpha=alpha, x_dist="uniform")
    C, p = dist.noise_constant, dist.p
    for eps in (0.02, 0.1):
        for shape in ("tilt", "band"):
            def f(X, eps=eps, shape=shape):
                e = dist.eta(X)
                if shape == "tilt":
                    eh = np.clip(e + eps * np.sin(3 * X[:, 1]), 1e-6, 1 - 1e-6)
                else:
                    eh = np.where(np.abs(e - 0.5) < eps, 0.5 + eps * np.sign(X[:, 1]) * 0.5, e)
                eh = np.clip(eh, 1e-12, 1 - 1e-12)
                return np.log(eh) - np.log1p(-eh)
            rr = dist.ranking_regret(f, n_mc=40_000, random_state=6)
            sr = dist.surrogate_regret(f, "logistic", n_mc=100_000, random_state=7)
            lo = max(sr.value - Z * sr.std_error, 0.0)
            hi = rr.value + Z * rr.std_error
            assert rr.value > 0
            assert hi <= th.theorem15_explicit_bound(lo, p, 4.0, alpha, C)
            assert hi <= th.conditional_low_noise_bound(lo, p, 4.0, alpha, C)


# ----------------------------------------------------------------------------
# Bad input
# ----------------------------------------------------------------------------

def test_bad_input():
    with pytest.raises(ValueError, match=r"alpha.*\[0, 1\]"):
        th.theorem15_constant(1.5, 2.0)
    with pytest.raises(ValueError, match="noise_constant.*>= 1"):
        th.theorem15_explicit_bound(0.1, 0.5, 4.0, 0.5, 0.5)
    with pytest.raises(ValueError, match="exponential' or 'logistic"):
        th.pairwise_bound(0.1, "squared")
    with pytest.raises(TypeError, match="tight.*bool"):
        th.pairwise_bound(0.1, "logistic", tight=1)
    with pytest.raises(ValueError, match="eta_x"):
        th.pair_eta(1.2, 0.5)
    with pytest.raises(ValueError, match="surrogate_regret"):
        th.pairwise_bound(-0.1, "logistic")
    with pytest.raises(TypeError, match="Distribution"):
        th.pairwise_surrogate_regret(object(), lambda X: X[:, 0], "logistic")
    with pytest.raises(ValueError, match="broadcast"):
        th.pair_eta([0.1, 0.2], [0.1, 0.2, 0.3])
    assert th.pair_eta(expit(0.3), expit(-0.2)) == pytest.approx(expit(0.5))   # logits subtract
