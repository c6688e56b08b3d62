"""The concordance index as a scikit-learn scorer, for model selection on censored times.

A scorer is a callable ``scorer(estimator, X, y) -> float`` where greater is better:
``cross_val_score(model, X, y, scoring=concordance_scorer())`` and
``GridSearchCV(model, grid, scoring=concordance_scorer(weighting="uno", tau=365))`` take it
as they take a scorer name.
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["concordance_scorer"]


class _ConcordanceScorer:
    """The callable :func:`concordance_scorer` returns (a class, so that it pickles for
    ``n_jobs`` > 1 and prints what it computes)."""

    def __init__(self, weighting: str, tau: float | None):
        self.weighting, self.tau = weighting, tau

    def __call__(self, estimator, X, y) -> float:
        from ._concordance import concordance_index

        time, event = survival_target(y)
        risk = np.asarray(estimator.predict(X))
        if risk.ndim == 2 and risk.shape[1] == 1:
            risk = risk[:, 0]
        if risk.ndim != 1 or risk.shape[0] != time.shape[0]:
            raise ValueError(f"concordance_scorer: the estimator's predict gives an array of shape {risk.shape} for "
                             f"{time.shape[0]} rows; it must give one risk score a row (higher = earlier event).")
        return concordance_index(time, event, risk, weighting=self.weighting, tau=self.tau)

    def __repr__(self) -> str:
        tau = "" if self.tau is None else f", tau={self.tau!r}"
        return f"concordance_scorer(weighting={self.weighting!r}{tau})"


def concordance_scorer(*, weighting: str = "harrell", tau: float | None = None):
    r"""A scikit-learn scorer of the concordance index: ``scorer(estimator, X, y)``.

    For model selection on censored times (``cross_val_score``, ``GridSearchCV``,
    ``RandomizedSearchCV``): the scorer takes the estimator's ``predict(X)`` as **risk
    scores, higher = earlier event** (what scikit-survival's models predict; never
    flipped) and returns their :func:`concordance_index` against ``y``. Greater is better.

    Parameters
    ----------
    weighting : {"harrell", "uno"}, default "harrell"
        Harrell's C (every comparable pair alike) or Uno's C (pairs weighted by the inverse
        squared censoring survival, the Kaplan-Meier of each test fold); see
        :func:`concordance_index`.
    tau : float, optional
        Truncation time of the pairs (each test fold must reach it).

    Returns
    -------
    callable
        ``scorer(estimator, X, y) -> float``, where ``y`` is either a structured array of
        two fields, one boolean (the event) and one numeric (the time), as scikit-survival's
        ``Surv.from_arrays(event, time)`` builds (fields named ``event``/``time``,
        ``status``/``time``, ... in either order), or an array of shape ``(n, 2)`` whose
        columns are the time and the event (0/1). A fold without a comparable pair scores
        nan with an :class:`rankwise.UndefinedMetricWarning` (scikit-learn then warns too).

    Raises
    ------
    ValueError
        ``weighting`` or ``tau`` invalid (checked when scoring, by :func:`concordance_index`),
        or ``y`` in neither form: a structured array without exactly one boolean and one
        numeric field, or a plain array that is not ``(n, 2)``.

    Notes
    -----
    With ``y = (t, e)`` and ``r = predict(X)`` on the test rows, the score is

    .. math:: C = \frac{\sum_{(i, j)\ \mathrm{comparable}} a_i\, \psi(r_i, r_j)}
                       {\sum_{(i, j)\ \mathrm{comparable}} a_i},
              \qquad \psi = 1 \text{ if } r_i > r_j,\ 1/2 \text{ if } r_i = r_j,\ 0 \text{ otherwise},

    a pair being comparable when ``i``'s follow-up ended in the event before ``j``'s (an
    event before a censoring at the same time counts; tied event times do not), and
    ``a_i = 1`` for Harrell's C (Harrell, Lee & Mark 1996, "Multivariable prognostic
    models", Statistics in Medicine 15) or ``1 / G(t_i-)^2`` for Uno's (Uno, Cai, Pencina,
    D'Agostino & Wei 2011, "On the C-statistics for evaluating overall adequacy of risk
    prediction procedures with censored survival data", Statistics in Medicine 30), with
    ``G`` the Kaplan-Meier estimate of the censoring on the test fold; with ``tau`` only
    pairs with ``t_i <= tau`` count. Each fold's C is computed in O(n log n).

    The same estimator scored by scikit-survival's ``concordance_index_censored`` on its
    ``predict`` gives the same Harrell's C when no two event times tie (it counts such
    ties differently; see ``docs/survival.md``); lifelines' ``concordance_index`` wants
    the opposite direction (pass it ``-predict(X)``).

    Examples
    --------
    An estimator whose ``predict`` is the first feature, scored on four rows: times 2, 4,
    5, 7 with events 1, 1, 0, 1. The comparable pairs start from an event: (2, 4), (2, 5),
    (2, 7), (4, 5), (4, 7); all but (4, 5) have the higher risk first, so C = 4/5.

    >>> import numpy as np
    >>> import rankwise as rw
    >>> class FirstColumn:
    ...     def predict(self, X):
    ...         return np.asarray(X)[:, 0]
    >>> X = [[0.9], [0.3], [0.5], [0.1]]
    >>> y = np.array([(True, 2.0), (True, 4.0), (False, 5.0), (True, 7.0)],
    ...              dtype=[("event", "?"), ("time", "<f8")])
    >>> scorer = rw.survival.concordance_scorer()
    >>> scorer(FirstColumn(), X, y)
    0.8
    >>> scorer(FirstColumn(), X, [[2, 1], [4, 1], [5, 0], [7, 1]])  # columns: time, event
    0.8

    In model selection: ``GridSearchCV(model, grid, scoring=concordance_scorer(weighting="uno",
    tau=365))`` keeps the parameters of the highest Uno's C over the folds.
    """
    from .._validation import check_choice

    check_choice(weighting, "weighting", "concordance_scorer", ("harrell", "uno"))
    return _ConcordanceScorer(weighting, tau)


def survival_target(y: Any) -> tuple[np.ndarray, np.ndarray]:
    """``(time, event)`` of a scorer's ``y``: a structured array with one boolean field
    (the event) and one numeric field (the time), or an ``(n, 2)`` array of columns
    (time, event); a ValueError naming ``y`` otherwise."""
    arr = np.asarray(y)
    names = arr.dtype.names
    if names is not None:
        kinds = {f: arr.dtype[f].kind for f in names}
        flags = [f for f in names if kinds[f] == "b"]
        numbers = [f for f in names if kinds[f] in "fiu"]
        if len(names) != 2 or len(flags) != 1 or len(numbers) != 1 or arr.ndim != 1:
            shown = ", ".join(f"{f!r} ({arr.dtype[f]})" for f in names)
            raise ValueError(f"concordance_scorer: a structured 'y' must have two fields, one boolean (the event) "
                             f"and one numeric (the time), as scikit-survival's Surv.from_arrays(event, time) "
                             f"builds. Got fields {shown}.")
        return arr[numbers[0]], arr[flags[0]]
    if arr.ndim != 2 or arr.shape[1] != 2:
        raise ValueError(f"concordance_scorer: 'y' must be a structured array (an event field and a time field, as "
                         f"scikit-survival's Surv.from_arrays builds) or an array of shape (n, 2) with columns time "
                         f"and event. Got an array of shape {arr.shape}.")
    return arr[:, 0], arr[:, 1]
