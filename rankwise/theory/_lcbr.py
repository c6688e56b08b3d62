r"""The sample-size and tail bounds of Gultekin & Paisley (2020) for BBR and LCBR, and the
volumetric covering number of a ball, as plain functions broadcast over arrays."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ._checks import _COUNT, _NONNEG, _POSITIVE, _PROB, _float_or_array, _param_array, _params


def _norm_bounds(X_star: Any, W_star: Any) -> dict:
    """The specs of :func:`_params` for the radii ``X_star`` and ``W_star``."""
    return dict(X_star=(X_star, _POSITIVE), W_star=(W_star, _POSITIVE))


def _c1_c2(X_star: np.ndarray, W_star: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The constants of Theorems 1 and 3: C1 = 8 X*^2 W* + 4 X*, C2 = 3 X*^2 W*^2 + 2 X* W*."""
    c1 = 8.0 * X_star ** 2 * W_star + 4.0 * X_star
    c2 = 3.0 * X_star ** 2 * W_star ** 2 + 2.0 * X_star * W_star
    return c1, c2


def _theorem2_terms(eps: np.ndarray, delta: np.ndarray, D: np.ndarray, sigma_norm: np.ndarray,
                    X_star: np.ndarray, W_star: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    r"""The two terms of Theorem 2's sample size (checked arguments): the quadratic term, after
    which :math:`\sup_w |\Delta_\Sigma| < \epsilon/2` with probability at least
    :math:`1 - \delta/2` (Lemma 2(i)), and the linear term, after which
    :math:`\sup_{w_1, w_2} |\Delta_\sigma| < \epsilon/2` with probability at least
    :math:`1 - \delta/2` (Lemma 2(ii) with the pair differences' radius :math:`2X_*`).
    The derivation is in ``docs/lcbr_bounds.md``."""
    xw2 = X_star ** 2 * W_star ** 2
    quadratic = np.log(4.0 * D / delta) * (sigma_norm * X_star ** 2 * W_star ** 4 + eps * xw2 / 3.0) / (eps ** 2 / 32.0)
    linear = xw2 / (eps ** 2 / 64.0) * (np.sqrt(2.0 * np.log(4.0 / delta)) + 1.0) ** 2
    return quadratic, linear


def lcbr_subsample_size(eps: Any, delta: Any, D: Any, sigma_norm: Any, X_star: Any, W_star: Any,
                        *, terms: bool = False) -> float | np.ndarray | tuple:
    r"""Theorem 2 of Gultekin & Paisley (2020): the number ``S`` of sampled pairs after which
    LCBR's solution is :math:`\epsilon`-optimal for the all-pairs empirical risk.

    Parameters
    ----------
    eps : float or array-like, > 0
        Target :math:`\epsilon` for :math:`|R_N(w_S) - R_N(w_N)|`.
    delta : float or array-like, in (0, 1)
        Failure probability :math:`\delta`.
    D : int or array-like, >= 1
        Dimension.
    sigma_norm : float or array-like, >= 0
        :math:`\|\Sigma_N\|_2`, the operator norm of the all-pairs second moment.
    X_star, W_star : float or array-like, > 0
        :math:`\|x\| \le X^*` for every input (so every pair difference has norm at most
        :math:`2X^*`), :math:`\|w\| \le W^*`.
    terms : bool, default False
        Return the two terms (quadratic, linear) instead of their maximum.

    Returns
    -------
    float or ndarray, or a tuple of two
        The threshold; :math:`|R_N(w_S) - R_N(w_N)| < \epsilon` with probability at least
        :math:`1 - \delta` over the sampled pairs for every :math:`S` at least this.

    Notes
    -----
    .. math:: S \ge \max\left\{ \log\frac{4D}{\delta}\,
              \frac{\|\Sigma_N\|_2 X_*^2 W_*^4 + \frac{1}{3}\epsilon X_*^2 W_*^2}{\epsilon^2/32},\;
              \frac{X_*^2 W_*^2}{\epsilon^2/64}\left[\sqrt{2\log(4/\delta)} + 1\right]^2 \right\}.

    Each term is derived from the paper's Lemma 2 at threshold :math:`\epsilon/2` and
    probability :math:`\delta/2`. The linear term uses the vector concentration inequality
    with the radius :math:`2X^*` of the pair differences :math:`x^1 - x^0`; Lemma 2(ii) as
    printed has :math:`X^*` there, which gives :math:`\epsilon^2/16` and which a law with
    inputs :math:`\pm X^*` violates at small :math:`\delta` (the derivation and that law:
    ``docs/lcbr_bounds.md``).
    Reference: Gultekin & Paisley (2020), Lemma 2 and Theorem 2.

    Examples
    --------
    With :math:`\|\Sigma_N\| = 0`, :math:`X^* = W^* = 1`, :math:`\epsilon = 1` and
    :math:`\delta = 4 e^{-2}` the linear term decides: :math:`64 (\sqrt 4 + 1)^2 = 576`.

    >>> round(lcbr_subsample_size(1.0, 4 * np.exp(-2.0), 1, 0.0, 1.0, 1.0), 9)
    576.0
    """
    if not isinstance(terms, (bool, np.bool_)):
        raise TypeError(f"The 'terms' parameter of lcbr_subsample_size must be a bool. Got {terms!r} instead.")
    eps, delta, D, sigma_norm, X_star, W_star = _params(
        "lcbr_subsample_size", eps=(eps, _POSITIVE), delta=(delta, _PROB), D=(D, _COUNT),
        sigma_norm=(sigma_norm, _NONNEG), **_norm_bounds(X_star, W_star))
    quadratic, linear = _theorem2_terms(eps, delta, D, sigma_norm, X_star, W_star)
    if terms:
        return _float_or_array(quadratic), _float_or_array(linear)
    return _float_or_array(np.maximum(quadratic, linear))


def lcbr_sample_size(eps: Any, p_star: Any, D: Any, sigma_norm: Any, X_star: Any, W_star: Any) -> float | np.ndarray:
    r"""Theorem 3 of Gultekin & Paisley (2020): the number ``S`` of sampled pairs for LCBR.

    Parameters
    ----------
    eps : float or array-like, > 0
        Target excess risk :math:`\epsilon`.
    p_star : float or array-like, in (0, 1)
        Probability target :math:`p^*`.
    D : int or array-like, >= 1
        Dimension.
    sigma_norm : float or array-like, >= 0
        :math:`\|\Sigma_N\|_2`, the operator norm of the all-pairs second moment.
    X_star, W_star : float or array-like, > 0
        :math:`\|x\| \le X^*`, :math:`\|w\| \le W^*`.

    Returns
    -------
    float or ndarray
        The threshold; the theorem holds for every :math:`S` at least this (the smallest
        admissible integer is its ceiling).

    Notes
    -----
    The proof of Theorem 3 asks Theorem 2 for :math:`|R_N(w_S) - R_N(w_N)| < \epsilon/5`
    with probability :math:`1 - p^*`, so this is :func:`lcbr_subsample_size` at
    :math:`(\epsilon/5, p^*)`:

    .. math:: S \ge \max\left\{ \log\frac{4D}{p^*}\,
              \frac{\|\Sigma_N\|_2 X_*^2 W_*^4 + \frac{1}{15}\epsilon X_*^2 W_*^2}{\epsilon^2/800},\;
              \frac{X_*^2 W_*^2}{\epsilon^2/1600}\left[\sqrt{2\log(4/p^*)} + 1\right]^2 \right\}

    gives :math:`P(R(w_S) - R(w_*) \ge \epsilon) \le 2 C_S(\epsilon/(10 C_1))
    \exp(-\frac{\epsilon^2}{50 C_2^2}\rho(1-\rho)N) + p^*` (:func:`lcbr_tail_bound`).
    The linear term's constant (1600) is derived in ``docs/lcbr_bounds.md``; a restatement
    of the paper has 100 there.
    Reference: Gultekin & Paisley (2020), Theorem 3.

    Examples
    --------
    With :math:`\|\Sigma_N\| = 0` the second term decides: :math:`X^* = W^* = 1`,
    :math:`\epsilon = 1`, :math:`p^* = 4 e^{-2}` give :math:`1600 (\sqrt 4 + 1)^2 = 14400`.

    >>> round(lcbr_sample_size(1.0, 4 * np.exp(-2.0), 1, 0.0, 1.0, 1.0), 9)
    14400.0
    """
    eps, p_star, D, sigma_norm, X_star, W_star = _params(
        "lcbr_sample_size", eps=(eps, _POSITIVE), p_star=(p_star, _PROB), D=(D, _COUNT),
        sigma_norm=(sigma_norm, _NONNEG), **_norm_bounds(X_star, W_star))
    return _float_or_array(np.maximum(*_theorem2_terms(eps / 5.0, p_star, D, sigma_norm, X_star, W_star)))


def _log_covering(covering_number: Any, radius: np.ndarray, log_covering: bool, func: str) -> np.ndarray:
    if callable(covering_number):
        r_arg = float(radius) if radius.ndim == 0 else radius
        try:
            vals = np.asarray(covering_number(r_arg), dtype=np.float64)
        except Exception as exc:  # noqa: BLE001
            raise TypeError(f"The 'covering_number' callable of {func} failed on the radius {r_arg!r}: {exc}") from exc
        try:
            vals = np.broadcast_to(vals, radius.shape) if radius.ndim else vals
        except ValueError as exc:
            raise ValueError(f"The 'covering_number' callable of {func} must return one value per radius "
                             f"(shape {radius.shape}); it returned shape {vals.shape}.") from exc
        name = "covering_number(r)"
    else:
        vals = np.asarray(_param_array(covering_number, "covering_number", func,
                                       low=None if log_covering else 1.0), dtype=np.float64)
        name = "covering_number"
    if np.isnan(vals).any() or (not log_covering and (vals < 1.0).any()):
        raise ValueError(f"{name} in {func} must be {'a finite log' if log_covering else 'at least 1'}"
                         f"{'' if log_covering else ' (a covering number)'}; got {vals.ravel()[:3]!r}.")
    if log_covering:
        return vals
    with np.errstate(divide="ignore"):
        return np.log(vals)


def bbr_tail_bound(eps: Any, N: Any, rho: Any, X_star: Any, W_star: Any, covering_number: Any,
                   *, log_covering: bool = False) -> float | np.ndarray:
    r"""Theorem 1 of Gultekin & Paisley (2020): a tail bound on the excess risk of BBR.

    Parameters
    ----------
    eps : float or array-like, > 0
    N : int or array-like, >= 1
        Sample size :math:`N = N_0 + N_1`.
    rho : float or array-like, in (0, 1)
        Label skew :math:`N_1 / N`.
    X_star, W_star : float or array-like, > 0
    covering_number : float, array-like or callable
        :math:`C_S(r)`, the number of :math:`\ell_2` balls of radius :math:`r` that cover
        the constraint set :math:`\{\|w\| \le W^*\}`: a number (already evaluated at
        :math:`r = \epsilon/(4 C_1)`) or a callable of :math:`r`, called with the radius
        (an array when any argument is one), e.g. ``lambda r: ball_covering_number(r, D,
        W_star)``. Any upper bound on :math:`C_S` keeps the result a valid bound.
    log_covering : bool, default False
        ``covering_number`` gives :math:`\log C_S` instead (covering numbers overflow
        float64 in moderate dimension).

    Returns
    -------
    float or ndarray
        :math:`P(R(w_N) - R(w_*) \ge \epsilon)` is at most this; computed in logs, it can
        exceed 1 (vacuous).

    Notes
    -----
    With :math:`C_1 = 8X_*^2W_* + 4X_*` and :math:`C_2 = 3X_*^2W_*^2 + 2X_*W_*`,

    .. math:: P(R(w_N) - R(w_*) \ge \epsilon) \le 2\, C_S\!\left(\frac{\epsilon}{4C_1}\right)
              \exp\left(-\frac{\epsilon^2}{8C_2^2}\rho(1-\rho)N\right).

    Reference: Gultekin & Paisley (2020), Theorem 1.

    Examples
    --------
    :math:`X^* = W^* = 1`: :math:`C_2 = 5`; with :math:`C_S = 1`, :math:`\epsilon = 1`,
    :math:`\rho = 1/2`, :math:`N = 800`: :math:`2 e^{-800/(8 \cdot 25 \cdot 4)} = 2e^{-1}`.

    >>> round(bbr_tail_bound(1.0, 800, 0.5, 1.0, 1.0, 1.0), 9)
    0.735758882
    """
    return _tail(eps, N, rho, X_star, W_star, covering_number, log_covering, 4.0, 8.0, 0.0, "bbr_tail_bound")


def lcbr_tail_bound(eps: Any, N: Any, rho: Any, X_star: Any, W_star: Any, covering_number: Any, p_star: Any,
                    *, log_covering: bool = False) -> float | np.ndarray:
    r"""Theorem 3 of Gultekin & Paisley (2020), its conclusion: the tail bound of LCBR once ``S``
    satisfies :func:`lcbr_sample_size`.

    Parameters
    ----------
    eps, N, rho, X_star, W_star, covering_number, log_covering
        As in :func:`bbr_tail_bound`; the covering radius here is :math:`\epsilon/(10 C_1)`.
    p_star : float or array-like, in (0, 1)

    Returns
    -------
    float or ndarray

    Notes
    -----
    .. math:: P(R(w_S) - R(w_*) \ge \epsilon) \le 2\, C_S\!\left(\frac{\epsilon}{10C_1}\right)
              \exp\left(-\frac{\epsilon^2}{50C_2^2}\rho(1-\rho)N\right) + p^*.

    Reference: Gultekin & Paisley (2020), Theorem 3.

    Examples
    --------
    >>> round(lcbr_tail_bound(1.0, 5000, 0.5, 1.0, 1.0, 1.0, 0.01), 9)    # 2 e^{-1} + 0.01
    0.745758882
    """
    func = "lcbr_tail_bound"
    (p_star,) = _params(func, p_star=(p_star, _PROB))
    return _tail(eps, N, rho, X_star, W_star, covering_number, log_covering, 10.0, 50.0, p_star, func)


def _tail(eps, N, rho, X_star, W_star, covering_number, log_covering, r_div, e_div, add, func):
    eps, N, rho, X_star, W_star = _params(func, eps=(eps, _POSITIVE), N=(N, _COUNT), rho=(rho, _PROB),
                                          **_norm_bounds(X_star, W_star))
    if not isinstance(log_covering, (bool, np.bool_)):
        raise TypeError(f"The 'log_covering' parameter of {func} must be a bool. Got {log_covering!r} instead.")
    c1, c2 = _c1_c2(X_star, W_star)
    radius = np.asarray(eps / (r_div * c1), dtype=np.float64)
    log_c = _log_covering(covering_number, radius, bool(log_covering), func)
    log_bound = math.log(2.0) + log_c - eps ** 2 / (e_div * c2 ** 2) * rho * (1.0 - rho) * N
    return _float_or_array(np.exp(log_bound) + np.asarray(add, dtype=np.float64))


def ball_covering_number(r: Any, D: Any, W_star: Any, *, log: bool = False) -> float | np.ndarray:
    r"""The volumetric upper bound :math:`(1 + 2W^*/r)^D` on the covering number of a ball.

    Parameters
    ----------
    r : float or array-like, > 0
        Radius of the covering balls.
    D : int or array-like, >= 1
        Dimension.
    W_star : float or array-like, > 0
        Radius of the covered ball :math:`\{\|w\|_2 \le W^*\}` (the constraint set of Gultekin & Paisley 2020).
    log : bool, default False
        Return :math:`D \log(1 + 2W^*/r)` (for ``log_covering=True`` in
        :func:`bbr_tail_bound`).

    Returns
    -------
    float or ndarray

    Notes
    -----
    A maximal :math:`r`-separated subset of the ball is an :math:`r`-cover, and the
    disjoint balls of radius :math:`r/2` around its points fit in the ball of radius
    :math:`W^* + r/2`; comparing volumes gives at most :math:`(1 + 2W^*/r)^D` points
    (e.g. Vershynin, High-Dimensional Probability, 2018, Cor. 4.2.13).

    Examples
    --------
    >>> ball_covering_number(0.5, 2, 1.0)             # (1 + 4)^2
    25.0
    """
    r, D, W_star = _params("ball_covering_number", r=(r, _POSITIVE), D=(D, _COUNT), W_star=(W_star, _POSITIVE))
    ratio = 2.0 * W_star / r
    if log:
        return _float_or_array(D * np.log1p(ratio))
    with np.errstate(over="ignore"):
        return _float_or_array(np.power(1.0 + ratio, D))
