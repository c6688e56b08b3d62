"""The Gini coefficient (accuracy ratio) of credit scoring: ``2 AUC - 1``."""

from __future__ import annotations

from ._auc import AUC
from ._base import register

__all__ = ["Gini"]


@register
class Gini(AUC):
    r"""``Gini = 2 AUC - 1`` (ties count 1/2 in the AUC), the accuracy ratio of a
    cumulative accuracy profile; in [-1, 1], 0 for a random score. Its projection is the
    AUC's (DeLong's placements) times 2, so its DeLong interval is the AUC's mapped by
    ``2x - 1``."""

    name = "gini"
    examples = ("gini",)

    def __init__(self):
        pass

    def describe(self) -> str:
        return "Gini (2 AUC − 1)"

    def finish(self, sums, n_pos, n_neg):
        return 2.0 * super().finish(sums, n_pos, n_neg) - 1.0

    def scale(self, value, bsums, g, n_pos, n_neg):
        return 2.0, (-1.0, 1.0)
