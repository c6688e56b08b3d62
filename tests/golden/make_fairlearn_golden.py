"""Golden values from fairlearn's ``MetricFrame`` with scikit-learn's ``roc_auc_score``: the
AUC of every group (fairlearn's ``by_group``), on all rows (``overall``), and the between-group
summaries ``group_min``, ``group_max``, ``difference`` and ``ratio``, for
``rw.stats.by_group`` and ``rw.bias_aucs`` to be checked against
(tests/metrics/test_groups_fairlearn.py).

Run from the project root, with fairlearn installed::

    python tests/golden/make_fairlearn_golden.py   # writes tests/golden/fairlearn_golden.json

The cases are generated here from fixed numpy seeds (:func:`make_cases`; small, at most 300
rows, so their inputs are stored in the JSON beside the outputs): integer groups with
float scores (no ties), string groups with scores on a coarse grid (many ties, across
groups too), frequency-like float weights passed through ``sample_params``, groups of very
unequal size (one with 3 positives), and a group with one class only (fairlearn: nan, with
scikit-learn's warning). The exact call, and the fairlearn, scikit-learn, pandas and numpy
versions, are recorded. CI needs neither fairlearn nor this script: the JSON is committed.
"""

from __future__ import annotations

import json
import math
import os
import warnings

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "fairlearn_golden.json")

CALL = "MetricFrame(metrics=roc_auc_score, y_true=y, y_pred=s, sensitive_features=g)"
CALL_WEIGHTED = ("MetricFrame(metrics=roc_auc_score, y_true=y, y_pred=s, sensitive_features=g, "
                 "sample_params={'sample_weight': w})")


def make_cases() -> list[dict]:
    """The cases: ``name``, ``description``, ``y`` (0/1 ints), ``s`` (floats), ``g`` (ints
    or strings) and ``w`` (floats, or None); plain Python lists, as stored in the JSON."""
    cases = []

    # 1. Integer groups, float scores without ties, binormal, group-dependent separation.
    rng = np.random.default_rng(2901)
    n = 200
    g = rng.integers(0, 4, size=n)
    y = (rng.random(n) < 0.35).astype(int)
    s = rng.normal(size=n) + (0.5 + 0.3 * g) * y
    cases.append(dict(name="int_groups_untied", description="4 integer groups, binormal float scores, no ties",
                      y=y, s=s, g=g, w=None))

    # 2. String groups, scores on a grid of 0.1 (ties within and across groups and classes).
    rng = np.random.default_rng(2902)
    n = 250
    labels = np.array(["female", "male", "nonbinary"])
    g = labels[rng.choice(3, size=n, p=[0.45, 0.45, 0.10])]
    y = (rng.random(n) < 0.4).astype(int)
    s = np.round(np.clip(rng.normal(size=n) * 0.25 + 0.4 + 0.2 * y, 0.0, 1.0), 1)
    cases.append(dict(name="string_groups_tied", description="3 string groups, scores rounded to 0.1 (heavy ties)",
                      y=y, s=s, g=g, w=None))

    # 3. Weights through sample_params; scores with some ties (2 decimals).
    rng = np.random.default_rng(2903)
    n = 240
    g = np.array(["a", "b", "c", "d"])[rng.integers(0, 4, size=n)]
    y = (rng.random(n) < 0.3).astype(int)
    s = np.round(rng.normal(size=n) + 0.8 * y, 2)
    w = np.round(rng.uniform(0.2, 3.0, size=n), 3)
    cases.append(dict(name="weighted", description="4 string groups, weights uniform on [0.2, 3] (3 decimals), "
                      "scores rounded to 0.01", y=y, s=s, g=g, w=w))

    # 4. Very unequal groups: one group of 12 rows with 3 positives.
    rng = np.random.default_rng(2904)
    sizes = {"large": 180, "medium": 60, "small": 12}
    g = np.concatenate([np.full(k, name) for name, k in sizes.items()])
    y = (rng.random(g.shape[0]) < 0.3).astype(int)
    y[g == "small"] = [1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0]
    s = rng.normal(size=g.shape[0]) + 1.0 * y
    perm = rng.permutation(g.shape[0])
    cases.append(dict(name="unequal_groups", description="groups of 180, 60 and 12 rows (the small one: 3 positives), "
                      "rows shuffled", y=y[perm], s=s[perm], g=g[perm], w=None))

    # 5. A group with one class only: fairlearn gives nan for it.
    rng = np.random.default_rng(2905)
    n = 120
    g = rng.integers(0, 3, size=n)
    y = (rng.random(n) < 0.5).astype(int)
    y[g == 2] = 0
    s = rng.normal(size=n) + 0.7 * y
    cases.append(dict(name="one_class_group", description="3 integer groups; group 2 holds negatives only",
                      y=y, s=s, g=g, w=None))

    out = []
    for c in cases:
        out.append({
            "name": c["name"],
            "description": c["description"],
            "y": [int(v) for v in c["y"]],
            "s": [float(v) for v in c["s"]],
            "g": [v.item() if hasattr(v, "item") else v for v in c["g"]],
            "w": None if c["w"] is None else [float(v) for v in c["w"]],
        })
    return out


def _num(v) -> float | None:
    v = float(v)
    return None if math.isnan(v) else v


def _dumps(doc: dict) -> str:
    """JSON with one line per top-level key and per case field (the arrays on one line each)."""
    def one(v):
        return json.dumps(v, allow_nan=False, ensure_ascii=False)

    lines = ["{"]
    for i, (key, val) in enumerate(doc.items()):
        end = "," if i < len(doc) - 1 else ""
        if key != "cases":
            lines.append(f" {one(key)}: {one(val)}{end}")
            continue
        lines.append(f' {one(key)}: [')
        for j, case in enumerate(val):
            lines.append("  {")
            for k, (ck, cv) in enumerate(case.items()):
                lines.append(f"   {one(ck)}: {one(cv)}{',' if k < len(case) - 1 else ''}")
            lines.append("  }" + ("," if j < len(val) - 1 else ""))
        lines.append(" ]" + end)
    lines.append("}")
    return "\n".join(lines) + "\n"


def main() -> None:
    import fairlearn
    import pandas
    import sklearn
    from fairlearn.metrics import MetricFrame
    from sklearn.metrics import roc_auc_score

    records = []
    for case in make_cases():
        y, s, g = np.array(case["y"]), np.array(case["s"]), np.array(case["g"], dtype=object)
        g = g.astype(type(case["g"][0]))
        kw = {} if case["w"] is None else {"sample_params": {"sample_weight": np.array(case["w"])}}
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # scikit-learn's warning for the one-class group
            mf = MetricFrame(metrics=roc_auc_score, y_true=y, y_pred=s, sensitive_features=g, **kw)
        by = mf.by_group
        records.append({
            **case,
            "call": CALL if case["w"] is None else CALL_WEIGHTED,
            "overall": _num(mf.overall),
            "by_group": [[k.item() if hasattr(k, "item") else k, _num(v)] for k, v in by.items()],
            "group_min": _num(mf.group_min()),
            "group_max": _num(mf.group_max()),
            "difference": _num(mf.difference()),
            "ratio": _num(mf.ratio()),
        })
    doc = {
        "fairlearn_version": fairlearn.__version__,
        "sklearn_version": sklearn.__version__,
        "pandas_version": pandas.__version__,
        "numpy_version": np.__version__,
        "generator": "tests/golden/make_fairlearn_golden.py",
        "note": ("y, s, g, w: the inputs (w None: unweighted). by_group: [group, AUC] in fairlearn's order, "
                 "null for nan. group_min, group_max, difference (between_groups) and ratio are fairlearn's "
                 "defaults, which skip nan groups. from fairlearn.metrics import MetricFrame; "
                 "from sklearn.metrics import roc_auc_score."),
        "cases": records,
    }
    with open(OUT, "w") as fh:
        fh.write(_dumps(doc))
    print(f"wrote {OUT}: {len(records)} cases")


if __name__ == "__main__":
    main()
