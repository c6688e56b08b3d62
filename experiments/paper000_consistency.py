"""W_n / n+ converges to W_phi, and eta is optimal: Clémençon & Vayatis (2008), "Empirical performance maximization for linear rank statistics", NIPS 21.

Part 1, consistency (``W_n / n+ -> W_phi`` a.s., the paper's consistency result). Binormal law in one
dimension: ``X | Y = 0 ~ N(0, 1)``, ``X | Y = 1 ~ N(delta, 1)``, ``P(Y = 1) = p``; the score
is ``s(x) = x`` (an increasing transform of ``eta``). The population value
``W_phi = E[phi(F(X)) | Y = 1] = int phi(p G(t) + (1 - p) H(t)) g(t) dt`` is a 1-D integral
(``scipy.integrate.quad``). For n from 100 to 10^5, ``R`` samples of size n (i.i.d. from
the joint law) give ``W_n / n+`` (``rw.rank_statistic(..., scale="mean")``); the table and
figure show the mean absolute error against n with the ``sqrt(n)`` envelope
``c / sqrt(n)``, and the fitted slope of log error against log n (the theory predicts -1/2).
phi: ``u`` (AUC), ``u^4`` (pooled p-norm push), ``u 1{u >= 0.9}`` (local AUC),
``(u - 0.5)_+`` (a kink).

Part 2, optimality (Proposition 7: for strictly increasing phi, increasing transforms of
eta maximise ``W_phi``). Two Gaussians in 2-D with different covariances, so that eta is
logistic-quadratic: ``W_phi`` of eta against a rich family of scorers (400 random linear
directions, 400 random quadratic forms, and 120 perturbations of eta's own quadratic
log-ratio by small random quadratics), each evaluated on one large sample
(``n = 200,000``) with its standard error from ``rw.stats.estimate`` (Hajek). The claim holds
if no scorer exceeds eta by more than two standard errors of the difference.

Usage::

    python experiments/paper000_consistency.py --quick
    python experiments/paper000_consistency.py            # full: R = 200, n up to 1e5; figure

Seeds: sample ``r`` at size ``n`` uses ``np.random.default_rng([seed, n, r])``.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
import warnings

import numpy as np
from scipy import integrate, stats

import rankwise as rw

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import pyplot, write_results  # noqa: E402

PHIS = {
    "u (AUC)": (rw.phi.auc(), lambda u: u),
    "u^4": (rw.phi.pnorm_push(4), lambda u: u ** 4),
    "u 1{u >= 0.9}": (rw.phi.local_auc(0.9), lambda u: u * (u >= 0.9)),
    "(u - 0.5)_+": (rw.phi.from_callable(lambda u: np.maximum(u - 0.5, 0.0), "kink"), lambda u: max(u - 0.5, 0.0)),
}


def w_phi_binormal(phi, delta, p):
    """int phi(F(t)) g(t) dt with F = p G + (1 - p) H, G = N(delta, 1), H = N(0, 1)."""
    def f(t):
        F = p * stats.norm.cdf(t - delta) + (1 - p) * stats.norm.cdf(t)
        return phi(F) * stats.norm.pdf(t - delta)
    # Split at the points where phi may jump (u0 = 0.9, kink at 0.5) for quad's accuracy.
    from scipy.optimize import brentq

    cuts = [brentq(lambda t: p * stats.norm.cdf(t - delta) + (1 - p) * stats.norm.cdf(t) - u, -20, 20)
            for u in (0.5, 0.9)]
    edges = [-np.inf] + cuts + [np.inf]
    return float(sum(integrate.quad(f, a, b, epsabs=1e-13, epsrel=1e-12, limit=200)[0]
                     for a, b in zip(edges[:-1], edges[1:])))


def consistency(ns, reps, seed, delta=1.0, p=0.3):
    rows = []
    truth = {name: w_phi_binormal(f, delta, p) for name, (_, f) in PHIS.items()}
    for name, (phi, _) in PHIS.items():
        errs = []
        for n in ns:
            e = []
            for r in range(reps):
                rng = np.random.default_rng([seed, n, r])
                y = rng.random(n) < p
                if y.all() or not y.any():
                    continue
                x = rng.normal(size=n) + delta * y
                e.append(rw.rank_statistic(y, x, phi, scale="mean") - truth[name])
            e = np.asarray(e)
            errs.append({"n": n, "mean_abs_error": float(np.mean(np.abs(e))), "bias": float(e.mean()),
                         "sd": float(e.std(ddof=1)), "sqrt_n_sd": float(np.sqrt(n) * e.std(ddof=1))})
        x = np.log([r["n"] for r in errs])
        yv = np.log([r["mean_abs_error"] for r in errs])
        slope = float(np.polyfit(x, yv, 1)[0])
        rows.append({"phi": name, "truth": truth[name], "by_n": errs, "slope": slope})
    return rows


def optimality(n, n_dirs, seed, p=0.4):
    rng = np.random.default_rng([seed, 7])
    mu1, cov1, cov0 = np.array([1.0, 0.5]), np.array([[1.0, 0.6], [0.6, 2.5]]), np.eye(2)
    y = rng.random(n) < p
    X = np.where(y[:, None], rng.multivariate_normal(mu1, cov1, n), rng.multivariate_normal([0, 0], cov0, n))
    log_eta = (stats.multivariate_normal(mu1, cov1).logpdf(X) - stats.multivariate_normal([0, 0], cov0).logpdf(X))
    out = []
    for name, (phi, _) in PHIS.items():
        if name == "(u - 0.5)_+":
            continue  # not strictly increasing: Proposition 7 does not apply
        scorers = [X @ rng.normal(size=2) for _ in range(n_dirs)]
        for _ in range(n_dirs):
            A = rng.normal(size=(2, 2))
            b = rng.normal(size=2)
            scorers.append(np.einsum("ij,jk,ik->i", X, A + A.T, X) + X @ b)
        # And scorers near eta: its log-ratio (a quadratic form) plus small random quadratics.
        for eps in (0.01, 0.03, 0.1):
            for _ in range(max(1, n_dirs // 10)):
                A = rng.normal(size=(2, 2))
                scorers.append(log_eta + eps * (np.einsum("ij,jk,ik->i", X, A + A.T, X) + X @ rng.normal(size=2)))
        cmp_ = rw.stats.compare(y, [log_eta] + scorers[:1], "rank_statistic", phi=phi, scale="mean")
        best = -np.inf
        best_i = None
        for i, s in enumerate(scorers):
            v = rw.rank_statistic(y, s, phi, scale="mean")
            if v > best:
                best, best_i = v, i
        c = rw.stats.compare(y, [log_eta, scorers[best_i]], "rank_statistic", phi=phi, scale="mean")
        d = c.pairs[0]
        out.append({"phi": name, "eta": float(c.values[0]), "best_other": float(c.values[1]),
                    "difference": d.difference, "std_error": d.std_error,
                    "holds": bool(d.difference > -2 * d.std_error), "n_scorers": len(scorers),
                    "eta_se": float(cmp_.std_errors[0])})
    return out


def markdown(res):
    lines = [f"# Clémençon & Vayatis (2008): consistency and optimality (seed {res['settings']['seed']}, "
             f"{res['settings']['reps']} samples per n)", "",
             "Mean |W_n / n+ - W_phi| by n (binormal, delta = 1, p = 0.3), and the fitted slope of "
             "log error on log n (theory: -0.5):", "",
             "| phi | W_phi | " + " | ".join(f"n = {r['n']}" for r in res["consistency"][0]["by_n"]) + " | slope |",
             "|---|---|" + "---|" * len(res["consistency"][0]["by_n"]) + "---|"]
    for row in res["consistency"]:
        lines.append(f"| {row['phi']} | {row['truth']:.6f} | " +
                     " | ".join(f"{r['mean_abs_error']:.2e}" for r in row["by_n"]) + f" | {row['slope']:.3f} |")
    lines += ["", "sqrt(n) x SD of W_n / n+ (stable in n if the sqrt(n) rate holds):", "",
              "| phi | " + " | ".join(f"n = {r['n']}" for r in res["consistency"][0]["by_n"]) + " |",
              "|---|" + "---|" * len(res["consistency"][0]["by_n"])]
    for row in res["consistency"]:
        lines.append(f"| {row['phi']} | " + " | ".join(f"{r['sqrt_n_sd']:.3f}" for r in row["by_n"]) + " |")
    lines += ["", f"Optimality of eta (n = {res['settings']['n_opt']}, two Gaussians with different covariances):", "",
              "| phi | W_phi(eta) | best of the family | eta - best | std. error | holds (eta - best > -2 SE) |",
              "|---|---|---|---|---|---|"]
    for o in res["optimality"]:
        lines.append(f"| {o['phi']} | {o['eta']:.5f} | {o['best_other']:.5f} (of {o['n_scorers']}) | "
                     f"{o['difference']:+.5f} | {o['std_error']:.5f} | {o['holds']} |")
    return "\n".join(lines) + "\n"


def figure(res, out):
    plt = pyplot()

    fig, ax = plt.subplots(figsize=(6, 4), constrained_layout=True)
    for row in res["consistency"]:
        ns = [r["n"] for r in row["by_n"]]
        err = [r["mean_abs_error"] for r in row["by_n"]]
        ax.loglog(ns, err, "o-", label=f"{row['phi']} (slope {row['slope']:.2f})")
    ns = np.array([r["n"] for r in res["consistency"][0]["by_n"]], dtype=float)
    ax.loglog(ns, res["consistency"][0]["by_n"][0]["mean_abs_error"] * np.sqrt(ns[0] / ns), "k--", label="c / sqrt(n)")
    ax.set_xlabel("n")
    ax.set_ylabel("mean |W_n / n+ - W_phi|")
    ax.legend(fontsize=8)
    fig.savefig(os.path.join(out, "consistency.png"), dpi=110)
    plt.close(fig)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--seed", type=int, default=2008)
    ap.add_argument("--out", default=os.path.join("out", "paper000_consistency"))
    args = ap.parse_args(argv)
    from threadpoolctl import threadpool_limits

    if args.quick:
        ns, reps, n_opt, n_dirs = [100, 1000, 10_000], 20, 20_000, 20
    else:
        ns, reps, n_opt, n_dirs = [100, 300, 1000, 3000, 10_000, 30_000, 100_000], 200, 200_000, 400
    t0 = time.perf_counter()
    with threadpool_limits(1), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = {"settings": {"seed": args.seed, "reps": reps, "ns": ns, "n_opt": n_opt, "n_dirs": n_dirs,
                            "quick": args.quick},
               "consistency": consistency(ns, reps, args.seed), "optimality": optimality(n_opt, n_dirs, args.seed)}
    res["settings"]["seconds"] = round(time.perf_counter() - t0, 1)
    write_results(args.out, res, markdown(res), figure, args.quick)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
