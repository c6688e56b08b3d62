r"""A linear scorer trained on a pointwise proper composite loss.

S. Agarwal ("Surrogate regret bounds for bipartite ranking via strongly proper losses",
JMLR 15, 2014, Theorem 13): for a :math:`\lambda`-strongly proper composite loss,
:math:`\mathrm{regret}_{rank}[f] \le \frac{\sqrt2}{p(1-p)\sqrt\lambda}\sqrt{\mathrm{regret}_\ell[f]}`,
so minimising the loss pointwise is a ranking method with a guarantee, and the inverse
link turns the scores into probability estimates, which pairwise rankers cannot give.
"""

from __future__ import annotations

import numpy as np

from ..io import register_model
from .._validation import check_choice
from ..losses import LOSSES, get
from ._base import BinaryLinearRanker, coordinate_scale, state_param, store_params, warn_if_degenerate
from ._objectives import check_proper, pointwise_loss, proper_penalised, proper_terms, solve_proper

__all__ = ["ProperLossRanker"]


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
        :math:`(3/\sqrt2)\sqrt{\mathrm{regret}_{exp}}` (exponential) (W. Kotlowski,
        K. Dembczynski, E. Huellermeier, "Bipartite ranking through minimization of
        univariate loss", ICML 2011).
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
    proper losses", JMLR 15, 2014.

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
        store_params(self, locals())

    def fit(self, X, y, sample_weight=None):
        """Fit on ``X`` (n, d), binary ``y``, optional ``sample_weight``."""
        loss, alpha, max_iter, tol = check_proper(self)
        X, is_pos, sw = self._validate_fit(X, y, sample_weight)
        w = sw.copy()
        if self.balanced:
            p = w[is_pos].sum() / w.sum()
            w[is_pos] /= 2.0 * p
            w[~is_pos] /= 2.0 * (1.0 - p)
        w /= w.sum()
        t = np.where(is_pos, 1.0, -1.0)
        value, deriv = pointwise_loss(loss.name)

        def objective(theta):
            return proper_penalised(theta, alpha, *proper_terms(X, t, w, theta, value, deriv))

        solve_proper(self, loss, objective, X.shape[1], float(w[is_pos].sum()), max_iter, tol,
                     scale=coordinate_scale(X, extra=1))
        warn_if_degenerate(self, X, np.asarray(X @ self.coef_).ravel(), is_pos, sw)
        return self

    @property
    def _half(self) -> float:
        return float(get(self.loss).link(0.5))

    def decision_function(self, X) -> np.ndarray:
        """``f(x) - psi(1/2)``: the loss's prediction, centred so that 0 is probability 1/2."""
        return super().decision_function(X) - self._half

    def predict_proba(self, X) -> np.ndarray:
        """Estimated ``[P(y = classes_[0] | x), P(y = classes_[1] | x)]`` through the inverse link."""
        f = super().decision_function(X)
        p = np.asarray(get(self.loss).inverse_link(f), dtype=np.float64)
        return np.column_stack([1.0 - p, p])

    _extra_state_names = ("n_iter_",)
    _extra_state_kinds = {"n_iter_": "count"}

    def _check_scoring_params(self) -> None:
        # decision_function and predict_proba read the loss's link
        state_param("ProperLossRanker", "loss", check_choice, self.loss, "loss", "ProperLossRanker", tuple(LOSSES))

    def _extra_state(self):
        return {"n_iter_": int(self.n_iter_)}
