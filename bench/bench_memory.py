"""Peak memory of ``rankwise evaluate`` on a CSV file, against the size of the columns it
needs (issue 14, item 3: at most 3x).

Writes a CSV of ``--n`` rows into a temporary directory: ``id`` (an integer the command
does not read), ``label`` (text, ``pos`` for 30% of the rows, else ``neg``), ``score_a``
and ``score_b`` (float64 printed in full). Then runs, each in its own process, whose
peak resident set size is read from ``os.wait4`` (``ru_maxrss``):

* ``start-up``: ``rankwise evaluate`` on the first 1,000 rows: the interpreter, numpy,
  pyarrow and rankwise, the floor of every run;
* ``read only``: ``read_table`` of label, score_a and score_b, then ``labels`` and
  ``scores`` (what the command's reader holds);
* ``evaluate, AUC``: ``rankwise evaluate FILE --label label --pos-label pos --score score_a --score
  score_b --criteria auc --ci none``;
* ``evaluate, defaults``: the same with the default criteria and their intervals.

The needed columns are what is ranked: two float64 score columns and the label as one
byte a row (17 bytes a row). The table gives each peak, its ratio to the needed columns
and the same ratio above the start-up floor. No time is measured.

    python bench/bench_memory.py            # n = 10^7 (a ~0.5 GB file)
    python bench/bench_memory.py --quick    # n = 10^6
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

READ_ONLY = r"""
import sys
from rankwise.cli._readers import read_table

table = read_table(sys.argv[1], columns=["label", "score_a", "score_b"])
y = table.labels("label")
scores = [table.scores(c) for c in ("score_a", "score_b")]
assert len(y) == len(scores[0]) == len(scores[1])
"""

NEEDED_BYTES_PER_ROW = 2 * 8 + 1


def write_csv(path: str, n: int, seed: int = 0) -> None:
    """id, label (pos/neg), score_a, score_b; written in blocks of 10^6 rows."""
    rng = np.random.default_rng(seed)
    with open(path, "w") as fh:
        fh.write("id,label,score_a,score_b\n")
        for start in range(0, n, 10**6):
            m = min(10**6, n - start)
            pos = rng.uniform(size=m) < 0.3
            a = rng.normal(size=m) + 0.8 * pos
            b = rng.normal(size=m) + 0.3 * pos
            label = np.where(pos, "pos", "neg")
            ids = np.arange(start, start + m)
            fh.write("".join(f"{i},{lab},{x!r},{z!r}\n" for i, lab, x, z in
                             zip(ids.tolist(), label.tolist(), a.tolist(), b.tolist())))


def peak_rss(argv: list[str]) -> int:
    """Peak resident set size (bytes) of one subprocess, which must succeed. A forked
    child starts its peak at this process's size, so it is spawned (posix_spawn: no
    cwd, no fd closing) and the CSV is written by a child of its own."""
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    with tempfile.TemporaryFile() as err:
        proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=err, env=env, close_fds=False)
        _, status, usage = os.wait4(proc.pid, 0)
        if os.waitstatus_to_exitcode(status) != 0:
            err.seek(0)
            tail = err.read().decode().strip().splitlines()
            raise RuntimeError(f"{' '.join(argv[:3])} failed: {tail[-1] if tail else status}")
    return usage.ru_maxrss * 1024  # KiB on Linux


def rankwise_command() -> list[str]:
    exe = os.path.join(os.path.dirname(sys.executable), "rankwise")
    return [exe] if os.path.exists(exe) else [sys.executable, "-m", "rankwise.cli"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=10**7, help="rows of the CSV file (default 10^7)")
    parser.add_argument("--quick", action="store_true", help="n = 10^6")
    parser.add_argument("--keep", metavar="DIR", help="write the CSV files into DIR and keep them")
    parser.add_argument("--json", metavar="PATH", help="also write the rows as JSON")
    args = parser.parse_args(argv)
    n = 10**6 if args.quick else args.n

    folder = args.keep or tempfile.mkdtemp(prefix="rankwise-bench-memory-")
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, f"scores_{n}.csv")
    small = os.path.join(folder, "scores_1000.csv")
    try:
        for p, rows in ((path, n), (small, 1000)):
            subprocess.run([sys.executable, os.path.abspath(__file__), "--write", p, str(rows)], check=True)
        size = os.path.getsize(path)
        needed = n * NEEDED_BYTES_PER_ROW
        print(f"n = {n:,} rows, file {size / 2**20:.1f} MiB, needed columns {needed / 2**20:.1f} MiB "
              f"(2 float64 scores + the label as 1 byte a row)\n")
        cli = rankwise_command()
        common = ["--label", "label", "--pos-label", "pos", "--score", "score_a", "--score", "score_b"]
        runs = [
            ("start-up (1,000 rows)", cli + ["evaluate", small, *common]),
            ("read only", [sys.executable, "-c", READ_ONLY, path]),
            ("evaluate, AUC", cli + ["evaluate", path, *common, "--criteria", "auc", "--ci", "none"]),
            ("evaluate, defaults", cli + ["evaluate", path, *common]),
        ]
        rows = []
        for name, command in runs:
            rows.append({"run": name, "n": n, "peak": peak_rss(command)})
        floor = rows[0]["peak"]
        for r in rows:
            r["ratio"] = r["peak"] / needed
            r["ratio above start-up"] = (r["peak"] - floor) / needed

        print("| run | peak RSS (MiB) | peak / needed columns | (peak - start-up) / needed columns |")
        print("|---|---:|---:|---:|")
        for r in rows:
            print(f"| {r['run']} | {r['peak'] / 2**20:.0f} | {r['ratio']:.2f} | {r['ratio above start-up']:.2f} |")
        print(f"\ntarget: peak of `rankwise evaluate` at most 3x the needed columns: "
              f"{max(r['ratio'] for r in rows[2:]):.2f}x")
        if args.json:
            with open(args.json, "w") as fh:
                json.dump(rows, fh, indent=2)
        return 0
    finally:
        if not args.keep:
            shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--write"]:
        write_csv(sys.argv[2], int(sys.argv[3]))
        sys.exit(0)
    sys.exit(main())
