r"""RankBoost for bipartite ranking: RankBoost.B of Y. Freund, R. Iyer, R. E. Schapire and
Y. Singer, "An efficient boosting algorithm for combining preferences", JMLR 4, 2003.

The scoring function is a weighted sum of decision stumps,
:math:`s(x) = \sum_t \alpha_t h_t(x)` with :math:`h_t(x) = 1\{x_f > \theta\}` or
:math:`1\{x_f \le \theta\}`, grown greedily on the pairwise exponential loss.
"""

from __future__ import annotations

import numpy as np
from scipy import sparse
from sklearn.base import BaseEstimator
from sklearn.utils.validation import check_is_fitted, validate_data

from ..io import register_model
from .._validation import check_param
from ._base import (BinaryLinearRanker, RankerMixin, check_score_bound, check_scorer, common_state,
                    restore_common_state, store_params, threshold_offset, warn_if_degenerate)

__all__ = ["RankBoost"]

# |r| at or below this: no stump separates the weighted classes any more; stop.
_R_TOL = 1e-12
# r is clipped to 1 - _R_CLIP so that alpha stays finite on a separating stump.
_R_CLIP = 1e-10
# Candidates whose |r| is within this of the best count as tied: the first one (in
# feature, then threshold order) wins, so that rounding in the prefix sums (which differ,
# e.g., between weighted and repeated data) does not decide between equal stumps.
_TIE = 1e-12
# The most features a saved stump ensemble may declare (loading allocates one importance
# per feature; a fit on more dense columns than this is far beyond what these learners take).
_MAX_FEATURES = 1 << 24


def _validation_criterion(spec: str):
    """``f(is_pos, s, w) -> float``, higher is better, for a criterion spec of rankwise."""
    from .. import criteria
    from ..metrics import compute

    try:
        unit = criteria.get(spec)
    except ValueError as exc:
        valid = ", ".join(repr(c) for c in criteria.names())
        raise ValueError(f"The 'scoring' parameter of RankBoost must be a criterion spec of rankwise ({valid}). "
                         f"Got {spec!r} instead.") from exc
    sign = 1.0 if unit.greater_is_better else -1.0
    binary = isinstance(unit, criteria.RankCriterion)

    def f(is_pos, s, w):
        if binary:
            return sign * compute(unit, is_pos, s, w, True)
        return sign * compute(unit, is_pos.astype(np.float64), s, w)
    return f


def _dense(X):
    return X.toarray() if sparse.issparse(X) else np.asarray(X)


class _StumpCandidates:
    """Each feature sorted once; the candidate thresholds as positions in that order.

    ``r`` of every candidate stump ``1{x_f <= theta}`` is a prefix sum of the signed class
    weights in feature ``f``'s order, read at the last position holding ``theta``:
    one gather, one cumulative sum and one gather per round, O(n d)."""

    def __init__(self, X, sw, max_thresholds):
        n, d = X.shape
        self.order = np.argsort(X, axis=0, kind="stable")  # (n, d)
        xs = np.take_along_axis(X, self.order, axis=0)
        pos, feat, theta = [], [], []
        for f in range(d):
            # Distinct values of the observations in the sample (weight > 0); the largest
            # gives a constant stump and is no candidate.
            vals = np.unique(X[sw > 0, f])[:-1]
            if vals.size > max_thresholds:
                idx = np.unique(np.round(np.linspace(0, vals.size - 1, max_thresholds)).astype(np.intp))
                vals = vals[idx]
            p = np.searchsorted(xs[:, f], vals, side="right") - 1  # last position <= theta
            pos.append(p)
            feat.append(np.full(vals.size, f, dtype=np.intp))
            theta.append(vals)
        self.pos = np.concatenate(pos) if d else np.empty(0, np.intp)
        self.feat = np.concatenate(feat) if d else np.empty(0, np.intp)
        self.theta = np.concatenate(theta) if d else np.empty(0)

    def best(self, signed):
        """(feature, threshold, C) of the candidate maximising |C|, C = sum of ``signed``
        over ``x_f <= theta``; ``None`` when there are no candidates."""
        if self.pos.size == 0:
            return None
        C = np.cumsum(signed[self.order], axis=0)
        c = C[self.pos, self.feat]
        a = np.abs(c)
        top = a.max()
        k = int(np.flatnonzero(a >= top - _TIE)[0])
        return int(self.feat[k]), float(self.theta[k]), float(c[k])


def _stumps(X, features, thresholds, directions):
    """(n, T) matrix of the stumps' values h_t(x) in {0, 1}."""
    if features.size == 0:
        return np.zeros((X.shape[0], 0))
    cols = _dense(X[:, features]) if sparse.issparse(X) else X[:, features]
    gt = cols > thresholds
    return np.where(directions > 0, gt, ~gt).astype(np.float64)


class StumpRanker(RankerMixin, BaseEstimator):
    """What :class:`RankBoost` and :class:`~rankwise.learners._pnorm.PNormPush` share: a
    score that is a weighted sum of decision stumps, its fitted attributes, scoring and
    saved state. A subclass names its arrays in ``_KINDS`` (the four stump arrays, then
    its per-round curve; ``"i"``/``"f"`` for int64/float64) and any optional float array
    in ``_OPTIONAL_ARRAYS``."""

    _KINDS: dict = {}
    _OPTIONAL_ARRAYS: tuple = ()

    # --- fitting -----------------------------------------------------------------------------

    def _check_stump_params(self, name: str):
        """``(n_estimators, max_thresholds)``, checked."""
        T = check_param(self.n_estimators, "n_estimators", name, low=1, integer=True)
        return T, check_param(self.max_thresholds, "max_thresholds", name, low=1, integer=True)

    def _validate_fit(self, X, y, sample_weight):
        """:meth:`BinaryLinearRanker._validate_fit`, then ``X`` densified."""
        X, is_pos, sw = BinaryLinearRanker._validate_fit(self, X, y, sample_weight)
        return _dense(X), is_pos, sw

    def _set_stumps(self, X, is_pos, sw, *columns):
        """Set the fitted arrays of ``_KINDS`` from ``columns`` (features, thresholds,
        directions, alphas and the per-round curve, one entry per round), then
        ``n_estimators_``, ``feature_importances_`` and the intercept (the training
        ranking's threshold)."""
        for (k, kind), col in zip(self._KINDS.items(), columns):
            setattr(self, k, np.asarray(col, dtype=np.int64 if kind == "i" else np.float64))
        self.n_estimators_ = int(self.alphas_.shape[0])
        self._set_importances()
        self.intercept_ = 0.0
        raw = self._raw_scores(X)
        warn_if_degenerate(self, X, raw, is_pos, sw)
        self.intercept_ = threshold_offset(raw, is_pos, sw)

    def _set_importances(self):
        imp = np.zeros(self.n_features_in_)
        np.add.at(imp, self.features_, np.abs(self.alphas_))
        total = imp.sum()
        self.feature_importances_ = imp / total if total > 0 else imp

    # --- scoring -----------------------------------------------------------------------------

    @property
    def estimators_(self):
        check_is_fitted(self, "alphas_")
        return {"features_": self.features_, "thresholds_": self.thresholds_,
                "directions_": self.directions_, "alphas_": self.alphas_}

    def _raw_scores(self, X):
        return _stumps(X, self.features_, self.thresholds_, self.directions_) @ self.alphas_

    def _check_X(self, X):
        check_is_fitted(self)
        return validate_data(self, X, accept_sparse=["csr", "csc"], dtype=np.float64, reset=False)

    def decision_function(self, X) -> np.ndarray:
        """The learned scores ``sum_t alpha_t h_t(x) + intercept_``: higher = more likely ``classes_[1]``."""
        X = self._check_X(X)
        return self._raw_scores(X) + self.intercept_

    def staged_decision_function(self, X):
        """Yield ``decision_function(X)`` after each round (1, ..., ``n_estimators_``)."""
        X = self._check_X(X)
        H = _stumps(X, self.features_, self.thresholds_, self.directions_)
        s = np.full(X.shape[0], self.intercept_)
        for t in range(self.n_estimators_):
            s = s + self.alphas_[t] * H[:, t]
            yield s.copy()

    def predict(self, X) -> np.ndarray:
        """``classes_[1]`` where ``decision_function`` is positive, else ``classes_[0]``."""
        check_is_fitted(self)
        return self.classes_[(self.decision_function(X) > 0).astype(int)]

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        return tags

    # --- the safe model format (rankwise.save_model / load_model) ---------------------------

    def _get_model_state(self):
        check_is_fitted(self)
        attrs = common_state(self)
        attrs["n_estimators_"] = int(self.n_estimators_)
        arrays = {k: np.asarray(getattr(self, k)) for k in self._KINDS}
        for k in self._OPTIONAL_ARRAYS:
            if hasattr(self, k):
                arrays[k] = np.asarray(getattr(self, k), dtype=np.float64)
        return attrs, arrays

    def _set_model_state(self, attributes, arrays):
        name = type(self).__name__
        attributes, arrays = dict(attributes), dict(arrays)
        need_attrs = {"intercept_", "n_features_in_", "classes_", "n_estimators_"}
        need_arrays = set(self._KINDS)
        if not (need_attrs <= set(attributes) <= need_attrs | {"feature_names_in_"}) or not (
                need_arrays <= set(arrays) <= need_arrays | set(self._OPTIONAL_ARRAYS)):
            raise ValueError(f"{name} model state has unexpected fields: attributes {sorted(attributes)}, "
                             f"arrays {sorted(arrays)}.")
        d, T = attributes["n_features_in_"], attributes["n_estimators_"]
        if isinstance(T, bool) or not isinstance(T, int) or T < 0:
            raise ValueError(f"{name} model state: n_estimators_ must be an int >= 0. Got {T!r:.60}.")
        # no saved array has one entry per feature, but loading allocates feature_importances_
        # with one: a file must not choose that size freely
        if isinstance(d, int) and not isinstance(d, bool) and d > _MAX_FEATURES:
            raise ValueError(f"{name} model state: n_features_in_ = {d} is more than the {_MAX_FEATURES} features "
                             "a stump ensemble is loaded with.")
        restore_common_state(self, attributes)  # n_features_in_ an int >= 1, intercept_ finite, classes_
        d = self.n_features_in_
        for k, kind in self._KINDS.items():
            a = np.asarray(arrays[k])
            if a.shape != (T,) or a.dtype.kind != kind or (kind == "f" and not np.all(np.isfinite(a))):
                raise ValueError(f"{name} model state: {k} must be a finite {'int' if kind == 'i' else 'float'} "
                                 f"array of shape ({T},); got {a.dtype} {a.shape}.")
        if T and (arrays["features_"].min() < 0 or arrays["features_"].max() >= d):
            raise ValueError(f"{name} model state: features_ must lie in [0, {d}).")
        if not np.all(np.isin(arrays["directions_"], (-1, 1))):
            raise ValueError(f"{name} model state: directions_ must hold -1 or 1.")
        for k in self._OPTIONAL_ARRAYS:
            if k in arrays:
                a = np.asarray(arrays[k])
                if a.ndim != 1 or a.shape[0] < T or a.dtype.kind not in "iuf":
                    raise ValueError(f"{name} model state: {k} must be a float array of one entry per round run "
                                     f"(at least {T}); got {a.dtype} {a.shape}.")
        # a stump is 0 or 1, so |score| <= sum |alpha_t| + |intercept_| on every row
        alphas = np.asarray(arrays["alphas_"], dtype=np.float64)
        with np.errstate(over="ignore"):
            bound = float(np.abs(alphas).sum()) + abs(self.intercept_)
        check_score_bound(name, bound, "alphas_ and intercept_")
        self.n_estimators_ = T
        for k, kind in self._KINDS.items():
            setattr(self, k, np.asarray(arrays[k], dtype=np.int64 if kind == "i" else np.float64).copy())
        for k in self._OPTIONAL_ARRAYS:
            if k in arrays:
                setattr(self, k, np.asarray(arrays[k], dtype=np.float64).copy())
        self._set_importances()
        check_scorer(self)


@register_model
class RankBoost(StumpRanker):
    r"""RankBoost.B: boosted decision stumps on the bipartite pairwise exponential loss.

    Parameters
    ----------
    n_estimators : int >= 1, default 100
        The most boosting rounds.
    learning_rate : float > 0, default 1.0
        Shrinks every step ``alpha_t``; with a value in (0, 1] the training loss never
        increases.
    max_thresholds : int >= 1, default 256
        The most candidate thresholds per feature: a feature's distinct values, or that
        many quantile-spaced ones among them when it has more.
    early_stopping : bool, default False
        Hold out a stratified ``validation_fraction`` of the data, stop when ``scoring``
        on it has not improved for ``n_iter_no_change`` rounds, and keep the rounds up to
        its best value.
    validation_fraction : float in (0, 1), default 0.2
    n_iter_no_change : int >= 1, default 10
    scoring : str, default "auc"
        Any criterion spec of rankwise (``"auc"``, ``"local_auc:top=0.1"``,
        ``"pnorm_push:p=4"``...; losses are negated), evaluated on the held-out part.
    random_state : int, RandomState or None
        The held-out split (early stopping only).

    Attributes
    ----------
    features_, thresholds_, directions_, alphas_ : ndarray (n_estimators_,)
        The stumps: ``h_t(x) = 1{x[features_[t]] > thresholds_[t]}`` where
        ``directions_[t] == 1``, ``1{x[features_[t]] <= thresholds_[t]}`` where it is -1;
        their weights ``alphas_``.
    estimators_ : dict of these four arrays
    n_estimators_ : int
        The rounds kept.
    feature_importances_ : ndarray (d,)
        Sum of ``|alpha_t|`` per feature, normalised to sum 1 (zeros without a round).
    train_loss_ : ndarray (n_estimators_,)
        The pairwise exponential loss on the training data after each round: the
        product of the normalisers ``Z1_t Z0_t`` (the initial loss is 1).
    validation_score_ : ndarray
        Early stopping only: ``scoring`` on the held-out part after each round run.
    intercept_ : float
        Added to every score; set so that ``predict`` marks the top share of the training
        ranking equal to the share of positives. The ranking does not depend on it.
    classes_, n_features_in_, feature_names_in_

    Notes
    -----
    Weights :math:`v^1` on the positives and :math:`v^0` on the negatives, each summing to
    1 (initially proportional to ``sample_weight``); the weight of a pair is
    :math:`v^1_i v^0_j`. Each round takes the stump maximising
    :math:`r = \sum_i v^1_i h(x_i) - \sum_j v^0_j h(x_j)` (over both directions, so
    :math:`r \ge 0`), sets :math:`\alpha = \eta\,\tfrac12\ln\frac{1+r}{1-r}` and updates
    :math:`v^1_i \propto v^1_i e^{-\alpha h(x_i)}`, :math:`v^0_j \propto v^0_j e^{\alpha h(x_j)}`
    with normalisers :math:`Z_1, Z_0`. The weighted mean over all pairs of
    :math:`e^{-(s(x_i) - s(x_j))}` after T rounds equals :math:`\prod_t Z_{1,t} Z_{0,t}`.
    Each feature is sorted once per fit; a round costs O(n d) (prefix sums of the class
    weights in each feature's order). Sparse input is densified.

    Examples
    --------
    >>> import numpy as np, rankwise as rw
    >>> X = np.array([[0.0], [1.0], [2.0], [3.0]])
    >>> rw.learners._boost.RankBoost(n_estimators=5).fit(X, [0, 0, 1, 1]).score(X, [0, 0, 1, 1])
    1.0
    """

    def __init__(self, n_estimators: int = 100, learning_rate: float = 1.0, max_thresholds: int = 256,
                 early_stopping: bool = False, validation_fraction: float = 0.2, n_iter_no_change: int = 10,
                 scoring: str = "auc", random_state=None):
        store_params(self, locals())

    _KINDS = {"features_": "i", "thresholds_": "f", "directions_": "i", "alphas_": "f", "train_loss_": "f"}
    _OPTIONAL_ARRAYS = ("validation_score_",)

    # --- fitting ---------------------------------------------------------------------------

    def fit(self, X, y, sample_weight=None):
        """Fit on ``X`` (n, d), binary ``y``, optional ``sample_weight``."""
        name = "RankBoost"
        T, max_thr = self._check_stump_params(name)
        lr = check_param(self.learning_rate, "learning_rate", name, low=0.0, low_inclusive=False)
        if not isinstance(self.early_stopping, (bool, np.bool_)):
            raise TypeError(f"The 'early_stopping' parameter of {name} must be a bool. Got {self.early_stopping!r} instead.")
        X, is_pos, sw = self._validate_fit(X, y, sample_weight)

        val = None
        if self.early_stopping:
            frac = check_param(self.validation_fraction, "validation_fraction", name, low=0.0, high=1.0,
                               low_inclusive=False, high_inclusive=False)
            patience = check_param(self.n_iter_no_change, "n_iter_no_change", name, low=1, integer=True)
            criterion = _validation_criterion(self.scoring)
            from sklearn.model_selection import train_test_split

            idx = np.arange(X.shape[0])
            try:
                tr, va = train_test_split(idx, test_size=frac, stratify=is_pos, random_state=self.random_state)
            except ValueError as e:
                raise ValueError(f"{name}: cannot hold out a stratified validation_fraction={frac} of "
                                 f"{X.shape[0]} observations for early stopping ({e}).") from None
            if not (sw[tr][is_pos[tr]].sum() > 0 and sw[tr][~is_pos[tr]].sum() > 0
                    and sw[va][is_pos[va]].sum() > 0 and sw[va][~is_pos[va]].sum() > 0):
                raise ValueError(f"{name}: early stopping needs positive weight of both classes in the "
                                 f"training and the validation parts.")
            val = (X[va], is_pos[va], None if np.all(sw[va] == 1.0) else sw[va], criterion, patience)
            Xt, pt, swt = X[tr], is_pos[tr], sw[tr]
        else:
            Xt, pt, swt = X, is_pos, sw

        feats, thetas, dirs, alphas, losses, vscores = self._boost(Xt, pt, swt, T, lr, max_thr, val)
        if val is not None and vscores:
            best = int(np.argmax(vscores))  # first best
            keep = best + 1
            feats, thetas, dirs, alphas, losses = (a[:keep] for a in (feats, thetas, dirs, alphas, losses))
            self.validation_score_ = np.asarray(vscores, dtype=np.float64)
        elif hasattr(self, "validation_score_"):
            del self.validation_score_

        self._set_stumps(X, is_pos, sw, feats, thetas, dirs, alphas, losses)
        return self

    def _boost(self, X, is_pos, sw, T, lr, max_thr, val):
        cand = _StumpCandidates(X, sw, max_thr)
        v = np.where(is_pos, sw / sw[is_pos].sum(), sw / sw[~is_pos].sum())
        sign = np.where(is_pos, 1.0, -1.0)
        feats, thetas, dirs, alphas, losses, vscores = [], [], [], [], [], []
        loss = 1.0
        if val is not None:
            Xv, pv, swv, criterion, patience = val
            sv = np.zeros(Xv.shape[0])
            best, since = -np.inf, 0
        for _ in range(T):
            found = cand.best(sign * v)
            if found is None:
                break
            f, theta, c = found
            # c = r of 1{x <= theta}; 1{x > theta} has r = -c (the signed weights sum to 0).
            direction = -1 if c > 0 else 1
            r = min(abs(c), 1.0 - _R_CLIP)
            if r <= _R_TOL:
                break
            alpha = lr * 0.5 * np.log((1.0 + r) / (1.0 - r))
            h = (X[:, f] > theta) if direction > 0 else (X[:, f] <= theta)
            v = v * np.exp(np.where(is_pos, -alpha, alpha) * h)
            z1, z0 = v[is_pos].sum(), v[~is_pos].sum()
            v = np.where(is_pos, v / z1, v / z0)
            loss *= z1 * z0
            feats.append(f)
            thetas.append(theta)
            dirs.append(direction)
            alphas.append(alpha)
            losses.append(loss)
            if val is not None:
                hv = (Xv[:, f] > theta) if direction > 0 else (Xv[:, f] <= theta)
                sv = sv + alpha * hv
                score = criterion(pv, sv, swv)
                vscores.append(score)
                if score > best:
                    best, since = score, 0
                else:
                    since += 1
                    if since >= patience:
                        break
        return feats, thetas, dirs, alphas, losses, vscores
