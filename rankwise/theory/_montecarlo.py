"""Monte Carlo kernels (validated arrays in, plain numbers out): the pair U-statistic of the
ranking quantities and the jackknifed ``W_phi``."""

from __future__ import annotations

import math

import numpy as np

from .. import phi as _phi
from ._results import TheoryResult

_CHUNK = 65_536          # rows drawn (and scored) at a time: memory stays O(chunk * d)
_N_MC = 200_000          # default Monte Carlo size
_JACKKNIFE_GROUPS = 20   # groups of the delete-a-group jackknife of w_phi

_U_DETAIL = ("U-statistic over all pairs of n_mc i.i.d. draws of X, with eta in place of the labels; "
             "standard error 2 sd(h1)/sqrt(n_mc) from the Hoeffding projection h1")


def _pair_projection(eta: np.ndarray, f: np.ndarray) -> np.ndarray:
    r"""Hoeffding projections ``h1(x_k) = 1/(n-1) sum_{j != k} h_f(x_k, x_j)`` in O(n log n).

    ``h_f(x, x') = eta(x)(1 - eta(x')) 1{f(x) < f(x')} + eta(x')(1 - eta(x)) 1{f(x) > f(x')}
    + 1/2 [eta(x)(1 - eta(x')) + eta(x')(1 - eta(x))] 1{f(x) = f(x')}``: the probability that
    the pair is a positive-negative pair ranked the wrong way (ties 1/2). Sorting by
    ``f`` gives, for each point, the ``eta`` mass strictly below and the ``1 - eta`` mass
    strictly above, and its tie group. The U-statistic is ``mean(h1)``.
    """
    n = eta.size
    order = np.argsort(f, kind="stable")
    fs, es = f[order], eta[order]
    qs = 1.0 - es
    new = np.empty(n, dtype=bool)
    new[0] = True
    np.not_equal(fs[1:], fs[:-1], out=new[1:])
    gid = np.cumsum(new) - 1
    ng = int(gid[-1]) + 1
    ge = np.bincount(gid, weights=es, minlength=ng)
    gq = np.bincount(gid, weights=qs, minlength=ng)
    ce, cq = np.cumsum(ge), np.cumsum(gq)
    e_below = (ce - ge)[gid]
    q_above = (cq[-1] - cq)[gid]
    tie = 0.5 * (es * (gq[gid] - qs) + qs * (ge[gid] - es))
    out = np.empty(n)
    out[order] = (es * q_above + qs * e_below + tie) / (n - 1)
    return out


def _w_phi_jackknife(s_pos: np.ndarray, s_ref: np.ndarray, phi: _phi.Phi, ties: str,
                     rng: np.random.Generator) -> TheoryResult:
    """Mean of ``phi(F_ref(s))`` over the positives' scores ``s_pos``, ``F_ref`` the empirical
    (mid-)cdf of ``s_ref``, with its delete-a-group jackknife standard error."""
    G = _JACKKNIFE_GROUPS
    gp = rng.permutation(s_pos.size) % G          # group labels, balanced
    gr = rng.permutation(s_ref.size) % G

    def counts(ref_sorted: np.ndarray) -> np.ndarray:
        if ties == "max":
            return np.searchsorted(ref_sorted, s_pos, side="right").astype(np.float64)
        lo = np.searchsorted(ref_sorted, s_pos, side="left")
        hi = np.searchsorted(ref_sorted, s_pos, side="right")
        return 0.5 * (lo + hi)

    total = counts(np.sort(s_ref))
    n_ref = s_ref.size
    value = float(phi(total / n_ref).mean())
    theta = np.empty(G)
    for g in range(G):
        ref_g = np.sort(s_ref[gr == g])
        keep = gp != g
        c = (total - counts(ref_g))[keep]
        theta[g] = float(phi(c / (n_ref - ref_g.size)).mean())
    se = math.sqrt((G - 1) / G * float(((theta - theta.mean()) ** 2).sum()))
    return TheoryResult(value, se, "monte_carlo", int(s_pos.size), 0.0,
                        f"mean of phi(F_ref(s(X))) over n_mc positives, F_ref the empirical cdf of an independent "
                        f"sample of {n_ref} draws of X; delete-a-group jackknife standard error ({G} groups)")
