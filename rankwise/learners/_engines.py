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
import re
import warnings
from typing import Any

import numpy as np
from scipy.special import logsumexp
from sklearn.base import BaseEstimator
from sklearn.utils.validation import _check_sample_weight, check_is_fitted, validate_data

from .. import criteria
from ..io import register_model
from ..losses import pairwise
from ..metrics import compute
from .._labels import BINARY, kind_of
from .._validation import check_param, check_same_length, check_sample_weight, check_scores
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
        is_pos, _ = BINARY.read(y_true)
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
        if kind_of(unit).name != "binary":
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


# --------------------------------------------------------------------------------------
# The engines' model bytes from a file, checked before the engine reads them
# --------------------------------------------------------------------------------------
#
# XGBoost and LightGBM trust their own model files: a child index out of range, a cycle or
# a split on a feature the data does not have makes their predictors read out of bounds
# (a crash) or loop forever. A model file is not trusted here, so each tree is checked as a
# tree first: children in range, every node reached exactly once from the root (acyclic and
# connected), split features within n_features_in_, finite thresholds and leaf values,
# array lengths equal to the declared sizes. The payload is parsed without one Python
# object per number: numeric arrays go straight into numpy arrays, chunk by chunk, so that
# the check's memory stays a small multiple of the payload's size.

_CHUNK = 1 << 20                      # bytes of numbers parsed at a time
_INT32_MAX = 2 ** 31 - 1
_XGB_ROOT_PARENT = (2 ** 31 - 1, -1)  # how XGBoost writes the root's parent
_LGB_MAX_LEAVES = 131072              # LightGBM's own upper bound on num_leaves
_MAX_STRING = 256
_WS = re.compile(rb"[ \t\r\n]*")
_JSON_STR = re.compile(rb'"([^"\\\x00-\x1f]{0,256})"')
_JSON_INT = re.compile(rb"-?(?:0|[1-9][0-9]{0,9})")
_INT_BODY = re.compile(rb"[-0-9, \t\r\n]*")
_FLOAT_BODY = re.compile(rb"[-+0-9.eENaIinfty, \t\r\n]*")
_LGB_INTS = re.compile(rb"-?[0-9]{1,10}(?: -?[0-9]{1,10})*")
_LGB_FLOATS = re.compile(rb"[-+0-9.eEnaifNAIF]+(?: [-+0-9.eEnaifNAIF]+)*")
_LGB_NAMES = re.compile(rb"[A-Za-z0-9_.\-]{1,256}(?: [A-Za-z0-9_.\-]{1,256})*")
_LGB_INFOS = re.compile(rb"[-+0-9.eEnoaif\[\]:]{1,256}(?: [-+0-9.eEnoaif\[\]:]{1,256})*")


def _numbers(buf: bytes, start: int, end: int, dtype, sep: bytes, what: str) -> np.ndarray:
    """The numbers in ``buf[start:end]``, separated by ``sep``, as an array of ``dtype``
    (int32 or float32/float64), parsed a chunk at a time: no Python object per number, and
    an integer that does not fit int32 is refused rather than wrapped."""
    body = _INT_BODY if np.dtype(dtype).kind == "i" else _FLOAT_BODY
    if not body.fullmatch(buf, start, end):
        raise ValueError(f"{what} holds something other than numbers")
    if _WS.fullmatch(buf, start, end):
        return np.zeros(0, dtype=dtype)
    out = np.empty(buf.count(sep, start, end) + 1, dtype=dtype)
    k, pos = 0, start
    wide = np.int64 if out.dtype.kind == "i" else np.float64
    while True:
        cut = end if end - pos <= _CHUNK else buf.find(sep, pos + _CHUNK, end)
        cut = end if cut < 0 else cut
        expected = buf.count(sep, pos, cut) + 1
        with warnings.catch_warnings():
            warnings.simplefilter("error", DeprecationWarning)
            try:
                part = np.fromstring(buf[pos:cut], dtype=wide, sep=sep.decode())
            except DeprecationWarning:
                part = None
        if part is None or part.size != expected:
            raise ValueError(f"{what} holds something other than a list of numbers")
        if wide is np.int64:
            if part.size and (part.min() < -_INT32_MAX - 1 or part.max() > _INT32_MAX):
                raise ValueError(f"{what} holds an integer beyond int32")
            out[k:k + part.size] = part
        else:
            with np.errstate(over="ignore"):
                out[k:k + part.size] = part
        k += part.size
        if cut >= end:
            break
        pos = cut + 1
    return out


class _JsonReader:
    """A reader of XGBoost's JSON model that follows the format's own layout: objects
    with known keys, arrays of numbers (into numpy), short plain strings. Anything else,
    a duplicate key or a missing one is a ValueError."""

    def __init__(self, buf: bytes) -> None:
        self.buf, self.i = buf, 0

    def fail(self, what: str) -> ValueError:
        return ValueError(f"{what} (at byte {self.i})")

    def peek(self) -> bytes:
        self.i = _WS.match(self.buf, self.i).end()
        return self.buf[self.i:self.i + 1]

    def take(self, ch: bytes) -> None:
        if self.peek() != ch:
            raise self.fail(f"expected {ch.decode()!r}")
        self.i += 1

    def string(self) -> str:
        self.peek()
        m = _JSON_STR.match(self.buf, self.i)
        if m is None:
            raise self.fail(f"expected a plain string of at most {_MAX_STRING} characters")
        self.i = m.end()
        try:
            return m.group(1).decode("utf-8")
        except UnicodeDecodeError:
            raise self.fail("a string that is not UTF-8") from None

    def scalar(self):
        self.peek()
        m = _JSON_INT.match(self.buf, self.i)
        if m is None:
            raise self.fail("expected an integer")
        self.i = m.end()
        return json.loads(m.group())

    def numbers(self, dtype, what: str) -> np.ndarray:
        self.take(b"[")
        end = self.buf.find(b"]", self.i)
        if end < 0:
            raise self.fail(f"{what} is not closed")
        start, self.i = self.i, end + 1
        return _numbers(self.buf, start, end, dtype, b",", what)

    def empty_list(self, what: str) -> None:
        self.take(b"[")
        if self.peek() != b"]":
            raise self.fail(f"{what} must be an empty list")
        self.i += 1

    def items(self, what: str, keys: set, optional: frozenset = frozenset()):
        """Each key of an object (among ``keys``, each exactly once), the reader placed at
        its value: the caller reads the value."""
        self.take(b"{")
        seen: set = set()
        while self.peek() != b"}":
            if seen:
                self.take(b",")
            key = self.string()
            if key not in keys and key not in optional:
                raise self.fail(f"{what} has an unexpected key {key!r}")
            if key in seen:
                raise self.fail(f"{what} has the key {key!r} twice")
            seen.add(key)
            self.take(b":")
            yield key
        self.i += 1
        if not keys <= seen:
            raise self.fail(f"{what} lacks {sorted(keys - seen)}")

    def str_dict(self, what: str, keys: set, optional: bool = False) -> dict:
        """An object of string values; with ``optional`` any subset of ``keys``."""
        out = {}
        self.take(b"{")
        while self.peek() != b"}":
            if out:
                self.take(b",")
            key = self.string()
            if key not in keys or key in out:
                raise self.fail(f"{what} has an unexpected or repeated key {key!r}")
            self.take(b":")
            out[key] = self.string()
        self.i += 1
        if not optional and set(out) != keys:
            raise self.fail(f"{what} lacks {sorted(keys - set(out))}")
        return out


def _int_text(value: str, what: str, low: int = 0, high: int = _INT32_MAX) -> int:
    if not re.fullmatch(r"[0-9]{1,10}", value) or not low <= int(value) <= high:
        raise ValueError(f"{what} must be an integer in [{low}, {high}]; got {value!r}")
    return int(value)


def _check_tree_links(left: np.ndarray, right: np.ndarray, n_inner: int, n_leaf: int, what: str) -> None:
    """Each node of a binary tree reached exactly once from the root (node 0), so the tree
    is connected and has no cycle. ``left``/``right`` hold the children of the inner nodes
    as node numbers: inner nodes in [0, n_inner), leaves in [n_inner, n_inner + n_leaf)."""
    n = n_inner + n_leaf
    kids = np.concatenate([left, right]).astype(np.int64)
    if kids.size and (kids.min() < 1 or kids.max() >= n):
        raise ValueError(f"{what}: a child index is out of range")
    if not np.array_equal(np.bincount(kids, minlength=n)[1:], np.ones(n - 1, dtype=np.int64)):
        raise ValueError(f"{what}: a node is the child of no node or of several (not a tree)")
    # every node but the root has one parent: the tree is acyclic iff every node's chain of
    # parents ends at the root, checked by pointer doubling in O(n log n)
    parent = np.zeros(n, dtype=np.int64)
    parent[left] = np.arange(left.size)
    parent[right] = np.arange(right.size)
    for _ in range(max(1, int(n).bit_length())):
        parent = parent[parent]
    if np.any(parent != 0):
        raise ValueError(f"{what}: the nodes do not form one tree (a cycle or an unreachable node)")


_XGB_TREE_KEYS = {"base_weights", "categories", "categories_nodes", "categories_segments", "categories_sizes",
                  "default_left", "id", "left_children", "loss_changes", "parents", "right_children",
                  "split_conditions", "split_indices", "split_type", "sum_hessian", "tree_param"}
_XGB_NODE_FLOATS = ("base_weights", "loss_changes", "split_conditions", "sum_hessian")
_XGB_NODE_INTS = ("default_left", "left_children", "parents", "right_children", "split_indices", "split_type")


def _xgb_tree(r: _JsonReader, k: int, d: int) -> None:
    what = f"tree {k}"
    f: dict = {}
    for key in r.items(what, _XGB_TREE_KEYS):
        if key == "id":
            f[key] = r.scalar()
        elif key == "tree_param":
            f[key] = r.str_dict(f"{what}'s tree_param", {"num_deleted", "num_feature", "num_nodes", "size_leaf_vector"})
        elif key in _XGB_NODE_FLOATS:
            f[key] = r.numbers(np.float32, f"{what}'s {key}")
        else:
            f[key] = r.numbers(np.int32, f"{what}'s {key}")
    if f["id"] != k:
        raise ValueError(f"{what} has id {f['id']!r}")
    tp = f["tree_param"]
    n = _int_text(tp["num_nodes"], f"{what}'s num_nodes", 1)
    if _int_text(tp["num_feature"], f"{what}'s num_feature") != d:
        raise ValueError(f"{what} is declared for {tp['num_feature']} features, not n_features_in_ = {d}")
    if tp["num_deleted"] != "0" or tp["size_leaf_vector"] not in ("0", "1"):
        raise ValueError(f"{what}: deleted nodes or vector leaves are not supported")
    for key in _XGB_NODE_FLOATS + _XGB_NODE_INTS:
        if f[key].size != n:
            raise ValueError(f"{what}'s {key} has {f[key].size} entries for num_nodes = {n}")
    if any(f[key].size for key in ("categories", "categories_nodes", "categories_segments", "categories_sizes")) \
            or np.any(f["split_type"] != 0):
        raise ValueError(f"{what} has categorical splits, which are not supported here")
    left, right = f["left_children"], f["right_children"]
    leaf = left == -1
    if not np.array_equal(leaf, right == -1):
        raise ValueError(f"{what}: a node has one child only")
    if np.any(~np.isin(f["default_left"], (0, 1))):
        raise ValueError(f"{what}'s default_left must hold 0 or 1")
    idx = f["split_indices"]
    if idx.size and (idx.min() < 0 or idx.max() >= d):
        raise ValueError(f"{what} splits on a feature beyond n_features_in_ = {d}")
    # renumber so that the inner nodes come first, as _check_tree_links expects
    order = np.concatenate([np.flatnonzero(~leaf), np.flatnonzero(leaf)])
    if order[0] != 0:
        if n > 1:
            raise ValueError(f"{what}: the root is a leaf but the tree has other nodes")
    else:
        rank = np.empty(n, dtype=np.int64)
        rank[order] = np.arange(n)
        inner = ~leaf
        if np.any(left[inner] < 0) or np.any(right[inner] < 0) or np.any(left[inner] >= n) or np.any(right[inner] >= n):
            raise ValueError(f"{what}: a child index is out of range")
        _check_tree_links(rank[left[inner]], rank[right[inner]], int(inner.sum()), int(leaf.sum()), what)
        parents = f["parents"].astype(np.int64)
        expected = np.empty(n, dtype=np.int64)
        expected[left[inner]] = np.flatnonzero(inner)
        expected[right[inner]] = np.flatnonzero(inner)
        if not np.array_equal(parents[1:], expected[1:]) or int(parents[0]) not in _XGB_ROOT_PARENT:
            raise ValueError(f"{what}'s parents do not match its children")
    for key in _XGB_NODE_FLOATS:
        if not np.all(np.isfinite(f[key])):
            if key == "split_conditions" and not np.all(np.isfinite(f[key][leaf])):
                raise ValueError("leaf values that are not finite")
            raise ValueError(f"{what}'s {key} holds values that are not finite")


def _xgb_trees_model(r: _JsonReader, d: int) -> tuple[int, int]:
    """The ``model`` object of a gbtree booster: its number of trees and of rounds."""
    n_trees = 0
    indptr = info = None
    params = None
    # cats and iteration_indptr are written by XGBoost >= 2 / 3 only
    for key in r.items("the gbtree model", {"gbtree_model_param", "tree_info", "trees"},
                       optional=frozenset({"cats", "iteration_indptr"})):
        if key == "cats":
            for sub in r.items("the model's categories", {"enc", "feature_segments", "sorted_idx"}):
                r.empty_list(f"{sub} (categorical features are not supported here)")
        elif key == "gbtree_model_param":
            params = r.str_dict("gbtree_model_param", {"num_parallel_tree", "num_trees"})
        elif key == "iteration_indptr":
            indptr = r.numbers(np.int32, "iteration_indptr")
        elif key == "tree_info":
            info = r.numbers(np.int32, "tree_info")
        else:
            r.take(b"[")
            while r.peek() != b"]":
                if n_trees:
                    r.take(b",")
                _xgb_tree(r, n_trees, d)
                n_trees += 1
            r.i += 1
    if _int_text(params["num_trees"], "num_trees") != n_trees:
        raise ValueError(f"num_trees is {params['num_trees']} for {n_trees} trees")
    if info.size != n_trees or np.any(info != 0):
        raise ValueError("tree_info must give output group 0 to each tree (one output)")
    per_round = _int_text(params["num_parallel_tree"], "num_parallel_tree", 1)
    if indptr is None:
        if n_trees % per_round:
            raise ValueError("the trees are not a whole number of rounds of num_parallel_tree trees")
        return n_trees, n_trees // per_round
    if (indptr.size < 1 or indptr[0] != 0 or indptr[-1] != n_trees or np.any(np.diff(indptr) < 1)):
        raise ValueError("iteration_indptr does not split the trees into rounds")
    return n_trees, int(indptr.size - 1)


def _check_xgboost_json(raw: bytes, d: int) -> int:
    """Check XGBoost's JSON model (``Booster.save_raw("json")``) of a single-output
    gbtree or dart booster on ``d`` features; return its number of boosting rounds."""
    r = _JsonReader(raw)
    rounds = None
    for key in r.items("the model", {"learner", "version"}):
        if key == "version":
            if r.numbers(np.int32, "version").size != 3:
                raise r.fail("version must be three integers")
            continue
        for lk in r.items("the learner", {"attributes", "feature_names", "feature_types", "gradient_booster",
                                          "learner_model_param", "objective"}):
            if lk == "attributes":
                attrs = r.str_dict("the learner's attributes", {"best_iteration", "best_score"}, optional=True)
                if "best_iteration" in attrs:
                    _int_text(attrs["best_iteration"], "best_iteration")
                if "best_score" in attrs and not np.isfinite(_float_text(attrs["best_score"], "best_score")):
                    raise ValueError("best_score is not finite")
            elif lk in ("feature_names", "feature_types"):
                r.empty_list(f"{lk} (the features are named by feature_names_in_)")
            elif lk == "learner_model_param":
                p = r.str_dict("learner_model_param", {"base_score", "boost_from_average", "num_class", "num_feature",
                                                        "num_target"})
                base = p["base_score"]
                base = base[1:-1] if base.startswith("[") and base.endswith("]") else base
                if "," in base or not abs(_float_text(base, "base_score")) <= _FLOAT32_MAX:  # XGBoost: float32
                    raise ValueError(f"base_score must be one finite number; got {p['base_score']!r}")
                if (p["num_class"] not in ("0", "1") or p["num_target"] != "1"
                        or p["boost_from_average"] not in ("0", "1")):
                    raise ValueError("only single-output models are supported (num_class, num_target)")
                if _int_text(p["num_feature"], "num_feature") != d:
                    raise ValueError(f"the model is declared for {p['num_feature']} features, not n_features_in_ = {d}")
            elif lk == "objective":
                # the margin (output_margin=True) is what is scored; XGBoost maps base_score
                # through the objective's link on loading, so only the identity link is taken
                for ok in r.items("the objective", {"name", "reg_loss_param"}):
                    if ok == "name":
                        if r.string() != "reg:squarederror":
                            raise r.fail("the objective must be 'reg:squarederror' (what a custom objective saves)")
                    else:
                        sp = r.str_dict("reg_loss_param", {"scale_pos_weight"})["scale_pos_weight"]
                        if not np.isfinite(_float_text(sp, "scale_pos_weight")):
                            raise ValueError("scale_pos_weight is not finite")
            else:
                try:
                    rounds = _xgb_booster(r, d)
                except ValueError:
                    if re.search(rb'"name"\s*:\s*"gblinear"', raw):
                        raise ValueError("a gblinear booster, which is not supported here (gbtree or dart)") from None
                    raise
    if r.peek() != b"":
        raise r.fail("bytes after the model")
    return rounds


def _xgb_booster(r: _JsonReader, d: int) -> int:
    r.take(b"{")
    # the key order XGBoost writes: gbtree {"model", "name"}, dart {"gbtree", "name", "weight_drop"}
    key = r.string()
    r.take(b":")
    if key == "model":
        _, rounds = _xgb_gbtree(r, d, "the booster must be 'gbtree' or 'dart'")
    elif key == "gbtree":
        r.take(b"{")
        if r.string() != "model":
            raise r.fail("expected the dart booster's model")
        r.take(b":")
        n_trees, rounds = _xgb_gbtree(r, d, "the dart booster must hold a 'gbtree'")
        r.take(b"}")
        r.take(b",")
        if r.string() != "name":
            raise r.fail("expected the booster's name")
        r.take(b":")
        if r.string() != "dart":
            raise r.fail("the booster must be 'gbtree' or 'dart'")
        r.take(b",")
        if r.string() != "weight_drop":
            raise r.fail("expected the dart booster's weight_drop")
        r.take(b":")
        w = r.numbers(np.float32, "weight_drop")
        if w.size != n_trees or not np.all(np.isfinite(w)):
            raise ValueError("the dart booster's weight_drop must hold one finite weight per tree")
    else:
        raise r.fail(f"unsupported booster layout {key!r} (a gbtree or dart booster is expected; "
                     "gblinear is not supported)")
    r.take(b"}")
    return rounds


def _xgb_gbtree(r: _JsonReader, d: int, wrong_name: str) -> tuple[int, int]:
    """A gbtree booster's members after its ``"model":`` key: the trees model, then
    ``"name": "gbtree"`` (``wrong_name`` the refusal of another name); ``(trees, rounds)``."""
    n_trees, rounds = _xgb_trees_model(r, d)
    r.take(b",")
    if r.string() != "name":
        raise r.fail("expected the booster's name")
    r.take(b":")
    if r.string() != "gbtree":
        raise r.fail(wrong_name)
    return n_trees, rounds


def _float_text(value: str, what: str) -> float:
    if not re.fullmatch(r"[-+]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?|[-+]?(?:nan|inf|NaN|Infinity)", value):
        raise ValueError(f"{what} must be a number; got {value!r}")
    return float(value.replace("Infinity", "inf"))


# LightGBM's text model, line by line

_LGB_TREE_INTS = ("split_feature", "decision_type", "left_child", "right_child", "internal_count", "leaf_count")
_LGB_TREE_FLOATS = ("split_gain", "threshold", "internal_value", "internal_weight", "leaf_value", "leaf_weight")
_LGB_TREE_KEYS = {"num_leaves", "num_cat", "is_linear", "shrinkage", "cat_boundaries", "cat_threshold",
                  *_LGB_TREE_INTS, *_LGB_TREE_FLOATS}


def _lgb_lines(raw: bytes):
    """``(line number, bytes)`` of each line, without building them all at once."""
    pos, k = 0, 0
    while pos < len(raw):
        end = raw.find(b"\n", pos)
        end = len(raw) if end < 0 else end
        yield k, raw[pos:end].rstrip(b"\r")
        pos, k = end + 1, k + 1


def _lgb_array(value: bytes, n: int, kind: str, what: str) -> np.ndarray:
    if n == 0:
        if value:
            raise ValueError(f"{what} must be empty")
        return np.zeros(0, dtype=np.int64 if kind == "i" else np.float64)
    if value.count(b" ") + 1 != n:
        raise ValueError(f"{what} has {value.count(b' ') + 1} entries, not {n}")
    if not (_LGB_INTS if kind == "i" else _LGB_FLOATS).fullmatch(value):
        raise ValueError(f"{what} is not a list of numbers")
    dtype = np.int64 if kind == "i" else np.float64
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)
        try:
            out = np.fromstring(value, dtype=dtype, sep=" ")
        except DeprecationWarning:
            raise ValueError(f"{what} is not a list of numbers") from None
    if out.size != n:
        raise ValueError(f"{what} has {out.size} entries, not {n}")
    return out


def _lgb_tree_text(k: int, f: dict, d: int) -> str:
    """Check one tree's fields (``name -> bytes``) and write it back in LightGBM's layout."""
    what = f"tree {k}"
    missing = sorted({"num_leaves", "num_cat", "leaf_value", "shrinkage", *_LGB_TREE_INTS, *_LGB_TREE_FLOATS}
                     - set(f))
    if missing:
        raise ValueError(f"{what} lacks {missing}")
    L = _int_text(f["num_leaves"].decode("ascii", "replace"), f"{what}'s num_leaves", 1, _LGB_MAX_LEAVES)
    C = _int_text(f["num_cat"].decode("ascii", "replace"), f"{what}'s num_cat", 0, _LGB_MAX_LEAVES)
    if f.get("is_linear", b"0") != b"0":
        raise ValueError(f"{what} is a linear tree (linear_tree), which is not supported here")
    a = {}
    for key in _LGB_TREE_INTS + _LGB_TREE_FLOATS:
        n = L if key.startswith("leaf_") else L - 1
        if key == "leaf_weight" and L == 1 and not f[key]:
            n = 0   # LightGBM writes no leaf weight for a tree of one leaf
        a[key] = _lgb_array(f[key], n, "i" if key in _LGB_TREE_INTS else "f", f"{what}'s {key}")
    shrinkage = _float_text(f["shrinkage"].decode("ascii", "replace"), f"{what}'s shrinkage")
    for key in _LGB_TREE_FLOATS:
        if not np.all(np.isfinite(a[key])):
            if key == "leaf_value":
                raise ValueError("leaf values that are not finite")
            raise ValueError(f"{what}'s {key} holds values that are not finite")
    if not np.isfinite(shrinkage):
        raise ValueError(f"{what}'s shrinkage is not finite")
    if L > 1:
        sf = a["split_feature"]
        if sf.min() < 0 or sf.max() >= d:
            raise ValueError(f"{what} splits on a feature beyond n_features_in_ = {d}")
        dt = a["decision_type"]
        if dt.min() < 0 or dt.max() > 11 or np.any((dt >> 2) == 3):
            raise ValueError(f"{what}'s decision_type holds an unknown value")
        # children: an inner node i in [0, L - 1) is written i, a leaf j in [0, L) is ~j
        for c in (a["left_child"], a["right_child"]):
            if c.min() < -L or c.max() >= L - 1:
                raise ValueError(f"{what}: a child index is out of range")
        nodes = [np.where(c >= 0, c, (L - 1) + ~c) for c in (a["left_child"], a["right_child"])]
        # _check_tree_links wants node 0 the root and every other node a child: the leaves
        # are numbered after the inner nodes; the root is inner node 0
        _check_tree_links(nodes[0], nodes[1], L - 1, L, what)
        cat = (dt & 1) == 1
    else:
        cat = np.zeros(0, dtype=bool)
    lines = [f"Tree={k}", f"num_leaves={L}", f"num_cat={C}"]
    if C or np.any(cat):
        if "cat_boundaries" not in f or "cat_threshold" not in f:
            raise ValueError(f"{what} has categorical splits without cat_boundaries and cat_threshold")
        bounds = _lgb_array(f.get("cat_boundaries", b""), C + 1, "i", f"{what}'s cat_boundaries")
        if C == 0 or bounds[0] != 0 or np.any(np.diff(bounds) < 1):
            raise ValueError(f"{what}'s categorical splits are inconsistent (num_cat, cat_boundaries)")
        words = _lgb_array(f.get("cat_threshold", b""), int(bounds[-1]), "i", f"{what}'s cat_threshold")
        if words.min() < 0 or words.max() >= 2 ** 32:
            raise ValueError(f"{what}'s cat_threshold holds a value beyond uint32")
        thr = a["threshold"][cat]
        if (cat.sum() != C or np.any(thr != np.floor(thr)) or np.any(thr < 0) or np.any(thr >= C)
                or np.unique(thr).size != C):
            raise ValueError(f"{what}: a categorical split's threshold is not one of its num_cat = {C} category sets")
    elif "cat_boundaries" in f or "cat_threshold" in f:
        raise ValueError(f"{what} has category sets without categorical splits")
    for key in ("split_feature", "split_gain", "threshold", "decision_type", "left_child", "right_child",
                "leaf_value", "leaf_weight", "leaf_count", "internal_value", "internal_weight", "internal_count"):
        arr = a[key].tolist()
        lines.append(f"{key}=" + " ".join(map(repr if key in _LGB_TREE_FLOATS else str, arr)))
    if C:
        lines.append("cat_boundaries=" + " ".join(map(str, bounds.tolist())))
        lines.append("cat_threshold=" + " ".join(map(str, words.tolist())))
    lines += ["is_linear=0", f"shrinkage={shrinkage!r}", "", ""]
    return "\n".join(lines)


def _check_lightgbm_text(raw: bytes, d: int) -> tuple[str, int]:
    """Check LightGBM's text model (``Booster.model_to_string()``) of a single-output
    booster on ``d`` features; return it rewritten from the checked values only (no
    ``parameters:`` section, no feature importances: nothing the engine would read besides
    the trees) and its number of iterations."""
    if raw.count(b"\n") > 1000 + 40 * raw.count(b"Tree="):
        raise ValueError("more lines than a model of its trees has")
    header: dict = {}
    trees: list = []
    current = None
    lines = _lgb_lines(raw)
    for k, line in lines:
        if k == 0:
            if line != b"tree":
                raise ValueError("the first line must be 'tree'")
            continue
        if line == b"end of trees":
            break
        if not line:
            continue
        key, eq, value = line.partition(b"=")
        key = key.decode("ascii", "replace")
        if key == "Tree":
            if current is not None:
                trees.append(_lgb_tree_text(len(trees), current, d))
            if value != str(len(trees)).encode():
                raise ValueError(f"tree {len(trees)} is numbered {value[:20]!r}")
            current = {}
        elif current is not None:
            if key in ("leaf_const", "num_features", "leaf_features", "leaf_coeff"):
                raise ValueError(f"tree {len(trees)} is a linear tree (linear_tree), which is not supported here")
            if key not in _LGB_TREE_KEYS or not eq:
                raise ValueError(f"tree {len(trees)} has an unexpected line {line[:40]!r}")
            if key in current:
                raise ValueError(f"tree {len(trees)} has the key {key!r} twice")
            current[key] = value
        else:
            if key in header:
                raise ValueError(f"the header has the key {key!r} twice")
            header[key] = value
    else:
        raise ValueError("the model has no 'end of trees' line")
    if current is not None:
        trees.append(_lgb_tree_text(len(trees), current, d))
    known = {"version", "num_class", "num_tree_per_iteration", "label_index", "max_feature_idx", "objective",
             "feature_names", "feature_infos", "tree_sizes", "monotone_constraints"}
    unknown = sorted(set(header) - known)
    if unknown:
        raise ValueError(f"the header has unexpected keys {unknown[:3]} (average_output, linear trees and "
                         f"multi-class models are not supported here)")
    if header.get("version") not in (b"v2", b"v3", b"v4"):
        raise ValueError("unknown model version")
    for key in ("num_class", "num_tree_per_iteration"):
        if header.get(key) != b"1":
            raise ValueError(f"{key} must be 1 (one output)")
    if header.get("label_index", b"0") != b"0":
        raise ValueError("label_index must be 0")
    if header.get("max_feature_idx") != str(d - 1).encode():
        raise ValueError(f"max_feature_idx must be n_features_in_ - 1 = {d - 1}")
    names, infos = header.get("feature_names", b""), header.get("feature_infos", b"")
    for key, value, pattern in (("feature_names", names, _LGB_NAMES), ("feature_infos", infos, _LGB_INFOS)):
        if not pattern.fullmatch(value) or value.count(b" ") != d - 1:
            raise ValueError(f"{key} must be {d} plain words")
    if "tree_sizes" in header:
        sizes = _lgb_array(header["tree_sizes"], len(trees), "i", "tree_sizes")  # the count must agree
        if np.any(sizes < 1):
            raise ValueError("tree_sizes must be positive")
    text = "".join(["tree\nversion=v4\nnum_class=1\nnum_tree_per_iteration=1\nlabel_index=0\n",
                    f"max_feature_idx={d - 1}\n", "feature_names=", names.decode("ascii"), "\n",
                    "feature_infos=", infos.decode("ascii"), "\n\n", *trees,
                    "end of trees\n\npandas_categorical:null\n"])
    return text, len(trees)


def _check_booster(engine: str, raw: bytes, d: int) -> tuple[bytes, int]:
    """The engine's model bytes checked (see above) for ``d`` features, as the engine is to
    read them, and the number of boosting rounds it holds; a ValueError otherwise."""
    if engine == "xgboost":
        return raw, _check_xgboost_json(raw, d)
    text, rounds = _check_lightgbm_text(raw, d)
    return text.encode("ascii"), rounds


_FLOAT32_TINY = float(np.finfo(np.float32).tiny)
# XGBoost squares summed gradients (of the order of the total weight) in float32 when it
# scores a split: above this total every gain overflows and no tree splits (measured: a
# total of 2e19 fits as at weight 1, 2e20 does not).
_WEIGHT_TOTAL_MAX = float(np.sqrt(np.float64(_FLOAT32_MAX)))


def _check_weights(weight, X, is_pos, name: str, what: str) -> np.ndarray:
    """Sample weights for the engines: one finite non-negative weight per row, positive
    total weight in each class, and a scale that float32 (how both engines store weights
    and XGBoost its gradients) keeps: no positive weight below its smallest normal value
    (it would become 0) and a total at most ``sqrt(float32 max)`` (about 1.8e19)."""
    try:
        w = _check_sample_weight(weight, X, dtype=np.float64, ensure_non_negative=True)
    except ValueError as exc:
        raise ValueError(f"{name}: {what}: {exc}") from None
    if not (w[is_pos].sum() > 0 and w[~is_pos].sum() > 0):
        raise ValueError(f"{name}: {what}: each class needs positive total sample weight.")
    total, low = float(w.sum()), float(w[w > 0].min())
    if not total <= _WEIGHT_TOTAL_MAX or low < _FLOAT32_TINY:
        raise ValueError(f"{name}: {what} holds weights from {low:.3g} to {float(w.max()):.3g} (total {total:.3g}); "
                         f"XGBoost and LightGBM compute in float32, where weights need a total of at most "
                         f"{_WEIGHT_TOTAL_MAX:.3g} and no positive weight below {_FLOAT32_TINY:.3g}. Rescale the "
                         "weights (only their ratios matter to the ranking).")
    return w


def _all_constant(X) -> bool:
    """Whether every column of ``X`` holds one value (all NaN counts as one value)."""
    if hasattr(X, "tocsc"):
        X = X.tocsc()
        n = X.shape[0]
        cols = (np.append(X.data[X.indptr[j]:X.indptr[j + 1]], [] if X.indptr[j + 1] - X.indptr[j] == n else [0.0])
                for j in range(X.shape[1]))
    else:
        cols = (X[:, j] for j in range(X.shape[1]))
    for v in cols:
        nan = np.isnan(v)
        if nan.all():
            continue
        if nan.any() or v.min() != v.max():
            return False
    return True


def _constant_lightgbm_text(d: int) -> str:
    """LightGBM's text model of one tree with one leaf of value 0 on ``d`` features: what
    LightGBM itself saves when no feature can be split."""
    names = " ".join(f"Column_{j}" for j in range(d))
    tree = "\n".join(["Tree=0", "num_leaves=1", "num_cat=0"] + [f"{k}=" for k in (
        "split_feature", "split_gain", "threshold", "decision_type", "left_child", "right_child")]
        + ["leaf_value=0", "leaf_weight=", "leaf_count=0"] + [f"{k}=" for k in (
            "internal_value", "internal_weight", "internal_count")] + ["is_linear=0", "shrinkage=1", "", ""])
    return ("tree\nversion=v4\nnum_class=1\nnum_tree_per_iteration=1\nlabel_index=0\n"
            f"max_feature_idx={d - 1}\nfeature_names={names}\nfeature_infos={' '.join(['none'] * d)}\n\n"
            f"{tree}end of trees\n\npandas_categorical:null\n")


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
    pickle; loading it needs the engine. The engines trust their model bytes, so
    :func:`rankwise.load_model` checks them first, without building a Python object per
    number: every tree is a tree (children in range, each node reached once from the root),
    splits on features below ``n_features_in_``, thresholds, leaf values and the base score
    are finite (as float32 for XGBoost), sizes agree; LightGBM's text is handed to the engine
    rewritten from the checked values, without its ``parameters:`` section (threads, paths).
    Supported: single-output ``gbtree`` and ``dart`` boosters, LightGBM's numeric and
    categorical splits; ``gblinear`` and LightGBM's ``linear_tree`` are refused by
    ``save_model``.

    Sample weights (``sample_weight``, ``eval_sample_weight``) must suit float32, in which
    the engines compute: a total of at most about 1.8e19 (XGBoost squares summed gradients
    in float32 when scoring a split) and no positive weight below about 1.2e-38. When no
    feature varies, LightGBM (which refuses to train) gets the constant model XGBoost
    grows: one tree of one leaf of value 0.

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
        (``evals_result_``); early stopping watches the last one. Each is validated like the
        training data: its labels hold both training classes and no other label.
        ``eval_sample_weight``: a list with one entry per pair, None or a weight array of
        that pair's length (finite, non-negative, positive in each class).
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
        name = type(self).__name__
        sw = _check_weights(sample_weight, X, is_pos, name, "sample_weight")
        evals = []
        if eval_set is not None and not isinstance(eval_set, (list, tuple)):
            raise TypeError(f"{name}: eval_set must be a list of (X, y) pairs. Got {type(eval_set).__name__} instead.")
        eval_set = list(eval_set or [])
        if eval_sample_weight is not None:
            if not isinstance(eval_sample_weight, (list, tuple)):
                raise TypeError(f"{name}: eval_sample_weight must be a list (one weight array or None per eval_set "
                                f"pair). Got {type(eval_sample_weight).__name__} instead.")
            if len(eval_sample_weight) != len(eval_set):
                raise ValueError(f"{name}: eval_sample_weight has {len(eval_sample_weight)} entries for "
                                 f"{len(eval_set)} eval_set pairs; it needs one per pair.")
        for k, pair in enumerate(eval_set):
            if not (isinstance(pair, (tuple, list)) and len(pair) == 2):
                raise ValueError(f"eval_set must be a list of (X, y) pairs; item {k} is not.")
            Xe = validate_data(self, pair[0], accept_sparse=["csr", "csc"], dtype=_FEATURE_DTYPES, reset=False,
                               ensure_all_finite="allow-nan")
            _check_float32_range(Xe, name)
            ye = np.asarray(pair[1])
            if ye.ndim != 1:
                raise ValueError(f"{name}: the labels of eval_set item {k} must be 1-d; got shape {ye.shape}.")
            check_same_length(Xe.shape[0], ye.shape[0])
            known = np.isin(ye, self.classes_)
            if not known.all():
                foreign = np.asarray(ye[~known][:1]).tolist()[0]
                raise ValueError(f"{name}: the labels of eval_set item {k} hold {foreign!r}, which is not one of the "
                                 f"training classes {self.classes_.tolist()}.")
            pos_e = ye == self.classes_[1]
            if pos_e.all() or not pos_e.any():
                raise ValueError(f"{name}: the labels of eval_set item {k} hold one class only; the evaluation "
                                 f"metric needs both classes {self.classes_.tolist()}.")
            we = None if eval_sample_weight is None else eval_sample_weight[k]
            if we is not None:
                we = _check_weights(we, Xe, pos_e, name, f"eval_sample_weight[{k}]")
            evals.append((Xe, pos_e.astype(np.float64), we))
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
            if _all_constant(X):
                # LightGBM refuses to train when no feature can be split (XGBoost grows
                # single-leaf trees): the same constant model, one leaf of value 0
                self.booster_ = _lightgbm_booster(_constant_lightgbm_text(X.shape[1]), name)
                self.n_estimators_ = 1
                obj.grad_hess(label, np.zeros(X.shape[0]), weight)   # the loss at the constant score
                self.objective_ = np.asarray(obj.history_[:1], dtype=np.float64)
                self.intercept_ = 0.0
                raw = self._raw_scores(X)
                warn_if_degenerate(self, X, raw, is_pos, sw)
                self.intercept_ = threshold_offset(raw, is_pos, sw)
                return self
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
        # what load_model would refuse is refused here, when it can still be refitted
        try:
            _check_booster(self.engine, raw, int(self.n_features_in_))
        except ValueError as exc:
            raise ValueError(f"{type(self).__name__}: this {self.engine} model cannot be saved: {exc}.") from None
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
        if isinstance(T, bool) or not isinstance(T, int) or T < 1:
            raise ValueError(f"{name} model state: n_estimators_ must be an int >= 1.")
        if self.engine not in _ENGINES:
            raise ValueError(f"{name} model state: engine must be 'xgboost' or 'lightgbm'.")
        objective = np.asarray(arrays["objective_"])
        if objective.ndim != 1 or objective.dtype.kind not in "fiu":
            raise ValueError(f"{name} model state: objective_ must be a 1-d array of numbers (one per round).")
        restore_common_state(self, attributes)   # checks n_features_in_, intercept_, ...
        d = self.n_features_in_
        # The engines trust their model bytes (an index out of range crashes them, a cycle
        # hangs LightGBM): every tree is checked first, and what the engine reads is what
        # was checked (LightGBM's text rewritten from the checked values, without its
        # parameters section: threads, paths and verbosity are not taken from a file).
        try:
            payload, rounds = _check_booster(self.engine, raw.tobytes(), d)
        except (ValueError, UnicodeDecodeError) as exc:
            raise ValueError(f"{name} model state: booster_ is not a valid {self.engine} model "
                             f"({_one_line(exc)}).") from None
        if objective.size > rounds:
            raise ValueError(f"{name} model state: objective_ has {objective.size} values for the {rounds} rounds of "
                             f"the {self.engine} model.")
        if rounds < T:
            raise ValueError(f"{name} model state: n_estimators_ = {T} exceeds the {rounds} rounds of the "
                             f"{self.engine} model.")
        if self.engine == "xgboost":
            xgb = _engine("xgboost")
            booster = xgb.Booster(params=None if self.n_jobs is None else {"nthread": int(self.n_jobs)})
            try:
                booster.load_model(bytearray(payload))
            except xgb.core.XGBoostError as exc:
                raise ValueError(f"{name} model state: booster_ is not a valid XGBoost model "
                                 f"({_one_line(exc)}).") from None
            if booster.num_boosted_rounds() < T or booster.num_features() != d:
                raise ValueError(f"{name} model state: the XGBoost model does not match n_estimators_ / n_features_in_.")
        else:
            booster = _lightgbm_booster(payload.decode("ascii"), name)
            if booster.current_iteration() < T or booster.num_feature() != d:
                raise ValueError(f"{name} model state: the LightGBM model does not match n_estimators_ / n_features_in_.")
        self.booster_ = booster
        self.n_estimators_ = int(T)
        self.objective_ = objective.astype(np.float64).copy()
        self.evals_result_ = {}


def _one_line(exc: BaseException) -> str:
    """An exception's message on one line, bounded (the engines' messages span lines)."""
    text = " ".join(str(exc).split())
    return text if len(text) <= 300 else text[:297] + "..."


def _lightgbm_booster(text: str, name: str):
    """A LightGBM booster from checked model text."""
    lgb = _engine("lightgbm")
    try:
        return lgb.Booster(model_str=text)
    except lgb.basic.LightGBMError as exc:
        raise ValueError(f"{name} model state: booster_ is not a valid LightGBM model ({_one_line(exc)}).") from None
