r"""A linear scorer trained on a pointwise proper composite loss (paper 004's route).

Agarwal (JMLR 2014, Theorem 13): for a :math:`\lambda`-strongly proper composite loss,
:math:`\mathrm{regret}_{rank}[f] \le \frac{\sqrt2}{p(1-p)\sqrt\lambda}\sqrt{\mathrm{regret}_\ell[f]}`,
so minimising the loss pointwise is a ranking method with a guarantee, and the inverse
link turns the scores into probability estimates, which pairwise rankers cannot give.
"""

from __future__ import annotations

import numpy as np

from ..io import register_model
from .._validation import check_choice, check_param
from ..losses import _proper
from ._base import BinaryLinearRanker, lbfgs

__all__ = ["ProperLossRanker"]


def _pointwise(name: str, loss):
    r"""``(value, derivative)`` of the loss in the prediction ``f`` for labels ``t`` in {-1, +1},
    as the learner minimises it over all of R.

    R-valued losses (exponential, logistic, canonical exponential) are used as they are.
    The losses of Table 1 defined on [-1, 1] by a polynomial (squared, canonical squared,
    squared hinge) are minimised in their convex unclipped form on R, whose conditional
    regret still bounds the ranking regret through the clipped prediction (the squared
    loss's regret is :math:`(f - (2\eta - 1))^2` on all of R). The spherical losses are
    used clipped to their prediction space: they are not convex there, so the fit is a
    local optimum reached from the class prior.
    """
    if name == "squared":
        return lambda t, f: (1.0 - t * f) ** 2, lambda t, f: -2.0 * t * (1.0 - t * f)
    if name == "canonical_squared":
        return lambda t, f: 0.25 * (1.0 - t * f) ** 2, lambda t, f: -0.5 * t * (1.0 - t * f)
    if name == "squared_hinge":
        return (lambda t, f: np.maximum(0.0, 1.0 - t * f) ** 2,
                lambda t, f: -2.0 * t * np.maximum(0.0, 1.0 - t * f))
    return lambda t, f: loss.loss(t, f), lambda t, f: loss.dloss(t, f)


def solve(estimator, loss, objective, d: int, prior_mass: float, max_iter: int, tol: float):
    """L-BFGS over ``theta = (coef, intercept)`` from ``coef = 0`` and the intercept at the
    link of the positives' (weighted) share (of 1/2 when ``balanced``); sets ``coef_``,
    ``intercept_`` and ``n_iter_``. Shared with :func:`rankwise.distributed.fit_proper`."""
    prior = float(np.clip(prior_mass, 1e-6, 1 - 1e-6))
    theta0 = np.zeros(d + 1)
    theta0[d] = float(loss.link(0.5 if estimator.balanced else prior))
    res = lbfgs(objective, theta0, max_iter, tol, "ProperLossRanker")
    estimator.coef_ = res.x[:d].copy()
    estimator.intercept_ = float(res.x[d])
    estimator.n_iter_ = int(res.nit)
    return estimator


@register_model
class ProperLossRanker(BinaryLinearRanker):
    r"""Regularised linear scorer on a proper composite loss, with calibrated probabilities.

    Parameters
    ----------
    loss : str, default "logistic"
        Any loss of :mod:`rankwise.losses` (Agarwal's Table 1 plus squared hinge):
        ``"logistic"``, ``"exponential"``, ``"squared"``, ``"squared_hinge"``,
        ``"spherical"``, ``"canonical_exponential"``, ``"canonical_squared"``,
        ``"canonical_spherical"``.
    alpha : float >= 0, default 1e-4
        Ridge penalty :math:`\tfrac{\alpha}{2}\|w\|^2` on the weights (not the intercept).
    balanced : bool, default False
        Kotlowski et al.'s balanced loss: positives weigh :math:`1/(2p)`, negatives
        :math:`1/(2(1-p))` (``p`` the weighted share of positives), for which
        :math:`\mathrm{regret}_{rank} \le 2\sqrt{\mathrm{regret}_{log}}` (logistic) and
        :math:`(3/\sqrt2)\sqrt{\mathrm{regret}_{exp}}` (exponential).
    max_iter : int, default 1000
    tol : float, default 1e-8
        L-BFGS tolerance on the projected gradient of the mean loss.

    Attributes
    ----------
    coef_, intercept_
        The scorer :math:`f(x) = w^\top x + b`, a prediction of the loss (its link of the
        probability).
    n_iter_ : int

    Notes
    -----
    .. math:: \min_{w, b}\ \frac{1}{\sum_i w_i}\sum_i w_i\, \ell(y_i, w^\top x_i + b)
              + \frac{\alpha}{2}\|w\|^2

    solved by L-BFGS. ``predict_proba`` is :math:`\psi^{-1}(f(x))`; ``decision_function`` is
    :math:`f(x) - \psi(1/2)` so that it is positive exactly where the estimated
    probability exceeds 1/2 (for every loss but the spherical one, :math:`\psi(1/2) = 0`).
    Reference: S. Agarwal, "Surrogate regret bounds for bipartite ranking via strongly
    proper losses", JMLR 15, 2014 (``THEORY.md`` section 4).

    Examples
    --------
    >>> import numpy as np, rankwise as rw
    >>> X = np.array([[0.0], [1.0], [2.0], [3.0], [1.5], [2.5]])
    >>> y = np.array([0, 0, 1, 1, 0, 1])
    >>> m = rw.ProperLossRanker(loss="logistic").fit(X, y)
    >>> m.score(X, y), bool(m.predict_proba([[10.0]])[0, 1] > 0.99)
    (1.0, True)
    """

    def __init__(self, loss: str = "logistic", alpha: float = 1e-4, balanced: bool = False,
                 max_iter: int = 1000, tol: float = 1e-8):
        self.loss = loss
        self.alpha = alpha
        self.balanced = balanced
        self.max_iter = max_iter
        self.tol = tol

    def fit(self, X, y, sample_weight=None):
        """Fit on ``X`` (n, d), binary ``y``, optional ``sample_weight``."""
        check_choice(self.loss, "loss", "ProperLossRanker", tuple(_proper.LOSSES))
        loss = _proper.get(self.loss)
        alpha = check_param(self.alpha, "alpha", "ProperLossRanker", low=0.0)
        max_iter = check_param(self.max_iter, "max_iter", "ProperLossRanker", low=1, integer=True)
        tol = check_param(self.tol, "tol", "ProperLossRanker", low=0.0, low_inclusive=False)
        if not isinstance(self.balanced, (bool, np.bool_)):
            raise TypeError(f"The 'balanced' parameter of ProperLossRanker must be a bool. Got {self.balanced!r} instead.")
        X, is_pos, sw = self._validate_fit(X, y, sample_weight)
        w = sw.copy()
        if self.balanced:
            p = w[is_pos].sum() / w.sum()
            w[is_pos] /= 2.0 * p
            w[~is_pos] /= 2.0 * (1.0 - p)
        w /= w.sum()
        t = np.where(is_pos, 1.0, -1.0)
        value, deriv = _pointwise(loss.name, loss)
        d = X.shape[1]

        def objective(theta):
            coef, b = theta[:d], theta[d]
            f = np.asarray(X @ coef).ravel() + b
            obj = float(np.dot(w, value(t, f))) + 0.5 * alpha * float(coef @ coef)
            g = w * deriv(t, f)
            grad = np.empty(d + 1)
            grad[:d] = np.asarray(X.T @ g).ravel() + alpha * coef
            grad[d] = g.sum()
            return obj, grad

        return solve(self, loss, objective, d, float(w[is_pos].sum()), max_iter, tol)

    @property
    def _half(self) -> float:
        return float(_proper.get(self.loss).link(0.5))

    def decision_function(self, X) -> np.ndarray:
        """``f(x) - psi(1/2)``: the loss's prediction, centred so that 0 is probability 1/2."""
        return super().decision_function(X) - self._half

    def predict_proba(self, X) -> np.ndarray:
        """Estimated ``[P(y = classes_[0] | x), P(y = classes_[1] | x)]`` through the inverse link."""
        f = super().decision_function(X)
        p = np.asarray(_proper.get(self.loss).inverse_link(f), dtype=np.float64)
        return np.column_stack([1.0 - p, p])

    _extra_state_names = ("n_iter_",)

    def _extra_state(self):
        return {"n_iter_": int(self.n_iter_)}
