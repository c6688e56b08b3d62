"""What every rankwise learner shares: label handling, the scoring function, ``score``.

Learners are scikit-learn estimators for *binary* labels. They learn a scoring function
``s(x)`` (``decision_function``); higher score = more likely positive, the positive class
being ``classes_[1]`` (the larger label, scikit-learn's convention). ``score`` is the AUC
of the scores, not accuracy: ranking is what these estimators are for. ``predict``
exists so that they work wherever scikit-learn expects a classifier: ``decision_function > 0``
is called positive, and ``intercept_`` (which a ranking does not depend on) is set at fit
so that this marks the top of the training ranking holding the same share of the sample
as the positives do, unless the learner has a calibrated intercept of its own.
"""

from __future__ import annotations

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import _check_sample_weight, check_is_fitted, validate_data

from ..metrics import auc

__all__ = ["RankerMixin", "BinaryLinearRanker", "DegenerateScorerWarning", "warn_if_degenerate", "threshold_offset",
           "warn_if_not_converged", "lbfgs", "coordinate_scale", "store_params", "common_state", "restore_common_state", "finite_array", "fill_doc",
           "state_param", "INPUT_SCALE", "check_score_bound", "check_scorer", "check_extra_state"]


def fill_doc(**snippets):
    """Class decorator for docstring sections that several classes share: each line of the
    docstring that is only ``%(name)s`` is replaced by ``snippets[name]``, every line of
    it indented as the placeholder was."""
    def fill(cls):
        if not cls.__doc__:  # python -OO
            return cls
        lines = []
        for line in cls.__doc__.splitlines():
            key = line.strip()
            if key.startswith("%(") and key.endswith(")s") and key[2:-2] in snippets:
                indent = line[: len(line) - len(line.lstrip())]
                lines.extend(indent + part if part else part for part in snippets[key[2:-2]].splitlines())
            else:
                lines.append(line)
        cls.__doc__ = "\n".join(lines)
        return cls

    return fill


def store_params(estimator, params: dict) -> None:
    """What a scikit-learn ``__init__`` does and all it does: store each argument under its
    own name (``get_params`` reads them back by the names of ``__init__``'s signature).
    ``params`` is ``locals()`` at the top of ``__init__``; ``self`` is skipped."""
    for name, value in params.items():
        if name != "self":
            setattr(estimator, name, value)


def lbfgs(objective, x0: np.ndarray, max_iter: int, tol: float, name: str, scale=None):
    """scipy's L-BFGS-B on ``objective(x) -> (value, gradient)`` with the settings every
    rankwise learner uses (``gtol=tol``, ``ftol=1e-15``, overflow in ``exp`` silenced: the
    losses are written to saturate), warning when it stopped on ``max_iter``.

    ``scale`` (from :func:`coordinate_scale`) runs the optimiser in the coordinates
    ``v = scale * x``: the same objective with the same minimiser, only the optimiser's
    steps and its gradient tolerance are measured in units the data make meaningful.
    ``res.x`` is always in the original coordinates."""
    from scipy import optimize

    if scale is not None:
        inner = objective

        def objective(v):
            value, grad = inner(v / scale)
            return value, grad / scale

        x0 = x0 * scale
    with np.errstate(over="ignore"):
        res = optimize.minimize(objective, x0, jac=True, method="L-BFGS-B",
                                options={"maxiter": max_iter, "gtol": tol, "ftol": 1e-15})
    if scale is not None:
        res.x = res.x / scale
    warn_if_not_converged(res, name, max_iter)
    return res


def coordinate_scale(X, extra: int = 0):
    """Per-coefficient scales for :func:`lbfgs`, or ``None`` when every column of ``X`` is
    of ordinary magnitude. A linear score ``X @ w`` is unchanged when a column is
    multiplied by ``c`` and its weight divided by ``c``, but the optimiser's absolute
    gradient tolerance and first step are not: at features of size 1e150 the first step
    overflows, at 1e-150 the gradient at 0 is already below the tolerance, and both fits
    stop at ``w = 0`` (constant scores). A column whose largest ``|x|`` lies outside
    ``[2**-20, 2**20]`` gets that size, rounded to a power of two (so the change of
    coordinates is exact), as its weight's scale; others, and ``extra`` trailing
    coefficients (an intercept), get 1, so fits on ordinary data are unchanged. The
    objective, penalty included, is not changed: this is a change of the optimiser's
    coordinates, not a standardisation of the data."""
    size = abs(X).max(axis=0)
    size = np.asarray(size.toarray() if hasattr(size, "toarray") else size, dtype=np.float64).ravel()
    out = np.ones(size.shape[0] + extra)
    odd = (size > 0) & np.isfinite(size) & ((size > 2.0 ** 20) | (size < 2.0 ** -20))
    if not odd.any():
        return None
    out[: size.shape[0]][odd] = np.exp2(np.round(np.log2(size[odd])))
    return out


def warn_if_not_converged(res, name: str, max_iter: int) -> None:
    """scikit-learn's ``ConvergenceWarning`` when L-BFGS stopped on its iteration cap
    (``res.status == 1``) rather than on its tolerance: the fit may be under-converged."""
    if getattr(res, "status", 0) == 1:
        import warnings

        from sklearn.exceptions import ConvergenceWarning

        warnings.warn(f"{name}: L-BFGS reached max_iter={max_iter} before its tolerance; the solution may be "
                      "under-converged (raise max_iter, or loosen tol).", ConvergenceWarning, stacklevel=3)


class DegenerateScorerWarning(ConvergenceWarning):
    """A fitted scorer gives every training row the same score, or non-finite scores,
    although the training data hold both classes and a feature that varies: its AUC is
    0.5 because the fit failed, not because the features carry no signal. The usual cause
    is features on an extreme scale (say 1e150 or 1e-150), where the optimiser's steps
    or tolerances lose their meaning; standardise the features and fit again. A subclass
    of scikit-learn's ``ConvergenceWarning``, so filters for that catch it too."""


def warn_if_degenerate(estimator, X, scores: np.ndarray, is_pos: np.ndarray, sw: np.ndarray) -> bool:
    """Warn (:class:`DegenerateScorerWarning`) and return True when the training
    ``scores`` of a fit are constant or not all finite on rows of positive weight while
    those rows hold both classes and some column of ``X`` varies over them. Every rankwise
    learner calls this once its training scores are known, so the check is the same for
    all of them. Constant scores on data whose features are all constant are the right
    answer and pass silently."""
    import warnings

    keep = sw > 0
    s = np.asarray(scores, dtype=np.float64).ravel()[keep]
    finite = bool(np.all(np.isfinite(s)))
    if finite and (s.size == 0 or s.min() != s.max()):
        return False
    if not (np.any(is_pos[keep]) and np.any(~is_pos[keep])):
        return False
    Xk = X if keep.all() else X[np.flatnonzero(keep)]
    if Xk.shape[0] == 0 or Xk.shape[1] == 0:
        return False
    high, low = Xk.max(axis=0), Xk.min(axis=0)
    high = high.toarray() if hasattr(high, "toarray") else np.asarray(high)
    low = low.toarray() if hasattr(low, "toarray") else np.asarray(low)
    if not np.any(high > low):
        return False
    what = "scores that are not all finite" if not finite else "the same score to every training row"
    warnings.warn(f"{type(estimator).__name__}: the fitted scorer gives {what}, although the features vary and both "
                  "classes are present (its AUC is 0.5 by construction). Features on an extreme scale are the usual "
                  "cause: standardise them and fit again.", DegenerateScorerWarning, stacklevel=3)
    return True


def binary_classes(y: np.ndarray, name: str) -> np.ndarray:
    """The two sorted classes of ``y`` (scikit-learn's target checks first), or the error
    that says how many classes ``y`` holds."""
    check_classification_targets(y)
    classes = np.unique(y)
    if classes.shape[0] != 2:
        n_cls = classes.shape[0]
        raise ValueError(
            f"Only binary classification is supported: {name} learns a ranking of two "
            f"classes, and y holds {n_cls} class{'es' if n_cls != 1 else ''} "
            f"({', '.join(map(repr, classes[:5].tolist()))}{', ...' if n_cls > 5 else ''})."
        )
    return classes


def threshold_offset(s: np.ndarray, is_pos: np.ndarray, sw: np.ndarray) -> float:
    """The offset making ``s + offset > 0`` mark the top of the training ranking that holds
    the same (weighted) share of the sample as the positives: minus a threshold halfway
    between that top's lowest score and the next lower one. Unweighted, the cut is a
    selection (``np.partition``), not a sort; observations with zero weight are ignored."""
    if np.all(sw == 1.0):
        n = s.shape[0]
        k = int(np.count_nonzero(is_pos))
        cut = float(np.partition(s, n - k)[n - k])
    else:
        keep = sw > 0
        s, sw, is_pos = s[keep], sw[keep], is_pos[keep]
        order = np.argsort(-s, kind="stable")
        mass = np.cumsum(sw[order])
        target = float(sw[is_pos].sum())
        k = int(np.searchsorted(mass, target * (1.0 - 1e-12)))  # first position reaching the share
        cut = float(s[order[min(k, s.shape[0] - 1)]])
    below = s[s < cut]
    threshold = 0.5 * (cut + below.max()) if below.size else cut - 1.0
    return -float(threshold)


def common_state(estimator) -> dict:
    """The attributes every rankwise learner saves (:func:`rankwise.save_model`):
    ``intercept_``, ``n_features_in_``, ``classes_`` and, for DataFrame input,
    ``feature_names_in_``, as JSON-ready values."""
    attrs = {"intercept_": float(estimator.intercept_), "n_features_in_": int(estimator.n_features_in_),
             "classes_": estimator.classes_.tolist()}
    if hasattr(estimator, "feature_names_in_"):
        attrs["feature_names_in_"] = [str(f) for f in estimator.feature_names_in_]
    return attrs


def restore_common_state(estimator, attributes: dict) -> None:
    """Set the attributes of :func:`common_state` from a loaded model's ``attributes``,
    removing them from that dict (what is left is the learner's own). A model file's
    checksums show it was not damaged, not that what it says makes a scorer: a loaded
    model must give a finite score to every finite row, on the columns it names, so the
    state is refused (``ValueError`` naming the field) unless ``classes_`` holds two
    distinct labels of one plain type (fit sorts them; ``rankwise fit --pos-label`` saves
    ``[negative, positive]``, so either order is accepted), ``n_features_in_`` is a
    positive int, ``intercept_`` a finite number and ``feature_names_in_`` (when
    present) ``n_features_in_`` distinct strings."""
    name = type(estimator).__name__
    classes = attributes.pop("classes_")
    # one plain type before numpy sees them: np.asarray(["a", 1]) would make two strings
    plain = (isinstance(classes, (list, tuple)) and len({type(c) for c in classes}) == 1
             and all(type(c) in (bool, int, float, str) for c in classes))
    classes = np.asarray(classes) if plain else np.empty(0)
    # fit's classes_ come from np.unique: two labels of one plain type (bool, number or
    # string). The order is fit's (sorted) or the command line's [negative, positive]
    # (rankwise fit --pos-label), so only distinctness is required: != fails for equal
    # labels, NaN is refused as not finite, and an object array of mixed or None labels
    # is no such pair.
    if (classes.shape != (2,) or classes.dtype.kind not in "biufU"
            or (classes.dtype.kind == "f" and not np.all(np.isfinite(classes))) or not classes[0] != classes[1]):
        raise ValueError(f"{name} model state: classes_ must hold two distinct labels of one type (numbers, "
                         "booleans or strings).")
    d = attributes.pop("n_features_in_")
    if isinstance(d, bool) or not isinstance(d, int) or d < 1:
        raise ValueError(f"{name} model state: n_features_in_ must be an int >= 1. Got {d!r}.")
    intercept = attributes.pop("intercept_")
    if isinstance(intercept, bool) or not isinstance(intercept, (int, float)) or not np.isfinite(intercept):
        raise ValueError(f"{name} model state: intercept_ must be a finite number. Got {intercept!r}.")
    if "feature_names_in_" in attributes:
        names = attributes.pop("feature_names_in_")
        if not isinstance(names, list) or not all(isinstance(f, str) for f in names):
            raise ValueError(f"{name} model state: feature_names_in_ must be a list of strings.")
        if len(names) != d:
            raise ValueError(f"{name} model state: feature_names_in_ holds {len(names)} names for "
                             f"n_features_in_ = {d} features.")
        seen: set = set()
        twice = next((f for f in names if f in seen or seen.add(f)), None)
        if twice is not None:
            raise ValueError(f"{name} model state: feature_names_in_ names the column {twice!r} twice.")
        estimator.feature_names_in_ = np.asarray(names, dtype=object)
    estimator.classes_ = classes
    estimator.intercept_ = float(intercept)
    estimator.n_features_in_ = d


def finite_array(name: str, field: str, value, shape: tuple) -> np.ndarray:
    """A loaded float64 array of ``shape`` whose entries are all finite, or the
    ``ValueError`` naming the field: one NaN or infinite weight makes every score NaN
    or infinite."""
    a = np.asarray(value)
    if a.dtype.kind not in "biuf" or a.shape != shape:
        raise ValueError(f"{name} model state: {field} must be a float array of shape {shape}; got {a.dtype} {a.shape}.")
    a = a.astype(np.float64, copy=False)
    if not np.all(np.isfinite(a)):
        raise ValueError(f"{name} model state: {field} holds NaN or infinite values.")
    return a


def state_param(name: str, field: str, check, *args, **kwargs):
    """``check(*args, **kwargs)`` (a parameter check of fit's, e.g. ``check_param``) for
    the parameter ``field`` of a loaded model, its ``TypeError`` (and the
    ``OverflowError`` of an integer too large for a float) turned into the
    ``ValueError`` that a refused model state raises; returns what ``check`` returns."""
    try:
        return check(*args, **kwargs)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{name} model state: {exc}") from exc
    except OverflowError as exc:
        raise ValueError(f"{name} model state: a parameter ({field}) is out of range ({exc}).") from exc


#: The size of feature that a loaded scorer must be able to score without overflow: a
#: state is refused when a row with every ``|x_j| <= INPUT_SCALE`` can score beyond
#: float64's range. 2**20 is where :func:`coordinate_scale` starts calling a feature's
#: size extreme; the margin costs only weights within a factor 1e6 of float64's largest
#: number, which no fit on features of normal floating-point size produces.
INPUT_SCALE = 2.0 ** 20


def check_score_bound(name: str, bound: float, what: str) -> None:
    """Refuse a loaded state whose scores can overflow on ordinary input: ``bound`` is an
    upper bound of ``|score|`` over rows with every ``|x_j| <= INPUT_SCALE`` (for stump
    ensembles, over every row), computed in float64; when it is not finite, some such
    row may score ``inf`` (or ``NaN``, when an infinite term meets its opposite)."""
    if not np.isfinite(bound):
        raise ValueError(f"{name} model state: {what} are so large that rows with features of size up to 2**20 "
                         "can score beyond float64's range; this state does not make a finite scorer.")


#: Rows of the probe that :func:`check_scorer` scores (the first ``_PROBE_ROWS`` of
#: zeros, ones, minus ones and standard normal rows); fewer for very wide models.
_PROBE_ROWS = 6
_PROBE_WIDE = 1 << 16


def check_scorer(estimator) -> None:
    """The last check of a loaded state (after the learner's own explicit ones): score a
    small fixed probe of ``n_features_in_`` columns (a row of zeros, of ones, of minus
    ones and standard normal rows from a fixed seed; only the first two when the model
    is wider than 65,536 features) with ``decision_function``, ``predict`` and, where
    the learner has them, ``predict_proba`` and ``staged_decision_function``; raise
    ``ValueError`` when any of them raises or gives a value that is not finite. The
    probe costs what scoring a handful of rows costs."""
    import warnings

    name = type(estimator).__name__
    d = int(estimator.n_features_in_)
    n_rows = 2 if d > _PROBE_WIDE else _PROBE_ROWS
    probe = np.empty((n_rows, d))
    probe[:3] = np.array([0.0, 1.0, -1.0])[:n_rows, None]
    if n_rows > 3:
        probe[3:] = np.random.default_rng(0).standard_normal((n_rows - 3, d))
    try:
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")  # e.g. "X does not have valid feature names"
            outputs = [("decision_function", estimator.decision_function(probe))]
            labels = np.asarray(estimator.predict(probe))
            if hasattr(estimator, "predict_proba"):
                outputs.append(("predict_proba", estimator.predict_proba(probe)))
            if hasattr(estimator, "staged_decision_function"):
                outputs.extend(("staged_decision_function", s) for s in estimator.staged_decision_function(probe))
    except Exception as exc:  # noqa: BLE001 - any failure means the state does not make a scorer
        raise ValueError(f"{name} model state does not make a scorer: scoring a probe raised "
                         f"{type(exc).__name__}: {exc}") from exc
    for what, values in outputs:
        values = np.asarray(values)
        if values.dtype.kind not in "biuf" or not np.all(np.isfinite(values)):
            raise ValueError(f"{name} model state does not make a finite scorer: its {what} is not finite "
                             "on a probe of ordinary rows.")
    if not np.all(np.isin(labels, estimator.classes_)):
        raise ValueError(f"{name} model state does not make a scorer: predict gives labels outside classes_.")


#: Checks of the saved scalars a learner adds (``_extra_state_kinds``), by kind.
_EXTRA_KINDS = {
    "count": ("an int >= 0", lambda v: isinstance(v, int) and not isinstance(v, bool) and v >= 0),
    "number": ("a number", lambda v: isinstance(v, (int, float)) and not isinstance(v, bool)),
    "flag": ("a bool", lambda v: isinstance(v, bool)),
    "text": ("a string", lambda v: isinstance(v, str)),
    "numbers": ("a list of numbers", lambda v: isinstance(v, list) and all(
        isinstance(x, (int, float)) and not isinstance(x, bool) for x in v)),
}


def check_extra_state(name: str, attributes: dict, kinds: dict) -> None:
    """Each saved scalar of ``attributes`` named in ``kinds`` (name -> a key of
    ``_EXTRA_KINDS``) is of its kind, or ``ValueError`` naming it. ``"number"`` allows
    NaN (a diagnostic such as an objective value that fit could not compute)."""
    for key, kind in kinds.items():
        if key in attributes:
            what, ok = _EXTRA_KINDS[kind]
            if not ok(attributes[key]):
                raise ValueError(f"{name} model state: {key} must be {what}. Got {attributes[key]!r:.60}.")


class RankerMixin(ClassifierMixin):
    """``score`` is the AUC of ``decision_function``."""

    def score(self, X, y, sample_weight=None) -> float:
        """AUC of the scores on ``(X, y)`` (positive class ``classes_[1]``)."""
        check_is_fitted(self)
        y = np.asarray(y)
        return auc(y == self.classes_[1], self.decision_function(X), sample_weight=sample_weight)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False
        tags.input_tags.sparse = True
        return tags


class BinaryLinearRanker(RankerMixin, BaseEstimator):
    """Base of the linear rankers: ``s(x) = x @ coef_ + intercept_``."""

    def _validate_fit(self, X, y, sample_weight, accept_sparse=("csr", "csc")):
        X, y = validate_data(self, X, y, accept_sparse=list(accept_sparse), dtype=np.float64)
        self.classes_ = binary_classes(y, type(self).__name__)
        classes = self.classes_
        is_pos = y == classes[1]
        sw = _check_sample_weight(sample_weight, X, dtype=np.float64, ensure_non_negative=True)
        if not (sw[is_pos].sum() > 0 and sw[~is_pos].sum() > 0):
            raise ValueError(f"{type(self).__name__}: each class needs positive total sample weight.")
        return X, is_pos, sw

    def _set_threshold(self, X, is_pos, sw) -> None:
        """Set ``intercept_`` so that ``decision_function > 0`` marks the top of the training
        ranking holding the same (weighted) share of the sample as the positives do. The
        ranking itself does not depend on it. A constant or non-finite training ranking
        is reported (:func:`warn_if_degenerate`)."""
        s = np.asarray(X @ self.coef_).ravel()
        warn_if_degenerate(self, X, s, is_pos, sw)
        self.intercept_ = threshold_offset(s, is_pos, sw)

    def decision_function(self, X) -> np.ndarray:
        """The learned scores ``X @ coef_ + intercept_``: higher = more likely ``classes_[1]``."""
        check_is_fitted(self)
        X = validate_data(self, X, accept_sparse=["csr", "csc"], dtype=np.float64, reset=False)
        return np.asarray(X @ self.coef_).ravel() + self.intercept_

    def predict(self, X) -> np.ndarray:
        """``classes_[1]`` where ``decision_function`` is positive, else ``classes_[0]``."""
        check_is_fitted(self)
        return self.classes_[(self.decision_function(X) > 0).astype(int)]

    # --- the safe model format (rankwise.save_model / load_model) ---------------------------
    def _get_model_state(self):
        attrs = common_state(self)
        attrs.update(self._extra_state())
        return attrs, {"coef_": np.asarray(self.coef_, dtype=np.float64)}

    def _set_model_state(self, attributes, arrays):
        attributes = dict(attributes)
        expected = {"intercept_", "n_features_in_", "classes_", "feature_names_in_"} | set(self._extra_state_names)
        unknown = set(attributes) - expected
        if unknown or set(arrays) != {"coef_"}:
            raise ValueError(
                f"{type(self).__name__} model state has unexpected fields: attributes "
                f"{sorted(unknown)}, arrays {sorted(set(arrays) ^ {'coef_'})}."
            )
        name = type(self).__name__
        restore_common_state(self, attributes)
        check_extra_state(name, attributes, self._extra_state_kinds)
        self._check_scoring_params()
        self.coef_ = finite_array(name, "coef_", arrays["coef_"], (self.n_features_in_,))
        with np.errstate(over="ignore"):
            bound = INPUT_SCALE * float(np.abs(self.coef_).sum()) + abs(self.intercept_)
        check_score_bound(name, bound, "coef_ and intercept_")
        for k, v in attributes.items():
            setattr(self, k, v)
        if type(self)._set_model_state is BinaryLinearRanker._set_model_state:
            check_scorer(self)  # a subclass that extends this method probes once it is done

    def _check_scoring_params(self) -> None:
        """Hook for a loaded state: check, as fit does (raising ``ValueError``), the
        parameters that scoring reads (e.g. the loss whose link ``predict_proba`` uses)."""

    #: Names of the scalar fitted attributes a subclass adds to the saved state.
    _extra_state_names: tuple = ()
    #: Their kinds (see :func:`check_extra_state`), checked when a state is loaded.
    _extra_state_kinds: dict = {}

    def _extra_state(self) -> dict:
        return {}
