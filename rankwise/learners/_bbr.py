r"""BBR and LCBR: bipartite ranking by pairwise least squares.

S. Gultekin and J. Paisley ("Risk Bounds for Low Cost Bipartite Ranking", UAI 2020)
minimise the pairwise squared loss of a linear scorer over the positive-negative pairs,

.. math:: R(w) = \frac{1}{W}\sum_{i \in +}\sum_{j \in -} w_i w_j\,
          \tfrac12 \bigl(1 - w^\top (x_i - x_j)\bigr)^2
          = \tfrac12 w^\top \Sigma w - \mu^\top w + \tfrac12,

with :math:`\Sigma` and :math:`\mu` the (weighted) means over pairs of
:math:`d d^\top` and :math:`d = x_i - x_j`, under the constraint :math:`\|w\| \le W^*`.
BBR uses every pair; LCBR a uniform sample of ``S`` pairs with replacement.

All pairs cost O(n d^2), not O(n+ n- d^2): with class means :math:`m_\pm` and second
moments :math:`M_\pm`, :math:`\mu = m_+ - m_-` and
:math:`\Sigma = M_+ + M_- - m_+ m_-^\top - m_- m_+^\top` (the second moment of the
difference of two independent draws, one from each class).
"""

from __future__ import annotations

import numpy as np
from scipy import linalg, optimize, sparse

from .._validation import check_param
from ..io import register_model
from ._base import BinaryLinearRanker, store_params
from ._objectives import check_ball, check_bbr, pair_moments_from_classes

__all__ = ["BBRRanker", "LCBRRanker", "solve_trust_region", "solve_bbr", "pair_moments", "pair_moments_literal"]


def _gram(X, w) -> np.ndarray:
    """``X^T diag(w) X`` (dense), with no copy of ``X`` when unweighted."""
    if sparse.issparse(X):
        G = X.T @ (X if w is None else X.multiply(w[:, None]).tocsr())
        return np.asarray(G.todense()) if sparse.issparse(G) else np.asarray(G)
    if w is None:
        return X.T @ X
    return (X.T * w) @ X


def pair_moments(X, is_pos: np.ndarray, sw: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(Sigma, mu)`` over all weighted positive-negative pairs, from class moments.

    ``Sigma = Cov_+ + Cov_- + (m_+ - m_-)(m_+ - m_-)^T`` (the same matrix as
    ``M_+ + M_- - m_+ m_-^T - m_- m_+^T``). Cost: one ``X^T X`` over the whole sample plus
    one over the smaller class (whose rows are the only ones copied); the larger class's
    moment is the difference. Unweighted, ``X`` itself is never copied.
    """
    unweighted = bool(np.all(sw == 1.0))
    pos_small = np.count_nonzero(is_pos) <= is_pos.shape[0] // 2
    small = is_pos if pos_small else ~is_pos
    G_all = _gram(X, None if unweighted else sw)
    idx = np.flatnonzero(small)
    Xs, ws = X[idx], sw[idx]
    G_small = _gram(Xs, None if unweighted else ws)
    s_all = np.asarray(X.sum(axis=0) if unweighted else X.T @ sw).ravel()
    s_small = np.asarray(Xs.T @ ws).ravel()
    W_small = float(ws.sum())
    W_large = float(sw.sum()) - W_small
    m_small, m_large = s_small / W_small, (s_all - s_small) / W_large
    C_small = G_small / W_small - np.outer(m_small, m_small)
    C_large = (G_all - G_small) / W_large - np.outer(m_large, m_large)
    if pos_small:
        Sigma, mu, _ = pair_moments_from_classes(m_small, C_small, m_large, C_large)
    else:
        Sigma, mu, _ = pair_moments_from_classes(m_large, C_large, m_small, C_small)
    return Sigma, mu


def pair_moments_literal(X, is_pos: np.ndarray, sw: np.ndarray, block: int = 2_000_000):
    """The same ``(Sigma, mu)`` by the paper's literal accumulation over every pair,
    O(n+ n- d^2), in blocks of positives (at most ``block`` pair rows in memory). Kept
    to show what the class-moment identity saves (``method="pairs"``)."""
    X = X.toarray() if sparse.issparse(X) else X
    Xp, wp = X[is_pos], sw[is_pos]
    Xn, wn = X[~is_pos], sw[~is_pos]
    d = X.shape[1]
    S = np.zeros((d, d))
    mu = np.zeros(d)
    step = max(1, block // max(1, Xn.shape[0]))
    for a in range(0, Xp.shape[0], step):
        D = (Xp[a: a + step, None, :] - Xn[None, :, :]).reshape(-1, d)
        pw = (wp[a: a + step, None] * wn[None, :]).ravel()
        S += (D.T * pw) @ D
        mu += pw @ D
    W = wp.sum() * wn.sum()
    return S / W, mu / W


def solve_trust_region(Sigma: np.ndarray, mu: np.ndarray, radius: float | None, alpha: float = 0.0):
    r"""Minimise :math:`\tfrac12 w^\top \Sigma w - \mu^\top w + \tfrac{\alpha}{2}\|w\|^2`
    over :math:`\|w\| \le` ``radius`` (no constraint when ``radius`` is None), for a
    symmetric positive semi-definite :math:`\Sigma`.

    Exact, through the eigendecomposition :math:`\Sigma = Q \Lambda Q^\top`: with
    :math:`c = Q^\top \mu`, :math:`w(\nu) = Q\, c / (\lambda + \alpha + \nu)`. The
    unconstrained minimiser (:math:`\nu = 0`; the minimum-norm one when
    :math:`\Sigma + \alpha I` is singular and :math:`\mu` lies in its range) is kept if it
    is inside the ball; otherwise :math:`\nu > 0` solves :math:`\|w(\nu)\| = W^*`, a
    monotone equation in one variable (Brent's method on a bracket). Returns
    ``(w, nu)``: ``nu`` is the Lagrange multiplier of the ball (0 inside).
    """
    lam, Q = linalg.eigh(Sigma)
    lam = np.maximum(lam, 0.0) + alpha  # Sigma is PSD; clip round-off
    c = Q.T @ mu
    scale = max(float(lam.max()), 1e-300)
    null = lam <= 1e-12 * scale
    if null.any() and np.any(np.abs(c[null]) > 1e-12 * max(float(np.abs(c).max()), 1e-300)):
        unbounded = True  # mu has a component where the quadratic is flat: no minimiser at nu = 0
    else:
        unbounded = False
    if not unbounded:
        coef = np.where(null, 0.0, c / np.where(null, 1.0, lam))
        w0 = Q @ coef
        if radius is None or np.linalg.norm(w0) <= radius:
            return w0, 0.0
    if radius is None:
        raise ValueError(
            "The pairwise squared loss has no minimiser: the pair covariance is singular along the mean "
            "pair difference. Set 'radius' (the paper's ball) or 'alpha' > 0."
        )

    def excess(nu):
        return float(np.sqrt(np.sum((c / (lam + nu)) ** 2)) - radius)

    # ||w(nu)|| <= ||c|| / nu, so the excess is <= 0 at nu = ||c|| / radius; halve down from
    # there until it is > 0 (it is > 0, or +inf, as nu -> 0+).
    hi = max(float(np.linalg.norm(c)) / radius, 1e-300)
    lo = hi
    while excess(lo) <= 0:
        lo /= 2.0
        if lo < 1e-300:  # pragma: no cover - would need ||w0|| within rounding of the radius
            return Q @ np.where(null, 0.0, c / np.where(null, 1.0, lam)), 0.0
    nu = optimize.brentq(excess, lo, hi, xtol=1e-300, rtol=4 * np.finfo(float).eps, maxiter=500)
    w = Q @ (c / (lam + nu))
    w *= radius / np.linalg.norm(w)  # land on the sphere to the last bit
    return w, float(nu)


def solve_bbr(estimator, Sigma: np.ndarray, mu: np.ndarray):
    """Solve BBR's problem for the pair moments ``(Sigma, mu)`` with the estimator's
    ``radius`` and ``alpha`` (:func:`solve_trust_region`); sets ``coef_``,
    ``multiplier_``, ``pair_covariance_`` and ``pair_mean_`` (the single-machine and the
    Dask fits of :class:`BBRRanker`)."""
    w, nu = solve_trust_region(Sigma, mu, estimator.radius, estimator.alpha)
    estimator.coef_ = w
    estimator.multiplier_ = nu
    estimator.pair_covariance_ = Sigma
    estimator.pair_mean_ = mu
    return estimator


@register_model
class BBRRanker(BinaryLinearRanker):
    r"""Bipartite ranking by pairwise least squares over all pairs (Gultekin & Paisley's BBR).

    Minimises the pairwise squared loss of a linear scorer over every positive-negative
    pair, exactly, in O(n d^2) through class moments.

    Parameters
    ----------
    radius : float > 0 or None, default None
        The paper's constraint :math:`\|w\| \le W^*`; solved exactly as a trust-region
        subproblem. None: no ball.
    alpha : float >= 0, default 1e-6
        Ridge penalty :math:`\tfrac{\alpha}{2}\|w\|^2` (the penalty form, for users who
        prefer it to the ball; both may be combined). The small default keeps the
        problem well posed when features are collinear; the ranking depends on the
        direction of ``w`` only.
    method : {"moments", "pairs"}, default "moments"
        ``"moments"``: the class-moment identity, O(n d^2). ``"pairs"``: the paper's
        literal accumulation over all n+ n- pairs, O(n+ n- d^2), for timing comparisons;
        the same solution.

    Attributes
    ----------
    coef_ : ndarray (d,)
    intercept_ : float
        A pairwise loss does not see an intercept; it is set so that ``decision_function > 0``
        (``predict``) marks the top share of the training ranking equal to the share of
        positives.
    pair_covariance_, pair_mean_ : ndarray
        :math:`\Sigma_N` and :math:`\mu_N`.
    multiplier_ : float
        The ball's Lagrange multiplier (0 when the solution is inside).

    Notes
    -----
    .. math:: w_N = \arg\min_{\|w\| \le W^*} \tfrac12 w^\top \Sigma_N w - \mu_N^\top w,\quad
              \mu_N = m_+ - m_-,\quad \Sigma_N = M_+ + M_- - m_+ m_-^\top - m_- m_+^\top

    S. Gultekin and J. Paisley, "Risk Bounds for Low Cost Bipartite Ranking", UAI 2020,
    Algorithm 1. With sample weights a pair weighs :math:`w_i w_j`.

    Examples
    --------
    >>> import numpy as np, rankwise as rw
    >>> X = np.array([[0.0, 1.0], [1.0, 0.0], [2.0, 1.0], [3.0, 3.0]])
    >>> y = np.array([0, 0, 1, 1])
    >>> m = rw.BBRRanker(alpha=0.0).fit(X, y)
    >>> m.score(X, y)
    1.0
    """

    def __init__(self, radius: float | None = None, alpha: float = 1e-6, method: str = "moments"):
        store_params(self, locals())

    def fit(self, X, y, sample_weight=None):
        """Fit on ``X`` (n, d), binary ``y``, optional ``sample_weight``."""
        check_bbr(self)
        X, is_pos, sw = self._validate_fit(X, y, sample_weight)
        if self.method == "moments":
            Sigma, mu = pair_moments(X, is_pos, sw)
        else:
            Sigma, mu = pair_moments_literal(X, is_pos, sw)
        solve_bbr(self, Sigma, mu)
        self._set_threshold(X, is_pos, sw)
        return self

    _extra_state_names = ("multiplier_",)
    _extra_state_kinds = {"multiplier_": "number"}

    def _extra_state(self):
        return {"multiplier_": float(self.multiplier_)}


@register_model
class LCBRRanker(BBRRanker):
    r"""Gultekin & Paisley's LCBR: BBR on ``n_pairs`` pairs drawn uniformly with replacement.

    Parameters
    ----------
    n_pairs : int >= 1, default 5000
        ``S``, the number of sampled positive-negative pairs. With sample weights a pair
        is drawn with probability proportional to :math:`w_i w_j` (each end drawn
        independently, proportionally to its weight).
    radius, alpha
        As in :class:`BBRRanker`.
    random_state : int, numpy Generator or None

    Notes
    -----
    .. math:: \Sigma_S = \frac1S \sum_{s=1}^S d_s d_s^\top,\quad \mu_S = \frac1S \sum_s d_s,
              \quad w_S = \arg\min_{\|w\| \le W^*} \tfrac12 w^\top \Sigma_S w - \mu_S^\top w

    S. Gultekin and J. Paisley, "Risk Bounds for Low Cost Bipartite Ranking", UAI 2020,
    Algorithm 2: no step size, no learning rate; the sample size needed for a given
    accuracy is their Theorem 3. O(S d^2).
    """

    def __init__(self, n_pairs: int = 5000, radius: float | None = None, alpha: float = 1e-6,
                 random_state=None):
        store_params(self, locals())

    def fit(self, X, y, sample_weight=None):
        """Fit on ``n_pairs`` sampled pairs of ``(X, y)``."""
        check_ball(self, "LCBRRanker")
        S = check_param(self.n_pairs, "n_pairs", "LCBRRanker", low=1, integer=True)
        X, is_pos, sw = self._validate_fit(X, y, sample_weight)
        rng = np.random.default_rng(self.random_state) if not isinstance(self.random_state, np.random.RandomState) \
            else np.random.default_rng(self.random_state.randint(2**31))
        pos = np.flatnonzero(is_pos)
        neg = np.flatnonzero(~is_pos)
        pi = rng.choice(pos, size=S, replace=True, p=sw[pos] / sw[pos].sum())
        ni = rng.choice(neg, size=S, replace=True, p=sw[neg] / sw[neg].sum())
        D = X[pi] - X[ni]
        if sparse.issparse(D):
            D = D.toarray()
        Sigma = D.T @ D / S
        Sigma = 0.5 * (Sigma + Sigma.T)
        mu = D.mean(axis=0)
        solve_bbr(self, Sigma, mu)
        self._set_threshold(X, is_pos, sw)
        return self
