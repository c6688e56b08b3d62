"""End-to-end speed and peak memory of evaluating scores stored in a CSV file.

Writes a CSV of ``--n`` rows (columns ``label,score_a,score_b``) into a temporary
directory (its write time is reported, not timed), then runs, each in its own fresh
Python subprocess (so start-up and imports are included, and the peak resident set
size is the child's own, from ``os.wait4``):

* ``rankwise (reader)``: ``rankwise.cli._readers.read_table(path, columns=[...])`` and
  ``rankwise.evaluate`` with the default criteria on both scores;
* ``rankwise (read_table + auc)``: the same with ``rankwise.auc`` only (like for like);
* ``rankwise evaluate (CLI)``: the ``rankwise evaluate`` command, when it exists;
* ``pandas + sklearn (anchor)``: ``pandas.read_csv`` of the whole file and
  ``sklearn.metrics.roc_auc_score`` on both scores (AUC only).

Target of issue 6: rankwise at least 5x faster end to end than the anchor, and peak
memory under 3x the file size.

    python bench/bench_cli.py            # n = 10^7 (a ~0.4 GB file)
    python bench/bench_cli.py --n 1000000 --repeat 3
    python bench/bench_cli.py --quick    # n = 2e5, seconds
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# The child programs start alike: imports and a reader of their own resident memory.
PRELUDE = r"""
import json, sys, time

def _rss():
    with open("/proc/self/status") as fh:
        for line in fh:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    return 0
"""

RANKWISE = PRELUDE + r"""t0 = time.perf_counter()
import rankwise as rw
from rankwise.cli._readers import read_table
import pyarrow.csv  # imported by read_table anyway: counted with the imports
t1 = time.perf_counter()
rss_imports = _rss()
table = read_table(sys.argv[1], columns=["label", "score_a", "score_b"])
y = table.labels("label")
t2 = time.perf_counter()
if len(sys.argv) > 2 and sys.argv[2] == "auc":
    out = {c: {"auc": rw.auc(y, table.numeric(c))} for c in ("score_a", "score_b")}
else:
    out = {c: rw.evaluate(y, table.numeric(c)) for c in ("score_a", "score_b")}
t3 = time.perf_counter()
print(json.dumps({"import": t1 - t0, "read": t2 - t1, "compute": t3 - t2, "rss_imports": rss_imports,
                  "auc": [out["score_a"].get("auc"), out["score_b"].get("auc")],
                  "criteria": list(out["score_a"])}))
"""

ANCHOR = PRELUDE + r"""t0 = time.perf_counter()
import pandas as pd
from sklearn.metrics import roc_auc_score
t1 = time.perf_counter()
rss_imports = _rss()
df = pd.read_csv(sys.argv[1])
t2 = time.perf_counter()
auc = [float(roc_auc_score(df["label"], df[c])) for c in ("score_a", "score_b")]
t3 = time.perf_counter()
print(json.dumps({"import": t1 - t0, "read": t2 - t1, "compute": t3 - t2, "rss_imports": rss_imports, "auc": auc}))
"""


def write_csv(path: str, n: int, seed: int = 0) -> None:
    """label (0/1), score_a, score_b (float64 printed in full): ~40 bytes a row."""
    rng = np.random.default_rng(seed)
    label = (rng.uniform(size=n) < 0.3).astype(np.int8)
    score_a = rng.normal(size=n) + 0.8 * label
    score_b = rng.normal(size=n) + 0.3 * label
    try:
        import pyarrow as pa
        import pyarrow.csv as pcsv

        pcsv.write_csv(pa.table({"label": label, "score_a": score_a, "score_b": score_b}), path)
    except ImportError:
        import pandas as pd

        pd.DataFrame({"label": label, "score_a": score_a, "score_b": score_b}).to_csv(path, index=False)


def run_child(argv: list[str]) -> tuple[float, int, str]:
    """(wall seconds, peak RSS in bytes, stdout) of one subprocess."""
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        t0 = time.perf_counter()
        proc = subprocess.Popen(argv, stdout=out, stderr=err, env=env, cwd=ROOT)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - t0
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        stdout, stderr = out.read().decode(), err.read().decode()
    if proc.returncode != 0:
        tail = stderr.strip().splitlines()[-1] if stderr.strip() else f"exit {proc.returncode}"
        raise RuntimeError(f"{argv[0]} failed: {tail}")
    return wall, usage.ru_maxrss * 1024, stdout  # ru_maxrss is in KiB on Linux


def best_of(argv: list[str], repeat: int) -> tuple[float, int, str]:
    runs = [run_child(argv) for _ in range(repeat)]
    wall = min(r[0] for r in runs)
    rss = max(r[1] for r in runs)
    return wall, rss, runs[-1][2]


def cli_command() -> list[str] | None:
    """``rankwise evaluate`` when the installed command has it, else None."""
    exe = os.path.join(os.path.dirname(sys.executable), "rankwise")
    if not os.path.exists(exe):
        exe = shutil.which("rankwise")
    if not exe:
        return None
    try:
        res = subprocess.run([exe, "evaluate", "--help"], capture_output=True, text=True, timeout=60, cwd=ROOT)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return [exe] if res.returncode == 0 else None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=10**7, help="rows of the CSV file (default 10^7)")
    parser.add_argument("--quick", action="store_true", help="n = 2e5 (a smoke run)")
    parser.add_argument("--repeat", type=int, default=1, help="best-of-k wall time (default 1)")
    parser.add_argument("--keep", metavar="DIR", help="write the CSV into DIR and keep it")
    args = parser.parse_args(argv)
    n = 200_000 if args.quick else args.n

    folder = args.keep or tempfile.mkdtemp(prefix="rankwise-bench-cli-")
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, f"scores_{n}.csv")
    try:
        t0 = time.perf_counter()
        write_csv(path, n)
        t_write = time.perf_counter() - t0
        size = os.path.getsize(path)
        print(f"n = {n:,} rows, file {size / 2**20:.1f} MiB, written in {t_write:.2f} s (not timed)\n")

        rows = []
        wall, rss, out = best_of([sys.executable, "-c", RANKWISE, path], args.repeat)
        info = json.loads(out)
        rows.append(("rankwise (read_table + evaluate, default criteria)", wall, rss, info))
        wall_u, rss_u, out_u = best_of([sys.executable, "-c", RANKWISE, path, "auc"], args.repeat)
        rows.append(("rankwise (read_table + auc: like for like)", wall_u, rss_u, json.loads(out_u)))
        cli = cli_command()
        if cli is not None:
            try:
                wall_c, rss_c, _ = best_of(cli + ["evaluate", path, "--label", "label", "--score", "score_a",
                                                   "--score", "score_b"], args.repeat)
                rows.append(("rankwise evaluate (CLI)", wall_c, rss_c, None))
            except RuntimeError as exc:
                print(f"rankwise evaluate (CLI) skipped: {exc}")
        else:
            print("rankwise evaluate (CLI): not available yet, skipped")
        wall_a, rss_a, out_a = best_of([sys.executable, "-c", ANCHOR, path], args.repeat)
        anchor = json.loads(out_a)
        rows.append(("pandas read_csv + sklearn roc_auc_score (anchor)", wall_a, rss_a, anchor))

        agree = np.allclose(info["auc"], anchor["auc"], rtol=0, atol=1e-12)
        print(f"criteria (rankwise): {', '.join(info['criteria'])}; anchor: AUC only")
        print(f"AUC rankwise {info['auc']} vs sklearn {anchor['auc']}: {'agree' if agree else 'DIFFER'}\n")

        print("| run | time (s) | anchor time / time | peak RSS (MiB) | peak RSS / file size "
              "| RSS after imports (MiB) | (peak - imports) / file size | split (import / read / compute, s) |")
        print("|---|---:|---:|---:|---:|---:|---:|---|")
        for name, wall_r, rss_r, detail in rows:
            split = (f"{detail['import']:.2f} / {detail['read']:.2f} / {detail['compute']:.2f}"
                     if detail else "")
            base = f"{detail['rss_imports'] / 2**20:.0f}" if detail else ""
            data = f"{(rss_r - detail['rss_imports']) / size:.2f}" if detail else ""
            print(f"| {name} | {wall_r:.2f} | {wall_a / wall_r:.1f}x | {rss_r / 2**20:.0f} | "
                  f"{rss_r / size:.2f} | {base} | {data} | {split} |")
        speed = wall_a / rows[0][1]
        ratio = rows[0][2] / size
        print(f"\ntarget: >= 5x faster than the anchor ({speed:.1f}x: {'met' if speed >= 5 else 'NOT met'}), "
              f"peak RSS < 3x file size ({ratio:.2f}x: {'met' if ratio < 3 else 'NOT met'})")
        return 0 if agree else 1
    finally:
        if not args.keep:
            shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
