"""Seeded inputs for the golden fixtures of the new criteria: average precision and the
precision-recall curve, the Kolmogorov-Smirnov statistic, Gini, and the partial AUC over
any FPR (or TPR) range.

Run once, from the project root, in this order (CI needs none of them)::

    python tests/golden/make_new_criteria_inputs.py   # -> inputs_new_criteria.json
    python tests/golden/make_sklearn_new.py           # -> sklearn_new.json
    Rscript tests/golden/make_proc_partial.R          # -> proc_partial.json

Each case holds labels ``y`` (0/1, 1 = positive, higher score = positive), scores ``s``
and sample weights ``w`` (frequency weights, some zero, most non-integer; used by the
scikit-learn part only: pROC takes no weights). Every case has its own explicit seed
(or is written out by hand). Floats are written with ``repr`` (shortest round-trip form),
so R's JSON reader gets exactly the same doubles.

Besides the data, each case carries two "narrow" ranges for the partial AUC:
``narrow_fpr`` lies strictly inside one segment of the empirical ROC polyline (the segment
with the largest FPR extent, a diagonal one wherever the data have a tie between a
positive and a negative), and ``narrow_tpr`` likewise for the TPR extent. They are
derived from the data here so that the R script only reads numbers.
"""

import json
import os

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))


def _labels(rng, n, n_pos):
    y = np.zeros(n, dtype=int)
    y[:n_pos] = 1
    return rng.permutation(y)


def _weights(rng, y, zero_share=0.1):
    """Non-integer weights in [0.2, 3.0] (3 decimals), about zero_share of them set to 0,
    keeping at least one positive and one negative of positive weight."""
    w = rng.uniform(0.2, 3.0, size=y.size).round(3)
    w[rng.random(y.size) < zero_share] = 0.0
    for cls in (0, 1):
        idx = np.flatnonzero(y == cls)
        if not np.any(w[idx] > 0):
            w[idx[0]] = 1.25
    return w


def cases():
    out = []

    def add(name, description, seed, y, s, w):
        out.append(dict(name=name, description=description, seed=seed,
                        y=[int(v) for v in y], s=[float(v) for v in s], w=[float(v) for v in w]))

    seed = 20270101
    rng = np.random.default_rng(seed)
    y = _labels(rng, 200, 70)
    add("continuous_200", "binormal, shift 1.0, 70 of 200 positive, no ties", seed,
        y, y * 1.0 + rng.normal(size=y.size), _weights(rng, y))

    seed = 20270102
    rng = np.random.default_rng(seed)
    y = _labels(rng, 300, 15)
    add("imbalanced_rare_300", "binormal, shift 1.2, 15 of 300 positive, no ties", seed,
        y, y * 1.2 + rng.normal(size=y.size), _weights(rng, y))

    seed = 20270103
    rng = np.random.default_rng(seed)
    y = _labels(rng, 150, 60)
    add("ties_1dp_150", "binormal, shift 0.6, rounded to 1 decimal (heavy ties)", seed,
        y, np.round(y * 0.6 + rng.normal(size=y.size), 1), _weights(rng, y))

    seed = 20270104
    rng = np.random.default_rng(seed)
    y = _labels(rng, 250, 80)
    add("ties_2dp_250", "binormal, shift 0.5, rounded to 2 decimals (some ties)", seed,
        y, np.round(y * 0.5 + rng.normal(size=y.size), 2), _weights(rng, y))

    seed = 20270105
    rng = np.random.default_rng(seed)
    y = _labels(rng, 120, 45)
    add("int_0to5_120", "integers 0..5 (6 levels, very heavy ties)", seed,
        y, np.clip(np.round(2.5 + 1.0 * y + 1.2 * rng.normal(size=y.size)), 0, 5), _weights(rng, y))

    seed = 20270106
    rng = np.random.default_rng(seed)
    y = _labels(rng, 100, 85)
    add("majority_positive_int_100", "85 of 100 positive, integers 0..5", seed,
        y, np.clip(np.round(2.0 + 0.8 * y + 1.2 * rng.normal(size=y.size)), 0, 5), _weights(rng, y))

    seed = 20270107
    rng = np.random.default_rng(seed)
    y = _labels(rng, 80, 30)
    add("worse_than_chance_80", "positives score lower (shift -0.9): curve below the diagonal", seed,
        y, -0.9 * y + rng.normal(size=y.size), _weights(rng, y))

    seed = 20270108
    rng = np.random.default_rng(seed)
    y = _labels(rng, 60, 25)
    add("worse_than_chance_ties_60", "shift -0.8, integers 0..3: below the diagonal, with ties", seed,
        y, np.clip(np.round(1.5 - 0.8 * y + rng.normal(size=y.size)), 0, 3), _weights(rng, y))

    seed = 20270109
    rng = np.random.default_rng(seed)
    y = _labels(rng, 100, 40)
    top = rng.random(y.size) < 0.3
    s = np.where(y == 1, np.where(top, 2.0 + 0.5 * rng.normal(size=y.size), -0.6 + rng.normal(size=y.size)),
                 rng.normal(size=y.size))
    add("crossing_100", "30% of positives far on top, the rest below the negatives: the curve "
        "is above the diagonal at low FPR and below it at high FPR", seed,
        y, np.round(s, 2), _weights(rng, y))

    seed = 20270110
    rng = np.random.default_rng(seed)
    y = _labels(rng, 30, 12)
    s = np.where(y == 1, rng.integers(3, 5, size=y.size), rng.integers(0, 3, size=y.size))
    add("separable_ties_30", "perfect separation (positives 3..4, negatives 0..2), ties within classes",
        seed, y, s, _weights(rng, y))

    add("hand_12", "hand-written, ties across classes (the tiny_12 of inputs_sklearn.json)", None,
        [0, 0, 1, 0, 1, 1, 0, 1, 0, 0, 1, 0],
        [0.1, 0.4, 0.35, 0.8, 0.8, 0.9, 0.2, 0.4, 0.4, 0.05, 0.7, 0.6],
        [1.0, 0.5, 2.0, 0.0, 1.5, 0.25, 3.0, 1.0, 0.0, 2.5, 0.75, 1.125])

    add("all_tied_6", "every score equal: the ROC curve is the diagonal", None,
        [1, 0, 0, 1, 0, 0], [1.0] * 6, [0.5, 1.0, 0.0, 2.0, 1.5, 0.75])

    add("tiny_1pos_2neg", "1 positive, 2 negatives, the positive tied with one negative", None,
        [0, 1, 0], [0.2, 0.6, 0.6], [1.5, 0.7, 0.0])

    add("tiny_1pos_2neg_distinct", "1 positive between 2 negatives", None,
        [0, 1, 0], [0.3, 0.5, 0.7], [0.4, 2.5, 1.0])

    add("tiny_2_tied", "n = 2, the positive tied with the negative", None,
        [1, 0], [0.5, 0.5], [0.3, 2.0])

    add("tiny_2_reversed", "n = 2, the negative above the positive (AUC 0)", None,
        [1, 0], [0.1, 0.9], [1.0, 0.5])
    return out


def _roc_points(y, s):
    """Unweighted empirical ROC polyline: (0, 0), one point per distinct score from the top."""
    y = np.asarray(y)
    s = np.asarray(s)
    n_pos, n_neg = y.sum(), (1 - y).sum()
    pts = [(0.0, 0.0)]
    for t in sorted(set(s.tolist()), reverse=True):
        pts.append((((s >= t) & (y == 0)).sum() / n_neg, ((s >= t) & (y == 1)).sum() / n_pos))
    return pts


def _narrow(pts, axis):
    """A narrow range strictly inside the segment with the largest extent along axis
    (0 = FPR, 1 = TPR), preferring a diagonal (tied) segment; ends rounded to 6 decimals."""
    segs = []
    for p, q in zip(pts[:-1], pts[1:]):
        ext = q[axis] - p[axis]
        if ext > 0:
            diagonal = (q[0] - p[0]) > 0 and (q[1] - p[1]) > 0
            segs.append((diagonal, ext, p[axis], q[axis]))
    diagonal, ext, lo, hi = max(segs)
    mid = (lo + hi) / 2
    a, b = round(mid - ext / 6, 6), round(mid + ext / 6, 6)
    assert lo < a < b < hi
    return [a, b]


def main():
    out = {"numpy_version": np.__version__,
           "generator": "tests/golden/make_new_criteria_inputs.py",
           "cases": {}}
    for c in cases():
        y, s, w = np.array(c["y"]), np.array(c["s"]), np.array(c["w"])
        assert y.size == s.size == w.size and 0 < y.sum() < y.size
        assert w[y == 1].sum() > 0 and w[y == 0].sum() > 0
        pts = _roc_points(y, s)
        c["n"], c["n_pos"], c["n_neg"] = int(y.size), int(y.sum()), int(y.size - y.sum())
        c["narrow_fpr"] = _narrow(pts, 0)
        c["narrow_tpr"] = _narrow(pts, 1)
        out["cases"][c.pop("name")] = c
    with open(os.path.join(HERE, "inputs_new_criteria.json"), "w") as fh:
        json.dump(out, fh, indent=1)
        fh.write("\n")


if __name__ == "__main__":
    main()
