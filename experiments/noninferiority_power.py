"""Empirical power of the non-inferiority and equivalence tests on the AUC at the sample
size rankwise computes for them.

``rw.stats.auc_study(..., alternative="noninferiority" | "equivalence", margin=d)`` and
``rw.stats.auc_study_from_pilot(...)`` give the positives ``n+`` for a target power; this
script draws samples of that size and counts how often
``rw.stats.compare(y, [s1, s2], "auc", alternative=..., margin=d)`` rejects at the
design's level. The formula is right when the rejection rate is within Monte Carlo error
of the target power.

The model. Two paired scorers; negatives ``(X1, X2) ~ N(0, Sigma)``, positives
``N((mu1, mu2), Sigma)``, ``Sigma`` with unit variances and correlation ``rho`` (the same
in both classes), ``n-`` = ``n+`` (kappa = 1). The AUCs are ``Phi(mu / sqrt(2))``, a
binormal curve with ``b = 1``.

Designs (level 0.025 for each one-sided test, target power 0.8, margin 0.05):

* ``noninferiority``: AUCs 0.80 and 0.82 (the new score slightly worse), rho = 0.6;
* ``equivalence``: AUCs 0.80 and 0.80, rho = 0.6 (two one-sided tests).

Each design's variance per positive ``V_A`` is taken two ways: from a large pilot (200,000
rows, DeLong, ``auc_study_from_pilot``), which estimates the true variance, and from the
binormal formulas of Obuchowski & McClish (``auc_study``), which are known to be larger
than the true variance (``auc_variance_binormal``): their sizes are conservative, so the
empirical power there is above the target. The pilot's rows are independent of the test
samples'.

Per design: ``n+`` (rounded up), the rejection rate over ``R`` samples, its Monte Carlo
standard error ``sqrt(p (1 - p) / R)``, and ``z = (rate - target) / se``.

Seeds: design ``k`` draws from ``np.random.default_rng([SEED, k])``.

Usage::

    python experiments/noninferiority_power.py --out experiments/results   # R = 2000
    python experiments/noninferiority_power.py --quick                      # R = 200
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import sys
import time

import numpy as np
from scipy import stats

import rankwise as rw

SEED = 2033
ALPHA = 0.025
POWER = 0.8
MARGIN = 0.05
RHO = 0.6
PILOT = 200_000

DESIGNS = (
    {"name": "noninferiority", "auc1": 0.80, "auc2": 0.82},
    {"name": "equivalence", "auc1": 0.80, "auc2": 0.80},
)


def mu_of(auc: float) -> float:
    """The positives' mean giving this AUC: ``sqrt(2) Phi^{-1}(auc)``."""
    return math.sqrt(2.0) * stats.norm.ppf(auc)


def draw(rng, n: int, mu1: float, mu2: float, rho: float):
    """``n`` positives and ``n`` negatives of the paired model: ``(y, s1, s2)``."""
    cov = [[1.0, rho], [rho, 1.0]]
    pos = rng.multivariate_normal([mu1, mu2], cov, size=n)
    neg = rng.multivariate_normal([0.0, 0.0], cov, size=n)
    y = np.r_[np.ones(n, dtype=bool), np.zeros(n, dtype=bool)]
    return y, np.r_[pos[:, 0], neg[:, 0]], np.r_[pos[:, 1], neg[:, 1]]


def sizes(design: dict, rng) -> dict:
    """``n+`` from the binormal formulas and from a large pilot."""
    alt = design["name"]
    binormal = rw.stats.auc_study(design["auc1"], auc2=design["auc2"], rho_positive=RHO, rho_negative=RHO,
                                  alpha=ALPHA, power=POWER, alternative=alt, margin=MARGIN)
    y, s1, s2 = draw(rng, PILOT // 2, mu_of(design["auc1"]), mu_of(design["auc2"]), RHO)
    pilot = rw.stats.auc_study_from_pilot(y, s1, s2, alpha=ALPHA, power=POWER, alternative=alt, margin=MARGIN)
    # The pilot gives the variance; the design is for the true difference, not the
    # pilot's estimate of it.
    delta = design["auc1"] - design["auc2"]
    va = pilot.var_alternative
    if alt == "noninferiority":
        z = stats.norm.ppf(1 - ALPHA) + stats.norm.ppf(POWER)
        n_pilot = z * z * va / (delta + MARGIN) ** 2
    else:
        # the same root finding as auc_study, with the pilot's variance
        n_pilot = _tost_n(va, delta)
    return {"binormal": binormal.n_positive, "binormal_var": binormal.var_alternative,
            "pilot": float(n_pilot), "pilot_var": float(va), "pilot_delta": pilot.delta}


def _tost_n(va: float, delta: float) -> float:
    from scipy import optimize

    z = stats.norm.ppf(1 - ALPHA)

    def pw(n):
        k = math.sqrt(n / va)
        return stats.norm.cdf(k * (MARGIN - delta) - z) + stats.norm.cdf(k * (MARGIN + delta) - z) - 1 - POWER
    return float(optimize.brentq(pw, 1.0, 1e7, xtol=1e-10))


def rejection_rate(design: dict, n: int, reps: int, rng) -> float:
    mu1, mu2 = mu_of(design["auc1"]), mu_of(design["auc2"])
    hits = 0
    for _ in range(reps):
        y, s1, s2 = draw(rng, n, mu1, mu2, RHO)
        c = rw.stats.compare(y, [s1, s2], "auc", alternative=design["name"], margin=MARGIN)
        hits += c.pairs[0].p_value < ALPHA
    return hits / reps


def run(reps: int) -> dict:
    rows = []
    for k, design in enumerate(DESIGNS):
        rng = np.random.default_rng([SEED, k])
        n = sizes(design, rng)
        for source in ("pilot", "binormal"):
            m = math.ceil(n[source])
            rate = rejection_rate(design, m, reps, rng)
            se = math.sqrt(POWER * (1 - POWER) / reps)
            rows.append({"design": design["name"], "auc1": design["auc1"], "auc2": design["auc2"], "variance": source,
                         "var_per_positive": n[source + "_var"], "n_positive": m, "rejection_rate": rate,
                         "mc_se": se, "z": (rate - POWER) / se})
    return {"alpha": ALPHA, "target_power": POWER, "margin": MARGIN, "rho": RHO, "replications": reps,
            "pilot_rows": PILOT, "rows": rows}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="R = 200")
    ap.add_argument("--reps", type=int, default=None)
    ap.add_argument("--out", default=None, help="folder for noninferiority_power.json")
    a = ap.parse_args(argv)
    reps = a.reps or (200 if a.quick else 2000)
    t0 = time.perf_counter()
    res = run(reps)
    res["seconds"] = time.perf_counter() - t0
    res["python"] = platform.python_version()
    res["rankwise"] = rw.__version__
    print(f"{'design':<15} {'variance':<9} {'V_A':>8} {'n+':>6} {'rate':>7} {'mc se':>7} {'z':>6}")
    for r in res["rows"]:
        print(f"{r['design']:<15} {r['variance']:<9} {r['var_per_positive']:8.4f} {r['n_positive']:6d} "
              f"{r['rejection_rate']:7.3f} {r['mc_se']:7.3f} {r['z']:6.2f}")
    if a.out:
        os.makedirs(a.out, exist_ok=True)
        with open(os.path.join(a.out, "noninferiority_power.json"), "w") as fh:
            json.dump(res, fh, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
