"""Golden values from scikit-learn / SciPy for the new criteria: average precision, the
precision-recall curve, Gini (from roc_auc_score) and the Kolmogorov-Smirnov statistic.

Run from the project root after ``make_new_criteria_inputs.py``::

    python tests/golden/make_sklearn_new.py   # reads inputs_new_criteria.json, writes sklearn_new.json

Every value is stored under the exact Python expression that produced it (``y``, ``s``,
``w`` are the case's arrays as numpy arrays; ``pos = s[y == 1]``, ``neg = s[y == 0]``),
and the package versions are recorded. CI needs neither this script nor its inputs'
generator: the JSON is committed.
"""

import json
import os

import numpy as np
import scipy
import sklearn
from scipy.stats import ks_2samp
from sklearn.metrics import average_precision_score, precision_recall_curve, roc_auc_score, roc_curve

HERE = os.path.dirname(os.path.abspath(__file__))

# Each scalar expression is evaluated as written (eval), so the key is the call that ran.
SCALARS = [
    "average_precision_score(y, s)",
    "average_precision_score(y, s, sample_weight=w)",
    "2 * roc_auc_score(y, s) - 1",
    "2 * roc_auc_score(y, s, sample_weight=w) - 1",
    "ks_2samp(pos, neg).statistic",
]
# KS from the ROC curve: max |tpr - fpr| over every threshold (drop_intermediate=False keeps
# them all; the first point, threshold +inf, is (0, 0)). The key is the call; the max is
# taken by max_abs_tpr_minus_fpr below.
ROC_KS = [
    "roc_curve(y, s, drop_intermediate=False)",
    "roc_curve(y, s, sample_weight=w, drop_intermediate=False)",
]
# ks_2samp takes no weights; its statistic does not depend on its method / alternative
# defaults ('auto', 'two-sided'). Curves are stored as precision, recall, thresholds.
CURVES = [
    "precision_recall_curve(y, s, drop_intermediate=False)",
    "precision_recall_curve(y, s, sample_weight=w, drop_intermediate=False)",
    "precision_recall_curve(y, s, drop_intermediate=True)",
    "precision_recall_curve(y, s, sample_weight=w, drop_intermediate=True)",
]


def max_abs_tpr_minus_fpr(fpr, tpr, thresholds):
    return float(np.max(np.abs(tpr - fpr)))


def main():
    inp = json.load(open(os.path.join(HERE, "inputs_new_criteria.json")))
    out = {
        "sklearn_version": sklearn.__version__,
        "scipy_version": scipy.__version__,
        "numpy_version": np.__version__,
        "input": "tests/golden/inputs_new_criteria.json",
        "generator": "tests/golden/make_sklearn_new.py",
        "names": {"y": "np.asarray(case['y'])", "s": "np.asarray(case['s'], dtype=float)",
                  "w": "np.asarray(case['w'], dtype=float)", "pos": "s[y == 1]", "neg": "s[y == 0]"},
        "curve_fields": ["precision", "recall", "thresholds"],
        "cases": {},
    }
    for name, case in inp["cases"].items():
        env = dict(np=np, average_precision_score=average_precision_score, roc_auc_score=roc_auc_score,
                   roc_curve=roc_curve, precision_recall_curve=precision_recall_curve, ks_2samp=ks_2samp)
        y = np.asarray(case["y"])
        s = np.asarray(case["s"], dtype=float)
        env.update(y=y, s=s, w=np.asarray(case["w"], dtype=float), pos=s[y == 1], neg=s[y == 0])
        res = {}
        for expr in SCALARS:
            res[expr] = float(eval(expr, env))
        for expr in ROC_KS:
            res[f"max_abs_tpr_minus_fpr(*{expr})"] = max_abs_tpr_minus_fpr(*eval(expr, env))
        for expr in CURVES:
            p, r, t = eval(expr, env)
            res[expr] = {"precision": p.tolist(), "recall": r.tolist(), "thresholds": t.tolist()}
        out["cases"][name] = res
    with open(os.path.join(HERE, "sklearn_new.json"), "w") as fh:
        json.dump(out, fh, indent=1)
        fh.write("\n")


if __name__ == "__main__":
    main()
