"""``--times`` on ``rankwise evaluate``, ``compare`` and ``report`` with ``--time/--event``
(issue 30, items 3-4): the AUC(t) of every risk score in the JSON equals
rw.survival.cumulative_dynamic_auc's on the same rows, the differences
compare_cumulative_dynamic_auc's; the CSV holds one row per score and time plus the mean;
the table a block per score; bad times are one-line errors (exit 1)."""

from __future__ import annotations

import csv
import io

import numpy as np
import pytest

import rankwise as rw
from rankwise.cli import main
from rankwise.report import auto_times
from _support.cli import json_cli, run_cli


@pytest.fixture
def trial(tmp_path, monkeypatch):
    """120 rows: the time (rounded: ties), the status coded 1 = censored, 2 = dead (R's
    lung), a hospital (clusters of 4), a site, two risk scores with tied values."""
    rng = np.random.default_rng(300)
    n = 120
    x = rng.normal(size=n)
    t = rng.exponential(np.exp(-x))
    c = rng.exponential(1.5, n)
    time = np.round(np.minimum(t, c), 2) + 0.05  # the first event after 0.001
    event = t <= c
    a = np.round(x + rng.normal(0, 0.6, n), 1)
    b = np.round(x + rng.normal(0, 1.5, n), 0)
    hospital = np.repeat(np.arange(30), 4)
    site = np.array(["n", "s"])[rng.integers(0, 2, n)]
    lines = ["time,status,model_a,model_b,hospital,site"] + [
        f"{float(time[i])!r},{2 if event[i] else 1},{float(a[i])!r},{float(b[i])!r},H{hospital[i]},{site[i]}"
        for i in range(n)]
    (tmp_path / "trial.csv").write_text("\n".join(lines) + "\n")
    monkeypatch.chdir(tmp_path)
    return {"time": time, "event": event, "model_a": a, "model_b": b, "hospital": hospital}


BASE = ["trial.csv", "--time", "time", "--event", "status", "--event-value", "2"]
TWO = ["--score", "model_a", "--score", "model_b"]


_run, _json = run_cli, json_cli


def _check_auc(got: dict, ref, level: float):
    lo, hi = ref.confidence_intervals(level)
    m = ref.mean_confidence_interval(level)
    assert got["times"] == ref.times.tolist() and got["values"] == ref.values.tolist()
    assert got["std_errors"] == ref.std_errors.tolist()
    assert (got["ci_low"], got["ci_high"], got["confidence_level"]) == (lo.tolist(), hi.tolist(), level)
    assert got["n_cases"] == ref.n_cases.tolist() and got["n_controls"] == ref.n_controls.tolist()
    assert (got["mean_value"], got["mean_std_error"], got["mean_low"], got["mean_high"]) == (
        ref.mean_value, ref.mean_std_error, m.low, m.high)
    assert got["direction"] == "higher risk = earlier event"


@pytest.mark.parametrize("scores, extra, kw, level", [
    (["model_a"], [], {}, 0.95),
    (["model_a", "model_b"], ["--level", "0.9"], {}, 0.9),
    (["model_b", "model_a"], ["--cluster", "hospital"], {"clusters": "hospital"}, 0.95),
    (["model_a", "model_b"], ["--tau", "1.0", "--concordance", "uno"], {}, 0.95),  # tau: Cs only
])
def test_evaluate_json_is_the_librarys_auc(trial, capsys, scores, extra, kw, level):
    argv = ["evaluate", *BASE, *(x for s in scores for x in ("--score", s)), "--times", "1.5,0.3,0.8,0.3",
            "--format", "json", *extra]
    out = _json(capsys, argv)
    ta = out["time_dependent_auc"]
    assert ta["times"] == [0.3, 0.8, 1.5] and ta["how"] == "given" and ta["confidence_level"] == level
    assert [e["score"] for e in ta["estimates"]] == scores and "differences" not in ta
    lib = {k: trial[v] for k, v in kw.items()}
    for e in ta["estimates"]:
        ref = rw.survival.cumulative_dynamic_auc(trial["time"], trial["event"], trial[e["score"]], [0.3, 0.8, 1.5],
                                                 **lib)
        _check_auc(e, ref, level)
        assert e["n_clusters"] == (30 if kw else None)
    assert len(out["rows"]) == len(scores) * (1 if "uno" in extra else 2)  # the Cs are still there


def test_auto_times_are_rounded_event_quantiles_inside_the_follow_up(trial, capsys):
    out = _json(capsys, ["evaluate", *BASE, *TWO, "--times", "auto", "--format", "json"])
    ta = out["time_dependent_auc"]
    t, e = trial["time"], trial["event"]
    q = np.quantile(t[e], [0.1, 0.25, 0.5, 0.75])
    assert ta["how"] == "auto" and ta["times"] == auto_times(t, e) and len(ta["times"]) == 4
    for shown, exact in zip(ta["times"], q):
        assert shown == float(f"{exact:.2g}") and t[e].min() <= shown < t.max()
    ref = rw.survival.cumulative_dynamic_auc(t, e, trial["model_b"], ta["times"])
    _check_auc(ta["estimates"][1], ref, 0.95)


def test_auto_times_rule():
    assert auto_times([1.234, 2.5, 3.75, 4.1, 5.05, 9.0], [1, 1, 1, 1, 1, 0]) == [1.7, 2.5, 3.8, 4.1]
    # the rounding would leave the follow-up (first event at 1.04): more digits are kept
    assert auto_times([1.04, 1.04, 1.04, 1.04, 2.0], [1, 1, 1, 1, 0]) == [1.04]
    assert auto_times([1.0, 2.0], [0, 0]) == []  # no event
    assert auto_times([3.0, 3.0], [1, 1]) == []  # no row followed beyond any event time


def test_csv_has_a_row_per_score_and_time_and_the_mean(trial, capsys):
    rc, out, err = _run(capsys, ["evaluate", *BASE, *TWO, "--times", "0.5,1", "--format", "csv"])
    assert rc == 0, err
    rows = list(csv.DictReader(io.StringIO(out)))
    assert list(rows[0])[:11] == ["score", "criterion", "time", "value", "low", "high", "std_error", "method",
                                  "comparable", "cases", "controls"]
    assert [(r["score"], r["criterion"], r["time"]) for r in rows] == [
        ("model_a", "harrell", ""), ("model_a", "uno", ""), ("model_b", "harrell", ""), ("model_b", "uno", ""),
        ("model_a", "auc(t)", "0.5"), ("model_a", "auc(t)", "1.0"), ("model_a", "mean auc(t)", ""),
        ("model_b", "auc(t)", "0.5"), ("model_b", "auc(t)", "1.0"), ("model_b", "mean auc(t)", "")]
    ref = rw.survival.cumulative_dynamic_auc(trial["time"], trial["event"], trial["model_b"], [0.5, 1.0])
    lo, hi = ref.confidence_intervals(0.95)
    r = rows[8]
    assert (float(r["value"]), float(r["low"]), float(r["high"]), float(r["std_error"])) == (
        ref.values[1], lo[1], hi[1], ref.std_errors[1])
    assert (float(r["cases"]), float(r["controls"]), r["method"]) == (ref.n_cases[1], ref.n_controls[1], "iid")
    assert float(rows[9]["value"]) == ref.mean_value and float(rows[9]["std_error"]) == ref.mean_std_error
    assert all(r["event_value"] == "2" and r["n"] == "120" for r in rows)


def test_csv_without_times_is_unchanged(trial, capsys):
    rc, out, err = _run(capsys, ["evaluate", *BASE, "--score", "model_a", "--format", "csv"])
    assert rc == 0, err
    assert out.splitlines()[0].startswith("score,concordance,value,low,high,std_error,method,comparable,")


def test_table_has_a_block_per_score(trial, capsys):
    rc, out, err = _run(capsys, ["evaluate", *BASE, *TWO, "--times", "0.5,1", "--tau", "1.2"])
    assert rc == 0, err
    lines = out.splitlines()
    ref = rw.survival.cumulative_dynamic_auc(trial["time"], trial["event"], trial["model_a"], [0.5, 1.0])
    lo, hi = ref.confidence_intervals(0.95)
    start = lines.index("AUC(t) of model_a (higher risk = earlier event)")
    assert lines.index("AUC(t) of model_b (higher risk = earlier event)") > start
    row = lines[start + 4].split()
    assert row == ["1", f"{ref.values[1]:.4f}", f"{lo[1]:.4f}", f"{hi[1]:.4f}", f"{ref.std_errors[1]:.4f}",
                   f"{int(ref.n_cases[1])}", f"{int(ref.n_controls[1])}"]
    assert lines[start + 5].split()[:2] == ["mean", f"{ref.mean_value:.4f}"]
    assert "--tau truncates the concordance pairs only; it does not apply to AUC(t)" in lines
    assert lines[-1].startswith("time column 'time', event column 'status'")


@pytest.mark.parametrize("reference", [None, "model_a"])
def test_compare_gives_the_librarys_differences(trial, capsys, reference):
    extra = [] if reference is None else ["--reference", reference]
    out = _json(capsys, ["compare", *BASE, *TWO, "--times", "0.4,1.2", "--format", "json", "--level", "0.9",
                         "--cluster", "hospital", *extra])
    ta = out["time_dependent_auc"]
    ref = rw.survival.compare_cumulative_dynamic_auc(
        trial["time"], trial["event"], {"model_a": trial["model_a"], "model_b": trial["model_b"]}, [0.4, 1.2],
        clusters=trial["hospital"], confidence_level=0.9)
    for e, a in zip(ta["estimates"], ref.aucs):
        _check_auc(e, a, 0.9)
    lib = [dict(d) for d in ref.differences]
    assert [d["time"] for d in ta["differences"]] == [0.4, 1.2, None]
    if reference is None:
        assert ta["differences"] == lib
    else:  # model_b - model_a: the library's model_a - model_b turned around
        for got, d in zip(ta["differences"], lib):
            assert (got["a"], got["b"]) == ("model_b", "model_a")
            assert (got["difference"], got["z"], got["low"], got["high"]) == (
                -d["difference"], -d["z"], -d["high"], -d["low"])
            assert (got["std_error"], got["p_value"]) == (d["std_error"], d["p_value"])
    assert [c["concordance"] for c in out["comparisons"]] == ["harrell", "uno"]


def test_compare_csv_and_table(trial, capsys):
    rc, out, err = _run(capsys, ["compare", *BASE, *TWO, "--times", "0.4,1.2", "--format", "csv"])
    assert rc == 0, err
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [(r["criterion"], r["time"]) for r in rows] == [("harrell", ""), ("uno", ""), ("auc(t)", "0.4"),
                                                          ("auc(t)", "1.2"), ("mean auc(t)", "")]
    ref = rw.survival.compare_cumulative_dynamic_auc(
        trial["time"], trial["event"], {"model_a": trial["model_a"], "model_b": trial["model_b"]}, [0.4, 1.2])
    d = ref.differences[1]
    assert (float(rows[3]["difference"]), float(rows[3]["statistic"]), float(rows[3]["p_value"])) == (
        d["difference"], d["z"], d["p_value"])
    assert rows[3]["p_adjusted"] == "" and rows[0]["p_adjusted"] != ""
    rc, out, err = _run(capsys, ["compare", *BASE, *TWO, "--times", "0.4,1.2"])
    assert rc == 0, err
    assert "AUC(t) differences (higher risk = earlier event): two-sided z tests, p-values not adjusted" in out
    row = next(line for line in out.splitlines() if line.startswith("model_a - model_b  1.2"))
    assert f"{d['difference']:+.4f}" in row and f"{d['std_error']:.4f}" in row and f"{d['z']:.3f}" in row


def test_without_times_evaluate_and_compare_show_no_auc(trial, capsys):
    out = _json(capsys, ["evaluate", *BASE, *TWO, "--format", "json"])
    assert "time_dependent_auc" not in out
    rc, text, err = _run(capsys, ["compare", *BASE, *TWO])
    assert rc == 0 and "AUC(t)" not in text


def _one_line_error(capsys, argv, command, status=1):
    rc, out, err = _run(capsys, argv)
    assert rc == status and out == "", (rc, out, err)
    assert err.count("\n") == 1 and err.startswith(f"rankwise {command}: error: ") and "Traceback" not in err
    return err


@pytest.mark.parametrize("command", ["evaluate", "compare", "report"])
@pytest.mark.parametrize("times, message", [
    ("0.001", "--times must lie within the follow-up: at least one event by t (the first is at "),
    ("0.5,1e6", "Got [1000000.0]"),
    ("soon", "--times takes comma-separated times (numbers) or auto; got 'soon'"),
    ("", "--times takes comma-separated times (numbers) or auto; got ''"),
    ("0.5,,1", "--times takes comma-separated times (numbers) or auto; got '0.5,,1'"),
    ("inf", "--times takes comma-separated times (numbers) or auto; got 'inf'"),
])
def test_bad_times_are_one_line(trial, capsys, tmp_path, command, times, message):
    extra = ["--out", "r.html", "--quiet"] if command == "report" else []
    err = _one_line_error(capsys, [command, *BASE, *TWO, "--times", times, *extra], command)
    assert message in err
    assert not (tmp_path / "r.html").exists() and not (tmp_path / "r_files").exists()


def test_the_last_follow_up_time_is_outside(trial, capsys):
    last = float(trial["time"].max())
    err = _one_line_error(capsys, ["evaluate", *BASE, "--score", "model_a", "--times", repr(last)], "evaluate")
    assert f"in [{trial['time'][trial['event']].min():g}, {last:g})" in err


def test_auto_without_a_usable_time(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "c.csv").write_text("time,status,r\n1,0,0.3\n2,0,0.1\n3,1,0.2\n")
    err = _one_line_error(capsys, ["evaluate", "c.csv", "--time", "time", "--event", "status", "--score", "r",
                                   "--times", "auto"], "evaluate")
    assert "--times auto: no time qualifies for AUC(t)" in err


@pytest.mark.parametrize("argv, message", [
    (["trial.csv", "--label", "status", "--pos-label", "2", "--score", "model_a", "--times", "1"],
     "--times goes with --time and --event"),
    ([*BASE, "--score", "model_a", "--times", "1", "--strata", "site"],
     "--times is not used with --strata: AUC(t) is not computed within strata"),
])
def test_misused_times_exit_2(trial, capsys, argv, message):
    assert message in _one_line_error(capsys, ["evaluate", *argv], "evaluate", status=2)


def test_help_says_when_auc_is_shown(capsys):
    for command in ("evaluate", "compare", "report"):
        with pytest.raises(SystemExit):
            main([command, "--help"])
        out = " ".join(capsys.readouterr().out.split())
        assert "--times T1,T2,...|auto" in out and "evaluate and compare show AUC(t) only with --times" in out
        assert "report always does (auto by default)" in out and "--tau does not apply to AUC(t)" in out


def test_report_has_the_curves_the_table_and_the_file(trial, capsys, tmp_path):
    rc, out, err = _run(capsys, ["report", *BASE, *TWO, "--times", "0.4,1.2", "--out", "r.html", "--quiet",
                                 "--reference", "model_b"])
    assert rc == 0, err
    page = (tmp_path / "r.html").read_text(encoding="utf-8")
    assert "<h3>Time-dependent AUC(t)</h3>" in page and 'alt="AUC(t) of every scorer with its pointwise band"' in page
    png = (tmp_path / "r_files" / "auc_t.png").read_bytes()
    assert png.startswith(b"\x89PNG")
    ref = rw.survival.cumulative_dynamic_auc(trial["time"], trial["event"], trial["model_a"], [0.4, 1.2])
    lo, hi = ref.confidence_intervals(0.95)
    assert f'data-value="{float(ref.values[1])!r}" data-low="{float(lo[1])!r}" data-high="{float(hi[1])!r}"' in page
    assert "model_a - model_b" in page.split("<h3>Differences: AUC(t)</h3>")[1].split("</table>")[0]
    assert "Figures also saved as PNG files in <code>r_files/</code>" in page


def test_report_default_is_auto(trial, capsys, tmp_path):
    rc, out, err = _run(capsys, ["report", *BASE, "--score", "model_a", "--out", "r.html", "--quiet"])
    assert rc == 0, err
    page = (tmp_path / "r.html").read_text(encoding="utf-8")
    for t in auto_times(trial["time"], trial["event"]):
        assert f'<td class="name" data-value="{t!r}">' in page
    assert (tmp_path / "r_files" / "auc_t.png").exists() and "Differences: AUC(t)" not in page
