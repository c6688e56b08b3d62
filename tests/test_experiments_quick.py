"""The quick modes of the experiments in experiments/ run in the suite (timings never asserted)."""

import importlib.util
import json
import os

HERE = os.path.join(os.path.dirname(__file__), "..", "experiments")


def load(name):
    spec = importlib.util.spec_from_file_location(f"experiment_{name}", os.path.join(HERE, f"{name}.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_paper003_synthetic_quick(tmp_path, capsys):
    mod = load("paper003_synthetic")
    assert mod.main(["--quick", "--out", str(tmp_path)]) == 0
    res = json.loads((tmp_path / "results.json").read_text())
    assert [c["K"] for c in res["configs"]] == [1, 2, 3]
    for c in res["configs"]:
        # Exactness: the literal pair loop and the class moments give the same w.
        assert c["literal_max_diff"] < 1e-8
        # BBR cannot beat the optimal scorer by more than test noise; LCBR improves with S.
        assert c["bbr_auc"] <= c["optimal_auc"] + 0.01
        lc = c["lcbr"]
        assert lc["5000"]["risk"] <= lc["50"]["risk"]
    assert "Skew panel" in capsys.readouterr().out


def test_paper000_consistency_quick(tmp_path):
    mod = load("paper000_consistency")
    assert mod.main(["--quick", "--out", str(tmp_path)]) == 0
    res = json.loads((tmp_path / "results.json").read_text())
    for row in res["consistency"]:
        errs = [r["mean_abs_error"] for r in row["by_n"]]
        assert errs[-1] < errs[0]  # W_n / n+ approaches W_phi
        assert -0.8 < row["slope"] < -0.3  # about the sqrt(n) rate
    assert all(o["holds"] for o in res["optimality"])


def test_paper004_regret_quick(tmp_path):
    mod = load("paper004_regret")
    assert mod.main(["--quick", "--out", str(tmp_path)]) == 0
    res = json.loads((tmp_path / "results.json").read_text())
    assert len(res["cells"]) == 18
    # Theorem 13 holds in every cell, and the regrets are real numbers, not zeros by construction.
    assert all(c["holds"] for c in res["cells"])
    assert all(c["ranking_regret"] > 0 and c["surrogate_regret"] > 0 for c in res["cells"])


def test_paper003_real_quick(tmp_path):
    import pytest

    mod = load("paper003_real")
    if mod.load("german") is None:
        pytest.skip("../shared/data/german.data-numeric is absent")
    assert mod.main(["--quick", "--out", str(tmp_path)]) == 0
    res = json.loads((tmp_path / "results.json").read_text())["datasets"]
    for name, d in res.items():
        means = d["auc_mean"]
        assert set(means) == set(mod.learners(0))
        # Every learner ranks far better than chance on these datasets with all the data.
        assert all(row["1.0"] > 0.7 for row in means.values()), name


def test_paper001_rates_quick(tmp_path):
    import numpy as np

    from rankwise import theory

    mod = load("paper001_rates")
    # The deterministic regret of a direction against the theory module's Monte Carlo.
    d = theory.SingleIndex([1.0, 0.0], link="noise", alpha=0.5)
    q = mod.regret_of_angle(d, [0.8])[0]
    mc = d.ranking_regret(theory.LinearScore([np.cos(0.8), np.sin(0.8)]), n_mc=100_000, random_state=0)
    assert abs(q - mc.value) < 4 * mc.std_error + 1e-4
    assert mod.regret_of_angle(d, [0.0])[0] == 0.0
    assert mod.main(["--quick", "--out", str(tmp_path)]) == 0
    res = json.loads((tmp_path / "results.json").read_text())
    for row in res["rows"]:
        assert all(b["mean_excess"] >= 0 for b in row["by_n"])


def test_paper000_targeting_quick(tmp_path):
    mod = load("paper000_targeting")
    assert mod.main(["--quick", "--out", str(tmp_path)]) == 0
    res = json.loads((tmp_path / "results.json").read_text())
    rows = res["datasets"]["caravan"]["rows"]
    assert [r["target"] for r in rows] == ["pnorm_push:p=8", "dcg:k=100"]
    for r in rows:
        # The kept round is never below the AUC-trained start on training data.
        assert max(r["train_path"]) >= r["train_path"][0]
        for other in ("PairwiseRanker", "LogisticRegression"):
            d = r["vs"][other]
            assert d["low"] <= d["difference"] <= d["high"]
            assert abs(d["difference"] - (r["values"]["RankStatisticRanker"] - r["values"][other])) < 1e-12
    assert "RSR - Pairwise" in (tmp_path / "results.md").read_text()
