r"""Distributions with a known ``eta``, their ranking quantities, and the bounds as functions.

Several results of the theory rankwise implements (``THEORY.md`` sections 2-4) are
statements about *regret*, which needs the class probability
:math:`\eta(x) = P(Y = 1 \mid X = x)`. This module provides joint laws of
:math:`(X, Y)`, :math:`Y \in \{0, 1\}` (1 = positive), :math:`p = P(Y = 1)`, whose
:math:`\eta` is known in closed form, and for each of them the population quantities
that the bounds talk about:

==============================  =============================================================
:class:`BinormalShared`         two Gaussians, shared covariance: :math:`\eta` logistic-linear
:class:`BinormalDifferent`      two Gaussians, different covariances: logistic-quadratic
:class:`SingleIndex`            :math:`\eta(x) = g(w^\top x + b)`, ``x`` Gaussian or uniform;
                                the ``"noise"`` link sets the low-noise exponent ``alpha``
:class:`GaussianMixtures`       paper 003's synthetic data (K isotropic components per class)
==============================  =============================================================

and the bounds of the papers as plain vectorised functions: :func:`theorem13_bound`,
:func:`theorem15_bound`, :func:`regret_bound` (Agarwal 2014), :func:`balanced_bound`
(Kotlowski et al. 2011), :func:`lcbr_sample_size`, :func:`bbr_tail_bound`,
:func:`lcbr_tail_bound` and :func:`ball_covering_number` (Gultekin & Paisley 2020).
The module is not imported by ``import rankwise``; use ``import rankwise.theory``.

Every population quantity is returned as a :class:`TheoryResult` (``value``,
``std_error``, ``method``, ...). ``method`` says how it was computed:

- ``"closed_form"``: a formula (e.g. the binormal AUC :math:`\Phi(\Delta/\sqrt{2})`);
- ``"quadrature"``: a one-dimensional integral by adaptive quadrature
  (``scipy.integrate.quad``); ``error_bound`` holds its absolute error estimate;
- ``"monte_carlo"``: an average over ``n_mc`` i.i.d. draws, with its standard error.

Which applies, per distribution and method (``method="auto"`` takes the exact route
where one exists; ``"exact"`` raises where none does; ``"monte_carlo"`` forces the
simulation):

=======================  ==========================================  ==============================
quantity                 exact route                                 otherwise
=======================  ==========================================  ==============================
``bayes_ranking_error``  BinormalShared (closed form); SingleIndex   Monte Carlo U-statistic
                         (noise link: closed form; other links:
                         quadrature)
``ranking_error``        ``score_fn = dist.eta`` where the Bayes     Monte Carlo U-statistic
                         error is exact; a :class:`LinearScore`
                         under the three Gaussian families (closed
                         form) or, in SingleIndex, along ``w``
``ranking_regret``       both errors exact (their difference), or    regret identity, Monte Carlo
                         ``score_fn = dist.eta`` (0)                 U-statistic
``surrogate_regret``     none                                        Monte Carlo mean
``w_phi``                :class:`LinearScore` under the Gaussian     two-sample Monte Carlo,
                         families, ``eta`` or a score along ``w``    delete-a-group jackknife
                         in SingleIndex (quadrature); the AUC        standard error
                         ``phi`` wherever the AUC is exact
=======================  ==========================================  ==============================

``auc`` and ``bayes_auc`` are one minus the errors and take the same routes.

A *score function* is any callable mapping an array ``X`` of shape ``(n, d)`` to ``n``
real scores, higher = more likely positive: ``dist.eta``, ``est.decision_function`` of
a fitted estimator (or the estimator itself), or a :class:`LinearScore`, which the
exact routes recognise (wrap a fitted linear model as
``LinearScore(est.coef_, est.intercept_)`` to use them).

Conventions: ties between scores count 1/2 (``THEORY.md`` sections 2 and 4); the
scores are never flipped; numbers accumulate in float64.

References
----------
S. Clémençon, N. Vayatis. Empirical performance maximization for linear rank statistics.
NIPS 2008 (paper 000).

S. Clémençon, G. Lugosi, N. Vayatis. Ranking and empirical minimization of
U-statistics. Ann. Statist. 36(2), 2008 (paper 001).

M. Gultekin, J. Paisley. Linear complexity bipartite ranking. UAI 2020,
arXiv:1912.00537 (paper 003).

S. Agarwal. Surrogate regret bounds for bipartite ranking via strongly proper losses.
JMLR 15:1653-1674, 2014 (paper 004).

W. Kotlowski, K. Dembczynski, E. Hüllermeier. Bipartite ranking through minimization of
univariate loss. ICML 2011.
"""

from __future__ import annotations

import abc
import itertools
import math
import numbers
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np
from scipy import integrate, linalg, optimize
from scipy.special import expit, logsumexp, ndtr, ndtri

from . import losses as _losses
from . import phi as _phi
from ._validation import check_choice, check_param

__all__ = [
    "TheoryResult",
    "LinearScore",
    "Distribution",
    "BinormalShared",
    "BinormalDifferent",
    "SingleIndex",
    "GaussianMixtures",
    "theorem13_bound",
    "theorem15_bound",
    "regret_bound",
    "balanced_bound",
    "lcbr_sample_size",
    "bbr_tail_bound",
    "lcbr_tail_bound",
    "ball_covering_number",
]

_CHUNK = 65_536          # rows drawn (and scored) at a time: memory stays O(chunk * d)
_N_MC = 200_000          # default Monte Carlo size
_JACKKNIFE_GROUPS = 20   # groups of the delete-a-group jackknife of w_phi
_MAX_UNIFORM_TERMS = 8   # exact law of w^T x for x uniform: 2^m terms, m nonzero weights
_QUAD = dict(limit=400, epsabs=1e-13, epsrel=1e-11)
_METHODS = ("auto", "exact", "monte_carlo")


# ----------------------------------------------------------------------------
# Results
# ----------------------------------------------------------------------------


@dataclass(frozen=True)
class TheoryResult:
    r"""A population quantity with how it was computed.

    Attributes
    ----------
    value : float
        The quantity (an error, a regret, an AUC, ``W_phi``, ...).
    std_error : float
        Monte Carlo standard error; 0.0 for the exact routes.
    method : str
        ``"closed_form"``, ``"quadrature"`` or ``"monte_carlo"``.
    n_mc : int or None
        Number of i.i.d. draws behind a Monte Carlo value.
    error_bound : float
        Numerical error of an exact route: the absolute error estimate of the quadrature
        (0.0 for a closed form and for Monte Carlo).
    detail : str
        One line on the estimator (which formula, which U-statistic, ...).

    Examples
    --------
    >>> r = TheoryResult(0.25, 0.01, "monte_carlo", n_mc=10_000)
    >>> [round(v, 4) for v in r.confidence_interval(0.95)]    # 0.25 -+ 1.96 * 0.01
    [0.2304, 0.2696]
    >>> float(r)
    0.25
    """

    value: float
    std_error: float
    method: str
    n_mc: int | None = None
    error_bound: float = 0.0
    detail: str = ""

    @property
    def exact(self) -> bool:
        """True for the closed-form and quadrature routes."""
        return self.method != "monte_carlo"

    def confidence_interval(self, confidence_level: float = 0.95) -> tuple[float, float]:
        r"""Normal interval ``value -+ (z std_error + error_bound)``, ``z`` the normal quantile.

        Parameters
        ----------
        confidence_level : float in (0, 1)

        Returns
        -------
        (low, high) : tuple of float
            For an exact route, ``value -+ error_bound``.
        """
        cl = check_param(confidence_level, "confidence_level", "TheoryResult.confidence_interval",
                         low=0.0, high=1.0, low_inclusive=False, high_inclusive=False)
        half = float(ndtri(0.5 + cl / 2.0)) * self.std_error + self.error_bound
        return (self.value - half, self.value + half)

    def __float__(self) -> float:
        return float(self.value)

    def _shift(self, value: float, detail: str | None = None) -> "TheoryResult":
        return TheoryResult(float(value), self.std_error, self.method, self.n_mc, self.error_bound,
                            self.detail if detail is None else detail)


def _closed(value: float, detail: str) -> TheoryResult:
    return TheoryResult(float(value), 0.0, "closed_form", None, 0.0, detail)


def _quadrature(value: float, abserr: float, detail: str) -> TheoryResult:
    return TheoryResult(float(value), 0.0, "quadrature", None, float(abserr), detail)


def _weaker(a: TheoryResult, b: TheoryResult) -> str:
    return "quadrature" if "quadrature" in (a.method, b.method) else "closed_form"


# ----------------------------------------------------------------------------
# Score functions
# ----------------------------------------------------------------------------


class LinearScore:
    r"""The linear score function :math:`s(x) = a^\top x + c`.

    A plain callable that the exact routes of the distributions recognise: under the
    Gaussian families a linear score has a Gaussian (mixture) law in each class, so its
    AUC and ``W_phi`` are exact.

    Parameters
    ----------
    coef : array-like of shape (d,)
        The weights :math:`a`.
    intercept : float, default 0.0
        The offset :math:`c` (no effect on rankings; it matters for surrogate regrets,
        where the score is the loss's prediction).

    Examples
    --------
    >>> import numpy as np
    >>> s = LinearScore([1.0, -2.0], intercept=0.5)
    >>> s(np.array([[1.0, 1.0], [0.0, 0.0]]))
    array([-0.5,  0.5])
    """

    def __init__(self, coef: Any, intercept: float = 0.0):
        coef = _as_vector(coef, "coef", "LinearScore")
        self.coef = coef
        self.intercept = check_param(intercept, "intercept", "LinearScore")

    def __call__(self, X: Any) -> np.ndarray:
        X = _check_X(X, self.coef.size, "LinearScore")
        return X @ self.coef + self.intercept

    def __repr__(self) -> str:
        return f"LinearScore(coef={self.coef.tolist()!r}, intercept={self.intercept!r})"


def _resolve_score(score_fn: Any, func: str) -> Callable:
    if callable(score_fn):
        return score_fn
    if hasattr(score_fn, "decision_function"):
        return score_fn.decision_function
    raise TypeError(
        f"The 'score_fn' argument of {func} must be a callable mapping X of shape (n, d) to n scores "
        f"(e.g. dist.eta, est.decision_function or a rankwise.theory.LinearScore). "
        f"Got {type(score_fn).__name__} instead."
    )


def _eval_score(score: Callable, X: np.ndarray, func: str) -> np.ndarray:
    try:
        out = np.asarray(score(X))
    except ValueError as exc:
        raise ValueError(f"The 'score_fn' of {func} failed on an array X of shape {X.shape}: {exc}") from exc
    except Exception as exc:  # noqa: BLE001 - re-raised with context
        raise TypeError(f"The 'score_fn' of {func} failed on an array X of shape {X.shape}: {exc}") from exc
    if out.ndim == 2 and out.shape[1] == 1:
        out = out[:, 0]
    if out.shape != (X.shape[0],):
        raise ValueError(
            f"The 'score_fn' of {func} must return one score per row of X: for X of shape {X.shape} it "
            f"returned an array of shape {out.shape}."
        )
    if out.dtype.kind not in "biuf":
        raise TypeError(f"The 'score_fn' of {func} must return real numbers. Got dtype {out.dtype} instead.")
    out = out.astype(np.float64, copy=False)
    if not np.isfinite(out).all():
        raise ValueError(
            f"The 'score_fn' of {func} returned {int((~np.isfinite(out)).sum())} NaN or infinite score(s); "
            f"scores must be finite."
        )
    return out


# ----------------------------------------------------------------------------
# Input checks
# ----------------------------------------------------------------------------


def _rng(random_state: Any, func: str) -> np.random.Generator:
    if isinstance(random_state, np.random.Generator):
        return random_state
    if isinstance(random_state, np.random.RandomState):
        return np.random.default_rng(random_state.randint(0, 2**31 - 1, size=4))
    if random_state is None or (isinstance(random_state, numbers.Integral) and not isinstance(random_state, bool)):
        if random_state is not None and random_state < 0:
            raise ValueError(f"The 'random_state' parameter of {func} must be a non-negative integer. "
                             f"Got {random_state!r} instead.")
        return np.random.default_rng(random_state)
    if isinstance(random_state, np.random.SeedSequence):
        return np.random.default_rng(random_state)
    raise TypeError(
        f"The 'random_state' parameter of {func} must be None, an int, a numpy Generator or RandomState. "
        f"Got {type(random_state).__name__} instead."
    )


def _as_real_array(x: Any, name: str, func: str) -> np.ndarray:
    try:
        arr = np.asarray(x)
        if arr.dtype.kind not in "biuf":
            raise TypeError(f"dtype {arr.dtype}")
        arr = arr.astype(np.float64)
    except (TypeError, ValueError) as exc:
        raise TypeError(
            f"The '{name}' parameter of {func} must hold real numbers. Got {type(x).__name__} that could not "
            f"be read as numbers: {exc}"
        ) from exc
    if not np.isfinite(arr).all():
        raise ValueError(f"The '{name}' parameter of {func} must hold finite real numbers; it has NaN or infinite values.")
    return arr


def _as_vector(x: Any, name: str, func: str, d: int | None = None) -> np.ndarray:
    arr = _as_real_array(x, name, func)
    if arr.ndim == 0:
        arr = arr.reshape(1)
    if arr.ndim != 1 or arr.size == 0:
        raise ValueError(f"The '{name}' parameter of {func} must be a non-empty 1-D vector. Got shape {arr.shape} instead.")
    if d is not None and arr.size != d:
        raise ValueError(f"The '{name}' parameter of {func} must have length {d} (the dimension). Got length {arr.size} instead.")
    return arr


def _as_cov(cov: Any, d: int, name: str, func: str) -> tuple[np.ndarray, np.ndarray]:
    """A scalar (times I), a vector (diagonal) or a (d, d) matrix -> (cov, lower Cholesky factor)."""
    arr = _as_real_array(cov, name, func)
    if arr.ndim == 0:
        arr = np.eye(d) * float(arr)
    elif arr.ndim == 1:
        if arr.size != d:
            raise ValueError(f"The '{name}' parameter of {func} as a vector is the diagonal and must have length {d}. "
                             f"Got length {arr.size} instead.")
        arr = np.diag(arr)
    elif arr.shape != (d, d):
        raise ValueError(f"The '{name}' parameter of {func} must be a scalar, a length-{d} diagonal or a ({d}, {d}) "
                         f"matrix. Got shape {arr.shape} instead.")
    if not np.allclose(arr, arr.T, rtol=1e-10, atol=1e-12 * max(1.0, float(np.abs(arr).max()))):
        raise ValueError(f"The '{name}' parameter of {func} must be a symmetric matrix; it is not.")
    arr = 0.5 * (arr + arr.T)
    try:
        chol = np.linalg.cholesky(arr)
    except np.linalg.LinAlgError as exc:
        raise ValueError(f"The '{name}' parameter of {func} must be positive definite; it is not.") from exc
    return arr, chol


def _check_X(X: Any, d: int, func: str) -> np.ndarray:
    arr = _as_real_array(X, "X", func)
    if arr.ndim == 1 and d == 1:
        arr = arr[:, None]
    if arr.ndim != 2 or arr.shape[1] != d:
        raise ValueError(f"The 'X' argument of {func} must have shape (n, {d}). Got shape {arr.shape} instead.")
    return arr


def _check_p(p: Any, func: str) -> float:
    return check_param(p, "p", func, low=0.0, high=1.0, low_inclusive=False, high_inclusive=False)


def _check_n(n: Any, name: str, func: str, low: int = 1) -> int:
    return check_param(n, name, func, low=low, integer=True)


def _check_method(method: Any, func: str) -> str:
    return check_choice(method, "method", func, _METHODS)


# ----------------------------------------------------------------------------
# Monte Carlo kernels (validated arrays in, plain numbers out)
# ----------------------------------------------------------------------------


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


def _u_result(h1: np.ndarray, scale: float, detail: str, clip: bool = False) -> TheoryResult:
    """U-statistic ``scale * mean(h1)`` with the first-order (Hoeffding) standard error
    ``scale * 2 sd(h1) / sqrt(n)``."""
    n = h1.size
    value = scale * float(h1.mean())
    if clip:
        value = max(value, 0.0)
    se = scale * 2.0 * float(h1.std(ddof=1)) / math.sqrt(n)
    return TheoryResult(value, se, "monte_carlo", n, 0.0, detail)


_U_DETAIL = ("U-statistic over all pairs of n_mc i.i.d. draws of X, with eta in place of the labels; "
             "standard error 2 sd(h1)/sqrt(n_mc) from the Hoeffding projection h1")


# ----------------------------------------------------------------------------
# Laws of a linear score under the Gaussian families
# ----------------------------------------------------------------------------


@dataclass(frozen=True)
class _Mixture:
    """A finite mixture of normals on the real line (weights sum to 1)."""

    weights: np.ndarray
    means: np.ndarray
    sds: np.ndarray

    def cdf(self, s: float) -> float:
        return float(np.dot(self.weights, ndtr((s - self.means) / self.sds)))


def _mixture_error(pos: _Mixture, neg: _Mixture) -> float:
    """P(S1 < S0) for independent mixtures: sum_kl w_k w_l Phi(-(m1k - m0l) / sqrt(s1k^2 + s0l^2))."""
    diff = pos.means[:, None] - neg.means[None, :]
    sd = np.sqrt(pos.sds[:, None] ** 2 + neg.sds[None, :] ** 2)
    return float(pos.weights @ ndtr(-diff / sd) @ neg.weights)


def _mixture_w_phi(pos: _Mixture, neg: _Mixture, p: float, phi: _phi.Phi) -> tuple[float, float]:
    r"""``W_phi = int phi(F(s)) dG(s)``, ``G`` the positive law, ``F = p G + (1-p) H``, by quadrature
    per positive component (``s = m + sd z``, ``z`` in [-12, 12]: the rest has mass < 1e-32)."""
    def F(s: float) -> float:
        return p * pos.cdf(s) + (1.0 - p) * neg.cdf(s)

    breaks = []
    if phi.name == "local_auc":
        u0 = phi.params["u0"]
        lo = float(min(pos.means.min(), neg.means.min()) - 40 * max(pos.sds.max(), neg.sds.max()))
        hi = float(max(pos.means.max(), neg.means.max()) + 40 * max(pos.sds.max(), neg.sds.max()))
        breaks.append(optimize.brentq(lambda s: F(s) - u0, lo, hi, xtol=1e-14, rtol=1e-15))
    total, err = 0.0, 0.0
    for w, m, sd in zip(pos.weights, pos.means, pos.sds):
        pts = [(b - m) / sd for b in breaks if -12.0 < (b - m) / sd < 12.0]
        val, e = integrate.quad(lambda z: float(phi(F(m + sd * z))) * math.exp(-0.5 * z * z),
                                -12.0, 12.0, points=pts or None, **_QUAD)
        total += w * val / math.sqrt(2.0 * math.pi)
        err += w * e / math.sqrt(2.0 * math.pi)
    return total, err


# ----------------------------------------------------------------------------
# The base class
# ----------------------------------------------------------------------------


class Distribution(abc.ABC):
    r"""A joint law of :math:`(X, Y)`, :math:`Y \in \{0, 1\}`, with :math:`\eta` in closed form.

    Subclasses: :class:`BinormalShared`, :class:`BinormalDifferent`, :class:`SingleIndex`,
    :class:`GaussianMixtures`. They share the methods below; the module docstring says
    which are exact for which distribution.

    Attributes
    ----------
    p : float
        :math:`P(Y = 1)`.
    dim : int
        The dimension of :math:`X`.

    Notes
    -----
    Definitions (``THEORY.md`` sections 1, 2 and 4; ties count 1/2):

    - ranking error :math:`\mathrm{er}_{rank}[f] = E[\mathbf 1((Y - Y')(f(X) - f(X')) < 0)
      + \frac12 \mathbf 1(f(X) = f(X')) \mid Y \ne Y'] = 1 - \mathrm{AUC}(f)`;
    - Bayes ranking error :math:`\mathrm{er}^*_{rank} = \frac{1}{2p(1-p)}
      E_{X,X'}[\min(\eta(X)(1-\eta(X')), \eta(X')(1-\eta(X)))] = \mathrm{er}_{rank}[\eta]`;
    - ranking regret (identity of Clémençon, Lugosi & Vayatis; Agarwal's Theorem 11)
      :math:`\mathrm{er}_{rank}[f] - \mathrm{er}^*_{rank} = \frac{1}{2p(1-p)} E[|\eta(X) -
      \eta(X')| (\mathbf 1((f(X) - f(X'))(\eta(X) - \eta(X')) < 0) + \frac12 \mathbf 1(f(X) = f(X')))]`;
    - surrogate regret of a proper composite loss :math:`\ell`:
      :math:`E[L(\eta(X), f(X))] - E[H(\eta(X))]`;
    - :math:`W_\phi(s) = E[\phi(F_s(s(X))) \mid Y = 1]`, :math:`F_s` the cdf of :math:`s(X)`.

    The Monte Carlo route for the three ranking quantities is one U-statistic over
    all pairs of ``n_mc`` i.i.d. draws of :math:`X`: the pair kernel is the
    probability, given :math:`(X, X')`, that the pair is a positive-negative pair ranked
    the wrong way, :math:`\eta(X)(1-\eta(X'))\mathbf 1(f(X) < f(X')) + \ldots`, so the
    labels never need drawing. Sorting by the score computes it in O(n log n); its
    standard error is :math:`2\,\mathrm{sd}(h_1)/\sqrt{n}`, :math:`h_1` the Hoeffding
    projection (the degenerate part is O(1/n)). Bayes error, error and regret drawn with
    the same ``random_state`` and ``n_mc`` use the same draws, and then
    ``ranking_error - bayes_ranking_error == ranking_regret`` holds pair by pair (to
    rounding): the regret kernel is the difference of the two error kernels.
    """

    # -- what subclasses provide ---------------------------------------------

    @property
    @abc.abstractmethod
    def p(self) -> float:
        """P(Y = 1)."""

    @property
    @abc.abstractmethod
    def dim(self) -> int:
        """Dimension of X."""

    @abc.abstractmethod
    def _eta(self, X: np.ndarray) -> np.ndarray:
        """eta on validated X."""

    @abc.abstractmethod
    def _sample_marginal(self, n: int, rng: np.random.Generator) -> np.ndarray:
        """n i.i.d. draws of X."""

    def _sample_joint(self, n: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
        """Default: Y ~ Bernoulli(eta(X)) given X from the marginal."""
        X = self._sample_marginal(n, rng)
        y = (rng.random(n) < self._eta(X)).astype(np.int64)
        return X, y

    def _sample_class(self, label: int, n: int, rng: np.random.Generator) -> np.ndarray:
        """Default: rejection from the marginal, accepting with probability eta (or 1 - eta)."""
        out, have = [], 0
        while have < n:
            m = max(1024, int(1.2 * (n - have) / max(self.p if label else 1.0 - self.p, 1e-3)))
            X = self._sample_marginal(min(m, 4 * _CHUNK), rng)
            e = self._eta(X)
            keep = rng.random(X.shape[0]) < (e if label else 1.0 - e)
            out.append(X[keep])
            have += int(keep.sum())
        return np.concatenate(out)[:n]

    def _exact_bayes(self) -> TheoryResult | None:
        return None

    def _linear_laws(self, coef: np.ndarray) -> tuple[_Mixture, _Mixture] | None:
        """Class-conditional laws of ``coef^T X`` when they are normal mixtures (Gaussian families)."""
        return None

    def _exact_error(self, score: Callable) -> TheoryResult | None:
        if self._is_own_eta(score):
            return self._exact_bayes()
        if isinstance(score, LinearScore) and score.coef.size == self.dim:
            if not score.coef.any():
                return _closed(0.5, "a constant score: every positive-negative pair is tied")
            laws = self._linear_laws(score.coef)
            if laws is not None:
                return _closed(_mixture_error(*laws),
                               "linear score, Gaussian (mixture) class laws: "
                               "sum_kl w_k w_l Phi(-(m1k - m0l) / sqrt(s1k^2 + s0l^2))")
        return None

    def _exact_w_phi(self, score: Callable, phi: _phi.Phi) -> TheoryResult | None:
        if isinstance(score, LinearScore) and score.coef.size == self.dim and score.coef.any():
            laws = self._linear_laws(score.coef)
            if laws is not None:
                val, err = _mixture_w_phi(*laws, self.p, phi)
                return _quadrature(val, err, "linear score, Gaussian (mixture) class laws: "
                                             "int phi(F(s)) dG(s) by quadrature per positive component")
        return None

    def _is_own_eta(self, score: Callable) -> bool:
        return getattr(score, "__self__", None) is self and getattr(score, "__func__", None) is Distribution.eta

    # -- sampling --------------------------------------------------------------

    def eta(self, X: Any) -> np.ndarray:
        r"""The class probability :math:`\eta(x) = P(Y = 1 \mid X = x)`, in closed form.

        Parameters
        ----------
        X : array-like of shape (n, dim)
            (A 1-D array is read as ``n`` points when ``dim == 1``.)

        Returns
        -------
        ndarray of shape (n,)

        Examples
        --------
        >>> d = BinormalShared([1.0], [-1.0], 1.0)        # eta(x) = expit(2 x)
        >>> d.eta([0.0, 1.0]).round(6)                      # expit(0), expit(2)
        array([0.5     , 0.880797])
        """
        return self._eta(_check_X(X, self.dim, f"{type(self).__name__}.eta"))

    def sample(self, n: int, random_state: Any = None) -> tuple[np.ndarray, np.ndarray]:
        """``n`` i.i.d. draws of ``(X, Y)`` from the joint law.

        Parameters
        ----------
        n : int >= 1
        random_state : None, int, numpy Generator or RandomState
            The same seed gives the same sample.

        Returns
        -------
        X : ndarray of shape (n, dim), float64
        y : ndarray of shape (n,), int64 in {0, 1}

        Examples
        --------
        >>> X, y = BinormalShared([1.0, 0.0], [-1.0, 0.0], 1.0).sample(4, random_state=0)
        >>> X.shape, y.shape
        ((4, 2), (4,))
        """
        func = f"{type(self).__name__}.sample"
        n = _check_n(n, "n", func)
        return self._sample_joint(n, _rng(random_state, func))

    def sample_stratified(self, n_pos: int, n_neg: int, random_state: Any = None,
                          *, shuffle: bool = True) -> tuple[np.ndarray, np.ndarray]:
        """``n_pos`` i.i.d. draws from the law of ``X | Y = 1`` and ``n_neg`` from ``X | Y = 0``.

        Parameters
        ----------
        n_pos, n_neg : int >= 0
            Class sizes (at least one of them positive).
        random_state : None, int, numpy Generator or RandomState
        shuffle : bool, default True
            Shuffle the rows; otherwise the positives come first.

        Returns
        -------
        X : ndarray of shape (n_pos + n_neg, dim)
        y : ndarray of shape (n_pos + n_neg,), int64 in {0, 1}

        Notes
        -----
        The Gaussian families draw each class directly; :class:`SingleIndex` draws
        :math:`X` from its marginal and keeps it with probability :math:`\\eta(X)` (or
        :math:`1 - \\eta(X)`), which is exact rejection sampling.
        """
        func = f"{type(self).__name__}.sample_stratified"
        n_pos = _check_n(n_pos, "n_pos", func, low=0)
        n_neg = _check_n(n_neg, "n_neg", func, low=0)
        if n_pos + n_neg == 0:
            raise ValueError(f"{func} needs n_pos + n_neg >= 1. Got n_pos = n_neg = 0.")
        rng = _rng(random_state, func)
        X1 = self._sample_class(1, n_pos, rng) if n_pos else np.empty((0, self.dim))
        X0 = self._sample_class(0, n_neg, rng) if n_neg else np.empty((0, self.dim))
        X = np.concatenate([X1, X0])
        y = np.concatenate([np.ones(n_pos, np.int64), np.zeros(n_neg, np.int64)])
        if shuffle:
            perm = rng.permutation(X.shape[0])
            X, y = X[perm], y[perm]
        return X, y

    # -- Monte Carlo draws --------------------------------------------------------

    def _draw(self, n: int, rng: np.random.Generator, score: Callable | None, func: str):
        """eta (and the scores) at n i.i.d. draws of X, in chunks; the same draws for
        the same rng whatever the score."""
        etas, fs = [], []
        left = n
        while left > 0:
            m = min(left, _CHUNK)
            X = self._sample_marginal(m, rng)
            etas.append(self._eta(X))
            if score is not None:
                fs.append(_eval_score(score, X, func))
            left -= m
        eta = np.concatenate(etas)
        return eta, (np.concatenate(fs) if score is not None else None)

    # -- ranking quantities --------------------------------------------------------

    def bayes_ranking_error(self, *, n_mc: int = _N_MC, random_state: Any = None,
                            method: str = "auto") -> TheoryResult:
        r"""The Bayes ranking error :math:`\mathrm{er}^*_{rank}`, the smallest ranking error of any scorer.

        Parameters
        ----------
        n_mc : int >= 10, default 200000
            Draws for the Monte Carlo route.
        random_state : None, int, numpy Generator or RandomState
            Seed of the Monte Carlo route.
        method : {"auto", "exact", "monte_carlo"}
            ``"auto"``: exact where available, else Monte Carlo; ``"exact"`` raises where
            no exact route exists.

        Returns
        -------
        TheoryResult

        Notes
        -----
        .. math:: \mathrm{er}^*_{rank} = \frac{1}{2p(1-p)} E_{X,X'}\left[\min\left(\eta(X)(1-\eta(X')),
                  \eta(X')(1-\eta(X))\right)\right] = \frac12 - \frac{E|\eta(X) - \eta(X')|}{4p(1-p)},

        which is the ranking error of :math:`\eta` itself (Agarwal 2014, section 4;
        ``THEORY.md`` section 4). Exact routes: :class:`BinormalShared`
        (:math:`\Phi(-\Delta/\sqrt2)`, :math:`\Delta` the Mahalanobis distance between
        the means) and :class:`SingleIndex` (one-dimensional integral; closed form for
        the noise link). Otherwise the U-statistic of the class docstring with
        :math:`f = \eta`.
        """
        func = f"{type(self).__name__}.bayes_ranking_error"
        method = _check_method(method, func)
        n_mc = _check_n(n_mc, "n_mc", func, low=10)
        if method != "monte_carlo":
            exact = self._exact_bayes()
            if exact is not None:
                return exact
            if method == "exact":
                raise ValueError(f"{func} has no exact route for this distribution; use method='auto' or 'monte_carlo'.")
        eta, _ = self._draw(n_mc, _rng(random_state, func), None, func)
        return _u_result(_pair_projection(eta, eta), 1.0 / (2.0 * self.p * (1.0 - self.p)), _U_DETAIL)

    def bayes_auc(self, *, n_mc: int = _N_MC, random_state: Any = None, method: str = "auto") -> TheoryResult:
        r"""The optimal AUC :math:`1 - \mathrm{er}^*_{rank} = \frac12 + \frac{E|\eta(X) - \eta(X')|}{4p(1-p)}`.

        Same parameters as :meth:`bayes_ranking_error`.
        """
        r = self.bayes_ranking_error(n_mc=n_mc, random_state=random_state, method=method)
        return r._shift(1.0 - r.value)

    def ranking_error(self, score_fn: Any, *, n_mc: int = _N_MC, random_state: Any = None,
                      method: str = "auto") -> TheoryResult:
        r"""The ranking error :math:`\mathrm{er}_{rank}[f] = 1 - \mathrm{AUC}(f)` of a score function.

        Parameters
        ----------
        score_fn : callable
            ``X -> scores`` (higher = more likely positive), or an object with a
            ``decision_function``.
        n_mc : int >= 10, default 200000
        random_state : None, int, numpy Generator or RandomState
        method : {"auto", "exact", "monte_carlo"}

        Returns
        -------
        TheoryResult

        Notes
        -----
        .. math:: \mathrm{er}_{rank}[f] = E\left[\mathbf 1((Y - Y')(f(X) - f(X')) < 0)
                  + \tfrac12 \mathbf 1(f(X) = f(X')) \,\middle|\, Y \ne Y'\right]

        (``THEORY.md`` section 4). Exact routes: ``score_fn`` is this distribution's
        ``eta`` and the Bayes error is exact; a :class:`LinearScore` :math:`a^\top x`
        under the Gaussian families, whose class laws are normal mixtures, so that
        :math:`\mathrm{er} = \sum_{kl} w_k w_l \Phi(-(m_{1k} - m_{0l}) / \sqrt{s_{1k}^2 +
        s_{0l}^2})` (for two Gaussians :math:`\Phi(-a^\top(\mu_1 - \mu_0) /
        \sqrt{a^\top(\Sigma_1 + \Sigma_0) a})`); in :class:`SingleIndex` a linear score
        along :math:`w`. Otherwise the U-statistic of the class docstring.

        Examples
        --------
        Unit-variance classes at (1, 0) and (-1, 0), score :math:`x_1 + x_2`:
        :math:`\Phi(-2/\sqrt{4}) = \Phi(-1)`.

        >>> d = BinormalShared([1.0, 0.0], [-1.0, 0.0], 1.0)
        >>> r = d.ranking_error(LinearScore([1.0, 1.0]))
        >>> round(r.value, 6), r.method
        (0.158655, 'closed_form')
        """
        func = f"{type(self).__name__}.ranking_error"
        method = _check_method(method, func)
        n_mc = _check_n(n_mc, "n_mc", func, low=10)
        score = _resolve_score(score_fn, func)
        if method != "monte_carlo":
            exact = self._exact_error(score)
            if exact is not None:
                return exact
            if method == "exact":
                raise ValueError(f"{func} has no exact route for this score function and distribution; "
                                 f"use method='auto' or 'monte_carlo'.")
        eta, f = self._draw(n_mc, _rng(random_state, func), score, func)
        return _u_result(_pair_projection(eta, f), 1.0 / (2.0 * self.p * (1.0 - self.p)), _U_DETAIL)

    def auc(self, score_fn: Any, *, n_mc: int = _N_MC, random_state: Any = None,
            method: str = "auto") -> TheoryResult:
        r"""The population AUC of a score function, :math:`1 - \mathrm{er}_{rank}[f]` (ties 1/2).

        Same parameters and routes as :meth:`ranking_error`.

        Examples
        --------
        Two unit-variance classes two apart: :math:`\Phi(2/\sqrt 2) = \Phi(1.4142)`.

        >>> d = BinormalShared([1.0], [-1.0], 1.0)
        >>> round(d.auc(LinearScore([1.0])).value, 6)
        0.92135
        """
        r = self.ranking_error(score_fn, n_mc=n_mc, random_state=random_state, method=method)
        return r._shift(1.0 - r.value)

    def ranking_regret(self, score_fn: Any, *, n_mc: int = _N_MC, random_state: Any = None,
                       method: str = "auto") -> TheoryResult:
        r"""The ranking regret :math:`\mathrm{er}_{rank}[f] - \mathrm{er}^*_{rank} \ge 0`.

        Parameters
        ----------
        score_fn : callable
        n_mc : int >= 10, default 200000
        random_state : None, int, numpy Generator or RandomState
        method : {"auto", "exact", "monte_carlo"}

        Returns
        -------
        TheoryResult

        Notes
        -----
        The regret identity (Clémençon, Lugosi & Vayatis 2008; Agarwal 2014, Theorem 11):

        .. math:: \mathrm{regret}_{rank}[f] = \frac{1}{2p(1-p)} E\left[|\eta(X) - \eta(X')|
                  \left(\mathbf 1((f(X) - f(X'))(\eta(X) - \eta(X')) < 0)
                  + \tfrac12 \mathbf 1(f(X) = f(X'))\right)\right].

        Exact route: the difference of the exact ranking and Bayes errors (0 for
        ``score_fn = dist.eta``). Monte Carlo route: the U-statistic of this kernel over
        all pairs of ``n_mc`` draws, computed as the difference of the two error kernels
        on the same draws (the identity holds pair by pair), so that with the same
        ``random_state`` it equals ``ranking_error(f, method="monte_carlo") -
        bayes_ranking_error(method="monte_carlo")`` to rounding; its standard error comes
        from the Hoeffding projection of the regret kernel.

        Examples
        --------
        The score :math:`x_1 + x_2` of the :meth:`ranking_error` example against the optimal
        :math:`x_1`: :math:`\Phi(\sqrt 2) - \Phi(1)`.

        >>> d = BinormalShared([1.0, 0.0], [-1.0, 0.0], 1.0)
        >>> round(d.ranking_regret(LinearScore([1.0, 1.0])).value, 6)
        0.080006
        >>> d.ranking_regret(d.eta).value
        0.0
        """
        func = f"{type(self).__name__}.ranking_regret"
        method = _check_method(method, func)
        n_mc = _check_n(n_mc, "n_mc", func, low=10)
        score = _resolve_score(score_fn, func)
        if method != "monte_carlo":
            if self._is_own_eta(score):
                return _closed(0.0, "score_fn is eta: every pair is ranked as eta ranks it")
            err = self._exact_error(score)
            bayes = self._exact_bayes() if err is not None else None
            if err is not None and bayes is not None:
                return TheoryResult(max(err.value - bayes.value, 0.0), 0.0, _weaker(err, bayes), None,
                                    err.error_bound + bayes.error_bound,
                                    "difference of the exact ranking error and Bayes ranking error")
            if method == "exact":
                raise ValueError(f"{func} has no exact route for this score function and distribution; "
                                 f"use method='auto' or 'monte_carlo'.")
        eta, f = self._draw(n_mc, _rng(random_state, func), score, func)
        h1 = _pair_projection(eta, f) - _pair_projection(eta, eta)
        return _u_result(h1, 1.0 / (2.0 * self.p * (1.0 - self.p)),
                         "regret identity: U-statistic over all pairs of n_mc i.i.d. draws of the kernel "
                         "|eta - eta'| (1{discordant} + 1/2 1{tie}); standard error from its Hoeffding projection",
                         clip=True)

    def surrogate_regret(self, score_fn: Any, loss: Any, *, balanced: bool = False, n_mc: int = _N_MC,
                         random_state: Any = None) -> TheoryResult:
        r"""The surrogate regret :math:`E[L(\eta(X), f(X))] - E[H(\eta(X))]` of a proper composite loss.

        Parameters
        ----------
        score_fn : callable
            Its output is the loss's prediction :math:`\hat y = f(x)` (for a bounded
            prediction space, clipped by the loss; see :mod:`rankwise.losses`).
        loss : str or ProperCompositeLoss
            A loss of :data:`rankwise.losses.LOSSES` (``"logistic"``, ``"exponential"``,
            ``"squared"``, ...).
        balanced : bool, default False
            Use the balanced loss of Kotlowski et al. (each class weighed to total
            mass 1/2), the one :func:`balanced_bound` needs.
        n_mc : int >= 2, default 200000
        random_state : None, int, numpy Generator or RandomState

        Returns
        -------
        TheoryResult
            Monte Carlo: the mean of the conditional regret over ``n_mc`` i.i.d. draws of
            :math:`X`, standard error ``sd / sqrt(n_mc)``. Non-negative; 0 (to rounding)
            for ``f = loss.link(eta)``; ``inf`` if the loss is infinite somewhere.

        Notes
        -----
        :math:`L(\eta, \hat y) = \eta \ell(1, \hat y) + (1 - \eta) \ell(-1, \hat y)`,
        :math:`H(\eta) = \inf_{\hat y} L(\eta, \hat y)` (Agarwal 2014, section 3). The
        balanced loss :math:`\ell(1, \hat y)/(2p)` on positives, :math:`\ell(-1, \hat y)/(2(1-p))`
        on negatives has conditional regret :math:`c(x) (L(\tilde\eta, \hat y) -
        H(\tilde\eta))` with :math:`c = \eta/(2p) + (1-\eta)/(2(1-p))` and
        :math:`\tilde\eta = \eta (1-p) / (\eta (1-p) + (1-\eta) p)`.

        Examples
        --------
        The log-odds is the logistic loss's link of :math:`\eta`: zero regret.

        >>> d = BinormalShared([1.0], [-1.0], 1.0)
        >>> r = d.surrogate_regret(d.bayes_scorer(), "logistic", n_mc=1000, random_state=0)
        >>> r.value < 1e-12, r.method
        (True, 'monte_carlo')
        """
        func = f"{type(self).__name__}.surrogate_regret"
        loss = _losses.get(loss)
        n_mc = _check_n(n_mc, "n_mc", func, low=2)
        if not isinstance(balanced, (bool, np.bool_)):
            raise TypeError(f"The 'balanced' parameter of {func} must be a bool. Got {balanced!r} instead.")
        score = _resolve_score(score_fn, func)
        eta, f = self._draw(n_mc, _rng(random_state, func), score, func)
        if balanced:
            p = self.p
            c = eta / (2.0 * p) + (1.0 - eta) / (2.0 * (1.0 - p))
            tilde = np.clip(eta * (1.0 - p) / (eta * (1.0 - p) + (1.0 - eta) * p), 0.0, 1.0)
            reg = c * np.asarray(loss.conditional_regret(tilde, f))
        else:
            reg = np.asarray(loss.conditional_regret(eta, f))
        value = float(reg.mean())
        with np.errstate(invalid="ignore"):
            se = float(reg.std(ddof=1)) / math.sqrt(n_mc) if np.isfinite(value) else math.inf
        detail = (f"mean over n_mc i.i.d. draws of X of the {'balanced ' if balanced else ''}{loss.name} "
                  f"conditional regret L(eta, f) - H(eta); standard error sd/sqrt(n_mc)")
        return TheoryResult(value, se, "monte_carlo", n_mc, 0.0, detail)

    def w_phi(self, score_fn: Any, phi: Any = "auc", *, ties: str = "average", n_mc: int = _N_MC,
              n_ref: int | None = None, random_state: Any = None, method: str = "auto") -> TheoryResult:
        r"""The population linear rank statistic :math:`W_\phi(s) = E[\phi(F_s(s(X))) \mid Y = 1]`.

        Parameters
        ----------
        score_fn : callable
        phi : str, rankwise.phi object or callable, default "auc"
            As for :func:`rankwise.rank_statistic` (``"auc"``, ``rw.phi.local_auc(u0)``,
            ``rw.phi.pnorm_push(p)``, a vectorised nondecreasing callable). DCG depends on
            the sample size and has no population version here.
        ties : {"average", "max"}
            :math:`F_s(t)`: ``"average"`` is the mid-cdf :math:`P(s(X) < t) + \frac12 P(s(X) = t)`
            (the limit of the mid-rank statistic, rankwise's default); ``"max"`` the cdf
            :math:`P(s(X) \le t)` (paper 000's rank). They agree for continuous scores.
        n_mc : int >= 40, default 200000
            Positives drawn for the Monte Carlo route.
        n_ref : int >= 40, optional
            Size of the independent sample that estimates :math:`F_s` (default ``n_mc``).
        random_state : None, int, numpy Generator or RandomState
        method : {"auto", "exact", "monte_carlo"}

        Returns
        -------
        TheoryResult

        Notes
        -----
        Exact routes: for :math:`\phi(u) = u`, :math:`W_\phi = (1-p)\mathrm{AUC} + p/2`
        (``THEORY.md`` section 1; mid-cdf) wherever the AUC is exact; for any
        :math:`\phi`, a :class:`LinearScore` under the Gaussian families
        (:math:`\int \phi(F(s))\, dG(s)` by quadrature, :math:`G` the positive law,
        :math:`F = pG + (1-p)H`), and in :class:`SingleIndex` ``eta`` or a linear score
        along :math:`w`, :math:`W_\phi = \frac1p \int_0^1 G(u) \phi(u)\, du` with
        :math:`G` the quantile function of :math:`\eta(X)`.

        Monte Carlo route: ``n_mc`` draws from :math:`X \mid Y = 1` and an independent
        reference sample of ``n_ref`` draws of :math:`X` that gives the empirical
        :math:`\hat F_s`; the value is the mean of :math:`\phi(\hat F_s(s(X_i)))` over the
        positives. Its standard error is the delete-a-group jackknife over 20 groups
        (each group removing a twentieth of both samples), which covers both sources of
        error; as a deterministic check, :math:`\sup_t |\hat F_s - F_s| \le
        \sqrt{\log(2/\delta)/(2 n_{ref})}` with probability :math:`1-\delta` (DKW-Massart),
        so for an :math:`L`-Lipschitz :math:`\phi` the reference sample moves the value by
        at most :math:`L` times that (0.0043 at ``n_ref = 1e5``, ``delta = 0.05``).

        Examples
        --------
        :math:`W = (1-p)\mathrm{AUC} + p/2 = \frac12 \Phi(\sqrt 2) + \frac14`:

        >>> d = BinormalShared([1.0], [-1.0], 1.0)
        >>> round(d.w_phi(LinearScore([1.0])).value, 6)
        0.710675
        """
        func = f"{type(self).__name__}.w_phi"
        method = _check_method(method, func)
        ties = check_choice(ties, "ties", func, ("average", "max"))
        n_mc = _check_n(n_mc, "n_mc", func, low=2 * _JACKKNIFE_GROUPS)
        n_ref = n_mc if n_ref is None else _check_n(n_ref, "n_ref", func, low=2 * _JACKKNIFE_GROUPS)
        score = _resolve_score(score_fn, func)
        phi = _phi.resolve(phi, func)
        if phi.needs_n:
            raise ValueError(f"The 'phi' parameter of {func} cannot be {phi!r}: it depends on the sample size, "
                             f"so it has no population W_phi.")
        if method != "monte_carlo":
            exact = None
            if phi.name == "auc":
                err = self._exact_error(score)
                if err is not None:
                    if isinstance(score, LinearScore) and not score.coef.any() and ties == "max":
                        exact = _closed(1.0, "a constant score: F_s = 1 under the 'max' convention")
                    else:
                        exact = TheoryResult((1.0 - self.p) * (1.0 - err.value) + self.p / 2.0, 0.0, err.method,
                                             None, (1.0 - self.p) * err.error_bound, "W = (1 - p) AUC + p/2")
            if exact is None and isinstance(score, LinearScore) and not score.coef.any():
                exact = _closed(float(phi(0.5 if ties == "average" else 1.0)), "a constant score: F_s is one value")
            if exact is None:
                exact = self._exact_w_phi(score, phi)
            if exact is not None:
                return exact
            if method == "exact":
                raise ValueError(f"{func} has no exact route for this score function, phi and distribution; "
                                 f"use method='auto' or 'monte_carlo'.")
        rng = _rng(random_state, func)
        s_ref = self._draw(n_ref, rng, score, func)[1]
        pos = []
        left = n_mc
        while left > 0:
            m = min(left, _CHUNK)
            pos.append(_eval_score(score, self._sample_class(1, m, rng), func))
            left -= m
        s_pos = np.concatenate(pos)
        return _w_phi_jackknife(s_pos, s_ref, phi, ties, rng)

    def __repr__(self) -> str:
        return f"{type(self).__name__}(dim={self.dim}, p={self.p:.6g})"


def _w_phi_jackknife(s_pos: np.ndarray, s_ref: np.ndarray, phi: _phi.Phi, ties: str,
                     rng: np.random.Generator) -> TheoryResult:
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


# ----------------------------------------------------------------------------
# Two Gaussians
# ----------------------------------------------------------------------------


def _logit(p: float) -> float:
    return math.log(p) - math.log1p(-p)


class BinormalShared(Distribution):
    r"""Two Gaussian classes with a shared covariance: :math:`\eta` is logistic-linear.

    :math:`X \mid Y=1 \sim N(\mu_1, \Sigma)`, :math:`X \mid Y=0 \sim N(\mu_0, \Sigma)`,
    :math:`P(Y=1) = p`.

    Parameters
    ----------
    mean_pos, mean_neg : array-like of shape (d,)
        :math:`\mu_1`, :math:`\mu_0`.
    cov : float, array-like of shape (d,) or (d, d)
        :math:`\Sigma`: a scalar (times the identity), a diagonal, or a symmetric
        positive definite matrix.
    p : float in (0, 1), default 0.5

    Attributes
    ----------
    coef, intercept : ndarray, float
        The log-odds :math:`\log\frac{\eta}{1-\eta} = w^\top x + b`, :math:`w = \Sigma^{-1}(\mu_1 - \mu_0)`,
        :math:`b = -\frac12(\mu_1^\top\Sigma^{-1}\mu_1 - \mu_0^\top\Sigma^{-1}\mu_0) + \log\frac{p}{1-p}`.
    mahalanobis : float
        :math:`\Delta = \sqrt{(\mu_1 - \mu_0)^\top \Sigma^{-1} (\mu_1 - \mu_0)}`.

    Notes
    -----
    :math:`\eta(x) = \mathrm{expit}(w^\top x + b)`, so every linear score :math:`c\, w^\top x`,
    :math:`c > 0`, is Bayes-optimal for ranking. A linear score :math:`a^\top x` has
    :math:`\mathrm{AUC} = \Phi(a^\top(\mu_1 - \mu_0)/\sqrt{2 a^\top \Sigma a})`, the largest being
    :math:`\Phi(\Delta/\sqrt 2)`; hence :math:`\mathrm{er}^*_{rank} = \Phi(-\Delta/\sqrt 2)`
    (closed form). Exact: Bayes error, error/AUC/regret/``W_phi`` of :class:`LinearScore`
    and of ``eta``; Monte Carlo: other scores, surrogate regrets.

    Examples
    --------
    Unit variance, means -1 and 1: :math:`\Delta = 2`, :math:`\mathrm{er}^* = \Phi(-\sqrt 2)`.

    >>> d = BinormalShared([1.0], [-1.0], 1.0, p=0.5)
    >>> d.coef, d.intercept                       # eta(x) = expit(2 x)
    (array([2.]), 0.0)
    >>> r = d.bayes_ranking_error()
    >>> round(r.value, 6), r.method
    (0.07865, 'closed_form')
    """

    def __init__(self, mean_pos: Any, mean_neg: Any, cov: Any, p: float = 0.5):
        func = "BinormalShared"
        self.mean_pos = _as_vector(mean_pos, "mean_pos", func)
        self.mean_neg = _as_vector(mean_neg, "mean_neg", func, self.mean_pos.size)
        self.cov, self._chol = _as_cov(cov, self.mean_pos.size, "cov", func)
        self._p = _check_p(p, func)
        delta = self.mean_pos - self.mean_neg
        self.coef = linalg.cho_solve((self._chol, True), delta)
        q1 = float(self.mean_pos @ linalg.cho_solve((self._chol, True), self.mean_pos))
        q0 = float(self.mean_neg @ linalg.cho_solve((self._chol, True), self.mean_neg))
        self.intercept = -0.5 * (q1 - q0) + _logit(self._p)
        self.mahalanobis = math.sqrt(max(float(delta @ self.coef), 0.0))

    @property
    def p(self) -> float:
        return self._p

    @property
    def dim(self) -> int:
        return self.mean_pos.size

    def log_odds(self, X: Any) -> np.ndarray:
        r""":math:`\log\frac{\eta(x)}{1 - \eta(x)} = w^\top x + b`."""
        return _check_X(X, self.dim, "BinormalShared.log_odds") @ self.coef + self.intercept

    def bayes_scorer(self) -> LinearScore:
        """The log-odds as a :class:`LinearScore` (Bayes-optimal; the logistic loss's link of ``eta``)."""
        return LinearScore(self.coef, self.intercept)

    def _eta(self, X: np.ndarray) -> np.ndarray:
        return expit(X @ self.coef + self.intercept)

    def _sample_class(self, label: int, n: int, rng: np.random.Generator) -> np.ndarray:
        m = self.mean_pos if label else self.mean_neg
        return m + rng.standard_normal((n, self.dim)) @ self._chol.T

    def _sample_marginal(self, n: int, rng: np.random.Generator) -> np.ndarray:
        return self._sample_joint(n, rng)[0]

    def _sample_joint(self, n, rng):
        return _class_conditional_joint(self, n, rng)

    def _exact_bayes(self) -> TheoryResult:
        return _closed(float(ndtr(-self.mahalanobis / math.sqrt(2.0))),
                       "Phi(-Delta/sqrt(2)), Delta the Mahalanobis distance between the class means")

    def _linear_laws(self, coef):
        sd = math.sqrt(float(coef @ self.cov @ coef))
        one = np.ones(1)
        return (_Mixture(one, np.array([coef @ self.mean_pos]), np.array([sd])),
                _Mixture(one, np.array([coef @ self.mean_neg]), np.array([sd])))


def _class_conditional_joint(dist: Distribution, n: int, rng: np.random.Generator):
    """Y ~ Bernoulli(p), then X | Y from the class law."""
    y = rng.random(n) < dist.p
    n1 = int(y.sum())
    X = np.empty((n, dist.dim))
    X[y] = dist._sample_class(1, n1, rng)
    X[~y] = dist._sample_class(0, n - n1, rng)
    return X, y.astype(np.int64)


class BinormalDifferent(Distribution):
    r"""Two Gaussian classes with different covariances: :math:`\eta` is logistic-quadratic.

    :math:`X \mid Y=1 \sim N(\mu_1, \Sigma_1)`, :math:`X \mid Y=0 \sim N(\mu_0, \Sigma_0)`,
    :math:`P(Y=1) = p`.

    Parameters
    ----------
    mean_pos : array-like of shape (d,)
    cov_pos : float, array-like of shape (d,) or (d, d)
    mean_neg : array-like of shape (d,)
    cov_neg : float, array-like of shape (d,) or (d, d)
    p : float in (0, 1), default 0.5

    Notes
    -----
    The log-odds is the log-density ratio,

    .. math:: \log\frac{\eta(x)}{1-\eta(x)} = \log\frac{p}{1-p} + \log N(x; \mu_1, \Sigma_1)
              - \log N(x; \mu_0, \Sigma_0) = x^\top A x + b^\top x + c,

    :math:`A = -\frac12(\Sigma_1^{-1} - \Sigma_0^{-1})`, :math:`b = \Sigma_1^{-1}\mu_1 -
    \Sigma_0^{-1}\mu_0`, :math:`c = \log\frac{p}{1-p} - \frac12(\mu_1^\top\Sigma_1^{-1}\mu_1 -
    \mu_0^\top\Sigma_0^{-1}\mu_0) - \frac12\log\frac{|\Sigma_1|}{|\Sigma_0|}`
    (:meth:`log_odds_coefficients`); :meth:`eta` evaluates it through Cholesky solves. A
    linear score has exact :math:`\mathrm{AUC} = \Phi(a^\top(\mu_1 - \mu_0) / \sqrt{a^\top
    (\Sigma_1 + \Sigma_0) a})` but, for :math:`\Sigma_1 \ne \Sigma_0`, positive regret. Exact:
    error/AUC/``W_phi`` of :class:`LinearScore`; Monte Carlo: Bayes error, regrets,
    everything about ``eta`` or nonlinear scores.

    Examples
    --------
    >>> d = BinormalDifferent([0.0], 4.0, [0.0], 1.0)    # same mean, variance 4 vs 1
    >>> A, b, c = d.log_odds_coefficients()
    >>> A, b, round(c, 6)                                # (1/2)(1 - 1/4) x^2 - log 2
    (array([[0.375]]), array([0.]), -0.693147)
    >>> d.auc(LinearScore([1.0])).value                  # a linear score cannot separate them
    0.5
    """

    def __init__(self, mean_pos: Any, cov_pos: Any, mean_neg: Any, cov_neg: Any, p: float = 0.5):
        func = "BinormalDifferent"
        self.mean_pos = _as_vector(mean_pos, "mean_pos", func)
        d = self.mean_pos.size
        self.mean_neg = _as_vector(mean_neg, "mean_neg", func, d)
        self.cov_pos, self._chol_pos = _as_cov(cov_pos, d, "cov_pos", func)
        self.cov_neg, self._chol_neg = _as_cov(cov_neg, d, "cov_neg", func)
        self._p = _check_p(p, func)
        self._const = (_logit(self._p) - float(np.log(np.diag(self._chol_pos)).sum())
                       + float(np.log(np.diag(self._chol_neg)).sum()))

    @property
    def p(self) -> float:
        return self._p

    @property
    def dim(self) -> int:
        return self.mean_pos.size

    def log_odds(self, X: Any) -> np.ndarray:
        r""":math:`\log\frac{\eta(x)}{1-\eta(x)}` (the log-density ratio plus :math:`\log\frac{p}{1-p}`)."""
        return self._log_odds(_check_X(X, self.dim, "BinormalDifferent.log_odds"))

    def _log_odds(self, X: np.ndarray) -> np.ndarray:
        z1 = linalg.solve_triangular(self._chol_pos, (X - self.mean_pos).T, lower=True)
        z0 = linalg.solve_triangular(self._chol_neg, (X - self.mean_neg).T, lower=True)
        return self._const - 0.5 * (z1 * z1).sum(axis=0) + 0.5 * (z0 * z0).sum(axis=0)

    def log_odds_coefficients(self) -> tuple[np.ndarray, np.ndarray, float]:
        r"""``(A, b, c)`` with :math:`\log\frac{\eta(x)}{1-\eta(x)} = x^\top A x + b^\top x + c`."""
        P1 = linalg.cho_solve((self._chol_pos, True), np.eye(self.dim))
        P0 = linalg.cho_solve((self._chol_neg, True), np.eye(self.dim))
        A = -0.5 * (P1 - P0)
        b = P1 @ self.mean_pos - P0 @ self.mean_neg
        c = self._const - 0.5 * float(self.mean_pos @ P1 @ self.mean_pos - self.mean_neg @ P0 @ self.mean_neg)
        return 0.5 * (A + A.T), b, c

    def _eta(self, X: np.ndarray) -> np.ndarray:
        return expit(self._log_odds(X))

    def _sample_class(self, label: int, n: int, rng: np.random.Generator) -> np.ndarray:
        m, L = (self.mean_pos, self._chol_pos) if label else (self.mean_neg, self._chol_neg)
        return m + rng.standard_normal((n, self.dim)) @ L.T

    def _sample_marginal(self, n: int, rng: np.random.Generator) -> np.ndarray:
        return self._sample_joint(n, rng)[0]

    def _sample_joint(self, n, rng):
        return _class_conditional_joint(self, n, rng)

    def _linear_laws(self, coef):
        one = np.ones(1)
        return (_Mixture(one, np.array([coef @ self.mean_pos]), np.array([math.sqrt(float(coef @ self.cov_pos @ coef))])),
                _Mixture(one, np.array([coef @ self.mean_neg]), np.array([math.sqrt(float(coef @ self.cov_neg @ coef))])))


# ----------------------------------------------------------------------------
# Paper 003's Gaussian mixtures
# ----------------------------------------------------------------------------


class GaussianMixtures(Distribution):
    r"""Paper 003's synthetic data: each class a mixture of K isotropic Gaussians.

    Class 1 has component means drawn uniformly in :math:`[0, 1]^D`, class 0 in
    :math:`[-1, 0]^D` (drawn once, from ``random_state``, when the object is built),
    every component has covariance :math:`\sigma^2 I` and weight :math:`1/K`.

    Parameters
    ----------
    n_components : int >= 1
        :math:`K` (the paper uses 1, 2, 3).
    sigma : float > 0
        Component standard deviation (the paper: 2, 3, 4).
    dim : int >= 1
        :math:`D` (not stated in the paper; choose and record it).
    p : float in (0, 1), default 0.5
    random_state : None, int, numpy Generator or RandomState
        Draws the component means.

    Attributes
    ----------
    means_pos, means_neg : ndarray of shape (K, D)

    Notes
    -----
    With a shared isotropic covariance the :math:`\|x\|^2` terms cancel in the log-odds:

    .. math:: \log\frac{\eta(x)}{1-\eta(x)} = \log\frac{p}{1-p}
              + \operatorname{logsumexp}_k\left(\frac{x^\top\mu_{1k}}{\sigma^2} - \frac{\|\mu_{1k}\|^2}{2\sigma^2}\right)
              - \operatorname{logsumexp}_l\left(\frac{x^\top\mu_{0l}}{\sigma^2} - \frac{\|\mu_{0l}\|^2}{2\sigma^2}\right),

    exact and stable. A linear score :math:`a^\top x` is a mixture of normals
    :math:`N(a^\top\mu_{ck}, \sigma^2\|a\|^2)` in each class: its AUC is
    :math:`K^{-2}\sum_{kl}\Phi(a^\top(\mu_{1k} - \mu_{0l})/(\sigma\|a\|\sqrt2))`, exact. The
    Bayes error needs Monte Carlo (for :math:`K = 1` the model is :class:`BinormalShared`).
    Reference: Gultekin & Paisley 2020, section 5 (``THEORY.md`` section 3).

    Examples
    --------
    >>> d = GaussianMixtures(n_components=2, sigma=2.0, dim=3, random_state=0)
    >>> d.means_pos.shape, bool((d.means_pos >= 0).all() and (d.means_neg <= 0).all())
    ((2, 3), True)
    >>> X, y = d.sample(5, random_state=1)
    >>> X.shape, y.dtype
    ((5, 3), dtype('int64'))
    """

    def __init__(self, n_components: int = 1, sigma: float = 1.0, dim: int = 2, p: float = 0.5,
                 random_state: Any = None):
        func = "GaussianMixtures"
        self.n_components = _check_n(n_components, "n_components", func)
        self.sigma = check_param(sigma, "sigma", func, low=0.0, low_inclusive=False)
        self._dim = _check_n(dim, "dim", func)
        self._p = _check_p(p, func)
        rng = _rng(random_state, func)
        self.means_pos = rng.uniform(0.0, 1.0, size=(self.n_components, self._dim))
        self.means_neg = rng.uniform(-1.0, 0.0, size=(self.n_components, self._dim))

    @property
    def p(self) -> float:
        return self._p

    @property
    def dim(self) -> int:
        return self._dim

    def log_odds(self, X: Any) -> np.ndarray:
        """The log-odds (see Notes), exact."""
        return self._log_odds(_check_X(X, self.dim, "GaussianMixtures.log_odds"))

    def _log_odds(self, X: np.ndarray) -> np.ndarray:
        s2 = self.sigma ** 2
        a1 = X @ self.means_pos.T / s2 - 0.5 * (self.means_pos ** 2).sum(axis=1) / s2
        a0 = X @ self.means_neg.T / s2 - 0.5 * (self.means_neg ** 2).sum(axis=1) / s2
        return _logit(self._p) + logsumexp(a1, axis=1) - logsumexp(a0, axis=1)

    def _eta(self, X: np.ndarray) -> np.ndarray:
        return expit(self._log_odds(X))

    def _sample_class(self, label: int, n: int, rng: np.random.Generator) -> np.ndarray:
        means = self.means_pos if label else self.means_neg
        comp = rng.integers(self.n_components, size=n)
        return means[comp] + self.sigma * rng.standard_normal((n, self._dim))

    def _sample_marginal(self, n: int, rng: np.random.Generator) -> np.ndarray:
        return self._sample_joint(n, rng)[0]

    def _sample_joint(self, n, rng):
        return _class_conditional_joint(self, n, rng)

    def _linear_laws(self, coef):
        K = self.n_components
        w = np.full(K, 1.0 / K)
        sd = np.full(K, self.sigma * float(np.linalg.norm(coef)))
        return _Mixture(w, self.means_pos @ coef, sd), _Mixture(w, self.means_neg @ coef, sd)

    def __repr__(self) -> str:
        return (f"GaussianMixtures(n_components={self.n_components}, sigma={self.sigma!r}, dim={self._dim}, "
                f"p={self._p!r})")


# ----------------------------------------------------------------------------
# Single-index models
# ----------------------------------------------------------------------------


class _GaussianIndex:
    """t = w^T x, x ~ N(0, I): t ~ N(0, ||w||^2)."""

    def __init__(self, w: np.ndarray):
        self.sd = float(np.linalg.norm(w))
        self.support = (-12.0 * self.sd, 12.0 * self.sd)   # the rest has mass < 4e-33
        self.breaks: list[float] = []

    def cdf(self, t):
        return ndtr(np.asarray(t, dtype=np.float64) / self.sd)

    def pdf(self, t: float) -> float:
        z = t / self.sd
        return math.exp(-0.5 * z * z) / (self.sd * math.sqrt(2.0 * math.pi))

    def ppf(self, u: float) -> float:
        return self.sd * float(ndtri(u))

    def grid(self) -> np.ndarray:
        return self.sd * np.linspace(-8.0, 8.0, 2001)


class _UniformIndex:
    r"""t = w^T x, x uniform on [-1, 1]^d: t = sum_i a_i U_i, a_i = |w_i| > 0, U_i ~ U[-1, 1], with

    F(t) = 1/(m! prod(2 a_i)) sum_{eps in {-1,1}^m} prod(eps) (t + eps^T a)_+^m

    (the Irwin-Hall formula with unequal widths; the density has power m - 1 and
    (m - 1)!), evaluated on the lower tail and reflected (F(t) = 1 - F(-t)) to limit
    cancellation."""

    def __init__(self, w: np.ndarray, func: str):
        a = np.abs(w[w != 0.0])
        m = a.size
        if m > _MAX_UNIFORM_TERMS:
            raise ValueError(
                f"{func} with x_dist='uniform' computes the law of w^T x exactly from 2^m terms and accepts at "
                f"most {_MAX_UNIFORM_TERMS} nonzero weights. Got {m}; use x_dist='gaussian' or fewer nonzero weights."
            )
        self.a, self.m = a, m
        eps = np.array(list(itertools.product((-1.0, 1.0), repeat=m)))
        self.shifts = eps @ a
        self.signs = eps.prod(axis=1)
        self.norm = math.factorial(m) * float(np.prod(2.0 * a))
        self.half = float(a.sum())
        self.support = (-self.half, self.half)
        # kinks of the density (jumps for m = 1, where they are the ends of the support)
        self.breaks = sorted({float(v) for v in np.round(-self.shifts, 15) if abs(v) < self.half}) if m <= 4 else []

    def pdf(self, t: float) -> float:
        if abs(t) >= self.half:
            return 0.0
        if self.m == 1:
            return 0.5 / self.half
        z = np.maximum(-abs(t) + self.shifts, 0.0) ** (self.m - 1)
        return max(float(z @ self.signs) * self.m / self.norm, 0.0)

    def _lower(self, t: np.ndarray) -> np.ndarray:
        out = np.empty(t.shape)
        for start in range(0, t.size, 8192):
            tt = t[start:start + 8192]
            z = np.maximum(tt[:, None] + self.shifts[None, :], 0.0) ** self.m
            out[start:start + 8192] = z @ self.signs / self.norm
        return out

    def cdf(self, t):
        t = np.asarray(t, dtype=np.float64)
        flat = t.ravel()
        if self.m == 1:
            out = (np.clip(flat, -self.half, self.half) + self.half) / (2.0 * self.half)
        else:
            low = np.clip(self._lower(np.minimum(flat, -flat)), 0.0, 0.5)
            out = np.where(flat <= 0.0, low, 1.0 - low)
        out = np.clip(out, 0.0, 1.0)
        return out.reshape(t.shape) if t.ndim else out[0]

    def ppf(self, u: float) -> float:
        if self.m == 1:
            return self.half * (2.0 * u - 1.0)
        if u <= 0.0:
            return -self.half
        if u >= 1.0:
            return self.half
        return optimize.brentq(lambda t: float(self.cdf(np.array([t]))[0]) - u, -self.half, self.half,
                               xtol=1e-14, rtol=1e-15)

    def grid(self) -> np.ndarray:
        return np.linspace(-self.half, self.half, 2001)


class SingleIndex(Distribution):
    r"""A single-index model :math:`\eta(x) = g(w^\top x + b)` with :math:`x` Gaussian or uniform.

    Parameters
    ----------
    w : array-like of shape (d,)
        The index direction (nonzero).
    link : {"logistic", "noise"} or callable, default "logistic"
        ``"logistic"``: :math:`g(t) = \mathrm{expit}(\text{scale}\cdot t)`.
        ``"noise"``: the link that sets the low-noise exponent :math:`\alpha` (Notes).
        A callable: a vectorised nondecreasing :math:`g: \mathbb R \to [0, 1]` (checked
        on a grid).
    p : float in (0, 1), optional
        Target :math:`P(Y=1)`. ``None``: implied by the model (then ``b = intercept``, or
        0, and for the noise link ``p = 1/2``). Given: the logistic link solves for the
        intercept :math:`b`; the noise link moves its centre :math:`c` (Notes); a callable
        link does not accept it.
    x_dist : {"gaussian", "uniform"}, default "gaussian"
        :math:`x \sim N(0, I_d)` or uniform on :math:`[-1, 1]^d` (at most 8 nonzero
        weights: the law of :math:`w^\top x` is computed exactly from :math:`2^m` terms).
    alpha : float in (0, 1], optional
        Noise exponent of the ``"noise"`` link (default 1.0); not accepted by other links.
    scale : float > 0, default 1.0
        Slope of the logistic link.
    intercept : float, optional
        :math:`b` (logistic or callable link; default 0, or solved from ``p``).

    Attributes
    ----------
    noise_exponent : float or None
        The :math:`\alpha` of :math:`\sup_x P(|\eta(X) - \eta(x)| \le t) \le C t^\alpha`:
        ``alpha`` for the noise link, 1.0 for the logistic link (:math:`\eta(X)` then has a
        bounded density), ``None`` for a callable link.
    noise_constant : float or None
        A valid :math:`C` for the noise link, :math:`2^{\alpha+1}\max(c, 1-c)`
        (:math:`= 2^\alpha`, attained, when :math:`c = 1/2`); ``None`` otherwise.

    Notes
    -----
    **The noise link.** With :math:`T = w^\top X` and :math:`F` its (continuous, exactly
    known) cdf, :math:`U = F(T)` is uniform on (0, 1), and

    .. math:: \eta(x) = G(F(w^\top x)), \qquad
              G(u) = \tfrac12 + \tfrac12\,\mathrm{sign}(u - c)
              \left(\frac{|u - c|}{c\,\mathbf 1\{u < c\} + (1-c)\,\mathbf 1\{u \ge c\}}\right)^{1/\alpha}.

    With :math:`c = 1/2` (the default, :math:`p = 1/2`), :math:`\eta(X) = \frac12 +
    \frac12\,\mathrm{sign}(V)|V|^{1/\alpha}`, :math:`V = 2U - 1` uniform on [-1, 1]; for
    :math:`x` uniform on [-1, 1] and :math:`w = T e_1` this is
    :math:`g(t) = \frac12 + \frac12\mathrm{sign}(t)|t/T|^{1/\alpha}`. Then
    :math:`P(|\eta(X) - \frac12| \le t) = \min(1, (2t)^\alpha)`, and since the density of
    :math:`\eta(X)` is symmetric and decreasing away from 1/2 no interval of length
    :math:`2t` holds more: :math:`\sup_x P(|\eta(X) - \eta(x)| \le t) = \min(1, (2t)^\alpha)`,
    the low-noise condition of Clémençon & Robbiano / Agarwal's Theorem 15 with exponent
    exactly :math:`\alpha` and :math:`C = 2^\alpha`. Exponents above 1 are impossible for
    a continuous :math:`\eta(X)` (its density is bounded near some point), hence
    :math:`\alpha \in (0, 1]`; :math:`\alpha = 1` makes :math:`\eta(X)` uniform. Another
    centre :math:`c` gives :math:`p = \frac12 + \frac{(1 - 2c)\alpha}{2(1 + \alpha)}`
    (so :math:`|p - \frac12| < \frac{\alpha}{2(1+\alpha)}`), the same exponent and
    :math:`C \le 2^{\alpha+1}\max(c, 1-c)`.

    **Exact routes.** :math:`G(u) = g(F^{-1}(u) + b)` (for the noise link, the :math:`G`
    above), the quantile function of :math:`\eta(X)`, reduces everything about scores increasing in :math:`w^\top x` to
    one dimension: :math:`p = \int_0^1 G`, :math:`E|\eta(X) - \eta(X')| = 2\int_0^1 G(u)(2u -
    1)\,du` (Gini mean difference), :math:`\mathrm{er}^* = \frac12 - \frac{E|\eta - \eta'|}{4p(1-p)}`,
    :math:`W_\phi(\eta) = \frac1p\int_0^1 G(u)\phi(u)\,du`, by quadrature; for the noise link
    :math:`E|\eta - \eta'| = \frac{2((1-c)^2 + c^2)}{1/\alpha + 2} - \frac{(1-2c)^2}{1/\alpha + 1}`
    in closed form (:math:`\frac{\alpha}{1 + 2\alpha}` at :math:`c = 1/2`, so
    :math:`\mathrm{er}^* = \frac{1}{2(1 + 2\alpha)}`). A :class:`LinearScore` along
    :math:`w` (a positive multiple) ranks as :math:`\eta`; along :math:`-w`, in reverse.
    Everything else: Monte Carlo.

    Examples
    --------
    >>> d = SingleIndex([1.0, 0.0], link="noise", alpha=0.5)
    >>> d.p, d.noise_exponent
    (0.5, 0.5)
    >>> r = d.bayes_ranking_error()                   # 1 / (2 (1 + 2 alpha)) = 1/4
    >>> r.value, r.method
    (0.25, 'closed_form')
    >>> float(d.eta(np.zeros((1, 2)))[0])              # eta = 1/2 at the median of the index
    0.5
    """

    def __init__(self, w: Any, link: Any = "logistic", p: float | None = None, x_dist: str = "gaussian",
                 alpha: float | None = None, *, scale: float = 1.0, intercept: float | None = None):
        func = "SingleIndex"
        self.w = _as_vector(w, "w", func)
        if not self.w.any():
            raise ValueError(f"The 'w' parameter of {func} must be a nonzero vector (eta depends on x through w^T x).")
        self.x_dist = check_choice(x_dist, "x_dist", func, ("gaussian", "uniform"))
        self._law = _GaussianIndex(self.w) if self.x_dist == "gaussian" else _UniformIndex(self.w, func)
        if callable(link):
            self.link = "callable"
            self._g = link
        else:
            self.link = check_choice(link, "link", func, ("logistic", "noise"))
            self._g = None
        if alpha is not None and self.link != "noise":
            raise ValueError(f"The 'alpha' parameter of {func} only applies to link='noise'. Got alpha={alpha!r} "
                             f"with link={self.link!r}.")
        self.scale = check_param(scale, "scale", func, low=0.0, low_inclusive=False)
        if scale != 1.0 and self.link != "logistic":
            raise ValueError(f"The 'scale' parameter of {func} only applies to link='logistic'.")
        p_target = None if p is None else _check_p(p, func)

        if self.link == "noise":
            self.alpha = 1.0 if alpha is None else check_param(alpha, "alpha", func, low=0.0, high=1.0,
                                                                  low_inclusive=False)
            if intercept is not None:
                raise ValueError(f"The 'intercept' parameter of {func} does not apply to link='noise' "
                                 f"(its p is set through p=).")
            self.intercept = 0.0
            self._p_err = 0.0
            bound = self.alpha / (2.0 * (1.0 + self.alpha))
            if p_target is None:
                self.center = 0.5
            else:
                if not abs(p_target - 0.5) < bound:
                    raise ValueError(
                        f"The 'p' parameter of {func} with link='noise' and alpha={self.alpha!r} must lie in "
                        f"({0.5 - bound!r}, {0.5 + bound!r}) (p = 1/2 + (1 - 2c) alpha / (2 (1 + alpha)), c in (0, 1)). "
                        f"Got {p_target!r} instead."
                    )
                self.center = 0.5 - (p_target - 0.5) * (1.0 + self.alpha) / self.alpha
            self._p = 0.5 + (1.0 - 2.0 * self.center) * self.alpha / (2.0 * (1.0 + self.alpha))
        else:
            self.alpha = None
            self.center = None
            if self.link == "callable":
                if p_target is not None:
                    raise ValueError(f"The 'p' parameter of {func} cannot be set with a callable link; "
                                     f"pass intercept= instead (p is then computed).")
                self._check_link(func)
            b = 0.0 if intercept is None else check_param(intercept, "intercept", func)
            if p_target is not None:
                if intercept is not None:
                    raise ValueError(f"{func} takes p= or intercept=, not both (p sets the intercept).")
                b = self._solve_intercept(p_target)
            self.intercept = b
            self._p, self._p_err = self._expect(lambda g, u: g)
            if p_target is not None:
                self._p = p_target if abs(self._p - p_target) < 1e-10 else self._p
            if not 0.0 < self._p < 1.0:
                raise ValueError(f"{func}: the implied P(Y = 1) = {self._p!r} is not in (0, 1); eta is constant 0 or 1.")

    # -- the link -------------------------------------------------------------------

    def _check_link(self, func: str) -> None:
        grid = self._law.grid()
        try:
            vals = np.asarray(self._g(grid.copy()), dtype=np.float64)
        except Exception as exc:  # noqa: BLE001
            raise TypeError(f"The 'link' callable of {func} must be vectorised: calling it on an array failed ({exc}).") from exc
        if vals.shape != grid.shape:
            raise TypeError(f"The 'link' callable of {func} must be vectorised: on an array of shape {grid.shape} "
                            f"it returned shape {vals.shape}.")
        if not np.isfinite(vals).all() or vals.min() < 0.0 or vals.max() > 1.0:
            raise ValueError(f"The 'link' callable of {func} must map the index range into [0, 1]; it does not.")
        if (np.diff(vals) < -1e-12).any():
            raise ValueError(f"The 'link' callable of {func} must be nondecreasing; it is not.")

    def _g_of_t(self, t: np.ndarray) -> np.ndarray:
        """g(t + b) for the logistic and callable links."""
        if self.link == "logistic":
            return expit(self.scale * (t + self.intercept))
        return np.clip(np.asarray(self._g(t + self.intercept), dtype=np.float64), 0.0, 1.0)

    def _noise_G(self, u: np.ndarray) -> np.ndarray:
        c, beta = self.center, 1.0 / self.alpha
        below = u < c
        z = np.where(below, (c - u) / c, (u - c) / (1.0 - c))
        z = np.clip(z, 0.0, 1.0) ** beta
        return 0.5 + 0.5 * np.where(below, -z, z)

    def _expect(self, h: Callable[[float, float], float], points: list[float] | None = None) -> tuple[float, float]:
        r"""``int_0^1 h(G(u), u) du`` by quadrature, ``G`` the quantile function of eta(X).

        Noise link: directly in ``u``. Other links: in ``t = w^T x`` with the exact density,
        ``int h(g(t + b), F(t)) f(t) dt`` (no quantile function needed); ``points`` are
        values of ``u`` where ``h`` jumps."""
        pts_u = sorted({q for q in (points or []) if 0.0 < q < 1.0})
        if self.link == "noise":
            if 0.0 < self.center < 1.0:
                pts_u = sorted(set(pts_u) | {self.center})
            val, err = integrate.quad(lambda u: h(float(self._noise_G(np.array([u]))[0]), u), 0.0, 1.0,
                                      points=pts_u or None, **_QUAD)
            return float(val), float(err)
        law = self._law
        lo, hi = law.support
        pts = sorted({*law.breaks, *(law.ppf(u) for u in pts_u)})
        pts = [t for t in pts if lo < t < hi]

        def integrand(t: float) -> float:
            f = law.pdf(t)
            if f == 0.0:
                return 0.0
            g = float(self._g_of_t(np.array([t]))[0])
            return h(g, float(law.cdf(np.array(t)))) * f

        val, err = integrate.quad(integrand, lo, hi, points=pts or None, **_QUAD)
        return float(val), float(err)

    def _solve_intercept(self, p_target: float) -> float:
        def excess(b: float) -> float:
            self.intercept = b
            return self._expect(lambda g, u: g)[0] - p_target

        width = 1.0
        while excess(-width) > 0.0 or excess(width) < 0.0:
            width *= 2.0
            if width > 1e6:
                raise ValueError(f"SingleIndex could not find an intercept giving p = {p_target!r}.")
        return optimize.brentq(excess, -width, width, xtol=1e-13, rtol=1e-13)

    # -- the Distribution interface -------------------------------------------------

    @property
    def p(self) -> float:
        return self._p

    @property
    def dim(self) -> int:
        return self.w.size

    @property
    def noise_exponent(self) -> float | None:
        if self.link == "noise":
            return self.alpha
        return 1.0 if self.link == "logistic" else None

    @property
    def noise_constant(self) -> float | None:
        if self.link != "noise":
            return None
        return 2.0 ** (self.alpha + 1.0) * max(self.center, 1.0 - self.center)

    def _eta(self, X: np.ndarray) -> np.ndarray:
        t = X @ self.w
        if self.link == "noise":
            return self._noise_G(np.asarray(self._law.cdf(t)))
        return self._g_of_t(t)

    def _sample_marginal(self, n: int, rng: np.random.Generator) -> np.ndarray:
        if self.x_dist == "gaussian":
            return rng.standard_normal((n, self.dim))
        return rng.uniform(-1.0, 1.0, size=(n, self.dim))

    def _gini_mean_difference(self) -> tuple[float, float, str]:
        if self.link == "noise":
            c, beta = self.center, 1.0 / self.alpha
            gmd = 2.0 * ((1.0 - c) ** 2 + c ** 2) / (beta + 2.0) - (1.0 - 2.0 * c) ** 2 / (beta + 1.0)
            return gmd, 0.0, "closed_form"
        val, err = self._expect(lambda g, u: g * (2.0 * u - 1.0))
        return 2.0 * val, 2.0 * err, "quadrature"

    def _exact_bayes(self) -> TheoryResult:
        gmd, err, how = self._gini_mean_difference()
        scale = 1.0 / (4.0 * self.p * (1.0 - self.p))
        value = 0.5 - gmd * scale
        detail = "1/2 - E|eta - eta'| / (4 p (1-p)), E|eta - eta'| = 2 int_0^1 G(u)(2u - 1) du"
        if how == "closed_form":
            return _closed(value, detail + " in closed form for the noise link")
        # error of E|eta - eta'| plus that of p propagated through 1 / (4 p (1 - p))
        p_term = self._p_err * gmd * scale * abs(1.0 - 2.0 * self.p) / (self.p * (1.0 - self.p))
        return _quadrature(value, err * scale + p_term, detail + " by quadrature")

    def _direction(self, score: Callable) -> int:
        """+1 / -1 if score is increasing / decreasing in w^T x (eta or a LinearScore along +-w), else 0."""
        if self._is_own_eta(score):
            return 1
        if isinstance(score, LinearScore) and score.coef.size == self.dim and score.coef.any():
            c = float(score.coef @ self.w) / float(self.w @ self.w)
            if c != 0.0 and np.linalg.norm(score.coef - c * self.w) <= 1e-12 * np.linalg.norm(score.coef):
                return 1 if c > 0 else -1
        return 0

    def _exact_error(self, score: Callable) -> TheoryResult | None:
        direction = self._direction(score)
        if direction == 0:
            return super()._exact_error(score)
        bayes = self._exact_bayes()
        if direction > 0:
            return bayes._shift(bayes.value, "a score increasing in w^T x ranks as eta: " + bayes.detail)
        return bayes._shift(1.0 - bayes.value, "a score decreasing in w^T x ranks in reverse: 1 - er*")

    def _exact_w_phi(self, score: Callable, phi: _phi.Phi) -> TheoryResult | None:
        direction = self._direction(score)
        if direction == 0:
            return None
        pts = [phi.params["u0"]] if phi.name == "local_auc" else []
        if direction > 0:
            val, err = self._expect(lambda g, u: g * float(phi(u)), pts)
        else:   # F_s(s(X)) = 1 - U: W = (1/p) int G(u) phi(1 - u) du
            val, err = self._expect(lambda g, u: g * float(phi(1.0 - u)), [1.0 - q for q in pts])
        return _quadrature(val / self.p, err / self.p,
                           "(1/p) int_0^1 G(u) phi(u) du, G the quantile function of eta(X), by quadrature")

    def __repr__(self) -> str:
        extra = f", alpha={self.alpha!r}" if self.link == "noise" else ""
        return f"SingleIndex(w={self.w.tolist()!r}, link={self.link!r}, x_dist={self.x_dist!r}{extra}, p={self.p:.6g})"


# ----------------------------------------------------------------------------
# Bounds (plain vectorised functions)
# ----------------------------------------------------------------------------


def _param_array(value: Any, name: str, func: str, *, low: float | None = None, high: float | None = None,
                 low_inclusive: bool = True, high_inclusive: bool = True, integer: bool = False):
    """A scalar (checked by check_param) or an array of values in the same range."""
    if isinstance(value, numbers.Real) or (isinstance(value, np.ndarray) and value.ndim == 0):
        if isinstance(value, np.ndarray):
            value = value.item()
        return check_param(value, name, func, low=low, high=high, low_inclusive=low_inclusive,
                           high_inclusive=high_inclusive, integer=integer)
    lo_b = "[" if low_inclusive else "("
    hi_b = "]" if high_inclusive and high is not None else ")"
    rng_s = f"{lo_b}{'-inf' if low is None else low}, {'inf' if high is None else high}{hi_b}"
    what = "integers" if integer else "floats"
    try:
        arr = np.asarray(value)
        if arr.dtype.kind not in "biuf" or arr.dtype.kind == "b":
            raise TypeError(f"dtype {arr.dtype}")
        arr = arr.astype(np.float64)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"The '{name}' parameter of {func} must be a number or an array of {what} in {rng_s}. "
                        f"Got {type(value).__name__} instead.") from exc
    bad = ~np.isfinite(arr)
    if low is not None:
        bad |= (arr < low) if low_inclusive else (arr <= low)
    if high is not None:
        bad |= (arr > high) if high_inclusive else (arr >= high)
    if integer:
        bad |= np.isfinite(arr) & (arr != np.round(arr))
    if bad.any():
        i = int(np.flatnonzero(bad.ravel())[0])
        raise ValueError(f"The '{name}' parameter of {func} must hold {what} in {rng_s}. "
                         f"Got {arr.ravel()[i]!r} (at flat index {i}) instead.")
    return arr


def _result(arr: Any) -> float | np.ndarray:
    arr = np.asarray(arr, dtype=np.float64)
    return float(arr) if arr.ndim == 0 else arr


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

    Reference: Agarwal 2014, Theorem 13 (``THEORY.md`` section 4).

    Examples
    --------
    Logistic loss (lambda = 4), p = 1/2, surrogate regret 0.01: sqrt(2) / (0.25 * 2) * 0.1.

    >>> round(theorem13_bound(0.01, 0.5, 4.0), 12)
    0.282842712475
    >>> theorem13_bound([0.0, 0.04], 0.5, 8.0)        # squared loss: 0.04 -> 2 * 0.2 / 1
    array([0. , 0.4])
    """
    func = "theorem13_bound"
    r = _param_array(surrogate_regret, "surrogate_regret", func, low=0.0)
    p = _param_array(p, "p", func, low=0.0, high=1.0, low_inclusive=False, high_inclusive=False)
    lam = _param_array(lam, "lam", func, low=0.0, low_inclusive=False)
    return _result(math.sqrt(2.0) / (np.multiply(p, 1.0 - np.asarray(p)) * np.sqrt(lam)) * np.sqrt(r))


def theorem15_bound(surrogate_regret: Any, p: Any, lam: Any, alpha: Any, c_alpha: Any) -> float | np.ndarray:
    r"""Agarwal's Theorem 15: the ranking regret bound under a low-noise condition.

    Parameters
    ----------
    surrogate_regret : float or array-like
        :math:`\mathrm{regret}_\ell[f] \ge 0`.
    p : float or array-like
        :math:`P(Y = 1)` in (0, 1).
    lam : float or array-like
        Strong properness :math:`\lambda > 0`.
    alpha : float or array-like
        Exponent :math:`\alpha \ge 0` of :math:`P(|\eta(X) - \eta(x)| \le t) \le C t^\alpha`
        (:attr:`SingleIndex.noise_exponent`).
    c_alpha : float or array-like
        The constant :math:`C_\alpha > 0`; the paper leaves it implicit (it depends on
        :math:`C` and :math:`\alpha` only). With ``alpha = 0`` and ``c_alpha = 1`` the bound is
        Theorem 13's.

    Returns
    -------
    float or ndarray

    Notes
    -----
    .. math:: \mathrm{regret}_{rank}[f] \le \frac{C_\alpha}{p(1-p)}
              \left(\frac{2}{\lambda}\right)^{\frac{1+\alpha}{2+\alpha}}
              \mathrm{regret}_\ell[f]^{\frac{1+\alpha}{2+\alpha}};

    the exponent grows from 1/2 (no condition) to 2/3 at :math:`\alpha = 1`.
    Reference: Agarwal 2014, Theorem 15 (``THEORY.md`` section 4).

    Examples
    --------
    >>> round(theorem15_bound(0.04, 0.5, 8.0, 0.0, 1.0), 12)     # = theorem13_bound(0.04, 0.5, 8.0)
    0.4
    >>> round(theorem15_bound(0.001, 0.5, 2.0, 1.0, 1.0), 6)     # 4 * 1 * 0.001^(2/3)
    0.04
    """
    func = "theorem15_bound"
    r = _param_array(surrogate_regret, "surrogate_regret", func, low=0.0)
    p = _param_array(p, "p", func, low=0.0, high=1.0, low_inclusive=False, high_inclusive=False)
    lam = _param_array(lam, "lam", func, low=0.0, low_inclusive=False)
    alpha = _param_array(alpha, "alpha", func, low=0.0)
    c_alpha = _param_array(c_alpha, "c_alpha", func, low=0.0, low_inclusive=False)
    e = (1.0 + np.asarray(alpha)) / (2.0 + np.asarray(alpha))
    return _result(np.asarray(c_alpha) / (np.multiply(p, 1.0 - np.asarray(p))) * np.power(2.0 / np.asarray(lam), e)
                   * np.power(r, e))


def regret_bound(loss: Any, surrogate_regret: Any, p: Any) -> float | np.ndarray:
    r"""Theorem 13 for a named loss: :func:`theorem13_bound` with the loss's :math:`\lambda`.

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
    return theorem13_bound(surrogate_regret, p, _losses.get(loss).strong_properness)


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

    Kotlowski, Dembczynski & Hüllermeier, ICML 2011, as stated in Agarwal 2014,
    Eqs. 28-30; the same as :func:`rankwise.losses.balanced_regret_bound`.

    Examples
    --------
    >>> balanced_bound(0.01, "logistic")              # 2 sqrt(0.01)
    0.2
    >>> round(balanced_bound(0.02, "exponential"), 12)    # 3/sqrt(2) * sqrt(0.02) = 0.3
    0.3
    """
    out = _losses.balanced_regret_bound(surrogate_regret, loss)
    return out if isinstance(out, np.ndarray) else float(out)


def _c1_c2(X_star, W_star):
    X_star, W_star = np.asarray(X_star), np.asarray(W_star)
    c1 = 8.0 * X_star ** 2 * W_star + 4.0 * X_star
    c2 = 3.0 * X_star ** 2 * W_star ** 2 + 2.0 * X_star * W_star
    return c1, c2


def lcbr_sample_size(eps: Any, p_star: Any, D: Any, sigma_norm: Any, X_star: Any, W_star: Any) -> float | np.ndarray:
    r"""Paper 003's Theorem 3: the number ``S`` of sampled pairs for LCBR.

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
    .. math:: S \ge \max\left\{ \log\frac{4D}{p^*}\,
              \frac{\|\Sigma_N\|_2 X_*^2 W_*^4 + \frac{1}{15}\epsilon X_*^2 W_*^2}{\epsilon^2/800},\;
              \frac{X_*^2 W_*^2}{\epsilon^2/100}\left[\sqrt{2\log(4/p^*)} + 1\right]^2 \right\}

    gives :math:`P(R(w_S) - R(w_*) \ge \epsilon) \le 2 C_S(\epsilon/(10 C_1))
    \exp(-\frac{\epsilon^2}{50 C_2^2}\rho(1-\rho)N) + p^*` (:func:`lcbr_tail_bound`).
    Reference: Gultekin & Paisley 2020, Theorem 3 (``THEORY.md`` section 3).

    Examples
    --------
    With :math:`\|\Sigma_N\| = 0` the second term decides: :math:`X^* = W^* = 1`,
    :math:`\epsilon = 1`, :math:`p^* = 4 e^{-2}` give :math:`100 (\sqrt 4 + 1)^2 = 900`.

    >>> round(lcbr_sample_size(1.0, 4 * np.exp(-2.0), 1, 0.0, 1.0, 1.0), 9)
    900.0
    """
    func = "lcbr_sample_size"
    eps = _param_array(eps, "eps", func, low=0.0, low_inclusive=False)
    p_star = _param_array(p_star, "p_star", func, low=0.0, high=1.0, low_inclusive=False, high_inclusive=False)
    D = _param_array(D, "D", func, low=1, integer=True)
    sigma_norm = _param_array(sigma_norm, "sigma_norm", func, low=0.0)
    X_star = _param_array(X_star, "X_star", func, low=0.0, low_inclusive=False)
    W_star = _param_array(W_star, "W_star", func, low=0.0, low_inclusive=False)
    eps, p_star, D, sigma_norm, X_star, W_star = (np.asarray(v, dtype=np.float64)
                                                  for v in (eps, p_star, D, sigma_norm, X_star, W_star))
    xw2 = X_star ** 2 * W_star ** 2
    first = np.log(4.0 * D / p_star) * (sigma_norm * X_star ** 2 * W_star ** 4 + eps * xw2 / 15.0) / (eps ** 2 / 800.0)
    second = xw2 / (eps ** 2 / 100.0) * (np.sqrt(2.0 * np.log(4.0 / p_star)) + 1.0) ** 2
    return _result(np.maximum(first, second))


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
    r"""Paper 003's Theorem 1: a tail bound on the excess risk of BBR.

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

    Reference: Gultekin & Paisley 2020, Theorem 1 (``THEORY.md`` section 3).

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
    r"""Paper 003's Theorem 3 (conclusion): the tail bound of LCBR once ``S`` satisfies :func:`lcbr_sample_size`.

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

    Reference: Gultekin & Paisley 2020, Theorem 3 (``THEORY.md`` section 3).

    Examples
    --------
    >>> round(lcbr_tail_bound(1.0, 5000, 0.5, 1.0, 1.0, 1.0, 0.01), 9)    # 2 e^{-1} + 0.01
    0.745758882
    """
    func = "lcbr_tail_bound"
    p_star = _param_array(p_star, "p_star", func, low=0.0, high=1.0, low_inclusive=False, high_inclusive=False)
    return _tail(eps, N, rho, X_star, W_star, covering_number, log_covering, 10.0, 50.0, p_star, func)


def _tail(eps, N, rho, X_star, W_star, covering_number, log_covering, r_div, e_div, add, func):
    eps = np.asarray(_param_array(eps, "eps", func, low=0.0, low_inclusive=False), dtype=np.float64)
    N = np.asarray(_param_array(N, "N", func, low=1, integer=True), dtype=np.float64)
    rho = np.asarray(_param_array(rho, "rho", func, low=0.0, high=1.0, low_inclusive=False, high_inclusive=False),
                     dtype=np.float64)
    X_star = _param_array(X_star, "X_star", func, low=0.0, low_inclusive=False)
    W_star = _param_array(W_star, "W_star", func, low=0.0, low_inclusive=False)
    if not isinstance(log_covering, (bool, np.bool_)):
        raise TypeError(f"The 'log_covering' parameter of {func} must be a bool. Got {log_covering!r} instead.")
    c1, c2 = _c1_c2(X_star, W_star)
    radius = np.asarray(eps / (r_div * c1), dtype=np.float64)
    log_c = _log_covering(covering_number, radius, bool(log_covering), func)
    log_bound = math.log(2.0) + log_c - eps ** 2 / (e_div * c2 ** 2) * rho * (1.0 - rho) * N
    return _result(np.exp(log_bound) + np.asarray(add, dtype=np.float64))


def ball_covering_number(r: Any, D: Any, W_star: Any, *, log: bool = False) -> float | np.ndarray:
    r"""The volumetric upper bound :math:`(1 + 2W^*/r)^D` on the covering number of a ball.

    Parameters
    ----------
    r : float or array-like, > 0
        Radius of the covering balls.
    D : int or array-like, >= 1
        Dimension.
    W_star : float or array-like, > 0
        Radius of the covered ball :math:`\{\|w\|_2 \le W^*\}` (paper 003's constraint set).
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
    func = "ball_covering_number"
    r = _param_array(r, "r", func, low=0.0, low_inclusive=False)
    D = _param_array(D, "D", func, low=1, integer=True)
    W_star = _param_array(W_star, "W_star", func, low=0.0, low_inclusive=False)
    ratio = 2.0 * np.asarray(W_star) / np.asarray(r)
    D = np.asarray(D, dtype=np.float64)
    if log:
        return _result(D * np.log1p(ratio))
    with np.errstate(over="ignore"):
        return _result(np.power(1.0 + ratio, D))
