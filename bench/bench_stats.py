"""Inference speed: rankwise.stats against R pROC and against one ``rw.auc``, in one run.

Three targets of issue 3, each timed beside its anchor in the same process:

1. ``rw.stats.estimate(y, s)`` (AUC with its DeLong variance) plus its 95% interval at
   n = 1e6, against R pROC ``ci.auc(roc(y, s, levels=c(0, 1), direction="<"),
   method="delong")`` timed inside R with ``system.time`` (R's start-up and the reading
   of the data excluded). Target: at least 20x faster.
2. ``rw.stats.compare(y, [s_1, ..., s_10])`` (K = 10 scorers, joint DeLong covariance,
   45 pairwise tests, global test) at n = 1e6 against one ``rw.auc``. Target: at most
   10x. pROC, for scale: ``cov(r1, r2, method="delong")`` over the 45 pairs would be its
   way; timed for one pair when R is present.
3. ``Estimate.bootstrap_distribution(2000)`` (class-stratified, vectorised) at n = 1e5
   against one ``rw.auc``. Target: within 30x. The floor of any case-resampling
   bootstrap is also printed: drawing the 2000 x n random row indices alone with numpy's
   fastest generator.

Every run checks that rankwise and pROC agree on the DeLong variance to 1e-9.
Data: 30% positives, score N(0, 1) + label (continuous, untied), scorer k adds
N(0, 0.5 k) noise; seed 0. BLAS threads pinned to 1 (threadpoolctl); best of
``--repeat`` runs.

Usage::

    python bench/bench_stats.py             # the three targets
    python bench/bench_stats.py --quick     # small n, for the test suite
"""

from __future__ import annotations

import argparse
import os
import platform
import sys

import numpy as np

import rankwise as rw

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _timing import best_time, run_r  # noqa: E402




R_SCRIPT = r"""
suppressPackageStartupMessages(library(pROC))
args <- commandArgs(trailingOnly = TRUE)
n <- as.integer(args[1]); rep <- as.integer(args[3])
con <- file(args[2], "rb")
s <- readBin(con, "double", n); s2 <- readBin(con, "double", n); y <- readBin(con, "integer", n, size = 1)
close(con)
best <- Inf; bestcov <- Inf; v <- NA; ci <- NA
for (i in seq_len(rep)) {
  t <- system.time({
    r <- roc(y, s, levels = c(0, 1), direction = "<", quiet = TRUE)
    ci <- as.numeric(ci.auc(r, method = "delong"))
    v <- var(r, method = "delong")
  })[["elapsed"]]
  best <- min(best, t)
  r2 <- roc(y, s2, levels = c(0, 1), direction = "<", quiet = TRUE)
  tc <- system.time(cv <- cov(r, r2, method = "delong"))[["elapsed"]]
  bestcov <- min(bestcov, tc)
}
cat(sprintf("%.17g %.17g %.6f %.6f\n", v, ci[1], best, bestcov))
"""


def proc_times(y, s, s2, repeat):
    out = run_r(R_SCRIPT, [np.ascontiguousarray(s, dtype="<f8"), np.ascontiguousarray(s2, dtype="<f8"),
                           y.astype(np.int8)], y.shape[0], repeat)
    if out is None:
        return None
    v, lo, t, tc = out
    return float(v), float(lo), float(t), float(tc)


def data(n, k, rng):
    y = rng.random(n) < 0.3
    base = rng.normal(size=n) + y
    scores = [base + rng.normal(size=n) * 0.5 * j for j in range(k)]
    return y, scores


def run(n_est, n_cmp, n_boot, K, B, repeat, with_r):
    rng = np.random.default_rng(0)
    rows = []
    # 1. estimate + DeLong CI against pROC.
    y, sc = data(n_est, 2, rng)
    s = sc[0]
    t_auc = best_time(lambda: rw.auc(y, s), repeat)
    t_est = best_time(lambda: rw.stats.estimate(y, s).confidence_interval(), repeat)
    e = rw.stats.estimate(y, s)
    pr = proc_times(y, s, sc[1], max(1, repeat // 2)) if with_r else None
    if pr is not None:
        v, lo, t_r, t_rcov = pr
        assert abs(v - e.std_error ** 2) <= 1e-9 * max(1.0, v), (v, e.std_error ** 2)
        assert abs(lo - e.confidence_interval().low) <= 1e-9
    else:
        t_r = t_rcov = float("nan")
    rows.append(("estimate(auc) + DeLong CI", n_est, t_est, t_auc, t_r, "pROC roc + ci.auc(delong)"))
    # 2. compare K scorers against one auc.
    y, sc = data(n_cmp, K, rng)
    t_auc2 = best_time(lambda: rw.auc(y, sc[0]), repeat)
    t_cmp = best_time(lambda: rw.stats.compare(y, sc), max(1, repeat // 2))
    # The floor of paired terms: each row's term for each scorer needs the row's place in
    # that scorer's order, one sort with its permutation per class and scorer (the
    # criteria's class sorts need no permutation, which is why one auc is cheaper than one
    # scorer's terms). Timed two ways: numpy's argsort (the method before issue 16's third
    # session) and rankwise's class_orders (one sort of integer keys; numba engine).
    from rankwise._kernels import class_orders

    pos_mask = y == 1
    classes = [(x[pos_mask], x[~pos_mask]) for x in sc]
    t_args = best_time(lambda: [np.argsort(c) for pair in classes for c in pair], max(1, repeat // 2))
    del classes
    work: dict = {}
    t_perm = best_time(lambda: [class_orders(pos_mask, x, work) for x in sc], max(1, repeat // 2))
    del work
    rows.append((f"compare, K = {K} (45 pairs)" if K == 10 else f"compare, K = {K}", n_cmp, t_cmp, t_auc2,
                 t_rcov * (K * (K - 1) // 2) if n_cmp == n_est else float("nan"),
                 f"pROC cov(delong) x pairs (one pair timed); floor: the {K} scorers' class permutations "
                 f"{t_perm:.3f} s = {t_perm / t_auc2:.1f}x auc (numpy argsorts {t_args:.3f} s = "
                 f"{t_args / t_auc2:.1f}x), compare = {t_cmp / t_perm:.2f}x that floor"))
    # 3. bootstrap.
    y, sc = data(n_boot, 1, rng)
    e = rw.stats.estimate(y, sc[0])
    t_auc3 = best_time(lambda: rw.auc(y, sc[0]), max(repeat, 5))
    t_boot = best_time(lambda: e.bootstrap_distribution(B, random_state=None), 1)
    g = np.random.default_rng(1)
    chunk = max(1, min(B, 4_000_000 // n_boot))
    t_floor = best_time(lambda: [g.integers(0, n_boot, size=(min(chunk, B - i), n_boot), dtype=np.int32)
                                 for i in range(0, B, chunk)], 1)
    rows.append((f"bootstrap, {B} resamples", n_boot, t_boot, t_auc3, float("nan"), f"floor: {t_floor:.3f} s of random draws"))
    return rows


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="small sizes, one repeat (the test suite runs this)")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--no-r", action="store_true", help="skip pROC even when R is installed")
    args = ap.parse_args(argv)
    from threadpoolctl import threadpool_limits

    if args.quick:
        sizes = dict(n_est=2000, n_cmp=2000, n_boot=2000, K=4, B=100, repeat=1)
    else:
        sizes = dict(n_est=10**6, n_cmp=10**6, n_boot=10**5, K=10, B=2000, repeat=args.repeat)
    with threadpool_limits(1):
        rows = run(**sizes, with_r=not args.no_r and not args.quick)
    print(f"# rankwise {rw.__version__}, numpy {np.__version__}, Python {platform.python_version()}, "
          f"{os.cpu_count()} cores, BLAS threads 1")
    print("| operation | n | rankwise (s) | one rw.auc (s) | ratio to auc | anchor (s) | anchor / rankwise | anchor |")
    print("|---|---|---|---|---|---|---|---|")
    for name, n, t, ta, tr, label in rows:
        anchor = f"{tr:.3f}" if np.isfinite(tr) else "-"
        speed = f"{tr / t:.1f}" if np.isfinite(tr) else "-"
        print(f"| {name} | {n:.0e} | {t:.4f} | {ta:.4f} | {t / ta:.1f} | {anchor} | {speed} | {label} |")
    return 0


if __name__ == "__main__":
    main()
