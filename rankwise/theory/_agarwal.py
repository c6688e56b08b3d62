r"""Agarwal (2014) beyond Theorem 13: an explicit constant for Theorem 15 (low noise), a direct
low-noise bound, and the pairwise route (the induced pair distribution and the pairwise
exponential and logistic regret bounds).

Notation: :math:`\eta(x) = P(Y = 1 \mid X = x)`, :math:`p = P(Y = 1)`, :math:`\ell` a
:math:`\lambda`-strongly proper composite loss, :math:`R = \mathrm{regret}_\ell[f]`, and
:math:`\hat\eta = \psi^{-1}(f)` the class probability the scorer's values stand for.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ._base import Distribution
from ._bounds import theorem15_bound
from ._checks import _NONNEG, _POSITIVE, _PROB, _check_n, _float_or_array, _params, _rng
from ._results import TheoryResult
from ._scores import _resolve_score

__all__ = ["theorem15_constant", "theorem15_explicit_bound", "conditional_low_noise_bound", "pair_eta",
           "pair_weight", "pairwise_bound", "pairwise_surrogate_regret"]

_PAIRWISE_LOSSES = ("exponential", "logistic")


def _noise_params(func: str, alpha: Any, noise_constant: Any) -> tuple[np.ndarray, np.ndarray]:
    a, c = _params(func, alpha=(alpha, _NONNEG), noise_constant=(noise_constant, _POSITIVE))
    if np.any(a > 1.0):
        raise ValueError(f"The 'alpha' parameter of {func} must be in [0, 1]: a continuous eta(X) cannot satisfy "
                         f"the low-noise condition with an exponent above 1. Got {_float_or_array(a)!r} instead.")
    if np.any(c < 1.0):
        raise ValueError(f"The 'noise_constant' parameter of {func} must be >= 1: at t = 1 the condition reads "
                         f"1 <= C. Got {_float_or_array(c)!r} instead.")
    return a, c


def theorem15_constant(alpha: Any, noise_constant: Any) -> float | np.ndarray:
    r"""An explicit :math:`C_\alpha` for Agarwal's Theorem 15, derived from the low-noise constant :math:`C`.

    Parameters
    ----------
    alpha : float or array-like in [0, 1]
        The exponent of the low-noise condition
        :math:`\sup_x P(|\eta(X) - \eta(x)| \le t) \le C t^\alpha` for all :math:`t \in [0, 1]`
        (:attr:`SingleIndex.noise_exponent`).
    noise_constant : float or array-like >= 1
        Its constant :math:`C` (:attr:`SingleIndex.noise_constant`). At :math:`t = 1` the
        condition reads :math:`1 \le C`, so smaller values are refused.

    Returns
    -------
    float or ndarray

    Notes
    -----
    .. math:: C_\alpha = \tfrac12\,(2 + \alpha)\left(\frac{4}{1 + \alpha}\right)^{\frac{1+\alpha}{2+\alpha}}
              C^{\frac{1}{2+\alpha}}.

    The theorem is stated with a constant that depends on :math:`\alpha` and :math:`C`
    only; this is one valid value, by the following argument. If a pair is misordered by
    :math:`f` (or tied), :math:`\hat\eta` orders it against :math:`\eta`, so
    :math:`|\eta(x) - \eta(x')| \le |e(x)| + |e(x')|` with :math:`e = \hat\eta - \eta`.
    From the regret identity (ties at 1/2 counted as 1), for every :math:`t > 0`,

    .. math:: 2p(1-p)\,\mathrm{regret}_{rank}[f]
              \le E\bigl[|\Delta\eta|\,\mathbf 1\{|\Delta\eta| \le t\}\bigr]
                + E\bigl[(|e(X)| + |e(X')|)^2\bigr]/t
              \le C t^{1+\alpha} + 4 s / t,

    :math:`s = E[e(X)^2]` (the first term conditions on :math:`X` and applies the
    condition at :math:`x = X`; :math:`C t^\alpha \ge 1` for :math:`t \ge 1`, so no cap on
    :math:`t` is needed). The minimum over :math:`t` is at
    :math:`t^* = (4 s / (C(1+\alpha)))^{1/(2+\alpha)}` and equals
    :math:`\frac{2+\alpha}{(1+\alpha)^{(1+\alpha)/(2+\alpha)}} C^{1/(2+\alpha)} (4s)^{(1+\alpha)/(2+\alpha)}`;
    strong properness gives :math:`s \le 2R/\lambda`, hence Theorem 15's form with the
    :math:`C_\alpha` above. At :math:`\alpha = 0`, :math:`C = 1` this is 2, twice
    Theorem 13's constant (the split into two terms costs a factor 2).

    Examples
    --------
    >>> theorem15_constant(0.0, 1.0)
    2.0
    >>> round(theorem15_constant(1.0, 2.0), 6)        # 1.5 * 2^(2/3) * 2^(1/3)
    3.0
    """
    a, c = _noise_params("theorem15_constant", alpha, noise_constant)
    e = (1.0 + a) / (2.0 + a)
    return _float_or_array(0.5 * (2.0 + a) * (4.0 / (1.0 + a)) ** e * c ** (1.0 / (2.0 + a)))


def theorem15_explicit_bound(surrogate_regret: Any, p: Any, lam: Any, alpha: Any,
                             noise_constant: Any) -> float | np.ndarray:
    r"""Agarwal's Theorem 15 with the explicit constant of :func:`theorem15_constant`.

    Parameters
    ----------
    surrogate_regret, p, lam : float or array-like
        As in :func:`theorem13_bound`.
    alpha, noise_constant : float or array-like
        The low-noise exponent :math:`\alpha \in [0, 1]` and constant :math:`C \ge 1`.

    Returns
    -------
    float or ndarray

    Notes
    -----
    .. math:: \mathrm{regret}_{rank}[f] \le \frac{C_\alpha}{p(1-p)}
              \left(\frac{2}{\lambda}\,\mathrm{regret}_\ell[f]\right)^{\frac{1+\alpha}{2+\alpha}}

    (:func:`theorem15_bound` with ``c_alpha = theorem15_constant(alpha, noise_constant)``).

    Examples
    --------
    >>> round(theorem15_explicit_bound(0.001, 0.5, 2.0, 1.0, 2.0), 6)   # 3 / 0.25 * 0.001^(2/3)
    0.12
    """
    func = "theorem15_explicit_bound"
    _noise_params(func, alpha, noise_constant)
    return theorem15_bound(surrogate_regret, p, lam, alpha, theorem15_constant(alpha, noise_constant))


def conditional_low_noise_bound(surrogate_regret: Any, p: Any, lam: Any, alpha: Any,
                                noise_constant: Any) -> float | np.ndarray:
    r"""A low-noise bound with the exponent :math:`(1+\alpha)/2` (not in Agarwal 2014; derived here).

    Parameters
    ----------
    surrogate_regret, p, lam, alpha, noise_constant : float or array-like
        As in :func:`theorem15_explicit_bound`.

    Returns
    -------
    float or ndarray

    Notes
    -----
    .. math:: \mathrm{regret}_{rank}[f] \le \frac{2^{1+\alpha} C}{p(1-p)}
              \left(\frac{2}{\lambda}\,\mathrm{regret}_\ell[f]\right)^{\frac{1+\alpha}{2}}.

    Argument: a misordered pair has :math:`|\Delta\eta| \le |e(X)| + |e(X')| \le
    2\max(|e(X)|, |e(X')|)`, so
    :math:`|\Delta\eta|\mathbf 1\{\text{misordered}\} \le
    |\Delta\eta|\mathbf 1\{|\Delta\eta| \le 2|e(X)|\} + |\Delta\eta|\mathbf 1\{|\Delta\eta| \le 2|e(X')|\}`.
    Given :math:`X`, the other point :math:`X'` is independent, and the low-noise condition
    at :math:`x = X` bounds the conditional mean of the first term by
    :math:`2|e(X)|\,C(2|e(X)|)^\alpha`. Hence
    :math:`2p(1-p)\,\mathrm{regret}_{rank} \le 2^{2+\alpha} C\,E|e|^{1+\alpha}
    \le 2^{2+\alpha} C\,(E e^2)^{(1+\alpha)/2}` (Jensen, :math:`\alpha \le 1`), and
    :math:`E e^2 \le 2R/\lambda`. Because the condition holds at *every* :math:`x`, it can be
    applied conditionally, which the split behind :func:`theorem15_constant` does not use;
    the exponent :math:`(1+\alpha)/2` is at least :math:`(1+\alpha)/(2+\alpha)`, equal at
    :math:`\alpha = 0`.

    Examples
    --------
    >>> round(conditional_low_noise_bound(0.01, 0.5, 2.0, 1.0, 2.0), 6)   # 8 / 0.25 * 0.01
    0.32
    """
    func = "conditional_low_noise_bound"
    r, p_, lam_ = _params(func, surrogate_regret=(surrogate_regret, _NONNEG), p=(p, _PROB), lam=(lam, _POSITIVE))
    a, c = _noise_params(func, alpha, noise_constant)
    try:
        out = 2.0 ** (1.0 + a) * c / (p_ * (1.0 - p_)) * (2.0 * r / lam_) ** ((1.0 + a) / 2.0)
    except ValueError:
        shapes = ", ".join(str(x.shape) for x in (r, p_, lam_, a, c))
        raise ValueError(f"The arguments of {func} have shapes {shapes}, which do not broadcast together.") from None
    return _float_or_array(out)


def _eta_array(value: Any, name: str, func: str) -> np.ndarray:
    arr = np.asarray(_params(func, **{name: (value, dict(low=0.0, high=1.0))})[0], dtype=np.float64)
    return arr


def pair_eta(eta_x: Any, eta_x2: Any) -> float | np.ndarray:
    r"""The class probability of the induced pair distribution: :math:`\tilde\eta((x, x'))`.

    Parameters
    ----------
    eta_x, eta_x2 : float or array-like in [0, 1]
        :math:`\eta(x)` and :math:`\eta(x')`, broadcast together.

    Returns
    -------
    float or ndarray

    Notes
    -----
    The pair distribution :math:`\tilde D`: draw :math:`(X, Y), (X', Y')` i.i.d., redraw
    while :math:`Y = Y'`, return :math:`\tilde X = (X, X')` and :math:`\tilde Y = +1` if
    :math:`Y` is the positive one, else :math:`-1`. Then

    .. math:: \tilde\eta((x, x')) = P(\tilde Y = 1 \mid \tilde X = (x, x')) =
              \frac{\eta(x)(1 - \eta(x'))}{\eta(x)(1 - \eta(x')) + \eta(x')(1 - \eta(x))}.

    Where the denominator is 0 (:math:`\eta(x) = \eta(x') \in \{0, 1\}`) the pair is never
    drawn; the value returned there is 1/2. Agarwal (2014), section 5.

    Examples
    --------
    >>> pair_eta(0.8, 0.5)                             # 0.4 / (0.4 + 0.1)
    0.8
    >>> pair_eta([0.3, 1.0], [0.3, 1.0]).tolist()
    [0.5, 0.5]
    """
    func = "pair_eta"
    a, b = _eta_array(eta_x, "eta_x", func), _eta_array(eta_x2, "eta_x2", func)
    try:
        num, other = a * (1.0 - b), b * (1.0 - a)
    except ValueError:
        raise ValueError(f"The arguments of {func} have shapes {a.shape}, {b.shape}, which do not broadcast "
                         f"together.") from None
    den = num + other
    with np.errstate(invalid="ignore", divide="ignore"):
        out = np.where(den > 0.0, num / np.where(den > 0.0, den, 1.0), 0.5)
    return _float_or_array(out)


def pair_weight(eta_x: Any, eta_x2: Any, p: Any) -> float | np.ndarray:
    r"""The density of the induced pair :math:`\tilde X` with respect to two independent draws of :math:`X`.

    Parameters
    ----------
    eta_x, eta_x2 : float or array-like in [0, 1]
    p : float or array-like in (0, 1)
        :math:`P(Y = 1)`.

    Returns
    -------
    float or ndarray

    Notes
    -----
    .. math:: \frac{dP_{\tilde X}}{d(P_X \otimes P_X)}(x, x') =
              \frac{\eta(x)(1 - \eta(x')) + \eta(x')(1 - \eta(x))}{2p(1-p)},

    so :math:`E_{\tilde D}[q(\tilde X)] = E_{X, X'}[\text{weight} \cdot q(X, X')]` for
    independent :math:`X, X'`; its mean over :math:`X, X'` is 1. Agarwal (2014), section 5.

    Examples
    --------
    >>> pair_weight(1.0, 0.0, 0.5)                     # 1 / (2 * 0.25)
    2.0
    """
    func = "pair_weight"
    a, b = _eta_array(eta_x, "eta_x", func), _eta_array(eta_x2, "eta_x2", func)
    (p_,) = _params(func, p=(p, _PROB))
    try:
        out = (a * (1.0 - b) + b * (1.0 - a)) / (2.0 * p_ * (1.0 - p_))
    except ValueError:
        raise ValueError(f"The arguments of {func} have shapes {a.shape}, {b.shape}, {p_.shape}, which do not "
                         f"broadcast together.") from None
    return _float_or_array(out)


def _check_pairwise_loss(loss: Any, func: str) -> str:
    name = getattr(loss, "name", loss)
    if not isinstance(name, str) or name not in _PAIRWISE_LOSSES:
        raise ValueError(f"The 'loss' parameter of {func} must be 'exponential' or 'logistic' (the pairwise losses "
                         f"with a stated bound). Got {loss!r} instead.")
    return name


def _psi(theta: np.ndarray, name: str) -> np.ndarray:
    """The psi-transform of the margin loss: psi(theta) = phi(0) - H((1 + theta)/2)."""
    if name == "exponential":
        return 1.0 - np.sqrt(np.maximum(1.0 - theta * theta, 0.0))
    with np.errstate(divide="ignore", invalid="ignore"):
        lo = np.where(theta < 1.0, 0.5 * (1.0 - theta) * np.log1p(-np.minimum(theta, 1.0 - 1e-300)), 0.0)
    return 0.5 * (1.0 + theta) * np.log1p(theta) + lo


def pairwise_bound(surrogate_regret: Any, loss: Any, *, tight: bool = False) -> float | np.ndarray:
    r"""Ranking regret from the *pairwise* exponential or logistic regret of :math:`f(x) - f(x')`.

    Parameters
    ----------
    surrogate_regret : float or array-like >= 0
        :math:`\mathrm{regret}^\phi_{\tilde D}[f_{diff}]`, the regret of the pairwise margin
        loss :math:`\phi(\tilde y (f(x) - f(x')))` on the induced pair distribution, against
        the best function of pairs (:func:`pairwise_surrogate_regret`).
    loss : {"exponential", "logistic"}
        :math:`\phi(u) = e^{-u}` or :math:`\ln(1 + e^{-u})`.
    tight : bool, default False
        False: the bound as Agarwal (2014) states it, :math:`\sqrt{2z}` (Eqs. 26-27).
        True: the inverse :math:`\psi^{-1}(z)` of the loss's :math:`\psi`-transform, which
        :math:`\sqrt{2z}` bounds from above.

    Returns
    -------
    float or ndarray

    Notes
    -----
    Ranking regret is the 0-1 regret of the pair classifier :math:`\mathrm{sign}(f(x) -
    f(x'))` on :math:`\tilde D` (ties: ``sign(0) = -1``, which averages to 1/2 over the two
    orders of a pair). The comparison theorem of Bartlett, Jordan & McAuliffe (2006, "Convexity,
    classification, and risk bounds")
    :math:`\psi(\mathrm{regret}_{0\text{-}1}) \le \mathrm{regret}_\phi` with
    :math:`\psi(\theta) = \phi(0) - H_\phi(\tfrac{1+\theta}{2})` then gives

    .. math:: \mathrm{regret}_{rank}[f] \le \psi^{-1}\bigl(\mathrm{regret}^\phi_{\tilde D}[f_{diff}]\bigr)
              \le \sqrt{2\,\mathrm{regret}^\phi_{\tilde D}[f_{diff}]},

    with :math:`\psi_{exp}(\theta) = 1 - \sqrt{1 - \theta^2}` (so
    :math:`\psi_{exp}^{-1}(z) = \sqrt{1 - (1 - z)^2}` for :math:`z \le 1`) and
    :math:`\psi_{log}(\theta) = \frac{1+\theta}{2}\ln(1+\theta) + \frac{1-\theta}{2}\ln(1-\theta)`
    (inverted numerically); both are at least :math:`\theta^2/2`. No :math:`p` appears:
    :math:`\tilde D` is balanced (:math:`P(\tilde Y = 1) = 1/2`). The exact inverse is
    capped at 1, where :math:`\psi` ends. Agarwal (2014), section 5, Eqs. 24-27.

    Examples
    --------
    >>> pairwise_bound(0.02, "logistic")               # sqrt(0.04)
    0.2
    >>> round(pairwise_bound(0.02, "exponential", tight=True), 6)    # sqrt(1 - 0.98^2)
    0.198997
    """
    func = "pairwise_bound"
    name = _check_pairwise_loss(loss, func)
    if not isinstance(tight, (bool, np.bool_)):
        raise TypeError(f"The 'tight' parameter of {func} must be a bool. Got {tight!r} instead.")
    (z,) = _params(func, surrogate_regret=(surrogate_regret, _NONNEG))
    if not tight:
        return _float_or_array(np.sqrt(2.0 * z))
    if name == "exponential":
        return _float_or_array(np.sqrt(1.0 - (1.0 - np.minimum(z, 1.0)) ** 2))
    # psi_log is increasing on [0, 1] from 0 to ln 2: bisection, 80 halvings of [0, 1].
    top = math.log(2.0)
    lo, hi = np.zeros(z.shape), np.ones(z.shape)
    for _ in range(80):
        mid = 0.5 * (lo + hi)
        below = _psi(mid, name) < z
        lo, hi = np.where(below, mid, lo), np.where(below, hi, mid)
    return _float_or_array(np.where(z >= top, 1.0, hi))


def _phi(u: np.ndarray, name: str) -> np.ndarray:
    return np.exp(-u) if name == "exponential" else np.logaddexp(0.0, -u)


def _pair_bayes(a: np.ndarray, b: np.ndarray, name: str) -> np.ndarray:
    """(a + b) H(a / (a + b)) for a = eta(1 - eta'), b = eta'(1 - eta): the pair's Bayes risk times its weight."""
    if name == "exponential":
        return 2.0 * np.sqrt(a * b)
    s = a + b
    with np.errstate(divide="ignore", invalid="ignore"):
        ta = np.where(a > 0.0, a * np.log(np.where(a > 0.0, a, 1.0) / np.where(s > 0.0, s, 1.0)), 0.0)
        tb = np.where(b > 0.0, b * np.log(np.where(b > 0.0, b, 1.0) / np.where(s > 0.0, s, 1.0)), 0.0)
    return -(ta + tb)


def pairwise_surrogate_regret(dist: Distribution, score_fn: Any, loss: Any, *, n_mc: int = 200_000,
                              random_state: Any = None) -> TheoryResult:
    r"""The pairwise exponential or logistic regret of :math:`f(x) - f(x')` on the induced pair distribution.

    Parameters
    ----------
    dist : Distribution
        A law with known :math:`\eta` (:mod:`rankwise.theory`).
    score_fn : callable
        The scorer :math:`f` (``X -> n`` scores); the pair function is :math:`f(x) - f(x')`.
    loss : {"exponential", "logistic"}
    n_mc : int >= 2, default 200000
        Number of independent pairs :math:`(X, X')` drawn from the marginal of :math:`X`.
    random_state : None, int, numpy Generator or RandomState

    Returns
    -------
    TheoryResult
        Monte Carlo: the mean of the per-pair term below over ``n_mc`` independent pairs,
        standard error ``sd / sqrt(n_mc)``.

    Notes
    -----
    With :math:`a = \eta(x)(1 - \eta(x'))`, :math:`b = \eta(x')(1 - \eta(x))`,
    :math:`\delta = f(x) - f(x')` and :func:`pair_weight` for the change of measure,

    .. math:: \mathrm{regret}^\phi_{\tilde D}[f_{diff}] = \frac{1}{2p(1-p)}
              E_{X, X'}\Bigl[a\,\phi(\delta) + b\,\phi(-\delta)
              - (a + b)\,H_\phi\bigl(\tfrac{a}{a+b}\bigr)\Bigr],

    :math:`H_{exp}(q) = 2\sqrt{q(1-q)}`, :math:`H_{log}(q)` the binary entropy in nats; the
    infimum is over all functions of pairs, and it is attained by a difference
    (:math:`\tfrac12(\mathrm{logit}\,\eta(x) - \mathrm{logit}\,\eta(x'))` for the exponential
    loss, :math:`\mathrm{logit}\,\eta(x) - \mathrm{logit}\,\eta(x')` for the logistic). The
    risk term is the population value of ``rankwise.losses.pairwise(loss)`` (positive-negative
    pairs). Agarwal (2014), section 5.
    """
    func = "pairwise_surrogate_regret"
    if not isinstance(dist, Distribution):
        raise TypeError(f"The 'dist' parameter of {func} must be a rankwise.theory Distribution. "
                        f"Got {type(dist).__name__} instead.")
    name = _check_pairwise_loss(loss, func)
    n_mc = _check_n(n_mc, "n_mc", func, low=2)
    score = _resolve_score(score_fn, func)
    eta, f = dist._draw(2 * n_mc, _rng(random_state, func), score, func)
    e1, e2, d = eta[:n_mc], eta[n_mc:], f[:n_mc] - f[n_mc:]
    a, b = e1 * (1.0 - e2), e2 * (1.0 - e1)
    p = float(dist.p)
    with np.errstate(over="ignore", invalid="ignore"):
        risk = np.where(a > 0.0, a * _phi(d, name), 0.0) + np.where(b > 0.0, b * _phi(-d, name), 0.0)
        term = (risk - _pair_bayes(a, b, name)) / (2.0 * p * (1.0 - p))
    value = float(term.mean())
    with np.errstate(invalid="ignore"):
        se = float(term.std(ddof=1)) / math.sqrt(n_mc) if np.isfinite(value) else math.inf
    detail = (f"mean over n_mc independent pairs (X, X') of the weighted pairwise {name} conditional regret; "
              f"standard error sd/sqrt(n_mc)")
    return TheoryResult(value, se, "monte_carlo", n_mc, 0.0, detail)
