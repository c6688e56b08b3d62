"""Several classes (``--scores`` with ``--classes``) and ordered classes (``--score`` with
``--order``) on ``rankwise evaluate``, ``compare`` and ``report`` (issue 31, item 4): on a CSV
with text classes, ties and a cluster column, every number equals rw.stats.estimate's /
compare's on the same rows (each class's, pair's and consecutive pair's AUC too); labels
are matched to --classes as written (numbers as numbers); missing values, unknown or absent
classes, rows that do not sum to 1 and misused options are one-line errors."""

from __future__ import annotations

import csv
import io
import json

import numpy as np
import pytest

import rankwise as rw
from _support.cli import json_cli, run_cli
from _support.engines import engine  # noqa: F401  (the fixture)
from rankwise.cli._common import _finite_or_null

CLASSES = ["low", "mid", "high"]


def _probabilities(rng, y, strength, K=3):
    X = rng.normal(size=(y.shape[0], K))
    X[np.arange(y.shape[0]), y] += strength
    P = np.exp(X)
    return np.round(P / P.sum(axis=1, keepdims=True), 3)  # rounded: tied probabilities, rows still sum to 1


@pytest.fixture
def graded(tmp_path, monkeypatch):
    """150 patients in 30 hospitals: a text grade (low < mid < high), two models' class
    probabilities (columns named by class, rounded: ties), two ordinal scores (rounded: ties)."""
    rng = np.random.default_rng(31)
    n = 150
    y = rng.integers(0, 3, n)
    A, B = _probabilities(rng, y, 1.2), _probabilities(rng, y, 0.5)
    A[:, 2] = 1.0 - A[:, 0] - A[:, 1]  # exactly 1 after rounding
    B[:, 2] = 1.0 - B[:, 0] - B[:, 1]
    s1, s2 = np.round(y + rng.normal(0, 1, n), 1), np.round(y + rng.normal(0, 2, n), 0)
    hosp = np.repeat([f"H{k:02d}" for k in range(30)], 5)
    head = "id,grade,hospital,a_low,a_mid,a_high,b_low,b_mid,b_high,s1,s2"
    lines = [head] + [f"P{i:03d},{CLASSES[y[i]]},{hosp[i]}," + ",".join(
        repr(float(v)) for v in (*A[i], *B[i], s1[i], s2[i])) for i in range(n)]
    (tmp_path / "graded.csv").write_text("\n".join(lines) + "\n")
    monkeypatch.chdir(tmp_path)
    return {"y": y, "A": A, "B": B, "s1": s1, "s2": s2, "hospital": hosp, "lines": lines}


BASE = ["graded.csv", "--label", "grade"]
A_COLS = "a_low,a_mid,a_high"
B_COLS = "b_low,b_mid,b_high"
TWO = ["--scores", f"A={A_COLS}", "--scores", f"B={B_COLS}", "--classes", "low,mid,high"]
ORDERED = ["--score", "s1", "--score", "s2", "--order", "low,mid,high"]


def _one_line_error(capsys, argv, command="evaluate", status=1):
    rc, out, err = run_cli(capsys, argv)
    assert rc == status and out == "", (rc, out, err)
    assert err.count("\n") == 1 and err.startswith(f"rankwise {command}: error: ") and "Traceback" not in err
    return err


def _clusters(d, kw):
    return {"clusters": d["hospital"]} if kw.get("cluster") else {}


# --- evaluate: several classes -----------------------------------------------------------------

@pytest.mark.parametrize("multi_class, average, cluster", [
    ("ovr", "macro", False), ("ovo", "macro", False), ("ovr", "weighted", False), ("ovo", "weighted", False),
    ("ovr", "micro", False), ("ovo", "macro", True), ("ovr", "weighted", True),
])
def test_evaluate_gives_the_library_numbers(graded, capsys, multi_class, average, cluster):
    d = graded
    argv = ["evaluate", *BASE, *TWO, "--multi-class", multi_class, "--average", average, "--format", "json"]
    out = json_cli(capsys, argv + (["--cluster", "hospital"] if cluster else []))
    assert (out["criterion"], out["multi_class"], out["average"]) == ("multiclass_auc", multi_class, average)
    assert out["classes"] == CLASSES and out["label_column"] == "grade" and out["n"] == 150
    assert out["class_sizes"] == np.bincount(d["y"], minlength=3).tolist()
    assert out.get("n_clusters") == (30 if cluster else None)
    labels = np.array(CLASSES)[d["y"]]
    kw = {"clusters": d["hospital"]} if cluster else {}
    for row, S in zip(out["rows"], (d["A"], d["B"])):
        est = rw.stats.estimate(labels, S, criterion="multiclass_auc", multi_class=multi_class, average=average,
                                labels=CLASSES, **kw)
        ci = est.confidence_interval(0.95)
        assert (row["value"], row["std_error"], row["low"], row["high"], row["method"]) == (
            est.value, est.std_error, ci.low, ci.high, "delong")
        assert row["value"] == pytest.approx(rw.multiclass_auc(labels, S, multi_class=multi_class, average=average,
                                                               labels=CLASSES), abs=1e-12)
        what = None if average == "micro" else ("class" if multi_class == "ovr" else "pair")
        comps = row["components"]
        assert [c.get(what) for c in comps] == list(est.components)  # the library names them the same way
        cis = est.component_intervals(0.95)
        for c, v, se, (lo, hi) in zip(comps, est.component_values, est.component_std_errors, cis):
            assert (c["value"], c["std_error"], c["low"], c["high"]) == (v, se, lo, hi)
        if average == "weighted":
            assert row["std_error_prevalence"] == est.std_error_prevalence
    if multi_class == "ovo" and average == "macro":  # Hand & Till's M, as scikit-learn computes it
        sklearn = pytest.importorskip("sklearn.metrics")
        assert out["rows"][0]["value"] == pytest.approx(sklearn.roc_auc_score(d["y"], d["A"], multi_class="ovo"),
                                                        abs=1e-12)


def test_bootstrap_interval_is_the_librarys_with_the_seed(graded, capsys):
    d = graded
    out = json_cli(capsys, ["evaluate", *BASE, "--scores", A_COLS, "--classes", "low,mid,high", "--ci", "bootstrap",
                            "--resamples", "200", "--seed", "7", "--format", "json"])
    est = rw.stats.estimate(d["y"], d["A"], criterion="multiclass_auc", labels=[0, 1, 2])
    ci = est.confidence_interval(0.95, "bootstrap", n_resamples=200, random_state=7)
    row = out["rows"][0]
    assert (row["low"], row["high"], row["method"]) == (ci.low, ci.high, "bootstrap")
    assert row["std_error"] == est.std_error  # the analytic standard error stays
    assert row["score"] == A_COLS and row["columns"] == ["a_low", "a_mid", "a_high"]


def test_level_and_ci_none(graded, capsys):
    d = graded
    out = json_cli(capsys, ["evaluate", *BASE, *TWO, "--level", "0.9", "--format", "json"])
    est = rw.stats.estimate(d["y"], d["B"], criterion="multiclass_auc", labels=[0, 1, 2])
    assert (out["rows"][1]["low"], out["rows"][1]["high"]) == tuple(est.confidence_interval(0.9))
    assert out["confidence_level"] == 0.9
    out = json_cli(capsys, ["evaluate", *BASE, *TWO, "--multi-class", "ovo", "--ci", "none", "--format", "json"])
    assert [set(r) for r in out["rows"]] == [{"score", "columns", "criterion", "value"}] * 2
    assert out["rows"][0]["value"] == rw.multiclass_auc(d["y"], d["A"], multi_class="ovo")


def test_text_and_csv_outputs(graded, capsys):
    rc, out, err = run_cli(capsys, ["evaluate", *BASE, *TWO, "--multi-class", "ovo"])
    assert rc == 0
    assert out.startswith("M (Hand & Till, one-vs-one macro AUC) of each model\n")
    assert "each pair of classes" in out and "low vs mid" in out and "mid vs high" in out
    assert "label column 'grade': n = 150 (low: " in out and "K-sample DeLong" in out
    est = rw.stats.estimate(graded["y"], graded["A"], criterion="multiclass_auc", multi_class="ovo")
    assert f"{est.value:.4f}" in out.splitlines()[3]
    rc, out, _ = run_cli(capsys, ["evaluate", *BASE, *TWO, "--format", "csv"])
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [(r["score"], r["criterion"], r["component"]) for r in rows] == [
        ("A", "multiclass_auc", ""), ("A", "ovr auc", "low"), ("A", "ovr auc", "mid"), ("A", "ovr auc", "high"),
        ("B", "multiclass_auc", ""), ("B", "ovr auc", "low"), ("B", "ovr auc", "mid"), ("B", "ovr auc", "high")]
    assert {r["label_column"] for r in rows} == {"grade"} and {r["n"] for r in rows} == {"150"}
    assert float(rows[0]["value"]) == pytest.approx(rw.multiclass_auc(graded["y"], graded["A"]), abs=1e-12)


def test_classes_default_to_the_sorted_labels_and_columns_follow_them(graded, capsys):
    d = graded
    # sorted: high, low, mid; the columns given in that order
    out = json_cli(capsys, ["evaluate", *BASE, "--scores", "a_high,a_low,a_mid", "--format", "json"])
    assert out["classes"] == ["high", "low", "mid"]
    assert out["rows"][0]["value"] == pytest.approx(rw.multiclass_auc(d["y"], d["A"]), abs=1e-12)
    # columns visibly named by class in another order than the sorted labels: refused, not paired wrongly
    err = _one_line_error(capsys, ["evaluate", *BASE, "--scores", A_COLS])
    assert "look named by class" in err and "give --classes low,mid,high" in err


def test_classes_match_the_labels_as_written(tmp_path, capsys, engine):  # noqa: F811
    rng = np.random.default_rng(3)
    y = rng.integers(0, 3, 60)
    P = _probabilities(rng, y, 1.0)
    P[:, 2] = 1.0 - P[:, 0] - P[:, 1]
    codes = np.array(["1", "2", "3"])[y]
    lines = ["y,p1,p2,p3"] + [f"{codes[i]}," + ",".join(repr(float(v)) for v in P[i]) for i in range(60)]
    (tmp_path / "n.csv").write_text("\n".join(lines) + "\n")
    path = str(tmp_path / "n.csv")
    want = rw.multiclass_auc(y, P, multi_class="ovo")
    for classes in ("1,2,3", "1.0,2,3"):  # numbers match the same number
        out = json_cli(capsys, ["evaluate", path, "--label", "y", "--scores", "p1,p2,p3", "--classes", classes,
                                "--multi-class", "ovo", "--format", "json"])
        assert out["rows"][0]["value"] == pytest.approx(want, abs=1e-12) and out["classes"] == classes.split(",")
    out = json_cli(capsys, ["evaluate", path, "--label", "y", "--scores", "p3,p1,p2", "--classes", "3,1,2",
                            "--multi-class", "ovo", "--format", "json"])
    assert out["rows"][0]["value"] == pytest.approx(want, abs=1e-12)  # the classes follow --classes
    err = _one_line_error(capsys, ["evaluate", path, "--label", "y", "--scores", "p1,p2,p3", "--classes", "1,2,4"])
    assert "label(s) 3 not in --classes (1, 2, 4)" in err and "rows" in err


def test_text_labels_that_look_alike_are_not_merged(tmp_path, capsys, engine):  # noqa: F811
    lines = ["y,p,q,r", "a,0.7,0.2,0.1", "A,0.2,0.7,0.1", "b,0.1,0.1,0.8", "a,0.5,0.3,0.2", "A,0.3,0.4,0.3",
             "b,0.2,0.2,0.6"]
    (tmp_path / "t.csv").write_text("\n".join(lines) + "\n")
    out = json_cli(capsys, ["evaluate", str(tmp_path / "t.csv"), "--label", "y", "--scores", "p,q,r", "--classes",
                            "a,A,b", "--format", "json"])
    y = ["a", "A", "b", "a", "A", "b"]
    S = np.array([[float(v) for v in line.split(",")[1:]] for line in lines[1:]])
    assert out["rows"][0]["value"] == pytest.approx(rw.multiclass_auc(y, S, labels=["a", "A", "b"]), abs=1e-12)
    err = _one_line_error(capsys, ["evaluate", str(tmp_path / "t.csv"), "--label", "y", "--scores", "p,q,r",
                                   "--classes", "a,B,b"])
    assert "'A' not in --classes" in err


# --- evaluate: ordered classes -----------------------------------------------------------------

@pytest.mark.parametrize("cluster", [False, True])
def test_vus_and_consecutive_aucs_are_the_librarys(graded, capsys, cluster):
    d = graded
    out = json_cli(capsys, ["evaluate", *BASE, *ORDERED, "--format", "json"]
                   + (["--cluster", "hospital"] if cluster else []))
    assert (out["criterion"], out["criterion_name"], out["order"]) == ("vus", "VUS", CLASSES)
    labels = np.array(CLASSES)[d["y"]]
    kw = {"clusters": d["hospital"]} if cluster else {}
    for row, s in zip(out["rows"], (d["s1"], d["s2"])):
        est = rw.stats.estimate(labels, s, criterion="vus", labels=CLASSES, **kw)
        ci = est.confidence_interval(0.95)
        assert (row["value"], row["std_error"], row["low"], row["high"]) == (est.value, est.std_error, ci.low, ci.high)
        assert row["value"] == pytest.approx(rw.vus(labels, s, labels=CLASSES), abs=1e-12)
        assert [c["consecutive"] for c in row["components"]] == ["mid over low", "high over mid"]
        for k, c in enumerate(row["components"]):
            sel = (d["y"] == k) | (d["y"] == k + 1)
            b = rw.stats.estimate(d["y"][sel] == k + 1, s[sel], "auc",
                                  **({"clusters": d["hospital"][sel]} if cluster else {}))
            assert (c["value"], c["std_error"], c["low"], c["high"]) == (b.value, b.std_error,
                                                                       *b.confidence_interval(0.95))


def test_order_reverses_the_vus(graded, capsys):
    d = graded
    out = json_cli(capsys, ["evaluate", *BASE, "--score", "s1", "--order", "high,mid,low", "--format", "json"])
    assert out["rows"][0]["value"] == pytest.approx(rw.vus(d["y"], d["s1"], labels=[2, 1, 0]), abs=1e-12)
    rc, text, _ = run_cli(capsys, ["evaluate", *BASE, "--score", "s1", "--order", "low,mid,high"])
    assert rc == 0 and text.startswith("VUS of each model") and "(low < mid < high)" in text
    assert "1/3! = 0.1667" in text and "high over mid" in text


# --- compare -----------------------------------------------------------------------------------

@pytest.mark.parametrize("extra, kw", [
    ([], {}),
    (["--multi-class", "ovo"], {"multi_class": "ovo"}),
    (["--average", "weighted", "--cluster", "hospital"], {"average": "weighted", "cluster": True}),
    (["--reference", "B", "--adjust", "bonferroni", "--alternative", "greater", "--level", "0.9"],
     {"reference": "B", "adjust": "bonferroni", "alternative": "greater", "confidence_level": 0.9}),
])
def test_compare_gives_the_librarys_comparison(graded, capsys, extra, kw):
    d = graded
    out = json_cli(capsys, ["compare", *BASE, *TWO, *extra, "--format", "json"])
    lib = {k: v for k, v in kw.items() if k != "cluster"}
    ref = rw.stats.compare(d["y"], {"A": d["A"], "B": d["B"]}, criterion="multiclass_auc", **lib,
                           **_clusters(d, kw))
    assert out["scores"] == ["A", "B"] and out["values"] == ref.values.tolist()
    assert out["cov"] == ref.cov.tolist()
    assert out["pairs"] == [_finite_or_null(p._asdict()) for p in ref.pairs]  # one-sided: an end is inf, null
    assert out["global"]["p_value"] == ref.global_p_value
    assert out["multi_class"] == kw.get("multi_class", "ovr") and out["average"] == kw.get("average", "macro")


def test_compare_vus_text_and_csv(graded, capsys):
    d = graded
    ref = rw.stats.compare(d["y"], {"s1": d["s1"], "s2": d["s2"]}, criterion="vus", labels=[0, 1, 2])
    rc, out, _ = run_cli(capsys, ["compare", *BASE, *ORDERED])
    assert rc == 0 and "compare vus(order=low < mid < high)" in out and "s1 - s2" in out
    assert f"{ref.pairs[0].difference:.4f}" in out and "all equal: chi2" in out
    rc, out, _ = run_cli(capsys, ["compare", *BASE, *ORDERED, "--format", "csv"])
    (row,) = list(csv.DictReader(io.StringIO(out)))
    assert (row["criterion"], row["a"], row["b"]) == ("vus", "s1", "s2")
    assert float(row["p_value"]) == ref.pairs[0].p_value


# --- report ------------------------------------------------------------------------------------

def test_report_multiclass_page(graded, capsys, tmp_path):
    pytest.importorskip("matplotlib")
    d = graded
    rc, _, err = run_cli(capsys, ["report", *BASE, *TWO, "--multi-class", "ovo", "--cluster", "hospital", "--out",
                                  "r.html", "--quiet"])
    assert rc == 0, err
    page = (tmp_path / "r.html").read_text(encoding="utf-8")
    assert '<section id="multiclass">' in page and "Several classes: M (Hand &amp; Till" in page
    assert (tmp_path / "r_files" / "class_roc.png").read_bytes()[:4] == b"\x89PNG"
    assert (tmp_path / "r_files" / "pair_auc.png").read_bytes()[:4] == b"\x89PNG"
    est = rw.stats.estimate(d["y"], d["A"], criterion="multiclass_auc", multi_class="ovo",
                            clusters=d["hospital"])
    lo, hi = est.confidence_interval(0.95)
    assert f'data-value="{est.value!r}" data-low="{lo!r}" data-high="{hi!r}"' in page
    assert "low vs mid" in page and "rankwise report graded.csv --label grade" in page
    assert "n = 150 rows in 30 clusters (<code>hospital</code>)" in page


def test_report_ordinal_page(graded, capsys, tmp_path):
    pytest.importorskip("matplotlib")
    d = graded
    rc, _, err = run_cli(capsys, ["report", *BASE, *ORDERED, "--out", "o.html", "--quiet"])
    assert rc == 0, err
    page = (tmp_path / "o.html").read_text(encoding="utf-8")
    assert '<section id="ordinal">' in page and "low &lt; mid &lt; high" in page
    est = rw.stats.estimate(d["y"], d["s2"], criterion="vus", labels=[0, 1, 2])
    assert f'data-value="{est.value!r}"' in page and "s1 - s2" in page
    assert not (tmp_path / "o_files").exists()  # no figure on ordered classes


# --- bad input ---------------------------------------------------------------------------------

@pytest.mark.parametrize("argv, words", [
    (["--scores", "a_low,a_mid,nope", "--classes", "low,mid,high"], "unknown column 'nope'"),
    (["--scores", A_COLS, "--classes", "low,mid"], "--classes names 2 classes but --scores"),
    (["--scores", A_COLS, "--classes", "low,mid,top"], "label(s) 'high' not in --classes (low, mid, top)"),
    (["--scores", "a_low,a_mid,a_high,b_low", "--classes", "low,mid,high,top"], "class(es) 'top' have no row"),
    (["--scores", "a_low,a_mid,s1", "--classes", "low,mid,high"], "must hold probabilities"),
    (["--scores", "a_low,a_mid"], "holds 3 classes (high, low, mid) but --scores a_low,a_mid names 2 columns"),
    (["--scores", f"A={A_COLS}", "--scores", "B=b_low,b_mid", "--classes", "low,mid,high"],
     "every --scores needs one column per class"),
    (["--scores", "grade,a_mid,a_high", "--classes", "low,mid,high"], "names the label column 'grade'"),
    (["--scores", f"A={A_COLS}", "--scores", f"A={B_COLS}"], "same name 'A'"),
    (["--scores", A_COLS, "--classes", "low,low,high"], "lists 'low' twice"),
    (["--score", "s1", "--order", "low,high"], "label(s) 'mid' not in --order (low, high)"),
    (["--score", "s1", "--order", "low,mid,high,top"], "class(es) 'top' have no row"),
    (["--score", "id", "--order", "low,mid,high"], "column 'id'"),
])
def test_bad_data_is_one_line(graded, capsys, argv, words):
    err = _one_line_error(capsys, ["evaluate", *BASE, *argv])
    assert words in err, err


def test_missing_labels_and_scores_are_refused_with_their_rows(graded, capsys, tmp_path):
    lines = list(graded["lines"])
    lines[5] = lines[5].replace(",low,", ",,").replace(",mid,", ",,").replace(",high,", ",,")
    (tmp_path / "m.csv").write_text("\n".join(lines) + "\n")
    err = _one_line_error(capsys, ["evaluate", "m.csv", "--label", "grade", "--scores", A_COLS, "--classes",
                                   "low,mid,high"])
    assert "column 'grade' has empty values at rows 5" in err
    lines = list(graded["lines"])
    f = lines[3].split(",")
    f[3] = ""
    lines[3] = ",".join(f)
    (tmp_path / "n.csv").write_text("\n".join(lines) + "\n")
    err = _one_line_error(capsys, ["evaluate", "n.csv", "--label", "grade", "--scores", A_COLS, "--classes",
                                   "low,mid,high"])
    assert "'a_low'" in err and "rows 3" in err
    err = _one_line_error(capsys, ["compare", "n.csv", "--label", "grade", "--score", "s1", "--score", "a_low",
                                   "--order", "low,mid,high"], command="compare")
    assert "'a_low'" in err and "rows 3" in err


@pytest.mark.parametrize("argv, words", [
    (["--scores", A_COLS, "--classes", "low,mid,high", "--multi-class", "ovo", "--average", "micro"],
     "--average micro is defined for --multi-class ovr only"),
    (["--scores", A_COLS, "--score", "s1"], "--score is one score column"),
    (["--classes", "low,mid,high", "--score", "s1"], "--classes goes with --scores"),
    (["--score", "s1", "--order", "low,mid,high", "--scores", A_COLS], "does not combine with --scores"),
    (["--order", "low,mid,high"], "--order needs --score"),
    (["--score", "s1", "--order", "low,mid,high", "--pos-label", "high"], "--pos-label is not used with --order"),
    (["--scores", A_COLS, "--criteria", "auc"], "--criteria is not used with --scores"),
    (["--scores", A_COLS, "--group", "hospital"], "--group is not used with --scores"),
    (["--scores", A_COLS, "--ci", "hajek"], "--ci hajek is for the binary criteria"),
    (["--scores", A_COLS, "--time", "s1", "--event", "s2"], "--time is not used with --scores"),
])
def test_misused_options_are_usage_errors(graded, capsys, argv, words):
    err = _one_line_error(capsys, ["evaluate", *BASE, *argv], status=2)
    assert words in err, err


def test_label_is_required_and_score_still_is_for_binary(graded, capsys):
    err = _one_line_error(capsys, ["evaluate", "graded.csv", "--scores", A_COLS], status=2)
    assert "need --label" in err
    err = _one_line_error(capsys, ["evaluate", *BASE], status=2)
    assert "required: --score" in err
    err = _one_line_error(capsys, ["compare", *BASE], command="compare", status=2)
    assert "required: --score" in err


def test_compare_needs_two_models_and_a_known_reference(graded, capsys):
    err = _one_line_error(capsys, ["compare", *BASE, "--scores", A_COLS, "--classes", "low,mid,high"],
                          command="compare")
    assert "at least two models" in err
    err = _one_line_error(capsys, ["compare", *BASE, *TWO, "--reference", "C"], command="compare")
    assert "--reference 'C' is not one of the models: A, B" in err


def test_report_refuses_before_writing(graded, capsys, tmp_path):
    err = _one_line_error(capsys, ["report", *BASE, "--scores", A_COLS, "--classes", "low,mid,top", "--out",
                                   "r.html"], command="report")
    assert "not in --classes" in err
    assert not (tmp_path / "r.html").exists() and not (tmp_path / "r_files").exists()
    err = _one_line_error(capsys, ["report", *BASE, "--scores", A_COLS, "--classes", "low,mid,high", "--model",
                                   "m.rwm", "--out", "r.html"], command="report", status=2)
    assert "--model is not used" in err


def test_json_is_strict(graded, capsys):
    # a class with one row: the standard error cannot be estimated, written as null, never NaN
    lines = list(graded["lines"])
    body = [r for r in lines[1:] if ",high," not in r] + [next(r for r in lines[1:] if ",high," in r)]
    with open("one.csv", "w") as fh:
        fh.write("\n".join([lines[0], *body]) + "\n")
    rc, out, err = run_cli(capsys, ["evaluate", "one.csv", "--label", "grade", "--score", "s1", "--order",
                                    "low,mid,high", "--format", "json"])
    assert rc == 0, err
    data = json.loads(out)  # strict: no NaN
    assert data["class_sizes"][2] == 1
    assert data["rows"][0]["std_error"] is None and data["rows"][0]["value"] is not None
