"""experiments/cv_coverage.py (issue 32): the exact target against a large independent
sample, one replication against ``rw.stats.cross_validate``, the summaries against their
definitions, then the quick run (R = 50, two designs, fixed seeds): the structure of the
results and loose sanity bounds."""

from __future__ import annotations

import importlib.util
import json
import math
import os

import numpy as np
import pytest

import rankwise as rw
from _support.paths import EXPERIMENTS


@pytest.fixture(scope="module")
def mod():
    spec = importlib.util.spec_from_file_location("experiment_cv_coverage", os.path.join(EXPERIMENTS, "cv_coverage.py"))
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    return m


def test_true_auc_against_a_large_sample(mod):
    rng = np.random.default_rng(0)
    X, y = mod.simulate(400_000, 0.3, rng)
    assert y.sum() == 120_000
    for b in (mod.DELTA, np.r_[1.0, -0.5, 0.2, rng.normal(size=mod.P - 3)], np.eye(mod.P)[5]):
        # the AUC on 4 x 10^5 rows has a standard error below 0.001
        assert abs(rw.auc(y, X @ b) - mod.true_auc(b)) < 0.004
    assert mod.true_auc(np.zeros(mod.P)) == 0.5
    assert mod.true_auc(mod.DELTA) == pytest.approx(0.5 * math.erfc(-np.linalg.norm(mod.DELTA) / 2.0), abs=1e-15)


def test_one_replication_is_cross_validate(mod):
    from sklearn.linear_model import LogisticRegression

    rep = mod.replicate(300, 0.3, False, np.random.default_rng(11))
    rng = np.random.default_rng(11)
    X, y = mod.simulate(300, 0.3, rng)
    state = int(rng.integers(0, 2 ** 31 - 1))
    r = rw.stats.cross_validate(LogisticRegression(), X, y, cv=mod.V, random_state=state)
    s = rep["single"]
    assert s["value"] == pytest.approx(r.value, abs=1e-13)
    assert s["influence"][2] == pytest.approx(r.std_error, rel=1e-12)
    assert s["naive_t"][2] == pytest.approx(r.naive_std_error, rel=1e-12)
    lo, hi = r.confidence_interval(0.95)
    assert s["influence"][:2] == pytest.approx((lo, hi), abs=1e-13)
    u = rw.stats.cross_validate(LogisticRegression(), X, y, cv=mod.V, random_state=state, variance="unbiased")
    assert s["unbiased"][2] == pytest.approx(u.std_error, rel=1e-12) and u.std_error > r.std_error
    assert s["unbiased"][:2] == pytest.approx(tuple(u.confidence_interval(0.95))[:2], abs=1e-13)
    assert 0.6 < s["psi"] < 0.81


def test_summarise_definitions(mod):
    reps = [{"psi": 0.7, "value": 0.72, "influence": (0.65, 0.79, 0.035), "naive_t": (0.71, 0.73, 0.004),
             "naive_z": (0.712, 0.728, 0.004)},
            {"psi": 0.75, "value": 0.70, "influence": (0.63, 0.77, 0.035), "naive_t": (0.68, 0.72, 0.01),
             "naive_z": (0.755, 0.79, 0.01)}]
    out = mod.summarise(reps)
    ic, nt, nz = (out["intervals"][k] for k in ("influence", "naive_t", "naive_z"))
    assert ic["coverage"] == 1.0 and ic["mc_se"] == 0.0
    assert nt["coverage"] == 0.0 and nt["miss_low"] == 0.5 and nt["miss_high"] == 0.5
    assert nz["coverage"] == 0.0 and nz["miss_low"] == 1.0  # the truth below the interval twice
    err = np.array([0.02, -0.05])
    assert out["sd_error"] == pytest.approx(err.std(ddof=1)) and out["bias"] == pytest.approx(err.mean())
    assert ic["se_ratio"] == pytest.approx(0.035 / err.std(ddof=1))
    assert ic["mean_width"] == pytest.approx(0.14)


@pytest.fixture(scope="module")
def quick(mod):
    return mod.run(mod.QUICK_DESIGNS, mod.QUICK_REPS)


def test_quick_structure_and_sanity(mod, quick):
    assert [(d["n"], d["pi"]) for d in quick] == [(n, pi) for n, pi, _ in mod.QUICK_DESIGNS]
    for d, (_, _, repeated) in zip(quick, mod.QUICK_DESIGNS):
        assert d["truth_check"] < 0.006
        assert set(d["analyses"]) == ({"single", "pooled", "rows_independent"} if repeated else {"single"})
        for a, s in d["analyses"].items():
            assert s["reps"] == mod.QUICK_REPS and abs(s["bias"]) < 0.02
            ic = s["intervals"]["influence"]
            if a != "rows_independent":
                assert 0.75 <= ic["coverage"] <= 1.0 and 0.6 < ic["se_ratio"] < 1.4, (d["n"], a)
            # variance="unbiased" for the single cross-validation only (it refuses units across folds)
            assert ("unbiased" in s["intervals"]) == (a == "single")
            if a == "single":
                ub = s["intervals"]["unbiased"]
                assert ub["mean_se"] > ic["mean_se"] and ub["coverage"] >= ic["coverage"]
        if repeated:
            # taking the 5 x n rows as independent understates the standard error
            an = d["analyses"]
            assert an["rows_independent"]["intervals"]["influence"]["se_ratio"] < \
                0.7 * an["pooled"]["intervals"]["influence"]["se_ratio"]


def test_main_writes_results(mod, capsys, tmp_path):
    assert mod.main(["--quick", "--reps", "3", "--out", str(tmp_path)]) == 0
    text = capsys.readouterr().out
    assert "| 200 | 0.5 | 10-fold |" in text and "5 x 10-fold, pooled" in text
    doc = json.loads((tmp_path / "cv_coverage.json").read_text())
    assert doc["reps"] == 3 and len(doc["designs"]) == 2 and doc["seed"] == mod.SEED
    assert (tmp_path / "cv_coverage.md").read_text().startswith("# Cross-validated AUC coverage")
    with pytest.raises(SystemExit):
        mod.main(["--reps", "1"])
