"""Two Gaussian classes: :class:`BinormalShared` (shared covariance, logistic-linear ``eta``) and
:class:`BinormalDifferent` (different covariances, logistic-quadratic ``eta``)."""

from __future__ import annotations

import abc
import math
from typing import Any

import numpy as np
from scipy import linalg
from scipy.special import ndtr

from ._base import _ClassConditional, _logit
from ._checks import _as_cov, _as_vector, _check_p
from ._laws import _Mixture
from ._results import TheoryResult, _closed
from ._scores import LinearScore


class _Binormal(_ClassConditional):
    """Two Gaussian classes ``N(mean_pos, cov of class 1)`` and ``N(mean_neg, cov of class 0)``."""

    mean_pos: np.ndarray
    mean_neg: np.ndarray

    def _set_means(self, mean_pos: Any, mean_neg: Any, func: str) -> int:
        self.mean_pos = _as_vector(mean_pos, "mean_pos", func)
        self.mean_neg = _as_vector(mean_neg, "mean_neg", func, self.mean_pos.size)
        return self.mean_pos.size

    @abc.abstractmethod
    def _class_law(self, label: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(mean, covariance, lower Cholesky factor) of X | Y = label."""

    @property
    def dim(self) -> int:
        return self.mean_pos.size

    def _sample_class(self, label: int, n: int, rng: np.random.Generator) -> np.ndarray:
        m, _, L = self._class_law(label)
        return m + rng.standard_normal((n, self.dim)) @ L.T

    def _linear_laws(self, coef):
        """``coef^T X | Y`` is ``N(coef^T mean, coef^T cov coef)`` in each class."""
        laws = []
        for label in (1, 0):
            m, cov, _ = self._class_law(label)
            laws.append(_Mixture.normal(coef @ m, math.sqrt(float(coef @ cov @ coef))))
        return tuple(laws)


class BinormalShared(_Binormal):
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
    and of ``eta``; Monte Carlo: other scores, surrogate regrets. :meth:`log_odds` is
    :math:`w^\top x + b`.

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
        d = self._set_means(mean_pos, mean_neg, func)
        self.cov, self._chol = _as_cov(cov, d, "cov", func)
        self._p = _check_p(p, func)
        delta = self.mean_pos - self.mean_neg
        self.coef = linalg.cho_solve((self._chol, True), delta)
        q1 = float(self.mean_pos @ linalg.cho_solve((self._chol, True), self.mean_pos))
        q0 = float(self.mean_neg @ linalg.cho_solve((self._chol, True), self.mean_neg))
        self.intercept = -0.5 * (q1 - q0) + _logit(self._p)
        self.mahalanobis = math.sqrt(max(float(delta @ self.coef), 0.0))

    def _class_law(self, label: int):
        return (self.mean_pos if label else self.mean_neg), self.cov, self._chol

    def _log_odds(self, X: np.ndarray) -> np.ndarray:
        return X @ self.coef + self.intercept

    def bayes_scorer(self) -> LinearScore:
        """The log-odds as a :class:`LinearScore` (Bayes-optimal; the logistic loss's link of ``eta``)."""
        return LinearScore(self.coef, self.intercept)

    def _exact_bayes(self) -> TheoryResult:
        return _closed(float(ndtr(-self.mahalanobis / math.sqrt(2.0))),
                       "Phi(-Delta/sqrt(2)), Delta the Mahalanobis distance between the class means")


class BinormalDifferent(_Binormal):
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
    (:meth:`log_odds_coefficients`); :meth:`eta` and :meth:`log_odds` evaluate it through
    Cholesky solves. A linear score has exact :math:`\mathrm{AUC} = \Phi(a^\top(\mu_1 - \mu_0) /
    \sqrt{a^\top (\Sigma_1 + \Sigma_0) a})` but, for :math:`\Sigma_1 \ne \Sigma_0`, positive
    regret. Exact: error/AUC/``W_phi`` of :class:`LinearScore`; Monte Carlo: Bayes error, regrets,
    everything about ``eta`` or nonlinear scores.

    Examples
    --------
    >>> from rankwise.theory import LinearScore
    >>> d = BinormalDifferent([0.0], 4.0, [0.0], 1.0)    # same mean, variance 4 vs 1
    >>> A, b, c = d.log_odds_coefficients()
    >>> A, b, round(c, 6)                                # (1/2)(1 - 1/4) x^2 - log 2
    (array([[0.375]]), array([0.]), -0.693147)
    >>> d.auc(LinearScore([1.0])).value                  # a linear score cannot separate them
    0.5
    """

    def __init__(self, mean_pos: Any, cov_pos: Any, mean_neg: Any, cov_neg: Any, p: float = 0.5):
        func = "BinormalDifferent"
        d = self._set_means(mean_pos, mean_neg, func)
        self.cov_pos, self._chol_pos = _as_cov(cov_pos, d, "cov_pos", func)
        self.cov_neg, self._chol_neg = _as_cov(cov_neg, d, "cov_neg", func)
        self._p = _check_p(p, func)
        self._const = (_logit(self._p) - float(np.log(np.diag(self._chol_pos)).sum())
                       + float(np.log(np.diag(self._chol_neg)).sum()))

    def _class_law(self, label: int):
        if label:
            return self.mean_pos, self.cov_pos, self._chol_pos
        return self.mean_neg, self.cov_neg, self._chol_neg

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
