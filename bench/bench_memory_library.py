"""Peak memory of ``rw.evaluate`` on large float32 score arrays (issue 14's target: at most
4x the input arrays at 10^8 rows, float32 kept float32).

Each size runs in a fresh subprocess: the arrays are written to .npy files first, the
child loads them (so its resident memory before the call is the interpreter plus exactly
the input), calls ``rw.evaluate`` with the default criteria and reports its peak resident
set (``ru_maxrss``). The ratio printed is peak / input bytes, the interpreter included.

    python bench/bench_memory_library.py            # 10^7 and 10^8 rows (needs ~3 GB free)
    python bench/bench_memory_library.py --quick    # 10^6 rows
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile

import numpy as np

CHILD = r"""
import json, resource, sys, time
import numpy as np
y = np.load(sys.argv[1]); s = np.load(sys.argv[2])
import rankwise as rw
def rss():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * 4096
before = rss()
t = time.perf_counter()
out = rw.evaluate(y, s)
dt = time.perf_counter() - t
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
print(json.dumps({"before": before, "peak": peak, "seconds": dt, "values": out}))
"""


def measure(n: int, folder: str, seed: int = 0) -> dict:
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.3
    s = rng.standard_normal(n, dtype=np.float32)
    s += y
    fy, fs = os.path.join(folder, "y.npy"), os.path.join(folder, "s.npy")
    np.save(fy, y)
    np.save(fs, s)
    inp = y.nbytes + s.nbytes
    del y, s
    res = subprocess.run([sys.executable, "-c", CHILD, fy, fs], capture_output=True, text=True, check=True)
    out = json.loads(res.stdout.strip().splitlines()[-1])
    out.update(n=n, input=inp)
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="10^6 rows only")
    args = ap.parse_args(argv)
    sizes = [10 ** 6] if args.quick else [10 ** 7, 10 ** 8]
    print(f"{'rows':>12}  {'input MB':>9}  {'before MB':>9}  {'peak MB':>8}  {'peak/input':>10}  {'seconds':>7}")
    worst = 0.0
    with tempfile.TemporaryDirectory() as folder:
        for n in sizes:
            r = measure(n, folder)
            ratio = r["peak"] / r["input"]
            worst = max(worst, ratio) if n >= 10 ** 8 else worst
            print(f"{n:>12,}  {r['input'] / 1e6:>9.0f}  {r['before'] / 1e6:>9.0f}  {r['peak'] / 1e6:>8.0f}  "
                  f"{ratio:>10.2f}  {r['seconds']:>7.1f}")
    if not args.quick:
        print(f"target at 10^8 rows: peak <= 4x the input; measured {worst:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
