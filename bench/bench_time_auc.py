"""The time-dependent AUC(t) with its standard errors (``rw.survival.cumulative_dynamic_auc``)
against the anchors of the censored-times issue, in one run: scikit-survival's
``cumulative_dynamic_auc`` (no standard error) at 10^6 rows and 10 times, and R timeROC's
``timeROC(..., iid = TRUE)`` (the i.i.d. standard error, O(n^2) memory and O(n^3) time) at
n = 4,000 and 2 times, each when installed.

Data: exponential event times (rate exp(signal)), independent exponential censoring (about
40% censored), risk = signal + N(0, 1) rounded to 6 decimals (so scikit-survival's 1e-8
tolerance for tied risks changes nothing), float times (no ties, so every package's
conventions agree; the times are quantiles of the event times, never an observed time);
seed 0. BLAS pinned to one thread; rankwise called once before the timings; best of
``--repeat`` (timeROC and scikit-survival at 10^6: once). The values are checked against each
anchor (AUC(t) to 1e-9, timeROC's standard error to 1e-8; exit 1 on a disagreement).

    python bench/bench_time_auc.py            # 10^6 rows vs scikit-survival, 4,000 vs timeROC
    python bench/bench_time_auc.py --quick    # 2e4 rows and 300 vs timeROC: the test suite's run
"""

from __future__ import annotations

import argparse
import os
import sys
import warnings

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _timing import best_time as best, run_r as _run_r  # noqa: E402

R_SCRIPT = r"""
suppressPackageStartupMessages({library(timeROC); library(survival)})
args <- commandArgs(TRUE)
n <- as.integer(args[1]); repeats <- as.integer(args[3])
con <- file(args[2], "rb")
time <- readBin(con, "double", n); status <- readBin(con, "double", n); risk <- readBin(con, "double", n)
k <- readBin(con, "double", 1); times <- readBin(con, "double", k)
close(con)
b <- Inf
for (i in seq_len(repeats)) b <- min(b, system.time(f <- timeROC(T = time, delta = status, marker = risk, cause = 1,
    weighting = "marginal", times = times, iid = TRUE))[["elapsed"]])
cat(sprintf("%.17g", c(b, f$AUC, f$inference$vect_sd_1)), "\n")
"""


def make(n: int, seed: int = 0):
    rng = np.random.default_rng(seed)
    signal = rng.normal(size=n)
    t_event = rng.exponential(1.0 / np.exp(signal))
    t_cens = rng.exponential(1.5, size=n)
    time_ = np.minimum(t_event, t_cens)
    event = t_event <= t_cens
    # 6 decimals: two different risks are 1e-6 apart or more, beyond scikit-survival's
    # tied_tol (1e-8, under which it counts two risks as tied); equal ones tie for both.
    risk = np.round(signal + rng.normal(size=n), 6)
    return time_, event, risk


def eval_times(time_, event, k: int) -> np.ndarray:
    return np.quantile(time_[event], np.linspace(0.05, 0.95, k) if k > 2 else [0.25, 0.5][:k])


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--n", type=int, default=None, help="rows against scikit-survival (default 1e6)")
    ap.add_argument("--timeroc-n", type=int, default=None, help="rows against timeROC (default 4000)")
    args = ap.parse_args(argv)
    from threadpoolctl import threadpool_limits

    threadpool_limits(1)
    import rankwise as rw

    try:
        from sksurv.metrics import cumulative_dynamic_auc as sk_auc
        from sksurv.util import Surv
    except ImportError:
        sk_auc = None
    n_big = args.n or (20_000 if args.quick else 1_000_000)
    n_r = args.timeroc_n or (300 if args.quick else 4_000)
    repeat = 1 if args.quick else args.repeat
    ok = True
    notes = []  # printed after the table
    rw.survival.cumulative_dynamic_auc(*make(2000), eval_times(*make(2000)[:2], 10))
    print("| n | times | call | time (s) | ratio | mean AUC | first std. error |")
    print("|---|---:|---|---:|---:|---:|---:|")

    # 1. 10 times at n_big, against scikit-survival (no standard error)
    t, e, r = make(n_big)
    tt = eval_times(t, e, 10)
    res = rw.survival.cumulative_dynamic_auc(t, e, r, tt)
    t_rw = best(lambda: rw.survival.cumulative_dynamic_auc(t, e, r, tt), repeat)
    print(f"| {n_big:.0e} | 10 | rw.survival.cumulative_dynamic_auc (with SE) | {t_rw:.4f} | 1.00 | "
          f"{res.mean_value:.6f} | {res.std_errors[0]:.6f} |")
    if sk_auc is not None:
        y = Surv.from_arrays(e, t)
        out = {}
        t_sk = best(lambda: out.setdefault("v", sk_auc(y, y, r, tt)), 1)
        auc, mean = out["v"]
        print(f"| {n_big:.0e} | 10 | scikit-survival cumulative_dynamic_auc (no SE) | {t_sk:.4f} | "
              f"{t_sk / t_rw:.2f} | {mean:.6f} | |")
        d = max(float(np.max(np.abs(auc - res.values))), abs(mean - res.mean_value))
        notes.append(f"check: n = {n_big:.0e}: scikit-survival vs rankwise AUC(t) and mean AUC, largest difference "
                     f"{d:.1e}")
        if d > 1e-9:
            notes.append(f"FAILED: scikit-survival {auc} != rankwise {res.values}")
            ok = False
        notes.append(f"ratio: scikit-survival / rankwise at n = {n_big:.0e}, 10 times: {t_sk / t_rw:.1f}x")

    # 2. 2 times at n_r, against timeROC(iid = TRUE)
    t, e, r = make(n_r, seed=1)
    tt = eval_times(t, e, 2)
    res = rw.survival.cumulative_dynamic_auc(t, e, r, tt)
    t_rw = best(lambda: rw.survival.cumulative_dynamic_auc(t, e, r, tt), max(repeat, 3))
    print(f"| {n_r:.0e} | 2 | rw.survival.cumulative_dynamic_auc (with SE) | {t_rw:.4f} | 1.00 | "
          f"{res.mean_value:.6f} | {res.std_errors[0]:.6f} |")
    cols = [np.ascontiguousarray(a, dtype="<f8") for a in (t, e.astype(np.float64), r, np.array([2.0]), tt)]
    outr = _run_r(R_SCRIPT, cols, n_r, 1)
    if outr is not None:
        rr = [float(v) for v in outr]
        t_r, auc_r, se_r = rr[0], np.array(rr[1:3]), np.array(rr[3:5])
        print(f"| {n_r:.0e} | 2 | R timeROC(iid = TRUE) | {t_r:.4f} | {t_r / t_rw:.1f} | | {se_r[0]:.6f} |")
        dv, ds = float(np.max(np.abs(auc_r - res.values))), float(np.max(np.abs(se_r - res.std_errors)))
        notes.append(f"check: n = {n_r:.0e}: timeROC vs rankwise, largest differences AUC(t) {dv:.1e}, "
                     f"std. error {ds:.1e}")
        if dv > 1e-9 or ds > 1e-8:
            notes.append(f"FAILED: timeROC {auc_r, se_r} != rankwise {res.values, res.std_errors}")
            ok = False
        notes.append(f"ratio: timeROC / rankwise at n = {n_r:.0e}, 2 times: {t_r / t_rw:.0f}x")
    print()
    for line in notes:
        print(line)
    print("agreement checks:", "all passed" if ok else "FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        raise SystemExit(main())
