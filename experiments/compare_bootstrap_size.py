"""Size of the bootstrap comparison under the null: ``rw.stats.compare(..., method="bootstrap")``
(paired) and ``rw.stats.compare_unpaired(..., method="bootstrap")``, for the AUC and the
Kolmogorov-Smirnov statistic.

The model. ``m`` positives and ``m`` negatives (fixed class sizes, as the stratified
bootstrap assumes); a latent score ``x = mu * label + N(0, 1)`` with ``mu = 1``.

* Paired: two exchangeable scorers of the same rows, ``s_a = x + N(0, 0.7^2)`` and
  ``s_b = x + N(0, 0.7^2)`` (correlated, 0.67): the two criteria have the same
  distribution, so ``E(theta_a - theta_b) = 0`` and a 5% two-sided test should reject in
  5% of the datasets.
* Unpaired: two independent samples of the same model (``m`` of each class each), one
  scorer ``s_a`` on each.

Per design (paired or unpaired, criterion): ``R`` datasets, each tested at the 5% level
(two-sided) with ``n_resamples = B`` bootstrap resamples; the rejection rate with its
Monte Carlo standard error ``sqrt(r (1 - r) / R)``. For the AUC, DeLong's test on the same
datasets is the reference (its size is known to be close to 5% at these sizes).

Seeds: dataset ``i`` of a design draws from ``np.random.default_rng([seed, i])`` and
bootstraps with ``random_state=[seed, i, 1]``; the designs share the datasets (the
unpaired design draws its second sample after the first).

Usage::

    python experiments/compare_bootstrap_size.py --out experiments/results   # R = 1000, B = 1000, m = 50
    python experiments/compare_bootstrap_size.py --quick                      # R = 30, B = 100, m = 20
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
import warnings

import numpy as np

MU = 1.0
NOISE = 0.7
CRITERIA = ("auc", "ks_statistic")
DESIGNS = ("paired", "unpaired")


def sample(rng, m: int) -> tuple:
    """``(y, s_a, s_b)``: ``m`` positives then ``m`` negatives, two exchangeable scorers."""
    y = np.r_[np.ones(m, dtype=int), np.zeros(m, dtype=int)]
    x = MU * y + rng.normal(size=2 * m)
    return y, x + NOISE * rng.normal(size=2 * m), x + NOISE * rng.normal(size=2 * m)


def one_dataset(i: int, m: int, B: int, seed: int) -> dict:
    """The p-values of every design on dataset ``i``."""
    import rankwise as rw

    rng = np.random.default_rng([seed, i])
    y, a, b = sample(rng, m)
    y2, a2, _ = sample(rng, m)
    rs = [seed, i, 1]
    out = {}
    for crit in CRITERIA:
        out[("paired", crit)] = rw.stats.compare(y, {"a": a, "b": b}, crit, method="bootstrap", n_resamples=B,
                                                 random_state=rs, interval="percentile").pairs[0].p_value
        out[("unpaired", crit)] = rw.stats.compare_unpaired(y, a, y2, a2, crit, method="bootstrap",
                                                            n_resamples=B, random_state=rs,
                                                            interval="percentile").pairs[0].p_value
    out[("paired", "auc (DeLong)")] = rw.stats.compare(y, {"a": a, "b": b}).pairs[0].p_value
    out[("unpaired", "auc (DeLong)")] = rw.stats.compare_unpaired(y, a, y2, a2).pairs[0].p_value
    return out


def run(R: int, m: int, B: int, seed: int) -> dict:
    pv: dict = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for i in range(R):
            for k, p in one_dataset(i, m, B, seed).items():
                pv.setdefault(k, []).append(p)
    rows = []
    for (design, crit), ps in pv.items():
        ps = np.array(ps)
        r = float(np.mean(ps < 0.05))
        rows.append(dict(design=design, criterion=crit, rejection=r, mc_se=math.sqrt(r * (1 - r) / len(ps)),
                         datasets=len(ps)))
    return dict(R=R, m=m, B=B, seed=seed, mu=MU, noise=NOISE, rows=rows)


def markdown(res: dict, seconds: float) -> str:
    lines = ["# Size of the bootstrap comparison under the null", "",
             f"{res['R']} datasets per design, {res['m']} positives and {res['m']} negatives, "
             f"{res['B']} resamples each, 5% two-sided; seed {res['seed']}; {seconds:.0f} s.", "",
             "| design | criterion | rejection rate | MC s.e. |", "|---|---|---|---|"]
    for r in res["rows"]:
        lines.append(f"| {r['design']} | {r['criterion']} | {r['rejection']:.3f} | {r['mc_se']:.3f} |")
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--reps", type=int, default=None)
    ap.add_argument("--m", type=int, default=None)
    ap.add_argument("--resamples", type=int, default=None)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--out", default=None, help="folder for compare_bootstrap_size.json and .md")
    args = ap.parse_args(argv)
    R = args.reps or (30 if args.quick else 1000)
    m = args.m or (20 if args.quick else 50)
    B = args.resamples or (100 if args.quick else 1000)
    t0 = time.perf_counter()
    res = run(R, m, B, args.seed)
    res["quick"] = bool(args.quick)
    md = markdown(res, time.perf_counter() - t0)
    if args.out:
        os.makedirs(args.out, exist_ok=True)
        with open(os.path.join(args.out, "compare_bootstrap_size.json"), "w") as fh:
            json.dump(res, fh, indent=1)
        with open(os.path.join(args.out, "compare_bootstrap_size.md"), "w") as fh:
            fh.write(md)
    sys.stdout.write(md)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
