"""Literal definitions of Agarwal's (2014) losses and bounds, for the tests only.

Written from Agarwal (2014), "Surrogate regret bounds for bipartite ranking via strongly
proper losses", JMLR 15 (Table 1; Theorems 13 and 15; Kotlowski et al.'s balanced losses) with scalar Python and ``math``, sharing no
code with ``rankwise.losses._proper``: agreement between the two means something.
Labels here are -1 / +1; predictions lie in the prediction space (callers clip).
"""

from __future__ import annotations

import math

INF = math.inf

# name: (prediction space, lambda)
SPACE = {
    "exponential": (-INF, INF),
    "logistic": (-INF, INF),
    "squared": (-1.0, 1.0),
    "squared_hinge": (-1.0, 1.0),
    "spherical": (0.0, 1.0),
    "canonical_exponential": (-INF, INF),
    "canonical_squared": (-1.0, 1.0),
    "canonical_spherical": (-1.0, 1.0),
}

LAMBDA = {
    "exponential": 4.0,
    "logistic": 4.0,
    "squared": 8.0,
    "squared_hinge": 8.0,
    "spherical": 1.0,
    "canonical_exponential": 4.0,
    "canonical_squared": 2.0,
    "canonical_spherical": 1.0,
}

NAMES = tuple(SPACE)


def clip(name, v):
    lo, hi = SPACE[name]
    return min(max(v, lo), hi)


# --- Table 1: l(y, yhat) ------------------------------------------------------


def loss(name, y, v):
    """l(y, yhat) exactly as printed in Table 1, y in {-1, +1}."""
    assert y in (-1, 1)
    if name == "exponential":
        return math.exp(-y * v)
    if name == "logistic":
        return math.log(1.0 + math.exp(-y * v))
    if name == "squared":
        return (1.0 - y * v) ** 2
    if name == "squared_hinge":
        return max(0.0, 1.0 - y * v) ** 2
    if name == "spherical":
        e = v
        norm = math.sqrt(e * e + (1.0 - e) * (1.0 - e))
        return 1.0 - e / norm if y == 1 else 1.0 - (1.0 - e) / norm
    if name == "canonical_exponential":
        return math.sqrt(1.0 + (v / 2.0) ** 2) - y * v / 2.0
    if name == "canonical_squared":
        return 0.25 * (1.0 - y * v) ** 2
    if name == "canonical_spherical":
        return 1.0 - 0.5 * (math.sqrt(2.0 - v * v) + y * v)
    raise KeyError(name)


def link(name, eta):
    """psi(eta) of Table 1."""
    if name == "exponential":
        return 0.5 * math.log(eta / (1.0 - eta))
    if name == "logistic":
        return math.log(eta / (1.0 - eta))
    if name in ("squared", "squared_hinge", "canonical_squared"):
        return 2.0 * eta - 1.0
    if name == "spherical":
        return eta
    if name == "canonical_exponential":
        return (2.0 * eta - 1.0) / math.sqrt(eta * (1.0 - eta))
    if name == "canonical_spherical":
        return (2.0 * eta - 1.0) / math.sqrt(eta * eta + (1.0 - eta) ** 2)
    raise KeyError(name)


def bayes_risk(name, eta):
    """H(eta): the four of Agarwal (2014)'s Table 1, the others derived (H of a proper composite
    loss is the Bayes risk of its proper loss; the canonical ones share their proper
    loss's H up to the scale of the loss)."""
    if name in ("exponential", "canonical_exponential"):
        return 2.0 * math.sqrt(eta * (1.0 - eta))
    if name == "logistic":
        h = 0.0
        for q in (eta, 1.0 - eta):
            if q > 0.0:
                h -= q * math.log(q)
        return h
    if name in ("squared", "squared_hinge"):
        return 4.0 * eta * (1.0 - eta)
    if name == "canonical_squared":
        return eta * (1.0 - eta)
    if name in ("spherical", "canonical_spherical"):
        return 1.0 - math.sqrt(eta * eta + (1.0 - eta) ** 2)
    raise KeyError(name)


def conditional_risk(name, eta, v):
    """eta l(1, yhat) + (1 - eta) l(-1, yhat), yhat clipped to the space."""
    v = clip(name, v)
    return eta * loss(name, 1, v) + (1.0 - eta) * loss(name, -1, v)


# --- bounds -------------------------------------------------------------------


def regret_bound(lam, regret, p):
    """Theorem 13: sqrt(2) / (p (1-p) sqrt(lambda)) sqrt(regret)."""
    return math.sqrt(2.0) / (p * (1.0 - p) * math.sqrt(lam)) * math.sqrt(regret)


def low_noise_bound(lam, regret, p, alpha, c_alpha):
    """Theorem 15: C_alpha / (p(1-p)) (2/lambda)^((1+a)/(2+a)) regret^((1+a)/(2+a))."""
    e = (1.0 + alpha) / (2.0 + alpha)
    return c_alpha / (p * (1.0 - p)) * (2.0 / lam) ** e * regret**e


def balanced_bound(name, regret):
    """Kotlowski et al.: 3/sqrt(2) sqrt(regret_exp,bal), 2 sqrt(regret_log,bal)."""
    return {"exponential": 3.0 / math.sqrt(2.0), "logistic": 2.0}[name] * math.sqrt(regret)


# --- a discrete distribution: ranking regret and surrogate regrets -------------


def ranking_regret(px, eta, f):
    """regret_rank[f] = 1/(2p(1-p)) sum_{x, x'} P(x) P(x') |eta(x) - eta(x')|
    (1((f(x) - f(x'))(eta(x) - eta(x')) < 0) + 1/2 1(f(x) = f(x'))), Agarwal (2014)."""
    p = sum(a * e for a, e in zip(px, eta))
    total = 0.0
    for i in range(len(px)):
        for j in range(len(px)):
            d = eta[i] - eta[j]
            wrong = 1.0 if (f[i] - f[j]) * d < 0 else 0.0
            tie = 0.5 if f[i] == f[j] else 0.0
            total += px[i] * px[j] * abs(d) * (wrong + tie)
    return total / (2.0 * p * (1.0 - p))


def surrogate_regret(name, px, eta, f):
    """E_X[L(eta(X), f(X))] - E_X[H(eta(X))]."""
    return sum(a * (conditional_risk(name, e, v) - bayes_risk(name, e)) for a, e, v in zip(px, eta, f))


def balanced_regret(name, px, eta, f):
    """Regret under l_bal = l(1, yhat)/(2p) on positives, l(-1, yhat)/(2(1-p)) on negatives.
    Its conditional risk at x is a eta l(1, v) + b (1-eta) l(-1, v), a = 1/(2p), b = 1/(2(1-p)),
    i.e. (a eta + b (1-eta)) L(eta', v) with eta' = a eta / (a eta + b (1-eta)), minimised by H(eta')."""
    p = sum(a * e for a, e in zip(px, eta))
    a, b = 1.0 / (2.0 * p), 1.0 / (2.0 * (1.0 - p))
    total = 0.0
    for w, e, v in zip(px, eta, f):
        risk = a * e * loss(name, 1, v) + b * (1.0 - e) * loss(name, -1, v)
        mass = a * e + b * (1.0 - e)
        total += w * (risk - mass * bayes_risk(name, a * e / mass))
    return total
