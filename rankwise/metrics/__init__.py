"""Ranking criteria (scores: higher is better; ``pnorm_push`` and ``ranking_risk``
are losses: lower is better). All are passes over the rank table; see
:mod:`rankwise.metrics._criteria` for the shared conventions."""

from ._criteria import (
    CRITERIA,
    DEFAULT_CRITERIA,
    ROCCurve,
    auc,
    dcg,
    evaluate,
    local_auc,
    ndcg,
    partial_auc,
    pnorm_push,
    rank_statistic,
    roc_curve,
)
from ._risk import ranking_risk
from ._scorer import scorer

__all__ = [
    "auc",
    "rank_statistic",
    "local_auc",
    "pnorm_push",
    "dcg",
    "ndcg",
    "partial_auc",
    "roc_curve",
    "ROCCurve",
    "ranking_risk",
    "evaluate",
    "scorer",
    "CRITERIA",
    "DEFAULT_CRITERIA",
]
