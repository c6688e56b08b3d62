"""Numeric cores on validated arrays: the rank table, passes over it, pair counts, sums
over all pairs for the pairwise surrogates.

Nothing here validates input; the public functions of :mod:`rankwise.metrics`
do that once, at the door.
"""

from ._moments import merge_moments, merge_moments3, moments, moments3
from ._pairs import discordant_pairs, discordant_per_element
from ._pairsums import cumsum0, hinge_pair_sums, log_weights, suffix0
from ._ranktable import RankTable, build_rank_table

__all__ = [
    "RankTable",
    "build_rank_table",
    "discordant_pairs",
    "discordant_per_element",
    "moments",
    "merge_moments",
    "moments3",
    "merge_moments3",
    "cumsum0",
    "suffix0",
    "hinge_pair_sums",
    "log_weights",
]
