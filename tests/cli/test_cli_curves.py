"""``rankwise curves``: each score column's ROC, precision-recall, DET (and smoothed ROC)
points from the command line, equal to the library's curves; one-line usage errors."""

from __future__ import annotations

import csv
import io
import json

import numpy as np
import pytest

import rankwise as rw
from _support.cli import run_cli


@pytest.fixture
def data_file(tmp_path):
    rng = np.random.default_rng(8)
    n = 200
    y = rng.random(n) < 0.35
    a = np.round(y + rng.normal(size=n), 2)  # ties
    b = y * 0.5 + rng.normal(size=n)
    p = tmp_path / "d.csv"
    rows = ["id,outcome,a,b"] + [f"r{i},{'sick' if t else 'well'},{u!r},{v!r}"
                                 for i, (t, u, v) in enumerate(zip(y.tolist(), a.tolist(), b.tolist()))]
    p.write_text("\n".join(rows) + "\n")
    return str(p), y, {"a": a, "b": b}


def _argv(path, *extra):
    return ["curves", path, "--label", "outcome", "--pos-label", "sick", "--score", "a", "--score", "b", *extra]


@pytest.mark.parametrize("kind, func, fields", [
    ("roc", rw.roc_curve, {"fpr": "fpr", "tpr": "tpr", "threshold": "thresholds"}),
    ("pr", rw.precision_recall_curve, {"recall": "recall", "precision": "precision", "threshold": "thresholds"}),
    ("det", rw.det_curve, {"fpr": "fpr", "fnr": "fnr", "threshold": "thresholds"}),
])
@pytest.mark.parametrize("all_points", [False, True])
def test_json_equals_library(data_file, capsys, kind, func, fields, all_points):
    path, y, scores = data_file
    extra = ["--curve", kind, "--format", "json"] + (["--all-points"] if all_points else [])
    rc, out, err = run_cli(capsys, _argv(path, *extra))
    assert rc == 0, err
    doc = json.loads(out)
    assert doc["curve"] == kind and doc["positive_label"] == "sick" and doc["n"] == len(y)
    assert doc["columns"] == list(fields)
    for name, s in scores.items():
        want = func(y, s, drop_intermediate=not all_points)
        for col, attr in fields.items():
            expected = getattr(want, attr)
            got = np.array(doc["curves"][name][col], dtype=float)  # JSON null: the infinite threshold
            np.testing.assert_array_equal(got, np.where(np.isinf(expected), np.nan, expected))
            if col == "threshold":
                assert "null" in doc["note"]


def test_csv_long_format(data_file, capsys):
    path, y, scores = data_file
    rc, out, err = run_cli(capsys, _argv(path, "--curve", "det", "--format", "csv"))
    assert rc == 0, err
    rows = list(csv.DictReader(io.StringIO(out)))
    assert set(rows[0]) == {"score", "fpr", "fnr", "threshold"}
    for name, s in scores.items():
        want = rw.det_curve(y, s, drop_intermediate=True)
        got = [r for r in rows if r["score"] == name]
        assert len(got) == want.fpr.shape[0]
        np.testing.assert_array_equal([float(r["fnr"]) for r in got], want.fnr)


def test_table_names_the_curve(data_file, capsys):
    path, _, _ = data_file
    rc, out, err = run_cli(capsys, _argv(path, "--curve", "pr"))
    assert rc == 0, err
    assert "a: " in out and "b: " in out and "precision-recall curve" in out
    assert "positive label: 'sick'" in out


def test_out_file_written_atomically_and_kept(data_file, tmp_path, capsys):
    path, _, _ = data_file
    out = tmp_path / "roc.csv"
    rc, _, err = run_cli(capsys, _argv(path, "--format", "csv", "--out", str(out)))
    assert rc == 0, err
    first = out.read_text()
    rc, _, err = run_cli(capsys, _argv(path, "--curve", "det", "--format", "csv", "--out", str(out)))
    assert rc == 1 and out.read_text() == first
    rc, _, err = run_cli(capsys, _argv(path, "--format", "csv", "--out", path, "--force"))
    assert rc == 1  # never the input


@pytest.mark.parametrize("extra, word", [
    (["--points", "100"], "--points is for the smoothed curves"),
    (["--cluster", "id"], "--cluster"),
])
def test_usage_errors(data_file, capsys, extra, word):
    path, _, _ = data_file
    rc, _, err = run_cli(capsys, _argv(path, *extra))
    assert rc == 2 and word in err and err.count("\n") == 1


def test_one_class_is_an_error(tmp_path, capsys):
    p = tmp_path / "one.csv"
    p.write_text("y,s\n1,0.2\n1,0.5\n")
    rc, _, err = run_cli(capsys, ["curves", str(p), "--label", "y", "--score", "s"])
    assert rc == 1 and err.count("\n") == 1


@pytest.mark.parametrize("method, points", [("binormal", 512), ("density", 100)])
def test_smoothed_curves_equal_library(data_file, capsys, method, points):
    path, y, scores = data_file
    rc, out, err = run_cli(capsys, _argv(path, "--curve", method, "--points", str(points), "--format", "json"))
    assert rc == 0, err
    doc = json.loads(out)
    assert doc["columns"] == ["fpr", "tpr"]
    for name, s in scores.items():
        want = rw.smooth_roc(y, s, method=method, n=points)
        got = doc["curves"][name]
        np.testing.assert_array_equal(got["fpr"], want.fpr)
        np.testing.assert_array_equal(got["tpr"], want.tpr)
        assert got["area"] == want.auc()
        if method == "binormal":
            assert (got["a"], got["b"]) == (want.fit.a, want.fit.b)
        else:
            assert got["bandwidth"] == want.bandwidth


def test_smoothing_usage(data_file, capsys):
    path, _, _ = data_file
    rc, _, err = run_cli(capsys, _argv(path, "--curve", "binormal", "--all-points"))
    assert rc == 2 and "--all-points is for the empirical curves" in err
    rc, _, err = run_cli(capsys, _argv(path, "--curve", "density", "--points", "1"))
    assert rc == 2 and "at least 2" in err
