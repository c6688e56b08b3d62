"""experiments/paper001_variance.py (Clémençon, Lugosi & Vayatis 2008, the variance condition):
its exact pieces against literal definitions, then the quick run's claims: the exponent
below 1 on the window class and about 1 on paper001_rates.py's class, the rate's slope
following -1/(2 - kappa) for two laws, and the first-order bound holding."""

from __future__ import annotations

import importlib.util
import json
import math
import os

import numpy as np
import pytest
from scipy import integrate

from _support.paths import EXPERIMENTS


@pytest.fixture(scope="module")
def mod():
    spec = importlib.util.spec_from_file_location("experiment_paper001_variance",
                                                  os.path.join(EXPERIMENTS, "paper001_variance.py"))
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    return m


def _literal_risk(x, y, tau):
    """L_n(tau): ordered pairs i != j, 1[(y_i - y_j) r_tau(x_i, x_j) < 0] (no score ties here)."""
    s = np.where(np.abs(x) <= tau, -x, x)
    n = x.size
    bad = 0
    for i in range(n):
        for j in range(n):
            if i != j and y[i] != y[j] and (int(y[i]) - int(y[j])) * np.sign(s[i] - s[j]) < 0:
                bad += 1
    return bad / (n * (n - 1))


def test_exact_pieces(mod):
    rng = np.random.default_rng(1)
    for b in (1.0, 4.0):
        x, y = mod.sample(25, b, rng)
        edges, lam_n = mod.erm_path(x, y)
        L0 = _literal_risk(x, y, 0.0)
        assert 2 * mod.misordered_pairs(x, y) / (25 * 24) == pytest.approx(L0)
        for k in range(26):                      # every piece of the empirical risk along tau
            assert L0 + lam_n[k] == pytest.approx(_literal_risk(x, y, edges[k]), abs=1e-12)
        grid = np.linspace(0, 1, 401)
        lit = np.array([_literal_risk(x, y, t) for t in grid[::8]])
        tau_n = mod.erm_tau(x, y)
        assert _literal_risk(x, y, tau_n) == pytest.approx(lit.min(), abs=1e-12)   # a minimiser
        # sup over tau of |L_n - L| against a fine grid of tau (a lower bound for the sup)
        Lpop = mod.bayes_risk(b) + mod.excess_risk(grid, b)
        Lemp = np.array([L0 + lam_n[np.searchsorted(edges[1:-1], t, side="right")] for t in grid])
        sup = mod.sup_deviation(x, y, b)
        assert np.max(np.abs(Lemp - Lpop)) <= sup + 1e-12
        assert sup - np.max(np.abs(Lemp - Lpop)) < 0.01
        # R_n against its literal sup over the pieces (tau at each pair's farther |x|, and 0)
        eps = rng.choice([-1.0, 1.0], size=12)
        m = 12
        taus = np.r_[0.0, np.maximum(np.abs(x[:m]), np.abs(x[m:2 * m]))]
        lit_r = max(abs(sum(eps[i] * ((y[i] != y[m + i]) and
                                      (int(y[i]) - int(y[m + i])) * np.sign(
                                          np.where(abs(x[i]) <= t, -x[i], x[i])
                                          - np.where(abs(x[m + i]) <= t, -x[m + i], x[m + i])) < 0)
                            for i in range(m))) / m for t in taus)
        assert mod.rademacher(x, y, eps) == pytest.approx(lit_r)
    # the law's closed forms against two-dimensional quadrature of their definitions
    for b in (1.0, 2.0, 4.0):
        eta = lambda u: mod.eta(u, b)                                                    # noqa: E731
        Lstar = integrate.dblquad(lambda u, v: 0.25 * min(eta(u) * (1 - eta(v)), eta(v) * (1 - eta(u))),
                                  -1, 1, -1, 1, epsabs=1e-10)[0]
        assert mod.bayes_risk(b) == pytest.approx(Lstar, abs=1e-7)
        lam = integrate.dblquad(lambda u, v: 0.25 * abs(eta(u) - eta(v)), -0.4, 0.4, -0.4, 0.4, epsabs=1e-12)[0]
        assert float(mod.excess_risk(0.4, b)) == pytest.approx(lam, rel=1e-6)


def test_quick_run(mod, tmp_path):
    assert mod.main(["--quick", "--out", str(tmp_path)]) == 0
    res = json.loads((tmp_path / "results.json").read_text())
    ex = {r["a"]: r for r in res["exponent"]}
    # 1. the exponent: its interval holds the population slope over the same members, and for
    #    a = 1/4 it is clearly below 1 (interval 0.45-0.54 in the quick run) ...
    for r in ex.values():
        assert r["ci"][0] <= r["population_slope"] <= r["ci"][1], r
    assert ex[0.25]["ci"][1] < 0.8 and ex[1.0]["ci"][0] > 0.9
    # ... while on paper001_rates.py's class (directions) it is about 1 for a = 1/4 (0.92-1.02)
    (lin,) = res["directions"]
    assert lin["a"] == 0.25 and lin["ci"][0] > 0.85, lin
    # 2. the rate: with the slope predicted from the measured kappa (its SE carried through
    #    d/dkappa of -1/(2 - kappa) = -1/(2 - kappa)^2), each fitted slope is within 3 SE of
    #    its prediction, and the slopes differ in the predicted direction by more than 3 SE.
    rates = {r["a"]: r for r in res["rates"]}
    for a, r in rates.items():
        k = ex[a]["exponent"]
        pred, pred_se = -1 / (2 - k), ex[a]["se"] / (2 - k) ** 2
        se = math.hypot(r["slope_se"], pred_se)
        assert abs(r["fitted_slope"] - pred) <= 3 * se, (a, r["fitted_slope"], pred, se)
    diff = rates[0.25]["fitted_slope"] - rates[1.0]["fitted_slope"]
    assert diff > 3 * math.hypot(rates[0.25]["slope_se"], rates[1.0]["slope_se"]), diff
    # 3. the first-order bound: inequality (1) holds in every replicate (it is deterministic),
    #    and E 2 sup|L_n - L| <= 4 E R_n (Proposition 2 with psi(x) = x) within Monte Carlo error;
    #    the bound is loose by a factor that grows with n (the first-order rate is n^(-1/2)).
    for r in rates.values():
        for c in r["by_n"]:
            assert c["first_order_violations"] == 0
            assert c["two_sup_dev"] <= c["four_rademacher"] + 3 * math.hypot(c["two_sup_dev_se"],
                                                                              c["four_rademacher_se"])
            assert c["mean_excess"] < c["two_sup_dev"]
            assert c["excess_q95"] <= c["high_probability_bound"]
        f = [c["four_rademacher"] / c["mean_excess"] for c in r["by_n"]]
        assert f[-1] > f[0] > 10


def test_recorded_full_run(mod):
    from _support.paths import ROOT

    with open(os.path.join(ROOT, "experiments", "results", "paper001_variance", "results.json")) as fh:
        full = json.load(fh)
    st = full["settings"]
    # Its smallest cells re-run with its seeds (replicate r at (n, a) draws from
    # rng([seed, 2, n, r, 1000 a]), independent of the other cells): the same numbers.
    # The minimiser is found on integer counts, so only the last bits of the means can move.
    for row in full["rates"]:
        if row["a"] not in (1.0, 0.25):
            continue
        rec = row["by_n"][0]
        got = mod.cell(row["a"], rec["n"], rec["reps"], st["seed"])
        for key in ("mean_excess", "two_sup_dev", "four_rademacher", "excess_q95", "high_probability_bound"):
            assert got[key] == pytest.approx(rec[key], rel=1e-9), (row["a"], key)
    # The recorded claims (REPRODUCTION.md): each slope within 3 SE of -1/(2 - kappa) with the
    # measured kappa; the slopes ordered as the kappas; the first-order bound never violated
    # and its looseness growing with n.
    ex = {r["a"]: r for r in full["exponent"]}
    slopes = []
    for row in full["rates"]:
        k = ex[row["a"]]
        pred, pred_se = -1 / (2 - k["exponent"]), k["se"] / (2 - k["exponent"]) ** 2
        assert abs(row["fitted_slope"] - pred) <= 3 * math.hypot(row["slope_se"], pred_se), row["a"]
        # (3 SE, not the 95% interval: a = 1's interval [1.004, 1.047] misses 1.003 by 2.1 SE.)
        assert abs(k["exponent"] - k["population_slope"]) <= 3 * k["se"], k
        slopes.append((k["exponent"], row["fitted_slope"], row["slope_se"]))
        f = [c["four_rademacher"] / c["mean_excess"] for c in row["by_n"]]
        assert all(c["first_order_violations"] == 0 for c in row["by_n"]) and f == sorted(f)
    slopes.sort()
    for (k0, s0, e0), (k1, s1, e1) in zip(slopes, slopes[1:]):
        assert s1 - s0 < -3 * math.hypot(e0, e1), slopes        # larger kappa, steeper decay
    assert all(r["ci"][0] > 0.9 for r in full["directions"])   # about 1 on the class of directions
