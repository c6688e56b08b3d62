"""Fuzzing of model files, long mode: mutate real saved models at random and load and score
each mutated file in a child process (an address-space limit, a timeout per file).

The corpus (one model of each registered rankwise estimator, the boosted ranker once per
installed engine, scikit-learn pipelines, a tree and a small forest), the mutator (JSON
fields, array members, the engines' booster payloads, each change made consistent with the
checksums) and the runner are those of the test suite's quick mode
(``tests/_support/model_fuzz.py``, used by ``tests/io/test_model_fuzz.py``). Prints a table
of outcomes per model kind and per mutation kind, then each failing group (model kind,
mutation kind, outcome) with a count and its first example; exits with status 1 when a
file is neither refused (``ModelFileError``) nor loaded into a model that scores finite
values.

    python bench/fuzz_model_files.py --n 5000 --seed 1       # about 5000 files in all
    python bench/fuzz_model_files.py --n 300 --kinds BoostedPairwiseRanker[xgboost]
    python bench/fuzz_model_files.py --n 200 --keep /tmp/fuzz  # keep the mutated files
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests"))
if ROOT not in sys.path:  # run as a script from anywhere: import the checkout's rankwise
    sys.path.insert(1, ROOT)

from _support import model_fuzz as mfz  # noqa: E402


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=600,
                        help="about how many mutated files in all (default 600); the boosters, trees, forests "
                             "and pipelines get more of them than the linear learners")
    parser.add_argument("--seed", type=int, default=1, help="the first seed (default 1)")
    parser.add_argument("--workers", type=int, default=2, help="child processes at a time (default 2)")
    parser.add_argument("--timeout", type=float, default=20.0, help="seconds per file before a hang (default 20)")
    parser.add_argument("--budget-gib", type=float, default=2.0,
                        help="address space a child may take beyond its imports, GiB (default 2)")
    parser.add_argument("--kinds", nargs="*", help="only these model kinds (names as in the table)")
    parser.add_argument("--keep", help="write the mutated files and a records.json here instead of a temporary folder")
    args = parser.parse_args(argv)

    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="rankwise-fuzz-") as tmp:
        corpus = mfz.build_corpus(tmp, args.kinds)
        if not corpus:
            parser.error(f"no model kind among {args.kinds}; the kinds are: {', '.join(mfz.corpus_builders())}")
        units = sum(mfz.fuzz_weight(k) for k in corpus)
        per_unit = max(1, math.ceil(args.n / units))
        folder = args.keep or os.path.join(tmp, "mutated")
        os.makedirs(folder, exist_ok=True)
        records = mfz.fuzz(corpus, folder, per_unit, seed=args.seed, workers=args.workers, timeout=args.timeout,
                           budget=int(args.budget_gib * (1 << 30)))
        if args.keep:
            with open(os.path.join(args.keep, "records.json"), "w") as f:
                json.dump(records, f, indent=1)
    elapsed = time.perf_counter() - t0
    print(f"{len(records)} mutated files of {len(corpus)} model kinds, seeds from {args.seed}, "
          f"{elapsed:.1f} s ({args.workers} workers)\n")
    print("## Outcomes per model kind\n")
    print(mfz.summary_table(records, "kind"))
    print("\n## Outcomes per mutation kind\n")
    print(mfz.summary_table(records, "mutation"))
    grew = sorted((r for r in records if r.get("peak_mib")), key=lambda r: -r["peak_mib"])[:5]
    print("\n## Largest growths of a child's peak memory during one file\n")
    print("| kind | mutation | outcome | MiB | description |\n|---|---|---|---|---|")
    for r in grew:
        print(f"| {r['kind']} | {r['mutation']} | {r['outcome']} | {r['peak_mib']:.0f} | {r['description'][:80]} |")
    if not grew:
        print("| (none: no file raised a child's peak above what its imports had taken) | | | | |")
    failing = mfz.failure_classes(records)
    print("\n## Failures\n")
    print(failing or "none: every file was refused with ModelFileError or scored finite values")
    past = [r for r in records if r["outcome"] == "refused" and mfz.INTEGRITY_MESSAGE.search(r["message"])]
    if past:
        print(f"\n{len(past)} file(s) refused by an integrity check (a mutator problem), e.g. "
              f"{past[0]['kind']} {past[0]['description']}: {past[0]['message']}")
    return 1 if failing or past else 0


if __name__ == "__main__":
    sys.exit(main())
