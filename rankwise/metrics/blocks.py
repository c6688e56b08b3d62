"""Building blocks of :mod:`rankwise.metrics` that other layers of rankwise build on
(statistics, the distributed criteria, the report, the command line): public names, not
part of the user API listed in ``rankwise.metrics.__all__``."""

from ._calibration import (
    bin_totals,
    brier_value,
    calibration_bins,
    calibration_error,
    check_bins,
    check_probability_inputs,
    curve_from_rows,
    proportion_interval,
)
from ._curves import pr_from_points, roc_corners, roc_points
from ._groups import WEIGHTINGS, StratumParts, bias_definitions, group_cells, stratum_parts
from ._oppoints import check_operating_request, points_from_table
from ._multiclass import _check_labels as multiclass_labels
from ._multiclass import _check_score_matrix as multiclass_score_matrix
from ._multiclass import _levels as sorted_levels
from ._multiclass import PROBABILITY_RULE, check_probability_rows, ovr_average, rows_off_one
from ._run import DEFAULT_CRITERIA, compute
from ._vus import _as_label_list as ordered_labels
from ._vus import chains_below
from ._vus import _check_vus_inputs as ordinal_inputs
from . import CRITERIA  # the registry view (defined in the package, which is loaded first)

__all__ = [
    "compute",
    "multiclass_labels",
    "multiclass_score_matrix",
    "roc_corners",
    "roc_points",
    "PROBABILITY_RULE",
    "check_probability_rows",
    "rows_off_one",
    "sorted_levels",
    "ovr_average",
    "ordered_labels",
    "ordinal_inputs",
    "chains_below",
    "CRITERIA",
    "pr_from_points",
    "DEFAULT_CRITERIA",
    "check_operating_request",
    "points_from_table",
    "check_probability_inputs",
    "check_bins",
    "calibration_bins",
    "bin_totals",
    "calibration_error",
    "curve_from_rows",
    "proportion_interval",
    "brier_value",
    "group_cells",
    "stratum_parts",
    "StratumParts",
    "WEIGHTINGS",
    "bias_definitions",
]
