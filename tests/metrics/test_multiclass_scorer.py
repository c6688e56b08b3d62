"""``rw.multiclass_auc_scorer`` and ``rw.vus_scorer`` (issue 31, item 4): scikit-learn
scorers for several classes. A scorer's value is ``rw.multiclass_auc`` (or ``rw.vus``) of
the estimator's output, in a real ``GridSearchCV`` and ``cross_val_score`` too."""

import pickle
import warnings

import numpy as np
import pytest

sklearn = pytest.importorskip("sklearn")
from sklearn.datasets import load_iris  # noqa: E402
from sklearn.linear_model import LinearRegression, LogisticRegression  # noqa: E402
from sklearn.metrics import roc_auc_score  # noqa: E402
from sklearn.model_selection import GridSearchCV, StratifiedKFold, cross_val_score  # noqa: E402

import rankwise as rw  # noqa: E402
from rankwise import UndefinedMetricWarning  # noqa: E402

COMBOS = [("ovr", "macro"), ("ovr", "weighted"), ("ovr", "micro"), ("ovo", "macro"), ("ovo", "weighted")]


@pytest.fixture(scope="module")
def iris():
    X, y = load_iris(return_X_y=True)
    names = np.array(["setosa", "versicolor", "virginica"])[y]
    # one feature only, so that the classes overlap and the AUCs are below 1
    return X[:, [1]], names


@pytest.mark.parametrize(("multi_class", "average"), COMBOS)
def test_value_is_multiclass_auc_of_predict_proba(iris, multi_class, average):
    X, y = iris
    model = LogisticRegression().fit(X, y)
    P = model.predict_proba(X)
    got = rw.multiclass_auc_scorer(multi_class, average)(model, X, y)
    assert got == rw.multiclass_auc(y, P, multi_class=multi_class, average=average, labels=model.classes_)
    assert 0.5 < got < 1
    if average != "micro":  # scikit-learn's micro average is for multilabel targets
        assert got == pytest.approx(roc_auc_score(y, P, multi_class=multi_class, average=average), abs=1e-12)
    w = np.random.default_rng(0).integers(0, 4, size=y.shape[0]) / 2.0
    assert rw.multiclass_auc_scorer(multi_class, average)(model, X, y, sample_weight=w) == \
        rw.multiclass_auc(y, P, multi_class=multi_class, average=average, sample_weight=w)


def test_grid_search_keeps_the_best_fold_mean(iris):
    X, y = iris
    scorer = rw.multiclass_auc_scorer("ovo")
    grid = {"C": [1e-3, 1e-1, 10.0]}
    cv = StratifiedKFold(3, shuffle=True, random_state=0)
    search = GridSearchCV(LogisticRegression(), grid, scoring=scorer, cv=cv).fit(X, y)
    # the same numbers by hand: fit on each training fold, rw.multiclass_auc on the test fold
    means = []
    for C in grid["C"]:
        folds = []
        for train, test in cv.split(X, y):
            m = LogisticRegression(C=C).fit(X[train], y[train])
            folds.append(rw.multiclass_auc(y[test], m.predict_proba(X[test]), multi_class="ovo",
                                           labels=m.classes_))
        means.append(np.mean(folds))
    np.testing.assert_allclose(search.cv_results_["mean_test_score"], means, rtol=0, atol=1e-15)
    assert search.best_params_ == {"C": grid["C"][int(np.argmax(means))]}
    assert len(set(np.round(means, 6))) > 1  # the grid's values do differ


def test_cross_val_score_in_parallel_and_pickles(iris):
    X, y = iris
    scorer = rw.multiclass_auc_scorer(average="weighted")
    assert repr(pickle.loads(pickle.dumps(scorer))) == repr(scorer) == \
        "multiclass_auc_scorer(multi_class='ovr', average='weighted')"
    cv = StratifiedKFold(2, shuffle=True, random_state=1)
    a = cross_val_score(LogisticRegression(), X, y, cv=cv, scoring=scorer)
    b = cross_val_score(LogisticRegression(), X, y, cv=cv, scoring=scorer, n_jobs=2)
    np.testing.assert_array_equal(a, b)


def test_columns_matched_to_classes_and_labels(iris):
    X, y = iris
    # a training set without 'virginica': its column is 0 for every row with labels=
    keep = y != "virginica"
    model = LogisticRegression().fit(X[keep], y[keep])
    labels = ["virginica", "setosa", "versicolor"]
    P = model.predict_proba(X)  # columns setosa, versicolor
    S = np.c_[np.zeros(X.shape[0]), P]
    got = rw.multiclass_auc_scorer(labels=labels)(model, X, y)
    assert got == rw.multiclass_auc(y, S, labels=labels)
    per = rw.multiclass_auc(y, S, labels=labels, average=None)
    assert per[0] == 0.5  # a class the model never predicts: every row tied on its column
    with pytest.raises(ValueError, match=r"y holds class\(es\) \['virginica'\].*labels="):
        rw.multiclass_auc_scorer()(model, X, y)
    with pytest.raises(ValueError, match="classes_ hold \\['versicolor'\\].*'labels'"):
        rw.multiclass_auc_scorer(labels=["setosa", "virginica"])(model, X, y)
    # a test fold without one of the classes: one-vs-rest macro is undefined (nan), as
    # rw.multiclass_auc says; the weighted average leaves the class out
    full = LogisticRegression().fit(X, y)
    with pytest.warns(UndefinedMetricWarning):
        assert np.isnan(rw.multiclass_auc_scorer()(full, X[keep], y[keep]))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        assert rw.multiclass_auc_scorer(average="weighted")(full, X[keep], y[keep]) == \
            rw.multiclass_auc(y[keep], full.predict_proba(X[keep]), average="weighted", labels=full.classes_)


def test_bad_arguments_name_the_parameter(iris):
    X, y = iris
    with pytest.raises(ValueError, match="'multi_class'"):
        rw.multiclass_auc_scorer("ova")
    with pytest.raises(ValueError, match="'average'"):
        rw.multiclass_auc_scorer(average=None)
    with pytest.raises(ValueError, match="'average'.*'micro'.*'ovr'"):
        rw.multiclass_auc_scorer("ovo", "micro")
    with pytest.raises(ValueError, match="'labels'.*distinct"):
        rw.multiclass_auc_scorer(labels=["a", "a"])
    with pytest.raises(TypeError, match="'labels'"):
        rw.multiclass_auc_scorer(labels="abc")
    with pytest.raises(TypeError, match="predict_proba"):
        rw.multiclass_auc_scorer()(LinearRegression().fit(X, np.arange(X.shape[0])), X, y)


# --- vus_scorer ---------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def graded():
    """Ordered grades driven by a latent score of two features."""
    rng = np.random.default_rng(31)
    X = rng.normal(size=(400, 2))
    latent = X @ [1.0, 0.5] + rng.normal(size=400)
    grade = np.array(["low", "mid", "high"])[np.digitize(latent, [-0.6, 0.6])]
    return X, grade


ORDER = ["low", "mid", "high"]


def test_vus_scorer_expected_class_of_predict_proba(graded):
    X, y = graded
    model = LogisticRegression().fit(X, y)  # classes_ sorted: high, low, mid
    P = model.predict_proba(X)
    position = {"low": 0, "mid": 1, "high": 2}
    s = P @ np.array([position[c] for c in model.classes_], dtype=float)
    got = rw.vus_scorer(ORDER)(model, X, y)
    assert got == rw.vus(y, s, labels=ORDER)
    assert 1 / 6 < got < 1
    # the decision function of a multiclass model has a column per class: not used
    assert rw.vus_scorer(ORDER, response="expected_class")(model, X, y) == got
    with pytest.raises(ValueError, match="decision_function gives several columns"):
        rw.vus_scorer(ORDER, response="decision_function")(model, X, y)
    # the reversed order: the index runs the other way (2 - s) along reversed chains, the same value
    back = rw.vus_scorer(ORDER[::-1])(model, X, y)
    assert back == rw.vus(y, P @ np.array([2.0 - position[c] for c in model.classes_]), labels=ORDER[::-1])
    assert back == pytest.approx(got, abs=1e-12)


def test_vus_scorer_decision_function_and_predict(graded):
    X, y = graded
    idx = np.array([ORDER.index(v) for v in y])
    reg = LinearRegression().fit(X, idx)
    assert rw.vus_scorer(ORDER)(reg, X, y) == rw.vus(y, reg.predict(X), labels=ORDER)

    class Ranker:
        def decision_function(self, X):
            return np.asarray(X)[:, 0] + 0.5 * np.asarray(X)[:, 1]

    assert rw.vus_scorer(ORDER)(Ranker(), X, y) == rw.vus(y, Ranker().decision_function(X), labels=ORDER)
    # a binary classifier: decision_function grows with classes_[1]; negated when labels run the other way
    keep = y != "mid"
    clf = LogisticRegression().fit(X[keep], y[keep])  # classes_ high, low
    f = clf.decision_function(X[keep])
    assert rw.vus_scorer(["low", "high"])(clf, X[keep], y[keep]) == rw.vus(y[keep], -f, labels=["low", "high"])
    assert rw.vus_scorer(["high", "low"])(clf, X[keep], y[keep]) == rw.vus(y[keep], f, labels=["high", "low"])
    assert rw.vus_scorer(["low", "high"])(clf, X[keep], y[keep]) == \
        pytest.approx(rw.auc(y[keep] == "high", clf.predict_proba(X[keep])[:, 0]), abs=1e-12)


def test_vus_scorer_reads_a_ranker_along_its_classes(graded):
    X, y = graded

    class Graded:  # one score a row, growing along classes_ (as rw.OrdinalRanker's)
        classes_ = np.array(ORDER)

        def decision_function(self, X):
            return np.asarray(X)[:, 0]

    f = X[:, 0]
    assert rw.vus_scorer(ORDER)(Graded(), X, y) == rw.vus(y, f, labels=ORDER)
    assert rw.vus_scorer(ORDER[::-1])(Graded(), X, y) == rw.vus(y, -f, labels=ORDER[::-1])
    with pytest.raises(ValueError, match="ranks along its classes_.*another order"):
        rw.vus_scorer(["mid", "low", "high"])(Graded(), X, y)
    ranker_class = getattr(rw, "OrdinalRanker", None)
    if ranker_class is not None:
        ranker = ranker_class(classes=ORDER).fit(X, y)
        assert rw.vus_scorer(ORDER)(ranker, X, y) == pytest.approx(ranker.score(X, y), abs=1e-15)


def test_vus_scorer_in_grid_search(graded):
    X, y = graded
    cv = StratifiedKFold(4, shuffle=True, random_state=2)
    scorer = rw.vus_scorer(ORDER)
    search = GridSearchCV(LogisticRegression(), {"C": [1e-3, 1.0]}, scoring=scorer, cv=cv).fit(X, y)
    by_hand = []
    for C in (1e-3, 1.0):
        folds = [scorer(LogisticRegression(C=C).fit(X[tr], y[tr]), X[te], y[te]) for tr, te in cv.split(X, y)]
        by_hand.append(np.mean(folds))
    np.testing.assert_allclose(search.cv_results_["mean_test_score"], by_hand, rtol=0, atol=1e-15)
    assert repr(pickle.loads(pickle.dumps(scorer))) == "vus_scorer(['low', 'mid', 'high'])"


def test_vus_scorer_bad_arguments(graded):
    X, y = graded
    with pytest.raises(TypeError, match="'labels'"):
        rw.vus_scorer(None)
    with pytest.raises(ValueError, match="'labels'.*at least 2"):
        rw.vus_scorer(["low"])
    with pytest.raises(ValueError, match="'response'"):
        rw.vus_scorer(ORDER, response="proba")
    with pytest.raises(ValueError, match="classes_ hold \\['high'\\]"):
        rw.vus_scorer(["low", "mid"])(LogisticRegression().fit(X, y), X, y)

    class Nothing:
        def predict(self, X):
            return np.zeros(len(X))

    with pytest.raises(TypeError, match="no score for ordered classes"):
        rw.vus_scorer(ORDER)(Nothing(), X, y)
    with pytest.raises(TypeError, match="no predict_proba"):
        rw.vus_scorer(ORDER, response="expected_class")(Nothing(), X, y)
