"""Displays by group (issue 29): ``GroupForestDisplay`` draws ``rw.stats.by_group``'s
rows (one point per group, a line at the value on all rows) and ``GroupRocDisplay`` one
ROC curve per group, each group's AUC in its legend label. Agg canvas."""

import numpy as np
import pytest
from matplotlib.figure import Figure

import rankwise as rw
from rankwise import display, stats
from rankwise.display import GroupForestDisplay, GroupRocDisplay


def _auc(y, s, w=None):
    """The AUC by its definition: every (positive, negative) pair, ties 1/2, weighted."""
    w = np.ones(len(y)) if w is None else np.asarray(w, float)
    num = den = 0.0
    for i in np.flatnonzero(y == 1):
        for j in np.flatnonzero(y == 0):
            num += w[i] * w[j] * ((s[i] > s[j]) + 0.5 * (s[i] == s[j]))
            den += w[i] * w[j]
    return num / den


@pytest.fixture(scope="module")
def sample():
    rng = np.random.default_rng(29)
    n = 150
    y = rng.integers(0, 2, n)
    s = np.round(y + rng.normal(0, 1, n), 1)  # ties within and across groups
    g = rng.choice(["b", "a", "$x$", "c"], n)
    return y, s, g


def _axes():
    return Figure().subplots()


def test_exported_beside_the_other_displays():
    assert {"GroupForestDisplay", "GroupRocDisplay"} <= set(display.__all__)


def test_forest_draws_by_group(sample):
    y, s, g = sample
    res = stats.by_group(y, s, g)
    d = GroupForestDisplay.from_estimates(res, ax=_axes())
    assert d.groups == ["$x$", "a", "b", "c"] == list(res.groups)
    assert d.labels == [f"{k} (n = {(g == k).sum()})" for k in d.groups]
    np.testing.assert_array_equal(d.points_.get_xdata(), [res.value(k) for k in d.groups])  # one point a group
    assert len(d.points_.get_xdata()) == len(d.texts_) == 4
    for k, text, value in zip(d.groups, d.texts_, d.values):
        assert value == pytest.approx(_auc(y[g == k], s[g == k]), abs=1e-12)
        p = next(x.p_adjusted for x in res.differences if x.group == k)
        assert text.get_text().startswith(f"{value:.3f} [") and f"p = {p:.4f}" in text.get_text()
    overall = res.overall[0]
    assert overall.value == pytest.approx(_auc(y, s), abs=1e-12)
    assert tuple(d.overall_line_.get_xdata()) == (overall.value, overall.value)
    assert d.overall_line_.get_label() == f"AUC on all rows = {overall.value:.3f} [{overall.low:.3f}, " \
                                          f"{overall.high:.3f}]"
    assert d.ax_.get_legend().get_texts()[0].get_text() == d.overall_line_.get_label()
    assert [t.get_text() for t in d.ax_.get_yticklabels()] == d.labels  # "$x$" drawn literally
    assert not any(t.get_parse_math() for t in d.ax_.get_yticklabels())
    assert d.title == f"p-values adjusted (holm) over {res.family}"


def test_forest_of_a_criterion_of_a_scorer_with_clusters(sample):
    y, s, g = sample
    ids = np.arange(len(y)) // 3
    res = stats.by_group(y, {"one": s, "two": -s}, g, ["auc", "pnorm_push:p=4"], clusters=ids, bias=False)
    d = GroupForestDisplay.from_estimates(res, "pnorm_push:p=4", "two", ax=_axes())
    want = [r for r in res.rows if r.scorer == "two" and r.criterion == "pnorm_push:p=4"]
    np.testing.assert_array_equal(d.values, [r.value for r in want])
    np.testing.assert_array_equal(d.highs, [r.high for r in want])
    assert d.xlabel.endswith("confidence interval, 50 clusters")
    e = GroupForestDisplay.from_predictions(y, s, g, clusters=ids, ax=_axes())
    np.testing.assert_array_equal(e.lows, [r.low for r in stats.by_group(y, s, g, clusters=ids).rows])


def test_forest_one_class_group(sample):
    y, s, g = sample
    y = y.copy()
    y[g == "a"] = 0
    with pytest.warns(stats.OneClassGroupWarning):
        res = stats.by_group(y, s, g)
    d = GroupForestDisplay.from_estimates(res, ax=_axes())
    i = d.groups.index("a")
    assert np.isnan(d.values[i]) and d.texts_[i].get_text() == "one class only"
    assert np.isnan(d.points_.get_xdata()[i]) and d.one_class == ("a",)


def test_forest_bad_input(sample):
    y, s, g = sample
    res = stats.by_group(y, s, g, bias=False)
    with pytest.raises(TypeError, match="'by_group' argument of GroupForestDisplay.from_estimates"):
        GroupForestDisplay.from_estimates({"a": 1})
    with pytest.raises(ValueError, match="'criterion' parameter.*\\['auc'\\]"):
        GroupForestDisplay.from_estimates(res, "gini")
    with pytest.raises(ValueError, match="'scorer' parameter.*\\['score'\\]"):
        GroupForestDisplay.from_estimates(res, scorer="other")


def test_roc_by_group_one_line_per_group(sample):
    y, s, g = sample
    d = GroupRocDisplay.from_predictions(y, s, g, name="model", ax=_axes())
    assert d.groups == ["$x$", "a", "b", "c"] and len(d.lines_) == 4 and d.one_class == ()
    for k, line, auc, ci in zip(d.groups, d.lines_, d.roc_aucs, d.roc_auc_cis):
        sel = g == k
        assert auc == pytest.approx(_auc(y[sel], s[sel]), abs=1e-12)
        est = stats.estimate(y[sel], s[sel], "auc")
        assert auc == est.value and (ci.low, ci.high) == tuple(est.confidence_interval(0.95))
        assert line.get_label() == f"{k} (AUC = {auc:.3f} [{ci.low:.3f}, {ci.high:.3f}])"
        c = rw.roc_curve(y[sel], s[sel], drop_intermediate=True)
        np.testing.assert_array_equal(line.get_xdata(), c.fpr)
        np.testing.assert_array_equal(line.get_ydata(), c.tpr)
    legend = [t.get_text() for t in d.ax_.get_legend().get_texts()]
    assert legend == [line.get_label() for line in d.lines_] + ["chance (AUC = 0.5)"]
    assert len({line.get_color() for line in d.lines_}) == 4 and d.chance_level_ is not None
    assert d.ax_.get_title() == "model: ROC curve by group"


def test_roc_by_group_weights_labels_clusters(sample):
    y, s, g = sample
    w = np.linspace(0.5, 2.0, len(y))
    labels = np.where(y == 1, "yes", "no")
    d = GroupRocDisplay.from_predictions(labels, s, g, pos_label="yes", sample_weight=w, ci=False, ax=_axes())
    for k, line, auc in zip(d.groups, d.lines_, d.roc_aucs):
        sel = g == k
        assert auc == pytest.approx(_auc(y[sel], s[sel], w[sel]), abs=1e-12)
        assert line.get_label() == f"{k} (AUC = {auc:.3f})"
    ids = np.arange(len(y)) // 5
    e = GroupRocDisplay.from_predictions(y, s, g, clusters=ids, confidence_level=0.9, ax=_axes())
    for k, ci in zip(e.groups, e.roc_auc_cis):
        sel = g == k
        want = stats.estimate(y[sel], s[sel], "auc", clusters=ids[sel]).confidence_interval(0.9)
        assert (ci.low, ci.high) == (want.low, want.high)


def test_roc_by_group_one_class_and_bad_input(sample):
    y, s, g = sample
    y = y.copy()
    y[g == "c"] = 1
    with pytest.warns(stats.OneClassGroupWarning, match="1 group holds one class only.*: c"):
        d = GroupRocDisplay.from_predictions(y, s, g, ax=_axes())
    assert d.one_class == ("c",) and len(d.lines_) == 3 and "c" not in d.displays_
    with pytest.raises(ValueError, match="'groups' parameter of GroupRocDisplay.from_predictions"):
        GroupRocDisplay.from_predictions(y, s, g[:-1])
    with pytest.raises(TypeError, match="'ci' parameter"):
        GroupRocDisplay.from_predictions(y, s, g, ci="yes")
    with pytest.raises(ValueError, match="y_true has 150 values but y_score has 149"):
        GroupRocDisplay.from_predictions(y, s[:-1], g)
