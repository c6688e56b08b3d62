"""The size of Venkatraman's curve tests under the null, and their power where the AUCs agree.

Under H0 (equal ROC curves) the permutation tests ``rw.stats.curve_test`` (paired) and
``rw.stats.curve_test_unpaired`` must reject at 5% in 4-6% of the datasets. Each design
draws R datasets; each dataset is tested with B permutations and counted as rejected when
its p-value (the share of permutations at least the statistic, pROC's convention) is at
most 0.05.

Designs under H0 (binormal: negatives ``N(0, 1)``, positives ``N(1, 1)``, about 40%
positives):

* ``paired, correlated``: n rows; the two scores of a row correlated (rho = 0.5 within each
  class), scorer b passed through ``exp`` (the same ROC curve on another scale);
* ``paired, tied``: the same with both scores rounded to one decimal (ties within each
  scorer and across them, broken by row order as pROC);
* ``unpaired, equal sizes``: two independent samples of n rows each, 40% positives in both;
* ``unpaired, unequal sizes``: samples of n and 2n rows, 40% positives in both;
* ``unpaired, unequal shares``: n rows each, 40% and 25% positives;
* ``unpaired, unequal sizes and shares``: n and 2n rows, 40% and 25% positives.

The unpaired designs use ``mixing="pooled"``. pROC's permutation (rankwise's default,
``permutation="ranks"``) pools the two samples' within-sample ranks; when the samples
differ in size or in their share of positives those ranks are on different scales, so the
pooled ranks are not exchangeable under H0 and the size can depart from 5%: these designs
measure by how much. The designs marked ``[mixture]`` repeat them with
``permutation="mixture"`` (the rows' positions on the common mixture axis are pooled).

And one alternative, to show what the test is for: ``paired, crossing curves, equal AUCs``
(scorer a binormal as above; scorer b negatives ``N(0, 0.4)``, positives ``N(1.79, 2.5)``:
both population AUCs are ``Phi(1 / sqrt 2) = 0.760``, the curves cross), independent scores
given the class: the rejection rate of the curve test against that of DeLong's test of the
AUCs (``rw.stats.compare``), whose null holds there.

Seeds: design d, replication r draws from ``np.random.default_rng([seed, d, r])``; the
permutations of that dataset are seeded with ``[seed, d, r, 1]``. Monte Carlo standard error
of a rejection rate: ``sqrt(p (1 - p) / R)``.

Usage::

    python experiments/curve_test_size.py --out experiments/results   # R = 1000, B = 1000, n = 100
    python experiments/curve_test_size.py --quick                      # R = 100, B = 200, n = 40
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

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

ALPHA = 0.05
DESIGNS = ("paired, correlated", "paired, tied", "unpaired, equal sizes", "unpaired, unequal sizes",
           "unpaired, unequal shares", "unpaired, unequal sizes and shares", "unpaired, equal sizes [mixture]",
           "unpaired, unequal sizes [mixture]", "unpaired, unequal shares [mixture]",
           "unpaired, unequal sizes and shares [mixture]", "paired, crossing curves, equal AUCs")
NULL_DESIGNS = DESIGNS[:10]
MIXTURE = " [mixture]"
#: Unpaired designs: (size of sample b in units of n, share of positives in sample b); sample a: n rows, 40%.
UNPAIRED = {"unpaired, equal sizes": (1, 0.4), "unpaired, unequal sizes": (2, 0.4),
            "unpaired, unequal shares": (1, 0.25), "unpaired, unequal sizes and shares": (2, 0.25)}


def _binormal(rng, y, rho=0.0):
    """Two scores a row, each N(y, 1), correlated rho given the class."""
    z1 = rng.normal(size=y.shape[0])
    z2 = rho * z1 + math.sqrt(1.0 - rho * rho) * rng.normal(size=y.shape[0])
    return y + z1, y + z2


def draw(design: str, n: int, rng: np.random.Generator):
    """One dataset: ``("paired", y, a, b)`` or ``("unpaired", y_a, a, y_b, b)``."""
    if design.startswith("paired, crossing"):
        y = (rng.random(n) < 0.4).astype(int)
        a = y + rng.normal(size=n)
        b = np.where(y == 1, rng.normal(1.79, 2.5, n), rng.normal(0.0, 0.4, n))
        return "paired", y, a, b
    if design.startswith("paired"):
        y = (rng.random(n) < 0.4).astype(int)
        a, b = _binormal(rng, y, 0.5)
        if design == "paired, tied":
            a, b = np.round(a, 1), np.round(b, 1)
        return "paired", y, a, np.exp(b)
    times, share_b = UNPAIRED[design.removesuffix(MIXTURE)]
    m = times * n
    ya = (rng.random(n) < 0.4).astype(int)
    yb = (rng.random(m) < share_b).astype(int)
    ya[:2] = yb[:2] = [0, 1]
    return "unpaired", ya, ya + rng.normal(size=n), yb, yb + rng.normal(size=m)


def run_design(rw, d: int, design: str, n: int, reps: int, n_perm: int, seed: int) -> dict:
    rejected = delong_rejected = 0
    t0 = time.perf_counter()
    for r in range(reps):
        rng = np.random.default_rng([seed, d, r])
        data = draw(design, n, rng)
        perm_seed = [seed, d, r, 1]
        if data[0] == "paired":
            _, y, a, b = data
            t = rw.stats.curve_test(y, a, b, n_permutations=n_perm, random_state=perm_seed)
            if design.startswith("paired, crossing"):
                delong_rejected += rw.stats.compare(y, [a, b]).pairs[0].p_value <= ALPHA
        else:
            _, ya, a, yb, b = data
            scheme = "mixture" if design.endswith(MIXTURE) else "ranks"
            t = rw.stats.curve_test_unpaired(ya, a, yb, b, n_permutations=n_perm, random_state=perm_seed,
                                             permutation=scheme)
        rejected += t.p_value <= ALPHA
    rate = rejected / reps
    out = {"design": design, "null": design in NULL_DESIGNS, "n": n, "reps": reps, "permutations": n_perm,
           "rejection_rate": rate, "mc_se": math.sqrt(max(rate * (1 - rate), 1e-12) / reps),
           "seconds": time.perf_counter() - t0}
    if design.startswith("paired, crossing"):
        dr = delong_rejected / reps
        out["delong_rejection_rate"] = dr
        out["delong_mc_se"] = math.sqrt(max(dr * (1 - dr), 1e-12) / reps)
    return out


def to_markdown(res: dict) -> str:
    lines = ["# The size of Venkatraman's curve tests under the null", "",
             f"R = {res['reps']} datasets a design, B = {res['permutations']} permutations a dataset, n = {res['n']} "
             f"(unpaired: n and n or 2n rows; mixing 'pooled'); rejection when p <= {ALPHA}; seed {res['seed']}; "
             f"{res['machine']}.", "",
             "| design | H0 holds | rejection rate at 5% | MC s.e. | within 0.04-0.06 | DeLong's AUC test rejects | time (s) |",
             "|---|---|---|---|---|---|---|"]
    for row in res["rows"]:
        ok = ("yes" if 0.04 <= row["rejection_rate"] <= 0.06 else "no") if row["null"] else "-"
        dl = f"{row['delong_rejection_rate']:.3f} ({row['delong_mc_se']:.3f})" if "delong_rejection_rate" in row else "-"
        lines.append(f"| {row['design']} | {'yes' if row['null'] else 'no (equal AUCs, crossing curves)'} | "
                     f"{row['rejection_rate']:.3f} | {row['mc_se']:.3f} | {ok} | {dl} | {row['seconds']:.1f} |")
    lines += ["", "The paired test is exact when the two scores of a row are exchangeable under H0 (as in these "
              "designs): with B permutations and pROC's convention p = #(E* >= E) / B, P(p <= 0.05) = "
              "(floor(0.05 B) + 1) / (B + 1) for a continuous statistic (0.051 at B = 1000), slightly less with tied "
              "statistics. The unpaired tests are approximate (the pooled values are estimated positions). pROC's unpaired "
              "scheme (`permutation=\"ranks\"`) pools within-sample ranks, which are on different scales when the "
              "sizes or shares differ; `[mixture]` rows pool positions on the common mixture axis "
              "(`permutation=\"mixture\"`). In the last design DeLong's test of the AUCs holds its level (the AUCs "
              "are equal) while the curve test detects that the curves differ.", ""]
    return "\n".join(lines)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--out", default=None)
    ap.add_argument("--reps", type=int, default=None)
    ap.add_argument("--permutations", type=int, default=None)
    ap.add_argument("--n", type=int, default=None)
    ap.add_argument("--seed", type=int, default=20261206)
    args = ap.parse_args(argv)
    reps = args.reps or (100 if args.quick else 1000)
    n_perm = args.permutations or (200 if args.quick else 1000)
    n = args.n or (40 if args.quick else 100)
    import rankwise as rw

    rows = [run_design(rw, d, design, n, reps, n_perm, args.seed) for d, design in enumerate(DESIGNS)]
    res = {"quick": args.quick, "reps": reps, "permutations": n_perm, "n": n, "seed": args.seed, "alpha": ALPHA,
           "machine": f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}",
           "rows": rows}
    md = to_markdown(res)
    if args.out:
        os.makedirs(args.out, exist_ok=True)
        with open(os.path.join(args.out, "curve_test_size.json"), "w", encoding="utf-8") as fh:
            json.dump(res, fh, indent=1)
            fh.write("\n")
        with open(os.path.join(args.out, "curve_test_size.md"), "w", encoding="utf-8") as fh:
            fh.write(md)
    print(md)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
