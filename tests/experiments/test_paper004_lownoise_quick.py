"""experiments/paper004_lownoise.py (Agarwal 2014, Theorem 15 and the pairwise bounds): the quick
mode in the suite, its claims asserted, and its quadratures checked against rankwise.theory's
Monte Carlo at 4 standard errors (timings never asserted)."""

import importlib.util
import json
import os

import numpy as np
from _support.paths import EXPERIMENTS


def load(name):
    spec = importlib.util.spec_from_file_location(f"experiment_{name}", os.path.join(EXPERIMENTS, f"{name}.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_quadratures_agree_with_monte_carlo():
    """The exact regrets the experiment rests on, against the theory module's own routes (the
    regret-identity U-statistic and the Monte Carlo surrogate regret) on the same law."""
    mod = load("paper004_lownoise")
    for alpha in (0.1, 1.0):
        dist = mod.law(alpha)
        for a, b, c in ((1.0, 0.3, 0.1), (0.8, 0.05, -0.2)):
            def f(X, a=a, b=b, c=c):
                return mod.features(dist, X) @ np.array([a, b]) + c
            rr = dist.ranking_regret(f, n_mc=60_000, random_state=11)
            sr = dist.surrogate_regret(f, "logistic", n_mc=100_000, random_state=12)
            assert abs(mod.ranking_regret(alpha, a, b, m=2000) - rr.value) <= 4 * rr.std_error
            assert abs(mod.surrogate_regret(alpha, a, b, c, m=2000) - sr.value) <= 4 * sr.std_error
    # The windowed quadrature against the brute-force grid where the grid resolves the window.
    assert abs(mod.ranking_regret(0.25, 1.0, 0.2, m=2000) / mod._ranking_regret_grid(0.25, 1.0, 0.2, 2000) - 1) < 1e-3


def test_paper004_lownoise_quick(tmp_path):
    mod = load("paper004_lownoise")
    assert mod.main(["--quick", "--out", str(tmp_path)]) == 0
    res = json.loads((tmp_path / "results.json").read_text())
    t15 = res["theorem15"]
    assert len(t15["cells"]) == 2 * 3 * 10
    # Every bound holds in every cell, with the quadrature error against it; regrets are not 0.
    for c in t15["cells"]:
        assert c["holds15"] and c["holds13"] and c["holds_conditional"]
        assert c["ranking_regret"] > 0 and c["surrogate_regret"] > 0
    rates = {r["alpha"]: r for r in t15["rates"]}
    paths = {p["alpha"]: p for p in t15["paths"]}
    for alpha, r in rates.items():
        # The fitted models' rate is at least Theorem 15's exponent (within 2 SE of the slope) ...
        assert r["slope"] >= r["theorem15_exponent"] - 2 * r["slope_se"]
        # ... and along the exact path (a, b, c) = (1, g, 0) the local slope is the family's
        # (1 + min(2 alpha, 1))/2, at least the theorem's exponent.
        assert abs(paths[alpha]["local_slope_smallest_g"] - r["path_prediction"]) < 0.02
        assert paths[alpha]["local_slope_smallest_g"] >= r["theorem15_exponent"]
    # Lower noise (larger alpha), faster rate: for the fitted models (2 combined SE) and the path.
    lo, hi = rates[0.1], rates[1.0]
    assert hi["slope"] - lo["slope"] > 2 * np.hypot(hi["slope_se"], lo["slope_se"])
    assert paths[1.0]["local_slope_smallest_g"] > paths[0.1]["local_slope_smallest_g"] + 0.3
    # Pairwise: both forms of the bound hold in every cell in the strict direction; the
    # well-specified pairwise regret shrinks with n.
    pw = res["pairwise"]
    assert len(pw) == 8 and all(c["holds"] and c["holds_tight"] for c in pw)
    for loss in ("exponential", "logistic"):
        z = [c["pairwise_regret"] for c in pw if c["law"] == "well-specified" and c["loss"] == loss]
        assert z[1] < z[0] / 3
