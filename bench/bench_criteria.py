"""Criteria speed and memory: rankwise against its anchors, side by side, in one run.

Times at each n (10% positives, a continuous score, seeded):

* ``np.sort`` of the scores: the floor for any exact sort-based method;
* ``rankwise.auc`` and ``rankwise.evaluate`` with its six default criteria;
* ``sklearn.metrics.roc_auc_score``;
* R pROC ``auc(roc(y, s, levels=c(0, 1), direction="<"))`` via ``Rscript`` when R and
  pROC are installed (timed inside R with ``system.time``, excluding R's start-up and
  the reading of the data).

Peak memory is measured with ``tracemalloc`` (numpy reports its buffers to it) and
given as a multiple of the input arrays (float64 scores + bool labels).
BLAS threads are pinned to 1 with threadpoolctl (sorting does not use BLAS; the pin
keeps runs comparable). Best of ``--repeat`` runs.

Usage::

    python bench/bench_criteria.py                      # n = 1e5, 1e6, 1e7
    python bench/bench_criteria.py --n 1e5 1e6 1e7 1e8  # add 1e8 (about 20 GiB peak with sklearn)
    python bench/bench_criteria.py --floor              # issue 16: criteria and inference at the sort's floor

``--floor`` (n = 1e6, 1e7 by default) times, on each data set (30% positives untied;
20% and 50% positives with heavy ties, scores rounded to 2 decimals), side by side:
``np.sort`` of all scores, ``np.sort`` of each class's scores (the floor of the class
sorts), ``rw.auc``, ``rw.evaluate`` (six criteria), ``rw.stats.estimate`` (DeLong) plus
its interval, ``rw.stats.compare`` of K = 10 scorers, scikit-learn, and pROC's
``ci.auc(roc(...), method="delong")`` at 1e6. It prints ``auc - class sorts`` (the time
beyond sorting, target at most 0.05 s at 1e7) and every ratio to one ``auc``. ``--engine
numpy`` times rankwise's numpy engine (the reference) instead of the compiled one.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import tracemalloc

import numpy as np

import rankwise as rw

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _timing import best_time, run_r  # noqa: E402




def peak_ratio(f, input_bytes: int) -> float:
    tracemalloc.start()
    try:
        f()
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    return peak / input_bytes


def _r_timing(expr: str) -> str:
    """An R script that reads (n, data file, repeats) and prints ``expr``'s value (its
    first element) and its best elapsed time over the repeats."""
    return r"""
suppressPackageStartupMessages(library(pROC))
args <- commandArgs(trailingOnly = TRUE)
n <- as.integer(args[1]); rep <- as.integer(args[3])
con <- file(args[2], "rb"); s <- readBin(con, "double", n); y <- readBin(con, "integer", n, size = 1); close(con)
best <- Inf; val <- NA
for (i in seq_len(rep)) {
  t <- system.time(val <- as.numeric(EXPR)[1])[["elapsed"]]
  best <- min(best, t)
}
cat(sprintf("%.17g %.6f\n", val, best))
""".replace("EXPR", expr)


R_SCRIPT = _r_timing('auc(roc(y, s, levels = c(0, 1), direction = "<", quiet = TRUE))')
#: pROC's DeLong interval: the value printed is its lower end.
R_DELONG = _r_timing('ci.auc(roc(y, s, levels = c(0, 1), direction = "<", quiet = TRUE), method = "delong")')


def proc_time(y: np.ndarray, s: np.ndarray, repeat: int):
    out = run_r(R_SCRIPT, [s.astype("<f8"), y.astype(np.int8)], s.size, repeat)
    if out is None:
        return None
    val, t = out
    return float(val), float(t)


def floor_rows(ns, with_r: bool, K: int = 10, rounds: int | None = None) -> list:
    """Issue 16's figures: every rankwise operation beside the sorts, in one run.

    The operations are timed in interleaved rounds (each round times each once; the best
    of the rounds is kept), so that a change in the machine's load during the run
    touches the anchors and rankwise alike."""
    from sklearn.metrics import roc_auc_score

    rows = []
    for n in ns:
        for label, frac, decimals in (("untied, 30% pos", 0.3, None), ("ties (2 decimals), 20% pos", 0.2, 2),
                                      ("ties (2 decimals), 50% pos", 0.5, 2)):
            rng = np.random.default_rng(0)
            y = rng.random(n) < frac
            s = rng.standard_normal(n) + 0.8 * y
            if decimals is not None:
                s = np.round(s, decimals)
            pos, neg = s[y], s[~y]
            rw.auc(y, s)  # load (or compile) the engine before any timing
            ops = {
                "np.sort": lambda: np.sort(s),
                "class sorts": lambda: (np.sort(pos), np.sort(neg)),
                "auc": lambda: rw.auc(y, s),
                "evaluate(6)": lambda: rw.evaluate(y, s),
                "estimate+CI": lambda: rw.stats.estimate(y, s).confidence_interval(),
            }
            r = {"n": n, "data": label}
            for _ in range(rounds or (7 if n <= 10**6 else 4)):
                for k, f in ops.items():
                    r[k] = min(r.get(k, float("inf")), best_time(f, 1))
            del pos, neg
            r["sklearn"] = best_time(lambda: roc_auc_score(y, s), 1 if n > 10**6 else 3)
            if decimals is None:
                sc = [s + rng.normal(size=n) * 0.5 * j for j in range(K)]
                r[f"compare(K={K})"] = best_time(lambda: rw.stats.compare(y, sc), 1 if n > 10**6 else 2)
                r["auc after compare"] = best_time(lambda: rw.auc(y, s), 3)
                del sc
                if with_r and n <= 10**6:
                    out = run_r(R_DELONG, [s.astype("<f8"), y.astype(np.int8)], n, 2)
                    if out is not None:
                        lo = rw.stats.estimate(y, s).confidence_interval().low
                        assert abs(float(out[0]) - lo) <= 1e-9, (out[0], lo)
                        r["pROC ci.auc(delong)"] = float(out[1])
            rows.append(r)
            print(json.dumps(r), file=sys.stderr)
    return rows


def print_floor(rows, K: int = 10) -> None:
    print("| n | data | np.sort (s) | class sorts (s) | auc (s) | auc - class sorts (s) | auc / sort "
          f"| evaluate(6) / auc | estimate+CI / auc | compare(K={K}) / auc | sklearn / auc "
          "| pROC ci.auc(delong) (s) | pROC / estimate+CI |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        def q(k, base="auc"):
            if k.startswith("compare"):  # beside the auc timed right after it
                base = "auc after compare"
            return f"{r[k] / r[base]:.2f}" if k in r else "-"
        pr = f"{r['pROC ci.auc(delong)']:.3f}" if "pROC ci.auc(delong)" in r else "-"
        print(f"| {r['n']:.0e} | {r['data']} | {r['np.sort']:.4f} | {r['class sorts']:.4f} | {r['auc']:.4f} "
              f"| {r['auc'] - r['class sorts']:.4f} | {q('auc', 'np.sort')} | {q('evaluate(6)')} "
              f"| {q('estimate+CI')} | {q(f'compare(K={K})')} | {q('sklearn')} | {pr} "
              f"| {q('pROC ci.auc(delong)', 'estimate+CI')} |")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--floor", action="store_true", help="issue 16's table (see the module docstring)")
    ap.add_argument("--engine", choices=["numba", "numpy"], help="with --floor: rankwise's engine")
    ap.add_argument("--no-r", action="store_true", help="skip pROC even when R is installed")
    ap.add_argument("--n", nargs="+", type=float, default=[1e5, 1e6, 1e7])
    ap.add_argument("--positives", type=float, default=0.1)
    ap.add_argument("--sklearn-max-n", type=float, default=1e8)
    ap.add_argument("--proc-max-n", type=float, default=1e7)
    ap.add_argument("--json", help="also write the results to this JSON file")
    args = ap.parse_args(argv)

    from sklearn.metrics import roc_auc_score
    from threadpoolctl import threadpool_info, threadpool_limits

    if args.floor:
        import contextlib

        ns = [int(x) for x in args.n] if "--n" in (argv or sys.argv) else [10**6, 10**7]
        try:
            from rankwise._kernels._merge import engine, use_engine
        except ImportError:  # a rankwise from before the engines (for the "before" column)
            engine, use_engine = (lambda: "numpy (argsort merge)"), None
        ctx = use_engine(args.engine) if args.engine and use_engine else contextlib.nullcontext()
        with threadpool_limits(limits=1), ctx:
            print(f"# rankwise engine: {engine()}; numpy {np.__version__}, python {platform.python_version()}, "
                  f"{os.cpu_count()} cores; BLAS threads 1; load average {os.getloadavg()[0]:.1f}")
            rows = floor_rows(ns, not args.no_r)
        print_floor(rows)
        if args.json:
            with open(args.json, "w") as fh:
                json.dump(rows, fh, indent=1)
        return 0

    rows = []
    with threadpool_limits(limits=1):
        blas = [f"{i['internal_api']} {i['version']} threads={i['num_threads']}" for i in threadpool_info()]
        print(f"# numpy {np.__version__}, python {platform.python_version()}, {os.cpu_count()} cores; "
              f"BLAS pinned: {'; '.join(blas)}")
        for nf in args.n:
            n = int(nf)
            rng = np.random.default_rng(0)
            y = rng.random(n) < args.positives
            s = rng.standard_normal(n) + 0.8 * y
            inp = s.nbytes + y.nbytes
            repeat = 5 if n <= 10**6 else 3 if n <= 10**7 else 1
            row = {"n": n, "repeat": repeat}
            row["np.sort"] = best_time(lambda: np.sort(s), repeat)
            a = rw.auc(y, s)
            row["rw.auc"] = best_time(lambda: rw.auc(y, s), repeat)
            row["rw.evaluate(6)"] = best_time(lambda: rw.evaluate(y, s), repeat)
            row["mem rw.auc"] = peak_ratio(lambda: rw.auc(y, s), inp)
            row["mem rw.evaluate"] = peak_ratio(lambda: rw.evaluate(y, s), inp)
            if n <= args.sklearn_max_n:
                ref = roc_auc_score(y, s)
                assert abs(ref - a) < 1e-9, (ref, a)
                row["sklearn"] = best_time(lambda: roc_auc_score(y, s), repeat)
                row["mem sklearn"] = peak_ratio(lambda: roc_auc_score(y, s), inp)
            if n <= args.proc_max_n:
                pr = proc_time(y, s, repeat)
                if pr is not None:
                    assert abs(pr[0] - a) < 1e-9, (pr[0], a)
                    row["pROC"] = pr[1]
            rows.append(row)
            print(json.dumps(row), file=sys.stderr)

    print()
    print("| n | np.sort (s) | rw.auc (s) | rw.evaluate, 6 criteria (s) | sklearn roc_auc_score (s) | pROC auc (s) "
          "| auc / sort | evaluate / auc | sklearn / auc | pROC / auc | peak mem auc / evaluate / sklearn (x input) |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        def f(k):
            return f"{r[k]:.4f}" if k in r else "-"

        def ratio(a, b):
            return f"{r[a] / r[b]:.2f}" if a in r and b in r else "-"

        mem = f"{r['mem rw.auc']:.2f} / {r['mem rw.evaluate']:.2f} / " + (
            f"{r['mem sklearn']:.2f}" if "mem sklearn" in r else "-")
        print(f"| {r['n']:.0e} | {f('np.sort')} | {f('rw.auc')} | {f('rw.evaluate(6)')} | {f('sklearn')} | {f('pROC')} "
              f"| {ratio('rw.auc', 'np.sort')} | {ratio('rw.evaluate(6)', 'rw.auc')} | {ratio('sklearn', 'rw.auc')} "
              f"| {ratio('pROC', 'rw.auc')} | {mem} |")
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(rows, fh, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
