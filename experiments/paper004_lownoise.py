"""Agarwal (2014), "Surrogate regret bounds for bipartite ranking via strongly proper losses", JMLR 15: Theorem 15 (low noise) and the pairwise bounds, on laws with known eta.

**Theorem 15.** For alpha in ALPHAS, the law ``SingleIndex([1, 0], link="noise", alpha,
x_dist="uniform")``: x uniform on [-1, 1]^2, ``eta(x) = 1/2 + 1/2 sign(x1) |x1|^(1/alpha)``,
which satisfies ``sup_x P(|eta(X) - eta(x)| <= t) <= C t^alpha`` with exactly this alpha and
``C = 2^alpha`` (p = 1/2). The learner is logistic regression (``ProperLossRanker("logistic",
alpha=0)``) on the two features ``z = logit(eta(x))`` and ``x2``: the model
``f = a z + b x2 + c`` is well specified (``a = 1, b = c = 0`` is ``logit(eta)``, the loss's
Bayes scorer), so its logistic regret goes to 0 with n, and its ranking regret comes from
``b / a`` only (x2 carries no information). For every fitted model the exact regrets are
integrals over (x1, x1') and x2, computed by quadrature (``ranking_regret`` and
``surrogate_regret`` below; the misorder probability given x1, x1' is the closed-form tail of
``x2 - x2'``, triangular on [-2, 2]); each is computed at two grid sizes and their difference
is its error allowance. Checks: the bound with the explicit constant
(``theory.theorem15_explicit_bound``), Theorem 13's bound and
``theory.conditional_low_noise_bound`` in every cell, in the strict direction
(``regret + err <= bound(surrogate - err)``); and per alpha the OLS slope, across n, of the log mean (over
repetitions) ranking regret on the log mean surrogate regret, against Theorem 15's exponent ``(1 + alpha)/(2 + alpha)``.
Next to them: a deterministic path ``(a, b, c) = (1, g, 0)``, g -> 0, whose local slope
this family predicts as ``(1 + min(2 alpha, 1))/2`` (pairs tied within ``g`` in z have
probability ``~ g^(2 alpha)`` when the density of z is ``~ |z|^(alpha - 1)``, alpha < 1/2).

**Pairwise route.** ``PairwiseRanker(loss, alpha=0)`` for the exponential and logistic
pairwise losses, on a law where ``logit eta`` is linear (``BinormalShared``, the pairwise
Bayes scorer ``logit eta(x) - logit eta(x')`` is in the class) and one where it is not
(``BinormalDifferent``), p = 0.3, d = 2. Ranking regret exact (linear score, Gaussian class
laws); the pairwise regret on the induced pair distribution by Monte Carlo over pairs
(``theory.pairwise_surrogate_regret``). Check, strict direction:
``regret + 2 SE <= sqrt(2 (pairwise regret - 2 SE))`` (Agarwal's Eqs. 24-27) and the tighter
``psi^{-1}`` form.

Usage::

    python experiments/paper004_lownoise.py --quick    # 2 alphas, 3 n, 10 repetitions; pairwise at 2 n
    python experiments/paper004_lownoise.py            # the full grid

Seeds: the training sample of Theorem-15 cell (n, repetition r) is drawn with
``np.random.default_rng([seed, n, r])``, the same stream for every alpha (common random numbers:
the slopes of two alphas are compared on the same x draws); the pairwise cell (law k, n) with
``[seed, 100 + k, n]`` and its Monte Carlo pairs with ``[seed, 100 + k, n, 1]``.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time
import warnings

import numpy as np

import rankwise as rw

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import pyplot, write_results  # noqa: E402
from rankwise import theory

LOGISTIC_LAMBDA = 4.0   # strong properness of the logistic loss (rankwise.losses.get("logistic"))


# ----------------------------------------------------------------------------- the law

def law(alpha: float) -> theory.SingleIndex:
    return theory.SingleIndex([1.0, 0.0], link="noise", alpha=alpha, x_dist="uniform")


def _eta_z(v: np.ndarray, alpha: float):
    """eta(v) and logit(eta(v)) at x1 = v, computed from the smaller tail q = (1 - |v|^(1/alpha))/2 so
    that neither end loses digits; also q."""
    v = np.asarray(v, dtype=np.float64)
    with np.errstate(divide="ignore"):
        q = -0.5 * np.expm1(np.log(np.abs(v)) / alpha)
    q = np.where(v == 0.0, 0.5, q)
    eta = np.where(v > 0.0, 1.0 - q, q)
    z = np.sign(v) * (np.log1p(-q) - np.log(q))
    return eta, z, q


def _grid(alpha: float, m: int):
    """Midpoints v of m cells of [-1, 1], with eta(v), logit(eta(v)) and q (:func:`_eta_z`)."""
    v = -1.0 + (np.arange(m) + 0.5) * (2.0 / m)
    return (v, *_eta_z(v, alpha))


def _v_of_z(z: np.ndarray, alpha: float) -> np.ndarray:
    """The inverse of x1 -> logit(eta(x1)): 2 eta - 1 = tanh(z/2), x1 = sign(z) |tanh(z/2)|^alpha."""
    return np.sign(z) * np.abs(np.tanh(0.5 * z)) ** alpha


def features(dist: theory.SingleIndex, X: np.ndarray) -> np.ndarray:
    """(logit eta(x), x2): the well-specified logistic model's features."""
    X = np.asarray(X, dtype=np.float64)
    e = np.clip(dist.eta(X), 1e-300, 1.0 - 1e-16)
    return np.column_stack([np.log(e) - np.log1p(-e), X[:, 1]])


def _tail(t: np.ndarray) -> np.ndarray:
    """P(D > t) for D = x2 - x2', x2, x2' uniform on [-1, 1] (triangular on [-2, 2])."""
    pos = np.where(t >= 2.0, 0.0, (2.0 - np.clip(t, 0.0, 2.0)) ** 2 / 8.0)
    neg = np.where(t <= -2.0, 1.0, 1.0 - (2.0 + np.clip(t, -2.0, 0.0)) ** 2 / 8.0)
    return np.where(t >= 0.0, pos, neg)


def ranking_regret(alpha: float, a: float, b: float, m: int = 4000, k: int = 24) -> float:
    """Ranking regret of f = a z + b x2 (+ c) on law(alpha), by the regret identity

    regret = 1/(2p(1-p)) E[|eta(X) - eta(X')| (1{misordered} + 1/2 1{tied})],

    p = 1/2. For z > z' (x1 > x1'), f misorders the pair iff b (x2 - x2') < -a (z - z'), of
    probability _tail(a (z - z')/|b|), which for a > 0 vanishes once |z - z'| >= 2|b|/a. So for
    each x1 (midpoint rule, m cells) the inner integral over x1' runs over that window only,
    mapped back to x1' (:func:`_v_of_z`) and split at x1 = x1' (where |eta - eta'| has its
    kink), each side by k-node Gauss-Legendre in x1'. Other signs of a (a misordering model):
    the m x m midpoint grid."""
    if a <= 0.0 or b == 0.0:
        return _ranking_regret_grid(alpha, a, b, m)
    v, eta, z, _ = _grid(alpha, m)
    u, w = np.polynomial.legendre.leggauss(k)
    half = 2.0 * abs(b) / a
    total = 0.0
    for lo, hi in ((_v_of_z(z - half, alpha), v), (v, _v_of_z(z + half, alpha))):
        width = 0.5 * (hi - lo)
        nodes = lo[:, None] + width[:, None] * (u[None, :] + 1.0)
        e2, z2, _ = _eta_z(nodes, alpha)
        vals = np.abs(eta[:, None] - e2) * _tail(a * np.abs(z[:, None] - z2) / abs(b))
        total += float(((vals @ w) * width).sum())
    # E over x1' is (1/2) the integral; E over x1 the mean of the midpoints; 1/(2p(1-p)) = 2.
    return 2.0 * 0.5 * total / m


def _ranking_regret_grid(alpha: float, a: float, b: float, m: int) -> float:
    """The same integral on the full m x m midpoint grid (any a, b)."""
    _, eta, z, _ = _grid(alpha, m)
    total = 0.0
    for s in range(0, m, 500):
        de = np.abs(eta[s:s + 500, None] - eta[None, :])
        dz = np.abs(z[s:s + 500, None] - z[None, :])
        if b == 0.0:
            mis = np.full(dz.shape, 1.0 if a < 0 else (0.5 if a == 0 else 0.0))
        else:
            mis = _tail(a * dz / abs(b))
        total += float((de * mis).sum())
    return 2.0 * total / (m * m)


def surrogate_regret(alpha: float, a: float, b: float, c: float, m: int = 4000, k: int = 48) -> float:
    """Logistic regret E[L(eta, f) - H(eta)] of f = a z + b x2 + c on law(alpha): midpoint rule
    in x1 (m cells), Gauss-Legendre in x2 (k nodes)."""
    _, eta, z, q = _grid(alpha, m)
    u, w = np.polynomial.legendre.leggauss(k)
    f = a * z[:, None] + b * u[None, :] + c
    loss = eta[:, None] * np.logaddexp(0.0, -f) + (1.0 - eta[:, None]) * np.logaddexp(0.0, f)
    h = -(q * np.log(q) + (1.0 - q) * np.log1p(-q))
    reg = loss - h[:, None]
    return float((reg @ (w / 2.0)).mean())


def _with_error(fn, *args, m: int) -> tuple[float, float]:
    """fn at grid sizes m and m/2: (the finer value, |difference|)."""
    fine, coarse = fn(*args, m=m), fn(*args, m=m // 2)
    return fine, abs(fine - coarse)


def _slope(x, y):
    """OLS slope of log y on log x."""
    x, y = np.log(np.asarray(x)), np.log(np.asarray(y))
    return float(np.polyfit(x, y, 1)[0])


def _rate(cells):
    """Slope of log(mean ranking regret) on log(mean surrogate regret) across n, the means over
    the repetitions at each n, with a standard error by the delta method: each log mean has
    variance (sd/mean)^2/R; slope = sum_i w_i (y_i - beta x_i) + beta, w_i = (x_i - xbar)/Sxx,
    and the covariance of x_i and y_i is dropped (it is positive here, so this overstates the SE)."""
    ns = sorted({c["n"] for c in cells})
    xs, ys, vx, vy = [], [], [], []
    for n in ns:
        rr = np.array([c["ranking_regret"] for c in cells if c["n"] == n])
        sr = np.array([c["surrogate_regret"] for c in cells if c["n"] == n])
        xs.append(math.log(sr.mean()))
        ys.append(math.log(rr.mean()))
        vx.append(float(sr.var(ddof=1) / sr.mean() ** 2 / sr.size))
        vy.append(float(rr.var(ddof=1) / rr.mean() ** 2 / rr.size))
    x, y = np.array(xs), np.array(ys)
    beta = float(np.polyfit(x, y, 1)[0])
    wts = (x - x.mean()) / float(((x - x.mean()) ** 2).sum())
    se = math.sqrt(float((wts ** 2 * (np.array(vy) + beta ** 2 * np.array(vx))).sum()))
    return beta, se, {"n": ns, "mean_surrogate": np.exp(x).tolist(), "mean_ranking": np.exp(y).tolist()}


def run_theorem15(alphas, ns, reps, m, seed):
    cells, rates, paths = [], [], []
    for k, alpha in enumerate(alphas):
        dist = law(alpha)
        p, C = float(dist.p), float(dist.noise_constant)
        for n in ns:
            for r in range(reps):
                X, y = dist.sample(n, random_state=np.random.default_rng([seed, n, r]))
                model = rw.ProperLossRanker(loss="logistic", alpha=0.0).fit(features(dist, X), y)
                a, b = (float(v) for v in model.coef_)
                c = float(model.intercept_)
                rr, rr_err = _with_error(ranking_regret, alpha, a, b, m=m)
                sr, sr_err = _with_error(surrogate_regret, alpha, a, b, c, m=m)
                lo = max(sr - sr_err, 0.0)
                t15 = theory.theorem15_explicit_bound(lo, p, LOGISTIC_LAMBDA, alpha, C)
                t13 = theory.theorem13_bound(lo, p, LOGISTIC_LAMBDA)
                cond = theory.conditional_low_noise_bound(lo, p, LOGISTIC_LAMBDA, alpha, C)
                hi = rr + rr_err
                cells.append({
                    "alpha": alpha, "C": C, "n": n, "rep": r, "a": a, "b": b, "c": c,
                    "ranking_regret": rr, "ranking_err": rr_err, "surrogate_regret": sr, "surrogate_err": sr_err,
                    "theorem15_bound": t15, "theorem13_bound": t13, "conditional_bound": cond,
                    "holds15": bool(hi <= t15), "holds13": bool(hi <= t13), "holds_conditional": bool(hi <= cond),
                    "slack15": t15 / rr if rr > 0 else math.inf, "slack_conditional": cond / rr if rr > 0 else math.inf,
                })
        slope, se, means = _rate([c for c in cells if c["alpha"] == alpha])
        rates.append({"alpha": alpha, "slope": slope, "slope_se": se, "means": means,
                      "theorem15_exponent": (1 + alpha) / (2 + alpha), "conditional_exponent": (1 + alpha) / 2,
                      "path_prediction": (1 + min(2 * alpha, 1.0)) / 2})
        gs = np.geomspace(1e-3, 0.3, 12)
        pr = [ranking_regret(alpha, 1.0, g, m=m) for g in gs]
        ps = [surrogate_regret(alpha, 1.0, g, 0.0, m=m) for g in gs]
        local = _slope(ps[:4], pr[:4])
        paths.append({"alpha": alpha, "g": gs.tolist(), "ranking_regret": pr, "surrogate_regret": ps,
                      "local_slope_smallest_g": local, "path_prediction": (1 + min(2 * alpha, 1.0)) / 2})
    return cells, rates, paths


def pairwise_laws():
    return {
        "well-specified": theory.BinormalShared([1.0, 0.5], [0.0, 0.0], np.eye(2), p=0.3),
        "misspecified": theory.BinormalDifferent([1.0, 0.5], [[1.0, 0.0], [0.0, 3.0]], [0.0, 0.0], np.eye(2), p=0.3),
    }


def run_pairwise(ns, n_mc, seed):
    cells = []
    for k, (dname, dist) in enumerate(pairwise_laws().items()):
        for n in ns:
            X, y = dist.sample(n, random_state=np.random.default_rng([seed, 100 + k, n]))
            for loss in ("exponential", "logistic"):
                m = rw.PairwiseRanker(loss=loss, alpha=0.0).fit(X, y)
                score = theory.LinearScore(m.coef_, m.intercept_)
                rr = dist.ranking_regret(score)
                sr = theory.pairwise_surrogate_regret(dist, score, loss, n_mc=n_mc,
                                                      random_state=np.random.default_rng([seed, 100 + k, n, 1]))
                lo = max(sr.value - 2 * sr.std_error, 0.0)
                hi = rr.value + 2 * rr.std_error
                bound = theory.pairwise_bound(lo, loss)
                tight = theory.pairwise_bound(lo, loss, tight=True)
                cells.append({
                    "law": dname, "n": n, "loss": loss, "ranking_regret": rr.value, "ranking_se": rr.std_error,
                    "ranking_method": rr.method, "pairwise_regret": sr.value, "pairwise_se": sr.std_error,
                    "bound": bound, "tight_bound": tight, "holds": bool(hi <= bound), "holds_tight": bool(hi <= tight),
                    "slack": bound / rr.value if rr.value > 0 else math.inf,
                    "slack_tight": tight / rr.value if rr.value > 0 else math.inf,
                })
    return cells


def markdown(res):
    st = res["settings"]
    t15 = res["theorem15"]
    out = [f"# Agarwal (2014): Theorem 15 and the pairwise bounds (seed {st['seed']}, grid m = {st['m']})", "",
           f"Theorem 15 cells: {len(t15['cells'])}; strict direction (regret + quadrature error <= bound at "
           f"surrogate - error): Theorem 15 (explicit C_alpha) holds in {sum(c['holds15'] for c in t15['cells'])}, "
           f"Theorem 13 in {sum(c['holds13'] for c in t15['cells'])}, the conditional bound in "
           f"{sum(c['holds_conditional'] for c in t15['cells'])}. Smallest bound / regret: Theorem 15 "
           f"{min(c['slack15'] for c in t15['cells']):.3g}, conditional "
           f"{min(c['slack_conditional'] for c in t15['cells']):.3g}.", "",
           "| alpha | slope across n (SE) | Theorem 15 exponent (1+a)/(2+a) | conditional (1+a)/2 | path prediction | path local slope |",
           "|---|---|---|---|---|---|"]
    for r, pth in zip(t15["rates"], t15["paths"]):
        out.append(f"| {r['alpha']:g} | {r['slope']:.3f} ({r['slope_se']:.3f}) | "
                   f"{r['theorem15_exponent']:.3f} | {r['conditional_exponent']:.3f} | {r['path_prediction']:.3f} | "
                   f"{pth['local_slope_smallest_g']:.3f} |")
    out += ["", "| alpha | n | rep | b/a | ranking regret (err) | logistic regret (err) | Thm 15 bound | Thm 13 bound | conditional bound |",
            "|---|---|---|---|---|---|---|---|---|"]
    for c in t15["cells"]:
        out.append(f"| {c['alpha']:g} | {c['n']} | {c['rep']} | {c['b'] / c['a']:.2e} | {c['ranking_regret']:.3e} "
                   f"({c['ranking_err']:.1e}) | {c['surrogate_regret']:.3e} ({c['surrogate_err']:.1e}) | "
                   f"{c['theorem15_bound']:.3g} | {c['theorem13_bound']:.3g} | {c['conditional_bound']:.3g} |")
    pw = res["pairwise"]
    out += ["", f"Pairwise cells: {len(pw)}; sqrt(2 z) bound holds (strict, 2 SE) in {sum(c['holds'] for c in pw)}, "
            f"psi^-1 bound in {sum(c['holds_tight'] for c in pw)}. Smallest bound / regret: sqrt(2 z) "
            f"{min(c['slack'] for c in pw):.3g}, psi^-1 {min(c['slack_tight'] for c in pw):.3g}.", "",
            "| law | n | loss | ranking regret | pairwise regret (SE) | sqrt(2 z) bound | psi^-1 bound | bound / regret |",
            "|---|---|---|---|---|---|---|---|"]
    for c in pw:
        out.append(f"| {c['law']} | {c['n']} | {c['loss']} | {c['ranking_regret']:.3e} | {c['pairwise_regret']:.3e} "
                   f"({c['pairwise_se']:.1e}) | {c['bound']:.3g} | {c['tight_bound']:.3g} | {c['slack']:.3g} |")
    return "\n".join(out) + "\n"


def figure(res, out):
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(6, 5), constrained_layout=True)
    for r in res["theorem15"]["rates"]:
        cs = [c for c in res["theorem15"]["cells"] if c["alpha"] == r["alpha"]]
        ax.loglog([c["surrogate_regret"] for c in cs], [c["ranking_regret"] for c in cs], "o", alpha=0.6,
                  label=f"alpha = {r['alpha']:g}: slope {r['slope']:.2f} (Thm 15: {r['theorem15_exponent']:.2f})")
    ax.set_xlabel("logistic regret (exact)")
    ax.set_ylabel("ranking regret (exact)")
    ax.legend(fontsize=8)
    fig.savefig(os.path.join(out, "lownoise_rates.png"), dpi=110)
    plt.close(fig)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--seed", type=int, default=2014)
    ap.add_argument("--out", default=os.path.join("out", "paper004_lownoise"))
    args = ap.parse_args(argv)
    from threadpoolctl import threadpool_limits

    if args.quick:
        alphas, ns, reps, m = [0.1, 1.0], [1000, 10_000, 100_000], 10, 2000
        pw_ns, n_mc = [300, 3000], 50_000
    else:
        alphas, ns, reps, m = [0.1, 0.25, 0.5, 1.0], [1000, 3000, 10_000, 30_000, 100_000, 300_000], 20, 4000
        pw_ns, n_mc = [100, 1000, 10_000], 400_000
    t0 = time.perf_counter()
    with threadpool_limits(1), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        cells, rates, paths = run_theorem15(alphas, ns, reps, m, args.seed)
        pw = run_pairwise(pw_ns, n_mc, args.seed)
    res = {"settings": {"seed": args.seed, "alphas": alphas, "ns": ns, "reps": reps, "m": m, "pairwise_ns": pw_ns,
                        "n_mc": n_mc, "quick": args.quick, "seconds": round(time.perf_counter() - t0, 1)},
           "theorem15": {"cells": cells, "rates": rates, "paths": paths}, "pairwise": pw}
    write_results(args.out, res, markdown(res), figure, args.quick)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
