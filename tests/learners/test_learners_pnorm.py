"""PNormPush (Rudin's p-norm push over stumps): monotone objective equal to a brute-force
R_p, the derivative and line search, p = 1 against RankBoost, the push of larger p,
weights, scikit-learn's checks, save/load."""

import warnings

import numpy as np
import pytest
from scipy.optimize import minimize_scalar
from sklearn.utils.estimator_checks import parametrize_with_checks

import rankwise as rw
from rankwise.learners._boost import RankBoost
from rankwise.learners._pnorm import PNormPush


def data(n=300, d=4, seed=0, share=0.3, shift=0.8):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < share).astype(int)
    X = rng.normal(size=(n, d)) + shift * y[:, None] * np.linspace(1, 0.2, d)
    return X, y


def brute_rp(y, s, w, p):
    """R_p by the plain double loop, with the weights normalised within each class."""
    w = np.ones(len(y)) if w is None else np.asarray(w, dtype=float)
    pos, neg = np.flatnonzero(y == 1), np.flatnonzero(y == 0)
    wp, wn = w[pos] / w[pos].sum(), w[neg] / w[neg].sum()
    total = 0.0
    for a, k in zip(wn, neg):
        q = 0.0
        for b, i in zip(wp, pos):
            q += b * np.exp(-(s[i] - s[k]))
        total += a * q ** p
    return total


def stump(X, f, th, dr):
    return ((X[:, f] > th) if dr > 0 else (X[:, f] <= th)).astype(float)


@pytest.mark.parametrize("p", [1.0, 2.0, 4.0, 8.0])
@pytest.mark.parametrize("weighted", [False, True])
def test_objective_non_increasing_and_brute_force(p, weighted):
    X, y = data(n=80, d=3, seed=1)
    w = np.random.default_rng(2).uniform(0.2, 3.0, 80) if weighted else None
    m = PNormPush(p=p, n_estimators=25).fit(X, y, sample_weight=w)
    obj = m.objective_
    assert obj.shape == (m.n_estimators_,) and m.n_estimators_ > 0
    assert obj[0] < 1.0
    assert np.all(np.diff(obj) <= 1e-15 * obj[:-1])
    for t, s in enumerate(m.staged_decision_function(X)):
        if t in (0, m.n_estimators_ // 2, m.n_estimators_ - 1):
            assert brute_rp(y, s, w, p) == pytest.approx(obj[t], rel=1e-10, abs=1e-10)
    assert brute_rp(y, m.decision_function(X), w, p) == pytest.approx(obj[-1], rel=1e-10, abs=1e-10)


@pytest.mark.parametrize("p", [1.0, 4.0])
def test_stump_choice_and_exact_line_search(p):
    """Each round takes the candidate with the most negative directional derivative
    (checked against finite differences over every candidate) and the minimising alpha."""
    X, y = data(n=60, d=2, seed=3)
    X = X.round(1)
    m = PNormPush(p=p, n_estimators=4).fit(X, y)
    s = np.zeros(60)
    for t in range(m.n_estimators_):
        best, pick, eps = np.inf, None, 1e-6
        for f in range(2):
            for th in np.unique(X[:, f])[:-1]:
                for dr in (-1, 1):
                    h = stump(X, f, th, dr)
                    der = (brute_rp(y, s + eps * h, None, p) - brute_rp(y, s - eps * h, None, p)) / (2 * eps)
                    if der < best - 1e-7:
                        best, pick = der, (f, th, dr)
        assert best < 0
        assert pick == (m.features_[t], m.thresholds_[t], m.directions_[t])
        h = stump(X, *pick)
        res = minimize_scalar(lambda a: brute_rp(y, s + a * h, None, p), bracket=(0.0, 0.5), tol=1e-12)
        assert m.alphas_[t] == pytest.approx(res.x, abs=1e-5)
        assert m.objective_[t] <= res.fun * (1 + 1e-12)
        s = s + m.alphas_[t] * h


def test_p1_is_rankboost_objective():
    exp_loss = rw.losses.pairwise("exponential")
    for seed, weighted in ((0, False), (1, True), (2, False)):
        X, y = data(n=250, d=4, seed=seed)
        w = np.random.default_rng(seed).uniform(0.2, 3.0, 250) if weighted else None
        pn = PNormPush(p=1, n_estimators=30).fit(X, y, sample_weight=w)
        # R_1 is the all-pairs exponential loss (the class-normalised weights make the
        # normalisation factor 1).
        for t, s in enumerate(pn.staged_decision_function(X)):
            assert exp_loss.value(y, s, w) == pytest.approx(pn.objective_[t], rel=1e-10)
        rb = RankBoost(n_estimators=30).fit(X, y, sample_weight=w)
        # Round 1: the same stump (the same rule: maximal r with weights v e^{-s}, v e^{s}),
        # and the exact line search is at least as good as RankBoost.B's bound-minimising
        # alpha = 1/2 ln((1+r)/(1-r)) -- it is *not* equal: with h in {0,1} the exact
        # minimiser is 1/2 ln(P1 N0 / (P0 N1)).
        assert (pn.features_[0], pn.thresholds_[0], pn.directions_[0]) == (
            rb.features_[0], rb.thresholds_[0], rb.directions_[0])
        h = stump(X, pn.features_[0], pn.thresholds_[0], pn.directions_[0])
        assert exp_loss.value(y, rb.alphas_[0] * h, w) == pytest.approx(rb.train_loss_[0], rel=1e-10)
        assert pn.objective_[0] <= rb.train_loss_[0] + 1e-12
        res = minimize_scalar(lambda a: exp_loss.value(y, a * h, w), bracket=(0.0, 0.5), tol=1e-12)
        assert pn.objective_[0] == pytest.approx(res.fun, rel=1e-10)
        # After the same number of rounds: no worse than RankBoost.
        assert pn.objective_[-1] <= rb.train_loss_[-1] + 1e-12


def test_larger_p_pushes_the_top():
    """On training data, rankwise.pnorm_push(p=4) (a loss) is lower for the p = 4 model
    than for the p = 1 model, and so is the p = 4 objective."""
    for seed in range(4):
        X, y = data(n=300, d=4, seed=seed)
        m1 = PNormPush(p=1, n_estimators=60).fit(X, y)
        m4 = PNormPush(p=4, n_estimators=60).fit(X, y)
        s1, s4 = m1.decision_function(X), m4.decision_function(X)
        assert rw.pnorm_push(y, s4, p=4) < rw.pnorm_push(y, s1, p=4), seed
        if seed == 0:
            assert m4.objective_[-1] < brute_rp(y, s1, None, 4.0)


def test_weight_scale_invariance_and_repetitions():
    X, y = data(n=120, d=3, seed=5)
    X = X.round(1)
    w = np.random.default_rng(1).integers(0, 4, 120)
    w[np.flatnonzero(y == 1)[0]] = 1
    w[np.flatnonzero(y == 0)[0]] = 1
    a = PNormPush(p=3, n_estimators=30, max_thresholds=10_000).fit(X, y, sample_weight=w)
    b = PNormPush(p=3, n_estimators=30, max_thresholds=10_000).fit(np.repeat(X, w, axis=0), np.repeat(y, w))
    c = PNormPush(p=3, n_estimators=30, max_thresholds=10_000).fit(X, y, sample_weight=7.5 * w)
    for o in (b, c):
        assert np.array_equal(a.features_, o.features_)
        assert np.array_equal(a.thresholds_, o.thresholds_)
        assert np.array_equal(a.directions_, o.directions_)
        assert np.allclose(a.alphas_, o.alphas_, rtol=1e-9)
        assert np.allclose(a.objective_, o.objective_, rtol=1e-9)


def test_staged_predict_importances():
    X, y = data(n=400, seed=7)
    m = PNormPush(n_estimators=40).fit(X, y)
    stages = list(m.staged_decision_function(X))
    assert len(stages) == m.n_estimators_ == 40
    assert np.allclose(stages[-1], m.decision_function(X), rtol=0, atol=1e-12)
    assert abs((m.predict(X) == 1).sum() - y.sum()) <= 5
    assert m.feature_importances_.sum() == pytest.approx(1.0)
    assert m.score(X, y) > 0.7
    assert set(m.estimators_) == {"features_", "thresholds_", "directions_", "alphas_"}
    rng = np.random.default_rng(4)
    y = (rng.random(500) < 0.5).astype(int)
    X = rng.normal(size=(500, 4))
    X[:, 2] += 2.0 * y
    imp = PNormPush(n_estimators=50).fit(X, y).feature_importances_
    assert imp.shape == (4,) and imp.sum() == pytest.approx(1.0)
    assert np.argmax(imp) == 2 and imp[2] > 0.5


def test_stops_without_signal_and_on_separable_data():
    c = PNormPush().fit(np.ones((20, 2)), np.arange(20) % 2)
    assert c.n_estimators_ == 0 and np.all(c.feature_importances_ == 0)
    assert c.predict(np.ones((3, 2))).shape == (3,)
    X = np.arange(10.0)[:, None]
    m = PNormPush(p=4, n_estimators=20).fit(X, (X[:, 0] > 4).astype(int))
    assert np.all(np.isfinite(m.alphas_)) and m.score(X, (X[:, 0] > 4).astype(int)) == 1.0
    assert np.all(np.diff(m.objective_) <= 0)


def test_sparse_equals_dense():
    sp = pytest.importorskip("scipy.sparse")
    X, y = data(n=200, d=5)
    X[X < 0.5] = 0.0
    a = PNormPush(n_estimators=20).fit(X, y)
    b = PNormPush(n_estimators=20).fit(sp.csr_matrix(X), y)
    assert np.array_equal(a.features_, b.features_) and np.array_equal(a.alphas_, b.alphas_)
    assert np.allclose(a.decision_function(X), b.decision_function(sp.csr_matrix(X)), rtol=0, atol=1e-12)


def test_errors():
    X, y = data(n=50)
    with pytest.raises(ValueError, match="'p'"):
        PNormPush(p=0.5).fit(X, y)
    with pytest.raises(ValueError, match="n_estimators"):
        PNormPush(n_estimators=0).fit(X, y)
    with pytest.raises(ValueError, match="max_thresholds"):
        PNormPush(max_thresholds=0).fit(X, y)
    with pytest.raises(ValueError, match="two"):
        PNormPush().fit(X, np.arange(50) % 3)


def test_save_load_round_trip(tmp_path):
    pd = pytest.importorskip("pandas")
    X, y = data(n=200)
    Xdf = pd.DataFrame(X, columns=[f"f{i}" for i in range(X.shape[1])])
    m = PNormPush(p=2.5, n_estimators=20).fit(Xdf, y)
    path = tmp_path / "pn.rwm"
    rw.save_model(m, path)
    back = rw.load_model(path)
    assert type(back) is PNormPush and back.get_params() == m.get_params()
    assert np.array_equal(back.decision_function(Xdf), m.decision_function(Xdf))
    assert np.array_equal(back.predict(Xdf), m.predict(Xdf))
    assert np.array_equal(back.objective_, m.objective_)
    assert np.array_equal(back.feature_importances_, m.feature_importances_)
    assert list(back.feature_names_in_) == list(Xdf.columns)
    attrs, arrays = m._get_model_state()
    with pytest.raises(ValueError, match="unexpected"):
        PNormPush()._set_model_state({**attrs, "extra_": 1}, arrays)
    with pytest.raises(ValueError, match="unexpected"):
        PNormPush()._set_model_state(attrs, {k: v for k, v in arrays.items() if k != "objective_"})
    with pytest.raises(ValueError, match="features_"):
        PNormPush()._set_model_state(attrs, {**arrays, "features_": arrays["features_"] + 100})
    with pytest.raises(ValueError, match="directions_"):
        PNormPush()._set_model_state(attrs, {**arrays, "directions_": arrays["directions_"] * 0})


# --- scikit-learn contract ----------------------------------------------------------------

@parametrize_with_checks([PNormPush(n_estimators=20), PNormPush(p=1.0, n_estimators=20)])
def test_sklearn_compatible(estimator, check):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", rw.UndefinedMetricWarning)
        check(estimator)
