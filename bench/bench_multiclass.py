"""Several classes: ``rw.multiclass_auc`` (one-vs-rest macro, one-vs-one macro, the micro
average) against scikit-learn's ``roc_auc_score`` on the same arrays, ``rw.vus`` (three
ordered classes) against three ``rw.auc`` calls and a numpy sort of its score, and, when
rankwise has them, ``rw.stats.estimate(criterion="multiclass_auc" | "vus")`` with its
standard error against the point value, in one run.

Data: K classes drawn uniformly, logits N(0, 1) plus 1 on the row's class, probabilities
their softmax (floats, no ties), seed 0; the VUS reads the expected class ``sum_k k p_k``
of the K = 3 probabilities, labels 0 < 1 < 2. BLAS pinned to one thread; every call made
once before the timings (numba loaded and the kernels compiled); each rankwise call and its anchor
timed in alternation, best of ``--repeat`` rounds. rankwise's values are checked against
scikit-learn's (relative 1e-12) and the estimates' values against the point values (exit 1
on a disagreement).

    python bench/bench_multiclass.py            # n = 1e5 and 1e6, K = 3 and 5
    python bench/bench_multiclass.py --n 10000  # other sizes
    python bench/bench_multiclass.py --quick    # n = 2e4, one round: the test suite's run
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
import warnings

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_clusters import cpu_line  # noqa: E402

#: The multiclass AUC calls of the table: (label, multi_class, average).
CALLS = [("OvR macro", "ovr", "macro"), ("OvO macro", "ovo", "macro"), ("micro", "ovr", "micro")]


def make(n: int, K: int, seed: int = 0):
    """Labels 0..K-1 and an (n, K) matrix of softmax probabilities (rows summing to 1)."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, K, n)
    Z = rng.normal(size=(n, K))
    Z[np.arange(n), y] += 1.0
    Z -= Z.max(axis=1, keepdims=True)
    S = np.exp(Z)
    S /= S.sum(axis=1, keepdims=True)
    return y, S


def vus_score(S: np.ndarray) -> np.ndarray:
    """The expected class under the probabilities: one score for ordered classes."""
    return S @ np.arange(S.shape[1], dtype=np.float64)


def alternate(calls: list, repeat: int) -> list[float]:
    """Best wall time of each call over ``repeat`` rounds, the calls alternating."""
    best = [float("inf")] * len(calls)
    for _ in range(repeat):
        for i, f in enumerate(calls):
            t0 = time.perf_counter()
            f()
            best[i] = min(best[i], time.perf_counter() - t0)
    return best


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--n", type=int, nargs="+", default=[100_000, 1_000_000], help="sample sizes")
    ap.add_argument("--k", type=int, nargs="+", default=[3, 5], help="numbers of classes")
    args = ap.parse_args(argv)
    from threadpoolctl import threadpool_limits

    threadpool_limits(1)
    import sklearn
    from sklearn.metrics import roc_auc_score

    import rankwise as rw
    from rankwise._kernels._merge import engine

    sizes = [20_000] if args.quick else args.n
    repeat = 1 if args.quick else args.repeat
    has_se = hasattr(rw.stats, "MulticlassEstimate")
    load0 = os.getloadavg()[0]
    ok, checks = True, []
    point_rows, vus_rows, se_rows = [], [], []

    try:  # the compiled engine loaded now, not by the first large sample inside a timing
        from rankwise._kernels._merge import _compiled

        _compiled(None)
    except ImportError:  # pragma: no cover - a rankwise without engines
        pass
    y0, S0 = make(3000, 3)  # every call compiled (or read from numba's cache) before any timing
    for _, mc, av in CALLS:
        rw.multiclass_auc(y0, S0, multi_class=mc, average=av)
        if has_se:
            rw.stats.estimate(y0, S0, criterion="multiclass_auc", multi_class=mc, average=av)
    rw.vus(y0, vus_score(S0), labels=[0, 1, 2])
    rw.auc(y0 == 0, S0[:, 0])
    if has_se:
        rw.stats.estimate(y0, vus_score(S0), criterion="vus", labels=[0, 1, 2])

    for n in sizes:
        for K in args.k:
            y, S = make(n, K)
            for label, mc, av in CALLS:
                mine = rw.multiclass_auc(y, S, multi_class=mc, average=av)
                theirs = roc_auc_score(y, S, multi_class=mc, average=av)
                t_rw, t_sk = alternate([lambda: rw.multiclass_auc(y, S, multi_class=mc, average=av),
                                        lambda: roc_auc_score(y, S, multi_class=mc, average=av)], repeat)
                d = abs(mine - theirs) / abs(theirs)
                point_rows.append((n, K, label, t_rw, t_sk, mine, d))
                if d > 1e-12:
                    checks.append(f"FAILED: n = {n:.0e}, K = {K}, {label}: rankwise {mine!r} != "
                                  f"scikit-learn {theirs!r}")
                    ok = False
                if has_se:
                    e = rw.stats.estimate(y, S, criterion="multiclass_auc", multi_class=mc, average=av)
                    (t_se,) = alternate([lambda: rw.stats.estimate(y, S, criterion="multiclass_auc", multi_class=mc,
                                                                   average=av)], repeat)
                    se_rows.append((n, K, f"multiclass_auc, {label}", t_se, t_rw, e.value, e.std_error))
                    if abs(e.value - mine) > 1e-12:
                        checks.append(f"FAILED: n = {n:.0e}, K = {K}, {label}: estimate {e.value!r} != {mine!r}")
                        ok = False
            if K != 3:
                continue
            s = vus_score(S)
            v = rw.vus(y, s, labels=[0, 1, 2])
            t_vus, t_auc3, t_sort = alternate([lambda: rw.vus(y, s, labels=[0, 1, 2]),
                                               lambda: [rw.auc(y == c, s) for c in range(3)],
                                               lambda: np.sort(s)], repeat)
            vus_rows.append((n, t_vus, t_auc3, t_sort, v))
            if has_se:
                e = rw.stats.estimate(y, s, criterion="vus", labels=[0, 1, 2])
                (t_se,) = alternate([lambda: rw.stats.estimate(y, s, criterion="vus", labels=[0, 1, 2])], repeat)
                se_rows.append((n, 3, "vus", t_se, t_vus, e.value, e.std_error))
                if abs(e.value - v) > 1e-12:
                    checks.append(f"FAILED: n = {n:.0e}, VUS: estimate {e.value!r} != {v!r}")
                    ok = False

    try:
        import numba

        nb_version = f"numba {numba.__version__}"
    except ImportError:
        nb_version = "numba not installed"
    print(f"# {cpu_line()}")
    print(f"# rankwise {rw.__version__} (engine: {engine()}); numpy {np.__version__}; {nb_version}; "
          f"scikit-learn {sklearn.__version__}; python {platform.python_version()}; BLAS threads 1; "
          f"best of {repeat} alternating rounds; load average {load0:.1f} at start, {os.getloadavg()[0]:.1f} at end")
    print()
    print("| n | K | average | rw.multiclass_auc (s) | sklearn roc_auc_score (s) | speed-up | value "
          "| rel. difference |")
    print("|---|---|---|---:|---:|---:|---:|---:|")
    for n, K, label, t_rw, t_sk, v, d in point_rows:
        print(f"| {n:.0e} | {K} | {label} | {t_rw:.4f} | {t_sk:.4f} | {t_sk / t_rw:.1f}x | {v:.6f} | {d:.1e} |")
    if vus_rows:
        print()
        print("| n | rw.vus (s) | 3 x rw.auc (s) | vus / 3 auc | np.sort(score) (s) | vus / sort | value |")
        print("|---|---:|---:|---:|---:|---:|---:|")
        for n, t_vus, t_auc3, t_sort, v in vus_rows:
            print(f"| {n:.0e} | {t_vus:.4f} | {t_auc3:.4f} | {t_vus / t_auc3:.2f} | {t_sort:.4f} | "
                  f"{t_vus / t_sort:.2f} | {v:.6f} |")
    if se_rows:
        print()
        print("| n | K | rw.stats.estimate | time (s) | / point value | value | std. error |")
        print("|---|---|---|---:|---:|---:|---:|")
        for n, K, label, t_se, t_point, v, se in se_rows:
            print(f"| {n:.0e} | {K} | {label} | {t_se:.4f} | {t_se / t_point:.2f} | {v:.6f} | {se:.6f} |")
    else:
        print()
        print("(rw.stats.MulticlassEstimate not in this rankwise: no standard errors timed)")
    print()
    for line in checks:
        print("check:", line)
    print("agreement checks:", "all passed" if ok else "FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        raise SystemExit(main())
