"""Literal definitions for Agarwal (2014)'s pairwise route on a finite law: the induced pair
distribution by enumerating the rejection sampler, ranking and pairwise errors by enumerating
pairs, and Bayes risks as literal infima. O(k^2) (O(k^2) calls to a scalar minimiser for the
Bayes phi-risk); the fast code in rankwise.theory is checked against these.

A finite law: points 0..k-1 with probabilities ``pi`` and class probabilities ``eta``;
a scorer: values ``s`` at the points. Labels y in {0, 1} (1 = positive)."""

from __future__ import annotations

import math

import numpy as np
from scipy.optimize import minimize_scalar


def pair_law(pi, eta):
    """The pair distribution of the rejection sampler: draw (i, y), (j, y') independently, keep
    y != y', X~ = (i, j), Y~ = +1 if y = 1. Returns (mass[i, j] = P(X~ = (i, j)),
    pos[i, j] = P(X~ = (i, j), Y~ = +1)), summed literally over the four label pairs."""
    k = len(pi)
    mass = np.zeros((k, k))
    pos = np.zeros((k, k))
    kept = 0.0
    for i in range(k):
        for j in range(k):
            for y in (0, 1):
                for y2 in (0, 1):
                    pr = pi[i] * pi[j] * (eta[i] if y else 1 - eta[i]) * (eta[j] if y2 else 1 - eta[j])
                    if y == y2:
                        continue
                    kept += pr
                    mass[i, j] += pr
                    if y == 1:
                        pos[i, j] += pr
    return mass / kept, pos / kept


def ranking_error(pi, eta, s):
    """Definition (1): P(misordered) + 1/2 P(tied) given Y != Y', by enumerating (i, y, j, y')."""
    num = den = 0.0
    for i in range(len(pi)):
        for j in range(len(pi)):
            for y in (0, 1):
                for y2 in (0, 1):
                    if y == y2:
                        continue
                    pr = pi[i] * pi[j] * (eta[i] if y else 1 - eta[i]) * (eta[j] if y2 else 1 - eta[j])
                    den += pr
                    d = (y - y2) * (s[i] - s[j])
                    num += pr * ((1.0 if d < 0 else 0.0) + (0.5 if s[i] == s[j] else 0.0))
    return num / den


def bayes_ranking_error(pi, eta):
    """Formula (3): 1/(2p(1-p)) E[min(eta(X)(1 - eta(X')), eta(X')(1 - eta(X)))]."""
    p = float(np.dot(pi, eta))
    tot = sum(pi[i] * pi[j] * min(eta[i] * (1 - eta[j]), eta[j] * (1 - eta[i]))
              for i in range(len(pi)) for j in range(len(pi)))
    return tot / (2 * p * (1 - p))


def pair_01_regret(pi, eta, s):
    """0-1 regret on the pair law of h(i, j) = sign(s_i - s_j), sign(0) = -1, against the Bayes
    pair classifier (min(eta~, 1 - eta~) per pair)."""
    mass, pos = pair_law(pi, eta)
    err = bayes = 0.0
    for i in range(len(pi)):
        for j in range(len(pi)):
            h = 1 if s[i] - s[j] > 0 else -1
            err += (mass[i, j] - pos[i, j]) if h == 1 else pos[i, j]
            bayes += min(pos[i, j], mass[i, j] - pos[i, j])
    return err - bayes


def phi(name, u):
    return math.exp(-u) if name == "exponential" else math.log1p(math.exp(-u)) if u > -30 else -u


def conditional_bayes(name, q):
    """inf over u of q phi(u) + (1 - q) phi(-u), literally (a bounded scalar minimisation;
    q in {0, 1}: the infimum 0, approached as u -> +-infinity)."""
    if q <= 0.0 or q >= 1.0:
        return 0.0
    res = minimize_scalar(lambda u: q * phi(name, u) + (1 - q) * phi(name, -u), bounds=(-60.0, 60.0),
                          method="bounded", options={"xatol": 1e-12})
    return float(res.fun)


def pair_phi_regret(name, pi, eta, s):
    """phi-regret on the pair law of the pair function s_i - s_j, against the best function of
    pairs (the conditional Bayes risk at each pair's eta~)."""
    mass, pos = pair_law(pi, eta)
    risk = bayes = 0.0
    for i in range(len(pi)):
        for j in range(len(pi)):
            if mass[i, j] == 0.0:
                continue
            d = s[i] - s[j]
            risk += pos[i, j] * phi(name, d) + (mass[i, j] - pos[i, j]) * phi(name, -d)
            bayes += mass[i, j] * conditional_bayes(name, pos[i, j] / mass[i, j])
    return risk - bayes


def psi(name, theta):
    """The psi-transform phi(0) - inf_u L((1 + theta)/2, u) of a convex margin loss, literally."""
    return phi(name, 0.0) - conditional_bayes(name, (1.0 + theta) / 2.0)
