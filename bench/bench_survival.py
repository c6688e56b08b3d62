"""Harrell's and Uno's concordance index with their standard errors (``rw.survival.estimate``)
against the anchors of the censored-times issue, in one run: ``rw.stats.estimate`` of the
AUC on as many rows (the speed target is a ratio to it), lifelines' ``concordance_index``
(Harrell's; no standard error; it takes a score where higher means later, so it gets
``-risk``), R survival's ``concordance(Surv(time, status) ~ risk, reverse = TRUE, timefix =
FALSE)`` (with its infinitesimal-jackknife variance; ``timefix = FALSE``: R's default merges
times within about 1e-8 of each other into ties, rankwise compares times exactly), the same
with ``timewt = "n/G2"`` (Uno's weights) and with ``ymax = tau``, timed inside R, and
scikit-survival's ``concordance_index_ipcw`` (Uno's; no standard error; O(n^2) pairs, so only
up to ``--sksurv-max`` rows; ``tied_tol=0``: exact risk ties, as rankwise; its ``tau`` keeps
``t < tau``, so it gets the next float above rankwise's ``tau``), each when installed.

Data: exponential event times (rate exp(risk signal)), independent exponential censoring
(about 30% censored), risk = signal + N(0, 1); float times and risks (no ties) and a tied
variant (times rounded up to quarters, risks to 1 decimal); seed 0. ``tau``: the 0.8
quantile of the event times. BLAS pinned to one thread; every rankwise call made once
before the timings (numba loaded); best of ``--repeat`` (R: once at 10^6; scikit-survival:
once). The values are checked against each anchor where the conventions coincide (exit 1
on a disagreement): scikit-survival reads the censoring curve at ``G(t)``, censorings at
``t`` included, rankwise and R at ``G(t-)``; the two agree where no censoring shares a time
with an event (the float data), and the tied data's difference is printed, not checked.

Beyond the quick mode, two weighted calls (integer frequency weights 1-4, seed 1):
Harrell's and Uno's C. ``--threads 2`` lets the compiled kernel share its work between two
threads (the library's default is one; the AUC baseline always runs on one).

    python bench/bench_survival.py            # n = 1e5 and 1e6
    python bench/bench_survival.py --threads 2
    python bench/bench_survival.py --no-anchors   # rankwise only
    python bench/bench_survival.py --n 10000  # other sizes
    python bench/bench_survival.py --quick    # n = 2e4, one round, no anchors: the test suite's run
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
tau <- readBin(con, "double", 1)
close(con)
timed <- function(call) {
  b <- Inf
  for (i in seq_len(repeats)) b <- min(b, system.time(f <- eval(call))[["elapsed"]])
  c(b, f$concordance, sqrt(f$var))
}
out <- c(timed(quote(concordance(Surv(time, status) ~ risk, reverse = TRUE, timefix = FALSE))),
         timed(quote(concordance(Surv(time, status) ~ risk, reverse = TRUE, timefix = FALSE, timewt = "n/G2"))),
         timed(quote(concordance(Surv(time, status) ~ risk, reverse = TRUE, timefix = FALSE, timewt = "n/G2",
                                 ymax = tau))))
cat(sprintf("%.17g", out), "\n")
"""

#: The rankwise calls of the table, in order: (label, keyword arguments, R's triple).
CALLS = [("rw.survival.estimate", {}, 0),
         ("rw.survival.estimate, weighting='uno'", {"weighting": "uno"}, 1),
         ("rw.survival.estimate, weighting='uno', tau", {"weighting": "uno", "tau": True}, 2)]
#: Weighted calls, timed beyond the quick mode (no anchor).
WEIGHTED_CALLS = [("rw.survival.estimate, sample_weight", {}), ("rw.survival.estimate, weighting='uno', sample_weight",
                                                             {"weighting": "uno"})]
R_LABELS = ["R survival concordance (with SE)", "R survival concordance, timewt = 'n/G2' (with SE)",
            "R survival concordance, timewt = 'n/G2', ymax = tau (with SE)"]


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


def truncation(time, event) -> float:
    """The ``tau`` of the table: the 0.8 quantile of the event times."""
    return float(np.quantile(time[event], 0.8))


def censoring_ties_an_event(time, event) -> bool:
    """Whether some censoring shares its time with an event (where scikit-survival's G(t)
    and rankwise's G(t-) differ)."""
    return bool(np.intersect1d(time[event], time[~event]).size)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--n", type=int, nargs="+", default=[100_000, 1_000_000], help="sample sizes")
    ap.add_argument("--sksurv-max", type=int, default=100_000,
                    help="largest n given to scikit-survival's O(n^2) concordance_index_ipcw")
    ap.add_argument("--no-anchors", action="store_true", help="time rankwise only (no lifelines, R or scikit-survival)")
    ap.add_argument("--threads", type=int, default=None,
                    help="threads of the compiled censored kernel (default: the library's)")
    args = ap.parse_args(argv)
    from threadpoolctl import threadpool_limits

    threadpool_limits(1)
    import rankwise as rw
    from rankwise._kernels import _censored

    if args.threads is not None:
        _censored.THREADS = max(1, args.threads)
    print(f"censored kernel threads: up to {getattr(_censored, 'THREADS', 1)} "
          f"(from {getattr(_censored, 'THREADED_FROM', 0)} rows)")

    try:
        from lifelines.utils import concordance_index as ll_concordance
    except ImportError:
        ll_concordance = None
    try:
        from sksurv.metrics import concordance_index_ipcw
        from sksurv.util import Surv
    except ImportError:
        concordance_index_ipcw = None
    sizes = [20_000] if args.quick else args.n
    repeat = 1 if args.quick else args.repeat
    ok = True
    checks = []
    print("| n | data | call | time (s) | / estimate(AUC) | value | std. error |")
    print("|---|---|---|---:|---:|---:|---:|")
    warm = make(2000, True)
    for _, kw, _ in CALLS:
        rw.survival.estimate(*warm, **{k: (truncation(*warm[:2]) if k == "tau" else v) for k, v in kw.items()})

    def row(n, label, call, seconds, base, value="", se=""):
        v = value if isinstance(value, str) else f"{value:.6f}"
        s = se if isinstance(se, str) else f"{se:.6f}"
        print(f"| {n:.0e} | {label} | {call} | {seconds:.4f} | {seconds / base:.2f} | {v} | {s} |")

    for n in sizes:
        for tied in (False, True):
            t, e, r = make(n, tied)
            tau = truncation(t, e)
            label = "tied" if tied else "float"
            y = e  # a binary label of the same size, for the AUC baseline
            base = best(lambda: rw.stats.estimate(y, r), repeat)
            row(n, label, "rw.stats.estimate (AUC)", base, base)
            ests = []
            for name, kw, _ in CALLS:
                kw = {k: (tau if k == "tau" else v) for k, v in kw.items()}
                est = rw.survival.estimate(t, e, r, **kw)
                secs = best(lambda: rw.survival.estimate(t, e, r, **kw), repeat)
                row(n, label, name, secs, base, est.value, est.std_error)
                ests.append(est)
            if args.quick:
                continue
            wts = np.random.default_rng(1).integers(1, 5, n).astype(np.float64)
            for name, kw in WEIGHTED_CALLS:
                est = rw.survival.estimate(t, e, r, sample_weight=wts, **kw)
                secs = best(lambda: rw.survival.estimate(t, e, r, sample_weight=wts, **kw), repeat)
                row(n, label, name, secs, base, est.value, est.std_error)
            if args.no_anchors:
                continue
            harrell, uno, uno_tau = ests
            if ll_concordance is not None:
                v = ll_concordance(t, -r, e)
                t_ll = best(lambda: ll_concordance(t, -r, e), 1)
                row(n, label, "lifelines concordance_index (no SE)", t_ll, base, v)
                checks.append(f"n = {n:.0e}, {label}: lifelines vs rankwise Harrell's C, difference "
                              f"{abs(v - harrell.value):.1e}")
                if abs(v - harrell.value) > 1e-12:
                    checks.append(f"FAILED: lifelines {v} != rankwise {harrell.value}")
                    ok = False
            cols = [np.ascontiguousarray(a, dtype="<f8") for a in (t, e.astype(np.float64), r, [tau])]
            out = _run_r(R_SCRIPT, cols, n, 1 if n >= 1_000_000 else repeat)
            if out is not None:
                rr = np.array([float(v) for v in out]).reshape(3, 3)
                # Tied data: equal to rounding. Float data: R differs in the ninth digit (a few
                # of ~10^9-10^11 pairs counted otherwise, its standard error in the eighth).
                tol = 1e-10 if tied else 1e-7
                for (secs, cv, sv), est, what in zip(rr, ests, R_LABELS):
                    row(n, label, what, secs, base, cv, sv)
                    dv, ds = abs(cv - est.value) / est.value, abs(sv - est.std_error) / est.std_error
                    checks.append(f"n = {n:.0e}, {label}: {what} vs rankwise, relative differences C {dv:.1e}, "
                                  f"std. error {ds:.1e} (tolerance {tol:.0e})")
                    if dv > tol or ds > tol:
                        checks.append(f"FAILED: R {(cv, sv)} != rankwise {(est.value, est.std_error)}")
                        ok = False
            if concordance_index_ipcw is not None and n <= args.sksurv_max:
                ys = Surv.from_arrays(e, t)
                tau_sk = float(np.nextafter(tau, np.inf))  # scikit-survival keeps t < tau
                tied_g = censoring_ties_an_event(t, e)
                sk_calls = (("scikit-survival concordance_index_ipcw (no SE)", {}, uno),
                            ("scikit-survival concordance_index_ipcw, tau (no SE)", {"tau": tau_sk}, uno_tau))
                for what, kw, est in sk_calls:
                    v = [None]

                    def sk():
                        v[0] = concordance_index_ipcw(ys, ys, r, tied_tol=0, **kw)[0]

                    secs = best(sk, 1)
                    row(n, label, what, secs, base, v[0])
                    d = abs(v[0] - est.value) / est.value
                    if tied_g:
                        checks.append(f"n = {n:.0e}, {label}: {what} vs rankwise Uno's C, relative difference "
                                      f"{d:.1e} (not checked: censorings share times with events, and "
                                      f"scikit-survival reads G(t), rankwise and R G(t-))")
                    else:
                        checks.append(f"n = {n:.0e}, {label}: {what} vs rankwise Uno's C, relative difference "
                                      f"{d:.1e} (tolerance 1e-10)")
                        if d > 1e-10:
                            checks.append(f"FAILED: scikit-survival {v[0]} != rankwise {est.value}")
                            ok = False
    for line in checks:
        print("check:", line)
    print("agreement checks:", "all passed" if ok else "FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        raise SystemExit(main())
