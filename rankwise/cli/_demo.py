"""The main job: on the embedded credit data, fit every learner and a logistic regression,
evaluate every criterion with intervals on the held-out part, compare the learners and
write the report. A thin layer over the library."""

from __future__ import annotations

import os
import time

import numpy as np

from ..io import check_output, write_atomic
from ._common import json_text
from ..metrics import evaluate, ranking_risk

#: Criteria of the main job's table: every criterion of the family.
DEMO_CRITERIA = {
    "AUC": "auc",
    "Gini (2 AUC - 1)": "gini",
    "KS statistic": "ks_statistic",
    "average precision": "average_precision",
    "partial AUC, TPR>=0.9 (McClish)": "partial_auc:min_tpr=0.9,standardize=mcclish",
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

    from ..io import CREDIT_CATEGORICAL, CREDIT_NUMERIC

    # Columns by position: load_credit_data(as_frame=False) orders them numeric first.
    num = list(range(len(CREDIT_NUMERIC)))
    cat = list(range(len(CREDIT_NUMERIC), len(CREDIT_NUMERIC) + len(CREDIT_CATEGORICAL)))
    pre = ColumnTransformer([
        ("num", make_pipeline(SimpleImputer(strategy="median"), StandardScaler()), num),
        ("cat", make_pipeline(SimpleImputer(strategy="most_frequent"),
                              OneHotEncoder(handle_unknown="ignore")), cat),
    ])
    return make_pipeline(pre, LogisticRegression(max_iter=1000))


def _learners(random_state: int) -> dict:
    """Every rankwise learner with its defaults, and scikit-learn's logistic regression."""
    from sklearn.linear_model import LogisticRegression

    from .. import learners as L

    return {
        "LogisticRegression (scikit-learn)": LogisticRegression(max_iter=1000),
        "BBRRanker": L.BBRRanker(),
        "LCBRRanker (S=5000)": L.LCBRRanker(n_pairs=5000, random_state=random_state),
        "PairwiseRanker (squared hinge)": L.PairwiseRanker(loss="squared_hinge"),
        "PairwiseRanker (logistic)": L.PairwiseRanker(loss="logistic"),
        "ProperLossRanker (logistic)": L.ProperLossRanker(loss="logistic"),
        "ProperLossRanker (exponential)": L.ProperLossRanker(loss="exponential"),
        "OAM": L.OAM(random_state=random_state),
        "AdaOAM": L.AdaOAM(random_state=random_state),
        "PGD": L.PGD(random_state=random_state),
        "SPAM": L.SPAM(random_state=random_state),
        "RankBoost (stumps)": L.RankBoost(random_state=random_state),
        "PNormPush (p=4, stumps)": L.PNormPush(p=4.0),
        # Nystrom with 500 landmarks: 1 s and the exact problem's test AUC (0.8415 against
        # 0.8404), where the exact 3,117 x 3,117 problem takes 9 s and stops on max_iter.
        "KernelRanker (rbf, Nystrom 500)": L.KernelRanker(n_components=500, random_state=random_state),
        "RankStatisticRanker (p-norm push, p=4)": L.RankStatisticRanker(phi="pnorm_push:p=4"),
    }


#: The criteria of the report and of the learners' summary table.
REPORT_CRITERIA = ["auc", "gini", "ks_statistic", "partial_auc:max_fpr=0.1,standardize=mcclish", "local_auc:top=0.1",
                   "pnorm_push:p=4", "ndcg:k=100"]


def check_writable_folder(folder: str) -> str:
    """Refuse, before any work, an output folder that cannot be written.

    The folder is made when missing, so its nearest existing ancestor is what must be a
    folder this process may write into and enter. Nothing is created or opened: only
    ``os.access`` is asked, which also says no on a read-only file system.

    Parameters
    ----------
    folder : str
        The folder the outputs go to (it need not exist yet).

    Returns
    -------
    str
        ``folder``, unchanged.

    Raises
    ------
    TypeError
        If ``folder`` is not a string or path.
    NotADirectoryError
        If its nearest existing ancestor is a file.
    PermissionError
        If that ancestor cannot be written into.
    """
    if not isinstance(folder, (str, os.PathLike)):
        raise TypeError(f"folder must be a path; got {type(folder).__name__}")
    folder = os.fspath(folder)
    where = os.path.abspath(folder)
    while not os.path.lexists(where):
        parent = os.path.dirname(where)
        if parent == where:
            break
        where = parent
    if os.path.lexists(where) and not os.path.isdir(where):
        raise NotADirectoryError(f"the output folder {folder} cannot be made: {where} is not a folder")
    flags = os.W_OK | os.X_OK
    ok = (os.access(where, flags, effective_ids=True) if os.access in os.supports_effective_ids
          else os.access(where, flags))
    if not ok:
        made = "" if where == os.path.abspath(folder) else f" (it would be made in {where})"
        raise PermissionError(f"the output folder {folder} cannot be written{made}: permission denied "
                              f"or a read-only file system")
    return folder


def demo_outputs(out_dir: str) -> list[str]:
    """Every file the demo writes in ``out_dir``: ``demo.json``, ``demo.txt``, the report
    page and its figures. The demo replaces its own files (``force``), but never a
    folder, pipe, socket or device standing at one of these names."""
    from ..report import output_paths

    return [os.path.join(out_dir, "demo.json"), os.path.join(out_dir, "demo.txt"),
            *output_paths(os.path.join(out_dir, "report.html"))]


def run_demo(out_dir: str = "out", *, test_size: float = 0.3, random_state: int = 0, quick: bool = False,
             command: str | None = None) -> dict:
    """The main job: split the credit data, fit every learner, evaluate every criterion with
    intervals on the test part, compare the learners, write ``out_dir/report.html`` (with its
    figures), ``demo.json`` and ``demo.txt``. ``quick`` uses a 900-row subsample (tests).
    ``command`` is shown in the report's header (default: this call).

    The demo owns its output folder: it replaces its own files there on every run.
    """
    import warnings

    from sklearn.model_selection import train_test_split

    from .. import stats
    from ..io import load_credit_data

    outputs = demo_outputs(out_dir)
    for path in outputs:  # before any work: never a pipe, device or folder there
        check_output(path, force=True)
    for folder in dict.fromkeys(os.path.dirname(p) for p in outputs):  # nor a folder it cannot write
        check_writable_folder(folder)
    t0 = time.perf_counter()
    X, y = load_credit_data(as_frame=False)  # no pandas needed
    if quick:
        X, _, y, _ = train_test_split(X, y, train_size=900, stratify=y, random_state=random_state)
    X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=test_size, stratify=y, random_state=random_state)
    reference = _baseline_pipeline(random_state).fit(X_tr, y_tr)
    score = reference.decision_function(X_te)
    values = evaluate(y_te, score, DEMO_CRITERIA)
    # Every learner on the same features (the reference pipeline's preprocessing).
    pre = reference[0]
    A_tr, A_te = pre.transform(X_tr), pre.transform(X_te)
    A_tr = np.asarray(A_tr.toarray() if hasattr(A_tr, "toarray") else A_tr)
    A_te = np.asarray(A_te.toarray() if hasattr(A_te, "toarray") else A_te)
    scores, fitted = {}, []
    y_tr_a, y_te_a = np.asarray(y_tr), np.asarray(y_te)
    for name, est in _learners(random_state).items():
        t1 = time.perf_counter()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            est.fit(A_tr, y_tr_a)
        fit_s = time.perf_counter() - t1
        # Probabilistic models give their probabilities (the report checks their
        # calibration too); the rankers their ranking score. Ranking criteria are the same
        # for either (an increasing map of the score).
        scores[name] = est.predict_proba(A_te)[:, 1] if hasattr(est, "predict_proba") else est.decision_function(A_te)
        fitted.append({"name": name, "params": {k: v for k, v in est.get_params().items()
                                                if isinstance(v, (int, float, str, bool, type(None)))},
                       "fit_seconds": round(fit_s, 4)})
    summary = {}
    for name, s in scores.items():
        row = {}
        for spec, e in zip(REPORT_CRITERIA, stats.iter_estimates(y_te_a, s, REPORT_CRITERIA)):  # one table
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                # The KS statistic's interval is a (seeded) bootstrap; the others are analytic.
                lo, hi = e.confidence_interval(0.95, n_resamples=1000, random_state=random_state)
            row[spec] = {"value": e.value, "low": lo, "high": hi, "method": e.method}
        summary[name] = row
    ref_name = "LogisticRegression (scikit-learn)"
    # Each learner against the reference: Holm's adjustment over those K - 1 comparisons.
    cmp_ = stats.compare(y_te_a, scores, "auc", reference=ref_name, adjust="holm")
    versus = [{"learner": p.a, "auc_minus_reference": p.difference, "std_error": p.std_error,
               "p_value": p.p_value, "p_holm": p.p_adjusted} for p in cmp_.pairs]
    report_path = os.path.join(out_dir, "report.html")
    from ..report import write_report

    write_report(report_path, title="rankwise main job: credit-risk scores (modeldata/credit_data)",
                 scores=scores, y_true=y_te_a, criteria=REPORT_CRITERIA, reference=ref_name,
                 notes=[f"modeldata/credit_data (inside rankwise), positive = defaulted loan; stratified split "
                        f"{len(y_tr)} train / {len(y_te)} test (random_state={random_state}); the report is on "
                        f"the test part" + ("; quick subsample of 900 loans" if quick else ""),
                        "features: imputed, scaled numeric columns and one-hot categorical columns",
                        "every learner with its defaults; the logistic regression is the reference; the "
                        "probabilistic models (logistic regression, proper-loss rankers) score with their "
                        "predicted probabilities, the other learners with their ranking score"],
                 data={"name": "modeldata/credit_data (inside rankwise), test part", "label": "Status",
                       "positive_label": "bad"},
                 command=command or f"rankwise.cli._demo.run_demo({out_dir!r}, random_state={random_state}"
                                    + (", quick=True)" if quick else ")"),
                 learners=fitted, random_state=random_state, force=True)
    result = {
        "dataset": "modeldata/credit_data (inside rankwise): positive = defaulted loan",
        "n_train": int(len(y_tr)),
        "n_test": int(len(y_te)),
        "test_positives": int(np.sum(y_te)),
        "scorer": "scikit-learn LogisticRegression on imputed, scaled, one-hot features",
        "criteria": {label: {"spec": spec, "value": values[label]} for label, spec in DEMO_CRITERIA.items()},
        "ranking_risk (comparable pairs)": ranking_risk(y_te, score),
        "learners": {name: {"fit_seconds": f["fit_seconds"], "criteria": summary[name]}
                     for name, f in zip(scores, fitted)},
        "versus_reference": versus,
        "versus_reference_family": cmp_.family,  # what the Holm adjustment is over
        "global_test": {"statistic": cmp_.global_statistic, "df": cmp_.global_df, "p_value": cmp_.global_p_value},
        "report": report_path,
        "random_state": random_state,
        "quick": quick,
        "seconds": round(time.perf_counter() - t0, 3),
    }
    # The demo owns its folder (documented): its own files are replaced on every run.
    write_atomic(os.path.join(out_dir, "demo.json"), json_text(result), force=True)
    write_atomic(os.path.join(out_dir, "demo.txt"), format_table(result), force=True)
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
    if result.get("learners"):
        lines += ["", "Every learner on the test part (95% intervals: DeLong for the AUC, bootstrap for KS):", ""]
        head = ["learner", "AUC [95% CI]", "Gini", "KS [95% CI]", "local AUC top 10%", "p-norm push p=4", "NDCG@100",
                "fit (s)"]
        rows = [head]
        for name, item in result["learners"].items():
            c = item["criteria"]
            a, k = c["auc"], c["ks_statistic"]
            rows.append([name, f"{a['value']:.4f} [{a['low']:.4f}, {a['high']:.4f}]", f"{c['gini']['value']:.4f}",
                         f"{k['value']:.4f} [{k['low']:.4f}, {k['high']:.4f}]",
                         f"{c['local_auc:top=0.1']['value']:.4f}", f"{c['pnorm_push:p=4']['value']:.4f}",
                         f"{c['ndcg:k=100']['value']:.4f}", f"{item['fit_seconds']:.3f}"])
        w = [max(len(r[i]) for r in rows) for i in range(len(head))]
        for j, r in enumerate(rows):
            lines.append("  ".join(x.ljust(w[i]) if i == 0 else x.rjust(w[i]) for i, x in enumerate(r)))
            if j == 0:
                lines.append("  ".join("-" * x for x in w))
        g = result["global_test"]
        lines += ["", f"all AUCs equal: chi2 = {g['statistic']:.2f}, df = {g['df']:.0f}, p = {g['p_value']:.3g}; "
                      f"against the logistic regression (Holm-adjusted p over {result['versus_reference_family']}):"]
        for v in result["versus_reference"]:
            lines.append(f"  {v['learner']}: {v['auc_minus_reference']:+.4f} (SE {v['std_error']:.4f}, p = {v['p_holm']:.3g})")
    return "\n".join(lines) + "\n"


