"""Shared by the benchmark scripts: best-of-k wall time."""

import time


def best_time(f, repeat: int) -> float:
    """The smallest wall time of ``repeat`` calls of ``f`` (seconds)."""
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        f()
        best = min(best, time.perf_counter() - t0)
    return best


def load_line() -> str:
    """The machine's load averages in words, for a benchmark's header (other jobs share
    the cores)."""
    import os

    try:
        one, five, fifteen = os.getloadavg()
        return f"load average {one:.2f}, {five:.2f}, {fifteen:.2f}"
    except OSError:
        return "load average unknown"


def run_r(r_script: str, columns, n: int, repeat: int):
    """Run ``r_script`` with Rscript on ``columns`` written as one binary file (each a
    numpy array, written with its own dtype, in order), passing ``n``, the file and
    ``repeat`` as arguments. Returns the whitespace-split stdout, or None when R (or
    pROC) is not available."""
    import os
    import shutil
    import subprocess
    import sys
    import tempfile

    if shutil.which("Rscript") is None:
        return None
    with tempfile.TemporaryDirectory() as d:
        data = os.path.join(d, "data.bin")
        script = os.path.join(d, "bench.R")
        with open(data, "wb") as fh:
            for col in columns:
                fh.write(col.tobytes())
        with open(script, "w") as fh:
            fh.write(r_script)
        res = subprocess.run(["Rscript", script, str(n), data, str(repeat)], capture_output=True, text=True)
        if res.returncode != 0:
            tail = res.stderr.strip().splitlines()[-1] if res.stderr.strip() else res.returncode
            print(f"  R (or the R package the script needs) unavailable: {tail}", file=sys.stderr)
            return None
        return res.stdout.split()
