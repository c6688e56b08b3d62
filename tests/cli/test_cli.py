"""The main job and the command line."""

import json
import math
import os
import subprocess
import sys

import pytest

import rankwise as rw
from rankwise import cli as rankwise_cli
from rankwise.cli import main


@pytest.mark.slow
@pytest.mark.xdist_group("demo")
def test_demo_writes_report_and_prints_table(demo_full):
    # `rankwise demo --out OUT`, run once for the suite (tests/conftest.py)
    out, printed = demo_full.folder, demo_full.printed
    assert demo_full.status == 0
    assert "AUC" in printed and "NDCG@100" in printed and str(out) in printed
    result = json.loads((out / "demo.json").read_text())
    assert (out / "demo.txt").read_text() in printed
    # The main job's report, with its figures, and every learner in the summary.
    assert (out / "report.html").exists() and (out / "report_files" / "roc.png").exists()
    assert "report.html" in printed and "BBRRanker" in printed and "SPAM" in printed
    assert len(result["learners"]) == 15 and result["seconds"] < 120
    assert result["n_test"] == 1337 and result["n_train"] == 3117  # 4454 loans, 30% held out
    crit = result["criteria"]
    assert set(crit) >= {"AUC", "partial AUC, FPR<=0.1 (McClish)", "local AUC, top 10%", "p-norm push, p=4 (loss)",
                         "DCG@100", "NDCG@100", "W_phi, phi=u (minmax)"}
    for item in crit.values():
        assert math.isfinite(item["value"])
    # A logistic regression ranks defaults well above chance on this table.
    assert 0.75 < crit["AUC"]["value"] < 0.95
    # The minmax linear rank statistic with phi(u) = u is the AUC; ranking risk is 1 - AUC.
    assert crit["W_phi, phi=u (minmax)"]["value"] == pytest.approx(crit["AUC"]["value"], abs=1e-12)
    assert result["ranking_risk (comparable pairs)"] == pytest.approx(1 - crit["AUC"]["value"], abs=1e-12)
    # The credit-scoring criteria: Gini is 2 AUC - 1, and KS, the largest height of the ROC
    # curve above the diagonal, is at least its mean height AUC - 1/2 = Gini / 2.
    assert crit["Gini (2 AUC - 1)"]["value"] == pytest.approx(2 * crit["AUC"]["value"] - 1, abs=1e-12)
    assert crit["Gini (2 AUC - 1)"]["value"] / 2 <= crit["KS statistic"]["value"] < 1
    for item in result["learners"].values():
        ks = item["criteria"]["ks_statistic"]
        assert ks["low"] <= ks["value"] <= ks["high"] and ks["method"] == "bootstrap"


@pytest.mark.slow
@pytest.mark.xdist_group("demo")
def test_demo_is_reproducible(demo_quick, tmp_path):
    """A second run with the same seed writes the same demo.json (every number: criteria,
    intervals, comparisons) but for the timings and the output folder."""
    from rankwise.cli._demo import run_demo

    def numbers(folder):
        saved = json.loads((folder / "demo.json").read_text())
        assert saved["seconds"] > 0 and saved["report"] == str(folder / "report.html")
        del saved["seconds"], saved["report"]
        for item in saved["learners"].values():
            assert item.pop("fit_seconds") >= 0
        return saved

    run_demo(str(tmp_path), quick=True)
    again, first = numbers(tmp_path), numbers(demo_quick.folder)
    assert again == first and len(first["learners"]) == 15 and first["quick"] is True


def test_usage_errors_exit_2(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["demo", "--seed", "x"])
    assert exc.value.code == 2
    assert main([]) == 2


def test_console_script_version():
    res = subprocess.run([sys.executable, "-m", "rankwise.cli", "--version"], capture_output=True, text=True)
    assert res.returncode == 0 and rw.__version__ in res.stdout


def test_demo_output_directory_unwritable_is_one_line_error(tmp_path, capsys):
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    assert main(["demo", "--out", str(blocker / "sub")]) == 1
    err = capsys.readouterr().err
    assert err.startswith("rankwise demo: error:") and err.count("\n") == 1 and "Traceback" not in err


def _no_write_access(monkeypatch, folder):
    """``os.access`` says no to writing in ``folder`` (root may write anywhere, so a
    ``chmod`` alone would not show the refusal in CI)."""
    real, folder = os.access, os.path.realpath(folder)

    def access(path, mode, *args, **kwargs):
        if os.path.realpath(path) == folder and mode & os.W_OK:
            return False
        return real(path, mode, *args, **kwargs)

    monkeypatch.setattr(os, "access", access)


def test_demo_refuses_a_folder_it_cannot_write_before_any_work(tmp_path, monkeypatch, capsys):
    """The folder is checked first: the data set is never loaded (minutes of work on the full
    data, then a failure at the last step, were what users waited for)."""
    import rankwise.io

    def loaded(*args, **kwargs):
        raise AssertionError("the demo started computing")

    monkeypatch.setattr(rankwise.io, "load_credit_data", loaded)
    locked = tmp_path / "locked"
    locked.mkdir()
    _no_write_access(monkeypatch, locked)
    for out in (locked, locked / "new" / "deeper"):  # the folder itself, or where it would be made
        assert main(["demo", "--out", str(out)]) == 1
        err = capsys.readouterr().err
        assert err.startswith("rankwise demo: error: the output folder ") and err.count("\n") == 1, err
        assert "cannot be written" in err and "Traceback" not in err
        assert list(locked.iterdir()) == []
    monkeypatch.undo()
    with pytest.raises(TypeError, match="folder must be a path"):
        from rankwise.cli._demo import check_writable_folder

        check_writable_folder(3)
    assert check_writable_folder(str(tmp_path / "a" / "b")) == str(tmp_path / "a" / "b")
    assert not (tmp_path / "a").exists()  # only asked, nothing made


def test_report_refuses_a_folder_it_cannot_write_before_reading(tmp_path, monkeypatch, capsys):
    """`rankwise report` checks the page's folder before it reads FILE: the message is about
    the folder although FILE does not exist."""
    locked = tmp_path / "locked"
    locked.mkdir()
    _no_write_access(monkeypatch, locked)
    argv = ["report", str(tmp_path / "absent.csv"), "--label", "y", "--score", "s", "--quiet"]
    assert main([*argv, "--out", str(locked / "page.html")]) == 1
    err = capsys.readouterr().err
    assert err.startswith("rankwise report: error: the output folder ") and "cannot be written" in err, err
    assert err.count("\n") == 1 and list(locked.iterdir()) == []
    monkeypatch.undo()  # writable again: now the missing input is what is reported
    assert main([*argv, "--out", str(locked / "page.html")]) == 1
    assert "absent.csv" in capsys.readouterr().err


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() == 0, reason="root may write into any folder")
def test_demo_refuses_a_read_only_folder(tmp_path, capsys):
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o555)
    try:
        assert main(["demo", "--out", str(locked / "out")]) == 1
    finally:
        locked.chmod(0o755)
    err = capsys.readouterr().err
    assert err.startswith("rankwise demo: error: the output folder ") and err.count("\n") == 1, err


# --- the subcommands, through the installed command in a subprocess ---------------------------

RANKWISE = os.path.join(os.path.dirname(sys.executable), "rankwise")


def run_cli(*args, cwd=None):
    cmd = [RANKWISE, *map(str, args)] if os.path.exists(RANKWISE) else [sys.executable, "-m", "rankwise.cli", *map(str, args)]
    return subprocess.run(cmd, capture_output=True, text=True, cwd=cwd, timeout=300)


@pytest.fixture
def scores_csv(tmp_path):
    import numpy as np

    rng = np.random.default_rng(0)
    n = 400
    y = (rng.random(n) < 0.3).astype(int)
    a = rng.normal(size=n) + y
    b = 0.5 * a + rng.normal(size=n)
    x1, x2 = rng.normal(size=n) + y, rng.normal(size=n)
    path = tmp_path / "scores.csv"
    lines = ["default,model_a,model_b,x1,x2"] + [f"{yi},{float(ai)!r},{float(bi)!r},{float(u)!r},{float(v)!r}"
                                                 for yi, ai, bi, u, v in zip(y, a, b, x1, x2)]
    path.write_text("\n".join(lines) + "\n")
    return path, y, a, b


def test_evaluate_numbers_equal_the_library(scores_csv, tmp_path):
    path, y, a, b = scores_csv
    before = path.read_bytes()
    r = run_cli("evaluate", path, "--label", "default", "--score", "model_a", "--score", "model_b",
                "--criteria", "auc,local_auc:top=0.1,partial_auc:max_fpr=0.1,standardize=mcclish", "--format", "json")
    assert r.returncode == 0, r.stderr
    rows = json.loads(r.stdout)["rows"]
    assert [(x["score"], x["criterion"]) for x in rows] == [
        ("model_a", "auc"), ("model_a", "local_auc:top=0.1"), ("model_a", "partial_auc:max_fpr=0.1,standardize=mcclish"),
        ("model_b", "auc"), ("model_b", "local_auc:top=0.1"), ("model_b", "partial_auc:max_fpr=0.1,standardize=mcclish")]
    e = rw.stats.estimate(y, a)
    assert rows[0]["value"] == pytest.approx(rw.auc(y, a), abs=1e-12)
    assert (rows[0]["low"], rows[0]["high"]) == pytest.approx(tuple(e.confidence_interval()), abs=1e-12)
    assert rows[1]["value"] == pytest.approx(rw.local_auc(y, a, top=0.1), abs=1e-12)
    assert rows[5]["value"] == pytest.approx(rw.partial_auc(y, b, max_fpr=0.1, standardize="mcclish"), abs=1e-12)
    assert path.read_bytes() == before  # inputs are never modified
    # --out writes atomically and refuses to replace without --force.
    out = tmp_path / "res.csv"
    assert run_cli("evaluate", path, "--label", "default", "--score", "model_a", "--format", "csv", "--out", out).returncode == 0
    assert out.read_text().startswith("score,criterion,value")
    r = run_cli("evaluate", path, "--label", "default", "--score", "model_a", "--out", out)
    assert r.returncode == 1 and "--force" in r.stderr
    assert run_cli("evaluate", path, "--label", "default", "--score", "model_a", "--out", out, "--force").returncode == 0


def test_compare_fit_score(scores_csv, tmp_path):
    path, y, a, b = scores_csv
    r = run_cli("compare", path, "--label", "default", "--score", "model_a", "--score", "model_b", "--format", "json")
    assert r.returncode == 0, r.stderr
    got = json.loads(r.stdout)
    c = rw.stats.compare(y, {"model_a": a, "model_b": b})
    assert got["pairs"][0]["p_value"] == pytest.approx(c.pairs[0].p_value, rel=1e-12)
    model = tmp_path / "m.rwm"
    r = run_cli("fit", path, "--label", "default", "--features", "x1,x2", "--learner", "pairwise:loss=squared_hinge",
                "--model", model, "--holdout", "0.3")
    assert r.returncode == 0, r.stderr
    assert "held-out" in r.stdout and model.exists()
    out = tmp_path / "s.csv"
    r = run_cli("score", model, path, "--out", out)
    assert r.returncode == 0 and r.stderr == "", r.stderr  # no warning noise on stderr
    lines = out.read_text().split()
    assert lines[0] == "score" and len(lines) == 401
    m = rw.load_model(model)
    import numpy as np

    data = np.loadtxt(path, delimiter=",", skiprows=1)
    assert float(lines[1]) == pytest.approx(float(m.decision_function(data[:1, 3:5])[0]), rel=1e-12)


@pytest.mark.parametrize("args, message", [
    (["evaluate", "missing.csv", "--label", "y", "--score", "s"], "no such file"),
    (["evaluate", "{csv}", "--label", "nope", "--score", "model_a"], "unknown column"),
    (["evaluate", "{csv}", "--label", "default", "--score", "model_a", "--criteria", "accuracy"], "valid criteria"),
    (["fit", "{csv}", "--label", "default", "--learner", "svm", "--model", "{tmp}/m.rwm"], "valid learners"),
    (["score", "{csv}", "{csv}", "--out", "{tmp}/o.csv"], "Cannot load the model file"),
])
def test_errors_are_one_line_exit_1(scores_csv, tmp_path, args, message):
    path = scores_csv[0]
    args = [x.format(csv=path, tmp=tmp_path) for x in args]
    r = run_cli(*args, cwd=tmp_path)
    assert r.returncode == 1, (r.stdout, r.stderr)
    assert message in r.stderr and r.stderr.count("\n") == 1 and "Traceback" not in r.stderr
    assert not (tmp_path / "o.csv").exists() and not (tmp_path / "m.rwm").exists()


def test_bad_data_is_reported_with_rows(tmp_path):
    bad = tmp_path / "bad.csv"
    bad.write_text("y,s\n0,0.1\n1,nan\n0,0.3\n1,inf\n")
    r = run_cli("evaluate", bad, "--label", "y", "--score", "s")
    assert r.returncode == 1 and "rows 2, 4" in r.stderr, r.stderr
    text = tmp_path / "text.csv"
    text.write_text("y,s\n0,0.1\n1,high\n0,0.3\n")
    r = run_cli("evaluate", text, "--label", "y", "--score", "s")
    assert r.returncode == 1 and "non-numeric" in r.stderr and "row 2" in r.stderr.replace("rows", "row"), r.stderr
    one = tmp_path / "one.csv"
    one.write_text("y,s\n1,0.1\n1,0.2\n")
    r = run_cli("evaluate", one, "--label", "y", "--score", "s")
    assert r.returncode == 1 and "one class" in r.stderr


def test_usage_errors_exit_2():
    assert run_cli("evaluate").returncode == 2
    assert run_cli("frobnicate").returncode == 2
    assert run_cli().returncode == 2
    for sub in ("evaluate", "compare", "fit", "score", "report", "demo"):
        r = run_cli(sub, "--help")
        assert r.returncode == 0 and "example" in r.stdout


def test_split_specs():
    from rankwise.cli import split_specs

    assert split_specs("auc,local_auc:top=0.1,partial_auc:max_fpr=0.1,standardize=mcclish,pnorm_push:p=4") == [
        "auc", "local_auc:top=0.1", "partial_auc:max_fpr=0.1,standardize=mcclish", "pnorm_push:p=4"]


def test_report_with_scores_and_models(scores_csv, tmp_path):
    path = scores_csv[0]
    model = tmp_path / "m.rwm"
    assert run_cli("fit", path, "--label", "default", "--features", "x1,x2", "--learner", "bbr",
                   "--model", model).returncode == 0
    out = tmp_path / "r.html"
    r = run_cli("report", path, "--label", "default", "--score", "model_a", "--model", model, "--out", out)
    assert r.returncode == 0, r.stderr
    html = out.read_text()
    assert "model_a" in html and "BBRRanker (m.rwm)" in html and (tmp_path / "r_files" / "roc.png").exists()
    r = run_cli("report", path, "--label", "default", "--score", "model_a", "--out", out)
    assert r.returncode == 1 and "--force" in r.stderr


def test_progress_shows_on_a_terminal_only():
    import pty
    import time

    from rankwise.cli import Ticker

    # Not a terminal (pytest captures stderr): nothing is shown.
    with Ticker("work") as t:
        time.sleep(1.2)
    assert not t.shown
    with Ticker("work", quiet=True) as t:
        pass
    assert not t.enabled
    # Under a pseudo-terminal the elapsed time appears after a second and is cleared at the end.
    pid, fd = pty.fork()
    if pid == 0:  # pragma: no cover - the child
        # The child's descriptor 1 is the terminal (pytest's capture objects are not).
        sys.stdout = sys.stderr = os.fdopen(1, "w", buffering=1)
        with Ticker("work"):
            time.sleep(2.2)
        sys.stdout.write("END\n")
        sys.stdout.flush()
        os._exit(0)
    out = b""
    while True:
        try:
            chunk = os.read(fd, 1000)
        except OSError:
            break
        if not chunk:
            break
        out += chunk
    os.waitpid(pid, 0)
    assert b"work: 1 s" in out and b"END" in out


@pytest.mark.parametrize("learner", ["rankboost:n_estimators=20", "pnormpush:p=4,n_estimators=20", "kernel:alpha=0.01",
                                     "rankstat:phi=local_auc:u0=0.9", "rankstat:phi=dcg:k=20,n_rounds=2", "exact:phi=auc",
                                     "boosted:engine=xgboost,loss=exponential,n_estimators=5",
                                     "boosted:engine=lightgbm,loss=squared,n_estimators=5"])
def test_fit_issue7_learners(scores_csv, tmp_path, learner):
    path = scores_csv[0]
    model = tmp_path / "m.rwm"
    r = run_cli("fit", path, "--label", "default", "--features", "x1,x2", "--learner", learner, "--model", model)
    assert r.returncode == 0, r.stderr
    m = rw.load_model(model)
    name, _, rest = learner.partition(":")
    assert type(m).__name__ == rankwise_cli.LEARNERS[name]
    if name == "rankstat":
        assert m.phi == rest.split(",")[0].partition("=")[2]


def _model_with_weights(path, coef):
    import numpy as np

    rng = np.random.default_rng(0)
    X = rng.normal(size=(50, 2))
    m = rw.PairwiseRanker().fit(X, (X[:, 0] > 0).astype(int))
    m.coef_ = np.asarray(coef, dtype=np.float64)
    m.feature_names_in_ = np.asarray(["x1", "x2"], dtype=object)
    rw.save_model(m, path)


def test_score_never_writes_non_finite_scores(tmp_path):
    # issue 14: a NaN coefficient loaded, and `score` wrote nan scores with exit 0
    data = tmp_path / "d.csv"
    data.write_text("x1,x2\n1,2\n3,4\n1e10,1e10\n5e300,0\n")
    bad_model, out = tmp_path / "nan.rwm", tmp_path / "s.csv"
    _model_with_weights(bad_model, [float("nan"), 1.0])
    r = run_cli("score", bad_model, data, "--out", out)
    assert r.returncode == 1 and r.stderr.count("\n") == 1 and "Traceback" not in r.stderr, r.stderr
    assert "coef_" in r.stderr and not out.exists()
    # finite weights, features large enough to overflow: rows 3 and 4
    big = tmp_path / "big.rwm"
    _model_with_weights(big, [1e300, -1e300])
    r = run_cli("score", big, data, "--out", out)
    assert r.returncode == 1 and r.stderr.count("\n") == 1 and "Traceback" not in r.stderr, r.stderr
    assert "row 3 and 1 more row of" in r.stderr and not out.exists()
    data.write_text("x1,x2\n1,2\n3,4\n")
    assert run_cli("score", big, data, "--out", out).returncode == 0 and len(out.read_text().split()) == 3


@pytest.mark.skipif(not os.path.exists("/dev/zero") or sys.platform != "linux", reason="needs Linux's /dev/zero")
def test_score_with_a_device_as_model_is_one_line(tmp_path):
    # issue 14: a model path that is a symlink to /dev/zero was read until memory ran out
    # (here the child's address space is capped, so the old behaviour fails fast too)
    import resource

    link, data, out = tmp_path / "m.rwm", tmp_path / "d.csv", tmp_path / "s.csv"
    link.symlink_to("/dev/zero")
    data.write_text("x1,x2\n1,2\n")

    def cap():
        resource.setrlimit(resource.RLIMIT_AS, (4 << 30, resource.getrlimit(resource.RLIMIT_AS)[1]))

    cmd = [RANKWISE] if os.path.exists(RANKWISE) else [sys.executable, "-m", "rankwise.cli"]
    r = subprocess.run([*cmd, "score", str(link), str(data), "--out", str(out)], capture_output=True, text=True,
                       timeout=120, preexec_fn=cap)
    assert r.returncode == 1 and r.stderr.count("\n") == 1 and "Traceback" not in r.stderr, r.stderr
    assert "not a regular file" in r.stderr and not out.exists()
