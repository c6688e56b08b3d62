"""What Venkatraman's curve tests cost: ``rw.stats.curve_test`` (paired) and
``rw.stats.curve_test_unpaired`` against R pROC's ``roc.test(method="venkatraman")``.

Data (``make_data``, seed 0): n rows, label ~ Bernoulli(0.3); scorer a = N(y, 1), scorer
b = 0.6 a + N(0.8 y, 0.8) (correlated with a, a different curve). Paired: both scorers on
all n rows. Unpaired: scorer a on the first n/2 rows, scorer b on the last n/2.

rankwise runs ``--permutations`` permutations (2000 by default), best of ``--repeat``,
BLAS on one thread. pROC's statistic costs O(n^2) operations (it counts, for every rank
x = 1..n, the rows at or below x with a vectorised sum), so at 10^5 rows it is timed with a
small ``boot.n`` (``--proc-boot-n``, default 1) and scaled linearly to 2000 permutations:
the time of ``boot.n = k`` covers k + 1 evaluations of the statistic (the data's and k
permutations'), so the 2000-permutation time is ``t_k (2000 + 1) / (k + 1)``; the printed
table says so. pROC runs once (its time is far above any noise). The statistic of the data
is checked against pROC's (to 1e-9): the script prints every check and exits with status 1
when one fails.

    python bench/bench_curve_test.py              # n = 1e5, 2000 permutations, best of 3, pROC boot.n = 1
    python bench/bench_curve_test.py --quick      # n = 2e3, 50 permutations, 1 round, no pROC
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

TARGET = 20.0  # rankwise at least this many times faster than pROC (2000 permutations, 10^5 rows)

R_SCRIPT = r"""
suppressPackageStartupMessages(library(pROC))
args <- commandArgs(TRUE)
n <- as.integer(args[1]); k <- as.integer(args[3])
con <- file(args[2], "rb")
y <- readBin(con, "integer", n, size = 4)
a <- readBin(con, "double", n)
b <- readBin(con, "double", n)
close(con)
h <- n %/% 2
r1 <- roc(y, a, levels = c(0, 1), direction = "<", quiet = TRUE)
r2 <- roc(y, b, levels = c(0, 1), direction = "<", quiet = TRUE)
t <- system.time(tp <- roc.test(r1, r2, method = "venkatraman", paired = TRUE, boot.n = k, progress = "none"))[["elapsed"]]
u1 <- roc(y[1:h], a[1:h], levels = c(0, 1), direction = "<", quiet = TRUE)
u2 <- roc(y[(h + 1):n], b[(h + 1):n], levels = c(0, 1), direction = "<", quiet = TRUE)
tu <- system.time(tq <- roc.test(u1, u2, method = "venkatraman", paired = FALSE, boot.n = k, progress = "none"))[["elapsed"]]
cat(sprintf("%.6f %.17g %.6f %.17g\n", t, tp$statistic, tu, tq$statistic))
"""


def make_data(n: int, seed: int = 0):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.3).astype(np.int32)
    a = rng.normal(size=n) + y
    b = 0.6 * a + rng.normal(0.8 * y, 0.8, size=n)
    return y, a, b


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="n = 2000, 50 permutations, 1 round, no pROC")
    ap.add_argument("--n", type=float, default=None)
    ap.add_argument("--permutations", type=int, default=None)
    ap.add_argument("--repeat", type=int, default=None)
    ap.add_argument("--proc-boot-n", type=int, default=1)
    ap.add_argument("--no-r", action="store_true", help="skip pROC")
    args = ap.parse_args(argv)
    n = int(args.n or (2000 if args.quick else 100_000))
    n_perm = args.permutations or (50 if args.quick else 2000)
    repeat = args.repeat or (1 if args.quick else 3)
    use_r = not (args.quick or args.no_r)

    from threadpoolctl import threadpool_limits

    threadpool_limits(1)
    import rankwise as rw

    y, a, b = make_data(n)
    h = n // 2
    calls = {
        "paired": lambda: rw.stats.curve_test(y, a, b, n_permutations=n_perm, random_state=0),
        "unpaired": lambda: rw.stats.curve_test_unpaired(y[:h], a[:h], y[h:], b[h:], n_permutations=n_perm,
                                                         random_state=0, mixing="proc"),
    }
    results = {k: f() for k, f in calls.items()}  # warm-up, and the statistics checked below
    times = {k: best_time(f, repeat) for k, f in calls.items()}

    print(f"# Venkatraman's curve tests, {datetime.date.today()}")
    print(cpu_line())
    print(f"{load_line()}; BLAS threads 1; rankwise best of {repeat}")
    print()
    proc = run_r(R_SCRIPT, [y, a, b], n, args.proc_boot_n) if use_r else None
    k = args.proc_boot_n
    print(f"| design | n | permutations | rankwise (s) | pROC boot.n = {k} (s) | pROC at {n_perm}, scaled (s) | "
          f"pROC / rankwise |")
    print("|---|---|---|---|---|---|---|")
    ratios, checks = {}, []
    for i, key in enumerate(("paired", "unpaired")):
        if proc is None:
            print(f"| {key} | {n:.0e} | {n_perm} | {times[key]:.4f} | skipped | - | - |")
            continue
        t_k = float(proc[2 * i])
        scaled = t_k * (n_perm + 1) / (k + 1)
        ratios[key] = scaled / times[key]
        print(f"| {key} | {n:.0e} | {n_perm} | {times[key]:.4f} | {t_k:.2f} | {scaled:.1f} | {ratios[key]:.1f}x |")
        checks.append((f"{key} statistic vs pROC", abs(results[key].statistic - float(proc[2 * i + 1])), 1e-9))
    print()
    if proc is not None:
        print(f"pROC's time at {n_perm} permutations is scaled from boot.n = {k}: t * ({n_perm} + 1) / ({k} + 1).")
        for key, r in ratios.items():
            verdict = "met" if r >= TARGET else "missed"
            print(f"target ({key}): at least {TARGET:.0f}x faster than pROC at {n_perm} permutations: "
                  f"{r:.0f}x ({verdict})")
    for key in ("paired", "unpaired"):
        print(f"{key}: E = {results[key].statistic:.10g}, p = {results[key].p_value:.4f}, "
              f"{times[key] / n_perm * 1e3:.3f} ms a permutation")
    ok = True
    for name, diff, tol in checks:
        good = diff <= tol
        ok &= good
        print(f"check: {name}: largest difference {diff:.1e} ({'ok' if good else 'FAILED'}, tolerance {tol:g})")
    print("agreement checks: " + (f"all {len(checks)} passed" if ok else "FAILED"))
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
