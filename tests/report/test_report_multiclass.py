"""The report on several classes and on ordered classes (issue 31, item 4):
``write_report(..., classes=)`` gives the header and the multiclass section, whose numbers are
rw.stats.estimate's and compare's on the same rows (the AUC asked for, the one-vs-rest macro
AUC, Hand & Till's M, every class's and pair's AUC with its interval), the per-class ROC
curves and the pairwise heat map; ``write_report(..., order=)`` the VUS with the consecutive
classes' AUCs. The sections serve their kinds only, so a page on binary labels is byte for
byte what it was without them; bad input raises before anything is written."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import numpy as np
import pytest

pytest.importorskip("matplotlib")

import rankwise as rw  # noqa: E402
from rankwise.report import PAGE, output_paths, write_report  # noqa: E402
from rankwise.report._criteria import ComparisonNumbers  # noqa: E402
from rankwise.report._data import read_inputs  # noqa: E402
from rankwise.report._multiclass import read_multiclass  # noqa: E402
from rankwise.report._page import Page  # noqa: E402

CLASSES = ["setosa", "versicolor", "virginica"]


def _probabilities(rng, y, strength, K=3):
    X = rng.normal(size=(y.shape[0], K))
    X[np.arange(y.shape[0]), y] += strength
    P = np.exp(X)
    return P / P.sum(axis=1, keepdims=True)


@pytest.fixture(scope="module")
def sample():
    rng = np.random.default_rng(31)
    n = 180
    codes = rng.integers(0, 3, n)
    y = np.array(CLASSES, dtype=object)[codes]
    scores = {"sharp": _probabilities(rng, codes, 1.5), "vague": _probabilities(rng, codes, 0.4),
              "noise": _probabilities(rng, codes, 0.0)}
    ordinal = {"sharp": np.round(codes + rng.normal(0, 0.8, n), 1), "vague": np.round(codes + rng.normal(0, 2, n))}
    return y, codes, scores, ordinal


def _row(est, level=0.95, **kw):
    ci = est.confidence_interval(level, **kw)
    return {"value": est.value, "std_error": est.std_error, "low": ci.low, "high": ci.high, "method": ci.method}


@pytest.mark.parametrize("multi_class, average", [("ovr", "macro"), ("ovo", "macro"), ("ovr", "weighted"),
                                                  ("ovr", "micro")])
def test_the_numbers_are_the_librarys(sample, tmp_path, multi_class, average):
    y, codes, scores, _ = sample
    out = write_report(tmp_path / "r.html", title="t", scores=scores, y_true=y, classes=CLASSES,
                       multi_class=multi_class, average=average)
    m = out["multiclass"]
    assert (m["multi_class"], m["average"], m["classes"]) == (multi_class, average, CLASSES)
    assert out["n"] == 180 and out["class_sizes"] == np.bincount(codes, minlength=3).tolist()
    assert m["pairs"] == ["setosa vs versicolor", "setosa vs virginica", "versicolor vs virginica"]
    for name, S in scores.items():
        got = m["estimates"][name]
        head = rw.stats.estimate(y, S, criterion="multiclass_auc", multi_class=multi_class, average=average,
                                 labels=CLASSES)
        assert got["value"] == _row(head) and got["std_error_prevalence"] == head.std_error_prevalence
        ovr = rw.stats.estimate(y, S, criterion="multiclass_auc", labels=CLASSES)
        ovo = rw.stats.estimate(y, S, criterion="multiclass_auc", multi_class="ovo", labels=CLASSES)
        assert got["ovr_macro"] == _row(ovr) and got["m"] == _row(ovo)
        for comps, est in ((got["per_class"], ovr), (got["per_pair"], ovo)):
            assert list(comps) == list(est.components)
            for r, v, se, (lo, hi) in zip(comps.values(), est.component_values, est.component_std_errors,
                                          est.component_intervals(0.95)):
                assert (r["value"], r["std_error"], r["low"], r["high"]) == (v, se, lo, hi)
    values = {n: m["estimates"][n]["value"]["value"] for n in scores}
    assert m["order"] == sorted(values, key=lambda n: -values[n])
    ref = rw.stats.compare(y, scores, criterion="multiclass_auc", multi_class=multi_class, average=average,
                           labels=CLASSES, adjust="holm")
    assert m["comparison"] == ComparisonNumbers.of(ref).as_dict()
    assert out["paths"]["class_roc"].endswith("class_roc.png") and out["paths"]["pair_auc"].endswith("pair_auc.png")


def test_clusters_and_the_bootstrap(sample, tmp_path):
    y, codes, scores, _ = sample
    clusters = np.arange(180) // 4
    two = {k: scores[k] for k in ("sharp", "vague")}
    out = write_report(tmp_path / "r.html", title="t", scores=two, y_true=y, classes=CLASSES, clusters=clusters,
                       ci_method="bootstrap", n_resamples=100, random_state=3, reference="vague")
    assert out["n_clusters"] == 45 and out["ci_method"] == "bootstrap"
    est = rw.stats.estimate(y, two["sharp"], criterion="multiclass_auc", labels=CLASSES, clusters=clusters)
    got = out["multiclass"]["estimates"]["sharp"]
    assert got["value"] == _row(est, method="bootstrap", n_resamples=100, random_state=3)
    assert got["m"]["std_error"] == rw.stats.estimate(y, two["sharp"], criterion="multiclass_auc",
                                                      multi_class="ovo", labels=CLASSES,
                                                      clusters=clusters).std_error
    ref = rw.stats.compare(y, two, criterion="multiclass_auc", labels=CLASSES, clusters=clusters,
                           reference="vague")
    assert out["multiclass"]["comparison"] == ComparisonNumbers.of(ref).as_dict()
    page = (tmp_path / "r.html").read_text(encoding="utf-8")
    assert "n = 180 rows in 45 clusters" in page and "100 resamples within each class" in page


def test_ordered_classes(sample, tmp_path):
    y, codes, _, ordinal = sample
    out = write_report(tmp_path / "o.html", title="t", scores=ordinal, y_true=y, order=CLASSES)
    o = out["ordinal"]
    assert o["criterion"] == "VUS" and o["order"] == CLASSES
    for name, s in ordinal.items():
        est = rw.stats.estimate(y, s, criterion="vus", labels=CLASSES)
        assert o["estimates"][name]["value"] == _row(est)
        for k, (pair, r) in enumerate(o["estimates"][name]["consecutive"].items()):
            assert pair == f"{CLASSES[k + 1]} over {CLASSES[k]}"
            sel = (codes == k) | (codes == k + 1)
            b = rw.stats.estimate(codes[sel] == k + 1, s[sel], "auc")
            assert r == _row(b)
    ref = rw.stats.compare(y, ordinal, criterion="vus", labels=CLASSES, adjust="holm")
    assert o["comparison"] == ComparisonNumbers.of(ref).as_dict()
    page = (tmp_path / "o.html").read_text(encoding="utf-8")
    assert "Ordered classes: VUS (setosa &lt; versicolor &lt; virginica)" in page
    assert "versicolor over setosa" in page and "1/3! = 0.1667" in page
    assert "Higher score = a higher class" in page and "Figures also saved" not in page
    assert out["paths"] == {"html": str(tmp_path / "o.html"), "files_dir": str(tmp_path / "o_files")}
    assert not (tmp_path / "o_files").exists()
    four = write_report(tmp_path / "h.html", title="t", scores={"s": codes + np.arange(180) % 2 * 0.5},
                        y_true=codes * 2 + np.arange(180) % 2, order=[0, 1, 2, 3, 4, 5])
    assert four["ordinal"]["criterion"] == "HUM" and len(four["ordinal"]["estimates"]["s"]["consecutive"]) == 5


def test_page_layout(sample, tmp_path):
    y, codes, scores, _ = sample
    write_report(tmp_path / "r.html", title="t", scores=scores, y_true=y, classes=CLASSES, multi_class="ovo")
    page = (tmp_path / "r.html").read_text(encoding="utf-8")
    body = page.split('<section id="multiclass">')[1]
    assert body.index('<table class="multiclass">') < body.index("<img ")
    assert body.index("Each class against the rest") < body.index("Each pair of classes") < body.index(
        "Differences: M (Hand &amp; Till")
    assert page.count("<img ") == 2 and "Several classes: M (Hand &amp; Till" in page
    assert '<a href="#multiclass">Several classes</a>' in page
    assert "Each score column is the probability of its class" in page
    for f in ("class_roc.png", "pair_auc.png"):
        assert (tmp_path / "r_files" / f).read_bytes()[:4] == b"\x89PNG"


def test_class_names_are_text_and_many_classes_draw(tmp_path):
    rng = np.random.default_rng(5)
    K = 8
    codes = rng.integers(0, K, 400)
    names = ["$x$", "_a", "b<c", *(f"c{k}" for k in range(3, K))]
    y = np.array(names, dtype=object)[codes]
    out = write_report(tmp_path / "r.html", title="t", scores={"$m$": _probabilities(rng, codes, 1.0, K)},
                       y_true=y, classes=names, multi_class="ovo")
    page = (tmp_path / "r.html").read_text(encoding="utf-8")
    assert "b&lt;c vs c3" in page and "<c" not in page.replace("<code", "").replace("<caption", "")
    assert len(out["multiclass"]["pairs"]) == K * (K - 1) // 2 and out["warnings"] == []


def test_an_absent_class_is_nan_not_an_error(sample, tmp_path):
    y, codes, scores, _ = sample
    keep = codes != 2
    S = {"sharp": scores["sharp"][keep]}
    out = write_report(tmp_path / "r.html", title="t", scores=S, y_true=y[keep], classes=CLASSES,
                       multi_class="ovo")
    est = out["multiclass"]["estimates"]["sharp"]
    assert np.isnan(est["per_class"]["virginica"]["value"]) and np.isnan(est["per_pair"]["setosa vs virginica"]
                                                                            ["value"])
    assert np.isfinite(est["value"]["value"]) and est["value"]["value"] == rw.multiclass_auc(
        y[keep], S["sharp"], multi_class="ovo", labels=CLASSES)


@pytest.mark.parametrize("kw, error, match", [
    ({"criteria": ["auc"]}, ValueError, "'criteria' is not used with several classes"),
    ({"time": np.ones(180)}, ValueError, "'time' is not used with several classes"),
    ({"order": CLASSES}, ValueError, "'classes' is for several unordered classes"),
    ({"multi_class": "ova"}, ValueError, "'multi_class' must be 'ovr' or 'ovo'"),
    ({"multi_class": "ovo", "average": "micro"}, ValueError, "'micro' is defined for multi_class='ovr' only"),
    ({"classes": ["setosa", "versicolor"]}, ValueError, "'classes' must contain every class of y_true"),
    ({"scores": {"short": np.full((10, 3), 1 / 3)}}, ValueError, "scores\\['short'\\].*shape"),
    ({"scores": {"raw": np.ones((180, 3))}}, ValueError, "scores\\['raw'\\].*summing to 1"),
    ({"ci_method": "hajek"}, ValueError, "'ci_method' must be None, 'delong' or 'bootstrap'"),
    ({"reference": "other"}, ValueError, "'reference' must be one of the scorer names"),
    ({"y_true": None}, TypeError, "'y_true' is required"),
])
def test_bad_input_is_refused_and_nothing_is_written(sample, tmp_path, kw, error, match):
    y, codes, scores, _ = sample
    args = {**dict(title="t", scores={"sharp": scores["sharp"]}, y_true=y, classes=CLASSES), **kw}
    with pytest.raises(error, match=match):
        write_report(tmp_path / "sub" / "r.html", **args)
    assert not (tmp_path / "sub").exists() or os.listdir(tmp_path / "sub") == []


def test_sections_serve_their_kind(sample):
    y, codes, scores, ordinal = sample
    several = read_multiclass(kind="multiclass", title="t", scores=scores, y_true=y, classes=CLASSES)
    assert list(PAGE.compute(several)) == ["multiclass_header", "multiclass"]
    ordered = read_multiclass(kind="ordinal", title="t", scores=ordinal, y_true=y, order=CLASSES)
    assert list(PAGE.compute(ordered)) == ["multiclass_header", "ordinal"]
    rng = np.random.default_rng(0)
    b = rng.integers(0, 2, 60)
    binary = read_inputs(title="t", scores={"s": b + rng.normal(size=60)}, y_true=b, n_resamples=10)
    assert not {"multiclass_header", "multiclass", "ordinal"} & set(PAGE.compute(binary))
    assert output_paths("x/r.html", kind="multiclass") == ["x/r.html", os.path.join("x", "r_files", "class_roc.png"),
                                                          os.path.join("x", "r_files", "pair_auc.png")]
    assert output_paths("r.html", kind="ordinal") == ["r.html"]


def _without_time(path) -> str:
    return re.sub(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC", "T", path.read_text(encoding="utf-8"))


def test_a_binary_page_is_unchanged_by_the_sections(tmp_path, monkeypatch):
    rng = np.random.default_rng(4)
    y = rng.integers(0, 2, 120)
    scores = {"raw": y + rng.normal(size=120), "prob": 1 / (1 + np.exp(-(y + rng.normal(size=120))))}
    kw = dict(title="t", scores=scores, y_true=y, criteria=["auc", "average_precision"], n_resamples=10)
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    now = write_report(tmp_path / "a" / "r.html", **kw)
    mine = {"multiclass_header", "multiclass", "ordinal"}
    monkeypatch.setattr("rankwise.report.PAGE", Page([s for s in PAGE.sections if s.key not in mine]))
    before = write_report(tmp_path / "b" / "r.html", **kw)
    assert _without_time(tmp_path / "a" / "r.html") == _without_time(tmp_path / "b" / "r.html")
    assert sorted(os.listdir(tmp_path / "a" / "r_files")) == sorted(os.listdir(tmp_path / "b" / "r_files"))
    for f in os.listdir(tmp_path / "a" / "r_files"):
        assert (tmp_path / "a" / "r_files" / f).read_bytes() == (tmp_path / "b" / "r_files" / f).read_bytes()
    for out in (now, before):
        del out["metadata"]["generated"], out["paths"]
    assert repr(now) == repr(before) and "multiclass" not in now


def test_computing_the_sections_draws_nothing():
    code = ("import sys; import numpy as np; from rankwise.report._multiclass import MulticlassSection, "
            "OrdinalSection, read_multiclass; rng = np.random.default_rng(0); y = rng.integers(0, 3, 90); "
            "P = rng.dirichlet(np.ones(3), 90); "
            "d = read_multiclass(kind='multiclass', title='t', scores={'a': P}, y_true=y, classes=[0, 1, 2]); "
            "r = MulticlassSection().compute(d, {}); assert len(r.pairs) == 3; "
            "o = read_multiclass(kind='ordinal', title='t', scores={'a': P[:, 2]}, y_true=y, order=[0, 1, 2]); "
            "OrdinalSection().compute(o, {}); "
            "assert 'matplotlib' not in sys.modules, 'matplotlib imported'")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr


@pytest.mark.xdist_group("browser")
def test_the_page_in_a_browser(sample, tmp_path):
    """At a 1,400-pixel window: no horizontal scrolling, both figures load, no console
    error, and the models' table reads back the library's numbers."""
    from browser_check import find_chromium, inspect_page

    if find_chromium() is None:
        pytest.skip("chromium is not installed (Debian: apt-get install -y chromium)")
    y, codes, scores, _ = sample
    write_report(tmp_path / "r.html", title="t", scores=scores, y_true=y, classes=CLASSES, multi_class="ovo")
    seen = inspect_page(str(tmp_path / "r.html"), width=1400)
    assert seen["errors"] == []
    for state in ("closed", "opened"):
        assert seen[state]["scrollWidth"] <= seen[state]["innerWidth"], seen[state]
    assert len(seen["images"]) == 2 and all(i["complete"] and i["naturalWidth"] > 0 for i in seen["images"])
    (models,) = [t for t in seen["tables"] if t["cls"] == "multiclass"]
    for row, cells in zip(models["rows"][1:], models["data"][1:]):
        est = rw.stats.estimate(y, scores[row[1]], criterion="multiclass_auc", multi_class="ovo", labels=CLASSES)
        assert float(cells[2]["value"]) == est.value and float(cells[2]["se"]) == est.std_error
