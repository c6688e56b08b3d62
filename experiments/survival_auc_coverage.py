"""Coverage of the 95% intervals of the time-dependent AUC(t) of
``rankwise.survival.cumulative_dynamic_auc`` (the i.i.d. standard error of Blanche, Dartigues &
Jacqmin-Gadda 2013) under independent censoring.

The model. A covariate ``X ~ N(0, 1)``; the event time ``T`` exponential with rate ``exp(X)``
(``S(t | x) = exp(-t e^x)``); the risk score ``r = X + e``, ``e ~ N(0, 1)`` independent
(higher risk = earlier event); the censoring time ``C`` exponential with rate ``lambda_c``,
independent of everything, ``lambda_c`` set so that ``P(C < T) = E[lambda_c / (lambda_c +
e^X)]`` is 30% or 60%. Observed: ``min(T, C)``, ``T <= C``, ``r``.

The estimand. ``AUC(t) = P(r_i > r_j | T_i <= t < T_j)`` for two independent subjects; the
evaluation times are the 10%, 25% and 40% quantiles of ``T``. Given the covariates the
difference of the scores is ``x_i - x_j + N(0, 2)``, so

    AUC(t) = E[Phi((X_i - X_j) / sqrt 2)],  X_i ~ f(x) (1 - S(t|x)) / P(T <= t),
                                            X_j ~ f(x) S(t|x) / P(T > t),

computed by quadrature on a grid of ``X`` (``true_auc``) and checked against a Monte Carlo
sample of 2 x 10^6 uncensored subjects (``monte_carlo_auc``; the test does this at 10^6).
The mean AUC's truth is ``sum_k omega_k AUC(t_k)`` with the weights of the estimator
(``(S(t_{k-1}) - S(t_k)) / (1 - S(t_K))``) at the true survival ``S``.

Per cell ``(n, censoring)``, ``R`` replications, each one sample, one call
``cumulative_dynamic_auc(time, event, risk, times)``; reported per time: the truth, the
mean estimate, the SE ratio (mean standard error over the SD of the estimates), the coverage
of the nominal 95% Wald interval ``AUC -/+ 1.96 se`` clipped to [0, 1] (and on the logit
scale) with its Monte Carlo standard error ``sqrt(c (1 - c) / R)``; the same for the mean AUC
(its interval treats the Kaplan-Meier weights as fixed). A replication where a time has no
case or no control (possible at n = 300, 60% censored, the last time) counts as a miss.

Seeds: cell ``(n, censoring)`` draws from ``np.random.default_rng([seed, n, round(100 *
censoring)])``: covariates ``(R, n)``, then the event times, the censoring times and the
score noise, each ``(R, n)``.

Usage::

    python experiments/survival_auc_coverage.py            # R = 1000, n = 300 and 1000, 30% and 60%
    python experiments/survival_auc_coverage.py --quick    # R = 200, n = 300, 30% and 60%
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
import warnings

import numpy as np
from scipy import optimize, special, stats

import rankwise as rw

SEED = 2030
LEVEL = 0.95
QUANTILES = (0.10, 0.25, 0.40)   # of the event time T: the evaluation times
FULL_CELLS = ((300, 0.3), (300, 0.6), (1000, 0.3), (1000, 0.6))
QUICK_CELLS = ((300, 0.3), (300, 0.6))
FULL_REPS = 1000
QUICK_REPS = 200

_GRID = np.linspace(-9.0, 9.0, 3601)          # quadrature grid of X (step 0.005)
_PHI = stats.norm.pdf(_GRID) * (_GRID[1] - _GRID[0])


def survival(t: float) -> float:
    """P(T > t) = E[exp(-t e^X)]."""
    return float(np.sum(_PHI * np.exp(-t * np.exp(_GRID))))


def time_quantile(p: float) -> float:
    """The t with P(T <= t) = p."""
    return float(optimize.brentq(lambda t: 1.0 - survival(t) - p, 1e-9, 1e3, xtol=1e-14))


def censoring_rate(share: float) -> float:
    """lambda_c with P(C < T) = E[lambda_c / (lambda_c + e^X)] = share."""
    return float(optimize.brentq(lambda lc: np.sum(_PHI * lc / (lc + np.exp(_GRID))) - share, 1e-9, 1e6,
                                 xtol=1e-14))


def true_auc(t: float) -> float:
    """AUC(t) by quadrature over (X_i, X_j) (see the module docstring)."""
    s = np.exp(-t * np.exp(_GRID))
    fc = _PHI * (1.0 - s)
    fk = _PHI * s
    fc /= fc.sum()
    fk /= fk.sum()
    diff = (_GRID[:, None] - _GRID[None, :]) / math.sqrt(2.0)
    return float(fc @ special.ndtr(diff) @ fk)


def true_mean_auc(times) -> float:
    s = np.array([survival(t) for t in times])
    w = -np.diff(np.r_[1.0, s]) / (1.0 - s[-1])
    return float(np.dot(w, [true_auc(t) for t in times]))


def monte_carlo_auc(t: float, n: int, seed: int) -> float:
    """AUC(t) from n uncensored subjects: the AUC of {T <= t} against {T > t}."""
    rng = np.random.default_rng(seed)
    x = rng.normal(size=n)
    tt = rng.exponential(1.0 / np.exp(x))
    r = x + rng.normal(size=n)
    return float(rw.auc(tt <= t, r))


def simulate(n: int, censoring: float, reps: int, seed: int):
    """(time, event, risk), each (reps, n)."""
    rng = np.random.default_rng([seed, n, round(100 * censoring)])
    x = rng.normal(size=(reps, n))
    t_event = rng.exponential(1.0 / np.exp(x))
    t_cens = rng.exponential(1.0 / censoring_rate(censoring), size=(reps, n))
    noise = rng.normal(size=(reps, n))
    return np.minimum(t_event, t_cens), t_event <= t_cens, x + noise


def _summary(values, ses, lo, hi, lo_l, hi_l, truth, reps):
    ok = np.isfinite(values)
    sd = float(np.std(values[ok], ddof=1)) if ok.sum() > 1 else float("nan")
    cover = (lo <= truth) & (truth <= hi)   # nan (undefined) counts as a miss
    cover_l = (lo_l <= truth) & (truth <= hi_l)
    c, cl = float(np.mean(cover)), float(np.mean(cover_l))
    return {"truth": truth, "defined": int(ok.sum()), "mean_estimate": float(np.mean(values[ok])),
            "sd_estimate": sd, "mean_se": float(np.mean(ses[ok])), "se_ratio": float(np.mean(ses[ok]) / sd),
            "coverage": c, "mc_se": math.sqrt(c * (1.0 - c) / reps), "coverage_logit": cl,
            "miss_low": float(np.mean(lo > truth)), "miss_high": float(np.mean(hi < truth))}


def run_cell(n: int, censoring: float, reps: int, seed: int = SEED) -> dict:
    times = np.array([time_quantile(q) for q in QUANTILES])
    truths = [true_auc(t) for t in times]
    T, E, R = simulate(n, censoring, reps, seed)
    K = len(times)
    vals, ses = np.full((reps, K + 1), np.nan), np.full((reps, K + 1), np.nan)
    lo, hi = np.full((reps, K + 1), np.nan), np.full((reps, K + 1), np.nan)
    lo_l, hi_l = np.full((reps, K + 1), np.nan), np.full((reps, K + 1), np.nan)
    skipped = 0
    for i in range(reps):
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", rw.UndefinedMetricWarning)
                res = rw.survival.cumulative_dynamic_auc(T[i], E[i], R[i], times)
        except ValueError:  # a time outside this sample's follow-up: a miss for every entry
            skipped += 1
            continue
        vals[i, :K], ses[i, :K] = res.values, res.std_errors
        vals[i, K], ses[i, K] = res.mean_value, res.mean_std_error
        lo[i, :K], hi[i, :K] = res.confidence_intervals(LEVEL)
        lo_l[i, :K], hi_l[i, :K] = res.confidence_intervals(LEVEL, transform="logit")
        m, ml = res.mean_confidence_interval(LEVEL), res.mean_confidence_interval(LEVEL, transform="logit")
        lo[i, K], hi[i, K], lo_l[i, K], hi_l[i, K] = m.low, m.high, ml.low, ml.high
    per_time = [dict(time=float(times[k]), quantile=QUANTILES[k],
                     **_summary(vals[:, k], ses[:, k], lo[:, k], hi[:, k], lo_l[:, k], hi_l[:, k], truths[k], reps))
                for k in range(K)]
    mean = _summary(vals[:, K], ses[:, K], lo[:, K], hi[:, K], lo_l[:, K], hi_l[:, K], true_mean_auc(times), reps)
    return {"n": n, "censoring": censoring, "observed_censoring": float(1.0 - E.mean()), "reps": reps,
            "outside_follow_up": skipped, "times": per_time, "mean_auc": mean}


def run(cells=FULL_CELLS, reps: int = FULL_REPS, seed: int = SEED) -> list:
    return [run_cell(n, c, reps, seed) for n, c in cells]


def table(results: list) -> str:
    lines = ["| n | censored | time (quantile of T) | true AUC | mean estimate | SE ratio | coverage (MC se) "
             "| logit | miss lo/hi |", "|" + "---|" * 9]
    for c in results:
        rows = [(f"{r['time']:.4f} ({r['quantile']:.2f})", r) for r in c["times"]] + [("mean AUC", c["mean_auc"])]
        for label, r in rows:
            lines.append(f"| {c['n']} | {c['observed_censoring']:.2f} | {label} | {r['truth']:.4f} "
                         f"| {r['mean_estimate']:.4f} | {r['se_ratio']:.3f} | {r['coverage']:.3f} ({r['mc_se']:.3f}) "
                         f"| {r['coverage_logit']:.3f} | {r['miss_low']:.3f}/{r['miss_high']:.3f} |")
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
    print(f"AUC(t), exponential times (rate e^X), risk X + N(0, 1), exponential censoring; R = {reps} per cell, "
          f"seed {a.seed}; nominal {LEVEL:.0%} intervals (Wald clipped to [0, 1]; logit).")
    print(table(results))
    print(f"wall time {wall:.1f} s")
    if a.json:
        with open(a.json, "w") as fh:
            json.dump({"level": LEVEL, "seed": a.seed, "reps": reps, "quantiles": QUANTILES, "wall_s": wall,
                       "rankwise": rw.__version__, "cells": results}, fh, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
