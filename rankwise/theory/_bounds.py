r"""The surrogate regret bounds of Agarwal (2014) and Kotlowski et al. (2011) as plain functions,
broadcast over arrays of every argument.

Each formula is stated once, in :mod:`rankwise.losses`
(:meth:`~rankwise.losses.ProperCompositeLoss.regret_bound`,
:meth:`~rankwise.losses.ProperCompositeLoss.low_noise_bound`,
:func:`~rankwise.losses.balanced_regret_bound`); this module validates the arguments,
broadcasts them and calls those. The theorems depend on the loss only through its strong
properness :math:`\lambda`, so a bound for a bare :math:`\lambda` is that of one
:math:`\lambda`-strongly proper loss, built by
:meth:`~rankwise.losses.ProperCompositeLoss.from_bayes_risk`.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Callable

import numpy as np

from .. import losses as _losses
from ._checks import _NONNEG, _POSITIVE, _PROB, _params


@lru_cache(maxsize=64)
def _strongly_proper(lam: float) -> _losses.ProperCompositeLoss:
    r"""A :math:`\lambda`-strongly proper loss: the proper loss with Bayes risk
    :math:`H(e) = \frac{\lambda}{2} e (1 - e)`, whose :math:`-H'' = \lambda` everywhere (for
    :math:`\lambda = 8`, the squared loss on probabilities)."""
    half = 0.5 * lam
    return _losses.ProperCompositeLoss.from_bayes_risk(
        lambda e: half * e * (1.0 - e), lambda e: half * (1.0 - 2.0 * e), lambda e: np.full(np.shape(e), -lam),
        strong_properness=lam, name=f"H(e) = {lam!r}/2 e(1 - e)")


def _each(bound: Callable, func: str, r: np.ndarray, *constants: np.ndarray) -> float | np.ndarray:
    """``bound(r, *constants)`` of a losses method that takes an array of regrets but scalar
    constants, broadcast over arrays of constants: one call per distinct combination of them.
    A float when every argument is a scalar."""
    args = (r, *constants)
    if all(a.ndim == 0 for a in args):
        return float(bound(*(float(a) for a in args)))
    if all(c.ndim == 0 for c in constants):
        return np.asarray(bound(r, *(float(c) for c in constants)), dtype=np.float64)
    try:
        arrays = np.broadcast_arrays(*args)
    except ValueError:
        shapes = ", ".join(str(a.shape) for a in args)
        raise ValueError(f"The arguments of {func} have shapes {shapes}, which do not broadcast together.") from None
    shape = arrays[0].shape
    regrets = arrays[0].ravel()
    keys = np.stack([a.ravel() for a in arrays[1:]], axis=1)
    combos, which = np.unique(keys, axis=0, return_inverse=True)
    which = which.ravel()
    out = np.empty(regrets.size)
    for k, combo in enumerate(combos):
        rows = which == k
        out[rows] = bound(regrets[rows], *combo.tolist())
    return out.reshape(shape)


def theorem13_bound(surrogate_regret: Any, p: Any, lam: Any) -> float | np.ndarray:
    r"""Agarwal's Theorem 13: ranking regret from the surrogate regret of a strongly proper loss.

    Parameters
    ----------
    surrogate_regret : float or array-like
        :math:`\mathrm{regret}_\ell[f] \ge 0`.
    p : float or array-like
        :math:`P(Y = 1)` in (0, 1).
    lam : float or array-like
        The strong properness :math:`\lambda > 0` of the loss
        (``rankwise.losses.get(name).strong_properness``).

    Returns
    -------
    float or ndarray
        Broadcast over the three arguments. Values of 1 or more say nothing.

    Notes
    -----
    For a :math:`\lambda`-strongly proper composite loss and every scorer :math:`f` with
    values in its prediction space,

    .. math:: \mathrm{regret}_{rank}[f] \le \frac{\sqrt 2}{p(1-p)\sqrt\lambda}
              \sqrt{\mathrm{regret}_\ell[f]}.

    Evaluated by :meth:`rankwise.losses.ProperCompositeLoss.regret_bound` of a
    :math:`\lambda`-strongly proper loss. Reference: Agarwal (2014), Theorem 13.

    Examples
    --------
    Logistic loss (lambda = 4), p = 1/2, surrogate regret 0.01: sqrt(2) / (0.25 * 2) * 0.1.

    >>> round(theorem13_bound(0.01, 0.5, 4.0), 12)
    0.282842712475
    >>> theorem13_bound([0.0, 0.04], 0.5, 8.0)        # squared loss: 0.04 -> 2 * 0.2 / 1
    array([0. , 0.4])
    """
    func = "theorem13_bound"
    args = _params(func, surrogate_regret=(surrogate_regret, _NONNEG), p=(p, _PROB), lam=(lam, _POSITIVE))
    return _each(lambda r, p_, lam_: _strongly_proper(lam_).regret_bound(r, p_), func, *args)


def theorem15_bound(surrogate_regret: Any, p: Any, lam: Any, alpha: Any, c_alpha: Any) -> float | np.ndarray:
    r"""Agarwal's Theorem 15: the ranking regret bound under a low-noise condition.

    Parameters
    ----------
    surrogate_regret, p, lam : float or array-like
        As in :func:`theorem13_bound`: the surrogate regret, :math:`P(Y = 1)` and the
        strong properness :math:`\lambda`.
    alpha : float or array-like
        Exponent :math:`\alpha \ge 0` of :math:`P(|\eta(X) - \eta(x)| \le t) \le C t^\alpha`
        (:attr:`SingleIndex.noise_exponent`).
    c_alpha : float or array-like
        The constant :math:`C_\alpha > 0`; Agarwal (2014) leaves it implicit (it depends on
        :math:`C` and :math:`\alpha` only; :func:`theorem15_constant` derives one valid value,
        :func:`theorem15_explicit_bound` uses it). With ``alpha = 0`` and ``c_alpha = 1`` the
        bound is Theorem 13's.

    Returns
    -------
    float or ndarray

    Notes
    -----
    .. math:: \mathrm{regret}_{rank}[f] \le \frac{C_\alpha}{p(1-p)}
              \left(\frac{2}{\lambda}\right)^{\frac{1+\alpha}{2+\alpha}}
              \mathrm{regret}_\ell[f]^{\frac{1+\alpha}{2+\alpha}};

    the exponent grows from 1/2 (no condition) to 2/3 at :math:`\alpha = 1`. Evaluated by
    :meth:`rankwise.losses.ProperCompositeLoss.low_noise_bound` of a
    :math:`\lambda`-strongly proper loss. Reference: Agarwal (2014), Theorem 15.

    Examples
    --------
    >>> round(theorem15_bound(0.04, 0.5, 8.0, 0.0, 1.0), 12)     # = theorem13_bound(0.04, 0.5, 8.0)
    0.4
    >>> round(theorem15_bound(0.001, 0.5, 2.0, 1.0, 1.0), 6)     # 4 * 1 * 0.001^(2/3)
    0.04
    """
    func = "theorem15_bound"
    args = _params(func, surrogate_regret=(surrogate_regret, _NONNEG), p=(p, _PROB), lam=(lam, _POSITIVE),
                   alpha=(alpha, _NONNEG), c_alpha=(c_alpha, _POSITIVE))
    return _each(lambda r, p_, lam_, a, c: _strongly_proper(lam_).low_noise_bound(r, p_, a, c), func, *args)


def regret_bound(loss: Any, surrogate_regret: Any, p: Any) -> float | np.ndarray:
    r"""Theorem 13 for a named loss: the loss's own :meth:`~rankwise.losses.ProperCompositeLoss.regret_bound`,
    broadcast over arrays of ``p`` (:func:`theorem13_bound` with the loss's :math:`\lambda`).

    Parameters
    ----------
    loss : str or ProperCompositeLoss
        A loss of :data:`rankwise.losses.LOSSES`.
    surrogate_regret : float or array-like
    p : float or array-like

    Returns
    -------
    float or ndarray

    Examples
    --------
    >>> round(regret_bound("logistic", 0.01, 0.5), 12)
    0.282842712475
    """
    func = "regret_bound"
    loss = _losses.get(loss)
    args = _params(func, surrogate_regret=(surrogate_regret, _NONNEG), p=(p, _PROB))
    return _each(loss.regret_bound, func, *args)


def balanced_bound(surrogate_regret: Any, loss: Any) -> float | np.ndarray:
    r"""Kotlowski et al.'s bound from the *balanced* surrogate regret (no :math:`p` appears).

    Parameters
    ----------
    surrogate_regret : float or array-like
        Regret under the balanced loss (:meth:`Distribution.surrogate_regret` with
        ``balanced=True``).
    loss : {"exponential", "logistic"}

    Returns
    -------
    float or ndarray

    Notes
    -----
    .. math:: \mathrm{regret}_{rank} \le \tfrac{3}{\sqrt 2}\sqrt{\mathrm{regret}_{exp,bal}}, \qquad
              \mathrm{regret}_{rank} \le 2\sqrt{\mathrm{regret}_{log,bal}}.

    Kotlowski, Dembczynski & Hüllermeier (2011), as stated in Agarwal (2014), Eqs. 28-30;
    evaluated by :func:`rankwise.losses.balanced_regret_bound`.

    Examples
    --------
    >>> balanced_bound(0.01, "logistic")              # 2 sqrt(0.01)
    0.2
    >>> round(balanced_bound(0.02, "exponential"), 12)    # 3/sqrt(2) * sqrt(0.02) = 0.3
    0.3
    """
    out = _losses.balanced_regret_bound(surrogate_regret, loss)
    return out if isinstance(out, np.ndarray) else float(out)
