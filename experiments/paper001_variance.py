"""The variance condition measured, and the rate it predicts tested:
Clémençon, Lugosi & Vayatis (2008), "Ranking and empirical minimization of U-statistics", Annals of Statistics 36(2).

The paper's fast rate for the empirical ranking risk minimiser over a VC class is
``(V log n / n)^(1 / (2 - kappa))`` under the variance condition (its Assumption 4)
``Var(h_r) <= c Lambda(r)^kappa`` on the class, ``Lambda(r) = L(r) - L*`` the excess ranking
risk and ``h_r`` the Hoeffding projection of the excess-risk kernel. The exponent is a
property of the law *and* the class; ``rankwise.theory.variance_condition`` measures it.

**A law/class pair with kappa < 1 (derived here).** ``X ~ U[-1, 1]``,
``eta(x) = (1 + sign(x) |x|^b) / 2`` with ``b = 1/a`` (``eta`` is flat at 0: ``P(|eta(X) - 1/2| <= t)
= (2t)^a``, and the paper's moment form of the noise condition, ``E|eta(x) - eta(X)|^(-s) <= c``
for all ``x``, holds for every ``s < a`` and fails at ``s = a``, at ``x = 0``). The class: the
*window* rules ``s_tau(x) = -x`` for ``|x| <= tau``, ``x`` otherwise, ``tau in [0, 1]`` (``tau = 0``
is the Bayes rule). A member disagrees with the Bayes rule exactly on pairs inside the window,
where ``eta`` is flattest. In closed form (``p = 1/2``)

- ``Lambda(tau) = tau^(b+2) / (b+2)``;
- given ``X = x`` in the window, ``E[q | x, y=1] = (x - K(x)/2)/2`` and ``E[q | x, y=0] = -(x + K(x)/2)/2``
  with ``K(x) = 2(|x|^(b+1) - tau^(b+1))/(b+1)``, so ``Var(h_tau) = tau^3/12 + O(tau^(2b+3))``;

hence ``kappa = 3 / (b + 2) = 3a / (2a + 1)``: 1 for ``a = 1``, 0.75 for ``a = 1/2``, 0.5 for
``a = 1/4`` (above the Hölder lower bound ``2s/(1 + s) -> 2a/(1 + a)`` that the moment condition
gives). The empirical minimiser ``tau_n`` (smallest ``tau`` among the minimisers) is computed
exactly in ``O(n log n)``: pairs with both points in the window reverse as ``tau`` passes
the farther one, so the empirical risk is a cumulative sum over the points ordered by ``|x|``.

Three parts:

1. the exponent measured (with a jackknife interval) on the window class for three laws, against
   the population slope over the same members (quadrature), and on the class of
   ``paper001_rates.py`` (directions around the optimum under ``SingleIndex``'s noise link),
   where it is about 1 whatever the noise exponent;
2. the excess risk ``Lambda(tau_n)`` against ``n`` for laws with different ``kappa``; fitted slopes
   against the theorem's ``-1 / (2 - kappa)`` (the bound's ``log n`` factor left out: see
   REPRODUCTION.md);
3. the first-order bound (the paper's inequality (1) and Proposition 2 with ``psi(x) = x``):
   ``E Lambda(r_n) <= 2 E sup_r |L_n(r) - L(r)| <= 4 E R_n``, ``R_n`` the Rademacher average over
   the ``floor(n/2)`` disjoint pairs ``(X_i, X_{floor(n/2)+i})``; each side measured. Its
   high-probability form (bounded differences and Markov's inequality applied to
   ``E exp(lambda Lambda(r_n)) <= exp(4 lambda E R_n + 4 lambda^2 / (n - 1))``, lambda optimised):
   ``Lambda(r_n) <= 4 E R_n + 4 sqrt(log(1/delta) / (n - 1))`` with probability ``1 - delta``,
   against the 95% quantile of ``Lambda(r_n)``.

Usage::

    python experiments/paper001_variance.py --quick
    python experiments/paper001_variance.py              # results.md, results.json, variance.png

Seeds: the exponent sample for law ``a`` uses ``rng([seed, 1, int(1000 a)])``; replicate ``r`` at size
``n`` uses ``rng([seed, 2, n, r, int(1000 a)])`` (its Rademacher signs come from the same stream).
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time
import warnings

import numpy as np
from scipy import integrate

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import pyplot, write_results  # noqa: E402
from rankwise import theory  # noqa: E402


# -- the window law and class ---------------------------------------------------------------

def eta(x, b):
    return 0.5 * (1.0 + np.sign(x) * np.abs(x) ** b)


def window_scores(x, taus):
    """Column k: ``s_tau_k(x)`` (the window ``[-tau, tau]`` reversed)."""
    x = np.asarray(x, dtype=float)
    return np.stack([np.where(np.abs(x) <= t, -x, x) for t in np.atleast_1d(taus)], axis=1)


def excess_risk(tau, b):
    """``Lambda(tau) = E[|eta(X) - eta(X')| 1{both in the window}] = tau^(b+2) / (b+2)``."""
    return np.asarray(tau, dtype=float) ** (b + 2) / (b + 2)


def bayes_risk(b):
    """``L* = P(Z r*(X, X') < 0) = 1/4 - 1/(2(b + 2))``."""
    return 0.25 - 0.5 / (b + 2)


def variance_h(tau, b):
    """``Var(h_tau)`` by quadrature of ``E[m^2] = (1/8) int_{-tau}^{tau} x^2 + K^2/4 - K |x|^(b+1) dx``."""
    def f(x):
        K = 2.0 * (abs(x) ** (b + 1) - tau ** (b + 1)) / (b + 1)
        return x * x + 0.25 * K * K - K * abs(x) ** (b + 1)

    v = integrate.quad(f, -tau, tau, points=[0.0], epsabs=1e-15, epsrel=1e-12)[0] / 8.0
    return v - float(excess_risk(tau, b)) ** 2


def sample(n, b, rng):
    x = rng.uniform(-1.0, 1.0, n)
    y = rng.random(n) < eta(x, b)
    return x, y


def erm_path(x, y):
    """The empirical excess risk along the class: ``(edges, lam_n)`` where ``lam_n[k]`` is
    ``Lambda_n(tau)`` for ``tau in [edges[k], edges[k+1])`` (the window holds the ``k`` points
    of smallest ``|x|``). Adding point ``j`` reverses its pairs with the points already inside,
    all of which lie on one side of it: ``+1`` per pair turned wrong, ``-1`` per pair turned right."""
    n = x.size
    order = np.argsort(np.abs(x), kind="stable")
    xs, ys = x[order], y[order].astype(np.int64)
    pos_before = np.concatenate(([0], np.cumsum(ys)[:-1]))
    neg_before = np.arange(n) - pos_before
    opposite = np.where(ys == 1, neg_before, pos_before)
    delta = np.sign(xs) * (2 * ys - 1) * opposite
    cum = np.concatenate(([0], np.cumsum(delta)))
    edges = np.concatenate(([0.0], np.abs(xs), [1.0]))
    return edges, 2.0 * cum / (n * (n - 1.0))


def erm_tau(x, y, path=None):
    edges, lam_n = erm_path(x, y) if path is None else path
    return float(edges[int(np.argmin(lam_n))])


def misordered_pairs(x, y):
    """Number of (positive, negative) pairs with the positive's ``x`` below the negative's."""
    order = np.argsort(x, kind="stable")
    ys = y[order].astype(np.int64)
    neg_after = (ys == 0)[::-1].cumsum()[::-1]
    return int(np.sum(np.where(ys == 1, neg_after, 0)))


def sup_deviation(x, y, b, path=None):
    """``sup_tau |L_n(tau) - L(tau)|`` (``L`` increases in ``tau``: the sup over each piece is at an end)."""
    n = x.size
    edges, lam_n = erm_path(x, y) if path is None else path
    Ln = 2.0 * misordered_pairs(x, y) / (n * (n - 1.0)) + lam_n
    Lstar = bayes_risk(b)
    lo = Lstar + excess_risk(edges[:-1], b)
    hi = Lstar + excess_risk(np.minimum(edges[1:], 1.0), b)
    return float(np.max(np.maximum(np.abs(Ln - lo), np.abs(Ln - hi))))


def rademacher(x, y, eps):
    """``R_n = sup_tau |(1/m) sum_{i<=m} eps_i 1[Z_{i,m+i} r_tau(X_i, X_{m+i}) < 0]|``, ``m = floor(n/2)``."""
    m = x.size // 2
    x1, x2, y1, y2, e = x[:m], x[m:2 * m], y[:m], y[m:2 * m], eps[:m]
    differ = y1 != y2
    xpos = np.where(y1, x1, x2)
    xneg = np.where(y1, x2, x1)
    c0 = (differ & (xpos < xneg)).astype(float)           # wrong under the Bayes order
    flip = np.where(differ, 1.0 - 2.0 * c0, 0.0)             # change once both are in the window
    far = np.maximum(np.abs(x1), np.abs(x2))
    order = np.argsort(far, kind="stable")
    path = float(np.sum(e * c0)) + np.concatenate(([0.0], np.cumsum((e * flip)[order])))
    return float(np.max(np.abs(path))) / m


# -- part 1: the exponent ---------------------------------------------------------------------

def exponent_rows(exponents, n_est, taus, seed):
    rows = []
    for a in exponents:
        b = 1.0 / a
        rng = np.random.default_rng([seed, 1, int(1000 * a)])
        x = rng.uniform(-1.0, 1.0, n_est)
        vc = theory.variance_condition(eta(x, b), window_scores(x, taus), x)
        lam = excess_risk(taus, b)
        var = np.array([variance_h(t, b) for t in taus])
        pop = float(np.polyfit(np.log(lam), np.log(var), 1)[0])
        rows.append({"class": "window", "a": a, "n": n_est, "exponent": vc.exponent, "se": vc.std_error,
                     "ci": list(vc.confidence_interval()), "population_slope": pop,
                     "asymptotic": 3 * a / (2 * a + 1), "holder_bound": 2 * a / (1 + a),
                     "residual_sd": vc.residual_sd, "members": int(vc.used.sum())})
    return rows


def linear_class_rows(exponents, n_est, thetas, seed):
    """The class of ``paper001_rates.py``: directions at angle ``theta`` from the optimum ``e_1``
    under ``SingleIndex([1, 0], link="noise", alpha=a)``."""
    rows = []
    for a in exponents:
        dist = theory.SingleIndex([1.0, 0.0], link="noise", alpha=a)
        rng = np.random.default_rng([seed, 3, int(1000 * a)])
        X, _ = dist.sample(n_est, random_state=rng)
        S = X @ np.c_[np.cos(thetas), np.sin(thetas)].T
        vc = theory.variance_condition(dist.eta(X), S, X[:, 0])
        rows.append({"class": "directions", "a": a, "n": n_est, "exponent": vc.exponent, "se": vc.std_error,
                     "ci": list(vc.confidence_interval()), "residual_sd": vc.residual_sd,
                     "members": int(vc.used.sum())})
    return rows


# -- parts 2 and 3: rates and the first-order bound ----------------------------------------

def cell(a, n, reps, seed):
    """``reps`` replicates at size ``n`` under the law with noise exponent ``a``: the minimiser's
    excess risk, ``2 sup |L_n - L|`` and ``4 R_n`` (means and SEs), and how often (1) failed."""
    b = 1.0 / a
    ex, dev, rad = [], [], []
    for r in range(reps):
        rng = np.random.default_rng([seed, 2, n, r, int(1000 * a)])
        x, y = sample(n, b, rng)
        eps = rng.choice([-1.0, 1.0], size=n // 2)
        path = erm_path(x, y)
        ex.append(float(excess_risk(erm_tau(x, y, path), b)))
        dev.append(sup_deviation(x, y, b, path))
        rad.append(rademacher(x, y, eps))
    ex, dev, rad = np.array(ex), np.array(dev), np.array(rad)
    sq = math.sqrt(reps)
    return {"n": n, "reps": reps, "mean_excess": float(ex.mean()), "se": float(ex.std(ddof=1) / sq),
            "zero_fraction": float(np.mean(ex == 0.0)),
            "first_order_violations": int(np.sum(ex > 2 * dev)),
            "two_sup_dev": float(2 * dev.mean()), "two_sup_dev_se": float(2 * dev.std(ddof=1) / sq),
            "four_rademacher": float(4 * rad.mean()), "four_rademacher_se": float(4 * rad.std(ddof=1) / sq),
            # the high-probability form at delta = 0.05: 4 E R_n + 4 sqrt(log(1/delta) / (n - 1))
            "excess_q95": float(np.quantile(ex, 0.95)),
            "high_probability_bound": float(4 * rad.mean() + 4 * math.sqrt(math.log(20.0) / (n - 1)))}


def rate_rows(exponents, ns, reps, seed):
    rows = []
    for a in exponents:
        kappa = 3 * a / (2 * a + 1)
        by_n = [cell(a, n, reps, seed) for n in ns]
        lx = np.log([c["n"] for c in by_n])
        ly = np.log([c["mean_excess"] for c in by_n])
        rel = np.array([c["se"] / c["mean_excess"] for c in by_n])
        w = (lx - lx.mean()) / np.sum((lx - lx.mean()) ** 2)
        slope = float(np.sum(w * ly))
        rows.append({"a": a, "kappa": kappa, "predicted_slope": -1.0 / (2.0 - kappa), "fitted_slope": slope,
                     "slope_se": float(math.sqrt(np.sum(w * w * rel * rel))), "by_n": by_n})
    return rows


def markdown(res):
    st = res["settings"]
    out = [f"# Clémençon, Lugosi & Vayatis (2008): the variance condition measured (seed {st['seed']})", "",
           "## 1. The exponent kappa in Var(h_r) <= c Lambda(r)^kappa (rankwise.theory.variance_condition)", "",
           "| class | noise exponent a | n | kappa measured [95% interval] | population slope, same members | "
           "3a/(2a+1) | Hölder bound 2a/(1+a) | residual sd |",
           "|---|---|---|---|---|---|---|---|"]
    for r in res["exponent"]:
        out.append(f"| window, tau in [{st['taus'][0]:g}, {st['taus'][-1]:g}] | {r['a']:g} | {r['n']} | "
                   f"{r['exponent']:.3f} [{r['ci'][0]:.3f}, {r['ci'][1]:.3f}] | {r['population_slope']:.3f} | "
                   f"{r['asymptotic']:.3f} | {r['holder_bound']:.3f} | {r['residual_sd']:.3f} |")
    for r in res["directions"]:
        out.append(f"| directions, theta in [{st['thetas'][0]:g}, {st['thetas'][-1]:g}] rad | {r['a']:g} | "
                   f"{r['n']} | {r['exponent']:.3f} [{r['ci'][0]:.3f}, {r['ci'][1]:.3f}] | - | - | "
                   f"{2 * r['a'] / (1 + r['a']):.3f} | {r['residual_sd']:.3f} |")
    out += ["", f"## 2. Excess risk of the empirical minimiser over the window class ({st['reps']} replicates per cell)", "",
            "| a | kappa | " + " | ".join(f"n = {c['n']:,}" for c in res["rates"][0]["by_n"])
            + " | fitted slope (SE) | predicted -1/(2 - kappa) |",
            "|---|---|" + "---|" * len(res["rates"][0]["by_n"]) + "---|---|"]
    for r in res["rates"]:
        out.append(f"| {r['a']:g} | {r['kappa']:.3f} | " +
                   " | ".join(f"{c['mean_excess']:.2e} ({c['se']:.1e})" for c in r["by_n"]) +
                   f" | {r['fitted_slope']:.3f} ({r['slope_se']:.3f}) | {r['predicted_slope']:.3f} |")
    out += ["", "## 3. The first-order bound: E Lambda(r_n) <= 2 E sup|L_n - L| <= 4 E R_n", "",
            "| a | n | E Lambda(r_n) | 2 E sup abs(L_n - L) | 4 E R_n | 4 E R_n / E Lambda(r_n) | "
            "replicates with Lambda(r_n) > 2 sup abs(L_n - L) | 95% quantile of Lambda(r_n) | bound at delta = 0.05 |",
            "|---|---|---|---|---|---|---|---|---|"]
    for r in res["rates"]:
        for c in r["by_n"]:
            out.append(f"| {r['a']:g} | {c['n']:,} | {c['mean_excess']:.2e} | {c['two_sup_dev']:.2e} | "
                       f"{c['four_rademacher']:.2e} | {c['four_rademacher'] / c['mean_excess']:.0f} | "
                       f"{c['first_order_violations']} of {c['reps']} | {c['excess_q95']:.2e} | "
                       f"{c['high_probability_bound']:.2e} |")
    return "\n".join(out) + "\n"


def figure(res, out):
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(6, 4), constrained_layout=True)
    for r in res["rates"]:
        ns = np.array([c["n"] for c in r["by_n"]], dtype=float)
        ex = np.array([c["mean_excess"] for c in r["by_n"]])
        ax.loglog(ns, ex, "o-", label=f"a = {r['a']:g}, kappa = {r['kappa']:.2f}: slope {r['fitted_slope']:.2f} "
                                      f"(predicted {r['predicted_slope']:.2f})")
        ax.loglog(ns, ex[0] * (ns / ns[0]) ** r["predicted_slope"], ":", color=ax.lines[-1].get_color())
        ax.loglog(ns, [c["four_rademacher"] for c in r["by_n"]], "--", color=ax.lines[-1].get_color(), alpha=0.5)
    ax.set_xlabel("n")
    ax.set_ylabel("mean excess ranking risk (dashed: 4 E R_n)")
    ax.legend(fontsize=7)
    fig.savefig(os.path.join(out, "variance.png"), dpi=110)
    plt.close(fig)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--reps", type=int, default=None)
    ap.add_argument("--seed", type=int, default=2008)
    ap.add_argument("--out", default=os.path.join("out", "paper001_variance"))
    args = ap.parse_args(argv)
    from threadpoolctl import threadpool_limits

    taus = np.geomspace(0.1, 0.6, 8)
    thetas = np.geomspace(0.05, 0.8, 8)
    if args.quick:
        exps, n_est, ns, reps = [1.0, 0.25], 600, [500, 20_000], args.reps or 300
        lin_exps = [0.25]
    else:
        exps, n_est, ns, reps = [1.0, 0.5, 0.25], 3_000, [1_000, 10_000, 100_000], args.reps or 1000
        lin_exps = [1.0, 0.5, 0.25]
    t0 = time.perf_counter()
    with threadpool_limits(1), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ex_rows = exponent_rows(exps, n_est, taus, args.seed)
        lin_rows = linear_class_rows(lin_exps, n_est, thetas, args.seed)
        rates = rate_rows(exps, ns, reps, args.seed)
    res = {"settings": {"seed": args.seed, "reps": reps, "ns": ns, "exponents": exps, "n_exponent": n_est,
                        "taus": [round(float(t), 4) for t in taus], "thetas": [round(float(t), 4) for t in thetas],
                        "quick": args.quick, "seconds": round(time.perf_counter() - t0, 1)},
           "exponent": ex_rows, "directions": lin_rows, "rates": rates}
    write_results(args.out, res, markdown(res), figure, args.quick)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
