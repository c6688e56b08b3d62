"""The variance and covariance estimators of R VUROCS (``VUSvar``, ``VUScov``), written out
from their definition for the tests only: every chain is enumerated; nothing is shared with
rankwise or with VUROCS's code.

A chain is one row of each class, in the class order; ``h(c)`` scores it (``ties="strict"``:
1 when its scores increase strictly along the chain, else 0, which is what VUROCS counts;
``ties="share"``: the share of the tie-breakings that put it in order, rankwise's
convention). With ``n_k`` the class sizes, ``N = prod n_k`` chains and ``theta = sum_c h(c) / N``
the VUS, the exact covariance of two K-sample U-statistics splits over the sets ``S`` of
classes on which two chains share their row:

    Cov = 1/N * sum_{S subset of classes} prod_{k not in S} (n_k - 1) * (xi_S - theta_1 theta_2),

``xi_S = E h_1(c) h_2(c')`` for chains ``c, c'`` sharing the rows of the classes in ``S`` and
drawing the others independently (Bamber's 1975 variance of the AUC is the case K = 2).
VUROCS plugs in, for ``xi_S``, the mean of ``h_1(c) h_2(c')`` over *all* pairs of chains
that agree on ``S`` (the others free, equal rows allowed: a V-statistic), i.e.

    xi_S_hat = sum_{x in prod_{k in S} C_k} H_1(x) H_2(x) / (prod_{k in S} n_k * prod_{k not in S} n_k^2),

``H(x)`` the sum of ``h`` over the chains whose rows in ``S`` are ``x``. Its VUSvar is the
case ``h_1 = h_2``. For ``S`` empty the term is 0; for a single class ``S = {k}``,
``xi_S_hat - theta_1 theta_2`` is ``1/n_k * sum_i (V1_i - theta_1)(V2_i - theta_2)`` over the
rows of class ``k``, ``V_i`` a row's placement (the mean of ``h`` over the chains through
it), so the K single-class terms are the K-sample DeLong covariance (sample covariances of
the placements, denominators ``n_k - 1``) times ``prod (n_k - 1) / prod n_k``; the sets of
two classes or more add the higher-order terms DeLong leaves out.
"""

from __future__ import annotations

import itertools
import math

import numpy as np

__all__ = ["chain_scores", "vurocs_terms", "vurocs_cov", "vurocs_cov_pairs", "delong_from_terms"]


def _members(y, labels):
    y = list(y)
    return [np.array([i for i in range(len(y)) if y[i] == lab], dtype=np.int64) for lab in labels]


def _chains(members):
    """Every chain as K index arrays (row of class k in chain c: ``idx[k][c]``), and for each
    class the position of that row within its class (for grouping)."""
    grids = np.meshgrid(*[np.arange(m.size) for m in members], indexing="ij")
    pos = [g.ravel() for g in grids]
    idx = [members[k][pos[k]] for k in range(len(members))]
    return idx, pos


def chain_scores(s, idx, ties: str) -> np.ndarray:
    """``h`` of every chain: ``"strict"`` (increasing strictly: 1, else 0) or ``"share"``
    (0 if the scores ever decrease, else the product of 1/m! over the runs of m equal
    scores)."""
    vals = [np.asarray(s, dtype=float)[i] for i in idx]
    h = np.ones(vals[0].shape[0])
    if ties == "strict":
        for a, b in zip(vals[:-1], vals[1:]):
            h *= a < b
        return h
    if ties != "share":
        raise ValueError(ties)
    fact = np.array([math.factorial(m) for m in range(len(vals) + 1)], dtype=float)
    run = np.ones(h.shape[0], dtype=np.int64)
    for a, b in zip(vals[:-1], vals[1:]):
        h *= a <= b
        eq = a == b
        h /= np.where(eq, 1.0, fact[run])
        run = np.where(eq, run + 1, 1)
    h /= fact[run]
    return h


def vurocs_terms(y, s1, s2, labels, ties: str = "strict"):
    """(terms, theta_1, theta_2, sizes): ``terms[S]`` for every tuple ``S`` of class
    positions (0-based, increasing), already divided by ``N``; their sum is the covariance
    (the variance when ``s1 is s2``)."""
    members = _members(y, labels)
    sizes = [m.size for m in members]
    if min(sizes) == 0:
        raise ValueError("every class needs a row")
    idx, pos = _chains(members)
    h1 = chain_scores(s1, idx, ties)
    h2 = h1 if s2 is s1 else chain_scores(s2, idx, ties)
    N = math.prod(sizes)
    t1, t2 = h1.sum() / N, h2.sum() / N
    K = len(sizes)
    terms = {}
    for r in range(K + 1):
        for S in itertools.combinations(range(K), r):
            if S:
                key = np.ravel_multi_index(tuple(pos[k] for k in S), tuple(sizes[k] for k in S))
                n_cells = math.prod(sizes[k] for k in S)
                H1 = np.bincount(key, weights=h1, minlength=n_cells)
                H2 = np.bincount(key, weights=h2, minlength=n_cells)
                num = float(np.dot(H1, H2))
            else:
                num = float(h1.sum() * h2.sum())
            denom = math.prod(sizes[k] for k in S) * math.prod(sizes[k] ** 2 for k in range(K) if k not in S)
            xi = num / denom
            terms[S] = math.prod(sizes[k] - 1 for k in range(K) if k not in S) * (xi - t1 * t2) / N
    return terms, t1, t2, sizes


def vurocs_cov(y, s1, s2, labels, ties: str = "strict") -> float:
    """VUROCS's VUScov (``s1 is s2``: VUSvar) by the formula of the module docstring."""
    terms, _, _, _ = vurocs_terms(y, s1, s2, labels, ties)
    return float(sum(terms.values()))


def vurocs_cov_pairs(y, s1, s2, labels, ties: str = "strict") -> float:
    """The same by a loop over every pair of chains (O(N^2 2^K)): for tiny inputs, to check
    the grouping of :func:`vurocs_terms`."""
    members = _members(y, labels)
    sizes = [m.size for m in members]
    idx, _ = _chains(members)
    h1, h2 = chain_scores(s1, idx, ties), chain_scores(s2, idx, ties)
    chains = list(zip(*[a.tolist() for a in idx]))
    N, K = len(chains), len(sizes)
    t1, t2 = h1.sum() / N, h2.sum() / N
    total = 0.0
    for r in range(K + 1):
        for S in itertools.combinations(range(K), r):
            num = 0.0
            for a, ca in enumerate(chains):
                for b, cb in enumerate(chains):
                    if all(ca[k] == cb[k] for k in S):
                        num += h1[a] * h2[b]
            xi = num / (math.prod(sizes[k] for k in S) * math.prod(sizes[k] ** 2 for k in range(K) if k not in S))
            total += math.prod(sizes[k] - 1 for k in range(K) if k not in S) * (xi - t1 * t2) / N
    return total


def delong_from_terms(terms, sizes) -> float:
    """The K-sample DeLong (co)variance (per class, the sample covariance of the placements,
    denominator ``n_k - 1``, over ``n_k``) recovered from VUROCS's single-class terms:
    their sum times ``prod n_k / prod (n_k - 1)``."""
    single = sum(v for S, v in terms.items() if len(S) == 1)
    return single * math.prod(sizes) / math.prod(n - 1 for n in sizes)
