"""rankwise.theory: closed forms against Monte Carlo and against rankwise's empirical
criteria, the regret identity, the surrogate-regret bounds, the noise exponent of the
single-index model, sampling, the bound functions and the error messages.

Monte Carlo comparisons use explicit seeds and a tolerance of 4 standard errors (the
standard errors themselves are checked against the spread over seeds in
``test_w_phi_jackknife_standard_error_is_calibrated``)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import integrate
from scipy.special import expit, ndtr
from scipy.stats import multivariate_normal

import rankwise as rw
import rankwise.stats  # noqa: F401  (rw.stats.estimate: DeLong standard errors)
from rankwise import theory as th

Z = 4.0          # tolerance in standard errors
N_MC = 100_000   # Monte Carlo size in the tests


def within(a: float, b: float, se: float, z: float = Z) -> bool:
    return abs(a - b) <= z * se


@pytest.fixture(scope="module")
def shared():
    return th.BinormalShared([1.0, 0.5], [-0.5, 0.0], [[1.0, 0.3], [0.3, 2.0]], p=0.3)


@pytest.fixture(scope="module")
def different():
    return th.BinormalDifferent([1.0, 0.0], [[1.0, 0.5], [0.5, 2.0]], [0.0, 0.5], [[2.0, 0.0], [0.0, 0.5]], p=0.3)


@pytest.fixture(scope="module")
def mixtures():
    return th.GaussianMixtures(n_components=3, sigma=1.0, dim=3, p=0.4, random_state=0)


def all_distributions():
    return [
        th.BinormalShared([1.0, 0.5], [-0.5, 0.0], [[1.0, 0.3], [0.3, 2.0]], p=0.3),
        th.BinormalDifferent([1.0, 0.0], [[1.0, 0.5], [0.5, 2.0]], [0.0, 0.5], 1.0, p=0.6),
        th.SingleIndex([1.0, -0.5], "logistic", scale=2.0, p=0.35),
        th.SingleIndex([1.0, 2.0], "noise", alpha=0.5, x_dist="uniform"),
        th.GaussianMixtures(n_components=2, sigma=1.5, dim=2, random_state=1),
    ]


# ----------------------------------------------------------------------------
# The fast U-statistic against its definition
# ----------------------------------------------------------------------------


def test_pair_projection_matches_brute_force_with_ties():
    rng = np.random.default_rng(0)
    n = 60
    eta = rng.uniform(size=n)
    eta[:10] = 0.5                                  # ties in eta
    f = np.round(rng.normal(size=n), 1)              # many ties in f
    h = np.zeros((n, n))
    for i in range(n):
        for j in range(n):
            if i == j:
                continue
            a, b = eta[i] * (1 - eta[j]), eta[j] * (1 - eta[i])
            h[i, j] = a if f[i] < f[j] else b if f[i] > f[j] else 0.5 * (a + b)
    expected = h.sum(axis=1) / (n - 1)
    np.testing.assert_allclose(th._pair_projection(eta, f), expected, rtol=0, atol=1e-14)
    # The regret kernel is the difference of the error kernels, pair by pair.
    reg = np.zeros((n, n))
    for i in range(n):
        for j in range(n):
            if i != j:
                disc = (f[i] - f[j]) * (eta[i] - eta[j]) < 0
                reg[i, j] = abs(eta[i] - eta[j]) * (disc + 0.5 * (f[i] == f[j]))
    diff = th._pair_projection(eta, f) - th._pair_projection(eta, eta)
    np.testing.assert_allclose(diff, reg.sum(axis=1) / (n - 1), rtol=0, atol=1e-14)


# ----------------------------------------------------------------------------
# Closed forms
# ----------------------------------------------------------------------------


def test_binormal_auc_is_phi_delta_over_sqrt2():
    # Unit variances along the discriminant: scores N(+-delta/2, 1), AUC = Phi(delta / sqrt 2).
    delta = 1.7
    d = th.BinormalShared([delta / 2, 0.0], [-delta / 2, 0.0], 1.0, p=0.4)
    assert d.mahalanobis == pytest.approx(delta, rel=1e-14)
    expected = float(ndtr(delta / math.sqrt(2.0)))
    for score in (th.LinearScore([1.0, 0.0]), th.LinearScore([3.0, 0.0], intercept=-2.0), d.eta):
        r = d.auc(score)
        assert r.method == "closed_form" and r.std_error == 0.0
        assert r.value == pytest.approx(expected, rel=1e-14)
    assert d.bayes_auc().value == pytest.approx(expected, rel=1e-14)
    # ... and against rankwise.auc on a big sample, with its DeLong standard error.
    X, y = d.sample(200_000, random_state=1)
    est = rw.stats.estimate(y, X[:, 0])
    assert within(est.value, expected, est.std_error)


def test_linear_auc_closed_form_general_covariance(shared, different, mixtures):
    # AUC of a^T x: Phi(a^T (m1 - m0) / sqrt(a^T (S1 + S0) a)); mixtures: the K^2 average.
    a = np.array([1.0, -1.0])
    for d in (shared, different):
        s1 = d.cov if isinstance(d, th.BinormalShared) else d.cov_pos
        s0 = d.cov if isinstance(d, th.BinormalShared) else d.cov_neg
        expected = ndtr(a @ (d.mean_pos - d.mean_neg) / math.sqrt(a @ (s1 + s0) @ a))
        assert d.auc(th.LinearScore(a)).value == pytest.approx(expected, rel=1e-13)
    a3 = np.array([1.0, 0.5, -0.2])
    exact = mixtures.auc(th.LinearScore(a3))
    mc = mixtures.auc(th.LinearScore(a3), method="monte_carlo", n_mc=N_MC, random_state=2)
    assert exact.method == "closed_form" and mc.method == "monte_carlo"
    assert within(mc.value, exact.value, mc.std_error)


def test_bayes_error_shared_equals_error_of_eta(shared):
    bayes = shared.bayes_ranking_error()
    assert bayes.method == "closed_form"
    assert bayes.value == pytest.approx(float(ndtr(-shared.mahalanobis / math.sqrt(2.0))), rel=1e-14)
    assert shared.ranking_error(shared.eta).value == bayes.value
    assert shared.ranking_error(shared.bayes_scorer()).value == pytest.approx(bayes.value, rel=1e-13)
    assert shared.auc(shared.eta).value == pytest.approx(1.0 - bayes.value, rel=1e-14)
    # The Monte Carlo routes agree with the closed form.
    mc_bayes = shared.bayes_ranking_error(method="monte_carlo", n_mc=N_MC, random_state=3)
    mc_eta = shared.ranking_error(shared.eta, method="monte_carlo", n_mc=N_MC, random_state=4)
    assert within(mc_bayes.value, bayes.value, mc_bayes.std_error)
    assert within(mc_eta.value, bayes.value, mc_eta.std_error)
    lo, hi = mc_bayes.confidence_interval(0.999999)
    assert lo < bayes.value < hi


@pytest.mark.parametrize("dist", all_distributions(), ids=lambda d: type(d).__name__)
def test_bayes_error_against_empirical_auc_of_eta(dist):
    X, y = dist.sample(200_000, random_state=5)
    est = rw.stats.estimate(y, dist.eta(X))
    bayes = dist.bayes_ranking_error(n_mc=N_MC, random_state=6)
    assert within(1.0 - est.value, bayes.value, math.hypot(est.std_error, bayes.std_error))
    assert y.mean() == pytest.approx(dist.p, abs=4 * math.sqrt(dist.p * (1 - dist.p) / y.size))


def test_exact_routes_and_method_argument(shared, different):
    assert shared.bayes_ranking_error(method="exact").method == "closed_form"
    with pytest.raises(ValueError, match="no exact route"):
        different.bayes_ranking_error(method="exact")
    with pytest.raises(ValueError, match="no exact route"):
        shared.ranking_error(lambda X: X[:, 0] ** 2, method="exact")
    with pytest.raises(ValueError, match="'method' parameter"):
        shared.ranking_error(shared.eta, method="quadrature")
    # A constant linear score ties every pair: error 1/2.
    assert different.ranking_error(th.LinearScore([0.0, 0.0])).value == 0.5
    # By Monte Carlo every pair is tied too; the estimate is p_hat (1 - p_hat) / (p (1 - p)).
    const_mc = different.ranking_error(lambda X: np.zeros(len(X)), n_mc=N_MC, random_state=0)
    assert within(const_mc.value, 0.5, const_mc.std_error)


# ----------------------------------------------------------------------------
# Regret
# ----------------------------------------------------------------------------


@pytest.mark.parametrize("dist", all_distributions(), ids=lambda d: type(d).__name__)
def test_ranking_regret_of_eta_is_zero(dist):
    exact = dist.ranking_regret(dist.eta)
    assert exact.value == 0.0 and exact.exact
    mc = dist.ranking_regret(dist.eta, method="monte_carlo", n_mc=20_000, random_state=0)
    assert mc.value == 0.0 and mc.std_error == 0.0
    # A strictly increasing transform of eta ranks as eta: regret 0 up to rounding.
    mc2 = dist.ranking_regret(lambda X: np.log(dist.eta(X) + 1.0), n_mc=20_000, random_state=0)
    assert mc2.value == pytest.approx(0.0, abs=1e-12)


def test_regret_identity_on_the_same_draws(different, mixtures):
    f = th.LinearScore([1.0, -1.0])
    for dist, score in ((different, f), (mixtures, lambda X: X[:, 0] - X[:, 2] ** 2)):
        kw = dict(method="monte_carlo", n_mc=N_MC, random_state=7)
        err = dist.ranking_error(score, **kw)
        bayes = dist.bayes_ranking_error(**kw)
        reg = dist.ranking_regret(score, **kw)
        assert err.value - bayes.value == pytest.approx(reg.value, abs=1e-12)
        assert reg.value > 0.0 and reg.std_error > 0.0


def test_regret_identity_exact_error_minus_mc_bayes(different):
    # BinormalDifferent: the linear score's error is exact, the Bayes error and the regret
    # are Monte Carlo (independent draws): error - Bayes == regret within the joint error.
    f = th.LinearScore([1.0, -1.0], 0.2)
    err = different.ranking_error(f)
    assert err.method == "closed_form"
    bayes = different.bayes_ranking_error(n_mc=N_MC, random_state=8)
    reg = different.ranking_regret(f, n_mc=N_MC, random_state=9)
    assert bayes.method == reg.method == "monte_carlo"
    assert within(err.value - bayes.value, reg.value, math.hypot(bayes.std_error, reg.std_error))
    assert reg.value > 0.02     # a linear scorer is not optimal when the covariances differ


def test_regret_identity_by_independent_pairs(different):
    # The identity's kernel evaluated on independent pairs (no sorting, no U-statistic).
    f = th.LinearScore([1.0, -1.0])
    rng = np.random.default_rng(10)
    X1, _ = different.sample(N_MC, random_state=rng)
    X2, _ = different.sample(N_MC, random_state=rng)
    e1, e2 = different.eta(X1), different.eta(X2)
    disc = (f(X1) - f(X2)) * (e1 - e2) < 0
    k = np.abs(e1 - e2) * disc / (2 * different.p * (1 - different.p))
    reg = different.ranking_regret(f, n_mc=N_MC, random_state=11)
    assert within(k.mean(), reg.value, math.hypot(k.std() / math.sqrt(N_MC), reg.std_error))


def test_exact_regret_shared_is_difference_of_closed_forms(shared):
    f = th.LinearScore([1.0, -1.0])
    reg = shared.ranking_regret(f)
    assert reg.method == "closed_form"
    assert reg.value == pytest.approx(shared.ranking_error(f).value - shared.bayes_ranking_error().value, abs=1e-15)
    mc = shared.ranking_regret(f, method="monte_carlo", n_mc=N_MC, random_state=12)
    assert within(mc.value, reg.value, mc.std_error)


# ----------------------------------------------------------------------------
# Surrogate regret and the bounds of Agarwal (2014)
# ----------------------------------------------------------------------------


@pytest.mark.parametrize("loss", sorted(rw.losses.LOSSES))
def test_surrogate_regret_zero_at_link_of_eta(different, loss):
    L = rw.losses.get(loss)
    r = different.surrogate_regret(lambda X: L.link(different.eta(X)), loss, n_mc=20_000, random_state=0)
    assert 0.0 <= r.value < 1e-12
    bad = different.surrogate_regret(th.LinearScore([1.0, -1.0]), loss, n_mc=20_000, random_state=0)
    assert bad.value > 0.01 and bad.std_error > 0.0


def test_surrogate_regret_against_quadrature():
    # One dimension: E[L(eta(X), f(X)) - H(eta(X))] = int (p phi1 + (1-p) phi0)(x) regret(x) dx.
    d = th.BinormalShared([1.0], [-0.5], 1.5, p=0.35)
    f = th.LinearScore([0.3], -0.4)
    sd = math.sqrt(1.5)
    dens = lambda x: 0.35 * math.exp(-0.5 * ((x - 1.0) / sd) ** 2) + 0.65 * math.exp(-0.5 * ((x + 0.5) / sd) ** 2)
    for loss in ("logistic", "squared", "spherical"):
        L = rw.losses.get(loss)
        integrand = lambda x: dens(x) / (sd * math.sqrt(2 * math.pi)) * float(
            L.conditional_regret(d.eta(np.array([[x]]))[0], 0.3 * x - 0.4))
        exact = integrate.quad(integrand, -15, 15, limit=200)[0]
        mc = d.surrogate_regret(f, loss, n_mc=N_MC, random_state=13)
        assert within(mc.value, exact, mc.std_error)


@pytest.mark.parametrize("loss", sorted(rw.losses.LOSSES))
def test_theorem13_holds_for_a_bad_and_a_good_scorer(different, loss):
    L = rw.losses.get(loss)
    p = different.p
    scorers = {
        # a deliberately bad linear scorer, mapped into the loss's prediction space
        "bad": lambda X: L.link(expit(X[:, 0] - X[:, 1] + 0.2)),
        # a near-optimal one: the true log-odds, perturbed
        "good": lambda X: L.link(expit(0.8 * different.log_odds(X) + 0.3 * X[:, 0])),
    }
    for name, f in scorers.items():
        reg = different.ranking_regret(f, n_mc=N_MC, random_state=14)
        sur = different.surrogate_regret(f, loss, n_mc=N_MC, random_state=15)
        bound = th.theorem13_bound(sur.value, p, L.strong_properness)
        assert bound == pytest.approx(L.regret_bound(sur.value, p), rel=1e-14)
        assert bound == pytest.approx(th.regret_bound(loss, sur.value, p), rel=1e-14)
        assert reg.value + Z * reg.std_error <= th.theorem13_bound(max(sur.value - Z * sur.std_error, 0.0),
                                                                   p, L.strong_properness), name
        if name == "good":
            assert bound < 1.0      # the check is not vacuous


@pytest.mark.parametrize("loss", ["logistic", "exponential"])
def test_balanced_bound_holds(different, loss):
    for f in (th.LinearScore([1.0, -1.0], 0.2), lambda X: 0.7 * different.log_odds(X) + 0.2 * X[:, 1]):
        reg = different.ranking_regret(f, n_mc=N_MC, random_state=16)
        sur = different.surrogate_regret(f, loss, balanced=True, n_mc=N_MC, random_state=17)
        assert sur.value > 0.0
        assert reg.value + Z * reg.std_error <= th.balanced_bound(max(sur.value - Z * sur.std_error, 0.0), loss)


def test_balanced_surrogate_regret_zero_at_balanced_link(different):
    # The balanced loss is minimised by the link of eta~ = eta (1-p) / (eta (1-p) + (1-eta) p),
    # i.e. the log-odds minus logit(p) for the logistic loss.
    p = different.p
    f = lambda X: different.log_odds(X) - math.log(p / (1 - p))
    r = different.surrogate_regret(f, "logistic", balanced=True, n_mc=20_000, random_state=0)
    assert r.value == pytest.approx(0.0, abs=1e-12)


# ----------------------------------------------------------------------------
# The single-index model and its noise exponent
# ----------------------------------------------------------------------------


@pytest.mark.parametrize("x_dist", ["gaussian", "uniform"])
@pytest.mark.parametrize("alpha", [0.3, 0.5, 1.0])
def test_noise_exponent_is_alpha(alpha, x_dist):
    d = th.SingleIndex([0.5, 1.0, -1.0], "noise", alpha=alpha, x_dist=x_dist)
    assert d.noise_exponent == alpha and d.p == 0.5
    X, _ = d.sample(200_000, random_state=18)
    e = d.eta(X)
    x0 = np.zeros((1, 3))                   # eta(x0) = 1/2: the worst point
    assert d.eta(x0)[0] == 0.5
    ts = np.logspace(-3, -1, 9)
    prob = np.array([np.mean(np.abs(e - 0.5) <= t) for t in ts])
    slope = np.polyfit(np.log(ts), np.log(prob), 1)[0]
    assert abs(slope - alpha) < 0.15
    # P(|eta(X) - eta(x0)| <= t) = (2t)^alpha = C t^alpha with C = noise_constant.
    assert np.all(prob <= d.noise_constant * ts ** alpha * 1.15)
    # Elsewhere eta(X) has a bounded density: exponent 1, and never more mass than at 1/2.
    prob_08 = np.array([np.mean(np.abs(e - 0.8) <= t) for t in ts])
    assert np.all(prob_08 <= prob * 1.1 + 1e-4)


@pytest.mark.parametrize("alpha,p", [(0.5, 0.6), (0.3, 0.45), (1.0, 0.3), (0.5, 0.5)])
def test_noise_constant_is_valid_off_centre(alpha, p):
    # sup over eta0 of P(|eta(X) - eta0| <= t) / t^alpha, from the exact law of eta(X):
    # P(eta(X) <= v) = c - c (1 - 2v)^alpha below 1/2, c + (1 - c)(2v - 1)^alpha above.
    d = th.SingleIndex([1.0], "noise", alpha=alpha, p=p)
    c = d.center
    cdf = lambda v: np.where(v < 0.5, c - c * np.clip(1 - 2 * v, 0, 1) ** alpha,
                             c + (1 - c) * np.clip(2 * v - 1, 0, 1) ** alpha)
    e0 = np.linspace(0.0, 1.0, 4001)
    worst = max(float(((cdf(np.clip(e0 + t, 0, 1)) - cdf(np.clip(e0 - t, 0, 1))) / t ** alpha).max())
                for t in np.logspace(-6, 0, 25))
    assert worst <= d.noise_constant * (1 + 1e-9)
    if p == 0.5:
        assert worst == pytest.approx(d.noise_constant, rel=1e-6)      # attained at eta0 = 1/2


@pytest.mark.parametrize("alpha,p", [(0.5, 0.5), (0.3, 0.55), (1.0, 0.3)])
def test_noise_link_closed_forms(alpha, p):
    d = th.SingleIndex([1.0], "noise", alpha=alpha, p=p, x_dist="uniform")
    assert d.p == pytest.approx(p, abs=1e-15)
    # p and E|eta - eta'| against quadrature of the quantile function G.
    G = lambda u: float(d._noise_G(np.array([u]))[0])
    pts = [d.center]
    assert integrate.quad(G, 0, 1, points=pts)[0] == pytest.approx(p, abs=1e-10)
    gmd = 2 * integrate.quad(lambda u: G(u) * (2 * u - 1), 0, 1, points=pts)[0]
    bayes = d.bayes_ranking_error()
    assert bayes.method == "closed_form"
    assert bayes.value == pytest.approx(0.5 - gmd / (4 * p * (1 - p)), abs=1e-10)
    if p == 0.5:
        assert bayes.value == pytest.approx(1.0 / (2.0 * (1.0 + 2.0 * alpha)), abs=1e-15)
    mc = d.bayes_ranking_error(method="monte_carlo", n_mc=N_MC, random_state=19)
    assert within(mc.value, bayes.value, mc.std_error)


@pytest.mark.parametrize("x_dist,w", [("gaussian", [1.0, -0.5, 2.0]), ("uniform", [1.0]), ("uniform", [0.5, 1.0, -2.0])])
def test_single_index_logistic_quadrature_against_mc(x_dist, w):
    d = th.SingleIndex(w, "logistic", scale=2.0, x_dist=x_dist, p=0.3)
    _, y = d.sample(200_000, random_state=20)
    assert y.mean() == pytest.approx(0.3, abs=4 * math.sqrt(0.21 / y.size))
    bayes = d.bayes_ranking_error()
    assert bayes.method == "quadrature" and bayes.error_bound < 1e-8
    mc = d.bayes_ranking_error(method="monte_carlo", n_mc=N_MC, random_state=21)
    assert within(mc.value, bayes.value, mc.std_error)
    # A linear score along w ranks as eta; along -w, in reverse.
    assert d.ranking_error(th.LinearScore(2.0 * np.array(w))).value == bayes.value
    assert d.ranking_error(th.LinearScore(-np.array(w))).value == pytest.approx(1.0 - bayes.value, abs=1e-15)


def test_uniform_index_law_is_exact():
    w = np.array([0.5, 1.0, -2.0])
    law = th._UniformIndex(w, "test")
    T = np.random.default_rng(22).uniform(-1, 1, size=(200_000, 3)) @ w
    grid = np.linspace(-3.5, 3.5, 57)
    ecdf = (T[:, None] <= grid).mean(axis=0)
    assert np.abs(law.cdf(grid) - ecdf).max() < 0.006          # DKW: 0.006 at 200k, 1 - 1e-6
    assert law.cdf(np.array(0.0)) == 0.5 and law.cdf(np.array(-3.5)) == 0.0 and law.cdf(np.array(3.5)) == 1.0
    for u in (0.01, 0.3, 0.77):
        assert float(law.cdf(np.array(law.ppf(u)))) == pytest.approx(u, abs=1e-12)


def test_uniform_index_density_is_derivative_of_cdf():
    for w in ([2.0], [1.0, -0.5], [0.5, 1.0, -2.0], [1.0, 1.0, 1.0, 1.0, 1.0]):
        law = th._UniformIndex(np.array(w), "test")
        lo, hi = law.support
        assert integrate.quad(law.pdf, lo, hi, points=law.breaks or None, limit=200,
                              epsabs=1e-13, epsrel=1e-12)[0] == pytest.approx(1.0, abs=1e-10)
        for t in np.linspace(lo + 0.05, hi - 0.05, 7):
            h = 1e-6
            num = (float(law.cdf(np.array(t + h))) - float(law.cdf(np.array(t - h)))) / (2 * h)
            assert law.pdf(t) == pytest.approx(num, abs=1e-6)


def test_single_index_w_phi_local_auc_and_reversed_score():
    d = th.SingleIndex([1.0, -0.5], "logistic", scale=2.0, x_dist="uniform", p=0.4)
    phi = rw.phi.local_auc(0.7)
    for score, mc_score in ((d.eta, d.eta), (th.LinearScore([-2.0, 1.0]), lambda X: -(X @ [1.0, -0.5]))):
        exact = d.w_phi(score, phi)
        assert exact.method == "quadrature"
        mc = d.w_phi(mc_score, phi, method="monte_carlo", n_mc=50_000, random_state=39)
        assert within(mc.value, exact.value, mc.std_error)
    # Implied p of a symmetric logistic model: 1/2.
    assert th.SingleIndex([1.0, 2.0]).p == pytest.approx(0.5, abs=1e-12)


def test_single_index_callable_link():
    d = th.SingleIndex([1.0, 1.0], link=ndtr, intercept=0.3)
    assert d.noise_exponent is None and d.noise_constant is None
    X = np.array([[0.2, -0.1], [1.0, 0.5]])
    np.testing.assert_allclose(d.eta(X), ndtr(X @ [1.0, 1.0] + 0.3), rtol=1e-15)
    # p = P(Z < T + 0.3), T ~ N(0, 2): Phi(0.3 / sqrt(3)).
    assert d.p == pytest.approx(float(ndtr(0.3 / math.sqrt(3.0))), abs=1e-10)
    bayes = d.bayes_ranking_error()
    mc = d.bayes_ranking_error(method="monte_carlo", n_mc=N_MC, random_state=23)
    assert within(mc.value, bayes.value, mc.std_error)


def test_single_index_stratified_sampling_by_rejection():
    d = th.SingleIndex([1.0], "logistic", scale=3.0)
    X, y = d.sample_stratified(30_000, 20_000, random_state=24)
    assert X.shape == (50_000, 1) and y.sum() == 30_000
    # X | Y = 1 has density 2 eta(x) phi(x) (p = 1/2): mean 2 E[X expit(3X)].
    m = 2 * integrate.quad(lambda x: x * expit(3 * x) * math.exp(-x * x / 2) / math.sqrt(2 * math.pi), -12, 12)[0]
    assert X[y == 1, 0].mean() == pytest.approx(m, abs=4 * X[y == 1, 0].std() / math.sqrt(30_000))


# ----------------------------------------------------------------------------
# Distributions: eta against densities, sampling
# ----------------------------------------------------------------------------


def test_gaussian_mixtures_eta_against_densities(mixtures):
    assert mixtures.means_pos.shape == (3, 3)
    assert (mixtures.means_pos >= 0).all() and (mixtures.means_pos <= 1).all()
    assert (mixtures.means_neg <= 0).all() and (mixtures.means_neg >= -1).all()
    X, _ = mixtures.sample(2000, random_state=25)
    cov = mixtures.sigma ** 2 * np.eye(3)
    f1 = sum(multivariate_normal(m, cov).pdf(X) for m in mixtures.means_pos) / 3
    f0 = sum(multivariate_normal(m, cov).pdf(X) for m in mixtures.means_neg) / 3
    expected = 0.4 * f1 / (0.4 * f1 + 0.6 * f0)
    np.testing.assert_allclose(mixtures.eta(X), expected, rtol=1e-12, atol=1e-15)
    # Far out, where both densities underflow to 0, logsumexp keeps the log-odds exact:
    # for K = 1 it is linear, w^T x + b with w = (mu1 - mu0) / sigma^2.
    far = np.array([[-40.0, -40.0, -40.0]])
    assert multivariate_normal(mixtures.means_pos[0], cov).pdf(far) == 0.0
    assert np.isfinite(mixtures.log_odds(far)).all() and 0.0 < mixtures.eta(far)[0] < 1e-10
    one = th.GaussianMixtures(1, 1.0, 3, p=0.4, random_state=3)
    m1, m0 = one.means_pos[0], one.means_neg[0]
    lin = far @ (m1 - m0) - 0.5 * (m1 @ m1 - m0 @ m0) + math.log(0.4 / 0.6)
    np.testing.assert_allclose(one.log_odds(far), lin, rtol=1e-13)


def test_gaussian_mixtures_means_reproducible():
    a = th.GaussianMixtures(2, 3.0, 4, random_state=7)
    b = th.GaussianMixtures(2, 3.0, 4, random_state=7)
    c = th.GaussianMixtures(2, 3.0, 4, random_state=8)
    np.testing.assert_array_equal(a.means_pos, b.means_pos)
    assert not np.array_equal(a.means_pos, c.means_pos)


def test_binormal_eta_against_densities(shared, different):
    X, _ = different.sample(500, random_state=26)
    for d, (c1, c0) in ((shared, (shared.cov, shared.cov)), (different, (different.cov_pos, different.cov_neg))):
        f1 = multivariate_normal(d.mean_pos, c1).pdf(X)
        f0 = multivariate_normal(d.mean_neg, c0).pdf(X)
        np.testing.assert_allclose(d.eta(X), d.p * f1 / (d.p * f1 + (1 - d.p) * f0), rtol=1e-12)
    # logistic-linear and logistic-quadratic forms
    np.testing.assert_allclose(shared.log_odds(X), X @ shared.coef + shared.intercept, rtol=1e-14)
    A, b, c = different.log_odds_coefficients()
    np.testing.assert_allclose(different.log_odds(X), np.einsum("ij,jk,ik->i", X, A, X) + X @ b + c,
                               rtol=1e-11, atol=1e-11)


@pytest.mark.parametrize("dist", all_distributions(), ids=lambda d: type(d).__name__)
def test_sampling_shapes_and_seeds(dist):
    X, y = dist.sample(1000, random_state=27)
    assert X.shape == (1000, dist.dim) and X.dtype == np.float64
    assert y.shape == (1000,) and y.dtype == np.int64 and set(np.unique(y)) <= {0, 1}
    X2, y2 = dist.sample(1000, random_state=27)
    np.testing.assert_array_equal(X, X2)
    np.testing.assert_array_equal(y, y2)
    X3, _ = dist.sample(1000, random_state=28)
    assert not np.array_equal(X, X3)
    rng = np.random.default_rng(29)
    Xa, _ = dist.sample(10, random_state=rng)
    Xb, _ = dist.sample(10, random_state=rng)
    assert not np.array_equal(Xa, Xb)                 # a Generator advances
    Xs, ys = dist.sample_stratified(30, 70, random_state=30)
    assert Xs.shape == (100, dist.dim) and ys.sum() == 30
    Xs2, ys2 = dist.sample_stratified(30, 70, random_state=30)
    np.testing.assert_array_equal(Xs, Xs2)
    _, yo = dist.sample_stratified(5, 3, random_state=31, shuffle=False)
    np.testing.assert_array_equal(yo, [1, 1, 1, 1, 1, 0, 0, 0])
    assert dist.sample_stratified(0, 4, random_state=0)[1].sum() == 0


def test_stratified_class_laws_binormal(different):
    X, y = different.sample_stratified(50_000, 50_000, random_state=32)
    for label, mean, cov in ((1, different.mean_pos, different.cov_pos), (0, different.mean_neg, different.cov_neg)):
        Xc = X[y == label]
        np.testing.assert_allclose(Xc.mean(axis=0), mean, atol=4 * math.sqrt(2.0 / 50_000))
        np.testing.assert_allclose(np.cov(Xc.T), cov, atol=0.05)


# ----------------------------------------------------------------------------
# W_phi
# ----------------------------------------------------------------------------


def test_w_phi_auc_identity_and_exact_vs_mc(shared):
    f = th.LinearScore([1.0, -1.0])
    w = shared.w_phi(f)
    assert w.exact
    assert w.value == pytest.approx((1 - shared.p) * shared.auc(f).value + shared.p / 2, rel=1e-14)
    mc = shared.w_phi(f, method="monte_carlo", n_mc=50_000, random_state=33)
    assert within(mc.value, w.value, mc.std_error)
    # The AUC phi by quadrature gives the same as the closed form.
    q = shared._exact_w_phi(f, rw.phi.auc())
    assert q.method == "quadrature" and q.value == pytest.approx(w.value, abs=1e-10)


@pytest.mark.parametrize("phi", [rw.phi.pnorm_push(3), rw.phi.local_auc(0.8), "pnorm_push:p=2"])
def test_w_phi_quadrature_vs_mc_and_rank_statistic(shared, mixtures, phi):
    f = th.LinearScore([1.0, -1.0])
    exact = shared.w_phi(f, phi)
    assert exact.method == "quadrature"
    mc = shared.w_phi(f, phi, method="monte_carlo", n_mc=50_000, random_state=34)
    assert within(mc.value, exact.value, mc.std_error)
    X, y = shared.sample(200_000, random_state=35)
    emp = rw.rank_statistic(y, f(X), phi, scale="mean")       # W_n / n+ -> W_phi
    assert abs(emp - exact.value) < 0.005
    g = th.LinearScore([1.0, 0.5, -0.2])
    ex_m = mixtures.w_phi(g, phi)
    mc_m = mixtures.w_phi(g, phi, method="monte_carlo", n_mc=50_000, random_state=36)
    assert within(mc_m.value, ex_m.value, mc_m.std_error)


def test_w_phi_single_index_eta():
    d = th.SingleIndex([1.0, 2.0], "noise", alpha=0.5, p=0.55)
    phi = rw.phi.pnorm_push(2)
    exact = d.w_phi(d.eta, phi)
    assert exact.method == "quadrature"
    mc = d.w_phi(d.eta, phi, method="monte_carlo", n_mc=50_000, random_state=37)
    assert within(mc.value, exact.value, mc.std_error)
    # A score decreasing in the index: W_phi of the reversed ranking.
    rev = d.w_phi(th.LinearScore([-1.0, -2.0]), phi)
    mc_rev = d.w_phi(lambda X: -(X @ [1.0, 2.0]), phi, method="monte_carlo", n_mc=50_000, random_state=38)
    assert within(mc_rev.value, rev.value, mc_rev.std_error)
    assert d.w_phi(d.eta).value == pytest.approx((1 - d.p) * d.bayes_auc().value + d.p / 2, rel=1e-14)


def test_w_phi_ties_conventions(different):
    const = th.LinearScore([0.0, 0.0])
    assert different.w_phi(const).value == 0.5
    assert different.w_phi(const, ties="max").value == 1.0
    assert different.w_phi(const, rw.phi.pnorm_push(2)).value == 0.25
    mc = different.w_phi(lambda X: np.zeros(len(X)), "pnorm_push:p=2", n_mc=1000, random_state=0)
    assert mc.value == pytest.approx(0.25, abs=1e-14)
    mc_max = different.w_phi(lambda X: np.zeros(len(X)), "auc", ties="max", n_mc=1000, random_state=0)
    assert mc_max.value == 1.0


def test_w_phi_jackknife_standard_error_is_calibrated():
    d = th.BinormalShared([1.0], [-1.0], 1.0)
    f = th.LinearScore([1.0])
    exact = d.w_phi(f, "pnorm_push:p=2").value
    res = [d.w_phi(f, "pnorm_push:p=2", method="monte_carlo", n_mc=5_000, random_state=r) for r in range(40)]
    vals = np.array([r.value for r in res])
    ratio = vals.std(ddof=1) / np.mean([r.std_error for r in res])
    assert 0.6 < ratio < 1.5
    assert abs(vals.mean() - exact) < 4 * vals.std(ddof=1) / math.sqrt(40)


# ----------------------------------------------------------------------------
# Bound functions
# ----------------------------------------------------------------------------


def test_theorem13_and_15_values():
    assert th.theorem13_bound(0.01, 0.5, 4.0) == pytest.approx(math.sqrt(2) / (0.25 * 2) * 0.1, rel=1e-15)
    out = th.theorem13_bound([0.0, 0.01, 0.04], [0.5, 0.2, 0.5], 8.0)
    np.testing.assert_allclose(out, [0.0, math.sqrt(2) / (0.16 * math.sqrt(8)) * 0.1, 0.4], rtol=1e-15)
    # Theorem 15 with alpha = 0, C = 1 is Theorem 13; the exponent is (1 + alpha) / (2 + alpha).
    r = np.array([1e-4, 1e-2, 0.3])
    np.testing.assert_allclose(th.theorem15_bound(r, 0.3, 4.0, 0.0, 1.0), th.theorem13_bound(r, 0.3, 4.0), rtol=1e-14)
    got = th.theorem15_bound(r, 0.3, 4.0, 1.0, 2.0)
    np.testing.assert_allclose(got, 2.0 / 0.21 * (0.5 * r) ** (2 / 3), rtol=1e-14)
    L = rw.losses.get("squared")
    assert th.theorem15_bound(0.02, 0.4, 8.0, 0.7, 1.3) == pytest.approx(L.low_noise_bound(0.02, 0.4, 0.7, 1.3), rel=1e-14)
    assert isinstance(th.theorem13_bound(0.01, 0.5, 4.0), float)


def test_balanced_bound_values():
    assert th.balanced_bound(0.01, "logistic") == pytest.approx(0.2, rel=1e-15)
    assert th.balanced_bound(0.02, "exponential") == pytest.approx(0.3, rel=1e-15)
    np.testing.assert_allclose(th.balanced_bound(np.array([0.0, 0.04]), "logistic"), [0.0, 0.4])
    with pytest.raises(ValueError, match="'exponential' or 'logistic'"):
        th.balanced_bound(0.01, "squared")


def test_bbr_and_lcbr_tail_bounds():
    assert th.bbr_tail_bound(1.0, 800, 0.5, 1.0, 1.0, 1.0) == pytest.approx(2 * math.exp(-1.0), rel=1e-14)
    assert th.lcbr_tail_bound(1.0, 5000, 0.5, 1.0, 1.0, 1.0, 0.01) == pytest.approx(2 * math.exp(-1.0) + 0.01, rel=1e-14)
    # The covering number is evaluated at eps / (4 C1), C1 = 8 X*^2 W* + 4 X*.
    seen = []
    cover = lambda r: (seen.append(r), 3.0)[1]
    th.bbr_tail_bound(0.5, 100, 0.3, 2.0, 1.5, cover)
    assert seen[0] == pytest.approx(0.5 / (4 * (8 * 4 * 1.5 + 8)), rel=1e-15)
    # Callables, log covering numbers and arrays agree.
    eps = np.array([0.5, 1.0, 2.0])
    D, W = 10, 1.0
    direct = th.bbr_tail_bound(eps, 10**5, 0.3, 1.0, W, lambda r: th.ball_covering_number(r, D, W))
    logged = th.bbr_tail_bound(eps, 10**5, 0.3, 1.0, W, lambda r: th.ball_covering_number(r, D, W, log=True),
                               log_covering=True)
    np.testing.assert_allclose(direct, logged, rtol=1e-12)
    assert direct[0] > 1.0 > direct[1] > direct[2] > 0.0      # vacuous at small eps
    # A covering number that overflows float64 still gives a finite bound through logs.
    big = th.bbr_tail_bound(1.0, 10**9, 0.5, 1.0, 1.0, lambda r: th.ball_covering_number(r, 500, 1.0, log=True),
                            log_covering=True)
    assert 0.0 <= big < 1e-10
    assert th.ball_covering_number(0.5, 2, 1.0) == pytest.approx(25.0, rel=1e-15)


# ----------------------------------------------------------------------------
# Errors
# ----------------------------------------------------------------------------


@pytest.mark.parametrize("build,exc,match", [
    (lambda: th.BinormalShared([0.0], [1.0], 1.0, p=1.0), ValueError, r"'p' parameter of BinormalShared"),
    (lambda: th.BinormalShared([0.0, 1.0], [1.0], 1.0), ValueError, "must have length 2"),
    (lambda: th.BinormalShared([0.0], [1.0], -1.0), ValueError, "positive definite"),
    (lambda: th.BinormalShared([0.0, 0.0], [1.0, 0.0], [[1.0, 2.0], [0.0, 1.0]]), ValueError, "symmetric"),
    (lambda: th.BinormalShared(["a"], [1.0], 1.0), TypeError, "real numbers"),
    (lambda: th.BinormalDifferent([0.0], 1.0, [1.0], [1.0, 2.0]), ValueError, "cov_neg"),
    (lambda: th.BinormalDifferent([0.0], np.nan, [1.0], 1.0), ValueError, "finite"),
    (lambda: th.SingleIndex([0.0, 0.0]), ValueError, "nonzero"),
    (lambda: th.SingleIndex([1.0], "noise", alpha=1.5), ValueError, r"'alpha' parameter of SingleIndex must be a float in \(0, 1\]"),
    (lambda: th.SingleIndex([1.0], "noise", alpha=0.0), ValueError, "alpha"),
    (lambda: th.SingleIndex([1.0], "logistic", alpha=0.5), ValueError, "only applies to link='noise'"),
    (lambda: th.SingleIndex([1.0], "noise", alpha=0.5, p=0.9), ValueError, "must lie in"),
    (lambda: th.SingleIndex([1.0], "probit"), ValueError, "'link' parameter"),
    (lambda: th.SingleIndex([1.0], x_dist="laplace"), ValueError, "'x_dist' parameter"),
    (lambda: th.SingleIndex(np.ones(9), x_dist="uniform"), ValueError, "at most 8 nonzero"),
    (lambda: th.SingleIndex([1.0], p=0.3, intercept=0.1), ValueError, "not both"),
    (lambda: th.SingleIndex([1.0], link=lambda t: 1 - expit(t)), ValueError, "nondecreasing"),
    (lambda: th.SingleIndex([1.0], link=lambda t: 2 * expit(t)), ValueError, r"\[0, 1\]"),
    (lambda: th.SingleIndex([1.0], link=ndtr, p=0.3), ValueError, "callable link"),
    (lambda: th.GaussianMixtures(0, 1.0, 2), ValueError, "'n_components' parameter of GaussianMixtures must be an integer"),
    (lambda: th.GaussianMixtures(2, 0.0, 2), ValueError, "'sigma'"),
    (lambda: th.GaussianMixtures(2, 1.0, 2.5), ValueError, "'dim'"),
    (lambda: th.GaussianMixtures(2, 1.0, 2, random_state="x"), TypeError, "random_state"),
])
def test_bad_construction_raises(build, exc, match):
    with pytest.raises(exc, match=match):
        build()


def test_bad_method_arguments_raise(shared):
    with pytest.raises(ValueError, match="'n' parameter of BinormalShared.sample"):
        shared.sample(0)
    with pytest.raises(ValueError, match="n_pos"):
        shared.sample_stratified(-1, 3)
    with pytest.raises(ValueError, match="n_pos \\+ n_neg >= 1"):
        shared.sample_stratified(0, 0)
    with pytest.raises(ValueError, match="'n_mc' parameter"):
        shared.bayes_ranking_error(n_mc=5, method="monte_carlo")
    with pytest.raises(ValueError, match="shape \\(n, 2\\)"):
        shared.eta(np.zeros((3, 3)))
    with pytest.raises(TypeError, match="'score_fn' argument"):
        shared.ranking_error(42)
    with pytest.raises(ValueError, match="failed on an array X of shape"):
        shared.ranking_error(th.LinearScore([1.0, 2.0, 3.0]), n_mc=100)
    with pytest.raises(TypeError, match="failed on an array X of shape"):
        shared.ranking_error(lambda X: X.nope, n_mc=100)
    with pytest.raises(ValueError, match="one score per row"):
        shared.ranking_error(lambda X: X, n_mc=100)
    with pytest.raises(ValueError, match="NaN or infinite"):
        shared.ranking_regret(lambda X: np.full(len(X), np.nan), n_mc=100)
    with pytest.raises(ValueError, match="'name' parameter of get"):
        shared.surrogate_regret(shared.eta, "hinge", n_mc=100)
    with pytest.raises(ValueError, match="sample size"):
        shared.w_phi(shared.eta, rw.phi.dcg(10))
    with pytest.raises(ValueError, match="'ties' parameter"):
        shared.w_phi(shared.eta, ties="min")
    with pytest.raises(ValueError, match="confidence_level"):
        shared.bayes_ranking_error().confidence_interval(1.0)


@pytest.mark.parametrize("call,exc,match", [
    (lambda: th.theorem13_bound(-0.1, 0.5, 4.0), ValueError, "'surrogate_regret' parameter of theorem13_bound"),
    (lambda: th.theorem13_bound([0.1, -0.1], 0.5, 4.0), ValueError, "at flat index 1"),
    (lambda: th.theorem13_bound(0.1, 1.0, 4.0), ValueError, r"'p' parameter of theorem13_bound must be a float in \(0, 1\)"),
    (lambda: th.theorem13_bound(0.1, 0.5, 0.0), ValueError, "'lam'"),
    (lambda: th.theorem13_bound("a", 0.5, 4.0), TypeError, "surrogate_regret"),
    (lambda: th.theorem15_bound(0.1, 0.5, 4.0, -1.0, 1.0), ValueError, "'alpha'"),
    (lambda: th.theorem15_bound(0.1, 0.5, 4.0, 1.0, 0.0), ValueError, "'c_alpha'"),
    (lambda: th.regret_bound("nope", 0.1, 0.5), ValueError, "'name' parameter of get"),
    (lambda: th.lcbr_sample_size(0.0, 0.1, 2, 1.0, 1.0, 1.0), ValueError, "'eps'"),
    (lambda: th.lcbr_sample_size(0.1, 0.1, 2.5, 1.0, 1.0, 1.0), ValueError, "'D' parameter of lcbr_sample_size must be an integer"),
    (lambda: th.lcbr_sample_size(0.1, 1.0, 2, 1.0, 1.0, 1.0), ValueError, "'p_star'"),
    (lambda: th.bbr_tail_bound(0.1, 100, 0.0, 1.0, 1.0, 1.0), ValueError, "'rho'"),
    (lambda: th.bbr_tail_bound(0.1, 100, 0.5, 1.0, 1.0, 0.5), ValueError, "'covering_number'"),
    (lambda: th.bbr_tail_bound(0.1, 100, 0.5, 1.0, 1.0, lambda r: 0.5), ValueError, "at least 1"),
    (lambda: th.bbr_tail_bound(0.1, 100, 0.5, 1.0, 1.0, lambda r: 1 / 0), TypeError, "failed on the radius"),
    (lambda: th.lcbr_tail_bound(0.1, 100, 0.5, 1.0, 1.0, 1.0, 0.0), ValueError, "'p_star'"),
    (lambda: th.ball_covering_number(0.0, 2, 1.0), ValueError, "'r'"),
])
def test_bad_bound_arguments_raise(call, exc, match):
    with pytest.raises(exc, match=match):
        call()


def test_theory_result():
    r = th.TheoryResult(0.3, 0.01, "monte_carlo", n_mc=100)
    lo, hi = r.confidence_interval()
    assert lo == pytest.approx(0.3 - 1.959963984540054 * 0.01) and hi == pytest.approx(0.3 + 1.959963984540054 * 0.01)
    assert not r.exact and float(r) == 0.3
    q = th.TheoryResult(0.3, 0.0, "quadrature", error_bound=1e-12)
    assert q.exact and q.confidence_interval() == (0.3 - 1e-12, 0.3 + 1e-12)
    with pytest.raises(Exception):
        r.value = 1.0          # frozen
    assert "SingleIndex" in repr(th.SingleIndex([1.0], "noise", alpha=0.5))
