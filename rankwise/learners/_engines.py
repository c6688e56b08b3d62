r"""Exact all-pairs ranking objectives, evaluation metrics and an estimator for the
gradient-boosting engines XGBoost and LightGBM.

The engines' own ranking objectives sample pairs (XGBoost's ``rank:pairwise``) or work
inside query groups (LightGBM's ``lambdarank``); their binary objectives are pointwise.
The objectives here sum a pairwise surrogate over **all** ``n+ n-`` positive-negative
pairs, exactly, in O(n log n) (or O(n)) per round, with sample weights, and give the
engine each row's gradient and the diagonal of the Hessian:

==================  ==================================  =====================================
``loss``            objective                           per-row Hessian
==================  ==================================  =====================================
``exponential``     RankBoost's ``sum w w e^{-m}``      ``phi'' = phi``: the gradient's size
``pnorm_push``      Rudin's ``R_p`` (parameter ``p``)   exact diagonal (see below)
``squared``         ``(margin - m)^2`` (BBR's loss)     ``phi'' = 2``: ``2 w_i / W_class``
``squared_hinge``   ``max(0, margin - m)^2``            2 x the weight of the active partners
``logistic``        ``log(1 + e^{-m})``                 ``e^{-|m|} / (1 + e^{-|m|})^2``; exact
                                                        or binned with a stated bound
==================  ==================================  =====================================

What the engine minimises is ``n_w F(s)``, with ``F`` the weighted mean of the surrogate over
the pair mass (:func:`rankwise.losses.pairwise`; for ``pnorm_push`` Rudin's ``R_p`` with
class-normalised weights) and ``n_w = sum_i w_i`` the total sample weight: each row's
gradient and Hessian are then of order one, as for the engines' pointwise losses, so their
defaults (``lambda``, ``min_child_weight``, ``min_sum_hessian_in_leaf``) keep their meaning.
Every objective depends on score differences only, so the engines' starting score does not
matter: the estimator sets XGBoost's ``base_score`` to 0 (LightGBM starts at 0 with a custom
objective).

XGBoost and LightGBM are optional: ``pip install 'rankwise[boost]'``.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
from scipy.special import logsumexp
from sklearn.base import BaseEstimator
from sklearn.utils.validation import _check_sample_weight, check_is_fitted, validate_data

from .. import criteria
from ..io import register_model
from ..losses import pairwise
from ..metrics import compute
from .._validation import check_binary_labels, check_param, check_same_length, check_sample_weight, check_scores
from ._base import (RankerMixin, binary_classes, common_state, restore_common_state, store_params, threshold_offset,
                    warn_if_degenerate)
from ._pnorm import _log_masses

__all__ = ["AllPairsObjective", "EngineMetric", "xgboost_objective", "lightgbm_objective", "xgboost_metric",
           "lightgbm_metric", "BoostedPairwiseRanker", "BOOSTING_LOSSES"]

BOOSTING_LOSSES = ("exponential", "pnorm_push", "squared", "squared_hinge", "logistic")
"""The all-pairs objectives with a Hessian, by name."""

_ENGINES = ("xgboost", "lightgbm")


def _engine(name: str):
    """The engine's module, or an ImportError that names the extra."""
    try:
        if name == "xgboost":
            import xgboost
            return xgboost
        import lightgbm
        return lightgbm
    except ImportError as exc:
        raise ImportError(f"{name} is not installed; it is an optional engine of rankwise: "
                          f"pip install 'rankwise[boost]' (or pip install {'xgboost' if name == 'xgboost' else 'lightgbm'}).") from exc


def _is_engine_data(obj) -> bool:
    """An xgboost.DMatrix or a lightgbm.Dataset (the native calling convention)."""
    return hasattr(obj, "get_label") and hasattr(obj, "get_weight")


def _native_weight(data) -> np.ndarray | None:
    w = data.get_weight()
    if w is None:
        return None
    w = np.asarray(w, dtype=np.float64)
    return w if w.size else None


# --------------------------------------------------------------------------------------
# p-norm push with its diagonal Hessian
# --------------------------------------------------------------------------------------

class _PNormPrepared:
    r"""Rudin's :math:`R_p(s) = \sum_k v_k (\sum_i v_i e^{-(s_i - s_k)})^p = P^p N` with
    :math:`P = \sum_i v_i e^{-s_i}`, :math:`N = \sum_k v_k e^{p s_k}` and class-normalised
    weights ``v``. With :math:`a_i = v_i e^{-s_i} / P` and :math:`b_k = v_k e^{p s_k} / N`:
    :math:`\partial_i R = -p R a_i`, :math:`\partial_i^2 R = R (p(p-1) a_i^2 + p a_i)` (positives),
    :math:`\partial_k R = p R b_k`, :math:`\partial_k^2 R = p^2 R b_k` (negatives); all in
    the log domain, O(n)."""

    def __init__(self, p: float, y_true, sample_weight=None):
        is_pos, _ = check_binary_labels(y_true)
        w = check_sample_weight(sample_weight, is_pos.shape[0])
        w = np.ones(is_pos.shape[0]) if w is None else np.asarray(w, dtype=np.float64)
        wp, wn = float(w[is_pos].sum()), float(w[~is_pos].sum())
        if not (wp > 0 and wn > 0):
            raise ValueError("The p-norm push objective needs both classes with positive weight: there are no "
                             "positive-negative pairs.")
        self.p = p
        self.is_pos = is_pos
        self.sample_weight = w
        self._v = np.where(is_pos, w / wp, w / wn)
        with np.errstate(divide="ignore"):
            self._lv = np.log(self._v)      # -inf where the weight is 0; fixed across rounds

    def value_grad_hess(self, y_score):
        s = check_scores(y_score, name="y_score").astype(np.float64, copy=False)
        check_same_length(self.is_pos.shape[0], s.shape[0])
        p = self.p
        lp, ln = _log_masses(s, self.is_pos, self._v, p, lv=self._lv)  # log v kept across rounds
        lP, lN = logsumexp(lp), logsumexp(ln)
        logR = p * lP + lN
        with np.errstate(over="ignore"):
            R = float(np.exp(logR))
            a = np.exp(lp - lP)     # 0 on the negatives
            b = np.exp(ln - lN)     # 0 on the positives
            grad = R * (p * b - p * a)
            hess = R * (p * (p - 1.0) * a * a + p * a + p * p * b)
        return R, grad + 0.0, hess


# The objectives that are not a sum of phi over pairs (the others are rankwise.losses.pairwise).
_OWN_KERNELS = {"pnorm_push": _PNormPrepared}


# --------------------------------------------------------------------------------------
# Objectives
# --------------------------------------------------------------------------------------

class AllPairsObjective:
    r"""An exact all-pairs ranking objective as a custom objective of XGBoost or LightGBM.

    Build it with :func:`xgboost_objective` or :func:`lightgbm_objective` (the same object;
    they only check that the engine is installed). One object serves every calling
    convention, recognised from its arguments:

    * XGBoost native, ``xgb.train(params, dtrain, obj=objective)``: ``objective(preds, dtrain)``;
    * XGBoost scikit-learn, ``xgb.XGBRegressor(objective=objective)``:
      ``objective(y_true, y_pred, sample_weight=None)``;
    * LightGBM native, ``lgb.train({"objective": objective, ...}, dataset)``:
      ``objective(preds, dataset)``;
    * LightGBM scikit-learn, ``lgb.LGBMRegressor(objective=objective)``:
      ``objective(y_true, y_pred, weight, group)``.

    Each call returns ``(grad, hess)``, one entry per row: the derivatives of
    ``n_w F(s)`` (``n_w`` the total sample weight, ``F`` the mean surrogate over the pair
    mass) at the engine's raw scores. The labels must be binary (``{0, 1}``,
    ``{-1, 1}`` or booleans; positives = 1); sample weights are read from the engine's data
    (the engines do not apply them to a custom objective's output). The labels and weights
    are checked once and kept while the engine passes the same ones.

    Parameters
    ----------
    loss : {"exponential", "pnorm_push", "squared", "squared_hinge", "logistic"}
    **params
        ``p`` (``pnorm_push``, default 4, >= 1); ``margin`` (``squared``,
        ``squared_hinge``, default 1); ``mode`` and ``exact_max_pairs`` (``logistic``, see
        :func:`rankwise.losses.pairwise`; here the default ``mode`` is ``"approx"``: O(n log n)
        per round, binned, within ``1.5e-10`` per pair on ``phi``, ``1.7e-9`` on ``phi'`` and
        ``2.5e-9`` on ``phi''``; ``mode="exact"`` sums every pair, O(n+ n-) per round).

    Attributes
    ----------
    history_ : list of float
        ``F`` at the scores of each call, in call order (one per boosting round): the
        all-pairs loss the engine is descending.

    Examples
    --------
    >>> import numpy as np
    >>> from rankwise.learners import AllPairsObjective
    >>> obj = AllPairsObjective("exponential")
    >>> grad, hess = obj(np.array([1.0, 0.0, 0.0]), np.zeros(3))   # scikit-learn convention
    >>> grad.tolist(), hess.tolist()
    ([-3.0, 1.5, 1.5], [3.0, 1.5, 1.5])
    """

    def __init__(self, loss: str = "exponential", **params: Any) -> None:
        if not isinstance(loss, str) or loss not in BOOSTING_LOSSES:
            valid = ", ".join(repr(k) for k in BOOSTING_LOSSES)
            hint = (" (the hinge has no curvature for a Newton step: use 'squared_hinge')"
                    if loss == "hinge" else "")
            raise ValueError(f"Unknown boosting loss {loss!r}{hint}; valid losses are {valid}.")
        if loss in _OWN_KERNELS:
            unknown = sorted(set(params) - {"p"})
            if unknown:
                raise TypeError(f"The 'pnorm_push' objective got unexpected parameter(s) {unknown}; it accepts 'p'.")
            self.params = {"p": float(check_param(params.get("p", 4.0), "p", "pnorm_push", low=1.0))}
            self._surrogate = None
        else:
            if loss == "logistic":
                # O(n log n) per round by default (the exact pair blocks cost O(n+ n-)).
                params = {"mode": "approx", **params}
            self._surrogate = pairwise(loss, **params)
            self.params = dict(self._surrogate.params)
        self.loss = loss
        self.history_: list[float] = []
        self._cache = None

    def __repr__(self) -> str:
        args = "".join(f", {k}={v!r}" for k, v in self.params.items())
        return f"AllPairsObjective({self.loss!r}{args})"

    def __deepcopy__(self, memo):
        # LightGBM deep-copies its parameters, this objective among them: the copy must be
        # this object, so that history_ records the rounds of the training it serves.
        return self

    def prepare(self, y_true, sample_weight=None):
        """The loss bound to labels and weights (checked once): an object whose
        ``value_grad_hess(scores)`` returns ``(F, dF/ds, diag d^2F/ds^2)``."""
        if self._surrogate is None:
            return _OWN_KERNELS[self.loss](self.params["p"], y_true, sample_weight)
        return self._surrogate.prepare(y_true, sample_weight)

    def _prepared(self, y, w):
        y = np.asarray(y)
        c = self._cache
        if c is not None and np.array_equal(c[0], y) and (
                (w is None and c[1] is None) or (w is not None and c[1] is not None and np.array_equal(c[1], w))):
            return c[2]
        prep = self.prepare(y, w)
        self._cache = (y.copy(), None if w is None else np.array(w, copy=True), prep)
        return prep

    def grad_hess(self, y_true, y_score, sample_weight=None):
        """``(grad, hess)`` of ``n_w F`` at ``y_score`` (the engines' convention), and
        ``F`` appended to :attr:`history_`."""
        prep = self._prepared(y_true, sample_weight)
        value, grad, hess = prep.value_grad_hess(np.asarray(y_score, dtype=np.float64).ravel())
        nw = float(prep.sample_weight.sum())
        self.history_.append(value)
        return grad * nw, hess * nw

    def __call__(self, a, b, sample_weight=None, group=None):
        if _is_engine_data(b):  # native: (preds, data)
            return self.grad_hess(b.get_label(), a, _native_weight(b))
        return self.grad_hess(a, b, sample_weight)


def xgboost_objective(loss: str = "exponential", **params: Any) -> AllPairsObjective:
    """An exact all-pairs objective for XGBoost (``xgb.train(..., obj=...)`` or
    ``XGBRegressor(objective=...)``); see :class:`AllPairsObjective`.

    XGBoost hands a custom objective the raw scores (margins, no link). Train with
    ``base_score=0`` (the objective is translation invariant) and
    ``disable_default_eval_metric=1`` (the default metric of a custom objective is the
    RMSE against the 0/1 labels, which means nothing for a ranking); watch a rankwise
    criterion with :func:`xgboost_metric` instead. ``XGBRanker`` takes no custom objective,
    and ``XGBClassifier`` would pass the scores through a sigmoid in ``predict_proba``:
    use ``XGBRegressor`` and its ``predict`` (raw scores).

    Examples
    --------
    >>> import numpy as np, xgboost as xgb                         # doctest: +SKIP
    >>> from rankwise.learners import xgboost_objective, xgboost_metric
    >>> obj, auc = xgboost_objective("exponential"), xgboost_metric("auc")   # doctest: +SKIP
    >>> booster = xgb.train({"base_score": 0, "disable_default_eval_metric": 1}, dtrain,
    ...                     num_boost_round=100, obj=obj, custom_metric=auc, maximize=auc.maximize,
    ...                     evals=[(dvalid, "valid")], early_stopping_rounds=10)   # doctest: +SKIP
    """
    _engine("xgboost")
    return AllPairsObjective(loss, **params)


def lightgbm_objective(loss: str = "exponential", **params: Any) -> AllPairsObjective:
    """An exact all-pairs objective for LightGBM (``lgb.train({"objective": obj, ...})`` or
    ``LGBMRegressor(objective=obj)``); see :class:`AllPairsObjective`.

    LightGBM hands a custom objective the raw scores and starts them at 0; set
    ``"metric": "None"`` and watch a rankwise criterion with :func:`lightgbm_metric`.

    Examples
    --------
    >>> import lightgbm as lgb                                     # doctest: +SKIP
    >>> from rankwise.learners import lightgbm_objective, lightgbm_metric
    >>> booster = lgb.train({"objective": lightgbm_objective("pnorm_push", p=4), "metric": "None"},
    ...                     dtrain, num_boost_round=100, valid_sets=[dvalid],
    ...                     feval=lightgbm_metric("local_auc:top=0.1"))   # doctest: +SKIP
    """
    _engine("lightgbm")
    return AllPairsObjective(loss, **params)


# --------------------------------------------------------------------------------------
# Metrics
# --------------------------------------------------------------------------------------

class EngineMetric:
    """A rankwise criterion as an evaluation metric of XGBoost or LightGBM (build it with
    :func:`xgboost_metric` or :func:`lightgbm_metric`).

    One object serves every calling convention, recognised from its arguments:

    * XGBoost native (``xgb.train(custom_metric=m, maximize=m.maximize)``):
      ``m(preds, dmatrix) -> (name, value)``;
    * XGBoost scikit-learn (``eval_metric=m``): ``m(y_true, y_score, sample_weight=None) -> value``;
    * LightGBM native (``lgb.train(feval=m)``): ``m(preds, dataset) -> (name, value, higher_is_better)``;
    * LightGBM scikit-learn (``eval_metric=m``): ``m(y_true, y_score, weight, group)`` ->
      ``(name, value, higher_is_better)``.

    Attributes
    ----------
    name, __name__ : str
        The criterion's label as the engines print it: ``"auc"``, ``"local_auc(top=0.1)"``
        (its spec with the parameters in parentheses: XGBoost's log has no room for ``:``).
    maximize : bool
        True when higher is better (AUC, local AUC, NDCG, ...), False for losses (p-norm
        push): the direction early stopping must watch. XGBoost's ``EarlyStopping`` guesses
        it from the name when not told, so pass ``maximize=m.maximize``.
    engine : {"xgboost", "lightgbm"}
    """

    def __init__(self, criterion: Any = "auc", engine: str = "xgboost", **params: Any) -> None:
        unit = criteria.get(criterion, **params)
        if not isinstance(unit, criteria.RankCriterion):
            raise ValueError(f"The criterion {unit.name!r} takes real-valued labels; a boosting metric needs a "
                             f"criterion of binary labels (e.g. 'auc', 'local_auc:top=0.1', 'pnorm_push:p=4').")
        self.unit = unit
        self.engine = engine
        # XGBoost parses "name:value" from its evaluation log: no ':' in the name.
        head, _, args = unit.label.partition(":")
        self.name = self.__name__ = f"{head}({args})" if args else head
        self.maximize = bool(unit.greater_is_better)

    def __repr__(self) -> str:
        return f"EngineMetric({self.name!r}, engine={self.engine!r})"

    def value(self, y_true, y_score, sample_weight=None) -> float:
        """The criterion on ``(y_true, y_score)``, positives = label 1."""
        y = np.asarray(y_true)
        return compute(self.unit, y == 1, np.asarray(y_score, dtype=np.float64).ravel(), sample_weight)

    def __call__(self, a, b, sample_weight=None, group=None):
        native = _is_engine_data(b)
        if native:
            v = self.value(b.get_label(), a, _native_weight(b))
        else:
            v = self.value(a, b, sample_weight)
        if self.engine == "lightgbm":
            return self.name, v, self.maximize
        return (self.name, v) if native else v


def xgboost_metric(criterion: Any = "auc", **params: Any) -> EngineMetric:
    """A rankwise criterion (a spec such as ``"auc"``, ``"local_auc:top=0.1"``,
    ``"pnorm_push:p=4"``, ``"ndcg:k=100"``, ``"partial_auc:max_fpr=0.1"``,
    ``"average_precision"``, ``("rank_statistic", {"phi": ...})``) as an XGBoost evaluation
    metric; see :class:`EngineMetric`. Pass ``maximize=metric.maximize`` to ``xgb.train``
    (or to ``xgb.callback.EarlyStopping``) so that early stopping watches the right direction.

    Examples
    --------
    >>> from rankwise.learners import xgboost_metric
    >>> m = xgboost_metric("pnorm_push:p=4")
    >>> m.name, m.maximize
    ('pnorm_push(p=4)', False)
    """
    return EngineMetric(criterion, "xgboost", **params)


def lightgbm_metric(criterion: Any = "auc", **params: Any) -> EngineMetric:
    """A rankwise criterion as a LightGBM evaluation metric (``feval=`` / ``eval_metric=``);
    it returns ``(name, value, higher_is_better)`` as LightGBM expects. See :func:`xgboost_metric`.

    Examples
    --------
    >>> import numpy as np
    >>> from rankwise.learners import lightgbm_metric
    >>> lightgbm_metric("local_auc", top=0.5)(np.array([0, 1, 1, 0]), np.array([0.1, 0.9, 0.4, 0.3]), None, None)
    ('local_auc(top=0.5)', 1.0, True)
    """
    return EngineMetric(criterion, "lightgbm", **params)


# --------------------------------------------------------------------------------------
# The estimator
# --------------------------------------------------------------------------------------

_FLOAT32_MAX = float(np.finfo(np.float32).max)
_FEATURE_DTYPES = (np.float64, np.float32)  # validate_data: keep either, convert anything else to float64


def _check_float32_range(X, name: str) -> None:
    """Both engines store features as float32: a value beyond its range would be infinite."""
    data = X.data if hasattr(X, "tocsr") else X
    if data.size:
        with np.errstate(invalid="ignore"):
            big = np.nanmax(np.abs(data)) if not np.all(np.isnan(data)) else 0.0
        if big > _FLOAT32_MAX:
            raise ValueError(f"{name}: X holds values up to {big:.3g} in absolute value; XGBoost and LightGBM store "
                             f"features as float32, whose largest value is {_FLOAT32_MAX:.3g}. Rescale the features "
                             "(trees only use their order), e.g. with a StandardScaler or a log.")


def _leaf_values(engine: str, raw: bytes) -> np.ndarray:
    """Every leaf value of a saved engine model (what the scores are sums of), read from
    the engine's own format: XGBoost's JSON (``split_conditions`` of the leaves, whose
    ``left_children`` is -1) or LightGBM's text model (the ``leaf_value=`` lines)."""
    if engine == "xgboost":
        doc = json.loads(raw.decode("utf-8"))
        out = []
        for tree in doc["learner"]["gradient_booster"]["model"]["trees"]:
            left = np.asarray(tree["left_children"])
            cond = np.asarray(tree["split_conditions"], dtype=np.float64)
            out.append(cond[left == -1])
        return np.concatenate(out) if out else np.zeros(0)
    vals = [line.partition("=")[2].split() for line in raw.decode("utf-8").splitlines()
            if line.startswith("leaf_value=")]
    return np.asarray([float(v) for row in vals for v in row], dtype=np.float64)


@register_model
class BoostedPairwiseRanker(RankerMixin, BaseEstimator):
    r"""Gradient-boosted trees (XGBoost or LightGBM) on an exact all-pairs ranking objective.

    Parameters
    ----------
    engine : {"xgboost", "lightgbm"}, default "xgboost"
    loss : {"exponential", "pnorm_push", "squared", "squared_hinge", "logistic"}, default "exponential"
        The objective (:class:`AllPairsObjective`): RankBoost's exponential loss, Rudin's
        p-norm push, the squared loss of BBR, the squared hinge, the logistic loss, each
        summed over every positive-negative pair.
    loss_params : dict, optional
        ``{"p": 4}`` for ``pnorm_push``, ``{"margin": 1}`` for ``squared`` and
        ``squared_hinge``, ``{"mode": ...}`` for ``logistic``.
    n_estimators : int >= 1, default 100
        Boosting rounds (fewer with early stopping).
    learning_rate : float > 0, default 0.1
    max_depth : int >= 1 or None, default None
        Tree depth; None: the engine's default (XGBoost 6; LightGBM no limit with 31
        leaves). With LightGBM an int also sets ``num_leaves = 2 ** max_depth``.
    eval_metric : criterion spec, default "auc"
        What early stopping watches on ``eval_set`` (:func:`xgboost_metric`).
    early_stopping_rounds : int >= 1 or None, default None
        Stop when ``eval_metric`` on the last ``eval_set`` has not improved for this many
        rounds, and keep the best round's trees.
    n_jobs : int or None, default None
        The engine's threads (None: its default).
    random_state : int or None, default None
    engine_params : dict, optional
        Any other parameter of the engine (``reg_lambda`` / ``lambda``,
        ``min_child_weight``, ``subsample``, ``num_leaves``, ``max_bin``, ...), passed as is.

    Attributes
    ----------
    booster_ : xgboost.Booster or lightgbm.Booster
    n_estimators_ : int
        Rounds kept (the best round with early stopping).
    objective_ : ndarray
        The all-pairs training loss ``F`` at the start of each round.
    evals_result_ : dict
        The engine's record of the evaluation metric per round (empty without ``eval_set``).
    intercept_ : float
        Added to the engine's score so that ``predict`` marks the top of the training
        ranking holding the share of the positives; the ranking does not depend on it.
    classes_, n_features_in_, feature_names_in_

    Notes
    -----
    Both engines store features as float32: features beyond its range (about 3.4e38 in
    absolute value) are refused with a ``ValueError``; rescale them (trees use only their
    order).

    The engine minimises ``n_w F(s)`` (see :class:`AllPairsObjective`) with its own
    second-order tree building: each leaf gets ``-G / (H + lambda)`` from the rows' summed
    gradients ``G`` and Hessians ``H``. Saved by :func:`rankwise.save_model` with the
    engine's own model format inside the file (XGBoost's JSON, LightGBM's text model), no
    pickle; loading it needs the engine.

    Examples
    --------
    >>> import numpy as np
    >>> from rankwise.learners import BoostedPairwiseRanker
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(200, 3)); y = (X[:, 0] + rng.normal(size=200) > 1).astype(int)
    >>> m = BoostedPairwiseRanker(loss="exponential", n_estimators=20).fit(X, y)  # doctest: +SKIP
    >>> m.score(X, y) > 0.8                                                       # doctest: +SKIP
    True
    """

    def __init__(self, engine: str = "xgboost", loss: str = "exponential", loss_params=None, n_estimators: int = 100,
                 learning_rate: float = 0.1, max_depth=None, eval_metric="auc", early_stopping_rounds=None,
                 n_jobs=None, random_state=None, engine_params=None):
        store_params(self, locals())

    # --- fitting -----------------------------------------------------------------------------

    def _check_params(self):
        name = type(self).__name__
        if self.engine not in _ENGINES:
            raise ValueError(f"The 'engine' parameter of {name} must be 'xgboost' or 'lightgbm'. Got {self.engine!r} instead.")
        for key in ("loss_params", "engine_params"):
            v = getattr(self, key)
            if v is not None and not isinstance(v, dict):
                raise TypeError(f"The '{key}' parameter of {name} must be a dict or None. Got {type(v).__name__} instead.")
        T = check_param(self.n_estimators, "n_estimators", name, low=1, integer=True)
        lr = check_param(self.learning_rate, "learning_rate", name, low=0.0, low_inclusive=False)
        depth = None if self.max_depth is None else check_param(self.max_depth, "max_depth", name, low=1, integer=True)
        es = (None if self.early_stopping_rounds is None
              else check_param(self.early_stopping_rounds, "early_stopping_rounds", name, low=1, integer=True))
        obj = AllPairsObjective(self.loss, **(self.loss_params or {}))
        metric = EngineMetric(self.eval_metric, self.engine)
        return T, lr, depth, es, obj, metric

    def fit(self, X, y, sample_weight=None, eval_set=None, eval_sample_weight=None):
        """Fit on ``X`` (n, d), binary ``y``, optional ``sample_weight``.

        ``eval_set``: a list of ``(X, y)`` pairs whose ``eval_metric`` is recorded per round
        (``evals_result_``); early stopping watches the last one. ``eval_sample_weight``:
        a list of weight arrays (or None) of the same length.
        """
        T, lr, depth, es, obj, metric = self._check_params()
        # Missing values (NaN) are the engines' business: both learn a default branch for them.
        # float32 input stays float32 (the engines store features as float32 anyway; a float64
        # copy of a large X only costs memory and the engines' data preparation time).
        X, y = validate_data(self, X, y, accept_sparse=["csr", "csc"], dtype=_FEATURE_DTYPES,
                             ensure_all_finite="allow-nan")
        self.classes_ = binary_classes(y, type(self).__name__)
        _check_float32_range(X, type(self).__name__)
        is_pos = y == self.classes_[1]
        sw = _check_sample_weight(sample_weight, X, dtype=np.float64, ensure_non_negative=True)
        if not (sw[is_pos].sum() > 0 and sw[~is_pos].sum() > 0):
            raise ValueError(f"{type(self).__name__}: each class needs positive total sample weight.")
        evals = []
        for k, pair in enumerate(eval_set or []):
            if not (isinstance(pair, (tuple, list)) and len(pair) == 2):
                raise ValueError(f"eval_set must be a list of (X, y) pairs; item {k} is not.")
            Xe = validate_data(self, pair[0], accept_sparse=["csr", "csc"], dtype=_FEATURE_DTYPES, reset=False,
                               ensure_all_finite="allow-nan")
            ye = np.asarray(pair[1])
            check_same_length(Xe.shape[0], ye.shape[0])
            we = None if eval_sample_weight is None else eval_sample_weight[k]
            evals.append((Xe, (ye == self.classes_[1]).astype(np.float64), we))
        if es is not None and not evals:
            raise ValueError("early_stopping_rounds needs an eval_set to watch.")
        label = is_pos.astype(np.float64)
        weight = None if np.all(sw == 1.0) else sw
        extra = dict(self.engine_params or {})
        self.evals_result_ = {}
        if self.engine == "xgboost":
            xgb = _engine("xgboost")
            params = {"eta": lr, "base_score": 0.0, "disable_default_eval_metric": 1, "tree_method": "hist"}
            if depth is not None:
                params["max_depth"] = depth
            if self.n_jobs is not None:
                params["nthread"] = int(self.n_jobs)
            if self.random_state is not None:
                params["seed"] = int(self.random_state)
            params.update(extra)
            dtrain = xgb.DMatrix(X, label=label, weight=weight)
            dev = [(xgb.DMatrix(Xe, label=ye, weight=we), f"eval_{k}") for k, (Xe, ye, we) in enumerate(evals)]
            callbacks = []
            if es is not None:
                callbacks.append(xgb.callback.EarlyStopping(rounds=es, metric_name=metric.name,
                                                            maximize=metric.maximize, save_best=True))
            self.booster_ = xgb.train(params, dtrain, num_boost_round=T, obj=obj, evals=dev,
                                      custom_metric=metric if dev else None, evals_result=self.evals_result_,
                                      callbacks=callbacks, verbose_eval=False)
            self.n_estimators_ = int(self.booster_.num_boosted_rounds())
        else:
            lgb = _engine("lightgbm")
            # feature_pre_filter off: on a small sample LightGBM would otherwise drop every
            # feature that min_data_in_leaf cannot split, and then fail to train at all.
            params = {"objective": obj, "metric": "None", "learning_rate": lr, "verbose": -1,
                      "feature_pre_filter": False}
            if depth is not None:
                params["max_depth"] = depth
                params["num_leaves"] = 2 ** depth
            if self.n_jobs is not None:
                params["num_threads"] = int(self.n_jobs)
            if self.random_state is not None:
                params["seed"] = int(self.random_state)
            params.update(extra)
            dtrain = lgb.Dataset(X, label=label, weight=weight, free_raw_data=False)
            dev = [lgb.Dataset(Xe, label=ye, weight=we, reference=dtrain) for Xe, ye, we in evals]
            callbacks = [lgb.record_evaluation(self.evals_result_)] if dev else []
            if es is not None:
                callbacks.append(lgb.early_stopping(es, verbose=False))
            self.booster_ = lgb.train(params, dtrain, num_boost_round=T, valid_sets=dev,
                                      valid_names=[f"eval_{k}" for k in range(len(dev))],
                                      feval=metric if dev else None, callbacks=callbacks)
            best = int(self.booster_.best_iteration or 0)
            self.n_estimators_ = best if es is not None and best > 0 else int(self.booster_.current_iteration())
        self.objective_ = np.asarray(obj.history_[:self.n_estimators_], dtype=np.float64)
        self.intercept_ = 0.0
        raw = self._raw_scores(X)
        warn_if_degenerate(self, X, raw, is_pos, sw)
        self.intercept_ = threshold_offset(raw, is_pos, sw)
        return self

    # --- scoring -----------------------------------------------------------------------------

    def _raw_scores(self, X) -> np.ndarray:
        if self.engine == "xgboost":
            xgb = _engine("xgboost")
            out = self.booster_.predict(xgb.DMatrix(X), output_margin=True,
                                        iteration_range=(0, self.n_estimators_))
        else:
            out = self.booster_.predict(X, raw_score=True, num_iteration=self.n_estimators_)
        return np.asarray(out, dtype=np.float64).ravel()

    def decision_function(self, X) -> np.ndarray:
        """The learned scores (the engine's raw score plus ``intercept_``): higher = more likely ``classes_[1]``."""
        check_is_fitted(self, "booster_")
        X = validate_data(self, X, accept_sparse=["csr", "csc"], dtype=_FEATURE_DTYPES, reset=False,
                          ensure_all_finite="allow-nan")
        _check_float32_range(X, type(self).__name__)
        return self._raw_scores(X) + self.intercept_

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = True
        return tags

    def predict(self, X) -> np.ndarray:
        """``classes_[1]`` where ``decision_function`` is positive, else ``classes_[0]``."""
        s = self.decision_function(X)
        return self.classes_[(s > 0).astype(int)]

    # --- the safe model format (rankwise.save_model / load_model) ---------------------------

    def _get_model_state(self):
        check_is_fitted(self, "booster_")
        attrs = common_state(self)
        attrs["n_estimators_"] = int(self.n_estimators_)
        if self.engine == "xgboost":
            raw = bytes(self.booster_.save_raw(raw_format="json"))
        else:
            raw = self.booster_.model_to_string(num_iteration=-1).encode("utf-8")
        arrays = {"booster_": np.frombuffer(raw, dtype=np.uint8).copy(),
                  "objective_": np.asarray(self.objective_, dtype=np.float64)}
        return attrs, arrays

    def _set_model_state(self, attributes, arrays):
        name = type(self).__name__
        attributes, arrays = dict(attributes), dict(arrays)
        need_attrs = {"intercept_", "n_features_in_", "classes_", "n_estimators_"}
        if not (need_attrs <= set(attributes) <= need_attrs | {"feature_names_in_"}) or set(arrays) != {
                "booster_", "objective_"}:
            raise ValueError(f"{name} model state has unexpected fields: attributes {sorted(attributes)}, "
                             f"arrays {sorted(arrays)}.")
        raw = np.asarray(arrays["booster_"])
        if raw.dtype != np.uint8 or raw.ndim != 1:
            raise ValueError(f"{name} model state: booster_ must be a 1-d uint8 array (the engine's model bytes).")
        T = attributes["n_estimators_"]
        if isinstance(T, bool) or not isinstance(T, int) or T < 0:
            raise ValueError(f"{name} model state: n_estimators_ must be an int >= 0.")
        if self.engine not in _ENGINES:
            raise ValueError(f"{name} model state: engine must be 'xgboost' or 'lightgbm'.")
        try:
            leaves = _leaf_values(self.engine, raw.tobytes())
        except (ValueError, KeyError, TypeError, UnicodeDecodeError) as exc:
            raise ValueError(f"{name} model state: booster_ is not a valid {self.engine} model ({exc}).") from None
        if not np.all(np.isfinite(leaves)):
            raise ValueError(f"{name} model state: booster_ holds leaf values that are not finite.")
        restore_common_state(self, attributes)
        if self.engine == "xgboost":
            xgb = _engine("xgboost")
            booster = xgb.Booster()
            try:
                booster.load_model(bytearray(raw.tobytes()))
            except xgb.core.XGBoostError as exc:
                raise ValueError(f"{name} model state: booster_ is not a valid XGBoost model ({exc}).") from None
            if booster.num_boosted_rounds() < T or booster.num_features() != self.n_features_in_:
                raise ValueError(f"{name} model state: the XGBoost model does not match n_estimators_ / n_features_in_.")
        else:
            lgb = _engine("lightgbm")
            try:
                booster = lgb.Booster(model_str=raw.tobytes().decode("utf-8"))
            except (lgb.basic.LightGBMError, UnicodeDecodeError) as exc:
                raise ValueError(f"{name} model state: booster_ is not a valid LightGBM model ({exc}).") from None
            if booster.current_iteration() < T or booster.num_feature() != self.n_features_in_:
                raise ValueError(f"{name} model state: the LightGBM model does not match n_estimators_ / n_features_in_.")
        self.booster_ = booster
        self.n_estimators_ = int(T)
        self.objective_ = np.asarray(arrays["objective_"], dtype=np.float64).copy()
        self.evals_result_ = {}
