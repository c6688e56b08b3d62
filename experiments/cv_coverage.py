"""Coverage of the 95% influence-curve intervals of a cross-validated AUC
(``rankwise.stats.cross_validated``; LeDell, Petersen & van der Laan 2015, "Computationally
efficient confidence intervals for cross-validated area under the ROC curve estimates",
Electronic Journal of Statistics 9) beside the naive fold-SD interval.

The model. Class sizes fixed, ``n+ = round(pi n)``, rows shuffled; ``X | Y ~ N(Y delta, I_p)``
with ``p = 10`` and ``delta = (0.7, 0.7, 0.7, 0, ..., 0)`` (the best possible AUC is
``Phi(|delta| / sqrt 2) = 0.804``). The logistic model is then well specified (two normal
classes with one covariance).

The estimator. scikit-learn's ``LogisticRegression()`` (L2 penalty, C = 1) fitted on each
training set of 10-fold ``StratifiedKFold`` (shuffled), its ``decision_function`` on the held-out
fold, and ``rw.stats.cross_validated`` on the out-of-fold scores: the mean of the 10 fold
AUCs with its influence-curve standard error (ties 1/2; the scores are continuous).

The target, as LeDell et al. define it: the mean over the folds of the true AUC of each
fold's fitted model on new data, ``psi = (1/V) sum_v AUC0(b_v)``. For a linear score
``x . b`` two normal classes with identity covariance give it exactly,
``AUC0(b) = Phi(b . delta / (sqrt 2 |b|))``; LeDell et al. estimate the same quantity on a
large independent sample, which the script does too for the first replication of every
design (200,000 rows; the largest difference is reported as ``truth_check``).

Intervals (nominal 95%): ``influence``, ``psi_hat -/+ z se`` clipped to [0, 1];
``unbiased``, the same with the standard error of ``variance="unbiased"`` (each fold's
class variances over ``n - 1``; single cross-validation only, since it refuses units spread
over folds); ``naive_t``, ``psi_hat -/+ t_{V-1} sd / sqrt V`` (``sd`` of the V fold AUCs); ``naive_z``,
the same with ``z``. Reported per design: the coverage of ``psi`` with its Monte Carlo
standard error ``sqrt(c (1 - c) / R)``, the shares of replications with the target below
and above the interval (``miss_low``, ``miss_high``), the mean width, and the
ratio of the mean standard error to the standard deviation of ``psi_hat - psi`` over the
replications.

Repeated cross-validation (``--repeats``, designs marked ``repeated``): the same data split
by ``RepeatedStratifiedKFold`` (5 x 10 folds), the mean of the 50 fold AUCs, the target the
mean of the 50 models' true AUCs; the interval ``pooled=True`` with ``ids`` the rows (each
row's five influence values summed; ``pooled``), and, for contrast, the same rows taken
as 500 x 5 independent observations (``rows_independent``).

Seeds: design ``(n, pi)`` draws from ``np.random.default_rng([seed, n, round(1000 pi)])``:
per replication the class order, ``X``, then the integer ``random_state`` of the splitter.

Usage::

    python experiments/cv_coverage.py --out experiments/results   # R = 2000 per design
    python experiments/cv_coverage.py --quick                      # R = 50, two designs
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import sys
import time
import warnings
from statistics import NormalDist

import numpy as np

import rankwise as rw
from rankwise.io import write_atomic

SEED = 2032
LEVEL = 0.95
P = 10
DELTA = np.array([0.7, 0.7, 0.7] + [0.0] * (P - 3))
V = 10
REPEATS = 5
#: (n, pi, repeated): repeated = also the 5 x 10-fold analysis.
FULL_DESIGNS = ((100, 0.5, False), (500, 0.5, True), (500, 0.1, True), (2000, 0.5, True), (2000, 0.1, False))
QUICK_DESIGNS = ((200, 0.5, True), (500, 0.2, False))
FULL_REPS = 2000
QUICK_REPS = 50
CHECK_ROWS = 200_000
INTERVALS = ("influence", "unbiased", "naive_t", "naive_z")


def norm_cdf(x):
    return 0.5 * math.erfc(-x / math.sqrt(2.0))


def true_auc(b: np.ndarray) -> float:
    """AUC of the score ``x . b`` with ``X | Y ~ N(Y delta, I)``: the score difference of a
    positive and a negative is ``N(b . delta, 2 |b|^2)``."""
    nb = float(np.linalg.norm(b))
    if nb == 0.0:
        return 0.5
    return norm_cdf(float(b @ DELTA) / (math.sqrt(2.0) * nb))


def simulate(n: int, pi: float, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    n_pos = int(round(pi * n))
    y = np.zeros(n, dtype=int)
    y[:n_pos] = 1
    y = rng.permutation(y)
    X = rng.normal(size=(n, P)) + y[:, None] * DELTA
    return X, y


def fit_folds(X, y, splitter):
    """Out-of-fold scores, fold numbers, the rows scored and each fold's coefficients."""
    from sklearn.linear_model import LogisticRegression

    S, F, R, B = [], [], [], []
    for k, (tr, te) in enumerate(splitter.split(X, y)):
        m = LogisticRegression().fit(X[tr], y[tr])
        S.append(m.decision_function(X[te]))
        F.append(np.full(te.size, k))
        R.append(te)
        B.append(m.coef_[0].copy())
    return np.concatenate(S), np.concatenate(F), np.concatenate(R), B


def intervals(res, unbiased=None, level: float = LEVEL) -> dict:
    """The intervals of one cross-validated estimate, as (low, high, se): ``influence``,
    ``naive_t``, ``naive_z``, and ``unbiased`` when the ``variance="unbiased"`` estimate of
    the same scores is given."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ic = res.confidence_interval(level)
        nt = res.confidence_interval(level, method="naive")
        ub = None if unbiased is None else unbiased.confidence_interval(level)
    z = NormalDist().inv_cdf(0.5 + level / 2.0)
    nz = (max(res.value - z * res.naive_std_error, 0.0), min(res.value + z * res.naive_std_error, 1.0))
    out = {"influence": (ic.low, ic.high, res.std_error), "naive_t": (nt.low, nt.high, res.naive_std_error),
           "naive_z": (nz[0], nz[1], res.naive_std_error)}
    if unbiased is not None:
        out["unbiased"] = (ub.low, ub.high, unbiased.std_error)
    return out


def replicate(n: int, pi: float, repeated: bool, rng: np.random.Generator, check: bool = False) -> dict:
    from sklearn.model_selection import RepeatedStratifiedKFold, StratifiedKFold

    X, y = simulate(n, pi, rng)
    state = int(rng.integers(0, 2 ** 31 - 1))
    s, f, rows, B = fit_folds(X, y, StratifiedKFold(V, shuffle=True, random_state=state))
    res = rw.stats.cross_validated(y[rows], s, f)
    unb = rw.stats.cross_validated(y[rows], s, f, variance="unbiased")
    truths = np.array([true_auc(b) for b in B])
    out = {"single": {"psi": float(truths.mean()), "value": res.value, **intervals(res, unb)}}
    if check:
        Xc, yc = simulate(CHECK_ROWS, pi, rng)
        out["truth_check"] = max(abs(rw.auc(yc, Xc @ b) - t) for b, t in zip(B, truths))
    if repeated:
        s, f, rows, B = fit_folds(X, y, RepeatedStratifiedKFold(n_splits=V, n_repeats=REPEATS, random_state=state))
        pooled = rw.stats.cross_validated(y[rows], s, f, pooled=True, ids=rows)
        naive_rows = rw.stats.cross_validated(y[rows], s, f)
        psi = float(np.mean([true_auc(b) for b in B]))
        out["pooled"] = {"psi": psi, "value": pooled.value, **intervals(pooled)}
        out["rows_independent"] = {"psi": psi, "value": naive_rows.value, **intervals(naive_rows)}
    return out


def summarise(reps: list[dict], level: float = LEVEL) -> dict:
    psi = np.array([r["psi"] for r in reps])
    val = np.array([r["value"] for r in reps])
    err = val - psi
    R = len(reps)
    out = {"reps": R, "mean_psi": float(psi.mean()), "sd_psi": float(psi.std(ddof=1)),
           "mean_estimate": float(val.mean()), "bias": float(err.mean()), "sd_error": float(err.std(ddof=1)),
           "sd_estimate": float(val.std(ddof=1)), "intervals": {}}
    for k in [k for k in INTERVALS if k in reps[0]]:
        lo = np.array([r[k][0] for r in reps])
        hi = np.array([r[k][1] for r in reps])
        se = np.array([r[k][2] for r in reps])
        c = float(np.mean((lo <= psi) & (psi <= hi)))
        out["intervals"][k] = {"coverage": c, "mc_se": math.sqrt(c * (1.0 - c) / R),
                               "miss_low": float(np.mean(psi < lo)), "miss_high": float(np.mean(psi > hi)),
                               "mean_width": float(np.mean(hi - lo)), "mean_se": float(se.mean()),
                               "se_ratio": float(se.mean() / err.std(ddof=1))}
    return out


def run_design(n: int, pi: float, repeated: bool, reps: int, seed: int = SEED) -> dict:
    if reps < 2:
        raise ValueError("reps must be at least 2")
    rng = np.random.default_rng([seed, n, int(round(1000 * pi))])
    rows = [replicate(n, pi, repeated, rng, check=(i == 0)) for i in range(reps)]
    out = {"n": n, "pi": pi, "n_pos": int(round(pi * n)), "folds": V, "truth_check": rows[0]["truth_check"],
           "analyses": {"single": summarise([r["single"] for r in rows])}}
    if repeated:
        out["repeats"] = REPEATS
        for k in ("pooled", "rows_independent"):
            out["analyses"][k] = summarise([r[k] for r in rows])
    return out


def run(designs, reps: int, seed: int = SEED) -> list[dict]:
    return [run_design(n, pi, rep, reps, seed) for n, pi, rep in designs]


def table(results: list[dict]) -> str:
    head = ("| n | pi | CV | target mean (sd) | bias | sd(est - target) | influence: coverage (MC se) | "
            "truth below / above | SE ratio | unbiased: coverage (MC se) | truth below / above | SE ratio | "
            "naive t: coverage | naive z: coverage | naive SE ratio |\n"
            "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n")
    lines = []
    names = {"single": "10-fold", "pooled": f"{REPEATS} x 10-fold, pooled",
             "rows_independent": f"{REPEATS} x 10-fold, rows independent"}
    for d in results:
        for a, s in d["analyses"].items():
            ic, nt, nz = (s["intervals"][k] for k in ("influence", "naive_t", "naive_z"))
            ub = s["intervals"].get("unbiased")
            unb = ("| | | " if ub is None else f"| {ub['coverage']:.3f} ({ub['mc_se']:.3f}) | "
                   f"{ub['miss_low']:.3f} / {ub['miss_high']:.3f} | {ub['se_ratio']:.2f} ")
            lines.append(f"| {d['n']} | {d['pi']:g} | {names[a]} | {s['mean_psi']:.4f} ({s['sd_psi']:.4f}) | "
                         f"{s['bias']:+.4f} | {s['sd_error']:.4f} | {ic['coverage']:.3f} ({ic['mc_se']:.3f}) | "
                         f"{ic['miss_low']:.3f} / {ic['miss_high']:.3f} | {ic['se_ratio']:.2f} " + unb +
                         f"| "
                         f"{nt['coverage']:.3f} ({nt['mc_se']:.3f}) | {nz['coverage']:.3f} | {nt['se_ratio']:.2f} |")
    return head + "\n".join(lines) + "\n"


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--quick", action="store_true", help=f"R = {QUICK_REPS}, designs {QUICK_DESIGNS}")
    p.add_argument("--reps", type=int, default=None, help="replications per design")
    p.add_argument("--seed", type=int, default=SEED)
    p.add_argument("--out", default=None, help="write cv_coverage.json and cv_coverage.md to this folder")
    a = p.parse_args(argv)
    designs = QUICK_DESIGNS if a.quick else FULL_DESIGNS
    reps = a.reps if a.reps is not None else (QUICK_REPS if a.quick else FULL_REPS)
    if reps < 2:
        p.error("--reps must be at least 2")
    t0 = time.perf_counter()
    results = run(designs, reps, a.seed)
    wall = time.perf_counter() - t0
    checks = max(d["truth_check"] for d in results)
    head = (f"X | Y ~ N(Y delta, I_{P}), delta = (0.7, 0.7, 0.7, 0, ...), class sizes fixed; LogisticRegression() "
            f"on {V}-fold StratifiedKFold (shuffled); target: mean over the folds of each fitted model's true AUC "
            f"(exact; against {CHECK_ROWS:,} independent rows at most {checks:.4f} apart); R = {reps} per design, "
            f"seed {a.seed}; nominal {LEVEL:.0%} intervals.\n\n")
    md = head + table(results) + f"\nwall time {wall:.1f} s\n"
    print(md)
    if a.out:
        os.makedirs(a.out, exist_ok=True)
        import sklearn

        doc = {"level": LEVEL, "p": P, "delta": DELTA.tolist(), "folds": V, "repeats": REPEATS, "seed": a.seed,
               "reps": reps, "wall_s": wall, "rankwise": rw.__version__, "python": platform.python_version(),
               "numpy": np.__version__, "sklearn": sklearn.__version__, "designs": results}
        write_atomic(os.path.join(a.out, "cv_coverage.json"), json.dumps(doc, indent=1) + "\n", force=True)
        write_atomic(os.path.join(a.out, "cv_coverage.md"), "# Cross-validated AUC coverage (issue 32)\n\n" + md,
                     force=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
