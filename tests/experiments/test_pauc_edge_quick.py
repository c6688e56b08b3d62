"""experiments/pauc_edge.py: the edges and truths against their definitions, then the quick
run (m in {10, 100}, R = 100, fixed seeds): the structure of the results, the standard error
the same on a grid point and 1e-9 either side of it, and loose bounds on SE / SD."""

from __future__ import annotations

import importlib.util
import json
import os

import numpy as np
import pytest
from scipy import integrate, stats

from _support.paths import EXPERIMENTS


@pytest.fixture(scope="module")
def mod():
    spec = importlib.util.spec_from_file_location("experiment_pauc_edge", os.path.join(EXPERIMENTS, "pauc_edge.py"))
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    return m


def test_edges_and_truths(mod):
    cells = mod.cells_of(10)
    assert len(cells) == len(mod.BANDS) * len(mod.OFFSETS) == 21
    on = [c for c in cells if c["offset"] == "on the grid"]
    assert [c["params"] for c in on] == [{"max_fpr": 0.2}, {"min_fpr": 0.2, "max_fpr": 0.6}, {"min_tpr": 0.8}]
    assert mod.edge(0.2, 10, 0.5, 0.0) == pytest.approx(0.25) and mod.edge(0.2, 10, 0.0, -1e-9) == 0.2 - 1e-9
    # The truths by a second route: over thresholds t, TPR = Gbar(t) = sf(t - mu), FPR = sf(t).
    mu = mod.MU
    fpr = integrate.quad(lambda t: stats.norm.sf(t - mu) * stats.norm.pdf(t), stats.norm.isf(0.6), stats.norm.isf(0.2))[0]
    assert mod.truth({"min_fpr": 0.2, "max_fpr": 0.6}) == pytest.approx(fpr, abs=1e-10)
    tpr = integrate.quad(lambda t: stats.norm.cdf(t) * stats.norm.pdf(t - mu), -np.inf, mu + stats.norm.isf(0.8))[0]
    assert mod.truth({"min_tpr": 0.8}) == pytest.approx(tpr, abs=1e-10)


def test_quick_run(mod, tmp_path):
    assert mod.main(["--quick", "--out", str(tmp_path)]) == 0
    with open(tmp_path / "pauc_edge.json") as f:
        doc = json.load(f)
    assert doc["quick"] and doc["ms"] == [10, 100] and doc["reps"] == 100
    rows = doc["cells"]
    assert len(rows) == 2 * 21
    for r in rows:
        assert 0.0 <= r["wald"]["coverage"] <= 1.0 and r["wald"]["degenerate"] < 0.05
        # 100 replications: the SD is known to about 7%; the old edge reads were 0.63-0.68 here.
        assert 0.8 < r["se_over_sd"] < 1.25, r
    for m in (10, 100):
        for band in ("max_fpr", "min_fpr", "min_tpr"):
            sel = {r["offset"]: r for r in rows if r["m"] == m and r["band"] == band}
            ses = [sel[k]["mean_se"] for k in ("1e-9 below", "on the grid", "1e-9 above")]
            assert max(ses) - min(ses) < 1e-6 * max(ses), (m, band, ses)  # no jump across a grid point
    assert (tmp_path / "pauc_edge.md").read_text().startswith("# The partial AUC's standard error")
