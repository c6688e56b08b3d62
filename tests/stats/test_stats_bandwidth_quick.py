"""experiments/bandwidth.py runs (quick mode) and its default windows give sane ratios."""

import importlib.util
import os

import numpy as np
from _support.paths import EXPERIMENTS

PATH = os.path.join(EXPERIMENTS, "bandwidth.py")


def load():
    spec = importlib.util.spec_from_file_location("bandwidth_experiment", PATH)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_bandwidth_quick():
    mod = load()
    rows = mod.run([mod.SETTINGS[1], mod.SETTINGS[7]], reps=40, seed=7)
    assert [r["n"] for r in rows] == [1000, 1000]
    for r in rows:
        ratios = r["se_over_sd"]
        assert all(np.isfinite(v) and v > 0 for v in ratios.values())
        # The shipped window is never worse than the first default, n^(2/3) observations.
        default = [v for k, v in ratios.items() if "default" in k][0]
        assert abs(np.log(default)) <= abs(np.log(ratios["n^(-1/3)"]))
    assert "mean SE / SD" in mod.table(rows)
