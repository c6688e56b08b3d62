"""``--fold COL`` of ``rankwise evaluate`` and ``report``: each score column's criteria
averaged over the folds with the influence-curve interval. The numbers are
``rw.stats.cross_validated``'s on the same rows (to 1e-12) and, for the AUC and the p-norm
push, the literal definitions of ``tests/_support/reference_cvauc.py`` (pair by pair);
string labels, string and numeric fold ids, an id column and a column with missing values
that is not used; bad folds are one-line errors (exit 1), options that do not combine are
one-line usage errors (exit 2)."""

from __future__ import annotations

import csv
import io
import re

import numpy as np
import pytest

import rankwise as rw
from _support import reference_cvauc as ref
from _support.cli import json_cli, run_cli

FOLDS = ("B", "A", "C", "007")


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    """96 rows: labels 'yes'/'no', text fold ids (B, A, C, 007; listed as text sorts:
    007, A, B, C), numeric ones (band: 1, 2, 10), an id column of 48 patients of two rows
    (in two folds), a note column with empty fields (read only where named), two score
    columns with ties (one decimal)."""
    rng = np.random.default_rng(32)
    n = 96
    y = rng.random(n) < 0.45
    fold = np.array(FOLDS, dtype=object)[np.arange(n) % 4]
    for k, f in enumerate(FOLDS):  # both classes in every fold
        rows = np.flatnonzero(fold == f)
        y[rows[0]], y[rows[1]] = True, False
    a = np.round(y + rng.normal(size=n), 1)
    b = np.round(0.4 * y + rng.normal(size=n), 1)
    patient = np.array([f"P{k // 2:03d}" for k in range(n)], dtype=object)
    note = ["" if k % 5 == 0 else "ok" for k in range(n)]
    band = np.array([1, 2, 10])[np.arange(n) % 3]
    lines = ["patient,outcome,fold,note,band,a,b"] + [
        f"{p},{'yes' if v else 'no'},{f},{t},{g},{float(sa)!r},{float(sb)!r}"
        for p, v, f, t, g, sa, sb in zip(patient, y, fold, note, band, a, b)]
    path = tmp_path_factory.mktemp("crossval") / "cv.csv"
    path.write_text("\n".join(lines) + "\n")
    return {"path": str(path), "y": y, "fold": fold, "a": a, "b": b, "patient": patient, "band": band,
            "lines": lines, "dir": path.parent}


def _base(d, *scores):
    return [d["path"], "--label", "outcome", "--pos-label", "yes", *[x for s in scores for x in ("--score", s)]]


def _codes(ids):
    """Each row's fold numbered in the sorted order of the ids (as the outputs list them)."""
    names = sorted(set(ids.tolist()))
    return np.array([names.index(v) for v in ids.tolist()]), names


# --- the numbers ------------------------------------------------------------------------------

def test_evaluate_fold_is_the_library_and_the_literal_definition(data, capsys):
    got = json_cli(capsys, ["evaluate", *_base(data, "a", "b"), "--fold", "fold", "--criteria",
                            "auc,pnorm_push:p=4", "--format", "json"])
    y = data["y"]
    codes, names = _codes(data["fold"])
    assert got["fold_column"] == "fold" and got["n_folds"] == 4 and got["positive_label"] == "yes"
    assert [f["fold"] for f in got["fold_sizes"]] == names == ["007", "A", "B", "C"]
    assert got["n"] == 96 and got["n_positive"] == int(y.sum())
    assert [(r["score"], r["criterion"]) for r in got["rows"]] == [
        ("a", "auc"), ("a", "pnorm_push:p=4"), ("b", "auc"), ("b", "pnorm_push:p=4")]
    for row in got["rows"]:
        s = data[row["score"]]
        lib = rw.stats.cross_validated(y, s, data["fold"], criterion=row["criterion"])
        ic, naive = lib.confidence_interval(), lib.confidence_interval(method="naive")
        for key, want in (("value", lib.value), ("std_error", lib.std_error), ("low", ic.low), ("high", ic.high),
                          ("naive_std_error", lib.naive_std_error), ("naive_low", naive.low),
                          ("naive_high", naive.high)):
            assert row[key] == pytest.approx(want, rel=1e-12, abs=1e-15), key
        assert row["method"] == "influence" and row["n_folds"] == 4 and row["pooled"] is False
        assert row["n_units"] == 96
        # exact first: pair by pair, no shared code
        terms = ref.auc_terms if row["criterion"] == "auc" else (
            lambda yy, ss, ww: ref.pnorm_push_terms(yy, ss, ww, p=4.0))
        value, se, fold_values = ref.cross_validated(y.tolist(), s.tolist(), codes.tolist(), terms=terms)
        assert row["value"] == pytest.approx(value, abs=1e-12)
        assert row["std_error"] == pytest.approx(se, abs=1e-12)
        assert [f["fold"] for f in row["folds"]] == names
        assert [f["value"] for f in row["folds"]] == pytest.approx(fold_values, abs=1e-12)
        assert [f["n_pos"] for f in row["folds"]] == [float(np.sum(y[codes == k])) for k in range(4)]
        assert [f["n_neg"] for f in row["folds"]] == [float(np.sum(~y[codes == k])) for k in range(4)]


def test_default_criteria_and_level(data, capsys):
    got = json_cli(capsys, ["evaluate", *_base(data, "a"), "--fold", "fold", "--level", "0.9", "--format", "json"])
    from rankwise.cli._common import DEFAULT_CRITERIA

    assert [r["criterion"] for r in got["rows"]] == DEFAULT_CRITERIA and got["confidence_level"] == 0.9
    for row in got["rows"]:
        lib = rw.stats.cross_validated(data["y"], data["a"], data["fold"], criterion=row["criterion"])
        ic = lib.confidence_interval(0.9)
        assert (row["low"], row["high"]) == pytest.approx((ic.low, ic.high), rel=1e-12, abs=1e-15)


def test_cluster_gives_the_pooled_interval(data, capsys):
    got = json_cli(capsys, ["evaluate", *_base(data, "a"), "--fold", "fold", "--cluster", "patient", "--criteria",
                            "auc", "--format", "json"])
    row = got["rows"][0]
    assert got["n_clusters"] == 48 and row["pooled"] is True and row["n_units"] == 48
    codes, _ = _codes(data["fold"])
    value, se = ref.cross_validated_pooled(data["y"].tolist(), data["a"].tolist(), codes.tolist(),
                                           data["patient"].tolist())
    assert row["value"] == pytest.approx(value, abs=1e-12) and row["std_error"] == pytest.approx(se, abs=1e-12)
    rc, out, _ = run_cli(capsys, ["evaluate", *_base(data, "a"), "--fold", "fold", "--cluster", "patient"])
    assert rc == 0 and "standard errors over 48 clusters (pooled" in out and "clusters = 48" in out


def test_numeric_fold_ids_sort_as_numbers(data, capsys):
    got = json_cli(capsys, ["evaluate", *_base(data, "a"), "--fold", "band", "--criteria", "auc", "--format",
                            "json"])
    assert [f["fold"] for f in got["rows"][0]["folds"]] == [1, 2, 10]
    lib = rw.stats.cross_validated(data["y"], data["a"], data["band"])
    assert got["rows"][0]["value"] == pytest.approx(lib.value, rel=1e-12)


# --- the outputs ------------------------------------------------------------------------------

def test_the_table_and_verbose(data, capsys):
    argv = ["evaluate", *_base(data, "a", "b"), "--fold", "fold", "--criteria", "auc"]
    rc, out, err = run_cli(capsys, argv)
    assert rc == 0 and err == ""
    lib = rw.stats.cross_validated(data["y"], data["a"], data["fold"])
    ic, naive = lib.confidence_interval(), lib.confidence_interval(method="naive")
    line = next(ln for ln in out.splitlines() if ln.startswith("a "))
    assert line.split() == ["a", "auc", *(f"{v:.4f}" for v in (lib.value, ic.low, ic.high, lib.std_error, naive.low,
                                                                naive.high, lib.naive_std_error))]
    assert out.startswith("cross-validated over 4 folds (column 'fold')")
    assert "LeDell, Petersen & van der Laan 2015" in out and "not independent" in out
    assert "folds: column 'fold', 4 folds (007: n = 24" in out and "positive label: 'yes' (n = 96" in out
    assert "each fold's value" not in out
    rc, verbose, _ = run_cli(capsys, argv + ["--verbose"])
    assert rc == 0 and "each fold's value" in verbose
    rows = [ln.split() for ln in verbose.splitlines() if ln.startswith(("a ", "b ")) and len(ln.split()) == 6]
    assert len(rows) == 8 and [r[2] for r in rows[:4]] == ["007", "A", "B", "C"]
    assert [float(r[5]) for r in rows[:4]] == pytest.approx(lib.fold_values.tolist(), abs=5e-5)


def test_csv_has_the_average_then_each_fold(data, capsys):
    rc, out, _ = run_cli(capsys, ["evaluate", *_base(data, "a"), "--fold", "fold", "--criteria", "auc", "--format",
                                  "csv"])
    assert rc == 0
    rows = list(csv.DictReader(io.StringIO(out)))
    lib = rw.stats.cross_validated(data["y"], data["a"], data["fold"])
    assert len(rows) == 5 and rows[0]["fold"] == "" and [r["fold"] for r in rows[1:]] == ["007", "A", "B", "C"]
    assert float(rows[0]["value"]) == lib.value and float(rows[0]["std_error"]) == lib.std_error
    assert float(rows[0]["naive_std_error"]) == lib.naive_std_error and rows[0]["method"] == "influence"
    assert [float(r["value"]) for r in rows[1:]] == lib.fold_values.tolist()
    assert all(r["low"] == "" and r["fold_column"] == "fold" and r["positive_label"] == "yes" for r in rows[1:])
    assert float(rows[0]["n_pos"]) == float(data["y"].sum())


def test_report_fold_adds_the_section(data, capsys):
    page = data["dir"] / "r.html"
    rc, out, err = run_cli(capsys, ["report", *_base(data, "a", "b"), "--fold", "fold", "--criteria",
                                    "auc,ks_statistic", "--resamples", "20", "--out", str(page), "--quiet"])
    assert rc == 0, err
    text = page.read_text(encoding="utf-8")
    ks = rw.criteria.get("ks_statistic").describe()
    assert ks in text
    assert '<section id="crossval"><h2>Cross-validation: <code>fold</code></h2>' in text
    section = text[text.index('<section id="crossval">'):text.index("</section>", text.index('id="crossval"'))]
    lib = rw.stats.cross_validated(data["y"], data["b"], data["fold"])
    assert f'data-value="{lib.value!r}"' in section and f'data-value="{lib.std_error!r}"' in section
    assert section.count('<img src="data:image/png;base64,') == 2
    assert section.count('<details class="scorer"') == 2
    # the KS statistic has no projection: not averaged over the folds
    assert section.count('<table class="crossval">') == 2 and section.count("<td class=\"name\">AUC</td>") == 2
    assert "<th>AUC</th></tr>" in section and ks not in re.sub(r'src="[^"]*"', "", section)


# --- errors -----------------------------------------------------------------------------------

def _write(data, name, lines):
    path = data["dir"] / name
    path.write_text("\n".join(lines) + "\n")
    return str(path)


def test_a_missing_fold_id_is_one_line(data, capsys):
    lines = list(data["lines"])
    for k in (3, 10):
        cells = lines[k].split(",")
        cells[2] = ""
        lines[k] = ",".join(cells)
    path = _write(data, "missing.csv", lines)
    rc, out, err = run_cli(capsys, ["evaluate", path, "--label", "outcome", "--pos-label", "yes", "--score", "a",
                                    "--fold", "fold"])
    assert rc == 1 and out == "" and err.count("\n") == 1
    assert "column 'fold' has missing fold ids at rows 3, 10" in err


def test_a_fold_with_one_class_is_named_as_written(data, capsys):
    lines = [data["lines"][0]] + [ln for ln, v, f in zip(data["lines"][1:], data["y"], data["fold"])
                                  if not (f == "007" and not v)]
    path = _write(data, "oneclass.csv", lines)
    for command in ("evaluate", "report"):
        argv = [command, path, "--label", "outcome", "--pos-label", "yes", "--score", "a", "--fold", "fold"]
        if command == "report":
            argv += ["--out", str(data["dir"] / "never.html")]
        rc, out, err = run_cli(capsys, argv)
        assert rc == 1 and err.count("\n") == 1, err
        assert "fold '007' of column 'fold' has no negatives (n = " in err
    assert not (data["dir"] / "never.html").exists()


@pytest.mark.parametrize("argv, message", [
    (["--fold", "note"], "column 'note' has missing fold ids at rows 1, 6, 11, 16, 21 (20 rows in all)"),
    (["--fold", "outcome"], "--fold names the label column 'outcome'"),
    (["--fold", "a"], "--fold names the score column 'a'"),
    (["--fold", "patient", "--cluster", "patient"], "--fold and --cluster name the same column 'patient'"),
    (["--fold", "nope"], "nope"),
    (["--fold", "fold", "--criteria", "auc,ks_statistic"], "'ks_statistic' has none"),
])
def test_bad_fold_columns_and_criteria(data, capsys, argv, message):
    rc, out, err = run_cli(capsys, ["evaluate", *_base(data, "a"), *argv])
    assert rc == 1 and out == "" and err.count("\n") == 1 and message in err, err


def test_one_fold_only(data, capsys):
    lines = ["outcome,fold,a", "yes,A,0.5", "no,A,0.1", "yes,A,0.3"]
    path = _write(data, "onefold.csv", lines)
    rc, _, err = run_cli(capsys, ["evaluate", path, "--label", "outcome", "--pos-label", "yes", "--score", "a",
                                  "--fold", "fold"])
    assert rc == 1 and "holds one fold only ('A'); cross-validation needs at least two folds" in err


@pytest.mark.parametrize("argv, message", [
    (["compare", "--score", "a", "--score", "b", "--fold", "fold"], "compare --fold is not offered"),
    (["evaluate", "--score", "a", "--fold", "fold", "--group", "band"], "--group is not used with --fold"),
    (["evaluate", "--score", "a", "--fold", "fold", "--strata", "band"], "--strata is not used with --fold"),
    (["evaluate", "--score", "a", "--fold", "fold", "--ci", "delong"], "--ci is not used with --fold"),
    (["evaluate", "--score", "a", "--verbose"], "--verbose goes with --fold"),
    (["evaluate", "--score", "a", "--fold", "fold", "--dask"], "--fold is not available with --dask"),
    (["evaluate", "--scores", "a,b", "--fold", "fold"], "--fold is for binary labels"),
    (["report", "--score", "a", "--fold", "fold", "--model", "m.rwm", "--out", "r.html"],
     "--model is not used with --fold"),
])
def test_options_that_do_not_combine(data, capsys, argv, message):
    rc, out, err = run_cli(capsys, [argv[0], data["path"], "--label", "outcome", *argv[1:]])
    assert rc == 2 and out == "" and err.count("\n") == 1 and message in err, err


def test_with_time_and_event(data, capsys):
    rc, _, err = run_cli(capsys, ["evaluate", data["path"], "--time", "a", "--event", "outcome", "--score", "b",
                                  "--fold", "fold"])
    assert rc == 2 and "--fold is for binary labels (--label)" in err


def test_help_names_the_option(capsys):
    from rankwise.cli import build_parser

    parser = build_parser()
    for command in ("evaluate", "report", "compare"):
        sub = parser._subparsers._group_actions[0].choices[command]
        assert any("--fold" in a.option_strings for a in sub._actions)
    args = parser.parse_args(["evaluate", "x.csv", "--label", "y", "--score", "s"])
    assert args.fold is None and args.verbose is False


def test_variance_unbiased_is_the_librarys(tmp_path):
    """``--variance unbiased`` gives rw.stats.cross_validated(..., variance="unbiased")'s
    numbers; without --fold it is refused (exit 2)."""
    import json
    import subprocess
    import sys

    rng = np.random.default_rng(11)
    n = 120
    y = rng.integers(0, 2, n)
    s = rng.normal(size=n) + y
    fold = np.arange(n) % 4
    path = tmp_path / "d.csv"
    path.write_text("y,s,fold\n" + "".join(f"{a},{b!r},{c}\n" for a, b, c in zip(y, s.tolist(), fold)))
    out = subprocess.run([sys.executable, "-m", "rankwise", "evaluate", str(path), "--label", "y", "--score", "s",
                          "--fold", "fold", "--criteria", "auc", "--variance", "unbiased", "--format", "json"],
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    got = json.loads(out.stdout)
    row = got["rows"][0] if isinstance(got, dict) and "rows" in got else got[0]
    want = rw.stats.cross_validated(y, s, fold, variance="unbiased")
    assert abs(row["std_error"] - want.std_error) <= 1e-12 * want.std_error
    bad = subprocess.run([sys.executable, "-m", "rankwise", "evaluate", str(path), "--label", "y", "--score", "s",
                          "--variance", "unbiased"], capture_output=True, text=True)
    assert bad.returncode == 2 and "--variance goes with --fold" in bad.stderr
