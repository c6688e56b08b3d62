"""experiments/cluster_coverage.py (issue 28): the model's exact pieces against literal
definitions, then the quick run (R = 200, fixed seeds): the cluster-robust interval covers
near 95% where DeLong's independent-rows interval falls short, and both cover when the rows
are independent (rho = 0). Loose bounds that a correct cluster-robust variance passes and
one that ignores the clusters does not."""

from __future__ import annotations

import importlib.util
import json
import math
import os

import numpy as np
import pytest
from scipy import integrate, stats

from _support.paths import EXPERIMENTS


@pytest.fixture(scope="module")
def mod():
    spec = importlib.util.spec_from_file_location("experiment_cluster_coverage",
                                                  os.path.join(EXPERIMENTS, "cluster_coverage.py"))
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    return m


def test_true_auc(mod):
    # P(X > Y), X ~ N(mu, 1), Y ~ N(0, 1) independent, by quadrature over y.
    for mu in (0.0, 0.5, 1.0, 2.0):
        val, _ = integrate.quad(lambda t: stats.norm.sf(t - mu) * stats.norm.pdf(t), -np.inf, np.inf)
        assert mod.true_auc(mu) == pytest.approx(val, abs=1e-10)
    assert mod.true_auc(1.0) == pytest.approx(0.76024993890652, abs=1e-12)
    # Within a cluster the shared effect cancels: N(mu, 2 (1 - rho)).
    assert mod.within_pair_auc(1.0, 0.5) == pytest.approx(stats.norm.cdf(1.0), abs=1e-14)
    assert mod.within_pair_auc(1.0, 0.0) == pytest.approx(mod.true_auc(1.0), abs=1e-14)


@pytest.mark.parametrize("labels", ["iid", "beta"])
def test_model(mod, labels):
    G, m, rho, reps = 200, 5, 0.5, 40
    y, s, ids = mod.simulate(G, m, rho, reps, seed=3, labels=labels)
    assert y.shape == s.shape == (reps, G * m) and ids.shape == (G * m,)
    assert np.array_equal(ids, np.repeat(np.arange(G), m))
    # Marginal variance 1 within each class, class means mu and 0.
    resid = s - mod.MU * y
    assert resid.var() == pytest.approx(1.0, abs=0.03)
    assert s[y].mean() - s[~y].mean() == pytest.approx(mod.MU, abs=0.03)
    # Intra-cluster correlation of the residuals rho: the covariance of two units of a cluster.
    r = resid.reshape(reps, G, m)
    assert np.mean(r[:, :, 0] * r[:, :, 1]) == pytest.approx(rho, abs=0.04)
    share = y.mean()
    assert share == pytest.approx(0.4, abs=0.02)
    if labels == "beta":  # prevalence varies between clusters: more one-class clusters than iid
        pos = y.reshape(reps, G, m).sum(axis=2)
        one_class = np.mean((pos == 0) | (pos == m))
        iid = 0.4 ** m + 0.6 ** m
        assert one_class > 2 * iid


def test_design_expectation(mod):
    rng = np.random.default_rng(0)
    ids = np.repeat(np.arange(7), 3)
    y = rng.random(21) < 0.5
    y[:2] = [True, False]
    # Literal: average over (positive, negative) pairs of each pair's mean psi.
    tot = 0.0
    cnt = 0
    for i in np.flatnonzero(y):
        for k in np.flatnonzero(~y):
            tot += mod.within_pair_auc(1.0, 0.5) if ids[i] == ids[k] else mod.true_auc(1.0)
            cnt += 1
    assert mod.design_expectation(y, ids, 1.0, 0.5) == pytest.approx(tot / cnt, abs=1e-14)


@pytest.fixture(scope="module")
def quick(mod):
    return {c["labels"] + ("_control" if c["rho"] == 0 else ""): c
            for c in mod.run(mod.QUICK_CELLS, mod.QUICK_REPS)}


def test_quick_coverage(mod, quick):
    cell = quick["beta"]
    cl, ind = cell["cluster"], cell["independent"]
    assert cell["reps"] == 200 and cell["defined"] == 200
    assert cl["undefined"] == 0 and cell["few_clusters_warnings"] == 0
    assert cl["coverage"] >= 0.90
    assert cl["coverage"] > ind["coverage"] + 0.02
    assert 0.85 < cl["se_ratio"] < 1.15
    assert ind["se_ratio"] < 0.9
    assert abs(cell["bias_sd"]) < 0.25
    # rho = 0: the rows are independent; both intervals cover and agree in size.
    ctrl = quick["iid_control"]
    assert ctrl["cluster"]["coverage"] >= 0.90 and ctrl["independent"]["coverage"] >= 0.90
    assert ctrl["cluster"]["mean_se"] == pytest.approx(ctrl["independent"]["mean_se"], rel=0.05)
    assert ctrl["design_bias"] == pytest.approx(0.0, abs=1e-15)
    assert all(math.isfinite(c[k]["mc_se"]) for c in quick.values() for k in ("cluster", "independent"))


def test_main_prints_table(mod, capsys, tmp_path):
    out = tmp_path / "cc.json"
    # A short run of the quick cells through the command line.
    assert mod.main(["--quick", "--reps", "20", "--json", str(out)]) == 0
    text = capsys.readouterr().out
    assert "| beta | 60 | 5 | 0.5 | 300 |" in text and "| iid | 60 | 5 | 0 | 300 |" in text
    doc = json.loads(out.read_text())
    assert doc["reps"] == 20 and len(doc["cells"]) == 2
    with pytest.raises(ValueError, match="labels"):
        mod.run_cell("other", 10, 2, 0.5, 5)
