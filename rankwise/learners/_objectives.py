r"""The objectives of the linear rankers and their pieces, written once.

The single-machine fits (:class:`BBRRanker`, :class:`ProperLossRanker`,
:class:`PairwiseRanker`, and the pairwise objective of :class:`RankStatisticRanker` and
of :class:`KernelRanker`'s Nyström mode) and their Dask versions
(:mod:`rankwise.distributed`) differ only in where the data are: the parameter checks,
the per-row loss terms, the penalty, the optimiser's start and the fitted attributes are
the functions here. A Dask fit evaluates the same per-block terms on each row block and
adds them up on the client before the same penalty and the same L-BFGS run.

* BBR: :func:`check_bbr` and :func:`pair_moments_from_classes` (the pair moments
  :math:`(\Sigma, \mu)` from class means and covariances).
* Proper composite losses: :func:`check_proper`, :func:`pointwise_loss`,
  :func:`proper_terms` (one row block's loss sum and gradient pieces),
  :func:`proper_penalised` (the ridge on the weights, not the intercept) and
  :func:`solve_proper` (start and L-BFGS).
* Pairwise surrogates: :func:`pairwise_surrogate` and :func:`check_pairwise`,
  :func:`linear_pairwise` (the all-pairs surrogate of the scores ``X w``),
  :func:`ridge` and :func:`solve_pairwise`.
"""

from __future__ import annotations

import numpy as np

from .._validation import check_choice, check_param
from ..losses import LOSSES, PAIRWISE, get, pairwise
from ._base import lbfgs

__all__ = [
    "check_ball",
    "check_bbr",
    "pair_moments_from_classes",
    "check_proper",
    "pointwise_loss",
    "proper_terms",
    "proper_penalised",
    "solve_proper",
    "pairwise_surrogate",
    "check_pairwise",
    "linear_pairwise",
    "ridge",
    "solve_pairwise",
]


# ==========================================================================================
# BBR: pairwise least squares through class moments
# ==========================================================================================

def check_ball(estimator, name: str) -> None:
    """``radius`` (> 0 or None) and ``alpha`` (>= 0) of a BBR-type estimator."""
    if estimator.radius is not None:
        check_param(estimator.radius, "radius", name, low=0.0, low_inclusive=False)
    check_param(estimator.alpha, "alpha", name, low=0.0)


def check_bbr(estimator) -> None:
    """The parameters of a :class:`BBRRanker`: :func:`check_ball` and ``method``."""
    check_ball(estimator, "BBRRanker")
    check_choice(estimator.method, "method", "BBRRanker", ("moments", "pairs"))


def pair_moments_from_classes(mean_pos, cov_pos, mean_neg, cov_neg):
    r"""``(Sigma, mu, cov)`` over all positive-negative pairs from the class means and
    (weighted, divided by the class weight) covariances: under the pair measure the two
    ends are independent, so the pair difference has mean :math:`\mu = m_+ - m_-` and
    covariance :math:`\mathrm{Cov}_+ + \mathrm{Cov}_-`, and its second moment is
    :math:`\Sigma = \mathrm{Cov}_+ + \mathrm{Cov}_- + \mu\mu^\top` (symmetrised)."""
    mu = mean_pos - mean_neg
    cov = cov_pos + cov_neg
    Sigma = cov + np.outer(mu, mu)
    return 0.5 * (Sigma + Sigma.T), mu, cov


# ==========================================================================================
# Proper composite losses
# ==========================================================================================

def check_proper(estimator):
    """The parameters of a :class:`ProperLossRanker`: returns ``(loss, alpha, max_iter, tol)``
    (``loss`` the :class:`~rankwise.losses.ProperCompositeLoss`)."""
    name = "ProperLossRanker"
    check_choice(estimator.loss, "loss", name, tuple(LOSSES))
    loss = get(estimator.loss)
    alpha = check_param(estimator.alpha, "alpha", name, low=0.0)
    max_iter = check_param(estimator.max_iter, "max_iter", name, low=1, integer=True)
    tol = check_param(estimator.tol, "tol", name, low=0.0, low_inclusive=False)
    if not isinstance(estimator.balanced, (bool, np.bool_)):
        raise TypeError(f"The 'balanced' parameter of {name} must be a bool. Got {estimator.balanced!r} instead.")
    return loss, alpha, max_iter, tol


def pointwise_loss(name: str):
    r"""``(value, derivative)`` of the loss ``name`` in the prediction ``f`` for labels ``t``
    in {-1, +1}, as :class:`ProperLossRanker` minimises it over all of R.

    R-valued losses (exponential, logistic, canonical exponential) are used as they are.
    The losses of Agarwal's Table 1 defined on [-1, 1] by a polynomial (squared, canonical
    squared, squared hinge) are minimised in their convex unclipped form on R, whose
    conditional regret still bounds the ranking regret through the clipped prediction
    (the squared loss's regret is :math:`(f - (2\eta - 1))^2` on all of R). The spherical
    losses are used clipped to their prediction space: they are not convex there, so the
    fit is a local optimum reached from the class prior. (S. Agarwal, "Surrogate regret
    bounds for bipartite ranking via strongly proper losses", JMLR 15, 2014.)
    """
    if name == "squared":
        return lambda t, f: (1.0 - t * f) ** 2, lambda t, f: -2.0 * t * (1.0 - t * f)
    if name == "canonical_squared":
        return lambda t, f: 0.25 * (1.0 - t * f) ** 2, lambda t, f: -0.5 * t * (1.0 - t * f)
    if name == "squared_hinge":
        return (lambda t, f: np.maximum(0.0, 1.0 - t * f) ** 2,
                lambda t, f: -2.0 * t * np.maximum(0.0, 1.0 - t * f))
    loss = get(name)
    return lambda t, f: loss.loss(t, f), lambda t, f: loss.dloss(t, f)


def proper_terms(X, t, w, theta, value, deriv):
    """One row block's share of the mean loss at ``theta = (coef, intercept)``:
    ``(sum_i w_i l(t_i, f_i), X^T g, sum_i g_i)`` with ``f = X coef + intercept`` and
    ``g_i = w_i l'(t_i, f_i)`` (``value``, ``deriv`` from :func:`pointwise_loss`, ``w`` the
    normalised row weights)."""
    d = X.shape[1]
    coef, b = theta[:d], theta[d]
    with np.errstate(over="ignore"):
        f = np.asarray(X @ coef).ravel() + b
        g = w * deriv(t, f)
        return float(np.dot(w, value(t, f))), np.asarray(X.T @ g).ravel(), float(g.sum())


def proper_penalised(theta, alpha: float, loss_sum: float, xtg, g_sum: float):
    r"""The objective and its gradient in ``theta = (coef, intercept)`` from the summed
    :func:`proper_terms`: the mean loss plus :math:`\tfrac{\alpha}{2}\|coef\|^2` (the
    intercept is not penalised)."""
    d = theta.shape[0] - 1
    coef = theta[:d]
    grad = np.empty(d + 1)
    grad[:d] = xtg + alpha * coef
    grad[d] = g_sum
    return loss_sum + 0.5 * alpha * float(coef @ coef), grad


def solve_proper(estimator, loss, objective, d: int, prior_mass: float, max_iter: int, tol: float, scale=None):
    """L-BFGS over ``theta = (coef, intercept)`` from ``coef = 0`` and the intercept at the
    link of the positives' (weighted) share (of 1/2 when ``balanced``); sets ``coef_``,
    ``intercept_`` and ``n_iter_`` and returns the estimator. ``scale``: the optimiser's
    coordinates (:func:`~rankwise.learners._base.coordinate_scale`, intercept included)."""
    prior = float(np.clip(prior_mass, 1e-6, 1 - 1e-6))
    theta0 = np.zeros(d + 1)
    theta0[d] = float(loss.link(0.5 if estimator.balanced else prior))
    res = lbfgs(objective, theta0, max_iter, tol, "ProperLossRanker", scale)
    estimator.coef_ = res.x[:d].copy()
    estimator.intercept_ = float(res.x[d])
    estimator.n_iter_ = int(res.nit)
    return estimator


# ==========================================================================================
# Pairwise surrogates
# ==========================================================================================

def pairwise_surrogate(estimator, name: str, takes=("margin", "mode")):
    """The :func:`rankwise.losses.pairwise` surrogate of ``estimator.loss``, with those of
    the estimator's ``margin`` and ``mode`` that the estimator ``takes`` and the surrogate
    accepts; errors name the estimator ``name``."""
    check_choice(estimator.loss, "loss", name, tuple(PAIRWISE))
    spec = PAIRWISE[estimator.loss]
    params = {}
    if "margin" in takes and "margin" in spec.defaults:
        params["margin"] = check_param(estimator.margin, "margin", name, low=0.0, low_inclusive=False)
    if "mode" in takes and "mode" in spec.defaults:
        params["mode"] = check_choice(estimator.mode, "mode", name, ("auto", "exact", "approx"))
    return pairwise(estimator.loss, **params)


def check_pairwise(estimator):
    """The parameters of a :class:`PairwiseRanker`: returns ``(surrogate, alpha, max_iter, tol)``."""
    name = "PairwiseRanker"
    surrogate = pairwise_surrogate(estimator, name)
    alpha = check_param(estimator.alpha, "alpha", name, low=0.0)
    max_iter = check_param(estimator.max_iter, "max_iter", name, low=1, integer=True)
    tol = check_param(estimator.tol, "tol", name, low=0.0, low_inclusive=False)
    return surrogate, alpha, max_iter, tol


def linear_pairwise(X, is_pos, surrogate, weights, state=None):
    r"""``w -> (F(X w), X^T dF/ds)``: the surrogate over all pairs of the scores of a
    linear scorer (``weights`` None when unweighted). The mode of the last evaluation is
    recorded in ``state["mode"]`` when a dict is given."""
    def value_grad(w):
        s = np.asarray(X @ w).ravel()
        r = surrogate.evaluate(is_pos, s, weights)
        if state is not None:
            state["mode"] = r.mode
        return r.value, np.asarray(X.T @ r.grad).ravel()

    return value_grad


def ridge(value_grad, alpha: float, state=None):
    r"""``w -> (F + \tfrac{\alpha}{2}\|w\|^2, \nabla F + \alpha w)`` for
    ``value_grad(w) -> (F, \nabla F)``; the last ``F`` (without the penalty) is recorded in
    ``state["value"]`` when a dict is given."""
    def objective(w):
        value, grad = value_grad(w)
        if state is not None:
            state["value"] = value
        return value + 0.5 * alpha * float(w @ w), grad + alpha * w

    return objective


def solve_pairwise(estimator, value_grad, d: int, alpha: float, max_iter: int, tol: float, state=None,
                   scale=None):
    """L-BFGS from ``w = 0`` on :func:`ridge` of ``value_grad``; sets ``coef_``, ``n_iter_``,
    ``objective_`` (the surrogate without the penalty at the last evaluation) and ``mode_``
    (``state["mode"]`` if ``value_grad`` records it there, else ``"exact"``). ``scale``: the
    optimiser's coordinates (:func:`~rankwise.learners._base.coordinate_scale`)."""
    state = {} if state is None else state
    res = lbfgs(ridge(value_grad, alpha, state), np.zeros(d), max_iter, tol, "PairwiseRanker", scale)
    estimator.coef_ = res.x.copy()
    estimator.n_iter_ = int(res.nit)
    estimator.objective_ = float(state.get("value", np.nan))
    estimator.mode_ = str(state.get("mode", "exact"))
    return estimator
