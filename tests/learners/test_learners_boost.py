"""RankBoost (RankBoost.B, bipartite): the product-of-normalisers identity, monotone
training loss, staged scores, early stopping, weights, scikit-learn's checks, save/load."""

import warnings

import numpy as np
import pytest
from sklearn.utils.estimator_checks import parametrize_with_checks

import rankwise as rw
from rankwise.learners._boost import RankBoost


def data(n=300, d=4, seed=0, share=0.3, shift=0.8):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < share).astype(int)
    X = rng.normal(size=(n, d)) + shift * y[:, None] * np.linspace(1, 0.2, d)
    return X, y


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("lr", [1.0, 0.3])
def test_loss_is_product_of_normalisers(weighted, lr):
    X, y = data(n=200, d=3, seed=1)
    w = np.random.default_rng(2).uniform(0.2, 3.0, 200) if weighted else None
    m = RankBoost(n_estimators=25, learning_rate=lr).fit(X, y, sample_weight=w)
    assert m.n_estimators_ == 25
    exp_loss = rw.losses.pairwise("exponential")
    # Literal RankBoost.B weight update, from the fitted stumps: the normalisers Z1, Z0.
    sw = np.ones(200) if w is None else w
    pos = y == 1
    v = np.where(pos, sw / sw[pos].sum(), sw / sw[~pos].sum())
    prod = 1.0
    for t, s in enumerate(m.staged_decision_function(X)):
        f, th, dr, a = m.features_[t], m.thresholds_[t], m.directions_[t], m.alphas_[t]
        h = (X[:, f] > th) if dr > 0 else (X[:, f] <= th)
        v = v * np.exp(np.where(pos, -a, a) * h)
        z1, z0 = v[pos].sum(), v[~pos].sum()
        v[pos] /= z1
        v[~pos] /= z0
        prod *= z1 * z0
        assert m.train_loss_[t] == pytest.approx(prod, rel=1e-12, abs=1e-15)
        assert exp_loss.value(y, s, w) == pytest.approx(prod, rel=1e-10, abs=1e-12)
    assert exp_loss.value(y, m.decision_function(X), w) == pytest.approx(m.train_loss_[-1], rel=1e-10)


def test_training_loss_non_increasing():
    for seed in range(3):
        X, y = data(n=250, d=5, seed=seed)
        for lr in (1.0, 0.5, 0.1):
            loss = RankBoost(n_estimators=60, learning_rate=lr).fit(X, y).train_loss_
            assert loss[0] < 1.0
            assert np.all(np.diff(loss) <= 1e-15), (seed, lr)


def test_staged_last_equals_decision_function():
    X, y = data(n=150)
    m = RankBoost(n_estimators=30).fit(X, y)
    stages = list(m.staged_decision_function(X))
    assert len(stages) == m.n_estimators_ == 30
    assert np.allclose(stages[-1], m.decision_function(X), rtol=0, atol=1e-12)


def test_auc_close_to_bbr_on_easy_problem():
    X, y = data(n=1200, d=4, seed=3, shift=1.5)
    tr, te = slice(0, 800), slice(800, None)
    bbr = rw.BBRRanker().fit(X[tr], y[tr]).score(X[te], y[te])
    rb = RankBoost(n_estimators=200, learning_rate=0.3).fit(X[tr], y[tr]).score(X[te], y[te])
    assert rb > 0.8
    assert abs(rb - bbr) < 0.03, (rb, bbr)


def test_early_stopping_on_noise():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(600, 5))
    y = (rng.random(600) < 0.4).astype(int)
    for scoring in ("auc", "local_auc:top=0.1", "pnorm_push:p=4"):
        m = RankBoost(n_estimators=300, early_stopping=True, n_iter_no_change=10, scoring=scoring,
                      random_state=0).fit(X, y)
        assert m.n_estimators_ < 300
        assert len(m.validation_score_) < 300
        assert m.n_estimators_ == int(np.argmax(m.validation_score_)) + 1
    with pytest.raises(ValueError, match="scoring"):
        RankBoost(early_stopping=True, scoring="accuracy").fit(X, y)


def test_feature_importances_favour_informative_feature():
    rng = np.random.default_rng(4)
    n = 500
    y = (rng.random(n) < 0.5).astype(int)
    X = rng.normal(size=(n, 4))
    X[:, 2] += 2.0 * y
    m = RankBoost(n_estimators=50).fit(X, y)
    imp = m.feature_importances_
    assert imp.shape == (4,) and imp.sum() == pytest.approx(1.0)
    assert np.argmax(imp) == 2 and imp[2] > 0.5


def test_integer_weights_are_repetitions():
    X, y = data(n=120, d=3, seed=5)
    X = X.round(1)  # ties among the values
    w = np.random.default_rng(1).integers(0, 4, 120)
    w[np.flatnonzero(y == 1)[0]] = 1
    w[np.flatnonzero(y == 0)[0]] = 1
    a = RankBoost(n_estimators=40, max_thresholds=10_000).fit(X, y, sample_weight=w)
    b = RankBoost(n_estimators=40, max_thresholds=10_000).fit(np.repeat(X, w, axis=0), np.repeat(y, w))
    assert np.array_equal(a.features_, b.features_)
    assert np.array_equal(a.thresholds_, b.thresholds_)
    assert np.array_equal(a.directions_, b.directions_)
    assert np.allclose(a.alphas_, b.alphas_, rtol=1e-10)
    assert np.allclose(a.decision_function(X), b.decision_function(X), rtol=1e-10, atol=1e-12)


def test_max_thresholds_and_stop_without_signal():
    X, y = data(n=300, d=2)
    m = RankBoost(n_estimators=20, max_thresholds=4).fit(X, y)
    for f in range(2):
        assert np.unique(m.thresholds_[m.features_ == f]).size <= 4
    # Constant features: no stump separates anything, no round runs.
    c = RankBoost().fit(np.ones((20, 2)), np.arange(20) % 2)
    assert c.n_estimators_ == 0 and np.all(c.feature_importances_ == 0)
    assert c.predict(np.ones((3, 2))).shape == (3,)


def test_sparse_equals_dense():
    sp = pytest.importorskip("scipy.sparse")
    X, y = data(n=200, d=5)
    X[X < 0.5] = 0.0
    a = RankBoost(n_estimators=30).fit(X, y)
    b = RankBoost(n_estimators=30).fit(sp.csr_matrix(X), y)
    assert np.array_equal(a.features_, b.features_) and np.array_equal(a.alphas_, b.alphas_)
    assert np.allclose(a.decision_function(X), b.decision_function(sp.csr_matrix(X)), rtol=0, atol=1e-12)


def test_predict_marks_positive_share():
    X, y = data(n=400, seed=7)
    m = RankBoost(n_estimators=40).fit(X, y)
    assert abs((m.predict(X) == 1).sum() - y.sum()) <= 5
    assert np.array_equal(m.predict(X), m.classes_[(m.decision_function(X) > 0).astype(int)])


def test_errors():
    X, y = data(n=50)
    with pytest.raises(ValueError, match="n_estimators"):
        RankBoost(n_estimators=0).fit(X, y)
    with pytest.raises(ValueError, match="learning_rate"):
        RankBoost(learning_rate=0.0).fit(X, y)
    with pytest.raises(ValueError, match="two"):
        RankBoost().fit(X, np.arange(50) % 3)
    with pytest.raises(ValueError, match="validation_fraction"):
        RankBoost(early_stopping=True, validation_fraction=1.0).fit(X, y)


def test_save_load_round_trip(tmp_path):
    pd = pytest.importorskip("pandas")
    X, y = data(n=200)
    Xdf = pd.DataFrame(X, columns=[f"f{i}" for i in range(X.shape[1])])
    for i, est in enumerate((RankBoost(n_estimators=20), RankBoost(n_estimators=200, early_stopping=True, random_state=0))):
        m = est.fit(Xdf, y)
        path = tmp_path / f"rb{i}.rwm"
        rw.save_model(m, path)
        back = rw.load_model(path)
        assert type(back) is RankBoost and back.get_params() == m.get_params()
        assert np.array_equal(back.decision_function(Xdf), m.decision_function(Xdf))
        assert np.array_equal(back.predict(Xdf), m.predict(Xdf))
        assert np.array_equal(back.feature_importances_, m.feature_importances_)
        assert list(back.feature_names_in_) == list(Xdf.columns)
    # Strict state keys.
    attrs, arrays = m._get_model_state()
    with pytest.raises(ValueError, match="unexpected"):
        RankBoost()._set_model_state({**attrs, "extra_": 1}, arrays)
    with pytest.raises(ValueError, match="unexpected"):
        RankBoost()._set_model_state(attrs, {k: v for k, v in arrays.items() if k != "alphas_"})
    with pytest.raises(ValueError, match="features_"):
        RankBoost()._set_model_state(attrs, {**arrays, "features_": arrays["features_"] + 100})


# --- scikit-learn contract ----------------------------------------------------------------

@parametrize_with_checks([RankBoost(n_estimators=20), RankBoost(n_estimators=20, learning_rate=0.5)])
def test_sklearn_compatible(estimator, check):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", rw.UndefinedMetricWarning)
        check(estimator)
