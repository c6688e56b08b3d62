"""What smoothed ROC curves cost: ``rw.smooth_roc`` and its stratified bootstrap interval
against pROC's ``smooth`` and ``ci.auc(smooth(...), boot.n = B)``, both timed in one run.

Data (seed 0): n rows, label ~ Bernoulli(0.5), score ~ N(label, 1) (float scores, no ties).
At each n and for each method (binormal, density with the default bandwidth rule nrd0):

(a) ``rw.smooth_roc(y, s, method=m)`` against ``smooth(roc(...), method = m)`` (the curve
    and its AUC; pROC's time includes building its ``roc`` object, which the smoothing
    needs, as ours includes reading the sample);
(b) ``c.confidence_interval(n_resamples=B)`` (B = 2000) against
    ``ci.auc(smooth, boot.n = B_R)``: pROC's time is per resample times B, measured with
    ``B_R = --r-boot`` resamples (default 20 at 10^5, 200 at 10^4: pROC's full 2,000 would
    take minutes per call). Both resample each class with replacement and smooth again.

The smoothed AUCs of the two must agree to 1e-9 (printed; the script exits with status 1
otherwise). BLAS on one thread (threadpoolctl); best of ``--repeat`` for (a), one run of
(b) per library (the bootstrap's own 2,000 resamples average the noise).

    python bench/bench_smooth.py              # n = 1e4, 1e5
    python bench/bench_smooth.py --quick      # n = 2000, B = 20, no R
"""

from __future__ import annotations

import argparse
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _timing import best_time, run_r  # noqa: E402

R_SCRIPT = r"""
suppressPackageStartupMessages(library(pROC))
args <- commandArgs(TRUE)
n <- as.integer(args[1]); rep <- as.integer(args[3])
con <- file(args[2], "rb"); y <- readBin(con, "double", n); s <- readBin(con, "double", n); close(con)
rboot <- %d
for (m in c("binormal", "density")) {
  best <- Inf
  for (i in seq_len(rep)) {
    t <- system.time({r <- roc(y, s, levels = c(0, 1), direction = "<", quiet = TRUE); sm <- smooth(r, method = m)})
    best <- min(best, t[["elapsed"]])
  }
  set.seed(1)
  tb <- system.time(ci.auc(sm, boot.n = rboot, progress = "none"))[["elapsed"]]
  cat(m, best, tb / rboot, sprintf("%%.17g", as.numeric(auc(sm))), "\n")
}
"""


def make_data(n: int, seed: int = 0):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n).astype(np.float64)
    return y, rng.normal(size=n) + y


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--boot", type=int, default=2000)
    ap.add_argument("--r-boot", type=int, default=None, help="pROC's boot.n (its time is scaled to --boot)")
    ap.add_argument("--sizes", type=int, nargs="*", default=None)
    a = ap.parse_args(argv)
    sizes = a.sizes or ([2000] if a.quick else [10_000, 100_000])
    boot = 20 if a.quick else a.boot
    repeat = 1 if a.quick else a.repeat

    from threadpoolctl import threadpool_limits

    import rankwise as rw

    threadpool_limits(1)
    print("machine: 2-core AMD EPYC (Zen 5, AVX-512), BLAS on one thread")
    print(f"load average at start: {os.getloadavg()[0]:.2f}")
    rw.smooth_roc([0, 0, 0, 0, 1, 1, 1, 1], [1, 2, 3, 4, 2, 3, 4, 5])  # warm: SciPy's import
    ok = True
    rows = []
    for n in sizes:
        y, s = make_data(n)
        theirs = {}
        if not a.quick:
            rb = a.r_boot or (200 if n <= 10_000 else 20)
            out = run_r(R_SCRIPT % rb, [y, s], n, repeat)
            if out:
                for i in range(0, len(out), 4):
                    theirs[out[i]] = (float(out[i + 1]), float(out[i + 2]) * boot, float(out[i + 3]), rb)
        for m in ("binormal", "density"):
            t_smooth = best_time(lambda: rw.smooth_roc(y, s, method=m), repeat)
            c = rw.smooth_roc(y, s, method=m)
            t0 = time.perf_counter()
            iv = c.confidence_interval(n_resamples=boot, random_state=0)
            t_ci = time.perf_counter() - t0
            r = theirs.get(m)
            if r is not None:
                agree = abs(c.auc() - r[2]) < 1e-9
                ok &= agree
                print(f"n={n} {m}: AUC {c.auc():.12f}, pROC {r[2]:.12f}: {'agree' if agree else 'DIFFER'} to 1e-9; "
                      f"interval [{iv.low:.4f}, {iv.high:.4f}]")
            rows.append((n, m, "(a) smooth", t_smooth, r[0] if r else None))
            rows.append((n, m, f"(b) bootstrap CI, B={boot}", t_ci, r[1] if r else None))
    print()
    print("| n | method | call | rankwise (s) | pROC (s) | pROC / rankwise |")
    print("|---|---|---|---|---|---|")
    for n, m, call, t, tr in rows:
        ratio = f"{tr / t:.1f}x" if tr else "-"
        print(f"| {n:,} | {m} | {call} | {t:.4f} | {'-' if tr is None else f'{tr:.3f}'} | {ratio} |")
    if not a.quick and theirs:
        print(f"\npROC's bootstrap times: seconds per resample (boot.n as above) times {boot}.")
    print(f"load average at end: {os.getloadavg()[0]:.2f}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
