"""rankwise.report.write_report: the numbers, the page, the files, the guards."""

import base64
import os
import subprocess
import sys

import numpy as np
import pytest

pytest.importorskip("matplotlib")

import rankwise  # noqa: E402
from rankwise import criteria as rw_criteria  # noqa: E402
from rankwise import stats  # noqa: E402
from rankwise.io import array_fingerprint  # noqa: E402
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
            assert f'{fmt(r["value"])}<span class="ci">[{fmt(r["low"])}, {fmt(r["high"])}]</span>' in page
            assert f'data-value="{r["value"]!r}" data-low="{r["low"]!r}" data-high="{r["high"]!r}"' in page
    # Readable headers from the registry, never the raw spec in a header.
    assert "<th>local AUC, top 10%</th>" in page and "<th>DCG@20</th>" in page
    assert "partial AUC, FPR \u2264 0.1" in page
    assert "<th>local_auc:top=0.1</th>" not in page
    assert out["labels"] == {spec: rw_criteria.get(spec).describe() for spec in CRITERIA}
    for p in out["comparison"]["pairs"]:
        assert f'<td class="name">{p["a"]} - {p["b"]}</td>' in page
        assert f"[{fmt(p['low'])}, {fmt(p['high'])}]" in page
    assert "data: valid.csv" in page
    assert f"n = {out['n']}: {out['n_pos']} positives, {out['n_neg']} negatives" in page
    assert "<h2>Learners</h2>" in page and '<td class="name">rankboost</td>' in page and "n_rounds=50, lr=0.1" in page
    assert "<th>extra</th>" in page
    assert "<script" not in page.lower()  # no JavaScript at all


def test_overview_comes_first_ranked_with_the_reference(data, written):
    y, scores = data
    _, out, page = written
    overview, curves, details = (page.index(f'<section id="{k}">') for k in ("overview", "curves", "details"))
    assert overview < curves < details
    assert out["rank_by"] == "auc" and out["reference"] == "strong"  # the first scorer by default
    aucs = {name: rankwise.auc(y, s) for name, s in scores.items()}
    assert out["ranking"] == sorted(scores, key=lambda n: -aucs[n]) == ["strong", "weak", "noise"]
    c = stats.compare(y, scores, "auc", reference="strong", adjust="holm")
    v = out["versus_reference"]
    assert v["reference"] == "strong" and v["spec"] == "auc" and v["adjust"] == "holm"
    assert [(p["a"], p["b"]) for p in v["pairs"]] == [("weak", "strong"), ("noise", "strong")]
    for got, p in zip(v["pairs"], c.pairs):
        assert got == p._asdict()
    assert "Holm-adjusted over the 2 comparisons with strong" in page
    # The scorers' details in ranked order, collapsed.
    at = [page.index(f'<details class="scorer" id="scorer-{k}"><summary><b>{k}. {name}</b>')
          for k, name in enumerate(out["ranking"], 1)]
    assert at == sorted(at) and at[0] > details


def test_ranked_by_a_loss_lowest_first_and_differences_on_it(data, tmp_path):
    y, scores = data
    out = write_report(tmp_path / "r.html", title="t", scores=scores, y_true=y, criteria=["auc", "pnorm_push:p=4"],
                       rank_by="pnorm_push:p=4", reference="noise", n_resamples=20)
    values = {name: rankwise.pnorm_push(y, s, p=4) for name, s in scores.items()}
    assert out["ranking"] == sorted(scores, key=lambda n: values[n])
    c = stats.compare(y, scores, "pnorm_push:p=4", reference="noise", adjust="holm")
    assert [p["p_adjusted"] for p in out["versus_reference"]["pairs"]] == [p.p_adjusted for p in c.pairs]
    page = (tmp_path / "r.html").read_text(encoding="utf-8")
    assert "p-norm push, p = 4<small>ranked by, lower is better</small>" in page
    assert "&Delta; p-norm push, p = 4<small>vs noise</small>" in page


def test_differences_fall_back_to_the_auc_without_an_analytic_variance(data, tmp_path):
    y, scores = data
    out = write_report(tmp_path / "r.html", title="t", scores=scores, y_true=y, criteria=["ks_statistic"],
                       n_resamples=20)
    assert out["rank_by"] == "ks_statistic" and out["versus_reference"]["spec"] == "auc"
    assert "&Delta; AUC<small>vs strong</small>" in (tmp_path / "r.html").read_text(encoding="utf-8")


def test_header_names_version_time_data_and_call(data, written, tmp_path):
    import datetime as dt

    y, scores = data
    _, out, page = written
    meta = out["metadata"]
    assert meta["version"] == rankwise.__version__ and f"<dd>{rankwise.__version__}</dd>" in page
    when = dt.datetime.strptime(meta["generated"], "%Y-%m-%d %H:%M:%S UTC").replace(tzinfo=dt.timezone.utc)
    assert abs((dt.datetime.now(dt.timezone.utc) - when).total_seconds()) < 3600 and meta["generated"] in page
    assert meta["data"] is None and meta["positive_label"] == 1
    assert meta["fingerprint"] == array_fingerprint([("y_true", np.asarray(y) == 1)] + list(scores.items()))
    assert meta["fingerprint"][:16] in page
    assert meta["command"].startswith("rankwise.report.write_report(title='Validation run', scores={'strong': ..., ")
    # A file named by the caller: its name, size and SHA-256 prefix; the command as given.
    digest = "ab" * 32
    out = write_report(tmp_path / "f.html", title="t", scores=scores, y_true=y, n_resamples=20,
                       data={"name": "valid.csv", "size": 2_500_000, "sha256": digest, "label": "default",
                             "positive_label": "yes"}, command="rankwise report valid.csv --label default")
    page = (tmp_path / "f.html").read_text(encoding="utf-8")
    assert "valid.csv &middot; 2.4 MB (2,500,000 bytes) &middot; SHA-256" in page and digest[:16] in page
    assert "<code>default</code> = yes" in page
    assert "<code>rankwise report valid.csv --label default</code>" in page
    assert out["metadata"]["command"] == "rankwise report valid.csv --label default"


def test_string_labels_with_pos_label(data, tmp_path):
    y, scores = data
    text = np.where(y == 1, "bad", "good")
    out = write_report(tmp_path / "s.html", title="t", scores=scores, y_true=text, pos_label="bad", n_resamples=20)
    assert out["n_pos"] == int(y.sum()) and out["metadata"]["positive_label"] == "bad"
    assert out["auc"]["strong"]["value"] == rankwise.auc(y, scores["strong"])
    with pytest.raises(ValueError, match="pos_label"):
        write_report(tmp_path / "t.html", title="t", scores=scores, y_true=text, n_resamples=20)


def test_pngs_written_valid_and_embedded(written):
    path, out, page = written
    assert out["paths"]["html"] == os.fspath(path)
    files_dir = path.parent / "report_files"
    assert out["paths"]["files_dir"] == os.fspath(files_dir)
    for key in ("roc", "pr", "gain", "det", "auc"):
        assert out["paths"][key] == os.fspath(files_dir / f"{key}.png")
        data = open(out["paths"][key], "rb").read()
        assert data[:8] == PNG_MAGIC
        assert f'src="data:image/png;base64,{base64.b64encode(data).decode()}"' in page
    # the four curve figures, the forest and each scorer's ROC with bands (in the page only)
    assert page.count("data:image/png;base64,") == 5 + len(out["criteria"])
    # nothing else left in the folder (no temporary files)
    assert sorted(os.listdir(path.parent)) == ["report.html", "report_files"]
    assert sorted(os.listdir(files_dir)) == ["auc.png", "det.png", "gain.png", "pr.png", "roc.png"]


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
    assert "auc" not in out["paths"] and sorted(os.listdir(tmp_path / "b_files")) == ["det.png", "gain.png", "pr.png",
                                                                                     "roc.png"]
    assert "bootstrap (BCa), 150 resamples for AUC, p-norm push, p = 4" in (tmp_path / "b.html").read_text(encoding="utf-8")


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
    assert f'<td class="name">{escaped}</td>' in page and f"<li>{escaped}</li>" in page
    assert f"<th>{escaped}</th>" in page
    assert '<td class="name">a&amp;b</td>' in page
    assert out["title"] == bad and bad in out["criteria"]


def test_single_scorer_has_no_comparison(data, tmp_path):
    y, scores = data
    out = write_report(tmp_path / "one.html", title="one", scores={"only": scores["strong"]}, y_true=y,
                       criteria=["auc", "dcg:k=20"], n_resamples=50)
    assert out["comparison"] is None and out["versus_reference"] is None
    page = (tmp_path / "one.html").read_text(encoding="utf-8")
    assert "comparisons" not in page and "&Delta;" not in page
    assert "<h2>ROC, precision-recall, gain and DET curves</h2>" in page and "<h2>Learners</h2>" not in page
    assert page.count("data:image/png;base64,") == 6


@pytest.mark.parametrize("case", ["one_class", "wrong_length", "bad_criterion", "empty_scores", "bad_method",
                                  "bad_reference", "bad_rank_by", "bad_data_key", "bad_size", "bad_digest"])
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
    elif case == "bad_method":
        kwargs["ci_method"] = "jackknife"
        match = "method"
    elif case == "bad_reference":
        kwargs["reference"] = "nobody"
        match = "'reference' must be one of the scorer names"
    elif case == "bad_rank_by":
        kwargs["rank_by"] = "dcg:k=20"
        match = "'rank_by' must be one of the criteria"
    elif case == "bad_data_key":
        kwargs["data"] = {"name": "x.csv", "md5": "00"}
        match = "unknown key"
    elif case == "bad_size":
        kwargs["data"] = {"name": "x.csv", "size": -1}
        match = "number of bytes"
    else:
        kwargs["data"] = {"name": "x.csv", "sha256": "xyz"}
        match = "64 hexadecimal digits"
    target = tmp_path / "sub" / "report.html"
    with pytest.raises(ValueError, match=match):
        write_report(target, **kwargs)
    assert not (tmp_path / "sub").exists()
    assert os.listdir(tmp_path) == []


def test_importing_report_does_not_import_matplotlib():
    code = "import sys, rankwise.report; assert 'matplotlib' not in sys.modules, 'matplotlib imported'"
    subprocess.run([sys.executable, "-c", code], check=True)
