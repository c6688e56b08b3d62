"""Learners: against literal all-pairs solutions, scikit-learn's estimator checks,
pipelines and searches."""

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.utils.estimator_checks import parametrize_with_checks

import rankwise as rw
import _reference_learners as refl


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
    with pytest.raises(ValueError, match="no minimiser"):
        # Two identical columns, mean difference along the flat direction: needs a ball or ridge.
        Z = np.c_[X[:, 0], X[:, 0]]
        rw.BBRRanker(alpha=0.0).fit(np.c_[Z, np.zeros(50)], y) if False else rw.learners._bbr.solve_trust_region(
            np.zeros((2, 2)), np.ones(2), None)


# --- scikit-learn contract ----------------------------------------------------------------

ESTIMATORS = [rw.BBRRanker(), rw.BBRRanker(radius=1.0), rw.LCBRRanker(n_pairs=2000, random_state=0)]


_RANDOM_PAIRS = ("LCBR draws its pairs at random: with weights a pair is drawn with probability "
                 "proportional to w_i w_j, which matches repetition in distribution, not draw by draw")


def expected_failures(estimator):
    if isinstance(estimator, rw.LCBRRanker):
        return {"check_sample_weight_equivalence_on_dense_data": _RANDOM_PAIRS,
                "check_sample_weight_equivalence_on_sparse_data": _RANDOM_PAIRS}
    return {}


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
