"""Gultekin & Paisley (2020), "Risk bounds for low cost bipartite ranking", UAI 2020 (arXiv:1912.00537), Figure 2 rerun: test AUC against the share of
training data used, on a9a, german.numer and svmguide3, for LCBR, exact BBR, the online AUC
baselines the paper ran (OAM, AdaOAM, PGD, SPAM) and rankwise's other learners.

Data from ``../shared/data`` (skipped with a message when absent): a9a with its official
train / test files; german.numer (``german.data-numeric``, positive = bad credit) and
svmguide3 (the training file) with a fresh stratified 80/20 split per run. Features are
standardised on the training part (the paper scales to [-1, 1]). Fractions of the training
part: 10%, 20%, 40%, 60%, 80%, 100% (a random stratified subset per run).

Regularisation by cross-validation: for each dataset, each learner's parameter is chosen once
by 3-fold stratified cross-validation (AUC) on the full training part of the first run, over
the grid in ``GRIDS``, and then kept for every fraction and run (re-tuning per fraction and
run is what the paper did; it multiplies the cost by the number of cells). Online learners
make one pass (the paper's setting).

Runs: ``--runs`` (default 20 for german and svmguide3, 3 for a9a; quick: 2 and 1).

Usage::

    python experiments/paper003_real.py --quick
    python experiments/paper003_real.py                # figure2.png, results.md, results.json

Seeds: run ``r`` of dataset ``k`` uses ``np.random.default_rng([seed, k, r])`` for its split and
subsets and passes ``seed + r`` as ``random_state`` to the randomised learners.
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
from _common import pyplot, write_results  # noqa: E402

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "shared", "data")
FRACTIONS = [0.1, 0.2, 0.4, 0.6, 0.8, 1.0]
#: Read off the paper's Figure 2 at 100% of the training data.
PAPER = {
    "a9a": {"LCBR": 0.900, "baselines": "0.893-0.896"},
    "german": {"LCBR": 0.80, "PGD": 0.785, "SPAM": 0.78, "AdaOAM": 0.775, "OAM": 0.755},
    "svmguide3": {"LCBR": 0.81, "SPAM": 0.725, "AdaOAM": 0.705, "PGD": 0.695, "OAM": 0.67},
}


def learners(seed):
    return {
        "LCBR (S = 5000)": (rw.LCBRRanker(n_pairs=5000, random_state=seed), "alpha", [1e-6, 1e-3, 1e-1]),
        "BBR": (rw.BBRRanker(), "alpha", [1e-6, 1e-3, 1e-1]),
        "OAM (gra)": (rw.OAM(variant="gra", random_state=seed), "C", [2.0 ** -16, 2.0 ** -12, 2.0 ** -8]),
        "AdaOAM": (rw.AdaOAM(random_state=seed), "eta", [0.003, 0.01, 0.03]),
        "PGD": (rw.PGD(random_state=seed), "mu", [3.0, 10.0, 30.0]),
        "SPAM": (rw.SPAM(random_state=seed), "C", [0.01, 0.05, 0.2]),
        "PairwiseRanker (squared hinge)": (rw.PairwiseRanker(loss="squared_hinge"), "alpha", [1e-6, 1e-4, 1e-2]),
        "ProperLossRanker (logistic)": (rw.ProperLossRanker(loss="logistic"), "alpha", [1e-6, 1e-4, 1e-2]),
    }


def load(name):
    from sklearn.datasets import load_svmlight_file

    if name == "a9a":
        tr, te = os.path.join(DATA, "libsvm", "a9a"), os.path.join(DATA, "libsvm", "a9a.t")
        if not (os.path.exists(tr) and os.path.exists(te)):
            return None
        Xtr, ytr = load_svmlight_file(tr, n_features=123)
        Xte, yte = load_svmlight_file(te, n_features=123)
        return Xtr.toarray(), (ytr > 0).astype(int), Xte.toarray(), (yte > 0).astype(int)
    if name == "german":
        path = os.path.join(DATA, "german.data-numeric")
        if not os.path.exists(path):
            return None
        M = np.loadtxt(path)
        return M[:, :-1], (M[:, -1] == 2).astype(int), None, None
    path = os.path.join(DATA, "libsvm", "svmguide3")
    if not os.path.exists(path):
        return None
    try:
        X, y = load_svmlight_file(path, n_features=21)
        X = X.toarray()
    except ValueError:  # the copy in ../shared/data is CSV with a header: label, x1..x21
        M = np.loadtxt(path, delimiter=",", skiprows=1)
        X, y = M[:, 1:], M[:, 0]
    return X, (y > 0).astype(int), None, None


def stratified_subset(y, frac, rng):
    idx = []
    for c in (0, 1):
        members = np.flatnonzero(y == c)
        k = max(2, int(round(frac * members.shape[0])))
        idx.append(rng.choice(members, size=min(k, members.shape[0]), replace=False))
    return np.sort(np.concatenate(idx))


def split(X, y, rng, test_share=0.2):
    te = stratified_subset(y, test_share, rng)
    mask = np.ones(y.shape[0], bool)
    mask[te] = False
    return X[mask], y[mask], X[te], y[te]


def tune(X, y, seed):
    from sklearn.model_selection import GridSearchCV, StratifiedKFold
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    chosen = {}
    for name, (est, param, grid) in learners(seed).items():
        pipe = make_pipeline(StandardScaler(), est)
        key = f"{pipe.steps[-1][0]}__{param}"
        gs = GridSearchCV(pipe, {key: grid}, cv=StratifiedKFold(3, shuffle=True, random_state=seed),
                          scoring=rw.scorer("auc")).fit(X, y)
        chosen[name] = {param: gs.best_params_[key], "cv_auc": float(gs.best_score_)}
    return chosen


def run(datasets, runs_small, runs_a9a, fractions, seed):
    from sklearn.preprocessing import StandardScaler

    out = {}
    for k, name in enumerate(datasets):
        data = load(name)
        if data is None:
            print(f"skipping {name}: not found under {DATA}", file=sys.stderr)
            continue
        X, y, Xte0, yte0 = data
        runs = runs_a9a if name == "a9a" else runs_small
        rng0 = np.random.default_rng([seed, k, 0])
        Xtr0, ytr0 = (X, y) if Xte0 is not None else split(X, y, rng0)[:2]
        t0 = time.perf_counter()
        chosen = tune(Xtr0, ytr0, seed)
        tune_s = time.perf_counter() - t0
        aucs = {lname: {f: [] for f in fractions} for lname in chosen}
        times = {lname: [] for lname in chosen}
        for r in range(runs):
            rng = np.random.default_rng([seed, k, r])
            if Xte0 is None:
                Xtr, ytr, Xte, yte = split(X, y, rng)
            else:
                Xtr, ytr, Xte, yte = X, y, Xte0, yte0
            for f in fractions:
                sub = stratified_subset(ytr, f, rng) if f < 1.0 else np.arange(ytr.shape[0])
                sc = StandardScaler().fit(Xtr[sub])
                A, B = sc.transform(Xtr[sub]), sc.transform(Xte)
                for lname, (est, param, _) in learners(seed + r).items():
                    est.set_params(**{param: chosen[lname][param]})
                    t1 = time.perf_counter()
                    est.fit(A, ytr[sub])
                    if f == 1.0:
                        times[lname].append(time.perf_counter() - t1)
                    aucs[lname][f].append(rw.auc(yte, est.decision_function(B)))
        out[name] = {
            "n_train": int(Xtr0.shape[0]), "runs": runs, "tuned": chosen, "tune_seconds": tune_s,
            "auc_mean": {l: {str(f): float(np.mean(v)) for f, v in d.items()} for l, d in aucs.items()},
            "auc_sd": {l: {str(f): float(np.std(v, ddof=1)) if len(v) > 1 else 0.0 for f, v in d.items()}
                       for l, d in aucs.items()},
            "fit_seconds_at_100": {l: float(np.median(v)) for l, v in times.items()},
        }
    return out


def markdown(res, settings):
    lines = [f"# Gultekin & Paisley (2020), Figure 2 rerun (seed {settings['seed']})", ""]
    for name, d in res.items():
        fr = list(next(iter(d["auc_mean"].values())).keys())
        lines += [f"## {name}: {d['n_train']} training rows, {d['runs']} runs; paper at 100%: {PAPER[name]}", "",
                  "| learner | tuned | " + " | ".join(f"{float(f):.0%}" for f in fr) + " | fit at 100% (s) |",
                  "|---|---|" + "---|" * len(fr) + "---|"]
        for l, row in d["auc_mean"].items():
            tuned = ", ".join(f"{k}={v:g}" for k, v in d["tuned"][l].items() if k != "cv_auc")
            lines.append(f"| {l} | {tuned} | " + " | ".join(
                f"{row[f]:.4f} ({d['auc_sd'][l][f]:.3f})" for f in fr) + f" | {d['fit_seconds_at_100'][l]:.3f} |")
        lines.append("")
    return "\n".join(lines)


def figure(res, out):
    plt = pyplot()

    fig, axes = plt.subplots(1, len(res), figsize=(5 * len(res), 4), constrained_layout=True, squeeze=False)
    for ax, (name, d) in zip(axes[0], res.items()):
        for l, row in d["auc_mean"].items():
            fr = [float(f) for f in row]
            ax.plot(fr, list(row.values()), "o-", ms=3, label=l)
        ax.set_title(f"{name} ({d['runs']} runs)")
        ax.set_xlabel("share of the training data")
        ax.set_ylabel("test AUC")
    axes[0][0].legend(fontsize=7)
    fig.savefig(os.path.join(out, "figure2.png"), dpi=110)
    plt.close(fig)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--runs", type=int, default=None, help="runs for german and svmguide3 (default 20)")
    ap.add_argument("--runs-a9a", type=int, default=None, help="runs for a9a (default 3)")
    ap.add_argument("--seed", type=int, default=2020)
    ap.add_argument("--out", default=os.path.join("out", "paper003_real"))
    args = ap.parse_args(argv)
    from threadpoolctl import threadpool_limits

    datasets = ["german", "svmguide3"] if args.quick else ["a9a", "german", "svmguide3"]
    fractions = [0.2, 1.0] if args.quick else FRACTIONS
    runs = args.runs or (2 if args.quick else 20)
    runs_a9a = args.runs_a9a or (1 if args.quick else 3)
    t0 = time.perf_counter()
    with threadpool_limits(1), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = run(datasets, runs, runs_a9a, fractions, args.seed)
    settings = {"seed": args.seed, "fractions": fractions, "quick": args.quick,
                "seconds": round(time.perf_counter() - t0, 1)}
    write_results(args.out, {"settings": settings, "datasets": res}, markdown(res, settings),
                  (lambda doc, out: figure(doc["datasets"], out)) if res else None, args.quick)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
