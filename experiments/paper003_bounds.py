"""Gultekin & Paisley (2020), "Risk bounds for low cost bipartite ranking", UAI 2020: Theorems 1
and 3 against the excess risk of BBR and LCBR on a law whose population risk is known exactly.

The law: D = 2, class 1 at ``m1 + u`` and class 0 at ``m0 + u``, ``u`` uniform on the square
``[-a, a]^2`` (m1 = (0.3, 0.1), m0 = -m1, a = 0.5), so every input satisfies
``||x|| <= X* = ||m1|| + a sqrt(2)``; the ball ``||w|| <= W* = 1``. The population risk of the
pairwise squared loss is ``R(w) = 1/2 w' Sigma w - mu' w + 1/2`` with ``mu = m1 - m0`` and
``Sigma = 2 (a^2 / 3) I + mu mu'``; its minimiser over the ball, ``w*``, lies on the sphere
(the unconstrained minimiser has norm 1.12), so the ball binds. The excess risk
``R(w) - R(w*)`` of a fitted ``w`` is exact.

For each N (balanced classes, rho = 1/2) and ``delta = 0.05``:

* Theorem 1 (BBR, ``rw.BBRRanker(radius=W*, alpha=0)``): ``eps_1(N)``, the smallest eps at which
  ``rankwise.theory.bbr_tail_bound`` (covering number of the ball,
  ``ball_covering_number``) is ``delta``; against it the measured 1 - delta quantile of BBR's
  excess risk over the replicates and the share of replicates with excess risk >= eps_1.
* Theorem 3 (LCBR, ``rw.LCBRRanker(n_pairs=S, radius=W*, alpha=0)``): ``p* = delta / 2`` and
  ``eps_3(N)``, the smallest eps at which the rest of ``lcbr_tail_bound`` is ``delta / 2``; S is
  ``lcbr_sample_size(eps_3, p*, D, ||Sigma_N||, X*, W*)`` with the replicate's own
  ``||Sigma_N||``; against eps_3 the measured quantile and share for LCBR with that S.

Both theorems must hold (share <= delta, with three Monte Carlo standard errors). What the
run shows beyond that is the size of the gap: the bounds are non-vacuous only from N of
about 10^5, where the measured excess risk is tens of thousands of times smaller than eps, so this
experiment cannot tell a right constant from a wrong one (the constants of Theorem 2's sample
size are checked against simulated deviations in ``tests/theory/test_theory_lcbr_bounds.py``).

Usage::

    python experiments/paper003_bounds.py --quick   # N = 10^5, 40 replicates
    python experiments/paper003_bounds.py           # N in {10^5, 3 10^5, 10^6}, 100 replicates

Seeds: replicate r at sample size N draws its sample with ``np.random.default_rng([seed, N, r])``
and LCBR's pairs with ``[seed, N, r, 1]``.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time
import warnings

import numpy as np
from scipy.optimize import brentq

import rankwise as rw
from rankwise import theory
from rankwise.learners._bbr import solve_trust_region

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import write_results  # noqa: E402

M1 = np.array([0.3, 0.1])
A = 0.5
W_STAR = 1.0
D = 2
DELTA = 0.05


def law():
    m1, m0 = M1, -M1
    corners = np.array([[s1 * A, s2 * A] for s1 in (-1, 1) for s2 in (-1, 1)])
    x_star = float(max(np.linalg.norm(m + corners, axis=1).max() for m in (m1, m0)))
    mu = m1 - m0
    Sigma = 2.0 * (A * A / 3.0) * np.eye(D) + np.outer(mu, mu)
    w_star, _ = solve_trust_region(Sigma, mu, W_STAR)
    return {"m1": m1, "m0": m0, "X_star": x_star, "mu": mu, "Sigma": Sigma, "w_star": w_star,
            "w_unconstrained_norm": float(np.linalg.norm(np.linalg.solve(Sigma, mu)))}


def risk(L, w):
    w = np.asarray(w, dtype=np.float64)
    return 0.5 * w @ L["Sigma"] @ w - L["mu"] @ w + 0.5


def sample(L, N, rng):
    n1 = N // 2
    X = np.concatenate([L["m1"] + rng.uniform(-A, A, size=(n1, D)), L["m0"] + rng.uniform(-A, A, size=(N - n1, D))])
    y = np.r_[np.ones(n1, dtype=int), np.zeros(N - n1, dtype=int)]
    return X, y


def eps_for(log_bound, target):
    """The smallest eps at which a decreasing log-bound function equals log(target)."""
    f = lambda e: log_bound(e) - math.log(target)  # noqa: E731
    return brentq(f, 1e-6, 1e2, xtol=1e-12, rtol=1e-10)


def theorem_eps(L, N):
    rho, X = 0.5, L["X_star"]
    cover = lambda r: theory.ball_covering_number(r, D, W_STAR, log=True)  # noqa: E731
    eps1 = eps_for(lambda e: math.log(max(theory.bbr_tail_bound(e, N, rho, X, W_STAR, cover, log_covering=True),
                                          1e-300)), DELTA)
    # lcbr_tail_bound adds p*; the rest is bbr's form with 10 C1 and 50 C2^2: p* tiny gives it.
    tiny = 1e-300

    def log_rest(e):
        return math.log(max(theory.lcbr_tail_bound(e, N, rho, X, W_STAR, cover, tiny, log_covering=True) - tiny, 1e-300))

    eps3 = eps_for(log_rest, DELTA / 2)
    return eps1, eps3


def pair_sigma_norm(X, y):
    pos, neg = X[y == 1], X[y == 0]
    m1, m0 = pos.mean(0), neg.mean(0)
    M1, M0 = pos.T @ pos / len(pos), neg.T @ neg / len(neg)
    S = M1 + M0 - np.outer(m1, m0) - np.outer(m0, m1)
    return float(np.linalg.norm(S, 2))


def run(ns, reps, seed):
    L = law()
    r_star = risk(L, L["w_star"])
    cells = []
    for N in ns:
        eps1, eps3 = theorem_eps(L, N)
        bbr, lcbr, sizes = [], [], []
        t0 = time.perf_counter()
        for r in range(reps):
            X, y = sample(L, N, np.random.default_rng([seed, N, r]))
            m = rw.BBRRanker(radius=W_STAR, alpha=0.0).fit(X, y)
            bbr.append(risk(L, m.coef_) - r_star)
            S = math.ceil(theory.lcbr_sample_size(eps3, DELTA / 2, D, pair_sigma_norm(X, y), L["X_star"], W_STAR))
            sizes.append(S)
            m = rw.LCBRRanker(n_pairs=S, radius=W_STAR, alpha=0.0, random_state=np.random.default_rng([seed, N, r, 1])).fit(X, y)
            lcbr.append(risk(L, m.coef_) - r_star)
        bbr, lcbr = np.array(bbr), np.array(lcbr)
        q = 1 - DELTA
        cells.append({
            "N": N, "reps": reps, "eps_theorem1": eps1, "eps_theorem3": eps3,
            "S_min": int(min(sizes)), "S_max": int(max(sizes)),
            "bbr_mean": float(bbr.mean()), "bbr_quantile": float(np.quantile(bbr, q)),
            "bbr_share_above_eps": float(np.mean(bbr >= eps1)), "bbr_min": float(bbr.min()),
            "lcbr_mean": float(lcbr.mean()), "lcbr_quantile": float(np.quantile(lcbr, q)),
            "lcbr_share_above_eps": float(np.mean(lcbr >= eps3)), "lcbr_min": float(lcbr.min()),
            "ratio_theorem1": eps1 / float(np.quantile(bbr, q)),
            "ratio_theorem3": eps3 / float(np.quantile(lcbr, q)),
            "seconds": time.perf_counter() - t0,
        })
    info = {"X_star": L["X_star"], "W_star": W_STAR, "w_star": L["w_star"].tolist(),
            "w_star_norm": float(np.linalg.norm(L["w_star"])), "w_unconstrained_norm": L["w_unconstrained_norm"],
            "R_star": r_star, "R_zero": risk(L, np.zeros(D)), "delta": DELTA}
    return info, cells


def mc_check(seed, n=1_000_000):
    """The closed-form risk against the mean pair loss of independent pairs, at w* and at a
    second w: (value, mean, standard error) each."""
    L = law()
    rng = np.random.default_rng([seed, 0])
    x1 = L["m1"] + rng.uniform(-A, A, size=(n, D))
    x0 = L["m0"] + rng.uniform(-A, A, size=(n, D))
    out = []
    for w in (L["w_star"], np.array([0.2, -0.7])):
        loss = 0.5 * (1.0 - (x1 - x0) @ w) ** 2
        out.append((float(risk(L, w)), float(loss.mean()), float(loss.std(ddof=1) / math.sqrt(n))))
    return out


def exact_linear_failure(S, threshold):
    """On the +-1 sample of ``theorem2_table`` (X* = W* = 1): P(2 W* ||mu_S - mu_N|| >= threshold)
    exactly, since S mu_S = 2B - 2S with B ~ Binomial(2S, 1/2)."""
    from scipy import stats

    k = np.arange(2 * S + 1)
    hit = 2.0 * np.abs(2.0 * k - 2.0 * S) / S >= threshold * (1 - 1e-12)
    return float(stats.binom.pmf(k[hit], 2 * S, 0.5).sum())


def theorem2_table(seed, reps=20_000, eps=1.0):
    """Theorem 2's two terms against LCBR subsamples of a sample with D = 1, X* = W* = 1, 50 + 50
    inputs at +-1 (half each; Sigma_N = 2, mu_N = 0): the failure frequency of each term's
    promise (sup deviation >= eps/2) over ``reps`` subsamples at delta = 0.05, and the exact
    failure probability of the linear term's promise at the derived S, at S/4 (Lemma 2(ii) as
    printed) and at S/16 (the restatement's constant)."""
    x = np.repeat([1.0, -1.0], 25)
    rows = []
    for delta in (0.05, 1e-3, 1e-6, 1e-9):
        quad, lin = theory.lcbr_subsample_size(eps, delta, 1, 2.0, 1.0, 1.0, terms=True)
        row = {"delta": delta, "S_quadratic": math.ceil(quad), "S_linear": math.ceil(lin),
               "exact_linear": exact_linear_failure(math.ceil(lin), eps / 2),
               "exact_linear_printed": exact_linear_failure(math.ceil(lin / 4), eps / 2),
               "exact_linear_restated": exact_linear_failure(math.ceil(lin / 16), eps / 2)}
        if delta == 0.05:
            rng = np.random.default_rng([seed, 2])
            for name, S in (("quadratic", row["S_quadratic"]), ("linear", row["S_linear"]),
                            ("linear_restated", math.ceil(lin / 16))):
                z = x[rng.integers(0, 50, size=(reps, S))] - x[rng.integers(0, 50, size=(reps, S))]
                dev = np.abs((z * z).mean(1) - 2.0) if name == "quadratic" else 2.0 * np.abs(z.mean(1))
                row[f"simulated_{name}"] = float(np.mean(dev >= eps / 2))
            row["reps"] = reps
        rows.append(row)
    return rows


def printed_lemma_check(S=400):
    """Lemma 2(ii) as printed, 2 exp(-(u - 1)^2 / 2) with u = eps sqrt(S) / (2 X* W*), and with the
    pair differences' radius 2X* (u / 2 in place of u), against the exact probability on the
    +-1 sample, at u = 5, 6, 7."""
    rows = []
    for u in (5.0, 6.0, 7.0):
        eps = 2.0 * u / math.sqrt(S)
        rows.append({"S": S, "u": u, "exact": exact_linear_failure(S, eps),
                     "printed": 2.0 * math.exp(-0.5 * (u - 1.0) ** 2),
                     "radius_2x": 2.0 * math.exp(-0.5 * (u / 2.0 - 1.0) ** 2)})
    return rows


def markdown(res):
    i = res["info"]
    out = [f"# Gultekin & Paisley (2020): Theorems 1 and 3 against simulated excess risk (seed {res['settings']['seed']})", "",
           f"X* = {i['X_star']:.4f}, W* = {i['W_star']:g}, ||w*|| = {i['w_star_norm']:.4f} (unconstrained minimiser's "
           f"norm {i['w_unconstrained_norm']:.4f}: the ball binds); R(w*) = {i['R_star']:.5f}, R(0) = {i['R_zero']:.2f}; "
           f"delta = {i['delta']}.", "",
           "Closed-form risk against the mean pair loss of 1,000,000 independent pairs: " + "; ".join(
               f"{v:.5f} against {m:.5f} (SE {s:.5f})" for v, m, s in res["mc_check"]) + ".", "",
           "| N | replicates | Theorem 1 eps (bound = delta) | BBR excess risk: mean, 95% quantile | share >= eps | eps / quantile | "
           "Theorem 3 eps (p* = delta/2) | S (Theorem 3) | LCBR excess risk: mean, 95% quantile | share >= eps | eps / quantile |",
           "|---|---|---|---|---|---|---|---|---|---|---|"]
    for c in res["cells"]:
        out.append(f"| {c['N']:,} | {c['reps']} | {c['eps_theorem1']:.4f} | {c['bbr_mean']:.2e}, {c['bbr_quantile']:.2e} | "
                   f"{c['bbr_share_above_eps']:.3f} | {c['ratio_theorem1']:.3g} | {c['eps_theorem3']:.4f} | "
                   f"{c['S_min']:,}-{c['S_max']:,} | {c['lcbr_mean']:.2e}, {c['lcbr_quantile']:.2e} | "
                   f"{c['lcbr_share_above_eps']:.3f} | {c['ratio_theorem3']:.3g} |")
    out += ["", "Theorem 2's terms (eps = 1) on 50 + 50 inputs at +-1 (D = 1, X* = W* = 1, Sigma_N = 2): the failure "
            "probability of each term's promise (sup deviation >= eps/2), which must be <= delta/2.", "",
            "| delta | S quadratic | S linear | simulated failure: quadratic, linear (subsamples) | exact linear failure at S | "
            "at S/4 (printed Lemma 2(ii)) | at S/16 (restated constant) | delta/2 |", "|---|---|---|---|---|---|---|---|"]
    for r in res["theorem2"]:
        sim = (f"{r['simulated_quadratic']:.4f}, {r['simulated_linear']:.4f} ({r['reps']:,}; at S/16: "
               f"{r['simulated_linear_restated']:.4f})" if "reps" in r else "-")
        out.append(f"| {r['delta']:g} | {r['S_quadratic']:,} | {r['S_linear']:,} | {sim} | {r['exact_linear']:.2e} | "
                   f"{r['exact_linear_printed']:.2e} | {r['exact_linear_restated']:.2e} | {r['delta'] / 2:.1e} |")
    out += ["", "Lemma 2(ii) on the same sample at S = 400: P(sup |Delta_sigma| >= eps), u = eps sqrt(S) / (2 X* W*).", "",
            "| u | exact | printed bound | bound with radius 2X* |", "|---|---|---|---|"]
    for r in res["printed_lemma"]:
        out.append(f"| {r['u']:g} | {r['exact']:.2e} | {r['printed']:.2e} | {r['radius_2x']:.2e} |")
    return "\n".join(out) + "\n"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--seed", type=int, default=2020)
    ap.add_argument("--out", default=os.path.join("out", "paper003_bounds"))
    args = ap.parse_args(argv)
    from threadpoolctl import threadpool_limits

    ns, reps = ([100_000], 40) if args.quick else ([100_000, 300_000, 1_000_000], 100)
    t0 = time.perf_counter()
    with threadpool_limits(1), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        info, cells = run(ns, reps, args.seed)
        check = mc_check(args.seed)
        t2 = theorem2_table(args.seed, reps=2_000 if args.quick else 20_000)
    res = {"settings": {"seed": args.seed, "ns": ns, "reps": reps, "quick": args.quick,
                        "seconds": round(time.perf_counter() - t0, 1)},
           "info": info, "mc_check": check, "cells": cells, "theorem2": t2,
           "printed_lemma": printed_lemma_check()}
    write_results(args.out, res, markdown(res), None, args.quick)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
