"""scikit-learn scorers for every criterion: ``rw.scorer("local_auc", top=0.1)``."""

from __future__ import annotations

import numpy as np

from .. import criteria as _criteria
from .._labels import kind_of
from .._validation import parse_spec
from ._run import compute

__all__ = ["scorer"]


def scorer(criterion: str = "auc", *, pos_label=None, **params):
    """A scikit-learn scorer (for ``GridSearchCV``, ``cross_val_score``...) of a criterion.

    Parameters
    ----------
    criterion : str
        Any criterion of :func:`rankwise.criteria.names` (``"auc"``, ``"local_auc"``, ...)
        or a spec string (``"local_auc:top=0.1"``).
    pos_label : optional
        The positive label; default: the larger of the two labels (scikit-learn's
        ``classes_[1]``).
    **params
        The criterion's parameters (validated now, not at scoring time).

    Returns
    -------
    A scorer calling ``decision_function`` (or, for estimators without one, the positive
    column of ``predict_proba``). Losses (``pnorm_push``, ``ranking_risk``) are negated, as
    scikit-learn's ``neg_*`` scorers are, so that higher is always better for the search.

    Examples
    --------
    >>> import rankwise as rw
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn.model_selection import cross_val_score
    >>> X = [[0.0], [1.0], [2.0], [3.0], [0.5], [2.5], [1.5], [3.5]]
    >>> y = [0, 0, 1, 1, 0, 1, 0, 1]
    >>> cross_val_score(LogisticRegression(), X, y, cv=2, scoring=rw.scorer("local_auc", top=0.5)).tolist()
    [1.0, 1.0]

    Both test folds put their two positives on top of their two negatives: local AUC 1.
    """
    from sklearn.metrics import make_scorer

    name, spec_params = parse_spec(criterion)
    if name not in _criteria.names():
        valid = ", ".join(repr(c) for c in _criteria.names())
        raise ValueError(f"The 'criterion' parameter of scorer must be one of {valid}. Got {criterion!r} instead.")
    spec_params.update(params)
    unit = _criteria.get((name, spec_params))  # validates the parameters now
    binary = kind_of(unit).name == "binary"

    def score(y_true, y_score, sample_weight=None):
        if not binary:
            return compute(unit, y_true, y_score, sample_weight)
        pl = pos_label
        if pl is None:
            labels = np.unique(np.asarray(y_true))
            pl = labels[-1] if labels.shape[0] == 2 else None
        return compute(unit, y_true, y_score, sample_weight, pl)

    score.__name__ = name
    return make_scorer(score, response_method=("decision_function", "predict_proba"),
                       greater_is_better=unit.greater_is_better)
