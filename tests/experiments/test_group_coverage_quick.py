"""experiments/group_coverage.py (issue 29): the model's exact pieces against literal
definitions (every pair's probability, the population mixtures, the stratum weights of
``rw.stats.stratified_auc``), the layouts, then the quick run (R = 50, three designs, fixed
seeds): the structure of the results and loose sanity bounds (coverage at least 0.8, size
at most 0.2 at 50 replications)."""

from __future__ import annotations

import importlib.util
import json
import math
import os

import numpy as np
import pytest
from scipy import integrate, stats

import rankwise as rw
from _support.paths import EXPERIMENTS


@pytest.fixture(scope="module")
def mod():
    spec = importlib.util.spec_from_file_location("experiment_group_coverage",
                                                  os.path.join(EXPERIMENTS, "group_coverage.py"))
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    return m


def _literal_pairs(P, N, m, ids, rho):
    """The mean over the pairs of P x N of P(s_i > s_j), one pair at a time."""
    tot = 0.0
    for i in P:
        for j in N:
            same = ids is not None and ids[i] == ids[j]
            sd = math.sqrt(2.0 * (1.0 - rho)) if same else math.sqrt(2.0)
            tot += stats.norm.cdf((m[i] - m[j]) / sd)
    return tot / (len(P) * len(N))


@pytest.mark.parametrize("rho", [0.0, 0.5])
def test_pair_expectation_literal(mod, rho):
    rng = np.random.default_rng(4)
    n = 40
    mu = mod.MU["alt"]
    g = rng.integers(0, 4, n)
    y = rng.random(n) < 0.45
    ids = np.repeat(np.arange(n // 4), 4) if rho > 0 else None
    codes = np.where(y, g, 4)
    m = np.where(y, np.asarray(mu)[g], 0.0)
    for gp, gn in (([0], [0]), ([1, 2, 3], [0]), ([2], [0, 1, 3]), ([0, 1, 2, 3], [0, 1, 2, 3])):
        in_p, in_n = y & np.isin(g, gp), ~y & np.isin(g, gn)
        want = _literal_pairs(np.flatnonzero(in_p), np.flatnonzero(in_n), m, ids, rho)
        assert mod.pair_expectation(in_p, in_n, codes, mu, ids, rho) == pytest.approx(want, abs=1e-13)
    assert math.isnan(mod.pair_expectation(np.zeros(n, bool), ~y, codes, mu))


def test_population_truths(mod):
    pi, p = np.asarray(mod.SHARES), np.asarray(mod.PREVALENCES)
    mu = np.asarray(mod.MU["alt"])
    pop = mod.population_truths("alt")
    # a_g = P(X > Y), X ~ N(mu_g, 1), Y ~ N(0, 1), by quadrature
    for g in range(4):
        val, _ = integrate.quad(lambda t: stats.norm.sf(t - mu[g]) * stats.norm.pdf(t), -np.inf, np.inf)
        assert pop["auc"][g] == pytest.approx(val, abs=1e-10)
        assert pop["bnsp_auc"][g] == pytest.approx(val, abs=1e-10)
        # BPSN: the other groups' positives, a mixture with weights pi_h p_h, over N(0, 1)
        rest = [h for h in range(4) if h != g]
        w = pi[rest] * p[rest] / (pi[rest] * p[rest]).sum()
        mix, _ = integrate.quad(lambda t: sum(wh * stats.norm.sf(t - mu[h]) for wh, h in zip(w, rest))
                                * stats.norm.pdf(t), -np.inf, np.inf)
        assert pop["bpsn_auc"][g] == pytest.approx(mix, abs=1e-10)
        assert pop["xauc_disparity"][g] == pytest.approx(val - mix, abs=1e-10)
        assert pop["diff_rest"][g] == pytest.approx(val - mix, abs=1e-10)
    a = stats.norm.cdf(mu / math.sqrt(2))
    v = {"pairs": pi ** 2 * p * (1 - p), "positives": pi * p, "size": pi, "uniform": np.ones(4)}
    for k, vk in v.items():
        assert pop["stratified"][k] == pytest.approx(vk @ a / vk.sum(), abs=1e-14)
    null = mod.population_truths("null")
    assert np.allclose(null["xauc_disparity"], 0.0, atol=1e-15) and np.allclose(null["diff_rest"], 0, atol=1e-15)
    assert list(null["stratified"].values()) == pytest.approx([stats.norm.cdf(1 / math.sqrt(2))] * 4, abs=1e-15)


def test_fixed_layout_conditional_equals_population(mod):
    # The fixed cells are the population proportions exactly: the two truths agree.
    pos, neg = mod.fixed_cells()
    assert pos.tolist() == [120, 150, 40, 40] and neg.tolist() == [280, 150, 160, 60]
    for hyp in mod.HYPOTHESES:
        y, s, g, ids = mod.simulate(hyp, "fixed", np.random.default_rng(0))
        assert ids is None and y.shape == s.shape == g.shape == (1000,)
        assert np.bincount(g[y]).tolist() == pos.tolist() and np.bincount(g[~y]).tolist() == neg.tolist()
        cond = mod.conditional_truths(y, g, None, mod.MU[hyp])
        pop = mod.population_truths(hyp)
        for k, _ in mod.GROUP_STATS:
            assert np.allclose(cond[k], pop[k], atol=1e-13, rtol=0)
        for w in mod.WEIGHTINGS:
            assert cond["stratified"][w] == pytest.approx(pop["stratified"][w], abs=1e-13)


def test_stratum_weights_match_rankwise(mod):
    y, s, g, _ = mod.simulate("alt", "random", np.random.default_rng(1))
    pos, neg = np.bincount(g[y], minlength=4), np.bincount(g[~y], minlength=4)
    for w in mod.WEIGHTINGS:
        r = rw.stats.stratified_auc(y, s, g, weighting=w)
        assert np.allclose(mod.stratum_weights(pos, neg, w), r.weights, atol=1e-15)


@pytest.mark.parametrize("layout", ["random", "clusters-within", "clusters-across"])
def test_layouts(mod, layout):
    rng = np.random.default_rng(2)
    Y, R, S = [], [], []
    for _ in range(20):
        y, s, g, ids = mod.simulate("null", layout, rng)
        Y.append(y)
        R.append(s - y * 1.0)
        S.append(g)
        if layout == "random":
            assert ids is None
        else:
            assert np.array_equal(ids, np.repeat(np.arange(250), 4))
            per = g.reshape(250, 4)
            one_group = np.mean(np.all(per == per[:, :1], axis=1))
            assert one_group == 1.0 if layout == "clusters-within" else one_group < 0.2
    y, r, g = np.concatenate(Y), np.concatenate(R), np.concatenate(S)
    assert np.bincount(g, minlength=4) / g.size == pytest.approx(mod.SHARES, abs=0.02)
    for h in range(4):
        assert y[g == h].mean() == pytest.approx(mod.PREVALENCES[h], abs=0.04)
    assert r.var() == pytest.approx(1.0, abs=0.05)
    if layout != "random":  # two rows of a cluster: correlation rho
        rr = r.reshape(-1, 4)
        assert np.mean(rr[:, 0] * rr[:, 1]) == pytest.approx(mod.RHO, abs=0.06)


def test_logit_interval_matches_estimate(mod):
    y, s, g, _ = mod.simulate("alt", "random", np.random.default_rng(3))
    for sel in (g == 3, np.ones_like(y)):
        e = rw.stats.estimate(y[sel], s[sel])
        lo, hi = mod.logit_interval(np.array([e.value]), np.array([e.std_error]))
        want = e.confidence_interval(0.95, transform="logit")
        assert (lo[0], hi[0]) == pytest.approx((want[0], want[1]), abs=1e-14)
    lo, hi = mod.logit_interval(np.array([1.0, 0.0]), np.array([0.1, 0.1]))
    assert lo.tolist() == hi.tolist() == [1.0, 0.0]


def test_global_test_logit(mod):
    # the logit-scale Wald statistic, literally: logit values, delta-method covariance, the
    # contrasts against the first group (the same test as successive differences)
    y, s, g, _ = mod.simulate("alt", "random", np.random.default_rng(5))
    res = rw.stats.by_group(y, s, g, bias=False)
    v = np.array([res.value(k) for k in res.groups])
    C = res.cov[("score", "auc")]
    x = np.log(v / (1 - v))
    Cl = C / np.outer(v * (1 - v), v * (1 - v))
    B = np.hstack([-np.ones((3, 1)), np.eye(3)])
    d = B @ x
    want = stats.chi2.sf(d @ np.linalg.inv(B @ Cl @ B.T) @ d, 3)
    assert mod.global_test_logit(v, C) == pytest.approx(want, rel=1e-10)
    # the raw-scale version of the same construction is rankwise's global test
    d = B @ v
    raw = stats.chi2.sf(d @ np.linalg.inv(B @ C @ B.T) @ d, 3)
    assert res.global_tests[0].p_value == pytest.approx(raw, rel=1e-8)
    assert math.isnan(mod.global_test_logit(np.array([0.7, np.nan, 1.0, np.nan]), C))  # one group left


def test_bad_design(mod):
    with pytest.raises(ValueError, match="layout"):
        mod.run_design("null", "other", 2)
    with pytest.raises(ValueError, match="hypothesis"):
        mod.simulate("neither", "fixed", np.random.default_rng(0))


@pytest.fixture(scope="module")
def quick(mod):
    return {(d["hypothesis"], d["layout"], d["n"]): d for d in mod.run(mod.QUICK_DESIGNS, mod.QUICK_REPS)}


def test_quick_structure_and_sanity(mod, quick):
    assert set(quick) == set(mod.QUICK_DESIGNS)
    for (hyp, layout, n), d in quick.items():
        assert d["reps"] == 50
        analyses = d["analyses"]
        assert set(analyses) == ({"clusters", "ignored"} if layout.startswith("clusters") else {"independent"})
        for a, res in analyses.items():
            assert res["undefined"] == 0 and "OneClassGroupWarning" not in res["warnings"]
            for k, _ in mod.GROUP_STATS:
                c = res["groups"][k]
                assert len(c["coverage"]) == 4 and all(math.isfinite(x) for x in c["mc_se"])
                if a != "ignored":
                    assert 0.8 <= c["pooled"] <= 1.0 and 0.8 <= c["pooled_cond"] <= 1.0, (hyp, layout, k)
                    assert min(c["coverage"]) >= 0.7 and min(c["coverage_cond"]) >= 0.7
                    assert ("pooled_logit" in c) == (k in mod.LOGIT_STATS)
                    assert all(0.6 < x < 1.5 for x in c["se_ratio"])
            for w in mod.WEIGHTINGS:
                t = res["stratified"][w]["total"]
                assert 0.8 <= t["coverage"] <= 1.0 and 0.6 < t["se_ratio"] < 1.5
                assert res["stratified"][w]["strata_part"]["mean_se"] <= t["mean_se"] + 1e-15
            rates = res["rejection"]
            assert {k for k, _ in mod.FAMILIES} <= set(rates)
            if hyp == "null" and a != "ignored":
                assert rates["global"]["rate"] <= 0.2 and rates["rest"]["rate"] <= 0.2
    # alt: the groups differ (a_g from 0.64 to 0.80), so the global test has power
    assert quick[("alt", "random", 1000)]["analyses"]["independent"]["rejection"]["global"]["rate"] > 0.3
    # the fixed layout: conditional and population truths agree
    fx = quick[("null", "fixed", 1000)]["analyses"]["independent"]["groups"]["auc"]
    assert fx["coverage"] == fx["coverage_cond"]


def test_main_writes_results(mod, capsys, tmp_path):
    assert mod.main(["--quick", "--reps", "3", "--out", str(tmp_path)]) == 0
    text = capsys.readouterr().out
    assert "| alt | random | 1000 | independent |" in text and "| null | clusters-across | 1000 | clusters |" in text
    assert "| null | clusters-across | 1000 | ignored |" in text
    doc = json.loads((tmp_path / "group_coverage.json").read_text())
    assert doc["reps"] == 3 and len(doc["designs"]) == 3 and doc["seed"] == mod.SEED
    assert (tmp_path / "group_coverage.md").read_text().startswith("# Group coverage")
    with pytest.raises(SystemExit):
        mod.main(["--reps", "1"])
