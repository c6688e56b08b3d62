"""The censored concordance kernel (``rankwise._kernels.concordance_counts``: Harrell's and
Uno's pair counts with every row's derivatives) by itself, on both engines, in the cases
its callers use: unweighted, integer and fractional weights, 10 strata, case weights
(Uno's ``1 / G^2``-like factors) with the tie rule off. Beside it, ``rw.stats.estimate``
(binary AUC with DeLong's standard error) on as many rows, the reference of issue 30's
speed target.

Data as bench/bench_survival.py (exponential event and censoring times, about 30%
censored, risk = signal + N(0, 1); tied: times rounded up to quarters, risks to 1
decimal); seed 0. BLAS pinned to one thread; every call made once before the timings
(numba loaded and compiled); best of ``--repeat`` (numpy twin at 10^6: one round). The
engines are checked against each other on every case (exit 1 on a disagreement beyond
1e-12 relative to the largest value).

The compiled engine is timed on one thread (the table) and on two (its sorts side by side,
its sweep split in two; the lines after the table); the two routes are checked against
each other too.

    python bench/bench_censored_kernel.py            # n = 1e5 and 1e6
    python bench/bench_censored_kernel.py --quick    # n = 2e4, one round
"""

from __future__ import annotations

import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _timing import best_time as best  # noqa: E402
from bench_survival import make  # noqa: E402


def cases(n: int, tied: bool):
    t, e, r = make(n, tied)
    rng = np.random.default_rng(1)
    a = 1.0 / rng.uniform(0.3, 1.0, n) ** 2
    yield "unweighted", (t, e, r), {}
    yield "integer weights", (t, e, r, rng.integers(1, 5, n).astype(float)), {}
    yield "fractional weights", (t, e, r, rng.uniform(0.1, 2.0, n)), {}
    yield "10 strata", (t, e, r, None, rng.integers(0, 10, n)), {}
    yield "case weights, tie rule off", (t, e, r), dict(case_weight=a, tied_event_censored=False)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args(argv)
    from importlib.util import find_spec

    if find_spec("numba") is None:
        print("numba is not installed (pip install 'rankwise[fast]'): no compiled engine to time.")
        return 0
    from threadpoolctl import threadpool_limits

    threadpool_limits(1)
    import rankwise as rw
    from rankwise._kernels import concordance_counts
    from rankwise._kernels._merge import use_engine

    sizes = [20_000] if args.quick else [100_000, 1_000_000]
    repeat = 1 if args.quick else args.repeat
    ok = True
    from rankwise._kernels import _censored

    print("| n | data | case | numba (s) | numpy (s) | numpy / numba | numba / estimate(AUC) |")
    print("|---|---|---|---:|---:|---:|---:|")
    two = []
    for n in sizes:
        for tied in (False, True):
            label = "tied" if tied else "float"
            t, e, r = make(n, tied)
            rw.stats.estimate(e, r)
            base = best(lambda: rw.stats.estimate(e, r), repeat)
            for name, pos, kw in cases(n, tied):
                saved = _censored.THREADS, _censored.THREADED_FROM
                with use_engine("numba"):
                    try:
                        _censored.THREADS, _censored.THREADED_FROM = 2, 0
                        got2 = concordance_counts(*pos, **kw)
                        t_nb2 = best(lambda: concordance_counts(*pos, **kw), repeat)
                        _censored.THREADS = 1
                        got = concordance_counts(*pos, **kw)
                        t_nb = best(lambda: concordance_counts(*pos, **kw), repeat)
                    finally:
                        _censored.THREADS, _censored.THREADED_FROM = saved
                with use_engine("numpy"):
                    want = concordance_counts(*pos, **kw)
                    t_np = best(lambda: concordance_counts(*pos, **kw), 1 if n >= 1_000_000 else repeat)
                for g, h in zip((*got, *got2), (*want, *want)):
                    scale = float(np.max(np.abs(h))) or 1.0
                    if float(np.max(np.abs(np.asarray(g) - np.asarray(h)))) > 1e-12 * scale:
                        print(f"FAILED: n = {n}, {label}, {name}: the engines disagree")
                        ok = False
                print(f"| {n:.0e} | {label} | {name} | {t_nb:.4f} | {t_np:.3f} | {t_np / t_nb:.1f} | "
                      f"{t_nb / base:.2f} |")
                two.append(f"n = {n:.0e}, {label}, {name}: {t_nb2:.4f} s on two threads ({t_nb2 / t_nb:.2f} x one "
                           f"thread, {t_nb2 / base:.2f} x estimate(AUC))")
            print(f"| {n:.0e} | {label} | rw.stats.estimate (AUC), for scale | {base:.4f} | | | 1.00 |")
    print()
    for line in two:
        print("numba, two threads:", line)
    print("engine agreement:", "all passed" if ok else "FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
