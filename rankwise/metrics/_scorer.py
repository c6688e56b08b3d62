"""scikit-learn scorers for every criterion: ``rw.scorer("local_auc", top=0.1)``."""

from __future__ import annotations

import numpy as np

from ..phi import parse_spec
from ._criteria import CRITERIA, _compute
from ._risk import ranking_risk

__all__ = ["scorer", "LOSS_CRITERIA"]

#: Criteria that are losses (lower is better): their scorers negate them.
LOSS_CRITERIA = ("pnorm_push", "ranking_risk")


def scorer(criterion: str = "auc", *, pos_label=None, **params):
    """A scikit-learn scorer (for ``GridSearchCV``, ``cross_val_score``...) of a criterion.

    Parameters
    ----------
    criterion : str
        Any criterion of :mod:`rankwise.metrics` (``"auc"``, ``"local_auc"``, ...) or a spec
        string (``"local_auc:top=0.1"``).
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
    spec_params.update(params)
    if name == "ranking_risk":
        ranking_risk([0.0, 1.0], [0.0, 1.0], **spec_params)  # validates the parameters

        def score(y_true, y_score, sample_weight=None):
            return ranking_risk(y_true, y_score, sample_weight=sample_weight, **spec_params)
    elif name in CRITERIA:
        CRITERIA[name][0](**spec_params)  # validates the parameters

        def score(y_true, y_score, sample_weight=None):
            pl = pos_label
            if pl is None:
                labels = np.unique(np.asarray(y_true))
                pl = labels[-1] if labels.shape[0] == 2 else None
            return _compute(name, y_true, y_score, sample_weight, pl, spec_params)
    else:
        valid = ", ".join(repr(c) for c in list(CRITERIA) + ["ranking_risk"])
        raise ValueError(f"The 'criterion' parameter of scorer must be one of {valid}. Got {criterion!r} instead.")
    score.__name__ = name
    return make_scorer(score, response_method=("decision_function", "predict_proba"),
                       greater_is_better=name not in LOSS_CRITERIA)
