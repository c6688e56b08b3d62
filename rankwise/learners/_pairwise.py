r"""A linear scorer trained on an exact all-pairs pairwise surrogate: convex ranking-risk
minimisation in the sense of S. Clémençon, G. Lugosi and N. Vayatis ("Ranking and
empirical minimization of U-statistics", Annals of Statistics 36(2), 2008)."""

from __future__ import annotations

import numpy as np

from ..io import register_model
from ._base import BinaryLinearRanker, coordinate_scale, store_params
from ._objectives import check_pairwise, linear_pairwise, solve_pairwise

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
    :math:`X^\top \partial F / \partial s`. Clémençon, Lugosi & Vayatis ("Ranking and
    empirical minimization of U-statistics", 2008) frame this as convex ranking-risk
    minimisation; ``squared`` is the loss of Gultekin & Paisley ("Risk Bounds for Low
    Cost Bipartite Ranking", 2020) without its factor 1/2, so its minimiser with
    ``alpha = 0`` is :class:`BBRRanker`'s.
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
        store_params(self, locals())

    def fit(self, X, y, sample_weight=None):
        """Fit on ``X`` (n, d), binary ``y``, optional ``sample_weight``."""
        surrogate, alpha, max_iter, tol = check_pairwise(self)
        X, is_pos, sw = self._validate_fit(X, y, sample_weight)
        state = {}
        value_grad = linear_pairwise(X, is_pos, surrogate, None if np.all(sw == 1.0) else sw, state)
        solve_pairwise(self, value_grad, X.shape[1], alpha, max_iter, tol, state, scale=coordinate_scale(X))
        self._set_threshold(X, is_pos, sw)
        return self

    _extra_state_names = ("n_iter_", "objective_", "mode_")
    _extra_state_kinds = {"n_iter_": "count", "objective_": "number", "mode_": "text"}

    def _extra_state(self):
        return {"n_iter_": int(self.n_iter_), "objective_": float(self.objective_), "mode_": self.mode_}
