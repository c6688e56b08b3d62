"""experiments/noninferiority_power.py: the model against its definition, then a quick run
(R = 200, fixed seeds): at the size computed from a large pilot's variance the
non-inferiority and equivalence tests of rw.stats.compare reject at the target power (0.8)
within Monte Carlo error; at the binormal formulas' (conservative) size, more often."""

from __future__ import annotations

import importlib.util
import math
import os

import numpy as np
import pytest
from scipy import stats

from _support.paths import EXPERIMENTS


@pytest.fixture(scope="module")
def mod():
    spec = importlib.util.spec_from_file_location("experiment_noninferiority_power",
                                                  os.path.join(EXPERIMENTS, "noninferiority_power.py"))
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    return m


def test_model(mod):
    assert stats.norm.cdf(mod.mu_of(0.8) / math.sqrt(2)) == pytest.approx(0.8, abs=1e-14)
    y, s1, s2 = mod.draw(np.random.default_rng(0), 20000, 1.0, 0.5, 0.6)
    assert y.sum() == 20000 and s1.shape == (40000,)
    assert np.corrcoef(s1[~y], s2[~y])[0, 1] == pytest.approx(0.6, abs=0.02)
    assert s2[y].mean() == pytest.approx(0.5, abs=0.03)


def test_quick_run(mod):
    res = mod.run(200)
    rows = {(r["design"], r["variance"]): r for r in res["rows"]}
    assert len(rows) == 4
    for design in ("noninferiority", "equivalence"):
        pilot, binormal = rows[(design, "pilot")], rows[(design, "binormal")]
        assert abs(pilot["z"]) < 3.5, pilot
        assert binormal["n_positive"] > pilot["n_positive"] and binormal["rejection_rate"] > 0.85
