"""The report's sections one at a time (issue 28, item 5): each section's ``compute``
returns the library's numbers without drawing anything; the page asks them in order,
respects what each needs, and takes a new section without any other changing; with
``clusters`` every interval is computed with them."""

import inspect
import os
import re
import subprocess
import sys
from dataclasses import FrozenInstanceError

import numpy as np
import pytest

pytest.importorskip("matplotlib")

import rankwise as rw  # noqa: E402
from rankwise import stats  # noqa: E402
from rankwise.report import PAGE, write_report  # noqa: E402
from rankwise.report._data import read_inputs  # noqa: E402
from rankwise.report._details import BAND_GRID  # noqa: E402
from rankwise.report._header import HeaderSection  # noqa: E402
from rankwise.report._page import Page, Section  # noqa: E402

N_RES, SEED = 40, 3


def _section(key):
    return next(s for s in PAGE.sections if s.key == key)


def _sample(n=120, seed=5):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    z = y + rng.normal(0, 1, n)
    scores = {"raw": z, "weak": 0.4 * y + rng.normal(0, 1, n), "prob": 1.0 / (1.0 + np.exp(-0.8 * z))}
    return y, scores


@pytest.fixture(scope="module")
def sample():
    return _sample()


@pytest.fixture(scope="module")
def computed(sample):
    y, scores = sample
    seen = []
    data = read_inputs(title="t", scores=scores, y_true=y, criteria=["auc", "pnorm_push:p=4"], n_resamples=N_RES,
                       random_state=SEED, operating_fpr=(0.1, 0.05), progress=seen.append,
                       learners=[{"name": "raw", "params": {"C": 1.0}}])
    return data, PAGE.compute(data), seen


def test_inputs_are_read_once_into_frozen_data(sample, computed):
    y, scores = sample
    data, _, _ = computed
    with pytest.raises(FrozenInstanceError):
        data.title = "other"
    with pytest.raises(TypeError):
        data.scores["new"] = y
    assert list(data.scores) == list(scores) and data.reference == "raw" and data.rank_by == "auc"
    assert data.fprs == (0.05, 0.1) and data.versus_spec == "auc" and data.clusters is None
    assert (data.n, data.n_pos, data.n_neg) == (len(y), int(y.sum()), int((1 - y).sum()))
    np.testing.assert_array_equal(data.y01, y)
    assert data.labels == {"auc": "AUC", "pnorm_push:p=4": "p-norm push, p = 4"}
    with pytest.raises(ValueError, match="'operating_fpr'"):
        read_inputs(title="t", scores=scores, y_true=y, operating_fpr=(0.5, 1.0))
    with pytest.raises(TypeError, match="'progress'"):
        read_inputs(title="t", scores=scores, y_true=y, progress="loud")


def test_sections_compute_in_page_order(computed):
    data, results, seen = computed
    assert list(results) == ["header", "criteria", "comparisons", "overview", "curves", "bands", "operating",
                             "calibration", "details", "pairs", "learners"]
    assert seen == ["criteria of 3 scorer(s)", "comparisons"] + [
        f"ROC bands {k}/3 ({N_RES} resamples): {n}" for k, n in enumerate(data.scores, 1)] + [
        f"operating points {k}/3: {n}" for k, n in enumerate(data.scores, 1)] + ["calibration 1/1: prob"]
    alone = read_inputs(title="t", scores={"raw": data.scores["raw"]}, y_true=data.y01, n_resamples=10)
    assert list(PAGE.compute(alone)) == ["header", "criteria", "comparisons", "overview", "curves", "bands",
                                         "operating", "details"]


def test_criteria_are_the_estimates(sample, computed):
    y, scores = sample
    _, results, _ = computed
    crit = results["criteria"]
    for name, s in scores.items():
        for spec in ("auc", "pnorm_push:p=4"):
            est = stats.estimate(y, s, spec)
            ci = est.confidence_interval(0.95)
            r = crit.rows[name][spec]
            assert (r.value, r.std_error, r.low, r.high) == (est.value, est.std_error, ci.low, ci.high)
            assert r.method == ("delong" if spec == "auc" else "hajek")
        assert crit.aucs[name].value == rw.auc(y, s)
    assert list(crit.order) == sorted(scores, key=lambda n: -rw.auc(y, scores[n]))


def test_comparisons_are_the_library_comparisons(sample, computed):
    y, scores = sample
    _, results, _ = computed
    every, versus = results["comparisons"].every, results["comparisons"].versus
    c = stats.compare(y, scores, "auc")
    assert every.names == c.names and every.pairs == c.pairs and every.global_p_value == c.global_p_value
    v = stats.compare(y, scores, "auc", reference="raw", adjust="holm")
    assert versus.pairs == v.pairs and versus.reference == "raw" and versus.spec == "auc"
    assert results["pairs"] is every and results["overview"].versus is versus
    one = read_inputs(title="t", scores={"raw": scores["raw"]}, y_true=y)
    assert _section("comparisons").compute(one, {}).every is None
    assert not _section("pairs").applies(one)


def test_curves_numbers(sample, computed):
    y, scores = sample
    _, results, _ = computed
    cur = results["curves"]
    assert dict(cur.average_precisions) == {n: rw.average_precision(y, s) for n, s in scores.items()}
    assert cur.positive_share == y.mean() and cur.order == results["criteria"].order


def test_bands_are_roc_band(sample, computed):
    y, scores = sample
    _, results, _ = computed
    for name, s in scores.items():
        b = stats.roc_band(y, s, fpr=BAND_GRID, n_resamples=N_RES, random_state=SEED)
        got = results["bands"][name]
        for attr in ("tpr", "pointwise_low", "pointwise_high", "simultaneous_low", "simultaneous_high"):
            np.testing.assert_array_equal(getattr(got, attr), getattr(b, attr))
        assert got.sup_quantile == b.sup_quantile


def test_operating_points_are_the_library_ones(sample, computed):
    y, scores = sample
    _, results, _ = computed
    for name, s in scores.items():
        o = results["operating"].by_scorer[name]
        est = stats.operating_points(y, s, fpr=[0.05, 0.1])
        ci = est.confidence_interval(0.95, n_resamples=N_RES, random_state=SEED)
        cuts = rw.cut_at_fpr(y, s, [0.05, 0.1])
        for i, r in enumerate(o.at_fpr):
            assert (r.fpr, r.tpr, r.precision) == ((0.05, 0.1)[i], est.tpr[i], est.precision[i])
            assert (r.tpr_low, r.tpr_high) == (ci.tpr_low[i], ci.tpr_high[i])
            assert (r.precision_low, r.precision_high) == (ci.precision_low[i], ci.precision_high[i])
            assert r.cut == cuts[i]
        yd = rw.optimal_threshold(y, s)
        assert (o.youden.threshold, o.youden.tpr, o.youden.youden_index) == (yd.threshold, yd.tpr, yd.youden_index)


def test_calibration_only_of_probabilities(sample, computed):
    y, scores = sample
    data, results, _ = computed
    cal = results["calibration"].by_scorer
    assert list(cal) == ["prob"]
    c = stats.calibration(y, scores["prob"], n_bins=10)
    e = c.calibration_error.confidence_interval(0.95, n_resamples=N_RES, random_state=SEED)
    assert cal["prob"].brier.value == c.brier_score.value == pytest.approx(rw.brier_score(y, scores["prob"]))
    assert (cal["prob"].ece.value, cal["prob"].ece.low, cal["prob"].ece.high) == (c.calibration_error.value, e.low,
                                                                                  e.high)
    assert cal["prob"].reliability == c.decomposition.reliability
    raw = read_inputs(title="t", scores={"raw": scores["raw"]}, y_true=y)
    section = _section("calibration")
    assert not section.applies(raw) and section.absent(raw) == {"calibration": {}}


def test_details_gather_what_each_scorer_shows(computed):
    _, results, _ = computed
    d = results["details"]
    assert d.bands is results["bands"] and d.operating is results["operating"]
    assert d.criteria is results["criteria"] and dict(d.learners) == {"raw": {"name": "raw", "params": {"C": 1.0}}}


def test_computing_draws_nothing():
    code = ("import sys; import numpy as np; from rankwise.report import PAGE; "
            "from rankwise.report._data import read_inputs; rng = np.random.default_rng(0); "
            "y = rng.integers(0, 2, 60); z = y + rng.normal(size=60); "
            "s = {'raw': z, 'prob': 1 / (1 + np.exp(-z))}; "
            "r = PAGE.compute(read_inputs(title='t', scores=s, y_true=y, n_resamples=10)); "
            "assert 'calibration' in r and 'details' in r; "
            "assert 'matplotlib' not in sys.modules, 'matplotlib imported'")
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    subprocess.run([sys.executable, "-c", code], check=True, cwd=root)


class _Needy(Section):
    key, needs = "needy", ("nowhere",)


def test_the_page_checks_what_sections_read():
    with pytest.raises(ValueError, match="reads \\['nowhere'\\]"):
        Page([HeaderSection(), _Needy()])
    with pytest.raises(ValueError, match="own key"):
        Page([HeaderSection(), HeaderSection()])
    # A section whose needs did not apply is skipped.
    Absent = type("Absent", (Section,), {"key": "nowhere", "applies": lambda self, data: False})
    assert "needy" not in Page([Absent(), _Needy()]).compute(None)


class _Extra(Section):
    key, needs = "extra", ("criteria",)
    anchor, toc = "extra", "Extra"

    def compute(self, data, prior):
        return prior["criteria"].order[0]

    def render(self, data, result, figures):
        return f'<section id="extra"><h2>Extra</h2><p>best: {result}</p></section>'

    def summary(self, data, result):
        return {"extra": result}


def test_a_new_section_changes_no_other(sample, tmp_path, monkeypatch):
    y, scores = sample
    kw = dict(title="t", scores=scores, y_true=y, n_resamples=20)
    plain = write_report(tmp_path / "a.html", **kw)
    monkeypatch.setattr("rankwise.report.PAGE", Page([*PAGE.sections, _Extra()]))
    more = write_report(tmp_path / "b.html", **kw)
    assert more["extra"] == plain["ranking"][0] and "extra" not in plain
    a, b = ((tmp_path / f).read_text(encoding="utf-8") for f in ("a.html", "b.html"))
    a, b = (re.sub(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC", "T", p).replace("a_files", "b_files") for p in (a, b))
    b = b.replace('<a href="#extra">Extra</a></nav>', "</nav>", 1)
    after = "\n<section id=\"warnings\">" if plain["warnings"] else "\n<footer>"
    extra = f'\n<section id="extra"><h2>Extra</h2><p>best: {plain["ranking"][0]}</p></section>'
    assert b.count(after) == a.count(after) == 1 and b == a.replace(after, extra + after)


# --- clusters ------------------------------------------------------------------------------
def test_clusters_are_read_once(sample, tmp_path):
    y, scores = sample
    ids = np.repeat([f"h{i}" for i in range(30)], 4)
    data = read_inputs(title="t", scores=scores, y_true=y, clusters=ids)
    assert data.n_clusters == 30 and data.clusters.dtype == np.int64
    np.testing.assert_array_equal(data.clusters, np.repeat(np.arange(30), 4))
    assert data.cluster_args["clusters"] is data.clusters and data.command.endswith("clusters=...)")
    with pytest.raises(ValueError, match="'clusters'"):
        read_inputs(title="t", scores=scores, y_true=y, clusters=ids[:-1])
    bad = ids.astype(object)
    bad[7] = None
    with pytest.raises(ValueError, match="'clusters' parameter of write_report has missing ids"):
        write_report(tmp_path / "sub" / "r.html", title="t", scores=scores, y_true=y, clusters=bad)
    assert os.listdir(tmp_path) == []


def test_the_header_states_the_clusters(sample):
    y, scores = sample
    header = HeaderSection()
    data = read_inputs(title="t", scores=scores, y_true=y, clusters=np.arange(len(y)) // 4,
                       data={"name": "d.csv", "clusters": "hospital"})
    h = header.compute(data, {})
    html = header.render(data, h, {})
    assert f"n = {len(y)} rows in 30 clusters (<code>hospital</code>): {int(y.sum())} positives" in html
    assert "SHA-256 of labels, scores and clusters" in html
    plain = read_inputs(title="t", scores=scores, y_true=y)
    assert header.compute(plain, {}).fingerprint != h.fingerprint
    assert header.summary(data, h)["n_clusters"] == 30 and header.summary(plain, h)["n_clusters"] is None


def test_every_interval_is_computed_with_the_clusters(sample, monkeypatch):
    """Each interval function of the library is called with ``clusters=`` the codes (the
    functions are wrapped here: this holds whether or not each has landed its keyword)."""
    y, scores = sample
    data = read_inputs(title="t", scores=scores, y_true=y, n_resamples=10, clusters=np.arange(len(y)) // 3)
    calls = {}
    for fname in ("estimate", "compare", "operating_points", "roc_band", "calibration"):
        original = getattr(stats, fname)
        takes = "clusters" in inspect.signature(original).parameters

        def wrapped(*args, _f=original, _name=fname, _takes=takes, **kw):
            calls.setdefault(_name, []).append(kw.get("clusters"))
            if not _takes:
                kw.pop("clusters", None)
            return _f(*args, **kw)

        monkeypatch.setattr(stats, fname, wrapped)
    monkeypatch.setattr(stats, "iter_estimates", None)  # never the unclustered path
    PAGE.compute(data)
    assert sorted(calls) == ["calibration", "compare", "estimate", "operating_points", "roc_band"]
    assert len(calls["estimate"]) == 3 and len(calls["roc_band"]) == 3  # one criterion (the AUC), 3 scorers
    for got in calls.values():
        assert all(c is data.clusters for c in got)


_LANDED = all("clusters" in inspect.signature(getattr(stats, f)).parameters
              for f in ("estimate", "compare", "operating_points", "roc_band", "calibration"))


@pytest.mark.skipif(not _LANDED, reason="rankwise.stats' clusters= keyword has not landed everywhere yet")
def test_clustered_report_numbers(sample, tmp_path):
    y, scores = sample
    ids = np.arange(len(y)) // 4
    out = write_report(tmp_path / "c.html", title="t", scores=scores, y_true=y, n_resamples=30, clusters=ids)
    assert out["n_clusters"] == 30
    page = (tmp_path / "c.html").read_text(encoding="utf-8")
    assert f"n = {len(y)} rows in 30 clusters:" in page and "Obuchowski 1997" in page
    for name, s in scores.items():
        est = stats.estimate(y, s, "auc", clusters=ids)
        ci = est.confidence_interval(0.95)
        got = out["criteria"][name]["auc"]
        assert (got["value"], got["std_error"], got["low"], got["high"]) == (est.value, est.std_error, ci.low, ci.high)
    c = stats.compare(y, scores, "auc", clusters=ids)
    assert [p["p_adjusted"] for p in out["comparison"]["pairs"]] == [p.p_adjusted for p in c.pairs]
    # Every row its own cluster: the analytic numbers of the unclustered report.


@pytest.mark.skipif(not all("clusters" in inspect.signature(getattr(stats, f)).parameters
                            for f in ("estimate", "compare")), reason="estimate/compare have no clusters= yet")
def test_clustered_criteria_and_comparisons(sample):
    y, scores = sample
    ids = np.arange(len(y)) // 4
    specs = ["auc", "pnorm_push:p=4"]
    data = read_inputs(title="t", scores=scores, y_true=y, criteria=specs, clusters=ids)
    crit = _section("criteria").compute(data, {})
    comp = _section("comparisons").compute(data, {})
    for name, s in scores.items():
        for spec in specs:
            est = stats.estimate(y, s, spec, clusters=ids)
            ci = est.confidence_interval(0.95)
            r = crit.rows[name][spec]
            assert (r.value, r.std_error, r.low, r.high) == (est.value, est.std_error, ci.low, ci.high)
    c = stats.compare(y, scores, "auc", clusters=ids)
    assert comp.every.pairs == c.pairs and comp.every.global_p_value == c.global_p_value
    # Every row its own cluster: the unclustered numbers (the clustered path sums in
    # another order: within a few ulps).
    alone = read_inputs(title="t", scores=scores, y_true=y, criteria=specs, clusters=np.arange(len(y)))
    plain = read_inputs(title="t", scores=scores, y_true=y, criteria=specs)
    a, b = _section("criteria").compute(alone, {}), _section("criteria").compute(plain, {})
    assert a.order == b.order
    for name in scores:
        for spec in specs:
            ra, rb = a.rows[name][spec], b.rows[name][spec]
            assert ra.value == rb.value and ra.method == rb.method
            np.testing.assert_allclose([ra.std_error, ra.low, ra.high], [rb.std_error, rb.low, rb.high], rtol=1e-12)
    ca, cb = (_section("comparisons").compute(d, {}).every for d in (alone, plain))
    np.testing.assert_allclose([p.p_adjusted for p in ca.pairs], [p.p_adjusted for p in cb.pairs], rtol=1e-12)
