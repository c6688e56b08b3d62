"""rankwise: bipartite ranking, exact and fast.

Criteria of the family of conditional linear rank statistics (AUC, local AUC,
p-norm push, DCG, partial AUC, any ``phi``) computed from one rank table, and
paper 001's ranking risk for real-valued labels. Higher score = more likely
positive, always.
"""

from . import criteria, io, learners, losses, metrics, phi, stats, theory
from ._version import __version__
from .io import ModelFileError, inspect_model, load_model, save_model
from .learners import OAM, PGD, SPAM, AdaOAM, BBRRanker, LCBRRanker, PairwiseRanker, ProperLossRanker, RankBoost, PNormPush, KernelRanker, RankStatisticRanker
from ._validation import UndefinedMetricWarning
from .metrics import (
    PRCurve,
    ROCCurve,
    auc,
    average_precision,
    dcg,
    evaluate,
    gini,
    ks_statistic,
    local_auc,
    ndcg,
    partial_auc,
    pnorm_push,
    precision_recall_curve,
    rank_statistic,
    ranking_risk,
    roc_curve,
    scorer,
)


__all__ = [
    "auc",
    "rank_statistic",
    "local_auc",
    "pnorm_push",
    "dcg",
    "ndcg",
    "partial_auc",
    "average_precision",
    "ks_statistic",
    "gini",
    "roc_curve",
    "ROCCurve",
    "precision_recall_curve",
    "PRCurve",
    "ranking_risk",
    "evaluate",
    "scorer",
    "metrics",
    "criteria",
    "phi",
    "stats",
    "learners",
    "losses",
    "theory",
    "io",
    "BBRRanker",
    "LCBRRanker",
    "PairwiseRanker",
    "ProperLossRanker",
    "OAM",
    "AdaOAM",
    "PGD",
    "SPAM",
    "RankBoost",
    "PNormPush",
    "KernelRanker",
    "RankStatisticRanker",
    "save_model",
    "load_model",
    "inspect_model",
    "ModelFileError",
    "UndefinedMetricWarning",
    "__version__",
]
