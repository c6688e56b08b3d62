"""experiments/survival_uno_coverage.py (issue 30) in a quick run (R = 150, n = 300, 30% and
60% censored): the 95% intervals of Uno's C (against the censoring-free C_tau) and of
Harrell's C (against the mean of its estimates) cover near 95% and the infinitesimal
jackknife standard errors match the spread of the estimates (loose bounds: a standard
error off by a factor sqrt(2) either way fails them)."""

from __future__ import annotations

import importlib.util
import os

import pytest

from _support.paths import EXPERIMENTS


@pytest.fixture(scope="module")
def results():
    spec = importlib.util.spec_from_file_location("experiment_survival_uno_coverage",
                                                  os.path.join(EXPERIMENTS, "survival_uno_coverage.py"))
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    return m.run(150, 300, 30)


@pytest.mark.parametrize("share", [0.3, 0.6])
@pytest.mark.parametrize("which", ["Uno", "Harrell"])
def test_quick_coverage(results, share, which):
    r = results[(share, which)]
    assert 0.88 <= r["coverage"] <= 0.995
    assert 0.75 <= r["se_ratio"] <= 1.35
    assert 0.6 < r["truth"] < 0.9
