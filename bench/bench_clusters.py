"""What ``clusters=`` costs (issue 28, "Speed"): ``rw.stats.estimate`` (K = 1) and
``rw.stats.compare`` (K = 3 scorers) with ``clusters=None``, with clusters of 5 rows
(n / 5 clusters, ids in random order: the rows of a cluster are scattered and the ids are
not numbered by first appearance) and with ``clusters=np.arange(n)`` (every row its own
cluster: the same numbers as ``None`` unweighted, by the clustered path), unweighted and
with integer frequency weights, for the AUC and one Hajek criterion; then R survival's
``concordance(y ~ x, cluster = id)`` on the same data when ``Rscript`` and survival are
available.

Data: n rows; cluster effect u_g ~ N(0, 0.5^2) per cluster of 5; label ~ Bernoulli(0.3);
score = N(0, 1) + label + u_g; the two other scorers of ``compare`` add N(0, 0.5^2) and
N(0, 1) noise; weights (weighted rows) uniform on {1, 2, 3, 4}; seed 0. BLAS pinned to one
thread (threadpoolctl); every call is made once before the timings (numba's kernels
loaded). The three variants of one call are timed in interleaved rounds (one round times
each once, in rotating order; the best of ``--repeat`` rounds is kept), so that a change of
the machine's load touches them alike. The script imports whichever ``rankwise`` is first
on the path (``cd /tmp && PYTHONPATH=<checkout> python <this file>`` times another one).

    python bench/bench_clusters.py                  # n = 1e5 and 1e6, best of 5, with R
    python bench/bench_clusters.py --quick          # n = 2e4, 1 round, no R (the test suite)
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import tempfile
import time
import warnings

import numpy as np

CRITERIA = ["auc", "local_auc:top=0.1"]
VARIANTS = ("None", "size 5", "arange(n)")

R_SCRIPT = r"""
suppressPackageStartupMessages(library(survival))
args <- commandArgs(TRUE)
n <- as.integer(args[1]); repeats <- as.integer(args[3])
con <- file(args[2], "rb")
y <- readBin(con, "double", n); x <- readBin(con, "double", n); id <- readBin(con, "integer", n, size = 4)
close(con)
best <- function(f) { b <- Inf; for (i in seq_len(repeats)) b <- min(b, system.time(f())[["elapsed"]]); b }
t0 <- best(function() concordance(y ~ x))
t1 <- best(function() concordance(y ~ x, cluster = id))
c0 <- concordance(y ~ x); c1 <- concordance(y ~ x, cluster = id)
cat(sprintf("%.17g", c(t0, t1, c0$concordance, sqrt(c0$var), c1$concordance, sqrt(c1$var))), "\n")
"""


def cpu_line() -> str:
    """The CPU model and its AVX-512 flags, from /proc/cpuinfo (Linux)."""
    model, flags = "unknown CPU", set()
    try:
        with open("/proc/cpuinfo") as fh:
            for line in fh:
                key, _, val = line.partition(":")
                key = key.strip()
                if key == "model name" and model == "unknown CPU":
                    model = val.strip()
                elif key == "flags" and not flags:
                    flags = {f for f in val.split() if f.startswith("avx512")}
    except OSError:
        pass
    avx = ", ".join(sorted(flags)) if flags else "none"
    return f"CPU: {model}, {os.cpu_count()} cores; AVX-512: {'yes' if flags else 'no'} ({avx})"


def make_data(n: int, seed: int = 0):
    rng = np.random.default_rng(seed)
    G = max(n // 5, 1)
    # Clusters of 5 rows at scattered positions, ids in random order.
    ids = rng.permutation(np.arange(n) // 5 % G)
    ids = rng.permutation(G)[ids]
    u = rng.normal(scale=0.5, size=G)[ids]
    y = (rng.random(n) < 0.3).astype(np.int8)
    s = rng.normal(size=n) + y + u
    others = [s + rng.normal(scale=0.5, size=n), s + rng.normal(size=n)]
    w = rng.integers(1, 5, size=n).astype(np.float64)
    return y, s, others, w, ids


def time_interleaved(calls: list, repeat: int) -> list[float]:
    """Best wall time of each call over ``repeat`` rounds, each round calling every one
    once, starting one further along each round."""
    best = [float("inf")] * len(calls)
    k = len(calls)
    for r in range(repeat):
        for j in range(k):
            i = (r + j) % k
            t0 = time.perf_counter()
            calls[i]()
            best[i] = min(best[i], time.perf_counter() - t0)
    return best


def run_r(y, s, ids, repeat: int):
    """survival's concordance without and with ``cluster = id``: (times, values), or the
    reason it did not run."""
    if shutil.which("Rscript") is None:
        return "R not available (no Rscript on PATH)"
    with tempfile.TemporaryDirectory() as d:
        data, script = os.path.join(d, "data.bin"), os.path.join(d, "conc.R")
        with open(data, "wb") as fh:
            fh.write(y.astype(np.float64).tobytes())
            fh.write(s.astype(np.float64).tobytes())
            fh.write((ids + 1).astype(np.int32).tobytes())
        with open(script, "w") as fh:
            fh.write(R_SCRIPT)
        res = subprocess.run(["Rscript", script, str(y.shape[0]), data, str(repeat)], capture_output=True, text=True)
    if res.returncode != 0:
        tail = res.stderr.strip().splitlines()[-1] if res.stderr.strip() else f"exit {res.returncode}"
        return f"R not available ({tail})"
    v = [float(t) for t in res.stdout.split()]
    return v[:2], v[2:]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=float, nargs="+", default=[1e5, 1e6])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--criteria", nargs="+", default=CRITERIA)
    ap.add_argument("--no-r", action="store_true", help="skip R survival")
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args(argv)
    sizes = [20_000] if args.quick else [int(v) for v in args.n]
    repeat = 1 if args.quick else args.repeat
    with_r = not (args.quick or args.no_r)
    from threadpoolctl import threadpool_limits

    import rankwise as rw
    from rankwise.stats import FewClustersWarning

    load0 = os.getloadavg()[0]
    rows, checks, r_rows = [], [], []
    with threadpool_limits(1), warnings.catch_warnings():
        warnings.simplefilter("ignore", FewClustersWarning)  # the quick sizes
        rw.auc([0, 1, 0, 1], [0.1, 0.4, 0.35, 0.8])
        for n in sizes:
            y, s, others, w, ids = make_data(n)
            rw.auc(y, s)  # the engine for this size, loaded outside the timings
            variants = dict(zip(VARIANTS, (None, ids, np.arange(n))))
            for weighted in (False, True):
                sw = w if weighted else None
                for crit in args.criteria:
                    est = {v: (lambda c=c: rw.stats.estimate(y, s, crit, sample_weight=sw, clusters=c))
                           for v, c in variants.items()}
                    cmp = {v: (lambda c=c: rw.stats.compare(y, [s, *others], criterion=crit, sample_weight=sw,
                                                            clusters=c))
                           for v, c in variants.items()}
                    for call, fs in (("estimate, K = 1", est), ("compare, K = 3", cmp)):
                        out = {v: f() for v, f in fs.items()}  # warm, and the numbers checked below
                        times = time_interleaved(list(fs.values()), repeat)
                        rows.append((n, weighted, crit, call, *times))
                        if call.startswith("estimate"):
                            val = [out[v].value for v in VARIANTS]
                            se = [out[v].std_error for v in VARIANTS]
                        else:
                            val = [out[v].values[0] for v in VARIANTS]
                            se = [out[v].pairs[0].std_error for v in VARIANTS]
                        checks.append((n, weighted, crit, call, val, se))
            if with_r:
                r = run_r(y, s, ids, repeat=2 if n <= 200_000 else 1)
                if isinstance(r, str):
                    r_rows.append((n, r))
                else:
                    e0, e1 = rw.stats.estimate(y, s), rw.stats.estimate(y, s, clusters=ids)
                    t_rw = time_interleaved([lambda: rw.stats.estimate(y, s),
                                             lambda: rw.stats.estimate(y, s, clusters=ids)], repeat)
                    r_rows.append((n, r, (e0, e1), t_rw))
    load1 = os.getloadavg()[0]

    print(f"# {cpu_line()}")
    print(f"# rankwise {rw.__version__} from {os.path.dirname(rw.__file__)}; numpy {np.__version__}; "
          f"BLAS threads 1; best of {repeat} interleaved rounds; load average {load0:.1f} at start, "
          f"{load1:.1f} at end")
    print()
    print("| n | weights | criterion | call | clusters=None (s) | size 5 (s) | size 5 / None "
          "| arange(n) (s) | arange(n) / None |")
    print("|---|---|---|---|---:|---:|---:|---:|---:|")
    for n, weighted, crit, call, t0, t5, t1 in rows:
        print(f"| {n:.0e} | {'weighted' if weighted else 'none'} | {crit} | {call} | {t0:.4f} | {t5:.4f} | "
              f"{t5 / t0:.2f} | {t1:.4f} | {t1 / t0:.2f} |")
    print()
    # arange(n) unweighted is the unclustered computation by the clustered path: same numbers.
    worst = 0.0
    for n, weighted, crit, call, val, se in checks:
        if not weighted:
            worst = max(worst, abs(val[2] - val[0]) / abs(val[0]), abs(se[2] - se[0]) / se[0])
            if not worst < 1e-9:
                raise AssertionError(f"clusters=arange(n) differs from None: {n} {crit} {call} {val} {se}")
    print(f"clusters=np.arange(n) against clusters=None, unweighted, values and standard errors: largest "
          f"relative difference {worst:.1e}")
    if not with_r:
        print("R survival: not run" + (" (quick mode)" if args.quick else " (--no-r)"))
        return 0
    if all(isinstance(item[1], str) for item in r_rows):
        print(f"R survival: {r_rows[0][1]}")
        return 0
    print()
    print("| n | clusters | survival concordance (s) | rw.stats.estimate(auc) (s) | survival / rankwise "
          "| AUC: survival - rankwise | std. error: survival / rankwise |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for item in r_rows:
        if isinstance(item[1], str):
            print(f"| {item[0]:.0e} | - | {item[1]} | | | | |")
            continue
        n, (tr0, tr1), (c0, se0, c1, se1), (e0, e1), (t0, t1) = item[0], item[1][0], item[1][1], item[2], item[3]
        for label, tr, c, se, e, t in (("None", tr0, c0, se0, e0, t0), ("size 5", tr1, c1, se1, e1, t1)):
            if abs(c - e.value) > 1e-9:
                raise AssertionError(f"survival's concordance {c} differs from rankwise's AUC {e.value}")
            print(f"| {n:.0e} | {label} | {tr:.3f} | {t:.4f} | {tr / t:.1f} | {c - e.value:.1e} "
                  f"| {se / e.std_error:.6f} |")
    print("(survival's variance is the infinitesimal jackknife: without DeLong's n_c / (n_c - 1) and, over "
          "clusters, without Obuchowski's I_c / (I_c - 1), I / (I - 1); hence the ratio of standard errors "
          "slightly below 1. Its time includes the model frame; timed inside R with system.time, "
          "start-up and reading excluded.)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
