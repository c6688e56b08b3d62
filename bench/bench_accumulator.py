"""What the one accumulator costs (``rw.stats.RankAccumulator``): batches against the
whole sample, its memory, and the quantised mode against a sort-free floor.

(a) **Batches against the whole sample.** 100 batches of 10^5 rows updated into one
    accumulator, then ``acc.estimate("auc")`` (value and DeLong standard error), against
    one ``rw.stats.estimate(y, s, "auc")`` on the concatenated 10^7 rows; float64 scores
    (untied) and the same scores as float32 (tied: about 9.3 x 10^6 distinct values).
    The two are timed in alternated rounds (the whole sample first in even rounds, the
    accumulator first in odd ones); best and median of ``--repeat`` rounds. Target: the
    accumulator within 1.5 times the whole-sample estimate.
(b) **Memory.** 10^7 rows in batches of 10^5 made one at a time by a generator (the rows
    are never held together), float32 scores and scores rounded to 4 decimals:
    ``acc.nbytes`` after the last batch, the peak of the memory traced by ``tracemalloc``
    (numpy's arrays included) while the batches are fed and the AUC computed, and, outside
    ``--quick``, the resident memory of a child process doing the same (Linux): before
    the rows (rankwise imported, its kernels loaded by a first run of up to 2^22 rows)
    and its peak (``VmHWM``, reset after that first run) while the rows are fed.
(c) **The quantised mode at scale.** 10^8 rows streamed from a generator of 100 batches of
    10^6 (constant memory), into ``RankAccumulator(resolution=2^-12)``, against the
    "sort-free floor": one pass of the same bucketing, ``floor(s / resolution)`` and a
    ``np.bincount`` per class added into running totals, over the same batches without the
    accumulator. Each batch is made once and given to both, in alternated order; the
    generation of the batches is not timed. Target: within 2 times the floor. Also the
    certified bound of ``acc.auc_bounds()`` and its width. PySpark (whose
    ``BinaryClassificationEvaluator`` would be the distributed reference) is not installed
    here: the script says so and compares with nothing else.

Data: label ~ Bernoulli(0.3), score = N(0, 1) + label, seeded. BLAS pinned to one thread
(threadpoolctl); every call made once before the timings. The script imports whichever
``rankwise`` is first on the path (``PYTHONPATH=<checkout> python <this file>`` times
another one). It checks its numbers (the accumulator's value and standard error equal
the whole sample's, the floor's cell counts equal the quantised accumulator's, the exact
AUC within the bound in ``--quick``) and exits 1 when one fails.

    python bench/bench_accumulator.py              # the sizes above, best of 7 rounds
    python bench/bench_accumulator.py --quick      # 10^5 / 10^6 rows, one round (the test suite)
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import math
import os
import resource
import statistics
import subprocess
import sys
import time
import tracemalloc

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_clusters import cpu_line  # noqa: E402

#: The quantised mode's grid width.
RESOLUTION = 2.0 ** -12
#: Relative agreement required between the accumulator and the whole sample (equal floats
#: are expected below 2^18 rows; beyond, ranges of the sample may be read in another order).
REL = 1e-12


def make(n: int, seed: int = 0):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.3
    return y, rng.normal(size=n) + y


def batches(n: int, size: int, seed: int = 1, kind: str = "float64"):
    """``(y, s)`` batches of ``size`` rows (``n`` in all), each made when asked for."""
    for k in range(-(-n // size)):
        y, s = make(min(size, n - k * size), seed=[seed, k])
        if kind == "float32":
            s = s.astype(np.float32)
        elif kind == "round4":
            s = np.round(s, 4)
        yield y, s


# --- (a) batches against the whole sample ----------------------------------------------------------

def part_a(n: int, n_batches: int, repeat: int, kind: str):
    import rankwise as rw
    from rankwise.stats import RankAccumulator

    y, s = make(n)
    if kind == "float32":
        s = s.astype(np.float32)
    m = -(-n // n_batches)
    parts = [(y[i:i + m], s[i:i + m]) for i in range(0, n, m)]

    def whole():
        return rw.stats.estimate(y, s, "auc")

    def accumulated():
        t0 = time.perf_counter()
        acc = RankAccumulator()
        for yb, sb in parts:
            acc.update(yb, sb)
        t1 = time.perf_counter()
        e = acc.estimate("auc")
        return e, t1 - t0, time.perf_counter() - t1

    ew = whole()  # warm (numba's kernels loaded), and the numbers checked
    ea = accumulated()[0]
    tw, tu, te = [], [], []
    for r in range(repeat):
        for which in ((0, 1) if r % 2 == 0 else (1, 0)):
            if which == 0:
                t0 = time.perf_counter()
                whole()
                tw.append(time.perf_counter() - t0)
            else:
                _, u, e = accumulated()
                tu.append(u)
                te.append(e)
    total = [u + e for u, e in zip(tu, te)]
    best = int(np.argmin(total))
    diff = max(abs(ea.value - ew.value) / abs(ew.value), abs(ea.std_error - ew.std_error) / ew.std_error)
    return dict(kind=kind, n=n, batches=len(parts), updates=tu[best], estimate=te[best], total=min(total),
                whole=min(tw), ratio_best=min(total) / min(tw),
                ratio_median=statistics.median(total) / statistics.median(tw), value=ea.value,
                std_error=ea.std_error, same=(ea.value, ea.std_error) == (ew.value, ew.std_error), diff=diff,
                distinct=int(np.unique(s).shape[0]))


# --- (b) memory ----------------------------------------------------------------------------------------

def feed(n: int, size: int, kind: str):
    """An accumulator fed ``n`` rows of ``kind`` in batches made one at a time; its AUC."""
    from rankwise.stats import RankAccumulator

    acc = RankAccumulator()
    for yb, sb in batches(n, size, kind=kind):
        acc.update(yb, sb)
    auc = acc.compute("auc")
    return acc, auc


def part_b(n: int, size: int, kind: str, rss: bool):
    feed(min(n, 10 * size), size, kind)  # warm
    tracemalloc.start()
    tracemalloc.reset_peak()
    acc, auc = feed(n, size, kind)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    out = dict(kind=kind, n=n, size=size, levels=acc.n_levels, nbytes=acc.nbytes, traced=peak, auc=auc,
               arrays=n * ((4 if kind == "float32" else 8) + 1))
    if rss:
        res = subprocess.run([sys.executable, os.path.abspath(__file__), "--_memory", kind, str(n), str(size)],
                             capture_output=True, text=True, check=True)
        got = json.loads(res.stdout.strip().splitlines()[-1])
        out["rss"], out["rss0"] = got["peak"], got["before"]
    return out


def memory_child(kind: str, n: int, size: int) -> int:
    """Feed ``n`` rows of ``kind`` in a fresh process; print its resident memory before the
    rows and its peak while they are fed. Linux: the process first feeds up to 2^22 + one
    batch of rows (the kernels of every size loaded, the buffers of a first merge made),
    then its peak is reset (/proc/self/clear_refs), so that the peak is the rows' alone."""
    from threadpoolctl import threadpool_limits

    with threadpool_limits(1):
        feed(min(n, (1 << 22) + size), size, kind)
        try:
            with open("/proc/self/clear_refs", "w") as fh:
                fh.write("5")  # reset VmHWM to the current resident memory
        except OSError:
            pass
        before = current_rss()
        feed(n, size, kind)
    print(json.dumps({"before": before, "peak": peak_rss()}))
    return 0


def current_rss() -> int:
    try:
        with open("/proc/self/status") as fh:
            for line in fh:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def peak_rss() -> int:
    """This process's peak resident memory in bytes: ``VmHWM`` of /proc/self/status on Linux
    (the high-water mark of its own address space: ``ru_maxrss`` keeps the parent's peak
    across fork and exec), else ``ru_maxrss``."""
    try:
        with open("/proc/self/status") as fh:
            for line in fh:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    # ru_maxrss: kilobytes on Linux, bytes on macOS
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * (1 if sys.platform == "darwin" else 1024)


# --- (c) the quantised mode against the sort-free floor ---------------------------------------------

class Floor:
    """One pass of the quantised mode's bucketing without the accumulator: cells
    ``floor(s / resolution)``, a bincount per class, added into running totals."""

    def __init__(self, resolution: float):
        self.res = resolution
        self.lo = None
        self.pos = np.zeros(0, dtype=np.int64)
        self.neg = np.zeros(0, dtype=np.int64)

    def add(self, y: np.ndarray, s: np.ndarray) -> None:
        c = np.floor(s / self.res).astype(np.int64)
        lo, hi = int(c.min()), int(c.max())
        if self.lo is None:
            self.lo = lo
            self.pos = np.zeros(hi - lo + 1, dtype=np.int64)
            self.neg = np.zeros(hi - lo + 1, dtype=np.int64)
        if lo < self.lo or hi - self.lo + 1 > self.pos.shape[0]:
            new_lo = min(lo, self.lo)
            size = max(hi, self.lo + self.pos.shape[0] - 1) - new_lo + 1
            for name in ("pos", "neg"):
                grown = np.zeros(size, dtype=np.int64)
                old = getattr(self, name)
                grown[self.lo - new_lo: self.lo - new_lo + old.shape[0]] = old
                setattr(self, name, grown)
            self.lo = new_lo
        c -= self.lo
        p = np.bincount(c[y])
        q = np.bincount(c[~y])
        self.pos[: p.shape[0]] += p
        self.neg[: q.shape[0]] += q

    def cells(self):
        keep = np.flatnonzero((self.pos + self.neg) > 0)
        return keep + self.lo, self.pos[keep], self.neg[keep]


def part_c(n: int, size: int, resolution: float, check_exact: bool):
    from rankwise.stats import RankAccumulator

    warm = RankAccumulator(resolution=resolution)
    for yb, sb in batches(2 * size, size, seed=2):
        warm.update(yb, sb)
        Floor(resolution).add(yb, sb)
    acc = RankAccumulator(resolution=resolution)
    floor = Floor(resolution)
    t_acc = t_floor = 0.0
    kept = [] if check_exact else None
    for k, (yb, sb) in enumerate(batches(n, size, seed=3)):
        for which in ((0, 1) if k % 2 == 0 else (1, 0)):
            t0 = time.perf_counter()
            if which == 0:
                acc.update(yb, sb)
                t_acc += time.perf_counter() - t0
            else:
                floor.add(yb, sb)
                t_floor += time.perf_counter() - t0
        if kept is not None:
            kept.append((yb, sb))
    t0 = time.perf_counter()
    lo, value, hi = acc.auc_bounds()
    t_bounds = time.perf_counter() - t0
    fc, fp, fn = floor.cells()
    P, N = int(fp.sum()), int(fn.sum())
    below = np.concatenate(([0], np.cumsum(fn)[:-1]))
    fpo = fp.astype(object)
    num = 2 * int(np.dot(fpo, below.astype(object))) + int(np.dot(fpo, fn.astype(object)))
    floor_value = num / (2 * P * N)  # the AUC of the cells, correctly rounded (as auc_bounds gives it)
    exact = None
    if kept is not None:
        import rankwise as rw

        exact = rw.auc(np.concatenate([b[0] for b in kept]), np.concatenate([b[1] for b in kept]))
    return dict(n=n, size=size, resolution=resolution, cells=acc.n_levels, floor_cells=int(fc.shape[0]),
                t_acc=t_acc, t_floor=t_floor, ratio=t_acc / t_floor, t_bounds=t_bounds, lo=lo, value=value, hi=hi,
                width=hi - lo, nbytes=acc.nbytes, floor_value=floor_value, exact=exact)


# --- main ---------------------------------------------------------------------------------------------

def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=float, default=1e7, help="rows of (a) and (b) (default 1e7)")
    ap.add_argument("--batches", type=int, default=100, help="batches of (a) (default 100)")
    ap.add_argument("--n-quantised", type=float, default=1e8, help="rows of (c) (default 1e8)")
    ap.add_argument("--quantised-batch", type=float, default=1e6, help="rows a batch in (c) (default 1e6)")
    ap.add_argument("--repeat", type=int, default=7, help="alternated rounds of (a) (default 7)")
    ap.add_argument("--quick", action="store_true", help="1e5 rows in (a) and (b), 1e6 in (c), one round")
    ap.add_argument("--_memory", nargs=3, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args._memory:
        kind, n, size = args._memory
        return memory_child(kind, int(n), int(size))
    n = 100_000 if args.quick else int(args.n)
    nq = 1_000_000 if args.quick else int(args.n_quantised)
    bq = 100_000 if args.quick else int(args.quantised_batch)
    repeat = 1 if args.quick else args.repeat
    from threadpoolctl import threadpool_limits

    import rankwise as rw

    load0 = os.getloadavg()[0]
    with threadpool_limits(1):
        rows_a = [part_a(n, args.batches, repeat, kind) for kind in ("float64", "float32")]
        size_b = max(1, n // args.batches)
        rows_b = [part_b(n, size_b, kind, rss=not args.quick) for kind in ("float32", "round4")]
        row_c = part_c(nq, bq, RESOLUTION, check_exact=args.quick)
    load1 = os.getloadavg()[0]
    spark = importlib.util.find_spec("pyspark") is not None

    print(f"# {cpu_line()}")
    print(f"# rankwise {rw.__version__} from {os.path.dirname(rw.__file__)}; numpy {np.__version__}; BLAS threads 1; "
          f"best of {repeat} alternated rounds; load average {load0:.1f} at start, {load1:.1f} at end")
    print()
    print("| scores | n | batches | updates (s) | acc.estimate (s) | accumulator (s) | rw.stats.estimate (s) "
          "| ratio (best) | ratio (median) | value | std. error | same floats |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    for r in rows_a:
        print(f"| {r['kind']} | {r['n']:.0e} | {r['batches']} | {r['updates']:.4f} | {r['estimate']:.4f} | "
              f"{r['total']:.4f} | {r['whole']:.4f} | {r['ratio_best']:.2f} | {r['ratio_median']:.2f} | "
              f"{r['value']:.6f} | {r['std_error']:.6f} | {'yes' if r['same'] else 'no (%.1e)' % r['diff']} |")
    print()
    print("| scores | n | batch | distinct scores | acc.nbytes (MB) | traced peak (MB) | rows as arrays (MB) "
          "| RSS before (MB) | peak RSS (MB) |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows_b:
        rss = (f"{r['rss0'] / 1e6:.0f} | {r['rss'] / 1e6:.0f}" if "rss" in r else "- | not run (quick mode)")
        print(f"| {r['kind']} | {r['n']:.0e} | {r['size']} | {r['levels']} | {r['nbytes'] / 1e6:.3f} | "
              f"{r['traced'] / 1e6:.1f} | {r['arrays'] / 1e6:.1f} | {rss} |")
    print()
    c = row_c
    print("| n | batch | resolution | cells | accumulator (s) | floor (s) | ratio | acc.auc_bounds() (s) "
          "| lower | AUC of the cells | upper | width | acc.nbytes |")
    print("|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    print(f"| {c['n']:.0e} | {c['size']} | 2^{int(math.log2(c['resolution']))} | {c['cells']} | {c['t_acc']:.3f} | "
          f"{c['t_floor']:.3f} | {c['ratio']:.2f} | {c['t_bounds']:.4f} | {c['lo']:.6f} | {c['value']:.6f} | "
          f"{c['hi']:.6f} | {c['width']:.1e} | {c['nbytes']} |")
    print()
    print("PySpark: " + ("installed, not compared by this script" if spark else
                         "not installed here, so no distributed reference was run"))
    failures = []
    for r in rows_a:
        if not r["diff"] <= REL:
            failures.append(f"(a) {r['kind']}: the accumulator's value or standard error differs by {r['diff']:.1e}")
    if c["cells"] != c["floor_cells"] or c["value"] != c["floor_value"]:
        failures.append(f"(c) the floor's cells ({c['floor_cells']}, AUC {c['floor_value']!r}) differ from the "
                        f"accumulator's ({c['cells']}, {c['value']!r})")
    if c["exact"] is not None and not c["lo"] <= c["exact"] <= c["hi"]:
        failures.append(f"(c) the exact AUC {c['exact']!r} is outside the bound [{c['lo']!r}, {c['hi']!r}]")
    if c["exact"] is not None:
        print(f"exact AUC of the (c) rows (quick mode): {c['exact']:.6f}, within the bound")
    if failures:
        print("agreement checks: FAILED: " + "; ".join(failures))
        return 1
    print("agreement checks: all passed")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
