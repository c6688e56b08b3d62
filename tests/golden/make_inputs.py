"""Seeded inputs for the golden-value fixtures, and scikit-learn's values on them.

Run once (``python tests/golden/make_inputs.py``), then ``Rscript tests/golden/make_proc.R``;
both write JSON next to this file, which the tests read. CI needs neither R nor this script.
Versions used are recorded in the JSON.
"""

import json
import zlib
import os

import numpy as np
import sklearn
from sklearn.metrics import dcg_score, ndcg_score, roc_auc_score, roc_curve

HERE = os.path.dirname(os.path.abspath(__file__))


def cases():
    rng = np.random.default_rng(20261130)
    out = {}
    # continuous, no ties
    y = (rng.random(300) < 0.3).astype(int)
    out["continuous_300"] = (y, (y * 0.8 + rng.normal(size=300)).tolist())
    # heavy ties: one decimal
    y = (rng.random(500) < 0.4).astype(int)
    out["ties_1dp_500"] = (y, np.round(y * 0.5 + rng.normal(size=500), 1).tolist())
    # very heavy ties: 6 levels
    y = (rng.random(400) < 0.25).astype(int)
    out["ties_6levels_400"] = (y, np.clip(np.round(y + rng.normal(size=400)), -2, 3).tolist())
    # tiny, with ties
    out["tiny_12"] = (np.array([0, 0, 1, 0, 1, 1, 0, 1, 0, 0, 1, 0]),
                      [0.1, 0.4, 0.35, 0.8, 0.8, 0.9, 0.2, 0.4, 0.4, 0.05, 0.7, 0.6])
    # rare positives, two decimals
    y = (rng.random(1000) < 0.1).astype(int)
    out["rare_1000"] = (y, np.round(y * 1.0 + rng.normal(size=1000), 2).tolist())
    return out


def main():
    data = {"sklearn_version": sklearn.__version__, "cases": {}}
    for name, (y, s) in cases().items():
        y = np.asarray(y)
        s_arr = np.asarray(s)
        w = np.random.default_rng(zlib.crc32(name.encode())).uniform(0.2, 3.0, size=y.size).round(3)
        fpr, tpr, thr = roc_curve(y, s_arr, drop_intermediate=False)
        d = {
            "y": y.tolist(),
            "s": s_arr.tolist(),
            "w": w.tolist(),
            "sklearn": {
                "roc_auc_score(y, s)": roc_auc_score(y, s_arr),
                "roc_auc_score(y, s, sample_weight=w)": roc_auc_score(y, s_arr, sample_weight=w),
                "roc_curve(y, s, drop_intermediate=False)": {"fpr": fpr.tolist(), "tpr": tpr.tolist(),
                                                             "thresholds": thr[1:].tolist()},
                "dcg_score([y], [s])": dcg_score([y], [s_arr]),
                "dcg_score([y], [s], k=10)": dcg_score([y], [s_arr], k=10),
                "ndcg_score([y], [s])": ndcg_score([y], [s_arr]),
                "ndcg_score([y], [s], k=10)": ndcg_score([y], [s_arr], k=10),
            },
        }
        for m in (0.05, 0.1, 0.3, 0.5):
            d["sklearn"][f"roc_auc_score(y, s, max_fpr={m})"] = roc_auc_score(y, s_arr, max_fpr=m)
            d["sklearn"][f"roc_auc_score(y, s, max_fpr={m}, sample_weight=w)"] = roc_auc_score(
                y, s_arr, max_fpr=m, sample_weight=w)
        data["cases"][name] = d
    with open(os.path.join(HERE, "inputs_sklearn.json"), "w") as fh:
        json.dump(data, fh, indent=1)
        fh.write("\n")


if __name__ == "__main__":
    main()
