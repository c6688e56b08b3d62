"""``CrossValidatedRocDisplay``: each fold's ROC curve read at the grid (the literal
polyline of ``tests/_support/reference_cvauc.py``, ties and weights included), their mean
and its band, the cross-validated AUC with its influence-curve interval in the legend;
``from_predictions``, ``from_estimate`` and ``from_estimator`` agree with the library.
Agg canvas."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from matplotlib.figure import Figure
from scipy import stats as sps

from rankwise import display, stats
from rankwise.display import CrossValidatedRocDisplay, RocCurveDisplay
from _support import reference_cvauc as ref
from _support.strategies import samples


def _axes():
    return Figure().subplots()


@pytest.fixture(scope="module")
def sample():
    rng = np.random.default_rng(32)
    n = 90
    y = rng.integers(0, 2, n)
    s = np.round(y + rng.normal(0, 1, n), 1)  # ties
    folds = np.array(["c", "a", "b"])[np.arange(n) % 3]
    return y, s, folds


def test_exported_beside_the_other_displays():
    assert "CrossValidatedRocDisplay" in display.__all__


def test_the_curves_are_the_folds_read_at_the_grid(sample):
    y, s, folds = sample
    d = CrossValidatedRocDisplay.from_predictions(y, s, folds, n_points=21, ax=_axes())
    assert d.fold_ids == ["a", "b", "c"] and d.n_folds == 3 and d.fpr.tolist() == np.linspace(0, 1, 21).tolist()
    for k, f in enumerate(d.fold_ids):
        sel = folds == f
        want = [ref.roc_at(y[sel].tolist(), s[sel].tolist(), x) for x in d.fpr]
        assert d.fold_tpr[k] == pytest.approx(want, abs=1e-12)
        assert d.fold_lines_[k].get_ydata().tolist() == d.fold_tpr[k].tolist()
    assert d.tpr == pytest.approx(d.fold_tpr.mean(axis=0), abs=1e-15)
    half = sps.t.ppf(0.975, 2) * d.fold_tpr.std(axis=0, ddof=1) / np.sqrt(3)
    assert d.lower == pytest.approx(np.clip(d.tpr - half, 0, 1), abs=1e-12)
    assert d.upper == pytest.approx(np.clip(d.tpr + half, 0, 1), abs=1e-12)
    assert d.line_.get_ydata().tolist() == d.tpr.tolist()


@pytest.mark.filterwarnings("ignore::rankwise.stats.DegenerateIntervalWarning")
@settings(max_examples=30, deadline=None)
@given(samples(min_n=4, max_n=18, weights=True, integer_weights=True), st.integers(2, 3))
def test_generated_folds_with_ties_and_weights(sample, V):
    y, s, w = sample
    y = np.asarray(y)
    folds = np.arange(len(y)) % V
    if any(not (y[folds == v].any() and (~y[folds == v]).any()) for v in range(V)):
        with pytest.raises(ValueError, match="every fold needs both classes"):
            CrossValidatedRocDisplay.from_predictions(y, s, folds, sample_weight=w, n_points=6, ax=_axes())
        return
    d = CrossValidatedRocDisplay.from_predictions(y, s, folds, sample_weight=w, n_points=6, ax=_axes())
    for v in range(V):
        sel = folds == v
        yy, ss, ww = y[sel].tolist(), np.asarray(s)[sel].tolist(), np.asarray(w)[sel].tolist()
        assert d.fold_tpr[v] == pytest.approx([ref.roc_at(yy, ss, x, ww) for x in d.fpr], abs=1e-12)
    value, _, _ = ref.cross_validated(y.tolist(), list(s), folds.tolist(), w)
    assert d.value == pytest.approx(value, abs=1e-12)


def test_the_legend_holds_the_cross_validated_auc_and_its_interval(sample):
    y, s, folds = sample
    ax = _axes()
    d = CrossValidatedRocDisplay.from_predictions(y, s, folds, name="$m$", ax=ax)
    est = stats.cross_validated(y, s, folds)
    ci = est.confidence_interval()
    assert d.value == est.value and (d.value_ci.low, d.value_ci.high) == (ci.low, ci.high)
    assert d.line_.get_label() == f"$m$: mean of 3 folds (AUC = {est.value:.3f} [{ci.low:.3f}, {ci.high:.3f}])"
    legend = ax.get_legend()
    texts = [t.get_text() for t in legend.get_texts()]
    assert texts == ["each of the 3 folds", "pointwise 95% band over the folds", d.line_.get_label(),
                     "chance (AUC = 0.5)"]
    assert all(not t.get_parse_math() for t in legend.get_texts())  # the name drawn literally
    assert legend.get_title().get_text() == "cross-validated AUC [95% CI, influence curve]"
    # folds thin and pale in the mean curve's colour
    assert {line.get_color() for line in d.fold_lines_} == {d.line_.get_color()}
    assert all(line.get_linewidth() < d.line_.get_linewidth() for line in d.fold_lines_)


def test_from_estimate_equals_from_predictions_and_any_criterion(sample):
    y, s, folds = sample
    est = stats.cross_validated(y, s, folds, confidence_level=0.9)
    a = CrossValidatedRocDisplay.from_estimate(est, n_points=11, ax=_axes())
    b = CrossValidatedRocDisplay.from_predictions(y, s, folds, n_points=11, confidence_level=0.9, ax=_axes())
    assert a.estimate_ is est and a.confidence_level == 0.9
    for k in ("fpr", "tpr", "lower", "upper", "fold_tpr"):
        assert getattr(a, k).tolist() == getattr(b, k).tolist()
    roc = est.roc_curve(11, 0.9)
    assert a.lower.tolist() == roc.lower.tolist()
    p = CrossValidatedRocDisplay.from_predictions(y, s, folds, criterion="pnorm_push:p=4", ax=_axes())
    assert "p-norm push, p = 4 = " in p.line_.get_label()
    assert p.fold_tpr.tolist() == CrossValidatedRocDisplay.from_estimate(est, ax=_axes()).fold_tpr.tolist()
    with pytest.raises(TypeError, match="must be a rankwise.stats.CrossValidatedEstimate"):
        CrossValidatedRocDisplay.from_estimate(stats.estimate(y, s), ax=_axes())


def test_from_estimator_is_cross_validate():
    from sklearn.linear_model import LogisticRegression

    rng = np.random.default_rng(0)
    X = rng.normal(size=(120, 3))
    y = (X[:, 0] + rng.normal(size=120) > 0).astype(int)
    d = CrossValidatedRocDisplay.from_estimator(LogisticRegression(), X, y, cv=3, random_state=0, ax=_axes())
    est = stats.cross_validate(LogisticRegression(), X, y, cv=3, random_state=0)
    assert d.value == est.value and d.fold_ids == [0, 1, 2]
    assert d.fold_tpr.tolist() == est.roc_curve().fold_tpr.tolist()
    assert d.line_.get_label().startswith("LogisticRegression: mean of 3 folds (AUC = ")


def test_overlays_and_options(sample):
    y, s, folds = sample
    ax = _axes()
    RocCurveDisplay.from_predictions(y, s, ax=ax)
    d = CrossValidatedRocDisplay.from_predictions(y, s, folds, ax=ax, plot_folds=False, plot_band=False)
    assert d.fold_lines_ == [] and d.band_ is None
    assert d.line_.get_color() != ax.get_lines()[0].get_color()  # the next colour of the axes
    assert sum(line.get_gid() == "rankwise.display.chance" for line in ax.get_lines()) == 1
    e = CrossValidatedRocDisplay.from_predictions(y, s, folds, ax=ax, color="k", legend=False)
    assert e.line_.get_color() == "k" and e.band_ is not None and len(e.fold_lines_) == 3
    with pytest.raises(TypeError, match="'plot_folds' parameter of CrossValidatedRocDisplay.plot must be a bool"):
        d.plot(ax=_axes(), plot_folds="yes")


def test_bad_shapes_are_refused():
    with pytest.raises(ValueError, match="fold_tpr must have shape \\(2, 3\\)"):
        CrossValidatedRocDisplay(fpr=[0, 0.5, 1], tpr=[0, 1, 1], lower=[0, 1, 1], upper=[0, 1, 1],
                                 fold_tpr=[[0, 1, 1]], fold_ids=[0, 1])
    with pytest.raises(ValueError, match="3 false-positive rates but lower"):
        CrossValidatedRocDisplay(fpr=[0, 0.5, 1], tpr=[0, 1, 1], lower=[0, 1], upper=[0, 1, 1],
                                 fold_tpr=[[0, 1, 1]], fold_ids=[0])
