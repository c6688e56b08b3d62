"""Numeric cores on validated arrays: the rank table in its three forms (one table, a
bucket seen through the masses below it, a batch of resampled tables), the per-row
builder, the pieces passes and projections share, pair counts and mergeable moments.

Nothing here validates input; the public functions validate once, at the door.
"""

from ._moments import merge_moments, merge_moments3, moments, moments3
from ._pairs import discordant_pairs, discordant_per_element
from ._passes import (
    REL,
    below_plus_tied,
    cumulative_discount,
    discount_block_sums,
    ideal_dcg,
    pooled_ranks,
    power_inplace,
)
from ._projections import Dense, dense, phi_slope, prefix_sum, suffix_sum, window_bandwidth
from ._ranktable import (
    ClassSide,
    MassRows,
    Mirrored,
    RankTable,
    RowSide,
    ShiftedTable,
    build_rank_table,
    table_with_rows,
)

__all__ = [
    "RankTable",
    "ClassSide",
    "RowSide",
    "ShiftedTable",
    "MassRows",
    "Mirrored",
    "build_rank_table",
    "table_with_rows",
    "REL",
    "below_plus_tied",
    "pooled_ranks",
    "power_inplace",
    "discount_block_sums",
    "cumulative_discount",
    "ideal_dcg",
    "Dense",
    "dense",
    "phi_slope",
    "suffix_sum",
    "prefix_sum",
    "window_bandwidth",
    "discordant_pairs",
    "discordant_per_element",
    "moments",
    "merge_moments",
    "moments3",
    "merge_moments3",
]
