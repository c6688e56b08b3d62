"""experiments/survival_auc_coverage.py (issue 30): the model's exact pieces (time quantiles,
censoring rate, the true AUC(t) by quadrature) against Monte Carlo, then the quick run
(R = 200, n = 300, 30% and 60% censored): the 95% intervals of AUC(t) and of the mean AUC
cover near 95% and the standard errors match the spread of the estimates (loose bounds: a
standard error off by a factor sqrt(2) either way fails them)."""

from __future__ import annotations

import importlib.util
import json
import os

import numpy as np
import pytest

from _support.paths import EXPERIMENTS


@pytest.fixture(scope="module")
def mod():
    spec = importlib.util.spec_from_file_location("experiment_survival_auc_coverage",
                                                  os.path.join(EXPERIMENTS, "survival_auc_coverage.py"))
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    return m


def test_model_pieces(mod):
    rng = np.random.default_rng(0)
    x = rng.normal(size=1_000_000)
    t_event = rng.exponential(1.0 / np.exp(x))
    for q in mod.QUANTILES:
        t = mod.time_quantile(q)
        assert 1.0 - mod.survival(t) == pytest.approx(q, abs=1e-12)
        assert np.mean(t_event <= t) == pytest.approx(q, abs=2e-3)
        # the quadrature truth against 10^6 uncensored subjects (Monte Carlo se about 1.5e-3)
        assert mod.true_auc(t) == pytest.approx(mod.monte_carlo_auc(t, 1_000_000, 3), abs=6e-3)
    for share in (0.3, 0.6):
        lc = mod.censoring_rate(share)
        t_cens = rng.exponential(1.0 / lc, size=x.shape[0])
        assert np.mean(t_cens < t_event) == pytest.approx(share, abs=3e-3)
    # In this model the later the time, the more the cases' covariates exceed the controls'.
    assert mod.true_auc(0.05) < mod.true_auc(1.0)


def test_simulate_shapes_and_seeds(mod):
    T, E, R = mod.simulate(50, 0.6, 4, seed=1)
    assert T.shape == E.shape == R.shape == (4, 50) and E.dtype == bool
    T2, _, _ = mod.simulate(50, 0.6, 4, seed=1)
    assert np.array_equal(T, T2)


@pytest.fixture(scope="module")
def quick(mod):
    return mod.run(mod.QUICK_CELLS, mod.QUICK_REPS)


def test_quick_coverage(mod, quick):
    assert [(c["n"], c["censoring"]) for c in quick] == list(mod.QUICK_CELLS)
    for c in quick:
        assert c["reps"] == 200 and c["outside_follow_up"] == 0
        assert c["observed_censoring"] == pytest.approx(c["censoring"], abs=0.03)
        for r in c["times"] + [c["mean_auc"]]:
            assert r["defined"] == 200
            assert r["coverage"] >= 0.88 and r["coverage_logit"] >= 0.88
            assert 0.85 < r["se_ratio"] < 1.15
            assert abs(r["mean_estimate"] - r["truth"]) < 0.5 * r["sd_estimate"]


def test_main_prints_table(mod, capsys, tmp_path):
    out = tmp_path / "sac.json"
    assert mod.main(["--quick", "--reps", "20", "--json", str(out)]) == 0
    text = capsys.readouterr().out
    assert "| 300 | " in text and "mean AUC" in text
    doc = json.loads(out.read_text())
    assert doc["reps"] == 20 and len(doc["cells"]) == 2 and len(doc["cells"][0]["times"]) == 3
