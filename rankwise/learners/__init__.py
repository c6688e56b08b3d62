"""Learners of scoring functions: scikit-learn estimators for binary labels whose
``decision_function`` is the learned score (higher = more likely ``classes_[1]``) and
whose ``score`` is the AUC; and :class:`OrdinalRanker` for ordered classes (one score,
higher = a higher class; ``score`` is the VUS), built from bipartite rankers.

Besides the estimators, the pieces of their objectives that :mod:`rankwise.distributed`
fits with too (parameter checks, per-block loss terms, penalties, the optimiser's start
and the fitted attributes; see :mod:`rankwise.learners._objectives`) and the label check
they share (:func:`binary_classes`). What each learner minimises, and the theory behind
it, is in ``docs/learners.md``.
"""

from ._base import DegenerateScorerWarning, binary_classes
from ._bbr import BBRRanker, LCBRRanker, solve_bbr
from ._boost import RankBoost
from ._engines import (BOOSTING_LOSSES, AllPairsObjective, BoostedPairwiseRanker, EngineMetric, lightgbm_metric,
                       lightgbm_objective, xgboost_metric, xgboost_objective)
from ._kernel import KernelRanker
from ._objectives import (check_bbr, check_pairwise, check_proper, pair_moments_from_classes, pointwise_loss,
                          proper_penalised, proper_terms, solve_pairwise, solve_proper)
from ._online import OAM, PGD, SPAM, AdaOAM
from ._ordinal import OrdinalRanker
from ._pairwise import PairwiseRanker
from ._pnorm import PNormPush
from ._proper import ProperLossRanker
from ._rankstat import RankStatisticRanker
from ._exact import ExactLinearRankMaximizer, LinearRankSweep, linear_rank_sweep

__all__ = [
    "BBRRanker", "LCBRRanker", "PairwiseRanker", "ProperLossRanker", "OAM", "AdaOAM", "PGD", "SPAM", "RankBoost",
    "PNormPush", "KernelRanker", "RankStatisticRanker", "ExactLinearRankMaximizer", "linear_rank_sweep",
    "LinearRankSweep", "DegenerateScorerWarning",
    # ordered classes: bipartite rankers of the classes' pairs, aggregated
    "OrdinalRanker",
    # the boosting engines (XGBoost, LightGBM: the 'boost' extra)
    "BoostedPairwiseRanker", "AllPairsObjective", "EngineMetric", "BOOSTING_LOSSES", "xgboost_objective",
    "lightgbm_objective", "xgboost_metric", "lightgbm_metric",
    # what rankwise.distributed fits with too
    "binary_classes", "check_bbr", "solve_bbr", "check_proper", "check_pairwise",
    "pair_moments_from_classes", "pointwise_loss", "proper_terms", "proper_penalised", "solve_proper",
    "solve_pairwise",
]
