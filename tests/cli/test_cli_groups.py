"""``--group COL`` and ``--strata COL`` of ``rankwise evaluate``, ``compare``, ``points`` and
``report`` (issue 29): the numbers are the library's (:func:`rankwise.stats.by_group`,
:func:`rankwise.stats.stratified_auc`) on the same rows to 1e-12, the stratified AUC is
also written out pair by pair, every output names the column, its groups and their sizes,
bad ids and columns are one-line errors (exit 1), options that do not combine are one-line
usage errors (exit 2)."""

from __future__ import annotations

import dataclasses
import json
import warnings

import numpy as np
import pytest

import rankwise as rw
from _support.engines import engine  # noqa: F401  (the fixture)
from rankwise.cli import build_parser, main
from _support.cli import json_cli, run_cli

SITES = ("north", "south", "east")


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    """150 rows: a text group (site), a numeric one (band: 1, 2, 10, sorting as numbers),
    one with a group of one class (unit: Z holds negatives only), ids written two ways
    (code: 007 and 7), 50 patients of 3 rows, two tied score columns."""
    rng = np.random.default_rng(29)
    n = 150
    site = rng.choice(SITES, n, p=[0.5, 0.3, 0.2])
    band = rng.choice([1, 2, 10], n)
    y = rng.random(n) < 0.4
    unit = np.where(rng.random(n) < 0.5, "X", "Y").astype(object)
    unit[np.flatnonzero(~y)[:6]] = "Z"
    code = rng.choice(["007", "7"], n)
    effect = {"north": 0.0, "south": 0.6, "east": -0.4}
    a = np.array([round(float(v + effect[s] + rng.normal()), 1) for v, s in zip(y, site)])
    b = np.array([round(float(0.6 * v + rng.normal()), 1) for v in y])
    patient = np.array([f"P{k // 3:02d}" for k in range(n)], dtype=object)
    path = tmp_path_factory.mktemp("groups") / "g.csv"
    lines = ["patient,site,band,unit,code,y,a,b"] + [
        f"{p},{s},{g},{u},{c},{int(v)},{float(sa)!r},{float(sb)!r}"
        for p, s, g, u, c, v, sa, sb in zip(patient, site, band, unit, code, y, a, b)]
    path.write_text("\n".join(lines) + "\n")
    return {"path": str(path), "site": site.astype(object), "band": band, "unit": unit, "code": code, "y": y,
            "a": a, "b": b, "patient": patient}


_run, _json = run_cli, json_cli


def _quiet(func, *args, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return func(*args, **kw)


def _base(d, *scores):
    return [d["path"], "--label", "y", *[x for s in scores for x in ("--score", s)]]


def _close(got, want, rel=1e-12):
    """Every number of ``got`` (the command's JSON) equals ``want`` (the library's
    ``to_dict``; nan where the JSON has null) to ``rel``, every other value exactly."""
    if isinstance(want, dict):
        assert set(got) == set(want)
        for k in want:
            _close(got[k], want[k], rel)
    elif isinstance(want, (list, tuple)):
        assert len(got) == len(want)
        for g, w in zip(got, want):
            _close(g, w, rel)
    elif isinstance(want, float):
        if np.isfinite(want):
            assert got == pytest.approx(want, rel=rel, abs=1e-15)
        else:
            assert got is None
    else:
        assert got == want


# --- evaluate --group ------------------------------------------------------------------------------

def test_evaluate_group_json_equals_by_group(data, capsys):
    out = _json(capsys, ["evaluate", *_base(data, "a", "b"), "--group", "site", "--criteria", "auc,pnorm_push:p=4",
                         "--format", "json"])
    res = _quiet(rw.stats.by_group, data["y"], {"a": data["a"], "b": data["b"]}, data["site"],
                 ["auc", "pnorm_push:p=4"])
    _close(out["groups"], res.to_dict())
    assert out["groups"]["groups"] == sorted(SITES) and out["groups"]["bias"]  # the AUC is there: bias AUCs
    assert out["group_column"] == "site"
    assert out["group_sizes"] == [{"group": g, "n": int((data["site"] == g).sum()),
                                   "n_positive": int(data["y"][data["site"] == g].sum())} for g in sorted(SITES)]
    # beside what evaluate prints without --group: the rows on all data
    assert [(r["score"], r["criterion"]) for r in out["rows"]] == [(s, c) for s in "ab"
                                                                   for c in ("auc", "pnorm_push:p=4")]
    assert (out["n"], out["n_positive"]) == (150, int(data["y"].sum()))
    # the group's value is the criterion on its rows, written out
    sel = data["site"] == "east"
    yy, ss = data["y"][sel], data["a"][sel]
    pos, neg = ss[yy], ss[~yy]
    literal = np.mean((pos[:, None] > neg[None, :]) + 0.5 * (pos[:, None] == neg[None, :]))
    row = next(r for r in out["groups"]["rows"] if r["group"] == "east" and r["scorer"] == "a"
               and r["criterion"] == "auc")
    assert row["value"] == pytest.approx(literal, rel=1e-14)


def test_evaluate_group_text_is_the_library_summary(data, capsys):
    rc, out, err = _run(capsys, ["evaluate", *_base(data, "a", "b"), "--group", "site", "--criteria", "auc"])
    assert rc == 0, err
    res = _quiet(rw.stats.by_group, data["y"], {"a": data["a"], "b": data["b"]}, data["site"], ["auc"])
    assert out.startswith(dataclasses.replace(res, scorer_comparisons=()).summary())
    assert "scorers compared" not in out  # comparing the score columns is compare's
    lines = out.splitlines()
    sizes = "; ".join(f"{g}: n = {(data['site'] == g).sum()}, positives = {data['y'][data['site'] == g].sum()}"
                      for g in sorted(SITES))
    assert lines[-2] == f"groups: column 'site', 3 groups ({sizes})"
    assert lines[-1] == f"positive label: 1 (n = 150, positives = {data['y'].sum()})"


def test_evaluate_group_csv(data, capsys):
    rc, out, _ = _run(capsys, ["evaluate", *_base(data, "a"), "--group", "site", "--criteria", "auc", "--format",
                               "csv"])
    assert rc == 0
    import csv
    import io

    rows = list(csv.DictReader(io.StringIO(out)))
    res = _quiet(rw.stats.by_group, data["y"], data["a"], data["site"], ["auc"], names=["a"])
    assert [r["group"] for r in rows] == ["", *sorted(SITES)]
    for r, g in zip(rows, (*res.overall, *res.rows)):
        assert float(r["value"]) == pytest.approx(g.value, rel=1e-14)
        assert float(r["std_error"]) == pytest.approx(g.std_error, rel=1e-12)
        assert int(r["n_rows"]) == g.n_rows and r["group_column"] == "site" and r["n"] == "150"
    for r, d in zip(rows[1:], res.differences):
        assert r["versus"] == "rest" and float(r["p_adjusted"]) == pytest.approx(d.p_adjusted, rel=1e-12)


def test_numeric_ids_sort_as_numbers_and_ids_stay_as_written(data, capsys):
    out = _json(capsys, ["evaluate", *_base(data, "a"), "--group", "band", "--criteria", "auc", "--format", "json"])
    assert out["groups"]["groups"] == [1, 2, 10]  # numbers, not "1", "10", "2"
    _close(out["groups"], _quiet(rw.stats.by_group, data["y"], data["a"], data["band"], ["auc"],
                                 names=["a"]).to_dict())
    out = _json(capsys, ["evaluate", *_base(data, "a"), "--group", "code", "--criteria", "auc", "--format", "json"])
    assert out["groups"]["groups"] == ["007", "7"]  # two groups, as written
    _close(out["groups"], _quiet(rw.stats.by_group, data["y"], data["a"], data["code"], ["auc"],
                                 names=["a"]).to_dict())


def test_reference_group(data, capsys):
    out = _json(capsys, ["evaluate", *_base(data, "a"), "--group", "site", "--reference-group", "north",
                         "--criteria", "auc", "--format", "json"])
    res = _quiet(rw.stats.by_group, data["y"], data["a"], data["site"], ["auc"], reference="north", names=["a"])
    _close(out["groups"], res.to_dict())
    assert {d["versus"] for d in out["groups"]["differences"]} == {"north"}
    out = _json(capsys, ["evaluate", *_base(data, "a"), "--group", "band", "--reference-group", "10",
                         "--criteria", "auc", "--format", "json"])
    assert out["groups"]["reference"] == 10
    rc, text, _ = _run(capsys, ["evaluate", *_base(data, "a"), "--group", "site", "--reference-group", "north",
                                "--criteria", "auc"])
    assert rc == 0 and "diff (vs north)" in text


def test_one_class_group_warns_and_gives_nan(data, capsys):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        rc = main(["evaluate", *_base(data, "a"), "--group", "unit", "--criteria", "auc", "--format", "json"])
    out, err = capsys.readouterr()
    assert rc == 0
    warned = [ln for ln in err.splitlines() if "[OneClassGroupWarning]" in ln]
    assert len(warned) == 1 and warned[0].startswith("rankwise evaluate: warning: ") and "Z" in warned[0]
    out = json.loads(out)
    z = next(r for r in out["groups"]["rows"] if r["group"] == "Z")
    assert z["value"] is None and z["std_error"] is None and out["groups"]["one_class"] == ["Z"]
    assert out["groups"]["global_tests"][0]["n_groups"] == 2


def test_group_with_cluster(data, capsys):
    out = _json(capsys, ["evaluate", *_base(data, "a", "b"), "--group", "site", "--cluster", "patient",
                         "--criteria", "auc", "--format", "json"])
    res = _quiet(rw.stats.by_group, data["y"], {"a": data["a"], "b": data["b"]}, data["site"], ["auc"],
                 clusters=data["patient"])
    plain = _quiet(rw.stats.by_group, data["y"], {"a": data["a"], "b": data["b"]}, data["site"], ["auc"])
    _close(out["groups"], res.to_dict())
    assert out["n_clusters"] == out["groups"]["n_clusters"] == 50
    assert res.rows[0].std_error != pytest.approx(plain.rows[0].std_error, rel=1e-6)  # the clusters count
    rc, text, _ = _run(capsys, ["evaluate", *_base(data, "a"), "--group", "site", "--cluster", "patient",
                                "--criteria", "auc"])
    assert rc == 0 and "standard errors over 50 clusters" in text and "clusters = 50)" in text


# --- compare --group ---------------------------------------------------------------------------------

def test_compare_group_equals_by_group(data, capsys):
    out = _json(capsys, ["compare", *_base(data, "a", "b"), "--group", "site", "--adjust", "bonferroni",
                         "--format", "json"])
    res = _quiet(rw.stats.by_group, data["y"], {"a": data["a"], "b": data["b"]}, data["site"], ["auc"],
                 adjust="bonferroni")
    _close(out["groups"], res.to_dict())
    assert out["groups"]["adjust"] == "bonferroni"
    assert [(c["group"], c["criterion"]) for c in out["group_comparisons"]] == [(g, "auc") for g in sorted(SITES)]
    for got, (_, g, comp) in zip(out["group_comparisons"], res.scorer_comparisons):
        np.testing.assert_allclose(got["values"], comp.values, rtol=1e-14)
        np.testing.assert_allclose(got["cov"], comp.cov, rtol=1e-12)
        assert got["pairs"][0]["p_value"] == pytest.approx(comp.pairs[0].p_value, rel=1e-12)
    # what compare prints without --group is still there: the columns on all rows
    whole = rw.stats.compare(data["y"], {"a": data["a"], "b": data["b"]}, "auc", adjust="bonferroni")
    np.testing.assert_allclose(out["values"], whole.values, rtol=1e-14)
    rc, text, _ = _run(capsys, ["compare", *_base(data, "a", "b"), "--group", "site"])
    assert rc == 0 and "scorers compared in group east (auc)" in text and "groups: column 'site'" in text
    rc, csv, _ = _run(capsys, ["compare", *_base(data, "a", "b"), "--group", "site", "--format", "csv"])
    lines = csv.splitlines()
    assert lines[0].startswith("group,a,b,difference") and [ln.split(",")[0] for ln in lines[1:]] == [
        "", *sorted(SITES)]


def test_compare_group_with_reference_and_alternative(data, capsys):
    out = _json(capsys, ["compare", *_base(data, "a", "b"), "--group", "site", "--reference", "b",
                         "--alternative", "greater", "--format", "json"])
    for got in out["group_comparisons"]:
        sel = data["site"] == got["group"]
        comp = rw.stats.compare(data["y"][sel], {"a": data["a"][sel], "b": data["b"][sel]}, "auc", reference="b",
                                alternative="greater")
        assert got["reference"] == "b" and got["alternative"] == "greater"
        assert got["pairs"][0]["p_value"] == pytest.approx(comp.pairs[0].p_value, rel=1e-12)


# --- points --group ----------------------------------------------------------------------------------

def test_points_group_is_points_on_each_groups_rows(data, capsys):
    out = _json(capsys, ["points", *_base(data, "a"), "--group", "band", "--fpr", "0.1,0.3", "--resamples", "50",
                         "--seed", "3", "--format", "json"])
    assert out["group_column"] == "band" and [d["group"] for d in out["group_sizes"]] == [1, 2, 10]
    assert [r["group"] for r in out["rows"]] == [None, None, 1, 1, 2, 2, 10, 10]
    for g in (1, 2, 10):
        sel = data["band"] == g
        est = rw.stats.operating_points(data["y"][sel], data["a"][sel], fpr=[0.1, 0.3])
        ci = _quiet(est.confidence_interval, 0.95, n_resamples=50, random_state=3).to_rows()
        rows = [r for r in out["rows"] if r["group"] == g]
        for j, r in enumerate(rows):
            assert r["tpr"] == pytest.approx(est.tpr[j], abs=1e-15)
            assert (r["tpr_low"], r["tpr_high"]) == pytest.approx((ci[j]["tpr_low"], ci[j]["tpr_high"]), abs=1e-15)
    rc, text, err = _run(capsys, ["points", *_base(data, "a"), "--group", "unit", "--ci", "none"])
    assert rc == 0 and "(all)" in text and "groups: column 'unit'" in text
    assert not any(ln.startswith("Z ") for ln in text.splitlines())  # one class: no points, and said so
    rc = main(["points", *_base(data, "a"), "--group", "unit", "--ci", "none"])
    assert rc == 0 and "one class only" in capsys.readouterr().err


# --- --strata --------------------------------------------------------------------------------------

def _literal_stratified(y, s, strata, weighting):
    """sum_g c_g AUC_g, each stratum's AUC over its pairs, written out."""
    values, raw = [], []
    for g in sorted(set(strata)):
        sel = strata == g
        pos, neg = s[sel & y], s[sel & ~y]
        if not (len(pos) and len(neg)):
            continue
        values.append(np.mean((pos[:, None] > neg[None, :]) + 0.5 * (pos[:, None] == neg[None, :])))
        raw.append({"pairs": len(pos) * len(neg), "positives": len(pos), "size": len(pos) + len(neg),
                    "uniform": 1}[weighting])
    return float(np.dot(values, np.asarray(raw, dtype=float) / sum(raw)))


@pytest.mark.parametrize("weighting", ["pairs", "positives", "size", "uniform"])
def test_evaluate_strata_equals_the_library(data, capsys, weighting):
    argv = ["evaluate", *_base(data, "a", "b"), "--strata", "unit", "--format", "json"]
    out = _json(capsys, argv + (["--weighting", weighting] if weighting != "pairs" else []))
    assert out["strata_column"] == "unit" and out["weighting"] == weighting
    for r in out["rows"]:
        lib = _quiet(rw.stats.stratified_auc, data["y"], data[r["score"]], data["unit"], weighting=weighting)
        ci = lib.confidence_interval(0.95)
        assert r["value"] == pytest.approx(lib.value, rel=1e-14)
        assert r["value"] == pytest.approx(_literal_stratified(data["y"], data[r["score"]], data["unit"],
                                                               weighting), rel=1e-12)
        assert r["std_error"] == pytest.approx(lib.std_error, rel=1e-12)
        assert r["std_error_strata"] == pytest.approx(lib.std_error_strata, rel=1e-12)
        assert (r["low"], r["high"]) == pytest.approx((ci.low, ci.high), rel=1e-12)
        assert (r["n_strata"], r["n_skipped"]) == (2, 1)  # Z: negatives only


def test_evaluate_strata_text_and_clusters(data, capsys):
    rc, text, _ = _run(capsys, ["evaluate", *_base(data, "a"), "--strata", "site", "--weighting", "positives",
                                "--cluster", "patient", "--level", "0.9"])
    assert rc == 0
    lib = _quiet(rw.stats.stratified_auc, data["y"], data["a"], data["site"], weighting="positives",
                 clusters=data["patient"])
    ci = lib.confidence_interval(0.9)
    row = next(ln for ln in text.splitlines() if ln.startswith("a "))
    assert row.split()[:4] == ["a", f"{lib.value:.4f}", f"{ci.low:.4f}", f"{ci.high:.4f}"]
    assert "90% CI low" in text and "3 strata used, 0 skipped" in text and "weighted by their positives" in text
    assert "over 50 clusters" in text and "strata: column 'site', 3 strata" in text


def test_compare_strata(data, capsys):
    for extra in ([], ["--cluster", "patient"]):
        out = _json(capsys, ["compare", *_base(data, "a", "b"), "--strata", "site", "--format", "json", *extra])
        clusters = {"clusters": data["patient"]} if extra else {}
        lib = [_quiet(rw.stats.stratified_auc, data["y"], data[s], data["site"], **clusters) for s in "ab"]
        assert out["criterion"] == "stratified_auc" and out["strata_column"] == "site"
        np.testing.assert_allclose(out["values"], [r.value for r in lib], rtol=1e-14)
        np.testing.assert_allclose(out["std_errors"], [r.std_error for r in lib], rtol=1e-12)
    # uniform weights (no weights part): the difference's variance is sum_g c_g^2 Var_g(a - b),
    # each stratum's from compare on its rows
    out = _json(capsys, ["compare", *_base(data, "a", "b"), "--strata", "site", "--weighting", "uniform",
                         "--format", "json"])
    var = 0.0
    for g in SITES:
        sel = data["site"] == g
        c = rw.stats.compare(data["y"][sel], {"a": data["a"][sel], "b": data["b"][sel]}, "auc").cov
        var += (c[0, 0] + c[1, 1] - 2 * c[0, 1]) / 9.0
    assert out["pairs"][0]["std_error"] == pytest.approx(np.sqrt(var), rel=1e-12)
    rc, text, _ = _run(capsys, ["compare", *_base(data, "a", "b"), "--strata", "unit"])
    assert rc == 0 and "compare stratified_auc(weighting=pairs)" in text and "2 strata used, 1 skipped" in text


# --- errors ------------------------------------------------------------------------------------------

def _error(capsys, argv, rc_wanted=1):
    rc, out, err = _run(capsys, argv)
    lines = err.strip().splitlines()
    assert rc == rc_wanted and out == "" and len(lines) == 1, err
    assert lines[0].startswith(f"rankwise {argv[0]}: error: ")
    return lines[0]


def test_missing_group_value_names_column_and_rows(tmp_path, capsys, engine):
    p = tmp_path / "m.csv"
    p.write_text("site,y,s,t\nA,1,0.9,1\n,0,0.3,2\nB,1,0.7,3\nB,0,0.2,4\n ,0,0.4,5\nA,0,0.5,6\n")
    for command in ("evaluate", "compare", "points"):
        scores = ["--score", "s"] + (["--score", "t"] if command == "compare" else [])
        line = _error(capsys, [command, str(p), "--label", "y", *scores, "--group", "site"])
        assert "column 'site' has missing group values at rows 2, 5" in line
    line = _error(capsys, ["evaluate", str(p), "--label", "y", "--score", "s", "--strata", "site"])
    assert "column 'site' has missing stratum values at rows 2, 5" in line
    p.write_text("band,y,s\n1,1,0.9\n1,0,0.3\n,1,0.7\n2,0,0.2\n")
    assert "'band' has missing group values at rows 3" in _error(capsys, ["evaluate", str(p), "--label", "y",
                                                                            "--score", "s", "--group", "band"])
    # ids as written by every reader: 007 and 7 two groups, 10 after 2
    p.write_text("g,y,s\n007,1,0.9\n7,0,0.3\n10,1,0.7\n2,0,0.2\n007,0,0.5\n7,1,0.6\n10,0,0.1\n2,1,0.8\n")
    out = _json(capsys, ["points", str(p), "--label", "y", "--score", "s", "--group", "g", "--ci", "none",
                         "--format", "json"])
    assert [d["group"] for d in out["group_sizes"]] == ["007", "10", "2", "7"]  # text: not every id is an int


def test_bad_group_columns(data, capsys):
    line = _error(capsys, ["evaluate", *_base(data, "a"), "--group", "hospital"])
    assert "'hospital'" in line and "site" in line  # the columns there are
    line = _error(capsys, ["evaluate", *_base(data, "a"), "--group", "y"])
    assert "--group names the label column 'y'" in line
    line = _error(capsys, ["compare", *_base(data, "a", "b"), "--strata", "b"])
    assert "--strata names the score column 'b'" in line
    line = _error(capsys, ["evaluate", *_base(data, "a"), "--group", "site", "--reference-group", "west"])
    assert "--reference-group 'west' is not a group of column 'site' (east, north, south)" in line


@pytest.mark.parametrize("argv, words", [
    (["evaluate", "--group", "site", "--dask"], "--group is not available with --dask yet"),
    (["compare", "--strata", "site", "--scheduler", "tcp://127.0.0.1:1"],
     "--strata is not available with --scheduler yet"),
    (["points", "--strata", "site"], "--strata is not offered by points"),
    (["report", "--strata", "site", "--out", "r.html"], "--strata is not offered by report"),
    (["evaluate", "--group", "site", "--strata", "band"], "--group and --strata do not combine"),
    (["evaluate", "--weighting", "size"], "--weighting needs --strata"),
    (["compare", "--reference-group", "north"], "--reference-group needs --group"),
    (["evaluate", "--group", "site", "--ci", "bootstrap"], "--ci bootstrap is not available with --group"),
    (["evaluate", "--strata", "site", "--criteria", "auc"], "--criteria is not used with it"),
    (["compare", "--strata", "site", "--criterion", "auc"], "--criterion is not used with it"),
])
def test_usage_errors_exit_2_in_one_line(data, capsys, argv, words):
    scores = ["--score", "a"] + (["--score", "b"] if argv[0] == "compare" else [])
    line = _error(capsys, [argv[0], data["path"], "--label", "y", *scores, *argv[1:]], rc_wanted=2)
    assert words in line


# --- report --------------------------------------------------------------------------------------------

def test_report_gets_the_groups(data, capsys, monkeypatch, tmp_path):
    import rankwise.report as report

    seen = {}

    def fake(path, **kw):
        seen.update(kw)
        return {}
    monkeypatch.setattr(report, "write_report", fake)
    out = str(tmp_path / "r.html")
    assert main(["report", *_base(data, "a"), "--group", "band", "--out", out, "--quiet"]) == 0
    np.testing.assert_array_equal(seen["groups"], data["band"])
    assert seen["group_name"] == "band"
    seen.clear()
    assert main(["report", *_base(data, "a"), "--out", str(tmp_path / "r2.html"), "--quiet"]) == 0
    assert "groups" not in seen and "group_name" not in seen


def _report_takes_groups() -> bool:
    import inspect

    from rankwise.report import write_report

    return "groups" in inspect.signature(write_report).parameters


@pytest.mark.skipif(not _report_takes_groups(), reason="rankwise.report.write_report takes no groups= yet")
def test_report_group_page(data, capsys, tmp_path):
    out = tmp_path / "r.html"
    rc, _, err = _run(capsys, ["report", *_base(data, "a"), "--group", "site", "--criteria", "auc", "--out", str(out),
                               "--resamples", "20", "--quiet"])
    assert rc == 0, err
    page = out.read_text(encoding="utf-8")
    assert "site" in page and all(g in page for g in SITES)


# --- help ------------------------------------------------------------------------------------------------

def _help(command: str) -> str:
    parser = build_parser()
    sub = next(a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction").choices[command]
    return " ".join(sub.format_help().split())


def test_help_mentions_the_options():
    for command in ("evaluate", "compare"):
        text = _help(command)
        for option in ("--group COL", "--strata COL", "--weighting", "--reference-group VALUE"):
            assert option in text, (command, option)
        assert "Janes & Pepe 2009" in text and "not available with --dask yet" in text
    for command in ("points", "report"):
        text = _help(command)
        assert "--group COL" in text and "--strata COL not offered by " + command in text
        assert "--weighting" not in text


def test_weighting_choices_are_the_librarys():
    from rankwise.cli._main import WEIGHTINGS
    from rankwise.metrics.blocks import WEIGHTINGS as LIBRARY

    assert WEIGHTINGS == tuple(LIBRARY)
