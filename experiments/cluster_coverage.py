"""Coverage of the cluster-robust AUC interval of ``rankwise.stats.estimate(..., clusters=)``
(issue 28), against DeLong's interval that treats the rows as independent.

The model (clustered binormal scores). ``G`` clusters of ``m`` units each. Labels, mixed
within a cluster (a cluster may still hold one class only), by one of two designs:

* ``iid``: every unit's label drawn independently, ``y ~ Bernoulli(0.4)``;
* ``beta``: a prevalence per cluster, ``p_g ~ Beta(1, 1.5)`` (mean 0.4), then
  ``y ~ Bernoulli(p_g)`` within the cluster (patients with several lesions: some
  clusters mostly positive, some mostly negative).

Each unit's score is

    s = mu * y + sqrt(rho) * b_g + sqrt(1 - rho) * e,     b_g, e ~ N(0, 1) independent,

``b_g`` shared by the units of cluster ``g`` and independent of the labels: the scores of
one cluster are correlated with intra-cluster correlation ``rho`` given the labels. With
``iid`` labels a cluster's positives and negatives share ``b_g``, which raises the
positives' placements and lowers the negatives' together: the cross term of Obuchowski's
variance is negative and offsets much of the within-class inflation, so DeLong's interval
falls short only for large clusters. With ``beta`` labels the classes concentrate in
different clusters and the shortfall is larger.

The estimand. Marginally a positive's score is ``N(mu, 1)`` and a negative's ``N(0, 1)``
(``rho + (1 - rho) = 1``), so the AUC of the population, the probability that a positive
scores above a negative drawn independently of it (from another cluster), is

    AUC = P(mu + Z1 - Z2 > 0) = Phi(mu / sqrt 2),      Z1, Z2 ~ N(0, 1) independent.

The empirical AUC also averages the pairs of a positive and a negative of the *same*
cluster, whose difference is ``mu + sqrt(1 - rho)(e - e')``, ``N(mu, 2(1 - rho))``: those
pairs have mean ``Phi(mu / sqrt(2(1 - rho)))``. Given the labels, with ``q`` the share of
(positive, negative) pairs that lie in one cluster,

    E[AUC-hat | labels] = (1 - q) Phi(mu / sqrt 2) + q Phi(mu / sqrt(2(1 - rho))),

a bias of order ``1 / G`` (``q`` is about ``1 / G``); it is reported (``design bias``,
the mean over the replications of that expectation minus the truth) beside the bias of
the estimates.

Per cell ``(labels, G, m, rho)``, ``R`` replications: each draws a sample and computes, by
``rankwise`` calls only, the AUC with its cluster-robust standard error
(``estimate(y, s, clusters=ids)``: Obuchowski 1997) and its DeLong standard error
(``estimate(y, s)``), and the nominal 95% Wald intervals ``AUC +- 1.96 se`` clipped to
[0, 1] (``Estimate.confidence_interval(0.95)``); the cluster-robust one also on the logit
scale (``transform="logit"``). Reported: the coverage of the true AUC by
each interval with its Monte Carlo standard error ``sqrt(c (1 - c) / R)``, the shares
missing low (the interval above the truth) and high (below it), the mean standard error of each over the empirical SD of the
estimates (``SE ratio``), the bias of the estimates in units of their SD and the design
bias. A cell with ``rho = 0`` is the control: there the rows are independent and both
intervals should cover.

Seeds: cell ``(labels, G, m, rho)`` draws from ``np.random.default_rng([seed, G, m,
round(1000 rho), j])``, ``j`` = 0 for ``iid``, 1 for ``beta``; all of a cell's replications
are drawn at once (for ``beta`` the prevalences ``(R, G)`` first, then labels ``(R, n)``,
cluster effects ``(R, G)``, unit noise ``(R, n)``).

Usage::

    python experiments/cluster_coverage.py --quick     # R = 200, two cells, a few seconds
    python experiments/cluster_coverage.py             # R = 2000, nine cells
    python experiments/cluster_coverage.py --reps 500 --seed 7 --json out/cluster_coverage.json

Prints the table (and writes it with every number as JSON with ``--json``). BLAS threads
are pinned to 1.
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse
import json
import math
import sys
import time
import warnings

import numpy as np
from scipy import stats

import rankwise as rw

SEED = 2028
MU = 1.0
PREVALENCE = 0.4          # "iid" labels
BETA = (1.0, 1.5)         # "beta" labels: the clusters' prevalences (mean 0.4)
LABELS = ("iid", "beta")
LEVEL = 0.95
#: (labels, G clusters, m units per cluster, rho intra-cluster correlation).
FULL_CELLS = (("iid", 30, 5, 0.5), ("iid", 100, 5, 0.5), ("iid", 400, 5, 0.5), ("iid", 50, 20, 0.5),
              ("iid", 100, 5, 0.0),
              ("beta", 30, 5, 0.5), ("beta", 100, 5, 0.5), ("beta", 400, 5, 0.5), ("beta", 100, 5, 0.0))
QUICK_CELLS = (("beta", 60, 5, 0.5), ("iid", 60, 5, 0.0))
FULL_REPS = 2000
QUICK_REPS = 200


def true_auc(mu: float) -> float:
    """The population AUC of the model, ``Phi(mu / sqrt 2)`` (unit marginal variances)."""
    return float(stats.norm.cdf(mu / math.sqrt(2.0)))


def within_pair_auc(mu: float, rho: float) -> float:
    """The mean of ``psi`` over a (positive, negative) pair of one cluster,
    ``Phi(mu / sqrt(2 (1 - rho)))``."""
    return float(stats.norm.cdf(mu / math.sqrt(2.0 * (1.0 - rho)))) if rho < 1 else 1.0


def simulate(G: int, m: int, rho: float, reps: int, seed: int, mu: float = MU,
             labels: str = "iid") -> tuple:
    """All replications of one cell at once: labels ``(R, n)`` (bool), scores ``(R, n)``
    and the cluster id of each unit ``(n,)`` (the same layout in every replication)."""
    n = G * m
    rng = np.random.default_rng([seed, G, m, int(round(1000 * rho)), LABELS.index(labels)])
    ids = np.repeat(np.arange(G), m)
    if labels == "iid":
        y = rng.random((reps, n)) < PREVALENCE
    else:
        p = rng.beta(*BETA, size=(reps, G))
        y = rng.random((reps, n)) < p[:, ids]
    b = rng.standard_normal((reps, G))
    e = rng.standard_normal((reps, n))
    s = mu * y + math.sqrt(rho) * b[:, ids] + math.sqrt(1.0 - rho) * e
    return y, s, ids


def design_expectation(y: np.ndarray, ids: np.ndarray, mu: float, rho: float) -> float:
    """``E[AUC-hat | labels]``: the share ``q`` of (positive, negative) pairs within one
    cluster weighs the within-cluster mean, the rest the population AUC."""
    G = int(ids.max()) + 1
    pos = np.bincount(ids, weights=y.astype(float), minlength=G)
    neg = np.bincount(ids, weights=(~y).astype(float), minlength=G)
    q = float(pos @ neg) / (pos.sum() * neg.sum())
    return (1.0 - q) * true_auc(mu) + q * within_pair_auc(mu, rho)


def run_cell(labels: str, G: int, m: int, rho: float, reps: int, seed: int = SEED, mu: float = MU) -> dict:
    """One cell's replications: coverage, misses by side, SE ratios, biases."""
    if labels not in LABELS:
        raise ValueError(f"labels must be one of {LABELS}; got {labels!r}")
    y, s, ids = simulate(G, m, rho, reps, seed, mu, labels)
    truth = true_auc(mu)
    value = np.full(reps, np.nan)
    se = {"cluster": np.full(reps, np.nan), "cluster_logit": np.full(reps, np.nan),
          "independent": np.full(reps, np.nan)}
    lo = {k: np.full(reps, np.nan) for k in se}
    hi = {k: np.full(reps, np.nan) for k in se}
    expect = np.full(reps, np.nan)
    few = 0
    for r in range(reps):
        yr, sr = y[r], s[r]
        if yr.all() or not yr.any():
            continue
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", rw.stats.FewClustersWarning)
            ec = rw.stats.estimate(yr, sr, clusters=ids)
        few += any(issubclass(w.category, rw.stats.FewClustersWarning) for w in caught)
        ei = rw.stats.estimate(yr, sr)
        value[r] = ec.value
        expect[r] = design_expectation(yr, ids, mu, rho)
        for key, est, transform in (("cluster", ec, None), ("cluster_logit", ec, "logit"),
                                    ("independent", ei, None)):
            se[key][r] = est.std_error
            if np.isfinite(est.std_error):
                ci = est.confidence_interval(LEVEL, transform=transform)
                lo[key][r], hi[key][r] = ci[0], ci[1]
    ok = np.isfinite(value)
    sd = float(np.std(value[ok], ddof=1))
    out = {"labels": labels, "G": G, "m": m, "rho": rho, "n": G * m, "reps": reps, "defined": int(ok.sum()),
           "truth": truth, "mean_estimate": float(np.mean(value[ok])), "sd_estimate": sd,
           "bias_sd": float((np.mean(value[ok]) - truth) / sd),
           "design_bias": float(np.mean(expect[ok]) - truth),
           "few_clusters_warnings": few}
    for key in se:
        # An undefined interval (nan) counts as a miss.
        cover = (lo[key] <= truth) & (truth <= hi[key])
        c = float(np.mean(cover))
        out[key] = {"coverage": c, "mc_se": math.sqrt(c * (1.0 - c) / reps),
                    "miss_low": float(np.mean(lo[key] > truth)), "miss_high": float(np.mean(hi[key] < truth)),
                    "mean_se": float(np.nanmean(se[key])), "se_ratio": float(np.nanmean(se[key]) / sd),
                    "undefined": int(np.sum(~np.isfinite(se[key])))}
    return out


def run(cells=FULL_CELLS, reps: int = FULL_REPS, seed: int = SEED) -> list:
    return [run_cell(labels, G, m, rho, reps, seed) for labels, G, m, rho in cells]


def table(results: list) -> str:
    head = ("| labels | G | m | rho | n | cluster coverage (MC se) | miss lo/hi | SE ratio | cluster, logit "
            "| independent coverage (MC se) | miss lo/hi | SE ratio | bias/SD | design bias |")
    lines = [head, "|" + "---|" * 14]
    for c in results:
        cl, lg, ind = c["cluster"], c["cluster_logit"], c["independent"]
        lines.append(f"| {c['labels']} | {c['G']} | {c['m']} | {c['rho']:g} | {c['n']} "
                     f"| {cl['coverage']:.3f} ({cl['mc_se']:.3f}) "
                     f"| {cl['miss_low']:.3f}/{cl['miss_high']:.3f} | {cl['se_ratio']:.3f} "
                     f"| {lg['coverage']:.3f} ({lg['mc_se']:.3f}) "
                     f"| {ind['coverage']:.3f} ({ind['mc_se']:.3f}) | {ind['miss_low']:.3f}/{ind['miss_high']:.3f} "
                     f"| {ind['se_ratio']:.3f} | {c['bias_sd']:+.3f} | {c['design_bias']:+.5f} |")
    return "\n".join(lines)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--quick", action="store_true", help=f"R = {QUICK_REPS}, cells {QUICK_CELLS}")
    p.add_argument("--reps", type=int, default=None, help="replications per cell")
    p.add_argument("--seed", type=int, default=SEED)
    p.add_argument("--json", default=None, help="also write the results to this JSON file")
    a = p.parse_args(argv)
    cells = QUICK_CELLS if a.quick else FULL_CELLS
    reps = a.reps if a.reps is not None else (QUICK_REPS if a.quick else FULL_REPS)
    if reps < 2:
        p.error("--reps must be at least 2")
    t0 = time.perf_counter()
    results = run(cells, reps, a.seed)
    wall = time.perf_counter() - t0
    print(f"Clustered binormal AUC, mu = {MU}, labels iid Bernoulli({PREVALENCE}) or Beta{BETA} per cluster, true AUC = Phi(mu/sqrt 2) = "
          f"{true_auc(MU):.6f}; R = {reps} per cell, seed {a.seed}; nominal {LEVEL:.0%} Wald intervals.")
    print(table(results))
    print(f"wall time {wall:.1f} s")
    if a.json:
        with open(a.json, "w") as fh:
            json.dump({"mu": MU, "prevalence": PREVALENCE, "beta": BETA, "level": LEVEL, "seed": a.seed, "reps": reps,
                       "wall_s": wall, "rankwise": rw.__version__, "cells": results}, fh, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
