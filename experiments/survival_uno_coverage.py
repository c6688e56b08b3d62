"""Coverage of the 95% interval of Uno's concordance (``rw.survival.estimate(...,
weighting="uno", tau=tau)``, infinitesimal jackknife with the censoring weights held
fixed, as R survival's ``concordance(..., timewt = "n/G2")``) and of Harrell's C (issue 30).

The model. A covariate ``x ~ N(0, 1)`` is the risk score; the event time is exponential
with rate ``exp(x)`` (a higher risk, an earlier event); the censoring time is exponential
with a rate set for 30% or 60% censored rows, independent of both. ``tau`` is fixed per
design at the time where 10% of the follow-ups are still running (so G(tau) stays away
from 0).

The estimand of Uno's C is the truncated concordance of the population,

    C_tau = P(x_i > x_j | T_i < T_j, T_i <= tau),

free of the censoring; it is computed once per design by Monte Carlo on 4 million
independent pairs of uncensored times (Monte Carlo SE below 3e-4). Harrell's C converges
to a value that depends on the censoring: its interval is scored against the mean of its
own estimates over a large run (the "plug-in" check of its variance only).

Usage: python experiments/survival_uno_coverage.py [--reps 1000] [--n 300] [--seed 30]
It prints, per censoring level: the coverage of C_tau by Uno's 95% interval with its
Monte Carlo SE, misses below/above, the mean SE against the SD of the estimates, the bias;
and the same for Harrell's C against the mean of its estimates (a check of its SE).
"""

from __future__ import annotations

import argparse
import time as _time
import warnings

import numpy as np

import rankwise as rw


def draw(rng, n, cens_rate):
    x = rng.normal(size=n)
    t = rng.exponential(1.0 / np.exp(x))
    c = rng.exponential(1.0 / cens_rate, size=n) if cens_rate > 0 else np.full(n, np.inf)
    obs = np.minimum(t, c)
    return obs, t <= c, x


def censoring_rate_for(share, rng, m=400_000):
    """The exponential censoring rate that censors ``share`` of the rows (bisection on a
    fixed Monte Carlo sample)."""
    x = rng.normal(size=m)
    t = rng.exponential(1.0 / np.exp(x))
    u = rng.exponential(size=m)  # c = u / rate
    lo, hi = 1e-4, 50.0
    for _ in range(60):
        mid = np.sqrt(lo * hi)
        if np.mean(u / mid < t) < share:
            lo = mid
        else:
            hi = mid
    return float(np.sqrt(lo * hi))


def tau_for(cens_rate, rng, m=400_000, still=0.10):
    obs, _, _ = draw(rng, m, cens_rate)
    return float(np.quantile(obs, 1.0 - still))


def truth_c_tau(tau, rng, pairs=4_000_000):
    xi, xj = rng.normal(size=pairs), rng.normal(size=pairs)
    ti, tj = rng.exponential(1.0 / np.exp(xi)), rng.exponential(1.0 / np.exp(xj))
    # both orders of each pair: (i earlier) and (j earlier)
    a = (ti < tj) & (ti <= tau)
    b = (tj < ti) & (tj <= tau)
    num = np.sum(a & (xi > xj)) + np.sum(b & (xj > xi))
    return float(num / (a.sum() + b.sum()))


def run(reps, n, seed):
    rng = np.random.default_rng(seed)
    z = 1.959963984540054
    print(f"n = {n}, {reps} replications, seed {seed}; x ~ N(0,1), T ~ Exp(rate exp(x)), C ~ Exp(rate lambda)")
    out = {}
    for share in (0.3, 0.6):
        lam = censoring_rate_for(share, rng)
        tau = tau_for(lam, rng)
        truth = truth_c_tau(tau, rng)
        t0 = _time.perf_counter()
        uno, harrell = [], []
        realised = []
        for _ in range(reps):
            obs, ev, x = draw(rng, n, lam)
            realised.append(1 - ev.mean())
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                u = rw.survival.estimate(obs, ev, x, weighting="uno", tau=min(tau, obs.max()))
                h = rw.survival.estimate(obs, ev, x)
            uno.append((u.value, u.std_error))
            harrell.append((h.value, h.std_error))
        secs = _time.perf_counter() - t0
        print(f"\ncensoring {share:.0%} (realised {np.mean(realised):.1%}), lambda = {lam:.4f}, tau = {tau:.4f} "
              f"(10% still followed), C_tau = {truth:.4f}; {secs:.1f} s")
        for name, est, target in (("Uno, tau", np.array(uno), truth),
                                  ("Harrell (vs mean)", np.array(harrell), None)):
            v, se = est[:, 0], est[:, 1]
            tgt = float(v.mean()) if target is None else target
            below = np.mean(v + z * se < tgt)
            above = np.mean(v - z * se > tgt)
            cov = 1 - below - above
            mc = np.sqrt(cov * (1 - cov) / reps)
            out[(share, name.split()[0].strip(","))] = {"coverage": float(cov), "se_ratio":
                                                         float(se.mean() / v.std(ddof=1)), "truth": tgt}
            print(f"  {name:18s} coverage {cov:.3f} (MC SE {mc:.3f}; misses: interval below {below:.3f}, "
                  f"above {above:.3f}); mean SE / SD = {se.mean():.4f} / {v.std(ddof=1):.4f} = "
                  f"{se.mean() / v.std(ddof=1):.3f}; bias {v.mean() - tgt:+.4f}")
    return out


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--reps", type=int, default=1000)
    p.add_argument("--n", type=int, default=300)
    p.add_argument("--seed", type=int, default=30)
    a = p.parse_args()
    run(a.reps, a.n, a.seed)


if __name__ == "__main__":
    main()
