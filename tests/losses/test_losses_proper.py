"""Proper composite losses (Agarwal 2014, "Surrogate regret bounds for bipartite ranking via
strongly proper losses", JMLR 15): values against the literal
Table 1 formulas of ``_reference_losses``, derivatives against finite differences,
links, Bayes risks by numerical minimisation, lambda by finite differences, numerical
stability at extreme margins, and the regret bounds (formulas, validation, and
Theorem 13 checked on discrete distributions whose eta is known)."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from numpy.testing import assert_allclose
from scipy.optimize import minimize_scalar

from _support import reference_losses as R
from rankwise.losses._proper import LOSSES, ProperCompositeLoss, balanced_regret_bound, get

NAMES = R.NAMES
BOUNDED = [n for n in NAMES if math.isfinite(R.SPACE[n][0])]
EXP_OVERFLOW = math.log(np.finfo(np.float64).max)   # ~709.78: exp(m) is inf beyond


def interior(name, n=41, span=8.0):
    """A grid strictly inside the prediction space (R: [-span, span])."""
    lo, hi = R.SPACE[name]
    lo, hi = max(lo, -span), min(hi, span)
    return np.linspace(lo, hi, n + 2)[1:-1]


def with_outside(name):
    """Interior grid, the two ends, and (for a bounded space) points beyond them."""
    v = interior(name)
    lo, hi = R.SPACE[name]
    extra = [lo, hi, lo - 0.5, hi + 0.5, lo - 100.0, hi + 100.0] if math.isfinite(lo) else [-30.0, 30.0]
    return np.concatenate([v, extra])


# --- registry ---------------------------------------------------------------------


def test_registry_matches_table_1():
    assert tuple(LOSSES) == NAMES
    for name in NAMES:
        loss = get(name)
        assert loss is LOSSES[name]
        assert isinstance(loss, ProperCompositeLoss)
        assert loss.name == name
        assert loss.prediction_space == R.SPACE[name]
        assert loss.strong_properness == R.LAMBDA[name]
        assert get(loss) is loss
    with pytest.raises(TypeError):
        LOSSES["mine"] = LOSSES["logistic"]  # read-only


def test_unknown_name_lists_valid_names():
    with pytest.raises(ValueError) as info:
        get("hinge")
    msg = str(info.value)
    assert "'hinge'" in msg and "parameter of get" in msg
    for name in NAMES:
        assert repr(name) in msg


# --- loss values --------------------------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("encoding", [(-1, 1), (0, 1), (False, True), (-1.0, 1.0), (0.0, 1.0)])
def test_loss_equals_table_formula(name, encoding):
    loss = get(name)
    v = with_outside(name)
    neg, pos = encoding
    for label, y in ((neg, -1), (pos, 1)):
        expected = [R.loss(name, y, R.clip(name, x)) for x in v]
        labels = np.full(v.shape, label, dtype=np.asarray(label).dtype)
        assert_allclose(loss.loss(labels, v), expected, rtol=1e-12, atol=1e-14)
        assert_allclose(loss.loss(label, v), expected, rtol=1e-12, atol=1e-14)   # scalar label broadcasts
    # A mixed label vector, elementwise.
    ys = np.where(np.arange(v.size) % 3 == 0, pos, neg)
    expected = [R.loss(name, 1 if yy == pos else -1, R.clip(name, x)) for yy, x in zip(ys.tolist(), v)]
    assert_allclose(loss.loss(ys, v), expected, rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("name", NAMES)
def test_shapes_and_scalars(name):
    loss = get(name)
    out = loss.loss(1, 0.25)
    assert isinstance(out, np.float64)
    assert loss.loss([[1], [0], [1]], [0.1, 0.2, 0.3, 0.4]).shape == (3, 4)
    assert loss.dloss([1, 0], [0.2, 0.3]).dtype == np.float64
    assert loss.d2loss([1, 0], 0.3).shape == (2,)
    assert loss.conditional_risk([0.1, 0.5], [[0.3], [0.4], [0.5]]).shape == (3, 2)
    assert isinstance(loss.bayes_risk(0.3), np.float64)


def test_squared_hinge_is_squared_on_its_space():
    """Table 1 lists both; on [-1, 1] max(0, 1 - y yhat) = 1 - y yhat, so they coincide."""
    v = np.linspace(-3, 3, 61)
    for y in (-1, 1):
        assert_allclose(get("squared_hinge").loss(y, v), get("squared").loss(y, v), rtol=0, atol=0)
        assert_allclose(get("squared_hinge").dloss(y, v), get("squared").dloss(y, v), rtol=0, atol=0)


# --- derivatives ----------------------------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_dloss_matches_central_difference(name):
    loss = get(name)
    h = 1e-6
    v = interior(name)
    for y in (-1, 1):
        fd = np.array([(R.loss(name, y, x + h) - R.loss(name, y, x - h)) / (2 * h) for x in v])
        assert_allclose(loss.dloss(y, v), fd, rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize("name", NAMES)
def test_d2loss_matches_second_difference(name):
    loss = get(name)
    h = 1e-4
    v = interior(name)
    for y in (-1, 1):
        fd = np.array(
            [(R.loss(name, y, x + h) - 2 * R.loss(name, y, x) + R.loss(name, y, x - h)) / h**2 for x in v]
        )
        assert_allclose(loss.d2loss(y, v), fd, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("name", BOUNDED)
def test_clipped_loss_is_flat_outside_its_space(name):
    loss = get(name)
    lo, hi = R.SPACE[name]
    outside = np.array([lo - 1e4, lo - 0.5, lo - 1e-9, hi + 1e-9, hi + 0.5, hi + 1e4, -np.inf, np.inf])
    ends = np.where(outside < lo, lo, hi)
    for y in (-1, 1):
        assert_allclose(loss.loss(y, outside), loss.loss(y, ends), rtol=0, atol=0)
        assert np.all(loss.dloss(y, outside) == 0.0)
        assert np.all(loss.d2loss(y, outside) == 0.0)
    assert_allclose(loss.inverse_link(outside), loss.inverse_link(ends), rtol=0, atol=0)


@pytest.mark.parametrize("name", ["logistic", "canonical_exponential", "canonical_squared", "canonical_spherical"])
def test_canonical_link_gradient(name):
    """With the canonical link psi = -H': dl/dyhat = psi^{-1}(yhat) - 1{y = 1}."""
    loss = get(name)
    v = with_outside(name)
    inside = (v >= R.SPACE[name][0]) & (v <= R.SPACE[name][1])
    eta_hat = loss.inverse_link(v)
    assert_allclose(loss.dloss(1, v), np.where(inside, eta_hat - 1.0, 0.0), rtol=1e-12, atol=1e-15)
    assert_allclose(loss.dloss(0, v), np.where(inside, eta_hat, 0.0), rtol=1e-12, atol=1e-15)
    eta = np.linspace(0.01, 0.99, 99)
    dH = np.array([(R.bayes_risk(name, e + 1e-6) - R.bayes_risk(name, e - 1e-6)) / 2e-6 for e in eta])
    assert_allclose(loss.link(eta), -dH, rtol=1e-6, atol=1e-8)


# --- links ----------------------------------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_link_and_inverse_link_invert_each_other(name):
    loss = get(name)
    eta = np.linspace(0.001, 0.999, 999)
    psi = loss.link(eta)
    assert_allclose(psi, [R.link(name, e) for e in eta], rtol=1e-12, atol=1e-12)
    assert np.all(np.diff(psi) > 0)
    assert_allclose(loss.inverse_link(psi), eta, rtol=0, atol=1e-12)
    v = interior(name, n=201, span=10.0)
    eta_hat = loss.inverse_link(v)
    assert np.all(np.diff(eta_hat) > 0) and np.all((eta_hat > 0) & (eta_hat < 1))
    assert_allclose(loss.link(eta_hat), v, rtol=0, atol=1e-6)


@pytest.mark.parametrize("name", NAMES)
def test_link_at_zero_and_one(name):
    loss = get(name)
    lo, hi = R.SPACE[name]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert_allclose(loss.link([0.0, 0.5, 1.0]), [lo, R.link(name, 0.5), hi], rtol=0, atol=1e-15)
        assert_allclose(loss.inverse_link([lo, hi]), [0.0, 1.0], rtol=0, atol=0)
        # The 0 * inf = 0 convention: at eta = 0, 1 the Bayes risk is attained at psi(eta).
        assert_allclose(loss.conditional_risk([0.0, 1.0], loss.link([0.0, 1.0])), [0.0, 0.0], atol=1e-300)
        assert_allclose(loss.bayes_risk([0.0, 1.0]), [0.0, 0.0], atol=1e-300)
        assert_allclose(loss.conditional_regret([0.0, 1.0], loss.link([0.0, 1.0])), [0.0, 0.0], atol=1e-300)


# --- Bayes risk -----------------------------------------------------------------------

ETAS = [0.001, 0.01, 0.1, 0.25, 0.5, 0.6, 0.9, 0.99, 0.999]


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("eta", ETAS)
def test_bayes_risk_is_the_minimum_of_the_conditional_risk(name, eta):
    loss = get(name)
    lo, hi = R.SPACE[name]
    bounds = (lo, hi) if math.isfinite(lo) else (-60.0, 60.0)
    res = minimize_scalar(lambda v: R.conditional_risk(name, eta, v), bounds=bounds, method="bounded",
                          options={"xatol": 1e-11, "maxiter": 2000})
    assert res.success
    assert_allclose(loss.bayes_risk(eta), res.fun, rtol=1e-9, atol=1e-13)
    assert_allclose(R.bayes_risk(name, eta), res.fun, rtol=1e-9, atol=1e-13)   # the derived closed form
    assert_allclose(loss.link(eta), res.x, rtol=1e-5, atol=1e-5)                # minimiser = psi(eta)
    assert_allclose(loss.conditional_risk(eta, loss.link(eta)), loss.bayes_risk(eta), rtol=1e-13, atol=1e-15)
    assert loss.conditional_regret(eta, loss.link(eta)) <= 1e-15


@pytest.mark.parametrize("name", NAMES)
def test_conditional_risk_matches_reference(name):
    loss = get(name)
    v = with_outside(name)
    for eta in (0.0, 0.2, 0.5, 0.93, 1.0):
        expected = [R.conditional_risk(name, eta, x) for x in v]
        assert_allclose(loss.conditional_risk(eta, v), expected, rtol=1e-12, atol=1e-14)
        regret = [max(e - R.bayes_risk(name, eta), 0.0) for e in expected]
        assert_allclose(loss.conditional_regret(eta, v), regret, rtol=1e-9, atol=1e-13)


# --- strong properness ----------------------------------------------------------------


def _eta_grid_to_the_ends():
    g = np.geomspace(1e-4, 0.5, 400)
    return np.unique(np.concatenate([g, 1.0 - g]))


@pytest.mark.parametrize("name", NAMES)
def test_lambda_is_the_minimum_of_minus_H_second_derivative(name):
    loss = get(name)
    eta = _eta_grid_to_the_ends()
    h = np.minimum(1e-3, 0.05 * np.minimum(eta, 1.0 - eta))
    H = loss.bayes_risk
    w = -(H(eta + h) - 2.0 * H(eta) + H(eta - h)) / h**2
    lam = loss.strong_properness
    assert_allclose(w.min(), lam, rtol=1e-3)
    assert w.min() >= lam * (1.0 - 1e-6)


@pytest.mark.parametrize("name", NAMES)
def test_strong_properness_inequality(name):
    loss = get(name)
    lam = loss.strong_properness
    eta = np.linspace(0.0, 1.0, 101)[:, None]
    eta_hat = np.linspace(0.005, 0.995, 100)[None, :]
    regret = loss.conditional_regret(eta, loss.link(eta_hat))
    gap = 0.5 * lam * (eta - eta_hat) ** 2
    assert np.all(regret >= gap - 1e-12)
    # ... and lambda is the best constant: the ratio comes within 2% of 1 somewhere.
    ratio = regret / gap
    assert ratio.min() <= 1.02


# --- numerical stability ----------------------------------------------------------------

EXTREME = np.array([-1e4, -700.0, 0.0, 700.0, 1e4])


@pytest.mark.parametrize("name", NAMES)
def test_extreme_margins_no_warnings_no_nan(name):
    loss = get(name)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for y in (-1, 1):
            margin = y * EXTREME
            # Finite wherever mathematically finite and representable: only the exponential
            # loss exceeds the float64 range (exp(-margin) for margin < -709.78).
            expect_finite = ~(margin < -EXP_OVERFLOW) if name == "exponential" else np.ones(EXTREME.size, bool)
            for method in (loss.loss, loss.dloss, loss.d2loss):
                out = method(y, EXTREME)
                assert not np.isnan(out).any(), (method.__name__, y, out)
                assert np.array_equal(np.isfinite(out), expect_finite), (method.__name__, y, out)
            risk = loss.conditional_risk(0.3, EXTREME)
            regret = loss.conditional_regret(0.3, EXTREME)
            assert not np.isnan(risk).any() and not np.isnan(regret).any()
            assert np.all(regret >= 0)
        eta_hat = loss.inverse_link(EXTREME)
        assert np.all((eta_hat >= 0) & (eta_hat <= 1)) and np.all(np.diff(eta_hat) >= 0)
        assert eta_hat[2] == pytest.approx(R.clip(name, 0.0) if name == "spherical" else 0.5)
        inf = np.array([-np.inf, np.inf])
        for method in (loss.loss, loss.dloss, loss.d2loss):
            for y in (-1, 1):
                assert not np.isnan(method(y, inf)).any()
        assert_allclose(loss.inverse_link(inf), [0.0, 1.0], rtol=0, atol=0)


def test_extreme_margin_values():
    logistic = get("logistic")
    assert logistic.loss(1, -1e4) == 1e4                              # ln(1 + e^1e4) = 1e4 in float64
    assert logistic.loss(0, 1e4) == 1e4
    assert logistic.loss(1, 700.0) == pytest.approx(math.exp(-700.0), rel=1e-14)   # log1p(e^-700), full precision
    assert logistic.dloss(1, -1e4) == -1.0 and logistic.dloss(1, 1e4) == 0.0
    assert logistic.dloss(1, 700.0) == pytest.approx(-math.exp(-700.0), rel=1e-14)
    exponential = get("exponential")
    assert exponential.loss(1, -1e4) == np.inf and exponential.loss(1, 1e4) == 0.0
    assert exponential.loss(1, -700.0) == pytest.approx(math.exp(700.0), rel=1e-14)
    assert exponential.inverse_link(-1e4) == 0.0 and exponential.inverse_link(1e4) == 1.0
    cexp = get("canonical_exponential")
    # sqrt(1 + m^2) - m at m = 5000, rationalised: the naive difference loses 8 digits.
    assert cexp.loss(1, 1e4) == pytest.approx(1.0 / (math.sqrt(1.0 + 25e6) + 5000.0), rel=1e-14)
    assert cexp.loss(-1, 1e4) == pytest.approx(math.sqrt(1.0 + 25e6) + 5000.0, rel=1e-14)
    # 1 - psi^{-1}(1e4) = (1 - 1e4/sqrt(4 + 1e8)) / 2 = 2 / (h (h + 1e4)), h = sqrt(4 + 1e8)
    h = math.sqrt(4.0 + 1e8)
    assert cexp.inverse_link(-1e4) == pytest.approx(2.0 / (h * (h + 1e4)), rel=1e-14)
    assert 1.0 - cexp.inverse_link(1e4) == pytest.approx(2.0 / (h * (h + 1e4)), rel=1e-7)


# --- regret bounds ----------------------------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_regret_bound_formula(name):
    loss = get(name)
    lam = R.LAMBDA[name]
    for p in (0.01, 0.2, 0.5, 0.77):
        for r in (0.0, 1e-8, 0.003, 0.5, 4.0):
            got = loss.regret_bound(r, p)
            assert isinstance(got, float)
            assert got == pytest.approx(R.regret_bound(lam, r, p), rel=1e-14, abs=0)
        rs = np.array([0.0, 0.01, 0.2])
        assert_allclose(loss.regret_bound(rs, p), [R.regret_bound(lam, r, p) for r in rs], rtol=1e-14)
        assert_allclose(loss.regret_bound(list(rs), p), [R.regret_bound(lam, r, p) for r in rs], rtol=1e-14)


def test_regret_bound_factors_of_table_1():
    """The 'bound factor on sqrt(regret)' column of Agarwal (2014)'s Table 1, at p = 1/2."""
    factors = {"exponential": 1 / math.sqrt(2), "logistic": 1 / math.sqrt(2), "squared": 0.5, "squared_hinge": 0.5,
               "spherical": math.sqrt(2), "canonical_exponential": 1 / math.sqrt(2), "canonical_squared": 1.0,
               "canonical_spherical": math.sqrt(2)}
    for name, factor in factors.items():
        assert get(name).regret_bound(1.0, 0.5) == pytest.approx(factor / 0.25, rel=1e-14)


@pytest.mark.parametrize("p", [0.0, 1.0, 1.5, -0.2, float("nan"), float("inf")])
def test_regret_bound_rejects_bad_p(p):
    with pytest.raises(ValueError, match=r"The 'p' parameter of regret_bound must be a float in \(0, 1\)\. Got"):
        get("logistic").regret_bound(0.1, p)
    with pytest.raises(ValueError, match="'p' parameter of low_noise_bound"):
        get("logistic").low_noise_bound(0.1, p, alpha=0.5, c_alpha=1.0)


def test_regret_bound_message_shape():
    with pytest.raises(ValueError) as info:
        get("logistic").regret_bound(0.1, 1.5)
    assert str(info.value) == "The 'p' parameter of regret_bound must be a float in (0, 1). Got 1.5 instead."


@pytest.mark.parametrize("bad", [-0.1, -1e-300, float("nan"), float("inf"), [0.1, -0.2], np.array([0.0, np.nan])])
def test_regret_bound_rejects_bad_regret(bad):
    with pytest.raises(ValueError, match="'surrogate_regret' parameter of regret_bound"):
        get("squared").regret_bound(bad, 0.5)
    with pytest.raises(ValueError, match="'surrogate_regret' parameter of balanced_regret_bound"):
        balanced_regret_bound(bad, "logistic")


def test_regret_bound_rejects_non_numbers():
    with pytest.raises(TypeError):
        get("squared").regret_bound("0.1", 0.5)
    with pytest.raises(TypeError):
        get("squared").regret_bound(0.1, "half")


@pytest.mark.parametrize("name", NAMES)
def test_low_noise_bound(name):
    loss = get(name)
    lam = R.LAMBDA[name]
    for alpha in (0.0, 0.5, 1.0, 3.0):
        for c in (0.1, 1.0, 7.5):
            for r in (0.0, 1e-4, 0.2):
                got = loss.low_noise_bound(r, 0.3, alpha=alpha, c_alpha=c)
                assert got == pytest.approx(R.low_noise_bound(lam, r, 0.3, alpha, c), rel=1e-13, abs=0)
    # alpha = 0, C_0 = 1: Theorem 13.
    rs = np.array([0.0, 1e-3, 0.1])
    assert_allclose(loss.low_noise_bound(rs, 0.4, 0.0, 1.0), loss.regret_bound(rs, 0.4), rtol=1e-14)
    # Lower noise, smaller bound for small regrets (same constant).
    assert loss.low_noise_bound(1e-6, 0.4, 1.0, 1.0) < loss.low_noise_bound(1e-6, 0.4, 0.0, 1.0)
    with pytest.raises(ValueError, match="'alpha' parameter of low_noise_bound"):
        loss.low_noise_bound(0.1, 0.5, alpha=-0.5, c_alpha=1.0)
    with pytest.raises(ValueError, match="'c_alpha' parameter of low_noise_bound"):
        loss.low_noise_bound(0.1, 0.5, alpha=0.5, c_alpha=0.0)
    with pytest.raises(ValueError, match="'surrogate_regret' parameter of low_noise_bound"):
        loss.low_noise_bound(-0.1, 0.5, alpha=0.5, c_alpha=1.0)


def test_balanced_regret_bound():
    for r in (0.0, 0.01, 0.3):
        assert balanced_regret_bound(r, "exponential") == pytest.approx(R.balanced_bound("exponential", r), rel=1e-15)
        assert balanced_regret_bound(r, "logistic") == pytest.approx(R.balanced_bound("logistic", r), rel=1e-15)
    assert balanced_regret_bound(0.01, get("logistic")) == pytest.approx(0.2)
    assert_allclose(balanced_regret_bound([0.01, 0.04], "exponential"), [0.3 / math.sqrt(2), 0.6 / math.sqrt(2)])
    for other in ("squared", "spherical", "canonical_exponential", "hinge"):
        with pytest.raises(ValueError, match="'loss' parameter of balanced_regret_bound must be 'exponential' or 'logistic'"):
            balanced_regret_bound(0.1, other)
    with pytest.raises(ValueError, match="'loss' parameter of balanced_regret_bound"):
        balanced_regret_bound(0.1, get("squared"))
    impostor = ProperCompositeLoss.from_bayes_risk(
        lambda e: 4 * e * (1 - e), lambda e: 4 - 8 * e, lambda e: np.full_like(e, -8.0),
        strong_properness=8.0, name="logistic")
    with pytest.raises(ValueError, match="'loss' parameter of balanced_regret_bound"):
        balanced_regret_bound(0.1, impostor)


# --- the bounds hold on distributions with known eta ---------------------------------------


def _discrete_problem(seed, k=7):
    rng = np.random.default_rng(seed)
    px = rng.dirichlet(np.ones(k))
    eta = rng.uniform(0.02, 0.98, size=k)
    noise = rng.normal(scale=rng.choice([0.02, 0.1, 0.3]), size=k)
    eta_hat = np.clip(eta + noise, 0.01, 0.99)
    if seed % 5 == 0:
        eta_hat[:3] = eta_hat[0]          # some ties in the scores
    return px.tolist(), eta.tolist(), eta_hat


@pytest.mark.parametrize("seed", range(20))
def test_theorem_13_holds(seed):
    px, eta, eta_hat = _discrete_problem(seed)
    p = sum(a * e for a, e in zip(px, eta))
    for name in NAMES:
        loss = get(name)
        f = loss.link(eta_hat)
        regret_rank = R.ranking_regret(px, eta, f.tolist())
        sr = R.surrogate_regret(name, px, eta, f.tolist())
        assert float(np.dot(px, loss.conditional_regret(np.array(eta), f))) == pytest.approx(sr, rel=1e-9, abs=1e-14)
        assert regret_rank <= loss.regret_bound(max(sr, 0.0), p) + 1e-12
    for name in ("exponential", "logistic"):
        f = get(name).link(eta_hat).tolist()
        bal = R.balanced_regret(name, px, eta, f)
        assert R.ranking_regret(px, eta, f) <= balanced_regret_bound(max(bal, 0.0), name) + 1e-12


def test_perfect_scorer_has_zero_regrets():
    px, eta, _ = _discrete_problem(3)
    for name in NAMES:
        loss = get(name)
        f = loss.link(np.array(eta))
        assert R.ranking_regret(px, eta, f.tolist()) == 0.0
        assert float(np.dot(px, loss.conditional_regret(np.array(eta), f))) <= 1e-15


# --- building a loss from a Bayes risk ---------------------------------------------------------


def _spherical_from_H():
    def H(e):
        return 1.0 - np.hypot(e, 1.0 - e)

    def dH(e):
        return -(2.0 * e - 1.0) / np.hypot(e, 1.0 - e)

    def d2H(e):
        return -np.hypot(e, 1.0 - e) ** -3.0

    def d3H(e):
        return 3.0 * (2.0 * e - 1.0) * np.hypot(e, 1.0 - e) ** -5.0

    return ProperCompositeLoss.from_bayes_risk(H, dH, d2H, d3_bayes_risk=d3H, strong_properness=1.0, name="sph")


def test_from_bayes_risk_rebuilds_the_spherical_loss():
    built = _spherical_from_H()
    assert built.prediction_space == (0.0, 1.0) and built.strong_properness == 1.0 and built.name == "sph"
    e = np.linspace(0.0, 1.0, 101)
    sph = get("spherical")
    for y in (0, 1):
        assert_allclose(built.loss(y, e), sph.loss(y, e), rtol=1e-12, atol=1e-14)
        # (the derivatives at e = 0, 1 are taken 1e-12 inside)
        assert_allclose(built.dloss(y, e), sph.dloss(y, e), rtol=1e-12, atol=1e-11)
        assert_allclose(built.d2loss(y, e), sph.d2loss(y, e), rtol=1e-12, atol=1e-11)
    eta = np.linspace(0.0, 1.0, 11)
    assert_allclose(built.bayes_risk(eta), sph.bayes_risk(eta), atol=1e-15)
    assert_allclose(built.link(eta), eta) and assert_allclose(built.inverse_link(eta), eta)


def test_from_bayes_risk_entropy_gives_log_loss_on_probabilities():
    from scipy.special import entr

    log_loss = ProperCompositeLoss.from_bayes_risk(
        lambda e: entr(e) + entr(1 - e), lambda e: np.log1p(-e) - np.log(e), lambda e: -1.0 / (e * (1 - e)),
        strong_properness=4.0, name="log")
    e = np.array([0.0, 0.1, 0.5, 0.9, 1.0])
    with np.errstate(divide="ignore"):
        pos, neg = -np.log(e), -np.log1p(-e)                                           # inf at one end
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert_allclose(log_loss.loss(1, e), pos, rtol=1e-12)
        assert_allclose(log_loss.loss(0, e), neg, rtol=1e-12)
        # d/de -log(e) = -1/e (-1e12 at the end, its limit being -inf); d/de -log(1-e) = 1/(1-e).
        assert_allclose(log_loss.dloss(1, e[1:]), -1.0 / e[1:], rtol=1e-9)
        assert_allclose(log_loss.dloss(0, e[:-1]), 1.0 / (1.0 - e[:-1]), rtol=1e-9)
        assert log_loss.dloss(1, 0.0) == pytest.approx(-1e12, rel=1e-9)
    with pytest.raises(NotImplementedError):
        log_loss.d2loss(1, 0.5)


def test_from_bayes_risk_checks_strong_concavity():
    args = (lambda e: e * (1 - e), lambda e: 1 - 2 * e, lambda e: np.full_like(e, -2.0))
    ProperCompositeLoss.from_bayes_risk(*args, strong_properness=2.0)
    with pytest.raises(ValueError, match="not 3.0-strongly concave"):
        ProperCompositeLoss.from_bayes_risk(*args, strong_properness=3.0)
    with pytest.raises(ValueError, match="'strong_properness' parameter of from_bayes_risk"):
        ProperCompositeLoss.from_bayes_risk(*args, strong_properness=0.0)
    with pytest.raises(TypeError, match="'bayes_risk' parameter of from_bayes_risk must be callable"):
        ProperCompositeLoss.from_bayes_risk(1.0, args[1], args[2], strong_properness=1.0)


# --- input validation ----------------------------------------------------------------------------


def test_label_and_prediction_validation():
    loss = get("logistic")
    with pytest.raises(ValueError, match=r"'y' argument of loss must hold labels in \{0, 1\} or \{-1, \+1\}"):
        loss.loss([0, 2], [0.1, 0.2])
    with pytest.raises(ValueError, match="mixes the encodings"):
        loss.dloss([0, -1, 1], [0.1, 0.2, 0.3])
    with pytest.raises(TypeError, match="'y' argument of loss"):
        loss.loss(["a", "b"], [0.1, 0.2])
    with pytest.raises(ValueError, match="'yhat' argument of loss contains 1 NaN"):
        loss.loss([0, 1], [0.1, np.nan])
    with pytest.raises(TypeError, match="'yhat' argument of inverse_link"):
        loss.inverse_link(["x"])
    with pytest.raises(ValueError, match="do not broadcast"):
        loss.loss([0, 1, 1], [0.1, 0.2])
    for bad in (-0.1, 1.1, np.nan):
        with pytest.raises(ValueError, match="'eta' argument of bayes_risk"):
            loss.bayes_risk([0.5, bad])
        with pytest.raises(ValueError, match="'eta' argument of link"):
            loss.link(bad)
        with pytest.raises(ValueError, match="'eta' argument of conditional_regret"):
            loss.conditional_regret(bad, 0.0)
