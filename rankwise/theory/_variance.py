r"""The variance condition of Clémençon, Lugosi & Vayatis (2008), measured on a class.

For a ranking rule ``r`` and the Bayes rule ``r*`` the excess-risk kernel is

.. math::

    q_r((x, y), (x', y')) = 1[(y - y') r(x, x') < 0] - 1[(y - y') r^*(x, x') < 0],

its mean is the excess ranking risk :math:`\Lambda(r) = L(r) - L^*`, and its Hoeffding
projection is :math:`h_r(x, y) = E[q_r((x, y), (X', Y'))] - \Lambda(r)`. The variance
condition (the paper's Assumption 4) asks for constants ``c`` and ``kappa`` in [0, 1] with
:math:`\mathrm{Var}(h_r(X, Y)) \le c\,\Lambda(r)^{\kappa}` for every ``r`` in the class.
:func:`variance_condition` estimates both sides for every member of a class from a sample
of ``X`` under a law whose ``eta`` is known, and fits the exponent.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from scipy.special import ndtri

from .._validation import check_param
from ._checks import _as_real_array

_FUNC = "variance_condition"


@dataclass(frozen=True)
class VarianceCondition:
    r"""The variance condition measured on a class: :func:`variance_condition`'s result.

    Attributes
    ----------
    exponent : float
        The least-squares slope of :math:`\log \mathrm{Var}(h_r)` on :math:`\log \Lambda(r)`
        over the members used (the fitted ``kappa``).
    std_error : float
        Jackknife (delete-one-point) standard error of ``exponent``: the Monte Carlo error
        of the sample of ``X``, not the misfit of a power law. ``inf`` when deleting some
        point leaves the members used with one excess risk (tiny samples).
    constant : float
        The least ``c`` with :math:`\mathrm{Var}(h_r) \le c\,\Lambda(r)^{\text{exponent}}`
        over the members used (estimates plugged in).
    excess_risk : ndarray of shape (K,)
        :math:`\Lambda(r_k)` estimated (an unbiased U-statistic), one per member.
    variance : ndarray of shape (K,)
        :math:`\mathrm{Var}(h_{r_k})` estimated, one per member.
    used : ndarray of bool, shape (K,)
        The members in the fit: both estimates positive, also with any one point deleted.
    residual_sd : float
        Standard deviation of the log-log fit's residuals (0 for an exact power law).
    n : int
        The sample size.
    """

    exponent: float
    std_error: float
    constant: float
    excess_risk: np.ndarray = field(repr=False)
    variance: np.ndarray = field(repr=False)
    used: np.ndarray = field(repr=False)
    residual_sd: float
    n: int

    def confidence_interval(self, confidence_level: float = 0.95) -> tuple[float, float]:
        """Normal interval ``exponent -+ z std_error``, ``z`` the normal quantile.

        Parameters
        ----------
        confidence_level : float in (0, 1)

        Returns
        -------
        (low, high) : tuple of float
        """
        cl = check_param(confidence_level, "confidence_level", "VarianceCondition.confidence_interval",
                         low=0.0, high=1.0, low_inclusive=False, high_inclusive=False)
        half = float(ndtri(0.5 + cl / 2.0)) * self.std_error
        return (self.exponent - half, self.exponent + half)


def _order(rows: np.ndarray, s: np.ndarray) -> np.ndarray:
    """``o[i, j] = 1{s_i > s_j} + 1/2 1{s_i = s_j}`` for ``s_i`` in ``rows``: how often the
    score ranks i above j (ties count 1/2)."""
    return (rows[:, None] > s[None, :]) + 0.5 * (rows[:, None] == s[None, :])


def _slopes(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Least-squares slope of ``y`` on ``x`` along the last axis."""
    xc = x - x.mean(axis=-1, keepdims=True)
    yc = y - y.mean(axis=-1, keepdims=True)
    return (xc * yc).sum(axis=-1) / (xc * xc).sum(axis=-1)


def _member(eta: np.ndarray, s: np.ndarray, t: np.ndarray, block: int):
    """Estimates of ``Lambda`` and ``E[m^2]`` for one member (scores ``s``; Bayes scores ``t``)
    and the same with each point deleted, in one pass over blocks of rows.

    ``d[i, j] = o_ij(s) - o_ij(t)``. Given ``X = x_i``, the conditional mean of ``q_r`` is
    ``m(i, 1) = E_j[-(1 - eta_j) d_ij]`` when ``y = 1`` and ``m(i, 0) = E_j[eta_j d_ij]`` when
    ``y = 0``; ``Lambda = E[eta_i m(i, 1) + (1 - eta_i) m(i, 0)]`` (kernel
    ``u_ij = d_ij (eta_j - eta_i)``, symmetric) and ``Var(h) = E[eta m(., 1)^2 + (1 - eta) m(., 0)^2]
    - Lambda^2``. The squares are estimated without bias by ``(S1^2 - S2) / ((n-1)(n-2))``
    with ``S1``, ``S2`` the row sums of the terms and of their squares."""
    n = eta.size
    u_tot = 0.0
    u_row = np.empty(n)
    p_terms = np.empty(n)                      # eta_i (S1_i^2 - S2_i) + (1 - eta_i) (T1_i^2 - T2_i)
    g = np.zeros(n)                            # sum_i w_i S1_i a_il   (both label terms)
    g2 = np.zeros(n)                           # sum_i w_i a_il^2
    for lo in range(0, n, block):
        hi = min(n, lo + block)
        d = _order(s[lo:hi], s) - _order(t[lo:hi], t)
        e = eta[lo:hi, None]
        u = d * (eta[None, :] - e)
        u_row[lo:hi] = u.sum(axis=1)
        u_tot += float(u_row[lo:hi].sum())
        a1 = -(1.0 - eta[None, :]) * d         # y_i = 1
        a0 = eta[None, :] * d                  # y_i = 0
        s1, s2 = a1.sum(axis=1), (a1 * a1).sum(axis=1)
        t1, t2 = a0.sum(axis=1), (a0 * a0).sum(axis=1)
        w1, w0 = eta[lo:hi], 1.0 - eta[lo:hi]
        p_terms[lo:hi] = w1 * (s1 * s1 - s2) + w0 * (t1 * t1 - t2)
        g += (w1 * s1) @ a1 + (w0 * t1) @ a0
        g2 += w1 @ (a1 * a1) + w0 @ (a0 * a0)
    lam = u_tot / (n * (n - 1))
    msq = float(p_terms.sum()) / (n * (n - 1) * (n - 2))
    # Point l deleted: the pair sums lose row and column l; every other row's S1, S2 lose a_il.
    lam_loo = (u_tot - 2.0 * u_row) / ((n - 1) * (n - 2))
    msq_loo = (p_terms.sum() - p_terms - 2.0 * g + 2.0 * g2) / ((n - 1) * (n - 2) * (n - 3))
    return lam, msq - lam * lam, lam_loo, msq_loo - lam_loo * lam_loo


def variance_condition(eta: Any, scores: Any, bayes_scores: Any = None) -> VarianceCondition:
    r"""Measure the variance condition :math:`\mathrm{Var}(h_r) \le c\,\Lambda(r)^{\kappa}` on a class.

    Clémençon, Lugosi & Vayatis (2008) ("Ranking and empirical minimization of
    U-statistics", The Annals of Statistics 36(2)) prove that the empirical ranking risk
    minimiser over a VC class has excess risk of order :math:`(V \log n / n)^{1/(2 - \kappa)}`
    when the variance of the Hoeffding projection :math:`h_r` of the excess-risk kernel is
    bounded by a power ``kappa`` of the excess risk :math:`\Lambda(r) = L(r) - L^*` over
    the class (their Assumption 4). This function estimates, for each member ``r_k`` of a
    class, :math:`\Lambda(r_k)` and :math:`\mathrm{Var}(h_{r_k}(X, Y))` from an i.i.d.
    sample ``x_1..x_n`` of ``X`` under a law whose :math:`\eta(x) = P(Y = 1 | X = x)` is
    known (the labels are integrated out exactly), and fits ``kappa`` as the slope of
    :math:`\log \mathrm{Var}` on :math:`\log \Lambda` over the members.

    With :math:`d_{ij} = o_{ij}(s) - o_{ij}(t)`, :math:`o_{ij}(s) = 1\{s_i > s_j\} +
    \tfrac12 1\{s_i = s_j\}` (ties count 1/2, for the member ``s`` and for the Bayes
    scores ``t``):

    - :math:`\hat\Lambda = \frac{1}{n(n-1)} \sum_{i \ne j} d_{ij} (\eta_j - \eta_i)`
      (unbiased);
    - :math:`m(x_i, 1) = E_j[-(1 - \eta_j) d_{ij}]`, :math:`m(x_i, 0) = E_j[\eta_j d_{ij}]`
      (the conditional means of :math:`q_r` given :math:`(X, Y) = (x_i, y)`), and
      :math:`\widehat{\mathrm{Var}} = \frac1n \sum_i [\eta_i \widehat{m^2}(x_i, 1) +
      (1 - \eta_i) \widehat{m^2}(x_i, 0)] - \hat\Lambda^2`, each square estimated without
      bias from the other points (a U-statistic of degree 3); only
      :math:`\hat\Lambda^2` is biased, by :math:`\mathrm{Var}(\hat\Lambda) \approx
      4 \mathrm{Var}(h_r) / n`.

    Parameters
    ----------
    eta : array-like of shape (n,)
        :math:`\eta(x_i)` at an i.i.d. sample of ``X`` (values in [0, 1]); ``n >= 4``.
    scores : array-like of shape (n, K)
        Column ``k``: the scores of member ``k`` of the class at ``x_1..x_n`` (higher ranks
        first), ``K >= 2``.
    bayes_scores : array-like of shape (n,), optional
        Scores of the Bayes ranking rule at the same points; default ``eta`` (any strictly
        increasing transform of ``eta`` gives the same result).

    Returns
    -------
    VarianceCondition
        ``exponent`` with its jackknife ``std_error`` (and ``confidence_interval(level)``),
        ``constant``, the per-member ``excess_risk`` and ``variance``, and ``used``.

    Raises
    ------
    ValueError
        If fewer than two members have positive estimates of both :math:`\Lambda` and
        :math:`\mathrm{Var}(h_r)` (with any one point deleted as well), or if the used
        members all share one excess risk (no slope).

    Notes
    -----
    Cost: :math:`O(n^2 K)` time, :math:`O(n \cdot 512)` memory. The interval is for the
    least-squares slope over *these* members, as a function of the law; whether
    :math:`\mathrm{Var} \propto \Lambda^{\kappa}` is a good description is told by
    ``residual_sd`` and by fitting sub-ranges of the class.

    Examples
    --------
    Windows reversed around the point where ``eta`` is flat (``eta(x) = (1 + x^3)/2``):

    >>> import numpy as np
    >>> from rankwise import theory
    >>> x = np.random.default_rng(0).uniform(-1, 1, 800)
    >>> taus = np.geomspace(0.3, 1.0, 6)
    >>> scores = np.stack([np.where(np.abs(x) <= t, -x, x) for t in taus], axis=1)
    >>> vc = theory.variance_condition((1 + x ** 3) / 2, scores, x)
    >>> bool(0.45 < vc.exponent < 0.75)      # 3 / (3 + 2) = 0.6 for this law and class
    True
    >>> low, high = vc.confidence_interval(0.95)
    >>> bool(low < vc.exponent < high)
    True
    """
    eta_a = _as_real_array(eta, "eta", _FUNC)
    if eta_a.ndim != 1:
        raise ValueError(f"The 'eta' parameter of {_FUNC} must be one-dimensional (eta at n points). "
                         f"Got shape {eta_a.shape} instead.")
    n = eta_a.size
    if n < 4:
        raise ValueError(f"{_FUNC} needs at least 4 points (the jackknife deletes one from a degree-3 "
                         f"U-statistic). Got n = {n}.")
    if eta_a.min() < 0.0 or eta_a.max() > 1.0:
        raise ValueError(f"The 'eta' parameter of {_FUNC} must hold probabilities in [0, 1]. "
                         f"Got values in [{eta_a.min():g}, {eta_a.max():g}].")
    S = _as_real_array(scores, "scores", _FUNC)
    if S.ndim != 2 or S.shape[0] != n:
        raise ValueError(f"The 'scores' parameter of {_FUNC} must have shape (n, K) = ({n}, K): one column "
                         f"per member of the class. Got shape {S.shape} instead.")
    if S.shape[1] < 2:
        raise ValueError(f"{_FUNC} fits a slope over the class's members and needs K >= 2 columns in "
                         f"'scores'. Got K = {S.shape[1]}.")
    if bayes_scores is None:
        t = eta_a
    else:
        t = _as_real_array(bayes_scores, "bayes_scores", _FUNC)
        if t.shape != (n,):
            raise ValueError(f"The 'bayes_scores' parameter of {_FUNC} must have shape ({n},), like 'eta'. "
                             f"Got shape {t.shape} instead.")
    K = S.shape[1]
    lam = np.empty(K)
    var = np.empty(K)
    lam_loo = np.empty((n, K))
    var_loo = np.empty((n, K))
    block = max(1, min(n, 512))
    for k in range(K):
        lam[k], var[k], lam_loo[:, k], var_loo[:, k] = _member(eta_a, S[:, k], t, block)
    used = (lam > 0) & (var > 0) & (lam_loo > 0).all(axis=0) & (var_loo > 0).all(axis=0)
    if used.sum() < 2:
        raise ValueError(f"{_FUNC} needs at least two members with a positive excess risk and a positive "
                         f"variance of h_r (estimated, also with any one point deleted); got {int(used.sum())} "
                         f"of {K}. Members that agree with the Bayes ordering on the sample have no excess "
                         f"risk; use a larger sample or members further from the Bayes rule.")
    x = np.log(lam[used])
    if np.ptp(x) <= 1e-9:                      # equal excess risks up to rounding
        raise ValueError(f"{_FUNC}: the members used all have the same excess risk, so the exponent "
                         f"(a slope of log Var on log Lambda) is undefined.")
    y = np.log(var[used])
    slope = float(_slopes(x, y))
    resid = y - (y.mean() + slope * (x - x.mean()))
    lx = np.log(lam_loo[:, used])
    if np.min(np.ptp(lx, axis=1)) <= 1e-9:
        se = math.inf                          # deleting some point leaves no slope (tiny samples)
    else:
        loo = _slopes(lx, np.log(var_loo[:, used]))
        se = math.sqrt((n - 1) / n * float(((loo - loo.mean()) ** 2).sum()))
    const = float(np.max(var[used] / lam[used] ** slope))
    return VarianceCondition(slope, se, const, lam, var, used, float(resid.std()) if resid.size > 2 else 0.0, n)
