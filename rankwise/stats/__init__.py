"""Inference for ranking criteria: standard errors, confidence intervals,
comparisons of scorers and confidence bands for the ROC curve.

Every function here validates its input like :mod:`rankwise.metrics` and returns a
small immutable result object with ``summary()`` (text) and ``_repr_html_``.
Higher score = more likely positive, always. The criteria's projections (the terms
behind the Hájek and DeLong variances) and their passes over resampled tables come from
the criteria themselves (:mod:`rankwise.criteria`); this package holds what is common to
all of them: variances, intervals, the stratified bootstrap, comparisons. The
building blocks that rankwise's other layers use are in :mod:`rankwise.stats.blocks`. The
mathematics of each, with the papers, is in ``docs/inference.md``.
"""

from ._accumulator import RankAccumulator
from ._band import ROCBand, roc_band
from ._calibration import (
    BrierDecomposition,
    CalibrationEstimate,
    CalibrationSummary,
    brier_decomposition,
    calibration,
)
from ._compare import (
    ADJUSTMENTS,
    ALTERNATIVES,
    Comparison,
    PairwiseDifference,
    adjust_p_values,
    build_comparison,
    check_names,
    check_projection,
    check_reference,
    compare,
    compare_unpaired,
    score_columns,
)
from ._crossval import CrossValidatedEstimate, MeanROC, cross_validate, cross_validated
from ._curve_test import CurveTest, curve_test, curve_test_unpaired
from ._core import check_level, variance_of_moments
from ._estimate import (
    DegenerateIntervalWarning,
    Estimate,
    FewClustersWarning,
    Inference,
    analytic_methods,
    check_bandwidth,
    check_method,
    estimate,
    estimate_many,
    iter_estimates,
    resolve_criterion,
)
from ._groups import (
    BIAS_STATISTICS,
    BiasRow,
    GroupDifference,
    GroupEstimates,
    GroupRow,
    GroupTest,
    OneClassGroupWarning,
    by_group,
)
from ._oppoints import OperatingPointIntervals, OperatingPointsEstimate, operating_points
from ._coords import COORDINATES, Coords, CoordsIntervals, coords, coords_ci
from ._power import (AUCStudy, auc_study, auc_study_binormal, auc_study_from_pilot, auc_variance_binormal, power_auc,
                     sample_size_auc)
from ._results import ConfidenceInterval, fmt
from ._risk import RiskDecomposition
from ._strata import StratifiedAUC, compare_stratified, stratified_auc
from ._multiclass import MulticlassEstimate  # registers criterion="multiclass_auc" and "vus"

__all__ = [
    "RankAccumulator",
    "MulticlassEstimate",
    "estimate",
    "estimate_many",
    "iter_estimates",
    "compare",
    "compare_unpaired",
    "by_group",
    "stratified_auc",
    "compare_stratified",
    "roc_band",
    "calibration",
    "brier_decomposition",
    "operating_points",
    "coords",
    "coords_ci",
    "Coords",
    "CoordsIntervals",
    "COORDINATES",
    "power_auc",
    "sample_size_auc",
    "auc_study",
    "auc_study_from_pilot",
    "auc_study_binormal",
    "auc_variance_binormal",
    "AUCStudy",
    "adjust_p_values",
    "analytic_methods",
    "Estimate",
    "Comparison",
    "PairwiseDifference",
    "ROCBand",
    "CalibrationSummary",
    "CalibrationEstimate",
    "BrierDecomposition",
    "OperatingPointsEstimate",
    "OperatingPointIntervals",
    "ConfidenceInterval",
    "RiskDecomposition",
    "DegenerateIntervalWarning",
    "FewClustersWarning",
    "GroupEstimates",
    "GroupRow",
    "GroupDifference",
    "GroupTest",
    "BiasRow",
    "OneClassGroupWarning",
    "BIAS_STATISTICS",
    "StratifiedAUC",
    "cross_validated",
    "cross_validate",
    "CrossValidatedEstimate",
    "MeanROC",
    "curve_test",
    "curve_test_unpaired",
    "CurveTest",
]
