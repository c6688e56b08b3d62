"""experiments/compare_bootstrap_size.py: the null model's two scorers are exchangeable, and
the quick run (R = 30, B = 100) gives a table of rejection rates in [0, 1] for every design."""

from __future__ import annotations

import importlib.util
import json
import os

import numpy as np
import pytest

from _support.paths import EXPERIMENTS


@pytest.fixture(scope="module")
def mod():
    spec = importlib.util.spec_from_file_location("experiment_compare_bootstrap_size",
                                                  os.path.join(EXPERIMENTS, "compare_bootstrap_size.py"))
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    return m


def test_sample_is_stratified_and_exchangeable(mod):
    y, a, b = mod.sample(np.random.default_rng(0), 4000)
    assert y.sum() == 4000 and y.shape[0] == 8000
    # same law for both scorers: equal class means and spreads up to sampling error
    for cls in (0, 1):
        assert abs(a[y == cls].mean() - b[y == cls].mean()) < 0.06
        assert abs(a[y == cls].std() - b[y == cls].std()) < 0.05


def test_quick_run(mod, tmp_path):
    assert mod.main(["--quick", "--out", str(tmp_path)]) == 0
    doc = json.loads((tmp_path / "compare_bootstrap_size.json").read_text())
    assert doc["quick"] and doc["R"] == 30 and doc["B"] == 100
    got = {(r["design"], r["criterion"]) for r in doc["rows"]}
    assert got == {(d, c) for d in mod.DESIGNS for c in mod.CRITERIA + ("auc (DeLong)",)}
    for r in doc["rows"]:
        assert 0.0 <= r["rejection"] <= 0.3 and r["datasets"] == 30
    assert (tmp_path / "compare_bootstrap_size.md").read_text().startswith("# Size of the bootstrap")
