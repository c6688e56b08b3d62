"""experiments/multiclass_coverage.py (issue 31): the model's exact pieces against
independent computations (the HUM by grid recursion against nested quadrature and 10^6
simulated chains; the softmax directed AUCs against rankwise's estimates on a large sample
and their Monte Carlo standard error against the spread over seeds), then the quick run
(R = 200, fixed seeds): the intervals of M, the one-vs-rest averages, the VUS and the HUM
cover near 95% with standard errors that match the spread of the estimates, and the
cluster-robust VUS interval covers where the row-level one falls short. Loose bounds: a
standard error off by a factor sqrt(2) either way fails them."""

from __future__ import annotations

import importlib.util
import json
import os

import numpy as np
import pytest

import rankwise as rw
from _support.paths import EXPERIMENTS


@pytest.fixture(scope="module")
def mod():
    spec = importlib.util.spec_from_file_location("experiment_multiclass_coverage",
                                                  os.path.join(EXPERIMENTS, "multiclass_coverage.py"))
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    return m


@pytest.mark.parametrize("K", [3, 5])
def test_true_hum(mod, K):
    value, grid_diff = mod.true_hum(K)
    assert grid_diff < 1e-6
    assert value == pytest.approx(mod.hum_quad(K), abs=1e-8)
    # 10^6 simulated chains (Monte Carlo se about 5e-4): within 4 se.
    mc, se = mod.hum_monte_carlo(K, 1_000_000, seed=31 + K)
    assert abs(value - mc) < 4 * se
    # Two classes: P(X_1 < X_2) = Phi(mu / sqrt 2), closed form.
    from scipy import stats
    assert mod.true_hum(2, 1.0)[0] == pytest.approx(stats.norm.cdf(1 / np.sqrt(2)), abs=1e-9)
    assert mod.hum_quad(2, 1.0) == pytest.approx(stats.norm.cdf(1 / np.sqrt(2)), abs=1e-9)


def test_criterion_weights(mod):
    A = np.array([[np.nan, 0.7, 0.8], [0.6, np.nan, 0.9], [0.75, 0.85, np.nan]])
    pi = np.array([1.0, 2.0, 3.0]) / 6
    truth = {"A": A.tolist(), "pairs": [(a, b) for a in range(3) for b in range(3) if a != b],
             "cov": np.zeros((6, 6)).tolist()}
    ovr = [sum(pi[c] / (1 - pi[k]) * A[k, c] for c in range(3) if c != k) for k in range(3)]
    assert mod.linear_truth(truth, mod.criterion_weights(3, "M"))[0] == pytest.approx(np.nanmean(A), abs=1e-15)
    assert mod.linear_truth(truth, mod.criterion_weights(3, "ovr_macro", pi))[0] == pytest.approx(np.mean(ovr))
    assert mod.linear_truth(truth, mod.criterion_weights(3, "ovr_weighted", pi))[0] == pytest.approx(pi @ ovr)


@pytest.mark.parametrize("K", [3, 5])
def test_pairwise_truth_against_large_sample(mod, K):
    truth = mod.pairwise_truth(K, 100_000, seed=1)
    rng = np.random.default_rng(11)
    y, S = mod.draw_softmax(rng, K, "unequal", 4000)     # 4000, 8000, ... rows per class
    pi = np.bincount(y, minlength=K)
    for crit, kw in (("M", {"multi_class": "ovo"}), ("ovr_macro", {}), ("ovr_weighted", {"average": "weighted"})):
        value, mc_se = mod.linear_truth(truth, mod.criterion_weights(K, crit, pi))
        assert 0 < mc_se < 2e-3
        e = rw.stats.estimate(y, S, criterion="multiclass_auc", **kw)
        assert abs(e.value - value) < 4 * np.hypot(e.std_error, mc_se), crit


def test_pairwise_truth_mc_se(mod):
    # The reported Monte Carlo se against the spread of the truth over 16 seeds (loose).
    vals, ses = [], []
    for seed in range(16):
        t = mod.pairwise_truth(3, 5_000, seed)
        v, s = mod.linear_truth(t, mod.criterion_weights(3, "M"))
        vals.append(v)
        ses.append(s)
    assert 0.6 < np.std(vals, ddof=1) / np.mean(ses) < 1.5


def test_committed_truths(mod):
    # The full run's cached truths agree with a fresh, independent Monte Carlo (other seed).
    cache = mod.load_cache(mod.DEFAULT_CACHE)
    assert sorted(cache) == [3, 5]
    for K, t in cache.items():
        assert t["draws"] == mod.TRUTH_DRAWS and t["mu"] == list(mod.SOFTMAX_MU[K])
        fresh = mod.pairwise_truth(K, 100_000, seed=7)
        for crit in ("M", "ovr_weighted"):
            g = mod.criterion_weights(K, crit, mod.prevalences(K))
            (v0, s0), (v1, s1) = mod.linear_truth(t, g), mod.linear_truth(fresh, g)
            assert s0 < 2e-4
            assert abs(v0 - v1) < 4 * np.hypot(s0, s1)


@pytest.fixture(scope="module")
def quick(mod):
    return mod.run(mod.QUICK_CELLS, mod.QUICK_REPS, truth_draws=mod.QUICK_TRUTH_DRAWS, cache={})


def test_quick_coverage(mod, quick):
    results, truths = quick
    assert [(c["model"], c["K"], c["design"], c["size"]) for c in results] == list(mod.QUICK_CELLS)
    assert truths[3]["draws"] == mod.QUICK_TRUTH_DRAWS
    seen = set()
    for c in results:
        assert c["reps"] == 200
        for r in c["criteria"]:
            seen.add(r["criterion"])
            assert r["defined"] == 200 and r["undefined_se"] == 0 and r["zero_se"] == 0
            assert 0 < r["truth"] < 1 and r["truth_mc_se_sd"] < 0.1
            assert abs(r["bias_sd"]) < 0.4
            for key in ("delong", "logit"):
                d = r[key]
                assert d["miss_low"] + d["miss_high"] == pytest.approx(1 - d["coverage"])
            if r["criterion"].endswith(", rows"):   # ignores the clusters: too narrow
                assert r["se_ratio"] < 0.85 and r["delong"]["coverage"] < 0.92
                continue
            assert 0.8 < r["se_ratio"] < 1.2, r["criterion"]
            assert r["delong"]["coverage"] > 0.88 and r["logit"]["coverage"] > 0.88, r["criterion"]
    assert seen == {"M (OvO macro)", "OvR macro", "OvR weighted", "OvR weighted, no prevalence term", "VUS", "HUM",
                    "VUS, clusters", "VUS, rows"}
    # Equal class sizes: the one-vs-rest macro average is M, estimate and standard error.
    eq = results[0]["criteria"]
    assert eq[0]["mean_estimate"] == pytest.approx(eq[1]["mean_estimate"], abs=1e-12)
    assert eq[0]["mean_se"] == pytest.approx(eq[1]["mean_se"], rel=1e-9)
    # iid classes: the prevalence term adds to the standard error.
    iid = {r["criterion"]: r for r in results[1]["criteria"]}
    assert iid["OvR weighted"]["mean_se"] > iid["OvR weighted, no prevalence term"]["mean_se"]
    assert results[1]["min_class_size"] > 0


def test_main_writes_results(mod, capsys, tmp_path):
    assert mod.main(["--quick", "--reps", "20", "--truth-draws", "2000", "--truth-cache", "",
                     "--out", str(tmp_path)]) == 0
    text = capsys.readouterr().out
    assert "| ordinal | 5 | 100 each | HUM |" in text and "VUS, clusters" in text
    doc = json.loads((tmp_path / "multiclass_coverage.json").read_text())
    assert doc["reps"] == 20 and len(doc["cells"]) == len(mod.QUICK_CELLS)
    assert doc["truths"]["softmax K=3"]["draws"] == 2000
    assert (tmp_path / "multiclass_coverage.md").read_text().startswith("# Coverage of the multiclass")
