"""Learners on features of extreme scale (issue 14, item 6): a learner either fits (its
AUC close to the fit on the unscaled features) or says that its scorer is degenerate
(DegenerateScorerWarning, a ConvergenceWarning); it never returns a constant scorer in
silence. On ordinary data nothing is reported."""

import warnings

import numpy as np
import pytest
from sklearn.exceptions import ConvergenceWarning

import rankwise as rw
from rankwise import learners

LEARNERS = [getattr(learners, name) for name in learners.__all__
            if isinstance(getattr(learners, name), type) and hasattr(getattr(learners, name), "decision_function")]


def _data():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(500, 3))
    y = (X[:, 0] + rng.normal(size=500) > 0).astype(int)
    return X, y


def _fit(cls, X, y):
    """The DegenerateScorerWarnings a fit on the first 400 rows raised, and the AUC of its
    scores on the other 100 (NaN when they are not finite): held-out rows, because a
    scorer can rank its training rows and nothing else."""
    params = {"random_state": 0} if "random_state" in cls().get_params() else {}
    if cls is rw.ExactLinearRankMaximizer:  # two features only (it enumerates a 2-D class)
        X = X[:, :2]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        model = cls(**params).fit(X[:400], y[:400])
    degenerate = [w for w in caught if issubclass(w.category, rw.DegenerateScorerWarning)]
    with np.errstate(all="ignore"):
        s = model.decision_function(X[400:])
    value = rw.auc(y[400:], s) if np.all(np.isfinite(s)) else np.nan
    return degenerate, value


# OAM and AdaOAM follow their papers' update rules, which are not scale-invariant: on
# features of size 1e150 they still give a varied ranking, only a worse one, so there is
# neither a constant scorer to report nor the unscaled fit's AUC.
_ONLINE_DEGRADED = {("OAM", 1e150), ("AdaOAM", 1e150), ("AdaOAM", 1e-150)}


def test_every_public_learner_is_checked():
    assert len(LEARNERS) == 15 and rw.DegenerateScorerWarning.__mro__[1] is ConvergenceWarning


@pytest.mark.parametrize("cls", LEARNERS, ids=lambda c: c.__name__)
def test_normal_data_raise_no_degenerate_warning(cls):
    X, y = _data()
    degenerate, value = _fit(cls, X, y)
    assert not degenerate and value > 0.7


@pytest.mark.parametrize("scale", [1e150, 1e-150])
@pytest.mark.parametrize("cls", LEARNERS, ids=lambda c: c.__name__)
def test_extreme_scale_fits_or_warns(cls, scale, request):
    if (cls.__name__, scale) in _ONLINE_DEGRADED:
        request.applymarker(pytest.mark.xfail(reason="the online update rules are not scale-invariant", strict=False))
    X, y = _data()
    _, reference = _fit(cls, X, y)
    if cls.__name__ == "BoostedPairwiseRanker" and scale > 1:
        # the engines store features as float32 (largest 3.4e38): refused with the reason
        with pytest.raises(ValueError, match="float32"):
            _fit(cls, X * scale, y)
        return
    degenerate, value = _fit(cls, X * scale, y)
    # either it fits: the AUC of the unscaled fit, give or take what a different optimiser
    # path costs; or it says that its scorer is degenerate
    assert degenerate or value >= reference - 0.05, (value, reference)
    if degenerate:
        assert "standardise" in str(degenerate[0].message)


def test_constant_scores_on_constant_features_are_not_reported():
    X = np.ones((40, 2))
    y = np.r_[np.zeros(20, int), np.ones(20, int)]
    with warnings.catch_warnings():
        warnings.simplefilter("error", rw.DegenerateScorerWarning)
        rw.PairwiseRanker().fit(X, y)
        rw.ProperLossRanker().fit(X, y)
