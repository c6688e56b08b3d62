"""``MulticlassROCDisplay`` and ``PairwiseAUCDisplay`` (issue 31, item 4): the curves drawn
are ``rw.roc_curve`` of each class against the rest on its own column, the numbers
written are those of ``rw.multiclass_auc`` and ``rw.stats.estimate(criterion=
"multiclass_auc")``. Agg canvas."""

import warnings

import numpy as np
import pytest
from matplotlib.figure import Figure

import rankwise as rw
from rankwise import UndefinedMetricWarning, display
from rankwise.display import MulticlassROCDisplay, PairwiseAUCDisplay

CLASSES = np.array(["high", "low", "mid"])


@pytest.fixture(scope="module")
def sample():
    """Three classes of unequal sizes, probabilities in tenths (ties within and across
    columns) leaning to each row's class."""
    rng = np.random.default_rng(31)
    n = 240
    codes = rng.choice(3, size=n, p=[0.2, 0.5, 0.3])
    counts = rng.multinomial(6, [1 / 3] * 3, size=n)
    counts[np.arange(n), codes] += 4
    return CLASSES[codes], counts / 10.0


def _axes():
    return Figure().subplots()


def _area(line):
    x, y = line.get_data()
    return float(np.sum(np.diff(x) * (y[1:] + y[:-1]) / 2))


def test_exported_beside_the_other_displays():
    assert {"MulticlassROCDisplay", "PairwiseAUCDisplay"} <= set(display.__all__)


@pytest.mark.parametrize("weighted", [False, True])
def test_curves_are_each_class_against_the_rest(sample, weighted):
    y, S = sample
    w = np.random.default_rng(1).integers(0, 4, size=y.shape[0]) / 2.0 if weighted else None
    d = MulticlassROCDisplay.from_predictions(y, S, sample_weight=w, ax=_axes(), name="model")
    per = rw.multiclass_auc(y, S, average=None, sample_weight=w)
    est = rw.stats.estimate(y, S, criterion="multiclass_auc", sample_weight=w)
    ends = est.component_intervals(0.95)
    assert len(d.lines_) == 3 and list(d.displays_) == CLASSES.tolist()
    for k, (c, line) in enumerate(zip(CLASSES, d.lines_)):
        curve = rw.roc_curve(y == c, S[:, k], sample_weight=w, drop_intermediate=True)
        x, t = line.get_data()
        np.testing.assert_array_equal(x, curve.fpr)
        np.testing.assert_array_equal(t, curve.tpr)
        # the area under the drawn curve (ties as diagonals) is the class's one-vs-rest AUC
        assert _area(line) == pytest.approx(per[k], abs=1e-12)
        assert line.get_label() == f"{c} (AUC = {per[k]:.3f} [{ends[k, 0]:.3f}, {ends[k, 1]:.3f}])"
    lo, hi = est.confidence_interval(0.95)
    assert d.title_.get_text() == f"model\none-vs-rest macro AUC = {est.value:.3f} [{lo:.3f}, {hi:.3f}] (95% CI)"
    assert est.value == pytest.approx(rw.multiclass_auc(y, S, sample_weight=w), abs=1e-12)
    assert d.chance_level_ is not None and d.ax_.get_legend() is not None


@pytest.mark.parametrize(("multi_class", "average", "head"), [
    ("ovo", "macro", "M (Hand & Till)"),
    ("ovo", "weighted", "one-vs-one weighted AUC"),
    ("ovr", "weighted", "one-vs-rest weighted AUC"),
])
def test_title_holds_the_requested_average(sample, multi_class, average, head):
    y, S = sample
    d = MulticlassROCDisplay.from_predictions(y, S, multi_class=multi_class, average=average, ax=_axes(),
                                              confidence_level=0.9)
    est = rw.stats.estimate(y, S, criterion="multiclass_auc", multi_class=multi_class, average=average)
    lo, hi = est.confidence_interval(0.9)
    assert d.title_.get_text() == f"{head} = {est.value:.3f} [{lo:.3f}, {hi:.3f}] (90% CI)"
    assert est.value == pytest.approx(rw.multiclass_auc(y, S, multi_class=multi_class, average=average))
    # the legend's intervals stay the per-class one-vs-rest ones, at the same level
    ends = rw.stats.estimate(y, S, criterion="multiclass_auc").component_intervals(0.9)
    assert d.lines_[0].get_label().endswith(f"[{ends[0, 0]:.3f}, {ends[0, 1]:.3f}])")
    assert d.micro_line_ is None


def test_micro_average_draws_the_pooled_curve(sample):
    y, S = sample
    d = MulticlassROCDisplay.from_predictions(y, S, average="micro", ci=False, ax=_axes())
    own = (y[:, None] == CLASSES[None, :]).ravel()
    curve = rw.roc_curve(own, S.ravel())
    np.testing.assert_array_equal(d.micro_line_.get_data()[0], curve.fpr)
    micro = rw.multiclass_auc(y, S, average="micro")
    assert _area(d.micro_line_) == pytest.approx(micro, abs=1e-12)
    assert d.title_.get_text() == f"one-vs-rest micro AUC = {micro:.3f}"
    assert d.micro_line_.get_label() == f"micro average (pooled) (AUC = {micro:.3f})"


def test_without_intervals_and_a_data_frame(sample):
    pd = pytest.importorskip("pandas")
    y, S = sample
    a = MulticlassROCDisplay.from_predictions(y, S, ci=False, ax=_axes())
    frame = pd.DataFrame(S, columns=CLASSES)[["mid", "high", "low"]]  # matched by name
    b = MulticlassROCDisplay.from_predictions(pd.Series(y), frame, ci=False, ax=_axes())
    assert [ln.get_label() for ln in a.lines_] == [ln.get_label() for ln in b.lines_]
    assert "[" not in a.lines_[0].get_label() and a.roc_auc_cis == [None] * 3


def test_labels_order_and_an_absent_class(sample):
    y, S = sample
    labels = ["mid", "high", "low", "none"]
    S4 = np.c_[S[:, [2, 0, 1]], np.zeros(y.shape[0])]
    with pytest.warns(UndefinedMetricWarning):
        d = MulticlassROCDisplay.from_predictions(y, S4, labels=labels, ax=_axes())
    assert d.no_curve == ("none",)
    assert [ln.get_label().split(" ")[0] for ln in d.lines_] == ["mid", "high", "low"]
    assert d.title_.get_text() == "one-vs-rest macro AUC = nan"  # scikit-learn's rule: an absent class


def test_from_estimator_reads_predict_proba_by_classes_():
    pytest.importorskip("sklearn")
    from sklearn.linear_model import LogisticRegression

    rng = np.random.default_rng(3)
    X = rng.normal(size=(300, 2))
    y = np.array(["x", "y", "z"])[np.argmax(X @ [[1, -1, 0], [0, 1, -1]] + rng.normal(size=(300, 3)), axis=1)]
    model = LogisticRegression().fit(X, y)
    d = MulticlassROCDisplay.from_estimator(model, X, y, ax=_axes())
    want = MulticlassROCDisplay.from_predictions(y, model.predict_proba(X), labels=model.classes_, ax=_axes())
    assert [ln.get_label() for ln in d.lines_] == [ln.get_label() for ln in want.lines_]
    assert d.title_.get_text() == "LogisticRegression\n" + want.title_.get_text()
    p = PairwiseAUCDisplay.from_estimator(model, X, y, ax=_axes(), ci=False)
    np.testing.assert_array_equal(
        p.matrix, rw.multiclass_auc(y, model.predict_proba(X), multi_class="ovo", average=None).pairs)
    with pytest.raises(TypeError, match="labels"):
        MulticlassROCDisplay.from_estimator(model, X, y, labels=["x", "y", "z"])

    class NoProba:
        classes_ = np.array(["x", "y", "z"])

    with pytest.raises(TypeError, match="predict_proba"):
        MulticlassROCDisplay.from_estimator(NoProba(), X, y)


def test_bad_input_names_the_argument(sample):
    y, S = sample
    with pytest.raises(ValueError, match="'y_score'.*summing to 1"):
        MulticlassROCDisplay.from_predictions(y, S * 2)
    with pytest.raises(ValueError, match="'y_score'.*shape"):
        MulticlassROCDisplay.from_predictions(y, S[:, :2])
    with pytest.raises(ValueError, match="'multi_class'"):
        MulticlassROCDisplay.from_predictions(y, S, multi_class="ova")
    with pytest.raises(ValueError, match="'average'.*'micro'"):
        MulticlassROCDisplay.from_predictions(y, S, multi_class="ovo", average="micro")
    with pytest.raises(TypeError, match="'ci'"):
        MulticlassROCDisplay.from_predictions(y, S, ci="yes")
    with pytest.raises(ValueError, match="'average'"):
        PairwiseAUCDisplay.from_predictions(y, S, average="micro")
    with pytest.raises(ValueError, match="3 labels but 2 curves"):
        MulticlassROCDisplay(labels=CLASSES, curves=[None, None], roc_aucs=[0.5, 0.5, 0.5])


def test_names_are_drawn_literally(sample):
    y, S = sample
    d = MulticlassROCDisplay.from_predictions(np.where(y == "low", "$low$", y), S[:, [0, 2, 1]], name="$m_1$",
                                              ci=False, ax=_axes())
    assert d.title_.get_text().startswith("$m_1$\n") and not d.title_.get_parse_math()
    assert any(t.get_text().startswith("$low$ (AUC") for t in d.ax_.get_legend().get_texts())


# --- PairwiseAUCDisplay ----------------------------------------------------------------------

def test_pairwise_cells_hold_the_pair_values_and_intervals(sample):
    y, S = sample
    d = PairwiseAUCDisplay.from_predictions(y, S, name="model", ax=_axes())
    res = rw.multiclass_auc(y, S, multi_class="ovo", average=None)
    np.testing.assert_array_equal(d.matrix, res.pairs)
    est = rw.stats.estimate(y, S, criterion="multiclass_auc", multi_class="ovo")
    ends = est.component_intervals(0.95)
    for (i, j), (lo, hi), comp in zip(zip(*np.triu_indices(3, 1)), ends, est.components):
        assert comp == f"{CLASSES[i]} vs {CLASSES[j]}"
        for a, b in ((i, j), (j, i)):  # symmetric
            assert d.texts_[a, b].get_text() == f"{res.pairs[i, j]:.3f}\n[{lo:.3f}, {hi:.3f}]"
    assert all(d.texts_[k, k] is None for k in range(3))
    lo, hi = est.confidence_interval(0.95)
    assert est.value == pytest.approx(rw.multiclass_auc(y, S, multi_class="ovo"))
    assert d.title_.get_text() == f"model\nM (Hand & Till) = {est.value:.3f} [{lo:.3f}, {hi:.3f}] (95% CI)"
    assert d.colorbar_ is not None and d.image_.get_clim() == (0.0, 1.0)


def test_pairwise_directed_and_an_absent_class(sample):
    y, S = sample
    S4 = np.c_[S, np.zeros(y.shape[0])]
    d = PairwiseAUCDisplay.from_predictions(y, S4, labels=[*CLASSES, "none"], directed=True, ax=_axes())
    res = rw.multiclass_auc(y, S4, labels=[*CLASSES, "none"], multi_class="ovo", average=None)
    np.testing.assert_array_equal(d.matrix, res.directed)
    assert d.texts_[0, 1].get_text() == f"{res.directed[0, 1]:.3f}"  # directed: no interval
    assert d.texts_[1, 0].get_text() == f"{res.directed[1, 0]:.3f}"
    assert all(d.texts_[3, j] is None and d.texts_[j, 3] is None for j in range(4))  # the absent class: blank
    # M over the pairs of present classes
    assert d.value == pytest.approx(rw.multiclass_auc(y, S, multi_class="ovo"))


def test_pairwise_without_intervals_and_hand_example():
    S = [[0.6, 0.4], [0.3, 0.7], [0.5, 0.5], [0.4, 0.6]]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        d = PairwiseAUCDisplay.from_predictions([0, 0, 1, 1], S, ci=False, colorbar=False, ax=_axes())
    # column 0: class 0 (0.6, 0.3) above class 1 (0.5, 0.4) in 2 of 4 pairs; column 1 alike
    assert d.matrix[0, 1] == d.matrix[1, 0] == 0.5
    assert d.title_.get_text() == "M (Hand & Till) = 0.500" and d.colorbar_ is None


def test_clusters_reach_the_intervals(sample):
    y, S = sample
    g = np.arange(y.shape[0]) % 40  # 40 clusters of 6 rows
    d = MulticlassROCDisplay.from_predictions(y, S, clusters=g, ax=_axes())
    est = rw.stats.estimate(y, S, criterion="multiclass_auc", clusters=g)
    plain = rw.stats.estimate(y, S, criterion="multiclass_auc")
    assert est.n_clusters == 40 and est.std_error != plain.std_error
    lo, hi = est.confidence_interval(0.95)
    assert d.title_.get_text() == f"one-vs-rest macro AUC = {est.value:.3f} [{lo:.3f}, {hi:.3f}] (95% CI)"
    ends = est.component_intervals(0.95)
    assert d.lines_[2].get_label() == f"mid (AUC = {est.component_values[2]:.3f} [{ends[2, 0]:.3f}, {ends[2, 1]:.3f}])"
    p = PairwiseAUCDisplay.from_predictions(y, S, clusters=g, ax=_axes())
    pe = rw.stats.estimate(y, S, criterion="multiclass_auc", multi_class="ovo", clusters=g)
    assert p.value_ci.low == pe.confidence_interval(0.95).low
