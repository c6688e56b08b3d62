"""The coverage study of ``experiments/coverage.py`` (issue 3), in a small fixed-seed run.

Only the analytic default intervals (DeLong for the AUC, Hajek for the p-norm push) at
balance 0.5, n = 100 and 1000, R = 60: loose bounds that a correct variance estimate
passes and a wrong one (off by a factor of 2 in SE) does not. Deterministic: the seeds
are fixed in the script.
"""

import importlib.util
import os

import pytest
from _support.paths import EXPERIMENTS

PATH = os.path.join(EXPERIMENTS, "coverage.py")


@pytest.fixture(scope="module")
def study():
    spec = importlib.util.spec_from_file_location("rankwise_experiments_coverage", PATH)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    result = mod.run_study(ns=(100, 1000), balances=(0.5,), criteria=("auc", "pnorm_push"),
                           methods=("analytic",), reps=60, resamples=200, seed=mod.SEED)
    return mod, result


def test_true_values():
    spec = importlib.util.spec_from_file_location("rankwise_experiments_coverage", PATH)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    assert mod.true_auc(1.0) == pytest.approx(0.76024993890652, abs=1e-12)
    # p = 1: (int G h) = P(positive below negative) = 1 - AUC
    assert mod.true_pnorm_push(1.0, 1) == pytest.approx(1.0 - mod.true_auc(1.0), abs=1e-9)
    # top = 1 keeps everything: the local AUC is the AUC
    assert mod.true_local_auc(1.0, 0.3, top=1.0 - 1e-15) == pytest.approx(mod.true_auc(1.0), abs=1e-7)


def test_cells(study):
    _, result = study
    cells = result["cells"]
    assert len(cells) == 4
    assert {(c["n"], c["criterion"]) for c in cells} == {(100, "auc"), (100, "pnorm_push"),
                                                         (1000, "auc"), (1000, "pnorm_push")}
    for c in cells:
        assert c["reps"] == 60 and c["balance"] == 0.5
        assert c["undefined"] == 0 and c["degenerate"] == 0
        assert 0.80 <= c["coverage"] <= 1.0, c
        assert 0.6 <= c["se_ratio"] <= 1.6, c
        assert c["method_label"] == ("delong" if c["criterion"] == "auc" else "hajek")


def test_deterministic(study):
    mod, result = study
    again = mod.run_study(ns=(100,), balances=(0.5,), criteria=("auc",), methods=("analytic",), reps=60,
                          resamples=200, seed=mod.SEED)
    first = [c for c in result["cells"] if c["n"] == 100 and c["criterion"] == "auc"][0]
    assert again["cells"][0]["coverage"] == first["coverage"]
    assert again["cells"][0]["mean_estimate"] == first["mean_estimate"]
