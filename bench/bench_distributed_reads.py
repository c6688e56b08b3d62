"""How many times ``rankwise.distributed.compare`` reads a Parquet directory, and its time
(issue 16, item 4: "Dask compare reads the data once"; it read it 1 + K times).

Writes (seeded, not timed) ``--files`` Parquet files of ``--n`` rows in all: a 0/1 label,
K score columns (binormal, all distinct) and an ``id`` column the call does not read.
Then runs ``rwd.compare(folder, [s0, ..., s{K-1}], "auc", label="label")`` on dask's
threaded scheduler in this process, counting the per-partition loads (the wrapper of
``rankwise.distributed._partition._load_frame``, where a partition's columns are read),
best of ``--repeat``, against ``rw.stats.compare`` on the arrays read once with pyarrow
(the single-machine anchor, its read timed apart). Run it with ``PYTHONPATH`` at another
checkout to measure that code ("before").

    python bench/bench_distributed_reads.py                # n = 2e6, K = 4, 4 files
    python bench/bench_distributed_reads.py --n 1e6 --k 8
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time

import numpy as np


def write(folder: str, n: int, k: int, files: int, seed: int = 0) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    rng = np.random.default_rng(seed)
    per = -(-n // files)
    for f in range(files):
        m = min(per, n - f * per)
        y = (rng.random(m) < 0.3).astype(np.int8)
        cols = {"id": np.arange(f * per, f * per + m), "label": y}
        for j in range(k):
            cols[f"s{j}"] = rng.normal(size=m) + (0.2 + 0.1 * j) * y
        pq.write_table(pa.table(cols), os.path.join(folder, f"part{f:03d}.parquet"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=lambda t: int(float(t)), default=2 * 10**6)
    parser.add_argument("--k", type=int, default=4, help="scorers (default 4)")
    parser.add_argument("--files", type=int, default=4)
    parser.add_argument("--repeat", type=int, default=2)
    args = parser.parse_args(argv)

    import dask
    import pyarrow.parquet as pq
    from threadpoolctl import threadpool_limits

    import rankwise as rw
    import rankwise.distributed as rwd
    from rankwise.distributed import _partition

    folder = tempfile.mkdtemp(prefix="rankwise-bench-reads-")
    try:
        write(folder, args.n, args.k, args.files)
        names = [f"s{j}" for j in range(args.k)]
        loads: list = []
        original = _partition._load_frame

        def counting(part, *a):
            loads.append(len(part))
            return original(part, *a)

        _partition._load_frame = counting
        best, got = float("inf"), None
        with threadpool_limits(1), dask.config.set(scheduler="threads"):
            for _ in range(args.repeat):
                loads.clear()
                t0 = time.perf_counter()
                got = rwd.compare(folder, names, "auc", label="label")
                best = min(best, time.perf_counter() - t0)
            t0 = time.perf_counter()
            table = pq.read_table(folder, columns=["label", *names])
            y = table.column("label").to_numpy()
            scores = {c: table.column(c).to_numpy() for c in names}
            t_read = time.perf_counter() - t0
            t0 = time.perf_counter()
            want = rw.stats.compare(y, scores, "auc")
            t_single = time.perf_counter() - t0
        rel = float(np.max(np.abs(got.cov - want.cov)) / np.max(np.abs(want.cov)))
        print(f"rankwise from {rw.__file__}")
        print(f"n = {args.n:,} rows, K = {args.k} scorers, {args.files} Parquet files; dask threaded scheduler, "
              f"BLAS 1 thread\n")
        print("| run | time (s) | partition loads | reads of the data |")
        print("|---|---:|---:|---:|")
        print(f"| rwd.compare (best of {args.repeat}) | {best:.2f} | {len(loads)} | {len(loads) / args.files:g} |")
        print(f"| pyarrow read_table + rw.stats.compare (anchor) | {t_read + t_single:.2f} (read {t_read:.2f}) "
              f"| {args.files} | 1 |")
        print(f"\nvalues max |diff| {np.max(np.abs(got.values - want.values)):.1e}, covariance max rel. diff {rel:.1e}")
        return 0
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
