"""The coverage study of ``experiments/coverage.py`` (issue 3), in a small fixed-seed run.

Only the analytic default intervals (DeLong for the AUC, Hajek for the p-norm push and
the average precision) and, for the KS statistic, which has no analytic method, its
stratified bootstrap interval (bias-corrected, "boot BC"), at balance 0.5, n = 100 and
1000, R = 60: loose bounds that a correct variance estimate passes and a wrong one (off by
a factor of 2 in SE) does not. Deterministic: the seeds are fixed in the script.
"""

import importlib.util
import math
import os

import numpy as np
import pytest
from scipy import stats

import rankwise as rw
from _support.paths import EXPERIMENTS

PATH = os.path.join(EXPERIMENTS, "coverage.py")


def _load():
    spec = importlib.util.spec_from_file_location("rankwise_experiments_coverage", PATH)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.fixture(scope="module")
def mod():
    return _load()


@pytest.fixture(scope="module")
def study(mod):
    result = mod.run_study(ns=(100, 1000), balances=(0.5,), criteria=("auc", "pnorm_push", "average_precision"),
                           methods=("analytic",), reps=60, resamples=200, seed=mod.SEED, quick=True)
    return mod, result


@pytest.fixture(scope="module")
def ks_study(mod):
    # Asked for an analytic interval too: the KS statistic has none, so only its
    # bootstrap cells come back.
    return mod.run_study(ns=(100, 1000), balances=(0.5,), criteria=("ks_statistic",),
                         methods=("analytic", "bootstrap_bca"), reps=60, resamples=200, seed=mod.SEED)


def test_true_values(mod):
    assert mod.true_auc(1.0) == pytest.approx(0.76024993890652, abs=1e-12)
    # p = 1: (int G h) = P(positive below negative) = 1 - AUC
    assert mod.true_pnorm_push(1.0, 1) == pytest.approx(1.0 - mod.true_auc(1.0), abs=1e-9)
    # top = 1 keeps everything: the local AUC is the AUC
    assert mod.true_local_auc(1.0, 0.3, top=1.0 - 1e-15) == pytest.approx(mod.true_auc(1.0), abs=1e-7)


def test_true_values_new_criteria(mod):
    auc = mod.true_auc(1.0)
    assert mod.true_gini(1.0) == pytest.approx(2.0 * auc - 1.0, abs=1e-15)
    # the class cdfs N(mu, 1) and N(0, 1) are furthest apart where the densities cross, t = mu / 2
    assert mod.true_ks(1.0) == pytest.approx(2.0 * stats.norm.cdf(0.5) - 1.0, abs=1e-15)
    assert mod.true_ks(1.0) == pytest.approx(0.38292492254802624, abs=1e-14)
    assert mod.true_ks(0.0) == 0.0
    # a band covering every rate is the whole AUC, whichever axis
    assert mod.true_partial_auc_tpr(1.0, 0.0, 1.0) == pytest.approx(auc, abs=1e-10)
    assert mod.true_partial_auc_fpr(1.0, 0.0, 1.0) == pytest.approx(auc, abs=1e-10)
    assert (mod.true_partial_auc_tpr(1.0, 0.0, 0.8) + mod.true_partial_auc_tpr(1.0, 0.8, 1.0)
            == pytest.approx(auc, abs=1e-10))
    # at mu = 0 the ROC curve is the diagonal: TPR band [a, b] has area (b - a) - (b^2 - a^2) / 2
    assert mod.true_partial_auc_tpr(0.0, 0.8, 1.0) == pytest.approx(0.2 - (1.0 - 0.64) / 2, abs=1e-10)
    assert mod.true_partial_auc_fpr(0.0, 0.05, 0.2) == pytest.approx((0.04 - 0.0025) / 2, abs=1e-10)
    # random scores: the precision is pi at every threshold; perfect separation: AP = 1
    assert mod.true_average_precision(0.0, 0.3) == pytest.approx(0.3, abs=1e-10)
    assert mod.true_average_precision(12.0, 0.1) == pytest.approx(1.0, abs=1e-6)
    # every new truth agrees with its second route (integrating over the other variable)
    for c in ("gini", "ks_statistic", "average_precision", "partial_auc_tpr", "partial_auc_fpr"):
        for pi in (0.5, 0.1):
            truth = mod.true_value(c, 1.0, pi)[0]
            assert mod.truth_second_route(c, 1.0, pi) == pytest.approx(truth, abs=1e-9), c


def test_ap_monte_carlo(mod):
    # E[AP] at n = 100 with 10 positives sits well above the population value (the O(1/n+)
    # bias); the vectorised AP is checked against rw.average_precision inside.
    t = mod.ap_truth_mc(100, 10, 1.0, 4000, mod.SEED)
    pop = mod.true_average_precision(1.0, 0.1)
    assert t["n_mc"] == 4000 and t["mcse"] < 0.003
    assert t["value"] - pop > 0.3 * t["sd"]


def test_independent_values(mod):
    # the large-sample check's scikit-learn/SciPy/NumPy values equal rankwise's, ties included
    pytest.importorskip("sklearn")
    rng = np.random.default_rng(3)
    y = rng.random(300) < 0.3
    s = np.round(rng.normal(y * 1.0, 1.0), 1)
    for c in ("auc", "gini", "average_precision", "ks_statistic", "partial_auc_tpr", "partial_auc_fpr"):
        e = rw.stats.estimate(y, s, mod.criterion_name(c), **mod.criterion_args(c, 300))
        assert mod.independent_value(c, y, s) == pytest.approx(e.value, abs=1e-12), c


def test_methods_from_the_library(mod):
    assert mod.method_label("auc", "analytic") == "delong"
    assert mod.method_label("gini", "analytic_logit") == "delong+logit"
    assert mod.method_label("average_precision", "analytic") == "hajek"
    assert mod.method_label("partial_auc_tpr", "analytic") == "hajek"
    assert mod.method_label("ks_statistic", "bootstrap_bca") == "boot BC"
    assert mod.method_label("auc", "bootstrap_bca") == "boot BCa"
    assert not mod.applicable("ks_statistic", "analytic") and not mod.applicable("ks_statistic", "analytic_logit")
    assert mod.applicable("ks_statistic", "bootstrap_percentile")
    for c in mod.CRITERIA:
        assert mod.analytic_methods(c) == rw.criteria.get(
            (mod.criterion_name(c), mod.criterion_args(c, 100))).methods


def test_cells(study):
    _, result = study
    cells = result["cells"]
    assert len(cells) == 6
    assert {(c["n"], c["criterion"]) for c in cells} == {
        (n, c) for n in (100, 1000) for c in ("auc", "pnorm_push", "average_precision")}
    for c in cells:
        assert c["reps"] == 60 and c["balance"] == 0.5
        assert c["undefined"] == 0 and c["degenerate"] == 0
        assert 0.80 <= c["coverage"] <= 1.0, c
        assert 0.6 <= c["se_ratio"] <= 1.6, c
        assert c["method_label"] == ("delong" if c["criterion"] == "auc" else "hajek")
        if c["criterion"] == "average_precision":
            # scored against the population AP; E[AP] at n beside it
            assert c["truth"] == pytest.approx(0.7529959968648294, abs=1e-12)
            assert c["truth_alt"] > c["truth"] and 0.80 <= c["coverage_alt"] <= 1.0


def test_ks_bootstrap_cells(mod, ks_study):
    cells = ks_study["cells"]
    assert [(c["n"], c["method"], c["method_label"]) for c in cells] == [
        (100, "bootstrap_bca", "boot BC"), (1000, "bootstrap_bca", "boot BC")]
    assert ks_study["settings"]["methods_by_criterion"] == {"ks_statistic": ["bootstrap_bca"]}
    assert "not applicable" in mod.markdown(ks_study)
    for c in cells:
        assert c["reps"] == 60 and c["undefined"] == 0 and c["degenerate"] == 0
        assert c["truth"] == pytest.approx(2.0 * stats.norm.cdf(0.5) - 1.0, abs=1e-15)
        # the SD of the resamples against the SD of the estimates
        assert 0.6 <= c["se_ratio"] <= 1.6, c
        # The sample maximum over thresholds is biased upward (+0.6 to +0.8 SD here; see
        # REPRODUCTION.md): even a right SE leaves the bias-corrected interval below nominal
        # at n = 100, so the bound is looser than the analytic cells'; a halved SE would
        # still fail it.
        assert (0.75 if c["n"] == 100 else 0.80) <= c["coverage"] <= 1.0, c
        assert c["bias_over_sd"] > 0


def test_deterministic(study):
    mod, result = study
    again = mod.run_study(ns=(100,), balances=(0.5,), criteria=("auc",), methods=("analytic",), reps=60,
                          resamples=200, seed=mod.SEED)
    first = [c for c in result["cells"] if c["n"] == 100 and c["criterion"] == "auc"][0]
    assert again["cells"][0]["coverage"] == first["coverage"]
    assert again["cells"][0]["mean_estimate"] == first["mean_estimate"]
    assert not math.isnan(first["coverage"])
