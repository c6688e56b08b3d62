"""Ranking criteria (scores: higher is better; ``pnorm_push`` and ``ranking_risk`` are
losses: lower is better). Each function looks its criterion up in
:mod:`rankwise.criteria` and runs it on one rank table; see
:mod:`rankwise.metrics._criteria` for the shared conventions and ``docs/criteria.md`` for
the definitions."""

from .. import criteria as _criteria_registry
from . import _criteria
from ._criteria import *  # noqa: F403 - the criterion functions, _criteria.__all__
from ._calibration import (
    CalibrationCurve,
    bin_totals,
    brier_score,
    brier_value,
    calibration_bins,
    calibration_curve,
    calibration_error,
    check_bins,
    check_probability_inputs,
    curve_from_rows,
    expected_calibration_error,
    proportion_interval,
)
from ._curves import PRCurve, ROCCurve, pr_from_points, precision_recall_curve, roc_curve
from ._det import DETCurve, det_curve
from ._distributions import ScoreDistributions, score_distributions
from ._groups import (XAUC, WEIGHTINGS, StratumParts, bias_aucs, bias_definitions, group_cells, stratified_auc,
                      stratum_parts, xauc)
from ._gain import GainCurve, LiftCurve, gain_at, gain_curve, lift_at, lift_curve
from ._oppoints import (OperatingPoints, OptimalThreshold, check_operating_request, cut_at_fpr, operating_points,
                        optimal_threshold, points_from_table)
from ._multiclass import PairwiseAUCs, multiclass_auc
from ._multiclass_scorer import multiclass_auc_scorer, vus_scorer
from ._risk import ranking_risk
from ._smooth import BinormalFit, SmoothAUCInterval, SmoothROC, smooth_roc
from ._vus import vus
from ._run import DEFAULT_CRITERIA, compute, evaluate
from ._scorer import scorer


class _Registry:
    """A read-only view of :mod:`rankwise.criteria`'s registry: name -> unit class."""

    def __getitem__(self, name):
        return _criteria_registry.unit_class(name)

    def __contains__(self, name):
        return name in _criteria_registry.names()

    def __iter__(self):
        return iter(_criteria_registry.names())

    def __len__(self):
        return len(_criteria_registry.names())

    def __repr__(self):
        return f"CRITERIA({', '.join(_criteria_registry.names())})"


#: Every registered criterion, by name (a view of :func:`rankwise.criteria.names`).
CRITERIA = _Registry()

#: Names that other layers of rankwise build on, not re-exported at the top level.
BUILDING_BLOCKS = ("compute", "pr_from_points", "CRITERIA", "DEFAULT_CRITERIA", "check_operating_request",
                   "points_from_table",
                   # probability scores' pieces, shared with rankwise.stats
                   "check_probability_inputs", "check_bins", "calibration_bins", "bin_totals", "calibration_error",
                   "curve_from_rows", "proportion_interval", "brier_value",
                   # class x group cells, shared with rankwise.stats
                   "group_cells", "stratum_parts", "StratumParts", "WEIGHTINGS", "bias_definitions")

__all__ = [
    "multiclass_auc",
    "PairwiseAUCs",
    "vus",
    *_criteria.__all__,
    "roc_curve",
    "ROCCurve",
    "precision_recall_curve",
    "PRCurve",
    "det_curve",
    "DETCurve",
    "calibration_curve",
    "CalibrationCurve",
    "brier_score",
    "expected_calibration_error",
    "gain_curve",
    "GainCurve",
    "lift_curve",
    "LiftCurve",
    "gain_at",
    "lift_at",
    "score_distributions",
    "ScoreDistributions",
    "operating_points",
    "OperatingPoints",
    "optimal_threshold",
    "cut_at_fpr",
    "OptimalThreshold",
    "ranking_risk",
    "smooth_roc", "SmoothROC", "BinormalFit", "SmoothAUCInterval",
    "bias_aucs",
    "xauc",
    "XAUC",
    "stratified_auc",
    "evaluate",
    "scorer",
    "multiclass_auc_scorer",
    "vus_scorer",
]
# The building blocks (BUILDING_BLOCKS) stay importable from here for compatibility;
# their documented home is :mod:`rankwise.metrics.blocks`.
