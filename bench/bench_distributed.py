"""rankwise on a Dask local cluster against single-machine rankwise and PySpark (issue 8).

Data (seeded, written once and reused): binormal scores, 30% positives,
``s = N(0, 1) + 1.0 * y`` rounded to 6 decimals (so there are ties), as a Parquet
directory of files of ``--rows-per-file`` rows (columns ``y`` int8, ``s`` float64), under
``--data-dir`` with a ``_manifest.json`` (ignored by the Parquet readers) of n, seed and layout. For each ``--n``:

* ``single-machine rankwise``: ``pyarrow.parquet.read_table`` of the two columns into
  numpy (read time reported separately), then ``rw.evaluate(y, s, CRITERIA)``;
* ``rankwise.distributed``: ``rwd.evaluate(path, CRITERIA, label="y", score="s")`` on a
  fresh ``rwd.local_cluster(n_workers=2, threads_per_worker=1, memory_limit="2GiB")``
  (the same 2 cores; cluster start-up and a warm-up call reported separately, not timed),
  reading the Parquet files itself. The peak resident memory of each worker process is
  polled every 0.5 s (``client.run``), and worker restarts / deaths are detected by
  comparing the workers' addresses and process ids before and after the call;
* ``PySpark exact AUC``: ``BinaryClassificationEvaluator(numBins=0)`` (exact: no
  down-sampling of the curve) in ``local[2]`` mode on the same Parquet directory, ``y``
  cast to a double ``label``; its time includes reading the Parquet files (the JVM
  start-up is reported separately). Spark computes the AUC only.

Then BBR: ``rw.BBRRanker()`` on ``--bbr-n`` x ``--bbr-d`` synthetic features stored as
Parquet (``x0..x{d-1}`` in ``--bbr-dtype``, label ``y``), fitted with
``rankwise.distributed.fit_bbr`` on the 2-worker local cluster, against
single-machine ``BBRRanker().fit`` on the arrays read with pyarrow (read time separate).

Every run prints the max |difference| between the distributed and single-machine results
(and Spark's AUC against rankwise's). BLAS threads are pinned to 1 (threadpoolctl) in
the driver; Dask's nanny sets ``OMP/MKL/OPENBLAS_NUM_THREADS=1`` in the workers.

    python bench/bench_distributed.py                    # n = 1e7, 1e8; BBR 1e7 x 50; Spark
    python bench/bench_distributed.py --n 1e7 --no-bbr
    python bench/bench_distributed.py --quick            # n = 2e5, BBR 1e5 x 5, no Spark
    python bench/bench_distributed.py --quick --spark    # ... with Spark
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import sys
import tempfile
import threading
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:  # run as a script from anywhere: import the checkout's rankwise
    sys.path.insert(0, ROOT)

CRITERIA = ["auc", "local_auc:top=0.1", "pnorm_push:p=4", "dcg:k=100", "partial_auc:max_fpr=0.1"]
SEED = 0
POS_RATE = 0.3
SHIFT = 1.0
DEFAULT_DATA_DIR = os.path.join(tempfile.gettempdir(), "rankwise-bench-distributed")


# ------------------------------------------------------------------------------------------
# Data
# ------------------------------------------------------------------------------------------

def _manifest_ok(folder: str, manifest: dict) -> bool:
    try:
        with open(os.path.join(folder, "_manifest.json")) as fh:
            return json.load(fh) == manifest
    except (OSError, ValueError):
        return False


def _write_dataset(folder: str, manifest: dict, n: int, rows_per_file: int, make_table) -> tuple[float, bool]:
    """Write ``make_table(index, rows)`` files into ``folder`` unless its manifest matches.
    Returns (seconds, reused)."""
    import pyarrow.parquet as pq

    if _manifest_ok(folder, manifest):
        return 0.0, True
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    t0 = time.perf_counter()
    for i, start in enumerate(range(0, n, rows_per_file)):
        rows = min(rows_per_file, n - start)
        pq.write_table(make_table(i, rows), os.path.join(folder, f"part-{i:05d}.parquet"))
    with open(os.path.join(folder, "_manifest.json"), "w") as fh:  # written last: marks it complete
        json.dump(manifest, fh)
    return time.perf_counter() - t0, False


def scores_dataset(data_dir: str, n: int, seed: int, rows_per_file: int) -> tuple[str, float, bool]:
    """Parquet directory of n binormal scores (columns y int8, s float64). Each file has its
    own seeded generator, so the data depend on (n, seed, rows_per_file) only."""
    import pyarrow as pa

    folder = os.path.join(data_dir, f"scores_n{n}_seed{seed}_rpf{rows_per_file}")
    manifest = {"kind": "scores", "n": n, "seed": seed, "rows_per_file": rows_per_file,
                "pos_rate": POS_RATE, "shift": SHIFT, "decimals": 6}

    def make(i, rows):
        rng = np.random.default_rng([seed, i])
        y = (rng.random(rows) < POS_RATE).astype(np.int8)
        s = np.round(rng.standard_normal(rows) + SHIFT * y, 6)
        return pa.table({"y": y, "s": s})

    secs, reused = _write_dataset(folder, manifest, n, rows_per_file, make)
    return folder, secs, reused


def features_dataset(data_dir: str, n: int, d: int, dtype: str, seed: int, rows_per_file: int):
    """Parquet directory of n x d features x0..x{d-1} (dtype) and label y (int8): 30%
    positives, feature j shifted by 0.5 / (1 + j) for the positives."""
    import pyarrow as pa

    folder = os.path.join(data_dir, f"features_n{n}_d{d}_{dtype}_seed{seed}_rpf{rows_per_file}")
    manifest = {"kind": "features", "n": n, "d": d, "dtype": dtype, "seed": seed, "rows_per_file": rows_per_file}
    shift = (0.5 / (1.0 + np.arange(d))).astype(dtype)

    def make(i, rows):
        rng = np.random.default_rng([seed, 1_000_003, i])
        y = (rng.random(rows) < POS_RATE).astype(np.int8)
        X = rng.standard_normal((rows, d), dtype=np.float32 if dtype == "float32" else np.float64)
        X += y[:, None].astype(X.dtype) * shift
        return pa.table({**{f"x{j}": X[:, j] for j in range(d)}, "y": y})

    secs, reused = _write_dataset(folder, manifest, n, rows_per_file, make)
    return folder, secs, reused


def dir_size(folder: str) -> int:
    return sum(os.path.getsize(os.path.join(folder, f)) for f in os.listdir(folder) if f.endswith(".parquet"))


# ------------------------------------------------------------------------------------------
# Worker memory
# ------------------------------------------------------------------------------------------

def _worker_rss():
    import os

    import psutil

    return os.getpid(), psutil.Process().memory_info().rss


class WorkerMemory:
    """Polls every worker's resident memory (``client.run``) in a background thread."""

    def __init__(self, client, interval: float = 0.5):
        self.client = client
        self.interval = interval
        self.peak: dict[str, int] = {}
        self.pids: dict[str, set] = {}
        self.errors = 0
        self.samples = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, daemon=True)

    def _poll(self):
        try:
            res = self.client.run(_worker_rss)
        except Exception:  # noqa: BLE001 - a worker leaving mid-call: counted, not fatal
            self.errors += 1
            return
        self.samples += 1
        for addr, (pid, rss) in res.items():
            self.peak[addr] = max(self.peak.get(addr, 0), rss)
            self.pids.setdefault(addr, set()).add(pid)

    def _loop(self):
        while not self._stop.is_set():
            self._poll()
            self._stop.wait(self.interval)

    def __enter__(self):
        self._poll()
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join()
        self._poll()


def worker_pids(client) -> dict[str, int]:
    return {addr: pid for addr, (pid, _) in client.run(_worker_rss).items()}


def spilled_bytes(client) -> int:
    total = 0
    for info in client.scheduler_info().get("workers", {}).values():
        total += int(info.get("metrics", {}).get("spilled_bytes", {}).get("disk", 0) or 0)
    return total


# ------------------------------------------------------------------------------------------
# The runs
# ------------------------------------------------------------------------------------------

def read_scores(path: str):
    import pyarrow.parquet as pq

    t = pq.read_table(path, columns=["y", "s"])
    y = t.column("y").to_numpy()
    s = t.column("s").to_numpy()
    return y, s


def run_single(path: str) -> dict:
    import rankwise as rw

    t0 = time.perf_counter()
    y, s = read_scores(path)
    t1 = time.perf_counter()
    values = rw.evaluate(y, s, CRITERIA)
    t2 = time.perf_counter()
    return {"read": t1 - t0, "compute": t2 - t1, "values": values, "n_pos": int(y.sum())}


def run_distributed(path: str, n_workers: int, memory_limit: str, n_partitions, monitor: bool) -> dict:
    import rankwise.distributed as rwd

    out: dict = {"n_workers": n_workers, "memory_limit": memory_limit}
    t0 = time.perf_counter()
    with rwd.local_cluster(n_workers=n_workers, threads_per_worker=1, memory_limit=memory_limit) as client:
        out["start"] = time.perf_counter() - t0
        # Warm-up (workers import rankwise and dask.dataframe): not timed.
        rng = np.random.default_rng(1)
        t0 = time.perf_counter()
        rwd.evaluate(rng.random(1000) < 0.3, rng.random(1000), ["auc"], chunk_size=250)
        out["warmup"] = time.perf_counter() - t0
        before = worker_pids(client)
        mem = WorkerMemory(client) if monitor else None
        t0 = time.perf_counter()
        try:
            if mem is not None:
                with mem:
                    out["values"] = rwd.evaluate(path, criteria=CRITERIA, label="y", score="s",
                                                 n_partitions=n_partitions)
            else:
                out["values"] = rwd.evaluate(path, criteria=CRITERIA, label="y", score="s", n_partitions=n_partitions)
        except Exception as exc:  # noqa: BLE001 - reported, never hidden
            out["error"] = f"{type(exc).__name__}: {exc}"
        out["time"] = time.perf_counter() - t0
        try:
            after = worker_pids(client)
        except Exception as exc:  # noqa: BLE001
            after = {}
            out.setdefault("error", f"workers unreachable after the call: {exc}")
        out["spilled"] = spilled_bytes(client)
        restarted = sorted(set(before.items()) ^ set(after.items()))
        if mem is not None:
            out["peak"] = dict(mem.peak)
            out["samples"] = mem.samples
            out["poll_errors"] = mem.errors
            restarted += [a for a, p in mem.pids.items() if len(p) > 1]
        out["before"], out["after"] = before, after
        out["killed"] = bool(restarted) or len(after) != n_workers or "KilledWorker" in out.get("error", "")
    return out


def spark_session():
    os.environ["PYSPARK_PYTHON"] = sys.executable
    os.environ["PYSPARK_DRIVER_PYTHON"] = sys.executable
    os.environ["SPARK_LOCAL_IP"] = "127.0.0.1"
    from pyspark.sql import SparkSession

    t0 = time.perf_counter()
    spark = (SparkSession.builder.master("local[2]").appName("rankwise-bench-distributed")
             .config("spark.driver.bindAddress", "127.0.0.1")
             .config("spark.driver.host", "127.0.0.1")
             .config("spark.ui.enabled", "false")
             .config("spark.driver.memory", "8g")
             .config("spark.ui.showConsoleProgress", "false")
             .getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    return spark, time.perf_counter() - t0


def run_spark(spark, path: str) -> dict:
    from pyspark.ml.evaluation import BinaryClassificationEvaluator
    from pyspark.sql import functions as F

    ev = BinaryClassificationEvaluator(rawPredictionCol="s", labelCol="label", metricName="areaUnderROC", numBins=0)
    t0 = time.perf_counter()
    df = spark.read.parquet(path).select(F.col("s"), F.col("y").cast("double").alias("label"))
    value = ev.evaluate(df)
    return {"time": time.perf_counter() - t0, "auc": float(value)}


def fit_bbr_runs(path: str, d: int, n_workers: int, memory_limit: str, persist: bool) -> dict:
    import pyarrow.parquet as pq

    import rankwise as rw
    import rankwise.distributed as rwd
    from rankwise.distributed import fit_bbr

    cols = [f"x{j}" for j in range(d)]
    out: dict = {"persist": persist}
    t0 = time.perf_counter()
    t = pq.read_table(path, columns=cols + ["y"])
    X = np.empty((t.num_rows, d), dtype=t.schema.field("x0").type.to_pandas_dtype())
    for j, c in enumerate(cols):
        X[:, j] = t.column(c).to_numpy()
    y = t.column("y").to_numpy()
    del t
    out["read"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    single = rw.BBRRanker().fit(X, y)
    out["single"] = time.perf_counter() - t0
    out["X_bytes"] = X.nbytes
    del X, y
    t0 = time.perf_counter()
    with rwd.local_cluster(n_workers=n_workers, threads_per_worker=1, memory_limit=memory_limit) as client:
        out["start"] = time.perf_counter() - t0
        # Warm-up (workers import rankwise and the learners): not timed.
        rng = np.random.default_rng(1)
        t0 = time.perf_counter()
        fit_bbr(rw.BBRRanker(), rng.standard_normal((1000, 3)), rng.random(1000) < 0.3, client=client)
        out["warmup"] = time.perf_counter() - t0
        before = worker_pids(client)
        mem = WorkerMemory(client)
        t0 = time.perf_counter()
        try:
            with mem:
                dist = fit_bbr(rw.BBRRanker(), path, label="y", feature_columns=cols, client=client, persist=persist)
        except Exception as exc:  # noqa: BLE001 - reported
            dist = None
            out["error"] = f"{type(exc).__name__}: {exc}"
        out["dist"] = time.perf_counter() - t0
        after = worker_pids(client)
        out["peak"] = dict(mem.peak)
        out["killed"] = before != after or any(len(p) > 1 for p in mem.pids.values())
        out["spilled"] = spilled_bytes(client)
    if dist is not None:
        out["coef_diff"] = float(np.max(np.abs(dist.coef_ - single.coef_)))
        out["coef_rel"] = out["coef_diff"] / float(np.max(np.abs(single.coef_)))
        out["intercept_diff"] = float(abs(dist.intercept_ - single.intercept_))
    return out


# ------------------------------------------------------------------------------------------
# Output
# ------------------------------------------------------------------------------------------

def _gib(b: float) -> str:
    return f"{b / 2**30:.2f}"


def header(args, n_workers: int) -> None:
    import dask
    import distributed
    import pyarrow
    import sklearn

    import rankwise

    try:
        import pyspark
        spark_v = pyspark.__version__
    except ImportError:
        spark_v = "not installed"
    from threadpoolctl import threadpool_info

    blas = ", ".join(f"{i['internal_api']} {i.get('version')} threads={i['num_threads']}" for i in threadpool_info())
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    print(f"Python {platform.python_version()}, numpy {np.__version__}, scikit-learn {sklearn.__version__}, "
          f"pyarrow {pyarrow.__version__}, dask {dask.__version__}, distributed {distributed.__version__}, "
          f"pyspark {spark_v}, rankwise {getattr(rankwise, '__version__', '?')}")
    print(f"cores available: {cores} (os.cpu_count() = {os.cpu_count()}); driver BLAS: {blas or 'none'}")
    print(f"Dask: LocalCluster on 127.0.0.1, {n_workers} workers x 1 thread, memory_limit {args.memory_limit} "
          f"per worker (processes); n_partitions: {args.n_partitions or 'default'}")
    print(f"criteria (rankwise): {', '.join(CRITERIA)}; Spark: areaUnderROC only (numBins=0, exact)\n")


def print_table(n: int, info: dict, single: dict, dist: dict, spark: dict | None) -> None:
    total = single["read"] + single["compute"]
    print(f"### n = {n:.0e} ({n:,} rows, {info['files']} Parquet files, {info['bytes'] / 2**20:.0f} MiB on disk, "
          f"{single['n_pos']:,} positives)\n")
    print("| run | criteria | time (s) | time / single compute | time / single read + compute |")
    print("|---|---|---:|---:|---:|")
    print(f"| single-machine rankwise: read (pyarrow -> numpy) | | {single['read']:.2f} | | |")
    print(f"| single-machine rankwise: rw.evaluate | 5 | {single['compute']:.2f} | 1.00 | |")
    print(f"| single-machine rankwise: read + evaluate | 5 | {total:.2f} | {total / single['compute']:.2f} | 1.00 |")
    label = f"rankwise.distributed: rwd.evaluate(path), {dist['n_workers']} workers"
    if "error" in dist:
        print(f"| {label} | 5 | FAILED after {dist['time']:.2f} | | |")
    else:
        print(f"| {label} | 5 | {dist['time']:.2f} | {dist['time'] / single['compute']:.2f} | "
              f"{dist['time'] / total:.2f} |")
    if spark is not None:
        print(f"| PySpark exact AUC (numBins=0, local[2]), read + evaluate | AUC only | {spark['time']:.2f} | "
              f"{spark['time'] / single['compute']:.2f} | {spark['time'] / total:.2f} |")
    print()
    print(f"not timed: Dask cluster start {dist['start']:.2f} s, warm-up call {dist['warmup']:.2f} s"
          + (f"; Spark JVM start {spark['jvm']:.2f} s" if spark is not None else ""))
    if "error" in dist:
        print(f"distributed run FAILED: {dist['error']}")
    else:
        diff = max(abs(dist["values"][c] - single["values"][c]) for c in CRITERIA)
        print(f"distributed vs single-machine: max |difference| over the 5 criteria = {diff:.3g}")
    print("single-machine values: " + ", ".join(f"{c} = {single['values'][c]:.12g}" for c in CRITERIA))
    if spark is not None:
        print(f"Spark AUC {spark['auc']:.15g} vs rankwise {single['values']['auc']:.15g}: difference "
              f"{spark['auc'] - single['values']['auc']:.3g}")
    if "peak" in dist:
        peaks = ", ".join(f"{_gib(v)} GiB" for _, v in sorted(dist["peak"].items()))
        print(f"peak worker RSS (polled every 0.5 s, {dist['samples']} samples): {peaks}; memory_limit "
              f"{dist['memory_limit']} per worker; spilled to disk {dist['spilled'] / 2**20:.0f} MiB; "
              f"worker killed or restarted: {'YES' if dist['killed'] else 'no'}")
    print()


def print_bbr(n: int, d: int, dtype: str, info: dict, res: dict, n_workers: int, memory_limit: str) -> None:
    print(f"### BBRRanker, n = {n:.0e} x d = {d} ({dtype} on disk, {info['files']} Parquet files, "
          f"{info['bytes'] / 2**20:.0f} MiB; in memory {res['X_bytes'] / 2**20:.0f} MiB as {dtype})\n")
    print("| run | time (s) | time / single fit | time / single read + fit |")
    print("|---|---:|---:|---:|")
    total = res["read"] + res["single"]
    print(f"| single-machine: read (pyarrow -> numpy) | {res['read']:.2f} | | |")
    print(f"| single-machine: BBRRanker().fit(X, y) | {res['single']:.2f} | 1.00 | |")
    print(f"| single-machine: read + fit | {total:.2f} | {total / res['single']:.2f} | 1.00 |")
    label = f"distributed: fit_bbr(BBRRanker(), path), {n_workers} workers, persist={res['persist']}"
    if "error" in res:
        print(f"| {label} | FAILED after {res['dist']:.2f} | | |")
    else:
        print(f"| {label} | {res['dist']:.2f} | {res['dist'] / res['single']:.2f} | {res['dist'] / total:.2f} |")
    print()
    print(f"not timed: Dask cluster start {res['start']:.2f} s, warm-up fit {res['warmup']:.2f} s")
    if "error" in res:
        print(f"distributed BBR FAILED: {res['error']}")
    else:
        print(f"BBR coef: max |difference| = {res['coef_diff']:.3g} (relative to max |coef|: {res['coef_rel']:.3g}); "
              f"intercept |difference| = {res['intercept_diff']:.3g}")
    peaks = ", ".join(f"{_gib(v)} GiB" for _, v in sorted(res["peak"].items()))
    print(f"peak worker RSS: {peaks}; memory_limit {memory_limit} per worker; spilled to disk "
          f"{res['spilled'] / 2**20:.0f} MiB; worker killed or restarted: {'YES' if res['killed'] else 'no'}\n")


def _parse_n(text: str) -> int:
    return int(float(text))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=_parse_n, nargs="+", default=[10**7, 10**8], help="sizes (default 1e7 1e8)")
    parser.add_argument("--quick", action="store_true", help="n = 2e5, BBR 1e5 x 5, no Spark unless --spark")
    parser.add_argument("--data-dir", default=DEFAULT_DATA_DIR, help=f"Parquet data folder (default {DEFAULT_DATA_DIR})")
    parser.add_argument("--rows-per-file", type=_parse_n, default=10**6, help="rows per Parquet file (default 1e6)")
    parser.add_argument("--workers", type=int, default=2, help="Dask workers (default 2, 1 thread each)")
    parser.add_argument("--memory-limit", default="2GiB", help="per worker (default 2GiB)")
    parser.add_argument("--n-partitions", type=int, default=None, help="rwd.evaluate n_partitions (default: its own)")
    spark = parser.add_mutually_exclusive_group()
    spark.add_argument("--spark", dest="spark", action="store_true", default=None, help="run PySpark (default unless --quick)")
    spark.add_argument("--no-spark", dest="spark", action="store_false")
    parser.add_argument("--no-bbr", action="store_true", help="skip the BBR benchmark")
    parser.add_argument("--bbr-n", type=_parse_n, default=10**7)
    parser.add_argument("--bbr-d", type=int, default=50)
    parser.add_argument("--bbr-dtype", choices=("float32", "float64"), default="float32",
                        help="feature dtype on disk (default float32: 2 GB at 1e7 x 50 instead of 4 GB)")
    parser.add_argument("--bbr-rows-per-file", type=_parse_n, default=500_000)
    parser.add_argument("--bbr-persist", action="store_true",
                        help="fit_bbr(persist=True): keep the validated float64 blocks in worker memory "
                             "(default False: the Parquet files are read twice)")
    args = parser.parse_args(argv)
    if args.quick:
        args.n = [200_000]
        args.rows_per_file = 50_000
        args.bbr_n, args.bbr_d, args.bbr_rows_per_file = 100_000, 5, 25_000
    use_spark = (not args.quick) if args.spark is None else args.spark

    # Load every BLAS / OpenMP library first: threadpoolctl pins the ones already loaded.
    import pyarrow.parquet  # noqa: F401
    import scipy.linalg  # noqa: F401
    import sklearn.utils  # noqa: F401
    from threadpoolctl import threadpool_limits

    import rankwise  # noqa: F401
    import rankwise.distributed  # noqa: F401

    with threadpool_limits(limits=1):
        header(args, args.workers)
        os.makedirs(args.data_dir, exist_ok=True)
        sets = {}
        for n in args.n:
            path, secs, reused = scores_dataset(args.data_dir, n, SEED, args.rows_per_file)
            files = sum(1 for f in os.listdir(path) if f.endswith(".parquet"))
            sets[n] = {"path": path, "files": files, "bytes": dir_size(path)}
            print(f"data n = {n:,}: {path} ({'reused' if reused else f'written in {secs:.1f} s'})")
        print(flush=True)

        results = {}
        for n in args.n:
            path = sets[n]["path"]
            single = run_single(path)
            print(f"n = {n:.0e}: single-machine read {single['read']:.2f} s, evaluate {single['compute']:.2f} s",
                  flush=True)
            dist = run_distributed(path, args.workers, args.memory_limit, args.n_partitions, monitor=True)
            print(f"n = {n:.0e}: distributed {dist['time']:.2f} s" + (f" FAILED: {dist['error']}" if "error" in dist
                                                                       else ""), flush=True)
            results[n] = [single, dist, None]

        if use_spark:
            try:
                session, jvm = spark_session()
            except Exception as exc:  # noqa: BLE001 - Spark missing or broken: say so
                print(f"PySpark unavailable: {type(exc).__name__}: {exc}", file=sys.stderr)
                session = None
            if session is not None:
                try:
                    for n in args.n:
                        r = run_spark(session, sets[n]["path"])
                        r["jvm"] = jvm
                        results[n][2] = r
                        print(f"n = {n:.0e}: Spark {r['time']:.2f} s", flush=True)
                finally:
                    session.stop()
        print()

        ok = True
        for n in args.n:
            single, dist, sp = results[n]
            print_table(n, sets[n], single, dist, sp)
            if "error" in dist:
                ok = False

        if not args.no_bbr:
            path, secs, reused = features_dataset(args.data_dir, args.bbr_n, args.bbr_d, args.bbr_dtype, SEED,
                                                  args.bbr_rows_per_file)
            info = {"files": sum(1 for f in os.listdir(path) if f.endswith(".parquet")), "bytes": dir_size(path)}
            print(f"data BBR {args.bbr_n:,} x {args.bbr_d}: {path} "
                  f"({'reused' if reused else f'written in {secs:.1f} s'})\n", flush=True)
            res = fit_bbr_runs(path, args.bbr_d, args.workers, args.memory_limit, args.bbr_persist)
            print_bbr(args.bbr_n, args.bbr_d, args.bbr_dtype, info, res, args.workers, args.memory_limit)
            if "error" in res:
                ok = False
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
