"""Fast rates of empirical ranking risk minimisation under a noise condition:
Clémençon, Lugosi & Vayatis (2008), "Ranking and empirical minimization of U-statistics", Annals of Statistics 36(2).

Law: ``x ~ N(0, I_2)``, ``eta(x) = G(Phi(x_1))`` with ``rankwise.theory.SingleIndex``'s noise
link, so that ``P(|eta(X) - eta(x)| <= t) <= C t^a`` with exponent ``a`` (the paper's noise
condition; ``p = 1/2``). The class of ranking rules: linear scorers ``s_v(x) = v^T x`` with ``v`` on a grid
of ``M = 720`` directions of the circle (a finite class containing the optimal direction
``w = e_1``). The empirical risk minimiser is the direction with the largest empirical AUC
(the ranking risk over comparable pairs is ``1 - AUC``).

Its excess ranking risk (the ranking regret) depends on the angle ``theta`` between ``v`` and
``w`` only, and is computed deterministically: with ``T = w^T X`` and ``S = v^T X``,
``S - S' | T - T' ~ N(cos(theta) (T - T'), 2 sin(theta)^2)``, so

``regret(theta) = E[|eta(T) - eta(T')| Phi(-|T - T'| |cot(theta)| / sqrt 2)] / (2 p (1 - p))``

over independent ``T, T' ~ N(0, 1)``, a 2-D integral on a fine grid (checked against
``SingleIndex.ranking_regret`` by Monte Carlo in the quick test).

Prediction (derived from the paper's conditions, not quoted): the noise condition with exponent ``a``
gives the variance condition with ``alpha = 2a / (1 + a)``, and the excess risk of the
minimiser over a finite class decays as ``n^(-1 / (2 - alpha))``: slope -1 for ``a = 1``,
-0.75 for ``a = 0.5``, -0.625 for ``a = 0.25``. The slow rate without a noise condition is -1/2.
The table compares the fitted slope of log mean excess risk on log n.

Usage::

    python experiments/paper001_rates.py --quick
    python experiments/paper001_rates.py                # rates.png, results.md, results.json

Seeds: replicate ``r`` at size ``n`` and exponent ``a`` uses ``np.random.default_rng([seed, n, r, int(1000 a)])``.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
import warnings

import numpy as np
from scipy import special

import rankwise as rw

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import pyplot, write_results  # noqa: E402
from rankwise import theory

M_DIRECTIONS = 720


def regret_of_angle(dist, thetas, grid=2001, lim=7.0):
    """The ranking regret of ``s_v`` at each angle ``theta`` to ``w`` (2-D quadrature)."""
    t = np.linspace(-lim, lim, grid)
    wt = np.exp(-0.5 * t * t)
    wt /= wt.sum()
    eta = dist.eta(np.c_[t, np.zeros_like(t)])
    de = np.abs(eta[:, None] - eta[None, :])
    dt = np.abs(t[:, None] - t[None, :])
    W = wt[:, None] * wt[None, :] * de
    p = float(dist.p)
    out = []
    for th in np.atleast_1d(thetas):
        s = abs(np.sin(th))
        c = abs(np.cos(th))
        if s < 1e-15:
            out.append(0.0 if np.cos(th) > 0 else float(np.sum(W)) / (2 * p * (1 - p)))
            continue
        if np.cos(th) >= 0:
            prob = special.ndtr(-dt * c / (np.sqrt(2.0) * s))
        else:
            prob = special.ndtr(dt * c / (np.sqrt(2.0) * s))
        out.append(float(np.sum(W * prob)) / (2 * p * (1 - p)))
    return np.asarray(out)


def erm_angle(X, y, angles):
    V = np.c_[np.cos(angles), np.sin(angles)]
    S = X @ V.T
    aucs = np.array([rw.auc(y, S[:, k]) for k in range(angles.shape[0])])
    return angles[int(np.argmax(aucs))]


def run(exponents, ns, reps, seed):
    angles = np.linspace(0.0, 2 * np.pi, M_DIRECTIONS, endpoint=False)
    rows = []
    for a in exponents:
        dist = theory.SingleIndex([1.0, 0.0], link="noise", alpha=a)
        alpha_var = 2 * a / (1 + a)
        by_n = []
        for n in ns:
            ex = []
            for r in range(reps):
                rng = np.random.default_rng([seed, n, r, int(1000 * a)])
                X, y = dist.sample(n, random_state=rng)
                if y.min() == y.max():
                    continue
                th = erm_angle(X, y, angles)
                ex.append(float(regret_of_angle(dist, [th])[0]))
            ex = np.asarray(ex)
            by_n.append({"n": n, "mean_excess": float(ex.mean()), "se": float(ex.std(ddof=1) / np.sqrt(len(ex))),
                         "reps": int(len(ex))})
        slope = float(np.polyfit(np.log([b["n"] for b in by_n]), np.log([b["mean_excess"] for b in by_n]), 1)[0])
        rows.append({"a": a, "alpha_variance": alpha_var, "predicted_slope": -1.0 / (2.0 - alpha_var),
                     "fitted_slope": slope, "by_n": by_n})
    return rows


def markdown(res):
    st = res["settings"]
    out = [f"# Clémençon, Lugosi & Vayatis (2008): excess ranking risk of the empirical minimiser against n "
           f"({st['reps']} replicates per cell, {M_DIRECTIONS} directions, seed {st['seed']})", "",
           "| noise exponent a | alpha = 2a/(1+a) | " + " | ".join(f"n = {b['n']}" for b in res["rows"][0]["by_n"])
           + " | fitted slope | predicted -1/(2 - alpha) |",
           "|---|---|" + "---|" * len(res["rows"][0]["by_n"]) + "---|---|"]
    for r in res["rows"]:
        out.append(f"| {r['a']:g} | {r['alpha_variance']:.3f} | " +
                   " | ".join(f"{b['mean_excess']:.2e} ({b['se']:.1e})" for b in r["by_n"]) +
                   f" | {r['fitted_slope']:.3f} | {r['predicted_slope']:.3f} |")
    return "\n".join(out) + "\n"


def figure(res, out):
    plt = pyplot()

    fig, ax = plt.subplots(figsize=(6, 4), constrained_layout=True)
    for r in res["rows"]:
        ns = np.array([b["n"] for b in r["by_n"]], dtype=float)
        ex = np.array([b["mean_excess"] for b in r["by_n"]])
        ax.loglog(ns, ex, "o-", label=f"a = {r['a']:g}: slope {r['fitted_slope']:.2f} "
                                      f"(predicted {r['predicted_slope']:.2f})")
        ax.loglog(ns, ex[0] * (ns / ns[0]) ** r["predicted_slope"], ":", color=ax.lines[-1].get_color())
    ax.set_xlabel("n")
    ax.set_ylabel("mean excess ranking risk")
    ax.legend(fontsize=8)
    fig.savefig(os.path.join(out, "rates.png"), dpi=110)
    plt.close(fig)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--reps", type=int, default=None)
    ap.add_argument("--seed", type=int, default=2008)
    ap.add_argument("--out", default=os.path.join("out", "paper001_rates"))
    args = ap.parse_args(argv)
    from threadpoolctl import threadpool_limits

    if args.quick:
        exps, ns, reps = [1.0, 0.25], [200, 2000], args.reps or 4
    else:
        exps, ns, reps = [1.0, 0.5, 0.25], [300, 1000, 3000, 10_000, 30_000], args.reps or 20
    t0 = time.perf_counter()
    with threadpool_limits(1), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        rows = run(exps, ns, reps, args.seed)
    res = {"settings": {"seed": args.seed, "reps": reps, "ns": ns, "exponents": exps, "directions": M_DIRECTIONS,
                        "quick": args.quick, "seconds": round(time.perf_counter() - t0, 1)}, "rows": rows}
    write_results(args.out, res, markdown(res), figure, args.quick)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
