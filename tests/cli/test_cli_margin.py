"""``rankwise compare --alternative noninferiority|equivalence --margin D``: the library's
non-inferiority and equivalence tests from the command line, the margin in every output,
and one-line usage errors (exit status 2) for a missing, stray or invalid margin."""

from __future__ import annotations

import csv
import io
import json

import numpy as np
import pytest

import rankwise as rw
from _support.cli import run_cli
from rankwise.cli import main


@pytest.fixture
def scores_file(tmp_path):
    rng = np.random.default_rng(21)
    n = 300
    y = rng.random(n) < 0.4
    a, b, c = (rng.normal(size=n) + k * y for k in (1.0, 0.9, 0.4))
    g = np.where(rng.random(n) < 0.5, "x", "z")
    p = tmp_path / "s.csv"
    rows = ["y,a,b,c,g"] + [f"{int(t)},{float(u)!r},{float(v)!r},{float(w)!r},{h}"
                            for t, u, v, w, h in zip(y, a, b, c, g)]
    p.write_text("\n".join(rows) + "\n")
    return str(p), y, {"a": a, "b": b, "c": c}


def base(path):
    return ["compare", path, "--label", "y", "--score", "a", "--score", "b", "--score", "c"]


@pytest.mark.parametrize("extra, kw", [
    (["--alternative", "noninferiority", "--margin", "0.02", "--reference", "b"],
     dict(alternative="noninferiority", margin=0.02, reference="b")),
    (["--alternative", "equivalence", "--margin", "0.05", "--adjust", "bh", "--level", "0.9"],
     dict(alternative="equivalence", margin=0.05, adjust="bh", confidence_level=0.9)),
])
def test_json_equals_the_library(scores_file, capsys, extra, kw):
    path, y, scores = scores_file
    rc, out, err = run_cli(capsys, base(path) + extra + ["--format", "json"])
    assert rc == 0, err
    doc = json.loads(out)
    want = rw.stats.compare(y, scores, "auc", **kw)
    assert doc["alternative"] == want.alternative and doc["margin"] == kw["margin"]
    assert [(p["a"], p["b"]) for p in doc["pairs"]] == [(p.a, p.b) for p in want.pairs]
    for got, p in zip(doc["pairs"], want.pairs):
        for key in ("statistic", "p_value", "p_adjusted", "low"):
            assert got[key] == pytest.approx(getattr(p, key), rel=1e-12)


def test_text_states_margin_and_hypotheses(scores_file, capsys):
    path, _, _ = scores_file
    rc, out, _ = run_cli(capsys, base(path) + ["--alternative", "noninferiority", "--margin", "0.02",
                                               "--reference", "b"])
    assert rc == 0
    assert "non-inferiority of a to b, margin 0.02: H0: a - b <= -0.02" in out
    rc, out, _ = run_cli(capsys, base(path) + ["--alternative", "equivalence", "--margin", "0.05"])
    assert rc == 0 and "H0: |a - b| >= 0.05" in out and "90% CI (TOST)" in out


def test_csv_margin_column_only_with_a_margin(scores_file, capsys):
    path, _, _ = scores_file
    rc, out, _ = run_cli(capsys, base(path) + ["--alternative", "equivalence", "--margin", "0.05", "--format", "csv"])
    rows = list(csv.DictReader(io.StringIO(out)))
    assert rc == 0 and len(rows) == 3 and all(r["margin"] == "0.05" for r in rows)
    rc, out, _ = run_cli(capsys, base(path) + ["--format", "csv"])
    assert rc == 0 and "margin" not in out.splitlines()[0]


def test_within_groups(scores_file, capsys):
    path, y, scores = scores_file
    rc, out, err = run_cli(capsys, base(path) + ["--group", "g", "--alternative", "noninferiority", "--margin",
                                                 "0.05", "--format", "json"])
    assert rc == 0, err
    doc = json.loads(out)
    comps = doc["group_comparisons"]
    assert {c["group"] for c in comps} == {"x", "z"}
    assert all(c["alternative"] == "noninferiority" for c in comps)
    want = rw.stats.compare(y[np.asarray(doc_groups(path)) == "x"], {k: v[np.asarray(doc_groups(path)) == "x"]
                                                                    for k, v in scores.items()},
                            alternative="noninferiority", margin=0.05)
    got = next(c for c in comps if c["group"] == "x")
    assert [p["p_value"] for p in got["pairs"]] == pytest.approx([p.p_value for p in want.pairs], rel=1e-12)


def doc_groups(path):
    with open(path) as fh:
        return [row["g"] for row in csv.DictReader(fh)]


@pytest.mark.parametrize("extra, words", [
    (["--alternative", "noninferiority"], "needs --margin"),
    (["--alternative", "equivalence"], "needs --margin"),
    (["--margin", "0.02"], "--margin is only for"),
    (["--alternative", "greater", "--margin", "0.02"], "--margin is only for"),
    (["--alternative", "noninferiority", "--margin", "0"], "--margin must be a positive number"),
    (["--alternative", "equivalence", "--margin", "-0.1"], "--margin must be a positive number"),
    (["--alternative", "equivalence", "--margin", "nan"], "--margin must be a positive number"),
    (["--alternative", "equivalence", "--margin", "inf"], "--margin must be a positive number"),
])
def test_usage_errors_are_one_line_exit_2(scores_file, capsys, extra, words):
    path, _, _ = scores_file
    rc, _, err = run_cli(capsys, base(path) + extra)
    assert rc == 2 and err.count("\n") == 1 and words in err


def test_margin_not_a_number_is_argparse_exit_2(scores_file, capsys):
    path, _, _ = scores_file
    with pytest.raises(SystemExit) as info:
        main(base(path) + ["--alternative", "equivalence", "--margin", "abc"])
    assert info.value.code == 2 and "--margin" in capsys.readouterr().err


def test_strata_with_margin(scores_file, capsys):
    path, y, scores = scores_file
    import csv as _csv

    with open(path) as f:
        g = [r["g"] for r in _csv.DictReader(f)]
    rc, out, err = run_cli(capsys, base(path) + ["--strata", "g", "--alternative", "noninferiority", "--margin",
                                                 "0.05", "--reference", "b", "--format", "json"])
    assert rc == 0, err
    doc = json.loads(out)
    want = rw.stats.compare_stratified(y, scores, g, reference="b", alternative="noninferiority", margin=0.05)
    assert doc["margin"] == 0.05
    for got, p in zip(doc["pairs"], want.pairs):
        assert got["statistic"] == pytest.approx(p.statistic, rel=1e-12)
        assert got["p_value"] == pytest.approx(p.p_value, rel=1e-12)


def test_several_classes_with_margin(tmp_path, capsys):
    rng = np.random.default_rng(3)
    n = 240
    y = rng.integers(0, 3, n)
    mats = {}
    for name, noise in (("A", 1.0), ("B", 1.3)):
        z = np.eye(3)[y] * 1.5 + noise * rng.normal(size=(n, 3))
        e = np.exp(z - z.max(axis=1, keepdims=True))
        mats[name] = e / e.sum(axis=1, keepdims=True)
    p = tmp_path / "mc.csv"
    cols = [f"{m}{k}" for m in "AB" for k in range(3)]
    rows = ["grade," + ",".join(cols)] + [",".join(["lmh"[c], *(repr(float(v)) for v in np.r_[mats["A"][i],
                                                                                            mats["B"][i]])])
                                          for i, c in enumerate(y)]
    p.write_text("\n".join(rows) + "\n")
    argv = ["compare", str(p), "--label", "grade", "--classes", "l,m,h", "--scores", "A=A0,A1,A2",
            "--scores", "B=B0,B1,B2", "--reference", "B", "--alternative", "equivalence", "--margin", "0.05"]
    rc, out, err = run_cli(capsys, argv + ["--format", "json"])
    assert rc == 0, err
    doc = json.loads(out)
    want = rw.stats.compare(y, mats, criterion="multiclass_auc", reference="B", alternative="equivalence",
                            margin=0.05)
    assert doc["margin"] == 0.05 and doc["alternative"] == "equivalence"
    assert doc["pairs"][0]["p_value"] == pytest.approx(want.pairs[0].p_value, rel=1e-10)
    rc, out, err = run_cli(capsys, argv + ["--format", "csv"])
    assert rc == 0 and "margin" in out.splitlines()[0]


def test_censored_times_with_margin(tmp_path, capsys):
    rng = np.random.default_rng(9)
    n = 200
    x = rng.normal(size=n)
    t = rng.exponential(np.exp(-x))
    c = rng.exponential(1.5, n)
    time, event = np.minimum(t, c), (t <= c).astype(int)
    a, b = x + rng.normal(0, 0.7, n), x + rng.normal(0, 1.0, n)
    p = tmp_path / "s.csv"
    p.write_text("time,status,a,b\n" + "\n".join(f"{u!r},{e},{v!r},{w!r}" for u, e, v, w in
                                                 zip(time.tolist(), event.tolist(), a.tolist(), b.tolist())) + "\n")
    rc, out, err = run_cli(capsys, ["compare", str(p), "--time", "time", "--event", "status", "--score", "a",
                                    "--score", "b", "--reference", "b", "--alternative", "noninferiority",
                                    "--margin", "0.02", "--format", "json"])
    assert rc == 0, err
    doc = json.loads(out)
    for comp in doc["comparisons"]:
        want = rw.survival.compare(time, event, {"a": a, "b": b}, weighting=comp["concordance"], reference="b",
                                   alternative="noninferiority", margin=0.02)
        assert comp["margin"] == 0.02
        assert comp["pairs"][0]["statistic"] == pytest.approx(want.pairs[0].statistic, rel=1e-12)
        two = rw.survival.compare(time, event, {"a": a, "b": b}, weighting=comp["concordance"], reference="b")
        d, se = two.pairs[0].difference, two.pairs[0].std_error
        assert want.pairs[0].statistic == pytest.approx((d + 0.02) / se, rel=1e-12)
