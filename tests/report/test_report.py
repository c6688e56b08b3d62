"""rankwise.report.write_report: the numbers, the page, the files, the guards."""

import base64
import os
import subprocess
import sys

import numpy as np
import pytest

pytest.importorskip("matplotlib")

from rankwise import stats  # noqa: E402
from rankwise.report import write_report  # noqa: E402
from rankwise.stats._results import fmt  # noqa: E402

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
CRITERIA = ["auc", "local_auc:top=0.1", "pnorm_push:p=4", "dcg:k=20", "partial_auc:max_fpr=0.1"]


@pytest.fixture(scope="module")
def data():
    rng = np.random.default_rng(7)
    n = 240
    y = rng.integers(0, 2, n)
    scores = {
        "strong": y + rng.normal(0, 1, n),
        "weak": 0.4 * y + rng.normal(0, 1, n),
        "noise": rng.normal(0, 1, n),
    }
    return y, scores


@pytest.fixture(scope="module")
def written(data, tmp_path_factory):
    y, scores = data
    path = tmp_path_factory.mktemp("rep") / "report.html"
    out = write_report(path, title="Validation run", scores=scores, y_true=y, criteria=CRITERIA,
                       notes=["data: valid.csv"], n_resamples=200, random_state=3,
                       learners=[{"name": "rankboost", "params": {"n_rounds": 50, "lr": 0.1}, "fit_seconds": 1.25},
                                 {"name": "logistic", "params": {"C": 1.0}, "fit_seconds": 0.031, "extra": "x"}])
    return path, out, path.read_text(encoding="utf-8")


def test_numbers_match_stats(data, written):
    y, scores = data
    _, out, _ = written
    assert out["n"] == len(y) and out["n_pos"] == int(y.sum()) and out["n_neg"] == int((1 - y).sum())
    for name, s in scores.items():
        for spec in CRITERIA:
            est = stats.estimate(y, s, spec)
            ci = est.confidence_interval(0.95)
            got = out["criteria"][name][spec]
            assert got["value"] == est.value
            assert got["std_error"] == est.std_error
            assert (got["low"], got["high"]) == (ci.low, ci.high)
            assert got["method"] == ("delong" if spec == "auc" else "hajek")


def test_comparison_matches_stats(data, written):
    y, scores = data
    _, out, _ = written
    c = stats.compare(y, scores, "auc")
    comp = out["comparison"]
    assert comp["names"] == list(c.names)
    np.testing.assert_array_equal(comp["values"], c.values)
    np.testing.assert_array_equal(comp["std_errors"], c.std_errors)
    assert comp["adjust"] == "holm"
    assert comp["global_p_value"] == c.global_p_value and comp["global_df"] == c.global_df
    assert len(comp["pairs"]) == len(c.pairs) == 3
    for got, p in zip(comp["pairs"], c.pairs):
        assert got == p._asdict()
        i, j = c.names.index(p.a), c.names.index(p.b)
        assert comp["p_adjusted_matrix"][i][j] == comp["p_adjusted_matrix"][j][i] == p.p_adjusted
    assert all(comp["p_adjusted_matrix"][i][i] is None for i in range(3))


def test_html_holds_the_formatted_values(written):
    _, out, page = written
    for name, row in out["criteria"].items():
        for spec, r in row.items():
            assert f"<td>{fmt(r['value'])} [{fmt(r['low'])}, {fmt(r['high'])}]</td>" in page
    assert "<th>local_auc:top=0.1</th>" in page
    for p in out["comparison"]["pairs"]:
        assert f"<td>{p['a']} - {p['b']}</td>" in page
        assert f"[{fmt(p['low'])}, {fmt(p['high'])}]" in page
    assert "data: valid.csv" in page
    assert f"n = {out['n']}: {out['n_pos']} positives, {out['n_neg']} negatives" in page
    assert "<h2>Learners</h2>" in page and "<td>rankboost</td>" in page and "n_rounds=50, lr=0.1" in page
    assert "<th>extra</th>" in page
    assert "<script" not in page.lower()  # no JavaScript at all


def test_pngs_written_valid_and_embedded(written):
    path, out, page = written
    assert out["paths"]["html"] == os.fspath(path)
    files_dir = path.parent / "report_files"
    assert out["paths"]["files_dir"] == os.fspath(files_dir)
    assert out["paths"]["roc"] == os.fspath(files_dir / "roc.png")
    assert out["paths"]["auc"] == os.fspath(files_dir / "auc.png")
    for key in ("roc", "auc"):
        data = open(out["paths"][key], "rb").read()
        assert data[:8] == PNG_MAGIC
        assert f'src="data:image/png;base64,{base64.b64encode(data).decode()}"' in page
    assert page.count("data:image/png;base64,") == 2
    # nothing else left in the folder (no temporary files)
    assert sorted(os.listdir(path.parent)) == ["report.html", "report_files"]
    assert sorted(os.listdir(files_dir)) == ["auc.png", "roc.png"]


def test_bootstrap_intervals_match_stats(data, tmp_path):
    y, scores = data
    scores = {"strong": scores["strong"], "weak": scores["weak"]}
    out = write_report(tmp_path / "b.html", title="b", scores=scores, y_true=y, criteria=["auc", "pnorm_push:p=4"],
                       ci_method="bootstrap", n_resamples=150, random_state=11, auc_plot=False)
    for name, s in scores.items():
        for spec in ("auc", "pnorm_push:p=4"):
            ci = stats.estimate(y, s, spec).confidence_interval(0.95, method="bootstrap", n_resamples=150,
                                                                random_state=11)
            got = out["criteria"][name][spec]
            assert (got["low"], got["high"], got["method"]) == (ci.low, ci.high, "bootstrap")
    assert "auc" not in out["paths"] and sorted(os.listdir(tmp_path / "b_files")) == ["roc.png"]
    assert "bootstrap (BCa, 150 resamples)" in (tmp_path / "b.html").read_text(encoding="utf-8")


def test_confidence_level_is_used(data, tmp_path):
    y, scores = data
    out = write_report(tmp_path / "r.html", title="t", scores={"s": scores["strong"]}, y_true=y, criteria=["auc"],
                       confidence_level=0.8, n_resamples=50)
    ci = stats.estimate(y, scores["strong"], "auc").confidence_interval(0.8)
    assert (out["auc"]["s"]["low"], out["auc"]["s"]["high"]) == (ci.low, ci.high)
    assert "80% confidence interval" in (tmp_path / "r.html").read_text(encoding="utf-8")


def test_overwrite_protection_and_force(data, tmp_path):
    y, scores = data
    path = tmp_path / "report.html"
    path.write_text("keep me")
    with pytest.raises(FileExistsError, match="force=True"):
        write_report(path, title="t", scores=scores, y_true=y, criteria=["auc"], n_resamples=50)
    assert path.read_text() == "keep me"
    assert not (tmp_path / "report_files").exists()
    out = write_report(path, title="t", scores=scores, y_true=y, criteria=["auc"], n_resamples=50, force=True)
    assert path.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    assert open(out["paths"]["roc"], "rb").read(8) == PNG_MAGIC
    # a second forced run replaces everything cleanly
    write_report(path, title="t2", scores=scores, y_true=y, criteria=["auc"], n_resamples=50, force=True)
    assert "<h1>t2</h1>" in path.read_text(encoding="utf-8")
    assert sorted(os.listdir(tmp_path)) == ["report.html", "report_files"]


def test_user_strings_are_escaped(data, tmp_path):
    y, scores = data
    bad = '<script>alert("x")</script>'
    out = write_report(tmp_path / "x.html", title=bad, y_true=y, criteria=["auc"], n_resamples=50,
                       scores={bad: scores["strong"], "a&b": scores["weak"]}, notes=[bad],
                       learners=[{"name": bad, "params": {"k": bad}, bad: 1}])
    page = (tmp_path / "x.html").read_text(encoding="utf-8")
    assert "<script" not in page.lower()
    escaped = "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;"
    assert f"<title>{escaped}</title>" in page and f"<h1>{escaped}</h1>" in page
    assert f"<td>{escaped}</td>" in page and f"<li>{escaped}</li>" in page
    assert f"<th>{escaped}</th>" in page
    assert "<td>a&amp;b</td>" in page
    assert out["title"] == bad and bad in out["criteria"]


def test_single_scorer_has_no_comparison(data, tmp_path):
    y, scores = data
    out = write_report(tmp_path / "one.html", title="one", scores={"only": scores["strong"]}, y_true=y,
                       criteria=["auc", "dcg:k=20"], n_resamples=50)
    assert out["comparison"] is None
    page = (tmp_path / "one.html").read_text(encoding="utf-8")
    assert "Comparison" not in page and "<h2>ROC curves</h2>" in page and "<h2>Learners</h2>" not in page
    assert page.count("data:image/png;base64,") == 2


@pytest.mark.parametrize("case", ["one_class", "wrong_length", "bad_criterion", "empty_scores", "bad_method"])
def test_bad_input_raises_before_writing(data, tmp_path, case):
    y, scores = data
    kwargs = dict(title="t", scores={"s": scores["strong"]}, y_true=y, criteria=["auc"], n_resamples=50)
    if case == "one_class":
        kwargs["y_true"] = np.ones_like(y)
        match = "only one class"
    elif case == "wrong_length":
        kwargs["scores"] = {"s": scores["strong"], "short": scores["weak"][:-3]}
        match = None
    elif case == "bad_criterion":
        kwargs["criteria"] = ["auc", "no_such_thing"]
        match = "criterion"
    elif case == "empty_scores":
        kwargs["scores"] = {}
        match = "scores"
    else:
        kwargs["ci_method"] = "jackknife"
        match = "method"
    target = tmp_path / "sub" / "report.html"
    with pytest.raises(ValueError, match=match):
        write_report(target, **kwargs)
    assert not (tmp_path / "sub").exists()
    assert os.listdir(tmp_path) == []


def test_importing_report_does_not_import_matplotlib():
    code = "import sys, rankwise.report; assert 'matplotlib' not in sys.modules, 'matplotlib imported'"
    subprocess.run([sys.executable, "-c", code], check=True)
