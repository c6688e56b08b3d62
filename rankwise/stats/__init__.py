"""Inference for ranking criteria: standard errors, confidence intervals,
comparisons of scorers and confidence bands for the ROC curve.

Every function here validates its input like :mod:`rankwise.metrics` and returns a
small immutable result object with ``summary()`` (text) and ``_repr_html_``.
Higher score = more likely positive, always.
"""

from ._band import ROCBand, roc_band
from ._compare import Comparison, PairwiseDifference, adjust_p_values, compare, compare_unpaired
from ._estimate import ANALYTIC_METHODS, DegenerateIntervalWarning, Estimate, estimate, estimate_many
from ._results import ConfidenceInterval
from ._risk import RiskDecomposition

__all__ = [
    "estimate",
    "estimate_many",
    "compare",
    "compare_unpaired",
    "roc_band",
    "adjust_p_values",
    "Estimate",
    "Comparison",
    "PairwiseDifference",
    "ROCBand",
    "ConfidenceInterval",
    "RiskDecomposition",
    "DegenerateIntervalWarning",
    "ANALYTIC_METHODS",
]
