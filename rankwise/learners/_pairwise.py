r"""A linear scorer trained on an exact all-pairs pairwise surrogate (papers 001 and 003)."""

from __future__ import annotations

import numpy as np

from ..io import register_model
from .._validation import check_choice, check_param
from ..losses import _pairwise as _pw
from ._base import BinaryLinearRanker, lbfgs

__all__ = ["PairwiseRanker"]


@register_model
class PairwiseRanker(BinaryLinearRanker):
    r"""Regularised linear scorer minimising a pairwise surrogate over *all* pairs.

    Parameters
    ----------
    loss : str, default "squared_hinge"
        ``"hinge"``, ``"squared_hinge"``, ``"squared"``, ``"exponential"`` (RankBoost's) or
        ``"logistic"`` (see :func:`rankwise.losses.pairwise`).
    alpha : float >= 0, default 1e-4
        Ridge penalty :math:`\tfrac{\alpha}{2}\|w\|^2`.
    margin : float > 0, default 1.0
        The margin of the hinge-type and squared surrogates (ignored by the others).
    mode : {"auto", "exact", "approx"}, default "auto"
        Logistic only: exact blocked O(n+ n-) evaluation, or the fast approximation with
        its stated error bound; ``"auto"`` is exact up to a million pairs.
    max_iter : int, default 1000
    tol : float, default 1e-8
        L-BFGS tolerance on the projected gradient (the objective is a mean over pairs, so
        this does not grow with n).

    Attributes
    ----------
    coef_ : ndarray (d,)
    intercept_ : float
        Not seen by a pairwise loss; set so that ``decision_function > 0`` marks the top
        share of the training ranking equal to the share of positives.
    n_iter_ : int
    objective_ : float
        The surrogate's value at the solution (without the penalty).
    mode_ : str
        The evaluation that ran (``"exact"`` or ``"approx"``).

    Notes
    -----
    .. math:: \min_w\ \frac{1}{W}\sum_{i: y_i = 1}\sum_{j: y_j = 0} w_i w_j\,
              \phi\bigl(w^\top x_i - w^\top x_j\bigr) + \frac{\alpha}{2}\|w\|^2

    over all :math:`n_+ n_-` pairs, by L-BFGS on the exact objective: each evaluation
    costs one sort of the scores and prefix sums (O(n log n)), or class moments (squared),
    or a factorisation (exponential), never a loop over pairs; the gradient in ``w`` is
    :math:`X^\top \partial F / \partial s`. Paper 001 (Clémençon, Lugosi & Vayatis 2008)
    frames this as convex ranking-risk minimisation; ``squared`` is paper 003's loss
    (without the factor 1/2, so its minimiser with ``alpha = 0`` is BBR's).
    ``hinge`` is not differentiable at the margin: L-BFGS then works with a subgradient
    and may stop early; ``squared_hinge`` is the smooth choice.

    Examples
    --------
    >>> import numpy as np, rankwise as rw
    >>> X = np.array([[0.0, 1.0], [1.0, 0.0], [2.0, 1.0], [3.0, 3.0]])
    >>> rw.PairwiseRanker().fit(X, [0, 0, 1, 1]).score(X, [0, 0, 1, 1])
    1.0
    """

    def __init__(self, loss: str = "squared_hinge", alpha: float = 1e-4, margin: float = 1.0,
                 mode: str = "auto", max_iter: int = 1000, tol: float = 1e-8):
        self.loss = loss
        self.alpha = alpha
        self.margin = margin
        self.mode = mode
        self.max_iter = max_iter
        self.tol = tol

    def _surrogate(self):
        check_choice(self.loss, "loss", "PairwiseRanker", tuple(_pw.PAIRWISE))
        spec = _pw.PAIRWISE[self.loss]
        params = {}
        if "margin" in spec.defaults:
            params["margin"] = check_param(self.margin, "margin", "PairwiseRanker", low=0.0, low_inclusive=False)
        if "mode" in spec.defaults:
            params["mode"] = check_choice(self.mode, "mode", "PairwiseRanker", ("auto", "exact", "approx"))
        return _pw.pairwise(self.loss, **params)

    def fit(self, X, y, sample_weight=None):
        """Fit on ``X`` (n, d), binary ``y``, optional ``sample_weight``."""
        surrogate = self._surrogate()
        alpha = check_param(self.alpha, "alpha", "PairwiseRanker", low=0.0)
        max_iter = check_param(self.max_iter, "max_iter", "PairwiseRanker", low=1, integer=True)
        tol = check_param(self.tol, "tol", "PairwiseRanker", low=0.0, low_inclusive=False)
        X, is_pos, sw = self._validate_fit(X, y, sample_weight)
        weights = None if np.all(sw == 1.0) else sw
        state = {}

        def objective(w):
            s = np.asarray(X @ w).ravel()
            r = surrogate.evaluate(is_pos, s, weights)
            state["value"], state["mode"] = r.value, r.mode
            grad = np.asarray(X.T @ r.grad).ravel() + alpha * w
            return r.value + 0.5 * alpha * float(w @ w), grad

        res = lbfgs(objective, np.zeros(X.shape[1]), max_iter, tol, "PairwiseRanker")
        self.coef_ = res.x.copy()
        self.n_iter_ = int(res.nit)
        self.objective_ = float(state.get("value", np.nan))
        self.mode_ = str(state.get("mode", "exact"))
        self._set_threshold(X, is_pos, sw)
        return self

    _extra_state_names = ("n_iter_", "objective_", "mode_")

    def _extra_state(self):
        return {"n_iter_": int(self.n_iter_), "objective_": float(self.objective_), "mode_": self.mode_}
