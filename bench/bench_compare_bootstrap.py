"""What ``rw.stats.compare(..., method="bootstrap")`` costs: two scorers, 2,000 resamples.

Two tables.

1. At ``n`` rows (default 10^6): one bootstrap comparison (2,000 resamples, percentile
   intervals) against one DeLong ``compare`` on the same data, for three kinds of scores:
   ``float`` (untied: every row its own level), ``3 decimals`` (each score rounded to
   three decimals: a few thousand levels per scorer, but about as many joint (a, b)
   values as rows) and ``grid 0..100`` (each score an integer 0..100: at most 101^2 joint
   values per class). The bootstrap's cost per resample is the time over the resamples;
   the setup (the sorts, the units) is included in the total.
2. At 10^5 rows: the same bootstrap against R pROC's ``roc.test(r1, r2, method =
   "bootstrap", paired = TRUE)``. pROC rebuilds both curves per resample, so it is timed
   with ``boot.n = 20`` and the time scaled linearly to 2,000 (said in the table).

With ``--before``, a third table: the same bootstraps (at ``n`` and at the pROC size) on
the table path (each resample's rank tables built, then the AUC on the batch) against the
fused AUC path (one compiled walk per resample over each scorer's rows in score order,
the default for the AUC where numba is installed); both give the same replicates.

Data: label ~ Bernoulli(0.5); ``a = label + N(0, 1)``; ``b = 0.5 a + 0.5 label + N(0, 1)``;
seed 0. BLAS pinned to one thread (threadpoolctl); each call made once before the timings
(numba loaded). Times are CPU times of the process (``time.process_time``; R's user plus
system time), which a machine shared with other jobs inflates far less than wall time;
every call runs on one thread. Best of ``--repeat`` for the DeLong call; the bootstrap is
timed once per kind at full size (it is long; its per-resample cost is stable).

    python bench/bench_compare_bootstrap.py            # n = 1e6, 2,000 resamples, pROC at 1e5
    python bench/bench_compare_bootstrap.py --quick    # n = 2e4, 50 resamples, no R (the test suite)
    python bench/bench_compare_bootstrap.py --before   # and the table path against the fused path
"""

from __future__ import annotations

import argparse
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _timing import run_r  # noqa: E402

KINDS = ("float", "3 decimals", "grid 0..100")

R_SCRIPT = r"""
suppressPackageStartupMessages(library(pROC))
args <- commandArgs(TRUE)
n <- as.integer(args[1]); boot_n <- as.integer(args[3])
con <- file(args[2], "rb")
y <- readBin(con, "double", n); a <- readBin(con, "double", n); b <- readBin(con, "double", n)
close(con)
r1 <- roc(y, a, levels = c(0, 1), direction = "<", quiet = TRUE)
r2 <- roc(y, b, levels = c(0, 1), direction = "<", quiet = TRUE)
set.seed(1)
cpu <- function(st) st[["user.self"]] + st[["sys.self"]]
t <- cpu(system.time(res <- roc.test(r1, r2, method = "bootstrap", boot.n = boot_n, paired = TRUE,
                                     progress = "none")))
td <- cpu(system.time(roc.test(r1, r2, method = "delong", paired = TRUE)))
cat(sprintf("%.17g", c(t, td, res$statistic)), "\n")
"""


def make_data(n: int, kind: str, seed: int = 0):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    a = y + rng.normal(size=n)
    b = 0.5 * a + 0.5 * y + rng.normal(size=n)
    if kind == "3 decimals":
        a, b = np.round(a, 3), np.round(b, 3)
    elif kind == "grid 0..100":
        a = np.clip(np.round(25 * a + 50), 0, 100)
        b = np.clip(np.round(25 * b + 50), 0, 100)
    return y, a, b


def cpu_time(f, repeat: int = 1) -> float:
    """The smallest CPU time (seconds) of ``repeat`` calls of ``f``."""
    best = float("inf")
    for _ in range(repeat):
        t0 = time.process_time()
        f()
        best = min(best, time.process_time() - t0)
    return best


def machine_line() -> str:
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    return f"{os.cpu_count()} CPUs, load average {load:.2f} at the start"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--n", type=int, default=None)
    ap.add_argument("--resamples", type=int, default=None)
    ap.add_argument("--repeat", type=int, default=None)
    ap.add_argument("--proc-n", type=int, default=100_000)
    ap.add_argument("--proc-boot", type=int, default=20)
    ap.add_argument("--before", action="store_true",
                    help="also time the table path (the engine before the fused AUC path)")
    args = ap.parse_args(argv)
    from threadpoolctl import threadpool_limits

    import rankwise as rw

    threadpool_limits(1)
    n = args.n or (20_000 if args.quick else 1_000_000)
    B = args.resamples or (50 if args.quick else 2000)
    repeat = args.repeat or (1 if args.quick else 3)
    print(f"# compare(method='bootstrap'), two scorers, {B} resamples")
    print(f"\n{machine_line()}\n")
    print("| n | scores | DeLong compare, CPU (s) | bootstrap, CPU (s) | per resample (ms) | bootstrap / DeLong |")
    print("|---|---|---|---|---|---|")
    for kind in KINDS:
        y, a, b = make_data(n, kind)
        cols = {"a": a, "b": b}
        rw.stats.compare(y, cols)
        rw.stats.compare(y, cols, method="bootstrap", n_resamples=2, random_state=0, interval="percentile")
        td = cpu_time(lambda: rw.stats.compare(y, cols), repeat)
        tb = cpu_time(lambda: rw.stats.compare(y, cols, method="bootstrap", n_resamples=B, random_state=0,
                                               interval="percentile"))
        print(f"| {n:.0e} | {kind} | {td:.4f} | {tb:.4f} | {1e3 * tb / B:.3f} | {tb / td:.1f}x |", flush=True)
    if args.quick:
        print("\npROC: not run (quick mode)")
        return 0
    n2 = args.proc_n
    y, a, b = make_data(n2, "float")
    cols = {"a": a, "b": b}
    rw.stats.compare(y, cols, method="bootstrap", n_resamples=2, random_state=0)
    t0 = time.process_time()
    c = rw.stats.compare(y, cols, method="bootstrap", n_resamples=2000, random_state=0, interval="percentile")
    tb = time.process_time() - t0
    res = run_r(R_SCRIPT, [y.astype(np.float64), a, b], n2, args.proc_boot)
    print(f"\n| n | rankwise bootstrap, 2000, CPU (s) | pROC roc.test bootstrap, boot.n = {args.proc_boot}, CPU (s) | "
          f"pROC scaled to 2000 (s) | pROC / rankwise | D rankwise | D pROC |")
    print("|---|---|---|---|---|---|---|")
    if res is None:
        print(f"| {n2:.0e} | {tb:.3f} | n/a | n/a | n/a | {c.pairs[0].statistic:.3f} | n/a |")
        return 0
    tp, _, dp = (float(v) for v in res)
    scaled = tp * 2000 / args.proc_boot
    print(f"| {n2:.0e} | {tb:.3f} | {tp:.2f} | {scaled:.1f} | {scaled / tb:.0f}x | {c.pairs[0].statistic:.3f} | "
          f"{dp:.3f} |")
    print("\n(pROC's D rests on 20 resamples only: its sd is known to about 16%.)")
    if args.before:
        before_after(rw, sorted({n, n2}), B)
    return 0


def before_after(rw, sizes, B: int) -> None:
    """The table path against the fused AUC path, same data, same seed (same replicates)."""
    from rankwise.stats import _compare_boot as cb

    print("\n| n | scores | table path, CPU (s) | fused AUC path, CPU (s) | table / fused | same result |")
    print("|---|---|---|---|---|---|")
    saved = cb.MIN_FUSED_DRAWS
    for n in sizes:
        for kind in KINDS:
            y, a, b = make_data(n, kind)
            cols = {"a": a, "b": b}
            res = {}
            for path, limit in (("table", 1 << 62), ("fused", 0)):
                cb.MIN_FUSED_DRAWS = limit
                try:
                    rw.stats.compare(y, cols, method="bootstrap", n_resamples=2, random_state=0)
                    t0 = time.process_time()
                    c = rw.stats.compare(y, cols, method="bootstrap", n_resamples=B, random_state=0,
                                         interval="percentile")
                    res[path] = (time.process_time() - t0, c.pairs[0].statistic)
                finally:
                    cb.MIN_FUSED_DRAWS = saved
            (tt, st), (tf, sf) = res["table"], res["fused"]
            same = "yes" if abs(st - sf) <= 1e-9 * max(1.0, abs(st)) else f"no ({st} vs {sf})"
            print(f"| {n:.0e} | {kind} | {tt:.3f} | {tf:.3f} | {tt / tf:.1f}x | {same} |", flush=True)


if __name__ == "__main__":
    raise SystemExit(main())
