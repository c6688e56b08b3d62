"""``TimeAUCDisplay`` (issue 30): AUC(t) of a risk score against time, its pointwise band
and the mean AUC in the legend; the numbers drawn are exactly those of
``rw.survival.cumulative_dynamic_auc``. Agg canvas."""

import numpy as np
import pytest
from matplotlib.figure import Figure

import rankwise as rw
from rankwise import display
from rankwise.display import TimeAUCDisplay


def _auc_t(time, event, risk, t):
    """AUC(t) by its definition for an uncensored-before-t sample: every (case by t,
    control after t) pair, ties 1/2 (no censoring before ``t`` here: weights 1)."""
    cases = np.flatnonzero((time <= t) & event)
    ctrls = np.flatnonzero(time > t)
    s = [(risk[i] > risk[j]) + 0.5 * (risk[i] == risk[j]) for i in cases for j in ctrls]
    return float(np.mean(s))


@pytest.fixture(scope="module")
def sample():
    rng = np.random.default_rng(30)
    n = 300
    x = rng.normal(size=n)
    t = rng.exponential(np.exp(-x))
    c = rng.exponential(1.5, size=n)
    time, event = np.round(np.minimum(t, c), 2), t <= c
    return time, event, np.round(x, 1), np.round(x + rng.normal(size=n), 1)


def _axes():
    return Figure().subplots()


def test_exported_beside_the_other_displays():
    assert "TimeAUCDisplay" in display.__all__


def test_draws_the_estimate_and_its_band(sample):
    time, event, a, _ = sample
    times = [0.2, 0.5, 1.0]
    est = rw.survival.cumulative_dynamic_auc(time, event, a, times)
    d = TimeAUCDisplay.from_estimate(est, name="model a", ax=_axes())
    x, y = d.line_.get_data()
    np.testing.assert_array_equal(x, est.times)
    np.testing.assert_array_equal(y, est.values)
    lo, hi = est.confidence_intervals(0.95)
    verts = d.band_.get_paths()[0].vertices
    # fill_between's polygon runs along the highs and back along the lows: its corners
    # are exactly the interval ends at the times
    assert set(np.round(verts[:, 1], 12)) == set(np.round(np.r_[lo, hi], 12))
    assert set(np.round(verts[:, 0], 12)) == set(np.round(est.times, 12))
    mlo, mhi = est.mean_confidence_interval(0.95)
    assert d.line_.get_label() == f"model a (mean AUC = {est.mean_value:.3f} [{mlo:.3f}, {mhi:.3f}])"
    assert "higher risk = earlier event" in d.ax_.get_ylabel()


def test_from_predictions_matches_the_definition_before_any_censoring():
    time = np.array([1, 2, 3, 4, 5, 6, 7, 8], float)
    event = np.array([1, 1, 1, 1, 0, 1, 0, 1], bool)
    risk = np.array([0.9, 0.7, 0.8, 0.4, 0.6, 0.2, 0.3, 0.4])
    d = TimeAUCDisplay.from_predictions(time, event, risk, [2, 4], ax=_axes())
    assert d.values.tolist() == pytest.approx([_auc_t(time, event, risk, 2), _auc_t(time, event, risk, 4)],
                                              abs=1e-12)


def test_several_scores_overlay_with_one_chance_line(sample):
    time, event, a, b = sample
    ax = _axes()
    da = TimeAUCDisplay.from_predictions(time, event, a, [0.3, 0.8], name="a", ax=ax)
    db = TimeAUCDisplay.from_predictions(time, event, b, [0.3, 0.8], name="b", ax=ax)
    assert da.line_.get_color() != db.line_.get_color()
    chance = [ln for ln in ax.get_lines() if ln.get_label().startswith("chance")]
    assert len(chance) == 1 and set(chance[0].get_ydata()) == {0.5}
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert any(lab.startswith("a (mean AUC") for lab in labels) and any(lab.startswith("b (mean AUC")
                                                                        for lab in labels)


def test_band_off_and_names_drawn_literally(sample):
    time, event, a, _ = sample
    d = TimeAUCDisplay.from_predictions(time, event, a, [0.5], name="$x$", band=False, ax=_axes())
    assert d.band_ is None
    assert d.line_.get_label().startswith("$x$ (")
    assert all(not t.get_parse_math() for t in d.ax_.get_legend().get_texts())


def test_from_estimator_uses_predict_as_the_risk(sample):
    time, event, a, _ = sample

    class Model:
        def predict(self, X):
            return np.asarray(X)[:, 0]

    d = TimeAUCDisplay.from_estimator(Model(), a[:, None], time, event, [0.5], ax=_axes())
    est = rw.survival.cumulative_dynamic_auc(time, event, a, [0.5])
    assert d.values.tolist() == est.values.tolist()
    assert d.line_.get_label().startswith("Model (")


def test_bad_input_is_named(sample):
    time, event, a, _ = sample
    with pytest.raises(TypeError, match="TimeDependentAUC"):
        TimeAUCDisplay.from_estimate(rw.survival.estimate(time, event, a))
    with pytest.raises(ValueError, match="one value per time"):
        TimeAUCDisplay(times=[1, 2], values=[0.5])
    with pytest.raises(ValueError, match="both 'lows' and 'highs'"):
        TimeAUCDisplay(times=[1, 2], values=[0.5, 0.6], lows=[0.4, 0.5])
    with pytest.raises(TypeError, match="band"):
        TimeAUCDisplay(times=[1], values=[0.5]).plot(_axes(), band="yes")
    with pytest.raises(ValueError, match="times"):
        TimeAUCDisplay.from_predictions(time, event, a, [1e9])
    with pytest.raises(TypeError, match="predict"):
        TimeAUCDisplay.from_estimator(object(), a[:, None], time, event, [0.5])
