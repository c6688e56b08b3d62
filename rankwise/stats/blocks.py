"""Building blocks of :mod:`rankwise.stats` that other layers of rankwise build on (the
distributed inference, the report, the command line): public names, not part of the
user API listed in ``rankwise.stats.__all__``."""

from ._compare import (
    ADJUSTMENTS,
    ALTERNATIVES,
    TEST_ALTERNATIVES,
    build_comparison,
    check_margin,
    check_names,
    check_projection,
    check_reference,
    cluster_note,
    score_columns,
)
from ._core import bootstrap_interval, cached_draws, check_level, normal_interval
from ._estimate import Inference, analytic_methods, check_bandwidth, check_method, resolve_criterion, warn_few_clusters
from ._groups import BIAS_STATISTICS, GroupSizes, auc_by_group_from_moments, check_reference_group
from ._dist import norm_ppf, norm_sf
from ._results import fmt, fmt_count, format_rows, html_table
from ._variance import (
    cluster_acceleration,
    cluster_sums,
    covariance_from_cluster_sums,
    term_covariance,
    variance_of_moments,
)
from ._variance import _power_of_two_tops as power_of_two_tops  # each column's largest term, a power of two

__all__ = [
    "ADJUSTMENTS",
    "ALTERNATIVES",
    "TEST_ALTERNATIVES",
    "build_comparison",
    "check_margin",
    "check_names",
    "check_projection",
    "check_reference",
    "cluster_note",
    "score_columns",
    "check_level",
    "bootstrap_interval",
    "cached_draws",
    "normal_interval",
    "Inference",
    "analytic_methods",
    "check_bandwidth",
    "check_method",
    "resolve_criterion",
    "warn_few_clusters",
    "fmt",
    "fmt_count",
    "format_rows",
    "html_table",
    "norm_ppf",
    "norm_sf",
    "GroupSizes",
    "BIAS_STATISTICS",
    "check_reference_group",
    "auc_by_group_from_moments",
    "cluster_acceleration",
    "cluster_sums",
    "covariance_from_cluster_sums",
    "power_of_two_tops",
    "term_covariance",
    "variance_of_moments",
]
