"""``rankwise compare --method bootstrap`` (the library's bootstrap comparison, seeded) and
``--curve-test`` (Venkatraman's test of equal ROC curves for each pair) from the command
line: outputs equal to rw.stats.compare / rw.stats.curve_test with the same seed, and
one-line usage errors (exit status 2)."""

from __future__ import annotations

import csv
import io
import json

import numpy as np
import pytest

import rankwise as rw
from _support.cli import run_cli


@pytest.fixture
def scores_file(tmp_path):
    rng = np.random.default_rng(12)
    n = 160
    y = rng.random(n) < 0.45
    a, b, c = (np.round(rng.normal(size=n) + k * y, 2) for k in (1.0, 0.8, 0.3))
    p = tmp_path / "s.csv"
    rows = ["y,a,b,c"] + [f"{int(t)},{u!r},{v!r},{w!r}"
                          for t, u, v, w in zip(y.tolist(), a.tolist(), b.tolist(), c.tolist())]
    p.write_text("\n".join(rows) + "\n")
    return str(p), y, {"a": a, "b": b, "c": c}


def _argv(path, *extra):
    return ["compare", path, "--label", "y", "--score", "a", "--score", "b", "--score", "c", *extra]


@pytest.mark.parametrize("criterion", ["auc", "ks_statistic", "average_precision"])
@pytest.mark.parametrize("interval", [None, "percentile"])
def test_bootstrap_json_equals_library(scores_file, capsys, criterion, interval):
    path, y, scores = scores_file
    extra = ["--criterion", criterion, "--method", "bootstrap", "--resamples", "300", "--seed", "7",
             "--format", "json"] + (["--interval", interval] if interval else [])
    rc, out, err = run_cli(capsys, _argv(path, *extra))
    assert rc == 0, err
    doc = json.loads(out)
    want = rw.stats.compare(y, scores, criterion, method="bootstrap", n_resamples=300, random_state=7,
                            interval=interval or "bca")
    assert doc["n_resamples"] == 300 and doc["interval"] == (interval or "bca")
    np.testing.assert_allclose(doc["cov"], want.cov, rtol=1e-12, atol=1e-18)
    for got, p in zip(doc["pairs"], want.pairs):
        for key in ("difference", "std_error", "statistic", "p_value", "p_adjusted", "low", "high"):
            assert got[key] == pytest.approx(getattr(p, key), rel=1e-12, abs=1e-15)


def test_curve_test_equals_library(scores_file, capsys):
    path, y, scores = scores_file
    rc, out, err = run_cli(capsys, _argv(path, "--curve-test", "--permutations", "200", "--seed", "3",
                                         "--reference", "a", "--format", "json"))
    assert rc == 0, err
    doc = json.loads(out)
    assert [(r["a"], r["b"]) for r in doc["curve_tests"]] == [("b", "a"), ("c", "a")]
    for r in doc["curve_tests"]:
        t = rw.stats.curve_test(y, scores[r["a"]], scores[r["b"]], n_permutations=200, random_state=3)
        assert r["statistic"] == t.statistic and r["p_value"] == t.p_value and r["n_permutations"] == 200
    assert "not a test of the AUCs" in doc["curve_test_note"]


def test_curve_test_text_and_csv(scores_file, capsys):
    path, _, _ = scores_file
    rc, out, err = run_cli(capsys, _argv(path, "--curve-test", "--permutations", "50"))
    assert rc == 0, err
    assert "a vs b" in out and "Venkatraman" in out and "not a test of the AUCs" in out
    rc, out, err = run_cli(capsys, _argv(path, "--curve-test", "--permutations", "50", "--format", "csv"))
    assert rc == 0, err
    rows = list(csv.DictReader(io.StringIO(out)))
    assert len(rows) == 3 and all(r["curve_permutations"] == "50" for r in rows)
    assert all(0.0 <= float(r["curve_p_value"]) <= 1.0 for r in rows)


@pytest.mark.parametrize("extra, words", [
    (["--resamples", "100"], "--resamples goes with --method bootstrap"),
    (["--interval", "bca"], "--interval goes with --method bootstrap"),
    (["--permutations", "100"], "--permutations goes with --curve-test"),
    (["--seed", "1"], "--seed goes with"),
    (["--method", "bootstrap", "--resamples", "1"], "at least 2"),
    (["--method", "bootstrap", "--strata", "c"], "not offered with --strata"),
    (["--curve-test", "--group", "c"], "not offered with --group"),
])
def test_usage_errors(scores_file, capsys, extra, words):
    path, _, _ = scores_file
    rc, _, err = run_cli(capsys, _argv(path, *extra))
    assert rc == 2 and words in err and err.count("\n") == 1, err


def test_points_youden_intervals_are_coords_ci(scores_file, capsys):
    path, y, scores = scores_file
    rc, out, err = run_cli(capsys, ["points", path, "--label", "y", "--score", "a", "--youden", "--resamples",
                                    "200", "--seed", "4", "--format", "json"])
    assert rc == 0, err
    row = [r for r in json.loads(out)["rows"] if r["at"] == "youden"][0]
    ci = rw.stats.coords_ci(y, scores["a"], "best", ret=("threshold", "tpr", "fpr", "precision"), n_resamples=200,
                            random_state=4)
    for k in ("threshold", "tpr", "fpr", "precision"):
        assert (row[f"{k}_low"], row[f"{k}_high"]) == (ci.low[k][0], ci.high[k][0])
        assert row[k] == pytest.approx(ci.estimate[k][0], rel=1e-12)
    rc, out, err = run_cli(capsys, ["points", path, "--label", "y", "--score", "a", "--youden", "--ci", "none",
                                    "--format", "json"])
    assert rc == 0 and "tpr_low" not in [r for r in json.loads(out)["rows"] if r["at"] == "youden"][0]
