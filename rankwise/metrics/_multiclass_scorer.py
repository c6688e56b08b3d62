"""scikit-learn scorers for several classes: ``multiclass_auc_scorer`` (one-vs-rest or
one-vs-one AUC of ``predict_proba``, its columns matched to the estimator's ``classes_``)
and ``vus_scorer`` (the VUS/HUM of one score for ordered classes).

A scorer is a callable ``scorer(estimator, X, y) -> float``, greater is better:
``cross_val_score(model, X, y, scoring=multiclass_auc_scorer())`` and
``GridSearchCV(model, grid, scoring=vus_scorer(["low", "mid", "high"]))`` take it as
they take a scorer name.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._validation import check_choice, to_numpy
from ._multiclass import multiclass_auc
from ._vus import vus

__all__ = ["multiclass_auc_scorer", "vus_scorer"]

_RESPONSES = ("auto", "decision_function", "expected_class", "predict")


def _label_list(labels: Any, func: str) -> list:
    """``labels`` as a list of distinct classes (at least two), or the error naming it."""
    if labels is None or isinstance(labels, (str, bytes)):
        raise TypeError(f"The 'labels' parameter of {func} must be a sequence of classes. Got a "
                        f"{type(labels).__name__} ({labels!r}) instead.")
    arr = to_numpy(labels, "labels")
    if arr.ndim != 1:
        raise ValueError(f"The 'labels' parameter of {func} must be 1-dimensional. Got shape {arr.shape} instead.")
    labs = [v.item() if isinstance(v, np.generic) else v for v in arr]
    if len(labs) < 2:
        raise ValueError(f"The 'labels' parameter of {func} must list at least 2 classes. Got {len(labs)}.")
    seen: set = set()
    for v in labs:
        try:
            if v in seen:
                raise ValueError(f"The 'labels' parameter of {func} must hold distinct classes; {v!r} is repeated.")
        except TypeError as exc:
            raise TypeError(f"The 'labels' parameter of {func} must hold hashable classes. Got {v!r}.") from exc
        seen.add(v)
    return labs


def _classes(estimator: Any, func: str) -> list:
    classes = getattr(estimator, "classes_", None)
    if classes is None:
        raise TypeError(f"{func}: the estimator must be a fitted classifier with a classes_ attribute (the classes "
                        f"of its predict_proba columns). {type(estimator).__name__} has none.")
    return [v.item() if isinstance(v, np.generic) else v for v in np.asarray(classes)]


def _probabilities(estimator: Any, X: Any, func: str) -> tuple[np.ndarray, list]:
    if not hasattr(estimator, "predict_proba"):
        raise TypeError(f"{func}: the estimator must have a predict_proba method (one probability column per "
                        f"class). {type(estimator).__name__} has none.")
    classes = _classes(estimator, func)
    P = np.asarray(estimator.predict_proba(X), dtype=np.float64)
    if P.ndim != 2 or P.shape[1] != len(classes):
        raise ValueError(f"{func}: the estimator's predict_proba gives an array of shape {P.shape}; expected one "
                         f"column per class of its classes_ ({len(classes)}).")
    return P, classes


def _columns(P: np.ndarray, classes: list, labels: list, func: str) -> np.ndarray:
    """The probability columns in the order of ``labels``: a class of ``labels`` the
    estimator was not fitted on gets a column of zeros (the estimator never predicts it)."""
    where = {v: j for j, v in enumerate(classes)}
    unknown = [v for v in classes if v not in set(labels)]
    if unknown:
        raise ValueError(f"{func}: the estimator's classes_ hold {unknown!r}, which 'labels' {labels!r} does not "
                         f"list; 'labels' must name every class.")
    S = np.zeros((P.shape[0], len(labels)))
    for k, v in enumerate(labels):
        if v in where:
            S[:, k] = P[:, where[v]]
    return S


class _MulticlassAUCScorer:
    """The callable :func:`multiclass_auc_scorer` returns (a class, so that it pickles for
    ``n_jobs`` > 1 and prints what it computes)."""

    def __init__(self, multi_class: str, average: str, labels: list | None):
        self.multi_class, self.average, self.labels = multi_class, average, labels

    def __call__(self, estimator, X, y, sample_weight=None) -> float:
        func = "multiclass_auc_scorer"
        P, classes = _probabilities(estimator, X, func)
        if self.labels is None:
            known = set(classes)
            y_arr = to_numpy(y, "y_true")
            try:
                present = np.unique(y_arr).tolist()
            except TypeError:
                present = list(dict.fromkeys(y_arr.tolist()))
            unseen = [v for v in present if v not in known]
            if unseen:
                raise ValueError(f"{func}: y holds class(es) {unseen!r} that the estimator was not fitted on (its "
                                 f"classes_ are {classes!r}); pass labels= listing every class so that they score "
                                 f"with a probability of 0.")
            labels, S = classes, P
        else:
            labels = self.labels
            S = _columns(P, classes, labels, func)
        return multiclass_auc(y, S, multi_class=self.multi_class, average=self.average, labels=labels,
                              sample_weight=sample_weight)

    def __repr__(self) -> str:
        labels = "" if self.labels is None else f", labels={self.labels!r}"
        return f"multiclass_auc_scorer(multi_class={self.multi_class!r}, average={self.average!r}{labels})"


def multiclass_auc_scorer(multi_class: str = "ovr", average: str = "macro", labels=None):
    r"""A scikit-learn scorer of the multiclass AUC: ``scorer(estimator, X, y)``.

    For model selection with several classes (``cross_val_score``, ``GridSearchCV``):
    the scorer takes the fitted classifier's ``predict_proba(X)``, reads its columns by
    the estimator's ``classes_`` and returns :func:`rankwise.multiclass_auc` of them
    against ``y``. Greater is better.

    Parameters
    ----------
    multi_class : {"ovr", "ovo"}, default "ovr"
        One-vs-rest, or one-vs-one (Hand & Till).
    average : {"macro", "weighted", "micro"}, default "macro"
        As in :func:`rankwise.multiclass_auc` (``"micro"`` with ``"ovr"`` only; no
        ``None``: a scorer gives one number). One-vs-one macro is Hand & Till's M.
    labels : sequence of classes, optional
        Every class of the problem. Without it the classes are the estimator's
        ``classes_``, and a class of ``y`` the estimator was not fitted on is an error.
        With it, a class the estimator of a fold never saw in training scores a
        probability of 0 on every row (which is what that model predicts), so folds
        whose training part misses a rare class still score.

    Returns
    -------
    callable
        ``scorer(estimator, X, y, sample_weight=None) -> float``. A test fold without a
        row of some class gives nan for the one-vs-rest macro average (with
        :class:`rankwise.UndefinedMetricWarning`), as :func:`rankwise.multiclass_auc`
        does; the weighted average and one-vs-one leave the absent class out.

    Raises
    ------
    ValueError
        ``multi_class`` or ``average`` invalid (now, not at scoring time); at scoring
        time, the estimator's ``classes_`` hold a class ``labels`` does not list, or ``y``
        a class the estimator does not know (without ``labels``), or the probabilities'
        rows do not sum to 1.
    TypeError
        The estimator has no ``predict_proba`` or no ``classes_``.

    Notes
    -----
    With :math:`p_{ik}` the probability of class :math:`k` for test row :math:`i`, class
    :math:`k`'s one-vs-rest AUC is the share of (row of class :math:`k`, row of another
    class) pairs whose :math:`p_{\cdot k}` are in order, ties 1/2; one-vs-one reads each
    pair of classes on the rows of those two (Hand & Till 2001, "A simple generalisation
    of the area under the ROC curve for multiple class classification problems", Machine
    Learning 45). The value equals scikit-learn's ``roc_auc_score(y, predict_proba(X),
    multi_class=..., average=..., labels=classes_)`` wherever that is defined.

    Examples
    --------
    Three classes on one feature, each fold ranks every class perfectly on its own
    probability column:

    >>> import rankwise as rw
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn.model_selection import cross_val_score
    >>> X = [[0.0], [0.2], [0.4], [0.6], [2.0], [2.2], [2.4], [2.6], [4.0], [4.2], [4.4], [4.6]]
    >>> y = [0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2]
    >>> cross_val_score(LogisticRegression(), X, y, cv=2, scoring=rw.multiclass_auc_scorer()).tolist()
    [1.0, 1.0]
    >>> rw.multiclass_auc_scorer("ovo")
    multiclass_auc_scorer(multi_class='ovo', average='macro')
    """
    func = "multiclass_auc_scorer"
    check_choice(multi_class, "multi_class", func, ("ovr", "ovo"))
    check_choice(average, "average", func, ("macro", "weighted", "micro"))
    if average == "micro" and multi_class == "ovo":
        raise ValueError(f"The 'average' parameter of {func} can be 'micro' with multi_class='ovr' only.")
    labs = None if labels is None else _label_list(labels, func)
    return _MulticlassAUCScorer(multi_class, average, labs)


def _one_score(s: np.ndarray) -> np.ndarray | None:
    """``s`` as one score a row, or None when it has several columns."""
    if s.ndim == 2 and s.shape[1] == 1:
        s = s[:, 0]
    return s if s.ndim == 1 else None


def _is_regressor(estimator: Any) -> bool:
    try:
        from sklearn.base import is_regressor
    except ImportError:  # pragma: no cover - scikit-learn is a core dependency
        return False
    try:
        return bool(is_regressor(estimator))
    except Exception:  # noqa: BLE001 - an object scikit-learn cannot inspect is no regressor
        return False


def _along_labels(s: np.ndarray, estimator: Any, labels: list, func: str) -> tuple[np.ndarray, str]:
    """A one-score ``decision_function`` read along the estimator's ``classes_`` (it grows
    with ``classes_[1]`` for a binary classifier, along ``classes_`` for an ordinal ranker):
    as is when ``labels`` list those classes in that order, negated in the reverse order,
    an error in any other order. Without ``classes_``: as is."""
    if getattr(estimator, "classes_", None) is None:
        return s, "decision_function"
    classes = _classes(estimator, func)
    known = set(classes)
    common = [v for v in labels if v in known]
    if common == classes:
        return s, "decision_function"
    if common == classes[::-1]:
        return -s, "decision_function (negated)"
    raise ValueError(f"{func}: {type(estimator).__name__}'s decision_function ranks along its classes_ {classes!r}, "
                     f"which 'labels' {labels!r} list in another order; fit it with the classes in their order, or "
                     f"pass response='expected_class'.")


def ordinal_score(estimator: Any, X: Any, labels: list, response: str = "auto", func: str = "vus_scorer"
                  ) -> tuple[np.ndarray, str]:
    """``(score, how)``: one score a row, higher = a higher class in the order of
    ``labels``, read from a fitted estimator as :func:`vus_scorer` documents."""
    name = type(estimator).__name__
    if response in ("auto", "decision_function") and hasattr(estimator, "decision_function"):
        s = _one_score(np.asarray(estimator.decision_function(X)))
        if s is not None:
            return _along_labels(s, estimator, labels, func)
        if response == "decision_function":
            raise ValueError(f"{func}: {name}'s decision_function gives several columns; response='decision_function' "
                             f"needs one score a row.")
    elif response == "decision_function":
        raise TypeError(f"{func}: {name} has no decision_function.")
    if response in ("auto", "expected_class") and hasattr(estimator, "predict_proba"):
        P, classes = _probabilities(estimator, X, func)
        S = _columns(P, classes, labels, func)
        return S @ np.arange(len(labels), dtype=np.float64), "expected class index"
    if response == "expected_class":
        raise TypeError(f"{func}: {name} has no predict_proba.")
    if response == "predict" or (response == "auto" and _is_regressor(estimator)):
        if not hasattr(estimator, "predict"):
            raise TypeError(f"{func}: {name} has no predict.")
        s = _one_score(np.asarray(estimator.predict(X)))
        if s is None or s.dtype.kind not in "biuf":
            raise ValueError(f"{func}: {name}'s predict does not give one real score a row.")
        return s, "predict"
    raise TypeError(f"{func}: {name} gives no score for ordered classes: it needs a decision_function of one score a "
                    f"row, a predict_proba with classes_, or to be a regressor (response='predict').")


class _VUSScorer:
    """The callable :func:`vus_scorer` returns."""

    def __init__(self, labels: list, response: str):
        self.labels, self.response = labels, response

    def __call__(self, estimator, X, y, sample_weight=None) -> float:
        s, _ = ordinal_score(estimator, X, self.labels, self.response)
        return vus(y, s, labels=self.labels, sample_weight=sample_weight)

    def __repr__(self) -> str:
        resp = "" if self.response == "auto" else f", response={self.response!r}"
        return f"vus_scorer({self.labels!r}{resp})"


def vus_scorer(labels, *, response: str = "auto"):
    r"""A scikit-learn scorer of the VUS (three ordered classes) or HUM (more):
    ``scorer(estimator, X, y)``.

    For model selection with ordered classes (severity, grade, stage): the scorer turns
    the fitted estimator's output into one score a row, higher meaning a higher class in
    the order of ``labels``, and returns its :func:`rankwise.vus` against ``y``. Greater
    is better.

    Parameters
    ----------
    labels : sequence of K >= 2 classes
        The classes in their order, lowest first.
    response : {"auto", "decision_function", "expected_class", "predict"}
        How the score is read. ``"auto"``, in this order: ``decision_function(X)`` when it
        gives one score a row (:class:`rankwise.OrdinalRanker`, a binary classifier, a
        ranker), read as growing along the estimator's ``classes_`` when it has them
        (scikit-learn's rule for two classes): negated when ``labels`` list them in the
        reverse order, an error in another order; else the expected
        class index under ``predict_proba(X)``, :math:`\sum_k k\, p_k` with
        :math:`k = 0, \dots, K-1` the position of the class in ``labels`` (columns matched
        by ``classes_``; a class the estimator never saw has probability 0); else, for a
        regressor (a regression on the class index), ``predict(X)``. The other values
        force one of the three.

    Returns
    -------
    callable
        ``scorer(estimator, X, y, sample_weight=None) -> float``; nan with
        :class:`rankwise.UndefinedMetricWarning` for a test fold missing a class.

    Raises
    ------
    ValueError, TypeError
        ``labels`` or ``response`` invalid (now); at scoring time, an estimator with none
        of the three outputs, a ``classes_`` holding a class ``labels`` does not list, or
        ``y`` holding one (from :func:`rankwise.vus`).

    Notes
    -----
    The VUS is the probability that one row drawn from each class, in the order of
    ``labels``, has scores increasing along that order, ties shared by their
    tie-breakings (Mossman 1999, "Three-way ROCs", Medical Decision Making 19; Nakas &
    Yiannoutsos 2004, "Ordered multiple-class ROC analysis with continuous
    measurements", Statistics in Medicine 23; the HUM of Li & Fine 2008, "ROC analysis
    with multiple classes and multiple tests", Biostatistics 9). The expected class
    index is one way to rank rows by a probabilistic classifier's belief that they are
    high: it uses the order of the classes, which the probabilities alone do not know.

    Examples
    --------
    An estimator whose decision function is the first feature. Of the 8 chains (one row
    of each class a < b < c) the scores increase along 6: the two through a's 0.5 and
    b's 0.4 do not.

    >>> import numpy as np
    >>> import rankwise as rw
    >>> class FirstColumn:
    ...     def decision_function(self, X):
    ...         return np.asarray(X)[:, 0]
    >>> X = [[0.1], [0.5], [0.4], [0.6], [0.9], [0.7]]
    >>> rw.vus_scorer(["a", "b", "c"])(FirstColumn(), X, ["a", "a", "b", "b", "c", "c"])
    0.75
    """
    func = "vus_scorer"
    labs = _label_list(labels, func)
    check_choice(response, "response", func, _RESPONSES)
    return _VUSScorer(labs, response)
