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
    ROCCurve,
    auc,
    dcg,
    evaluate,
    local_auc,
    ndcg,
    partial_auc,
    pnorm_push,
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
    "roc_curve",
    "ROCCurve",
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
