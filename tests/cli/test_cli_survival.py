"""``--time COL --event COL`` on ``rankwise evaluate``, ``compare`` and ``report`` (issue 30,
item 4): on a CSV with an id column, text events and ties, every number equals
rw.survival.estimate's / compare's on the same rows (Harrell's and Uno's C, with --tau,
--strata and --cluster); every output says higher risk = earlier event; missing values,
negative times, events that are not 0/1 and misused options are one-line errors."""

from __future__ import annotations

import csv
import io

import numpy as np
import pytest

import rankwise as rw
from _support.engines import engine  # noqa: F401  (the fixture)
from rankwise.cli import main
from _support.cli import json_cli, run_cli


@pytest.fixture
def clinic(tmp_path, monkeypatch):
    """90 patients: an id, a site (strata), a hospital (clusters of 3), the follow-up time
    (rounded: tied times), the status as text (dead/alive), two risk scores (rounded: tied
    risks); the risk of model_a drives the hazard."""
    rng = np.random.default_rng(30)
    n = 90
    x = rng.normal(size=n)
    t = rng.exponential(np.exp(-x))
    c = rng.exponential(1.5, n)
    time = np.round(np.minimum(t, c), 1)
    event = t <= c
    a = np.round(x + rng.normal(0, 0.6, n), 1)
    b = np.round(x + rng.normal(0, 1.5, n), 0)
    site = np.array(["north", "south", "east"])[rng.integers(0, 3, n)]
    hospital = np.repeat([f"H{k:02d}" for k in range(30)], 3)
    lines = ["id,site,hospital,time,status,model_a,model_b"] + [
        f"P{i:03d},{site[i]},{hospital[i]},{float(time[i])!r},{'dead' if event[i] else 'alive'},"
        f"{float(a[i])!r},{float(b[i])!r}"
        for i in range(n)]
    (tmp_path / "clinic.csv").write_text("\n".join(lines) + "\n")
    monkeypatch.chdir(tmp_path)
    return {"time": time, "event": event, "a": a, "b": b, "site": site, "hospital": hospital, "lines": lines}


BASE = ["clinic.csv", "--time", "time", "--event", "status", "--event-value", "dead"]
TWO = ["--score", "model_a", "--score", "model_b"]


_run, _json = run_cli, json_cli


def _one_line_error(capsys, argv, command="evaluate", status=1):
    rc, out, err = _run(capsys, argv)
    assert rc == status and out == "", (rc, out, err)
    assert err.count("\n") == 1 and err.startswith(f"rankwise {command}: error: ") and "Traceback" not in err
    return err


# --- evaluate ------------------------------------------------------------------------------------

@pytest.mark.parametrize("extra, kw", [
    ([], {}),
    (["--tau", "1.2"], {"tau": 1.2}),
    (["--strata", "site"], {"strata": "site"}),
    (["--cluster", "hospital"], {"clusters": "hospital"}),
    (["--strata", "site", "--cluster", "hospital", "--tau", "2", "--level", "0.9"],
     {"strata": "site", "clusters": "hospital", "tau": 2.0, "level": 0.9}),
])
def test_evaluate_gives_the_library_numbers(clinic, capsys, extra, kw):
    out = _json(capsys, ["evaluate", *BASE, *TWO, "--format", "json", *extra])
    d = clinic
    level = kw.pop("level", 0.95)
    lib = {k: (d[v] if k in ("strata", "clusters") else v) for k, v in kw.items()}
    assert (out["n"], out["n_events"], out["n_censored"]) == (90, int(d["event"].sum()), 90 - int(d["event"].sum()))
    assert out["event_value"] == "dead" and out["censored_values"] == ["alive"]
    assert out["risk_scores"] == "higher risk = earlier event"
    assert (out["time_column"], out["event_column"]) == ("time", "status")
    assert [(r["score"], r["concordance"]) for r in out["rows"]] == [
        ("model_a", "harrell"), ("model_a", "uno"), ("model_b", "harrell"), ("model_b", "uno")]
    for r in out["rows"]:
        est = rw.survival.estimate(d["time"], d["event"], d["a" if r["score"] == "model_a" else "b"],
                                   weighting=r["concordance"], **lib)
        ci = est.confidence_interval(level)
        assert (r["value"], r["std_error"], r["low"], r["high"]) == (est.value, est.std_error, ci.low, ci.high)
        assert r["comparable"] == est.comparable and r["method"] == "ij"
    if "clusters" in kw:
        assert out["n_clusters"] == 30
    if "strata" in kw:
        assert (out["strata_column"], out["n_strata"]) == ("site", 3)
    if "tau" in kw:
        assert out["tau"] == kw["tau"]


def test_the_table_says_the_direction_and_the_counts(clinic, capsys):
    rc, out, err = _run(capsys, ["evaluate", *BASE, *TWO])
    assert rc == 0, err
    lines = out.splitlines()
    assert lines[0] == "concordance of each risk score with the censored times (higher risk = earlier event)"
    est = rw.survival.estimate(clinic["time"], clinic["event"], clinic["a"], weighting="uno")
    row = next(line for line in lines if line.startswith("model_a") and "Uno's C" in line)
    assert f"{est.value:.4f}" in row and f"{est.std_error:.4f}" in row and f"{int(est.comparable):,}" in row
    k = int(clinic["event"].sum())
    assert lines[-1] == (f"time column 'time', event column 'status' (event when = 'dead', censored when 'alive'): "
                         f"n = 90, events = {k}, censored = {90 - k}")
    assert any(line.startswith("standard errors: infinitesimal jackknife") for line in lines)


def test_csv_output(clinic, capsys):
    rc, out, err = _run(capsys, ["evaluate", *BASE, "--score", "model_b", "--format", "csv", "--concordance", "uno"])
    assert rc == 0, err
    rows = list(csv.DictReader(io.StringIO(out)))
    assert len(rows) == 1 and rows[0]["concordance"] == "uno" and rows[0]["event_value"] == "dead"
    est = rw.survival.estimate(clinic["time"], clinic["event"], clinic["b"], weighting="uno")
    assert float(rows[0]["value"]) == est.value and float(rows[0]["std_error"]) == est.std_error
    assert int(rows[0]["n"]) == 90 and int(rows[0]["n_events"]) == int(clinic["event"].sum())


@pytest.mark.parametrize("coding", ["01", "truefalse", "TRUEFALSE", "12", "text"])
def test_event_codings(clinic, tmp_path, capsys, coding, engine):  # noqa: F811
    words = {"01": ("1", "0"), "truefalse": ("true", "false"), "TRUEFALSE": ("TRUE", "FALSE"), "12": ("2", "1"),
             "text": ("dead", "alive")}
    dead, alive = words[coding]
    text = "\n".join(clinic["lines"]).replace(",dead,", f",{dead},").replace(",alive,", f",{alive},")
    (tmp_path / "coded.csv").write_text(text + "\n")
    argv = ["evaluate", "coded.csv", "--time", "time", "--event", "status", "--score", "model_a", "--format", "json"]
    if coding in ("12", "text"):  # R's status coding: 1 = censored, 2 = dead; never guessed
        err = _one_line_error(capsys, argv)
        assert f"holds {alive}, {dead}; they are not 0/1 or true/false, so pass --event-value" in err
        argv += ["--event-value", dead]
    out = _json(capsys, argv)
    est = rw.survival.estimate(clinic["time"], clinic["event"], clinic["a"])
    assert out["rows"][0]["value"] == est.value and out["n_events"] == int(clinic["event"].sum())


# --- compare -------------------------------------------------------------------------------------

@pytest.mark.parametrize("extra, kw", [([], {}), (["--cluster", "hospital", "--tau", "1.5"],
                                                  {"clusters": "hospital", "tau": 1.5})])
def test_compare_gives_the_library_comparison(clinic, capsys, extra, kw):
    out = _json(capsys, ["compare", *BASE, *TWO, "--format", "json", *extra])
    lib = {k: (clinic[v] if k == "clusters" else v) for k, v in kw.items()}
    assert [c["concordance"] for c in out["comparisons"]] == ["harrell", "uno"]
    for c in out["comparisons"]:
        ref = rw.survival.compare(clinic["time"], clinic["event"], {"model_a": clinic["a"], "model_b": clinic["b"]},
                                  weighting=c["concordance"], **lib)
        assert c["values"] == ref.values.tolist() and c["cov"] == ref.cov.tolist()
        assert c["pairs"] == [p._asdict() for p in ref.pairs] and c["adjust"] == "holm"
        assert c["global"]["p_value"] == ref.global_p_value


def test_compare_table_and_csv(clinic, capsys):
    rc, out, err = _run(capsys, ["compare", *BASE, *TWO])
    assert rc == 0, err
    assert "Harrell's C of each risk score (higher risk = earlier event), compared" in out
    assert "Uno's C of each risk score (higher risk = earlier event), compared" in out
    assert "model_a - model_b" in out
    rc, out, err = _run(capsys, ["compare", *BASE, *TWO, "--format", "csv", "--concordance", "harrell"])
    rows = list(csv.DictReader(io.StringIO(out)))
    ref = rw.survival.compare(clinic["time"], clinic["event"], {"model_a": clinic["a"], "model_b": clinic["b"]})
    assert len(rows) == 1 and rows[0]["concordance"] == "harrell"
    assert float(rows[0]["p_adjusted"]) == ref.pairs[0].p_adjusted


def test_compare_needs_two_scores(clinic, capsys):
    err = _one_line_error(capsys, ["compare", *BASE, "--score", "model_a"], "compare")
    assert "at least two --score" in err


# --- bad data: one line, exit 1 ------------------------------------------------------------------

@pytest.mark.parametrize("column, field, message", [
    (3, "", "column 'time' has NaN or infinite values at rows 5"),
    (4, "", "column 'status' has empty values at rows 5"),
    (5, "", "column 'model_a' has NaN or infinite values at rows 5"),
    (3, "-1.5", "column 'time' (--time) has negative times at rows 5; follow-up times are >= 0"),
    (3, "soon", "column 'time' has non-numeric values at rows 5"),
])
def test_a_bad_value_is_one_line_naming_column_and_row(clinic, tmp_path, capsys, column, field, message,
                                                       engine):  # noqa: F811
    lines = list(clinic["lines"])
    cells = lines[5].split(",")
    cells[column] = field
    lines[5] = ",".join(cells)
    (tmp_path / "bad.csv").write_text("\n".join(lines) + "\n")
    err = _one_line_error(capsys, ["evaluate", "bad.csv", *BASE[1:], *TWO])
    assert message in err


@pytest.mark.parametrize("argv, message", [
    (["--event-value", "deceased"], "--event-value 'deceased' is not a value of the event column 'status' "
                                    "(alive, dead)"),
    (["--event-value", "dead", "--tau", "99"], "--tau must be a time in (0, "),
    (["--event-value", "dead", "--score", "time"], "--score names the time column 'time'"),
    (["--event-value", "dead", "--cluster", "status"], "--cluster names the event column 'status'"),
    ([], "holds alive, dead; they are not 0/1 or true/false, so pass --event-value to say which value means the "
         "event (e.g. --event-value dead)"),
])
def test_bad_columns_and_values(clinic, capsys, argv, message):
    err = _one_line_error(capsys, ["evaluate", "clinic.csv", "--time", "time", "--event", "status",
                                   "--score", "model_a", *argv])
    assert message in err


# --- usage: one line, exit 2 ---------------------------------------------------------------------

@pytest.mark.parametrize("command, argv, message", [
    ("evaluate", ["clinic.csv", "--time", "time", "--score", "model_a"], "--time needs --event"),
    ("evaluate", ["clinic.csv", "--event", "status", "--score", "model_a"], "--event needs --time"),
    ("evaluate", ["clinic.csv", "--score", "model_a"], "give --label COL (binary labels) or --time COL and --event"),
    ("compare", ["clinic.csv", "--label", "status", "--time", "time", "--event", "status", *TWO],
     "--label and --time/--event do not combine"),
    ("evaluate", ["clinic.csv", "--label", "status", "--pos-label", "dead", "--score", "model_a", "--tau", "1"],
     "--tau goes with --time and --event"),
    ("evaluate", [*BASE, "--score", "model_a", "--dask"], "--time/--event are not supported with --dask yet"),
    ("evaluate", [*BASE, "--score", "model_a", "--criteria", "auc"], "--criteria is not used with --time"),
    ("evaluate", [*BASE, "--score", "model_a", "--ci", "bootstrap"], "--ci is not used with --time"),
    ("evaluate", [*BASE, "--score", "model_a", "--pos-label", "dead"], "--pos-label is not used with --time"),
    ("compare", [*BASE, *TWO, "--group", "site"], "--group is not used with --time"),
    ("compare", [*BASE, *TWO, "--strata", "site", "--weighting", "size"], "--weighting is not used with --time"),
    ("report", [*BASE, *TWO, "--model", "m.rwm", "--out", "r.html"], "--model is not used with --time"),
])
def test_misused_options_exit_2(clinic, capsys, command, argv, message):
    err = _one_line_error(capsys, [command, *argv], command, status=2)
    assert message in err


def test_help_says_the_direction(capsys):
    for command in ("evaluate", "compare", "report"):
        with pytest.raises(SystemExit):
            main([command, "--help"])
        out = " ".join(capsys.readouterr().out.split())
        assert "--time COL" in out and "--event-value VALUE" in out and "--concordance {harrell,uno,both}" in out
        assert "higher = earlier event" in out and "higher risk = earlier event" in out


# --- report --------------------------------------------------------------------------------------

def test_report_has_the_survival_section(clinic, capsys, tmp_path):
    rc, out, err = _run(capsys, ["report", *BASE, *TWO, "--strata", "site", "--out", "r.html", "--quiet"])
    assert rc == 0, err
    page = (tmp_path / "r.html").read_text(encoding="utf-8")
    assert '<section id="survival">' in page and "higher risk = earlier event" in page
    assert "<code>status</code> = dead" in page and 'id="overview"' not in page
    for w in ("harrell", "uno"):
        est = rw.survival.estimate(clinic["time"], clinic["event"], clinic["a"], weighting=w, strata=clinic["site"])
        assert f'data-value="{est.value!r}"' in page
    assert not (tmp_path / "r_files").exists()  # no figure yet: none written, none announced
    assert "PNG files" not in page


def test_the_binary_commands_are_unchanged(clinic, capsys):
    out = _json(capsys, ["evaluate", "clinic.csv", "--label", "status", "--pos-label", "dead", "--score", "model_a",
                         "--criteria", "auc", "--format", "json"])
    assert out["rows"][0]["value"] == rw.auc(clinic["event"], clinic["a"])
    err = _one_line_error(capsys, ["report", "clinic.csv", "--label", "status", "--pos-label", "dead", "--score",
                                   "model_a", "--strata", "site", "--out", "r.html"], "report", status=2)
    assert "--strata is not offered by report" in err
