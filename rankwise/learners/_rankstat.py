r"""A linear scorer aimed at one linear rank statistic ``W_phi``.

S. Clémençon and N. Vayatis ("Empirical performance maximization for linear rank
statistics", NIPS 2008) rank scorers by ``W_n(s) = sum over positives of
phi(Rank(s_i) / (n + 1))`` and note that no convex surrogate was known for a general
``phi``. :class:`RankStatisticRanker` uses the structure of ``W_n`` itself: the rank of a
positive is a count of pairs, so to first order a change of the scores moves ``W_n`` by
``phi'`` at the positive's current rank times the change in its count of observations
below. Fixing those slopes gives a *weighted* all-pairs problem, convex and solved exactly
by the machinery of :class:`PairwiseRanker`; the slopes are then re-read at the new ranks.
"""

from __future__ import annotations

import numpy as np

from .. import phi as _phi
from ..io import register_model
from .._validation import check_param
from ..metrics import rank_statistic
from .._kernels import phi_slope
from ._base import BinaryLinearRanker, coordinate_scale, lbfgs, store_params
from ._objectives import linear_pairwise, pairwise_surrogate, ridge

__all__ = ["RankStatisticRanker"]


def _mid_ranks(s: np.ndarray, sw: np.ndarray) -> np.ndarray:
    """Pooled mid-ranks in mass units, ``below + (c + 1) / 2`` with ``c`` the tied mass,
    one per observation (the ranks of ``rankwise.rank_statistic(..., ties="average")``)."""
    levels, inv = np.unique(s, return_inverse=True)
    mass = np.bincount(inv, weights=sw, minlength=levels.shape[0])
    below = np.cumsum(mass) - mass
    return (below + 0.5 * (mass + 1.0))[inv]


def rank_weights(phi, s: np.ndarray, is_pos: np.ndarray, sw: np.ndarray, bandwidth: float,
                 floor: float) -> np.ndarray:
    r"""The per-positive pair weights of one round: the secant slope of ``phi`` over a window
    of ``bandwidth`` (a fraction of the pooled ranks) at each positive's mid-rank,
    normalised to weighted mean 1 over the positives and mixed with the constant 1:
    ``v_i = (1 - floor) phi'_h(u_i) / mean + floor``. Negatives get weight 1."""
    n = float(sw.sum())
    r = _mid_ranks(s, sw)[is_pos]
    slope = np.maximum(phi_slope(phi, r, n, bandwidth), 0.0)
    wp = sw[is_pos]
    mean = float(slope @ wp) / float(wp.sum())
    v = np.ones(s.shape[0])
    v[is_pos] = (1.0 - floor) * (slope / mean if mean > 0 else 1.0) + floor
    return v


def _default_bandwidth(phi, n: float) -> float:
    """The window over which ``phi'`` is read: 5% of the ranks, or, for DCG with a cut
    ``k``, ``2k`` positions (its weight lives on the top ``k``), at least 2 positions."""
    if phi.positions is not None:  # DCG@k: phi varies on the top k positions only
        return float(min(0.5, max(2.0, 2.0 * float(phi.positions)) / (n + 1.0)))
    return float(min(0.5, max(0.05, 2.0 / (n + 1.0))))


@register_model
class RankStatisticRanker(BinaryLinearRanker):
    r"""Linear scorer aimed at a chosen criterion ``W_phi`` (local AUC, p-norm push, DCG, any phi).

    Parameters
    ----------
    phi : str, rankwise.phi object or callable, default "pnorm_push:p=4"
        The target ``phi`` (as in :func:`rankwise.rank_statistic`): ``"local_auc:u0=0.9"``
        (the top 10%), ``"pnorm_push:p=4"``, ``"dcg:k=100"``, ``rw.phi.from_callable(f)``...
        Pass a string to be able to save the fitted model (:func:`rankwise.save_model`
        stores parameters as JSON).
    loss : str, default "squared_hinge"
        The pairwise surrogate of each round: ``"hinge"``, ``"squared_hinge"``,
        ``"squared"``, ``"exponential"`` or ``"logistic"`` (:func:`rankwise.losses.pairwise`).
    alpha : float >= 0, default 1e-4
        Ridge penalty :math:`\tfrac{\alpha}{2}\|w\|^2`.
    margin : float > 0, default 1.0
        Margin of the hinge-type and squared surrogates.
    n_rounds : int >= 0, default 8
        Re-weighting rounds after the first (unweighted, AUC-type) solution. ``0`` gives
        :class:`PairwiseRanker`'s solution.
    bandwidth : float in (0, 1] or None
        Width, as a fraction of the pooled ranks, of the window over which ``phi'`` is read
        (a secant slope: it smooths the jumps of local AUC and DCG). ``None``: 5% of the
        ranks, or ``2k`` positions for ``dcg:k=...``.
    floor : float in [0, 1], default 0.1
        Share of every positive's pair weight that does not depend on its rank: without it a
        positive whose rank sits where ``phi`` is flat (below the cut of local AUC or DCG)
        would drop out of the objective and could never be pulled up.
    max_iter : int, default 300
        L-BFGS iterations per round.
    tol : float, default 1e-8
        L-BFGS tolerance on the projected gradient.

    Attributes
    ----------
    coef_, intercept_ : the selected scorer (``intercept_`` as for :class:`PairwiseRanker`).
    criterion_path_ : list of float
        Training ``W_phi`` (``scale="mean"``, mid-ranks) after each round; entry 0 is the
        unweighted start.
    best_round_ : int
        The round whose scorer is kept: the one with the largest training ``W_phi`` (the
        earliest of those within 1e-9 of it).
    n_rounds_ : int
        Rounds run (fewer than ``n_rounds`` when the weights stopped changing).
    n_iter_ : int
        L-BFGS iterations over all rounds.
    bandwidth_ : float
        The window used for ``phi'``.

    Notes
    -----
    With mid-ranks, the normalised rank of observation :math:`i` is
    :math:`u_i = \bigl(\tfrac12 + \sum_j w_j H(s_i - s_j)\bigr)/(n + 1)`, :math:`H` the
    Heaviside step with :math:`H(0) = 1/2`, so the criterion is

    .. math:: W_\phi(s) = \sum_{i: y_i = 1} w_i\, \phi(u_i).

    Swapping two positives leaves :math:`W_\phi` unchanged, so it depends on the
    positive-negative pairs only. At the current scores :math:`s^{(t)}`, a first-order
    expansion in the counts gives
    :math:`W_\phi(s) \approx \text{const} + \tfrac{1}{n+1}\sum_{i:y_i=1}\sum_{j:y_j=0}
    w_i w_j\, \phi'\bigl(u_i^{(t)}\bigr)\, H(s_i - s_j)`, and each round replaces
    :math:`1 - H(m)` by a convex surrogate :math:`\ell(m)` (which bounds it above):

    .. math:: w^{(t+1)} = \arg\min_w\ \frac{1}{V}\sum_{i: y_i = 1}\sum_{j: y_j = 0}
              w_i w_j\, v_i^{(t)}\, \ell\bigl(w^\top x_i - w^\top x_j\bigr)
              + \frac{\alpha}{2}\|w\|^2,
              \qquad v_i^{(t)} = (1 - \beta)\,\frac{\phi'_h(u_i^{(t)})}{\bar{\phi'_h}} + \beta,

    :math:`V` the total pair weight, :math:`\phi'_h` the secant slope of :math:`\phi` over
    a window :math:`h` (``bandwidth``), :math:`\beta` the ``floor``. The pair weights
    factorise (a weight per positive), so every round costs what one
    :class:`PairwiseRanker` fit costs: O(n log n) per evaluation, never a loop over pairs.
    Round 0 has :math:`v \equiv 1` (the AUC's :math:`\phi' = 1`). Re-weighting is a
    fixed-point scheme, not a descent method, so the scorer kept is the round with the
    largest training :math:`W_\phi` (round 0 included): the training criterion is never
    below the AUC-trained start's. For :math:`\phi(u) = u` every round equals round 0.

    Examples
    --------
    >>> import numpy as np, rankwise as rw
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(200, 3)); y = (X[:, 0] + rng.normal(size=200) > 1).astype(int)
    >>> m = rw.RankStatisticRanker(phi="local_auc:u0=0.8").fit(X, y)
    >>> m.criterion_path_[m.best_round_] >= m.criterion_path_[0]
    True
    """

    def __init__(self, phi="pnorm_push:p=4", loss: str = "squared_hinge", alpha: float = 1e-4,
                 margin: float = 1.0, n_rounds: int = 8, bandwidth: float | None = None,
                 floor: float = 0.1, max_iter: int = 300, tol: float = 1e-8):
        store_params(self, locals())

    def fit(self, X, y, sample_weight=None):
        """Fit on ``X`` (n, d), binary ``y``, optional ``sample_weight``."""
        name = type(self).__name__
        phi = _phi.resolve(self.phi, name)
        surrogate = pairwise_surrogate(self, name, takes=("margin",))
        alpha = check_param(self.alpha, "alpha", name, low=0.0)
        n_rounds = check_param(self.n_rounds, "n_rounds", name, low=0, integer=True)
        floor = check_param(self.floor, "floor", name, low=0.0, high=1.0)
        max_iter = check_param(self.max_iter, "max_iter", name, low=1, integer=True)
        tol = check_param(self.tol, "tol", name, low=0.0, low_inclusive=False)
        bandwidth = self.bandwidth
        if bandwidth is not None:
            bandwidth = check_param(bandwidth, "bandwidth", name, low=0.0, high=1.0, low_inclusive=False)
        X, is_pos, sw = self._validate_fit(X, y, sample_weight)
        if bandwidth is None:
            bandwidth = _default_bandwidth(phi, float(sw.sum()))

        scale = coordinate_scale(X)

        def solve(v, w0):
            res = lbfgs(ridge(linear_pairwise(X, is_pos, surrogate, sw * v), alpha), w0, max_iter, tol, name, scale)
            iterations.append(int(res.nit))
            return res.x

        def criterion(w):
            s = np.asarray(X @ w).ravel()
            return float(rank_statistic(is_pos, s, phi, scale="mean", sample_weight=sw)), s

        iterations: list[int] = []
        w = solve(np.ones(X.shape[0]), np.zeros(X.shape[1]))
        value, s = criterion(w)
        path, best, best_w = [value], 0, w
        v_prev = None
        rounds = 0
        for t in range(1, n_rounds + 1):
            v = rank_weights(phi, s, is_pos, sw, bandwidth, floor)
            if v_prev is not None and np.max(np.abs(v - v_prev)) <= 1e-6 * max(1.0, np.max(np.abs(v))):
                break
            w = solve(v, w)
            value, s = criterion(w)
            path.append(value)
            rounds = t
            v_prev = v
            # A later round must improve by more than rounding: near-ties keep the earlier round.
            if value > path[best] + 1e-9 * max(1.0, abs(path[best])):
                best, best_w = t, w
        self.coef_ = np.asarray(best_w, dtype=np.float64).copy()
        self.criterion_path_ = [float(p) for p in path]
        self.best_round_ = int(best)
        self.n_rounds_ = int(rounds)
        self.bandwidth_ = float(bandwidth)
        self.n_iter_ = int(max(1, sum(iterations)))
        self._set_threshold(X, is_pos, sw)
        return self

    _extra_state_names = ("criterion_path_", "best_round_", "n_rounds_", "bandwidth_", "n_iter_")
    _extra_state_kinds = {"criterion_path_": "numbers", "best_round_": "count", "n_rounds_": "count",
                          "bandwidth_": "number", "n_iter_": "count"}

    def _extra_state(self):
        return {"criterion_path_": list(self.criterion_path_), "best_round_": int(self.best_round_),
                "n_rounds_": int(self.n_rounds_), "bandwidth_": float(self.bandwidth_), "n_iter_": int(self.n_iter_)}
