"""RocCurveDisplay and PrecisionRecallDisplay: the data held is the library's output
exactly, the drawn curve is that data, overlays, bands, estimators, errors, literal text."""

import subprocess
import sys
import warnings

import numpy as np
import pytest
from hypothesis import given
from matplotlib.cbook import pts_to_prestep
from matplotlib.colors import to_rgba

import rankwise as rw
from _support import reference as ref
from _support.plotting import new_axes
from _support.strategies import samples
from rankwise.display import PrecisionRecallDisplay, RocCurveDisplay


@pytest.fixture(scope="module")
def data():
    rng = np.random.default_rng(3)
    n = 300
    y = rng.integers(0, 2, n)
    s = np.round(y * 0.8 + rng.normal(size=n), 1)  # rounded: many ties
    w = rng.uniform(0.2, 3.0, n)
    return y, s, w


# --- the data held and drawn -----------------------------------------------------------
def _area(x, y):
    """The area under straight segments through the points (np.trapezoid is numpy >= 2)."""
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    return float(np.sum(np.diff(x) * (y[1:] + y[:-1]) / 2.0))


QUIET = pytest.mark.filterwarnings("ignore::rankwise.stats.DegenerateIntervalWarning")


@QUIET
@given(samples(max_n=20, weights=True))
def test_roc_holds_the_library_curve_and_auc(sample):
    y, s, w = sample
    for drop in (True, False):
        d = RocCurveDisplay.from_predictions(y, s, sample_weight=w, drop_intermediate=drop, ax=new_axes())
        c = rw.roc_curve(y, s, sample_weight=w, drop_intermediate=drop)
        for a, b in zip((d.fpr, d.tpr, d.thresholds), c):
            np.testing.assert_array_equal(a, b)
        est = rw.stats.estimate(y, s, "auc", sample_weight=w)
        assert d.roc_auc == est.value
        assert tuple(d.roc_auc_ci) == tuple(est.confidence_interval(0.95))
        # what is drawn is the held curve, and its area (straight lines) is the AUC with
        # ties 1/2, from the pairs' definition
        xy = d.line_.get_xydata()
        np.testing.assert_array_equal(xy[:, 0], d.fpr)
        np.testing.assert_array_equal(xy[:, 1], d.tpr)
        assert _area(xy[:, 0], xy[:, 1]) == pytest.approx(ref.auc_ref(y, s, w), abs=1e-12)


def test_roc_without_ci_holds_rw_auc(data):
    y, s, w = data
    d = RocCurveDisplay.from_predictions(y, s, sample_weight=w, ci=False, name="m", ax=new_axes())
    assert d.roc_auc == rw.auc(y, s, sample_weight=w) and d.roc_auc_ci is None
    assert d.line_.get_label() == f"m (AUC = {d.roc_auc:.3f})"


def test_roc_equals_scikit_learns_display(data):
    from sklearn.metrics import RocCurveDisplay as SkRoc

    y, s, w = data
    sk = SkRoc.from_predictions(y, s, sample_weight=w, drop_intermediate=True, ax=new_axes())
    d = RocCurveDisplay.from_predictions(y, s, sample_weight=w, ax=new_axes())
    np.testing.assert_allclose(d.fpr, sk.fpr, rtol=0, atol=1e-12)
    np.testing.assert_allclose(d.tpr, sk.tpr, rtol=0, atol=1e-12)
    assert d.roc_auc == pytest.approx(sk.roc_auc, abs=1e-12)


@QUIET
@given(samples(max_n=20, weights=True))
def test_pr_holds_the_library_curve_and_ap(sample):
    y, s, w = sample
    d = PrecisionRecallDisplay.from_predictions(y, s, sample_weight=w, ax=new_axes())
    c = rw.precision_recall_curve(y, s, sample_weight=w)
    for a, b in zip((d.precision, d.recall, d.thresholds), c):
        np.testing.assert_array_equal(a, b)
    est = rw.stats.estimate(y, s, "average_precision", sample_weight=w)
    assert d.average_precision == est.value
    assert tuple(d.average_precision_ci) == tuple(est.confidence_interval(0.95))
    yb, ww = np.asarray(y, bool), np.asarray(w)
    assert d.prevalence == pytest.approx(ww[yb].sum() / ww.sum(), rel=1e-12)
    assert d.chance_level_.get_ydata().tolist() == [d.prevalence] * 2
    # drawn as steps whose area is the average precision (its pairs-free definition)
    assert d.line_.get_drawstyle() == "steps-pre"
    x, p = pts_to_prestep(*d.line_.get_xydata().T)
    assert _area(x, p) == pytest.approx(ref.average_precision_ref(y, s, w), abs=1e-12)


def test_pr_equals_scikit_learns_display(data):
    from sklearn.metrics import PrecisionRecallDisplay as SkPR

    y, s, w = data
    sk = SkPR.from_predictions(y, s, sample_weight=w, ax=new_axes())
    d = PrecisionRecallDisplay.from_predictions(y, s, sample_weight=w, ci=False, ax=new_axes())
    np.testing.assert_allclose(d.precision, sk.precision[::-1], rtol=0, atol=1e-12)
    np.testing.assert_allclose(d.recall, sk.recall[::-1], rtol=0, atol=1e-12)
    assert d.average_precision == pytest.approx(sk.average_precision, abs=1e-12)
    assert d.average_precision == rw.average_precision(y, s, sample_weight=w)


# --- axes ----------------------------------------------------------------------------------
@pytest.mark.parametrize("cls", [RocCurveDisplay, PrecisionRecallDisplay])
def test_plot_on_given_axes_and_on_none(cls, data):
    import matplotlib.pyplot as plt

    y, s, _ = data
    ax = new_axes()
    d = cls.from_predictions(y, s, ax=ax)
    assert d.ax_ is ax and d.figure_ is ax.figure and d.line_ in ax.get_lines()
    before = plt.get_fignums()
    d2 = cls.from_predictions(y, s)
    assert len(plt.get_fignums()) == len(before) + 1 and d2.figure_.number not in before
    # a display built from data draws the same line
    again = cls(**{k: v for k, v in vars(d).items() if not k.endswith("_")}).plot(new_axes())
    np.testing.assert_array_equal(again.line_.get_xydata(), d.line_.get_xydata())
    assert again.line_.get_label() == d.line_.get_label()


@pytest.mark.parametrize("cls", [RocCurveDisplay, PrecisionRecallDisplay])
def test_overlay_of_15_scorers_has_15_colours_one_chance_line_and_a_full_legend(cls):
    rng = np.random.default_rng(1)
    y = rng.integers(0, 2, 200)
    ax = new_axes()
    shown = [cls.from_predictions(y, y * 0.1 * i + rng.normal(size=200), name=f"s{i}", ax=ax, ci=False)
             for i in range(15)]
    colours = {to_rgba(d.line_.get_color()) for d in shown}
    assert len(colours) == 15
    styles = [(to_rgba(d.line_.get_color()), d.line_.get_linestyle()) for d in shown]
    assert len(set(styles)) == 15
    chance = [line for line in ax.get_lines() if line is shown[0].chance_level_]
    assert len(chance) == 1 and all(d.chance_level_ is shown[0].chance_level_ for d in shown)
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert labels[:15] == [d.line_.get_label() for d in shown] and labels[15].startswith("chance")
    # a colour or line style given by the user wins, by its name or matplotlib's alias
    for kw in ({"color": "black"}, {"c": "black", "ls": ":"}):
        d = cls.from_predictions(y, rng.normal(size=200), ax=new_axes(), **kw)
        assert to_rgba(d.line_.get_color()) == to_rgba("black")
        assert d.line_.get_linestyle() == (":" if "ls" in kw else "-")


@pytest.mark.parametrize("cls", [RocCurveDisplay, PrecisionRecallDisplay])
def test_names_are_drawn_literally(cls, data):
    y, s, _ = data
    ax = new_axes()
    cls.from_predictions(y, s, name="$\\frac{a$", ax=ax)
    cls.from_predictions(y, s, name="_hidden?", ax=ax)
    ax.figure.canvas.draw()  # mathtext would raise on "$\frac{a$"
    texts = ax.get_legend().get_texts()
    assert texts[0].get_text().startswith("$\\frac{a$ (") and not texts[0].get_parse_math()
    assert texts[1].get_text().startswith("_hidden? (")


# --- bands ---------------------------------------------------------------------------------
def test_bands_are_roc_band_and_lie_in_the_unit_square(data):
    y, s, w = data
    d = RocCurveDisplay.from_predictions(y, s, sample_weight=w, band="both", n_resamples=300, random_state=5,
                                         confidence_level=0.9, ax=new_axes())
    b = rw.stats.roc_band(y, s, sample_weight=w, n_resamples=300, random_state=5, confidence_level=0.9)
    for f in ("fpr", "tpr", "pointwise_low", "pointwise_high", "simultaneous_low", "simultaneous_high"):
        np.testing.assert_array_equal(getattr(d.band, f), getattr(b, f))
    for poly in (d.pointwise_band_, d.simultaneous_band_):
        v = poly.get_paths()[0].vertices
        assert v.min() >= 0.0 and v.max() <= 1.0
    # the simultaneous band holds the curve at every grid point; the band's curve is the
    # exact curve read there (the top of a vertical step)
    assert np.all(b.simultaneous_low <= b.tpr) and np.all(b.tpr <= b.simultaneous_high)
    top = np.array([d.tpr[d.fpr <= x + 1e-15].max() if np.isin(x, d.fpr) else np.interp(x, d.fpr, d.tpr)
                    for x in b.fpr])
    np.testing.assert_allclose(top, b.tpr, rtol=0, atol=1e-12)
    assert [t.get_text() for t in d.ax_.get_legend().get_texts()][:2] == ["simultaneous 90% band",
                                                                          "pointwise 90% band"]


@pytest.mark.parametrize("band, drawn", [("pointwise", ("pointwise",)), ("simultaneous", ("simultaneous",)),
                                         (None, ())])
def test_band_choice(band, drawn, data):
    y, s, _ = data
    d = RocCurveDisplay.from_predictions(y, s, band=band, n_resamples=50, random_state=0, ax=new_axes())
    for kind in ("pointwise", "simultaneous"):
        assert (getattr(d, f"{kind}_band_") is not None) == (kind in drawn)
    if band is None:
        with pytest.raises(ValueError, match="holds none"):
            d.plot(new_axes(), band="both")


# --- estimators ----------------------------------------------------------------------------
@pytest.mark.parametrize("cls", [RocCurveDisplay, PrecisionRecallDisplay])
def test_from_estimator_is_from_predictions_on_decision_function(cls):
    from sklearn.linear_model import LogisticRegression
    from sklearn.naive_bayes import GaussianNB

    rng = np.random.default_rng(2)
    X = rng.normal(size=(150, 3))
    y = (X[:, 0] + rng.normal(size=150) > 0).astype(int)
    ranker = rw.BBRRanker().fit(X, y)
    for est, score in ((ranker, ranker.decision_function(X)),
                       (LogisticRegression().fit(X, y), None),
                       (GaussianNB().fit(X, y), None)):  # no decision_function: predict_proba[:, 1]
        if score is None:
            score = est.decision_function(X) if hasattr(est, "decision_function") else est.predict_proba(X)[:, 1]
        a = cls.from_estimator(est, X, y, ax=new_axes())
        b = cls.from_predictions(y, score, name=type(est).__name__, ax=new_axes())
        for f in vars(b):
            if not f.endswith("_"):
                va, vb = getattr(a, f), getattr(b, f)
                assert (np.array_equal(va, vb) if isinstance(va, np.ndarray) else va == vb), f
        assert a.line_.get_label() == b.line_.get_label()


def test_from_estimator_turns_the_score_round_for_the_first_class():
    from sklearn.linear_model import LogisticRegression

    rng = np.random.default_rng(4)
    X = rng.normal(size=(120, 2))
    y = np.where(X[:, 0] + rng.normal(size=120) > 0, "good", "bad")
    est = LogisticRegression().fit(X, y)  # classes_ = ["bad", "good"]
    d = RocCurveDisplay.from_estimator(est, X, y, pos_label="bad", ax=new_axes())
    assert d.roc_auc == rw.auc(y, -est.decision_function(X), pos_label="bad") > 0.5
    with pytest.raises(ValueError, match="must be one of the estimator's classes_"):
        RocCurveDisplay.from_estimator(est, X, y, pos_label="ugly", ax=new_axes())
    with pytest.raises(TypeError, match="decision_function or a predict_proba"):
        RocCurveDisplay.from_estimator(object(), X, y, ax=new_axes())


# --- bad input -----------------------------------------------------------------------------
BAD = [
    ([0, 1, 1], [0.1, np.nan, 0.3], None, None),
    ([0, 1, 1], [0.1, np.inf, 0.3], None, None),
    ([0, 1], [0.1, 0.2, 0.3], None, None),
    (["a", "b", "a"], [0.1, 0.2, 0.3], None, None),
    ([0, 1, 2], [0.1, 0.2, 0.3], None, None),
    ([0, 1, 1], [0.1, 0.2, 0.3], [1.0, -1.0, 1.0], None),
    ([], [], None, None),
    (["a", "b", "a"], [0.1, 0.2, 0.3], None, "c"),
]


@pytest.mark.parametrize("cls, func", [(RocCurveDisplay, rw.roc_curve),
                                       (PrecisionRecallDisplay, rw.precision_recall_curve)])
@pytest.mark.parametrize("y, s, w, pos", BAD)
def test_bad_input_gives_the_functions_error(cls, func, y, s, w, pos):
    with pytest.raises((ValueError, TypeError)) as expected:
        func(y, s, sample_weight=w, pos_label=pos)
    with pytest.raises(type(expected.value)) as got:
        cls.from_predictions(y, s, sample_weight=w, pos_label=pos, ax=new_axes())
    assert str(got.value) == str(expected.value) and "\n" not in str(got.value)


@pytest.mark.parametrize("kwargs, match", [
    ({"band": "upper"}, "The 'band' parameter of RocCurveDisplay.from_predictions must be one of"),
    ({"confidence_level": 1.5}, "confidence_level"),
    ({"band": "both", "n_resamples": 0}, "The 'n_resamples' parameter of RocCurveDisplay.from_predictions"),
    ({"ci": "yes"}, "The 'ci' parameter of RocCurveDisplay.from_predictions must be a bool"),
    ({"ax": "left"}, "The 'ax' parameter of RocCurveDisplay.plot must be a matplotlib Axes"),
])
def test_bad_parameters(kwargs, match, data):
    y, s, _ = data
    with pytest.raises((ValueError, TypeError), match=match):
        RocCurveDisplay.from_predictions(y, s, **kwargs)


@pytest.mark.parametrize("cls", [RocCurveDisplay, PrecisionRecallDisplay])
@pytest.mark.parametrize("y", [[1, 1, 1], [0, 0, 0]])
def test_one_class_warns_once_and_gives_nan(cls, y):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        d = cls.from_predictions(y, [0.1, 0.5, 0.9], ax=new_axes(), band=None) if cls is RocCurveDisplay else \
            cls.from_predictions(y, [0.1, 0.5, 0.9], ax=new_axes())
    undefined = [c for c in caught if issubclass(c.category, rw.UndefinedMetricWarning)]
    assert len(undefined) == 1
    value = d.roc_auc if cls is RocCurveDisplay else d.average_precision
    assert np.isnan(value)


def test_display_is_lazy():
    code = ("import sys, rankwise as rw; d = rw.display; print('matplotlib' in sys.modules, "
            "d.RocCurveDisplay.__name__, 'display' in dir(rw))")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and r.stdout.split() == ["False", "RocCurveDisplay", "True"], r.stderr
