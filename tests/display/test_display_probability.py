"""CalibrationDisplay, GainDisplay, ScoreDistributionDisplay: the data held is the
library's output exactly, the drawn artists are that data, errors are the functions'."""

import numpy as np
import pytest
from hypothesis import given
from matplotlib.colors import to_rgba

import rankwise as rw
from _support.plotting import new_axes
from _support.strategies import samples
from rankwise.display import CalibrationDisplay, GainDisplay, ScoreDistributionDisplay

QUIET = pytest.mark.filterwarnings("ignore::rankwise.stats.DegenerateIntervalWarning")


@pytest.fixture(scope="module")
def probs():
    rng = np.random.default_rng(8)
    n = 400
    p = np.round(rng.uniform(size=n), 2)  # ties
    y = (rng.uniform(size=n) < p ** 1.3).astype(int)
    w = rng.uniform(0.2, 3.0, n)
    return y, p, w


def _probabilities(s):
    return np.abs(np.tanh(np.asarray(s, dtype=float) / 2.0))  # in [0, 1], ties kept


# --- calibration -----------------------------------------------------------------------
@QUIET
@given(samples(max_n=20, weights=True))
def test_calibration_holds_the_library_curve_and_scores(sample):
    y, s, w = sample
    p = _probabilities(s)
    for strategy in ("uniform", "quantile"):
        d = CalibrationDisplay.from_predictions(y, p, sample_weight=w, n_bins=4, strategy=strategy, ax=new_axes())
        c = rw.calibration_curve(y, p, sample_weight=w, n_bins=4, strategy=strategy)
        for f in c.__dataclass_fields__:
            a, b = getattr(d.curve, f), getattr(c, f)
            assert np.array_equal(a, b, equal_nan=True) if isinstance(a, np.ndarray) else a == b, f
        summary = rw.stats.calibration(y, p, sample_weight=w, n_bins=4, strategy=strategy)
        assert d.brier_score == summary.brier_score.value
        assert d.brier_score == pytest.approx(rw.brier_score(y, p, sample_weight=w), abs=1e-12)
        assert d.calibration_error == pytest.approx(
            rw.expected_calibration_error(y, p, sample_weight=w, n_bins=4, strategy=strategy), abs=1e-12)
        assert tuple(d.brier_score_ci) == tuple(summary.brier_score.confidence_interval(0.95))
        keep = c.count > 0
        np.testing.assert_array_equal(d.line_.get_xydata(), np.c_[c.mean_predicted[keep], c.fraction_positive[keep]])
        segs = d.intervals_.get_segments()
        assert [tuple(seg[:, 1]) for seg in segs] == list(zip(c.lower[keep], c.upper[keep]))


def test_calibration_equals_scikit_learns_display(probs):
    from sklearn.calibration import CalibrationDisplay as SkCal

    y, p, _ = probs
    for strategy in ("uniform", "quantile"):
        sk = SkCal.from_predictions(y, p, n_bins=7, strategy=strategy, ax=new_axes())
        d = CalibrationDisplay.from_predictions(y, p, n_bins=7, strategy=strategy, ax=new_axes())
        keep = d.curve.nonempty
        np.testing.assert_allclose(d.curve.fraction_positive[keep], sk.prob_true, rtol=0, atol=1e-12)
        np.testing.assert_allclose(d.curve.mean_predicted[keep], sk.prob_pred, rtol=0, atol=1e-12)


def test_calibration_label_overlay_and_estimator(probs):
    from sklearn.linear_model import LogisticRegression

    y, p, _ = probs
    ax = new_axes()
    a = CalibrationDisplay.from_predictions(y, p, name="$p$", ax=ax)
    b = CalibrationDisplay.from_predictions(y, p ** 2, name="p^2", ax=ax, ci=False)
    ci = a.brier_score_ci
    assert a.line_.get_label() == (f"$p$ (Brier = {a.brier_score:.3f} [{ci.low:.3f}, {ci.high:.3f}], "
                                   f"ECE = {a.calibration_error:.3f})")
    assert b.line_.get_label() == f"p^2 (Brier = {b.brier_score:.3f}, ECE = {b.calibration_error:.3f})"
    assert to_rgba(a.line_.get_color()) != to_rgba(b.line_.get_color()) and a.chance_level_ is b.chance_level_
    ax.figure.canvas.draw()
    assert not ax.get_legend().get_texts()[0].get_parse_math()
    X = np.c_[p, np.random.default_rng(0).normal(size=p.size)]
    est = LogisticRegression().fit(X, y)
    e = CalibrationDisplay.from_estimator(est, X, y, ax=new_axes())
    f = CalibrationDisplay.from_predictions(y, est.predict_proba(X)[:, 1], name="LogisticRegression", ax=new_axes())
    assert e.brier_score == f.brier_score and e.line_.get_label() == f.line_.get_label()
    with pytest.raises(TypeError, match="must have a predict_proba method"):
        CalibrationDisplay.from_estimator(rw.BBRRanker().fit(X, y), X, y, ax=new_axes())


@pytest.mark.parametrize("y, p, kwargs", [
    ([0, 1, 1], [0.1, 1.2, 0.3], {}),
    ([0, 1, 1], [0.1, np.nan, 0.3], {}),
    ([0, 1], [0.1, 0.2, 0.3], {}),
    ([0, 1, 1], [0.1, 0.2, 0.3], {"n_bins": 0}),
    ([0, 1, 1], [0.1, 0.2, 0.3], {"strategy": "equal"}),
    ([0, 1, 1], [0.1, 0.2, 0.3], {"interval": "wald"}),
])
def test_calibration_bad_input_gives_the_functions_error(y, p, kwargs):
    with pytest.raises((ValueError, TypeError)) as expected:
        rw.calibration_curve(y, p, **kwargs)
    with pytest.raises(type(expected.value)) as got:
        CalibrationDisplay.from_predictions(y, p, ax=new_axes(), **kwargs)
    assert str(got.value) == str(expected.value)


# --- gain and lift ---------------------------------------------------------------------
@given(samples(max_n=20, weights=True))
def test_gain_holds_the_library_curves(sample):
    y, s, w = sample
    d = GainDisplay.from_predictions(y, s, sample_weight=w, at=0.3, ax=new_axes())
    g = rw.gain_curve(y, s, sample_weight=w)
    for a, b in zip((d.fraction_targeted, d.fraction_captured, d.thresholds), g):
        np.testing.assert_array_equal(a, b)
    np.testing.assert_array_equal(d.lift, rw.lift_curve(y, s, sample_weight=w).lift)
    np.testing.assert_array_equal(d.line_.get_xydata(), np.c_[g.fraction_targeted, g.fraction_captured])
    assert d.gain_at(0.3) == rw.gain_at(y, s, 0.3, sample_weight=w)
    assert d.line_.get_label() == f"top 30%: {rw.gain_at(y, s, 0.3, sample_weight=w):.1%} of positives"
    # the lift drawn is the gain over the share targeted, exactly, between corner points too
    lift = GainDisplay.from_predictions(y, s, sample_weight=w, kind="lift", ax=new_axes())
    x, v = lift.line_.get_xydata().T
    for i in range(0, x.size, 37):
        assert v[i] == pytest.approx(rw.lift_at(y, s, x[i], sample_weight=w), rel=1e-12)


def test_gain_overlay_lift_axes_and_errors():
    rng = np.random.default_rng(5)
    y = rng.uniform(size=300) < 0.2
    ax = new_axes()
    shown = [GainDisplay.from_predictions(y, y * 0.2 * i + rng.normal(size=300), ax=ax, kind="lift")
             for i in range(15)]
    assert len({to_rgba(d.line_.get_color()) for d in shown}) == 15
    assert shown[0].chance_level_.get_ydata().tolist() == [1.0, 1.0]
    top = max(np.nanmax(d.line_.get_ydata()) for d in shown)
    assert ax.get_ylim() == pytest.approx((0.0, 1.05 * top))
    for kwargs, match in (({"kind": "roc"}, "The 'kind' parameter of GainDisplay.from_predictions"),
                          ({"at": 0}, "The 'at' parameter of GainDisplay.from_predictions")):
        with pytest.raises(ValueError, match=match):
            GainDisplay.from_predictions(y, rng.normal(size=300), **kwargs)
    with pytest.raises(ValueError) as expected:
        rw.gain_curve(y, np.r_[np.nan, rng.normal(size=299)])
    with pytest.raises(ValueError) as got:
        GainDisplay.from_predictions(y, np.r_[np.nan, rng.normal(size=299)], ax=new_axes())
    assert str(got.value) == str(expected.value)


# --- score distributions ---------------------------------------------------------------
@given(samples(max_n=20, weights=True))
def test_score_distributions_hold_the_library_data(sample):
    y, s, w = sample
    d = ScoreDistributionDisplay.from_predictions(y, s, sample_weight=w, bins=5, ax=new_axes())
    ref = rw.score_distributions(y, s, sample_weight=w, bins=5)
    for f in ref.__dataclass_fields__:
        a, b = getattr(d.distributions, f), getattr(ref, f)
        assert np.array_equal(a, b, equal_nan=True) if isinstance(a, np.ndarray) else a == b, f
    np.testing.assert_array_equal(d.positive_.get_data().values, ref.density_positive)
    np.testing.assert_array_equal(d.negative_.get_data().edges, ref.bin_edges)
    assert d.ks_line_.get_xdata()[0] == ref.ks_threshold
    c = ScoreDistributionDisplay.from_predictions(y, s, sample_weight=w, bins=5, density=False, ax=new_axes())
    np.testing.assert_array_equal(c.negative_.get_data().values, ref.count_negative)


def test_score_distributions_title_estimator_and_errors(probs):
    from sklearn.linear_model import LogisticRegression

    y, p, _ = probs
    ax = new_axes()
    ScoreDistributionDisplay.from_predictions(y, p, name="$\\frac{a$", ax=ax)
    ax.figure.canvas.draw()
    assert ax.get_title() == "$\\frac{a$"
    X = np.c_[p, np.random.default_rng(1).normal(size=p.size)]
    est = LogisticRegression().fit(X, y)
    a = ScoreDistributionDisplay.from_estimator(est, X, y, ax=new_axes())
    b = ScoreDistributionDisplay.from_predictions(y, est.decision_function(X), ax=new_axes())
    np.testing.assert_array_equal(a.distributions.count_positive, b.distributions.count_positive)
    assert a.ax_.get_title() == "LogisticRegression"
    for bad in ({"bins": 0}, {"quantiles": [1.5]}):
        with pytest.raises(ValueError) as expected:
            rw.score_distributions(y, p, **bad)
        with pytest.raises(ValueError) as got:
            ScoreDistributionDisplay.from_predictions(y, p, ax=new_axes(), **bad)
        assert str(got.value) == str(expected.value)
