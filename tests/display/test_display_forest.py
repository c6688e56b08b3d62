"""ForestDisplay: rows are the estimates and comparisons of rankwise.stats, exactly."""

import numpy as np
import pytest

import rankwise as rw
from _support.plotting import new_axes
from rankwise.display import ForestDisplay


@pytest.fixture(scope="module")
def data():
    rng = np.random.default_rng(11)
    n = 250
    y = rng.integers(0, 2, n)
    scores = {f"m{i}": np.round(y * 0.3 * i + rng.normal(size=n), 1) for i in range(5)}
    w = rng.uniform(0.5, 2.0, n)
    return y, scores, w


@pytest.mark.parametrize("criterion", ["auc", "local_auc:top=0.3", "pnorm_push:p=4"])
def test_values_are_the_estimates(criterion, data):
    y, scores, w = data
    d = ForestDisplay.from_predictions(y, scores, criterion=criterion, sample_weight=w, confidence_level=0.9,
                                       ax=new_axes())
    assert d.labels == list(scores)
    for i, s in enumerate(scores.values()):
        e = rw.stats.estimate(y, s, criterion, sample_weight=w)
        ci = e.confidence_interval(0.9)
        assert (d.values[i], d.lows[i], d.highs[i]) == (e.value, ci.low, ci.high)
        assert d.texts_[i].get_text() == f"{e.value:.3f} [{ci.low:.3f}, {ci.high:.3f}]"
    np.testing.assert_array_equal(d.points_.get_xydata()[:, 0], d.values)
    assert criterion in d.ax_.get_xlabel() and "90%" in d.ax_.get_xlabel()
    assert d.null_line_ is None and d.p_values is None


def test_differences_to_a_reference_with_the_family(data):
    y, scores, _ = data
    d = ForestDisplay.from_predictions(y, scores, reference="m0", adjust="bh", ax=new_axes())
    c = rw.stats.compare(y, scores, "auc", reference="m0", adjust="bh")
    assert d.labels == [f"{p.a} - m0" for p in c.pairs] == ["m1 - m0", "m2 - m0", "m3 - m0", "m4 - m0"]
    for i, p in enumerate(c.pairs):
        assert (d.values[i], d.lows[i], d.highs[i], d.p_values[i]) == (p.difference, p.low, p.high, p.p_adjusted)
        assert d.texts_[i].get_text().endswith(
            "p < 0.0001" if p.p_adjusted < 1e-4 else f"p = {p.p_adjusted:.4f}")
    assert d.title == f"p-values adjusted (bh) over {c.family}" and "'m0' (4)" in d.title
    assert d.ax_.get_title() == d.title and d.null_value == 0.0 and d.null_line_.get_xdata()[0] == 0.0


def test_one_sided_intervals_are_drawn_to_the_edge(data):
    y, scores, _ = data
    d = ForestDisplay.from_predictions(y, scores, reference="m0", alternative="greater", ax=new_axes())
    assert np.all(np.isinf(d.highs)) and np.all(np.isfinite(d.lows))
    right = d.ax_.get_xlim()[1]
    arrows = [line for line in d.ax_.get_lines() if line.get_marker() == ">"]
    assert len(arrows) == 1 and np.all(arrows[0].get_xdata() == right)
    segs = d.intervals_.get_segments()
    assert all(np.isfinite(seg).all() and seg[1][0] == right for seg in segs)
    assert all("inf]" in t.get_text() for t in d.texts_) and "one-sided (greater)" in d.ax_.get_xlabel()


def test_from_estimates_labels_by_criterion_and_bootstrap_is_seeded(data):
    y, scores, _ = data
    s = scores["m3"]
    ests = rw.stats.estimate_many(y, s, ["auc", "ks_statistic", "local_auc:top=0.2"])
    d = ForestDisplay.from_estimates(ests, random_state=3, n_resamples=200, ax=new_axes())
    assert d.labels == ["auc", "ks_statistic", "local_auc:top=0.2"]
    ci = ests[1].confidence_interval(0.95, n_resamples=200, random_state=3)
    assert (d.lows[1], d.highs[1]) == (ci.low, ci.high)
    assert d.ax_.get_xlabel().startswith("value with 95% confidence interval")
    boot = ForestDisplay.from_predictions(y, scores, method="bootstrap", n_resamples=200, random_state=3,
                                          ax=new_axes())
    ci = rw.stats.estimate(y, s).confidence_interval(0.95, "bootstrap", n_resamples=200, random_state=3)
    assert (boot.lows[3], boot.highs[3]) == (ci.low, ci.high) and "bootstrap" in boot.ax_.get_xlabel()
    with pytest.raises(ValueError, match="at least one estimate"):
        ForestDisplay.from_estimates([], ax=new_axes())


def test_from_estimator_is_from_predictions(data):
    from sklearn.linear_model import LogisticRegression

    rng = np.random.default_rng(0)
    X = rng.normal(size=(200, 3))
    y = (X[:, 0] + X[:, 1] + rng.normal(size=200) > 0).astype(int)
    ests = {"bbr": rw.BBRRanker().fit(X, y), "logreg": LogisticRegression().fit(X, y)}
    a = ForestDisplay.from_estimator(ests, X, y, reference="logreg", ax=new_axes())
    b = ForestDisplay.from_predictions(y, {k: e.decision_function(X) for k, e in ests.items()},
                                       reference="logreg", ax=new_axes())
    for f in ("labels", "values", "lows", "highs", "p_values", "title"):
        assert np.array_equal(getattr(a, f), getattr(b, f)), f
    with pytest.raises(TypeError, match="non-empty dict"):
        ForestDisplay.from_estimator([ests["bbr"]], X, y)


def test_labels_are_literal_and_axes(data):
    import matplotlib.pyplot as plt

    y, scores, _ = data
    ax = new_axes()
    d = ForestDisplay.from_predictions(y, {"$\\frac{a$": scores["m1"], "_b": scores["m2"]}, null_value=0.5, ax=ax)
    ax.figure.canvas.draw()
    ticks = ax.get_yticklabels()
    assert [t.get_text() for t in ticks] == ["$\\frac{a$", "_b"] and not ticks[0].get_parse_math()
    assert d.ax_ is ax and d.null_line_.get_xdata()[0] == 0.5
    n = len(plt.get_fignums())
    d2 = ForestDisplay.from_predictions(y, {"one": scores["m1"]})
    assert len(plt.get_fignums()) == n + 1 and d2.labels == ["one"]


def test_bad_input(data):
    y, scores, _ = data
    with pytest.raises(ValueError) as expected:
        rw.stats.estimate(y, np.r_[scores["m1"][:-1], np.nan])
    with pytest.raises(ValueError) as got:
        ForestDisplay.from_predictions(y, {"a": np.r_[scores["m1"][:-1], np.nan]}, ax=new_axes())
    assert str(got.value) == str(expected.value)
    with pytest.raises(ValueError, match="2 labels but 3 values"):
        ForestDisplay(labels=["a", "b"], values=[1, 2, 3], lows=[0, 1], highs=[2, 3])
    with pytest.raises(ValueError, match="reference"):
        ForestDisplay.from_predictions(y, scores, reference="nope", ax=new_axes())


def test_a_margin_comparison_names_its_margin_and_level(data):
    """Equivalence draws its two one-sided tests' interval, the 90% one at 95%; both margin
    alternatives name the margin on the axis."""
    y, scores, _ = data
    two = {k: scores[k] for k in ("m0", "m1")}
    c = rw.stats.compare(y, two, "auc", alternative="equivalence", margin=0.05)
    d = ForestDisplay.from_comparison(c, ax=new_axes())
    assert (d.lows[0], d.highs[0]) == (c.pairs[0].low, c.pairs[0].high)
    assert "90% confidence interval, equivalence margin 0.05" in d.ax_.get_xlabel()
    c = rw.stats.compare(y, two, "auc", alternative="noninferiority", margin=0.02)
    d = ForestDisplay.from_comparison(c, ax=new_axes())
    assert "95% confidence interval, noninferiority margin 0.02" in d.ax_.get_xlabel() and np.isinf(d.highs[0])
