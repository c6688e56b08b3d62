"""The criteria with their standard errors on a large sample: ``rw.stats.iter_estimates``
of the command line's five default criteria, jointly and one at a time, against one
``rw.auc`` in the same run (issue 16: what ``rankwise evaluate``'s intervals cost); then
``rw.stats.compare`` of three scorers (the score and two noisier ones, seeded) under each
criterion (what ``rankwise compare`` costs).

Data: n rows, 30% positives, score N(0, 1) + label (untied), seed 0; above 2^18 rows the
estimates take the range path (the sample read range by range). BLAS pinned to one
thread; best of ``--repeat``. The script imports whichever ``rankwise`` is first on the
path, so ``cd /tmp && PYTHONPATH=<other checkout> python <this file>`` times another
commit with the same script.

    python bench/bench_estimates.py             # n = 10^7
    python bench/bench_estimates.py --quick     # n = 2e4 (the test suite)
"""

from __future__ import annotations

import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _timing import best_time as best  # noqa: E402

CRITERIA = ["auc", "partial_auc:max_fpr=0.1", "local_auc:top=0.1", "pnorm_push:p=4", "dcg:k=100"]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=10**7)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args(argv)
    n, repeat = (20_000, 1) if args.quick else (args.n, args.repeat)
    from threadpoolctl import threadpool_limits

    import rankwise as rw

    rng = np.random.default_rng(0)
    y = (rng.random(n) < 0.3).astype(np.int8)
    s = rng.normal(size=n) + y
    with threadpool_limits(1):
        rw.auc(y, s)  # compile / load caches outside the timings
        t_auc = best(lambda: rw.auc(y, s), repeat)
        rows = [("all five, one sort", best(lambda: list(rw.stats.iter_estimates(y, s, CRITERIA)), repeat))]
        for c in CRITERIA:
            rows.append((c, best(lambda: list(rw.stats.iter_estimates(y, s, [c])), repeat)))
        est = list(rw.stats.iter_estimates(y, s, CRITERIA))
        others = [0.6 * s + rng.normal(size=n), rng.normal(size=n) + 0.5 * y]
        comp = [(c, best(lambda: rw.stats.compare(y, [s, *others], criterion=c), repeat)) for c in CRITERIA]
    print(f"# rankwise {rw.__version__} from {rw.__file__}; n = {n:,}; one rw.auc {t_auc:.3f} s")
    print("| estimates | seconds | / one auc |")
    print("|---|---:|---:|")
    for name, t in rows:
        print(f"| {name} | {t:.4g} | {t / t_auc:.1f} |")
    print("values and standard errors: " + "; ".join(f"{e.criterion} {e.value:.6g} ({e.std_error:.3g})" for e in est))
    print()
    print("| compare, K = 3 | seconds | / one auc |")
    print("|---|---:|---:|")
    for name, t in comp:
        print(f"| {name} | {t:.4g} | {t / t_auc:.1f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
