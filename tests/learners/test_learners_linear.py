"""Learners: against literal all-pairs solutions, scikit-learn's estimator checks,
pipelines and searches."""

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.utils.estimator_checks import parametrize_with_checks

import rankwise as rw
from _support import reference_learners as refl


def data(n=300, d=4, seed=0, share=0.3):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < share).astype(int)
    X = rng.normal(size=(n, d)) + 0.8 * y[:, None] * np.linspace(1, 0.2, d)
    return X, y


# --- BBR / LCBR --------------------------------------------------------------------------

@given(st.integers(3, 12), st.integers(1, 4), st.integers(0, 10_000), st.booleans(),
       st.sampled_from([None, 0.05, 0.5, 100.0]), st.sampled_from([0.0, 0.1]))
@settings(max_examples=60)
def test_bbr_equals_literal_all_pairs_solution(n, d, seed, weighted, radius, alpha):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d)).round(1)
    y = np.zeros(n, int)
    y[: max(1, n // 3)] = 1
    rng.shuffle(y)
    w = rng.uniform(0.2, 3.0, n) if weighted else None
    S, mu = refl.pair_moments(X, y, w)
    if radius is None and alpha == 0.0 and np.linalg.matrix_rank(S, tol=1e-10) < d:
        return  # no unique minimiser without a ball or a ridge
    want = refl.bbr_solution(S, mu, radius, alpha)
    for method in ("moments", "pairs"):
        m = rw.BBRRanker(radius=radius, alpha=alpha, method=method).fit(X, y, sample_weight=w)
        assert np.allclose(m.pair_covariance_, S, rtol=1e-12, atol=1e-12)
        assert np.allclose(m.pair_mean_, mu, rtol=1e-12, atol=1e-12)
        assert np.allclose(m.coef_, want, rtol=1e-10, atol=1e-10), (m.coef_, want)
        if radius is not None:
            assert np.linalg.norm(m.coef_) <= radius * (1 + 1e-12)
            if m.multiplier_ > 0:  # on the sphere
                assert np.linalg.norm(m.coef_) == pytest.approx(radius, rel=1e-12)


def test_bbr_inside_and_on_the_ball():
    X, y = data()
    free = rw.BBRRanker(alpha=0.0).fit(X, y)
    r = np.linalg.norm(free.coef_)
    inside = rw.BBRRanker(radius=2 * r, alpha=0.0).fit(X, y)
    assert inside.multiplier_ == 0.0 and np.allclose(inside.coef_, free.coef_)
    on = rw.BBRRanker(radius=0.5 * r, alpha=0.0).fit(X, y)
    assert on.multiplier_ > 0 and np.linalg.norm(on.coef_) == pytest.approx(0.5 * r, rel=1e-12)
    # KKT: (Sigma + nu I) w = mu on the sphere.
    S, mu = on.pair_covariance_, on.pair_mean_
    assert np.allclose((S + on.multiplier_ * np.eye(S.shape[0])) @ on.coef_, mu, atol=1e-12)


def test_bbr_integer_weights_are_repetitions():
    X, y = data(n=120)
    w = np.random.default_rng(1).integers(1, 4, 120)
    a = rw.BBRRanker().fit(X, y, sample_weight=w)
    b = rw.BBRRanker().fit(np.repeat(X, w, axis=0), np.repeat(y, w))
    assert np.allclose(a.coef_, b.coef_, rtol=1e-10, atol=1e-12)


def test_bbr_sparse_input_equals_dense():
    sp = pytest.importorskip("scipy.sparse")
    X, y = data(n=200, d=6)
    X[X < 0.5] = 0.0
    a = rw.BBRRanker().fit(X, y)
    b = rw.BBRRanker().fit(sp.csr_matrix(X), y)
    assert np.allclose(a.coef_, b.coef_, rtol=1e-10, atol=1e-12)
    assert np.allclose(a.decision_function(X), b.decision_function(sp.csr_matrix(X)))


def test_lcbr_approaches_bbr_as_pairs_grow():
    X, y = data(n=400, d=5)
    full = rw.BBRRanker(alpha=0.0).fit(X, y).coef_
    dist = {}
    for S in (50, 500, 5000, 50000):
        dist[S] = np.mean([np.linalg.norm(rw.LCBRRanker(n_pairs=S, alpha=0.0, random_state=k).fit(X, y).coef_ - full)
                           for k in range(10)])
    assert dist[50] > dist[500] > dist[5000] > dist[50000]
    # Monte Carlo rate: a 100x larger sample shrinks the error about 10x.
    assert dist[50000] < dist[500] / 4


def test_lcbr_reproducible():
    X, y = data()
    a = rw.LCBRRanker(n_pairs=300, random_state=3).fit(X, y).coef_
    b = rw.LCBRRanker(n_pairs=300, random_state=3).fit(X, y).coef_
    assert np.array_equal(a, b)


def test_learner_errors():
    X, y = data(n=50)
    with pytest.raises(ValueError, match="radius"):
        rw.BBRRanker(radius=-1).fit(X, y)
    with pytest.raises(ValueError, match="method"):
        rw.BBRRanker(method="loop").fit(X, y)
    with pytest.raises(ValueError, match="n_pairs"):
        rw.LCBRRanker(n_pairs=0).fit(X, y)
    with pytest.raises(ValueError, match="two"):
        rw.BBRRanker().fit(X, np.arange(50) % 3)
    with pytest.raises(ValueError):
        rw.BBRRanker().fit(np.where(np.eye(50, 4) > 0, np.nan, X), y)
    # The solver refuses a quadratic that is flat along mu (here Sigma = 0): no minimiser
    # without a ball or a ridge. BBR's own moments never give one (next test), so this is
    # reached through solve_trust_region only.
    with pytest.raises(ValueError, match="no minimiser"):
        rw.learners._bbr.solve_trust_region(np.zeros((2, 2)), np.ones(2), None)
    # With a ball the same quadratic has its minimiser on the sphere, along mu.
    w, nu = rw.learners._bbr.solve_trust_region(np.zeros((2, 2)), np.ones(2), 1.0)
    assert np.allclose(w, np.ones(2) / np.sqrt(2), atol=1e-10) and nu > 0


def test_bbr_singular_pair_covariance_has_the_minimum_norm_solution():
    """A duplicated column and a constant one make the pair covariance Sigma singular, but
    Sigma = Cov+ + Cov- + mu mu^T >= mu mu^T, so mu is orthogonal to its null space and the
    unpenalised problem still has a minimiser (the risk is a quadratic bounded below): BBR
    returns the minimum-norm one, the one-column solution split evenly over the copies, 0 on
    the constant column."""
    X, y = data(n=50)
    one = rw.BBRRanker(alpha=0.0).fit(X[:, :1], y).coef_[0]
    coef = rw.BBRRanker(alpha=0.0).fit(np.c_[X[:, 0], X[:, 0], np.zeros(50)], y).coef_
    # 1e-10: the eigendecomposition's rounding on a 3 x 3 matrix of entries of order 1.
    assert np.allclose(coef, [one / 2, one / 2, 0.0], rtol=0, atol=1e-10), (coef, one)


# --- scikit-learn contract ----------------------------------------------------------------

ESTIMATORS = [rw.BBRRanker(), rw.BBRRanker(radius=1.0), rw.LCBRRanker(n_pairs=2000, random_state=0)] + [
    rw.ProperLossRanker(loss=name) for name in rw.losses.LOSSES] + [
    rw.PairwiseRanker(loss=name) for name in rw.losses.PAIRWISE]


_RANDOM_PAIRS = ("LCBR draws its pairs at random: with weights a pair is drawn with probability "
                 "proportional to w_i w_j, which matches repetition in distribution, not draw by draw")


_KINK = ("the squared hinge objective is not twice differentiable: L-BFGS stops about 1e-7 away from the "
         "optimum, and the weighted and repeated fits then differ beyond the check's rtol of 1e-7")
_NONCONVEX = ("the spherical losses are not convex in the prediction (Agarwal's Table 1; rankwise.losses "
              "documents it): weighted and repeated data can lead L-BFGS to different local optima")


def expected_failures(estimator):
    reason = None
    if isinstance(estimator, rw.LCBRRanker):
        reason = _RANDOM_PAIRS
    elif isinstance(estimator, (rw.ProperLossRanker, rw.PairwiseRanker)) and estimator.loss == "squared_hinge":
        reason = _KINK
    elif isinstance(estimator, rw.ProperLossRanker) and "spherical" in estimator.loss:
        reason = _NONCONVEX
    if reason is None:
        return {}
    return {"check_sample_weight_equivalence_on_dense_data": reason,
            "check_sample_weight_equivalence_on_sparse_data": reason}


@parametrize_with_checks(ESTIMATORS, expected_failed_checks=expected_failures)
def test_sklearn_compatible(estimator, check):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", rw.UndefinedMetricWarning)
        check(estimator)


def test_pipeline_gridsearch_and_feature_maps():
    from sklearn.kernel_approximation import Nystroem
    from sklearn.model_selection import GridSearchCV, StratifiedKFold
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import PolynomialFeatures, SplineTransformer, StandardScaler

    rng = np.random.default_rng(0)
    X = rng.normal(size=(600, 2))
    # A ring: positives far from the origin. No linear score ranks it; feature maps do.
    y = (np.hypot(X[:, 0], X[:, 1]) + 0.3 * rng.normal(size=600) > 1.2).astype(int)
    lin = rw.BBRRanker().fit(X[:400], y[:400]).score(X[400:], y[400:])
    assert lin < 0.65
    for fmap in (PolynomialFeatures(2), SplineTransformer(n_knots=5), Nystroem(gamma=0.5, n_components=100, random_state=0)):
        pipe = make_pipeline(StandardScaler(), fmap, rw.BBRRanker(alpha=1e-3)).fit(X[:400], y[:400])
        assert pipe.score(X[400:], y[400:]) > 0.85, type(fmap).__name__
    search = GridSearchCV(make_pipeline(PolynomialFeatures(2), rw.BBRRanker()), {"bbrranker__alpha": [1e-6, 1e-2, 1.0]},
                          cv=StratifiedKFold(3), scoring=rw.scorer("local_auc", top=0.3)).fit(X, y)
    assert search.best_score_ > 0.3 and search.best_params_["bbrranker__alpha"] in (1e-6, 1e-2, 1.0)


def test_scorers():
    from sklearn.model_selection import cross_val_score

    X, y = data(n=400)
    m = rw.BBRRanker()
    auc = cross_val_score(m, X, y, cv=3, scoring=rw.scorer("auc"))
    assert np.allclose(auc, cross_val_score(m, X, y, cv=3))  # score is the AUC
    push = cross_val_score(m, X, y, cv=3, scoring=rw.scorer("pnorm_push", p=4))
    assert (push < 0).all()  # a loss, negated
    ys = np.where(y == 1, "yes", "no")
    assert np.allclose(cross_val_score(m, X, ys, cv=3, scoring=rw.scorer("auc")), auc)
    with pytest.raises(ValueError, match="criterion"):
        rw.scorer("accuracy")
    with pytest.raises(ValueError, match="top"):
        rw.scorer("local_auc", top=3)


# --- saving and loading -------------------------------------------------------------------

@pytest.mark.parametrize("est", [rw.BBRRanker(radius=0.5), rw.LCBRRanker(n_pairs=500, random_state=0)])
def test_save_load_round_trip(tmp_path, est):
    pd = pytest.importorskip("pandas")
    X, y = data(n=200)
    Xdf = pd.DataFrame(X, columns=[f"f{i}" for i in range(X.shape[1])])
    ys = np.where(y == 1, "default", "paid")
    est.fit(Xdf, ys)
    path = tmp_path / "model.rwm"
    rw.save_model(est, path)
    back = rw.load_model(path)
    assert type(back) is type(est) and back.get_params() == est.get_params()
    assert np.array_equal(back.coef_, est.coef_) and back.intercept_ == est.intercept_
    assert np.array_equal(back.decision_function(Xdf), est.decision_function(Xdf))
    assert np.array_equal(back.predict(Xdf), est.predict(Xdf)) and back.classes_.tolist() == ["default", "paid"]
    assert list(back.feature_names_in_) == list(Xdf.columns)
    assert rw.inspect_model(path)["estimator"] == type(est).__name__
    with pytest.raises(FileExistsError):
        rw.save_model(est, path)


def test_load_refuses_foreign_state(tmp_path):
    est = rw.BBRRanker().fit(*data(n=100))
    with pytest.raises(ValueError, match="unexpected"):
        rw.BBRRanker()._set_model_state({"intercept_": 0.0, "n_features_in_": 4, "classes_": [0, 1],
                                         "__class__": "x"}, {"coef_": est.coef_})
    with pytest.raises(ValueError, match="shape"):
        rw.BBRRanker()._set_model_state({"intercept_": 0.0, "n_features_in_": 5, "classes_": [0, 1]},
                                        {"coef_": est.coef_})


# --- ProperLossRanker ------------------------------------------------------------------------

def test_proper_logistic_equals_unpenalised_logistic_regression():
    from sklearn.linear_model import LogisticRegression

    X, y = data(n=500, d=3)
    ours = rw.ProperLossRanker(loss="logistic", alpha=0.0).fit(X, y)
    ref = LogisticRegression(C=np.inf, tol=1e-12, max_iter=10_000).fit(X, y)
    assert np.allclose(ours.coef_, ref.coef_.ravel(), rtol=1e-5, atol=1e-6)
    assert ours.intercept_ == pytest.approx(ref.intercept_[0], rel=1e-5, abs=1e-6)
    assert np.allclose(ours.predict_proba(X), ref.predict_proba(X), atol=1e-6)


@pytest.mark.parametrize("loss", list(rw.losses.LOSSES))
def test_proper_losses_rank_and_calibrate(loss):
    # Well specified for the logistic link: P(y=1|x) = expit(x @ beta - 1).
    from scipy.special import expit

    rng = np.random.default_rng(0)
    X = rng.normal(size=(4000, 2))
    p = expit(X @ np.array([1.5, -1.0]) - 1.0)
    y = (rng.random(4000) < p).astype(int)
    m = rw.ProperLossRanker(loss=loss).fit(X[:3000], y[:3000])
    auc_true = rw.auc(y[3000:], p[3000:])
    assert m.score(X[3000:], y[3000:]) > auc_true - 0.02
    # Probabilities: the mean estimate matches the base rate, and they follow the truth.
    q = m.predict_proba(X[3000:])[:, 1]
    assert abs(q.mean() - y[3000:].mean()) < 0.05
    assert np.corrcoef(q, p[3000:])[0, 1] > 0.9
    assert ((m.decision_function(X) > 0) == (m.predict_proba(X)[:, 1] > 0.5)).mean() > 0.999


def test_theorem_13_bound_holds_for_a_fitted_model():
    """Two Gaussians with different covariances: eta is logistic-quadratic, so a linear scorer
    has positive ranking regret; Theorem 13 bounds it by the surrogate regret it also has."""
    from scipy.special import expit
    from scipy.stats import multivariate_normal as mvn

    rng = np.random.default_rng(1)
    p = 0.3
    cov1, cov0 = np.array([[1.0, 0.0], [0.0, 3.0]]), np.eye(2)
    mu1 = np.array([1.0, 0.5])

    def sample(n):
        yy = (rng.random(n) < p).astype(int)
        XX = np.where(yy[:, None] == 1, rng.multivariate_normal(mu1, cov1, n), rng.multivariate_normal([0, 0], cov0, n))
        return XX, yy

    def eta(XX):
        l1 = mvn(mu1, cov1).logpdf(XX)
        l0 = mvn([0, 0], cov0).logpdf(XX)
        return expit(l1 - l0 + np.log(p / (1 - p)))

    X, y = sample(3000)
    loss = rw.losses.get("logistic")
    m = rw.ProperLossRanker(loss="logistic").fit(X, y)
    Xe, _ = sample(200_000)
    e = eta(Xe)
    f = m.decision_function(Xe)
    surrogate_regret = float(np.mean(loss.conditional_regret(e, f)))
    # Ranking regret (Agarwal 2014, "Surrogate regret bounds for bipartite ranking via strongly
    # proper losses") on 2,500 x 2,500 independent pairs.
    a, b = slice(0, 2500), slice(2500, 5000)
    de = e[a, None] - e[None, b]
    df = f[a, None] - f[None, b]
    wrong = (df * de < 0) + 0.5 * (df == 0)
    regret_rank = float(np.mean(np.abs(de) * wrong)) / (2 * p * (1 - p))
    bound = float(loss.regret_bound(surrogate_regret, p))
    assert 0 < regret_rank <= bound
    assert surrogate_regret > 0


def test_proper_balanced_and_errors():
    X, y = data(n=300)
    a = rw.ProperLossRanker(balanced=True).fit(X, y)
    # Balanced: the intercept's optimality condition makes the class-balanced mean of the
    # (logistic) probabilities 1/2, the probabilities of a 50/50 world.
    q = a.predict_proba(X)[:, 1]
    bal = np.where(y == 1, 0.5 / y.mean(), 0.5 / (1 - y.mean())) / len(y)
    assert float(bal @ q) == pytest.approx(0.5, abs=1e-6)
    with pytest.raises(ValueError, match="loss"):
        rw.ProperLossRanker(loss="hinge").fit(X, y)
    with pytest.raises(TypeError, match="balanced"):
        rw.ProperLossRanker(balanced="yes").fit(X, y)


def test_proper_save_load(tmp_path):
    X, y = data(n=200)
    m = rw.ProperLossRanker(loss="exponential").fit(X, y)
    rw.save_model(m, tmp_path / "m.rwm")
    back = rw.load_model(tmp_path / "m.rwm")
    assert np.array_equal(back.predict_proba(X), m.predict_proba(X)) and back.n_iter_ == m.n_iter_


# --- PairwiseRanker -----------------------------------------------------------------------

def test_pairwise_squared_equals_bbr():
    # (1 - m)^2 and Gultekin & Paisley's (2020) 1/2 (1 - m)^2 have the same minimiser: BBR's.
    X, y = data(n=400, d=4)
    a = rw.PairwiseRanker(loss="squared", alpha=0.0, tol=1e-12).fit(X, y)
    b = rw.BBRRanker(alpha=0.0).fit(X, y)
    assert np.allclose(a.coef_, b.coef_, rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("loss", list(rw.losses.PAIRWISE))
def test_pairwise_ranker_objective_is_the_all_pairs_mean(loss):
    X, y = data(n=150, d=3)
    m = rw.PairwiseRanker(loss=loss, alpha=1e-3).fit(X, y)
    s = X @ m.coef_
    margins = s[y == 1][:, None] - s[y == 0][None, :]
    phi = rw.losses.pairwise(loss).phi(margins)
    assert m.objective_ == pytest.approx(float(phi.mean()), rel=1e-9, abs=1e-12)
    assert m.score(X, y) > 0.75
    # At the optimum the penalised gradient vanishes (smooth losses).
    if loss != "hinge":
        g = X.T @ rw.losses.pairwise(loss).value_and_grad(y, s)[1] + 1e-3 * m.coef_
        assert np.abs(g).max() < 1e-6


def test_pairwise_ranker_weights_are_repetitions_and_round_trip(tmp_path):
    X, y = data(n=120)
    w = np.random.default_rng(2).integers(1, 4, 120)
    a = rw.PairwiseRanker(loss="exponential").fit(X, y, sample_weight=w)
    b = rw.PairwiseRanker(loss="exponential").fit(np.repeat(X, w, axis=0), np.repeat(y, w))
    assert np.allclose(a.coef_, b.coef_, rtol=1e-6, atol=1e-8)
    rw.save_model(a, tmp_path / "p.rwm")
    back = rw.load_model(tmp_path / "p.rwm")
    assert np.array_equal(back.decision_function(X), a.decision_function(X)) and back.mode_ == a.mode_
    with pytest.raises(ValueError, match="loss"):
        rw.PairwiseRanker(loss="square").fit(X, y)
