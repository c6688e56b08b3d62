"""Numeric cores on validated arrays: the rank table, passes over it, pair counts.

Nothing here validates input; the public functions of :mod:`rankwise.metrics`
do that once, at the door.
"""

from ._pairs import discordant_pairs, discordant_per_element
from ._ranktable import RankTable, build_rank_table

__all__ = ["RankTable", "build_rank_table", "discordant_pairs", "discordant_per_element"]
