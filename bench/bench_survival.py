"""Harrell's concordance index with its standard error (``rw.survival.estimate``) against
the anchors of the censored-times issue, in one run: ``rw.stats.estimate`` of the AUC on
as many rows (the speed target is a ratio to it), lifelines' ``concordance_index`` (no
standard error; it takes a score where higher means later, so it gets ``-risk``) and R
survival's ``concordance(Surv(time, status) ~ risk, reverse = TRUE, timefix = FALSE)``
(with its infinitesimal-jackknife variance; ``timefix = FALSE``: R's default merges times
within about 1e-8 of each other into ties, rankwise compares times exactly), each when
installed.

Data: exponential event times (rate exp(risk signal)), independent exponential censoring
(about 30% censored), risk = signal + N(0, 1); float times and risks (no ties) and a tied
variant (times rounded up to integers, risks to 1 decimal); seed 0. BLAS pinned to one
thread; every rankwise call made once before the timings (numba loaded); best of
``--repeat``. The values are checked against each anchor (exit 1 on a disagreement).

    python bench/bench_survival.py            # n = 1e5 and 1e6
    python bench/bench_survival.py --quick    # n = 2e4, one round, the test suite's run
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
suppressPackageStartupMessages(library(survival))
args <- commandArgs(TRUE)
n <- as.integer(args[1]); repeats <- as.integer(args[3])
con <- file(args[2], "rb")
time <- readBin(con, "double", n); status <- readBin(con, "double", n); risk <- readBin(con, "double", n)
close(con)
b <- Inf
for (i in seq_len(repeats)) b <- min(b, system.time(f <- concordance(Surv(time, status) ~ risk, reverse = TRUE, timefix = FALSE))[["elapsed"]])
cat(sprintf("%.17g", c(b, f$concordance, sqrt(f$var))), "\n")
"""


def make(n: int, tied: bool, seed: int = 0):
    rng = np.random.default_rng(seed)
    signal = rng.normal(size=n)
    t_event = rng.exponential(1.0 / np.exp(signal))
    t_cens = rng.exponential(1.0 / (0.43 * np.exp(0.0)), size=n) * 2.0
    time_ = np.minimum(t_event, t_cens)
    event = t_event <= t_cens
    risk = signal + rng.normal(size=n)
    if tied:
        time_ = np.ceil(time_ * 4)
        risk = np.round(risk, 1)
    return time_, event, risk


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args(argv)
    from threadpoolctl import threadpool_limits

    threadpool_limits(1)
    import rankwise as rw

    try:
        from lifelines.utils import concordance_index as ll_concordance
    except ImportError:
        ll_concordance = None
    sizes = [20_000] if args.quick else [100_000, 1_000_000]
    repeat = 1 if args.quick else args.repeat
    ok = True
    print("| n | data | call | time (s) | / estimate(AUC) | value | std. error |")
    print("|---|---|---|---:|---:|---:|---:|")
    warm = make(2000, True)
    rw.survival.estimate(*warm)
    for n in sizes:
        for tied in (False, True):
            t, e, r = make(n, tied)
            label = "tied" if tied else "float"
            y = e  # a binary label of the same size, for the AUC baseline
            base = best(lambda: rw.stats.estimate(y, r), repeat)
            est = rw.survival.estimate(t, e, r)
            t_est = best(lambda: rw.survival.estimate(t, e, r), repeat)
            print(f"| {n:.0e} | {label} | rw.stats.estimate (AUC) | {base:.4f} | 1.00 | | |")
            print(f"| {n:.0e} | {label} | rw.survival.estimate | {t_est:.4f} | {t_est / base:.2f} | {est.value:.6f} | "
                  f"{est.std_error:.6f} |")
            if ll_concordance is not None and not args.quick:
                v = ll_concordance(t, -r, e)
                t_ll = best(lambda: ll_concordance(t, -r, e), 1)
                print(f"| {n:.0e} | {label} | lifelines concordance_index (no SE) | {t_ll:.4f} | {t_ll / base:.2f} | "
                      f"{v:.6f} | |")
                print(f"check: n = {n:.0e}, {label}: lifelines vs rankwise C, difference {abs(v - est.value):.1e}")
                if abs(v - est.value) > 1e-12:
                    print(f"FAILED: lifelines {v} != rankwise {est.value}")
                    ok = False
            if not args.quick:
                out = _run_r(R_SCRIPT, [np.ascontiguousarray(a, dtype="<f8") for a in (t, e.astype(np.float64), r)],
                             n, 1 if n >= 1_000_000 else repeat)
                rr = None if out is None else [float(v) for v in out]
                if rr is not None:
                    print(f"| {n:.0e} | {label} | R survival concordance (with SE) | {rr[0]:.4f} | {rr[0] / base:.2f} | "
                          f"{rr[1]:.6f} | {rr[2]:.6f} |")
                    # Tied data: equal to rounding. Float data: R differs in the ninth digit (a few
                    # of ~10^9-10^11 pairs counted otherwise, its standard error in the eighth).
                    tol = 1e-10 if tied else 1e-7
                    dv, ds = abs(rr[1] - est.value) / est.value, abs(rr[2] - est.std_error) / est.std_error
                    print(f"check: n = {n:.0e}, {label}: R survival vs rankwise, relative differences C {dv:.1e}, "
                          f"std. error {ds:.1e} (tolerance {tol:.0e})")
                    if dv > tol or ds > tol:
                        print(f"FAILED: R {rr[1:]} != rankwise {(est.value, est.std_error)}")
                        ok = False
    print("agreement checks:", "all passed" if ok else "FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        raise SystemExit(main())
