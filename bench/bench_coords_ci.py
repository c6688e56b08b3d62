"""What bootstrap intervals of ROC coordinates cost: ``rw.stats.coords_ci`` against R
pROC's ``ci.coords`` (stratified bootstrap), at the best cut (Youden), at fixed
specificities and at fixed thresholds.

Data (``make_data``, seed 0): n rows, label ~ Bernoulli(0.3), score N(y, 1) (continuous:
n distinct scores). rankwise runs ``--resamples`` resamples (2000 by default), best of
``--repeat``, BLAS on one thread. pROC's cost is linear in ``boot.n`` (each resample
re-sorts and re-reads the curve), so it is timed with ``boot.n = --proc-boot-n`` (default
20) and scaled to the resamples asked: ``t_k * resamples / k``; the table says so. pROC
runs once. The best cut's coordinates on the data are checked against pROC's ``coords``
(to 1e-9, pROC's midpoint threshold); the script prints every check and exits with status
1 when one fails.

    python bench/bench_coords_ci.py              # n = 1e5, 2000 resamples, best of 3, pROC boot.n = 20
    python bench/bench_coords_ci.py --quick      # n = 2e3, 50 resamples, 1 round, no pROC
"""

from __future__ import annotations

import argparse
import datetime
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _timing import best_time, load_line, run_r  # noqa: E402
from bench_clusters import cpu_line  # noqa: E402

R_SCRIPT = r"""
suppressPackageStartupMessages(library(pROC))
args <- commandArgs(TRUE)
n <- as.integer(args[1]); k <- as.integer(args[3])
con <- file(args[2], "rb")
y <- readBin(con, "integer", n, size = 4)
s <- readBin(con, "double", n)
thr <- readBin(con, "double", 2)
close(con)
r <- roc(y, s, levels = c(0, 1), direction = "<", quiet = TRUE)
b <- coords(r, "best", ret = c("threshold", "sensitivity", "specificity"), transpose = FALSE)
t1 <- system.time(ci.coords(r, "best", ret = c("threshold", "sensitivity", "specificity"), boot.n = k,
                            best.policy = "random", progress = "none"))[["elapsed"]]
t2 <- system.time(ci.coords(r, c(0.8, 0.9), input = "specificity", ret = c("sensitivity", "ppv"), boot.n = k,
                            progress = "none"))[["elapsed"]]
t3 <- system.time(ci.coords(r, thr, input = "threshold", ret = c("sensitivity", "specificity"), boot.n = k,
                            progress = "none"))[["elapsed"]]
cat(sprintf("%.6f %.6f %.6f %.17g %.17g %.17g %d\n", t1, t2, t3, b$threshold[1], b$sensitivity[1],
            b$specificity[1], nrow(b)))
"""


def make_data(n: int, seed: int = 0):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.3).astype(np.int32)
    s = rng.normal(size=n) + y
    return y, s


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="n = 2000, 50 resamples, 1 round, no pROC")
    ap.add_argument("--n", type=float, default=None)
    ap.add_argument("--resamples", type=int, default=None)
    ap.add_argument("--repeat", type=int, default=None)
    ap.add_argument("--proc-boot-n", type=int, default=20)
    ap.add_argument("--no-r", action="store_true", help="skip pROC")
    args = ap.parse_args(argv)
    n = int(args.n or (2000 if args.quick else 100_000))
    B = args.resamples or (50 if args.quick else 2000)
    repeat = args.repeat or (1 if args.quick else 3)
    use_r = not (args.quick or args.no_r)

    from threadpoolctl import threadpool_limits

    threadpool_limits(1)
    import rankwise as rw

    y, s = make_data(n)
    thr = np.quantile(s, [0.3, 0.6])
    calls = {
        "best cut": lambda: rw.stats.coords_ci(y, s, "best", ret=["threshold", "sensitivity", "specificity"],
                                               threshold_style="midpoint", n_resamples=B, random_state=0),
        "specificity 0.8, 0.9": lambda: rw.stats.coords_ci(y, s, [0.8, 0.9], input="specificity",
                                                           ret=["sensitivity", "ppv"], n_resamples=B, random_state=0),
        "two thresholds": lambda: rw.stats.coords_ci(y, s, thr, ret=["sensitivity", "specificity"], n_resamples=B,
                                                     random_state=0),
    }
    for f in calls.values():  # warm-up
        f()
    times = {k: best_time(f, repeat) for k, f in calls.items()}

    print(f"# Bootstrap intervals of ROC coordinates, {datetime.date.today()}")
    print(cpu_line())
    print(f"{load_line()}; BLAS threads 1; rankwise best of {repeat}")
    print()
    proc = run_r(R_SCRIPT, [y, s, thr.astype(np.float64)], n, args.proc_boot_n) if use_r else None
    k = args.proc_boot_n
    print(f"| x | n | resamples | rankwise (s) | pROC boot.n = {k} (s) | pROC at {B}, scaled (s) | pROC / rankwise |")
    print("|---|---|---|---|---|---|---|")
    checks = []
    for i, key in enumerate(calls):
        if proc is None:
            print(f"| {key} | {n:.0e} | {B} | {times[key]:.4f} | skipped | - | - |")
            continue
        t_k = float(proc[i])
        scaled = t_k * B / k
        print(f"| {key} | {n:.0e} | {B} | {times[key]:.4f} | {t_k:.2f} | {scaled:.1f} | {scaled / times[key]:.1f}x |")
    if proc is not None:
        best = rw.stats.coords(y, s, "best", threshold_style="midpoint")
        for j, name in enumerate(("threshold", "sensitivity", "specificity")):
            checks.append((f"best {name} vs pROC", abs(best[name][0] - float(proc[3 + j])), 1e-9))
        checks.append(("best: one cut in both", abs(best["threshold"].shape[0] - int(proc[6])), 0))
    print()
    failed = 0
    for what, err, tol in checks:
        ok = err <= tol
        failed += not ok
        print(f"{what}: E = {err:.3g} (<= {tol:g}) {'ok' if ok else 'FAILED'}")
    print(f"agreement checks: {'all ' + str(len(checks)) + ' passed' if not failed else f'{failed} FAILED'}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
