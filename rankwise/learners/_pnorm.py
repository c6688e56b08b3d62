r"""The P-Norm Push over decision stumps (C. Rudin, "The P-Norm Push: A Simple Convex Ranking
Algorithm that Concentrates at the Top of the List", JMLR 10, 2009).

The scoring function is a weighted sum of the same decision stumps as
:class:`~rankwise.learners._boost.RankBoost`, grown by coordinate descent on

.. math:: R_p(s) = \sum_{k: y_k=0} v_k \Big(\sum_{i: y_i=1} v_i e^{-(s_i - s_k)}\Big)^p,

which pushes the negatives ranked highest down harder as ``p`` grows.
"""

from __future__ import annotations

import numpy as np
from scipy.special import logsumexp

from ..io import register_model
from .._validation import check_param
from ._base import store_params
from ._boost import _R_CLIP, _R_TOL, StumpRanker, _StumpCandidates

__all__ = ["PNormPush"]


def _log_masses(s, is_pos, v, p, lv=None):
    """``(log w_i e^{-s_i} over positives, log w_k e^{p s_k} over negatives)`` as arrays of
    length n (``-inf`` off the class and where the weight is 0). ``lv``: ``log v`` when the
    caller keeps it across rounds."""
    if lv is None:
        with np.errstate(divide="ignore"):
            lv = np.log(v)
    return np.where(is_pos, lv - s, -np.inf), np.where(is_pos, -np.inf, lv + p * s)


def _objective(s, is_pos, v, p) -> float:
    r"""``R_p(s)`` with class-normalised weights ``v``: since
    :math:`q_k = e^{s_k} \sum_i v_i e^{-s_i}`, :math:`R_p = (\sum_i v_i e^{-s_i})^p \sum_k v_k e^{p s_k}`."""
    lp, ln = _log_masses(s, is_pos, v, p)
    return float(np.exp(p * logsumexp(lp) + logsumexp(ln)))


@register_model
class PNormPush(StumpRanker):
    r"""The P-Norm Push: coordinate descent over decision stumps on Rudin's :math:`R_p`.

    Parameters
    ----------
    p : float >= 1, default 4.0
        The norm; ``p = 1`` is RankBoost's pairwise exponential loss, larger ``p``
        concentrates on the negatives ranked highest.
    n_estimators : int >= 1, default 100
        The most rounds (fewer when no stump decreases the objective any more).
    max_thresholds : int >= 1, default 256
        The most candidate thresholds per feature (as in :class:`RankBoost`).
    random_state : int, RandomState or None
        Unused (the fit is deterministic); kept for a uniform interface.

    Attributes
    ----------
    features_, thresholds_, directions_, alphas_ : ndarray (n_estimators_,)
        The stumps, as in :class:`RankBoost`: ``h_t(x) = 1{x[features_[t]] > thresholds_[t]}``
        where ``directions_[t] == 1``, ``1{x[features_[t]] <= thresholds_[t]}`` where -1.
    estimators_ : dict of these four arrays
    n_estimators_ : int
    objective_ : ndarray (n_estimators_,)
        :math:`R_p` on the training data after each round (the initial value, at
        ``s = 0``, is 1).
    feature_importances_ : ndarray (d,)
        Sum of ``|alpha_t|`` per feature, normalised to sum 1.
    intercept_ : float
        Set so that ``predict`` marks the top share of the training ranking equal to the
        share of positives; the ranking does not depend on it.
    classes_, n_features_in_, feature_names_in_

    Notes
    -----
    **Weights.** :math:`v_i = w_i / \sum_{y=1} w`, :math:`v_k = w_k / \sum_{y=0} w`: each class
    sums to 1, so the objective does not depend on the scale of ``sample_weight`` (nor on
    the class sizes); at ``s = 0`` it is 1. Integer weights act as repetitions up to this
    normalisation (``R_p`` of repeated data divided by :math:`n_-\, n_+^p`).

    **Factorisation.** :math:`q_k = \sum_i v_i e^{-(s_i - s_k)} = e^{s_k} P` with
    :math:`P = \sum_i v_i e^{-s_i}`, so :math:`R_p = P^p N`, :math:`N = \sum_k v_k e^{p s_k}`.

    **Stump choice.** For :math:`h \in \{0, 1\}`, with :math:`P_1 = \sum_{i: h=1} v_i e^{-s_i}`
    and :math:`N_1 = \sum_{k: h=1} v_k e^{p s_k}`,
    :math:`\partial_\alpha R_p(s + \alpha h)|_0 = p\,\sum_k v_k q_k^{p-1}\,\partial_\alpha q_k
    = -p\,P^p N\,(P_1/P - N_1/N)`. The round takes the stump maximising
    :math:`r = P_1/P - N_1/N` (the most negative derivative; over both directions, which
    flip the sign of ``r``): RankBoost's rule with the negatives weighted by
    :math:`v_k e^{p s_k}` instead of :math:`v_k e^{s_k}`. One sort per feature per fit,
    O(n d) per round. It stops when ``r`` is 0 for every stump.

    **Line search (exact, closed form).** With :math:`P_0 = P - P_1`, :math:`N_0 = N - N_1`,
    :math:`R_p(s + \alpha h) = (N_0 + N_1 e^{p\alpha})(P_0 + P_1 e^{-\alpha})^p`, convex in
    ``alpha`` (its log is a sum of log-sum-exps of affine functions). Setting the
    derivative of its log to 0 gives :math:`N_1 P_0 e^{(p+1)\alpha} = P_1 N_0`, i.e.
    :math:`\alpha = \frac{1}{p+1}\ln\frac{P_1 N_0}{P_0 N_1}`. A separating stump
    (:math:`P_0 = 0` or :math:`N_1 = 0`) has an infinite minimiser; the fractions
    :math:`P_1/P` and :math:`N_1/N` are clipped to :math:`[10^{-10}, 1 - 10^{-10}]`, which keeps
    ``alpha`` finite and the step still decreasing. For ``p = 1`` this is the exact minimiser
    :math:`\tfrac12\ln\frac{P_1 N_0}{P_0 N_1}` of RankBoost's loss along the stump, which is
    at least as good as RankBoost.B's :math:`\tfrac12\ln\frac{1+r}{1-r}` (the minimiser of
    its upper bound), so the two pick the same stumps but not the same steps.
    All sums are taken in the log domain. Sparse input is densified.

    Examples
    --------
    >>> import numpy as np
    >>> from rankwise.learners._pnorm import PNormPush
    >>> X = np.array([[0.0], [1.0], [2.0], [3.0]])
    >>> PNormPush(n_estimators=5).fit(X, [0, 0, 1, 1]).score(X, [0, 0, 1, 1])
    1.0
    """

    def __init__(self, p: float = 4.0, n_estimators: int = 100, max_thresholds: int = 256, random_state=None):
        store_params(self, locals())

    # The scoring side and the saved state are RankBoost's (StumpRanker): the same stumps,
    # weights and intercept; the per-round curve is R_p.
    _KINDS = {"features_": "i", "thresholds_": "f", "directions_": "i", "alphas_": "f", "objective_": "f"}

    def fit(self, X, y, sample_weight=None):
        """Fit on ``X`` (n, d), binary ``y``, optional ``sample_weight``."""
        name = "PNormPush"
        p = float(check_param(self.p, "p", name, low=1.0))
        T, max_thr = self._check_stump_params(name)
        X, is_pos, sw = self._validate_fit(X, y, sample_weight)
        v = np.where(is_pos, sw / sw[is_pos].sum(), sw / sw[~is_pos].sum())

        cand = _StumpCandidates(X, sw, max_thr)
        s = np.zeros(X.shape[0])
        feats, thetas, dirs, alphas, objective = [], [], [], [], []
        for _ in range(T):
            lp, ln = _log_masses(s, is_pos, v, p)
            lP, lN = logsumexp(lp), logsumexp(ln)
            # Class-normalised masses: positives a_i / P, negatives v_k e^{p s_k} / N.
            signed = np.exp(lp - lP) - np.exp(ln - lN)
            found = cand.best(signed)
            if found is None:
                break
            f, theta, c = found
            # c = r of 1{x <= theta}; 1{x > theta} has r = -c.
            direction = -1 if c > 0 else 1
            if abs(c) <= _R_TOL:
                break
            h = (X[:, f] > theta) if direction > 0 else (X[:, f] <= theta)
            fp = float(np.exp(lp - lP)[h].sum())   # P1 / P
            fn = float(np.exp(ln - lN)[h].sum())   # N1 / N
            fp = min(max(fp, _R_CLIP), 1.0 - _R_CLIP)
            fn = min(max(fn, _R_CLIP), 1.0 - _R_CLIP)
            alpha = (np.log(fp) + np.log1p(-fn) - np.log1p(-fp) - np.log(fn)) / (p + 1.0)
            if not alpha > 0:
                break
            s = s + alpha * h
            feats.append(f)
            thetas.append(theta)
            dirs.append(direction)
            alphas.append(alpha)
            objective.append(_objective(s, is_pos, v, p))

        self._set_stumps(X, is_pos, sw, feats, thetas, dirs, alphas, objective)
        return self
