"""DetCurveDisplay: the data held is rw.det_curve's exactly, the drawn line is its normal
deviates, the axes are scikit-learn's, overlays, estimators, errors, literal names."""

import warnings

import numpy as np
import pytest
from matplotlib.colors import to_rgba
from scipy.stats import norm

import rankwise as rw
from _support.plotting import new_axes
from rankwise.display import DetCurveDisplay


@pytest.fixture(scope="module")
def data():
    rng = np.random.default_rng(7)
    n = 300
    y = rng.integers(0, 2, n)
    s = np.round(y * 0.9 + rng.normal(size=n), 1)  # rounded: many ties
    w = rng.uniform(0.2, 3.0, n)
    return y, s, w


@pytest.mark.parametrize("drop", [True, False])
def test_holds_the_library_curve_and_draws_its_deviates(data, drop):
    y, s, w = data
    d = DetCurveDisplay.from_predictions(y, s, sample_weight=w, drop_intermediate=drop, ax=new_axes())
    c = rw.det_curve(y, s, sample_weight=w, drop_intermediate=drop)
    for a, b in zip((d.fpr, d.fnr, d.thresholds), c):
        np.testing.assert_array_equal(a, b)
    # the drawn line: the rates' standard normal quantiles, 0 and 1 clipped to eps, 1 - eps
    eps = np.finfo(float).eps
    xy = d.line_.get_xydata()
    np.testing.assert_allclose(xy[:, 0], norm.ppf(np.clip(c.fpr, eps, 1 - eps)), rtol=0, atol=1e-12)
    np.testing.assert_allclose(xy[:, 1], norm.ppf(np.clip(c.fnr, eps, 1 - eps)), rtol=0, atol=1e-12)
    # the held rates are not clipped by drawing
    assert c.fpr[-1] == 0.0 and d.fpr[-1] == 0.0


def test_equals_scikit_learns_display(data):
    from sklearn.metrics import DetCurveDisplay as SkDet

    y, s, w = data
    sk = SkDet.from_predictions(y, s, sample_weight=w, ax=new_axes(), name="m")
    d = DetCurveDisplay.from_predictions(y, s, sample_weight=w, ax=new_axes(), name="m")
    np.testing.assert_allclose(d.line_.get_xydata(), sk.line_.get_xydata(), rtol=0, atol=1e-12)
    for axis in ("x", "y"):
        ours, theirs = getattr(d.ax_, f"get_{axis}ticks")(), getattr(sk.ax_, f"get_{axis}ticks")()
        np.testing.assert_allclose(ours, theirs, rtol=0, atol=1e-12)
        labels = [t.get_text() for t in getattr(d.ax_, f"get_{axis}ticklabels")()]
        assert labels == [t.get_text() for t in getattr(sk.ax_, f"get_{axis}ticklabels")()]
        assert getattr(d.ax_, f"get_{axis}lim")() == getattr(sk.ax_, f"get_{axis}lim")() == (-3.0, 3.0)
    assert labels == ["0.1%", "1%", "5%", "20%", "50%", "80%", "95%", "99%", "99.9%"]


def test_axes_labels_chance_line_and_pos_label():
    d = DetCurveDisplay.from_predictions(["a", "b", "b", "a"], [0.1, 0.4, 0.35, 0.8], pos_label="b", ax=new_axes())
    assert d.ax_.get_xlabel() == "False positive rate (positive label: b)"
    assert d.ax_.get_ylabel() == "False negative rate (positive label: b)"
    np.testing.assert_array_equal(d.chance_level_.get_xydata(), [[-3.0, 3.0], [3.0, -3.0]])
    assert d.ax_.get_legend() is None  # nothing named: no legend, as scikit-learn
    assert DetCurveDisplay.from_predictions([0, 1], [0, 1], ax=new_axes(),
                                            plot_chance_level=False).chance_level_ is None


def test_plot_on_given_axes_and_on_none(data):
    import matplotlib.pyplot as plt

    y, s, _ = data
    ax = new_axes()
    d = DetCurveDisplay.from_predictions(y, s, ax=ax, name="m")
    assert d.ax_ is ax and d.figure_ is ax.figure and d.line_ in ax.get_lines()
    before = plt.get_fignums()
    d2 = DetCurveDisplay.from_predictions(y, s)
    assert len(plt.get_fignums()) == len(before) + 1 and d2.figure_.number not in before
    again = DetCurveDisplay(fpr=d.fpr, fnr=d.fnr, thresholds=d.thresholds, name="m").plot(new_axes())
    np.testing.assert_array_equal(again.line_.get_xydata(), d.line_.get_xydata())
    assert again.line_.get_label() == "m"


def test_overlay_of_12_scorers_has_12_styles_one_chance_line_and_a_full_legend():
    rng = np.random.default_rng(1)
    y = rng.integers(0, 2, 200)
    ax = new_axes()
    shown = [DetCurveDisplay.from_predictions(y, y * 0.1 * i + rng.normal(size=200), name=f"s{i}", ax=ax)
             for i in range(12)]
    assert len({(to_rgba(d.line_.get_color()), d.line_.get_linestyle()) for d in shown}) == 12
    assert all(d.chance_level_ is shown[0].chance_level_ for d in shown)
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert labels == [f"s{i}" for i in range(12)] + ["chance (FNR = 1 - FPR)"]
    d = DetCurveDisplay.from_predictions(y, rng.normal(size=200), ax=new_axes(), c="black", ls=":")
    assert to_rgba(d.line_.get_color()) == to_rgba("black") and d.line_.get_linestyle() == ":"


def test_names_are_drawn_literally(data):
    y, s, _ = data
    ax = new_axes()
    DetCurveDisplay.from_predictions(y, s, name="$\\frac{a$", ax=ax)
    DetCurveDisplay.from_predictions(y, s, name="_hidden?", ax=ax)
    ax.figure.canvas.draw()  # mathtext would raise on "$\frac{a$"
    texts = ax.get_legend().get_texts()
    assert [t.get_text() for t in texts][:2] == ["$\\frac{a$", "_hidden?"] and not texts[0].get_parse_math()


def test_from_estimator_is_from_predictions_on_its_score():
    from sklearn.linear_model import LogisticRegression
    from sklearn.naive_bayes import GaussianNB

    rng = np.random.default_rng(2)
    X = rng.normal(size=(150, 3))
    y = (X[:, 0] + rng.normal(size=150) > 0).astype(int)
    for est in (LogisticRegression().fit(X, y), GaussianNB().fit(X, y)):
        score = est.decision_function(X) if hasattr(est, "decision_function") else est.predict_proba(X)[:, 1]
        a = DetCurveDisplay.from_estimator(est, X, y, ax=new_axes())
        b = DetCurveDisplay.from_predictions(y, score, name=type(est).__name__, ax=new_axes())
        for f in ("fpr", "fnr", "thresholds"):
            np.testing.assert_array_equal(getattr(a, f), getattr(b, f))
        assert a.line_.get_label() == b.line_.get_label() == type(est).__name__


BAD = [
    ([0, 1, 1], [0.1, np.nan, 0.3], None, None),
    ([0, 1], [0.1, 0.2, 0.3], None, None),
    ([0, 1, 2], [0.1, 0.2, 0.3], None, None),
    ([0, 1, 1], [0.1, 0.2, 0.3], [1.0, -1.0, 1.0], None),
    (["a", "b", "a"], [0.1, 0.2, 0.3], None, "c"),
]


@pytest.mark.parametrize("y, s, w, pos", BAD)
def test_bad_input_gives_the_functions_error(y, s, w, pos):
    with pytest.raises((ValueError, TypeError)) as expected:
        rw.det_curve(y, s, sample_weight=w, pos_label=pos)
    with pytest.raises(type(expected.value)) as got:
        DetCurveDisplay.from_predictions(y, s, sample_weight=w, pos_label=pos, ax=new_axes())
    assert str(got.value) == str(expected.value)


@pytest.mark.parametrize("kwargs, match", [
    ({"drop_intermediate": 1}, "'drop_intermediate' parameter of det_curve must be a bool"),
    ({"plot_chance_level": "no"}, "'plot_chance_level' parameter of DetCurveDisplay.plot must be a bool"),
    ({"ax": "left"}, "The 'ax' parameter of DetCurveDisplay.plot must be a matplotlib Axes"),
])
def test_bad_parameters(kwargs, match, data):
    y, s, _ = data
    with pytest.raises(TypeError, match=match):
        DetCurveDisplay.from_predictions(y, s, **kwargs)


def test_one_class_warns_once_and_draws_the_defined_rate():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        d = DetCurveDisplay.from_predictions([0, 0, 0], [0.1, 0.5, 0.9], ax=new_axes())
    assert len([c for c in caught if issubclass(c.category, rw.UndefinedMetricWarning)]) == 1
    assert np.isnan(d.fnr).all() and not np.isnan(d.fpr).any()


def test_exported():
    from rankwise import display

    assert "DetCurveDisplay" in display.__all__ and display.DetCurveDisplay is DetCurveDisplay
