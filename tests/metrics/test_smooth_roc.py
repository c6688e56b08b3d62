"""Smoothed ROC curves (rankwise.smooth_roc) against pROC 1.18 and against direct definitions.

* Golden values (tests/golden/proc_smooth.json, written by tests/golden/make_proc_smooth.R;
  CI needs no R): the smoothed points, auc(smooth), the partial AUCs in both foci, raw and
  McClish-corrected, the binormal coefficients and the bandwidth, to 1e-9, and pROC's
  refusals.
* Direct definitions (tests/_support/reference_smooth.py: R's density with its binning
  observation by observation and the convolution summed term by term, the binormal line
  by least squares on the design matrix, areas by clipping segments) on generated samples
  with ties and tiny classes.
* The bootstrap interval in law: pROC's ci.auc(smooth, boot.n = 2000) and ours (2,000
  resamples) differ by less than 4 Monte Carlo standard errors of the difference of two
  independent quantile estimates.
"""

from __future__ import annotations

import json
import math
import os

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rankwise as rw
from _support import reference_smooth as ref
from _support.paths import GOLDEN

with open(os.path.join(GOLDEN, "proc_smooth.json")) as _fh:
    DATA = json.load(_fh)
SETS = {s["name"]: s for s in DATA["sets"]}
TOL = 1e-9


def _sample(st_):
    c0 = np.atleast_1d(np.asarray(st_["controls"], dtype=float))
    c1 = np.atleast_1d(np.asarray(st_["cases"], dtype=float))
    return np.r_[np.zeros(c0.shape[0]), np.ones(c1.shape[0])], np.r_[c0, c1]


def _kwargs(args: str) -> dict:
    """pROC's smooth() arguments ("method = 'density', bw = 0.05") as a dict."""
    out = {}
    for part in args.split(","):
        k, v = (x.strip() for x in part.split("="))
        out[k] = v.strip("'") if v.startswith("'") else (int(v) if k == "n" else float(v))
    return out


def _band(p) -> dict:
    hi, lo = p["bounds"]
    if p["focus"] == "specificity":
        kw = {"min_fpr": 1 - hi, "max_fpr": 1 - lo}
    else:
        kw = {"min_tpr": lo, "max_tpr": hi}
    return {**kw, "standardize": "mcclish" if p["correct"] else None}


CASES = [(s["name"], m) for s in DATA["sets"] for m in s["smooths"]]


@pytest.mark.parametrize("name,rec", CASES, ids=[f"{n}:{m['args']}" for n, m in CASES])
def test_golden_proc(name, rec):
    y, s = _sample(SETS[name])
    kw = _kwargs(rec["args"])
    if "error" in rec:
        with pytest.raises(ValueError, match="y_score"):
            rw.smooth_roc(y, s, **kw)
        return
    if name == "one_control":  # pROC smooths one control; we ask for 2 of each class (see docs)
        with pytest.raises(ValueError, match="at least 2 observations of each class in 'y_true'"):
            rw.smooth_roc(y, s, **kw)
        return
    c = rw.smooth_roc(y, s, **kw)
    np.testing.assert_allclose(c.specificities, rec["specificities"], rtol=0, atol=TOL)
    np.testing.assert_allclose(c.sensitivities, rec["sensitivities"], rtol=0, atol=TOL)
    np.testing.assert_allclose(c.fpr, 1 - np.asarray(rec["specificities"])[::-1], rtol=0, atol=TOL)
    np.testing.assert_allclose(c.tpr, np.asarray(rec["sensitivities"])[::-1], rtol=0, atol=TOL)
    assert abs(c.auc() - rec["auc"]) < TOL
    if "coefficients" in rec:
        np.testing.assert_allclose([c.fit.intercept, c.fit.slope], rec["coefficients"], rtol=0, atol=TOL)
    if "bw" in rec:
        assert abs(c.bandwidth - rec["bw"]) < TOL
    for p in rec["partial"]:
        assert abs(c.partial_auc(**_band(p)) - p["value"]) < TOL, p["call"]


def test_golden_covers_the_brief():
    methods = {(n, _kwargs(m["args"])["method"]) for n, m in CASES if "error" not in m}
    for name in ("asah_s100b", "asah_ndka", "asah_wfns", "sim_binormal", "tied"):
        assert (name, "binormal") in methods and (name, "density") in methods


# --- direct definitions on generated samples ---------------------------------------------------

@st.composite
def two_classes(draw, min_each=1, max_each=10):
    n0 = draw(st.integers(min_each, max_each))
    n1 = draw(st.integers(min_each, max_each))
    if draw(st.booleans()):
        vals = st.integers(-3, 3).map(float)  # many ties
    else:
        vals = st.floats(-50, 50, allow_nan=False, width=32).map(float)
    return draw(st.lists(vals, min_size=n0, max_size=n0)), draw(st.lists(vals, min_size=n1, max_size=n1))


def _ys(c0, c1):
    return [0] * len(c0) + [1] * len(c1), list(c0) + list(c1)


@settings(max_examples=40)
@given(two_classes(), st.sampled_from([2, 3, 11, 512]))
def test_binormal_matches_definition(classes, n):
    c0, c1 = classes
    want = ref.binormal(c0, c1, n)
    y, s = _ys(c0, c1)
    if want is None:
        with pytest.raises(ValueError, match="y_score"):
            rw.smooth_roc(y, s, n=n)
        return
    c = rw.smooth_roc(y, s, n=n)
    np.testing.assert_allclose(c.sensitivities, want[0], rtol=0, atol=1e-12)
    np.testing.assert_allclose(c.specificities, want[1], rtol=0, atol=1e-9)
    assert abs(c.fit.intercept - want[2]) < 1e-9 and abs(c.fit.slope - want[3]) < 1e-9
    # the area formula is the integral of the fitted binormal curve (the slope is negative
    # for a curve rising from (0, 0)); the partial area is that of the points
    if c.fit.slope < 0:
        assert abs(c.auc() - ref.binormal_area(want[2], want[3])) < 1e-7
    assert abs(c.partial_auc(max_fpr=0.3) - ref.area(want[1], want[0], 0.7, 1.0)) < 1e-12
    assert abs(c.partial_auc(min_tpr=0.5, max_tpr=0.9)
               - ref.area(want[1], want[0], 0.5, 0.9, "sensitivity")) < 1e-12


@settings(max_examples=15)
@given(two_classes(min_each=2, max_each=8), st.sampled_from(["nrd0", "nrd", 0.7]),
       st.sampled_from([0.5, 1.0, 2.0]), st.sampled_from(["gaussian", "epanechnikov", "rectangular", "cosine"]),
       st.sampled_from([2, 40, 600]))
def test_density_matches_definition(classes, bw, adjust, kernel, n):
    c0, c1 = classes
    y, s = _ys(c0, c1)
    pooled = list(c0) + list(c1)
    if bw == "nrd" and ref.bw_nrd(pooled) == 0:
        with pytest.raises(ValueError, match="bw"):
            rw.smooth_roc(y, s, method="density", bw=bw, adjust=adjust, kernel=kernel, n=n)
        return
    want = ref.density_curve(c0, c1, n=n, bw=bw, adjust=adjust, kern=kernel)
    if want is None:
        with pytest.raises(ValueError, match="'n'"):
            rw.smooth_roc(y, s, method="density", bw=bw, adjust=adjust, kernel=kernel, n=n)
        return
    se, sp, h = want
    c = rw.smooth_roc(y, s, method="density", bw=bw, adjust=adjust, kernel=kernel, n=n)
    assert abs(c.bandwidth - h) <= 1e-12 * h
    np.testing.assert_allclose(c.sensitivities, se, rtol=0, atol=1e-9)
    np.testing.assert_allclose(c.specificities, sp, rtol=0, atol=1e-9)
    assert abs(c.auc() - ref.area(sp, se)) < 1e-9
    assert abs(c.partial_auc(min_fpr=0.1, max_fpr=0.4) - ref.area(sp, se, 0.6, 0.9)) < 1e-9
    assert abs(c.partial_auc(min_tpr=0.8) - ref.area(sp, se, 0.8, 1.0, "sensitivity")) < 1e-9


def test_binormal_depends_on_ranks_only():
    rng = np.random.default_rng(3)
    y = rng.integers(0, 2, 80)
    s = rng.normal(size=80) + y
    a, b = rw.smooth_roc(y, s), rw.smooth_roc(y, np.exp(3 * s) + 7)
    np.testing.assert_array_equal(a.tpr, b.tpr)
    np.testing.assert_allclose(a.fpr, b.fpr, rtol=0, atol=1e-15)


def test_mcclish_is_half_on_diagonal_and_labels_and_pos_label():
    # identical classes: the binormal line is the diagonal up to rounding
    s = [1, 2, 3, 4, 5] * 2
    c = rw.smooth_roc([0] * 5 + [1] * 5, s)
    assert abs(c.auc() - 0.5) < 1e-12
    assert abs(c.partial_auc(max_fpr=0.2, standardize="mcclish") - 0.5) < 1e-9
    d = rw.smooth_roc(["b"] * 5 + ["a"] * 5, s, pos_label="a")
    np.testing.assert_array_equal(c.tpr, d.tpr)


# --- the bootstrap interval -------------------------------------------------------------------

EXTRA = {  # pROC's partial.auc arguments of ci.auc as ours
    "reuse.auc = FALSE, partial.auc = c(1, 0.8), partial.auc.correct = TRUE": {"max_fpr": 0.2,
                                                                              "standardize": "mcclish"},
    "reuse.auc = FALSE, partial.auc = c(1, 0.8), partial.auc.focus = 'sensitivity'": {"min_tpr": 0.8},
}


@pytest.mark.parametrize("rec", DATA["ci"], ids=[f"{r['set']}:{r['args']}:{r.get('extra', 'auc')}" for r in DATA["ci"]])
def test_bootstrap_interval_agrees_with_proc_in_law(rec):
    y, s = _sample(SETS[rec["set"]])
    c = rw.smooth_roc(y, s, **_kwargs(rec["args"]))
    band = EXTRA[rec["extra"]] if "extra" in rec else {}
    B = rec["boot_n"]
    iv = c.confidence_interval(0.95, n_resamples=B, random_state=11, **band)
    assert iv.n_failed == 0 and iv.replicates.shape == (B,)
    if band:
        assert abs(iv.estimate - rec["estimate"]) < TOL
    # Monte Carlo sd of a quantile estimate from B resamples: sqrt(p (1 - p) / B) / f(q),
    # 1 / f(q) estimated by the slope of our replicates' quantile function around p; the
    # two estimates (ours, pROC's) are independent, so their difference has sqrt(2) times it.
    for p, got, want in zip((0.025, 0.5, 0.975), (iv.low, iv.median, iv.high), rec["ci"]):
        d = 0.01
        slope = (np.quantile(iv.replicates, min(p + d, 1)) - np.quantile(iv.replicates, max(p - d, 0))) / (2 * d)
        mc = math.sqrt(p * (1 - p) / B) * slope
        assert abs(got - want) < 4 * math.sqrt(2) * mc, (p, got, want, mc)
    assert iv.low < iv.estimate < iv.high


def test_bootstrap_interval_is_seeded_and_partial():
    y, s = _sample(SETS["tied"])
    c = rw.smooth_roc(y, s, method="density")
    a = c.confidence_interval(n_resamples=200, random_state=5)
    b = c.confidence_interval(n_resamples=200, random_state=np.random.default_rng(5))
    assert (a.low, a.high) == (b.low, b.high)
    lo, hi = a
    assert lo <= a.median <= hi
    p = c.confidence_interval(n_resamples=200, random_state=5, max_fpr=0.2, standardize="mcclish")
    assert p.estimate == c.partial_auc(max_fpr=0.2, standardize="mcclish")
    assert 0 <= p.low <= p.high <= 1
    assert "95% CI" in a.summary()


def test_bootstrap_leaves_out_resamples_that_cannot_be_smoothed():
    # four of each class: resamples that repeat a few scores often leave fewer than two
    # empirical points inside the square
    c = rw.smooth_roc([0, 0, 0, 0, 1, 1, 1, 1], [1, 2, 3, 4, 2, 3, 4, 5])
    iv = c.confidence_interval(n_resamples=300, random_state=0)
    assert iv.n_failed > 0 and iv.replicates.shape[0] == 300 - iv.n_failed
    assert "could not be smoothed" in iv.summary()


# --- output and bad input -------------------------------------------------------------------

def test_summary_and_html():
    y, s = _sample(SETS["asah_s100b"])
    b = rw.smooth_roc(y, s)
    d = rw.smooth_roc(y, s, method="density")
    assert "binormal" in str(b) and "qnorm(Sp)" in b.summary() and "AUC" in b._repr_html_()
    assert "bandwidth" in d.summary() and "<table>" in d._repr_html_()
    assert d.parameters["kernel"] == "gaussian" and b.parameters["n_points"] == b.fit.n_points
    assert b.fit.b == pytest.approx(-1 / b.fit.slope)
    assert "SmoothROC(method='binormal'" in repr(b)


def test_inputs_are_not_modified_and_results_read_only():
    y = np.array([0, 0, 0, 1, 1, 1, 0, 1])
    s = np.array([0.1, 0.4, 0.3, 0.35, 0.8, 0.5, 0.2, 0.9])
    y0, s0 = y.copy(), s.copy()
    c = rw.smooth_roc(y, s, method="density")
    np.testing.assert_array_equal(y, y0)
    np.testing.assert_array_equal(s, s0)
    c.sensitivities[0] = 5.0  # a copy
    assert c.sensitivities[0] == 1.0


@pytest.mark.parametrize("kw,match", [
    ({"method": "logcondens"}, "'method'"),
    ({"n": 1}, "'n'"),
    ({"n": 2.5}, "'n'"),
    ({"method": "density", "bw": "SJ"}, "'bw'"),
    ({"method": "density", "bw": 0.0}, "'bw'"),
    ({"method": "density", "bw": -1.0}, "'bw'"),
    ({"method": "density", "bw": float("nan")}, "'bw'"),
    ({"method": "density", "adjust": 0}, "'adjust'"),
    ({"method": "density", "kernel": "box"}, "'kernel'"),
    ({"method": "density", "cut": -1}, "'cut'"),
])
def test_bad_settings(kw, match):
    with pytest.raises(ValueError, match=match):
        rw.smooth_roc([0, 0, 1, 1, 0, 1], [1, 2, 3, 4, 2.5, 1.5], **kw)


def test_bad_types_and_samples():
    y, s = [0, 0, 1, 1, 0, 1], [1, 2, 3, 4, 2.5, 1.5]
    with pytest.raises(TypeError, match="'bw'"):
        rw.smooth_roc(y, s, method="density", bw=True)
    with pytest.raises(TypeError, match="'n'"):
        rw.smooth_roc(y, s, n="512")
    with pytest.raises(ValueError, match="both classes in 'y_true'"):
        rw.smooth_roc([1, 1, 1], [1, 2, 3])
    with pytest.raises(ValueError, match="y_score"):  # perfectly separated: no interior point
        rw.smooth_roc([0, 0, 1, 1], [1, 2, 3, 4])
    with pytest.raises(ValueError, match="flat"):  # every interior point at one specificity
        rw.smooth_roc([0, 0, 1, 1, 1, 1], [1, 3, 0, 2, 2.5, 4])
    with pytest.raises(ValueError, match="at least 2 observations"):
        rw.smooth_roc([0, 1, 1], [1, 2, 3], method="density")
    with pytest.raises(ValueError, match="'bw'"):  # nrd: no spread in the quartiles
        rw.smooth_roc([0, 0, 0, 1, 1, 1, 1, 0], [5, 5, 5, 5, 5, 5, 1, 9], method="density", bw="nrd")
    c = rw.smooth_roc(y, s, method="density")
    with pytest.raises(ValueError, match="not both"):
        c.partial_auc(max_fpr=0.2, min_tpr=0.5)
    with pytest.raises(ValueError, match="min_fpr"):
        c.partial_auc(min_fpr=0.5, max_fpr=0.2)
    with pytest.raises(ValueError, match="'standardize'"):
        c.partial_auc(max_fpr=0.2, standardize="yes")
    with pytest.raises(ValueError, match="'confidence_level'"):
        c.confidence_interval(1.5)
    with pytest.raises(ValueError, match="'n_resamples'"):
        c.confidence_interval(n_resamples=0)


def test_docs_page_examples_run():
    import doctest

    from _support.paths import ROOT

    path = os.path.join(ROOT, "docs", "smoothing.md")
    with open(path, encoding="utf-8") as fh:
        text = fh.read()
    test = doctest.DocTestParser().get_doctest(text, {}, "docs/smoothing.md", path, 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    runner.run(test)
    assert runner.failures == 0, f"{runner.failures} example(s) of docs/smoothing.md print something else"


def test_r_density_any_order_and_points_off_the_grid():
    from rankwise.metrics._smooth import r_density

    rng = np.random.default_rng(0)
    x = np.round(rng.normal(size=40), 1)
    w = np.full(40, 1 / 40)
    h = ref.bw_nrd0(list(x))
    start, stop = x.min() - 3 * h, x.max() + 3 * h
    want = ref.density(list(x), h, 64, start, stop)
    srt = np.argsort(x, kind="stable")
    for order in (srt, rng.permutation(40)):
        got = r_density(x[order], w[order], bw=h, n=64, start=start, stop=stop)
        np.testing.assert_allclose(got, want, rtol=0, atol=1e-12)
    # a range that leaves points outside R's grid: they are dropped or half-binned as in R
    got = r_density(x, w, bw=h, n=64, start=0.0, stop=0.5)
    np.testing.assert_allclose(got, ref.density(list(x), h, 64, 0.0, 0.5), rtol=0, atol=1e-12)


# --- the display (rankwise/display/_smooth.py) --------------------------------------------------

def test_display_holds_the_curve_and_draws_it():
    pytest.importorskip("matplotlib")
    from _support.plotting import new_axes
    from rankwise.display._smooth import SmoothROCDisplay

    y, s = _sample(SETS["asah_s100b"])
    ax = new_axes()
    d = SmoothROCDisplay.from_predictions(y, s, name="s100b", ax=ax)
    c = rw.smooth_roc(y, s)
    np.testing.assert_array_equal(d.fpr, c.fpr)
    np.testing.assert_array_equal(d.line_.get_xydata(), np.c_[c.fpr, c.tpr])
    emp = rw.roc_curve(y, s)
    np.testing.assert_array_equal(d.empirical_line_.get_xydata(), np.c_[emp.fpr, emp.tpr])
    assert d.line_.get_label() == f"s100b (binormal, AUC = {c.auc():.3f})"
    assert d.curve_.auc() == c.auc()
    # overlay: a second scorer on the same axes takes another colour, one chance line
    e = SmoothROCDisplay.from_predictions(y, -s, name="$x$", ax=ax, method="density", plot_empirical=False)
    assert e.line_.get_color() != d.line_.get_color() and e.empirical_line_ is None
    assert e.chance_level_ is d.chance_level_
    assert "density" in e.line_.get_label()
    with pytest.raises(TypeError, match="'sample_weight'"):
        SmoothROCDisplay.from_predictions(y, s, sample_weight=np.ones(len(y)), ax=new_axes())
    with pytest.raises(ValueError, match="'method'"):
        SmoothROCDisplay.from_predictions(y, s, method="spline", ax=new_axes())
    with pytest.raises(TypeError, match="'plot_empirical'"):
        d.plot(new_axes(), plot_empirical="yes")
