"""experiments/curve_test_size.py: the designs draw what the script says, and a small run
(R = 40, B = 100, n = 30, fixed seeds) has the structure of the full one with rejection
rates in [0, 1] (loose bounds only: 40 datasets say little about a 5% rate)."""

from __future__ import annotations

import importlib.util
import json
import os

import numpy as np
import pytest

from _support.paths import EXPERIMENTS


@pytest.fixture(scope="module")
def mod():
    spec = importlib.util.spec_from_file_location("experiment_curve_test_size",
                                                  os.path.join(EXPERIMENTS, "curve_test_size.py"))
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    return m


def test_designs(mod):
    rng = np.random.default_rng(0)
    kind, y, a, b = mod.draw("paired, correlated", 4000, rng)
    assert kind == "paired" and 0.37 < y.mean() < 0.43
    lb = np.log(b)
    for cls in (0, 1):  # same marginal law in each class, correlation 0.5
        assert abs(a[y == cls].mean() - lb[y == cls].mean()) < 0.1
        assert 0.45 < np.corrcoef(a[y == cls], lb[y == cls])[0, 1] < 0.55
    _, y, a, b = mod.draw("paired, tied", 200, rng)
    assert np.array_equal(np.round(a, 1), a) and np.unique(a).shape[0] < 100
    kind, ya, a, yb, b = mod.draw("unpaired, unequal sizes and shares", 2000, rng)
    assert kind == "unpaired" and a.shape == (2000,) and b.shape == (4000,)
    assert 0.37 < ya.mean() < 0.43 and 0.22 < yb.mean() < 0.28
    _, y, a, b = mod.draw("paired, crossing curves, equal AUCs", 4000, rng)
    assert np.std(b[y == 1]) > 2 and np.std(b[y == 0]) < 0.5


def test_quick_run(mod, tmp_path):
    assert mod.main(["--reps", "40", "--permutations", "100", "--n", "30", "--out", str(tmp_path)]) == 0
    doc = json.loads((tmp_path / "curve_test_size.json").read_text())
    assert doc["reps"] == 40 and doc["permutations"] == 100
    rows = doc["rows"]
    assert [r["design"] for r in rows] == list(mod.DESIGNS)
    for r in rows:
        assert 0.0 <= r["rejection_rate"] <= 1.0 and r["mc_se"] >= 0
        if r["null"]:
            assert r["rejection_rate"] <= 0.2, r
    assert "delong_rejection_rate" in rows[-1]
    assert (tmp_path / "curve_test_size.md").read_text().startswith("# The size of Venkatraman's curve tests")
