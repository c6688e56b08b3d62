"""Bootstrap ROC bands: the order-statistics engine against the rows engine and one ``rw.auc``,
in one run.

``rw.stats.roc_band(y, s, n_resamples=B)`` on a G = 101 point FPR grid, at n = 1e5 and 1e6
rows and B = 1,000 and 2,000 resamples, with ``engine="rows"`` (each resample a row of level
masses: O(levels), or O(n) with many levels, per resample) and ``engine="order"`` (the
default for unweighted samples: each resampled curve at the grid drawn from a few order
statistics, O(G) per resample after the one sort). Both include building the rank table
(one sort). Anchor: one ``rw.auc`` on the same data, timed in the same run.

Also the operating-point intervals at 5 fixed FPRs
(``rw.stats.operating_points(y, s, fpr=...).confidence_interval(n_resamples=B)``), both
engines, at the same sizes.

Data: 30% positives, score N(0, 1) + label (continuous, untied); seed 0. BLAS threads
pinned to 1 (threadpoolctl). Best of ``--repeat`` runs for everything except the rows
engine at 1e6, timed once (about a minute per call).

Usage::

    python bench/bench_bands.py             # n = 1e5, 1e6; B = 1000, 2000
    python bench/bench_bands.py --quick     # small n, for the test suite
"""

from __future__ import annotations

import argparse
import os
import platform
import sys

import numpy as np

import rankwise as rw

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _timing import best_time  # noqa: E402

FPRS = [0.01, 0.05, 0.1, 0.2, 0.5]


def data(n: int, seed: int = 0):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.3
    return y, rng.normal(size=n) + y


def run(sizes, resamples, repeat: int, rows_repeat_large: int = 1):
    """Rows ``(what, n, B, rows engine (s), order engine (s), one auc (s))``."""
    out = []
    for n in sizes:
        y, s = data(n)
        ta = best_time(lambda: rw.auc(y, s), max(repeat, 3))
        op = rw.stats.operating_points(y, s, fpr=FPRS)
        for B in resamples:
            rep_rows = rows_repeat_large if n >= 10**6 else repeat
            t_rows = best_time(lambda: rw.stats.roc_band(y, s, n_resamples=B, random_state=0, engine="rows"), rep_rows)
            t_order = best_time(lambda: rw.stats.roc_band(y, s, n_resamples=B, random_state=0, engine="order"), repeat)
            out.append(("roc_band, G = 101", n, B, t_rows, t_order, ta))
            t_rows = best_time(lambda: op.confidence_interval(n_resamples=B, random_state=0, engine="rows"), rep_rows)
            t_order = best_time(lambda: op.confidence_interval(n_resamples=B, random_state=0, engine="order"), repeat)
            out.append((f"operating points, {len(FPRS)} FPRs", n, B, t_rows, t_order, ta))
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="small sizes, one repeat (the test suite runs this)")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args(argv)
    from threadpoolctl import threadpool_limits

    if args.quick:
        sizes, resamples, repeat = [2000], [100], 1
    else:
        sizes, resamples, repeat = [10**5, 10**6], [1000, 2000], args.repeat
    with threadpool_limits(1):
        rows = run(sizes, resamples, repeat)
    print(f"# rankwise {rw.__version__}, numpy {np.__version__}, Python {platform.python_version()}, "
          f"{os.cpu_count()} cores, BLAS threads 1")
    print("| operation | n | resamples | rows engine (s) | order engine (s) | rows / order | one rw.auc (s) "
          "| order / auc |")
    print("|---|---|---|---|---|---|---|---|")
    for name, n, B, tr, to, ta in rows:
        print(f"| {name} | {n:.0e} | {B} | {tr:.3f} | {to:.4f} | {tr / to:.1f} | {ta:.4f} | {to / ta:.1f} |")
    return 0


if __name__ == "__main__":
    main()
