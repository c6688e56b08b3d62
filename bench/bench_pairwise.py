"""Pairwise surrogates over all pairs: time of one ``value_and_grad``, with its anchors.

1. At n = 1e6 (10% positives, score N(0, 1) + 0.8 label, seed 0): ``value_and_grad`` of each
   surrogate of ``rankwise.losses.pairwise(...)`` (logistic in its default ``mode="auto"``,
   which is ``approx`` at this size), beside ``np.argsort`` of the scores (the floor of any
   sort-based exact method). The logistic approximation's cost grows with the number of
   occupied unit-width score bins, so it is also timed with the scores scaled by 100 and
   by 1e5.
2. At n = 1e5: logistic ``mode="exact"`` (all 9e8 pairs, in blocks) against
   ``mode="approx"``, with the observed errors of the approximation next to its stated
   bounds (``APPROX_VALUE_ERROR`` on the value, ``APPROX_GRAD_ERROR`` on each gradient entry
   in units of ``w_k / W_class``).

BLAS threads pinned to 1 (threadpoolctl); best of ``--repeat`` runs (one run for the exact
logistic).

Usage::

    python bench/bench_pairwise.py            # n = 1e6 and 1e5
    python bench/bench_pairwise.py --quick    # small n, for the test suite
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys

import numpy as np

from rankwise.losses._pairwise import APPROX_GRAD_ERROR, APPROX_VALUE_ERROR, PAIRWISE, pairwise

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _timing import best_time  # noqa: E402


def data(n: int, positives: float = 0.1, seed: int = 0):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < positives
    s = rng.standard_normal(n) + 0.8 * y
    return y, s


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=float, default=1e6, help="size of the per-surrogate table")
    ap.add_argument("--n-logistic", type=float, default=1e5, help="size of the exact/approx comparison")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--quick", action="store_true", help="n = 2e4 and 3e3, one repeat")
    ap.add_argument("--json", help="also write the results to this JSON file")
    args = ap.parse_args(argv)
    if args.quick:
        args.n, args.n_logistic, args.repeat = 2e4, 3e3, 1

    from threadpoolctl import threadpool_limits

    out = {"python": platform.python_version(), "numpy": np.__version__, "cores": os.cpu_count()}
    with threadpool_limits(limits=1):
        n = int(args.n)
        y, s = data(n)
        print(f"# numpy {np.__version__}, python {platform.python_version()}, {os.cpu_count()} cores; "
              f"BLAS pinned to 1 thread; best of {args.repeat}")
        print()
        print(f"value_and_grad at n = {n:.0e} ({int(y.sum())} positives):")
        print()
        print("| surrogate | mode | time (s) | / np.argsort |")
        print("|---|---|---|---|")
        t_sort = best_time(lambda: np.argsort(s), args.repeat)
        rows = {"np.argsort": t_sort}
        print(f"| np.argsort(s) | - | {t_sort:.4f} | 1.00 |")
        cases = [(name, s) for name in PAIRWISE] + [("logistic, scores x100", 100 * s),
                                                     ("logistic, scores x1e5", 1e5 * s)]
        for label, sc in cases:
            loss = pairwise(label.split(",")[0])
            mode = loss.mode_for(int(y.sum()), int((~y).sum()))
            t = best_time(lambda: loss.value_and_grad(y, sc), args.repeat)
            rows[label] = t
            print(f"| {label} | {mode} | {t:.4f} | {t / t_sort:.2f} |")
        out["per_surrogate"] = {"n": n, "seconds": rows}

        m = int(args.n_logistic)
        y, s = data(m)
        exact = pairwise("logistic", mode="exact")
        approx = pairwise("logistic", mode="approx")
        t_exact = best_time(lambda: exact.value_and_grad(y, s), 1)
        t_approx = best_time(lambda: approx.value_and_grad(y, s), args.repeat)
        ve, ge = exact.value_and_grad(y, s)
        va, ga = approx.value_and_grad(y, s)
        wclass = np.where(y, y.sum(), (~y).sum())
        verr = abs(va - ve)
        gerr = float(np.max(np.abs(ga - ge) * wclass))
        print()
        print(f"logistic at n = {m:.0e} ({int(y.sum()) * int((~y).sum()):.2e} pairs), F = {ve:.12g}:")
        print()
        print("| mode | time (s) | speed-up | value error (bound) | gradient error x W_class (bound) |")
        print("|---|---|---|---|---|")
        print(f"| logistic exact | {t_exact:.4f} | 1 | 0 | 0 |")
        print(f"| logistic approx | {t_approx:.4f} | {t_exact / t_approx:.0f}x | {verr:.1e} ({APPROX_VALUE_ERROR:.1e}) "
              f"| {gerr:.1e} ({APPROX_GRAD_ERROR:.1e}) |")
        out["logistic"] = {"n": m, "exact_s": t_exact, "approx_s": t_approx, "value_error": verr,
                           "grad_error": gerr}
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(out, fh, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
