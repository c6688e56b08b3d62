"""concordance_scorer (issue 30, item 4): the concordance index as a scikit-learn scorer.

Each fold's score is rw.survival.concordance_index of the estimator's predict on the test
rows, whatever form ``y`` takes (scikit-survival's structured array, in any field order and
naming, or a (time, event) matrix); cross_val_score and GridSearchCV take it; scikit-survival
is not needed."""

from __future__ import annotations

import pickle
import warnings

import numpy as np
import pytest
from sklearn.base import BaseEstimator
from sklearn.model_selection import GridSearchCV, KFold, cross_val_score

import rankwise as rw
from _support import reference_survival as ref
from rankwise.survival._scorer import concordance_scorer


class LinearRisk(BaseEstimator):
    """A tiny survival model: its risk is ``scale`` times one feature (higher = earlier)."""

    def __init__(self, feature: int = 0, scale: float = 1.0):
        self.feature, self.scale = feature, scale

    def fit(self, X, y):
        self.n_features_in_ = np.asarray(X).shape[1]
        return self

    def predict(self, X):
        return self.scale * np.asarray(X, dtype=float)[:, self.feature]


def _data(n=160, seed=7):
    """Exponential times whose rate grows with feature 0, independent censoring (~35%),
    times rounded (ties); features 1 and 2 are noise."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 3))
    t = rng.exponential(np.exp(-X[:, 0]))
    c = rng.exponential(2.0, n)
    time = np.round(np.minimum(t, c), 1)
    event = t <= c
    return X, time, event


def _structured(event, time, names=("event", "time")):
    fields = {"event": ("?", event), "time": ("<f8", time)}
    dtype = [(names[0] if k == "event" else names[1], fields[k][0]) for k in ("event", "time")]
    y = np.empty(len(time), dtype=dtype)
    y[dtype[0][0]], y[dtype[1][0]] = event, time
    return y


@pytest.mark.parametrize("names", [("event", "time"), ("status", "time"), ("cens", "futime")])
def test_a_score_is_the_concordance_of_predict(names):
    X, time, event = _data()
    y = _structured(event, time, names)
    model = LinearRisk(0).fit(X, y)
    expected = rw.survival.concordance_index(time, event, X[:, 0])
    assert concordance_scorer()(model, X, y) == expected
    # the literal O(n^2) definition, on these rows
    assert expected == pytest.approx(ref.harrell(time, event, X[:, 0])[0], abs=1e-12)


def test_field_order_and_the_matrix_form_give_the_same_score():
    X, time, event = _data()
    model = LinearRisk(0).fit(X, None)
    a = concordance_scorer()(model, X, _structured(event, time))
    flipped = np.empty(len(time), dtype=[("time", "<f8"), ("event", "?")])
    flipped["time"], flipped["event"] = time, event
    b = concordance_scorer()(model, X, flipped)
    c = concordance_scorer()(model, X, np.column_stack([time, event.astype(float)]))
    d = concordance_scorer()(model, X, np.column_stack([time.astype(np.int64), event]))  # integer times
    assert a == b == c
    assert d == rw.survival.concordance_index(time.astype(np.int64), event, X[:, 0])


def test_higher_risk_means_earlier_event_never_flipped():
    X, time, event = _data()
    y = _structured(event, time)
    up = concordance_scorer()(LinearRisk(0, 1.0), X, y)
    down = concordance_scorer()(LinearRisk(0, -1.0), X, y)
    assert up > 0.6 and down < 0.4
    assert up + down == pytest.approx(1.0)  # no tied risks: the reversed score gives 1 - C


def test_uno_and_tau_are_the_concordance_index_options():
    X, time, event = _data()
    y = _structured(event, time)
    scorer = concordance_scorer(weighting="uno", tau=1.5)
    assert scorer(LinearRisk(0), X, y) == rw.survival.concordance_index(time, event, X[:, 0], weighting="uno",
                                                                        tau=1.5)
    literal = ref.weighted_concordance(time, event, X[:, 0], weighting="uno", tau=1.5)[0]
    assert scorer(LinearRisk(0), X, y) == pytest.approx(literal, abs=1e-12)
    assert repr(scorer) == "concordance_scorer(weighting='uno', tau=1.5)"
    assert repr(concordance_scorer()) == "concordance_scorer(weighting='harrell')"
    assert scorer(LinearRisk(0), X, y) != concordance_scorer()(LinearRisk(0), X, y)


def test_cross_val_score_gives_each_folds_concordance():
    X, time, event = _data()
    y = _structured(event, time)
    cv = KFold(4, shuffle=True, random_state=0)
    got = cross_val_score(LinearRisk(0), X, y, scoring=concordance_scorer(), cv=cv)
    expected = [rw.survival.concordance_index(time[te], event[te], X[te, 0]) for _, te in cv.split(X)]
    np.testing.assert_array_equal(got, expected)


def test_grid_search_keeps_the_informative_feature():
    X, time, event = _data()
    y = _structured(event, time)
    cv = KFold(4, shuffle=True, random_state=1)
    search = GridSearchCV(LinearRisk(), {"feature": [1, 2, 0], "scale": [1.0, -1.0]},
                          scoring=concordance_scorer(weighting="uno"), cv=cv).fit(X, y)
    assert search.best_params_ == {"feature": 0, "scale": 1.0}
    folds = [rw.survival.concordance_index(time[te], event[te], X[te, 0], weighting="uno")
             for _, te in cv.split(X)]
    assert search.best_score_ == pytest.approx(np.mean(folds), abs=1e-12)


def test_the_scorer_pickles_for_parallel_jobs():
    X, time, event = _data()
    y = _structured(event, time)
    scorer = pickle.loads(pickle.dumps(concordance_scorer(weighting="uno", tau=2.0)))
    assert scorer(LinearRisk(0), X, y) == concordance_scorer(weighting="uno", tau=2.0)(LinearRisk(0), X, y)


def test_a_fold_without_comparable_pairs_is_nan_with_a_warning():
    X = np.arange(4.0)[:, None]
    y = _structured(np.zeros(4, dtype=bool), np.array([1.0, 2.0, 3.0, 4.0]))
    with pytest.warns(rw.UndefinedMetricWarning):
        assert np.isnan(concordance_scorer()(LinearRisk(0), X, y))


@pytest.mark.parametrize("y, match", [
    (np.zeros(4, dtype=[("time", "<f8"), ("status", "<f8")]), "one boolean \\(the event\\) and one numeric"),
    (np.zeros(4, dtype=[("event", "?"), ("time", "<f8"), ("id", "<i8")]), "two fields"),
    (np.zeros(4, dtype=[("event", "?"), ("time", "U3")]), "Got fields 'event' \\(bool\\), 'time' \\(<U3\\)"),
    (np.arange(4.0), "shape \\(n, 2\\).*Got an array of shape \\(4,\\)"),
    (np.zeros((4, 3)), "Got an array of shape \\(4, 3\\)"),
])
def test_a_y_of_neither_form_is_refused(y, match):
    X = np.arange(4.0)[:, None]
    with pytest.raises(ValueError, match=match):
        concordance_scorer()(LinearRisk(0), X, y)


def test_bad_options_are_refused():
    with pytest.raises(ValueError, match="weighting"):
        concordance_scorer(weighting="gonen")
    X, time, event = _data(40)
    with pytest.raises(ValueError, match="tau"):
        concordance_scorer(tau=-1.0)(LinearRisk(0), X, _structured(event, time))
    with pytest.raises(ValueError, match="event"):  # the matrix form's event column must be 0/1
        concordance_scorer()(LinearRisk(0), X, np.column_stack([time, time]))


def test_a_prediction_of_the_wrong_shape_is_refused():
    class Two(LinearRisk):
        def predict(self, X):
            return np.zeros((len(X), 2))

    X, time, event = _data(20)
    with pytest.raises(ValueError, match="one risk score a row"):
        concordance_scorer()(Two(), X, _structured(event, time))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        column = type("Column", (LinearRisk,), {"predict": lambda self, X: np.asarray(X)[:, :1]})
        assert concordance_scorer()(column(), X, _structured(event, time)) == \
            rw.survival.concordance_index(time, event, X[:, 0])
