"""The report's section on cross-validation (``write_report(..., folds=)``): the numbers are
``rw.stats.cross_validated``'s on the same rows (pooled over the clusters when given) and,
for the AUC, the literal definitions of ``tests/_support/reference_cvauc.py``; the mean ROC
curve is the folds' literal curves averaged; bad folds are refused before any work; the
section is a unit that computes without drawing; a report without folds is byte for byte
what it is without the section."""

import os
import re
import subprocess
import sys

import numpy as np
import pytest
from scipy import stats as sps

pytest.importorskip("matplotlib")

from rankwise import stats  # noqa: E402
from rankwise.report import PAGE, output_paths, write_report  # noqa: E402
from rankwise.report._crossval import CrossValSection, cv_criteria, with_folds  # noqa: E402
from rankwise.report._data import read_inputs  # noqa: E402
from rankwise.report._page import Page  # noqa: E402
from _support import reference_cvauc as ref  # noqa: E402

SPECS = ["auc", "pnorm_push:p=4", "ks_statistic"]


def _sample(n=120, seed=32):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    folds = np.array(["f1", "f2", "f3", "f4"])[np.arange(n) % 4]
    scores = {"good": np.round(y + rng.normal(0, 1, n), 1), "weak": np.round(0.3 * y + rng.normal(0, 1, n), 1)}
    return y, scores, folds


@pytest.fixture(scope="module")
def sample():
    return _sample()


@pytest.fixture(scope="module")
def unit(sample):
    """The section alone: its inputs read, its numbers computed, no page, nothing drawn."""
    y, scores, folds = sample
    data = with_folds(read_inputs(title="t", scores=scores, y_true=y, criteria=SPECS), folds, "fold")
    return data, CrossValSection().compute(data, {})


def test_the_numbers_are_cross_validated_and_the_literal_definition(sample, unit):
    y, scores, folds = sample
    data, res = unit
    # The AUC first, then the criteria with a projection (the KS statistic has none).
    assert res.specs == ("auc", "pnorm_push:p=4") and res.names == ("f1", "f2", "f3", "f4")
    assert res.column == "fold" and res.order == tuple(scores) and res.pooled is False and res.n_units == 120
    codes = [int(f[1]) - 1 for f in folds]
    for name, s in scores.items():
        for spec in res.specs:
            lib = stats.cross_validated(y, s, folds, criterion=spec)
            got = res.estimates[name][spec]
            assert got.value == lib.value and got.std_error == lib.std_error
            assert got.fold_values.tolist() == lib.fold_values.tolist()
            ic, naive = res.intervals[name][spec]
            assert (ic.low, ic.high) == tuple(lib.confidence_interval())
            assert (naive.low, naive.high) == tuple(lib.confidence_interval(method="naive"))
        value, se, fold_values = ref.cross_validated(y.tolist(), s.tolist(), codes)
        auc = res.estimates[name]["auc"]
        assert auc.value == pytest.approx(value, abs=1e-12) and auc.std_error == pytest.approx(se, abs=1e-12)
        assert auc.fold_values.tolist() == pytest.approx(fold_values, abs=1e-12)


def test_the_mean_roc_is_the_literal_curves_averaged(sample, unit):
    y, scores, folds = sample
    _, res = unit
    roc = res.curves["good"]
    assert roc.fpr.shape == (101,) and roc.fold_tpr.shape == (4, 101)
    grid = [0.0, 0.13, 0.5, 0.77, 1.0]
    for x in grid:
        j = int(round(x * 100))
        each = []
        for k, f in enumerate(res.names):
            sel = folds == f
            each.append(ref.roc_at(y[sel].tolist(), scores["good"][sel].tolist(), roc.fpr[j]))
            assert roc.fold_tpr[k, j] == pytest.approx(each[-1], abs=1e-12)
        mean = np.mean(each)
        half = sps.t.ppf(0.975, 3) * np.std(each, ddof=1) / 2.0
        assert roc.tpr[j] == pytest.approx(mean, abs=1e-12)
        assert (roc.lower[j], roc.upper[j]) == pytest.approx((max(mean - half, 0.0), min(mean + half, 1.0)), abs=1e-12)


@pytest.mark.parametrize("criteria, specs", [
    (["pnorm_push:p=4"], ("auc", "pnorm_push:p=4")),
    (["average_precision", "auc", "ranking_risk", "ks_statistic"], ("auc", "average_precision")),
])
def test_the_auc_first_then_the_criteria_with_a_projection(sample, criteria, specs):
    y, scores, folds = sample
    data = with_folds(read_inputs(title="t", scores=scores, y_true=y, criteria=criteria), folds, None)
    assert cv_criteria(data)[0] == specs


def test_the_section_renders_the_library_numbers(sample, unit):
    data, res = unit
    drawn = {}  # the figures are left out here: the page test draws them
    html = CrossValSection().render(data, res, drawn)
    assert html.startswith('<section id="crossval"><h2>Cross-validation: <code>fold</code></h2>')
    assert html.count('<details class="scorer"') == 2 and html.count(" open>") == 1
    for name in res.order:
        for spec in res.specs:
            r = res.estimates[name][spec]
            ic, naive = res.intervals[name][spec]
            assert f'data-value="{r.value!r}" data-low="{ic.low!r}" data-high="{ic.high!r}"' in html
            assert f'data-value="{r.value!r}" data-low="{naive.low!r}" data-high="{naive.high!r}"' in html
            assert f'data-value="{r.std_error!r}"' in html and f'data-value="{r.naive_std_error!r}"' in html
            for v in r.fold_values:
                assert f'data-value="{float(v)!r}"' in html
    assert "LeDell, Petersen &amp; van der Laan 2015" in html and "no coverage guarantee" in html


def test_the_returned_dict(sample, unit):
    data, res = unit
    out = CrossValSection().summary(data, res)["crossval"]
    assert out["column"] == "fold" and out["folds"] == ["f1", "f2", "f3", "f4"] and out["n_folds"] == 4
    assert out["criteria"] == ["auc", "pnorm_push:p=4"] and list(out["by_scorer"]) == list(res.order)
    good = out["by_scorer"]["good"]["auc"]
    assert good["value"] == res.estimates["good"]["auc"].value and len(good["fold_values"]) == 4
    assert out["mean_roc"]["good"]["tpr"] == res.curves["good"].tpr.tolist()


def test_clusters_give_the_pooled_interval(sample):
    y, scores, folds = sample
    ids = np.arange(len(y)) // 3
    data = with_folds(read_inputs(title="t", scores=scores, y_true=y, clusters=ids), folds, None)
    res = CrossValSection().compute(data, {})
    lib = stats.cross_validated(y, scores["good"], folds, pooled=True, ids=ids)
    assert res.pooled and res.n_units == 40 and res.column is None
    assert res.estimates["good"]["auc"].std_error == lib.std_error
    value, se = ref.cross_validated_pooled(y.tolist(), scores["good"].tolist(), folds.tolist(), ids.tolist())
    assert lib.std_error == pytest.approx(se, abs=1e-12)
    assert "40 clusters as the independent units" in CrossValSection().render(data, res, {})


def test_bad_folds_are_refused_before_any_work(sample, tmp_path):
    y, scores, folds = sample
    target = tmp_path / "sub" / "r.html"
    kw = dict(title="t", scores=scores, y_true=y)
    with pytest.raises(ValueError, match="'folds' parameter of write_report must have one id per row"):
        write_report(target, folds=folds[:-1], **kw)
    bad = folds.astype(object)
    bad[3] = None
    with pytest.raises(ValueError, match="'folds' parameter of write_report has missing ids"):
        write_report(target, folds=bad, **kw)
    with pytest.raises(ValueError, match="'folds' must hold at least 2 folds"):
        write_report(target, folds=np.zeros(len(y)), **kw)
    one_class = folds.copy()
    one_class[(y == 0) & (folds == "f3")] = "f2"
    with pytest.raises(ValueError, match="fold 'f3' of 'folds' has no negatives"):
        write_report(target, folds=one_class, **kw)
    with pytest.raises(ValueError, match="'fold_name'.*no 'folds'"):
        write_report(target, fold_name="fold", **kw)
    with pytest.raises(TypeError, match="'fold_name' must be None or a string"):
        write_report(target, folds=folds, fold_name=3, **kw)
    with pytest.raises(ValueError, match="'folds' is for binary labels"):
        write_report(target, title="t", scores=scores, time=np.arange(len(y)) + 1.0, event=y, folds=folds)
    assert os.listdir(tmp_path) == []


def test_a_report_with_folds(sample, tmp_path):
    y, scores, folds = sample
    out = write_report(tmp_path / "r.html", title="t", scores=scores, y_true=y, folds=folds, fold_name="fold",
                       criteria=["auc"], n_resamples=10)
    page = (tmp_path / "r.html").read_text(encoding="utf-8")
    assert '<a href="#crossval">Cross-validation</a>' in page and page.count('<section id="crossval">') == 1
    assert page.index('<section id="crossval">') < page.index('<section id="details">')
    section = page[page.index('<section id="crossval">'):page.index('<section id="details">')]
    # One figure per scorer, embedded (not a file: the folder is what it is without folds).
    assert section.count('<img src="data:image/png;base64,') == len(scores)
    assert sorted(os.listdir(tmp_path / "r_files")) == ["auc.png", "det.png", "gain.png", "pr.png", "roc.png"]
    assert list(out["crossval"]["by_scorer"]) == out["ranking"]
    assert out["metadata"]["command"].endswith("folds=...)")
    assert out["crossval"]["by_scorer"]["weak"]["auc"]["value"] == stats.cross_validated(y, scores["weak"],
                                                                                        folds).value


def _without_time(path) -> str:
    return re.sub(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC", "T", path.read_text(encoding="utf-8"))


def test_a_report_without_folds_is_unchanged(sample, tmp_path, monkeypatch):
    """The page, its figures and the returned dict are those of a page without the section."""
    y, scores, _ = sample
    kw = dict(title="t", scores=scores, y_true=y, criteria=["auc"], n_resamples=10)
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    now = write_report(tmp_path / "a" / "r.html", **kw)
    monkeypatch.setattr("rankwise.report.PAGE", Page([s for s in PAGE.sections if s.key != "crossval"]))
    before = write_report(tmp_path / "b" / "r.html", **kw)
    assert _without_time(tmp_path / "a" / "r.html") == _without_time(tmp_path / "b" / "r.html")
    for f in os.listdir(tmp_path / "a" / "r_files"):
        assert (tmp_path / "a" / "r_files" / f).read_bytes() == (tmp_path / "b" / "r_files" / f).read_bytes()
    for out in (now, before):
        del out["metadata"]["generated"], out["paths"]
    assert list(now) == list(before) and "crossval" not in now
    assert repr(now) == repr(before)
    assert "crossval" not in " ".join(output_paths("x/r.html"))


def test_computing_the_section_draws_nothing():
    code = ("import sys; import numpy as np; from rankwise.report._crossval import CrossValSection, with_folds; "
            "from rankwise.report._data import read_inputs; rng = np.random.default_rng(0); "
            "y = rng.integers(0, 2, 60); s = {'raw': y + rng.normal(size=60)}; "
            "d = with_folds(read_inputs(title='t', scores=s, y_true=y), np.arange(60) % 3, None); "
            "r = CrossValSection().compute(d, {}); assert len(r.names) == 3; "
            "assert 'matplotlib' not in sys.modules, 'matplotlib imported'")
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    subprocess.run([sys.executable, "-c", code], check=True, cwd=root)
