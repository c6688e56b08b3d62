"""``--cluster COL`` of ``rankwise evaluate``, ``compare``, ``points`` and ``report`` (issue 28,
item 4): several rows per sampling unit (the lesions of a patient). The numbers equal the
library's with ``clusters=`` on the same rows (and, for the AUC, Obuchowski's 1997 variance
written out literally), every output states the number of clusters, bad ids and columns are
one-line errors, and without ``--cluster`` nothing changes."""

from __future__ import annotations

import inspect
import warnings

import numpy as np
import pytest

import rankwise as rw
from _support.engines import engine  # noqa: F401  (the fixture)
from _support.reference_clusters import obuchowski_cov, obuchowski_var
from rankwise.cli import _readers, main
from _support.cli import json_cli, run_cli

SPECS = ["auc", "partial_auc:max_fpr=0.1", "local_auc:top=0.1", "pnorm_push:p=4", "dcg:k=20"]
CRITERIA = ",".join(SPECS)


@pytest.fixture
def lesions(tmp_path, monkeypatch):
    """40 patients with 1 to 4 lesions each: text patient ids, a lesion id column, text
    labels, two score columns sharing a patient effect (so rows of a patient correlate)."""
    rng = np.random.default_rng(28)
    patients, ys, a, b = [], [], [], []
    for k in range(40):
        effect = rng.normal()
        for _ in range(rng.integers(1, 5)):
            y = rng.random() < 0.4
            patients.append(f"P{k:03d}")
            ys.append(y)
            a.append(round(float(y + effect + rng.normal()), 2))  # rounded: ties
            b.append(round(float(0.5 * y + effect + rng.normal()), 1))
    lines = ["lesion_id,patient,outcome,a,b"] + [
        f"L{i},{p},{'malignant' if y else 'benign'},{sa!r},{sb!r}"
        for i, (p, y, sa, sb) in enumerate(zip(patients, ys, a, b))]
    (tmp_path / "lesions.csv").write_text("\n".join(lines) + "\n")
    monkeypatch.chdir(tmp_path)
    return {"patient": patients, "y": np.array(ys), "a": np.array(a), "b": np.array(b)}


BASE = ["lesions.csv", "--label", "outcome", "--pos-label", "malignant"]


_run, _json = run_cli, json_cli


def _library(*args, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # FewClustersWarning and the like: the CLI prints them
        return args[0](*args[1:], **kw)


# --- evaluate ------------------------------------------------------------------------------------

def test_evaluate_equals_the_library_over_clusters(lesions, capsys):
    out = _json(capsys, ["evaluate", *BASE, "--score", "a", "--score", "b", "--cluster", "patient",
                         "--criteria", CRITERIA, "--format", "json"])
    G = len(set(lesions["patient"]))
    assert (out["n"], out["n_positive"], out["n_clusters"]) == (len(lesions["y"]), int(lesions["y"].sum()), G)
    assert [(r["score"], r["criterion"]) for r in out["rows"]] == [(c, s) for c in "ab" for s in SPECS]
    for r in out["rows"]:
        est = _library(rw.stats.estimate, lesions["y"], lesions[r["score"]], r["criterion"],
                       clusters=lesions["patient"])
        plain = _library(rw.stats.estimate, lesions["y"], lesions[r["score"]], r["criterion"])
        ci = est.confidence_interval(0.95)
        assert est.n_clusters == G
        assert r["value"] == pytest.approx(est.value, rel=1e-14)
        assert r["std_error"] == pytest.approx(est.std_error, rel=1e-12)
        assert (r["low"], r["high"]) == pytest.approx((ci.low, ci.high), rel=1e-12)
        assert r["std_error"] != pytest.approx(plain.std_error, rel=1e-6)  # the clusters did change it
    # the AUC's standard error is Obuchowski's, written out pair by pair and cluster by cluster
    y01 = lesions["y"].astype(int)
    for r in out["rows"]:
        if r["criterion"] == "auc":
            assert r["std_error"] == pytest.approx(np.sqrt(obuchowski_var(y01, lesions[r["score"]],
                                                                           lesions["patient"])), rel=1e-10)


def test_evaluate_bootstrap_resamples_clusters(lesions, capsys):
    out = _json(capsys, ["evaluate", *BASE, "--score", "a", "--cluster", "patient", "--criteria", "auc",
                         "--ci", "bootstrap", "--resamples", "300", "--seed", "5", "--format", "json"])
    (r,) = out["rows"]
    est = _library(rw.stats.estimate, lesions["y"], lesions["a"], "auc", clusters=lesions["patient"])
    ci = _library(est.confidence_interval, 0.95, method="bootstrap", n_resamples=300, random_state=5)
    plain = _library(rw.stats.estimate, lesions["y"], lesions["a"], "auc")
    ci0 = _library(plain.confidence_interval, 0.95, method="bootstrap", n_resamples=300, random_state=5)
    assert (r["low"], r["high"], r["std_error"]) == pytest.approx((ci.low, ci.high, ci.std_error), rel=1e-12)
    assert (r["low"], r["high"]) != pytest.approx((ci0.low, ci0.high), rel=1e-6)


def test_ranking_risk_over_clusters_is_labelled_hajek(lesions, capsys):
    # with clusters only the Hajek (projection) part has a sandwich form: the row must not
    # claim the default hoeffding method of ranking_risk
    out = _json(capsys, ["evaluate", *BASE, "--score", "a", "--cluster", "patient", "--criteria",
                         "ranking_risk", "--format", "json"])
    (r,) = out["rows"]
    est = _library(rw.stats.estimate, lesions["y"], lesions["a"], "ranking_risk", clusters=lesions["patient"])
    assert r["method"] == est.method == "hajek"
    assert r["std_error"] == pytest.approx(est.std_error, rel=1e-12)


def test_evaluate_outputs_state_the_clusters(lesions, capsys):
    G = len(set(lesions["patient"]))
    rc, out, err = _run(capsys, ["evaluate", *BASE, "--score", "a", "--cluster", "patient", "--criteria", "auc"])
    assert rc == 0
    assert f"standard errors and resamples over {G} clusters" in out
    assert f"clusters = {G})" in out.splitlines()[-1]
    rc, out, _ = _run(capsys, ["evaluate", *BASE, "--score", "a", "--cluster", "patient", "--criteria", "auc",
                               "--format", "csv"])
    head, row = out.splitlines()
    assert head.split(",")[-4:] == ["positive_label", "n", "n_positive", "n_clusters"]
    assert row.split(",")[-1] == str(G)
    # values alone: no standard error to speak of, the count still stated
    rc, out, _ = _run(capsys, ["evaluate", *BASE, "--score", "a", "--cluster", "patient", "--ci", "none"])
    assert rc == 0 and "standard errors" not in out and f"clusters = {G})" in out


def test_one_row_per_cluster_gives_the_unclustered_numbers(lesions, capsys):
    # the lesion id as the cluster: every row its own unit, the numbers of no --cluster
    argv = ["evaluate", *BASE, "--score", "a", "--score", "b", "--criteria", "auc,pnorm_push:p=4",
            "--format", "json"]
    plain = _json(capsys, argv)
    each = _json(capsys, argv + ["--cluster", "lesion_id"])
    assert each["n_clusters"] == each["n"] == len(lesions["y"])
    for r0, r1 in zip(plain["rows"], each["rows"]):
        assert r1["value"] == r0["value"]
        assert r1["std_error"] == pytest.approx(r0["std_error"], rel=1e-10)


def test_few_clusters_warning_once(tmp_path, capsys):
    p = tmp_path / "few.csv"
    p.write_text("g,y,s,t\n" + "".join(f"G{i % 4},{i % 2},{i / 10},{(i * 7) % 12}\n" for i in range(12)))
    for command, extra in (("evaluate", []), ("points", ["--resamples", "20"])):
        rc = main([command, str(p), "--label", "y", "--score", "s", "--score", "t", "--cluster", "g", *extra])
        out, err = capsys.readouterr()
        assert rc == 0
        lines = err.splitlines()
        # one line for each class, however many criteria and columns: the data's problem,
        # not a function's (no "estimate('auc'): ", no "operating_points: ")
        assert len(lines) == 2 and all(ln.startswith(f"rankwise {command}: warning: the ") for ln in lines), err
        assert all(ln.endswith("[FewClustersWarning]") for ln in lines)


# --- compare -------------------------------------------------------------------------------------

def test_compare_equals_the_library_over_clusters(lesions, capsys):
    out = _json(capsys, ["compare", *BASE, "--score", "a", "--score", "b", "--cluster", "patient",
                         "--format", "json"])
    cmp_ = _library(rw.stats.compare, lesions["y"], {"a": lesions["a"], "b": lesions["b"]}, "auc",
                    clusters=lesions["patient"])
    G = len(set(lesions["patient"]))
    assert out["n_clusters"] == cmp_.n_clusters == G
    np.testing.assert_allclose(out["values"], cmp_.values, rtol=1e-14)
    np.testing.assert_allclose(out["cov"], cmp_.cov, rtol=1e-12)
    np.testing.assert_allclose(out["cov"], obuchowski_cov(lesions["y"].astype(int), [lesions["a"], lesions["b"]],
                                                          lesions["patient"]), rtol=1e-10)
    assert out["pairs"][0]["p_value"] == pytest.approx(cmp_.pairs[0].p_value, rel=1e-12)
    rc, text, _ = _run(capsys, ["compare", *BASE, "--score", "a", "--score", "b", "--cluster", "patient"])
    assert rc == 0 and f"standard errors over {G} clusters" in text and f"clusters = {G})" in text
    rc, csv, _ = _run(capsys, ["compare", *BASE, "--score", "a", "--score", "b", "--cluster", "patient",
                               "--format", "csv"])
    head, row = csv.splitlines()
    assert head.endswith(",n_clusters") and row.endswith(f",{G}")


# --- points --------------------------------------------------------------------------------------

def _takes_clusters(func) -> bool:
    return "clusters" in inspect.signature(func).parameters


@pytest.mark.skipif(not _takes_clusters(rw.stats.operating_points),
                    reason="rw.stats.operating_points has no clusters= yet")
def test_points_equal_the_library_over_clusters(lesions, capsys):
    out = _json(capsys, ["points", *BASE, "--score", "a", "--cluster", "patient", "--fpr", "0.1,0.3",
                         "--resamples", "200", "--seed", "2", "--format", "json"])
    assert out["n_clusters"] == len(set(lesions["patient"]))
    est = _library(rw.stats.operating_points, lesions["y"], lesions["a"], fpr=[0.1, 0.3],
                   clusters=lesions["patient"])
    ci = _library(est.confidence_interval, 0.95, n_resamples=200, random_state=2).to_rows()
    for j, r in enumerate(out["rows"]):
        for key in ("tpr", "fpr", "precision"):
            assert r[key] == pytest.approx(getattr(est, key)[j], abs=1e-15)
            assert r[f"{key}_low"] == pytest.approx(ci[j][f"{key}_low"], abs=1e-15)
            assert r[f"{key}_high"] == pytest.approx(ci[j][f"{key}_high"], abs=1e-15)


# --- report --------------------------------------------------------------------------------------

def test_report_gets_the_aligned_clusters(lesions, capsys, monkeypatch):
    # what the command hands to write_report: the rows' cluster codes and the column's name
    import rankwise.report as report
    from rankwise._validation import check_clusters

    seen = {}

    def fake(path, **kw):
        seen.update(kw)
        return {}
    monkeypatch.setattr(report, "write_report", fake)
    assert main(["report", *BASE, "--score", "a", "--cluster", "patient", "--out", "r.html", "--quiet"]) == 0
    codes, G = check_clusters(lesions["patient"], len(lesions["patient"]))
    np.testing.assert_array_equal(seen["clusters"], codes)
    assert seen["data"]["clusters"] == "patient"
    seen.clear()
    assert main(["report", *BASE, "--score", "a", "--out", "r2.html", "--quiet"]) == 0
    assert "clusters" not in seen and "clusters" not in seen["data"]


@pytest.mark.skipif(not _takes_clusters(rw.stats.roc_band), reason="rw.stats.roc_band has no clusters= yet")
def test_report_over_clusters(lesions, capsys):
    G = len(set(lesions["patient"]))
    rc, _, err = _run(capsys, ["report", *BASE, "--score", "a", "--score", "b", "--cluster", "patient",
                               "--out", "r.html", "--resamples", "50", "--quiet"])
    assert rc == 0, err
    page = open("r.html", encoding="utf-8").read()
    assert f"{G} clusters" in page and "patient" in page


# --- errors --------------------------------------------------------------------------------------

def _error(capsys, argv, command="evaluate"):
    rc, out, err = _run(capsys, argv)
    lines = err.strip().splitlines()
    assert rc == 1 and out == "" and len(lines) == 1, err
    assert lines[0].startswith(f"rankwise {command}: error: ")
    return lines[0]


def test_missing_cluster_id_names_column_and_rows(tmp_path, capsys, engine):
    p = tmp_path / "m.csv"
    p.write_text("patient,y,s,t\nP1,1,0.9,1\n,0,0.3,2\nP2,1,0.7,3\nP3,0,0.2,4\n,0,0.4,5\nP3,1,0.5,6\n")
    for command in ("evaluate", "compare", "points"):
        scores = ["--score", "s"] + (["--score", "t"] if command == "compare" else [])
        line = _error(capsys, [command, str(p), "--label", "y", *scores, "--cluster", "patient"], command)
        assert "column 'patient' has missing cluster ids at rows 2, 5" in line


def test_missing_numeric_cluster_id(tmp_path, capsys):
    p = tmp_path / "m.csv"
    p.write_text("site,y,s\n1,1,0.9\n1,0,0.3\n,1,0.7\n2,0,0.2\n")
    line = _error(capsys, ["evaluate", str(p), "--label", "y", "--score", "s", "--cluster", "site"])
    assert "'site'" in line and "rows 3" in line


def test_bad_cluster_columns(lesions, capsys):
    line = _error(capsys, ["evaluate", *BASE, "--score", "a", "--cluster", "hospital"])
    assert "'hospital'" in line and "patient" in line  # the columns there are
    line = _error(capsys, ["evaluate", *BASE, "--score", "a", "--cluster", "outcome"])
    assert "--cluster names the label column 'outcome'" in line
    line = _error(capsys, ["compare", *BASE, "--score", "a", "--score", "b", "--cluster", "4"], "compare")
    assert "--cluster names the score column 'b'" in line  # by position, as any column


def test_missing_score_is_refused_with_or_without_clusters(lesions, tmp_path, capsys):
    # no row is dropped: a missing score is an error naming its row, so ids cannot misalign
    text = (tmp_path / "lesions.csv").read_text().splitlines()
    fields = text[3].split(",")
    fields[3] = ""
    text[3] = ",".join(fields)
    (tmp_path / "holes.csv").write_text("\n".join(text) + "\n")
    argv = ["evaluate", "holes.csv", "--label", "outcome", "--pos-label", "malignant", "--score", "a"]
    plain = _error(capsys, argv)
    clustered = _error(capsys, argv + ["--cluster", "patient"])
    assert clustered == plain and "'a'" in plain and "rows 3" in plain


def test_cluster_with_dask_is_a_usage_error(lesions, capsys):
    for flag in (["--dask"], ["--scheduler", "tcp://127.0.0.1:1"]):
        with pytest.raises(SystemExit) as exc:
            main(["evaluate", *BASE, "--score", "a", "--cluster", "patient", *flag])
        assert exc.value.code == 2
        assert "--cluster is not supported with" in capsys.readouterr().err


# --- ids -----------------------------------------------------------------------------------------

def test_ids_as_written_and_of_any_type(tmp_path, engine):
    p = tmp_path / "ids.csv"
    p.write_text("txt,num,y\n007,3,1\n7,3,0\n007,5,1\nNA,5,0\n1.0,3,1\n1,9,0\n")
    t = _readers.read_table(str(p), columns=["y"])
    codes, G = t.ids("txt")  # as written: 007 and 7, 1.0 and 1 differ; NA is an id here
    assert G == 5 and codes.tolist() == [0, 1, 0, 2, 3, 4]
    codes, G = t.ids("num")
    assert G == 3 and codes.tolist() == [0, 0, 1, 1, 0, 2]


def test_ids_from_a_binary_format(tmp_path):
    p = tmp_path / "ids.npz"
    np.savez(p, g=np.array([4.0, 4.0, 2.0, 9.0]), y=np.array([1, 0, 1, 0]))
    codes, G = _readers.read_table(str(p)).ids("g")
    assert G == 3 and codes.tolist() == [0, 0, 1, 2]
    np.savez(p, g=np.array([4.0, np.nan, 2.0, np.nan]), y=np.array([1, 0, 1, 0]))
    with pytest.raises(ValueError, match=r"column 'g' has missing cluster ids at rows 2, 4"):
        _readers.read_table(str(p)).ids("g")


# --- without --cluster ---------------------------------------------------------------------------

def test_without_cluster_nothing_changes(lesions, capsys):
    for argv in (["evaluate", *BASE, "--score", "a", "--criteria", "auc"],
                 ["compare", *BASE, "--score", "a", "--score", "b"],
                 ["points", *BASE, "--score", "a", "--resamples", "20"]):
        rc, text, _ = _run(capsys, argv)
        assert rc == 0 and "cluster" not in text
        out = _json(capsys, argv + ["--format", "json"])
        assert "n_clusters" not in out
        rc, csv, _ = _run(capsys, argv + ["--format", "csv"])
        assert csv.splitlines()[0].endswith(",positive_label,n,n_positive")
    out = _json(capsys, ["evaluate", *BASE, "--score", "a", "--criteria", "auc", "--format", "json"])
    est = rw.stats.estimate(lesions["y"], lesions["a"])
    assert out["rows"][0]["std_error"] == pytest.approx(est.std_error, rel=1e-14)
