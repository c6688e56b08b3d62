"""Ranking risk with real-valued labels (Clémençon, Lugosi & Vayatis 2008)."""

from __future__ import annotations

from ._run import compute

__all__ = ["ranking_risk"]


def ranking_risk(y_true, y_score, *, pairs: str = "comparable", sample_weight=None) -> float:
    r"""Empirical ranking risk of a scoring function, for real-valued (graded) labels.

    A loss: the weighted share of pairs that the scores order against their labels.

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Real labels (binary or graded relevance); larger = should rank higher.
    y_score : array-like of shape (n,)
        Real scores.
    pairs : {"comparable", "all"}
        ``"all"``: the U-statistic averaged over all ``n(n-1)`` ordered pairs (pairs with
        equal labels contribute 0). ``"comparable"`` (default): averaged over pairs with
        different labels only, so that for binary labels it equals ``1 - AUC``.
    sample_weight : array-like of shape (n,), optional
        A pair weighs ``w_i w_j``. With ``pairs="comparable"`` an integer weight is the
        same as repeating the observation. With ``pairs="all"`` the denominator is
        ``sum_{i != j} w_i w_j``: repeated copies of one observation would also pair
        with each other (equal labels, counted in the denominator only), so there
        integer weights are importance weights, not repetitions.

    Notes
    -----
    With :math:`Z_{ij} = (y_i - y_j)/2` and the rule :math:`r(x, x') = \mathrm{sign}(s(x) - s(x'))`,

    .. math:: L_n = \frac{1}{n(n-1)} \sum_{i \ne j} \left(\mathbf 1\{Z_{ij}(s_i - s_j) < 0\}
              + \tfrac12 \mathbf 1\{s_i = s_j, y_i \ne y_j\}\right)

    Ties in score count 1/2; pairs with equal labels are not comparable. O(n log n): a
    sort by score, then an inversion count of the labels bit by bit. Reference:
    Clémençon, Lugosi & Vayatis, "Ranking and empirical minimization of U-statistics",
    Annals of Statistics 36(2), 2008. Undefined (``nan`` with a warning) when no pair is
    comparable (``"comparable"``) or ``n < 2`` (``"all"``).

    Examples
    --------
    Labels 0, 1, 2 scored 0.1, 0.3, 0.2: one of the three pairs is reversed.

    >>> import rankwise as rw
    >>> rw.ranking_risk([0, 1, 2], [0.1, 0.3, 0.2])
    0.333333...
    """
    return compute(("ranking_risk", {"pairs": pairs}), y_true, y_score, sample_weight)
