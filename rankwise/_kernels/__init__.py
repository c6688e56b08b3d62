"""Numeric cores on validated arrays: the rank table, passes over it, pair counts.

Nothing here validates input; the public functions of :mod:`rankwise.metrics`
do that once, at the door.
"""

from ._moments import merge_moments, merge_moments3, moments, moments3
from ._pairs import discordant_pairs, discordant_per_element
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
]
