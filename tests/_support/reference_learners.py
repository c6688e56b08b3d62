"""Literal definitions for the learners, for the tests only (no code shared with rankwise).

Gultekin & Paisley (2020), "Risk bounds for low cost bipartite ranking": Sigma_N and mu_N are means over every positive-negative
pair of d d^T and d = x_i - x_j (pair weight w_i w_j); BBR minimises
1/2 w^T Sigma w - mu^T w (+ alpha/2 |w|^2) over |w| <= radius.
"""

import numpy as np


def pair_moments(X, y, w=None):
    """Sigma_N, mu_N by a plain double loop over the pairs."""
    X = [list(map(float, row)) for row in X]
    n, d = len(X), len(X[0])
    w = [1.0] * n if w is None else [float(v) for v in w]
    S = [[0.0] * d for _ in range(d)]
    mu = [0.0] * d
    tot = 0.0
    for i in range(n):
        if not y[i]:
            continue
        for j in range(n):
            if y[j]:
                continue
            pw = w[i] * w[j]
            diff = [X[i][k] - X[j][k] for k in range(d)]
            for a in range(d):
                mu[a] += pw * diff[a]
                for b in range(d):
                    S[a][b] += pw * diff[a] * diff[b]
            tot += pw
    return np.array(S) / tot, np.array(mu) / tot


def bbr_solution(Sigma, mu, radius=None, alpha=0.0):
    """argmin over the ball by bisection on the multiplier nu of the ball: w(nu) solves
    (Sigma + (alpha + nu) I) w = mu; nu = 0 if that point is inside, else |w(nu)| = radius."""
    d = len(mu)
    eye = np.eye(d)

    def w_of(nu):
        return np.linalg.solve(Sigma + (alpha + nu) * eye, mu)

    if alpha > 0 or np.linalg.matrix_rank(Sigma) == d:
        w0 = w_of(0.0)
        if radius is None or np.linalg.norm(w0) <= radius:
            return w0
    lo, hi = 0.0, 1.0
    while np.linalg.norm(w_of(hi)) > radius:
        hi *= 2.0
    for _ in range(2000):
        mid = 0.5 * (lo + hi)
        if mid in (lo, hi):
            break
        if np.linalg.norm(w_of(mid)) > radius:
            lo = mid
        else:
            hi = mid
    return w_of(hi)
