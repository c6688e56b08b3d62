"""The Gaussian mixtures of Gultekin & Paisley (2020): each class a mixture of K isotropic Gaussians."""

from __future__ import annotations

from typing import Any

import numpy as np
from scipy.special import logsumexp

from .._validation import check_param
from ._base import _ClassConditional, _logit
from ._checks import _check_n, _check_p, _rng
from ._laws import _Mixture


class GaussianMixtures(_ClassConditional):
    r"""The synthetic data of Gultekin & Paisley (2020): each class a mixture of K isotropic Gaussians.

    Class 1 has component means drawn uniformly in :math:`[0, 1]^D`, class 0 in
    :math:`[-1, 0]^D` (drawn once, from ``random_state``, when the object is built),
    every component has covariance :math:`\sigma^2 I` and weight :math:`1/K`.

    Parameters
    ----------
    n_components : int >= 1
        :math:`K` (Gultekin & Paisley use 1, 2, 3).
    sigma : float > 0
        Component standard deviation (Gultekin & Paisley: 2, 3, 4).
    dim : int >= 1
        :math:`D` (not stated by Gultekin & Paisley; choose and record it).
    p : float in (0, 1), default 0.5
    random_state : None, int, numpy Generator or RandomState
        Draws the component means.

    Attributes
    ----------
    means_pos, means_neg : ndarray of shape (K, D)

    Notes
    -----
    With a shared isotropic covariance the :math:`\|x\|^2` terms cancel in the log-odds
    (:meth:`log_odds`):

    .. math:: \log\frac{\eta(x)}{1-\eta(x)} = \log\frac{p}{1-p}
              + \operatorname{logsumexp}_k\left(\frac{x^\top\mu_{1k}}{\sigma^2} - \frac{\|\mu_{1k}\|^2}{2\sigma^2}\right)
              - \operatorname{logsumexp}_l\left(\frac{x^\top\mu_{0l}}{\sigma^2} - \frac{\|\mu_{0l}\|^2}{2\sigma^2}\right),

    exact and stable. A linear score :math:`a^\top x` is a mixture of normals
    :math:`N(a^\top\mu_{ck}, \sigma^2\|a\|^2)` in each class: its AUC is
    :math:`K^{-2}\sum_{kl}\Phi(a^\top(\mu_{1k} - \mu_{0l})/(\sigma\|a\|\sqrt2))`, exact. The
    Bayes error needs Monte Carlo (for :math:`K = 1` the model is :class:`BinormalShared`).
    Reference: Gultekin & Paisley (2020), section 5.

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
    def dim(self) -> int:
        return self._dim

    def _log_odds(self, X: np.ndarray) -> np.ndarray:
        s2 = self.sigma ** 2
        a1 = X @ self.means_pos.T / s2 - 0.5 * (self.means_pos ** 2).sum(axis=1) / s2
        a0 = X @ self.means_neg.T / s2 - 0.5 * (self.means_neg ** 2).sum(axis=1) / s2
        return _logit(self._p) + logsumexp(a1, axis=1) - logsumexp(a0, axis=1)

    def _sample_class(self, label: int, n: int, rng: np.random.Generator) -> np.ndarray:
        means = self.means_pos if label else self.means_neg
        comp = rng.integers(self.n_components, size=n)
        return means[comp] + self.sigma * rng.standard_normal((n, self._dim))

    def _linear_laws(self, coef):
        K = self.n_components
        w = np.full(K, 1.0 / K)
        sd = np.full(K, self.sigma * float(np.linalg.norm(coef)))
        return _Mixture(w, self.means_pos @ coef, sd), _Mixture(w, self.means_neg @ coef, sd)

    def __repr__(self) -> str:
        return (f"GaussianMixtures(n_components={self.n_components}, sigma={self.sigma!r}, dim={self._dim}, "
                f"p={self._p!r})")
