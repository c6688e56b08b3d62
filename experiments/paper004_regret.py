"""Agarwal (2014), "Surrogate regret bounds for bipartite ranking via strongly proper losses", JMLR 15: measured ranking regret against Theorem 13's bound.

For every strongly proper loss of ``rankwise.losses`` (Table 1 plus squared hinge), on three
distributions with ``eta`` in closed form (``rankwise.theory``):

* ``well-specified``: two Gaussians with a shared covariance (``BinormalShared``, d = 2,
  p = 0.3): eta is logistic-linear, so a linear scorer can be Bayes-optimal;
* ``misspecified``: two Gaussians with different covariances (``BinormalDifferent``,
  d = 2, p = 0.3): eta is logistic-quadratic, every linear scorer has positive regret;
* ``strong noise``: a single-index model with the ``"noise"`` link and noise exponent
  alpha = 0.25 (``SingleIndex``, d = 2, x Gaussian): ``P(|eta(X) - eta(x)| <= t) <= C t^0.25``,
  many pairs nearly tied in eta;

and for n in {10^2, 10^3, 10^4, 10^5}: a ``ProperLossRanker(loss)`` is fitted on a sample of
size n; its prediction ``f(x) = w^T x + b``, clipped to the loss's prediction space (the
composite loss's own prediction), is scored by its ranking regret (``dist.ranking_regret``,
exact where the theory module has a closed form, else a Monte Carlo U-statistic with its
standard error) and its surrogate regret ``E[L(eta, f)] - E[H(eta)]``
(``dist.surrogate_regret``, Monte Carlo). Theorem 13's bound
``sqrt(2) / (p (1 - p) sqrt(lambda)) sqrt(regret_surrogate)`` must hold in every cell; the
table reports the slack (bound / regret) and whether it holds with the Monte Carlo error
counted against the bound (``regret + 2 SE <= bound at surrogate regret - 2 SE``), with that
margin (the second bound over the first regret).

Low noise (Theorem 15): the exponent of the bound's rate, ``(1 + alpha)/(2 + alpha)``, is
compared with the fitted slope of log ranking regret against log surrogate regret over the
cells of a (distribution, loss), next to Theorem 13's 1/2.

Usage::

    python experiments/paper004_regret.py --quick    # n in {100, 1000}, 3 losses, small Monte Carlo
    python experiments/paper004_regret.py            # the full grid

Seeds: the training sample of cell (distribution k, n) is drawn with
``np.random.default_rng([seed, k, n])``; the Monte Carlo draws of the ranking regret with
``[seed, k, n, 1]`` and of the surrogate regret with ``[seed, k, n, 2]``.
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
from rankwise import theory


def distributions():
    return {
        "well-specified": theory.BinormalShared([1.0, 0.5], [0.0, 0.0], np.eye(2), p=0.3),
        "misspecified": theory.BinormalDifferent([1.0, 0.5], [[1.0, 0.0], [0.0, 3.0]], [0.0, 0.0], np.eye(2), p=0.3),
        "strong noise": theory.SingleIndex([1.0, 0.5], link="noise", alpha=0.25),
    }


def clipped_prediction(model, loss):
    lo, hi = loss.prediction_space

    def f(X):
        return np.clip(np.asarray(X) @ model.coef_ + model.intercept_, lo, hi)

    return f


def run(ns, losses, n_mc, seed):
    cells = []
    dists = distributions()
    for k, (dname, dist) in enumerate(dists.items()):
        p = float(dist.p)
        for n in ns:
            X, y = dist.sample(n, random_state=np.random.default_rng([seed, k, n]))
            if y.min() == y.max():
                continue
            for lname in losses:
                loss = rw.losses.get(lname)
                t0 = time.perf_counter()
                m = rw.ProperLossRanker(loss=lname).fit(X, y)
                f = clipped_prediction(m, loss)
                rr = dist.ranking_regret(f, n_mc=n_mc, random_state=np.random.default_rng([seed, k, n, 1]))
                sr = dist.surrogate_regret(f, loss, n_mc=n_mc, random_state=np.random.default_rng([seed, k, n, 2]))
                bound = float(loss.regret_bound(max(sr.value, 0.0), p))
                # The Monte Carlo error against the bound: the regret's upper end against the
                # bound at the surrogate regret's lower end.
                bound_lo = float(loss.regret_bound(max(sr.value - 2 * sr.std_error, 0.0), p))
                regret_hi = rr.value + 2 * rr.std_error
                cells.append({
                    "distribution": dname, "n": n, "loss": lname, "p": p, "lambda": loss.strong_properness,
                    "ranking_regret": rr.value, "ranking_regret_se": rr.std_error, "ranking_method": rr.method,
                    "surrogate_regret": sr.value, "surrogate_regret_se": sr.std_error, "bound": bound,
                    "slack": bound / rr.value if rr.value > 0 else float("inf"),
                    "holds": bool(rr.value <= bound), "holds_with_mc_error": bool(regret_hi <= bound_lo),
                    "bound_low": bound_lo, "strict_margin": bound_lo / regret_hi if regret_hi > 0 else float("inf"),
                    "seconds": time.perf_counter() - t0,
                })
    # Rates: slope of log ranking regret on log surrogate regret over n, per (distribution, loss).
    rates = []
    for dname, dist in dists.items():
        alpha = getattr(dist, "noise_exponent", None)
        for lname in losses:
            cs = [c for c in cells if c["distribution"] == dname and c["loss"] == lname
                  and c["ranking_regret"] > 0 and c["surrogate_regret"] > 0]
            slope = float(np.polyfit(np.log([c["surrogate_regret"] for c in cs]),
                                     np.log([c["ranking_regret"] for c in cs]), 1)[0]) if len(cs) >= 2 else None
            rates.append({"distribution": dname, "loss": lname, "alpha": alpha, "slope": slope,
                          "theorem15_exponent": None if alpha is None else (1 + alpha) / (2 + alpha)})
    return cells, rates


def markdown(res):
    st = res["settings"]
    out = [f"# Agarwal (2014): ranking regret against Theorem 13 (seed {st['seed']}, Monte Carlo n_mc = {st['n_mc']})", "",
           f"Cells: {len(res['cells'])}; bound holds in {sum(c['holds'] for c in res['cells'])}, with Monte Carlo "
           f"error against it (regret + 2 SE <= bound at surrogate regret - 2 SE) in "
           f"{sum(c['holds_with_mc_error'] for c in res['cells'])}; smallest margin of that comparison "
           f"{min(c['strict_margin'] for c in res['cells']):.3g}x.", "",
           "| distribution | n | loss | lambda | ranking regret (SE) | surrogate regret (SE) | Theorem 13 bound | bound / regret | holds | margin with MC error against the bound |",
           "|---|---|---|---|---|---|---|---|---|---|"]
    for c in res["cells"]:
        out.append(f"| {c['distribution']} | {c['n']} | {c['loss']} | {c['lambda']:g} | {c['ranking_regret']:.2e} "
                   f"({c['ranking_regret_se']:.1e}) | {c['surrogate_regret']:.2e} ({c['surrogate_regret_se']:.1e}) | "
                   f"{c['bound']:.3f} | {c['slack']:.3g} | {c['holds']} | {c['strict_margin']:.3g} |")
    out += ["", "Rates: slope of log ranking regret on log surrogate regret across n (Theorem 13: <= 1/2 "
            "is what the bound allows at worst; Theorem 15 with noise exponent alpha: (1 + alpha)/(2 + alpha)):", "",
            "| distribution | loss | noise exponent | fitted slope | Theorem 15 exponent |", "|---|---|---|---|---|"]
    for r in res["rates"]:
        slope = "-" if r["slope"] is None else f"{r['slope']:.3f}"
        t15 = "-" if r["theorem15_exponent"] is None else f"{r['theorem15_exponent']:.3f}"
        out.append(f"| {r['distribution']} | {r['loss']} | {r['alpha']} | {slope} | {t15} |")
    return "\n".join(out) + "\n"


def figure(res, out):
    plt = pyplot()

    fig, ax = plt.subplots(figsize=(6, 5), constrained_layout=True)
    markers = {"well-specified": "o", "misspecified": "s", "strong noise": "^"}
    for dname, mk in markers.items():
        cs = [c for c in res["cells"] if c["distribution"] == dname and c["ranking_regret"] > 0]
        ax.loglog([c["ranking_regret"] for c in cs], [c["bound"] for c in cs], mk, alpha=0.7, label=dname)
    lo = min(c["ranking_regret"] for c in res["cells"] if c["ranking_regret"] > 0)
    ax.loglog([lo, 1.0], [lo, 1.0], "k--", label="bound = regret")
    ax.set_xlabel("measured ranking regret")
    ax.set_ylabel("Theorem 13 bound from the measured surrogate regret")
    ax.set_title("every point above the diagonal: the bound holds")
    ax.legend(fontsize=8)
    fig.savefig(os.path.join(out, "bound_vs_regret.png"), dpi=110)
    plt.close(fig)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--seed", type=int, default=2014)
    ap.add_argument("--n-mc", type=int, default=None)
    ap.add_argument("--out", default=os.path.join("out", "paper004_regret"))
    args = ap.parse_args(argv)
    from threadpoolctl import threadpool_limits

    if args.quick:
        ns, losses, n_mc = [100, 1000], ["logistic", "exponential", "squared"], args.n_mc or 20_000
    else:
        ns, losses, n_mc = [100, 1000, 10_000, 100_000], list(rw.losses.LOSSES), args.n_mc or 400_000
    t0 = time.perf_counter()
    with threadpool_limits(1), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        cells, rates = run(ns, losses, n_mc, args.seed)
    res = {"settings": {"seed": args.seed, "ns": ns, "losses": losses, "n_mc": n_mc, "quick": args.quick,
                        "seconds": round(time.perf_counter() - t0, 1)}, "cells": cells, "rates": rates}
    write_results(args.out, res, markdown(res), figure, args.quick)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
