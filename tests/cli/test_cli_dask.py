"""The command line on Dask: ``evaluate``, ``compare`` and ``fit`` with ``--dask`` (a local
cluster per command) and ``--scheduler`` (an existing cluster, here a LocalCluster on
127.0.0.1) equal the single-machine commands; what Dask cannot do is a one-line error.

Most commands run on the suite's one shared cluster (``--scheduler``, the fixture
``dask_scheduler`` of tests/conftest.py): both options lead to the same code once the
client exists (rankwise.cli._dask.cluster). ``--dask`` itself, which starts a cluster in the
command, is run by test_evaluate_and_compare_equal_single_machine and by the one-class error
of test_errors_are_one_line."""

import json
import os
import subprocess
import sys

import numpy as np
import pytest

pytest.importorskip("distributed", reason="the Dask command line needs 'rankwise[dask]'")
pd = pytest.importorskip("pandas")
pytest.importorskip("pyarrow")

import rankwise as rw  # noqa: E402

# Slow: a command (a Python process) per run. One xdist worker under `--dist loadgroup`
# (`make test`), with the shared cluster of tests/conftest.py.
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("dask")]


def run_cli(*args, timeout=300):
    env = dict(os.environ, PYTHONWARNINGS="ignore")
    return subprocess.run([sys.executable, "-m", "rankwise.cli", *map(str, args)], capture_output=True, text=True,
                          timeout=timeout, env=env)


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    """A directory of 3 Parquet files (ties in the scores) and the same rows as one CSV."""
    root = tmp_path_factory.mktemp("dask_cli")
    rng = np.random.default_rng(0)
    frames = []
    for i in range(3):
        n = 4000
        y = (rng.random(n) < 0.3).astype(int)
        X = rng.normal(size=(n, 3))
        frames.append(pd.DataFrame({"y": y, "a": np.round(X[:, 0] + y, 1), "b": np.round(X[:, 1] + 0.5 * y, 1),
                                    "x0": X[:, 0] + y, "x1": X[:, 1], "x2": X[:, 2] + 0.3 * y}))
    (root / "pq").mkdir()
    for i, f in enumerate(frames):
        f.to_parquet(root / "pq" / f"part{i}.parquet")
    whole = pd.concat(frames, ignore_index=True)
    whole.to_csv(root / "all.csv", index=False)
    whole.assign(y=1).to_parquet(root / "one.parquet")
    labelled = whole.assign(y=np.where(whole["y"] == 1, "yes", "no"))
    labelled.to_parquet(root / "strings.parquet")
    labelled.to_csv(root / "strings.csv", index=False)
    return root, whole


def test_evaluate_and_compare_equal_single_machine(data, dask_scheduler):
    root, whole = data
    crit = "auc,local_auc:top=0.1,pnorm_push:p=4,dcg:k=50"
    common = ["--label", "y", "--score", "a", "--score", "b", "--criteria", crit, "--format", "json"]
    d = run_cli("evaluate", root / "pq", *common, "--dask", "--workers", "2")
    s = run_cli("evaluate", root / "all.csv", *common)
    assert d.returncode == 0 and s.returncode == 0, d.stderr + s.stderr
    rd, rs = json.loads(d.stdout)["rows"], json.loads(s.stdout)["rows"]
    assert [(r["score"], r["criterion"]) for r in rd] == [(r["score"], r["criterion"]) for r in rs]
    for a, b in zip(rd, rs):
        for k in ("value", "low", "high", "std_error"):
            assert a[k] == pytest.approx(b[k], rel=1e-12, abs=1e-14), (a, b, k)
        assert a["method"] == b["method"]
    d = run_cli("compare", root / "pq", "--label", "y", "--score", "a", "--score", "b", "--format", "json",
                "--scheduler", dask_scheduler)
    s = run_cli("compare", root / "all.csv", "--label", "y", "--score", "a", "--score", "b", "--format", "json")
    assert d.returncode == 0 and s.returncode == 0, d.stderr + s.stderr
    cd, cs = json.loads(d.stdout), json.loads(s.stdout)
    assert np.allclose(cd["values"], cs["values"], rtol=1e-12)
    assert np.allclose(cd["cov"], cs["cov"], rtol=1e-10, atol=1e-16)
    assert cd["pairs"][0]["p_value"] == pytest.approx(cs["pairs"][0]["p_value"], rel=1e-9, abs=1e-300)
    margin = ["--reference", "b", "--alternative", "noninferiority", "--margin", "0.02"]
    d = run_cli("compare", root / "pq", "--label", "y", "--score", "a", "--score", "b", "--format", "json",
                "--scheduler", dask_scheduler, *margin)
    s = run_cli("compare", root / "all.csv", "--label", "y", "--score", "a", "--score", "b", "--format", "json",
                *margin)
    assert d.returncode == 0 and s.returncode == 0, d.stderr + s.stderr
    cd, cs = json.loads(d.stdout), json.loads(s.stdout)
    assert cd["margin"] == cs["margin"] == 0.02 and cd["alternative"] == "noninferiority"
    assert cd["pairs"][0]["statistic"] == pytest.approx(cs["pairs"][0]["statistic"], rel=1e-9)
    assert cd["pairs"][0]["p_value"] == pytest.approx(cs["pairs"][0]["p_value"], rel=1e-9, abs=1e-300)


@pytest.mark.parametrize("learner", ["bbr", "pairwise:loss=squared_hinge", "proper:loss=logistic"])
def test_fit_equals_single_machine(data, tmp_path, learner, dask_scheduler):
    root, whole = data
    m_d, m_s = tmp_path / "d.rwm", tmp_path / "s.rwm"
    d = run_cli("fit", root / "pq", "--label", "y", "--features", "x0,x1,x2", "--learner", learner, "--model", m_d,
                "--scheduler", dask_scheduler)
    s = run_cli("fit", root / "all.csv", "--label", "y", "--features", "x0,x1,x2", "--learner", learner,
                "--model", m_s)
    assert d.returncode == 0 and s.returncode == 0, d.stderr + s.stderr
    assert "fitted on Dask" in d.stdout
    a, b = rw.load_model(m_d), rw.load_model(m_s)
    assert type(a) is type(b)
    assert np.allclose(a.coef_, b.coef_, rtol=1e-6, atol=1e-8)
    X = whole[["x0", "x1", "x2"]]
    assert rw.auc(whole["y"], a.decision_function(X)) == pytest.approx(rw.auc(whole["y"], b.decision_function(X)),
                                                                        abs=1e-6)


def test_fit_holdout_on_dask(data, tmp_path, dask_scheduler):
    root, _ = data
    r = run_cli("fit", root / "pq", "--label", "y", "--learner", "bbr", "--model", tmp_path / "m.rwm", "--scheduler",
                dask_scheduler, "--holdout", "0.3", "--features", "x0,x1,x2")
    assert r.returncode == 0, r.stderr
    assert "held-out part" in r.stdout and "auc" in r.stdout


def test_string_labels_need_pos_label_on_both_engines(data, dask_scheduler):
    """Labels 'no'/'yes': without --pos-label both commands refuse (one line naming the
    labels); with it both take the named class as positive and agree."""
    root, _ = data
    args = ["--label", "y", "--score", "a", "--criteria", "auc,pnorm_push:p=4", "--format", "json"]
    for r in (run_cli("evaluate", root / "strings.parquet", *args, "--scheduler", dask_scheduler),
              run_cli("evaluate", root / "strings.csv", *args)):
        assert r.returncode == 1 and "no, yes" in r.stderr and "--pos-label" in r.stderr, r.stderr
        assert r.stderr.count("\n") == 1 and r.stdout == ""
    for pos, high in (("yes", True), ("no", False)):
        d = run_cli("evaluate", root / "strings.parquet", *args, "--pos-label", pos, "--scheduler", dask_scheduler)
        s = run_cli("evaluate", root / "strings.csv", *args, "--pos-label", pos)
        assert d.returncode == 0 and s.returncode == 0, d.stderr + s.stderr
        jd, js = json.loads(d.stdout), json.loads(s.stdout)
        assert jd["positive_label"] == js["positive_label"] == pos
        assert (jd["n"], jd["n_positive"]) == (js["n"], js["n_positive"])
        for a, b in zip(jd["rows"], js["rows"]):
            assert a["value"] == pytest.approx(b["value"], rel=1e-12)
        # 'yes' marks the y = 1 rows, which score a ranks high
        assert jd["rows"][0]["criterion"] == "auc" and (jd["rows"][0]["value"] > 0.7) is high


def test_fit_with_pos_label_on_dask_equals_single_machine(data, tmp_path, dask_scheduler):
    """--pos-label no on 'no'/'yes' labels: both engines learn a model that ranks 'no' (the
    y = 0 rows) high, with classes_ [yes, no], and the same coefficients; the printout
    states the positive label and counts."""
    root, whole = data
    m_d, m_s = tmp_path / "d.rwm", tmp_path / "s.rwm"
    common = ["--label", "y", "--features", "x0,x1,x2", "--learner", "bbr", "--pos-label", "no"]
    d = run_cli("fit", root / "strings.parquet", *common, "--model", m_d, "--scheduler", dask_scheduler)
    s = run_cli("fit", root / "strings.csv", *common, "--model", m_s)
    assert d.returncode == 0 and s.returncode == 0, d.stderr + s.stderr
    n_no = int((whole["y"] == 0).sum())
    for r in (d, s):
        assert f"positive label: 'no' (n = {len(whole):,}, positives = {n_no:,})" in r.stdout
    a, b = rw.load_model(m_d), rw.load_model(m_s)
    assert a.classes_.tolist() == b.classes_.tolist() == ["yes", "no"]
    assert np.allclose(a.coef_, b.coef_, rtol=1e-6, atol=1e-8)
    X = whole[["x0", "x1", "x2"]]
    assert rw.auc(whole["y"] == 0, a.decision_function(X)) > 0.6
    r = run_cli("fit", root / "strings.parquet", *common[:-2], "--model", tmp_path / "x.rwm", "--scheduler",
                dask_scheduler)
    assert r.returncode == 1 and "--pos-label" in r.stderr and "no, yes" in r.stderr


def test_bootstrap_on_dask(data, dask_scheduler):
    """--ci bootstrap resamples on the workers: a different random stream from one machine,
    the same distribution (intervals within Monte Carlo error of each other)."""
    root, _ = data
    args = ["--label", "y", "--score", "a", "--criteria", "auc", "--ci", "bootstrap", "--resamples", "1000",
            "--format", "json"]
    d = run_cli("evaluate", root / "pq", *args, "--scheduler", dask_scheduler)
    s = run_cli("evaluate", root / "all.csv", *args)
    assert d.returncode == 0 and s.returncode == 0, d.stderr + s.stderr
    a, b = json.loads(d.stdout)["rows"][0], json.loads(s.stdout)["rows"][0]
    assert a["value"] == pytest.approx(b["value"], rel=1e-12)
    assert a["method"] == b["method"] and "bootstrap" in a["method"]
    width = b["high"] - b["low"]
    assert abs(a["low"] - b["low"]) < 0.15 * width and abs(a["high"] - b["high"]) < 0.15 * width


def test_scheduler_address(data, dask_scheduler):
    root, _ = data
    assert dask_scheduler.startswith("tcp://127.0.0.1:")
    d = run_cli("evaluate", root / "pq", "--label", "y", "--score", "a", "--criteria", "auc", "--format", "json",
                "--scheduler", dask_scheduler)
    s = run_cli("evaluate", root / "all.csv", "--label", "y", "--score", "a", "--criteria", "auc", "--format", "json")
    assert d.returncode == 0, d.stderr
    assert json.loads(d.stdout)["rows"][0]["value"] == pytest.approx(json.loads(s.stdout)["rows"][0]["value"], rel=1e-12)


@pytest.mark.parametrize("args, message", [
    (["evaluate", "{pq}", "--label", "y", "--score", "nope", "--dask"], "unknown column 'nope'"),
    (["evaluate", "{root}/missing", "--label", "y", "--score", "a", "--dask"], "no such file"),
    (["fit", "{pq}", "--label", "y", "--learner", "rankboost", "--model", "{root}/m.rwm", "--dask"], "does not run on Dask"),
    (["evaluate", "{pq}", "--label", "y", "--score", "a", "--dask", "--scheduler", "tcp://127.0.0.1:1"], "not allowed"),
    (["evaluate", "{root}/one.parquet", "--label", "y", "--score", "a", "--dask", "--workers", "1"], "one class only"),
])
def test_errors_are_one_line(data, args, message):
    root, _ = data
    args = [a.format(pq=root / "pq", root=root) for a in args]
    r = run_cli(*args)
    assert r.returncode in (1, 2)
    assert message in r.stderr, r.stderr
    assert "Traceback" not in r.stderr
