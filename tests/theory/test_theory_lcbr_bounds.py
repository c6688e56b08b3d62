"""The LCBR sample sizes of Gultekin & Paisley (2020) against simulated deviations.

Theorem 2's sample size is the larger of two terms, each derived from the paper's Lemma 2 at
threshold eps/2 and probability delta/2 (``docs/lcbr_bounds.md``): after the quadratic term,
``sup_w |w'(Sigma_S - Sigma_N)w| = W*^2 ||Sigma_S - Sigma_N||`` is below eps/2 with
probability at least 1 - delta/2; after the linear term,
``sup_{w1, w2} |(w1 - w2)'(mu_N - mu_S)| = 2 W* ||mu_S - mu_N||`` is. These tests draw the
sampled pairs of LCBR from a fixed sample and count how often each promise fails at the
term's own S, and check the theorem's conclusion ``|R_N(w_S) - R_N(w_N)| < eps``.

The sample: D = 1, X* = W* = 1, 50 positives and 50 negatives, half of each at +1 and half
at -1. A sampled pair difference z = x1 - x0 is then -2, 0, 0, +2 with equal chances (mu_N =
0, Sigma_N = E z^2 = 2), and the sum of S of them is exactly ``2B - 2S`` with
B ~ Binomial(2S, 1/2) (each z is a difference of two independent signs), so the linear
term's failure probability is also known exactly; the simulation is checked against it.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from rankwise import theory as th

X_STAR = W_STAR = 1.0
SIGMA_N = 2.0
R = 20_000       # simulated subsamples per check


def sample_set():
    x1 = np.repeat([1.0, -1.0], 25)
    x0 = np.repeat([1.0, -1.0], 25)
    return x1, x0


def simulate(S: int, seed: int) -> dict:
    """R independent LCBR subsamples of S pairs (uniform with replacement over the 50 x 50
    pairs): the two sup deviations of Lemma 2 and Theorem 2's |R_N(w_S) - R_N(w_N)|."""
    x1, x0 = sample_set()
    rng = np.random.default_rng(seed)
    mu_s, sigma_s = np.empty(R), np.empty(R)
    for lo in range(0, R, 1000):          # 1,000 subsamples at a time: a few MB, not R x S
        i1 = rng.integers(0, 50, size=(1000, S), dtype=np.int8)
        i0 = rng.integers(0, 50, size=(1000, S), dtype=np.int8)
        z = x1[i1] - x0[i0]
        mu_s[lo:lo + 1000], sigma_s[lo:lo + 1000] = z.mean(axis=1), (z * z).mean(axis=1)
    mu_n = x1.mean() - x0.mean()
    # The minimiser of 1/2 Sigma w^2 - mu w over |w| <= W* (w = 0 when Sigma_S = 0: then mu_S = 0 too).
    w_s = np.clip(np.divide(mu_s, sigma_s, out=np.zeros_like(mu_s), where=sigma_s > 0), -W_STAR, W_STAR)
    w_n = float(np.clip(mu_n / SIGMA_N, -W_STAR, W_STAR))

    def risk_n(w):
        return 0.5 * SIGMA_N * w ** 2 - mu_n * w + 0.5

    return {"quadratic": W_STAR ** 2 * np.abs(sigma_s - SIGMA_N),
            "linear": 2.0 * W_STAR * np.abs(mu_s - mu_n),
            "theorem2": np.abs(risk_n(w_s) - risk_n(w_n))}


def exact_linear_failure(S: int, threshold: float) -> float:
    """P(2 W* |mu_S| >= threshold) exactly: S mu_S = 2B - 2S, B ~ Binomial(2S, 1/2)."""
    k = np.arange(2 * S + 1)
    hit = 2.0 * W_STAR * np.abs(2.0 * k - 2.0 * S) / S >= threshold * (1 - 1e-12)
    return float(stats.binom.pmf(k[hit], 2 * S, 0.5).sum())


def test_the_sample_set_matches_the_stated_moments():
    x1, x0 = sample_set()
    z = (x1[:, None] - x0[None, :]).ravel()
    assert z.mean() == 0.0 and (z * z).mean() == SIGMA_N
    assert max(np.abs(x1).max(), np.abs(x0).max()) == X_STAR


@pytest.mark.parametrize("eps,delta", [(1.0, 0.05), (1.0, 0.2)])
def test_each_term_keeps_its_promise_on_simulated_subsamples(eps, delta):
    quad, lin = th.lcbr_subsample_size(eps, delta, 1, SIGMA_N, X_STAR, W_STAR, terms=True)
    se = math.sqrt(delta / 2 * (1 - delta / 2) / R)
    for name, size, seed in (("quadratic", quad, 1), ("linear", lin, 2)):
        dev = simulate(math.ceil(size), seed)[name]
        # Lemma 2 at threshold eps/2 promises failure <= delta/2; allow 3 Monte Carlo SEs at delta/2.
        assert np.mean(dev >= eps / 2) <= delta / 2 + 3 * se, name
    # Theorem 2's conclusion at the larger term.
    dev = simulate(math.ceil(max(quad, lin)), 3)["theorem2"]
    assert np.mean(dev >= eps) <= delta


def test_the_restated_constant_breaks_the_linear_terms_promise():
    """The restatement's linear term (X*^2 W*^2 / (eps^2 / 4), 16 times fewer pairs) does not
    keep sup |Delta_sigma| below eps/2 with probability 1 - delta/2 on this sample."""
    eps, delta = 1.0, 0.05
    _, lin = th.lcbr_subsample_size(eps, delta, 1, SIGMA_N, X_STAR, W_STAR, terms=True)
    S_old = math.ceil(lin / 16)
    freq = np.mean(simulate(S_old, 4)["linear"] >= eps / 2)
    exact = exact_linear_failure(S_old, eps / 2)
    assert abs(freq - exact) <= 4 * math.sqrt(exact * (1 - exact) / R)     # simulation = exact law
    assert freq > 4 * delta / 2                                             # 0.16 against 0.025


@pytest.mark.parametrize("delta", [1e-3, 1e-6, 1e-9])
def test_linear_term_holds_at_small_delta_and_the_printed_radius_does_not(delta):
    """Exact failure probabilities of the linear term's promise. With the radius 2X* of the
    pair differences the term holds at every delta; Lemma 2(ii) as printed (radius X*, which
    would give eps^2 / 16, 4 times fewer pairs) fails its promise once delta is small."""
    eps = 1.0
    _, lin = th.lcbr_subsample_size(eps, delta, 1, SIGMA_N, X_STAR, W_STAR, terms=True)
    assert exact_linear_failure(math.ceil(lin), eps / 2) <= delta / 2
    printed = exact_linear_failure(math.ceil(lin / 4), eps / 2)
    if delta <= 1e-6:
        assert printed > delta / 2


def test_printed_lemma_2_ii_fails_on_this_law():
    """Lemma 2(ii) as printed, 2 exp(-(eps sqrt(S) / (2 X* W*) - 1)^2 / 2), is smaller than the
    exact probability here; with 4 X* W* in place of 2 X* W* it is not (both at S = 400)."""
    S = 400
    for u in (6.0, 7.0):
        eps = 2 * X_STAR * W_STAR * u / math.sqrt(S)
        exact = exact_linear_failure(S, eps)
        assert exact > 2 * math.exp(-0.5 * (u - 1) ** 2)                    # the printed bound fails
        assert exact <= 2 * math.exp(-0.5 * (u / 2 - 1) ** 2)               # radius 2X*: holds


def test_theorem3_asks_theorem2_for_eps_over_5():
    eps, ps, D, sn, X, W = 0.1, 0.05, 20, 3.0, 2.0, 1.5
    assert th.lcbr_sample_size(eps, ps, D, sn, X, W) == pytest.approx(
        th.lcbr_subsample_size(eps / 5, ps, D, sn, X, W), rel=1e-14)
    sizes = th.lcbr_sample_size(np.array([0.1, 0.2, 0.4]), ps, D, sn, X, W)
    assert sizes.shape == (3,) and np.all(np.diff(sizes) < 0)
    with pytest.raises(TypeError, match="'terms'"):
        th.lcbr_subsample_size(eps, ps, D, sn, X, W, terms=1)
    with pytest.raises(ValueError, match="'delta'"):
        th.lcbr_subsample_size(eps, 1.5, D, sn, X, W)


def test_the_suprema_and_the_minimiser_used_above_against_literal_definitions():
    """sup_{||w|| <= W} |w'Aw| = W^2 ||A||_2 and sup_{w1, w2} |(w1 - w2)'v| = 2 W ||v||, checked in
    D = 2 by brute force over a grid of the ball; and the clipped ratio used in ``simulate`` is
    rankwise's trust-region minimiser in D = 1."""
    from rankwise.learners._bbr import solve_trust_region

    rng = np.random.default_rng(0)
    r = np.sqrt(np.linspace(0.0, 1.0, 201))[:, None]
    t = np.linspace(0.0, 2 * np.pi, 721)[None, :]
    W = 1.5
    grid = np.stack([(W * r * np.cos(t)).ravel(), (W * r * np.sin(t)).ravel()], axis=1)
    for _ in range(5):
        B = rng.normal(size=(2, 2))
        A = B + B.T
        v = rng.normal(size=2)
        quad = np.abs(np.einsum("ij,jk,ik->i", grid, A, grid)).max()
        assert quad == pytest.approx(W ** 2 * np.linalg.norm(A, 2), rel=1e-4)
        lin = (grid @ v).max() - (grid @ v).min()        # sup over w1, w2 of (w1 - w2)'v
        assert lin == pytest.approx(2 * W * np.linalg.norm(v), rel=1e-4)
    for mu, sigma in [(0.3, 2.0), (-3.0, 2.0), (2.5, 1.0), (0.0, 4.0)]:
        w, _ = solve_trust_region(np.array([[sigma]]), np.array([mu]), W_STAR)
        assert w[0] == pytest.approx(np.clip(mu / sigma, -W_STAR, W_STAR), abs=1e-12)
