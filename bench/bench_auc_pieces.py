"""Where ``rw.auc`` spends the time beyond sorting the classes (issue 16, item 1): each step
of building an unweighted rank table timed alone, beside memory anchors measured in the
same run (a copy of the scores, writing a fresh buffer of their size).

Data: n rows, 30% positives, score N(0, 1) + 0.8 label (untied), int8 labels; best of
``--repeat``; the compiled engine when numba is installed (its caches loaded first).

    python bench/bench_auc_pieces.py            # n = 10^7
    python bench/bench_auc_pieces.py --quick    # n = 2e5 (the test suite)
"""

from __future__ import annotations

import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _timing import best_time as best  # noqa: E402


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=10**7)
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args(argv)
    n, repeat = (200_000, 2) if args.quick else (args.n, args.repeat)

    import rankwise as rw
    from rankwise._kernels import _merge, _ranktable
    from rankwise._labels import BINARY
    from rankwise._validation import check_scores

    rng = np.random.default_rng(0)
    y = (rng.random(n) < 0.3).astype(np.int8)
    s = rng.normal(size=n) + 0.8 * y
    is_pos = y == 1
    rw.auc(y, s)  # load the engine and its caches outside the timings
    pu, qu = s[is_pos], s[~is_pos]  # each class's scores, unsorted
    p, q = np.sort(pu), np.sort(qu)
    warm = np.empty(n)
    mod = _merge._compiled(n)
    rows = [
        ("rw.auc", best(lambda: rw.auc(y, s), repeat)),
        ("anchor: np.sort of each class's scores (the floor bench's 'class sorts')",
         best(lambda: (np.sort(pu), np.sort(qu)), repeat)),
        ("validation: the scores (min and max)", best(lambda: check_scores(s), repeat)),
        ("validation: the labels", best(lambda: BINARY.read(y), repeat)),
        ("class split into a fresh buffer", best(lambda: _merge.split_classes(is_pos, s), repeat)),
        ("tie checks of the two sorted classes", best(lambda: (_ranktable._has_ties(p), _ranktable._has_ties(q)),
                                                      repeat)),
        ("merge count (writes one count per row)", best(lambda: _merge.merge_below(p, q), repeat)),
        ("anchor: copy of the scores into touched memory", best(lambda: np.copyto(warm, s), repeat)),
        ("anchor: writing a fresh buffer of the scores' size", best(lambda: np.empty(n).fill(0.0), repeat)),
    ]
    if mod is not None:
        rows.insert(5, ("class split into a touched buffer", best(lambda: mod.split_classes_into(is_pos, s, warm),
                                                                  repeat)))
    print(f"# rankwise {rw.__version__} (engine {_merge.engine()}); n = {n:,}; best of {repeat}")
    print("| step | seconds |")
    print("|---|---:|")
    for name, t in rows:
        print(f"| {name} | {t:.4g} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
